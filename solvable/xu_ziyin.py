r"""Two-layer linear network on rank-1 data: the exact gradient flow.

Source: Xu & Ziyin, "When Does Feature Learning Happen? Perspective from an
Analytically Solvable Model" (seed ``001_070589003213e0cf.txt``), Section 2.1,
Theorem 1, Proposition 1 and Appendix A.1.

Model and conventions (eqs. (4), (5) of the paper)::

    f(x) = gamma * u^T W x,          L = (f(x) - y)^2            (no factor 1/2)
    du/dt = -eta_u dL/du,            dW/dt = -eta_w dL/dW

with ``u`` of shape ``(d,)``, ``W`` of shape ``(d, d0)``, ``x`` of shape ``(d0,)``.

Conventions that differ from the printed paper (each one is an entry of
:mod:`solvable.errata`):

* ``rho = ||x||``, the Euclidean norm (the paper prints
  ``sqrt(1/d0 sum_{i=0}^{d0} x_i^2)``, which is wrong for ``d0 > 1``).
* ``alpha_minus = (D - B) / (2A) >= 0`` is the *magnitude* of the negative root,
  so that eqs. (8)-(10), (19) and ``alpha_plus * alpha_minus = Q / P`` hold as
  printed; the printed eq. (12) has ``B - D`` instead.
* ``xi(t) = (1 - alpha_plus) / (1 + alpha_minus) * exp(-4 t / t_c)``, and
  ``t_c = 1 / D`` with ``D = sqrt(B^2 + 4 A C)``, where::

      A = gamma^2 d rho^2 P,   B = gamma rho y sqrt(eta_u eta_w),   C = gamma^2 d rho^2 Q.

Everything follows from one scalar, ``alpha(t) = p_i(t)^2 / p_i(0)^2``, which
solves the Riccati equation ``d alpha/dt = -4 (A alpha^2 - B alpha - C)``,
``alpha(0) = 1``.  Its solution is evaluated through ``ell = log(alpha)`` in a
form that is free of cancellation and overflow (see :func:`symbolic`, the
``stable`` expressions, each proved equal to the textbook form by
``tests/test_xu_ziyin_symbolic.py``), and covers Theorem 1 (P > 0),
Proposition 1 (P = 0), Q = 0, y = 0 and the saddle P = Q = 0 with one formula.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable import _numbers
from solvable._numbers import Number
from solvable._special import exprel, log1p, logaddexp, namespace

__all__ = [
    "Setup",
    "State",
    "States",
    "Symbols",
    "Trajectory",
    "closed_form",
    "loss",
    "network_output",
    "ntk",
    "symbolic",
]

GUARD_DIGITS = 10  # extra working digits for the mpmath evaluation of closed forms


# ---------------------------------------------------------------------------
# The model: definitions shared by the closed form and by numerics.simulate
# ---------------------------------------------------------------------------
def network_output(u: Any, W: Any, x: Any, gamma: Any) -> Any:
    """``f(x) = gamma * u^T W x`` (eq. (4)); works on sympy, numpy and mpmath arrays."""
    return gamma * _dot(u, _matvec(W, x))


def loss(u: Any, W: Any, x: Any, y: Any, gamma: Any) -> Any:
    """``L = (gamma u^T W x - y)^2``, eq. (4) (no factor 1/2)."""
    return (network_output(u, W, x, gamma) - y) ** 2


def ntk(u: Any, W: Any, x: Any, eta_u: Any, eta_w: Any, gamma: Any) -> Any:
    r"""Learning-rate-weighted NTK ``K(x, x)`` with ``df/dt = -2 K (f - y)``.

    ``K(x, x) = gamma^2 (eta_u ||W x||^2 + eta_w ||u||^2 ||x||^2)``.  This is eq. (18)
    with the learning rates in their correct places (the paper prints
    ``eta_w W^T W + eta_u ||u||^2 I``; see :mod:`solvable.errata`).
    """
    v = _matvec(W, x)
    return gamma**2 * (eta_u * _dot(v, v) + eta_w * _dot(u, u) * _dot(x, x))


def _is_float_array(a: Any) -> bool:
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _dot(a: Any, b: Any) -> Any:
    if _is_float_array(a) and _is_float_array(b):
        return float(a @ b)
    return sum((ai * bi for ai, bi in zip(a, b, strict=True)), start=0 * a[0])


def _matvec(W: Any, x: Any) -> Any:
    if _is_float_array(W) and _is_float_array(x):
        return W @ x
    return [_dot(row, x) for row in W]


# ---------------------------------------------------------------------------
# Symbolic layer: every formula once, as a sympy expression
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Symbols:
    """The sympy symbols and expressions of Theorem 1 / Proposition 1.

    ``paper`` holds the textbook forms (with the corrected conventions of the
    module docstring), ``stable`` the forms used for evaluation.  Indexed
    quantities (``u_i``, ``v_i = (W x)_i``, ``p_i``, ``q_i``) are written for one
    generic hidden unit ``i``.
    """

    # parameters
    eta_u: sp.Symbol
    eta_w: sp.Symbol
    gamma: sp.Symbol
    rho: sp.Symbol
    y: sp.Symbol
    d: sp.Symbol
    P: sp.Symbol
    Q: sp.Symbol
    t: sp.Symbol
    # one hidden unit
    u: sp.Symbol
    v: sp.Symbol
    p0: sp.Symbol
    q0: sp.Symbol
    u0: sp.Symbol
    v0: sp.Symbol
    ell: sp.Symbol
    alpha: sp.Symbol
    # reduced-dynamics coefficients, as symbols and as expressions
    A: sp.Symbol
    B: sp.Symbol
    C: sp.Symbol
    D: sp.Symbol
    G: sp.Symbol
    N: sp.Symbol
    M: sp.Symbol
    f0: sp.Symbol
    F: sp.Symbol
    Lam: sp.Symbol
    Sp: sp.Symbol
    Sq: sp.Symbol
    R: sp.Symbol
    coefficients: dict[str, sp.Expr] = field(repr=False)
    paper: dict[str, sp.Expr] = field(repr=False)
    stable: dict[str, sp.Expr] = field(repr=False)

    def riccati_rhs(self, alpha: sp.Expr) -> sp.Expr:
        """Right side of ``d alpha/dt = -4 (A alpha^2 - B alpha - C)`` (from eq. (39))."""
        return -4 * (self.A * alpha**2 - self.B * alpha - self.C)


@functools.cache
def symbolic() -> Symbols:
    """The sympy expressions of Theorem 1 and Proposition 1 (seed 001).

    Keys of ``paper``: ``p``, ``q`` (eq. (6)), ``u``, ``v`` (eq. (13), and
    ``v = W x``), ``alpha_plus``, ``alpha_minus`` (eq. (12), corrected sign),
    ``t_c`` (eq. (11)), ``xi`` (eq. (10), corrected), ``alpha`` (the bracket of
    eqs. (8)-(9)), ``p_t``, ``q_t`` (eqs. (8), (9)), ``f`` (eq. (19)),
    ``alpha_prime``, ``xi_prime``, ``beta`` (Proposition 1, eqs. (45)-(47);
    ``q_i(t) = q_i(0) sqrt(beta)``), ``ntk`` (eq. (18) corrected, in p/q form).

    Keys of ``stable``: ``D_plus``, ``D_minus`` (``D +- B`` without
    cancellation), ``N``, ``M`` (``alpha(t) = (1 + N tau)/(1 + M tau)``,
    ``tau = expm1(4 D t) / (2 D)``), ``lam`` (``log tau``), ``L_N``, ``L_M``
    (``log(1 + N tau)``, ``log(1 + M tau)``), ``delta`` (``alpha - 1``),
    ``ell`` (``log alpha``), ``residual`` (``f(t) - y``), ``u_t``, ``v_t``,
    ``p_t``, ``q_t``, ``alignment`` (eq. (21) as
    ``F / sqrt(F^2 + 4 Lambda)``, ``F_of_f`` gives ``F`` from ``f`` (symbol
    ``f0``)), ``alpha_plus``,
    ``alpha_minus``, ``t_c``, ``G`` (``N - M`` from the initial residual).
    """
    pos = {"positive": True}
    eta_u, eta_w, gamma, rho = sp.symbols("eta_u eta_w gamma rho", **pos)
    d = sp.Symbol("d", integer=True, positive=True)
    y = sp.Symbol("y", real=True)
    P, Q = sp.symbols("P Q", nonnegative=True)
    t = sp.Symbol("t", nonnegative=True)
    u, v, p0, q0, u0, v0, ell, f0 = sp.symbols("u v p0 q0 u0 v0 ell f0", real=True)
    alpha = sp.Symbol("alpha", positive=True)
    A, C, D, N, M = sp.symbols("A C D N M", nonnegative=True)
    B, G, F = sp.symbols("B G F", real=True)
    Lam = sp.Symbol("Lambda", nonnegative=True)
    # sum_i p_i(t)^2 = d P alpha, sum_i q_i(t)^2 = d Q / alpha, and the residual f - y
    Sp, Sq = sp.symbols("Sigma_p2 Sigma_q2", nonnegative=True)
    R = sp.Symbol("R", real=True)
    s = sp.sqrt(eta_u * eta_w)
    half = sp.Rational(1, 2)

    coefficients = {
        "A": gamma**2 * d * rho**2 * P,
        "B": gamma * rho * y * s,
        "C": gamma**2 * d * rho**2 * Q,
        "k": 2 * gamma * rho * s,  # d log p_i / dt = -k (f - y), eq. (37)
        "c": gamma * rho * d / s,  # f = c (P alpha - Q / alpha), eq. (19)
    }
    coefficients["D"] = sp.sqrt(B**2 + 4 * A * C)
    coefficients["G"] = -coefficients["k"] * (f0 - y)  # = 2 (B + C - A)

    # ---- textbook forms (corrected conventions) ----------------------------
    ap = (B + D) / (2 * A)
    am = (D - B) / (2 * A)
    xi = (1 - ap) / (1 + am) * sp.exp(-4 * t * D)
    alpha_t = (ap + xi * am) / (1 - xi)
    alpha_prime = B / C
    xi_prime = sp.exp(-4 * B * t) / (1 + alpha_prime)
    paper = {
        "p": (sp.sqrt(eta_u) * v + sp.sqrt(eta_w) * rho * u) / (2 * rho),
        "q": (sp.sqrt(eta_u) * v - sp.sqrt(eta_w) * rho * u) / (2 * rho),
        "u": (p0 - q0) / sp.sqrt(eta_w),
        "v": rho * (p0 + q0) / sp.sqrt(eta_u),
        "alpha_plus": ap,
        "alpha_minus": am,
        "t_c": 1 / D,
        "xi": xi,
        "alpha": alpha_t,
        "p_t": p0 * sp.sqrt(alpha_t),
        "q_t": q0 / sp.sqrt(alpha_t),
        "f": coefficients["c"] * (P * alpha - Q / alpha),
        "alpha_prime": alpha_prime,
        "xi_prime": xi_prime,
        "beta": alpha_prime * xi_prime / (1 - xi_prime),
        "ntk": 2 * gamma**2 * rho**2 * d * (P * alpha + Q / alpha),
    }

    # ---- stable forms -------------------------------------------------------
    D_plus = sp.Piecewise((D + B, B >= 0), (4 * A * C / (D - B), True))
    D_minus = sp.Piecewise((D - B, B <= 0), (4 * A * C / (D + B), True))
    lam = sp.log(2 * t) + 4 * D * t + sp.log(exprel(-4 * D * t))  # log tau
    L_N = logaddexp(0, lam + sp.log(N))
    L_M = logaddexp(0, lam + sp.log(M))
    delta = G * sp.exp(lam - L_M)  # alpha - 1 = G tau / (1 + M tau)
    ell_t = sp.Piecewise((log1p(delta), sp.Abs(delta) <= half), (L_N - L_M, True))
    ch, sh = sp.cosh(ell / 2), sp.sinh(ell / 2)
    r_uv = sp.sqrt(eta_u / eta_w) / rho  # u-units per v-unit
    p_t = sp.Piecewise((0, sp.Eq(p0, 0)), (p0 * sp.exp(ell / 2), True))
    q_t = sp.Piecewise((0, sp.Eq(q0, 0)), (q0 * sp.exp(-ell / 2), True))
    small = sp.Abs(ell) <= 1
    stable = {
        "D_plus": D_plus,
        "D_minus": D_minus,
        "N": D_plus + 2 * C,
        "M": D_minus + 2 * A,
        "alpha_plus": sp.Piecewise((N / M, M > 0), (sp.oo, True)),
        "alpha_minus": sp.Piecewise(
            (D_minus / (2 * A), A > 0), (2 * C / D_plus, D_plus > 0), (sp.oo, True)
        ),
        "t_c": sp.Piecewise((1 / D, D > 0), (sp.oo, True)),
        "lam": lam,
        "L_N": L_N,
        "L_M": L_M,
        "delta": delta,
        "ell": ell_t,
        "residual": (f0 - y) * sp.exp(4 * D * t - L_N - L_M),
        "p_t": p_t,
        "q_t": q_t,
        "u_t": sp.Piecewise(
            (u0 * ch + r_uv * v0 * sh, small), ((p_t - q_t) / sp.sqrt(eta_w), True)
        ),
        "v_t": sp.Piecewise(
            (v0 * ch + u0 * sh / r_uv, small), (rho * (p_t + q_t) / sp.sqrt(eta_u), True)
        ),
        # eq. (19) from the unit sums, or y + (f - y): the form with the smaller condition
        # number (sum of the magnitudes of its terms) is used
        "f": sp.Piecewise(
            (
                gamma * rho * (Sp - Sq) / s,
                gamma * rho * (Sp + Sq) / s < sp.Abs(y) + sp.Abs(R),
            ),
            (y + R, True),
        ),
        "ntk": 2 * gamma**2 * rho**2 * (Sp + Sq),  # eq. (18) corrected, from the unit sums
        # cos(u, W x) = F / sqrt(F^2 + 4 Lambda) with F = sum(p^2 - q^2) (= f sqrt(eta_u eta_w)
        # / (gamma rho)) and the conserved Lambda = sum_{i<j} (p_i q_j - p_j q_i)^2 (eq. (21))
        "F_of_f": f0 * s / (gamma * rho),
        # Lambda = 0 (aligned layers): the cosine is sign(F), taken from f while f is
        # representable; for y = 0, f = f0 exp(...) keeps the sign of f0 = c (P - Q); else
        # (flow into the saddle, ell -> +-oo) sign(F) = sign(ell - log(Q/P)/2).
        # 0/0 (u = 0 or W x = 0) gives nan.
        "alignment": sp.Piecewise(
            (sp.sign(F), sp.And(sp.Eq(Lam, 0), sp.Ne(F, 0))),
            ((P - Q) / sp.Abs(P - Q), sp.And(sp.Eq(Lam, 0), sp.Eq(y, 0))),
            (sp.sign(ell - (sp.log(Q) - sp.log(P)) / 2), sp.Eq(Lam, 0)),
            (F / sp.sqrt(F**2 + 4 * Lam), True),
        ),
    }
    return Symbols(
        eta_u=eta_u, eta_w=eta_w, gamma=gamma, rho=rho, y=y, d=d, P=P, Q=Q, t=t,
        u=u, v=v, p0=p0, q0=q0, u0=u0, v0=v0, ell=ell, alpha=alpha,
        A=A, B=B, C=C, D=D, G=G, N=N, M=M, f0=f0, F=F, Lam=Lam, Sp=Sp, Sq=Sq, R=R,
        coefficients=coefficients, paper=paper, stable=stable,
    )  # fmt: skip


# ---------------------------------------------------------------------------
# Generated evaluators
# ---------------------------------------------------------------------------
Backend = str  # "numpy" | "mpmath"


@dataclass(frozen=True)
class _Evaluators:
    constants: Callable[..., tuple[Any, ...]]
    ell: Callable[..., Any]
    residual: Callable[..., Any]
    p: Callable[..., Any]
    q: Callable[..., Any]
    neuron: Callable[..., tuple[Any, Any]]
    pq: Callable[..., tuple[Any, Any]]
    alignment: Callable[..., Any]
    f: Callable[..., Any]
    ntk: Callable[..., Any]


def _lambdify(args: Sequence[sp.Symbol], expr: Any, backend: Backend) -> Callable[..., Any]:
    fn = sp.lambdify(args, expr, modules=namespace(backend))
    if backend == "mpmath":

        def scalar(*a: Any) -> Any:
            try:
                return fn(*a)
            except ZeroDivisionError:  # 0/0 of an undefined quantity: nan, as in numpy
                return (mpmath.nan,) * len(expr) if isinstance(expr, tuple) else mpmath.nan

        return np.vectorize(scalar, otypes=[object] * (len(expr) if isinstance(expr, tuple) else 1))
    return fn


@functools.cache
def _evaluators(backend: Backend) -> _Evaluators:
    S = symbolic()
    co, st = S.coefficients, S.stable
    # stage 1: scalar constants from (eta_u, eta_w, gamma, rho, y, d, P, Q, f0)
    params = (S.eta_u, S.eta_w, S.gamma, S.rho, S.y, S.d, S.P, S.Q, S.f0)
    subs_abc = {S.A: co["A"], S.B: co["B"], S.C: co["C"]}
    Dx = co["D"].subs(subs_abc)
    abcd = {**subs_abc, S.D: Dx}
    const_exprs = (
        co["A"], co["B"], co["C"], Dx, co["G"],
        st["N"].subs(abcd), st["M"].subs(abcd),
        st["alpha_plus"].subs({S.N: st["N"], S.M: st["M"]}).subs(abcd),
        st["alpha_minus"].subs(abcd), st["t_c"].subs(abcd),
    )  # fmt: skip
    constants = sp.lambdify(params, const_exprs, modules=namespace(backend))
    coeffs = (S.D, S.G, S.N, S.M, S.t)
    ell = _lambdify(coeffs, st["ell"], backend)
    residual = _lambdify((S.D, S.N, S.M, S.f0, S.y, S.t), st["residual"], backend)
    p = _lambdify((S.p0, S.ell), st["p_t"], backend)
    q = _lambdify((S.q0, S.ell), st["q_t"], backend)
    neuron_args = (S.u0, S.v0, S.p0, S.q0, S.ell, S.eta_u, S.eta_w, S.rho)
    neuron = _lambdify(neuron_args, (st["u_t"], st["v_t"]), backend)
    p0q0 = (S.paper["p"], S.paper["q"])
    pq_of_uv = _lambdify((S.u, S.v, S.eta_u, S.eta_w, S.rho), p0q0, backend)
    align = _lambdify(
        (S.f0, S.Lam, S.ell, S.P, S.Q, S.y, S.eta_u, S.eta_w, S.gamma, S.rho),
        st["alignment"].subs(S.F, st["F_of_f"]),
        backend,
    )
    sums = (S.Sp, S.Sq, S.R, S.y, S.gamma, S.rho, S.eta_u, S.eta_w)
    f = _lambdify(sums, st["f"], backend)
    ntk_ = _lambdify((S.Sp, S.Sq, S.gamma, S.rho), st["ntk"], backend)
    return _Evaluators(constants, ell, residual, p, q, neuron, pq_of_uv, align, f, ntk_)


# ---------------------------------------------------------------------------
# Public numeric API
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """Hyper-parameters and the single data point of eq. (4).

    ``eta_u, eta_w > 0`` (layer learning rates), ``gamma > 0`` (output
    multiplier; a negative ``gamma`` is the same flow with ``y -> -y``),
    ``x`` a non-zero vector of shape ``(d0,)``, ``y`` a real target.  Numbers
    may be ``int``, ``float``, ``str`` (exact decimal) or ``mpmath.mpf``.
    """

    eta_u: Number
    eta_w: Number
    gamma: Number
    x: tuple[Number, ...]
    y: Number

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "eta_u", _numbers.check_number("eta_u", self.eta_u, positive=True))
        set_(self, "eta_w", _numbers.check_number("eta_w", self.eta_w, positive=True))
        set_(self, "gamma", _numbers.check_number("gamma", self.gamma, positive=True))
        set_(self, "y", _numbers.check_number("y", self.y))
        x = _numbers.check_vector("x", self.x)
        with mpmath.workdps(50):
            if all(_numbers.to_mpf(xi) == 0 for xi in x):
                raise ValueError("x must be non-zero (rho = ||x|| = 0 makes the flow trivial)")
        set_(self, "x", x)

    @property
    def d0(self) -> int:
        """Input dimension."""
        return len(self.x)


@dataclass(frozen=True)
class State:
    """The network at one time: ``u`` (d,), ``W`` (d, d0), output ``f`` on ``x``,
    ``alignment`` (cosine between ``u`` and ``W x``; the paper's zeta, eq. (20),
    when d0 = 1; ``nan`` when ``u`` or ``W x`` is the zero vector, where the
    cosine is undefined) and ``ntk`` (``K(x, x)``, eq. (18) corrected)."""

    t: Any
    u: np.ndarray
    W: np.ndarray
    f: Any
    alignment: Any
    ntk: Any

    @classmethod
    def from_weights(cls, setup: Setup, t: Any, u: Any, W: Any, *, dps: int | None = None) -> State:
        """Measure ``f``, alignment and NTK directly from the weights (no closed form)."""
        conv = _converter(dps)
        with _Precision(dps):
            x = np.array([conv(v) for v in setup.x], dtype=_dtype(dps))
            g, eu, ew = conv(setup.gamma), conv(setup.eta_u), conv(setup.eta_w)
            u = np.asarray(u, dtype=_dtype(dps))
            W = np.asarray(W, dtype=_dtype(dps))
            v = np.array(_matvec(W, x), dtype=_dtype(dps))
            f = network_output(u, W, x, g)
            nu, nv = _sqrt(_dot(u, u), dps), _sqrt(_dot(v, v), dps)
            align = _cosine(f / g, nu, nv, dps)
            return cls(t=t, u=u, W=W, f=f, alignment=align, ntk=ntk(u, W, x, eu, ew, g))


@dataclass(frozen=True)
class States:
    """Many times at once: arrays with a leading time axis."""

    t: np.ndarray
    u: np.ndarray
    W: np.ndarray
    f: np.ndarray
    alignment: np.ndarray
    ntk: np.ndarray
    alpha: np.ndarray

    def __getitem__(self, k: int) -> State:
        return State(self.t[k], self.u[k], self.W[k], self.f[k], self.alignment[k], self.ntk[k])

    def __len__(self) -> int:
        return len(self.t)


@dataclass(frozen=True)
class Trajectory:
    """Exact solution from one initialisation (Theorem 1 / Proposition 1).

    Attributes (corrected conventions, see the module docstring):
    ``P``, ``Q`` (eq. (7)); ``alpha_plus = lim alpha(t)`` (eq. (12) when P > 0;
    ``inf`` when P = 0 and y >= 0, ``C/|B| = 1/|alpha'|`` when P = 0 and y < 0);
    ``alpha_minus = (D - B)/(2A) >= 0`` (its P -> 0 limit ``2C/(D + B)`` when
    P = 0); ``t_c = 1/D`` (eq. (11); ``inf`` when D = 0, i.e. y = 0 and PQ = 0);
    ``alpha_prime`` (eq. (47), only when P = 0 and Q > 0, else ``None``).
    """

    setup: Setup
    u0: np.ndarray
    W0: np.ndarray
    dps: int | None
    P: Any
    Q: Any
    alpha_plus: Any
    alpha_minus: Any
    t_c: Any
    alpha_prime: Any
    _data: dict[str, Any] = field(repr=False)

    def at(self, t: Number) -> State:
        """The state at time ``t >= 0``."""
        return self.sample([t])[0]

    def sample(self, times: Any) -> States:
        """The states at many times (vectorised over ``times``; each ``>= 0``)."""
        ts = _check_times(times)
        dps = self.dps
        ev = _evaluators("numpy" if dps is None else "mpmath")
        k = self._data
        conv = _converter(dps)
        with _Precision(dps):
            tt = np.array([conv(t) for t in ts], dtype=_dtype(dps))
            with np.errstate(all="ignore"):
                ell = ev.ell(k["D"], k["G"], k["N"], k["M"], tt)
                r = ev.residual(k["D"], k["N"], k["M"], k["f0"], k["y"], tt)
                L = ell[:, None]
                p = ev.p(k["p0"][None, :], L)
                q = ev.q(k["q0"][None, :], L)
                u, v = ev.neuron(
                    k["u0"][None, :], k["v0"][None, :], k["p0"][None, :], k["q0"][None, :],
                    L, k["eta_u"], k["eta_w"], k["rho"],
                )  # fmt: skip
                # eq. (14) as W(t) = W0 (I - x x^T/|x|^2) + v(t) x^T/|x|^2: the part of W
                # orthogonal to x never changes, the rest is v(t) = W(t) x (no cancellation
                # when W(t) x -> 0; for d0 = 1 the projector is exactly 0)
                W = k["W_perp"][None, :, :] + (v / k["x2"])[:, :, None] * k["x"][None, None, :]
                sp2, sq2 = (p * p).sum(axis=1), (q * q).sum(axis=1)
                g, rho = k["gamma"], k["rho"]
                f = ev.f(sp2, sq2, r, k["y"], g, rho, k["eta_u"], k["eta_w"])
                K = ev.ntk(sp2, sq2, g, rho)
                align = ev.alignment(
                    f,
                    k["Lam"],
                    ell,
                    k["P"],
                    k["Q"],
                    k["y"],
                    k["eta_u"],
                    k["eta_w"],
                    k["gamma"],
                    k["rho"],
                )
                exp = np.exp if dps is None else np.vectorize(mpmath.exp, otypes=[object])
                alpha = exp(ell)
        if dps is not None:
            with mpmath.workdps(dps):
                rnd = np.vectorize(lambda z: +z, otypes=[object])
                tt, u, W, f, align, K, alpha = (rnd(a) for a in (tt, u, W, f, align, K, alpha))
        return States(t=tt, u=u, W=W, f=f, alignment=align, ntk=K, alpha=alpha)


def closed_form(setup: Setup, u0: Any, W0: Any, *, dps: int | None = None) -> Trajectory:
    """Exact gradient-flow solution from ``(u0, W0)``: Theorem 1 and Proposition 1.

    ``dps=None`` evaluates in float64 with numpy; ``dps=k`` with mpmath at ``k``
    significant digits (arrays are numpy object arrays of ``mpmath.mpf``).
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
    dps = _check_dps(dps)
    u0c = _numbers.check_vector("u0", u0)
    W0c = _numbers.check_matrix("W0", W0, (len(u0c), setup.d0))
    ev = _evaluators("numpy" if dps is None else "mpmath")
    conv = _converter(dps)
    dt = _dtype(dps)
    with _Precision(dps):
        x = np.array([conv(v) for v in setup.x], dtype=dt)
        u = np.array([conv(v) for v in u0c], dtype=dt)
        W = np.array([[conv(v) for v in row] for row in W0c], dtype=dt)
        eta_u, eta_w, gamma, y = (conv(v) for v in (setup.eta_u, setup.eta_w, setup.gamma, setup.y))
        x2 = _dot(x, x)
        rho = _sqrt(x2, dps)
        v = np.array(_matvec(W, x), dtype=dt)
        d = len(u)
        p0, q0 = (np.asarray(a, dtype=dt) for a in ev.pq(u, v, eta_u, eta_w, rho))
        P, Q = (p0 * p0).sum() / d, (q0 * q0).sum() / d
        f0 = gamma * _dot(u, v)
        Lam = _lagrange(p0, q0)
        W_perp = W - np.outer(v, x) / x2
        with np.errstate(all="ignore"):
            _A, B, C, D, G, N, M, a_plus, a_minus, t_c = ev.constants(
                eta_u, eta_w, gamma, rho, y, d, P, Q, f0
            )
        alpha_prime = B / C if (P == 0 and Q > 0) else None
    data = dict(
        D=D, G=G, N=N, M=M, f0=f0, y=y, p0=p0, q0=q0, u0=u, v0=v, W0=W, x=x,
        eta_u=eta_u, eta_w=eta_w, rho=rho, gamma=gamma, Lam=Lam, P=P, Q=Q, x2=x2, W_perp=W_perp,
    )  # fmt: skip
    rnd = (lambda z: z) if dps is None else _round_to(dps)
    return Trajectory(
        setup=setup, u0=u, W0=W, dps=dps, P=rnd(P), Q=rnd(Q),
        alpha_plus=rnd(a_plus), alpha_minus=rnd(a_minus), t_c=rnd(t_c),
        alpha_prime=None if alpha_prime is None else rnd(alpha_prime), _data=data,
    )  # fmt: skip


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def _check_dps(dps: Any) -> int | None:
    if dps is None:
        return None
    if isinstance(dps, bool) or not isinstance(dps, (int, np.integer)):
        raise TypeError(f"dps must be None or an int >= 1, got {type(dps).__name__} {dps!r}")
    if dps < 1:
        raise ValueError(f"dps must be None or an int >= 1, got {dps!r}")
    return int(dps)


def _check_times(times: Any) -> tuple[Number, ...]:
    if isinstance(times, np.ndarray) and times.ndim == 0:
        times = [times.item()]
    ts = _numbers.check_vector("t", times)
    if all(type(t) is float or type(t) is int for t in ts):
        if min(ts) < 0:
            raise ValueError(f"t must be >= 0, got {min(ts)!r}")
        return ts
    for t in ts:
        _numbers.check_number("t", t, nonnegative=True)
    return ts


class _Precision:
    """Scoped mpmath precision (``dps + GUARD_DIGITS``); a no-op for float64."""

    def __init__(self, dps: int | None) -> None:
        self._ctx = None if dps is None else mpmath.workdps(dps + GUARD_DIGITS)

    def __enter__(self) -> None:
        if self._ctx is not None:
            self._ctx.__enter__()

    def __exit__(self, *exc: object) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(*exc)


def _converter(dps: int | None) -> Callable[[Number], Any]:
    return _numbers.to_float if dps is None else _numbers.to_mpf


def _dtype(dps: int | None) -> Any:
    return float if dps is None else object


def _round_to(dps: int) -> Callable[[Any], Any]:
    def rnd(z: Any) -> Any:
        with mpmath.workdps(dps):
            return +z

    return rnd


def _sqrt(z: Any, dps: int | None) -> Any:
    return float(np.sqrt(z)) if dps is None else mpmath.sqrt(z)


def _lagrange(p: np.ndarray, q: np.ndarray, block: int = 512) -> Any:
    """``sum_{i<j} (p_i q_j - p_j q_i)^2`` (Lagrange's identity: ``|p|^2 |q|^2 - (p.q)^2``
    without its cancellation when ``p`` and ``q`` are nearly parallel), in row blocks."""
    total = 0 * p[0]
    for start in range(0, len(p), block):
        pi, qi = p[start : start + block, None], q[start : start + block, None]
        m = pi * q[None, :] - qi * p[None, :]
        total = total + (m * m).sum()
    return total / 2


def _cosine(uv: Any, nu: Any, nv: Any, dps: int | None) -> Any:
    if nu == 0 or nv == 0:
        return float("nan") if dps is None else mpmath.nan
    return uv / nu / nv


@dataclass(frozen=True)
class UnitFlow:
    """Eq. (31) for one hidden unit ``i`` with ``d0`` inputs, the residual
    ``r = f - y`` kept as a symbol: ``du_i/dt = -2 eta_u gamma (w_i . x) r``,
    ``dw_ij/dt = -2 eta_w gamma u_i x_j r``.  (That this is the gradient flow of
    eq. (4) is proved from the loss in :mod:`solvable.theorems`.)"""

    u: sp.Symbol
    w: tuple[sp.Symbol, ...]
    x: tuple[sp.Symbol, ...]
    r: sp.Symbol
    du: sp.Expr
    dw: tuple[sp.Expr, ...]

    def ddt(self, expr: sp.Expr) -> sp.Expr:
        """Time derivative of ``expr(u, w)`` along the flow (chain rule)."""
        out = sp.diff(expr, self.u) * self.du
        for wj, dwj in zip(self.w, self.dw, strict=True):
            out += sp.diff(expr, wj) * dwj
        return out


@functools.cache
def unit_flow(d0: int) -> UnitFlow:
    """The per-unit flow of eq. (31) with input dimension ``d0``."""
    S = symbolic()
    u = sp.Symbol("u_i", real=True)
    w = tuple(sp.Symbol(f"w_i{j}", real=True) for j in range(d0))
    x = tuple(sp.Symbol(f"x_{j}", real=True) for j in range(d0))
    r = sp.Symbol("r", real=True)
    v = sum(wj * xj for wj, xj in zip(w, x, strict=True))
    du = -2 * S.eta_u * S.gamma * v * r
    dw = tuple(-2 * S.eta_w * S.gamma * u * xj * r for xj in x)
    return UnitFlow(u=u, w=w, x=x, r=r, du=du, dw=dw)
