"""Mutants of the deep linear network's float64 and exact-arithmetic code changed in the
"stop 53" session: float64 ``strengths`` on arrays (``strength.py``: ``_widen_array``,
``_log_d``'s small-``q`` series, ``_bracket``'s float64 range check,
``RateOutOfRangeError``'s index), the stacked sampler (``float64_sample.py``: ``_times``, the
blocks of times), the balance decision (``modes.py``: ``_certainly_balanced``, the float64
decision with a proved rounding bound, and the exact comparison), the NTK
(``network.py``: ``ntk``; ``kernel.py``: ``network_kernel``), ``SpectralTrajectory.at``
(``spectral.py``) and the exact products (``solvable/_core/exact_gram.py``: ``_dyadic``,
``to_fraction``).

Written by an outside reviewer (a helper session) who read the code but not the tests; the
test hints (``tests``) were filled in from the test files' names only.  Each mutant is one
replacement at one place, the kind of slip a developer makes (a bound moved inward instead
of outward, a series' switch-over threshold, ``np.any`` for ``np.all`` in a refusal, an
index not mapped back to the caller's, the last bad entry named instead of the first, the
limit's time left at 0, a block's end off by one, a signed max for a max of absolute
values, a rounding error subtracted instead of added, ``<`` for ``<=``, a loop that stops
one layer early, rates taken from the wrong end, float data on the mpmath path, the state's
time at ``t = inf``, a float's exponent off by one, a sign dropped).  ``why`` is what the
reviewer observed with the mutant applied to a scratch copy of ``f8c2fc8`` (two small probe
scripts, each run on the unmutated copy first, where every probe gave the expected answer).

The probes: the four starts of ``confirmations.deep_linear.CASES`` (float64
``spectral_start``), ``sample`` at t = 0, 0.3, 1.5, 4, inf against ``at`` and against the
``dps=30`` closed form (unmutated: every weight within 1e-13, ``sample`` = ``at`` to 1e-14);
``strength.strengths`` of single modes (L = 2, 3, 4; growing, shrinking from z0 = 8,
decaying, tiny, ``s = 0``, ``s = 1e-200``) at t = 1e-3 .. 30 and inf against ``strength`` at
30 digits (unmutated: relative 1e-13); ``kappa t`` overflow (``t = 1e308``) through
``strengths`` and ``sample``; bad times (negative, NaN, two negatives); ``"inf"`` in a
list; 2000 times; balance: L = 3 identity starts with ``W_1 = diag(1, 1 + 2^-20)`` or
``diag(1, 1 + 2^-52)`` (float rates ``(1.0, 1.0, 1.0)``), ``rtol = 0`` on an exactly
balanced integer start, ``CASES[1]`` with ``W_1`` scaled by ``1 + 1e-7`` at float rates
``(1.0, 0.5, 2.0)`` and ``rtol`` 1/1.5 of its exact relative defect 1.535e-7; the NTK of a
perturbed L = 3 start (rates (1, 0.5, 2)) against a finite difference of the flow
``dF/dt = -K (F - Y)``; ``network_kernel`` of an mpmath state with non-dyadic ``X`` and
rates against ``ntk`` at 30 digits (unmutated: 0); ``exact_matmul`` of mixed mpf / float
arrays against a 200-digit product; ``_dyadic``; ``to_fraction``.

Probed equivalent and left out: ``far = w >= 0`` for ``w >= pivot`` in ``_t_of_w``'s float64
masks (the decaying branch's series then also covers 1 <= x < 2: the same antiderivative,
every probe within 1e-13 as before); ``_min`` / ``_max`` of ``_bracket`` swapped on float64
(``np.maximum`` for ``np.minimum`` and back: the bounds are only floors under proved bounds
and ``_widen_array`` restores the sign change: no probe changed); ``scale_lo = min(norm_u,
norm_l)`` in ``_certainly_balanced`` (the two are equal for a balanced pair, a smaller scale
only says "undecided" and the exact check decides); rounding ``"d"`` for ``"n"`` in
``exact_matmul`` (no probe output changed at 30 digits).  Near-equivalent (last digits
only) and left out: ``_illinois_array`` keeping the worse end of a finished bracket, or
halving ``glo`` for ``ghi`` (u changed by 2-4 ulps, e.g. 0.05058068128937594 -> ...596);
``_series``' float64 stop at ``2^-40`` (one value changed in the last digit).  Probed, not
equivalent, and left out to keep the table at 16: ``idx = np.flatnonzero(~still)`` in
``strengths`` (every ``t = inf`` refused as ``kappa t = 0.0`` out of range); ``G[:, k]`` for
``G[:, k + 1]`` (the layers wrong from t = 0: loss 2.145 at t = 0 for CASES[0]);
``traj._parts[l][k]`` (crash only: "all input arrays must have the same shape");
``max(int(v) ...)`` in ``_balance_defect`` (a start with a negative-definite defect accepted,
as ``certainly_balanced_signed_max`` below but on the exact path); ``exact_gram(lower,
...)`` for the transposed rows (valid mpmath starts refused or a broadcasting error);
``_dyadic`` dropping an mpf's sign (every dps=30 start refused as not task-aligned);
``exps`` with the zero entries (an all-zero matrix crashes); the loss without ``/ 2``
(doubled); ``network_kernel``'s rates by ``nb.to_float`` (2e-18 off at 30 digits).
Format: see ``benchmarks/mutation.py``."""

_DL = "solvable/models/deep_linear/"
_STRENGTH = _DL + "strength.py"
_SAMPLE = _DL + "float64_sample.py"
_MODES = _DL + "modes.py"
_NETWORK = _DL + "network.py"
_KERNEL = _DL + "kernel.py"
_SPECTRAL = _DL + "spectral.py"
_GRAM = "solvable/_core/exact_gram.py"
# the test hints (by file name; the reviewer did not open them)
_T_F64 = [
    "tests/test_deep_linear_float64_strengths.py",  # (added by the maintainer after the run)
    "tests/test_deep_linear_sample_f64.py",
    "tests/test_deep_linear_spectral.py",
    "tests/test_deep_linear_edges.py",
]
_T_SAMPLE = [
    "tests/test_deep_linear_float64_strengths.py",  # (added by the maintainer after the run)
    "tests/test_deep_linear_sample_f64.py",
    "tests/test_closed_form_scale.py",
    "tests/test_deep_linear_edges.py",
]
_T_BALANCE = [
    "tests/test_deep_linear_float64_strengths.py",  # (added by the maintainer after the run)
    "tests/test_deep_linear_exact_checks.py",
    "tests/test_deep_linear_edges.py",
    "tests/test_deep_linear.py",
]
_T_NTK = ["tests/test_deep_linear_ntk.py", "tests/test_deep_linear.py"]
_T_GRAM = [
    "tests/test_exact_gram_signs.py",
    "tests/test_gram_fast_paths.py",
    "tests/test_deep_linear_exact_checks.py",
]
_SPECTRAL_CLAIM = "deep_linear.spectral_vs_flow"

MUTANTS = [
    # ------------------------------------------------------------ strength.py: float64 arrays
    dict(
        name="stop53_deep_linear.widen_array_inward",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="w[wrong], step[wrong] = w[wrong] + side * step[wrong], 2 * step[wrong]",
        new="w[wrong], step[wrong] = w[wrong] - side * step[wrong], 2 * step[wrong]",
        why=(
            "_widen_array moves a bound whose sign is wrong inward instead of outward.  "
            "Observed: strengths(ModeFlow(3, 1.0, s=1e-200, lam=1.0, u0=1e-201), t = [1, "
            "2]) raises ArithmeticError 'the proved bracket lost its sign change (g(lo) = "
            "nan, ...)' instead of returning the strengths; the CASES starts and the other "
            "single modes unchanged (their bounds need no widening)"
        ),
        tests=_T_F64,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.log_d_small_threshold",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="small = q < 1e-8",
        new="small = q < 1e-3",
        why=(
            "_log_d's float64 two-term series in q = e^w used up to q = 1e-3 instead of "
            "1e-8 (its error O(q^2) is no longer below an ulp).  Observed: single modes "
            "(s = 1, lambda = 4, u0 = 0.75 and 2.0, L = 2 and 3) near their fixed point: "
            "float64 u relative errors 1.4e-12 .. 5.9e-12 against 30 digits instead of "
            "< 1e-13; CASES[2] (L = 4) weights at t = 1.5 off by 4.6e-13 from dps=30; "
            "CASES[0] u_2(4) 0.5798012684144801 instead of ...929"
        ),
        tests=_T_F64,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.bracket_range_check_any",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="if m is not mpmath and not np.all((0 < kt) & (kt < math.inf)):",
        new="if m is not mpmath and not np.any((0 < kt) & (kt < math.inf)):",
        why=(
            "the float64 kappa t range check with np.any for np.all: only refused when every "
            "time is out of range.  Observed: strengths(ModeFlow(3, 1, 1, 1, 0.5), t = [1, "
            "1e308, 1e308]) returns (no RateOutOfRangeError; unmutated: index 1), and "
            "closed_form(CASES[0]).sample([0.0, 0.5, 1e308]) returns instead of raising "
            "ValueError 'times[2]: ...'"
        ),
        tests=_T_F64,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.rate_error_index_not_mapped",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="raise RateOutOfRangeError(int(idx[exc.index]), str(exc)) from None",
        new="raise RateOutOfRangeError(int(exc.index), str(exc)) from None",
        why=(
            "the RateOutOfRangeError index left as the index among the moving times (t > 0, "
            "finite) instead of mapped back to the caller's array.  Observed: strengths(..., "
            "t = [0, 0 (inf), 1, 1e308]) names index 1 instead of 3; closed_form(CASES[0])."
            "sample([0.0, 0.5, 1e308]) raises 'times[1]: ...' instead of 'times[2]: ...'"
        ),
        tests=_T_F64,
        claims=[],
    ),
    # ------------------------------------------------------------ float64_sample.py
    dict(
        name="stop53_deep_linear.times_last_bad_entry",
        seed="001",
        backend="numpy",
        file=_SAMPLE,
        old="k = int(np.flatnonzero(~((t >= 0) & ~np.isnan(t)))[0])",
        new="k = int(np.flatnonzero(~((t >= 0) & ~np.isnan(t)))[-1])",
        why=(
            "_times names the last bad entry of a float array instead of the first.  "
            "Observed: sample(np.array([-1.0, 0.5, -2.0])) raises 'times[2]: t must be >= "
            "0, got -2.0' instead of 'times[0]: ... -1.0' (a single bad entry unchanged)"
        ),
        tests=_T_SAMPLE,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.times_inf_left_zero",
        seed="001",
        backend="numpy",
        file=_SAMPLE,
        old="    t[inf] = math.inf\n",
        new="    t[inf] = 0.0\n",
        why=(
            "_times (the path of lists and strings) leaves the limit's time at the 0 used "
            "for the strengths instead of inf.  Observed: sample([0.1, 'inf', 2]).t = [0.1, "
            "0.0, 2.0] instead of [0.1, inf, 2.0] and sample(['inf', 1.0]).t = [0, 1] "
            "(the layers, beta, f, loss still those of the limit: at('inf').t is inf); "
            "float arrays containing inf unchanged"
        ),
        tests=_T_SAMPLE,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.block_end_off_by_one",
        seed="001",
        backend="numpy",
        file=_SAMPLE,
        old="j = min(T, i + step)",
        new="j = min(T - 1, i + step)",
        why=(
            "the last block of times stops one time early: beta, f and the loss of the last "
            "time are never written (np.empty).  Observed: closed_form(CASES[0]).sample([0.5, "
            "1, 2]).loss[-1] = 4.28 (memory left over) instead of 0.4722462008280112; every "
            "CASES start's last time (inf) beta / f / loss off from at() by 0.55 .. 8.5e231; "
            "the layers (params) unchanged"
        ),
        tests=_T_SAMPLE,
        claims=[],
    ),
    # ------------------------------------------------------------ modes.py: the balance check
    dict(
        name="stop53_deep_linear.certainly_balanced_signed_max",
        seed="001",
        backend="numpy",
        file=_MODES,
        old="dev = float(np.max(np.abs(D)))",
        new="dev = float(np.max(D))",
        why=(
            "_certainly_balanced's deviation as the signed max of D instead of max|D|: a "
            "negative defect passes as balanced.  Observed (float rates): L = 3 identity "
            "start with W_1 = diag(1, 1 + 2^-20), rates (1.0, 1.0, 1.0), rtol = 2^-21 "
            "accepted (a SpectralTrajectory) instead of refused (max|D_1| = 2^-19, relative "
            "2^-20); CASES[1] with W_1 scaled by 1 + 1e-7 at rates (1.0, 0.5, 2.0) and rtol "
            "= 1.02e-7 (its exact relative defect 1.535e-7) accepted; string rates unchanged "
            "(the exact check decides)"
        ),
        tests=_T_BALANCE,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.certainly_balanced_err_subtracted",
        seed="001",
        backend="numpy",
        file=_MODES,
        old="return (dev + err) * (1 + 4 * _U) <= rtol_lo * scale_lo * (1 - 4 * _U)",
        new="return (dev - err) * (1 + 4 * _U) <= rtol_lo * scale_lo * (1 - 4 * _U)",
        why=(
            "the proved rounding bound subtracted from the float64 deviation instead of "
            "added: a defect below the bound is 'certainly balanced' at any rtol.  "
            "Observed: L = 3 identity start with W_1 = diag(1, 1 + 2^-52), rates (1.0, 1.0, "
            "1.0), rtol = 1e-17 accepted instead of refused (exact relative defect 1.1e-16); "
            "_certainly_balanced(W2, W1 of CASES[1], 0.5, 1.0, rtol=1e-17) True instead of "
            "False; the default rtol unchanged"
        ),
        tests=_T_BALANCE,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.balance_exact_strict",
        seed="001",
        backend="mpmath",
        file=_MODES,
        old="balanced = exact[0] <= to_fraction(rtol) * exact[1]",
        new="balanced = exact[0] < to_fraction(rtol) * exact[1]",
        why=(
            "the exact balance comparison strict: a defect of exactly 0 fails at rtol = 0.  "
            "Observed: closed_form(Setup(('1', '1', '1'), I, [[2, 0], [0, 1]]), (I, I, I), "
            "rtol=0) refused ('weights must be balanced ...') instead of accepted (beta(1) "
            "= diag(1.9986, 1)); rtol = 1e-30 and the default unchanged"
        ),
        tests=_T_BALANCE,
        claims=[],
    ),
    # ------------------------------------------------------------ network.py / kernel.py: the NTK
    dict(
        name="stop53_deep_linear.ntk_skips_input_layer",
        seed="001",
        backend="numpy",
        file=_NETWORK,
        old="for l in range(len(weights) - 1, -1, -1):",
        new="for l in range(len(weights) - 1, 0, -1):",
        why=(
            "ntk's sum over layers stops before the input layer (l = 0).  Observed: a "
            "perturbed L = 3 start (rates (1, 0.5, 2)): K[0, 0, 1, 1] = 0.0314 instead of "
            "0.1021, and -K (F - Y) no longer matches a finite difference of F along the "
            "flow (unmutated: within 1e-4)"
        ),
        tests=_T_NTK,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.ntk_rates_reversed",
        seed="001",
        backend="numpy",
        file=_NETWORK,
        old="term = G[:, None, :, None] * P[None, :, None, :] * rates[l]",
        new="term = G[:, None, :, None] * P[None, :, None, :] * rates[-1 - l]",
        why=(
            "ntk weights layer l's term by the rate counted from the output.  Observed: the "
            "perturbed L = 3 start, rates (1, 0.5, 2): K[0, 0, 1, 1] = 0.1729 instead of "
            "0.1021 and the finite-difference check of dF/dt = -K (F - Y) fails; equal "
            "rates unchanged"
        ),
        tests=_T_NTK,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.kernel_mpmath_X_in_float",
        seed="001",
        backend="mpmath",
        file=_KERNEL,
        old="X = np.vectorize(conv, otypes=[dt])(np.asarray(setup.X, dtype=object))",
        new="X = np.vectorize(nb.to_float, otypes=[float])(np.asarray(setup.X, dtype=object))",
        why=(
            "network_kernel reads the data X in float64 on the mpmath path too.  Observed: "
            "Setup(('0.7', '1.3'), [[0.1, 0.3], [0.2, -0.4]], ...) with mpf weights: the "
            "kernel 2.25e-17 off from ntk at 30 digits (unmutated: 0), still an object "
            "array; float64 states and dyadic X unchanged"
        ),
        tests=[*_T_NTK, "tests/test_exact_kernel_distance.py"],
        claims=[],
    ),
    # ------------------------------------------------------------ spectral.py
    dict(
        name="stop53_deep_linear.at_inf_state_time",
        seed="001",
        backend="numpy",
        file=_SPECTRAL,
        old="st = state_of(self.setup, math.inf if inf else tt, Ws, self.dps)",
        new="st = state_of(self.setup, tt, Ws, self.dps)",
        why=(
            "at('inf') records the placeholder time 0 instead of inf in its state.  "
            "Observed: closed_form(CASES[0]).at('inf').t = 0.0 instead of inf (the weights "
            "those of the limit), while sample(['inf', 1.0]).t stays [inf, 1.0]: at and "
            "sample disagree in t"
        ),
        tests=[
            "tests/test_deep_linear_spectral.py",
            "tests/test_deep_linear_sample_f64.py",
            "tests/test_deep_linear.py",
        ],
        claims=[],
    ),
    # ------------------------------------------------------------ exact_gram.py
    dict(
        name="stop53_deep_linear.dyadic_float_exponent",
        seed="core",
        backend="mpmath",
        file=_GRAM,
        old="raw.append((int(man * 2**53), exp - 53, 53))",
        new="raw.append((int(man * 2**53), exp - 52, 53))",
        why=(
            "_dyadic's exponent of a Python float off by one (frexp's mantissa scaled by "
            "2^53 but the exponent lowered by 52): every float entry doubled.  Observed: "
            "exact_matmul([[1.0, -2.0, 3.0], [mpf(0.1), 0, 0]], [mpf(-0.25), 1.5, mpf(0)]) "
            "= [-12.5, -0.025] instead of [-3.25, -0.025]; the float vector's dot with "
            "itself 9.0625 instead of 2.3125; _dyadic([[0.75, -3.0]]) exponent -52 for "
            "-53; mpf-only products (deep_linear.modes) unchanged"
        ),
        tests=_T_GRAM,
        claims=[],
    ),
    dict(
        name="stop53_deep_linear.to_fraction_mpf_sign",
        seed="core",
        backend="mpmath",
        file=_GRAM,
        old="return -mag if value < 0 else mag",
        new="return mag",
        why=(
            "to_fraction drops a negative mpf's sign (man_exp gives the magnitude).  "
            "Observed: to_fraction(mpf(-0.375)) = 3/8; closed_form of CASES[1] and CASES[2] "
            "at dps=30 (mpf weights: the exact balance check) refused 'weights must be "
            "balanced ... max|D_1| = 0.0825' instead of solved (loss(1.5) 1.1596...); "
            "float64 starts and floats unchanged"
        ),
        tests=[*_T_GRAM, "tests/test_deep_linear_spectral.py"],
        claims=[_SPECTRAL_CLAIM],
    ),
]
