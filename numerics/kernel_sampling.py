"""Monte Carlo over initialisations of the two-layer ReLU network of seed 002 (Sections 2.1,
2.3 and Exercise 1): empirical kernels at finite width, from autograd.

The network is :class:`numerics.models.WideTwoLayer` with ``activation="relu"`` (eq. (2.28),
``f = p^(-1/2) sum_j a_j relu(<w_j, x>)``); parameters are drawn from a
:class:`solvable.models.kernels.Initialisation` (``a_j`` uniform / Rademacher / Gaussian with the
record's second moment, ``w_j ~ N(0, s^2 I_d)``).  For each initialisation:

* ``"ntk"``: the empirical NTK (2.25) / (2.29) at ``t = 0`` (``K_0``), ``sum_b J_b J_b^T``
  over both blocks, by :func:`numerics.measures.ntk` (``torch.func`` Jacobians of ``f``);
* ``"ntk_first_layer"``: its ``W`` block alone (the same call on the model with ``eta_a =
  0``), the empirical ``K_NTK`` of (2.29) / (4.4);
* ``"rf"``: its ``a`` block, ``ntk - ntk_first_layer`` (the empirical random-feature
  kernel);
* ``"nngp"``: ``f(x_i) f(x_j)`` (2.4).

The names are :data:`solvable.models.kernels.KERNELS`; the old ``"gp"`` and ``"k0"`` are a
``ValueError`` saying what they became (:func:`solvable.models.kernels.symbols.check_kernel_name`).

:func:`output_samples` draws the outputs ``f(x_i; theta0)`` themselves (for the law of the
output, not only its covariance: the Gaussian limit (2.5)), under a
:class:`~solvable.models.kernels.Initialisation` (``1/sqrt(p)`` scaling (2.3)) or under a row of
Table 1 (:class:`~solvable.models.kernels.DefaultInitialisation`, uniform laws, eq. (2.1) without
the ``1/sqrt(p)``; :func:`sample_table_1`).

None of these uses a closed form.  Their expectation over the initialisation equals the
infinite-width kernel at *every* width (units are i.i.d. and ``E[a_j a_k] = 0``, ``j != k``),
so Monte Carlo means are compared with the closed forms of :mod:`solvable.models.kernels` without a
finite-width bias (:func:`kernel_estimates`); the fluctuation at width ``p`` shrinks like
``p^(-1/2)`` (:func:`width_convergence`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.measures import ntk
from numerics.models import WideTwoLayer
from numerics.torch_flow import resolve_device
from solvable._core import numbers as nb
from solvable._core.tolerance import MonteCarlo, monte_carlo
from solvable.models.kernels import KERNELS, DefaultInitialisation, Initialisation, gram
from solvable.models.kernels.symbols import check_kernel_name

__all__ = [
    "WidthFit",
    "empirical_kernels",
    "kernel_estimates",
    "output_samples",
    "sample_parameters",
    "sample_table_1",
    "upper",
    "width_convergence",
]

_JACOBIAN_DOUBLES = 4_000_000  # batch chunk: at most this many Jacobian entries at once

# torch.Generator.manual_seed takes [0, 2**64 - 1]; chunk / width k of a run draws from seed
# ``seed * _SEED_STRIDE + k``, so ``seed`` is at most (2**64 - 1) // _SEED_STRIDE - 1 (room
# for k < _SEED_STRIDE)
_SEED_STRIDE = 1_000_003
_MAX_SEED = (2**64 - 1) // _SEED_STRIDE - 1


def _check_int(name: str, value: Any, low: int = 1) -> int:
    """An int in ``[low, 2**63 - 1]`` (torch's sizes are int64: a larger one has no array)."""
    value = nb.check_int(name, value, low)
    if value > nb.INT64_MAX:
        raise ValueError(f"{name} must be an int in [{low}, 2**63 - 1] (torch's sizes are "
                         f"int64), got {value}")  # fmt: skip
    return value


def _check_seed(seed: Any, high: int = 2**64 - 1) -> int:
    """A seed in ``[0, high]`` (torch's generator takes ``[0, 2**64 - 1]``)."""
    seed = nb.check_int("seed", seed, 0)
    if seed > high:
        raise ValueError(f"seed must be an int in [0, {high}] (torch's generator), got {seed}")
    return seed


def _finite_out(name: str, out: np.ndarray) -> np.ndarray:
    """``out`` if finite; else a ``ValueError`` naming the input ``name`` whose scale made
    the float64 numbers overflow (e.g. rows of norm 1e300: ``x . x'`` is beyond 1.8e308)."""
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name} is too large: its kernels / outputs overflow float64 "
                         f"(rescale {name})")  # fmt: skip
    return out


def _check_init(init: Any) -> tuple[float, float, str]:
    if not isinstance(init, Initialisation):
        raise TypeError(f"init must be a solvable.kernels.Initialisation, got {init!r}")
    m2, s2 = init.floats()
    return m2, s2, init.a_law


def _check_X(X: Any) -> np.ndarray:
    """A non-empty (n, d) matrix of finite real numbers, float64."""
    return nb.check_float_array("X", X, ndim=2)


def sample_parameters(init: Initialisation, d: int, p: int, batch: int, *, seed: int = 0,
                      device: Any = "cpu", dtype: Any = None) -> dict[str, Any]:  # fmt: skip
    """``batch`` independent initialisations of width ``p`` in dimension ``d``: ``{"W": (B, p,
    d), "a": (B, p)}`` with ``W`` i.i.d. ``N(0, s^2)`` and ``a`` i.i.d. of law ``init.a_law``
    with second moment ``E[a^2]`` (uniform on ``[-c, c]``, ``c = sqrt(3 E[a^2])``; Rademacher
    ``+-sqrt(E[a^2])``; Gaussian).  Drawn on the CPU from ``seed`` (the same numbers on every
    device), then moved to ``device`` (default CPU) as ``dtype`` (default float64).
    ``seed`` in ``[0, 2**64 - 1]``; at most ``2**63 - 1`` weights."""
    import torch

    m2, s2, law = _check_init(init)
    d, p, batch = _check_int("d", d), _check_int("p", p), _check_int("batch", batch)
    nb.check_entries(batch=batch, p=p, d=d)
    seed = _check_seed(seed)
    dev = resolve_device(device)
    dtype = torch.float64 if dtype is None else dtype
    gen = torch.Generator().manual_seed(seed)
    W = torch.randn((batch, p, d), generator=gen, dtype=torch.float64) * math.sqrt(s2)
    if law == "uniform":  # Unif[-c, c] has second moment c^2/3
        a = (2 * torch.rand((batch, p), generator=gen, dtype=torch.float64) - 1) * math.sqrt(3 * m2)
    elif law == "rademacher":
        signs = 2 * torch.randint(0, 2, (batch, p), generator=gen).to(torch.float64) - 1
        a = signs * math.sqrt(m2)
    else:
        a = torch.randn((batch, p), generator=gen, dtype=torch.float64) * math.sqrt(m2)
    return {"W": W.to(device=dev, dtype=dtype), "a": a.to(device=dev, dtype=dtype)}


def empirical_kernels(init: Initialisation, X: Any, p: int, batch: int, *, seed: int = 0,
                      device: Any = "cpu",
                      kernels: Any = KERNELS) -> dict[str, np.ndarray]:  # fmt: skip
    """The empirical kernels ``"ntk"``, ``"ntk_first_layer"``, ``"rf"``, ``"nngp"`` (module
    docstring; those named in ``kernels``) on the rows of ``X`` (n, d), for ``batch`` independent
    initialisations of width ``p``: arrays (batch, n, n), float64.  NTK blocks by autograd
    (:func:`numerics.measures.ntk`)."""
    import torch

    single = isinstance(kernels, str)
    if single:
        kernels = (kernels,)
    elif isinstance(kernels, (list, tuple)):
        kernels = tuple(kernels)
    else:
        raise TypeError(f"kernels must be a name or a list of names from {KERNELS}, got "
                        f"{nb.describe(kernels)}")  # fmt: skip
    if not kernels:
        raise ValueError(f"kernels must be a non-empty subset of {KERNELS}, got {kernels!r}")
    for k, name in enumerate(kernels):
        check_kernel_name("kernels" if single else f"kernels[{k}]", name)
    X = _check_X(X)
    params = sample_parameters(init, X.shape[1], p, batch, seed=seed, device=device)
    n = X.shape[0]
    zeros = np.zeros(n)
    full = WideTwoLayer(X, zeros, activation="relu")
    w_only = WideTwoLayer(X, zeros, activation="relu", eta_a=0.0)
    chunk = max(1, _JACOBIAN_DOUBLES // (n * p * (X.shape[1] + 1)))
    out: dict[str, list[np.ndarray]] = {k: [] for k in kernels}
    Xt = torch.as_tensor(X, dtype=params["W"].dtype, device=params["W"].device)
    for start in range(0, batch, chunk):
        q = {k: v[start : start + chunk] for k, v in params.items()}
        got: dict[str, Any] = {}
        if {"ntk", "rf"} & set(kernels):
            got["ntk"] = ntk(full, q, X)
        if {"ntk_first_layer", "rf"} & set(kernels):
            got["ntk_first_layer"] = ntk(w_only, q, X)
        if "rf" in kernels:
            got["rf"] = got["ntk"] - got["ntk_first_layer"]
        if "nngp" in kernels:
            f = full.output(q, Xt)
            got["nngp"] = f[:, :, None] * f[:, None, :]
        for name in kernels:
            out[name].append(got[name].detach().cpu().numpy())
    return {k: _finite_out("X", np.concatenate(v)) for k, v in out.items()}


def upper(K: Any) -> np.ndarray:
    """The entries ``i <= j`` of the last two (square) axes, flattened: (..., n(n+1)/2)."""
    K = nb.check_float_array("K", K)
    if K.ndim < 2 or K.shape[-1] != K.shape[-2]:
        raise ValueError(f"K must have two square last axes (..., n, n), got shape {K.shape}")
    i, j = np.triu_indices(K.shape[-1])
    return K[..., i, j]


def kernel_estimates(init: Initialisation, X: Any, p: int, batch: int, *, seed: int = 0,
                     device: Any = "cpu") -> dict[str, MonteCarlo]:  # fmt: skip
    """Monte Carlo means over ``batch`` initialisations of the empirical kernels at width
    ``p``, on the upper-triangle entries (:func:`upper`), with the package's simultaneous
    99.9% confidence intervals (:func:`solvable.tolerance.monte_carlo`)."""
    samples = empirical_kernels(init, X, p, _check_int("batch", batch, 2), seed=seed,
                                device=device)  # fmt: skip
    return {k: monte_carlo(upper(v)) for k, v in samples.items()}


@dataclass(frozen=True)
class WidthFit:
    """Convergence of the empirical kernel in the width: ``rms[i]`` is the root mean square
    over all initialisations of ``||K^ - K||_F`` at ``widths[i]``; ``slopes`` the least-squares
    slopes of ``log rms`` against ``log p``, one per independent replicate; ``slope`` their
    Monte Carlo mean with the simultaneous CI (``slope.stderr`` is the standard error)."""

    widths: tuple[int, ...]
    rms: tuple[float, ...]
    slopes: np.ndarray
    slope: MonteCarlo


def width_convergence(init: Initialisation, X: Any, widths: Any, *, replicates: int,
                      batch: int, seed: int = 0, device: Any = "cpu",
                      kernel: str = "ntk") -> WidthFit:  # fmt: skip
    """Fit ``||K^_p - K||_F ~ C p^slope`` (expected slope -1/2: ``E||K^_p - K||_F^2 = V/p``
    exactly, ``K^_p`` an average of ``p`` i.i.d. unit terms) for the empirical kernel
    ``kernel`` against the closed form :func:`solvable.models.kernels.gram`, with ``replicates``
    independent replicates of ``batch`` initialisations per width.  ``seed`` in ``[0,
    (2**64 - 1) // 1_000_003 - 1]`` (width ``i`` draws from ``seed * 1_000_003 + i``)."""
    check_kernel_name("kernel", kernel)
    X = _check_X(X)
    if isinstance(widths, (str, bytes)) or not isinstance(widths, (list, tuple, np.ndarray)):
        raise TypeError(f"widths must be a sequence of ints >= 1, got {nb.describe(widths)}")
    ws = tuple(_check_int(f"widths[{k}]", w) for k, w in enumerate(np.ravel(
        np.asarray(widths, dtype=object))))  # fmt: skip
    if len(set(ws)) < 2:
        raise ValueError(f"widths must hold at least 2 distinct widths, got {widths!r}")
    if len(ws) >= _SEED_STRIDE:
        raise ValueError(f"widths must hold fewer than {_SEED_STRIDE} widths (one seed each)")
    replicates = _check_int("replicates", replicates, 2)
    batch = _check_int("batch", batch)
    nb.check_entries(replicates=replicates, batch=batch, widths=len(ws))
    seed = _check_seed(seed, _MAX_SEED)
    exact = gram(kernel, init, X)
    sq = np.empty((replicates, len(ws), batch))
    for i, p in enumerate(ws):  # all replicates of one width in one batch, split afterwards
        K = empirical_kernels(init, X, p, replicates * batch, seed=seed * _SEED_STRIDE + i,
                              device=device, kernels=(kernel,))[kernel]  # fmt: skip
        sq[:, i] = ((K - exact) ** 2).sum(axis=(1, 2)).reshape(replicates, batch)
    logp = np.log(np.array(ws, dtype=float))
    rms_r = np.sqrt(sq.mean(axis=2))  # (replicates, widths)
    if not np.all(rms_r > 0):  # log 0: no slope (X = 0, or kernels below float64's range)
        raise ValueError("X gives an empirical kernel equal to the exact one at some width "
                         "(||K^ - K||_F = 0: X is 0 or too small for float64), so "
                         "log ||K^ - K|| has no slope")  # fmt: skip
    slopes = np.array([np.polyfit(logp, np.log(row), 1)[0] for row in rms_r])
    rms = tuple(float(v) for v in np.sqrt(sq.mean(axis=(0, 2))))
    return WidthFit(ws, rms, slopes, monte_carlo(slopes))


def sample_table_1(init: DefaultInitialisation, d: int, p: int, batch: int, *, seed: int = 0,
                   device: Any = "cpu", dtype: Any = None) -> dict[str, Any]:  # fmt: skip
    """``batch`` initialisations of Table 1's row ``init`` (width ``p``, dimension ``d``):
    ``W`` (B, p, d) i.i.d. ``Unif([-w_bound, w_bound])``, ``a`` (B, p) i.i.d.
    ``Unif([-a_bound, a_bound])`` (``b = 0``); drawn on the CPU from ``seed`` (``[0, 2**64 -
    1]``), float64; at most ``2**63 - 1`` weights."""
    import torch

    if not isinstance(init, DefaultInitialisation):
        raise TypeError(f"init must be a solvable.kernels.DefaultInitialisation, got {init!r}")
    d, p, batch = _check_int("d", d), _check_int("p", p), _check_int("batch", batch)
    nb.check_entries(batch=batch, p=p, d=d)
    seed = _check_seed(seed)
    bounds = init.at(p, d)
    gen = torch.Generator().manual_seed(seed)
    W = (2 * torch.rand((batch, p, d), generator=gen, dtype=torch.float64) - 1) * bounds["w_bound"]
    a = (2 * torch.rand((batch, p), generator=gen, dtype=torch.float64) - 1) * bounds["a_bound"]
    dev, dtype = resolve_device(device), torch.float64 if dtype is None else dtype
    return {"W": W.to(device=dev, dtype=dtype), "a": a.to(device=dev, dtype=dtype)}


_OUTPUT_DOUBLES = 4_000_000  # batch chunk of output_samples: at most this many weights at once
MAX_OUTPUT_CHUNKS = _SEED_STRIDE
"""The most chunks :func:`output_samples` draws: chunk ``k`` seeds from ``seed * 1_000_003 +
k``, so more would reuse the next seed's draws (and at >= 1 ms a chunk, 10**6 chunks are
already >= 15 minutes; the figures draw at most a few hundred)."""


def output_samples(init: Initialisation | DefaultInitialisation, X: Any, p: int, batch: int, *,
                   seed: int = 0, device: Any = "cpu") -> np.ndarray:  # fmt: skip
    """The outputs ``f(x_i; theta0)`` of ``batch`` independent ReLU networks of width ``p`` on
    the rows of ``X`` (n, d): shape (batch, n), float64, through
    :class:`numerics.models.WideTwoLayer` (no closed form).  ``init``: an
    :class:`~solvable.models.kernels.Initialisation` (network (2.3), scale ``1/sqrt(p)``) or a
    :class:`~solvable.models.kernels.DefaultInitialisation` (Table 1, network (2.1), scale 1).
    Drawn in chunks, chunk ``k`` from seed ``seed * 1_000_003 + k``: ``seed`` in ``[0,
    (2**64 - 1) // 1_000_003 - 1]``, and at most ``MAX_OUTPUT_CHUNKS`` chunks (a work cap)."""
    import torch

    X = _check_X(X)
    p, batch = _check_int("p", p), _check_int("batch", batch)
    seed = _check_seed(seed, _MAX_SEED)
    table = isinstance(init, DefaultInitialisation)
    if not table:
        _check_init(init)
    d = X.shape[1]
    model = WideTwoLayer(X, np.zeros(len(X)), activation="relu", scale=1.0 if table else None)
    chunk = max(1, _OUTPUT_DOUBLES // (p * (d + 1)))
    chunks = -(-batch // chunk)
    if chunks > MAX_OUTPUT_CHUNKS:
        raise ValueError(f"batch = {batch} networks of width p = {p} in d = {d}: {chunks} "
                         f"chunks of {_OUTPUT_DOUBLES} weights, more than MAX_OUTPUT_CHUNKS = "
                         f"{MAX_OUTPUT_CHUNKS} (lower batch or p)")  # fmt: skip
    nb.check_entries(batch=batch, n=len(X))
    out = []
    for k, start in enumerate(range(0, batch, chunk)):
        size = min(chunk, batch - start)
        s = seed * 1_000_003 + k
        params = (sample_table_1(init, d, p, size, seed=s, device=device) if table
                  else sample_parameters(init, d, p, size, seed=s, device=device))  # fmt: skip
        Xt = torch.as_tensor(X, dtype=params["W"].dtype, device=params["W"].device)
        with torch.no_grad():
            out.append(model.output(params, Xt).cpu().numpy())
    return _finite_out("X", np.concatenate(out))
