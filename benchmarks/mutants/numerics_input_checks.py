"""Mutants of the input checks of the numerics building blocks (``numerics/mp.py``,
``scipy_ode.py``, ``measures.py``, ``sweeps.py``) added by the fuzz of this stop, and of
torch's work budget.

Written by an outside reviewer (a helper session) who read the code and the docs but not the
tests; ``why`` is the reviewer's observed wrong behaviour.  6 of the 12 were killed (one by
a timeout) when written; the other 6 (rtol = 1, FlowError's ValueError base, alignment's u
width, and the three inclusive limits of ``sweeps``) are killed by the tests written for
them in ``tests/test_numerics_bad_input.py``.  Format: see ``benchmarks/mutation.py``."""

MUTANTS = [
    dict(
        name="numerics_checks.mp_param_symbols_not_symbols",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old='param_symbols = _symbols("param_symbols", param_symbols)',
        new='param_symbols = _sequence("param_symbols", param_symbols)',
        why=(
            "mp.integrate no longer checks that param_symbols are sympy Symbols: with rhs "
            "-sqrt(a)*y, param_symbols=['a'] (a str) is accepted and the string goes into the "
            "generated mpmath evaluator as code (returns 0.9048...) instead of TypeError "
            "'param_symbols[0] must be a sympy Symbol'."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.mp_guard_uncapped",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old='for name, value in (("dps", dps), ("guard", guard)):',
        new='for name, value in (("dps", dps),):',
        why=(
            "guard is no longer capped at MAX_DPS: mp.integrate(prog, [1], [a], [1], [], 20, "
            "guard=10**6) is no ValueError naming guard and hangs at a million digits (still "
            "running after 40 s)."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.mp_taylor_order_real",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old=(
            "integral = isinstance(taylor_order, numbers.Integral) and not "
            "isinstance(taylor_order, bool)"
        ),
        new=(
            "integral = isinstance(taylor_order, numbers.Real) and not isinstance(taylor_order,"
            " bool)"
        ),
        why=(
            "a fractional taylor_order is accepted and silently truncated: mp.integrate(prog, "
            "[1], [a], [1], [0.1], 20, taylor_order=2.5) runs at order 2 (here ending in a "
            "PaceError after 100000 steps) instead of an immediate TypeError naming "
            "taylor_order."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.scipy_rtol_one_accepted",
        seed="core",
        backend="numpy",
        file="numerics/scipy_ode.py",
        old="if not 0 < rtol < 1:",
        new="if not 0 < rtol <= 1:",
        why=(
            "scipy_ode.integrate(..., rtol=1) (a 100% tolerance, documented 0 < rtol < 1) is "
            "accepted instead of a ValueError naming rtol."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.flow_error_not_value_error",
        seed="core",
        backend="numpy",
        file="numerics/scipy_ode.py",
        old="class FlowError(ArithmeticError, ValueError):",
        new="class FlowError(ArithmeticError):",
        why=(
            "FlowError is no longer a ValueError: a flow blowing up in finite time (dy/dt = "
            "y**2, y0=1, times=[2]) escapes `except ValueError` callers, contrary to the "
            "documented contract."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.scipy_start_check_or",
        seed="core",
        backend="numpy",
        file="numerics/scipy_ode.py",
        old="if not (np.isfinite(solver.f).all() and np.isfinite(solver.h_abs)):",
        new="if not (np.isfinite(solver.f).all() or np.isfinite(solver.h_abs)):",
        why=(
            "the finite-field start check fires only when the field AND the first step are both"
            " non-finite: dy/dt = a*y**2 with params=[1e300], y0=[1e10] (field inf, h_abs "
            "finite) is no longer the ValueError 'the field at the start is not finite' but a "
            "FlowError 'DOP853 failed at t = 0' (still a ValueError subclass, so only a "
            "type/message check notices)."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.alignment_batch_only",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="if u.shape != W.shape[:2]:",
        new="if u.shape[0] != W.shape[0]:",
        why=(
            "alignment checks only the batch size of u: u of shape (2, 1) with W (2, 3, 2) "
            "broadcasts and returns 'cosines' 1.29 and 1.69 (> 1) instead of a ValueError "
            "naming u."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.relative_change_first_axis_only",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="if ta.shape != tb.shape:",
        new="if ta.shape[0] != tb.shape[0]:",
        why=(
            "relative_change accepts broadcastable shapes again: new (2, 3) ones vs old (2, 1) "
            "ones returns tensor([0., 0.]) instead of a ValueError naming new and old."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.sweeps_max_boot_exclusive",
        seed="core",
        backend="numpy",
        file="numerics/sweeps.py",
        old="if n_boot > MAX_BOOT:",
        new="if n_boot >= MAX_BOOT:",
        why=(
            "off-by-one in the bootstrap cap: fit_exponent(..., n_boot=MAX_BOOT) (10**6, "
            "documented as allowed) raises ValueError."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.sweeps_kappa_zero",
        seed="core",
        backend="numpy",
        file="numerics/sweeps.py",
        old=(
            "if len(kappas) < 2 or not np.all(kappas > 0) or len(set(kappas.tolist())) != "
            "len(kappas):"
        ),
        new=(
            "if len(kappas) < 2 or not np.all(kappas >= 0) or len(set(kappas.tolist())) != "
            "len(kappas):"
        ),
        why=(
            "fit_exponent accepts a kappa of 0: fit_exponent([0, 1, 2], [[1, 1.1], [2, 2.1], "
            "[4, 4.1]], n_boot=20) takes log(0) = -inf and dies in lstsq with LinAlgError 'SVD "
            "did not converge' (LAPACK noise on stderr) instead of the ValueError 'need >= 2 "
            "kappas, distinct and > 0'."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.sweeps_max_workers_exclusive",
        seed="core",
        backend="numpy",
        file="numerics/sweeps.py",
        old="if n_workers > MAX_LOCAL_WORKERS:",
        new="if n_workers >= MAX_LOCAL_WORKERS:",
        why=(
            "off-by-one in the local_cluster worker cap: local_cluster(n_workers=1024) (= "
            "MAX_LOCAL_WORKERS, documented as allowed) raises ValueError naming n_workers "
            "instead of starting the cluster."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="numerics_checks.torch_pace_ignores_due",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="slow = due & (pace_mean > 0) & positive & ~grew & (left > budget)",
        new="slow = (pace_mean > 0) & positive & ~grew & (left > budget)",
        why=(
            "_projected_pace no longer masks batch elements that are done (due False): with "
            "element 1 finished but with a tiny frozen pace (mean 4e-12, t_end 10, max_steps "
            "1000), the call raises 'PaceError batch element 1: ...' and aborts the whole batch"
            " instead of returning the new pace."
        ),
        tests=["tests/test_hangs_and_refusals.py"],
        claims="",
    ),
]
