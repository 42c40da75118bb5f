"""mpmath in, mpmath out (issue 28): every public function that takes ``dps=``, given
``mpmath.mpf`` numbers and no ``dps``, computes at the caller's ``mpmath.mp.dps`` and returns
mpmath numbers, never a silent rounding of the caller's digits to float64.

The functions are found, not listed: every entry of the every-entry fuzz
(``tests/fuzz_entries_*.py``) with a ``dps`` argument. Its good call's float inputs are made
``mpmath.mpf``; the call without ``dps`` must give exactly what the same call with
``dps = mpmath.mp.dps`` gives, and hold an mpf.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import mpmath
import numpy as np
import pytest
from test_fuzz_every_entry_point import ENTRIES, public_callables

from solvable._core import numbers as nb

CALLER_DPS = 37  # not a precision any function defaults to (15, 30, 50)
_DECORATED = nb.mpmath_in_mpmath_out(lambda *, dps=None: dps).__code__  # the wrapper's code


def _as_mpf(value: Any) -> Any:
    """``value`` with every float (scalar, float array, list or tuple of them) an mpf."""
    if isinstance(value, bool):
        return value
    if isinstance(value, float | np.floating):
        return mpmath.mpf(float(value))
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return np.array([mpmath.mpf(float(v)) for v in value.flat], dtype=object).reshape(
            value.shape
        )
    if isinstance(value, list | tuple) and value:
        return type(value)(_as_mpf(v) for v in value)
    return value


def _leaves(value: Any, depth: int = 5) -> list[Any]:
    """The numbers ``value`` holds (scalars, arrays, containers, dataclass fields)."""
    if depth < 0:
        return []
    if isinstance(value, np.ndarray):
        return list(value.flat) if value.dtype == object else [value]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v, depth - 1)]
    if isinstance(value, list | tuple):
        return [x for v in value for x in _leaves(v, depth - 1)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return [x for f in fields for x in _leaves(getattr(value, f.name), depth - 1)]
    return [value]


def _same(a: list[Any], b: list[Any]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
                return False
            if x.shape != y.shape or not np.array_equal(x, y, equal_nan=True):
                return False
        elif type(x) is not type(y) or (x != y and x == x):
            return False
    return True


FLOAT64_BY_DESIGN = {
    "testing.TrajectoryOracle.exact": "the oracle's exact blocks are float64 arrays to compare "
    "with a trainer's (documented: 'evaluated with mpmath at dps digits, then rounded to "
    "float64')",
}


def _mp_calls() -> list[tuple[Any, dict[str, Any]]]:
    """(entry, good keyword arguments with mpf numbers) for every entry taking ``dps`` whose
    good call has a float input, except float64 methods chosen by name (``simulate(method=
    'scipy' / 'torch')``: float64 integrators by the caller's choice, documented)."""
    out = []
    for entry in ENTRIES:
        if "dps" not in entry.kinds or entry.name in FLOAT64_BY_DESIGN:
            continue
        good = entry.good()
        if good.get("method", "mpmath") != "mpmath":
            continue
        with mpmath.workdps(CALLER_DPS):
            mp = {k: _as_mpf(v) for k, v in good.items() if k != "dps"}
        if any(nb.holds_mpf(v) for v in mp.values()):
            out.append((entry, mp))
    return out


MP_CALLS = _mp_calls()


def test_the_mpf_calls_cover_the_functions_that_take_dps():
    """The parametrisation below is not empty and reaches every model (a change to the fuzz
    entries that dropped their float inputs would leave this file checking nothing)."""
    assert set(FLOAT64_BY_DESIGN) <= {e.name for e in ENTRIES}  # no stale exclusion
    modules = {e.name.split(".")[0] for e, _ in MP_CALLS}
    assert len(MP_CALLS) >= 40, len(MP_CALLS)
    assert {"kunin", "xu_ziyin", "linear_node_scaling", "kernels", "mirror_flow"} <= modules


@pytest.mark.parametrize("entry, mp", MP_CALLS, ids=[e.name for e, _ in MP_CALLS])
def test_mpf_inputs_without_dps_compute_at_the_callers_precision(entry, mp):
    with mpmath.workdps(CALLER_DPS):
        implicit = entry.numbers(entry.call(**mp))
        explicit = entry.numbers(entry.call(**mp, dps=CALLER_DPS))
    got, want = _leaves(implicit), _leaves(explicit)
    assert any(isinstance(x, mpmath.mpf) for x in got), f"{entry.name} returned no mpf: {got}"
    assert _same(got, want), f"{entry.name}: dps=None gave {got}, dps={CALLER_DPS} gave {want}"


def test_an_explicit_dps_wins_and_float_inputs_stay_float64():
    """The decorator's two other branches, on ``kernels.kernel_numeric``: ``dps=20`` with
    mpf inputs computes at 20 digits (not the caller's 37); float inputs without ``dps``
    stay float64."""
    entry, mp = next((e, mp) for e, mp in MP_CALLS if e.name == "kernels.kernel_numeric")
    with mpmath.workdps(CALLER_DPS):
        at_20 = entry.call(**mp, dps=20)
        at_37 = entry.call(**mp)
    assert isinstance(at_20, mpmath.mpf) and isinstance(at_37, mpmath.mpf)
    # 20 digits asked: agrees with the 37-digit value to 18 digits, but is not it
    assert at_20 != at_37 and abs(at_20 - at_37) < mpmath.mpf(10) ** -18 * abs(at_37)
    assert isinstance(entry.call(**entry.good()), float | np.floating)


def test_the_decorator_refuses_a_function_without_dps_and_passes_bad_calls_through():
    with pytest.raises(TypeError, match="takes no dps argument"):
        nb.mpmath_in_mpmath_out(lambda x: x)

    @nb.mpmath_in_mpmath_out
    def f(x: Any, *, dps: int | None = None) -> Any:
        return dps

    assert f(1.0) is None and f(mpmath.mpf(1)) == mpmath.mp.dps and f(mpmath.mpf(1), dps=20) == 20
    with pytest.raises(TypeError, match="unexpected keyword argument 'y'"):
        f(1.0, y=2)


NOT_DECORATED = {
    "numerics.simulate": "inline: method='mpmath' integrates at max(30, mp.dps) for mpf inputs; "
    "the float64 methods are chosen by name",
    "TrajectoryOracle.exact": FLOAT64_BY_DESIGN["testing.TrajectoryOracle.exact"],
    "System.closed_form": "each model's override passes dps on to its decorated closed_form",
}


def _takes_dps_none(c: Any) -> bool:
    try:
        p = inspect.signature(c).parameters.get("dps")
    except (TypeError, ValueError):
        return False
    return p is not None and p.default is None


def test_every_public_function_with_a_dps_default_is_decorated():
    """A new public function (or method) with ``dps=None`` and without the decorator fails
    here, unless it is one of the reasoned exceptions above (a ``System.state`` takes ``dps``
    without a default: the integrators always pass it)."""
    undecorated = set()
    for name, obj in public_callables().items():
        members = [obj]
        if inspect.isclass(obj):
            members = [getattr(obj, m) for m in dir(obj) if not m.startswith("_")]
        for c in members:
            f = getattr(c, "__func__", c)
            if _takes_dps_none(c) and getattr(f, "__code__", None) is not _DECORATED:
                undecorated.add(getattr(f, "__qualname__", name) if c is not obj else name)
    assert undecorated == set(NOT_DECORATED), undecorated ^ set(NOT_DECORATED)


def test_a_bad_dps_is_refused_with_mpf_inputs_too():
    """``dps=0`` and ``dps=False`` are refused (``ValueError`` / ``TypeError`` naming dps) when
    the inputs are mpf as when they are floats: only ``None`` asks for the caller's precision
    (an outside reviewer's mutant, ``given is None`` -> ``not given``, ran them at mp.dps)."""
    entry, mp = next((e, mp) for e, mp in MP_CALLS if e.name == "kernels.kernel_numeric")
    for dps, exc in ((0, ValueError), (False, TypeError)):
        for kwargs in (mp, entry.good()):
            with pytest.raises(exc, match="dps"):
                entry.call(**{**kwargs, "dps": dps})


@pytest.mark.parametrize("caller_dps", [10, 45])
def test_simulate_integrates_mpf_inputs_at_no_fewer_than_30_digits(caller_dps):
    """``numerics.simulate(method="mpmath")`` with mpf inputs and no dps integrates at
    ``max(30, mp.dps)`` (its docstring): at mp.dps = 10 as at dps = 30 (not refused for
    dps < 15, not 10 digits), at mp.dps = 45 as at dps = 45 (an outside reviewer's mutant
    used the caller's precision alone)."""
    entry, mp = next(
        (e, mp) for e, mp in MP_CALLS if e.name == "numerics.simulate(method='mpmath')"
    )
    with mpmath.workdps(caller_dps):
        mp = {k: _as_mpf(v) for k, v in entry.good().items() if k != "dps"}
        implicit = _leaves(entry.call(**mp))
        explicit = _leaves(entry.call(**mp, dps=max(30, caller_dps)))
    assert _same(implicit, explicit), (implicit, explicit)
