"""Closed forms at scale against the memory floor (the closed-form speed target), one table
of cases: seed 001 (``xu_ziyin``; ``deep_linear``, Sec. 2), seed 003 (``kunin``, single
neuron; ``kunin_wide``, Part II) and seed 000 (``linear_node_scaling``, Theorem 7.4).

Run (from the repository root)::

    python benchmarks/closed_form_scale.py              # every case, best and worst of 5
    python benchmarks/closed_form_scale.py --quick      # small sizes, a smoke run (seconds)
    python benchmarks/closed_form_scale.py --only xu_ziyin --repeat 3
    python benchmarks/closed_form_scale.py --only kunin linear_node_scaling --no-reference \\
        --no-scipy --markdown table.md

Cases (``--only`` takes one or more case names or model names; a model name selects all its
cases, so ``--only kunin`` runs ``kunin_32`` and ``kunin_1000``), each an output of about
0.8 GB (``--quick``: the sizes in brackets):

* ``xu_ziyin``: d = 1000, d0 = 10, 10^4 times in [0, 10 t_c] (d = 100, 1000 times);
* ``kunin_32``: n = d = 32, 1.5 10^6 times in [0, 20] (n = 4, d = 3, 50 times);
* ``kunin_1000``: n = d = 1000, 5 10^4 times (the issue's scale; construction decides
  X^T X = s I in float64 with proved bounds) (n = d = 10, 20 times);
* ``linear_node_scaling``: n = 50, d = m = 100, 10^4 times in [0, 20] (n = 5, d = 4,
  m = 3, 20 times);
* ``deep_linear_3``, ``deep_linear_6`` (issue 31, item 5): L = 3 (6) layers, n = 20,
  d0 = dL = 10 modes, hidden widths 100, 8000 (2400) times in [0, 20] (n = 4, d0 = dL = 3,
  hidden 5, 20 times);
* ``kunin_wide_32``, ``kunin_wide_h8`` (issue 31, item 5): the wide net, n = d = c = 32 and
  h = 32 (h = 8 < c), 95 times in [0, 20] (the NTK, (n c)^2 numbers a time, is nearly all of
  the output) (n = d = c = h = 3; n = d = c = 4, h = 2; 20 times).  Measured with
  ``--only kunin_wide --repeat 3 --no-scipy`` (2 shared CPUs, load average 2.5-3.2; three
  runs): (b) 2.7x-4.5x, 3.3x-3.4x, 3.2x-3.3x the floor for ``kunin_wide_32`` (its
  construction, the 50-digit balance check, is 1.5x alone) and 1.7x-1.9x, 1.7x, 2.2x-2.6x
  for ``kunin_wide_h8``; (c) 1.0x-1.8x (docs/benchmarks.md).

For each case (a row group of the printed markdown table), all in one process, each timed
``--repeat`` times back to back (the previous result dropped before each call, so a large
output is never held twice):

(a) the memory floor: ``np.empty`` + ``fill`` of ONE float64 array as large as the whole
    output (all its fields together; fresh pages every time, as a fresh output has);
(b) construction + sample into a fresh output: ``closed_form(...).sample(times)``;
(c) sample into a reused output: ``traj.sample(times, out=states)`` ("-": the model's
    ``sample`` has no ``out=``, deep_linear);
(d) the reference path (the path before the fast engines; ``--no-reference`` skips it):
    xu_ziyin ``closed_form(...).sample(times, engine="reference")`` (construction included:
    the whole arrays at once, every piece of every Piecewise evaluated everywhere); kunin and
    linear_node_scaling ``traj._sample_reference(times)`` on the constructed trajectory;
    kunin_wide the per-time ``traj.at(t)`` stacked; deep_linear
    ``traj._sample_reference(times)`` (the same);
(e) ``scipy.integrate.solve_ivp(DOP853, rtol=1e-10, t_eval=times)`` on a hand-written numpy
    vector field of the same gradient flow (the baseline a user would otherwise run;
    ``--no-scipy`` skips it); atol: xu_ziyin 1e-13 max |z0|, kunin and
    linear_node_scaling 1e-12.  It returns the weights only: ``u, W`` (xu_ziyin), ``a, w``
    (kunin), ``W`` (linear_node_scaling), ``W1..WL`` (deep_linear), and ``beta = W^T A``
    computed from its ``A, W`` (kunin_wide: the sample has ``A, W`` only where the start
    decouples).

Printed: best and worst wall-clock seconds and both as ratios to the floor's best, the
load average before and after (this machine is shared: ratios within one run are what
compare), and a row of differences per case: the largest ``abs((b) - (d))`` over the
fields both paths compute with the same arithmetic (0: bit for bit; xu_ziyin every field,
kunin ``t, a, w, beta``, linear_node_scaling, kunin_wide and deep_linear ``t``),
the largest ``abs((b) - (d))`` over the largest ``abs((d))`` of each field that is only
within a rounding-error bound (kunin ``loss``; linear_node_scaling ``W, f, loss``: see
tests/test_closed_form_scale_models.py; kunin_wide every field but ``t``: the stacked engine
is the per-time arithmetic to a few ulps; deep_linear every field but ``t``: each layer one
matrix product against ``at``'s mode-by-mode sum, tests/test_deep_linear_sample_f64.py),
and (e) against (b), normwise relative.  "-" marks a column not run.  The target:
(b) <= 3x (a).  ``--markdown FILE`` also writes the printed text to FILE.

A case is an entry of :data:`CASES` (a name, a seed, a function of ``quick`` returning a
:class:`Bench`, and the model it belongs to); add another the same way.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp

from solvable._core.states import StackedStates
from solvable.models import deep_linear as dl
from solvable.models import kunin
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models import xu_ziyin as xz

RTOL = 1e-10  # solve_ivp's relative tolerance, as in benchmarks/bench_torch.py
ATOL = 1e-12  # solve_ivp's absolute tolerance for kunin and linear_node_scaling


@dataclass(frozen=True)
class Bench:
    """One sized problem of a case: the callables (b)-(e) of the module docstring and what
    the differences row compares."""

    size: str  # the problem in words (the table's second column)
    n_floats: int  # float64 numbers in the whole output: the floor's one array
    fresh: Callable[[], Any]  # (b) construction + sample into a fresh output
    reuse: Callable[[], Any] | None  # (c) sample into a preallocated output (None: no out=)
    reference: Callable[[], Any] | None  # (d) the reference path (None: none kept)
    ivp: Callable[[], Any] | None  # (e) solve_ivp with t_eval: sol.y (None: no baseline)
    atol: float  # (e)'s absolute tolerance (for the label)
    exact: tuple[str, ...]  # fields where (b) and (d) do the same arithmetic (bit for bit)
    bounded: tuple[str, ...]  # fields where (b) is within a rounding bound of (d)
    weights: Callable[[Any], np.ndarray]  # (b) -> (T, k) in the order of sol.y's rows
    weight_names: str  # those weights in words


@dataclass(frozen=True)
class Case:
    name: str
    seed: str
    build: Callable[[bool], Bench]  # quick -> the problem
    model: str  # --only MODEL selects every case of the model


def _ivp(rhs: Callable, z0: np.ndarray, times: np.ndarray, atol: float,
         post: Callable[[np.ndarray], np.ndarray] | None = None) -> Callable[[], Any]:  # fmt: skip
    """(e): ``sol.y`` (k, T), or ``post(sol.y)`` (a function of the weights, e.g. ``beta``)."""

    def ivp() -> Any:
        sol = solve_ivp(rhs, (0.0, times[-1]), z0, method="DOP853", t_eval=times,
                        rtol=RTOL, atol=atol)  # fmt: skip
        if not sol.success:
            raise RuntimeError(f"solve_ivp failed: {sol.message}")
        return sol.y if post is None else post(sol.y)

    return ivp


# ---------------------------------------------------------------------------
# seed 001: Xu & Ziyin, f = gamma u^T W x, L = (f - y)^2
# ---------------------------------------------------------------------------
def _xz_field(x: np.ndarray, y: float, gamma: float, eta_u: float, eta_w: float, d: int):
    """Seed 001 eqs. (4)-(5) by hand (the baseline's field, as in bench_torch.py):
    du/dt = -eta_u 2 (f - y) gamma W x, dW/dt = -eta_w 2 (f - y) gamma u x^T."""
    d0 = len(x)

    def rhs(_t: float, z: np.ndarray) -> np.ndarray:
        u, W = z[:d], z[d:].reshape(d, d0)
        v = W @ x
        g = 2.0 * (gamma * (u @ v) - y) * gamma
        return np.concatenate([(-eta_u * g) * v, ((-eta_w * g) * np.outer(u, x)).ravel()])

    return rhs


def _xu_ziyin(quick: bool) -> Bench:
    d, d0, n_t = (100, 10, 1000) if quick else (1000, 10, 10_000)
    x = np.random.default_rng(0).standard_normal(d0)
    x /= np.linalg.norm(x)
    rng = np.random.default_rng(1)
    u0 = rng.standard_normal(d) / np.sqrt(d)
    W0 = rng.standard_normal((d, d0)) / np.sqrt(d)
    setup = xz.Setup(1.0, 1.0, 1.0, tuple(x.tolist()), 1.0)
    traj = xz.closed_form(setup, u0, W0)
    times = np.linspace(0.0, 10 * traj.t_c, n_t)
    traj.sample(times[:2])  # the generated evaluators, once per process, outside the timing
    traj.sample(times[:2], engine="reference")
    states = xz.States.empty(n_t, d, d0)
    rhs = _xz_field(x, 1.0, 1.0, 1.0, 1.0, d)
    z0 = np.concatenate([u0, W0.ravel()])
    atol = RTOL * 1e-3 * float(np.max(np.abs(z0)))  # torch_flow's and scipy_ode's rule
    return Bench(
        size=f"d = {d}, d0 = {d0}, {n_t} times in [0, 10 t_c]",
        n_floats=n_t * (d + d * d0 + 5),
        fresh=lambda: xz.closed_form(setup, u0, W0).sample(times),
        reuse=lambda: traj.sample(times, out=states),
        reference=lambda: xz.closed_form(setup, u0, W0).sample(times, engine="reference"),
        ivp=_ivp(rhs, z0, times, atol),
        atol=atol,
        exact=("u", "W", "f", "alignment", "ntk", "alpha"),
        bounded=(),
        weights=lambda b: np.concatenate([b.u, b.W.reshape(n_t, d * d0)], axis=1),
        weight_names="u, W",
    )


# ---------------------------------------------------------------------------
# seed 003: kunin, single neuron f = a w^T x, L = 1/2 |X beta - y|^2, beta = a w
# ---------------------------------------------------------------------------
def _kunin(n: int, d: int, n_t: int, seed: int = 0) -> Bench:
    """Whitened data (``X = 2 Q``, ``Q`` with orthonormal columns: ``X^T X = 4 I``), an
    upstream start, ``n_t`` times in ``[0, 20]``."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, d)))
    X, y = 2.0 * Q, rng.standard_normal(n)
    w0 = 0.1 * rng.standard_normal(d)
    times = np.linspace(0.0, 20.0, n_t)
    eta_a, eta_w, a0 = 1.0, 0.5, 0.3

    def construct() -> kunin.Trajectory:
        return kunin.closed_form(kunin.Setup(eta_a, eta_w, X, y), a0, w0)

    def rhs(_t: float, z: np.ndarray) -> np.ndarray:
        a, w = z[0], z[1:]
        g = X.T @ (X @ (a * w) - y)  # grad_beta L
        return np.concatenate(([-eta_a * (w @ g)], -eta_w * a * g))

    traj = construct()
    states = traj.sample(times)  # the output (c) reuses; warms every path, outside the timing
    return Bench(
        size=f"n = {n}, d = {d}, {n_t} times in [0, 20]",
        n_floats=n_t * (3 + 2 * d),  # t, a, w, beta, loss
        fresh=lambda: construct().sample(times),
        reuse=lambda: traj.sample(times, out=states),
        reference=lambda: traj._sample_reference(times),
        ivp=_ivp(rhs, np.concatenate(([a0], w0)), times, ATOL),
        atol=ATOL,
        exact=("t", "a", "w", "beta"),
        bounded=("loss",),
        weights=lambda b: np.concatenate([b.a[:, None], b.w], axis=1),
        weight_names="a, w",
    )


def _kunin_32(quick: bool) -> Bench:
    return _kunin(4, 3, 50) if quick else _kunin(32, 32, 1_500_000)


def _kunin_1000(quick: bool) -> Bench:
    return _kunin(10, 10, 20) if quick else _kunin(1000, 1000, 50_000)


# ---------------------------------------------------------------------------
# seed 000: linear_node_scaling (Theorem 7.4), f = X W^T (sqrt(lam) a) / sqrt(d)
# ---------------------------------------------------------------------------
def _linear_node_scaling(quick: bool, seed: int = 0) -> Bench:
    """Gaussian data and weights, node scalings in [0.1, 1], ``a = +-1``, eta = 0.5, times
    in ``[0, 20]``."""
    n, d, m, n_t = (5, 4, 3, 20) if quick else (50, 100, 100, 10_000)
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, d)), rng.standard_normal(n)
    lam = rng.uniform(0.1, 1.0, m)
    a = rng.choice([-1.0, 1.0], m)
    W0 = rng.standard_normal((m, d))
    eta = 0.5
    times = np.linspace(0.0, 20.0, n_t)

    def construct() -> lns.Trajectory:
        return lns.closed_form(ns.Setup(X, y, lam, "linear", eta), a, W0)

    sa = np.sqrt(lam) * a

    def rhs(_t: float, z: np.ndarray) -> np.ndarray:
        W = z.reshape(m, d)
        r = y - X @ (W.T @ sa) / math.sqrt(d)  # eqs. (2), (5): r = y - f
        return (eta * np.outer(sa, X.T @ r) / math.sqrt(d)).ravel()

    traj = construct()
    states = traj.sample(times)  # the output (c) reuses; warms every path, outside the timing
    return Bench(
        size=f"n = {n}, d = {d}, m = {m}, {n_t} times in [0, 20]",
        n_floats=n_t * (2 + m * d + n),  # t, W, f, loss (a is the trajectory's, not copied)
        fresh=lambda: construct().sample(times),
        reuse=lambda: traj.sample(times, out=states),
        reference=lambda: traj._sample_reference(times),
        ivp=_ivp(rhs, W0.ravel(), times, ATOL),
        atol=ATOL,
        exact=("t",),
        bounded=("W", "f", "loss"),
        weights=lambda b: b.W.reshape(n_t, m * d),
        weight_names="W",
    )


def _n_floats(states: StackedStates) -> int:
    """float64 numbers in a stacked output (its float arrays; ``A``, ``W`` of ``None`` not)."""
    arrays = states.arrays()
    values = [v for f in arrays.values() for v in (f.values() if isinstance(f, dict) else [f])]
    return sum(v.size for v in values if v.dtype == np.float64)


# ---------------------------------------------------------------------------
# seed 001 Sec. 2 (Saxe et al.): deep_linear, f = W_L ... W_1 x, balanced aligned starts
# ---------------------------------------------------------------------------
def _deep_linear_data(L: int, quick: bool, seed: int = 0) -> tuple[Any, list, np.ndarray]:
    """Whitened data (``X = 2 Q``, ``X^T X = 4 I``), Gaussian targets, every rate 1, a
    balanced task-aligned start (:func:`deep_linear.spectral_start`) of ``m = d0 = dL`` small
    modes (``u_k = 0.01``: every mode grows, the rich regime), hidden widths ``H``, times in
    ``[0, 20]``: ``(setup, W0, times)`` (also ``benchmarks/deep_linear_split.py``'s)."""
    n, d0, H, n_t = (4, 3, 5, 20) if quick else (20, 10, 100, 8000 if L == 3 else 2400)
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, d0)))
    X, Y = 2.0 * Q, rng.standard_normal((n, d0))
    setup = dl.Setup((1.0,) * L, X, Y)
    W0 = dl.spectral_start(setup, [0.01] * d0, (H,) * (L - 1))
    return setup, W0, np.linspace(0.0, 20.0, n_t)


def _deep_linear(L: int, quick: bool, seed: int = 0) -> Bench:
    """The data of :func:`_deep_linear_data`.  No ``out=`` (column (c) "-"); (d):
    ``traj._sample_reference(times)``, the per-time ``at`` stacked (the path before the
    stacked engine; the same to the rounding bound of an (m + 1)-term sum per layer)."""
    setup, W0, times = _deep_linear_data(L, quick, seed)
    n_t, d0, n = len(times), setup.d0, setup.n
    X, Y = np.asarray(setup.X, dtype=float), np.asarray(setup.Y, dtype=float)
    H = W0[0].shape[0]
    shapes = [W.shape for W in W0]

    def rhs(_t: float, z: np.ndarray) -> np.ndarray:
        Ws, k = [], 0
        for r, c in shapes:
            Ws.append(z[k : k + r * c].reshape(r, c))
            k += r * c
        below = [np.eye(d0)]  # W_{l-1} ... W_1
        for W in Ws[:-1]:
            below.append(W @ below[-1])
        G = (Ws[-1] @ below[-1] @ X.T - Y.T) @ X  # dL/dbeta = (F - Y)^T X, (dL, d0)
        grads, above = [], np.eye(d0)  # above: W_L ... W_{l+1}
        for l in range(L - 1, -1, -1):
            grads.append((above.T @ G @ below[l].T).ravel())  # dL/dW_l
            above = above @ Ws[l]
        return -np.concatenate(grads[::-1])  # every rate 1

    def construct() -> Any:
        return dl.closed_form(setup, W0)

    traj = construct()
    traj.sample(times[:2])  # the generated evaluators, once per process, outside the timing
    names = [f"W{l}" for l in range(1, L + 1)]
    return Bench(
        size=f"L = {L}, n = {n}, d0 = dL = {d0} modes, hidden {H}, {n_t} times in [0, 20]",
        n_floats=n_t * _n_floats(traj.sample(times[:1])),
        fresh=lambda: construct().sample(times),
        reuse=None,
        reference=lambda: traj._sample_reference(times),
        ivp=_ivp(rhs, np.concatenate([W.ravel() for W in W0]), times, ATOL),
        atol=ATOL,
        exact=("t",),
        bounded=("beta", "f", "loss", *names),
        weights=lambda b: np.concatenate([b.params[k].reshape(n_t, -1) for k in names], axis=1),
        weight_names=", ".join(names),
    )


def _deep_linear_3(quick: bool) -> Bench:
    return _deep_linear(3, quick)


def _deep_linear_6(quick: bool) -> Bench:
    return _deep_linear(6, quick)


# ---------------------------------------------------------------------------
# seed 003 Part II: kunin wide net, f = A^T W x, Delta(0) = delta I_h, X^T X = s I
# ---------------------------------------------------------------------------
_WIDE_FIELDS = ("beta", "outputs", "loss", "ntk", "gram_a", "gram_w")


def _kunin_wide(n: int, c: int, h: int, n_t: int, seed: int = 0) -> Bench:
    """Whitened data (``X = 2 Q``, d = n), Gaussian targets (n, c), eta_a = 1, eta_w = 0.5,
    a Gaussian ``W0`` (h, d) / sqrt(d) and ``A0`` from :func:`kunin.wide_start` with delta =
    0.5 (then ``h <= c``), times in ``[0, 20]``.  (c): ``traj.sample(times, out=states)``;
    (d): the per-time ``traj.at(t)`` stacked (the path before the stacked engine, to a few
    ulps);
    (e) compares ``beta = W^T A`` (the sample has ``A``, ``W`` only where the start decouples)."""
    d = n
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, d)))
    X, Y = 2.0 * Q, rng.standard_normal((n, c))
    eta_a, eta_w = 1.0, 0.5
    setup = kunin.WideSetup(eta_a, eta_w, X, Y)
    A0, W0 = kunin.wide_start(setup, 0.5, W=rng.standard_normal((h, d)) / np.sqrt(d))
    times = np.linspace(0.0, 20.0, n_t)

    def construct() -> Any:
        return kunin.wide_closed_form(setup, A0, W0)

    def rhs(_t: float, z: np.ndarray) -> np.ndarray:
        A, W = z[: h * c].reshape(h, c), z[h * c :].reshape(h, d)
        G = X.T @ (X @ (W.T @ A) - Y)  # dL/dbeta, (d, c)
        return np.concatenate([(-eta_a * (W @ G)).ravel(), (-eta_w * (A @ G.T)).ravel()])

    def beta(y: np.ndarray) -> np.ndarray:  # (h (c + d), T) -> (d c, T)
        A, W = y[: h * c].T.reshape(-1, h, c), y[h * c :].T.reshape(-1, h, d)
        return (W.swapaxes(-1, -2) @ A).reshape(len(times), d * c).T

    traj = construct()
    states = traj.sample(times)  # the output (c) reuses; warms every path, outside the timing
    return Bench(
        size=f"n = d = {n}, c = {c}, h = {h}, {n_t} times in [0, 20]",
        n_floats=_n_floats(states),
        fresh=lambda: construct().sample(times),
        reuse=lambda: traj.sample(times, out=states),
        reference=lambda: StackedStates.stack([traj.at(t) for t in times]),
        ivp=_ivp(rhs, np.concatenate([A0.ravel(), W0.ravel()]), times, ATOL, beta),
        atol=ATOL,
        exact=("t",),
        bounded=_WIDE_FIELDS,
        weights=lambda b: b.beta.reshape(len(times), d * c),
        weight_names="beta = W^T A",
    )


def _kunin_wide_32(quick: bool) -> Bench:
    return _kunin_wide(3, 3, 3, 20) if quick else _kunin_wide(32, 32, 32, 95)


def _kunin_wide_h8(quick: bool) -> Bench:
    return _kunin_wide(4, 4, 2, 20) if quick else _kunin_wide(32, 32, 8, 95)


CASES: list[Case] = [
    Case("xu_ziyin", "001", _xu_ziyin, "xu_ziyin"),
    Case("kunin_32", "003", _kunin_32, "kunin"),
    Case("kunin_1000", "003", _kunin_1000, "kunin"),
    Case("linear_node_scaling", "000", _linear_node_scaling, "linear_node_scaling"),
    Case("deep_linear_3", "001", _deep_linear_3, "deep_linear"),
    Case("deep_linear_6", "001", _deep_linear_6, "deep_linear"),
    Case("kunin_wide_32", "003", _kunin_wide_32, "kunin_wide"),
    Case("kunin_wide_h8", "003", _kunin_wide_h8, "kunin_wide"),
]


# ---------------------------------------------------------------------------
# timing and the table
# ---------------------------------------------------------------------------
def timed(fn: Callable[[], Any], repeat: int, keep: bool = False) -> tuple[float, float, Any]:
    """Best and worst wall-clock seconds of ``repeat`` calls; the last result if ``keep``
    (else dropped before the next call, so that no two large outputs coexist)."""
    times, out = [], None
    for _ in range(repeat):
        out = None
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if not keep:
            out = None
    return min(times), max(times), out


def floor(n: int) -> Callable[[], None]:
    def fill() -> None:
        a = np.empty(n)
        a.fill(1.0)

    return fill


def _num(v: float | None) -> str:
    return "-" if v is None else f"{v:.1e}"


def _field(states: Any, name: str) -> np.ndarray:
    """A stacked field by name (deep_linear's layers ``W1``.. are in its ``params``)."""
    params = getattr(states, "params", None)
    return params[name] if isinstance(params, dict) and name in params else getattr(states, name)


def differences(bench: Bench, b: Any, ref: Any, ode: Any) -> str:
    """The differences row's text (module docstring); "-" for a column not run."""
    exact = bounded = rel = None
    if ref is not None:
        exact = max(float(np.max(np.abs(_field(b, k) - _field(ref, k)))) for k in bench.exact)
        bounded = {}
        for k in bench.bounded:
            diff = float(np.max(np.abs(_field(b, k) - _field(ref, k))))
            scale = float(np.max(np.abs(_field(ref, k))))
            bounded[k] = diff / scale if scale > 0 else diff
    if ode is not None:
        z = bench.weights(b)
        rel = float(np.max(np.abs(ode.T - z)) / np.max(np.abs(z)))
    text = f"(b) - (d), max abs over {', '.join(bench.exact)}: {_num(exact)}"
    if bench.bounded:
        within = ", ".join(f"{k} {_num(None if bounded is None else bounded[k])}"
                           for k in bench.bounded)  # fmt: skip
        text += f"; (b) - (d), max abs / max abs of (d): {within}"
    return text + f"; (e) vs (b) over {bench.weight_names}: {_num(rel)} (max abs / max abs)"


def run_case(
    case: Case, quick: bool, repeat: int, reference: bool = True, scipy: bool = True
) -> list[list[str]]:
    """The table rows of one case: (a)-(e) (without (d) or (e) if not asked for or not
    kept) and the differences."""
    bench = case.build(quick)
    mb = bench.n_floats * 8 / 1e6
    f_best, f_worst, _ = timed(floor(bench.n_floats), repeat)
    rows = [("(a) floor: np.empty + fill", f_best, f_worst)]
    b_best, b_worst, b = timed(bench.fresh, repeat, keep=True)
    rows.append(("(b) construction + sample", b_best, b_worst))
    if bench.reuse is None:
        rows.append(("(c) sample, out= reused: no out=", None, None))
    else:
        c_best, c_worst, _ = timed(bench.reuse, repeat)
        rows.append(("(c) sample, out= reused", c_best, c_worst))
    ref = ode = None
    if reference and bench.reference is not None:
        r_best, r_worst, ref = timed(bench.reference, repeat, keep=True)
        rows.append(("(d) reference path", r_best, r_worst))
    if scipy and bench.ivp is not None:
        e_best, e_worst, ode = timed(bench.ivp, repeat, keep=True)
        label = f"(e) solve_ivp DOP853 rtol {RTOL:g}, atol {bench.atol:.1e}, t_eval"
        rows.append((label, e_best, e_worst))
    name = f"{case.name} ({case.seed})"
    out = []
    for label, best, worst in rows:
        if best is None:
            out.append([name, f"{bench.size}, {mb:.3g} MB", label, "-", "-", "-", "-"])
            continue
        out.append([
            name, f"{bench.size}, {mb:.3g} MB", label,
            f"{best:.3f}", f"{worst:.3f}", f"{best / f_best:.2f}x", f"{worst / f_best:.2f}x",
        ])  # fmt: skip
    out.append([name, "", differences(bench, b, ref, ode), "", "", "", ""])
    return out


HEADER = ["case", "size", "path", "best (s)", "worst (s)", "best / floor", "worst / floor"]


def markdown(rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "| " + " | ".join("---" for _ in HEADER) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> list[list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--repeat", type=int, default=5, help="calls per path (default 5)")
    names = list(dict.fromkeys([c.name for c in CASES] + [c.model for c in CASES]))
    parser.add_argument("--only", nargs="+", choices=names, metavar="CASE",
                        help=f"these cases or models only ({', '.join(names)})")  # fmt: skip
    parser.add_argument("--no-reference", action="store_true", help="skip column (d)")
    parser.add_argument("--no-scipy", action="store_true", help="skip column (e)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table to FILE")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be >= 1, got {args.repeat}")
    load0 = os.getloadavg()
    text = [f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, numpy "
            f"{np.__version__}; load average {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}; "
            f"best and worst of {args.repeat}; ratios to the floor's best"]  # fmt: skip
    print(text[0], flush=True)
    rows: list[list[str]] = []
    for case in CASES:
        if args.only is None or case.name in args.only or case.model in args.only:
            rows += run_case(case, args.quick, args.repeat, not args.no_reference,
                             not args.no_scipy)  # fmt: skip
    load1 = os.getloadavg()
    text += [markdown(rows), f"# load average after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}"]
    print("\n".join(text[1:]))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write("\n".join(text) + "\n")
    return rows


if __name__ == "__main__":
    main()
