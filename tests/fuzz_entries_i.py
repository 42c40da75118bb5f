"""Fuzz entries, group i (see tests/test_fuzz_every_entry_point.py): deep_linear."""

from __future__ import annotations

from typing import Any

from fuzz_harness import Entry

from solvable.models import deep_linear as dl
from solvable.verification import testing

_X = [[1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [1.0, 1.0, -1.0], [1.0, -1.0, -1.0]]  # X^T X = 4 I
_Y = [[0.3, -1.2], [0.8, 0.1], [-0.5, 0.7], [1.1, 0.4]]
_DL = {"rates": [1.0, 0.5, 2.0], "X": _X, "Y": _Y}
_SETUP = dl.Setup(**_DL)
_W = dl.spectral_start(_SETUP, [0.05, 0.02], (2, 2))
_TRAJ = dl.closed_form(_SETUP, _W)
_SETUP2 = dl.Setup([1.0, 0.5], _X, _Y)
_W2 = dl.spectral_start(_SETUP2, [0.05, 0.02])
_W2[0][0, :] *= 3.0  # unbalanced: a single neuron per mode
_W2[1][:, 0] /= 3.0
_TRAJ2 = dl.closed_form(_SETUP2, _W2)


def _state(st: Any) -> list[Any]:
    return [*st.weights, st.f, st.loss]


def _weights() -> list[Any]:
    return [w.copy() for w in _W]


ENTRIES: list[Entry] = [
    Entry("deep_linear.Setup", dl.Setup, lambda: dict(_DL),
          {"rates": "vector", "X": "matrix", "Y": "matrix"}),
    Entry("deep_linear.closed_form", dl.closed_form,
          lambda: {"setup": _SETUP, "weights": _weights()},
          {"setup": "object", "weights": "object", "dps": "dps", "rtol": "scalar"},
          numbers=lambda tr: _state(tr.at(1.0))),
    Entry("deep_linear.spectral_start", dl.spectral_start,
          lambda: {"setup": _SETUP, "strengths": [0.05, 0.02], "widths": (2, 2)},
          {"setup": "object", "strengths": "vector", "widths": "object", "dps": "dps"}),
    Entry("deep_linear.SpectralTrajectory.at", _TRAJ.at, lambda: {"t": 1.0}, {"t": "scalar"},
          numbers=_state),
    Entry("deep_linear.SpectralTrajectory.sample", _TRAJ.sample, lambda: {"times": [0.5, 1.0]},
          {"times": "times"}, numbers=lambda s: [s.loss, s.f]),
    Entry("deep_linear.SpectralTrajectory.strengths", _TRAJ.strengths, lambda: {"t": 1.0},
          {"t": "scalar"}),
    Entry("deep_linear.TwoLayerTrajectory.at", _TRAJ2.at, lambda: {"t": 1.0}, {"t": "scalar"},
          numbers=_state),
    Entry("deep_linear.TwoLayerTrajectory.sample", _TRAJ2.sample,
          lambda: {"times": [0.5, 1.0]}, {"times": "times"}, numbers=lambda s: [s.loss, s.f]),
    Entry("deep_linear.network_kernel", dl.network_kernel, lambda: {"setup": _SETUP},
          {"setup": "object"}, numbers=lambda kernel: kernel(_TRAJ.at(1.0))),
    Entry("testing.deep_linear", testing.deep_linear,
          lambda: {"setup": _SETUP, "weights": _weights()},
          {"setup": "object", "weights": "object"}, numbers=lambda o: []),
]  # fmt: skip

_RECORD = "output record: built by the package, users do not construct it"
EXEMPT: dict[str, str] = {
    "deep_linear.Mode": _RECORD + " (closed_form's modes; closed_form is fuzzed)",
    "deep_linear.NeuronMode": _RECORD + " (the two-layer modes; closed_form is fuzzed)",
    "deep_linear.State": _RECORD + " (of .at / .sample and numerics.simulate, all fuzzed)",
    "deep_linear.SpectralTrajectory": "output record of closed_form (.at / .sample fuzzed)",
    "deep_linear.TwoLayerTrajectory": "output record of closed_form (.at / .sample fuzzed)",
}
