"""``kunin.Trajectory.regime()``: the regime of a trajectory (Kunin et al. 2024, Part I,
regimes 1-3) from its own delta, rates and ||beta*||, without the user retyping them by
position (issue 30); the same verdict as :func:`kunin.regime` given those numbers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable import kunin


def _trajectory(seed: int, n: int, d: int, scale: float, a0: float, w_scale: float,
                rates: tuple[float, float], dps: int | None = None) -> Any:  # fmt: skip
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, d)))
    setup = kunin.Setup(rates[0], rates[1], scale * Q, rng.standard_normal(n))
    return kunin.closed_form(setup, a0, w_scale * rng.standard_normal(d), dps=dps)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), d=st.integers(1, 5), extra=st.integers(0, 3),
       scale=st.floats(0.1, 10), a0=st.floats(-20, 20), w_scale=st.floats(1e-3, 20),
       eta_a=st.floats(0.1, 5), eta_w=st.floats(0.1, 5), ratio=st.floats(1, 100))  # fmt: skip
def test_the_method_is_regime_of_the_trajectorys_own_numbers(seed, d, extra, scale, a0, w_scale,
                                                           eta_a, eta_w, ratio):  # fmt: skip
    traj = _trajectory(seed, d + extra, d, scale, a0, w_scale, (eta_a, eta_w))
    norm = math.sqrt(sum(float(v) ** 2 for v in traj.beta_star))
    want = kunin.regime(traj.delta, eta_a, eta_w, norm, ratio)
    assert traj.regime(ratio) == want
    assert traj.regime() == kunin.regime(traj.delta, eta_a, eta_w, norm)


@pytest.mark.parametrize("a0, w_scale, expected", [
    (0.01, 0.02, "rich"),             # small, balanced-ish start: delta ~ 0
    (6.0, 0.01, "lazy"),              # a large: delta >> the scale
    (0.01, 8.0, "delayed rich"),      # w large: delta << -the scale
])  # fmt: skip
@pytest.mark.parametrize("dps", [None, 30])
def test_each_regime_is_reached_at_both_precisions(a0, w_scale, expected, dps):
    traj = _trajectory(7, 4, 2, 1.0, a0, w_scale, (1.0, 0.5), dps=dps)
    assert traj.regime() == expected


def test_the_method_refuses_a_bad_ratio_by_name():
    traj = _trajectory(1, 3, 2, 1.0, 0.5, 0.5, (1.0, 1.0))
    with pytest.raises(ValueError, match="ratio must be >= 1"):
        traj.regime(0.5)
    with pytest.raises(ValueError, match="ratio must be a decimal number"):
        traj.regime("ten")
    with pytest.raises(TypeError, match="ratio"):
        traj.regime([10])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), a0=st.floats(-20, 20), w_scale=st.floats(1e-3, 20),
       ratio=st.floats(1, 100))  # fmt: skip
def test_the_function_takes_the_trajectory(seed, a0, w_scale, ratio):
    """``kunin.regime(traj)`` (issue 30's convenience form) is ``traj.regime()``, with or
    without ``ratio``."""
    traj = _trajectory(seed, 4, 2, 1.0, a0, w_scale, (1.0, 0.5))
    assert kunin.regime(traj) == traj.regime()
    assert kunin.regime(traj, ratio=ratio) == traj.regime(ratio)


def test_the_function_refuses_a_mix_of_the_two_forms():
    traj = _trajectory(0, 4, 2, 1.0, 1.0, 1.0, (1.0, 0.5))
    for kwargs, name in (({"eta_a": 1}, "eta_a"), ({"eta_w": 1}, "eta_w"),
                         ({"beta_norm": 1}, "beta_norm")):  # fmt: skip
        with pytest.raises(TypeError, match=f"{name} must not be given too"):
            kunin.regime(traj, **kwargs)
    for args, name in (((0.5,), "eta_a"), ((0.5, 1), "eta_w"), ((0.5, 1, 1), "beta_norm")):
        with pytest.raises(TypeError, match=f"needs {name} with a number delta"):
            kunin.regime(*args)
    assert kunin.regime(0.5, 1, 1, 0.0) == "lazy"  # all four numbers: the old form
