"""The parameters of a torch run checked and moved, and the run split into chunks.

:func:`_prepare` checks the parameters against the model's blocks and moves them to the
device and dtype asked for; :func:`_split_on_oom` runs a batch in chunks of ``max_batch``,
halving a chunk that runs out of memory, and joins the chunks' :class:`FlowResult`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from numerics.torch_flow.checks import _check_dtype, _torch
from numerics.torch_flow.devices import resolve_device
from numerics.torch_flow.layout import _Packing
from numerics.torch_flow.results import FlowResult
from solvable._core import numbers as nb


def _is_oom(exc: BaseException) -> bool:
    torch = _torch()
    oom = getattr(torch, "OutOfMemoryError", torch.cuda.OutOfMemoryError)
    if isinstance(exc, (oom, torch.cuda.OutOfMemoryError, MemoryError)):
        return True
    text = str(exc).lower()
    return isinstance(exc, RuntimeError) and (
        "out of memory" in text or "can't allocate memory" in text
    )


def _split_on_oom(run: Callable[[dict[str, Any], int], FlowResult], params: dict[str, Any],
                  max_batch: int | None) -> FlowResult:  # fmt: skip
    """Run in chunks of ``max_batch``; a chunk that does not fit is halved, not fatal."""
    torch = _torch()
    batch = next(iter(params.values())).shape[0]
    size = batch if max_batch is None else max(1, min(int(max_batch), batch))
    parts: list[FlowResult] = []
    start = 0
    while start < batch:
        chunk = {k: v[start : start + size] for k, v in params.items()}
        try:
            parts.append(run(chunk, start))
        except Exception as exc:
            if not _is_oom(exc) or size == 1:
                raise
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
            size = max(1, size // 2)
            continue
        start += size
    if len(parts) == 1:
        return parts[0]
    return FlowResult(
        times=parts[0].times
        if parts[0].times.ndim == 1
        else torch.cat([p.times for p in parts], 1),
        params={k: torch.cat([p.params[k] for p in parts], 1) for k in parts[0].params},
        measures={k: torch.cat([p.measures[k] for p in parts], 1) for k in parts[0].measures},
        steps=torch.cat([torch.as_tensor(p.steps).reshape(-1) for p in parts]),
        rejected=torch.cat([torch.as_tensor(p.rejected).reshape(-1) for p in parts]),
        nfev=sum(p.nfev for p in parts),
        fixed_point_t=None
        if parts[0].fixed_point_t is None
        else torch.cat([p.fixed_point_t for p in parts]),
    )


def _prepare(model: Any, params: Mapping[str, Any], device: Any, dtype: Any):
    torch = _torch()
    if not hasattr(model, "loss") or not hasattr(model, "blocks"):
        raise TypeError(f"model must be one of numerics.models, got {type(model).__name__}")
    if not isinstance(params, Mapping):
        raise TypeError(
            f"params must be a mapping of block name (str) -> torch tensor (B, *shape) for "
            f"the blocks {model.blocks}, got {type(params).__name__} {nb.describe(params)}"
        )
    dev = resolve_device(device) if device is not None else None
    dtype = _check_dtype(dtype)
    out = {}
    for k, v in params.items():
        if not isinstance(k, str):
            raise TypeError(f"params must be keyed by block name (str), got {nb.describe(k)}")
        if not isinstance(v, (torch.Tensor, np.ndarray)):
            raise TypeError(f"params[{k!r}] must be a torch tensor (B, *shape), got "
                            f"{type(v).__name__} {nb.describe(v)}")  # fmt: skip
        t = torch.as_tensor(v)
        if t.dtype == torch.bool or t.is_complex():
            raise TypeError(f"params[{k!r}] must be a real tensor, got dtype {t.dtype}")
        if not torch.is_floating_point(t):
            t = t.to(torch.float64)
        out[k] = t.to(device=dev or t.device, dtype=dtype or t.dtype)
        if not bool(torch.isfinite(out[k]).all()):
            raise ValueError(f"params[{k!r}] must be finite")
    _Packing(model, out)  # blocks, shapes and one batch size, checked before any split
    return out
