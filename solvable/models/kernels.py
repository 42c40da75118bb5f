r"""Infinite-width kernels of two-layer ReLU networks (seed 002, Sections 2.1 and 2.3, Exercise 1).

Source: seed ``002_938675732d5dff93.txt``, B. Loureiro, "Mathematics of Deep Learning,
Lecture 3: Neural networks close to initialisation".

Core (Cho & Saul's arc-cosine kernels): for a standard bivariate normal pair ``(u, v)`` with
correlation ``rho = cos(theta)``, ``theta in [0, pi]``::

    E[1{u > 0} 1{v > 0}]     = J_0(theta) / (2 pi),   J_0 = pi - theta
    E[relu(u) relu(v)]       = J_1(theta) / (2 pi),   J_1 = sin(theta) + (pi - theta) cos(theta)

(:func:`arccos_expectation`); every ReLU kernel of the lecture is one of these times
norms and second moments of the initialisation.

Network, eqs. (2.3) / (2.28): ``f(x; theta0) = p^(-1/2) sum_{j<=p} a_j relu(<w_j, x>)`` with
i.i.d. ``a_j`` of second moment ``E[a^2]`` independent of ``w_j ~ N(0, s^2 I_d)``
(:class:`Initialisation`).  With ``n = |x|``, ``n' = |x'|`` and ``rho = <x, x'>/(n n')``,
``<w, x> = s n u`` and ``<w, x'> = s n' v``, so positive homogeneity of ReLU gives::

    K_RF(x, x')  = E_w[relu(<w,x>) relu(<w,x'>)]                 = s^2 n n' J_1/(2 pi)  (2.31)
    K_NTK(x, x') = <x,x'> E[a^2 relu'(<w,x>) relu'(<w,x'>)]      = E[a^2] n n' rho J_0/(2 pi)
    K_GP(x, x')  = E[a^2 relu(<w,x>) relu(<w,x'>)] = E[a^2] K_RF                            (2.4)
    K_0          = K_RF + K_NTK                                                            (2.30)

(:func:`kernel`, names ``"rf"``, ``"ntk"``, ``"gp"``, ``"k0"``).  At ``x = 0`` or ``x' = 0``
every kernel is 0 (``relu(0) = 0`` and the factor ``<x, x'>``); the closed forms are
``n n'`` times a function bounded on ``[-1, 1]``, so this is also their limit, for every
direction (claim ``homogeneity_and_zero_limit``).  The lecture's initialisations are
:func:`lecture_initialisation` (eq. (2.28): ``a ~ Unif[-1, 1]``, ``w ~ N(0, I_d/d)``) and
:func:`exercise_initialisation` (Exercise 1: ``a ~ Unif{-1, 1}``, ``w ~ N(0, I_d)``).

Numeric evaluators are generated from these expressions by ``sympy.lambdify``: float64
(numpy), mpmath at ``dps`` digits and torch (:func:`kernel_numeric`, :func:`kernel_torch`,
:func:`gram`, :func:`gram_torch`).  They evaluate one rewriting, proved equal to the
lecture's form (claim ``stable_forms``): the kernel in ``phi = pi - theta`` with ``J_1 =
phi^3 sinc3(phi)`` (no cancellation near antiparallel inputs, where ``sin phi`` and ``phi cos
phi`` agree to ``phi^3/3``), ``phi`` computed directly as ``2 atan2(|u + v|, |u - v|)`` from
the chords of the unit vectors (Kahan; never ``pi - theta``), or from ``rho`` through
``sqrt(2 (1 +- rho))``.  In float64 and torch each term's product of norms, moments and
``phi^3`` is formed by :func:`~solvable._core.scaled.scaled_sum` (mantissas and exponents
apart), so no intermediate overflows or underflows where the result is a float; a result
beyond the type is a ``Float64RangeError``.  Gram entries nearer antiparallel than ``phi <
1/16``, where rounded unit vectors would cost ``~3 eps/phi``, are recomputed from the exact
float inputs (integer ``|x|^2 |y|^2 - (x . y)^2``), as are all entries at ``dps``.

Errata (:func:`errata`): Exercise 1's (4.2) lacks the factor ``<x, x'>``; (2.29), (4.1) and
(4.4) have cosmetic index slips.
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from sympy.calculus.util import function_range, minimum

from solvable._core import activations as act
from solvable._core.backends import elementary, generate, sinc3, torch_module
from solvable._core.claims import Erratum, Theorem, Verdict, decide, prove_zero
from solvable._core.geometry import ANGLE, DIFF_NORM, SUM_NORM, SUPPLEMENT, norms_and_chords
from solvable._core.model import Model
from solvable._core.numbers import FLOAT64_MAX, Float64RangeError, mpmath_in_mpmath_out, to_expr
from solvable._core.numbers import check_dps as _check_dps
from solvable._core.numbers import check_int as _check_int
from solvable._core.numbers import describe as _describe
from solvable._core.numbers import exact_to_mpf as _to_mpf
from solvable._core.scaled import scaled_sum
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, error_in_units, worst_of
from solvable.models.linearisation import network_output

SEED = "002_938675732d5dff93.txt"

RHO = sp.Symbol("rho", real=True)
"""Correlation ``cos(theta)`` of the two pre-activations, in ``[-1, 1]``."""
THETA = sp.Symbol("theta", nonnegative=True)
"""Angle between ``x`` and ``x'``, in ``[0, pi]``."""
N1 = sp.Symbol("n1", positive=True)
"""``|x|`` (the closed forms extend by 0 to ``|x| = 0``, see :func:`kernel`)."""
N2 = sp.Symbol("n2", positive=True)
"""``|x'|``."""
A2 = sp.Symbol("E_a2", positive=True)
"""Second moment ``E[a^2]`` of the output weights (generic initialisation)."""
S2 = sp.Symbol("s2", positive=True)
"""Variance ``s^2`` of each entry of ``w ~ N(0, s^2 I_d)`` (generic initialisation)."""
D = sp.Symbol("d", positive=True, integer=True)
"""The input dimension ``d``."""

KERNELS = ("gp", "rf", "ntk", "k0")
"""Kernel names: ``gp`` (2.4), ``rf`` and ``ntk`` (2.31), ``k0 = rf + ntk`` (2.30)."""
A_LAWS = ("uniform", "rademacher", "gaussian")
"""Laws of the output weights a (for sampling; the kernels only need ``E[a^2]``)."""

__all__ = [
    "A2",
    "A_LAWS",
    "C1",
    "C2",
    "COVARIANCE_PAIRS",
    "KERNELS",
    "N1",
    "N2",
    "PHI",
    "RHO",
    "S2",
    "SEED",
    "TABLE_1",
    "THETA",
    "D",
    "DefaultInitialisation",
    "Initialisation",
    "P",
    "a_fourth_moment",
    "arccos_expectation",
    "claims",
    "default_initialisation",
    "errata",
    "exercise_initialisation",
    "exercise_printed_ntk",
    "generic_initialisation",
    "gram",
    "gram_torch",
    "kernel",
    "kernel_numeric",
    "kernel_of_vectors",
    "kernel_theta",
    "kernel_torch",
    "lecture_initialisation",
    "output_cumulant",
    "output_excess_kurtosis",
    "relu_moment",
    "table_1_covariance",
    "uniform_variance",
]


def arccos_expectation(order: int, rho: sp.Expr = RHO) -> sp.Expr:
    r"""``E[1{u>0} 1{v>0} (u v)^order]`` for standard normals ``u, v`` with correlation
    ``rho``: ``J_order(arccos rho) / (2 pi)`` (Cho & Saul 2009), ``order in {0, 1}``.

    ``order = 0`` is the ReLU-derivative kernel ``E[sigma'(u) sigma'(v)]``; ``order = 1`` the
    ReLU kernel ``E[sigma(u) sigma(v)]``."""
    if isinstance(order, bool) or not isinstance(order, numbers.Integral) or order not in (0, 1):
        raise ValueError(f"order must be 0 or 1, got {_describe(order)}")
    rho = to_expr("rho", rho)
    theta = sp.acos(rho)
    if order == 0:
        return (sp.pi - theta) / (2 * sp.pi)
    return (sp.sqrt(1 - rho**2) + (sp.pi - theta) * rho) / (2 * sp.pi)


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _exact_positive(name: str, value: Any) -> sp.Expr:
    """An exact positive sympy number or a provably positive expression (floats through
    ``nsimplify(rational=True)``: 0.1 -> 1/10; strings as exact decimals)."""
    if isinstance(value, bool) or not isinstance(
        value, (numbers.Real, Fraction, sp.Expr, np.integer, np.floating, str)
    ):
        raise TypeError(f"{name} must be a positive real number or sympy expression, got {value!r}")
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()
    if isinstance(value, str):
        try:
            expr = sp.Rational(value.strip())
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a decimal number > 0, got {value!r}") from None
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite and > 0, got {value!r}")
        expr = sp.nsimplify(value, rational=True)
    elif isinstance(value, Fraction):
        expr = sp.Rational(value.numerator, value.denominator)
    else:
        expr = sp.sympify(value, strict=True)
    if expr.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or expr.is_positive is not True:
        raise ValueError(f"{name} must be finite and > 0 (provably, if symbolic), got {value!r}")
    return expr


def _check_name(name: Any) -> str:
    if name not in KERNELS:
        raise ValueError(f"name must be one of {KERNELS}, got {name!r}")
    return name


@dataclass(frozen=True)
class Initialisation:
    """Initial law of the two-layer network (2.3): ``a_j`` i.i.d. with second moment
    ``a_second_moment = E[a^2] > 0`` (law ``a_law``: ``"uniform"`` on ``[-c, c]``,
    ``"rademacher"`` on ``{-c, c}`` or ``"gaussian"``, scaled to that moment; the kernels
    depend on ``E[a^2]`` only), independent of ``w_j ~ N(0, w_variance I_d)``.

    Numbers are stored exactly (int, Fraction, exact-decimal str, float via
    ``nsimplify(rational=True)``, or a provably positive sympy expression).  ``d``: the input
    dimension the record is made for (``None``: any; :func:`lecture_initialisation` records
    its ``d`` because ``s^2 = 1/d`` is only the lecture's law in that dimension), checked by
    :func:`gram`, :func:`gram_torch` and :func:`kernel_of_vectors`."""

    a_second_moment: Any
    w_variance: Any
    a_law: str = "uniform"
    label: str = ""
    d: int | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "a_second_moment", _exact_positive("a_second_moment", self.a_second_moment))
        set_(self, "w_variance", _exact_positive("w_variance", self.w_variance))
        if self.a_law not in A_LAWS:
            raise ValueError(f"a_law must be one of {A_LAWS}, got {self.a_law!r}")
        if not isinstance(self.label, str):
            raise TypeError(f"label must be a str, got {self.label!r}")
        if self.d is not None:
            set_(self, "d", _check_int("d", self.d))

    @property
    def is_numeric(self) -> bool:
        """True when both moments are numbers (no free symbols)."""
        return not (self.a_second_moment.free_symbols or self.w_variance.free_symbols)

    def floats(self) -> tuple[float, float]:
        """``(E[a^2], s^2)`` as floats (a ``ValueError`` for a symbolic record)."""
        if not self.is_numeric:
            raise ValueError(f"init must have numeric moments here, got {self!r}")
        return float(self.a_second_moment), float(self.w_variance)


def lecture_initialisation(d: Any) -> Initialisation:
    """Eq. (2.28): ``a_j ~ Unif([-1, 1])`` (``E[a^2] = 1/3``), ``w_j ~ N(0, I_d/d)``
    (``s^2 = 1/d``); ``d`` an int >= 1 or a positive integer sympy symbol."""
    if isinstance(d, sp.Symbol):
        if not (d.is_integer and d.is_positive):
            raise ValueError(f"d must be a positive integer symbol, got {d!r}")
    elif isinstance(d, bool) or not isinstance(d, (numbers.Integral, sp.Integer)):
        raise TypeError(f"d must be an int >= 1, got {type(d).__name__} {d!r}")
    elif int(d) < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    d = d if isinstance(d, sp.Symbol) else sp.Integer(int(d))
    return Initialisation(
        sp.Rational(1, 3),
        1 / d,
        "uniform",
        f"eq. (2.28): a ~ Unif[-1, 1], w ~ N(0, I_d/{d})",
        None if isinstance(d, sp.Symbol) else int(d),
    )


def exercise_initialisation() -> Initialisation:
    """Exercise 1: ``a_j ~ Unif({-1, 1})`` (``E[a^2] = 1``), ``w ~ N(0, I_d)`` (``s^2 = 1``)."""
    return Initialisation(1, 1, "rademacher", "Exercise 1: a ~ Unif{-1, 1}, w ~ N(0, I_d)")


def generic_initialisation() -> Initialisation:
    """Every initialisation at once: ``E[a^2] = A2``, ``s^2 = S2`` (positive symbols)."""
    return Initialisation(A2, S2, "uniform", "generic")


def _check_init(init: Any) -> Initialisation:
    if init is None:
        return generic_initialisation()
    if not isinstance(init, Initialisation):
        raise TypeError(f"init must be an Initialisation record or None, got {init!r}")
    return init


# ---------------------------------------------------------------------------
# closed forms
# ---------------------------------------------------------------------------
def _symbolic_arg(name: str, value: Any, valid: str) -> sp.Expr:
    """One argument of :func:`kernel`: a real number (int, float, numpy scalar, Fraction,
    exact-decimal str) or a sympy expression; ``TypeError`` for anything else (bool, complex,
    None, arrays, torch tensors), ``ValueError`` for a string that is not a decimal."""
    want = f"{name} must be {valid}: a real number, exact-decimal str or sympy expression"
    if isinstance(value, str):
        try:
            return sp.Rational(value.strip())
        except (TypeError, ValueError):
            raise ValueError(f"{want}, got {value!r} (not a decimal)") from None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (numbers.Real, Fraction, sp.Expr, np.integer, np.floating)
    ):
        raise TypeError(f"{want}, got {type(value).__name__} {_describe(value)}")
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be finite ({valid}), got {value!r}")
    return sp.sympify(value, strict=True)


def _check_symbolic_args(n1: Any, n2: Any, rho: Any) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    out = []
    for name, value in (("n1", n1), ("n2", n2)):
        v = _symbolic_arg(name, value, "a norm (>= 0, finite)")
        if v.is_negative or v.is_real is False or v.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
            raise ValueError(f"{name} must be a norm (>= 0, finite), got {_describe(value)}")
        out.append(v)
    r = _symbolic_arg("rho", rho, "a cosine in [-1, 1]")
    if (
        r.is_real is False
        or r.has(sp.oo, -sp.oo, sp.zoo, sp.nan)
        or (r.is_number and not (-1 <= r <= 1))
    ):
        raise ValueError(f"rho must be a cosine in [-1, 1], got {_describe(rho)}")
    return out[0], out[1], r


def kernel(name: str, init: Initialisation | None = None, n1: Any = N1, n2: Any = N2,
           rho: Any = RHO) -> sp.Expr:  # fmt: skip
    """The infinite-width kernel ``name`` (``"gp"`` (2.4), ``"rf"``, ``"ntk"`` (2.31),
    ``"k0"`` (2.30)) of the ReLU network as a function of the norms ``n1 = |x|``,
    ``n2 = |x'|`` and the cosine ``rho`` (``init=None``: generic ``E[a^2] = A2``,
    ``s^2 = S2``).  See the module docstring for the derivation (claims
    ``closed_forms_from_definitions``, ``arccos_order_0``, ``arccos_order_1``)."""
    name, init = _check_name(name), _check_init(init)
    n1, n2, rho = _check_symbolic_args(n1, n2, rho)
    m2, s2 = init.a_second_moment, init.w_variance
    rf = s2 * n1 * n2 * arccos_expectation(1, rho)  # relu(s n u) = s n relu(u), s n > 0
    ntk = m2 * (n1 * n2 * rho) * arccos_expectation(0, rho)  # relu' is scale invariant
    return {"rf": rf, "ntk": ntk, "gp": m2 * rf, "k0": rf + ntk}[name]


def _angle_form(expr: sp.Expr) -> sp.Expr:
    """``expr(rho)`` at ``rho = cos(theta)``, ``theta in [0, pi]``: ``acos(cos theta) = theta``
    and ``sqrt(1 - cos^2 theta) = sin theta`` there (claim ``stable_forms``)."""
    e = expr.subs(RHO, sp.cos(THETA))
    return e.replace(sp.acos(sp.cos(THETA)), THETA).subs(
        sp.sqrt(1 - sp.cos(THETA) ** 2), sp.sin(THETA)
    )


def kernel_theta(name: str, init: Initialisation | None = None, n1: Any = N1, n2: Any = N2,
                 theta: Any = THETA) -> sp.Expr:  # fmt: skip
    """:func:`kernel` in terms of the angle ``theta in [0, pi]`` between ``x`` and ``x'``."""
    th = to_expr("theta", theta)
    if th.is_number and not (0 <= th <= sp.pi):
        raise ValueError(f"theta must be an angle in [0, pi], got {theta!r}")
    return _angle_form(kernel(name, init, n1, n2, RHO)).subs(THETA, th)


def _cosine_stable(expr: sp.Expr) -> sp.Expr:
    """``sqrt(1 - rho^2) -> sqrt((1 - rho)(1 + rho))``: no cancellation at ``rho -> +-1``."""
    return expr.subs(sp.sqrt(1 - RHO**2), sp.sqrt((1 - RHO) * (1 + RHO)))


def kernel_of_vectors(name: str, init: Initialisation | None, x: Any, xp: Any) -> sp.Expr:
    """The kernel at two explicit vectors (exact: ints, Fractions, sympy numbers), 0 when
    either is the zero vector (module docstring)."""
    xs, ys = sp.Matrix(_exact_vector("x", x)), sp.Matrix(_exact_vector("xp", xp))
    if xs.shape != ys.shape or xs.shape[0] == 0:
        raise ValueError(f"x and xp must be vectors of one length, got {xs.shape}, {ys.shape}")
    if init is not None:
        _check_dimension("x", xs.shape[0], _check_init(init))
    n1, n2 = sp.sqrt(xs.dot(xs)), sp.sqrt(ys.dot(ys))
    if n1 == 0 or n2 == 0:
        _check_name(name)
        _check_init(init)
        return sp.S.Zero
    return kernel(name, init, n1, n2, sp.radsimp(xs.dot(ys) / (n1 * n2)))


def _exact_vector(name: str, value: Any) -> list[sp.Expr]:
    """A 1-d sequence of finite real numbers or sympy expressions, exact (floats through
    ``nsimplify(rational=True)``; strings only as exact numbers, never evaluated)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a 1-d sequence of real numbers, got "
                        f"{type(value).__name__} {_describe(value)}")  # fmt: skip
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {value.shape}")
    out = []
    for i, v in enumerate(value.tolist() if isinstance(value, np.ndarray) else value):
        if isinstance(v, float):
            if not math.isfinite(v):
                raise ValueError(f"{name}[{i}] must be finite, got {v!r}")
            out.append(sp.nsimplify(v, rational=True))
            continue
        e = to_expr(f"{name}[{i}]", v)
        if e.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or e.is_real is False:
            raise ValueError(f"{name}[{i}] must be a finite real number, got {_describe(v)}")
        out.append(e)
    return out


def exercise_printed_ntk(rho: Any = RHO) -> sp.Expr:
    """The right-hand side of (4.2) as printed: ``1/2 - arccos(rho)/(2 pi)`` (it lacks the
    factor ``<x, x'>``; see :func:`errata`)."""
    return sp.Rational(1, 2) - sp.acos(to_expr("rho", rho)) / (2 * sp.pi)


# ---------------------------------------------------------------------------
# Table 1 and eq. (2.2): the frameworks' default initialisations
# ---------------------------------------------------------------------------
P = sp.Symbol("p", positive=True)
"""The width ``p``."""
C1, C2 = sp.symbols("c1 c2", real=True)
"""Coefficients of a projection ``c1 f(x) + c2 f(x')`` of the output pair."""
TABLE_1 = ("kaiming", "xavier")
"""The rows of Table 1."""
COVARIANCE_PAIRS = ("same_direction", "orthogonal_axes", "antipodal")
"""Input pairs on which :func:`table_1_covariance` is exact (see there)."""


def uniform_variance(bound: Any) -> sp.Expr:
    """``Var Unif([-c, c]) = c^2 / 3`` (claim ``table_1_variances`` integrates it)."""
    return to_expr("bound", bound) ** 2 / 3


@dataclass(frozen=True)
class DefaultInitialisation:
    """One row of Table 1 for the network (2.1) ``f(x) = sum_j a_j sigma(<w_j, x> + b_j)``
    (no ``1/sqrt(p)``): ``a_j ~ Unif([-a_bound, a_bound])``, ``w_jk ~ Unif([-w_bound,
    w_bound])`` i.i.d., ``b_j = b`` (bounds are sympy expressions in :data:`P` and
    :data:`D`)."""

    name: str
    framework: str
    a_bound: sp.Expr
    w_bound: sp.Expr
    b: sp.Expr
    source: str

    @property
    def a_variance(self) -> sp.Expr:
        """``Var a_j = a_bound^2 / 3``."""
        return uniform_variance(self.a_bound)

    @property
    def w_variance(self) -> sp.Expr:
        """``Var w_jk = w_bound^2 / 3``."""
        return uniform_variance(self.w_bound)

    def at(self, p: int, d: int) -> dict[str, float]:
        """The bounds as floats at width ``p`` and dimension ``d`` (ints >= 1)."""
        p, d = _check_int("p", p), _check_int("d", d)
        sub = {P: p, D: d}
        return {"a_bound": float(self.a_bound.subs(sub)), "w_bound": float(self.w_bound.subs(sub))}


def default_initialisation(name: str) -> DefaultInitialisation:
    """Table 1's row ``name``: ``"kaiming"`` (printed "Kaiming (Pytorch)": ``a ~ Unif[+-
    sqrt(6/p)]``, ``w ~ Unif[+- sqrt(6/d)]``, ``b = 0``) or ``"xavier"`` ("Xavier
    (Tensorflow)": ``a ~ Unif[+- sqrt(6/(p+1))]``, ``w ~ Unif[+- sqrt(6/(p+d))]``, ``b = 0``)."""
    if name not in TABLE_1:
        raise ValueError(f"name must be one of {TABLE_1}, got {name!r}")
    where = f"{SEED} Table 1"
    if name == "kaiming":
        return DefaultInitialisation(name, "Pytorch (as printed; see errata)",
                                     sp.sqrt(6 / P), sp.sqrt(6 / D), sp.S.Zero, where)  # fmt: skip
    return DefaultInitialisation(name, "Tensorflow", sp.sqrt(6 / (P + 1)), sp.sqrt(6 / (P + D)),
                                 sp.S.Zero, where)  # fmt: skip


def table_1_covariance(name: str, pair: str = "same_direction") -> sp.Expr:
    """``E[f(x) f(x')]`` at initialisation for Table 1's row ``name``, ReLU, ``b = 0``, exact
    at every width ``p`` (:data:`P`; ``E f = 0`` and ``E[a_j a_k] = 0`` for ``j != k``, so it is
    ``p Var(a) E[relu(<w, x>) relu(<w, x'>)]``), with ``|x| = n1``, ``|x'| = n2``:

    * ``"same_direction"`` (``x' = c x``, ``c > 0``; any direction): ``<w, x>`` is symmetric,
      so ``E[relu(<w,x>)^2] = E[<w,x>^2]/2 = Var(w) |x|^2/2``: ``p Var(a) Var(w) n1 n2 / 2``
      (``n1 = n2``: the output variance);
    * ``"orthogonal_axes"`` (``x = n1 e_k``, ``x' = n2 e_l``, ``k != l``): independent
      coordinates, ``E[relu(w)] = w_bound/4``: ``p Var(a) (w_bound/4)^2 n1 n2``;
    * ``"antipodal"`` (``x' = -c x``): 0.
    """
    init = default_initialisation(name)
    if pair not in COVARIANCE_PAIRS:
        raise ValueError(f"pair must be one of {COVARIANCE_PAIRS}, got {pair!r}")
    scale = P * init.a_variance * N1 * N2
    if pair == "same_direction":
        return scale * init.w_variance / 2
    if pair == "orthogonal_axes":
        return scale * (init.w_bound / 4) ** 2
    return sp.S.Zero


# ---------------------------------------------------------------------------
# the Gaussian limit (2.3)-(2.5): the fourth cumulant at finite width
# ---------------------------------------------------------------------------
def _unit_values() -> tuple[sp.Expr, sp.Expr, sp.Symbol, tuple[sp.Symbol, sp.Symbol]]:
    """One unit of the package's network (p = 1, scale 1, ReLU) at ``x = n1 e1`` and
    ``x' = n2 (cos theta, sin theta)``: ``(f(x), f(x'), a, (w0, w1))``."""
    a = sp.Symbol("a", real=True)
    w = sp.symbols("w0 w1", real=True)
    W = np.array([list(w)], dtype=object)
    relu = act.elementwise("relu", "sympy")

    def f(x: tuple[sp.Expr, sp.Expr]) -> sp.Expr:
        X = np.array([list(x)], dtype=object)
        out = network_output(W, np.array([a], dtype=object), X, relu, 1)[0]
        return sp.sympify(out, strict=True)

    return f((N1, 0)), f((N2 * sp.cos(THETA), N2 * sp.sin(THETA))), a, w


def relu_moment(k: int, m: int, simplify: bool = True) -> sp.Expr:
    """``E[relu(<w, x>)^k relu(<w, x'>)^m]`` for ``w ~ N(0, s^2 I_d)`` (``k, m >= 0``,
    ``k + m <= 4``) in :data:`N1`, :data:`N2`, :data:`THETA` (``[0, pi]``) and :data:`S2`:
    the package's ReLU unit integrated in polar coordinates on the span of ``x, x'``
    (``w = r (cos phi, sin phi)``, density ``r e^{-r^2/(2 s^2)}/(2 pi s^2)``), over the arc
    where the pre-activations that appear are positive (``relu = identity`` there, 0 off
    it).  ``simplify=False``: the same integral as integrated, not passed through
    ``sympy.simplify`` (equal values, longer expressions; a second less to build, for
    generated numeric evaluators)."""
    if not isinstance(simplify, bool):
        raise TypeError(f"simplify must be a bool, got {_describe(simplify)}")
    for name, v in (("k", k), ("m", m)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be an integer >= 0, got {_describe(v)}")
    if k + m > 4:
        raise ValueError(f"k + m must be <= 4, got {k} + {m}")
    return _relu_moment(k, m, simplify)


@functools.cache
def _relu_moment(k: int, m: int, simplify: bool) -> sp.Expr:
    """:func:`relu_moment` of checked arguments (cached)."""
    if simplify:
        return sp.simplify(_relu_moment(k, m, False))
    fx, fxp, a, (w0, w1) = _unit_values()
    r, phi = sp.Symbol("r", positive=True), sp.Symbol("phi", real=True)
    density = r * sp.exp(-(r**2) / (2 * S2)) / (2 * sp.pi * S2)
    lo = THETA - sp.pi / 2 if m else -sp.pi / 2
    hi = sp.pi / 2 if k else THETA + sp.pi / 2

    def positive_branch(t: sp.Piecewise) -> sp.Expr:
        (zero, _), (value, otherwise) = t.args
        if zero != 0 or otherwise is not sp.true:
            raise ArithmeticError(f"not a ReLU branch: {t}")
        return value

    e = (fx**k * fxp**m).subs(a, 1)
    e = e.subs({w0: r * sp.cos(phi), w1: r * sp.sin(phi)})
    e = e.replace(lambda t: isinstance(t, sp.Piecewise), positive_branch)
    poly = sp.Poly(sp.expand(e), r)
    total = sum((sp.integrate(r**j * density, (r, 0, sp.oo))
                 * sp.integrate(sp.expand(c, trig=True), (phi, lo, hi))
                 for (j,), c in poly.terms()), sp.S.Zero)  # fmt: skip
    return total


def a_fourth_moment(init: Initialisation) -> sp.Expr:
    """``E[a^4]`` of the record's output-weight law at second moment ``m2``: uniform
    ``9 m2^2/5``, Rademacher ``m2^2``, Gaussian ``3 m2^2`` (claim ``fourth_cumulant``)."""
    init = _check_init(init)
    m2 = init.a_second_moment
    return {"uniform": sp.Rational(9, 5), "rademacher": sp.S.One,
            "gaussian": sp.Integer(3)}[init.a_law] * m2**2  # fmt: skip


def _projection_moment(order: int, simplify: bool = True) -> sp.Expr:
    """``E[(c1 relu(<w,x>) + c2 relu(<w,x'>))^order]`` (binomial expansion)."""
    return sum(sp.binomial(order, i) * C1**i * C2 ** (order - i)
               * relu_moment(i, order - i, simplify) for i in range(order + 1))  # fmt: skip


def output_cumulant(order: int, init: Initialisation | None = None, p: Any = P, *,
                    simplify: bool = True) -> sp.Expr:  # fmt: skip
    """Cumulant ``kappa_order`` (2 or 4) of the projection ``c1 f(x) + c2 f(x')`` of the ReLU
    network (2.3) at initialisation, width ``p``: with ``u_j = a_j (c1 relu(<w_j,x>) + c2
    relu(<w_j,x'>))`` i.i.d. and symmetric, ``kappa_2 = E[u^2] = E[a^2] E[s^2]`` (``= c^T K_GP
    c``) and ``kappa_4 = (E[a^4] E[s^4] - 3 E[a^2]^2 E[s^2]^2) / p`` exactly (claim
    ``fourth_cumulant``); 0 in the Gaussian limit (2.5).  Symbols :data:`C1`, :data:`C2`,
    :data:`N1`, :data:`N2`, :data:`THETA`, :data:`P`; ``init=None``: generic moments with the
    law's ``E[a^4]`` left as ``E_a4``; ``simplify=False``: built from the unsimplified
    moments (``relu_moment(k, m, simplify=False)``: the same values, cheaper to build)."""
    if isinstance(order, bool) or not isinstance(order, numbers.Integral) or order not in (2, 4):
        raise ValueError(f"order must be 2 or 4, got {_describe(order)}")
    if not isinstance(simplify, bool):
        raise TypeError(f"simplify must be a bool, got {_describe(simplify)}")
    p = _width(p)
    if init is None:
        m2, m4, s2 = A2, sp.Symbol("E_a4", positive=True), S2
    else:
        init = _check_init(init)
        m2, m4, s2 = init.a_second_moment, a_fourth_moment(init), init.w_variance
    e2 = _projection_moment(2, simplify).subs(S2, s2)
    if order == 2:
        return m2 * e2
    e4 = _projection_moment(4, simplify).subs(S2, s2)
    return (m4 * e4 - 3 * m2**2 * e2**2) / p


def _width(p: Any) -> sp.Expr:
    """The width ``p``: a number > 0 or a sympy expression not known to be <= 0."""
    p = to_expr("p", p)
    if p.is_positive is False or p.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise ValueError(f"p must be a width > 0 (finite), got {_describe(p)}")
    return p


def output_excess_kurtosis(init: Initialisation | None = None, p: Any = P, c1: Any = 1,
                           c2: Any = 0) -> sp.Expr:  # fmt: skip
    """``kappa_4 / kappa_2^2`` of the projection ``c1 f(x) + c2 f(x')``
    (:func:`output_cumulant`); for ``f(x)`` alone (the default ``c = (1, 0)``):
    ``(6 E[a^4]/E[a^2]^2 - 3)/p`` (``E[relu^4]/E[relu^2]^2 = 6``)."""
    c = {C1: to_expr("c1", c1), C2: to_expr("c2", c2)}
    if c[C1].is_zero and c[C2].is_zero:
        raise ValueError("c1 and c2 must not both be 0 (the projection 0 has no kurtosis)")
    # cancel, not simplify: exact and quick (simplify took minutes on c2 = 1e300)
    return sp.cancel(output_cumulant(4, init, p).subs(c) / output_cumulant(2, init).subs(c) ** 2)


# ---------------------------------------------------------------------------
# generated numeric evaluators
# ---------------------------------------------------------------------------
_GUARD = 10  # mpmath guard digits; the closed forms cancel no digits (all terms >= 0
# except rho J_0 in k0, which is bounded by the same norms)
_RHO_SLACK = 8 * np.finfo(float).eps  # a computed cosine may exceed 1 by a few ulps


PHI = sp.Symbol("phi", nonnegative=True)
"""``pi - theta``, the angle between ``x`` and ``-x'``: the variable of the evaluated forms."""


@functools.cache
def _supplement_form(name: str) -> sp.Expr:
    """:func:`kernel_theta` at ``theta = pi - phi`` with ``sin(phi) - phi cos(phi)`` written
    ``phi^3 sinc3(phi)`` (:class:`~solvable._core.backends.sinc3`): no cancellation near
    antiparallel inputs (``phi -> 0``), where the two terms are ``~ phi`` and their difference
    ``~ phi^3/3``; ``phi`` itself is computed directly (:data:`SUPPLEMENT`), never as
    ``pi - theta`` (claim ``stable_forms`` proves the form equal to :func:`kernel_theta`)."""
    e = kernel_theta(name).subs(THETA, sp.pi - PHI)
    return e.subs(sp.sin(PHI), PHI**3 * sinc3(PHI) + PHI * sp.cos(PHI))


@functools.cache
def _phi_of_rho() -> sp.Expr:
    """``pi - acos(rho)`` as :data:`SUPPLEMENT` of the chords of two unit vectors at cosine
    ``rho``: ``|u - v| = sqrt(2 (1 - rho))``, ``|u + v| = sqrt(2 (1 + rho))`` (``1 + rho`` is
    exact in float64 for ``rho`` in ``[-1, -1/2]``: full relative accuracy at ``rho -> -1``)."""
    return SUPPLEMENT.subs({DIFF_NORM: sp.sqrt(2 * (1 - RHO)), SUM_NORM: sp.sqrt(2 * (1 + RHO))})


_SCALES = (N1, N2, PHI, A2, S2)  # the unbounded factors, multiplied by scaled_sum


@functools.cache
def _terms(name: str) -> tuple[tuple[tuple[tuple[sp.Symbol, int], ...], sp.Expr], ...]:
    """The terms of :func:`_supplement_form`, each split into its powers of :data:`_SCALES`
    (norms, moments and ``phi``: unbounded) and the rest, a bounded function of ``phi``."""
    out = []
    for term in sp.Add.make_args(sp.expand(_supplement_form(name))):
        powers, rest = [], []
        for factor in sp.Mul.make_args(term):
            base, exp = factor.as_base_exp()
            if base in _SCALES and exp.is_Integer and exp > 0:
                powers.append((base, int(exp)))
            else:
                rest.append(factor)
        out.append((tuple(powers), sp.Mul(*rest)))
    return tuple(out)


@functools.cache
def _evaluator(kind: str, backend: str, name: str = "", k: int = 0) -> Callable[..., Any]:
    """Generated evaluators: ``"phi"`` (:data:`SUPPLEMENT` of the chords), ``"phi_rho"``
    (:func:`_phi_of_rho`), ``"form"`` (:func:`_supplement_form` of ``name``, for mpmath) and
    ``"bounded"`` (the bounded part of the ``k``-th of :func:`_terms`)."""
    if kind == "phi":
        return generate((DIFF_NORM, SUM_NORM), SUPPLEMENT, backend)
    if kind == "phi_rho":
        return generate((RHO,), _phi_of_rho(), backend)
    if kind == "form":
        return generate((N1, N2, PHI, A2, S2), _supplement_form(name), backend)
    return generate((PHI,), _terms(name)[k][1], backend)


def _to_float64(values: list[Any], name: str) -> np.ndarray:
    """``mpf`` kernel values as float64, a ``Float64RangeError`` beyond its range."""
    out = np.array([float(v) for v in values], dtype=np.float64)
    if not np.all(np.isfinite(out)):
        raise Float64RangeError(f"{name} kernel: a value exceeds the largest float64 (from the "
                                f"norms of X and Y); use dps= for an mpmath value")  # fmt: skip
    return out


def _float_kernel(name: str, backend: str, n1: Any, n2: Any, phi: Any, m2: float, s2: float,
                  where: str) -> Any:  # fmt: skip
    """The kernel in float64 (numpy) or the tensors' dtype (torch), each term's product
    formed by :func:`~solvable._core.scaled.scaled_sum` (no overflow or underflow of an
    intermediate); a value beyond the float type is a ``Float64RangeError`` naming ``where``."""
    values = {N1: n1, N2: n2, PHI: phi, A2: m2, S2: s2}
    terms = []
    for k, (powers, _) in enumerate(_terms(name)):
        bounded = _evaluator("bounded", backend, name, k)(phi)
        terms.append([(bounded, 1), *((values[b], e) for b, e in powers)])
    value, overflow = scaled_sum(terms, backend)
    if bool(overflow.any()):
        top = "float64" if backend == "numpy" else str(value.dtype).replace("torch.", "")
        raise Float64RangeError(
            f"{name} kernel: a value exceeds the largest {top} ({where}); evaluate with dps= "
            f"(mpmath) for it, or rescale the inputs (the kernels are homogeneous of degree 1 "
            f"in each norm)")  # fmt: skip
    return value


# Entries whose phi = pi - theta is below this are recomputed exactly (_exact_kernels): the
# chords of rounded unit vectors carry an absolute error of a few eps, so a float phi is
# good to ~eps/phi relative and the kernel (~phi^3 near antiparallel) to ~3 eps/phi, at most
# 48 eps above this cut
_REFINE_BELOW = 1 / 16


def _dyadic_rows(A: np.ndarray) -> list[tuple[list[int], int]]:
    """Each float row as exact integers times a power of two: ``(ints, e)`` with
    ``row = ints * 2^e`` (``math.frexp``: 53-bit mantissas)."""
    rows = []
    for row in A:
        parts = [math.frexp(float(v)) for v in row]
        exps = [e - 53 for m, e in parts if m != 0]
        low = min(exps) if exps else 0
        rows.append(([int(m * (1 << 53)) << (e - 53 - low) if m else 0 for m, e in parts], low))
    return rows


def _exact_kernels(name: str, init: Initialisation, X: np.ndarray, Y: np.ndarray,
                   pairs: Any, digits: int) -> list[Any]:  # fmt: skip
    """The kernel at the rows ``(X[i], Y[j])`` for ``(i, j)`` in ``pairs``, as ``mpf`` at
    ``digits`` significant digits (plus guard digits), from the exact float inputs: with
    integers, ``|x|^2``, ``|y|^2``, ``x . y`` and ``|x|^2 |y|^2 - (x . y)^2 = |x|^2 |y|^2
    sin^2(theta)`` (Lagrange's identity) are exact, so ``phi = atan2(|x||y| sin(theta),
    -x . y)`` keeps full relative precision at every angle, down to exactly antiparallel
    (``phi = 0``)."""
    xs = _dyadic_rows(X)
    ys = xs if Y is X else _dyadic_rows(Y)
    form = _evaluator("form", "mpmath", name)
    out = []
    with mpmath.workdps(digits + _GUARD):
        m2, s2 = _to_mpf(init.a_second_moment), _to_mpf(init.w_variance)
        for i, j in pairs:
            (a, ea), (b, eb) = xs[i], ys[j]
            sx, sy = sum(v * v for v in a), sum(v * v for v in b)
            dot = sum(u * v for u, v in zip(a, b, strict=True))
            if sx == 0 or sy == 0:
                out.append(mpmath.mpf(0))
                continue
            phi = mpmath.atan2(mpmath.sqrt(sx * sy - dot * dot), -dot)
            n1 = mpmath.ldexp(mpmath.sqrt(sx), ea)
            n2 = mpmath.ldexp(mpmath.sqrt(sy), eb)
            out.append(form(n1, n2, phi, m2, s2))
    return out


def _float_array(name: str, value: Any, torch_fn: str = "the *_torch functions") -> np.ndarray:
    """``value`` as a float64 array of finite real numbers: ``TypeError`` for what is not
    real numbers (None, bools, complex, non-numeric strings, a torch tensor: use
    ``torch_fn``), ``ValueError`` for a ragged shape or a non-finite entry; each message
    names ``name`` and quotes the value."""
    want = f"{name} must be an array of finite real numbers"
    if type(value).__module__.split(".", 1)[0] == "torch":
        raise TypeError(f"{want}, got a torch tensor (use {torch_fn} for tensors)")
    if value is None or isinstance(value, (str, bytes, bool, complex)):
        raise TypeError(f"{want}, got {type(value).__name__} {_describe(value)}")
    try:
        raw = np.asarray(value)
    except ValueError:  # numpy refuses ragged nesting
        raise ValueError(f"{want} of one rectangular shape, got {_describe(value)}") from None
    if raw.dtype.kind == "O":
        bad = [
            v
            for v in raw.ravel()
            if v is None
            or isinstance(v, (bool, np.bool_, complex, np.complexfloating, str, bytes))
            or type(v).__module__.split(".", 1)[0] == "torch"
        ]
        if bad:
            raise TypeError(f"{want}, got an entry {type(bad[0]).__name__} {_describe(bad[0])}")
    elif raw.dtype.kind not in "iuf":
        raise TypeError(f"{want}, got dtype {raw.dtype} ({_describe(value)})")
    try:
        arr = raw.astype(np.float64)
    except OverflowError:  # an int entry like 10**400
        raise Float64RangeError(
            f"{name} has an entry outside the float64 range (|value| <= {FLOAT64_MAX:.4g})"
        ) from None
    except (TypeError, ValueError):
        raise TypeError(f"{want}, got {_describe(value)}") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {_describe(value)}")
    return arr


def _check_norms_cosine(n1: Any, n2: Any, rho: Any) -> tuple[np.ndarray, ...]:
    a1, a2, r = (_float_array(k, v, "kernel_torch") for k, v in (("n1", n1), ("n2", n2),
                                                                  ("rho", rho)))  # fmt: skip
    for name, arr in (("n1", a1), ("n2", a2)):
        if np.any(arr < 0):
            raise ValueError(f"{name} must be >= 0 (a norm), got {arr[arr < 0].ravel()[0]!r}")
    outside = r[np.abs(r) > 1 + _RHO_SLACK]
    if outside.size:
        raise ValueError(f"rho must be in [-1, 1], got {outside.ravel()[0]!r}")
    return a1, a2, np.clip(r, -1.0, 1.0)


@mpmath_in_mpmath_out
def kernel_numeric(name: str, init: Initialisation, n1: Any, n2: Any, rho: Any, *,
                   dps: int | None = None) -> Any:  # fmt: skip
    """:func:`kernel` evaluated numerically: float64 numpy (``dps=None``; arrays broadcast;
    cosines within 8 ulps outside ``[-1, 1]`` are clipped) or an ``mpmath.mpf`` with ``dps``
    significant digits (scalars; int, float, exact-decimal str, Fraction, mpf).  Norms 0 give
    0 whatever ``rho``."""
    name, init, dps = _check_name(name), _check_init(init), _check_dps(dps)
    m2, s2 = init.floats() if dps is None else (init.a_second_moment, init.w_variance)
    if not init.is_numeric:
        raise ValueError(f"init must have numeric moments, got {init!r}")
    if dps is None:
        a1, a2, r = _check_norms_cosine(n1, n2, rho)
        phi = _evaluator("phi_rho", "numpy")(r)
        return _float_kernel(name, "numpy", a1, a2, phi, m2, s2, "from n1 * n2")
    with mpmath.workdps(dps + _GUARD):
        args = []
        for label, value in (("n1", n1), ("n2", n2), ("rho", rho)):
            try:
                args.append(_to_mpf(value))
            except TypeError:
                raise TypeError(f"{label} must be a real number, got {value!r}") from None
            if not mpmath.isfinite(args[-1]):
                raise ValueError(f"{label} must be finite, got {value!r}")
        if args[0] < 0 or args[1] < 0:
            raise ValueError(f"n1, n2 must be >= 0 (norms), got {n1!r}, {n2!r}")
        if abs(args[2]) > 1:
            raise ValueError(f"rho must be in [-1, 1], got {rho!r}")
        phi = _evaluator("phi_rho", "mpmath")(args[2])
        value = _evaluator("form", "mpmath", name)(args[0], args[1], phi, _to_mpf(m2),
                                                     _to_mpf(s2))  # fmt: skip
    with mpmath.workdps(dps):
        return +value


def kernel_torch(name: str, init: Initialisation, n1: Any, n2: Any, rho: Any) -> Any:
    """:func:`kernel` on torch tensors (same device and dtype as ``rho``, broadcast; cosines
    clipped to ``[-1, 1]``), generated by ``lambdify(modules="torch")``."""
    torch = torch_module()
    name, init = _check_name(name), _check_init(init)
    m2, s2 = init.floats()

    def tensor(label: str, value: Any, like: Any) -> Any:
        if not torch.is_tensor(value):  # numbers, numpy, nested sequences: as kernel_numeric
            value = torch.as_tensor(_float_array(label, value, "kernel_torch"))
        elif not torch.is_floating_point(value):
            raise TypeError(f"{label} must be a real floating-point tensor, got {value.dtype}")
        if like is not None:
            value = value.to(dtype=like.dtype, device=like.device)
        if not bool(torch.isfinite(value).all()):
            raise ValueError(f"{label} must be finite")
        return value

    rho = tensor("rho", rho, None)
    n1, n2 = tensor("n1", n1, rho), tensor("n2", n2, rho)
    for label, value in (("n1", n1), ("n2", n2)):
        if bool((value < 0).any()):
            raise ValueError(f"{label} must be >= 0 (a norm)")
    if bool((rho.abs() > 1 + _RHO_SLACK).any()):
        raise ValueError(f"rho must be in [-1, 1], got max |rho| = {float(rho.abs().max())}")
    phi = _evaluator("phi_rho", "torch")(rho.clamp(-1.0, 1.0))
    return _float_kernel(name, "torch", n1, n2, phi, m2, s2, "from n1 * n2")


def _check_data(name: str, X: Any, init: Initialisation) -> np.ndarray:
    arr = _float_array(name, X, "gram_torch")
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty (n, d) matrix, got shape {arr.shape}")
    _check_dimension(name, arr.shape[1], init)
    return arr


def _check_dimension(name: str, d: int, init: Initialisation) -> None:
    """The inputs' dimension ``d`` against the one ``init`` is made for (if it records one)."""
    if init.d is not None and d != init.d:
        raise ValueError(
            f"{name} must have d = {init.d} columns (the input dimension of init "
            f"{init.label or init!r}), got {d}"
        )


@mpmath_in_mpmath_out
def gram(name: str, init: Initialisation, X: Any, Y: Any = None, *,
         dps: int | None = None) -> np.ndarray:  # fmt: skip
    """The Gram matrix ``K(x_i, y_j)`` (n, m) on the rows of ``X`` (n, d) and ``Y`` (m, d)
    (default ``Y = X``): float64 (``dps=None``) or an object array of ``mpmath.mpf`` at
    ``dps`` digits (inputs converted exactly from their float64 values).  Uses the angle form
    with Kahan's stable angle (module docstring); zero rows give zero rows."""
    name, init, dps = _check_name(name), _check_init(init), _check_dps(dps)
    Xa = _check_data("X", X, init)
    Ya = Xa if Y is None else _check_data("Y", Y, init)
    if Ya.shape[1] != Xa.shape[1]:
        raise ValueError(f"Y must have {Xa.shape[1]} columns (as X), got {Ya.shape[1]}")
    if not init.is_numeric:
        raise ValueError(f"init must have numeric moments, got {init!r}")
    if dps is None:
        m2, s2 = init.floats()
        nx, ny, diff, summ = norms_and_chords(Xa, Ya, "numpy")
        phi = _evaluator("phi", "numpy")(diff, summ)
        out = _float_kernel(name, "numpy", nx, ny, phi, m2, s2, "from the norms of X and Y")
        pairs = np.argwhere(phi < _REFINE_BELOW)
        if len(pairs):
            exact = _exact_kernels(name, init, Xa, Xa if Y is None else Ya, pairs, 17)
            out[tuple(pairs.T)] = _to_float64(exact, name)
        return out
    pairs = [(i, j) for i in range(len(Xa)) for j in range(len(Ya))]
    exact = _exact_kernels(name, init, Xa, Xa if Y is None else Ya, pairs, dps)
    with mpmath.workdps(dps):
        return np.array([+v for v in exact], dtype=object).reshape(len(Xa), len(Ya))


def gram_torch(name: str, init: Initialisation, X: Any, Y: Any = None) -> Any:
    """:func:`gram` on torch tensors (device and dtype of ``X``; numpy input becomes a
    float64 CPU tensor)."""
    torch = torch_module()
    name, init = _check_name(name), _check_init(init)
    m2, s2 = init.floats()

    def tensor(label: str, value: Any, like: Any) -> Any:
        if not torch.is_tensor(value):  # numpy / nested sequences: checked as by gram
            value = torch.as_tensor(_float_array(label, value, "gram_torch"))
        elif not torch.is_floating_point(value):
            raise TypeError(f"{label} must be a real floating-point tensor, got {value.dtype}")
        if like is not None:
            value = value.to(dtype=like.dtype, device=like.device)
        return value

    X = tensor("X", X, None)
    Y = X if Y is None else tensor("Y", Y, X)
    if X.ndim != 2 or Y.ndim != 2 or X.shape[1] != Y.shape[1] or 0 in (*X.shape, *Y.shape):
        raise ValueError(f"X, Y must be non-empty (n, d), (m, d) matrices, got {tuple(X.shape)}, "
                         f"{tuple(Y.shape)}")  # fmt: skip
    _check_dimension("X", X.shape[1], init)
    if not (bool(torch.isfinite(X).all()) and bool(torch.isfinite(Y).all())):
        raise ValueError("X and Y must be finite")

    nx, ny, diff, summ = norms_and_chords(X, Y, "torch")
    phi = _evaluator("phi", "torch")(diff, summ)
    out = _float_kernel(name, "torch", nx, ny, phi, m2, s2, "from the norms of X and Y")
    pairs = torch.nonzero(phi < _REFINE_BELOW)
    if len(pairs):
        # exact values from the float64 inputs (on the CPU), as gram does.  Where a gradient
        # is wanted the correction is added detached: the values are exact and the
        # gradient is the float formula's (whose own accuracy there is ~eps/phi)
        Xc = X.detach().to("cpu", torch.float64).numpy()
        Yc = Xc if Y is X else Y.detach().to("cpu", torch.float64).numpy()
        exact = _to_float64(_exact_kernels(name, init, Xc, Yc, pairs.tolist(), 17), name)
        exact = torch.as_tensor(exact, dtype=out.dtype, device=out.device)
        i, k = pairs[:, 0], pairs[:, 1]
        if out.requires_grad:
            correction = torch.zeros_like(out, requires_grad=False)
            correction[i, k] = exact - out.detach()[i, k]
            out = out + correction
        else:
            out = out.clone()
            out[i, k] = exact
        if bool(torch.isinf(out).any()):
            raise Float64RangeError(f"{name} kernel: a value exceeds the largest "
                                    f"{str(out.dtype).replace('torch.', '')} (from the norms of "
                                    f"X and Y)")  # fmt: skip
    return out


# ---------------------------------------------------------------------------
# symbolic claims
# ---------------------------------------------------------------------------
_U, _V = sp.symbols("u v", real=True)
_T = sp.Symbol("t", positive=True)  # rho = (1 - t)/(1 + t) runs over (-1, 1) for t > 0


def _bivariate_density(rho: sp.Expr) -> sp.Expr:
    q = sp.factor(1 - rho**2)
    quad = sp.factor(_U**2 - 2 * rho * _U * _V + _V**2)
    return sp.exp(-quad / (2 * q)) / (2 * sp.pi * sp.sqrt(q))


def _plackett() -> Verdict:
    # (1) d/drho phi_2 = d^2/(du dv) phi_2 (the bivariate normal density's heat equation);
    # (2) int_0^oo int_0^oo phi_uv du dv = phi_2(0, 0): the inner integral is
    #     [phi_v]_{u=0}^{u=oo} = -phi_v(0, v) (phi_v -> 0 as u -> oo) and
    #     int_0^oo -phi_v(0, v) dv = phi_2(0, 0), by sympy with rho = (1 - t)/(1 + t), t > 0;
    # (3) phi_2(0, 0; rho) = 1/(2 pi sqrt(1 - rho^2)).
    F = _bivariate_density(RHO)
    Ft = _bivariate_density((1 - _T) / (1 + _T))
    Fv = sp.diff(Ft, _V)
    inner = sp.integrate(-Fv.subs(_U, 0), (_V, 0, sp.oo))
    return prove_zero(
        sp.diff(F, RHO) - sp.diff(F, _U, _V),
        sp.limit(sp.simplify(Fv), _U, sp.oo),
        inner - Ft.subs({_U: 0, _V: 0}),
        F.subs({_U: 0, _V: 0}) - 1 / (2 * sp.pi * sp.sqrt(1 - RHO**2)),
    )


def _gauss(z: sp.Expr) -> sp.Expr:
    return sp.exp(-(z**2) / 2) / sp.sqrt(2 * sp.pi)


def _arccos_order_0() -> Verdict:
    # given Plackett: dk0/drho = phi_2(0,0;rho); at rho = 0, u and v are independent:
    # k0(0) = P(u > 0)^2 with P(u > 0) integrated by sympy.  The ODE with this initial value
    # has one solution on (-1, 1), continuous on [-1, 1].
    half = sp.integrate(_gauss(_U), (_U, 0, sp.oo))
    k0 = arccos_expectation(0)
    return prove_zero(
        sp.diff(k0, RHO) - 1 / (2 * sp.pi * sp.sqrt(1 - RHO**2)), k0.subs(RHO, 0) - half**2
    )


def _arccos_order_1() -> Verdict:
    # given Price: d/drho E[relu(u) relu(v)] = E[relu'(u) relu'(v)] = k0; at rho = 0,
    # k1(0) = E[relu(u)]^2 with E[relu(u)] = int_0^oo u phi(u) du = 1/sqrt(2 pi)
    mean = sp.integrate(_U * _gauss(_U), (_U, 0, sp.oo))
    k1 = arccos_expectation(1)
    return prove_zero(
        sp.diff(k1, RHO) - arccos_expectation(0),
        k1.subs(RHO, 0) - mean**2,
        k1.subs(RHO, 0) - 1 / (2 * sp.pi),
    )


def _unit_features() -> dict[str, sp.Expr]:
    """The integrands of the kernels, from one unit of the package's network
    (:func:`solvable.models.linearisation.network_output`, eqs. (2.3), (2.28); ``p = 1``, scale 1:
    ``f = a relu(<w, x>)``, ReLU from :mod:`solvable._core.activations`) at
    ``x = n1 e1``, ``x' = n2 (cos theta, sin theta)``, ``w = (w0, w1)`` on their span:
    ``f(x) f(x')`` (GP, (2.4)), the ``a`` block ``df/da(x) df/da(x')`` (RF) and the ``w``
    block ``<df/dw(x), df/dw(x')>`` (NTK) of the tangent kernel (2.25), by sympy
    (the unit: :func:`_unit_values`)."""
    fx, fxp, a, w = _unit_values()
    return {
        "gp": fx * fxp,
        "rf": sp.diff(fx, a) * sp.diff(fxp, a),
        "ntk": sum(sp.diff(fx, v) * sp.diff(fxp, v) for v in w),
        "_a": a,
        "_w": w,
    }


@functools.cache
def _polar_kernels() -> dict[str, sp.Expr]:
    """The kernels (2.4), (2.31) integrated from their definitions in polar coordinates:
    the integrands are the package network's feature products (:func:`_unit_features`),
    ``w`` restricted to the span of ``x, x'`` is ``N(0, s2 I_2)`` (rotation invariance),
    ``w = r (cos phi, sin phi)``, and ``E[a^2] = A2`` (``a`` independent of ``w``).  For
    ``theta in [0, pi]`` both pre-activations are positive exactly on the arc
    ``phi in (theta - pi/2, pi/2)``, where ``relu(z) = z`` and ``relu'(z) = 1``; off it
    every integrand has a factor ``relu`` or ``relu'`` of a non-positive number, 0."""
    r, phi = sp.Symbol("r", positive=True), sp.Symbol("phi", real=True)
    density = r * sp.exp(-(r**2) / (2 * S2)) / (2 * sp.pi * S2)  # dr dphi
    arc = (phi, THETA - sp.pi / 2, sp.pi / 2)
    feats = _unit_features()
    a, (w0, w1) = feats["_a"], feats["_w"]

    def positive_branch(t: sp.Piecewise) -> sp.Expr:
        # relu's evaluated form Piecewise((0, z <= 0), (z, True)) and its derivative
        # Piecewise((0, z <= 0), (1, True)): for z > 0 the last branch
        (zero, _), (value, otherwise) = t.args
        if zero != 0 or otherwise is not sp.true:
            raise ArithmeticError(f"not a ReLU branch: {t}")
        return value

    def on_arc(e: sp.Expr) -> sp.Expr:
        return e.replace(lambda t: isinstance(t, sp.Piecewise), positive_branch)

    def expect(integrand: sp.Expr) -> sp.Expr:
        e = sp.expand(on_arc(integrand.subs({w0: r * sp.cos(phi), w1: r * sp.sin(phi)})))
        e = sp.expand(e.subs(a**2, A2))
        if a in e.free_symbols:
            raise ArithmeticError(f"the integrand is not a function of a^2: {e}")
        poly = sp.Poly(e, r)
        return sum((sp.integrate(r**k * density, (r, 0, sp.oo)) * sp.integrate(c, arc)
                    for (k,), c in poly.terms()), sp.S.Zero)  # fmt: skip

    rf, ntk, gp = (sp.simplify(expect(feats[k])) for k in ("rf", "ntk", "gp"))
    return {"rf": rf, "ntk": ntk, "gp": gp, "k0": rf + ntk}


def _closed_forms_from_definitions() -> Verdict:
    polar = _polar_kernels()
    return prove_zero(*(polar[k] - kernel_theta(k) for k in KERNELS))


def _stable_forms() -> Verdict:
    # angle form at theta = acos(rho) (a bijection [-1, 1] -> [0, pi]) is the cosine form;
    # the stable square root equals the textbook one
    res = [kernel_theta(k).subs(THETA, sp.acos(RHO)) - kernel(k) for k in KERNELS]
    res += [_cosine_stable(kernel(k)) - kernel(k) for k in KERNELS]
    res.append(sp.sqrt((1 - RHO) * (1 + RHO)) ** 2 - (1 - RHO**2))
    # Kahan: for unit u, v at angle theta, |u - v| = 2 sin(theta/2), |u + v| = 2 cos(theta/2)
    u = sp.Matrix([1, 0])
    v = sp.Matrix([sp.cos(THETA), sp.sin(THETA)])
    half = THETA / 2
    res.append(sp.expand_trig(((u - v).dot(u - v) - 4 * sp.sin(half) ** 2).rewrite(sp.cos)))
    res.append(sp.expand_trig(((u + v).dot(u + v) - 4 * sp.cos(half) ** 2).rewrite(sp.cos)))
    # the evaluated form: phi = pi - theta with sinc3, equal to the angle form
    res += [sp.simplify(elementary(_supplement_form(k)) - kernel_theta(k).subs(THETA, sp.pi - PHI))
            for k in KERNELS]  # fmt: skip
    # SUPPLEMENT = pi - ANGLE: with t = |u + v| / |u - v| > 0, atan(t) + atan(1/t) is constant
    # (zero derivative) and pi/2 at t = 1 (the edges t = 0, oo are atan2's exact 0, pi/2)
    t = sp.Symbol("t", positive=True)
    both = (ANGLE + SUPPLEMENT).subs({SUM_NORM: t, DIFF_NORM: 1})
    res += [sp.simplify(sp.diff(both, t)), both.subs(t, 1) - sp.pi]
    # phi_of_rho is SUPPLEMENT of the chords of two unit vectors at cosine rho
    u1, v1 = sp.Matrix([1, 0]), sp.Matrix([RHO, sp.sqrt(1 - RHO**2)])
    chords = {DIFF_NORM: sp.sqrt(sp.expand((u1 - v1).dot(u1 - v1))),
              SUM_NORM: sp.sqrt(sp.expand((u1 + v1).dot(u1 + v1)))}  # fmt: skip
    res.append(sp.simplify(_phi_of_rho() - SUPPLEMENT.subs(chords)))
    return prove_zero(*res)


@functools.cache
def _diagonal_direct() -> dict[str, sp.Expr]:
    """The definitions (2.4), (2.31) at ``x' = x`` (keys ``"rf"``, ...) and at ``x' = -c x``
    (keys ``"rf-"``, ..., ``|x'| = n2``), integrated directly: ``<w, x> = sqrt(s2) n1 u`` with
    ``u ~ N(0, 1)``, the package's ``relu`` and ``relu'`` (:mod:`solvable._core.activations`),
    one-dimensional Gaussian integrals by sympy; generic moments ``E[a^2] = A2``, ``s^2 = S2``."""
    u, v = sp.Symbol("u", real=True), sp.Symbol("v", positive=True)
    relu, drelu = act.activation("relu"), act.derivative("relu")

    def mean(e: sp.Expr) -> sp.Expr:
        # int_R e(u) phi(u) du = int_0^oo (e(v) + e(-v)) phi(v) dv: with v > 0 declared,
        # relu and relu' of +-c v (c > 0) evaluate themselves
        folded = (e.subs(u, v) + e.subs(u, -v)) * _gauss(v)
        return sp.simplify(sp.integrate(sp.expand(folded), (v, 0, sp.oo)))

    z, zm = sp.sqrt(S2) * N1 * u, -sp.sqrt(S2) * N2 * u
    out = {}
    for tag, z2, dot in (("", z, N1**2), ("-", zm, -N1 * N2)):
        rf = mean(relu.subs(act.Z, z) * relu.subs(act.Z, z2))
        ntk = A2 * dot * mean(drelu.subs(act.Z, z) * drelu.subs(act.Z, z2))
        out.update({f"rf{tag}": rf, f"ntk{tag}": ntk, f"gp{tag}": A2 * rf, f"k0{tag}": rf + ntk})
    return out


def _moments(init: Initialisation) -> dict[sp.Symbol, sp.Expr]:
    return {A2: init.a_second_moment, S2: init.w_variance}


def _diagonal_values() -> Verdict:
    # rho = 1 (x' = x) and rho = -1 (x' = -c x): the closed forms (the expressions every
    # evaluator is generated from) against the definitions integrated directly, for the
    # generic, lecture (2.28) and Exercise 1 records; the arc-cosine expectations against
    # E[relu(u)^2], E[relu'(u)^2]; K_NTK(x, x) against the corrected (4.2) at rho = 1
    # (<x, x> times its printed right-hand side)
    direct = _diagonal_direct()
    res = [
        arccos_expectation(0, 1) - direct["ntk"].subs({A2: 1, N1: 1}),  # E[relu'(u)^2]
        arccos_expectation(1, 1) - direct["rf"].subs({S2: 1, N1: 1}),  # E[relu(u)^2]
        arccos_expectation(0, -1), arccos_expectation(1, -1),
        kernel("ntk", exercise_initialisation(), N1, N1, 1) - N1**2 * exercise_printed_ntk(1),
    ]  # fmt: skip
    for init in (generic_initialisation(), lecture_initialisation(D), exercise_initialisation()):
        mom = _moments(init)
        res += [kernel(k, init, N1, N1, 1) - direct[k].subs(mom) for k in KERNELS]
        res += [kernel(k, init, N1, N2, -1) - direct[f"{k}-"].subs(mom) for k in KERNELS]
    return prove_zero(*res)


def _homogeneity() -> Verdict:
    c1, c2 = sp.symbols("c1 c2", positive=True)
    res = [kernel(k, None, c1 * N1, c2 * N2, RHO) - c1 * c2 * kernel(k) for k in KERNELS]
    # x -> 0 along any direction: K = n1 * (bounded in rho) -> 0
    n = sp.Symbol("n", positive=True)
    res += [sp.limit(kernel(k, None, n, N2, RHO), n, 0) for k in KERNELS]
    res += [kernel_of_vectors(k, None, [0, 0], [1, 2]) for k in KERNELS]
    return prove_zero(*res)


def _ntk_from_rf() -> Verdict:
    # Price's theorem with covariance s2 c, c = <x, x'> = n1 n2 rho at fixed norms:
    # dK_RF/dc = s2 E[relu'(.) relu'(.)], so K_NTK = (E[a^2]/s2) c dK_RF/dc; K_GP = E[a^2] K_RF
    c = sp.Symbol("c", real=True)
    rf_c = kernel("rf").subs(RHO, c / (N1 * N2))
    dK = sp.diff(rf_c, c).subs(c, N1 * N2 * RHO)
    return prove_zero(
        kernel("ntk") - A2 / S2 * (N1 * N2 * RHO) * dK,
        kernel("gp") - A2 * kernel("rf"),
        sp.diff(kernel("rf"), RHO) - S2 * N1 * N2 * arccos_expectation(0),
    )


def _positivity() -> Verdict:

    th = THETA
    J0 = 2 * sp.pi * kernel_theta("ntk", exercise_initialisation(), 1, 1) / sp.cos(th)
    J1 = 2 * sp.pi * kernel_theta("rf", exercise_initialisation(), 1, 1)
    dJ1 = sp.factor(sp.diff(J1, th))
    dom = sp.Interval(0, sp.pi)
    k0_diag = kernel("k0", None, N1, N1, 1)
    cases = [
        ("J_0 = pi - theta", sp.simplify(J0 - (sp.pi - th)) == 0),
        ("min J_0 on [0, pi] = 0", minimum(J0, th, dom) == 0),
        ("J_0 = 0 only at pi", sp.solveset(J0, th, dom) == sp.FiniteSet(sp.pi)),
        ("min J_1 on [0, pi] = 0", minimum(J1, th, dom) == 0),
        ("J_1' = (theta - pi) sin theta", sp.simplify(dJ1 - (th - sp.pi) * sp.sin(th)) == 0),
        ("sin([0, pi]) = [0, 1]", function_range(sp.sin(th), th, dom) == sp.Interval(0, 1)),
        ("J_1' = 0 only at 0, pi", sp.solveset(dJ1, th, dom) == sp.FiniteSet(0, sp.pi)),
        ("J_1(pi) = 0", sp.simplify(J1.subs(th, sp.pi)) == 0),
        ("K_0(x, x) > 0", bool(k0_diag.is_positive)),
    ]
    verdict = decide(cases, "ReLU kernel signs")
    if verdict.status != "proved":
        return verdict
    return Verdict(
        "proved",
        verdict.detail + ". Hence J_0 > 0 on [0, pi) (0 at pi); J_1' = (theta - pi) sin theta "
        "<= 0 vanishing only at 0, pi, so J_1 decreases strictly to J_1(pi) = 0: J_1 > 0 on "
        "[0, pi). So K_RF, K_GP >= 0 (= 0 iff x' = -c x or a zero input), sign K_NTK = "
        "sign <x, x'>, K_0(x, x) = (E[a^2] + s^2)|x|^2/2 > 0 for x != 0.",
        residuals=verdict.residuals,
    )


def _exercise_ntk() -> Verdict:
    # the corrected (4.2): <x, x'> times its printed right-hand side (data), against the
    # closed form and the definition integrated in polar coordinates (package network)
    e = exercise_initialisation()
    corrected = N1 * N2 * RHO * exercise_printed_ntk()
    polar = _polar_kernels()["ntk"].subs(_moments(e)).subs(THETA, sp.acos(RHO))
    return prove_zero(kernel("ntk", e) - corrected, polar - corrected)


def _lecture_k0() -> Verdict:
    # eq. (2.28): the record's moments are those of a ~ Unif[-1, 1] (E[a^2] integrated) and
    # w ~ N(0, I_d/d); its K_0 is the definition integrated in polar coordinates with them
    init = lecture_initialisation(D)
    a = sp.Symbol("a", real=True)
    m2 = sp.integrate(a**2 / 2, (a, -1, 1))  # Unif[-1, 1] has density 1/2
    polar = _polar_kernels()["k0"].subs({A2: m2, S2: 1 / D}).subs(THETA, sp.acos(RHO))
    return prove_zero(init.a_second_moment - m2, init.w_variance - 1 / D,
                      kernel("k0", init) - polar)  # fmt: skip


# ---------------------------------------------------------------------------
# Table 1, (2.2) and the fourth cumulant: symbolic claims
# ---------------------------------------------------------------------------
def _uniform_mean(integrand: Callable[[sp.Expr], sp.Expr], bound: sp.Expr) -> sp.Expr:
    """``E[integrand(u)]`` for ``u ~ Unif([-bound, bound])`` (density ``1/(2 bound)``)."""
    u = sp.Symbol("u", real=True)
    return sp.integrate(integrand(u) / (2 * bound), (u, -bound, bound))


def _table_1_variances() -> Verdict:
    # Var of each row's laws integrated from the uniform density; (2.2): sqrt(p) std(a_j) ->
    # sqrt(2) under both rows (std = Theta(1/sqrt(p))); the rescaled a~ = sqrt(p) a of (2.3)
    # has E[a~^2] = 2 (Kaiming, every p) and 2p/(p+1) -> 2 (Xavier)
    res = []
    for name, var_a, var_w in (("kaiming", 2 / P, 2 / D), ("xavier", 2 / (P + 1), 2 / (P + D))):
        init = default_initialisation(name)
        for bound, var, rec in ((init.a_bound, var_a, init.a_variance),
                                (init.w_bound, var_w, init.w_variance)):  # fmt: skip
            res += [_uniform_mean(lambda u: u**2, bound) - var, rec - var,
                    _uniform_mean(lambda u: u, bound)]  # fmt: skip
        res.append(sp.limit(sp.sqrt(P) * sp.sqrt(init.a_variance), P, sp.oo) - sp.sqrt(2))
        res.append(sp.limit(P * init.a_variance, P, sp.oo) - 2)
    res.append(P * default_initialisation("kaiming").a_variance - 2)
    return prove_zero(*res)


def _table_1_covariance() -> Verdict:
    # each exact covariance against the definition integrated over the uniform laws with the
    # package's ReLU (axis-aligned inputs: one coordinate for same direction / antipodal,
    # two independent coordinates for orthogonal axes); E[a] = 0 kills j != k.  Then the
    # widths: Kaiming's output variance 2|x|^2/d is free of p (the NTK scaling (2.3) with
    # O(1) first layer); Xavier's, 2 p |x|^2/((p+1)(p+d)), tends to 0 like 2|x|^2/p.  And
    # the Kaiming limit kernel differs from the Gaussian-weight arc-cosine kernel with the
    # same variances (E[a~^2] = 2, s^2 = 2/d) at orthogonal axes (equal on the diagonal).
    relu = act.activation("relu")
    res = []
    for name in TABLE_1:
        init = default_initialisation(name)
        c = init.w_bound
        same = _uniform_mean(lambda w: relu.subs(act.Z, N1 * w) * relu.subs(act.Z, N2 * w), c)
        anti = _uniform_mean(lambda w: relu.subs(act.Z, N1 * w) * relu.subs(act.Z, -N2 * w), c)
        axis = (_uniform_mean(lambda w: relu.subs(act.Z, N1 * w), c)
                * _uniform_mean(lambda w: relu.subs(act.Z, N2 * w), c))  # fmt: skip
        pre = P * _uniform_mean(lambda u: u**2, init.a_bound)
        res += [pre * same - table_1_covariance(name, "same_direction"),
                pre * anti - table_1_covariance(name, "antipodal"),
                pre * axis - table_1_covariance(name, "orthogonal_axes")]  # fmt: skip
    var_k = table_1_covariance("kaiming").subs(N2, N1)
    var_x = table_1_covariance("xavier").subs(N2, N1)
    res += [sp.diff(var_k, P), var_k - 2 * N1**2 / D, sp.limit(var_x, P, sp.oo),
            sp.limit(P * var_x, P, sp.oo) - 2 * N1**2]  # fmt: skip
    proof = prove_zero(*res)
    gauss = Initialisation(2, 2 / D, "uniform", "Gaussian w, same variances as Kaiming")
    diff = sp.simplify(table_1_covariance("kaiming", "orthogonal_axes")
                       - kernel("gp", gauss, N1, N2, 0))  # fmt: skip
    same = sp.simplify(var_k - kernel("gp", gauss, N1, N1, 1))
    ok = proof.status == "proved" and same == 0 and bool(diff.is_positive)
    return Verdict(
        "proved" if ok else "failed",
        f"{proof.detail}; at orthogonal axes K_Kaiming - K_arccos = {diff} > 0, on the "
        f"diagonal equal",
        residuals=(*proof.residuals, same, sp.Integer(0 if diff.is_positive else 1)),
    )


def _fourth_cumulant() -> Verdict:
    # (1) f = p^(-1/2) sum_j u_j, u_j i.i.d. symmetric (a symmetric, independent of w) with
    # moments m2, m4: the cumulant generating function p log M_u(t/sqrt(p)), M_u = 1 + m2
    # t^2/2 + m4 t^4/24 + O(t^6), has kappa_2 = m2 and kappa_4 = (m4 - 3 m2^2)/p;
    # (2) the ReLU moments (polar integration) against 1-D integrals and the kernels: E[relu^2]
    # = s^2 n^2/2, E[relu^4] = 3 s^4 n^4/2, relu_moment(1, 1) = K_RF, relu_moment(2, 2) at
    # theta = 0 is E[relu^4] |x'|^2/|x|^2..., 0 at theta = pi; kappa_2 = c^T K_GP c;
    # (3) E[a^4] of each law integrated; (4) excess kurtosis of f(x): 39/(5p) (eq. (2.28)),
    # 3/p (Exercise 1), and p kappa_4 free of p: kappa_4 -> 0 as p -> oo.
    t, m2, m4 = sp.Symbol("t", real=True), sp.Symbol("m2", positive=True), sp.Symbol("m4")
    cgf = P * sp.log(1 + m2 * (t / sp.sqrt(P)) ** 2 / 2 + m4 * (t / sp.sqrt(P)) ** 4 / 24)
    ser = sp.series(cgf, t, 0, 6).removeO()
    res = [sp.simplify(2 * ser.coeff(t, 2) - m2),
           sp.simplify(24 * ser.coeff(t, 4) - (m4 - 3 * m2**2) / P)]  # fmt: skip
    u = sp.Symbol("u", real=True)
    relu = act.activation("relu")
    gauss1 = lambda e: sp.integrate(e * _gauss(u), (u, -sp.oo, sp.oo))  # noqa: E731
    z = sp.sqrt(S2) * N1 * u
    res += [relu_moment(2, 0) - gauss1(relu.subs(act.Z, z) ** 2),
            relu_moment(4, 0) - gauss1(relu.subs(act.Z, z) ** 4),
            relu_moment(0, 4) - relu_moment(4, 0).subs(N1, N2),
            relu_moment(1, 1) - kernel_theta("rf"),
            relu_moment(2, 2).subs(THETA, 0) - 3 * S2**2 * N1**2 * N2**2 / 2,
            relu_moment(2, 2).subs(THETA, sp.pi), relu_moment(3, 1).subs(THETA, sp.pi)]  # fmt: skip
    quad = (C1**2 * kernel_theta("gp", None, N1, N1, 0) + 2 * C1 * C2 * kernel_theta("gp")
            + C2**2 * kernel_theta("gp", None, N2, N2, 0))  # fmt: skip
    res.append(output_cumulant(2) - quad)
    for law, m4_law in (("uniform", _uniform_mean(lambda v: v**4, sp.sqrt(3 * A2))),
                        ("rademacher", A2**2),
                        ("gaussian", gauss1((sp.sqrt(A2) * u) ** 4))):  # fmt: skip
        res.append(a_fourth_moment(Initialisation(A2, S2, law)) - m4_law)
    for init, value in ((lecture_initialisation(D), sp.Rational(39, 5) / P),
                        (exercise_initialisation(), 3 / P)):  # fmt: skip
        res.append(output_excess_kurtosis(init) - value)
        res.append(sp.diff(P * output_cumulant(4, init), P))
    res.append(sp.limit(output_cumulant(4, exercise_initialisation()), P, sp.oo))
    return prove_zero(*res)


# ---------------------------------------------------------------------------
# numeric claims
# ---------------------------------------------------------------------------
_F64_TOL = Tolerance(
    rtol=1e-13,
    reason="float64 evaluators of O(1)-conditioned forms (stable sqrt, Kahan angle): about 20 "
    "roundings of 2^-53 each plus libm acos/atan2/sin/cos within 1 ulp; 1e-13 leaves a "
    "factor ~50 of margin",
)


def _evaluator_points() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    one = 1.0 - np.finfo(float).eps  # the float just below 1
    rho = np.array([-1.0, -one, -0.9, -0.5, 0.0, 0.3, 0.7, 0.99, one, 1.0, 0.5, 0.5])
    n1 = np.array([1.0, 2.0, 0.5, 3.0, 1.0, 0.25, 1.5, 1.0, 2.0, 1.0, 0.0, 1.0])
    n2 = np.array([1.0, 0.5, 2.0, 1.0, 4.0, 2.0, 0.75, 1.0, 0.5, 3.0, 1.0, 0.0])
    return n1, n2, rho


def _evaluator_data() -> np.ndarray:
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5, 3))
    x = X[0]
    return np.vstack([X, x * (1 + 2e-9) + 1e-9 * X[1], -x + 1e-10 * X[2], -2 * x,
                      np.zeros(3)])  # fmt: skip


def _evaluators_agree(dps: int | None = None) -> Verdict:
    # numpy vs mpmath (dps and 2 dps) on (n1, n2, rho) points incl. rho = +-1 and the
    # adjacent floats and zero norms; Gram matrices (Kahan angle) incl. nearly parallel /
    # antiparallel rows and a zero row, against the mpmath Gram.  (The torch evaluators are
    # compared with these in tests/test_kernels.py, so that this check needs no torch.)
    dps = 30 if dps is None else dps
    tol_mp = Tolerance.digits(
        dps - 2,
        f"mpmath at {dps} vs {2 * dps} digits (+{_GUARD} guard digits each; the forms cancel "
        "no digits): 2 digits of margin",
    )
    n1, n2, rho = _evaluator_points()
    X = _evaluator_data()
    worst_f64, worst_mp = NOTHING_COMPARED, NOTHING_COMPARED
    for init in (lecture_initialisation(3), exercise_initialisation()):
        for k in KERNELS:
            f64 = kernel_numeric(k, init, n1, n2, rho)
            lo = [kernel_numeric(k, init, a, b, c, dps=dps)
                  for a, b, c in zip(n1, n2, rho, strict=True)]  # fmt: skip
            hi = [kernel_numeric(k, init, a, b, c, dps=2 * dps)
                  for a, b, c in zip(n1, n2, rho, strict=True)]  # fmt: skip
            worst_f64 = worst_of(worst_f64, error_in_units(f64, hi, _F64_TOL))
            worst_mp = worst_of(worst_mp, error_in_units(lo, hi, tol_mp))
            g64, gmp = gram(k, init, X), gram(k, init, X, dps=dps)
            worst_f64 = worst_of(worst_f64, error_in_units(g64, gmp, _F64_TOL))
    worst = worst_of(worst_f64, worst_mp)
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"4 kernels x 2 inits, 12 (n1, n2, rho) points (rho = +-1, +-(1 - 2^-52), zero norms) "
        f"and 10x10 Gram matrices (nearly parallel/antiparallel rows, a zero row): float64 vs "
        f"mpmath {worst_f64:.2g} x 1e-13 (normwise), mpmath {dps} vs {2 * dps} digits "
        f"{worst_mp:.2g} x 1e-{dps - 2}",
        max_error=worst,
        tolerance=_F64_TOL,
    )


def _diagonal_evaluated(dps: int | None = None) -> Verdict:
    # what a user gets at rho = +-1 (kernel_numeric in float64 and mpmath; gram, whose Kahan
    # angle is 0 / pi there, in float64 and mpmath) against the definitions integrated
    # directly (_diagonal_direct, exact), for the lecture (2.28) and Exercise 1 records
    dps = 30 if dps is None else dps
    tol_mp = Tolerance.digits(dps - 2, f"mpmath at {dps} digits (+{_GUARD} guard) vs exact")
    X = np.array([[0.5, 0.0, 0.0], [0.25, -1.5, 2.0], [-1.0, 2.0, 2.0]])  # dyadic: exact
    norms = [sp.sqrt(sum(sp.nsimplify(v) ** 2 for v in row)) for row in X]
    direct = _diagonal_direct()
    worst_f64, worst_mp = NOTHING_COMPARED, NOTHING_COMPARED
    for init in (lecture_initialisation(3), exercise_initialisation()):
        mom = _moments(init)
        for k in KERNELS:
            same = [direct[k].subs(mom).subs(N1, n) for n in norms]  # K(x, x)
            anti = [direct[f"{k}-"].subs(mom).subs({N1: n, N2: 2 * n}) for n in norms]
            exact = np.array([float(v) for v in same])
            zero = np.array([float(v) for v in anti])
            n64 = np.array([float(n) for n in norms])
            # the antiparallel value is 0: absolute error in units of 1e-13 |K(x, 2x)|
            tol_0 = Tolerance(rtol=0.0, atol=_F64_TOL.rtol * 2 * float(np.max(exact)),
                              reason="float64 rounding (sin(pi) = 1.2e-16) on the scale "
                              "of K(x, 2x)")  # fmt: skip
            worst_f64 = worst_of(
                worst_f64,
                error_in_units(kernel_numeric(k, init, n64, n64, 1.0), exact, _F64_TOL),
                error_in_units(np.diag(gram(k, init, X)), exact, _F64_TOL),
                error_in_units(np.diag(gram(k, init, X, -2 * X)), zero, tol_0),
            )
            with mpmath.workdps(dps + _GUARD):
                ex_mp = [mpmath.mpf(sp.N(v, dps + _GUARD)) for v in same]
            got = [
                kernel_numeric(k, init, str(sp.N(n**2, dps + _GUARD)), 1, 1, dps=dps) for n in norms
            ]  # K(x, x) = |x|^2 K(e, e): n1 = |x|^2, n2 = 1
            worst_mp = worst_of(
                worst_mp,
                error_in_units(got, ex_mp, tol_mp),
                error_in_units(np.diag(gram(k, init, X, dps=dps)), ex_mp, tol_mp),
            )
    worst = worst_of(worst_f64, worst_mp)
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"4 kernels x 2 inits x 3 inputs: K(x, x) and K(x, -2x) from kernel_numeric and gram "
        f"(float64 {worst_f64:.2g} x 1e-13; mpmath {dps} digits {worst_mp:.2g} x "
        f"1e-{dps - 2}) equal the definitions (2.4), (2.31) integrated directly "
        f"(E[relu(<w,x>)^2] = s^2|x|^2/2, E[relu'^2] = 1/2; 0 for antiparallel inputs)",
        max_error=worst,
        tolerance=_F64_TOL,
    )


def _gram_positive_definite(dps: int | None = None) -> Verdict:
    # Exercise 1(c): lambda_min of the limit Gram matrices is > 0 for pairwise non-parallel
    # data with n > d (X X^T has rank d < n: positivity comes from the arc-cosine factor)
    dps = 30 if dps is None else dps
    rng = np.random.default_rng(1)
    X = rng.normal(size=(12, 3))
    X /= np.linalg.norm(X, axis=1)[:, None]
    init = exercise_initialisation()
    tol = Tolerance(rtol=0.0, atol=1e-12, reason="float64 eigvalsh error <= n eps ||K||_2 "
                    "~ 12 * 2.2e-16 * 6 ~ 2e-14, bounded by 1e-12")  # fmt: skip
    found, worst = [], 0.0
    for k in ("ntk", "rf", "k0"):
        with mpmath.workdps(dps):
            K = mpmath.matrix(gram(k, init, X, dps=dps).tolist())
            lam_mp = min(mpmath.eigsy(K, eigvals_only=True))
        lam64 = float(np.linalg.eigvalsh(gram(k, init, X))[0])
        worst = worst_of(worst, error_in_units(lam64, lam_mp, tol))
        found.append((k, lam_mp, lam64))
    ok = all(lam > 0 for _, lam, _ in found) and worst <= 1
    text = ", ".join(f"{k}: {mpmath.nstr(lam, 6)}" for k, lam, _ in found)
    return Verdict(
        "confirmed" if ok else "failed",
        f"Exercise 1 init, 12 random unit vectors in R^3 (rank X X^T = 3 < 12): lambda_min "
        f"(mpmath {dps} digits) {text}; all > 0; float64 eigvalsh within {worst:.2g} x 1e-12",
        max_error=worst if ok else float("inf"),
        tolerance=tol,
    )


def claims() -> list[Theorem]:
    """Every claim of seed 002, Sections 2.1, 2.3 and Exercise 1, checked here."""

    def T(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"kernels.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("plackett_identity", "Section 2.1 (Gaussian orthant)",
          "The bivariate normal density satisfies d/drho phi_2 = d^2 phi_2/(du dv), hence "
          "d/drho P(u > 0, v > 0) = phi_2(0, 0; rho) = 1/(2 pi sqrt(1 - rho^2)) (|rho| < 1). "
          "Rests on exchanging d/drho with the orthant integral (dominated convergence; "
          "Gaussian decay).", _plackett),
        T("arccos_order_0", "eq. (2.31), Exercise 1",
          "Given Plackett's identity, E[1{u>0} 1{v>0}] = (pi - arccos rho)/(2 pi): it has the "
          "derivative 1/(2 pi sqrt(1 - rho^2)) and the value P(u > 0)^2 = 1/4 at rho = 0.",
          _arccos_order_0),
        T("arccos_order_1", "eqs. (2.4), (2.31)",
          "Given Price's theorem (d/drho E[g(u)h(v)] = E[g'(u)h'(v)]), E[relu(u) relu(v)] = "
          "(sqrt(1 - rho^2) + (pi - arccos rho) rho)/(2 pi): its derivative is the order-0 "
          "kernel and its value at rho = 0 is E[relu(u)]^2 = 1/(2 pi).", _arccos_order_1),
        T("closed_forms_from_definitions", "eqs. (2.4), (2.30), (2.31)",
          "Integrating the definitions in polar coordinates (x = n1 e1, x' = n2 (cos theta, "
          "sin theta), w ~ N(0, s^2 I) on span(x, x')) gives K_RF = s^2 n1 n2 J_1/(2 pi), "
          "K_NTK = E[a^2] n1 n2 cos(theta) J_0/(2 pi), K_GP = E[a^2] K_RF, K_0 = K_RF + K_NTK, "
          "for every E[a^2], s^2 > 0 and theta in [0, pi]. Rests on rotation invariance of "
          "N(0, s^2 I_d) and independence of a and w.", _closed_forms_from_definitions),
        T("stable_forms", "eqs. (2.31), (4.2) (numerics)",
          "The angle form at theta = arccos(rho) and the stable sqrt((1 - rho)(1 + rho)) form "
          "equal the cosine form of every kernel; |u - v| = 2 sin(theta/2), |u + v| = "
          "2 cos(theta/2) for unit vectors (Kahan's angle).", _stable_forms),
        T("diagonal_values", "eqs. (2.4), (2.21), (2.31), (4.2)",
          "rho = 1: the closed forms equal the definitions integrated directly over <w, x> ~ "
          "N(0, s^2|x|^2) (K_RF(x, x) = s^2|x|^2/2, K_NTK(x, x) = E[a^2]|x|^2/2, K_GP = E[a^2] "
          "K_RF), for generic moments and the (2.28) and Exercise 1 records, and K_NTK(x, x) "
          "is |x|^2 times the printed right-hand side of (4.2) at rho = 1; rho = -1 (x' = -c "
          "x): every kernel is 0, as is its definition.", _diagonal_values),
        T("homogeneity_and_zero_limit", "eqs. (2.4), (2.31)",
          "Every kernel is positively homogeneous of degree 1 in each argument, K(c x, c' x') "
          "= c c' K(x, x'), and tends to 0 as x -> 0 along any direction (= its value at x = 0).",
          _homogeneity),
        T("ntk_from_rf_derivative", "eqs. (2.4), (2.31)",
          "At fixed norms, K_NTK = (E[a^2]/s^2) <x,x'> dK_RF/d<x,x'> (Price's theorem with "
          "covariance s^2 <x,x'>), dK_RF/drho = s^2 n1 n2 J_0/(2 pi), and K_GP = E[a^2] K_RF.",
          _ntk_from_rf),
        T("positivity", "eqs. (2.31), (2.42), Exercise 1(c)",
          "J_0, J_1 >= 0 on [0, pi], vanishing only at theta = pi: K_RF, K_GP >= 0 entrywise, "
          "sign K_NTK = sign <x, x'>, K_0(x, x) > 0 for x != 0.", _positivity),
        T("exercise_1_ntk", "Exercise 1, eq. (4.2) (corrected)",
          "For a ~ Unif{-1, 1}, w ~ N(0, I_d): K_NTK(x, x') = <x, x'> (1/2 - arccos(rho)/(2 pi)) "
          "(closed form and polar integration of the definition).", _exercise_ntk),
        T("lecture_k0", "eqs. (2.28)-(2.31)",
          "For a ~ Unif[-1, 1], w ~ N(0, I_d/d): K_0 = (|x||x'|/d) J_1/(2 pi) + (<x, x'>/3) "
          "J_0/(2 pi).", _lecture_k0),
        T("evaluators_agree", "eqs. (2.4), (2.31) (generated evaluators)",
          "The float64 and mpmath evaluators generated from the closed forms agree (float64 to "
          "1e-13 normwise, incl. rho = +-1 and nearly (anti)parallel Gram rows; mpmath at dps "
          "and 2 dps to dps - 2 digits).", _evaluators_agree, "numeric"),
        T("diagonal_evaluated", "eqs. (2.4), (2.31), (4.2) (evaluators at rho = +-1)",
          "The evaluated kernels (float64 and mpmath kernel_numeric at rho = 1, gram at x' = x "
          "and x' = -2x) equal the definitions integrated directly: K_RF(x, x) = E[relu(<w, "
          "x>)^2], K_NTK(x, x) = |x|^2 E[a^2 relu'(<w, x>)^2], K_GP = E[a^2] K_RF, 0 for "
          "antiparallel inputs.", _diagonal_evaluated, "numeric"),
        T("gram_positive_definite", "Exercise 1(c), eq. (2.42)",
          "lambda_min of the K_NTK, K_RF and K_0 Gram matrices (Exercise 1 init) of 12 "
          "pairwise non-parallel unit vectors in R^3 is > 0, although X X^T has rank 3.",
          _gram_positive_definite, "numeric"),
        T("table_1_variances", "Table 1, eqs. (2.2), (2.3)",
          "Integrating the uniform laws of Table 1: Var a_j = 2/p (Kaiming), 2/(p+1) (Xavier), "
          "Var w_jk = 2/d, 2/(p+d), all centred; sqrt(p) std(a_j) -> sqrt(2) under both rows "
          "(2.2), and a~ = sqrt(p) a of (2.3) has E[a~^2] = 2 (Kaiming) and 2p/(p+1) -> 2.",
          _table_1_variances),
        T("table_1_output_covariance", "Table 1, eqs. (2.1)-(2.5)",
          "ReLU, b = 0, at every width p: E[f(x) f(x')] = p Var(a) Var(w) |x||x'|/2 for x' = c x "
          "(c > 0), p Var(a) (w_bound/4)^2 |x||x'| for orthogonal coordinate axes, 0 for "
          "x' = -c x (the definitions integrated over the uniform laws). Kaiming: Var f(x) = "
          "2|x|^2/d free of p; Xavier: 2p|x|^2/((p+1)(p+d)) -> 0 like 2|x|^2/p. The Kaiming "
          "limit kernel exceeds the Gaussian-weight arc-cosine kernel of the same variances at "
          "orthogonal axes (3/(4d) vs 2/(pi d)), though both agree on the diagonal.",
          _table_1_covariance),
        T("fourth_cumulant", "eqs. (2.3)-(2.5), (2.28), Exercise 1",
          "For the ReLU net (2.3) with a symmetric, independent of w ~ N(0, s^2 I): the "
          "projection c1 f(x) + c2 f(x') has kappa_2 = c^T K_GP c and kappa_4 = (E[a^4] E[s^4] "
          "- 3 E[a^2]^2 E[s^2]^2)/p exactly (cumulants of a sum of p i.i.d. units; mixed ReLU "
          "moments by polar integration); the excess kurtosis of f(x) is 39/(5p) under (2.28) "
          "and 3/p under Exercise 1, so kappa_4 -> 0 as p -> oo.", _fourth_cumulant),
]  # fmt: skip


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
_SIGMA = sp.Function("sigma")


def _cubic(z: sp.Expr) -> sp.Expr:
    # a concrete smooth activation for printed residuals (closed numbers at a rational point)
    return z + z**3 / 3


def _eq42_factor() -> tuple[sp.Expr, sp.Expr]:
    # K_NTK from the definition (polar integration, Exercise 1 init) at theta = acos(rho)
    # against the printed and the corrected right-hand sides of (4.2)
    definition = _polar_kernels()["ntk"].subs({A2: 1, S2: 1}).subs(THETA, sp.acos(RHO))
    corrected = N1 * N2 * RHO * exercise_printed_ntk()
    return exercise_printed_ntk() - definition, corrected - definition


def _two_unit_network(shared_w: bool = False, sigma: Callable = _SIGMA):
    """The package's network (:func:`solvable.models.linearisation.network_output`) with p = 2
    units, d = 1: f = (a0 s(w0 x) + a1 s(w1 x))/sqrt(2) (``shared_w``: w0 = w1 = w, the
    printed (4.1))."""
    a = sp.symbols("a0 a1", real=True)
    w = sp.symbols("w0 w1", real=True) if not shared_w else (sp.Symbol("w", real=True),) * 2
    params = list(a) + list(dict.fromkeys(w))
    W = np.array([[w[0]], [w[1]]], dtype=object)
    sig = np.vectorize(sigma, otypes=[object])

    def f(x: sp.Expr) -> sp.Expr:
        X = np.array([[x]], dtype=object)
        return sp.sympify(network_output(W, np.array(a, dtype=object), X, sig,
                                         1 / sp.sqrt(2))[0], strict=True)  # fmt: skip

    return a, w, params, f


def _gram_entry(f: Callable, params: list, x: sp.Expr, xp: sp.Expr, block: list) -> sp.Expr:
    return sum(sp.diff(f(x), t) * sp.diff(f(xp), t) for t in block)


def _dsigma(sigma: Callable, z: sp.Expr) -> sp.Expr:
    s = sp.Dummy("s")
    return sp.diff(sigma(s), s).subs(s, z)


def _eq229_index() -> tuple[sp.Expr, sp.Expr]:
    # W block of (2.25) for p = 2, d = 1.  Printed: "sigma'(<w(t), x>)" read with one w (w_1)
    # for every j, evaluated with sigma = z + z^3/3; corrected: sigma'(<w_j, x>) with a
    # generic sigma (symbolic identity)
    x, xp = sp.symbols("x xp", real=True)

    def residual(sigma: Callable, printed: bool) -> sp.Expr:
        a, w, params, f = _two_unit_network(sigma=sigma)
        exact = _gram_entry(f, params, x, xp, list(w))
        wj = [w[0], w[0]] if printed else list(w)
        formula = x * xp / 2 * sum(a[j] ** 2 * _dsigma(sigma, wj[j] * x)
                                   * _dsigma(sigma, wj[j] * xp) for j in range(2))  # fmt: skip
        return formula - exact

    return residual(_cubic, True), residual(_SIGMA, False)


def _eq41_index() -> tuple[sp.Expr, sp.Expr]:
    # (4.1) as printed shares one w between all units: its W-gradient Gram is
    # (1/p)(sum_j a_j)^2 sigma' sigma' <x,x'>, not (4.4)'s sum_j a_j^2 sigma'_j sigma'_j;
    # corrected (w_j): the W-gradient Gram equals (4.4) exactly (generic sigma)
    x, xp = sp.symbols("x xp", real=True)

    def residual(sigma: Callable, shared: bool) -> sp.Expr:
        a, w, params, f = _two_unit_network(shared, sigma)
        exact = _gram_entry(f, params, x, xp, list(dict.fromkeys(w)))
        eq44 = x * xp / 2 * sum(a[j] ** 2 * _dsigma(sigma, w[j] * x) * _dsigma(sigma, w[j] * xp)
                                for j in range(2))  # fmt: skip
        return exact - eq44

    return residual(_cubic, True), residual(_SIGMA, False)


def _eq44_inputs() -> tuple[sp.Expr, sp.Expr]:
    # entry (1, 1) of the Gram matrix on data x_1, x_2 (d = 1, p = 2): printed factor <x, x'>
    # read as <x_1, x_2> for every entry; corrected <x_i, x_j> (generic sigma)
    x1, x2 = sp.symbols("x1 x2", real=True)

    def residual(sigma: Callable, printed: bool) -> sp.Expr:
        a, w, params, f = _two_unit_network(sigma=sigma)
        exact = _gram_entry(f, params, x1, x1, list(w))
        factor = x1 * x2 if printed else x1 * x1
        eq44 = factor / 2 * sum(a[j] ** 2 * _dsigma(sigma, w[j] * x1) ** 2 for j in range(2))
        return eq44 - exact

    return residual(_cubic, True), residual(_SIGMA, False)


def _table_1_pytorch() -> tuple[sp.Expr, sp.Expr]:
    # squared bound of the output-layer weights (fan_in = p).  torch.nn.Linear's default is
    # kaiming_uniform_(a = sqrt(5)): bound^2 = gain^2 * 3 / fan_in with the leaky-ReLU gain
    # gain^2 = 2/(1 + a^2) = 1/3, i.e. 1/p; the printed row, 6/p, is kaiming_uniform_ with the
    # ReLU gain sqrt(2) (a = 0).  Residuals: printed minus the default; corrected minus it.
    def bound_sq(a: sp.Expr) -> sp.Expr:
        return 2 / (1 + a**2) * 3 / P

    default = bound_sq(sp.sqrt(5))
    return default_initialisation("kaiming").a_bound ** 2 - default, 1 / P - default


def _table_1_ntk_scaling() -> tuple[sp.Expr, sp.Expr]:
    # Printed: Table 1's rows are the NTK scaling (2.3) (summands of O(1) variance, a
    # non-degenerate GP limit): lim Var_Xavier f(x) / Var_Kaiming f(x) = 1 (ReLU, b = 0).
    # It is 0.  Corrected: Var_Xavier f(x) = 2 p |x|^2/((p+1)(p+d)), from the uniform laws
    # integrated directly (one coordinate axis), and -> 0.
    var_k = table_1_covariance("kaiming").subs(N2, N1)
    init = default_initialisation("xavier")
    relu = act.activation("relu")
    direct = (P * _uniform_mean(lambda u: u**2, init.a_bound)
              * _uniform_mean(lambda w: relu.subs(act.Z, N1 * w) ** 2, init.w_bound))  # fmt: skip
    printed = sp.limit(direct / var_k, P, sp.oo) - 1
    corrected = direct - 2 * P * N1**2 / ((P + 1) * (P + D))
    return printed, corrected + sp.limit(direct, P, sp.oo)


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    s = SEED
    return (
        Erratum(
            s, "(4.2)",
            "K_NTK(x, x') := <x, x'> E_{a,w}[a^2 sigma'(<w, x_i>) sigma'(<w, x_j>)] = 1/2 - "
            "(1/(2 pi)) arccos(<x, x'>/(|x| |x'|))",
            "K_NTK(x, x') := <x, x'> E_{a,w}[a^2 sigma'(<w, x>) sigma'(<w, x'>)] = <x, x'> "
            "(1/2 - (1/(2 pi)) arccos(<x, x'>/(|x| |x'|)))",
            "With a^2 = 1 and w ~ N(0, I_d) the expectation is E[1{u>0}1{v>0}] = 1/2 - "
            "arccos(rho)/(2 pi) (orthant probability), and the definition keeps the factor "
            "<x, x'>; the printed value is scale-free and e.g. gives K_NTK(x, x') = 1/4 for "
            "orthogonal inputs instead of 0, and 1/2 instead of |x|^2/2 on the diagonal (the "
            "subscripts x_i, x_j inside the expectation should read x, x'). Residuals: each "
            "right-hand side minus K_NTK integrated from the definition in polar coordinates; "
            "claim kernels.monte_carlo_exercise_1 confirms by simulation.",
            _eq42_factor,
        ),
        Erratum(
            s, "(2.29)",
            "... + <x, x'>/p sum_j a_j^2 sigma'(<w(t), x>) sigma'(<w(t), x'>)",
            "... + <x, x'>/p sum_j a_j^2 sigma'(<w_j(t), x>) sigma'(<w_j(t), x'>)",
            "The derivative factors belong to unit j (d f/d w_j = a_j sigma'(<w_j, x>) x / "
            "sqrt(p)); read literally with one w the sum is a different quantity. Residuals "
            "(p = 2, d = 1): the W block of the NTK minus each form, printed with w = w_1 and "
            "sigma(z) = z + z^3/3, corrected for a generic sigma.",
            _eq229_index,
            changes_math=False,
        ),
        Erratum(
            s, "(4.1)",
            "f(x; theta) = p^(-1/2) sum_j a_j sigma(<w, x>),  w^0 ~ N(0, I_d)",
            "f(x; theta) = p^(-1/2) sum_j a_j sigma(<w_j, x>),  w_j^0 ~ N(0, I_d) i.i.d.",
            "With one shared w the W-gradient Gram is (1/p)(sum_j a_j)^2 sigma' sigma' <x, x'>, "
            "not the sum_j a_j^2 sigma'(<w_j, x_i>) sigma'(<w_j, x_j>) of (4.4) that the "
            "exercise uses. Residuals (p = 2, d = 1): W-gradient Gram minus (4.4), for the "
            "shared-w model (sigma = z + z^3/3) and for the per-unit model (generic sigma).",
            _eq41_index,
            changes_math=False,
        ),
        Erratum(
            s, "(4.4)",
            "K^_NTK,ij = <x, x'>/p sum_{j=1}^p a_j^2 sigma'(<w_j, x_i>) sigma'(<w_j, x_j>), "
            "K_NTK,ij = K_NTK(x, x')",
            "K^_NTK,ij = <x_i, x_j>/p sum_{k=1}^p a_k^2 sigma'(<w_k, x_i>) sigma'(<w_k, x_j>), "
            "K_NTK,ij = K_NTK(x_i, x_j)",
            "The entry (i, j) needs the inputs x_i, x_j in the prefactor and in K_NTK, and a "
            "summation index other than the column index j. Residuals (n = 2, p = 2, d = 1): "
            "entry (1, 1) of the W-gradient Gram minus the formula, with <x, x'> read as "
            "<x_1, x_2> (printed, sigma = z + z^3/3) and as <x_1, x_1> (corrected, generic "
            "sigma).",
            _eq44_inputs,
            changes_math=False,
        ),
        Erratum(
            s, "Table 1 (Kaiming (Pytorch) row)",
            "Pytorch default: a_j ~ Unif[-sqrt(6/p), sqrt(6/p)], w_jk ~ Unif[-sqrt(6/d), "
            "sqrt(6/d)], b = 0",
            "Pytorch's nn.Linear default is kaiming_uniform_(a = sqrt(5)): a_j ~ "
            "Unif[-1/sqrt(p), 1/sqrt(p)], w_jk ~ Unif[-1/sqrt(d), 1/sqrt(d)], b_j ~ "
            "Unif[-1/sqrt(d), 1/sqrt(d)]; the printed row is Kaiming-He uniform with the ReLU "
            "gain (kaiming_uniform_(nonlinearity='relu'))",
            "torch.nn.Linear.reset_parameters calls kaiming_uniform_(weight, a=sqrt(5)), whose "
            "bound gain * sqrt(3/fan_in) with gain^2 = 2/(1 + a^2) = 1/3 is 1/sqrt(fan_in), and "
            "draws the bias from the same interval. (2.2) holds either way (std a_j = "
            "1/sqrt(3p)). Residuals: the squared output-layer bound, printed 6/p and corrected "
            "1/p, minus the default's gain^2 * 3/p; tests/test_kernels.py checks torch's layer.",
            _table_1_pytorch,
            changes_math=False,
        ),
        Erratum(
            s, "Table 1 with (2.3) and the Epilogue",
            "the standard initialisation from Table 1 (a.k.a. NTK scaling): f(x; theta0) is a "
            "sum of p independent O(1)-variance terms scaled by 1/sqrt(p), with a GP limit (2.5)",
            "only the Kaiming row is the NTK scaling (2.3) (w = O(1): Var f(x) = 2|x|^2/d at "
            "every p, ReLU); under Xavier the first layer shrinks too, Var w_jk = 2/(p+d), so "
            "Var f(x; theta0) = 2p|x|^2/((p+1)(p+d)) -> 0: the wide limit is the zero function",
            "Xavier scales w by fan_in + fan_out = p + d, so <w_j, x> = O(1/sqrt(p)) and each "
            "summand a~_j relu(<w_j, x>) of (2.3) has variance O(1/p), not O(1). The lecture's "
            "(2.28) uses w ~ N(0, I/d), i.e. the Kaiming-like row. Residuals (ReLU, b = 0, "
            "integrated from the uniform laws): lim Var_Xavier / Var_Kaiming - 1 = -1 "
            "(printed), Var_Xavier - 2p|x|^2/((p+1)(p+d)) plus its limit (corrected: 0); claim "
            "kernels.monte_carlo_table_1 confirms by simulation.",
            _table_1_ntk_scaling,
        ),
    )  # fmt: skip


def errata() -> list[Erratum]:
    """Disagreements with seed 002 (Sections 2.1, 2.3, Exercise 1) found here."""
    return list(_errata())


MODEL = Model(
    name="kernels",
    seed=SEED,
    title="Seed 002: ReLU kernels K_GP, K_RF, K_NTK, K_0 in closed form",
    claims=claims,
    errata=errata,
)
