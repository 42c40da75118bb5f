"""What the papers measure along training, batched in torch.

Two kinds of function:

* plain functions of the parameters (dict of ``(B, ...)`` tensors), e.g. :func:`ntk`,
  :func:`alignment`, :func:`relative_distance`;
* ``recorder(...)`` factories returning callables ``fn(params, rows)`` for the
  ``measures=`` argument of :func:`numerics.torch_flow.gradient_flow` /
  :func:`~numerics.torch_flow.gradient_descent`, which evaluate a measure on the batch
  elements ``rows`` when they reach a requested time (quantities relative to the
  initialisation look their initial value up by ``rows``).

Sources: seed 001 (Xu & Ziyin) eq. (18) and the alignment of Section 2.2; seed 000
(node scaling) eqs. (6)-(7) and Definitions 7.1 / 7.3; seed 004 eq. (10).

Arguments are checked for type and shape (never for finiteness, which would cost a device
synchronisation per recorded time): tensors must be real floating-point torch tensors,
``model`` one of :mod:`numerics.models` (with the method a measure needs), ``p`` / ``p0``
dicts of the model's blocks as tensors with one leading batch size, and data (``x``, ``X``)
arrays of finite real numbers whose last axis is the model's input dimension; anything else
is a ``TypeError`` / ``ValueError`` naming the argument.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from numerics import models
from solvable._core import numbers as nb
from solvable.models import ntg, xu_ziyin

__all__ = [
    "alignment",
    "feature_learning_ratios",
    "kernel_distance",
    "min_eigenvalue",
    "ntk",
    "ntk_node_scaled",
    "ntk_two_layer_linear",
    "record_feature_learning",
    "record_kernel_distance",
    "record_loss",
    "record_ntk",
    "record_ntk_change",
    "record_relative_distance",
    "relative_change",
    "relative_distance",
    "task_alignment",
]


def _torch() -> Any:
    import torch

    return torch


def _tensor(name: str, value: Any, ndim: int | None = None, *, min_ndim: int = 0) -> Any:
    """``value`` if it is a real floating-point torch tensor with ``ndim`` (or at least
    ``min_ndim``) axes; else a ``TypeError`` / ``ValueError`` naming ``name``."""
    torch = _torch()
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"{name} must be a torch tensor, got {type(value).__name__} "
                        f"{nb.describe(value)}")  # fmt: skip
    if not torch.is_floating_point(value):
        raise TypeError(f"{name} must be a real floating-point tensor, got dtype {value.dtype}")
    if (ndim is not None and value.ndim != ndim) or value.ndim < min_ndim:
        want = ndim if ndim is not None else f">= {min_ndim}"
        raise ValueError(f"{name} must have {want} dimensions, got shape {tuple(value.shape)}")
    return value


def _data_array(name: str, value: Any, ndim: int, width: int) -> np.ndarray:
    """Data (a CPU tensor, an array or nested lists of finite real numbers) as float64, with
    ``ndim`` axes, the last of length ``width``."""
    if type(value).__module__.split(".")[0] == "torch" and hasattr(value, "detach"):
        value = value.detach().cpu().tolist()  # as np.array(tensor) did, any dtype
    arr = nb.check_float_array(name, value, ndim=ndim)
    if arr.shape[-1] != width:
        raise ValueError(f"{name} must have {width} entries along its last axis (the input "
                         f"dimension), got shape {arr.shape}")  # fmt: skip
    return arr


def _model(name: str, model: Any, *kinds: str, needs: str = "output") -> Any:
    """``model`` if it is one of :mod:`numerics.models` (``kinds``: one of these classes)
    with the method ``needs``."""
    classes = tuple(getattr(models, k) for k in kinds)
    ok = isinstance(model, classes) if classes else hasattr(model, "blocks")
    if not ok or not callable(getattr(model, needs, None)):
        want = " or ".join(f"numerics.models.{k}" for k in kinds) or "one of numerics.models"
        raise TypeError(f"{name} must be {want} (with .{needs}), got {type(model).__name__} "
                        f"{nb.describe(model)}")  # fmt: skip
    return model


def _params(name: str, model: Any, p: Any, blocks: Any = None) -> Any:
    """``p`` if it maps each of the model's ``blocks`` to a real tensor, one batch size."""
    blocks = model.blocks if blocks is None else blocks
    if not isinstance(p, Mapping):
        raise TypeError(f"{name} must be a dict of block name -> tensor (B, *shape) for the "
                        f"blocks {tuple(blocks)}, got {type(p).__name__} "
                        f"{nb.describe(p)}")  # fmt: skip
    missing = [b for b in blocks if b not in p]
    if missing:
        raise ValueError(f"{name} must hold the blocks {tuple(blocks)}; missing {missing}")
    batch = {_tensor(f"{name}[{b!r}]", p[b], min_ndim=1).shape[0] for b in blocks}
    if len(batch) > 1:
        raise ValueError(f"{name}'s blocks must share one batch size, got {sorted(batch)}")
    return p


def _input_width(model: Any) -> int:
    return int(_data(model).shape[-1])


def alignment(u: Any, W: Any, x: Any) -> Any:
    """Seed 001, Section 2.2: the cosine between ``u`` (B, d) and ``W x`` (B, d) (the
    paper's zeta when d0 = 1); ``nan`` where either vector is zero."""
    torch = _torch()
    W = _tensor("W", W, 3)
    u = _tensor("u", u, 2)
    if u.shape != W.shape[:2]:
        raise ValueError(f"u must have shape (B, d) = {tuple(W.shape[:2])} (as W), got "
                         f"{tuple(u.shape)}")  # fmt: skip
    x = _data_array("x", x, 1, W.shape[2])
    x = torch.as_tensor(x, dtype=W.dtype, device=W.device)
    v = W @ x
    num = (u * v).sum(-1)
    den = torch.linalg.vector_norm(u, dim=-1) * torch.linalg.vector_norm(v, dim=-1)
    return torch.where(den > 0, num / torch.where(den > 0, den, 1.0), math.nan)


def ntk_two_layer_linear(model: Any, p: Mapping[str, Any]) -> Any:
    """Seed 001 eq. (18) (corrected, see ``solvable errata``): ``K(x, x) = gamma^2 (eta_u
    ||W x||^2 + eta_w ||u||^2 ||x||^2)``, shape (B,)."""
    _params("p", _model("model", model, "TwoLayerLinear"), p)
    x = model._t("x", p["W"])
    return xu_ziyin.ntk(p["u"], p["W"], x, model.eta_u, model.eta_w, model.gamma)


def ntk(model: Any, p: Mapping[str, Any], X: Any) -> Any:
    """The empirical NTK Gram matrix on the rows of ``X``, weighted by the learning rates
    of the gradient flow: ``K_ij = sum_b eta_b <d f(x_i)/d theta_b, d f(x_j)/d theta_b>``,
    so that ``d f/dt = -K dL/df`` (shape (B, n, n); scalar-output models).  Blocks with
    rate 0 (fixed weights) do not contribute.  Computed with ``torch.func`` (vmap of
    jacrev), memory ``B n P`` for P parameters per network."""
    torch = _torch()
    from torch.func import jacrev, vmap

    _params("p", _model("model", model), p)
    like = p[model.blocks[0]]
    X = _data_array("X", X, 2, _input_width(model))
    X = torch.as_tensor(X, dtype=like.dtype, device=like.device)
    trained = [b for b in model.blocks if model.rates[b] != 0]

    def single(theta: dict[str, Any], fixed: dict[str, Any]) -> Any:
        q = {k: v[None] for k, v in {**theta, **fixed}.items()}
        return model.output(q, X)[0]

    theta = {b: p[b] for b in trained}
    fixed = {b: p[b] for b in model.blocks if b not in trained}
    J = vmap(jacrev(single))(theta, fixed)  # b -> (B, n, *shape)
    K = 0
    for b in trained:
        Jb = J[b].reshape(J[b].shape[0], J[b].shape[1], -1)
        K = K + model.rates[b] * Jb @ Jb.transpose(1, 2)
    return K


def ntk_node_scaled(model: Any, p: Mapping[str, Any]) -> Any:
    """Seed 000 eq. (7): ``Theta(X) = 1/d sum_j lambda_j diag(sigma'(X w_j/sqrt d)) X X^T
    diag(sigma'(X w_j / sqrt d))`` on the model's data (B, n, n), times the rate eta."""
    _params("p", _model("model", model, "NodeScaled"), p)
    X = model._t("X", p["W"])
    return model.eta * ntg.ntg(X, p["W"], p["a"], p["s"] ** 2, model.activation)


def min_eigenvalue(K: Any) -> Any:
    """The smallest eigenvalue of symmetric ``K`` (B, n, n) -> (B,) (float32 or float64)."""
    torch = _torch()
    _tensor("K", K, min_ndim=2)
    if K.shape[-1] != K.shape[-2] or K.shape[-1] == 0:
        raise ValueError(f"K must be square matrices (..., n, n) with n >= 1, got shape "
                         f"{tuple(K.shape)}")  # fmt: skip
    if K.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"K must be a float32 or float64 tensor (torch's eigvalsh), got "
                        f"{K.dtype}")  # fmt: skip
    return torch.linalg.eigvalsh(K)[..., 0]


def relative_change(new: Any, old: Any) -> Any:
    """``||new - old||_F / ||old||_F`` over all but the batch dimension, (B,).

    Exact at every scale of the inputs (norms of 1e200 or 1e-200 entries neither overflow
    nor underflow: each batch element is scaled by its largest magnitude first). Non-finite
    entries, and an ``old`` whose norm is 0 in some batch element (the ratio is undefined
    there), are a ``ValueError``."""
    _same_shape(("new", new), ("old", old))
    for name, value in (("new", new), ("old", old)):
        _finite(name, value)
    _nonzero_rows("old", old)
    return _relative_change(new, old)


def _finite(name: str, value: Any) -> None:
    """A ``ValueError`` naming ``name`` and the index of its first non-finite entry."""
    torch = _torch()
    bad = ~torch.isfinite(value)
    if bool(bad.any()):
        raise ValueError(f"{name} must be finite, got a non-finite entry at index "
                         f"{tuple(bad.nonzero()[0].tolist())}")  # fmt: skip


def _nonzero_rows(name: str, value: Any,
                  why: str = "a relative change from a zero tensor is undefined (0/0 or x/0)"
                  ) -> None:  # fmt: skip
    """A ``ValueError`` naming ``name`` if some batch element of ``value`` is all zeros
    (``why``: what is undefined there)."""
    zero = (value == 0).reshape(value.shape[0], -1).all(-1)
    if bool(zero.any()):
        rows = zero.nonzero()[:, 0].tolist()
        raise ValueError(f"{name} is zero in batch element(s) {rows[:5]}: {why}")


def _relative_change(new: Any, old: Any) -> Any:
    """:func:`relative_change` without the checks (finite inputs, ``old`` not all zero in any
    batch element). Each batch element is multiplied by the power of two that brings its
    largest magnitude into [0.5, 1) (exact: no rounding), so that neither the difference nor
    the sums of squares overflow or underflow (torch's ``vector_norm`` does not rescale:
    1e200 entries give inf, 1e-200 entries 0)."""
    torch = _torch()
    dims = tuple(range(1, new.ndim))
    both = torch.maximum(new.abs(), old.abs())
    top = both.amax(dim=dims, keepdim=True) if dims else both
    _, e = torch.frexp(top)  # top = m 2^e, m in [0.5, 1) (e = 0 where top is 0)
    # 2^-e in two exact factors: 2^-e alone overflows float64 for subnormal tops (e = -1073)
    half = torch.div(-e, 2, rounding_mode="floor")
    f1, f2 = torch.exp2(half.to(new.dtype)), torch.exp2((-e - half).to(new.dtype))
    new, old = new * f1 * f2, old * f1 * f2
    num = torch.linalg.vector_norm(new - old, dim=dims) if dims else (new - old).abs()
    den = torch.linalg.vector_norm(old, dim=dims) if dims else old.abs()
    return num / den


def _unit(name: str, K: Any) -> Any:
    """Each batch element of ``K`` (B, ...) divided by its Frobenius norm, without overflow
    or underflow (scaled by a power of two first, exactly, as :func:`_relative_change`)."""
    torch = _torch()
    dims = tuple(range(1, K.ndim))
    top = K.abs().amax(dim=dims, keepdim=True)
    _, e = torch.frexp(top)
    half = torch.div(-e, 2, rounding_mode="floor")
    K = K * torch.exp2(half.to(K.dtype)) * torch.exp2((-e - half).to(K.dtype))
    return K / torch.linalg.vector_norm(K, dim=dims, keepdim=True)


def _finite_nonzero(name: str, value: Any) -> None:
    """Finite, and non-zero in every batch element (a direction exists)."""
    _finite(name, value)
    _nonzero_rows(name, value, "its direction (and so the measure) is undefined")


def kernel_distance(K: Any, K0: Any) -> Any:
    """The kernel distance ``S(0, t) = 1 - <K0, K>_F / (|K0|_F |K|_F)`` (Fort et al. 2020,
    the measure the lazy / rich anchors plot against the initial scale; issue 31) of each
    batch element of ``K`` (B, ...) from ``K0`` (same shape), (B,), in ``[0, 2]`` (``[0, 1]``
    for positive semi-definite Gram matrices).

    Computed as ``|K^ - K0^|_F^2 / 2`` with ``K^ = K / |K|_F``, the same number without the
    cancellation of ``1 - cos`` where the kernel barely moves (lazy training: ``S ~ 1e-12``
    keeps its digits), each batch element scaled by a power of two first (no overflow or
    underflow at 1e-200 or 1e200).  Non-finite entries, or a ``K`` or ``K0`` that is zero in
    some batch element (no direction), are a ``ValueError`` naming it.

    The definition is :func:`solvable._core.kernel_measures.symbolic`'s (the exact solutions'
    ``kernel_path`` evaluates the same stable form on float64 and mpmath arrays; note the
    argument order: ``K`` first here, ``K0`` first there); ``tests/test_exact_kernel_distance.py``
    checks that the two agree within the float64 bound against 40 digits."""
    _same_shape(("K", K), ("K0", K0))
    if K.ndim < 2:  # (a (B,) tensor has no kernel per batch element)
        raise ValueError(f"K and K0 must have a batch axis and at least one more, (B, ...), "
                         f"got shape {tuple(K.shape)}")  # fmt: skip
    _finite_nonzero("K", K)
    _finite_nonzero("K0", K0)
    return _kernel_distance(K, K0)


def _kernel_distance(K: Any, K0: Any) -> Any:
    torch = _torch()
    diff = _unit("K", K) - _unit("K0", K0)
    return torch.linalg.vector_norm(diff, dim=tuple(range(1, K.ndim))) ** 2 / 2


def task_alignment(K: Any, y: Any) -> Any:
    """The kernel's alignment with the task, ``y^T K y / (|K|_F |y|^2)`` (issue 31), of each
    batch element of ``K`` (B, n, n) with targets ``y`` (n,) or (B, n), (B,): in ``[-1, 1]``,
    1 when ``K`` is proportional to ``y y^T``.  Scaled as :func:`kernel_distance`; a zero
    ``K`` or ``y`` in some batch element, or a non-finite entry, is a ``ValueError``.  The
    definition of :func:`solvable._core.kernel_measures.task_alignment` (batched)."""
    torch = _torch()
    _tensor("K", K, 3)
    if K.shape[-1] != K.shape[-2] or K.shape[-1] == 0:
        raise ValueError(f"K must be square matrices (B, n, n) with n >= 1, got shape "
                         f"{tuple(K.shape)}")  # fmt: skip
    _tensor("y", y)
    n = K.shape[-1]
    if tuple(y.shape) not in ((n,), (K.shape[0], n)):
        raise ValueError(f"y must have shape (n,) or (B, n) = ({K.shape[0]}, {n}), got "
                         f"{tuple(y.shape)}")  # fmt: skip
    y = y.expand(K.shape[0], n)
    _finite_nonzero("K", K)
    _finite_nonzero("y", y.contiguous())
    Kh, yh = _unit("K", K), _unit("y", y.to(K.dtype))
    return torch.einsum("bi,bij,bj->b", yh, Kh, yh)


def relative_distance(theta: Any, theta0: Any) -> Any:
    """Seed 004 eq. (10): ``RD(W) = ||theta_W - theta_W(0)||_2 / ||theta_W(0)||_2`` (B,)."""
    _same_shape(("theta", theta), ("theta0", theta0))
    return relative_change(theta, theta0)


def _same_shape(a: tuple[str, Any], b: tuple[str, Any]) -> None:
    """Two real tensors (batch first) of one shape."""
    (na, ta), (nb_, tb) = a, b
    _tensor(na, ta, min_ndim=1), _tensor(nb_, tb, min_ndim=1)
    if ta.shape != tb.shape:
        raise ValueError(f"{na} and {nb_} must have the same shape (B, ...), got "
                         f"{tuple(ta.shape)} and {tuple(tb.shape)}")  # fmt: skip


def feature_learning_ratios(model: Any, p: Mapping[str, Any], p0: Mapping[str, Any],
                            x: Any) -> tuple[Any, Any]:  # fmt: skip
    """Seed 000 eqs. (17) and (18) at one input ``x`` (d,): with ``phi_j = sigma(Z_j(x))``,
    ``sum_j lambda_j (phi_j(t) - phi_j(0))^2 / sum_k lambda_k phi_k(0)^2`` (Definition
    7.1) and the same with ``max_j`` in the numerator (Definition 7.3); (B,) each; ``nan``
    for a network whose initial features all vanish at ``x`` (the denominator is 0: a ReLU
    network with every unit off at ``x``, or ``x = 0``)."""
    torch = _torch()
    _model("model", model, needs="features")
    _params("p", model, p, ("W", "s"))
    _params("p0", model, p0, ("W", "s"))
    x = _data_array("x", x, 1, _input_width(model))
    x = torch.as_tensor(x, dtype=p["W"].dtype, device=p["W"].device)
    x = x[None, :]
    phi = model.features(p, x)[:, 0, :]
    phi0 = model.features(p0, x)[:, 0, :]
    lam = p["s"] ** 2
    den = (lam * phi0**2).sum(-1)
    change = lam * (phi - phi0) ** 2
    return change.sum(-1) / den, change.amax(-1) / den


# ---------------------------------------------------------------------------
# recorders for gradient_flow(measures=...)
# ---------------------------------------------------------------------------
def _rows_of(p0: Mapping[str, Any], rows: Any) -> dict[str, Any]:
    return {k: v[rows.to(v.device)] for k, v in p0.items()}


def record_loss(model: Any) -> Callable[[Mapping[str, Any], Any], Any]:
    """The loss (B,)."""
    _model("model", model, needs="loss")
    return lambda p, rows: model.loss(p)


def record_ntk(model: Any, X: Any | None = None) -> Callable[[Mapping[str, Any], Any], Any]:
    """The learning-rate weighted NTK Gram matrix on ``X`` (default: the model's data)."""
    _model("model", model)
    if X is not None:
        X = _data_array("X", X, 2, _input_width(model))
    return lambda p, rows: ntk(model, p, _data(model) if X is None else X)


def record_ntk_change(model: Any, p0: Mapping[str, Any],
                      X: Any | None = None) -> Callable[[Mapping[str, Any], Any], Any]:  # fmt: skip
    """``||K(t) - K(0)||_F / ||K(0)||_F`` of the NTK Gram matrix, from the initial
    parameters ``p0`` of the whole batch. A network whose initial NTK on ``X`` is zero (zero
    data, or every unit's slope 0 at ``p0``: the ratio is undefined) or not finite is a
    ``ValueError`` naming ``p0``, here rather than at the first recorded time."""
    torch = _torch()
    _params("p0", _model("model", model), p0)
    data = _data(model) if X is None else _data_array("X", X, 2, _input_width(model))
    K0 = ntk(model, p0, data)
    if not bool(torch.isfinite(K0).all()):
        raise ValueError("p0 gives a non-finite NTK Gram matrix on X (overflow: scale p0 "
                         "down or use float64)")  # fmt: skip
    _nonzero_rows("p0 (its NTK Gram matrix on X)", K0)
    return lambda p, rows: _relative_change(ntk(model, p, data), K0[rows.to(K0.device)])


def record_kernel_distance(
    model: Any, p0: Mapping[str, Any], X: Any | None = None
) -> Callable[[Mapping[str, Any], Any], Any]:
    """:func:`kernel_distance` ``S(0, t)`` of the NTK Gram matrix on ``X`` (default: the
    model's data) from its value at the initial parameters ``p0`` of the whole batch; a
    start whose NTK is zero or not finite is a ``ValueError`` naming ``p0``, here."""
    _params("p0", _model("model", model), p0)
    data = _data(model) if X is None else _data_array("X", X, 2, _input_width(model))
    K0 = ntk(model, p0, data)
    _finite_nonzero("p0 (its NTK Gram matrix on X)", K0)
    return lambda p, rows: _kernel_distance(ntk(model, p, data), K0[rows.to(K0.device)])


def record_relative_distance(block: str, p0: Mapping[str, Any]) -> Callable[..., Any]:
    """Seed 004 eq. (10) for one block, against the initial parameters ``p0``; a block that
    is zero in some batch element of ``p0`` (RD undefined) or not finite is a
    ``ValueError``."""
    if not isinstance(block, str):
        raise TypeError(f"block must be a str (a key of p0), got {nb.describe(block)}")
    if not isinstance(p0, Mapping) or block not in p0:
        keys = sorted(p0) if isinstance(p0, Mapping) else None
        raise ValueError(f"block must be a key of p0 (a dict of tensors: {keys}), got "
                         f"{block!r}")  # fmt: skip
    name = f"p0[{block!r}]"
    _tensor(name, p0[block], min_ndim=1)
    torch = _torch()
    if not bool(torch.isfinite(p0[block]).all()):
        raise ValueError(f"{name} must be finite")
    _nonzero_rows(name, p0[block])
    return lambda p, rows: _relative_change(p[block], _rows_of(p0, rows)[block])


def record_feature_learning(model: Any, p0: Mapping[str, Any], x: Any) -> Callable[..., Any]:
    """Seed 000 Definitions 7.1 and 7.3 at ``x``: a (B, 2) tensor (sum ratio, max ratio);
    ``nan`` where they are undefined (:func:`feature_learning_ratios`)."""
    torch = _torch()
    _params("p0", _model("model", model, needs="features"), p0, ("W", "s"))
    x = _data_array("x", x, 1, _input_width(model))

    def fn(p: Mapping[str, Any], rows: Any) -> Any:
        r_sum, r_max = feature_learning_ratios(model, p, _rows_of(p0, rows), x)
        return torch.stack([r_sum, r_max], -1)

    return fn


def _data(model: Any) -> Any:
    if hasattr(model, "X"):
        return model.X
    return model.x[None, :]
