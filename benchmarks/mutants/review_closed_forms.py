"""Mutants of the closed forms and the phase / regime conditions (``solvable/models/xu_ziyin/``,
``solvable/models/kunin/``, ``solvable/models/linear_node_scaling/``,
``solvable/models/phases/``), written
by an outside reviewer who had not read the tests, nor the existing mutant tables, nor the
docs.

They cover a sign wrong in one Piecewise branch (Q = 0, y < 0), an ``abs()`` dropped where the
argument is negative on one side (the |ell| <= 1 switch of the unit forms, the c_perp term of
kunin's phi for delta < 0, the "rich" band of ``kunin.regime``), a blocked sum that only
visits the diagonal blocks (Lagrange's identity for d > 512), a dropped factor and a sign
slip in the power-of-two exponents of seed 000's float64 path, and ``>`` vs ``>=`` at the
kernel / feature-learning boundary ``b = a``.  Every one was run on a copy of the package
against the unmutated code, on the input named in ``why``, and gave a different result.

The reviewer chose the ``tests`` hints from the test files' names only; where the first
run (hints only, 28 November) missed, the file whose test kills the mutant was put first
(the mutants themselves are the reviewer's).
"""

MUTANTS = [
    dict(
        name="review.closed_forms.xz_ell_sign_on_Q_zero",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/expressions.py",
        old="(-L_M, sp.Eq(N, 0)),",
        new="(L_M, sp.Eq(N, 0)),",
        why="log alpha on the Q = 0 manifold (N = 0) gets the wrong sign: alpha grows instead of "
        "decaying; Q_zero_y_negative at t=1: u 4.5e-7 -> 2.2e6",
        tests=["tests/test_xu_ziyin_cases.py", "tests/test_xu_ziyin_edges.py"],
        claims="xu_ziyin.stable_*",
    ),
    dict(
        name="review.closed_forms.xz_small_ell_abs_dropped",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/expressions.py",
        old="small = sp.Abs(ell) <= 1",
        new="small = ell <= 1",
        why="cosh/sinh unit form used for every ell <= 1, also ell -> -oo (cancellation, "
        "overflow); Q_zero_y_negative at t=3: u 3e-19 -> (0,-128,0)",
        tests=[
            "tests/test_xu_ziyin_edges.py",
            "tests/test_xu_ziyin_cases.py",
            "tests/test_xu_ziyin_float64.py",
        ],
        claims="xu_ziyin.stable_units",
    ),
    dict(
        name="review.closed_forms.xz_lagrange_diagonal_blocks_only",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/_arithmetic.py",
        old="m = pi * q[None, :] - qi * p[None, :]",
        new="m = pi * q[None, start : start + block] - qi * p[None, start : start + block]",
        why="Lambda = sum_{i<j}(p_i q_j - p_j q_i)^2 over the diagonal 512-blocks only; d=600 "
        "random init, generic setup: alignment(1) 0.8227 -> 0.8654",
        tests=[
            "tests/test_branches.py",
            "tests/test_xu_ziyin_edges.py",
            "tests/test_closed_form_scale.py",
        ],
        claims="xu_ziyin.eq_21*",
    ),
    dict(
        name="review.closed_forms.kunin_perp_exprel_abs_dropped",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/expressions.py",
        old="* exprel(-sp.Abs(delta) * t)",
        new="* exprel(-delta * t)",
        why="phi_hat's c_perp term uses exprel(-delta t) with h_perp^2 for delta < 0 (abs "
        "dropped); kunin downstream at t=2: a 0.33895 -> 0.32761",
        tests=["tests/test_kunin.py", "tests/test_kunin_edges.py"],
        claims="kunin.*solution",
    ),
    dict(
        name="review.closed_forms.kunin_regime_abs_dropped",
        seed="003",
        backend="sympy",
        file="solvable/models/kunin/preconditioners.py",
        old="if abs(dl) < scale / r:",
        new="if dl < scale / r:",
        why="regime's rich band |delta| < scale/ratio loses its abs: every negative delta above "
        "the delayed-rich line is rich; regime(-1, 1, 1, 1)",
        tests=["tests/test_boundaries.py", "tests/test_kunin.py", "tests/test_delayed_rich.py"],
        claims="kunin.regimes",
    ),
    dict(
        name="review.closed_forms.lns_rate_exponent_factor_dropped",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/trajectory.py",
        old='rate_exp = rate_exp + eta_exp + deg_S * (exp["lam"] + 2 * exp["a"]) + '
        'deg_D * exp["X"]',
        new='rate_exp = rate_exp + eta_exp + deg_S * (exp["lam"] + exp["a"]) + deg_D * exp["X"]',
        why="S = sum lam a^2 rescaled by 2^(e_lam + e_a), not 2^(e_lam + 2 e_a): rates halved for "
        "a = +-1; 3x2 data, lam (.5,.3,.2): rate .712 -> .356",
        tests=["tests/test_linear_node_scaling.py", "tests/test_linear_node_scaling_edges.py"],
        claims="linear_node_scaling.trajectory_*",
    ),
    dict(
        name="review.closed_forms.lns_beta_inf_exponent_sign",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/trajectory.py",
        old='beta_inf_full = np.ldexp(beta_inf, exp["y"] - exp["X"])',
        new='beta_inf_full = np.ldexp(beta_inf, exp["y"] + exp["X"])',
        why="reported beta_inf scaled by 2^(e_y + e_X) instead of 2^(e_y - e_X) (states are "
        "right); max|X| = 1: beta_inf 1.045 -> 4.181",
        tests=["tests/test_linear_node_scaling.py", "tests/test_linear_node_scaling_edges.py"],
        claims="linear_node_scaling.reported_constants",
    ),
    dict(
        name="review.closed_forms.phases_kernel_at_a_equals_b",
        seed="001",
        backend="sympy",
        file="solvable/models/phases/scaling.py",
        old="if self.second_term > self.first_term and self.p_over_q_case is not None:",
        new="if self.second_term >= self.first_term and self.p_over_q_case is not None:",
        why="eq. (30) needs b > a strictly; at b = a = 0 the mutant says kernel: "
        "xu_ziyin_phase(1, 0, -1, -1, 0, 0) feature learning -> kernel",
        tests=["tests/test_phases.py", "tests/test_phases_initialisation.py"],
        claims="phases.*",
    ),
]
