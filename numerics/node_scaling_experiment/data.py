"""The data and initial networks of :mod:`numerics.node_scaling_experiment`.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Sections 3 and 8.1.1:
:func:`sphere_data` (inputs uniform on the unit sphere, Assumption 3.1),
:func:`node_scalings` (``lambda_{m,j}`` of eq. (1) with the Zipf weights (4)) and
:func:`nested_parameters` (the first ``m`` nodes of one sequence per seed, eq. (3),
Assumption 3.3 and Definition 7.1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.node_scaling_experiment.checks import _int, _ints, _real
from numerics.torch_flow import resolve_device
from solvable._core import numbers as nb
from solvable.models.node_scaling import node_scaling_numeric, zipf


def sphere_data(n: int, d: int, *, seed: int = 0, noise: float = 0.0,
                amplitude: float = 5.0) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Section 8.1.1 data: ``x_i`` uniform on the unit sphere of R^d (normalised Gaussians),
    ``y_i = (amplitude/d) sum_j sin(pi x_ij) + noise * N(0, 1)`` (paper: amplitude 5, noise
    1).  Rows are non-zero, of norm 1 and a.s. pairwise non-parallel (Assumption 3.1)."""
    n, d = _int("n", n), _int("d", d)
    _int("n * d", n * d)  # one array of n d entries
    _int("seed", seed, 0)
    noise = _real("noise", noise, 0.0, math.inf, open_high=True)
    amplitude = _real("amplitude", amplitude, 0.0, math.inf, open_high=True)
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = amplitude / d * np.sin(np.pi * X).sum(1) + noise * rng.normal(size=n)
    return X, y


def node_scalings(m: int, gamma: float, alpha: float | None) -> np.ndarray:
    """``(lambda_{m,j})_{j<=m}`` of eq. (1) with Zipf weights (4) (``alpha in (0, 1)``;
    ``None`` only with ``gamma = 1``), from the generated evaluator of
    :mod:`solvable.models.node_scaling`."""
    m = _int("m", m)
    gamma = _real("gamma", gamma, 0.0, 1.0)
    if alpha is None:
        if gamma != 1:
            raise ValueError(f"alpha must be given (in (0, 1)) when gamma < 1, got gamma={gamma}")
        alpha = 0.5  # any Zipf law: its term has weight 1 - gamma = 0
    alpha = _real("alpha", alpha, 0.0, 1.0, open_low=True, open_high=True)
    j = np.arange(1, m + 1)
    lam = np.asarray(node_scaling_numeric(np.full(m, m), j, gamma, zipf(alpha)), dtype=float)
    if not np.all(np.isfinite(lam)):
        # Zipf(alpha) weights j^(-1/alpha): an alpha near 0 overflows their normalisation
        raise ValueError(f"alpha = {alpha!r} is too close to 0: the Zipf weights j^(-1/alpha) "
                         f"leave the float64 range (alpha must be in (0, 1))")  # fmt: skip
    return lam


def nested_parameters(
    lams: Sequence[np.ndarray],
    d: int,
    seeds: Sequence[int],
    *,
    max_width: int | None = None,
    device: Any = "cpu",
) -> dict[str, Any]:
    """Parameters of :class:`numerics.models.NodeScaled` for a batch of networks ``b`` with
    node scalings ``lams[b]`` (all of one width ``m``) and seeds ``seeds[b]``: the first
    ``m`` nodes of one sequence ``w_0j ~ N(0, I_d)``, ``a_j`` uniform on {-1, 1} (Assumption
    3.3, eq. (3)) drawn for ``max_width`` nodes from ``seeds[b]``, so that networks of
    different widths with one seed share their first nodes (Definition 7.1).  float64."""
    import torch

    d = _int("d", d)
    seeds = _ints("seeds", seeds, 0, 2**64 - 1)  # torch's generator: [0, 2**64 - 1]
    if isinstance(lams, (str, bytes)) or not isinstance(lams, (Sequence, np.ndarray)):
        raise TypeError(f"lams must be a sequence of node-scaling arrays, got "
                        f"{nb.describe(lams)}")  # fmt: skip
    if len(lams) != len(seeds):
        raise ValueError(f"lams and seeds must have one entry per network, got {len(lams)} "
                         f"and {len(seeds)}")  # fmt: skip
    lam = nb.check_float_array("lams", [np.asarray(v).tolist() for v in lams], ndim=2)
    if np.any(lam < 0):
        raise ValueError("lams must be equal-length arrays of finite node scalings >= 0")
    m = lam.shape[1]
    top = m if max_width is None else _int("max_width", max_width)
    if top < m:
        raise ValueError(f"max_width must be >= the width {m}, got {max_width}")
    _int("max_width * d", top * d)  # one draw of top x d weights per seed
    Ws, As = [], []
    for s in seeds:
        gen = torch.Generator().manual_seed(s)
        Ws.append(torch.randn((top, d), generator=gen, dtype=torch.float64)[:m])
        As.append((torch.randint(0, 2, (top,), generator=gen) * 2 - 1).to(torch.float64)[:m])
    dev = resolve_device(device)
    out = {"W": torch.stack(Ws), "a": torch.stack(As), "s": torch.as_tensor(np.sqrt(lam))}
    return {k: v.to(device=dev, dtype=torch.float64) for k, v in out.items()}
