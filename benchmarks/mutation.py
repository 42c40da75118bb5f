"""Mutation check: put realistic bugs into a copy of the project, one at a time, and ask
which default test or which registered claim catches each.

Run (from the repository root)::

    python benchmarks/mutation.py                      # every mutant (tens of minutes)
    python benchmarks/mutation.py --only 'core.*'      # a selection (shell glob on names)
    python benchmarks/mutation.py --list               # the mutants, nothing run
    python benchmarks/mutation.py --markdown table.md --json table.json

The mutants are data: every ``benchmarks/mutants/*.py`` defines ``MUTANTS``, a list of dicts
with the keys of :data:`KEYS` (``old`` is replaced by ``new`` in ``file``; ``old`` must occur
exactly once there, so a table that no longer matches the code is an error, not a silent
no-op).  For each selected mutant the repository's files (``git ls-files --cached --others
--exclude-standard``: tracked and untracked-but-not-ignored, as one snapshot, see below) are
copied into a fresh temporary directory, the replacement is applied, and, with the copy
first on the import path (checked: ``solvable.__file__`` must lie in the copy):

1. the hinted test files (``python -m pytest -n 0 <tests>``, the default markers), then the
   hinted claims (``python -m solvable.verification.cli verify --only <claims> --json ...``);
2. unless ``--no-fallback``, if neither killed it: the whole default test suite (but
   ``tests/test_mutants.py``, which checks this table), then the whole ``solvable verify``;
3. the test or claim that killed it is run again on the unmutated snapshot, where it must
   pass.

The copies are made from one snapshot of the working tree taken at the start, so edits made
while the check runs change nothing; ``--baseline`` first runs everything on the snapshot
itself (it must all pass: a failing test would "kill" every mutant).

Verdicts.  ``killed (test)``: a test failed by an assertion (an ``assert`` /
``AssertionError``, ``pytest.raises`` that did not raise or did not match).  ``killed
(claim)``: a claim returned ``"failed"`` for a non-crash reason.  ``crash only``: the only
failures were exceptions (a crashing check is not a check).  ``timeout``: the per-mutant
budget (``--timeout``, default 600 s) ran out (a hinted stage that hangs is stopped after a
quarter of it and the fallback goes on; the row's ``stages`` say so).  ``fails unmutated``:
the killer fails without the mutant too (not a kill).  ``SURVIVED``: nothing failed.  The
exit status is 1 unless every mutant is killed by an assertion or a claim.

pytest runs stop at the first *assertion* failure (this file is also loaded into pytest as a
plugin, :func:`pytest_runtest_logreport`), not at the first failure as ``-x`` would: a crash
in one test must not hide an assertion that would have failed in a later one.  Mutants run
one after the other (the machine's cores are the tests' ``-n 2`` workers).
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MUTANTS_DIR = ROOT / "benchmarks" / "mutants"
KEYS = ("name", "seed", "backend", "file", "old", "new", "why", "tests", "claims")
SEEDS = ("000", "001", "002", "003", "004", "core")
BACKENDS = ("numpy", "mpmath", "torch", "sympy", "scipy")
DEFAULT_TIMEOUT = 600.0
PLUGIN = "_mutation_plugin"  # the name this file is imported under by pytest in the copy
KILLED = ("killed (test)", "killed (claim)")
SELF_TEST = "tests/test_mutants.py"
HINT_SHARE = 0.25  # of the per-mutant budget, for each hinted stage (and the re-run unmutated)


# ---------------------------------------------------------------------------
# the mutants
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Mutant:
    """One realistic bug: ``old`` -> ``new`` in ``file`` (relative to the repository root).

    ``tests`` (test files) and ``claims`` (globs for ``solvable verify --only``) are the
    hints run first; ``origin`` is the mutant file it was read from."""

    name: str
    seed: str
    backend: str
    file: str
    old: str
    new: str
    why: str
    tests: tuple[str, ...]
    claims: tuple[str, ...]
    origin: str = ""


def _strings(value: Any, what: str) -> tuple[str, ...]:
    """A str or a list of str as a tuple (``claims`` may be one glob or several)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(v, str) for v in items):
        raise TypeError(f"{what} must be a str or a list of str, got {value!r}")
    return tuple(v for v in items if v)


def load_mutants(directory: Path = MUTANTS_DIR) -> list[Mutant]:
    """Every mutant of ``directory/*.py`` (files starting with ``_`` skipped), in file order.

    A file without a ``MUTANTS`` list, an entry that is not a dict with exactly the keys of
    :data:`KEYS`, or a value of the wrong type is an error (``TypeError`` / ``ValueError``);
    the values themselves are checked by :func:`problems`."""
    mutants = []
    for path in sorted(Path(directory).glob("*.py")):
        if path.name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"_mutants_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        entries = getattr(module, "MUTANTS", None)
        if not isinstance(entries, list):
            raise TypeError(f"{path.name} must define MUTANTS, a list of dicts")
        for k, entry in enumerate(entries):
            where = f"{path.name}: MUTANTS[{k}]"
            if not isinstance(entry, dict) or set(entry) != set(KEYS):
                keys = sorted(entry) if isinstance(entry, dict) else type(entry).__name__
                raise ValueError(f"{where} must be a dict with the keys {KEYS}, got {keys}")
            for key in KEYS[:7]:
                if not isinstance(entry[key], str):
                    raise TypeError(f"{where}: {key} must be a str, got {entry[key]!r}")
            mutants.append(
                Mutant(
                    **{key: entry[key] for key in KEYS[:7]},
                    tests=_strings(entry["tests"], f"{where}: tests"),
                    claims=_strings(entry["claims"], f"{where}: claims"),
                    origin=path.name,
                )
            )
    return mutants


def problems(mutants: Sequence[Mutant], root: Path = ROOT) -> list[str]:
    """What is wrong with the table (empty when every mutant can be applied): duplicate
    names, unknown seed or backend, a missing file or test file, ``old`` not occurring
    exactly once in ``file``, ``new == old``."""
    out = []
    seen: set[str] = set()
    for m in mutants:
        where = f"{m.origin}: {m.name}"
        if m.name in seen:
            out.append(f"{where}: duplicate name")
        seen.add(m.name)
        if m.seed not in SEEDS:
            out.append(f"{where}: seed must be one of {SEEDS}, got {m.seed!r}")
        if m.backend not in BACKENDS:
            out.append(f"{where}: backend must be one of {BACKENDS}, got {m.backend!r}")
        if m.new == m.old:
            out.append(f"{where}: new == old (not a mutant)")
        target = root / m.file
        if not target.is_file():
            out.append(f"{where}: no file {m.file}")
        elif (n := target.read_text(encoding="utf-8").count(m.old)) != 1:
            out.append(f"{where}: old occurs {n} times in {m.file} (must be exactly once)")
        out += [f"{where}: no test file {t}" for t in m.tests if not (root / t).is_file()]
        if SELF_TEST in m.tests:
            out.append(f"{where}: {SELF_TEST} checks the table, it cannot kill a mutant")
    return out


def unmutated(mutants: Sequence[Mutant]) -> Mutant:
    """The baseline: no change, with the hints of all ``mutants``; it must survive (a test
    or claim that fails without any mutant would count as a kill of every mutant)."""
    tests = dict.fromkeys(t for m in mutants for t in m.tests)
    claims = dict.fromkeys(c for m in mutants for c in m.claims)
    return Mutant("(no mutant)", "-", "-", "", "", "", "baseline", tuple(tests), tuple(claims))


def select(mutants: Sequence[Mutant], patterns: Sequence[str] | None) -> list[Mutant]:
    """The mutants whose name matches one of the shell globs ``patterns`` (all if none)."""
    if not patterns:
        return list(mutants)
    return [m for m in mutants if any(fnmatch.fnmatchcase(m.name, p) for p in patterns)]


# ---------------------------------------------------------------------------
# classifying failures
# ---------------------------------------------------------------------------
def is_assertion(message: str) -> bool:
    """Whether a pytest failure message is a failed check: ``assert ...``,
    ``AssertionError: ...`` (numpy.testing, a ``pytest.raises`` whose ``match`` failed) or
    ``Failed: DID NOT RAISE`` or ``Failed: DID NOT WARN`` (a ``pytest.warns`` that saw no
    such warning).  Anything else is an exception: a crash."""
    return message.startswith(
        ("assert", "AssertionError", "Failed: DID NOT RAISE", "Failed: DID NOT WARN")
    )


def is_crash(detail: str, max_error: float | None) -> bool:
    """Whether a failed claim crashed instead of failing its check.

    ``Theorem.verify`` reports an exception as ``"<ExceptionName>: ..."`` (and a missing
    optional dependency as ``"needs the optional dependency ..."``), with no ``max_error``;
    a numeric check that failed has a ``max_error``, a symbolic one a residual in a
    lower-case sentence."""
    if max_error is not None:
        return False
    if detail.startswith("needs the optional dependency"):
        return True
    head = detail.split(":", 1)[0]
    return head.isidentifier() and head[:1].isupper()


# ---------------------------------------------------------------------------
# pytest plugin: loaded in the mutated copy as ``-p _mutation_plugin``
# ---------------------------------------------------------------------------
_session: Any = None
_crashes = 0
MAX_CRASHES = 25
"""A run stops after this many tests failed by an exception (a crash) and none by an
assertion: the mutant is killed either way, and a mutant that breaks a shared helper would
otherwise run every selected test to its end (hundreds of failing integrations)."""


def pytest_sessionstart(session: Any) -> None:
    global _session, _crashes
    _session, _crashes = session, 0


def pytest_runtest_logreport(report: Any) -> None:
    """Stop the run (this process, or this xdist worker and then the controller) at the
    first test that fails by an assertion, or after :data:`MAX_CRASHES` crashes."""
    global _crashes
    if not report.failed or _session is None:
        return
    crash = getattr(report.longrepr, "reprcrash", None)
    if report.when == "call" and crash and is_assertion(crash.message):
        _session.shouldstop = f"mutant killed by {report.nodeid}"
        return
    _crashes += 1
    if _crashes >= MAX_CRASHES:
        _session.shouldstop = f"mutant killed: {_crashes} tests crashed"


# ---------------------------------------------------------------------------
# running one mutant
# ---------------------------------------------------------------------------
@dataclass
class Row:
    """The outcome for one mutant: ``verdict`` (one of :data:`KILLED`, ``"crash only"``,
    ``"timeout"``, ``"fails unmutated"``, ``"SURVIVED"``), ``killer`` (the test node id or
    claim id; for a crash, the first crash), ``stages`` (what ran, with seconds)."""

    name: str
    seed: str
    backend: str
    verdict: str = "SURVIVED"
    killer: str = ""
    seconds: float = 0.0
    stages: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)


@dataclass
class _Found:
    """What one stage found: the first kill, the crashes, every failed test node or claim
    id, and whether it ran at all (``ran``: a report was written)."""

    killer: str = ""
    crashes: list[str] = field(default_factory=list)
    failed: set[str] = field(default_factory=set)
    ran: bool = False


class _BudgetError(Exception):
    """The per-mutant time budget ran out."""


def copy_repository(root: Path, dest: Path) -> None:
    """Copy the files git knows of (tracked, and untracked but not ignored) to ``dest``."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    for rel in filter(None, listing.split("\0")):
        src = root / rel
        if src.is_file():  # a tracked file deleted in the working tree is not copied
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def _run(cmd: list[str], cwd: Path, env: dict[str, str], log: Path, deadline: float) -> int:
    """Run ``cmd`` in its own process group, output to ``log``; ``_BudgetError`` at ``deadline``
    (the whole group, xdist workers included, is killed)."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _BudgetError
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip
        try:
            return proc.wait(timeout=remaining)
        except subprocess.TimeoutExpired:
            raise _BudgetError from None
        finally:
            if proc.poll() is None:  # over budget, or the harness itself is stopped
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _tail(log: Path) -> str:
    lines = log.read_text(errors="replace").strip().splitlines()
    return lines[-1][:120] if lines else "(no output)"


def _tests(copy: Path, env: dict[str, str], tests: Sequence[str], tmp: Path,
           deadline: float) -> _Found:  # fmt: skip
    """The hinted test files (``-n 0``) or, with none, the whole default suite but this
    table's own test (in the copy, the mutated ``old`` no longer occurs: not a kill)."""
    xml, log = tmp / "junit.xml", tmp / "pytest.log"
    xml.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PLUGIN,
           "-o", "junit_family=xunit1", f"--junitxml={xml}"]  # fmt: skip
    cmd += ["-n", "0", *tests] if tests else [f"--ignore={SELF_TEST}"]
    rc = _run(cmd, copy, env, log, deadline)
    found = _Found()
    if not xml.is_file():
        found.crashes.append(f"pytest exit {rc}: {_tail(log)}")
        return found
    found.ran = True
    for case in ET.parse(xml).iter("testcase"):
        for failure in [*case.iter("failure"), *case.iter("error")]:
            message = failure.get("message", "")
            module = case.get("file", "")[: -len(".py")].replace("/", ".")
            inner = case.get("classname", "")[len(module) + 1 :]
            node = "::".join(filter(None, [case.get("file", ""), inner, case.get("name", "")]))
            found.failed.add(node)
            if failure.tag == "failure" and is_assertion(message):
                found.killer = found.killer or node
            else:
                found.crashes.append(f"{node}: {message.splitlines()[0][:100] if message else ''}")
    if rc not in (0, 1, 2) and not found.killer:  # 2: interrupted (by the plugin, or -x)
        found.crashes.append(f"pytest exit {rc}: {_tail(log)}")
    return found


def _claims(copy: Path, env: dict[str, str], patterns: Sequence[str], tmp: Path,
            deadline: float) -> _Found:  # fmt: skip
    """``solvable verify --only <pattern>`` per hinted glob or, with none, the whole
    ``solvable verify``."""
    found = _Found()
    for pattern in patterns or [""]:
        report, log = tmp / "verify.json", tmp / "verify.log"
        report.unlink(missing_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "solvable.verification.cli",
            "verify",
            "--no-cache",
            "--json",
            str(report),
        ]
        cmd += ["--only", pattern] if pattern else []
        rc = _run(cmd, copy, env, log, deadline)
        if not report.is_file():
            found.crashes.append(f"verify {pattern or '(all)'}: exit {rc}: {_tail(log)}")
            continue
        found.ran = True
        for r in json.loads(report.read_text())["results"]:
            if r["status"] != "failed":
                continue
            found.failed.add(r["id"])
            if is_crash(r["detail"], r["max_error"]):
                found.crashes.append(f"{r['id']}: {r['detail'][:100]}")
            else:
                found.killer = found.killer or r["id"]
        if found.killer:
            break
    return found


def _environment(copy: Path, plugin_dir: Path) -> dict[str, str]:
    """The copy (then the plugin) first on the import path: the editable install of the
    working tree in the venv is a meta-path finder consulted after ``sys.path``."""
    env = dict(os.environ)
    paths = [str(copy), str(plugin_dir), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(filter(None, paths))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _check_imports_from(copy: Path, env: dict[str, str]) -> None:
    code = (
        "import json, numerics, solvable as s; print(json.dumps([s.__file__, numerics.__file__]))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=copy, env=env, capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    files = [Path(f).resolve() for f in json.loads(out.strip().splitlines()[-1])]
    if not all(f.is_relative_to(copy.resolve()) for f in files):
        raise RuntimeError(f"the copy is not what is imported: {files} (copy: {copy})")


def prepare(root: Path, workspace: Path) -> tuple[Path, Path]:
    """A snapshot of ``root`` (every mutant is applied to a copy of it, so that edits to the
    working tree during a run change nothing) and the plugin directory, in ``workspace``."""
    snapshot, plugin_dir = workspace / "snapshot", workspace / "plugin"
    copy_repository(root, snapshot)
    plugin_dir.mkdir()
    shutil.copy(Path(__file__), plugin_dir / f"{PLUGIN}.py")
    _check_imports_from(snapshot, _environment(snapshot, plugin_dir))
    return snapshot, plugin_dir


def run_mutant(m: Mutant, snapshot: Path, plugin_dir: Path, *,
               timeout: float = DEFAULT_TIMEOUT, fallback: bool = True) -> Row:  # fmt: skip
    """Apply ``m`` to a fresh copy of ``snapshot`` and run the hinted, then (``fallback``)
    all tests and claims until one kills it; the killing test or claim is then run on the
    unmutated snapshot, where it must pass (else the verdict is ``"fails unmutated"``).
    The copy is removed afterwards."""
    row = Row(m.name, m.seed, m.backend)
    start = time.monotonic()
    deadline = start + timeout
    with tempfile.TemporaryDirectory(prefix="mutant-") as name:
        tmp, copy = Path(name), Path(name) / "repo"
        shutil.copytree(snapshot, copy, ignore=shutil.ignore_patterns(".hypothesis"))
        env = _environment(copy, plugin_dir)
        _check_imports_from(copy, env)
        if m.file:  # the baseline changes nothing
            target = copy / m.file
            text = target.read_text(encoding="utf-8")
            if text.count(m.old) != 1:
                raise ValueError(f"{m.name}: old must occur exactly once in {m.file}")
            target.write_text(text.replace(m.old, m.new), encoding="utf-8")
        stages = [("hinted tests", _tests, m.tests), ("hinted claims", _claims, m.claims)]
        if fallback:
            stages += [("all tests", _tests, ()), ("all claims", _claims, ())]
        timed_out = False
        for label, stage, hint in stages:
            if label.startswith("hinted") and not hint:
                continue
            t0 = time.monotonic()
            # a hinted stage gets a share of the budget: a hang there must not hide a kill
            # by the rest of the suite
            share = HINT_SHARE if label.startswith("hinted") else 1.0
            try:
                found = stage(copy, env, hint, tmp, min(deadline, t0 + share * timeout))
            except _BudgetError:
                timed_out = True
                row.stages.append(f"{label} timed out after {time.monotonic() - t0:.0f} s")
                continue
            row.stages.append(f"{label} {time.monotonic() - t0:.0f} s")
            row.crashes += found.crashes
            if found.killer:
                row.verdict = "killed (claim)" if stage is _claims else "killed (test)"
                row.killer = found.killer
                env0 = _environment(snapshot, plugin_dir)
                try:
                    clean = stage(snapshot, env0, [found.killer], tmp,
                                  time.monotonic() + HINT_SHARE * timeout)  # fmt: skip
                except _BudgetError:
                    clean = _Found()
                row.stages.append("killer run unmutated")
                if not clean.ran or found.killer in clean.failed:
                    row.verdict = "fails unmutated"
                break
        else:
            row.verdict = "timeout" if timed_out else "crash only" if row.crashes else "SURVIVED"
            row.killer = row.crashes[0] if row.crashes and not timed_out else ""
    row.seconds = time.monotonic() - start
    return row


# ---------------------------------------------------------------------------
# reporting
# ---------------------------------------------------------------------------
HEADER = ["mutant", "seed", "backend", "verdict", "killed by", "time (s)"]


def _cells(row: Row) -> list[str]:
    return [row.name, row.seed, row.backend, row.verdict, row.killer, f"{row.seconds:.0f}"]


def table(rows: Sequence[Row]) -> str:
    """A plain-text table, one line per mutant."""
    cells = [HEADER, *(_cells(r) for r in rows)]
    widths = [max(len(c[i]) for c in cells) for i in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def markdown(rows: Sequence[Row]) -> str:
    """The same table in markdown (for docs/mutation_testing.md)."""

    def md(line: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in line) + " |"

    out = [md(HEADER), md(["---"] * len(HEADER))]
    out += [md([f"`{r.name}`", *_cells(r)[1:4], f"`{r.killer}`" if r.killer else "", _cells(r)[5]])
            for r in rows]  # fmt: skip
    killed = sum(r.verdict in KILLED for r in rows)
    return "\n".join(out) + f"\n\n{killed} of {len(rows)} mutants killed by a test or a claim.\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="GLOB",
                        help="mutant names matching this shell glob (repeatable)")  # fmt: skip
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--markdown", metavar="FILE", help="write the table as markdown")
    parser.add_argument("--json", metavar="FILE", help="write the rows as JSON")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help="budget per mutant (default %(default)s)")  # fmt: skip
    parser.add_argument("--no-fallback", action="store_true",
                        help="run only the hinted tests and claims")  # fmt: skip
    parser.add_argument("--baseline", action="store_true",
                        help="first check that the unmutated copy passes it all")  # fmt: skip
    args = parser.parse_args(argv)
    chosen = select(load_mutants(), args.only)
    if not chosen:
        print(f"no mutant matches {args.only}", file=sys.stderr)
        return 2
    if args.list:
        for m in chosen:
            print(f"{m.name:<45} {m.seed:<5} {m.backend:<7} {m.file}: {m.why}")
        print("\n".join(problems(chosen)), file=sys.stderr)
        return 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # clean up copies and children
    with tempfile.TemporaryDirectory(prefix="mutation-") as workspace:
        snapshot, plugin_dir = prepare(ROOT, Path(workspace))
        bad = problems(chosen, snapshot)
        if bad:
            print("the mutant table is broken:\n  " + "\n  ".join(bad), file=sys.stderr)
            return 2
        if args.baseline:
            # with the fallback: the whole suite and verify (they contain every hint)
            base = unmutated(chosen if args.no_fallback else [])
            base = run_mutant(base, snapshot, plugin_dir, timeout=args.timeout,
                              fallback=not args.no_fallback)  # fmt: skip
            if base.verdict != "SURVIVED":
                print(f"the unmutated copy fails ({base.verdict}: {base.killer})",
                      file=sys.stderr)  # fmt: skip
                return 2
            print(f"baseline clean ({base.seconds:.0f} s; {', '.join(base.stages)})",
                  file=sys.stderr)  # fmt: skip
        rows = []
        for k, m in enumerate(chosen, 1):
            print(f"[{k}/{len(chosen)}] {m.name} ...", end="", file=sys.stderr, flush=True)
            row = run_mutant(m, snapshot, plugin_dir, timeout=args.timeout,
                             fallback=not args.no_fallback)  # fmt: skip
            print(f" {row.verdict} ({row.seconds:.0f} s; {', '.join(row.stages)})",
                  file=sys.stderr, flush=True)  # fmt: skip
            rows.append(row)
    print(table(rows))
    if args.markdown:
        Path(args.markdown).write_text(markdown(rows), encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n")
    return 0 if all(r.verdict in KILLED for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
