"""numerics.torch_flow.gradient_descent updates the state in place, into buffers kept for
the run: the caller's parameters are not touched, the steps are bit for bit those of
``y + lr * f(y)``, and ThreeLayerReLU's ``gradient_into`` hook writes what ``gradient``
times the coefficient gives, bit for bit."""

from __future__ import annotations

import pytest
import torch

from numerics import models
from numerics.torch_flow import gradient_descent
from numerics.torch_flow.field import _field, _field_into
from numerics.torch_flow.layout import _Packing


def _net(bias: bool, alpha: float | None, B: int = 3, m: int = 23):
    g = torch.Generator().manual_seed(7)
    X = torch.randn(4, 2, generator=g, dtype=torch.float64)
    y = torch.randn(4, generator=g, dtype=torch.float64)
    mdl = models.ThreeLayerReLU(X.numpy(), y.numpy(), alpha=alpha, bias=bias)
    p = {"a": torch.randn(B, m, generator=g, dtype=torch.float64),
         "W2": torch.randn(B, m, m, generator=g, dtype=torch.float64) / m**0.5,
         "W1": torch.randn(B, m, 2, generator=g, dtype=torch.float64)}  # fmt: skip
    if bias:
        p.update(b2=torch.randn(B, m, generator=g, dtype=torch.float64),
                 b1=torch.randn(B, m, generator=g, dtype=torch.float64))  # fmt: skip
    if alpha is None:
        p["alpha"] = torch.rand(B, generator=g, dtype=torch.float64) + 0.5
    return mdl, p


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("alpha", [1.7, None])
def test_three_layer_hook_equals_gradient_times_coefficient(bias: bool, alpha) -> None:
    mdl, p = _net(bias, alpha)
    pk = _Packing(mdl, p)
    y = pk.pack(p)
    hook = torch.empty_like(y)
    _field_into(mdl, pk)(y, hook, pk.coefficients(), pk.row_views)
    ref = torch.empty_like(y)
    grads = mdl.gradient(dict(pk.unpack(y)))
    for b, ob, c in zip(pk.names, pk.row_views(ref), pk.coefficients(), strict=True):
        torch.mul(grads[b], c, out=ob)
    assert torch.equal(hook, ref)
    assert torch.count_nonzero(ref) > 0


@pytest.mark.parametrize("lr", [0.05, [0.05, 0.02, 0.01]])
def test_steps_in_place_are_the_plain_update_and_leave_the_input(lr) -> None:
    mdl, p = _net(True, 1.3)
    before = {k: v.clone() for k, v in p.items()}
    res = gradient_descent(mdl, p, lr, [0, 5, 70], keep_params=True, threads=1)
    for k in p:
        assert torch.equal(p[k], before[k]), f"the caller's {k} was changed"
    pk = _Packing(mdl, p)
    f = _field(mdl, pk)
    y = pk.pack(p)
    step = lr if isinstance(lr, float) else torch.tensor(lr, dtype=y.dtype)[:, None]
    for _ in range(70):
        y = y + step * f(y)
    ref = pk.unpack(y)
    for k in p:
        assert torch.equal(res.params[k][-1], ref[k]), k
    assert not torch.equal(res.params["W2"][-1], before["W2"])  # it did move
