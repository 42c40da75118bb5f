"""Mutants of the float64 scale normalisation of ``kunin.wide_closed_form``, the work
budgets of the integrators (torch's pace projection, mpmath's ``max_steps``), the
autograd path of ``kernels.gram_torch`` and the precision contracts (``Theorem.verify``'s
dps floor, mpf inputs to float64 functions, ``ntg.frobenius_variance`` at ``dps``).

Written by an outside reviewer (a helper session) who read the code under attack and the
docs but not the tests; ``why`` is the reviewer's observed wrong behaviour.  13 of the 14
were killed by the suite when written; ``precision.frobenius_variance_dps_uses_limit``
survived and is killed by ``tests/test_ntg.py``'s dps-vs-float64 test written for it.
Format: see ``benchmarks/mutation.py``."""

MUTANTS = [
    dict(
        name="scales.wide_time_scale_inverted",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="            c2, t_scale = math.ldexp(1.0, 2 * j), math.ldexp(1.0, -2 * j)",
        new="            c2, t_scale = math.ldexp(1.0, 2 * j), math.ldexp(1.0, 2 * j)",
        why=(
            "t_scale = c^2 instead of 1/c^2: internal time t*c^2, so any data with s outside "
            "[1,4) gets the wrong state; X,Y = 2^-1*(rotation, Y of docs/inputs.md), "
            "A0=W0=((.3,.2),(.2,-.1)) at t=2.8: beta[0,0] = 0.580 (the limit) vs 0.2407 at "
            "dps=30, loss rel err 1.0; for 2^3 scale beta 0.130 vs 0.2407 (s=1 data "
            "unaffected)."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
    dict(
        name="scales.wide_targets_not_rescaled",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="            X_int, Y_int = X * math.ldexp(1.0, j), Y * math.ldexp(1.0, j)",
        new="            X_int, Y_int = X * math.ldexp(1.0, j), Y",
        why=(
            "Y not rescaled with X: beta* = X_int^T Y / s_int is off by 1/c, so every float64 "
            "state for data with s outside [1,4) is wrong; X,Y scaled by 2^3: beta[0,0] = 4.55 "
            "vs 0.2407 (dps=30); X=2^-300*rot, Y~1: beta 0.24 vs 1.18e90."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
    dict(
        name="scales.wide_primed_on_raw_scale",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="            eta_a, eta_w, s_int, delta)  # fmt: skip",
        new="            eta_a, eta_w, s, delta)  # fmt: skip",
        why=(
            "the primed rates/kappa use the raw s instead of s_int (reverts the normalisation):"
            " at 2^-1 scale beta[0,0]=0.153 vs 0.2407; at 2^3 and 2^200 the start/limit (0.58) "
            "is wrong; at X,Y*2^-300 a ValueError 'intermediates overflow or underflow' instead"
            " of the state."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
    dict(
        name="scales.wide_exponent_not_halved",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="            j = -math.floor(math.log2(s) / 2)",
        new="            j = -math.floor(math.log2(s))",
        why=(
            "j = -floor(log2 s) (missing /2): s*c^2 ~ 1/s instead of in [1,4); correct for "
            "moderate scales but X,Y*2^-300 (s=2^-600) raises OverflowError 'math range error' "
            "from ldexp(1, 1200) instead of the float64 state."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
    dict(
        name="scales.wide_rates_divided",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/wide.py",
        old="            rates = rates * t_scale",
        new="            rates = rates / t_scale",
        why=(
            "traj.rates divided instead of multiplied by t_scale (states unaffected: _data "
            "keeps the normalised rates): X,Y scaled by 2^3 give traj.rates 4096x too small, by"
            " 2^-1 16x too large, by 2^-300 ~2^1200 too large, vs dps=30; s in [1,4) "
            "unaffected."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
    dict(
        name="budgets.torch_pace_without_margin",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="    budget = (max_steps - used).to(t.dtype) * PACE_MARGIN  # float: no int64 overflow",
        new="    budget = (max_steps - used).to(t.dtype)  # float: no int64 overflow",
        why=(
            "PACE_MARGIN dropped from the torch work budget: a flow needing between max_steps "
            "and 100*max_steps attempts is refused early with PaceError instead of running to "
            "max_steps: L=500 x^2, x0=1, T=20, fixed_point=False, max_steps=2000 gives "
            "PaceError after 750 steps (HEAD: ArithmeticError 'max_steps=2000 attempted steps "
            "by t = 12.45')."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
    dict(
        name="budgets.torch_shrink_hint_inverted",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old=(
            "        if bool(mean[k] < pace_mean[k] / 2):  # the steps shrink by half or more "
            "per window"
        ),
        new=(
            "        if bool(mean[k] < pace_mean[k] * 2):  # the steps shrink by half or more "
            "per window"
        ),
        why=(
            "blow-up hint condition < pace_mean*2 instead of < pace_mean/2: every PaceError of "
            "a steady (non-shrinking) stiff flow gets '; the steps shrink: a finite-time "
            "blow-up ...' appended (L=500x^2, T=1e4, max_steps=2000)."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
    dict(
        name="budgets.torch_pace_from_zero",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="    mean = (t - pace_t) / PACE_WINDOW",
        new="    mean = t / PACE_WINDOW",
        why=(
            "mean step measured from t=0 (t/PACE_WINDOW) instead of since the last window: the "
            "mean keeps 'growing' and is overestimated, so the budget never fires: stiff "
            "L=500x^2 to T=1e4 with max_steps=2000 runs to ArithmeticError max_steps (HEAD: "
            "PaceError after 750 attempts), and dx/dt=x^2 from x0=1 to T=2 ends with 'step size"
            " underflow' instead of PaceError with the blow-up hint."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
    dict(
        name="autograd.row_norm_sqrt_at_zero",
        seed="core",
        backend="torch",
        file="solvable/_core/geometry.py",
        old=(
            "    return o.where(nonzero, top * o.sqrt(o.where(nonzero, squares, "
            "o.ones_like(squares))),"
        ),
        new="    return o.where(nonzero, top * o.sqrt(squares),",
        why=(
            "row_norms takes sqrt(squares) at a zero row again: gram_torch('ntk_first_layer', "
            "exercise_initialisation(), X) with X.requires_grad gives NaN in every entry of "
            "grad(G.sum(), X) (HEAD: finite)."
        ),
        tests=["tests/test_kernel_scales.py"],
        claims="",
    ),
    dict(
        name="autograd.gram_torch_correction_not_detached",
        seed="core",
        backend="torch",
        file="solvable/models/kernels/evaluators.py",
        old="            correction[i, k] = exact - out.detach()[i, k]",
        new="            correction[i, k] = exact - out[i, k]",
        why=(
            "forgotten detach in gram_torch's correction: correction = exact - out (with grad) "
            "cancels out's gradient at the refined (near-antiparallel, phi<1/16) entries: for "
            "X=[[1,.2],[.3,-.7],[-1,-.2000001]] grad(G[0,2], X) is all zeros (HEAD: [-0.0318, "
            "0.159] on rows 0 and 2)."
        ),
        tests=["tests/test_kernel_scales.py"],
        claims="",
    ),
    dict(
        name="budgets.mp_max_steps_off_by_one",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old=(
            "                if steps >= max_steps:  # the step that lands on the last time "
            "counts too"
        ),
        new=(
            "                if steps > max_steps:  # the step that lands on the last time "
            "counts too"
        ),
        why=(
            "mp.integrate's max_steps check off by one (steps > max_steps): y'=-y to t=5 at "
            "dps=30 needs 2 steps, and max_steps=1 now returns the result instead of "
            "ArithmeticError 'max_steps=1 steps taken ...'."
        ),
        tests=["tests/test_integrator_edges.py"],
        claims="",
    ),
    dict(
        name="precision.frobenius_variance_dps_uses_limit",
        seed="004",
        backend="mpmath",
        file="solvable/models/ntg.py",
        old="        lambda d: sum_of_squares_numeric(m, gamma, weights, dps=d),",
        new="        lambda d: sum_of_squares_limit_numeric(gamma, weights, dps=d),",
        why=(
            "copy-paste from frobenius_variance_limit: the dps path multiplies C_0(X) by the "
            "m->inf sum of squares: frobenius_variance([[1,.5],[.2,-1]], 'relu', 5, '0.3', "
            "zipf('1/2'), dps=40) = 0.03384 while dps=None gives 0.06028."
        ),
        tests=["tests/test_ntg.py"],
        claims="",
    ),
    dict(
        name="precision.verify_dps_floor_of_the_oracle",
        seed="core",
        backend="mpmath",
        file="solvable/_core/claims.py",
        old="        if not nb.VERIFY_MIN_DPS <= dps <= nb.MAX_DPS:  # fewer: false failures",
        new="        if not nb.MIN_ORACLE_DPS <= dps <= nb.MAX_DPS:  # fewer: false failures",
        why=(
            "Theorem.verify's floor back to MIN_ORACLE_DPS (15): verify(dps=20) (and 15..29) is"
            " accepted instead of ValueError 'dps must be an int >= 30 (and <= 100000), got "
            "20'."
        ),
        tests=["tests/test_core_and_cli_details.py"],
        claims="",
    ),
    dict(
        name="precision.pruned_mass_mpf_gamma_unrounded",
        seed="000",
        backend="numpy",
        file="solvable/models/linear_node_scaling/moments.py",
        old="    return float(np.sum(ns.node_scaling_numeric(np.full_like(j, m), j, g, weights)))",
        new=(
            "    return float(np.sum(ns.node_scaling_numeric(np.full_like(j, m), j, gamma, "
            "weights)))"
        ),
        why=(
            "pruned_mass_numeric passes the raw gamma instead of the rounded g: an mpmath.mpf "
            "gamma makes node_scaling_numeric work at dps with integer arrays and raise "
            "TypeError 'm and j must be single ints at dps = 15' (HEAD: 0.17034682796160638 for"
            " m=20, rho=0.5, gamma=mpf('0.3'), zipf('1/2'))."
        ),
        tests=["tests/test_mpmath_in_mpmath_out.py"],
        claims="",
    ),
]
