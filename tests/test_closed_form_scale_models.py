"""Issue 17, target 1 for seeds 003 and 000: the fast float64 ``sample`` of
``kunin.Trajectory`` (single neuron) and ``linear_node_scaling.Trajectory`` against the path
before it (``_sample_reference``): bit-for-bit where the arithmetic is the same (kunin's ``t``,
``a``, ``w``, ``beta``), else within a rounding-error bound derived below; ``out=``
validation (the benchmark's ``--quick`` mode runs in ``tests/test_closed_form_scale.py``).  No
wall-clock time is asserted."""

from __future__ import annotations

import math
from fractions import Fraction
from unittest import mock

import mpmath
import numpy as np
import pytest
import threadpoolctl
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable.models import kunin
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models.kunin import _float64 as kunin_f64
from solvable.models.kunin import cases as kunin_cases
from solvable.models.kunin import expressions as kunin_expressions
from solvable.models.kunin import float64_sample as kunin_f64_sample
from solvable.models.kunin import frame as kunin_frame
from solvable.models.kunin import isotropic_data as kunin_isotropy
from solvable.models.kunin import setups as kunin_setups
from solvable.models.kunin import single_neuron as kunin_single
from solvable.models.linear_node_scaling import _evaluators as lns_evals
from solvable.models.linear_node_scaling import expressions as lns_expr
from solvable.models.linear_node_scaling import float64_sample as lns_f64
from solvable.models.linear_node_scaling import trajectory as lns_traj

U = 2.0**-53  # unit roundoff of float64


def _gamma(k: int) -> float:
    """Higham's gamma_k = k u / (1 - k u): the relative error bound of k roundings."""
    return k * U / (1 - k * U)


# the named times: 0, tiny, moderate, large, a time beyond the float64-safe exponent range
# (the 17-digit fallback for a stable start), and t = inf (the limit)
TIMES = np.concatenate([[0.0, 1e-300], np.geomspace(1e-6, 1e4, 157), [1e150, math.inf]])


# ---------------------------------------------------------------------------
# kunin
# ---------------------------------------------------------------------------
def _kunin_loss_bound(tr: kunin.Trajectory, ref: kunin.States) -> np.ndarray:
    """Per time, the largest difference between two float64 evaluations of the loss ``1/2
    |a X w - y|^2``: the reference forms ``X w`` from the stored ``w``, the fast path from
    ``w``'s coordinates in the plane ``(beta*-hat, c_perp)``.  Each computes ``f_i = a x_i . w``
    within ``gamma_{d+4} T_i`` of the exact value, ``T_i = |a| sw sum_j |X_ij| (|z_1 bhat_j| +
    |z_perp c_j|)`` (the terms of ``w`` before they are summed: d + 4 roundings along any
    association); so ``|df| <= 2 gamma_{d+4} T`` and ``|dL| <= |r| |df| + |df|^2 / 2`` plus
    the two sums' rounding ``2 gamma_{n+2} L``."""
    k = tr._data
    X, b, c, sw = k["X"], k["bhat"], k["cperp_vec"], k["sw"]
    c2 = float(c @ c)
    z1 = ref.w @ b / sw  # coordinates of the reference's w in the plane
    zp = ref.w @ c / (sw * c2) if c2 > 0 else np.zeros(len(ref.t))
    aX = np.abs(X)
    terms = np.abs(ref.a)[:, None] * sw * (np.abs(z1)[:, None] * (aX @ np.abs(b))
                                           + np.abs(zp)[:, None] * (aX @ np.abs(c)))  # fmt: skip
    df = 2 * _gamma(tr.setup.d + 4) * terms
    r = np.sqrt(2 * ref.loss)
    n = tr.setup.n
    bound = r * np.linalg.norm(df, axis=1) + 0.5 * np.sum(df**2, axis=1) \
        + 2 * _gamma(n + 2) * ref.loss  # fmt: skip
    if k["frame"] is None:  # the fast path evaluated the loss on the plane's data (O(n))
        return bound
    # The fast path evaluates the loss on the frame (kunin_frame._loss_frame, claim
    # kunin.loss_in_frame): exactly the loss on the plane's float64 data, whose distance from
    # the reference's is in the bound above; in floating point each entry of R and g is within
    # 2 u of exact, so v_i = a (R_i . c) - g_i is computed within eps_i = gamma_5 M_i, M_i = |a|
    # |R_i| . |c| + |g_i| (rounding of R, the two products and their sum, the product with a,
    # the difference), then 3 squares summed (gamma_3 of the sum); |v| <= sqrt(2 L_hi), L_hi
    # the reference's loss plus the bound above.
    R, g = k["frame"]
    cabs = np.stack([np.abs(ref.w @ b), np.abs(ref.w @ c) / c2 if c2 > 0 else 0 * ref.a], 1)
    M = np.abs(ref.a)[:, None] * (cabs @ np.abs(R).T) + np.abs(g)
    eps = _gamma(5) * (1 + 4 * U) * M
    L_hi = ref.loss + bound
    frame = np.sqrt(2 * L_hi) * np.linalg.norm(eps, axis=1) + 0.5 * np.sum(eps**2, axis=1)
    return bound + frame + _gamma(3) * (L_hi + frame)


def _check_kunin(tr: kunin.Trajectory, times: np.ndarray) -> None:
    new, ref = tr.sample(times), tr._sample_reference(times)
    for name in ("t", "a", "w", "beta"):
        assert np.array_equal(getattr(new, name), getattr(ref, name)), name
    assert new.delta == ref.delta
    bound = _kunin_loss_bound(tr, ref)
    assert np.all(np.abs(new.loss - ref.loss) <= bound), np.max(np.abs(new.loss - ref.loss) - bound)


@pytest.mark.parametrize("case", kunin.CASES, ids=lambda c: c.name)
def test_kunin_named_cases_match_the_reference(case):
    """Every named case (delta > 0, = 0, < 0, a = 0 and w = 0 at the origin, beta* = 0,
    Omega = 0, s = 4) at 0, tiny to large times, the fallback time and t = inf."""
    _check_kunin(kunin.closed_form(case.setup, case.a0, case.w0), TIMES)


def test_kunin_w_zero_and_untrusted_constants():
    """w0 = 0 with a0 != 0 (c_perp = 0, beta = 0 at t = 0); data of scale 1e25 (constants
    outside [1e-20, 1e20]: every time through the 17-digit fallback)."""
    c = kunin.case("upstream")
    _check_kunin(kunin.closed_form(c.setup, "0.7", ("0", "0")), TIMES)
    big = kunin.Setup("1", "0.5", tuple(tuple(f"{v}e25" for v in row) for row in kunin_cases._KX),
                      kunin_cases._KY)  # fmt: skip
    tr = kunin.closed_form(big, "0.3", ("0.1", "-0.4"))
    assert not tr._data["trusted"]
    _check_kunin(tr, TIMES[:20])


@pytest.mark.parametrize("threads", [1, 2])
def test_kunin_blocks_do_not_change_the_result(monkeypatch, threads):
    """Blocks of 3 times and coefficient chunks of 6 (boundaries everywhere, tails of every
    length) give the result of the default blocks, bit for bit; also when two threads
    (PARALLEL_SAMPLE lowered) fill the two halves of the chunks, each with its own scratch."""
    tr = kunin.closed_form(kunin.case("downstream").setup, "0.3", ("0.1", "-0.4"))
    whole = tr.sample(TIMES)
    monkeypatch.setattr(kunin_f64_sample, "_BLOCK_BYTES", 8 * 3 * 3)  # 3 times of max(n, d) = 3
    monkeypatch.setattr(
        kunin_f64_sample, "_COEFFICIENT_TIMES", 7
    )  # -> chunks of 6 (a multiple of 3)
    monkeypatch.setattr(
        kunin_f64_sample, "PARALLEL_SAMPLE", 1 if threads == 2 else kunin.PARALLEL_SAMPLE
    )
    small = tr.sample(TIMES)
    for name in ("t", "a", "w", "beta", "loss"):
        assert np.array_equal(getattr(small, name), getattr(whole, name)), name


@settings(max_examples=25, deadline=None)
@given(
    d=st.integers(1, 5),
    extra=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
    scale=st.floats(0.1, 10),
    eta=st.tuples(st.floats(0.05, 5), st.floats(0.05, 5)),
    a0=st.floats(-3, 3),
)
def test_kunin_property(d, extra, seed, scale, eta, a0):
    """Across dimensions, rates, scales and starts (both signs of delta): bit-for-bit a, w,
    beta, the loss within its rounding bound."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((d + extra, d)))
    setup = kunin.Setup(eta[0], eta[1], Q * scale, rng.standard_normal(d + extra))
    tr = kunin.closed_form(setup, a0, rng.standard_normal(d))
    _check_kunin(tr, np.concatenate([[0.0, math.inf], rng.uniform(0, 50, 40)]))


@pytest.mark.parametrize("d", [1, kunin_f64._ROWS_UP_TO, kunin_f64._ROWS_UP_TO + 1, 40])
@pytest.mark.parametrize("zero", [False, True])
def test_kunin_w_and_beta_in_either_layout(d, zero):
    """``_w_and_beta`` on ``(d, times)`` rows (d <= ``_ROWS_UP_TO``) and on ``(times, d)``
    blocks (above): both sides of the switch, bit for bit the reference's w and beta (signed
    zeros included: ``zero`` makes the first entry of beta* and of w0 exactly 0, so that
    beta-hat and c_perp have a zero entry); finite times only (the sample's path where every
    time is float64-safe) and the same times with 1e150 and +inf (the per-time path)."""
    rng = np.random.default_rng(d)
    Q, _ = np.linalg.qr(rng.standard_normal((d + 3, d)))
    y, w0 = rng.standard_normal(d + 3), rng.standard_normal(d)
    if zero:  # X = 2 [I; 0] (exactly isotropic): beta* = X^T y / 4 has beta*_0 = y_0 / 2 = 0
        Q, y[0], w0[0] = np.eye(d + 3, d), 0.0, 0.0
    tr = kunin.closed_form(kunin.Setup(0.7, 1.3, 2.0 * Q, y), -0.4, w0)
    times = np.linspace(0.0, 30.0, 1001)
    for ts in (times, np.concatenate([times, [1e150, math.inf]])):
        _check_kunin(tr, ts)
        new, ref = tr.sample(ts), tr._sample_reference(ts)
        assert np.array_equal(np.signbit(new.beta), np.signbit(ref.beta))
    if zero:  # (the zeros are there: w_0 = 0 and beta_0 = a w_0 carries a's sign)
        assert np.all(new.w[:, 0] == 0) and np.any(np.signbit(new.beta[:, 0]))


def test_kunin_the_largest_time_decides_the_float64_safe_times():
    """The sample takes every time as float64-safe when its largest time is (each test
    grows with t).  A start on the stable manifold (``c_+ = 0``: a0 = 0, w0 perpendicular to
    beta*) has no unstable term to keep phi normal, so times with ``(2 Omega + |delta|) t >
    250`` go to the 17-digit fallback: both sides, a largest time of 10 (every time fast) and
    of 1000 (the late ones fall back), bit for bit the reference and the start at every
    time (this start never moves)."""
    case = kunin.case("upstream")
    tr = kunin.closed_form(case.setup, 0.0, (-0.2, 0.4))
    for top, fallback in ((10.0, False), (1000.0, True)):
        times = np.linspace(0.0, top, 201)
        _check_kunin(tr, times)
        with mock.patch.object(kunin.Trajectory, "_float64", autospec=True,
                               side_effect=kunin.Trajectory._float64) as slow:  # fmt: skip
            s = tr.sample(times)
        assert slow.called == fallback, top
        assert np.all(s.a == 0) and np.allclose(s.w, [-0.2, 0.4], rtol=4 * 2.0**-52, atol=0)
    # the largest time anywhere, not the last one (times need not be sorted): 1e150 first,
    # then times up to 10, goes to the fallback at 1e150 (outsider mutant top = tf[-1])
    unsorted = np.concatenate([[1e150], np.linspace(0.0, 10.0, 51)])
    moving = kunin.closed_form(case.setup, 0.3, (-0.2, 0.4))  # (c_+ != 0: late times fast)
    for times in (unsorted, np.concatenate([[1e150, math.inf], np.linspace(0.0, 10.0, 51)])):
        with mock.patch.object(kunin.Trajectory, "_float64", autospec=True,
                               side_effect=kunin.Trajectory._float64) as slow:  # fmt: skip
            moving.sample(times)
        assert slow.called  # (1e150 > 1e100: beyond the float64-safe times)
        _check_kunin(moving, times)
    _check_kunin(tr, unsorted)  # (and the start at rest: 1e150 is not refused)


def _poisoned(real, edit):
    """``real`` (a chunk's coefficient evaluator) whose ``z_a, z_1, z_perp`` on a chunk's
    times ``tf`` (writeable copies) ``edit(tf, za, z1, zp)`` changes in place: a state beyond
    float64 where the edit puts one."""

    def poisoned(coeffs, consts, lim, tf, *rest, **kw):
        out = real(coeffs, consts, lim, tf, *rest, **kw)
        if kw.get("last"):
            return out
        za, z1, zp = (np.array(np.broadcast_to(v, tf.shape)) for v in out)
        edit(tf, za, z1, zp)
        return [za, z1, zp]

    return poisoned


@pytest.mark.parametrize("half", ["first", "second", "neither"])
def test_kunin_a_state_beyond_float64_in_either_thread_is_refused(monkeypatch, half):
    """Two threads fill the two halves of the times (PARALLEL_SAMPLE lowered): a non-finite
    a in either half (injected into z_a) is refused, not returned, and with neither the
    sample is the one thread's bit for bit (outsider mutant: the halves' verdicts merged with
    any)."""
    tr = kunin.closed_form(kunin.case("downstream").setup, "0.3", ("0.1", "-0.4"))
    times = np.linspace(0.0, 9.0, 40)
    whole = tr.sample(times)
    monkeypatch.setattr(kunin_f64_sample, "PARALLEL_SAMPLE", 1)
    monkeypatch.setattr(kunin_f64_sample, "_BLOCK_BYTES", 8 * 3 * 3)  # 3 times a block
    monkeypatch.setattr(kunin_f64_sample, "_COEFFICIENT_TIMES", 7)  # chunks of 6 times
    pick = {"first": lambda t: t == times[1], "second": lambda t: t == times[-2],
            "neither": lambda t: np.zeros(t.shape, dtype=bool)}[half]  # fmt: skip

    def nan_in_a(tf, za, z1, zp):
        za[pick(tf)] = np.nan

    monkeypatch.setattr(kunin_f64_sample, "_chunk_coefficients",
                        _poisoned(kunin_f64_sample._chunk_coefficients, nan_in_a))  # fmt: skip
    if half == "neither":
        got = tr.sample(times)
        assert all(np.array_equal(getattr(got, k), getattr(whole, k))
                   for k in ("t", "a", "w", "beta", "loss"))  # fmt: skip
    else:
        with pytest.raises(ValueError, match="the state's a exceeds the float64 range"):
            tr.sample(times)


@pytest.mark.parametrize("where", [0, 4, 5])
def test_kunin_a_loss_beyond_float64_anywhere_in_a_chunk_is_refused(monkeypatch, where):
    """The loss is checked on the whole chunk, not its last block: an inf loss at the
    chunk's first time, inside its first block of 3 or at its last time (chunks of 6) is
    refused (outsider mutant: the check read the last block only).  Whitened random data:
    the loss on the plane's frame (the named cases' exactly isotropic data take the loss
    from the minimum instead)."""
    rng = np.random.default_rng(3)
    Q, _ = np.linalg.qr(rng.standard_normal((6, 3)))
    tr = kunin.closed_form(kunin.Setup(0.7, 1.3, 2.0 * Q, rng.standard_normal(6)), -0.4,
                           rng.standard_normal(3))  # fmt: skip
    monkeypatch.setattr(kunin_f64_sample, "_BLOCK_BYTES", 8 * 3 * 3)  # 3 times a block
    monkeypatch.setattr(kunin_f64_sample, "_COEFFICIENT_TIMES", 7)  # chunks of 6 times
    real = kunin_f64_sample._frame_loss

    def frame_loss(nonzero):
        fn = real(nonzero)

        def poisoned(*args):
            out = np.array(fn(*args), dtype=float)
            out[where] = np.inf
            return out

        return poisoned

    times = np.linspace(0.0, 9.0, 12)
    assert np.all(np.isfinite(tr.sample(times).loss))
    assert tr._data["frame"] is not None and tr._data["minimum"] is None  # (the frame's path)
    monkeypatch.setattr(kunin_f64_sample, "_frame_loss", frame_loss)
    with pytest.raises(ValueError, match="the state's loss exceeds the float64 range"):
        tr.sample(times)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 40),
    shape=st.sampled_from(["generic", "multiple", "near", "first_zero", "second_zero", "zero"]),
    seed=st.integers(0, 2**32 - 1),
    scale=st.integers(-60, 60),
)
def test_kunin_loss_frame_is_the_gram_to_rounding(n, shape, seed, scale):
    """``kunin_frame._loss_frame`` of float64 data ``B`` (n, 2), ``y``: ``R^T R = B^T B``, ``R^T g =
    B^T y`` and ``g^T g = y^T y`` (what makes the loss on the frame the loss on ``B``, claim
    kunin.loss_in_frame) against the exact rational Gram, entry by entry within the rounding
    of ``R``, ``g`` (2 u each, the 40-digit value rounded) and of nothing else: ``|R^T R - G|
    <= 5 u |R|^T |R|`` and likewise (the exact products of the float entries).  Every shape the
    float64 path meets: generic columns, one an exact multiple of the other (rank one),
    nearly parallel (a tiny Cholesky pivot), either column zero, both zero; the kind
    chosen is the one the exact Gram implies."""
    rng = np.random.default_rng(seed)
    u, v = rng.standard_normal(n) * 2.0**scale, rng.standard_normal(n) * 2.0**scale
    v = {"generic": v, "multiple": -0.25 * u, "near": u * 3 + 1e-9 * v, "first_zero": v,
         "second_zero": 0 * v, "zero": 0 * v}[shape]  # fmt: skip
    u = 0 * u if shape in ("first_zero", "zero") else u
    B, y = np.stack([u, v], 1), rng.standard_normal(n)
    R, g = kunin_frame._loss_frame(B, y)
    F = Fraction
    G = [[sum(F(p) * F(q) for p, q in zip(B[:, i], B[:, j], strict=True)) for j in range(2)]
         for i in range(2)]  # fmt: skip
    h = [sum(F(p) * F(q) for p, q in zip(B[:, i], y, strict=True)) for i in range(2)]
    yy = sum(F(q) ** 2 for q in y)
    kind, swap = kunin_frame._frame_kind(G[0][0], G[0][1], G[1][1])
    expect = {"generic": "full", "near": "full", "multiple": "rank_one", "first_zero":
              "rank_one", "second_zero": "rank_one", "zero": "zero"}[shape]  # fmt: skip
    if n == 1 and expect == "full":  # two columns of one row are parallel
        expect = "rank_one"
    assert kind == expect and swap == (shape == "first_zero")
    tol = 5 * U
    for i in range(2):
        for j in range(2):
            got = sum(F(R[k, i]) * F(R[k, j]) for k in range(3))
            assert abs(got - G[i][j]) <= F(tol) * sum(F(abs(R[k, i] * R[k, j])) for k in range(3))
        got = sum(F(R[k, i]) * F(g[k]) for k in range(3))
        assert abs(got - h[i]) <= F(tol) * sum(F(abs(R[k, i] * g[k])) for k in range(3))
    assert abs(sum(F(q) ** 2 for q in g) - yy) <= F(tol) * sum(F(q) ** 2 for q in g)
    assert np.all(R[2] == 0) and R[1, 0] == 0 if not swap else R[1, 1] == 0


def test_kunin_loss_frame_refused_out_of_range():
    """Data whose frame would not be normal floats below 2^500 (entries near 1e200, or
    1e-300), or that are not finite, give no frame (``None``): the sample then takes the loss
    on the plane's data, and still matches the reference."""
    rng = np.random.default_rng(4)
    B, y = rng.standard_normal((5, 2)), rng.standard_normal(5)
    assert kunin_frame._loss_frame(B, y) is not None
    assert kunin_frame._loss_frame(B * 1e200, y) is None
    assert kunin_frame._loss_frame(B * 1e-300, y * 1e-300) is None
    Bn = B.copy()
    Bn[1, 1] = np.nan  # (the plane of data beyond float64: the fallback's case)
    assert kunin_frame._loss_frame(Bn, y) is None and kunin_frame._loss_frame(B, y * np.inf) is None
    Q, _ = np.linalg.qr(rng.standard_normal((5, 2)))
    tr = kunin.closed_form(kunin.Setup(1.0, 0.5, Q * 1e152, rng.standard_normal(5) * 1e152),
                           0.3, [0.1, -0.2])  # fmt: skip
    _check_kunin(tr, TIMES[:40])
    assert tr._data["frame"] is None
    # trusted constants with a frame out of range: w0 off beta*'s line by 1e-160 (R_22 ~ 1e-160)
    X = ((2.0, 0.0), (0.0, 2.0), (0.0, 0.0))
    tr = kunin.closed_form(kunin.Setup(1.0, 0.5, X, (1.0, 0.0, 0.5)), 0.3, [0.4, 1e-160])
    _check_kunin(tr, TIMES)
    assert tr._data["frame"] is None and tr._data["trusted"]
    # the same, isotropic only to 1e-19 (so no exact least loss): the loss from the plane's
    # data X [beta*-hat, c_perp] per time (O(n)), not from X itself
    X = ((2.0, 0.0), (0.0, 2.0), (1e-9, 0.0))
    tr = kunin.closed_form(kunin.Setup(1.0, 0.5, X, (1.0, 0.0, 0.5)), 0.3, [0.4, 1e-160])
    _check_kunin(tr, TIMES)
    assert tr._data["frame"] is None and tr._data["trusted"] and tr._data["minimum"] is None


def test_piecewise_resolved_once_and_same_arithmetic():
    """The coefficient evaluator for each sign of delta contains no ``select`` (only the
    piece that applies is evaluated) and equals the Piecewise evaluator bit for bit, at
    delta = 0.0, -0.0 and both signs."""
    S = kunin.symbolic()
    ev = kunin_expressions._evaluators("numpy")["coeffs"]
    rng = np.random.default_rng(3)
    t = rng.uniform(0, 30, 200)
    assert kunin_f64._piece_choice(0.0) == (True,) and kunin_f64._piece_choice(-0.0) == (True,)
    assert kunin_f64._piece_choice(-1e-300) == (False,)
    for delta in (0.0, -0.0, 0.7, -0.7, -1e-12):
        kappa, Y = 0.8, 1.3
        Omega = math.sqrt(delta**2 / 4 + kappa**2 * Y**2)
        args = (delta, kappa, Y, Omega, 0.4, -0.2, 0.3, 0.6, 0.8)
        fast = kunin_f64._resolved_coefficients(kunin_f64._piece_choice(delta))
        assert "select" not in fast.__code__.co_names
        for x, y in zip(fast(*args, t), ev(*args, t), strict=True):
            assert np.array_equal(x, y)
    assert S.delta in set().union(*(c.free_symbols for c in kunin_f64._coefficient_conditions()))


def test_kunin_out_is_filled_and_returned():
    tr = kunin.closed_form(kunin.case("upstream").setup, "1.2", ("0.2", "0.3"))
    out = tr.sample(TIMES)
    again = tr.sample(TIMES[::-1].copy(), out=out)
    assert again is out
    ref = tr.sample(TIMES[::-1].copy())
    for name in ("t", "a", "w", "beta", "loss"):
        assert np.array_equal(getattr(out, name), getattr(ref, name)), name
    other = kunin.closed_form(kunin.case("downstream").setup, "0.3", ("0.1", "-0.4"))
    res = other.sample(TIMES, out=out)  # another delta: the arrays reused, delta replaced
    assert res.w is out.w and res.delta == other.delta


def _states(T, d, **over):
    fields = dict(t=np.empty(T), a=np.empty(T), w=np.empty((T, d)), beta=np.empty((T, d)),
                  delta=0.0, loss=np.empty(T))  # fmt: skip
    fields.update(over)
    return kunin.States(**fields)


@pytest.mark.parametrize(
    "make, exc, match",
    [
        (lambda T, d: {"w": np.zeros(3)}, TypeError, r"out must be a kunin.States"),
        (lambda T, d: _states(T, d, w=np.empty((T, d), dtype=np.float32)), TypeError,
         r"out.w must be a writeable float64 array of shape \(\d+, 2\), got dtype float32"),
        (lambda T, d: _states(T, d, beta=np.empty((T, d + 1))), ValueError,
         r"out.beta must be .* shape \(\d+, 2\), got shape"),
        (lambda T, d: _states(T, d, loss=[0.0] * T), TypeError, r"out.loss must be .* got list"),
        (lambda T, d: _states(T, d, t=np.broadcast_to(0.0, (T,))), ValueError,
         r"out.t must be .* read-only"),
        (lambda T, d: _states(T, d, beta=(w := np.empty((T, d))), w=w), ValueError,
         r"out.w and out.beta must not overlap"),
    ],
)  # fmt: skip
def test_kunin_bad_out(make, exc, match):
    tr = kunin.closed_form(kunin.case("upstream").setup, "1.2", ("0.2", "0.3"))
    with pytest.raises(exc, match=match):
        tr.sample(TIMES, out=make(len(TIMES), 2))


def test_out_needs_float64():
    c = kunin.case("upstream")
    tr = kunin.closed_form(c.setup, c.a0, c.w0, dps=20)
    with pytest.raises(ValueError, match="out must be None for dps=20"):
        tr.sample([1.0], out=_states(1, 2))


def test_kunin_bad_times_still_named():
    tr = kunin.closed_form(kunin.case("upstream").setup, "1.2", ("0.2", "0.3"))
    with pytest.raises(ValueError, match="t must be >= 0"):
        tr.sample(np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match=r"t\[1\] must be finite"):
        tr.sample(np.array([1.0, np.nan]))


# ---------------------------------------------------------------------------
# linear_node_scaling
# ---------------------------------------------------------------------------
def _lns(n, d, m, seed, eta=0.5):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, d)), rng.standard_normal(n)
    lam, a = rng.uniform(0.1, 1, m), rng.choice([-1.0, 1.0], m)
    W0 = rng.standard_normal((m, d))
    return lns.closed_form(ns.Setup(X, y, lam, "linear", eta), a, W0), X, y, lam, a, W0


def _lns_bounds(tr, times, X, y, lam, a, W0):
    """Componentwise bounds on the difference of two float64 evaluations of ``W(t)``, ``f(t)``
    and the loss that associate the same products differently (the reference left to right
    on (T, k, k) mode matrices, the fast path right to left on diagonals): a product chain
    ``A_1 ... A_p`` of inner dimensions summing to ``L`` is computed in any order within
    ``gamma_L |A_1| ... |A_p|`` (Higham, Accuracy and Stability, section 3.5), so two orders
    differ by at most twice that; the additions of the y- and W_0-parts and of W_0 round
    each once more (``4 u`` of their absolute sum).  ``L``: every inner dimension of the
    longest chain (``k`` four times, ``n``, ``m``, ``d`` and 1s), with a margin of 8."""
    n, d = X.shape
    m = len(a)
    U_, D, V = tr.svd.U, tr.svd.D, tr.svd.V
    k = len(D)
    sa = np.sqrt(lam) * a
    g = -np.expm1(-np.multiply.outer(times, tr.rates))  # (T, k); t = inf gives 1
    h = np.exp(-np.multiply.outer(times, tr.rates))
    gam = 2 * _gamma(4 * k + n + m + d + 8)
    aU, aV = np.abs(U_), np.abs(V)
    # c(t) = V G V^T (sqrt(d) V D^-1 U^T y - W0^T sa) / S: the chain's absolute values
    b_abs = math.sqrt(d) * aV @ ((aU.T @ np.abs(y)) / D) + np.abs(W0).T @ np.abs(sa)
    c_abs = (np.abs(g) * (aV.T @ b_abs)) @ aV.T / tr.S  # (T, d)
    dW = gam * np.abs(sa)[None, :, None] * c_abs[:, None, :]
    # f(t) = U E D V^T beta0 / sqrt(d) + U G U^T y; the residual y - U U^T y + U E (U^T y - ..)
    f0 = D * (aV.T @ (np.abs(W0).T @ np.abs(sa))) / math.sqrt(d)  # (k,)
    uy = aU.T @ np.abs(y)
    df = gam * ((np.abs(h) * f0) @ aU.T + (np.abs(g) * uy) @ aU.T)
    dr = gam * (np.abs(y) + aU @ uy + (np.abs(h) * (uy + f0)) @ aU.T)
    return dW, df, dr


@pytest.mark.parametrize("shape", [(3, 4, 2), (6, 3, 5), (10, 20, 7), (1, 1, 1), (4, 2, 9)])
def test_lns_matches_the_reference(shape):
    tr, X, y, lam, a, W0 = _lns(*shape, seed=sum(shape))
    # 1e-300: boosted modes (fused); 1e-310: subnormal parts (the two parts apart)
    times = np.concatenate([[0.0, 1e-300, 1e-310], np.geomspace(1e-4, 1e3, 37),
                            [1e300, math.inf]])  # fmt: skip
    new, ref = tr.sample(times), tr._sample_reference(times)
    assert np.array_equal(new.t, ref.t) and new.a is tr.a
    dW, df, dr = _lns_bounds(tr, times, X, y, lam, a, W0)
    absW = np.abs(W0)[None] + np.abs(ref.W)
    assert np.all(np.abs(new.W - ref.W) <= dW + 4 * U * (absW + dW))
    assert np.all(np.abs(new.f - ref.f) <= df + 4 * U * (np.abs(ref.f) + df))
    r = np.sqrt(2 * ref.loss)
    dL = r * np.linalg.norm(dr, axis=1) + 0.5 * np.sum(dr**2, axis=1) \
        + 2 * _gamma(len(y) + 2) * ref.loss  # fmt: skip
    assert np.all(np.abs(new.loss - ref.loss) <= dL)


def test_lns_fused_assembly_only_where_exact(fusable_verdicts, monkeypatch):
    """``W = W_0 + u c^T``, ``c = (V G p) 2^e`` (both parts' mode coefficients added first)
    at the times whose rescaling and products are normal floats; at the others (subnormal
    parts: t = 1e-310, and a node starting at W_0 = 0, where a subnormal rounding is not
    within any relative bound) the two parts separately, bit for bit what the path without
    fusion gives; the fused times within the reference's bound
    (test_lns_matches_the_reference)."""
    tr, X, y, lam, a, W0 = _lns(4, 3, 5, seed=5)
    W0 = W0.copy()
    W0[2] = 0.0
    tr = lns.closed_form(ns.Setup(X, y, lam, "linear", 0.5), a, W0)
    times = np.array([0.0, 1e-300, 1e-310, 5e-324, 1e-3, 2e-310, 1.0, math.inf])
    seen = fusable_verdicts
    new = tr.sample(times)
    expect = np.array([True, True, False, False, True, False, True, True])
    assert np.array_equal(np.concatenate(seen), expect)
    never = lambda self, *args: np.zeros(len(args[0]), dtype=bool)  # noqa: E731
    monkeypatch.setattr(lns.Trajectory, "_fusable", never)
    apart = tr.sample(times)
    assert np.array_equal(new.W[~expect], apart.W[~expect])
    assert not np.array_equal(new.W[expect], apart.W[expect])  # the fused rows did change
    dW, _, _ = _lns_bounds(tr, times, X, y, lam, a, W0)
    absW = np.abs(W0)[None] + np.abs(apart.W)
    assert np.all(np.abs(new.W - apart.W) <= dW + 4 * U * (absW + dW))


def test_lns_blocks_do_not_change_the_result(monkeypatch):
    tr = _lns(5, 4, 3, seed=7)[0]
    times = np.linspace(0, 9, 23)
    whole = tr.sample(times)
    monkeypatch.setattr(lns_f64, "_BLOCK_BYTES", 8 * 4 * 3 * 2)  # 2 times of m d = 12
    small = tr.sample(times)
    for name in ("t", "W", "f", "loss"):
        assert np.array_equal(getattr(small, name), getattr(whole, name)), name


def test_lns_rank_one_is_delta_W_t():
    """The fast path's ``rank_one`` of ``c_t`` is, as a sympy expression, ``delta_W_t``
    (the transpose of the product distributed by ``doit``)."""
    S = lns.symbolic()
    assert lns_expr._rank_one(lns_expr._C).subs(lns_expr._C, S.c_t).doit() == S.delta_W_t


def test_lns_fast_outer_products():
    """The fast path's ``outer`` (``_outer``) is the broadcast product entry by entry, bit
    for bit, signed zeros aside (einsum's zeroed output makes -0.0 a +0.0).  (Its matrix
    products stay numpy's stacked ones, a product per time: one matrix product over the
    chunk of times made a state depend on the other times sampled with it.)"""
    rng = np.random.default_rng(7)
    col, rows = rng.standard_normal((4, 1)), rng.standard_normal((6, 1, 5))
    col[1], rows[2, 0, 3] = 0.0, -0.0
    out, ref = lns_evals._outer(col, rows), col * rows
    assert out.shape == ref.shape == (6, 4, 5) and np.array_equal(out, ref)
    assert np.array_equal(np.signbit(out), np.signbit(ref) & (ref != 0))


def test_lns_out():
    tr = _lns(5, 4, 3, seed=2)[0]
    times = np.linspace(0, 5, 11)
    out = tr.sample(times)
    assert tr.sample(times[::-1].copy(), out=out) is out
    ref = tr.sample(times[::-1].copy())
    for name in ("t", "W", "f", "loss"):
        assert np.array_equal(getattr(out, name), getattr(ref, name)), name
    bad = lns.States(t=out.t, W=out.W[:, :, :2].copy(), a=out.a, f=out.f, loss=out.loss)
    with pytest.raises(ValueError, match=r"out.W must be .* shape \(11, 3, 4\), got shape"):
        tr.sample(times, out=bad)
    bad = lns.States(t=out.t, W=out.W, a=out.a, f=out.f.astype(np.float32), loss=out.loss)
    with pytest.raises(TypeError, match=r"out.f must be .* float64 .* got dtype float32"):
        tr.sample(times, out=bad)
    bad = lns.States(t=out.t, W=out.W, a=out.a, f=out.f, loss=out.t)
    with pytest.raises(ValueError, match=r"out.t and out.loss must not overlap"):
        tr.sample(times, out=bad)
    with pytest.raises(TypeError, match=r"out must be a linear_node_scaling\.States"):
        tr.sample(times, out=object())
    mp = lns.closed_form(tr.setup, tr.a.tolist(), tr.W0.tolist(), dps=15)
    with pytest.raises(ValueError, match="out must be None for dps=15"):
        mp.sample([1.0], out=out)


# ---------------------------------------------------------------------------
# kunin construction at scale (B2): vectorised Setup validation, float64 isotropy
# ---------------------------------------------------------------------------
def _reference_verdict(setup, rtol, dps=None):
    """The verdict and ``s`` of the 50-digit reference :func:`kunin.isotropy`."""
    s, dev = kunin.isotropy(setup, max(50, (dps or 17) + 20))
    return bool(s > 0 and not dev > rtol * s), s, dev


def _closed_form_verdict(setup, rtol, dps=None):
    try:
        tr = kunin.closed_form(setup, 0.3, [0.1] * setup.d, dps=dps, isotropy_rtol=rtol)
    except ValueError as err:
        return False, str(err)
    return True, tr


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(1, 12),
    dcut=st.integers(0, 11),
    seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(["isotropic", "perturbed", "random"]),
    scale=st.floats(1e-3, 1e3),
    rtol_kind=st.sampled_from(["default", "whitening", "1e-13", "zero"]),
    dps=st.sampled_from([None, 20]),
)
def test_isotropy_verdicts_match_the_reference(n, dcut, seed, kind, scale, rtol_kind, dps):
    """The float64 decision gives the reference's verdict, ``s`` (the trajectory's, bit for
    bit at float64) and refusal message, on whitened, perturbed and random data."""
    d = max(1, n - dcut)
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, d)))
    X = scale * Q
    if kind == "perturbed":
        X = X + scale * rng.standard_normal(X.shape) * 10.0 ** rng.uniform(-16, -11)
    elif kind == "random":
        X = scale * rng.standard_normal((n, d))
    setup = kunin.Setup(1.0, 0.5, X, rng.standard_normal(n))
    unit = 2.0**-52 if dps is None else 10.0**-dps
    rtol = {"default": None, "whitening": kunin.whitening_rtol(n), "1e-13": 1e-13,
            "zero": 0.0}[rtol_kind]  # fmt: skip
    ref_rtol = kunin_isotropy._default_rtol(X.ravel().tolist(), unit, n) if rtol is None else rtol
    ok, s, dev = _reference_verdict(setup, ref_rtol, dps)
    got_ok, got = _closed_form_verdict(setup, rtol, dps)
    assert got_ok == ok
    if ok:
        # the trajectory built from the reference's s (at dps: rounded as _build rounds it)
        assert got.s == kunin_single._build(setup, 0.3, (0.1,) * d, dps, s).s
    else:
        assert f"= {mpmath.nstr(dev, 3)} with s = {mpmath.nstr(s, 6)}" in got


def test_isotropy_at_the_threshold_and_exact_data():
    """``isotropy_rtol`` just above / below the data's own defect (the float64 bounds cannot
    decide: the reference does, and the verdict flips exactly there); exact decimal data
    (strings: the reference path) and small integers."""
    rng = np.random.default_rng(5)
    Q, _ = np.linalg.qr(rng.standard_normal((30, 8)))
    X = 3 * Q + 1e-13 * rng.standard_normal((30, 8))
    setup = kunin.Setup(1.0, 0.5, X, rng.standard_normal(30))
    s, dev = kunin.isotropy(setup)
    ratio = float(dev / s)
    assert _closed_form_verdict(setup, ratio * (1 + 1e-12))[0]
    assert not _closed_form_verdict(setup, ratio * (1 - 1e-12))[0]
    exact = kunin.Setup("1", "0.5", (("0.6", "0.8"), ("-0.8", "0.6")), ("1", "2"))
    assert kunin.closed_form(exact, 1, ("0.1", "0.2")).s == 1.0
    ints = kunin.Setup(1, 1, np.array([[3, 4], [-4, 3]]), (1, 2))
    assert kunin_setups._float64_X(ints) is not None
    assert kunin.closed_form(ints, 1, (0.1, 0.2)).s == 25.0
    off = kunin.Setup(1, 1, ((3, 4), (-4, 3), (1, 0)), (1, 2, 3))
    with pytest.raises(ValueError, match=r"= 0\.5 with s = 25\.5"):
        kunin.closed_form(off, 1, (0.1, 0.2))


def test_isotropy_decided_in_float64_without_the_reference(monkeypatch):
    """Whitened float data at d = 60 is accepted (and non-isotropic data refused) without
    the O(n d^2) 50-digit reference; ``s`` is the reference's."""
    rng = np.random.default_rng(9)
    Q, _ = np.linalg.qr(rng.standard_normal((80, 60)))
    setup = kunin.Setup(1.0, 0.5, 2 * Q, rng.standard_normal(80))
    s_ref = float(kunin_isotropy._trace(setup, 50))
    bad = kunin.Setup(1.0, 0.5, 2 * Q + 1e-6 * rng.standard_normal((80, 60)),
                      rng.standard_normal(80))  # fmt: skip

    def refuse(*args, **kwargs):
        raise AssertionError("the 50-digit reference was called")

    monkeypatch.setattr(kunin_isotropy, "isotropy", refuse)
    assert kunin.closed_form(setup, 0.3, 0.1 * rng.standard_normal(60)).s == s_ref
    with pytest.raises(ValueError, match="isotropic columns"):
        kunin.closed_form(bad, 0.3, 0.1 * rng.standard_normal(60))


def test_setup_array_fast_path_same_as_generic():
    """A float or int ndarray X gives the tuples (and types) of the generic path; a bad
    entry is still named as the generic path names it."""
    rng = np.random.default_rng(2)
    for X in (rng.standard_normal((4, 3)), rng.integers(-5, 5, (4, 3)),
              rng.standard_normal((4, 3)).astype(np.float32)):  # fmt: skip
        fast = kunin.Setup(1, 1, X, np.ones(4))
        generic = kunin.Setup(1, 1, X.tolist(), np.ones(4))
        assert fast.X == generic.X
        assert [type(v) for r in fast.X for v in r] == [type(v) for r in generic.X for v in r]
        assert np.array_equal(kunin_setups._float64_X(fast), kunin_setups._float64_X(generic))
    X = np.ones((3, 2))
    X[1, 0] = np.nan
    with pytest.raises(ValueError, match=r"X\[1,0\] must be finite"):
        kunin.Setup(1, 1, X, np.ones(3))
    with pytest.raises(ValueError, match="y has length 2 but X has 3 rows"):
        kunin.Setup(1, 1, np.ones((3, 2)), np.ones(2))
    assert kunin_setups._float64_X(kunin.Setup(1, 1, ((2**60, 1),), (1,))) is None


@pytest.mark.parametrize("threads", [1, 2])
def test_lns_chunks_and_blocks_with_underflowing_rows(monkeypatch, threads):
    """Chunks of 6 times and W blocks of 2 (boundaries everywhere) with times 1e-300 (rows
    whose modes underflow: boosted) spread over the chunk: bit for bit the default; also
    when two threads (PARALLEL_SAMPLE lowered) fill the two halves of the chunks."""
    tr = _lns(5, 4, 3, seed=11)[0]
    times = np.linspace(0, 9, 29)
    times[[1, 4, 9, 14, 22, 27]] = 1e-300
    times[[3, 10, 16]] = 1e-310  # subnormal parts: the two-part path, in a W block after the first
    whole = tr.sample(times)
    monkeypatch.setattr(lns_f64, "_BLOCK_BYTES", 8 * 4 * 3 * 2)  # 2 times of m d = 12
    monkeypatch.setattr(lns_f64, "_CHUNK_TIMES", 7)  # -> chunks of 6 (a multiple of 2)
    monkeypatch.setattr(lns_f64, "PARALLEL_SAMPLE", 1 if threads == 2 else lns.PARALLEL_SAMPLE)
    small = tr.sample(times)
    for name in ("t", "W", "f", "loss"):
        assert np.array_equal(getattr(small, name), getattr(whole, name)), name


@settings(max_examples=25, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 70), st.integers(1, 9)),
    seed=st.integers(0, 2**32 - 1),
    spread=st.floats(0, 30),
    chunk=st.sampled_from([kunin_isotropy._SQUARES_CHUNK, 1, 5, 64]),
)
def test_sum_of_squares_interval_holds_the_exact_sum(shape, seed, spread, chunk):
    """``kunin_isotropy._sum_of_squares``: ``|sum x^2 - F| <= B`` against the exact rational sum,
    with entries spread over ``2^+-spread`` and ``B`` at most 1e-25 of the sum (what the
    float64 ``s`` needs to round as the 50-digit one does); the chunk of squares the
    package's (one chunk, padded) or smaller (many chunks, the last one padded or not)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal(shape) * 2.0 ** rng.uniform(-spread, spread, shape)
    with mock.patch.object(kunin_isotropy, "_SQUARES_CHUNK", chunk):
        F, B = kunin_isotropy._sum_of_squares(X)
    exact = sum(Fraction(v) ** 2 for v in X.ravel().tolist())
    assert abs(exact - F) <= Fraction(B)
    assert B <= 1e-25 * float(exact)


@pytest.mark.parametrize("n, d, small", [(5, 4, True), (200, 50, True), (1000, 100, False),
                                          (100, 1000, False), (40, 1000, True),
                                          (60, 1000, False), (500, 250, True),
                                          (500, 300, False)])  # fmt: skip
def test_lns_construction_runs_small_blas_work_on_one_thread(monkeypatch, n, d, small):
    """``closed_form``'s SVD of X and projector run BLAS on one thread where that work is
    small (``n d max(n, d) + d^2 min(n, d)`` below ``SMALL_BLAS`` multiply-adds, 1e8), and as
    configured (2 threads here) where it is not, with n or d the larger (outsider mutant:
    the estimate took min(n, d)); and where the projector's term ``d^2 min(n, d)`` alone
    decides, from both sides: 2 n d^2 = 0.8e8 / 1.2e8 at n = 40 / 60, d = 1000, and n^2 d +
    d^3 = 0.78e8 / 1.02e8 at n = 500, d = 250 / 300 (seed-27 mutant of that term)."""
    seen = []
    real = lns_traj.reduced_svd

    def spy(*args, **kw):
        infos = threadpoolctl.ThreadpoolController().select(user_api="blas").info()
        seen.append({i["num_threads"] for i in infos if "numpy" in i["filepath"]})
        return real(*args, **kw)

    monkeypatch.setattr(lns_traj, "reduced_svd", spy)
    rng = np.random.default_rng(0)
    setup = ns.Setup(rng.standard_normal((n, d)), rng.standard_normal(n), [0.5, 1.0], "linear",
                     0.5)  # fmt: skip
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        lns.closed_form(setup, [1.0, -1.0], rng.standard_normal((2, d)))
    assert seen == [{1} if small else {2}]


def test_kunin_w_coordinates_beyond_float64_are_refused_where_the_bound_is_not(monkeypatch):
    """``w_ok`` needs both the bound ``sw (|z_1| max|beta-hat| + |z_perp| max|c_perp|)`` and
    w's coordinates ``sw z_1``, ``sw z_perp`` below the largest double: where max|beta-hat| <
    1 the bound can be finite while a coordinate overflows (z_1 injected at 0.9 of the
    largest double over |sw| max|beta-hat|): w is then inf and refused, not returned
    (mutant ``_max_abs(cc) < limit`` made always true)."""
    rng = np.random.default_rng(5)
    Q, _ = np.linalg.qr(rng.standard_normal((6, 4)))
    tr = kunin.closed_form(kunin.Setup(0.7, 1.3, Q, rng.standard_normal(6)), -0.4,
                           rng.standard_normal(4))  # fmt: skip
    times = np.linspace(0.0, 9.0, 12)
    tr.sample(times)
    k = tr._data
    sw, top = abs(k["sw"]), float(np.max(np.abs(k["bhat"])))
    z1 = 0.9 * np.finfo(float).max / (sw * top)
    assert sw * top < 1 / 0.9 < sw  # (the bound stays finite, the coordinate overflows)

    def huge_z1(tf, za, z1s, zp):
        z1s[tf == times[3]], zp[tf == times[3]] = z1, 0.0

    monkeypatch.setattr(kunin_f64_sample, "_chunk_coefficients",
                        _poisoned(kunin_f64_sample._chunk_coefficients, huge_z1))  # fmt: skip
    with pytest.raises(ValueError, match="the state's w exceeds the float64 range"):
        tr.sample(times)
