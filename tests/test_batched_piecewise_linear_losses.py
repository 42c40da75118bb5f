"""Batched piecewise-linear losses: the batch axes of ``a`` (..., h) and ``W`` (..., h, d)
broadcast by numpy's rule, each batch element's loss is that of its own network, and batches
that do not broadcast are refused naming ``a`` and ``W``.

Written in the mutation-testing triage of the seed-5 run.
"""

from __future__ import annotations

import numpy as np
import pytest

from solvable.models import kunin


def _relu(z):
    return np.maximum(z, 0.0)


def test_piecewise_linear_loss_broadcasts_batches_elementwise():
    """Key solvable/models/kunin.py:281:core/NumberReplacer:112 (a's batch taken as
    a.shape[:-2])."""
    rng = np.random.default_rng(5)
    h, d, n = 3, 2, 4
    X, y = rng.standard_normal((n, d)), rng.standard_normal(n)
    a = rng.standard_normal((2, 5, h))  # batch (2, 5)
    W = rng.standard_normal((5, h, d))  # batch (5,): broadcasts to (2, 5)
    got = kunin.piecewise_linear_loss(a, W, X, y, _relu)
    assert got.shape == (2, 5)
    for i in range(2):
        for j in range(5):
            # one network at a time, with its own f(x) = sum_k a_k relu(w_k . x)
            f = _relu(X @ W[j].T) @ a[i, j]
            ref = 0.5 * float(np.sum((f - y) ** 2))
            # the same sums of a few products in another order: a few eps of the terms
            assert abs(got[i, j] - ref) <= 1e-13 * max(1.0, ref), (i, j)
    with pytest.raises(ValueError, match=r"broadcast.*a.*\(3,\).*W.*\(2,\)"):
        kunin.piecewise_linear_loss(rng.standard_normal((3, h)), rng.standard_normal((2, h, d)),
                                    X, y, _relu)  # fmt: skip
