"""Seed 003 (Kunin et al.), the states measured from the weights: :class:`State` (``a``, ``w``,
``beta = a w``, the conserved ``delta`` and the loss) and :class:`States` (many times) of Part
I; :class:`WideState` (``A``, ``W``, ``beta = W^T A``, ``Delta``) and
:class:`PiecewiseLinearState` (every ``delta_k``, the activation pattern) of Part II; ReLU with
``relu'(0) = 0`` on every backend.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.activations import elementwise
from solvable._core.states import SequenceOfStates, check_index
from solvable.models.kunin.flows import _scalar
from solvable.models.kunin.losses import (
    _balance,
    _loss,
    _piecewise_linear_loss,
    _wide_balance,
    _wide_loss,
)
from solvable.models.kunin.setups import (
    PiecewiseLinearSetup,
    Setup,
    WideSetup,
    _arrays,
    _measure_args,
    _measured,
    _weights,
)


@dataclass(frozen=True)
class State:
    """``a``, ``w`` (d,), ``beta = a w``, the conserved ``delta`` and the ``loss`` at ``t``."""

    t: Any
    a: Any
    w: np.ndarray
    beta: np.ndarray
    delta: Any
    loss: Any

    @classmethod
    @nb.mpmath_in_mpmath_out
    def from_weights(cls, setup: Setup, t: Any, a: Any, w: Any, *, dps: int | None = None) -> State:
        """Measure beta, delta and the loss directly from the weights ``a`` (a number or a
        0-d array) and ``w`` (d,) at time ``t >= 0`` (float64, or mpmath at ``dps``
        digits); arguments checked as :func:`closed_form` checks ``a0``, ``w0``."""
        t, dps = _measure_args(setup, Setup, t, dps)
        a = nb.check_number("a", a.item() if isinstance(a, np.ndarray) and a.ndim == 0 else a)
        w = nb.check_vector("w", w, setup.d)
        with nb.Precision(dps), np.errstate(all="ignore"):
            a, w = _weights(a, dps, "a"), _weights(w, dps, "w")
            X, y = _arrays(setup, dps)
            ea, ew = nb.converter(dps)(setup.eta_a), nb.converter(dps)(setup.eta_w)
            st = cls(t=t, a=_scalar(a), w=w, beta=_scalar(a) * w,
                     delta=_scalar(_balance(a, w, ea, ew)),
                     loss=_scalar(_loss(a, w, X, y)))  # fmt: skip
        return _measured(st, "a, w")


@dataclass(frozen=True)
class States(SequenceOfStates):
    """Many times at once: ``a`` (T,), ``w`` and ``beta`` (T, d), ``loss`` (T,); ``delta``:
    the conserved number (a closed form's ``sample``) or ``(T,)`` measured at each time
    (:func:`numerics.simulate`).  ``at(k)`` / iteration give the :class:`State` at each time
    (:mod:`solvable._core.states`)."""

    t: np.ndarray
    a: np.ndarray
    w: np.ndarray
    beta: np.ndarray
    delta: Any
    loss: np.ndarray

    def at(self, k: int) -> State:
        """The :class:`State` at the ``k``-th time."""
        k = check_index(k, len(self))
        delta = self.delta[k] if np.ndim(self.delta) else self.delta
        return State(self.t[k], self.a[k], self.w[k], self.beta[k], delta, self.loss[k])


@dataclass(frozen=True)
class WideState:
    """``A`` (h, c), ``W`` (h, d), ``beta = W^T A`` (d, c), the conserved ``Delta`` (h, h)
    (:func:`wide_balance`) and the ``loss`` at ``t``, measured from the weights."""

    t: Any
    A: np.ndarray
    W: np.ndarray
    beta: np.ndarray
    Delta: np.ndarray
    loss: Any

    @classmethod
    @nb.mpmath_in_mpmath_out
    def from_weights(cls, setup: WideSetup, t: Any, A: Any, W: Any, *,
                     dps: int | None = None) -> WideState:  # fmt: skip
        """Measure beta, Delta and the loss from ``A`` (h, c) and ``W`` (h, d) at time ``t >=
        0`` (float64, or mpmath at ``dps`` digits); arguments checked."""
        t, dps = _measure_args(setup, WideSetup, t, dps)
        A = nb.check_matrix("A", A, (None, setup.c))
        W = nb.check_matrix("W", W, (None, setup.d))
        if len(A) != len(W):
            raise ValueError(f"A has {len(A)} rows but W has {len(W)}: both are (h, ...)")
        with nb.Precision(dps), np.errstate(all="ignore"):
            A, W = _weights(A, dps, "A"), _weights(W, dps, "W")
            X, Y = _arrays(setup, dps)
            ea, ew = nb.converter(dps)(setup.eta_a), nb.converter(dps)(setup.eta_w)
            st = cls(t=t, A=A, W=W, beta=W.T @ A, Delta=_wide_balance(A, W, ea, ew),
                     loss=_scalar(_wide_loss(A, W, X, Y)))  # fmt: skip
        return _measured(st, "A, W")


@dataclass(frozen=True)
class PiecewiseLinearState:
    """``a`` (h,), ``W`` (h, d), every conserved ``delta_k`` (h,) (:func:`balance`), the
    activation pattern ``active`` (n, h) (``w_k . x_i > 0``) and the ``loss`` at ``t``."""

    t: Any
    a: np.ndarray
    W: np.ndarray
    delta: np.ndarray
    active: np.ndarray
    loss: Any

    @classmethod
    @nb.mpmath_in_mpmath_out
    def from_weights(cls, setup: PiecewiseLinearSetup, t: Any, a: Any, W: Any, *,
                     dps: int | None = None) -> PiecewiseLinearState:  # fmt: skip
        """Measure every delta_k, the activation pattern and the loss from ``a`` (h,) and
        ``W`` (h, d) at time ``t >= 0`` (float64, or mpmath at ``dps`` digits); arguments
        checked."""
        t, dps = _measure_args(setup, PiecewiseLinearSetup, t, dps)
        a = nb.check_vector("a", a)
        W = nb.check_matrix("W", W, (None, setup.d))
        if len(a) != len(W):
            raise ValueError(f"a has length {len(a)} but W has {len(W)} rows: a (h,), W (h, d)")
        with nb.Precision(dps), np.errstate(all="ignore"):
            a, W = _weights(a, dps, "a"), _weights(W, dps, "W")
            X, y = _arrays(setup, dps)
            ea, ew = nb.converter(dps)(setup.eta_a), nb.converter(dps)(setup.eta_w)
            relu = _relu("numpy" if dps is None else "mpmath")
            Z = X @ W.T
            st = cls(t=t, a=a, W=W, delta=_balance(a, W, ea, ew), active=np.asarray(Z > 0),
                     loss=_scalar(_piecewise_linear_loss(a, W, X, y, relu)))  # fmt: skip
        return _measured(st, "a, W")


def _relu(backend: str) -> Callable[[Any], Any]:
    """ReLU, generated from its sympy definition (its Piecewise form, so that sympy's and
    torch's derivatives give ``sigma'(0) = 0``), elementwise for ``backend``."""
    return elementwise("relu", backend)
