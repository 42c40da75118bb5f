"""Issue 17, target 1 for seed 001: the float64 ``xu_ziyin`` closed form sampled in blocks of
times straight into (optionally preallocated) outputs, each Piecewise evaluating only the
pieces that apply (``engine="fast"``, the default), against the reference path
(``engine="reference"``: whole arrays through ``numpy.select``).

Both paths do the same floating-point operations on the same numbers, so they must agree
bit for bit (compared as bytes: not even the sign of a zero may differ), on every case of
``xu_ziyin.CASES`` (P = 0, Q = 0, y = 0, the saddle, d0 = 1, ...), at t = 0, late times and
t = inf, with units of mixed kinds (p_i(0) = 0 for some units, q_i(0) = 0 for others), with
blocks of one time and blocks that straddle |ell| = 1, in the extended-range (mpmath)
evaluation and in its fallback after a float64 overflow.  No wall-clock time is asserted:
``benchmarks/closed_form_scale.py`` measures speed (its quick mode runs here as a smoke
test)."""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvable._core.backends import fill_in_halves
from solvable.models import xu_ziyin as xz
from solvable.models.xu_ziyin import float64_sample as xz_f64
from solvable.models.xu_ziyin import setups as xz_setups
from solvable.models.xu_ziyin import trajectory as xz_trajectory

ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("t", "u", "W", "f", "alignment", "ntk", "alpha")
TIMES = [0.0, 1e-3, 0.05, 0.3, 1.0, 2.5, 10.0, 1e3, 1e8, 1e300, math.inf]
# unsorted, repeated, with both |ell| <= 1 and |ell| > 1 inside one small block
SHUFFLED = [2.0, 0.0, math.inf, 0.1, 2.0, 40.0, 0.2, 1e-6, 7.0, 0.5, 1e5, 0.0, 3.0]


def differing(a: xz.States, b: xz.States) -> list[str]:
    """The fields of ``a`` and ``b`` that are not the same bytes (shape, dtype, values,
    signs of zeros, nan positions)."""
    out = []
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if x.shape != y.shape or x.dtype != y.dtype or x.tobytes() != y.tobytes():
            out.append(name)
    return out


def both(traj: xz.Trajectory, times) -> tuple[xz.States, xz.States]:
    return traj.sample(times), traj.sample(times, engine="reference")


# ---------------------------------------------------------------------------
# the fast path is the reference path's arithmetic
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", xz.CASES, ids=lambda c: c.name)
def test_fast_equals_reference_on_every_case(case):
    traj = xz.closed_form(case.setup, case.u0, case.W0)
    assert differing(*both(traj, TIMES)) == []


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("block", "chunk"), [(1, 1), (1, 3), (5, 7), (64, 1), (64, 2**14)])
@pytest.mark.parametrize(
    "name", ["generic", "y_zero", "P_zero_y_positive", "Q_zero_y_negative", "saddle"]
)
def test_fast_equals_reference_in_small_blocks(monkeypatch, name, block, chunk, threads):
    """Blocks of one time and blocks straddling |ell| = 1 (rows of both pieces of u_t,
    v_t in one block), unsorted and repeated times, in chunks of times of one block or of
    several (the functions of time per chunk; a last partial chunk); filled by one thread,
    or (threads = 2, PARALLEL_SAMPLE lowered so that these small outputs qualify) by two
    threads on the two halves of the times, each with its own scratch."""
    monkeypatch.setattr(xz_f64, "SAMPLE_BLOCK", block)
    monkeypatch.setattr(xz_f64, "TIME_CHUNK", chunk)
    monkeypatch.setattr(xz_f64, "PARALLEL_SAMPLE", 1 if threads == 2 else xz.PARALLEL_SAMPLE)
    c = xz.case(name)
    traj = xz.closed_form(c.setup, c.u0, c.W0)
    assert differing(*both(traj, SHUFFLED)) == []


def _mixed_units(y: str = "1"):
    """x = (3, 4) (rho = 5), eta_u = 4, eta_w = 1: p_i(0) = 0 where (W x)_i = -2.5 u_i (unit
    0), q_i(0) = 0 where (W x)_i = +2.5 u_i (unit 1), neither for unit 2.  y = 1 keeps
    |ell| below 1 (the first pieces of u_t, v_t only); y = +-10 takes it to +-1.5 and -1.4
    (the second pieces, where a term of p0 = 0 or q0 = 0 is left out)."""
    setup = xz.Setup("4", "1", "0.7", ("3", "4"), y)
    u0 = ("1", "-0.55", "0.3")
    W0 = (("-0.5", "-0.25"), ("-0.125", "-0.25"), ("0.2", "0.9"))
    return xz.closed_form(setup, u0, W0)


@pytest.mark.parametrize("y", ["1", "10", "-10"])
@pytest.mark.parametrize("block", [1, 7, xz.SAMPLE_BLOCK])
def test_fast_equals_reference_with_units_of_mixed_kinds(monkeypatch, block, y):
    """Units with p0 = 0, q0 = 0 and neither, in both pieces of u_t, v_t: the fast path
    groups the units by both conditions (an outsider's mutant grouped them by p0 = 0 only,
    so unit 2 took unit 1's q0 = 0 and lost its q-term past |ell| = 1)."""
    monkeypatch.setattr(xz_f64, "SAMPLE_BLOCK", block)
    traj = _mixed_units(y)
    assert traj._data["p0"][0] == 0 and traj._data["q0"][1] == 0
    assert np.all(traj._data["p0"][1:] != 0) and np.all(traj._data["q0"][[0, 2]] != 0)
    fast, ref = both(traj, SHUFFLED)
    assert differing(fast, ref) == []
    assert (np.abs(np.log(fast.alpha)) > 1).any() == (y != "1")  # the second pieces reached


@pytest.mark.parametrize("scale", ["1e150", "1e-160"])
def test_extended_range_same_on_both_engines(scale):
    """Data outside the float64-safe range: both engines evaluate in mpmath and round."""
    c = xz.case("generic")
    mul = float(scale)
    u0 = [float(v) * mul for v in c.u0]
    W0 = [[float(v) * mul for v in row] for row in c.W0]
    traj = xz.closed_form(c.setup, u0, W0)
    assert traj._data["work_dps"] is not None
    a, b = both(traj, [0.0, 1.0, math.inf])
    assert differing(a, b) == []
    out = xz.States.empty(3, 3, 2)
    assert traj.sample([0.0, 1.0, math.inf], out=out) is out and differing(out, a) == []


def test_state_beyond_float64_refused_on_both_engines():
    c = xz.case("generic")
    u0 = [float(v) * 1e300 for v in c.u0]
    W0 = [[float(v) * 1e300 for v in row] for row in c.W0]
    traj = xz.closed_form(c.setup, u0, W0)
    for engine in xz.ENGINES:
        with pytest.raises(ValueError, match="beyond the float64 range"):
            traj.sample([0.0], engine=engine)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("poison", ["W_perp", "u0"])
def test_overflow_falls_back_to_mpmath_as_the_reference(monkeypatch, poison, threads):
    """A non-finite u or W in float64 (here forced: an infinite entry planted in the float64
    data, which the mpmath re-evaluation from the given weights does not see) sends both
    engines to the mpmath evaluation, rounded: the same states, and finite ones (also when
    two threads fill the halves of the times and both see it)."""
    monkeypatch.setattr(xz_f64, "SAMPLE_BLOCK", 1)
    monkeypatch.setattr(xz_f64, "PARALLEL_SAMPLE", 1 if threads == 2 else xz.PARALLEL_SAMPLE)
    c = xz.case("generic")
    traj = xz.closed_form(c.setup, c.u0, c.W0)
    data = dict(traj._data)
    planted = np.array(data[poison], dtype=float)
    planted.flat[0] = np.inf
    data[poison] = planted
    object.__setattr__(traj, "_data", data)
    a, b = both(traj, TIMES)
    assert differing(a, b) == []
    assert np.all(np.isfinite(a.u)) and np.all(np.isfinite(a.W))
    clean = xz.closed_form(c.setup, c.u0, c.W0).sample(TIMES)
    np.testing.assert_allclose(a.W, clean.W, rtol=1e-13, atol=1e-300)  # two roundings apart


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_an_overflow_at_one_time_redoes_that_time_only(monkeypatch, engine):
    """A float64 overflow at one time (forced: the float64 evaluation made to return an
    infinite W at t = 1 only) sends that time alone to the mpmath evaluation: every other
    time keeps its float64 state bit for bit, as when it is sampled alone, so a test that
    samples a grid checks the float64 path at each finite time (the whole batch used to be
    re-evaluated, hiding the float64 values from such a test)."""
    c = xz.case("generic")
    traj = xz.closed_form(c.setup, c.u0, c.W0)
    clean = traj.sample(TIMES, engine="reference")
    evaluate = xz.Trajectory._evaluate

    def overflowing(self, ts, dps):
        out = evaluate(self, ts, dps)
        if dps is None:
            out.W[[t == 1.0 for t in ts]] = np.inf
        return out

    monkeypatch.setattr(xz.Trajectory, "_evaluate", overflowing)
    if engine == "fast":  # the fast fill sees the overflow too: its W block made infinite
        monkeypatch.setattr(xz.Trajectory, "_fill", lambda self, tt, out: False)
    got = traj.sample(TIMES, engine=engine)
    k = TIMES.index(1.0)
    others = [i for i in range(len(TIMES)) if i != k]
    for name in FIELDS:
        a, b = getattr(got, name), getattr(clean, name)
        assert a[others].tobytes() == b[others].tobytes(), name
    assert np.all(np.isfinite(got.W[k]))
    np.testing.assert_allclose(got.W[k], clean.W[k], rtol=1e-15)  # 17 digits, rounded once


# ---------------------------------------------------------------------------
# hypothesis: across the parameter space
# ---------------------------------------------------------------------------
def _exp10(lo, hi):
    return st.floats(lo, hi).map(lambda e: float(10.0**e))


@st.composite
def _problems(draw):
    d = draw(st.integers(1, 5))
    d0 = draw(st.integers(1, 3))
    scale = draw(_exp10(-100, 100))
    units = st.floats(-1, 1).map(lambda z: round(z, 3))
    u0 = [draw(units) * scale for _ in range(d)]
    W0 = [[draw(units) * scale for _ in range(d0)] for _ in range(d)]
    x = [draw(st.sampled_from([1.0, -2.0, 0.5, 3.0])) for _ in range(d0)]
    eta_u, eta_w = draw(_exp10(-4, 4)), draw(_exp10(-4, 4))
    y = draw(st.sampled_from([1.5, -1.2, 0.0])) * draw(_exp10(-3, 3))
    zero = draw(st.sampled_from(["none", "P", "Q", "both", "some"]))
    if zero != "none":  # exact manifolds: u_i = -+ 2 W_i for d0 = 1, x = 1, eta_u = 4 eta_w
        d0, x, eta_u = 1, [1.0], 4 * eta_w
        W0 = [[draw(units) * scale] for _ in range(d)]
        signs = [{"P": -1, "Q": 1, "both": 0}.get(zero) for _ in range(d)]
        if zero == "some":  # per unit: p_i(0) = 0, q_i(0) = 0 or neither
            signs = [draw(st.sampled_from([-1, 1, 0.5])) for _ in range(d)]
        u0 = [s * 2 * row[0] for s, row in zip(signs, W0, strict=True)]
        if zero == "both":
            W0 = [[0.0] for _ in range(d)]
    times = draw(st.lists(st.one_of(st.just(math.inf), st.just(0.0), _exp10(-4, 4)), min_size=1,
                          max_size=12))  # fmt: skip
    block = draw(st.sampled_from([1, 3, 2**17]))
    chunk = draw(st.sampled_from([1, 4, 2**14]))
    parallel = draw(st.sampled_from([1, xz.PARALLEL_SAMPLE]))  # 1: two threads fill halves
    setup = xz.Setup(eta_u=eta_u, eta_w=eta_w, gamma=draw(_exp10(-1, 1)), x=x, y=y)
    return setup, u0, W0, times, (block, chunk), parallel


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(_problems())
def test_property_fast_equals_reference(problem):
    setup, u0, W0, times, (block, chunk), parallel = problem
    traj = xz.closed_form(setup, u0, W0)
    names = ("SAMPLE_BLOCK", "TIME_CHUNK", "PARALLEL_SAMPLE")
    old = [getattr(xz_f64, name) for name in names]
    # (monkeypatch is function-scoped: restored by hand)
    for name, value in zip(names, (block, chunk, parallel), strict=True):
        setattr(xz_f64, name, value)
    try:
        results = []
        for engine in xz.ENGINES:
            try:
                results.append(traj.sample(times, engine=engine))
            except ValueError as exc:  # a state beyond float64: refused by both
                results.append(str(exc))
    finally:
        for name, value in zip(names, old, strict=True):
            setattr(xz_f64, name, value)
    a, b = results
    if isinstance(a, str) or isinstance(b, str):
        assert a == b
    else:
        assert differing(a, b) == []


def test_differing_sees_one_ulp_and_a_zero_sign():
    """The comparison itself is not blind: one ulp in one entry of W, or -0.0 for 0.0 in t,
    is a difference."""
    c = xz.case("generic")
    a = xz.closed_form(c.setup, c.u0, c.W0).sample(TIMES)
    W = a.W.copy()
    W.flat[5] = np.nextafter(W.flat[5], np.inf)
    assert differing(a, xz.States(**{**vars(a), "W": W})) == ["W"]
    t = a.t.copy()
    t[0] = -0.0
    assert differing(a, xz.States(**{**vars(a), "t": t})) == ["t"]


# ---------------------------------------------------------------------------
# out=: preallocated outputs
# ---------------------------------------------------------------------------
def test_out_is_filled_and_returned_and_reused():
    c = xz.case("d0_1_disalign")
    traj = xz.closed_form(c.setup, c.u0, c.W0)
    d, d0 = traj.W0.shape
    out = xz.States.empty(len(SHUFFLED), d, d0)
    for times in (SHUFFLED, SHUFFLED[::-1]):  # the same arrays, filled twice
        got = traj.sample(times, out=out)
        assert got is out
        assert differing(out, traj.sample(times, engine="reference")) == []
    ref_out = xz.States.empty(len(SHUFFLED), d, d0)
    assert traj.sample(SHUFFLED, out=ref_out, engine="reference") is ref_out
    assert differing(ref_out, traj.sample(SHUFFLED)) == []


def test_states_empty_shapes_and_bad_sizes():
    s = xz.States.empty(4, 3, 2)
    assert s.u.shape == (4, 3) and s.W.shape == (4, 3, 2) and s.t.shape == (4,)
    assert all(getattr(s, k).dtype == np.float64 for k in FIELDS)
    with pytest.raises(ValueError, match="d0"):
        xz.States.empty(4, 3, 0)
    with pytest.raises(TypeError, match="n_times"):
        xz.States.empty(4.5, 3, 2)


def _bad_outs():
    good = lambda: xz.States.empty(len(TIMES), 3, 2)  # noqa: E731
    s = good()
    yield "type", [1, 2], TypeError, r"out must be a xu_ziyin\.States .*got list"
    yield (
        "dtype",
        xz.States(**{**vars(s), "W": np.zeros(s.W.shape, dtype=np.float32)}),
        TypeError,
        (
            r"out\.W must be a writeable float64 array of shape \(11, 3, 2\), got dtype "
            r"float32"
        ),
    )
    yield "list field", xz.States(**{**vars(s), "f": list(s.f)}), TypeError, r"out\.f .*list"
    yield (
        "shape",
        xz.States(**{**vars(s), "u": np.empty((11, 4))}),
        ValueError,
        (
            r"out\.u must be .*shape \(11, 3\) \(len\(times\) = 11, d = 3, d0 = 2\), got shape "
            r"\(11, 4\)"
        ),
    )
    ro = good()
    ro.ntk.flags.writeable = False
    yield "read-only", ro, ValueError, r"out\.ntk must be .*read-only"
    nc = np.empty((11, 6))[:, ::2]
    yield "strided", xz.States(**{**vars(s), "u": nc}), ValueError, r"out\.u must be C-contig"
    yield (
        "shared",
        xz.States(**{**vars(s), "ntk": s.f}),
        ValueError,
        (r"out\.f and out\.ntk must not overlap \(share memory\)"),
    )
    T, whole = len(TIMES), np.empty(2 * len(TIMES))  # views of one buffer, one entry shared
    yield (
        "overlapping views",
        xz.States(**{**vars(s), "f": whole[:T], "ntk": whole[T - 1 : 2 * T - 1]}),
        ValueError,
        r"out\.f and out\.ntk must not overlap",
    )


@pytest.mark.parametrize("what,out,exc,match", list(_bad_outs()), ids=lambda v: str(v)[:12])
def test_bad_out_refused(what, out, exc, match):
    c = xz.case("generic")
    traj = xz.closed_form(c.setup, c.u0, c.W0)
    with pytest.raises(exc, match=match):
        traj.sample(TIMES, out=out)


def test_out_of_disjoint_views_of_one_buffer():
    """Fields that are views of one buffer but share no entry are accepted (numpy's exact
    overlap test, bounded work) and filled as separate arrays would be."""
    c = xz.case("generic")
    traj = xz.closed_form(c.setup, c.u0, c.W0)
    T, whole = len(TIMES), np.empty(2 * len(TIMES))
    out = xz.States(**{**vars(xz.States.empty(T, 3, 2)), "f": whole[:T], "ntk": whole[T:]})
    got, want = traj.sample(TIMES, out=out), traj.sample(TIMES)
    for name in vars(want):
        assert np.array_equal(getattr(got, name), getattr(want, name), equal_nan=True), name


def test_out_refused_for_mpmath_and_bad_engine():
    c = xz.case("generic")
    hi = xz.closed_form(c.setup, c.u0, c.W0, dps=20)
    with pytest.raises(ValueError, match=r"out= is for a float64 trajectory.*dps=20"):
        hi.sample([1], out=xz.States.empty(1, 3, 2))
    traj = xz.closed_form(c.setup, c.u0, c.W0)
    with pytest.raises(ValueError, match=r"engine must be one of \('fast', 'reference'\), got"):
        traj.sample([1], engine="slow")


# ---------------------------------------------------------------------------
# the vectorised input checks give what the per-number checks give
# ---------------------------------------------------------------------------
def test_time_array_checked_as_its_list():
    # a float array stays a float64 array (the fast path reads it as it is), holding the
    # values the per-number checks give, in a copy of its own
    for dtype in (np.float64, np.float32, np.float16):
        arr = np.array([0.0, 1.5, np.inf, 3.0, 0.1], dtype=dtype)
        got = xz_setups._check_times(arr)
        assert isinstance(got, np.ndarray) and got.dtype == np.float64
        assert got.tolist() == list(xz_setups._check_times(arr.tolist()))
        arr[1] = 7.0
        assert got[1] == 1.5
        # and the fast path takes that array as it is (no Python float per time)
        assert xz_trajectory._float_times(got) is got
    assert xz_setups._check_times(np.array([1, 2], dtype=np.int32)) == (1, 2)
    for bad, match in (([0.0, -1.0], "t must be >= 0, got -1.0"), ([np.nan], r"t\[0\]"),
                       ([-np.inf], r"t\[0\] must be finite")):  # fmt: skip
        with pytest.raises(ValueError, match=match):
            xz_setups._check_times(np.array(bad))
        with pytest.raises(ValueError, match=match):
            xz_setups._check_times(bad)


def test_weight_array_checked_as_its_rows():
    c = xz.case("generic")
    W0 = np.array([[float(v) for v in row] for row in c.W0])
    assert xz_setups._check_W0(W0) == xz_setups._check_W0(W0.tolist())
    W0[1, 1] = np.nan
    for arg in (W0, W0.tolist()):
        with pytest.raises(ValueError, match=r"W0\[1,1\] must be finite"):
            xz_setups._check_W0(arg)
    u0 = np.array([float(v) for v in c.u0])
    a = xz.closed_form(c.setup, u0, np.array([[float(v) for v in r] for r in c.W0]))
    b = xz.closed_form(c.setup, list(u0), [[float(v) for v in r] for r in c.W0])
    assert differing(a.sample(TIMES), b.sample(TIMES)) == []


# ---------------------------------------------------------------------------
# the benchmark's quick mode (a smoke test; its timings are not asserted)
# ---------------------------------------------------------------------------
def _benchmark_number(s):
    return None if s == "-" else float(s)


def _benchmark_differences(cell):
    """The differences row's numbers: (exact, {field: relative}, ode), None for "-"."""
    num = _benchmark_number
    parts = cell.split("; ")
    exact = num(parts[0].rsplit(": ", 1)[1])
    bounded = {}
    if len(parts) == 3:
        for item in parts[1].split(": ", 1)[1].split(", "):
            field, value = item.split(" ")
            bounded[field] = num(value)
    return exact, bounded, num(parts[-1].split(": ")[1].split(" ")[0])


def test_benchmark_quick_mode(capsys, tmp_path):
    """Every case of ``benchmarks/closed_form_scale.py`` (xu_ziyin, kunin, linear_node_scaling;
    deep_linear and kunin_wide, issue 31) at its quick size: rows (a)-(e) and the
    differences, bit for bit where the arithmetic is the same, within rounding where bounded,
    close to solve_ivp; the skipping flags print "-"; ``--markdown`` writes what is
    printed."""
    spec = importlib.util.spec_from_file_location(
        "benchmarks_closed_form_scale", ROOT / "benchmarks" / "closed_form_scale.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    md = tmp_path / "table.md"
    rows = module.main(["--quick", "--repeat", "1", "--markdown", str(md)])
    text = capsys.readouterr().out
    assert "| (a) floor: np.empty + fill |" in text and "load average after" in text
    assert md.read_text(encoding="utf-8") == text
    names = [c.name for c in module.CASES]
    assert names == ["xu_ziyin", "kunin_32", "kunin_1000", "linear_node_scaling", "deep_linear_3",
                     "deep_linear_6", "kunin_wide_32", "kunin_wide_h8"]  # fmt: skip
    bounded_fields = {"xu_ziyin": set(), "linear_node_scaling": {"W", "f", "loss"}}
    for case in module.CASES[:4]:
        mine = [r for r in rows if r[0] == f"{case.name} ({case.seed})"]
        assert [r[2][:3] for r in mine] == ["(a)", "(b)", "(c)", "(d)", "(e)", "(b)"], case.name
        assert all(float(r[3]) >= 0 and r[5].endswith("x") for r in mine[:5])
        exact, bounded, ode = _benchmark_differences(mine[5][2])
        assert exact == 0.0, case.name
        assert set(bounded) == bounded_fields.get(case.name, {"loss"}), case.name
        assert all(0 <= v < 1e-13 for v in bounded.values()), (case.name, bounded)
        assert ode is not None and ode < 1e-7, (case.name, ode)
    wide = {"beta", "outputs", "loss", "ntk", "gram_a", "gram_w"}
    for case in module.CASES[4:]:  # issue 31: deep_linear has no out= ((c) "-")
        mine = [r for r in rows if r[0] == f"{case.name} ({case.seed})"]
        assert [r[2][:3] for r in mine] == ["(a)", "(b)", "(c)", "(d)", "(e)", "(b)"], case.name
        if case.model == "kunin_wide":  # (c): sample(times, out=states)
            assert mine[2][2] == "(c) sample, out= reused" and float(mine[2][3]) >= 0, case.name
        else:
            assert mine[2][3:] == ["-"] * 4 and mine[2][2].endswith("no out="), case.name
        assert all(float(r[3]) >= 0 and r[5].endswith("x") for r in mine[:-1] if r[3] != "-")
        exact, bounded, ode = _benchmark_differences(mine[-1][2])
        if case.model == "kunin_wide":
            assert exact == 0.0 and set(bounded) == wide, case.name
            assert all(0 <= v < 1e-13 for v in bounded.values()), (case.name, bounded)
        else:  # deep_linear: each layer one product against at's mode-by-mode sum (the
            # (m + 1)-term rounding bound, tests/test_deep_linear_sample_f64.py): a few ulps
            layers = {f"W{l}" for l in range(1, int(case.name[-1]) + 1)}
            assert exact == 0.0 and set(bounded) == {"beta", "f", "loss"} | layers, case.name
            assert all(0 <= v < 1e-13 for v in bounded.values()), (case.name, bounded)
        assert ode is not None and ode < 1e-7, (case.name, ode)
    rows = module.main(["--quick", "--repeat", "1", "--only", "kunin", "--no-reference",
                        "--no-scipy"])  # fmt: skip
    capsys.readouterr()
    assert {r[0] for r in rows} == {"kunin_32 (003)", "kunin_1000 (003)"}
    assert [r[2][:3] for r in rows] == ["(a)", "(b)", "(c)", "(b)"] * 2
    assert _benchmark_differences(rows[3][2]) == (None, {"loss": None}, None)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 50), step=st.integers(1, 12), entries=st.integers(0, 40),
       threshold=st.integers(1, 10))  # fmt: skip
def test_fill_in_halves_cuts_on_block_boundaries(n, step, entries, threshold):
    """``backends.fill_in_halves``: one call over ``0..n``, or (an output of at least twice
    the threshold, more than one block) two calls on two threads, covering ``0..n``
    without overlap, the cut on a block boundary at the first ceil(blocks / 2) blocks, the
    results in order, under the caller's np.errstate."""
    calls = []

    def fill(a, b):
        calls.append((a, b, threading.current_thread().name, np.geterr()["over"]))
        return (a, b)

    with np.errstate(over="ignore"):
        got = fill_in_halves(fill, n, step, entries, threshold)
    blocks = -(-n // step)
    if n <= step or entries < 2 * threshold:
        assert got == [(0, n)] and calls[0][2] == threading.current_thread().name
    else:
        cut = (blocks + 1) // 2 * step
        assert got == [(0, cut), (cut, n)] and cut % step == 0 and 0 < cut < n
        assert all(name != threading.current_thread().name for _, _, name, _ in calls)
    assert all(over == "ignore" for *_, over in calls)


@pytest.mark.parametrize("field", ["u", "W", "f", "ntk"])
def test_a_non_finite_u_w_f_or_ntk_marks_its_time_for_the_redo(field):
    """Each of u, W, f and the NTK, non-finite at one time (inf or NaN), marks that time
    (only) for the mpmath redo: a float64 overflow of the NTK alone (f finite) is redone
    too (an outside reviewer's mutant left the NTK out of the check)."""
    c = xz.case("generic")
    states = xz.closed_form(c.setup, c.u0, c.W0).sample([0.0, 1.0, 2.0])
    assert xz_trajectory._finite_rows(states).tolist() == [True, True, True]
    for bad in (np.inf, np.nan):
        arr = getattr(states, field).copy()
        arr[1] = bad
        marked = xz_trajectory._finite_rows(dataclasses.replace(states, **{field: arr}))
        assert marked.tolist() == [True, False, True], (field, bad)
