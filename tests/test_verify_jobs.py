"""``solvable verify --jobs N`` and the proof cache (:mod:`solvable.verification.verify_runner`):
parallel runs give the sequential verdicts in registry order, a dead worker is a failed
verdict, cached proofs are hits only for the same source and versions, a corrupted entry
is a miss that is rewritten, and ``--no-cache`` neither reads nor writes."""

from __future__ import annotations

import json
import os
import shutil
import signal

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core.claims import Theorem, Verdict
from solvable.verification import cli, proof_cache, theorems, verify_runner

# A few fast claims of three models and both kinds (a torch one among them): five tasks
# (model, kind) for two workers, about 1 CPU s of checks; the two spawned workers' imports
# are most of the cost.
FAST = "*norm*"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """Every test reads and writes its own cache directory, never the user's."""
    monkeypatch.setenv(verify_runner.CACHE_ENV, str(tmp_path / "cache"))


def _registered(claim_id: str) -> Theorem:
    return next(t for t in theorems.registry() if t.id == claim_id)


# module-level checks: a worker receives them pickled (by reference to this module)
def _fine() -> Verdict:
    return Verdict("confirmed", "fine", max_error=0.0)


def _exit_7() -> Verdict:
    os._exit(7)


def _sigkill() -> Verdict:
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")  # pragma: no cover


def _demo(claim_id: str, check) -> Theorem:
    return Theorem(claim_id, "000_x.txt (1)", "demo", "numeric", check)


# ---------------------------------------------------------------------------
# parallel runs
# ---------------------------------------------------------------------------
def test_jobs_2_gives_the_verdicts_of_jobs_1_in_registry_order(tmp_path, capsys):
    reports = {}
    for jobs in (1, 2):
        path = tmp_path / f"v{jobs}.json"
        args = ["verify", "--only", FAST, "--no-cache", "--jobs", str(jobs), "--json", str(path)]
        assert cli.main(args) == 0
        reports[jobs] = json.loads(path.read_text())
    err = capsys.readouterr().err
    one, two = reports[1], reports[2]
    assert (one["jobs"], two["jobs"]) == (1, 2)
    registry_order = [t.id for t in theorems.select(FAST)]
    assert [r["id"] for r in one["results"]] == registry_order
    assert [r["id"] for r in two["results"]] == registry_order
    assert [r["status"] for r in one["results"]] == [r["status"] for r in two["results"]]
    kinds = {r["kind"] for r in two["results"]}
    models = {r["id"].split(".")[0] for r in two["results"]}
    assert kinds == {"symbolic", "numeric"} and len(models) >= 3  # the selection is mixed
    n = len(registry_order)
    assert f"[{n}/{n}]" in err and "[1/" in err  # progress lines, both runs


def test_a_dead_worker_fails_its_claim_and_the_run_goes_on():
    claims = [
        _demo("demo.first", _fine),
        _demo("demo.exit", _exit_7),
        _demo("demo.after", _fine),  # same task as demo.exit: runs in a fresh worker
        _demo("other.killed", _sigkill),
        _demo("other.after", _fine),
        _demo("third.fine", _fine),
    ]
    outcomes = verify_runner.run(claims, jobs=2)
    assert [o.theorem.id for o in outcomes] == [t.id for t in claims]
    status = {o.theorem.id: o.verdict for o in outcomes}
    assert status["demo.exit"].status == "failed"
    assert "worker process died" in status["demo.exit"].detail
    assert "exit code 7" in status["demo.exit"].detail
    assert status["other.killed"].status == "failed"
    assert "SIGKILL" in status["other.killed"].detail
    for ok in ("demo.first", "demo.after", "other.after", "third.fine"):
        assert status[ok].status == "confirmed", status[ok].detail


def test_cli_reports_a_worker_crash_as_a_failed_claim(monkeypatch, capsys):
    claims = [_demo("demo.exit", _exit_7), _demo("other.fine", _fine)]
    monkeypatch.setattr(theorems, "select", lambda pattern: claims)
    assert cli.main(["verify", "--jobs", "2"]) == 1
    out = capsys.readouterr().out
    assert "FAILED demo.exit: the worker process died" in out
    assert "1 confirmed, 1 failed" in out


def test_unpicklable_claims_run_in_this_process():
    # closures cannot reach a worker: they are checked here, in order, and no worker starts
    ran: list[int] = []
    claims = [_demo(f"m{k}.closure", lambda k=k: ran.append(k) or _fine()) for k in range(3)]
    outcomes = verify_runner.run(claims, jobs=2)
    assert ran == [0, 1, 2]
    assert [o.verdict.status for o in outcomes] == ["confirmed"] * 3


def test_run_refuses_bad_jobs():
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match=r"jobs must be an integer >= 1, got"):
            verify_runner.run([], jobs=bad)


def test_default_jobs_and_groups():
    assert 1 <= verify_runner.default_jobs() <= verify_runner.MAX_DEFAULT_JOBS
    groups = {verify_runner.group_of(t) for t in theorems.select("three_layer.")}
    # the seed-004 confirmations share trained phase points: one task for all of them
    assert groups == {("three_layer", "symbolic"), ("three_layer", "numeric")}


# ---------------------------------------------------------------------------
# the proof cache
# ---------------------------------------------------------------------------
CLAIM = "xu_ziyin.eq_33"  # a registered symbolic claim proved in milliseconds


def test_cache_hit_skips_the_proof(tmp_path, monkeypatch):
    cache = verify_runner.ProofCache(tmp_path, digest="d" * 64)
    thm = _registered(CLAIM)
    (first,) = verify_runner.run([thm], cache=cache)
    assert not first.cached and first.verdict.status == "proved"
    assert cache.path(CLAIM).is_file()

    def not_again(self, **options):
        raise AssertionError("a cached proof must not run")

    monkeypatch.setattr(Theorem, "verify", not_again)
    (second,) = verify_runner.run([thm], cache=cache)
    assert second.cached and second.label == "proved (cached)"
    assert second.verdict.residuals == first.verdict.residuals
    assert all(r == 0 for r in second.verdict.residuals)
    assert second.verdict.detail == first.verdict.detail


def test_cli_shows_cached_proofs_in_table_progress_and_json(tmp_path, capsys):
    path = tmp_path / "v.json"
    args = ["verify", "--only", "xu_ziyin.eq_3?", "--json", str(path)]
    assert cli.main(args) == 0
    assert not any(r["cached"] for r in json.loads(path.read_text())["results"])
    capsys.readouterr()
    assert cli.main(args) == 0
    captured = capsys.readouterr()
    data = json.loads(path.read_text())
    assert all(r["cached"] and r["status"] == "proved" for r in data["results"])
    assert data["cache"] == os.environ[verify_runner.CACHE_ENV]
    assert "proved (cached)" in captured.out and "proved (cached)" in captured.err
    n = len(data["results"])
    assert f"{n} proved ({n} cached)" in captured.out


def test_numeric_and_failed_verdicts_and_stand_ins_are_never_cached(tmp_path):
    cache = verify_runner.ProofCache(tmp_path, digest="d" * 64)
    numeric = _demo("demo.numeric", _fine)
    assert not cache.put(numeric, _fine())
    symbolic = _registered(CLAIM)
    assert not cache.put(symbolic, Verdict("failed", "no", residuals=(sp.Integer(1),)))
    # a stand-in that carries a registered id (a test's fake) never writes the real entry
    fake = Theorem(CLAIM, "001_x.txt (33)", "fake", "symbolic", lambda: theorems.prove_zero(0))
    (outcome,) = verify_runner.run([fake], cache=cache)
    assert outcome.verdict.status == "proved" and not outcome.cached
    assert not cache.path(CLAIM).exists()


def test_a_source_change_invalidates_the_cache(tmp_path, monkeypatch):
    # the hashed file list replaced by copies of two package files
    src = tmp_path / "src"
    src.mkdir()
    originals = [verify_runner.__file__, theorems.__file__]
    copies = [src / os.path.basename(f) for f in originals]
    for f, c in zip(originals, copies, strict=True):
        shutil.copy(f, c)
    monkeypatch.setattr(proof_cache, "source_files", lambda: list(copies))
    thm = _registered(CLAIM)
    before = verify_runner.ProofCache(tmp_path / "cache")
    verify_runner.run([thm], cache=before)
    (hit,) = verify_runner.run([thm], cache=verify_runner.ProofCache(tmp_path / "cache"))
    assert hit.cached
    copies[1].write_text(copies[1].read_text() + "\n# an edit\n")
    after = verify_runner.ProofCache(tmp_path / "cache")
    assert after.digest != before.digest
    (miss,) = verify_runner.run([thm], cache=after)
    assert not miss.cached and miss.verdict.status == "proved"


def test_versions_are_part_of_the_digest(monkeypatch):
    files = verify_runner.source_files()
    assert any(f.name == "verify_runner.py" for f in files)
    assert any(f.parent.name == "numerics" for f in files)
    base = verify_runner.source_digest(files)
    monkeypatch.setattr(proof_cache.sp, "__version__", "0.0.test")
    assert verify_runner.source_digest(files) != base


CORRUPT = {
    "empty": b"",
    "not json": b"not json at all",
    "truncated": b'{"format": 1, "status": "pro',
    "not utf-8": b"\xff\xfe\x00garbage",
    "a list": b"[1, 2, 3]",
}


@pytest.mark.parametrize("content", list(CORRUPT.values()), ids=list(CORRUPT))
def test_a_corrupted_entry_is_ignored_and_rewritten(tmp_path, content):
    cache = verify_runner.ProofCache(tmp_path, digest="d" * 64)
    thm = _registered(CLAIM)
    cache.path(CLAIM).parent.mkdir(parents=True)
    cache.path(CLAIM).write_bytes(content)
    assert cache.get(thm) is None
    (outcome,) = verify_runner.run([thm], cache=cache)
    assert not outcome.cached and outcome.verdict.status == "proved"
    assert cache.get(thm) is not None  # rewritten
    assert [p.name for p in cache.path(CLAIM).parent.iterdir()] == [cache.path(CLAIM).name]


@pytest.mark.parametrize(
    "change",
    [
        {"key": "0" * 64},  # another digest's entry copied over
        {"id": "xu_ziyin.eq_34"},
        {"status": "failed"},
        {"residuals": 0},
        {"residuals": "1"},
        {"seconds": None},
        {"format": 0},
    ],
    ids=lambda c: next(iter(c)),
)
def test_an_inconsistent_entry_is_a_miss(tmp_path, change):
    cache = verify_runner.ProofCache(tmp_path, digest="d" * 64)
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)
    entry = json.loads(cache.path(CLAIM).read_text())
    cache.path(CLAIM).write_text(json.dumps({**entry, **change}))
    assert cache.get(thm) is None


@settings(max_examples=60, deadline=None)
@given(content=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_in_an_entry_read_as_a_miss_or_a_proof(tmp_path_factory, content):
    cache = verify_runner.ProofCache(tmp_path_factory.mktemp("c"), digest="d" * 64)
    thm = _registered(CLAIM)
    cache.path(CLAIM).parent.mkdir(parents=True)
    cache.path(CLAIM).write_bytes(content)
    verdict = cache.get(thm)  # never raises
    assert verdict is None or (verdict.status == "proved" and verdict.residuals)


@settings(max_examples=60, deadline=None)
@given(
    entry=st.dictionaries(
        st.sampled_from(["format", "key", "id", "status", "detail", "residuals", "seconds"]),
        st.none() | st.booleans() | st.integers(-2, 3) | st.floats() | st.text(max_size=5),
    )
)
def test_any_json_object_in_an_entry_is_a_miss(tmp_path_factory, entry):
    # without the right key and id (64 hex digits of this cache), no object is a hit
    cache = verify_runner.ProofCache(tmp_path_factory.mktemp("c"), digest="d" * 64)
    thm = _registered(CLAIM)
    cache.path(CLAIM).parent.mkdir(parents=True)
    cache.path(CLAIM).write_text(json.dumps(entry))
    assert cache.get(thm) is None


def test_no_cache_neither_reads_nor_writes(tmp_path, capsys):
    folder = tmp_path / "cache"
    args = ["verify", "--only", "xu_ziyin.eq_3?"]
    assert cli.main([*args, "--no-cache"]) == 0
    assert not folder.exists()  # nothing written
    assert cli.main(args) == 0  # fills the cache
    capsys.readouterr()
    assert cli.main([*args, "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "(cached)" not in out and "0 cached" in out


def test_an_unwritable_cache_warns_and_the_run_passes(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(verify_runner.CACHE_ENV, str(blocker))
    assert cli.main(["verify", "--only", "xu_ziyin.eq_33"]) == 0
    # the path is a file: the cache is off (it cannot be a trusted directory), and says so
    err = capsys.readouterr().err
    assert "warning: proof cache off" in err and "is not a directory" in err


def test_cache_directory_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(verify_runner.CACHE_ENV, str(tmp_path / "x"))
    assert verify_runner.default_cache_dir() == tmp_path / "x"
    monkeypatch.delenv(verify_runner.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert verify_runner.default_cache_dir() == tmp_path / "xdg" / "solvable"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec: absolute only
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert verify_runner.default_cache_dir() == tmp_path / "home" / ".cache" / "solvable"
