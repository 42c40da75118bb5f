"""The coverage pages (docs/coverage.md, docs/coverage/seed_*.md; issue 32) against what
they count and what they cite: each page's "Checked: N of M items (P%)" is its own item
table's count (a row is checked when its status begins with "checked"), the summary table
of docs/coverage.md repeats it, and every claim id, package function and test that a row
cites exists (so a renamed claim or test cannot leave a page citing nothing)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from solvable.verification import theorems

DOCS = Path(__file__).resolve().parents[1] / "docs"
ROOT = DOCS.parent
PAGES = sorted((DOCS / "coverage").glob("seed_*.md"))
HEADER = "| item | where | checked by | status |"
COUNT = re.compile(r"^Checked: (\d+) of (\d+) items \((\d+)%\)", re.M)
IDS = frozenset(t.id for t in theorems.registry())
FAMILIES = frozenset(i.split(".")[0] for i in IDS)


def _rows(text: str) -> list[list[str]]:
    """The item table's rows (cells stripped), header and separator left out."""
    lines = text.splitlines()
    start = lines.index(HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
    return rows


def _count(rows: list[list[str]]) -> tuple[int, int]:
    return sum(r[-1].startswith("checked") for r in rows), len(rows)


def _resolves(token: str) -> bool:
    """A dotted name in a row: a registered claim id (or the prefix of some), else a
    package attribute ``solvable.models.<family>.<name>``."""
    if token in IDS or any(i.startswith(token + ".") for i in IDS):
        return True
    family, _, rest = token.partition(".")
    try:
        obj = importlib.import_module(f"solvable.models.{family}")
    except ImportError:
        return False
    for part in rest.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def test_there_is_one_page_per_seed():
    assert [p.stem for p in PAGES] == [f"seed_{s:03d}" for s in range(5)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_page_count_is_its_table_count(page: Path):
    text = page.read_text()
    rows = _rows(text)
    assert rows and all(len(r) == 4 for r in rows), [r[:1] for r in rows if len(r) != 4]
    (found,) = COUNT.findall(text)
    checked, total = _count(rows)
    assert tuple(map(int, found)) == (checked, total, round(100 * checked / total))


def test_summary_repeats_every_page_count():
    summary = (DOCS / "coverage.md").read_text()
    for page in PAGES:
        checked, total = _count(_rows(page.read_text()))
        seed = page.stem.removeprefix("seed_")
        want = f"| {seed} | "
        (line,) = [ln for ln in summary.splitlines() if ln.startswith(want)]
        assert f"| {checked} of {total} ({round(100 * checked / total)}%) |" in line, line
        assert ("| met" in line) is (checked >= 0.9 * total), line


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_cited_claim_function_and_test_exists(page: Path):
    missing = []
    for row in _rows(page.read_text()):
        cells = " | ".join(row)
        for token in re.findall(r"`([a-z_0-9]+(?:\.[a-z_0-9]+)+)`", cells):
            if token.split(".")[0] in FAMILIES and not _resolves(token):
                missing.append(token)
        for path, name in re.findall(r"`(tests/[\w/]+\.py)::(\w+)", cells):
            src = ROOT / path
            if not src.is_file() or not re.search(rf"^def {name}\b", src.read_text(), re.M):
                missing.append(f"{path}::{name}")
    assert not missing, missing


def test_the_checks_catch_a_wrong_count_and_a_stale_citation():
    """Both sides: the parsing above rejects a page whose count or citation is wrong."""
    rows = [["a", "b", "`three_layer.figure_3_widths`", "checked"],
            ["c", "d", "`three_layer.no_such_claim`", "partial (why)"]]  # fmt: skip
    assert _count(rows) == (1, 2)
    assert _resolves("three_layer.figure_3_widths") and _resolves("three_layer.table_1")
    assert _resolves("kunin.balance")  # a package function
    assert not _resolves("three_layer.no_such_claim") and not _resolves("kunin.no_such")
    assert not _resolves("no_family.x")
