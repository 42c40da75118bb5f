"""Every public entry point, fuzzed (issue 28, "Done when").

The public callables are found, not listed: the ``__all__`` of ``solvable``, of each of its
model modules and of ``solvable.verification.testing``, ``numerics.simulate`` /
``numerics.systems``, and
the ``__all__`` of ``numerics.torch_flow`` and ``numerics.models`` (the batched GPU entry
points) and of ``numerics.mp``, ``numerics.scipy_ode``, ``numerics.measures`` and
``numerics.sweeps`` (the integrators' building blocks, the measures and the sweeps),
``numerics.scale_out`` (issue 32's executor and device for ``--full``),
``numerics.datasets``, ``solvable.verification.section_8_2`` and
``solvable.verification.section_3_2_digits`` (issue 32's digits stand-ins),
``solvable.verification.figure_3_teacher`` and ``solvable.verification.figure_2_teacher``
(seed 001's Figures 3 and 2 on a teacher), and of
the twelve experiment modules ``numerics.alpha_scaling``, ``numerics.kernel_sampling``,
``numerics.ntg_sampling``, ``numerics.lazy_width``, ``numerics.node_scaling_gd``,
``numerics.node_scaling_linear``, ``numerics.sweep_three_layer``, ``numerics.phase_diagram``,
``numerics.node_scaling_experiment``, ``numerics.initialisation_scale``,
``numerics.overall_scale`` and ``numerics.teacher_task`` (``EXPERIMENTS``; entries in
``tests/fuzz_entries_f.py``, ``tests/fuzz_entries_g.py``, ``tests/fuzz_entries_m.py``,
``tests/fuzz_entries_o.py`` and ``tests/fuzz_entries_q.py``). Each one
is either an entry of ``tests/fuzz_entries_*.py`` (a good call and the kind of every
argument) or exempt there with a reason; ``test_every_public_callable_is_fuzzed`` fails on a
new public name that is neither, and on an entry that leaves an argument out.

For every (entry, argument) pair, hypothesis draws bad values of the argument's kind
(``tests/fuzz_harness.py``: payload strings, NaN, +-inf, extreme scales, empty and zero-size
inputs, float16 / bfloat16, complex, bool and object dtypes, tensors, None); each call must
give finite numbers or a ``TypeError`` / ``ValueError`` naming the argument, run no code
from a string, and stay within the time budget. The default run draws a few values per pair;
``-m slow`` runs every bad value of every pair.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import fuzz_entries_a
import fuzz_entries_b
import fuzz_entries_c
import fuzz_entries_d
import fuzz_entries_e
import fuzz_entries_f
import fuzz_entries_g
import fuzz_entries_h
import fuzz_entries_i
import fuzz_entries_l
import fuzz_entries_m
import fuzz_entries_n
import fuzz_entries_o
import fuzz_entries_p
import fuzz_entries_q
import pytest
from fuzz_harness import BAD, Entry, call_good, check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numerics
import solvable

GROUPS = (
    fuzz_entries_a,
    fuzz_entries_b,
    fuzz_entries_c,
    fuzz_entries_d,
    fuzz_entries_e,
    fuzz_entries_f,
    fuzz_entries_g,
    fuzz_entries_h,
    fuzz_entries_i,
    fuzz_entries_l,
    fuzz_entries_m,
    fuzz_entries_n,
    fuzz_entries_o,
    fuzz_entries_p,
    fuzz_entries_q,
)
ENTRIES: list[Entry] = [e for g in GROUPS for e in g.ENTRIES]
EXEMPT: dict[str, str] = {k: v for g in GROUPS for k, v in g.EXEMPT.items()}
PAIRS = [(e, arg) for e in ENTRIES for arg in e.kinds]

# the experiment modules (seeds 000-004): their public callables, prefixed by module name
EXPERIMENTS = (
    "alpha_scaling",
    "kernel_sampling",
    "ntg_sampling",
    "lazy_width",
    "node_scaling_gd",
    "node_scaling_linear",
    "sweep_three_layer",
    "phase_diagram",
    "node_scaling_experiment",
    "initialisation_scale",
    "overall_scale",
    "teacher_task",
)


def public_callables() -> dict[str, Any]:
    """Every public callable, by the name a user types (``kunin.closed_form``)."""
    found: dict[str, Any] = {}

    def add(prefix: str, module: Any) -> None:
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not inspect.ismodule(obj):
                found[f"{prefix}{name}"] = obj

    add("solvable.", solvable)
    for name in solvable.__all__:
        obj = getattr(solvable, name)
        if inspect.ismodule(obj):
            add(f"{name}.", obj)
    add("testing.", importlib.import_module("solvable.verification.testing"))
    found["numerics.simulate"] = numerics.simulate
    found["numerics.systems"] = numerics.systems
    add("torch_flow.", importlib.import_module("numerics.torch_flow"))
    add("models.", importlib.import_module("numerics.models"))
    for name in ("section_8_2", "section_3_2_digits", "figure_3_teacher", "figure_2_teacher"):
        add(f"{name}.", importlib.import_module(f"solvable.verification.{name}"))
    for name in ("mp", "scipy_ode", "measures", "sweeps", "scale_out", "datasets", *EXPERIMENTS):
        add(f"{name}.", importlib.import_module(f"numerics.{name}"))
    return found


def _parameters(obj: Any) -> list[str]:
    """The arguments a user passes (not ``self``, ``*args`` or ``**kwargs``)."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [
        p.name
        for p in sig.parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != "self"
    ]


def test_every_public_callable_is_fuzzed():
    public = public_callables()
    entry_names = {e.name for e in ENTRIES}
    assert len(entry_names) == len(ENTRIES), "an entry is listed twice"
    missing = [
        name
        for name, obj in public.items()
        if name not in entry_names and name not in EXEMPT and _parameters(obj)
    ]
    assert not missing, f"public callables neither fuzzed nor exempt: {missing}"
    stale = sorted(set(EXEMPT) - set(public))
    assert not stale, f"exemptions for names that are not public: {stale}"
    for name, why in EXEMPT.items():
        assert why.strip(), f"{name} is exempt without a reason"
    for e in ENTRIES:
        if e.name in public:
            params = set(_parameters(public[e.name]))
            covered = set(e.kinds) | set(e.exempt)
            assert params == covered, (
                f"{e.name}: arguments {sorted(params - covered)} not fuzzed nor exempt; "
                f"{sorted(covered - params)} not arguments"
            )
        for arg, kind in e.kinds.items():
            assert kind in BAD, f"{e.name}: unknown kind {kind!r} for {arg}"
        for arg, why in e.exempt.items():
            assert why.strip(), f"{e.name}: argument {arg} exempt without a reason"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_good_call_succeeds(entry):
    call_good(entry)


# a few draws per pair in the default run (about 2,000 calls in all); every value under slow.
# The pairs are split over several test functions of at most CHUNK parametrisations: each run
# of a @given test nests one more level of hypothesis settings (hypothesis 6.170's settings
# fall back to the previous run's), so ~950 parametrisations of one function exceeded
# Python's recursion limit (a RecursionError in settings.database, not in the code tested)
CHUNK = 300


def _bad_value_test(pairs: list[tuple[Entry, str]]) -> Any:
    @settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    @pytest.mark.parametrize(("entry", "arg"), pairs, ids=lambda v: getattr(v, "name", v))
    def test_bad_value(entry, arg, data):
        values = BAD[entry.kinds[arg]]
        make = data.draw(st.sampled_from(values), label="bad value")
        check(entry, arg, make())

    return test_bad_value


for _i in range(0, len(PAIRS), CHUNK):
    globals()[f"test_bad_value_{_i // CHUNK}"] = _bad_value_test(PAIRS[_i : _i + CHUNK])


@pytest.mark.slow
@pytest.mark.parametrize(("entry", "arg"), PAIRS, ids=lambda v: getattr(v, "name", v))
def test_every_bad_value(entry, arg):
    for make in BAD[entry.kinds[arg]]:
        check(entry, arg, make())
