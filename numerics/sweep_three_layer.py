"""Seed 004 (three-layer ReLU phase diagram), Section 5: the slopes ``S_W1``, ``S_W2``.

One experiment, :func:`rd_point`: a three-layer ReLU network (eq. (1), both biases, as
the paper folds them into ``W1`` and ``W2``, Section 3) is initialised at a phase point
``(gamma_2, gamma_3)`` (eqs. (8)-(9)) of width ``m`` and trained by full-batch gradient
descent on the risk (3) of a 1-d problem of four points until the risk falls below a
tolerance; it returns the relative distances (10) of the first- and second-layer input
weights.  :func:`slopes` fits ``S_W = d log RD / d log m`` (eq. (11)) by least squares.
Numbers only: which regime a slope means (:func:`solvable.models.three_layer.regime_from_slope`)
and where the paper states one (:data:`solvable.models.three_layer.PAPER_POINTS`) are the model's.

The representatives of a phase point (:func:`scale_exponents`, :func:`initial_scales`):
eqs. (8)-(9) give, for ``alpha = m^s``, ``beta_3 = m^-p``, ``beta_2 = B m^-p`` (Assumption
3.2, ``B`` a constant) and ``beta_1 = m^-q``,

    gamma_2 = p - q,      gamma_3 = 2p + q + s,

so ``p = (gamma_2 + gamma_3 - s)/3`` and ``q = (gamma_3 - s - 2 gamma_2)/3``.  Table 2
uses exactly this family (``beta_2 = beta_3``, ``B = 1``) with ``s`` in {-0.5, 0, 0.5} and
{-0.3, 0, 0.3}, and says the other experiments use one combination per point; we take
``s = 0`` (``alpha = 1``, the middle rows of Table 2) and ``B = 1`` by default.  Biases are
drawn as the extra column of the weight they are folded into: ``b1 ~ N(0, beta_1^2)``,
``b2 ~ N(0, beta_2^2)`` (Section 5.1: all parameters ``N(0, var)`` with var set by the
betas), and RD(W1), RD(W2) include them (the abstract: "the input weight of a hidden
neuron consists of the weight from its input layer ... and its bias term").

What the paper does not state, and what is chosen here (all in ``settings``):

* the four data points: ``x = (-1, -1/3, 1/3, 1)``, ``y = (0.2, 0.6, 0.3, 0.8)``
  (Section 5.1 says only "a simple 1-d problem of 4 training points"); the setting ``x``
  also takes ``n`` inputs in ``R^d`` as an (n, d) array (Section 5.1's ``d``-``m``-``m``-1
  net, e.g. Figure 6's images: claim ``three_layer.figure_6_digits``), ``W1`` then (m, d);
  a flat ``x`` is the 1-d problem exactly as before (tested bit for bit);
* the learning rate: ``lr = min(lr_scale / lambda_max(K_0 / n), lr_max)`` with ``K_0`` the
  NTK Gram matrix at initialisation (:func:`ntk_gram`), ``lr_scale = 0.25``,
  ``lr_max = 0.2``.  The first term keeps gradient descent stable in the linear regime,
  where the curvature ``lambda_max(K/n)`` grows like a power of ``m``; the cap serves the
  condensed regime, where ``K_0 -> 0`` with ``m`` but the curvature at the end of
  training is O(1) (measured 3-5 on this problem) and an uncapped rate kills every
  ReLU.  Measured at m = 256, points (0, 2.1) and (0.7, 2.5): with the cap at 0.5 the
  runs ended at ``lr lambda_max ~ 2`` (the edge of stability) and RD moved by up to 4 %;
  with 0.25 and 0.1 the RDs agree to 0.5 %, so with these settings GD tracks the
  gradient flow (4);
* the stopping rule: the first multiple of ``check_every`` (50) steps at which
  ``R_S <= tol`` (1e-6; the initial risk is ~0.14), at most ``max_steps`` steps; a run
  whose weights a whole chunk of ``check_every`` steps leaves bit for bit unchanged (a
  fixed point of descent that is not a fit, e.g. a dead second layer) stops there,
  ``stalled``, instead of running on to ``max_steps`` with the same weights, and starts
  again from its initial draw with the rate divided by 4, up to ``max_restarts`` (3)
  times (``restarts``; a run still stalled after them is not converged and is excluded
  from the slopes, as a run that ran out of steps is).  Measured at (1, 2), m = 1000,
  seed 0: stalled at the rate 0.2, converged in 650 steps at 0.05.
  Measured at m = 128 (seed 0): checking every step instead moves RD by < 4e-4
  (relative), and ``tol = 1e-8`` instead of 1e-6 by < 0.7 % at (0, 1.1), (0, 2.1),
  (1/2, 2.8).

Many runs at once (issue 17): :func:`train_runs` / :func:`rd_points` train every run of
one width (and the same data, stopping rule, dtype and device) as one batch of
``numerics.torch_flow.gradient_descent``, each network with its own output scale (the
rate-0 block ``alpha`` of :class:`numerics.models.ThreeLayerReLU`) and learning rate, a
run leaving the batch at the check where its risk falls below ``tol``; the gradient is
the model's hand-written one.  A single run costs ~0.2 ms a step whatever its width up
to 128 (per-step overhead of ~50 small tensor operations); a batch of 39 nets costs
0.012 / 0.034 / 0.14 ms per net and step at m = 32 / 64 / 128 (2-core machine under
load).  Widths are not padded into one batch: a width-32 net padded to 128 would cost
the 128 one's 0.14 ms a step instead of 0.012 ms.  :func:`train_run` is the batch of
one, so a batched run and its single run are one code path; they agree bit for bit on
the CPU (tested).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from numbers import Rational
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from numerics.measures import record_loss, relative_distance
from numerics.models import ThreeLayerReLU
from numerics.torch_flow import gradient_descent, initialise, resolve_device
from solvable._core import numbers as nb
from solvable.models import three_layer

__all__ = [
    "BATCH_ENTRIES",
    "DATA_X",
    "DATA_Y",
    "DEFAULT_SETTINGS",
    "fit_slope",
    "initial_scales",
    "linear_estimate",
    "ntk_gram",
    "rd_point",
    "rd_points",
    "rd_sweep_point",
    "scale_exponents",
    "slopes",
    "train_run",
    "train_runs",
]

DATA_X = (-1.0, -1.0 / 3.0, 1.0 / 3.0, 1.0)
DATA_Y = (0.2, 0.6, 0.3, 0.8)

DEFAULT_SETTINGS: dict[str, Any] = {
    "x": DATA_X,
    "y": DATA_Y,
    "alpha_exponent": 0.0,
    "B": 1.0,
    "bias": True,
    "lr_scale": 0.25,
    "lr_max": 0.2,
    "tol": 1e-6,
    "check_every": 50,
    "max_steps": 200_000,
    "max_restarts": 3,
    "dtype": "float64",
    "device": None,
}


# ---------------------------------------------------------------------------
# phase point -> initialisation
# ---------------------------------------------------------------------------
def _fraction(name: str, value: Any) -> Fraction:
    """An exact rational; a float through its shortest decimal repr (1.1 -> 11/10); an
    ``mpmath.mpf`` as its float64 value (this is a float64 sweep), then as a float."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
        value = nb.to_float(value, name)
    if isinstance(value, (int, Fraction, np.integer)):
        return Fraction(int(value)) if not isinstance(value, Fraction) else value
    if isinstance(value, Rational):  # sympy Rational registers as numbers.Rational
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(float(value)):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return Fraction(repr(float(value)))
    try:  # sympy Integer / Rational that do not register
        if isinstance(value, sp.Rational):
            return Fraction(int(value.p), int(value.q))
    except ImportError:  # pragma: no cover
        pass
    raise TypeError(f"{name} must be an int, float, Fraction or sympy Rational, got {value!r}")


def scale_exponents(gamma_2: Any, gamma_3: Any, alpha_exponent: Any = 0) -> dict[str, Fraction]:
    """Exponents of the representative initialisation of a phase point (eqs. (8)-(9)).

    Returns ``{"alpha": s, "beta_1": -q, "beta_2": -p, "beta_3": -p}`` (so that e.g.
    ``beta_1 = m^(-q)``) with ``p = (gamma_2 + gamma_3 - s)/3`` and ``q = (gamma_3 - s -
    2 gamma_2)/3``: the model's :func:`solvable.models.three_layer.power_law_scheme` (``B = 1``,
    Table 2's parametrisation; claim ``three_layer.power_law_family``), each exponent read
    off by :func:`solvable.models.three_layer.exponent`.  Exact rationals; floats are read through
    their decimal repr."""
    return dict(_scale_exponents(_fraction("gamma_2", gamma_2), _fraction("gamma_3", gamma_3),
                                 _fraction("alpha_exponent", alpha_exponent)))  # fmt: skip


@functools.cache
def _scale_exponents(g2: Fraction, g3: Fraction, s: Fraction) -> tuple[tuple[str, Fraction], ...]:
    scheme = three_layer.power_law_scheme(g2, g3, s)
    out = []
    for name in ("alpha", "beta_1", "beta_2", "beta_3"):
        e = -three_layer.exponent(getattr(scheme, name))  # scale = m^e
        out.append((name, Fraction(int(e.p), int(e.q))))
    return tuple(out)


def initial_scales(gamma_2: Any, gamma_3: Any, m: int, alpha_exponent: Any = 0,
                   B: float = 1.0) -> dict[str, float]:  # fmt: skip
    """Concrete ``alpha``, ``beta_1``, ``beta_2 = B beta_3``, ``beta_3`` at width ``m`` for
    the phase point ``(gamma_2, gamma_3)`` (see :func:`scale_exponents`).  A point whose
    scales ``m^e`` leave the float64 range (overflow, or underflow to 0) at this width is a
    ``ValueError`` naming the exponents and ``m``."""
    m = _width(m)
    b = _positive_float("B", B)
    e = scale_exponents(gamma_2, gamma_3, alpha_exponent)
    out = {}
    for k, v in e.items():
        try:
            out[k] = float(m) ** float(v)
        except OverflowError:  # float(v) of a huge Fraction, or m^v beyond 1.8e308
            out[k] = math.inf
    out["beta_2"] *= b
    bad = [k for k, v in out.items() if not (math.isfinite(v) and v > 0)]
    if bad:
        raise ValueError(f"gamma_2 = {gamma_2!r}, gamma_3 = {gamma_3!r}, alpha_exponent = "
                         f"{alpha_exponent!r}, B = {B!r} at width m = {m}: the scale(s) {bad} "
                         f"= m^e leave the float64 range (exponents {dict(e)})")  # fmt: skip
    return out


# ---------------------------------------------------------------------------
# validation helpers
# ---------------------------------------------------------------------------
# W2 is an m x m block: torch's sizes are int64, so m^2 <= 2**63 - 1
_MAX_WIDTH = math.isqrt(2**63 - 1)


def _width(m: Any) -> int:
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 2:
        raise ValueError(f"m must be an integer >= 2, got {nb.describe(m)}")
    if m > _MAX_WIDTH:
        raise ValueError(f"m must be an integer in [2, {_MAX_WIDTH}] (W2 has m^2 entries), got "
                         f"{m!r}")  # fmt: skip
    return int(m)


def _seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {nb.describe(seed)}")
    if seed > 2**64 - 1:
        raise ValueError(f"seed must be an integer in [0, 2**64 - 1] (torch's generator), got "
                         f"{seed!r}")  # fmt: skip
    return int(seed)


def _positive_float(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return v


def _settings(overrides: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(overrides) - set(DEFAULT_SETTINGS))
    if unknown:
        raise ValueError(f"unknown settings {unknown}; valid: {sorted(DEFAULT_SETTINGS)}")
    s = {**DEFAULT_SETTINGS, **overrides}
    xa = np.asarray(s["x"], dtype=float)
    if xa.ndim == 2:  # n inputs in R^d (e.g. the digits of Figure 6): one tuple per row
        if xa.shape[1] < 1 or not np.all(np.isfinite(xa)):
            raise ValueError(f"x of shape (n, d) must have d >= 1 and finite entries, got "
                             f"shape {xa.shape}")  # fmt: skip
        x: tuple[Any, ...] = tuple(tuple(float(v) for v in row) for row in xa)
    elif xa.ndim > 2:
        raise ValueError(f"x must be 1-d (n points on the line) or 2-d (n, d), got shape "
                         f"{xa.shape}")  # fmt: skip
    else:  # the 1-d problem (Section 5.1): a flat tuple, exactly as before
        x = tuple(float(v) for v in xa.reshape(-1))
    y = tuple(float(v) for v in np.asarray(s["y"], dtype=float).reshape(-1))
    if len(x) != len(y) or not x:
        raise ValueError(f"x and y must be non-empty and of equal length, got {len(x)}, {len(y)}")
    s["x"], s["y"] = x, y
    for name in ("B", "lr_scale", "lr_max", "tol"):
        s[name] = _positive_float(name, s[name])
    s["alpha_exponent"] = float(_fraction("alpha_exponent", s["alpha_exponent"]))
    for name, low in (("check_every", 1), ("max_steps", 0), ("max_restarts", 0)):
        v = s[name]
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
        s[name] = int(v)
    if not isinstance(s["bias"], bool):
        raise TypeError(f"bias must be a bool, got {s['bias']!r}")
    if s["dtype"] not in ("float32", "float64"):
        raise ValueError(f"dtype must be 'float32' or 'float64', got {s['dtype']!r}")
    if s["device"] is not None and not isinstance(s["device"], str):
        raise TypeError(f"device must be None or a string such as 'cpu', got {s['device']!r}")
    return s


# ---------------------------------------------------------------------------
# NTK and relative distances
# ---------------------------------------------------------------------------
def ntk_gram(model: Any, p: Mapping[str, Any]) -> Any:
    """The NTK Gram matrix ``K_ij = <grad_theta f(x_i), grad_theta f(x_j)>`` of
    :class:`numerics.models.ThreeLayerReLU` on its data, in closed form (B, n, n).

    With ``h1 = relu(z1)``, ``h2 = relu(z2)``, ``D_l = 1[z_l > 0]`` and ``g_i = W2^T (a *
    D2_i)``: ``alpha^2 K = h2 h2^T + (sum_k a_k^2 D2_ik D2_jk)(h1_i . h1_j + [b]) + (sum_l
    g_il g_jl D1_il D1_jl)(x_i . x_j + [b])``, the bracketed 1 with biases (a, W2+b2,
    W1+b1).  O(n m^2), no Jacobian stored (``numerics.measures.ntk`` is the autograd
    reference it is tested against)."""
    import torch

    if not isinstance(model, ThreeLayerReLU):
        raise TypeError(f"model must be a numerics.models.ThreeLayerReLU, got "
                        f"{type(model).__name__}")  # fmt: skip
    blocks = ("a", "W2", "W1", *(("b2", "b1") if model.bias else ()))
    if not isinstance(p, Mapping) or any(not isinstance(p.get(k), torch.Tensor) for k in blocks):
        raise TypeError(f"p must map the blocks {blocks} to torch tensors, got "
                        f"{nb.describe(p)}")  # fmt: skip
    X = model._t("X", p["W1"])
    z1 = X @ p["W1"].transpose(1, 2)
    if model.bias:
        z1 = z1 + p["b1"][:, None, :]
    h1 = torch.relu(z1)
    z2 = h1 @ p["W2"].transpose(1, 2)
    if model.bias:
        z2 = z2 + p["b2"][:, None, :]
    h2 = torch.relu(z2)
    d1 = (z1 > 0).to(X.dtype)
    d2 = (z2 > 0).to(X.dtype)
    one = 1.0 if model.bias else 0.0
    a = p["a"][:, None, :]
    K = h2 @ h2.transpose(1, 2)
    K = K + ((d2 * a**2) @ d2.transpose(1, 2)) * (h1 @ h1.transpose(1, 2) + one)
    g = ((d2 * a) @ p["W2"]) * d1  # (B, n, m)
    K = K + (g @ g.transpose(1, 2)) * (X @ X.T + one)
    return K / model.alpha**2


def _layer(p: Mapping[str, Any], w: str, b: str | None) -> Any:
    """The input weights of a layer as one (B, m * (fan_in + 1)) vector (bias included)."""
    import torch

    flat = p[w].reshape(p[w].shape[0], -1)
    return flat if b is None else torch.cat([flat, p[b]], 1)


def _rd(p: Mapping[str, Any], p0: Mapping[str, Any], w: str, b: str | None) -> float:
    return float(relative_distance(_layer(p, w, b), _layer(p0, w, b))[0])


# ---------------------------------------------------------------------------
# the experiments: one run, or many trained as one batch
# ---------------------------------------------------------------------------
BATCH_ENTRIES = 2**18
"""The most parameters (batch x per-network size) :func:`train_runs` steps as one batch
(2 MiB per copy in float64: the state and the few copies a step makes stay in a CPU's
L2/L3 cache; measured on the 2-core machine at m = 128 (17 k parameters a net): 0.12 ms
per net and step in batches of 9-15, 0.14 ms in one of 39).  Larger groups are split;
a net larger than this trains alone."""

# the settings a batch shares: the data, the network, the stopping rule, dtype, device
_SHARED = ("x", "y", "bias", "tol", "check_every", "max_steps", "dtype", "device")


def _inputs(s: Mapping[str, Any]) -> np.ndarray:
    """The inputs of validated settings as an (n, d) array: ``d = 1`` for a flat ``x``."""
    X = np.array(s["x"], dtype=float)
    return X[:, None] if X.ndim == 1 else X


def _start(gamma_2: Any, gamma_3: Any, m: Any, seed: Any, settings: Mapping[str, Any]
           ) -> dict[str, Any]:  # fmt: skip
    """One run before training: validated inputs, the initial draw ``p0`` (batch of
    one), ``lam0``, ``lr`` and ``loss0``; ``p``, ``loss``, ``steps``, ``diverged`` at
    step 0 (:func:`_descend` trains it)."""
    import torch

    m = _width(m)
    seed = _seed(seed)
    s = _settings(settings)
    g2, g3 = _fraction("gamma_2", gamma_2), _fraction("gamma_3", gamma_3)
    scales = initial_scales(g2, g3, m, s["alpha_exponent"], s["B"])
    exps = scale_exponents(g2, g3, s["alpha_exponent"])
    dev = resolve_device(s["device"])
    dtype = getattr(torch, s["dtype"])

    X = _inputs(s)
    model = ThreeLayerReLU(X, np.array(s["y"]), alpha=scales["alpha"], bias=s["bias"])
    shapes: dict[str, tuple[int, ...]] = {"a": (m,), "W2": (m, m), "W1": (m, X.shape[1])}
    std = {"a": scales["beta_3"], "W2": scales["beta_2"], "W1": scales["beta_1"]}
    if s["bias"]:
        shapes.update(b2=(m,), b1=(m,))
        std.update(b2=scales["beta_2"], b1=scales["beta_1"])
    p0 = initialise(shapes, 1, scale=std, seed=int(seed), device=dev, dtype=dtype)

    with torch.no_grad():
        lam0 = float(torch.linalg.eigvalsh(ntk_gram(model, p0) / len(s["y"]))[0, -1])
        loss0 = float(model.loss(p0)[0])
    lr = min(s["lr_scale"] / lam0, s["lr_max"]) if lam0 > 0 else s["lr_max"]
    return {"p0": p0, "p": p0, "loss0": loss0, "loss": loss0, "steps": 0, "diverged": False,
            "stalled": False, "restarts": 0, "lr": lr, "lam0": lam0, "scales": scales,
            "exponents": exps, "settings": s, "device": dev, "gamma_2": g2, "gamma_3": g3,
            "m": m, "seed": int(seed)}  # fmt: skip


def _chunk(model: Any, p: Mapping[str, Any], lr: Sequence[float], steps: int, dev: Any
           ) -> tuple[dict[str, Any] | None, Any]:  # fmt: skip
    """``steps`` steps of gradient descent of the batch ``p``: the weights after them and
    the losses (B,), or ``(None, None)`` if some element left the finite numbers."""
    try:
        res = gradient_descent(model, p, list(lr), [steps], measures={"loss": record_loss(model)},
                               device=dev)  # fmt: skip
    except ArithmeticError:
        return None, None
    return {k: v[-1] for k, v in res.params.items()}, res.measures["loss"][-1]


def _descend(runs: Sequence[dict[str, Any]]) -> None:
    """Train ``runs`` (from :func:`_start`, one width and the same ``_SHARED`` settings)
    as one batch, in place, each by the stopping rule of the module docstring: chunks of
    ``check_every`` steps (the last one up to ``max_steps``); after each chunk the runs
    whose risk is ``<= tol`` (or not finite: diverged; or whose weights a whole chunk left
    bit for bit unchanged: stalled) leave the batch, so every run
    stops at the step its single run stops at.  The output scale of each run is the
    model's rate-0 block ``alpha`` and its learning rate one entry of ``lr`` (per-element
    gradient descent), so the batch elements never mix.  A chunk in which some element
    diverges (``gradient_descent`` raises) is rerun one element at a time, so that only
    that run is marked diverged (its weights stay those before the chunk, as for a
    single run)."""
    import torch

    s = runs[0]["settings"]
    model = ThreeLayerReLU(_inputs(s), np.array(s["y"]), alpha=None, bias=s["bias"])
    dev = runs[0]["device"]
    active = [r for r in runs if r["loss"] > s["tol"] and s["max_steps"] > 0]
    steps = 0
    while active:
        chunk = min(s["check_every"], s["max_steps"] - steps)
        p = {k: torch.cat([r["p"][k] for r in active]) for k in model.blocks if k != "alpha"}
        p["alpha"] = torch.tensor([r["scales"]["alpha"] for r in active], dtype=p["a"].dtype,
                                  device=p["a"].device)  # fmt: skip
        new, loss = _chunk(model, p, [r["lr"] for r in active], chunk, dev)
        steps += chunk
        if new is None:  # some element diverged: rerun the chunk one element at a time
            outs = [_chunk(model, {k: v[i : i + 1] for k, v in p.items()}, [r["lr"]], chunk,
                           dev) for i, r in enumerate(active)]  # fmt: skip
        else:
            outs = [({k: v[i : i + 1] for k, v in new.items()}, loss[i : i + 1])
                    for i in range(len(active))]  # fmt: skip
        still = []
        for r, (q, lv) in zip(active, outs, strict=True):
            if q is None:
                r["diverged"] = True
                continue
            before = r["p"]
            r["p"] = {k: v for k, v in q.items() if k != "alpha"}  # views into the batch
            r["loss"], r["steps"] = float(lv[0]), steps
            if not math.isfinite(r["loss"]):
                r["diverged"] = True
            elif r["loss"] > s["tol"] and steps < s["max_steps"]:
                # a whole chunk left every weight bit for bit as it was: descent is at a
                # fixed point (or on a cycle of the chunk's length), so every later chunk
                # repeats this one and the risk never reaches tol (e.g. every second-layer
                # ReLU off at every input: zero gradient); stop instead of running on to
                # max_steps (the weights there would be these)
                if all(torch.equal(before[k], r["p"][k]) for k in r["p"]):
                    r["stalled"] = True
                else:
                    still.append(r)
                    continue
            r["p"] = {k: v.clone() for k, v in r["p"].items()}  # done: its own memory
        active = still


RATE_CUT = 4
"""A stalled run starts again from its initial draw with its learning rate divided by this
(:func:`_train`)."""


def _train(runs: Sequence[dict[str, Any]], entries: int) -> None:
    """Train started runs (:func:`_start`) in batches of at most ``entries`` parameters
    (:func:`_descend`), in place; a run that stalls (its weights a fixed point of descent
    that is not a fit: measured, every second-layer ReLU off at every input after the
    first 100-200 steps at (gamma_2, gamma_3) = (1, 2), m = 512 and 1000 with the rate
    0.2) starts again from its initial draw with the rate divided by :data:`RATE_CUT`, up
    to ``max_restarts`` times (``restarts`` counts them; the result's ``lr`` is the last
    rate).  A run that never stalls trains exactly as before: one code path for a single
    run and a batch, the restarts batched too."""
    pending = list(runs)
    while pending:
        for batch in _batches(pending, entries):
            _descend(batch)
        again = [r for r in pending
                 if r["stalled"] and r["restarts"] < r["settings"]["max_restarts"]]  # fmt: skip
        for r in again:
            r.update(p=r["p0"], loss=r["loss0"], steps=0, stalled=False,
                     lr=r["lr"] / RATE_CUT, restarts=r["restarts"] + 1)  # fmt: skip
        pending = again


def _batches(runs: Sequence[dict[str, Any]], entries: int) -> list[list[dict[str, Any]]]:
    """``runs`` grouped by width and shared settings, each group split into batches of
    at most ``entries`` parameters (at least one run each), in order of first appearance."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for r in runs:
        key = (r["p0"]["W2"].shape[-1], *(str(r["settings"][k]) for k in _SHARED))
        groups.setdefault(key, []).append(r)
    out = []
    for g in groups.values():
        size = sum(v[0].numel() for v in g[0]["p0"].values())
        n = max(1, entries // size)
        out += [g[i : i + n] for i in range(0, len(g), n)]
    return out


def _run_args(i: int, run: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
    if not isinstance(run, Mapping):
        raise TypeError(f"runs[{i}] must be a mapping with gamma_2, gamma_3, m, seed and "
                        f"settings, got {type(run).__name__}")  # fmt: skip
    missing = [k for k in ("gamma_2", "gamma_3", "m", "seed") if k not in run]
    if missing:
        raise ValueError(f"runs[{i}] lacks {missing}")
    rest = {k: v for k, v in run.items() if k not in ("gamma_2", "gamma_3", "m", "seed")}
    return run["gamma_2"], run["gamma_3"], run["m"], run["seed"], rest


def train_runs(runs: Sequence[Mapping[str, Any]], *,
               batch_entries: int = BATCH_ENTRIES) -> list[dict[str, Any]]:  # fmt: skip
    """:func:`train_run` for many runs at once: ``runs`` are mappings ``{"gamma_2",
    "gamma_3", "m", "seed", **settings}`` (each its own settings, e.g. ``lr_max`` or
    ``alpha_exponent``); returns one :func:`train_run` dict per run, in order.

    The runs of one width that share the data, the network, the stopping rule, dtype
    and device (the other settings, e.g. the scales, the exponent of alpha and the
    learning rate, are per run) are trained as one batch (:func:`_descend`), at most
    ``batch_entries`` parameters at a time (:data:`BATCH_ENTRIES`).  Each result is its
    single :func:`train_run`'s: the same initial draw, learning rate and steps; the
    weights agree to float64 rounding (bit for bit where the batched products round as
    the single ones do, as on the CPU here; tested)."""
    if isinstance(runs, (str, bytes, Mapping)) or not isinstance(runs, Sequence):
        raise TypeError(f"runs must be a sequence of mappings, got {type(runs).__name__}")
    if isinstance(batch_entries, bool) or not isinstance(batch_entries, (int, np.integer)) \
            or batch_entries < 1:  # fmt: skip
        raise ValueError(f"batch_entries must be an integer >= 1, got {batch_entries!r}")
    started = [_start(*_run_args(i, r)) for i, r in enumerate(runs)]
    _train(started, int(batch_entries))
    return started


def train_run(gamma_2: Any, gamma_3: Any, m: int, seed: int, **settings: Any) -> dict[str, Any]:
    """The training of :func:`rd_point`, with the weights: ``p0``, ``p`` (torch tensors per
    block, batch of one), ``loss0``, ``loss``, ``steps``, ``diverged``, ``stalled``,
    ``restarts``, ``lr``, ``lam0``
    (``lambda_max(K_0/n)``), ``scales``, ``exponents``, ``settings`` (validated), ``device``,
    ``gamma_2``, ``gamma_3`` (exact), ``m``, ``seed``.  One code path for :func:`rd_point`,
    :func:`train_runs` (a batch of one) and :func:`numerics.phase_diagram.train`."""
    r = _start(gamma_2, gamma_3, m, seed, settings)
    _train([r], BATCH_ENTRIES)
    return r


def _rd_result(r: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON result of :func:`rd_point` from a trained run (:func:`train_run`)."""
    p, p0, s, diverged = r["p"], r["p0"], r["settings"], r["diverged"]
    g2, g3, loss, dev = r["gamma_2"], r["gamma_3"], r["loss"], r["device"]

    def rd(w: str, b: str | None) -> float | None:
        return None if diverged else _rd(p, p0, w, b)

    bias = s["bias"]
    return {
        "gamma_2": float(g2),
        "gamma_3": float(g3),
        "m": r["m"],
        "seed": r["seed"],
        "rd_w1": rd("W1", "b1" if bias else None),
        "rd_w2": rd("W2", "b2" if bias else None),
        "rd_w1_no_bias": rd("W1", None),
        "rd_w2_no_bias": rd("W2", None),
        "rd_a": rd("a", None),
        "loss0": r["loss0"],
        "loss": loss if not diverged else None,
        "steps": r["steps"],
        "converged": (not diverged) and loss <= s["tol"],
        "diverged": diverged,
        "stalled": r["stalled"],
        "restarts": r["restarts"],
        "lr": r["lr"],
        "lambda_max0": r["lam0"],
        "scales": r["scales"],
        "exponents": {k: str(v) for k, v in r["exponents"].items()},
        "device": str(dev),
        "settings": {k: (list(v) if isinstance(v, tuple) else v) for k, v in s.items()},
    }


def rd_point(gamma_2: Any, gamma_3: Any, m: int, seed: int, **settings: Any) -> dict[str, Any]:
    """Train one network at phase point ``(gamma_2, gamma_3)`` and width ``m``; return RD.

    Seed 004 Section 5: the three-layer ReLU network (1) with biases, initialised by
    :func:`initial_scales` (``a ~ N(0, beta_3^2)``, ``W2, b2 ~ N(0, beta_2^2)``, ``W1, b1
    ~ N(0, beta_1^2)``, from ``numerics.torch_flow.initialise(seed=seed)``), trained by
    full-batch gradient descent on the risk (3) (``numerics.torch_flow.gradient_descent``)
    until the stopping rule of the module docstring.  A pure function of its arguments
    (same seed and settings, same device: the same numbers).

    Returns a JSON-serialisable dict: ``rd_w1``, ``rd_w2`` (eq. (10), biases included),
    ``rd_w1_no_bias``, ``rd_w2_no_bias``, ``rd_a``, ``loss0``, ``loss``, ``steps``,
    ``converged`` (risk <= tol reached), ``diverged``, ``stalled`` (the last attempt
    stopped before ``max_steps`` at a fixed point of descent that is not a fit, e.g. every
    second-layer ReLU off at every input: seen at (gamma_2, gamma_3) = (1, 2), m = 512,
    seed 1, the risk stuck at its start 0.141), ``restarts`` (attempts after stalls, each
    at a quarter of the rate), ``lr`` (the last attempt's), ``lambda_max0``
    (``lambda_max(K_0/n)``), ``scales`` (alpha, betas), ``exponents``, and the inputs
    ``gamma_2``, ``gamma_3``, ``m``, ``seed``, ``settings``, ``device``.  On divergence
    the RD entries are ``None``."""
    return _rd_result(train_run(gamma_2, gamma_3, m, seed, **settings))


def rd_points(points: Sequence[Mapping[str, Any]], *, batch_entries: int = BATCH_ENTRIES,
              extra: Mapping[str, Callable[[dict[str, Any]], Any]] | None = None
              ) -> list[dict[str, Any]]:  # fmt: skip
    """:func:`rd_sweep_point` for many JSON points at once, trained as batches
    (:func:`train_runs`): the same results as one :func:`rd_sweep_point` per point
    (to float64 rounding; bit for bit on the CPU here, tested).

    ``extra``: more measurements of each trained run, ``name -> fn(run)`` with ``run``
    its :func:`train_run` dict (weights included), stored as ``result[name]`` (a JSON
    value; the names must not be keys of the result)."""
    if isinstance(points, (str, bytes, Mapping)) or not isinstance(points, Sequence):
        raise TypeError(f"points must be a sequence of dicts, got {type(points).__name__}")
    extra = {} if extra is None else extra
    if not isinstance(extra, Mapping) or not all(callable(f) for f in extra.values()):
        raise TypeError(f"extra must be a mapping of name -> callable, got {extra!r:.80}")
    runs = []
    for i, point in enumerate(points):
        g2, g3, m, seed, rest = _run_args(i, point)
        runs.append({"gamma_2": _json_fraction(f"points[{i}]['gamma_2']", g2),
                     "gamma_3": _json_fraction(f"points[{i}]['gamma_3']", g3), "m": m,
                     "seed": seed, **rest})  # fmt: skip
    trained = train_runs(runs, batch_entries=batch_entries)
    out = []
    for r in trained:
        res = _rd_result(r)
        clash = sorted(set(extra) & set(res))
        if clash:
            raise ValueError(f"extra must not name result keys, got {clash}")
        out.append({**res, **{name: fn(r) for name, fn in extra.items()}})
    return out


# ---------------------------------------------------------------------------
# slopes, eq. (11)
# ---------------------------------------------------------------------------
def fit_slope(m: Sequence[float], rd: Sequence[float]) -> dict[str, float]:
    """Ordinary least squares ``log rd = c + S log m``: ``slope``, its standard error
    ``err = sqrt(s^2 / sum (log m - mean)^2)`` with ``s^2`` the residual variance on
    ``N - 2`` degrees of freedom (``nan`` when ``N = 2``), ``intercept``, ``n``."""
    m_arr, rd_arr = nb.check_float_array("m", m, ndim=1), nb.check_float_array("rd", rd, ndim=1)
    if m_arr.shape != rd_arr.shape or m_arr.ndim != 1:
        raise ValueError(f"m and rd must be 1-d of equal length, got {m_arr.shape}, {rd_arr.shape}")
    both = np.concatenate([m_arr, rd_arr])
    if not (np.all(np.isfinite(both)) and np.all(both > 0)):
        raise ValueError(f"m and rd must be finite and > 0, got m={m!r:.60}, rd={rd!r:.60}")
    lm, lr = np.log(m_arr), np.log(rd_arr)
    sxx = float(((lm - lm.mean()) ** 2).sum())
    if lm.size < 2 or sxx == 0:
        raise ValueError(f"need at least two distinct widths, got {sorted(set(m))}")
    slope = float(((lm - lm.mean()) * (lr - lr.mean())).sum() / sxx)
    intercept = float(lr.mean() - slope * lm.mean())
    resid = lr - intercept - slope * lm
    dof = lm.size - 2
    err = math.sqrt(float((resid**2).sum()) / dof / sxx) if dof > 0 else math.nan
    return {"slope": slope, "err": err, "intercept": intercept, "n": int(lm.size)}


def slopes(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``S_W1`` and ``S_W2`` (eq. (11)) from :func:`rd_point` results of one phase point.

    ``S_Wi``/``S_Wi_err``: pooled least squares of ``log RD(W^[i])`` on ``log m`` over all
    (width, seed) runs (:func:`fit_slope`; the standard error counts seed-to-seed scatter
    as noise).  With two or more seeds that each have two or more widths, also the
    per-seed slopes' mean, standard deviation and standard error of the mean
    (``S_Wi_seed_mean``, ``S_Wi_seed_std``, ``S_Wi_seed_sem``).  Runs that diverged or did
    not converge are left out and counted in ``excluded``."""
    keys = ("gamma_2", "gamma_3", "m", "seed", "converged", "rd_w1", "rd_w2")
    if (isinstance(results, (str, bytes, Mapping)) or not isinstance(results, Sequence)
            or not results):  # fmt: skip
        raise ValueError(f"results must be a non-empty sequence of rd_point results, got "
                         f"{nb.describe(results)}")  # fmt: skip
    for i, r in enumerate(results):
        if not isinstance(r, Mapping) or any(k not in r for k in keys):
            raise TypeError(f"results[{i}] must be an rd_point result (a dict with {keys}), "
                            f"got {nb.describe(r)}")  # fmt: skip
    points = {(r["gamma_2"], r["gamma_3"]) for r in results}
    if len(points) != 1:
        raise ValueError(f"results must come from one phase point, got {sorted(points)}")
    good = [r for r in results if r["converged"] and r["rd_w1"] and r["rd_w2"]]
    widths = sorted({r["m"] for r in good})
    seeds = sorted({r["seed"] for r in good})
    out: dict[str, Any] = {
        "gamma_2": results[0]["gamma_2"],
        "gamma_3": results[0]["gamma_3"],
        "widths": widths,
        "seeds": seeds,
        "n_runs": len(good),
        "excluded": len(results) - len(good),
    }
    for key, name in (("rd_w1", "S_W1"), ("rd_w2", "S_W2")):
        fit = fit_slope([r["m"] for r in good], [r[key] for r in good])
        out[name], out[f"{name}_err"] = fit["slope"], fit["err"]
        per_seed = []
        for sd in seeds:
            rs = [r for r in good if r["seed"] == sd]
            if len({r["m"] for r in rs}) >= 2:
                per_seed.append(fit_slope([r["m"] for r in rs], [r[key] for r in rs])["slope"])
        if len(per_seed) >= 2:
            std = float(np.std(per_seed, ddof=1))
            out[f"{name}_seed_mean"] = float(np.mean(per_seed))
            out[f"{name}_seed_std"] = std
            out[f"{name}_seed_sem"] = std / math.sqrt(len(per_seed))
    return out


# ---------------------------------------------------------------------------
# a reference number for the slopes
# ---------------------------------------------------------------------------
def linear_estimate(gamma_2: Any, gamma_3: Any) -> tuple[Fraction, Fraction]:
    """Our estimate (not the paper's) of ``(S_W1, S_W2)`` for a network that stays linear:
    ``(gamma_3 - 2 gamma_2 - 3/2, gamma_3 - 2)``.

    With ``alpha = 1``, ``beta_2 = beta_3 = m^-p``, ``beta_1 = m^-q``
    (:func:`scale_exponents`), linearised training moves the parameters by ``dtheta_W =
    J_W^T K^-1 df`` with ``||J_W||^2 ~ K_W``: ``K_a ~ K_W2 ~ m^(2-2p-2q)``, ``K_W1 ~
    m^(2-4p)`` (so ``K ~ K_a`` for ``gamma_2 >= 0``), while ``||W1(0)|| ~ m^(1/2-q)`` and
    ``||W2(0)|| ~ m^(1-p)``; hence ``RD(W1) ~ m^(3q-3/2)``, ``RD(W2) ~ m^(2p+q-2)``.
    Self-consistent only where negative.  It gives (-0.4, -0.9) at Table 2 No. 1, where
    the paper prints (-0.41, -0.93)."""
    g2, g3 = _fraction("gamma_2", gamma_2), _fraction("gamma_3", gamma_3)
    return g3 - 2 * g2 - Fraction(3, 2), g3 - 2


def rd_sweep_point(point: dict[str, Any]) -> dict[str, Any]:
    """:func:`rd_point` on one JSON point ``{"gamma_2": "1/2", "gamma_3": "5/2", "m": 256,
    "seed": 0, **settings}`` (exponents as strings of fractions): the form
    :func:`numerics.sweeps.run_sweep` runs (in process or on dask workers) and caches."""
    if not isinstance(point, Mapping):
        raise TypeError(f"point must be a dict with gamma_2, gamma_3, m, seed and settings, got "
                        f"{nb.describe(point)}")  # fmt: skip
    p = dict(point)
    try:
        g2, g3, m, seed, rest = _run_args(0, p)
        return rd_point(_json_fraction("gamma_2", g2), _json_fraction("gamma_3", g3), m, seed,
                        **rest)  # fmt: skip
    except (TypeError, ValueError) as exc:  # name the argument of this entry point
        raise type(exc)(f"point: {exc}") from exc


def _json_fraction(name: str, value: Any) -> Fraction:
    """A JSON exponent, ``Fraction(value)``: a string of a fraction (``"5/2"``) or a number
    (a float exactly, as ``Fraction`` reads it); a ``ValueError`` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Fraction,
                                                         np.integer, np.floating)):  # fmt: skip
        raise TypeError(f"{name} must be a fraction such as '5/2' or a number, got "
                        f"{nb.describe(value)}")  # fmt: skip
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{name} must be a finite fraction such as '5/2', got "
                         f"{nb.describe(value)}") from None  # fmt: skip
