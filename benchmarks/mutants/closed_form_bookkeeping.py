"""Mutants of the bookkeeping around the closed forms of seeds 003 (``kunin``), 001
(``xu_ziyin``) and 000 (``linear_node_scaling``): not the headline formulas, but the code
around them: size and work caps (the symbolic-entry count of ``piecewise_linear_flow``,
``n (d + 1)^2`` for the exact least loss), validation of times and arguments at their
boundaries (``-inf`` taken for the limit, ``rtol < 1``, ``h <= d``, ``rank <= min(n, d)``,
``P, Q >= 0``, a positive ``sum lam``, ``lam_T <= total`` to rounding), tolerances derived
from scales (``tiny = rtol * scale`` of ``wide_closed_form``, the rank rule ``max(n, d) eps
D_max``), the float64-range tests and fallbacks (zero rates at a time beyond the float64
range, the zero exemption of ``SAFE_INPUT``, the boost of modes below ``2^-960``), block
loops (Lagrange's identity in blocks of 512 rows), index sums (the pruned nodes
``r + 1..m``), reported diagnostics (``WideTrajectory.condition``) and numbers in error
messages (the time of an overflowing state, the entries of ``States.empty``).

Written by an outside reviewer (a helper session) who read the code but not the tests;
``why`` is the wrong behaviour the reviewer observed with the mutant applied to a copy of
the repository (a git worktree of ``HEAD``), each in a fresh interpreter
(``PYTHONDONTWRITEBYTECODE=1``, ``PYTHONPATH`` the copy, ``solvable.__file__`` checked), the
same snippet run on the unmutated copy first ("before").  Of the 22 written, 20 are kept;
2 were dropped as equivalent (the same bytes out, checked by an md5 of every output array):

* ``kunin`` ``fill_in_halves(chunks, T, chunk, ...)`` with ``step`` for ``chunk`` (the cut
  between the two threads a multiple of W's block, not of the coefficient chunk): every
  chunk is evaluated elementwise, so the cut moves no value (1.5e6 times, two threads);
* ``linear_node_scaling`` ``_mode_factors`` without ``(tt > 0)`` in the boost: at ``t = 0``
  the boosted ``g`` is ``0 * 2^boost = 0`` and the y-part's rescaling of 0 is 0 (rates
  ~1e-300, times 0, 1e-10, 1, 1e300, inf).

The test hints were filled in by the maintainer.  First run against the suite as it stood
(``python benchmarks/mutation.py --only 'closed_form_bookkeeping.*' --no-fallback``, hinted
test files only): 7 killed by an assertion, 4 only by a crash (a valid input refused), 9
survived.  Each of the 13 is now killed by an assertion, by the tests of
``tests/test_closed_form_bookkeeping.py`` (one per mutant, named in its docstring; a refusal
of a valid input is a failed check there) and, for the Lagrange blocks, ``d = 513`` in
``tests/test_branches.py``: 20 of 20 killed by an assertion.  The reviewer also reported an
accuracy defect of the unmutated code, since fixed: the single neuron's loss near the
minimum from a start on the line of beta* (``tests/test_kunin_loss_near_minimum.py``).
Format: see ``benchmarks/mutation.py``."""

MUTANTS = [
    # ------------------------------------------------------------------ kunin (seed 003)
    dict(
        name="closed_form_bookkeeping.kunin_minus_inf_is_the_limit",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/times.py",
        old="return bool(v == math.inf)",
        new="return bool(abs(v) == math.inf)",
        why=(
            "-inf is taken for the limit t = +inf instead of refused: for Setup(1, 1, I_2, "
            "[1, 0.5]), a0 = 0.3, w0 = [0.2, -0.1], closed_form(...).sample([1.0, -inf]) "
            "returned t = [1, inf] and a = [0.592, 1.067] (the limit) and "
            "sample(np.array([-inf])) returned t = [-inf] with the limit's a = 1.067; before, "
            "ValueError 'times: t[1] must be finite, got -inf' (and t[0] for the array)."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_kunin_edges.py",
            "tests/test_closed_form_edges.py",
            "tests/test_bad_input.py",
            "tests/test_boundaries.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.kunin_wide_start_h_equal_refused",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="if other < h:",
        new="if other <= h:",
        why=(
            "wide_start refuses h equal to the other layer's width, the boundary the message "
            "itself allows: WideSetup(1, 1, [[1.0], [0.0]], [[1.0], [0.5]]) (d = c = 1), "
            "wide_start(S, 0.5, A=[[2.0]]) raised 'A has h = 1 rows but the other layer has "
            "only 1 columns: need h <= 1'; before it returned ([[2.]], [[1.8708]])."
        ),
        tests=["tests/test_closed_form_bookkeeping.py", "tests/test_kunin_wide.py"],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.kunin_wide_zero_rate_counted",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old='rates = [abs(float(r)) for r in k["rates"] if r != 0]',
        new='rates = [abs(float(r)) for r in k["rates"]]',
        why=(
            "a time beyond the float64 range of the normalised time is refused instead of "
            "being the limit whenever a mode has rate 0 (delta = 0 with c != d): "
            "WideSetup(1, 1, 100 I_2, [[100], [50]]) (s = 1e4, t_scale 4096), A0 = [[5]], "
            "W0 = [[3, 4]] (delta = 0 exactly, rates [1.1e4, -1.1e4, 0]): at(1e306) raised "
            "ValueError 't = 1e+306 is beyond the float64 range of this setup's normalised "
            "time (t * 4.1e+03); pass dps=...'; before it returned the limit, beta = [1, 0.5], "
            "loss 0."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_kunin_wide.py",
            "tests/test_kunin_edges.py",
            "tests/test_closed_form_edges.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.kunin_wide_balance_tiny_unscaled",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="tiny = brtol * scale",
        new="tiny = brtol",
        why=(
            "the 'delta = 0 to the balance tolerance' test forgets the size of Delta's terms, "
            "so a start balanced to rounding is classified by the sign of its residue: "
            "WideSetup(1, 1, I_2, [[1], [0.5]]) (c = 1, d = 2), A0 = [['10000']], W0 = "
            "[['10000', '0.00001']] (delta = -1e-10 against terms of 2e8, allowed 4.4e-7): "
            "ValueError 'wide_closed_form covers Theorem 4.2's setting ... got h = 1, c = 1, "
            "d = 2, delta = -1.0e-10'; before it was accepted as delta = 0 (h = c) with "
            "beta(inf) = [1, 0.5]."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_kunin_wide.py",
            "tests/test_kunin_edges.py",
            "tests/test_closed_form_edges.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.kunin_isotropy_rtol_one_accepted",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/isotropic_data.py",
        old="if not rtol < 1:",
        new="if not rtol <= 1:",
        why=(
            "isotropy_rtol = 1, outside the documented [0, 1) (it accepts data whose "
            "defect is as large as s itself), is accepted: closed_form(Setup(1, 1, I_2, "
            "[1, 0.5]), 0.3, [0.2, -0.1], isotropy_rtol=1) returned a trajectory; before, "
            "ValueError 'isotropy_rtol must be in [0, 1), got 1' (0.5 accepted by both)."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_kunin_edges.py",
            "tests/test_closed_form_scale_models.py",
            "tests/test_kunin_loss_near_minimum.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.kunin_exact_loss_work_squared",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/minimum.py",
        old="setup.n * (setup.d + 1) ** 2 <= _EXACT_LOSS_WORK",
        new="(setup.n * (setup.d + 1)) ** 2 <= _EXACT_LOSS_WORK",
        why=(
            "the work count of the exact least loss is squared, so float64 data of n = 200, "
            "d = 2 (1800 multiply-adds, far below 2^18) no longer gets it and the loss near "
            "the minimum is the residual's rounding noise: X = [1, +-1] columns (X^T X = "
            "200 I), y = X [0.5, -0.25] (least loss 0), a0 = 0.3, w0 = [0.2, -0.1]: "
            "sample([0.2, 0.5]).loss = [3.99e-31, 3.99e-31]; before [2.156e-36, 2.15e-81] "
            "(dps = 30 gives 2.15645e-36 at t = 0.2)."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_kunin_edges.py",
            "tests/test_kunin_loss_near_minimum.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.kunin_piecewise_cap_without_slopes",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/flows.py",
        old="lambda n, d, h: (n + h) * (d + 1) + h * n,",
        new="lambda n, d, h: (n + h) * (d + 1),",
        why=(
            "the symbolic-entry count of piecewise_linear_flow forgets the h n slopes, so "
            "sizes over MAX_SYMBOLIC_ENTRIES are not refused: piecewise_linear_flow(100, "
            "100, 500) (110600 entries) started the sympy derivation (no answer within 8 s; "
            "with region='yes' it got as far as TypeError 'region must be True or False'); "
            "before, ValueError '... has 1.11e+05 symbolic entries (data and weights), more "
            "than MAX_SYMBOLIC_ENTRIES = 100000: sympy would take hours' at once."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_caps_divergence_and_full_runs.py",
            "tests/test_flow_derivation.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.kunin_wide_condition_largest_singular_value",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="/ float(min(sv))",
        new="/ float(max(sv))",
        why=(
            "WideTrajectory.condition (documented |Q0|_F / sigma_min(C_+), the amplification "
            "of the start's rounding) divides by the largest singular value (and the "
            "direct-form time range that uses it shrinks): WideSetup(1, 1, I_2, [[1, 0.2], "
            "[0.5, -1]]) with wide_start(S, 1, A=[[2, 0.1], [0.3, 1.5]]) (h = c = d = 2): "
            "condition 1.2038; before 4.9497 (beta(0.3) the same to print precision)."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_kunin_wide.py",
            "tests/test_kunin_loss_near_minimum.py",
        ],
        claims="",
    ),
    # ------------------------------------------------------------------ xu_ziyin (seed 001)
    dict(
        name="closed_form_bookkeeping.xu_ziyin_lagrange_last_block_dropped",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/_arithmetic.py",
        old="for start in range(0, len(p), block):",
        new="for start in range(0, len(p) - 1, block):",
        why=(
            "the row blocks of Lagrange's identity stop one row early (as if the last row "
            "had no j > i partner; the sum runs over all j), which drops a whole block when "
            "d = 512 k + 1: d = 513 (rng(0) weights of scale 0.1, last unit u = 3, W = "
            "[-2, 1]), Setup(1, 0.5, 0.7, (1, 2), 1.5): closed_form(...).at(0.5).alignment "
            "= 0.134844 against 0.111811 measured by State.from_weights on the same u, W; "
            "before 0.11181069755683218 (measured ...211)."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_branches.py",
            "tests/test_closed_form_scale_models.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.xu_ziyin_overflow_message_flat_index_time",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/trajectory.py",
        old="t = states.t[np.unravel_index(i, np.shape(a))[0]]",
        new="t = states.t[i]",
        why=(
            "the refusal of a state beyond float64 names the wrong time (the flat index of "
            "u (T, d) read as a time index): Setup(1, 1, 1, (1, 0), '1e700'), u0 = [1, 2], "
            "W0 = [[1, 0], [0.5, 0]] (u grows to 6.2e349), sample(['0', '1e-600', "
            "'1e-500']): \"the state's u at t = 1.0e-500 is 6.24695e+349\"; before \"at t = "
            '1.0e-600" (the first time it overflows).'
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_closed_form_scale.py",
            "tests/test_xu_ziyin_edges.py",
            "tests/test_xu_ziyin_float64.py",
            "tests/test_closed_form_edges.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.xu_ziyin_empty_message_count",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/trajectory.py",
        old="{n_times * d * d0:.3g} entries of W)",
        new="{n_times * d:.3g} entries of W)",
        why=(
            "the refusal of States.empty quotes a wrong number of W's entries: "
            "States.empty(10**9, 10**6, 10**6) says '(n_times d d0 = 1e+15 entries of W)'; "
            "before '1e+21'."
        ),
        tests=["tests/test_closed_form_bookkeeping.py", "tests/test_closed_form_scale.py"],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.xu_ziyin_manifold_condition_either_zero",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/system.py",
        old="if P + Q == 0:",
        new="if P * Q == 0:",
        why=(
            "the early return for the saddle P = Q = 0 also catches the invariant manifolds "
            "P = 0 or Q = 0, where the amplification is largest: manifold_condition(0, 1, "
            "100) = 1.0 and manifold_condition(1, 0, 1e-3) = 1.0; before 100.0 and 1000.0 "
            "(documented: alpha for P = 0).  (0, 0, 5) -> 1 and (1, 2, 3) -> 1.5667 in both."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_crossings_taylor_powers_and_manifold_constants.py",
            "tests/test_xu_ziyin_float64.py",
            "tests/test_numerics.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.xu_ziyin_safe_range_zero_not_exempt",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/trajectory.py",
        old="if np.any((floats != 0) & ((floats < lo) | (floats > hi))):",
        new="if np.any((floats < lo) | (floats > hi)):",
        why=(
            "a float input equal to 0.0 counts as outside [1/SAFE_INPUT, SAFE_INPUT], so "
            "every float64 closed form with a zero float weight (or y = 0.0) takes the "
            "mpmath fallback: Setup(1.0, 0.5, 0.7, (1.0, 2.0), 1.5), u0 = [0.3, -0.2], W0 = "
            "[[0.1, 0.0], [0.4, -0.3]]: _data['work_dps'] is 17 (not None) and "
            "sample(20000 times) took 8.9 s; before 0.010 s (f[1000] the same float)."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_closed_form_edges.py",
            "tests/test_xu_ziyin_edges.py",
            "tests/test_xu_ziyin_float64.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.xu_ziyin_constants_P_Q_positive",
        seed="001",
        backend="numpy",
        file="solvable/models/xu_ziyin/trajectory.py",
        old='checked += [nb.check_number(k, v, nonnegative=True) for k, v in (("P", P), ("Q", Q))]',
        new='checked += [nb.check_number(k, v, positive=True) for k, v in (("P", P), ("Q", Q))]',
        why=(
            "constants() refuses the documented P = 0 (Proposition 1) and Q = 0: "
            "constants(1, 0.5, 0.7, 2.2, 1.5, 3, 0, 1) raised 'P must be > 0, got 0' and "
            "(..., 1, 0) 'Q must be > 0, got 0'; before {'alpha_plus': inf, 'alpha_minus': "
            "4.3558, 't_c': 0.6122, 'alpha_prime': 0.2296} and {'alpha_plus': 0.2296, "
            "'alpha_minus': 0.0, ...}."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_closed_form_edges.py",
            "tests/test_crossings_taylor_powers_and_manifold_constants.py",
            "tests/test_xu_ziyin_cases.py",
        ],
        claims="",
    ),
    # ------------------------------------------------------- linear_node_scaling (seed 000)
    dict(
        name="closed_form_bookkeeping.linear_node_scaling_full_rank_refused",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/svd.py",
        old="if not 1 <= rank <= min(n, d):",
        new="if not 1 <= rank < min(n, d):",
        why=(
            "an explicit full rank is refused: reduced_svd(X, rank=2) for X = [[1, 2], "
            "[0.5, -1], [3, 0]] (n = 3, d = 2) raised 'rank must be in 1..min(n, d) = 2, got "
            "2'; before D = [3.2632, 2.1451] (rank=1 works in both)."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_linear_node_scaling.py",
            "tests/test_linear_node_scaling_edges.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.linear_node_scaling_rank_rule_min_dimension",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/svd.py",
        old="k = int(sum(float(v) > max(n, d) * np.finfo(float).eps * top for v in D))",
        new="k = int(sum(float(v) > min(n, d) * np.finfo(float).eps * top for v in D))",
        why=(
            "the rank threshold (numpy's matrix_rank rule, max(n, d) eps D_max) uses the "
            "smaller dimension, so a singular value at rounding level is kept: X = U diag(1, "
            "5e-15) R (n = 100, d = 2, rng(1)): reduced_svd(X).rank = 2 (np.linalg."
            "matrix_rank 1); before 1."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_linear_node_scaling.py",
            "tests/test_linear_node_scaling_edges.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.linear_node_scaling_zero_lam_sum_accepted",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/svd.py",
        old="if np.any(arr.sum(-1) <= 0):",
        new="if np.any(arr.sum(-1) < 0):",
        why=(
            "lam = 0 everywhere (sum 0) passes the check: limit(X, y, [0, 0], [1, -1], "
            "ones((2, 2))) returned delta_W = [[nan, nan], [nan, nan]] and gd_step_bounds(X, "
            "[0, 0]) raised 'the result is outside the float64 range ... rescale them'; "
            "before both raised 'lam must have a positive sum (sum_k lambda_k > 0)'."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_linear_node_scaling.py",
            "tests/test_linear_node_scaling_edges.py",
            "tests/test_boundaries.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.linear_node_scaling_pruned_last_node_dropped",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/moments.py",
        old="j = np.arange(r + 1, m + 1)",
        new="j = np.arange(r + 1, m)",
        why=(
            "the pruned nodes r + 1..m lose node m: pruned_mass_numeric(4, 0.5, 0.5, "
            "zipf(0.5)) = 0.164024 and (10, 0.3, ...) = 0.357640; before 0.310976 and "
            "0.410866, equal to the exact pruned_mass."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_linear_node_scaling.py",
            "tests/test_boundaries.py",
            "tests/test_mpmath_in_mpmath_out.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.linear_node_scaling_mass_bound_no_rounding_slack",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/moments.py",
        old="v > float(upper) * (1 + 1e-12)",
        new="v > float(upper)",
        why=(
            "lam_T <= total is checked without the rounding slack, so a pruned mass that "
            "is the whole mass summed in another order is refused: group_moments(0.1 + 0.2 "
            "+ 0.3 + 0.4 (= 1.0), sum of the same sorted descending (= 0.9999999999999999), "
            "[1, 0.5], I_2) raised 'lam_T must be in (0, total = 0.9999999999999999], got "
            "1.0'; before mean [1, 0.5], cov ~ -2.2e-16 I."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_linear_node_scaling.py",
            "tests/test_boundaries.py",
            "tests/test_intervals_floors_and_conditions.py",
        ],
        claims="",
    ),
    dict(
        name="closed_form_bookkeeping.linear_node_scaling_boost_at_infinity",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/trajectory.py",
        old="boost = np.where((top < -960) & (tt > 0) & np.isfinite(tt), -top, 0)",
        new="boost = np.where((top < -960) & (tt > 0), -top, 0)",
        why=(
            "t = inf gets the boost of modes below 2^-960 (meant for tiny finite x = rate "
            "t), so where every rate is tiny the limit is the start: Setup(X = [[1, 2], "
            "[0.5, -1], [3, 0]], y = [1, 0, -1], lam = (0.5, 0.5), 'linear', eta=1e-300) "
            "(rates 5.3e-300, 2.3e-300), a0 = [1, -1], W0 = [[0.1, -0.2], [0.3, 0.05]]: "
            "at(inf).W = W0; before [[-0.0653, 0.4046], [0.4653, -0.5546]], equal to "
            "limit()'s W_inf (the loss 0.2551 right in both)."
        ),
        tests=[
            "tests/test_closed_form_bookkeeping.py",
            "tests/test_linear_node_scaling.py",
            "tests/test_linear_node_scaling_edges.py",
            "tests/test_closed_form_scale_models.py",
        ],
        claims="",
    ),
]
