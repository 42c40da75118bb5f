"""The sizes the contributor's map promises (docs/contributing.md, "Rules the tests
enforce"): no module of ``solvable/`` or ``numerics/`` over :data:`MODULE_LINES` lines and no
class over :data:`CLASS_LINES` (the aims are 800 and 150: these limits leave a margin for a
docstring growing, not for a second concept)."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODULE_LINES = 1000
CLASS_LINES = 200


def _sources() -> list[pathlib.Path]:
    return sorted(p for d in ("solvable", "numerics") for p in (ROOT / d).rglob("*.py"))


def oversized(source: str) -> list[str]:
    """What is too large in one module's text: the module itself (its line count) and each
    class (from its ``class`` line to its last line, nested classes counted on their own)."""
    found = []
    lines = source.count("\n") + (not source.endswith("\n") and bool(source))
    if lines > MODULE_LINES:
        found.append(f"the module: {lines} lines > {MODULE_LINES}")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            size = node.end_lineno - node.lineno + 1
            if size > CLASS_LINES:
                found.append(f"class {node.name}: {size} lines > {CLASS_LINES}")
    return found


def test_the_check_sees_both_limits_from_both_sides():
    """``oversized`` flags a module of MODULE_LINES + 1 lines and a class of CLASS_LINES + 1,
    and passes each at its limit (a check that cannot fail would pass any tree)."""
    body = "    x = 0\n"
    at_limit = "class A:\n" + body * (CLASS_LINES - 1)
    assert oversized(at_limit) == []
    assert oversized(at_limit + body) == [f"class A: {CLASS_LINES + 1} lines > {CLASS_LINES}"]
    assert oversized("x = 0\n" * MODULE_LINES) == []
    assert oversized("x = 0\n" * (MODULE_LINES + 1)) == [
        f"the module: {MODULE_LINES + 1} lines > {MODULE_LINES}"
    ]


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_and_classes_stay_small(path):
    assert oversized(path.read_text(encoding="utf-8")) == [], path
