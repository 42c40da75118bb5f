"""The state layouts of :mod:`numerics.torch_flow`: a dict of blocks as one flat state.

:class:`_Packing` flattens a dict of ``(B, *shape)`` parameter blocks to a row-major
``(B, N)`` state and back (with the per-block rates ``eta`` of the field ``-eta grad L``);
:class:`_Tiles` holds the DOP853's block-major state, the batch in tiles of consecutive
elements, each tile one contiguous run whose blocks are contiguous ``(n, *shape)`` tensors.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from numerics.torch_flow.checks import _torch


class _Packing:
    """Flatten a dict of (B, *shape) blocks to (B, N) and back."""

    def __init__(self, model: Any, params: Mapping[str, Any]):
        torch = _torch()
        missing = [b for b in model.blocks if b not in params]
        extra = [b for b in params if b not in model.blocks]
        if missing or extra:
            raise ValueError(
                f"params must have exactly the blocks {model.blocks}; missing {missing}, "
                f"unexpected {extra}"
            )
        first = params[model.blocks[0]]
        if not isinstance(first, torch.Tensor):
            raise TypeError(f"params must be torch tensors, got {type(first).__name__}")
        self.batch = first.shape[0] if first.ndim else 0
        if self.batch == 0:
            raise ValueError(
                f"params must hold at least one batch element (a leading dimension B >= 1), "
                f"got params[{model.blocks[0]!r}] of shape {tuple(first.shape)}"
            )
        self.names = model.blocks
        self.shapes = []
        for b in self.names:
            t = params[b]
            if not isinstance(t, torch.Tensor) or t.shape[:1] != (self.batch,):
                raise ValueError(
                    f"params[{b!r}] must be a tensor with leading batch dimension "
                    f"{self.batch}, got {getattr(t, 'shape', type(t).__name__)}"
                )
            self.shapes.append(tuple(t.shape[1:]))
        self.sizes = [math.prod(s) for s in self.shapes]
        rates = model.rates
        self.rates = torch.cat(
            [torch.full((n,), float(rates[b]), dtype=first.dtype, device=first.device)
             for b, n in zip(self.names, self.sizes, strict=True)]
        )  # fmt: skip
        self.neg_rates = [-float(rates[b]) for b in self.names]
        ends = list(itertools.accumulate(self.sizes))
        self.slices = [slice(e - n, e) for e, n in zip(ends, self.sizes, strict=True)]

    @property
    def width(self) -> int:
        """``N``, the number of parameters of one batch element."""
        return sum(self.sizes)

    def coefficients(self, h: Any = None) -> list[Any]:
        """Per block, the factor of its gradient in the field: ``-eta_block`` (a float), or
        ``-eta_block h`` for a per-element step ``h`` (B,) (the step folded in), shaped
        ``(B, 1, ..., 1)`` to broadcast against the block ``(B, *shape)``."""
        if h is None:
            return list(self.neg_rates)
        return [h.view(-1, *(1,) * len(s)) * r
                for s, r in zip(self.shapes, self.neg_rates, strict=True)]  # fmt: skip

    def pack(self, params: Mapping[str, Any]) -> Any:
        torch = _torch()
        return torch.cat([params[b].reshape(self.batch_of(params), -1) for b in self.names], 1)

    def batch_of(self, params: Mapping[str, Any]) -> int:
        return params[self.names[0]].shape[0]

    def unpack(self, y: Any) -> dict[str, Any]:
        return dict(zip(self.names, self.row_views(y), strict=True))

    def row_views(self, y: Any) -> list[Any]:
        """The blocks ``(n, *shape)`` of a row-major state ``y`` (n, N): views (strided:
        a block's rows are ``N`` apart)."""
        n = y.shape[0]
        return [y[:, sl].reshape(n, *s) for sl, s in zip(self.slices, self.shapes, strict=True)]

    def block_views(self, flat: Any, n: int) -> list[Any]:
        """The blocks ``(n, *shape)`` of a block-major state ``flat`` (n N,) of ``n``
        elements, ``[block 0 of all n | block 1 of all n | ...]``: contiguous views."""
        return [flat[n * sl.start : n * sl.stop].view(n, *s)
                for sl, s in zip(self.slices, self.shapes, strict=True)]  # fmt: skip

    def block_rows(self, flat: Any, n: int) -> list[Any]:
        """As :meth:`block_views`, each block flattened to ``(..., n, size)`` (``flat`` may
        have leading dimensions: ``(..., n N)``), for the per-element reductions."""
        return [flat[..., n * sl.start : n * sl.stop].unflatten(-1, (n, sl.stop - sl.start))
                for sl in self.slices]  # fmt: skip


class _Tiles:
    """The block-major state of :func:`_dop853`: a flat ``(B N,)`` tensor holding the batch
    in tiles of ``tile`` consecutive elements, each tile block-major (see
    :meth:`_Packing.block_views`), so that a tile is one contiguous run (every stage
    combination is one ``addmm`` over it, whatever the layout) and each of its blocks is a
    contiguous ``(n, *shape)`` tensor (a model's ``W @ x`` is one matrix-vector product,
    not a batched product over rows ``N`` apart)."""

    def __init__(self, packing: _Packing, spans: Sequence[tuple[int, int]]):
        self.packing = packing
        self.N = packing.width
        self.spans = list(spans)

    def tile(self, flat: Any, a: int, b: int) -> Any:
        """The ``(b - a) N`` entries of the tile of elements ``a:b``."""
        return flat[a * self.N : b * self.N]

    def rows(self, flat: Any, a: int, b: int) -> list[Any]:
        """The tile's blocks as ``(b - a, size)`` views."""
        return self.packing.block_rows(self.tile(flat, a, b), b - a)

    def from_rows(self, y: Any) -> Any:
        """The block-major copy of a row-major state ``y`` (B, N)."""
        torch = _torch()
        flat = torch.empty(y.numel(), dtype=y.dtype, device=y.device)
        for a, b in self.spans:
            for view, sl in zip(self.rows(flat, a, b), self.packing.slices, strict=True):
                view.copy_(y[a:b, sl])
        return flat

    def to_rows(self, flat: Any, mask: Any = None) -> Any:
        """The row-major ``(B, N)`` copy of ``flat`` (only the elements of the boolean
        ``mask`` (B,), in order, if given)."""
        torch = _torch()
        parts = []
        for a, b in self.spans:
            blocks = self.rows(flat, a, b)
            if mask is not None:
                blocks = [v[mask[a:b]] for v in blocks]
            parts.append(torch.cat(blocks, 1))
        return torch.cat(parts, 0)

    def where(self, mask: Any, new: Any, old: Any) -> None:
        """``old <- where(mask, new, old)`` per element (``mask`` (B,)), in place."""
        torch = _torch()
        for a, b in self.spans:
            m = mask[a:b, None]
            for n_, o_ in zip(self.rows(new, a, b), self.rows(old, a, b), strict=True):
                torch.where(m, n_, o_, out=o_)
