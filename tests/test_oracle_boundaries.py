"""Boundaries of the :mod:`solvable.verification.testing` oracles that no other test read: each test
checks a documented behaviour from both sides of a constant, a threshold, a default or an
index, where the sampled mutation runs found (or could find) survivors.

Most tests use seed 003's single neuron started at the origin: it stays there, so its
exact blocks are exactly 0 at every time and a block's allowance ``atol + rtol max|exact|``
is exactly ``atol``; an entry set to ``c * atol`` (``c`` a dyadic number) is then exactly
``c`` tolerances, with no rounding, so a trainer exactly at the tolerance can be built.
"""

from __future__ import annotations

import inspect
import math
import re
import warnings
from types import SimpleNamespace

import numpy as np
import pytest

from solvable._core.numbers import Float64RangeError
from solvable._core.tolerance import Tolerance
from solvable.models import kernels, xu_ziyin
from solvable.models import kunin as kn
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.verification import testing

ORIGIN = kn.case("origin")
# the origin case's data with small rates: its Jacobian at the origin has norm
# sqrt(eta_a eta_w) |X^T y| = 0.01 * 1.118, so even lr = 1 is far below GD_STEP_LIMIT
SLOW = kn.Setup("0.01", "0.01", ORIGIN.setup.X, ORIGIN.setup.y)
UPSTREAM = kn.case("upstream")
NEURON = kn.SYSTEMS[0]  # the single neuron's System (the one the kunin oracle simulates)


def _origin(setup=ORIGIN.setup):
    """The single neuron started at the origin ``a = 0, w = 0``: exactly 0 at every time."""
    return testing.kunin(setup, 0.0, np.zeros(2))


def _zeros(times, entries=()):
    """Blocks ``a`` (T,) and ``w`` (T, 2) of zeros, with ``w[k, 0] = value`` for each
    ``(k, value)`` of ``entries``."""
    w = np.zeros((len(times), 2))
    for k, value in entries:
        w[k, 0] = value
    return {"a": np.zeros(len(times)), "w": w}


def _flow(setup, a0, w0):
    """The single neuron's flow, parameters and packed start, as the oracle builds them."""
    weights = NEURON.initial(setup, a0, w0)
    flow = NEURON.flow(setup, {b: w.shape for b, w in weights.items()})
    return flow, NEURON.flow_parameters(setup, float), [float(v) for v in flow.pack(weights)]


def _gd_neuron(setup, a0, w0, lr, steps, every):
    """A user's plain gradient descent on ``L = 1/2 |a X w - y|^2`` (hand-written
    gradients), every ``every``-th step kept, with its flow times ``k * lr``."""
    X, y = np.array(setup.X, float), np.array(setup.y, float)
    ea, ew = float(setup.eta_a), float(setup.eta_w)
    a, w = float(a0), np.array(w0, float)
    As, ws = [a], [w.copy()]
    for k in range(1, steps + 1):
        r = a * X @ w - y
        a, w = a - lr * ea * (r @ X @ w), w - lr * ew * a * X.T @ r
        if k % every == 0:
            As.append(a)
            ws.append(w.copy())
    return lr * np.arange(0, steps + 1, every), np.array(As), np.array(ws)


def _whole_note(report):
    return any("whole number" in note for note in report.notes)


def _rule_note(report):
    return any("not plain gradient descent's" in note for note in report.notes)


# ---------------------------------------------------------------------------
# the verdict: an error of exactly 1 tolerance passes
# ---------------------------------------------------------------------------
def test_an_error_of_exactly_one_tolerance_passes_and_more_fails():
    """Module docstring: "errors are reported in units of that allowance (pass: ``<= 1``)".
    An entry of exactly ``atol`` (1.0 tolerances) passes, the next float above it and 1.5
    tolerances fail (mutants: ``err <= 1`` made ``< 1``, ``<= 2`` or ``<= 0``)."""
    oracle = _origin()
    times = [0.0, 0.5, 1.5]
    atol = 2.0**-10
    at = oracle.compare(times, **_zeros(times, [(1, atol)]), atol=atol)
    assert at.passed and at.first_failure is None and at.errors["w"][1] == 1.0
    assert at.worst == 1.0
    # the passing message names the worst block, error and time
    assert "matches the exact solution at all 3 times (worst: w, 1 tolerances at t = 0.5)" in (
        str(at)
    )
    above = oracle.compare(times, **_zeros(times, [(1, np.nextafter(atol, 1.0))]), atol=atol)
    assert not above.passed and above.first_failure == 1
    half = oracle.compare(times, **_zeros(times, [(2, 1.5 * atol)]), atol=atol)
    assert not half.passed and half.first_failure == 2 and half.errors["w"][2] == 1.5
    assert oracle.compare(times, **_zeros(times, [(1, 0.5 * atol)]), atol=atol).passed


def test_the_message_counts_failing_times_not_those_at_the_tolerance():
    """The failure message's "the first of N failing times of T": errors (in tolerances)
    0, 1 (passes), 1.5, 0.5 and 3 at five times are 2 failing times, the first at
    times[2]; the worst, 3 tolerances at t = 3.5 (mutants of ``not e[j] <= 1`` in the
    count: ``< 1`` counts 3, ``<= 2`` counts 1, ``<= 0`` counts 4)."""
    oracle = _origin()
    times = [0.0, 0.5, 1.5, 2.5, 3.5]
    atol = 2.0**-10
    got = _zeros(times, [(1, atol), (2, 1.5 * atol), (3, 0.5 * atol), (4, 3 * atol)])
    with pytest.raises(AssertionError) as info:
        oracle.check(times, **got, atol=atol)
    want = ("the trajectory leaves the exact solution at times[2] = 1.5, the first of 2 "
            "failing times of 5 (worst: w, 3 tolerances at t = 3.5)")  # fmt: skip
    assert want in str(info.value)


def test_a_difference_of_exactly_one_is_measured_like_any_other():
    """``_units``' rule: ``diff / allowance``, 0 only where ``diff == 0``, ``inf`` where only
    the allowance is 0.  A difference of exactly 1.0 is no exception: against ``atol = 0.5``
    it is 2 tolerances, against ``atol = 0`` (an exact block identically 0) infinitely many
    (mutants ``diff == 0`` -> ``diff == 1`` and ``diff != 0`` -> ``diff != 1``)."""
    oracle = _origin()
    times = [0.0, 0.5]
    got = _zeros(times, [(1, 1.0)])
    report = oracle.compare(times, **got, atol=0.5)
    assert report.errors["w"][1] == 2.0 and not report.passed
    report = oracle.compare(times, **got)  # atol = 0: nothing but 0 is allowed
    assert report.errors["w"][1] == math.inf and not report.passed
    assert oracle.compare(times, **_zeros(times)).worst == 0.0


# ---------------------------------------------------------------------------
# the failure message's hints and formats
# ---------------------------------------------------------------------------
def test_whole_number_hint_needs_whole_times_a_real_failure_and_two_times():
    """The hint "every time is a whole number: ... pass times = k * lr" is given when every
    time is a whole number, there are at least 2 times (one time ``t = 1`` is no pattern),
    a block fails its tolerance (an error of exactly 1 does not) and ``lr`` is not 1 (with
    ``lr = 1`` whole times ARE the multiples ``k * lr``).  Mutants: ``n >= 2`` -> ``> 2`` /
    ``>= 1`` / ``>= 3`` / ``!= 2``; ``units > 1`` -> ``>= 1`` / ``> 2``; either ``and`` of the
    rule -> ``or``; ``lr != 1`` -> ``lr != 0`` / ``lr != 2``; ``lr is None`` -> ``is not``."""
    atol = 2.0**-10
    oracle = _origin(SLOW)

    def report(times, entries, lr=None):
        return oracle.compare(times, **_zeros(times, entries), atol=atol, lr=lr)

    three = [0.0, 1.0, 2.0]
    assert _whole_note(report(three, [(1, 1.5 * atol)]))  # fails: the hint
    exact_one = report(three, [(1, atol)])  # passes at exactly 1 tolerance: no hint
    assert exact_one.passed and not _whole_note(exact_one)
    assert _whole_note(report([0.0, 1.0], [(1, 1.5 * atol)]))  # two times suffice
    single = report([1.0], [(0, 1.5 * atol)])
    assert not single.passed and not _whole_note(single)  # one time: no pattern
    halves = report([0.0, 0.5, 1.5], [(1, 1.5 * atol)])
    assert not halves.passed and not _whole_note(halves)  # not whole numbers
    with_lr_1 = report(three, [(1, 1.5 * atol)], lr=1.0)
    assert not with_lr_1.passed and not _whole_note(with_lr_1)  # k * lr with lr = 1
    assert _whole_note(report(three, [(1, 1.5 * atol)], lr=0.5))


def test_the_lr_hint_is_only_for_a_failing_exact_flow_check():
    """The line "(a gradient-descent trajectory has an O(lr) discretisation error: pass
    lr=...)" explains a failure of the exact-flow check; a passing report has none, and a
    failing gradient-descent check (``lr`` given) has none either (mutant: ``and`` -> ``or``)."""
    hint = "a gradient-descent trajectory has an O(lr) discretisation error"
    atol = 2.0**-10
    times = [0.0, 0.5, 1.5]
    oracle = _origin(SLOW)
    flow_fail = oracle.compare(times, **_zeros(times, [(1, 1.5 * atol)]), atol=atol)
    assert hint in str(flow_fail)
    flow_pass = oracle.compare(times, **_zeros(times, [(1, atol)]), atol=atol)
    assert flow_pass.passed and hint not in str(flow_pass)
    gd_fail = oracle.compare(times, **_zeros(times, [(1, 1.5 * atol)]), atol=atol, lr=0.5)
    assert not gd_fail.passed and hint not in str(gd_fail)


def test_scalar_outputs_and_losses_are_shown_to_ten_significant_digits():
    """The failure message's "f: exact ..., got ..." and "loss: exact ..., got ..." lines
    show a scalar (seed 001's output, every loss) to 10 significant digits (``%.10g``), not
    as an array's 8 decimals (mutant of ``_fmt``'s ``ndim == 0``)."""
    c = xu_ziyin.case("generic")
    oracle = testing.xu_ziyin(c.setup, np.array(c.u0, float), np.array(c.W0, float))
    times = [0.0, 0.5]
    ref = oracle.exact(times)
    ref["u"][1] *= 1.01
    report = oracle.compare(times, ref["u"], ref["W"])
    k = report.first_failure
    assert k == 1
    text = str(report)
    f_line = f"f: exact {report.exact_f[k]:.10g}, got {report.got_f[k]:.10g}"
    loss_line = f"loss: exact {report.exact_loss[k]:.10g}, got {report.got_loss[k]:.10g}"
    assert f_line in text and loss_line in text, text
    # the values have more than 8 decimals to show: the format is what is checked
    assert len(f"{report.exact_loss[k]:.10g}".split(".")[1]) > 8


@pytest.mark.parametrize(("n", "summarised"), [(12, False), (13, True)])
def test_vector_outputs_show_eight_decimals_and_at_most_twelve_entries(n, summarised):
    """A vector output (seed 003's ``f`` on each of its ``n`` data points) is shown with at
    most 8 decimals per entry, each within half a unit of the 8th decimal (5e-9, + 1e-15
    for the float64 value) of the output, and in full up to 12 entries; 13 are summarised
    with "..." (mutants of ``array2string``'s ``precision=8`` and ``threshold=12``)."""
    X = [[f"{0.1 * (i + 1):.1f}"] for i in range(n)]  # d = 1: X^T X = s I for any column
    y = [f"{0.05 * i - 0.2:.2f}" for i in range(n)]
    setup = kn.Setup("1", "0.5", X, y)
    oracle = testing.kunin(setup, 0.7, [0.4])
    times = [0.0, 0.5]
    ref = oracle.exact(times)
    a = ref["a"].copy()
    a[1] *= 1.01  # fails at t = 0.5 only
    report = oracle.compare(times, a, ref["w"])
    k = report.first_failure
    assert k == 1
    line = next(s for s in str(report).splitlines() if s.strip().startswith("f: exact"))
    exact_part = line.split("exact ", 1)[1].split("], got", 1)[0]
    assert ("..." in exact_part) == summarised, line
    numbers = re.findall(r"-?\d+\.\d*(?:e[-+]?\d+)?", exact_part)
    assert len(numbers) == (6 if summarised else n), line  # numpy shows 3 at each end
    shown = list(report.exact_f[k][:3]) + list(report.exact_f[k][-3:]) if summarised else (
        list(report.exact_f[k]))  # fmt: skip
    for text, value in zip(numbers, shown, strict=True):
        assert len(text.split(".")[1]) <= 8, line
        assert abs(float(text) - value) <= 5e-9 + 1e-15, (text, value)
    # at least one entry needs all 8 decimals (else the precision would not show)
    assert any(len(t.split(".")[1]) == 8 for t in numbers), line


def test_gradient_descent_allowance_is_twice_the_running_first_order_error():
    """Module docstring: ``lr=`` adds the gradient-descent allowance; ``GD_SAFETY = 2`` is
    the factor on the first-order error ``lr max|e|`` (running max over the sorted times):
    the report's allowance is ``atol + rtol max|exact| + 2 lr max|e|`` per block and time,
    with ``lr e`` from :func:`gd_allowance`, and the message states "+ 2 lr max|e|".  rel
    1e-12: the same float64 operations in another order."""
    c = UPSTREAM
    oracle = testing.kunin(c.setup, c.a0, c.w0)
    lr = 1e-3
    times = lr * np.array([0.0, 250.0, 500.0, 750.0, 1000.0])
    ref = oracle.exact(times)
    report = oracle.compare(times, **ref, lr=lr, rtol=1e-6)
    flow, params, y0 = _flow(c.setup, c.a0, c.w0)
    E, _ = testing.gd_allowance(flow, params, y0, times, lr)
    first = {"a": np.abs(E[:, :1]).max(axis=1), "w": np.abs(E[:, 1:]).max(axis=1)}
    for b in ("a", "w"):
        base = 1e-6 * np.abs(ref[b]).reshape(len(times), -1).max(axis=1)
        want = base + 2.0 * np.maximum.accumulate(first[b])
        np.testing.assert_allclose(report.allowed[b], want, rtol=1e-12, atol=0)
        assert np.all(report.allowed[b][1:] > 1.5 * base[1:])  # the GD term is not negligible
    assert "+ 2 lr max|e| (gradient descent, lr = 0.001)" in str(report)


# ---------------------------------------------------------------------------
# the update-rule diagnostic: its threshold and its floor
# ---------------------------------------------------------------------------
def test_update_rule_note_at_exactly_its_allowance():
    """The note "the O(lr) error is not plain gradient descent's" is given when the residual
    ``|got - exact - lr e|`` exceeds its allowance (``> 1``): at the origin ``e = 0`` and
    the allowance is ``atol``, so residuals of 0.5 and exactly 1 allowance give no note and
    1.5 does (mutants ``worst <= 1`` -> ``< 1`` / ``<= 0`` / ``<= 2``)."""
    atol = 2.0**-10
    times = [0.0, 0.5, 1.5]
    oracle = _origin(SLOW)
    for c, noted in ((0.5, False), (1.0, False), (1.5, True)):
        report = oracle.compare(times, **_zeros(times, [(1, c * atol)]), atol=atol, lr=0.5)
        assert _rule_note(report) == noted, (c, report.notes)


def test_update_rule_allowance_uses_the_floor_when_lr_max_j_is_tiny():
    """The residual's allowance is ``atol + rtol max|exact| + GD_SAFETY lr max|e|
    max(lr max||J||, E1_FLOOR)`` with ``E1_FLOOR = 1e-4`` (E1_FLOOR's docstring): at
    ``lr = 1e-5`` (``lr max||J|| ~ 1e-5``, a tenth of the floor) a trajectory ``exact + lr
    e + r`` with ``r`` at 0.5 of that allowance gets no note, at 2 it does.  Without the
    floor the allowance is ten times smaller (0.5 would be noted); with a floor near 1, ten
    thousand times larger (2 would not).  ``rtol = 1e-14`` keeps ``rtol max|exact|`` (3e-15)
    far below the floor's term (~1e-10); rounding of ``got`` (~6e-17) is 1e-6 of it."""
    c = UPSTREAM
    oracle = testing.kunin(c.setup, c.a0, c.w0)
    lr, rtol = 1e-5, 1e-14
    times = lr * np.array([0.0, 25000.0, 50000.0])
    ref = oracle.exact(times, dps=30)  # the reference the oracle uses at rtol < 1e-10
    flow, params, y0 = _flow(c.setup, c.a0, c.w0)
    E, step = testing.gd_allowance(flow, params, y0, times, lr)
    assert step < 2e-5  # a fifth of E1_FLOOR: the floor, not lr max||J||, sets the allowance
    first = {"a": E[:, 0], "w": E[:, 1:]}
    run = np.maximum.accumulate(np.abs(E[:, 1:]).max(axis=1))
    k = 2
    allowance = rtol * np.max(np.abs(ref["w"][k])) + 2.0 * run[k] * 1e-4
    assert rtol * np.max(np.abs(ref["w"][k])) < 1e-3 * allowance
    for factor, noted in ((0.5, False), (2.0, True)):
        got = {b: ref[b] + first[b] for b in ref}
        got["w"] = got["w"].copy()
        got["w"][k, 0] += factor * allowance
        report = oracle.compare(times, **got, lr=lr, rtol=rtol)
        assert report.passed  # well inside the first-order allowance
        assert _rule_note(report) == noted, (factor, report.notes)


# ---------------------------------------------------------------------------
# gd_allowance: the first-order error itself, the step limit, the float64 range
# ---------------------------------------------------------------------------
def test_first_order_error_is_the_gradient_descent_error_to_first_order():
    """gd_allowance's docstring: ``theta_k - theta(k lr) = lr e(t) + O(lr^2)``.  A user's
    gradient descent at ``lr = 1e-4`` to ``t = 0.5`` (a horizon below 1) differs from the
    exact flow by ``lr e(t)`` to within 1e-3 of ``max |lr e|`` (measured 3.5e-5: the
    ``O(lr^2)`` term, relative ``O(lr)``, and the error equation's rtol 1e-8).  Mutants:
    ``e - f/2`` with another constant, the error equation started at t = -1 or solved to
    rtol ~1 or atol ~1, the integration skipped below t = 1, the difference step ~1."""
    c = UPSTREAM
    lr = 1e-4
    times, As, ws = _gd_neuron(c.setup, c.a0, c.w0, lr, 5000, 500)
    ref = testing.kunin(c.setup, c.a0, c.w0).exact(times, dps=30)
    flow, params, y0 = _flow(c.setup, c.a0, c.w0)
    E, _ = testing.gd_allowance(flow, params, y0, times, lr)
    error = np.column_stack([As - ref["a"], ws - ref["w"]])
    scale = np.max(np.abs(E))
    assert scale > 1e-6  # lr e is visible: ~5.7e-6
    assert np.max(np.abs(error - E)) <= 1e-3 * scale


def test_step_limit_admits_exactly_the_limit():
    """GD_STEP_LIMIT's docstring: the *largest* ``lr max||J||`` for which the first-order
    allowance is used; "beyond it" the check refuses.  At t = 0 (one time) the step check
    is ``lr ||J(theta_0)||``: an ``lr`` with ``lr ||J|| == 0.25`` exactly in float64 is
    accepted, the next float ``lr`` (0.25 + 1 ulp) is refused, with the limit's value in
    the message (mutants ``step > GD_STEP_LIMIT`` -> ``>=``; the constant +-1)."""
    c = UPSTREAM
    flow, params, y0 = _flow(c.setup, c.a0, c.w0)
    norm = testing.gd_allowance(flow, params, y0, [0.0], 1.0)[1]  # ||J(theta_0)||
    lr = 0.25 / norm
    for _ in range(16):  # the lr whose product is 0.25 exactly (within a few ulps of lr)
        limit = testing.gd_allowance(flow, params, y0, [0.0], lr)[1]
        if limit == 0.25:
            break
        lr = np.nextafter(lr, np.inf if limit < 0.25 else -np.inf)
    assert testing.gd_allowance(flow, params, y0, [0.0], lr)[1] == 0.25
    oracle = testing.kunin(c.setup, c.a0, c.w0)
    start = oracle.exact([0.0])
    assert oracle.compare([0.0], **start, lr=lr).passed
    above = np.nextafter(lr, np.inf)
    assert testing.gd_allowance(flow, params, y0, [0.0], above)[1] > 0.25
    with pytest.raises(ValueError, match=r"lr \* max\|\|J\|\| = 0\.25 > GD_STEP_LIMIT = 0\.25 "):
        oracle.compare([0.0], **start, lr=above)


def test_gd_allowance_refuses_a_step_check_beyond_float64():
    """``lr * max||J||`` beyond the float64 range is a Float64RangeError naming lr (the
    first-order error ``lr e(0) = 0`` itself is finite): the single neuron with rates 100
    (``||J(theta_0)|| ~ 100``) at ``lr = 1e307``; at ``lr = 1e300`` both are finite."""
    c = UPSTREAM
    setup = kn.Setup("100", "100", c.setup.X, c.setup.y)
    flow, params, y0 = _flow(setup, c.a0, c.w0)
    E, limit = testing.gd_allowance(flow, params, y0, [0.0], 1e300)
    assert np.all(E == 0) and math.isfinite(limit)
    with pytest.raises(Float64RangeError, match=r"lr = 1e\+307 is too large"):
        testing.gd_allowance(flow, params, y0, [0.0], 1e307)


@pytest.mark.parametrize("call", ["gd_allowance", "compare"])
def test_an_infinite_time_is_refused_with_lr(call):
    """``t = inf`` (the limit) is allowed only for the exact flow: with ``lr`` (gradient
    descent takes finitely many steps) it is refused as not finite, by gd_allowance and by
    compare, before any step count is formed (mutants: gd_allowance's ``allow_inf=False``
    -> True, ``not allow_inf`` -> ``allow_inf``)."""
    times = [0.0, math.inf]
    with pytest.raises(ValueError, match=r"times must be finite: times\[1\] = "):
        if call == "gd_allowance":
            testing.gd_allowance(*_flow(SLOW, 0.0, np.zeros(2)), times, 0.5)
        else:
            _origin(SLOW).compare(times, **_zeros(times), lr=0.5)


def test_a_nan_time_is_refused_by_the_flow_check():
    """A NaN time is refused, naming it, also for the exact flow (where ``inf`` is allowed:
    mutant ``isnan or (...)`` -> ``and``)."""
    times = [0.0, math.nan]
    with pytest.raises(ValueError, match=r"^times must be finite: times\[1\] = "):
        _origin().compare(times, **_zeros(times))


# ---------------------------------------------------------------------------
# gradient-descent times: multiples k * lr up to 1e-6 max(1, k)
# ---------------------------------------------------------------------------
def test_off_grid_slack_is_inclusive_and_absolute_below_one_step():
    """A time is ``k * lr`` when ``|t / lr - round(t / lr)| <= 1e-6 max(1, t / lr)``
    (test_oracle.py's off-grid test: "the rule is a strict >").  With lr = 1: t = 1e-6 is
    exactly on the slack and accepted when it is the only such time (mutant ``>`` -> ``>=``
    in the test, not in the index); 1.5e-6 is beyond the slack, 1e-6 absolute below one
    step (mutant ``max(1.0, k)`` -> ``max(2.0, k)``), and is the time named, before 0.3
    (the same mutant in the index)."""
    oracle = _origin(SLOW)
    times = [0.0, 1e-6]
    assert oracle.compare(times, **_zeros(times), lr=1.0).passed
    for times in ([0.0, 1.5e-6], [0.0, 1.5e-6, 0.3]):
        with pytest.raises(ValueError, match=r"got times\[1\] = 1\.5e-06 "):
            oracle.compare(times, **_zeros(times), lr=1.0)


def test_off_grid_slack_is_relative_above_one_step():
    """Above one step the slack is ``1e-6 k``: with lr = 1e-3, ``5000.002 lr`` (0.002 steps
    off, the slack 5e-3 steps) is accepted alone (mutant ``1e-6 * max(1, k)`` ->
    ``1e-6 / max(1, k)``)."""
    lr = 1e-3
    times = [0.0, 5000.002 * lr]
    assert _origin(SLOW).compare(times, **_zeros(times), lr=lr).passed


# ---------------------------------------------------------------------------
# the float64 reference down to rtol = 1e-10, 30 digits below
# ---------------------------------------------------------------------------
_LNS_SETUP = ns.Setup([["1", "0.5", "0"], ["-0.5", "1", "0.3"]], ["0.8", "-0.2"],
                      ["0.5", "0.3", "0.2", "0.1"], "linear", eta="1")  # fmt: skip
_LNS_A = np.array([1.0, -1.0, 1.0, -1.0])
_LNS_W0 = np.array([[0.6, 0.2, 0.1], [-0.3, 0.9, 0.0], [0.1, -0.4, 0.5], [0.2, 0.2, -0.2]])


def _references(model, times):
    """``(oracle, float64 blocks, 30-digit blocks)`` from the model's own closed form (not
    through the oracle)."""
    if model == "kunin":
        c = UPSTREAM
        oracle = testing.kunin(c.setup, c.a0, c.w0)
        f64 = kn.closed_form(c.setup, c.a0, c.w0).sample(times)
        mp = kn.closed_form(c.setup, c.a0, c.w0, dps=30).sample(times)
        return oracle, {"a": f64.a, "w": f64.w}, {"a": mp.a, "w": mp.w}
    if model == "xu_ziyin":
        c = xu_ziyin.case("generic")
        oracle = testing.xu_ziyin(c.setup, c.u0, c.W0)
        f64 = xu_ziyin.closed_form(c.setup, c.u0, c.W0).sample(times)
        mp = xu_ziyin.closed_form(c.setup, c.u0, c.W0, dps=30).sample(times)
        return oracle, {"u": f64.u, "W": f64.W}, {"u": mp.u, "W": mp.W}
    oracle = testing.linear_node_scaling(_LNS_SETUP, _LNS_A, _LNS_W0)
    f64 = lns.closed_form(_LNS_SETUP, _LNS_A, _LNS_W0).sample(times)
    mp = lns.closed_form(_LNS_SETUP, _LNS_A, _LNS_W0, dps=30).sample(times)
    return oracle, {"W": f64.W}, {"W": mp.W}


@pytest.mark.parametrize("model", ["kunin", "xu_ziyin", "linear_node_scaling"])
def test_reference_is_float64_down_to_rtol_1e_10_and_30_digits_below(model):
    """``_FLOAT64_RTOL = 1e-10``: "below it the reference is evaluated at 30 digits".  The
    model's float64 closed form compares at exactly 0 with ``rtol = 1e-10`` (it is the
    reference there), its 30-digit closed form at exactly 0 with the next smaller rtol,
    and not the other way round (they differ by an ulp somewhere: checked).  Mutants: the
    constant +-1, ``rtol >= 1e-10`` -> ``>``, each model's ``dps is None`` swapped."""
    times = [0.0, 0.3, 1.0, 2.5]
    oracle, f64, mp = _references(model, times)
    f64 = {b: np.asarray(v, dtype=float) for b, v in f64.items()}
    mp = {b: np.asarray(v, dtype=float) for b, v in mp.items()}
    assert any(not np.array_equal(f64[b], mp[b]) for b in f64)
    below = np.nextafter(1e-10, 0.0)
    assert oracle.compare(times, **f64, rtol=1e-10).worst == 0
    assert oracle.compare(times, **mp, rtol=below).worst == 0
    assert oracle.compare(times, **mp, rtol=1e-10).worst > 0
    assert oracle.compare(times, **f64, rtol=below).worst > 0


# ---------------------------------------------------------------------------
# warnings point at the user's line
# ---------------------------------------------------------------------------
def test_oracle_warnings_point_at_the_callers_line():
    """A passing check's notes are OracleWarnings "at the line of the caller of check"
    (``_verdict``'s docstring): their file and line are those of the call in this test,
    for ``check`` and for ``assert_matches_closed_form`` (mutant ``stacklevel=3`` -> 2 or
    4: the oracle's own frame or the test's caller)."""
    c = xu_ziyin.case("generic")
    u0, W0 = np.array(c.u0, float), np.array(c.W0, float)
    start = testing.xu_ziyin(c.setup, u0, W0).exact([0.0])
    oracle, zeros = _origin(), _zeros([0.0])
    for which in ("check", "assert_matches_closed_form"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if which == "check":
                line = inspect.currentframe().f_lineno + 1
                oracle.check([0.0], **zeros)
            else:
                line = inspect.currentframe().f_lineno + 1
                testing.assert_matches_closed_form(c.setup, u0, W0, [0.0], start["u"], start["W"])
        found = [w for w in caught if issubclass(w.category, testing.OracleWarning)]
        assert found, (which, caught)
        for w in found:
            assert (w.filename, w.lineno) == (__file__, line), (which, w.filename, w.lineno)


# ---------------------------------------------------------------------------
# what the user hands in
# ---------------------------------------------------------------------------
def test_the_first_non_finite_entry_is_named():
    """A block with two NaN entries is refused naming the first (row-major), [1, 0], not
    the last, [3, 1] (mutant ``argwhere(bad)[0]`` -> ``[-1]``)."""
    times = [0.0, 0.5, 1.0, 1.5]
    got = _zeros(times)
    got["w"][1, 0] = got["w"][3, 1] = math.nan
    with pytest.raises(ValueError, match=r"w \(kunin block\) must be finite: w \(kunin block\)"
                       r"\[1, 0\] = ") as info:  # fmt: skip
        _origin().compare(times, **got)
    assert "[3, 1]" not in str(info.value)


def test_an_array_with_a_cpu_method_but_no_detach_is_read_as_an_array():
    """Only a torch tensor (``detach`` and ``cpu``) is detached and moved; an array type
    that has a ``cpu()`` method alone (some array libraries' numpy subclasses) is read as
    the array it is (mutant ``and`` -> ``or``: ``value.detach()`` on it)."""

    class CpuArray(np.ndarray):
        def cpu(self):
            return self

    times = [0.0, 0.5]
    got = {b: np.asarray(v).view(CpuArray) for b, v in _zeros(times).items()}
    assert _origin().compare(times, **got).worst == 0


def test_more_arrays_than_blocks_are_refused():
    """Three positional arrays for the two blocks (a, w) are a TypeError naming both
    counts, never silently truncated."""
    times = [0.0, 0.5]
    z = _zeros(times)
    with pytest.raises(TypeError, match=r"kunin has 2 blocks \['a', 'w'\], got 3 arrays"):
        _origin().check(times, z["a"], z["w"], z["w"])
    assert _origin().check(times, z["a"], z["w"]).passed


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"times": 0.5}, r"times must be a non-empty 1-d sequence, got shape \(\)"),
        ({"lr": -0.5}, r"lr must be > 0 \(the gradient-descent step in flow time\), got -0\.5"),
    ],
    ids=["scalar_times", "negative_lr"],
)
def test_a_scalar_time_and_a_negative_step_are_refused(kwargs, match):
    """``times`` is a 1-d sequence (a bare number has shape ``()``: refused, not read as one
    time; mutant ``ndim != 1`` -> ``ndim > 1``) and ``lr`` must be > 0 (a negative step is
    refused like 0; mutant ``not lr > 0`` -> ``not lr != 0``)."""
    args = {"times": [0.0, 0.5], "lr": None} | kwargs
    blocks = {"a": np.zeros(2), "w": np.zeros((2, 2))}
    with pytest.raises(ValueError, match=match):
        _origin(SLOW).compare(args["times"], **blocks, lr=args["lr"])


def test_reports_and_edge_cases_are_immutable_records():
    """Report, KernelReport and EdgeCase are frozen dataclasses: a verdict cannot be edited
    after the fact (setting a field raises), and a KernelReport (all its fields hashable)
    can be hashed (mutants ``frozen=True`` -> ``False``)."""
    import dataclasses

    times = [0.0, 0.5]
    report = _origin().compare(times, **_zeros(times))
    kernel_report = _zero_gram_oracle().compare([[0.0]])
    case = testing.edge_case("kunin:origin")
    for record, field in ((report, "rtol"), (kernel_report, "units"), (case, "name")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, 0)
    assert hash(kernel_report) == hash(dataclasses.replace(kernel_report))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: testing.edge_cases("nope"), r"model must be one of \['kunin', 'xu_ziyin'\]"),
        (lambda: testing.edge_case("kunin:lazy:x"), "case_id must be 'model:name'"),
        (lambda: testing.edge_case("nope:lazy"), "case_id's model must be one of"),
    ],
    ids=["unknown_model", "two_colons", "unknown_case_model"],
)
def test_edge_case_ids_are_validated(call, match):
    """``edge_cases(model)`` and ``edge_case("model:name")`` refuse an unknown model and an
    id with other than one colon with a ValueError that says what is expected."""
    with pytest.raises(ValueError, match=match):
        call()


# ---------------------------------------------------------------------------
# the kernel oracle
# ---------------------------------------------------------------------------
_KX = np.array([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [-0.5, 0.5, 1.0], [-1.0, 0.0, 0.0]])


def _zero_gram_oracle():
    """Antipodal inputs x, -x: ``relu(w.x) relu(-w.x) = 0``, every kernel is exactly 0."""
    return testing.kernel("nngp", kernels.Initialisation(1, 1), [[0.6, 0.8]], [[-0.6, -0.8]])


def test_kernel_error_of_exactly_one_tolerance_passes():
    """The kernel report passes at ``<= 1`` tolerance: against an all-zero exact Gram matrix
    the allowance is ``atol`` exactly, so an entry ``atol`` is 1 tolerance (passes) and
    ``1.5 atol`` is 1.5 (fails, AssertionError from check)."""
    oracle = _zero_gram_oracle()
    assert np.all(oracle.exact == 0)
    atol = 2.0**-10
    at = oracle.compare([[atol]], atol=atol)
    assert at.units == 1.0 and at.passed
    oracle.check([[atol]], atol=atol)
    over = oracle.compare([[1.5 * atol]], atol=atol)
    assert over.units == 1.5 and not over.passed
    with pytest.raises(AssertionError, match="does not match"):
        oracle.check([[1.5 * atol]], atol=atol)


def test_kernel_samples_of_an_all_zero_gram_have_an_absolute_floor_of_1e_13():
    """compare_samples' half-width is at least the kernels' float64 accuracy, 1e-13
    relative to ``max|exact|``; where the exact Gram matrix is all zero (no scale) it is
    1e-13 absolute, the accuracy of a kernel of unit scale: identical samples 0.5e-13
    pass, 1.5e-13 fail (mutant ``max|exact| or 1.0`` -> ``or 2.0``)."""
    oracle = _zero_gram_oracle()
    assert oracle.compare_samples(np.full((5, 1, 1), 0.5e-13)).passed
    assert not oracle.compare_samples(np.full((5, 1, 1), 1.5e-13)).passed


def test_kernel_samples_need_at_least_two_kernels():
    """One sample has no variance estimate: S = 1 is refused, saying how many were given
    (mutants ``shape[0] < 2`` -> ``< 1``, the count read from ``shape[1]``, 4 here)."""
    oracle = testing.kernel("ntk", kernels.lecture_initialisation(3), _KX)
    with pytest.raises(ValueError, match=r"at least 2 kernels \(S >= 2\), got 1$"):
        oracle.compare_samples(oracle.exact[None])
    assert oracle.compare_samples(np.repeat(oracle.exact[None], 2, axis=0)).passed


@pytest.mark.parametrize("shape", [(4, 3), (5, 4), (3, 4), (4, 5)])
def test_gram_matrices_of_another_shape_are_refused(shape):
    """A Gram matrix (or samples) of another shape, smaller or larger in either axis, is
    refused with the shape wanted (shapes are compared for equality: the mutants ``==`` ->
    ``<=`` / ``>=`` compare tuples lexicographically and let some through)."""
    oracle = testing.kernel("ntk", kernels.lecture_initialisation(3), _KX)
    with pytest.raises(ValueError, match=rf"K must have shape \(4, 4\), got \({shape[0]}, "):
        oracle.compare(np.zeros(shape))
    with pytest.raises(ValueError, match=r"samples must have shape \('S', 4, 4\)"):
        oracle.compare_samples(np.zeros((3, *shape)))


# ---------------------------------------------------------------------------
# state_errors
# ---------------------------------------------------------------------------
def test_state_errors_f_scale_includes_f_floor_and_atol():
    """``state_errors``' docstring: ``f`` relative to ``|y| + |f_ref - y| + f_floor``, in
    units of ``atol + rtol * scale``.  y = 0.75, f_ref = 0.5, f_floor = 1: scale 2; with
    rtol = atol = 1e-6 the allowance is 3e-6 and an output off by 1e-7 is 1/30 tolerance
    (rel 1e-8: 0.5 + 1e-7 rounded to float64).  A negative f_floor is refused."""
    u, W = np.array([1.0, 0.0]), np.array([[1.0], [0.0]])
    ref = xu_ziyin.State(0.0, u, W, 0.5, 1.0, 1.0, 0.0)
    got = xu_ziyin.State(0.0, u, W, 0.5 + 1e-7, 1.0, 1.0, 0.0)
    tol = Tolerance(rtol=1e-6, atol=1e-6)
    errs = testing.state_errors(got, ref, 0.75, tol, f_floor=1)
    assert errs["f"] == pytest.approx(1 / 30, rel=1e-8)
    with pytest.raises(ValueError, match="f_floor"):
        testing.state_errors(got, ref, 0.75, tol, f_floor=-1)


def test_state_errors_refuses_what_is_not_a_state_or_a_tolerance():
    """``got`` and ``ref`` must have ``u``, ``W`` and ``f``; ``tol`` must be a Tolerance."""
    u, W = np.array([1.0, 0.0]), np.array([[1.0], [0.0]])
    ref = xu_ziyin.State(0.0, u, W, 0.5, 1.0, 1.0, 0.0)
    tol = Tolerance(rtol=1e-6)
    with pytest.raises(TypeError, match="got must be a state with u, W and f"):
        testing.state_errors(SimpleNamespace(u=u, W=W), ref, 0.75, tol)
    with pytest.raises(TypeError, match="ref must be a state with u, W and f"):
        testing.state_errors(ref, SimpleNamespace(u=u, f=0.5), 0.75, tol)
    with pytest.raises(TypeError, match=r"tol must be a solvable\.Tolerance"):
        testing.state_errors(ref, ref, 0.75, 1e-6)
