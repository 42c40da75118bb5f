"""Seed 002, eq. (1.1): the claim linearisation.excess_risk_decomposition confirms, and fails
when the class infimum is computed wrongly (a shrunk or a restricted minimiser)."""

from __future__ import annotations

import numpy as np

from solvable.verification.confirmations import linearisation as cl


def _lstsq(Phi: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.linalg.lstsq(Phi.T, y, rcond=None)[0]


def test_decomposition_confirms() -> None:
    assert cl._excess_risk_decomposition().status == "confirmed"


def test_decomposition_fails_with_a_shrunk_minimiser() -> None:
    # 0.99 x the least-squares coefficients: not the infimum, the in-class approximation
    # term is no longer 0
    assert cl._excess_risk_decomposition(minimiser=lambda P, y: 0.99 * _lstsq(P, y)).status == (
        "failed"
    )


def test_decomposition_fails_with_a_restricted_minimiser() -> None:
    # half of the features only: a larger "infimum", estimation terms turn negative
    def half(P: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.concatenate([_lstsq(P[:8], y), np.zeros(P.shape[0] - 8)])

    assert cl._excess_risk_decomposition(minimiser=half).status == "failed"
