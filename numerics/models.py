"""The networks of the seeds as batched torch losses (one concept: the model).

A model is a frozen dataclass holding its data and fixed hyperparameters; the trainable
parameters are a dict of tensors with a leading batch dimension ``B`` (independent
networks).  ``loss(params)`` returns the ``B`` losses, ``output(params, X)`` the
``(B, n)`` outputs on inputs ``X``; ``rates`` are the per-block learning rates of the
gradient flow ``d theta_b / dt = -eta_b grad_b L``.  Gradients come from autograd on the
loss (:mod:`numerics.torch_flow`), or from a model's hand-written ``gradient(params)``
where it has one (tested against autograd); tests compare both with the papers' flows.

Widths can be batched by padding: in the linear models zero rows of both layers stay
zero exactly (their gradient is proportional to the other layer's row), and in
:class:`NodeScaled` a node with ``lambda = 0`` contributes nothing and never moves.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from numerics.torch_flow import resolve_device
from numerics.torch_flow.checks import _check_dtype, _check_seed
from solvable._core import numbers as nb
from solvable._core.activations import ACTIVATIONS, check_activation, elementwise, evaluator
from solvable._core.backends import torch_module
from solvable._core.model import System
from solvable.models import kunin, linearisation, three_layer, xu_ziyin
from solvable.models.kunin import losses as kunin_losses
from solvable.models.node_scaling import network as node_network
from solvable.models.xu_ziyin import network as xu_ziyin_network

__all__ = [
    "ACTIVATIONS",
    "NodeScaled",
    "SingleNeuron",
    "SystemModel",
    "ThreeLayerReLU",
    "TwoLayerLinear",
    "WideLinear",
    "WideTwoLayer",
    "node_scaled_parameters",
]


def _real_array(name: str, value: Any, ndim: int | tuple[int, ...]) -> np.ndarray:
    """``value`` as a read-only float64 array of finite numbers with ``ndim`` axes
    (:func:`solvable._core.numbers.check_float_array`: a bool, complex number, string that
    is not a decimal number or torch tensor is a ``TypeError`` naming ``name``)."""
    arr = nb.check_float_array(name, value, ndim=ndim)
    arr.setflags(write=False)
    return arr


def _real(name: str, value: Any, low: str = "") -> float:
    """A finite real number (``low``: ``"positive"`` for > 0, ``"nonnegative"`` for >= 0) as
    a float64, which must not round to 0 where > 0 is asked; a string or another non-number
    is a ``TypeError`` naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (numbers.Real, np.floating, np.integer)
    ):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} "
                        f"{nb.describe(value)}")  # fmt: skip
    v = nb.check_number(name, value, positive=low == "positive", nonnegative=low == "nonnegative")
    out = nb.to_float(v, name)
    if low == "positive" and not out > 0:
        raise ValueError(f"{name} must be > 0 in float64, got {nb.describe(value)} (rounds to 0)")
    return out


def _positive(name: str, value: Any) -> float:
    return _real(name, value, "positive")


class _Model:
    """Data arrays as tensors, copied to each device / dtype once per model (the vector
    field is evaluated thousands of times; on CUDA each copy would be a blocking
    host-to-device transfer).  The cache lives in the instance, outside its fields.

    ``loss`` (the flows' hot path) calls the models' unchecked array code: the data are
    checked when the model is built, the parameters by :mod:`numerics.torch_flow`."""

    def _set_data(self, target: str = "y", target_ndim: int = 1) -> None:
        """Validate and freeze ``X`` (n, d) and the targets (n,) or (n, c)."""
        X = _real_array("X", self.X, 2)
        Y = _real_array(target, getattr(self, target), target_ndim)
        if len(Y) != len(X):
            raise ValueError(f"{target} must have {len(X)} rows (as X), got {len(Y)}")
        object.__setattr__(self, "X", X)
        object.__setattr__(self, target, Y)

    def _set_rates(self, *names: str) -> None:
        for name in names:
            object.__setattr__(self, name, _positive(name, getattr(self, name)))

    def _t(self, name: str, like: Any) -> Any:
        torch = torch_module()
        cache = self.__dict__.setdefault("_tensors", {})
        key = (name, like.device, like.dtype)
        if key not in cache:
            cache[key] = torch.as_tensor(
                np.array(getattr(self, name)), dtype=like.dtype, device=like.device
            )
        return cache[key]


def _activation(name: str) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """``(sigma, sigma')`` on torch tensors, generated from the one sympy definition of each
    activation (:mod:`solvable._core.activations`)."""
    name = check_activation(name)
    return elementwise(name, "torch"), evaluator(name, "torch", 1)


@dataclass(frozen=True)
class TwoLayerLinear(_Model):
    """Seed 001 (Xu & Ziyin) eq. (4): ``f = gamma u^T W x``, ``L = (f - y)^2`` (no 1/2),
    rates ``eta_u`` (u: (B, d)) and ``eta_w`` (W: (B, d, d0))."""

    x: Any
    y: float
    gamma: float = 1.0
    eta_u: float = 1.0
    eta_w: float = 1.0
    blocks: tuple[str, ...] = field(default=("u", "W"), init=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "x", _real_array("x", self.x, 1))
        if not np.any(self.x):
            raise ValueError("x must not be the zero vector")
        set_(self, "y", _real("y", self.y))
        for name in ("gamma", "eta_u", "eta_w"):
            set_(self, name, _positive(name, getattr(self, name)))

    @property
    def rates(self) -> dict[str, float]:
        return {"u": self.eta_u, "W": self.eta_w}

    def output(self, p: dict[str, Any], X: Any) -> Any:
        """``(B, n)`` outputs on the rows of ``X`` (n, d0)
        (:func:`solvable.models.xu_ziyin.network_output`)."""
        return xu_ziyin.network_output(p["u"], p["W"], X, self.gamma)

    def loss(self, p: dict[str, Any]) -> Any:
        return xu_ziyin_network._loss(p["u"], p["W"], self._t("x", p["u"]), self.y, self.gamma)

    def gradient(self, p: dict[str, Any]) -> dict[str, Any]:
        """Hand-written ``dL/du = 2 gamma (f - y) W x``, ``dL/dW = 2 gamma (f - y) u x^T``
        (eq. (31) without the rates; tested against autograd of :meth:`loss`)."""
        x = self._t("x", p["u"])
        Wx = p["W"] @ x
        r = 2 * self.gamma * (self.gamma * (Wx * p["u"]).sum(-1) - self.y)  # (B,)
        return {"u": r[:, None] * Wx, "W": (r[:, None] * p["u"])[:, :, None] * x}

    def gradient_into(self, p: dict[str, Any], out: dict[str, Any],
                      coefficients: dict[str, Any]) -> None:  # fmt: skip
        """:meth:`gradient` times ``coefficients[b]`` written into ``out[b]`` (the hook of
        :func:`numerics.torch_flow.field._field_into`, issue 17): the coefficient is folded into
        the per-element factor ``2 gamma (f - y)``, so ``dL/dW`` is written once, with no
        temporary of its size; on the block-major state ``W`` is contiguous and ``W @ x``
        is one matrix-vector product."""
        torch = torch_module()
        u, W = p["u"], p["W"]
        x = self._t("x", u)
        Wx = W @ x
        r = 2 * self.gamma * (self.gamma * (Wx * u).sum(-1) - self.y)  # (B,)
        torch.mul(Wx, r[:, None] * coefficients["u"], out=out["u"])
        torch.mul((r[:, None, None] * coefficients["W"]) * u[:, :, None], x, out=out["W"])


@dataclass(frozen=True)
class SingleNeuron(_Model):
    """Seed 003 Part I: ``f = a w^T x``, ``L = 1/2 sum_i (f(x_i) - y_i)^2``; a: (B,),
    w: (B, d)."""

    X: Any
    y: Any
    eta_a: float = 1.0
    eta_w: float = 1.0
    blocks: tuple[str, ...] = field(default=("a", "w"), init=False)

    def __post_init__(self) -> None:
        self._set_data()
        self._set_rates("eta_a", "eta_w")

    @property
    def rates(self) -> dict[str, float]:
        return {"a": self.eta_a, "w": self.eta_w}

    def output(self, p: dict[str, Any], X: Any) -> Any:
        return kunin.output(p["a"], p["w"], X)

    def loss(self, p: dict[str, Any]) -> Any:
        return kunin_losses._loss(p["a"], p["w"], self._t("X", p["w"]), self._t("y", p["w"]))


@dataclass(frozen=True)
class WideLinear(_Model):
    """Seed 003 Part II: ``f(x) = A^T W x``, ``L = 1/2 sum_i ||f(x_i) - y_i||^2``;
    A: (B, h, c), W: (B, h, d); Y: (n, c)."""

    X: Any
    Y: Any
    eta_A: float = 1.0  # noqa: N815 (the paper's notation)
    eta_W: float = 1.0  # noqa: N815
    blocks: tuple[str, ...] = field(default=("A", "W"), init=False)

    def __post_init__(self) -> None:
        self._set_data("Y", 2)
        self._set_rates("eta_A", "eta_W")

    @property
    def rates(self) -> dict[str, float]:
        return {"A": self.eta_A, "W": self.eta_W}

    def output(self, p: dict[str, Any], X: Any) -> Any:
        """``(B, n, c)``."""
        return kunin.wide_output(p["A"], p["W"], X)

    def loss(self, p: dict[str, Any]) -> Any:
        return kunin_losses._wide_loss(p["A"], p["W"], self._t("X", p["W"]), self._t("Y", p["W"]))


@dataclass(frozen=True)
class NodeScaled(_Model):
    """Seed 000 eq. (2): ``f(x) = sum_j sqrt(lambda_j) a_j sigma(w_j^T x / sqrt(d))``,
    ``L = 1/2 sum_i (y_i - f(x_i))^2`` (eq. (5)), ``dW/dt = -eta grad_W L``.

    Blocks: ``W`` (B, m, d), trained at rate ``eta``; the output weights ``a`` (B, m) (+-1,
    eq. (3)) and the node scales ``s = sqrt(lambda)`` (B, m) are blocks with learning rate
    0, so every network of a batch has its own fixed ``a`` and scaling (and a padded
    width: nodes with ``s = 0`` contribute nothing and never move).  Build them with
    :func:`numerics.models.node_scaled_parameters`."""

    X: Any
    y: Any
    activation: str = "relu"
    eta: float = 1.0
    blocks: tuple[str, ...] = field(default=("W", "a", "s"), init=False)

    def __post_init__(self) -> None:
        self._set_data()
        check_activation(self.activation)
        self._set_rates("eta")

    @property
    def rates(self) -> dict[str, float]:
        return {"W": self.eta, "a": 0.0, "s": 0.0}

    def preactivations(self, p: dict[str, Any], X: Any) -> Any:
        """``Z_j(x_i) = w_j^T x_i / sqrt(d)``, shape (B, n, m)
        (:func:`solvable.models.node_scaling.preactivations`)."""
        return node_network._preactivations(p["W"], X, math.sqrt(X.shape[-1]))

    def features(self, p: dict[str, Any], X: Any) -> Any:
        """``sigma(Z_j(x_i))``, shape (B, n, m)."""
        return elementwise(self.activation, "torch")(self.preactivations(p, X))

    def output(self, p: dict[str, Any], X: Any) -> Any:
        return node_network._network_output(p["W"], p["a"], p["s"], X,
                                            elementwise(self.activation, "torch"),
                                            math.sqrt(X.shape[-1]))  # fmt: skip

    def loss(self, p: dict[str, Any]) -> Any:
        X, y = self._t("X", p["W"]), self._t("y", p["W"])
        return node_network._loss(p["W"], p["a"], p["s"], X, y,
                                  elementwise(self.activation, "torch"),
                                  math.sqrt(X.shape[-1]))  # fmt: skip


@dataclass(frozen=True)
class WideTwoLayer(_Model):
    """Seed 002 eqs. (2.19) / (2.28): ``f(x) = scale * sum_{j<=p} a_j sigma(<w_j, x>)`` with
    ``scale = 1/sqrt(p)`` (NTK scaling, the default ``scale=None``) or a fixed number (eq.
    (3.8)'s ``alpha(p)``); empirical risk ``R = 1/(2n) sum_i (y_i - f(x_i))^2`` (eq. (2.22)).

    Blocks: ``W`` (B, p, d) at rate ``eta_w`` and ``a`` (B, p) at rate ``eta_a``; ``eta_a = 0``
    keeps the second layer fixed (Proposition 1, eq. (2.13)).  The width ``p`` is the
    number of rows of ``W`` (no padding: the 1/sqrt(p) factor counts every row)."""

    X: Any
    y: Any
    activation: str = "tanh"
    eta_w: float = 1.0
    eta_a: float = 1.0
    scale: float | None = None
    blocks: tuple[str, ...] = field(default=("W", "a"), init=False)

    def __post_init__(self) -> None:
        self._set_data()
        check_activation(self.activation)
        self._set_rates("eta_w")
        object.__setattr__(self, "eta_a", _real("eta_a", self.eta_a, "nonnegative"))
        if self.scale is not None:
            self._set_rates("scale")

    @property
    def rates(self) -> dict[str, float]:
        return {"W": self.eta_w, "a": self.eta_a}

    def _scale(self, p: dict[str, Any]) -> float:
        return 1 / math.sqrt(p["W"].shape[-2]) if self.scale is None else self.scale

    def features(self, p: dict[str, Any], X: Any) -> Any:
        """``sigma(<w_j, x_i>)``, shape (B, n, p)."""
        return elementwise(self.activation, "torch")(X @ p["W"].transpose(1, 2))

    def output(self, p: dict[str, Any], X: Any) -> Any:
        return linearisation.network_output(p["W"], p["a"], X,
                                            elementwise(self.activation, "torch"),
                                            self._scale(p))  # fmt: skip

    def loss(self, p: dict[str, Any]) -> Any:
        X, y = self._t("X", p["W"]), self._t("y", p["W"])
        return linearisation.risk(p["W"], p["a"], X, y, elementwise(self.activation, "torch"),
                                  self._scale(p))  # fmt: skip


def node_scaled_parameters(
    lam: Any, d: int, batch: int, *, seed: int = 0, device: Any = None, dtype: Any = None
) -> dict[str, Any]:
    """Initial parameters of :class:`NodeScaled`: ``W`` i.i.d. N(0, 1) (B, m, d), ``a``
    i.i.d. uniform on {-1, +1} (eq. (3)), ``s = sqrt(lam)`` for node scalings ``lam``
    (shape (m,), shared, or (B, m)); reproducible from ``seed`` on every device."""
    torch = torch_module()
    lam_arr = _real_array("lam", lam, (1, 2))
    if np.any(lam_arr < 0):
        raise ValueError("lam must be finite and >= 0 (node scalings)")
    d, batch = nb.check_int("d", d), nb.check_int("batch", batch)
    seed = _check_seed(seed)
    m = lam_arr.shape[-1]
    if lam_arr.ndim == 2 and lam_arr.shape[0] not in (1, batch):
        raise ValueError(f"lam must have shape (m,) or (batch, m) with batch = {batch}, got "
                         f"{lam_arr.shape}")  # fmt: skip
    if batch * m * d > 2**63 - 1:
        raise ValueError(f"batch = {batch} networks of width m = {m} (entries of lam) in "
                         f"d = {d} dimensions: more than 2**63 - 1 weights (torch's "
                         "limit)")  # fmt: skip
    lam_arr = np.broadcast_to(lam_arr, (batch, m))
    dev = resolve_device(device)
    dtype = torch.float64 if dtype is None else _check_dtype(dtype)
    gen = torch.Generator().manual_seed(int(seed))
    W = torch.randn((batch, m, d), generator=gen, dtype=torch.float64)
    a = torch.randint(0, 2, (batch, m), generator=gen).to(torch.float64) * 2 - 1
    s = torch.as_tensor(np.sqrt(lam_arr).copy())
    return {k: v.to(device=dev, dtype=dtype) for k, v in {"W": W, "a": a, "s": s}.items()}


@dataclass(frozen=True)
class ThreeLayerReLU(_Model):
    """Seed 004 eq. (1): ``f(x) = a^T sigma(W2 sigma(W1 x + b1) + b2) / alpha`` (ReLU),
    ``R_S = 1/(2n) sum_i (f(x_i) - y_i)^2`` (eq. (3)), rate 1 (eq. (4)); a: (B, m),
    W2: (B, m, m), W1: (B, m, d); with ``bias=True`` also b1, b2: (B, m).

    ``alpha=None``: one output scale per network, the block ``"alpha"`` (B,) (finite,
    > 0) with learning rate 0 (it never moves: its gradient is returned as 0), so that
    one batch trains networks of different scalings
    (:func:`numerics.sweep_three_layer.train_runs`), as :class:`NodeScaled` carries its
    fixed blocks.  The gradient is hand-written (:meth:`gradient`, tested against
    autograd of :meth:`loss`)."""

    X: Any
    y: Any
    alpha: float | None = 1.0
    bias: bool = False
    blocks: tuple[str, ...] = field(default=("a", "W2", "W1"), init=False)

    def __post_init__(self) -> None:
        self._set_data()
        if self.alpha is not None:
            self._set_rates("alpha")
        if not isinstance(self.bias, bool):
            raise TypeError(f"bias must be a bool, got {self.bias!r}")
        blocks = ("a", "W2", "W1", "b2", "b1") if self.bias else ("a", "W2", "W1")
        object.__setattr__(self, "blocks", blocks + (("alpha",) if self.alpha is None else ()))

    @property
    def rates(self) -> dict[str, float]:
        return {b: 0.0 if b == "alpha" else 1.0 for b in self.blocks}

    def _alpha(self, p: dict[str, Any]) -> Any:
        """The output scale: the number ``alpha``, or the block ``p["alpha"]`` as (B, 1)."""
        return self.alpha if self.alpha is not None else p["alpha"][:, None]

    def hidden(self, p: dict[str, Any], X: Any) -> tuple[Any, Any]:
        """Post-activations of the two hidden layers, (B, n, m) each
        (:func:`solvable.models.three_layer.hidden`)."""
        return three_layer.hidden(p["W2"], p["W1"], X, elementwise("relu", "torch"),
                                  p.get("b2"), p.get("b1"))  # fmt: skip

    def output(self, p: dict[str, Any], X: Any) -> Any:
        return three_layer.network_output(p["a"], p["W2"], p["W1"], X,
                                          elementwise("relu", "torch"), self._alpha(p),
                                          p.get("b2"), p.get("b1"))  # fmt: skip

    def loss(self, p: dict[str, Any]) -> Any:
        X, y = self._t("X", p["W1"]), self._t("y", p["W1"])
        return three_layer.risk(p["a"], p["W2"], p["W1"], X, y, elementwise("relu", "torch"),
                                self._alpha(p), p.get("b2"), p.get("b1"))  # fmt: skip

    def gradient(self, p: dict[str, Any]) -> dict[str, Any]:
        """Hand-written ``grad R_S`` per block (eq. (5), the biases as the extra column
        of their weight with constant input 1; tested against autograd of :meth:`loss`).

        With ``h1 = relu(W1 x + b1)``, ``h2 = relu(W2 h1 + b2)`` (:meth:`hidden`), ``e =
        (f - y)/(n alpha)`` (B, n), ``g2 = e a relu'(h2)`` and ``g1 = (g2 W2) relu'(h1)``
        (B, n, m): ``dR/da = e^T h2``, ``dR/dW2 = g2^T h1``, ``dR/dW1 = g1^T X``,
        ``dR/db2``, ``dR/db1`` the sums of ``g2``, ``g1`` over the data.  ``relu'`` is the
        derivative of the one sympy definition
        (:func:`solvable._core.activations.evaluator`: 0 for ``z <= 0``, 1 above), taken
        at ``h = relu(z)``, which is positive exactly where ``z`` is."""
        X, h1, h2, e, g2, g1 = self._backprop(p)
        out = {"W2": g2.transpose(1, 2) @ h1, **self._small_blocks(p, X, h2, e, g2, g1)}
        return {b: out[b] for b in self.blocks}

    def gradient_into(self, p: dict[str, Any], out: dict[str, Any],
                      coefficients: dict[str, Any]) -> None:  # fmt: skip
        """:meth:`gradient` times ``coefficients[b]`` written into ``out[b]`` (the hook of
        :func:`numerics.torch_flow.field._field_into`): the m x m block ``dR/dW2`` is
        computed into ``out["W2"]`` and scaled there, with no temporary of its size (above
        ~32 MB, m >= ~2000 in float64, every such temporary was fresh memory from the
        kernel, page faults included).  The same products in the same order as
        :meth:`gradient` followed by ``torch.mul(grad, c)``: the same numbers, bit for bit
        (tested)."""
        torch = torch_module()
        X, h1, h2, e, g2, g1 = self._backprop(p)
        torch.matmul(g2.transpose(1, 2), h1, out=out["W2"])
        out["W2"].mul_(coefficients["W2"])
        for b, g in self._small_blocks(p, X, h2, e, g2, g1).items():
            torch.mul(g, coefficients[b], out=out[b])

    def _backprop(self, p: dict[str, Any]) -> tuple[Any, ...]:
        """``(X, h1, h2, e, g2, g1)`` of :meth:`gradient`'s docstring."""
        drelu = evaluator("relu", "torch", 1)
        X, y = self._t("X", p["W1"]), self._t("y", p["W1"])
        alpha = self._alpha(p)
        h1, h2 = self.hidden(p, X)
        a = p["a"][:, None, :]
        f = (h2 * a).sum(-1) / alpha  # eq. (1), as three_layer.network_output
        e = (f - y) / (X.shape[0] * alpha)  # (B, n)
        g2 = e[:, :, None] * a * drelu(h2)
        g1 = (g2 @ p["W2"]) * drelu(h1)
        return X, h1, h2, e, g2, g1

    def _small_blocks(self, p: dict[str, Any], X: Any, h2: Any, e: Any, g2: Any,
                      g1: Any) -> dict[str, Any]:  # fmt: skip
        """Every block's gradient but W2's (the biases, and ``alpha``'s zero when it is a
        block)."""
        out = {"a": (e[:, None, :] @ h2)[:, 0, :], "W1": g1.transpose(1, 2) @ X}
        if self.bias:
            out.update(b2=g2.sum(1), b1=g1.sum(1))
        if self.alpha is None:
            out["alpha"] = torch_module().zeros_like(p["alpha"])
        return out


class SystemModel:
    """Any model's :class:`solvable.System` as a batched torch model for
    :mod:`numerics.torch_flow` (``blocks``, ``rates``, ``loss``): the loss is the system's own
    definition, its data converted once per device and dtype."""

    def __init__(self, system: System, setup: Any) -> None:
        if not isinstance(system, System):
            raise TypeError(f"system must be a solvable.System, got {type(system).__name__}")
        if not isinstance(setup, system.setup_type):
            raise TypeError(f"setup must be a {system.setup_type.__module__}."
                            f"{system.setup_type.__qualname__} (the setup of system), got "
                            f"{type(setup).__name__} {nb.describe(setup)}")  # fmt: skip
        self.system, self.setup = system, setup
        rates = system.rates(setup)
        self.blocks = tuple(b for b in system.blocks if b in rates)
        self.rates = rates
        self._data: dict[Any, dict[str, Any]] = {}

    def loss(self, p: dict[str, Any]) -> Any:
        like = p[self.blocks[0]]
        key = (like.device, like.dtype)
        if key not in self._data:
            self._data[key] = self.system.data(self.setup, "torch", like)
        return self.system.loss(p, self._data[key])
