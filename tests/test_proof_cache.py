"""The proof cache as a trust boundary (:mod:`solvable.verification.proof_cache`, issue 28).

Each test is an attack by someone who can write the cache directory but does not hold the
user's secret, or a file that is not what it seems: a forged entry (the key is public),
an entry signed with another secret, an entry or folder of another user, folders others
may write, a FIFO (a hang before), a symlink to ``/dev/zero`` (memory before), a huge file.
Each must be a miss (the claim is proved again) or a cache turned off with a warning; never
a ``proved (cached)`` that no proof produced.  The tests run as whatever user runs pytest;
"another user" is simulated by making ``os.geteuid`` report a different uid.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pathlib
import signal
import stat
import time

import pytest
from fuzz_harness import BUDGET_S, budget

from solvable._core.claims import Theorem, Verdict
from solvable.verification import cli, proof_cache, theorems, verify_runner

CLAIM = "xu_ziyin.eq_34"  # a symbolic claim proved in well under a second


def _registered(claim_id: str) -> Theorem:
    return next(t for t in theorems.registry() if t.id == claim_id)


@pytest.fixture
def cache(tmp_path):
    """A cache and a secret of their own, in the test's private tmp_path."""
    return proof_cache.ProofCache(tmp_path / "cache", digest="d" * 64,
                                  key_file=tmp_path / "config" / "proof-cache.key")  # fmt: skip


def _forged(c: proof_cache.ProofCache, claim_id: str, secret: bytes | None) -> dict:
    """A well-formed entry for ``claim_id``, with an HMAC under ``secret`` (or none)."""
    fields = {"format": proof_cache._FORMAT, "key": c.key(claim_id), "id": claim_id,
              "status": "proved", "detail": "forged", "residuals": 1, "seconds": 0.5,
              "created": "2026-01-01T00:00:00+0000"}  # fmt: skip
    if secret is not None:
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        fields["mac"] = hmac.new(secret, text.encode("ascii"), hashlib.sha256).hexdigest()
    return fields


def _write_entry(c: proof_cache.ProofCache, claim_id: str, entry: dict) -> None:
    c.path(claim_id).parent.mkdir(parents=True, exist_ok=True)
    c.path(claim_id).write_text(json.dumps(entry))


# ---------------------------------------------------------------------------
# forgery
# ---------------------------------------------------------------------------
def test_a_proof_round_trips_and_the_secret_is_private(cache):
    thm = _registered(CLAIM)
    (first,) = verify_runner.run([thm], cache=cache)
    assert not first.cached and cache.get(thm) is not None
    (second,) = verify_runner.run([thm], cache=cache)
    assert second.cached and second.label == "proved (cached)"
    key = os.stat(cache.key_file)
    assert stat.S_IMODE(key.st_mode) == 0o600 and len(cache.key_file.read_text()) == 64
    assert stat.S_IMODE(os.stat(cache.key_file.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(cache.directory).st_mode) == 0o700
    # a second cache object (another run) reads the same secret: still a hit
    again = proof_cache.ProofCache(cache.directory, cache.digest, cache.key_file)
    assert again.get(thm) is not None


@pytest.mark.parametrize("secret", [None, b"guessed secret", b"\0" * 32],
                         ids=["no mac", "another secret", "zero secret"])  # fmt: skip
def test_a_forged_entry_is_a_miss_and_the_claim_is_proved(cache, secret):
    """The attack that worked on main: the entry's file name is a public hash, so anyone
    who can write the folder wrote a well-formed "proved" entry; now without the user's
    secret its HMAC cannot be made."""
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)  # the secret exists; the forger lacks it
    _write_entry(cache, CLAIM, _forged(cache, CLAIM, secret))
    assert cache.get(thm) is None
    (outcome,) = verify_runner.run([thm], cache=cache)  # proved again, and rewritten
    assert not outcome.cached and outcome.verdict.status == "proved"
    assert "forged" not in outcome.verdict.detail and "forged" not in cache.get(thm).detail


def test_an_entry_signed_with_the_users_secret_is_a_hit(cache):
    # the converse of the forgery test: the same entry with the right HMAC is accepted,
    # so the misses above are the HMAC's doing
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)  # makes the secret
    secret = bytes.fromhex(cache.key_file.read_text())
    _write_entry(cache, CLAIM, _forged(cache, CLAIM, secret))
    hit = cache.get(thm)
    assert hit is not None and hit.detail == "forged"


@pytest.mark.parametrize("cut", [0, 1, 32, 63], ids=lambda n: f"first {n} of 64 hex digits")
def test_a_prefix_of_the_true_mac_is_a_miss(cache, cut):
    """Only the whole HMAC is accepted: the empty string, or any prefix of the true MAC (what
    a truncating comparison would take), is a forgery.  The whole MAC is accepted (the test
    above), so these misses are the comparison's doing."""
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)  # makes the secret
    secret = bytes.fromhex(cache.key_file.read_text())
    entry = _forged(cache, CLAIM, secret)
    assert len(entry["mac"]) == 64
    entry["mac"] = entry["mac"][:cut]
    _write_entry(cache, CLAIM, entry)
    assert cache.get(thm) is None


@pytest.mark.parametrize("change", [{"key": "0" * 64}, {"id": "xu_ziyin.eq_35"},
                                    {"status": "failed"}, {"residuals": 0},
                                    {"residuals": True}, {"seconds": 1}, {"format": 1}],
                         ids=lambda c: f"{next(iter(c))}={next(iter(c.values()))}")  # fmt: skip
def test_an_inconsistent_entry_is_a_miss_even_with_a_valid_mac(cache, change):
    """The field checks hold on their own: an entry signed with the user's secret (a bug
    of an older version, or a copy from another claim) but inconsistent is a miss."""
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)  # makes the secret
    secret = bytes.fromhex(cache.key_file.read_text())
    fields = {k: v for k, v in _forged(cache, CLAIM, None).items()}
    fields.update(change)
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    fields["mac"] = hmac.new(secret, text.encode("ascii"), hashlib.sha256).hexdigest()
    _write_entry(cache, CLAIM, fields)
    assert cache.get(thm) is None


def test_entries_of_another_user_are_misses(cache, monkeypatch):
    """An entry (and folder) that is not this user's is never read: simulated by this
    process claiming another uid after the entry was written by the real one."""
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)
    assert cache.get(thm) is not None
    other = os.geteuid() + 1
    monkeypatch.setattr(os, "geteuid", lambda: other)
    fresh = proof_cache.ProofCache(cache.directory, cache.digest, cache.key_file)
    assert fresh.get(thm) is None
    assert fresh.disabled is not None and "belongs to uid" in fresh.disabled


# ---------------------------------------------------------------------------
# folders and secrets that cannot be trusted: the cache is off, with the reason
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("which", ["cache", "proofs", "secret folder"])
def test_a_folder_writable_by_others_turns_the_cache_off(cache, which):
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)
    folder = {"cache": cache.directory, "proofs": cache.directory / "proofs",
              "secret folder": cache.key_file.parent}[which]  # fmt: skip
    os.chmod(folder, 0o777)
    fresh = proof_cache.ProofCache(cache.directory, cache.digest, cache.key_file)
    assert fresh.get(thm) is None and not fresh.put(thm, verify_runner.run([thm])[0].verdict)
    assert "writable by group or others" in fresh.disabled and "chmod go-w" in fresh.disabled


@pytest.mark.parametrize("attack", ["world-readable", "symlink", "short", "not hex", "fifo"])
def test_an_untrusted_secret_turns_the_cache_off(cache, tmp_path, attack):
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)
    key = cache.key_file
    if attack == "world-readable":
        os.chmod(key, 0o644)  # others could read it and sign entries
    elif attack == "symlink":  # someone else's file put in its place
        target = tmp_path / "elsewhere"
        target.write_text(key.read_text())
        os.chmod(target, 0o600)
        key.unlink()
        key.symlink_to(target)
    elif attack == "short":
        key.write_text("abc")
    elif attack == "not hex":
        key.write_text("z" * 64)
    else:
        key.unlink()
        os.mkfifo(key, 0o600)
    fresh = proof_cache.ProofCache(cache.directory, cache.digest, cache.key_file)
    with budget(BUDGET_S):  # a hang guard, not a speed test: a FIFO hung verify on main
        assert fresh.get(thm) is None
    assert fresh.disabled is not None and str(key) in fresh.disabled


def test_cli_warns_and_proves_everything_when_the_cache_is_untrusted(tmp_path, monkeypatch,
                                                                      capsys):  # fmt: skip
    folder = tmp_path / "shared-cache"
    folder.mkdir()
    os.chmod(folder, 0o777)
    monkeypatch.setenv(proof_cache.CACHE_ENV, str(folder))
    assert cli.main(["verify", "--only", "xu_ziyin.eq_3?", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "warning: proof cache off" in captured.err and "(cached)" not in captured.out
    assert not (folder / "proofs").exists()  # nothing written into it either


# ---------------------------------------------------------------------------
# files that are not entries: misses, at once, in bounded memory
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["fifo", "symlink to /dev/zero", "huge", "directory"])
def test_an_entry_that_is_no_regular_small_file_is_a_quick_miss(cache, kind):
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)
    path = cache.path(CLAIM)
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "huge":  # a sparse file far over the cap: never read into memory
        with open(path, "wb") as fh:
            fh.truncate(10**12)
    else:
        path.mkdir()
    with budget(BUDGET_S):  # a hang guard (a FIFO blocks, /dev/zero never ends), no clock
        assert cache.get(thm) is None
    assert cache.disabled is None  # a bad entry is a miss, not a reason to turn it off


def test_the_entry_cap_is_inclusive(cache, monkeypatch):
    # both sides of MAX_ENTRY_BYTES: a valid entry padded to exactly the cap is read, one
    # byte more is not
    thm = _registered(CLAIM)
    verify_runner.run([thm], cache=cache)  # makes the secret
    secret = bytes.fromhex(cache.key_file.read_text())
    text = json.dumps(_forged(cache, CLAIM, secret))
    _write_entry(cache, CLAIM, {})
    monkeypatch.setattr(proof_cache, "MAX_ENTRY_BYTES", len(text) + 10)
    cache.path(CLAIM).write_text(text + " " * 10)
    assert cache.get(thm) is not None
    cache.path(CLAIM).write_text(text + " " * 11)
    assert cache.get(thm) is None


# ---------------------------------------------------------------------------
# Ctrl-C: the finished claims are reported, exit 130
# ---------------------------------------------------------------------------
def _fine() -> Verdict:
    return Verdict("confirmed", "fine", max_error=0.0)


def _interrupt() -> Verdict:
    raise KeyboardInterrupt


def _interrupt_parent() -> Verdict:
    # in a worker (which ignores SIGINT): Ctrl-C reaches the parent, waiting on the pool;
    # a worker that is awaited instead of killed finishes and leaves its mark
    os.kill(os.getppid(), signal.SIGINT)
    time.sleep(30)
    mark = os.environ.get("SOLVABLE_TEST_FINISHED_MARK")
    if mark:
        pathlib.Path(mark).write_text("finished", encoding="utf-8")
    return Verdict("confirmed", "too late", max_error=0.0)


def _demo(claim_id: str, check) -> Theorem:
    return Theorem(claim_id, "000_x.txt (1)", "demo", "numeric", check)


def test_run_interrupted_in_process_keeps_the_finished_outcomes():
    claims = [_demo("a.one", _fine), _demo("a.two", _interrupt), _demo("a.three", _fine)]
    with pytest.raises(verify_runner.Interrupted) as info:
        verify_runner.run(claims, jobs=1)
    assert [o.theorem.id for o in info.value.outcomes] == ["a.one"]
    assert isinstance(info.value, KeyboardInterrupt)


def test_run_interrupted_with_workers_kills_them_and_keeps_the_finished(tmp_path, monkeypatch):
    mark = tmp_path / "finished"
    monkeypatch.setenv("SOLVABLE_TEST_FINISHED_MARK", str(mark))  # the workers inherit it
    claims = [_demo("a.one", _fine), _demo("b.two", _interrupt_parent)]
    # Python's own Ctrl-C handler, whatever this process inherited: a process started in the
    # background by a non-interactive shell (`pytest ... &`) ignores SIGINT from the start,
    # and the test then saw no interruption at all
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(verify_runner.Interrupted) as info:
            verify_runner.run(claims, jobs=2)
    finally:
        signal.signal(signal.SIGINT, old)
    # the worker sleeping 30 s was killed, not awaited: it never reached its mark (no clock
    # read: a loaded machine makes every duration longer, never a killed worker finish)
    assert not mark.exists()
    assert {o.theorem.id for o in info.value.outcomes} <= {"a.one"}


def test_cli_on_ctrl_c_prints_interrupted_and_the_finished_table(monkeypatch, capsys):
    real = verify_runner.run

    def interrupted(claims, *args, **kwargs):
        first = real(claims[:1], *args, **kwargs)
        raise verify_runner.Interrupted(first)

    monkeypatch.setattr(verify_runner, "run", interrupted)
    code = cli.main(["verify", "--only", "xu_ziyin.eq_3?", "--jobs", "1", "--no-cache"])
    captured = capsys.readouterr()
    assert code == 130
    assert "interrupted: 1 of" in captured.err and captured.out.rstrip().endswith("interrupted")
    assert "xu_ziyin.eq_3" in captured.out and "1 proved" in captured.out
