"""Seed 000, Theorem 7.4 as a trajectory, the model protocol: :func:`closed_form` gives the exact
gradient flow of eqs. (2), (5) with ``sigma = id`` at every ``t`` in ``[0, oo]``
(:class:`Trajectory`; many times at once: :class:`States`)::

    c(t) = V diag(1 - exp(-eta S D_i^2 t/d)) V^T (beta_inf - beta_0) / S
    w_j(t) = w_0j + sqrt(lambda_j) a_j c(t)

float64 (issue 17: chunks of times, blocks of ``W``, two threads) or mpmath at ``dps`` digits.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.backends import blas_threads_for
from solvable._core.exact_gram import span_membership, to_fraction
from solvable._core.numbers import check_dps as _check_dps
from solvable._core.scaled import times_power_of_two
from solvable.models import node_scaling as ns
from solvable.models.linear_node_scaling._evaluators import _evaluator
from solvable.models.linear_node_scaling.expressions import _DI, _S, symbolic
from solvable.models.linear_node_scaling.float64_sample import PARALLEL_SAMPLE as PARALLEL_SAMPLE
from solvable.models.linear_node_scaling.float64_sample import Float64Sample
from solvable.models.linear_node_scaling.linear_limit import _call, _diag_object
from solvable.models.linear_node_scaling.reference_sample import ReferenceSample
from solvable.models.linear_node_scaling.states import (
    States,
    _check_time,
    _is_infinite,
)
from solvable.models.linear_node_scaling.svd import ReducedSVD, reduced_svd

# ---------------------------------------------------------------------------
# Theorem 7.4 as a trajectory: the model protocol
# ---------------------------------------------------------------------------
# The exact test of y in the range of X (for a y within rounding of it) runs up to this many
# rational multiply-adds (about 0.1 s); larger data keep y - U U^T y as computed.
_RANGE_WORK = 2**17


def _in_range_exactly(setup: ns.Setup) -> bool:
    """Whether the setup's y lies exactly in the column span of its X (rationals, within
    :data:`_RANGE_WORK`; ``False`` beyond it)."""
    n, d = setup.n, setup.d
    if n * d * min(n, d) > _RANGE_WORK:
        return False
    columns = [[to_fraction(setup.X[i][j]) for i in range(n)] for j in range(d)]
    inside, _ = span_membership([[to_fraction(v) for v in setup.y]], columns)
    return inside[0]


@dataclass(frozen=True)
class Trajectory(Float64Sample, ReferenceSample):
    """Theorem 7.4 for one network: the exact gradient flow of loss (5) with ``sigma = id``,
    from ``W0`` with the output weights ``a`` fixed, at every ``t`` in ``[0, oo]``.

    Reported quantities (float64, or ``mpmath.mpf`` / object arrays at ``dps`` digits):

    * ``S``: ``sum_j lambda_j a_j^2``, the ``sum_k lambda_{m,k}`` of (19) when ``a_j = +-1``
      (eq. (3));
    * ``beta0`` (d,): ``sum_j sqrt(lambda_j) a_j w_0j``;
    * ``beta_inf`` (d,): ``sqrt(d) V D^-1 U^T y``, the minimum-norm least-squares solution;
    * ``projector`` (d, d): ``V V^T``, onto the row space of ``X``;
    * ``rates`` (k,): ``eta S D_i^2 / d``: the component of ``beta(t)`` along ``v_i`` reaches
      that of ``beta_inf`` like ``exp(-rate_i t)``;
    * ``step_bound``: footnote 3's gradient-descent step bound ``d / (D_max^2 S)`` (GD
      converges to (19) for every step below it; the sharp bound is twice it);
    * ``svd``: the reduced SVD of ``X`` (:class:`ReducedSVD`).

    ``at(t)`` (``t >= 0``, ``t = inf`` is the limit (19)-(20)) gives a
    :class:`solvable.models.node_scaling.State`, the type :func:`numerics.simulate` returns for the
    same setup; ``sample(times)`` gives :class:`States`."""

    setup: ns.Setup
    a: np.ndarray
    W0: np.ndarray
    dps: int | None
    svd: ReducedSVD
    S: Any
    beta0: np.ndarray
    beta_inf: np.ndarray
    projector: np.ndarray
    rates: np.ndarray
    step_bound: Any
    _data: dict[str, Any] = field(repr=False)

    def at(self, t: Any) -> ns.State:
        """The state at one time ``t`` in ``[0, oo]``."""
        if isinstance(t, (list, tuple)) or (isinstance(t, np.ndarray) and t.ndim):
            raise TypeError(f"t must be one time (a number >= 0 or inf; many: sample(times)), "
                            f"got {type(t).__name__} {nb.describe(t)}")  # fmt: skip
        t = _check_time("t", t)
        if self.dps is None and not _is_infinite(t):
            t = nb.to_float(t, "t")
        return self.sample([t]).at(0)

    def sample(self, times: Any, *, out: States | None = None) -> States:
        """The states at many times (each ``>= 0`` or ``inf``), vectorised over ``times``.

        ``out`` (float64 only, ``dps=None``): a preallocated :class:`States` (e.g. an earlier
        result) whose ``t`` (T,), ``W`` (T, m, d), ``f`` (T, n), ``loss`` (T,) are writeable
        float64 arrays that do not overlap; they are filled in place and returned (as a
        :class:`States` with this trajectory's ``a``).

        float64 (issue 17): the mode factors, ``c(t)``, ``f(t)`` and the residual for chunks of
        times (:data:`_CHUNK_TIMES`), ``W`` assembled from them block by block of times
        (:data:`_BLOCK_BYTES`, :meth:`_assemble_W`), ``W(t) - W_0`` as
        the rank-one ``(sqrt(lambda) a) c(t)^T`` of the (times, d) ``c_t`` and ``f``, the
        residual from (times, n) products, every chain evaluated right to left with the mode
        matrices as diagonals (:func:`_fast_evaluator`) and a fixed matrix times the columns
        of many times as matrix products of one shape (a state does not depend on the times
        sampled with it), written into the output arrays: no temporary of the output's size,
        cost O(T (m d + (n + d) k)); where exact, the two parts' mode coefficients of ``c``
        are added first (:meth:`_assemble_W`: one product per time for ``c``, one product and
        one addition per entry of ``W``).  It matches the reference path
        (:meth:`_sample_reference`, the products associated left to right on (T, k, k) mode
        matrices) to rounding.

        Evaluated without cancellation or overflow at every ``t`` in ``[0, oo]``: the mode
        factors ``1 - exp(-x)`` and ``exp(-x)`` of ``x = rate_i t`` (``x`` as mantissa and
        exponent: ``t = 1e300`` or a rate beyond float64 is not an ``inf * 0``; the product is
        exact to rounding); ``W(t) - W_0`` is linear in
        ``(y, W_0)`` and the outputs ``f`` and the residual ``y - f`` are taken in mode form
        (``f_t``, ``residual_t`` of :func:`symbolic`), each part evaluated on the power-of-two
        mantissas of the data and rescaled exactly.  In float64 a state whose ``W``, ``f`` or
        ``loss`` exceeds the float64 range (about 1.8e308) is refused with a ``ValueError``."""
        if self.dps is None:
            return self._sample_f64(times, out)
        if out is not None:
            raise ValueError(
                f"out must be None for dps={self.dps} (preallocated outputs are float64 only, "
                f"dps=None), got {type(out).__name__}"
            )
        return self._sample_reference(times)

    def _scaled(self, v: Any, exponent: Any, *, inplace: bool = False) -> Any:
        """``v 2^exponent`` exactly (float64: ``ldexp``, into ``v`` if ``inplace``; mpmath:
        the scales are 0)."""
        if self.dps is not None or np.all(exponent == 0):
            return v
        # overflow is reported by sample() as a ValueError
        return times_power_of_two(v, exponent, out=v if inplace else None)

    def _mode_factors(self, tt: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The diagonals ``g = 1 - exp(-rate_i t)`` and ``h = exp(-rate_i t)`` (T, k) from the
        generated ``mode_factor`` and ``decay`` at ``x = rate_i t`` (``eta = S = D = d = 1``):
        float64 multiplies the mantissas and adds the exponents (no ``inf * 0`` at ``t = inf``
        or a rate that underflows, no overflow of ``rate t``); ``t = 0`` gives ``g = 0``,
        ``t = inf`` gives ``g = 1``; a boosted row carries ``g 2^boost``."""
        k, dps = self._data, self.dps
        backend = "numpy" if dps is None else "mpmath"
        if dps is None:
            # x = rate_i t = (mantissa product) 2^K: mantissas of rate_i and t multiplied, the
            # exponents added exactly; ldexp saturates to 0 / inf (G = 0 / I, never inf * 0)
            tm, te = np.frexp(np.where(np.isinf(tt), 1.0, tt))
            K = k["rate_exp"][None, :] + te[:, None]
            with np.errstate(over="ignore"):  # rate t beyond 1.8e308: G = I, E = 0 exactly
                x = np.ldexp(k["rate_mant"][None, :] * tm[:, None], np.clip(K, -2000, 2000))
            x = np.where(np.isinf(tt)[:, None], math.inf, x)
            # all modes of a row below 2^-960: G = x to relative 2^-960 (far below eps) would be
            # subnormal, so that row carries G 2^boost (its y-parts are scaled back by 2^-boost)
            top = K.max(axis=1)
            boost = np.where((top < -960) & (tt > 0) & np.isfinite(tt), -top, 0)
        else:
            boost = np.zeros(len(tt), dtype=int)
            x = k["rates"][None, :] * tt[:, None]  # mpmath: inf at t = inf, no overflow
        one = 1.0 if dps is None else mpmath.mpf(1)
        g = np.asarray(_evaluator("mode_factor", backend)(one, one, one, x, one))
        h = np.asarray(_evaluator("decay", backend)(one, one, one, x, one))
        if dps is None and np.any(boost):
            rows = boost > 0
            Gb = np.ldexp(k["rate_mant"][None, :] * tm[:, None], K + boost[:, None])
            g = g.copy()
            g[rows] = Gb[rows]
        return g, h, boost


def _power_of_two(v: np.ndarray, even: bool = False) -> int:
    """The exponent ``e`` with ``max |v| 2^-e`` in ``[1/4, 1)`` (``even``: ``e`` even, so that a
    square root scales exactly); 0 for a zero array."""
    top = float(np.max(np.abs(v))) if v.size else 0.0
    if top == 0:
        return 0
    e = math.frexp(top)[1]
    return e + (e % 2) if even else e


@nb.mpmath_in_mpmath_out
def closed_form(setup: ns.Setup, a0: Any, W0: Any, *, dps: int | None = None) -> Trajectory:
    """Theorem 7.4: the exact gradient flow of eqs. (2), (5) with ``sigma = id`` (``setup``:
    :class:`solvable.models.node_scaling.Setup` with ``activation="linear"``; any node scalings
    ``lam >= 0``, not only eq. (1)) from the output weights ``a0`` (m,) (fixed; eq. (3) has
    ``+-1``, any real values with ``S = sum_j lambda_j a_j^2 > 0`` are solved) and the input
    weights ``W0`` (m, d), trained at the rate ``setup.eta``.

    ``dps=None``: float64; ``dps=k``: mpmath at ``k`` significant digits (the SVD of ``X`` and
    every product at ``k + 10``).  The rank of ``X`` follows :func:`reduced_svd`'s rule.

    Every finite float64 input (scales 1e-308..1e308) is accepted: float64 evaluates on the
    power-of-two mantissas of ``X``, ``y``, ``lam``, ``a0``, ``W0`` (the flow is homogeneous in
    them) and ``rate_i t`` as a mantissa and an exponent, so a state is right to float64 accuracy
    or, where ``W``, ``f`` or the loss exceed the float64 range, refused by ``at`` / ``sample``
    with a ``ValueError``.  The reported constants ``S``, ``beta0``, ``beta_inf``, ``rates`` and
    ``step_bound`` are ``inf`` / ``0`` where they leave the float64 range (the trajectory keeps
    their mantissas and exponents, so the states stay exact: ``beta_inf`` = 1e309 only refuses
    the late states whose ``W`` follows it)."""
    if not isinstance(setup, ns.Setup):
        raise TypeError(f"setup must be a node_scaling.Setup, got {type(setup).__name__}")
    if setup.activation != "linear":
        raise ValueError(
            f"setup.activation must be 'linear' (Theorem 7.4), got {setup.activation!r}"
        )
    dps = _check_dps(dps)
    a_in = nb.check_vector("a0", a0, setup.m)
    W_in = nb.check_matrix("W0", W0, (setup.m, setup.d))
    backend = "numpy" if dps is None else "mpmath"
    conv, dt = nb.converter(dps), nb.dtype(dps)
    n, d = setup.n, setup.d
    # (the SVD of X and the d x d projector: BLAS on one thread where they are small)
    with nb.Precision(dps), blas_threads_for(n * d * max(n, d) + d * d * min(n, d)):
        X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
        yv = np.array([conv(v) for v in setup.y], dtype=dt)
        lam = np.array([conv(v) for v in setup.lam], dtype=dt)
        a = np.array([conv(v) for v in a_in], dtype=dt)
        Wa = np.array([[conv(v) for v in row] for row in W_in], dtype=dt)
        if dps is None:  # power-of-two mantissas (exact); the flow is homogeneous in each
            exp = {"X": _power_of_two(X), "y": _power_of_two(yv),
                   "lam": _power_of_two(lam, even=True), "a": _power_of_two(a),
                   "W0": _power_of_two(Wa)}  # fmt: skip
        else:
            exp = dict.fromkeys(("X", "y", "lam", "a", "W0"), 0)
        sc = (lambda v, e: np.ldexp(v, -e)) if dps is None else (lambda v, e: v)
        Xh, yh, lamh, ah, Wh = (sc(X, exp["X"]), sc(yv, exp["y"]), sc(lam, exp["lam"]),
                                sc(a, exp["a"]), sc(Wa, exp["W0"]))  # fmt: skip
        sqrt = np.sqrt if dps is None else np.vectorize(mpmath.sqrt, otypes=[object])
        s = sqrt(lamh)
        svd = reduced_svd(Xh, dps=None if dps is None else mpmath.mp.dps)
        D = np.asarray(svd.D, dtype=dt)
        Dinv = np.diag(1 / D) if dps is None else _diag_object(1 / D)
        Dm = np.diag(D) if dps is None else _diag_object(D)
        col = lambda v: v[:, None]  # noqa: E731 - vectors as (rows, 1) columns
        ev = functools.partial(_call, backend)
        S = ev("total", col(s), col(ah))[0, 0]
        if not S > 0:
            raise ValueError("a0 must give sum_j lambda_j a_j^2 > 0 (some node must move)")
        eta = conv(setup.eta)
        beta0 = ev("beta0", Wh, col(s), col(ah))[:, 0]
        beta_inf = ev("beta_inf", d, col(yh), svd.U, Dinv, svd.V)[:, 0]
        proj = ev("projector", svd.V)
        log2 = math.log(2)
        if dps is None:
            # rate = eta S D^2/d is a monomial: its log from the mantissas and the exponents
            # (degrees read off the sympy expression), exact to rounding at every scale
            sym = symbolic()
            deg_S, deg_D = int(sp.degree(sym.rate, _S)), int(sp.degree(sym.rate, _DI))
            rate_mant, rate_exp = np.frexp(_evaluator("rate", backend)(1.0, S, D, d))
            eta_mant, eta_exp = math.frexp(eta)
            rate_mant = rate_mant * eta_mant
            rate_exp = rate_exp + eta_exp + deg_S * (exp["lam"] + 2 * exp["a"]) + deg_D * exp["X"]
            with np.errstate(over="ignore", under="ignore"):
                rates = np.ldexp(rate_mant, rate_exp)
                step = float(np.exp(np.log(_evaluator("eta_bound", backend)(d, D[0], S))
                                    - (deg_S * (exp["lam"] + 2 * exp["a"])
                                       + deg_D * exp["X"]) * log2))  # fmt: skip
                S_full = float(np.ldexp(S, exp["lam"] + 2 * exp["a"]))
                beta0_full = np.ldexp(beta0, exp["W0"] + exp["lam"] // 2 + exp["a"])
                beta_inf_full = np.ldexp(beta_inf, exp["y"] - exp["X"])
        else:
            rates = np.asarray(_evaluator("rate", backend)(eta, S, D, d), dtype=dt)
            step = _evaluator("eta_bound", backend)(d, D[0], S)[()]
            S_full, beta0_full, beta_inf_full = S, beta0, beta_inf
        zero = 0.0 if dps is None else mpmath.mpf(0)
        # the part of y off the range of X: exactly 0 where y lies in it exactly (else the
        # rounding of U U^T y, ~1e-16 |y|, was a floor under a loss that falls to 0)
        R_y = ev("least_residual", col(yh), svd.U)
        # X of numerical rank n maps onto every y; else a residual above its rounding
        # (max(n, d) units of |y|, generous) is not 0; only the rest is decided in rationals
        unit = 2.0**-52 if dps is None else mpmath.mpf(10) ** -dps
        y_norm = max(abs(v) for v in yh)
        small = max(abs(v) for v in R_y[:, 0]) <= 64 * max(n, d) * unit * y_norm
        if len(svd.D) == n or (small and _in_range_exactly(setup)):
            R_y = np.full((n, 1), zero, dtype=dt)
        data = {"X": X, "yv": yv, "y": col(yh), "R_y": R_y, "U": svd.U, "Dinv": Dinv, "Dm": Dm,
                "V": svd.V,
                "W0": Wh, "W0_full": Wa, "s": col(s), "a": col(ah), "D": D, "d": d, "eta": eta,
                "S": S, "rates": rates, "exp": exp,
                "rate_mant": rate_mant if dps is None else None,
                "rate_exp": rate_exp if dps is None else None,
                "zero_y": np.full((n, 1), zero, dtype=dt),
                "zero_W": np.full(Wa.shape, zero, dtype=dt),
                "root_d": math.sqrt(d) if dps is None else mpmath.sqrt(d), "n": n}  # fmt: skip
    S_r, beta0_r, beta_inf_r, proj_r, rates_r = nb.rounded(
        (S_full, beta0_full, beta_inf_full, proj, rates), dps
    )
    (step_r,) = nb.rounded((step,), dps)
    a_r, W0_r = nb.rounded((a, Wa), dps)
    if dps is None:  # the reported SVD is that of X itself
        svd = ReducedSVD(svd.U, np.ldexp(svd.D, exp["X"]), svd.V)
    return Trajectory(setup, a_r, W0_r, dps, svd, S_r, beta0_r, beta_inf_r, proj_r, rates_r,
                      step_r, data)  # fmt: skip
