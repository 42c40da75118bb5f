"""Mutants of the deep linear network (``solvable/models/deep_linear/``): the exact solution
from balanced task-aligned starts (``strength.py``: one mode's ``t(u)`` inverted on a proved
bracket, ``expressions.py``: the sympy source of ``T_+-``, ``spectral.py``: the folded rate and
``t = inf``, ``modes.py``: the balance check and the mode records), the two-layer unbalanced
solution (``unbalanced.py``: a kunin single neuron per mode), the raw flow
(``system.py``), the conservation laws (``conserved.py``), ``Setup`` (``setups.py``) and the
testing oracle (``solvable/verification/testing.py``, ``_DeepLinear``).

Written by an outside reviewer (a helper session) who read the code but not the tests; the
test hints (``tests``) were filled in from the test files' names only, as the maintainer
asked.  Each mutant is one replacement at one place, the kind of slip a developer makes (an
exponent's sign, a factor ``a = 2 - 2/L`` left out, an absolute tolerance for a relative one,
``2/L`` in float on the mpmath branch, the limit of a decaying mode, an alternating series'
sign rule, ``+ log L`` for ``- log L``, the arithmetic mean for the geometric one, an
off-by-one in a loop bound, a bracket bound with the wrong exponent, a layer index, a sum's
range, a wrong argument order, a transposed outer product, rates counted from the output, a
pair's rates swapped, a refusal loosened, an ``isinstance`` list missing a type, the layers
taken from the wrong end).  ``why`` is what the reviewer observed with the mutant applied to
a copy of ``3a1dd44`` (small probes, each run on the unmutated copy first, where every probe
gave the expected answer).

The probes: the four starts of ``confirmations.deep_linear.CASES`` (``spectral_start``,
float64) at t = 0.3, 1.5, 4 and ``inf``: ``strengths(t)``, every weight against
``numerics.simulate(..., method="scipy")`` (unmutated: within 1.2e-13), the loss at
``"inf"`` and at ``mpmath.mpf("inf")``; far modes (``X_WHITE``, strengths ``(3, -2.5)``: a
mode shrinking from ``z0 > 2`` and one decaying from ``x0 > 2``, L = 2 and 3) against scipy
and at dps 40; an exact ``s = 0`` mode (``X = I``, ``Y = [[1, 0], [0, 0]]``, ``W_l =
diag(0.5, 0.4)``, equal rates, L = 2 and 3); float64 against dps 40 (rates (1, 0.5, 2):
strengths ``(1e-12, 2e-13)`` at t = 1.5, ``(0.05, 0.3)`` at t = 4 where ``s/lambda - u`` is
6e-11 and 6e-12); the two ``confirmations.deep_linear.UNBALANCED`` starts against scipy;
refusals (an L = 3 start unbalanced in its top pair, ``X^T X`` not aligned, ``Setup`` with
one rate, ``kappa t`` underflowing in float64); the nine laws' time derivatives at a rational
point; ``expressions.derivative_residual(L, +-1)`` at ``v = 0.3`` (L = 2, 3, 4, 5, 8); the
oracle ``testing.deep_linear`` (exact blocks, a gradient-descent trajectory at lr 0.01 with
``compare(..., lr=0.01)``); a torch ``simulate`` against the closed form.

Probed equivalent and left out: ``min(w0, 0) - kt * 2`` for ``- kt * 2**a`` in the shrink
branch's lower bound (every probe identical: the bound is only a floor under the proved
Groenwall bound); ``hi = w0 - 2 * kt`` for the L = 2 decay branch's upper bound (the
outward widening puts the root back inside: float64 values change in the last digit only,
e.g. -0.06531810484681078 -> ...080 against mpmath's ...0796, mpmath unchanged).  Probed, not
equivalent, and left out to keep the table at 20: ``rho = (u / u0) ** (1 / self.setup.L)`` on
the mpmath branch (a ``W_L ... W_1`` mode strength off by 1.5e-16 relative at dps 30 instead
of 4e-32); ``np.outer(m.r[l], m.r[l + 1])`` in the layer parts (every non-square start
raises a broadcasting ``ValueError``); ``range(self.setup.L - 1)`` in ``at`` (the output
layer never moves: loss at inf 1.46 instead of 0.47); the alignment check's ``rtol * scale``
loosened to ``scale`` (a non-aligned ``X`` accepted); ``sgn_s`` for ``-sgn_s`` in the decaying
branch (the decaying mode flips sign); ``check_weights``' ``rows`` on ``W_{L-1}`` (valid
starts refused); ``spectral_start``'s ``(|u|/root)^(1/L)`` (the product's strength 0.2236 for
0.05); the float64 ``kappa t`` refusal without ``0 <``; ``real = -log(1 + V)`` at even L (T_-
wrong at every depth).  Format: see ``benchmarks/mutation.py``."""

_DL = "solvable/models/deep_linear/"
_STRENGTH = _DL + "strength.py"
_SPECTRAL = _DL + "spectral.py"
_MODES = _DL + "modes.py"
_EXPR = _DL + "expressions.py"
_UNBALANCED = _DL + "unbalanced.py"
# the test hints (by file name; the reviewer did not open them)
_T = [
    "tests/test_deep_linear.py",
    "tests/test_deep_linear_spectral.py",
    "tests/test_deep_linear_edges.py",  # (added by the maintainer after the first run)
]
_SPECTRAL_CLAIM = "deep_linear.spectral_vs_flow"
_UNBALANCED_CLAIM = "deep_linear.two_layer_unbalanced_vs_flow"

MUTANTS = [
    # ------------------------------------------------------------ strength.py: t(u), inverted
    dict(
        name="deep_linear_exact.kappa_lambda_exponent_sign",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="kappa = L * eta * lam ** (m.mpf(2) / L - 1) * abs(s) ** a",
        new="kappa = L * eta * lam ** (1 - m.mpf(2) / L) * abs(s) ** a",
        why=(
            "the exponent of lambda in kappa = L eta lambda^(2/L-1) |s|^(2-2/L) with its "
            "sign flipped (the same at L = 2, where it is 0).  Observed: CASES[1] (L = 3, "
            "lambda = 4) u(0.3) (0.0233, 0.530) instead of (0.0752, 0.132), the weights off "
            "by 0.39 from scipy's flow; CASES[2] (L = 4) off by 0.41; CASES[3] (aligned, "
            "lambda 4 and 1) off by 0.037; the oracle's gradient-descent compare fails; "
            "CASES[0] (L = 2) unchanged"
        ),
        tests=_T,
        claims=[_SPECTRAL_CLAIM],
    ),
    dict(
        name="deep_linear_exact.s_zero_rate_without_a",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="base = abs(f.u0) ** (-a) + (2 * f.L - 2) * f.eta * f.lam * t",
        new="base = abs(f.u0) ** (-a) + f.L * f.eta * f.lam * t",
        why=(
            "the s = 0 branch's rate written L eta lambda instead of a L eta lambda = (2L - "
            "2) eta lambda (the same at L = 2).  Observed: the exact s = 0 mode (X = I, Y = "
            "[[1, 0], [0, 0]], W_l = diag(0.5, 0.4)) at L = 3, t = 1.5: u 0.05897465 instead "
            "of 0.05749612 (float64 and dps 30 alike), the weights no longer match scipy's "
            "flow; L = 2 and every mode with s != 0 unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="deep_linear_exact.grow_absolute_tolerance",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old='return 0 if branch == "grow" else 1',
        new="return 1",
        why=(
            "the growing branch's root w = log(1 - z) ~ -z found to an absolute instead of a "
            "relative tolerance.  Observed: rates (1, 0.5, 2), strengths (1e-12, 2e-13), t = "
            "1.5: float64 u relative errors against dps 40 (1.2e-7, 1.3e-8) instead of "
            "(2.7e-15, 1.9e-16); O(1) starts unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="deep_linear_exact.mode_a_float_in_mpmath",
        seed="001",
        backend="mpmath",
        file=_STRENGTH,
        old=(
            "return 2 - mpmath.mpf(2) / self.L if isinstance(self.u0, mpmath.mpf) else "
            "2 - 2 / self.L"
        ),
        new="return 2 - 2 / self.L",
        why=(
            "the exponent a = 2 - 2/L computed in float on the mpmath branch (exact only "
            "where 2/L is a binary fraction: L = 2, 4, 8).  Observed: the far modes at L = "
            "3, dps 40, t = 0.4: u 0.72767258674885369863 instead of 0.72767258674885370931 "
            "(1.5e-17 relative), 0.08715155065783250096 instead of ...3251745; the s = 0 "
            "mode at L = 3, dps 30: 0.05749612002487204831 instead of ...203921; float64 "
            "unchanged"
        ),
        tests=_T,
        claims=[_SPECTRAL_CLAIM],
    ),
    dict(
        name="deep_linear_exact.inf_decaying_mode_to_fixed_point",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="return s / lam if same else u0 * 0",
        new="return s / lam",
        why=(
            "t = inf: a mode opposite to its task sent to the fixed point s/lambda (of the "
            "other sign, which it never reaches) instead of the saddle 0.  Observed: "
            "CASES[1] (strengths (0.05, -0.3)) strengths('inf') (-0.580, 0.708) instead of "
            "(0, 0.708), loss at 'inf' and at mpf('inf') 1.3223 instead of 1.1437; every "
            "finite t unchanged (since stop 53 float64 runs the arrays' own rule in "
            "strengths(): this line is the mpmath path's, tested at 30 digits)"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="deep_linear_exact.series_alternation_rule",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="step = part if n % 2 == 0 or alt == 1 else -part",
        new="step = part if n % 2 == 0 or alt == -1 else -part",
        why=(
            "the series beyond |z| = 2 alternates for the shrinking branch instead of the "
            "decaying one.  Observed: strengths (3, -2.5) (z0 > 2, x0 > 2): L = 2, t = 0.05 "
            "u (1.406, 1.666) instead of (1.890, 1.284), t = 0.4 (0.806, 0.221) instead of "
            "(0.836, 0.162) (float64 and dps 40 alike), no longer scipy's flow; L = 3 "
            "likewise; modes with |z| < 2 throughout (every CASES start) unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="deep_linear_exact.log_d_series_log_L_sign",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="w - math.log(L) + np.log1p",
        new="w + math.log(L) + np.log1p",
        why=(
            "the float64 series of log|1 - z^(1/L)| used where e^w < 1e-8 (next to the "
            "fixed point) with + log L.  Observed: rates (1, 0.5, 2), strengths (0.05, 0.3), "
            "t = 4 (s/lambda - u = 6e-11, 6e-12): float64 u relative errors against dps 40 "
            "(9.1e-11, 7.3e-12) instead of (1.9e-17, 9.3e-17), s/lambda - u off by 89% "
            "instead of 1.9e-7 and 1.1e-5; CASES[2] against scipy 6.1e-10 instead of "
            "6.3e-14; mpmath and t where e^w >= 1e-8 unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="deep_linear_exact.grow_bracket_exponent",
        seed="001",
        backend="numpy",
        file=_STRENGTH,
        old="lo, hi = w0 - kt, w0 - kt * z0**a",
        new="lo, hi = w0 - kt, w0 - kt * z0",
        why=(
            "the growing branch's Groenwall bound with z0 for z0^a (a > 1: below the root); "
            "the outward widening then overshoots to w > 0 (z < 0), where log(1 - z) is "
            "undefined.  Observed: ModeFlow(L, 1, 1, 1, 1e-6): L = 3 at t = 3 and 40, L = 5 "
            "at t = 0.5, 3 and 40 raise ValueError 'math domain error' (float64) / "
            "TypeError 'cannot create mpf from mpc' (dps 30) instead of u = 1.0957e-6 ...; "
            "the other results change in the last digit only (1.000300059709838e-06 for "
            "...837e-06); L = 2 and starts with z0 >= 0.1 unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------ spectral.py
    dict(
        name="deep_linear_exact.eta_arithmetic_mean",
        seed="001",
        backend="numpy",
        file=_SPECTRAL,
        old="eta = mpmath.fprod(nb.to_mpf(e) for e in setup.rates) ** (mpmath.mpf(1) / setup.L)",
        new="eta = mpmath.fsum(nb.to_mpf(e) for e in setup.rates) / setup.L",
        why=(
            "the rates folded into their arithmetic instead of their geometric mean.  "
            "Observed: CASES[0] (rates (1, 0.5)) eta 0.75 instead of 0.7071, u(0.3) (0.1512, "
            "0.0534) instead of (0.1427, 0.0506), weights off by 0.018 from scipy's flow; "
            "CASES[1] eta 1.1667 for 1, off by 0.04; CASES[2] off by 0.18; the oracle's "
            "gradient-descent compare and the torch run against the closed form fail; "
            "equal rates unchanged"
        ),
        tests=_T,
        claims=[_SPECTRAL_CLAIM],
    ),
    dict(
        name="deep_linear_exact.is_inf_misses_mpf",
        seed="001",
        backend="mpmath",
        file=_SPECTRAL,
        old="if isinstance(t, (float, mpmath.mpf, np.floating)):",
        new="if isinstance(t, (float, np.floating)):",
        why=(
            "t = mpmath.mpf('inf') not recognised as the limit and checked as a finite "
            "time.  Observed: every CASES start's at(mpmath.mpf('inf')) raises ValueError "
            "\"t must be finite and >= 0, got mpf('+inf')\" instead of the limit (loss 0.47125, "
            "1.1437, 0.47125, 0.025); 'inf' and math.inf unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------ modes.py
    dict(
        name="deep_linear_exact.balance_check_skips_top_pair",
        seed="001",
        backend="numpy",
        file=_MODES,
        old="for l in range(setup.L - 1):\n        pair = (weights[l + 1]",
        new="for l in range(setup.L - 2):\n        pair = (weights[l + 1]",
        why=(
            "off by one: the balance of the top pair (W_L, W_{L-1}) is never checked, and at "
            "L = 2 none.  Observed: an L = 3 start with W3 doubled (D_2 != 0) is accepted "
            "(a SpectralTrajectory, loss(1) 0.4714) instead of the ValueError 'weights must "
            "be balanced ... D_2'; both UNBALANCED two-layer starts go to the spectral "
            "solution instead of the single neurons (W1[0, 0] at t = 1.5 1.611 instead of "
            "0.635, 0.143 instead of 0.221), no longer scipy's flow"
        ),
        tests=_T,
        claims=[_UNBALANCED_CLAIM],
    ),
    dict(
        name="deep_linear_exact.chain_u0_top_layer",
        seed="001",
        backend="numpy",
        file=_MODES,
        old="u0=mpmath.fprod(c)",
        new="u0=c[-1]",
        why=(
            "a mode's start strength taken as the top layer's strength c_L instead of the "
            "product of the c_l.  Observed: CASES[0] u(0.3) (0.386, 0.237) instead of "
            "(0.143, 0.051), weights off by 0.51 from scipy's flow and the loss at 'inf' "
            "1.476 instead of 0.47125 (rho = (u/u0)^(1/L) no longer the layers' growth); "
            "every start, the s = 0 mode and the oracle likewise"
        ),
        tests=_T,
        claims=[_SPECTRAL_CLAIM],
    ),
    # ------------------------------------------------------------ expressions.py: T_+-
    dict(
        name="deep_linear_exact.power_part_without_L",
        seed="001",
        backend="sympy",
        file=_EXPR,
        old="else L * V ** (2 - L) / (2 - L)",
        new="else V ** (2 - L) / (2 - L)",
        why=(
            "the antiderivative of L v^(1-L) written without its factor L (L >= 3; L = 2 "
            "takes 2 log v).  Observed: derivative_residual(L, +-1) at v = 0.3: 22.2 (L = "
            "3), 111 (4), 494 (5), 3.2e4 (8) instead of 0; CASES[1] (L = 3) u(0.3) (0.0115, "
            "0.384) instead of (0.0752, 0.132), weights off by 0.28 from scipy's flow; "
            "CASES[2] (L = 4) off by 0.41; L = 2 unchanged"
        ),
        tests=_T,
        claims=["deep_linear.antiderivative*", _SPECTRAL_CLAIM],
    ),
    dict(
        name="deep_linear_exact.roots_of_one_pairs_off_by_one",
        seed="001",
        backend="sympy",
        file=_EXPR,
        old="thetas = [2 * sp.pi * k / L for k in range(1, (L + 1) // 2)]",
        new="thetas = [2 * sp.pi * k / L for k in range(1, L // 2)]",
        why=(
            "the conjugate pairs of the L-th roots of 1 summed to L // 2 instead of (L + "
            "1) // 2: the last pair is lost at odd L.  Observed: derivative_residual(L, +1) "
            "at v = 0.3: 0.504 (L = 3), 1.14 (L = 5) instead of 0; CASES[1] (L = 3) u(0.3) "
            "second mode 0.1290 instead of 0.1318, off by 4.6e-3 from scipy's flow; CASES[3] "
            "off by 5.3e-3; the s = 0 mode's partner at L = 3 0.7672 for 0.7766; even L and "
            "T_- unchanged"
        ),
        tests=_T,
        claims=["deep_linear.antiderivative*", _SPECTRAL_CLAIM],
    ),
    # ------------------------------------------------------------ unbalanced.py
    dict(
        name="deep_linear_exact.neuron_rates_swapped",
        seed="001",
        backend="numpy",
        file=_UNBALANCED,
        old="kunin.Setup(setup.rates[1], setup.rates[0],",
        new="kunin.Setup(setup.rates[0], setup.rates[1],",
        why=(
            "kunin.Setup(eta_a, eta_w, ...) given the input layer's rate as eta_a (the "
            "output weight a is W2's, at rates[1]).  Observed: UNBALANCED[0] (rates (1, "
            "0.5)) W1[0, 0] at t = 1.5 0.5201 instead of 0.6353, UNBALANCED[1] (0.3, 2) "
            "0.2665 instead of 0.2214, both no longer scipy's flow; balanced starts and "
            "equal rates unchanged"
        ),
        tests=_T,
        claims=[_UNBALANCED_CLAIM],
    ),
    dict(
        name="deep_linear_exact.neuron_W2_update_transposed",
        seed="001",
        backend="numpy",
        file=_UNBALANCED,
        old="W2 = W2 + da * np.outer(m.a, m.r)",
        new="W2 = W2 + da * np.outer(m.r, m.a)",
        why=(
            "the output layer's change a_k r_k^T transposed (silent where the hidden width "
            "equals dL, as in spectral_start's default widths).  Observed: both UNBALANCED "
            "starts (hidden width 2 = dL) no longer scipy's flow, loss at 'inf' 0.4915 and "
            "0.5284 instead of 0.47125; W1 unchanged"
        ),
        tests=_T,
        claims=[_UNBALANCED_CLAIM],
    ),
    # ------------------------------------------------------------ system.py, conserved.py
    dict(
        name="deep_linear_exact.flow_rates_counted_from_output",
        seed="001",
        backend="scipy",
        file=_DL + "system.py",
        old="((widths[l], widths[l - 1]), etas[l - 1])",
        new="((widths[l], widths[l - 1]), etas[L - l])",
        why=(
            "the raw flow's layer W_l trained at eta_{L+1-l} (the rates counted from the "
            "output).  Observed: CASES[0..3] closed form against simulate(..., 'scipy') off "
            "by 0.24, 1.1, 0.60, 0.048 instead of 1e-13; both UNBALANCED starts and the far "
            "modes likewise; all nine conservation laws' time derivatives nonzero at a "
            "rational point; equal rates unchanged"
        ),
        tests=_T,
        claims=[_SPECTRAL_CLAIM, "deep_linear.D*", "deep_linear.balance_general"],
    ),
    dict(
        name="deep_linear_exact.law_rates_swapped",
        seed="001",
        backend="sympy",
        file=_DL + "conserved.py",
        old="D = balance(Ws[l], Ws[l - 1], etas[l], etas[l - 1])",
        new="D = balance(Ws[l], Ws[l - 1], etas[l - 1], etas[l])",
        why=(
            "the registered laws D_l with the pair's two rates swapped "
            "(W_{l+1}^T W_{l+1}/eta_l - W_l W_l^T/eta_{l+1}, conserved only at equal "
            "rates).  Observed: all nine laws' time derivatives nonzero at a rational point "
            "(0 unmutated); the closed form, its balance check and the flow unchanged"
        ),
        tests=_T,
        claims=["deep_linear.D*"],
    ),
    # ------------------------------------------------------------ setups.py
    dict(
        name="deep_linear_exact.setup_accepts_one_layer",
        seed="001",
        backend="numpy",
        file=_DL + "setups.py",
        old="if not 2 <= len(self.rates) <= MAX_LAYERS:",
        new="if not 1 <= len(self.rates) <= MAX_LAYERS:",
        why=(
            "the depth check loosened to L >= 1.  Observed: Setup(('1',), X_WHITE, Y) is "
            "accepted (L = 1) instead of the ValueError 'rates must have one rate per layer, "
            "2 <= L <= 12 layers, got 1'; L = 2..12 unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------ the testing oracle
    dict(
        name="deep_linear_exact.oracle_initial_layers_reversed",
        seed="001",
        backend="numpy",
        file="solvable/verification/testing.py",
        old="super().__init__(setup, weights[-1], tuple(weights[:-1]), traj, shapes)",
        new="super().__init__(setup, weights[0], tuple(weights[1:]), traj, shapes)",
        why=(
            "the oracle's out0/in0 taken from the wrong end of (W_1, ..., W_L) (out0 = W_1).  "
            "Observed: testing.deep_linear(setup, Ws) of an L = 3 start, compare(times, "
            "gradient-descent blocks, lr=0.01) raises ValueError 'out0 (W3) must have shape "
            "(2, 2), got (3, 3)' instead of passing; exact() and compare without lr "
            "unchanged"
        ),
        tests=_T,
        claims=[],
    ),
]
