"""Mutants of the issue-17 (target 4) changes of task E3: the target expectations of the
first GD step by derivatives instead of a ``Poly`` expansion, the mean-field GD with one
sample count per width, the exact kappa_4 of ``kernels.gaussian_limit`` from the
unsimplified moments (and generated once), the plain Exercise 2 sweep shared with the E(t)
claims, and the default run of ``global_convergence.c1_quadrature``.  Each is a bug that
still runs and returns numbers of the right shape.  Format: see ``benchmarks/mutation.py``."""

_GD = "numerics/node_scaling_gd.py"
_KN = "solvable/models/kernels/cumulants.py"
_KC = "solvable/verification/confirmations/kernels.py"
_LC = "solvable/verification/confirmations/linearisation.py"
_GC = "solvable/models/global_convergence/numeric_checks.py"

MUTANTS = [
    dict(
        name="node_scaling.target_expectation_without_half",
        seed="000",
        backend="sympy",
        file="solvable/models/node_scaling/first_step.py",
        old="    return expr.subs(dict.fromkeys(y, 0)) + var * curvature / 2",
        new="    return expr.subs(dict.fromkeys(y, 0)) + var * curvature",
        why="E_y of a quadratic form takes the whole Laplacian instead of half of it (each "
        "y_i^2 term counted twice): the expectations of eqs. (24), (27) over the targets "
        "are too large; killed by "
        "test_first_step_expectations_are_the_mean_over_symmetric_targets",
        tests=["tests/test_node_scaling_theorems.py"],
        claims=["node_scaling.theorem_7_9_first_step_simulated"],
    ),
    dict(
        # replaces seed_000.py's node_scaling.target_expectation_keeps_cross_terms (its old
        # text, the Poly expansion, is gone): the same bug in the derivative form
        name="node_scaling.target_expectation_keeps_mixed_derivatives",
        seed="000",
        backend="sympy",
        file="solvable/models/node_scaling/first_step.py",
        old="    curvature = sum((sp.diff(g, yi) for g, yi in zip(first, y, strict=True)), "
        "sp.S.Zero)",
        new="    curvature = sum(hessian, sp.S.Zero)",
        why="E_y over independent zero-mean targets: the mixed second derivatives (the "
        "cross terms y_i y_k, mean 0) are added to the Laplacian; killed by "
        "test_first_step_expectations_are_the_mean_over_symmetric_targets",
        tests=["tests/test_node_scaling_theorems.py"],
        claims=["node_scaling.theorem_7_9_first_step_simulated"],
    ),
    dict(
        name="node_scaling_gd.mean_field_samples_per_width_reversed",
        seed="000",
        backend="torch",
        file=_GD,
        old="    for m, count in zip(widths, counts, strict=True):",
        new="    for m, count in zip(widths, counts[::-1], strict=True):",
        why="the per-width sample counts are read in reverse: the default run trains 100 "
        "networks at m = 10 (the width that must see the 1/m term) and 400 at m = 1000; "
        "killed by test_mean_field_samples_per_width_are_the_first_of_a_larger_run",
        tests=["tests/test_node_scaling_theorems.py"],
        claims=["node_scaling.theorem_7_5_mean_field_simulated"],
    ),
    dict(
        name="kernels.gaussian_limit_exact_of_the_first_width",
        seed="002",
        backend="sympy",
        file=_KC,
        old="        exact_p = _kappa4_exact(p)",
        new="        exact_p = _kappa4_exact(widths[0])",
        why="the exact kappa_4, read once per width, is read at the first width for every "
        "width (kappa_4 = c/p: 8 times too large at p = 32); killed by the claim "
        "kernels.gaussian_limit",
        tests=["tests/test_kernels.py"],
        claims=["kernels.gaussian_limit"],
    ),
    dict(
        name="kernels.relu_moment_simplified_of_the_swapped_orders",
        seed="002",
        backend="sympy",
        file=_KN,
        old="        return sp.simplify(_relu_moment(k, m, False))",
        new="        return sp.simplify(_relu_moment(m, k, False))",
        why="the simplified moment is built from the unsimplified one of (m, k): "
        "E[relu(<w,x>)^m relu(<w,x'>)^k] instead of ^k ^m, wrong for |x| != |x'|; killed by "
        "test_relu_moment_unsimplified_has_the_simplified_values",
        tests=["tests/test_kernels.py"],
        claims=["kernels.fourth_cumulant"],
    ),
    dict(
        name="linearisation.exercise_2_shared_sweep_with_a_fixed_output_layer",
        seed="002",
        backend="torch",
        file=_LC,
        old="        return _sweep(full, 1.0)",
        new="        return _sweep(full, 0.0)",
        why="Exercise 2's plain network is taken from the shared sweep with eta_a = 0 (only "
        "W trained) while g = tanh(f) trains both layers: not the same flows; killed by "
        "test_exercise_2_plain_sweep_is_the_shared_sweep_with_the_plain_defaults",
        tests=["tests/test_linearisation.py"],
        claims=["linearisation.exercise_2_linearisation_error"],
    ),
    dict(
        name="global_convergence.c1_quadrature_mpmath_only_under_full",
        seed="000",
        backend="mpmath",
        file=_GC,
        old="            if d in mp_dims:\n",
        new="            if full:\n",
        why="the default run never checks the mpmath C_1 of swish / tanh (only --full "
        "does); killed by test_c1_quadrature_default_fails_on_a_wrong_mpmath_c1",
        tests=["tests/test_global_convergence.py"],
        claims=["global_convergence.c1_quadrature"],
    ),
]
