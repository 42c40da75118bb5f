"""Issue 31, item 5: ``kunin.WideTrajectory.sample(times, out=...)`` and the one-pass NTK
of ``kunin.wide_sample``.  The NTK stack is the array code ``_wide_ntk_array`` bit for bit
in every block layout (blocks of times, blocks of rows of one time), with exact zeros of
both signs, products that underflow to zero and infinite factors (each path of
``write_ntk``: the plain one and the one that adds ``p * 0``); its finiteness bound
(``ntk_bounded``) is tested on both sides, and where it fails the NTK itself decides; a
preallocated ``out`` gets the bytes of a fresh sample and is returned, and every way an
``out`` cannot take the sample is refused naming the field.  No wall-clock time is asserted
(``benchmarks/closed_form_scale.py --only kunin_wide`` measures it)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kunin_wide import wide_problems
from test_kunin_wide_sample import times_lists
from test_kunin_wide_shapes import shape_problems

from solvable._core.states import StackedStates
from solvable.models import kunin
from solvable.models.kunin import wide_sample
from solvable.models.kunin.reduction import _wide_ntk_array
from solvable.models.kunin.wide_sample import (
    first_not_finite,
    ntk_bounded,
    ntk_factors,
    wide_ntk_stack,
    write_ntk,
)

FIELDS = ("t", "beta", "outputs", "loss", "ntk", "gram_a", "gram_w", "delta", "A", "W")


def _entries(rng, shape, share, kind):
    """Gaussian entries; a ``share`` of them replaced by +-0.0 (``"zeros"``), by +-1e-200
    (``"tiny"``: products of two underflow to a zero of either sign), or by +-inf
    (``"inf"``)."""
    a = rng.standard_normal(shape)
    mask = rng.random(shape) < share
    value = {"zeros": 0.0, "tiny": 1e-200, "inf": math.inf}[kind]
    a[mask] = np.where(rng.random(int(mask.sum())) < 0.5, value, -value)
    return a


@settings(max_examples=150, deadline=None)
@given(T=st.integers(1, 5), n=st.integers(1, 5), c=st.integers(1, 4), d=st.integers(1, 4),
       share=st.sampled_from([0.0, 0.2, 1.0]), kind=st.sampled_from(["zeros", "tiny", "inf"]),
       block=st.sampled_from([8, 200, 1000, 1 << 21]), seed=st.integers(0, 2**32 - 1),
       eta=st.tuples(st.floats(1e-3, 10.0), st.floats(1e-3, 10.0)))  # fmt: skip
def test_ntk_is_the_array_code_bit_for_bit_in_every_block_layout(
    T, n, c, d, share, kind, block, seed, eta
):
    """Blocks of one row (8 bytes), of some rows of one time, of several times, of all:
    the same bytes as the array code, into a fresh and into a reused (dirty) output."""
    rng = np.random.default_rng(seed)
    ga, gw = _entries(rng, (T, c, c), share, kind), _entries(rng, (T, d, d), share / 2, kind)
    X = _entries(rng, (n, d), share / 2, "zeros" if kind == "inf" else kind)
    with np.errstate(all="ignore"):
        ref = _wide_ntk_array(ga, gw, X, *eta)
        got = wide_ntk_stack(ga, gw, X, *eta, block_bytes=block)
        dirty = np.full(ref.shape, np.nan)
        again = wide_ntk_stack(ga, gw, X, *eta, out=dirty, block_bytes=block)
    assert got.shape == ref.shape == (T, n, c, n, c) and got.dtype == ref.dtype
    assert got.tobytes() == ref.tobytes()
    assert again is dirty and again.tobytes() == ref.tobytes()


def test_ntk_paths_are_both_taken():
    """The plain path (no zero product, finite p: no ``+ p * 0`` pass) and the pass, at
    different times of one stack, each the array code's bytes (a zero, an underflowing
    product, an infinite p)."""
    rng = np.random.default_rng(1)
    ga, gw = rng.standard_normal((4, 2, 2)), rng.standard_normal((4, 3, 3))
    X = rng.normal(size=(2, 3))
    ga[1, 0, 1] = -0.0  # a zero: -0 * q + (+0) is +0 in the array code
    X = np.array([[1.0, 0.1, 0.0], [0.2, 1.0, 0.0]])  # q = 1.3 X X^T: min |q| = 0.39
    ga[2, 0, 0] = -5e-324  # its product with 0.39 underflows to -0
    gw[3, 0, 0] = math.inf  # p not finite
    p, q = ntk_factors(gw, X, 0.7, 1.3)
    with np.errstate(all="ignore"):
        q_min, g_min = float(np.min(np.abs(q))), np.abs(ga).reshape(4, -1).min(axis=1)
        assert list((q_min * g_min > 0) & np.isfinite(p).reshape(4, -1).all(axis=1)) == [
            True, False, False, False]  # fmt: skip
        ref = _wide_ntk_array(ga, gw, X, 0.7, 1.3)
        out = np.empty_like(ref)
        write_ntk(out, ga, p, q)
    assert out.tobytes() == ref.tobytes()


def test_ntk_stack_refuses_an_output_it_cannot_fill():
    ga, gw, X = np.ones((2, 2, 2)), np.ones((2, 3, 3)), np.ones((4, 3))
    with pytest.raises(ValueError, match=r"out must be a C-contiguous float64 array of shape "
                                         r"\(2, 4, 2, 4, 2\)"):  # fmt: skip
        wide_ntk_stack(ga, gw, X, 1.0, 1.0, out=np.empty((2, 4, 2, 4, 3)))
    with pytest.raises(ValueError, match="C-contiguous"):
        wide_ntk_stack(ga, gw, X, 1.0, 1.0, out=np.empty((2, 4, 2, 4, 2, 2))[..., 0])
    with pytest.raises(ValueError, match="out must be None for object"):
        wide_ntk_stack(ga.astype(object), gw.astype(object), X.astype(object), 1, 1,
                       out=np.empty((2, 4, 2, 4, 2)))  # fmt: skip


def test_ntk_bound_proves_finiteness_on_both_sides():
    """Bound finite: every entry finite (proved).  Bound infinite: nothing proved, and the
    scan decides: an NTK with finite entries is accepted (p and q g large at different
    entries), an overflowing one is named at its first time."""
    X = np.eye(2)
    big = 0.6 * np.finfo(float).max
    gw = np.zeros((3, 2, 2))
    ga = np.ones((3, 1, 1))
    gw[1, 1, 1] = big  # p[1] = big at (1, 1); q g = big at (0, 0) only: both below the max
    ga[1] = big
    gw[2] = np.diag([big, 0.0])
    ga[2] = big  # p + q g = 1.2 max at (0, 0): overflows
    p, q = ntk_factors(gw, X, 1.0, 1.0)
    q[1, 1] = 0.5  # (q g = 0.3 max at (1, 1), p there 0.6 max: 0.9 max, finite)
    proved = ntk_bounded(ga, p, q)
    assert list(proved) == [True, False, False]
    with np.errstate(over="ignore"):
        ntk = np.empty((3, 2, 1, 2, 1))
        write_ntk(ntk, ga, p, q)
    assert np.isfinite(ntk[:2]).all() and not np.isfinite(ntk[2]).all()
    fields = {name: np.zeros((3, 1)) for name in ("beta", "outputs", "loss", "gram_a", "gram_w")}
    assert first_not_finite(dict(fields, ntk=ntk), proved) == (2, "ntk")
    first_two = {name: v[:2] for name, v in fields.items()}
    assert first_not_finite(dict(first_two, ntk=ntk[:2]), proved[:2]) is None
    fields["gram_w"][2, 0] = math.inf  # at one time the earlier field is named first
    assert first_not_finite(dict(fields, ntk=ntk), proved) == (2, "gram_w")
    nan = ntk_bounded(np.full((1, 1, 1), math.nan), np.zeros((1, 2, 2)), q)
    assert list(nan) == [False]  # (a nan proves nothing)


def _setup(c: int, d: int, h: int, delta: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    n = d + 1
    Qx, _ = np.linalg.qr(rng.normal(size=(n, d)))
    setup = kunin.WideSetup(1.0, 0.5, 2 * Qx, rng.normal(size=(n, c)))
    if delta >= 0:
        return setup, *kunin.wide_start(setup, delta, W=rng.normal(size=(h, d)))
    return setup, *kunin.wide_start(setup, delta, A=rng.normal(size=(h, c)))


def _same_bytes(one: StackedStates, other: StackedStates) -> None:
    for name in FIELDS:
        a, b = getattr(one, name), getattr(other, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        if a.dtype == object:
            assert all(v is None for v in a) and all(v is None for v in b), name
        else:
            assert a.tobytes() == b.tobytes(), name


def _reuse(traj, times) -> None:
    """A dirty ``out`` of as many times gets the bytes of a fresh sample and is returned."""
    fresh = traj.sample(times)
    out = traj.sample(np.linspace(0.0, 3.0, len(times)))
    for name in FIELDS:
        arr = getattr(out, name)
        if arr.dtype != object:
            arr.fill(np.nan)
    got = traj.sample(times, out=out)
    assert got is out
    _same_bytes(fresh, got)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wide_problems(), times_lists)
def test_out_gets_the_fresh_sample(problem, times):
    try:
        traj = kunin.wide_closed_form(*problem)
        traj.sample(times)
    except ValueError as exc:  # (a start on a saddle's stable manifold; a state out of range)
        assert "stable manifold" in str(exc) or "not finite" in str(exc)
        return
    _reuse(traj, times)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_problems(), times_lists)
def test_out_gets_the_fresh_sample_every_shape(problem, times):
    """The other shapes (echelon form), where A and W are often not determined."""
    try:
        traj = kunin.wide_closed_form(*problem[:3])
        traj.sample(times)
    except ValueError as exc:
        assert "stable manifold" in str(exc) or "not finite" in str(exc)
        return
    _reuse(traj, times)


@pytest.mark.parametrize(
    ("c", "d", "h", "delta", "weights"),
    [(1, 2, 1, 0.7, True), (3, 3, 2, 0.4, False), (3, 2, 2, -0.4, False)],
)
def test_out_with_and_without_weights(c, d, h, delta, weights):
    traj = kunin.wide_closed_form(*_setup(c, d, h, delta))
    times = [0.0, 0.5, 2.0, math.inf]
    got = traj.sample(times)
    assert (got.A.dtype != object) == weights
    _reuse(traj, times)


def test_out_refusals_name_the_field():
    traj = kunin.wide_closed_form(*_setup(1, 2, 1, 0.7))  # h = 1: A and W determined
    other = kunin.wide_closed_form(*_setup(3, 3, 2, 0.4))  # A and W not determined
    times = [0.0, 1.0, math.inf]
    out = traj.sample(times)
    with pytest.raises(TypeError, match="out must be the StackedStates of WideExactState"):
        traj.sample(times, out=out.arrays())
    with pytest.raises(TypeError, match="got StackedStates of State"):
        traj.sample(times, out=StackedStates(kunin.State, out.arrays()))
    shape = r"\(2,\) \(2 times, n = 3, c = 1, d = 2, h = 1\)"
    with pytest.raises(
        ValueError, match=r"out\.t must be a writeable float64 array of shape " + shape
    ):
        traj.sample(times[:2], out=out)

    def changed(**fields):
        return StackedStates(kunin.WideExactState, dict(out.arrays(), **fields))

    read_only = out.ntk.copy()
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match=r"out\.ntk must be .* got a read-only array"):
        traj.sample(times, out=changed(ntk=read_only))
    strided = np.empty((*out.ntk.shape, 2))[..., 0]
    with pytest.raises(ValueError, match=r"out\.ntk must be C-contiguous"):
        traj.sample(times, out=changed(ntk=strided))
    buf = np.empty(20)  # beta (3, 2, 1) and outputs (3, 3, 1) sharing entries 3..5
    with pytest.raises(ValueError, match=r"out\.beta and out\.outputs must not overlap"):
        traj.sample(times, out=changed(beta=buf[:6].reshape(3, 2, 1),
                                       outputs=buf[3:12].reshape(3, 3, 1)))  # fmt: skip
    with pytest.raises(TypeError, match=r"out\.A must be .* got dtype object"):
        traj.sample(times, out=changed(A=np.full(3, None, dtype=object)))
    o2 = other.sample(times)
    floats = StackedStates(kunin.WideExactState, dict(o2.arrays(), A=np.zeros((3, 2, 3))))
    message = r"out\.A must be a writeable object array of shape \(3,\) \(this trajectory"
    with pytest.raises(ValueError, match=message + " does not determine A"):
        other.sample(times, out=floats)
    with pytest.raises(TypeError, match=r"out\.delta must be .* got dtype object"):
        traj.sample(times, out=changed(delta=np.full(3, None, dtype=object)))
    ref = kunin.wide_closed_form(*_setup(1, 2, 1, 0.7), dps=20)
    with pytest.raises(ValueError, match="out must be None for dps=20"):
        ref.sample(times, out=out)
    assert traj.sample(times, out=out) is out  # (nothing was written by the refusals)


def test_out_refusal_of_a_state_out_of_range_is_the_fresh_one():
    """A state that leaves float64 is refused with ``out`` as without it (the same message,
    the first such time); ``out``'s other fields are left to the next call."""
    setup, A0, W0 = _setup(1, 3, 1, 0.0, seed=4)
    traj = kunin.wide_closed_form(setup, A0, W0)
    times = [1.0, 1e300, 1e301]
    try:
        traj.sample(times)
    except ValueError as exc:
        out = traj.sample([1.0, 2.0, 3.0])
        with pytest.raises(ValueError) as got:
            traj.sample(times, out=out)
        assert str(got.value) == str(exc)
    else:
        _reuse(traj, times)


def test_ntk_scan_where_the_bound_fails_changes_nothing(monkeypatch):
    """With the bound forced to prove nothing, every time's NTK is scanned: the same states
    (all finite)."""
    traj = kunin.wide_closed_form(*_setup(2, 3, 2, 0.4))
    times = [0.0, 0.3, 5.0, math.inf]
    fresh = traj.sample(times)
    calls = []

    def nothing_proved(ga, p, q):
        calls.append(len(ga))
        return np.zeros(len(ga), dtype=bool)

    monkeypatch.setattr(wide_sample, "ntk_bounded", nothing_proved)
    _same_bytes(fresh, traj.sample(times))
    assert calls == [len(times)]


def test_sample_ntk_overflow_is_named_as_at_names_it():
    """Data at the top of the float64 range: the NTK's ``eta_w X X^T (x) A^T A`` is about
    ``s delta = 1.9e308`` (beyond the largest double) at every time while the rates (about
    ``s delta / 2``), beta, the outputs, the loss and the Gram matrices stay finite;
    ``sample`` names the NTK at the first time, as ``at`` does."""
    setup = kunin.WideSetup(1.0, 1.0, 1e100 * np.eye(2), np.array([[1.0], [0.5]]))
    A0, W0 = kunin.wide_start(setup, 1.9e108, W=np.array([[1e-6, 0.0]]))
    traj = kunin.wide_closed_form(setup, A0, W0)
    with pytest.raises(ValueError) as at_err:
        traj.at(0.5)
    assert "ntk is not finite in float64 at t = 0.5" in str(at_err.value)
    with pytest.raises(ValueError) as got:
        traj.sample([0.5, 1.0])
    assert str(got.value) == str(at_err.value)
    out = kunin.wide_closed_form(*_setup(1, 2, 1, 0.7)).sample([0.0, 1.0])
    with pytest.raises(ValueError) as got:
        traj.sample(
            [0.5, 1.0],
            out=StackedStates(
                kunin.WideExactState,
                dict(out.arrays(), ntk=np.empty((2, 2, 1, 2, 1)), outputs=np.empty((2, 2, 1))),
            ),
        )
    assert str(got.value) == str(at_err.value)


def test_ntk_stack_of_no_times_is_empty():
    ga, gw, X = np.empty((0, 2, 2)), np.empty((0, 3, 3)), np.ones((4, 3))
    got = wide_ntk_stack(ga, gw, X, 1.0, 1.0)
    assert (
        got.shape == (0, 4, 2, 4, 2)
        and got.tobytes() == _wide_ntk_array(ga, gw, X, 1.0, 1.0).tobytes()
    )
    assert list(ntk_bounded(ga, np.empty((0, 4, 4)), np.ones((4, 4)))) == []
