"""The vector field ``-eta grad L`` of :mod:`numerics.torch_flow`, on either layout.

The gradient comes from a model's ``gradient_into`` hook, its hand-written ``gradient``, or
autograd of its loss (the protocol: :func:`_field_into`); :func:`_field_binder` binds the
state and the output ahead (one set of block views per tile) and :func:`_field` returns the
field as a new tensor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from numerics.torch_flow.checks import _torch
from numerics.torch_flow.layout import _Packing

_Views = Callable[[Any], list[Any]]  # a state -> its blocks (n, *shape)


def _field_into(model: Any, packing: _Packing, autograd: bool = False
                ) -> Callable[[Any, Any, Sequence[Any], _Views], None]:  # fmt: skip
    """``(y, out, coefficients, views) -> None``: writes ``coefficients[k] * grad_k L(y)``
    into block ``k`` of ``out`` (e.g. a stage of the DOP853 buffer), block by block with no
    concatenated or rescaled copy.  ``views(t)`` gives the blocks ``(n, *shape)`` of a
    state ``t`` laid out as ``y`` (:meth:`_Packing.row_views` for ``(n, N)`` rows, or
    :meth:`_Packing.block_views` for a block-major tile); ``coefficients`` from
    :meth:`_Packing.coefficients` (``-eta``, or ``-eta h`` with the step folded in, one
    per block, each a float or a tensor broadcastable to the block).

    The gradient is, unless ``autograd`` is True, in order of preference:

    * the model's ``gradient_into(p, out, coefficients)`` hook: ``p``, ``out`` and
      ``coefficients`` are dicts keyed by block name; ``p[b]`` and ``out[b]`` are
      ``(n, *shape)`` tensors (contiguous on the DOP853's block-major state; strided views
      on a row-major one), ``coefficients[b]`` a float or a tensor of shape ``(n, 1, ...,
      1)``; the hook writes ``coefficients[b] * dL/d(block b)`` into ``out[b]`` (e.g.
      ``torch.mul(..., out=out[b])``), every entry of it, and changes nothing else (so it
      can fold the coefficient into a small factor and skip the full-size temporary of
      ``gradient`` and its rescaling); the DOP853 may call it from several threads at
      once (``workers``), on disjoint tiles;
    * its hand-written ``gradient(p) -> {block: (n, *shape)}``;
    * autograd of its loss."""
    bind = _field_binder(model, packing, autograd)

    def f(y: Any, out: Any, coefficients: Sequence[Any], views: Any) -> None:
        bind(y, out, views)(coefficients)

    return f


def _field_binder(model: Any, packing: _Packing, autograd: bool = False
                  ) -> Callable[[Any, Any, _Views], Callable[[Sequence[Any]], None]]:  # fmt: skip
    """:func:`_field_into` with the state and the output bound ahead: ``(y, out, views) ->
    (coefficients -> None)``.  The block views are taken once, so the DOP853 builds them
    once per tile rather than at each of its 12 evaluations per step (a view costs
    Python time under the GIL, which the ``workers`` share)."""
    torch = _torch()
    names = packing.names
    hook = None if autograd else getattr(model, "gradient_into", None)
    if hook is not None:

        def bind_hook(y: Any, out: Any, views: Any) -> Callable[[Sequence[Any]], None]:
            p = dict(zip(names, views(y), strict=True))
            o = dict(zip(names, views(out), strict=True))

            def call(coefficients: Sequence[Any]) -> None:
                hook(dict(p), dict(o), dict(zip(names, coefficients, strict=True)))

            return call

        return bind_hook

    if not autograd and hasattr(model, "gradient"):

        def bind_gradient(y: Any, out: Any, views: Any) -> Callable[[Sequence[Any]], None]:
            p, o = dict(zip(names, views(y), strict=True)), views(out)

            def call(coefficients: Sequence[Any]) -> None:
                grads = model.gradient(dict(p))
                for b, ob, c in zip(names, o, coefficients, strict=True):
                    torch.mul(grads[b], c, out=ob)

            return call

        return bind_gradient

    def bind_autograd(y: Any, out: Any, views: Any) -> Callable[[Sequence[Any]], None]:
        o = views(out)

        def call(coefficients: Sequence[Any]) -> None:
            with torch.enable_grad():
                # a copy: a view of y shares the version counter of its base, which another
                # worker's tiles bump while this backward pass checks it
                z = y.detach().clone().requires_grad_(True)
                loss = model.loss(dict(zip(names, views(z), strict=True))).sum()
                (grad,) = torch.autograd.grad(loss, z)
            for gv, ob, c in zip(views(grad), o, coefficients, strict=True):
                torch.mul(gv, c, out=ob)

        return call

    return bind_autograd


def _field(model: Any, packing: _Packing, autograd: bool = False) -> Callable[[Any], Any]:
    """``y -> -eta * grad L`` on the flat state (a new tensor), by :func:`_field_into`."""
    torch = _torch()
    into = _field_into(model, packing, autograd)
    neg = packing.coefficients()

    def f(y: Any) -> Any:
        out = torch.empty_like(y)
        into(y, out, neg, packing.row_views)
        return out

    return f
