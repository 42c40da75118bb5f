"""Seed 003 (Kunin et al.), the raw flows as :mod:`numerics` simulates them: one
:class:`~solvable._core.model.System` per network (:class:`SingleNeuronSystem`,
:class:`WideLinearSystem`, :class:`PiecewiseLinearSystem`; ``SYSTEMS``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.backends import torch_module
from solvable._core.flows import GradientFlow
from solvable._core.model import System
from solvable._core.states import StackedStates
from solvable.models.kunin.cases import case
from solvable.models.kunin.flows import flow, piecewise_linear_flow, wide_flow
from solvable.models.kunin.losses import _loss, _piecewise_linear_loss, _wide_loss
from solvable.models.kunin.setups import (
    PiecewiseLinearSetup,
    Setup,
    WideSetup,
    _arrays,
    _check_weights,
)
from solvable.models.kunin.states import PiecewiseLinearState, State, States, WideState, _relu


# ---------------------------------------------------------------------------
# The raw flows as numerics simulates them
# ---------------------------------------------------------------------------
def _torch_data(setup: Any, like: Any) -> tuple[Any, Any]:
    torch = torch_module()
    X, T = _arrays(setup, None)
    return (torch.as_tensor(X, dtype=like.dtype, device=like.device),
            torch.as_tensor(T, dtype=like.dtype, device=like.device))  # fmt: skip


def _data(setup: Any, backend: str, like: Any) -> dict[str, Any]:
    X, T = _torch_data(setup, like) if backend == "torch" else _arrays(setup, None)
    return {"X": X, "targets": T}


class _KuninSystem(System):
    """The shared parts of the three Part I / II systems (rates eta_a, eta_w; data X and
    the targets)."""

    def flow_parameters(self, setup: Any, convert: Callable[[Any], Any]) -> list[Any]:
        targets = setup.Y if isinstance(setup, WideSetup) else setup.y
        flat = [v for row in setup.X for v in row]
        tflat = [v for r in targets for v in (r if isinstance(r, tuple) else (r,))]
        return [convert(v) for v in (setup.eta_a, setup.eta_w, *flat, *tflat)]

    def rates(self, setup: Any) -> dict[str, float]:
        return {self.blocks[0]: float(setup.eta_a), self.blocks[1]: float(setup.eta_w)}

    def data(self, setup: Any, backend: str, like: Any = None) -> dict[str, Any]:
        return _data(setup, backend, like)


class SingleNeuronSystem(_KuninSystem):
    """Part I: blocks ``a`` (a scalar) and ``w`` (d,)."""

    setup_type = Setup
    blocks = ("a", "w")

    def example(self) -> tuple[Setup, Any, Any]:
        c = case("upstream")
        return c.setup, c.a0, c.w0

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        a0, w0 = _check_weights(setup, out0, in0)
        return {"a": np.array(a0, dtype=object), "w": np.array(w0, dtype=object)}

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return flow(setup.n, setup.d)

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        return _loss(params["a"], params["w"], data["X"], data["targets"])

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        return State.from_weights(setup, t, params["a"], params["w"], dps=dps)

    def stack(
        self, setup: Setup, states: Sequence[State], initial: Mapping[str, Any], dps: int | None
    ) -> States:
        """The simulated states as :class:`States` (what ``closed_form(...).sample``
        returns), with ``delta`` measured at each time, ``(T,)``."""
        return States(**StackedStates.stack(states).arrays())


class WideLinearSystem(_KuninSystem):
    """Part II: blocks ``A`` (h, c) and ``W`` (h, d)."""

    setup_type = WideSetup
    blocks = ("A", "W")

    def example(self) -> tuple[WideSetup, Any, Any]:
        X = (("0.6", "0.8"), ("-0.8", "0.6"), ("0", "0"))
        setup = WideSetup("1", "0.5", X, (("1", "0.2"), ("-0.5", "0.4"), ("2", "0")))
        return setup, (("0.3", "-0.1"), ("0.2", "0.4")), (("0.1", "-0.2"), ("0.5", "0.3"))

    def initial(self, setup: WideSetup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        A0 = nb.check_matrix("A0", out0, (None, setup.c))
        W0 = nb.check_matrix("W0", in0, (len(A0), setup.d))
        return {"A": np.array(A0, dtype=object), "W": np.array(W0, dtype=object)}

    def flow(self, setup: WideSetup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return wide_flow(setup.n, setup.d, shapes["A"][0], setup.c)

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        return _wide_loss(params["A"], params["W"], data["X"], data["targets"])

    def state(self, setup: WideSetup, t: Any, params: Mapping[str, Any],
              dps: int | None) -> WideState:  # fmt: skip
        return WideState.from_weights(setup, t, params["A"], params["W"], dps=dps)


class PiecewiseLinearSystem(_KuninSystem):
    """Part II: the ReLU network, blocks ``a`` (h,) and ``W`` (h, d); not polynomial (the
    mpmath Taylor integrator does not apply)."""

    setup_type = PiecewiseLinearSetup
    blocks = ("a", "W")

    def polynomial(self, setup: PiecewiseLinearSetup) -> bool:
        return False

    def example(self) -> tuple[PiecewiseLinearSetup, Any, Any]:
        X = (("1", "0.5"), ("-0.5", "1"), ("0.3", "-1"))
        setup = PiecewiseLinearSetup("1", "0.4", X, ("0.8", "0.3", "-0.2"))
        return setup, ("0.5", "-0.7"), (("0.6", "0.2"), ("-0.3", "0.9"))

    def initial(self, setup: PiecewiseLinearSetup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        a0 = nb.check_vector("a0", out0)
        W0 = nb.check_matrix("W0", in0, (len(a0), setup.d))
        return {"a": np.array(a0, dtype=object), "W": np.array(W0, dtype=object)}

    def flow(self, setup: PiecewiseLinearSetup,
             shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:  # fmt: skip
        return piecewise_linear_flow(setup.n, setup.d, shapes["a"][0], region=False)

    def data(self, setup: Any, backend: str, like: Any = None) -> dict[str, Any]:
        return {**_data(setup, backend, like), "sigma": _relu(backend)}

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        return _piecewise_linear_loss(params["a"], params["W"], data["X"], data["targets"],
                                     data["sigma"])  # fmt: skip

    def state(self, setup: PiecewiseLinearSetup, t: Any, params: Mapping[str, Any],
              dps: int | None) -> PiecewiseLinearState:  # fmt: skip
        return PiecewiseLinearState.from_weights(setup, t, params["a"], params["W"], dps=dps)


SYSTEMS = (SingleNeuronSystem(), WideLinearSystem(), PiecewiseLinearSystem())
