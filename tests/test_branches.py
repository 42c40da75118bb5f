"""Branches of the closed forms that the named cases do not visit.

* Sign branches: seed 003 (Kunin et al., Part I exact solution) from initial weights with
  ``w0 . beta* < 0`` (and ``a0 < 0``), on both sides of ``delta = 0`` (the ``delta >= 0``
  pieces of the solution) and exactly on it, against the package's independent DOP853
  integrator (``numerics.simulate``) and the paper's limit ``beta -> beta*``; seed 001
  (Xu & Ziyin, Theorem 1) with the signs of ``y``, ``f0``, ``x`` and of each unit's
  ``u_i (W x)_i`` flipped, against the same integrator.
* Blocked loops, with sizes above each block constant, against a plain reference (the same
  times one at a time, or the reference engine): kunin's ``_BLOCK_BYTES`` /
  ``_COEFFICIENT_TIMES`` / ``PARALLEL_SAMPLE`` and ``_SQUARES_CHUNK``; xu_ziyin's
  ``SAMPLE_BLOCK`` and the row blocks of its Lagrange identity (512); linear_node_scaling's
  ``_BLOCK_BYTES`` / ``_CHUNK_TIMES``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import numerics
from solvable._core.tolerance import relative_error
from solvable.models import kunin
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models import xu_ziyin as xz

# ---------------------------------------------------------------------------
# seed 003: sign branches
# ---------------------------------------------------------------------------
# X^T X = I (whitened, s = 1), beta* = X^T y = (1, 0.5); eta_a = 1, eta_w = 0.5
K_SETUP = kunin.CASES[0].setup
BETA_STAR = np.array([1.0, 0.5])

K_STARTS = [
    ("neg_dot_upstream", 1.2, (-0.2, -0.3)),  # delta = 0.72 - 0.13 > 0
    ("neg_dot_downstream", 0.3, (-0.5, -0.6)),  # delta = 0.045 - 0.61 < 0
    ("neg_dot_balanced", 1.0, (-0.5, -0.5)),  # delta = 0.5 - 0.5 = 0 exactly
    ("neg_dot_balanced_ulp_up", float(np.nextafter(1.0, 2.0)), (-0.5, -0.5)),
    ("neg_dot_balanced_ulp_down", float(np.nextafter(1.0, 0.0)), (-0.5, -0.5)),
    ("neg_a_neg_dot", -0.8, (-0.3, -0.2)),  # beta0 = a0 w0 has beta0 . beta* > 0
    ("neg_a_pos_dot_down", -0.1, (0.6, 0.2)),  # delta < 0, beta0 . beta* < 0
    ("neg_dot_large_lazy", 10.0, (-0.1, -0.1)),  # delta = 50 - 0.02 (lazy), w flips
    ("neg_dot_delayed_rich", 0.01, (-3.0, 2.0)),  # delta ~ -13, w0 . beta* = -2
]


def _k_state(s) -> np.ndarray:
    return np.array([float(s.a), *map(float, s.w)])


@pytest.mark.parametrize(("name", "a0", "w0"), K_STARTS, ids=[s[0] for s in K_STARTS])
def test_kunin_sign_branches_match_the_integrator(name, a0, w0):
    """Seed 003 Part I: the closed form z(t) = e^{Gt} z0 / sqrt(phi) from w0 . beta* < 0 (and
    a0 < 0), on each side of delta = 0 and on it, equals the raw gradient flow da/dt =
    -eta_a dL/da, dw/dt = -eta_w dL/dw integrated by DOP853 (numerics.simulate, rtol 1e-13):
    1e-9 relative to the state (global error of DOP853 at rtol 1e-13 over ~10 e-foldings,
    1e-12, with a factor of 1000 for the slow delayed-rich escape from the saddle)."""
    times = [0.25, 1.0, 4.0, 12.0]
    sim = numerics.simulate(K_SETUP, a0, w0, times, method="scipy")
    exact = kunin.closed_form(K_SETUP, a0, w0).sample(times)
    for k, s in enumerate(sim):
        ref = _k_state(s)
        got = np.array([exact.a[k], *exact.w[k]])
        assert np.all(np.isfinite(got)), name
        assert np.max(np.abs(got - ref)) <= 1e-9 * max(1.0, np.max(np.abs(ref))), (name, k)


@pytest.mark.parametrize(("name", "a0", "w0"), K_STARTS, ids=[s[0] for s in K_STARTS])
def test_kunin_sign_branches_limit(name, a0, w0):
    """t = oo from a start off the stable manifold (c_+ != 0): beta = a w -> beta* (the
    least-squares solution, Part I), with delta = eta_w a^2 - eta_a |w|^2 conserved, so
    |a|^2 = (delta + sqrt(delta^2 + 4 eta_a eta_w |beta*|^2)) / (2 eta_w) (the positive root
    of eta_w a^4 - delta a^2 - eta_a |beta*|^2 = 0), and the sign of a(oo) is that of the
    integrated flow at t = 60 (past the escape from the saddle in every case here; the
    delayed-rich one is then still 0.5% from its limit, so only the sign is compared).
    1e-12: a few roundings of O(1) quantities (float64 closed form)."""
    traj = kunin.closed_form(K_SETUP, a0, w0)
    inf = traj.at(math.inf)
    delta = 0.5 * a0**2 - sum(v * v for v in w0)
    nb2 = float(BETA_STAR @ BETA_STAR)
    a2 = (delta + math.sqrt(delta**2 + 4 * 1.0 * 0.5 * nb2)) / (2 * 0.5)
    np.testing.assert_allclose(inf.beta, BETA_STAR, rtol=0, atol=1e-12)
    assert inf.a**2 == pytest.approx(a2, rel=1e-12)
    (late,) = numerics.simulate(K_SETUP, a0, w0, [60.0], method="scipy")
    assert np.sign(inf.a) == np.sign(late.a) != 0


def test_kunin_delta_zero_is_continuous_across_the_branch():
    """The delta >= 0 / delta < 0 pieces of the solution meet continuously at delta = 0
    (Part I, the balanced limit): a0 = 1 and a0 one ulp on either side (delta ~ +-1e-16)
    give states within 1e-14 of each other (a first-order change ~1e-16 times |d state /
    d a0| <= ~10, plus rounding), from w0 . beta* < 0."""
    w0 = (-0.5, -0.5)
    times = [0.5, 3.0, 30.0]
    on = kunin.closed_form(K_SETUP, 1.0, w0).sample(times)
    assert on.delta == 0
    for a0 in (float(np.nextafter(1.0, 2.0)), float(np.nextafter(1.0, 0.0))):
        near = kunin.closed_form(K_SETUP, a0, w0).sample(times)
        assert (near.delta > 0) == (a0 > 1)
        for k in range(len(times)):
            got = np.array([near.a[k], *near.w[k]])
            ref = np.array([on.a[k], *on.w[k]])
            assert np.max(np.abs(got - ref)) <= 1e-14 * max(1.0, np.max(np.abs(ref)))


# ---------------------------------------------------------------------------
# seed 001: sign branches
# ---------------------------------------------------------------------------
XZ_STARTS = [
    # (name, x, y, u0, W0): signs of y, f0 = gamma u.Wx, x and the per-unit u_i (Wx)_i
    ("y_neg_f0_pos", ("1", "2"), "-1.5", ("0.8", "0.3", "1.1"),
     (("0.2", "0.5"), ("0.3", "0.4"), ("0.7", "0.1"))),
    ("y_pos_f0_neg", ("1", "2"), "1.5", ("0.8", "0.3", "1.1"),
     (("-0.2", "-0.5"), ("-0.3", "-0.4"), ("-0.7", "-0.1"))),
    ("x_negative", ("-1", "-2"), "0.9", ("-0.8", "0.3", "1.1"),
     (("0.2", "-0.5"), ("1.3", "0.4"), ("-0.7", "0.9"))),
    ("mixed_unit_signs_y_neg", ("3", "-4"), "-0.7", ("1", "-1", "0.5"),
     (("0.1", "0.2"), ("0.3", "-0.1"), ("-0.2", "-0.2"))),
    ("all_negative", ("-1",), "-2", ("-0.5", "-1.5"), (("-0.7",), ("-0.2",))),
]  # fmt: skip


@pytest.mark.parametrize(("name", "x", "y", "u0", "W0"), XZ_STARTS,
                         ids=[s[0] for s in XZ_STARTS])  # fmt: skip
def test_xu_ziyin_sign_branches_match_the_integrator(name, x, y, u0, W0):
    """Seed 001 Theorem 1 (alpha(t) from the Riccati equation, u and W from eqs. (13)-(14))
    with negative y, f0, x and units of either sign of u_i (W x)_i, against the raw flow of
    eq. (4)-(5) integrated by DOP853 (rtol 1e-13): 1e-9 relative to the state (DOP853's
    global error ~1e-12 over a few t_c, with a factor 1000 of margin)."""
    setup = xz.Setup(eta_u="1", eta_w="0.5", gamma="0.7", x=x, y=y)
    times = [0.1, 0.5, 2.0, 8.0]
    sim = numerics.simulate(setup, u0, W0, times, method="scipy")
    exact = xz.closed_form(setup, u0, W0).sample(times)
    for k, s in enumerate(sim):
        ref = np.concatenate([np.ravel(s.u), np.ravel(s.W), [s.f]]).astype(float)
        got = np.concatenate([exact.u[k].ravel(), exact.W[k].ravel(), [exact.f[k]]])
        assert np.all(np.isfinite(got)), name
        assert np.max(np.abs(got - ref)) <= 1e-9 * max(1.0, np.max(np.abs(ref))), (name, k)
    # Theorem 1: f -> y when P, Q > 0 (the global minimum, eq. (15))
    f_inf = float(xz.closed_form(setup, u0, W0).at(math.inf).f)
    assert f_inf == pytest.approx(float(y), rel=1e-12)  # a few roundings of O(1) numbers


# ---------------------------------------------------------------------------
# blocked loops above their block constants
# ---------------------------------------------------------------------------
def _kunin_blocks_against_single_times(setup, a0, w0, T, idx):
    """Sample T times at once; the states at ``idx`` equal those of the same times sampled
    alone (one block): the sample's arithmetic per time does not depend on the blocks
    (bit for bit, claimed by the module; compared to 4 ulps of the state's scale to allow a
    different vectorised summation order)."""
    times = np.linspace(0.0, 20.0, T)
    traj = kunin.closed_form(setup, a0, w0)
    big = traj.sample(times)
    for i in idx:
        one = traj.sample([float(times[i])])
        scale = max(1.0, float(np.max(np.abs(one.w[0]))), abs(float(one.a[0])))
        tol = 4 * np.finfo(float).eps * scale
        assert abs(big.a[i] - one.a[0]) <= tol, i
        assert np.max(np.abs(big.w[i] - one.w[0])) <= tol, i
        assert np.max(np.abs(big.beta[i] - one.beta[0])) <= tol * scale, i
        assert abs(big.loss[i] - one.loss[0]) <= tol * max(1.0, abs(one.loss[0])), i
    assert np.all(np.isfinite(big.w)) and np.all(np.isfinite(big.loss))


def test_kunin_sample_above_the_block_and_chunk_sizes_small_d():
    """d = 2, n = 3: step = 2^20 / (8 * 3) = 43690 times per block, chunk 43690 (>= 8192):
    140000 times are 4 blocks; the last time of each block, the first of the next and the
    last of all equal single-time samples (from w0 . beta* < 0)."""
    idx = [0, 43689, 43690, 87379, 87380, 131070, 131071, 139999]
    _kunin_blocks_against_single_times(K_SETUP, 0.3, (-0.5, -0.6), 140000, idx)


def test_kunin_sample_above_the_block_size_wide():
    """d = n = 300 (X = I): step = 2^20 / 2400 = 436 times per block, chunk = 8192 - 8192 %
    436 = 8284 - 436 = 7848; 9000 times cross both."""
    d = 300
    X = tuple(tuple(1.0 if i == j else 0.0 for j in range(d)) for i in range(d))
    y = tuple((i % 7) / 10 - 0.3 for i in range(d))
    setup = kunin.Setup(1, "0.5", X, y)
    w0 = tuple(0.01 * ((i * 37) % 11 - 5) for i in range(d))
    idx = [0, 435, 436, 7847, 7848, 7849, 8999]
    _kunin_blocks_against_single_times(setup, 0.7, w0, 9000, idx)


def test_kunin_sample_in_two_threads():
    """T (2 d + n) >= 2 * PARALLEL_SAMPLE entries: the times are filled in two halves (cut at
    a multiple of the chunk); d = n = 8, 350000 times (8.4e6 entries >= 2^23), chunks of
    2^20 / 64 = 16384 times: the times around the cut (after ceil(22 / 2) chunks) and the
    last equal single-time samples."""
    d = 8
    X = tuple(tuple(1.0 if i == j else 0.0 for j in range(d)) for i in range(d))
    y = tuple(0.1 * (i - 3) for i in range(d))
    setup = kunin.Setup(1, "0.5", X, y)
    w0 = tuple(-0.05 * (i + 1) for i in range(d))  # w0 . beta* > 0 and < 0 parts
    T = 350000
    assert T * (2 * d + d) >= 2 * kunin.PARALLEL_SAMPLE
    chunk = 2**20 // (8 * d)
    blocks = -(-T // chunk)
    cut = (blocks + 1) // 2 * chunk
    idx = [0, chunk - 1, chunk, cut - 1, cut, cut + 1, T - 1]
    _kunin_blocks_against_single_times(setup, 0.4, w0, T, idx)


def test_kunin_isotropy_sum_above_the_squares_chunk():
    """s = tr(X^T X)/d from a compensated sum of squares taken 8192 entries at a time: X =
    1.5 I_100 (10000 entries, the diagonal's last 19 in the second chunk) has s = 2.25
    exactly (X^T X = s I: Part I's isotropic inputs), and beta* = X^T y / s = y / 1.5."""
    d = 100
    X = tuple(tuple(1.5 if i == j else 0.0 for j in range(d)) for i in range(d))
    y = tuple(0.01 * (i + 1) for i in range(d))
    traj = kunin.closed_form(kunin.Setup(1, 1, X, y), 0.5, tuple(0.01 for _ in range(d)))
    assert float(traj.s) == 2.25
    # beta* = X^T y / s: one product, one division (2 roundings: 4e-16 relative)
    want = [0.01 * (i + 1) / 1.5 for i in range(d)]
    np.testing.assert_allclose(traj.beta_star, want, rtol=4e-16, atol=0)


def test_xu_ziyin_sample_blocks_fast_equals_reference():
    """xu_ziyin's fast float64 sample writes blocks of SAMPLE_BLOCK = 2^17 elements: d = 3,
    d0 = 2, 100000 times are 3 blocks of times (43690) and 7 of W (21845); the reference
    engine (whole arrays, numpy.select) gives the same numbers bit for bit (documented)."""
    setup = xz.Setup(eta_u="1", eta_w="0.5", gamma="0.7", x=("1", "2"), y="-1.5")
    u0, W0 = ("0.8", "0.3", "-1.1"), (("-0.2", "0.5"), ("0.3", "-0.4"), ("0.7", "0.1"))
    traj = xz.closed_form(setup, u0, W0)
    times = np.linspace(0.0, 10.0, 100000)
    fast = traj.sample(times, engine="fast")
    ref = traj.sample(times, engine="reference")
    for name in ("u", "W", "f", "ntk", "alignment", "alpha"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(ref, name), err_msg=name)


@pytest.mark.parametrize("d", [513, 1200])
def test_xu_ziyin_lagrange_blocks_above_512_units(d):
    """The Lagrange identity sum_{i<j} (p_i q_j - p_j q_i)^2 = |p|^2 |q|^2 - (p.q)^2 is
    summed in row blocks of 512: with d = 1200 units (3 blocks) and d = 513 (a last block of
    one row, which has no j > i partner but is a block all the same: an outside reviewer's
    loop that stopped one row early dropped it), the alignment (cosine of u and W x, eq.
    (20)) the closed form reports equals the cosine measured from its own u(t), W(t)
    (State.from_weights), to 1e-12 (a cosine of generic vectors of 1200 entries: ~1e-14
    rounding, the closed form's own few-ulp error amplified at most 10x by this case's
    P/Q ~ 1)."""
    rng = np.random.default_rng(7)
    u0 = rng.normal(size=d) * 0.05
    W0 = rng.normal(size=(d, 1)) * 0.05
    setup = xz.Setup(eta_u="1", eta_w="0.5", gamma="0.01", x=("1.5",), y="2")
    traj = xz.closed_form(setup, u0, W0)
    for t in (0.0, 3.0, 30.0):
        s = traj.at(t)
        m = xz.State.from_weights(setup, t, s.u, s.W)
        assert abs(float(s.alignment) - float(m.alignment)) <= 1e-12, t


def test_linear_node_scaling_sample_above_block_and_chunk():
    """Seed 000 Theorem 7.4's trajectory sampled in blocks of 2^19 / (8 m d) = 32 times (W)
    and chunks of 1024 times: m = 40 nodes, d = 50, 2100 times cross both; the states at
    the edges equal single-time samples (the per-time arithmetic does not depend on the
    blocks: 1e-13 relative to the state, a few roundings)."""
    rng = np.random.default_rng(3)
    n, d, m = 6, 50, 40
    X = rng.normal(size=(n, d))
    y = rng.normal(size=n)
    lam = np.full(m, 1.0 / m)
    a = np.where(np.arange(m) % 2 == 0, 1.0, -1.0)
    W0 = rng.normal(size=(m, d))
    setup = ns.Setup(tuple(map(tuple, X.tolist())), tuple(y.tolist()), tuple(lam.tolist()),
                     "linear")  # fmt: skip
    traj = lns.closed_form(setup, a, W0)
    times = np.linspace(0.0, 50.0, 2100)
    big = traj.sample(times)
    for i in (0, 31, 32, 1023, 1024, 1025, 2047, 2048, 2099):
        one = traj.sample([float(times[i])])
        assert relative_error(big.W[i], one.W[0]) <= 1e-13, i
        assert relative_error(big.f[i], one.f[0]) <= 1e-13, i
        assert abs(big.loss[i] - one.loss[0]) <= 1e-13 * max(1.0, abs(one.loss[0])), i
