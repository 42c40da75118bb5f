"""The :class:`Setup` of seed 001 (hyper-parameters and the data point of eq. (4)) and the
checks of the arguments of the public numeric API (initial weights ``u0`` (d,), ``W0``
(d, d0); times ``0 <= t <= inf``).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.numbers import Number


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


def _check_times(times: Any, name: str = "t") -> tuple[Number, ...] | np.ndarray:
    """:func:`solvable._core.numbers.check_times` with ``+inf`` allowed (the limit state);
    ``name``: the argument named in the messages."""
    if (
        isinstance(times, np.ndarray) and times.ndim == 1 and times.dtype.kind in "fiu"
        and times.size and bool((times >= 0).all())
    ):  # fmt: skip
        # a valid numeric array (t >= 0 is false for nan and -inf): the values the checks
        # below return, without one Python check per time; anything else is checked below.
        # A float array stays one (a copy: float64 holds every float16/32/64 value), so the
        # float64 fast path reads it without a Python float per time; integers become
        # Python ints (exact, as int64 values above 2^53 are not in float64)
        if times.dtype.kind == "f":
            return np.array(times, dtype=float)
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
