"""Seed 001 Section 3.1 (Figure 3) on a synthetic teacher task: a two-layer ReLU network
of width ``d = kappa`` trained with the output scales and learning rates of the six models
of Appendix B.3 (NTK, mean field, Kaiming+-, Xavier+-), each in its Table 1 cell
(:func:`figure_3_teacher`), on a seeded single-index teacher (:func:`teacher_data`).

Source: seed ``001_070589003213e0cf.txt`` (Xu & Ziyin), Section 3.1: "We choose scalings
according to Corollary 2 and 3, to turn each model into the feature learning or the kernel
phase ... c_gamma and c_eta are chosen according to Table 1"; Figure 3 (a two-layer ReLU
net on CIFAR-10; right: "relative distance from the initialization"); Appendix B.3 (the six
models).  This is a synthetic stand-in for CIFAR-10 (``d0 = 3072``): Gaussian inputs in
``d0`` dimensions, normalised to the unit sphere as the paper normalises its images, and a
ReLU teacher of one direction.  The exponents of every model are the package's
(:data:`solvable.models.phases.appendix_b3.CELLS` -> :func:`solvable.models.phases.table_1`),
never retyped: ``sigma_w^2 = kappa^c_w``, ``sigma_u^2 = kappa^c_u``, ``gamma =
kappa^c_gamma``, per-layer rates ``lr * kappa^c_eta_w`` and ``lr * kappa^c_eta_u``
(:class:`numerics.models.WideTwoLayer` with ``scale = gamma``); at ``kappa = 1`` the two
models of each pair of Appendix B.3 coincide (the paper makes them coincide at ``d = 100``).
Measured per ``(model, kappa)`` and initialisation: ``RD(W) = |W_T - W_0|_F / |W_0|_F``
after ``steps`` GD steps, the initial and final training risks and the test risk.  Plain
numbers; the verdict is :mod:`solvable.verification.figure_3_teacher`.

Also Section 2.3's Figure 2 (ResNet-18 on CIFAR-10 there) on the same teacher:
:func:`figure_2_teacher` trains one width from the Kaiming initialisation multiplied by
``sigma`` and measures the final norm of all weights and the test risk (verdict
:mod:`solvable.verification.figure_2_teacher`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from numerics.measures import relative_distance
from numerics.models import WideTwoLayer
from numerics.node_scaling_experiment.checks import (
    MAX_REPEATS,
    MAX_STEPS,
    _int,
    _ints,
    _real,
    _reals,
)
from numerics.node_scaling_experiment.running import _say, _scoped_threads
from numerics.torch_flow import gradient_descent, initialise
from solvable._core import numbers as nb
from solvable.models import phases
from solvable.models.phases import appendix_b3

__all__ = ["KAPPAS", "MAX_D0", "MAX_SAMPLES", "MODELS", "SIGMAS", "figure_2_teacher",
           "figure_3_teacher", "model_scaling", "teacher_data"]  # fmt: skip

MODELS: tuple[str, ...] = tuple(appendix_b3.CELLS)
"""The six models of Appendix B.3, in its order (NTK, mean field, Kaiming-, Kaiming+,
Xavier+, Xavier-)."""
KAPPAS: tuple[int, ...] = (16, 64, 256)
"""The widths ``d = kappa`` (``c_d = 1``) of the default run: four-fold steps over a
16-fold range."""
MAX_D0, MAX_SAMPLES = 10_000, 100_000
"""Caps on the input dimension and on ``n_train``, ``n_test`` (work and memory)."""


def teacher_data(*, d0: int = 10, n_train: int = 100, n_test: int = 500,
                 seed: int = 0) -> dict[str, Any]:  # fmt: skip
    """A seeded synthetic teacher: inputs ``x`` uniform on the unit sphere of ``R^d0`` (a
    normalised Gaussian, as the paper normalises its inputs, Appendix B.3) and real targets
    ``y = relu(sqrt(d0) v^T x) - 1/sqrt(2 pi)`` for a unit direction ``v`` drawn from the same
    seed (``sqrt(d0) v^T x`` is about N(0, 1), so ``y`` has mean about 0 and variance about
    ``1/2 - 1/(2 pi)``).  ``n_train`` training and ``n_test`` test points, independent.

    Returns ``{"X_train", "y_train", "X_test", "y_test", "v"}`` (float64 arrays).
    ``ValueError`` naming the argument for ``d0`` outside ``[1, MAX_D0]``, sizes outside
    ``[1, MAX_SAMPLES]`` or a seed outside ``[0, 2^32 - 1]``; ``TypeError`` for a non-int."""
    d0 = nb.check_int("d0", d0, 1, MAX_D0)
    n_train = nb.check_int("n_train", n_train, 1, MAX_SAMPLES)
    n_test = nb.check_int("n_test", n_test, 1, MAX_SAMPLES)
    seed = nb.check_int("seed", seed, 0, 2**32 - 1)
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(d0)
    v /= np.linalg.norm(v)
    out: dict[str, Any] = {"v": v}
    for name, n in (("train", n_train), ("test", n_test)):
        Z = rng.standard_normal((n, d0))
        norms = np.linalg.norm(Z, axis=1, keepdims=True)
        X = Z / np.where(norms > 0, norms, 1.0)  # a zero draw has probability 0
        out[f"X_{name}"] = X
        out[f"y_{name}"] = np.maximum(math.sqrt(d0) * X @ v, 0.0) - 1 / math.sqrt(2 * math.pi)
    return out


def model_scaling(model: str) -> Any:
    """The :class:`solvable.models.phases.Scaling` of an Appendix B.3 model: its Table 1
    cell (:data:`solvable.models.phases.appendix_b3.CELLS`) read from
    :func:`solvable.models.phases.table_1`.  ``ValueError`` naming ``model`` for another
    name."""
    if not isinstance(model, str) or model not in appendix_b3.CELLS:
        raise ValueError(f"model must be one of {list(MODELS)}, got {nb.describe(model)}")
    cells = {(r["column"], r["block"]): r["scaling"] for r in phases.table_1()}
    return cells[appendix_b3.CELLS[model]]


def _models(models: Any) -> tuple[str, ...]:
    if isinstance(models, (str, bytes)) or not isinstance(models, Sequence) or not models:
        raise TypeError(f"models must be a non-empty sequence of names from {list(MODELS)}, "
                        f"got {nb.describe(models)}")  # fmt: skip
    for k, m in enumerate(models):
        if not isinstance(m, str) or m not in appendix_b3.CELLS:
            raise ValueError(f"models[{k}] must be one of {list(MODELS)}, got {nb.describe(m)}")
    if len(set(models)) != len(models):
        raise ValueError(f"models must not repeat a model, got {list(models)}")
    return tuple(models)


def _checked(steps: Any, lr: Any, repeats: Any, seed: Any, data_seed: Any, progress: Any,
             d0: Any, n_train: Any,
             n_test: Any) -> tuple[int, float, int, int, dict[str, Any]]:  # fmt: skip
    """The arguments both teacher runs share, checked in one order (the first bad one is the
    error), and the teacher's data: ``(steps, lr, repeats, seed, data)``."""
    steps = _int("steps", steps, 1, MAX_STEPS)
    lr = _real("lr", lr, 0.0, math.inf, open_low=True, open_high=True)
    repeats = _int("repeats", repeats, 1, MAX_REPEATS)
    seed = _int("seed", seed, 0, 2**32 - 1)
    _int("data_seed", data_seed, 0, 2**32 - 1)
    nb.check_flag("progress", progress)
    data = teacher_data(d0=d0, n_train=n_train, n_test=n_test, seed=data_seed)
    return steps, lr, repeats, seed, data


def _fit(model: Any, p0: dict[str, Any], rate: float, steps: int, device: Any, progress: bool,
         *, failure: str, label: str) -> Any:  # fmt: skip
    """GD (``steps`` steps at ``rate``) of ``model`` from ``p0``, keeping the parameters and
    the ``risk`` (its loss) at the start and the end.  GD that leaves the finite numbers is a
    ``ValueError`` that opens with ``failure``; ``progress`` reports the time under ``label``."""
    start = time.perf_counter()
    try:
        res = gradient_descent(model, p0, rate, [0, steps], keep_params=True,
                               measures={"risk": lambda p, rows: model.loss(p)},
                               device=device)  # fmt: skip
    except ArithmeticError as exc:
        raise ValueError(f"{failure}: {exc}") from exc
    _say(progress, f"{label}: {steps} steps in {time.perf_counter() - start:.1f} s")
    return res


def _check_ended_finite(runs: list[dict[str, Any]], keys: tuple[str, ...], lr: float,
                        where: Callable[[dict[str, Any]], str]) -> None:  # fmt: skip
    """A ``ValueError`` naming ``lr`` and the run (``where``) for the first run with a value
    of ``keys`` outside the finite numbers."""
    for r in runs:
        if not all(np.isfinite(v) for key in keys for v in r[key]):
            raise ValueError(f"lr = {lr!r}: {where(r)} ended outside the finite numbers "
                             f"(diverged; lower lr)")  # fmt: skip


@_scoped_threads
def figure_3_teacher(
    *,
    models: Sequence[str] = MODELS,
    kappas: Sequence[int] = KAPPAS,
    d0: int = 10,
    n_train: int = 100,
    n_test: int = 500,
    steps: int = 100,
    lr: float = 2.0,
    repeats: int = 6,
    data_seed: int = 0,
    seed: int = 0,
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """GD (``steps`` steps, base rate ``lr``) of ``f(x) = gamma sum_j u_j relu(w_j^T x)`` of
    width ``d = kappa`` on :func:`teacher_data` (``d0``, ``n_train``, ``n_test``,
    ``data_seed``) for every model of ``models`` (Appendix B.3) and ``kappa`` of ``kappas``:
    the exponents of the model's Table 1 cell (:func:`model_scaling`) give ``sigma_w^2 =
    kappa^c_w``, ``sigma_u^2 = kappa^c_u``, ``gamma = kappa^c_gamma`` and the layers' rates
    ``lr kappa^c_eta_w`` (first) and ``lr kappa^c_eta_u`` (second); ``repeats`` i.i.d.
    Gaussian initialisations each (seed ``seed``, the same normal draws for every model, so
    each pair of Appendix B.3 starts equal at ``kappa = 1``).

    The horizon: Table 1's rates make ``t_c = Theta(1)`` in every stable cell (eq. (27)),
    so a fixed number of steps at a fixed base rate is the same training time at every
    ``kappa``; the default 100 steps at 2.0 (time 200) bring the default teacher's mean
    training risk to 0.1-6.3% of its initial value in every cell (measured; the kernel cells
    fit slowest, at most 13% in one initialisation), and the
    rate is a quarter of the largest measured stable one (8 trains every cell at kappa 16
    and 256; 32 diverges).

    Returns ``{"models", "kappas", "steps", "lr", "d0", "n_train", "n_test", "data_seed",
    "seed", "runs"}``, one run per ``(model, kappa)`` with ``width``, ``gamma``,
    ``sigma_w``, ``sigma_u``, ``eta_w``, ``eta_u``, the cell's ``exponents`` (strings) and,
    per repeat, ``rd_w``, ``risk_0``, ``risk_end`` (``1/(2n) sum_i r_i^2``) and ``test_risk``
    (the same on the test set).  Work caps: ``steps`` at most
    :data:`~numerics.node_scaling_experiment.MAX_STEPS`, ``repeats`` at most
    :data:`~numerics.node_scaling_experiment.MAX_REPEATS`, ``kappas`` in ``[1, 65536]``;
    ``ValueError`` naming ``lr`` when GD leaves the finite numbers."""
    import torch

    models = _models(models)
    kappas = _ints("kappas", kappas, 1, 2**16)
    if len(set(kappas)) != len(kappas):
        raise ValueError(f"kappas must be distinct, got {list(kappas)}")
    steps, lr, repeats, seed, data = _checked(steps, lr, repeats, seed, data_seed, progress,
                                              d0, n_train, n_test)  # fmt: skip
    X, y = data["X_train"], data["y_train"]
    runs = []
    for name in models:
        s = model_scaling(name)
        ex = {k: float(getattr(s, k)) for k in phases.EXPONENT_NAMES}
        for kappa in kappas:
            width = round(kappa ** ex["c_d"])
            gamma = float(kappa) ** ex["c_gamma"]
            sigma_w, sigma_u = math.sqrt(kappa ** ex["c_w"]), math.sqrt(kappa ** ex["c_u"])
            eta_w, eta_u = float(kappa) ** ex["c_eta_w"], float(kappa) ** ex["c_eta_u"]
            model = WideTwoLayer(X, y, activation="relu", eta_w=eta_w, eta_a=eta_u, scale=gamma)
            scales = {"W": sigma_w, "a": sigma_u}
            p0 = initialise({"W": (width, d0), "a": (width,)}, repeats, scale=scales,
                            seed=seed, device=device)  # fmt: skip
            res = _fit(model, p0, lr, steps, device, progress,
                       failure=f"GD at lr = {lr!r} left the finite numbers for {name} at "
                               f"kappa = {kappa} (diverged; lower lr)",
                       label=f"figure 3 teacher {name} kappa={kappa}")  # fmt: skip
            W0, W1 = res.params["W"][0], res.params["W"][-1]
            with torch.no_grad():
                rd = relative_distance(W1, W0)  # |W_T - W_0|_F / |W_0|_F per network
                Xte = torch.as_tensor(data["X_test"], dtype=W1.dtype, device=W1.device)
                yte = torch.as_tensor(data["y_test"], dtype=W1.dtype, device=W1.device)
                out = model.output({"W": W1, "a": res.params["a"][-1]}, Xte)
                test_risk = ((out - yte) ** 2).mean(-1) / 2
            risk = res.measures["risk"]
            runs.append({"model": name, "kappa": kappa, "width": width, "gamma": gamma,
                         "sigma_w": sigma_w, "sigma_u": sigma_u, "eta_w": eta_w,
                         "eta_u": eta_u, "exponents": {k: str(getattr(s, k))
                                                       for k in phases.EXPONENT_NAMES},
                         "rd_w": rd.cpu().tolist(), "risk_0": risk[0].cpu().tolist(),
                         "risk_end": risk[-1].cpu().tolist(),
                         "test_risk": test_risk.cpu().tolist()})  # fmt: skip
    _check_ended_finite(runs, ("rd_w", "risk_end", "test_risk"), lr,
                        lambda r: f"a run of {r['model']} at kappa = {r['kappa']}")  # fmt: skip
    return {"models": list(models), "kappas": list(kappas), "steps": steps, "lr": lr,
            "d0": data["X_train"].shape[1], "n_train": n_train, "n_test": n_test,
            "data_seed": data_seed, "seed": seed, "runs": runs}  # fmt: skip


SIGMAS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)
"""The multipliers ``sigma`` of the Kaiming initialisation (Figure 2: 0.5 to 4, say)."""


@_scoped_threads
def figure_2_teacher(
    *,
    sigmas: Sequence[float] = SIGMAS,
    width: int = 256,
    d0: int = 10,
    n_train: int = 100,
    n_test: int = 500,
    steps: int = 100,
    lr: float = 2.0,
    repeats: int = 6,
    data_seed: int = 0,
    seed: int = 0,
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Seed 001 Section 2.3, Figure 2 (the initialisation scale) on :func:`teacher_data`:
    ``f(x) = sum_j u_j relu(w_j^T x)`` of width ``width`` from the Kaiming initialisation
    multiplied by ``sigma`` (Appendix B.2: "we scale each layer by sigma"): ``w_j ~ N(0,
    sigma^2 2/d0)`` (He et al. 2015's ReLU layer), ``u_j ~ N(0, sigma^2 / width)`` (its
    linear read-out), for every ``sigma`` of ``sigmas``; ``repeats`` initialisations each
    (seed ``seed``: the same normal draws, scaled, at every ``sigma``).

    GD for ``steps`` steps at the rate ``lr / k(sigma)``, where ``k(sigma) = sigma^2 (width/d0
    + 1/2)`` is the mean diagonal of the initial NTK on unit inputs (``E relu(w^T x)^2 =
    sigma^2/d0`` per unit, ``E u_j^2 relu'^2 = sigma^2/(2 width)``): the NTK grows as
    ``sigma^2`` (the net is 2-homogeneous), so one fixed rate would diverge at large
    ``sigma`` or stall at small; this gives every ``sigma`` the same training time in units of
    its kernel.  (The paper's ResNet-18 keeps one rate; that is not reproduced.)

    Returns ``{"sigmas", "width", "steps", "lr", "d0", "n_train", "n_test", "data_seed",
    "seed", "runs"}``, one run per ``sigma`` with its ``rate`` and, per repeat,
    ``norm_0`` and ``norm_end`` (``sqrt(|W|_F^2 + |u|^2)``, "the norm of all weights"),
    ``risk_0``, ``risk_end`` and ``test_risk`` (``1/(2n) sum_i r_i^2``).  ``ValueError``
    naming the argument out of range, and naming ``lr`` when GD leaves the finite numbers."""
    import torch

    sigmas = _reals("sigmas", sigmas, 1e-3, 1e3)  # a multiplier of the Kaiming scale
    if len(set(sigmas)) != len(sigmas):
        raise ValueError(f"sigmas must be distinct, got {list(sigmas)}")
    width = _int("width", width, 1, 2**20)
    steps, lr, repeats, seed, data = _checked(steps, lr, repeats, seed, data_seed, progress,
                                              d0, n_train, n_test)  # fmt: skip
    X, y = data["X_train"], data["y_train"]
    model = WideTwoLayer(X, y, activation="relu", scale=1.0)
    test = WideTwoLayer(data["X_test"], data["y_test"], activation="relu", scale=1.0)
    runs = []
    for k, sigma in enumerate(sigmas):
        scales = {"W": sigma * math.sqrt(2 / d0), "a": sigma / math.sqrt(width)}
        p0 = initialise({"W": (width, d0), "a": (width,)}, repeats, scale=scales, seed=seed,
                        device=device)  # fmt: skip
        rate = lr / (sigma**2 * (width / d0 + 0.5))
        res = _fit(model, p0, rate, steps, device, progress,
                   failure=f"GD at lr = {lr!r} (rate {rate:.3g}) left the finite numbers at "
                           f"sigmas[{k}] = {sigma} (diverged; lower lr)",
                   label=f"figure 2 teacher sigma={sigma:g}")  # fmt: skip
        W, a = res.params["W"], res.params["a"]
        with torch.no_grad():
            norms = [torch.sqrt((W[i] ** 2).sum((1, 2)) + (a[i] ** 2).sum(1)) for i in (0, -1)]
            test_risk = test.loss({"W": W[-1], "a": a[-1]})
        risk = res.measures["risk"]
        runs.append({"sigma": sigma, "rate": rate, "norm_0": norms[0].cpu().tolist(),
                     "norm_end": norms[1].cpu().tolist(), "risk_0": risk[0].cpu().tolist(),
                     "risk_end": risk[-1].cpu().tolist(),
                     "test_risk": test_risk.cpu().tolist()})  # fmt: skip
    _check_ended_finite(runs, ("norm_end", "risk_end", "test_risk"), lr,
                        lambda r: f"the run at sigmas[{sigmas.index(r['sigma'])}] = "
                                  f"{r['sigma']}")  # fmt: skip
    return {"sigmas": list(sigmas), "width": width, "steps": steps, "lr": lr,
            "d0": data["X_train"].shape[1], "n_train": n_train, "n_test": n_test,
            "data_seed": data_seed, "seed": seed, "runs": runs}  # fmt: skip
