"""Mutants of the modules that support the closed forms of seeds 003 (``kunin``: the reduced
flows, the loss frame, the raw flows, the preconditioners, the losses, the times, the states,
the systems, the exact least loss, the wide net), 001 (``xu_ziyin``: the p, q coordinates, the
evaluators, the network, the setups, the conditioning, the fast sample) and 000
(``linear_node_scaling``: the reduced SVD, the limit, the generated evaluators, the exact
instance of the claims, the moments, the trajectory): boundaries (``Z > 0`` of ReLU, ``dev >
brtol * scale`` at ``balance_rtol = 0``, ``lambda_j = 0``, a mass of 0, ``t < 0``, NaN times,
a zero entry of ``x``), an index or axis (a row for a column, the batch axis of a sum or a
transpose, the first target column, the block offset of the fast sample, rows for columns of
``p_inf``), a switch of backend (mpmath's ``V^T``, mpmath's unsorted singular values), scale
bookkeeping at the edges of float64 (a subnormal denominator, ``4^e`` for ``4^-e``, the signed
maximum as the power-of-two scale), a sign (``c_+`` against ``A0``), validations that accept a
bad input or refuse a good one, and a wrong exception type.

Written by an outside reviewer (a helper session) who read the code but not the tests (nor
``benchmarks/mutation_equivalent.toml`` or ``docs/mutation_testing.md``); ``why`` is the wrong
behaviour the reviewer observed with the mutant applied to a copy of the repository (a git
worktree of ``HEAD``), each in a fresh interpreter (``PYTHONDONTWRITEBYTECODE=1``,
``PYTHONPATH`` the copy, ``solvable.__file__`` checked), the same snippet run on the unmutated
copy first ("before"); references from ``dps=30..50`` where a number is claimed right.

Of 40 written, 27 are kept.  Dropped as equivalent or not shown to be observable:

* ``kunin`` ``wide.py``: the switch of the direct form at ``condition^2`` instead of
  ``condition`` (the measurement of its comment): for h = 1 starts of condition 81 to 8e4 the
  two forms agreed to the last digit shown, the error being that of ``C = Q0 R`` itself;
* ``kunin`` ``_float64.py``: ``_f64_safe`` without ``abs(delta_p)``: the same states for three
  starts at t up to 1e5;
* ``xu_ziyin`` ``evaluators.py``: ``_lazy_select`` returning a piece that holds everywhere even
  after an earlier one held somewhere: the fast engine equal to the reference on every case (the
  fast path calls it on index sets where each condition is constant);
* ``xu_ziyin`` ``system.py``: ``P / (P + Q)`` for ``P / max(P, Q)``: ``P = Q = 1e308`` overflows
  to ``p = q = 0`` but the exact fallback then gives the same number (1 ulp elsewhere).

Confirmed but left out to keep the batch near the asked size (each a one-line change with an
observed difference): ``kunin.regime`` refusing ``ratio = 1`` (``r <= 1``); ``preconditioner``
at ``beta = 0`` refused (``nb2 >= 0``: 0/0); ``WideState.beta`` as ``A^T W``; the exact dot
product of the loss frame over the smallest denominator (loss(0) 2.56153 for 2.66265);
``piecewise_linear_flow(region=np.True_)`` refused; ``xu_ziyin`` NaN in a time array accepted
(f = nan); ``gd_step_bounds`` from the smallest singular value ((2, 4) for (0.5, 1));
``linear_node_scaling.States`` as ``out=`` refused (``"f": (T, d)``); ``pruned_mass`` with
``ceiling`` (0.41087 for 0.49671 at m = 10, rho = 0.25).

The reviewer also reported two defects of the unmutated code, both fixed (with tests that
failed before, ``tests/test_closed_form_helpers.py``): the single neuron's closed form from the
stationary start ``a0 = 0``, ``w0 . beta* = 0`` left it at some times (mpmath, and float64
beyond t = 1e100 through its 17-digit fallback; ``w_par`` is now exactly 0 there), and
``pq_coordinates`` refused ``u = [1e308]``, ``W = [[-1e308]]`` although ``q = -1e308`` is in
range (now from 17 digits where only an intermediate overflows).  The test and claim hints
were filled in by the maintainer.  Format: see ``benchmarks/mutation.py``."""

# the hinted test files of each subject (the reviewer's placeholders, filled in by the
# maintainer): the files every closed form shares, then the subject's own

COMMON_TESTS = [
    "tests/test_closed_form_helpers.py",
    "tests/test_closed_form_claims_and_fast_paths.py",
    "tests/test_registry.py",
    "tests/test_claims_can_fail_closed_forms.py",
    "tests/test_closed_form_bookkeeping.py",
    "tests/test_closed_form_edges.py",
    "tests/test_bad_input.py",
]

KUNIN_TESTS = [
    *COMMON_TESTS,
    "tests/test_kunin.py",
    "tests/test_kunin_edges.py",
    "tests/test_kunin_loss_near_minimum.py",
    "tests/test_kunin_wide.py",
    "tests/test_kunin_systems.py",
    "tests/test_closed_form_scale_models.py",
]

XU_ZIYIN_TESTS = [
    *COMMON_TESTS,
    "tests/test_xu_ziyin_edges.py",
    "tests/test_xu_ziyin_cases.py",
    "tests/test_xu_ziyin_float64.py",
    "tests/test_closed_form_scale.py",
]

LNS_TESTS = [
    *COMMON_TESTS,
    "tests/test_linear_node_scaling.py",
    "tests/test_linear_node_scaling_edges.py",
    "tests/test_node_scaling_theorems.py",
    "tests/test_closed_form_scale_models.py",
]

MUTANTS = [
    # -------------------------------------------------- kunin (seed 003)
    dict(
        name="closed_form_helpers.kunin_wide_preconditioner_mpmath_V_transposed",
        seed="003",
        backend="mpmath",
        file="solvable/models/kunin/preconditioners.py",
        old="V = np.array([[Vm[j, i] for j in range(c)] for i in range(c)], dtype=object)",
        new="V = np.array([[Vm[i, j] for j in range(c)] for i in range(c)], dtype=object)",
        why=(
            "wide_preconditioner at dps reads mpmath's svd_r V (which is V^T) untransposed: for "
            "beta = [[0.3, -0.2], [0.1, 0.4], [0.5, 0.2]] (d = 3, c = 2), delta = 0.5, eta_a = 1, "
            "eta_w = 0.5, M_R's off-diagonal was -0.0439420971498957 at dps=30 instead of "
            "+0.0439420971498957 (float64, and dps=30 before); float64 and c = 1 are unaffected."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_nan_time_misreported",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/times.py",
        old="        if not np.all(tf >= 0):  # nan, -inf or negative: _times raises the message",
        new="        if np.any(tf < 0):  # nan, -inf or negative: _times raises the message",
        why=(
            "a NaN in a float time array passes the vectorised check (np.any(tf < 0) is False for "
            "NaN): closed_form(case('upstream')).sample(np.array([1.0, nan])) raised \"the "
            "state's a exceeds the float64 range (|value| <= 1.8e308) ... pass dps=... for "
            "mpmath\" (a wrong diagnosis) instead of 'times: t[1] must be finite, got "
            "np.float64(nan)'; -inf is still refused by name."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_relu_pattern_at_zero_preactivation",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/states.py",
        old="active=np.asarray(Z > 0)",
        new="active=np.asarray(Z >= 0)",
        why=(
            "PiecewiseLinearState.from_weights(PiecewiseLinearSetup(1, 0.4, X = ((1, 0.5), (-0.5, "
            "1), (0.3, -1)), y), 0, a = (0.5, -0.7), W = ((0, 0), (-0.3, 0.9))): active = [[True, "
            "True], [True, True], [True, False]] instead of [[False, True], [False, True], [False, "
            "False]] (w_k . x_i = 0 counted active, against relu'(0) = 0); the loss (0.965125) is "
            "unchanged."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_wide_balance_rtol_zero_refuses_exact_start",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="        if dev > brtol * scale:",
        new="        if dev >= brtol * scale:",
        why=(
            "dev >= brtol * scale: with balance_rtol=0 an exactly balanced start (A0 = I_2, W0 = "
            "0.5 I_2, eta_a = 1, eta_w = 0.5: Delta = 0.25 I exactly, max|Delta - delta I| = 0) "
            "was refused ('got max|Delta - delta I| = 0.0 ... balance_rtol = 0.0e+00'); before, "
            "delta = 0.25, at(1).loss = 2.039889093021838 (X = ((0.6, 0.8), (-0.8, 0.6), (0, 0)), "
            "Y = ((1, 0.2), (-0.5, 0.4), (2, 0)))."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_wide_exact_s_from_a_row",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="got = (XtY, sum((row[0] * row[0] for row in X), Fraction(0)))",
        new="got = (XtY, sum((v * v for v in X[0]), Fraction(0)))",
        why=(
            "_exact_moments takes s = |first row of X|^2 (0.36) instead of |first column|^2 (1), "
            "so a start exactly at beta* is not recognised as stationary: X = ((0.6, 0), (0.8, 0), "
            "(0, 1)), Y = ((0.3, 0), (0.4, 0), (0, 0.5)) (beta* = 0.5 I, L_min = 0), A0 = I, W0 = "
            "0.5 I: loss(0) = 1.1e-31 and loss(3) = 1.1e-33 (dps=30: 5.3e-82, 8.2e-84) instead of "
            "exactly 0 (the residual is 0)."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_wide_h1_sign_from_A_not_c_plus",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="sign=int(Cp[0, 0] > 0) - int(Cp[0, 0] < 0) if h == 1 else None",
        new="sign=int(A[0, 0] > 0) - int(A[0, 0] < 0) if h == 1 else None",
        why=(
            "the h = 1 weights take the sign of A0[0, 0] instead of that of c_+: WideSetup(1, 0.5, "
            "X = ((0.6,), (0.8,)), Y = ((1, 0.5), (0.5, -1))), A0 = ((0.2, 0.1),), W0 = ((1,),) (h "
            "= d = 1, delta < 0): at(1).A = [[-0.694, 0.282]], W = [[-1.121]] instead of [[0.694, "
            "-0.282]], [[1.121]] (beta = [[0.778, -0.316]] unchanged; at t = 0 the direct form "
            "still gives A0, W0, so A and W flip sign between the two evaluation forms)."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_wide_floor_first_target_column",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/minimum.py",
        old="tuple(r[j] for r in setup.Y)",
        new="tuple(r[0] for r in setup.Y)",
        why=(
            "_wide_floor sums the least loss of the first target column c times: X = ((0.6, 0.8), "
            "(-0.8, 0.6), (0, 0)), Y = ((1, 0.2), (-0.5, 0.4), (2, 0)), A0 = I, W0 = 0.5 I: "
            "loss(inf) and loss(20) = 4.0 instead of 2.0 (float64 and dps=30); c = 1 is "
            "unaffected."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_working_sqrt_small_argument",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/minimum.py",
        old="r = q / Fraction(4) ** e if e >= 0 else q * Fraction(4) ** -e",
        new="r = q / Fraction(4) ** e if e >= 0 else q * Fraction(4) ** e",
        why=(
            "_working_sqrt scales q < 1/4 by 4^e instead of 4^-e: case('upstream') (exactly "
            "isotropic decimals; |w_perp|^2 = 0.032): at(0).loss = 2.27565 instead of 2.2986 (= "
            "1/2 |X a0 w0 - y|^2), w(0) right; float64 only (dps=20 right)."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_riccati_deviation_wrong_axis",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/reduction.py",
        old="T = -np.asarray(G) * np.asarray(p_inf)[..., None, :]",
        new="T = -np.asarray(G) * np.asarray(p_inf)[..., :, None]",
        why=(
            "_riccati_deviation scales G's rows instead of its columns by p_inf (visible for h > 1 "
            "with unequal p_inf): X = ((0.6, 0.8), (-0.8, 0.6), (0, 0)), Y = ((1, 0.2), (-0.5, "
            "0.4), (2, 0)), A0 = I, W0 = 0.5 I (h = 2, L_min = 2): loss(0.5) - 2 = 0.121275 "
            "instead of 0.116889 (dps=50 before: 0.11688878410556086), loss(3) - 2 = 2.524e-4 "
            "instead of 2.214e-4 (float64 and mpmath alike)."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_frame_columns_not_swapped_back",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/frame.py",
        old="    return (R[:, ::-1] if swap else R), g",
        new="    return R, g",
        why=(
            "_frame forgets to swap R's columns back when the first column of the plane's data is "
            "0 (beta* = 0: the loss frame's G_11 = 0): Setup(1, 0.5, X = ((0.6, 0.8), (-0.8, 0.6 + "
            "1e-12), (0, 0)), y = (0, 0, 2)), isotropy_rtol=1e-9, a0 = 0.3, w0 = (0.1, -0.4): "
            "sample([0, 1, 5]).loss = [2.0, 2.0, 2.0] instead of [2.00765, 2.005111360878059, "
            "2.001387460782712] (= dps=40)."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_system_rates_swapped",
        seed="003",
        backend="torch",
        file="solvable/models/kunin/systems.py",
        old="return {self.blocks[0]: float(setup.eta_a), self.blocks[1]: float(setup.eta_w)}",
        new="return {self.blocks[0]: float(setup.eta_w), self.blocks[1]: float(setup.eta_a)}",
        why=(
            "SingleNeuronSystem.rates gives a the rate eta_w and w the rate eta_a: "
            "numerics.simulate(case('upstream').setup, 1.2, (0.2, 0.3), [1.0], method='torch') "
            "gave a(1) = 1.291737 instead of 1.3991236906629 (closed form 1.3991236906629647); "
            "scipy is unaffected (the rates only weight its error norm)."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_helpers.kunin_balance_sums_the_batch",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/losses.py",
        old="    return eta_w * a**2 - eta_a * (w * w).sum(-1)",
        new="    return eta_w * a**2 - eta_a * (w * w).sum()",
        why=(
            "_balance sums |w|^2 over every axis, not the last: balance(a = [1.2, 0.3], w = [[0.2, "
            "0.3], [0.1, -0.4]], 1, 0.5) = [0.42, -0.255] instead of [0.59, -0.125] (one at a "
            "time: right); PiecewiseLinearState.delta = [-1.2, -1.104] instead of [-0.3, -0.704]."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    # ----------------------------------------------- xu_ziyin (seed 001)
    dict(
        name="closed_form_helpers.xu_ziyin_pq_finite_check_or",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/coordinates.py",
        old="if dps is None and not (np.isfinite(p).all() and np.isfinite(q).all()):",
        new="if dps is None and not (np.isfinite(p).all() or np.isfinite(q).all()):",
        why=(
            "pq_coordinates refuses only when both p and q overflow: Setup(1, 1, 1, (1.0,), 1.0), "
            "u = [1e308], W = [[-1e308]] returned p = [0.], q = [-inf] instead of ValueError 'p, q "
            "are beyond the float64 range ...'."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_helpers.xu_ziyin_ntk_gamma_power",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/network.py",
        old="    return gamma * gamma * (eta_u",
        new="    return gamma**2 * (eta_u",
        why=(
            "_ntk with gamma**2 (a Python float's ** raises): State.from_weights(Setup(1, 1, "
            "1e200, (1.0,), 1.0), 0, [1.0], [[1.0]]) raised OverflowError (34, 'Numerical result "
            "out of range') instead of ValueError \"the output f = ... or the NTK = inf is beyond "
            'the float64 range ... pass dps=k (mpmath)"; ntk() on arrays is unaffected.'
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_helpers.xu_ziyin_x_with_a_zero_entry_refused",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/setups.py",
        old="if all(nb.to_mpf(xi) == 0 for xi in x):",
        new="if any(nb.to_mpf(xi) == 0 for xi in x):",
        why=(
            "Setup refuses x with any zero entry instead of only x = 0: Setup(1, 0.5, 0.7, x = (1, "
            "0), 1.5) raised 'x must be non-zero (rho = ||x|| = 0 ...)'; before, closed_form(..., "
            "(0.8, -0.3), ((0.2, -0.5), (1.3, 0.4))).at(1).f = 1.3936857032470193."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_helpers.xu_ziyin_nan_W0_array_accepted",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/setups.py",
        old="        and W0.size and bool(np.isfinite(W0).all())\n",
        new="        and W0.size\n",
        why=(
            "_check_W0 takes any numeric array whole: closed_form(case('generic').setup, (0.8, "
            "-0.3, 1.1), W0 with W0[0, 1] = nan) returned P = nan and at(1).f = nan instead of "
            "'W0[0,1] must be finite, got nan'; an inf entry gave OverflowError 'cannot convert "
            "Infinity to integer ratio'."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_helpers.xu_ziyin_manifold_condition_subnormal_den",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/system.py",
        old="    if 2.0**-1000 <= den:\n",
        new="    if den > 0:\n",
        why=(
            "manifold_condition keeps a subnormal den in float64: manifold_condition(1.0, 0.0, "
            "1e-160) = inf instead of 1e+160 (den = alpha^2 = 1e-320, 1/den overflows); (1, 0, "
            "3e-162): inf instead of 3.3333333333333333e+161 (dps=50 references)."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_helpers.xu_ziyin_fast_sample_W_block_offset",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/float64_sample.py",
        old="W = W_flat[b0 + w0 : b0 + min(w0 + n_w, n)]",
        new="W = W_flat[w0 : min(w0 + n_w, n)]",
        why=(
            "_fill writes every block of times' W into the first block's rows (W_flat[w0 ...] "
            "without b0): case('generic') (d = 3), sample(np.linspace(0, 5, 50000)) (more than "
            "2^17 / d = 43690 times, two blocks): W differs from engine='reference' by up to 1.29 "
            "and W(t = 5) = zeros; below 43690 times the engines agree."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_helpers.xu_ziyin_f_evaluator_sums_swapped",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/evaluators.py",
        old="    sums = (S.Sp, S.Sq, S.R,",
        new="    sums = (S.Sq, S.Sp, S.R,",
        why=(
            "the f evaluator's arguments list S_q before S_p: case('generic').sample([0, 0.5, "
            "2]).f[0] = +0.042 instead of -0.042 (= gamma u0 . W0 x); case('P_less_Q') f(0.5) = "
            "-0.6866 instead of 0.6866 (float64 and mpmath alike); case('y_zero') unchanged."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    # ------------------------------------ linear_node_scaling (seed 000)
    dict(
        name="closed_form_helpers.lns_transpose_not_batched",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/_evaluators.py",
        old='"T": lambda x: np.swapaxes(x, -1, -2),',
        new='"T": lambda x: x.T,',
        why=(
            "the generated T(x) as x.T reverses every axis, not the last two: limit(X (4, 3), y, "
            "lam = [0.5, 0.3, 0.2], a = [1, -1, 1], W0 (2, 3, 3)) raised 'matmul: Input operand 1 "
            "has a mismatch in its core dimension 0 ... (size 3 is different from 2)' instead of "
            "W_inf[1, 0] = [0.014037, -2.117038, -3.569287] (= limit of W0[1] alone); unbatched "
            "calls unaffected."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_helpers.lns_mpmath_svd_ascending",
        seed="000",
        backend="mpmath",
        file="solvable/models/linear_node_scaling/svd.py",
        old="order = sorted(range(len(D)), key=lambda i: -D[i])",
        new="order = sorted(range(len(D)), key=lambda i: D[i])",
        why=(
            "reduced_svd at dps sorts the singular values ascending: reduced_svd([[3, 0, 0], [0, "
            "1, 0]], dps=20).D = [1, 3] (not decreasing), and rank=1 kept D = [1], V = e_2 instead "
            "of D = [3], V = -e_1; float64 unaffected."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_helpers.lns_zero_node_scaling_refused",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/svd.py",
        old="    if np.any(arr < 0):\n",
        new="    if np.any(arr <= 0):\n",
        why=(
            "_check_lam refuses lambda_j = 0: limit(X, y, lam = [0.6, 0.4, 0.0], ...) and "
            "gd_step_bounds(X, lam) raised 'lam must be >= 0 (node scalings), got [0.6, 0.4, 0.0]' "
            "instead of beta_inf = [0.9064, 0.8549], W_inf[2] = [0, 0] and (1.2203, 2.4407) (X = "
            "((1, 0.5), (0.2, -1), (0.3, 0.3)), y = (1, -0.5, 0.2))."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_helpers.lns_probe_rows_checked_not_columns",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/linear_limit.py",
        old="if P_a is not None and P_a.shape[1] != d:",
        new="if P_a is not None and P_a.shape[0] != d:",
        why=(
            "limit checks the probes' rows against d: probes (3, 2) for d = 2 refused ('probes "
            "must have d = 2 columns (as X), got shape (3, 2)'; before f = [0.64092, 0.60451, "
            "1.24543]), and probes (2, 3) reach the evaluator (a numpy matmul ValueError instead "
            "of the message)."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_helpers.lns_zero_mass_accepted",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/moments.py",
        old="    if not v > 0 or (upper is not None",
        new="    if v < 0 or (upper is not None",
        why=(
            "_check_mass accepts 0: group_moments(0.0, 1.0, [1, 0.5], V) returned zeros instead of "
            "'lam_T must be in (0, total = 1.0], got 0.0'; pruning_exceedance(x, eps = 0, ...) = "
            "1.0 instead of 'eps must be in (0, oo), got 0.0'; total = 0 now blamed on lam_T "
            "('lam_T must be in (0, total = 0.0], got 0.5')."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_helpers.lns_negative_time_accepted",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/states.py",
        old="return t if _is_infinite(t, name) else nb.check_number(name, t, nonnegative=True)",
        new="return t if _is_infinite(t, name) else nb.check_number(name, t)",
        why=(
            "_check_time drops nonnegative=True: closed_form(...).at(-1.0).loss = 2.888 and "
            "sample([0.5, -2]).loss = [0.2814, 14.537] (also at dps=20) instead of 't must be >= "
            "0, got -1.0' / 'times[1] must be >= 0, got -2'."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_helpers.lns_power_of_two_signed_max",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/trajectory.py",
        old="    top = float(np.max(np.abs(v))) if v.size else 0.0",
        new="    top = float(np.max(v)) if v.size else 0.0",
        why=(
            "_power_of_two scales by the largest signed entry, not the largest magnitude: X = I_2, "
            "y = (-1e308, 1.0), lam = (1,), a0 = [1], W0 = [[0.5, 0.25]]: at(1000) and at(inf) "
            "raised 'W(t) exceeds the float64 range' instead of W = [[-1.4142e308, 1.4142]], f = "
            "[-1e308, 1.0], loss = 0.0 (the mantissas of y were ~1e308)."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_helpers.lns_instance_Dinv_not_inverted",
        seed="000",
        backend="sympy",
        file="solvable/models/linear_node_scaling/_instance.py",
        old='        _Dinv: _F(inst["D"].inv(), inst),',
        new='        _Dinv: _F(inst["D"], inst),',
        why=(
            "the exact instance passes D for D^-1 to the generated evaluators: claim "
            "linear_node_scaling.stationary_point 'failed' instead of 'proved' "
            "(linear_node_scaling.trajectory_limit still 'proved')."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
]
