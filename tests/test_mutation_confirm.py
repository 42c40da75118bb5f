"""benchmarks/mutation_confirm.py: a survivor of the covering tests is run against the
whole suite of the snapshot and classified as exec classifies (assertion kill, crash kill,
survivor confirmed, a run past the limit left a survivor)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("cosmic_ray")  # the [mutation] extra

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
_spec = importlib.util.spec_from_file_location("mutation_confirm", BENCH / "mutation_confirm.py")
mc = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("mutation_confirm", mc)
_spec.loader.exec_module(mc)


def _snapshot(tmp_path: Path, test_body: str) -> Path:
    snap = tmp_path / "snapshot"
    (snap / "tests").mkdir(parents=True)
    (snap / "benchmarks").mkdir()
    shutil.copy(BENCH / "mutation.py", snap / "benchmarks" / "mutation.py")
    (snap / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = ""\n')
    (snap / "tests" / "test_one.py").write_text(test_body)
    return snap


@pytest.mark.parametrize(
    ("body", "verdict", "by"),
    [
        ("def test_ok():\n    assert 1 + 1 == 2\n", "survived", None),
        ("def test_bad():\n    assert 1 + 1 == 3\n", "killed", "assertion"),
        ("def test_boom():\n    raise RuntimeError('x')\n", "killed", "crash"),
    ],
    ids=["passes", "assertion", "crash"],
)
def test_the_full_suite_is_classified_as_exec_does(tmp_path, body, verdict, by):
    snap = _snapshot(tmp_path, body)
    found = mc.full_suite(snap, tmp_path, limit=120)
    assert found["verdict"] == verdict
    assert found.get("by") == by
    if verdict == "survived":
        assert found["confirmed"] == "full suite"
    else:
        assert found["selection"] == "full suite" and "test_one.py" in found["killer"]


def test_a_run_past_the_limit_is_no_kill(tmp_path):
    snap = _snapshot(tmp_path, "import time\n\ndef test_slow():\n    time.sleep(30)\n")
    found = mc.full_suite(snap, tmp_path, limit=2)
    assert found["verdict"] == "survived" and found["confirmed"].startswith("not finished")


def test_the_first_assertion_failure_is_named(tmp_path):
    body = "def test_a():\n    assert 1 == 2\n\ndef test_b():\n    assert 2 == 3\n"
    found = mc.full_suite(_snapshot(tmp_path, body), tmp_path, limit=120)
    assert found["verdict"] == "killed" and found["by"] == "assertion"
    assert found["killer"].endswith("test_a"), found["killer"]


def test_a_run_that_fails_without_a_report_is_a_crash_kill(tmp_path):
    snap = _snapshot(tmp_path, "def test_ok():\n    assert True\n")
    (snap / "tests" / "conftest.py").write_text("import os\nos._exit(1)\n")  # exit 1, no report
    found = mc.full_suite(snap, tmp_path, limit=120)
    assert found["verdict"] == "killed" and found["by"] == "crash", found


def test_a_usage_error_tells_nothing_and_leaves_a_survivor(tmp_path):
    snap = _snapshot(tmp_path, "def test_ok():\n    assert True\n")
    (snap / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "--no-such"\n')
    found = mc.full_suite(snap, tmp_path, limit=120)  # pytest exit 4: the suite never ran
    assert found["verdict"] == "survived" and found["confirmed"].startswith("pytest exit 4")


def test_a_report_left_by_an_earlier_run_is_not_read(tmp_path):
    """A run that writes no report must not be judged by the report of an earlier mutant: a
    stale report naming an assertion failure is removed first, so a run that exits 1 with
    no report is a crash kill, not an assertion kill of a test that did not run."""
    stale = ('<testsuite><testcase classname="tests.test_old" name="test_x">'
             '<failure message="assert 0">x</failure></testcase></testsuite>')  # fmt: skip
    (tmp_path / "confirm-junit.xml").write_text(stale)
    snap = _snapshot(tmp_path, "def test_ok():\n    pass\n")
    (snap / "tests" / "conftest.py").write_text("import os\nos._exit(1)\n")
    found = mc.full_suite(snap, tmp_path, 120)
    assert found["verdict"] == "killed" and found["by"] == "crash", found
    assert "test_old" not in found["killer"]
