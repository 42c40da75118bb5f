"""Mutants of the cache-users map of the mutation sample: the pytest plugin
``benchmarks/cache_users.py`` (with ``SOLVABLE_CACHE_USERS`` naming a folder: per test, which
``functools`` caches of ``solvable/`` and ``numerics/`` it hit or missed, one JSON per
process), the sampler's ``cache_users`` (the users per cached function, a builder's users
passed on to the caches it missed into, to a fixed point), ``cached_users`` (the users of the
functions whose span holds a mutated line), the ``users`` branch of ``select_tests``, the
cache-users folder of ``build_map`` and the ``users`` of ``run_one``
(``benchmarks/mutation_sample.py``), and the strip reserved for a figure's caption
(``_LINE_INCHES`` and ``_save`` of ``solvable/verification/figures/_common.py``).

Written by an outside reviewer (a helper session) who read the code but not the tests (nor
``benchmarks/mutation_equivalent.toml`` or ``docs/mutation_testing.md``); ``why`` is the wrong
behaviour the reviewer observed with the mutant applied to a copy of the repository (a git
worktree of ``HEAD`` with the working tree's versions of the three files), the same script
run on the unmutated copy first.  The plugin and sampler checks used a fake package
``solvable/demo.py``, not on the import path, loaded by ``importlib`` from a test file: four
cached functions, ``leaf`` (lines 4-6), ``mid`` = ``leaf + 1`` (9-11), ``top`` = ``mid + 1``
(14-17) and ``alone`` (20-22), and the tests, in this order, ``x`` (``mid(1)``: misses
``mid`` and ``leaf``), ``y`` (``top(1)``: misses ``top``, hits ``mid``), ``z`` (``top(1)``:
a hit), ``w`` (``leaf(1)``: a hit), ``none`` (a cache outside the packages) and ``fail``
(``alone(1)``, ``leaf(1)``, then ``assert False``), run by ``python -m pytest -q -n 0 -p
no:cacheprovider -p cache_users -o addopts=`` with ``PYTHONPATH`` the copy's ``benchmarks/``;
then ``cache_users`` on the folder and ``cached_users`` / ``select_tests`` (``cached=True``)
on a covmap with ``failed = [fail]`` and line coverage ``6: [x]``, ``11: [x]``, ``22:
[fail]``.  Unmutated: the users of ``leaf`` and ``mid`` are {fail, w, x, y, z}, of ``top`` {y,
z}, of ``alone`` {fail}; ``select_tests`` on line 6 gives [w, x, y, z] ``"module"``, on line
17 [x, y, z].  ``build_map`` and ``run_one`` ran on a fake workspace (``pristine/`` and
``snapshot/`` holding a package ``solvable`` with the same ``demo.py`` and two tests, ``a``:
``demo.mid(1)`` with no check, ``b``: ``assert demo.leaf(1) == 2``, ``workers=1``), the
snapshot's line 6 mutated to ``return n * 3``: unmutated, the map lists ``b`` as a user of
``leaf`` and ``run_one`` runs 2 tests and is killed by ``b``.  The caption checks rendered a
two-panel figure (x labels) through ``_save`` with captions of 2, 5, 9 and 21 lines and
measured the gap between the top of the caption and the bottom of the axes' tight bounding
boxes: unmutated +0.22, +0.20, +0.18 and +0.11 inch.

Of 32 written, 14 are kept.  Dropped as equivalent or not shown to be observable:

* ``run_one``: ``cached_users(covmap, module, changed)`` for ``lines``: the same users (the
  statement lines added to ``changed`` lie in the same function);
* ``cache_users``: only ``users[callee] |= extra`` changed to the caller: an endless loop
  (``changed`` stays true), a hang rather than a wrong answer (the direction is kept below
  as the swap of both lines);
* ``_save``: ``extra = len(lines) * _LINE_INCHES`` (one line less) and ``bottom = extra /
  height``: the gap shrinks or grows but the caption overlaps the axes only at 21 lines.

Confirmed but left out to keep the batch near the asked size (each observed): the plugin's
flag with ``before`` and ``after`` swapped (every miss recorded as 0), ``last`` the *first*
line of the code (``min``), the node id as ``item.name``, the file named
``cache_users-<pid>.json`` (the sampler's glob reads nothing), another variable name read
(no file written); the sampler's ``if not missed``, ``if i == index`` (no builder closure),
``tests.get`` for ``tests.setdefault`` (an index past the test list), ``[first, first,
ids]``, ``all`` for ``any`` of the lines, the users branch guarded by ``at_import`` in
``select_tests``, ``build_map`` without ``-p cache_users`` or without clearing the folder (a
stale file's test listed as a user); the caption's line at 96 per inch (points taken for
pixels: overlap 0.14 inch at 9 lines).  The test hints are the files the
maintainer's brief named.  Format: see ``benchmarks/mutation.py``."""

_PLUGIN = "benchmarks/cache_users.py"
_SAMPLE = "benchmarks/mutation_sample.py"
_FIGURES = "solvable/verification/figures/_common.py"
_T = ["tests/test_mutation_sample.py"]
_TF = ["tests/test_figures.py"]

MUTANTS = [
    # ------------------------------------------------------------------ the plugin
    dict(
        name="cache_users.plugin_flag_from_hits",
        seed="core",
        backend="numpy",
        file=_PLUGIN,
        old="int(a[1] > b[1])",
        new="int(a[0] > b[0])",
        why=(
            "the flag marks hits, not misses: x is recorded [[leaf, 0], [mid, 0]] and y "
            "[[mid, 1], [top, 0]], so top's users are {x, y, z} instead of {y, z}, leaf's "
            "{fail, w, x} instead of {fail, w, x, y, z}, alone's {fail, w, x} instead of "
            "{fail}; select_tests on leaf's line 6 gives [w, x] instead of [w, x, y, z]."
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="cache_users.plugin_hits_ignored",
        seed="core",
        backend="numpy",
        file=_PLUGIN,
        old="if a != b]",
        new="if a[1] != b[1]]",
        why=(
            "only misses are recorded: z and w are no users at all, y is not a user of mid; "
            "leaf's and mid's users are {x} instead of {fail, w, x, y, z}, top's {y} instead "
            "of {y, z}; select_tests gives [x] on line 6 (instead of [w, x, y, z]) and [x, y] "
            "on line 17 (instead of [x, y, z])."
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="cache_users.plugin_path_without_package",
        seed="core",
        backend="numpy",
        file=_PLUGIN,
        old="rel = Path(*parts[i:]).as_posix()",
        new="rel = Path(*parts[i + 1:]).as_posix()",
        why=(
            "the spans are named 'demo.py' instead of 'solvable/demo.py', so cached_users "
            "of 'solvable/demo.py' is empty for every line (lines 6 and 22: [] instead of "
            "{fail, w, x, y, z} and {fail}) and select_tests on line 6 or 17 gives only the "
            "line-covering [x]."
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="cache_users.plugin_span_of_the_wrapper",
        seed="core",
        backend="numpy",
        file=_PLUGIN,
        old='span = _source_span(getattr(obj, "__wrapped__", None))',
        new="span = _source_span(obj)",
        why=(
            "the cache wrapper has no __code__, so no wrapper is found: the JSON holds "
            "wrappers [] and users {}, cache_users returns {} and select_tests on line 6 "
            "gives [x] instead of [w, x, y, z]."
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------------ cache_users
    dict(
        name="cache_users.flag_read_as_index",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old="for index, _ in used:\n                users",
        new="for _, index in used:\n                users",
        why=(
            "the miss flag is taken for the wrapper index: every user is put on wrappers 0 "
            "and 1 (leaf, mid), top and alone get no users, so cached_users on lines 16, 17 "
            "and 22 is [] (instead of {y, z} and {fail}) and select_tests on line 17 gives "
            "[x] instead of [x, y, z]."
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="cache_users.closure_reversed",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old=(
            "extra = users.get(caller, set()) - users.setdefault(callee, set())\n"
            "                if extra:\n"
            "                    users[callee] |= extra"
        ),
        new=(
            "extra = users.get(callee, set()) - users.setdefault(caller, set())\n"
            "                if extra:\n"
            "                    users[caller] |= extra"
        ),
        why=(
            "the users flow from the callee to the builder: leaf and mid lose z ({fail, w, x, "
            "y} instead of {fail, w, x, y, z}), top gets {fail, w, x, y, z} instead of {y, "
            "z} and alone {fail, w, x, y} instead of {fail}; select_tests on line 6 gives "
            "[w, x, y] instead of [w, x, y, z]."
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="cache_users.closure_one_pass",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old="    while changed:",
        new="    if changed:",
        why=(
            "the closure stops after one pass: z (a user of top, a builder of mid, a builder "
            "of leaf, recorded in that order) reaches mid but not leaf: leaf's users are "
            "{fail, w, x, y} instead of {fail, w, x, y, z} and select_tests on line 6 gives "
            "[w, x, y] instead of [w, x, y, z]."
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------------ cached_users
    dict(
        name="cache_users.span_last_line_excluded",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old="if any(first <= n <= last for n in lines)",
        new="if any(first <= n < last for n in lines)",
        why=(
            "a function's last line (its return) is outside its span: cached_users on lines "
            "6, 11, 17 and 22 is [] (instead of {fail, w, x, y, z}, the same, {y, z} and "
            "{fail}) and select_tests on line 6 gives [x] instead of [w, x, y, z], on line "
            "17 [x] instead of [x, y, z]."
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------------ select_tests
    dict(
        name="cache_users.failed_user_kept",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old="found |= set(users) - failed",
        new="found |= set(users)",
        why=(
            "a user that failed when the map was made is selected: select_tests on line 6 "
            "(users {fail, w, x, y, z}, failed [fail]) gives [fail, w, x, y, z] instead of "
            "[w, x, y, z]."
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="cache_users.users_selection_kind",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old='found |= set(users) - failed\n        how = "module"',
        new='found |= set(users) - failed\n        how = "line"',
        why=(
            "tests added as users are reported as found by line: select_tests on line 6 and "
            "on line 17 returns the same tests with the kind 'line' instead of 'module'."
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------------ build_map, run_one
    dict(
        name="cache_users.map_env_names_workspace",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old="env[CACHE_USERS_ENV] = str(users_dir)",
        new="env[CACHE_USERS_ENV] = str(workspace)",
        why=(
            "the plugin writes its files into the workspace, not the folder cache_users "
            "reads: the map's cached is {} instead of {'solvable/demo.py': [[4, 6, [0, 1]], "
            "[9, 11, [0, 1]]]}, b is not in its tests, and run_one of the leaf mutant runs 1 "
            "test and reports 'survived' instead of 2 tests, killed by b."
        ),
        tests=_T,
        claims=[],
    ),
    dict(
        name="cache_users.run_one_users_at_import",
        seed="core",
        backend="numpy",
        file=_SAMPLE,
        old="users = cached_users(covmap, module, lines) if cached else set()",
        new="users = cached_users(covmap, module, lines) if at_import else set()",
        why=(
            "a line of a cached body is never at import, so its users are never looked up: "
            "run_one of the leaf mutant (line 6) runs 1 test and reports 'survived' (exit 0) "
            "instead of 2 tests, killed by the assertion of b (exit 1)."
        ),
        tests=_T,
        claims=[],
    ),
    # ------------------------------------------------------------------ the caption strip
    dict(
        name="cache_users.caption_line_without_spacing",
        seed="core",
        backend="numpy",
        file=_FIGURES,
        old="_LINE_INCHES = 1.2 * _CAPTION_POINTS / 72",
        new="_LINE_INCHES = _CAPTION_POINTS / 72",
        why=(
            "a caption line is taken as tall as the font size: the strip is too small and "
            "the caption overlaps the axes (their x labels): a 9-line caption on a 12 x 3.6 "
            "figure reaches 0.034 inch above the axes' bottom (gap -0.034 instead of +0.180), "
            "a 21-line one 0.368 inch (instead of +0.112)."
        ),
        tests=_TF,
        claims=[],
    ),
    dict(
        name="cache_users.caption_figure_not_enlarged",
        seed="core",
        backend="numpy",
        file=_FIGURES,
        old="fig.set_size_inches(width, height + extra)",
        new="fig.set_size_inches(width, height)",
        why=(
            "the figure keeps its height, so the strip is computed for a taller figure than "
            "the one drawn: a 9-line caption on a 12 x 3.6 figure overlaps the axes by 0.166 "
            "inch (gap -0.166 instead of +0.180), a 21-line one by 1.18 inch."
        ),
        tests=_TF,
        claims=[],
    ),
]
