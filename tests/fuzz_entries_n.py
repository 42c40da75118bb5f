"""Fuzz entries, group n (see tests/test_fuzz_every_entry_point.py): ``numerics.scale_out``
(the executor / device / cache / progress settings of the paper-scale sweeps, and seed
004's phase points measured under them).  The good calls are the smallest the parameters
allow (widths 3 and 4, one seed, a few steps, in process, no cache)."""

from __future__ import annotations

from typing import Any

import numpy as np
from fuzz_harness import Entry

from numerics import scale_out as so

_FEW = {"max_steps": 4, "check_every": 2, "tol": 0.12}
_CACHE = (
    "a path: every string names a directory (relative to the working directory, which "
    "the fuzz would fill with them); checked in test_scale_out_cli.py"
)


def _point_numbers(p: Any) -> Any:
    # NaN marks an excluded run in rd (documented, numerics.phase_diagram.PhasePoint)
    rd = [np.nan_to_num(v, nan=0.0, posinf=np.inf, neginf=-np.inf) for v in p.rd.values()]
    return [rd, p.widths, p.seeds, p.excluded]


ENTRIES: list[Entry] = [
    Entry("scale_out.ScaleOut", so.ScaleOut,
          lambda: {"executor": "local", "device": "cpu", "max_width": 1000, "max_seeds": 3},
          {"executor": "object", "device": "name", "progress": "flag", "max_width": "int",
           "max_seeds": "int"},
          numbers=lambda s: [], exempt={"cache_dir": _CACHE}),
    Entry("scale_out.check_device", so.check_device, lambda: {"device": "cpu"},
          {"device": "name"}, numbers=lambda d: []),
    Entry("scale_out.check_executor", so.check_executor,
          lambda: {"executor": "tcp://127.0.0.1:8786"}, {"executor": "object"},
          numbers=lambda e: []),
    Entry("scale_out.measure_points", lambda **kw: so.measure_points(**kw, **_FEW),
          lambda: {"points": [(0, 2.1)], "widths": [3, 4], "seeds": [0],
                   "scale_out": so.ScaleOut(device="cpu")},
          {"points": "object", "widths": "vector", "seeds": "vector", "scale_out": "object",
           "normalised_lr": "flag", "extra": "object", "extra_runs": "object",
           "chunk": "int"},
          numbers=lambda ps: [_point_numbers(p) for p in ps]),
]  # fmt: skip

EXEMPT: dict[str, str] = {}
