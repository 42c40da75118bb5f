"""Mutants of issue 17 target 1's two-thread float64 ``sample`` (``xu_ziyin``, ``kunin``,
``linear_node_scaling``: the two halves of the times filled by two threads through
``backends.fill_in_halves``; killed by the fast-against-reference tests with
``PARALLEL_SAMPLE`` lowered so that small outputs take the threaded path, and by the
helper's own test) and of the
vectorised ``check_matrix`` their construction uses.  Format: see
``benchmarks/mutation.py``."""

MUTANTS = [
    dict(
        name="core.fill_in_halves_second_half_late",
        seed="core",
        backend="numpy",
        file="solvable/_core/backends.py",
        old="        return list(pool.map(run, [(0, cut), (cut, n)]))",
        new="        return list(pool.map(run, [(0, cut), (min(n, cut + step), n)]))",
        why="the second thread starts one block late: a block of every threaded closed-form "
        "fill is never written",
        tests=["tests/test_closed_form_scale_models.py", "tests/test_closed_form_scale.py"],
        claims=[],
    ),
    dict(
        name="core.fill_in_halves_cut_off_block",
        seed="core",
        backend="numpy",
        file="solvable/_core/backends.py",
        old="    cut = min(n, (blocks + 1) // 2 * step)  # the first ceil(blocks / 2) blocks",
        new="    cut = min(n, n // 2)  # the first ceil(blocks / 2) blocks",
        why="the halves cut mid-block: each thread's blocks differ from one call's (xu_ziyin "
        "decides its pieces per block; the values must still agree)",
        tests=["tests/test_closed_form_scale.py"],
        claims=[],
    ),
    dict(
        name="core.check_matrix_fast_path_transposed",
        seed="core",
        backend="numpy",
        file="solvable/_core/numbers.py",
        old="        return tuple(map(tuple, value.tolist()))",
        new="        return tuple(map(tuple, value.T.tolist()))",
        why="the vectorised check of a numeric matrix returns its transpose (square "
        "matrices keep their shape)",
        tests=["tests/test_validation.py"],
        claims=[],
    ),
]
