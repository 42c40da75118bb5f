"""Issue 31, item 5: the float64 engine of ``deep_linear.SpectralTrajectory.sample`` (layers
built on stacks of times, block by block, into arrays allocated once) against the per-time
``at`` stacked (``_sample_reference``): the same float64 operations, so every field must be
the same bytes (shape, dtype, values, signs of zeros), at t = 0, t = inf (as a float and as
"inf"), huge times, with modes of both signs, zero modes, every depth, blocks of one time
and blocks that split the times unevenly; errors name the same ``times[k]``.  No wall-clock
time is asserted (``benchmarks/closed_form_scale.py --only deep_linear`` measures it)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable import deep_linear as dl
from solvable.models.deep_linear import float64_sample
from solvable.verification.confirmations import deep_linear as conf

TIMES = [0.0, 1e-3, 0.5, 3.0, 20.0, 1e4, 1e200, math.inf, "inf", 2.0, 0.0, 7]


def _fields(states) -> dict[str, np.ndarray]:
    arrays = states.arrays()
    out = {k: v for k, v in arrays.items() if k != "params"}
    out.update(arrays["params"])
    return out


def differing(a, b) -> list[str]:
    """The fields of two stacked deep_linear states that are not the same bytes."""
    fa, fb = _fields(a), _fields(b)
    assert fa.keys() == fb.keys()
    return [k for k in fa if fa[k].shape != fb[k].shape or fa[k].dtype != fb[k].dtype
            or fa[k].tobytes() != fb[k].tobytes()]  # fmt: skip


def _trajectory(rates, strengths, widths, seed=0, n=5):
    rng = np.random.default_rng(seed)
    d = len(strengths) if len(strengths) > 1 else 2
    Q, _ = np.linalg.qr(rng.standard_normal((n, d)))
    setup = dl.Setup(tuple(rates), 2.0 * Q, rng.standard_normal((n, d)))
    return dl.closed_form(setup, dl.spectral_start(setup, strengths, widths))


CASES = [  # (rates, strengths, hidden widths): every branch of a mode (grow, shrink, decay)
    ((1.0, 0.5), (0.05, -0.02, 0.0), (3,)),
    ((1.0, 0.5, 2.0), (0.4, -0.1, 30.0), (4, 3)),
    ((2.0, 0.5, 1.0, 0.8), (0.03, 0.03), (2, 5, 3)),
    ((1.0,) * 6, (0.01, 5.0, -2.0), (7, 3, 4, 6, 3)),
]


def test_differing_sees_one_ulp_and_a_zero_sign():
    tr = _trajectory(*CASES[0])
    a, b = tr.sample([0.0, 1.0]), tr.sample([0.0, 1.0])
    assert differing(a, b) == []
    a.params["W2"][1, 0, 0] = np.nextafter(a.params["W2"][1, 0, 0], 1.0)
    b.f[0, 0, 0] = -b.f[0, 0, 0] if b.f[0, 0, 0] == 0 else b.f[0, 0, 0]
    b.loss[0] = -0.0 if b.loss[0] == 0 else np.nextafter(b.loss[0], 0.0)
    assert differing(a, tr._sample_reference([0.0, 1.0])) == ["W2"]
    assert "loss" in differing(b, tr._sample_reference([0.0, 1.0]))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"L{len(c[0])}")
@pytest.mark.parametrize("block", [1, 3, None])
def test_stacked_equals_per_time_bit_for_bit(monkeypatch, case, block):
    tr = _trajectory(*case)
    if block is not None:  # blocks of `block` times (None: the default, one block here)
        size = max(W.size for W in tr._weights)
        monkeypatch.setattr(float64_sample, "BLOCK_BYTES", 8 * size * block)
    a, b = tr.sample(TIMES), tr._sample_reference(TIMES)
    assert differing(a, b) == []
    assert a.t[7] == a.t[8] == math.inf and a.params["W1"].shape[0] == len(TIMES)
    # the limit holds the task's fixed points: the stacked state is at()'s there too
    assert np.array_equal(a.at(7).beta, tr.at(math.inf).beta)


def test_the_conftest_trajectory_at_30_digits_keeps_the_per_time_path():
    setup = dl.Setup(("1", "0.5"), conf.X_WHITE, conf.Y)
    tr = dl.closed_form(setup, dl.spectral_start(setup, ("0.05", "0.02"), (3,), dps=30), dps=30)
    a, b = tr.sample([0, "1.5"]), tr._sample_reference([0, "1.5"])
    assert a.beta.dtype == object and np.array_equal(a.beta, b.beta)


@pytest.mark.parametrize(
    ("times", "exc", "match"),
    [([0.0, -1.0], ValueError, r"times\[1\]"), ([0.0, 1.0, math.nan], ValueError, r"times\[2\]"),
     ([1.0, "x"], (TypeError, ValueError), r"times\[1\]"), ([], ValueError, "empty"),
     (3.0, TypeError, "sequence")],
)  # fmt: skip
def test_bad_times_refused_as_the_per_time_path(times, exc, match):
    tr = _trajectory(*CASES[1])
    with pytest.raises(exc, match=match) as fast:
        tr.sample(times)
    if len(np.atleast_1d(times)) > 0 and np.ndim(times) == 1:
        with pytest.raises(exc, match=match) as ref:
            tr._sample_reference(times)
        assert str(fast.value) == str(ref.value)


_strengths = st.lists(st.one_of(st.floats(1e-4, 50.0), st.floats(-50.0, -1e-4), st.just(0.0)),
                      min_size=1, max_size=3)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(L=st.integers(2, 6), us=_strengths, hidden=st.integers(0, 3),
       times=st.lists(st.floats(0.0, 1e6), min_size=1, max_size=12),
       block=st.integers(1, 5), seed=st.integers(0, 3))  # fmt: skip
def test_property_stacked_equals_per_time(L, us, hidden, times, block, seed):
    """Random depths, strengths (both signs, zeros), widths, times and block sizes."""
    widths = tuple(len(us) + hidden for _ in range(L - 1))
    tr = _trajectory(tuple(0.5 + 0.25 * l for l in range(L)), tuple(us), widths, seed)
    size = max(W.size for W in tr._weights)
    float64_sample.BLOCK_BYTES, old = 8 * size * block, float64_sample.BLOCK_BYTES
    try:
        a = tr.sample(times)
    finally:
        float64_sample.BLOCK_BYTES = old
    assert differing(a, tr._sample_reference(times)) == []
