"""Seed 002, eq. (3.11): the claim kernels.mean_field_average confirms, and fails on a wrong
limit (the signed measure's integral 0, or the right one 2% off)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from solvable.models.kernels import lecture_initialisation
from solvable.verification.confirmations import kernels as ck


def test_the_limit_is_the_integral_over_mu() -> None:
    # E|a| E relu(<w, x>) for a ~ Unif[-1, 1] (E|a| = 1/2), w ~ N(0, I/3): E relu(<w, x>) =
    # |x| / sqrt(3 * 2 pi) (a half-normal mean); V = E[a^2] E[relu^2] - L^2 = |x|^2/18 - L^2
    limit, var = ck._mean_field_moments(lecture_initialisation(3))
    norms = np.linalg.norm(ck._MC_X, axis=1)
    half_normal = norms / float(sp.sqrt(6 * sp.pi))
    assert np.allclose(limit, half_normal / 2, rtol=1e-14)
    assert np.allclose(var, norms**2 / 18 - limit**2, rtol=1e-13)


def test_mean_field_average_confirms_and_fails_on_wrong_limits() -> None:
    assert ck._mean_field_average().status == "confirmed"
    limit, _ = ck._mean_field_moments(lecture_initialisation(3))
    assert ck._mean_field_average(limit=0 * limit).status == "failed"
    assert ck._mean_field_average(limit=1.02 * limit).status == "failed"
