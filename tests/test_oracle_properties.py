"""The pytest oracles of :mod:`solvable.verification.testing` never pass a wrong trainer (issue 27
item 3).

The trainers here play the user: gradient descent and gradient flow written by hand from
each model's loss, as a user's project would, with realistic bugs put into ONE block at a
time (every block, the first included), at early or at late times only.  Each wrong trainer
must fail; where a comparison cannot tell a trajectory from some wrong ones (times only in
the converged tail, only t = 0, step indices for times, a first-order error that is not
plain gradient descent's) the oracle must say so: an ``AssertionError`` with a hint, or an
:class:`solvable.verification.testing.OracleWarning`.  Correct trainers (flow; gradient descent at
several step sizes) must pass with no warning.  Single-entry perturbations of an exact
trajectory (hypothesis, any block, any time, any entry, both signs) are caught exactly at
the allowance the report states.
"""

from __future__ import annotations

import dataclasses
import math
import re
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import solve_ivp

from solvable.models import kernels, kunin, xu_ziyin
from solvable.models import node_scaling as ns
from solvable.verification import testing
from solvable.verification.testing import OracleWarning

pytest_plugins = ["pytester"]

# ---------------------------------------------------------------------------
# the user's side: hand-written gradients of each model's loss
# ---------------------------------------------------------------------------
LNS_SETUP = ns.Setup([["1", "0.5", "0"], ["-0.5", "1", "0.3"]], ["0.8", "-0.2"],
                     ["0.5", "0.3", "0.2", "0.1"], "linear", eta="1")  # fmt: skip
LNS_A = np.array([1.0, -1.0, 1.0, -1.0])
LNS_W0 = np.array([[0.6, 0.2, 0.1], [-0.3, 0.9, 0.0], [0.1, -0.4, 0.5], [0.2, 0.2, -0.2]])


class Model:
    """One exact solution seen from a user's trainer: its blocks, its rates, the gradient
    of its loss (hand-written, not the package's), and the oracle."""

    def __init__(self, name: str, case: str = "") -> None:
        self.name = name
        if name == "xu_ziyin":
            c = xu_ziyin.case(case)
            self.setup, self.start = c.setup, {"u": np.array(c.u0, float),
                                               "W": np.array(c.W0, float)}  # fmt: skip
            s = c.setup
            self.x, self.y, self.g = np.array(s.x, float), float(s.y), float(s.gamma)
            self.rates = {"u": float(s.eta_u), "W": float(s.eta_w)}
            self.oracle = testing.xu_ziyin(s, self.start["u"], self.start["W"])
        elif name == "kunin":
            c = kunin.case(case)
            self.setup, self.start = c.setup, {"a": np.array(float(c.a0)),
                                               "w": np.array(c.w0, float)}  # fmt: skip
            s = c.setup
            self.X, self.y = np.array(s.X, float), np.array(s.y, float)
            self.rates = {"a": float(s.eta_a), "w": float(s.eta_w)}
            self.oracle = testing.kunin(s, float(c.a0), self.start["w"])
        else:
            s = self.setup = LNS_SETUP
            self.start = {"W": LNS_W0.copy()}
            self.X, self.y = np.array(s.X, float), np.array(s.y, float)
            self.s = np.sqrt(np.array(s.lam, float))
            self.rates = {"W": float(s.eta)}
            self.oracle = testing.linear_node_scaling(s, LNS_A, LNS_W0)

    @property
    def blocks(self) -> list[str]:
        return list(self.start)

    def grads(self, p: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        if self.name == "xu_ziyin":  # L = (gamma u^T W x - y)^2
            r = self.g * p["u"] @ p["W"] @ self.x - self.y
            return {"u": 2 * r * self.g * (p["W"] @ self.x),
                    "W": 2 * r * self.g * np.outer(p["u"], self.x)}  # fmt: skip
        if self.name == "kunin":  # L = 1/2 |a X w - y|^2
            r = p["a"] * self.X @ p["w"] - self.y
            return {"a": np.array(r @ self.X @ p["w"]), "w": p["a"] * self.X.T @ r}
        d = self.X.shape[1]  # L = 1/2 |f - y|^2, f = X W^T (s a) / sqrt(d)
        r = (self.X @ p["W"].T / np.sqrt(d)) @ (self.s * LNS_A) - self.y
        return {"W": np.outer(self.s * LNS_A, self.X.T @ r) / np.sqrt(d)}

    def gd(self, lr: float, steps: int, every: int, bug: tuple[str, str, str] | None = None,
           sequential: bool = False) -> tuple[np.ndarray, dict[str, np.ndarray]]:  # fmt: skip
        """Gradient descent ``p -= lr eta_b dL/dp_b``; ``bug = (block, window, kind)``:
        ``kind`` "rate" (that block's gradient 1.5x: a wrong learning rate) or "decay" (that
        block shrunk by ``1 - 0.1 lr`` per step: a weight decay left on), in ``window``
        "early" (the first eighth of the steps) or "late" (the second half) only.
        ``sequential``: the layers updated one after the other (the later ones with the
        earlier ones' new values)."""
        p = {b: v.copy() for b, v in self.start.items()}
        out: dict[str, list[np.ndarray]] = {b: [] for b in p}
        for k in range(steps + 1):
            if k % every == 0:
                for b in p:
                    out[b].append(p[b].copy())
            on = bug is not None and (k < steps // 8 if bug[1] == "early" else k >= steps // 2)
            g = self.grads(p)
            for b in self.blocks:
                step = lr * self.rates[b] * g[b]
                if on and bug[0] == b and bug[2] == "rate":
                    step = 1.5 * step
                p[b] = p[b] - step
                if on and bug[0] == b and bug[2] == "decay":
                    p[b] = p[b] * (1 - 0.1 * lr)
                if sequential:
                    g = self.grads(p)
        times = lr * np.arange(0, steps + 1, every)
        return times, {b: np.array(v) for b, v in out.items()}

    def flow(self, times: np.ndarray) -> dict[str, np.ndarray]:
        """Gradient flow by scipy's DOP853 on the hand-written gradient (rtol 1e-12: its
        error, ~1e-11 relative, is far inside the rtol = 1e-8 the tests ask of it)."""
        shapes = {b: v.shape for b, v in self.start.items()}
        sizes = [int(np.prod(s)) for s in shapes.values()]

        def unpack(y: np.ndarray) -> dict[str, np.ndarray]:
            parts = np.split(y, np.cumsum(sizes)[:-1])
            return {b: v.reshape(shapes[b]) for b, v in zip(shapes, parts, strict=True)}

        def rhs(_t: float, y: np.ndarray) -> np.ndarray:
            g = self.grads(unpack(y))
            return np.concatenate([-self.rates[b] * np.ravel(g[b]) for b in shapes])

        y0 = np.concatenate([np.ravel(v) for v in self.start.values()])
        sol = solve_ivp(rhs, (0, float(times[-1])), y0, method="DOP853", t_eval=times,
                        rtol=1e-12, atol=1e-14)  # fmt: skip
        assert sol.success
        return {b: np.stack([unpack(y)[b] for y in sol.y.T]) for b in shapes}


MODELS = {
    "xu_ziyin:generic": ("xu_ziyin", "generic"),
    "xu_ziyin:P_less_Q": ("xu_ziyin", "P_less_Q"),
    "xu_ziyin:d0_1_negative_x": ("xu_ziyin", "d0_1_negative_x"),
    "kunin:upstream": ("kunin", "upstream"),
    "kunin:negative_a": ("kunin", "negative_a"),
    "kunin:scaled_inputs": ("kunin", "scaled_inputs"),
    "linear_node_scaling": ("linear_node_scaling", ""),
}
_CACHE: dict[str, Model] = {}


def model(key: str) -> Model:
    if key not in _CACHE:
        _CACHE[key] = Model(*MODELS[key])
    return _CACHE[key]


def strict(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with every OracleWarning raised as an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", OracleWarning)
        return fn(*args, **kwargs)


HORIZON = 4.0  # flow time: every case still moves at t = 0.5 and has slowed by t = 4


# ---------------------------------------------------------------------------
# correct trainers pass, with no warning
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("key", list(MODELS))
@pytest.mark.parametrize("lr", [1e-3, 4e-3])
def test_correct_gradient_descent_passes_without_warning(key, lr):
    m = model(key)
    times, got = m.gd(lr, round(HORIZON / lr), round(0.25 / lr))
    report = strict(m.oracle.check, times, **got, lr=lr)
    assert report.passed and not report.notes
    # the allowance is not vacuous: the first-order error is a visible share of it
    assert report.worst > 0.05, report


@pytest.mark.parametrize("key", list(MODELS))
def test_correct_gradient_flow_passes_without_warning(key):
    m = model(key)
    times = np.linspace(0, HORIZON, 17)
    report = strict(m.oracle.check, times, **m.flow(times), rtol=1e-8)
    assert report.passed and not report.notes


# ---------------------------------------------------------------------------
# a bug in one block, early or late: always a failure, in that block, not before the bug
# ---------------------------------------------------------------------------
BUGS = [(key, b, window, kind) for key in MODELS for b in model(key).blocks
        for window, kind in (("early", "rate"), ("late", "decay"))]  # fmt: skip


@pytest.mark.parametrize(("key", "block", "window", "kind"), BUGS,
                         ids=[f"{k}-{b}-{w}-{kd}" for k, b, w, kd in BUGS])  # fmt: skip
def test_a_bug_in_any_one_block_at_early_or_late_times_fails(key, block, window, kind):
    m = model(key)
    lr = 2e-3
    steps = round(HORIZON / lr)
    times, got = m.gd(lr, steps, steps // 32, bug=(block, window, kind))
    with pytest.raises(AssertionError, match="leaves the exact solution") as info:
        m.oracle.check(times, **got, lr=lr)
    report = m.oracle.compare(times, **got, lr=lr)
    start = 0.0 if window == "early" else lr * (steps // 2)
    assert times[report.first_failure] > start  # no failure before the bug acts
    assert np.max(report.errors[block]) > 1  # the bugged block itself is caught
    assert str(report) == str(info.value)  # the message is the report, first line first
    # the paper by its short citation (solvable.papers), not by its seed file
    assert re.match(rf"{m.name} \((Xu & Ziyin 2024|Kunin et al\. 2024|Node scaling \(anon\.\)), ",
                    str(info.value))  # fmt: skip


@given(key=st.sampled_from(list(MODELS)), data=st.data())
@settings(max_examples=40)
def test_one_wrong_entry_anywhere_fails_exactly_at_the_allowance(key, data):
    """The exact trajectory (30 digits) with ONE entry of one block at one time moved by
    ``factor`` times that block's stated allowance there: ``factor > 1`` fails at exactly
    that time and block, ``factor < 1`` passes.  1 +- 1e-3 around the threshold: the exact
    trajectory's own error is rounding, ~1e-16 relative, 1e-10 of the rtol = 1e-6
    allowance."""
    m = model(key)
    times = np.array([0.0, 0.05, 0.3, 1.0, 2.5, HORIZON])
    exact = m.oracle.exact(times, dps=30)
    block = data.draw(st.sampled_from(m.blocks))
    k = data.draw(st.integers(1, len(times) - 1))  # t = 0 too: see below
    entry = data.draw(st.integers(0, max(exact[block][k].size - 1, 0)))
    factor = data.draw(st.sampled_from([1.001, 3.0, 1e6, 0.999, 0.5]))
    sign = data.draw(st.sampled_from([1.0, -1.0]))
    base = m.oracle.compare(times, **exact)
    got = {b: v.copy() for b, v in exact.items()}
    flat = got[block].reshape(len(times), -1)
    flat[k, entry] += sign * factor * base.allowed[block][k]
    report = m.oracle.compare(times, **got)
    if factor > 1:
        assert report.first_failure == k
        assert report.errors[block][k] == pytest.approx(factor, rel=1e-6)
        assert all(np.all(report.errors[b] <= 1e-6) for b in m.blocks if b != block)
    else:
        assert report.passed


@pytest.mark.parametrize("key", ["xu_ziyin:generic", "kunin:upstream"])
def test_a_wrong_start_in_any_block_fails_at_t_0(key):
    m = model(key)
    times = np.array([0.0, 0.5, 1.0])
    exact = m.oracle.exact(times)
    for block in m.blocks:
        got = {b: v.copy() for b, v in exact.items()}
        got[block].reshape(3, -1)[0, 0] += 1e-3
        report = m.oracle.compare(times, **got)
        assert report.first_failure == 0 and report.errors[block][0] > 1


@pytest.mark.parametrize("key", ["xu_ziyin:generic", "kunin:scaled_inputs"])
def test_step_limit_refuses_exactly_above_it(key):
    """``lr max_t ||J(theta(t))||_2 <= GD_STEP_LIMIT`` decides the refusal, with ``J`` the
    Jacobian of the flow's field at the exact states of the given times: here ``J`` from
    central differences of the hand-written gradient (relative error ~1e-8), and step sizes
    ``0.5 / k`` (so the times 0, 0.5, ..., 4 are multiples) on both sides of the limit,
    none within 1e-3 of it."""
    m = model(key)
    times = np.arange(0, 4.5, 0.5)
    exact = m.oracle.exact(times, dps=30)
    shapes = {b: v.shape for b, v in m.start.items()}

    def field(y: np.ndarray) -> np.ndarray:
        parts = np.split(y, np.cumsum([int(np.prod(s)) for s in shapes.values()])[:-1])
        g = m.grads({b: v.reshape(shapes[b]) for b, v in zip(shapes, parts, strict=True)})
        return np.concatenate([-m.rates[b] * np.ravel(g[b]) for b in shapes])

    norms = []
    for k in range(len(times)):
        y = np.concatenate([np.ravel(exact[b][k]) for b in shapes])
        h = 1e-6 * max(1.0, float(np.max(np.abs(y))))
        J = np.column_stack([(field(y + h * e) - field(y - h * e)) / (2 * h)
                             for e in np.eye(y.size)])  # fmt: skip
        norms.append(np.linalg.norm(J, 2))
    limit_lr = testing.GD_STEP_LIMIT / max(norms)
    ks = [k for k in range(1, 4000) if abs(0.5 / k / limit_lr - 1) > 1e-3]
    above = max(k for k in ks if 0.5 / k > limit_lr)  # the smallest step above the limit
    below = min(k for k in ks if 0.5 / k < limit_lr)  # the largest step below it
    for k, refused in ((above, True), (below, False)):
        lr = 0.5 / k
        _, got = m.gd(lr, 8 * k, k)
        try:
            m.oracle.compare(times, **got, lr=lr)
            assert not refused, f"lr = {lr:.6g} > the limit {limit_lr:.6g} was not refused"
        except ValueError as exc:
            assert refused and "GD_STEP_LIMIT" in str(exc), f"lr = {lr:.6g}: {exc}"


# ---------------------------------------------------------------------------
# exact blocks identically zero: atol = 0 admits no error at all
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(("make", "blocks"), [
    (lambda: testing.xu_ziyin(xu_ziyin.case("saddle").setup, np.zeros(3), np.zeros((3, 2))),
     {"u": (3,), "W": (3, 2)}),
    (lambda: testing.kunin(kunin.case("origin").setup, 0.0, np.zeros(2)), {"a": (), "w": (2,)}),
])  # fmt: skip
def test_identically_zero_exact_blocks_admit_no_error(make, blocks):
    """A start at the saddle (seed 001) / the origin (seed 003) stays there: the exact
    blocks are 0 at every time, so with ``atol = 0`` the smallest non-zero entry (the
    smallest subnormal, in any block) fails with an infinite error, and ``atol`` admits it."""
    oracle = make()
    times = np.array([0.0, 1.0, 10.0])
    zeros = {b: np.zeros((3, *s)) for b, s in blocks.items()}
    assert strict(oracle.check, times, **zeros).passed
    for block in blocks:
        got = {b: v.copy() for b, v in zeros.items()}
        got[block].reshape(3, -1)[2, -1] = 5e-324
        report = oracle.compare(times, **got)
        assert report.first_failure == 2 and report.errors[block][2] == np.inf
        with pytest.raises(AssertionError, match=r"inf tolerances"):
            oracle.check(times, **got)
        assert oracle.compare(times, **got, atol=1e-300).passed


# ---------------------------------------------------------------------------
# comparisons that cannot tell right from wrong say so
# ---------------------------------------------------------------------------
def test_times_only_in_the_converged_tail_warn():
    """kunin's lazy case has converged by t = 0.7 (w within 1e-16 of its limit): checking
    only t >= 0.7 cannot tell the flow from a trainer that jumps to the limit; the oracle
    passes both and warns, naming the first time.  With t = 0.01 (w still 3e-2 away) the
    jump fails and nothing is said."""
    c = kunin.case("lazy")
    oracle = testing.kunin(c.setup, c.a0, c.w0)
    tail = np.array([0.0, 0.7, 3.0])
    exact = oracle.exact(tail, dps=30)
    limit = oracle.exact([np.inf], dps=30)
    jump = {b: np.concatenate([exact[b][:1], np.repeat(limit[b], 2, axis=0)]) for b in exact}
    for got in (exact, jump):
        with pytest.warns(OracleWarning, match=r"first: 0\.7\) is in the converged tail"):
            oracle.check(tail, **got, rtol=1e-12)
    early = np.array([0.0, 0.01, 0.7, 3.0])
    exact = oracle.exact(early, dps=30)
    assert strict(oracle.check, early, **exact, rtol=1e-12).passed
    jump = {b: np.concatenate([exact[b][:1], np.repeat(limit[b], 3, axis=0)]) for b in exact}
    with pytest.raises(AssertionError, match=r"times\[1\] = 0\.01"):
        oracle.check(early, **jump, rtol=1e-12)


def test_only_t_0_warns():
    m = model("xu_ziyin:generic")
    got = {b: v[None] for b, v in m.start.items()}
    with pytest.warns(OracleWarning, match="only the initial condition"):
        m.oracle.check([0.0], **got)


@pytest.mark.parametrize("lr", [1e-3, None])
def test_step_indices_as_times_fail_with_a_hint(lr):
    m = model("xu_ziyin:generic")
    _, got = m.gd(1e-3, 2000, 100)
    steps = np.arange(0, 2001, 100).astype(float)  # the step index k, not k * lr
    with pytest.raises(AssertionError, match=r"step index k .* times = k \* lr"):
        m.oracle.check(steps, **got, lr=lr)


@pytest.mark.parametrize("key", ["xu_ziyin:generic", "xu_ziyin:P_less_Q", "kunin:upstream"])
def test_layers_updated_in_sequence_warn(key):
    """Updating the second layer with the first layer's new values is first order in lr,
    like gradient descent itself, and can fit the first-order allowance (0.88 of it on
    xu_ziyin generic at lr = 1e-3); its O(lr) error is not gradient descent's ``lr e(t)``,
    which the oracle knows, so it warns."""
    m = model(key)
    lr = 2e-3
    times, got = m.gd(lr, round(HORIZON / lr), round(0.25 / lr), sequential=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            m.oracle.check(times, **got, lr=lr)
        except AssertionError as exc:  # or it fails outright: also a catch
            assert "not plain gradient descent's" in str(exc)
            return
    assert any("not plain gradient descent's" in str(w.message) for w in caught)


# ---------------------------------------------------------------------------
# the kernel oracle: any single entry
# ---------------------------------------------------------------------------
_KX = np.array([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [-0.5, 0.5, 1.0], [-1.0, 0.0, 0.0]])


@given(name=st.sampled_from(["nngp", "rf", "ntk_first_layer", "ntk"]), i=st.integers(0, 3),
       j=st.integers(0, 3), factor=st.sampled_from([1.01, 50.0, 0.99, 0.3]),
       sign=st.sampled_from([1.0, -1.0]))  # fmt: skip
@settings(max_examples=40)
def test_kernel_oracle_catches_any_single_entry(name, i, j, factor, sign):
    """One entry of the exact Gram matrix (30 digits) moved by ``factor`` times the
    normwise allowance ``rtol max|K|`` (rtol = 1e-10): > 1 fails at that entry, < 1
    passes (the exact matrix's own error is ~1e-16, 1e-6 of the allowance)."""
    init = kernels.lecture_initialisation(3)
    oracle = testing.kernel(name, init, _KX)
    K = kernels.gram(name, init, _KX, dps=30).astype(float)
    K[i, j] += sign * factor * 1e-10 * np.max(np.abs(K))
    report = oracle.compare(K)
    assert report.passed == (factor < 1)
    if factor > 1:
        assert report.worst == (i, j)
        with pytest.raises(AssertionError, match=rf"at entry \({i}, {j}\)"):
            oracle.check(K)


def test_kernel_samples_judged_per_entry_by_its_own_interval():
    """Monte Carlo kernels: a biased entry of small variance fails even when an unbiased
    entry of large variance is further from the exact value in absolute terms (the verdict
    is the worst entry in units of ITS interval, not the largest raw difference).  Samples
    are the exact Gram plus Gaussian noise: sd 0.05 on (0, 0) (mean error ~0.05/sqrt(400)
    = 2.5e-3, inside its interval), sd 1e-6 and a bias of 1e-4 (400 standard errors) on the
    symmetric pair (1, 2), (2, 1)."""
    init = kernels.lecture_initialisation(3)
    oracle = testing.kernel("ntk_first_layer", init, _KX)
    exact = kernels.gram("ntk_first_layer", init, _KX, dps=30).astype(float)
    rng = np.random.default_rng(3)
    S = 400
    samples = np.repeat(exact[None], S, axis=0)
    samples[:, 0, 0] += rng.normal(0, 0.05, S)
    pair = 1e-4 + rng.normal(0, 1e-6, S)
    samples[:, 1, 2] += pair
    samples[:, 2, 1] += pair
    report = oracle.compare_samples(samples)
    assert not report.passed and report.worst in ((1, 2), (2, 1)), report
    assert abs(np.mean(samples[:, 0, 0]) - exact[0, 0]) > 1e-4  # the raw largest is elsewhere
    samples[:, 1, 2] -= 1e-4
    samples[:, 2, 1] -= 1e-4
    assert oracle.compare_samples(samples).passed
    # the exact matrix S times: every half-width is 0 or a few ulps of rounding, and the
    # entries are compared at the kernels' float64 accuracy (it failed at 5 units before)
    for count in (2, 7, 400):
        assert oracle.compare_samples(np.repeat(exact[None], count, axis=0)).passed


# ---------------------------------------------------------------------------
# pytest shows the user's line and the oracle's message, not the oracle's frames
# ---------------------------------------------------------------------------
def test_failure_shows_the_message_not_the_oracle_frames(pytester):
    pytester.makepyfile(
        test_user="""
        import numpy as np
        from solvable.verification import testing
        from solvable.models import xu_ziyin

        def test_mine():
            c = xu_ziyin.case("generic")
            oracle = testing.xu_ziyin(c.setup, np.array(c.u0, float), np.array(c.W0, float))
            ref = oracle.exact([0.0, 1.0])
            ref["u"][1, 0] += 1e-3
            oracle.check([0.0, 1.0], ref["u"], ref["W"])  # USER LINE
    """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "USER LINE" in out
    assert "solvable/verification/testing.py" not in out and "def compare(" not in out
    first_e = next(line for line in out.splitlines() if line.startswith("E "))
    assert "xu_ziyin (Xu & Ziyin 2024, Theorem 1 / Proposition 1): the trajectory leaves" in first_e


RAISING_ENTRIES = [
    "xu_ziyin.check",
    "kunin.check",
    "linear_node_scaling.check",
    "assert_matches_closed_form",
    "kernel.check",
    "kernel.check_samples",
]


def _failing_call(entry):
    """A call of ``entry`` (an entry of :mod:`solvable.verification.testing` that raises
    ``AssertionError``) on a wrong input: one entry of the exact answer moved."""
    name = entry.split(".")[0]
    if entry.endswith(".check") and name != "kernel":
        m = Model(name, {"xu_ziyin": "generic", "kunin": "upstream"}.get(name, ""))
        got = m.oracle.exact([0.0, 1.0])
        first = next(iter(got))
        got[first] = got[first].copy()
        got[first][(1,) + (0,) * (got[first].ndim - 1)] += 1e-3
        return lambda: m.oracle.check([0.0, 1.0], **got)
    if entry == "assert_matches_closed_form":
        c = xu_ziyin.case("generic")
        u0, W0 = np.array(c.u0, float), np.array(c.W0, float)
        ref = testing.xu_ziyin(c.setup, u0, W0).exact([0.0, 1.0])
        ref["u"][1, 0] += 1e-3
        return lambda: testing.assert_matches_closed_form(
            c.setup, u0, W0, [0.0, 1.0], ref["u"], ref["W"]
        )
    init = kernels.lecture_initialisation(3)
    oracle = testing.kernel("ntk_first_layer", init, _KX)
    K = kernels.gram("ntk_first_layer", init, _KX, dps=30).astype(float)
    K[0, 0] *= 1.1
    if entry == "kernel.check":
        return lambda: oracle.check(K)
    return lambda: oracle.check_samples(np.repeat(K[None], 5, axis=0))


@pytest.mark.parametrize("entry", RAISING_ENTRIES)
def test_every_raising_entry_hides_the_oracle_frames(entry):
    """In-process (line coverage sees it, unlike the subprocess test above), for every
    entry that raises: the traceback pytest shows (hidden frames filtered out, as pytest
    filters them) holds no frame of solvable/verification/testing.py, so the user's line and the
    message are what a failure shows."""
    call = _failing_call(entry)
    with pytest.raises(AssertionError) as info:
        call()
    shown = [str(e.path) for e in info.traceback.filter(info)]
    assert not [p for p in shown if p.endswith("solvable/verification/testing.py")], (entry, shown)
    assert str(info.value).strip(), entry


def test_time_not_a_multiple_of_lr_is_named_by_its_index():
    """Gradient-descent times must be ``k * lr`` up to a relative slack ``1e-6 k`` (float
    ``k * lr`` or a running sum): with lr = 1e-3, ``5000.002 lr`` is within that slack
    (0.002 < 1e-6 x 5000 = 5e-3) and ``2.6 lr`` is not, so the error names times[2]."""
    m = model("xu_ziyin:generic")
    lr = 1e-3
    times = [0.0, 5000.002 * lr, 2.6 * lr]
    got = m.oracle.exact(times)
    with pytest.raises(ValueError, match="multiples k") as info:
        m.oracle.compare(times, **got, lr=lr)
    assert "times[2]" in str(info.value) and "times[1]" not in str(info.value), info.value
    # a refusal the oracle's entries raise themselves shows the user's line, not their frames
    # (compare and check both hide theirs: seed-4 mutant testing.py:504 unhid compare's)
    for call in (m.oracle.compare, m.oracle.check):
        with pytest.raises(ValueError, match="multiples k") as info:
            call(times, **got, lr=lr)
        shown = [str(e.path) for e in info.traceback.filter(info)]
        assert not [f for f in shown if f.endswith("solvable/verification/testing.py")], (
            call,
            shown,
        )


def test_a_nan_error_in_any_block_fails_the_report():
    """A Report fails closed on an error that is NaN (a comparison that failed to compute):
    in any block, not only the first (Python's ``max`` and ``err > 1`` both drop a NaN that
    is not first), it is the first failure, the worst (NaN) and named in the message."""
    m = model("xu_ziyin:generic")
    times = np.linspace(0, HORIZON, 5)
    report = strict(m.oracle.compare, times, **m.flow(times), rtol=1e-8)
    assert report.passed and len(report.errors) >= 2
    for block in report.errors:
        errors = {b: np.array(e, dtype=float) for b, e in report.errors.items()}
        errors[block][2] = np.nan
        bad = dataclasses.replace(report, errors=errors)
        assert not bad.passed and bad.first_failure == 2, block
        assert math.isnan(bad.worst), block
        assert f"worst: {block}, nan tolerances" in str(bad), str(bad)


def test_the_report_counts_a_nan_time_among_the_failing_ones():
    """The message's count of failing times counts a time whose error is NaN (an outside
    reviewer's mutant counted only ``err > 1``: "the first of 0 failing times")."""
    m = model("xu_ziyin:generic")
    times = np.linspace(0, HORIZON, 5)
    report = strict(m.oracle.compare, times, **m.flow(times), rtol=1e-8)
    block = next(iter(report.errors))
    errors = {b: np.array(e, dtype=float) for b, e in report.errors.items()}
    errors[block][[1, 3]] = [np.nan, 2.0]
    assert "the first of 2 failing times of 5" in str(dataclasses.replace(report, errors=errors))


@pytest.mark.parametrize("confidence", [0.0, 1.0, -0.5, 1.5])
def test_kernel_samples_confidence_is_refused_at_and_beyond_both_ends(confidence):
    """``compare_samples(confidence=)`` must be in the open interval (0, 1): each end (a
    confidence of 0 or 1 makes the interval empty or infinite) and beyond it is a
    ValueError naming confidence (seed-4 mutant testing.py:847 ``0 < conf < 1`` with one
    ``<`` made ``<=`` accepted an end); just inside each end is accepted."""
    init = kernels.lecture_initialisation(3)
    oracle = testing.kernel("ntk_first_layer", init, _KX)
    exact = kernels.gram("ntk_first_layer", init, _KX, dps=30).astype(float)
    samples = np.repeat(exact[None], 3, axis=0)
    with pytest.raises(ValueError, match=r"confidence must be in \(0, 1\)"):
        oracle.compare_samples(samples, confidence=confidence)
    inside = min(max(confidence, 1e-3), 1 - 1e-3)
    assert oracle.compare_samples(samples, confidence=inside).passed


@pytest.mark.parametrize("scale", [1e-4, 1.0, 1e4])
def test_kernel_samples_floor_is_relative_to_the_kernel_at_every_scale(scale):
    """The half-width of ``compare_samples`` is at least the kernels' float64 accuracy,
    1e-13 relative to ``max|exact|`` (its docstring), at every scale of the inputs: the
    exact Gram S times passes, and S samples all 1e-10 relatively too large (no variance:
    a biased kernel) fail, at 1e-4, 1 and 1e4 times the inputs (kernel entries ~1e-8 .. 1e8).
    Seed-4 mutant testing.py:858 (``rtol * max|exact|`` -> ``rtol % max|exact|``) made the
    floor 1e-13 absolute, passing the biased kernel at small scales."""
    init = kernels.lecture_initialisation(3)
    X = [[scale * v for v in row] for row in _KX]
    oracle = testing.kernel("ntk_first_layer", init, X)
    exact = kernels.gram("ntk_first_layer", init, X, dps=30).astype(float)
    for count in (2, 7):
        assert oracle.compare_samples(np.repeat(exact[None], count, axis=0)).passed, count
        biased = np.repeat(exact[None] * (1 + 1e-10), count, axis=0)
        assert not oracle.compare_samples(biased).passed, count


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_low_precision_torch_trajectories_are_read_exactly(dtype):
    """A trainer in float16, bfloat16 or float32 (torch) is compared through its values
    widened exactly to float64 (numpy has no bfloat16: the oracle converts the tensor
    first; seed-4 mutant testing.py:176 made every floating tensor skip that and bfloat16
    fail): the exact answer rounded to the dtype passes at an rtol above the dtype's
    rounding (bfloat16: 2^-8 relative, so 1e-2), and the report's worst error is that of the
    rounded values, computed in float64."""
    m = model("xu_ziyin:generic")
    times = [0.0, 0.5, 2.0]
    exact = m.oracle.exact(times)
    low = {b: torch.tensor(v).to(getattr(torch, dtype)) for b, v in exact.items()}
    report = m.oracle.compare(times, **low, rtol=1e-2)
    assert report.passed, report
    widened = {b: t.double().numpy() for b, t in low.items()}
    assert report.worst == m.oracle.compare(times, **widened, rtol=1e-2).worst
