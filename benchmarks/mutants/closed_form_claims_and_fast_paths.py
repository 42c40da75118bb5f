"""Mutants of the claim checks and the fast paths of the closed forms of seeds 001
(``xu_ziyin``), 003 (``kunin``) and 000 (``linear_node_scaling``): the numbers a claim
reports beside its verdict (the float64 tolerance of ``xu_ziyin.reported_constants``, the
reference digits and the compared pairs of ``linear_node_scaling.evaluators_mpmath`` /
``reported_constants``), checks that compare the wrong pair or skip a branch and so can no
longer fail (an mpmath result measured in the float64 tolerance, ``wide_single_neuron``
without its mpmath comparison, a manifold piece of ``stable_alpha`` or the infinite limits of
``stable_limits`` left out), boundaries (``delta = 0`` skipped, ``P = Q = 0`` given an
alpha', ``r = 1`` in the pruned mass, the overflow test of ``_converged_r``), and the
float64 fast paths (the vectorised float64-safe test of the single neuron's ``sample``, the
manifold zeros of Proposition 1, the exact ``|w_perp|`` of a start on the line of beta*, the
subnormal report of a constant, the fused assembly of ``W``, the exponents of the reported
``step_bound`` and ``beta0``, the fast validation of a time array).

Written by an outside reviewer (a helper session) who read the code but not the tests;
``why`` is the wrong behaviour the reviewer observed with the mutant applied to a copy of
the repository (a git worktree of ``HEAD``), each in a fresh interpreter
(``PYTHONDONTWRITEBYTECODE=1``, ``PYTHONPATH`` the copy, ``solvable.__file__`` checked), the
same snippet run on the unmutated copy first ("before").  Where a check can no longer fail,
"before" and "after" include a run with the checked value made wrong by a monkeypatch (the
check failed before and passes with the mutant).  Of the 36 written, 26 were kept and run,
24 are kept now; dropped:

* as equivalent (the same output, compared as printed or bit for bit): ``kunin``
  ``_delta_continuity``'s slope over ``range(1)`` (the larger slope is the first); the
  ``delta`` tolerance of ``kunin.reported_constants`` without its absolute floor, or relative
  only (``delta`` is exact from fractions, rounded once: 0 error on every case);
  ``_preconditioner_evaluators``' skip with ``and`` (no case has exactly one of ``a0``,
  ``w0`` zero); ``xu_ziyin``'s ``_fill`` grouping times by the ends of a block only
  (``lazy_select`` re-tests every condition per element: the values are bit for bit those of
  the reference engine, only which pieces run changes);
* as too weak: ``_delta_continuity`` without its ``-1e-12`` point (max_error changes in its
  13th digit, the detail not at all); the single neuron's vectorised safe test with ``&``
  for ``|`` (only the float64 fallback ``_float64`` is called; the values are bit for bit
  equal);
* as redundant (the claim fails at once): ``_pq_condition`` over ``a + b`` only,
  ``_constant_error`` absolute instead of relative, ``gd_step_bounds`` at ``D[-1]``;
* dropped by the maintainer after the first run, as equivalent in effect (the verdict and
  every figure's meaning unchanged; what changes is rounding noise no band could tell
  apart): ``linear_node_scaling.reported_constants``' reference at ``dps`` instead of
  ``dps + 10`` digits (still 5 digits beyond the tolerance ``10^-(dps - 5)``: the figures
  move between 3e-8 and 3e-6 tolerances; the seed-17 sample's ``dps | 10`` is the same
  mutant, argued equivalent in ``benchmarks/mutation_equivalent.toml``), and its
  ``gd_step_bounds`` sharp bound compared with ``2 fn`` instead of ``2 step`` (``fn`` is
  compared with ``step`` to 1e-12 in the same check, so the two references agree to that
  tolerance: 7.9e-05 -> 3.9e-05 tolerances).

The test and claim hints were filled in by the maintainer (the subject's test files and
claims).  Format: see
``benchmarks/mutation.py``."""

# the hinted test files of each subject (the reviewer's placeholders, filled in by the
# maintainer): the files every closed form shares, then the subject's own

COMMON_TESTS = [
    "tests/test_closed_form_claims_and_fast_paths.py",
    "tests/test_registry.py",
    "tests/test_claims_can_fail_closed_forms.py",
    "tests/test_closed_form_bookkeeping.py",
]

XU_ZIYIN_TESTS = [
    *COMMON_TESTS,
    "tests/test_xu_ziyin_edges.py",
    "tests/test_xu_ziyin_cases.py",
    "tests/test_xu_ziyin_float64.py",
    "tests/test_closed_form_edges.py",
    "tests/test_crossings_taylor_powers_and_manifold_constants.py",
]

KUNIN_TESTS = [
    *COMMON_TESTS,
    "tests/test_kunin.py",
    "tests/test_kunin_edges.py",
    "tests/test_kunin_loss_near_minimum.py",
    "tests/test_kunin_wide.py",
    "tests/test_kunin_systems.py",
]

LNS_TESTS = [
    *COMMON_TESTS,
    "tests/test_linear_node_scaling.py",
    "tests/test_linear_node_scaling_edges.py",
    "tests/test_node_scaling_theorems.py",
]

MUTANTS = [
    dict(
        name="closed_form_claims_and_fast_paths.xu_ziyin_reported_constants_float_rtol",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/numeric_claims.py",
        old="rtol = 64 * 2.0**-52 * (1 + cond)",
        new="rtol = 64 * 2.0**-52 * cond",
        why=(
            "The float64 tolerance of xu_ziyin.reported_constants drops the 1 of 64 eps (1 + "
            "cond): the claim stays confirmed but reports twice the error where cond = 1: "
            "max_error 0.010109071561585529 -> 0.020218143123171058, detail 'worst 0.01 "
            "tolerances (P_zero_y_positive: alpha_minus at dps=None)' -> 'worst 0.02 tolerances "
            "(...)'."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.xu_ziyin_relations_difference_scale",
        seed="001",
        backend="mpmath",
        file="solvable/models/xu_ziyin/numeric_claims.py",
        old='("alpha_+ - alpha_- = B/A", ap - am, B / A, ap + am),',
        new='("alpha_+ - alpha_- = B/A", ap - am, B / A),',
        why=(
            "xu_ziyin.reported_relations measures alpha_+ - alpha_- = B/A relative to |B/A| "
            "instead of alpha_+ + alpha_- (B/A is small where P is large, so a correct closed "
            "form fails): confirmed, max_error 0.007444 ('y_zero: alpha_+ alpha_- = Q/P at "
            "dps=30') -> failed, 70.2 tolerances ('large_init: alpha_+ - alpha_- = B/A at "
            "dps=30')."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.xu_ziyin_report_subnormal_as_float",
        seed="001",
        backend="mpmath",
        file="solvable/models/xu_ziyin/trajectory.py",
        old="if math.isfinite(f) and abs(f) >= 2.0**-1022:",
        new="if math.isfinite(f) and abs(f) > 0:",
        why=(
            "_report keeps a subnormal constant of the 17-digit fallback as a float: "
            "closed_form(Setup('1', '2', '0.5', ['1', '-0.5'], '0.3'), ['1e-155', '2e-155'], "
            "[['1e-155', '3e-155'], ['-2e-155', '1e-155']]) reported P = "
            "mpf('1.6074728690739137e-311'), Q = mpf('3.6392527130926086e-310'); with the mutant "
            "P = 1.607472869074e-311 and Q = 3.6392527130926e-310 (floats: 4 and 3 digits lost)."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.xu_ziyin_manifold_candidates_and",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/_arithmetic.py",
        old="near = (abs(p0) <= margin) | (abs(q0) <= margin)",
        new="near = (abs(p0) <= margin) & (abs(q0) <= margin)",
        why=(
            "_exact_manifold_zeros looks only at units whose p_i AND q_i are both within rounding"
            " of 0, so the rounding residue of p_i = 0 is kept: Setup('6', '2', '1', ['1', '1', "
            "'1'], '1'), u0 = ['1', '2', '-0.7'], W0 = [['-1', '0', '0'], ['0', '0', '-2'], "
            "['0.3', '0.4', '0']] (P = 0 exactly, y > 0: Proposition 1, the flow into the "
            "saddle): before P = 0.0, alpha_prime = 0.18214936247723135, alpha_plus = inf, "
            "f(t=50) = f(inf) = 0.0; after P = 2.9e-32, alpha_prime None, alpha_plus = 2.3e31 and"
            " f(50) = f(inf) = 1.0 (the other fixed point); at dps=30 P = 3.5e-82 instead of 0."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.xu_ziyin_constants_alpha_prime_at_saddle",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/trajectory.py",
        old='"alpha_prime": a_prime if (PP == 0 and QQ > 0) else None}',
        new='"alpha_prime": a_prime if (PP == 0 and QQ >= 0) else None}',
        why=(
            "constants() reports alpha' where P = 0 and Q >= 0 (the saddle P = Q = 0 included): "
            "constants(1, 2, 0.5, 1.0, 0.3, 2, 0, 0)['alpha_prime'] was None, is nan (and "
            "mpf('nan') at dps=30); for the case 'saddle' closed_form says None while constants()"
            " of its P, Q says nan.  P = 0 < Q (0.2121...) and P > 0 (None) unchanged."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.xu_ziyin_stable_alpha_skips_n_zero_piece",
        seed="001",
        backend="sympy",
        file="solvable/models/xu_ziyin/symbolic_claims.py",
        old=(
            "            if index == 0:\n"
            "                continue  # G = 0: ell = 0, alpha = 1 (N = M)"
        ),
        new=(
            "            if index <= 1:\n"
            "                continue  # G = 0: ell = 0, alpha = 1 (N = M)"
        ),
        why=(
            "xu_ziyin.stable_alpha skips piece 1 of the evaluated ell (the manifold N = 0) along "
            "with piece 0: '42 residuals simplify to 0' -> '39 residuals'; with that piece made "
            "wrong (symbolic().stable['ell'] patched, its expression doubled) the claim failed "
            "before ('non-zero residual: 2*D_*M_*(1 - exp(4*D_*t))/...') and is proved with the "
            "mutant."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.xu_ziyin_stable_limits_ignores_infinite_limits",
        seed="001",
        backend="sympy",
        file="solvable/models/xu_ziyin/symbolic_claims.py",
        old='status = "proved" if verdict.status == decided.status == "proved" else "failed"',
        new='status = "proved" if verdict.status == "proved" else "failed"',
        why=(
            "xu_ziyin.stable_limits decides its status from the residuals alone, not the infinite"
            " limits (decide): with decide patched to fail (symbolic_claims.decide returning a "
            "failed verdict) the claim was 'failed', and is 'proved' with the mutant, its detail "
            "still saying 'infinite limits: fails in ['N = 0, D > 0: alpha -> 0']'."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.xu_ziyin_erratum_41_positive_x",
        seed="001",
        backend="sympy",
        file="solvable/models/xu_ziyin/paper_errata.py",
        old="    x = -2\n",
        new="    x = 2\n",
        why=(
            "The erratum of (41) evaluates the printed coefficient at x = 2 instead of x = -2, "
            "where x = rho and the printed form is right: residuals (-4*sqrt(17) - 4, 0), check()"
            " True -> (0, 0), check() False (the erratum no longer shows the printed (41) false)."
        ),
        tests=XU_ZIYIN_TESTS,
        claims="xu_ziyin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_wide_preconditioner_single_skips_balanced",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/numeric_checks.py",
        old="if a == 0 or not any(w) or (delta < 0 and len(w) > 1):",
        new="if a == 0 or not any(w) or (delta <= 0 and len(w) > 1):",
        why=(
            "kunin.wide_preconditioner_single skips delta = 0 at d = 2 (delta <= 0 for delta < "
            "0), the balanced cases Theorem 4.2 covers: '18 (case, d) pairs ... worst 0.042 "
            "tolerances (balanced (d=2) at dps=None)' -> '16 (case, d) pairs ... worst 0.038 "
            "tolerances (negative_a (d=2) at dps=None)'; max_error 0.041666666666666664 -> "
            "0.038109756097560975."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_wide_single_neuron_skips_balanced",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/numeric_checks.py",
        old="if (delta < 0 and len(w) > 1) or",
        new="if (delta <= 0 and len(w) > 1) or",
        why=(
            "kunin.wide_single_neuron skips delta = 0 at d = 2: '18 (case, d) pairs x 6 times ..."
            " worst 0.075 tolerances (balanced (d=2) at t=1e4, dps=None)' -> '16 (case, d) pairs "
            "... worst 0.068 tolerances (parallel (d=1) at t=3, dps=None)'; max_error "
            "0.07455663082191101 -> 0.06843472936831016."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_wide_single_neuron_float64_only",
        seed="003",
        backend="mpmath",
        file="solvable/models/kunin/numeric_checks.py",
        old="for prec in (None, dps):",
        new="for prec in (None,):",
        why=(
            "kunin.wide_single_neuron compares float64 only, its detail still saying 'float64, "
            "dps 30' and its verdict unchanged (confirmed, 0.07455663082191101); with "
            "wide_closed_form's beta at dps=30 made wrong by 1e-20 relative "
            "(numeric_checks.wide_closed_form patched) the claim failed before (4.4e11 "
            "tolerances, 'balanced (d=2) at t=30, dps=30') and is confirmed (0.075) with the "
            "mutant."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_sample_max_t_or",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old="ok = (tf <= _F64_MAX_T) & (",
        new="ok = (tf <= _F64_MAX_T) | (",
        why=(
            "The vectorised float64-safe test of Trajectory.sample takes t > 1e100 in float64 "
            "whenever the exponent test passes (| for &): Setup(1, 1, I_2, [0, 0]), a0 = 5, w0 = "
            "[3, 4] (delta = 0, Omega = 0, phi ~ t): sample([1e50, 1e150, 1e300, 1.7e308]).a was "
            "[7.07e-26, 7.07e-76, 7.07e-151, 5.42326145e-155] (dps=30: 5.423261445466404e-155 at "
            "1.7e308), is 0.0 at t = 1.7e308 (phi overflows in float64)."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_exact_cperp_needs_every_component",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/single_neuron.py",
        old="if proj is not None and Y != 0 and any(proj.Xty):",
        new="if proj is not None and Y != 0 and all(proj.Xty):",
        why=(
            "The exact |w_perp| of a start on the line of beta* is taken only when every "
            "component of X^T y is non-zero (all for any): Setup(1, 1, I_3, ['0.6', '0.7', '0']),"
            " a0 = '0.5', w0 = ['0.3', '0.35', '0']: the float64 loss at t = 60 was "
            "2.9170558373175086e-96 (dps=40: 2.917055837317412e-96), is 5.337350605827433e-82 "
            "(the rounding of w - w_par bhat decays as E^2); at t = 30 3.3330935792206756e-48 -> "
            "3.333093580978026e-48."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_default_rtol_needs_all_floats",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/isotropic_data.py",
        old="floats = any(isinstance(v, float) for v in values)",
        new="floats = all(isinstance(v, float) for v in values)",
        why=(
            "The default isotropy_rtol allows float64 whitening (4 n eps) only when every entry "
            "of X is a float (all for any): the Q of numpy's QR of a 200 x 3 standard normal "
            "(seed 0), each entry times (1 + 2e-14 N(0, 1)), plus a row of int zeros (X^T X "
            "unchanged; defect 1.14e-14 s, below 4 n eps = 1.8e-13): closed_form was accepted "
            "(a(1) = -0.2195262347195898), raises 'X must have isotropic columns ... (allowed: "
            "isotropy_rtol = 2.2e-15 ...)'."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_loss_in_frame_full_from_three_rows",
        seed="003",
        backend="sympy",
        file="solvable/models/kunin/proofs.py",
        old="if n > 1:  # two generic columns of one row are always parallel",
        new="if n > 2:  # two generic columns of one row are always parallel",
        why=(
            "kunin.loss_in_frame checks the generic (full) frame only for n = 3 rows, not n = 2 "
            "(n > 2 for n > 1): '11 residuals simplify to 0' -> '10 residuals simplify to 0'."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_wide_converged_r_overflow_test",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide_sample.py",
        old="big = ~np.isfinite(2 * rates * t)",
        new="big = ~np.isfinite(rates * t)",
        why=(
            "_converged_r tests rates t instead of 2 rates t for the overflow of the exponent: "
            "WideSetup(1, 1, I_2, [[1, 0.2], [0.5, -0.3]]), (A0, W0) = wide_start(S, 0.1, A=[[1, "
            "-0.2], [0.1, 0.8]]): at(1e308) returned beta = [1, 0.2, 0.5, -0.3], loss 0.0 (as at "
            "1.7e308 and inf); with the mutant at(1e308) raises numpy LinAlgError 'Singular "
            "matrix'."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.kunin_wide_stable_form_positive_c_plus_only",
        seed="003",
        backend="sympy",
        file="solvable/models/kunin/wide_proofs.py",
        old="    for sign in (1, -1):\n",
        new="    for sign in (1,):\n",
        why=(
            "kunin.wide_stable_form checks the h = 1 form sign(p) core^{-1/2} [1, M] for p > 0 "
            "only: '27 residuals simplify to 0' -> '25 residuals simplify to 0' (the branch c_+ <"
            " 0, k['sign'] = -1 of wide.py, unchecked)."
        ),
        tests=KUNIN_TESTS,
        claims="kunin.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.lns_evaluators_limit_f_float64_compares_mpmath",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/checks.py",
        old='"limit f float64": error_in_units(f_res.f, ex[sp.oo]["f"][0], tol_f),',
        new='"limit f float64": error_in_units(mp_res.f, ex[sp.oo]["f"][0], tol_f),',
        why=(
            "linear_node_scaling.evaluators_mpmath's 'limit f float64' compares the mpmath result"
            " (mp_res.f) with the float64 tolerance, so the float64 evaluator of (20) is no "
            "longer checked: detail 'limit f float64 0.00055' -> 'limit f float64 1.8e-19' "
            "(verdict unchanged, max_error 0.000884331272273603)."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.lns_evaluators_trajectory_mpmath_float_tolerance",
        seed="000",
        backend="mpmath",
        file="solvable/models/linear_node_scaling/checks.py",
        old='errs[f"W(t={t}) {label}"] = error_in_units(traj.W[k], ex[t]["W_t"], tol)',
        new='errs[f"W(t={t}) {label}"] = error_in_units(traj.W[k], ex[t]["W_t"], tol_f)',
        why=(
            "linear_node_scaling.evaluators_mpmath measures the mpmath trajectory in the float64 "
            "tolerance (1e-12), so it can no longer fail below that: 'W(t=0) mpmath 8.2e-06, "
            "W(t=1/2) mpmath 2.5e-05, W(t=3) mpmath 5.2e-05, W(t=oo) mpmath 1.7e-05' -> '8.2e-21,"
            " 2.5e-20, 5.2e-20, 1.7e-20' (verdict and max_error unchanged)."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.lns_sample_nan_time_through_fast_check",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/float64_sample.py",
        old='and times.dtype.kind in "fiu" and np.all(times >= 0)):',
        new='and times.dtype.kind in "fiu" and not np.any(times < 0)):',
        why=(
            "The fast validation of float64 sample's time array lets NaN through (not any(t < 0) "
            "for all(t >= 0)): closed_form(Setup(X 3x4, y, [0.5, 0.25], 'linear', 0.5), [1, -1], "
            "0.3 ones((2, 4))).sample(np.array([1.0, nan])) raised 'times[1] must be finite and "
            ">= 0, got nan', raises the misleading 'W(t) exceeds the float64 range ... rescale "
            "the data' (a list is still refused as before)."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.lns_step_bound_degree_of_D",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/trajectory.py",
        old='+ deg_D * exp["X"]) * log2))',
        new='+ exp["X"]) * log2))',
        why=(
            "The reported step_bound rescales by 2^(e_X) instead of 2^(2 e_X) (the degree of D in"
            " d/(D_max^2 S) dropped): X of the 3 x 4 example (max 0.8, e_X = 0) unchanged "
            "(4.5445), X times 8: step_bound 0.07100735387201727 -> 0.5680588309761381 "
            "(gd_step_bounds: 0.07100735387201726)."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.lns_beta0_lam_exponent_not_halved",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/trajectory.py",
        old='beta0_full = np.ldexp(beta0, exp["W0"] + exp["lam"] // 2 + exp["a"])',
        new='beta0_full = np.ldexp(beta0, exp["W0"] + exp["lam"] + exp["a"])',
        why=(
            "The reported beta0 rescales by 2^(e_lam) instead of 2^(e_lam / 2) (sqrt(lambda)): "
            "lam = [0.5, 0.25] unchanged; lam = [3, 1]: beta0 [-1.134, -1.432, -0.567, 0.873] (= "
            "sum_j sqrt(lam_j) a_j w_0j) -> [-2.268, -2.864, -1.134, 1.746]; lam = [40, 9]: 8 "
            "times too large."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.lns_fusable_counts_zero_nodes",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/float64_sample.py",
        old="u_min = float(np.min(u[u > 0], initial=math.inf))",
        new="u_min = float(np.min(u, initial=math.inf))",
        why=(
            "_fusable takes u_min over every node, a node with lambda_j = 0 included (u_min = 0),"
            " so _assemble_W never adds the c's first: lam = [0.5, 0.0, 0.25], a = [1, -1, 1], 6 "
            "times: fused times 6 -> 1 (t = 0 only), W changes in its last bits (md5 of s.W "
            "ccc86633... -> 91c6d818...), the slower two-part path everywhere."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="closed_form_claims_and_fast_paths.lns_pruned_mass_r_equals_one",
        seed="000",
        backend="sympy",
        file="solvable/models/linear_node_scaling/moments.py",
        old="S_r = weights.partial_sum(r) if r >= 1 else sp.S.Zero",
        new="S_r = weights.partial_sum(r) if r > 1 else sp.S.Zero",
        why=(
            "pruned_mass takes S_r = 0 for r = 1 (r > 1 for r >= 1): pruned_mass(2, 1/2, 1/2, "
            "zipf(1/2)) 7/20 -> 3/4 (pruned_mass_numeric: 0.35), m = 3: 137/294 -> 5/6 (m = 4, r "
            "= 2 unchanged); linear_node_scaling.pruned_mass_limit proved -> failed ('non-zero "
            "residual: 4/5 - 4*gamma/5')."
        ),
        tests=LNS_TESTS,
        claims="linear_node_scaling.*",
    ),
]
