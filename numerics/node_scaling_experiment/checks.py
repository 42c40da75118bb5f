"""The caps and argument checks of :mod:`numerics.node_scaling_experiment`.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling). The caps
(:data:`MAX_STEPS`, :data:`MAX_REPEATS`, :data:`MAX_RECORDS`, :data:`MAX_HORIZON`) bound the
work of one call; the ``_int``/``_real``/... checks name the argument they refuse. A cap is
read by the function that checks it (in its own file): a test that lowers one patches that
file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from solvable._core import numbers as nb

MAX_STEPS = 10**7
"""The most GD steps (or kernel-GD steps, :func:`kernel_gd`) one run takes: at >= 10 us a
step (torch's small-op overhead; a kernel step is a numpy product of >= 1 us) 10**7 steps
are >= 100 s, 500 times the paper's 20000; a larger count is refused, not run for ever."""

MAX_REPEATS = 1000
"""The most repeats (fresh initialisations per setting; the paper: 5): each is one more
network per setting in the batch (Section 8.1.1) or one more full GD run (Section 8.1.2)."""

MAX_RECORDS = 10**6
"""The most record times (``n_records``, ``n_times``): each stores an NTG (and its
eigenvalues) per network; the figures use 40-120."""

MAX_HORIZON = 1400.0
"""The largest ``horizon`` of :func:`monitor_theorem_5_1`: Theorem 5.1(b)'s bound falls by
``exp(-horizon/2)``, below the float64 range (e^-745) past 1490; the ratio L / (b) is then
inf, not a number (1400 keeps a margin of e^45 for L0)."""


def _int(name: str, value: Any, low: int = 1, high: int = nb.INT64_MAX) -> int:
    """An int in ``[low, high]``; ``high`` defaults to 2**63 - 1 (torch's and numpy's sizes
    and torch's seeds are 64-bit: a larger one has no array)."""
    return nb.check_int(name, value, low, high)


def _ints(name: str, values: Any, low: int = 1, high: int = nb.INT64_MAX) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise TypeError(f"{name} must be a non-empty sequence of ints, got "
                        f"{nb.describe(values)}")  # fmt: skip
    return tuple(_int(f"{name}[{k}]", v, low, high) for k, v in enumerate(values))


def _reals(name: str, values: Any, low: float, high: float, **kw: bool) -> tuple[float, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise TypeError(f"{name} must be a non-empty sequence of numbers, got "
                        f"{nb.describe(values)}")  # fmt: skip
    return tuple(_real(f"{name}[{k}]", v, low, high, **kw) for k, v in enumerate(values))


def _settings(settings: Any) -> tuple[tuple[float, float | None], ...]:
    """``(gamma, alpha)`` pairs: ``gamma`` in [0, 1], ``alpha`` a number or None."""
    if isinstance(settings, (str, bytes)) or not isinstance(settings, Sequence) or not settings:
        raise TypeError(f"settings must be a non-empty sequence of (gamma, alpha) pairs, got "
                        f"{nb.describe(settings)}")  # fmt: skip
    out = []
    for k, pair in enumerate(settings):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise TypeError(f"settings[{k}] must be a (gamma, alpha) pair, got "
                            f"{nb.describe(pair)}")  # fmt: skip
        g = _real(f"settings[{k}][0] (gamma)", pair[0], 0.0, 1.0)
        a = None if pair[1] is None else _real(f"settings[{k}][1] (alpha)", pair[1], 0.0, 1.0,
                                               open_low=True, open_high=True)  # fmt: skip
        out.append((g, a))
    return tuple(out)


def _record_steps(steps: int, n_records: int) -> np.ndarray:
    """Step 0 and at most ``n_records - 1`` log-spaced steps up to ``steps`` (rounded,
    duplicates dropped)."""
    record = np.unique(np.round(np.geomspace(1, steps, n_records - 1)).astype(int))
    return np.concatenate([[0], record])


def _result(result: Any, keys: tuple[str, ...], items: str, item_keys: tuple[str, ...],
            made_by: str) -> dict[str, Any]:  # fmt: skip
    """``result`` if it is a dict with ``keys`` and a non-empty list ``result[items]`` of
    dicts with ``item_keys`` (the output of ``made_by``); else a ``TypeError``."""
    want = f"result must be the dict {made_by} returns"
    if not isinstance(result, dict):
        raise TypeError(f"{want}, got {type(result).__name__} {nb.describe(result)}")
    missing = [k for k in (*keys, items) if k not in result]
    if missing:
        raise TypeError(f"{want}; it lacks {missing}")
    rows = result[items]
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
        raise TypeError(f"{want}; result[{items!r}] must be a non-empty list of dicts")
    for k, r in enumerate(rows):
        lack = [key for key in item_keys if key not in r]
        if lack:
            raise TypeError(f"{want}; result[{items!r}][{k}] lacks {lack}")
    return result


def _real(name: str, value: Any, low: float, high: float, *, open_low: bool = False,
          open_high: bool = False) -> float:  # fmt: skip
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    v = float(value)
    bad_low = v <= low if open_low else v < low
    bad_high = v >= high if open_high else v > high
    if not math.isfinite(v) or bad_low or bad_high:
        lo, hi = "(" if open_low else "[", ")" if open_high else "]"
        raise ValueError(f"{name} must be in {lo}{low}, {high}{hi}, got {value!r}")
    return v
