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

import numpy as np

import solvable
from numerics.torch_flow.checks import _torch
from numerics.torch_flow.layout import _Packing
from solvable._core.states import check_index


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

    def states(self, setup: Any, params0: Mapping[str, Any], element: int = 0) -> Any:
        """Batch element ``element``'s trajectory as its model's ``States`` (what
        :func:`numerics.simulate` and ``closed_form(...).sample`` return: float64 arrays with
        a leading time axis, ``.at(k)`` for one ``State``), measured from the kept weights.

        ``setup``: the model's setup (the type :func:`numerics.simulate` dispatches on);
        ``params0``: the initial weights passed to the run (``(B, ...)`` per block; a block
        that does not train is read from here); needs the weights kept
        (``keep_params=True``)."""
        system = _system_of(setup)
        if not self.params:
            raise ValueError("states() needs the weights: run with keep_params=True")
        if not isinstance(params0, Mapping):
            raise TypeError(f"params0 must be the dict of initial weights by block, got "
                            f"{type(params0).__name__}")  # fmt: skip
        missing = [b for b in self.params if b not in params0]
        if missing:  # (the start of every block the run integrated: measures relative to it)
            raise ValueError(f"params0 has no block {missing[0]!r} of the run (its blocks: "
                             f"{', '.join(self.params)})")  # fmt: skip
        T, B = next(iter(self.params.values())).shape[:2]
        element = check_index(element, B, "element", "batch elements")

        def row(source: Mapping[str, Any], *index: int) -> dict[str, Any]:
            return {b: _numpy(source[b][index]) for b in system.blocks if b in source}

        initial = row(params0, element)
        times = self.times if self.times.ndim == 1 else self.times[:, element]
        records = []
        for k in range(T):
            weights = {**initial, **row(self.params, k, element)}
            try:
                records.append(system.state(setup, float(times[k]), weights, None))
            except KeyError as exc:  # a block neither kept by the run nor in params0
                raise ValueError(f"params0 has no block {exc.args[0]!r} of "
                                 f"{type(setup).__name__}'s system (blocks: "
                                 f"{', '.join(system.blocks)})") from None  # fmt: skip
        return system.stack(setup, records, initial, None)


def _system_of(setup: Any) -> Any:
    """The :class:`solvable.System` that simulates ``setup`` (as :func:`numerics.systems`)."""
    table = {s.setup_type: s for m in solvable.MODELS for s in m.systems}
    system = table.get(type(setup))
    if system is None:
        names = ", ".join(t.__qualname__ for t in table)
        raise TypeError(f"setup must be one of {names}; got {type(setup).__name__}")
    return system


def _numpy(v: Any) -> Any:
    """A tensor (any device) or array-like as a float64 numpy array."""
    if hasattr(v, "detach"):
        v = v.detach().cpu().numpy()
    return np.asarray(v, dtype=float)


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
