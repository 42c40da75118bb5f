"""Mutants of the code added by ``6e26709`` (kernel distance measures) and ``b4398f0`` /
``74ac253`` (the general Delta proof):

* ``numerics/measures.py``: ``_unit`` (each batch element over its Frobenius norm, scaled
  by a power of two first), ``_finite_nonzero`` (the refusals), ``kernel_distance`` /
  ``_kernel_distance`` (``S = |K^ - K0^|^2 / 2``), ``task_alignment`` (``y^T K y / (|K||y|^2)``)
  and ``record_kernel_distance`` (the recorder, ``K0`` looked up by ``rows``);
* ``solvable/models/kunin/wide_proofs.py``: ``_wide_Delta_general`` (the claim
  ``kunin.wide_Delta_general``: d Delta/dt the ZeroMatrix for MatrixSymbols of symbolic
  sizes, the typed loss, Delta and gradients tied to ``wide_loss``, ``_wide_balance`` and
  ``wide_flow`` on (n, d, h, c) = (3, 2, 2, 4)).

Written by an outside reviewer (a helper session) who read the code but not the tests; the
test hints were filled in by file name only.  Each is one replacement at one place.  ``why``
is what the reviewer observed with the mutant applied to a copy of ``6e26709`` (small probes,
no test run, the unmutated copy first, where every probe gave the expected answer).  The
probes: B = 3, n = 4, float64 random K (asymmetric) and Gram matrices G G^T (symmetric),
``kernel_distance`` against 1 - cos at 50 digits (also on (B, m) inputs, at scales 1e-200
and 1e200 of both or of K only, a lazy K0 + 1e-12 K, K vs K and -K, I vs diag(1..4)), its
refusals (a zero or nan batch element of K or K0); ``task_alignment`` against 50 digits for
(B, n) and (n,) y, K = 3 y y^T, scaled 1e200 / 1e-200, y float32 with K float64, the shape
and zero / non-finite refusals; ``record_kernel_distance`` of ``numerics.models.WideTwoLayer``
(X 3 x 2, tanh, B = 4, p = 5) at rows (2, 0), all rows, p0 itself, a given X, and its
refusals (zero X, a zero or nan batch element of p0); ``_wide_Delta_general()`` as is, with
``_wide_balance`` given the etas swapped, and with ``wide_flow`` replaced by the flow of
``_wide_loss`` with the rate of A (or of W) doubled (each 'failed' unmutated).

Probed and left out: the einsum written ``"bj,bij,bi->b"`` (K transposed: y^T K^T y is the
same scalar for every K, symmetric or not: equivalent); ``y.to(K.dtype)`` dropped (mixed
float32 / float64 inputs: a RuntimeError from einsum, crash only); the substitution of the
sizes ``c: 4`` as ``c: 2`` (the explicit matrices carry their shapes: still proved, 18
residuals, equivalent); ``wide_flow(2, 2, 2, 2)`` (a square instance, the rest of the
function left at (3, 2, 2, 4): a ShapeError, crash only); ``isinstance(e, sp.MatrixSymbol)``
in ``_explicit`` (still proved, same verdicts); the (B, n) / (n,) shape test of y by its last
axis only (a (1, n) y accepted with the right value, a (B + 1, n) y a RuntimeError from
``expand``: crash only); the residual list overwritten by the dW entries (``residuals = [``:
proved with 5 residuals, but a doubled rate of A not seen; overlaps ``dW_copy_paste``);
the zero test with ``any`` for ``all`` (identity or diagonal kernels refused); ``isnan``
for ``~isfinite`` (an inf K gives nan instead of a refusal).  Format: see
``benchmarks/mutation.py``."""

_MEASURES = "numerics/measures.py"
_PROOFS = "solvable/models/kunin/wide_proofs.py"
# the test hints (by file name; the reviewer did not open them)
_TESTS_KD = ["tests/test_kernel_distance.py", "tests/test_fuzz_every_entry_point.py"]
_TESTS_DELTA = ["tests/test_wide_delta_general.py", "tests/test_registry.py"]
_CLAIMS = ["kunin.wide_Delta_general"]

MUTANTS = [
    # ------------------------------------------------------------ measures.py
    dict(
        name="kernel_distance_and_delta_general.kd_half_dropped",
        seed="core",
        backend="torch",
        file=_MEASURES,
        old="dim=tuple(range(1, K.ndim))) ** 2 / 2",
        new="dim=tuple(range(1, K.ndim))) ** 2",
        why=(
            "S = |K^ - K0^|^2 without the 1/2 (twice 1 - cos).  Observed: kernel_distance "
            "twice the 50-digit reference (relative error 1.0) for every probe, scaled or "
            "not; K vs -K gives 4 (outside [0, 2]); the recorder twice ntk's distance; "
            "K vs K still 0 and the refusals unchanged"
        ),
        tests=_TESTS_KD,
        claims=[],
    ),
    dict(
        name="kernel_distance_and_delta_general.kd_unit_norm_over_batch",
        seed="core",
        backend="torch",
        file=_MEASURES,
        old="    dims = tuple(range(1, K.ndim))\n    top",
        new="    dims = tuple(range(K.ndim))\n    top",
        why=(
            "the norm (and the power-of-two scale) taken over the batch axis too: each "
            "element divided by the norm of the whole batch.  Observed: kernel_distance off "
            "by 78-88 % (asymmetric, Gram, (B, m) inputs, lazy), K vs -K (0.97, 0.27, 0.76) "
            "instead of 2; task_alignment off by 88-94 %, K = 3 y y^T gives (0.08, 0.61, "
            "0.02) instead of 1; the recorder's numbers change (it agrees with the mutated "
            "kernel_distance).  Right for B = 1 only"
        ),
        tests=_TESTS_KD,
        claims=[],
    ),
    dict(
        name="kernel_distance_and_delta_general.kd_scaled_by_plus_e",
        seed="core",
        backend="torch",
        file=_MEASURES,
        old="torch.exp2((-e - half).to(K.dtype))",
        new="torch.exp2((e - half).to(K.dtype))",
        why=(
            "the second power-of-two factor with e for -e: each element scaled by 2^e "
            "instead of 2^-e (by top^2 instead of 1/top).  Observed: every probe at unit "
            "scale unchanged (the norm divides the factor out), but kernel_distance nan at "
            "scales 1e-200 and 1e200 (of both, or of K only) and task_alignment nan at "
            "K 1e200 / y 1e-200 and K 1e-200 / y 1e200 (under- / overflow to 0/0, inf/inf)"
        ),
        tests=_TESTS_KD,
        claims=[],
    ),
    dict(
        name="kernel_distance_and_delta_general.record_rows_as_prefix",
        seed="core",
        backend="torch",
        file=_MEASURES,
        old="_kernel_distance(ntk(model, p, data), K0[rows.to(K0.device)])",
        new="_kernel_distance(ntk(model, p, data), K0[: len(rows)])",
        why=(
            "the recorder compares with the first len(rows) initial kernels instead of "
            "those of the batch elements rows.  Observed: at rows (2, 0) S = (0.207, "
            "0.054) instead of (0.00148, 0.00131) (kernel_distance of ntk at the same "
            "rows); all rows (arange(4)) and p0 itself (0) unchanged"
        ),
        tests=_TESTS_KD,
        claims=[],
    ),
    dict(
        name="kernel_distance_and_delta_general.ta_in_y_dtype",
        seed="core",
        backend="torch",
        file=_MEASURES,
        old='Kh, yh = _unit("K", K), _unit("y", y.to(K.dtype))',
        new='Kh, yh = _unit("K", K.to(y.dtype)), _unit("y", y)',
        why=(
            "K converted to y's dtype instead of y to K's.  Observed: float64 K with "
            "float32 y gives a float32 alignment, 6e-8 from the 50-digit reference "
            "(1e-16 before); float32 K with float64 y a float64 result; same-dtype inputs "
            "unchanged"
        ),
        tests=_TESTS_KD,
        claims=[],
    ),
    dict(
        name="kernel_distance_and_delta_general.ta_einsum_index",
        seed="core",
        backend="torch",
        file=_MEASURES,
        old='"bi,bij,bj->b"',
        new='"bi,bij,bi->b"',
        why=(
            "sum_ij y_i K_ij y_i (the row sums of K weighted by y^2) for y^T K y.  "
            "Observed: task_alignment off by 78 % (Gram K, (B, n) and (n,) y, all scales) "
            "and 228 % (asymmetric K); K = 3 y y^T gives (0.97, 0.27, 1.10) instead of 1 "
            "(outside [-1, 1]); the refusals unchanged"
        ),
        tests=_TESTS_KD,
        claims=[],
    ),
    dict(
        name="kernel_distance_and_delta_general.kd_K0_checked_as_K",
        seed="core",
        backend="torch",
        file=_MEASURES,
        old='_finite_nonzero("K0", K0)',
        new='_finite_nonzero("K0", K)',
        why=(
            "the second check on the wrong argument: K checked twice, K0 never.  Observed: "
            "a K0 with a zero batch element gives S = (0, nan, 0), a K0 with a nan entry "
            "(0, 0, nan), instead of the ValueErrors naming K0; K's refusals, every value "
            "and the recorder (its own check of p0) unchanged"
        ),
        tests=_TESTS_KD,
        claims=[],
    ),
    dict(
        name="kernel_distance_and_delta_general.zero_only_whole_batch",
        seed="core",
        backend="torch",
        file=_MEASURES,
        old="zero = (value == 0).reshape(value.shape[0], -1).all(-1)",
        new="zero = (value == 0).reshape(value.shape[0], -1).all()",
        why=(
            "the zero test over the whole batch (all(), not all(-1)): a zero batch element "
            "among non-zero ones is not refused.  Observed: kernel_distance with a zero "
            "element of K or K0 returns nan there ((0.38, nan, 0.17), (0, nan, 0)); "
            "task_alignment with a zero y or K element (0.31, nan, 0.42); "
            "record_kernel_distance accepts a p0 with a zero batch element; an all-zero "
            "input (y = 0 as (n,), X = 0 in the recorder) an IndexError instead of the "
            "ValueError"
        ),
        tests=_TESTS_KD,
        claims=[],
    ),
    # ------------------------------------------------------------ wide_proofs.py
    dict(
        name="kernel_distance_and_delta_general.delta_zero_test_inverted",
        seed="003",
        backend="sympy",
        file=_PROOFS,
        old="if not isinstance(rate, sp.ZeroMatrix):",
        new="if isinstance(rate, sp.ZeroMatrix):",
        why=(
            "the ZeroMatrix test inverted.  Observed: _wide_Delta_general() 'failed' with "
            "'d Delta/dt = 0 for general shapes, not 0' (no residuals), and the same for "
            "every monkeypatched variant (the typed part never reached)"
        ),
        tests=_TESTS_DELTA,
        claims=_CLAIMS,
    ),
    dict(
        name="kernel_distance_and_delta_general.delta_dW_copy_paste",
        seed="003",
        backend="sympy",
        file=_PROOFS,
        old="residuals += [dW_i[i, j] - field[Wi[i, j]]",
        new="residuals += [dA_i[i, j] - field[Ai[i, j]]",
        why=(
            "the dW line copy-pasted from the dA line and not updated: the first columns "
            "of dA compared twice, dW never compared with wide_flow's field.  Observed: "
            "'proved' with 18 residuals as before; with wide_flow replaced by the flow with "
            "W's rate doubled still 'proved' (before: 'failed', a non-zero eta_w residual); "
            "A's rate doubled, the etas of _wide_balance swapped still 'failed'"
        ),
        tests=_TESTS_DELTA,
        claims=_CLAIMS,
    ),
    dict(
        name="kernel_distance_and_delta_general.delta_failure_as_proved",
        seed="003",
        backend="sympy",
        file=_PROOFS,
        old='return Verdict("failed", f"the typed forms differ',
        new='return Verdict("proved", f"the typed forms differ',
        why=(
            "the branch for typed forms that differ from the package's returns 'proved'.  "
            "Observed: the plain claim unchanged ('proved', 18 residuals), but with "
            "_wide_balance given the etas swapped, or wide_flow with A's or W's rate "
            "doubled, 'proved' with the detail 'the typed forms differ ... non-zero "
            "residual' and no residuals (before: 'failed')"
        ),
        tests=_TESTS_DELTA,
        claims=_CLAIMS,
    ),
    dict(
        name="kernel_distance_and_delta_general.delta_typed_Delta_etas_swapped",
        seed="003",
        backend="sympy",
        file=_PROOFS,
        old="return loss, dA, dW, ew * A * A.T - ea * W * W.T",
        new="return loss, dA, dW, ea * A * A.T - ew * W * W.T",
        why=(
            "the typed Delta written eta_a A A^T - eta_w W W^T (the general rate line, "
            "written out separately, still right).  Observed: _wide_Delta_general() "
            "'failed' ('the typed forms differ ... non-zero residual eta_a*(W_0_0**2 + "
            "...)'), and 'proved' (18 residuals) with _wide_balance's etas swapped"
        ),
        tests=_TESTS_DELTA,
        claims=_CLAIMS,
    ),
]
