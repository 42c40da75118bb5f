"""Width scaling of the lazy regime of seed 002 (Sections 2.2-2.3), measured in torch.

Model: :class:`numerics.models.WideTwoLayer`, ``f(x) = (1/sqrt(p)) sum_j a_j sigma(<w_j, x>)``,
risk ``R = 1/(2n) sum_i (y_i - f(x_i))^2``, initialised as after eq. (2.28):
``w_j ~ N(0, I/d)``, ``a_j ~ Unif([-1, 1])`` (:func:`initial_parameters`).  Inputs lie on the
sphere of radius ``sqrt(d)`` (:func:`sphere`), so ``<w_j, x> ~ N(0, 1)`` at initialisation.

Measured, independently of the closed forms of :mod:`solvable.models.linearisation`:

(a) ``||H||_op`` of the Hessian of ``f(x; .)`` in ``W`` (``a`` fixed) at initialisation:
    Lanczos (``scipy.sparse.linalg.eigsh``, ``which="LM"``) on autograd Hessian-vector
    products (reverse-over-reverse), and for small ``p`` the dense autograd Hessian
    (``torch.autograd.functional.hessian`` + ``eigvalsh``); compared with eq. (2.17).
(b) ``E(t) = sup_x |f(x; theta(t)) - f_lin(x; theta(t))|`` (eq. (2.32)) along the gradient
    flow of :func:`numerics.torch_flow.gradient_flow`, the sup over the training inputs and
    a fixed probe set on the sphere; ``f_lin`` uses the autograd Jacobian at ``theta0``.
(c) Theorem 1 (Du et al.): ``||y - f(t)|| / (env(t) ||y - f(0)||)`` for the envelopes
    ``exp(-lambda_0 t/n)`` (lazy, (2.42) corrected), ``exp(-lambda_0 t/(2n))`` (Theorem 1 in
    this normalisation) and the printed ``exp(-lambda_0 t)``, ``lambda_0`` the smallest
    eigenvalue of the learning-rate weighted empirical NTK Gram :func:`numerics.measures.ntk`.

Width sweeps fit log-log slopes of the seed mean with :func:`numerics.sweeps.fit_exponent`
(regression and paired-bootstrap standard errors).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp
from scipy.sparse.linalg import LinearOperator, eigsh

from numerics.measures import ntk
from numerics.models import WideTwoLayer
from numerics.sweeps import fit_exponent
from numerics.torch_flow import gradient_flow, resolve_device, threads
from numerics.torch_flow.checks import _check_seed
from solvable._core import numbers as nb
from solvable._core.activations import check_activation, elementwise
from solvable._core.tolerance import worst_of
from solvable.models import linearisation
from solvable.models.linearisation import (
    hessian_opnorm_bound,
    hessian_opnorm_formula,
    relaxation_envelope,
    second_derivative_sup,
)

__all__ = [
    "HORIZON",
    "ComposedTwoLayer",
    "HessianAgreement",
    "HessianSweep",
    "LinearisationRun",
    "LinearisationSweep",
    "hessian_agreement",
    "hessian_dense",
    "hessian_opnorm_closed_form",
    "hessian_opnorm_dense",
    "hessian_opnorm_lanczos",
    "hessian_sweep",
    "initial_parameters",
    "linearisation_run",
    "linearisation_sweep",
    "sphere",
]

HORIZON = 40.0
"""Fixed time horizon of the E(t) sweeps (about 5 n / lambda_0 at n = 8, d = 16: the
training residual has decayed by ~e^{-5} on the slowest lazy mode)."""

_DENSE_MAX = 4096  # largest p d for which the dense Hessian is formed

MAX_TIMES = 10**6
"""The most record times of :func:`linearisation_sweep` (``n_times``): each costs an NTK
and its eigenvalues per network (>= 0.1 ms), so 10**6 are >= 100 s a width; the figures
use 41."""

# the envelopes e^{-lambda_0 t} fall below the smallest normal float64 (e^-708) past
# lambda_0 t = 708: the ratio residual / envelope is then inf or nan, not a number; 700
# leaves a margin of e^8 for the residual's own decay
_ENVELOPE_EXPONENT = 700.0


def _torch() -> Any:
    import torch

    return torch


def _single_threaded(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with threads(1):
            return fn(*args, **kwargs)

    return wrapper


def _int(name: str, value: Any, low: int = 1, high: int = nb.INT64_MAX) -> int:
    """An int in ``[low, high]``; ``high`` defaults to 2**63 - 1 (torch's and numpy's sizes
    are int64: a larger size has no array)."""
    return nb.check_int(name, value, low, high)


def _widths(widths: Any) -> tuple[int, ...]:
    if isinstance(widths, (str, bytes)) or not isinstance(widths, (Sequence, np.ndarray)):
        raise TypeError(f"widths must be a sequence of ints >= 1, got {nb.describe(widths)}")
    return tuple(_int(f"widths[{k}]", w) for k, w in enumerate(widths))


def sphere(n: int, d: int, *, radius: float | None = None, seed: int = 0) -> np.ndarray:
    """``n`` points uniform on the sphere of radius ``radius`` (default ``sqrt(d)``) in R^d,
    shape (n, d), reproducible from ``seed`` (an int >= 0)."""
    n, d = _int("n", n), _int("d", d)
    nb.check_entries(n=n, d=d)
    seed = nb.check_int("seed", seed, 0)
    r = math.sqrt(d) if radius is None else radius
    if isinstance(r, bool) or not isinstance(r, (int, float)) or not (math.isfinite(r) and r > 0):
        raise ValueError(f"radius must be finite and > 0, got {radius!r}")
    g = np.random.default_rng(seed).standard_normal((n, d))
    return r * g / np.linalg.norm(g, axis=1, keepdims=True)


@dataclass(frozen=True)
class ComposedTwoLayer(WideTwoLayer):
    """Exercise 2 of seed 002: the network of :class:`~numerics.models.WideTwoLayer` followed
    by an output nonlinearity, ``g(x) = phi(f(x))``
    (:func:`solvable.models.linearisation.composed_output`), trained on the risk
    ``1/(2n) sum_i (y_i - g(x_i))^2`` (:func:`solvable.models.linearisation.risk` with ``phi``);
    ``phi`` names a twice-differentiable activation
    (:data:`solvable.models.linearisation.ACTIVATIONS`).
    Autograd gives its gradient, NTK and Hessians, so every measure of this module applies."""

    phi: str = field(default="tanh", kw_only=True)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_activation(self.phi, linearisation.ACTIVATIONS, "twice differentiable",
                         arg="phi (the output activation)")  # fmt: skip

    def output(self, p: dict[str, Any], X: Any) -> Any:
        sigma, phi = elementwise(self.activation, "torch"), elementwise(self.phi, "torch")
        return linearisation.composed_output(p["W"], p["a"], X, sigma, self._scale(p), phi)

    def loss(self, p: dict[str, Any]) -> Any:
        X, y = self._t("X", p["W"]), self._t("y", p["W"])
        return linearisation.risk(p["W"], p["a"], X, y, elementwise(self.activation, "torch"),
                                  self._scale(p), elementwise(self.phi, "torch"))  # fmt: skip


def initial_parameters(
    p: int,
    d: int,
    batch: int,
    *,
    seed: int = 0,
    a_init: str = "uniform",
    device: Any = None,
    dtype: Any = None,
) -> dict[str, Any]:
    """Seed 002 after eq. (2.28): ``W`` (B, p, d) i.i.d. ``N(0, 1/d)``, ``a`` (B, p) i.i.d.
    ``Unif([-1, 1])`` (``a_init="uniform"``) or ``Unif([0, 1])`` (``"positive"``; not
    centred: ``f(x; theta0)`` is then of order ``sqrt(p)`` unless ``E sigma = 0``, which
    leaves the lazy regime).  Drawn on the CPU from ``seed`` (``[0, 2**64 - 1]``), then
    moved (float64 default); at most ``2**63 - 1`` weights."""
    torch = _torch()

    p, d, batch = _int("p", p), _int("d", d), _int("batch", batch)
    nb.check_entries(batch=batch, p=p, d=d)
    if not isinstance(a_init, str) or a_init not in ("uniform", "positive"):
        raise ValueError(f"a_init must be 'uniform' or 'positive', got {nb.describe(a_init)}")
    seed = _check_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    W = torch.randn((batch, p, d), generator=gen, dtype=torch.float64) / math.sqrt(d)
    u = torch.rand((batch, p), generator=gen, dtype=torch.float64)
    a = 2 * u - 1 if a_init == "uniform" else u
    dev = resolve_device(device)
    dt = torch.float64 if dtype is None else dtype
    return {"W": W.to(device=dev, dtype=dt), "a": a.to(device=dev, dtype=dt)}


# ---------------------------------------------------------------------------
# (a) the Hessian in W at fixed a
# ---------------------------------------------------------------------------
def _check_hessian_args(model: Any, params: Any, x: Any) -> tuple[Any, Any, Any]:
    torch = _torch()

    if not isinstance(model, WideTwoLayer):
        raise TypeError(f"model must be a numerics.models.WideTwoLayer, got {type(model).__name__}")
    if not isinstance(params, dict) or set(params) != {"W", "a"}:
        raise ValueError(f"params must be a dict with blocks 'W' and 'a', got {params!r:.80}")
    W, a = params["W"], params["a"]
    if not (isinstance(W, torch.Tensor) and isinstance(a, torch.Tensor)):
        raise TypeError("params['W'] and params['a'] must be torch tensors")
    if W.ndim != 3 or a.shape != W.shape[:2]:
        raise ValueError(f"need W (B, p, d) and a (B, p), got {tuple(W.shape)}, {tuple(a.shape)}")
    xa = nb.check_float_array("x", x)
    if xa.shape != (W.shape[2],):
        raise ValueError(f"x must be a finite vector of shape ({W.shape[2]},), got {x!r:.80}")
    return W, a, torch.as_tensor(xa, dtype=W.dtype, device=W.device)


def _scalar_fn(model: Any, a_b: Any, x: Any, p: int, d: int):
    """``w_flat -> f(x; W = w_flat.reshape(p, d), a_b)`` through ``model.output``."""

    def f(w_flat: Any) -> Any:
        return model.output({"W": w_flat.reshape(1, p, d), "a": a_b[None]}, x[None])[0, 0]

    return f


@_single_threaded
def hessian_dense(model: Any, params: dict[str, Any], x: Any) -> Any:
    """The autograd Hessian of ``f(x; W)`` in ``W`` (flattened row by row, ``a`` fixed),
    shape (B, p d, p d), by ``torch.autograd.functional.hessian``; only for ``p d <= 4096``."""
    torch = _torch()

    W, a, xt = _check_hessian_args(model, params, x)
    B, p, d = W.shape
    if p * d > _DENSE_MAX:
        raise ValueError(f"p d must be <= {_DENSE_MAX} for the dense Hessian, got {p * d}")
    out = [
        torch.autograd.functional.hessian(
            _scalar_fn(model, a[b], xt, p, d), W[b].reshape(-1).detach()
        )
        for b in range(B)
    ]
    return torch.stack(out)


def hessian_opnorm_dense(model: Any, params: dict[str, Any], x: Any) -> np.ndarray:
    """``max |eigenvalue|`` of :func:`hessian_dense` (``eigvalsh``), shape (B,)."""
    torch = _torch()
    H = hessian_dense(model, params, x)
    return torch.linalg.eigvalsh(H).abs().amax(-1).cpu().numpy()


@_single_threaded
def hessian_opnorm_lanczos(
    model: Any, params: dict[str, Any], x: Any, *, tol: float = 0.0, seed: int = 0
) -> np.ndarray:
    """``max |eigenvalue|`` of the ``W``-Hessian by implicitly restarted Lanczos
    (``eigsh(which="LM")``, ``tol=0``: machine precision) on autograd Hessian-vector products
    (reverse-over-reverse through a retained gradient graph), never forming the matrix;
    shape (B,)."""
    torch = _torch()

    if not (isinstance(tol, (int, float)) and not isinstance(tol, bool) and tol >= 0):
        raise ValueError(f"tol must be a number >= 0, got {tol!r}")
    seed = nb.check_int("seed", seed, 0)  # numpy's generator: any int >= 0
    W, a, xt = _check_hessian_args(model, params, x)
    B, p, d = W.shape
    N = p * d
    v0 = np.random.default_rng(seed).standard_normal(N)
    out = np.empty(B)
    for b in range(B):
        with torch.enable_grad():
            w = W[b].reshape(-1).detach().clone().requires_grad_(True)
            (g,) = torch.autograd.grad(
                _scalar_fn(model, a[b].detach(), xt, p, d)(w), w, create_graph=True
            )

        def matvec(v: np.ndarray, g=g, w=w) -> np.ndarray:
            vt = torch.as_tensor(
                np.ascontiguousarray(v).reshape(-1), dtype=w.dtype, device=w.device
            )
            (hv,) = torch.autograd.grad(g, w, vt, retain_graph=True)
            return hv.detach().cpu().numpy()

        if N <= 2:  # eigsh needs k < N
            H = np.column_stack([matvec(e) for e in np.eye(N)])
            out[b] = np.abs(np.linalg.eigvalsh((H + H.T) / 2)).max()
            continue
        hv0 = matvec(v0)
        if not np.all(np.isfinite(hv0)):
            raise ValueError("x is too large: the Hessian-vector products leave the float64 "
                             "range (rescale x)")  # fmt: skip
        if not np.any(hv0):  # H v0 = 0 for a random v0: H = 0 (a.s.), e.g. x = 0 or underflow
            out[b] = 0.0
            continue
        op = LinearOperator((N, N), matvec=matvec, dtype=np.float64)
        ncv = min(N - 1, 40)
        vals = eigsh(
            op, k=1, which="LM", tol=tol, v0=v0, ncv=ncv, maxiter=100 * N, return_eigenvectors=False
        )
        out[b] = abs(vals[0])
    return out


def hessian_opnorm_closed_form(model: Any, params: dict[str, Any], x: Any) -> np.ndarray:
    """Eq. (2.17) (corrected), generated by
    :func:`solvable.models.linearisation.hessian_opnorm_formula`
    (``1/sqrt(p)`` NTK scaling only), shape (B,)."""
    W, a, xt = _check_hessian_args(model, params, x)
    if model.scale is not None:
        raise ValueError(f"eq. (2.17) is for the 1/sqrt(p) scaling (scale=None), got {model.scale}")
    return hessian_opnorm_formula(a, W, xt, activation=model.activation).cpu().numpy()


def _hessian_setup(p: int, d: int, batch: int, seed: int, activation: str, device: Any):
    x = sphere(1, d, seed=10_000 + seed)[0]
    model = WideTwoLayer(X=x[None], y=[0.0], activation=activation, eta_a=0.0)
    params = initial_parameters(p, d, batch, seed=seed, device=device)
    return model, params, x


@dataclass(frozen=True)
class HessianAgreement:
    """Relative differences between the three ``||H||_op`` computations, per width (max
    over seeds): dense vs (2.17), Lanczos vs (2.17), Lanczos vs dense."""

    widths: tuple[int, ...]
    seeds: int
    dense_vs_formula: np.ndarray
    lanczos_vs_formula: np.ndarray
    lanczos_vs_dense: np.ndarray

    def summary(self) -> str:
        return (
            f"dense-(2.17) {np.max(self.dense_vs_formula):.1e}, Lanczos-(2.17) "
            f"{np.max(self.lanczos_vs_formula):.1e}, Lanczos-dense "
            f"{np.max(self.lanczos_vs_dense):.1e}"
        )


@_single_threaded
def hessian_agreement(
    widths: Sequence[int],
    *,
    seeds: int = 2,
    d: int = 4,
    activation: str = "tanh",
    device: Any = None,
) -> HessianAgreement:
    """Dense autograd, Lanczos and eq. (2.17) on the same networks (small widths: the dense
    Hessian needs ``width d <= 4096``)."""
    widths = _widths(widths)
    seeds, d = _int("seeds", seeds), _int("d", d)
    if not widths:
        raise ValueError("widths must not be empty")
    for p in widths:
        if p * d > _DENSE_MAX:
            raise ValueError(f"widths and d must have width d <= {_DENSE_MAX} (the dense "
                             f"Hessian), got width {p}, d = {d}")  # fmt: skip
        nb.check_entries(seeds=seeds, width=p, d=d)
    dv, lv, ld = [], [], []
    for p in widths:
        model, params, x = _hessian_setup(p, d, seeds, p, activation, device)
        dense = hessian_opnorm_dense(model, params, x)
        lanc = hessian_opnorm_lanczos(model, params, x)
        form = hessian_opnorm_closed_form(model, params, x)
        dv.append(np.max(np.abs(dense - form) / form))
        lv.append(np.max(np.abs(lanc - form) / form))
        ld.append(np.max(np.abs(lanc - dense) / dense))
    return HessianAgreement(widths, seeds, np.array(dv), np.array(lv), np.array(ld))


@dataclass(frozen=True)
class HessianSweep:
    """``||H||_op`` at initialisation (Lanczos) over widths and seeds: ``values`` (W, S),
    ``bound`` (W,) = eq. (2.18) ``M |x|^2 / sqrt(p)`` (tanh, ``|a| <= 1``), ``formula_error``
    the largest relative Lanczos-(2.17) difference, ``fit`` the log-log slope of the means."""

    widths: tuple[int, ...]
    values: np.ndarray
    bound: np.ndarray
    formula_error: float
    fit: Any


@_single_threaded
def hessian_sweep(
    widths: Sequence[int],
    *,
    seeds: int = 4,
    d: int = 4,
    activation: str = "tanh",
    device: Any = None,
) -> HessianSweep:
    """Lanczos ``||H||_op`` at initialisation for ``seeds`` networks per width (one fixed
    input ``x`` on the sphere of radius ``sqrt(d)``), its bound and the fitted slope."""
    widths = _widths(widths)
    if len(widths) < 2 or list(widths) != sorted(set(widths)):
        raise ValueError(f"widths must be >= 2 increasing integers, got {widths!r}")
    seeds, d = _int("seeds", seeds, 2), _int("d", d)
    for p in widths:
        nb.check_entries(seeds=seeds, width=p, d=d)
    if not isinstance(activation, str) or activation != "tanh":
        raise ValueError(f"activation must be 'tanh' (the sweep uses the tanh bound M = 4 "
                         f"sqrt(3)/9), got {nb.describe(activation)}")  # fmt: skip

    bound_fn = sp.lambdify(
        sorted(hessian_opnorm_bound().free_symbols, key=lambda s: s.name), hessian_opnorm_bound()
    )  # (M, m, p, x2)
    M = float(second_derivative_sup(activation))
    vals, bounds, ferr = [], [], 0.0
    x = sphere(1, d, seed=10_000)[0]
    for p in widths:
        model = WideTwoLayer(X=x[None], y=[0.0], activation=activation, eta_a=0.0)
        params = initial_parameters(p, d, seeds, seed=p, device=device)
        lanc = hessian_opnorm_lanczos(model, params, x)
        form = hessian_opnorm_closed_form(model, params, x)
        ferr = worst_of(ferr, float(np.max(np.abs(lanc - form) / form)))
        vals.append(lanc)
        bounds.append(float(bound_fn(M, 1.0, float(p), float(x @ x))))
    values = np.array(vals)
    fit = fit_exponent(widths, list(values))
    return HessianSweep(widths, values, np.array(bounds), ferr, fit)


# ---------------------------------------------------------------------------
# (b), (c) linearisation error and Theorem 1 along gradient flow
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LinearisationRun:
    """One batch of flows: ``times`` (T,), ``E`` (T, B) the linearisation error (2.32)
    (sup over training + probe inputs), ``residual`` (T, B) ``||y - f(t)||`` on the training
    set, ``lambda0`` (B,) ``lambda_min`` of the rate-weighted empirical NTK at ``theta0``,
    ``lambda_t`` (T, B) the same along the flow, ``n`` the number of training points."""

    times: np.ndarray
    E: np.ndarray
    residual: np.ndarray
    lambda0: np.ndarray
    lambda_t: np.ndarray
    n: int

    def ratios(self, envelope: str = "lazy") -> np.ndarray:
        """``||y - f(t)|| / (env(t) ||y - f(0)||)``, (T, B); ``envelope``: ``"lazy"``
        (``e^{-lambda_0 t/n}``), ``"du"`` (``e^{-lambda_0 t/(2n)}``) or ``"printed"``
        (``e^{-lambda_0 t}``), generated from
        :func:`solvable.models.linearisation.relaxation_envelope`."""
        if envelope not in ("lazy", "du", "printed"):
            raise ValueError(f"envelope must be 'lazy', 'du' or 'printed', got {envelope!r}")
        env = relaxation_envelope(
            self.lambda0[None, :],
            self.times[:, None],
            self.n,
            printed=envelope == "printed",
            du=envelope == "du",
        )
        return self.residual / (env * self.residual[0][None, :])


@_single_threaded
def linearisation_run(
    model: Any,
    params0: dict[str, Any],
    times: Sequence[float],
    probe: Any,
    *,
    rtol: float = 1e-10,
    device: Any = None,
) -> LinearisationRun:
    """Integrate the gradient flow of ``model`` (a :class:`~numerics.models.WideTwoLayer`)
    from ``params0`` and record E(t) on the rows of ``model.X`` and ``probe``, the training
    residual norm, and ``lambda_0``."""
    torch = _torch()
    from torch.func import jacrev, vmap

    if not isinstance(model, WideTwoLayer):
        raise TypeError(f"model must be a numerics.models.WideTwoLayer, got {type(model).__name__}")
    pr = nb.check_float_array("probe", probe)
    if pr.ndim != 2 or pr.shape[1] != model.X.shape[1]:
        raise ValueError(f"probe must be a finite (m, {model.X.shape[1]}) array, got {pr.shape}")
    if not isinstance(params0, dict) or set(params0) != {"W", "a"}:
        raise TypeError(f"params0 must be a dict with blocks 'W' and 'a', got "
                        f"{nb.describe(params0)}")  # fmt: skip
    p0 = {k: torch.as_tensor(v) for k, v in params0.items()}
    if device is not None:
        p0 = {k: v.to(resolve_device(device)) for k, v in p0.items()}
    like = p0["W"]
    Xall = torch.as_tensor(np.vstack([model.X, pr]), dtype=like.dtype, device=like.device)
    Xtr = Xall[: len(model.X)]
    y = torch.as_tensor(np.array(model.y), dtype=like.dtype, device=like.device)

    def single(theta: dict[str, Any]) -> Any:
        return model.output({k: v[None] for k, v in theta.items()}, Xall)[0]

    with torch.no_grad():
        f0 = model.output(p0, Xall)
    J0 = vmap(jacrev(single))(p0)  # block -> (B, m, *shape)
    J0 = {b: J0[b].reshape(J0[b].shape[0], J0[b].shape[1], -1).detach() for b in model.blocks}

    def error(p: dict[str, Any], rows: Any) -> Any:
        rows = rows.to(like.device)
        lin = f0[rows]
        for b in model.blocks:
            delta = (p[b] - p0[b][rows]).reshape(len(rows), -1)
            lin = lin + torch.einsum("bmk,bk->bm", J0[b][rows], delta)
        return (model.output(p, Xall) - lin).abs().amax(-1)

    def residual(p: dict[str, Any], rows: Any) -> Any:
        return torch.linalg.vector_norm(y - model.output(p, Xtr), dim=-1)

    def lam_min(p: dict[str, Any], rows: Any) -> Any:
        return torch.linalg.eigvalsh(ntk(model, p, model.X))[..., 0]

    lam0 = torch.linalg.eigvalsh(ntk(model, p0, model.X))[..., 0]
    res = gradient_flow(
        model,
        p0,
        times,
        rtol=rtol,
        keep_params=False,
        measures={"E": error, "residual": residual, "lambda": lam_min},
    )
    return LinearisationRun(
        times=np.asarray(res.times.cpu(), dtype=float),
        E=res.measures["E"].cpu().numpy(),
        residual=res.measures["residual"].cpu().numpy(),
        lambda0=lam0.cpu().numpy(),
        lambda_t=res.measures["lambda"].cpu().numpy(),
        n=len(model.X),
    )


def format_values(values: np.ndarray, digits: int = 6) -> str:
    """Numbers as ``[v1, v2, ...]`` with ``digits`` significant digits."""
    return "[" + ", ".join(f"{v:.{digits}g}" for v in np.asarray(values).ravel()) + "]"


@dataclass(frozen=True)
class LinearisationSweep:
    """Runs per width: ``sup_E`` (W, S) = ``max_t E(t)`` on ``[0, horizon]``, the fitted
    slope ``fit``, and the Theorem 1 ratios ``max_t`` per run for each envelope."""

    widths: tuple[int, ...]
    horizon: float
    eta_a: float
    a_init: str
    activation: str
    sup_E: np.ndarray  # noqa: N815 (the paper's E)
    fit: Any
    max_ratio: dict[str, np.ndarray]
    lambda0: np.ndarray
    final_residual: np.ndarray
    kernel_floor: np.ndarray  # (W, S): min_t lambda_min(K_t) / lambda_0 on the time grid
    output: str | None = None  # Exercise 2's phi (None: the plain network)


@_single_threaded
def linearisation_sweep(
    widths: Sequence[int],
    *,
    seeds: int = 4,
    n: int = 8,
    d: int = 16,
    probes: int = 32,
    horizon: float = HORIZON,
    n_times: int = 41,
    eta_a: float = 1.0,
    a_init: str = "uniform",
    activation: str = "tanh",
    rtol: float = 1e-10,
    device: Any = None,
    output: str | None = None,
) -> LinearisationSweep:
    """E(t) and Theorem 1 ratios over widths: fixed data (``n`` training inputs on the
    sphere of radius ``sqrt(d)``, labels ``y ~ N(0, 1)``, ``probes`` probe inputs), ``seeds``
    initialisations per width, times ``linspace(0, horizon, n_times)``.  ``output``: an
    output nonlinearity ``phi`` (Exercise 2, :class:`ComposedTwoLayer`): the flow trains
    ``g = phi(f)`` and ``E(t)`` is ``g``'s linearisation error (labels ``tanh(y)`` then, in
    ``phi``'s range for ``phi = tanh``); ``None``: the plain network.  ``n_times`` at most
    :data:`MAX_TIMES`; a ``horizon`` so long that an envelope ``e^{-lambda_0 t}`` leaves the
    float64 range (``lambda_0 horizon > 700``) is a ``ValueError`` (the ratios are not
    numbers there), and so is a flow the integrator cannot follow (an ``eta_a`` or
    ``horizon`` too large for ``rtol``)."""
    widths = _widths(widths)
    if not widths or list(widths) != sorted(set(widths)):
        raise ValueError(f"widths must be increasing integers, got {widths!r}")
    seeds, n, d = _int("seeds", seeds, 2), _int("n", n), _int("d", d)
    probes, n_times = _int("probes", probes), _int("n_times", n_times, 2, MAX_TIMES)
    nb.check_entries(n=n, d=d)
    nb.check_entries(probes=probes, d=d)
    for p in widths:
        nb.check_entries(seeds=seeds, width=p, d=d)
    if not (isinstance(horizon, (int, float)) and math.isfinite(horizon) and horizon > 0):
        raise ValueError(f"horizon must be finite and > 0, got {horizon!r}")
    if output is not None:
        check_activation(output, linearisation.ACTIVATIONS, "twice differentiable", arg="output")
    X = sphere(n, d, seed=1)
    y = np.random.default_rng(2).standard_normal(n)
    probe = sphere(probes, d, seed=3)
    if output is None:
        model = WideTwoLayer(X=X, y=y, activation=activation, eta_a=eta_a)
    else:
        y = np.tanh(y)  # reachable labels for phi = tanh (|y| < 1)
        model = ComposedTwoLayer(X=X, y=y, activation=activation, eta_a=eta_a, phi=output)
    times = np.linspace(0.0, float(horizon), n_times)
    sup_E, ratios, lam, final, floor = [], {"lazy": [], "du": [], "printed": []}, [], [], []
    for p in widths:
        params = initial_parameters(p, d, seeds, seed=p, a_init=a_init, device=device)
        try:
            run = linearisation_run(model, params, times, probe, rtol=rtol, device=device)
        except ArithmeticError as exc:  # the integrator's step size underflowed
            raise ValueError(
                f"the gradient flow at width {p} could not be followed to "
                f"horizon = {horizon!r} with eta_a = {eta_a!r}, rtol = {rtol!r} "
                f"(a stiffer flow than float64 steps can follow): {exc}"
            ) from exc
        lam_top = float(np.max(np.abs(run.lambda0)))
        if not lam_top * float(horizon) <= _ENVELOPE_EXPONENT:
            raise ValueError(f"horizon must be <= {_ENVELOPE_EXPONENT:g} / lambda_0 = "
                             f"{_ENVELOPE_EXPONENT / lam_top:.4g} at width "
                             f"{p} (the envelope e^(-lambda_0 t) underflows float64 beyond), "
                             f"got {horizon!r}")  # fmt: skip
        sup_E.append(run.E.max(0))
        for k in ratios:
            ratios[k].append(run.ratios(k)[1:].max(0))  # t > 0 (the ratio is 1 at t = 0)
        lam.append(run.lambda0)
        final.append(run.residual[-1] / run.residual[0])
        floor.append(run.lambda_t.min(0) / run.lambda0)
    sup = np.array(sup_E)
    fit = fit_exponent(widths, list(sup)) if len(widths) >= 2 else None
    return LinearisationSweep(
        widths,
        float(horizon),
        float(eta_a),
        a_init,
        activation,
        sup,
        fit,
        {k: np.array(v) for k, v in ratios.items()},
        np.array(lam),
        np.array(final),
        np.array(floor),
        output,
    )
