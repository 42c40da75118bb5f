"""Issue 31, item 5: the float64 engine of ``deep_linear.SpectralTrajectory.sample`` (every
strength at every time at once, each layer one matrix product) against the per-time ``at``
stacked (``_sample_reference``): the times the same bytes; the strengths within the float64
accuracy of either (1e-12 relative); each layer within the rounding bound of an (m + 1)-term
sum given the two paths' own strengths; ``beta``, ``f`` and the loss the bytes of
``state_of`` on the engine's own layers.  At t = 0, t = inf (as a float and as "inf"), huge
times, modes of both signs, zero modes, every depth, blocks of one time and uneven blocks;
errors name the same ``times[k]``.  No wall-clock time is asserted
(``benchmarks/closed_form_scale.py --only deep_linear`` measures it)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable import deep_linear as dl
from solvable.models.deep_linear import float64_sample
from solvable.models.deep_linear.states import state_of
from solvable.models.deep_linear.strength import strengths
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
    assert differing(a, tr.sample([0.0, 1.0])) == ["W2"]
    assert "loss" in differing(b, tr.sample([0.0, 1.0]))


_U = 2.0**-53  # the unit roundoff


def layer_excess(tr, times, a) -> float:
    """The largest ``|W_sample - W_at|`` over the rounding bound of the two (m + 1)-term sums
    ``W_l(0) + sum_k (rho_k - 1) P_{l,k}`` given each path's own ``rho_k - 1``: ``sum_k
    |d(rho_k - 1)| |P| + 2 gamma_{m+1} (|W_l(0)| + sum_k max|rho_k - 1| |P|)`` (<= 1: within)."""
    m, L = len(tr.modes), tr.setup.L
    gamma = (m + 1) * _U / (1 - (m + 1) * _U)
    ts = a.t
    inf = ts == math.inf
    worst = 0.0
    g_fast, u_fast = [], []
    for k in range(m):  # the engine's strengths and rho - 1, as sample computes them
        flow = tr._flow(k)
        u_fast.append(strengths(flow, np.where(inf, 0.0, ts), inf))
        g_fast.append((u_fast[-1] / flow.u0) ** (1 / L) - 1)
    for i, t in enumerate(times):
        u_at = tr.strengths(t)
        g_at = [(u_at[k] / tr._flow(k).u0) ** (1 / L) - 1 for k in range(m)]
        for k in range(m):  # the strengths: each within 1e-12 of the exact (the float64 bound)
            assert abs(u_fast[k][i] - u_at[k]) <= 2e-12 * abs(u_at[k]) + 1e-290
        for l in range(L):
            P = [np.abs(tr._parts[k][l]) for k in range(m)]
            bound = 2 * gamma * (np.abs(tr._weights[l]) + sum(
                max(abs(g_fast[k][i]), abs(g_at[k])) * P[k] for k in range(m)))  # fmt: skip
            bound = bound + sum(abs(g_fast[k][i] - g_at[k]) * P[k] for k in range(m))
            diff = np.abs(a.params[f"W{l + 1}"][i] - tr.at(t).params[f"W{l + 1}"])
            with np.errstate(divide="ignore"):  # (a difference where the bound is 0: inf)
                over = diff[diff > 0] / bound[diff > 0] if np.any(diff > 0) else np.zeros(1)
            worst = max(worst, float(np.max(over)))
    return worst


def derived_differ(tr, a) -> list[str]:
    """The fields of ``a`` (beta, f, loss) not the bytes of ``state_of`` on its own layers."""
    bad = set()
    for i, t in enumerate(a.t):
        Ws = [a.params[f"W{l + 1}"][i] for l in range(tr.setup.L)]
        st_ = state_of(tr.setup, t, Ws, None)
        for name in ("beta", "f"):
            if getattr(st_, name).tobytes() != getattr(a, name)[i].tobytes():
                bad.add(name)
        if np.float64(st_.loss).tobytes() != a.loss[i].tobytes():
            bad.add("loss")
    return sorted(bad)


def test_layer_excess_sees_a_wrong_layer_and_a_wrong_strength(monkeypatch):
    tr = _trajectory(*CASES[1])
    a = tr.sample([0.0, 1.0, 3.0])
    assert layer_excess(tr, [0.0, 1.0, 3.0], a) <= 1
    a.params["W2"][1] *= 1 + 1e-12  # (a relative 1e-12 in one layer: far above the bound)
    assert layer_excess(tr, [0.0, 1.0, 3.0], a) > 1
    real = float64_sample.strengths  # the engine's strengths 1e-9 off: layers far outside
    monkeypatch.setattr(float64_sample, "strengths", lambda f, t, i: real(f, t, i) * (1 + 1e-9))
    assert layer_excess(tr, [0.0, 1.0, 3.0], tr.sample([0.0, 1.0, 3.0])) > 1


def test_derived_differ_sees_a_beta_off_by_one_ulp():
    tr = _trajectory(*CASES[2])
    a = tr.sample([0.0, 2.0])
    assert derived_differ(tr, a) == []
    a.beta[1, 0, 0] = np.nextafter(a.beta[1, 0, 0], 1.0)
    assert derived_differ(tr, a) == ["beta"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"L{len(c[0])}")
@pytest.mark.parametrize("block", [1, 3, None])
def test_stacked_agrees_with_per_time(monkeypatch, case, block):
    tr = _trajectory(*case)
    if block is not None:  # blocks of `block` times (None: the default, one block here)
        size = max(W.size for W in tr._weights)
        monkeypatch.setattr(float64_sample, "BLOCK_BYTES", 8 * size * block)
    a, b = tr.sample(TIMES), tr._sample_reference(TIMES)
    assert a.t.tobytes() == b.t.tobytes()
    assert layer_excess(tr, TIMES, a) <= 1
    assert derived_differ(tr, a) == []
    assert a.t[7] == a.t[8] == math.inf and a.params["W1"].shape[0] == len(TIMES)
    # the limit holds the task's fixed points: the stacked state is at()'s there too (to the
    # layers' bound above, carried through the product: 1e-13 relative)
    assert np.allclose(a.at(7).beta, tr.at(math.inf).beta, rtol=1e-13, atol=1e-300)


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
    if exc is ValueError and len(times) > 0:  # a float array: the same refusal
        with pytest.raises(exc, match=match) as arr:
            tr.sample(np.asarray(times, dtype=float))
        assert str(arr.value) == str(fast.value)


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
    except ValueError as exc:  # (a kappa t outside float64's range): the same refusal
        with pytest.raises(ValueError) as ref:
            tr._sample_reference(times)
        assert str(ref.value) == str(exc)
        return
    finally:
        float64_sample.BLOCK_BYTES = old
    assert layer_excess(tr, times, a) <= 1
    assert derived_differ(tr, a) == []


def test_a_float_array_of_times_is_read_as_the_list_is():
    tr = _trajectory(*CASES[1])
    a = tr.sample(np.array([0.0, 1.5, math.inf, 1e200]))
    b = tr.sample([0, "1.5", "inf", 1e200])
    assert differing(a, b) == [] and a.t[2] == math.inf
