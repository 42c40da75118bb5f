"""Monte Carlo of the NTG of seed 000 at initialisation (Proposition 4.3), batched in torch.

Draws of model (2) at the initialisation of Assumption 3.3 (``w_j ~ N(0, I_d)``, ``a_j = +-1``,
:func:`numerics.models.node_scaled_parameters`); the NTG (7) of each draw is evaluated by the
sympy-generated torch code of :func:`solvable.ntg.ntg`.  Compared with the exact values of
:mod:`solvable.ntg`: the mean ``Theta*(X)`` (eq. (10)), the Frobenius variance ``C_0(X)
sum_j lambda_{m,j}^2`` at width ``m`` and its limit (13), and the almost-sure convergence
(11) along one sequence of nodes (nested widths).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.models import node_scaled_parameters
from solvable import node_scaling as ns
from solvable import ntg as ntg_mod
from solvable._core.activations import check_activation
from solvable._core.tolerance import MC_CONFIDENCE, MonteCarlo, monte_carlo
from solvable.global_convergence import activation_bounds

__all__ = [
    "NestedWidths",
    "Proposition43",
    "nested_widths",
    "node_scalings",
    "proposition_4_3",
    "sample_ntg",
]

_CHUNK_ELEMENTS = 1 << 22  # ~32 MB of float64 per chunk tensor


def node_scalings(m: int, gamma: Any, weights: Any) -> np.ndarray:
    """``(lambda_{m,1}, ..., lambda_{m,m})`` of eq. (1), float64 (generated evaluator)."""
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    return np.asarray(ns.node_scaling_numeric(m, np.arange(1, m + 1), gamma, weights), float)


def _check_draws(draws: Any) -> int:
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < 2:
        raise ValueError(f"draws must be an integer >= 2, got {draws!r}")
    return int(draws)


def sample_ntg(X: Any, activation: str, lam: Any, draws: int, *, seed: int = 0,
               device: Any = None) -> Any:  # fmt: skip
    """``draws`` i.i.d. NTGs ``Theta_m(X; W_0)`` (eq. (7)) of width ``m = len(lam)``:
    a float64 torch tensor (draws, n, n) on the CPU.  Batched over draws in chunks; chunk
    ``k`` uses seed ``seed + k`` (reproducible on every device)."""
    import torch

    draws = _check_draws(draws)
    Xa = ntg_mod._check_X(X, None)
    check_activation(activation)
    lam_arr = np.asarray(lam, dtype=float)
    if lam_arr.ndim != 1 or lam_arr.size == 0 or np.any(lam_arr < 0):
        raise ValueError(f"lam must be a non-empty 1-D array of scalings >= 0, got {lam!r:.80}")
    n, d = Xa.shape
    m = lam_arr.size
    chunk = max(1, _CHUNK_ELEMENTS // (m * max(n, d)))
    out = []
    for k, lo in enumerate(range(0, draws, chunk)):
        b = min(chunk, draws - lo)
        p = node_scaled_parameters(lam_arr, d, b, seed=seed + k, device=device)
        out.append(ntg_mod.ntg(Xa, p["W"], p["a"], p["s"] ** 2, activation).cpu())
    return torch.cat(out).to(torch.float64)


@dataclass(frozen=True)
class Proposition43:
    """One Monte Carlo check of Proposition 4.3 at width ``m``: ``mean`` (entries of the
    NTG) vs ``mean_exact = Theta*(X)``; ``variance`` (``||Theta_m - Theta*||_F^2``) vs
    ``variance_exact = C_0 sum_j lambda_{m,j}^2``; ``variance_limit = C_0 (1 - gamma)^2
    sum_j lambda~_j^2`` (13) and the finite-m ``gap = |variance_exact - variance_limit|``."""

    activation: str
    m: int
    gamma: float
    weights: Any
    mean: MonteCarlo
    mean_exact: np.ndarray
    variance: MonteCarlo
    variance_exact: float
    variance_limit: float

    @property
    def gap(self) -> float:
        return abs(self.variance_exact - self.variance_limit)

    def limit_error_in_units(self) -> float:
        """``|MC variance - limit| / (half-width + gap)`` (pass: ``<= 1``): the limit (13)
        is within the interval widened by the computable finite-m gap."""
        hw = float(self.variance.half_width)
        diff = abs(float(self.variance.mean) - self.variance_limit)
        return diff / (hw + self.gap) if hw + self.gap > 0 else (0.0 if diff == 0 else math.inf)

    def summary(self) -> str:
        return (
            f"{self.activation} m={self.m} gamma={self.gamma} {self.weights!r}: mean entries "
            f"err {self.mean.error_in_units(self.mean_exact):.2f} CI units "
            f"({self.mean.summary()}); Frobenius variance {self.variance.summary()} vs exact "
            f"C0*sum lambda^2 = {self.variance_exact:.6g} "
            f"({self.variance.error_in_units(self.variance_exact):.2f} units), limit (13) "
            f"{self.variance_limit:.6g} (gap {self.gap:.3g}, "
            f"{self.limit_error_in_units():.2f} units)"
        )


def proposition_4_3(X: Any, activation: str, m: int, gamma: Any, weights: Any, draws: int, *,
                    seed: int = 0, device: Any = None,
                    confidence: float = MC_CONFIDENCE) -> Proposition43:  # fmt: skip
    """Monte Carlo of Proposition 4.3 at width ``m`` with ``draws`` networks (see
    :class:`Proposition43`); confidence intervals from :func:`solvable.tolerance.monte_carlo`
    (``confidence``, default 99.9 %, Bonferroni over the n^2 entries for the mean; a sweep
    of ``k`` runs passes ``1 - 0.001/k`` to stay simultaneous)."""
    lam = node_scalings(m, gamma, weights)
    theta = sample_ntg(X, activation, lam, draws, seed=seed, device=device).numpy()
    exact = ntg_mod.mean_ntg(X, activation)
    frob = ((theta - exact) ** 2).sum((-1, -2))
    return Proposition43(
        activation, int(m), float(gamma), weights,
        monte_carlo(theta, confidence=confidence), exact,
        monte_carlo(frob, confidence=confidence),
        ntg_mod.frobenius_variance(X, activation, m, gamma, weights),
        ntg_mod.frobenius_variance_limit(X, activation, gamma, weights),
    )  # fmt: skip


@dataclass(frozen=True)
class NestedWidths:
    """Eq. (11) along one sequence of nodes: ``distances[k] = ||Theta_{m_k} -
    Theta_inf||_F`` for the nested widths ``m_k`` from one draw of ``(w_0j)``; ``Theta_inf``
    is truncated at ``tail_nodes`` nodes, which moves it by at most ``tail_bound``
    (Frobenius); ``rms[k] = sqrt(E||Theta_{m_k} - Theta_inf||_F^2)`` exactly (see
    :func:`nested_widths`)."""

    widths: tuple[int, ...]
    distances: np.ndarray
    rms: np.ndarray
    tail_bound: float


def nested_widths(X: Any, activation: str, gamma: Any, weights: Any, widths: Any, *,
                  tail_nodes: int = 1 << 20, seed: int = 0,
                  device: Any = None) -> NestedWidths:  # fmt: skip
    """Eq. (11): ``Theta_m(X; W_0) -> Theta_inf = gamma Theta* + (1 - gamma) sum_j lambda~_j
    A_j`` (``A_j = D_j X X^T D_j / d``, eq. (12)) on ONE draw of ``w_01, w_02, ...``
    (first ``tail_nodes`` drawn once; ``Theta_m`` uses the first ``m``).

    Exact mean square distance (independent centred ``A_j - Theta*``, the weights summing
    to 1): ``E||Theta_m - Theta_inf||_F^2 = C_0 [sum_{j<=m} (lambda_{m,j} - (1 - gamma)
    lambda~_j)^2 + (1 - gamma)^2 sum_{j>m} lambda~_j^2]`` (returned as ``rms``).  The
    truncated tail moves ``Theta_inf`` by at most ``(1 - gamma) (1 - S_M) sup|sigma'|^2
    ||X X^T/d||_F`` (``S_M`` the partial sum of the weights)."""
    import torch

    widths = tuple(int(w) for w in widths)
    if not widths or any(w < 1 for w in widths) or list(widths) != sorted(set(widths)):
        raise ValueError(f"widths must be increasing integers >= 1, got {widths!r}")
    if widths[-1] > tail_nodes:
        raise ValueError(f"tail_nodes must be >= the largest width {widths[-1]}, got {tail_nodes}")
    Xa = ntg_mod._check_X(X, None)
    n, d = Xa.shape
    g = float(gamma)
    M = int(tail_nodes)
    wt = np.asarray(ns.weight_numeric(np.arange(1, M + 1), weights), float)  # lambda~_j
    # one draw of the first M nodes, in chunks: sum_j lambda~_j A_j over all of them (the
    # truncated (12), from the generated NTG with scalings lambda~), and the first
    # widths[-1] nodes kept for Theta_m
    acc_w = torch.zeros(n, n, dtype=torch.float64)
    kept_W, kept_a = [], []
    chunk = max(1, _CHUNK_ELEMENTS // max(n, d))
    for start in range(0, M, chunk):
        stop = min(M, start + chunk)
        ones = np.ones(stop - start)
        p = node_scaled_parameters(ones, d, 1, seed=seed + start, device=device)
        lamw = torch.as_tensor(wt[start:stop], dtype=p["W"].dtype, device=p["W"].device)
        acc_w += ntg_mod.ntg(Xa, p["W"][0], p["a"][0], lamw, activation).cpu().to(torch.float64)
        if start < widths[-1]:
            kept_W.append(p["W"][0].cpu().numpy())
            kept_a.append(p["a"][0].cpu().numpy())
    W_first, a_first = np.concatenate(kept_W), np.concatenate(kept_a)
    star = ntg_mod.mean_ntg(Xa, activation)
    theta_inf = g * star + (1 - g) * acc_w.numpy()  # eq. (11)-(12), truncated at M nodes
    dist = []
    for m in widths:  # Theta_m(X; W_0) on the first m nodes with the scalings of eq. (1)
        theta_m = ntg_mod.ntg(Xa, W_first[:m], a_first[:m], node_scalings(m, gamma, weights),
                              activation)  # fmt: skip
        dist.append(float(np.linalg.norm(theta_m - theta_inf)))
    C0 = ntg_mod.frobenius_constant(Xa, activation)
    rms = []
    for m in widths:
        lam = node_scalings(m, gamma, weights)
        inside = float(np.sum((lam - (1 - g) * wt[:m]) ** 2))
        tail = float(ns.sum_of_squares_limit_numeric(0, weights)) - float(np.sum(wt[:m] ** 2))
        rms.append(math.sqrt(C0 * (inside + (1 - g) ** 2 * max(tail, 0.0))))
    # sup |sigma'|: 1 for linear and relu, from activation_bounds for swish (1.0998) and tanh
    sup = 1.0 if activation in ("linear", "relu") else float(activation_bounds(activation)[0])
    G = Xa @ Xa.T / d
    S = float(np.sum(wt))
    tail_bound = (1 - g) * max(0.0, 1 - S) * sup**2 * float(np.linalg.norm(G))
    return NestedWidths(widths, np.array(dist), np.array(rms), tail_bound)
