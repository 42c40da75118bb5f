"""Mutants of the code changed by the commits ``b81e1f5`` .. ``8064174`` (``git log
812a2d1~12..HEAD -- solvable numerics``):

* the lazy imports (``6a52dba``, ``c9b8941``): ``solvable._core.lazy`` (``lazy_module``, a
  stand-in that imports its module on the first attribute read and delegates ``setattr`` /
  ``delattr`` to it); ``solvable/__init__.py`` (PEP 562 ``__getattr__`` for ``MODELS``, the
  model modules and the core records, ``__dir__``); ``numerics/__init__.py`` (``mp``,
  ``scipy_ode``, ``models``, ``torch_flow`` loaded lazily, ``__dir__``); the pytest plugin
  (the oracle module held in a tuple, read by ``_testing()``, annotations kept as strings);
* the papers (``b81e1f5``, ``6914d0b``): ``solvable._core.papers`` (``paper``, ``cite``), the
  command line (``solvable papers``, exit 141 when the reader of the output leaves, the
  ``figures`` missing-dependency exit), ``Figure.line``;
* the float64 Gram matrices (``55c34e2``, ``c9b8941``): ``_chords_float64``
  (``solvable/_core/geometry.py``: the chords by blocks and einsum, the sums below
  ``_TINY_SQUARES`` taken again by ``row_norms``), ``_numpy`` / ``_numpy_plain`` /
  ``_power`` (``solvable/_core/scaled.py``), ``_np_sinc3`` (``solvable/_core/backends.py``);
* the kernel oracle's hint naming the kernel a failed matrix matches (``8064174``),
  ``kunin.Trajectory.regime`` (``63f32bf``), ``gradient_descent(threads=...)`` (``edc626e``)
  and the normal quantile of ``monte_carlo`` from ``statistics.NormalDist`` (``6a52dba``).

Written by an outside reviewer (a helper session) who read the code but not the tests;
the test hints (``tests``) were given by the maintainer, by file name, the same list for
every mutant.  Each is one replacement at one place, the kind of slip a tired developer makes
(a sign, a swapped pair of indices, a slice that skips one factor, ``len`` for a sum of
powers, ``**`` for repeated products, a dropped argument, a wrong exit code, a copy-pasted
return value, a wrong variable, a missing ``from __future__ import annotations``, a set
without restore).  ``why`` is what the reviewer observed with the mutant applied to a copy
of ``10bafda``: small probes, no test run, the unmutated copy first, where every probe below
gave the expected answer.  The probes:

* imports, each in a fresh interpreter: ``numerics.scipy_ode.FOO = 3`` and then the real
  module's ``FOO`` (and whether ``numerics.scipy_ode`` is in ``sys.modules`` after the
  assignment); ``solvable._core.claims.Theorem``; ``'Theorem' / 'MODELS' / 'kunin' /
  'generate' / 'MC_CONFIDENCE' in dir(solvable)``; ``len(solvable.MODELS)``;
  ``solvable.Tolerance`` and which modules it loads; ``dir(numerics)``; ``import
  solvable.verification.pytest_plugin`` and whether ``solvable.verification.testing`` and
  sympy are then loaded;
* papers: ``cite`` and ``paper`` of ``"001"``, ``"001_070589003213e0cf.txt eq. (32)"``,
  ``"003_cfd8c5fad4b6665d.txt"``, ``"002 Lemma 1"``, ``"my own model"``; ``Figure.line()``
  of the first figures; ``python -m solvable papers``, ``--version``, ``errata``;
  ``python -m solvable figures --list | head -1`` and ``errata | head -c 100`` (the exit
  status in ``PIPESTATUS``); ``cli.main(["figures", "--only", "000-fig1", "--out", d])``
  with ``sys.modules["matplotlib"] = None``; ``verify --only xu_ziyin.eq_32 --json``;
* Gram: ``norms_and_chords(A, B, "numpy")`` for A, B in (X, Y), (X, X), (Y, X) (X (7, 4), Y
  (5, 4) normal, Y[3] = X[1] but for a 1.7e-170 entry, Y[4] = -X[2] but for a 3e-165 entry)
  against 50 digits; the chords of (300, 10) x (700, 10) points (several blocks) against
  the torch backend; ``kernels.gram`` of nngp, rf, ntk_first_layer, ntk (init
  ``Initialisation(1, 1, "rademacher")``, 6 points with an antiparallel and a parallel
  pair) against ``dps=40``;
  ``_np_sinc3`` at 0, 0.5, 1, 1.5, 3, -2 against mpmath; ``scaled_sum`` of crafted terms
  (1e300 * 1e20 * 1e-20; 1e-300 * 1e-20 * 1e28; (1.1 2^90)^12 (2^-90)^12; (1.3 2^-96)^11
  2^96; 1e-170 * 1e-170 * (7e28)^8) and ``_numpy_plain`` against ``_numpy_scaled`` bit
  for bit on 2000 random terms with powers 1 .. 5; ``generate([x], expr)`` for an
  expression, a Matrix and a tuple holding one;
* the rest: ``testing.kernel(name, init, X).check(K)`` for K the Gram matrix of another
  kernel (ntk_first_layer/ntk, ntk/ntk_first_layer, nngp/ntk_first_layer) and for 1.5
  times its own (rf): the hint line;
  ``edge_case(...).oracle().source`` for xu_ziyin and kunin; ``closed_form(...).regime(r)``
  for every kunin edge case at r = 1, 2, 10, 1e6 against ``kunin.regime`` of the same delta,
  rates and |beta*|, and ``regime(0.5)``; ``gradient_descent`` of the README's
  ``TwoLayerLinear`` (B = 4, width 8) with torch at 4 threads and ``threads`` unset, 3 and
  None (the threads seen inside ``gradient_into`` and after the run); ``monte_carlo`` of
  (50,), (50, 3) and (50, 4, 5) samples (``z``).

Probed equivalent and left out: ``_TINY_SQUARES = 2.0**-1022`` (the smallest normal, not
2^-960: a sum of squares >= 2^-1022 keeps its relative accuracy to a few ulps even where a
small component's square is subnormal; every chord probe the same); ``eta_a`` and ``eta_w``
swapped in ``Trajectory.regime`` (``regime`` takes ``sqrt(eta_a eta_w)``: symmetric).
Argued equivalent and left out: ``<`` for ``<=`` in ``_np_sinc3``'s ``near`` and in the
``_PLAIN_POWERS`` test (a single point where both forms are accurate; a term of exactly 10
powers then takes the scaled path, the same bits); ``MODELS`` or a core record not cached in
``globals()`` (the same objects every time, ``__dir__`` lists ``__all__`` anyway: speed
only); ``_TESTING`` as a list (pytest does not look into a list either).  Not deterministic
and left out: the last row of every block skipped (``b = min(a + rows, n - 1)``: the rows
left out hold whatever ``np.empty`` held, and where that is 0 the tiny-sum pass fills them
in correctly).  Crash-only and left out: the stand-in bound on its parent only where the
parent has the name already (``solvable._core.claims`` an ``AttributeError``), a misspelt
key of ``_CORE`` (an ``AttributeError``).  Observed but left out to keep the count (each
overlaps one below): the loader of ``solvable.Tolerance`` given as ``_claims`` (the same
object, loads claims as well), the first model dropped from ``MODELS`` (13 records),
``paper`` matching the whole source (``cite`` of a source with a place returns it
unchanged), ``p.file`` for ``p.seed`` in ``solvable papers``, the JSON ``paper`` with the
place, ``/ (z * z)`` in the direct sinc3 (gram off by 2x), matrices refused by ``generate``,
the hint naming the other kernel's meaning twice, xu_ziyin's oracle citing seed 000, the sign
of delta in ``Trajectory.regime``, ``threads`` defaulting to None in ``gradient_descent``,
the low bound dropped from ``_plain``, ``_PLAIN_POWERS = 12``.  Format: see
``benchmarks/mutation.py``."""

_LAZY = "solvable/_core/lazy.py"
_INIT = "solvable/__init__.py"
_NUMERICS = "numerics/__init__.py"
_PLUGIN = "solvable/verification/pytest_plugin.py"
_PAPERS = "solvable/_core/papers.py"
_CLI = "solvable/verification/cli.py"
_FIGURES = "solvable/verification/figures/_common.py"
_GEOMETRY = "solvable/_core/geometry.py"
_SCALED = "solvable/_core/scaled.py"
_BACKENDS = "solvable/_core/backends.py"
_KERNEL_ORACLE = "solvable/verification/kernel_oracle.py"
_KUNIN = "solvable/models/kunin/single_neuron.py"
_DESCENT = "numerics/torch_flow/descent.py"
_TOLERANCE = "solvable/_core/tolerance.py"
# the test hints, narrowed by file name by the maintainer after the reviewer wrote the
# mutants (the reviewer gave every mutant one list of ten test files; not opened)
_T_LAZY = ["tests/test_lazy_imports.py", "tests/test_layers.py"]
_T_PAPERS = ["tests/test_papers.py", "tests/test_readme.py", "tests/test_figures.py"]
_T_GRAM = ["tests/test_gram_fast_paths.py", "tests/test_kernels.py"]
_T_SCALED = ["tests/test_scaled_sum_paths.py", "tests/test_kernels.py"]
_T_REGIME = ["tests/test_kunin_trajectory_regime.py"]
_T_FLOW = ["tests/test_torch_flow.py"]
_T_MC = ["tests/test_monte_carlo.py", "tests/test_tolerance.py"]

MUTANTS = [
    # ------------------------------------------------------------ lazy imports
    dict(
        name="core.lazy_setattr_on_stand_in",
        seed="core",
        backend="numpy",
        file=_LAZY,
        old="        setattr(importlib.import_module(self.__name__), attr, value)",
        new="        ModuleType.__setattr__(self, attr, value)",
        why=(
            "an attribute set through the stand-in lands on the stand-in, not on the module "
            "(a monkeypatch of numerics.scipy_ode.MAX_STEPS before its first use no longer "
            "reaches the integrator).  Observed, fresh interpreter: numerics.scipy_ode.FOO = "
            "3, then the real module's FOO is None (was 3) and numerics.scipy_ode is not "
            "imported by the assignment (was: imported)"
        ),
        tests=_T_LAZY,
        claims=[],
    ),
    dict(
        name="core.dir_hides_lazy_names",
        seed="core",
        backend="numpy",
        file=_INIT,
        old="    return sorted({*globals(), *__all__})",
        new="    return sorted(globals())",
        why=(
            "dir(solvable) lists only what is loaded already.  Observed, fresh interpreter: "
            "'Theorem', 'MODELS', 'kunin', 'generate', 'MC_CONFIDENCE' all missing from "
            "dir(solvable) (all there unmutated)"
        ),
        tests=_T_LAZY,
        claims=[],
    ),
    dict(
        name="core.numerics_dir_without_submodules",
        seed="core",
        backend="numpy",
        file=_NUMERICS,
        old="    return sorted({*__all__, *_SUBMODULES})",
        new="    return sorted(__all__)",
        why=(
            "dir(numerics) loses its submodules.  Observed: ['DEFAULT_DPS', 'METHODS', "
            "'simulate', 'systems'] instead of those and the 15 submodules (mp, models, "
            "torch_flow, scipy_ode, measures, ...)"
        ),
        tests=_T_LAZY,
        claims=[],
    ),
    dict(
        name="oracle.plugin_annotations_evaluated",
        seed="core",
        backend="numpy",
        file=_PLUGIN,
        old="from __future__ import annotations\n\nfrom types",
        new="from types",
        why=(
            "the fixtures' return annotations (solvable.verification.testing.Oracle, "
            ".EdgeCase) evaluated when the plugin is imported: the stand-in loads the oracle "
            "module, and sympy and the models behind it, in every pytest run.  Observed, "
            "fresh interpreter: after import solvable.verification.pytest_plugin, "
            "solvable.verification.testing and sympy are in sys.modules (neither was)"
        ),
        tests=_T_LAZY,
        claims=[],
    ),
    # ------------------------------------------------------------ papers and the CLI
    dict(
        name="core.cite_place_is_the_file",
        seed="core",
        backend="numpy",
        file=_PAPERS,
        old='place = source.split(" ", 1)[1].strip()',
        new='place = source.split(" ", 1)[0].strip()',
        why=(
            "cite keeps the wrong part of the source: the seed or file name instead of the "
            "place.  Observed: cite('001_070589003213e0cf.txt eq. (32)') 'Xu & Ziyin 2024, "
            "001_070589003213e0cf.txt' (was '..., eq. (32)'), cite('002 Lemma 1') 'Loureiro "
            "2025, 002'; cite of a bare seed or file name unchanged"
        ),
        tests=_T_PAPERS,
        claims=[],
    ),
    dict(
        name="oracle.cli_broken_pipe_exit_code",
        seed="core",
        backend="numpy",
        file=_CLI,
        old="        return 141  #",
        new="        return 1  #",
        why=(
            "a reader that leaves early reported as a failure.  Observed: python -m solvable "
            "figures --list | head -1 and errata | head -c 100 exit 1 (141 unmutated, where "
            "the pipe broke; still no traceback)"
        ),
        tests=_T_PAPERS,
        claims=[],
    ),
    dict(
        name="oracle.cli_figures_missing_dependency_exit",
        seed="core",
        backend="numpy",
        file=_CLI,
        old=('        print(f"solvable figures: {exc}", file=err)\n        return 1'),
        new=('        print(f"solvable figures: {exc}", file=err)\n        return 2'),
        why=(
            "the missing-dependency exit copied from the unknown-id branch above it.  "
            "Observed: main(['figures', '--only', '000-fig1', '--out', d]) without "
            "matplotlib prints the same one line naming solvable[figures] but returns 2 "
            "(the usage-error status) instead of 1"
        ),
        tests=_T_PAPERS,
        claims=[],
    ),
    dict(
        name="oracle.figure_line_cites_id",
        seed="core",
        backend="numpy",
        file=_FIGURES,
        old="{cite(self.seed_file):<21}",
        new="{cite(self.id):<21}",
        why=(
            "the wrong attribute cited: the figure's id names no paper, so cite returns it.  "
            "Observed: figures --list lines '000-fig1  000-fig1  Figure 1 ...' instead of "
            "'000-fig1  Node scaling (anon.)  Figure 1 ...'"
        ),
        tests=_T_PAPERS,
        claims=[],
    ),
    # ------------------------------------------------------------ geometry.py
    dict(
        name="core.chords_sign_swapped",
        seed="002",
        backend="numpy",
        file=_GEOMETRY,
        old="for squares, sign in ((diff, -1.0), (summ, 1.0)):",
        new="for squares, sign in ((diff, 1.0), (summ, -1.0)):",
        why=(
            "the underflowing sums taken again with the other chord: a tiny |u - v| "
            "recomputed as |u + v| and the other way round.  Observed: every diagonal chord "
            "|x_i - x_i| of norms_and_chords(X, X) is 2 (was 0), the near-parallel pair's "
            "|u - v| 2 instead of 1.7e-170, the near-antiparallel pair's |u + v| 2 instead "
            "of 3e-165; kernels.gram of nngp, rf, ntk_first_layer, ntk takes the diagonal "
            "at theta = pi (nngp 0.0706 for 0.2217, ntk_first_layer 0 for 0.2217) and an "
            "antiparallel pair at theta = 0 (nngp 0.141 for 0)"
        ),
        tests=_T_GRAM,
        claims=[],
    ),
    dict(
        name="core.chords_recomputed_pair_transposed",
        seed="002",
        backend="numpy",
        file=_GEOMETRY,
        old="            i, j = small.T",
        new="            j, i = small.T",
        why=(
            "the indices of the pairs taken again swapped (row of X as column of Y): harmless "
            "for X = Y, wrong otherwise.  Observed: norms_and_chords(X, Y) and (Y, X) with a "
            "near-parallel and a near-antiparallel pair off the diagonal: those chords "
            "(1.7e-170, 3e-165) replaced by other pairs' (relative error 1); (X, X) and the "
            "block test unchanged"
        ),
        tests=_T_GRAM,
        claims=[],
    ),
    # ------------------------------------------------------------ scaled.py
    dict(
        name="core.scaled_plain_first_factor_unchecked",
        seed="core",
        backend="numpy",
        file=_SCALED,
        old="all(_plain(v) for v, _ in factors)",
        new="all(_plain(v) for v, _ in factors[1:])",
        why=(
            "the plain path taken without checking each term's first factor.  Observed: "
            "scaled_sum([[(1e300, 1), (1e20, 1), (1e-20, 1)]]) (inf, True) instead of "
            "(1e300, False); 1e-300 * 1e-20 * 1e28 9.99988867e-293 (a subnormal partial "
            "product) instead of 9.999999999999999e-293; terms whose first factor is in "
            "range unchanged"
        ),
        tests=_T_SCALED,
        claims=[],
    ),
    dict(
        name="core.scaled_plain_counts_factors",
        seed="core",
        backend="numpy",
        file=_SCALED,
        old="sum(p for _, p in factors) <= _PLAIN_POWERS",
        new="len(factors) <= _PLAIN_POWERS",
        why=(
            "the bound on powers per term checks the number of factors instead: a factor "
            "with a high power takes the plain path.  Observed: scaled_sum of (1.1 2^90)^12 "
            "(2^-90)^12 nan (was 3.1384283767210035), (1.3 2^-96)^11 2^96 1.8389970949658e-288 "
            "(a subnormal partial product; was 1.8389970727885676e-288)"
        ),
        tests=_T_SCALED,
        claims=[],
    ),
    dict(
        name="core.scaled_plain_power_by_pow",
        seed="core",
        backend="numpy",
        file=_SCALED,
        old="prod = prod * _power(np.asarray(value, dtype=np.float64), power)",
        new="prod = prod * np.asarray(value, dtype=np.float64) ** power",
        why=(
            "the plain path's powers by numpy's pow instead of repeated products (which the "
            "scaled path's mantissas use): the two paths no longer round alike.  Observed: "
            "_numpy_plain against _numpy_scaled on 2000 random terms with powers 3 and 5: "
            "472 entries differ in the last bit (0 unmutated), and scaled_sum returns those"
        ),
        tests=_T_SCALED,
        claims=[],
    ),
    # ------------------------------------------------------------ backends.py
    dict(
        name="core.sinc3_series_taken_far",
        seed="002",
        backend="numpy",
        file=_BACKENDS,
        old="    out[far] = _np_sinc3_direct(z[far])",
        new="    out[far] = _np_sinc3_series(z[far])",
        why=(
            "the truncated series copy-pasted into the far branch (|z| > 1).  Observed: "
            "_np_sinc3 at 1.5, 3, -2 off in the 11th-16th digit (sinc3(3) "
            "0.11522583325119928, exact 0.11522583325411866); kernels.gram nngp and rf "
            "relative error 7e-11, ntk 4e-11 against dps=40 (4e-16 unmutated); |z| <= 1 "
            "unchanged"
        ),
        tests=_T_GRAM,
        claims=[],
    ),
    # ------------------------------------------------------------ kernel_oracle.py
    dict(
        name="oracle.kernel_hint_checks_itself",
        seed="002",
        backend="numpy",
        file=_KERNEL_ORACLE,
        old="check(KernelOracle(other, self.init, *self._points))",
        new="check(KernelOracle(self.name, self.init, *self._points))",
        why=(
            "the hint tries the checked kernel again instead of the other one, so it never "
            "matches.  Observed: testing.kernel('ntk_first_layer', init, X).check(gram('ntk', "
            "...)) and (ntk, ntk_first_layer), (nngp, ntk_first_layer) fail with no hint line "
            "(was: \"hint: it matches kernel 'ntk' (eq. (2.30), K_RF + K_NTK, ...) "
            'instead"); the message without a match unchanged'
        ),
        tests=_T_PAPERS,
        claims=[],
    ),
    # ------------------------------------------------------------ kunin single_neuron.py
    dict(
        name="kunin.trajectory_regime_ratio_dropped",
        seed="003",
        backend="mpmath",
        file=_KUNIN,
        old="self.setup.eta_w, norm, ratio)",
        new="self.setup.eta_w, norm)",
        why=(
            "ratio not passed on: regime's default 10 always.  Observed: "
            "closed_form(...).regime(r) of the kunin edge cases against kunin.regime at r = "
            "1, 2, 1e6: upstream and negative_a 'intermediate' (was 'rich') at r = 1, 2, "
            "scaled_inputs likewise, delayed_rich 'intermediate' (was 'delayed rich') at r "
            "= 1, 2, downstream / parallel / antiparallel / orthogonal 'rich' and lazy "
            "'lazy' (was 'intermediate') at 1e6; regime(0.5) returns 'lazy' instead of "
            "ValueError('ratio must be >= 1'); r = 10 unchanged"
        ),
        tests=_T_REGIME,
        claims=[],
    ),
    # ------------------------------------------------------------ descent.py
    dict(
        name="core.descent_threads_set_not_restored",
        seed="core",
        backend="torch",
        file=_DESCENT,
        old='        threads = _check_threads("threads", threads)',
        new='        torch.set_num_threads(_check_threads("threads", threads))',
        why=(
            "torch's threads set when the argument is checked, before the context that "
            "saves and restores them: it then saves the new count.  Observed: torch at 4 "
            "threads, gradient_descent(TwoLayerLinear, ...) with threads unset runs on 1 "
            "thread and leaves torch at 1 (was 4), with threads=3 leaves 3; threads=None "
            "and the results unchanged"
        ),
        tests=_T_FLOW,
        claims=[],
    ),
    # ------------------------------------------------------------ tolerance.py
    dict(
        name="core.normal_quantile_precedence",
        seed="core",
        backend="numpy",
        file=_TOLERANCE,
        old="/ (2 * entries))",
        new="/ 2 * entries)",
        why=(
            "the Bonferroni split multiplied instead of divided by the number of entries "
            "(parentheses dropped).  Observed: monte_carlo z 2.9677 for (50, 3) samples "
            "(was 3.5879) and 2.3263 for (50, 4, 5) (was 4.0556): narrower bands; (50,) "
            "samples (one entry) unchanged"
        ),
        tests=_T_MC,
        claims=[],
    ),
]
