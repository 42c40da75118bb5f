"""Seed 003 Part III: the first layer's initialisation divided by alpha, measured in torch.

The poster (seed ``003_cfd8c5fad4b6665d.txt``, Part III): "We regulate the first layer's
learning speed relative to the rest of the network by dividing its initialization by alpha
-- alpha = 1 represents standard parameterization, while alpha >> 1 and alpha << 1
corresponds to upstream and downstream initializations, respectively."  With ``W / alpha``
every neuron's ``delta_k = a_k^2 - |w_k|^2`` (Part II) grows with alpha: upstream
(``delta_k > 0``, small first layer) for alpha >> 1, downstream for alpha << 1.

Experiment (numbers only; the decision is the claim ``kunin.alpha_scaling`` of
:mod:`solvable.verification.confirmations.kunin`):

* Model: :class:`numerics.models.WideTwoLayer` with ReLU and ``scale = 1`` (standard
  parameterisation), ``f(x) = sum_k a_k relu(w_k . x)``, risk ``R = 1/(2n) sum_i (f(x_i) -
  y_i)^2``, both layers at rate 1.
* Task that needs a feature: a single-index ReLU teacher ``y = relu(u . x)``, ``|u| = 1``,
  ``x ~ N(0, I_d)`` (:func:`teacher_data`): one neuron ``(a, w) = (1, u)`` of the student
  fits it exactly, a fixed random-feature kernel only approximately.
* Initialisation (:func:`initial_parameters`): standard ``w_k ~ N(0, I/d)``, ``a_k ~ N(0,
  1/h)``, then ``W / alpha``; symmetric ("doubling"): neurons in pairs ``(w, a)``, ``(w, -a)``
  so that ``f(x; theta_0) = 0`` for every alpha (to rounding): the curves measure the regime,
  not the noise of the initial output.  The draws are the same for every alpha (common
  random numbers: the seeds are paired across alpha).
* Training: full-batch gradient descent (:func:`numerics.torch_flow.gradient_descent`) with,
  per alpha, the step ``lr = lr_factor * n / lambda_max(K_0)``, ``K_0`` the empirical NTK
  Gram matrix on the training inputs (:func:`numerics.measures.ntk`, largest over the
  seeds), for a fixed budget of ``steps`` steps: the same number of steps in units of the
  fastest initial time scale for every alpha (not a loss threshold: the lazy nets would need
  orders of magnitude more steps; their training error is reported).  GD on the linearised
  model is stable while ``lr lambda_max(K_t)/n < 2``; ``lr_factor = 1/2`` leaves room for the
  kernel to grow 4-fold during rich training, and the final ratio is recorded (``edge``).
* Measured per alpha and seed (:class:`AlphaCurve`): relative test MSE on a held-out set,
  relative train MSE, the kernel distance (Fort et al. 2020) between the initial and final
  NTK (:func:`kernel_distance`), the fraction of activation patterns that changed
  (:func:`activation_change`; the poster's "large change in activation patterns"), the
  relative change of each layer, the kernel's growth and ``edge``; seed means and standard
  errors.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from numerics.measures import ntk, relative_change
from numerics.models import WideTwoLayer
from numerics.torch_flow import gradient_descent, resolve_device, threads
from solvable._core import numbers as nb

__all__ = [
    "ALPHAS",
    "ALPHAS_SMALL",
    "METRICS",
    "AlphaCurve",
    "AlphaSetup",
    "activation_change",
    "alpha_curve",
    "initial_parameters",
    "kernel_distance",
    "teacher_data",
]

ALPHAS = tuple(2.0**k for k in range(-3, 5))
"""The full grid, 1/8 .. 16 (factor 2): three octaves downstream, four upstream."""
ALPHAS_SMALL = (0.125, 0.25, 1.0, 4.0, 16.0)
"""The quick grid (both ends, standard, one step in between) of the figure without ``full``
(the registered claim's default run uses its ends and 1: ``kunin.alpha_scaling``)."""

METRICS = {
    "test_error": "relative test MSE, mean (f - y)^2 / Var(y) on the held-out set",
    "train_error": "relative train MSE, mean (f - y)^2 / Var(y) on the training set",
    "kernel_distance": "1 - <K_0, K_T>_F / (|K_0|_F |K_T|_F), NTK on the training inputs",
    "activation_change": "fraction of (neuron, training input) activation patterns flipped",
    "rel_change_W": "|W_T - W_0|_F / |W_0|_F",
    "rel_change_a": "|a_T - a_0| / |a_0|",
    "kernel_growth": "lambda_max(K_T) / lambda_max(K_0)",
    "edge": "lr lambda_max(K_T) / n (GD on the linearised model is stable below 2)",
}
"""The measured quantities of :class:`AlphaCurve` (keys of ``values``) and their meaning."""


def _torch() -> Any:
    import torch

    return torch


def _check_dtype(dtype: Any) -> Any:
    torch = _torch()
    if dtype is None:
        return torch.float64
    if dtype not in (torch.float32, torch.float64):
        raise ValueError(f"dtype must be torch.float32 or torch.float64, got {dtype!r}")
    return dtype


MAX_STEPS = 10**9
"""The most GD steps :func:`alpha_curve` takes: at >= 10 us a step (the overhead of torch's
small operations) 10**9 steps are >= 3 hours, 500,000 times the paper's 2000; a larger
count is a typo, refused rather than run for ever."""

_MAX_SEED = 2**64 - 1  # torch.Generator.manual_seed takes a seed in [0, 2**64 - 1]


def _size(name: str, value: Any, low: int = 1) -> int:
    """An int in ``[low, 2**63 - 1]``: torch and numpy index with int64, so a larger size
    has no array (``ValueError`` naming ``name`` rather than torch's ``OverflowError``)."""
    value = nb.check_int(name, value, low)
    if value > nb.INT64_MAX:
        raise ValueError(f"{name} must be an int in [{low}, 2**63 - 1] (torch's sizes are "
                         f"int64), got {value}")  # fmt: skip
    return value


def _seed(name: str, value: Any) -> int:
    value = nb.check_int(name, value, 0)
    if value > _MAX_SEED:
        raise ValueError(f"{name} must be an int in [0, 2**64 - 1] (torch's generator), got "
                         f"{value}")  # fmt: skip
    return value


def _check_alpha(name: str, value: Any) -> float:
    return nb.to_float(nb.check_number(name, value, positive=True), name)


def _check_alphas(alphas: Any) -> tuple[float, ...]:
    """A non-empty, strictly increasing sequence of finite numbers > 0."""
    if isinstance(alphas, (str, bytes)) or not isinstance(alphas, (Sequence, np.ndarray)):
        raise TypeError(f"alphas must be a sequence of numbers > 0, got "
                        f"{type(alphas).__name__} {nb.describe(alphas)}")  # fmt: skip
    out = tuple(_check_alpha(f"alphas[{i}]", a) for i, a in enumerate(alphas))
    if not out:
        raise ValueError("alphas must not be empty")
    if any(b <= a for a, b in itertools.pairwise(out)):
        raise ValueError(f"alphas must be strictly increasing, got {nb.describe(alphas)}")
    return out


@dataclass(frozen=True)
class AlphaSetup:
    """The data and training budget of one curve: inputs in ``R^d``, ``n_train`` training and
    ``n_test`` held-out points, student width ``width`` (even: the symmetric initialisation
    pairs neurons), ``steps`` steps of GD at ``lr = lr_factor n / lambda_max(K_0)``
    (``0 < lr_factor < 2``), data from ``data_seed``, initialisations from ``init_seed``
    (``[0, 2**64 - 1]``, torch's generator).  Sizes are at most ``2**63 - 1`` (and so are
    the arrays ``(n_train, d)``, ``(n_test, d)``), ``steps`` at most :data:`MAX_STEPS`."""

    d: int = 10
    n_train: int = 200
    n_test: int = 1000
    width: int = 64
    steps: int = 2000
    lr_factor: float = 0.5
    data_seed: int = 0
    init_seed: int = 0

    def __post_init__(self) -> None:
        for name in ("d", "n_train", "n_test"):
            _size(name, getattr(self, name))
        steps = nb.check_int("steps", self.steps)
        if steps > MAX_STEPS:
            raise ValueError(f"steps must be an int in [1, {MAX_STEPS}] (MAX_STEPS), got {steps}")
        width = _size("width", self.width, low=2)
        if width % 2:
            raise ValueError(f"width must be an even integer >= 2 (neurons come in pairs), "
                             f"got {self.width!r}")  # fmt: skip
        nb.check_entries(n_train=self.n_train, d=self.d)
        nb.check_entries(n_test=self.n_test, d=self.d)
        nb.check_entries(width=width, d=self.d)
        nb.check_int("data_seed", self.data_seed, low=0)  # numpy's generator: any int >= 0
        _seed("init_seed", self.init_seed)
        lr = nb.to_float(nb.check_number("lr_factor", self.lr_factor, positive=True),
                         "lr_factor")  # fmt: skip
        if not lr < 2:
            raise ValueError(f"lr_factor must be in (0, 2) (GD on the initial kernel is "
                             f"stable below 2), got {self.lr_factor!r}")  # fmt: skip
        object.__setattr__(self, "lr_factor", lr)


def teacher_data(setup: AlphaSetup) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(X, y, X_test, y_test)``: ``x ~ N(0, I_d)``, ``y = relu(u . x)`` with a unit ``u``,
    all from ``setup.data_seed`` (numpy, float64)."""
    if not isinstance(setup, AlphaSetup):
        raise TypeError(f"setup must be an AlphaSetup, got {type(setup).__name__}")
    rng = np.random.default_rng(setup.data_seed)
    u = rng.standard_normal(setup.d)
    u /= np.linalg.norm(u)
    X = rng.standard_normal((setup.n_train, setup.d))
    X_test = rng.standard_normal((setup.n_test, setup.d))
    return X, np.maximum(X @ u, 0.0), X_test, np.maximum(X_test @ u, 0.0)


def initial_parameters(
    alpha: Any,
    width: int,
    d: int,
    seeds: int,
    *,
    seed: int = 0,
    device: Any = None,
    dtype: Any = None,
) -> dict[str, Any]:
    """Part III's initialisation of ``seeds`` networks (a batch): ``W`` (S, width, d), ``a``
    (S, width).  Standard parameterisation ``w_k ~ N(0, I/d)``, ``a_k ~ N(0, 1/width)``, then
    ``W / alpha``; neurons ``k`` and ``k + width/2`` are ``(w, a)`` and ``(w, -a)``, so
    ``f(x; theta_0) = 0`` (to rounding).  Drawn on the CPU in float64 from ``seed`` (the same
    numbers for every alpha, device and dtype), divided by alpha in float64, then moved
    (``dtype`` None: float64).  ``seed`` in ``[0, 2**64 - 1]``; at most ``2**63 - 1``
    weights; an ``alpha`` so small that ``W / alpha`` overflows float64 is a ``ValueError``."""
    torch = _torch()
    alpha = _check_alpha("alpha", alpha)
    width = _size("width", width, low=2)
    if width % 2:
        raise ValueError(f"width must be an even integer >= 2 (neurons come in pairs), "
                         f"got {width!r}")  # fmt: skip
    d, seeds = _size("d", d), _size("seeds", seeds)
    nb.check_entries(seeds=seeds, width=width, d=d)
    seed = _seed("seed", seed)
    dt = _check_dtype(dtype)
    dev = resolve_device(device)
    gen = torch.Generator().manual_seed(seed)
    half = width // 2
    W = torch.randn((seeds, half, d), generator=gen, dtype=torch.float64) / math.sqrt(d)
    a = torch.randn((seeds, half), generator=gen, dtype=torch.float64) / math.sqrt(width)
    W = torch.cat([W, W], 1) / alpha
    if not bool(torch.isfinite(W).all()):
        raise ValueError(f"alpha = {alpha!r} is too small: W / alpha overflows float64 (alpha "
                         f"must be > 0 and >= max |W| / 1.8e308)")  # fmt: skip
    a = torch.cat([a, -a], 1)
    return {"W": W.to(device=dev, dtype=dt), "a": a.to(device=dev, dtype=dt)}


def _as_tensor(name: str, value: Any) -> Any:
    """A real floating tensor as is, or an array of finite real numbers as a float64 tensor
    (``TypeError`` / ``ValueError`` naming ``name`` otherwise)."""
    torch = _torch()
    if isinstance(value, torch.Tensor):
        if not value.is_floating_point():
            raise TypeError(f"{name} must be a real floating tensor, got dtype {value.dtype}")
        return value
    try:
        return torch.as_tensor(nb.check_float_array(name, value))
    except TypeError as exc:
        raise TypeError(f"{name} must be a real array or tensor ({exc})") from None


def kernel_distance(K0: Any, K: Any) -> Any:
    """The kernel distance of Fort et al. (2020), ``1 - <K0, K>_F / (|K0|_F |K|_F)``, of
    two Gram matrices (n, n) or batches (B, n, n); returns a tensor () or (B,).

    Evaluated as ``|K0/|K0|_F - K/|K|_F|_F^2 / 2`` (the same number: expand the square),
    a sum of squares with no cancellation, so nearly equal kernels (the lazy regime) get a
    distance accurate relative to itself rather than to 1; each matrix is first divided by
    its largest entry, so any finite scale (1e-300 .. 1e300) works.  0 for equal kernels and for
    positive multiples, 1 for orthogonal ones, in [0, 1] for positive semi-definite ones."""
    torch = _torch()
    A, B = _as_tensor("K0", K0), _as_tensor("K", K)
    if A.ndim not in (2, 3) or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"K0 must have shape (n, n) or (B, n, n), got {tuple(A.shape)}")
    if B.shape != A.shape:
        raise ValueError(f"K must have the shape of K0 {tuple(A.shape)}, got {tuple(B.shape)}")
    for name, M in (("K0", A), ("K", B)):
        if not bool(torch.isfinite(M).all()):
            raise ValueError(f"{name} must be finite")
    units = []
    for name, M in (("K0", A), ("K", B)):
        big = M.abs().amax((-2, -1), keepdim=True)
        if bool((big == 0).any()):
            raise ValueError(f"{name} must not be the zero matrix (its direction is undefined)")
        M = M / big  # entries in [-1, 1]: the squares neither overflow nor underflow to 0
        units.append(M / torch.linalg.matrix_norm(M)[..., None, None])
    return ((units[0] - units[1]) ** 2).sum((-2, -1)) / 2


def activation_change(W0: Any, W: Any, X: Any) -> Any:
    """The fraction of pairs (neuron k, input x_i) whose ReLU activation ``w_k . x_i > 0``
    differs between ``W0`` and ``W`` (each (B, h, d), tensors or arrays), on the rows of
    ``X`` (n, d): (B,)."""
    torch = _torch()
    W0, W = _as_tensor("W0", W0), _as_tensor("W", W)
    if W0.ndim != 3:
        raise ValueError(f"W0 must have shape (B, h, d), got {tuple(W0.shape)}")
    if W.shape != W0.shape:
        raise ValueError(f"W must have the shape of W0 {tuple(W0.shape)}, got {tuple(W.shape)}")
    Xt = torch.as_tensor(nb.check_float_array("X", X), dtype=W.dtype, device=W.device)
    if Xt.ndim != 2 or Xt.shape[1] != W.shape[-1]:
        raise ValueError(f"X must have shape (n, {W.shape[-1]}), got {tuple(Xt.shape)}")
    before = Xt @ W0.transpose(1, 2) > 0
    after = Xt @ W.transpose(1, 2) > 0
    return (before != after).to(torch.float64).mean((1, 2))


@dataclass(frozen=True)
class AlphaCurve:
    """One measured curve: ``values[metric]`` (A, S) per alpha and seed (``metric`` in
    :data:`METRICS`), ``means`` and ``stderrs`` (A,) (standard error of the seed mean,
    ``std(ddof=1)/sqrt(S)``), the step ``lrs`` (A,) per alpha, the ``setup``, and where and
    at which precision it ran."""

    alphas: tuple[float, ...]
    seeds: int
    setup: AlphaSetup
    values: Mapping[str, np.ndarray]
    lrs: np.ndarray
    device: str
    dtype: str
    seconds: float
    means: Mapping[str, np.ndarray] = field(init=False)
    stderrs: Mapping[str, np.ndarray] = field(init=False)

    def __post_init__(self) -> None:
        means, errs = {}, {}
        for k, v in self.values.items():
            v.setflags(write=False)
            means[k] = v.mean(1)
            errs[k] = v.std(1, ddof=1) / math.sqrt(v.shape[1])
        object.__setattr__(self, "means", means)
        object.__setattr__(self, "stderrs", errs)

    def index(self, alpha: float) -> int:
        """The position of ``alpha`` on the grid (``ValueError`` if it is not there)."""
        for i, a in enumerate(self.alphas):
            if a == alpha:
                return i
        raise ValueError(f"alpha must be one of the grid {self.alphas}, got {alpha!r}")

    def difference(self, metric: str, alpha: float, other: float) -> tuple[float, float]:
        """Paired over seeds (the same draws at every alpha): the mean of ``metric(alpha) -
        metric(other)`` and its standard error."""
        if metric not in self.values:
            raise ValueError(f"metric must be one of {sorted(self.values)}, got {metric!r}")
        diff = self.values[metric][self.index(alpha)] - self.values[metric][self.index(other)]
        return float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(len(diff)))

    def table(self, metrics: Sequence[str] | None = None) -> str:
        """A markdown table: one row per alpha, ``mean ± stderr`` per metric."""
        metrics = list(self.values) if metrics is None else list(metrics)
        head = "| alpha | lr | " + " | ".join(metrics) + " |"
        rule = "|---|---|" + "---|" * len(metrics)
        rows = [head, rule]
        for i, a in enumerate(self.alphas):
            cells = [f"{self.means[m][i]:.3g} ± {self.stderrs[m][i]:.2g}" for m in metrics]
            rows.append(f"| {a:g} | {self.lrs[i]:.3g} | " + " | ".join(cells) + " |")
        return "\n".join(rows)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able numbers (lists), with the setup and the metrics' meanings."""
        return {
            "alphas": list(self.alphas),
            "seeds": self.seeds,
            "setup": asdict(self.setup),
            "device": self.device,
            "dtype": self.dtype,
            "seconds": self.seconds,
            "lrs": self.lrs.tolist(),
            "metrics": {k: METRICS[k] for k in self.values},
            "values": {k: v.tolist() for k, v in self.values.items()},
            "means": {k: v.tolist() for k, v in self.means.items()},
            "stderrs": {k: v.tolist() for k, v in self.stderrs.items()},
        }


def _end_measures(model: Any, X: Any, Xt: Any, y_test: np.ndarray, variances: tuple[float, float],
                  n_train: int, params: tuple[Any, Any], kernel0: tuple[Any, Any],
                  lr: float) -> dict[str, np.ndarray]:  # fmt: skip
    """The measures of one batch of trained networks (seeds along the batch axis), float64
    arrays: test and training error (each over its target variance, ``variances``), the
    kernel distance, the activation change, the relative change of ``W`` and ``a``, the
    kernel's growth and ``lr lambda_max(K_T) / n`` (the edge of stability).  ``params``:
    ``(p0, pT)``; ``kernel0``: ``(K_0, lambda_max(K_0))``."""
    import torch

    (p0, pT), (K0, lam0), (var_train, var_test) = params, kernel0, variances
    KT = ntk(model, pT, X)
    lamT = torch.linalg.eigvalsh(KT)[..., -1]
    with torch.no_grad():
        f_test = model.output(pT, Xt).to(torch.float64).cpu().numpy()
        train = 2 * model.loss(pT).to(torch.float64).cpu().numpy() / var_train
    measured = {
        "test_error": np.mean((f_test - y_test) ** 2, axis=1) / var_test,
        "train_error": train,
        "kernel_distance": kernel_distance(K0, KT),
        "activation_change": activation_change(p0["W"], pT["W"], X),
        "rel_change_W": relative_change(pT["W"], p0["W"]),
        "rel_change_a": relative_change(pT["a"], p0["a"]),
        "kernel_growth": lamT / lam0,
        "edge": lr * lamT / n_train,
    }
    out = {}
    for k, v in measured.items():
        if isinstance(v, torch.Tensor):
            v = v.detach().to(torch.float64).cpu().numpy()
        out[k] = np.asarray(v, dtype=float)
    return out


def _task(setup: AlphaSetup, dev: Any, dt: Any) -> tuple[Any, ...]:
    """The teacher task of ``setup`` and the student on it: ``(X, y_test, model, Xt,
    (var_train, var_test))``, ``Xt`` the test inputs as ``dt`` on ``dev``, then the variances
    of the training and test targets."""
    torch = _torch()
    X, y, X_test, y_test = teacher_data(setup)
    model = WideTwoLayer(X=X, y=y, activation="relu", scale=1.0)
    Xt = torch.as_tensor(X_test, dtype=dt, device=dev)
    var_test, var_train = float(np.var(y_test)), float(np.var(y))
    return X, y_test, model, Xt, (var_train, var_test)


def _batched_ends(model: Any, starts: list[Any], lrs: list[float], seeds: int,
                  steps: int) -> list[dict[str, Any]]:  # fmt: skip
    """``steps`` GD steps of every start's ``seeds`` networks in one batch, each start at its
    own step of ``lrs`` (one :func:`numerics.torch_flow.gradient_descent` call): the end
    parameters per start."""
    torch = _torch()
    both = {k: torch.cat([p[k] for p in starts]) for k in starts[0]}
    res = gradient_descent(model, both, np.repeat(lrs, seeds), [steps])
    return [{k: v[-1][i * seeds : (i + 1) * seeds] for k, v in res.params.items()}
            for i in range(len(starts))]  # fmt: skip


def _measured(model: Any, X: Any, Xt: Any, y_test: np.ndarray, variances: tuple[float, float],
              n_train: int, runs: Any) -> dict[str, np.ndarray]:  # fmt: skip
    """:func:`_end_measures` of every grid point, stacked per metric of :data:`METRICS` (the
    grid along the first axis); ``runs``: the grid's ``(p0, pT, (K_0, lambda_max(K_0)),
    lr)``."""
    values: dict[str, list[np.ndarray]] = {k: [] for k in METRICS}
    for p0, pT, (K0, lam0), lr in runs:
        ends_of = _end_measures(model, X, Xt, y_test, variances, n_train, (p0, pT), (K0, lam0),
                                lr)  # fmt: skip
        for k, v in ends_of.items():
            values[k].append(v)
    return {k: np.array(v) for k, v in values.items()}


def _curve_fields(values: dict[str, np.ndarray], lrs: list[float], dev: Any, dt: Any,
                  start: float) -> dict[str, Any]:  # fmt: skip
    """The fields of an :class:`AlphaCurve` that every curve fills the same way (``seconds``
    since ``start``)."""
    return {"values": values, "lrs": np.array(lrs), "device": str(dev),
            "dtype": str(dt).removeprefix("torch."),
            "seconds": time.perf_counter() - start}  # fmt: skip


def alpha_curve(
    alphas: Sequence[Any] = ALPHAS_SMALL,
    *,
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
    batched: bool = True,
) -> AlphaCurve:
    """Train ``seeds`` students per alpha (one batch) on the teacher task and measure
    :data:`METRICS` (see the module docstring for the protocol).

    ``alphas``: strictly increasing numbers > 0; ``seeds >= 2`` (a standard error);
    ``device``: ``None`` (CUDA when available, else CPU), ``"cpu"``, ``"cuda[:k]"``;
    ``dtype``: ``torch.float64`` (``None``) or ``torch.float32``.  The data and the initial
    draws are float64 numbers rounded once to ``dtype``.  On the CPU torch runs one thread.
    ``batched``: train every alpha's networks in one batch, each at its own step (one
    :func:`numerics.torch_flow.gradient_descent` call; the default), or one call per alpha
    (``False``, the reference path: the same numbers bit for bit)."""
    torch = _torch()
    setup = AlphaSetup(d, n_train, n_test, width, steps, lr_factor, data_seed, init_seed)
    lr_factor = setup.lr_factor  # the checked float ("0.5" * n_train was string repetition)
    alphas = _check_alphas(alphas)
    seeds = nb.check_int("seeds", seeds, low=2)
    dev = resolve_device(device)
    dt = _check_dtype(dtype)
    if not isinstance(batched, bool):
        raise TypeError(f"batched must be True or False, got {nb.describe(batched)}")
    X, y_test, model, Xt, variances = _task(setup, dev, dt)
    lrs: list[float] = []
    start = time.perf_counter()
    with threads(1):
        starts, kernels = [], []
        for alpha in alphas:
            p0 = initial_parameters(alpha, width, d, seeds, seed=init_seed, device=dev, dtype=dt)
            K0 = ntk(model, p0, X)
            lam0 = torch.linalg.eigvalsh(K0)[..., -1]
            lr = lr_factor * n_train / float(lam0.max())
            if not 0 < lr < math.inf:
                raise ValueError(f"lr_factor = {lr_factor!r} gives the step lr = {lr!r} at "
                                 f"alpha = {alpha} (lr_factor n / lambda_max(K_0) must be "
                                 f"a float > 0)")  # fmt: skip
            lrs.append(lr)
            starts.append(p0)
            kernels.append((K0, lam0))
        if batched:
            # every alpha's seeds in one batch, each with its own step: the same float64
            # operations per network as one call per alpha (tests/test_alpha_scaling.py
            # checks the two paths are equal bit for bit), in a quarter of the calls
            ends = _batched_ends(model, starts, lrs, seeds, steps)
        else:
            ends = []
            for p0, lr in zip(starts, lrs, strict=True):
                res = gradient_descent(model, p0, lr, [steps], keep_params=True)
                ends.append({k: v[-1] for k, v in res.params.items()})
        values = _measured(model, X, Xt, y_test, variances, n_train,
                           zip(starts, ends, kernels, lrs, strict=True))  # fmt: skip
    return AlphaCurve(alphas=alphas, seeds=seeds, setup=setup,
                      **_curve_fields(values, lrs, dev, dt, start))  # fmt: skip
