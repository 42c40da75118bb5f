"""``solvable verify --full --max-width M --max-seeds K`` (issue 32: "run the largest size
that fits"): :class:`numerics.scale_out.ScaleOut`'s cap validated from both sides, the
widths and seeds it keeps, the refusal when fewer than two widths remain (a slope of eq.
(11) needs two), the report's line saying the run is not the paper's scale, and every
seed-004 check that sizes its runs taking the cap (none runs the paper's scale behind
it)."""

from __future__ import annotations

import inspect
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import phase_diagram as pdg
from numerics import scale_out as so
from numerics import sweep_three_layer as stl
from solvable.verification import cli, theorems, verify_runner
from solvable.verification.confirmations import _three_layer_figure3 as fig3
from solvable.verification.confirmations import three_layer as conf

POINT = [(Fraction(0), Fraction(1))]  # the NTK point: linear, trains fast


@pytest.fixture
def cache_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv(verify_runner.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"max_width": 0}, ValueError, "max_width must be None or an int >= 1, got 0"),
        ({"max_width": True}, TypeError, "max_width must be None or an int >= 1"),
        ({"max_width": 100.0}, TypeError, "max_width must be None or an int >= 1"),
        ({"max_seeds": 2}, ValueError, "max_seeds must be None or an int >= 3, got 2"),
        ({"max_seeds": "3"}, TypeError, "max_seeds must be None or an int >= 3"),
    ],
)
def test_cap_refused(kwargs: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        so.ScaleOut(**kwargs)


def test_cap_accepted_at_its_lower_edges() -> None:
    s = so.ScaleOut(max_width=1, max_seeds=3)
    assert s.capped and (s.max_width, s.max_seeds) == (1, 3)
    assert not so.ScaleOut().capped and so.ScaleOut().describe() == ""


@settings(max_examples=60, deadline=None)
@given(cap=st.integers(1, 20000), k=st.integers(3, 12))
def test_limit_keeps_the_widths_up_to_the_cap_and_the_first_seeds(cap: int, k: int) -> None:
    s = so.ScaleOut(max_width=cap, max_seeds=k)
    kept = [m for m in pdg.FULL_WIDTHS if m <= cap]
    if len(kept) < 2:
        with pytest.raises(ValueError, match=rf"max_width = {cap} keeps {len(kept)} of the "
                           r"widths .*: max_width >= 1000"):  # fmt: skip
            s.limit(pdg.FULL_WIDTHS, pdg.FULL_SEEDS)
    else:
        ws, ss = s.limit(pdg.FULL_WIDTHS, pdg.FULL_SEEDS)
        assert ws == tuple(kept) and ss == pdg.FULL_SEEDS[:k]
    # one width is enough where the check says so
    ws, _ = s.limit(pdg.FULL_WIDTHS, pdg.FULL_SEEDS, min_widths=1) if cap >= 100 else ((), ())
    assert ws == tuple(kept)
    text = s.describe()
    assert f"widths <= {cap}" in text and f"the first {k} seeds" in text
    assert "not the paper's scale" in text


def test_limit_with_one_cap_only_and_bad_widths() -> None:
    assert so.ScaleOut(max_seeds=3).limit((8, 16), (4, 5, 6, 7)) == ((8, 16), (4, 5, 6))
    assert so.ScaleOut(max_width=16).limit((8, 16, 32), (0,)) == ((8, 16), (0,))
    assert so.ScaleOut(max_width=16).describe().startswith("capped (--max-width/--max-seeds)")
    with pytest.raises(TypeError, match="widths must be a sequence of integers"):
        so.ScaleOut(max_width=16).limit(16, (0,))
    with pytest.raises(ValueError, match="seeds must hold integers >= 0"):
        so.ScaleOut(max_seeds=3).limit((8, 16), (-1, 0))


def test_measure_points_trains_only_the_capped_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cap reaches the runs: widths (8, 16, 32) capped at 16 and seeds (0, 1, 2, 3) at
    three train 6 runs, and the point's widths and seeds are the kept ones."""
    monkeypatch.setitem(stl.DEFAULT_SETTINGS, "max_steps", 50)  # plumbing, not measurement
    trained: list[int] = []
    real = so.rd_points
    monkeypatch.setattr(so, "rd_points", lambda grid, **kw: trained.append(len(grid))
                        or real(grid, **kw))  # fmt: skip
    s = so.ScaleOut(device="cpu", cache_dir=str(tmp_path), max_width=16, max_seeds=3)
    (p,) = so.measure_points(POINT, (8, 16, 32), (0, 1, 2, 3), scale_out=s)
    assert (p.widths, p.seeds, sum(trained)) == ((8, 16), (0, 1, 2), 6)
    with pytest.raises(ValueError, match="max_width = 8 keeps 1 of the widths"):
        so.measure_points(POINT, (8, 16, 32), (0, 1), scale_out=so.ScaleOut(max_width=8))


@pytest.mark.parametrize("bad", ["0", "-5", "1e3", "x", "", "1.5"])
def test_cli_max_width_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["verify", "--full", "--max-width", bad])
    assert info.value.code == 2
    assert "--max-width must be an integer >= 1" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["2", "1", "0", "two"])
def test_cli_max_seeds_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["figures", "--list", "--full", "--max-seeds", bad])
    assert info.value.code == 2
    assert "--max-seeds must be an integer >= 3" in capsys.readouterr().err


@pytest.mark.parametrize("flag", [["--max-width", "1000"], ["--max-seeds", "3"]])
@pytest.mark.parametrize("command", ["verify", "figures"])
def test_cli_cap_needs_full(command: str, flag: list[str],
                            capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    argv = [command, *flag] + (["--list"] if command == "figures" else [])
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    assert f"{flag[0]}: only with --full" in capsys.readouterr().err


def test_cli_cap_reaches_the_checks_and_is_reported(
    cache_root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[dict] = []
    monkeypatch.setattr(verify_runner, "run", lambda sel, options, **kw: seen.append(options)
                        or [])  # fmt: skip
    cli.main(["verify", "--full", "--only", "three_layer.rescaling", "--max-width", "1000",
              "--max-seeds", "3", "--device", "cpu"])  # fmt: skip
    assert seen[0]["scale_out"] == so.ScaleOut(device="cpu", cache_dir=str(cache_root / "sweeps"),
                                               max_width=1000, max_seeds=3)  # fmt: skip
    err = capsys.readouterr().err
    assert "widths <= 1000 and the first 3 seeds; not the paper's scale" in err
    cli.main(["verify", "--full", "--only", "three_layer.rescaling", "--device", "cpu"])
    assert seen[1]["scale_out"].capped is False
    assert "capped" not in capsys.readouterr().err


def test_every_sized_seed_004_check_takes_the_cap() -> None:
    """A seed-004 simulation whose check has no ``scale_out`` parameter would run the
    paper's scale behind ``--max-width``: every numeric three_layer claim takes it, except
    the normalised-flow check (m = 16 in every mode) and, for now, the two claims of
    their own data and widths that do not go through the shared sweep (Figure 6 on the
    digits, Figure 2's learned functions): under ``--full`` they run their own sizes
    whatever the cap (docs/paper_scale.md says so)."""
    numeric = [t for t in theorems.registry() if t.id.startswith("three_layer.")
               and t.kind == "numeric"]  # fmt: skip
    assert len(numeric) >= 11
    without = [t.id for t in numeric
               if "scale_out" not in inspect.signature(t._verify).parameters]  # fmt: skip
    assert sorted(without) == [
        "three_layer.figure_2_functions",
        "three_layer.figure_6_digits",
        "three_layer.normalised_flow_integrated",
    ]


def test_figure_3_under_a_cap_takes_the_two_largest_widths_that_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Figure 3's full widths (1000, 2500) under ``--max-width 1000`` would leave one: it
    takes the two largest of the paper's widths that fit, (100, 1000), and the first
    ``max_seeds`` seeds."""
    seen: list[tuple] = []

    def fake(points, widths, seeds, **kw):
        seen.append((tuple(widths), tuple(seeds)))
        raise RuntimeError("stop")

    monkeypatch.setattr(so, "measure_points", fake)
    s = so.ScaleOut(device="cpu", max_width=1000, max_seeds=3)
    with pytest.raises(RuntimeError, match="stop"):
        fig3._measure.__wrapped__(True, s)
    with pytest.raises(RuntimeError, match="stop"):
        fig3._measure.__wrapped__(True, so.ScaleOut(device="cpu"))
    assert seen == [((100, 1000), (0, 1, 2)), (fig3.WIDTHS_FULL, fig3.SEEDS_FULL)]


def test_condensation_seeds_follow_the_cap() -> None:
    s = so.ScaleOut(max_width=1000, max_seeds=3)
    assert conf._cond(True, s) == (conf.COND_WIDTH_FULL, conf.COND_SEEDS_FULL[:3])
    assert conf._cond(True, None) == (conf.COND_WIDTH_FULL, conf.COND_SEEDS_FULL)
    assert conf._cond(False, so.ScaleOut()) == (conf.COND_WIDTH, conf.COND_SEEDS)


def test_figure_3_widths_under_a_cap_takes_every_width_that_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple] = []

    def fake(points, widths, seeds, **kw):
        seen.append((tuple(widths), tuple(seeds)))
        raise RuntimeError("stop")

    monkeypatch.setattr(so, "measure_points", fake)
    for s in (so.ScaleOut(device="cpu", max_width=2500, max_seeds=3), so.ScaleOut()):
        with pytest.raises(RuntimeError, match="stop"):
            fig3._measure.__wrapped__(True, s, trend=True)
    assert seen == [((100, 1000, 2500), (0, 1, 2)), (pdg.FULL_WIDTHS, fig3.SEEDS_FULL)]
