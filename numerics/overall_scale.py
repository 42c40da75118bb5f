"""Seed 003's motivating experiment, the overall-scale axis, measured in torch.

The poster (seed ``003_cfd8c5fad4b6665d.txt``, "Motivating experiment"): "The best
generalization occurs at small overall scale and large relative scale."  The relative scale
is Part III's ``alpha`` (the first layer's initialisation divided by alpha,
:mod:`numerics.alpha_scaling`); the overall scale ``tau`` multiplies every layer's
initialisation.  At a small ``tau`` the network starts near the origin and must grow its
weights to fit (rich: its features move); at a large ``tau`` a small relative move of the
weights fits (lazy: the kernel of the start).

Experiment (numbers only; the decision is the claim ``kunin.overall_scale``):

* the task, the student and the measurements of :func:`numerics.alpha_scaling.alpha_curve`
  (a single-index ReLU teacher, ``f(x) = sum_k a_k relu(w_k . x)`` in standard
  parameterisation, :data:`numerics.alpha_scaling.METRICS`);
* initialisation: Part III's draw at relative scale ``alpha``
  (:func:`numerics.alpha_scaling.initial_parameters`: symmetric, ``f(x; theta_0) = 0``, the
  same draws for every ``tau``), both layers times ``tau`` (in float64, then rounded once to
  ``dtype``);
* training: ``steps`` steps of full-batch GD at ``lr = lr_factor n / max(lambda_max(K_0),
  lambda_max(K_ref))``, ``K_0`` the empirical NTK Gram matrix of the start (largest over the
  seeds) and ``K_ref`` that of the same draws at ``tau = 1``.  Above ``tau = 1`` the step is
  the initial kernel's (as in ``alpha_curve``); below it the kernel starts ``tau^2`` times
  smaller but grows to the size a fitted net needs, so the step is capped at the standard
  net's: a step ``1/tau^2`` larger would be unstable once the weights have grown.  The
  final ``lr lambda_max(K_T)/n`` is recorded (``edge``; GD is stable below 2).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping, Sequence  # noqa: F401 (Mapping: see below)
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.alpha_scaling import (
    AlphaCurve,
    AlphaSetup,
    _batched_ends,
    _check_dtype,
    _curve_fields,
    _measured,
    _task,
    initial_parameters,
)
from numerics.measures import ntk
from numerics.torch_flow import resolve_device, threads
from solvable._core import numbers as nb

__all__ = ["SCALES", "SCALES_SMALL", "ScaleCurve", "scale_curve", "scaled_parameters"]

SCALES = tuple(2.0**k for k in range(-3, 4))
"""The full grid of overall scales, 1/8 .. 8 (factor 2)."""
SCALES_SMALL = (0.125, 1.0, 8.0)
"""The quick grid (the claim's default run): both ends and the standard scale."""


def _torch() -> Any:
    import torch

    return torch


def _check_scales(scales: Any) -> tuple[float, ...]:
    """A non-empty, strictly increasing sequence of finite numbers > 0."""
    if isinstance(scales, (str, bytes)) or not isinstance(scales, (Sequence, np.ndarray)):
        raise TypeError(f"scales must be a sequence of numbers > 0, got "
                        f"{type(scales).__name__} {nb.describe(scales)}")  # fmt: skip
    out = tuple(nb.to_float(nb.check_number(f"scales[{i}]", s, positive=True), f"scales[{i}]")
                for i, s in enumerate(scales))  # fmt: skip
    if not out:
        raise ValueError("scales must not be empty")
    if any(b <= a for a, b in itertools.pairwise(out)):
        raise ValueError(f"scales must be strictly increasing, got {nb.describe(scales)}")
    return out


def scaled_parameters(
    scale: Any,
    alpha: Any,
    width: int,
    d: int,
    seeds: int,
    *,
    seed: int = 0,
    device: Any = None,
    dtype: Any = None,
) -> dict[str, Any]:
    """Part III's initialisation at relative scale ``alpha``
    (:func:`numerics.alpha_scaling.initial_parameters`, float64 on the CPU) with both layers
    times the overall scale ``scale > 0``, then moved to ``device`` and ``dtype`` (``None``:
    float64).  A ``scale`` that overflows a weight, or sends a non-zero weight below the
    square root of the smallest normal number of ``dtype`` (its square, in the kernel and
    the relative changes, would underflow), is a ``ValueError``; so is an ``alpha`` that does
    this at ``scale = 1``."""
    torch = _torch()
    tau = nb.to_float(nb.check_number("scale", scale, positive=True), "scale")
    base = initial_parameters(alpha, width, d, seeds, seed=seed, device="cpu")
    dt = torch.float64 if dtype is None else dtype
    if dt not in (torch.float32, torch.float64):
        raise ValueError(f"dtype must be torch.float32 or torch.float64, got {dtype!r}")
    dev = resolve_device(device)
    # the kernel and the relative changes square the weights: a non-zero weight below the
    # square root of the smallest normal number has a square that underflows (digits lost)
    tiny = math.sqrt(torch.finfo(dt).tiny)
    for v in base.values():
        if bool(((v != 0) & (v.abs() < tiny)).any()):
            raise ValueError(f"alpha = {alpha!r} is too large: W / alpha falls below "
                             f"{tiny:.3g}, whose square underflows {dt}")  # fmt: skip
    out = {}
    for k, v in base.items():
        w = (v * tau).to(dtype=dt)
        if not bool(torch.isfinite(w).all()):
            raise ValueError(f"scale = {tau!r} is too large: the weights overflow {dt} "
                             f"(scale must be > 0 and keep every weight finite)")  # fmt: skip
        if bool(((v != 0) & (w.abs() < tiny)).any()):
            raise ValueError(f"scale = {tau!r} is too small: weights fall below {tiny:.3g}, "
                             f"whose square underflows {dt}; use a larger scale")  # fmt: skip
        out[k] = w.to(device=dev)
    return out


@dataclass(frozen=True)
# ``Mapping`` is imported for the dataclass machinery: ScaleCurve's generated ``__init__``
# carries AlphaCurve's field annotations (strings naming ``Mapping``), which resolve in this
# module's namespace (tests/test_source_checks.py evaluates every annotation)
class ScaleCurve(AlphaCurve):
    """One measured curve along the overall scale: the record of
    :class:`numerics.alpha_scaling.AlphaCurve` whose grid (``alphas``, also :attr:`scales`)
    holds the overall scales ``tau``; ``alpha`` is the relative scale they share."""

    alpha: float = 1.0

    @property
    def scales(self) -> tuple[float, ...]:
        """The overall scales of the grid (the ``alphas`` field of the parent record)."""
        return self.alphas

    def table(self, metrics: Sequence[str] | None = None) -> str:
        """A markdown table: one row per overall scale, ``mean ± stderr`` per metric."""
        return super().table(metrics).replace("| alpha |", "| scale |", 1)


def scale_curve(
    scales: Sequence[Any] = SCALES_SMALL,
    *,
    alpha: Any = 1.0,
    seeds: int = 4,
    width: int = 64,
    d: int = 10,
    n_train: int = 200,
    n_test: int = 1000,
    steps: int = 2000,
    lr_factor: float = 0.5,
    data_seed: int = 0,
    init_seed: int = 0,
    device: Any = None,
    dtype: Any = None,
) -> ScaleCurve:
    """Train ``seeds`` students per overall scale (one batch, each at its own step) on the
    teacher task and measure :data:`numerics.alpha_scaling.METRICS` (module docstring).

    ``scales``: strictly increasing numbers > 0; ``alpha`` > 0 the relative scale;
    ``seeds >= 2``; the other arguments as :func:`numerics.alpha_scaling.alpha_curve`."""
    torch = _torch()
    setup = AlphaSetup(d, n_train, n_test, width, steps, lr_factor, data_seed, init_seed)
    scales = _check_scales(scales)
    alpha = nb.to_float(nb.check_number("alpha", alpha, positive=True), "alpha")
    seeds = nb.check_int("seeds", seeds, low=2)
    dev = resolve_device(device)
    dt = _check_dtype(dtype)
    X, y_test, model, Xt, variances = _task(setup, dev, dt)
    kw = {"seed": init_seed, "device": dev, "dtype": dt}
    start = time.perf_counter()
    with threads(1):
        ref = ntk(model, scaled_parameters(1.0, alpha, width, d, seeds, **kw), X)
        if not bool(torch.isfinite(ref).all()):
            raise ValueError(f"alpha = {alpha!r} is too small: the kernel at scale 1 "
                             f"overflows {dt}")  # fmt: skip
        lam_ref = float(torch.linalg.eigvalsh(ref)[..., -1].max())
        starts, kernels, lrs = [], [], []
        for i, tau in enumerate(scales):
            try:
                p0 = scaled_parameters(tau, alpha, width, d, seeds, **kw)
            except ValueError as exc:  # the start's refusal, named by the grid's entry
                raise ValueError(f"scales[{i}] = {tau!r}: {exc}") from None
            K0 = ntk(model, p0, X)
            if not bool(torch.isfinite(K0).all()):
                raise ValueError(f"scales[{i}] = {tau!r} is too large at alpha = {alpha!r}: "
                                 f"the initial kernel overflows {dt}")  # fmt: skip
            lam0 = torch.linalg.eigvalsh(K0)[..., -1]
            lr = setup.lr_factor * n_train / max(float(lam0.max()), lam_ref)
            if not 0 < lr < math.inf:
                raise ValueError(f"scales[{i}] = {tau!r} with lr_factor = "
                                 f"{setup.lr_factor!r} gives the step lr = {lr!r} "
                                 f"(lambda_max(K_0) = {float(lam0.max())!r}): a float > 0 "
                                 f"is needed")  # fmt: skip
            starts.append(p0)
            kernels.append((K0, lam0))
            lrs.append(lr)
        ends = _batched_ends(model, starts, lrs, seeds, steps)
        values = _measured(model, X, Xt, y_test, variances, n_train,
                           zip(starts, ends, kernels, lrs, strict=True))  # fmt: skip
    return ScaleCurve(alphas=scales, seeds=seeds, setup=setup, alpha=alpha,
                      **_curve_fields(values, lrs, dev, dt, start))  # fmt: skip
