"""Seed 001's raw flow as ``numerics.simulate`` integrates it
(:class:`TwoLayerLinearSystem`, eqs. (4), (5)), and the conditioning of the problem
(:func:`manifold_condition`: the amplification of a perturbation off the invariant manifolds
P = 0 / Q = 0 of Theorem 1 and Proposition 1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.backends import torch_module
from solvable._core.flows import GradientFlow
from solvable._core.model import System
from solvable.models.xu_ziyin.cases import case
from solvable.models.xu_ziyin.coordinates import pq_coordinates
from solvable.models.xu_ziyin.network import _loss
from solvable.models.xu_ziyin.raw_flow import flow
from solvable.models.xu_ziyin.setups import Setup, _check_weights, _is_plus_inf
from solvable.models.xu_ziyin.trajectory import State, States


# ---------------------------------------------------------------------------
# The raw flow as numerics simulates it, and the conditioning of the problem
# ---------------------------------------------------------------------------
class TwoLayerLinearSystem(System):
    """Eqs. (4)-(5) for :func:`numerics.simulate`: blocks ``u`` (d,) and ``W`` (d, d0)."""

    setup_type = Setup
    blocks = ("u", "W")

    def example(self) -> tuple[Setup, Any, Any]:
        c = case("generic")
        return c.setup, c.u0, c.W0

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        u0, W0 = _check_weights(setup, out0, in0)
        return {"u": np.array(u0, dtype=object), "W": np.array(W0, dtype=object)}

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return flow(shapes["u"][0], setup.d0)

    def flow_parameters(self, setup: Setup, convert: Callable[[Any], Any]) -> list[Any]:
        return [convert(v) for v in (setup.eta_u, setup.eta_w, setup.gamma, setup.y, *setup.x)]

    def rates(self, setup: Setup) -> dict[str, float]:
        return {"u": float(setup.eta_u), "W": float(setup.eta_w)}

    def data(self, setup: Setup, backend: str, like: Any = None) -> dict[str, Any]:
        x = np.array([float(v) for v in setup.x])
        if backend == "torch":
            torch = torch_module()
            x = torch.as_tensor(x, dtype=like.dtype, device=like.device)
        return {"x": x, "y": float(setup.y), "gamma": float(setup.gamma)}

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        return _loss(params["u"], params["W"], data["x"], data["y"], data["gamma"])

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        return State._measure(setup, t, params["u"], params["W"], dps)

    def stack(
        self, setup: Setup, states: Sequence[State], initial: Mapping[str, Any], dps: int | None
    ) -> States:
        """The simulated states as :class:`States` (what ``closed_form(...).sample``
        returns), ``alpha(t)`` measured from the coordinates of eq. (6):
        ``sum_i p_i(t)^2 = d P alpha`` and ``sum_i q_i(t)^2 = d Q / alpha`` (Theorem 1), so
        ``alpha = sum p(t)^2 / sum p(0)^2`` where ``P > 0``, ``sum q(0)^2 / sum q(t)^2``
        where ``P = 0 < Q``, and ``nan`` where both vanish (the weights do not define it)."""
        dtype = object if dps is not None else float
        with nb.Precision(dps):
            p0, q0 = (np.sum(c * c) for c in pq_coordinates(setup, initial["u"], initial["W"],
                                                             dps=dps))  # fmt: skip
            alphas = []
            for s in states:
                p, q = pq_coordinates(setup, s.u, s.W, dps=dps)
                if p0 != 0:
                    alphas.append(np.sum(p * p) / p0)
                elif q0 != 0:
                    alphas.append(q0 / np.sum(q * q))
                else:  # p = q = 0 at every time: alpha is not defined by the weights
                    alphas.append(math.nan if dps is None else mpmath.nan)
        if dps is not None:
            with mpmath.workdps(dps):
                alphas = [+a for a in alphas]
        field = {name: np.array([getattr(s, name) for s in states], dtype=dtype)
                 for name in ("t", "f", "alignment", "ntk", "loss")}  # fmt: skip
        return States(u=np.array([s.u for s in states], dtype=dtype),
                      W=np.array([s.W for s in states], dtype=dtype),
                      alpha=np.array(alphas, dtype=dtype), **field)  # fmt: skip


SYSTEM = TwoLayerLinearSystem()


def manifold_condition(P: float, Q: float, alpha: float) -> float:
    """Amplification of a float64 perturbation of the initial state at the time where
    the closed form has ``alpha(t) = alpha`` (Theorem 1), for any integrator.

    Off the invariant manifolds P = 0 / Q = 0 an error eps in the p (q) direction grows
    like ``e^{|log alpha|/2}`` while the state shrinks like ``e^{-|log alpha|/2}``:
    ``kappa = sqrt((P + Q) max(alpha, 1/alpha) / (P alpha + Q / alpha))``; 1 + O(1) for
    comparable P, Q > 0, ``alpha`` for P = 0 (the flow into the saddle of Proposition 1).
    ``P, Q >= 0`` finite, ``0 <= alpha <= inf`` (an alpha that under- or overflowed):
    ``kappa = inf`` exactly on an invariant manifold at its end (``alpha = 0`` with ``Q = 0``,
    ``alpha = inf`` with ``P = 0``); a finite ``kappa`` beyond the float64 range is a
    ``ValueError``.
    """
    P, Q = (
        nb.to_float(nb.check_number(k, v, nonnegative=True), k) for k, v in (("P", P), ("Q", Q))
    )
    if not _is_plus_inf(alpha):
        alpha = nb.to_float(nb.check_number("alpha", alpha, nonnegative=True), "alpha")
    alpha = float(alpha)
    if P + Q == 0:
        return 1.0
    # kappa depends on P/Q only: scaled to max(P, Q) = 1 (no overflow of P + Q); the same
    # ratio without dividing by alpha (alpha may underflow to 0 or overflow)
    p, q = P / max(P, Q), Q / max(P, Q)
    den = p * alpha * alpha + q if alpha <= 1 else p + q / (alpha * alpha)
    if 2.0**-1000 <= den:
        return float(np.sqrt((p + q) / den))
    # den under- or near-underflows: from the exact P, Q (p or q may be a subnormal quotient,
    # rounded to fewer bits), in 30 digits, then rounded once
    with mpmath.workdps(30):
        a, Pm, Qm = mpmath.mpf(alpha), mpmath.mpf(P), mpmath.mpf(Q)
        den = Pm * a * a + Qm if alpha <= 1 else Pm + Qm / (a * a)
        if den == 0:
            return math.inf
        kappa = mpmath.sqrt((Pm + Qm) / den)
        out = float(kappa)
    if not math.isfinite(out):
        raise ValueError(f"the condition number for P = {P!r}, Q = {Q!r}, alpha = {alpha!r} is "
                         f"{mpmath.nstr(kappa, 6)}, beyond the float64 range")  # fmt: skip
    return out
