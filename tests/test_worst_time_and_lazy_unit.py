"""Xu & Ziyin's simulation oracle locates its worst comparison at the time it happened, in
units of T written as the grid writes it, and the unit evaluator of the lazy-training
sampling (eq. (3.8), one tanh unit) returns the value, gradient and Hessian of ``a tanh w``.

Mutation-testing triage (seed-3 run).
"""

from __future__ import annotations

import math
import re

import mpmath
import numpy as np

import numerics
from solvable.models import lazy_training as lt
from solvable.models import xu_ziyin as xz
from solvable.verification.confirmations import xu_ziyin as cxz


# ---------------------------------------------------------------------------
# solvable.verification.confirmations.xu_ziyin.oracle: the detail names the worst comparison's time
# ---------------------------------------------------------------------------
def _simulation_wrong_at(index):
    """A stand-in for ``numerics.simulate`` (mpmath): the exact states of the closed form
    at ``dps`` digits, except ``u[0]`` off by 1e-6 relative at ``times[index]`` only."""

    def simulate(setup, u0, W0, times, method, dps):
        assert method == "mpmath"
        traj = xz.closed_form(setup, u0, W0, dps=dps)
        states = []
        for k, t in enumerate(times):
            state = traj.at(t)
            if k == index:
                u = state.u.copy()
                u[0] = u[0] * (1 + mpmath.mpf("1e-6"))
                state = xz.State.from_weights(setup, t, u, state.W, dps=dps)
            states.append(state)
        return states

    return simulate


def test_xu_ziyin_oracle_names_the_time_of_its_worst_comparison_in_units_of_T(monkeypatch):
    """Mutant key: solvable/verification/confirmations/xu_ziyin.py:158:core/NumberReplacer:79.

    The oracle compares at ``t = k T``, ``k`` in GRID (plus LATE on the manifolds), and its
    detail names the worst comparison as ``(<case> at t=<k> T: <field>)``.  A simulation
    wrong (1e-6 relative in u, 1e13 tolerances at dps = 30) at one time only must be
    reported at that time, for every k > 0 of a manifold case (k = 0 is the shared initial
    state), k written as a plain decimal number (as GRID and LATE are: 0.1, ..., 30, 100)."""
    name = "P_zero_y_positive"  # P = 0 exactly: GRID + LATE, up to t = 100 T
    case = xz.case(name)
    assert cxz._on_manifold(case)
    units = (*cxz.GRID, *cxz.LATE)
    pattern = re.compile(rf"\({name} at t=([0-9]+(?:\.[0-9]+)?) T: u\)")
    cxz._simulation.cache_clear()  # cached per (case, dps): never keep the stand-in's
    try:
        for index in range(1, len(units)):
            monkeypatch.setattr(numerics, "simulate", _simulation_wrong_at(index))
            cxz._simulation.cache_clear()
            verdict = cxz.oracle(dps=30, cases=[name])
            assert verdict.status == "failed" and verdict.max_error > 1, verdict.detail
            found = pattern.search(verdict.detail)
            assert found, (units[index], verdict.detail)
            # the printed k is the grid's k: 3 significant digits hold every one exactly
            assert mpmath.mpf(found.group(1)) == units[index], (units[index], verdict.detail)
    finally:
        cxz._simulation.cache_clear()


# ---------------------------------------------------------------------------
# solvable.models.lazy_training._unit_evaluator: value, gradient and Hessian of a tanh(w)
# ---------------------------------------------------------------------------
def test_lazy_unit_evaluator_returns_value_gradient_and_hessian_of_a_tanh_unit():
    """Mutant key: solvable/models/lazy_training.py:427:core/NumberReplacer:139.

    One unit of eq. (3.8) at ``x = 1``, ``alpha = 1`` is ``h = a tanh(w)``: gradient
    ``(tanh w, a sech^2 w)`` and Hessian ``h_aa = 0`` (linear in a), ``h_aw = sech^2 w``,
    ``h_ww = -2 a tanh(w) sech^2 w``, computed here with numpy's tanh (not sympy)."""
    rng = np.random.default_rng(7)
    a = np.concatenate([rng.uniform(-1, 1, 40), [0.0, 1.0, -2.5]])
    w = np.concatenate([rng.standard_normal(40), [0.3, 0.0, -1.7]])
    vals = lt._unit_evaluator()(a, w)
    assert len(vals) == 6
    zero = np.zeros_like(a)  # a constant entry (h_aa = 0) may come back as a scalar
    h, ga, gw, haa, haw, hww = (zero + np.asarray(v, dtype=float) for v in vals)
    t = np.tanh(w)
    sech2 = 1 - t**2
    expected = {
        "h": a * t,
        "dh/da": t,
        "dh/dw": a * sech2,
        "d2h/da2": zero,
        "d2h/dadw": sech2,
        "d2h/dw2": -2 * a * t * sech2,
    }
    got = {"h": h, "dh/da": ga, "dh/dw": gw, "d2h/da2": haa, "d2h/dadw": haw, "d2h/dw2": hww}
    for key, ref in expected.items():
        # tanh, sech^2 and their products in another (sympy-generated) form: a few ulps of
        # the terms, |terms| <= 2.5 * 2 here, so 1e-14 absolute is ~20 ulps of the largest
        assert np.allclose(got[key], ref, rtol=0, atol=1e-14), (key, got[key] - ref)
    # d^2h/da^2 = 0 exactly: h is linear in a
    assert np.all(haa == 0), haa
    assert math.isclose(float(haw[-2]), 1.0)  # w = 0: sech^2 0 = 1
