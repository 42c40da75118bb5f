"""Mutants of issue 17 target 1's two-thread float64 ``sample`` (``xu_ziyin``, ``kunin``,
``linear_node_scaling``: the two halves of the times filled by two threads; a half left
unfilled or started late, killed by the fast-against-reference tests with
``PARALLEL_SAMPLE`` lowered so that small outputs take the threaded path) and of the
vectorised ``check_matrix`` their construction uses.  Format: see
``benchmarks/mutation.py``."""

MUTANTS = [
    dict(
        name="xu_ziyin.parallel_second_half_unfilled",
        seed="001",
        backend="numpy",
        file="solvable/xu_ziyin.py",
        old="                    finite = all(list(pool.map(quiet, spans)))",
        new="                    finite = all(list(pool.map(quiet, spans[:1])))",
        why="only the first thread's half of the times is filled: the rest of the output "
        "keeps whatever np.empty gave it",
        tests=["tests/test_closed_form_scale.py"],
        claims=[],
    ),
    dict(
        name="kunin.parallel_second_half_late",
        seed="003",
        backend="numpy",
        file="solvable/kunin.py",
        old="                parts = list(pool.map(lambda ab: chunks(*ab), [(0, cut), (cut, T)]))",
        new="                parts = list(pool.map(lambda ab: chunks(*ab), "
        "[(0, cut), (min(T, cut + chunk), T)]))",
        why="the second thread starts one chunk of times late: a chunk is never filled",
        tests=["tests/test_closed_form_scale_models.py"],
        claims=[],
    ),
    dict(
        name="linear_node_scaling.parallel_second_half_late",
        seed="000",
        backend="numpy",
        file="solvable/linear_node_scaling.py",
        old="                parts = list(pool.map(lambda ab: chunks(*ab), [(0, cut), (cut, T)]))",
        new="                parts = list(pool.map(lambda ab: chunks(*ab), "
        "[(0, cut), (min(T, cut + chunk), T)]))",
        why="the second thread starts one chunk of times late: a chunk is never filled",
        tests=["tests/test_closed_form_scale_models.py"],
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
