r"""Seed 003 (Kunin et al., "Get rich quick"): the kernel distance of the single neuron, its
NTK along the exact solution (:func:`neuron_kernel`, for
:func:`solvable._core.kernel_measures.kernel_path`) and ``S(0, inf)`` in closed form
(:func:`limit_kernel_distance`), the quantity the poster plots against the initial scale.

With ``X^T X = s I`` the NTK is ``K = X M X^T``, ``M = eta_w a^2 I + eta_a w w^T`` (claim
``kunin.ntk``), so ``<K_0, K_t>_F = s^2 tr(M_0 M_t)`` and the distance is that of the ``M``.
In ``p = eta_w a^2``, ``q = eta_a |w|^2`` (``p - q = delta``, conserved; ``p q = eta_a
eta_w |beta|^2``), ``M = p I + q w^ w^T``.  When the flow converges to ``beta* != 0``
(``Omega > 0``, ``c_+ != 0``: the limit state ``z_*_inf`` of :func:`symbolic` with ``a(oo) !=
0``), ``p_oo = (delta + sigma)/2``, ``q_oo = (sigma - delta)/2`` with ``sigma = sqrt(delta^2
+ 4 eta_a eta_w |beta*|^2)`` and ``w(oo)`` is parallel to ``beta*``:

.. math::

    S(0, \infty) = \tfrac12\left[(d - 1)\alpha^2 + (\alpha + b - c)^2\right]
                 + \frac{t_0\, q_\infty}{N_0 N_\infty}, \quad
    \alpha = \frac{p_0}{N_0} - \frac{p_\infty}{N_\infty},\ b = \frac{q_0}{N_0},\
    c = \frac{q_\infty}{N_\infty},

``N^2 = d p^2 + 2 p q + q^2`` (``|M|_F^2``), ``t_0 = eta_a |w_0 - (w_0 . beta*^) beta*^|^2``
(every term >= 0: no cancellation; claim ``kunin.kernel_distance_limit``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

import mpmath
import numpy as np
import sympy as sp

from solvable._core import kernel_measures as km
from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable._core.claims import Verdict, prove_zero
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, beats, error_in_units
from solvable.models.kunin.cases import CASES
from solvable.models.kunin.losses import balance, ntk
from solvable.models.kunin.setups import Setup
from solvable.models.kunin.single_neuron import closed_form

__all__ = ["LimitSymbols", "limit_kernel_distance", "limit_symbolic", "neuron_kernel"]


def neuron_kernel(setup: Setup) -> Callable[[Any], Any]:
    """The NTK on the data (:func:`ntk`, (n, n)) of a single-neuron state (anything with
    ``a`` and ``w``: ``kunin.closed_form(...).at(t)``, a simulated state), for
    :func:`~solvable._core.kernel_measures.kernel_path`; float64 or mpmath as the state."""
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a kunin.Setup, got {nb.describe(setup)}")

    def kernel(state: Any) -> Any:
        mp = isinstance(state.a, mpmath.mpf) or np.asarray(state.w).dtype == object
        conv = nb.to_mpf if mp else nb.to_float
        X = np.vectorize(conv, otypes=[object if mp else float])(np.asarray(setup.X, object))
        return ntk(state.a, state.w, X, conv(setup.eta_a), conv(setup.eta_w))

    return kernel


class LimitSymbols(NamedTuple):
    """The symbols of :func:`limit_symbolic`: ``p0 = eta_w a0^2``, ``q0 = eta_a |w0|^2``,
    ``t0 = eta_a |w0 perp beta*|^2``, ``p``, ``q`` (the limit's), ``d``; ``distance`` the
    stable form, ``definition`` ``1 - <M0, M>/(|M0| |M|)`` in them."""

    p0: sp.Symbol
    q0: sp.Symbol
    t0: sp.Symbol
    p: sp.Symbol
    q: sp.Symbol
    d: sp.Symbol
    distance: sp.Expr
    definition: sp.Expr


@cache
def limit_symbolic() -> LimitSymbols:
    """``S(0, inf)`` of the single neuron as a sympy expression (the module's docstring),
    and the definition it equals."""
    p0, q0, p, q = sp.symbols("p0 q0 p q", positive=True)
    t0 = sp.Symbol("t0", nonnegative=True)
    d = sp.Symbol("d", positive=True, integer=True)
    N0 = sp.sqrt(d * p0**2 + 2 * p0 * q0 + q0**2)
    N = sp.sqrt(d * p**2 + 2 * p * q + q**2)
    alpha, b, c = p0 / N0 - p / N, q0 / N0, q / N
    stable = ((d - 1) * alpha**2 + (alpha + b - c) ** 2) / 2 + t0 * q / (N0 * N)
    K = km.symbolic()
    # tr(M0 M) with M = p I + q w^ w^T: d p0 p + p0 q + q0 p + (q0 - t0) q (cos^2 = 1 - t0/q0)
    g0t = d * p0 * p + p0 * q + q0 * p + (q0 - t0) * q
    definition = K.distance.subs({K.g00: N0**2, K.gtt: N**2, K.g0t: g0t})
    return LimitSymbols(p0, q0, t0, p, q, d, stable, definition)


@cache
def _evaluator(backend: str) -> Callable[..., Any]:
    L = limit_symbolic()
    return generate((L.p0, L.q0, L.t0, L.p, L.q, L.d), L.distance, backend)


def limit_kernel_distance(trajectory: Any) -> Any:
    """``S(0, inf)`` of ``kunin.closed_form(...)`` in closed form (the module's docstring),
    float64 or mpmath at the trajectory's ``dps``.  Defined where the flow converges to
    ``beta* != 0`` (the limit state has ``a != 0``); elsewhere (``beta* = 0``, or a start on
    the stable manifold of the saddle, ``c_+ = 0``) a ``ValueError`` naming ``trajectory``
    (use ``kernel_path(trajectory, [inf], kernel=neuron_kernel(setup))``, or
    ``numerics.simulate``)."""
    if not (callable(getattr(trajectory, "at", None)) and hasattr(trajectory, "beta_star")
            and isinstance(getattr(trajectory, "setup", None), Setup)):  # fmt: skip
        raise TypeError(f"trajectory must be kunin.closed_form(...), got "
                        f"{nb.describe(trajectory)}")  # fmt: skip
    dps, setup = trajectory.dps, trajectory.setup
    start, end = trajectory.at(0), trajectory.at(math.inf)
    bstar = list(trajectory.beta_star)
    if all(v == 0 for v in bstar) or end.a == 0:
        raise ValueError("trajectory does not converge to beta* != 0 (beta* = 0, or a start "
                         "on the saddle's stable manifold): S(0, inf) has no closed form "
                         "there; use kernel_path(trajectory, [inf], kernel=neuron_kernel("
                         "setup))")  # fmt: skip
    with nb.Precision(dps):
        conv = nb.converter(dps, "setup")
        ea, ew = conv(setup.eta_a), conv(setup.eta_w)
        a0, w0 = conv(start.a), [conv(v) for v in start.w]
        b = [conv(v) for v in bstar]
        fsum, sqrt = (math.fsum, math.sqrt) if dps is None else (mpmath.fsum, mpmath.sqrt)
        bb = fsum(v * v for v in b)
        delta = ew * a0**2 - ea * fsum(v * v for v in w0)
        sigma = sqrt(delta**2 + 4 * ea * ew * bb)
        pq = ea * ew * bb  # p q: the larger of p, q directly, the other as pq / it
        if delta >= 0:
            p = (delta + sigma) / 2
            q = pq / p
        else:
            q = (sigma - delta) / 2
            p = pq / q
        d = len(w0)
        cross = fsum((w0[i] * b[j] - w0[j] * b[i]) ** 2 for i in range(d) for j in range(i))
        out = _evaluator("numpy" if dps is None else "mpmath")(
            ew * a0**2, ea * fsum(v * v for v in w0), ea * cross / bb, p, q, d)  # fmt: skip
    return float(out) if dps is None else nb.round_to(dps)(out)


# ---------------------------------------------------------------------------
# the claim
# ---------------------------------------------------------------------------
def _limit_distance() -> Verdict:
    # (1) the stable form equals the definition 1 - g0t / sqrt(g00 gtt) in (p0, q0, t0, p, q);
    # (2) on d = 2 whitened data X = sqrt(s) I_2, the package's ntk at the start (a0, w0) and
    # at the limit state a = sqrt(p/eta_w), w = beta*/a, p = (delta + sigma)/2 (which
    # conserves the package's balance() and has a w = beta*) gives <K0, K0>, <K, K>, <K0, K>
    # = s^2 times the products limit_symbolic substitutes (t0 = eta_a |w0 ^ b^|^2)
    L = limit_symbolic()
    res = [L.distance - L.definition]
    ea, ew, s = sp.symbols("eta_a eta_w s", positive=True)
    a0, w1, w2, b1, b2 = sp.symbols("a0 w1 w2 b1 b2", real=True)
    w0, bs = np.array([w1, w2], dtype=object), np.array([b1, b2], dtype=object)
    X = sp.sqrt(s) * np.eye(2, dtype=int).astype(object)
    delta = balance(a0, w0, ea, ew)
    bb = b1**2 + b2**2
    sigma = sp.sqrt(delta**2 + 4 * ea * ew * bb)
    p, q = (delta + sigma) / 2, (sigma - delta) / 2
    a = sp.sqrt(p / ew)
    w = bs / a
    K0, K = ntk(a0, w0, X, ea, ew), ntk(a, w, X, ea, ew)
    p0, q0, t0 = ew * a0**2, ea * (w1**2 + w2**2), ea * (w1 * b2 - w2 * b1) ** 2 / bb
    N0sq = 2 * p0**2 + 2 * p0 * q0 + q0**2
    Nsq = 2 * p**2 + 2 * p * q + q**2
    g0t = 2 * p0 * p + p0 * q + q0 * p + (q0 - t0) * q
    res += [balance(a, w, ea, ew) - delta, *(a * w - bs)]
    res += [np.sum(K0 * K0) - s**2 * N0sq, np.sum(K * K) - s**2 * Nsq,
            np.sum(K0 * K) - s**2 * g0t]  # fmt: skip
    return prove_zero(*(sp.radsimp(sp.expand(r)) for r in res))


def _stable_form() -> Verdict:
    # the package's array form |K0^ - Kt^|^2 / 2 (kernel_measures._distance, run on sympy
    # vectors of 4 symbolic entries) minus the definition 1 - <K0, Kt>/(|K0| |Kt|) of
    # kernel_measures.symbolic(); and the task alignment's array form minus its definition
    K = km.symbolic()
    k0 = np.array(sp.symbols("k0_1:5", real=True), dtype=object)
    kt = np.array(sp.symbols("kt_1:5", real=True), dtype=object)
    y = np.array(sp.symbols("y1 y2", real=True), dtype=object)
    sq = lambda v: sum(x * x for x in v)  # noqa: E731
    at = {K.g00: sq(k0), K.gtt: sq(kt), K.g0t: sum(k0 * kt)}
    res = [km._distance(k0, kt) - K.distance.subs(at)]
    Km = kt.reshape(2, 2)
    at = {K.gtt: sq(kt), K.yky: y @ Km @ y, K.yy: sq(y)}
    res.append(km._alignment(Km, y) - K.alignment.subs(at))
    return prove_zero(*(sp.together(sp.expand(r)) for r in res))


def _limit_against_limit_state() -> Verdict:
    # limit_kernel_distance (the closed form in delta, beta*, a0, w0) against kernel_path at
    # t = inf (the kernel distance of ntk at closed_form's limit state, z_*_inf of symbolic())
    # over the suite, at 30 and 50 digits: sqrt(2 S) (the distance of the unit kernels)
    # absolutely to dps - 5 digits (both sides round to dps; S itself is ~ the square of
    # numbers known to 10^-dps, so its relative digits fall with sqrt(S))
    worst, where, n, refused = NOTHING_COMPARED, "", 0, []
    for case in CASES:
        for dps in (30, 50):
            tr = closed_form(case.setup, case.a0, case.w0, dps=dps)
            try:
                got = limit_kernel_distance(tr)
            except ValueError:
                end = tr.at(math.inf)
                if not (end.a == 0 or all(v == 0 for v in tr.beta_star)):
                    return Verdict("failed", f"{case.name}: refused where the limit is beta*")
                refused.append(case.name) if dps == 30 else None
                continue
            n += 1
            with mpmath.workdps(dps + 10):
                ref = km.kernel_path(tr, [mpmath.inf], kernel=neuron_kernel(case.setup))
                rtol = 10.0 ** -(dps - 5)
                pair = [mpmath.sqrt(2 * got)], [mpmath.sqrt(2 * ref.distance[0])]
                err = error_in_units(*pair, Tolerance(rtol, rtol))
                if beats(err, worst):
                    worst, where = err, f"{case.name} at {dps} digits"
    return Verdict.from_error(
        worst,
        f"{n} evaluations (suite x 30, 50 digits) against the limit state; refused where the "
        f"limit is not beta* != 0: {', '.join(refused) or 'none'}; worst {worst:.2g} tolerances"
        + (f" ({where})" if where else ""),
        Tolerance(10.0**-25, 10.0**-25, reason="both sides rounded to dps digits"),
    )


CLAIMS = (
    (
        "kernel_distance_stable_form",
        "issue 31 (kernel distance S(0, t), Fort et al. 2020)",
        "The evaluated kernel distance |K0/|K0| - Kt/|Kt||_F^2 / 2 (kernel_measures, the array "
        "code of every backend, run on symbolic vectors) equals 1 - <K0, Kt>/(|K0| |Kt|), and the "
        "evaluated task alignment equals y^T K y / (|K|_F |y|^2).",
        _stable_form,
    ),
    (
        "kernel_distance_limit",
        "Part I (exact solution, t -> oo; the 'Get rich quick' plot)",
        "For X^T X = s I and a flow converging to beta* != 0: S(0, oo) = ((d-1) alpha^2 + "
        "(alpha + b - c)^2)/2 + t0 q/(N0 N) (every term >= 0) equals the kernel distance of the "
        "package's ntk at the start and at the limit state (eta_w a^2 = (delta + sigma)/2, a w = "
        "beta*, delta conserved).",
        _limit_distance,
    ),
    (
        "kernel_distance_limit_state",
        "Part I (exact solution, t -> oo)",
        "limit_kernel_distance (the closed form of S(0, oo)) equals the kernel distance of the "
        "NTK at closed_form's limit state (z_*_inf) over the suite at 30 and 50 digits, and "
        "refuses exactly where that limit is not beta* != 0.",
        _limit_against_limit_state,
        "numeric",
    ),
)
"""(id, where, statement, check[, kind]) of the claims, registered by ``model.py`` (source: the
seed file)."""
