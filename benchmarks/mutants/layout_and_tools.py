"""Mutants of the package layout and of the mutation-testing tools: the short import paths
(``solvable/_core/aliases.py``, its ``AliasFinder`` and ``install``, and the alias table
built in ``solvable/__init__.py``: ``solvable.kunin`` is ``solvable.models.kunin``, and a
submodule of an alias, ``solvable.confirmations.kunin``, is the home's submodule, never a
second copy), the docs extension's ``layer``, ``public_modules`` and ``_in_a_split_package``
(``docs/_ext/solvable_docs.py``), the key carrier ``benchmarks/mutation_rekey.py``
(``points``, ``_locate``, ``plan``, ``rewrite``) and the full-suite classifier ``full_suite``
of ``benchmarks/mutation_confirm.py`` (killed by an assertion, by a crash, survived, not
finished).

Written by an outside reviewer (a helper session) who read the code but not the tests;
``why`` is the wrong behaviour the reviewer observed with the mutant applied to a copy of
the repository, each in a fresh interpreter (``PYTHONDONTWRITEBYTECODE=1``).  The import
checks ran ``importlib.import_module`` on the alias and compared with the home; ``_locate``
read the repository's git history (``HEAD``, ``solvable/_core/tolerance.py``, operator
``core/NumberReplacer``); ``plan`` ran with ``_old_keys``, ``_locate`` and ``_tree_modules``
replaced by stubs (one point of ``solvable/a.py`` moved one line down into
``solvable/b.py``); ``full_suite`` ran with ``subprocess.Popen`` replaced by a fake that
writes a given junit file and log and returns a given exit status (or raises
``TimeoutExpired``), so no pytest was run.  The test hints were filled in by the maintainer.
Of the 16 written, 15 are kept: ``confirm_last_killer`` (``killer or`` dropped, naming the
last assertion failure of the report) was dropped as equivalent: the mutation plugin stops
the run at the first assertion failure, so a report holds one (with two workers, two at
most, both genuine killers, in an arbitrary order).  The maintainer read the list
before running it and wrote tests for what the suite had no test of (a point's context,
chained moves, ``_locate`` past the last occurrence, ``plan``, a run without a report, a
stale report); the first run then had 10 killed by an assertion, 4 by a crash only (the
first model's alias, a package page's layer, the core pages, a key past the last
occurrence) and 1 survivor (the stale report); all are now killed by an assertion in
``tests/test_short_import_paths.py``, ``tests/test_docs.py``, ``tests/test_mutation_rekey.py``
and ``tests/test_mutation_confirm.py``.  Format: see ``benchmarks/mutation.py``."""

MUTANTS = [
    # ------------------------------------------------------------------ aliases
    dict(
        name="layout_tools.alias_home_drops_dot",
        seed="core",
        backend="numpy",
        file="solvable/_core/aliases.py",
        old="return self.aliases[head] + dot + rest",
        new="return self.aliases[head] + rest",
        why=(
            "the separator between the home and the rest of the name is lost: solvable.kunin "
            "still is solvable.models.kunin, but import solvable.kunin.cases raises "
            "ModuleNotFoundError: No module named 'solvable.models.kunincases', and "
            "solvable.confirmations.kunin looks for 'solvable.verification.confirmationskunin'."
        ),
        tests=["tests/test_short_import_paths.py"],
        claims="",
    ),
    dict(
        name="layout_tools.alias_finder_appended_last",
        seed="core",
        backend="numpy",
        file="solvable/_core/aliases.py",
        old=(
            "sys.meta_path[:] = [finder, *(f for f in sys.meta_path "
            "if not isinstance(f, AliasFinder))]"
        ),
        new=(
            "sys.meta_path[:] = [*(f for f in sys.meta_path "
            "if not isinstance(f, AliasFinder)), finder]"
        ),
        why=(
            "the finder goes last on sys.meta_path, so the path finder finds a submodule of "
            "an alias in the home package's folder first: solvable.kunin is still the home, "
            "but import solvable.kunin.cases is not solvable.models.kunin.cases and "
            "solvable.confirmations.kunin is not solvable.verification.confirmations.kunin "
            "(a second copy of each module)."
        ),
        tests=["tests/test_short_import_paths.py"],
        claims="",
    ),
    dict(
        name="layout_tools.alias_install_keeps_old_finders",
        seed="core",
        backend="numpy",
        file="solvable/_core/aliases.py",
        old=(
            "sys.meta_path[:] = [finder, *(f for f in sys.meta_path "
            "if not isinstance(f, AliasFinder))]"
        ),
        new="sys.meta_path[:] = [finder, *sys.meta_path]",
        why=(
            "a second install (importlib.reload(solvable)) no longer replaces the first "
            "finder: after the reload sys.meta_path holds 2 AliasFinder instances (length 7 "
            "instead of 6), one more per reload."
        ),
        tests=["tests/test_short_import_paths.py"],
        claims="",
    ),
    dict(
        name="layout_tools.alias_first_model_missing",
        seed="core",
        backend="numpy",
        file="solvable/__init__.py",
        old='f"{__name__}.models.{name}" for name in _MODEL_MODULES}',
        new='f"{__name__}.models.{name}" for name in _MODEL_MODULES[1:]}',
        why=(
            "the first model of the list gets no alias: solvable.xu_ziyin is still bound as "
            "an attribute (from solvable import xu_ziyin works) but import solvable.xu_ziyin "
            "raises ModuleNotFoundError: No module named 'solvable.xu_ziyin' (solvable.kunin "
            "still works)."
        ),
        tests=["tests/test_short_import_paths.py"],
        claims="",
    ),
    # ------------------------------------------------------------------ docs extension
    dict(
        name="layout_tools.docs_layer_package_itself",
        seed="core",
        backend="numpy",
        file="docs/_ext/solvable_docs.py",
        old='if module == package or module.startswith(package + "."):',
        new='if module.startswith(package + "."):',
        why=(
            "a layer's own package is in no layer: layer('solvable._core'), "
            "layer('solvable.models'), layer('numerics') and layer('solvable.verification') "
            "raise ValueError '... is in no layer folder' (their submodules, e.g. "
            "numerics.measures -> numerics, and 'solvable' -> models are still right)."
        ),
        tests=["tests/test_docs.py"],
        claims="",
    ),
    dict(
        name="layout_tools.docs_core_not_exempt",
        seed="core",
        backend="numpy",
        file="docs/_ext/solvable_docs.py",
        old='if any(p.startswith("_") and p != "_core" for p in parts):',
        new='if any(p.startswith("_") for p in parts):',
        why=(
            "the core package is skipped as private: public_modules() returns 59 names "
            "instead of 73, none of them solvable._core or a solvable._core.* module "
            "(14 before), so layer 0 gets no API page."
        ),
        tests=["tests/test_docs.py"],
        claims="",
    ),
    dict(
        name="layout_tools.docs_split_model_off_by_one",
        seed="core",
        backend="numpy",
        file="docs/_ext/solvable_docs.py",
        old='parts[:2] == ["solvable", "models"] and len(parts) > 3',
        new='parts[:2] == ["solvable", "models"] and len(parts) >= 3',
        why=(
            "a model module itself counts as a file of a split package: "
            "_in_a_split_package('solvable.models.kunin') is True (False before), and "
            "public_modules() drops every model (59 names instead of 73, "
            "solvable.models.kunin missing)."
        ),
        tests=["tests/test_docs.py"],
        claims="",
    ),
    # ------------------------------------------------------------------ mutation_rekey.py
    dict(
        name="layout_tools.rekey_context_shifted",
        seed="core",
        backend="numpy",
        file="benchmarks/mutation_rekey.py",
        old="(line - 2, line - 1, line))",
        new="(line - 1, line, line + 1))",
        why=(
            "the context is the point's line and the two after it, not the lines either "
            "side: points('m.py', 'def f(x):\\n    if x > 1:\\n ...', 'core/NumberReplacer') "
            "gives the '1' on line 2 the context ('if x > 1:', 'return x + 2', 'return 3') "
            "instead of ('def f(x):', 'if x > 1:', 'return x + 2')."
        ),
        tests=["tests/test_mutation_rekey.py"],
        claims="",
    ),
    dict(
        name="layout_tools.rekey_locate_off_by_one",
        seed="core",
        backend="numpy",
        file="benchmarks/mutation_rekey.py",
        old="if int(occurrence) < len(found) and",
        new="if int(occurrence) <= len(found) and",
        why=(
            "a key whose occurrence is one past the last point crashes instead of naming no "
            "mutant: _locate('HEAD', 'solvable/_core/tolerance.py:244:core/NumberReplacer:102') "
            "(102 points there) raises IndexError: list index out of range instead of "
            "returning None."
        ),
        tests=["tests/test_mutation_rekey.py"],
        claims="",
    ),
    dict(
        name="layout_tools.rekey_stem_filter_always",
        seed="core",
        backend="numpy",
        file="benchmarks/mutation_rekey.py",
        old="if len(same) > 1:",
        new="if len(same) >= 1:",
        why=(
            "the tie-break by module name also filters a unique match, so a point that moved "
            "to another file is lost: plan() for a point of solvable/a.py now found only in "
            "solvable/b.py returns ({}, ['...: 0 matching points in the working tree']) "
            "instead of the move to 'solvable/b.py:3:core/NumberReplacer:0'."
        ),
        tests=["tests/test_mutation_rekey.py"],
        claims="",
    ),
    dict(
        name="layout_tools.rekey_no_break",
        seed="core",
        backend="numpy",
        file="benchmarks/mutation_rekey.py",
        old="break",
        new="continue",
        why=(
            "a rewritten line is matched again by the later moves, so moves chain: "
            "rewrite('\"a:1:op:0\" = \"x\"', {'a:1:op:0': 'b:1:op:0', 'b:1:op:0': "
            '\'c:1:op:0\'}) gives \'"c:1:op:0" = "x"\' instead of \'"b:1:op:0" = "x"\'.'
        ),
        tests=["tests/test_mutation_rekey.py"],
        claims="",
    ),
    # ------------------------------------------------------------------ mutation_confirm.py
    dict(
        name="layout_tools.confirm_and_or",
        seed="core",
        backend="numpy",
        file="benchmarks/mutation_sample.py",
        old='if failure.tag == "failure" and harness.is_assertion(message):',
        new='if failure.tag == "failure" or harness.is_assertion(message):',
        why=(
            "every <failure> is taken for an assertion: a test failing with "
            "'ValueError: bad' (exit 1) is reported by='assertion', "
            "killer='tests/test_a.py::test_a' instead of by='crash', "
            "killer='tests/test_a.py::test_a: ValueError: bad'."
        ),
        tests=["tests/test_mutation_confirm.py"],
        claims="",
    ),
    dict(
        name="layout_tools.confirm_rc_ignored",
        seed="core",
        backend="numpy",
        file="benchmarks/mutation_sample.py",
        old="if crashes or rc != 0:",
        new="if crashes and rc != 0:",
        why=(
            "a run that failed without writing the junit file (exit status 4, no xml) is "
            "reported {'verdict': 'survived', 'confirmed': 'full suite'} instead of "
            "killed by='crash' with the log's last line as killer."
        ),
        tests=["tests/test_mutation_confirm.py"],
        claims="",
    ),
    dict(
        name="layout_tools.confirm_stale_xml",
        seed="core",
        backend="numpy",
        file="benchmarks/mutation_confirm.py",
        old="xml.unlink(missing_ok=True)",
        new="log.unlink(missing_ok=True)",
        why=(
            "the previous run's junit file is read again when this run writes none: with a "
            "stale confirm-junit.xml holding an 'assert 0' failure and a run that exits 0 "
            "without writing one, the verdict is killed by='assertion' instead of "
            "survived/'full suite'."
        ),
        tests=["tests/test_mutation_confirm.py"],
        claims="",
    ),
    dict(
        name="layout_tools.confirm_timeout_rc",
        seed="core",
        backend="numpy",
        file="benchmarks/mutation_confirm.py",
        old="rc = None",
        new="rc = 1",
        why=(
            "a run past the limit is taken for a crash: with wait raising TimeoutExpired "
            "the verdict is killed by='crash', killer=<the log's last line> instead of "
            "{'verdict': 'survived', 'confirmed': 'not finished in 5 s'}."
        ),
        tests=["tests/test_mutation_confirm.py"],
        claims="",
    ),
]
