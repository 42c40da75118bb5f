r"""The exact solution of the deep linear network from balanced, task-aligned ("spectral")
starts (Saxe et al. 2013, cited by seed 001 Sec. 2; every depth, any rates, any widths):
:func:`closed_form` (a :class:`SpectralTrajectory`) and :func:`spectral_start` (such a start).

Conditions (:mod:`~solvable.models.deep_linear.modes`): balanced (every ``D_l = 0``) and
task-aligned (each mode of ``W_L ... W_1`` is a singular pair of ``Y^T X`` and an eigenvector
of ``X^T X``: whitened inputs, or any ``X^T X`` sharing those eigenvectors).  Each mode then
follows ``du/dt = L eta |u|^(2-2/L)(s - lambda u)``, ``eta = (eta_1 ... eta_L)^(1/L)``
(:mod:`~solvable.models.deep_linear.strength`: ``t(u)`` in closed form, inverted with a proved
bracket), and every layer keeps its singular vectors: ``W_l(t) = W_l(0) + sum_k (rho_k - 1)
c_{l,k} r_{l+1,k} r_{l,k}^T`` with ``rho_k = (u_k(t)/u_k(0))^(1/L)`` (balance: every
``c_{l,k}^2/eta_l`` is the same, ``prod_l c_{l,k} = u_k``).  ``t = inf``: ``u_k -> s_k/lambda_k``
where ``s_k > 0`` (with ``u_k(0) > 0``), ``-> 0`` where ``s_k < 0`` (the mode's sign is
opposite to the task's: it decays to the saddle, never changing sign) or ``s_k = 0``; zero
modes stay 0.  Anything else: ``ValueError`` pointing to :func:`numerics.simulate`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.states import StackedStates
from solvable.models.deep_linear.float64_sample import sample_float64
from solvable.models.deep_linear.modes import Mode, modes
from solvable.models.deep_linear.sampling import _each
from solvable.models.deep_linear.setups import Setup, check_weights
from solvable.models.deep_linear.states import State, state_of
from solvable.models.deep_linear.strength import ModeFlow, strength
from solvable.models.deep_linear.unbalanced import TwoLayerTrajectory, two_layer_closed_form

__all__ = ["SpectralTrajectory", "closed_form", "spectral_start"]

_INF = ("inf", "+inf", "oo")


def _is_inf(t: Any) -> bool:
    if isinstance(t, str):
        return t.strip().lower() in _INF
    if isinstance(t, (float, mpmath.mpf, np.floating)):
        return bool(t == math.inf)
    return False


@dataclass(frozen=True)
class SpectralTrajectory:
    """The exact solution from one balanced aligned start: ``at(t)`` (``t`` in ``[0, inf]``,
    ``"inf"`` or ``math.inf`` for the limit), ``sample(times)``; ``modes`` (each mode's
    ``s``, ``lam``, ``u0``, vectors and layer strengths), ``eta`` (the folded rate) and
    :meth:`strengths` (every ``u_k(t)``)."""

    setup: Setup
    dps: int | None
    modes: tuple[Mode, ...]
    eta: Any
    _weights: tuple[np.ndarray, ...] = field(repr=False)
    _parts: tuple[tuple[np.ndarray, ...], ...] = field(repr=False)

    def _flow(self, k: int) -> ModeFlow:
        m = self.modes[k]
        conv = nb.to_float if self.dps is None else (lambda v: +v)
        return ModeFlow(self.setup.L, conv(self.eta), conv(m.s), conv(m.lam), conv(m.u0))

    def strengths(self, t: Any) -> list[Any]:
        """``u_k(t)`` for every mode (float64, or mpmath at ``dps`` digits)."""
        with nb.Precision(self.dps):
            return [strength(self._flow(k), *self._time(t)) for k in range(len(self.modes))]

    def _time(self, t: Any) -> tuple[Any, bool]:
        if _is_inf(t):
            return 0, True
        nb.check_number("t", t, nonnegative=True)
        return (nb.to_float(t, "t") if self.dps is None else nb.to_mpf(t)), False

    def at(self, t: Any) -> State:
        """The :class:`~solvable.models.deep_linear.system.State` at ``t``."""
        tt, inf = self._time(t)
        dt = nb.dtype(self.dps)
        with nb.Precision(self.dps):
            us = [strength(self._flow(k), tt, inf) for k in range(len(self.modes))]
            Ws = [np.array(W, dtype=dt) for W in self._weights]
            for k, u in enumerate(us):
                u0 = self._flow(k).u0
                rho = (u / u0) ** (1 / mpmath.mpf(self.setup.L) if self.dps else 1 / self.setup.L)
                for l in range(self.setup.L):
                    Ws[l] = Ws[l] + (rho - 1) * self._parts[k][l]
            st = state_of(self.setup, math.inf if inf else tt, Ws, self.dps)
        if self.dps is None:
            return st
        rnd = nb.round_to(self.dps)
        vec = np.vectorize(rnd, otypes=[object])
        return State(t=st.t, params={k: vec(v) for k, v in st.params.items()},
                     beta=vec(st.beta), f=vec(st.f), loss=rnd(st.loss))  # fmt: skip

    def sample(self, times: Any) -> StackedStates:
        """The states at ``times`` (a leading time axis; ``.at(k)`` gives one).  float64:
        the stacked engine of :mod:`~solvable.models.deep_linear.float64_sample` (issue 31:
        the layers built on stacks of times, the fields of :meth:`at` bit for bit)."""
        if isinstance(times, (str, bytes)) or np.ndim(times) == 0:
            raise TypeError(f"times must be a sequence of times, got {nb.describe(times)}")
        if len(times) == 0:
            raise ValueError("times must not be empty")
        if self.dps is None:  # the stacked engine: the fields of ``at`` bit for bit
            return StackedStates(State, sample_float64(self, times))
        return self._sample_reference(times)

    def _sample_reference(self, times: Any) -> StackedStates:
        """``at`` at every time, stacked (the path of ``dps``; the float64 reference)."""
        return StackedStates.stack(_each(self.at, times))


def _default_rtol(setup: Setup, weights: list[Any], dps: int | None) -> Any:
    """``10 u`` (``u``: the unit roundoff of the requested precision), at least ``1e-12``
    where any number is a Python/numpy float (rounded once in float64: a balanced start made
    in float64 is balanced to a few ulps only)."""
    unit = mpmath.mpf(2) ** -52 if dps is None else mpmath.mpf(10) ** -dps
    values = [v for W in weights for row in W for v in row]
    values += [v for row in (*setup.X, *setup.Y) for v in row] + list(setup.rates)
    floats = any(isinstance(v, (float, np.floating)) for v in values)
    return max(10 * unit, mpmath.mpf("1e-12") if floats else 0)


@nb.mpmath_in_mpmath_out
def closed_form(setup: Setup, weights: Any, *, dps: int | None = None,
                rtol: Any = None) -> SpectralTrajectory | TwoLayerTrajectory:  # fmt: skip
    """The exact solution from ``weights = (W_1, ..., W_L)`` (input layer first) where the start
    is balanced and task-aligned (module docstring; each condition to ``rtol`` relative, default
    :func:`_default_rtol`), else ``ValueError`` naming the failed condition and pointing to
    :func:`numerics.simulate`.  ``dps``: None for float64, else mpmath digits.  ``L = 2`` and
    not balanced: the mode-by-mode single neurons of
    :mod:`~solvable.models.deep_linear.unbalanced` (a :class:`TwoLayerTrajectory`)."""
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a deep_linear.Setup, got {nb.describe(setup)}")
    dps = nb.check_dps(dps)
    Ws = check_weights(setup, weights)
    work = max(dps or 17, 17) + 20
    with mpmath.workdps(work):
        tol = _default_rtol(setup, Ws, dps) if rtol is None else nb.to_mpf(
            nb.check_number("rtol", rtol, nonnegative=True))  # fmt: skip
        if not tol < 1:
            raise ValueError(f"rtol must be in [0, 1), got {nb.describe(rtol)}")
        try:
            W0, found = modes(setup, Ws, tol)
        except ValueError as exc:
            if setup.L != 2 or "balanced" not in str(exc).split(":")[0]:
                raise
            return two_layer_closed_form(setup, Ws, tol, dps)
        eta = mpmath.fprod(nb.to_mpf(e) for e in setup.rates) ** (mpmath.mpf(1) / setup.L)
        if dps is None:  # float64: the parts from the rounded vectors (a few ulps; BLAS)
            vec = [[np.array(r, dtype=float) for r in m.r] for m in found]
            parts = tuple(tuple(float(m.c[l]) * np.outer(v[l + 1], v[l]) for l in range(setup.L))
                          for m, v in zip(found, vec, strict=True))  # fmt: skip
            W0f = tuple(np.array(W, dtype=float) for W in W0)
            return SpectralTrajectory(setup, dps, tuple(found), eta, W0f, parts)
        parts = tuple(tuple(m.c[l] * np.outer(m.r[l + 1], m.r[l]) for l in range(setup.L))
                      for m in found)  # fmt: skip
    return SpectralTrajectory(setup, dps, tuple(found), eta, tuple(W0), parts)


@nb.mpmath_in_mpmath_out
def spectral_start(setup: Setup, strengths: Any, widths: Any = None, *,
                   dps: int | None = None) -> list[np.ndarray]:  # fmt: skip
    """Balanced, task-aligned weights ``(W_1, ..., W_L)`` whose product is ``sum_k u_k a_k
    b_k^T`` (``u_k = strengths[k]``, any sign; ``(a_k, b_k)`` the k-th singular pair of
    ``Y^T X``, which must be an eigenvector of ``X^T X``): ``W_l = R_{l+1} diag(c_l) R_l^T``
    with ``R_1 = (b_k)``, ``R_{L+1} = (a_k)``, the first standard basis vectors in between
    (``widths``: the hidden widths ``d_1..d_{L-1}``, each at least the number of modes;
    default that number), ``c_{l,k} = sqrt(eta_l tau_k)``, ``tau_k = (|u_k|/prod_l
    sqrt(eta_l))^(2/L)``, the sign of ``u_k`` on ``c_{L,k}``.  float64 arrays (``dps=None``) or
    object arrays of mpmath numbers at ``dps + 10`` digits."""
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a deep_linear.Setup, got {nb.describe(setup)}")
    dps = nb.check_dps(dps)
    us = nb.check_vector("strengths", strengths)
    m = len(us)
    if m > min(setup.d0, setup.dL):
        raise ValueError(f"strengths must have at most min(d0, dL) = "
                         f"{min(setup.d0, setup.dL)} entries, got {m}")  # fmt: skip
    if widths is None:
        widths = (m,) * (setup.L - 1)
    if isinstance(widths, (str, bytes)) or not isinstance(widths, (tuple, list)) or len(
            widths) != setup.L - 1:  # fmt: skip
        raise ValueError(f"widths must be the {setup.L - 1} hidden widths, got "
                         f"{nb.describe(widths)}")  # fmt: skip
    widths = tuple(nb.check_int("widths", w, low=m) for w in widths)
    with mpmath.workdps((dps or 17) + 20):
        X = np.array([[nb.to_mpf(v) for v in r] for r in setup.X], dtype=object)
        Y = np.array([[nb.to_mpf(v) for v in r] for r in setup.Y], dtype=object)
        Syx, Sxx = Y.T @ X, X.T @ X
        tol = _default_rtol(setup, [], dps)
        U, _, V = mpmath.svd_r(mpmath.matrix(Syx.tolist()))
        a = [np.array([U[i, k] for i in range(setup.dL)], dtype=object) for k in range(m)]
        b = [np.array([V[k, j] for j in range(setup.d0)], dtype=object) for k in range(m)]
        for k in range(m):
            lam = b[k] @ Sxx @ b[k]
            dev = max(abs(v) for v in Sxx @ b[k] - lam * b[k])
            if dev > tol * max(1, max(abs(v) for v in Sxx.ravel())):
                raise ValueError(
                    f"X^T X must have the k = {k} right singular vector of Y^T X as an "
                    f"eigenvector (whitened or aligned inputs); residual {mpmath.nstr(dev, 3)}"
                )
        etas = [nb.to_mpf(e) for e in setup.rates]
        root = mpmath.fprod(mpmath.sqrt(e) for e in etas)
        dims = (setup.d0, *widths, setup.dL)
        Ws = []
        for l in range(setup.L):
            W = np.array([[mpmath.mpf(0)] * dims[l] for _ in range(dims[l + 1])], dtype=object)
            for k, u in enumerate(us):
                u = nb.to_mpf(u)
                if u == 0:
                    continue
                c = mpmath.sqrt(etas[l] * (abs(u) / root) ** (mpmath.mpf(2) / setup.L))
                if l == setup.L - 1 and u < 0:
                    c = -c
                right = b[k] if l == 0 else _unit(dims[l], k)
                left = a[k] if l == setup.L - 1 else _unit(dims[l + 1], k)
                W = W + c * np.outer(left, right)
            Ws.append(W)
    if dps is None:
        return [np.array(W, dtype=float) for W in Ws]
    with mpmath.workdps(dps + 10):
        return [np.vectorize(lambda v: +v, otypes=[object])(W) for W in Ws]


def _unit(n: int, k: int) -> np.ndarray:
    e = np.array([mpmath.mpf(0)] * n, dtype=object)
    e[k] = mpmath.mpf(1)
    return e
