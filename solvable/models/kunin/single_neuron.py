"""Seed 003 (Kunin et al.), Part I's exact solution (derived here; see the package docstring):
:func:`closed_form` and its :class:`Trajectory` for isotropic inputs ``X^T X = s I``, ``z(t) =
e^{G t} z0 / sqrt(phi(t))`` evaluated with every term non-negative and every exponent <= 0,
in mpmath or in float64 (the fast sample of issue 17: the coefficients once per chunk of
times, ``w`` and ``beta`` block by block, in two threads for large samples).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.exact_gram import to_fraction
from solvable._core.numbers import Number
from solvable.models.kunin._float64 import (
    _SHADOW_DPS,
    _f64_trusted,
)
from solvable.models.kunin.expressions import _evaluators
from solvable.models.kunin.float64_sample import PARALLEL_SAMPLE as PARALLEL_SAMPLE
from solvable.models.kunin.float64_sample import Float64Sample
from solvable.models.kunin.flows import _scalar
from solvable.models.kunin.isotropic_data import _isotropic_s, isotropy
from solvable.models.kunin.losses import _balance, _loss
from solvable.models.kunin.minimum import (
    _loss_of,
    _projection,
    _working_rational,
    _working_sqrt,
)
from solvable.models.kunin.preconditioners import regime
from solvable.models.kunin.reference_sample import ReferenceSample
from solvable.models.kunin.setups import Setup, _arrays, _check_weights, _weights
from solvable.models.kunin.states import State, States
from solvable.models.kunin.times import _SAMPLE_TIMES


@dataclass(frozen=True)
class Trajectory(Float64Sample, ReferenceSample):
    """Exact solution from ``(a0, w0)`` for isotropic inputs ``X^T X = s I``.

    Attributes: ``delta`` (conserved, eta_w a^2 - eta_a ||w||^2), ``s``,
    ``beta_star`` (= X^T y / s, the least-squares solution), ``Omega`` (rate of the
    Riccati block, for the primed rates eta' = s eta).

    Valid for every ``t`` in ``[0, inf]`` (``float("inf")`` or ``mpmath.inf``: the limit,
    ``z_*_inf`` of :func:`symbolic`).  float64: evaluated in float64 where every constant
    lies in ``[1e-20, 1e20]`` (or is 0) and no term can underflow (:func:`_f64_safe`), and
    otherwise at 17 digits in mpmath (no exponent range) and rounded once; a result that
    float64 cannot hold raises ``ValueError``.  mpmath: the exponents ``Omega t`` are formed
    with ``log10(rate t)`` extra digits, so ``e^{-Omega t}`` keeps ``dps`` digits at any t.
    """

    setup: Setup
    dps: int | None
    delta: Any
    s: Any
    beta_star: np.ndarray
    Omega: Any
    _data: dict[str, Any] = field(repr=False)

    def at(self, t: Number) -> State:
        """The state at time ``t`` in ``[0, inf]``."""
        return self._sample([t], None, "t").at(0)

    def regime(self, ratio: Number = 10.0) -> str:
        """:func:`~solvable.models.kunin.regime` of this trajectory (Part I, regimes 1-3):
        its conserved ``delta``, its setup's rates and ``||beta*||`` (the least-squares
        solution it converges to), without retyping them: ``"lazy"``, ``"rich"``,
        ``"delayed rich"`` or ``"intermediate"``; ``ratio`` as there."""
        with mpmath.workdps(30):  # (|beta*| of float64 or mpf entries, at any scale)
            norm = mpmath.sqrt(mpmath.fsum(nb.to_mpf(v) ** 2 for v in self.beta_star))
        return regime(self.delta, self.setup.eta_a, self.setup.eta_w, norm, ratio)

    def sample(self, times: Any, *, out: States | None = None) -> States:
        """The states at many times (vectorised over ``times``; each in ``[0, inf]``).

        Parameters
        ----------
        times
            One time or a 1-d sequence / array of times, each ``>= 0`` or ``+inf``.
        out
            float64 only (``dps=None``): a preallocated :class:`States` (e.g. an earlier
            result) whose ``t``, ``a``, ``loss`` (T,) and ``w``, ``beta`` (T, d) are writeable
            float64 arrays that do not overlap; they are filled in place.

        Returns
        -------
        States
            The states; with ``out``, a :class:`States` holding ``out``'s arrays (``out`` itself
            when its ``delta`` is this trajectory's).

        float64 (issue 17): the time-only coefficients ``z_a``, ``z_1``, ``z_perp`` of
        :func:`symbolic` are evaluated once on the (T,) vector of times, from evaluators in
        which every ``Piecewise`` whose condition depends on the trajectory's constants only
        (the sign of delta) is resolved once (:func:`_resolved_coefficients`: the same
        arithmetic as the ``Piecewise``, only the piece that applies); ``w`` and ``beta`` are
        written block by block (:data:`_BLOCK_BYTES`) into the output arrays, never through a
        temporary of the output's size, and the loss is :func:`loss` of the two coordinates of
        ``w`` in its plane ``(beta*-hat, c_perp)``, on an orthonormal frame of that plane
        (:func:`_loss_frame`: three rows and targets with the plane's exact Gram, claim
        ``kunin.loss_in_frame``; evaluated by :func:`_frame_loss`, generated from
        :func:`loss` on symbols), so that a time costs O(d), not O(n d); where the frame's
        entries are out of range, on the plane's data ``X beta*-hat, X c_perp`` (O(n + d)).
        ``a``, ``w``, ``beta`` and ``t`` are bit-for-bit those of the previous path
        (:meth:`_sample_reference`); the loss agrees within a derived rounding bound.  Times
        outside the float64-safe range (:func:`_f64_safe`) take the 17-digit fallback as
        before.
        """
        return self._sample(times, out, _SAMPLE_TIMES)

    def _sample(self, times: Any, out: States | None, name: str) -> States:
        """:meth:`sample` (``name``: the argument the times come from, for messages)."""
        if self.dps is None:
            return self._sample_f64(times, out, name)
        if out is not None:
            raise ValueError(
                f"out must be None for dps={self.dps} (preallocated outputs are float64 only, "
                f"dps=None), got {type(out).__name__}"
            )
        return self._sample_reference(times, name)

    def _states(self, ts: Any, inf: list[bool]) -> tuple[Any, Any, Any]:
        """``a`` (T,), ``w`` (T, d), ``loss`` (T,) at the working precision of the stored
        constants (no refinement; float64 without the safety check)."""
        k = self._data
        dps = self.dps
        ev = _evaluators("numpy" if dps is None else "mpmath")
        conv = nb.converter(dps)
        dt = nb.dtype(dps)
        T = len(ts)
        with nb.Precision(dps), np.errstate(all="ignore"):
            za, z1, zp = (np.empty(T, dtype=dt) for _ in range(3))
            fin = [i for i in range(T) if not inf[i]]
            if fin:
                tt = np.array([conv(ts[i]) for i in fin], dtype=dt)
                out = ev["coeffs"](
                    k["delta_p"], k["kappa"], k["Y"], k["Omega"], k["c_plus"], k["c_minus"],
                    k["cperp"], k["vx"], k["vy"], tt,
                )  # fmt: skip
                for arr, val in zip((za, z1, zp), out, strict=True):
                    arr[fin] = np.broadcast_to(val, tt.shape)
            if len(fin) < T:
                lim = ev["limits"](k["delta_p"], k["kappa"], k["Omega"], k["c_plus"],
                                   k["cperp"], k["vx"], k["vy"])  # fmt: skip
                for arr, val in zip((za, z1, zp), lim, strict=True):
                    arr[[i for i in range(T) if inf[i]]] = conv(val) if dps else float(val)
            a = k["sa"] * za
            # w = sqrt(eta_w') (z_1 beta*-hat + z_perp c_perp), as its coordinates in the plane
            # (sqrt(eta_w') z_1, sqrt(eta_w') z_perp) times the plane's vectors
            w = (z1 * k["sw"])[:, None] * k["bhat"][None, :] \
                + (zp * k["sw"])[:, None] * k["cperp_vec"][None, :]  # fmt: skip
            if k["minimum"] is None:
                losses = _loss(a, w, k["X"], k["y"])
            else:  # from beta - beta*, every term decaying (claim kunin.deviation_from_minimum)
                zd = np.empty(T, dtype=dt)
                if fin:
                    val = ev["deviation"](
                        k["delta_p"], k["kappa"], k["Y"], k["Omega"], k["c_plus"],
                        k["c_minus"], k["cperp"], k["vx"], k["vy"], tt, k["minimum"]["k_dev"],
                    )  # fmt: skip
                    zd[fin] = np.broadcast_to(val, tt.shape)
                if len(fin) < T:
                    val = ev["deviation_limit"](k["kappa"], k["Y"], k["Omega"], k["c_plus"])
                    zd[[i for i in range(T) if inf[i]]] = conv(val) if dps else float(val)
                losses = _loss_of(ev["loss_deviation"], k, zd, a * (zp * k["sw"]))
        return a, w, losses

    def _refined(self, dps: int) -> Trajectory:
        """The same trajectory with its constants at ``dps`` digits (cached)."""
        cache = self._data["refined"]
        if dps not in cache:
            k = self._data
            cache[dps] = _build(self.setup, k["a0"], k["w0"], dps)
        return cache[dps]


@nb.mpmath_in_mpmath_out
def closed_form(setup: Setup, a0: Number, w0: Any, *, dps: int | None = None,
                isotropy_rtol: Number | None = None) -> Trajectory:  # fmt: skip
    """Exact gradient-flow solution from ``(a0, w0)`` (seed 003, Part I, exact solution).

    Exists (and is implemented) when the inputs are isotropic, ``X^T X = s I_d`` with
    ``s > 0`` (whitened data: ``s = 1``); otherwise ``ValueError``.  Accepted when
    ``max|X^T X - s I| <= rtol s`` (``s = tr(X^T X)/d``) with ``rtol = isotropy_rtol`` or by
    default ``max(10 u, r_data)``: ``u`` the unit roundoff of float64 or of ``dps`` digits,
    ``r_data = whitening_rtol(n)`` (``4 n eps``) when any entry of X is a float (data whitened
    in float64 cannot be more isotropic, whatever ``dps``) and 0 for exact entries (int, str,
    mpf).  Data whitened from ill-conditioned inputs: ``isotropy_rtol=whitening_rtol(n,
    condition)``.

    Error from the isotropy defect: the solution is that of ``X^T X`` replaced by ``s I``.
    With ``X^T X = s (I + E)``, ``eps_iso = ||E||_2 <= d max|X^T X - s I| / s``, the true flow
    has the extra field ``-M s E beta``; to first order in ``eps_iso`` its state differs by
    ``int_0^t Phi(t, tau) M s E beta dtau``, of norm ``<= eps_iso s int_0^t ||Phi(t, tau)||
    ||M(tau)|| |beta(tau)| dtau`` (Phi the flow's linearisation); at ``t = inf`` the limit
    ``beta_inf = (X^T X)^-1 X^T y`` differs from ``beta*`` by ``<= eps_iso/(1 - eps_iso)
    |beta*|``.  So a defect of ``k eps`` costs about ``k`` units in the last place of the
    state, not more, on every time scale the flow is stable.
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a kunin.Setup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    a0, w0c = _check_weights(setup, a0, w0)
    s_exact = _isotropic_s(setup, dps, isotropy_rtol)
    traj = _build(setup, a0, w0c, dps, s_exact)
    if dps is not None:
        return traj
    k = traj._data
    k["trusted"] = _f64_trusted(k)
    if k["trusted"]:
        return traj
    # constants out of the safe float64 range: report them from the 17-digit evaluation
    shadow = traj._refined(_SHADOW_DPS)
    with mpmath.workdps(_SHADOW_DPS):
        rep = {"delta": float(shadow.delta), "s": float(shadow.s), "Omega": float(shadow.Omega),
               "beta_star": np.array([float(v) for v in shadow.beta_star])}  # fmt: skip
    args = {"delta": "a0, w0, eta_a, eta_w", "s": "X", "Omega": "X, y, eta_a, eta_w, a0, w0",
            "beta_star": "X, y"}  # fmt: skip
    for name, v in rep.items():
        if not np.all(np.isfinite(v)):
            raise ValueError(
                f"{name} exceeds the float64 range (|value| <= 1.8e308): {args[name]} too "
                "large for float64; pass dps=... for mpmath"
            )
    return Trajectory(setup=setup, dps=None, _data=k, **rep)


def _build(setup: Setup, a0: Number, w0c: Any, dps: int | None,
           s_exact: Any = None) -> Trajectory:  # fmt: skip
    """The trajectory's constants at ``dps`` digits (float64: ``None``), isotropy checked
    by the caller (``s_exact`` from :func:`isotropy`; recomputed when missing)."""
    if s_exact is None:
        s_exact = isotropy(setup, max(50, (dps or 17) + 20))[0]
    ev = _evaluators("numpy" if dps is None else "mpmath")
    conv = nb.converter(dps)
    sqrt = np.sqrt if dps is None else mpmath.sqrt
    with nb.Precision(dps), np.errstate(all="ignore"):
        X, y = _arrays(setup, dps)
        a = _weights(a0, dps, "a0")
        w = _weights(w0c, dps, "w0")
        s = conv(s_exact) if dps is not None else float(s_exact)
        eta_a, eta_w = conv(setup.eta_a), conv(setup.eta_w)
        # delta exactly from the exact inputs, rounded once: at working precision it cancels
        # (eta_w a^2 and eta_a |w|^2 agree to 1e-31 leave dps - 31 digits)
        exact = _balance(to_fraction(a0), np.array([to_fraction(v) for v in w0c], dtype=object),
                         to_fraction(setup.eta_a), to_fraction(setup.eta_w))  # fmt: skip
        if dps is None:
            # numpy's float64 (as the working values are): an overflow below is an inf for the
            # range checks, not a Python OverflowError
            delta = np.float64(nb.to_float(exact, "delta (from a0, w0, eta_a, eta_w)"))
        else:
            delta = mpmath.mpf(exact.numerator) / exact.denominator
        a = _scalar(a)
        # the primed quantities (eta' = s eta): delta' = s delta, kappa = sqrt(eta_a' eta_w')
        delta_p, kappa, sa, sw = ev["primed"](eta_a, eta_w, s, delta)
        beta_star = X.T @ y / s
        Y = sqrt(sum(beta_star * beta_star))
        bhat = beta_star / Y if Y != 0 else np.zeros_like(beta_star)
        # balanced coordinates z0 = (a / sqrt(eta_a'), w / sqrt(eta_w'))
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
        proj = _projection(setup)
        if proj is not None and Y != 0 and any(proj.Xty):
            # |w_perp|^2 = |w0|^2 - (w0.X^T y)^2 / |X^T y|^2 exactly: the rounding of w -
            # w_par bhat (~1e-17 |w| in float64) is not a perpendicular part.  It would decay
            # as E^2, slower than beta - beta* (E^4) of a start on the line of beta*, and
            # become the loss near the minimum (2e-81 for 1e-94 at 45 e-folds).  (Where
            # |beta*| rounds to 0, or X^T y is exactly 0, the working bhat is kept as it is.)
            w_fr = [to_fraction(v) for v in w0c]
            qq = sum((q * q for q in proj.Xty), Fraction(0))
            wq = sum((v * q for v, q in zip(w_fr, proj.Xty, strict=True)), Fraction(0))
            wperp2 = sum((v * v for v in w_fr), Fraction(0)) - wq * wq / qq
            if wperp2 == 0:
                cperp_vec = cperp_vec * 0
            cperp = _working_sqrt(wperp2, dps) / sw
            if wq == 0:
                # w0 exactly perpendicular to beta*: w_par = 0, not its rounding.  With a0 = 0
                # the start is the saddle's fixed line (zero gradient: it never moves), and a
                # residue of c_plus (-2e-62 at dps = 50) would grow into the minimum
                c1 = c1 * 0
                cperp_vec = w / sw
        c_plus = vx * c0 + vy * c1
        c_minus = -vy * c0 + vx * c1
        r = max(abs(c_plus), abs(c_minus), abs(cperp))
        # w(t) = sqrt(eta_w') (z_1(t) bhat + z_perp(t) c_perp_vec)
        data = dict(
            delta_p=delta_p, kappa=kappa, Y=Y, Omega=Omega, c_plus=c_plus, c_minus=c_minus,
            cperp=cperp, vx=vx, vy=vy, sa=sa, sw=sw, bhat=bhat, cperp_vec=cperp_vec, X=X, y=y,
            r=r, s=s, a0=a0, w0=w0c, refined={}, trusted=True, minimum=None,
        )  # fmt: skip
        if proj is not None:  # the loss from beta - beta* (claim kunin.deviation_from_minimum)
            if Y == 0:
                k_dev = c0 * c1
            else:  # (a0 w0.beta* - |beta*|^2) / (|beta*| kappa), the numerator exactly
                bw = sum((to_fraction(v) * q for v, q in zip(w0c, proj.Xty, strict=True)),
                         Fraction(0)) / proj.s  # fmt: skip
                bb = sum((q * q for q in proj.Xty), Fraction(0)) / proj.s**2
                k_dev = _working_rational(to_fraction(a0) * bw - bb, dps) / (Y * kappa)
            data["minimum"] = {"k_dev": k_dev, "floor": _working_rational(proj.floor, dps),
                               "root_s": sqrt(s)}  # fmt: skip
    rnd = nb.round_to(dps)
    return Trajectory(
        setup=setup, dps=dps, delta=rnd(delta), s=rnd(s), beta_star=beta_star,
        Omega=rnd(Omega), _data=data,
    )  # fmt: skip
