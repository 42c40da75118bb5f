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


def test_a_points_context_is_the_line_and_its_neighbours_stripped():
    (p,) = rk.points("m.py", "a = 1\n    b = x * 2\nc = 3\n", "core/ReplaceBinaryOperator_Mul_Add")
    assert p.line == 2 and p.context == ("a = 1", "b = x * 2", "c = 3")
    assert p.indent_col == 6 and p.text == "*"  # the column from the first non-blank


def test_rewrite_moves_each_key_once_even_when_moves_chain():
    text = '[equivalent]\n"a:1:op:0" = "x"\n"b:2:op:0" = "y"'
    out = rk.rewrite(text, {"a:1:op:0": "b:2:op:0", "b:2:op:0": "c:3:op:0"})
    assert out == '[equivalent]\n"b:2:op:0" = "x"\n"c:3:op:0" = "y"'


def _git_repo(tmp_path, monkeypatch, versions):
    """A git repository at tmp_path whose history commits ``m.py`` as each of ``versions``;
    ``rk.ROOT`` points at it.  Returns the last commit."""
    import subprocess

    def git(*args):
        return subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True,
                              text=True).stdout.strip()  # fmt: skip

    git("init", "-q")
    git("config", "user.email", "t@t")
    git("config", "user.name", "t")
    for text in versions:
        (tmp_path / "m.py").write_text(text)
        git("add", "m.py")
        git("commit", "-q", "-m", "v")
    monkeypatch.setattr(rk, "ROOT", tmp_path)
    rk._git.cache_clear()
    return git("rev-parse", "HEAD")


def test_locate_finds_a_key_where_it_was_written_and_refuses_one_that_names_nothing(
    tmp_path, monkeypatch
):
    op = "core/ReplaceBinaryOperator_Mul_Add"
    head = _git_repo(tmp_path, monkeypatch, ["x = a * b\n", "\n\nx = a * b\n"])
    found = rk._locate(head, f"m.py:1:{op}:0")  # written when the line was 1 (first commit)
    assert found is not None and found.context[1] == "x = a * b"
    assert rk._locate(head, f"m.py:3:{op}:0").line == 3  # valid at HEAD
    try:  # occurrence == the number of points: no such mutant (None), never an IndexError
        past_the_last = rk._locate(head, f"m.py:3:{op}:1")
    except IndexError as exc:
        past_the_last = exc
    assert past_the_last is None
    assert rk._locate(head, f"m.py:2:{op}:0") is None  # no mutant on that line ever


def test_plan_moves_a_point_to_the_unique_match_in_another_file(monkeypatch):
    op = "core/ReplaceBinaryOperator_Mul_Add"
    old = rk.points("solvable/a.py", "def f(x):\n    return x * 2\n", op)[0]
    monkeypatch.setattr(rk, "_old_keys", lambda commit: [old.key, "solvable/gone.py:9:op:0"])
    monkeypatch.setattr(rk, "_locate", lambda commit, key: old if key == old.key else None)
    monkeypatch.setattr(rk, "_tree_modules", lambda: iter([
        ("solvable/b.py", "import os\n\n\ndef f(x):\n    return x * 2\n"),
        ("solvable/c.py", "def g(y):\n    return y * 2\n"),  # same text, other context
    ]))  # fmt: skip
    moves, missing = rk.plan("HEAD")
    assert moves == {old.key: f"solvable/b.py:5:{op}:0"}
    assert len(missing) == 1 and missing[0].startswith("solvable/gone.py:9:op:0")
