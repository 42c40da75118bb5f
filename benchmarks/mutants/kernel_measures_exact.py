"""Mutants of the exact kernel measures (issue 31, item 4; the sources as at ``2e33a56``):

* ``solvable/_core/kernel_measures.py``: the stable form ``S = |K0^ - Kt^|_F^2 / 2``
  (``_unit``, ``_distance``), the task alignment (``_alignment``), the power-of-two scaling
  of float64 kernels (``_scaled``), the mpmath branch (``_mp``, 10 guard digits), the
  checked entry points ``kernel_matrix`` (``(n, c, n, c)`` -> ``nc x nc``, row-major),
  ``kernel_distance``, ``kernel_norm_change`` (its ``Float64RangeError``),
  ``task_alignment`` (the targets' shape), ``kernel_path`` / ``KernelPath`` and ``_times``;
* ``solvable/models/kunin/kernel_distance.py``: ``neuron_kernel`` and the closed form of
  ``S(0, oo)`` (``limit_symbolic``, ``limit_kernel_distance``);
* the figure ``003-kernel-distance`` (``solvable/verification/figures/seed_003.py``).

Written by an outside reviewer (a helper session) who read the code but not the tests; the
test hints (``tests``) are file names the maintainer gave, and ``claims`` are the claims
that failed (by their verdict, not by a crash) when the reviewer ran ``solvable verify
--only '*kernel_distance*'`` with the mutant applied (empty where every claim held: those
mutants are left to the tests).  Each mutant is one replacement at one place, the kind of
slip a developer makes (the ``/ 2`` of the stable form lost, a norm without its square root,
the stable form replaced by ``1 - cos``, the power-of-two scaling with the wrong sign, an
exponent difference the wrong way round, a range refusal loosened, the guard digits
dropped, ``math`` for ``mpmath`` in the mpmath branch, a Fortran-order reshape, a shape
test by ``ndim``, an index slip, two arguments swapped, ``all`` for ``any``, the working
precision's guard digits kept, ``float`` for ``(float, mpf)``, the other branch's sign,
``range(d - 1)``, ``d`` for ``d - 1``, the learning rates swapped, an argument not passed
on).

``why`` is what the reviewer observed with the mutant applied in place to the worktree
(the file restored by ``git checkout`` after each), with a probe script run first on the
unmutated code.  The probes: float64 kernels ``K0 = G G^T``, ``K1 = H H^T`` (4 x 4, G, H
4 x 3 standard normal, ``default_rng(0)``), an asymmetric ``A`` (4 x 4), the lazy ``K0 +
1e-9 K1`` against ``1 - cos`` at 50 digits, the pairs scaled by 1e-300 / 1e300 (both, or
one each), the same as mpf arrays at 30 digits (and ``K0 + 1e-20 K1``), scalars, ``(3, 2,
3, 2)`` kernels (a random and a Gram one) with targets ``Y`` (3, 2) and ``Y.T``;
``task_alignment`` of ``A`` with a random ``y``, of ``3 y y^T``, scaled 1e300 / 1e-300;
``kernel_norm_change`` of ``(K0, K1)``, ``(K0, 2 K0)`` and pairs scaled 1e-200 / 1e200 and
1e-300 / 1e300 (refusals); ``kernel_path`` of ``kunin.closed_form`` (cases ``upstream``,
``downstream``, ``lazy``, ``orthogonal``, float64 and dps 30, ``kernel=neuron_kernel``,
times 0, 0.5, 2, inf), of ``xu_ziyin.closed_form`` (``generic``, ``y_zero``, ``P_less_Q``)
and of the first wide case of ``confirmations.kunin._wide_cases()``; ``limit_kernel_distance``
over ``kunin.CASES`` at 30 digits against ``kernel_path(tr, [mpmath.inf])`` at 40 digits,
and on a d = 3 neuron (``X`` 4 x 3 with ``X^T X = 2 I``, ``eta_w = 0.5``); the mantissa bits
of the dps-30 results (103 unmutated: rounded to 30 digits); the figure's
``_draw_kernel_distance`` on an Agg ``Figure`` (the right panel's title, the simulated
points).

Probed and left out: ``if delta > 0`` for ``if delta >= 0`` in ``limit_kernel_distance``
(at ``delta = 0`` both branches give ``p = q = sigma / 2``: equivalent); ``range(i + 1)``
for ``range(i)`` in its ``cross`` (adds the zero terms ``i = j``: equivalent); the targets'
shape test ``v.shape != np.shape(K)[2:]`` for ``[:2]`` (the two halves of an ``(n, c, n,
c)`` shape are equal once ``kernel_matrix`` accepted it: equivalent).  Probed and left out
as not observed: the ``eta_a`` dropped from ``t0`` in ``limit_kernel_distance`` (no
probe changed and every claim held: the probed setups with ``t0 != 0`` have ``eta_a = 1``;
it is a bug only for ``eta_a != 1``).  Probed, crash only, left out: ``d = len(setup.X)``
(the number of data rows for the input dimension) in ``limit_kernel_distance`` (an
``IndexError`` from ``w0[i]``).  Probed, not equivalent, and left out to keep the table at
20: the float64 kernels left unscaled in ``kernel_distance`` (the pair at 1e-300: nan, at
1e300: 0.0, instead of 0.6696); ``limit_kernel_distance`` unrounded (``nb.round_to``
dropped: 130 mantissa bits instead of 100, the value the same to 30 digits);
``neuron_kernel`` converting with ``nb.to_float`` always (mpf states: the kernel from
float64 data and rates, ``kunin.kernel_distance_oracle`` fails); ``sigma`` with ``2`` for
``4`` (``upstream`` 0.02626 instead of 0.01370); the ``(n, c, n, c)`` test loosened to
``arr.ndim == 4`` (a ``(2, 3, 3, 2)`` kernel accepted as 6 x 6); the targets used unscaled in
the float64 alignment (``y ~ 1e-300``: ``ValueError: -inf + inf in fsum`` instead of 0.109);
the path's alignment of ``K0`` at every time (``upstream``: 0.1748 at all four times instead
of 0.1748 .. 0.1974; claim ``kunin.kernel_distance_oracle`` fails); the path's alignment
``0`` instead of ``None`` for zero targets (``xu_ziyin`` ``y_zero``: [0, 0, 0]; claim
``xu_ziyin.kernel_distance_oracle`` fails); the path's zero test of ``K0`` with ``any``
(every kunin case whose ``X`` has a zero row refused as a start at the origin).
Format: see ``benchmarks/mutation.py``."""

_KM = "solvable/_core/kernel_measures.py"
_KD = "solvable/models/kunin/kernel_distance.py"
_FIG = "solvable/verification/figures/seed_003.py"
# the test hints (by file name; the reviewer did not open them)
_T = [
    "tests/test_exact_kernel_distance.py",
    "tests/test_kernel_distance.py",
    "tests/test_exact_kernel_distance_edges.py",  # (added by the maintainer after the run)
]
_T_FIG = [*_T, "tests/test_figures.py"]

MUTANTS = [
    # ------------------------------------------------------------ the stable form
    dict(
        name="kernel_measures_exact.distance_half_lost",
        seed="003",
        backend="numpy",
        file=_KM,
        old="return fsum(v * v for v in diff.ravel()) / 2",
        new="return fsum(v * v for v in diff.ravel())",
        why=(
            "the stable form without its 1/2: |K0^ - Kt^|^2 is 2 S.  Observed: "
            "kernel_distance(K0, K1) 1.3393 instead of 0.6696 (1 - cos at 50 digits "
            "0.6696), of K0 and -K0 4 instead of 2, at 30 digits (mpf) 1.3393; kernel_path "
            "of kunin 'upstream' S(0, oo) 0.02739 instead of 0.01370 (limit_kernel_distance "
            "0.01370); claims kunin.kernel_distance_stable_form, "
            "kernel_distance_limit_state and kernel_distance_oracle fail"
        ),
        tests=_T,
        claims=[
            "kunin.kernel_distance_stable_form",
            "kunin.kernel_distance_limit_state",
            "kunin.kernel_distance_oracle",
        ],
    ),
    dict(
        name="kernel_measures_exact.unit_norm_not_sqrt",
        seed="003",
        backend="numpy",
        file=_KM,
        old="return K / sqrt(fsum(v * v for v in K.ravel()))",
        new="return K / fsum(v * v for v in K.ravel())",
        why=(
            "each kernel divided by its squared norm instead of its norm (K / |K|^2 is not "
            "a unit kernel).  Observed: kernel_distance(K0, K1) 0.4322 instead of 0.6696, "
            "of K0 and -K0 1.249 instead of 2, scale-dependent (the same pair at 1e-300: "
            "0.9638, at 1e300: 0.7754); at 30 digits 0.01806; task_alignment(A, y) changes "
            "too; claims kunin.kernel_distance_stable_form, kernel_distance_limit_state, "
            "kernel_distance_oracle and xu_ziyin.kernel_distance_oracle fail"
        ),
        tests=_T,
        claims=[
            "kunin.kernel_distance_stable_form",
            "kunin.kernel_distance_limit_state",
            "kunin.kernel_distance_oracle",
            "xu_ziyin.kernel_distance_oracle",
        ],
    ),
    dict(
        name="kernel_measures_exact.float64_one_minus_cos",
        seed="003",
        backend="numpy",
        file=_KM,
        old="return float(_distance(_scaled(A)[0], _scaled(B)[0], math.sqrt, math.fsum))",
        new=(
            "return float(1 - math.fsum((_unit(A, math.sqrt, math.fsum) * "
            "_unit(B, math.sqrt, math.fsum)).ravel()))"
        ),
        why=(
            "the float64 branch evaluates the definition 1 - cos (and unscaled) instead of "
            "the stable form.  Observed: the lazy pair K0, K0 + 1e-9 K1 gives 0.0 instead "
            "of 1.66923e-18 (50 digits: 1.66923e-18); kernel_path of kunin 'upstream' "
            "(float64) S(0, 0) = 2.2e-16 instead of 0 and 'lazy' S(0, oo) 7.8077371235e-9 "
            "instead of 7.8077369146e-9 (limit 7.8077369146e-9); the pair scaled by "
            "1e-300 a ValueError ('-inf + inf in fsum'), by 1e300 1.0, 1e-300 / 1e300 nan "
            "instead of 0.6696; mpmath unchanged, every claim holds"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kernel_measures_exact.scaled_exponent_sign",
        seed="003",
        backend="numpy",
        file=_KM,
        old="return np.ldexp(K, -e), e",
        new="return np.ldexp(K, e), e",
        why=(
            "the power of two applied with the wrong sign (K 2^e instead of K 2^-e: the "
            "scale squared instead of removed).  Observed: kernel_norm_change(K0, 2 K0) 8.0 "
            "instead of 2.0, of (K0, K1) 7.743 instead of 1.936; kernel_path of kunin "
            "'upstream' (float64) |K_t|/|K_0| changes; kernel_distance of the pair at 1e-300 "
            "or 1e300 nan, task_alignment(1e300 A, 1e-300 y) nan instead of 0.1089; the "
            "norm change of 1e200 K0, 1e-200 K1 0.0 instead of a Float64RangeError; the "
            "distance at moderate scales and every claim (mpmath) unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------ the norm change
    dict(
        name="kernel_measures_exact.norm_change_exponent_swapped",
        seed="003",
        backend="numpy",
        file=_KM,
        old="out = math.ldexp(r, eb - ea)",
        new="out = math.ldexp(r, ea - eb)",
        why=(
            "the exponents of the two scalings subtracted the wrong way round.  Observed: "
            "kernel_norm_change(K0, 2 K0) 0.5 instead of 2.0, (K0, K1) 0.4840 instead of "
            "1.9358 (numpy 1.9358); kernel_path of kunin 'downstream' (float64) at t = oo "
            "0.1242 instead of 7.950, 'orthogonal' at t = 0.5 3.874 instead of 0.9685 (only "
            "where the two exponents differ); mpmath unchanged, every claim holds"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kernel_measures_exact.norm_change_underflow_accepted",
        seed="003",
        backend="numpy",
        file=_KM,
        old="if not math.isfinite(out) or (out == 0 and r != 0):",
        new="if not math.isfinite(out):",
        why=(
            "the range refusal loosened to overflow only: a ratio below the float64 range "
            "returns 0.0.  Observed: kernel_norm_change(1e200 K0, 1e-200 K1) and (1e300 K0, "
            "1e-300 K1) 0.0 instead of Float64RangeError ('the norm ratio 2^-1328 x 1.134 "
            "is outside the float64 range'); the overflowing direction still refused, every "
            "claim holds"
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------ the mpmath branch
    dict(
        name="kernel_measures_exact.mp_no_guard_digits",
        seed="003",
        backend="mpmath",
        file=_KM,
        old="with mpmath.workdps(mpmath.mp.dps + 10):",
        new="with mpmath.workdps(mpmath.mp.dps):",
        why=(
            "the mpmath branch run at the working precision itself, without the 10 guard "
            "digits, so the last digits of the result are rounding noise.  Observed at 30 "
            "digits: the lazy pair K0, K0 + 1e-20 K1 gives S = 1.669228102210113e-40 instead "
            "of 1.669228102210264e-40 (1e-13 relative: the stable form's 10^-30 / sqrt(S) "
            "without guard digits); kernel_distance(K0, K1) and kernel_path of 'upstream' "
            "at 30 digits differ from the guarded values beyond the 30th digit, their "
            "mantissas 102 / 101 bits instead of 103; every claim holds"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kernel_measures_exact.mp_branch_math_float",
        seed="003",
        backend="mpmath",
        file=_KM,
        old="out = func(*args, sqrt=mpmath.sqrt, fsum=mpmath.fsum)",
        new="out = func(*args, sqrt=math.sqrt, fsum=math.fsum)",
        why=(
            "the mpmath branch given math's sqrt and fsum (float64).  Observed: "
            "kernel_distance of mpf kernels at 30 digits returns a float 0.6696427234403043 "
            "instead of an mpf 0.66964272344030425026184828; the lazy pair 1.874e-40 instead "
            "of 1.669e-40; kernel_norm_change of mpf kernels 1e-400 / 1e400 a "
            "ZeroDivisionError instead of 1.936e800; claims "
            "kunin.kernel_distance_limit_state and xu_ziyin.kernel_distance_oracle fail"
        ),
        tests=_T,
        claims=["kunin.kernel_distance_limit_state", "xu_ziyin.kernel_distance_oracle"],
    ),
    # ------------------------------------------------------------ shapes
    dict(
        name="kernel_measures_exact.nc_kernel_reshape_fortran",
        seed="003",
        backend="numpy",
        file=_KM,
        old="arr = arr.reshape(arr.shape[0] * arr.shape[1], -1)",
        new='arr = arr.reshape(arr.shape[0] * arr.shape[1], -1, order="F")',
        why=(
            "an (n, c, n, c) kernel flattened in Fortran order: the rows and columns "
            "permuted alike (the Frobenius products, so S and the norm change, unchanged), "
            "but no longer paired with Y.reshape(-1) (row-major).  Observed: "
            "task_alignment of a (3, 2, 3, 2) Gram kernel with Y (3, 2) 0.1583 instead of "
            "0.3813 (numpy on the row-major matrix: 0.3813), of a random one 0.0729 instead "
            "of -0.1607; kernel_path of the wide case: alignment (0.2115, 0.2289, 0.2384) "
            "instead of (0.2699, 0.3006, 0.3113) (by hand at t = 0.7: 0.3006); every claim "
            "holds (kunin.kernel_distance_oracle compares kernel_path with task_alignment, "
            "both through kernel_matrix)"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kernel_measures_exact.targets_shape_by_ndim",
        seed="003",
        backend="numpy",
        file=_KM,
        old="v.shape != np.shape(K)[:2]",
        new="v.ndim != 2",
        why=(
            "the targets of an (n, c, n, c) kernel checked by their number of axes only: a "
            "(c, n) Y (transposed) passes, its entries paired with the wrong rows.  "
            "Observed: task_alignment(K (3, 2, 3, 2), Y.T (2, 3)) 0.3751 instead of "
            "ValueError('y must have the shape of K's data axes ...'); Y (3, 2) unchanged, "
            "every claim holds"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kernel_measures_exact.alignment_index_slip",
        seed="003",
        backend="numpy",
        file=_KM,
        old="fsum(yh[i] * Kh[i, j] * yh[j] for i",
        new="fsum(yh[i] * Kh[i, j] * yh[i] for i",
        why=(
            "y^T K y summed as sum_ij y_i K_ij y_i (an index slip).  Observed: "
            "task_alignment(A, y) 0.4199 instead of 0.1089 (numpy 0.1089), of 3 y y^T "
            "-0.0048 instead of 1.0; the (3, 2, 3, 2) Gram kernel 0.4715 instead of 0.3813; "
            "claim kunin.kernel_distance_stable_form fails (non-zero residual of the "
            "alignment's array form); the oracles hold (both sides use _alignment)"
        ),
        tests=_T,
        claims=["kunin.kernel_distance_stable_form"],
    ),
    # ------------------------------------------------------------ kernel_path
    dict(
        name="kernel_measures_exact.path_norm_change_args_swapped",
        seed="003",
        backend="numpy",
        file=_KM,
        old="kernel_norm_change(K0, K), align",
        new="kernel_norm_change(K, K0), align",
        why=(
            "kernel_path's norm change with its arguments swapped: |K_0|/|K_t|, the inverse.  "
            "Observed: kunin 'upstream' (float64) (1, 0.7908, 0.5700, 0.5471) instead of "
            "(1, 1.2645, 1.7544, 1.8277); claims kunin.kernel_distance_oracle and "
            "xu_ziyin.kernel_distance_oracle fail; S and the alignment unchanged"
        ),
        tests=_T,
        claims=["kunin.kernel_distance_oracle", "xu_ziyin.kernel_distance_oracle"],
    ),
    dict(
        name="kernel_measures_exact.path_has_y_all",
        seed="003",
        backend="numpy",
        file=_KM,
        old="has_y = any(v != 0 for v in np.ravel(y))",
        new="has_y = all(v != 0 for v in np.ravel(y))",
        why=(
            "targets with one zero entry taken for zero targets: the alignment dropped "
            "(None).  Observed: kernel_path of a d = 3 neuron with y = (1, 0, 0, 0) "
            "alignment None instead of (0.0961,), and a y of the wrong shape (3 entries for "
            "4 rows) accepted (None) instead of a ValueError; claim "
            "kunin.kernel_distance_oracle crashes (TypeError: 'NoneType' object is not "
            "subscriptable: a case whose targets have a zero entry); every target without a "
            "zero entry unchanged"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kernel_measures_exact.path_guard_digits_kept",
        seed="003",
        backend="mpmath",
        file=_KM,
        old="with nb.Precision(dps, 0):",
        new="with nb.Precision(dps):",
        why=(
            "kernel_path evaluated at dps + guard digits and never rounded back to the "
            "trajectory's dps.  Observed: kernel_path of kunin 'upstream' at dps 30: S(0, "
            "0.5) and |K_t|/|K_0| carry 135 / 136 mantissa bits instead of 103 (30 digits), "
            "S = 0.002986184507281501430127256032013829 instead of "
            "0.002986184507281501430127256032018976 (the value rounded to 30 digits); every "
            "value agrees to 30 digits, every claim holds"
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="kernel_measures_exact.times_mpf_inf_refused",
        seed="003",
        backend="mpmath",
        file=_KM,
        old="if isinstance(t, (float, mpmath.mpf)) and t == math.inf:",
        new="if isinstance(t, float) and t == math.inf:",
        why=(
            "t = inf recognised as a float only: mpmath.inf goes to check_number, which "
            "refuses it as not finite.  Observed: kernel_path(tr, [mpmath.inf], "
            "kernel=neuron_kernel(setup)) a ValueError ('times must be finite and >= 0, got "
            "mpf('+inf')') for every kunin case instead of S(0, oo) (e.g. 'upstream' "
            "0.013697, limit_kernel_distance's value); math.inf unchanged; claim "
            "kunin.kernel_distance_limit_state crashes with that ValueError (a crash, not a "
            "verdict: left to the tests)"
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------ S(0, oo) of the single neuron
    dict(
        name="kernel_measures_exact.limit_q_sign",
        seed="003",
        backend="mpmath",
        file=_KD,
        old="q = (sigma - delta) / 2\n            p = pq / q",
        new="q = (sigma + delta) / 2\n            p = pq / q",
        why=(
            "the limit's q_oo = (sigma - delta)/2 written with + in the delta < 0 branch "
            "(the other branch's sign).  Observed at 30 digits: limit_kernel_distance of "
            "'downstream' 0.34026 instead of 0.38660 (kernel_path at t = oo: 0.38660), "
            "'delayed_rich' 0.29355 instead of 0.75109, 'parallel' 0.006633 instead of "
            "0.002989; the d = 3 neuron 0.30088 instead of 0.46415; 'upstream' (delta > 0) "
            "unchanged; claim kunin.kernel_distance_limit_state fails"
        ),
        tests=_T,
        claims=["kunin.kernel_distance_limit_state"],
    ),
    dict(
        name="kernel_measures_exact.limit_cross_off_by_one",
        seed="003",
        backend="mpmath",
        file=_KD,
        old="for i in range(d) for j in range(i))",
        new="for i in range(d - 1) for j in range(i))",
        why=(
            "the sum over pairs j < i of |w0 ^ beta*|^2 stops one row early (range(d - 1)): "
            "for d = 2 it is empty, t0 = 0 (w0 taken parallel to beta*).  Observed at 30 "
            "digits: limit_kernel_distance of 'orthogonal' 0.0029894 (the value of "
            "'parallel') instead of 0.27455 (kernel_path at t = oo: 0.27455), 'upstream' "
            "0.0059532 instead of 0.013697; the d = 3 neuron 0.026845 instead of 0.46415; "
            "claim kunin.kernel_distance_limit_state fails"
        ),
        tests=_T,
        claims=["kunin.kernel_distance_limit_state"],
    ),
    dict(
        name="kernel_measures_exact.limit_symbolic_d_for_d_minus_1",
        seed="003",
        backend="sympy",
        file=_KD,
        old="stable = ((d - 1) * alpha**2",
        new="stable = (d * alpha**2",
        why=(
            "the closed form counts the (d - 1) directions orthogonal to beta* as d.  "
            "Observed at 30 digits: limit_kernel_distance of 'upstream' 0.017480 instead of "
            "0.013697, 'lazy' 9.212e-9 instead of 7.808e-9, the d = 3 neuron 0.47136 instead "
            "of 0.46415 (kernel_path at t = oo: 0.46415); claims kunin.kernel_distance_limit "
            "(non-zero residual against the definition) and kernel_distance_limit_state fail"
        ),
        tests=_T,
        claims=["kunin.kernel_distance_limit", "kunin.kernel_distance_limit_state"],
    ),
    dict(
        name="kernel_measures_exact.neuron_kernel_etas_swapped",
        seed="003",
        backend="numpy",
        file=_KD,
        old="ntk(state.a, state.w, X, conv(setup.eta_a), conv(setup.eta_w))",
        new="ntk(state.a, state.w, X, conv(setup.eta_w), conv(setup.eta_a))",
        why=(
            "neuron_kernel passes the two learning rates to ntk in the wrong order (the "
            "kunin cases have eta_a = 1, eta_w = 0.5).  Observed: kernel_path of 'upstream' "
            "(float64 and 30 digits) S = (0, 0.000243, 0.001056, 0.001218) instead of (0, "
            "0.002986, 0.011942, 0.013697) and |K_t|/|K_0| (1, 1.2065, 1.5857, 1.6422) "
            "instead of (1, 1.2645, 1.7544, 1.8277); limit_kernel_distance unchanged "
            "(0.013697), so claims kunin.kernel_distance_limit_state and "
            "kernel_distance_oracle fail"
        ),
        tests=_T,
        claims=["kunin.kernel_distance_limit_state", "kunin.kernel_distance_oracle"],
    ),
    # ------------------------------------------------------------ the figure
    dict(
        name="kernel_measures_exact.figure_sims_default_scale",
        seed="003",
        backend="scipy",
        file=_FIG,
        old="a0, w0 = _neuron_start(d, b)\n        end",
        new="a0, w0 = _neuron_start(d)\n        end",
        why=(
            "the simulated points of 003-kernel-distance started at the default |beta_0| = "
            "0.05 instead of their own b (an argument not passed on), while the exact values "
            "use b.  Observed (_draw_kernel_distance on an Agg Figure, default size): the "
            "right panel's title 'max |exact - simulated| = 1.4e-01' instead of '5.6e-16'; "
            "the simulated S at (delta, b) = (-2, 0.01) and (-2, 1) both 0.80870 instead of "
            "0.80927 and 0.67219, at (2, 0.01) and (2, 1) both 0.0041333 instead of "
            "0.0041079 and 0.013875; the grid unchanged; every claim holds"
        ),
        tests=_T_FIG,
        claims=[],
    ),
]
