"""numerics.sweeps: the executor and its disk cache (in-process, concurrent.futures, a
dask.distributed LocalCluster of two worker processes), resumption after a failure or
an interrupt, key stability, bad input; and the seed 001 phase sweep (Table 1): the
predicted exponents against solvable.models.phases, the measured exponents and phases on a
reduced grid (the full grid is marked slow)."""

from __future__ import annotations

import functools
import json
import math
import os
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import linregress

from numerics import sweeps
from solvable.models import phases

# ---------------------------------------------------------------------------
# top-level sweep functions (workers import them by reference)
# ---------------------------------------------------------------------------
CALLS: list[int] = []  # in-process call log
FAIL: dict[str, object] = {}  # {"at": i, "exc": exception class}: inject one failure


def square(point: dict) -> dict:
    CALLS.append(point["i"])
    if FAIL and point["i"] == FAIL["at"]:
        raise FAIL["exc"](f"injected failure at {point['i']}")
    return {"i": point["i"], "sq": point["i"] ** 2, "pair": (point["i"], "x")}


def poisoned(point: dict) -> dict:
    """Fails on a negative ``i`` wherever it runs (no shared state needed on workers)."""
    CALLS.append(point["i"])
    if point["i"] < 0:
        raise ValueError("negative i")
    return {"i": point["i"], "sq": point["i"] ** 2}


def calls_here() -> int:
    """How many points this process has computed (run on each worker by client.run)."""
    return len(CALLS)


def _worker_calls(client) -> int:
    return sum(client.run(calls_here).values())


def calls_by_point_here() -> dict[int, int]:
    """How many times this process has computed each point (run on each worker)."""
    return dict(Counter(CALLS))


def _worker_calls_by_point(client) -> Counter:
    return sum((Counter(c) for c in client.run(calls_by_point_here).values()), Counter())


def returns_list(point: dict) -> list:
    return [point]


def returns_array(point: dict) -> dict:
    return {"a": np.zeros(2)}


def _expected(n: int) -> list[dict]:
    return [{"i": i, "sq": i * i, "pair": [i, "x"]} for i in range(n)]


@pytest.fixture(autouse=True)
def _reset():
    CALLS.clear()
    FAIL.clear()
    yield
    FAIL.clear()


def _cache_files(cache: Path) -> list[Path]:
    return sorted(cache.rglob("*.json"))


# ---------------------------------------------------------------------------
# in-process executor and cache
# ---------------------------------------------------------------------------
def test_in_process_order_duplicates_and_json_normalisation(tmp_path):
    points = [{"i": i} for i in (3, 1, 2, 1, 3)]
    out = sweeps.run_sweep(square, points)
    assert out == [{"i": i, "sq": i * i, "pair": [i, "x"]} for i in (3, 1, 2, 1, 3)]
    assert sorted(CALLS) == [1, 2, 3]  # identical points are computed once
    assert sweeps.run_sweep(square, []) == []


def test_cache_hit_returns_equal_results_without_calls(tmp_path):
    points = [{"i": i} for i in range(6)]
    first = sweeps.run_sweep(square, points, cache_dir=tmp_path, version="v1")
    assert len(CALLS) == 6 and len(_cache_files(tmp_path)) == 6
    CALLS.clear()
    again = sweeps.run_sweep(square, points, cache_dir=tmp_path, version="v1")
    assert again == first == _expected(6) and CALLS == []
    # another version is another cache
    sweeps.run_sweep(square, points, cache_dir=tmp_path, version="v2")
    assert len(CALLS) == 6 and len(_cache_files(tmp_path)) == 12
    assert not list(tmp_path.rglob("*.tmp"))  # atomic writes leave no temporaries
    entry = json.loads(_cache_files(tmp_path)[0].read_text())
    assert set(entry) == {"key", "fn", "version", "point", "result"}
    assert entry["fn"] == f"{__name__}.square"


@pytest.mark.parametrize("exc", [RuntimeError, KeyboardInterrupt])
@pytest.mark.parametrize("k", [0, 4, 9])
def test_resume_after_failure_computes_only_the_rest(tmp_path, k, exc):
    """First run fails at point k (an error, or a Ctrl-C); the second run only computes
    the points not yet cached, and returns what an uninterrupted run returns."""
    n = 10
    points = [{"i": i} for i in range(n)]
    FAIL.update(at=k, exc=exc)
    expected_exc = sweeps.SweepError if exc is RuntimeError else KeyboardInterrupt
    with pytest.raises(expected_exc) as info:
        sweeps.run_sweep(square, points, cache_dir=tmp_path)
    if exc is RuntimeError:
        assert isinstance(info.value.__cause__, RuntimeError)
        assert f"points[{k}]" in str(info.value)
    assert CALLS == list(range(k + 1))
    assert len(_cache_files(tmp_path)) == k
    CALLS.clear()
    FAIL.clear()
    out = sweeps.run_sweep(square, points, cache_dir=tmp_path)
    assert CALLS == list(range(k, n))
    assert out == _expected(n)


def test_corrupt_or_mismatched_cache_entries_are_recomputed(tmp_path):
    points = [{"i": i} for i in range(3)]
    sweeps.run_sweep(square, points, cache_dir=tmp_path)
    files = _cache_files(tmp_path)
    files[0].write_text("{not json")
    entry = json.loads(files[1].read_text())
    entry["point"] = {"i": 99}  # as if another point had hashed to this key
    files[1].write_text(json.dumps(entry))
    CALLS.clear()
    with pytest.warns(UserWarning, match="recomputing"):
        out = sweeps.run_sweep(square, points, cache_dir=tmp_path)
    assert len(CALLS) == 2 and out == _expected(3)
    CALLS.clear()
    assert sweeps.run_sweep(square, points, cache_dir=tmp_path) == _expected(3)
    assert CALLS == []


def test_progress_bar_counts_cached_points(tmp_path, capsys):
    points = [{"i": i} for i in range(4)]
    sweeps.run_sweep(square, points[:2], cache_dir=tmp_path)
    out = sweeps.run_sweep(square, points, cache_dir=tmp_path, progress=True)
    assert out == _expected(4)
    assert "4/4" in capsys.readouterr().err  # 2 from the cache + 2 computed


def test_concurrent_futures_executor_matches_in_process(tmp_path):
    points = [{"i": i} for i in range(8)]
    with ThreadPoolExecutor(2) as ex:
        out = sweeps.run_sweep(square, points, executor=ex, cache_dir=tmp_path)
    assert out == _expected(8) and len(_cache_files(tmp_path)) == 8


# ---------------------------------------------------------------------------
# dask.distributed: a LocalCluster of two single-threaded worker processes
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster():
    # distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True) plus
    # the workers' malloc setting (sweeps.WORKER_ENV)
    with sweeps.local_cluster(2) as c:
        yield c


def test_dask_client_and_address_match_in_process(cluster, tmp_path):
    import distributed

    points = [{"i": i} for i in range(12)]
    reference = sweeps.run_sweep(square, points)
    with distributed.Client(cluster) as client:
        before = _worker_calls(client)
        out = sweeps.run_sweep(square, points, executor=client, cache_dir=tmp_path)
        assert _worker_calls(client) - before == 12  # computed on the workers
        pids = client.run(os.getpid)
        env = client.run(os.environ.get, "MALLOC_MMAP_THRESHOLD_")
        threads = client.nthreads()
    assert out == reference
    assert len(pids) == 2 and os.getpid() not in pids.values()  # two worker processes
    assert set(threads.values()) == {1}
    assert set(env.values()) == {sweeps.WORKER_ENV["MALLOC_MMAP_THRESHOLD_"]}
    assert len(_cache_files(tmp_path)) == 12  # written by this (the driver) process
    # a scheduler address: run_sweep connects its own client; 4 new points, 12 cached
    more = [{"i": i} for i in range(16)]
    with distributed.Client(cluster) as client:
        before = _worker_calls(client)
        again = sweeps.run_sweep(square, more, executor=cluster.scheduler_address,
                                 cache_dir=tmp_path)  # fmt: skip
        assert _worker_calls(client) - before == 4
    assert again == _expected(16)


def test_dask_failure_keeps_finished_points_and_resumes(cluster, tmp_path):
    import distributed

    good = [{"i": i} for i in range(6)]
    with distributed.Client(cluster) as client:
        with pytest.raises(sweeps.SweepError, match="negative i"):
            sweeps.run_sweep(poisoned, [{"i": -1}, *good], executor=client, cache_dir=tmp_path)
        cached = {json.loads(f.read_text())["point"]["i"] for f in _cache_files(tmp_path)}
        assert cached <= set(range(6))  # whatever finished before the failure was seen
        # a point already running when the failure was seen still finishes on its worker
        # (dask does not stop a running task, and the scheduler forgets the cancelled key,
        # so no poll of the scheduler sees it): count the calls per point, not in total.
        # That late point was not cached (the driver writes the cache), so it may be
        # computed twice; a cached point must not be computed again.
        before = _worker_calls_by_point(client)
        out = sweeps.run_sweep(poisoned, good, executor=client, cache_dir=tmp_path)
        after = _worker_calls_by_point(client)
        assert all(after[i] == before[i] for i in cached)  # cached points: no new call
        assert all(after[i] > before[i] for i in set(range(6)) - cached)  # the rest: computed
    assert out == [{"i": i, "sq": i * i} for i in range(6)]
    assert len(_cache_files(tmp_path)) == 6


# ---------------------------------------------------------------------------
# keys
# ---------------------------------------------------------------------------
def test_key_is_stable_and_sensitive():
    p = {"kappa": 64, "c_gamma": "-1/2", "x": [0.5, -0.5], "init": "gaussian"}
    k = sweeps.point_key(sweeps.xu_ziyin_point, p, "v1")
    # pinned: a change of the key derivation must bump KEY_SCHEMA (old caches then miss);
    # regenerate this value only together with that bump
    assert k == "7ecb47746ebb08b9b6f27318b981047b9f18d21189db5e7a2fe79b19ab8d5d69"
    key = functools.partial(sweeps.point_key, sweeps.xu_ziyin_point)
    assert key(dict(reversed(list(p.items()))), "v1") == k
    assert key({**p, "x": (0.5, -0.5)}, "v1") == k  # tuples key as lists
    assert key(p, "v2") != k
    assert sweeps.point_key(square, p, "v1") != k
    assert key({**p, "kappa": 64.0}, "v1") != k  # JSON 64 vs 64.0: int and float differ
    assert key({**p, "kappa": 65}, "v1") != k


def test_key_is_the_same_in_another_process():
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import test_sweeps as t; "
        "from numerics import sweeps; "
        "print(sweeps.point_key(t.square, {'b': [1, 2.5], 'a': 'x'}, 'v'))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    here = str(Path(__file__).parent)
    out = subprocess.run([sys.executable, "-c", code, here], capture_output=True, text=True,
                         env=env, check=True, cwd=Path(__file__).parent.parent)  # fmt: skip
    mine = sweeps.point_key(square, {"a": "x", "b": [1, 2.5]}, "v")
    # the subprocess imports the module as test_sweeps; so does pytest's default rootdir
    # import of this file, so the qualified names agree
    assert __name__ == "test_sweeps"
    assert out.stdout.strip() == mine


@given(st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=5),
       st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none()),
       max_size=6), st.randoms())  # fmt: skip
def test_key_independent_of_insertion_order(point, rnd):
    items = list(point.items())
    rnd.shuffle(items)
    assert sweeps.point_key(square, dict(items), "v") == sweeps.point_key(square, point, "v")


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
def _nested():
    def inner(point):
        return point

    return inner


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"fn": lambda p: p}, TypeError, "top-level"),
        ({"fn": _nested()}, TypeError, "top-level"),
        ({"fn": functools.partial(square)}, TypeError, "top-level"),
        ({"fn": 3}, TypeError, "fn must be a callable"),
        ({"points": {"i": 1}}, TypeError, "points must be a list"),
        ({"points": "ab"}, TypeError, "points must be a list"),
        ({"points": (p for p in [{"i": 1}])}, TypeError, "points must be a list"),
        ({"points": [{"i": 1}, 5]}, TypeError, r"points\[1\] must be a dict"),
        ({"points": [{1: 2}]}, TypeError, "keys must be str"),
        ({"points": [{"i": math.nan}]}, ValueError, "finite"),
        ({"points": [{"i": np.float32(1.0)}]}, TypeError, "numpy"),
        ({"points": [{"i": np.int64(1)}]}, TypeError, "numpy"),
        ({"points": [{"i": Fraction(1, 2)}]}, TypeError, "JSON"),
        ({"version": ""}, TypeError, "version"),
        ({"version": 1}, TypeError, "version"),
        ({"executor": 3}, TypeError, "executor must be"),
        ({"executor": "nonsense"}, ValueError, "scheduler address"),
        ({"executor": "nonsense", "points": []}, ValueError, "scheduler address"),
        ({"progress": "yes"}, TypeError, "progress"),
    ],
)
def test_bad_input(kwargs, error, match):
    args = {"fn": square, "points": [{"i": 1}], **kwargs}
    fn, points = args.pop("fn"), args.pop("points")
    with pytest.raises(error, match=match):
        sweeps.run_sweep(fn, points, **args)


@pytest.mark.parametrize("n", [0, -1, 1.5, True])
def test_local_cluster_bad_input(n):
    with pytest.raises(ValueError, match="n_workers"):
        sweeps.local_cluster(n)


def test_bad_results_and_cache_dir(tmp_path):
    with pytest.raises(sweeps.SweepError) as info:
        sweeps.run_sweep(square, [{"j": 1}])
    assert isinstance(info.value.__cause__, KeyError)
    with pytest.raises(TypeError, match="must return a dict"):
        sweeps.run_sweep(returns_list, [{"i": 1}])
    with pytest.raises(TypeError, match="numpy"):
        sweeps.run_sweep(returns_array, [{"i": 1}])
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(ValueError, match="cache_dir must be a directory"):
        sweeps.run_sweep(square, [{"i": 1}], cache_dir=f)


# ---------------------------------------------------------------------------
# seed 001: predicted exponents
# ---------------------------------------------------------------------------
CASES = sweeps.table_1_cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_predicted_phase_is_theorem_2_and_the_printed_table(name):
    """The exponents derived here (t_c from eq. (11), the NTK change from the conserved
    K^2 - 4 eta_u eta_w gamma^2 rho^2 f^2) give the phase of solvable.models.phases (Theorem 2)
    and, for every printed cell, the phase printed in Table 1."""
    case = CASES[name]
    pred = case.predicted()
    assert pred.phase == case.paper_phase()
    assert pred.t_c == case.scaling.t_c_exponent
    if case.printed:
        assert pred.phase.replace("feature ", "") == case.printed


_RAT = st.fractions(min_value=-3, max_value=3, max_denominator=4)


@given(st.fractions(min_value=0, max_value=3, max_denominator=4), _RAT, _RAT, _RAT, _RAT,
       _RAT, st.booleans())  # fmt: skip
def test_predicted_phase_agrees_with_theorem_2_everywhere(c_d, c_g, c_u, c_w, c_eu, c_ew, z):
    """Two derivations of the phase, for all rational exponents: the NTK-change exponent
    (this module) and eqs. (28)-(30) with the cases of eq. (29) (solvable.models.phases)."""
    pred = sweeps.predicted_exponents(c_d, c_g, c_u, c_w, c_eu, c_ew, zero_initial_output=z)
    assert pred.phase == phases.xu_ziyin_phase(c_d, c_g, c_u, c_w, c_eu, c_ew,
                                               zero_initial_output=z)  # fmt: skip
    assert all(isinstance(v, sp.Rational) for v in (pred.t_c, pred.ntk_change, pred.ratio))


def test_predicted_exponents_examples():
    ntk = sweeps.predicted_exponents(1, Fraction(-1, 2), 0, 0, 0, 0)
    assert (ntk.t_c, ntk.ntk_change, ntk.ratio, ntk.output) == (0, -1, -1, 0)
    # Xavier^-: the initial output grows (F ~ kappa), the NTK change is kappa^(-2 + 1)
    xav = sweeps.predicted_exponents(1, 1, -1, -1, -2, -2)
    assert (xav.ntk_change, xav.output, xav.phase) == (-1, 1, "kernel")
    # lazy c_eta*: kernel only from a zero initial output (case 2 of eq. (29))
    lazy = [sweeps.predicted_exponents(0, 1, 0, 0, -2, -2, zero_initial_output=z)
            for z in (True, False)]  # fmt: skip
    assert [p.ntk_change for p in lazy] == [-2, 0]
    assert [p.phase for p in lazy] == ["kernel", "feature learning"]
    with pytest.raises(ValueError, match="c_d"):
        sweeps.predicted_exponents(-1, 0, 0, 0, 0, 0)


# ---------------------------------------------------------------------------
# seed 001: one grid point against the closed form and the conservation law
# ---------------------------------------------------------------------------
def test_point_against_closed_form_and_conserved_ntk():
    """At one grid point: the horizon t_c (eq. (11) via K(oo) = 2/t_c) is the closed
    form's t_c; the measured NTK ratio K(T)/K(0) is sqrt((1 + R)/(1 + R F)) (the
    conservation law); the measured t_c is eq. (11)'s in the kernel limit."""
    import torch

    from numerics import torch_flow
    from solvable.models import xu_ziyin as xz

    case = CASES["NTK, c_eta"]
    point = case.point(256, seeds=3, seed=5)
    r = sweeps.xu_ziyin_point(point)
    d, x, y, g = r["d"], [0.5, -0.5, 0.5, 0.5], 2.0, 256**-0.5
    p = torch_flow.initialise({"u": (d,), "W": (d, 4)}, 3, scale={"u": 1.0, "W": 1.0},
                              seed=5, device="cpu")  # fmt: skip
    setup = xz.Setup(eta_u=1, eta_w=1, gamma=g, x=x, y=y)
    for b in range(3):
        traj = xz.closed_form(setup, p["u"][b].tolist(), p["W"][b].tolist())
        # same formula, different evaluation order: a few ulps
        assert r["t_c_eq11"][b] == pytest.approx(float(traj.t_c), rel=1e-12)
        # kernel limit at kappa = 256: the measured t_c is eq. (11)'s up to O(R) ~ 1/kappa
        assert r["t_c"][b] == pytest.approx(float(traj.t_c), rel=1e-2)
    # the residual at T = 3 t_c is e^-12 of its start (DOP853 at rtol 1e-8) ...
    assert max(r["residual_ratio"]) < 2e-5
    # ... so K(T) is K(oo) = 2/t_c up to that relative order (K^2 - K(oo)^2 ~ f^2 - y^2)
    k_ratio = 2 / np.array(r["t_c_eq11"]) / np.array(r["ntk0"])
    assert np.allclose(r["ntk_change"], np.abs(k_ratio - 1), rtol=0, atol=1e-4 * k_ratio)
    assert torch.get_num_threads() >= 1  # the thread setting was restored (no crash)


@pytest.mark.parametrize("width", [16, 6])
def test_zero_output_initialisation_has_zero_output(monkeypatch, width):
    """Width d (this case's d_scale; its c_d is 0): d/2 units and their mirror images, output 0 to
    rounding; the network the flow integrates has d units (a spy on the NTK measure; at d
    = 6 half a width of d - 2 = 4 gave 8 units, yet zero output: a seed-20 survivor)."""
    from numerics import measures

    widths = []
    real = measures.ntk_two_layer_linear

    def spy(model, q):
        widths.append(q["u"].shape[-1])
        return real(model, q)

    monkeypatch.setattr(measures, "ntk_two_layer_linear", spy)
    case = CASES["lazy, c_eta*"]
    r = sweeps.xu_ziyin_point(case.point(16, seeds=2, d_scale=width))
    assert r["d"] == width and max(abs(f) for f in r["f0"]) < 1e-12  # cancels to rounding
    assert widths and set(widths) == {width}, widths


def test_ntk_change_is_relative_to_the_initial_kernel_in_a_rich_case():
    """``ntk_change`` = |K(T) - K(0)| / K(0): in the rich "Kaiming, +" case at kappa = 16
    the kernel grows 3 to 5.5 times, to K(oo) = 2 / t_c (eq. (11) through the conserved
    K^2 - 4 eta_u eta_w gamma^2 rho^2 f^2): the change is 2/(t_c K(0)) - 1 (measured
    within 1e-4 relative: the residual at T is 6e-5 of its start, and K^2 - K(oo)^2 is
    proportional to f^2 - y^2; 1e-3 allows a factor 10). Relative to K(T) it would be
    0.66 and 0.82 (a seed-20 survivor: the lazy cases barely move K)."""
    r = sweeps.xu_ziyin_point(CASES["Kaiming, +"].point(16, seeds=2))
    want = 2 / np.array(r["t_c_eq11"]) / np.array(r["ntk0"]) - 1
    assert np.all(want > 1) and max(r["residual_ratio"]) < 1e-4
    np.testing.assert_allclose(r["ntk_change"], want, rtol=1e-3)


def test_efold_time_is_exact_for_an_exponential():
    t = np.linspace(0, 3, 31)
    rates = np.array([0.7, 2.0, 5.0])
    r = 1.5 * np.exp(-np.outer(t, rates))
    assert np.allclose(sweeps._efold_time(t, r), 1 / rates, rtol=1e-12)


@pytest.mark.parametrize(
    "change, error, match",
    [
        ({"kappa": 0.5}, ValueError, "kappa"),
        ({"c_gamma": 0.5}, TypeError, "p/q"),
        ({"c_gamma": "x"}, ValueError, "rational"),
        ({"init": "orthogonal"}, ValueError, "init"),
        ({"y": 0.0}, ValueError, "y"),
        ({"x": [1.0]}, ValueError, "d0"),
        ({"seeds": 0}, ValueError, "seeds"),
        ({"horizon": 0.5}, ValueError, "horizon"),
        ({"extra": 1}, ValueError, "unknown"),
        ({"kappa": None}, ValueError, "kappa"),
    ],
)
def test_point_bad_input(change, error, match):
    point = {**CASES["NTK, c_eta"].point(64, seeds=2), **change}
    with pytest.raises(error, match=match):
        sweeps.xu_ziyin_point(point)
    with pytest.raises(ValueError, match="missing"):
        sweeps.xu_ziyin_point({"kappa": 64})
    with pytest.raises(ValueError, match="even"):
        sweeps.xu_ziyin_point({**CASES["lazy, c_eta*"].point(16), "d_scale": 15})


# ---------------------------------------------------------------------------
# fits and classification
# ---------------------------------------------------------------------------
def test_fit_recovers_an_exact_power_law():
    kappas = [64, 256, 1024, 4096]
    rng = np.random.default_rng(0)
    noise = rng.uniform(0.5, 1.5, 8)  # the same per-seed factor at every kappa (paired)
    fit = sweeps.fit_exponent(kappas, [k**-1.5 * noise for k in kappas], n_boot=200)
    # exact data: the slope to rounding, both errors ~ 1e-15
    assert fit.exponent == pytest.approx(-1.5, abs=1e-12) and fit.error < 1e-10
    assert fit.sign() == "-"
    two = sweeps.fit_exponent([1, 10], [[1.0, 2.0], [1.0, 2.0]], n_boot=50)
    assert math.isnan(two.se_ols) and two.exponent == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize(
    "e, se, sign",
    [(-1.0, 0.05, "-"), (1.0, 0.05, "+"), (0.05, 0.05, "0"), (-0.2, 0.01, "0"),
     (-0.3, 0.2, "?"), (0.0, 0.2, "?"), (math.nan, 0.1, "?")],
)  # fmt: skip
def test_sign(e, se, sign):
    assert sweeps.ExponentFit(e, se, se).sign() == sign


@pytest.mark.parametrize(
    "t_sign, k_sign, phase",
    [("+", "-", "frozen"), ("-", "0", "unstable"), ("0", "-", "kernel"),
     ("0", "0", "feature learning"), ("0", "+", "feature learning"), ("?", "0", "undetermined"),
     ("0", "?", "undetermined")],
)  # fmt: skip
def test_classify(t_sign, k_sign, phase):
    value = {"+": 1.0, "-": -1.0, "0": 0.0, "?": 0.0}
    err = {"+": 0.01, "-": 0.01, "0": 0.01, "?": 1.0}
    fits = [sweeps.ExponentFit(value[s], err[s], err[s]) for s in (t_sign, k_sign)]
    assert sweeps.classify(*fits) == phase


def test_fit_bad_input():
    with pytest.raises(ValueError, match=">= 2 kappas"):
        sweeps.fit_exponent([64], [[1.0]])
    with pytest.raises(ValueError, match="positive"):
        sweeps.fit_exponent([64, 256], [[1.0], [0.0]])
    with pytest.raises(TypeError, match="PhaseCase"):
        sweeps.measure_phases(CASES["NTK, c_eta"], [64, 256])
    with pytest.raises(ValueError, match="distinct"):
        sweeps.measure_phases([CASES["NTK, c_eta"]], [64, 64])
    with pytest.raises(TypeError, match="Scaling"):
        sweeps.PhaseCase("x", (1, 0, 0, 0, 0, 0))


# ---------------------------------------------------------------------------
# seed 001: the measured phases
# ---------------------------------------------------------------------------
FAST = ["NTK, c_eta", "mean field, c_eta*", "Kaiming, c_eta", "lazy, c_eta*",
        "lazy (gaussian), c_eta*"]  # fmt: skip
FULL = ["NTK, c_eta", "mean field, c_eta", "Kaiming, c_eta", "mean field, c_eta*",
        "Kaiming, c_eta*", "Kaiming, +", "Xavier, c_eta", "Xavier, -", "NTK, +",
        "lazy, c_eta*", "lazy (gaussian), c_eta*"]  # fmt: skip
# finite-kappa bias allowed on top of Z_SCORE errors: corrections of relative order
# kappa^-1/2 (fluctuations of P/Q, 12% at kappa = 64) bend the log-log line by < 0.05
BIAS = 0.1


def _check(measured):
    for m in measured:
        assert m.phase == m.predicted.phase == m.paper_phase, m.case.name
        for fit, pred in ((m.t_c, m.predicted.t_c), (m.ntk_change, m.predicted.ntk_change)):
            assert abs(fit.exponent - float(pred)) <= sweeps.Z_SCORE * fit.error + BIAS, (
                m.case.name, fit, pred)  # fmt: skip


def test_measured_phases_reduced_grid(tmp_path):
    """Kernel (NTK), feature learning (mean field c_eta*), unstable (Kaiming c_eta) and
    the lazy cell from a zero (kernel) and a Gaussian (feature learning) initial output:
    3 kappas, 4 seeds."""
    measured = sweeps.measure_phases([CASES[n] for n in FAST], [64, 256, 1024], seeds=4,
                                     cache_dir=tmp_path, n_boot=300)  # fmt: skip
    _check(measured)
    again = sweeps.measure_phases([CASES[n] for n in FAST], [64, 256, 1024], seeds=4,
                                  cache_dir=tmp_path, n_boot=300)  # fmt: skip
    assert [m.results for m in again] == [m.results for m in measured]


@pytest.mark.slow
def test_measured_phases_full_grid():
    """Eleven cells of Table 1 (every phase), kappa = 64 ... 4096, 8 seeds."""
    _check(sweeps.measure_phases([CASES[n] for n in FULL], [64, 256, 1024, 4096], seeds=8))


def test_measured_phases_on_dask_equal_in_process(cluster):
    """The grid points on two worker processes give the same numbers (both run torch
    with one thread, so the same operations in the same order)."""
    import distributed

    cases = [CASES[n] for n in ("NTK, c_eta", "mean field, c_eta*")]
    local = sweeps.measure_phases(cases, [64, 256, 1024], seeds=4, n_boot=100)
    with distributed.Client(cluster) as client:
        remote = sweeps.measure_phases(cases, [64, 256, 1024], seeds=4, n_boot=100,
                                       executor=client)  # fmt: skip
    assert [m.results for m in remote] == [m.results for m in local]


def test_slope_and_its_standard_error_are_those_of_least_squares():
    """The fitted log-log slope and its standard error sqrt(s^2 / S_xx) (s^2 the residual
    variance over n - 2) against scipy's ``linregress``, to 1e-12 relative (both closed
    forms of the same sums; a ``%`` for the ``/`` survived the seed-18 sample)."""
    rng = np.random.default_rng(3)
    lx = np.linspace(0.0, 3.0, 12)
    ly = 0.7 * lx + 0.2 + 0.05 * rng.standard_normal(12)
    slope, err = sweeps._slope(lx, ly)
    ref = linregress(lx, ly)
    assert abs(slope - ref.slope) <= 1e-12 * abs(ref.slope)
    assert abs(err - ref.stderr) <= 1e-12 * ref.stderr, (err, ref.stderr)
