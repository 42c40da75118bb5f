"""The sampled cosmic-ray mutation run of ``benchmarks/mutation_sample.py``: its sampler
(seeded, stratified, reproducible), the Wilson interval, the stable mutant key, the test
selection and the report's table on a small synthetic cosmic-ray session.  No mutant is
run here (that is the script's job, minutes per mutant)."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

import pytest
from scipy.stats import binomtest

ROOT = Path(__file__).resolve().parents[1]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "benchmarks_mutation_sample", ROOT / "benchmarks" / "mutation_sample.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


ms = _script()
COUNTS = {"solvable/a.py": 500, "solvable/b.py": 120, "numerics/c.py": 37, "numerics/d.py": 3,
          "numerics/e.py": 1}  # fmt: skip


def _mutants(counts: dict[str, int] = COUNTS) -> list:
    out = []
    for module, n in counts.items():
        for k in range(n):
            operator = "core/NumberReplacer" if k % 2 else "core/AddNot"
            out.append(ms.Mutant(f"{module}-{k}", module, 10 + k // 3, k % 3, operator, k // 2))
    return out


# ---------------------------------------------------------------------------
# the sample
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", [9, 10, 50, 300, 660])
def test_allocate_sums_to_size_with_the_floor_and_the_cap(size):
    alloc = ms.allocate(COUNTS, size, minimum=2)
    assert sum(alloc.values()) == min(size, sum(COUNTS.values()))
    for module, n in alloc.items():
        assert min(2, COUNTS[module]) <= n <= COUNTS[module]


def test_allocate_is_proportional_above_the_floor():
    alloc = ms.allocate(COUNTS, 300, minimum=2)
    total = sum(COUNTS.values())
    assert alloc["numerics/d.py"] == 2 and alloc["numerics/e.py"] == 1
    for module in ("solvable/a.py", "solvable/b.py", "numerics/c.py"):
        assert abs(alloc[module] - 300 * COUNTS[module] / total) < 2


def test_allocate_everything_and_too_small():
    assert ms.allocate(COUNTS, 10_000) == COUNTS
    with pytest.raises(ValueError, match="below the minimum"):
        ms.allocate(COUNTS, 8, minimum=2)  # 2 + 2 + 2 + 2 + 1 = 9 is the least


def test_draw_is_reproducible_stratified_and_order_free():
    mutants = _mutants()
    first = ms.draw(mutants, 60, seed=0)
    shuffled = list(mutants)
    random.Random(5).shuffle(shuffled)
    assert [m.key for m in ms.draw(shuffled, 60, seed=0)] == [m.key for m in first]
    assert [m.key for m in ms.draw(mutants, 60, seed=1)] != [m.key for m in first]
    assert len(first) == 60 and len({m.key for m in first}) == 60
    per_module = {m: sum(x.module == m for x in first) for m in COUNTS}
    assert per_module == ms.allocate(COUNTS, 60, minimum=2)


def test_mutant_key_is_module_line_operator_occurrence():
    m = ms.Mutant("0123abcd", "solvable/models/kunin.py", 42, 7, "core/NumberReplacer", 3)
    assert m.key == "solvable/models/kunin.py:42:core/NumberReplacer:3"
    assert ms.mutant_key("solvable\\..\\solvable/models/kunin.py", 1, "op", 0).endswith(":1:op:0")
    # the random job id is not part of the key
    assert ms.Mutant("ffff", *list(vars(m).values())[1:]).key == m.key


# ---------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(("k", "n"), [(0, 10), (10, 10), (27, 30), (150, 300), (299, 300), (1, 2)])
def test_wilson_matches_scipy(k, n):
    expected = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert ms.wilson(k, n) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_wilson_of_nothing_is_everything():
    assert ms.wilson(0, 0) == (0.0, 1.0)


# ---------------------------------------------------------------------------
# test selection
# ---------------------------------------------------------------------------
SOURCE = """\
import math

LIMIT = 3


def f(x,
      y=2):
    total = (x
             + y)
    if (x >
            y):
        return total
    return -total
"""


def test_statement_line_is_where_coverage_records_it():
    assert ms.statement_line(SOURCE, 9) == 8  # continuation of an assignment
    assert ms.statement_line(SOURCE, 11) == 10  # continuation of an if header
    assert ms.statement_line(SOURCE, 12) == 12  # inside the if body
    assert ms.statement_line(SOURCE, 7) == 6  # a default argument: the def line
    assert ms.statement_line(SOURCE, 3) == 3


def test_runs_at_import():
    assert ms.runs_at_import(SOURCE, 3) and ms.runs_at_import(SOURCE, 7)  # constant, default
    assert not ms.runs_at_import(SOURCE, 9) and not ms.runs_at_import(SOURCE, 13)


def test_select_tests_by_line_then_module_then_none():
    covmap = {"tests": ["t::slow", "t::fast", "t::other"],
              "durations": {"t::slow": 9.0, "t::fast": 0.1, "t::other": 1.0},
              "lines": {"solvable/m.py": {"6": [], "8": [0, 1], "13": [2]}}}  # fmt: skip
    assert ms.select_tests(covmap, "solvable/m.py", [8]) == (["t::fast", "t::slow"], "line")
    # a line only run at import: every test of the module, fastest first
    assert ms.select_tests(covmap, "solvable/m.py", [6]) == (
        ["t::fast", "t::other", "t::slow"], "module")  # fmt: skip
    assert ms.select_tests(covmap, "solvable/m.py", [99]) == ([], "none")
    assert ms.select_tests(covmap, "numerics/x.py", [1]) == ([], "none")
    # an import-time line not recorded at all (imported before coverage started)
    assert ms.select_tests(covmap, "solvable/m.py", [99], at_import=True)[1] == "module"
    covmap["failed"] = ["t::slow"]  # failing without a mutant: never selected
    assert ms.select_tests(covmap, "solvable/m.py", [8]) == (["t::fast"], "line")


CACHED_SOURCE = """\
import functools
from functools import lru_cache


@functools.cache
def built():
    def inner():
        return 1
    return inner() + 1


@lru_cache(maxsize=None)
def also():
    return 2


def plain():
    return 3
"""


def test_in_cached_function_finds_the_body_of_every_caching_decorator():
    assert ms.in_cached_function(CACHED_SOURCE, 7) and ms.in_cached_function(CACHED_SOURCE, 9)
    assert ms.in_cached_function(CACHED_SOURCE, 8)  # a function nested in a cached one
    assert ms.in_cached_function(CACHED_SOURCE, 14)  # lru_cache(...) called
    assert not ms.in_cached_function(CACHED_SOURCE, 18)  # a plain function
    assert not ms.in_cached_function(CACHED_SOURCE, 5)  # the decorator line itself
    assert not ms.in_cached_function(SOURCE, 9)


def test_a_cached_body_selects_every_test_of_its_module():
    """A cached builder's lines are credited to the first test that called it: its mutant
    runs the line's tests and every other test of the module."""
    covmap = {"tests": ["t::slow", "t::fast", "t::other"],
              "durations": {"t::slow": 9.0, "t::fast": 0.1, "t::other": 1.0},
              "lines": {"solvable/m.py": {"6": [], "8": [0, 1], "13": [2]}}}  # fmt: skip
    assert ms.select_tests(covmap, "solvable/m.py", [13], cached=True) == (
        ["t::fast", "t::other", "t::slow"], "module")  # fmt: skip
    assert ms.select_tests(covmap, "solvable/m.py", [13]) == (["t::other"], "line")
    assert ms.select_tests(covmap, "numerics/x.py", [13], cached=True) == ([], "none")


def test_source_checks_run_first_for_every_mutant_and_once():
    every = ["tests/test_source_checks.py"]
    assert ms.with_source_checks((["t::fast", "t::slow"], "line"), every) == (
        ["tests/test_source_checks.py", "t::fast", "t::slow"],
        "line",
    )
    assert ms.with_source_checks(([], "none"), every) == (every, "none")
    assert ms.with_source_checks(([*every, "t::a"], "module"), every) == (
        [*every, "t::a"],
        "module",
    )
    # the project's configuration names them, and the file exists
    settings = ms.load_settings(ms.ROOT / "pyproject.toml")["sample"]
    configured = settings["every-mutant-tests"]
    assert configured[0] == every[0] and len(configured) == len(set(configured))
    assert all((ms.ROOT / t.split("::")[0]).is_file() for t in configured)
    for node in configured[1:]:  # a single test: it must exist in its file
        path, name = node.split("::")
        assert f"def {name}(" in (ms.ROOT / path).read_text(encoding="utf-8"), node


def test_mutated_lines_against_pristine(tmp_path):
    for name in ("pristine", "snapshot"):
        (tmp_path / name / "solvable").mkdir(parents=True)
        (tmp_path / name / "numerics").mkdir()
        (tmp_path / name / "solvable" / "m.py").write_text(SOURCE)
    mutated = SOURCE.replace("+ y)", "- y)")
    (tmp_path / "snapshot" / "solvable" / "m.py").write_text(mutated)
    assert ms.mutated_lines(tmp_path) == ("solvable/m.py", [9])
    assert ms.restore(tmp_path) == ["solvable/m.py"]
    with pytest.raises(RuntimeError, match="no mutated module"):
        ms.mutated_lines(tmp_path)


# ---------------------------------------------------------------------------
# the report on a synthetic session
# ---------------------------------------------------------------------------
def _verdict(**fields) -> str:
    return "collected 3 items\n" + f"{ms.VERDICT_TAG} {json.dumps(fields)}\n"


def test_outcomes_and_table_on_a_synthetic_session(tmp_path):
    from cosmic_ray import work_db as work_db_mod  # the test extra installs cosmic-ray
    from cosmic_ray.work_item import (
        MutationSpec,
        TestOutcome,
        WorkerOutcome,
        WorkItem,
        WorkResult,
    )

    modules = {"solvable/verification/testing.py": 4, "numerics/mp.py": 4,
               "solvable/models/kunin.py": 4, "solvable/verification/errata.py": 30,
               "numerics/sweeps.py": 30}  # fmt: skip
    with work_db_mod.use_db(str(tmp_path / "s.sqlite")) as db:
        items = [WorkItem.single(f"job-{module}-{k}", MutationSpec(
                    module, "core/NumberReplacer", k, (k + 1, 0), (k + 1, 3)))
                 for module, n in modules.items() for k in range(n)]  # fmt: skip
        db.add_work_items(items)
        chosen = ms.mark_sample(db, 20, seed=0)
        assert len(chosen) == 20 and db.num_results == sum(modules.values()) - 20
        # a new session of the same code (new random job ids), the same seed: the same keys
        with work_db_mod.use_db(str(tmp_path / "t.sqlite")) as other:
            other.add_work_items(WorkItem.single(f"new-{i}", m) for i, w in enumerate(items)
                                 for m in w.mutations)  # fmt: skip
            assert [m.key for m in ms.mark_sample(other, 20, seed=0)] == [m.key for m in chosen]
        normal = WorkerOutcome.NORMAL
        results = [
            WorkResult(normal, _verdict(verdict="killed", by="assertion", seconds=2.0),
                       TestOutcome.KILLED, "-a\n+b"),
            WorkResult(normal, _verdict(verdict="killed", by="crash", seconds=1.0),
                       TestOutcome.KILLED, "-a\n+b"),
            WorkResult(normal, "timeout", TestOutcome.KILLED, "-a\n+b"),
            WorkResult(normal, _verdict(verdict="survived", selection="line", tests=3,
                                        seconds=4.0), TestOutcome.SURVIVED, "-x = 1\n+x = 2"),
            WorkResult(normal, _verdict(verdict="not covered", seconds=0.0),
                       TestOutcome.SURVIVED, "-y = 1\n+y = 2"),
            WorkResult(normal, _verdict(verdict="survived", seconds=3.0),
                       TestOutcome.SURVIVED, "-z\n+w"),
            WorkResult(WorkerOutcome.EXCEPTION, "Traceback", TestOutcome.INCOMPETENT),
            # the runner failed before its verdict (exit 1): no kill
            WorkResult(normal, "", TestOutcome.KILLED, "-a\n+b"),
        ]  # fmt: skip
        for m, result in zip(chosen, results, strict=False):
            db.set_result(m.job_id, result)
        equivalents = {chosen[5].key: "argued", "solvable/gone.py:1:op:0": "stale"}
        rows = ms.collect(db, equivalents)
    assert [r.mutant.key for r in rows] == [m.key for m in chosen]
    outcomes = [r.outcome for r in rows]
    assert outcomes[:8] == ["killed (assertion)", "killed (crash)", "timeout", "survived",
                            "not covered", "equivalent", "incompetent", "incompetent"]  # fmt: skip
    assert outcomes[8:] == ["pending"] * 12
    text = ms.table(rows)
    overall = next(line for line in text.splitlines() if "**overall**" in line)
    cells = [c.strip() for c in overall.strip("|").split("|")]
    # sampled, assertion, crash, timeout, survived, not covered, equivalent, incompetent,
    # pending, score, interval
    assert cells[1:10] == ["20", "1", "1", "1", "2", "1", "1", "2", "12"]
    lo, hi = ms.wilson(3, 5)
    assert cells[10] == "3/5 = 60.0%" and cells[11] == f"{lo:.1%} - {hi:.1%}"
    groups = [line.split("|")[1].strip() for line in text.splitlines()[2:]]
    assert groups == [*ms.GROUPS, "rest of solvable", "rest of numerics", "**overall**"]
    assert ms.stale(rows, equivalents) == ["solvable/gone.py:1:op:0"]
    listing = ms.survivors(rows)
    assert chosen[3].key in listing and chosen[4].key in listing and chosen[5].key not in listing
    assert "+x = 2" in listing and "3 tests by line" in listing


def test_groups_and_verdict_parsing():
    assert ms.group_of("numerics/scipy_ode.py").startswith("integrators")
    assert ms.group_of("solvable/models/linear_node_scaling.py").startswith("closed forms")
    assert ms.group_of("solvable/models/kunin/wide.py").startswith("closed forms")  # a package
    assert ms.group_of("solvable/models/kunin_extra.py") == "rest of solvable"  # not a stem
    assert ms.group_of("solvable/verification/testing.py") == "solvable/verification/testing.py"
    for part in ("oracle_inputs", "gradient_descent", "reports", "oracle_notes", "kernel_oracle"):
        module = f"solvable/verification/{part}.py"  # the oracle's parts split off testing.py
        assert ms.group_of(module) == "solvable/verification/testing.py", module
    assert ms.group_of("solvable/verification/theorems.py") == "rest of solvable"
    assert ms.group_of("solvable/_core/x.py") == "rest of solvable"
    assert ms.group_of("numerics/models.py") == "rest of numerics"
    assert ms.runner_verdict(_verdict(verdict="timeout")) == {"verdict": "timeout"}
    assert ms.runner_verdict("no verdict here") == {}


def test_settings_and_cosmic_ray_config(tmp_path):
    settings = ms.load_settings()
    assert settings["module-path"] == ["solvable", "numerics"]
    assert settings["sample"]["size"] == 300 and settings["sample"]["seed"] == 0
    config = ms.cosmic_ray_config(settings, tmp_path)
    assert "sample" not in config and config["distributor"]["name"] == "local"
    assert config["test-command"].endswith(f"--workspace {tmp_path} run-one")


def test_the_equivalence_file_parses():
    equivalents = ms.load_equivalents()
    for key, why in equivalents.items():
        module, line, operator, occurrence = key.rsplit(":", 3)
        assert (ROOT / module).is_file() and line.isdigit() and occurrence.isdigit()
        assert operator.startswith("core/") and why.strip()


def test_focus_draws_are_extra_mutants_of_one_group_counted_only_in_it():
    mutants = _mutants({"solvable/verification/testing.py": 40, "numerics/mp.py": 30,
                        "numerics/sweeps.py": 300, "solvable/models/kunin.py": 400})  # fmt: skip
    main = ms.draw(mutants, 50, seed=0)
    extra = ms.draw_focus(
        mutants, main, {"solvable/verification/testing.py": 10, "integrators": 100}, seed=0
    )
    testing, integrators = extra["solvable/verification/testing.py"], next(
        v for k, v in extra.items() if k.startswith("integrators"))  # fmt: skip
    assert len(testing) == 10 and {m.module for m in testing} == {
        "solvable/verification/testing.py"
    }
    in_main = sum(m.module == "numerics/mp.py" for m in main)
    assert len(integrators) == 30 - in_main  # capped at what the main sample left
    keys = [m.key for m in main + testing + integrators]
    assert len(set(keys)) == len(keys)  # no mutant twice
    again = ms.draw_focus(mutants, main, {"solvable/verification/testing.py": 10}, seed=0)
    assert again["solvable/verification/testing.py"] == testing  # seeded
    with pytest.raises(ValueError, match="names 0 report groups"):
        ms.draw_focus(mutants, main, {"nowhere": 3}, seed=0)
    with pytest.raises(ValueError, match="names 2 report groups"):
        ms.draw_focus(mutants, main, {"rest of": 3}, seed=0)
    with pytest.raises(ValueError, match="int >= 0"):
        ms.draw_focus(mutants, main, {"integrators": -1}, seed=0)
    # the table: a group's row counts its focus draws, the overall row does not
    rows = [ms.Row(m, "killed (assertion)", {}, "") for m in main]
    rows += [ms.Row(m, "survived", {}, "", focus=True) for m in testing]
    text = ms.table(rows)
    line = next(x for x in text.splitlines() if x.startswith("| solvable/verification/testing.py"))
    n_main = sum(m.module == "solvable/verification/testing.py" for m in main)
    assert f"| {n_main + 10} (10 focus) |" in line and f"{n_main}/{n_main + 10}" in line
    overall = next(x for x in text.splitlines() if "**overall**" in x)
    assert "| 50 |" in overall and "50/50 = 100.0%" in overall


def test_a_focus_only_run_draws_a_proportional_sample_of_its_groups():
    """init --size 0 --focus GROUP=N: no main sample (no minimum per module to meet), and
    each focus group drawn in proportion to its modules; the overall row is then empty."""
    mutants = _mutants({"numerics/mp.py": 300, "numerics/scipy_ode.py": 100,
                        "numerics/sweeps.py": 300, "solvable/models/kunin.py": 400})  # fmt: skip
    assert ms.draw(mutants, 0, seed=6) == []
    extra = ms.draw_focus(mutants, [], {"integrators": 40}, seed=6)
    ((group, drawn),) = extra.items()
    assert group.startswith("integrators") and len(drawn) == 40
    assert sum(m.module == "numerics/mp.py" for m in drawn) == 30  # 300 of the group's 400
    rows = [ms.Row(m, "killed (assertion)", {}, "", focus=True) for m in drawn]
    overall = next(x for x in ms.table(rows).splitlines() if "**overall**" in x)
    assert "| 0 |" in overall
    with pytest.raises(SystemExit):  # --focus without =N is a usage error
        ms.main(["--workspace", "/nonexistent-solvable-ws", "init", "--focus", "integrators"])


_DIFF = """diff --git a/solvable/a.py b/solvable/a.py
index 1..2 100644
--- a/solvable/a.py
+++ b/solvable/a.py
@@ -10 +10 @@ def f():
-    return 1
+    return 2
@@ -20,0 +21,3 @@ def g():
+    x = 1
+    y = 2
+    z = 3
@@ -40,2 +43,0 @@ def h():
-    gone = 1
-    gone = 2
diff --git a/numerics/old.py b/numerics/old.py
deleted file mode 100644
--- a/numerics/old.py
+++ /dev/null
@@ -1,2 +0,0 @@
-a = 1
-b = 2
"""


def test_changed_lines_are_the_new_lines_of_each_hunk():
    """``git diff -U0`` hunks: ``+10`` one line, ``+21,3`` lines 21-23, ``+43,0`` (a pure
    deletion) none, a deleted file none."""
    assert ms.parse_changed_lines(_DIFF) == {"solvable/a.py": {10, 21, 22, 23}}
    assert ms.parse_changed_lines("") == {}


def test_focus_draws_on_changed_lines_come_only_from_them():
    """``init --changed-since REV``: every focus draw lies on a changed line of its module,
    all of them when the pool is smaller than the count; without ``lines`` the whole group."""
    mutants = _mutants({"numerics/mp.py": 300, "numerics/scipy_ode.py": 100})
    lines = {"numerics/mp.py": {10, 11, 50}, "numerics/scipy_ode.py": {12}}
    ((_, drawn),) = ms.draw_focus(mutants, [], {"integrators": 500}, seed=1, lines=lines).items()
    on = [m for m in mutants if m.line in lines[m.module]]
    assert sorted(m.key for m in drawn) == sorted(m.key for m in on) and len(on) == 12
    ((_, few),) = ms.draw_focus(mutants, [], {"integrators": 5}, seed=1, lines=lines).items()
    assert len(few) == 5 and all(m.line in lines[m.module] for m in few)
    ((_, whole),) = ms.draw_focus(mutants, [], {"integrators": 5}, seed=1).items()
    assert len(whole) == 5 and sum(m.line not in lines[m.module] for m in whole) >= 4


def test_changed_lines_reads_git_against_a_revision(tmp_path):
    """In a repository of its own: the lines the working tree changed in the sources since a
    commit (a line outside ``solvable``/``numerics`` not counted), none against the working
    tree's own commit, and an unknown revision an error, not an empty set."""

    def git(*args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                       cwd=tmp_path, check=True, capture_output=True)  # fmt: skip

    (tmp_path / "solvable").mkdir()
    (tmp_path / "solvable" / "a.py").write_text("a = 1\nb = 2\nc = 3\n", encoding="utf-8")
    (tmp_path / "other.py").write_text("x = 1\n", encoding="utf-8")
    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "base")
    assert ms.changed_lines("HEAD", tmp_path) == {}
    (tmp_path / "solvable" / "a.py").write_text("a = 1\nb = 20\nc = 3\nd = 4\n", "utf-8")
    (tmp_path / "other.py").write_text("x = 2\n", encoding="utf-8")
    assert ms.changed_lines("HEAD", tmp_path) == {"solvable/a.py": {2, 4}}
    with pytest.raises(subprocess.CalledProcessError):
        ms.changed_lines("no-such-revision-0123", tmp_path)


def test_shards_cover_the_pending_mutants_once_and_merge_brings_results_back(tmp_path):
    from cosmic_ray import work_db as work_db_mod
    from cosmic_ray.work_item import MutationSpec, TestOutcome, WorkerOutcome, WorkItem, WorkResult

    here, there = tmp_path / "a", tmp_path / "b"
    here.mkdir()
    with work_db_mod.use_db(str(here / "session.sqlite")) as db:
        db.add_work_items(WorkItem.single(f"job-{k}", MutationSpec(
            "solvable/models/kunin.py", "core/NumberReplacer", k, (k + 1, 0), (k + 1, 3)))
            for k in range(10))  # fmt: skip
        db.set_result("job-0", WorkResult(WorkerOutcome.SKIPPED))
    there.mkdir()
    shutil.copy(here / "session.sqlite", there / "session.sqlite")  # what clone copies
    pending = [f"job-{k}" for k in range(1, 10)]
    random.Random(0).shuffle(pending)
    shards = [pending[k::3] for k in range(3)]  # cmd_exec's slicing of the shuffled order
    assert sorted(j for shard in shards for j in shard) == sorted(pending) and all(shards)
    killed = WorkResult(WorkerOutcome.NORMAL, "out", TestOutcome.KILLED, "-a\n+b")
    with work_db_mod.use_db(str(there / "session.sqlite"), work_db_mod.WorkDB.Mode.open) as db:
        for job in shards[1]:
            db.set_result(job, killed)
    with work_db_mod.use_db(str(here / "session.sqlite"), work_db_mod.WorkDB.Mode.open) as db:
        db.set_result(shards[0][0], WorkResult(WorkerOutcome.NORMAL, "mine",
                                               TestOutcome.SURVIVED, "-x\n+y"))  # fmt: skip
    assert ms.cmd_merge(here, there) == 0
    with work_db_mod.use_db(str(here / "session.sqlite"), work_db_mod.WorkDB.Mode.open) as db:
        results = dict(db.results)
    assert all(results[j].test_outcome == TestOutcome.KILLED for j in shards[1])
    assert results[shards[0][0]].output == "mine"  # a result of its own is kept
    assert results["job-0"].worker_outcome == WorkerOutcome.SKIPPED
    with pytest.raises(SystemExit):  # K must be below N
        ms.main(["--workspace", str(here), "exec", "--shard", "2/2"])


def test_an_entry_argued_in_another_sample_is_not_stale():
    rows = [ms.Row(m, "killed (assertion)", {}, "") for m in _mutants({"solvable/a.py": 3})]
    others = [m.key for m in _mutants({"solvable/a.py": 6})]  # the session's other mutants
    equivalents = {others[5]: "argued for another sample", "solvable/gone.py:1:op:0": "old"}
    assert ms.stale(rows, equivalents) == sorted(equivalents)  # by the sample alone
    assert ms.stale(rows, equivalents, others) == ["solvable/gone.py:1:op:0"]


def test_the_run_stops_at_the_first_assertion_or_after_max_crashes(tmp_path):
    """The per-mutant pytest plugin (``-p mutation``) stops at the first test failing by an
    assertion, and otherwise after MAX_CRASHES tests failed by an exception: a mutant that
    breaks a shared helper must not run hundreds of failing tests to their end."""
    limit = ms._harness().MAX_CRASHES
    crashing = "".join(f"def test_c{k:03d}():\n    raise RuntimeError('broken')\n\n"
                       for k in range(limit + 5))  # fmt: skip
    (tmp_path / "test_crashes.py").write_text(crashing, encoding="utf-8")
    (tmp_path / "test_assertion.py").write_text(
        "def test_a0():\n    raise RuntimeError('broken')\n\n"
        "def test_a1():\n    assert 1 == 2\n\n"
        "def test_a2():\n    raise RuntimeError('never reached')\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "benchmarks")}

    def ran(name: str) -> int:
        out = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
             "-p", "mutation", "-o", "addopts=", name],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        return out.stdout.count("failed") and int(out.stdout.split(" failed")[0].split()[-1])

    assert ran("test_crashes.py") == limit  # stopped at the limit, not at limit + 5
    assert ran("test_assertion.py") == 2  # the crash, then the assertion: stop


def test_an_import_time_line_also_selects_the_tests_that_name_its_module():
    """A module constant is read by tests that call none of the module's functions (the
    DOP853 slot table of ``numerics.torch_flow``, a seed-4 survivor): an import-time line's
    mutant also runs every test of each test file that names the module."""
    sources = {
        "tests/test_a.py": "from numerics import torch_flow\nassert torch_flow._E_LO",
        "tests/test_b.py": "import numerics.torch_flow_extra  # another module",
        "tests/test_c.py": "from solvable.verification.figures import _common as figures_common",
    }
    tests = ["tests/test_a.py::t1", "tests/test_b.py::t2", "tests/test_c.py::t3"]
    assert ms.module_readers(tests, "numerics/torch_flow.py", sources) == {"tests/test_a.py::t1"}
    assert ms.module_readers(tests, "solvable/verification/figures/_common.py", sources) == {
        "tests/test_c.py::t3"
    }
    assert ms.module_readers(tests, "solvable/verification/figures/__init__.py", sources) == {
        "tests/test_c.py::t3"
    }
    # a file of a split package: by its stem or by its package's name
    sources["tests/test_d.py"] = "from numerics.torch_flow import tableau as tf_tableau"
    tests.append("tests/test_d.py::t4")
    assert ms.module_readers(tests, "numerics/torch_flow/tableau.py", sources) == {
        "tests/test_a.py::t1", "tests/test_d.py::t4"}  # fmt: skip
    assert ms.module_readers(tests, "solvable/models/kunin/wide.py", sources) == set()
    sources["tests/test_e.py"] = "from solvable import kunin\nkunin.PARALLEL_SAMPLE"
    tests.append("tests/test_e.py::t5")
    assert ms.module_readers(tests, "solvable/models/kunin/single_neuron.py", sources) == {
        "tests/test_e.py::t5"}  # fmt: skip
    # a file of a verification subpackage is named by its stem only
    assert ms.module_readers(tests, "solvable/verification/figures/seed_001.py", sources) == set()
    covmap = {"tests": ["t::cover", "t::read"], "durations": {"t::cover": 1.0, "t::read": 0.1},
              "lines": {"numerics/torch_flow.py": {"5": [0]}}}  # fmt: skip
    # at import: the covering tests and the readers, fastest first
    assert ms.select_tests(covmap, "numerics/torch_flow.py", [3], True, False, {"t::read"}) == (
        ["t::read", "t::cover"], "module")  # fmt: skip
    # a line a test runs: by line, the readers not added
    assert ms.select_tests(covmap, "numerics/torch_flow.py", [5], False, False, {"t::read"}) == (
        ["t::cover"], "line")  # fmt: skip


def test_a_reader_that_failed_unmutated_is_not_selected():
    """A test that failed without a mutant is never selected, a reader of the module
    included (its failure would be no kill; an outside reviewer's mutant added the readers
    without taking the failed tests out)."""
    covmap = {"tests": ["a::ok", "b::fails", "c::reads"], "durations": {},
              "failed": ["b::fails"], "lines": {"numerics/torch_flow.py": {"5": [0]}}}  # fmt: skip
    selected = ms.select_tests(covmap, "numerics/torch_flow.py", [7], True, False,
                               {"b::fails", "c::reads"})  # fmt: skip
    assert selected == (["a::ok", "c::reads"], "module")


def test_the_standard_run_fits_its_floor_on_every_module():
    """The standard run (``init`` with pyproject's settings) must be drawable: its floor per
    module times the modules cosmic-ray mutates (at most the ``.py`` files of the module
    paths) is at most its size.  A floor of 2 stopped fitting in 300 when the models became
    packages (194 modules: ``init`` raised "size 300 is below the minimum of 349")."""
    settings = ms.load_settings()
    files = [f for root in settings["module-path"] for f in (ms.ROOT / root).rglob("*.py")]
    sample = settings["sample"]
    assert sample["minimum"] * len(files) <= sample["size"], (len(files), sample)
    counts = {f.as_posix(): 50 for f in files}  # every module with mutants to spare
    assert sum(ms.allocate(counts, sample["size"], sample["minimum"]).values()) == sample["size"]


DEMO_CACHED = """\
import functools


@functools.cache
def leaf(n):
    return n + 1


@functools.lru_cache(maxsize=4)
def mid(n):
    return leaf(n) + 1


@functools.cache
def top(n):
    return mid(n) + 1


@functools.cache
def alone(n):
    return -n


LIMIT = 3
"""
# lines of DEMO_CACHED: leaf 4-6, mid 9-11, top 14-16, alone 19-21, LIMIT 24

DEMO_TESTS = """\
import functools
import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "demo_cached", pathlib.Path(__file__).parent / "src" / "solvable" / "demo.py")
demo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(demo)


@functools.cache
def outside(n):
    return n


def test_x():
    assert demo.mid(1) == 3  # misses mid, and leaf through it


def test_y():
    assert demo.top(1) == 4  # misses top, hits mid


def test_z():
    assert demo.top(1) == 4  # a hit


def test_w():
    assert demo.leaf(1) == 2  # a hit


def test_none():
    assert outside(1) == 1  # a cache outside the packages


def test_fail():
    assert demo.alone(1) == -1 and demo.leaf(1) == 2
    assert False
"""


def _demo_users(tmp_path, *, env_var: bool = True) -> Path:
    source = tmp_path / "src" / "solvable"  # not on the import path: ``solvable`` stays real
    source.mkdir(parents=True)
    (source / "demo.py").write_text(DEMO_CACHED, encoding="utf-8")
    (tmp_path / "test_demo.py").write_text(DEMO_TESTS, encoding="utf-8")
    users_dir = tmp_path / "users"
    users_dir.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "benchmarks")}
    if env_var:
        env[ms.CACHE_USERS_ENV] = str(users_dir)
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
         "-p", "cache_users", "-o", "addopts=", "test_demo.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 1 and "1 failed, 5 passed" in out.stdout, out.stdout + out.stderr
    return users_dir


def test_the_map_credits_a_cached_builder_to_every_test_that_reads_it(tmp_path):
    """``benchmarks/cache_users.py`` records, per test, the cached functions it called, hits
    too: coverage credits ``leaf`` and ``mid`` to ``x`` alone (the first call), but ``w``
    reads ``leaf`` from its cache, and ``y`` and ``z`` read ``mid`` (``top`` calls it), so
    through it ``leaf`` (the closure over builders: ``top`` missed into ``mid``, ``mid`` into
    ``leaf``, a chain of two, asymmetric: ``top``'s users stay its own); a test that calls
    no cached function of the packages is no user, and the last line of a function (its
    return) is in its span."""
    users_dir = _demo_users(tmp_path)
    names = ["test_demo.py::test_" + t for t in ("x", "y", "z", "w", "none", "fail")]
    tests = {names[0]: 0}
    cached = ms.cache_users(users_dir, tests)
    covmap = {"tests": sorted(tests, key=tests.__getitem__), "cached": cached}
    x, y, z, w, _, fail = names
    chain = {x, y, z, w, fail}
    for line in (4, 5, 6):  # leaf: decorator, def and return lines
        assert ms.cached_users(covmap, "solvable/demo.py", [line]) == chain, line
    assert ms.cached_users(covmap, "solvable/demo.py", [11]) == chain  # mid
    assert ms.cached_users(covmap, "solvable/demo.py", [16]) == {y, z}  # top
    assert ms.cached_users(covmap, "solvable/demo.py", [21]) == {fail}  # alone
    assert ms.cached_users(covmap, "solvable/demo.py", [7, 12]) == set()  # between functions
    assert ms.cached_users(covmap, "numerics/demo.py", [5]) == set()
    # the selection: the users (but the test that failed unmutated) after the line's own
    full = {**covmap, "durations": {}, "failed": [fail],
            "lines": {"solvable/demo.py": {"6": [0], "11": [0]}}}  # fmt: skip
    assert ms.select_tests(full, "solvable/demo.py", [6], cached=True,
                           users=ms.cached_users(full, "solvable/demo.py", [6])) == (
        sorted([w, x, y, z]), "module")  # fmt: skip
    assert ms.select_tests(full, "solvable/demo.py", [16], cached=True,
                           users=ms.cached_users(full, "solvable/demo.py", [16])) == (
        sorted([x, y, z]), "module")  # fmt: skip


def test_the_cache_users_plugin_is_off_without_its_variable(tmp_path):
    users_dir = _demo_users(tmp_path, env_var=False)
    assert list(users_dir.iterdir()) == []


def _fake_repository(root: Path) -> None:
    """A package ``solvable`` (with an empty module for each pytest plugin the installed
    ``solvable`` registers, since its entry point is loaded from this package then) of two
    cached functions and three tests: ``a`` runs ``mid`` (and ``leaf`` through it) and checks
    nothing, ``b`` checks ``leaf`` (a cache hit), ``c`` reads the constant ``LIMIT`` (it runs
    no line of ``solvable``), ``d`` reads it too and fails unmutated: the sampler's
    ``benchmarks`` too."""
    (root / "solvable").mkdir(parents=True)
    (root / "solvable" / "__init__.py").write_text("", encoding="utf-8")
    for entry in entry_points(group="pytest11"):
        module = entry.value.split(":")[0].split(".")
        if module[0] != "solvable":
            continue
        for k in range(2, len(module)):  # its packages
            (root.joinpath(*module[:k])).mkdir(exist_ok=True)
            (root.joinpath(*module[:k]) / "__init__.py").write_text("", encoding="utf-8")
        root.joinpath(*module[:-1], module[-1] + ".py").write_text("", encoding="utf-8")
    (root / "solvable" / "demo.py").write_text(DEMO_CACHED, encoding="utf-8")
    (root / "tests").mkdir()
    (root / "tests" / "test_demo.py").write_text(
        "from solvable import demo\n\n\ndef test_a():\n    demo.mid(1)\n\n\n"
        "def test_b():\n    assert demo.leaf(1) == 2\n\n\n"
        "def test_c():\n    assert demo.LIMIT == 3\n\n\n"
        "def test_d():\n    assert demo.LIMIT == 4\n", encoding="utf-8")  # fmt: skip
    shutil.copytree(ROOT / "benchmarks", root / "benchmarks",
                    ignore=shutil.ignore_patterns("mutants", "__pycache__"))  # fmt: skip


def _mapped_fake_repository(tmp_path: Path) -> tuple[Path, dict, dict]:
    """A workspace of :func:`_fake_repository` (pristine and snapshot), the sampler's
    settings for it and its map (``build_map``, one worker)."""
    workspace = tmp_path / "ws"
    for name in ("pristine", "snapshot"):
        _fake_repository(workspace / name)
    settings = ms.load_settings()
    settings["sample"] = {**settings["sample"], "exclude-tests": [], "every-mutant-tests": []}
    return workspace, settings, ms.build_map(workspace, settings, workers=1)


@pytest.fixture(scope="module")
def mapped_fake_repository(tmp_path_factory):
    """:func:`_mapped_fake_repository` built once for the tests below (the map runs pytest
    under coverage: about 40 s); each test mutates the snapshot's ``demo.py`` and puts the
    unmutated text back."""
    workspace, settings, covmap = _mapped_fake_repository(tmp_path_factory.mktemp("mapped"))
    yield workspace, settings, covmap


@pytest.fixture
def mapped(mapped_fake_repository):
    workspace, _, _ = mapped_fake_repository
    demo = workspace / "snapshot" / "solvable" / "demo.py"
    assert demo.read_text(encoding="utf-8") == DEMO_CACHED
    yield mapped_fake_repository
    demo.write_text(DEMO_CACHED, encoding="utf-8")


def _run_one_killed(workspace: Path, settings: dict, capsys) -> dict:
    """``run_one`` on the snapshot's mutant: killed (exit 1); its verdict record."""
    capsys.readouterr()
    assert ms.run_one(workspace, settings) == 1  # killed
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1].split(" ", 1)[1])


def test_the_map_and_run_one_select_a_cached_lines_users_end_to_end(mapped, capsys):
    """``build_map`` (pytest under coverage and the cache-users plugin) then ``run_one``
    on a workspace of a fake repository: the mutant of ``leaf``'s return is covered by
    ``a`` only (its first caller, which checks nothing), yet ``run_one`` also runs ``b``,
    which reads ``leaf`` from the cache, and is killed by it."""
    workspace, settings, covmap = mapped
    a, b = "tests/test_demo.py::test_a", "tests/test_demo.py::test_b"
    leaf_line = covmap["lines"]["solvable/demo.py"]["6"]
    assert [covmap["tests"][i] for i in leaf_line] == [a]  # coverage: the first caller only
    assert "solvable/demo.py" in covmap["cached"], covmap["cached"]  # the plugin's record
    (first, last, ids), *_ = covmap["cached"]["solvable/demo.py"]
    assert (first, last) == (4, 6) and {covmap["tests"][i] for i in ids} == {a, b}
    demo = workspace / "snapshot" / "solvable" / "demo.py"
    demo.write_text(DEMO_CACHED.replace("return n + 1", "return n * 3"), encoding="utf-8")
    verdict = _run_one_killed(workspace, settings, capsys)
    assert verdict["tests"] == 2 and verdict["selection"] == "module", verdict
    assert (verdict["verdict"], verdict["by"], verdict["killer"]) == ("killed", "assertion", b)


def test_the_map_lists_a_test_that_reads_only_a_constant(mapped, capsys):
    """``c`` reads ``demo.LIMIT`` and runs no line under its own context, so coverage never
    names it; the map lists it anyway (from the run's report, as it lists ``d``, which
    fails unmutated), and the mutant of ``LIMIT`` (an import-time line) is run by it as a
    reader of ``demo`` and killed, ``d`` not run (seed 22: such a test of
    ``figures/seed_004.py``'s grids was never run on their mutants)."""
    workspace, settings, covmap = mapped
    c, d = "tests/test_demo.py::test_c", "tests/test_demo.py::test_d"
    assert c in covmap["tests"] and c in covmap["durations"], covmap["tests"]
    assert d in covmap["tests"] and covmap["failed"] == [d], covmap  # every test reported
    assert all(covmap["tests"].index(c) not in ids
               for ids in covmap["lines"]["solvable/demo.py"].values())  # fmt: skip
    demo = workspace / "snapshot" / "solvable" / "demo.py"
    demo.write_text(DEMO_CACHED.replace("LIMIT = 3", "LIMIT = 4"), encoding="utf-8")
    verdict = _run_one_killed(workspace, settings, capsys)
    assert verdict["selection"] == "module" and verdict["tests"] == 3, verdict  # not d
    assert (verdict["verdict"], verdict["killer"]) == ("killed", c), verdict


def test_a_cached_line_also_selects_the_users_of_its_function():
    covmap = {"tests": ["t::line", "t::user", "t::gone"],
              "durations": {"t::line": 1.0, "t::user": 0.5},
              "lines": {"solvable/m.py": {"8": [0]}}, "failed": ["t::gone"]}  # fmt: skip
    assert ms.select_tests(covmap, "solvable/m.py", [8], cached=True,
                           users={"t::user", "t::gone"}) == (
        ["t::user", "t::line"], "module")  # fmt: skip
    # not a cached line: the users are not asked
    assert ms.select_tests(covmap, "solvable/m.py", [8], users={"t::user"}) == (
        ["t::line"], "line")  # fmt: skip
