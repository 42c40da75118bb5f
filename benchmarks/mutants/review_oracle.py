"""Mutants of the pytest oracle (``solvable/verification/testing.py``), written by an outside
reviewer who
had not read the tests, nor the existing mutant tables, nor the docs.

Each is a one-line slip that would let the oracle pass a wrong trainer or refuse a right one:
a report that only looks at the last block, a zero block whose allowance of 0 no longer
fails, the gradient-descent allowance taken from the wrong half of the integrated state or
with its 1/2 dropped, the step-size guard evaluated at the error instead of the weights, and
the Monte Carlo kernel check reporting the entry of largest raw difference instead of the
largest difference in units of its interval.  Every one was run on a copy of the package
against the unmutated code, on the input named in ``why``, and gave a different result.

The reviewer chose the ``tests`` hints from the test files' names only; where the first
run (hints only, 28 November) missed, the file whose test kills the mutant was put first
(the mutants themselves are the reviewer's).
"""

MUTANTS = [
    dict(
        name="review.oracle.first_failure_last_block_only",
        seed="core",
        backend="numpy",
        file="solvable/verification/reports.py",
        old="bad |= ~(err <= 1)",
        new="bad = ~(err <= 1)",
        why="Report.first_failure overwrites instead of or-ing: only the last block counts; "
        "xu_ziyin generic with u*1.01, exact W passes",
        tests=["tests/test_oracle_properties.py", "tests/test_oracle.py"],
        claims="",
    ),
    dict(
        name="review.oracle.zero_block_allowance_not_inf",
        seed="core",
        backend="numpy",
        file="solvable/verification/reports.py",
        old="return np.where(~(allow > 0) & (diff != 0), np.inf, units)",
        new="return np.where((allow < 0) & (diff != 0), np.inf, units)",
        why="a block whose exact value is 0 (allowance 0) no longer fails on a nonzero diff; "
        "xu_ziyin saddle with u = 1e-3 passes",
        tests=["tests/test_oracle_properties.py", "tests/test_oracle.py"],
        claims="",
    ),
    dict(
        name="review.oracle.gd_allowance_from_theta_half",
        seed="core",
        backend="scipy",
        file="solvable/verification/gradient_descent.py",
        old="E, limit = lr * out[:, N:], lr * step",
        new="E, limit = lr * out[:, :N], lr * step",
        why="gd_allowance returns lr*theta(t) instead of lr*e(t); xu_ziyin generic, lr=1e-3, "
        "201 steps, u*1.002 passes",
        tests=["tests/test_oracle.py"],
        claims="",
    ),
    dict(
        name="review.oracle.gd_error_equation_half_dropped",
        seed="core",
        backend="scipy",
        file="solvable/verification/gradient_descent.py",
        old="_jvp(F, th, e - f / 2)",
        new="_jvp(F, th, e - f)",
        why="variational forcing -J F instead of -J F/2 doubles the GD allowance; xu_ziyin "
        "generic lr=1e-3: allowed u 1.72e-3 -> 3.45e-3",
        tests=["tests/test_oracle.py"],
        claims="",
    ),
    dict(
        name="review.oracle.step_limit_jacobian_at_error",
        seed="core",
        backend="numpy",
        file="solvable/verification/gradient_descent.py",
        old="_jacobian_norm(F, out[k, :N])",
        new="_jacobian_norm(F, out[k, N:])",
        why="the lr*||J|| guard takes J at the error half e instead of theta; xu_ziyin generic "
        "lr=0.02 (lr||J||=0.27) is accepted, not refused",
        tests=["tests/test_oracle_properties.py", "tests/test_oracle.py"],
        claims="",
    ),
    dict(
        name="review.oracle.kernel_samples_worst_by_raw_diff",
        seed="002",
        backend="numpy",
        file="solvable/verification/kernel_oracle.py",
        old="i, j = np.unravel_index(int(np.argmax(units)), units.shape)",
        new="i, j = np.unravel_index(int(np.argmax(diff)), units.shape)",
        why="compare_samples reports the entry of largest |mean - exact|, not of largest units; "
        "a biased low-variance entry passes",
        tests=["tests/test_oracle_properties.py", "tests/test_oracle.py", "tests/test_kernels.py"],
        claims="",
    ),
]
