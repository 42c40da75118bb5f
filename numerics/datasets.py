"""Real data that needs no download (issue 32, item 3): scikit-learn's bundled handwritten
digits, the stand-in for the papers' MNIST experiments (seed 000 Section 8.2, Figure 4;
seed 004 Figure 6), and its bundled diabetes regression set, the stand-in for seed 000's UCI
regression sets (Section 8.2.1, Figure 3; :func:`load_diabetes`).

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

__all__ = ["N_DIABETES", "N_DIGITS", "load_diabetes", "load_digits"]

N_DIGITS = 1797
"""The number of images in scikit-learn's digits set."""

N_DIABETES = 442
"""The number of patients in scikit-learn's diabetes set (10 features each)."""


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


def _sklearn_diabetes() -> tuple[np.ndarray, np.ndarray]:
    try:
        from sklearn.datasets import load_diabetes as sk_load_diabetes
    except ImportError as exc:  # an optional dependency, named in the message
        raise ImportError(
            "the diabetes stand-in needs scikit-learn (its bundled diabetes data): "
            "pip install 'solvable[data]' or pip install scikit-learn"
        ) from exc
    bunch = sk_load_diabetes(scaled=False)
    return np.asarray(bunch.data, dtype=float), np.asarray(bunch.target, dtype=float)


def load_diabetes(*, seed: int = 0, train: float = 0.4, test: float = 0.2,
                  unit_rows: bool = True) -> dict[str, Any]:  # fmt: skip
    """A seeded split of scikit-learn's diabetes regression set (442 patients, 10 features,
    a disease-progression target; shipped inside scikit-learn, no network) into training,
    test and validation rows, as seed 000 Section 8.2.1 splits its UCI sets: ``train`` and
    ``test`` of the rows (floored; defaults 40% and 20%), the rest (40%) the validation set
    that the transfer uses.  Each feature minus its training mean over its training
    standard deviation; with ``unit_rows`` each row then divided by its norm (Assumption
    3.1: non-zero rows of norm 1, as :func:`load_digits`).  The target minus its training
    mean over its training standard deviation (the zero predictor's training risk is 1).

    Returns ``{"X_train", "y_train", "X_test", "y_test", "X_valid", "y_valid",
    "index_train", "index_test", "index_valid"}`` (float64 arrays; the indices are the rows
    of :func:`sklearn.datasets.load_diabetes`).  ``ValueError`` naming the argument for
    ``train``, ``test`` outside ``(0, 1)``, ``train + test >= 1``, or any part with fewer
    than 2 rows; ``TypeError`` for a non-number or a non-flag ``unit_rows``."""
    seed = nb.check_int("seed", seed, 0, 2**32 - 1)
    fr = {}
    for name, value in (("train", train), ("test", test)):
        v = nb.to_float(nb.check_number(name, value), name)
        if not 0 < v < 1:
            raise ValueError(f"{name} must be a fraction in (0, 1), got {nb.describe(value)}")
        fr[name] = v
    unit_rows = nb.check_flag("unit_rows", unit_rows)
    if fr["train"] + fr["test"] >= 1:
        raise ValueError(f"train + test must be below 1 (the rest is the validation set), "
                         f"got train = {train!r}, test = {test!r}")  # fmt: skip
    n_train, n_test = int(fr["train"] * N_DIABETES), int(fr["test"] * N_DIABETES)
    n_valid = N_DIABETES - n_train - n_test
    for name, k in (("train", n_train), ("test", n_test), ("train + test", n_valid)):
        if k < 2:  # the validation set is halved for the transfer: 2 rows at least
            raise ValueError(f"{name} = {fr.get(name, fr['train'] + fr['test'])!r} leaves "
                             f"{k} of the {N_DIABETES} rows in a part (at least 2)")  # fmt: skip
    X, y = _sklearn_diabetes()
    order = np.random.default_rng(seed).permutation(N_DIABETES)
    parts = {"train": order[:n_train], "test": order[n_train : n_train + n_test],
             "valid": order[n_train + n_test :]}  # fmt: skip
    tr = parts["train"]
    mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0)
    y_mu, y_sd = y[tr].mean(), y[tr].std()
    out: dict[str, Any] = {}
    for name, rows in parts.items():
        Z = (X[rows] - mu) / sd
        if unit_rows:
            norms = np.linalg.norm(Z, axis=1, keepdims=True)
            if not np.all(norms > 0):  # a row equal to the training mean: no direction
                raise ValueError(f"seed = {seed}: a {name} row equals the training mean "
                                 f"(no direction; set unit_rows=False)")  # fmt: skip
            Z = Z / norms
        out[f"X_{name}"], out[f"y_{name}"] = Z, (y[rows] - y_mu) / y_sd
        out[f"index_{name}"] = rows
    return out
