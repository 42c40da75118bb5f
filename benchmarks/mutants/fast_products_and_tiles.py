"""Mutants of the code changed by the commits after ``cb47123`` (up to ``ab9d05f``):

* seed 000's float64 sample (``solvable/models/linear_node_scaling/float64_sample.py``):
  ``_fused_modes`` (both parts' mode coefficients of ``c(t)`` in the larger part's scale),
  ``_assemble_W`` (``c = (V G p) 2^(top - boost)``, the rank one written into the block,
  then ``W_0``), ``_two_parts``, ``_fusable``, ``_y_part_scale`` and the outputs' y- and
  W_0-parts in ``_sample_f64``;
* its evaluators (``_evaluators.py``): ``_matvecs`` (BLAS products of ``GEMM_ROWS`` = 128
  columns, the last block padded), ``_outer`` with ``out=`` (``rank_one_into``) and the
  printer's ``batched`` / ``matvecs`` choice; ``expressions.py``'s ``c_modes``, ``f_t_y``,
  ``f_t_w``, ``residual_t_y`` and ``residual_t``;
* ``times_power_of_two`` (``solvable/_core/scaled.py``) and ``one_blas_thread``
  (``solvable/_core/backends.py``);
* seed 003's ``_w_and_beta`` on ``(d, times)`` rows (``d <= 12``), written through the
  transposed views of the outputs (``solvable/models/kunin/_float64.py``);
* ``_tile_spans`` / ``WORKER_TILE_BYTES`` of ``numerics/torch_flow/dop853.py``.

Written by an outside reviewer (a helper session) who read the code but not the tests;
the test hints (``tests``) were filled in by the maintainer afterwards, by file name.
Each is one replacement at one place, the kind of slip a tired developer makes (a sign,
``min`` for ``max``, a wrong variable, an off-by-one slice, a dropped ``out=``, a block
left unpadded, a limit not set).  ``why`` is
what the reviewer observed with the mutant applied to a copy of ``ab9d05f`` (the sources
are unchanged at ``c020d94``): small probes, no test run, the unmutated copy first, where
every probe below passed.  The probes:

* linear_node_scaling: ``closed_form(Setup(X, y, lam, "linear", 0.5), a, W0)`` (normal
  ``X``, ``y``, ``W0``; ``lam = |N(0, 1)| + 0.1``; ``a = +-1``) at (n, d, m) = (5, 3, 4),
  (8, 6, 5), (4, 7, 3), and at (6, 4, 4) with y*1e150, W0*1e-160, y*1e-200, W0*1e100 with
  y*1e-100, X*1e100 with lam*1e-50, and X*1e-75, a*1e-75, W0*1e-160 (the parts' scales
  more than 1022 binades apart: ``_fused_modes`` is None, every time two parts, "the
  apart case"); ``sample`` at 32 times (0, 1e-310, 1e-300, 1e-20, 1e-3, 25 in [0.01, 20],
  1e5, inf) against ``closed_form(..., dps=30)`` and ``_sample_reference`` (W, f, loss:
  the largest difference over the largest value at each time), and 17 of 300 times
  (linspace(0, 30, 297), 1e-310, 1e-300, inf) each sampled alone against the batch (bit
  for bit); W0 = 0 and tiny scales at 12 tiny times (5e-324 .. 1e-100, 1, inf); a node of
  lam = 1e-20 with W0 = 0 at 200 times in [1e-311, 1e-295] (bits against HEAD); X of
  scale 1e-306 .. 5e-309 with W0 near +-2^1023 (W near the float64 top: bits against
  HEAD, and whether an overflow is refused); the BLAS threads inside ``_assemble_W``
  (threadpoolctl) and batch bits at (n, d) = (400, 300), (1000, 600), (600, 1000).
* core: ``times_power_of_two`` against ``numpy.ldexp`` for 2007 values (scales 1e-30 ..
  1e30, 0, -0, 5e-324, 1.7e308, +-inf, nan) at each exponent -1100..-1001, -5..4,
  1000..1029 and a (50, 1) column of exponents in [-1030, 1030]; the BLAS threads inside
  ``blas_threads_for(10)`` and ``one_blas_thread()`` (this machine: 2 outside).
* kunin: ``closed_form(Setup(0.9, 1.3, X, y), 0.7, w0)``, ``X`` = 1.5 Q (Q from the QR of
  a normal (d + 3, d) matrix) at d = 3, 4, 5, 7, 8, 12, 13, 16; ``sample`` against
  ``_sample_reference`` at 301 times in [0, 50] (t, a, w, beta bit for bit; the loss to
  4e-16 of its largest value).
* torch_flow: ``_tile_spans(B, per_row, True, workers)``, and a flow of the width-64
  ``TwoLayerLinear`` (B = 96, to t = 2, one worker) with one tile and with 48.

Argued or probed equivalent and left out: ``top = min(...)`` (or ``e["y"]`` for the y-part
scale) in ``_fused_modes`` (the parts are rescaled exactly to any common scale and scaled
back by it; probed: no difference, the apart case then fused, still right);
``c_modes`` with ``V^T (beta_inf - V V^T beta_0)`` (``V^T V = I``: rounding only);
``-1023 <= lo`` in ``times_power_of_two``'s range test (``2^-1023`` .. ``2^-1074`` are
exact subnormals, a product with one rounds once: probed equal to ``ldexp`` at every
exponent), ``lo < 1023`` (ldexp then, the same values), ``out is None`` dropped from the
zero-exponent shortcut and ``out=`` dropped from its multiply (every caller passes ``out=``
the input itself, or uses the return value: speed only).  Speed or rounding only and left
out: the printer's ``batched`` never set (numpy's stacked ``matmul`` instead of
``matvecs``: probed batch-invariant and within 1e-15 of mpmath).  Crash-only and left out:
``xT = x`` in ``_matvecs`` (a matmul shape error unless n = d = rank), ``-1022 <= lo <=
1024`` (``math.ldexp``'s OverflowError at a W0 of 1.5e308), ``out=w`` for ``out=w.T`` in
kunin (a broadcast error).  Overlapping and left out: the first GEMM block skipped
(``range(GEMM_ROWS, full, ...)``: garbage in the first 128 times), ``top = min(e["y"],
ew_f)`` for the loss (refuses W0*1e-160, y*1e-200 with 'loss exceeds the float64
range'), ``fused.all()`` in the finiteness test (no case built).  Format: see
``benchmarks/mutation.py``."""

_F64 = "solvable/models/linear_node_scaling/float64_sample.py"
_EV = "solvable/models/linear_node_scaling/_evaluators.py"
_EXPR = "solvable/models/linear_node_scaling/expressions.py"
_KF64 = "solvable/models/kunin/_float64.py"
# the test hints (filled in by the maintainer after the reviewer wrote the mutants)
_LNS = [
    "tests/test_linear_node_scaling.py",
    "tests/test_linear_node_scaling_edges.py",
    "tests/test_linear_node_scaling_batches.py",
    "tests/test_closed_form_scale_models.py",
    "tests/test_closed_form_claims_and_fast_paths.py",
]
_KUNIN = [
    "tests/test_closed_form_scale_models.py",
    "tests/test_closed_form_scale.py",
    "tests/test_kunin.py",
    "tests/test_kunin_edges.py",
    "tests/test_kunin_loss_near_minimum.py",
]
_CORE = [
    "tests/test_linear_node_scaling_batches.py",
    "tests/test_backends.py",
    "tests/test_backends_fast_paths.py",
    "tests/test_range_errata_threads_and_limits.py",
]
_FLOW = ["tests/test_torch_flow.py", "tests/test_numerics_oracle_details.py"]

MUTANTS = [
    # ------------------------------------------------------------ float64_sample.py
    dict(
        name="linear_node_scaling.fused_modes_exponent_sign",
        seed="000",
        backend="numpy",
        file=_F64,
        old="                q = times_power_of_two(p, ep - top)",
        new="                q = times_power_of_two(p, top - ep)",
        why=(
            "each part's mode coefficients rescaled by 2^(top - e) instead of 2^(e - top) "
            "before they are added: the smaller part multiplied up instead of down.  "
            "Observed: W off by 80 - 500 relative to the time's largest entry on unit data "
            "(the parts' scales differ by a few binades), 1e77 - 1e201 on scaled data; f "
            "and loss right; the apart case (None) unchanged"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.fused_c_boost_sign",
        seed="000",
        backend="numpy",
        file=_F64,
        old="                c = times_power_of_two(c_m, (top - boost).reshape(-1, 1, 1))",
        new="                c = times_power_of_two(c_m, (top + boost).reshape(-1, 1, 1))",
        why=(
            "a boosted row's c (all modes below 2^-960: g carries 2^boost) scaled by "
            "2^(top + boost): where that is still a normal float the row is fused with a c "
            "2^(2 boost) too large.  Observed: W at t = 1e-310, 1e-300 off by 1e298 relative "
            "on unit data; with W0 = 0 or tiny scales an inf W returned without the "
            "ValueError (fused rows are not tested for finiteness); y*1e150 and the apart "
            "case unchanged"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.fused_block_adds_w0_mantissa",
        seed="000",
        backend="numpy",
        file=_F64,
        old='                np.add(Wb, k["W0_full"], out=Wb)',
        new='                np.add(Wb, k["W0"], out=Wb)',
        why=(
            "a block whose times are all fused adds W0's power-of-two mantissa (W0 "
            "2^-e_W0) to the rank one instead of W0.  Observed: each time alone at t = 0, 1, "
            "inf: W off by 0.75 - 0.83 relative (unit data), 16 of 17 times alone differ "
            "from the batch of 300; that batch (one block, with the two-part tiny times) "
            "right; y*1e150, W0*1e100, X*1e100 off by ~1 even in a batch"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.two_parts_y_scale_of_y_only",
        seed="000",
        backend="numpy",
        file=_F64,
        old=(
            "        dW_y = self._scaled(rank_one(*u, c_y), _y_part_scale(e) + nboost, "
            "inplace=True)"
        ),
        new='        dW_y = self._scaled(rank_one(*u, c_y), e["y"] + nboost, inplace=True)',
        why=(
            "the two-part path scales W's y-part by y's power of two, not by that of y / "
            "(X sqrt(lam) a).  Observed: W off by 1.0 relative in the apart case (every "
            "time two parts); elsewhere only the tiny times take two parts, where W - W0 "
            "is below W0's rounding: unchanged"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.fusable_least_min",
        seed="000",
        backend="numpy",
        file=_F64,
        old="            least = max(tiny, tiny / u_min)",
        new="            least = min(tiny, tiny / u_min)",
        why=(
            "the least nonzero |c_j| a fused time needs taken as 2^-1022 even where u_min < 1, "
            "so a time whose products u_min c_j are subnormal is fused (an extra rounding on "
            "the subnormal grid).  Observed (W0 = 0, one node of lam = 1e-20, 200 times in "
            "[1e-311, 1e-295]): 15 of 4000 entries of W differ from HEAD, by up to 2.6e-15 of "
            "the entry; no difference relative to a time's largest entry, none in the other "
            "probes"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.fusable_overflow_bound_u_min",
        seed="000",
        backend="numpy",
        file=_F64,
        old="            return (lo >= least) & (u_max * hi <= huge)",
        new="            return (lo >= least) & (u_min * hi <= huge)",
        why=(
            "the overflow bound of a fused time taken with the smallest row |sqrt(lam) a| "
            "instead of the largest: times with max|u| max|c| above 2^1022 are fused.  "
            "Observed (lam = (0.99, 0.05, 0.6, 1e-4), a = +-0.99, X of scale 1e-306 .. 5e-309, "
            "max|W0| = 0.99 2^1023): 119 of 360 samples differ from HEAD in 3 - 11 of 112 "
            "entries of W (rounding near the float64 top); at X ~ 8e-309 HEAD refuses with "
            "'W(t) exceeds the float64 range' while the mutant returns a W with an inf "
            "(fused rows are not tested when max|W0| <= 2^1023)"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.residual_w0_part_added",
        seed="000",
        backend="numpy",
        file=_F64,
        old=(
            '                    r = self._scaled(r_y, e["y"] - top) - self._scaled(f_w, '
            "ew_f - top)"
        ),
        new=(
            '                    r = self._scaled(r_y, e["y"] - top) + self._scaled(f_w, '
            "ew_f - top)"
        ),
        why=(
            "the residual y - f = residual_t_y - f_t_w taken with + f_t_w: the float64 loss "
            "off by 0.26 - 0.39 relative on unit data (W, f right); unchanged where one "
            "part dominates (y*1e150, W0*1e-160, the apart case)"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.y_part_scale_lam_not_halved",
        seed="000",
        backend="numpy",
        file=_F64,
        old='    return e["y"] - e["X"] - e["lam"] // 2 - e["a"]',
        new='    return e["y"] - e["X"] - e["lam"] - e["a"]',
        why=(
            "W's y-part scaled by lam's power of two instead of its square root's (the rows "
            "are sqrt(lam) a).  Observed: W off by 0.24 - 0.5 relative (unit data, y*1e150, "
            "W0*1e-160, the apart case: fused and two-part paths alike); f and loss right; "
            "data where W0 dominates W unchanged"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.f_y_boost_sign",
        seed="000",
        backend="numpy",
        file=_F64,
        old=(
            '                    np.add(self._scaled(f_y, e["y"] - boost[:, None]), '
            "self._scaled(f_w, ew_f),"
        ),
        new=(
            '                    np.add(self._scaled(f_y, e["y"] + boost[:, None]), '
            "self._scaled(f_w, ew_f),"
        ),
        why=(
            "the outputs' y-part at a boosted time (t = 1e-310, 1e-300) scaled by 2^boost "
            "instead of 2^-boost.  Observed: f off by 1e307 relative at those times (unit "
            "data; 5e107 at y*1e-200), inf at W0*1e-160, and y*1e150 and the apart case "
            "refused with 'f(t) exceeds the float64 range'; W, loss right"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    # ------------------------------------------------------------ _evaluators.py
    dict(
        name="linear_node_scaling.matvecs_pad_rows_shifted",
        seed="000",
        backend="numpy",
        file=_EV,
        old="        out[full:] = np.matmul(pad, xT)[: T - full]",
        new="        out[full:] = np.matmul(pad, xT)[1 : T - full + 1]",
        why=(
            "the padded last block's products taken one row late: each time of the last "
            "T mod 128 gets the next time's V G p / U G U^T y / ..., the last one the product "
            "of a zero row.  Observed: W, f and loss off by O(1) (0.25 - 1 relative, 1e148 "
            "where scales differ) in every probe"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.matvecs_last_block_unpadded",
        seed="000",
        backend="numpy",
        file=_EV,
        old="        pad = np.zeros((GEMM_ROWS, q))",
        new="        pad = np.zeros((T - full, q))",
        why=(
            "the last block's BLAS product taken at its own shape (T mod 128 rows), not "
            "padded to 128: the values stay within 1e-15 of mpmath, but a time's bits depend "
            "on the times sampled with it.  Observed: each time alone against the batch of "
            "300: 13 - 17 of 17 checked times differ (W and/or f) in every probe"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    dict(
        name="linear_node_scaling.outer_out_dropped",
        seed="000",
        backend="numpy",
        file=_EV,
        old='    return np.einsum("...ik,...kj->...ij", x, y, out=out)',
        new='    return np.einsum("...ik,...kj->...ij", x, y)',
        why=(
            "rank_one_into returns the rank one instead of writing it into the block: an "
            "all-fused block of W is W0 plus whatever the block held (fresh pages: 0; else "
            "an earlier sample's values).  Observed: each time alone, unit data: W - W0 = 0 "
            "at t = 1 (rel 0.21) and a leftover at inf (rel 0.88); 16 - 17 of 17 times alone "
            "differ from the batch of 300; y*1e150, W0*1e100, X*1e100 off by 0.2 - 1.6 even "
            "in a batch"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    # ------------------------------------------------------------ expressions.py
    dict(
        name="linear_node_scaling.residual_t_w0_part_sign",
        seed="000",
        backend="sympy",
        file=_EXPR,
        old="    residual_t = residual_t_y - f_t_w",
        new="    residual_t = residual_t_y + f_t_w",
        why=(
            "residual_t (read by _sample_reference, float64 and dps) takes the W_0-part of "
            "the outputs with +: the reference and dps=30 losses off by 0.2 - 0.44 relative "
            "on unit data, while the fast path (residual_t_y, f_t_w) is unchanged; fast "
            "and reference then disagree"
        ),
        tests=_LNS,
        claims="linear_node_scaling.*",
    ),
    # ------------------------------------------------------------ _core
    dict(
        name="core.times_power_of_two_min_as_max",
        seed="core",
        backend="numpy",
        file="solvable/_core/scaled.py",
        old="        lo, hi = int(e.min()), int(e.max())",
        new="        lo, hi = int(e.min()), int(e.min())",
        why=(
            "the largest exponent taken as the least (copy-paste): a column of different "
            "exponents whose least 2^e is normal is multiplied by 2^min everywhere.  "
            "Observed: 147 of 150 entries of a (50, 3) block with a column of exponents "
            "differ from ldexp; lns sample with times 1e-310, 1e-300 among others (boosted "
            "rows: exponent columns): W and f off by "
            "~1 relative to mpmath (W 2.2 off the float reference) at y*1e150, W 0.24 at "
            "W0*1e100; 14 of 17 times alone differ from the batch; unit data "
            "unchanged (there the least exponent is below -1022: ldexp)"
        ),
        tests=_CORE,
        claims=[],
    ),
    dict(
        name="core.one_blas_thread_no_limit",
        seed="core",
        backend="numpy",
        file="solvable/_core/backends.py",
        old='    with _blas_controller().limit(limits=1, user_api="blas"):\n        yield',
        new='    with _blas_controller().limit(limits=None, user_api="blas"):\n        yield',
        why=(
            "one_blas_thread sets no limit: BLAS runs all its threads inside the lns "
            "sample (threadpoolctl: 2 on this 2-core machine, 1 at HEAD) and inside "
            "blas_threads_for below SMALL_BLAS (which now enters one_blas_thread).  No bits "
            "changed here (batch against alone at (n, d) up to (1000, 600)); the sample "
            "was 5 - 10x slower in this probe"
        ),
        tests=_CORE,
        claims=[],
    ),
    # ------------------------------------------------------------ kunin/_float64.py
    dict(
        name="kunin.w_and_beta_rows_first_term_twice",
        seed="003",
        backend="numpy",
        file=_KF64,
        old="        np.add(x, y, out=w.T)",
        new="        np.add(x, x, out=w.T)",
        why=(
            "on (d, times) rows (d <= 12) w = 2 cc_0 bhat instead of cc_0 bhat + cc_1 "
            "cperp.  Observed: w off the reference by 1 - 1.9 and beta by 1.1 - 1.3 at d = 3, "
            "4, 5, 7, 8, 12; t, a equal, the loss unchanged (computed apart); d = 13, 16 "
            "(blocks) unchanged"
        ),
        tests=_KUNIN,
        claims="kunin.*",
    ),
    dict(
        name="kunin.w_and_beta_rows_beta_into_scratch",
        seed="003",
        backend="numpy",
        file=_KF64,
        old="        np.multiply(a, w.T, out=beta.T)",
        new="        np.multiply(a, w.T, out=y)",
        why=(
            "beta = a w written into the scratch (the old code's next line, the copy into "
            "beta, gone): the output beta keeps np.empty's memory.  Observed: beta off the "
            "reference by 1.4 - 5 (nan at d = 3, 5) at d = 3 .. 12; w, a, t equal, the loss "
            "unchanged; d = 13, 16 unchanged"
        ),
        tests=_KUNIN,
        claims="kunin.*",
    ),
    # ------------------------------------------------------------ torch_flow/dop853.py
    dict(
        name="torch_flow.worker_tile_share_max",
        seed="core",
        backend="torch",
        file="numerics/torch_flow/dop853.py",
        old="    share = min(TILE_BYTES // workers, WORKER_TILE_BYTES)",
        new="    share = max(TILE_BYTES // workers, WORKER_TILE_BYTES)",
        why=(
            "a worker's tile bounded below by WORKER_TILE_BYTES instead of above: "
            "_tile_spans(1024, 17 * 2816 * 8, True, w) gives 12 tiles instead of 24 at one "
            "worker and 24 instead of 52 at four (two workers unchanged); B = 256 at width "
            "64: 1 tile instead of 2.  Speed only: the states do not depend on the tiling "
            "(a width-64 flow of 96 elements gave the same bits with 1 and 48 tiles)"
        ),
        tests=_FLOW,
        claims=[],
    ),
]
