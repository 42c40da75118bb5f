"""Monte Carlo of the NTG of seed 000 at initialisation (Proposition 4.3), batched in torch.

Draws of model (2) at the initialisation of Assumption 3.3 (``w_j ~ N(0, I_d)``, ``a_j = +-1``,
:func:`numerics.models.node_scaled_parameters`); the NTG (7) of each draw is evaluated by the
sympy-generated torch code of :func:`solvable.models.ntg.ntg`.  Compared with the exact values of
:mod:`solvable.models.ntg`: the mean ``Theta*(X)`` (eq. (10)), the Frobenius variance ``C_0(X)
sum_j lambda_{m,j}^2`` at width ``m`` and its limit (13), and the almost-sure convergence
(11) along one sequence of nodes (nested widths).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.models import node_scaled_parameters
from solvable._core import numbers as nb
from solvable._core.activations import check_activation
from solvable._core.tolerance import MC_CONFIDENCE, MonteCarlo, monte_carlo
from solvable.models import node_scaling as ns
from solvable.models import ntg as ntg_mod
from solvable.models.global_convergence import activation_bounds

__all__ = [
    "NestedWidths",
    "Proposition43",
    "nested_widths",
    "node_scalings",
    "proposition_4_3",
    "sample_ntg",
]

_CHUNK_ELEMENTS = 1 << 22  # ~32 MB of float64 per chunk tensor

MAX_CHUNKS = 10**6
"""The most chunks of draws (or of tail nodes) one call makes: each is at least a
millisecond of torch work, so 10**6 chunks are >= 15 minutes (the paper-size runs make a
few hundred); a larger ``draws`` or ``tail_nodes`` is refused, not run for ever."""

MAX_TAIL_NODES = 2**28
"""The most nodes :func:`nested_widths` truncates ``Theta_inf`` at: their weights are one
float64 array (2 GiB at 2**28, 256 times the default 2**20)."""

MAX_WIDTH = 2**31 - 1
"""The largest width ``m`` (the scalings are an array of ``m`` float64: 16 GiB here; the
papers' widths are at most 10**5)."""


def node_scalings(m: int, gamma: Any, weights: Any) -> np.ndarray:
    """``(lambda_{m,1}, ..., lambda_{m,m})`` of eq. (1), float64 (generated evaluator);
    ``1 <= m <=`` :data:`MAX_WIDTH`."""
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or not 1 <= m <= MAX_WIDTH:
        raise ValueError(f"m must be an integer >= 1 (and <= MAX_WIDTH = {MAX_WIDTH}), got "
                         f"{m!r}")  # fmt: skip
    # float64 only: an mpmath.mpf gamma is read as its float64 value (it would otherwise
    # switch the generated evaluator to mpmath, which takes no integer arrays)
    gamma = nb.to_float(nb.check_number("gamma", gamma), "gamma")
    return np.asarray(ns.node_scaling_numeric(m, np.arange(1, m + 1), gamma, weights), float)


def _check_draws(draws: Any) -> int:
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < 2:
        raise ValueError(f"draws must be an integer >= 2, got {draws!r}")
    if draws > nb.INT64_MAX:
        raise ValueError(f"draws must be an integer in [2, 2**63 - 1], got {draws!r}")
    return int(draws)


def _check_seed(seed: Any, chunks: int) -> int:
    """A seed ``>= 0`` with ``seed + chunks - 1 <= 2**64 - 1`` (chunk ``k`` draws from ``seed
    + k``; torch's generator takes ``[0, 2**64 - 1]``)."""
    seed = nb.check_int("seed", seed, 0)
    high = 2**64 - chunks
    if seed > high:
        raise ValueError(f"seed must be an int in [0, {high}] (chunk k draws from seed + k, "
                         f"torch's generator takes [0, 2**64 - 1]), got {seed}")  # fmt: skip
    return seed


def _check_chunks(name: str, value: int, chunks: int) -> None:
    if chunks > MAX_CHUNKS:
        raise ValueError(f"{name} = {value} needs {chunks} chunks of work, more than "
                         f"MAX_CHUNKS = {MAX_CHUNKS} (lower {name})")  # fmt: skip


def _finite_ntg(theta: Any) -> Any:
    """``theta`` if finite; else the inputs' scale overflowed float64 (``ValueError``)."""
    if not bool(np.all(np.isfinite(np.asarray(theta)))):
        raise ValueError("X is too large: the NTG (X X^T / d times bounded factors) overflows "
                         "float64 (rescale X)")  # fmt: skip
    return theta


def sample_ntg(X: Any, activation: str, lam: Any, draws: int, *, seed: int = 0,
               device: Any = None) -> Any:  # fmt: skip
    """``draws`` i.i.d. NTGs ``Theta_m(X; W_0)`` (eq. (7)) of width ``m = len(lam)``:
    a float64 torch tensor (draws, n, n) on the CPU.  Batched over draws in chunks; chunk
    ``k`` uses seed ``seed + k`` (reproducible on every device); at most :data:`MAX_CHUNKS`
    chunks."""
    import torch

    draws = _check_draws(draws)
    Xa = ntg_mod._check_X(X, None)
    check_activation(activation)
    lam_arr = nb.check_float_array("lam", lam, ndim=1)
    if np.any(lam_arr < 0):
        raise ValueError(f"lam must be a non-empty 1-D array of scalings >= 0, got {lam!r:.80}")
    n, d = Xa.shape
    m = lam_arr.size
    chunk = max(1, _CHUNK_ELEMENTS // (m * max(n, d)))
    chunks = -(-draws // chunk)
    _check_chunks("draws", draws, chunks)
    seed = _check_seed(seed, chunks)
    out = []
    for k, lo in enumerate(range(0, draws, chunk)):
        b = min(chunk, draws - lo)
        p = node_scaled_parameters(lam_arr, d, b, seed=seed + k, device=device)
        out.append(ntg_mod.ntg(Xa, p["W"], p["a"], p["s"] ** 2, activation).cpu())
    return _finite_ntg(torch.cat(out).to(torch.float64))


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
    ||X X^T/d||_F`` (``S_M`` the partial sum of the weights).  ``gamma`` in ``[0, 1]``;
    ``tail_nodes`` at most :data:`MAX_TAIL_NODES`; the chunk from node ``start`` draws from
    ``seed + start``, so ``seed + tail_nodes <= 2**64``."""
    import torch

    if isinstance(widths, (str, bytes)) or not isinstance(widths, (list, tuple, np.ndarray)):
        raise TypeError(f"widths must be a sequence of increasing ints >= 1, got "
                        f"{nb.describe(widths)}")  # fmt: skip
    widths = tuple(nb.check_int(f"widths[{k}]", w) for k, w in enumerate(widths))
    if not widths or list(widths) != sorted(set(widths)) or widths[-1] > MAX_WIDTH:
        raise ValueError(f"widths must be increasing integers in [1, {MAX_WIDTH}], got "
                         f"{widths!r:.80}")  # fmt: skip
    M = nb.check_int("tail_nodes", tail_nodes)
    if M > MAX_TAIL_NODES:
        raise ValueError(f"tail_nodes must be an int in [1, {MAX_TAIL_NODES}] "
                         f"(MAX_TAIL_NODES), got {M}")  # fmt: skip
    if widths[-1] > M:
        raise ValueError(f"tail_nodes must be >= the largest width {widths[-1]}, got {M}")
    Xa = ntg_mod._check_X(X, None)
    n, d = Xa.shape
    g = nb.to_float(nb.check_number("gamma", gamma), "gamma")
    if not 0 <= g <= 1:
        raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
    check_activation(activation)
    seed = _check_seed(seed, M)
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
    _finite_ntg([*dist, *rms, tail_bound])
    return NestedWidths(widths, np.array(dist), np.array(rms), tail_bound)
