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
import numbers
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp
from test_fuzz_every_entry_point import ENTRIES, public_callables

from solvable._core import numbers as nb
from solvable.models import node_scaling as ns

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


def _dps_required(fn: Any) -> bool:
    """Whether ``fn`` takes ``dps`` without a default (``numerics.mp.integrate``: the
    caller always says how many digits; mpmath in, mpmath out has nothing to decide)."""
    try:
        param = inspect.signature(fn).parameters.get("dps")
    except (TypeError, ValueError):
        return False
    return param is not None and param.default is inspect.Parameter.empty


def _mp_calls() -> list[tuple[Any, dict[str, Any]]]:
    """(entry, good keyword arguments with mpf numbers) for every entry taking ``dps`` whose
    good call has a float input, except float64 methods chosen by name (``simulate(method=
    'scipy' / 'torch')``: float64 integrators by the caller's choice, documented)."""
    out = []
    for entry in ENTRIES:
        if "dps" not in entry.kinds or entry.name in FLOAT64_BY_DESIGN:
            continue
        if _dps_required(entry.call):  # no dps=None path to choose a precision for
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


# ---------------------------------------------------------------------------
# float64-only functions (no dps) given mpf numbers
# ---------------------------------------------------------------------------
def _float64_only_calls() -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    """(entry, good call, the same call with every float an mpf at 37 digits) for every
    fuzz entry without ``dps`` whose good call has a float input."""
    out = []
    for entry in ENTRIES:
        if "dps" in entry.kinds:
            continue
        good = entry.good()
        with mpmath.workdps(CALLER_DPS):
            mp = {k: _as_mpf(v) for k, v in good.items()}
        if any(nb.holds_mpf(v) for v in mp.values()):
            out.append((entry, good, mp))
    return out


FLOAT64_ONLY_CALLS = _float64_only_calls()


def test_the_float64_only_calls_are_many():
    assert len(FLOAT64_ONLY_CALLS) >= 20, len(FLOAT64_ONLY_CALLS)


@pytest.mark.parametrize(
    "entry, good, mp", FLOAT64_ONLY_CALLS, ids=[e.name for e, _, _ in FLOAT64_ONLY_CALLS]
)
def test_a_float64_only_function_takes_mpf_numbers(entry, good, mp):
    """A function without ``dps`` computes in float64: mpf arguments (here: the float inputs
    of its good call, each exactly a float64 made an mpf) are read as the numbers they are,
    so the result is the float call's, or, for a function that computes at a precision it
    finds in its inputs, the same numbers to float64 accuracy. Never a numpy TypeError or an
    error that blames another argument (pruned_mass_numeric named m for an mpf gamma)."""
    result = entry.numbers(entry.call(**good))
    holders = [k for k, v in mp.items() if nb.holds_mpf(v)]
    with mpmath.workdps(CALLER_DPS):
        try:
            mp_result = entry.numbers(entry.call(**mp))
        except (TypeError, ValueError) as exc:  # a refusal must name an argument:
            # one that holds an mpf, or a callable that cannot take them (sigma)
            assert str(exc).startswith(tuple(mp)), (entry.name, holders, exc)
            if not str(exc).startswith(tuple(holders)):
                assert "mpmath.mpf inputs make object arrays" in str(exc), exc
            return
    if any(isinstance(v, sp.Basic) for v in _leaves(result)):
        # an exact function reads an mpf as the sympy Float of its value (docs/inputs.md):
        # its result is an expression in Floats, not comparable leaf by leaf; it ran
        return
    want, got = _flat(result), _flat(mp_result)
    assert got[:-1] == want[:-1], (entry.name, got, want)  # the values that are not numbers
    g, w = got[-1], want[-1]
    assert g.shape == w.shape, (entry.name, g, w)
    # 64 ulps of the largest entry: a float64 evaluation and an evaluation on mpf numbers may
    # round differently in the last bits of a sum of a few dozen terms (and an entry that
    # cancels to ~1e-17 of the others keeps only that absolute accuracy); a wrong value is
    # far off
    scale = float(np.max(np.abs(w), initial=0.0))
    if entry.name in IN_TOLERANCE_UNITS:  # see there: the verdict flips at 1 unit
        scale = IN_TOLERANCE_UNITS[entry.name] / (64 * 2.0**-52)
    np.testing.assert_allclose(g, w, rtol=64 * 2.0**-52, atol=64 * 2.0**-52 * scale,
                               err_msg=entry.name)  # fmt: skip


IN_TOLERANCE_UNITS = {
    # the oracle's report: errors in units of the tolerance (rtol 1e-6 here); an mpf u0 is
    # read at the caller's 37 digits, so the exact solution may differ from the float call's
    # by 1 ulp, 1e-10 tolerance units; 1e-6 units is far below the 1 where a verdict flips
    "testing.assert_matches_closed_form": 1e-6,
}


def _number(v: Any) -> bool:
    return isinstance(v, numbers.Number | mpmath.mpf) and not isinstance(v, bool)


def _flat(value: Any) -> list[Any]:
    """The leaves of ``value``: those that are not numbers (strings as they are, None and
    objects by their type's name), then the numbers (scalars, array entries) as one float64
    array."""
    entries = []
    for leaf in _leaves(value):
        entries.extend(np.asarray(leaf, dtype=object).ravel() if isinstance(leaf, np.ndarray)
                       else [leaf])  # fmt: skip
    others = [v if isinstance(v, str) else type(v).__name__ for v in entries if not _number(v)]
    return [*others, np.array([float(v) for v in entries if _number(v)], dtype=float)]


def test_node_scaling_arrays_at_dps_are_refused_naming_m_and_j():
    """``node_scaling_numeric`` takes integer arrays in float64 only: with an mpf ``gamma``
    (mpmath in) or an explicit ``dps`` it refuses them naming m and j and the float64 way,
    instead of 'm must be an int' with no word of the mpf that chose mpmath."""
    m, j = np.array([4, 4]), np.array([1, 2])
    want = ns.node_scaling_numeric(m, j, 0.5, ns.finite_k(2))
    assert want.shape == (2,)
    for call in (lambda: ns.node_scaling_numeric(m, j, mpmath.mpf("0.5"), ns.finite_k(2)),
                 lambda: ns.node_scaling_numeric(m, j, 0.5, ns.finite_k(2), dps=30)):  # fmt: skip
        with pytest.raises(TypeError, match=r"^m and j must be single ints at dps = (15|30) "):
            call()
    # one node at a time at dps is the float64 value to 30 digits
    at_30 = ns.node_scaling_numeric(4, 2, mpmath.mpf("0.5"), ns.finite_k(2), dps=30)
    assert isinstance(at_30, mpmath.mpf) and float(at_30) == pytest.approx(want[1], rel=1e-15)
