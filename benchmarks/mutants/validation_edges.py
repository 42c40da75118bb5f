"""Mutants of the input-validation and edge-case code: the number policy
(``solvable/_core/numbers.py``, ``arrays.py``), the verdicts and options of the claims
(``claims.py``), the tolerance (``tolerance.py``), the activations' derivative order, the
HMAC of the proof cache, the kernels' argument checks and exact rescaling, the trajectory
oracle (``solvable/verification/testing.py``) and the integrators' checks (``numerics``).

Written by an outside reviewer who read the code under attack but not the tests (only the
test files' names, from which the ``tests`` hints are guessed).  Each is a one-line slip
that accepts bad input silently or gives a wrong answer rather than crashing: a bound on
the wrong element, ``any`` for ``all``, a NaN that slips through a negated comparison, a
check replaced by ``int(...)``, a prefix accepted as an HMAC, a scaling exponent with its
sign flipped, a cap computed against the wrong quantity.  ``why`` names an input on which
the mutated code behaves differently from the original.  Format: see
``benchmarks/mutation.py``."""

MUTANTS = [
    dict(
        name="validation.check_times_first_only",
        seed="core",
        backend="numpy",
        file="solvable/_core/numbers.py",
        old="        if min(ts) < 0:\n",
        new="        if ts[0] < 0:\n",
        why="check_times' float fast path tests only the first time for >= 0: "
        "check_times([1.0, -2.0]) is accepted instead of a ValueError (and simulate(..., "
        "times=[1.0, -2.0], method='scipy') returns the initial weights as the state at "
        "t = -2)",
        tests=["tests/test_validation.py", "tests/test_bad_input.py", "tests/test_simulate.py"],
        claims="",
    ),
    dict(
        name="validation.dps_or_context_all_mpf",
        seed="core",
        backend="mpmath",
        file="solvable/_core/numbers.py",
        old="    if dps is None and any(holds_mpf(v) for v in values):",
        new="    if dps is None and all(holds_mpf(v) for v in values):",
        why="mpmath in, mpmath out only when every argument holds an mpf: "
        "dps_or_context(None, mpmath.mpf('0.1'), 2.0) returns None (a silent float64 "
        "evaluation) instead of mpmath.mp.dps",
        tests=["tests/test_bad_input.py", "tests/test_validation_edges.py"],
        claims="",
    ),
    dict(
        name="validation.symbolic_sizes_int_cast",
        seed="core",
        backend="sympy",
        file="solvable/_core/arrays.py",
        old="    out = {k: nb.check_int(k, v) for k, v in sizes.items()}",
        new="    out = {k: int(v) for k, v in sizes.items()}",
        why="the sizes of a symbolic flow truncated by int() instead of checked: "
        "symbolic_sizes('flow', lambda n: n, n=2.5) returns {'n': 2} and n=0, n=True or "
        "n='3' are accepted (kunin.flow(n=2.5, d=2) builds the n = 2 flow) instead of a "
        "TypeError / ValueError",
        tests=["tests/test_hangs_and_refusals.py", "tests/test_validation_edges.py"],
        claims="",
    ),
    dict(
        name="validation.from_error_nan_confirmed",
        seed="core",
        backend="numpy",
        file="solvable/_core/claims.py",
        old='return cls("confirmed" if 0 <= worst <= 1 else "failed", detail, max_error=worst,',
        new='return cls("failed" if worst > 1 else "confirmed", detail, max_error=worst,',
        why="the comparison negated by swapping the branches, which is not the same for NaN: "
        "Verdict.from_error(float('nan'), 'x').status is 'confirmed' instead of 'failed' (a "
        "numeric claim whose simulation produced NaN is counted as confirmed)",
        tests=["tests/test_validation_edges.py"],
        claims="",
    ),
    dict(
        name="validation.verify_dps_floor_dropped",
        seed="core",
        backend="mpmath",
        file="solvable/_core/claims.py",
        old="        if not nb.VERIFY_MIN_DPS <= dps <= nb.MAX_DPS:  # fewer: false failures",
        new="        if not 1 <= dps <= nb.MAX_DPS:  # fewer: false failures",
        why="Theorem.verify's dps checked against check_dps' range (>= 1) instead of "
        "VERIFY_MIN_DPS = 30: thm.verify(dps=5) runs the claim at 5 digits (where its "
        "tolerances cannot be met) instead of raising ValueError before it runs",
        tests=["tests/test_core_and_cli_details.py"],
        claims="",
    ),
    dict(
        name="validation.tolerance_scale_of_computed",
        seed="core",
        backend="mpmath",
        file="solvable/_core/tolerance.py",
        old="    scale = max((abs(y) for y in fb), default=mpmath.mpf(0))",
        new="    scale = max((abs(y) for y in fa), default=mpmath.mpf(0))",
        why="the relative tolerance scaled by max|computed| instead of max|reference| (mpf "
        "path): error_in_units([mpf(2)], [mpf(1)], Tolerance(rtol=0.6)) is 0.83 (pass) "
        "instead of 1.67 (fail), and relative_error(2, 1) is 0.5 instead of 1",
        tests=["tests/test_tolerance.py"],
        claims="",
    ),
    dict(
        name="validation.check_order_int_cast",
        seed="core",
        backend="sympy",
        file="solvable/_core/activations.py",
        old='    order = check_int("order", order, low=0)',
        new="    order = int(order)",
        why="the derivative order truncated instead of checked: derivative('tanh', 1.5) "
        "returns the first derivative and check_order(True) / check_order('2') return 1 / 2 "
        "instead of a TypeError",
        tests=[
            "tests/test_bad_input.py",
            "tests/test_hangs_and_refusals.py",
            "tests/test_validation_edges.py",
        ],
        claims="",
    ),
    dict(
        name="validation.proof_cache_mac_prefix",
        seed="core",
        backend="sympy",
        file="solvable/verification/proof_cache.py",
        old='        if not hmac.compare_digest(entry["mac"], self._mac(secret, fields)):',
        new='        if not self._mac(secret, fields).startswith(entry["mac"]):',
        why="the HMAC check accepts any prefix of the true MAC, the empty string included: an "
        "entry forged without the secret (well-formed fields, 'mac': '') is returned by "
        "ProofCache.get as a proved verdict instead of a miss",
        tests=["tests/test_proof_cache.py"],
        claims="",
    ),
    dict(
        name="validation.kernels_rho_upper_bound_only",
        seed="core",
        backend="numpy",
        file="solvable/models/kernels/evaluators.py",
        old="    outside = r[np.abs(r) > 1 + _RHO_SLACK]",
        new="    outside = r[r > 1 + _RHO_SLACK]",
        why="only rho > 1 is refused, rho < -1 is clipped to -1 silently: "
        "kernel_numeric('ntk_first_layer', init, 1.0, 1.0, -2.0) returns the kernel at rho = -1 "
        "instead of a ValueError",
        tests=[
            "tests/test_kernels.py",
            "tests/test_kernel_scales.py",
            "tests/test_validation_edges.py",
        ],
        claims="",
    ),
    dict(
        name="validation.kernels_exact_norm_exponent_sign",
        seed="core",
        backend="mpmath",
        file="solvable/models/kernels/evaluators.py",
        old="            n1 = mpmath.ldexp(mpmath.sqrt(sx), ea)",
        new="            n1 = mpmath.ldexp(mpmath.sqrt(sx), -ea)",
        why="the exact (dyadic) norm of x rescaled by 2^-e instead of 2^e: gram('nngp', init, "
        "[[1.0, 0.0]], dps=30) is 1.01e31 instead of 0.5 (|x| = 1 comes out as 2^104), and "
        "the float64 gram's exact refinement of nearly antiparallel rows is wrong the same way",
        tests=["tests/test_kernel_scales.py", "tests/test_kernels.py"],
        claims="kernels.*",
    ),
    dict(
        name="validation.gd_steps_cap_raised",
        seed="core",
        backend="scipy",
        file="solvable/verification/gradient_descent.py",
        old="_MAX_GD_STEPS = 2.0**53",
        new="_MAX_GD_STEPS = 2.0**63",
        why="the gradient-descent step cap raised from 2^53 to 2^63: gd_allowance(flow, params, "
        "y0, [1.0], lr=2.0**-60) (2^60 steps, t = k lr not representable) is accepted "
        "instead of a ValueError naming 2^53",
        tests=[
            "tests/test_oracle_edges.py",
            "tests/test_oracle_details.py",
            "tests/test_validation_edges.py",
        ],
        claims="",
    ),
    dict(
        name="validation.pace_ignores_steps_taken",
        seed="core",
        backend="scipy",
        file="numerics/scipy_ode.py",
        old="        if left > PACE_MARGIN * (max_steps - steps):",
        new="        if left > PACE_MARGIN * max_steps:",
        why="the work budget compares the projection with all of max_steps, not with the "
        "steps still left: projected_pace((0.0, 1.0), 250.0, 900, 50250.0, 1000) (50000 "
        "steps needed, 100 left) returns instead of raising PaceError",
        tests=["tests/test_hangs_and_refusals.py", "tests/test_integrator_edges.py"],
        claims="",
    ),
    dict(
        name="validation.mp_times_last_nonnegative",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old="or (targets and targets[0] < 0):",
        new="or (targets and targets[-1] < 0):",
        why="the Taylor integrator tests the last (largest) time for >= 0 instead of the "
        "first: mp.integrate(prog, params, symbols, y0, [-1, 1], 30) returns y0 as the state "
        "at t = -1 instead of raising ValueError('times must be sorted and >= 0')",
        tests=["tests/test_taylor_engine.py", "tests/test_integrator_edges.py"],
        claims="",
    ),
    dict(
        name="validation.torch_flow_bfloat16_accepted",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/flow.py",
        old="    if work not in (torch.float32, torch.float64):\n",
        new="    if work == torch.float16:\n",
        why="only float16 is refused as a working dtype: gradient_flow(model, params, times, "
        "dtype=torch.bfloat16) integrates at rtol = 0.78 (errors of 10% and more) instead "
        "of raising ValueError",
        tests=["tests/test_hangs_and_refusals.py", "tests/test_torch_flow.py"],
        claims="",
    ),
    dict(
        name="validation.simulate_rtol_one_accepted",
        seed="core",
        backend="scipy",
        file="numerics/__init__.py",
        old="    if not (floor <= mpmath.mpf(nb.to_mpf(rtol)) < 1):",
        new="    if not (floor <= mpmath.mpf(nb.to_mpf(rtol)) <= 1):",
        why="the float64 methods' rtol accepted at 1 (100% relative error): simulate(setup, "
        "out0, in0, [1.0], method='scipy', rtol=1) runs instead of raising ValueError "
        "(_check_rtol(1) returns 1.0)",
        tests=[
            "tests/test_simulate.py",
            "tests/test_simulator_edges.py",
            "tests/test_validation.py",
            "tests/test_validation_edges.py",
        ],
        claims="",
    ),
]
