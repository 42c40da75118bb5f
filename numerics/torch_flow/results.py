"""What a torch run returns: :class:`FlowResult`, and the recorder that fills it.

Measures and parameters are recorded at the requested times only (never every step): a
dict of callables ``fn(params, rows) -> tensor (k, ...)`` evaluated on the ``k`` batch
elements ``rows`` that reached a requested time together (see :mod:`numerics.measures`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from numerics.torch_flow.checks import _torch
from numerics.torch_flow.layout import _Packing


@dataclass(frozen=True)
class FlowResult:
    """``times`` (T,); ``params[name]``: ``(T, B, *shape)`` (if kept); ``measures[name]``:
    (T, B, ...); ``steps``, ``rejected``, ``nfev``: per batch element (B,) (gradient
    flow) or totals (gradient descent)."""

    times: Any
    params: dict[str, Any]
    measures: dict[str, Any]
    steps: Any
    rejected: Any
    nfev: int
    fixed_point_t: Any = None
    """(B,): the time at which the fixed-point test succeeded (the later times are the
    linearised flow from there), NaN where it did not (gradient flow only)."""


class _Recorder:
    def __init__(self, measures: Mapping[str, Callable[..., Any]] | None, keep_params: bool,
                 n_times: int, packing: _Packing, offset: int):  # fmt: skip
        self.offset = offset
        self.measures = dict(measures or {})
        self.keep = keep_params
        self.T = n_times
        self.packing = packing
        self.params: Any = None
        self.values: dict[str, Any] = {}

    def record(self, y: Any, rows: Any, j: Any) -> None:
        """Store the states ``y`` (k, N) of batch rows ``rows`` at time indices ``j``."""
        torch = _torch()
        B = self.packing.batch
        if self.keep:
            if self.params is None:
                self.params = torch.full((self.T, B, y.shape[1]), math.nan, dtype=y.dtype,
                                         device=y.device)  # fmt: skip
            self.params[j, rows] = y
        if self.measures:
            p = self.packing.unpack(y)
            for name, fn in self.measures.items():
                v = fn(p, rows + self.offset).detach()
                if name not in self.values:
                    self.values[name] = torch.full((self.T, B, *v.shape[1:]), math.nan,
                                                   dtype=v.dtype, device=v.device)  # fmt: skip
                self.values[name][j, rows] = v

    def params_dict(self) -> dict[str, Any]:
        if self.params is None:
            return {}
        T, B = self.params.shape[:2]
        flat = self.params.reshape(T * B, -1)
        return {k: v.reshape(T, B, *v.shape[1:]) for k, v in self.packing.unpack(flat).items()}
