"""Mutants of the input validation and work caps added to the nine experiment modules of
``numerics/`` (``alpha_scaling``, ``kernel_sampling``, ``ntg_sampling``, ``lazy_width``,
``node_scaling_gd``, ``node_scaling_linear``, ``sweep_three_layer``, ``phase_diagram``,
``node_scaling_experiment``): off-by-one at size caps (MAX_STEPS, MAX_CHUNKS), a seed
offset or a work estimate taken from the wrong quantity, overflow / underflow refusals
checking the wrong array or only half the result, any/all swaps in the finiteness and
zero-Hessian checks, row rescaling by the wrong maximum, ``_rd_array``
letting complex through, ``_result``'s missing-key list and ``main``'s ``ArgvError``.

Written by an outside reviewer (a helper session) who read the code and the docs but not the
tests; ``why`` is the reviewer's observed wrong behaviour (each shown on a scratch copy of the
working tree, against the unmutated copy).  The maintainer filled in the test hints. When
written, 3 of the 16 were killed by an assertion, 8 survived and 5 were crash only (the
valid side of a cap refused with a ValueError, an IndexError / KeyError / SystemExit where
a named ValueError or TypeError was due); all 16 are killed by the tests written for them
at the end of ``tests/test_experiment_refusals.py``, which also found two more bugs, fixed:
``phase_diagram``'s top rows chosen by norms whose squares overflowed (every norm inf) and
``kernel_gd`` stepping on inf to the last requested step.  Format: see
``benchmarks/mutation.py``."""

MUTANTS = [
    dict(
        name="experiment_checks.alpha_steps_cap_exclusive",
        seed="003",
        backend="torch",
        file="numerics/alpha_scaling.py",
        old="if steps > MAX_STEPS:",
        new="if steps >= MAX_STEPS:",
        why=(
            "off-by-one at the GD step cap: AlphaSetup(steps=MAX_STEPS) (10**9, documented as "
            "allowed) raises ValueError 'steps must be an int in [1, 1000000000]' instead of "
            "building the setup (steps = 1000000000)."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_alpha_scaling.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.alpha_overflow_checks_a",
        seed="003",
        backend="torch",
        file="numerics/alpha_scaling.py",
        old="if not bool(torch.isfinite(W).all()):",
        new="if not bool(torch.isfinite(a).all()):",
        why=(
            "the overflow refusal tests the output weights a instead of W / alpha: "
            "initial_parameters(1e-310, 2, 1, 1) returns W = [[[inf], [inf]]] instead of the "
            "ValueError 'alpha = 1e-310 is too small: W / alpha overflows float64'."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_alpha_scaling.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.kernel_output_finite_any",
        seed="002",
        backend="torch",
        file="numerics/kernel_sampling.py",
        old="if not np.all(np.isfinite(out)):",
        new="if not np.any(np.isfinite(out)):",
        why=(
            "any/all swapped in _finite_out: output_samples(Initialisation(1, 1), X=[[1.7e308], "
            "[-1.7e308], [1.0]], p=64, batch=3) returns outputs with NaN in the first two columns"
            " (only the third input is finite) instead of the ValueError 'X is too large: its "
            "kernels / outputs overflow float64'."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_kernels.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.ntg_chunk_cap_exclusive",
        seed="002",
        backend="torch",
        file="numerics/ntg_sampling.py",
        old="if chunks > MAX_CHUNKS:",
        new="if chunks >= MAX_CHUNKS:",
        why=(
            "off-by-one at MAX_CHUNKS: sample_ntg([[1.0]], 'relu', [1.0], draws=2**22 * "
            "MAX_CHUNKS, seed=-1) (exactly 10**6 chunks, allowed) is refused as 'draws = "
            "4194304000000 needs 1000000 chunks of work, more than MAX_CHUNKS' instead of passing"
            " the cap and refusing the seed ('seed must be an integer >= 0, got -1')."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_ntg.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.lazy_zero_hessian_any_all",
        seed="002",
        backend="torch",
        file="numerics/lazy_width.py",
        old="if not np.any(hv0):",
        new="if not np.all(hv0):",
        why=(
            "any/all swapped in hessian_opnorm_lanczos's zero-Hessian shortcut: for a tanh "
            "network of width 2 in d = 2 at x = (sqrt 2, 0) (H v0 has a zero coordinate, H is not"
            " 0) it returns ||H||_op = 0.0 instead of 0.12553 (hessian_opnorm_dense gives "
            "0.12553)."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_linearisation.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.gd_work_uses_max_gamma",
        seed="000",
        backend="torch",
        file="numerics/node_scaling_gd.py",
        old="work = 2 * horizon / (eta * min(gammas) * kappa) if eta > 0 else math.inf",
        new="work = 2 * horizon / (eta * max(gammas) * kappa) if eta > 0 else math.inf",
        why=(
            "the MAX_STEPS work estimate of monitor_theorem_6_1 divides by max(gammas) instead of"
            " min(gammas): monitor_theorem_6_1(gammas=(1.0, 1e-5), width=2, n_records=3, "
            "horizon=1e-6) runs with steps = 325 instead of refusing S = 3.245e+07 > MAX_STEPS "
            "(the gamma = 1e-5 case is integrated over a horizon 10**5 times too short)."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_node_scaling_theorems.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.linear_nodes_off_by_one",
        seed="000",
        backend="numpy",
        file="numerics/node_scaling_linear.py",
        old='nodes = [_int(f"nodes[{k}]", v, 0, m - 1) for k, v in enumerate(nodes)]',
        new='nodes = [_int(f"nodes[{k}]", v, 0, m) for k, v in enumerate(nodes)]',
        why=(
            "off-by-one in sample_limits's node bound (m instead of m - 1): sample_limits(X, y, "
            "[1.0, 0.5], 2, nodes=[2]) (X, y from linear_data(2, 3)) crashes with IndexError "
            "'index 2 is out of bounds for axis 1 with size 2' instead of ValueError 'nodes[0] "
            "must be an integer in [0, 1], got 2'."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_linear_node_scaling.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.three_layer_underflow_accepted",
        seed="004",
        backend="numpy",
        file="numerics/sweep_three_layer.py",
        old="bad = [k for k, v in out.items() if not (math.isfinite(v) and v > 0)]",
        new="bad = [k for k, v in out.items() if not math.isfinite(v)]",
        why=(
            "initial_scales refuses only overflow, not underflow to 0: initial_scales(0, 3300, 2)"
            " returns {'alpha': 1.0, 'beta_1': 0.0, 'beta_2': 0.0, 'beta_3': 0.0} (all-zero "
            "initialisation) instead of the ValueError naming the scales that leave the float64 "
            "range."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_sweep_three_layer.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.phase_rd_complex_accepted",
        seed="004",
        backend="numpy",
        file="numerics/phase_diagram.py",
        old='if arr.dtype.kind not in "fiu":',
        new='if arr.dtype.kind not in "fiuc":',
        why=(
            "_rd_array lets complex through: fit_layer([2, 4], [[1+1j, 1.1], [0.5, 0.6]]) returns"
            " a SlopeFit (slope -0.937, imaginary part silently dropped with a ComplexWarning) "
            "instead of TypeError 'rd must be an array of real numbers ... got dtype complex128'."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_phase_diagram.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.phase_unit_rows_global_max",
        seed="004",
        backend="numpy",
        file="numerics/phase_diagram.py",
        old="big = np.abs(U).max(axis=1, keepdims=True)",
        new="big = np.abs(U).max()",
        why=(
            "_unit_rows rescales by the largest entry of the whole matrix instead of each row's: "
            "for W = [[1e300, 1e300], [1e-300, 2e-300]] the small row underflows to 0, so "
            "cosine_matrix(W, top=1.0) has NaN and zeta(W, top=1.0) raises 'W has a zero row' "
            "instead of returning 0.97434."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_phase_diagram.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.phase_zeta_any_finite",
        seed="004",
        backend="numpy",
        file="numerics/phase_diagram.py",
        old="if not np.all(np.isfinite(D)):",
        new="if not np.any(np.isfinite(D)):",
        why=(
            "any/all swapped in _nonzero: zeta([[1, 0], [0, 1], [0, 0]], top=1.0) (a zero row "
            "among the top rows) returns nan instead of ValueError 'W has a zero row among its "
            "top-norm rows'."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_phase_diagram.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.phase_interpolate_err_unchecked",
        seed="004",
        backend="numpy",
        file="numerics/phase_diagram.py",
        old="if not (math.isfinite(at) and math.isfinite(err)):",
        new="if not math.isfinite(at):",
        why=(
            "interpolate_zero checks only the zero, not its error: interpolate_zero((0, 1e300), "
            "(1, -1), (1e10, 1e10)) returns (5e+299, inf) instead of ValueError 'the zero or its "
            "error is beyond the float64 range'."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_phase_diagram.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.experiment_argv_plain_parser",
        seed="000",
        backend="torch",
        file="numerics/node_scaling_experiment/cli.py",
        old="p = _Parser(",
        new="p = argparse.ArgumentParser(",
        why=(
            "main builds a plain argparse.ArgumentParser instead of _Parser: main(['--bogus']) "
            "prints the usage and raises SystemExit(2) (escaping `except ValueError`/`except "
            "Exception`) instead of ArgvError 'argv: the following arguments are required: "
            "--out'."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_experiments_bad_input.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.experiment_result_items_unchecked",
        seed="000",
        backend="torch",
        file="numerics/node_scaling_experiment/checks.py",
        old="missing = [k for k in (*keys, items) if k not in result]",
        new="missing = [k for k in keys if k not in result]",
        why=(
            "_result forgets the items key in its missing-key list: monitor_table({}) raises "
            "KeyError 'cases' instead of TypeError 'result must be the dict monitor_theorem_5_1 "
            "returns; it lacks ['cases']'."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_experiments_bad_input.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.kernel_gd_record_steps_uncapped",
        seed="000",
        backend="numpy",
        file="numerics/node_scaling_experiment/kernel.py",
        old='steps = np.array(_ints("record_steps", listed, 0, MAX_STEPS), dtype=np.int64)',
        new='steps = np.array(_ints("record_steps", listed, 0), dtype=np.int64)',
        why=(
            "kernel_gd's record_steps lose the MAX_STEPS cap: kernel_gd(eye(1), [1.0], 0.5, "
            "[MAX_STEPS + 1], K_cross=eye(2), f0_cross=[[0.0]], y_cross=[0.0]) gets past "
            "record_steps and fails on the K_cross shapes instead of ValueError 'record_steps[0] "
            "must be an integer in [0, 10000000], got 10000001' (with valid cross inputs it would"
            " run 10**7 + 1 steps)."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_experiments_bad_input.py"],
        claims="",
    ),
    dict(
        name="experiment_checks.single_relu_data_seed_offset_forgotten",
        seed="000",
        backend="torch",
        file="numerics/node_scaling_experiment/figure_2.py",
        old='_int("data_seed", data_seed, 0, nb.INT64_MAX - 1000 * repeats)',
        new='_int("data_seed", data_seed, 0, nb.INT64_MAX)',
        why=(
            "single_relu_experiment's data_seed bound forgets the 1000 r repeat offset: with "
            "repeats=2, data_seed=2**63 - 2 (n=d=width=n_test=2, steps=2, n_records=2, "
            "pytorch_default=False) runs repeat 0 and then fails in repeat 1 with 'seed must be "
            "an integer in [0, 2**63 - 1], got 9223372036854776806' (a seed the caller never "
            "passed) instead of refusing data_seed up front ('data_seed must be an integer in [0,"
            " 9223372036854773807]')."
        ),
        tests=["tests/test_experiment_refusals.py", "tests/test_experiments_bad_input.py"],
        claims="",
    ),
]
