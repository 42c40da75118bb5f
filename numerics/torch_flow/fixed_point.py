"""The fixed-point test of the torch DOP853: is the rest of a trajectory its linearised flow?

Near a stable fixed point an explicit method's step is bounded by stability, not accuracy:
:func:`_fixed_point` takes the autograd Hessian (:func:`_hessian`, one backward pass per
parameter) and asks :class:`numerics.scipy_ode.LinearTail` whether the remaining trajectory
of each due batch element is its linearised flow to within the tolerance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics.scipy_ode import LinearTail
from numerics.torch_flow.checks import _torch
from numerics.torch_flow.layout import _Packing


def _hessian(model: Any, packing: _Packing, y: Any) -> Any:
    """``d^2 L / d theta^2`` per batch element, (B, N, N), by autograd of the model's loss
    (one backward pass per parameter; the elements are independent)."""
    torch = _torch()
    B, N = y.shape
    with torch.enable_grad():
        z = y.detach().requires_grad_(True)
        loss = model.loss(packing.unpack(z)).sum()
        (g,) = torch.autograd.grad(loss, z, create_graph=True)
        if not g.requires_grad:  # a loss linear in the parameters
            return torch.zeros((B, N, N), dtype=y.dtype, device=y.device)
        rows = []
        for i in range(N):
            (r,) = torch.autograd.grad(g[:, i].sum(), z, retain_graph=i < N - 1,
                                       allow_unused=True)  # fmt: skip
            rows.append(torch.zeros_like(y) if r is None else r)
    return torch.stack(rows, 1).detach()


def _fixed_point(model, packing, f, y, fy, due, t, T_end, rtol, atol_b):
    """The elements ``due`` whose rest is their linearised flow (see
    :class:`numerics.scipy_ode.LinearTail`), and that :class:`LinearTail` (or None)."""
    torch = _torch()
    root = packing.rates.clamp(min=0).sqrt()
    inv = torch.where(root > 0, 1 / torch.where(root > 0, root, 1.0), 0.0)
    H = _hessian(model, packing, y)
    S = root[None, :, None] * H * root[None, None, :]
    zdot = fy * inv
    scale = atol_b + rtol * y.abs()
    eps = float(torch.finfo(y.dtype).eps)
    cpu = {"dtype": torch.float64, "device": "cpu"}
    tail = LinearTail(S.to(**cpu).numpy(), zdot.to(**cpu).numpy(),
                      scale.to(**cpu).numpy(), root.to(**cpu).numpy()[None],
                      (T_end - t).to(**cpu).numpy(), eps, rtol)  # fmt: skip
    limit = np.where(due.cpu().numpy()[:, None], tail.end(), 0.0)
    limit = np.where(np.isfinite(limit), limit, 0.0)  # an unstable mode: refused below anyway
    f_lim = f(y + torch.as_tensor(limit, dtype=y.dtype, device=y.device))
    ok = tail.converged((f_lim * inv).to(**cpu).numpy())
    return due & torch.as_tensor(ok, device=y.device), tail
