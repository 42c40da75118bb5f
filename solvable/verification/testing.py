"""The exact solutions as pytest oracles for users' own training and kernel code.

Every exact solution of the package checks a trajectory (or a Gram matrix) that a user's
code produced, with validated inputs, a stated tolerance and a failure message that says
where and by how much the trajectory left the exact one::

    from solvable.verification import testing
    oracle = testing.xu_ziyin(setup, u0, W0)          # seed 001, Theorem 1 / Proposition 1
    oracle.check(times, us, Ws)                       # exact flow (an ODE solver, tiny steps)
    oracle.check(times, us, Ws, lr=1e-3)              # gradient descent, t = k * lr

    testing.kunin(setup, a0, w0)                      # seed 003, single neuron (a, w)
    testing.kunin_wide(setup, A0, W0)                 # seed 003, wide net: W^T A, A^T A, W^T W
    testing.linear_node_scaling(setup, a0, W0)        # seed 000, Theorem 7.4 (W; a fixed)
    testing.deep_linear(setup, (W1, ..., WL))         # deep linear, balanced aligned start
    testing.kernel("ntk", init, X).check(K)           # seed 002: your Gram matrix
    testing.kernel("ntk", init, X).check_samples(Ks)  # ... or its Monte Carlo estimates

The pytest plugin (:mod:`solvable.verification.pytest_plugin`, registered through the ``pytest11``
entry point) hands these out as the fixture ``solvable_oracle`` (an :class:`Oracle`) and the
named edge cases of the models as ``solvable_edge_case`` (:class:`EdgeCase`).

Time convention (every model): the flow is ``d theta/dt = -eta_block dL/dtheta`` with the
learning rate ``eta_block`` of each block in the setup (``eta_u, eta_w``; ``eta_a, eta_w``;
``eta``).  Gradient descent ``theta_{k+1} = theta_k - lr * eta_block * dL/dtheta(theta_k)``
is its explicit Euler method with step ``lr`` in flow time: ``times[k] = k * lr``.  A trainer
with per-layer step sizes ``h_u, h_w`` is this with ``lr = h_u / eta_u = h_w / eta_w``
(choose the setup's rates in the ratio of the step sizes).

Tolerance: block ``b`` at time ``t`` passes when ``max|got_b - exact_b| <= atol + rtol
max|exact_b| + A_b(t)``: normwise, as :mod:`solvable._core.tolerance`; errors are reported
in units of that allowance (pass: ``<= 1``).  ``A_b = 0`` for the exact flow;
``lr=`` adds the gradient-descent allowance of :func:`gd_allowance`.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

import solvable
from solvable._core import numbers as nb
from solvable._core.model import System
from solvable._core.papers import cite
from solvable._core.tolerance import (
    Tolerance,
    error_in_units,
)
from solvable.models import deep_linear as _dl
from solvable.models import kunin as _kn
from solvable.models import linear_node_scaling as _lns
from solvable.models import node_scaling as ns
from solvable.models import xu_ziyin as _xz
from solvable.verification.gradient_descent import (
    GD_SAFETY,
    GD_STEP_LIMIT,
    _check_steps,
    first_order,
    gd_allowance,
)
from solvable.verification.kernel_oracle import KernelOracle, kernel
from solvable.verification.kernel_oracle import KernelReport as KernelReport
from solvable.verification.oracle_inputs import (
    _check_atol,
    _check_block,
    _check_lr,
    _check_rtol,
    _check_times,
)
from solvable.verification.oracle_notes import OracleNotes
from solvable.verification.reports import OracleWarning, Report, _blockmax, _units

__all__ = [
    "GD_SAFETY",
    "GD_STEP_LIMIT",
    "EdgeCase",
    "KernelOracle",
    "Oracle",
    "OracleWarning",
    "Report",
    "TrajectoryOracle",
    "assert_matches_closed_form",
    "deep_linear",
    "edge_case",
    "edge_cases",
    "gd_allowance",
    "kernel",
    "kunin",
    "kunin_wide",
    "linear_node_scaling",
    "state_errors",
    "xu_ziyin",
]

_REFERENCE_DPS = 30  # digits of the reference for rtol < _FLOAT64_RTOL
_FLOAT64_RTOL = 1e-10  # float64 closed forms are confirmed to ~1e-13 (their claims): a factor
# 1000 of margin; below it the reference is evaluated at _REFERENCE_DPS digits


# ---------------------------------------------------------------------------
# trajectory oracles
# ---------------------------------------------------------------------------
def _system(setup: Any) -> System:
    for model in solvable.MODELS:
        for system in model.systems:
            if type(setup) is system.setup_type:
                return system
    raise TypeError(f"no system simulates {type(setup).__name__}")  # pragma: no cover


class TrajectoryOracle(OracleNotes):
    """An exact gradient-flow solution as the oracle of a user's trajectory.

    ``blocks``: what is compared, with its shapes; ``inputs``: the trained weights, in the
    order :meth:`check` takes them, with their shapes (default: the blocks themselves; an
    oracle that compares functions of the weights maps them with :meth:`_compared`);
    ``model`` and ``source`` name the solution (paper and theorem)."""

    model: str = ""
    source: str = ""

    def __init__(self, setup: Any, out0: Any, in0: Any, trajectory: Any,
                 blocks: Mapping[str, tuple[int, ...]],
                 inputs: Mapping[str, tuple[int, ...]] | None = None) -> None:  # fmt: skip
        self.setup = setup
        self.trajectory = trajectory
        self.blocks = dict(blocks)
        self.inputs = dict(blocks if inputs is None else inputs)
        self._system = _system(setup)
        self._data = self._system.data(setup, "numpy")
        self._out0, self._in0 = out0, in0

    # -- per model ---------------------------------------------------------
    def _weights(self, blocks: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """All of the system's parameters (adds fixed blocks)."""
        return dict(blocks)

    def _compared(self, weights: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The compared blocks from the trained weights (``inputs``, leading time axis)."""
        return dict(weights)

    def _linearised(self, errors: Mapping[str, np.ndarray],
                    weights: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:  # fmt: skip
        """The first-order errors ``lr e`` of the compared blocks from those of the weights
        (``errors``) at the flow's ``weights`` (both per input, leading time axis)."""
        return dict(errors)

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        """The network output(s) on the data from weights with a leading time axis."""
        raise NotImplementedError

    # -- shared --------------------------------------------------------------
    def exact(self, times: Any, *, dps: int | None = None) -> dict[str, np.ndarray]:
        """The exact blocks at ``times`` (float64 arrays with a leading time axis; ``dps``:
        evaluated with mpmath at ``dps`` digits, then rounded to float64)."""
        ts = _check_times(times, allow_inf=True)
        out = self._sample(ts.tolist(), dps)
        return {b: np.asarray(v, dtype=float).reshape(len(ts), *self.blocks[b])
                for b, v in out.items()}  # fmt: skip

    def loss(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        """The model's loss (its one definition) from weights with a leading time axis."""
        return np.asarray(self._system.loss(self._weights(weights), self._data), dtype=float)

    def _resolve(self, arrays: tuple[Any, ...], named: Mapping[str, Any]) -> dict[str, Any]:
        names = list(self.inputs)
        if len(arrays) > len(names):
            raise TypeError(f"{self.model} has {len(names)} blocks {names}, got "
                            f"{len(arrays)} arrays")  # fmt: skip
        given = dict(zip(names, arrays, strict=False))
        for k, v in named.items():
            if k not in names:
                raise TypeError(f"unknown block {k!r}: {self.model}'s blocks are {names}")
            if k in given:
                raise TypeError(f"block {k!r} given twice")
            given[k] = v
        missing = [b for b in names if b not in given]
        if missing:
            raise TypeError(f"missing block(s) {missing} ({self.model}'s blocks: {names})")
        return given

    def compare(self, times: Any, *arrays: Any, lr: Any = None, rtol: Any = 1e-6,
                atol: Any = 0.0, **named: Any) -> Report:  # fmt: skip
        """The :class:`Report` of a trajectory ``arrays[b][k]`` at ``times[k]`` (blocks in
        the order of ``inputs``, positional or by name), without raising on a mismatch.

        ``lr``: the trajectory is gradient descent with step ``lr`` in flow time (``times``
        must be multiples ``k * lr``); the allowance grows by :func:`gd_allowance`."""
        __tracebackhide__ = True  # pytest: the user's line, not the oracle's frames
        return self._compare(times, self._resolve(arrays, named), lr, rtol, atol, {})

    def _compare(self, times: Any, given: Mapping[str, Any], lr: Any, rtol: Any, atol: Any,
                 labels: Mapping[str, str]) -> Report:  # fmt: skip
        """:meth:`compare` of the blocks ``given``; ``labels``: the argument names of the
        blocks in messages (default ``"u (xu_ziyin block)"``)."""
        __tracebackhide__ = True
        rtol, atol, lr = _check_rtol(rtol), _check_atol(atol), _check_lr(lr)
        ts = _check_times(times, allow_inf=lr is None)
        if lr is not None:
            with np.errstate(over="ignore"):  # a tiny lr: k = inf
                k = ts / lr
            _check_steps(float(np.max(k)))
            off = np.abs(k - np.round(k))
            if np.any(off > 1e-6 * np.maximum(1.0, k)):  # float t = k * lr or a running sum
                j = int(np.argmax(off > 1e-6 * np.maximum(1.0, k)))
                raise ValueError(
                    f"times must be multiples k * lr of lr = {lr:.6g} (gradient "
                    f"descent's time), got times[{j}] = {float(ts[j])!r} = {k[j]:.6g} lr"
                )
        got = {b: _check_block(labels.get(b, f"{b} ({self.model} block)"), given[b],
                               (len(ts), *shape)) for b, shape in self.inputs.items()}  # fmt: skip
        got = self._compared(got)
        dps = None if rtol >= _FLOAT64_RTOL else _REFERENCE_DPS
        ref = self.exact(ts, dps=dps)
        n = len(ts)
        extra = {b: np.zeros(n) for b in self.blocks}
        first, step = None, 0.0
        if lr is not None:
            extra, first, step = self._gd_terms(ts, lr)
        base = {b: atol + rtol * _blockmax(ref[b], n) for b in self.blocks}
        errors, diffs, allowed = {}, {}, {}
        for b in self.blocks:  # every block, each against its own allowance
            diffs[b] = _blockmax(got[b] - ref[b], n)
            allowed[b] = base[b] + extra[b]
            errors[b] = _units(diffs[b], allowed[b])
        notes = self._notes(ts, got, ref, allowed, dps, lr)
        if first is not None:
            notes += self._update_rule_note(ts, got, ref, base, extra, first, step)
        with np.errstate(over="ignore"):  # diverged weights: their output and loss may be inf
            got_f, got_l = self.output(got), self.loss(got)
        ref_f, ref_l = self.output(ref), self.loss(ref)
        return Report(self.model, self.source, ts, errors, diffs, allowed, ref_f, got_f, ref_l,
                      got_l, rtol, atol, lr, notes)  # fmt: skip

    def check(self, times: Any, *arrays: Any, lr: Any = None, rtol: Any = 1e-6,
              atol: Any = 0.0, **named: Any) -> Report:  # fmt: skip
        """Assert that the trajectory follows the exact solution (see :meth:`compare`):
        ``AssertionError`` with the first failing time, every block's error in units of the
        tolerance and the exact and actual output and loss there; the report otherwise."""
        __tracebackhide__ = True  # pytest: the user's line, not the oracle's frames
        return self._verdict(self.compare(times, *arrays, lr=lr, rtol=rtol, atol=atol, **named))

    def _verdict(self, report: Report) -> Report:
        """``report``, or ``AssertionError`` when it failed; its notes as warnings (at the
        line of the caller of :meth:`check`)."""
        __tracebackhide__ = True
        if not report.passed:
            raise AssertionError(str(report))
        for note in report.notes:
            warnings.warn(f"{self.model}: the trajectory passes, but {note}", OracleWarning,
                          stacklevel=3)  # fmt: skip
        return report

    def _gd_terms(self, ts: np.ndarray, lr: float
                  ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], float]:  # fmt: skip
        """``(allowance, first, lr max||J||)``: per block the gradient-descent allowance
        ``GD_SAFETY`` times the running max of ``lr max|e|``, and the signed first-order
        error ``lr e(t)`` with the block's shape."""
        system = self._system
        weights = system.initial(self.setup, self._out0, self._in0)
        flow = system.flow(self.setup, {b: w.shape for b, w in weights.items()})
        params = system.flow_parameters(self.setup, float)
        y0 = [float(v) for v in flow.pack(weights)]
        E, step, theta = first_order(flow, params, y0, ts, lr)
        if step > GD_STEP_LIMIT:
            raise ValueError(
                f"lr = {lr:.6g} is too large for the first-order gradient-descent allowance: "
                f"lr * max||J|| = {step:.3g} > GD_STEP_LIMIT = {GD_STEP_LIMIT} (J the "
                f"Jacobian of the flow); use a smaller step or compare at a smaller lr"
            )
        spans = {name: span for (name, _), span in zip(flow.blocks, flow.spans(), strict=True)}
        n, out = len(ts), {}
        per = {b: spans[b] for b in self.inputs}
        first = self._linearised(
            {b: E[:, lo:hi].reshape(n, *self.inputs[b]) for b, (lo, hi) in per.items()},
            {b: theta[:, lo:hi].reshape(n, *self.inputs[b]) for b, (lo, hi) in per.items()},
        )
        for b in self.blocks:
            per_time = _blockmax(first[b], n)
            # running max over the given times (sorted): robust where e(t) crosses zero and
            # the O(lr^2) term is all there is
            order = np.argsort(ts, kind="stable")
            run = np.maximum.accumulate(per_time[order])
            allow = np.empty_like(run)
            allow[order] = run
            out[b] = GD_SAFETY * allow
        return out, first, step


class _XuZiyin(TrajectoryOracle):
    model = "xu_ziyin"
    source = f"{cite('001')}, Theorem 1 / Proposition 1"

    def __init__(self, setup: _xz.Setup, u0: Any, W0: Any) -> None:
        traj = _xz.closed_form(setup, u0, W0)
        d = len(traj.u0)
        super().__init__(setup, u0, W0, traj, {"u": (d,), "W": (d, setup.d0)})

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        if dps is None:
            st = self.trajectory.sample(times)
        else:
            u0, W0 = self.trajectory._data["given"]
            st = _xz.closed_form(self.setup, u0, W0, dps=dps).sample(times)
        return {"u": st.u, "W": st.W}

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        d = self._data
        return np.asarray(_xz.network_output(weights["u"], weights["W"], d["x"],
                                                   d["gamma"]), dtype=float)  # fmt: skip


class _Kunin(TrajectoryOracle):
    model = "kunin"
    source = (
        f"{cite('003')}, single neuron, exact solution for X^T X = s I or an aligned "
        "start (X^T y and w0 outside ker X in one eigenspace of X^T X)"
    )

    def __init__(self, setup: _kn.Setup, a0: Any, w0: Any) -> None:
        traj = _kn.closed_form(setup, a0, w0)
        super().__init__(setup, a0, w0, traj, {"a": (), "w": (setup.d,)})
        self._given = (a0, w0)

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        traj = self.trajectory
        if dps is not None:
            traj = _kn.closed_form(self.setup, *self._given, dps=dps)
        st = traj.sample(times)
        return {"a": st.a, "w": st.w}

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        return np.asarray(_kn.output(weights["a"], weights["w"], self._data["X"]), dtype=float)


class _KuninWide(TrajectoryOracle):
    model = "kunin_wide"
    source = (
        f"{cite('003')}, Part II: the wide net f = A^T W x, exact for X^T X = s I and Delta "
        "= eta_w A A^T - eta_a W W^T = delta I_h (every shape the balance allows)"
    )

    def __init__(self, setup: _kn.WideSetup, A0: Any, W0: Any) -> None:
        traj = _kn.wide_closed_form(setup, A0, W0)
        h, c, d = traj.h, setup.c, setup.d
        blocks = {"beta": (d, c), "gram_a": (c, c), "gram_w": (d, d)}
        if traj.at(0.0).A is not None:  # h = 1 or a start that decouples by modes
            blocks.update(A=(h, c), W=(h, d))
        super().__init__(setup, A0, W0, traj, blocks, {"A": (h, c), "W": (h, d)})
        self._eye = np.eye(d)

    def _compared(self, weights: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        A, W = weights["A"], weights["W"]
        out = {"beta": _T(W) @ A, "gram_a": _T(A) @ A, "gram_w": _T(W) @ W}
        return {b: weights[b] if b in weights else out[b] for b in self.blocks}

    def _linearised(self, errors: Mapping[str, np.ndarray],
                    weights: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:  # fmt: skip
        # the product rule: d(W^T A) = dW^T A + W^T dA, ... (errors and weights in one frame)
        (A, W), (eA, eW) = (weights["A"], weights["W"]), (errors["A"], errors["W"])
        out = {"beta": _T(eW) @ A + _T(W) @ eA, "gram_a": _T(eA) @ A + _T(A) @ eA,
               "gram_w": _T(eW) @ W + _T(W) @ eW}  # fmt: skip
        return {b: errors[b] if b in errors else out[b] for b in self.blocks}

    def _weights(self, blocks: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"A": blocks["beta"], "W": self._eye}  # f = beta^T x: the loss of (beta, I_d)

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        traj = self.trajectory
        if dps is not None:
            traj = _kn.wide_closed_form(self.setup, self._out0, self._in0, dps=dps)
        st = traj.sample(times)
        return {b: np.array(getattr(st, b).tolist(), dtype=float) for b in self.blocks}

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        return np.asarray(self._data["X"] @ weights["beta"], dtype=float)


def _T(M: np.ndarray) -> np.ndarray:
    """The transpose of each matrix of a stack."""
    return M.swapaxes(-1, -2)


class _LinearNodeScaling(TrajectoryOracle):
    model = "linear_node_scaling"
    source = f"{cite('000')}, Theorem 7.4 (sigma = id)"

    def __init__(self, setup: ns.Setup, a0: Any, W0: Any) -> None:
        traj = _lns.closed_form(setup, a0, W0)
        super().__init__(setup, a0, W0, traj, {"W": (setup.m, setup.d)})
        self._a = np.asarray(traj.a, dtype=float)

    def _weights(self, blocks: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"a": self._a, "W": blocks["W"]}

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        traj = self.trajectory
        if dps is not None:
            traj = _lns.closed_form(self.setup, self._out0, self._in0, dps=dps)
        return {"W": traj.sample(times).W}

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        d = self._data
        return np.asarray(ns.network_output(weights["W"], self._a, d["s"], d["X"], d["sigma"],
                                            d["root_d"]), dtype=float)  # fmt: skip


class _DeepLinear(TrajectoryOracle):
    model = "deep_linear"
    source = f"{cite('001')}, Sec. 2 (Saxe et al. 2013), balanced task-aligned starts"

    def __init__(self, setup: _dl.Setup, weights: Any) -> None:
        traj = _dl.closed_form(setup, weights)
        shapes = {f"W{l}": np.shape(W) for l, W in enumerate(traj._weights, start=1)}
        super().__init__(setup, weights[-1], tuple(weights[:-1]), traj, shapes)
        self._given = weights

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        traj = self.trajectory
        if dps is not None:
            traj = _dl.closed_form(self.setup, self._given, dps=dps)
        return dict(traj.sample(times).params)

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        Ws = [weights[f"W{l}"] for l in range(1, len(self.blocks) + 1)]
        return np.asarray(_dl.outputs(Ws, self._data["X"]), dtype=float)


def deep_linear(setup: _dl.Setup, weights: Any) -> TrajectoryOracle:
    """Oracle of the deep linear network ``f = W_L ... W_1 x`` from a balanced, task-aligned
    start ``weights = (W_1, ..., W_L)`` (:func:`solvable.deep_linear.closed_form`): blocks
    ``W1``..``WL``; loss ``1/2 sum_i |f(x_i) - y_i|^2``; GD ``W_l -= lr eta_l dL/dW_l``."""
    return _DeepLinear(setup, weights)


def xu_ziyin(setup: _xz.Setup, u0: Any, W0: Any) -> TrajectoryOracle:
    """Oracle of seed 001's two-layer linear network (Theorem 1 / Proposition 1): blocks
    ``u`` (d,) and ``W`` (d, d0); rates ``eta_u``, ``eta_w``; loss ``(gamma u^T W x - y)^2``
    (no 1/2): GD is ``u -= lr eta_u dL/du``, ``W -= lr eta_w dL/dW``, ``t = k lr``."""
    return _XuZiyin(setup, u0, W0)


def kunin(setup: _kn.Setup, a0: Any, w0: Any) -> TrajectoryOracle:
    """Oracle of seed 003's single neuron ``f = a w^T x`` (exact for ``X^T X = s I``, and for
    inputs that are not whitened from an aligned start, :func:`kunin.closed_form`): blocks
    ``a`` (a scalar: shape ``()``, so ``(T,)`` over times) and ``w`` (d,); loss ``1/2 sum_i
    (a w^T x_i - y_i)^2``; GD ``a -= lr eta_a dL/da``, ``w -= lr eta_w dL/dw``."""
    return _Kunin(setup, a0, w0)


def kunin_wide(setup: _kn.WideSetup, A0: Any, W0: Any) -> TrajectoryOracle:
    """Oracle of seed 003's wide net ``f = A^T W x`` (Part II; :func:`kunin.wide_closed_form`:
    ``X^T X = s I`` and ``Delta = eta_w A0 A0^T - eta_a W0 W0^T = delta I_h``, every shape
    the balance allows): :meth:`~TrajectoryOracle.check` takes ``A`` (T, h, c) and ``W``
    (T, h, d); loss ``1/2 sum_i |A^T W x_i - y_i|^2``; GD ``A -= lr eta_a dL/dA``, ``W -=
    lr eta_w dL/dW``.  ``A`` and ``W`` are determined only up to a rotation of the hidden
    layer that has no closed form in general, so the blocks compared are the invariants
    ``beta = W^T A`` (d, c), ``gram_a = A^T A`` (c, c) and ``gram_w = W^T W`` (d, d),
    computed from your weights (a trainer whose weights are the exact ones times any
    orthogonal ``O``, ``A -> O A``, ``W -> O W``, passes), and also ``A`` and ``W``
    themselves where the closed form gives them (``h = 1``, or a start that decouples by
    modes: there the rotation is fixed and a rotated trajectory fails).  The
    gradient-descent allowance of the invariants is the product rule applied to that of
    the weights (``lr (e_W^T A + W^T e_A)``, ...).  ``rtol < 1e-10`` evaluates the reference
    at 30 digits from the start as given: there a ``delta = 0`` start of rank ``< h`` that is
    balanced only to float64 rounding may be refused (give it exactly, e.g. as Fractions)."""
    return _KuninWide(setup, A0, W0)


def linear_node_scaling(setup: ns.Setup, a0: Any, W0: Any) -> TrajectoryOracle:
    """Oracle of seed 000's Theorem 7.4 (``activation="linear"``): block ``W`` (m, d) (the
    output weights ``a0`` are fixed); loss (5) ``1/2 sum_i (y_i - f(x_i))^2``; GD ``W -= lr
    eta dL/dW``."""
    return _LinearNodeScaling(setup, a0, W0)


# ---------------------------------------------------------------------------
# the fixture objects
# ---------------------------------------------------------------------------
class Oracle:
    """What the ``solvable_oracle`` fixture hands out: one method per exact solution."""

    xu_ziyin = staticmethod(xu_ziyin)
    kunin = staticmethod(kunin)
    kunin_wide = staticmethod(kunin_wide)
    linear_node_scaling = staticmethod(linear_node_scaling)
    deep_linear = staticmethod(deep_linear)
    kernel = staticmethod(kernel)


_CASE_MODELS: dict[str, Any] = {"xu_ziyin": _xz, "kunin": _kn}


@dataclass(frozen=True)
class EdgeCase:
    """A named initial condition of a model (``xu_ziyin.CASES``, ``kunin.CASES``) as float64
    arrays, ready for a trainer: ``out0`` / ``in0`` are the output / input layer (``u0``,
    ``W0`` or ``a0`` (a float), ``w0``); :meth:`oracle` is the exact solution from them."""

    model: str
    name: str
    covers: str
    setup: Any
    out0: np.ndarray | float
    in0: np.ndarray

    @property
    def id(self) -> str:
        return f"{self.model}:{self.name}"

    def oracle(self) -> TrajectoryOracle:
        return {"xu_ziyin": xu_ziyin, "kunin": kunin}[self.model](self.setup, self.out0, self.in0)


def edge_cases(model: str | None = None) -> list[str]:
    """The ids ``"model:name"`` of every named case (of ``model``, or of all models)."""
    if model is not None and (not isinstance(model, str) or model not in _CASE_MODELS):
        raise ValueError(f"model must be one of {sorted(_CASE_MODELS)}, got {model!r}")
    names = [model] if model is not None else list(_CASE_MODELS)
    return [f"{m}:{c.name}" for m in names for c in _CASE_MODELS[m].CASES]


def edge_case(case_id: str) -> EdgeCase:
    """The :class:`EdgeCase` ``"model:name"`` (see :func:`edge_cases`)."""
    if not isinstance(case_id, str) or case_id.count(":") != 1:
        raise ValueError(f"case_id must be 'model:name' (one of solvable.testing.edge_cases()), "
                         f"got {case_id!r}")  # fmt: skip
    model, name = case_id.split(":")
    if model not in _CASE_MODELS:
        raise ValueError(f"case_id's model must be one of {sorted(_CASE_MODELS)}, got {model!r}")
    c = _CASE_MODELS[model].case(name)
    out0, in0 = (c.u0, c.W0) if model == "xu_ziyin" else (c.a0, c.w0)
    out = np.array(out0, dtype=float)
    return EdgeCase(model, c.name, c.covers, c.setup, float(out) if out.ndim == 0 else out,
                    np.array(in0, dtype=float))  # fmt: skip


# ---------------------------------------------------------------------------
# the original helpers
# ---------------------------------------------------------------------------
def state_errors(
    got: _xz.State, ref: _xz.State, y: Any, tol: Tolerance, *, f_floor: Any = 0
) -> dict[str, float]:
    """Errors of ``got`` against ``ref`` in units of ``tol``: ``u`` and ``W``
    normwise relative, ``f`` relative to ``|y| + |f_ref - y| + f_floor`` (the scale
    at which the target and the residual fix the output; ``f_floor`` adds e.g. the
    conditioning ``gamma ||u|| ||W x||`` of measuring ``f`` as a float64 dot product)."""
    for name, state in (("got", got), ("ref", ref)):
        if not all(hasattr(state, k) for k in ("u", "W", "f")):
            raise TypeError(f"{name} must be a state with u, W and f (a solvable.xu_ziyin.State, "
                            f"Trajectory.at(t)), got {type(state).__name__} "
                            f"{nb.describe(state)}")  # fmt: skip
    if not isinstance(tol, Tolerance):
        raise TypeError(f"tol must be a solvable.Tolerance, got {type(tol).__name__} "
                        f"{nb.describe(tol)}")  # fmt: skip
    y = nb.check_number("y", y)
    f_floor = nb.check_number("f_floor", f_floor, nonnegative=True)
    with mpmath.workdps(60):
        yy = nb.to_mpf(y)
        f_ref = mpmath.mpf(ref.f)
        f_scale = abs(yy) + abs(f_ref - yy) + nb.to_mpf(f_floor)
        f_atol = tol.atol + tol.rtol * f_scale  # in mpmath: y, f_floor may exceed float64
        f_err = float(abs(mpmath.mpf(got.f) - f_ref) / (f_atol or 1))
    return {
        "u": error_in_units(got.u, ref.u, tol),
        "W": error_in_units(got.W, ref.W, tol),
        "f": f_err if f_scale != 0 else error_in_units([got.f], [ref.f], tol),
    }


def assert_matches_closed_form(
    setup: _xz.Setup,
    u0: Any,
    W0: Any,
    times: Sequence[Any],
    us: Sequence[Any],
    Ws: Sequence[Any],
    *,
    rtol: float = 1e-6,
    atol: float = 0.0,
    lr: float | None = None,
) -> Report:
    """Assert that a trajectory ``(us[k], Ws[k])`` at ``times[k]`` follows the exact gradient
    flow of seed 001 (Theorem 1 / Proposition 1) to ``rtol`` (normwise relative per block),
    with the gradient-descent allowance when ``lr`` is given: ``xu_ziyin(setup, u0,
    W0).check(times, us, Ws, lr=lr, rtol=rtol, atol=atol)``."""
    __tracebackhide__ = True
    oracle = _XuZiyin(setup, u0, W0)
    labels = {"u": "us: u (xu_ziyin block)", "W": "Ws: W (xu_ziyin block)"}
    return oracle._verdict(oracle._compare(times, {"u": us, "W": Ws}, lr, rtol, atol, labels))
