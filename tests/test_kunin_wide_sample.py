"""``kunin.WideTrajectory.sample`` (issue 31, item 5): float64 batched over the times (no
per-time Python loop), stacked states; every field equals the per-time ``at(t)`` to a few
ulps across setups, branches (t = 0, the textbook form at small t, the stable form, the
limit, times beyond the float64 range of the normalised time) and orders of times
(hypothesis); the refusals name the time; at ``dps`` the states are those of ``at``.  The
speed is measured by ``benchmarks/wide_sample.py``."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kunin_wide import wide_problems

from solvable._core.states import StackedStates
from solvable.models import kunin

EPS = float(np.finfo(float).eps)
FIELDS = ("t", "beta", "outputs", "loss", "gram_a", "gram_w", "ntk", "delta", "A", "W")
# the batched arithmetic is the per-time one (the same helpers and order of operations);
# numpy's stacked matmul may sum in another order than the 2-d BLAS call (measured: at most
# 1.5 ulps normwise over 24 x 48 states, benchmarks/wide_sample.py), hence 8 ulps normwise
ULPS = 8

_ONE_TIME = st.one_of(
    st.just(0.0),
    st.just(math.inf),
    st.floats(0, 1e-2),
    st.floats(0, 50),
    st.floats(0, 1e12),
    st.floats(1e300, 1.7e308),
)
times_lists = st.lists(_ONE_TIME, min_size=1, max_size=10)


def _same_state(one, other) -> None:
    """Every field of two ``WideExactState`` agrees to :data:`ULPS` normwise (exactly where
    the field is 0 or not finite)."""
    assert type(other) is kunin.WideExactState
    for name in FIELDS:
        a, b = getattr(one, name), getattr(other, name)
        if a is None:
            assert b is None, name
            continue
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        assert a.shape == b.shape, name
        scale = float(np.max(np.abs(a))) if a.size else 0.0
        if scale == 0 or not math.isfinite(scale):
            assert np.array_equal(a, b), (name, a, b)
        else:
            err = float(np.max(np.abs(a - b)))
            assert err <= ULPS * EPS * scale, (name, err, scale)


def _states_or_error(traj, times):
    """The per-time states, or the messages of the times ``at`` refuses."""
    states, errors = [], []
    for t in times:
        try:
            states.append(traj.at(t))
        except ValueError as exc:
            errors.append(str(exc))
    return states, errors


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wide_problems(), times_lists)
def test_sample_is_at_of_each_time(problem, times):
    _check_sample(problem, times)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wide_problems(), times_lists)
def test_sample_is_at_of_each_time_slow(problem, times):
    _check_sample(problem, times)


def _check_sample(problem, times) -> None:
    setup, A0, W0 = problem
    try:
        traj = kunin.wide_closed_form(setup, A0, W0)
    except ValueError as exc:  # delta = 0: a start on a saddle's stable manifold
        assert "stable manifold" in str(exc)
        return
    states, errors = _states_or_error(traj, times)
    if errors:  # (the refusal of a time whose state leaves float64, e.g. a tiny rate)
        with pytest.raises(ValueError) as got:
            traj.sample(times)
        assert str(got.value) in errors
        return
    stacked = traj.sample(times)
    assert isinstance(stacked, StackedStates) and len(stacked) == len(times)
    for k, one in enumerate(states):
        _same_state(one, stacked.at(k))
    assert stacked.beta.shape == (len(times), setup.d, setup.c)
    assert stacked.ntk.shape == (len(times), setup.n, setup.c, setup.n, setup.c)


def _problem(c: int, d: int, delta: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    n = d + 1
    Qx, _ = np.linalg.qr(rng.normal(size=(n, d)))
    setup = kunin.WideSetup(1.0, 0.5, (2 * Qx).tolist(), rng.normal(size=(n, c)).tolist())
    if delta >= 0:
        return setup, *kunin.wide_start(setup, delta, W=rng.normal(size=(c, d)))
    return setup, *kunin.wide_start(setup, delta, A=rng.normal(size=(d, c)))


@pytest.mark.parametrize(("c", "d", "delta"), [(1, 2, 0.7), (2, 3, 0.7), (3, 2, -0.4)])
def test_every_branch_in_one_sample(c, d, delta):
    """One sample holding the limit, t = 0, the textbook form (below the switch time), the
    stable form, and a time beyond the float64 range of the normalised time (the limit):
    each state is ``at``'s, and the far times are the limit."""
    traj = kunin.wide_closed_form(*_problem(c, d, delta))
    switch = math.log(max(traj.condition, 1.0 + 1e-9)) / (2 * float(max(traj.rates)))
    times = [math.inf, 0.0, 0.5 * switch, 2 * switch + 0.1, 30.0, 1.7e308, 3.0]
    stacked = traj.sample(times)
    for k, t in enumerate(times):
        _same_state(traj.at(t), stacked.at(k))
    limit = traj.at(math.inf)
    for k in (0, 5):  # (t itself stays as given: the far time is the limit's state)
        _same_state(dataclasses.replace(limit, t=stacked.t[k]), stacked.at(k))
    assert stacked.t[0] == math.inf and stacked.t[5] == 1.7e308
    assert (stacked.A is None or stacked.A.dtype != object) == (traj.h == 1)


def test_float64_sample_has_no_per_time_evaluation(monkeypatch):
    """The float64 sample never calls the per-time ``_state`` (issue 31: no per-time Python
    loop); the dps sample does, and gives ``at``'s states."""
    setup, A0, W0 = _problem(2, 2, 0.3)
    traj = kunin.wide_closed_form(setup, A0, W0)
    calls = []
    real = kunin.WideTrajectory._state

    def spy(self, *args):
        calls.append(args)
        return real(self, *args)

    monkeypatch.setattr(kunin.WideTrajectory, "_state", spy)
    traj.sample(np.linspace(0.0, 5.0, 100))
    assert calls == []
    ref = kunin.wide_closed_form(setup, A0, W0, dps=25)
    got = ref.sample(["0", "0.5", math.inf])
    assert len(calls) == 3
    for k, t in enumerate(["0", "0.5", math.inf]):
        one, other = ref.at(t), got.at(k)
        for name in FIELDS:
            a, b = getattr(one, name), getattr(other, name)
            assert (a is None and b is None) or np.array_equal(np.asarray(a), np.asarray(b))


def test_stacked_states_index_with_a_warning_and_at():
    """``states[k]`` still works, with its DeprecationWarning; ``at(k)`` is the state;
    negative ``k`` counts from the end; out of range names k."""
    traj = kunin.wide_closed_form(*_problem(1, 2, 0.5))
    stacked = traj.sample([0.0, 1.0, math.inf])
    with pytest.warns(DeprecationWarning, match=r"states\[k\]"):
        first = stacked[0]
    _same_state(first, stacked.at(0))
    _same_state(stacked.at(-1), traj.at(math.inf))
    with pytest.raises(IndexError, match="k = 3 is out of range for 3 times"):
        stacked.at(3)
    assert [s.t for s in stacked] == [0.0, 1.0, math.inf]
    assert stacked.A.shape == (3, 1, traj.setup.c)


def test_refusals_name_the_time():
    """Bad times are refused as ``at`` refuses them (naming ``times``); a state that leaves
    float64 names its field and the first such time."""
    traj = kunin.wide_closed_form(*_problem(2, 2, 0.3))
    with pytest.raises(ValueError, match="times"):
        traj.sample([1.0, -1.0])
    with pytest.raises(ValueError, match="times"):
        traj.sample(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="times"):
        traj.sample([])
    # a null mode of rate ~1e-17 (delta = 0, c < d: the rounded beta*'s rank): at 1e300 the
    # state leaves float64 in at() and in sample(), named by the same message
    setup, A0, W0 = _problem(1, 3, 0.0, seed=4)
    traj = kunin.wide_closed_form(setup, A0, W0)
    try:
        traj.at(1e300)
    except ValueError as exc:
        with pytest.raises(ValueError) as got:
            traj.sample([1.0, 1e300, 1e301])
        assert str(got.value) == str(exc)
        assert "at t = 1e+300" in str(got.value)
    else:
        _same_state(traj.at(1e300), traj.sample([1e300]).at(0))
