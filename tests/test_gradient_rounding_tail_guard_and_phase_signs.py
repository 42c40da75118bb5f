"""Details of numerics and solvable.verification.testing pinned by the sampled mutation run's
survivors
(batch F): seed 001's hand-written gradient, the compiled Taylor engine's rounding to
nearest, the linear tail's symmetry guard at its edges, the phase classification of a sign
equal to ``"-"``, the oracle's whole-number-times hint only for a failing check, the shape
check of Monte Carlo kernels, and ``state_errors``' output scale at exactly 1.

Each test checks a behaviour stated by a docstring (or the paper's formula), derived by
hand or by an independent computation, not the code's own expression.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics import mp, scipy_ode, sweeps
from numerics.models import TwoLayerLinear
from solvable._core.tolerance import Tolerance
from solvable.models import kernels, kunin
from solvable.models import xu_ziyin as xz
from solvable.verification import testing


# ---------------------------------------------------------------------------
# numerics.models.TwoLayerLinear.gradient: eq. (31) without the rates
# ---------------------------------------------------------------------------
def test_two_layer_linear_gradient_is_the_hand_computed_one():
    """``TwoLayerLinear.gradient``'s docstring: ``dL/du = 2 gamma (f - y) W x`` and ``dL/dW
    = 2 gamma (f - y) u x^T`` for ``L = (gamma u^T W x - y)^2``.  By hand for x = (2, -1),
    u = (1, 3), W = [[1, 0], [0.5, 2]], gamma = 0.5, y = 0.25: W x = (2, -1), u^T W x = -1,
    f = -0.5, 2 gamma (f - y) = -0.75, so dL/du = (-1.5, 0.75) and dL/dW = -0.75 u x^T =
    [[-1.5, 0.75], [-4.5, 2.25]]; and it is autograd's gradient of ``loss`` at a second,
    random network of the batch."""
    import torch

    model = TwoLayerLinear([2.0, -1.0], 0.25, gamma=0.5)
    rng = np.random.default_rng(3)
    u = torch.tensor(np.array([[1.0, 3.0], rng.normal(size=2)]), dtype=torch.float64)
    W = torch.tensor(np.array([[[1.0, 0.0], [0.5, 2.0]], rng.normal(size=(2, 2))]),
                     dtype=torch.float64)  # fmt: skip
    grad = model.gradient({"u": u, "W": W})
    # the hand values are dyadic: exact in float64, so compared exactly
    np.testing.assert_array_equal(grad["u"][0].numpy(), [-1.5, 0.75])
    np.testing.assert_array_equal(grad["W"][0].numpy(), [[-1.5, 0.75], [-4.5, 2.25]])
    ua, Wa = u.clone().requires_grad_(True), W.clone().requires_grad_(True)
    gu, gW = torch.autograd.grad(model.loss({"u": ua, "W": Wa}).sum(), (ua, Wa))
    # rtol 1e-13: the same products summed in another order (float64 roundings)
    np.testing.assert_allclose(grad["u"].numpy(), gu.numpy(), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(grad["W"].numpy(), gW.numpy(), rtol=1e-13, atol=1e-15)


# ---------------------------------------------------------------------------
# numerics.mp._CompiledEngine: each coefficient rounded once, to nearest
# ---------------------------------------------------------------------------
def test_compiled_engine_rounds_the_first_order_coefficient_to_nearest():
    """The compiled engine's docstring: "each new coefficient is rounded once, ``(S +
    half) >> shift``", i.e. to the nearest multiple of its unit.  For ``y' = w y`` the
    order-1 Taylor coefficient is ``w y0`` exactly, and with ``y0`` and ``w`` of 103 bits
    (30 digits) its product needs more bits than the engine keeps, so it is rounded: the
    coefficient read back at 300 digits is within half a unit ``2**(q - sigma)`` (the
    scaled coefficient's ulp ``2**q``, unscaled by ``H = 2**sigma``) of ``w y0``, for
    every one of 60 pairs (w, y0) of both signs (truncation would be off by more than half
    a unit on about half of them)."""
    x, k = sp.symbols("x k")
    prog = mp.compile_polynomial([x], [k], [k * x])
    worst = 0.0
    for num in range(1, 11):
        for den, y_den in ((7, 3), (-11, 9), (13, -5)):
            with mpmath.workdps(30):
                w = mpmath.mpf(num) / den
                y0 = mpmath.mpf(1) / y_den
                cvals = mp._const_values(prog, [w], [k])
                eng = mp._CompiledEngine(prog, cvals, [y0], 4, [(0, 1)])
                eng.expand(1)
            with mpmath.workdps(300):  # read the engine's integers without rounding them
                coeffs = eng.coefficients()
                assert coeffs[0][0] == y0  # order 0: the state itself, exact
                unit = mpmath.ldexp(1, eng.q[0] - eng.sigma)
                worst = max(worst, float(abs(coeffs[0][1] - w * y0) / unit))
    # 0.5: the bound of rounding to nearest (the inputs and the weight w/1 are exact)
    assert worst <= 0.5


# ---------------------------------------------------------------------------
# numerics.scipy_ode.LinearTail: criterion 3 at its edges
# ---------------------------------------------------------------------------
def _tail(S, zdot):
    S = np.asarray(S, dtype=float)[None]
    N = S.shape[1]
    return scipy_ode.LinearTail(S, np.asarray(zdot, dtype=float)[None], np.ones((1, N)),
                                np.ones((1, N)), np.array([10.0]), 2.2e-16, 1e-13)  # fmt: skip


def test_linear_tail_symmetry_guard_is_inclusive():
    """Criterion 3 of ``LinearTail``: ``S`` must be "finite and symmetric to 1e-3
    relative".  A zero ``S`` at rest (a flat loss at a fixed point: ``S = 0``, ``z' = 0``)
    is exactly symmetric, so admissible, and the tail is a candidate (nothing moves); and
    an asymmetry of exactly 1e-3 of ``max|S|`` (S = [[1000, 1], [0, 0]]: 1 = 1e-3 * 1000 in
    float64) is within "1e-3 relative", while 2e-3 is not."""
    rest = _tail(np.zeros((2, 2)), [0.0, 0.0])
    assert rest.admissible[0] and rest.candidate()[0]
    assert _tail([[1000.0, 1.0], [0.0, 0.0]], [0.0, 0.0]).admissible[0]
    assert not _tail([[1000.0, 2.0], [0.0, 0.0]], [0.0, 0.0]).admissible[0]


# ---------------------------------------------------------------------------
# numerics.sweeps.classify: the t_c sign "-" means unstable, however the string was made
# ---------------------------------------------------------------------------
class _TabulatedFit(sweeps.ExponentFit):
    """An ExponentFit whose sign is read from a numpy table (``numpy.str_`` values: equal
    to the plain strings, other objects)."""

    def sign(self, delta: float = sweeps.DELTA, z: float = sweeps.Z_SCORE) -> str:
        table = np.array(["-", "0", "+", "?"])
        return table[["-", "0", "+", "?"].index(super().sign(delta, z))]


def test_classify_compares_the_sign_by_value():
    """``classify``'s docstring: a t_c exponent of sign ``-`` is the unstable phase.  A
    sign that equals ``"-"`` (here a ``numpy.str_`` from a subclass's table) is that sign:
    unstable, not read on as a ``0`` t_c exponent (the kernel phase of an NTK change of
    sign ``-``)."""
    down = _TabulatedFit(exponent=-1.0, se_ols=0.01, se_boot=0.01)
    assert down.sign() == "-"
    assert sweeps.classify(down, down) == "unstable"
    flat = _TabulatedFit(exponent=0.0, se_ols=0.001, se_boot=0.001)
    assert sweeps.classify(flat, down) == "kernel"


# ---------------------------------------------------------------------------
# solvable.verification.testing: the "times are step indices" hint only on a failing check
# ---------------------------------------------------------------------------
def test_whole_number_times_hint_only_when_the_check_fails():
    """The hint "every time is a whole number: ... pass times = k * lr" explains a failure
    (times that are step indices); a trajectory at whole-number times that passes (here
    the exact one, off by a relative 1e-9, 1e-3 tolerances at rtol 1e-6) gets no such
    note, while the same times 2% off do."""
    case = kunin.case("upstream")  # seed 003's single neuron: a cheap closed form
    oracle = testing.kunin(case.setup, case.a0, case.w0)
    times = [0.0, 1.0, 2.0]
    exact = oracle.exact(times)
    a, w = exact["a"], exact["w"]
    near = oracle.compare(times, a * (1 + 1e-9), w * (1 + 1e-9), rtol=1e-6)
    assert near.passed and 0 < near.worst <= 1
    assert not any("whole number" in note for note in near.notes), near.notes
    far = oracle.compare(times, a * 1.02, w * 1.02, rtol=1e-6)
    assert not far.passed
    assert any("whole number" in note for note in far.notes), far.notes


# ---------------------------------------------------------------------------
# solvable.verification.testing.KernelOracle: samples of the wrong shape are refused, never
# broadcast
# ---------------------------------------------------------------------------
def test_kernel_samples_of_another_shape_are_refused():
    """``compare_samples`` takes kernels (S, n, m) and "is never reshaped": samples of
    shape (S, 1, 4) for a 4x4 Gram matrix (one row per kernel) are refused with the shape
    wanted, not broadcast against the closed form."""
    X = np.array([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [-0.5, 0.5, 1.0], [-1.0, 0.0, 0.0]])
    oracle = testing.kernel("ntk", kernels.lecture_initialisation(3), X)
    rows = np.repeat(oracle.exact[None, :1, :], 5, axis=0)
    with pytest.raises(Exception) as refused:  # any error: its type is asserted below
        oracle.compare_samples(rows)
    assert refused.type is ValueError
    assert "samples must have shape ('S', 4, 4), got (5, 1, 4)" in str(refused.value)


# ---------------------------------------------------------------------------
# solvable.verification.testing.state_errors: f's scale |y| + |f_ref - y| + f_floor equal to 1
# ---------------------------------------------------------------------------
def test_state_errors_f_at_an_output_scale_of_one():
    """``state_errors``' docstring: ``f`` is measured "relative to ``|y| + |f_ref - y| +
    f_floor``".  With y = 0.75 and f_ref = 0.5 that scale is 0.75 + 0.25 = 1, so at rtol
    1e-6 an output off by 1e-7 is 0.1 tolerances (not 0.2, the error relative to |f_ref| =
    0.5)."""
    u, W = np.array([1.0, 0.0]), np.array([[1.0], [0.0]])
    ref = xz.State(0.0, u, W, 0.5, 1.0, 1.0, 0.0)
    got = xz.State(0.0, u, W, 0.5 + 1e-7, 1.0, 1.0, 0.0)
    errs = testing.state_errors(got, ref, 0.75, Tolerance(rtol=1e-6, atol=0.0))
    # rel 1e-8: 0.5 + 1e-7 is rounded to float64 (ulp 1.1e-16 on a difference of 1e-7)
    assert errs["f"] == pytest.approx(0.1, rel=1e-8)
    assert errs["u"] == 0 and errs["W"] == 0
