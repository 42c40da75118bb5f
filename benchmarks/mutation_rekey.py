"""Carry the equivalent mutants' keys across a move of code.

An entry of ``benchmarks/mutation_equivalent.toml`` is keyed by
``module:line:operator:occurrence`` (:func:`mutation_sample.mutant_key`): when code moves to
another file, or lines above it change, the key no longer names the mutant and the report
lists it as stale.  This finds each entry's mutant again::

    python benchmarks/mutation_rekey.py --since COMMIT          # print the plan
    python benchmarks/mutation_rekey.py --since COMMIT --write  # rewrite the keys

For each key of the file as it was at ``COMMIT``, the mutant is located in that commit's
source (cosmic-ray's own operator enumerates the mutation points, as ``cosmic-ray init``
does, so the occurrence means what it meant there): its operator, the text it mutates and
the stripped text of its line and of the lines either side.  The working tree's modules
(``solvable/``, ``numerics/``) are searched for points of the same operator with that same
text and context; exactly one match gives the new key (several: the one in a module whose
path shares the old module's name, if unique).  An entry with no unique match is reported
and keeps its key (the report then lists it as stale: argue it again or drop it).  The
arguments (the entries' values) are kept word for word.
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cosmic_ray.plugins
import tomllib
from cosmic_ray.ast import ast_nodes, get_ast

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT_FILE = "benchmarks/mutation_equivalent.toml"
SOURCES = ("solvable", "numerics")


@dataclass(frozen=True)
class Point:
    """One mutation point: where an operator applies and what it sees there."""

    module: str
    line: int
    operator: str
    occurrence: int
    text: str  # the mutated span
    context: tuple[str, ...]  # the stripped lines line-1, line, line+1
    indent_col: int  # the column from the line's first non-blank character
    rank: int  # how many points of the operator come before it at the same position

    @property
    def key(self) -> str:
        return f"{self.module}:{self.line}:{self.operator}:{self.occurrence}"


def _span(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    (l0, c0), (l1, c1) = start, end
    if l0 == l1:
        return lines[l0 - 1][c0:c1]
    return "\n".join([lines[l0 - 1][c0:], *lines[l0 : l1 - 1], lines[l1 - 1][:c1]])


@functools.cache
def points(module: str, source: str, operator: str) -> list[Point]:
    """Every mutation point of ``operator`` in ``source``, in cosmic-ray's occurrence order."""
    op = cosmic_ray.plugins.get_operator(operator)()
    lines = source.split("\n")
    out = []
    tree = get_ast(source)
    found = ((s, e) for node in ast_nodes(tree) for s, e in op.mutation_positions(node))
    seen: dict[tuple[int, int], int] = {}
    for occurrence, (start, end) in enumerate(found):
        line = start[0]
        rank = seen[start] = seen.get(start, -1) + 1  # NumberReplacer: two points per number
        context = tuple(lines[i].strip() if 0 <= i < len(lines) else "" for i in
                        (line - 2, line - 1, line))  # fmt: skip
        indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
        out.append(Point(module, line, operator, occurrence, _span(lines, start, end), context,
                         start[1] - indent, rank))  # fmt: skip
    return out


@functools.cache
def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout  # fmt: skip


def _old_keys(commit: str) -> list[str]:
    table = tomllib.loads(_git("show", f"{commit}:{EQUIVALENT_FILE}")).get("equivalent", {})
    return list(table)


def _tree_modules() -> Iterator[tuple[str, str]]:
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


HISTORY = 40  # how many commits back a key is looked for (keys are written after a run)


def _locate(commit: str, key: str) -> Point | None:
    """The mutant ``key`` named when it was written: at the newest of ``commit`` and the
    commits before it that changed its module where the key's occurrence is on its line."""
    module, line, operator, occurrence = key.rsplit(":", 3)
    log = _git("log", f"-{HISTORY}", "--format=%H", commit, "--", module).split()
    for rev in [commit, *log]:
        try:
            source = _git("show", f"{rev}:{module}")
        except subprocess.CalledProcessError:
            return None  # the module did not exist before
        found = points(module, source, operator)
        if int(occurrence) < len(found) and found[int(occurrence)].line == int(line):
            return found[int(occurrence)]
    return None


def plan(commit: str) -> tuple[dict[str, str], list[str]]:
    """``({old key: new key}, [old keys with no unique match, with the reason])``."""
    keys = _old_keys(commit)
    by_operator: dict[str, list[Point]] = {}
    modules = list(_tree_modules())
    moves: dict[str, str] = {}
    missing: list[str] = []
    for key in keys:
        module, line, operator, _ = key.rsplit(":", 3)
        target = _locate(commit, key)
        if target is None:
            missing.append(f"{key}: names no mutant on line {line} of {module} in the "
                           f"{HISTORY} commits up to {commit} that changed it")  # fmt: skip
            continue
        if operator not in by_operator:
            by_operator[operator] = [p for m, s in modules for p in points(m, s, operator)]
        same = [p for p in by_operator[operator] if (p.text, p.context, p.indent_col, p.rank)
                == (target.text, target.context, target.indent_col, target.rank)]  # fmt: skip
        if len(same) > 1:
            stem = Path(module).stem
            same = [p for p in same if stem in Path(p.module).with_suffix("").parts]
        if len(same) == 1:
            moves[key] = same[0].key
        else:
            missing.append(f"{key}: {len(same)} matching points in the working tree")
    return moves, missing


def rewrite(text: str, moves: dict[str, str]) -> str:
    """``text`` (the toml) with each quoted old key that starts a line replaced.  Two entries
    that now name one mutant (a stale entry and the entry argued again for its new key) keep
    the later one, as a toml table cannot hold a key twice."""
    out: list[str | None] = []
    where: dict[str, int] = {}  # key -> its line in out
    for line in text.split("\n"):
        for old, new in moves.items():
            if line.startswith(f'"{old}" ='):
                line = f'"{new}"' + line[len(old) + 2 :]
                break
        key = line.split('"', 2)[1] if line.startswith('"') and '" =' in line else None
        if key is not None and key in where:
            print(f"DUPLICATE {key}: the earlier entry is dropped")
            out[where[key]] = None
        if key is not None:
            where[key] = len(out)
        out.append(line)
    return "\n".join(line for line in out if line is not None)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--since", required=True, help="the commit the keys were written at")
    parser.add_argument("--write", action="store_true", help=f"rewrite {EQUIVALENT_FILE}")
    args = parser.parse_args(argv)
    moves, missing = plan(args.since)
    changed = {old: new for old, new in moves.items() if old != new}
    for old, new in changed.items():
        print(f"{old}\n  -> {new}")
    for line in missing:
        print(f"NOT FOUND {line}")
    print(f"{len(moves)} found ({len(changed)} moved), {len(missing)} not found")
    if args.write:
        path = ROOT / EQUIVALENT_FILE
        path.write_text(rewrite(path.read_text(encoding="utf-8"), changed), encoding="utf-8")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
