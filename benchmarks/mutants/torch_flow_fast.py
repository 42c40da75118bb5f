"""Mutants of the fast batched DOP853 of ``numerics/torch_flow/`` (issue 17): the stage
buffer with the step folded in, the runs of slots combined by one matrix product, the
error estimate as one (2, m) product, the tiles of the batch and the swap of the state
buffers; the block-major state of the tiles (contiguous blocks, per-block error sums,
per-element accept) and the model hook ``gradient_into``.  Format: see
``benchmarks/mutation.py``."""

_TESTS = ["tests/test_torch_flow.py"]
# a mutant that breaks the method (not only the step control) makes the accuracy tests of
# test_torch_flow.py crawl to max_steps: test_simulator_edges.py first, whose scipy-steps
# test bounds the steps (max_steps = 2 x scipy's) and fails by an assertion in seconds
_METHOD_TESTS = ["tests/test_simulator_edges.py", *_TESTS]

MUTANTS = [
    dict(
        name="core.dop853_stage_slot",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="bind(st, Kt[_STAGE_SLOT[s]], vs)",
        new="bind(st, Kt[s], vs)",
        why="stage s written to slot s, not to its slot in the permuted stage buffer (stage "
        "2 overwrites stage 0): the fast path's version of core.dop853_stage_row",
        tests=_METHOD_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_error_rows_swapped",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/tableau.py",
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
        file="numerics/torch_flow/dop853.py",
        old="                fy, f_new = f_new, fy\n",
        new="",
        why="when every element accepts, the state buffers are swapped but the field of the "
        "new state (FSAL) is not: the next step starts from the old field (a batch of 4 "
        "crawls; killed by test_torch_fixed_point_per_element_and_steps_bounded's step "
        "bound, passed as max_steps; without it the test ran to 100000 steps: a timeout)",
        tests=_METHOD_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_block_views_row_major",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/layout.py",
        old="        return [flat[n * sl.start : n * sl.stop].view(n, *s)\n",
        new="        return [flat.view(n, -1)[:, sl].reshape(n, *s)\n",
        why="the block-major tile read as if it were row-major (n, N): the model gets the "
        "entries of other blocks and elements",
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_error_sum_last_block",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="                    sm.add_(block.sum(2))",
        new="                    torch.sum(block, 2, out=sm)",
        why="the error norm's per-element sum overwritten block by block instead of added "
        "over the blocks: only the last block's error is controlled",
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_accept_mask_first_tile",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/layout.py",
        old="            m = mask[a:b, None]",
        new="            m = mask[: b - a, None]",
        why="a partial accept applies the first tile's decisions to every tile",
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_hook_on_autograd_path",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/field.py",
        old='    hook = None if autograd else getattr(model, "gradient_into", None)',
        new='    hook = getattr(model, "gradient_into", None)',
        why="autograd=True (the reference field the hand-written gradients are tested "
        "against) still goes through the model's hook",
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_workers_share_a_buffer",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="        n, w = b - a, i % n_workers",
        new="        n, w = b - a, 0",
        why="every worker steps its tiles in the first worker's stage buffer and scratch: "
        "concurrent workers overwrite each other's stages",
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_workers_mkl_threads",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old='            n_workers, thread_name_prefix="dop853", '
        "initializer=torch.set_num_threads,\n"
        "            initargs=(torch.get_num_threads(),))  # fmt: skip",
        new='            n_workers, thread_name_prefix="dop853")  # fmt: skip',
        why="the worker threads keep MKL's default thread count (every core) instead of the "
        "caller's: their matrix products split differently (and oversubscribe the cores)",
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_plan_parity_fixed",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="                par = 1 - par\n",
        new="",
        why="after the state buffers trade places, the tiles keep stepping through the views "
        "of the old arrangement: y_new is read as y",
        tests=_METHOD_TESTS,
        claims=[],
    ),
    dict(
        name="core.dop853_workers_threshold_ignored",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="    workers = max(1, min(workers, B * N // MIN_WORKER_ENTRIES))",
        new="    workers = max(1, workers)",
        why="the workers share any batch, however small (up to 3x slower there)",
        tests=_TESTS,
        claims=[],
    ),
]
