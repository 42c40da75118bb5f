"""Seed 004 (Zhou et al., "Empirical phase diagram for three-layer neural networks with
infinite width"), Sections 3-4: the normalised gradient flow and the phase coordinates.

The network (1) is ``f(x) = (1/alpha) a^T sigma(W2 sigma(W1 x))`` with ``a ~ N(0, beta_3^2)``,
``W2 ~ N(0, beta_2^2)``, ``W1 ~ N(0, beta_1^2)``, trained by the gradient flow (4)-(5) of
the empirical risk (3).  The rescaling (6) ``a = beta_3 abar``, ``W2 = beta_2 W2bar``,
``W1 = beta_1 W1bar`` and the time change ``tbar = (alpha kappa_1 kappa_2 kappa_3)^(-2/3) t``
of eq. (8) turn it into the normalised flow (7) with

    kappa_1 = beta_3/beta_2,  kappa_2 = beta_3/beta_1,  kappa_3 = beta_1 beta_2 beta_3/alpha,

using only the positive homogeneity of ReLU, ``sigma(c z) = c sigma(z)`` and
``sigma'(c z) = sigma'(z)`` for ``c > 0``.  The time factor simplifies to ``beta_3^-2``.
The phase coordinates (9) are ``gamma_i = lim_{m->oo} -log(kappa_i)/log(m)`` with
``m_1 = m_2 = m`` (Assumption 3.1) and ``d`` fixed; Table 1 lists them for the NTK, LeCun,
He and Xavier initialisations.

The regimes (linear / critical / condensed) of Section 5 are defined by the sign of the
empirical slope ``S_W = lim log RD(W)/log m`` (eqs. (10)-(11)); their boundaries in the
``(gamma_2, gamma_3)`` plane (Figures 1, 5, 6) are only measured and conjectured (dashed
lines), never stated in closed form, so this module implements only the slope criterion
(:func:`regime_from_slope`) and the exact measures the criterion and Section 5.4 read:
``RD`` (10) (:func:`relative_distance`), ``D`` (2) (:func:`cosine_similarity`) and the
condensation ``zeta`` (:func:`condensation`), each unchanged by the rescaling (6).

Biases: the first-layer bias folds into ``W1`` exactly (claim
``three_layer.bias_first_layer``); the second-layer bias folded as Section 3 says does not
give (7) (erratum "Section 3 (bias b^[2]) with (6)-(7)": the normalised hidden layer is
extended by ``1/beta_1``, not 1).  :func:`power_law_scheme` is the power-law
initialisation at a phase point, ``alpha = m^s``; Table 2's rows are that family.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import sympy as sp
from sympy import stats

from solvable._core import numbers as nb
from solvable._core.activations import Z, activation, derivative, elementwise
from solvable._core.arrays import ArrayArgs
from solvable._core.backends import torch_module
from solvable._core.claims import Erratum, Theorem, Verdict, decide, prove_nonzero, prove_zero
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable._core.model import Model, System
from solvable._core.numbers import Number
from solvable.models.linearisation import check_flag, checked_callable

__all__ = [
    "ALPHA",
    "B1",
    "B2",
    "B3",
    "BLOCKS",
    "INITIALISATIONS",
    "M1",
    "M2",
    "MODEL",
    "PAPER_POINTS",
    "SYSTEM",
    "TABLE_2",
    "D",
    "InitScheme",
    "M",
    "Setup",
    "State",
    "ThreeLayerSystem",
    "claims",
    "condensation",
    "cosine_similarity",
    "errata",
    "exponent",
    "format_table_1",
    "gamma_coordinates",
    "gradient_flow_residuals",
    "hidden",
    "homogeneity",
    "kappas",
    "network_output",
    "power_law_scheme",
    "regime_from_slope",
    "relative_distance",
    "relu_rescaling_residuals",
    "rescaling_residuals",
    "risk",
    "sigma",
    "sigma_prime",
    "table_1",
    "time_factor",
]

SEED = "004_9b376d17acb97b57.txt"

# width, widths of the two hidden layers (Table 1 writes m_1, m_2) and input dimension
M, M1, M2, D = sp.symbols("m m_1 m_2 d", positive=True)
_NAMED = {"m": M, "m_1": M1, "m1": M1, "m_2": M2, "m2": M2, "d": D}

# hyper-parameters as positive symbols (alpha, beta_i > 0 in (1), (6))
ALPHA, B1, B2, B3 = sp.symbols("alpha beta_1 beta_2 beta_3", positive=True)

MAX_SIZE = 4  # largest m, d, n for the explicit symbolic proofs (cost grows like m^4 n)


# ---------------------------------------------------------------------------
# input validation
# ---------------------------------------------------------------------------
def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _scale(name: str, value: Any, *, free: bool = False) -> sp.Expr:
    """A positive scale (alpha or beta_i): a number or a sympy expression in m, m_1, m_2, d
    (with ``free``, also in other symbols declared ``positive=True``, and in real symbols
    where the expression is manifestly positive, e.g. the exponent ``s`` of ``m**s``).

    Floats are converted to the decimal they print as (``sp.nsimplify(...,
    rational=True)``, e.g. 0.1 -> 1/10); symbols are matched by name to ``m, m_1, m_2, d``.
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number or a sympy expression, got bool {value!r}")
    if isinstance(value, float):
        expr: sp.Expr = sp.nsimplify(value, rational=True)
    elif isinstance(value, (Fraction, numbers.Rational)):
        expr = sp.Rational(value.numerator, value.denominator)
    elif isinstance(value, sp.Basic):
        expr = value
    else:
        raise TypeError(
            f"{name} must be int, float, Fraction or a sympy expression in m, m_1, m_2, d, "
            f"got {type(value).__name__} {_describe(value)}"
        )
    if not isinstance(expr, sp.Expr):
        raise TypeError(f"{name} must be a sympy expression, got {_describe(value)}")
    unknown = sorted(
        s.name for s in expr.free_symbols
        if s.name not in _NAMED
        and not (free and (s.is_positive or (s.is_real and expr.is_positive)))
    )  # fmt: skip
    if unknown:
        extra = " and positive symbols" if free else ""
        raise ValueError(
            f"{name} may depend only on m, m_1, m_2, d{extra}, got {_describe(value)} "
            f"(not allowed: {unknown})"
        )
    expr = expr.subs({s: _NAMED[s.name] for s in expr.free_symbols if s.name in _NAMED})
    if not expr.is_finite or expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise ValueError(f"{name} must be finite, got {_describe(value)}")
    if expr.is_positive is False or (expr.is_positive is None and expr.is_number):
        raise ValueError(f"{name} must be > 0 (a scale of eq. (1)/(6)), got {_describe(value)}")
    return expr


def _size(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int in [1, {MAX_SIZE}], got {_describe(value)}")
    if not 1 <= int(value) <= MAX_SIZE:
        raise ValueError(f"{name} must be in [1, {MAX_SIZE}], got {value!r}")
    return int(value)


# ---------------------------------------------------------------------------
# eq. (8)-(9): kappa, time factor, exponents
# ---------------------------------------------------------------------------
def kappas(alpha: Any, beta_1: Any, beta_2: Any, beta_3: Any) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(kappa_1, kappa_2, kappa_3) = (beta_3/beta_2, beta_3/beta_1, beta_1 beta_2 beta_3/alpha)``,
    eq. (8) (derived in :func:`rescaling_residuals`)."""
    a, b1, b2, b3 = (
        _scale(n, v, free=True) for n, v in zip(("alpha", "beta_1", "beta_2", "beta_3"),
                                     (alpha, beta_1, beta_2, beta_3), strict=True)
    )  # fmt: skip
    return b3 / b2, b3 / b1, b1 * b2 * b3 / a


def time_factor(alpha: Any, beta_1: Any, beta_2: Any, beta_3: Any) -> sp.Expr:
    """``dtbar/dt = (alpha kappa_1 kappa_2 kappa_3)^(-2/3)``, eq. (8); equals ``beta_3^-2``
    because ``alpha kappa_1 kappa_2 kappa_3 = beta_3^3``."""
    k1, k2, k3 = kappas(alpha, beta_1, beta_2, beta_3)
    a = _scale("alpha", alpha, free=True)
    return sp.powsimp((a * k1 * k2 * k3) ** sp.Rational(-2, 3), force=True)


def exponent(kappa: Any) -> sp.Expr:
    """``lim_{m->oo} -log(kappa)/log(m)`` (eq. (9)) with ``m_1 = m_2 = m`` (Assumption 3.1)
    and ``d`` fixed; an exact sympy number (an expression in the exponents' symbols when
    ``kappa`` is ``m`` to a symbolic real power, e.g. ``m**(p - q)`` gives ``q - p``).

    Other symbols declared positive are constants independent of m (e.g. ``B`` of
    Assumption 3.2).  Raises ``ValueError`` when the limit is not a finite real number
    (kappa not of power-law order in m).
    """
    k = _scale("kappa", kappa, free=True).subs({M1: M, M2: M})
    g = sp.limit(-sp.expand_log(sp.log(k), force=True) / sp.log(M), M, sp.oo)
    if (
        not (g.is_finite and g.is_real)
        or g.has(sp.AccumBounds, M, D)
        or not all(s.is_real for s in g.free_symbols)
    ):
        raise ValueError(f"kappa must be of power-law order in m, got {_describe(kappa)}")
    return g


def gamma_coordinates(
    alpha: Any, beta_1: Any, beta_2: Any, beta_3: Any
) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(gamma_1, gamma_2, gamma_3)`` of eq. (9) (``gamma_1`` from the text after (9))."""
    k1, k2, k3 = kappas(alpha, beta_1, beta_2, beta_3)
    return exponent(k1), exponent(k2), exponent(k3)


# ---------------------------------------------------------------------------
# Table 1 (and the scalings of Table 2)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class InitScheme:
    """One row's scalings: ``alpha`` and the standard deviations ``beta_3`` (of ``a``),
    ``beta_2`` (of ``W2``), ``beta_1`` (of ``W1``), as expressions in m_1, m_2, d (or m)."""

    name: str
    alpha: sp.Expr
    beta_3: sp.Expr
    beta_2: sp.Expr
    beta_1: sp.Expr

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty str, got {_describe(self.name)}")
        for field in ("alpha", "beta_3", "beta_2", "beta_1"):
            object.__setattr__(self, field, _scale(field, getattr(self, field)))

    @property
    def kappas(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        return tuple(
            sp.simplify(k) for k in kappas(self.alpha, self.beta_1, self.beta_2, self.beta_3)
        )

    @property
    def gammas(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        return gamma_coordinates(self.alpha, self.beta_1, self.beta_2, self.beta_3)


_r = sp.Rational
INITIALISATIONS: tuple[InitScheme, ...] = (
    # Table 1, columns alpha, a, W2, W1 (the schemes' definitions, Section 3 and refs.)
    InitScheme("NTK", sp.sqrt(M1 * M2), sp.Integer(1), sp.Integer(1), sp.Integer(1)),
    InitScheme("LeCun", sp.Integer(1), sp.sqrt(1 / M2), sp.sqrt(1 / M1), sp.sqrt(1 / D)),
    InitScheme("He", sp.Integer(1), sp.sqrt(2 / M2), sp.sqrt(2 / M1), sp.sqrt(2 / D)),
    InitScheme(
        "Xavier",
        sp.Integer(1),
        sp.sqrt(2 / (M2 + 1)),
        sp.sqrt(2 / (M1 + M2)),
        sp.sqrt(2 / (D + M1)),
    ),
)

TABLE_2: tuple[InitScheme, ...] = (
    # Table 2 (Section 5.3.1): two groups of three scalings sharing (gamma_2, gamma_3)
    InitScheme("No. 1a", M ** _r(-1, 2), M ** _r(-8, 15), M ** _r(-8, 15), M ** _r(-8, 15)),
    InitScheme("No. 1b", sp.Integer(1), M ** _r(-11, 30), M ** _r(-11, 30), M ** _r(-11, 30)),
    InitScheme("No. 1c", M ** _r(1, 2), M ** _r(-1, 5), M ** _r(-1, 5), M ** _r(-1, 5)),
    InitScheme("No. 2a", M ** _r(-3, 10), M ** _r(-7, 6), M ** _r(-7, 6), M ** _r(-7, 15)),
    InitScheme("No. 2b", sp.Integer(1), M ** _r(-16, 15), M ** _r(-16, 15), M ** _r(-11, 30)),
    InitScheme("No. 2c", M ** _r(3, 10), M ** _r(-29, 30), M ** _r(-29, 30), M ** _r(-4, 15)),
)

# The paper's printed cells (Table 1: kappa_2, kappa_3, gamma_2, gamma_3; Table 2: gamma_2,
# gamma_3), data to compare with, never used to compute anything.
_PRINTED_TABLE_1: dict[str, tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]] = {
    "NTK": (sp.Integer(1), sp.sqrt(1 / (M1 * M2)), sp.Integer(0), sp.Integer(1)),
    "LeCun": (sp.sqrt(D / M2), sp.sqrt(1 / (M1 * M2 * D)), _r(1, 2), sp.Integer(1)),
    "He": (sp.sqrt(D / M2), sp.sqrt(8 / (M1 * M2 * D)), _r(1, 2), sp.Integer(1)),
    "Xavier": (
        sp.sqrt((D + M1) / (M2 + 1)),
        sp.sqrt((8 / (M1 + M2)) / ((M2 + 1) * (D + M1))),
        sp.Integer(0),
        _r(3, 2),
    ),
}
_PRINTED_TABLE_2 = {"No. 1": (sp.Integer(0), _r(11, 10)), "No. 2": (_r(7, 10), _r(5, 2))}


def table_1() -> list[dict[str, Any]]:
    """Table 1 recomputed: per initialisation its scalings (inputs) and ``kappa_1..3``
    (eq. (8), in m_1, m_2, d) and ``gamma_1..3`` (eq. (9), m_1 = m_2 = m), sympy values."""
    return [dict(row) for row in _table_1()]


@functools.cache
def _table_1() -> tuple[dict[str, Any], ...]:
    rows = []
    for init in INITIALISATIONS:
        k1, k2, k3 = init.kappas
        g1, g2, g3 = init.gammas
        rows.append({
            "name": init.name, "alpha": init.alpha, "beta_3": init.beta_3,
            "beta_2": init.beta_2, "beta_1": init.beta_1, "kappa_1": k1, "kappa_2": k2,
            "kappa_3": k3, "gamma_1": g1, "gamma_2": g2, "gamma_3": g3,
        })  # fmt: skip
    return tuple(rows)


def format_table_1() -> str:
    """Table 1 as plain text (for ``solvable phases``)."""
    cols = [("name", "name"), ("alpha", "alpha"), ("a: beta_3", "beta_3"),
            ("W2: beta_2", "beta_2"), ("W1: beta_1", "beta_1"), ("kappa_2", "kappa_2"),
            ("kappa_3", "kappa_3"), ("gamma_2", "gamma_2"), ("gamma_3", "gamma_3")]  # fmt: skip
    rows = [[str(r[key]) for _, key in cols] for r in table_1()]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, (h, _) in enumerate(cols)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    head = [
        "Table 1 (seed 004): kappa_i of eq. (8); gamma_i = lim -log(kappa_i)/log(m), "
        "m_1 = m_2 = m, d fixed (eq. (9))",
        line([h for h, _ in cols]),
        line(["-" * w for w in widths]),
    ]
    return "\n".join(head + [line(r) for r in rows])


# ---------------------------------------------------------------------------
# Section 5.3.1: regime of a layer from the slope S_W of eq. (11)
# ---------------------------------------------------------------------------
def regime_from_slope(slope: Any, band: Any = 0) -> Literal["linear", "critical", "condensed"]:
    """Regime of a layer from ``S_W = lim log RD(W)/log m`` (eq. (11)): ``S_W < 0``
    (RD -> 0) linear, ``S_W = 0`` (RD ~ O(1)) critical, ``S_W > 0`` (RD -> oo) condensed
    (Section 5.3.1 and the abstract).  The paper gives no closed-form boundary in the
    (gamma_2, gamma_3) plane, so none is implemented.

    ``band >= 0``: a slope measured at finite widths is read as critical when
    ``|S_W| <= band`` (``band = 0``: the paper's sign criterion; the paper's own three
    parametrisations of one point differ by up to 0.025 in Table 2)."""
    s = _number("slope", slope)
    b = _number("band", band)
    if b < 0:
        raise ValueError(f"band must be >= 0, got {_describe(band)}")
    return "linear" if s < -b else "condensed" if s > b else "critical"


# (gamma_2, gamma_3) -> (regime of W1, regime of W2, where the paper says so): data, the
# points where the text states a regime or prints the slopes (it prints no boundary curves;
# Figure 5's stars and dashed lines are not in the text).  "n/s": not stated.
PAPER_POINTS: dict[tuple[Fraction, Fraction], tuple[str, str, str]] = {
    (Fraction(0), Fraction(11, 10)): (
        "linear", "linear", "Table 2 No.1: S_W1=-0.41, S_W2=-0.93"),
    (Fraction(0), Fraction(3, 2)): (
        "critical", "n/s", "Xavier (Table 1); Fig.2/Sec.5.2: g3=1.5 intermediate"),
    (Fraction(0), Fraction(21, 10)): (
        "condensed", "n/s", "Fig.2: g3=2.0 condensed; Fig.4(c) slope grows"),
    (Fraction(7, 10), Fraction(5, 2)): (
        "linear", "critical", "Table 2 No.2: S_W1=-0.32, S_W2=0.026"),
    (Fraction(1, 2), Fraction(14, 5)): (
        "n/s", "condensed", "Fig.3: g3=2.8 strong condensation of W2"),
}  # fmt: skip


def _number(name: str, value: Any) -> sp.Rational:
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, sp.Number)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} "
                        f"{_describe(value)}")  # fmt: skip
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return sp.nsimplify(value, rational=True)
    v = sp.sympify(value, strict=True)
    if not v.is_finite or not v.is_real:
        raise ValueError(f"{name} must be a finite real number, got {_describe(value)}")
    return v


# ---------------------------------------------------------------------------
# The network (1) and its risk (3): one definition for every backend
# ---------------------------------------------------------------------------
def _hidden(W2: Any, W1: Any, X: Any, relu: Callable[[Any], Any], b2: Any = None,
            b1: Any = None) -> tuple[Any, Any]:  # fmt: skip
    z1 = X @ W1.swapaxes(-1, -2)
    if b1 is not None:
        z1 = z1 + b1[..., None, :]
    h1 = relu(z1)
    z2 = h1 @ W2.swapaxes(-1, -2)
    if b2 is not None:
        z2 = z2 + b2[..., None, :]
    return h1, relu(z2)


def _network_output(a: Any, W2: Any, W1: Any, X: Any, relu: Callable[[Any], Any], alpha: Any,
                    b2: Any = None, b1: Any = None) -> Any:  # fmt: skip
    return (_hidden(W2, W1, X, relu, b2, b1)[1] * a[..., None, :]).sum(-1) / alpha


def _risk(a: Any, W2: Any, W1: Any, X: Any, y: Any, relu: Callable[[Any], Any], alpha: Any,
          b2: Any = None, b1: Any = None) -> Any:  # fmt: skip
    # the public network_output (checked again): risk is defined through it, one definition
    # (a test replaces it and expects the flow of risk to change)
    f = network_output(a, W2, W1, X, relu, alpha, b2, b1)
    return ((f - y) ** 2).sum(-1) / (2 * X.shape[-2])


_ABSENT = object()  # an argument the function does not take


def _args(fn: str, W2: Any, W1: Any, X: Any, relu: Any, b2: Any, b1: Any, a: Any = _ABSENT,
          alpha: Any = _ABSENT, y: Any = _ABSENT) -> tuple[Any, ...]:  # fmt: skip
    """The checked arguments of the network (1) (``TypeError`` / ``ValueError`` naming each;
    shapes as in :func:`hidden`; ``a`` (..., m); ``alpha`` a number or an array broadcasting
    with the outputs (..., n); ``y`` (..., n))."""
    v = ArrayArgs(fn, torch=True)
    W2, W1 = v.array("W2", W2, min_ndim=2), v.array("W1", W1, min_ndim=2)
    X = v.array("X", X, ndim=2)
    v.same("the input dimension d (columns of W1 and X)", ("W1", W1.shape[-1]), ("X", X.shape[1]))
    widths = [("W1", W1.shape[-2]), ("W2 (rows)", W2.shape[-2]), ("W2 (columns)", W2.shape[-1])]
    batches = [("W1", W1.shape[:-2]), ("W2", W2.shape[:-2])]
    out = {}
    for name, value in (("b2", b2), ("b1", b1), ("a", a)):
        if (value is None and name != "a") or value is _ABSENT:
            out[name] = None if value is None else value
            continue
        out[name] = v.array(name, value, min_ndim=1)
        widths.append((name, out[name].shape[-1]))
        batches.append((name, out[name].shape[:-1]))
    v.same("the width m (of W1, W2, a, b1, b2)", *widths)
    v.broadcast(*batches)
    outputs = (*np.broadcast_shapes(*(tuple(s) for _, s in batches)), X.shape[0])
    if alpha is not _ABSENT:
        alpha = v.array("alpha", alpha)
        if "alpha" not in v.tensors and np.any(np.asarray(alpha, dtype=object) == 0):
            raise ValueError(f"alpha must not be 0 (eq. (1) divides by it), got {_describe(alpha)}")
        v.broadcast(
            ("the outputs (..., n)", outputs), ("alpha", tuple(getattr(alpha, "shape", ())))
        )
    if y is not _ABSENT:
        y = v.array("y", y, min_ndim=1)
        v.same("the number of data points n (rows of X, last axis of y)",
               ("X", X.shape[0]), ("y", y.shape[-1]))  # fmt: skip
        v.broadcast(("the outputs (..., n)", outputs), ("y", y.shape))
    relu = checked_callable("relu", relu, "the pre-activations", "X, W1, b1, W2, b2")
    return v, W2, W1, X, relu, out["b2"], out["b1"], out["a"], alpha, y


def hidden(W2: Any, W1: Any, X: Any, relu: Callable[[Any], Any], b2: Any = None,
           b1: Any = None) -> tuple[Any, Any]:  # fmt: skip
    """The post-activations of the two hidden layers, ``relu(W1 x + b1)`` and
    ``relu(W2 h1 + b2)``, each (..., n, m) for ``X`` (n, d), ``W1`` (..., m, d), ``W2``
    (..., m, m), ``b1``, ``b2`` (..., m); array code for sympy / mpmath object arrays,
    float64 and batched torch tensors (lists are read as arrays; ``relu`` entrywise,
    :func:`solvable._core.activations.elementwise`).  Every argument is checked
    (``TypeError`` / ``ValueError`` naming it), as is the result (float64 range)."""
    v, W2, W1, X, relu, b2, b1, *_ = _args("hidden", W2, W1, X, relu, b2, b1)
    return v(_hidden, W2, W1, X, relu, b2, b1)


def network_output(a: Any, W2: Any, W1: Any, X: Any, relu: Callable[[Any], Any], alpha: Any,
                   b2: Any = None, b1: Any = None) -> Any:  # fmt: skip
    """Eq. (1): ``f(x) = a^T relu(W2 relu(W1 x + b1) + b2) / alpha`` on the rows of ``X``;
    ``a`` (..., m), the rest as :func:`hidden`; gives (..., n).  Checked as there."""
    v, W2, W1, X, relu, b2, b1, a, alpha, _ = _args("network_output", W2, W1, X, relu, b2, b1,
                                                    a, alpha)  # fmt: skip
    return v(_network_output, a, W2, W1, X, relu, alpha, b2, b1)


def risk(a: Any, W2: Any, W1: Any, X: Any, y: Any, relu: Callable[[Any], Any], alpha: Any,
         b2: Any = None, b1: Any = None) -> Any:  # fmt: skip
    """Eq. (3): ``R_S = 1/(2n) sum_i (f(x_i) - y_i)^2``, targets ``y`` (n,) (or (..., n));
    checked as :func:`network_output`."""
    v, W2, W1, X, relu, b2, b1, a, alpha, y = _args("risk", W2, W1, X, relu, b2, b1, a, alpha,
                                                    y)  # fmt: skip
    return v(_risk, a, W2, W1, X, y, relu, alpha, b2, b1)


@dataclass(frozen=True)
class Setup:
    """The three-layer ReLU network (1) on data ``X`` (n, d), targets ``y`` (n,), output
    scale ``alpha > 0``, with biases when ``bias``; every block trains at rate 1 (eq. (4))."""

    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]
    alpha: Number = 1
    bias: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        y = nb.check_vector("y", self.y)
        set_(self, "X", nb.check_rows("X", self.X, len(y), "y"))
        set_(self, "y", y)
        set_(self, "alpha", nb.check_number("alpha", self.alpha, positive=True))
        if not isinstance(self.bias, bool):
            raise TypeError(f"bias must be a bool, got {self.bias!r}")

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])


@dataclass(frozen=True)
class State:
    """The weights (``params``, by block), the outputs ``f`` (n,) and the risk at ``t``,
    measured from the weights."""

    t: Any
    params: dict[str, np.ndarray]
    f: np.ndarray
    risk: Any


def _blocks(params: Mapping[str, Any]) -> tuple[Any, ...]:
    return (params["a"], params["W2"], params["W1"], params.get("b2"), params.get("b1"))


@functools.cache
def _flow(n: int, d: int, m: int, bias: bool, activation: str = "relu") -> GradientFlow:
    """The sympy gradient flow (4) of :func:`risk` (rate 1): what :func:`numerics.simulate`
    integrates (ReLU) and what the symbolic claims differentiate (``activation="generic"``:
    the undefined :class:`sigma`, whose derivative is :class:`sigma_prime`)."""
    X = symbol_array("X", (n, d), real=True)
    y = symbol_array("y", (n,), real=True)
    alpha = sp.Symbol("alpha", positive=True)
    relu = _sympy_activation(activation)
    blocks: dict[str, Any] = {"a": ((m,), 1), "W2": ((m, m), 1), "W1": ((m, d), 1)}
    if bias:
        blocks.update({"b2": ((m,), 1), "b1": ((m,), 1)})

    def objective(a: Any, W2: Any, W1: Any, b2: Any = None, b1: Any = None) -> Any:
        return risk(a, W2, W1, X, y, relu, alpha, b2, b1)

    return gradient_flow(objective, blocks, (alpha, *X.ravel(), *y))


class ThreeLayerSystem(System):
    """Eqs. (1), (3), (4) for :func:`numerics.simulate`: ``out0 = a`` (m,), ``in0 = (W2,
    W1)`` ((m, m), (m, d)), or ``(W2, W1, b2, b1)`` with biases; ReLU (not polynomial)."""

    setup_type = Setup
    blocks = ("a", "W2", "W1", "b2", "b1")

    def polynomial(self, setup: Setup) -> bool:
        return False

    def example(self) -> tuple[Setup, Any, Any]:
        setup = Setup((("-1",), ("-0.5",), ("0.5",), ("1",)), ("0.2", "0.6", "0.3", "0.8"))
        W2 = (("0.5", "-0.2"), ("0.3", "0.8"))
        return setup, ("0.7", "-0.4"), (W2, (("0.9",), ("-0.6",)))

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        a0 = nb.check_vector("a0", out0)
        m = len(a0)
        want = 4 if setup.bias else 2
        if not isinstance(in0, (tuple, list)) or len(in0) != want:
            names = "(W2, W1, b2, b1)" if setup.bias else "(W2, W1)"
            raise ValueError(f"in0 must be a tuple {names}, got {nb.describe(in0)}")
        out = {
            "a": np.array(a0, dtype=object),
            "W2": np.array(nb.check_matrix("W2", in0[0], (m, m)), dtype=object),
            "W1": np.array(nb.check_matrix("W1", in0[1], (m, setup.d)), dtype=object),
        }
        if setup.bias:
            out["b2"] = np.array(nb.check_vector("b2", in0[2], m), dtype=object)
            out["b1"] = np.array(nb.check_vector("b1", in0[3], m), dtype=object)
        return out

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return _flow(setup.n, setup.d, shapes["a"][0], setup.bias)

    def flow_parameters(self, setup: Setup, convert: Callable[[Any], Any]) -> list[Any]:
        X = [convert(v) for row in setup.X for v in row]
        return [convert(setup.alpha), *X, *(convert(v) for v in setup.y)]

    def rates(self, setup: Setup) -> dict[str, float]:
        names = self.blocks if setup.bias else self.blocks[:3]
        return {b: 1.0 for b in names}

    def data(self, setup: Setup, backend: str, like: Any = None) -> dict[str, Any]:
        X, y = np.array(setup.X, dtype=float), np.array(setup.y, dtype=float)
        if backend == "torch":
            torch = torch_module()
            X = torch.as_tensor(X, dtype=like.dtype, device=like.device)
            y = torch.as_tensor(y, dtype=like.dtype, device=like.device)
        return {"X": X, "y": y, "relu": elementwise("relu", backend), "alpha": float(setup.alpha)}

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        a, W2, W1, b2, b1 = _blocks(params)
        return risk(a, W2, W1, data["X"], data["y"], data["relu"], data["alpha"], b2, b1)

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        conv, dt = nb.converter(dps), nb.dtype(dps)
        with nb.Precision(dps):
            X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
            y = np.array([conv(v) for v in setup.y], dtype=dt)
            p = {k: np.array(v, dtype=dt) for k, v in params.items()}
            relu = elementwise("relu", "numpy" if dps is None else "mpmath")
            alpha = conv(setup.alpha)
            a, W2, W1, b2, b1 = _blocks(p)
            return State(
                t=t,
                params=p,
                f=network_output(a, W2, W1, X, relu, alpha, b2, b1),
                risk=risk(a, W2, W1, X, y, relu, alpha, b2, b1),
            )


SYSTEM = ThreeLayerSystem()


# ---------------------------------------------------------------------------
# eqs. (1)-(7): the gradient flow and its rescaling, explicit sizes
# ---------------------------------------------------------------------------
class sigma_prime(sp.Function):  # noqa: N801 (a sympy function, named as in the paper)
    """sigma' as an undefined function (ReLU: the Heaviside step)."""


class sigma(sp.Function):  # noqa: N801
    """An undefined activation whose derivative is :class:`sigma_prime`."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return sigma_prime(self.args[0])


def _split_positive(arg: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``arg = c * rest`` with ``c`` the product of the manifestly positive factors."""
    c, rest = sp.Integer(1), sp.Integer(1)
    # together: a positive denominator of some terms only (b/beta_1 + W h) is a factor too
    for f in sp.Mul.make_args(sp.factor_terms(sp.together(arg))):
        if f.is_positive:
            c *= f
        else:
            rest *= f
    return c, rest


def homogeneity(expr: sp.Expr) -> sp.Expr:
    """Apply ``sigma(c z) = c sigma(z)`` and ``sigma'(c z) = sigma'(z)`` (``c > 0``), the
    positive homogeneity of ReLU used between (6) and (7), bottom-up."""
    if not isinstance(expr, sp.Basic):
        raise TypeError(f"expr must be a sympy expression, got {type(expr).__name__} "
                        f"{_describe(expr)}")  # fmt: skip
    return _homogeneity(expr)


def _homogeneity(expr: sp.Basic) -> sp.Basic:
    if expr.is_Atom:
        return expr
    args = tuple(_homogeneity(a) for a in expr.args)
    if args != expr.args:
        expr = expr.func(*args)
    if isinstance(expr, sigma):
        c, rest = _split_positive(expr.args[0])
        return c * sigma(rest) if c != 1 else expr
    if isinstance(expr, sigma_prime):
        c, rest = _split_positive(expr.args[0])
        return sigma_prime(rest) if c != 1 else expr
    return expr


@dataclass(frozen=True)
class _Params:
    a: sp.Matrix  # m x 1
    W2: sp.Matrix  # m x m
    W1: sp.Matrix  # m x d
    X: list[sp.Matrix]  # n inputs, d x 1
    y: list[sp.Symbol]


def _params(m: int, d: int, n: int, bar: bool) -> _Params:
    s = "bar" if bar else ""
    a = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"a{s}_{i}", real=True))
    W2 = sp.Matrix(m, m, lambda i, j: sp.Symbol(f"W2{s}_{i}{j}", real=True))
    W1 = sp.Matrix(m, d, lambda i, j: sp.Symbol(f"W1{s}_{i}{j}", real=True))
    X = [sp.Matrix(d, 1, lambda j, _, i=i: sp.Symbol(f"x_{i}{j}", real=True)) for i in range(n)]
    y = [sp.Symbol(f"y_{i}", real=True) for i in range(n)]
    return _Params(a, W2, W1, X, y)


def _vec(f: Callable[[sp.Expr], sp.Expr], v: sp.Matrix) -> sp.Matrix:
    return v.applyfunc(f)


def _sympy_activation(activation: Any) -> Callable[[Any], Any]:
    """An activation entrywise on sympy object arrays: ``"relu"`` (the package's
    ``max(0, z)``), ``"generic"`` (:class:`sigma`) or a one-argument sympy callable."""
    if isinstance(activation, str) and activation == "generic":
        activation = sigma
    if isinstance(activation, str):
        return elementwise(activation, "sympy")
    return np.vectorize(activation, otypes=[object])


def _arrays(p: _Params) -> tuple[np.ndarray, ...]:
    """``(a, W2, W1, X, y)`` of ``p`` as numpy object arrays, for the array code of
    :func:`network_output` and :func:`risk`."""
    m, d = p.W1.shape
    return (
        np.array(list(p.a), dtype=object),
        np.array(list(p.W2), dtype=object).reshape(m, m),
        np.array(list(p.W1), dtype=object).reshape(m, d),
        np.array([v for x in p.X for v in x], dtype=object).reshape(len(p.X), d),
        np.array(list(p.y), dtype=object),
    )


def _network(p: _Params, c: sp.Expr, x: sp.Matrix, act: Any = "generic") -> sp.Expr:
    """The package's :func:`network_output` on ``x``: ``c a^T act(W2 act(W1 x))``, eq. (1)
    with ``c = 1/alpha``, eq. (7)'s network with ``c = kappa_3``."""
    a, W2, W1, _, _ = _arrays(p)
    X = np.array([list(x)], dtype=object)
    return sp.sympify(network_output(a, W2, W1, X, _sympy_activation(act), 1 / c)[0], strict=True)


def _gradient_field(p: _Params, alpha: sp.Expr, act: str = "generic") -> tuple[sp.Matrix, ...]:
    """``-grad R_S`` (eqs. (3)-(4)) at the weights and data of ``p``: the right-hand side of
    :func:`_flow` (the sympy gradient of the package's :func:`risk`: the flow that
    :func:`numerics.simulate` integrates), blocks ``a``, ``W2``, ``W1`` as matrices shaped
    like those of ``p``.  Biases folded in as in :func:`_printed_hidden` (``W2`` with one
    more column than rows: ``[W2 | b2]``, ``[W1 | b1]``, inputs with a trailing 1) are taken
    apart into the package's blocks ``b2``, ``b1`` and put back."""
    m = p.W2.rows
    bias = p.W2.cols == m + 1
    d = p.W1.cols - bias
    blocks = {"a": p.a, "W2": p.W2[:, :m], "W1": p.W1[:, :d]}
    if bias:
        blocks.update(b2=p.W2[:, m], b1=p.W1[:, d])
    X = [list(x)[:d] for x in p.X]
    flow = _flow(len(p.X), d, m, bias, act)
    sub = {
        sym: v
        for name, blk in blocks.items()
        for sym, v in zip(flow.block(name).ravel(), list(blk), strict=True)
    }
    data = (alpha, *(v for row in X for v in row), *p.y)
    sub.update(zip(flow.params, data, strict=True))  # fmt: skip
    rhs = flow.unpack(flow.rhs)
    out = {name: sp.Matrix(*blk.shape, [e.xreplace(sub) for e in rhs[name].ravel()])
           for name, blk in blocks.items()}  # fmt: skip
    if bias:
        return out["a"], out["W2"].row_join(out["b2"]), out["W1"].row_join(out["b1"])
    return out["a"], out["W2"], out["W1"]


def _printed_hidden(
    p: _Params, x: sp.Matrix, act: Any, appended: sp.Expr = sp.S.One
) -> tuple[sp.Matrix, ...]:
    """``z1 = W1 x``, ``h1 = act(z1)``, ``z2 = W2 h1``, as printed in (5) and (7).  With the
    biases folded into the weights (Section 3: the input weight of a neuron includes its
    bias), ``W2`` has one more column than rows and ``h1`` carries the constant
    ``appended`` (Section 3: 1; see :func:`rescaling_residuals` for the normalised model's
    ``1/beta_1``) and ``x`` its trailing 1, supplied by the caller."""
    z1 = p.W1 * x
    h1 = _vec(act, z1)
    if p.W2.cols == p.W2.rows + 1:
        h1 = h1.col_join(sp.Matrix([[appended]]))
    return z1, h1, p.W2 * h1


def _printed_network(
    p: _Params, c: sp.Expr, x: sp.Matrix, act: Any, appended: sp.Expr = sp.S.One
) -> sp.Expr:
    """Eq. (1) as printed inside (5) and (7): ``c a^T act(W2 act(W1 x))`` (the paper's form,
    data for :func:`_field`)."""
    return c * (p.a.T * _vec(act, _printed_hidden(p, x, act, appended)[2]))[0, 0]


def _field(
    p: _Params, c: sp.Expr, act=sigma, dact=sigma_prime, appended: sp.Expr = sp.S.One
) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    """The right-hand sides of (5) (c = 1/alpha) or the bracket of (7) (c = kappa_3) as
    printed, the paper's form (data): ``-(1/n) sum_i c (...) e_i`` for a, W2, W1, with
    ``e_i = c a^T act(...) - y_i`` (biases folded in: see :func:`_printed_hidden`)."""
    n, m = len(p.X), p.W2.rows
    da = sp.zeros(*p.a.shape)
    dW2 = sp.zeros(*p.W2.shape)
    dW1 = sp.zeros(*p.W1.shape)
    for x, yi in zip(p.X, p.y, strict=True):
        z1, h1, z2 = _printed_hidden(p, x, act, appended)
        e = _printed_network(p, c, x, act, appended) - yi
        back2 = p.a.multiply_elementwise(_vec(dact, z2))  # a ⊙ sigma'(z2)
        da += c * _vec(act, z2) * e
        dW2 += c * back2 * h1.T * e
        dW1 += c * (p.W2[:, :m].T * back2).multiply_elementwise(_vec(dact, z1)) * x.T * e
    return -da / n, -dW2 / n, -dW1 / n


def gradient_flow_residuals(
    m: int = 2, d: int = 2, n: int = 2, *, bias: bool = False
) -> list[sp.Expr]:
    """Eq. (5) as printed (:func:`_field`, the paper's form) minus ``-grad R_S`` of the
    package's :func:`risk` (eq. (3), differentiated by sympy in :func:`_flow`, the flow
    that :func:`numerics.simulate` integrates) for every parameter, generic differentiable
    activation; all residuals simplify to 0.  ``bias``: the network with biases, which (5)
    covers with the biases folded into ``W1``, ``W2`` (Section 3)."""
    m, d, n = _size("m", m), _size("d", d), _size("n", n)
    if not isinstance(bias, bool):
        raise TypeError(f"bias must be a bool, got {bias!r}")
    p = _params(m, d, n, bar=False)
    if bias:  # [W1 | b1], [W2 | b2], inputs (x, 1)
        b1 = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"b1_{i}", real=True))
        b2 = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"b2_{i}", real=True))
        p = _Params(p.a, p.W2.row_join(b2), p.W1.row_join(b1),
                    [x.col_join(sp.Matrix([[1]])) for x in p.X], p.y)  # fmt: skip
    printed = _field(p, 1 / ALPHA)
    package = _gradient_field(p, ALPHA)
    return [sp.expand(pr - pk) for P, K in zip(printed, package, strict=True)
            for pr, pk in zip(P, K, strict=True)]  # fmt: skip


KappaFn = Callable[[Any, Any, Any, Any], tuple[sp.Expr, sp.Expr, sp.Expr]]
TimeFn = Callable[[Any, Any, Any, Any], sp.Expr]


BLOCKS = ("a", "W2", "W1", "f")
"""The parts of the rescaling claim: the three blocks of (7) and the output ``f`` (``e_i``)."""


def _folded_params(m: int, d: int, n: int, bias: str) -> _Params:
    """Normalised weights ``(abar, W2bar, W1bar)`` and data; ``bias`` ``"first"`` folds
    ``b1bar`` into ``W1bar`` (inputs ``(x, 1)``), ``"both"`` also ``b2bar`` into ``W2bar``
    (Section 3)."""
    pb = _params(m, d, n, bar=True)
    if bias == "none":
        return pb
    b1 = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"b1bar_{i}", real=True))
    W1 = pb.W1.row_join(b1)
    X = [x.col_join(sp.Matrix([[1]])) for x in pb.X]
    W2 = pb.W2
    if bias == "both":
        W2 = W2.row_join(sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"b2bar_{i}", real=True)))
    return _Params(pb.a, W2, W1, X, pb.y)


def _normalised_lhs(
    pb: _Params,
    scales: tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr],
    time_fn: TimeFn = time_factor,
    rule: Callable[[sp.Expr], sp.Expr] = lambda e: e,
) -> list[sp.Matrix]:
    """``d thetabar/dtbar = (dt/dtbar) D^-1 (-grad R_S at theta = D thetabar)`` for the
    blocks ``a``, ``W2``, ``W1`` (``D = diag(beta_3, beta_2, beta_1)``, eq. (6); ``-grad
    R_S`` from the package's flow, :func:`_gradient_field`; ``dtbar/dt = time_fn``),
    ``scales = (alpha, beta_1, beta_2, beta_3)``, with ``rule`` applied to every entry."""
    al, b1, b2, b3 = scales
    orig = _Params(b3 * pb.a, b2 * pb.W2, b1 * pb.W1, pb.X, pb.y)
    dt_dtbar = 1 / time_fn(al, b1, b2, b3)
    return [
        (dt_dtbar / scale) * block.applyfunc(rule)
        for block, scale in zip(_gradient_field(orig, al), (b3, b2, b1), strict=True)
    ]


def rescaling_residuals(
    m: int = 2,
    d: int = 2,
    n: int = 2,
    *,
    kappa_fn: KappaFn = kappas,
    time_fn: TimeFn = time_factor,
    homogeneous: bool = True,
    bias: Literal["none", "first", "both"] = "none",
    appended: Any = None,
    block: Literal["a", "W2", "W1", "f"] | None = None,
) -> list[sp.Expr]:
    """Residuals of the claim "(6) + (8) map (5) to (7)", one per component of the vector
    field plus ``f(theta) - f_bar(theta_bar)``.

    The left side is ``d thetabar/dtbar = (dt/dtbar) D^-1 (rhs of (5) at theta = D thetabar)``
    with ``D = diag(beta_3, beta_2, beta_1)`` and ``dtbar/dt = time_fn(...)``; the right side
    is (7) with the kappas of ``kappa_fn`` (e_i inside the sum).  ``homogeneous`` applies
    ReLU's positive homogeneity; ``kappa_fn``/``time_fn`` exist to test mutations.

    Parameters
    ----------
    m, d, n : int
        Width, input dimension and number of samples, each in ``[1, MAX_SIZE]``.
    kappa_fn, time_fn : callable
        ``(alpha, beta_1, beta_2, beta_3) -> (kappa_1, kappa_2, kappa_3)`` and
        ``-> dtbar/dt`` (eq. (8) by default).
    homogeneous : bool
        Apply ``sigma(cz) = c sigma(z)``, ``sigma'(cz) = sigma'(z)`` (``c > 0``).
    bias : {"none", "first", "both"}
        Fold ``b1`` into ``W1`` (inputs ``(x, 1)``), and with ``"both"`` also ``b2`` into
        ``W2`` (``sigma(W1 x)`` extended by a constant), as Section 3 says; the folded
        columns are normalised with their weight (``b1bar = b1/beta_1``,
        ``b2bar = b2/beta_2``, eq. (6)).
    appended : number or sympy expression, optional
        With ``bias="both"``: the constant that extends ``sigma(W1bar x)`` in the normalised
        model (7).  Default ``1/beta_1``, the value that makes the residuals vanish;
        Section 3's ``1`` leaves them non-zero (erratum "Section 3 (bias b^[2]) with (6)-(7)").
    block : {"a", "W2", "W1", "f"}, optional
        Only the residuals of that block of (7), or of the output (``e_i``).

    Returns
    -------
    list of sympy.Expr
        Expanded residuals; all simplify to 0 when the claim holds.
    """
    m, d, n = _size("m", m), _size("d", d), _size("n", n)
    homogeneous = check_flag("homogeneous", homogeneous)
    kappa_fn = _hook("kappa_fn", kappa_fn, 3)
    time_fn = _hook("time_fn", time_fn, None)
    if bias not in ("none", "first", "both"):
        raise ValueError(f"bias must be 'none', 'first' or 'both', got {_describe(bias)}")
    if block is not None and block not in BLOCKS:
        raise ValueError(f"block must be None or one of {BLOCKS}, got {_describe(block)}")
    if appended is not None and bias != "both":
        raise ValueError(f"appended needs bias='both', got bias={bias!r}")
    extra = 1 / B1 if appended is None else _scale("appended", appended, free=True)
    pb = _folded_params(m, d, n, bias)
    k1, k2, k3 = kappa_fn(ALPHA, B1, B2, B3)
    rule = homogeneity if homogeneous else (lambda e: e)

    # d thetabar/dtbar from the package's flow (gradient of risk (3)) at theta = D thetabar
    lhs = _normalised_lhs(pb, (ALPHA, B1, B2, B3), time_fn, rule)
    ga, g2, g1 = _field(pb, k3, appended=extra)
    # eq. (7), the paper's form (the rule acts only where a positive factor sits inside
    # sigma: the appended constant 1/beta_1 of the second layer's folded bias)
    rhs = [blk.applyfunc(rule) for blk in (ga, k1**2 * g2, k2**2 * g1)]
    res = {
        name: [sp.expand(left - right) for left, right in zip(L, R, strict=True)]
        for name, L, R in zip(BLOCKS[:3], lhs, rhs, strict=True)
    }
    orig = _Params(B3 * pb.a, B2 * pb.W2, B1 * pb.W1, pb.X, pb.y)
    if bias == "none":  # the package's network_output (1) against (7)'s kappa_3-network
        res["f"] = [rule(_network(orig, 1 / ALPHA, x)) - _network(pb, k3, x) for x in pb.X]
    else:  # biases folded (Section 3): (1) with the constant 1, (7) with ``extra``
        res["f"] = [
            sp.expand(rule(_printed_network(orig, 1 / ALPHA, x, sigma))
                      - rule(_printed_network(pb, k3, x, sigma, extra)))
            for x in pb.X
        ]  # fmt: skip
    return res[block] if block else [r for name in BLOCKS for r in res[name]]


def _hook(name: str, fn: Any, size: int | None) -> Callable[..., Any]:
    """A function of ``(alpha, beta_1, beta_2, beta_3)`` returning ``size`` sympy expressions
    (one if ``None``), checked: ``TypeError`` naming ``name`` otherwise."""
    if not callable(fn):
        raise TypeError(f"{name} must be a callable (alpha, beta_1, beta_2, beta_3) -> ..., got "
                        f"{type(fn).__name__} {_describe(fn)}")  # fmt: skip

    def call(*args: Any) -> Any:
        out = fn(*args)
        parts = (out,) if size is None else out
        if (
            size is not None and (not isinstance(out, (tuple, list)) or len(out) != size)
        ) or not all(isinstance(e, sp.Expr) for e in parts):
            want = "a sympy expression" if size is None else f"{size} sympy expressions"
            raise TypeError(f"{name} must return {want}, got {_describe(out)}")
        return out

    return call


def _rescaling_by_block(m: int, d: int, n: int) -> dict[str, list[sp.Expr]]:
    """:func:`rescaling_residuals` (defaults) split by block, computed once."""
    flat = rescaling_residuals(m, d, n)
    sizes = {"a": m, "W2": m * m, "W1": m * d, "f": n}
    out, start = {}, 0
    for name in BLOCKS:
        out[name] = flat[start : start + sizes[name]]
        start += sizes[name]
    return out


def relu_rescaling_residuals(
    a_bar: Sequence[Any],
    W2_bar: Sequence[Sequence[Any]],
    W1_bar: Sequence[Sequence[Any]],
    X: Sequence[Sequence[Any]],
    y: Sequence[Any],
    alpha: Any,
    betas: Sequence[Any],
) -> list[sp.Expr]:
    """The same residuals at one exact rational point with the true ReLU
    (``max(0, z)``, ``sigma' = Heaviside``); every pre-activation must be non-zero
    (``sigma'(0)`` is undefined).  Inputs: rationals (floats are converted exactly)."""
    ab = sp.Matrix(_rationals("a_bar", a_bar))
    m = ab.rows
    W2b, W1b = (
        sp.Matrix(_rational_rows("W2_bar", W2_bar)),
        sp.Matrix(_rational_rows("W1_bar", W1_bar)),
    )
    Xs = [sp.Matrix(row) for row in _rational_rows("X", X)]
    ys = _rationals("y", y)
    if W2b.shape != (m, m) or W1b.rows != m or any(x.rows != W1b.cols for x in Xs):
        raise ValueError(
            f"shapes must be a_bar (m,), W2_bar (m, m), W1_bar (m, d), X (n, d); got a_bar "
            f"({m},), W2_bar {W2b.shape}, W1_bar {W1b.shape}, X rows of length "
            f"{[x.rows for x in Xs]}"
        )
    if len(ys) != len(Xs):
        raise ValueError(f"y must have one entry per row of X, got {len(ys)}, {len(Xs)}")
    al = _scale("alpha", alpha)
    if isinstance(betas, (str, bytes)) or not isinstance(betas, (Sequence, np.ndarray)):
        raise TypeError(f"betas must be a sequence (beta_1, beta_2, beta_3), got "
                        f"{type(betas).__name__} {_describe(betas)}")  # fmt: skip
    if len(betas) != 3:
        raise ValueError(f"betas must be (beta_1, beta_2, beta_3), got {_describe(betas)}")
    b1, b2, b3 = (_scale(f"betas[{i}] (beta_{i + 1})", b) for i, b in enumerate(betas))
    if not all(v.is_Rational for v in (al, b1, b2, b3)):
        raise ValueError("alpha and betas must be numbers here (not expressions in m)")

    def relu(z: sp.Expr) -> sp.Expr:
        return sp.Max(0, z)

    def step(z: sp.Expr) -> sp.Expr:
        if z == 0:
            raise ValueError(
                "a pre-activation is exactly 0 (of W1_bar x or W2_bar sigma(W1_bar x), from "
                "W1_bar, W2_bar and X): sigma'(0) is undefined"
            )
        return sp.Heaviside(z)

    pb = _Params(ab, W2b, W1b, Xs, ys)
    orig = _Params(b3 * ab, b2 * W2b, b1 * W1b, Xs, ys)
    k1, k2, k3 = kappas(al, b1, b2, b3)
    dt_dtbar = 1 / time_factor(al, b1, b2, b3)
    ga, g2, g1 = _field(pb, k3, relu, step)  # (7) as printed; refuses a zero pre-activation
    # the package's ReLU flow (gradient of risk (3), sigma' = Heaviside) at theta = D thetabar
    lhs = [(dt_dtbar / s) * blk for blk, s in
           zip(_gradient_field(orig, al, "relu"), (b3, b2, b1), strict=True)]  # fmt: skip
    rhs = [ga, k1**2 * g2, k2**2 * g1]
    return [sp.expand(left - right) for L, R in zip(lhs, rhs, strict=True)
            for left, right in zip(L, R, strict=True)]  # fmt: skip


def _rationals(name: str, value: Any) -> list[sp.Rational]:
    """A non-empty 1-d sequence of exact numbers (:func:`_number`), each named."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of numbers, got {type(value).__name__} "
                        f"{_describe(value)}")  # fmt: skip
    out = [_number(f"{name}[{i}]", v) for i, v in enumerate(list(value))]
    if not out:
        raise ValueError(f"{name} must not be empty")
    return out


def _rational_rows(name: str, value: Any) -> list[list[sp.Rational]]:
    """A non-empty 2-d sequence of exact numbers, rows of one length."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a 2-d sequence of numbers, got {type(value).__name__} "
                        f"{_describe(value)}")  # fmt: skip
    rows = [_rationals(f"{name}[{i}]", r) for i, r in enumerate(list(value))]
    if not rows or len({len(r) for r in rows}) != 1:
        raise ValueError(f"{name} must have n >= 1 rows of one length, got {_describe(value)}")
    return rows


# ---------------------------------------------------------------------------
# Sections 4 and 5.3.1: the power-law initialisations behind the coordinates (9)
# ---------------------------------------------------------------------------
def _power_law_scales(
    gamma_2: sp.Expr, gamma_3: sp.Expr, s: sp.Expr, B: sp.Expr
) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """``(alpha, beta_1, beta_2, beta_3) = (m^s, m^-q, B m^-p, m^-p)`` with
    ``p = (gamma_2 + gamma_3 - s)/3``, ``q = (gamma_3 - s - 2 gamma_2)/3``: the power laws of
    Assumptions 3.1-3.2 at the phase point ``(gamma_2, gamma_3)``, since eq. (9) gives
    ``gamma_2 = p - q`` and ``gamma_3 = 2p + q + s`` (claim ``three_layer.power_law_family``)."""
    p = (gamma_2 + gamma_3 - s) / 3
    q = (gamma_3 - s - 2 * gamma_2) / 3
    return M**s, M**-q, B * M**-p, M**-p


def power_law_scheme(gamma_2: Any, gamma_3: Any, alpha_exponent: Any = 0, B: Any = 1) -> InitScheme:
    """The initialisation with ``alpha = m^s`` (``s = alpha_exponent``), ``beta_3 = m^-p``,
    ``beta_2 = B beta_3`` (Assumption 3.2) and ``beta_1 = m^-q`` whose coordinates (9) are
    ``(gamma_1, gamma_2, gamma_3) = (0, gamma_2, gamma_3)``.

    For each ``s`` it is the only such power law (``p``, ``q`` solve a linear system), and
    Table 2's six rows are exactly this family at ``s`` = their alpha exponent, ``B = 1``
    (claims ``three_layer.power_law_family``, ``three_layer.table_2_family``).

    Parameters
    ----------
    gamma_2, gamma_3 : int, float, Fraction or sympy number
        The phase point (floats are read as the decimal they print as, 1.1 -> 11/10).
    alpha_exponent : int, float, Fraction or sympy number, optional
        ``s`` in ``alpha = m^s``; 0 (``alpha = 1``) by default.
    B : number or sympy expression, optional
        The constant of Assumption 3.2, ``> 0``.

    Returns
    -------
    InitScheme
        Named ``"power law (gamma_2, gamma_3; s)"``.
    """
    g2, g3, s = (_number(n, v) for n, v in (("gamma_2", gamma_2), ("gamma_3", gamma_3),
                                            ("alpha_exponent", alpha_exponent)))  # fmt: skip
    b = _scale("B", B)
    if b.free_symbols:
        raise ValueError(f"B must be a constant independent of m (Assumption 3.2), got {B!r}")
    alpha, b1, b2, b3 = _power_law_scales(g2, g3, s, b)
    return InitScheme(f"power law ({g2}, {g3}; {s})", alpha, b3, b2, b1)


# ---------------------------------------------------------------------------
# eqs. (2), (10) and Section 5.4: the measures, exact
# ---------------------------------------------------------------------------
def _vector(name: str, value: Any) -> list[sp.Expr]:
    if isinstance(value, (str, bytes)) or not isinstance(
        value, (Sequence, sp.MatrixBase, np.ndarray)
    ):
        raise TypeError(f"{name} must be a sequence of numbers, got {_describe(value)}")
    out = [
        sp.nsimplify(v, rational=True) if isinstance(v, float) else nb.to_expr(f"{name}[{i}]", v)
        for i, v in enumerate(list(value))
    ]
    if not out:
        raise ValueError(f"{name} must not be empty, got {_describe(value)}")
    bad = [v for v in out if v.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or v.is_real is False
           or v.is_finite is False]  # fmt: skip
    if bad:
        raise ValueError(f"{name} must hold finite real numbers, got {_describe(value)}")
    return out


def _inner(u: Sequence[sp.Expr], v: Sequence[sp.Expr]) -> sp.Expr:
    return sp.Add(*(a * b for a, b in zip(u, v, strict=True)))


def cosine_similarity(u: Any, v: Any) -> sp.Expr:
    """Eq. (2): ``D(u, v) = u^T v / ((u^T u)^(1/2) (v^T v)^(1/2))``, exact (sympy).

    Parameters
    ----------
    u, v : sequence of numbers or sympy expressions
        Two vectors of the same length (floats are read as the decimal they print as).

    Returns
    -------
    sympy.Expr
        In ``[-1, 1]``; ``1`` (``-1``) for equal (opposite) directions, ``0`` for
        perpendicular vectors (Figure 3's caption; claim ``three_layer.cosine_similarity``).
    """
    a, b = _vector("u", u), _vector("v", v)
    if len(a) != len(b):
        raise ValueError(f"u and v must have the same length, got {len(a)} and {len(b)}")
    for name, w in (("u", a), ("v", b)):
        if all(x.is_zero for x in w):
            raise ValueError(f"{name} must not be the zero vector (D is undefined), got {w}")
    return _inner(a, b) / (sp.sqrt(_inner(a, a)) * sp.sqrt(_inner(b, b)))


def relative_distance(final: Any, initial: Any) -> sp.Expr:
    """Eq. (10): ``RD(W) = ||theta_W* - theta_W(0)||_2 / ||theta_W(0)||_2``, exact (sympy),
    with the weights of a layer (and their biases) flattened into one vector.

    Parameters
    ----------
    final, initial : sequence (or nested sequences) of numbers or sympy expressions
        ``theta_W*`` after training and ``theta_W(0)``, the same shape.

    Returns
    -------
    sympy.Expr
        ``RD >= 0``; unchanged by the rescaling (6) and by the time change (8) (claim
        ``three_layer.rd_invariance``), so ``S_W`` of eq. (11) is the same for the raw and
        the normalised network.
    """
    w1, w0 = _vector("final", _flatten(final)), _vector("initial", _flatten(initial))
    if len(w1) != len(w0):
        raise ValueError(f"final and initial must have the same size, got {len(w1)}, {len(w0)}")
    if all(x.is_zero for x in w0):
        raise ValueError("initial must not be all zeros (RD divides by ||theta_W(0)||)")
    diff = [a - b for a, b in zip(w1, w0, strict=True)]
    return sp.sqrt(_inner(diff, diff)) / sp.sqrt(_inner(w0, w0))


def _flatten(value: Any) -> Any:
    if isinstance(value, sp.MatrixBase):
        return list(value)
    if isinstance(value, np.ndarray):
        return list(value.ravel())
    if (
        isinstance(value, Sequence)
        and not isinstance(value, (str, bytes))
        and value
        and all(
            isinstance(r, (Sequence, np.ndarray)) and not isinstance(r, (str, bytes)) for r in value
        )
    ):
        return [x for r in value for x in r]
    return value


def condensation(W: Any) -> sp.Expr:
    """Section 5.4: ``zeta = (1/(m/2)^2) sum_{i,j=1}^{m/2} |D(u_i, u_j)|`` over the
    ``m/2`` rows of ``W`` with the largest norms (``u_i`` = the row ranked ``i``; the
    caption of Figure 3 selects the half with the largest modulus), exact (sympy).

    ``m/2`` is rounded down for odd ``m`` (the paper's widths are even); rows of equal
    norm keep their order.  ``zeta = 1`` when the selected rows are parallel or opposite
    ("condense in one direction", Figure 8) and ``2/m`` (its least value: the diagonal
    alone) when they are mutually perpendicular (claim ``three_layer.condensation``).

    Parameters
    ----------
    W : nested sequence of numbers, shape (m, k), m >= 2
        The rows are the neurons' input weights (``W^[2]``, with its bias column when the
        network has one).

    Returns
    -------
    sympy.Expr
        ``zeta`` in ``[2/m, 1]``.
    """
    if isinstance(W, (str, bytes)) or not isinstance(W, (Sequence, sp.MatrixBase, np.ndarray)):
        raise TypeError(f"W must be a nested sequence (m, k), got {_describe(W)}")
    rows = [list(W.row(i)) for i in range(W.rows)] if isinstance(W, sp.MatrixBase) else [
        _vector(f"W[{i}]", r) for i, r in enumerate(W)]  # fmt: skip
    if len(rows) < 2 or len({len(r) for r in rows}) != 1:
        raise ValueError(f"W must have m >= 2 rows of equal length, got {_describe(W)}")
    k = len(rows) // 2
    order = sorted(range(len(rows)), key=lambda i: -sp.sqrt(_inner(rows[i], rows[i])))
    top = [rows[i] for i in order[:k]]
    if any(all(x.is_zero for x in u) for u in top):
        raise ValueError(f"W must have at least m/2 = {k} non-zero rows (D of a zero row is "
                         f"undefined), got {_describe(W)}")  # fmt: skip
    return sp.Add(*(sp.Abs(cosine_similarity(u, v)) for u in top for v in top)) / k**2


# ---------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------
def _eq5() -> Verdict:
    v = prove_zero(*gradient_flow_residuals(2, 2, 2), *gradient_flow_residuals(2, 1, 2, bias=True))
    return Verdict(v.status, f"(m, d, n) = (2, 2, 2), and (2, 1, 2) with biases: {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _rescaling() -> Verdict:
    res = [r for size in ((2, 2, 2), (3, 1, 1)) for b in BLOCKS for r in _claim_residuals(*size)[b]]
    v = prove_zero(*res)
    return Verdict(v.status, f"(m, d, n) = (2, 2, 2) and (3, 1, 1): {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _time_scale() -> Verdict:
    # (alpha kappa_1 kappa_2 kappa_3)^(-2/3) = beta_3^-2, and it is forced: the a-equation of
    # (7) has prefactor kappa_3 exactly when dtbar/dt = beta_3^-2 (dabar/dt = -kappa_3/beta_3^2
    # (...), from (5) with (6)); so tbar = t/beta_3^2.
    k1, k2, k3 = kappas(ALPHA, B1, B2, B3)
    return prove_zero(
        time_factor(ALPHA, B1, B2, B3) - B3**-2,
        ALPHA * k1 * k2 * k3 - B3**3,
    )


def _kappa1_assumption() -> Verdict:
    # Assumption 3.2, beta_2 = B beta_3: kappa_1 = 1/B, constant, so gamma_1 = 0
    Bc = sp.Symbol("B", positive=True)
    k1 = kappas(ALPHA, B1, Bc * B3, B3)[0]
    return prove_zero(k1 - 1 / Bc, exponent(k1))


def _printed_cells_rescale(init: InitScheme) -> list[sp.Expr]:
    """A direct computation of the printed kappa_2, kappa_3 of a row of Table 1: with the
    row's scalings in (6), the package's flow (the gradient of risk (3), generic positively
    homogeneous sigma, m = d = n = 1) becomes the printed (7) with the printed cells (and
    kappa_1 = beta_3/beta_2, not printed), under the time change of (8) built from them; at
    the widths ``m_1, m_2, d = 3, 5, 2`` (exact algebraic numbers: the cells themselves are
    compared with eq. (8) for every width by the row's first residuals)."""
    k2p, k3p, _, _ = _PRINTED_TABLE_1[init.name]
    k1 = init.beta_3 / init.beta_2

    def printed(*_: Any) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        return k1, k2p, k3p

    def time(*_: Any) -> sp.Expr:
        return sp.powsimp((init.alpha * k1 * k2p * k3p) ** sp.Rational(-2, 3), force=True)

    row = {ALPHA: init.alpha, B1: init.beta_1, B2: init.beta_2, B3: init.beta_3}
    widths = {M1: 3, M2: 5, D: 2}
    res = rescaling_residuals(1, 1, 1, kappa_fn=printed, time_fn=time)
    return [r.subs(row).subs(widths) for r in res]


def _table_row(name: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        # the reported values (table_1(): kappas of eq. (8), gammas by the limit (9)) against
        # the printed cells, and the printed cells against the rescaled flow (direct)
        init = next(i for i in INITIALISATIONS if i.name == name)
        row = next(r for r in table_1() if r["name"] == name)
        k2p, k3p, g2p, g3p = _PRINTED_TABLE_1[name]
        # kappas are positive: equal iff their squares are (exact rational functions)
        return prove_zero(sp.cancel(row["kappa_2"] ** 2 - k2p**2),
                          sp.cancel(row["kappa_3"] ** 2 - k3p**2),
                          row["gamma_2"] - g2p, row["gamma_3"] - g3p, row["gamma_1"],
                          *_printed_cells_rescale(init))  # fmt: skip

    return check


def _assumption_32() -> Verdict:
    # B = beta_2/beta_3 at m_1 = m_2 = m: 1 for NTK, LeCun, He; sqrt((m + 1)/(2m)) for Xavier,
    # which satisfies Assumption 3.2 only as m -> oo (B -> 1/sqrt(2)); gamma_1 = 0 for all
    res = []
    for init in INITIALISATIONS:
        B = sp.simplify((init.beta_2 / init.beta_3).subs({M1: M, M2: M}))
        expect = sp.sqrt((M + 1) / (2 * M)) if init.name == "Xavier" else 1
        res += [sp.cancel(B**2 - expect**2), init.gammas[0]]
    xav = next(i for i in INITIALISATIONS if i.name == "Xavier")
    B = (xav.beta_2 / xav.beta_3).subs({M1: M, M2: M})
    res.append(sp.limit(B, M, sp.oo) - 1 / sp.sqrt(2))
    return prove_zero(*res)


def _table_2() -> Verdict:
    res = []
    for init in TABLE_2:
        g2p, g3p = _PRINTED_TABLE_2[init.name[:5]]
        _, g2, g3 = init.gammas
        res += [g2 - g2p, g3 - g3p]
    return prove_zero(*res)


def _homogeneity_needed() -> Verdict:
    # generic sigma without the homogeneity rules: the residuals do not vanish; at the
    # concrete smooth non-homogeneous sigma(z) = z + z^2 they are exactly non-zero
    res = rescaling_residuals(1, 1, 1, homogeneous=False)
    z = sp.Symbol("z")
    concrete = {sigma: sp.Lambda(z, z + z**2), sigma_prime: sp.Lambda(z, 1 + 2 * z)}
    point = {ALPHA: 2, B1: 3, B2: 5, B3: 7, sp.Symbol("abar_0", real=True): 1,
             sp.Symbol("W2bar_00", real=True): 1, sp.Symbol("W1bar_00", real=True): 1,
             sp.Symbol("x_00", real=True): 1, sp.Symbol("y_0", real=True): 0}  # fmt: skip
    values = [sp.expand(r.replace(sigma, concrete[sigma])
                           .replace(sigma_prime, concrete[sigma_prime]).subs(point))
              for r in res]  # fmt: skip
    return prove_nonzero(
        values[0],
        what="rescaling (6)+(8) leaves (5) not of the form (7) for sigma(z) = z + z^2: the "
        "a-component residual at m = d = n = 1, alpha = 2, beta = (3, 5, 7), all weights and "
        "x 1, y 0 (exact rational, non-zero)",
    )


def _merge(*verdicts: Verdict) -> Verdict:
    """One verdict from several proofs: proved when all are."""
    bad = [v for v in verdicts if v.status != "proved"]
    res = tuple(r for v in verdicts for r in v.residuals)
    if bad:
        return Verdict("failed", bad[0].detail, residuals=res)
    return Verdict("proved", "; ".join(v.detail for v in verdicts), residuals=res)


def _eq6_standard_normal() -> Verdict:
    # (6): a ~ N(0, beta_3^2) => abar = a/beta_3 ~ N(0, 1), likewise W2, W1 (densities)
    z = sp.Symbol("z", real=True)
    unit = stats.density(stats.Normal("u", 0, 1))(z)
    res = [stats.density(stats.Normal(name, 0, b) / b)(z) - unit
           for name, b in (("a_k", B3), ("W2_kl", B2), ("W1_kl", B1))]  # fmt: skip
    return prove_zero(*res)


def _relu_homogeneity() -> Verdict:
    # the package's ReLU max(0, z) and its derivative Heaviside(z, 0), at z = u, -u, 0
    # (u > 0: every real z), scaled by c > 0: sigma(cz) = c sigma(z), sigma'(cz) = sigma'(z)
    relu, drelu = activation("relu"), derivative("relu")
    c, u = sp.symbols("c u", positive=True)
    res = []
    for z in (u, -u, sp.Integer(0)):
        res += [relu.subs(Z, c * z) - c * relu.subs(Z, z), drelu.subs(Z, c * z) - drelu.subs(Z, z)]
    proved = prove_zero(*res)
    # c > 0 is needed: c = -1, z = 1 gives max(0, -1) - (-1) max(0, 1) = 1
    counter = prove_nonzero(relu.subs(Z, -1) + relu.subs(Z, 1),
                            what="c = -1, z = 1: sigma(cz) - c sigma(z)")  # fmt: skip
    return _merge(proved, counter)


@functools.cache
def _claim_residuals(m: int, d: int, n: int) -> dict[str, tuple[sp.Expr, ...]]:
    """:func:`rescaling_residuals` by block, computed once for the claims that share them
    (``three_layer.rescaling`` and ``three_layer.eq7.*``); tests that break the network
    clear this cache with :func:`_flow`'s."""
    return {b: tuple(r) for b, r in _rescaling_by_block(m, d, n).items()}


def _eq7_block(block: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        v = prove_zero(*_claim_residuals(2, 2, 2)[block], *_claim_residuals(3, 1, 1)[block])
        return Verdict(v.status, f"(m, d, n) = (2, 2, 2), (3, 1, 1): {v.detail}",
                       residuals=v.residuals)  # fmt: skip

    return check


def _bias_first_layer() -> Verdict:
    v = prove_zero(*rescaling_residuals(2, 1, 2, bias="first"))
    return Verdict(v.status, f"(m, d, n) = (2, 1, 2), b1 folded into W1: {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _time_exponent() -> Verdict:
    # the a-block of (7) (prefactor kappa_3) fixes dtbar/dt: solve its residual for T, then
    # (alpha kappa_1 kappa_2 kappa_3)^r = T has the single solution r = -2/3
    T, r = sp.Symbol("T", positive=True), sp.Symbol("r", real=True)
    res = rescaling_residuals(1, 1, 1, time_fn=lambda *_: T, block="a")
    sols_T = sp.solve(res[0], T)
    k1, k2, k3 = kappas(ALPHA, B1, B2, B3)
    sols_r = []
    if len(sols_T) == 1:
        eq = sp.expand_log(sp.log((ALPHA * k1 * k2 * k3) ** r) - sp.log(sols_T[0]), force=True)
        sols_r = sp.solve(eq, r)
    if len(sols_T) != 1 or len(sols_r) != 1:
        return Verdict("failed", f"no unique solution: T in {sols_T}, r in {sols_r}")
    v = prove_zero(sols_T[0] - B3**-2, sols_r[0] + sp.Rational(2, 3))
    return Verdict(v.status, f"dtbar/dt = {sols_T[0]}, exponent r = {sols_r[0]}: {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _log_jacobian(fns: Sequence[sp.Expr]) -> sp.Matrix:
    """``d log f_i / d log p_j`` for ``p = (alpha, beta_1, beta_2, beta_3)``."""
    ps = (ALPHA, B1, B2, B3)
    return sp.Matrix([[sp.simplify(p * sp.diff(f, p) / f) for p in ps] for f in fns])


def _kappas_independent() -> Verdict:
    # the kappas have a rank-3 log-Jacobian whose kernel is (3, 1, 1, 1) (alpha -> c^3
    # alpha, beta_i -> c beta_i), along which the time factor tbar/t moves as c^-2
    J = _log_jacobian(kappas(ALPHA, B1, B2, B3))
    ker = J.nullspace()
    joint = sp.Matrix([3, 1, 1, 1])
    Jt = _log_jacobian([time_factor(ALPHA, B1, B2, B3)])
    res = [sp.Integer(J.rank() - 3), sp.Integer(len(ker) - 1), *(J * joint),
           (Jt * joint)[0] + 2]  # fmt: skip
    if len(ker) == 1:  # the kernel is the joint direction: ker x joint has rank 1
        res.append(sp.Integer(sp.Matrix.hstack(ker[0], joint).rank() - 1))
    return prove_zero(*res)


def _joint_rescaling() -> Verdict:
    # the normalised flow computed from the package's flow (not from (7)) at (c^3 alpha,
    # c beta_i) equals that at (alpha, beta_i), block by block, and so does the output
    c = sp.Symbol("c", positive=True)
    pb = _params(2, 1, 2, bar=True)
    base = (ALPHA, B1, B2, B3)
    moved = (c**3 * ALPHA, c * B1, c * B2, c * B3)
    lhs0, lhs1 = (_normalised_lhs(pb, sc, rule=homogeneity) for sc in (base, moved))
    res = [sp.expand(a - b) for L0, L1 in zip(lhs0, lhs1, strict=True)
           for a, b in zip(L0, L1, strict=True)]  # fmt: skip
    for x in pb.X:
        f = [homogeneity(_network(_Params(b3 * pb.a, b2 * pb.W2, b1 * pb.W1, pb.X, pb.y),
                                  1 / al, x)) for al, b1, b2, b3 in (base, moved)]  # fmt: skip
        res.append(f[0] - f[1])
    res += [a - b for a, b in zip(kappas(*base), kappas(*moved), strict=True)]
    v = prove_zero(*res)
    return Verdict(v.status, f"(m, d, n) = (2, 1, 2), every block and f: {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _power_law_family() -> Verdict:
    # for symbolic gamma_2, gamma_3, s (real) and B > 0: the coordinates (9) of the family
    # are (0, gamma_2, gamma_3), and its (p, q) solve the linear system uniquely
    g2, g3, s_ = sp.symbols("gamma_2 gamma_3 s", real=True)
    Bc = sp.Symbol("B", positive=True)
    alpha, b1, b2, b3 = _power_law_scales(g2, g3, s_, Bc)
    got = gamma_coordinates(alpha, b1, b2, b3)
    p, q = sp.symbols("p q", real=True)
    k = kappas(M**s_, M**-q, Bc * M**-p, M**-p)
    sol = sp.solve([exponent(k[1]) - g2, exponent(k[2]) - g3], [p, q], dict=True)
    res = [got[0], got[1] - g2, got[2] - g3, sp.Integer(len(sol) - 1)]
    if len(sol) == 1:
        res += [sol[0][p] - exponent(b3), sol[0][q] - exponent(b1)]
    return prove_zero(*res)


def _table_2_family() -> Verdict:
    # each row of Table 2 is power_law_scheme(printed gamma_2, gamma_3, s = alpha's
    # exponent, B = 1); within a group the kappas are equal as functions of m, and only
    # the time factor tbar/t = beta_3^-2 differs
    res, cases = [], []
    for group in ("No. 1", "No. 2"):
        rows = [r for r in TABLE_2 if r.name.startswith(group)]
        g2p, g3p = _PRINTED_TABLE_2[group]
        for row in rows:
            fam = power_law_scheme(g2p, g3p, -exponent(row.alpha))
            res += [row.alpha - fam.alpha, row.beta_1 - fam.beta_1, row.beta_2 - fam.beta_2,
                    row.beta_3 - fam.beta_3]  # fmt: skip
            res += [a - b for a, b in zip(row.kappas, rows[0].kappas, strict=True)]
        times = [time_factor(r.alpha, r.beta_1, r.beta_2, r.beta_3) for r in rows]
        cases.append((f"{group}: time factors {times} distinct",
                      len({sp.simplify(t) for t in times}) == len(rows)))  # fmt: skip
    return _merge(prove_zero(*res), decide(cases, "Table 2 groups"))


def _rd_invariance() -> Verdict:
    # RD (10) of W1 (m x (d+1), bias folded) and of W2 (m x (m+1)) at m = 2, d = 1: the same
    # for theta = beta thetabar and thetabar (any beta > 0), so S_W (11) agrees for the raw
    # and the normalised net; RD reads only the two end points, so the time change is moot
    res = []
    for name, beta, shape in (("W1", B1, (2, 2)), ("W2", B2, (2, 3))):
        fin = sp.Matrix(*shape, lambda i, j, n=name: sp.Symbol(f"{n}s_{i}{j}", real=True))
        ini = sp.Matrix(*shape, lambda i, j, n=name: sp.Symbol(f"{n}0_{i}{j}", real=True))
        res.append(relative_distance(beta * fin, beta * ini) - relative_distance(fin, ini))
    return prove_zero(*res)


def _cosine_claim() -> Verdict:
    # Figure 3's reading of D (2): 1 for equal, -1 for opposite, 0 for perpendicular
    # directions; |D| <= 1 by Lagrange's identity; D(c u, c' v) = D(u, v) for c, c' > 0
    # (so Figure 3 and zeta read the same on W2 and on W2bar = W2/beta_2, eq. (6))
    u = sp.symbols("u_0:3", real=True)
    v = sp.symbols("v_0:3", real=True)
    c, c2 = sp.symbols("c c'", positive=True)
    perp = (u[1], -u[0], 0)  # perpendicular to u (u_0 or u_1 non-zero)
    lagrange = (
        _inner(u, u) * _inner(v, v)
        - _inner(u, v) ** 2
        - sum((u[i] * v[j] - u[j] * v[i]) ** 2 for i in range(3) for j in range(i))
    )
    res = [
        cosine_similarity(u, u) - 1,
        cosine_similarity(u, [-x for x in u]) + 1,
        cosine_similarity(u, perp),
        sp.expand(lagrange),
        cosine_similarity([c * x for x in u], [c2 * x for x in v]) - cosine_similarity(u, v),
    ]  # fmt: skip
    return prove_zero(*res)


def _condensation_claim() -> Verdict:
    # zeta = 1 for parallel/opposite rows (m = 6, rows c_i u with signs mixed); 2/m for
    # mutually perpendicular rows (m = 4); unchanged by W2 -> W2/beta_2 (eq. (6))
    r = sp.Rational
    u = (1, -2, 3)
    cs = (3, r(-1, 2), 2, -5, r(1, 3), r(7, 4))
    collinear = [[ci * x for x in u] for ci in cs]
    perpendicular = [[2, 0, 0, 0], [0, -3, 0, 0], [0, 0, r(1, 2), 0], [0, 0, 0, 5]]
    generic = [[1, -2, r(1, 3)], [r(3, 2), 1, -1], [-2, r(1, 2), 4], [r(2, 3), 3, 1]]
    beta = r(7, 3)
    return prove_zero(
        condensation(collinear) - 1,
        condensation(perpendicular) - r(2, 4),
        condensation([[x / beta for x in row] for row in generic]) - condensation(generic),
    )


def claims() -> list[Theorem]:
    """Every closed-form claim of Sections 3-4 (and the coordinates of Table 2)."""
    s = SEED
    out = [
        Theorem(
            "three_layer.eq5_gradient",
            f"{s} eqs. (3)-(5)",
            "Eq. (5) as printed is -grad R_S of the package's risk (3) for the network (1) "
            "(the flow numerics.simulate integrates; any differentiable activation; explicit "
            "m = d = n = 2, and m = 2, d = 1, n = 2 with biases folded into W1, W2).",
            "symbolic",
            _eq5,
        ),
        Theorem(
            "three_layer.rescaling",
            f"{s} eqs. (5)-(8)",
            "The rescaling (6) with the time change of (8) maps the flow (5) to the "
            "normalised flow (7) with kappa_1 = beta_3/beta_2, kappa_2 = beta_3/beta_1, "
            "kappa_3 = beta_1 beta_2 beta_3/alpha, using only sigma(cz) = c sigma(z), "
            "sigma'(cz) = sigma'(z) for c > 0 (so it holds for every positively "
            "1-homogeneous activation); every component, (m, d, n) = (2, 2, 2), (3, 1, 1).",
            "symbolic",
            _rescaling,
        ),
        Theorem(
            "three_layer.time_scale",
            f"{s} eq. (8)",
            "tbar = (alpha kappa_1 kappa_2 kappa_3)^(-2/3) t = t/beta_3^2, since "
            "alpha kappa_1 kappa_2 kappa_3 = beta_3^3.",
            "symbolic",
            _time_scale,
        ),
        Theorem(
            "three_layer.kappa1_assumption",
            f"{s} text after eq. (9), Assumption 3.2",
            "Under beta_2 = B beta_3, kappa_1 = 1/B (printed: B), hence gamma_1 = 0.",
            "symbolic",
            _kappa1_assumption,
        ),
        Theorem(
            "three_layer.assumption_3_2",
            f"{s} Assumption 3.2, Table 1",
            "beta_2/beta_3 = 1 for NTK, LeCun, He; for Xavier it is sqrt((m+1)/(2m)), "
            "not constant (Assumption 3.2 holds only as m -> oo, B -> 1/sqrt(2)); "
            "gamma_1 = 0 for all four rows.",
            "symbolic",
            _assumption_32,
        ),
        Theorem(
            "three_layer.table_2_coordinates",
            f"{s} Table 2",
            "The six scalings of Table 2 give (gamma_2, gamma_3) = (0, 1.1) (group 1) and "
            "(0.7, 2.5) (group 2) by eqs. (8)-(9).",
            "symbolic",
            _table_2,
        ),
        Theorem(
            "three_layer.homogeneity_needed",
            f"{s} Section 6 (Conclusion)",
            "Homogeneity is what the normalisation uses: (7)-(8) hold for every positively "
            "1-homogeneous activation (ReLU, leaky ReLU; three_layer.rescaling uses only the "
            "two rules), and fail for the non-homogeneous sigma(z) = z + z^2.",
            "symbolic",
            _homogeneity_needed,
        ),
    ]
    out += [
        Theorem(
            "three_layer.eq6_standard_normal",
            f"{s} eq. (6) and Section 3",
            "With a_k ~ N(0, beta_3^2), W2_kl ~ N(0, beta_2^2), W1_kl ~ N(0, beta_1^2) (Section "
            "3), the rescaled abar = a/beta_3, W2bar = W2/beta_2, W1bar = W1/beta_1 of (6) are "
            "standard normal ('so that all the parameters are picked from standard normal "
            "distribution'): their densities equal exp(-z^2/2)/sqrt(2 pi).",
            "symbolic",
            _eq6_standard_normal,
        ),
        Theorem(
            "three_layer.relu_homogeneity",
            f"{s} Section 4, text after eq. (6)",
            "The package's ReLU max(0, z) and its derivative Heaviside(z, 0) satisfy "
            "sigma(c z) = c sigma(z) and sigma'(c z) = sigma'(z) for every real z and c > 0 "
            "(cases z > 0, z < 0, z = 0); the condition c > 0 is needed (c = -1, z = 1 "
            "fails).",
            "symbolic",
            _relu_homogeneity,
        ),
        Theorem(
            "three_layer.eq7.a",
            f"{s} eqs. (6)-(8), first line of (7)",
            "The a-block: d abar/dtbar = -(1/n) sum_i kappa_3 sigma(W2bar sigma(W1bar x_i)) "
            "e_i, derived from the package's flow (gradient of (3)) by (6) and the time "
            "change (8), generic positively homogeneous sigma; (m, d, n) = (2, 2, 2), "
            "(3, 1, 1).",
            "symbolic",
            _eq7_block("a"),
        ),
        Theorem(
            "three_layer.eq7.W2",
            f"{s} eqs. (6)-(8), second line of (7)",
            "The W2-block: d W2bar/dtbar = -kappa_1^2 (1/n) sum_i kappa_3 (abar o "
            "sigma'(W2bar sigma(W1bar x_i))) sigma(W1bar x_i)^T e_i with kappa_1 = "
            "beta_3/beta_2; (m, d, n) = (2, 2, 2), (3, 1, 1).",
            "symbolic",
            _eq7_block("W2"),
        ),
        Theorem(
            "three_layer.eq7.W1",
            f"{s} eqs. (6)-(8), third line of (7)",
            "The W1-block: d W1bar/dtbar = -kappa_2^2 (1/n) sum_i kappa_3 (W2bar^T (abar o "
            "sigma'(...)) o sigma'(W1bar x_i)) x_i^T e_i with kappa_2 = beta_3/beta_1; "
            "(m, d, n) = (2, 2, 2), (3, 1, 1).",
            "symbolic",
            _eq7_block("W1"),
        ),
        Theorem(
            "three_layer.eq7.output",
            f"{s} eqs. (1), (6)-(8): e_i in (7)",
            "The error e_i of (5) is that of the normalised network: (1/alpha) a^T sigma(W2 "
            "sigma(W1 x)) = kappa_3 abar^T sigma(W2bar sigma(W1bar x)) with kappa_3 = beta_1 "
            "beta_2 beta_3/alpha, so (7) is closed in the normalised variables; (m, d, n) = "
            "(2, 2, 2), (3, 1, 1).",
            "symbolic",
            _eq7_block("f"),
        ),
        Theorem(
            "three_layer.bias_first_layer",
            f"{s} Section 3 (bias b^[1]) with eqs. (6)-(7)",
            "The first-layer bias folded into W1 as Section 3 says (x -> (x^T, 1)^T, W1 -> "
            "(W1, b1), normalised with W1: b1bar = b1/beta_1) keeps the normalised flow (7) "
            "exact, every block and the output; (m, d, n) = (2, 1, 2). (The second-layer "
            "bias does not: see the erratum on Section 3.)",
            "symbolic",
            _bias_first_layer,
        ),
        Theorem(
            "three_layer.time_exponent",
            f"{s} eq. (8)",
            "The exponent -2/3 of the time change is forced: the a-block of (7) (prefactor "
            "kappa_3) holds for the package's flow only with dtbar/dt = beta_3^-2 (solved "
            "from its residual), and (alpha kappa_1 kappa_2 kappa_3)^r = beta_3^-2 has the "
            "single solution r = -2/3.",
            "symbolic",
            _time_exponent,
        ),
        Theorem(
            "three_layer.kappas_independent",
            f"{s} Section 1 and Section 4 (principles (i)-(ii))",
            "'Since we only care about the training trajectory up to a time scaling, we "
            "obtain three independent quantities': d log(kappa_1, kappa_2, kappa_3) / d "
            "log(alpha, beta_1, beta_2, beta_3) has rank 3, its kernel is the joint scaling "
            "(alpha, beta_i) -> (c^3 alpha, c beta_i), and along it tbar/t = beta_3^-2 moves "
            "as c^-2 (the time scaling).",
            "symbolic",
            _kappas_independent,
        ),
        Theorem(
            "three_layer.joint_rescaling",
            f"{s} Section 4 (principle (ii)), eqs. (6)-(8)",
            "Two networks related by alpha -> c^3 alpha, beta_i -> c beta_i (c > 0) have "
            "the same kappas and the same normalised flow in tbar: the field d thetabar/dtbar "
            "computed from the package's flow (not from (7)) and the output agree exactly at "
            "(m, d, n) = (2, 1, 2); only the time change t = beta_3^2 tbar differs.",
            "symbolic",
            _joint_rescaling,
        ),
        Theorem(
            "three_layer.power_law_family",
            f"{s} eq. (9), Assumptions 3.1-3.2",
            "For alpha = m^s, beta_3 = m^-p, beta_2 = B m^-p, beta_1 = m^-q: gamma_1 = 0, "
            "gamma_2 = p - q, gamma_3 = 2p + q + s; for symbolic real gamma_2, gamma_3, s "
            "and B > 0 the unique (p, q) is ((gamma_2 + gamma_3 - s)/3, (gamma_3 - s - "
            "2 gamma_2)/3), and power_law_scheme's coordinates are (0, gamma_2, gamma_3).",
            "symbolic",
            _power_law_family,
        ),
        Theorem(
            "three_layer.table_2_family",
            f"{s} Table 2, Section 5.3.1",
            "Each row of Table 2 is power_law_scheme(gamma_2, gamma_3, s) with s the "
            "exponent of its alpha (B = 1); within a group the three rows have equal "
            "kappa_1, kappa_2, kappa_3 as functions of m (not only equal gammas), hence the "
            "same normalised flow (7), and differ only in the time factor tbar/t = beta_3^-2.",
            "symbolic",
            _table_2_family,
        ),
        Theorem(
            "three_layer.rd_invariance",
            f"{s} eqs. (6), (10)-(11)",
            "RD(W) of (10) is unchanged by the rescaling (6), RD(beta Wbar*, beta Wbar(0)) = "
            "RD(Wbar*, Wbar(0)) for beta > 0 (W1 with its bias, 2 x 2; W2 with its bias, "
            "2 x 3), and reads only the end points (not the time change (8)); so S_W of "
            "(11) is the same for a network and its normalised model.",
            "symbolic",
            _rd_invariance,
        ),
        Theorem(
            "three_layer.cosine_similarity",
            f"{s} eq. (2), caption of Figure 3",
            "D(u, v) of (2) is 1 for equal, -1 for opposite and 0 for perpendicular "
            "directions (Figure 3's reading), |D| <= 1 ((u.u)(v.v) - (u.v)^2 = sum_{i<j} "
            "(u_i v_j - u_j v_i)^2, d = 3), and D(c u, c' v) = D(u, v) for c, c' > 0.",
            "symbolic",
            _cosine_claim,
        ),
        Theorem(
            "three_layer.condensation",
            f"{s} Section 5.4 (zeta), captions of Figures 3 and 8",
            "zeta = (1/(m/2)^2) sum_{i,j<=m/2} |D(u_i, u_j)| over the m/2 largest rows is 1 "
            "when the rows condense on one line (m = 6, rows c_k u with mixed signs), 2/m "
            "(only the diagonal) for mutually perpendicular rows (m = 4), and unchanged by "
            "W2 -> W2/beta_2 (eq. (6)); exact.",
            "symbolic",
            _condensation_claim,
        ),
    ]
    for init in INITIALISATIONS:
        out.append(Theorem(
            f"three_layer.table_1.{init.name.lower()}", f"{s} Table 1, row {init.name}",
            f"{init.name}: kappa_2, kappa_3 from eq. (8) and gamma_1..3 from eq. (9) "
            "(m_1 = m_2 = m), as table_1() reports them, equal the printed cells; and the "
            "printed kappa_2, kappa_3 turn the package's flow at this row's scalings into "
            "(7) under the time change (8) (direct computation, m = d = n = 1, at m_1, m_2, "
            "d = 3, 5, 2).",
            "symbolic", _table_row(init.name),
        ))  # fmt: skip
    return out


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def _kappa1_residuals() -> tuple[sp.Expr, sp.Expr]:
    Bc = sp.Symbol("B", positive=True)
    k1 = kappas(ALPHA, B1, Bc * B3, B3)[0]
    return k1 - Bc, k1 - 1 / Bc


def _sum_residuals() -> tuple[sp.Expr, sp.Expr]:
    # first component of dabar/dtbar (m = d = 1, n = 2, all units active: sigma = identity,
    # sigma' = 1, a consistent ReLU pattern for positive weights and inputs).  Printed
    # reading: -(1/n sum_i kappa_3 sigma(...)) e_j with e_j taken out of the sum, for each
    # j in {1, 2} (the product vanishes if either reading were right); corrected: e_i inside.
    pb = _params(1, 1, 2, bar=True)
    k3 = kappas(ALPHA, B1, B2, B3)[2]
    z = sp.Symbol("z")
    ident = {sigma: sp.Lambda(z, z), sigma_prime: sp.Lambda(z, 1)}

    def concrete(e: sp.Expr) -> sp.Expr:
        return e.replace(sigma, ident[sigma]).replace(sigma_prime, ident[sigma_prime])

    true = concrete(_rescaling_lhs_a(pb))
    h = [(pb.W2 * pb.W1 * x)[0, 0] for x in pb.X]  # sigma(W2bar sigma(W1bar x_i)), active
    g = [k3 * hi for hi in h]  # the summand of (7) without e_i
    e = [k3 * pb.a[0] * hi - yi for hi, yi in zip(h, pb.y, strict=True)]  # e_i
    mean_g = sum(g) / 2
    printed = sp.Mul(*[(-mean_g * ej) - true for ej in e])
    corrected = -sum(gi * ei for gi, ei in zip(g, e, strict=True)) / 2 - true
    return printed, corrected


def _rescaling_lhs_a(pb: _Params) -> sp.Expr:
    """First component of ``d abar/dtbar`` obtained from the package's flow (the gradient
    of risk (3)) by (6) and (8)."""
    orig = _Params(B3 * pb.a, B2 * pb.W2, B1 * pb.W1, pb.X, pb.y)
    da = _gradient_field(orig, ALPHA)[0]
    return homogeneity(da[0]) / (B3 * time_factor(ALPHA, B1, B2, B3))


def _bias_2_residuals() -> tuple[sp.Expr, sp.Expr]:
    # m = d = n = 1, both biases folded (Section 3); printed: the normalised hidden layer
    # extended by 1, as for the raw one; corrected: by 1/beta_1.  The printed residuals with
    # sigma = identity (every unit active at the positive rational point of the check, so
    # exactly ReLU there); the corrected ones for a generic homogeneous sigma.
    z = sp.Symbol("z")
    active = {sigma: sp.Lambda(z, z), sigma_prime: sp.Lambda(z, 1)}
    printed = rescaling_residuals(1, 1, 1, bias="both", appended=1)
    printed = [r.replace(sigma, active[sigma]).replace(sigma_prime, active[sigma_prime])
               for r in printed]  # fmt: skip
    corrected = rescaling_residuals(1, 1, 1, bias="both")
    return sp.Add(*(r**2 for r in printed)), sp.Add(*(r**2 for r in corrected))


def errata() -> list[Erratum]:
    """Disagreements with the printed Sections 3-4 of seed 004."""
    return [
        Erratum(
            SEED, "Section 3 (bias b^[2]) with (6)-(7)",
            "b^[2] is incorporated by expanding xbar = sigma(W1 x) to (xbar^T, 1)^T and W2 "
            "to (W2, b^[2]); the rescaling (6) then gives the normalised flow (7)",
            "with b2bar = b2/beta_2 (eq. (6) on the folded W2) the normalised flow is (7) "
            "with sigma(W1bar x) extended by 1/beta_1 = kappa_2/beta_3, not by 1: with a "
            "second-layer bias the normalised model depends on beta_1 besides kappa_1..3",
            "sigma(W1 x) = beta_1 sigma(W1bar x) is rescaled but the appended constant is "
            "not, so W2 (xbar, 1) = beta_2 beta_1 (W2bar sigma(W1bar x) + b2bar/beta_1). "
            "The first-layer bias folds in exactly (claim three_layer.bias_first_layer). "
            "Consequence: along Table 2's family (alpha -> c^3 alpha, beta_i -> c beta_i) "
            "the constant 1/beta_1 changes, so with b^[2] the rows of a group are not the "
            "same normalised network. Residual: every component of the rescaled flow and "
            "the output minus (7) (sum of squares, m = d = n = 1, both biases), with 1 "
            "(printed) vs 1/beta_1 (corrected).",
            _bias_2_residuals,
        ),
        Erratum(
            SEED, "text after (9) (Assumptions 3.1-3.2)",
            "assumptions 3.1 and 3.2 mean kappa_1 = B",
            "assumptions 3.1 and 3.2 mean kappa_1 = 1/B",
            "kappa_1 = beta_3/beta_2 (eq. (8)) and beta_2 = B beta_3 (Assumption 3.2) give "
            "kappa_1 = 1/B. The conclusion gamma_1 = 0 is unaffected. "
            "Residual: kappa_1 - B vs kappa_1 - 1/B with beta_2 = B beta_3.",
            _kappa1_residuals,
        ),
        Erratum(
            SEED, "(7)",
            "d abar/dtbar = -( (1/n) sum_i kappa_3 sigma(...) ) e_i  (e_i outside the sum, "
            "likewise for W2bar, W1bar)",
            "d abar/dtbar = -(1/n) sum_i kappa_3 sigma(...) e_i  (e_i inside, as in (5))",
            "The error e_i depends on the summation index; factored out of the sum the "
            "equation is not the gradient flow for any fixed i. Residual: first component of "
            "d abar/dtbar (m = d = 1, n = 2, ReLU units active) minus the printed reading with "
            "e_1 times that with e_2, vs minus the corrected form.",
            _sum_residuals,
            changes_math=False,
        ),
    ]  # fmt: skip


MODEL = Model(
    name="three_layer",
    seed=SEED,
    title="Seed 004: three-layer ReLU network, normalised flow, phase coordinates gamma_2, gamma_3",
    claims=claims,
    errata=errata,
    systems=(SYSTEM,),
    tables=format_table_1,
)
