"""Mutants of issue 17 target 1, kunin's margin under 3x the memory floor: the generator's
hoisting of repeated calls (``backends._hoist_repeated_calls``, used by kunin's coefficient
evaluator), the O(1) loss evaluator on the frame (``kunin._frame_loss``) and the chunked
sum of squares (``kunin._sum_of_squares``), and the shared ``out=`` check
(``numbers.check_output_arrays``).  Each still runs and returns numbers of the
right shape.  Format: see ``benchmarks/mutation.py``."""

_T = ["tests/test_closed_form_scale_models.py"]
_B = ["tests/test_backends.py"]

MUTANTS = [
    dict(
        name="core.hoist_out_of_branches",
        seed="core",
        backend="mpmath",
        file="solvable/_core/backends.py",
        old="_LAZY = (ast.IfExp, ast.BoolOp, ast.Lambda, ast.ListComp, ast.SetComp, "
        "ast.DictComp,\n         ast.GeneratorExp)  # fmt: skip",
        new="_LAZY = ()",
        why="calls inside a conditional expression (mpmath's Piecewise) hoisted out of it: "
        "a branch that is not taken evaluated anyway (gamma at its pole raises; killed by "
        "test_hoisting_leaves_a_branch_alone)",
        tests=_B,
        claims=[],
    ),
    dict(
        name="core.hoist_counts_by_function",
        seed="core",
        backend="numpy",
        file="solvable/_core/backends.py",
        old="            key = ast.dump(node)\n            counts[key] = counts.get(key, 0) + 1",
        new="            key = ast.dump(node.func)\n"
        "            counts[key] = counts.get(key, 0) + 1",
        why="repeated calls counted by the function's name, not the whole call: nothing is "
        "hoisted any more (kunin's coefficients back to 12 exp calls per time; killed by "
        "test_hoisted_calls_give_the_numbers_of_the_generated_code)",
        tests=_B,
        claims=[],
    ),
    dict(
        name="kunin.frame_loss_zero_pattern_inverted",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old="        frame_loss = _frame_loss(tuple(v != 0 for v in frame_entries)) "
        "if frame else None",
        new="        frame_loss = _frame_loss(tuple(v == 0 for v in frame_entries)) "
        "if frame else None",
        why="the frame's loss evaluator generated with the nonzero entries of R and g put in "
        "as zeros (the loss of the zero frame: |g|^2 / 2 wrong; killed by the loss bound "
        "of test_kunin_named_cases_match_the_reference)",
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin.frame_loss_R_transposed",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old="        frame_entries = (*LX.ravel().tolist(), *Ly.tolist()) if frame else ()",
        new="        frame_entries = (*LX.T.ravel().tolist(), *Ly.tolist()) if frame else ()",
        why="the frame's rows R passed to its evaluator column by column (R_12 read as R_21: "
        "the loss of another plane; killed by the loss bound of "
        "test_kunin_named_cases_match_the_reference)",
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin.sum_of_squares_last_entry_dropped",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/isotropic_data.py",
        old="    for start in range(0, x.size, L):\n        xc = x[start : start + L]",
        new="    for start in range(0, x.size - 1, L):\n        xc = x[start : start + L]",
        why="an off-by-one in the chunks of squares: where the last chunk holds one entry it "
        "is never added (s off by that square; killed by "
        "test_sum_of_squares_interval_holds_the_exact_sum with chunks of 1)",
        tests=_T,
        claims=[],
    ),
    dict(
        name="kunin.sum_of_squares_two_sum_sign",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/isotropic_data.py",
        old="        np.add(err, np.subtract(p, z, out=z), out=err)",
        new="        np.subtract(err, np.subtract(p, z, out=z), out=err)",
        why="TwoSum's error term with the wrong sign for the second part (the lanes' error "
        "sums wrong by units of the squares' last place; killed by "
        "test_sum_of_squares_interval_holds_the_exact_sum)",
        tests=_T,
        claims=[],
    ),
    dict(
        name="core.out_overlap_ignored",
        seed="core",
        backend="numpy",
        file="solvable/_core/numbers.py",
        old="        return bool(np.shares_memory(a, b, max_work=_OVERLAP_WORK))",
        new="        return False",
        why="out= fields that share memory accepted (the sample then writes one field over "
        "another; killed by test_bad_out_refused[shared] and [overlapping views])",
        tests=["tests/test_closed_form_scale.py"],
        claims=[],
    ),
]
