"""Two layers (``L = 2``), unbalanced but task-aligned starts: every mode is seed 003's single
neuron ``f = a w x`` with its own ``delta_k`` (Kunin et al., Part I), solved by
:func:`solvable.models.kunin.closed_form` (its exact solution reused, not retyped).

Condition (checked; else ``ValueError`` pointing to :func:`numerics.simulate`): the hidden
space has an orthonormal basis ``r_k`` of common eigenvectors of ``W_1 W_1^T`` and ``W_2^T
W_2`` (so ``D_1`` is diagonal in it), with ``W_1^T r_k = w_k b_k`` and ``W_2 r_k = a_k a_k'``
(unit ``b_k``, ``a_k'``; where ``w_k`` or ``a_k`` is 0 the vector is the data's:
``Sigma_yx b / |.|`` or ``Sigma_yx^T a'/|.|``), the ``b_k`` orthonormal, the ``a_k'``
orthonormal, and each ``(a_k', b_k)`` a singular pair of ``Sigma_yx = Y^T X`` (value ``s_k``)
with ``Sigma_xx b_k = lambda_k b_k``.  Then ``G = P Sigma_xx - Sigma_yx`` acts on each mode
alone and the mode ``(a_k, w_k)`` follows ``da/dt = -eta_2 w (lambda a w - s)``, ``dw/dt =
-eta_1 a (lambda a w - s)``: the single neuron with ``d = 1`` on the data ``X = [[sqrt
lambda]]``, ``y = [s/sqrt lambda]`` (``X^T X = lambda``, ``X^T y = s``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.states import StackedStates
from solvable.models import kunin
from solvable.models.deep_linear.modes import SIMULATE, _eigsy, _groups, _maxabs, _mp, _norm
from solvable.models.deep_linear.sampling import _each
from solvable.models.deep_linear.setups import Setup
from solvable.models.deep_linear.states import State, state_of


@dataclass(frozen=True)
class NeuronMode:
    """One mode: ``s``, ``lam``, the hidden unit vector ``r``, the data vectors ``b``
    (input) and ``a`` (output), the start ``(a0, w0)`` and its single-neuron trajectory."""

    s: Any
    lam: Any
    r: np.ndarray
    b: np.ndarray
    a: np.ndarray
    a0: Any
    w0: Any
    neuron: Any = field(repr=False)


@dataclass(frozen=True)
class TwoLayerTrajectory:
    """The exact solution of an unbalanced aligned two-layer start: ``at(t)`` (``t`` in
    ``[0, inf]``), ``sample(times)``; ``modes`` (:class:`NeuronMode`)."""

    setup: Setup
    dps: int | None
    modes: tuple[NeuronMode, ...]
    _weights: tuple[np.ndarray, ...] = field(repr=False)

    def at(self, t: Any) -> State:
        """The :class:`~solvable.models.deep_linear.states.State` at ``t``."""
        inf = isinstance(t, (str, float, mpmath.mpf)) and str(t).strip() in ("inf", "+inf")
        if not inf:
            nb.check_number("t", t, nonnegative=True)
        conv, dt = nb.converter(self.dps), nb.dtype(self.dps)
        with nb.Precision(self.dps):
            W1, W2 = (np.array(W, dtype=dt) for W in self._weights)
            for m in self.modes:
                st = m.neuron.at(float("inf") if inf else t)
                da, dw = conv(st.a) - conv(m.a0), conv(st.w[0]) - conv(m.w0)
                W1 = W1 + dw * np.outer(m.r, m.b)
                W2 = W2 + da * np.outer(m.a, m.r)
            return state_of(self.setup, float("inf") if inf else t, [W1, W2], self.dps)

    def sample(self, times: Any) -> StackedStates:
        """The states at ``times`` (a leading time axis)."""
        if isinstance(times, (str, bytes)) or np.ndim(times) == 0 or len(times) == 0:
            raise ValueError(f"times must be a non-empty sequence, got {nb.describe(times)}")
        return StackedStates.stack(_each(self.at, times))


def _refuse(what: str, dev: Any, rtol: Any) -> ValueError:
    return ValueError(
        f"the two-layer start must be task-aligned mode by mode for the exact solution: {what}; "
        f"got a residual {mpmath.nstr(dev, 3)} (allowed: rtol = {mpmath.nstr(rtol, 3)} times "
        f"the scale); {SIMULATE}"
    )


def _data_vector(v: Any) -> Any:
    n = _norm(v)
    return None if n == 0 else v / n


def two_layer_closed_form(setup: Setup, weights: list[Any], rtol: Any,
                          dps: int | None) -> TwoLayerTrajectory:  # fmt: skip
    """The exact solution of :class:`TwoLayerTrajectory` (``L = 2``), the conditions checked
    to ``rtol``."""
    if setup.L != 2:
        raise ValueError(f"unbalanced starts are solved for L = 2 only, got L = {setup.L}; "
                         f"{SIMULATE}")  # fmt: skip
    work = max(dps or 17, 17) + 20
    with mpmath.workdps(work):
        W1, W2 = (_mp(W) for W in weights)
        X, Y = _mp(setup.X), _mp(setup.Y)
        Sxx, Syx = X.T @ X, Y.T @ X
        H1, H2 = W1 @ W1.T, W2.T @ W2
        scale = max(_norm(H1) * _norm(H2), mpmath.mpf(1) if _norm(H1) * _norm(H2) == 0 else 0)
        dev = _maxabs(H1 @ H2 - H2 @ H1)
        if dev > rtol * scale:
            raise _refuse("W1 W1^T and W2^T W2 commute (a common hidden basis)", dev, rtol)
        e2, Q = _eigsy(H2)
        hidden = []
        for grp in _groups(e2, rtol * max(_norm(H2), 1)):
            Qg = Q[:, grp]
            _, R = _eigsy(Qg.T @ H1 @ Qg)
            hidden += [Qg @ R[:, j] for j in range(len(grp))]
        nxx, nyx = max(_norm(Sxx), 1), max(_norm(Syx), 1)
        found: list[tuple[Any, ...]] = []
        for r in hidden:
            y, x = W1.T @ r, W2 @ r
            w0, a0 = _norm(y), _norm(x)
            if w0 <= rtol * max(_norm(W1), 1) and a0 <= rtol * max(_norm(W2), 1):
                continue  # a hidden direction neither layer uses: it never moves
            b = y / w0 if w0 > rtol * max(_norm(W1), 1) else None
            a = x / a0 if a0 > rtol * max(_norm(W2), 1) else None
            if b is None:
                b = _data_vector(Syx.T @ a)
                w0 = mpmath.mpf(0)
            if a is None:
                a = _data_vector(Syx @ b)
                a0 = mpmath.mpf(0)
            if a is None or b is None:  # the data does not reach this mode: it is static
                continue
            lam, s = b @ Sxx @ b, a @ Syx @ b
            for what, R, sc in (("X^T X b = lambda b", Sxx @ b - lam * b, nxx),
                                ("Y^T X b = s a", Syx @ b - s * a, nyx),
                                ("X^T Y a = s b", Syx.T @ a - s * b, nyx)):  # fmt: skip
                d = _maxabs(R)
                if d > rtol * sc:
                    raise _refuse(what, d, rtol)
            found.append((s, lam, r, b, a, a0, w0))
        for idx, name in ((3, "the input vectors b_k orthonormal"),
                          (4, "the output vectors a_k orthonormal")):  # fmt: skip
            M = np.array([[f[idx] @ g[idx] for g in found] for f in found], dtype=object)
            if found:
                d = _maxabs(M - np.eye(len(found), dtype=int))
                if d > rtol:
                    raise _refuse(name + " (independent modes)", d, rtol)
        modes = []
        for s, lam, r, b, a, a0, w0 in found:
            if lam == 0:
                raise _refuse("lambda_k > 0 on every used mode", lam, rtol)
            root = mpmath.sqrt(lam)
            x, yv = (root, s / root) if dps is not None else (float(root), float(s / root))
            neuron_setup = kunin.Setup(setup.rates[1], setup.rates[0], ((x,),), (yv,))
            neuron = kunin.closed_form(neuron_setup, a0 if dps else float(a0),
                                       (w0 if dps else float(w0),), dps=dps)  # fmt: skip
            modes.append(NeuronMode(s, lam, r, b, a, a0, w0, neuron))
    if dps is None:
        f64 = np.vectorize(float, otypes=[float])
        modes = [NeuronMode(m.s, m.lam, f64(m.r), f64(m.b), f64(m.a), m.a0, m.w0, m.neuron)
                 for m in modes]  # fmt: skip
        return TwoLayerTrajectory(setup, dps, tuple(modes), (f64(W1), f64(W2)))
    return TwoLayerTrajectory(setup, dps, tuple(modes), (W1, W2))
