"""Seed 003 (Kunin et al.), the numeric claims: the closed form's reported constants and the
generated preconditioner against their definitions evaluated exactly, the continuity of the
solution through delta = 0, and Part II at ``h = c = 1`` against Part I (Theorem 4.2's
preconditioners, the wide closed form).
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.claims import Verdict
from solvable._core.exact_gram import to_fraction
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, beats, error_in_units, worst_of
from solvable.models.kunin.cases import CASES
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.flows import beta_gradient
from solvable.models.kunin.losses import balance, weight_preconditioner
from solvable.models.kunin.preconditioners import preconditioner, wide_preconditioner
from solvable.models.kunin.proofs import _poster_delta
from solvable.models.kunin.reduction import generator
from solvable.models.kunin.setups import Setup, WideSetup
from solvable.models.kunin.single_neuron import closed_form
from solvable.models.kunin.wide import wide_closed_form


def _delta_continuity(dps: int = 40) -> Verdict:
    """The balanced solution is the limit of unbalanced ones: moving a0 so that delta goes
    through 1e-12, 1e-18, 0, -1e-18, -1e-12 changes the state continuously (|change| <= C
    |delta| with C fixed by the two largest |delta|), at t in {1, 10} / Omega."""
    S_w = ["0.3", "-0.4"]
    setup = Setup("1", "1", [["1", "0"], ["0", "1"]], ["1", "0.5"])
    with mpmath.workdps(dps + 20):
        out = {}  # a0^2 = |w0|^2 + delta (equal rates): delta = 0 at a0 = 0.5
        for dlt in ("1e-12", "1e-18", "0", "-1e-18", "-1e-12"):
            a0 = mpmath.sqrt(mpmath.mpf("0.25") + mpmath.mpf(dlt))
            traj = closed_form(setup, a0, S_w, dps=dps)
            out[dlt] = traj.sample([1, 10])
        base = out["0"]
        slope = max(abs(out["1e-12"].a[k] - base.a[k]) / mpmath.mpf("1e-12") for k in range(2))
        worst = NOTHING_COMPARED
        for dlt in ("1e-18", "-1e-18", "-1e-12"):
            for k in range(2):
                change = abs(out[dlt].a[k] - base.a[k])
                bound = 2 * slope * abs(mpmath.mpf(dlt)) + mpmath.mpf(10) ** (-dps + 2)
                worst = worst_of(worst, float(change / bound))
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"|a(delta) - a(0)| <= 2 C |delta| through delta = 0 (C = {mpmath.nstr(slope, 3)}); "
        f"worst {worst:.2g} of the bound",
        max_error=worst,
    )


def _rational(value: Any) -> sp.Rational:
    """A stored number exactly (decimal strings, ints, floats, mpf, fractions)."""
    f = to_fraction(value)  # (an mpf with its sign: mpf.man_exp's mantissa is unsigned)
    return sp.Rational(f.numerator, f.denominator)


def _exact_constants(setup: Setup, a0: Any, w0: Any, digits: int = 150) -> dict[str, Any]:
    """``s``, ``beta_star``, ``delta``, ``Omega`` of ``closed_form``'s report, each from its
    definition in exact arithmetic (``Omega`` as mpf at ``digits``):

    * ``s``: ``X^T X = s I`` (checked exactly);
    * ``beta_star``: the least-squares solution, the zero of ``grad_beta L``
      (:func:`beta_gradient`, derived from :func:`loss`), solved exactly;
    * ``delta``: the poster's printed ``a^2 - ||w||^2`` in the unit-rate variables
      ``(a0/sqrt(eta_a), w0/sqrt(eta_w))`` times ``eta_a eta_w`` (claim ``kunin.unit_rates``);
    * ``Omega``: the largest eigenvalue of :func:`generator` (the linear part of the whitened
      flow, claim ``kunin.whitened_reduction``), by ``mpmath.eigsy``.

    Also ``scale = eta_w a0^2 + eta_a |w0|^2``, the size of the two terms of ``delta``."""
    X = sp.Matrix([[_rational(v) for v in row] for row in setup.X])
    y = [_rational(v) for v in setup.y]
    XtX = X.T * X
    s = XtX[0, 0]
    if XtX != s * sp.eye(setup.d):
        raise ValueError(f"X^T X must be s I exactly, got {XtX.tolist()}")
    B, Xs, ys, grad = beta_gradient(setup.n, setup.d)
    data = {**dict(zip(Xs.ravel(), X, strict=True)), **dict(zip(ys, y, strict=True))}
    (sol,) = sp.solve([g.xreplace(data) for g in grad], list(B), dict=True)
    beta = [sol[b] for b in B]
    ea, ew = _rational(setup.eta_a), _rational(setup.eta_w)
    a = _rational(a0)
    w = [_rational(v) for v in w0]
    delta = sp.nsimplify(ea * ew * _poster_delta(a / sp.sqrt(ea), [v / sp.sqrt(ew) for v in w]))
    S = symbolic()
    prm = {S.eta_a: ea, S.eta_w: ew, S.s: s, S.delta: delta}
    G = generator(S.exprs["delta_p"].subs(prm), S.exprs["kappa_of_rates"].subs(prm), beta)
    with mpmath.workdps(digits):
        Gm = mpmath.matrix([[nb.exact_to_mpf(e) for e in row] for row in G.tolist()])
        Omega = max(mpmath.eigsy(Gm, eigvals_only=True))
    return {"s": s, "beta_star": beta, "delta": delta, "Omega": Omega,
            "scale": ew * a**2 + ea * sum(v**2 for v in w)}  # fmt: skip


def _mpf_list(values: Any, digits: int = 150) -> list[mpmath.mpf]:
    with mpmath.workdps(digits):
        return [nb.exact_to_mpf(v) for v in np.ravel(np.asarray(values, dtype=object))]


# float64: every reported constant is a few (<= ~10) roundings of inputs that are themselves
# rounded once (0.5 ulp); measured worst 1.4 eps (reported_constants, wide_preconditioner_single)
# and 0.9 eps (preconditioner_evaluators): 32 eps leaves a factor >= 20
F64 = Tolerance(
    rtol=32 * float(np.finfo(float).eps),
    reason="float64: inputs rounded once, then <= ~10 roundings per constant",
)


def _tolerance(dps: int | None) -> Tolerance:
    """Of a reported constant at ``dps`` digits (``None``: float64): closed_form works at
    dps + 10 digits and rounds to dps, so it is right to one unit of the last digit."""
    return F64 if dps is None else Tolerance.digits(dps - 1, f"closed form rounded to {dps} digits")


def _reported_constants(dps: int = 30) -> Verdict:
    """``closed_form``'s ``s``, ``beta_star``, ``delta``, ``Omega`` against their definitions
    evaluated exactly (:func:`_exact_constants`), over :data:`CASES`, in float64 and at
    ``dps`` and ``2 dps`` digits.  delta is compared in units of ``eta_w a0^2 + eta_a |w0|^2``
    (it is their difference: an absolute floor, so that delta = 0 is measured too)."""
    worst, where = NOTHING_COMPARED, ""
    for case in CASES:
        ex = _exact_constants(case.setup, case.a0, case.w0)
        for prec in (None, dps, 2 * dps):
            tol = _tolerance(prec)
            traj = closed_form(case.setup, case.a0, case.w0, dps=prec)
            scale = _mpf_list([ex["scale"]])[0]
            dtol = Tolerance(tol.rtol, float(tol.rtol * scale), "delta: relative to its terms")
            for name, got, ref, t in (
                ("s", [traj.s], _mpf_list([ex["s"]]), tol),
                ("beta_star", traj.beta_star, _mpf_list(ex["beta_star"]), tol),
                ("delta", [traj.delta], _mpf_list([ex["delta"]]), dtol),
                ("Omega", [traj.Omega], [ex["Omega"]], tol),
            ):  # fmt: skip
                err = error_in_units(got, ref, t)
                if beats(err, worst):
                    worst, where = err, f"{case.name}: {name} at dps={prec}"
    return Verdict.from_error(
        worst,
        f"{len(CASES)} cases x (float64, dps {dps}, {2 * dps}): s, beta_star, delta, Omega vs "
        f"their exact definitions; worst {worst:.2g} tolerances" + (f" ({where})" * bool(where)),
        F64,
    )


def _preconditioner_evaluators(dps: int = 30) -> Verdict:
    """:func:`preconditioner` (generated lambda_1, lambda_2; float64 and mpmath at dps and
    2 dps digits) at every case's ``beta0 = a0 w0`` and ``delta0`` equals
    :func:`weight_preconditioner` at ``(a0, w0)`` evaluated exactly (normwise)."""
    worst, where, n = NOTHING_COMPARED, "", 0
    for case in CASES:
        ex = _exact_constants(case.setup, case.a0, case.w0)
        a = _rational(case.a0)
        w = np.array([_rational(v) for v in case.w0], dtype=object)
        if a == 0 or not any(w):
            continue  # beta0 = 0: the direction beta/|beta| of M(beta, delta) is undefined
        n += 1
        ea, ew = _rational(case.setup.eta_a), _rational(case.setup.eta_w)
        ref = _mpf_list(weight_preconditioner(a, w, ea, ew))
        for prec in (None, dps, 2 * dps):
            with mpmath.workdps(2 * dps + 20):
                beta = _mpf_list(a * w, 2 * dps + 20)
                delta = _mpf_list([ex["delta"]], 2 * dps + 20)[0]
            if prec is None:
                beta, delta = [float(v) for v in beta], float(delta)
            got = preconditioner(beta, delta, case.setup.eta_a, case.setup.eta_w, dps=prec)
            err = error_in_units(got, ref, _tolerance(prec))
            if beats(err, worst):
                worst, where = err, f"{case.name} at dps={prec}"
    return Verdict.from_error(
        worst, f"{n} cases x (float64, dps {dps}, {2 * dps}); worst {worst:.2g} tolerances"
        + (f" ({where})" * bool(where)), F64)  # fmt: skip


def _wide_preconditioner_single(dps: int = 30) -> Verdict:
    """Theorem 4.2 at h = c = 1 is the single neuron: for every case with delta >= 0 (d = 2)
    and every case's d = 1 restriction (first coordinate), ``M_L + M_R`` of
    :func:`wide_preconditioner` at ``beta0`` (as a d x 1 matrix) equals :func:`preconditioner`;
    float64 and mpmath at dps, 2 dps digits."""
    worst, where, n = NOTHING_COMPARED, "", 0
    for case in CASES:
        a = _rational(case.a0)
        ea, ew = case.setup.eta_a, case.setup.eta_w
        for w in ([_rational(v) for v in case.w0], [_rational(case.w0[0])]):
            delta = balance(a, np.array(w, dtype=object), _rational(ea), _rational(ew))
            if a == 0 or not any(w) or (delta < 0 and len(w) > 1):
                continue  # beta0 = 0, or Theorem 4.2's h = d fails for a single neuron
            n += 1
            beta = [a * v for v in w]
            for prec in (None, dps, 2 * dps):
                conv = float if prec is None else (lambda v: _mpf_list([v], 2 * dps + 20)[0])
                b, dl = [conv(v) for v in beta], conv(delta)
                left, right = wide_preconditioner([[v] for v in b], dl, ea, ew, dps=prec)
                single = preconditioner(b, dl, ea, ew, dps=prec)
                with mpmath.workdps(2 * dps + 20):  # the sum at the compared precision
                    got = left + right[0, 0] * np.eye(len(b), dtype=int)
                # the SVD of a d x 1 matrix and a few products: roundings ~ d eps of |M|
                err = error_in_units(got, single, _tolerance(prec))
                if beats(err, worst):
                    worst, where = err, f"{case.name} (d={len(w)}) at dps={prec}"
    return Verdict.from_error(
        worst, f"{n} (case, d) pairs x (float64, dps {dps}, {2 * dps}); worst {worst:.2g} "
        "tolerances" + (f" ({where})" * bool(where)), F64)  # fmt: skip


def _wide_single_neuron(dps: int = 30) -> Verdict:
    """h = c = 1: wide_closed_form's A, W and beta equal closed_form's a, w, beta (Part I)
    over every case with delta >= 0 (d = 2) and every case's d = 1 restriction, at t in {0,
    0.5, 3, 30, 1e4, inf}, float64 and dps digits (the origin, a saddle, is refused by the
    wide form and skipped)."""
    times = ("0", "0.5", "3", "30", "1e4", math.inf)
    worst, where, n = NOTHING_COMPARED, "", 0
    for cs in CASES:
        for w in (list(cs.w0), [cs.w0[0]]):
            X = cs.setup.X if len(w) == 2 else tuple((r[0],) for r in cs.setup.X)
            single = Setup(cs.setup.eta_a, cs.setup.eta_w, X, cs.setup.y)
            wide = WideSetup(cs.setup.eta_a, cs.setup.eta_w, X, tuple((v,) for v in cs.setup.y))
            delta = balance(_rational(cs.a0), np.array([_rational(v) for v in w]),
                            _rational(cs.setup.eta_a), _rational(cs.setup.eta_w))  # fmt: skip
            if (delta < 0 and len(w) > 1) or (_rational(cs.a0) == 0 and not any(map(_rational, w))):
                continue  # outside Theorem 4.2's h = d, or the saddle at the origin
            n += 1
            for prec in (None, dps):
                tw = wide_closed_form(wide, [[cs.a0]], [w], dps=prec)
                ts = closed_form(single, cs.a0, w, dps=prec)
                tol = _wide_tolerance(prec)
                for t in times:
                    a, b = tw.at(t), ts.at(t)
                    got = np.concatenate([a.A.ravel(), a.W.ravel(), a.beta.ravel()])
                    ref = np.concatenate([[b.a], b.w, b.beta])
                    err = error_in_units(got, ref, tol)
                    if beats(err, worst):
                        worst, where = err, f"{cs.name} (d={len(w)}) at t={t}, dps={prec}"
    return Verdict.from_error(
        worst, f"{n} (case, d) pairs x 6 times x (float64, dps {dps}); worst {worst:.2g} "
        "tolerances" + (f" ({where})" * bool(where)), _wide_tolerance(None))  # fmt: skip


def _wide_tolerance(dps: int | None) -> Tolerance:
    """Of two closed forms (wide and single neuron) compared normwise: float64, each is an
    SVD / eigen-decomposition, a 2 x 2 eigenvector and <= ~20 roundings of O(1) terms; with
    condition ~|Z| (C_+^{-1}, <= ~10 in the suite): measured worst 2.6 eps, 32 eps leaves a
    factor >= 10.  mpmath: both at dps + 10 digits, rounded to dps: dps - 2 digits."""
    if dps is None:
        return Tolerance(32 * float(np.finfo(float).eps), reason="float64, two evaluations")
    return Tolerance.digits(dps - 2, f"two closed forms rounded to {dps} digits")
