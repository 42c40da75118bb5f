"""Mutants of the rest of the package (``solvable/models/kernels/``,
``solvable/models/three_layer/``,
``solvable/models/node_scaling/``, ``solvable/models/global_convergence/``, ``solvable/_core``),
written by an outside reviewer who had not read the tests, nor the existing mutant tables,
nor the docs.

They cover a clamp removed (cosines a few ulps beyond 1), ``<`` vs ``<=`` at a boundary that
the paper makes strict or inclusive (the critical slope, the last node ``j = m``, Theorem
6.1's ``eta < limit``) and a validation guard dropped from a fast path (a NaN entry of a
numeric matrix accepted).  Every one was run on a copy of the package against the unmutated
code, on the input named in ``why``, and gave a different result.

The reviewer chose the ``tests`` hints from the test files' names only; where the first
run (hints only, 28 November) missed, the file whose test kills the mutant was put first
(the mutants themselves are the reviewer's).
"""

MUTANTS = [
    dict(
        name="review.other.kernels_cosine_clip_removed",
        seed="002",
        backend="numpy",
        file="solvable/models/kernels/evaluators.py",
        old="return a1, a2, np.clip(r, -1.0, 1.0)",
        new="return a1, a2, r",
        why="cosines allowed 8 ulps beyond [-1, 1] are no longer clipped: arccos gives nan; "
        "kernel_numeric('ntk_first_layer', exercise init, 1, 1, 1 + 4e-16)",
        tests=["tests/test_kernels.py", "tests/test_seed002_defaults_and_limits.py"],
        claims="kernels.evaluators_agree",
    ),
    dict(
        name="review.other.three_layer_critical_slope_boundary",
        seed="004",
        backend="sympy",
        file="solvable/models/three_layer/regimes.py",
        old='return "linear" if s < -b else "condensed" if s > b else "critical"',
        new='return "linear" if s <= -b else "condensed" if s > b else "critical"',
        why="S_W = -band (S_W = 0 at band 0) read as linear, not critical: "
        "regime_from_slope(0) -> 'linear'",
        tests=["tests/test_three_layer.py"],
        claims="three_layer.paper_regimes",
    ),
    dict(
        name="review.other.node_scaling_last_node_refused",
        seed="000",
        backend="numpy",
        file="solvable/models/node_scaling/numeric.py",
        old="if np.any(ja > ma):",
        new="if np.any(ja >= ma):",
        why="node_scaling_numeric refuses the last node j = m (valid: j in 1..m); "
        "node_scaling_numeric(5, 5, 0.5, zipf(0.5)) raises ValueError",
        tests=["tests/test_node_scaling.py"],
        claims="node_scaling.limit_node_scaling",
    ),
    dict(
        name="review.other.global_convergence_eta_limit_inclusive",
        seed="000",
        backend="numpy",
        file="solvable/models/global_convergence/evaluators.py",
        old="if e >= limit:",
        new="if e > limit:",
        why="Theorem 6.1 needs eta < limit; eta = step_size_limit_numeric(c) is accepted by "
        "gd_rate_numeric instead of raising ValueError",
        tests=["tests/test_global_convergence.py"],
        claims="global_convergence.gd_*",
    ),
    dict(
        name="review.other.core_check_matrix_fast_path_nan",
        seed="core",
        backend="numpy",
        file="solvable/_core/numbers.py",
        old="and bool(np.isfinite(value).all())):  # fmt: skip",
        new="):  # fmt: skip",
        why="check_matrix's numeric fast path no longer checks finiteness: a NaN in W0 "
        "(xu_ziyin closed_form, float64 array) gives f = nan, no ValueError",
        tests=["tests/test_validation.py", "tests/test_bad_input.py"],
        claims="",
    ),
]
