"""benchmarks/mutation_rekey.py: the equivalent mutants' keys carried across a move of code
(the mutation points found again by text, context, column and rank; the toml rewritten)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("cosmic_ray")  # the [mutation] extra

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "mutation_rekey.py"
_spec = importlib.util.spec_from_file_location("mutation_rekey", _PATH)
rk = importlib.util.module_from_spec(_spec)
sys.modules["mutation_rekey"] = rk
_spec.loader.exec_module(rk)

SOURCE = "def f(x):\n    y = x * 2 * 3\n    return y\n"
MOVED = (
    "import math\n\n\nclass A:\n    @staticmethod\n    def f(x):\n        y = x * 2 * 3\n"
    "        return y\n"
)


def test_points_number_their_occurrences_as_cosmic_ray_does():
    found = rk.points("m.py", SOURCE, "core/NumberReplacer")
    assert [p.occurrence for p in found] == list(range(len(found)))
    assert {p.line for p in found} == {2} and {p.text for p in found} == {"2", "3"}
    # NumberReplacer makes two mutants per number: same position, ranks 0 and 1
    assert [(p.text, p.rank) for p in found] == [("2", 0), ("2", 1), ("3", 0), ("3", 1)]
    muls = rk.points("m.py", SOURCE, "core/ReplaceBinaryOperator_Mul_Add")
    assert len(muls) == 2 and muls[0].indent_col != muls[1].indent_col  # two '*' told apart


def test_a_moved_point_keeps_text_context_column_and_rank():
    old = rk.points("m.py", SOURCE, "core/NumberReplacer")[3]  # the second mutant of 3
    new = rk.points("n.py", MOVED, "core/NumberReplacer")
    same = [p for p in new if (p.text, p.context, p.indent_col, p.rank)
            == (old.text, old.context, old.indent_col, old.rank)]  # fmt: skip
    assert [p.key for p in same] == ["n.py:7:core/NumberReplacer:3"]  # indented deeper


def test_rewrite_replaces_keys_and_keeps_arguments_and_comments():
    text = '# a comment\n[equivalent]\n"m.py:2:op:1" = "why, with \\"quotes\\""\n"z:1:op:0" = "w"'
    out = rk.rewrite(text, {"m.py:2:op:1": "n.py:6:op:3"})
    assert (
        out
        == '# a comment\n[equivalent]\n"n.py:6:op:3" = "why, with \\"quotes\\""\n"z:1:op:0" = "w"'
    )


def test_two_entries_for_one_mutant_keep_the_later(capsys):
    text = '[equivalent]\n"a:1:op:0" = "old argument"\n"b:2:op:0" = "y"\n"c:3:op:1" = "new"'
    out = rk.rewrite(text, {"a:1:op:0": "c:3:op:1"})
    assert out == '[equivalent]\n"b:2:op:0" = "y"\n"c:3:op:1" = "new"'
    assert "DUPLICATE c:3:op:1" in capsys.readouterr().out
