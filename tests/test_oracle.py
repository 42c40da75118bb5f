"""solvable.verification.testing as a pytest oracle (issue 14 item 4): validated inputs, the
gradient-descent allowance, failure messages, every exact solution, the pytest plugin (run
through ``pytester`` in a subprocess, so the installed ``pytest11`` entry point is what
provides it) and the README example.

The trainers below play the user: plain gradient descent with hand-written gradients of
each model's loss (the code under test in a user's project), plus realistic bugs in them.
"""

from __future__ import annotations

from pathlib import Path

import mpmath
import numpy as np
import pytest

from solvable.models import kernels, kunin, xu_ziyin
from solvable.models import node_scaling as ns
from solvable.verification import testing

pytest_plugins = ["pytester"]

SETUP = xu_ziyin.Setup(eta_u=1, eta_w="0.5", gamma="0.7", x=["1", "2"], y="1.5")
U0 = np.array([0.8, -0.3, 1.1])
W0 = np.array([[0.2, -0.5], [1.3, 0.4], [-0.7, 0.9]])

# The README example (section "Use it as an oracle in your own tests"), run as a user's
# test module below: the first python block after that heading.
_README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
_SECTION = _README.split("### Use it as an oracle in your own tests", 1)[1]
SNIPPET = _SECTION.split("```python\n", 1)[1].split("```", 1)[0]


def gd_xu_ziyin(setup, u0, W0, lr, steps, every=1, bug=None):
    x, y, g = np.array(setup.x, float), float(setup.y), float(setup.gamma)
    eu, ew = float(setup.eta_u), float(setup.eta_w)
    if bug == "rate":  # the W layer trained at eta_u
        ew = eu
    u, W = np.array(u0, float), np.array(W0, float)
    us, Ws = [], []
    for k in range(steps + 1):
        if k % every == 0:
            us.append(u)
            Ws.append(W)
        r = g * u @ W @ x - y
        gu, gW = 2 * r * g * (W @ x), 2 * r * g * np.outer(u, x)
        if bug == "sign":
            gW = -gW
        u, W = u - lr * eu * gu, W - lr * ew * gW
    return lr * np.arange(0, steps + 1, every), np.array(us), np.array(Ws)


def gd_kunin(setup, a0, w0, lr, steps, every=1, bug=None):
    X, y = np.array(setup.X, float), np.array(setup.y, float)
    ea, ew = float(setup.eta_a), float(setup.eta_w)
    a, w = float(a0), np.array(w0, float)
    As, ws = [], []
    for k in range(steps + 1):
        if k % every == 0:
            As.append(a)
            ws.append(w)
        r = a * X @ w - y  # L = 1/2 |r|^2
        ga, gw = r @ X @ w, a * X.T @ r
        if bug == "half":  # the 1/2 of the loss forgotten in the gradient of w
            gw = 2 * gw
        a, w = a - lr * ea * ga, w - lr * ew * gw
    return lr * np.arange(0, steps + 1, every), np.array(As), np.array(ws)


def gd_node_scaling(setup, a, W0, lr, steps, every=1, bug=None):
    X, y = np.array(setup.X, float), np.array(setup.y, float)
    s, eta, d = np.sqrt(np.array(setup.lam, float)), float(setup.eta), setup.d
    W = np.array(W0, float)
    Ws = []
    for k in range(steps + 1):
        if k % every == 0:
            Ws.append(W)
        f = (X @ W.T / np.sqrt(d)) @ (s * a)  # linear activation
        r = f - y
        grad = np.outer(s * a, X.T @ r) / np.sqrt(d)
        if bug == "sqrt":  # lambda_j instead of sqrt(lambda_j)
            grad = np.outer(s * s * a, X.T @ r) / np.sqrt(d)
        W = W - lr * eta * grad
    return lr * np.arange(0, steps + 1, every), np.array(Ws)


@pytest.fixture(scope="module")
def readme_gd():
    return gd_xu_ziyin(SETUP, U0, W0, 1e-3, 3000, every=50)


@pytest.fixture(scope="module")
def oracle():
    return testing.xu_ziyin(SETUP, U0, W0)


# ---------------------------------------------------------------------------
# inputs validated: each of the silent passes is now an error naming the argument
# ---------------------------------------------------------------------------
def test_nan_weights_are_refused(readme_gd):
    times, us, Ws = readme_gd
    bad = Ws.copy()
    bad[:] = np.nan
    with pytest.raises(ValueError, match=r"W \(xu_ziyin block\) must be finite"):
        testing.assert_matches_closed_form(SETUP, U0, W0, times, us, bad)
    bad_u = us.copy()
    bad_u[3, 1] = np.inf
    with pytest.raises(ValueError, match=r"u \(xu_ziyin block\)\[3, 1\]"):
        testing.assert_matches_closed_form(SETUP, U0, W0, times, bad_u, Ws, lr=1e-3)


def test_wrong_shapes_are_never_reshaped(readme_gd, oracle):
    times, us, Ws = readme_gd
    with pytest.raises(ValueError, match=r"W .* must have shape \(61, 3, 2\).*\(61, 6\)"):
        testing.assert_matches_closed_form(SETUP, U0, W0, times, us, Ws.reshape(len(Ws), 6))
    with pytest.raises(ValueError, match=r"must have shape \(61, 3\)"):
        oracle.check(times, us[:-1], Ws)
    with pytest.raises(ValueError, match="ragged"):
        oracle.check([0, 1], [[1, 2, 3], [1, 2]], Ws[:2])
    with pytest.raises(ValueError, match="times must be a non-empty 1-d"):
        oracle.check([[0.0]], us[:1], Ws[:1])


@pytest.mark.parametrize("rtol", [float("inf"), float("nan"), 0.0, 1.0, -1e-6, 2.0])
def test_rtol_must_be_in_the_open_unit_interval(readme_gd, rtol):
    times, us, Ws = readme_gd
    with pytest.raises(ValueError, match="rtol"):
        testing.assert_matches_closed_form(SETUP, U0, W0, times, us, Ws, rtol=rtol)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"rtol": True}, TypeError, "rtol must be a real number"),
        ({"rtol": "1e-6"}, TypeError, "rtol must be a real number"),
        ({"atol": -1.0}, ValueError, "atol must be >= 0"),
        ({"lr": 0.0}, ValueError, "lr must be > 0"),
        ({"lr": True}, TypeError, "lr must be a real number"),
        ({"lr": 7e-4}, ValueError, "times must be multiples k \\* lr"),
    ],
)
def test_bad_options_name_the_argument(readme_gd, oracle, kwargs, exc, match):
    times, us, Ws = readme_gd
    with pytest.raises(exc, match=match):
        oracle.check(times, us, Ws, **kwargs)


def test_off_grid_message_names_the_first_time_beyond_the_allowance(readme_gd, oracle):
    """A time exactly at the allowance 1e-6 * max(1, k) of k * lr is on the grid (the rule is
    a strict >): with lr = 1, t = 1e-6 is allowed and t = 0.3 is the first one named."""
    _, us, Ws = readme_gd
    with pytest.raises(ValueError, match=r"got times\[1\] = 0\.3 "):
        oracle.check([1e-6, 0.3], us[:2], Ws[:2], lr=1.0)


def test_bad_dtypes_and_block_names(readme_gd, oracle):
    times, us, Ws = readme_gd
    with pytest.raises(TypeError, match="real numbers"):
        oracle.check(times, us.astype(complex), Ws)
    with pytest.raises(TypeError, match="real numbers"):
        oracle.check(times, us > 0, Ws)
    with pytest.raises(ValueError, match=r"times must be >= 0: times\[0\]"):
        oracle.check(-times[::-1], us, Ws)
    # the first negative time is named, not the first nonzero one
    with pytest.raises(ValueError, match=r"times must be >= 0: times\[2\] = -1\.0"):
        oracle.check([0.0, 0.5, -1.0], us[:3], Ws[:3])
    with pytest.raises(TypeError, match="unknown block 'V'"):
        oracle.check(times, us, V=Ws)
    with pytest.raises(TypeError, match=r"missing block\(s\) \['W'\]"):
        oracle.check(times, us)
    oracle.check(times, W=Ws, u=us, lr=1e-3)  # by name, any order


def test_torch_tensors_and_mpf_arrays_are_accepted(oracle):
    torch = pytest.importorskip("torch")
    ts = [0, 0.5, 2]
    ref = oracle.exact(ts, dps=30)
    W = torch.tensor(ref["W"], requires_grad=True)
    u = np.vectorize(mpmath.mpf, otypes=[object])(ref["u"])
    oracle.check(ts, u, W, rtol=1e-12)


# ---------------------------------------------------------------------------
# exact mode and the backwards-compatible helper
# ---------------------------------------------------------------------------
def test_exact_trajectory_passes_and_a_perturbation_fails(oracle):
    ts = [0, 0.3, 1, 5, float("inf")]
    ref = oracle.exact(ts, dps=30)  # the reference from a different evaluation
    us, Ws = ref["u"], ref["W"]
    report = testing.assert_matches_closed_form(SETUP, U0, W0, ts, us, Ws, rtol=1e-12)
    assert report.passed and report.worst <= 1
    bad = Ws.copy()
    bad[2, 1, 0] *= 1 + 1e-5
    with pytest.raises(AssertionError, match=r"times\[2\] = 1, the first of 1 failing"):
        testing.assert_matches_closed_form(SETUP, U0, W0, ts, us, bad, rtol=1e-6)


def test_tiny_rtol_uses_the_high_precision_reference(oracle):
    ts = [0, 1, 3]
    ref = oracle.exact(ts, dps=40)
    assert oracle.compare(ts, ref["u"], ref["W"], rtol=1e-15).passed
    bumped = ref["W"] * (1 + 1e-13)
    assert not oracle.compare(ts, ref["u"], bumped, rtol=1e-15).passed


# ---------------------------------------------------------------------------
# gradient-descent mode
# ---------------------------------------------------------------------------
def test_correct_gd_trainer_passes_with_lr_and_says_why_without(readme_gd, oracle):
    times, us, Ws = readme_gd
    report = oracle.check(times, us, Ws, lr=1e-3, rtol=1e-6)
    assert 0.3 < report.worst <= 0.6  # the first-order term is the error: ~1/GD_SAFETY
    with pytest.raises(AssertionError) as info:
        oracle.check(times, us, Ws, rtol=1e-6)
    msg = str(info.value)
    assert "at times[1] = 0.05, the first of 60 failing times of 61" in msg
    for line in ("u:", "W:", "f: exact", "loss: exact", "pass lr="):
        assert line in msg, msg
    # every block's error at the first failing time, with the exact and actual f and loss
    rep = oracle.compare(times, us, Ws, rtol=1e-6)
    k = rep.first_failure
    assert k == 1
    assert f"{rep.errors['u'][k]:10.3g} tolerances" in msg
    assert f"{rep.errors['W'][k]:10.3g} tolerances" in msg
    got = xu_ziyin.State.from_weights(SETUP, times[k], us[k], Ws[k])
    exact = oracle.trajectory.at(times[k])
    assert rep.got_f[k] == pytest.approx(float(got.f), rel=1e-14)
    assert rep.exact_f[k] == pytest.approx(float(exact.f), rel=1e-12)
    assert rep.exact_loss[k] == pytest.approx((float(exact.f) - 1.5) ** 2, rel=1e-12)


@pytest.mark.parametrize(("bug", "block"), [("sign", "W"), ("rate", "W")])
def test_gd_trainer_with_a_bug_fails(bug, block, oracle):
    times, us, Ws = gd_xu_ziyin(SETUP, U0, W0, 1e-3, 3000, every=50, bug=bug)
    with pytest.raises(AssertionError, match="leaves the exact solution") as info:
        oracle.check(times, us, Ws, lr=1e-3)
    rep = oracle.compare(times, us, Ws, lr=1e-3)
    assert rep.errors[block][rep.first_failure] > 1
    assert "lr = 0.001" in str(info.value)


@pytest.mark.parametrize(
    ("name", "lr"), [("generic", 3e-3), ("near_parallel", 3e-4), ("P_zero_y_negative", 1e-3),
                     ("d0_1_disalign", 1e-2), ("P_less_Q", 1e-3)],
)  # fmt: skip
def test_gd_allowance_bounds_the_true_error(name, lr):
    """GD_SAFETY's measurement, pinned: on these cases the true GD error is at most 1.25 lr
    max|e| (worst 0.625 of the allowance) at an rtol far below it."""
    case = xu_ziyin.case(name)
    u0, W0_ = np.array(case.u0, float), np.array(case.W0, float)
    times, us, Ws = gd_xu_ziyin(case.setup, u0, W0_, lr, round(10 / lr), every=250)
    rep = testing.xu_ziyin(case.setup, u0, W0_).compare(times, us, Ws, lr=lr, rtol=1e-12)
    assert 0.3 < rep.worst <= 0.625, rep


def test_too_large_a_step_is_refused():
    case = xu_ziyin.case("large_init")
    u0, W0_ = np.array(case.u0, float), np.array(case.W0, float)
    times, us, Ws = gd_xu_ziyin(case.setup, u0, W0_, 1e-3, 100, every=10)
    with pytest.raises(ValueError, match=r"lr = 0.001 is too large .* GD_STEP_LIMIT"):
        testing.xu_ziyin(case.setup, u0, W0_).check(times, us, Ws, lr=1e-3)


# ---------------------------------------------------------------------------
# the other exact solutions
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["upstream", "downstream", "balanced", "scaled_inputs"])
def test_kunin_gd_trainer(name):
    case = kunin.case(name)
    a0, w0 = float(case.a0), np.array(case.w0, float)
    oracle = testing.kunin(case.setup, a0, w0)
    times, As, ws = gd_kunin(case.setup, a0, w0, 1e-3, 4000, every=100)
    rep = oracle.check(times, As, ws, lr=1e-3)
    assert rep.worst > 0.1  # the allowance is not vacuous
    times, As, ws = gd_kunin(case.setup, a0, w0, 1e-3, 4000, every=100, bug="half")
    with pytest.raises(AssertionError, match=r"kunin .*\n.*\n.*\n +a: .*\n +w: "):
        oracle.check(times, As, ws, lr=1e-3)


def test_kunin_exact_and_shapes():
    case = kunin.case("lazy")
    oracle = testing.kunin(case.setup, case.a0, case.w0)
    ts = [0, 0.01, 0.7, 3, float("inf")]  # 0.01: w still moves (lazy: converged by 0.7)
    ref = oracle.exact(ts, dps=30)
    oracle.check(ts, ref["a"], ref["w"], rtol=1e-12)
    with pytest.raises(ValueError, match=r"a \(kunin block\) must have shape \(5,\)"):
        oracle.check(ts, ref["a"][:, None], ref["w"])


def test_linear_node_scaling_gd_trainer():
    X = [["1", "0.5", "0"], ["-0.5", "1", "0.3"]]
    setup = ns.Setup(X, ["0.8", "-0.2"], ["0.5", "0.3", "0.2", "0.1"], "linear", eta="1")
    a = np.array([1.0, -1.0, 1.0, -1.0])
    W0_ = np.array([[0.6, 0.2, 0.1], [-0.3, 0.9, 0.0], [0.1, -0.4, 0.5], [0.2, 0.2, -0.2]])
    oracle = testing.linear_node_scaling(setup, a, W0_)
    times, Ws = gd_node_scaling(setup, a, W0_, 1e-2, 2000, every=100)
    rep = oracle.check(times, Ws, lr=1e-2)
    assert rep.worst > 0.1
    _, bad = gd_node_scaling(setup, a, W0_, 1e-2, 2000, every=100, bug="sqrt")
    with pytest.raises(AssertionError, match=r"linear_node_scaling .*Theorem 7\.4"):
        oracle.check(times, bad, lr=1e-2)
    ref = oracle.exact([0, 1, float("inf")], dps=30)
    oracle.check([0, 1, float("inf")], ref["W"], rtol=1e-12)


_KX = np.array([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [-0.5, 0.5, 1.0], [-1.0, 0.0, 0.0]])


def empirical_k0(X, p, samples, rng, bug=False):
    """A user's empirical NTK of f = p^-1/2 sum_j a_j relu(w_j . x) (eq. (2.3)) at
    initialisation (2.28): the Gram matrix of the parameter gradients, one per network."""
    n, d = X.shape
    out = np.empty((samples, n, n))
    for s in range(samples):
        a = rng.uniform(-1, 1, p)
        w = rng.normal(0, 1 / np.sqrt(d), (p, d))
        z = X @ w.T  # (n, p)
        da = np.maximum(z, 0) / np.sqrt(p)  # df/da_j
        gate = (z > 0) * (1.0 if bug else a)  # bug: a_j dropped from df/dw_j
        dw = (gate[:, :, None] * X[:, None, :]).reshape(n, -1) / np.sqrt(p)
        out[s] = da @ da.T + dw @ dw.T
    return out


def test_kernel_oracle_exact_and_monte_carlo():
    init = kernels.lecture_initialisation(3)
    oracle = testing.kernel("ntk", init, _KX)
    exact = kernels.gram("ntk", init, _KX, dps=30).astype(float)
    assert oracle.check(exact).passed
    off = exact.copy()
    off[2, 1] *= 1 + 1e-8
    with pytest.raises(AssertionError, match=r"at entry \(2, 1\)"):
        oracle.check(off)
    with pytest.raises(ValueError, match=r"K must have shape \(4, 4\)"):
        oracle.check(exact.ravel())
    with pytest.raises(ValueError, match="K must be finite"):
        oracle.check(np.full((4, 4), np.nan))
    rng = np.random.default_rng(0)
    rep = oracle.check_samples(empirical_k0(_KX, 32, 400, rng))
    assert rep.units <= 1 and "99.9% simultaneous normal CI" in rep.tolerance
    with pytest.raises(AssertionError, match="does not match"):
        oracle.check_samples(empirical_k0(_KX, 32, 400, rng, bug=True))
    with pytest.raises(ValueError, match=r"samples must have shape \('S', 4, 4\)"):
        oracle.check_samples(np.zeros((3, 4)))


def test_edge_cases_cover_every_named_case():
    ids = testing.edge_cases()
    assert len(ids) == len(xu_ziyin.CASES) + len(kunin.CASES)
    case = testing.edge_case("kunin:balanced")
    assert isinstance(case.out0, float) and case.in0.shape == (2,)
    ref = case.oracle().exact([0, 1])
    assert ref["a"][0] == pytest.approx(1.0, rel=1e-15)  # a0 = 1 (float64 closed form)
    with pytest.raises(ValueError, match="case_id must be 'model:name'"):
        testing.edge_case("generic")
    with pytest.raises(ValueError, match="name must be one of"):
        testing.edge_case("xu_ziyin:nope")


# ---------------------------------------------------------------------------
# the plugin, through its entry point, in a user's project (a pytest subprocess)
# ---------------------------------------------------------------------------
USER_TESTS = """\
import numpy as np
import pytest


def gd(setup, a0, w0, lr, steps, sign=1.0):
    X, y = np.array(setup.X, float), np.array(setup.y, float)
    ea, ew = float(setup.eta_a), float(setup.eta_w)
    a, w, As, ws = float(a0), np.array(w0, float), [], []
    for _ in range(steps + 1):
        As.append(a)
        ws.append(w)
        r = a * X @ w - y
        a, w = a - lr * ea * (r @ X @ w), w - sign * lr * ew * a * X.T @ r
    return lr * np.arange(steps + 1), np.array(As), np.array(ws)


@pytest.mark.solvable_cases("kunin", "lazy", "balanced", "origin")
def test_edges(solvable_edge_case, solvable_oracle):
    c = solvable_edge_case
    times, As, ws = gd(c.setup, c.out0, c.in0, 1e-3, 500)
    solvable_oracle.kunin(c.setup, c.out0, c.in0).check(times, As, ws, lr=1e-3)


@pytest.mark.solvable_cases("kunin", "upstream")
def test_sign_bug(solvable_edge_case):
    c = solvable_edge_case
    times, As, ws = gd(c.setup, c.out0, c.in0, 1e-3, 500, sign=-1.0)
    c.oracle().check(times, As, ws, lr=1e-3)


def test_unparametrised(solvable_edge_case):
    pass
"""


def test_plugin_in_a_user_project(pytester):
    pytester.makepyfile(test_user=USER_TESTS, test_readme=SNIPPET)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist", "-rA")
    result.assert_outcomes(passed=4, failed=1, errors=1)
    out = result.stdout.str()
    assert "test_edges[kunin:lazy] PASSED" in out or "PASSED test_user.py::test_edges[kunin:lazy]" \
        in out  # fmt: skip
    assert "the trajectory leaves the exact solution at times[1]" in out  # the sign bug
    assert "solvable_edge_case needs parameters" in out
    assert "test_my_trainer" in out
