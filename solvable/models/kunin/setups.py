"""Seed 003 (Kunin et al.), the setups: rates ``eta_a, eta_w > 0``, data ``X`` (n, d) and the
targets of the single neuron (:class:`Setup`, Part I), the wide linear net
(:class:`WideSetup`, Part II) and the piecewise-linear net (:class:`PiecewiseLinearSetup`,
Part II), validated once; their data and the weights at the working precision (float64 or
mpmath).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.arrays import all_finite
from solvable._core.numbers import Number


# ---------------------------------------------------------------------------
# Single neuron: the setup, its data and weights at the working precision
# ---------------------------------------------------------------------------
def _check_data(setup: Any, targets: str = "y") -> None:
    """Validate and store ``eta_a``, ``eta_w``, ``X`` (n, d) and the targets of a setup."""
    set_ = object.__setattr__
    set_(setup, "eta_a", nb.check_number("eta_a", setup.eta_a, positive=True))
    set_(setup, "eta_w", nb.check_number("eta_w", setup.eta_w, positive=True))
    if targets == "y":
        y = nb.check_vector("y", setup.y)
        n = len(y)
    else:
        y = nb.check_matrix("Y", setup.Y, (None, None))
        n = len(y)
    set_(setup, "X", _check_rows(setup, n, targets))
    set_(setup, targets, y)
    # X built from a numeric array (_float64_X cached) holds no mpf: not scanned
    X = None if setup.__dict__.get(_F64_X) is not None else setup.X
    nb.remember_holds_mpf(setup, {"eta_a": setup.eta_a, "eta_w": setup.eta_w, "X": X,
                                  targets: y})  # fmt: skip


def _check_rows(setup: Any, n: int, targets: str) -> tuple[tuple[Number, ...], ...]:
    """``nb.check_rows("X", ...)`` of ``setup.X``; a finite numeric 2-d array of the right
    shape is taken vectorised (issue 17: the same tuples of Python numbers that the generic
    path makes from its ``tolist()``, without a check per entry) and kept as float64 for
    :func:`_float64_X`; anything else, and any bad value, through the generic path (its
    messages)."""
    X = setup.X
    if (isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "fiu"
            and X.shape[0] == n and X.shape[1] >= 1 and bool(np.isfinite(X).all())):  # fmt: skip
        rows = tuple(map(tuple, X.tolist()))
        if X.dtype.kind == "f" or np.all(np.abs(X) <= _EXACT_INT):
            # every entry is exactly this float64 (float kinds widen exactly)
            X64 = np.array(X, dtype=np.float64)
            X64.flags.writeable = False
            object.__setattr__(setup, _F64_X, X64)
        return rows
    return nb.check_rows("X", X, n, targets)


_F64_X = "_float64_X"  # the instance attribute caching _float64_X (not a dataclass field)
_EXACT_INT = 2**53  # integers of at most this magnitude are exact in float64


def _float64_X(setup: Any) -> np.ndarray | None:
    """``setup.X`` as a float64 array when every entry is exactly a float64 (a Python float,
    or an int of magnitude <= 2^53), else ``None`` (strings, mpf, fractions, large ints):
    computed once per setup and cached on the instance (a read-only array)."""
    got = setup.__dict__.get(_F64_X, False)
    if got is False:
        got = None
        kinds = set(map(type, itertools.chain.from_iterable(setup.X)))
        entries = itertools.chain.from_iterable(setup.X)
        if kinds <= {float, int} and (
            int not in kinds or all(abs(v) <= _EXACT_INT for v in entries if type(v) is int)
        ):
            got = np.array(setup.X, dtype=np.float64)
            got.flags.writeable = False
        object.__setattr__(setup, _F64_X, got)
    return got


@dataclass(frozen=True)
class Setup:
    """Learning rates ``eta_a, eta_w > 0``, data ``X`` (n, d) and targets ``y`` (n,).

    The loss is ``L = 1/2 sum_i (a w^T x_i - y_i)^2``.
    """

    eta_a: Number
    eta_w: Number
    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]

    def __post_init__(self) -> None:
        _check_data(self)

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])


def _arrays(setup: Any, dps: int | None) -> tuple[np.ndarray, np.ndarray]:
    """``X`` and the targets at the working precision (inside ``nb.Precision(dps)``)."""
    conv, dt = nb.converter(dps), nb.dtype(dps)
    targets = setup.Y if isinstance(setup, WideSetup) else setup.y
    X64 = _float64_X(setup) if dps is None else None
    if X64 is not None:  # the entries are exactly these float64 (what conv would give)
        X = X64.copy()
    else:
        X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
    T = [[conv(v) for v in r] if isinstance(r, tuple) else conv(r) for r in targets]
    return X, np.array(T, dtype=dt)


def _weights(values: Any, dps: int | None, name: str | None = None) -> np.ndarray:
    """An array of weights at the working precision (float64, or mpf from exact input);
    ``name``: the argument, named if an entry is beyond the float64 range."""
    arr = np.asarray(values, dtype=object)
    conv = nb.converter(dps, name)
    return np.vectorize(conv, otypes=[nb.dtype(dps)])(arr) if arr.size else arr


def _measure_args(setup: Any, kind: type, t: Any, dps: Any) -> tuple[Number, int | None]:
    """``t`` (a time ``>= 0``) and ``dps`` of a ``from_weights``, and ``setup`` of type
    ``kind``."""
    if not isinstance(setup, kind):
        raise TypeError(f"setup must be a kunin.{kind.__name__}, got {type(setup).__name__}")
    return nb.check_number("t", t, nonnegative=True), nb.check_dps(dps)


def _measured(state: Any, weights: str) -> Any:
    """``state`` if its numbers are finite, else ``ValueError`` naming the ``weights``."""
    if not all(all_finite(v) for v in vars(state).values()):
        raise ValueError(
            f"the state's measures are outside the float64 range (|value| <= 1.8e308) for "
            f"these {weights} (and X, y, eta_a, eta_w): pass dps=... for mpmath"
        )
    return state


def _check_weights(setup: Setup, a0: Any, w0: Any) -> tuple[Number, tuple[Number, ...]]:
    return nb.check_number("a0", a0), nb.check_vector("w0", w0, setup.d)


# ---------------------------------------------------------------------------
# Part II: the wide linear and the piecewise-linear networks
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class WideSetup:
    """Wide two-layer linear network ``f(x) = A^T W x``: rates ``eta_a`` (of ``A``, h x c)
    and ``eta_w`` (of ``W``, h x d), data ``X`` (n, d), targets ``Y`` (n, c);
    ``L = 1/2 sum_i ||A^T W x_i - y_i||^2`` (:func:`wide_loss`)."""

    eta_a: Number
    eta_w: Number
    X: tuple[tuple[Number, ...], ...]
    Y: tuple[tuple[Number, ...], ...]

    def __post_init__(self) -> None:
        _check_data(self, "Y")

    @property
    def n(self) -> int:
        return len(self.Y)

    @property
    def d(self) -> int:
        return len(self.X[0])

    @property
    def c(self) -> int:
        return len(self.Y[0])


@dataclass(frozen=True)
class PiecewiseLinearSetup:
    """ReLU network ``f(x) = sum_k a_k relu(w_k . x)``: rates ``eta_a`` (of ``a``, (h,)) and
    ``eta_w`` (of ``W``, (h, d)), data ``X`` (n, d), targets ``y`` (n,);
    ``L = 1/2 sum_i (f(x_i) - y_i)^2`` (:func:`piecewise_linear_loss`)."""

    eta_a: Number
    eta_w: Number
    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]

    def __post_init__(self) -> None:
        _check_data(self)

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])
