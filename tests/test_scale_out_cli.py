"""``solvable verify --full`` / ``solvable figures --full`` scaled out (issue 32 item 1):
``--executor`` and ``--device`` validated from both sides, the :class:`ScaleOut` passed down
to the checks that run sweeps, a dask cluster giving the in-process numbers, an interrupted
sweep resuming from the point cache, the progress bar, CUDA refused on a CPU-only machine,
and (``-m gpu``) a tiny sweep on CUDA."""

from __future__ import annotations

import pickle
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from numerics import phase_diagram as pdg
from numerics import scale_out as so
from numerics import sweep_three_layer as stl
from numerics import sweeps
from solvable._core.claims import Theorem, Verdict
from solvable.verification import cli, figures, theorems, verify_runner
from solvable.verification.confirmations import _three_layer_plane as plane
from solvable.verification.confirmations import three_layer as conf

# the plane claims' grid shrunk to the NTK point (already a shared key): the tests that run
# the shared batch through the cache check the plumbing, and the grid's runs would only
# add time (by run_sweep, one by one)
ONE_POINT_GRID = ((Fraction(0),), (Fraction(1),))

POINTS = [
    (Fraction(0), Fraction(1)),
    (Fraction(1, 2), Fraction(14, 5)),
]  # linear and condensed (three_layer's)
WIDTHS, SEEDS = (8, 16), (0, 1)  # 8 runs, ~1 CPU s in process
SYMBOLIC = "three_layer.rescaling"  # a claim that takes no scale_out (symbolic)


@pytest.fixture
def no_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without CUDA, whatever this one has."""
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


@pytest.fixture
def cache_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The proof cache (and so ``sweeps/``) in a temporary folder."""
    monkeypatch.setenv(verify_runner.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def _exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    return capsys.readouterr().err


# ---------------------------------------------------------------------------
# argparse: both sides
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("port, ok", [("0", False), ("1", True), ("65535", True),
                                      ("65536", False)])  # fmt: skip
def test_executor_port_range_from_both_sides(port: str, ok: bool) -> None:
    # checked before anything connects: a refused port never reaches dask (an accepted
    # port 0 would make the CLI try to connect, and wait)
    if ok:
        assert so.check_executor(f"tcp://host:{port}") == f"tcp://host:{port}"
    else:
        with pytest.raises(ValueError, match="dask scheduler address"):
            so.check_executor(f"tcp://host:{port}")


@pytest.mark.parametrize("command", ["verify", "figures"])
@pytest.mark.parametrize("bad", ["", "lokal", "tcp://host", "host:0", "tcp://host:99999", "8786"])
def test_executor_refused(command: str, bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = ["--out", "x"] * (command == "figures")
    err = _exit_2([command, "--full", "--executor", bad, *out], capsys)
    assert "--executor must be 'local'" in err and "tcp://host:8786" in err


@pytest.mark.parametrize("good", ["local", "tcp://127.0.0.1:8786", "tls://scheduler:8786",
                                  "scheduler.example.org:8786"])  # fmt: skip
def test_executor_accepted(good: str) -> None:
    assert cli._executor(good) == good
    assert so.ScaleOut(executor=good).executor == good


@pytest.mark.parametrize("bad", ["", "gpu", "CUDA", "cuda:", "cuda:-1", "cuda:01", "cpu:0", "mps"])
def test_device_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = _exit_2(["verify", "--full", "--device", bad], capsys)
    assert "--device must be 'cpu', 'cuda' or 'cuda:k'" in err and repr(bad) in err


@pytest.mark.parametrize("device", ["cuda", "cuda:0", "cuda:3"])
def test_cuda_refused_without_cuda(device: str, no_cuda: None,
                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    err = _exit_2(["verify", "--full", "--device", device], capsys)
    assert f"--device {device!r}" in err and "sees no CUDA device" in err and "'cpu'" in err
    with pytest.raises(ValueError, match="sees no CUDA device"):
        so.ScaleOut(device=device)
    with pytest.raises(ValueError, match="sees no CUDA device"):
        verify_runner.scale_out(device=device)


def test_cpu_accepted() -> None:
    assert cli._device("cpu") == "cpu"
    assert so.check_device(None) is None


@pytest.mark.parametrize("flags", [["--executor", "local"], ["--device", "cpu"], ["--progress"]])
@pytest.mark.parametrize("command", ["verify", "figures"])
def test_scale_out_flags_need_full(command: str, flags: list[str],
                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    err = _exit_2([command, *flags, *(["--out", "x"] * (command == "figures"))], capsys)
    assert "only with --full" in err and flags[0] in err


def test_valid_flags_run(cache_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The other side: valid flags with --full run (a symbolic claim takes no scale_out, so
    nothing is started or connected), and figures --list takes them too."""
    argv = ["verify", "--full", "--only", SYMBOLIC, "--jobs", "1", "--executor",
            "tcp://127.0.0.1:9", "--device", "cpu", "--progress"]  # fmt: skip
    assert cli.main(argv) == 0
    assert "1 proved" in capsys.readouterr().out
    assert cli.main(["figures", "--list", "--full", "--executor", "local", "--device", "cpu",
                     "--only", "004-fig5"]) == 0  # fmt: skip


def test_options_reach_the_checks(cache_root: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """cli._verify passes the ScaleOut of the flags to verify_runner.run as the
    ``scale_out`` option, only under --full; --no-cache drops the point cache."""
    seen: list[dict] = []

    def run(selected, options, **kw):
        seen.append(dict(options))
        return []

    monkeypatch.setattr(verify_runner, "run", run)
    cli.main(["verify", "--only", SYMBOLIC])
    cli.main(["verify", "--full", "--only", SYMBOLIC, "--executor", "local", "--device", "cpu"])
    cli.main(["verify", "--full", "--only", SYMBOLIC, "--no-cache", "--progress"])
    capsys.readouterr()
    assert "scale_out" not in seen[0]
    assert seen[1]["scale_out"] == so.ScaleOut(
        executor="local", device="cpu", cache_dir=str(cache_root / "sweeps"), progress=False
    )
    assert seen[2]["scale_out"] == so.ScaleOut(cache_dir=None, progress=True)


def _probe(full: bool = False, scale_out: so.ScaleOut | None = None) -> Verdict:
    """A check that reports the ScaleOut it got (module level: picklable for --jobs)."""
    return Verdict("confirmed", repr(scale_out), max_error=0.0)


def _plain(full: bool = False) -> Verdict:
    return Verdict("confirmed", "no scale_out parameter", max_error=0.0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_scale_out_reaches_a_check(jobs: int) -> None:
    """Through Theorem.verify (in this process and in a spawned worker): a check with a
    ``scale_out`` parameter gets it, one without is not passed it."""
    probe = Theorem("test.probe", "000_x eq. (1)", "probe", "numeric", _probe)
    plain = Theorem("test.plain", "000_x eq. (1)", "plain", "numeric", _plain)
    s = so.ScaleOut(executor="tcp://127.0.0.1:9", device="cpu", cache_dir="/tmp/x", progress=True)
    assert pickle.loads(pickle.dumps(s)) == s and hash(s) == hash(pickle.loads(pickle.dumps(s)))
    out = verify_runner.run([probe, plain], {"full": True, "scale_out": s}, jobs=jobs)
    assert [o.verdict.status for o in out] == ["confirmed", "confirmed"]
    assert out[0].verdict.detail == repr(s)
    with pytest.raises(TypeError, match=r"scale_out must be None or a numerics\.scale_out"):
        probe.verify(scale_out="local")


# ---------------------------------------------------------------------------
# the sweep: same numbers in process, batched, cached, on dask
# ---------------------------------------------------------------------------
def _rd(points: list[pdg.PhasePoint]) -> list[np.ndarray]:
    return [np.stack([p.rd["W1"], p.rd["W2"]]) for p in points]


@pytest.fixture(scope="module")
def reference() -> list[pdg.PhasePoint]:
    """The measurement in process, batched, no cache (numerics.phase_diagram's own path)."""
    return pdg.measure_points(POINTS, WIDTHS, SEEDS, device="cpu")


def test_executor_local_gives_the_in_process_numbers(
    reference: list[pdg.PhasePoint], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--executor local`` (its LocalCluster held to 2 workers: one per core, the cores
    set to 2): the same RDs as in process, bit for bit on the CPU (each run alone on a
    worker vs batched here: tested equal in tests/test_sweep_three_layer.py), the cache
    filled, and a rerun in process trains none of them (the two paths share keys).  A
    scheduler address goes through the same ``run_sweep`` (tested in tests/test_sweeps.py
    with a cluster's ``scheduler_address``)."""
    monkeypatch.setattr(sweeps.os, "cpu_count", lambda: 2)
    s = so.ScaleOut(executor="local", device="cpu", cache_dir=str(tmp_path))
    got = so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=s)
    for a, b in zip(_rd(got), _rd(reference), strict=True):
        np.testing.assert_array_equal(a, b)
    assert len(list(tmp_path.rglob("*.json"))) == len(POINTS) * len(WIDTHS) * len(SEEDS)
    trained: list[int] = []
    real = so.rd_points
    monkeypatch.setattr(so, "rd_points", lambda grid, **kw: trained.append(len(grid))
                        or real(grid, **kw))  # fmt: skip
    in_process = so.ScaleOut(device="cpu", cache_dir=str(tmp_path))
    again = so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=in_process)
    assert trained == []
    for a, b in zip(_rd(again), _rd(reference), strict=True):
        np.testing.assert_array_equal(a, b)


def test_interrupt_and_resume(reference: list[pdg.PhasePoint], tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Interrupted after its first chunk, a rerun trains only the rest, a third run
    trains nothing; every run gives the reference numbers."""
    trained: list[int] = []
    real = so.rd_points

    def counting(grid, **kw):
        if stop and trained:
            raise KeyboardInterrupt
        trained.append(len(grid))
        return real(grid, **kw)

    monkeypatch.setattr(so, "rd_points", counting)
    s = so.ScaleOut(device="cpu", cache_dir=str(tmp_path))
    stop = True
    with pytest.raises(KeyboardInterrupt):
        so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=s, chunk=3)
    assert trained == [3]
    stop = False
    got = so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=s, chunk=3)
    assert sum(trained) == 8 and trained[1:] == [3, 2]
    again = so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=s, chunk=3)
    assert sum(trained) == 8  # nothing trained
    for run in (got, again):
        for a, b in zip(_rd(run), _rd(reference), strict=True):
            np.testing.assert_array_equal(a, b)


def test_no_cache_trains_every_time(reference: list[pdg.PhasePoint],
                                    monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    trained: list[int] = []
    real = so.rd_points
    monkeypatch.setattr(so, "rd_points", lambda grid, **kw: trained.append(len(grid))
                        or real(grid, **kw))  # fmt: skip
    for _ in range(2):
        got = so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=so.ScaleOut(device="cpu"))
    assert trained == [8, 8]
    for a, b in zip(_rd(got), _rd(reference), strict=True):
        np.testing.assert_array_equal(a, b)


def test_extra_runs_trained_again(tmp_path: Path) -> None:
    """``extra`` under a cache: the selected runs get it (trained again in process, even
    when cached), the others ``None``; the cache holds no extra."""

    s = so.ScaleOut(device="cpu", cache_dir=str(tmp_path))
    so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=s)  # fills the cache
    got = so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=s, extra={"m_again": _m},
                            extra_runs=_first_seed)  # fmt: skip
    for p in got:
        for r in p.results:
            assert r["m_again"] == (r["m"] if r["seed"] == 0 else None)
    for path in tmp_path.rglob("*.json"):
        assert "m_again" not in path.read_text()


def _m(run: dict) -> int:
    return run["m"]


def _first_seed(point: dict) -> bool:
    return point["seed"] == 0


def test_progress_bar(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A tqdm bar on stderr: runs done of the total, and the time left."""
    s = so.ScaleOut(device="cpu", cache_dir=str(tmp_path), progress=True)
    so.measure_points(POINTS[:1], WIDTHS, SEEDS, scale_out=s, chunk=2)
    err = capsys.readouterr().err
    assert "4/4" in err and "run" in err and "<" in err  # "elapsed<left"
    so.measure_points(POINTS[:1], WIDTHS, SEEDS, scale_out=so.ScaleOut(device="cpu"))
    assert capsys.readouterr().err == ""  # no bar unless asked


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"scale_out": "local"}, TypeError, "scale_out must be a numerics.scale_out.ScaleOut"),
        ({"chunk": 0}, ValueError, "chunk must be an integer >= 1"),
        ({"chunk": True}, ValueError, "chunk must be an integer >= 1"),
        ({"extra": {"a": 1}}, TypeError, "extra must be a mapping of name -> callable"),
        ({"extra_runs": 3}, TypeError, "extra_runs must be a callable"),
    ],
)
def test_measure_points_refuses(kwargs: dict, error: type, match: str) -> None:
    args = {"scale_out": so.ScaleOut(device="cpu"), **kwargs}
    with pytest.raises(error, match=match):
        so.measure_points(POINTS, WIDTHS, SEEDS, **args)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"executor": 3}, TypeError, "executor must be None, 'local'"),
        ({"device": 0}, TypeError, "device must be None, 'cpu'"),
        ({"cache_dir": ""}, TypeError, "cache_dir must be None or a non-empty path"),
        ({"cache_dir": __file__}, ValueError, "cache_dir must be a directory"),
        ({"progress": 1}, TypeError, "progress must be a bool"),
    ],
)
def test_scale_out_refuses(kwargs: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        so.ScaleOut(**kwargs)


def test_three_layer_claims_through_the_cache(cache_root: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The seed-004 confirmations (fast sizes) given a ScaleOut: the same verdicts as
    without, every run cached, and the condensation claim (``extra``: weights) still
    measured.  The plane grid is shrunk to a shared point (``ONE_POINT_GRID``: its runs
    would only add time); the process cache of the shared batch is cleared afterwards, so
    that no later test reads a batch measured without the grid."""
    monkeypatch.setattr(plane, "GRID_FAST", ONE_POINT_GRID)
    s = verify_runner.scale_out(device="cpu")
    ids = ("three_layer.ntk_linear", "three_layer.condensation_w2")
    try:
        for thm in (t for t in theorems.registry() if t.id in ids):
            plain, scaled = thm.verify(), thm.verify(scale_out=s)
            assert scaled.status == plain.status == "confirmed", scaled.detail
            assert scaled.max_error == plain.max_error
    finally:
        conf._measured.cache_clear()
    assert len(list((cache_root / "sweeps").rglob("*.json"))) > 100


@pytest.mark.gpu
def test_tiny_sweep_on_cuda(reference: list[pdg.PhasePoint], tmp_path: Path) -> None:
    """``--device cuda``: the runs train on the GPU (batched), are cached, and agree with
    the CPU's.  Tolerance: the same float64 descent in another reduction order; RD is a
    ratio of norms after ~10^3 steps of a contracting map, so roundoff of ~1e-16 per step
    stays far below 1e-9 (relative)."""
    assert cli.main(["figures", "--list", "--full", "--device", "cuda"]) == 0
    s = so.ScaleOut(device="cuda", cache_dir=str(tmp_path))
    got = so.measure_points(POINTS, WIDTHS, SEEDS, scale_out=s)
    assert all(r["device"].startswith("cuda") for p in got for r in p.results)
    for a, b in zip(_rd(got), _rd(reference), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-9)


# ---------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------
def test_figures_cli_passes_scale_out(cache_root: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """``figures --full`` hands the ScaleOut of its flags to figures.render; without
    --full none."""
    seen: list[dict] = []
    monkeypatch.setattr(figures, "render", lambda ids, out, **kw: seen.append(kw) or [])
    out = str(tmp_path / "figs")
    assert cli.main(["figures", "--only", "004-fig4", "--out", out]) == 0
    assert cli.main(["figures", "--only", "004-fig4", "--out", out, "--full", "--device",
                     "cpu", "--executor", "local"]) == 0  # fmt: skip
    assert cli.main(["figures", "--only", "004-fig4", "--out", out, "--full", "--no-cache"]) == 0
    assert seen[0]["scale_out"] is None
    assert seen[1]["scale_out"] == so.ScaleOut(
        executor="local", device="cpu", cache_dir=str(cache_root / "sweeps")
    )
    assert seen[2]["scale_out"] == so.ScaleOut()


def test_figure_through_the_cache(tmp_path: Path) -> None:
    """A seed-004 figure (fast sizes) rendered under a ScaleOut: drawn, its runs cached;
    a scale_out that is not a ScaleOut is refused."""
    s = so.ScaleOut(device="cpu", cache_dir=str(tmp_path / "c"))
    paths = figures.render(["004-fig4"], tmp_path / "out", progress=False, scale_out=s)
    assert sorted(p.suffix for p in paths) == [".png", ".svg"]
    assert len(list((tmp_path / "c").rglob("*.json"))) > 0
    with pytest.raises(TypeError, match=r"scale_out must be None or a numerics\.scale_out"):
        figures.render(["004-fig4"], tmp_path / "out", scale_out="local")


# ---------------------------------------------------------------------------
# end to end: verify --full, shrunk, through the cache, resumed
# ---------------------------------------------------------------------------
def test_verify_full_resumes_from_the_cache(
    cache_root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``solvable verify --full --progress`` on seed 004's claim with the paper's sizes
    shrunk (widths 8, 16, two seeds: 4 runs of each of the 13 shared phase points, the plane
    grid shrunk to one of them): the bar counts the runs, every run is cached, and a second run (a
    fresh process cache) trains none.  The condensation width is set off the grid, so no
    run is trained again for ``extra``; each run stops after 100 steps (the plumbing is
    under test, not the measurement)."""
    monkeypatch.setitem(stl.DEFAULT_SETTINGS, "max_steps", 100)
    monkeypatch.setattr(pdg, "FULL_WIDTHS", WIDTHS)
    monkeypatch.setattr(pdg, "FULL_SEEDS", SEEDS)
    monkeypatch.setattr(conf, "COND_WIDTH_FULL", 12)
    monkeypatch.setattr(plane, "GRID_FULL", ONE_POINT_GRID)
    trained: list[int] = []
    real = so.rd_points
    monkeypatch.setattr(so, "rd_points", lambda grid, **kw: trained.append(len(grid))
                        or real(grid, **kw))  # fmt: skip
    argv = ["verify", "--full", "--only", "three_layer.ntk_linear", "--jobs", "1", "--progress",
            "--device", "cpu"]  # fmt: skip
    runs = len(conf._keys(True)) * len(WIDTHS) * len(SEEDS)
    try:
        for _ in range(2):
            conf._measured.cache_clear()
            assert cli.main(argv) in (0, 1)  # the verdict at these widths does not matter
            err = capsys.readouterr().err
            assert f"{runs}/{runs}" in err
            assert sum(trained) == runs  # the first run trains them all, the second none
    finally:
        conf._measured.cache_clear()
    assert len(list((cache_root / "sweeps").rglob("*.json"))) == runs
