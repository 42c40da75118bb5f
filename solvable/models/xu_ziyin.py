r"""Two-layer linear network on rank-1 data: the exact gradient flow.

Source: Xu & Ziyin, "When Does Feature Learning Happen? Perspective from an
Analytically Solvable Model" (seed ``001_070589003213e0cf.txt``), Section 2.1,
Theorem 1, Proposition 1 and Appendix A.1.

Model and conventions (eqs. (4), (5) of the paper)::

    f(x) = gamma * u^T W x,          L = (f(x) - y)^2            (no factor 1/2)
    du/dt = -eta_u dL/du,            dW/dt = -eta_w dL/dW

with ``u`` of shape ``(d,)``, ``W`` of shape ``(d, d0)``, ``x`` of shape ``(d0,)``.

Conventions that differ from the printed paper (each one is an erratum of this module,
listed by ``solvable errata``):

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
form that is free of cancellation and overflow at every ``t`` in ``[0, oo]`` (early in
``tau = expm1(4Dt)/(2D)``, late in ``s = 1/tau``, which is 0 at ``t = oo``; see
:func:`symbolic`, the ``stable`` expressions, each proved equal to the textbook form, and
their ``t -> oo`` limits, by claims of this module), and covers Theorem 1 (P > 0),
Proposition 1 (P = 0), Q = 0, y = 0 and the saddle P = Q = 0 with one formula.  In float64,
data outside the range where float64 neither overflows nor underflows (see
:data:`SAFE_INPUT`) are evaluated by the same generated evaluators in mpmath and rounded.

This module is the one place of the model: its sympy source (:func:`symbolic`), the
evaluators generated from it (float64 and mpmath), its loss and raw gradient flow
(:func:`loss`, :func:`flow`, the :class:`TwoLayerLinearSystem` that ``numerics.simulate``
integrates), its conservation laws, its named test cases (:data:`CASES`), its claims and
its errata (:data:`MODEL`).
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from sympy.logic.boolalg import ITE, simplify_logic
from sympy.printing.numpy import SciPyPrinter

from solvable._core import numbers as nb
from solvable._core.arrays import ArrayArgs, shape_of, symbolic_sizes
from solvable._core.backends import (
    elementary,
    expm1,
    exprel,
    fill_in_halves,
    generate,
    log1p,
    namespace,
    torch_module,
)
from solvable._core.claims import Erratum, Theorem, Verdict, decide, prove_zero
from solvable._core.conservation import ConservationLaw
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable._core.model import Model, System
from solvable._core.numbers import Number
from solvable._core.tolerance import NOTHING_COMPARED, worst_of

__all__ = [
    "CASES",
    "MODEL",
    "SEED",
    "Case",
    "Setup",
    "State",
    "States",
    "Symbols",
    "Trajectory",
    "TwoLayerLinearSystem",
    "case",
    "closed_form",
    "constants",
    "flow",
    "loss",
    "manifold_condition",
    "network_output",
    "ntk",
    "paper_constants",
    "pq_coordinates",
    "symbolic",
    "unit_flow",
]

SEED = "001_070589003213e0cf.txt"
GUARD_DIGITS = nb.GUARD_DIGITS  # extra working digits of the mpmath closed form
REPORTED = ("P", "Q", "alpha_plus", "alpha_minus", "t_c", "alpha_prime")
"""The constants a :class:`Trajectory` reports (and :func:`constants` returns, less P, Q)."""


# ---------------------------------------------------------------------------
# The model: its one definition, shared by the closed form, the flow and numerics
# ---------------------------------------------------------------------------
def _network_output(u: Any, W: Any, x: Any, gamma: Any) -> Any:
    h = x @ W.swapaxes(-1, -2)  # (..., d) for one input, (..., n, d) for n
    return gamma * (h * (u if x.ndim == 1 else u[..., None, :])).sum(-1)


def _loss(u: Any, W: Any, x: Any, y: Any, gamma: Any) -> Any:
    return (_network_output(u, W, x, gamma) - y) ** 2


def _ntk(u: Any, W: Any, x: Any, eta_u: Any, eta_w: Any, gamma: Any) -> Any:
    v = W @ x
    # gamma * gamma, not gamma**2: a Python float's ** raises OverflowError, * gives inf
    return gamma * gamma * (eta_u * (v * v).sum(-1) + eta_w * (u * u).sum(-1) * (x * x).sum(-1))


# The public functions check their arguments (_core.arrays.ArrayArgs, as kunin's array
# code: a TypeError / ValueError names the argument, a result beyond float64 is refused);
# this module's own code calls the unchecked forms above.
def _weight_args(fn: str, u: Any, W: Any, x: Any, x_ndim: tuple[int, ...]) -> Any:
    """``u`` (..., d), ``W`` (..., d, d0) and ``x`` (d0,) (or (n, d0) where ``x_ndim``
    allows it) of ``fn``, checked."""
    v = ArrayArgs(fn, torch=True)
    u, W = v.array("u", u, min_ndim=1), v.array("W", W, min_ndim=2)
    x = v.array("x", x, min_ndim=1)
    if len(shape_of(x)) not in x_ndim:
        want = " or ".join(f"{k}" for k in x_ndim)
        raise ValueError(f"x must have {want} axes ((d0,) or (n, d0)), got shape {shape_of(x)}")
    v.same("the width d (last axis of u, rows of W)", ("u", u.shape[-1]), ("W", W.shape[-2]))
    v.same("the input dimension d0 (columns of W, last axis of x)",
           ("W", W.shape[-1]), ("x", x.shape[-1]))  # fmt: skip
    v.broadcast(("u without its last axis", u.shape[:-1]),
                ("W without its last two axes", W.shape[:-2]))  # fmt: skip
    return v, u, W, x


def network_output(u: Any, W: Any, x: Any, gamma: Any) -> Any:
    """``f(x) = gamma * u^T W x`` (eq. (4)).

    ``u`` (..., d), ``W`` (..., d, d0), and ``x`` (d0,) (one input: shape (...)) or ``X``
    (n, d0) (the outputs on its rows: shape (..., n)); numpy arrays (float64, or object
    arrays of sympy symbols or ``mpmath.mpf``), nested lists, or torch tensors with leading
    batch axes.  Every argument is checked (``TypeError`` / ``ValueError`` naming it; a
    tensor's values are not read), and a float64 result beyond the float64 range is a
    ``ValueError``."""
    v, u, W, x = _weight_args("network_output", u, W, x, (1, 2))
    return v(_network_output, u, W, x, v.scalar("gamma", gamma))


def loss(u: Any, W: Any, x: Any, y: Any, gamma: Any) -> Any:
    """``L = (gamma u^T W x - y)^2``, eq. (4) (no factor 1/2); arrays as in
    :func:`network_output` (``y`` a number, or an array that broadcasts with the outputs),
    checked as there."""
    v, u, W, x = _weight_args("loss", u, W, x, (1, 2))
    y = v.array("y", y)
    outputs = np.broadcast_shapes(u.shape[:-1], W.shape[:-2]) + tuple(x.shape[:-1])
    v.broadcast(("the outputs", outputs), ("y", shape_of(y)))
    return v(_loss, u, W, x, y, v.scalar("gamma", gamma))


def ntk(u: Any, W: Any, x: Any, eta_u: Any, eta_w: Any, gamma: Any) -> Any:
    r"""Learning-rate-weighted NTK ``K(x, x)`` with ``df/dt = -2 K (f - y)``.

    ``K(x, x) = gamma^2 (eta_u ||W x||^2 + eta_w ||u||^2 ||x||^2)``.  This is eq. (18)
    with the learning rates in their correct places (the paper prints
    ``eta_w W^T W + eta_u ||u||^2 I``; an erratum of this module).  Arrays as in
    :func:`network_output` (one input ``x`` (d0,)), checked as there.
    """
    v, u, W, x = _weight_args("ntk", u, W, x, (1,))
    eta_u, eta_w = v.scalar("eta_u", eta_u), v.scalar("eta_w", eta_w)
    return v(_ntk, u, W, x, eta_u, eta_w, v.scalar("gamma", gamma))


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
    # sum_i p_i(0) q_i(0) (conserved, eq. (36)); alpha_+ and alpha_- as symbols; eq. (14)
    Spq: sp.Symbol
    ap: sp.Symbol
    am: sp.Symbol
    w0: sp.Symbol
    xj: sp.Symbol
    pt: sp.Symbol
    qt: sp.Symbol
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
    ``v = W x``), ``four_pq`` (``4 p_i q_i`` from eq. (35); the text after (21), corrected,
    at ``x = 1``), ``alpha_plus``, ``alpha_minus`` (eq. (12), corrected sign),
    ``t_c`` (eq. (11)), ``xi`` (eq. (10), corrected), ``alpha`` (the bracket of
    eqs. (8)-(9)), ``alpha_roots`` (the same bracket with the symbols ``ap``, ``am`` for
    alpha_+-), ``p_alpha``, ``q_alpha`` (eqs. (8), (9) as functions of ``alpha``), ``p_t``,
    ``q_t`` (eqs. (8), (9)), ``w_t`` (eq. (14), corrected: ``w_ij(t)`` from ``w0 = w_ij(0)``,
    ``xj = x_j`` and ``pt``, ``qt``), ``f`` (eq. (19)), ``zeta`` (eq. (21): the cosine
    between ``u`` and ``W x``, with ``Spq = sum_i p_i(0) q_i(0)``), ``norm_u2``,
    ``norm_w2`` (eq. (25) corrected: ``||u||^2`` and ``||W x||^2 / rho^2``, which is
    ``||w||^2`` for d0 = 1), ``alpha_prime``, ``xi_prime``, ``beta`` (Proposition 1,
    eqs. (45)-(47); ``q_i(t) = q_i(0) sqrt(beta)``), ``ntk`` (eq. (18) corrected, in p/q
    form).

    Keys of ``stable``: ``D_plus``, ``D_minus`` (``D +- B`` without
    cancellation), ``N``, ``M`` (``alpha(t) = (1 + N tau)/(1 + M tau)``,
    ``tau = expm1(4 D t) / (2 D)``, key ``tau``), ``s`` (``1/tau``, 0 at ``t = oo``), ``Es``
    (``e^{4Dt} s``), ``L_N``, ``L_M`` (``log(1 + N tau)``, ``log(1 + M tau)``), ``delta``
    (``alpha - 1``), ``ell`` (``log alpha``: early in ``tau``, late ``log((N + s)/(M + s))``,
    on the manifolds M = 0 / N = 0 ``+-L_N``/``L_M``), ``ell_inf`` (its ``t -> oo`` limit),
    ``residual`` (``f(t) - y``), ``residual_inf`` (its limit), ``u_t``, ``v_t``,
    ``p_t``, ``q_t``, ``alignment`` (eq. (21) as
    ``F / sqrt(F^2 + 4 Lambda)``, ``F_of_f`` gives ``F`` from ``f`` (symbol
    ``f0``)), the reported constants ``alpha_plus``, ``alpha_minus`` (in terms of ``N``,
    ``M``, ``D_plus``, ``D_minus``: their P -> 0 limits included), ``t_c``, ``alpha_prime``
    (``nan`` where ``Q = 0``), ``G`` (``N - M`` from the initial residual).
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
    Spq = sp.Symbol("Sigma_pq", real=True)
    ap_, am_ = sp.symbols("alpha_p alpha_m", nonnegative=True)
    w0, xj, pt, qt = sp.symbols("w0 x_j p_t q_t", real=True)
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
    xi_roots = (1 - ap_) / (1 + am_) * sp.exp(-4 * t * D)
    alpha_roots = (ap_ + xi_roots * am_) / (1 - xi_roots)
    roots = {ap_: ap, am_: am}
    alpha_t = alpha_roots.subs(roots)
    alpha_prime = B / C
    xi_prime = sp.exp(-4 * B * t) / (1 + alpha_prime)
    p_alpha, q_alpha = p0 * sp.sqrt(alpha), q0 / sp.sqrt(alpha)
    sum_pq = (alpha * P + Q / alpha, 2 * Spq / d)  # (alpha P + Q/alpha, (2/d) sum p_i q_i)
    paper = {
        "p": (sp.sqrt(eta_u) * v + sp.sqrt(eta_w) * rho * u) / (2 * rho),
        "q": (sp.sqrt(eta_u) * v - sp.sqrt(eta_w) * rho * u) / (2 * rho),
        "u": (p0 - q0) / sp.sqrt(eta_w),
        "v": rho * (p0 + q0) / sp.sqrt(eta_u),
        "four_pq": eta_u * v**2 / rho**2 - eta_w * u**2,
        "alpha_plus": ap,
        "alpha_minus": am,
        "t_c": 1 / D,
        "xi": xi_roots.subs(roots),
        "alpha": alpha_t,
        "alpha_roots": alpha_roots,
        "p_alpha": p_alpha,
        "q_alpha": q_alpha,
        "p_t": p_alpha.subs(alpha, alpha_t),
        "q_t": q_alpha.subs(alpha, alpha_t),
        "w_t": w0 + (pt - p0 + qt - q0) * xj / (sp.sqrt(eta_u) * rho),
        "f": coefficients["c"] * (P * alpha - Q / alpha),
        "zeta": (alpha * P - Q / alpha) / sp.sqrt(sum_pq[0] ** 2 - sum_pq[1] ** 2),
        "norm_u2": (d * sum_pq[0] - 2 * Spq) / eta_w,
        "norm_w2": (d * sum_pq[0] + 2 * Spq) / eta_u,
        "alpha_prime": alpha_prime,
        "xi_prime": xi_prime,
        "beta": alpha_prime * xi_prime / (1 - xi_prime),
        "ntk": 2 * gamma**2 * rho**2 * d * (P * alpha + Q / alpha),
    }

    # ---- stable forms -------------------------------------------------------
    D_plus = sp.Piecewise((D + B, B >= 0), (4 * A * C / (D - B), True))
    D_minus = sp.Piecewise((D - B, B <= 0), (4 * A * C / (D + B), True))
    # tau = expm1(4Dt)/(2D) = 2t exprel(4Dt) (2t at D = 0), alpha = (1 + N tau)/(1 + M tau).
    # Early (tau <= 1) the forms in tau; late (tau > 1) the same ratios in s = 1/tau =
    # 2D e^{-4Dt}/(-expm1(-4Dt)) (1/(2t) at D = 0), which is 0 at t = oo and neither it nor
    # any rearrangement sympy makes of it (e.g. in a Piecewise condition) overflows:
    # alpha = (N + s)/(M + s).  Es = e^{4Dt} s = 2D/(-expm1(-4Dt)) (s at D = 0).
    tau = 2 * t * exprel(4 * D * t)
    # tau <= 1, written without tau (2t exprel(4Dt) is inf * 0 = nan in numpy at t = oo)
    early = sp.Or(sp.And(D > 0, expm1(4 * D * t) <= 2 * D), sp.And(sp.Eq(D, 0), 2 * t <= 1))
    decay = sp.exp(-4 * D * t)
    s_inv = sp.Piecewise((-2 * D * decay / expm1(-4 * D * t), D > 0), (1 / (2 * t), True))
    Es = sp.Piecewise((-2 * D / expm1(-4 * D * t), D > 0), (s_inv, True))

    def log1p_tau(K: sp.Expr) -> sp.Expr:
        # log(1 + K tau) for K >= 0: late, 4Dt + log(-expm1(-4Dt)) + log((K + s)/(2D)), a sum
        # of terms that do not cancel (K >= 2D where it is used: N when M = 0, M when N = 0)
        return sp.Piecewise(
            (log1p(K * tau), early),
            (4 * D * t + sp.log(-expm1(-4 * D * t)) + sp.log((K + s_inv) / (2 * D)), D > 0),
            (sp.log(2 * t) + sp.log(K + s_inv), True),
        )

    L_N, L_M = log1p_tau(N), log1p_tau(M)
    delta = sp.Piecewise((G * tau / (1 + M * tau), early), (G / (M + s_inv), True))  # alpha - 1
    ell_t = sp.Piecewise(
        (0, sp.Eq(G, 0)),  # f0 = y: alpha = 1 for all t (N = M)
        (-L_M, sp.Eq(N, 0)),  # Q = 0, y <= 0: alpha = 1/(1 + M tau) -> 0
        (L_N, sp.Eq(M, 0)),  # P = 0, y >= 0: alpha = 1 + N tau -> oo (into the saddle)
        (log1p(delta), sp.Abs(delta) <= half),
        (sp.log((1 + N * tau) / (1 + M * tau)), early),
        (sp.log((N + s_inv) / (M + s_inv)), True),
    )
    # t -> oo (claim stable_limits): alpha -> N/M, or 0 / oo on the manifolds Q = 0 / P = 0
    ell_inf = sp.Piecewise(
        (0, sp.Eq(G, 0)), (-sp.oo, sp.Eq(N, 0)), (sp.oo, sp.Eq(M, 0)), (sp.log(N / M), True)
    )
    # f - y = (f0 - y) e^{4Dt}/((1 + N tau)(1 + M tau)); late: (f0 - y) Es s/((N + s)(M + s))
    residual = sp.Piecewise(
        (0, sp.Eq(f0, y)),
        ((f0 - y) * sp.exp(4 * D * t) / ((1 + N * tau) * (1 + M * tau)), early),
        ((f0 - y) * Es / (N + s_inv), sp.Eq(M, 0)),
        ((f0 - y) * Es / (M + s_inv), sp.Eq(N, 0)),
        ((f0 - y) * Es * s_inv / ((N + s_inv) * (M + s_inv)), True),
    )
    residual_inf = sp.Piecewise(
        (0, sp.Eq(f0, y)),
        ((f0 - y) * 2 * D / N, sp.Eq(M, 0)),
        ((f0 - y) * 2 * D / M, sp.Eq(N, 0)),
        (0, True),
    )
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
        # the reported constants: alpha_+ = N/M is (B + D)/(2A) for P > 0 and its P -> 0
        # limit C/|B| (y < 0) or oo (y >= 0) for P = 0; alpha_- likewise (2C/D_plus: the
        # P -> 0 limit C/B = 1/alpha' for y > 0)
        "alpha_plus": sp.Piecewise((N / M, M > 0), (sp.oo, True)),
        "alpha_minus": sp.Piecewise(
            (D_minus / (2 * A), A > 0), (2 * C / D_plus, D_plus > 0), (sp.oo, True)
        ),
        "t_c": sp.Piecewise((1 / D, D > 0), (sp.oo, True)),
        "alpha_prime": sp.Piecewise((alpha_prime, C > 0), (sp.nan, True)),
        "tau": tau,
        "s": s_inv,
        "Es": Es,
        "L_N": L_N,
        "L_M": L_M,
        "delta": delta,
        "ell": ell_t,
        "ell_inf": ell_inf,
        "residual": residual,
        "residual_inf": residual_inf,
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
        # representable; for y = 0, f = f0 exp(...) keeps the sign of f0 = c (P - Q), and on
        # the manifolds P = 0 / Q = 0 (also at t = oo, ell = +-oo) so does sign(P - Q); else
        # (flow into the saddle, ell -> +-oo) sign(F) = sign(ell - log(Q/P)/2).
        # 0/0 (u = 0 or W x = 0) gives nan.
        "alignment": sp.Piecewise(
            (sp.sign(F), sp.And(sp.Eq(Lam, 0), sp.Ne(F, 0))),
            (
                (P - Q) / sp.Abs(P - Q),
                sp.And(sp.Eq(Lam, 0), sp.Or(sp.Eq(y, 0), sp.Eq(P, 0), sp.Eq(Q, 0))),
            ),
            (sp.sign(ell - (sp.log(Q) - sp.log(P)) / 2), sp.Eq(Lam, 0)),
            (F / sp.sqrt(F**2 + 4 * Lam), True),
        ),
    }
    return Symbols(
        eta_u=eta_u, eta_w=eta_w, gamma=gamma, rho=rho, y=y, d=d, P=P, Q=Q, t=t,
        u=u, v=v, p0=p0, q0=q0, u0=u0, v0=v0, ell=ell, alpha=alpha,
        A=A, B=B, C=C, D=D, G=G, N=N, M=M, f0=f0, F=F, Lam=Lam, Sp=Sp, Sq=Sq, R=R,
        Spq=Spq, ap=ap_, am=am_, w0=w0, xj=xj, pt=pt, qt=qt,
        coefficients=coefficients, paper=paper, stable=stable,
    )  # fmt: skip


# ---------------------------------------------------------------------------
# The raw gradient flow (derived from the loss) and its conservation laws
# ---------------------------------------------------------------------------
def flow(d: int, d0: int) -> GradientFlow:
    """Eqs. (4)-(5): the gradient flow of :func:`loss` for ``d`` hidden units and ``d0``
    inputs, rates ``eta_u``, ``eta_w``; parameters ``(eta_u, eta_w, gamma, y, x_0, ...)``.
    ``d, d0 >= 1`` with at most ``MAX_SYMBOLIC_ENTRIES`` symbolic entries (see
    :mod:`solvable.models.mirror_flow`).  Cached per size."""
    sizes = symbolic_sizes("flow", lambda d, d0: d * d0 + d + d0, d=d, d0=d0)
    return _flow(sizes["d"], sizes["d0"])


@functools.cache
def _flow(d: int, d0: int) -> GradientFlow:
    S = symbolic()
    x = symbol_array("x", (d0,), real=True)
    return gradient_flow(
        lambda u, W: _loss(u, W, x, S.y, S.gamma),
        {"u": ((d,), S.eta_u), "W": ((d, d0), S.eta_w)},
        (S.eta_u, S.eta_w, S.gamma, S.y, *x),
    )


flow.cache_clear = _flow.cache_clear  # type: ignore[attr-defined]  # (benchmarks)


def laws() -> tuple[ConservationLaw, ...]:
    """Eqs. (32)-(38) and the Lagrange form of (23), each proved conserved along the full
    flow with ``d = 2`` hidden units, ``d0 = 3`` inputs and ``eta_u != eta_w``."""
    S = symbolic()
    d, d0 = 2, 3
    F = flow(d, d0)
    name = f"xu_ziyin gradient flow, d = {d}, d0 = {d0}"
    u, W = F.block("u"), F.block("W")
    x = np.array(F.params[4 : 4 + d0], dtype=object)
    rho = sp.sqrt((x * x).sum())
    v = W @ x
    p = [S.paper["p"].subs({S.rho: rho, S.u: u[i], S.v: v[i]}) for i in range(d)]
    q = [S.paper["q"].subs({S.rho: rho, S.u: u[i], S.v: v[i]}) for i in range(d)]
    w0 = W[0]

    def law(id_: str, eqs: str, statement: str, expr: sp.Expr) -> ConservationLaw:
        return ConservationLaw(f"xu_ziyin.{id_}", f"{SEED} {eqs}", statement, expr, F, name)

    return (
        law("eq_32", "eq. (32)", "eta_u ||w_i||^2 - eta_w u_i^2 is conserved.",
            S.eta_u * (w0 * w0).sum() - S.eta_w * u[0] ** 2),
        law("eq_33", "eq. (33)", "w_ij/x_j - w_ij'/x_j' is conserved (x_j, x_j' != 0).",
            w0[0] / x[0] - w0[1] / x[1]),
        law("eq_34", "eq. (34)", "||w_i||^2 - (w_i.x)^2/||x||^2 is conserved.",
            (w0 * w0).sum() - v[0] ** 2 / rho**2),
        law("eq_36", "eqs. (35), (36)", "p_i q_i is conserved (rho = ||x||).", p[0] * q[0]),
        law("eq_38", "eq. (38)", "p_i / p_i' is conserved.", p[0] / p[1]),
        law("q_ratio", "eqs. (36), (38)", "q_i / q_i' is conserved (from (36) and (38)).",
            q[0] / q[1]),
        law("lagrange", "eqs. (21), (23)",
            "p_i q_i' - p_i' q_i is conserved (so is 4PQ - (2/d sum p_i q_i)^2 of (23)).",
            p[0] * q[1] - p[1] * q[0]),
    )  # fmt: skip


# ---------------------------------------------------------------------------
# Generated evaluators
# ---------------------------------------------------------------------------
Backend = str  # "numpy" | "mpmath"


class _Evaluators:
    """The generated evaluators of one backend (:func:`_evaluators`), each generated from
    its sympy source (:func:`_sources`) on its first use and kept: a float64 closed form
    that is only constructed never prints the evaluators it does not call (``ell`` alone
    takes seconds to print), and each set is printed at most once per process."""

    def __init__(self, backend: Backend, lazy: bool) -> None:
        self._backend = backend
        self._lazy = lazy

    # the names of :func:`_sources`, for type checkers (each set on first use)
    constants: Callable[..., tuple[Any, ...]]
    reported: Callable[..., tuple[Any, ...]]
    ell: Callable[..., Any]
    residual: Callable[..., Any]
    p: Callable[..., Any]
    q: Callable[..., Any]
    neuron: Callable[..., tuple[Any, Any]]
    pq: Callable[..., tuple[Any, Any]]
    alignment: Callable[..., Any]
    f: Callable[..., Any]
    ntk: Callable[..., Any]

    def __getattr__(self, name: str) -> Callable[..., Any]:
        # called only for a name not generated yet
        sources = _sources()
        if name.startswith("_") or name not in sources:
            raise AttributeError(name)
        args, expr, elementwise = sources[name]
        if self._lazy:
            fn = generate(args, expr, "numpy", printer=_lazy_printer(),
                          extra={"lazy_select": _lazy_select})  # fmt: skip
        else:
            # mpmath: mapped over object arrays; 0/0 of an undefined quantity gives nan
            fn = generate(args, expr, self._backend, elementwise=elementwise)
        setattr(self, name, fn)
        return fn


@functools.cache
def _sources() -> dict[str, tuple[tuple[sp.Symbol, ...], Any, bool]]:
    """name -> (arguments, sympy expression(s), mapped elementwise in mpmath) of every
    evaluator of the closed form: the one list both :func:`_evaluators` sets print."""
    S = symbolic()
    co, st = S.coefficients, S.stable
    # stage 1: scalar constants from (eta_u, eta_w, gamma, rho, y, d, P, Q, f0)
    params = (S.eta_u, S.eta_w, S.gamma, S.rho, S.y, S.d, S.P, S.Q, S.f0)
    subs_abc = {S.A: co["A"], S.B: co["B"], S.C: co["C"]}
    Dx = co["D"].subs(subs_abc)
    abcd = {**subs_abc, S.D: Dx}
    const_exprs = (
        co["A"], co["B"], co["C"], Dx, co["G"], st["N"].subs(abcd), st["M"].subs(abcd)
    )  # fmt: skip
    sums = (S.Sp, S.Sq, S.R, S.y, S.gamma, S.rho, S.eta_u, S.eta_w)
    align_args = (S.f0, S.Lam, S.ell, S.P, S.Q, S.y, S.eta_u, S.eta_w, S.gamma, S.rho)
    neuron_args = (S.u0, S.v0, S.p0, S.q0, S.ell, S.eta_u, S.eta_w, S.rho)
    return {
        "constants": (params, const_exprs, False),
        # the reported constants (alpha_+, alpha_-, t_c, alpha') from the same eight scalars
        "reported": (params[:-1], _reported_exprs(abcd), False),
        "ell": ((S.D, S.G, S.N, S.M, S.t), st["ell"], True),
        "residual": ((S.D, S.N, S.M, S.f0, S.y, S.t), st["residual"], True),
        "p": ((S.p0, S.ell), st["p_t"], True),
        "q": ((S.q0, S.ell), st["q_t"], True),
        "neuron": (neuron_args, (st["u_t"], st["v_t"]), True),
        "pq": ((S.u, S.v, S.eta_u, S.eta_w, S.rho), (S.paper["p"], S.paper["q"]), True),
        "alignment": (align_args, st["alignment"].subs(S.F, st["F_of_f"]), True),
        "f": (sums, st["f"], True),
        "ntk": ((S.Sp, S.Sq, S.gamma, S.rho), st["ntk"], True),
    }


@functools.cache
def _evaluators(backend: Backend) -> _Evaluators:
    """The evaluators of :func:`_sources` for ``backend`` (``"numpy"``: float64 through
    ``numpy.select``, the reference path of :meth:`Trajectory.sample`; ``"mpmath"``)."""
    return _Evaluators(backend, lazy=False)


@functools.cache
def _lazy_evaluators() -> _Evaluators:
    """The float64 evaluators of :func:`_sources` printed by :func:`_lazy_printer`: the same
    arithmetic as ``_evaluators("numpy")``, a piece of a Piecewise evaluated only where it
    applies (the fast path of :meth:`Trajectory.sample`)."""
    return _Evaluators("numpy", lazy=True)


class _LazyPiecewisePrinter(SciPyPrinter):
    """The printer :func:`sympy.lambdify` uses for the numpy backend (modules ``scipy``,
    ``numpy``: ``SciPyPrinter``), except for ``Piecewise``: ``numpy.select`` there, which
    evaluates every piece on the whole argument, and here
    ``lazy_select((lambda: cond, lambda: piece), ...)`` (:func:`_lazy_select`), which
    evaluates a piece only if its condition holds somewhere that no earlier one does.
    Everything else, each piece and each condition included, prints as lambdify prints it,
    so the arithmetic of a value is the same operations in the same order."""

    def _print_Piecewise(self, expr: sp.Piecewise) -> str:
        def cond(c: Any) -> str:  # as NumPyPrinter._print_Piecewise prints a condition
            return self._print(simplify_logic(c) if c.has(ITE) else c)

        pairs = (f"(lambda: {cond(a.cond)}, lambda: {self._print(a.expr)})" for a in expr.args)
        return f"lazy_select({', '.join(pairs)})"


@functools.cache
def _lazy_printer() -> _LazyPiecewisePrinter:
    # lambdify's own settings for the numpy namespace (names of the namespace printed as
    # themselves), plus lazy_select
    names = [*namespace("numpy")[0], "lazy_select"]
    return _LazyPiecewisePrinter({
        "fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True,
        "user_functions": {n: n for n in names},
    })  # fmt: skip


def _lazy_select(*pairs: tuple[Callable[[], Any], Callable[[], Any]]) -> Any:
    """A Piecewise of ``(condition, piece)`` thunks, first true condition wins (``nan`` where
    none holds), as ``numpy.select``; a condition false everywhere skips its piece without
    evaluating it, and one true everywhere (e.g. ``p0 == 0`` on an index set where it holds,
    ``D > 0`` for a trajectory) ends the list.  If the first condition that holds anywhere
    holds everywhere, the value is that piece's, unbroadcast (a scalar piece stays a
    scalar: the caller broadcasts); where the conditions vary over the arguments, the pieces
    that apply somewhere are evaluated on the whole arguments and selected elementwise."""
    conds: list[np.ndarray] = []
    pieces: list[Any] = []
    for cond, piece in pairs:
        c = np.asarray(cond())
        if c.dtype != bool:  # a boolean-valued nested Piecewise gives 0.0 / 1.0
            c = c.astype(bool)
        if not c.any():
            continue
        everywhere = bool(c.all())
        if everywhere and not conds:
            return piece()
        conds.append(c)
        pieces.append(piece())
        if everywhere:
            break
    if not conds:
        return np.nan
    arrays = np.broadcast_arrays(*conds, *(np.asarray(a) for a in pieces))
    return np.select(arrays[: len(conds)], arrays[len(conds) :], default=np.nan)


def _reported_exprs(abcd: Mapping[sp.Symbol, sp.Expr]) -> tuple[sp.Expr, ...]:
    """``stable["alpha_plus"]``, ``["alpha_minus"]``, ``["t_c"]``, ``["alpha_prime"]`` in the
    eight scalars ``(eta_u, eta_w, gamma, rho, y, d, P, Q)`` (``abcd``: A, B, C, D as
    expressions of them)."""
    S = symbolic()
    st = S.stable
    nm = {S.N: st["N"], S.M: st["M"]}
    return tuple(st[k].subs(nm).subs(abcd) for k in REPORTED[2:])


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
        set_(self, "eta_u", nb.check_number("eta_u", self.eta_u, positive=True))
        set_(self, "eta_w", nb.check_number("eta_w", self.eta_w, positive=True))
        set_(self, "gamma", nb.check_number("gamma", self.gamma, positive=True))
        set_(self, "y", nb.check_number("y", self.y))
        x = nb.check_vector("x", self.x)
        with mpmath.workdps(50):
            if all(nb.to_mpf(xi) == 0 for xi in x):
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
    @nb.mpmath_in_mpmath_out
    def from_weights(cls, setup: Setup, t: Any, u: Any, W: Any, *, dps: int | None = None) -> State:
        """Measure ``f``, alignment and NTK directly from the weights ``u`` (d,), ``W`` (d,
        d0) at the time ``t`` (``0 <= t <= inf``), no closed form: float64 (``dps=None``;
        a measure beyond the float64 range is a ``ValueError``) or mpmath at ``dps``
        digits."""
        if not isinstance(setup, Setup):
            raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
        (t,) = _check_times([t], "t")
        uc, Wc = _check_weights(setup, u, W, ("u", "W"))
        dps = nb.check_dps(dps)
        with nb.Precision(dps):
            cu, cW = nb.converter(dps, "u"), nb.converter(dps, "W")
            uu = np.array([cu(v) for v in uc], dtype=nb.dtype(dps))
            WW = np.array([[cW(v) for v in row] for row in Wc], dtype=nb.dtype(dps))
        with np.errstate(all="ignore"):
            st = cls._measure(setup, t, uu, WW, dps)
        if dps is None and not all(math.isfinite(z) for z in (st.f, st.ntk)):
            raise ValueError(
                f"the output f = {st.f!r} or the NTK = {st.ntk!r} is beyond the float64 range "
                "for these weights u, W (and setup): rescale them or pass dps=k (mpmath)"
            )
        return st

    @classmethod
    def _measure(cls, setup: Setup, t: Any, u: Any, W: Any, dps: int | None) -> State:
        """:meth:`from_weights` on checked weights (arrays of float64 or ``mpf``)."""
        conv = nb.converter(dps)
        with nb.Precision(dps):
            x = np.array([conv(v) for v in setup.x], dtype=nb.dtype(dps))
            g, eu, ew = conv(setup.gamma), conv(setup.eta_u), conv(setup.eta_w)
            u = np.asarray(u, dtype=nb.dtype(dps))
            W = np.asarray(W, dtype=nb.dtype(dps))
            v = np.array(W @ x, dtype=nb.dtype(dps))
            f = _network_output(u, W, x, g)
            nu, nv = _sqrt(_dot(u, u), dps), _sqrt(_dot(v, v), dps)
            align = _cosine(f / g, nu, nv, dps)
            return cls(t=t, u=u, W=W, f=f, alignment=align, ntk=_ntk(u, W, x, eu, ew, g))


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

    @classmethod
    def empty(cls, n_times: int, d: int, d0: int) -> States:
        """Uninitialised float64 arrays for ``n_times`` states of a width-``d`` network with
        ``d0`` inputs: the ``out=`` of :meth:`Trajectory.sample` (``t``, ``f``,
        ``alignment``, ``ntk``, ``alpha`` of shape ``(n_times,)``, ``u`` ``(n_times, d)``,
        ``W`` ``(n_times, d, d0)``), to be filled again and again without allocating.

        Parameters
        ----------
        n_times, d, d0 : int
            Number of times, hidden width and input dimension, each ``>= 1``.

        Returns
        -------
        States
            Arrays of the shapes above, C-contiguous, contents undefined.
        """
        n_times, d, d0 = (nb.check_int(k, v) for k, v in (("n_times", n_times), ("d", d),
                                                           ("d0", d0)))  # fmt: skip
        try:
            return cls(**{k: np.empty(shape) for k, shape in _shapes(n_times, d, d0).items()})
        except (ValueError, MemoryError) as exc:  # numpy: too big for the address space / RAM
            raise ValueError(
                f"States.empty(n_times={n_times}, d={d}, d0={d0}): the arrays (n_times d d0 = "
                f"{n_times * d * d0:.3g} entries of W) cannot be allocated ({exc})"
            ) from None


def _shapes(n: int, d: int, d0: int) -> dict[str, tuple[int, ...]]:
    """The shape of each field of :class:`States` for ``n`` times, width ``d``, ``d0``
    inputs."""
    return {"t": (n,), "u": (n, d), "W": (n, d, d0), "f": (n,), "alignment": (n,),
            "ntk": (n,), "alpha": (n,)}  # fmt: skip


@dataclass(frozen=True)
class Trajectory:
    """Exact solution from one initialisation (Theorem 1 / Proposition 1).

    Attributes (corrected conventions, see the module docstring):
    ``P``, ``Q`` (eq. (7)); ``alpha_plus = lim alpha(t)`` (eq. (12) when P > 0;
    ``inf`` when P = 0 and y >= 0, ``C/|B| = 1/|alpha'|`` when P = 0 and y < 0);
    ``alpha_minus = (D - B)/(2A) >= 0`` (its P -> 0 limit ``2C/(D + B)`` when
    P = 0); ``t_c = 1/D`` (eq. (11); ``inf`` when D = 0, i.e. y = 0 and PQ = 0);
    ``alpha_prime = B/C`` (eq. (47), only when P = 0 and Q > 0, else ``None``).  All from
    the generated evaluator of ``symbolic().stable`` (see :func:`constants`); floats for
    float64, ``mpf`` rounded to ``dps`` digits otherwise.
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
        """The state at time ``t``: ``0 <= t <= inf`` (``float("inf")``, ``mpmath.inf`` or
        ``"inf"``: the limit state, e.g. the saddle for P = 0 < y)."""
        return self._sample(_check_times([t], "t"), None, "fast")[0]

    def sample(self, times: Any, *, out: States | None = None, engine: str = "fast") -> States:
        """The states at many times (vectorised over ``times``; each ``0 <= t <= inf``).

        float64 (``dps=None``): where the setup and the initial weights lie in the range
        where float64 arithmetic neither overflows nor underflows (see :func:`closed_form`),
        the generated numpy evaluators; otherwise the mpmath evaluators at
        ``EXTENDED_DPS`` digits (no exponent range), rounded to float64.  A state component
        beyond the float64 range raises ``ValueError``.

        Parameters
        ----------
        times : float or sequence of float
            The times, each ``>= 0`` (``inf``: the limit state).
        out : States, optional
            float64 only: preallocated arrays (e.g. :meth:`States.empty`) of the shapes
            ``(T,)``, ``(T, d)``, ``(T, d, d0)``, dtype float64 and C-contiguous,
            ``T = len(times)``, no two fields sharing memory; filled and returned (no output
            is allocated).
        engine : {"fast", "reference"}
            float64 only (an mpmath trajectory has one path).  ``"fast"``: blocks of times
            (:data:`SAMPLE_BLOCK`) written straight into the output, every Piecewise
            evaluating only the pieces that apply (decided once per trajectory, per index
            set of units and per block of times); ``"reference"``: the whole arrays at once
            through ``numpy.select`` (every piece everywhere).  The same operations on the
            same numbers: the two agree bit for bit.

        Returns
        -------
        States
            ``out`` filled, or new arrays (float64, or mpmath object arrays for
            ``dps=k``).
        """
        return self._sample(_check_times(times, "times"), out, _check_engine(engine))

    def _sample(self, ts: tuple[Number, ...], out: States | None, engine: str) -> States:
        """:meth:`sample` at the checked times ``ts``."""
        if self.dps is not None:
            if out is not None:
                raise ValueError(
                    f"out= is for a float64 trajectory (closed_form(..., dps=None)); this one "
                    f"has dps={self.dps} (mpmath object arrays): leave out out"
                )
            return self._evaluate(ts, self._data["work_dps"])
        d, d0 = self.W0.shape
        if out is not None:
            _check_out(out, len(ts), d, d0)
        if self._data["work_dps"] is None:
            if engine == "fast":
                target = States.empty(len(ts), d, d0) if out is None else out
                if self._fill(_float_times(ts), target):
                    return target
            states = self._evaluate(ts, None)
            bad = np.flatnonzero(~_finite_rows(states))
            if bad.size:  # a float64 overflow the range check did not foresee: those times
                # (only) without one, so each time's state is the one it has sampled alone
                redone = _to_float64(self._extended()._evaluate(tuple(ts[i] for i in bad),
                                                                 EXTENDED_DPS))  # fmt: skip
                for name in _shapes(1, 1, 1):
                    getattr(states, name)[bad] = getattr(redone, name)
            return _copied(states, out)
        return _copied(_to_float64(self._evaluate(ts, self._data["work_dps"])), out)

    def _fill(self, tt: np.ndarray, out: States) -> bool:
        """The float64 states at the times ``tt`` written into ``out`` (checked shapes): the
        arithmetic of :meth:`_evaluate` (``dps=None``) in blocks of :data:`SAMPLE_BLOCK`
        elements of W.  The functions of time alone (ell, the residual, then f, the NTK, the
        alignment, alpha) on the whole ``(T,)`` vector once; u, p, q, v (``(T, d)``) and W
        per block of times, each unit's pieces chosen once per index set (the units where
        ``p_i(0) = 0``, ...) and per block (``|ell| <= 1``).  ``False`` (``out`` partly
        written) where u, W, f or the NTK is not finite: the caller evaluates in mpmath."""
        ev = _lazy_evaluators()
        k = self._data
        T, d = len(tt), len(k["u0"])
        x, x2, W_perp = k["x"], k["x2"], k["W_perp"]
        eta_u, eta_w, rho, gamma, y = (k[n] for n in ("eta_u", "eta_w", "rho", "gamma", "y"))
        d0 = len(x)
        # times per block (at least one): of the (T, d) arrays, and of W (T, d, d0)
        n_b, n_w = max(1, SAMPLE_BLOCK // d), max(1, SAMPLE_BLOCK // (d * d0))
        np.copyto(out.t, tt)
        with np.errstate(all="ignore"):
            ell = _full(ev.ell(k["D"], k["G"], k["N"], k["M"], tt), T)
            r = ev.residual(k["D"], k["N"], k["M"], k["f0"], k["y"], tt)
            # index sets of units on which every per-unit condition (p_i(0) = 0, ...) is
            # constant, with the units' arguments as the reference path broadcasts them
            unit_args = (k["u0"], k["v0"], k["p0"], k["q0"])
            units = [
                (cols, *(a[None, cols] for a in unit_args))
                for cols in _uniform_sets([c(*unit_args) for c in _conditions("units")], d)
            ]  # fmt: skip
            # the same for times: a code per time of the time conditions (|ell| <= 1)
            time_code = _condition_code([c(ell) for c in _conditions("times")], T)
            sp2, sq2 = np.empty(T), np.empty(T)
            wp_max, x_max = float(np.max(np.abs(W_perp))), float(np.max(np.abs(x)))
            W_flat, W_perp_flat = out.W.reshape(T, d * d0), W_perp.reshape(d * d0)
            unit_of, x_tiled = np.repeat(np.arange(d), d0), np.tile(x, d)

            def blocks(start: int, stop: int) -> bool:
                """The blocks of times ``start:stop`` (a multiple of ``n_b`` apart), with
                their own scratch; False where u or W is not finite."""
                p_b, q_b, v_b = np.empty((n_b, d)), np.empty((n_b, d)), np.empty((n_b, d))
                for b0 in range(start, stop, n_b):
                    b1 = min(b0 + n_b, stop)
                    n = b1 - b0
                    L = ell[b0:b1, None]
                    p, q, u, v = p_b[:n], q_b[:n], out.u[b0:b1], v_b[:n]
                    code = time_code[b0:b1]
                    times = [slice(None)] if code[0] == code[-1] and (code == code[0]).all() \
                        else [np.flatnonzero(code == c) for c in np.unique(code)]  # fmt: skip
                    for cols, u0, v0, p0, q0 in units:
                        p[:, cols] = ev.p(p0, L)
                        q[:, cols] = ev.q(q0, L)
                        for rows in times:
                            at = _cross(rows, cols, n, d)
                            u[at], v[at] = ev.neuron(u0, v0, p0, q0, L[rows], eta_u, eta_w, rho)
                    np.multiply(p, p, out=p)
                    p.sum(axis=1, out=sp2[b0:b1])
                    np.multiply(q, q, out=q)
                    q.sum(axis=1, out=sq2[b0:b1])
                    if not math.isfinite(max(u.max(), -u.min())):  # max and min propagate nan
                        return False
                    # eq. (14) as in _evaluate: W(t) = W_perp + (v(t) / |x|^2) x^T, in place in
                    # the output seen as (T, d d0), so that each operation runs along d d0
                    # numbers (broadcasting v against x would loop over runs of d0)
                    np.divide(v, x2, out=v)
                    # |W_ij| <= (max|W_perp| + max|v/|x|^2| max|x|)(1 + 2^-52): below 1e308
                    # every entry is finite (float64's largest is 1.8e308); else look at each
                    bounded = wp_max + max(v.max(), -v.min()) * x_max <= 1e308
                    for w0 in range(0, n, n_w):
                        W = W_flat[b0 + w0 : b0 + min(w0 + n_w, n)]
                        np.take(v[w0 : w0 + n_w], unit_of, axis=1, out=W)  # v_i, d0 times
                        np.multiply(W, x_tiled, out=W)
                        np.add(W_perp_flat, W, out=W)
                        if not (bounded or np.isfinite(W).all()):
                            return False
                return True

            _ = ev.p, ev.q, ev.neuron  # generated here, not by two threads at once
            finite = all(fill_in_halves(blocks, T, n_b, T * d * d0, PARALLEL_SAMPLE))
            if not finite:
                return False
            f = ev.f(sp2, sq2, r, y, gamma, rho, eta_u, eta_w)
            K = ev.ntk(sp2, sq2, gamma, rho)
            align = ev.alignment(f, k["Lam"], ell, k["P"], k["Q"], y, eta_u, eta_w, gamma, rho)
            np.copyto(out.f, f)
            np.copyto(out.ntk, K)
            np.copyto(out.alignment, align)
            np.exp(ell, out=out.alpha)
        return bool(np.isfinite(out.f).all() and np.isfinite(out.ntk).all())

    def _extended(self) -> Trajectory:
        """This trajectory evaluated with mpmath at ``EXTENDED_DPS`` digits."""
        u0c, W0c = self._data["given"]
        return closed_form(self.setup, u0c, W0c, dps=EXTENDED_DPS)

    def _evaluate(self, ts: tuple[Number, ...], dps: int | None) -> States:
        ev = _evaluators("numpy" if dps is None else "mpmath")
        k = self._data
        conv = nb.converter(dps, "t")
        with nb.Precision(dps):
            tt = np.array([conv(t) for t in ts], dtype=nb.dtype(dps))
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


EXTENDED_DPS = 17
"""Digits (plus ``GUARD_DIGITS``) at which a float64 closed form whose data lie outside the
float64-safe range is evaluated with mpmath (unbounded exponent), then rounded to float64."""
SAFE_INPUT = 2.0**250
"""float64 direct evaluation needs every non-zero input, ``v = W x``, ``p_i``, ``q_i`` in
``[1/SAFE_INPUT, SAFE_INPUT]`` and every derived scalar (``rho``, ``P``, ``Q``, ``A``, ``B``,
``C``, ``D``, ``N``, ``M``, ``G``, ``f0``, Lambda) in ``[SAFE_INPUT**-2, SAFE_INPUT**2]``:
then the products the evaluators form (``4AC``, ``B^2``, ``p_i^2``, ``N/M``, ``exp(ell/2)
p_i``) stay in float64's normal range."""


PARALLEL_SAMPLE = 2**22
"""The float64 :meth:`Trajectory.sample` fills the two halves of its times in two threads
where each half holds at least this many entries of W (32 MiB): below it the threads'
start costs more than they save.  Measured on the 2-core EPYC (issue 17,
``python benchmarks/closed_form_scale.py --only xu_ziyin``)."""

SAMPLE_BLOCK = 2**17
"""Elements per block of times of the float64 :meth:`Trajectory.sample` (at least one time
per block), for W and for each ``(times, d)`` array (u, v, p, q) alike: 1 MiB of float64,
the size of one core's L2 cache here (AMD EPYC, 1 MiB L2 per core), so that a block of W
written into the output is still in cache when ``W_perp`` is added to it.  The ``(times,
d)`` blocks are ``d0`` times longer in time than W's (the per-block Python cost of the
generated evaluators is then paid ``d0`` times less often)."""
ENGINES = ("fast", "reference")
"""The paths of the float64 :meth:`Trajectory.sample` (same arithmetic, same result)."""


def _check_engine(engine: Any) -> str:
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    return engine


def _check_out(out: Any, n: int, d: int, d0: int) -> None:
    """``out`` of :meth:`Trajectory.sample`: a :class:`States` of writeable float64 arrays
    of the shapes of ``n`` states (:func:`_shapes`) that share no memory."""
    if not isinstance(out, States):
        raise TypeError(
            "out must be a xu_ziyin.States of float64 arrays (e.g. States.empty(len(times), "
            f"{d}, {d0})), got {type(out).__name__}"
        )
    nb.check_output_arrays(out, _shapes(n, d, d0), contiguous=True,
                           sizes=f" (len(times) = {n}, d = {d}, d0 = {d0})")  # fmt: skip


def _finite_rows(states: States) -> np.ndarray:
    """``(T,)``: whether u, W, f and the NTK are finite at each time."""
    T = len(states.t)
    rows = [np.isfinite(np.reshape(getattr(states, n), (T, -1))).all(axis=1)
            for n in ("u", "W", "f", "ntk")]  # fmt: skip
    return np.logical_and.reduce(rows)


def _copied(states: States, out: States | None) -> States:
    """``states``, or ``out`` (checked shapes) with ``states`` copied into it."""
    if out is None:
        return states
    for name in _shapes(1, 1, 1):
        np.copyto(getattr(out, name), getattr(states, name))
    return out


def _float_times(ts: tuple[Number, ...]) -> np.ndarray:
    """The checked times as float64, as :meth:`Trajectory._evaluate` converts them."""
    if all(type(t) is float for t in ts):
        return np.fromiter(ts, dtype=float, count=len(ts))
    conv = nb.converter(None, "t")
    return np.array([conv(t) for t in ts], dtype=float)


def _full(a: Any, n: int) -> np.ndarray:
    """A function of time as a float64 ``(n,)`` array (a lazy Piecewise whose one piece is
    a constant returns the scalar)."""
    return np.broadcast_to(np.asarray(a, dtype=float), (n,))


@functools.cache
def _conditions(kind: str) -> tuple[Callable[..., Any], ...]:
    """The generated numpy evaluators of the Piecewise conditions of the per-unit
    evaluators (``p``, ``q``, ``neuron``) that depend on the units alone (``kind="units"``:
    arguments ``(u0, v0, p0, q0)``, e.g. ``p0 == 0``) or on ``ell`` alone (``"times"``:
    argument ``ell``, e.g. ``|ell| <= 1``): the fast path groups units and times by their
    values, so that within a group each condition is constant and :func:`_lazy_select`
    evaluates one piece.  A condition of any other kind is left to ``_lazy_select``."""
    S = symbolic()
    args = {"units": (S.u0, S.v0, S.p0, S.q0), "times": (S.ell,)}[kind]
    sources = _sources()
    found: list[Any] = []
    for name in ("p", "q", "neuron"):
        exprs = sources[name][1]
        for e in exprs if isinstance(exprs, tuple) else (exprs,):
            for pw in e.atoms(sp.Piecewise):
                for _piece, c in pw.args:
                    free = c.free_symbols
                    if free and free <= set(args) and c not in found:
                        found.append(c)
    found.sort(key=sp.default_sort_key)
    return tuple(generate(args, c, "numpy") for c in found)


def _condition_code(values: list[Any], n: int) -> np.ndarray:
    """One integer per element of a length-``n`` axis: bit ``j`` is condition ``j``."""
    code = np.zeros(n, dtype=np.int64)
    for j, c in enumerate(values):
        code |= np.broadcast_to(np.asarray(c, dtype=bool).ravel(), (n,)).astype(np.int64) << j
    return code


def _uniform_sets(values: list[Any], n: int) -> list[Any]:
    """The index sets of a length-``n`` axis on which every condition is constant:
    ``[slice(None)]`` when there is one (the usual case), else index arrays."""
    code = _condition_code(values, n)
    if (code == code[0]).all():
        return [slice(None)]
    return [np.flatnonzero(code == c) for c in np.unique(code)]


def _cross(rows: Any, cols: Any, n: int, d: int) -> Any:
    """The index of a block of ``n`` times by ``d`` units at ``rows`` x ``cols`` (each a
    ``slice(None)`` or an index array)."""
    if isinstance(rows, slice) and isinstance(cols, slice):
        return (rows, cols)
    r = np.arange(n) if isinstance(rows, slice) else rows
    c = np.arange(d) if isinstance(cols, slice) else cols
    return np.ix_(r, c)


def _is_plus_inf(t: Any) -> bool:
    if isinstance(t, bool):
        return False
    if isinstance(t, (float, np.floating)):
        return bool(t == math.inf)
    if isinstance(t, mpmath.mpf):
        return bool(t == mpmath.inf)
    if isinstance(t, str):
        return t.strip().lower() in ("inf", "+inf", "infinity", "+infinity")
    return False


def _check_times(times: Any, name: str = "t") -> tuple[Number, ...]:
    """:func:`solvable._core.numbers.check_times` with ``+inf`` allowed (the limit state);
    ``name``: the argument named in the messages."""
    if (
        isinstance(times, np.ndarray) and times.ndim == 1 and times.dtype.kind in "fiu"
        and times.size and bool((times >= 0).all())
    ):  # fmt: skip
        # a valid numeric array (t >= 0 is false for nan and -inf): the values the checks
        # below return, without one Python check per time; anything else is checked below
        return tuple(times.tolist())
    if isinstance(times, np.ndarray) and times.ndim <= 1:
        items = [times.item()] if times.ndim == 0 else times.tolist()
    elif isinstance(times, (numbers.Real, str, mpmath.mpf)) and not isinstance(times, bool):
        items = [times]
    elif isinstance(times, (list, tuple)):
        items = list(times)
    else:
        return nb.check_times(times, name)
    inf = [_is_plus_inf(t) for t in items]
    checked = nb.check_times([0 if i else t for t, i in zip(items, inf, strict=True)], name)
    return tuple(math.inf if i else t for t, i in zip(checked, inf, strict=True))


def _to_float64(states: States) -> States:
    """``states`` (mpmath) rounded to float64; ``ValueError`` for a finite value beyond the
    float64 range (an underflow rounds to 0 or a subnormal, as float64 itself rounds)."""
    out = {}
    for name in ("t", "u", "W", "f", "alignment", "ntk", "alpha"):
        a = getattr(states, name)
        fa = np.array([float(z) for z in np.ravel(a)], dtype=float).reshape(np.shape(a))
        if name not in ("t", "alpha"):
            with mpmath.workdps(30):
                big = [
                    (i, z) for i, z in enumerate(np.ravel(a))
                    if mpmath.isfinite(z) and not math.isfinite(float(z))
                ]  # fmt: skip
            if big:
                i, z = big[0]
                t = states.t[np.unravel_index(i, np.shape(a))[0]]
                raise ValueError(
                    f"the state's {name} at t = {mpmath.nstr(t, 6)} is "
                    f"{mpmath.nstr(z, 6)}, beyond the float64 range (|value| <= 1.8e308) for "
                    "this setup and these initial weights (u0, W0); use closed_form(..., dps=k) "
                    "(mpmath has no exponent range)"
                )
        out[name] = fa
    return States(**out)


@nb.mpmath_in_mpmath_out
def constants(
    eta_u: Number, eta_w: Number, gamma: Number, rho: Number, y: Number, d: int,
    P: Number, Q: Number, *, dps: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """``alpha_plus``, ``alpha_minus``, ``t_c`` (eqs. (11), (12), corrected sign) and
    ``alpha_prime`` (eq. (47); ``None`` unless ``P = 0 < Q``) of Theorem 1 / Proposition 1
    from the scalars they depend on: the rates, ``gamma``, ``rho = ||x||``, ``y``, the width
    ``d`` and ``P, Q >= 0`` of eq. (7) (e.g. their means under Gaussian initialisation,
    Section 3).  The values :func:`closed_form` reports, from the same generated evaluator
    (``symbolic().stable``): at ``P = 0`` the ``P -> 0`` limits (``alpha_plus = oo`` for
    ``y >= 0``, ``C/|B| = -1/alpha'`` for ``y < 0``; ``alpha_minus = 1/alpha'`` for ``y > 0``,
    ``oo`` for ``y <= 0``), ``t_c = oo`` where ``D = 0``.  ``dps``: as in
    :func:`closed_form` (float64 at any scale: outside the range of :data:`SAFE_INPUT` the
    same evaluator runs in mpmath at ``EXTENDED_DPS`` digits, and a constant that float64
    cannot hold is an ``mpmath.mpf`` of 17 digits, as there)."""
    dps = nb.check_dps(dps)
    args = {"eta_u": eta_u, "eta_w": eta_w, "gamma": gamma, "rho": rho}
    checked = [nb.check_number(k, v, positive=True) for k, v in args.items()]
    checked.append(nb.check_number("y", y))
    d = nb.check_int("d", d)
    checked += [nb.check_number(k, v, nonnegative=True) for k, v in (("P", P), ("Q", Q))]
    if dps is not None:
        out, PP, QQ = _constants_at(checked, d, dps)
        values = [_scalar(v, dps) for v in out]
    else:
        try:  # float64 first, where its data lie in the float64-safe range (closed_form's)
            out, PP, QQ = _constants_at(checked, d, None)
            safe = _constants_safe(checked, d)
        except (OverflowError, ZeroDivisionError, nb.Float64RangeError):
            safe = False
        if not safe:
            out, PP, QQ = _constants_at(checked, d, EXTENDED_DPS)
        values = [_report(v, None) for v in out]
    a_plus, a_minus, t_c, a_prime = values
    return {"alpha_plus": a_plus, "alpha_minus": a_minus, "t_c": t_c,
            "alpha_prime": a_prime if (PP == 0 and QQ > 0) else None}  # fmt: skip


def _constants_at(checked: list[Number], d: int, dps: int | None) -> tuple[Any, Any, Any]:
    """The reported constants of the checked ``(eta_u, eta_w, gamma, rho, y, P, Q)`` and
    ``d`` at ``dps`` (``None``: float64), with ``P`` and ``Q`` as evaluated."""
    conv = nb.converter(dps)
    with nb.Precision(dps), np.errstate(all="ignore"):
        *vals, PP, QQ = (conv(v) for v in checked)
        return _evaluators("numpy" if dps is None else "mpmath").reported(*vals, d, PP, QQ), PP, QQ


def _constants_safe(checked: list[Number], d: int) -> bool:
    """Whether float64 evaluates :func:`constants` of these inputs without over- or
    underflow: every non-zero input in ``[1/SAFE_INPUT, SAFE_INPUT]`` and ``A``, ``B``,
    ``C``, ``D`` in its square (the bounds of :func:`_float64_safe`)."""
    lo, hi = 1 / SAFE_INPUT, SAFE_INPUT
    with mpmath.workdps(20):
        if any(m != 0 and not lo <= m <= hi for m in (abs(nb.to_mpf(z)) for z in checked)):
            return False
    vals = [float(z) for z in checked]
    with np.errstate(all="ignore"):
        abcd = _evaluators("numpy").constants(*vals[:5], d, *vals[5:], 0.0)[:4]
    arr = np.abs(np.asarray(abcd, dtype=float))
    return bool(
        np.all(np.isfinite(arr)) and not np.any((arr != 0) & ((arr < lo**2) | (arr > hi**2)))
    )


@nb.mpmath_in_mpmath_out
def pq_coordinates(setup: Setup, u: Any, W: Any, *, dps: int | None = None) -> tuple[Any, Any]:
    """``p_i``, ``q_i`` of eq. (6) (``rho = ||x||``) on the weights ``u`` (d,), ``W``
    (d, d0) -- e.g. those of a simulated or trained network at any time -- from the
    generated evaluator of ``symbolic().paper["p"]``, ``["q"]``.  ``dps``: as in
    :func:`closed_form` (mpmath arrays at ``dps`` digits, computed with guard digits)."""
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    uc, Wc = _check_weights(setup, u, W, ("u", "W"))
    conv = nb.converter(dps)
    dt = nb.dtype(dps)
    with nb.Precision(dps):
        x = np.array([conv(v) for v in setup.x], dtype=dt)
        cu, cW = nb.converter(dps, "u"), nb.converter(dps, "W")
        uu = np.array([cu(v) for v in uc], dtype=dt)
        WW = np.array([[cW(v) for v in row] for row in Wc], dtype=dt)
        v = np.array(WW @ x, dtype=dt)
        eta_u, eta_w = conv(setup.eta_u), conv(setup.eta_w)
        ev = _evaluators("numpy" if dps is None else "mpmath")
        with np.errstate(all="ignore"):
            p, q = (np.asarray(a, dtype=dt)
                    for a in ev.pq(uu, v, eta_u, eta_w, _sqrt(_dot(x, x), dps)))  # fmt: skip
    if dps is None and not (np.isfinite(p).all() and np.isfinite(q).all()):
        raise ValueError("p, q are beyond the float64 range for these weights u, W (and "
                         "setup): rescale them or pass dps=k (mpmath)")  # fmt: skip
    return nb.rounded((p, q), dps)


@nb.mpmath_in_mpmath_out
def closed_form(setup: Setup, u0: Any, W0: Any, *, dps: int | None = None) -> Trajectory:
    """Exact gradient-flow solution from ``(u0, W0)``: Theorem 1 and Proposition 1.

    ``dps=None`` evaluates in float64 with numpy; ``dps=k`` with mpmath at ``k``
    significant digits (arrays are numpy object arrays of ``mpmath.mpf``).

    float64 at any scale: where an input, ``W x``, a ``p_i``/``q_i`` or a derived scalar
    leaves the range of :data:`SAFE_INPUT` (e.g. initial weights of scale 1e150 or 1e-160,
    learning rates of 1e-300), the same generated evaluators run in mpmath at
    ``EXTENDED_DPS`` (+ guard) digits, whose exponent range is unbounded, and the states are
    rounded to float64: right to float64 accuracy, or a ``ValueError`` where a component of
    the state itself is beyond the float64 range.  A reported constant that float64 cannot
    hold (e.g. ``P = 1e-600``) is then an ``mpmath.mpf`` of 17 digits.
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    u0c, W0c = _check_weights(setup, u0, W0)
    if dps is None:
        try:  # float64 first; Python floats raise OverflowError where numpy gives inf
            with np.errstate(all="ignore"):
                data, reported = _trajectory_data(setup, u0c, W0c, dps)
            safe = _float64_safe(setup, u0c, W0c, data)
        except (OverflowError, ZeroDivisionError, nb.Float64RangeError):
            safe = False
    else:
        data, reported = _trajectory_data(setup, u0c, W0c, dps)
    if dps is None and not safe:
        # outside the float64-safe range: the same evaluators in mpmath (no exponent range)
        data, reported = _trajectory_data(setup, u0c, W0c, EXTENDED_DPS)
    u, W, P, Q, a_plus, a_minus, t_c, alpha_prime = reported
    if data["work_dps"] is not None and dps is None:
        u, W = data["u0_f64"], data["W0_f64"]
    rep = functools.partial(_report, dps=dps)
    return Trajectory(
        setup=setup, u0=u, W0=W, dps=dps, P=rep(P), Q=rep(Q),
        alpha_plus=rep(a_plus), alpha_minus=rep(a_minus), t_c=rep(t_c),
        alpha_prime=None if alpha_prime is None else rep(alpha_prime), _data=data,
    )  # fmt: skip


def _trajectory_data(
    setup: Setup, u0c: tuple, W0c: tuple, dps: int | None
) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """The scalars and arrays the evaluators of :meth:`Trajectory.sample` take, at ``dps``
    (``None``: float64), and ``(u0, W0, P, Q, alpha_+, alpha_-, t_c, alpha')``."""
    ev = _evaluators("numpy" if dps is None else "mpmath")
    conv = nb.converter(dps)
    dt = nb.dtype(dps)
    with nb.Precision(dps):
        x = np.array([conv(v) for v in setup.x], dtype=dt)
        u = np.array([conv(v) for v in u0c], dtype=dt)
        W = np.array([[conv(v) for v in row] for row in W0c], dtype=dt)
        eta_u, eta_w, gamma, y = (conv(v) for v in (setup.eta_u, setup.eta_w, setup.gamma, setup.y))
        x2 = _dot(x, x)
        rho = _sqrt(x2, dps)
        v = np.array(W @ x, dtype=dt)
        d = len(u)
        p0, q0 = (np.asarray(a, dtype=dt) for a in ev.pq(u, v, eta_u, eta_w, rho))
        P, Q = (p0 * p0).sum() / d, (q0 * q0).sum() / d
        f0 = gamma * _dot(u, v)
        Lam = _lagrange(p0, q0)
        W_perp = W - np.outer(v, x) / x2
        with np.errstate(all="ignore"):
            _A, _B, _C, D, G, N, M = ev.constants(eta_u, eta_w, gamma, rho, y, d, P, Q, f0)
            a_plus, a_minus, t_c, a_prime = ev.reported(eta_u, eta_w, gamma, rho, y, d, P, Q)
        alpha_prime = a_prime if (P == 0 and Q > 0) else None
    data = dict(
        D=D, G=G, N=N, M=M, f0=f0, y=y, p0=p0, q0=q0, u0=u, v0=v, W0=W, x=x,
        eta_u=eta_u, eta_w=eta_w, rho=rho, gamma=gamma, Lam=Lam, P=P, Q=Q, x2=x2, W_perp=W_perp,
        A=_A, B=_B, C=_C, work_dps=dps, given=(u0c, W0c),
    )  # fmt: skip
    if dps is not None:
        data["u0_f64"] = np.array([float(z) for z in u], dtype=float)
        data["W0_f64"] = np.array([[float(z) for z in row] for row in W], dtype=float)
    return data, (u, W, P, Q, a_plus, a_minus, t_c, alpha_prime)


def _float64_safe(setup: Setup, u0c: tuple, W0c: tuple, data: Mapping[str, Any]) -> bool:
    """Whether the float64 data of a closed form lie in the range of :data:`SAFE_INPUT`
    (inputs given as strings are compared at their exact values: ``"1e-400"`` is not 0)."""
    lo, hi = 1 / SAFE_INPUT, SAFE_INPUT
    given = [setup.eta_u, setup.eta_w, setup.gamma, setup.y, *setup.x, *u0c]
    given += [w for row in W0c for w in row]
    # floats compared in float64 (exact: lo and hi are powers of two), the rest (decimal
    # strings, ints, mpf) at their exact values
    floats = np.abs(np.fromiter((z for z in given if type(z) is float), dtype=float))
    if np.any((floats != 0) & ((floats < lo) | (floats > hi))):
        return False
    with mpmath.workdps(20):
        for z in given:
            if type(z) is float:
                continue
            m = abs(nb.to_mpf(z))
            if m != 0 and not lo <= m <= hi:
                return False
    first = np.concatenate([np.asarray(data[k], dtype=float) for k in ("v0", "p0", "q0")])
    second = [data[k] for k in ("rho", "P", "Q", "A", "B", "C", "D", "N", "M", "G", "f0")]
    second.append(data["Lam"])
    for vals, (a, b) in ((first, (lo, hi)), (second, (lo * lo, hi * hi))):
        arr = np.abs(np.asarray(vals, dtype=float))
        if not np.all(np.isfinite(arr)) or np.any((arr != 0) & ((arr < a) | (arr > b))):
            return False
    return True


def _report(z: Any, dps: int | None) -> Any:
    """A reported constant: :func:`_scalar`; for a float64 closed form evaluated in mpmath
    (outside the float64-safe range) a float where float64 holds it to its normal precision
    and ``inf`` / ``0`` / ``nan`` where exactly so, else the ``mpf`` (17 digits)."""
    if dps is not None or not isinstance(z, mpmath.mpf):
        return _scalar(z, dps)
    if not mpmath.isfinite(z) or z == 0:
        return float(z)
    f = float(z)
    if math.isfinite(f) and abs(f) >= 2.0**-1022:
        return f
    return nb.round_to(EXTENDED_DPS)(z)


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def _check_weights(setup: Setup, u0: Any, W0: Any,
                   names: tuple[str, str] = ("u0", "W0")) -> tuple[tuple, tuple]:  # fmt: skip
    """``u0`` (d,) and ``W0`` (d, d0) validated against ``setup``: each on its own first (so
    a bad entry is blamed on its own argument), then the hidden width ``d`` they share
    (``names``: the arguments' names in the messages)."""
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
    nu, nW = names
    u0c = nb.check_vector(nu, u0)
    W0c = _check_W0(W0, nW)
    d, d0, (r, c) = len(u0c), setup.d0, (len(W0c), len(W0c[0]))
    if c != d0:
        raise ValueError(
            f"{nW} must have shape ({d}, {d0}) (d = len({nu}), d0 = len(setup.x)), got ({r}, {c})"
        )
    if r != d:
        raise ValueError(
            f"{nu} and {nW} disagree on the hidden width d: {nu} has shape ({d},), so {nW} must "
            f"have shape ({d}, {d0}); {nW} has shape ({r}, {c}), so {nu} must have shape ({r},)"
        )
    return u0c, W0c


def _check_W0(W0: Any, name: str = "W0") -> tuple[tuple[Number, ...], ...]:
    """``nb.check_matrix(name, W0, (None, None))``; a numeric 2-d array of finite entries
    (e.g. a trajectory's large ``W0``) gives the same rows without one Python check per
    entry, anything else is checked entry by entry."""
    if (
        isinstance(W0, np.ndarray) and W0.ndim == 2 and W0.dtype.kind in "fiu"
        and W0.size and bool(np.isfinite(W0).all())
    ):  # fmt: skip
        return tuple(map(tuple, W0.tolist()))
    return nb.check_matrix(name, W0, (None, None))


def _scalar(z: Any, dps: int | None) -> Any:
    """A reported constant: a Python float (float64), or an ``mpf`` rounded to ``dps``."""
    return float(z) if dps is None else nb.round_to(dps)(z)


def _dot(a: Any, b: Any) -> Any:
    if a.dtype.kind == "f" and b.dtype.kind == "f":
        return float(a @ b)
    return sum((ai * bi for ai, bi in zip(a, b, strict=True)), start=0 * a[0])


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
    eq. (4) is proved from the loss in :mod:`solvable.verification.theorems`.)"""

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


def unit_flow(d0: int) -> UnitFlow:
    """The per-unit flow of eq. (31) with input dimension ``d0 >= 1`` (at most
    ``MAX_SYMBOLIC_ENTRIES`` symbolic entries, see :mod:`solvable._core.arrays`).  Cached."""
    return _unit_flow(symbolic_sizes("unit_flow", lambda d0: 2 * d0 + 2, d0=d0)["d0"])


@functools.cache
def _unit_flow(d0: int) -> UnitFlow:
    S = symbolic()
    u = sp.Symbol("u_i", real=True)
    w = tuple(sp.Symbol(f"w_i{j}", real=True) for j in range(d0))
    x = tuple(sp.Symbol(f"x_{j}", real=True) for j in range(d0))
    r = sp.Symbol("r", real=True)
    v = sum(wj * xj for wj, xj in zip(w, x, strict=True))
    du = -2 * S.eta_u * S.gamma * v * r
    dw = tuple(-2 * S.eta_w * S.gamma * u * xj * r for xj in x)
    return UnitFlow(u=u, w=w, x=x, r=r, du=du, dw=dw)


# ---------------------------------------------------------------------------
# The raw flow as numerics simulates it, and the conditioning of the problem
# ---------------------------------------------------------------------------
class TwoLayerLinearSystem(System):
    """Eqs. (4)-(5) for :func:`numerics.simulate`: blocks ``u`` (d,) and ``W`` (d, d0)."""

    setup_type = Setup
    blocks = ("u", "W")

    def example(self) -> tuple[Setup, Any, Any]:
        c = case("generic")
        return c.setup, c.u0, c.W0

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        u0, W0 = _check_weights(setup, out0, in0)
        return {"u": np.array(u0, dtype=object), "W": np.array(W0, dtype=object)}

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return flow(shapes["u"][0], setup.d0)

    def flow_parameters(self, setup: Setup, convert: Callable[[Any], Any]) -> list[Any]:
        return [convert(v) for v in (setup.eta_u, setup.eta_w, setup.gamma, setup.y, *setup.x)]

    def rates(self, setup: Setup) -> dict[str, float]:
        return {"u": float(setup.eta_u), "W": float(setup.eta_w)}

    def data(self, setup: Setup, backend: str, like: Any = None) -> dict[str, Any]:
        x = np.array([float(v) for v in setup.x])
        if backend == "torch":
            torch = torch_module()
            x = torch.as_tensor(x, dtype=like.dtype, device=like.device)
        return {"x": x, "y": float(setup.y), "gamma": float(setup.gamma)}

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        return _loss(params["u"], params["W"], data["x"], data["y"], data["gamma"])

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        return State._measure(setup, t, params["u"], params["W"], dps)


SYSTEM = TwoLayerLinearSystem()


def manifold_condition(P: float, Q: float, alpha: float) -> float:
    """Amplification of a float64 perturbation of the initial state at the time where
    the closed form has ``alpha(t) = alpha`` (Theorem 1), for any integrator.

    Off the invariant manifolds P = 0 / Q = 0 an error eps in the p (q) direction grows
    like ``e^{|log alpha|/2}`` while the state shrinks like ``e^{-|log alpha|/2}``:
    ``kappa = sqrt((P + Q) max(alpha, 1/alpha) / (P alpha + Q / alpha))``; 1 + O(1) for
    comparable P, Q > 0, ``alpha`` for P = 0 (the flow into the saddle of Proposition 1).
    ``P, Q >= 0`` finite, ``0 <= alpha <= inf`` (an alpha that under- or overflowed):
    ``kappa = inf`` exactly on an invariant manifold at its end (``alpha = 0`` with ``Q = 0``,
    ``alpha = inf`` with ``P = 0``); a finite ``kappa`` beyond the float64 range is a
    ``ValueError``.
    """
    P, Q = (
        nb.to_float(nb.check_number(k, v, nonnegative=True), k) for k, v in (("P", P), ("Q", Q))
    )
    if not _is_plus_inf(alpha):
        alpha = nb.to_float(nb.check_number("alpha", alpha, nonnegative=True), "alpha")
    alpha = float(alpha)
    if P + Q == 0:
        return 1.0
    # kappa depends on P/Q only: scaled to max(P, Q) = 1 (no overflow of P + Q); the same
    # ratio without dividing by alpha (alpha may underflow to 0 or overflow)
    p, q = P / max(P, Q), Q / max(P, Q)
    den = p * alpha * alpha + q if alpha <= 1 else p + q / (alpha * alpha)
    if 2.0**-1000 <= den:
        return float(np.sqrt((p + q) / den))
    with mpmath.workdps(30):  # den under- or near-underflows: exactly, then rounded
        a = mpmath.mpf(alpha)
        den = p * a * a + q if alpha <= 1 else p + q / (a * a)
        if den == 0:
            return math.inf
        kappa = mpmath.sqrt((p + q) / den)
        out = float(kappa)
    if not math.isfinite(out):
        raise ValueError(f"the condition number for P = {P!r}, Q = {Q!r}, alpha = {alpha!r} is "
                         f"{mpmath.nstr(kappa, 6)}, beyond the float64 range")  # fmt: skip
    return out


# ---------------------------------------------------------------------------
# Named initialisations every cross-check runs over (exact decimal strings, so a case means
# the same thing at every precision; the degenerate cases P = 0, Q = 0, P = Q = 0 are exact)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One initial condition of the two-layer model with what it exercises."""

    name: str
    setup: Setup
    u0: tuple[str, ...]
    W0: tuple[tuple[str, ...], ...]
    covers: str


def _case(name, covers, *, eta_u="1", eta_w="0.5", gamma="0.7", x=("1", "2"), y="1.5", u0, W0):
    setup = Setup(eta_u=eta_u, eta_w=eta_w, gamma=gamma, x=x, y=y)
    return Case(name, setup, tuple(u0), tuple(tuple(r) for r in W0), covers)


_U = ("0.8", "-0.3", "1.1")
_W = (("0.2", "-0.5"), ("1.3", "0.4"), ("-0.7", "0.9"))
# x = (3, 4): rho = 5 exactly; with eta_u = 4, eta_w = 1 the unit p_i vanishes
# exactly when (W x)_i = -(5/2) u_i, and q_i vanishes when (W x)_i = +(5/2) u_i.
_ANTI_W = (("-0.5", "-0.25"), ("0.125", "0.25"), ("-0.5", "0.25"))  # W x = -2.5 u
_ANTI_U = ("1", "-0.55", "0.2")
_PAR_W = (("0.5", "0.25"), ("-0.125", "-0.25"), ("0.5", "-0.25"))  # W x = +2.5 u

CASES: tuple[Case, ...] = (
    _case("generic", "eta_u != eta_w, d0 = 2, y > 0", u0=_U, W0=_W),
    _case("y_negative", "y < 0", y="-1.2", u0=_U, W0=_W),
    _case("y_zero", "y = 0 (D = 2 sqrt(AC))", y="0", u0=_U, W0=_W),
    _case(
        "P_greater_Q", "P > Q (u and W x positively correlated)", u0=("0.9", "0.4", "-0.6"),
        W0=(("0.5", "0.3"), ("0.1", "0.2"), ("-0.4", "-0.1")),
    ),
    _case(
        "P_less_Q", "P < Q (wrong-sign initial output)", u0=("0.9", "0.4", "-0.6"),
        W0=(("-0.5", "-0.3"), ("-0.1", "-0.2"), ("0.4", "0.1")),
    ),
    _case(
        "P_approx_Q", "P ~ Q (u orthogonal to W x, f0 = 0)", u0=("1", "1", "0"),
        W0=(("0.2", "0.1"), ("-0.2", "-0.1"), ("0.3", "0.4")),
    ),
    _case(
        "near_parallel", "near-parallel layers (Q ~ 1e-9 P)", eta_u="4", eta_w="1",
        x=("3", "4"), y="1",
        u0=_ANTI_U, W0=(("0.5", "0.25"), ("-0.125", "-0.25"), ("0.5001", "-0.25")),
    ),
    _case(
        "near_antiparallel", "near-antiparallel layers (P ~ 1e-9 Q)", eta_u="4", eta_w="1",
        x=("3", "4"), y="1",
        u0=_ANTI_U, W0=(("-0.5", "-0.25"), ("0.125", "0.25"), ("-0.5001", "0.25")),
    ),
    _case(
        "tiny_init", "near-saddle initialisation (scale 1e-6)", y="1",
        u0=("1e-6", "-2e-6", "0.5e-6"), W0=(("1e-6", "0"), ("0", "1e-6"), ("-1e-6", "1e-6")),
    ),
    _case(
        "large_init", "large initialisation (scale 1e3, kernel-like)", gamma="0.01", y="1",
        u0=("1e3", "-2e3", "0.5e3"), W0=(("1e3", "0"), ("0", "1e3"), ("-1e3", "1e3")),
    ),
    _case(
        "P_zero_y_positive", "P = 0 exactly, y > 0 (Proposition 1: converges to the saddle)",
        eta_u="4", eta_w="1", x=("3", "4"), y="1", u0=_ANTI_U, W0=_ANTI_W,
    ),
    _case(
        "P_zero_y_negative", "P = 0 exactly, y < 0 (Proposition 1: reaches y)",
        eta_u="4", eta_w="1", x=("3", "4"), y="-1", u0=_ANTI_U, W0=_ANTI_W,
    ),
    _case(
        "Q_zero_y_negative", "Q = 0 exactly, y < 0 (alpha_plus = 0: converges to the saddle)",
        eta_u="4", eta_w="1", x=("3", "4"), y="-1", u0=_ANTI_U, W0=_PAR_W,
    ),
    _case(
        "saddle", "P = Q = 0 (u = 0, W = 0): stays at the saddle", y="1",
        u0=("0", "0", "0"), W0=(("0", "0"), ("0", "0"), ("0", "0")),
    ),
    _case(
        "d0_1_negative_x", "d0 = 1 with x < 0 (rho = |x|), d = 2", x=("-2",), y="0.8",
        eta_u="0.3", eta_w="2", u0=("0.5", "-1.5"), W0=(("0.7",), ("0.2",)),
    ),
    _case(
        "d0_1_disalign", "d0 = 1, near-parallel large init (learning by disalignment)",
        x=("1",), y="2", eta_u="1", eta_w="1", gamma="0.1",
        u0=("3", "-2", "4", "1"), W0=(("3.1",), ("-1.9",), ("4.05",), ("0.9",)),
    ),
    _case(
        "d0_1_align", "d0 = 1, small generic init (learning by alignment)",
        x=("1.5",), y="2", eta_u="2", eta_w="0.5", gamma="1",
        u0=("0.01", "-0.02", "0.015"), W0=(("-0.012",), ("0.007",), ("0.02",)),
    ),
)  # fmt: skip


def case(name: str) -> Case:
    """Look a case up by name."""
    for c in CASES:
        if c.name == name:
            return c
    names = ", ".join(c.name for c in CASES)
    raise ValueError(f"name must be one of {names}; got {name!r}")


# ---------------------------------------------------------------------------
# Symbolic claims: each proved from this module's expressions
# ---------------------------------------------------------------------------
def _S() -> Symbols:
    return symbolic()


def _D() -> sp.Expr:
    """``D = sqrt(B^2 + 4AC)`` in the symbols A, B, C (``coefficients["D"]``)."""
    return _S().coefficients["D"]


def _abc() -> dict[sp.Symbol, sp.Expr]:
    S = _S()
    co = S.coefficients
    return {S.A: co["A"], S.B: co["B"], S.C: co["C"]}


def _pieces(expr: sp.Expr) -> list[sp.Expr]:
    """Every way of replacing each ``Piecewise`` in ``expr`` by one of its pieces (the
    conditions dropped): a stable form whose every piece is proved equal to the textbook
    value holds on every branch."""
    pw = sorted(expr.atoms(sp.Piecewise), key=sp.default_sort_key)
    if not pw:
        return [expr]
    out: list[sp.Expr] = []
    for piece, _cond in pw[0].args:
        if piece.is_finite is not False and piece is not sp.nan:
            out.extend(_pieces(expr.xreplace({pw[0]: piece})))
    return out


def _unit(d0: int = 3):
    """Flow (31) for one unit, with v = w.x, rho = ||x||, and p, q of eq. (6)."""
    S = _S()
    F = unit_flow(d0)
    v = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    rho = sp.sqrt(sum(xj**2 for xj in F.x))
    sub = {S.rho: rho, S.u: F.u, S.v: v}
    return F, v, rho, S.paper["p"].subs(sub), S.paper["q"].subs(sub)


def _units(d: int):
    """d units at ``alpha``: p_i = p_i(0) sqrt(alpha), q_i = q_i(0)/sqrt(alpha) (eqs. (8),
    (9): ``paper["p_alpha"]``, ``["q_alpha"]``), u_i and w_i = (W x)_i / rho from eq. (13)
    (``paper["u"]``, ``["v"]``; w_i is the weight for d0 = 1, x = rho > 0); P, Q (eq. (7)) and
    sum_i p_i(0) q_i(0)."""
    S = _S()
    p0 = sp.symbols(f"p0:{d}", real=True)
    q0 = sp.symbols(f"q0:{d}", real=True)
    u, w = [], []
    for pi, qi in zip(p0, q0, strict=True):
        at = {S.p0: S.paper["p_alpha"].subs(S.p0, pi), S.q0: S.paper["q_alpha"].subs(S.q0, qi)}
        u.append(S.paper["u"].subs(at, simultaneous=True))
        w.append(S.paper["v"].subs(at, simultaneous=True) / S.rho)
    P = sum(pi**2 for pi in p0) / d
    Q = sum(qi**2 for qi in q0) / d
    spq = sum(pi * qi for pi, qi in zip(p0, q0, strict=True))
    return p0, q0, u, w, P, Q, spq


def _at_units(expr: sp.Expr, d: int, P: sp.Expr, Q: sp.Expr, spq: sp.Expr) -> sp.Expr:
    S = _S()
    return expr.subs({S.d: d, S.P: P, S.Q: Q, S.Spq: spq}, simultaneous=True)


def _eq31() -> Verdict:
    # -eta dL/dtheta of the loss (4), d = 2, d0 = 2, equals eq. (31) with r = f - y; and the
    # per-unit flow unit_flow(2) that the other claims differentiate along is that flow.
    S = _S()
    F = flow(2, 2)
    u, W = F.block("u"), F.block("W")
    x = np.array(F.params[4:6], dtype=object)
    r = network_output(u, W, x, S.gamma) - S.y
    rhs = dict(zip(F.state, F.rhs, strict=True))
    U = unit_flow(2)
    res = []
    for i in range(2):
        v_i = sum(W[i][j] * x[j] for j in range(2))
        res.append(rhs[u[i]] - (-2 * S.eta_u * S.gamma * v_i * r))
        on_unit = {U.u: u[i], U.r: r, **dict(zip(U.w, W[i], strict=True)),
                   **dict(zip(U.x, x, strict=True))}  # fmt: skip
        res.append(rhs[u[i]] - U.du.subs(on_unit, simultaneous=True))
        for j in range(2):
            res.append(rhs[W[i][j]] - (-2 * S.eta_w * S.gamma * u[i] * x[j] * r))
            res.append(rhs[W[i][j]] - U.dw[j].subs(on_unit, simultaneous=True))
    return prove_zero(*res)


def _eq37() -> Verdict:
    S = _S()
    F, _v, rho, p, q = _unit()
    k = S.coefficients["k"].subs(S.rho, rho)
    return prove_zero(F.ddt(p) + k * F.r * p, F.ddt(q) - k * F.r * q)


def _eq13() -> Verdict:
    # inverting eq. (6): u_i = (p_i - q_i)/sqrt(eta_w), (W x)_i = rho (p_i + q_i)/sqrt(eta_u)
    S = _S()
    at = {S.p0: S.paper["p"], S.q0: S.paper["q"]}
    return prove_zero(S.paper["u"].subs(at) - S.u, S.paper["v"].subs(at) - S.v)


def _eq35() -> Verdict:
    # 4 p_i q_i = eta_u (W x)_i^2 / rho^2 - eta_w u_i^2 (eq. (35)), conserved by eq. (36)
    S = _S()
    return prove_zero(4 * S.paper["p"] * S.paper["q"] - S.paper["four_pq"])


def _eq19_unit() -> Verdict:
    # gamma u_i (W x)_i = (c/d) (p_i^2 - q_i^2): summed over i, f = c (P alpha - Q/alpha)
    S = _S()
    p, q = S.paper["p"], S.paper["q"]
    f_unit = network_output(np.array([S.u]), np.array([[S.v / S.rho]]), np.array([S.rho]), S.gamma)
    per_unit = S.paper["f"].subs({S.P: p**2, S.Q: q**2, S.alpha: 1}) / S.d
    return prove_zero(f_unit - per_unit)


def _eq19_limit() -> Verdict:
    # f(infinity) = c (alpha_+ P - Q/alpha_+) = y  (P, Q > 0)
    S = _S()
    ap = S.paper["alpha_plus"].subs(S.D, _D()).subs(_abc())
    f_inf = S.paper["f"].subs(S.alpha, ap)
    return prove_zero(f_inf - S.y)


def _eq39() -> Verdict:
    # d alpha/dt = 2 alpha d log p_i/dt = -2 k alpha (f - y) (eq. (37)) with f of eq. (19)
    S = _S()
    a = S.alpha
    r = S.paper["f"] - S.y
    return prove_zero(-2 * S.coefficients["k"] * a * r - S.riccati_rhs(a).subs(_abc()))


def _theorem_1() -> Verdict:
    S = _S()
    alpha = S.paper["alpha"]
    ode = sp.diff(alpha, S.t) - S.riccati_rhs(alpha)
    return prove_zero(ode, alpha.subs(S.t, 0) - 1, assumptions={S.D: _D()})


def _alpha_relations() -> Verdict:
    # text after (14): alpha_+ alpha_- = Q/P; also alpha_+ - alpha_- = B/A, alpha_+ + alpha_- = D/A
    S = _S()
    ap, am = S.paper["alpha_plus"], S.paper["alpha_minus"]
    return prove_zero(
        (ap * am - S.C / S.A).subs(S.D, _D()),
        (ap * am).subs(S.D, _D()).subs(_abc()) - S.Q / S.P,
        ap - am - S.B / S.A,
        ap + am - S.D / S.A,
    )


def _eq15_16() -> Verdict:
    # alpha(t) -> alpha_+ (xi -> 0 as exp(-4 D t) -> 0, D > 0): p_i(inf) = p_i(0) sqrt(alpha_+),
    # q_i(inf) = q_i(0)/sqrt(alpha_+); and alpha_+ is a root of (39)
    S = _S()
    late = {sp.exp(-4 * S.D * S.t): 0}
    ap = S.paper["alpha_plus"]
    return prove_zero(
        S.paper["alpha"].subs(late) - ap,
        S.paper["p_t"].subs(late) - S.paper["p_alpha"].subs(S.alpha, ap),
        S.paper["q_t"].subs(late) - S.paper["q_alpha"].subs(S.alpha, ap),
        S.riccati_rhs(ap).subs(S.D, _D()),
    )


def _eq17() -> Verdict:
    # (17) as printed: t_c^-2 = eta_u eta_w gamma^2 rho^2 y^2 + 4 rho^4 (gamma^2 d)^2 P Q
    S = _S()
    lhs = (1 / S.paper["t_c"] ** 2).subs(S.D, _D()).subs(_abc())
    rhs = (
        S.eta_u * S.eta_w * S.gamma**2 * S.rho**2 * S.y**2
        + 4 * S.rho**4 * (S.gamma**2 * S.d) ** 2 * S.P * S.Q
    )
    return prove_zero(lhs - rhs)


def _eq18() -> Verdict:
    # df/dt = -2 K (f - y) along the full flow (d = 2, d0 = 2) with K of eq. (18) corrected
    S = _S()
    F = flow(2, 2)
    u, W = F.block("u"), F.block("W")
    x = np.array(F.params[4:6], dtype=object)
    f = network_output(u, W, x, S.gamma)
    K = ntk(u, W, x, S.eta_u, S.eta_w, S.gamma)
    return prove_zero(F.ddt(f) + 2 * K * (f - S.y))


def _eq18_pq() -> Verdict:
    # ntk() of one unit (x = rho, w = v/rho) is 2 gamma^2 rho^2 (p^2 + q^2); the evaluated
    # forms of the NTK and of f (from the unit sums) equal eq. (18) in p, q and eq. (19)
    S = _S()
    p, q = S.paper["p"], S.paper["q"]
    K_unit = ntk(np.array([S.u]), np.array([[S.v / S.rho]]), np.array([S.rho]), S.eta_u,
                 S.eta_w, S.gamma)  # fmt: skip
    sums = {S.Sp: S.d * S.P * S.alpha, S.Sq: S.d * S.Q / S.alpha}
    f19 = S.paper["f"]
    res = [
        K_unit - S.paper["ntk"].subs({S.d: 1, S.P: p**2, S.Q: q**2, S.alpha: 1}),
        S.stable["ntk"].subs(sums) - S.paper["ntk"],
    ]
    for expr, _cond in S.stable["f"].args:
        res.append(expr.subs(sums).subs(S.R, f19 - S.y) - f19)
    return prove_zero(*res)


def _eq14() -> Verdict:
    # eq. (14) (corrected, paper["w_t"]) is W(t) = W(0)(I - x x^T/rho^2) + v(t) x^T/rho^2 with
    # v(t) = W(t) x of eq. (13): the form the closed form evaluates
    S = _S()
    F = unit_flow(2)
    rho2 = sum(xj**2 for xj in F.x)
    rho = sp.sqrt(rho2)
    v0 = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    sub = {S.q0: sp.sqrt(S.eta_u) * v0 / rho - S.p0}  # p0 + q0 = sqrt(eta_u) v0 / rho
    v_t = S.paper["v"].subs({S.p0: S.pt, S.q0: S.qt}, simultaneous=True).subs(S.rho, rho)
    res = []
    for j, xj in enumerate(F.x):
        paper = S.paper["w_t"].subs({S.w0: F.w[j], S.xj: xj, S.rho: rho})
        perp = F.w[j] - v0 * xj / rho2 + v_t * xj / rho2
        res.append((paper - perp).subs(sub))
    return prove_zero(*res)


def _orthogonal() -> Verdict:
    # Section 2.1: d/dt (W m) = -2 eta_w gamma (f - y) (x.m) u, zero for every m orthogonal to x
    S = _S()
    F = flow(2, 3)
    u, W = F.block("u"), F.block("W")
    x = np.array(F.params[4:7], dtype=object)
    m = sp.symbols("m0:3", real=True)
    r = network_output(u, W, x, S.gamma) - S.y
    xm = sum(a * b for a, b in zip(x, m, strict=True))
    res = [
        F.ddt(sum(W[i][j] * m[j] for j in range(3))) + 2 * S.eta_w * S.gamma * r * xm * u[i]
        for i in range(2)
    ]
    return prove_zero(*res)


def _eq21() -> Verdict:
    # d = 2, d0 = 1 (x = rho > 0): cos(u, w) of eq. (13) with (8), (9) is paper["zeta"]:
    # (u.w)^2 = zeta^2 ||u||^2 ||w||^2; u.w = f/(gamma rho) (eq. (19)); and zeta is (21) as
    # printed, f/c over the positive root of (alpha P + Q/alpha)^2 - (2/d sum p_i q_i)^2, so
    # it has the sign of u.w
    S = _S()
    d = 2
    _p0, _q0, u, w, P, Q, spq = _units(d)
    zeta = S.paper["zeta"]
    f = S.paper["f"]
    uw = sum(ui * wi for ui, wi in zip(u, w, strict=True))
    uu = sum(ui**2 for ui in u)
    ww = sum(wi**2 for wi in w)
    a = S.alpha
    printed_den = (a * S.P + S.Q / a) ** 2 - (2 * S.Spq / S.d) ** 2
    return prove_zero(
        uw**2 - _at_units(zeta, d, P, Q, spq) ** 2 * uu * ww,
        S.gamma * S.rho * uw - _at_units(f, d, P, Q, spq),
        zeta * S.coefficients["c"] / f - printed_den ** sp.Rational(-1, 2),
    )


def _eq22() -> Verdict:
    # p_i = C q_i for all i: P = C^2 Q, sum p_i q_i = C d Q, and (21)^2 = 1
    S = _S()
    Cc = sp.Symbol("C", positive=True)
    zeta = S.paper["zeta"].subs({S.P: Cc**2 * S.Q, S.Spq: Cc * S.d * S.Q})
    return prove_zero(zeta**2 - 1)


def _eq23() -> Verdict:
    # d zeta/d alpha of (21) is (23); 4PQ - S^2 = (4/d^2) sum_{i<j} (p_i q_j - p_j q_i)^2 >= 0
    S = _S()
    a = S.alpha
    Ssym = sp.Symbol("S_pq", real=True)  # (2/d) sum p_i q_i
    P, Q = S.P, S.Q
    zeta = S.paper["zeta"].subs(S.Spq, S.d * Ssym / 2)
    printed = (
        (P + Q / a**2)
        * (4 * P * Q - Ssym**2)
        / ((a * P + Q / a) ** 2 - Ssym**2) ** (sp.Rational(3, 2))
    )
    d = 3
    p = sp.symbols(f"p0:{d}", real=True)
    q = sp.symbols(f"q0:{d}", real=True)
    Pd = sum(v**2 for v in p) / d
    Qd = sum(v**2 for v in q) / d
    Sd = 2 * sum(a_ * b_ for a_, b_ in zip(p, q, strict=True)) / d
    lagrange = sp.Rational(4, d**2) * sum(
        (p[i] * q[j] - p[j] * q[i]) ** 2 for i, j in itertools.combinations(range(d), 2)
    )
    return prove_zero(sp.diff(zeta, a) - printed, 4 * Pd * Qd - Sd**2 - lagrange)


def _positive_rate() -> sp.Expr:
    # d alpha/dt / (alpha_+ - 1) >= 0: 4 D (alpha_+ + alpha_-) e^{-4Dt} / ((1 + alpha_-)(1 - xi)^2)
    S = _S()
    ap, am, xi = S.paper["alpha_plus"], S.paper["alpha_minus"], S.paper["xi"]
    return 4 * S.D * (ap + am) * sp.exp(-4 * S.D * S.t) / ((1 + am) * (1 - xi) ** 2)


def _zeta_monotone() -> Verdict:
    # d alpha/dt = (alpha_+ - 1) x (a positive factor): alpha moves monotonically from 1 to
    # alpha_+, and with d zeta/d alpha >= 0 (eq. (23)) zeta is monotone in t.
    S = _S()
    alpha = S.paper["alpha"]
    return prove_zero(sp.diff(alpha, S.t) - (S.paper["alpha_plus"] - 1) * _positive_rate())


def _eq24() -> Verdict:
    # alpha_+ is the left side of (24), so (24) <=> alpha_+ > 1
    S = _S()
    ap = S.paper["alpha_plus"].subs(S.D, _D()).subs(_abc())
    b = sp.sqrt(S.eta_u * S.eta_w) * S.y / (2 * S.gamma * S.d * S.rho * S.P)
    printed = b + sp.sqrt(b**2 + S.Q / S.P)
    return prove_zero(ap - printed)


def _eq24_q_ge_p() -> Verdict:
    # y > 0, Q = (1 + s) P with s >= 0: alpha_+ - 1 = b + (b^2 + s)/(sqrt(b^2 + 1 + s) + 1),
    # a sum of positive terms (b > 0): (24) holds whenever Q >= P.
    S = _S()
    b = sp.Symbol("b", positive=True)
    s = sp.Symbol("s", nonnegative=True)
    # alpha_+ = (B + D)/(2A) with A = 1, B = 2b, C = 1 + s (so Q/P = 1 + s)
    ap = S.paper["alpha_plus"].subs(S.D, _D()).subs({S.A: 1, S.B: 2 * b, S.C: 1 + s})
    return prove_zero(ap - 1 - (b + (b**2 + s) / (sp.sqrt(b**2 + 1 + s) + 1)))


def _eq25_26() -> Verdict:
    # d = 2, d0 = 1 (x = rho): ||u||^2, ||w||^2 of eq. (13) with (8), (9) are paper["norm_u2"],
    # ["norm_w2"] (eq. (25) corrected); d||u||^2/d alpha = d (P - Q/alpha^2)/eta_w (eq. (26)
    # corrected), of the sign of alpha P - Q/alpha, i.e. of zeta.
    S = _S()
    d = 2
    _p0, _q0, u, w, P, Q, spq = _units(d)
    a = S.alpha
    nu = S.paper["norm_u2"]
    nw = S.paper["norm_w2"]
    return prove_zero(
        sum(ui**2 for ui in u) - _at_units(nu, d, P, Q, spq),
        sum(wi**2 for wi in w) - _at_units(nw, d, P, Q, spq),
        sp.diff(nu, a) - S.d * (S.P - S.Q / a**2) / S.eta_w,
        sp.diff(nw, a) - S.d * (S.P - S.Q / a**2) / S.eta_u,
        (S.P - S.Q / a**2) * a - (a * S.P - S.Q / a),
    )


def _rescaling_sign() -> Verdict:
    # d||u||^2/dt = (d||u||^2/d alpha) d alpha/dt = (alpha_+ - 1)(alpha^2 P - Q) x (positive):
    # the sign law behind the four cases of Section 2.3 (confirmed on trajectories by
    # the confirmation xu_ziyin.rescaling_cases).
    S = _S()
    alpha = S.paper["alpha"]
    dnorm = sp.diff(S.paper["norm_u2"], S.alpha).subs(S.alpha, alpha) * sp.diff(alpha, S.t)
    ap = S.paper["alpha_plus"]
    law = (ap - 1) * (alpha**2 * S.P - S.Q) * _positive_rate() * S.d / (S.eta_w * alpha**2)
    return prove_zero(dnorm - law)


def _proposition_1() -> Verdict:
    S = _S()
    B, C = S.coefficients["B"], S.coefficients["C"]
    beta = S.paper["beta"].subs({S.B: B, S.C: C})
    ode = sp.diff(beta, S.t) + 4 * beta * (C * beta + B)
    return prove_zero(ode, beta.subs(S.t, 0) - 1)


def _proposition_1_saddle() -> Verdict:
    # y > 0 (B > 0): xi' -> 0 as exp(-4 B t) -> 0, so beta = q_i^2/q_i(0)^2 -> 0 and p_i = 0:
    # the flow converges to the saddle p = q = 0.
    S = _S()
    beta = S.paper["beta"]
    return prove_zero(beta.subs(sp.exp(-4 * S.B * S.t), 0))


def _eq49() -> Verdict:
    # (49): when B = o(sqrt(AC)) (condition (30)), alpha_+ -> sqrt(C/A) = sqrt(Q/P), = 1 if P = Q
    S = _S()
    ap = S.paper["alpha_plus"].subs(S.D, _D())
    lim = sp.limit(ap, S.B, 0)
    return prove_zero(lim - sp.sqrt(S.C / S.A), lim.subs(S.C, S.A) - 1)


def _stable_N_M() -> list[tuple[sp.Expr, sp.Expr]]:
    """Every branch combination of the stable ``(N, M)`` with ``D = sqrt(B^2 + 4AC)``."""
    S = _S()
    st = S.stable
    pairs = _pieces(sp.Tuple(st["N"], st["M"]).subs(S.D, _D()))
    return [(nm[0], nm[1]) for nm in pairs]


def _late(expr: sp.Expr, D_positive: bool, vals: Mapping[sp.Symbol, Any]) -> list[sp.Expr]:
    """Every branch of ``expr`` (early in ``tau``, late in ``s``) at ``vals``, with the
    ``D > 0`` (or ``D = 0``, then ``vals[D]`` is 0) pieces of ``s``, ``Es``, ``log(1 + K
    tau)`` chosen, as elementary functions (for proofs)."""
    D = _S().D

    def pick(pw: sp.Piecewise) -> sp.Expr:
        rest = [a for a in pw.args if a[1] != (D > 0)]
        chosen = [a for a in pw.args if a[1] == (D > 0)]
        if not chosen:
            return pw
        return chosen[0][0] if D_positive else pw.func(*rest)

    out = expr.replace(lambda z: isinstance(z, sp.Piecewise) and z.has(D > 0), pick)
    out = out.subs(vals)
    return [elementary(p) for p in _pieces(out)]


_MANIFOLD_PIECES = {"ell": {1: "N = 0", 2: "M = 0"}, "residual": {2: "M = 0", 3: "N = 0"}}
"""The pieces of ``stable["ell"]``, ``["residual"]`` that hold on one manifold only."""


def _branch_points(key: str, index: int) -> list[tuple[str, Any, Any]]:
    Np, Mp = sp.Symbol("N_", positive=True), sp.Symbol("M_", positive=True)
    points = [("N, M > 0", Np, Mp), ("N = 0", 0, Mp), ("M = 0", Np, 0)]
    only = _MANIFOLD_PIECES[key].get(index)
    return [pt for pt in points if only is None or pt[0] == only]


def _stable_alpha() -> Verdict:
    # alpha(t) = (1 + N tau)/(1 + M tau), tau = (e^{4Dt} - 1)/(2D) (2t at D = 0), is the
    # textbook alpha(t) for every branch of N, M; G (from the initial residual) is N - M; and
    # every branch of the evaluated ell (early in tau, late in s = 1/tau, the manifolds
    # N = 0 / M = 0) is log alpha, for D > 0 and for D = 0.
    S = _S()
    st = S.stable
    D, t = _D(), S.t
    textbook = S.paper["alpha"].subs(S.D, D)
    e4 = sp.exp(4 * D * t)
    f_init = S.paper["f"].subs(S.alpha, 1)  # f(0) = c (P - Q), eq. (19)
    G = S.coefficients["G"].subs(S.f0, f_init)
    res = [elementary(st["tau"]).subs(S.D, D) - (e4 - 1) / (2 * D)]
    for N, M in _stable_N_M():
        alpha_nm = (1 + N * (e4 - 1) / (2 * D)) / (1 + M * (e4 - 1) / (2 * D))
        res.append(alpha_nm - textbook)
        res.append(G - (N - M).subs(_abc()))
    Dp = sp.Symbol("D_", positive=True)
    for D_positive in (True, False):
        tau = (sp.exp(4 * Dp * t) - 1) / (2 * Dp) if D_positive else 2 * t
        for index, (expr, _cond) in enumerate(st["ell"].args):
            if index == 0:
                continue  # G = 0: ell = 0, alpha = 1 (N = M)
            for _name, N, M in _branch_points("ell", index):
                vals = {S.N: N, S.M: M, S.G: N - M, S.D: Dp if D_positive else 0}
                alpha = (1 + N * tau) / (1 + M * tau)
                for e in _late(expr, D_positive, vals):
                    res.append(sp.expand_log(sp.exp(e), force=True) - alpha)
    for key, exact in (("D_plus", D + S.B), ("D_minus", D - S.B)):
        for expr in _pieces(st[key].subs(S.D, D)):
            res.append(expr - exact)
    return prove_zero(*res)


def _stable_residual() -> Verdict:
    # f(t) - y = (f0 - y) e^{4Dt}/((1 + N tau)(1 + M tau)) solves d alpha/dt = -2 k alpha (f - y)
    # (eq. (37)) with f0 - y = -G/k, G = N - M, for every branch of N, M; every branch of the
    # evaluated residual (early, late, on the manifolds N = 0 / M = 0) is that form.
    S = _S()
    st = S.stable
    D, t = _D(), S.t
    k = sp.Symbol("k", positive=True)
    tau = (sp.exp(4 * D * t) - 1) / (2 * D)
    form = (S.f0 - S.y) * sp.exp(4 * S.D * t) / ((1 + S.N * tau) * (1 + S.M * tau))
    res = []
    for N, M in _stable_N_M():
        vals = {S.N: N, S.M: M, S.D: D, S.f0: S.y - (N - M) / k}
        alpha = (1 + N * tau) / (1 + M * tau)
        res.append(sp.diff(alpha, t) + 2 * k * alpha * form.subs(vals))
    Dp = sp.Symbol("D_", positive=True)
    for D_positive in (True, False):
        tau_ = (sp.exp(4 * Dp * t) - 1) / (2 * Dp) if D_positive else 2 * t
        for index, (expr, _cond) in enumerate(st["residual"].args):
            if index == 0:
                continue  # f0 = y: the residual is 0
            for _name, N, M in _branch_points("residual", index):
                vals = {S.N: N, S.M: M, S.D: Dp if D_positive else 0}
                exact = form.subs(tau, tau_).subs(vals)
                for e in _late(expr, D_positive, vals):
                    res.append(e - exact)
    return prove_zero(*res)


def _stable_limits() -> Verdict:
    # t -> oo: sympy's limit of alpha = (1 + N tau)/(1 + M tau) (the textbook alpha, claim
    # stable_alpha) is exp(ell_inf) on each branch (N, M > 0: alpha_+ = N/M; M = 0, i.e.
    # P = 0 <= y: oo, the saddle of Proposition 1; N = 0, i.e. Q = 0, y <= 0: 0), for D > 0
    # and D = 0; sympy's limit of f - y is residual_inf; the late branch of the evaluated ell
    # and residual tends to them; and at t = oo, where the generated code has s = 0 and
    # Es = 2D, the evaluated late forms are exactly ell_inf, residual_inf.
    S = _S()
    st = S.stable
    t = S.t
    Dp = sp.Symbol("D_", positive=True)
    r = sp.Symbol("r", nonzero=True)  # f0 - y
    res: list[sp.Expr] = []
    cases: list[tuple[str, bool | None]] = []
    late = {"ell": len(st["ell"].args) - 1, "residual": len(st["residual"].args) - 1}
    manifold = {"N = 0": {"ell": 1, "residual": 3}, "M = 0": {"ell": 2, "residual": 2}}
    for D_positive in (True, False):
        tau = (sp.exp(4 * Dp * t) - 1) / (2 * Dp) if D_positive else 2 * t
        e4 = sp.exp(4 * Dp * t) if D_positive else 1
        for name, N, M in _branch_points("ell", 3):
            vals = {S.N: N, S.M: M, S.G: N - M, S.D: Dp if D_positive else 0}
            tag = f"{name}, D {'> 0' if D_positive else '= 0'}"
            # off the fixed point f0 = y (G = N - M != 0, residual r != 0)
            off = {S.G: sp.Symbol("G_", nonzero=True), S.f0: S.y + r}
            ell_inf = _evaluate_at(st["ell_inf"], {**vals, **off})
            r_inf = _evaluate_at(st["residual_inf"], {**vals, **off})
            lim_alpha = sp.limit((1 + N * tau) / (1 + M * tau), t, sp.oo)
            exact_r = r * e4 / ((1 + N * tau) * (1 + M * tau))
            res.append(sp.limit(exact_r, t, sp.oo) - r_inf)
            idx = manifold.get(name, late)
            ell_late = _late(st["ell"].args[idx["ell"]][0], D_positive, vals)
            r_late = _late(st["residual"].args[idx["residual"]][0], D_positive, vals)
            at_oo = {st["s"]: 0, st["Es"]: 2 * S.D if D_positive else 0}
            r_at_oo = elementary(st["residual"].args[idx["residual"]][0].xreplace(at_oo))
            res.append(r_at_oo.subs(vals).subs(S.f0, S.y + r) - r_inf)
            for e in r_late:
                res.append(sp.limit(e.subs(S.f0, S.y + r), t, sp.oo) - r_inf)
            if ell_inf.is_infinite:
                cases.append((f"{tag}: alpha -> {sp.exp(ell_inf)}", lim_alpha == sp.exp(ell_inf)))
                for e in ell_late:
                    cases.append((f"{tag}: ell -> {ell_inf}", sp.limit(e, t, sp.oo) == ell_inf))
            else:
                res.append(lim_alpha - sp.exp(ell_inf))
                for e in ell_late:
                    res.append(sp.limit(e, t, sp.oo) - ell_inf)
                s0 = elementary(st["ell"].args[late["ell"]][0].xreplace({st["s"]: 0}))
                res.append(s0.subs(vals) - ell_inf)
    verdict = prove_zero(*res)
    decided = decide(cases, "infinite limits")
    status = "proved" if verdict.status == decided.status == "proved" else "failed"
    return Verdict(status, f"{verdict.detail}; {decided.detail}",
                   residuals=verdict.residuals + decided.residuals)  # fmt: skip


def _stable_units() -> Verdict:
    S = _S()
    st = S.stable
    init = {S.u: S.u0, S.v: S.v0}
    at = {S.p0: S.paper["p"].subs(init), S.q0: S.paper["q"].subs(init)}
    e = sp.exp(S.ell)
    exact = {
        "u_t": S.paper["u"].subs({S.p0: S.paper["p_alpha"], S.q0: S.paper["q_alpha"]},
                                 simultaneous=True),
        "v_t": S.paper["v"].subs({S.p0: S.paper["p_alpha"], S.q0: S.paper["q_alpha"]},
                                 simultaneous=True),
    }  # fmt: skip
    res = []
    for key, target in exact.items():
        target = target.subs(S.alpha, e).subs(at, simultaneous=True)
        for expr, _cond in st[key].args:
            expr = elementary(expr).replace(
                lambda z: isinstance(z, sp.Piecewise), lambda z: z.args[-1][0]
            )
            res.append(expr.subs(at, simultaneous=True) - target)
    return prove_zero(*(sp.expand(r.rewrite(sp.exp)) for r in res))


def _stable_alignment() -> Verdict:
    # the evaluated alignment: F / sqrt(F^2 + 4 Lambda) with F = sum(p^2 - q^2) and the
    # conserved Lambda = sum_{i<j}(p_i q_j - p_j q_i)^2 is (21), paper["zeta"] (d = 3,
    # Lagrange's identity; at alpha = 1, the time of the p_i, q_i given)
    S = _S()
    d = 3
    p = sp.symbols(f"p0:{d}", real=True)
    q = sp.symbols(f"q0:{d}", real=True)
    F = sum(v**2 for v in p) - sum(v**2 for v in q)
    lam = sum((p[i] * q[j] - p[j] * q[i]) ** 2 for i, j in itertools.combinations(range(d), 2))
    expr = S.stable["alignment"].args[-1][0].subs({S.F: F, S.Lam: lam})
    P, Q = sum(v**2 for v in p) / d, sum(v**2 for v in q) / d
    spq = sum(a_ * b_ for a_, b_ in zip(p, q, strict=True))
    zeta = _at_units(S.paper["zeta"], d, P, Q, spq).subs(S.alpha, 1)
    # (expr/zeta)^2 = 1, and expr/zeta = d sqrt(...)/sqrt(F^2 + 4 Lambda) > 0
    return prove_zero((expr / zeta) ** 2 - 1)


def _limit_p0(expr: sp.Expr, sign_y: int) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    """The ``P -> 0+`` limit (``A -> 0+``) of a paper form in A, B, C, D at ``B`` of the sign
    of ``y`` (``C > 0``)."""
    S = _S()
    A = sp.Symbol("A_", positive=True)
    B = sp.Symbol("B_", positive=True) * sign_y if sign_y else sp.Integer(0)
    C = sp.Symbol("C_", positive=True)
    e = expr.subs(S.D, _D()).subs({S.A: A, S.B: B, S.C: C}, simultaneous=True)
    return sp.limit(e, A, 0, "+"), {S.A: 0, S.B: B, S.C: C}


def _evaluate_at(expr: sp.Basic, at: Mapping[sp.Symbol, sp.Expr]) -> sp.Basic:
    """``expr`` at ``at``, each ``Piecewise`` reduced to its selected piece before the
    others are evaluated (an unselected piece may be 0/0 there, as in numpy's select)."""
    if isinstance(expr, sp.Piecewise):
        for piece, cond in expr.args:
            holds = _evaluate_at(cond, at)
            if holds == sp.true:
                return _evaluate_at(piece, at)
            if holds != sp.false:
                raise ValueError(f"undecided condition {holds} at {at}")
        return sp.nan
    if isinstance(expr, sp.ITE):  # a Piecewise condition: If-Then-Else
        cond, then, other = expr.args
        holds = _evaluate_at(cond, at)
        if holds not in (sp.true, sp.false):
            raise ValueError(f"undecided condition {holds} at {at}")
        return _evaluate_at(then if holds == sp.true else other, at)
    if isinstance(expr, sp.Symbol):
        return at.get(expr, expr)
    if not expr.args:
        return expr
    return expr.func(*(_evaluate_at(a, at) for a in expr.args))


def _stable_constants() -> Verdict:
    # the reported constants as evaluated (stable forms, every branch) equal eqs. (11), (12),
    # (47) where P > 0, and their P -> 0+ limits where P = 0 (Proposition 1): alpha_+ -> oo
    # (y >= 0) or C/|B| = -1/alpha' (y < 0); alpha_- -> C/B = 1/alpha' (y > 0) or oo (y <= 0)
    S = _S()
    st, pa = S.stable, S.paper
    D = _D()
    nm = {S.N: st["N"], S.M: st["M"]}
    res: list[sp.Expr] = []
    cases: list[tuple[str, bool | None]] = []
    # P > 0: the first piece of each (N/M, D_minus/(2A), 1/D, B/C) on every branch of N, M
    for key in ("alpha_plus", "alpha_minus", "t_c", "alpha_prime"):
        first = st[key].args[0][0].subs(nm).subs(S.D, D)
        for expr in _pieces(first):
            res.append(expr - pa[key].subs(S.D, D))
    # P = 0 (A = 0): the stable Piecewise, evaluated by sympy at each sign of y, against the
    # limit of the paper form; alpha' against the printed (47) (B/C, no limit needed)
    for sign_y in (1, -1, 0):
        for key in ("alpha_plus", "alpha_minus", "t_c"):
            lim, at = _limit_p0(pa[key], sign_y)
            if sign_y == 0 and key == "t_c":
                lim = sp.oo  # D = |B| = 0: 1/D is infinite (t_c = oo)
            value = _evaluate_at(st[key].subs(nm).subs(S.D, D), at)
            if lim.is_infinite:
                cases.append((f"{key}, P = 0, sign y = {sign_y}: oo", value == sp.oo))
            else:
                res.append(value - lim)
    verdict = prove_zero(*res)
    decided = decide(cases, "infinite limits")
    if verdict.status == "proved" and decided.status == "proved":
        return Verdict("proved", f"{verdict.detail}; {decided.detail}",
                       residuals=verdict.residuals + decided.residuals)  # fmt: skip
    return Verdict("failed", f"{verdict.detail}; {decided.detail}",
                   residuals=verdict.residuals + decided.residuals)  # fmt: skip


# ---------------------------------------------------------------------------
# Numeric claims: the reported constants against the paper's forms, evaluated exactly
# ---------------------------------------------------------------------------
def _rational(value: Number) -> sp.Rational:
    """The exact value of a stored number: a decimal string exactly, a float or an ``mpf`` at
    its exact binary value."""
    if isinstance(value, str):
        return sp.Rational(value.strip())
    if isinstance(value, mpmath.mpf):
        man, exp = value.man_exp
        return sp.Integer(man) * sp.Integer(2) ** exp
    return sp.Rational(value)


def paper_constants(setup: Setup, u0: Any, W0: Any) -> dict[str, sp.Expr | None]:
    """The constants a :class:`Trajectory` reports, in exact arithmetic from the paper's
    forms: ``P``, ``Q`` of eqs. (6), (7) on ``(u0, W0)`` (``symbolic().paper["p"]``,
    ``["q"]``, every number taken at its exact value), then ``alpha_plus``,
    ``alpha_minus`` (eq. (12), corrected sign), ``t_c`` (eq. (11)) and, for ``P = 0 < Q``,
    ``alpha_prime`` (eq. (47)).  For ``P = 0`` alpha_+- are the ``P -> 0+`` limits of
    eq. (12) (``sympy.oo`` where infinite; for ``y < 0`` alpha_+ is also the late-time limit
    of ``1/beta(t)`` of Proposition 1), and ``t_c = oo`` where ``D = 0``.  Closed sympy
    numbers (algebraic), for checks: evaluate with ``sympy.N`` at any precision."""
    S = symbolic()
    co, pa = S.coefficients, S.paper
    u0c, W0c = _check_weights(setup, u0, W0)
    x = [_rational(v) for v in setup.x]
    rho = sp.sqrt(sum(v**2 for v in x))
    base = {S.eta_u: _rational(setup.eta_u), S.eta_w: _rational(setup.eta_w),
            S.gamma: _rational(setup.gamma), S.rho: rho, S.y: _rational(setup.y)}  # fmt: skip
    p, q = [], []
    for ui, row in zip(u0c, W0c, strict=True):
        v = sum(_rational(w) * xj for w, xj in zip(row, x, strict=True))
        at = {**base, S.u: _rational(ui), S.v: v}
        p.append(pa["p"].subs(at))
        q.append(pa["q"].subs(at))
    d = len(p)
    P = sp.radsimp(sp.expand(sum(v**2 for v in p) / d))
    Q = sp.radsimp(sp.expand(sum(v**2 for v in q) / d))
    at = {**base, S.d: d, S.P: P, S.Q: Q}
    A, B, C = (sp.radsimp(co[k].subs(at)) for k in ("A", "B", "C"))
    D = sp.sqrt(B**2 + 4 * A * C)
    out: dict[str, sp.Expr | None] = {"P": P, "Q": Q}
    num = {S.A: A, S.B: B, S.C: C, S.D: D}
    if P != 0:
        for key in ("alpha_plus", "alpha_minus"):
            out[key] = pa[key].subs(num)
    else:
        a = sp.Symbol("a", positive=True)  # A -> 0+
        for key in ("alpha_plus", "alpha_minus"):
            expr = pa[key].subs(S.D, _D()).subs({S.A: a, S.B: B, S.C: C}, simultaneous=True)
            out[key] = sp.limit(expr, a, 0, "+")
    out["t_c"] = pa["t_c"].subs(num) if D != 0 else sp.oo
    out["alpha_prime"] = pa["alpha_prime"].subs(num) if (P == 0 and Q != 0) else None
    if P == 0 and Q != 0 and B < 0:  # Proposition 1: alpha_+ = lim 1/beta(t)
        out["alpha_plus (Prop. 1)"] = sp.limit(1 / pa["beta"].subs(num), S.t, sp.oo)
    return out


# Tolerances of the reported constants against their exact values, in units of tolerance:
# * mpmath at dps: rounded to dps digits (relative error <= 10**-dps; 10**(1 - dps) asked),
#   evaluated at dps + GUARD_DIGITS (10) digits; the only cancellation is in p_i, q_i (a_i +-
#   b_i), whose relative error is amplified by cond = max_i (|a_i| + |b_i|)/|a_i +- b_i|
#   (<= 1e5 in the suite): 10**-(dps + 10) * 4 cond is added.
# * float64: about 20 roundings of inputs and operations (<= eps/2 each) reach P, Q, B
#   amplified by cond; alpha_+-, t_c, alpha' have condition <= 2 in P, Q, B (roots of
#   A a^2 - B a - C: |d log alpha_+-| <= 2 max |d log(A, B, C)|): rtol = 64 eps (1 + cond).
def _pq_condition(case_: Case) -> float:
    """``max_i (|a_i| + |b_i|) / |a_i +- b_i|`` over the units with ``a_i +- b_i != 0`` (the
    amplification of rounding errors by the cancellation in p_i, q_i of eq. (6))."""
    with mpmath.workdps(40):
        x = [mpmath.mpf(v) for v in case_.setup.x]
        rho = mpmath.sqrt(mpmath.fsum(v * v for v in x))
        sa = mpmath.sqrt(mpmath.mpf(case_.setup.eta_u)) / rho
        sb = mpmath.sqrt(mpmath.mpf(case_.setup.eta_w))
        worst = mpmath.mpf(1)
        for ui, row in zip(case_.u0, case_.W0, strict=True):
            a = sa * mpmath.fsum(mpmath.mpf(w) * xj for w, xj in zip(row, x, strict=True))
            b = sb * mpmath.mpf(ui)
            for c in (a + b, a - b):
                if abs(c) > (abs(a) + abs(b)) * mpmath.mpf(10) ** -35:
                    worst = worst_of(worst, (abs(a) + abs(b)) / abs(c))
        return float(worst)


def _constant_error(got: Any, exact: sp.Expr | None, rtol: float) -> float:
    """Error of a reported constant in units of ``rtol`` (relative): ``inf`` where
    ``None``/infinite/zero do not match exactly."""
    if exact is None or got is None:
        return 0.0 if exact is None and got is None else math.inf
    with mpmath.workdps(80):
        g = mpmath.mpf(got)
        if exact.is_infinite:
            return 0.0 if g == mpmath.inf else math.inf
        e = mpmath.mpf(sp.N(exact, 90))
        if e == 0:
            return 0.0 if g == 0 else math.inf
        return float(abs(g - e) / (rtol * abs(e)))


def _reported_constants(dps: int = 30) -> Verdict:
    """Every reported constant of :func:`closed_form` (float64, mpmath at ``dps`` and at
    ``2 dps``) on every named case against :func:`paper_constants`."""
    worst, where, n = NOTHING_COMPARED, "", 0
    for c in CASES:
        exact = paper_constants(c.setup, c.u0, c.W0)
        cond = _pq_condition(c)
        for prec in (None, dps, 2 * dps):
            traj = closed_form(c.setup, c.u0, c.W0, dps=prec)
            if prec is None:
                rtol = 64 * 2.0**-52 * (1 + cond)
            else:
                rtol = 10.0 ** (1 - prec) + 4 * cond * 10.0 ** -(prec + GUARD_DIGITS)
            for key, value in exact.items():
                got = getattr(traj, key.split(" ")[0])
                err = _constant_error(got, value, rtol)
                n += 1
                if not err <= worst:
                    worst, where = err, f"{c.name}: {key} at dps={prec}"
    return Verdict.from_error(
        worst,
        f"{n} comparisons ({len(CASES)} cases x float64, dps={dps}, {2 * dps}) with eqs. "
        f"(6), (7), (11), (12), (47) in exact arithmetic; worst {worst:.2g} tolerances "
        f"({where})",
    )


def _reported_relations(dps: int = 30) -> Verdict:
    """Relations between the reported constants, at their working precision: for P > 0
    alpha_+ alpha_- = Q/P, alpha_+ - alpha_- = B/A, alpha_+ + alpha_- = 1/(A t_c) (text
    after (14)); for P = 0 < Q, alpha' C = B (eq. (47)), t_c |B| = 1, and alpha_+ alpha' = -1
    (y < 0) or alpha_- alpha' = 1 (y > 0) (the P -> 0 limits of (12)).  A, B, C from the
    generated evaluator of ``symbolic().coefficients`` at the reported P, Q."""
    S = symbolic()
    co = S.coefficients
    worst, where, n = NOTHING_COMPARED, "", 0
    for c in CASES:
        cond = _pq_condition(c)
        for prec in (None, dps, 2 * dps):
            traj = closed_form(c.setup, c.u0, c.W0, dps=prec)
            k = traj._data
            backend = "numpy" if prec is None else "mpmath"
            abc = generate((S.eta_u, S.eta_w, S.gamma, S.rho, S.y, S.d, S.P, S.Q),
                           (co["A"], co["B"], co["C"]), backend)  # fmt: skip
            # each side combines <= 3 reported values: 3 times their tolerance (see
            # _reported_constants), relative to the magnitudes of the terms
            rtol = 3 * (
                64 * 2.0**-52 * (1 + cond)
                if prec is None
                else 10.0 ** (1 - prec) + 4 * cond * 10.0 ** -(prec + GUARD_DIGITS)
            )
            with nb.Precision(prec):
                A, B, C = abc(k["eta_u"], k["eta_w"], k["gamma"], k["rho"], k["y"],
                              len(k["p0"]), traj.P, traj.Q)  # fmt: skip
                ap, am, tc, P, Q = traj.alpha_plus, traj.alpha_minus, traj.t_c, traj.P, traj.Q
                pairs = []
                if P > 0:
                    pairs += [
                        ("alpha_+ alpha_- = Q/P", ap * am, Q / P),
                        ("alpha_+ - alpha_- = B/A", ap - am, B / A, ap + am),
                        ("alpha_+ + alpha_- = 1/(A t_c)", ap + am, 1 / (A * tc)),
                    ]
                elif Q > 0:
                    ab = traj.alpha_prime
                    pairs += [("alpha' C = B", ab * C, B), ("t_c |B| = 1", tc * abs(B), 1)]
                    pairs += [("alpha_+ alpha' = -1", ap * ab, -1)] if B < 0 else []
                    pairs += [("alpha_- alpha' = 1", am * ab, 1)] if B > 0 else []
                else:
                    continue  # the saddle: no relation (all constants checked exactly)
            for name, lhs, rhs, *scale in pairs:
                with mpmath.workdps(80):
                    diff = abs(mpmath.mpf(lhs) - mpmath.mpf(rhs))
                    mag = abs(mpmath.mpf(scale[0] if scale else rhs))
                    err = 0.0 if diff == 0 else float(diff / (rtol * mag)) if mag else math.inf
                n += 1
                if not err <= worst:
                    worst, where = err, f"{c.name}: {name} at dps={prec}"
    return Verdict.from_error(
        worst,
        f"{n} relations over the cases x 3 precisions; worst {worst:.2g} tolerances ({where})",
    )


def claims() -> list[Theorem]:
    """The claims of seed 001, Section 2 and Appendix A.1, in paper order (the
    conservation laws come from :func:`laws`; the simulation-backed confirmations are in
    :mod:`solvable.verification.confirmations.xu_ziyin`)."""

    def T(id_, eqs, statement, fn, kind="symbolic"):
        return Theorem(f"xu_ziyin.{id_}", f"{SEED} {eqs}", statement, kind, fn)

    return [
        T("eq_31", "eqs. (4), (5), (31)",
          "The gradient flow of L = (gamma u^T W x - y)^2 is eq. (31), per unit as "
          "unit_flow.", _eq31),
        T("pq_invariant", "eq. (35)",
          "4 p_i q_i = eta_u (W x)_i^2/rho^2 - eta_w u_i^2.", _eq35),
        T("eq_37", "eq. (37)",
          "dp_i/dt = -2 gamma rho sqrt(eta_u eta_w) (f - y) p_i, dq_i/dt = +... q_i.", _eq37),
        T("eq_39", "eq. (39)",
          "alpha = p_i^2/p_i(0)^2 obeys d alpha/dt = -4 (A alpha^2 - B alpha - C).", _eq39),
        T("theorem_1", "Theorem 1, eqs. (8)-(12)",
          "alpha(t) = (alpha_+ + xi alpha_-)/(1 - xi) solves (39) with alpha(0) = 1 "
          "(alpha_- = (D - B)/(2A) >= 0, see errata (12)).", _theorem_1),
        T("alpha_relations", "text after (14), eq. (12)",
          "alpha_+ alpha_- = Q/P, alpha_+ - alpha_- = B/A, alpha_+ + alpha_- = D/A.",
          _alpha_relations),
        T("eq_13", "eq. (13)",
          "u_i = (p_i - q_i)/sqrt(eta_w), (Wx)_i = rho (p_i + q_i)/sqrt(eta_u).", _eq13),
        T("eq_14", "eq. (14) (corrected, see errata)",
          "W(t) = W(0) + (Delta p + Delta q) x^T/(sqrt(eta_u) rho) = W(0)(I - x x^T/rho^2) "
          "+ (W(t)x) x^T/rho^2: only the x-direction of W moves.", _eq14),
        T("eq_15_16", "eqs. (15), (16)",
          "alpha(t) -> alpha_+ (a root of (39)): p_i -> p_i(0) sqrt(alpha_+), "
          "q_i -> q_i(0)/sqrt(alpha_+).", _eq15_16),
        T("orthogonal_output", "Section 2.1, after (16)",
          "For m orthogonal to x, W(t) m = W(0) m: d(Wm)/dt = -2 eta_w gamma (f-y)(x.m) u.",
          _orthogonal),
        T("eq_17", "eqs. (11), (17)",
          "t_c^-2 = eta_u eta_w gamma^2 rho^2 y^2 + 4 rho^4 (gamma^2 d)^2 P Q.", _eq17),
        T("eq_18", "eq. (18) (corrected, see errata)",
          "df/dt = -2 K (f - y) with K = gamma^2 x^T (eta_u W^T W + eta_w ||u||^2 I) x.", _eq18),
        T("eq_18_19_pq", "eqs. (18), (19)",
          "K = 2 gamma^2 rho^2 d (P alpha + Q/alpha); both evaluated forms of f equal (19).",
          _eq18_pq),
        T("eq_19", "eq. (19)",
          "gamma u_i (W x)_i = gamma rho (p_i^2 - q_i^2)/sqrt(eta_u eta_w), so "
          "f = (gamma d rho/sqrt(eta_u eta_w)) (P alpha - Q/alpha).", _eq19_unit),
        T("eq_19_limit", "text after (19)",
          "f(infinity) = c (alpha_+ P - Q/alpha_+) = y (P, Q > 0; see errata for Q = 0).",
          _eq19_limit),
        T("eq_21", "eq. (21)",
          "zeta = (alpha P - Q/alpha)/sqrt((alpha P + Q/alpha)^2 - (2/d sum p_i q_i)^2) "
          "(d0 = 1).", _eq21),
        T("eq_22", "eq. (22) (corrected, see errata)",
          "If p_i = C q_i for all i, zeta^2 = 1 for all t.", _eq22),
        T("eq_23", "eq. (23)",
          "d zeta/d alpha = (P + Q/alpha^2)(4PQ - S^2)/[(alpha P + Q/alpha)^2 - S^2]^(3/2), "
          "and 4PQ - S^2 = (4/d^2) sum_{i<j} (p_i q_j - p_j q_i)^2 >= 0.", _eq23),
        T("zeta_monotone", "Section 2.2, after (23)",
          "d alpha/dt = (alpha_+ - 1) x (positive): alpha moves monotonically from 1 to "
          "alpha_+, so zeta is monotone in t.", _zeta_monotone),
        T("eq_24", "eq. (24)", "(24) is alpha_+ > 1.", _eq24),
        T("eq_24_q_ge_p", "text after (24)",
          "For y > 0, (24) holds whenever Q >= P.", _eq24_q_ge_p),
        T("eq_25_26", "eqs. (25), (26) (corrected, see errata)",
          "||u||^2 = (d(alpha P + Q/alpha) - 2 sum p q)/eta_w, ||w||^2 = (... + ...)/eta_u; "
          "d||u||^2/d alpha = d(P - Q/alpha^2)/eta_w, of the sign of zeta.", _eq25_26),
        T("rescaling_sign", "Section 2.3",
          "d||u||^2/dt = (alpha_+ - 1)(alpha^2 P - Q) x (positive).", _rescaling_sign),
        T("proposition_1", "Proposition 1, eqs. (44)-(48)",
          "For P = 0: q_i(t)^2/q_i(0)^2 = alpha' xi'/(1 - xi') solves (48) from 1.",
          _proposition_1),
        T("proposition_1_saddle", "Appendix A.1 after (48)",
          "For P = 0 and y > 0, q_i(t) -> 0: the flow converges to the saddle.",
          _proposition_1_saddle),
        T("eq_49", "eq. (49)",
          "As B/sqrt(AC) -> 0, alpha_+ -> sqrt(Q/P), which is 1 when P = Q.", _eq49),
        T("stable_alpha", "eqs. (8)-(12) (evaluation form)",
          "log alpha = log1p(G tau/(1 + M tau)) = log((N + s)/(M + s)), s = 1/tau = "
          "2D/expm1(4Dt), (and the forms on P = 0, Q = 0) equals the textbook alpha(t) on "
          "every branch of N, M; "
          "G = N - M; D +- B branches are exact.", _stable_alpha),
        T("stable_limits", "eqs. (8)-(12), (15), (16), Proposition 1 (t = oo)",
          "As t -> oo, alpha -> N/M = alpha_+ (P > 0), oo (P = 0 <= y: the saddle), 0 "
          "(Q = 0, y <= 0); the evaluated ell and f - y at t = oo (s = 0) are these limits "
          "(ell_inf, residual_inf, derived by sympy's limit).", _stable_limits),
        T("stable_residual", "eqs. (19), (37) (evaluation form)",
          "f(t) - y = (f0 - y) e^{4Dt} / ((1 + N tau)(1 + M tau)).", _stable_residual),
        T("stable_units", "eqs. (8), (9), (13) (evaluation form)",
          "Both branches of u(t) and W(t)x equal eq. (13) with (8), (9).", _stable_units),
        T("stable_alignment", "eq. (21) (evaluation form)",
          "F/sqrt(F^2 + 4 Lambda), Lambda = sum_{i<j}(p_i q_j - p_j q_i)^2, is (21).",
          _stable_alignment),
        T("stable_constants", "eqs. (11), (12), (47) (evaluation form)",
          "The evaluated alpha_+, alpha_-, t_c, alpha' equal (11), (12), (47) for P > 0 on "
          "every branch, and the P -> 0+ limits of (12) for P = 0 (Proposition 1).",
          _stable_constants),
        T("reported_constants", "eqs. (6), (7), (11), (12), (47)",
          "P, Q, alpha_+, alpha_-, t_c, alpha' reported by closed_form (float64, two mpmath "
          "precisions) equal the paper's forms evaluated exactly from each case's setup and "
          "initial weights (P = 0, Q = 0 and the saddle included).",
          _reported_constants, "numeric"),
        T("reported_relations", "text after (14), eq. (47)",
          "The reported constants satisfy alpha_+ alpha_- = Q/P, alpha_+ - alpha_- = B/A, "
          "alpha_+ + alpha_- = 1/(A t_c) (P > 0), alpha' C = B, t_c |B| = 1 (P = 0).",
          _reported_relations, "numeric"),
    ]  # fmt: skip


# ---------------------------------------------------------------------------
# Errata: each disagreement with the printed paper, with the residual of both versions.
# The printed side is typed as printed (data); the corrected side is this module's code.
# ---------------------------------------------------------------------------
def _exact(expr: sp.Expr) -> sp.Expr:
    """Exact value of a closed (symbol-free) algebraic expression, radicals expanded."""
    return sp.expand(sp.radsimp(expr))


def _flow_d0(d0: int) -> tuple[UnitFlow, sp.Expr, sp.Expr]:
    F = unit_flow(d0)
    v = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    norm = sp.sqrt(sum(xj**2 for xj in F.x))
    return F, v, norm


def _rho_normalisation() -> tuple[sp.Expr, sp.Expr]:
    # With d0 = 2, eq. (37) needs dp_i/dt to be a multiple of p_i.  Both are linear
    # in (u_i, w_i0, w_i1); the 2x2 minor of their coefficients vanishes iff parallel.
    S = symbolic()
    F, v, norm = _flow_d0(2)
    printed = sp.sqrt((F.x[0] ** 2 + F.x[1] ** 2) / 2)

    def minor(rho: sp.Expr) -> sp.Expr:
        p = S.paper["p"].subs({S.rho: rho, S.u: F.u, S.v: v})
        dp = F.ddt(p)
        return sp.diff(dp, F.u) * sp.diff(p, F.w[0]) - sp.diff(dp, F.w[0]) * sp.diff(p, F.u)

    return minor(printed), minor(norm)


_POINT = (1, sp.Rational(1, 2), sp.Rational(1, 3))  # (A, B, C) of the rational checks


def _point() -> dict[sp.Symbol, sp.Expr]:
    S = symbolic()
    point = dict(zip((S.A, S.B, S.C), _POINT, strict=True))
    point[S.D] = _D().subs(point)
    return point


def _alpha_minus_sign() -> tuple[sp.Expr, sp.Expr]:
    # alpha(t) of eqs. (8)-(10) (paper["alpha_roots"]) must solve the reduced flow (39) with
    # alpha(0) = 1.  Residual: the ODE residual at t = 0 plus (alpha(0) - 1)^2 at the rational
    # point (A, B, C) = (1, 1/2, 1/3), with the printed alpha_- and with paper["alpha_minus"].
    S = symbolic()
    point = _point()

    def residual(am: sp.Expr) -> sp.Expr:
        roots = {S.ap: S.paper["alpha_plus"], S.am: am}
        alpha = S.paper["alpha_roots"].subs(roots, simultaneous=True).subs(point)
        ode = sp.diff(alpha, S.t) - S.riccati_rhs(alpha).subs(point)
        return _exact((ode + (alpha - 1) ** 2).subs(S.t, 0))

    return residual((S.B - S.D) / (2 * S.A)), residual(S.paper["alpha_minus"])


def _eq14_factor() -> tuple[sp.Expr, sp.Expr]:
    # W(t) x - W(0) x must equal v(Delta p, Delta q) = rho (Delta p + Delta q)/sqrt(eta_u)
    # (eq. (13), paper["v"]); with the printed factor of (14), and with paper["w_t"].
    S = symbolic()
    dp, dq = sp.symbols("Delta_p Delta_q", real=True)
    F, _v, norm = _flow_d0(2)
    target = S.paper["v"].subs({S.p0: dp, S.q0: dq, S.rho: norm}, simultaneous=True)
    change = {S.pt: S.p0 + dp, S.qt: S.q0 + dq, S.rho: norm}
    printed = sum((dp + dq) * xj / sp.sqrt(S.eta_u * norm) * xj for xj in F.x)
    corrected = sum((S.paper["w_t"].subs({**change, S.xj: xj}) - S.w0) * xj for xj in F.x)
    return printed - target, corrected - target


def _df_dt() -> tuple[UnitFlow, sp.Expr, Any, Any]:
    # one unit suffices: f is a sum over units and each term's derivative is a
    # per-unit expression; here d = 1, d0 = 2.
    S = symbolic()
    F, _v, _norm = _flow_d0(2)
    u, W, x = np.array([F.u]), np.array([list(F.w)]), np.array(list(F.x))
    f = network_output(u, W, x, S.gamma)
    return F, F.ddt(f), (u, W, x)


def _ntk_rates() -> tuple[sp.Expr, sp.Expr]:
    S = symbolic()
    F, dfdt, (u, W, x) = _df_dt()
    v, x2 = (W @ x)[0], (x * x).sum()
    printed = S.gamma**2 * (S.eta_w * v**2 + S.eta_u * F.u**2 * x2)
    corrected = ntk(u, W, x, S.eta_u, S.eta_w, S.gamma)
    return dfdt + 2 * printed * F.r, dfdt + 2 * corrected * F.r


def _ntk_sign() -> tuple[sp.Expr, sp.Expr]:
    # printed: df/dt = +2 K (f - y); corrected: -2 K (f - y), K = ntk()
    S = symbolic()
    F, dfdt, (u, W, x) = _df_dt()
    K = ntk(u, W, x, S.eta_u, S.eta_w, S.gamma)
    return dfdt - 2 * K * F.r, dfdt + 2 * K * F.r


def _eq41_x() -> tuple[sp.Expr, sp.Expr]:
    # d0 = 1 with x = -2 (rho = 2): zeta = alpha_+ p0^2 must be a root of the quadratic
    # in the denominator of (41) (-riccati_rhs/4, p0 = 1).  Rational point: gamma = eta = d =
    # P = Q = y = p0 = 1.  Printed: gamma x y sqrt(eta_u eta_w) as the linear coefficient;
    # corrected: coefficients["B"].
    S = symbolic()
    z = sp.Symbol("zeta")
    vals = {S.gamma: 1, S.eta_u: 1, S.eta_w: 1, S.d: 1, S.P: 1, S.Q: 1, S.y: 1, S.rho: 2}
    x = -2
    abc = {k: v.subs(vals) for k, v in _abc().items()}
    root = S.paper["alpha_plus"].subs(S.D, _D()).subs(abc)
    quad = S.riccati_rhs(z)

    def residual(b: sp.Expr) -> sp.Expr:
        return quad.subs({**abc, S.B: b}).subs(z, root)

    printed_b = (S.gamma * x * S.y * sp.sqrt(S.eta_u * S.eta_w)).subs(vals)
    return residual(printed_b), residual(abc[S.B])


def _eq43_convention() -> tuple[sp.Expr, sp.Expr]:
    # With alpha_minus >= 0 (the convention that makes (8)-(10) and alpha_+ alpha_- = Q/P
    # true), alpha(t) solved from (43) as printed, and paper["alpha"], must satisfy the
    # reduced flow (39).  Residual: the ODE residual at t = 0 at (A, B, C) = (1, 1/2, 1/3).
    S = symbolic()
    point = _point()
    t = S.t
    ap, am = S.paper["alpha_plus"].subs(point), S.paper["alpha_minus"].subs(point)

    def residual(alpha: sp.Expr) -> sp.Expr:
        ode = (sp.diff(alpha, t) - S.riccati_rhs(alpha).subs(point)).subs(t, 0)
        return _exact(ode)

    # (alpha - ap)/(alpha - am) = (1 - ap)/(1 - am) exp(-4 D t), as printed
    e = (1 - ap) / (1 - am) * sp.exp(-4 * point[S.D] * t)
    printed = (ap - e * am) / (1 - e)
    return residual(printed), residual(S.paper["alpha"].subs(point))


def _alpha_plus_positive() -> tuple[sp.Expr, sp.Expr]:
    # Footnote 4 claims alpha_+ > 0 for every P != 0.  At Q = 0, y < 0 (rational point)
    # alpha_+ = 0, and f(infinity) = c * P * alpha_+ = 0 != y.  Residuals: the printed
    # claim "alpha_+ > 0" as (alpha_+ > 0) - 1, the corrected claim "alpha_+ = 0 when
    # Q = 0 and y <= 0" as alpha_+ itself (paper["alpha_plus"]).
    S = symbolic()
    vals = {S.A: 1, S.B: -1, S.C: 0}
    ap = S.paper["alpha_plus"].subs(S.D, _D()).subs(vals)
    printed = sp.Integer(1) - sp.Integer(int(bool(ap > 0)))
    return printed, ap


def _pq_product() -> tuple[sp.Expr, sp.Expr]:
    # text after (21), x = 1 (rho = 1, w_i = v_i): 4 p_i q_i against the printed
    # u_i^2 - w_i^2 and against paper["four_pq"] (eq. (35))
    S = symbolic()
    sub = {S.rho: 1}
    four_pq = 4 * (S.paper["p"] * S.paper["q"]).subs(sub)
    return four_pq - (S.u**2 - S.v**2), four_pq - S.paper["four_pq"].subs(sub)


def _eq22_power() -> tuple[sp.Expr, sp.Expr]:
    # p_i = C q_i: zeta^2 - 1 with the printed (22) and with paper["zeta"] at P = C^2 Q,
    # sum p_i q_i = C d Q
    S = symbolic()
    a, Cc = S.alpha, sp.Symbol("C", positive=True)
    printed = (a * Cc - 1 / a) ** 2 / ((a * Cc + 1 / a) ** 2 - 4 * Cc**2) - 1
    zeta = S.paper["zeta"].subs({S.P: Cc**2 * S.Q, S.Spq: Cc * S.d * S.Q})
    return printed, zeta**2 - 1


def _eq25_rates() -> tuple[sp.Expr, sp.Expr]:
    # ||u||^2 of one unit (d = 1, eq. (13)) against the printed (25) and paper["norm_u2"]
    S = symbolic()
    _p0, _q0, u, _w, P, Q, spq = _units(1)
    a = S.alpha
    printed = (P * a + Q / a) - 2 * spq
    corrected = _at_units(S.paper["norm_u2"], 1, P, Q, spq)
    return u[0] ** 2 - printed, u[0] ** 2 - corrected


def _eq26_equal() -> tuple[sp.Expr, sp.Expr]:
    # d||u||^2/d alpha vs d||w||^2/d alpha for one unit (d = 1, eq. (13) with (8), (9)):
    # printed equal; corrected eta_w d||u||^2/d alpha = eta_u d||w||^2/d alpha
    S = symbolic()
    _p0, _q0, u, w, *_ = _units(1)
    du, dw = sp.diff(u[0] ** 2, S.alpha), sp.diff(w[0] ** 2, S.alpha)
    return du - dw, S.eta_w * du - S.eta_u * dw


def _a2_convention() -> tuple[sp.Expr, sp.Expr]:
    # Appendix A.2 writes alpha(t) = (alpha_+ - xi alpha_-)/(1 - xi); with xi of (10) and the
    # alpha_- >= 0 of (8)-(10), alpha(0) must be 1.  Residual alpha(0) - 1 at (1, 1/2, 1/3),
    # printed and paper["alpha"].
    S = symbolic()
    point = _point()
    ap, am = S.paper["alpha_plus"].subs(point), S.paper["alpha_minus"].subs(point)
    xi0 = S.paper["xi"].subs(point).subs(S.t, 0)
    printed = (ap - xi0 * am) / (1 - xi0)
    corrected = S.paper["alpha"].subs(point).subs(S.t, 0)
    return _exact(printed - 1), _exact(corrected - 1)


def _q_ge_p_strict() -> tuple[sp.Expr, sp.Expr]:
    # d = 2, x = 1, eta = 1: u = (1, 0), w = (0, 1) has P = Q (u.w = 0).  The printed
    # equivalence "Q >= P <=> u.w < 0" fails there; "Q >= P <=> u.w <= 0" holds.
    S = symbolic()
    u, w = (1, 0), (0, 1)
    one = {S.eta_u: 1, S.eta_w: 1, S.rho: 1}
    p = [S.paper["p"].subs({**one, S.u: ui, S.v: wi}) for ui, wi in zip(u, w, strict=True)]
    q = [S.paper["q"].subs({**one, S.u: ui, S.v: wi}) for ui, wi in zip(u, w, strict=True)]
    P = sum(v**2 for v in p)
    Q = sum(v**2 for v in q)
    uw = sum(a * b for a, b in zip(u, w, strict=True))
    lhs = int(bool(Q >= P))
    return sp.Integer(lhs - int(uw < 0)), sp.Integer(lhs - int(uw <= 0))


def _eq19_rho() -> tuple[sp.Expr, sp.Expr]:
    # f = network_output (d = 2, d0 = 2, explicit weights) at t = 0 (alpha = 1), with P, Q of
    # eq. (7) from p, q of eq. (6), rho = ||x||: minus the printed gamma d/sqrt(eta_u eta_w)
    # (P - Q), and minus paper["f"] (coefficient c = gamma rho d/sqrt(eta_u eta_w))
    S = symbolic()
    d = 2
    u = np.array(sp.symbols(f"u0:{d}", real=True), dtype=object)
    W = np.array(sp.symbols(f"w0:{2 * d}", real=True), dtype=object).reshape(d, 2)
    x = np.array(sp.symbols("x0:2", real=True), dtype=object)
    rho = sp.sqrt((x * x).sum())
    at = [{S.u: u[i], S.v: (W @ x)[i], S.rho: rho} for i in range(d)]
    P = sum(S.paper["p"].subs(a) ** 2 for a in at) / d
    Q = sum(S.paper["q"].subs(a) ** 2 for a in at) / d
    f = network_output(u, W, x, S.gamma)
    printed = S.gamma * d / sp.sqrt(S.eta_u * S.eta_w) * (P - Q)
    corrected = S.paper["f"].subs({S.P: P, S.Q: Q, S.alpha: 1, S.d: d, S.rho: rho},
                                  simultaneous=True)  # fmt: skip
    return f - printed, f - corrected


def _eq21_sign() -> tuple[sp.Expr, sp.Expr]:
    # d = 2, d0 = 1, x = -rho < 0 (rho = |x|, both conventions of rho agree for d0 = 1):
    # cos(u, w) (eq. (20)) minus paper["zeta"] (eq. (21) as printed, at the current p, q:
    # alpha = 1) and minus sign(x) paper["zeta"]
    S = symbolic()
    d = 2
    u = sp.symbols(f"u0:{d}", real=True)
    w = sp.symbols(f"w0:{d}", real=True)
    x = -S.rho
    at = [{S.u: ui, S.v: wi * x} for ui, wi in zip(u, w, strict=True)]
    p = [S.paper["p"].subs(a) for a in at]
    q = [S.paper["q"].subs(a) for a in at]
    P, Q = sum(v**2 for v in p) / d, sum(v**2 for v in q) / d
    spq = sum(a * b for a, b in zip(p, q, strict=True))
    zeta = S.paper["zeta"].subs({S.alpha: 1, S.P: P, S.Q: Q, S.Spq: spq, S.d: d},
                                simultaneous=True)  # fmt: skip
    uw = sum(a * b for a, b in zip(u, w, strict=True))
    cos = uw / sp.sqrt(sp.expand(sum(a * a for a in u) * sum(b * b for b in w)))
    return cos - zeta, cos - sp.sign(x) * zeta


@functools.cache
def errata() -> tuple[Erratum, ...]:
    """Every disagreement of this module with the printed paper, each with its check."""
    s = SEED
    return (
        Erratum(
            s, "(6), (7): rho",
            "rho := sqrt((1/d0) * sum_{i=0}^{d0} x_i^2)",
            "rho := ||x|| = sqrt(sum_{j=1}^{d0} x_j^2)",
            "Eq. (37) needs dp_i/dt proportional to p_i, which holds iff rho^2 = ||x||^2; the "
            "printed 1/d0 normalisation breaks Theorem 1 for every d0 > 1 (the index i = 0 is "
            "a typo on top). Residual: the 2x2 minor of the coefficients of dp_i/dt and p_i, "
            "d0 = 2.",
            _rho_normalisation,
        ),
        Erratum(
            s, "(12)",
            "alpha_(+/-) = (B +/- D) / (2 A)",
            "alpha_(+/-) = (D +/- B) / (2 A),  A = gamma^2 d rho^2 P, B = sqrt(eta_u eta_w) gamma "
            "rho y, D = 1/t_c",
            "With the printed alpha_- (< 0), eqs. (8)-(10) do not solve the reduced flow (39) "
            "and alpha_+ alpha_- = -Q/P, not Q/P as the text says. alpha_- must be the "
            "magnitude of the negative root. Residual: ODE residual + (alpha(0) - 1)^2 at t = 0, "
            "(A, B, C) = (1, 1/2, 1/3).",
            _alpha_minus_sign,
        ),
        Erratum(
            s, "(42), (43)",
            "log((alpha - alpha_+)/(alpha - alpha_-)),  (1 - alpha_+)/(1 - alpha_-)",
            "log((alpha - alpha_+)/(alpha + alpha_-)),  (1 - alpha_+)/(1 + alpha_-)",
            "The appendix uses the printed (negative) alpha_- of (12) while (8)-(10) use its "
            "magnitude; with one alpha_- only one can be right. In the convention of (8)-(10) "
            "the constant of (43) must have 1 + alpha_-, else alpha(0) != 1. Residual: "
            "alpha(0) - 1 at (A, B, C) = (1, 1/2, 1/3).",
            _eq43_convention,
        ),
        Erratum(
            s, "(14)",
            "w_ij(t) = w_ij(0) + (p_i(t) - p_i(0) + q_i(t) - q_i(0)) x_j / sqrt(eta_u rho)",
            "w_ij(t) = w_ij(0) + (p_i(t) - p_i(0) + q_i(t) - q_i(0)) x_j / (sqrt(eta_u) rho)",
            "W(t) x must change by rho (Delta p + Delta q)/sqrt(eta_u) (inverse of eq. (6)); "
            "rho belongs outside the square root. Residual: (W(t) - W(0)) x minus that, d0 = 2.",
            _eq14_factor,
        ),
        Erratum(
            s, "(18)",
            "K(x, x') = gamma^2 x^T (eta_w W^T W + eta_u ||u||^2 I) x'",
            "K(x, x') = gamma^2 x^T (eta_u W^T W + eta_w ||u||^2 I) x'",
            "df/dt = (df/du) du/dt + (df/dW) dW/dt puts eta_u on ||W x||^2 (the u-gradient) "
            "and eta_w on ||u||^2 ||x||^2 (the W-gradient); the printed rates are swapped "
            "(harmless only when eta_u = eta_w). Residual: df/dt + 2 K (f - y) along eq. (31).",
            _ntk_rates,
        ),
        Erratum(
            s, "text before (18)",
            "df(x)/dt = 2 K(x, x') (f(x') - y)",
            "df(x)/dt = -2 K(x, x') (f(x') - y)",
            "Gradient flow decreases the loss: the sign is minus. Residual: df/dt -/+ 2 K (f - y).",
            _ntk_sign,
        ),
        Erratum(
            s, "(41)",
            "... - gamma x y sqrt(eta_u eta_w) zeta ...",
            "... - gamma rho y sqrt(eta_u eta_w) zeta ...",
            "The linear coefficient comes from (39), where it is gamma rho y sqrt(eta_u eta_w); "
            "x is a vector for d0 > 1, and for d0 = 1 it differs from rho = |x| when x < 0. "
            "Residual: the quadratic at zeta = alpha_+ p0^2, d0 = 1, x = -2.",
            _eq41_x,
        ),
        Erratum(
            s, "footnote 4, text after (19)",
            "alpha_+ > 0 (so lim f = y) for every P != 0",
            "alpha_+ > 0 iff Q > 0 or y > 0; for Q = 0, y < 0 alpha_+ = 0 and f -> 0 != y",
            "With Q = 0 every unit has q_i = 0, so f = c P alpha(t) >= 0 can never reach y < 0; "
            "the flow runs into the saddle (the mirror image of Proposition 1 with y > 0). "
            "Residual: [alpha_+ > 0] - 1 vs alpha_+ at A = 1, B = -1, C = 0.",
            _alpha_plus_positive,
        ),
        Erratum(
            s, "text after (21)",
            "4 p_i q_i = u_i^2 - w_i^2 = const",
            "4 p_i q_i = eta_u w_i^2 - eta_w u_i^2 = const  (x = 1)",
            "From eq. (35) with rho = 1, w_i = v_i: the sign is reversed and the learning "
            "rates are missing (the printed form is conserved only for eta_u = eta_w, and "
            "then with the opposite sign). Residual: 4 p q minus each form.",
            _pq_product,
        ),
        Erratum(
            s, "(22)",
            "zeta^2 = (alpha C - 1/alpha)^2 / ((alpha C + 1/alpha)^2 - 4 C^2) = 1",
            "zeta^2 = (alpha C^2 - 1/alpha)^2 / ((alpha C^2 + 1/alpha)^2 - 4 C^2) = 1",
            "With p_i = C q_i, P = C^2 Q (not C Q) in (21); the printed ratio equals 1 only "
            "for C = 1. Residual: zeta^2 - 1 with each form.",
            _eq22_power,
        ),
        Erratum(
            s, "(25)",
            "||u||^2 = d(alpha P + Q/alpha) - 2 sum p_i q_i,  ||w||^2 = ... + 2 sum p_i q_i",
            "||u||^2 = (d(alpha P + Q/alpha) - 2 sum p_i q_i)/eta_w,  ||w||^2 = (... + ...)/eta_u",
            "From eq. (13), u_i = (p_i - q_i)/sqrt(eta_w) and w_i = (p_i + q_i)/sqrt(eta_u) "
            "(x = 1): the learning rates are missing (the printed form is right only for "
            "eta_u = eta_w = 1). Residual: ||u||^2 minus each form, d = 1.",
            _eq25_rates,
        ),
        Erratum(
            s, "(26)",
            "d||u||^2/d alpha = d||w||^2/d alpha = d (P - Q/alpha^2)",
            "eta_w d||u||^2/d alpha = eta_u d||w||^2/d alpha = d (P - Q/alpha^2)",
            "Follows from (25) corrected; the two norms change at different rates when "
            "eta_u != eta_w (their signs, and so the case analysis of Section 2.3, are "
            "unaffected). Residual: the difference of the derivatives, each form, d = 1.",
            _eq26_equal,
        ),
        Erratum(
            s, "Appendix A.2, after (49)",
            "(alpha_+ - xi alpha_-)/(1 - xi) = (alpha_+ - alpha_-)/(1 - xi) + alpha_-",
            "(alpha_+ + xi alpha_-)/(1 - xi) = (alpha_+ + alpha_-)/(1 - xi) - alpha_-",
            "The appendix again uses the negative alpha_- of the printed (12); in the "
            "convention of (8)-(10) the sign is plus, else alpha(0) != 1 (the monotonicity "
            "argument is unaffected). Residual: alpha(0) - 1 at (A, B, C) = (1, 1/2, 1/3).",
            _a2_convention,
        ),
        Erratum(
            s, "text after (24)",
            "Q >= P, which is equivalent to u^T(0) w(0) < 0",
            "Q >= P is equivalent to u^T(0) w(0) <= 0 (Q = P iff u^T w = 0)",
            "P - Q = sqrt(eta_u eta_w) u.Wx/(d rho) (eqs. (6), (19)); the boundary case "
            "u.w = 0 has Q = P. Residual: [Q >= P] - [u.w < 0] vs [Q >= P] - [u.w <= 0] at "
            "u = (1, 0), w = (0, 1).",
            _q_ge_p_strict,
            changes_math=False,
        ),
        Erratum(
            s, "(19) and the limit after it",
            "f(x) = gamma d / sqrt(eta_u eta_w) (P alpha - Q/alpha),  lim f = gamma d / "
            "sqrt(eta_u eta_w) (alpha_+ P - Q/alpha_+)",
            "f(x) = gamma rho d / sqrt(eta_u eta_w) (P alpha - Q/alpha)  (paper['f'], "
            "coefficient c)",
            "From eq. (6), p_i^2 - q_i^2 = sqrt(eta_u eta_w) u_i (W x)_i / rho, so f = gamma "
            "sum_i u_i (W x)_i carries the factor rho (right as printed only for rho = 1). "
            "Residual: network_output minus each form at alpha = 1, d = 2, d0 = 2.",
            _eq19_rho,
        ),
        Erratum(
            s, "(21) (x < 0)",
            "zeta(t) = (alpha P - Q/alpha) / sqrt((alpha P + Q/alpha)^2 - (2/d sum p_i q_i)^2) "
            "(stated for x = 1, 'without loss of generality')",
            "zeta(t) = sign(x) (alpha P - Q/alpha) / sqrt(...)  (d0 = 1, rho = |x|); the "
            "unsigned form is the cosine between u and W x/||x|| (State.alignment)",
            "With rho = |x| > 0, p_i^2 - q_i^2 = sqrt(eta_u eta_w) u_i w_i x / rho has the sign "
            "of x u_i w_i, while the denominator is positive: for x < 0 the printed form is "
            "-cos(u, w). Residual: cos(u, w) minus each form, d = 2, d0 = 1, x = -rho.",
            _eq21_sign,
        ),
    )  # fmt: skip


MODEL = Model(
    name="xu_ziyin",
    seed=SEED,
    title="Xu & Ziyin: two-layer linear network on rank-1 data (Theorem 1, Proposition 1)",
    claims=claims,
    errata=errata,
    laws=laws,
    systems=(SYSTEM,),
)
