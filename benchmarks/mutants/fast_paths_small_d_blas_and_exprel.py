"""Mutants of the code changed by the two commits after ``ac031c4``:

* seed 003's float64 sample ``Trajectory._sample_f64`` (then in ``solvable/models/kunin/
  single_neuron.py``, since moved to ``float64_sample.py``): the float64-safe times
  decided from the largest time (``top``), the times written chunk by chunk (``res.t[cs] =
  tf[cs]``), the per-chunk finiteness from ``_max_abs`` reductions and the merge of the two
  threads' verdicts;
* ``_w_and_beta`` of ``solvable/models/kunin/_float64.py`` (``w = cc[:, 0] bhat + cc[:, 1]
  cperp``, ``beta = a w`` on ``(d, times)`` rows up to ``_ROWS_UP_TO`` = 12, on ``(times,
  d)`` blocks above), documented to equal the reference path bit for bit;
* ``max_abs`` (``solvable/_core/arrays.py``), the numpy and torch ``exprel`` at ``+inf``,
  ``blas_threads_for`` / ``SMALL_BLAS`` and the BLAS limit inside ``fill_in_halves``
  (``solvable/_core/backends.py``);
* seed 000's ``_outer`` (``solvable/models/linear_node_scaling/_evaluators.py``) and the
  BLAS setting of ``closed_form``'s construction (``trajectory.py``).

Written by an outside reviewer (a helper session) who read the code but not the tests; the
test hints are guesses by file name, not the tests known to kill each mutant.  Each is one
replacement at one place, the kind of slip a tired developer makes (a wrong reduction, a
dropped line, ``any`` for ``all``, a wrong slice or variable, ``<=`` for ``<``, ``isinf``
for ``== inf``, a transposed einsum subscript).  ``why`` is the wrong behaviour the
reviewer observed with the mutant applied to a copy of ``HEAD`` (``e3aaeec``, all re-run at
``71cbbc6``, the kunin monkeypatches then on ``float64_sample``; small probes, no test run;
the unmutated copy first, where every probe below passed).  The probes:

* kunin: ``closed_form(Setup(0.9, 1.3, X, y), 0.7, w0)`` with ``X`` = 1.5 Q (Q from the QR
  of a normal (n, d) matrix: the loss has a frame) at (n, d) = (6, 4), (13, 12), (17, 16),
  (3, 3), (20, 8), and ``X`` = the first d columns of a Sylvester Hadamard matrix / 2
  (exactly isotropic: the loss from beta - beta*) at (8, 4), (16, 12), (16, 16), (32, 13);
  ``sample`` against ``_sample_reference`` (t, a, w, beta bit for bit, the loss to 1e-12 of
  its largest value) at 301 times in [0, 50], then with ``_BLOCK_BYTES = 256`` and
  ``_COEFFICIENT_TIMES = 64`` (many chunks and blocks) on those times followed by ``(inf,
  1e150, 3.0)`` and on the unsorted times ``(1e200, 1, 2, inf, 0.5)``, then with
  ``PARALLEL_SAMPLE = 1`` (two threads) on the 301 times followed by ``(1e150, inf)``; a
  sample into ``out=`` an earlier sample at other times.  Finiteness: ``_chunk_coefficients``
  and ``_frame_loss`` wrapped to put a nan / inf into ``z_a`` at one time, or into the loss
  at the fourth time of every chunk, at 4001 times in [0, 50] (n = 6, d = 4; one thread, and
  two threads with ``_BLOCK_BYTES = 1024``, ``_COEFFICIENT_TIMES = 512``): unmutated, each
  raises the ``ValueError`` "the state's a / loss exceeds the float64 range";
* core: ``max_abs`` of small arrays (empty, with a nan, with +-inf, all negative);
  ``_np_exprel`` and the torch ``exprel`` at ``0, +-1, +-inf, nan, 800`` and of ``[inf,
  nan]``; the BLAS ``num_threads`` (threadpoolctl, this machine: 2) inside
  ``blas_threads_for(v)`` for v = 0, SMALL_BLAS - 1, SMALL_BLAS, SMALL_BLAS + 1, and inside
  the two threads of ``fill_in_halves(fill, 100, 10, 10**6, 10)``;
* linear_node_scaling: ``closed_form(Setup(X, y, lam, "linear", 0.1), a, W0)`` at (n, d, m)
  = (5, 3, 4), (6, 4, 4), (3, 5, 2), (8, 2, 2), ``sample`` against ``_sample_reference`` at
  41 times in [0, 20]; the BLAS threads seen by ``reduced_svd`` during constructions at (n,
  d) = (20, 10), (1000, 100), (100, 1000).

Argued equivalent and left out: the block width (``width``), ``_ROWS_UP_TO`` and
``_COEFFICIENT_TIMES`` themselves (every layout and chunking gives the same bits);
``safe = inf | ok`` without ``inf`` (a time wrongly sent to the 17-digit fallback is
recomputed there exactly as the reference does); the nan test of ``max_abs`` dropped
(``np.max`` and ``np.min`` are both nan then, and ``max(nan, nan)`` is nan);
``beta_ok`` / ``w_ok`` weakened (with trusted constants a state cannot overflow, and where
an injected one does, the loss check raises first).  Crash-only and left out: ``d <
_ROWS_UP_TO`` in ``_w_and_beta`` (a broadcast error at d = 12), ``->...ji`` in ``_outer``
(a matmul shape error in ``c_t``).  Format: see ``benchmarks/mutation.py``."""

_F64 = "solvable/models/kunin/_float64.py"
_ARRAYS = "solvable/_core/arrays.py"
_BACKENDS = "solvable/_core/backends.py"
_LNS_EVAL = "solvable/models/linear_node_scaling/_evaluators.py"
_LNS_TRAJ = "solvable/models/linear_node_scaling/trajectory.py"
_KUNIN = [
    "tests/test_closed_form_scale_models.py",
    "tests/test_closed_form_scale.py",
    "tests/test_kunin.py",
    "tests/test_kunin_edges.py",
]
_KUNIN_MIN = "tests/test_kunin_loss_near_minimum.py"  # the exactly isotropic data
_CORE = [
    "tests/test_backends.py",
    "tests/test_backends_fast_paths.py",
    "tests/test_core_and_cli_details.py",
]
_THREADS = "tests/test_range_errata_threads_and_limits.py"
_LNS = [
    "tests/test_linear_node_scaling.py",
    "tests/test_linear_node_scaling_edges.py",
    "tests/test_closed_form_scale_models.py",
]

MUTANTS = [
    # ------------------------------------------------------------ kunin/single_neuron.py
    dict(
        name="kunin.fast_safe_top_is_last_time",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old="            top = float(np.max(tf, initial=0.0))\n",
        new="            top = float(tf[-1])\n",
        why=(
            "the largest time taken to be the last one (times assumed sorted): where a "
            "later time is smaller, every time is declared float64-safe, and a time beyond "
            "_F64_MAX_T = 1e100 is evaluated by the float64 chunks instead of the 17-digit "
            "fallback.  Observed: times (1e200, 1, 2, inf, 0.5) and (..., inf, 1e150, 3.0): "
            "a, w, beta differ from _sample_reference by 1e-16 - 1e-15 (at t = 1e200 / "
            "1e150) in every case; sorted times unchanged"
        ),
        tests=_KUNIN,
        claims=[],
    ),
    dict(
        name="kunin.fast_safe_top_test_or",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old=("            if top <= _F64_MAX_T and (rate * top <= _F64_MAX_EXPONENT or unstable):"),
        new=("            if top <= _F64_MAX_T or (rate * top <= _F64_MAX_EXPONENT or unstable):"),
        why=(
            "the shortcut 'every time safe' taken when either test passes: for a "
            "trajectory with an unstable coefficient (|c_+| > 1e-30 r, every random start) "
            "every time is safe whatever the largest, so t > 1e100 goes through the float64 "
            "chunks.  Observed: the 301 times followed by (1e150, inf) (two threads), (inf, "
            "1e150, 3.0) and (1e200, 1, 2, inf, 0.5): a, w, beta off the reference by "
            "1e-16 - 1e-15 at the huge times"
        ),
        tests=_KUNIN,
        claims=[],
    ),
    dict(
        name="kunin.fast_times_not_written",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old="                    res.t[cs] = tf[cs]\n",
        new="",
        why=(
            "the times never written into the output (the old res.t[...] = tf removed, its "
            "per-chunk replacement forgotten): States.t is np.empty's memory (observed: "
            "zeros from fresh pages, or leftovers such as 6.96e+227), and a sample into "
            "out= an earlier sample keeps the earlier times; a, w, beta, loss right"
        ),
        tests=_KUNIN,
        claims=[],
    ),
    dict(
        name="kunin.fast_threads_finite_any",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old=(
            'finite = {key: all(part[key] for part in parts) for key in ("a", "w", "beta", "loss")}'
        ),
        new=(
            'finite = {key: any(part[key] for part in parts) for key in ("a", "w", "beta", "loss")}'
        ),
        why=(
            "the two threads' verdicts merged with any: a state beyond float64 in one half "
            "of the times goes unreported.  Observed (PARALLEL_SAMPLE = 1, a nan or inf "
            "put into z_a at one time of either half): the sample returns one non-finite a, "
            "one loss and 4 beta entries instead of raising 'the state's a exceeds the "
            "float64 range'; one thread still raises"
        ),
        tests=_KUNIN,
        claims=[],
    ),
    dict(
        name="kunin.fast_loss_finite_last_block_only",
        seed="003",
        backend="numpy",
        file="solvable/models/kunin/float64_sample.py",
        old='finite["loss"] &= _max_abs(res.loss[cs]) < math.inf',
        new='finite["loss"] &= _max_abs(res.loss[blk]) < math.inf',
        why=(
            "the loss's finiteness read on the last block of each chunk (the loop's "
            "leftover blk) instead of the whole chunk.  Observed (_BLOCK_BYTES = 1024: "
            "blocks of 32 times in chunks of 512; an inf or a nan loss put at the fourth "
            "time of every chunk): the sample returns 8 non-finite losses instead of "
            "raising 'the state's loss exceeds the float64 range'"
        ),
        tests=_KUNIN,
        claims=[],
    ),
    # ------------------------------------------------------------ kunin/_float64.py
    dict(
        name="kunin.w_and_beta_rows_beta_of_second_term",
        seed="003",
        backend="numpy",
        file=_F64,
        old="        np.multiply(a, w.T, out=beta.T)\n",
        new="        np.multiply(a, y, out=beta.T)\n",
        why=(
            "on the (d, times) rows (d <= 12) beta = a times the scratch of the c_perp term "
            "(y) instead of a times w: beta = a z_perp sw c_perp.  Observed: beta off "
            "the reference by 0.5 - 2 at d = 3, 4, 5, 8, 12 (both kinds of data, one and "
            "two threads); w, a and the loss right; d = 13, 16 (blocks) unchanged"
        ),
        tests=[*_KUNIN, _KUNIN_MIN],
        claims="kunin.*",
    ),
    dict(
        name="kunin.w_and_beta_rows_scratch_aliased",
        seed="003",
        backend="numpy",
        file=_F64,
        old="        x, y = scratch[:d, :m], scratch[d:, :m]\n",
        new="        x, y = scratch[:d, :m], scratch[:d, :m]\n",
        why=(
            "both row scratches taken from the first d rows (a copy-paste slice): the "
            "c_perp term overwrites the beta*-hat term before the sum, so w = 2 z_perp sw "
            "c_perp and beta = a w.  Observed: w off the reference by 0.7 - 1.4 and beta by "
            "0.7 - 2 at d <= 12; d = 13, 16 unchanged"
        ),
        tests=[*_KUNIN, _KUNIN_MIN],
        claims="kunin.*",
    ),
    dict(
        name="kunin.w_and_beta_blocks_beta_of_scratch",
        seed="003",
        backend="numpy",
        file=_F64,
        old="    np.multiply(a[:, None], w, out=beta)\n",
        new="    np.multiply(a[:, None], tmp, out=beta)\n",
        why=(
            "on the (times, d) blocks (d > 12) beta = a times the scratch (the c_perp term) "
            "instead of a w.  Observed: beta off the reference by 0.6 - 1.2 at d = 13, 16 "
            "(both kinds of data, many blocks, two threads); w right; d <= 12 unchanged"
        ),
        tests=[*_KUNIN, _KUNIN_MIN],
        claims="kunin.*",
    ),
    # ------------------------------------------------------------ _core/arrays.py
    dict(
        name="core.max_abs_lower_end_not_negated",
        seed="core",
        backend="numpy",
        file=_ARRAYS,
        old="else max(hi, -lo)",
        new="else max(hi, lo)",
        why=(
            "the most negative entry not negated: max_abs is the largest entry, not the "
            "largest |entry|.  Observed: max_abs([-3, 1]) = 1, max_abs([-5]) = -5, "
            "max_abs([-inf]) = -inf (which then passes the fast paths' '< inf' finiteness "
            "tests); arrays with a nan, or whose largest |entry| is positive, unchanged"
        ),
        tests=_CORE,
        claims=[],
    ),
    dict(
        name="core.max_abs_ignores_nan",
        seed="core",
        backend="numpy",
        file=_ARRAYS,
        old="    hi, lo = float(np.max(x)), float(np.min(x))",
        new="    hi, lo = float(np.nanmax(x)), float(np.nanmin(x))",
        why=(
            "the reductions skip nan (nanmax / nanmin): max_abs([2, nan, -7]) = 7 instead of "
            "nan (an all-nan array still nan).  Through kunin's sample: a nan put into z_a "
            "at one time (one or two threads) comes back as a nan a, loss and beta without "
            "the ValueError, and a nan loss likewise"
        ),
        tests=[*_CORE, *_KUNIN],
        claims=[],
    ),
    # ------------------------------------------------------------ _core/backends.py
    dict(
        name="core.exprel_numpy_inf_lost_beside_nan",
        seed="core",
        backend="numpy",
        file=_BACKENDS,
        old="    if z.size and not np.max(z) < np.inf:",
        new="    if z.size and np.max(z) == np.inf:",
        why=(
            "the test for a +inf entry written as max == inf: where the array also holds a "
            "nan, its max is nan and the +inf entries keep expm1(inf) / inf = nan.  "
            "Observed: exprel([inf, nan]) = [nan, nan] (unmutated [inf, nan]); exprel([0, "
            "1, -1, inf, -inf, nan, ...]) nan at +inf; exprel([inf]) and scalars right"
        ),
        tests=_CORE,
        claims=[],
    ),
    dict(
        name="core.exprel_torch_minus_inf_kept",
        seed="core",
        backend="torch",
        file=_BACKENDS,
        old='        return torch.where(z == float("inf"), z, out)',
        new="        return torch.where(z.isinf(), z, out)",
        why=(
            "the +inf limit applied to both infinities: the torch exprel at -inf returns "
            "-inf instead of expm1(-inf) / -inf = 0 (the limit; numpy's gives 0).  "
            "Observed: exprel(tensor([..., -inf, ...])) has -inf where 0.0 was; +inf, 0, "
            "nan and finite entries unchanged"
        ),
        tests=_CORE,
        claims=[],
    ),
    dict(
        name="core.blas_threads_for_at_small_blas",
        seed="core",
        backend="numpy",
        file=_BACKENDS,
        old="    if multiply_adds < SMALL_BLAS:",
        new="    if multiply_adds <= SMALL_BLAS:",
        why=(
            "the boundary: work of exactly SMALL_BLAS multiply-adds runs BLAS on one "
            "thread.  Observed: inside blas_threads_for(SMALL_BLAS) BLAS num_threads is 1 "
            "(unmutated: 2, as configured on this 2-core machine); SMALL_BLAS - 1 and "
            "SMALL_BLAS + 1 unchanged"
        ),
        tests=[*_CORE, _THREADS],
        claims=[],
    ),
    dict(
        name="core.fill_in_halves_limits_openmp_not_blas",
        seed="core",
        backend="numpy",
        file=_BACKENDS,
        old='    with _blas_controller().limit(limits=1, user_api="blas"), \\',
        new='    with _blas_controller().limit(limits=1, user_api="openmp"), \\',
        why=(
            "the limit inside the two threads put on the OpenMP pools, not on BLAS "
            "(numpy's OpenBLAS runs pthreads, so nothing is limited).  Observed: both "
            "threads of fill_in_halves(fill, 100, 10, 10**6, 10) see BLAS num_threads 2 "
            "(unmutated: 1), restored to 2 after either way; the samples' values unchanged"
        ),
        tests=[*_CORE, _THREADS],
        claims=[],
    ),
    # ------------------------------------------------------------ linear_node_scaling
    dict(
        name="linear_node_scaling.outer_second_subscript_transposed",
        seed="000",
        backend="numpy",
        file=_LNS_EVAL,
        old='    return np.einsum("...ik,...kj->...ij", x, y, out=out)',
        new='    return np.einsum("...ik,...jk->...ij", x, y, out=out)',
        why=(
            "the rows' subscript written ...jk: einsum broadcasts the column's k = 1 against "
            "the rows' q entries and sums them, so outer(x (m, 1), y (times, 1, d)) is "
            "(times, m, 1) = x * sum(y), broadcast over W's d columns by np.add.  c_t's "
            "outer (by a 1 x 1) stays right.  Observed: W off the reference by 0.39 - 2.2 "
            "(relative to max(1, |W|)) at every (n, d, m); f and the loss right"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.construction_blas_estimate_min",
        seed="000",
        backend="numpy",
        file=_LNS_TRAJ,
        old="blas_threads_for(n * d * max(n, d) + d * d * min(n, d))",
        new="blas_threads_for(n * d * min(n, d) + d * d * min(n, d))",
        why=(
            "the SVD's work estimated with min(n, d) instead of max(n, d): a tall X is "
            "taken for small.  Observed: the construction at n = 1000, d = 100 (estimate "
            "1.01e8 >= SMALL_BLAS) runs its SVD with BLAS on 1 thread (unmutated: 2); (20, "
            "10) and (100, 1000) unchanged; the samples' values unchanged"
        ),
        tests=[*_LNS, _THREADS],
        claims=[],
    ),
]
