"""``testing.kunin_wide``: seed 003's wide net ``f = A^T W x`` (Part II) as a pytest oracle.

The exact solution (:func:`kunin.wide_closed_form`) fixes ``A`` and ``W`` only up to a
rotation of the hidden layer, so the oracle compares the invariants ``beta = W^T A``, ``A^T
A`` and ``W^T W`` computed from the user's weights (and ``A``, ``W`` where the closed form
gives them: ``h = 1`` here).  The trajectories under test come from the raw flow
(``numerics.simulate``) and from a hand-written gradient-descent trainer (the user's code).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numerics
from solvable.models import kunin
from solvable.verification import testing

# X^T X = I (exact decimals): a rotation of R^2 and a Hadamard matrix / 2, plus a zero row
_X = {
    2: (("0.6", "0.8"), ("-0.8", "0.6"), ("0", "0")),
    4: (("0.5", "0.5", "0.5", "0.5"), ("0.5", "-0.5", "0.5", "-0.5"),
        ("0.5", "0.5", "-0.5", "-0.5"), ("0.5", "-0.5", "-0.5", "0.5"), ("0", "0", "0", "0")),
}  # fmt: skip
SHAPES = [(2, 2, 2), (1, 3, 2), (2, 3, 4)]  # (h, c, d)
TIMES = [0.0, 0.3, 1.0, 3.0, 10.0]


def _orthogonal(h: int, rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(h, h)))
    return q * np.sign(np.diag(r))


def problem(h: int, c: int, d: int, delta: float, seed: int = 0):
    """A setup with X^T X = I and a balanced start ``Delta = delta I_h`` (kunin.wide_start,
    then a random rotation of the hidden layer, which keeps the balance)."""
    rng = np.random.default_rng(seed)
    Y = [[float(v) for v in rng.normal(size=c)] for _ in _X[d]]
    setup = kunin.WideSetup("1", "0.5", _X[d], Y)
    if delta > 0:
        A, W = kunin.wide_start(setup, delta, A=1.5 * np.eye(h, c) + 0.3 * rng.normal(size=(h, c)))
    else:
        A, W = kunin.wide_start(setup, delta, W=1.5 * np.eye(h, d) + 0.3 * rng.normal(size=(h, d)))
    O = _orthogonal(h, rng)
    return setup, O @ A, O @ W


def gd_wide(setup, A0, W0, lr, steps, every=1, bug=None):
    """The user's trainer: plain gradient descent on ``1/2 sum_i |A^T W x_i - y_i|^2``."""
    X, Y = np.array(setup.X, float), np.array(setup.Y, float)
    ea, ew = float(setup.eta_a), float(setup.eta_w)
    A, W = np.array(A0, float), np.array(W0, float)
    As, Ws = [], []
    for k in range(steps + 1):
        if k % every == 0:
            As.append(A)
            Ws.append(W)
        R = X @ W.T @ A - Y  # (n, c)
        gA, gW = W @ X.T @ R, A @ R.T @ X
        if bug == "half":  # the 1/2 of the loss forgotten in the gradient of A
            gA = 2 * gA
        A, W = A - lr * ea * gA, W - lr * ew * gW
    return lr * np.arange(0, steps + 1, every), np.array(As), np.array(Ws)


def _failing(report) -> set[str]:
    return {b for b, e in report.errors.items() if np.any(~(e <= 1))}


@pytest.fixture(scope="module", params=[(s, dl) for s in SHAPES for dl in (0.3, -0.3)],
                ids=lambda p: f"hcd={p[0]}-delta={p[1]}")  # fmt: skip
def flow(request):
    (h, c, d), delta = request.param
    setup, A0, W0 = problem(h, c, d, delta)
    states = numerics.simulate(setup, A0, W0, TIMES, method="scipy")
    return testing.kunin_wide(setup, A0, W0), states.A, states.W


# ---------------------------------------------------------------------------
# the raw flow passes; rotated by O(h) it still passes on the invariants
# ---------------------------------------------------------------------------
def test_the_raw_flow_passes(flow):
    oracle, As, Ws = flow
    h = As.shape[1]
    rep = oracle.check(TIMES, As, Ws, rtol=1e-6)
    assert {"beta", "gram_a", "gram_w"} <= set(rep.errors)
    assert ("A" in rep.errors) == (h == 1)  # h = 1: A, W in closed form, compared too
    ref = oracle.exact(TIMES)
    assert set(ref) == set(oracle.blocks)
    np.testing.assert_allclose(ref["beta"], Ws.swapaxes(1, 2) @ As, rtol=1e-9, atol=1e-12)


def test_a_rotated_trajectory_passes_on_the_invariants(flow):
    oracle, As, Ws = flow
    h = As.shape[1]
    O = _orthogonal(h, np.random.default_rng(7))
    O = -O if h == 1 else O  # h = 1: O(1) = {1, -1}, take the sign flip
    rep = oracle.compare(TIMES, O @ As, O @ Ws, rtol=1e-6)
    assert rep.errors["beta"].max() <= 1 and rep.errors["gram_a"].max() <= 1
    assert rep.errors["gram_w"].max() <= 1
    if h == 1:  # the closed form fixes A and W themselves: the flipped start is another one
        assert _failing(rep) == {"A", "W"}
        with pytest.raises(AssertionError, match=r"(?s)kunin_wide .*\n +A: "):
            oracle.check(TIMES, O @ As, O @ Ws, rtol=1e-6)
    else:
        assert rep.passed
        assert np.max(np.abs(O @ As - As)) > 1e-2  # the weights did move


# ---------------------------------------------------------------------------
# wrong trajectories: each invariant block fails on its own, named in the message
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["beta", "scale", "A", "W"])
def test_a_wrong_trajectory_fails_in_the_block_it_breaks(flow, kind):
    oracle, As, Ws = flow
    h, e = As.shape[1], 1e-3
    O = _orthogonal(h, np.random.default_rng(3))
    O = -np.eye(1) if h == 1 else O
    pert = {  # (A, W) -> perturbed, and the invariant blocks that change
        "beta": (O @ As, Ws, {"beta"}),  # A -> O A only: grams unchanged, W^T A rotated
        "scale": ((1 + e) * As, Ws / (1 + e), {"gram_a", "gram_w"}),  # beta unchanged
        "A": ((1 + e) * As, Ws, {"beta", "gram_a"}),
        "W": (As, (1 + e) * Ws, {"beta", "gram_w"}),
    }
    bad_A, bad_W, broken = pert[kind]
    rep = oracle.compare(TIMES, bad_A, bad_W, rtol=1e-6)
    direct = {b for b, got, ok in (("A", bad_A, As), ("W", bad_W, Ws))
              if b in oracle.blocks and not np.array_equal(got, ok)}  # fmt: skip
    assert _failing(rep) == broken | direct
    with pytest.raises(AssertionError) as info:
        oracle.check(TIMES, bad_A, bad_W, rtol=1e-6)
    msg = str(info.value)
    assert msg.startswith("kunin_wide")
    assert "leaves the exact solution at times[0] = 0" in msg
    for b in broken:  # every block in the lines of the first failing time
        assert f"{b}: " in msg


# ---------------------------------------------------------------------------
# gradient descent: passes with lr=, fails without it at the same tolerance
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("delta", [0.3, -0.3])
def test_gradient_descent_passes_with_lr_and_fails_without(shape, delta):
    setup, A0, W0 = problem(*shape, delta)
    oracle = testing.kunin_wide(setup, A0, W0)
    times, As, Ws = gd_wide(setup, A0, W0, 1e-3, 3000, every=100)
    oracle.check(times, As, Ws, lr=1e-3, rtol=1e-6)
    # GD's error of the invariants is lr (e_W^T A + W^T e_A) + O(lr^2) (the product rule on
    # the weights' first-order error e): the allowance, GD_SAFETY = 2 times its running max,
    # holds it with the rounding out of the way (rtol = 1e-12), and is not vacuous (> 1/4)
    tight = oracle.compare(times, As, Ws, lr=1e-3, rtol=1e-12)
    assert tight.passed and tight.worst > 1 / (2 * testing.GD_SAFETY)
    with pytest.raises(AssertionError, match="pass lr="):
        oracle.check(times, As, Ws, rtol=1e-6)
    times, As, Ws = gd_wide(setup, A0, W0, 1e-3, 3000, every=100, bug="half")
    with pytest.raises(AssertionError, match=r"(?s)kunin_wide .*\n +beta: .*\n +gram_a: "):
        oracle.check(times, As, Ws, lr=1e-3, rtol=1e-6)


# ---------------------------------------------------------------------------
# against the raw flow at 30 digits, and property-based
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_the_30_digit_flow_matches_to_1e_12(shape):
    setup, A0, W0 = problem(*shape, 0.3, seed=1)
    times = [0.0, 0.5, 2.0]
    states = numerics.simulate(setup, A0, W0, times, method="mpmath", dps=30)
    As = np.array(states.A.tolist(), dtype=float)
    Ws = np.array(states.W.tolist(), dtype=float)
    rep = testing.kunin_wide(setup, A0, W0).check(times, As, Ws, rtol=1e-12)  # 30-digit ref
    assert rep.worst <= 1


@settings(max_examples=12, deadline=None)
@given(shape=st.sampled_from(SHAPES), delta=st.sampled_from([0.05, 0.3, -0.05, -0.3]),
       seed=st.integers(0, 2**16), rot=st.integers(0, 2**16))  # fmt: skip
def test_any_balanced_start_and_any_rotation(shape, delta, seed, rot):
    setup, A0, W0 = problem(*shape, delta, seed=seed)
    states = numerics.simulate(setup, A0, W0, TIMES, method="scipy")
    oracle = testing.kunin_wide(setup, A0, W0)
    oracle.check(TIMES, states.A, states.W, rtol=1e-6)
    f64, ref = oracle.exact(TIMES), oracle.exact(TIMES, dps=40)  # the reference of rtol < 1e-10
    for b in oracle.blocks:  # float64 to ~condition eps (the closed forms' claims: ~1e-13)
        assert np.max(np.abs(f64[b] - ref[b])) <= 1e-12 * max(1.0, np.max(np.abs(ref[b])))
    if "A" not in oracle.blocks:
        O = _orthogonal(shape[0], np.random.default_rng(rot))
        oracle.check(TIMES, O @ states.A, O @ states.W, rtol=1e-6)


# ---------------------------------------------------------------------------
# bad inputs
# ---------------------------------------------------------------------------
def test_bad_inputs_name_the_argument(flow):
    oracle, As, Ws = flow
    with pytest.raises(ValueError, match=r"A \(kunin_wide block\) must have shape"):
        oracle.check(TIMES, As[:, :, :-1], Ws)
    with pytest.raises(ValueError, match=r"W \(kunin_wide block\) must have shape"):
        oracle.check(TIMES, As, Ws[:-1])
    with pytest.raises(ValueError, match=r"A \(kunin_wide block\) must have shape"):
        oracle.check(TIMES, As[0], Ws[0])  # one time, not a trajectory: never reshaped
    with pytest.raises(TypeError, match=r"missing block\(s\) \['W'\]"):
        oracle.check(TIMES, As)
    with pytest.raises(TypeError, match="unknown block 'beta'"):
        oracle.check(TIMES, As, Ws, beta=As)
    oracle.check(TIMES, W=Ws, A=As)  # by name, any order


def test_bad_setups_and_starts_are_refused():
    setup, A0, W0 = problem(2, 2, 2, 0.3)
    with pytest.raises(TypeError, match=r"setup must be a kunin\.WideSetup"):
        testing.kunin_wide(kunin.case("upstream").setup, A0, W0)
    with pytest.raises(ValueError, match=r"(?s)Delta\(0\).*numerics.simulate"):
        testing.kunin_wide(setup, A0, 1.1 * W0)  # unbalanced
    with pytest.raises(ValueError, match="W0"):
        testing.kunin_wide(setup, A0, W0[:, :1])
    assert testing.Oracle.kunin_wide is testing.kunin_wide


def test_a_decoupled_start_compares_a_and_w_themselves():
    """h = 2 rows that decouple by modes (tests/test_kunin_wide_shapes.py's c = 2 start, Delta
    = 0.75 I): the closed form gives A and W (claim kunin.wide_decoupled_weights), so they
    are compared too; the raw flow and gradient descent pass, the rotated flow passes on the
    invariants and fails on A and W."""
    setup = kunin.WideSetup("1", "1", (("1", "0"), ("0", "1")), (("2", "0"), ("0", "1")))
    O = np.array([[0.6, 0.8], [-0.8, 0.6]])
    A0, W0 = O @ np.eye(2), O @ (0.5 * np.eye(2))
    oracle = testing.kunin_wide(setup, A0, W0)
    assert set(oracle.blocks) == {"beta", "gram_a", "gram_w", "A", "W"}
    states = numerics.simulate(setup, A0, W0, TIMES, method="scipy")
    oracle.check(TIMES, states.A, states.W, rtol=1e-6)
    R = _orthogonal(2, np.random.default_rng(5))
    rep = oracle.compare(TIMES, R @ states.A, R @ states.W, rtol=1e-6)
    assert _failing(rep) == {"A", "W"}
    times, As, Ws = gd_wide(setup, A0, W0, 1e-3, 3000, every=100)
    oracle.check(times, As, Ws, lr=1e-3, rtol=1e-6)
    with pytest.raises(AssertionError, match="pass lr="):
        oracle.check(times, As, Ws, rtol=1e-6)


def test_delta_zero_with_more_hidden_units_than_inputs_and_outputs():
    """delta = 0 allows any h: h = 3 > c = d = 2 (a rank-2 start W = A U^T, U a rotation, so
    eta_w A A^T = eta_a W W^T exactly in rationals).  The raw flow, rotated or not, and
    gradient descent (at rtol = 1e-12: the 30-digit reference of the exact start) pass."""
    setup = kunin.WideSetup("1", "1", _X[2], ((1.0, 0.2), (-0.5, 0.4), (2.0, 0.0)))
    A = [
        [Fraction(1), Fraction(1, 2)],
        [Fraction(-1, 2), Fraction(3, 4)],
        [Fraction(1, 4), Fraction(-1)],
    ]
    U = [[Fraction(3, 5), Fraction(-4, 5)], [Fraction(4, 5), Fraction(3, 5)]]
    W = [[sum(a[k] * U[j][k] for k in range(2)) for j in range(2)] for a in A]
    oracle = testing.kunin_wide(setup, A, W)
    assert oracle.trajectory.h == 3 and abs(oracle.trajectory.delta) < 1e-40  # (50 digits)
    Af, Wf = np.array(A, dtype=float), np.array(W, dtype=float)
    states = numerics.simulate(setup, Af, Wf, TIMES, method="scipy")
    O = _orthogonal(3, np.random.default_rng(1))
    oracle.check(TIMES, states.A, states.W, rtol=1e-6)
    oracle.check(TIMES, O @ states.A, O @ states.W, rtol=1e-6)
    times, As, Ws = gd_wide(setup, Af, Wf, 1e-3, 3000, every=100)
    oracle.check(times, As, Ws, lr=1e-3, rtol=1e-12)
    with pytest.raises(AssertionError, match="pass lr="):
        oracle.check(times, As, Ws, rtol=1e-6)
