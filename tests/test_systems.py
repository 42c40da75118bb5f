"""Every simulatable model (``numerics.systems()``, built from ``MODEL.systems``) through one
generic interface: ``numerics.simulate`` by scipy, torch and (polynomial flows) mpmath on
each system's example, and the loss body, written once, consistent across its backends.

Independent engines are compared: the sympy-differentiated flow (scipy, mpmath) against
autograd of the torch loss (torch); agreement means the one loss definition runs the same
on sympy object arrays, float64 and batched torch tensors.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

import numerics
from numerics import scipy_ode
from numerics.models import SystemModel
from solvable._core.backends import generate
from solvable._core.tolerance import relative_error

SYSTEMS = sorted(numerics.systems().values(), key=lambda s: type(s).__name__)
IDS = [type(s).__name__ for s in SYSTEMS]
TIMES = [0.0, 0.5, 2.0]


def _weights(state) -> np.ndarray:
    """Every array field of a state that holds weights, flattened (float)."""
    parts = []
    for value in vars(state).values():
        if isinstance(value, dict):
            parts += [np.asarray(v, dtype=float).ravel() for v in value.values()]
    if not parts:
        names = [k for k, v in vars(state).items() if k in ("u", "W", "a", "w", "A")]
        parts = [np.asarray(getattr(state, k), dtype=float).ravel() for k in names]
    return np.concatenate(parts)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_scipy_and_torch_agree(system):
    # DOP853 at rtol 1e-12 (torch) and 1e-13 (scipy) on O(1) weights over t <= 2: global
    # errors ~1e-11 each; 1e-9 leaves two orders of margin for the error-norm differences
    setup, out0, in0 = system.example()
    a = numerics.simulate(setup, out0, in0, TIMES, method="scipy")
    b = numerics.simulate(setup, out0, in0, TIMES, method="torch", device="cpu")
    for sa, sb in zip(a, b, strict=True):
        assert relative_error(_weights(sb), _weights(sa)) <= 1e-9
    moved = relative_error(_weights(a.at(-1)), _weights(a.at(0)))
    assert moved > 1e-3  # the example trains: the comparison is not between two constants


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_mpmath_on_polynomial_flows_and_a_refusal_otherwise(system):
    setup, out0, in0 = system.example()
    if not system.polynomial(setup):
        with pytest.raises(ValueError, match="polynomial"):
            numerics.simulate(setup, out0, in0, TIMES, method="mpmath", dps=20)
        return
    hi = numerics.simulate(setup, out0, in0, TIMES, method="mpmath", dps=30)
    lo = numerics.simulate(setup, out0, in0, TIMES, method="scipy")
    for sh, sl in zip(hi, lo, strict=True):
        # scipy DOP853 at rtol 1e-13: 1e-10 normwise, as in test_simulate
        assert relative_error(_weights(sl), _weights(sh)) <= 1e-10


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_sympy_flow_equals_autograd_of_the_torch_loss(system):
    """The vector field from sympy.diff of the loss (on object arrays) equals -rate x the
    autograd gradient of the same loss body on torch tensors, at the example's weights."""
    setup, out0, in0 = system.example()
    weights = system.initial(setup, out0, in0)
    flow = system.flow(setup, {b: w.shape for b, w in weights.items()})
    rhs = generate((flow.state, flow.params), list(flow.rhs), "numpy")
    y0 = [float(v) for v in flow.pack(weights)]
    sym = np.asarray(rhs(y0, system.flow_parameters(setup, float)), dtype=float)
    model = SystemModel(system, setup)
    params = {
        b: torch.tensor(np.asarray(w, dtype=float), dtype=torch.float64)[None].requires_grad_()
        for b, w in weights.items()
    }
    model.loss(params).sum().backward()
    auto = np.concatenate(
        [-model.rates[b] * params[b].grad[0].numpy().ravel() for b in flow.unpack(y0)]
    )
    scale = np.max(np.abs(sym))
    assert scale > 0
    assert np.max(np.abs(auto - sym)) <= 1e-12 * scale  # a few roundings of O(1) sums


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_loss_decreases_along_the_flow(system):
    """The system's own loss (float64 backend) along its own flow (scipy): a gradient flow
    decreases it."""
    setup, out0, in0 = system.example()
    weights = system.initial(setup, out0, in0)
    flow = system.flow(setup, {b: w.shape for b, w in weights.items()})
    times = np.linspace(0.0, 2.0, 9)
    ys, _ = scipy_ode.integrate(flow, system.flow_parameters(setup, float),
                                [float(v) for v in flow.pack(weights)], times)  # fmt: skip
    data = system.data(setup, "numpy")
    losses = [float(system.loss(flow.unpack(y, float), data)) for y in ys]
    assert np.all(np.isfinite(losses)) and losses[0] > losses[-1] >= 0
    assert all(b <= a * (1 + 1e-12) for a, b in itertools.pairwise(losses))


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_bad_output_weights_are_refused_by_name(system):
    setup, out0, in0 = system.example()
    with pytest.raises((ValueError, TypeError), match=r"0"):
        numerics.simulate(setup, [[["1"]]], in0, TIMES, method="scipy")
    with pytest.raises(TypeError, match="setup must be one of"):
        numerics.simulate(object(), out0, in0, TIMES)
