"""The oracle's converged-tail warning agrees with its own verdicts at the tolerance's edge,
stacked ``solvable_cases`` markers parametrise over every marker, per-element learning rates
for batches beyond the small-int cache, the angular and radial rates of a piecewise-linear
neuron from its weights, and the value Theorem 2's proof reports at ``B^2 = 4AC/9``.

Mutation-testing triage (seed-3 run), helper G.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from solvable.models import node_scaling as ns
from solvable.models import phases
from solvable.models import piecewise_linear as pl
from solvable.verification import testing

pytest_plugins = ["pytester"]

EPS = np.finfo(float).eps

# ---------------------------------------------------------------------------
# solvable.verification.testing: the converged-tail note at the edge of the tolerance
# ---------------------------------------------------------------------------
_LNS_SETUP = ns.Setup([["1", "0.5", "0"], ["-0.5", "1", "0.3"]], ["0.8", "-0.2"],
                      ["0.5", "0.3", "0.2", "0.1"], "linear", eta="1")  # fmt: skip
_LNS_A = np.array([1.0, -1.0, 1.0, -1.0])
_LNS_W0 = np.array([[0.6, 0.2, 0.1], [-0.3, 0.9, 0.0], [0.1, -0.4, 0.5], [0.2, 0.2, -0.2]])


def _atol_for(allowance: float, rtol: float, scale: float) -> float:
    """The ``atol`` with ``atol + rtol * scale == allowance`` in float64 (the oracle's
    allowance, computed as the oracle computes it), found by stepping ulps."""
    atol = allowance - rtol * scale
    for _ in range(64):
        got = atol + rtol * scale
        if got == allowance:
            return atol
        atol = np.nextafter(atol, np.inf if got < allowance else -np.inf)
    raise AssertionError("no atol gives the allowance exactly")  # pragma: no cover


def test_converged_tail_note_agrees_with_the_verdicts_on_jump_and_rest_at_the_tolerance_edge():
    """The note says "a trainer that jumps straight to the right limit passes too" and is
    left out when the trajectory that never moves passes as well (then the exact solution
    is within the tolerance of rest and any motion fails): it must appear exactly when
    ``compare`` passes the jump and fails the rest trajectory, for every tolerance, those
    at which either of them is exactly on the allowance (error 1.0, which passes) included.
    Mutant solvable/verification/testing.py:569:core/ReplaceComparisonOperator_LtE_Lt:1."""
    oracle = testing.linear_node_scaling(_LNS_SETUP, _LNS_A, _LNS_W0)
    times = np.array([5.0])  # one time, late: W is 0.05 from its limit, 0.44 from its start
    rtol = 1e-6  # >= the float64 threshold: the notes and compare use the same float64 path
    ref = oracle.exact(times)["W"]
    ends = oracle.exact([0.0, math.inf])["W"]
    rest, jump = ends[:1], ends[1:]  # never moves; jumps at once to the limit
    scale = float(np.max(np.abs(ref)))
    d_rest = float(np.max(np.abs(rest - ref)))
    d_jump = float(np.max(np.abs(jump - ref)))
    assert d_jump < d_rest  # the tail: the jump is nearer than the start
    edges = [_atol_for(d, rtol, scale) for d in (d_jump, d_rest)]
    cases = [0.0, np.nextafter(edges[0], -np.inf), edges[0], (edges[0] + edges[1]) / 2,
             np.nextafter(edges[1], -np.inf), edges[1], 2 * edges[1]]  # fmt: skip
    seen = set()
    for atol in cases:
        jump_passes = oracle.compare(times, jump, rtol=rtol, atol=atol).passed
        rest_passes = oracle.compare(times, rest, rtol=rtol, atol=atol).passed
        report = oracle.compare(times, ref, rtol=rtol, atol=atol)
        assert report.passed
        noted = any("converged tail" in note for note in report.notes)
        assert noted == (jump_passes and not rest_passes), (atol, jump_passes, rest_passes)
        seen.add((jump_passes, rest_passes))
    # every verdict pair but (fails, passes) occurs, the edges themselves passing
    assert seen == {(False, False), (True, False), (True, True)}
    assert oracle.compare(times, rest, rtol=rtol, atol=edges[1]).passed
    assert oracle.compare(times, jump, rtol=rtol, atol=edges[0]).passed
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # at rest within the tolerance: no warning at all
        oracle.check(times, ref, rtol=rtol, atol=edges[1])


# ---------------------------------------------------------------------------
# solvable.verification.pytest_plugin: several solvable_cases markers on one test
# ---------------------------------------------------------------------------
_ARGS = ("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly", "-rA")


@pytest.mark.parametrize("bare_first", [True, False])
def test_stacked_markers_parametrise_over_the_cases_of_every_marker(pytester, bare_first):
    """Two ``solvable_cases`` markers, one with the model alone (every case), one naming a
    case of another model: the test runs over the union, whichever is nearer the function.
    Mutant solvable/verification/pytest_plugin.py:61:core/ReplaceContinueWithBreak:0."""
    bare, named = (
        '@pytest.mark.solvable_cases("xu_ziyin")',
        '@pytest.mark.solvable_cases("kunin", "lazy")',
    )
    outer, inner = (named, bare) if bare_first else (bare, named)  # inner: met first
    pytester.makepyfile(
        test_user=f"import pytest\n\n\n{outer}\n{inner}\ndef test_both(solvable_edge_case):\n"
        f"    assert solvable_edge_case.setup is not None\n"
    )
    result = pytester.runpytest(*_ARGS)
    expected = [*testing.edge_cases("xu_ziyin"), "kunin:lazy"]
    result.assert_outcomes(passed=len(expected))
    out = result.stdout.str()
    for case_id in expected:
        assert f"PASSED test_user.py::test_both[{case_id}]" in out, out


# ---------------------------------------------------------------------------
# numerics.torch_flow: one learning rate per element of a batch beyond 256
# ---------------------------------------------------------------------------
def test_gradient_descent_takes_one_lr_per_element_for_a_batch_of_300():
    """``lr`` of length ``B`` is accepted for any batch size ``B`` (here 300, beyond the
    interpreter's cache of small ints, where equal lengths are distinct int objects), and
    one step is ``theta_b - lr_b eta grad_b L`` with the gradient of ``L = (gamma u^T W x -
    y)^2`` written by hand.
    Mutant numerics/torch_flow.py:1261:core/ReplaceComparisonOperator_NotEq_IsNot:2."""
    torch = pytest.importorskip("torch")
    from numerics import models, torch_flow

    x, y, gamma, eta_u, eta_w = np.array([1.0, -0.5]), 0.7, 1.3, 0.9, 1.1
    model = models.TwoLayerLinear(x, y, gamma, eta_u, eta_w)
    batch = 300
    rng = np.random.default_rng(3)
    u, W = rng.normal(size=(batch, 3)), rng.normal(size=(batch, 3, 2))
    lr = np.linspace(1e-3, 3e-2, batch)
    params = {"u": torch.tensor(u, dtype=torch.float64), "W": torch.tensor(W, dtype=torch.float64)}
    res = torch_flow.gradient_descent(model, params, lr, [1], device="cpu")
    np.testing.assert_array_equal(res.times.numpy(), lr[None, :])  # 1 * lr_b: exact
    Wx = W @ x
    r = gamma * np.einsum("bi,bi->b", u, Wx) - y
    u1 = u - (lr * eta_u * 2 * r * gamma)[:, None] * Wx
    W1 = W - (lr * eta_w * 2 * r * gamma)[:, None, None] * u[:, :, None] * x[None, None, :]
    # the same few float64 operations in another order: a few ulps of O(1) values
    np.testing.assert_allclose(res.params["u"][-1].numpy(), u1, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(res.params["W"][-1].numpy(), W1, rtol=1e-13, atol=1e-14)


# ---------------------------------------------------------------------------
# solvable.models.piecewise_linear: the rates of a neuron from its weights
# ---------------------------------------------------------------------------
# (a, w, eta_a, eta_w): delta = eta_w a^2 - eta_a |w|^2 > 0, = 0, < 0
_NEURONS = [
    (3, (1, 2, 2), 1, 2),  # delta = 9, |beta| = 9, omega = 2
    (2, (2, 0, 0), 1, 1),  # delta = 0, |beta| = 4, omega = 1
    (1, (2, 1, 2), 1, 1),  # delta = -8, |beta| = 3, omega = 1/3
    (-4, (0, 3, 0), 2, 1),  # delta = -2, |beta| = 12, omega = 4/3 (a < 0: |a|)
    (5, (0, 0, 1), 3, 1),  # delta = 22, |beta| = 5, omega = 5
]


@pytest.mark.parametrize("dps", [None, 30])
@pytest.mark.parametrize(("a", "w", "eta_a", "eta_w"), _NEURONS)
def test_angular_and_radial_rates_of_a_neuron_from_its_weights(a, w, eta_a, eta_w, dps):
    """Part II: ``omega = lambda_1/|beta| = eta_w |a|/|w|`` and ``sigma = sqrt(delta^2 + 4
    eta_a eta_w |beta|^2) = eta_w a^2 + eta_a |w|^2`` for the neuron's own ``beta = a w``,
    ``delta = eta_w a^2 - eta_a |w|^2`` (integers with |w| an integer: exact rationals).
    Mutant solvable/models/piecewise_linear.py:219:core/ReplaceBinaryOperator_Mul_Add:16."""
    w2 = sum(v * v for v in w)
    norm_w = math.isqrt(w2)
    assert norm_w * norm_w == w2
    delta = eta_w * a * a - eta_a * w2
    b = abs(a) * norm_w
    omega = Fraction(eta_w * abs(a), norm_w)
    sigma = eta_w * a * a + eta_a * w2
    got_omega = pl.angular_rate(delta, b, eta_a, eta_w, dps=dps)
    got_sigma = pl.radial_rate(delta, b, eta_a, eta_w, dps=dps)
    # float64: a square root and a division or two, a few eps; 30 digits: 1e-25 leaves 5
    rel = 8 * EPS if dps is None else 1e-25
    for got, exact in ((got_omega, omega), (got_sigma, Fraction(sigma))):
        if dps is None:
            assert abs(got - float(exact)) <= rel * float(exact), (got, exact)
        else:
            with mpmath.workdps(40):  # the exact value to 40 digits, beyond the 30 asked
                want = mpmath.mpf(exact.numerator) / exact.denominator
                assert abs(got - want) <= rel * want, (got, exact)


# ---------------------------------------------------------------------------
# solvable.models.phases: Theorem 2's reported alpha_+ at B^2 = 4AC/9
# ---------------------------------------------------------------------------
def test_theorem_2_reports_alpha_plus_at_b2_4ac_over_9_from_eq_30():
    """The proof's detail states ``alpha_+/sqrt(Q/P) - 1`` at ``B^2 = 4AC/9``: with
    ``alpha_+ = (B + sqrt(B^2 + 4AC))/(2A)`` (seed 001) that is ``(1 + sqrt(10))/3 - 1 =
    (sqrt(10) - 2)/3``, exactly.
    Mutant solvable/models/phases.py:591:core/NumberReplacer:311."""
    claim = next(c for c in phases.claims() if c.id == "phases.theorem_2")
    verdict = claim.verify()
    assert verdict.status == "proved", verdict.detail
    marker = "at B^2 = 4AC/9: alpha_+/sqrt(Q/P) - 1 = "
    assert marker in verdict.detail, verdict.detail
    reported = sp.sympify(verdict.detail.split(marker, 1)[1].strip())
    A, C = sp.Rational(5), sp.Rational(7)  # any A, C > 0: the ratio does not depend on them
    B = sp.sqrt(4 * A * C / 9)
    alpha_plus = (B + sp.sqrt(B**2 + 4 * A * C)) / (2 * A)
    expected = sp.nsimplify(sp.simplify(alpha_plus / sp.sqrt(C / A) - 1))
    assert sp.simplify(expected - (sp.sqrt(10) - 2) / 3) == 0
    assert sp.simplify(reported - expected) == 0, (reported, expected)
