"""Mutants of the fast batched DOP853 of ``numerics/torch_flow.py`` (issue 17): the stage
buffer with the step folded in, the runs of slots combined by one matrix product, the
error estimate as one (2, m) product, the tiles of the batch and the swap of the state
buffers.  Format: see ``benchmarks/mutation.py``."""

_TESTS = ["tests/test_torch_flow.py"]

MUTANTS = [
    dict(
        name="core.dop853_stage_slot",
        seed="core",
        backend="torch",
        file="numerics/torch_flow.py",
        old="f_into(st, K[_STAGE_SLOT[s], :n], coef)",
        new="f_into(st, K[s, :n], coef)",
        why="stage s written to slot s, not to its slot in the permuted stage buffer (stage "
        "2 overwrites stage 0): the fast path's version of core.dop853_stage_row",
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_error_rows_swapped",
        seed="core",
        backend="torch",
        file="numerics/torch_flow.py",
        old="for row in (_dop.E5, _dop.E3)])",
        new="for row in (_dop.E3, _dop.E5)])",
        why="the fifth- and third-order error estimates swapped in the (2, m) error product",
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_swap_without_field",
        seed="core",
        backend="torch",
        file="numerics/torch_flow.py",
        old="                fy, f_new = f_new, fy\n",
        new="",
        why="when every element accepts, the state buffers are swapped but the field of the "
        "new state (FSAL) is not: the next step starts from the old field",
        tests=_TESTS,
        claims=[],
    ),
]
