"""Real data that needs no download (issue 32, item 3): scikit-learn's bundled handwritten
digits, the stand-in for the papers' MNIST experiments (seed 000 Section 8.2, Figure 4;
seed 004 Figure 6).

:func:`load_digits` reads :func:`sklearn.datasets.load_digits` (1797 real 8 x 8 images of the
UCI optical-digits set, shipped inside scikit-learn: no network access) and returns a seeded
train / test split of a binary task (even against odd digits by default), rows centred and
scaled to the unit sphere (seed 000's Assumption 3.1: non-zero rows of norm 1).  Why a
binary task: the node-scaled network of seed 000 eq. (2) (:class:`numerics.models.NodeScaled`)
has one output; the paper's MNIST network has ten (one-hot targets under the MSE loss).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from solvable._core import numbers as nb

__all__ = ["N_DIGITS", "load_digits"]

N_DIGITS = 1797
"""The number of images in scikit-learn's digits set."""


def _sklearn_digits() -> tuple[np.ndarray, np.ndarray]:
    try:
        from sklearn.datasets import load_digits as sk_load_digits
    except ImportError as exc:  # an optional dependency, named in the message
        raise ImportError(
            "the digits stand-in needs scikit-learn (its bundled digits images): "
            "pip install 'solvable[data]' or pip install scikit-learn"
        ) from exc
    bunch = sk_load_digits()
    return np.asarray(bunch.data, dtype=float), np.asarray(bunch.target, dtype=int)


def load_digits(*, n_train: int = 500, n_test: int = 500, seed: int = 0,
                positive: Sequence[int] = (0, 2, 4, 6, 8)) -> dict[str, Any]:  # fmt: skip
    """A seeded split of scikit-learn's digits into ``n_train`` training and ``n_test`` test
    images (disjoint; ``n_train + n_test <= 1797``), targets ``+1`` for the digits in
    ``positive`` and ``-1`` for the others, each image (64 pixel values) minus the training
    images' mean pixel vector, then divided by its norm (every row of norm 1).

    Returns ``{"X_train", "y_train", "X_test", "y_test", "labels_train", "labels_test",
    "index_train", "index_test"}`` (float64 arrays; the labels are the digits 0-9, the
    indices the images' rows in :func:`sklearn.datasets.load_digits`).  ``ValueError``
    naming the argument for sizes out of range or a ``positive`` that is empty, repeats a
    digit, or holds every digit (one class only)."""
    n_train = nb.check_int("n_train", n_train, 1, N_DIGITS - 1)
    n_test = nb.check_int("n_test", n_test, 1, N_DIGITS - n_train)
    seed = nb.check_int("seed", seed, 0, 2**32 - 1)
    if isinstance(positive, (str, bytes)) or not isinstance(positive, Sequence):
        raise TypeError(f"positive must be a sequence of digits 0-9, got {nb.describe(positive)}")
    pos = tuple(nb.check_int(f"positive[{k}]", v, 0, 9) for k, v in enumerate(positive))
    if not pos or len(set(pos)) != len(pos) or len(pos) == 10:
        raise ValueError(f"positive must hold 1 to 9 distinct digits (two classes), got {pos}")
    X, labels = _sklearn_digits()
    order = np.random.default_rng(seed).permutation(len(X))
    tr, te = order[:n_train], order[n_train : n_train + n_test]
    centre = X[tr].mean(axis=0)
    y = np.where(np.isin(labels, pos), 1.0, -1.0)
    out: dict[str, Any] = {}
    for name, rows in (("train", tr), ("test", te)):
        Z = X[rows] - centre
        norms = np.linalg.norm(Z, axis=1, keepdims=True)
        if not np.all(norms > 0):  # an image equal to the training mean: no direction
            raise ValueError(f"n_train = {n_train}, seed = {seed}: a {name} image equals the "
                             f"training mean (no direction; n_train = 1 always does)")  # fmt: skip
        out[f"X_{name}"], out[f"y_{name}"] = Z / norms, y[rows]
        out[f"labels_{name}"], out[f"index_{name}"] = labels[rows], rows
    return out
