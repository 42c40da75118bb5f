"""Seed 000, Theorem 7.4: the states of a trajectory at many times (:class:`States`) and the
validation of times (:func:`_check_times`) and of a preallocated output (:func:`_check_out`).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.states import SequenceOfStates, check_index
from solvable.models import node_scaling as ns


@dataclass(frozen=True)
class States(SequenceOfStates):
    """Many times at once (leading time axis): ``t`` (T,), ``W`` (T, m, d), ``a`` (m,), the
    outputs ``f`` (T, n) on the data and the ``loss`` (T,) of eq. (5), from the mode forms
    ``f_t`` / ``residual_t`` (equal to :func:`solvable.models.node_scaling.network_output` at ``W``,
    claim ``output_mode_form``, without its cancellation when ``|X W_0| >> |y|``).  ``at(k)``
    / iteration give the ``State`` at each time (:mod:`solvable._core.states`)."""

    t: np.ndarray
    W: np.ndarray
    a: np.ndarray
    f: np.ndarray
    loss: np.ndarray

    def at(self, k: int) -> ns.State:
        """The ``State`` at the ``k``-th time (``a`` does not train: the same at every time)."""
        k = check_index(k, len(self))
        return ns.State(t=self.t[k], W=self.W[k], a=self.a, f=self.f[k], loss=self.loss[k])


def _is_infinite(t: Any, name: str = "t") -> bool:
    """``t`` is ``+inf`` (float, numpy or mpmath); ``-inf`` is a ``ValueError``."""
    if isinstance(t, (float, np.floating)) and math.isinf(t):
        inf = True
    elif isinstance(t, mpmath.mpf) and mpmath.isinf(t):
        inf = True
    else:
        return False
    if t < 0:
        raise ValueError(f"{name} must be >= 0, got {t!r}")
    return inf


def _check_time(name: str, t: Any) -> Any:
    """One time: a finite number ``>= 0`` (checked, as given) or ``+inf``."""
    if isinstance(t, np.ndarray) and t.ndim == 0:
        t = t.item()
    return t if _is_infinite(t, name) else nb.check_number(name, t, nonnegative=True)


def _check_times(times: Any, name: str = "times") -> list[Any]:
    """One time or a 1-d sequence of times, each a finite number ``>= 0`` or ``+inf``."""
    if isinstance(times, np.ndarray) and times.ndim == 0:
        times = [times.item()]
    elif isinstance(times, (numbers.Real, str, mpmath.mpf)) and not isinstance(times, bool):
        times = [times]
    if isinstance(times, (str, bytes)) or not isinstance(times, (list, tuple, np.ndarray)):
        raise TypeError(f"{name} must be a number or a sequence of numbers, got "
                        f"{type(times).__name__} {nb.describe(times)}")  # fmt: skip
    try:
        arr = np.asarray(times, dtype=object)
    except ValueError:
        raise ValueError(f"{name} must be one-dimensional, got {nb.describe(times)}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    return [_check_time(f"{name}[{i}]", t) for i, t in enumerate(arr.tolist())]


def _check_out(out: Any, T: int, m: int, d: int, n: int) -> States:
    """``out`` if it is a :class:`States` of writeable, non-overlapping float64 arrays ``t``,
    ``loss`` (T,), ``W`` (T, m, d), ``f`` (T, n); else ``TypeError`` / ``ValueError`` naming
    the field, the expected shape and dtype."""
    if not isinstance(out, States):
        raise TypeError(f"out must be a linear_node_scaling.States (e.g. an earlier sample), "
                        f"got {type(out).__name__}")  # fmt: skip
    shapes = {"t": (T,), "W": (T, m, d), "f": (T, n), "loss": (T,)}
    nb.check_output_arrays(out, shapes)
    return out
