# ruff: noqa: E501  (node ids are data: one per line, whole)
"""Default-suite tests moved to the ``slow`` marker by their measured cost.

The default suite must run in under 10 minutes on 2 cores (CI's machine ran the last
recorded run's suite, with the notebooks still in it, in 1253 s).  These tests took the
most time in it, measured on 2 idle cores with::

    python -m pytest --durations=0 -p no:cacheprovider

(2026-12-02, commit 4aec78d: 814 s wall, 1513 CPU s in all; these 132 took 729 s).  Each
entry is ``node id: CPU seconds`` (call + setup).  They still run with ``pytest -m slow``,
and the registry's claims among them are verified by ``solvable verify`` (README command
1, run first by ``.ci/run``, which fails on a failed claim).  The claim-verification tests
of ``test_registry.py`` above 1 s are listed; elsewhere the tests above 4 s (the docs'
quick build stays: nothing else checks the pages' content in CI).

``conftest.py`` marks them (before ``-m`` deselects) and refuses an entry that no longer
names a collected test of a collected file (:func:`stale`), so the list cannot rot.
"""

from __future__ import annotations

from collections.abc import Iterable

SLOW_BY_COST: dict[str, float] = {
    "tests/test_scale_out_cli.py::test_three_layer_claims_through_the_cache": 26.3,
    "tests/test_deep_linear_spectral.py::test_float64_closed_form_equals_scipy[rates2-strengths2-widths2]": 23.3,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.limit_at_infinity]": 16.6,
    "tests/test_seed_000_paper_checks.py::test_remark_26_symbolic_claim_fails_at_a_fixed_learning_rate": 16.3,
    "tests/test_scale_out_cli.py::test_executor_local_gives_the_in_process_numbers": 15.7,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[three_layer.paper_regimes]": 14.5,
    "tests/test_verify_jobs.py::test_jobs_2_gives_the_verdicts_of_jobs_1_in_registry_order": 14.1,
    "tests/test_claims_can_fail_closed_forms.py::test_deviation_from_minimum_checks_the_limit_on_every_branch": 14.1,
    "tests/test_exercise_3_and_remark_2.py::test_remark_2_fails_with_a_kernel_without_rates": 14.0,
    "tests/test_deep_linear.py::test_general_law_is_proved_and_every_law_of_the_instance": 13.7,
    "tests/test_kunin_wide_shapes.py::test_echelon_claims_are_proved": 12.2,
    "tests/test_wide_delta_general.py::test_a_flow_with_the_rates_swapped_fails": 11.9,
    "tests/test_hangs_and_refusals.py::test_wide_closed_form_float64_is_right_or_refused_at_every_scale": 11.8,
    "tests/test_oracle.py::test_plugin_in_a_user_project": 11.6,
    "tests/test_kunin_wide.py::test_float64_matches_40_digits": 11.3,
    "tests/test_kunin_torch_evaluators.py::test_torch_coefficients_are_the_raw_flow_from_any_start": 11.3,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.wide_echelon_form]": 11.1,
    "tests/test_papers.py::test_errata_and_figures_name_papers_not_seed_files": 10.3,
    "tests/test_cli.py::test_errata_lists_every_erratum": 9.8,
    "tests/test_deep_linear_spectral.py::test_the_testing_oracle_passes_the_flow_and_gradient_descent_and_fails_a_perturbation": 9.8,
    "tests/test_kunin_wide_shapes.py::test_float64_matches_40_digits_every_shape": 9.7,
    "tests/test_registry.py::test_symbolic_claim_is_proved[deep_linear.balance_general]": 9.6,
    "tests/test_deep_linear.py::test_general_proof_fails_for_the_wrong_scaling": 9.3,
    "tests/test_kunin_wide_shapes.py::test_echelon_claims_fail_for_wrong_forms": 9.2,
    "tests/test_systems.py::test_sympy_flow_equals_autograd_of_the_torch_loss[ThreeLayerSystem]": 8.4,
    "tests/test_exercise_3_and_remark_2.py::test_remark_2a_any_depth_proved_and_fails_without_rates": 8.3,
    "tests/test_oracle_properties.py::test_failure_shows_the_message_not_the_oracle_frames": 8.2,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[deep_linear.antiderivative_high_depths]": 7.9,
    "tests/test_deep_linear_spectral.py::test_closed_form_equals_the_raw_flow_at_30_digits": 7.9,
    "tests/test_closed_form_claims_and_fast_paths.py::test_xu_ziyin_stable_alpha_checks_every_piece_of_ell_but_g_zero": 7.8,
    "tests/test_proof_cache.py::test_run_interrupted_with_workers_kills_them_and_keeps_the_finished": 7.7,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.deviation_from_minimum]": 7.6,
    "tests/test_verify_jobs.py::test_a_dead_worker_fails_its_claim_and_the_run_goes_on": 7.6,
    "tests/test_scale_out_cli.py::test_figure_through_the_cache": 7.3,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.wide_deviation_from_limit]": 7.3,
    "tests/test_mutation_sample.py::test_the_map_and_run_one_select_a_cached_lines_users_end_to_end": 7.2,
    "tests/test_deep_linear.py::test_system_agrees_across_methods_and_the_batched_torch_model": 7.2,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[piecewise_linear.self_consistent_on_flow]": 7.0,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[phases.section_3_2_digits]": 7.0,
    "tests/test_exact_kernel_distance.py::test_symbolic_claims_are_proved[_limit_distance]": 6.8,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.kernel_distance_limit]": 6.7,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[deep_linear.spectral_vs_flow]": 6.6,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kernels.fourth_cumulant]": 6.5,
    "tests/test_papers.py::test_a_reader_that_leaves_early_gets_no_traceback": 6.5,
    "tests/test_kunin_wide_aligned.py::test_float64_against_dps40": 6.5,
    "tests/test_figures.py::test_render_fast[003-fig-wide]": 6.2,
    "tests/test_deep_linear_spectral.py::test_the_proofs_can_fail": 6.1,
    "tests/test_kunin_limit_branches_and_wide_budget.py::test_limit_at_infinity_checks_the_omega_zero_branch": 6.0,
    "tests/test_fuzz_every_entry_point.py::test_good_call_succeeds[node_scaling_experiment.main]": 5.7,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.wide_shapes_oracle]": 5.7,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.stable_solution]": 5.6,
    "tests/test_exercise_3_and_remark_2.py::test_numeric_claim_confirms_and_fails_on_a_wrong_closed_form": 5.5,
    "tests/test_kunin_nonwhitened.py::test_float64_against_dps40": 5.5,
    "tests/test_exact_kernel_distance.py::test_limit_claim_can_fail": 5.2,
    "tests/test_phases_initialisation.py::test_section_3_2_against_the_closed_form": 5.1,
    "tests/test_scale_out_cli.py::test_progress_bar": 5.1,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[three_layer.figure_6_digits]": 5.0,
    "tests/test_observed_status.py::test_verify_summary_excludes_observed_claims[2]": 4.9,
    "tests/test_three_layer.py::test_power_law_scheme_coordinates": 4.9,
    "tests/test_sweeps.py::test_measured_phases_on_dask_equal_in_process": 4.8,
    "tests/test_scale_out_cli.py::test_no_cache_trains_every_time": 4.8,
    "tests/test_wide_delta_general.py::test_the_general_law_is_proved_and_tied_to_the_package": 4.7,
    "tests/test_wide_delta_general.py::test_a_flow_with_only_ws_rate_doubled_fails": 4.6,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[linearisation.exercise_3_hessian_width_scaling]": 4.6,
    "tests/test_seed_000_paper_checks.py::test_remark_26_symbolic_claim_proved": 4.5,
    "tests/test_registry.py::test_symbolic_claim_is_proved[phases.p_q_moments]": 4.5,
    "tests/test_sweeps.py::test_dask_client_and_address_match_in_process": 4.4,
    "tests/test_overall_scale.py::test_default_curve_confirms_the_axis": 4.3,
    "tests/test_registry.py::test_symbolic_claim_is_proved[node_scaling.remark_26_learning_rate_scaling]": 4.3,
    "tests/test_figures.py::test_render_fast[004-condensation]": 4.3,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.wide_Delta_general]": 4.2,
    "tests/test_scale_out_cli.py::test_extra_runs_trained_again": 4.2,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[global_convergence.section_8_2_digits]": 4.2,
    "tests/test_cli.py::test_console_script_entry_point": 4.2,
    "tests/test_simulate.py::test_engines_agree_through_simulate[near_antiparallel-50]": 4.2,
    "tests/test_wide_delta_general.py::test_a_balance_with_the_rates_swapped_fails": 4.1,
    "tests/test_kunin_wide_aligned.py::test_confirmation_at_30_digits": 4.0,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.alpha_scaling]": 3.6,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.wide_aligned_oracle]": 3.4,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[delayed_rich.plateau_sweep]": 3.3,
    "tests/test_registry.py::test_erratum_shows_printed_false_and_corrected_true[Section 3.2 (phase)]": 3.2,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.kernel_distance_oracle]": 3.2,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.wide_riccati]": 3.0,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.overall_scale]": 3.0,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.wide_closed_form_oracle]": 2.9,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[linearisation.linearisation_error_width_scaling]": 2.8,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[xu_ziyin.theorem_1_oracle]": 2.7,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[piecewise_linear.rapid_feature_learning]": 2.7,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[linearisation.exercise_2_linearisation_error]": 2.6,
    "tests/test_registry.py::test_symbolic_claim_is_proved[deep_linear.antiderivative]": 2.4,
    "tests/test_registry.py::test_symbolic_claim_is_proved[phases.output_exponent]": 2.4,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[node_scaling.theorem_7_9_first_step_simulated]": 2.3,
    "tests/test_registry.py::test_symbolic_claim_is_proved[ntg.ntg_is_jacobian_gram]": 2.3,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kernels.finite_width_positive_definite]": 2.1,
    "tests/test_registry.py::test_symbolic_claim_is_proved[three_layer.rescaling]": 2.0,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[global_convergence.section_8_2_2_digits]": 1.9,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kernels.plackett_identity]": 1.9,
    "tests/test_registry.py::test_symbolic_claim_is_proved[xu_ziyin.zeta_equal_rates]": 1.9,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[xu_ziyin.zeta_kernel_exponent]": 1.9,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[linear_node_scaling.trajectory_matches_simulation]": 1.9,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[node_scaling.theorem_7_5_mean_field_simulated]": 1.9,
    "tests/test_registry.py::test_symbolic_claim_is_proved[xu_ziyin.stable_limits]": 1.8,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[global_convergence.section_8_1_1_orderings]": 1.8,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.wide_ntk]": 1.7,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.wide_stable_form]": 1.6,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kernels.hoeffding_finite_width]": 1.5,
    "tests/test_registry.py::test_symbolic_claim_is_proved[node_scaling.limit_sum_of_squares]": 1.5,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.relu_conservation]": 1.5,
    "tests/test_registry.py::test_erratum_shows_printed_false_and_corrected_true[(2.10)]": 1.4,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[three_layer.figure_3_contrast]": 1.4,
    # added after the measured run: 40.3 CPU s alone (solvable verify --no-cache --only three_layer.figure_3_widths)
    "tests/test_registry.py::test_numeric_claim_is_confirmed[three_layer.figure_3_widths]": 40.3,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[global_convergence.section_8_2_1_regression]": 1.4,
    "tests/test_registry.py::test_symbolic_claim_is_proved[node_scaling.theorem_7_9_first_step]": 1.4,
    "tests/test_registry.py::test_symbolic_claim_is_proved[xu_ziyin.stable_alpha]": 1.4,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[mirror_flow.wide_mirror_flow]": 1.3,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[node_scaling.remark_26_first_step_simulated]": 1.3,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kernels.gaussian_limit]": 1.3,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[global_convergence.figure_2_generalisation]": 1.3,
    "tests/test_registry.py::test_symbolic_claim_is_proved[xu_ziyin.eq_3_4]": 1.3,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.wide_echelon_limit]": 1.2,
    "tests/test_registry.py::test_erratum_shows_printed_false_and_corrected_true[(21) (x < 0)]": 1.2,
    "tests/test_registry.py::test_symbolic_claim_is_proved[linear_node_scaling.trajectory_solves_flow]": 1.2,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[mirror_flow.implicit_bias]": 1.2,
    "tests/test_registry.py::test_symbolic_claim_is_proved[node_scaling.sums_to_one]": 1.1,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.wide_decoupled_weights]": 1.1,
    "tests/test_registry.py::test_symbolic_claim_is_proved[three_layer.eq7.output]": 1.1,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.closed_form_oracle]": 1.1,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[phases.figure_3_teacher]": 1.1,
    "tests/test_registry.py::test_symbolic_claim_is_proved[kunin.loss_in_frame]": 1.1,
    "tests/test_registry.py::test_symbolic_claim_is_proved[xu_ziyin.stable_residual]": 1.1,
    "tests/test_registry.py::test_symbolic_claim_is_proved[node_scaling.sum_of_squares_closed_form]": 1.0,
    "tests/test_registry.py::test_symbolic_claim_is_proved[global_convergence.remark_5_2_input_scaling]": 1.0,
    "tests/test_registry.py::test_numeric_claim_is_confirmed[kunin.wide_self_consistent]": 1.0,
}


def stale(listed: Iterable[str], collected: Iterable[str]) -> list[str]:
    """The entries of ``listed`` whose file was collected but which name no collected test
    (a renamed or removed test, or a changed parameter id)."""
    ids = set(collected)
    files = {i.split("::", 1)[0] for i in ids}
    return sorted(e for e in listed if e.split("::", 1)[0] in files and e not in ids)
