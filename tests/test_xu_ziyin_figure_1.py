"""Seed 001's Figure 1(a), (b) claim (``xu_ziyin.figure_1ab``, module ``xu_ziyin_figure_1``):
registered, confirmed by default, failing on a wrong direction, a kernel panel that moves,
a simulation off Theorem 1 or a missing panel."""

from __future__ import annotations

import math

import numpy as np
import pytest

from solvable.verification import theorems
from solvable.verification import xu_ziyin_figure_1 as f1
from solvable.verification.figures import seed_001

D = 1000
UP, FLAT, DOWN = np.linspace(0.0, 0.9, 5), np.full(5, 0.06), np.linspace(1.0, 0.9, 5)


def _panels(**over):
    p = {"a, 1/d": (UP, UP), "a, 1/sqrt(d)": (FLAT, FLAT), "b, 1/d": (DOWN, DOWN)}
    p.update(over)
    return p


def test_registered_and_confirmed():
    (claim,) = [t for t in theorems.registry() if t.id == "xu_ziyin.figure_1ab"]
    assert claim.kind == "numeric" and "Figure 1" in claim.source
    v = claim.verify()
    assert v.status == "confirmed", v.detail


def test_verdict_on_synthetic_panels():
    assert f1.figure_1_verdict(_panels(), D).status == "confirmed"
    assert f1.figure_1_verdict(_panels(**{"b, 1/d": (UP, UP)}), D).status == "failed"
    assert f1.figure_1_verdict(_panels(**{"a, 1/d": (DOWN, DOWN)}), D).status == "failed"
    small = np.linspace(0.0, 0.1, 5)  # rising, but within the kernel bound 10/sqrt(d)
    assert f1.figure_1_verdict(_panels(**{"a, 1/d": (small, small)}), D).status == "failed"
    moved = np.linspace(0.0, 0.5, 5)  # the kernel panel moving by more than the bound
    assert f1.figure_1_verdict(_panels(**{"a, 1/sqrt(d)": (moved, moved)}), D).status == "failed"
    off = UP + 10 * f1.ATOL
    assert f1.figure_1_verdict(_panels(**{"a, 1/d": (off, UP)}), D).status == "failed"
    p = _panels()
    del p["b, 1/d"]
    assert f1.figure_1_verdict(p, D).status == "failed"


def test_kernel_bound_scales_with_width():
    assert f1.KERNEL_BOUND / math.sqrt(D) == pytest.approx(0.316, abs=1e-3)


def test_initial_weights():
    u, w = f1.initial_weights("parallel", 50)
    assert np.array_equal(u, w)
    u, w = f1.initial_weights("near", 2000)
    assert np.std(w - u) == pytest.approx(math.sqrt(0.1), rel=0.1)
    with pytest.raises(ValueError, match="kind must be"):
        f1.initial_weights("orthogonal", 4)


def test_the_figures_use_the_claims_initialisation():
    assert seed_001.fig1.initial_weights is f1.initial_weights
