"""Gradient descent on the kernel (``gamma = 1``) limit: :func:`kernel_gd`.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Proposition 4.3 and
eq. (8): at ``gamma = 1`` the NTG of eq. (2) is the constant mean NTG in the infinite-width
limit, and GD on the linearised model is ``r <- (I - lr K) r`` (simulated step by step, not
a closed form).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from numerics.node_scaling_experiment.checks import MAX_STEPS, _ints, _real
from solvable._core import numbers as nb


def kernel_gd(
    K: np.ndarray,
    r0: np.ndarray,
    lr: float,
    record_steps: Sequence[int],
    *,
    K_cross: np.ndarray | None = None,
    f0_cross: np.ndarray | None = None,
    y_cross: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Gradient descent on the linear (kernel) model with a fixed NTG ``K`` (n, n): the
    infinite-width limit of eq. (2) at ``gamma = 1`` (Proposition 4.3: the NTG is the
    constant mean NTG), stepped exactly as the network is, ``f <- f + lr K (y - f)`` on the
    training inputs and ``f(x) <- f(x) + lr K(x, X) (y - f)`` at other inputs (eq. (8)
    with the linearised output).  Simulated, not a closed form: ``r <- (I - lr K) r``.

    ``r0`` (R, n): initial residuals ``y - f_0`` (one row per network); ``K_cross``
    (n_test, n), ``f0_cross`` (R, n_test), ``y_cross`` (n_test,): optional other inputs.
    Returns ``"risk"`` (T, R) ``|r|^2/n`` at ``record_steps`` and, with ``K_cross``,
    ``"test"`` (T, R), the mean squared error on the other inputs.  ``record_steps``: sorted
    ints in ``[0, MAX_STEPS]`` (a work cap: the steps run one by one).  An ``lr`` at which
    GD diverges (``lr >= 2 / lambda_max(K)``) so far that the residual leaves the float64
    range is a ``ValueError``."""
    K = nb.check_float_array("K", K, ndim=2)
    r = nb.check_float_array("r0", r0, ndim=(1, 2))
    r = r[None] if r.ndim == 1 else r
    if K.shape != (r.shape[1], r.shape[1]):
        raise ValueError(f"K must be (n, n) with n = r0.shape[-1] = {r.shape[1]}, got {K.shape}")
    lr = _real("lr", lr, 0.0, math.inf, open_low=True, open_high=True)
    if isinstance(record_steps, (str, bytes)) or not isinstance(
        record_steps, (Sequence, np.ndarray)
    ):
        raise TypeError(f"record_steps must be a sequence of sorted ints >= 0, got "
                        f"{nb.describe(record_steps)}")  # fmt: skip
    listed = record_steps.tolist() if isinstance(record_steps, np.ndarray) else record_steps
    steps = np.array(_ints("record_steps", listed, 0, MAX_STEPS), dtype=np.int64)
    if np.any(np.diff(steps) < 0):
        raise ValueError(f"record_steps must be sorted integers >= 0, got {record_steps!r:.80}")
    cross = K_cross is not None
    if cross:
        Kc = nb.check_float_array("K_cross", K_cross, ndim=2)
        f = nb.check_float_array("f0_cross", f0_cross, ndim=(1, 2))
        f = f[None] if f.ndim == 1 else f
        yc = nb.check_float_array("y_cross", y_cross, ndim=1)
        if Kc.shape != (yc.shape[0], K.shape[0]) or f.shape != (r.shape[0], yc.shape[0]):
            raise ValueError(f"K_cross (n_test, n), f0_cross (R, n_test), y_cross (n_test,) "
                             f"disagree (n, R from K and r0 {r.shape}): {Kc.shape}, "
                             f"{f.shape}, {yc.shape}")  # fmt: skip
    risk, test = [], []
    k = 0
    with np.errstate(over="ignore", invalid="ignore"):  # a divergence is refused below
        for target in steps:
            while k < target:
                if cross:
                    f += lr * r @ Kc.T
                r = r - lr * r @ K  # K symmetric
                k += 1
                # stop at the first step that leaves the float64 range (O(R n) against the
                # step's O(R n^2)), not after every requested step on inf and NaN
                if not np.isfinite(r).all() or (cross and not np.isfinite(f).all()):
                    break
            risk.append((r**2).mean(1))
            if cross:
                test.append(((f - yc) ** 2).mean(1))
            if not all(np.all(np.isfinite(v[-1])) for v in ([risk, test] if cross else [risk])):
                lam_max = float(np.max(np.abs(np.linalg.eigvalsh((K + K.T) / 2))))
                raise ValueError(
                    f"lr = {lr!r} makes GD diverge past the float64 range at step {k} (the "
                    f"residual grows by |1 - lr lambda| a step; stable for lr < 2 / "
                    f"lambda_max(K) = {2 / lam_max if lam_max else math.inf:.4g})")  # fmt: skip
    out = {"risk": np.array(risk)}
    if cross:
        out["test"] = np.array(test)
    return out
