"""The ``"observed"`` status of monitors (claims checked outside their theorem's hypotheses,
``kind="monitor"``): not counted by ``solvable verify``, reported with their reason, still
``"failed"`` on a crash or a non-finite number; never cached; in the JSON output.  And the
claim that replaces seed 000 Theorem 5.1's monitor as a check that can fail
(``global_convergence.theorem_5_1_ntg_split``), fed wrong inputs."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from solvable._core.claims import COUNTED, Theorem, Verdict
from solvable.verification import cli, theorems, verify_runner
from solvable.verification.confirmations import global_convergence as gcc

MONITORS = (
    "global_convergence.theorem_5_1_monitored",
    "global_convergence.theorem_6_1_monitored",
    "linearisation.theorem_1_monitored",
)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """The proof cache of these runs is the test's own, never the user's."""
    monkeypatch.setenv(verify_runner.CACHE_ENV, str(tmp_path / "cache"))


# module-level checks: picklable, so a worker can run them too
def _ratio_half() -> Verdict:
    return Verdict.observe(0.5, "ratio 0.5")


def _confirmed() -> Verdict:
    return Verdict("confirmed", "fine", max_error=0.0)


def _nan_ratio() -> Verdict:
    return Verdict("observed", "ratio nan", max_error=math.nan)


def _boom() -> Verdict:
    raise RuntimeError("the simulation broke")


def _monitor(claim_id: str, check, reason: str = "width condition not met") -> Theorem:
    return Theorem(claim_id, "000_x.txt (1)", "demo monitor", "monitor", check, reason)


# ---------------------------------------------------------------------------
# the records
# ---------------------------------------------------------------------------
def test_the_three_monitors_are_registered_as_monitors_with_a_reason():
    registered = {t.id: t for t in theorems.registry()}
    for claim_id in MONITORS:
        thm = registered[claim_id]
        assert thm.kind == "monitor" and ("not met" in thm.reason or "conditional" in thm.reason)
    # every monitor says why it cannot fail; nothing else carries a reason
    assert all(bool(t.reason) == (t.kind == "monitor") for t in registered.values())
    assert registered["global_convergence.theorem_5_1_ntg_split"].kind == "numeric"


def test_a_monitor_needs_a_reason_and_only_a_monitor_has_one():
    with pytest.raises(ValueError, match="reason must be a non-empty str for a monitor"):
        Theorem("demo.m", "000_x.txt (1)", "s", "monitor", _ratio_half)
    with pytest.raises(ValueError, match="empty otherwise"):
        Theorem("demo.n", "000_x.txt (1)", "s", "numeric", _confirmed, "why")
    with pytest.raises(ValueError, match="'symbolic', 'numeric' or 'monitor'"):
        Theorem("demo.k", "000_x.txt (1)", "s", "observed", _confirmed)


@pytest.mark.parametrize("field", ["id", "source", "statement"])
@pytest.mark.parametrize("bad", ["", 5, None])
def test_a_claim_needs_a_non_empty_str_id_source_and_statement(field, bad):
    """Each of ``id``, ``source`` and ``statement`` must be a non-empty str: an empty str
    (the right type) and a non-str that is truthy or not are each refused (seed-4 mutant
    claims.py:142 ``or`` -> ``and`` let both kinds through)."""
    args = {"id": "demo.s", "source": "000_x.txt (1)", "statement": "s", field: bad}
    with pytest.raises(ValueError, match=f"{field} must be a non-empty str"):
        Theorem(args["id"], args["source"], args["statement"], "numeric", _confirmed)


def test_a_monitor_is_observed_never_confirmed_and_fails_on_a_crash_or_nan():
    v = _monitor("demo.ok", _confirmed).verify()
    assert v.status == "observed" and not v.counted and v.ok
    assert v.detail.startswith("not counted (width condition not met): fine")
    assert _monitor("demo.half", _ratio_half).verify().max_error == 0.5
    crash = _monitor("demo.crash", _boom).verify()
    assert crash.status == "failed" and "RuntimeError" in crash.detail
    nan = _monitor("demo.nan", _nan_ratio).verify()
    assert nan.status == "failed" and "non-finite" in nan.detail
    assert Verdict.observe(math.inf, "x").status == "failed"
    # a counted claim must decide: "observed" from a numeric check is a failure
    wrong = Theorem("demo.num", "000_x.txt (1)", "s", "numeric", _ratio_half).verify()
    assert wrong.status == "failed" and "must decide" in wrong.detail
    assert frozenset({"proved", "confirmed"}) == COUNTED


# ---------------------------------------------------------------------------
# solvable verify: summary, exit code, JSON, cache
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_verify_summary_excludes_observed_claims(monkeypatch, capsys, tmp_path, jobs):
    claims = [
        Theorem("demo.fine", "000_x.txt (1)", "s", "numeric", _confirmed),
        _monitor("other.watch", _ratio_half),
    ]
    monkeypatch.setattr(theorems, "select", lambda pattern: claims)
    out_json = tmp_path / "v.json"
    rc = cli.main(["verify", "--jobs", jobs, "--json", str(out_json)])
    text = capsys.readouterr().out
    assert rc == 0  # observed is not a failure
    assert (
        "0 proved (0 cached), 1 confirmed, 0 failed; 1 observed (not counted: outside the "
        "theorem's hypotheses)" in text
    )
    assert "observed, not counted: other.watch: width condition not met" in text
    data = json.loads(out_json.read_text())
    assert data["counts"] == {"proved": 0, "confirmed": 1, "observed": 1, "failed": 0}
    by_id = {r["id"]: r for r in data["results"]}
    assert by_id["other.watch"]["status"] == "observed"
    assert by_id["other.watch"]["counted"] is False
    assert by_id["other.watch"]["kind"] == "monitor"
    assert by_id["other.watch"]["reason"] == "width condition not met"
    assert by_id["other.watch"]["max_error"] == 0.5
    assert by_id["demo.fine"]["counted"] is True and by_id["demo.fine"]["reason"] is None


def test_verify_exit_code_is_1_when_a_monitor_crashes(monkeypatch, capsys):
    claims = [_monitor("demo.crash", _boom), _monitor("demo.nan", _nan_ratio)]
    monkeypatch.setattr(theorems, "select", lambda pattern: claims)
    assert cli.main(["verify", "--jobs", "1"]) == 1
    text = capsys.readouterr().out
    assert "0 confirmed, 2 failed" in text and "observed" not in text.split("\n\n")[-1]


def test_summary_without_monitors_is_unchanged(monkeypatch, capsys):
    claims = [Theorem("demo.fine", "000_x.txt (1)", "s", "numeric", _confirmed)]
    monkeypatch.setattr(theorems, "select", lambda pattern: claims)
    assert cli.main(["verify", "--jobs", "1"]) == 0
    assert "0 proved (0 cached), 1 confirmed, 0 failed in " in capsys.readouterr().out


def test_monitors_share_the_numeric_task_and_are_never_cached(tmp_path):
    watch = _monitor("demo.watch", _ratio_half)
    assert verify_runner.group_of(watch) == ("demo", "numeric")
    cache = verify_runner.ProofCache(tmp_path / "c", digest="0" * 64)
    observed = watch.verify()
    assert not cache.put(watch, observed) and cache.get(watch) is None
    assert not (tmp_path / "c").exists()


def test_the_registered_monitor_is_observed_through_the_runner(tmp_path):
    # the real monitor (Theorem 6.1 along gradient descent, ~2 CPU s) through the runner
    # with a cache: observed, its reason printed, nothing stored
    thm = next(t for t in theorems.registry() if t.id == MONITORS[1])
    cache = verify_runner.ProofCache(tmp_path / "c")
    (outcome,) = verify_runner.run([thm], jobs=1, cache=cache)
    assert outcome.verdict.status == "observed", outcome.verdict.detail
    assert "width condition" in outcome.verdict.detail and "NOT met" in outcome.verdict.detail
    assert math.isfinite(outcome.verdict.max_error)
    assert not cache.path(thm.id).exists()


# ---------------------------------------------------------------------------
# Theorem 5.1's split (15): the verdict can fail
# ---------------------------------------------------------------------------
def _split_result(slope_1: float, slope_2: float, jitter: float = 0.02) -> dict:
    """A fake :func:`gcc.ntg_split_sweep` result whose per-seed slopes are ``slope_k`` plus
    a small deterministic spread (4 seeds)."""
    widths = (25, 100, 400)
    spread = jitter * np.array([-1.5, -0.5, 0.5, 1.5])
    s1, s2 = slope_1 + spread, slope_2 - spread
    move = [[float(np.exp(s * np.log(m))) for s in s1] for m in widths]
    move2 = [[float(np.exp(s * np.log(m))) for s in s2] for m in widths]
    return {"n": 4, "d": 3, "alpha": 0.5, "horizon": 4.0, "widths": list(widths),
            "seeds": [0, 1, 2, 3], "gammas": [{"gamma": 0.5, "move_1": move, "move_2": move2,
                                               "slopes_1": s1.tolist(),
                                               "slopes_2": s2.tolist()}]}  # fmt: skip


@pytest.mark.parametrize(
    ("slope_1", "slope_2", "status"),
    [(-1.0, 0.0, "confirmed"),  # what the simulation shows: Theta^(1) settles, Theta^(2) moves
     (0.0, 0.0, "failed"),  # the lazy part does not settle (e.g. lambda^(1) = lambda)
     (0.1, 0.3, "failed"),  # grows with the width
     (-1.0, -1.0, "failed"),  # the Zipf part settles too: the regimes are not told apart
     (-0.5, -0.55, "failed")],  # Theta^(2) settles faster than Theta^(1)
)  # fmt: skip
def test_ntg_split_verdict_fails_on_wrong_inputs(slope_1, slope_2, status):
    verdict = gcc.ntg_split_verdict(_split_result(slope_1, slope_2))
    assert verdict.status == status, verdict.detail
    assert verdict.max_error is not None and (verdict.max_error <= 1) == (status == "confirmed")


def test_ntg_split_verdict_fails_on_wide_intervals_and_rejects_gamma_1():
    # slopes that scatter too much to tell the parts apart fail instead of passing
    assert gcc.ntg_split_verdict(_split_result(-0.3, 0.0, jitter=0.5)).status == "failed"
    lazy = _split_result(-1.0, 0.0)
    lazy["gammas"][0]["gamma"] = 1.0
    with pytest.raises(ValueError, match="gamma < 1"):
        gcc.ntg_split_verdict(lazy)


def test_ntg_split_sweep_small_and_its_parts_add_up():
    # two widths, two seeds, a short flow: the numbers the verdict reads, the lazy part's
    # change smaller at the larger width (the mechanism, on a tiny case)
    res = gcc.ntg_split_sweep(widths=(20, 80), seeds=(0, 1), horizon=2.0, n_times=4)
    g = res["gammas"][0]
    M1, M2 = np.array(g["move_1"]), np.array(g["move_2"])
    assert M1.shape == M2.shape == (2, 2) and np.all(M1 > 0) and np.all(M2 > 0)
    assert np.all(M1[1] < M1[0])
    json.dumps(res)  # plain numbers
    with pytest.raises(ValueError, match="increasing widths"):
        gcc.ntg_split_sweep(widths=(10,))
