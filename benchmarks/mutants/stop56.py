"""Mutants of the code added at stop 56: seed 004's whole plane
(``solvable/verification/confirmations/_three_layer_plane.py``: the sides of the critical
lines, the regime units and their band, Figure 5(b)'s crossings, Figure 8's zeta map),
Theorem 5.1(d)'s derivation and step-2 judge (``solvable/models/global_convergence/
ntg_change.py``, ``solvable/verification/confirmations/_global_convergence_theorem_5_1_d.py``),
the errata command (``solvable/verification/cli.py`` ``_errata``), Section 8.2's runs
(``numerics/node_scaling_experiment/section_8_2.py``: ``_train``, ``_transfer``) and the
teacher task's argument check (``numerics/teacher_task.py`` ``_checked``).

Written by an outside reviewer (a helper session, stop 56) who read the code but not the
tests; the test hints (``tests``) are guesses from the modules' names only.  Each mutant is
one replacement at one place, the kind of slip a developer makes (a margin made strict, an
offset of 1 for 2, a parenthesis lost, the wrong layer read, one standard error for two, a
factor 2 dropped, ``d`` for ``d^2``, ``|`` for ``&``, swapped arguments, the start read for
the end, the bottom k for the top k, the run seed for the data seed).  ``why`` is what the
reviewer expects from reading the code; under a 15-minute deadline the mutants were not
probed (only checked: ``old`` occurs once, the mutated file compiles).

The three_layer ``_units`` mutant sits in ``_three_layer_plane.regime_units``: ``_units``
is now a one-line delegate to it, so its band and NaN handling live there.
Format: see ``benchmarks/mutation.py``."""

_TP = "solvable/verification/confirmations/_three_layer_plane.py"
_NC = "solvable/models/global_convergence/ntg_change.py"
_TD = "solvable/verification/confirmations/_global_convergence_theorem_5_1_d.py"
_CLI = "solvable/verification/cli.py"
_N82 = "numerics/node_scaling_experiment/section_8_2.py"
_TT = "numerics/teacher_task.py"
# the test hints (guessed from module names; the reviewer did not open them)
_T_TP = ["tests/test_three_layer_plane.py", "tests/test_phase_diagram.py"]
_T_UN = ["tests/test_three_layer_plane.py", "tests/test_three_layer.py"]
_T_TD = ["tests/test_theorem_5_1_d.py"]
_T_CLI = ["tests/test_core_and_cli_details.py"]
_T82 = ["tests/test_section_8_2_digits.py", "tests/test_section_8_2_1.py"]
_TTT = ["tests/test_teacher_task.py"]
_C_PLANE = "three_layer.figure_1_plane"
_C_5B = "three_layer.figure_5b_crossings"
_C_8 = "three_layer.figure_8_zeta_map"
_C_STEP2 = "global_convergence.theorem_5_1_d_step_2"
_C_DERIV = "global_convergence.ntg_bound_from_weight_bound"
_C82 = "global_convergence.section_8_2_digits"
_CTEACH = ["phases.figure_3_teacher", "phases.figure_2_teacher"]

MUTANTS = [
    # ------------------------------------------------------------ _three_layer_plane.py
    dict(
        name="stop56.side_margin_strict",
        seed="004",
        backend="numpy",
        file=_TP,
        old='return "condensed" if d >= m and d > 0 else',
        new='return "condensed" if d > m and d > 0 else',
        why=(
            "a point exactly MARGIN above a line is no longer condensed but unjudged: "
            "side('W1', 0, 2) is None (unmutated 'condensed'), so on the default grid the "
            "region W1 condensed / W2 linear loses its only point ((0, 2)) and Figure 1 "
            "fails with a missing region; Figure 7 loses right-side points at the margin"
        ),
        tests=_T_TP,
        claims=[_C_PLANE, "three_layer.figure_7_w1_condensation"],
    ),
    dict(
        name="stop56.linear_units_offset",
        seed="004",
        backend="numpy",
        file=_TP,
        old="return max(0.0, 2 + S / B)",
        new="return max(0.0, 1 + S / B)",
        why=(
            "'linear' units become max(0, 1 + S/B): <= 1 for every S <= 0, so a critical "
            "slope (S = -0.05, band 0.1) reads as linear (units 0.5; unmutated 1.5) and the "
            "documented 'units <= 1 iff S <= -B' no longer holds"
        ),
        tests=_T_UN,
        claims=[_C_PLANE],
    ),
    dict(
        name="stop56.band_one_err",
        seed="004",
        backend="numpy",
        file=_TP,
        old="B = max(band, 2 * err) if math.isfinite(err) else band",
        new="B = max(band, err) if math.isfinite(err) else band",
        why=(
            "(three_layer._units' band, which it delegates here) the band uses one standard "
            "error, not two: with err = 0.1 and S = 0.15, 'critical' reads 1.5 units "
            "(unmutated 0.75), so noisy points read linear/condensed too early"
        ),
        tests=_T_UN,
        claims=[_C_PLANE, "three_layer.*"],
    ),
    dict(
        name="stop56.crossing_line_paren",
        seed="004",
        backend="numpy",
        file=_TP,
        old="want = (g3 - c) / k if k else None",
        new="want = g3 - c / k if k else None",
        why=(
            "the W1 line's gamma_2 at gamma_3 is taken as g3 - 3/4 instead of (g3 - 3/2)/2: "
            "at gamma_3 = 2 the expected crossing moves from 1/4 to 5/4 (outside the grid: "
            "'0 crossings expected', so a measured crossing is inf units) and at 3 from 3/4 "
            "to 9/4"
        ),
        tests=_T_TP,
        claims=[_C_5B],
    ),
    dict(
        name="stop56.zeta_map_reads_w1",
        seed="004",
        backend="numpy",
        file=_TP,
        old='if r[1] == "condensed":',
        new='if r[0] == "condensed":',
        why=(
            "Figure 8 sorts points by W1's regime instead of W2's: a point with W1 condensed "
            "/ W2 linear is held to zeta(W2) doubling, one with W1 linear / W2 condensed is "
            "dropped (neither group); a hand-made map with only W2-condensed points fails "
            "'needs W2-condensed points'"
        ),
        tests=_T_TP,
        claims=[_C_8],
    ),
    # ------------------------------------------------------------ Theorem 5.1(d)
    dict(
        name="stop56.lipschitz_factor_one_e",
        seed="000",
        backend="sympy",
        file=_NC,
        old="return e**2 + 2 * e",
        new="return e**2 + e",
        why=(
            "step 1 drops the factor 2 of the cross terms b_i (a_k - b_k) + (a_i - b_i) b_k: "
            "lipschitz_factor(e) = e^2 + e, per_node halves its linear term, so the step-2 "
            "bound is too small (the one-node case, where the step is nearly attained, "
            "exceeds it: ratio > 1) while given_radius (typed separately) disagrees with "
            "summing per_node"
        ),
        tests=_T_TD,
        claims=[_C_STEP2, _C_DERIV],
    ),
    dict(
        name="stop56.given_radius_d_not_d2",
        seed="000",
        backend="sympy",
        file=_NC,
        old="RADIUS**2 / D**2 * SUM_SQ",
        new="RADIUS**2 / D * SUM_SQ",
        why=(
            "step 3's first term n M^2 R^2 S_2/d^2 loses a factor 1/d (the 1/d of e_j^2 "
            "forgotten): given_radius is no longer sum_j per_node at Delta_j = sqrt(lambda_j) "
            "R, and derived's first term is d times the printed 2^7 term"
        ),
        tests=_T_TD,
        claims=[_C_DERIV],
    ),
    dict(
        name="stop56.ratios_zero_bound_or",
        seed="000",
        backend="numpy",
        file=_TD,
        old="return np.where((bound == 0) & (change == 0), 0.0, r)",
        new="return np.where((bound == 0) | (change == 0), 0.0, r)",
        why=(
            "x/0 for x > 0 reads 0 (a pass) instead of inf: "
            "judge_ntg_change_given_moves([1.0], [0.0]) is confirmed with max_error 0 "
            "(unmutated inf, failed)"
        ),
        tests=_T_TD,
        claims=[_C_STEP2],
    ),
    # ------------------------------------------------------------ cli errata
    dict(
        name="stop56.errata_judge_swapped",
        seed="core",
        backend="sympy",
        file=_CLI,
        old="ok = e.judge(printed, corrected)",
        new="ok = e.judge(corrected, printed)",
        why=(
            "the printed and corrected residuals are swapped: the corrected residual 0 is "
            "never 'non-zero to 50 digits', so every erratum prints FAILS, '0 checks pass' "
            "and the command exits 1 (unmutated: all pass, exit 0)"
        ),
        tests=_T_CLI,
        claims=[],
    ),
    # ------------------------------------------------------------ Section 8.2, teacher
    dict(
        name="stop56.s82_end_is_start",
        seed="000",
        backend="torch",
        file=_N82,
        old='return model, res, {k: res.params[k][-1] for k in ("W", "a", "s")}',
        new='return model, res, {k: res.params[k][0] for k in ("W", "a", "s")}',
        why=(
            "_train's 'end' parameters are the initial ones (params kept at [0, steps]): "
            "pruning importances lambda_j ||w_j||^2 and the transfer features are read from "
            "the untrained nets, so the test risks at keep 1.0 are the start's and the "
            "ordering by gamma is lost"
        ),
        tests=_T82,
        claims=[_C82],
    ),
    dict(
        name="stop56.s82_transfer_bottom_k",
        seed="000",
        backend="torch",
        file=_N82,
        old="top = order[:, :k]",
        new="top = order[:, -k:]",
        why=(
            "the transfer readout uses the k least important features instead of the k "
            "first in order: the transfer risks rise (for k < m) and their ordering across "
            "gamma changes; k = m is unchanged"
        ),
        tests=_T82,
        claims=[_C82],
    ),
    dict(
        name="stop56.teacher_data_run_seed",
        seed="001",
        backend="torch",
        file=_TT,
        old="n_test=n_test, seed=data_seed)",
        new="n_test=n_test, seed=seed)",
        why=(
            "the teacher's data are drawn with the run seed instead of data_seed: changing "
            "data_seed no longer changes the data, changing seed changes both the nets and "
            "the data (a run at seed=0, data_seed=1 reproduces data_seed=0's data)"
        ),
        tests=_TTT,
        claims=_CTEACH,
    ),
]
