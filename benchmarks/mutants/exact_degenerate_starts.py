"""Mutants of the exact (rational) decisions for degenerate starts and data: the span test
``span_membership`` of ``solvable._core.exact_gram``, the exact invariant-manifold zeros of
seed 001 (``xu_ziyin._exact_manifold_zeros``), the exact null modes, beta* test and moments
of seed 003's wide net (``kunin.wide``), the exact perpendicular part of the single neuron's
start (``_working_sqrt``) and the exact range test of seed 000 (``R_y`` of
``linear_node_scaling``).

Written by an outside reviewer (a helper session) who read the code but not the tests;
``why`` is the wrong behaviour the reviewer observed with the mutant applied to a copy of
the repository (a git worktree of ``HEAD``), each in a fresh interpreter
(``PYTHONDONTWRITEBYTECODE=1``, ``PYTHONPATH`` the copy, ``solvable.__file__`` checked), the
same snippet run on the unmutated copy first ("before").  Of the 7 written, 6 are kept (a
second single-neuron mutant, ``cperp = ... * sw``, was dropped as redundant with the one of
``_working_sqrt``).  Data: X = [[1,1],[1,-1],[-1,1],[-1,-1]] (X^T X = 4 I), y = X (1,2)^T.
Format: see ``benchmarks/mutation.py``.

The test hints were filled in by the maintainer.  First run (``python benchmarks/mutation.py
--only 'exact_degenerate_starts.*' --no-fallback``): 6 of 6 killed by an assertion in the
tests written with the fixes (``tests/test_kunin_loss_near_minimum.py``,
``tests/test_xu_ziyin_edges.py``, ``tests/test_linear_node_scaling_edges.py``).
"""

MUTANTS = [
    dict(
        name="exact_degenerate_starts.core_unnormalised_basis",
        seed="core",
        backend="numpy",
        file="solvable/_core/exact_gram.py",
        old="basis.append((p, [x / r[p] for x in r]))",
        new="basis.append((p, r))",
        why="the echelon rows are not scaled to 1 at their pivot: span_membership("
        "[[1,2,0],[1,0,0],[0,0,1]], [[2,4,0],[0,0,0],[1,2,0]]) gives ([False, False, False], 2) "
        "for ([True, False, False], 1); downstream the exact range test fails, so "
        "linear_node_scaling (the X (4x3), y = [4,0,-2,-6] in range, lam=[1,1], a=[1,-1]) has a "
        "loss floor 1.9e-30 at t = 100, 1000 for 9.5e-231 and 0, and wide_closed_form "
        "(eta 1, 5, A0=[[0.5]], W0=[[0.5,1]]) a loss 9.0e-205 at t = 10 for 0",
        tests=["tests/test_kunin_loss_near_minimum.py", "tests/test_linear_node_scaling_edges.py"],
        claims="",
    ),
    dict(
        name="exact_degenerate_starts.xz_swapped_rates",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/_arithmetic.py",
        old="if eta_u * vi * vi != eta_w * rho2 * ui * ui:",
        new="if eta_w * vi * vi != eta_u * rho2 * ui * ui:",
        why="the rates swapped in the exact manifold test: Setup(eta_u=6, eta_w=2, gamma=1, "
        "x=[1,1,1], y=1), u0=[-1.0], W0=[[1,0,0]] (exactly P = 0) gives P = 1.6e-32 for 0, and "
        "at(10).f = 0.99999999999999 (the other fixed point) for -2.9e-105",
        tests=["tests/test_xu_ziyin_edges.py"],
        claims="",
    ),
    dict(
        name="exact_degenerate_starts.wide_beta_star_without_s",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="s * sum((W[k][a] * A[k][b] for k in range(h)), Fraction(0)) == XtY[a][b]",
        new="sum((W[k][a] * A[k][b] for k in range(h)), Fraction(0)) == XtY[a][b]",
        why="beta(0) compared with X^T Y instead of s beta* (s = 4): a start exactly at beta* "
        "(WideSetup(1, 1, X, X(1,2)^T), A0=[[2]], W0=[[0.5,1]]) is not recognised; loss "
        "7.0e-31 at t = 0 and 3.0e-49 at t = 1 for L_min = 0",
        tests=["tests/test_kunin_loss_near_minimum.py"],
        claims="",
    ),
    dict(
        name="exact_degenerate_starts.wide_null_columns_first",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old='"W": list(range(second, second + len(w_null)))',
        new='"W": list(range(first, first + len(w_null)))',
        why="the W null-mode columns taken at the A offset: the residue along the true [0; u] "
        "mode of a W0 row on the line of beta* is kept; wide_closed_form(WideSetup(1, 5, X, "
        "X(1,2)^T), A0=[[0.5]], W0=[[0.5,1]]).at(10).loss = 9.0e-205 for 0, and (eta 1, 1, "
        "A0=[[2]], W0=[[0.25,0.5]]) 2.9e-196 for 2.0e-201",
        tests=["tests/test_kunin_loss_near_minimum.py"],
        claims="",
    ),
    dict(
        name="exact_degenerate_starts.sqrt_exponent_doubled",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/minimum.py",
        old="return math.ldexp(math.sqrt(float(r)), e)",
        new="return math.ldexp(math.sqrt(float(r)), 2 * e)",
        why="sqrt(4^e r) rescaled by 4^e instead of 2^e: the perpendicular part |w_perp| of "
        "the single neuron is wrong whenever e != 0; closed_form(Setup(1, 1, X, X(1,2)^T), 1, "
        "[1, 0.3]).sample([0]).loss = 4.913 for 5.78 (the loss at t = 0 no longer that of the "
        "start); a0=1, w0=[100, 3]: 6.36e7 for 19604",
        tests=["tests/test_kunin_loss_near_minimum.py", "tests/test_kunin.py"],
        claims="",
    ),
    dict(
        name="exact_degenerate_starts.lns_full_rank_d",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/trajectory.py",
        old="if len(svd.D) == n or (small and _in_range_exactly(setup)):",
        new="if len(svd.D) == d or (small and _in_range_exactly(setup)):",
        why="full column rank taken for 'maps onto every y': R_y is zeroed for X (4x3, rank 3) "
        "and y = [4,0,-2,-5] off its range; at(t).loss falls to 0 (2.3e-22 at t = 10, 0 at "
        "1000) for the floor 0.125, and at(0).loss = 33.273 for 33.398",
        tests=["tests/test_linear_node_scaling_edges.py"],
        claims="",
    ),
]
