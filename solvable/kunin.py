r"""Single hidden neuron ``f(x) = a w^T x``: conserved delta, lazy / rich / delayed-rich.

Source: seed ``003_cfd8c5fad4b6665d.txt``, a poster of Kunin, Raventós, Dominé,
Chen, Klindt, Saxe, Ganguli, "Get rich quick: exact solutions reveal how
unbalanced initializations promote rapid feature learning" (NeurIPS 2024).

Model and conventions::

    f(x) = a w^T x,   a in R, w in R^d;   data X (n, d), y (n,)
    L = 1/2 sum_i (a w^T x_i - y_i)^2 = 1/2 ||X beta - y||^2,   beta = a w
    da/dt = -eta_a dL/da,   dw/dt = -eta_w dL/dw

* ``delta = eta_w a^2 - eta_a ||w||^2`` is conserved (the poster's ``a^2 - ||w||^2``
  for equal rates): > 0 upstream, = 0 balanced, < 0 downstream.
* ``d beta/dt = -M grad_beta L`` with ``M = eta_w a^2 I + eta_a w w^T``
  ``= (sigma + delta)/2 I + (sigma - delta)/2 beta beta^T/||beta||^2``,
  ``sigma = sqrt(delta^2 + 4 eta_a eta_w ||beta||^2)``; the NTK on the data is
  ``K = X M X^T``.  Regimes: ``M ~ delta I`` (delta >> 0, lazy),
  ``M = sqrt(eta_a eta_w) ||beta|| (I + beta beta^T/||beta||^2)`` (delta = 0, rich;
  the poster omits the square root, see :mod:`solvable.errata`),
  ``M ~ |delta| beta beta^T/||beta||^2`` (delta << 0, delayed rich).

Exact solution (derived here, checked in :mod:`solvable.claims_kunin`): when the
inputs are isotropic, ``X^T X = s I_d`` (whitened: s = 1), the loss is
``s/2 ||beta - beta*||^2 + const`` with ``beta* = X^T y / s``.  In the balanced
coordinates ``z = (a / sqrt(eta_a'), w / sqrt(eta_w'))``, ``eta' = s eta``, the flow
is ``dz/dt = G z - (kappa^2/2) ||z||^2 z`` with the constant symmetric
``G = [[delta'/2, kappa beta*^T], [kappa beta*, -delta'/2 I]]``,
``kappa = sqrt(eta_a' eta_w')``, ``delta' = s delta``: a linear flow (Riccati in
the plane of ``(a, beta*)``) divided by a Bernoulli normaliser,
``z(t) = e^{G t} z0 / sqrt(phi(t))``, ``phi = 1 + kappa^2 int_0^t |e^{G s} z0|^2 ds``.
It is evaluated in a form where every term is non-negative and every exponent
is <= 0 (no cancellation, no overflow), continuous through delta = 0, for any
sign of ``a`` and any rates.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable import _numbers
from solvable._numbers import Number
from solvable._special import exprel, namespace

__all__ = [
    "Setup",
    "State",
    "States",
    "Symbols",
    "Trajectory",
    "closed_form",
    "loss",
    "preconditioner",
    "regime",
    "symbolic",
]

GUARD_DIGITS = 10


# ---------------------------------------------------------------------------
# model definitions (shared with numerics.simulate)
# ---------------------------------------------------------------------------
def loss(a: Any, w: Any, X: Any, y: Any) -> Any:
    """``L = 1/2 sum_i (a w^T x_i - y_i)^2``; works on sympy, numpy and mpmath."""
    total = 0
    for xi, yi in zip(X, y, strict=True):
        r = a * sum((wj * xj for wj, xj in zip(w, xi, strict=True)), start=0 * xi[0]) - yi
        total = total + r * r
    return total / 2


def wide_loss(A: Any, W: Any, X: Any, Y: Any) -> Any:
    """Wide two-layer linear net ``f(x) = A^T W x`` (A: h x c, W: h x d):
    ``L = 1/2 sum_i ||A^T W x_i - y_i||^2`` (X: n x d, Y: n x c)."""
    h, c, d = len(A), len(A[0]), len(W[0])
    total = 0
    for xi, yi in zip(X, Y, strict=True):
        hidden = [sum(W[k][j] * xi[j] for j in range(d)) for k in range(h)]
        for o in range(c):
            r = sum(A[k][o] * hidden[k] for k in range(h)) - yi[o]
            total = total + r * r
    return total / 2


def piecewise_linear_loss(a: Any, W: Any, X: Any, y: Any, slopes: Any) -> Any:
    """``f(x_i) = sum_k a_k sigma(w_k . x_i)`` with a piecewise-linear ``sigma`` inside one
    activation region: ``sigma(z) = slopes[k][i] z`` (e.g. 0/1 for ReLU);
    ``L = 1/2 sum_i (f(x_i) - y_i)^2``."""
    h, d = len(W), len(W[0])
    total = 0
    for i, (xi, yi) in enumerate(zip(X, y, strict=True)):
        f = sum(a[k] * slopes[k][i] * sum(W[k][j] * xi[j] for j in range(d)) for k in range(h))
        total = total + (f - yi) ** 2
    return total / 2


def preconditioner(beta: np.ndarray, delta: float, eta_a: float, eta_w: float) -> np.ndarray:
    """``M(beta, delta)`` of ``d beta/dt = -M grad L`` (float64), from :func:`symbolic`."""
    lam1, lam2 = _lambda_fns()
    b = np.asarray(beta, dtype=float)
    nb2 = float(b @ b)
    l1, l2 = float(lam1(delta, eta_a, eta_w, nb2)), float(lam2(delta, eta_a, eta_w, nb2))
    proj = np.outer(b, b) / nb2 if nb2 > 0 else np.zeros((b.size, b.size))
    return l1 * np.eye(b.size) + l2 * proj


@functools.cache
def _lambda_fns() -> tuple[Callable[..., Any], Callable[..., Any]]:
    S = symbolic()
    args = (S.delta, S.eta_a, S.eta_w, S.beta2)
    return (
        sp.lambdify(args, S.exprs["lambda_1"], "numpy"),
        sp.lambdify(args, S.exprs["lambda_2"], "numpy"),
    )


def regime(delta: float, eta_a: float, eta_w: float, beta_norm: float, ratio: float = 10.0) -> str:
    """``"lazy"`` (delta >= ratio * scale), ``"rich"`` (|delta| < scale / ratio),
    ``"delayed rich"`` (delta <= -ratio * scale) or ``"intermediate"``; the scale is
    ``2 sqrt(eta_a eta_w) ||beta||``, the size of ``sigma`` at delta = 0."""
    scale = 2 * float(np.sqrt(eta_a * eta_w)) * beta_norm
    if delta >= ratio * scale:
        return "lazy"
    if delta <= -ratio * scale:
        return "delayed rich"
    if abs(delta) < scale / ratio:
        return "rich"
    return "intermediate"


# ---------------------------------------------------------------------------
# symbolic layer
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Symbols:
    """Symbols and expressions of the single-neuron model (see the module docstring).

    ``exprs``: ``sigma``, ``lambda_1``, ``lambda_2`` (``M = lambda_1 I +
    lambda_2 beta beta^T/||beta||^2``), ``Omega``, ``v_plus`` (unit eigenvector of the
    2x2 block of G for +Omega), ``E`` (= e^{-Omega t}), ``h_perp``
    (= e^{-(Omega + delta/2) t}), ``phi_hat`` (= e^{-2 Omega t} phi), ``z_a``, ``z_1``,
    ``z_perp`` (coefficients of z(t) along e_a, beta*-hat, and of c_perp);
    ``textbook``: ``phi`` and the 2x2 block ``eJ`` in cosh/sinh form.
    """

    eta_a: sp.Symbol
    eta_w: sp.Symbol
    delta: sp.Symbol
    kappa: sp.Symbol
    Y: sp.Symbol
    t: sp.Symbol
    beta2: sp.Symbol
    c0: sp.Symbol
    c1: sp.Symbol
    cperp: sp.Symbol
    c_plus: sp.Symbol
    c_minus: sp.Symbol
    Omega: sp.Symbol
    exprs: dict[str, Any] = field(repr=False)
    textbook: dict[str, Any] = field(repr=False)


@functools.cache
def symbolic() -> Symbols:
    """The sympy expressions of the single-neuron model."""
    eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
    delta = sp.Symbol("delta", real=True)
    kappa = sp.Symbol("kappa", positive=True)
    Y, beta2, cperp = sp.symbols("Y beta2 c_perp", nonnegative=True)
    t = sp.Symbol("t", nonnegative=True)
    c0, c1, c_plus, c_minus = sp.symbols("c0 c1 c_plus c_minus", real=True)
    Omega = sp.Symbol("Omega", nonnegative=True)

    sigma = sp.sqrt(delta**2 + 4 * eta_a * eta_w * beta2)
    Om = sp.sqrt(delta**2 / 4 + kappa**2 * Y**2)
    # eigenvector for +Omega, without cancellation for either sign of delta
    raw = sp.Piecewise(
        (sp.Matrix([Omega + delta / 2, kappa * Y]), delta >= 0),
        (sp.Matrix([kappa * Y, Omega - delta / 2]), True),
    )
    # Omega + delta/2 >= 0 without cancellation (= kappa^2 Y^2/(Omega - delta/2) if delta < 0)
    om_plus = sp.Piecewise(
        (Omega + delta / 2, delta >= 0), (kappa**2 * Y**2 / (Omega - delta / 2), True)
    )
    E = sp.exp(-Omega * t)
    h_perp = sp.exp(-om_plus * t)
    phi_hat = E**2 + kappa**2 * (
        (c_plus**2 + c_minus**2 * E**2) * t * exprel(-2 * Omega * t)
        + cperp**2
        * t
        * exprel(-sp.Abs(delta) * t)
        * sp.Piecewise((E**2, delta >= 0), (h_perp**2, True))
    )
    vx, vy = sp.symbols("v_x v_y", real=True)  # components of the unit v_plus
    exprs = {
        "sigma": sigma,
        "lambda_1": (sigma + delta) / 2,
        "lambda_2": (sigma - delta) / 2,
        "Omega": Om,
        "v_raw": raw,
        "om_plus": om_plus,
        "E": E,
        "h_perp": h_perp,
        "phi_hat": phi_hat,
        # z(t) = (c_+ v_+ + c_- E^2 v_-)/sqrt(phi_hat) in the (e_a, beta*-hat) plane,
        # v_- = (-v_y, v_x); and z_perp(t) = h_perp/sqrt(phi_hat) c_perp
        "z_a": (c_plus * vx - c_minus * E**2 * vy) / sp.sqrt(phi_hat),
        "z_1": (c_plus * vy + c_minus * E**2 * vx) / sp.sqrt(phi_hat),
        "z_perp": h_perp / sp.sqrt(phi_hat),
        "vx": vx,
        "vy": vy,
    }
    J = sp.Matrix([[delta / 2, kappa * Y], [kappa * Y, -delta / 2]])
    cc = sp.Matrix([c0, c1])
    textbook = {
        "J": J,
        "eJ": sp.cosh(Om * t) * sp.eye(2) + sp.sinh(Om * t) / Om * J,
        "phi": 1
        + kappa**2
        * (
            (cc.T * cc)[0] * sp.sinh(2 * Om * t) / (2 * Om)
            + (cc.T * J * cc)[0] * (sp.cosh(2 * Om * t) - 1) / (2 * Om**2)
            + cperp**2 * (1 - sp.exp(-delta * t)) / delta
        ),
    }
    return Symbols(
        eta_a=eta_a, eta_w=eta_w, delta=delta, kappa=kappa, Y=Y, t=t, beta2=beta2,
        c0=c0, c1=c1, cperp=cperp, c_plus=c_plus, c_minus=c_minus, Omega=Omega,
        exprs=exprs, textbook=textbook,
    )  # fmt: skip


@functools.cache
def _evaluators(backend: str) -> dict[str, Callable[..., Any]]:
    S = symbolic()
    ex = S.exprs
    mods = namespace(backend)
    scal = (S.delta, S.kappa, S.Y)
    out = {"Omega": sp.lambdify(scal, ex["Omega"], mods)}
    # the two branches of v_raw, as tuples (lambdify of a Piecewise of matrices is awkward)
    pos, neg = ex["v_raw"].args[0][0], ex["v_raw"].args[1][0]
    out["v_pos"] = sp.lambdify((*scal, S.Omega), (pos[0], pos[1]), mods)
    out["v_neg"] = sp.lambdify((*scal, S.Omega), (neg[0], neg[1]), mods)
    targs = (S.delta, S.kappa, S.Y, S.Omega, S.c_plus, S.c_minus, S.cperp, ex["vx"], ex["vy"], S.t)
    out["coeffs"] = sp.lambdify(targs, (ex["z_a"], ex["z_1"], ex["z_perp"]), mods)
    return out


# ---------------------------------------------------------------------------
# numeric API
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """Learning rates ``eta_a, eta_w > 0``, data ``X`` (n, d) and targets ``y`` (n,).

    The loss is ``L = 1/2 sum_i (a w^T x_i - y_i)^2``.
    """

    eta_a: Number
    eta_w: Number
    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "eta_a", _numbers.check_number("eta_a", self.eta_a, positive=True))
        set_(self, "eta_w", _numbers.check_number("eta_w", self.eta_w, positive=True))
        y = _numbers.check_vector("y", self.y)
        rows = _numbers._as_nested("X", self.X)
        if not isinstance(rows, list) or not rows or not isinstance(rows[0], list):
            raise ValueError(f"X must be a 2-d array of shape (n, d), got {self.X!r:.80}")
        X = _numbers.check_matrix("X", self.X, (len(y), len(rows[0])))
        set_(self, "X", X)
        set_(self, "y", y)

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])


@dataclass(frozen=True)
class State:
    """``a``, ``w`` (d,), ``beta = a w``, the conserved ``delta`` and the ``loss`` at ``t``."""

    t: Any
    a: Any
    w: np.ndarray
    beta: np.ndarray
    delta: Any
    loss: Any

    @classmethod
    def from_weights(cls, setup: Setup, t: Any, a: Any, w: Any, *, dps: int | None = None) -> State:
        """Measure beta, delta and the loss directly from the weights."""
        conv = _numbers.to_float if dps is None else _numbers.to_mpf
        ctx = mpmath.workdps(dps + GUARD_DIGITS) if dps is not None else _Null()
        with ctx:
            dt = float if dps is None else object
            w = np.array([conv(v) if dps is not None else float(v) for v in w], dtype=dt)
            a = conv(a) if dps is not None else float(a)
            X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
            y = np.array([conv(v) for v in setup.y], dtype=dt)
            ea, ew = conv(setup.eta_a), conv(setup.eta_w)
            delta = ew * a * a - ea * sum(w * w)
            return cls(t=t, a=a, w=w, beta=a * w, delta=delta, loss=loss(a, w, X, y))


class _Null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


@dataclass(frozen=True)
class States:
    """Many times at once: ``a`` (T,), ``w`` and ``beta`` (T, d), ``loss`` (T,)."""

    t: np.ndarray
    a: np.ndarray
    w: np.ndarray
    beta: np.ndarray
    delta: Any
    loss: np.ndarray

    def __getitem__(self, k: int) -> State:
        return State(self.t[k], self.a[k], self.w[k], self.beta[k], self.delta, self.loss[k])

    def __len__(self) -> int:
        return len(self.t)


@dataclass(frozen=True)
class Trajectory:
    """Exact solution from ``(a0, w0)`` for isotropic inputs ``X^T X = s I``.

    Attributes: ``delta`` (conserved, eta_w a^2 - eta_a ||w||^2), ``s``,
    ``beta_star`` (= X^T y / s, the least-squares solution), ``Omega`` (rate of the
    Riccati block, for the primed rates eta' = s eta).
    """

    setup: Setup
    dps: int | None
    delta: Any
    s: Any
    beta_star: np.ndarray
    Omega: Any
    _data: dict[str, Any] = field(repr=False)

    def at(self, t: Number) -> State:
        return self.sample([t])[0]

    def sample(self, times: Any) -> States:
        from solvable.xu_ziyin import _check_times  # one validation of times

        ts = _check_times(times)
        k = self._data
        dps = self.dps
        ev = _evaluators("numpy" if dps is None else "mpmath")
        conv = _numbers.to_float if dps is None else _numbers.to_mpf
        ctx = mpmath.workdps(dps + GUARD_DIGITS) if dps is not None else _Null()
        with ctx:
            dt = float if dps is None else object
            tt = np.array([conv(v) for v in ts], dtype=dt)
            fn = ev["coeffs"]
            if dps is not None:
                fn = np.vectorize(fn, otypes=[object, object, object])
            with np.errstate(all="ignore"):
                za, z1, zp = fn(
                    k["delta_p"], k["kappa"], k["Y"], k["Omega"], k["c_plus"], k["c_minus"],
                    k["cperp"], k["vx"], k["vy"], tt,
                )  # fmt: skip
            za = np.broadcast_to(za, tt.shape)
            z1 = np.broadcast_to(z1, tt.shape)
            zp = np.broadcast_to(zp, tt.shape)
            a = k["sa"] * za
            w = k["sw"] * (z1[:, None] * k["bhat"][None, :] + zp[:, None] * k["cperp_vec"][None, :])
            beta = a[:, None] * w
            X, y = k["X"], k["y"]
            losses = np.array([loss(ai, wi, X, y) for ai, wi in zip(a, w, strict=True)], dtype=dt)
        if dps is not None:
            with mpmath.workdps(dps):
                rnd = np.vectorize(lambda z: +z, otypes=[object])
                tt, a, w, beta, losses = (rnd(v) for v in (tt, a, w, beta, losses))
        return States(t=tt, a=a, w=w, beta=beta, delta=self.delta, loss=losses)


def isotropy(setup: Setup, digits: int = 50) -> tuple[Any, Any]:
    """``(s, deviation)`` with ``s = tr(X^T X)/d`` and the largest entry of
    ``|X^T X - s I|`` (computed at ``digits`` digits)."""
    with mpmath.workdps(digits):
        X = [[_numbers.to_mpf(v) for v in row] for row in setup.X]
        d = setup.d
        G = [[mpmath.fsum(X[i][p] * X[i][q] for i in range(setup.n)) for q in range(d)]
             for p in range(d)]  # fmt: skip
        s = mpmath.fsum(G[p][p] for p in range(d)) / d
        dev = max(abs(G[p][q] - (s if p == q else 0)) for p in range(d) for q in range(d))
        return s, dev


def closed_form(setup: Setup, a0: Number, w0: Any, *, dps: int | None = None) -> Trajectory:
    """Exact gradient-flow solution from ``(a0, w0)``.

    Exists (and is implemented) when the inputs are isotropic, ``X^T X = s I_d`` with
    ``s > 0`` (whitened data: ``s = 1``); otherwise ``ValueError``.  The condition is
    checked to the working precision: ``max|X^T X - s I| <= 10 u s`` with ``u`` the
    unit roundoff of float64 or of ``dps`` digits.
    """
    from solvable.xu_ziyin import _check_dps

    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a kunin.Setup, got {type(setup).__name__}")
    dps = _check_dps(dps)
    a0 = _numbers.check_number("a0", a0)
    w0c = _numbers.check_vector("w0", w0, setup.d)
    s_exact, dev = isotropy(setup)
    unit = 2.0**-52 if dps is None else 10.0 ** (-dps)
    if not s_exact > 0 or dev > 10 * unit * s_exact:
        raise ValueError(
            "X must have isotropic columns (X^T X = s I, e.g. whitened data) for the exact "
            f"solution; got max|X^T X - s I| = {mpmath.nstr(dev, 3)} with s = "
            f"{mpmath.nstr(s_exact, 6)} (allowed: {10 * unit:.1e} s). Use numerics.simulate."
        )
    ev = _evaluators("numpy" if dps is None else "mpmath")
    conv = _numbers.to_float if dps is None else _numbers.to_mpf
    ctx = mpmath.workdps(dps + GUARD_DIGITS) if dps is not None else _Null()
    sqrt = np.sqrt if dps is None else mpmath.sqrt
    with ctx:
        dt = float if dps is None else object
        X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
        y = np.array([conv(v) for v in setup.y], dtype=dt)
        a = conv(a0)
        w = np.array([conv(v) for v in w0c], dtype=dt)
        s = conv(s_exact) if dps is not None else float(s_exact)
        eta_a, eta_w = conv(setup.eta_a), conv(setup.eta_w)
        ea, ew = s * eta_a, s * eta_w  # primed rates
        delta = eta_w * a * a - eta_a * sum(w * w)
        delta_p = s * delta
        beta_star = X.T @ y / s
        Y = sqrt(sum(beta_star * beta_star))
        bhat = beta_star / Y if Y != 0 else np.zeros_like(beta_star)
        sa, sw = sqrt(ea), sqrt(ew)
        kappa = sqrt(ea * ew)
        c0 = a / sa
        w_par = sum(bhat * w)
        c1 = w_par / sw
        cperp_vec = (w - w_par * bhat) / sw
        cperp = sqrt(sum(cperp_vec * cperp_vec))
        Omega = ev["Omega"](delta_p, kappa, Y)
        if Omega == 0:
            vx, vy = (1.0, 0.0) if dps is None else (mpmath.mpf(1), mpmath.mpf(0))
        else:
            rx, ry = (ev["v_pos"] if delta_p >= 0 else ev["v_neg"])(delta_p, kappa, Y, Omega)
            nrm = sqrt(rx * rx + ry * ry)
            vx, vy = rx / nrm, ry / nrm
        c_plus = vx * c0 + vy * c1
        c_minus = -vy * c0 + vx * c1
        # w(t) = sqrt(eta_w') (z_1(t) bhat + z_perp(t) c_perp_vec)
        data = dict(
            delta_p=delta_p, kappa=kappa, Y=Y, Omega=Omega, c_plus=c_plus, c_minus=c_minus,
            cperp=cperp, vx=vx, vy=vy, sa=sa, sw=sw, bhat=bhat, cperp_vec=cperp_vec, X=X, y=y,
        )  # fmt: skip
    rnd = (lambda z: z) if dps is None else _round(dps)
    return Trajectory(
        setup=setup, dps=dps, delta=rnd(delta), s=rnd(s), beta_star=beta_star,
        Omega=rnd(Omega), _data=data,
    )  # fmt: skip


def _round(dps: int) -> Callable[[Any], Any]:
    def rnd(z: Any) -> Any:
        with mpmath.workdps(dps):
            return +z

    return rnd
