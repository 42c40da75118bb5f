"""Unbiased mutation testing with cosmic-ray: a seeded, stratified random sample of every
mutant cosmic-ray's operators make in ``solvable/`` and ``numerics/``, each run against only
the tests that cover the mutated line (a coverage map with per-test contexts).

Run (from the repository root; ``pip install pytest-cov`` for ``map``)::

    python benchmarks/mutation_sample.py init            # snapshot, cosmic-ray init, sample
    python benchmarks/mutation_sample.py map             # line -> covering tests (minutes)
    python benchmarks/mutation_sample.py exec            # the sampled mutants (resumable)
    python benchmarks/mutation_sample.py exec --max 30   # a pilot: at most 30 of them
    python benchmarks/mutation_sample.py clone DIR       # a second workspace, to run in parallel:
    python benchmarks/mutation_sample.py exec --shard 0/2 &   # half here,
    python benchmarks/mutation_sample.py --workspace DIR exec --shard 1/2   # half there,
    python benchmarks/mutation_sample.py merge DIR       # then its results into this one
    python benchmarks/mutation_sample.py report --markdown table.md --survivors

Everything happens in a workspace (``--workspace``, default
``~/.cache/solvable-mutation``), never in the working tree: cosmic-ray mutates files in
place.  ``init`` copies the files git knows of (``git ls-files --cached --others
--exclude-standard``) twice, ``snapshot/`` (mutated in place, one mutant at a time) and
``pristine/`` (never touched: the mutated file and lines are found by comparing the two),
writes ``cosmic-ray.toml`` from ``[tool.cosmic-ray]`` of ``pyproject.toml`` (cosmic-ray 8.7
reads only its own file, whose top-level table is ``[cosmic-ray]``), runs ``cosmic-ray
init`` over every module and marks every work item outside the sample as skipped
(``WorkerOutcome.SKIPPED``, as cosmic-ray's own ``cr-filter-*`` tools do).

The sample: ``size`` mutants (default 300) allocated to modules in proportion to each
module's mutant count, at least ``minimum`` per module (0 in ``pyproject.toml``: purely
proportional; all of a module with fewer), by largest remainders; inside a module a
``random.Random(seed)`` sample of the mutants sorted by their stable key
(:func:`mutant_key`: module, line, operator, occurrence; cosmic-ray's job ids are random
uuids).  Same code, same seed: same sample.

A *focus* stratum (``[tool.cosmic-ray.sample.focus]``, ``{group name prefix: count}``) adds
``count`` more mutants of one report group, drawn the same way (in proportion to its modules'
remaining mutants) from those the main sample left out.  A small group
(``solvable/verification/testing.py``
has 2 of 300 in proportion) then gets enough mutants for its own interval: the group's row
counts the main sample and its focus draw together (a proportional random sample of the
group), while the *overall* row counts the main sample only, so the focus draws do not bias it.

Per mutant, cosmic-ray's test command is this file's ``run-one``: it finds the mutated lines,
maps each to its statement (a multi-line statement is recorded by coverage on its first line),
looks up the tests whose context covered it (``pytest --cov-context=test``) and runs only
those (``-n 0``, fastest first) with a time limit of ``timeout-factor`` times their measured
time (at least ``min-timeout`` seconds).  A line run only at import time (a ``def`` line, a
module constant, a default argument) is covered by no test context: it gets every test that
covers some line of its module.  A mutant no test covers survives ("not covered") without
running anything.  As in ``benchmarks/mutation.py``, the run stops at the first test that fails
by an *assertion* (that file is loaded as a pytest plugin), and a kill is "assertion" or
"crash" (only exceptions).

``report`` counts, by module group, killed / survived / timeout / equivalent, the score
(killed + timeout) / (run - equivalent - incompetent) and its Wilson 95% interval, and lists
the survivors with their diffs.  Equivalent mutants are argued one per line in
``benchmarks/mutation_equivalent.toml`` under their stable key.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import filecmp
import importlib.util
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WORKSPACE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
DEFAULT_WORKSPACE = DEFAULT_WORKSPACE / "solvable-mutation"
EQUIVALENT_FILE = ROOT / "benchmarks" / "mutation_equivalent.toml"
SOURCES = ("solvable", "numerics")
VERDICT_TAG = "MUTATION-SAMPLE"  # the runner's last stdout line: f"{VERDICT_TAG} {json}"
CACHE_USERS_ENV = "SOLVABLE_CACHE_USERS"  # benchmarks/cache_users.py's ENV (the map sets it)
Z95 = 1.959963984540054  # scipy.stats.norm.ppf(0.975)

#: settings of ``[tool.cosmic-ray.sample]`` and their defaults
SAMPLE_DEFAULTS: dict[str, Any] = {
    "size": 300,
    "seed": 0,
    "minimum": 0,
    "timeout-factor": 5.0,
    "min-timeout": 60.0,
    "focus": {},
    # tests not in the coverage map (never run for a mutant): the documentation build and
    # the notebooks (minutes each, and they run the code through subprocesses and kernels
    # that coverage does not follow), and the two checks of mutation tables
    # tests of every module's source that no line coverage selects (compiling, annotations):
    # run for every mutant, first
    "every-mutant-tests": [],
    "exclude-tests": [
        "tests/test_docs.py",
        "tests/test_notebooks.py",
        "tests/test_mutants.py",
        "tests/test_mutation_sample.py",
    ],
}

#: the report's module groups, in order; a module goes to the first group that lists it
#: (a module ``stem.py`` or any module of the package ``stem/``), else to "rest of solvable"
#: / "rest of numerics" by its top directory
GROUPS: dict[str, tuple[str, ...]] = {
    # (the pytest oracle: testing.py and the parts split off it, so that the group holds
    # the same code as before the split)
    "solvable/verification/testing.py": (
        "solvable/verification/testing",
        "solvable/verification/oracle_inputs",
        "solvable/verification/gradient_descent",
        "solvable/verification/reports",
        "solvable/verification/oracle_notes",
        "solvable/verification/kernel_oracle",
    ),
    "integrators (numerics/mp, scipy_ode, torch_flow)": (
        "numerics/mp",
        "numerics/scipy_ode",
        "numerics/torch_flow",
    ),
    "closed forms (xu_ziyin, kunin, linear_node_scaling)": (
        "solvable/models/xu_ziyin",
        "solvable/models/kunin",
        "solvable/models/linear_node_scaling",
    ),
}
REST = {"solvable": "rest of solvable", "numerics": "rest of numerics"}


# ---------------------------------------------------------------------------
# configuration and workspace
# ---------------------------------------------------------------------------
def load_settings(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, Any]:
    """``[tool.cosmic-ray]`` of ``pyproject``, with ``sample`` completed by the defaults."""
    section = dict(tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["cosmic-ray"])
    section["sample"] = {**SAMPLE_DEFAULTS, **section.get("sample", {})}
    return section


def cosmic_ray_config(settings: Mapping[str, Any], workspace: Path) -> dict[str, Any]:
    """cosmic-ray's own configuration (its ``[cosmic-ray]`` table): ``settings`` less the
    ``sample`` table, with the test command set to this file's ``run-one`` in the snapshot."""
    config = {k: v for k, v in settings.items() if k != "sample"}
    script = workspace / "snapshot" / "benchmarks" / Path(__file__).name
    config["test-command"] = f"{sys.executable} {script} --workspace {workspace} run-one"
    return config


def environment(snapshot: Path) -> dict[str, str]:
    """The snapshot (then its ``benchmarks/``, for the plugin) first on the import path: the
    editable install of the working tree is a meta-path finder consulted after ``sys.path``."""
    env = dict(os.environ)
    paths = [str(snapshot), str(snapshot / "benchmarks"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(filter(None, paths))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def check_imports_from(snapshot: Path) -> None:
    """``solvable`` and ``numerics`` must be imported from the snapshot, not the work tree."""
    code = (
        "import json, numerics, solvable as s; print(json.dumps([s.__file__, numerics.__file__]))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=snapshot, env=environment(snapshot),
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    files = [Path(f).resolve() for f in json.loads(out.strip().splitlines()[-1])]
    if not all(f.is_relative_to(snapshot.resolve()) for f in files):
        raise RuntimeError(f"the snapshot is not what is imported: {files}")


def source_files(tree: Path) -> list[str]:
    """The modules of :data:`SOURCES` in ``tree``, relative, sorted."""
    return sorted(str(p.relative_to(tree)) for d in SOURCES for p in (tree / d).rglob("*.py"))


def restore(workspace: Path) -> list[str]:
    """Put back every source file of the snapshot that differs from ``pristine/`` (a run
    killed mid-mutant leaves its mutant in place); returns those files."""
    snapshot, pristine = workspace / "snapshot", workspace / "pristine"
    fixed = []
    for rel in source_files(pristine):
        if not filecmp.cmp(pristine / rel, snapshot / rel, shallow=False):
            shutil.copy2(pristine / rel, snapshot / rel)
            fixed.append(rel)
    return fixed


# ---------------------------------------------------------------------------
# mutants, keys and the sample
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Mutant:
    """One cosmic-ray work item: ``module`` (relative path), the 1-based ``line`` and the
    column of the mutated node, the ``operator`` and its ``occurrence`` in the module."""

    job_id: str
    module: str
    line: int
    col: int
    operator: str
    occurrence: int

    @property
    def key(self) -> str:
        """The stable key (:func:`mutant_key`)."""
        return mutant_key(self.module, self.line, self.operator, self.occurrence)


def mutant_key(module: str, line: int, operator: str, occurrence: int) -> str:
    """``module:line:operator:occurrence``: the same for the same mutant of the same code
    in every session (cosmic-ray's job ids are random); a change above the line moves it,
    and an equivalence entry that no longer matches is then reported as stale."""
    return f"{Path(module).as_posix()}:{line}:{operator}:{occurrence}"


def mutants_of(work_db: Any) -> list[Mutant]:
    """The single-mutation work items of a cosmic-ray ``WorkDB``, sorted by key."""
    out = []
    for item in work_db.work_items:
        (m,) = item.mutations
        out.append(Mutant(item.job_id, Path(m.module_path).as_posix(), m.start_pos[0],
                          m.start_pos[1], m.operator_name, m.occurrence))  # fmt: skip
    return sorted(out, key=lambda m: (m.module, m.line, m.col, m.operator, m.occurrence))


def allocate(counts: Mapping[str, int], size: int, minimum: int = 2) -> dict[str, int]:
    """How many of ``size`` mutants to draw from each module: proportional to ``counts``,
    at least ``min(minimum, count)`` and at most ``count`` each, summing to ``size`` (or to
    every mutant when there are fewer), by largest remainders (ties by module name)."""
    total = sum(counts.values())
    if size >= total:
        return dict(counts)
    floor_ = {m: min(minimum, c) for m, c in counts.items()}
    if size < sum(floor_.values()):
        raise ValueError(f"size {size} is below the minimum of {sum(floor_.values())}")
    quota = {m: size * c / total for m, c in counts.items()}
    alloc = {m: min(c, max(floor_[m], math.floor(quota[m]))) for m, c in counts.items()}
    while (gap := size - sum(alloc.values())) != 0:
        if gap > 0:
            open_ = [m for m in alloc if alloc[m] < counts[m]]
            order = sorted(open_, key=lambda m: (alloc[m] - quota[m], m))
        else:
            open_ = [m for m in alloc if alloc[m] > floor_[m]]
            order = sorted(open_, key=lambda m: (quota[m] - alloc[m], m))
        for m in order[: abs(gap)]:
            alloc[m] += 1 if gap > 0 else -1
    return alloc


def draw(mutants: Sequence[Mutant], size: int, seed: int | str,
         minimum: int = 2) -> list[Mutant]:  # fmt: skip
    """The seeded stratified sample (:func:`allocate` per module, then a
    ``random.Random(seed)`` sample of each module's mutants in key order, modules in name
    order), in key order."""
    by_module: dict[str, list[Mutant]] = {}
    for m in sorted(mutants, key=lambda m: m.key):
        by_module.setdefault(m.module, []).append(m)
    if size == 0:  # a run of focus draws only
        return []
    alloc = allocate({k: len(v) for k, v in by_module.items()}, size, minimum)
    rng = random.Random(seed)
    chosen = [m for k in sorted(by_module) for m in rng.sample(by_module[k], alloc[k])]
    return sorted(chosen, key=lambda m: (m.module, m.line, m.col, m.operator, m.occurrence))


def group_named(prefix: str) -> str:
    """The one report group whose name starts with ``prefix`` (a focus key)."""
    names = [g for g in [*GROUPS, *REST.values()] if g.startswith(prefix)]
    if len(names) != 1:
        raise ValueError(f"focus group {prefix!r} names {len(names)} report groups, not one: "
                         f"choose a prefix of one of {[*GROUPS, *REST.values()]}")  # fmt: skip
    return names[0]


def parse_changed_lines(diff: str) -> dict[str, set[int]]:
    """The lines of each file that a ``git diff -U0`` added or changed (``{path: {line}}``,
    1-based lines of the new file; a hunk that only deletes adds none)."""
    out: dict[str, set[int]] = {}
    path = None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            name = line[4:].strip()
            path = name[2:] if name.startswith("b/") else None  # (/dev/null: deleted)
            continue
        hunk = re.match(r"@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", line)
        if hunk and path is not None:
            start, count = int(hunk.group(1)), int(hunk.group(2) or 1)
            out.setdefault(path, set()).update(range(start, start + count))
    return out


def changed_lines(rev: str, root: Path = ROOT) -> dict[str, set[int]]:
    """:func:`parse_changed_lines` of the working tree against ``rev`` in the sampled
    sources (:data:`SOURCES`): the lines a change since ``rev`` wrote."""
    diff = subprocess.run(["git", "diff", "-U0", "--no-color", rev, "--", *SOURCES], cwd=root,
                          check=True, capture_output=True, text=True).stdout  # fmt: skip
    return parse_changed_lines(diff)


def draw_focus(mutants: Sequence[Mutant], main: Sequence[Mutant], focus: Mapping[str, int],
               seed: int, lines: Mapping[str, set[int]] | None = None,
               ) -> dict[str, list[Mutant]]:  # fmt: skip
    """For each ``{group prefix: count}`` of ``focus``, ``count`` more mutants of that group
    not in ``main``, by :func:`draw` (proportional to the modules' remaining mutants, no
    floor) with its own seed ``f"{seed}:{group}"``; ``{group: mutants in key order}``.
    ``lines`` (``{path: {line}}``, :func:`changed_lines`): only mutants on those lines."""
    taken = {m.key for m in main}
    out: dict[str, list[Mutant]] = {}
    for prefix, count in focus.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError(f"focus count of {prefix!r} must be an int >= 0, got {count!r}")
        group = group_named(prefix)
        pool = [
            m
            for m in mutants
            if group_of(m.module) == group
            and m.key not in taken
            and (lines is None or m.line in lines.get(Path(m.module).as_posix(), ()))
        ]
        out[group] = draw(pool, min(count, len(pool)), f"{seed}:{group}", minimum=0)
        taken |= {m.key for m in out[group]}
    return out


def mark_sample(work_db: Any, size: int, seed: int, minimum: int = 2,
                focus: Mapping[str, int] | None = None,
                lines: Mapping[str, set[int]] | None = None) -> list[Mutant]:  # fmt: skip
    """Draw the sample (and the ``focus`` draws, :func:`draw_focus`, on ``lines`` if given)
    from ``work_db`` and mark every other work item as skipped; the main sample, then the
    focus draws, in key order."""
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    everything = mutants_of(work_db)
    chosen = draw(everything, size, seed, minimum)
    extra = draw_focus(everything, chosen, focus or {}, seed, lines)
    chosen = chosen + [m for group in extra.values() for m in group]
    keep = {m.job_id for m in chosen}
    skip = [m.job_id for m in everything if m.job_id not in keep]
    work_db.set_multiple_results(skip, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    return chosen


# ---------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (``(0, 1)`` for none)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------------------
# the coverage map: line -> covering tests
# ---------------------------------------------------------------------------
def build_map(
    workspace: Path, settings: Mapping[str, Any], workers: int = 2, tests: Sequence[str] = ()
) -> dict[str, Any]:
    """Run the default test suite (but ``exclude-tests``; only ``tests`` if given, for a
    partial map) in the pristine copy under coverage with per-test contexts and write
    ``covmap.json``: per module, per line, the indices of the covering test node ids; per
    test, its measured seconds.  Every test the run reported is listed, also one that ran
    no line of ``solvable`` or ``numerics`` under its own context: a test that only reads a
    module constant (seed 22: a survivor in ``GRID_FULL`` of ``figures/seed_004.py``, which
    such a test kills, was run without it)."""
    import coverage

    pristine = workspace / "pristine"
    data_file, junit = workspace / ".coverage", workspace / "map-junit.xml"
    for old in workspace.glob(".coverage*"):
        old.unlink()
    env = environment(pristine)
    env["COVERAGE_FILE"] = str(data_file)
    users_dir = workspace / "cache-users"
    shutil.rmtree(users_dir, ignore_errors=True)
    users_dir.mkdir()
    env[CACHE_USERS_ENV] = str(users_dir)
    excluded = [f"--ignore={t}" for t in settings["sample"]["exclude-tests"]]
    cmd = ["nice", "-n", "10", sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           "-n", str(workers), "--cov=solvable", "--cov=numerics", "--cov-context=test",
           "-p", "cache_users", "--cov-report=", "-o", "junit_family=xunit1", f"--junitxml={junit}",
           *excluded, *tests]  # fmt: skip
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=pristine, env=env, check=False)
    print(f"map: pytest exit {proc.returncode} in {time.monotonic() - start:.0f} s",
          file=sys.stderr)  # fmt: skip
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"the coverage run failed (pytest exit {proc.returncode})")
    durations: dict[str, float] = {}
    failed: list[str] = []
    for case in ET.parse(junit).iter("testcase"):
        node = _node_id(case)
        durations[node] = durations.get(node, 0.0) + float(case.get("time", 0) or 0)
        if any(True for _ in case.iter("failure")) or any(True for _ in case.iter("error")):
            failed.append(node)
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    tests: dict[str, int] = {}
    lines: dict[str, dict[str, list[int]]] = {}
    for filename in data.measured_files():
        rel = Path(filename).resolve().relative_to(pristine.resolve()).as_posix()
        per_line: dict[str, list[int]] = {}
        for line, contexts in data.contexts_by_lineno(filename).items():
            ids = {c.rsplit("|", 1)[0] for c in contexts if c}
            per_line[str(line)] = sorted(tests.setdefault(t, len(tests)) for t in ids)
        lines[rel] = per_line
    for node in durations:  # a test that runs no measured line (it reads a module constant)
        tests.setdefault(node, len(tests))  # is still a reader of its module's import lines
    cached = cache_users(users_dir, tests)
    covmap = {"tests": list(tests), "durations": durations, "lines": lines, "failed": failed,
              "cached": cached}  # fmt: skip
    (workspace / "covmap.json").write_text(json.dumps(covmap), encoding="utf-8")
    return covmap


def cache_users(folder: Path, tests: dict[str, int]) -> dict[str, list[list[Any]]]:
    """The users of every cached function, from the files ``benchmarks/cache_users.py`` wrote
    into ``folder`` (one per pytest process): per module, ``[first, last, [test indices]]``
    (new node ids are added to ``tests``).  A test that *missed* a cache (ran its function)
    and called another cached function in the same test makes the first one's users the
    second one's users too (a builder called by a builder), to a fixed point."""
    users: dict[tuple[str, int, int], set[str]] = {}
    calls: dict[tuple[str, int, int], set[tuple[str, int, int]]] = {}  # a builder's callees
    for file in sorted(folder.glob("cache-users-*.json")):
        data = json.loads(file.read_text(encoding="utf-8"))
        spans = [tuple(w) for w in data["wrappers"]]
        for node, used in data["users"].items():
            for index, _ in used:
                users.setdefault(spans[index], set()).add(node)
            for index, missed in used:
                if missed:
                    others = {spans[i] for i, _ in used if i != index}
                    calls.setdefault(spans[index], set()).update(others)
    changed = True
    while changed:
        changed = False
        for caller, callees in calls.items():
            for callee in callees:
                extra = users.get(caller, set()) - users.setdefault(callee, set())
                if extra:
                    users[callee] |= extra
                    changed = True
    out: dict[str, list[list[Any]]] = {}
    for (module, first, last), nodes in sorted(users.items()):
        ids = sorted(tests.setdefault(t, len(tests)) for t in nodes)
        out.setdefault(module, []).append([first, last, ids])
    return out


def cached_users(covmap: Mapping[str, Any], module: str, lines: Iterable[int]) -> set[str]:
    """The tests that called (hit or missed) a cached function of ``module`` whose source
    spans one of ``lines`` (see :func:`cache_users`)."""
    names = covmap["tests"]
    spans = covmap.get("cached", {}).get(module, [])
    return {names[i] for first, last, ids in spans for i in ids
            if any(first <= n <= last for n in lines)}  # fmt: skip


def _node_id(case: ET.Element) -> str:
    """The pytest node id of a junit ``testcase`` (xunit1: file, dotted class name)."""
    file = case.get("file", "")
    module = file[: -len(".py")].replace("/", ".")
    inner = case.get("classname", "")[len(module) + 1 :].replace(".", "::")
    return "::".join(filter(None, [file, inner, case.get("name", "")]))


def statement_line(source: str, line: int) -> int:
    """The first line of the innermost statement containing ``line`` (where coverage records
    it); for a compound statement, only when ``line`` is in its header."""
    best = line
    best_start = -1
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.stmt) or not (node.lineno <= line <= (node.end_lineno or 0)):
            continue
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and line >= body[0].lineno:
            continue  # the line is inside the body, not in this statement's header
        if node.lineno > best_start:
            best, best_start = node.lineno, node.lineno
    return best


def runs_at_import(source: str, line: int) -> bool:
    """Whether ``line`` is executed when its module is imported, not inside a function: a
    module-level or class-level statement, or a ``def``'s header (decorators, defaults,
    annotations).  Such lines of a module imported before coverage starts (``solvable`` is
    imported by its pytest plugin, loaded at pytest start-up) are not recorded at all."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            body = node.body if isinstance(node.body, list) else [node.body]
            if body[0].lineno <= line <= (node.end_lineno or 0):
                return False
    return True


_CACHING_DECORATORS = frozenset({"cache", "lru_cache", "cached_property"})


def in_cached_function(source: str, line: int) -> bool:
    """Whether ``line`` is in the body of a function whose result ``functools`` caches
    (``cache``, ``lru_cache``, ``cached_property``), or of a function nested in one.  Such a
    body runs once per process, so coverage credits only the test that called it first, not
    the tests that read what it built (the seed-2 and seed-3 runs each had a survivor that an
    existing test killed: a cached sympy builder)."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not node.body[0].lineno <= line <= (node.end_lineno or 0):
            continue
        for dec in node.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in _CACHING_DECORATORS:
                return True
    return False


def module_readers(tests: Iterable[str], module: str, test_sources: Mapping[str, str]) -> set[str]:
    """The ``tests`` of every test file that names ``module`` as a word (its file's stem:
    ``mp`` for ``numerics/mp.py``; a package's ``__init__`` by the package's name; a file of
    a model or numerics package by its stem or its package's name, ``tableau`` or
    ``torch_flow`` for ``numerics/torch_flow/tableau.py``, since a test may read its names
    through the package).  A module-level constant is read by tests that run none of the
    module's function lines: a test of ``numerics.torch_flow``'s DOP853 slot table reads
    ``_E_LO`` and calls nothing, so line coverage never selected it (a seed-4 survivor it
    kills)."""
    path = Path(module)
    names = [path.parent.name if path.stem == "__init__" else path.stem]
    parts = path.parts
    if (parts[:2] == ("solvable", "models") and len(parts) > 3) or (
        parts[0] == "numerics" and len(parts) > 2
    ):
        names.append(path.parent.name)  # a file of a split package: the package's name too
    pattern = re.compile(rf"\b({'|'.join(re.escape(n) for n in dict.fromkeys(names))})\b")
    files = {f for f, text in test_sources.items() if pattern.search(text)}
    return {t for t in tests if t.split("::")[0] in files}


def select_tests(
    covmap: Mapping[str, Any],
    module: str,
    lines: Iterable[int],
    at_import: bool = False,
    cached: bool = False,
    readers: Iterable[str] = (),
    users: Iterable[str] = (),
) -> tuple[list[str], str]:
    """The tests covering any of ``lines`` of ``module`` (but those that failed when the
    map was made) and how they were found:
    ``"line"``, ``"module"`` (the lines ran only at import, recorded with no test context
    or, ``at_import``, not recorded; or, ``cached``, they are in a cached function's body,
    see :func:`in_cached_function`: every test covering the module; an ``at_import`` line
    also gets the ``readers``, see :func:`module_readers`; a ``cached`` line also gets the
    ``users`` of its function, see :func:`cached_users`) or ``"none"`` (not covered)."""
    per_line = covmap["lines"].get(module, {})
    names = covmap["tests"]
    failed = set(covmap.get("failed", ()))  # failing unmutated: a failure is no kill
    found = {names[i] for line in lines for i in per_line.get(str(line), [])} - failed
    how = "line"
    wide = at_import or cached or any(str(line) in per_line for line in lines)
    if (not found or cached) and per_line and wide:
        found |= {names[i] for ids in per_line.values() for i in ids} - failed
        how = "module"
    if at_import and set(readers) - failed - found:
        found |= set(readers) - failed
        how = "module"
    if cached and set(users) - failed - found:
        found |= set(users) - failed
        how = "module"
    if not found:
        return [], "none"
    durations = covmap["durations"]
    return sorted(found, key=lambda t: (durations.get(t, 0.0), t)), how


def with_source_checks(selected: tuple[list[str], str],
                       every: Iterable[str]) -> tuple[list[str], str]:  # fmt: skip
    """The selected tests with the ``every-mutant-tests`` (checks of every module's source
    that no line coverage selects) first, each once; the selection's kind unchanged (a
    mutant whose only tests are these is still reported "not covered" if it survives)."""
    tests, how = selected
    return [t for t in every if t not in tests] + list(tests), how


# ---------------------------------------------------------------------------
# run-one: cosmic-ray's test command
# ---------------------------------------------------------------------------
def mutated_lines(workspace: Path) -> tuple[str, list[int]]:
    """The one mutated module of the snapshot and its changed lines (numbered as in the
    unmutated file), by comparison with ``pristine/``."""
    snapshot, pristine = workspace / "snapshot", workspace / "pristine"
    for rel in source_files(pristine):
        if filecmp.cmp(pristine / rel, snapshot / rel, shallow=False):
            continue
        old = (pristine / rel).read_text(encoding="utf-8").splitlines()
        new = (snapshot / rel).read_text(encoding="utf-8").splitlines()
        changed: list[int] = []
        for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, old, new).get_opcodes():
            if tag != "equal":
                changed += list(range(i1 + 1, max(i2, i1 + 1) + 1))
        return rel, sorted(set(changed))
    raise RuntimeError("no mutated module in the snapshot")


def _harness() -> Any:
    """``benchmarks/mutation.py`` (its failure classification), from beside this file."""
    path = Path(__file__).with_name("mutation.py")
    spec = importlib.util.spec_from_file_location("mutation", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutation", module)
    spec.loader.exec_module(module)
    return module


def classify(xml: Path, log: Path, rc: int) -> dict[str, Any]:
    """The verdict of a finished pytest run from its junit report ``xml`` (if written), its
    output ``log`` and exit status ``rc``: ``killed`` ``by`` ``assertion`` (the first test
    failed by a check, :func:`mutation.is_assertion`) or ``crash`` (any other failure, or a
    failing exit with no report), ``error`` (pytest's internal error, usage error or
    nothing collected, with no failure: the run tells nothing) or ``survived``."""
    harness = _harness()
    killer, crashes = "", []
    if xml.is_file():
        for case in ET.parse(xml).iter("testcase"):
            for failure in [*case.iter("failure"), *case.iter("error")]:
                message = failure.get("message", "") or ""
                if failure.tag == "failure" and harness.is_assertion(message):
                    killer = killer or _node_id(case)
                else:
                    first = message.splitlines()[0][:100] if message else ""
                    crashes.append(f"{_node_id(case)}: {first}")
    if killer:
        return {"verdict": "killed", "by": "assertion", "killer": killer}
    tail = (log.read_text(errors="replace").strip().splitlines()[-1:] or [""])[0]
    if not crashes and rc in (3, 4, 5):  # internal error, usage error, nothing ran
        return {"verdict": "error", "detail": f"pytest exit {rc}: {tail[:160]}"}
    if crashes or rc != 0:
        return {"verdict": "killed", "by": "crash", "killer": (crashes or [tail])[0][:160]}
    return {"verdict": "survived"}


def run_one(workspace: Path, settings: Mapping[str, Any]) -> int:
    """Run the tests covering the current mutant of the snapshot; print the verdict as the
    last stdout line (``MUTATION-SAMPLE {json}``); exit 1 when killed (or timed out), 0 when
    it survived (cosmic-ray's convention: a non-zero exit kills)."""
    start = time.monotonic()
    sample = settings["sample"]
    covmap = json.loads((workspace / "covmap.json").read_text(encoding="utf-8"))
    module, changed = mutated_lines(workspace)
    source = (workspace / "pristine" / module).read_text(encoding="utf-8")
    lines = sorted({statement_line(source, n) for n in changed} | set(changed))
    at_import = all(runs_at_import(source, n) for n in lines)
    cached = any(in_cached_function(source, n) for n in lines)
    readers: set[str] = set()
    if at_import:
        root = workspace / "snapshot"
        files = {t.split("::")[0] for t in covmap["tests"]}
        sources = {f: (root / f).read_text(encoding="utf-8") for f in files if (root / f).is_file()}
        readers = module_readers(covmap["tests"], module, sources)
    users = cached_users(covmap, module, lines) if cached else set()
    selected = select_tests(covmap, module, lines, at_import, cached, readers, users)
    tests, how = with_source_checks(selected, sample.get("every-mutant-tests", []))
    verdict: dict[str, Any] = {"module": module, "lines": lines, "selection": how,
                               "tests": len(tests)}  # fmt: skip
    if not tests:
        verdict.update(verdict="not covered", seconds=0.0)
        print(f"{VERDICT_TAG} {json.dumps(verdict)}")
        return 0
    expected = sum(covmap["durations"].get(t, 0.0) for t in tests)
    limit = max(float(sample["min-timeout"]), float(sample["timeout-factor"]) * expected)
    snapshot = workspace / "snapshot"
    xml, log = workspace / "run-junit.xml", workspace / "run.log"
    xml.unlink(missing_ok=True)
    args_file = workspace / "run-tests.txt"
    args_file.write_text("\n".join(tests) + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
           "-p", "mutation", "-o", "junit_family=xunit1", f"--junitxml={xml}",
           f"@{args_file}"]  # fmt: skip
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=snapshot, env=environment(snapshot), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        try:
            rc = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            rc = None
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
    verdict.update(limit=round(limit, 1), seconds=round(time.monotonic() - start, 1))
    if rc is None:
        verdict["verdict"] = "timeout"
    else:
        found = classify(xml, log, rc)
        if found["verdict"] == "survived":  # no covering test (only the source checks ran)
            found["verdict"] = "survived" if how != "none" else "not covered"
        verdict.update(found)
    print(f"{VERDICT_TAG} {json.dumps(verdict)}")
    return 0 if verdict["verdict"] == "survived" else 1


# ---------------------------------------------------------------------------
# outcomes and the report
# ---------------------------------------------------------------------------
OUTCOMES = ("killed (assertion)", "killed (crash)", "timeout", "survived", "not covered",
            "equivalent", "incompetent", "pending")  # fmt: skip
KILLS = ("killed (assertion)", "killed (crash)", "timeout")


def runner_verdict(output: str | None) -> dict[str, Any]:
    """The runner's verdict line in a result's output (``{}`` when there is none)."""
    for line in reversed((output or "").splitlines()):
        if line.startswith(VERDICT_TAG + " "):
            return dict(json.loads(line[len(VERDICT_TAG) + 1 :]))
    return {}


def outcome(result: Any | None, equivalent: bool = False) -> str:
    """One of :data:`OUTCOMES` for a cosmic-ray ``WorkResult`` (``None``: not run yet).

    cosmic-ray's own timeout (output ``"timeout"``) and the runner's are ``timeout``; an
    exception in the worker, no possible mutation, a runner error or a failure of the runner
    itself (a non-zero exit without a verdict line) are ``incompetent``; a
    surviving mutant listed as equivalent is ``equivalent`` (a killed one stays killed)."""
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    if result is None:
        return "pending"
    if result.worker_outcome != WorkerOutcome.NORMAL or result.test_outcome in (
        None, TestOutcome.INCOMPETENT,
    ):  # fmt: skip
        return "incompetent"
    verdict = runner_verdict(result.output)
    if result.test_outcome == TestOutcome.KILLED:
        if (result.output or "").strip() == "timeout" or verdict.get("verdict") == "timeout":
            return "timeout"
        if verdict.get("verdict") in (None, "error"):  # the runner itself failed: no verdict
            return "incompetent"
        return "killed (crash)" if verdict.get("by") == "crash" else "killed (assertion)"
    if equivalent:
        return "equivalent"
    return "not covered" if verdict.get("verdict") == "not covered" else "survived"


def group_of(module: str) -> str:
    """The report group of ``module`` (see :data:`GROUPS`)."""
    for name, stems in GROUPS.items():
        if any(module == f"{stem}.py" or module.startswith(f"{stem}/") for stem in stems):
            return name
    return REST.get(module.split("/", 1)[0], "other")


def load_equivalents(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """``{stable key: argument}`` from ``[equivalent]`` of ``path`` (none if it is absent)."""
    if not path.is_file():
        return {}
    table = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", {})
    return {str(k): str(v) for k, v in table.items()}


@dataclass
class Row:
    """One sampled mutant with its outcome."""

    mutant: Mutant
    outcome: str
    verdict: dict[str, Any]
    diff: str
    focus: bool = False  # drawn by a focus stratum (counted in its group, not overall)


def collect(work_db: Any, equivalents: Mapping[str, str],
            focus: Iterable[str] = ()) -> list[Row]:  # fmt: skip
    """The sampled (not skipped) mutants of ``work_db`` with their outcomes, in key order;
    those whose key is in ``focus`` are marked as focus draws."""
    focus = set(focus)
    from cosmic_ray.work_item import WorkerOutcome

    results = dict(work_db.results)
    rows = []
    for m in mutants_of(work_db):
        result = results.get(m.job_id)
        if result is not None and result.worker_outcome == WorkerOutcome.SKIPPED:
            continue
        rows.append(Row(m, outcome(result, m.key in equivalents), runner_verdict(
            result.output if result else None), (result.diff or "") if result else "",
            m.key in focus))  # fmt: skip
    return rows


def score(counts: Mapping[str, int]) -> tuple[int, int]:
    """(kills, denominator): killed + timeout over every run mutant but the equivalent and
    incompetent ones (``not covered`` counts as survived)."""
    kills = sum(counts.get(o, 0) for o in KILLS)
    n = kills + counts.get("survived", 0) + counts.get("not covered", 0)
    return kills, n


def table(rows: Sequence[Row]) -> str:
    """The markdown table by module group (and overall): counts, score, Wilson 95% CI.  A
    group's row counts its focus draws too (its "sampled" cell says how many); the overall
    row counts the main sample only."""
    groups = [*GROUPS, *REST.values()]
    groups += sorted({group_of(r.mutant.module) for r in rows} - set(groups))
    header = ["group", "sampled", "killed (assertion)", "killed (crash)", "timeout",
              "survived", "of which not covered", "equivalent", "incompetent", "pending",
              "score", "Wilson 95% CI"]  # fmt: skip
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name in [*groups, "overall"]:
        if name == "overall":
            chosen = [r for r in rows if not r.focus]
        else:
            chosen = [r for r in rows if group_of(r.mutant.module) == name]
        extra = sum(r.focus for r in chosen)
        counts = {o: sum(r.outcome == o for r in chosen) for o in OUTCOMES}
        kills, n = score(counts)
        lo, hi = wilson(kills, n)
        sampled = f"{len(chosen)} ({extra} focus)" if extra else str(len(chosen))
        cells = [name if name != "overall" else "**overall**", sampled,
                 *(str(counts[o]) for o in ("killed (assertion)", "killed (crash)", "timeout")),
                 str(counts["survived"] + counts["not covered"]), str(counts["not covered"]),
                 *(str(counts[o]) for o in ("equivalent", "incompetent", "pending")),
                 f"{kills}/{n} = {kills / n:.1%}" if n else "-",
                 f"{lo:.1%} - {hi:.1%}" if n else "-"]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def survivors(rows: Sequence[Row]) -> str:
    """The surviving mutants (markdown), each with its key, selection and diff, for triage:
    an equivalent one goes to ``benchmarks/mutation_equivalent.toml``, another needs a test."""
    out = []
    for r in rows:
        if r.outcome not in ("survived", "not covered"):
            continue
        v = r.verdict
        how = f"{v.get('tests', 0)} tests by {v.get('selection', '?')}, {v.get('seconds', '?')} s"
        out.append(f"### `{r.mutant.key}` ({r.outcome}; {how})\n\n```diff\n{r.diff.strip()}\n```\n")
    return "\n".join(out) if out else "No survivors.\n"


def stale(rows: Sequence[Row], equivalents: Mapping[str, str],
          everything: Iterable[str] | None = None) -> list[str]:  # fmt: skip
    """Equivalence entries whose key is no mutant of the session (the code moved):
    ``everything`` is every mutant key of the session (sampled or not: an entry argued in
    another sample is not stale), default the sampled ``rows``."""
    keys = set(everything) if everything is not None else {r.mutant.key for r in rows}
    return sorted(k for k in equivalents if k not in keys)


# ---------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------
def cmd_init(workspace: Path, settings: dict[str, Any], size: int, seed: int,
             focus: Mapping[str, int], changed_since: str | None = None) -> int:  # fmt: skip
    """A fresh workspace: the snapshot and pristine copies, ``cosmic-ray.toml``, ``cosmic-ray
    init`` (every module of :data:`SOURCES`), the sample (others skipped), ``sample.json``;
    ``changed_since`` (a git revision): the focus draws only from the lines written since."""
    import toml
    from cosmic_ray.work_db import use_db

    if workspace.exists():
        shutil.rmtree(workspace)
    workspace.mkdir(parents=True)
    for name in ("snapshot", "pristine"):
        _harness().copy_repository(ROOT, workspace / name)  # the one copy of mutation.py
    check_imports_from(workspace / "snapshot")
    config = cosmic_ray_config(settings, workspace)
    (workspace / "cosmic-ray.toml").write_text(toml.dumps({"cosmic-ray": config}), encoding="utf-8")
    start = time.monotonic()
    subprocess.run(["nice", "-n", "10", sys.executable, "-m", "cosmic_ray.cli", "init",
                    str(workspace / "cosmic-ray.toml"), str(workspace / "session.sqlite")],
                   cwd=workspace / "snapshot", check=True)  # fmt: skip
    with use_db(str(workspace / "session.sqlite")) as db:
        total = db.num_work_items
        minimum = int(settings["sample"]["minimum"])
        lines = None if changed_since is None else changed_lines(changed_since)
        chosen = mark_sample(db, size, seed, minimum, focus, lines)
    record = {"seed": seed, "size": size, "minimum": minimum, "mutants": total,
              "focus": dict(focus), "changed_since": changed_since,
              "keys": [m.key for m in chosen[:size]],
              "focus_keys": [m.key for m in chosen[size:]]}  # fmt: skip
    (workspace / "sample.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    print(f"init: {total} mutants in {len(source_files(workspace / 'pristine'))} modules, "
          f"{size} sampled and {len(chosen) - size} focus draws (seed {seed}) in "
          f"{time.monotonic() - start:.0f} s",
          file=sys.stderr)  # fmt: skip
    return 0


def cmd_clone(workspace: Path, dest: Path) -> int:
    """A copy of ``workspace`` at ``dest`` (its snapshot restored, its ``cosmic-ray.toml``
    pointing at ``dest``): a second copy to run ``exec --shard`` in, then ``merge``."""
    from cosmic_ray.config import load_config

    if dest.exists():
        print(f"clone: {dest} exists", file=sys.stderr)
        return 2
    shutil.copytree(workspace, dest, symlinks=True)
    restore(dest)
    config = dict(load_config(str(workspace / "cosmic-ray.toml")))
    config["test-command"] = config["test-command"].replace(str(workspace), str(dest))
    import toml

    (dest / "cosmic-ray.toml").write_text(toml.dumps({"cosmic-ray": config}), encoding="utf-8")
    return 0


def cmd_merge(workspace: Path, other: Path) -> int:
    """Copy into this workspace's session the results ``other`` (a :func:`cmd_clone`) holds
    for mutants still pending here."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome

    with use_db(str(other / "session.sqlite"), WorkDB.Mode.open) as theirs:
        found = {job: r for job, r in theirs.results if r.worker_outcome != WorkerOutcome.SKIPPED}
    with use_db(str(workspace / "session.sqlite"), WorkDB.Mode.open) as db:
        pending = {w.job_id for w in db.pending_work_items}
        copied = [job for job in found if job in pending]
        for job in copied:
            db.set_result(job, found[job])
    print(f"merge: {len(copied)} results copied from {other}", file=sys.stderr)
    return 0


def cmd_exec(workspace: Path, limit: int | None, shard: tuple[int, int] = (0, 1)) -> int:
    """Run the pending sampled mutants through cosmic-ray's ``mutate_and_test`` (what its
    local distributor calls), at ``nice 10``, in a seeded order (so the first ``limit`` are a
    random subsample of the sample); each result is stored at once (a rerun continues)."""
    from cosmic_ray.config import load_config
    from cosmic_ray.mutating import mutate_and_test
    from cosmic_ray.work_db import WorkDB, use_db

    if not (workspace / "covmap.json").is_file():
        print("no coverage map: run the map command first", file=sys.stderr)
        return 2
    os.nice(10)
    if fixed := restore(workspace):
        print(f"exec: restored {fixed} from pristine/", file=sys.stderr)
    config = load_config(str(workspace / "cosmic-ray.toml"))
    snapshot = workspace / "snapshot"
    os.environ.update(environment(snapshot))
    os.chdir(snapshot)  # the module paths of the session are relative to it
    with use_db(str(workspace / "session.sqlite"), WorkDB.Mode.open) as db:
        pending = sorted(db.pending_work_items, key=lambda w: w.job_id)
        random.Random(0).shuffle(pending)
        pending = pending[shard[0] :: shard[1]]  # a shard of the shuffled order: random too
        pending = pending[:limit] if limit is not None else pending
        for k, item in enumerate(pending, 1):
            (m,) = item.mutations
            key = mutant_key(str(m.module_path), m.start_pos[0], m.operator_name, m.occurrence)
            print(f"[{k}/{len(pending)}] {key} ...", end="", file=sys.stderr, flush=True)
            t0 = time.monotonic()
            result = mutate_and_test(item.mutations, config.test_command, config.timeout)
            db.set_result(item.job_id, result)
            print(f" {outcome(result)} ({time.monotonic() - t0:.0f} s)", file=sys.stderr,
                  flush=True)  # fmt: skip
    return 0


def cmd_report(workspace: Path, markdown: str | None, json_out: str | None,
               with_survivors: bool) -> int:  # fmt: skip
    """Print (and write) the table; with ``with_survivors``, the survivors' diffs too."""
    from cosmic_ray.work_db import WorkDB, use_db

    equivalents = load_equivalents()
    sample = workspace / "sample.json"
    record = json.loads(sample.read_text(encoding="utf-8")) if sample.is_file() else {}
    with use_db(str(workspace / "session.sqlite"), WorkDB.Mode.open) as db:
        rows = collect(db, equivalents, record.get("focus_keys", ()))
        everything = {m.key for m in mutants_of(db)}
    text = table(rows)
    run = [r for r in rows if r.outcome != "pending"]
    seconds = [float(r.verdict.get("seconds", 0.0)) for r in run]
    if seconds:
        text += (f"\n{len(run)} mutants run, {sum(seconds):.0f} s of tests in all, "
                 f"{sum(seconds) / len(seconds):.1f} s per mutant on average "
                 f"(median {sorted(seconds)[len(seconds) // 2]:.1f} s).\n")  # fmt: skip
    if old := stale(rows, equivalents, everything):
        text += f"\nStale equivalence entries (no such mutant now): {', '.join(old)}\n"
    if with_survivors:
        text += "\n## Survivors\n\n" + survivors(rows)
    print(text)
    if markdown:
        Path(markdown).write_text(text, encoding="utf-8")
    if json_out:
        data = [{"key": r.mutant.key, "outcome": r.outcome, **r.verdict, "diff": r.diff}
                for r in rows]  # fmt: skip
        Path(json_out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--workspace", type=Path, default=DEFAULT_WORKSPACE,
                        help="copies and session (default %(default)s)")  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    init = sub.add_parser("init", help="snapshot, cosmic-ray init, the seeded sample")
    init.add_argument("--size", type=int, help="sampled mutants (default: pyproject, 300)")
    init.add_argument("--seed", type=int, help="the sample's seed (default: pyproject, 0)")
    init.add_argument(
        "--changed-since",
        metavar="REV",
        help="focus draws only from the lines changed since this git revision",
    )
    init.add_argument("--focus", action="append", metavar="GROUP=N",
                      help="focus draws of a report group (by name prefix), replacing "
                           "pyproject's; repeat for more groups; with --size 0, a run of "
                           "only these groups")  # fmt: skip
    mapping = sub.add_parser("map", help="the coverage map (the test suite with contexts)")
    mapping.add_argument("--workers", type=int, default=2, help="pytest-xdist workers")
    mapping.add_argument("tests", nargs="*", help="only these tests (a partial map: pilots)")
    run = sub.add_parser("exec", help="run the pending sampled mutants (resumable)")
    run.add_argument("--max", type=int, dest="limit", help="at most this many (a pilot)")
    run.add_argument(
        "--shard",
        default="0/1",
        metavar="K/N",
        help="only the K-th of N shards of the pending mutants (default 0/1)",
    )
    clone = sub.add_parser("clone", help="a copy of the workspace, for a parallel exec")
    clone.add_argument("dest", type=Path)
    merge = sub.add_parser("merge", help="copy a clone's results into this workspace")
    merge.add_argument("other", type=Path)
    report = sub.add_parser("report", help="the table by module group, Wilson intervals")
    report.add_argument("--markdown", metavar="FILE", help="also write it to FILE")
    report.add_argument("--json", metavar="FILE", help="the rows as JSON")
    report.add_argument("--survivors", action="store_true", help="with the survivors' diffs")
    sub.add_parser("run-one", help="(cosmic-ray's test command) test the current mutant")
    args = parser.parse_args(argv)
    workspace = args.workspace.expanduser().resolve()
    if args.command == "run-one":  # in the snapshot: its own pyproject
        return run_one(workspace, load_settings(workspace / "snapshot" / "pyproject.toml"))
    settings = load_settings()
    if args.command == "init":
        size = args.size if args.size is not None else int(settings["sample"]["size"])
        seed = args.seed if args.seed is not None else int(settings["sample"]["seed"])
        focus = settings["sample"]["focus"] if args.focus is None else {}
        for item in args.focus or ():
            group, _, count = item.rpartition("=")
            if not group or not count.isdigit():
                parser.error(f"--focus must be GROUP=N with N an int >= 0, got {item!r}")
            focus[group] = int(count)
        return cmd_init(workspace, settings, size, seed, focus, args.changed_since)
    if args.command == "map":
        build_map(workspace, settings, args.workers, args.tests)
        return 0
    if args.command == "exec":
        k, _, n = args.shard.partition("/")
        if not (k.isdigit() and n.isdigit() and 0 <= int(k) < int(n)):
            parser.error(f"--shard must be K/N with 0 <= K < N, got {args.shard!r}")
        return cmd_exec(workspace, args.limit, (int(k), int(n)))
    if args.command == "clone":
        return cmd_clone(workspace, args.dest.expanduser().resolve())
    if args.command == "merge":
        return cmd_merge(workspace, args.other.expanduser().resolve())
    return cmd_report(workspace, args.markdown, args.json, args.survivors)


if __name__ == "__main__":
    raise SystemExit(main())
