"""Fuzz entries, group h (see tests/test_fuzz_every_entry_point.py): the exact kernel
measures (issue 31, item 4): solvable.kernel_distance / kernel_norm_change / task_alignment /
kernel_path, kunin.neuron_kernel and kunin.limit_kernel_distance."""

from __future__ import annotations

from fuzz_harness import Entry

import solvable
from solvable.models import kunin

_X = [[1.0, 0.0], [0.0, 1.0]]
_SETUP = kunin.Setup(eta_a=1.0, eta_w=2.0, X=_X, y=[1.0, 0.5])
_TRAJ = kunin.closed_form(_SETUP, 0.5, [0.2, -0.1])
_WIDE = kunin.WideSetup(eta_a=1.0, eta_w=2.0, X=_X, Y=[[1.0], [0.5]])
_WTRAJ = kunin.wide_closed_form(_WIDE, [[1.0]], [[0.2, 0.1]])


def _K0() -> list[list[float]]:
    return [[2.0, 1.0], [1.0, 3.0]]


def _Kt() -> list[list[float]]:
    return [[1.0, -0.5], [-0.5, 4.0]]


def _path_numbers(out):  # t = inf is a valid time: the measures must be finite
    return (out.distance, out.norm_change, out.alignment)


ENTRIES = [
    Entry("solvable.kernel_distance", solvable.kernel_distance,
          lambda: {"K0": _K0(), "Kt": _Kt()}, {"K0": "matrix", "Kt": "matrix"}),
    Entry("solvable.kernel_norm_change", solvable.kernel_norm_change,
          lambda: {"K0": _K0(), "Kt": _Kt()}, {"K0": "matrix", "Kt": "matrix"}),
    Entry("solvable.task_alignment", solvable.task_alignment,
          lambda: {"K": _Kt(), "y": [1.0, -0.5]}, {"K": "matrix", "y": "vector"}),
    Entry("solvable.kernel_path", solvable.kernel_path,
          lambda: {"trajectory": _WTRAJ, "times": [0.0, 1.0], "kernel": None,
                   "y": [[1.0], [0.5]]},
          {"trajectory": "object", "times": "times", "kernel": "object", "y": "matrix"},
          numbers=_path_numbers),
    Entry("kunin.neuron_kernel", kunin.neuron_kernel, lambda: {"setup": _SETUP},
          {"setup": "object"}, numbers=lambda out: out(_TRAJ.at(1.0))),
    Entry("kunin.limit_kernel_distance", kunin.limit_kernel_distance,
          lambda: {"trajectory": _TRAJ}, {"trajectory": "object"}),
]  # fmt: skip

EXEMPT: dict[str, str] = {
    "solvable.KernelPath": "output record of kernel_path (which is fuzzed)",
}
