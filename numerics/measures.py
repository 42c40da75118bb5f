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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from solvable import ntg, xu_ziyin

__all__ = [
    "alignment",
    "feature_learning_ratios",
    "min_eigenvalue",
    "ntk",
    "ntk_node_scaled",
    "ntk_two_layer_linear",
    "record_feature_learning",
    "record_loss",
    "record_ntk",
    "record_ntk_change",
    "record_relative_distance",
    "relative_change",
    "relative_distance",
]


def _torch() -> Any:
    import torch

    return torch


def alignment(u: Any, W: Any, x: Any) -> Any:
    """Seed 001, Section 2.2: the cosine between ``u`` (B, d) and ``W x`` (B, d) (the
    paper's zeta when d0 = 1); ``nan`` where either vector is zero."""
    torch = _torch()
    x = torch.as_tensor(np.array(x, dtype=float), dtype=W.dtype, device=W.device)
    v = W @ x
    num = (u * v).sum(-1)
    den = torch.linalg.vector_norm(u, dim=-1) * torch.linalg.vector_norm(v, dim=-1)
    return torch.where(den > 0, num / torch.where(den > 0, den, 1.0), math.nan)


def ntk_two_layer_linear(model: Any, p: Mapping[str, Any]) -> Any:
    """Seed 001 eq. (18) (corrected, see ``solvable errata``): ``K(x, x) = gamma^2 (eta_u
    ||W x||^2 + eta_w ||u||^2 ||x||^2)``, shape (B,)."""
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

    like = p[model.blocks[0]]
    X = torch.as_tensor(np.array(X, dtype=float), dtype=like.dtype, device=like.device)
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
    X = model._t("X", p["W"])
    return model.eta * ntg.ntg(X, p["W"], p["a"], p["s"] ** 2, model.activation)


def min_eigenvalue(K: Any) -> Any:
    """The smallest eigenvalue of symmetric ``K`` (B, n, n) -> (B,)."""
    torch = _torch()
    return torch.linalg.eigvalsh(K)[..., 0]


def relative_change(new: Any, old: Any) -> Any:
    """``||new - old||_F / ||old||_F`` over all but the batch dimension, (B,)."""
    torch = _torch()
    dims = tuple(range(1, new.ndim))
    num = torch.linalg.vector_norm(new - old, dim=dims) if dims else (new - old).abs()
    den = torch.linalg.vector_norm(old, dim=dims) if dims else old.abs()
    return num / den


def relative_distance(theta: Any, theta0: Any) -> Any:
    """Seed 004 eq. (10): ``RD(W) = ||theta_W - theta_W(0)||_2 / ||theta_W(0)||_2`` (B,)."""
    return relative_change(theta, theta0)


def feature_learning_ratios(model: Any, p: Mapping[str, Any], p0: Mapping[str, Any],
                            x: Any) -> tuple[Any, Any]:  # fmt: skip
    """Seed 000 eqs. (17) and (18) at one input ``x`` (d,): with ``phi_j = sigma(Z_j(x))``,
    ``sum_j lambda_j (phi_j(t) - phi_j(0))^2 / sum_k lambda_k phi_k(0)^2`` (Definition
    7.1) and the same with ``max_j`` in the numerator (Definition 7.3); (B,) each."""
    torch = _torch()
    x = torch.as_tensor(np.array(x, dtype=float), dtype=p["W"].dtype, device=p["W"].device)
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
    return lambda p, rows: model.loss(p)


def record_ntk(model: Any, X: Any | None = None) -> Callable[[Mapping[str, Any], Any], Any]:
    """The learning-rate weighted NTK Gram matrix on ``X`` (default: the model's data)."""
    return lambda p, rows: ntk(model, p, _data(model) if X is None else X)


def record_ntk_change(model: Any, p0: Mapping[str, Any],
                      X: Any | None = None) -> Callable[[Mapping[str, Any], Any], Any]:  # fmt: skip
    """``||K(t) - K(0)||_F / ||K(0)||_F`` of the NTK Gram matrix, from the initial
    parameters ``p0`` of the whole batch."""
    data = _data(model) if X is None else X
    K0 = ntk(model, p0, data)
    return lambda p, rows: relative_change(ntk(model, p, data), K0[rows.to(K0.device)])


def record_relative_distance(block: str, p0: Mapping[str, Any]) -> Callable[..., Any]:
    """Seed 004 eq. (10) for one block, against the initial parameters ``p0``."""
    return lambda p, rows: relative_distance(p[block], _rows_of(p0, rows)[block])


def record_feature_learning(model: Any, p0: Mapping[str, Any], x: Any) -> Callable[..., Any]:
    """Seed 000 Definitions 7.1 and 7.3 at ``x``: a (B, 2) tensor (sum ratio, max ratio)."""
    torch = _torch()

    def fn(p: Mapping[str, Any], rows: Any) -> Any:
        r_sum, r_max = feature_learning_ratios(model, p, _rows_of(p0, rows), x)
        return torch.stack([r_sum, r_max], -1)

    return fn


def _data(model: Any) -> Any:
    if hasattr(model, "X"):
        return model.X
    return model.x[None, :]
