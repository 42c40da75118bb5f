"""Mutants of the edges of ``numerics.torch_flow``'s DOP853 (times equal to 0 recorded before
the first step).  ``err.clamp(min=1e-300)`` in the step factor has no mutant here: without
it ``err = 0`` gives ``inf``, which the next line replaces by ``_MAX_FACTOR``, and ``0 < err <
1e-300`` gives a factor above ``_MAX_FACTOR``, clamped to it: an equivalent change (it only
keeps an ``inf`` out of an overridden branch).  Format: see ``benchmarks/mutation.py``."""

_TF = "numerics/torch_flow/dop853.py"

MUTANTS = [
    dict(
        name="torch_flow.leading_zeros_index_clamp",
        seed="core",
        backend="torch",
        file=_TF,
        old="        hit = (j < len(ts)) & (T[j.clamp(max=len(ts) - 1)] <= t)",
        new="        hit = (j < len(ts)) & (T[j.clamp(max=len(ts) - 2)] <= t)",
        why="times [0, 1]: the state at t = 1 recorded as the initial one (the zero-time loop "
        "reads the previous time for the last index)",
        tests=["tests/test_torch_flow.py"],
        claims="",
    ),
]
