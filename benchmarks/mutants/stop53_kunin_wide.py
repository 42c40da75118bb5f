"""Mutants of seed 003's wide net (Kunin et al., Part II) as changed in this session: the
exact solution on inputs that are not whitened (``solvable/models/kunin/wide_aligned_data.py``:
the alignment decision and the reduced balance; ``wide_aligned.py``: the alignment tolerance
and :class:`AlignedWideTrajectory`'s map back to the original data), the dispatch and the
50-digit balance check of ``wide_closed_form`` (``wide.py``, with ``exact_matmul``) and the
``out=`` checks of ``WideTrajectory.sample``, the float64 sample engine
(``wide_sample.py``: ``write_ntk``, ``first_not_finite``, ``check_out``), the public generated
evaluators (``generated.py``: the ``t`` checks and the torch argument checks), and the
confirmation's comparison (``solvable/verification/wide_compare.py``).

Written by an outside reviewer (a helper session) who read the code and docs/nonwhitened.md,
docs/wide_shapes.md, docs/benchmarks.md but not the tests; the test hints (``tests``) were
filled in from the test files' names only.  Each mutant is one replacement at one place (an
``and`` for an ``or``, ``<=`` for ``<``, ``>=`` for ``>``, ``> 0`` for ``>= 0``, a bound
``n - 1`` for ``n``, a mask negated, a factor left out, a matrix for its projection, a shape's
last axis, a rate swapped, a name left out of a tuple, a tolerance's exponent).  ``why`` is
what the reviewer observed with the mutant applied to a scratch copy of ``f8c2fc8`` (small
probes, each run on the unmutated copy first, where every probe gave the expected answer).

The probes: the eight starts of ``verification.wide_aligned_oracle.wide_aligned_cases`` in
float64 against ``numerics.simulate(..., method="scipy")`` at t = 0, 0.3, 1, 4 (unmutated:
beta, loss, A, W within 2.4e-14) and the NTK of the first one at t = 1 against
``ntk_of_output`` (1.1e-16); a start with W0 entirely in ker X on ``RANK2`` (X^T X = 4 P) with
a nonzero target; an h = 2 start on ``RANK2`` whose W_N W_N^T is not a multiple of I but whose
reduced balance holds (delta 1.6, delta_E 2.0); s = 9 data (``X = 3/2 RANK2``, so rho = s/r^2
= 9/16 != 1) against scipy; ``alignment_rtol = 1``; an unbalanced whitened h = 2 start
(A0 = diag(1, 2), eta_w = 1, W0 = 0: Delta = diag(1, 4)); ``wide_ntk_stack`` against
``reduction._wide_ntk_array`` byte for byte (gram_a with +0 and -0 entries, an X row of
negatives, blocks of 2 MiB, 64 and 200 bytes; a nan in gram_w at one time);
``ntk_bounded`` and ``first_not_finite`` at the float64 edge; ``WideTrajectory.sample(...,
out=earlier)`` for h = 1 (c = 2, d = 3) and for an h = 2 trajectory that does not determine
A, W; the public ``wide_evaluators`` / ``evaluators`` for numpy, mpmath and torch (t = 0, t
< 0, t = inf, an int64 tensor, ``True``, ``1e300`` among float32 tensors, ``10**400``, a meta
tensor, float32 and float64 tensors mixed with numbers); ``wide_aligned_oracle(30, cases=[two
of them])`` (unmutated: confirmed, worst 1.8e-06 tolerances, 2 s).

Probed equivalent and left out: ``r = 2^(bits(s))`` for ``2^(bits(s) // 2)`` in the virtual
setup (``r I_d, r B*`` with rates ``s/r^2 eta`` is the same field for every power of 2 ``r``,
and the loss factor ``rho r^2 = s`` with it: every float64 and dps 30 probe identical, the
oracle's worst 1.8e-06 unchanged).  Probed, not equivalent, and left out to keep
the table at 16: ``plain = q_min * g_min > 0`` without the ``p`` finite test in ``write_ntk``
(a nan in ``p``, blocks of one row: 18 nan entries where the array code has 36);
``ntk_bounded`` as ``isfinite(p_max) & isfinite(q_max g_max)`` (max|p| = 1e308 and max|q g|
= 1e308 "proved" finite); ``dtype = tensors[0].dtype`` for the promoted dtype in the torch
wrapper (``primed(float32 tensor, float64 tensor, 0.1, 0.3)`` returns float32 ``0.030000001``
for ``0.03``); ``_wide_balance(Am, Wm, ew, ea, ...)`` (the rates swapped in the 50-digit
balance check: every h = 2 aligned case refused, the h = 1 ones off by 0.1 from scipy);
``isinstance(a, bool)`` dropped from the torch number check (``True`` taken as 1.0); the
torch ``t`` check with ``|`` for ``&`` (t = -1 accepted by ``coeffs``); ``len(args) > index +
1`` in ``_times_checked`` (no ``t`` checked at all: NaN at t = -1e-300 and t = inf);
``cases is None and ...`` in ``wide_aligned_oracle`` (every named selection refused).
Format: see ``benchmarks/mutation.py``."""

_K = "solvable/models/kunin/"
_DATA = _K + "wide_aligned_data.py"
_ALIGNED = _K + "wide_aligned.py"
_WIDE = _K + "wide.py"
_SAMPLE = _K + "wide_sample.py"
_GEN = _K + "generated.py"
_COMPARE = "solvable/verification/wide_compare.py"
# the test hints (by file name; the reviewer did not open them)
_T_ALIGNED = [
    "tests/test_kunin_wide_aligned.py",
    "tests/test_kunin_nonwhitened.py",
    "tests/test_kunin_nonwhitened_edges.py",
]
_T_WIDE = ["tests/test_kunin_wide.py", "tests/test_kunin_wide_shapes.py"]
_T_SAMPLE = [
    "tests/test_kunin_wide_sample.py",
    "tests/test_kunin_wide_sample_out.py",
    "tests/test_kunin_wide_ntk_stack.py",
]
_T_TORCH = ["tests/test_kunin_torch_evaluators.py", "tests/test_backends.py"]
_T_ORACLE = [
    "tests/test_confirmation_details.py",
    "tests/test_claims_can_fail_kernels_and_flows.py",
    "tests/test_kunin_wide_aligned.py",
]
_ALIGNED_CLAIM = "kunin.wide_aligned_oracle"
_WIDE_CLAIMS = ["kunin.wide_closed_form_oracle", "kunin.wide_shapes_oracle"]

MUTANTS = [
    # ------------------------------------------------- wide_aligned_data.py: the alignment
    dict(
        name="stop53_kunin_wide.at_rest_when_either_is_zero",
        seed="003",
        backend="numpy",
        file=_K + "aligned_data.py",  # (the decision shared with the single neuron since stop 53)
        old="if q_zero and u_zero:",
        new="if q_zero or u_zero:",
        why=(
            "the at-rest shortcut (X^T Y = 0 and every row of W0 in ker X) taken when only "
            "one of them is zero.  Observed: RANK2 (X^T X = 4 P), A0 = (0.5, 0.2), W0 = 0.3 "
            "k1 + 0.1 k2 (all in ker X), targets nonzero: s reported 2.0 instead of 4.0, "
            "beta(2) = W0^T A0 frozen ((0.2, 0.08, 0.1, ...) instead of (0.497, 0.168, "
            "0.156, ...)), loss(2) 0.52 instead of 0.296; the eight oracle cases unchanged "
            "(none has W0 in ker X)"
        ),
        tests=_T_ALIGNED,
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.reduced_balance_of_the_whole_W",
        seed="003",
        backend="numpy",
        file=_DATA,
        old="DE = ew * A.dot(A.T) - ea * WE.dot(WE.T)",
        new="DE = ew * A.dot(A.T) - ea * W.dot(W.T)",
        why=(
            "the reduced balance Delta_E computed from the whole W0 (i.e. Delta(0)) instead "
            "of its part W_E off ker X.  Observed: the h = 2 RANK2 start with Delta_E = 2 I "
            "but W_N W_N^T not a multiple of I (delta 1.6) refused ('needs the reduced "
            "balance'); on the oracle cases (W_N W_N^T = m^2 I) every state unchanged but "
            "delta_reduced reported as delta: 0.51 for 0.6, -0.23375 for -0.19375, 1.82 for "
            "2.0, -0.125 for 0.0"
        ),
        tests=_T_ALIGNED,
        claims=[],
    ),
    # ------------------------------------------------- wide_aligned.py: the trajectory
    dict(
        name="stop53_kunin_wide.loss_without_rho",
        seed="003",
        backend="numpy",
        file=_ALIGNED,
        old='loss = k["floor"] + k["rho"] * red.loss',
        new='loss = k["floor"] + red.loss',
        why=(
            "the virtual setup's loss (scaled by r^2 = s / rho) mapped back without the "
            "factor rho = s / r^2.  Equivalent wherever s is a power of 4 (rho = 1: the "
            "oracle's data, s = 4, and every oracle case unchanged).  Observed: s = 9 data "
            "(X = 3/2 RANK2, rho = 9/16), h = 1 start: loss at t = 0, 0.5, 2 0.7624, 0.2142, "
            "0.2133 instead of scipy's 1.5280, 0.2945, 0.2924 (unmutated: equal to 10 digits)"
        ),
        tests=_T_ALIGNED,
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.alignment_rtol_one_accepted",
        seed="003",
        backend="numpy",
        file=_ALIGNED,
        old="if not rtol < 1:",
        new="if not rtol <= 1:",
        why=(
            "the alignment tolerance's bound on the wrong side: alignment_rtol = 1 (every "
            "relative defect <= 1 passes: no alignment check left) accepted.  Observed: "
            "wide_closed_form(RANK2 setup, ..., alignment_rtol=1) returns an "
            "AlignedWideTrajectory instead of 'alignment_rtol must be in [0, 1), got 1'"
        ),
        tests=_T_ALIGNED,
        claims=[],
    ),
    # ------------------------------------------------- wide.py: the dispatch and out=
    dict(
        name="stop53_kunin_wide.balance_diagonal_against_itself",
        seed="003",
        backend="numpy",
        file=_WIDE,
        old=(
            "dev = max(abs(Dl[i, j] - (delta_x if i == j else 0)) for i in range(h) for j "
            "in range(h))"
        ),
        new=(
            "dev = max(abs(Dl[i, j] - (Dl[i, i] if i == j else 0)) for i in range(h) for j "
            "in range(h))"
        ),
        why=(
            "the 50-digit balance check's diagonal compared with itself instead of the mean "
            "delta (only the off-diagonal of Delta checked).  Observed: the whitened h = 2 "
            "start with eta_w A0 A0^T = diag(1, 4), W0 = 0 (Delta = diag(1, 4), not delta "
            "I) accepted with delta = 2.5 instead of refused ('needs Delta(0) = ... = delta "
            "I_h'); balanced starts unchanged"
        ),
        tests=[*_T_WIDE, "tests/test_kunin_edges.py", "tests/test_kunin_wide_aligned.py"],
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.out_weights_need_both",
        seed="003",
        backend="numpy",
        file=_WIDE,
        old='weights = self.h == 1 or self._data.get("decoupled") is not None',
        new='weights = self.h == 1 and self._data.get("decoupled") is not None',
        why=(
            "which trajectories determine A, W (for the out= check) with 'and' for 'or': h "
            "= 1 (whose decoupled rows are None) taken as not determining them.  Observed: "
            "an h = 1 whitened trajectory (c = 2, d = 3): sample([0, 1, inf], out=an "
            "earlier sample) refused ('out.A must be a writeable object array of shape "
            "(3,) ...') instead of filled in place"
        ),
        tests=["tests/test_kunin_wide_sample_out.py", "tests/test_kunin_wide_sample.py"],
        claims=[],
    ),
    # ------------------------------------------------- wide_sample.py: the float64 engine
    dict(
        name="stop53_kunin_wide.write_ntk_plain_with_zero_products",
        seed="003",
        backend="numpy",
        file=_SAMPLE,
        old="plain = (q_min * g_min > 0) & np.isfinite(p).reshape(T, -1).all(axis=1)",
        new="plain = (q_min * g_min >= 0) & np.isfinite(p).reshape(T, -1).all(axis=1)",
        why=(
            "the fast path (no '+ p * 0' off the diagonal) taken also where some q g "
            "product is a zero.  Observed: wide_ntk_stack with gram_a holding +0 and -0 "
            "entries and an X row of negatives: the values equal, but the bytes differ "
            "from reduction._wide_ntk_array (signed zeros: max difference 0.0) at every "
            "block size (2 MiB, 64, 200), where unmutated they are identical"
        ),
        tests=_T_SAMPLE,
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.write_ntk_last_row_skipped",
        seed="003",
        backend="numpy",
        file=_SAMPLE,
        old="i1 = min(n, i0 + rows)",
        new="i1 = min(n - 1, i0 + rows)",
        why=(
            "the row block's end clipped at n - 1: the NTK's last input row i = n - 1 never "
            "written (left as np.empty's garbage).  Observed: wide_ntk_stack against "
            "_wide_ntk_array off by up to 8.4, 14.4, 20.5 (block sizes 2 MiB, 64, 200 "
            "bytes); 48 nan entries for 64; the aligned oracle case 'rank 2, h = 2 "
            "decoupled, delta_E < 0' sampled in float64 refused ('the state's ntk exceeds "
            "the float64 range')"
        ),
        tests=[*_T_SAMPLE, "tests/test_kunin_wide_aligned.py"],
        claims=[],  # (the oracle runs at dps 30: object arrays take the array code)
    ),
    dict(
        name="stop53_kunin_wide.ntk_scanned_where_proved",
        seed="003",
        backend="numpy",
        file=_SAMPLE,
        old="for t in np.flatnonzero(~ntk_proved):",
        new="for t in np.flatnonzero(ntk_proved):",
        why=(
            "the NTK scanned at the times where its finiteness is proved instead of where "
            "it is not.  Observed: first_not_finite with an infinite NTK at time 1 and "
            "ntk_proved = (True, False): None instead of (1, 'ntk') (the overflow passes "
            "unreported); with ntk_proved = (True, True): (1, 'ntk') instead of None"
        ),
        tests=_T_SAMPLE,
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.check_out_W_shape_with_c",
        seed="003",
        backend="numpy",
        file=_SAMPLE,
        old="shapes.update(A=(T, h, c), W=(T, h, d))",
        new="shapes.update(A=(T, h, c), W=(T, h, c))",
        why=(
            "out.W's expected shape with c (outputs) for d (inputs).  Observed: an h = 1 "
            "whitened trajectory with c = 2, d = 3: sample(times, out=an earlier sample) "
            "refused ('out.W must be a writeable float64 array of shape (3, 1, 2) ... got "
            "shape (3, 1, 3)'); c = d setups unchanged"
        ),
        tests=["tests/test_kunin_wide_sample_out.py", "tests/test_kunin_wide_sample.py"],
        claims=[],
    ),
    # ------------------------------------------------- generated.py: the public evaluators
    dict(
        name="stop53_kunin_wide.t_zero_refused",
        seed="003",
        backend="numpy",
        file=_GEN,
        old="return bool(np.all(np.isfinite(values) & (values >= 0)))",
        new="return bool(np.all(np.isfinite(values) & (values > 0)))",
        why=(
            "the numpy/float t check with > 0 for >= 0.  Observed: wide_evaluators('numpy')"
            "['plus'](1.0, 0.0) a ValueError ('t must be finite and >= 0') instead of (1.0, "
            "0.0); t < 0, t = inf, mpmath and torch tensors unchanged"
        ),
        tests=[*_T_TORCH, "tests/test_kunin.py"],
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.echelon_t_unchecked",
        seed="003",
        backend="numpy",
        file=_GEN,
        old='_TIMED = ("coeffs", "deviation", "plus", "minus", "echelon")',
        new='_TIMED = ("coeffs", "deviation", "plus", "minus")',
        why=(
            "the echelon evaluator left out of the functions whose t is checked.  "
            "Observed: wide_evaluators('numpy')['echelon'](1.0, 2.0, inf) returns (0.0, "
            "nan) (and torch (tensor(0.), tensor(nan))) instead of the ValueError naming t; "
            "plus / minus / coeffs unchanged"
        ),
        tests=[*_T_TORCH, "tests/test_kunin.py"],
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.integer_tensor_accepted",
        seed="003",
        backend="torch",
        file=_GEN,
        old="if not a.is_floating_point():",
        new="if a.is_complex():",
        why=(
            "the torch wrapper refusing only complex tensors instead of every non-floating "
            "one.  Observed: wide_evaluators('torch')['plus'](tensor([1, 2]) (int64), 0.5) "
            "returns (tensor([1., 1.]), tensor([0., 0.])) (the generated code on integers) "
            "instead of 'k must be a floating tensor or a real number, got a tensor of "
            "dtype torch.int64'"
        ),
        tests=_T_TORCH,
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.number_beyond_dtype_range_accepted",
        seed="003",
        backend="torch",
        file=_GEN,
        old="if out is None or (math.isfinite(number) and not bool(torch.isfinite(out))):",
        new="if out is None:",
        why=(
            "a finite number beyond the tensors' dtype range no longer refused (only "
            "Python's float overflow is).  Observed: wide_evaluators('torch')['p_inf']"
            "(float32 tensor 1.0, 1e300) returns tensor(0.) (kappa = inf in float32) "
            "instead of 'kappa must be within the range of torch.float32'; 10**400 still "
            "refused"
        ),
        tests=_T_TORCH,
        claims=[],
    ),
    # ------------------------------------------------- wide_compare.py: the confirmation
    dict(
        name="stop53_kunin_wide.compare_tolerance_ten_digits_short",
        seed="003",
        backend="mpmath",
        file=_COMPARE,
        old="rtol = 10.0 ** -(dps - 5)",
        new="rtol = 10.0 ** -(dps - 15)",
        why=(
            "the wide oracles' tolerance 10^-(dps - 15) instead of 10^-(dps - 5): the "
            "comparison 10^10 times weaker (at dps 30 it could not tell a float64 closed "
            "form from an exact one).  Observed: wide_aligned_oracle(30, two cases): "
            "tolerance rtol 1e-15 instead of 1e-25, worst 1.8e-16 tolerances instead of "
            "1.8e-06 (still confirmed; an error of 1e-16 relative would now pass at dps 30)"
        ),
        tests=_T_ORACLE,
        claims=[],
    ),
    dict(
        name="stop53_kunin_wide.reference_ntk_rates_swapped",
        seed="003",
        backend="mpmath",
        file=_COMPARE,
        old=("cols += [(eta_w, kunin.wide_output(A, E, X).ravel()) for E in units(W.shape)]"),
        new=("cols += [(eta_a, kunin.wide_output(A, E, X).ravel()) for E in units(W.shape)]"),
        why=(
            "the reference NTK's W columns weighted by eta_a instead of eta_w.  Observed: "
            "wide_aligned_oracle(30, two cases, eta_a = 1 or 2, eta_w = 1/2): failed, worst "
            "4.8e+24 tolerances (the h = 1 case's ntk at t = 4) instead of confirmed at "
            "1.8e-06"
        ),
        tests=_T_ORACLE,
        claims=[_ALIGNED_CLAIM, *_WIDE_CLAIMS],
    ),
]
