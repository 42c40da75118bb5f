"""Oracle helpers: compare trajectories with the exact solution, in one place.

For users' own training code::

    from solvable.testing import assert_matches_closed_form
    assert_matches_closed_form(setup, u0, W0, times, us, Ws, rtol=1e-6)

and for the package itself, :func:`xu_ziyin_agreement` (closed form against the
independently simulated raw flow, used by ``solvable verify`` and the tests).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np

from solvable import xu_ziyin
from solvable.suites import XU_ZIYIN_SUITE
from solvable.tolerance import Tolerance, digits, error_in_units, relative_error

__all__ = [
    "assert_matches_closed_form",
    "manifold_condition",
    "state_errors",
    "xu_ziyin_agreement",
]


def manifold_condition(P: float, Q: float, alpha: float) -> float:
    """Amplification of a float64 perturbation of the initial state at the time where
    the closed form has ``alpha(t) = alpha`` (seed 001, Theorem 1), for any integrator.

    Off the invariant manifolds P = 0 / Q = 0 an error eps in the p (q) direction grows
    like ``e^{|log alpha|/2}`` while the state shrinks like ``e^{-|log alpha|/2}``:
    ``kappa = sqrt((P + Q) max(alpha, 1/alpha) / (P alpha + Q / alpha))``; 1 + O(1) for
    comparable P, Q > 0, ``alpha`` for P = 0 (the flow into the saddle of Proposition 1).
    """
    if P + Q == 0:
        return 1.0
    # the same ratio without dividing by alpha (alpha may underflow to 0 or overflow)
    den = P * alpha * alpha + Q if alpha <= 1 else P + Q / (alpha * alpha)
    return math.sqrt((P + Q) / den) if den > 0 else math.inf


def state_errors(
    got: xu_ziyin.State, ref: xu_ziyin.State, y: Any, tol: Tolerance, *, f_floor: Any = 0
) -> dict[str, float]:
    """Errors of ``got`` against ``ref`` in units of ``tol``: ``u`` and ``W``
    normwise relative, ``f`` relative to ``|y| + |f_ref - y| + f_floor`` (the scale
    at which the target and the residual fix the output; ``f_floor`` adds e.g. the
    conditioning ``gamma ||u|| ||W x||`` of measuring ``f`` as a float64 dot product)."""
    with mpmath.workdps(60):
        yy = mpmath.mpf(y)
        f_ref = mpmath.mpf(ref.f)
        f_scale = abs(yy) + abs(f_ref - yy) + mpmath.mpf(f_floor)
        f_tol = Tolerance(rtol=tol.rtol, atol=tol.atol + tol.rtol * float(f_scale))
        f_err = float(abs(mpmath.mpf(got.f) - f_ref)) / (f_tol.atol or 1.0)
    return {
        "u": error_in_units(got.u, ref.u, tol),
        "W": error_in_units(got.W, ref.W, tol),
        "f": f_err if f_scale != 0 else error_in_units([got.f], [ref.f], tol),
    }


def assert_matches_closed_form(
    setup: xu_ziyin.Setup,
    u0: Any,
    W0: Any,
    times: Sequence[Any],
    us: Sequence[Any],
    Ws: Sequence[Any],
    *,
    rtol: float = 1e-6,
    atol: float = 0.0,
) -> None:
    """Assert that a trajectory ``(us[k], Ws[k])`` at ``times[k]`` (e.g. from your
    own training loop with a small step) follows the exact gradient flow of
    Theorem 1 (seed 001) to ``rtol`` (normwise relative in ``u`` and ``W``)."""
    if len(times) != len(us) or len(times) != len(Ws):
        raise ValueError(
            f"times, us and Ws must have equal lengths, got {len(times)}, {len(us)}, {len(Ws)}"
        )
    tol = Tolerance(rtol=rtol, atol=atol)
    ref = xu_ziyin.closed_form(setup, u0, W0).sample(list(times))
    worst = (0.0, "", None)
    for k, t in enumerate(times):
        for name, got, exact in (("u", us[k], ref.u[k]), ("W", Ws[k], ref.W[k])):
            err = error_in_units(np.asarray(got, dtype=float), exact, tol)
            if err > worst[0]:
                worst = (err, name, t)
    if worst[0] > 1:
        err, name, t = worst
        raise AssertionError(
            f"{name} at t={t} is {err:.3g} tolerances (rtol={rtol}, atol={atol}) "
            "away from the exact gradient flow"
        )


def xu_ziyin_agreement(dps: int = 30, cases: Sequence[str] | None = None):  # -> Verdict
    """Closed form (``dps``) against ``numerics.simulate(method="mpmath", dps)`` over
    the suite, at ``t`` in {0, t_c/10, t_c, 10 t_c}; tolerance ``dps - 5`` digits.

    Why 5 digits of slack: the Taylor integrator controls each step's error to
    ``10**-(dps + 20)`` relative to each weight block and takes O(100) steps, and
    the closed form is evaluated with 10 guard digits; what remains is the
    conditioning of the suite's hardest cases (near-antiparallel layers with
    P ~ 1e-9 Q, a 1e-6 initialisation whose escape amplifies initial errors by
    ~1e3, the unstable P = 0 manifold), measured to cost none of the 30 digits
    with these guards (both sides agree after rounding to ``dps``).
    """
    import numerics
    from solvable.theorems import Verdict

    tol = Tolerance.digits(
        dps - 5,
        "Taylor integrator at dps + 20 digits, closed form at dps + 10; both rounded to dps",
    )
    selected = [c for c in XU_ZIYIN_SUITE if cases is None or c.name in cases]
    worst, where, min_digits = 0.0, "", float("inf")
    for case in selected:
        traj = xu_ziyin.closed_form(case.setup, case.u0, case.W0, dps=dps)
        with mpmath.workdps(dps + 10):
            times = [mpmath.mpf(0), traj.t_c / 10, traj.t_c, 10 * traj.t_c]
        exact = traj.sample(times)
        sim = numerics.simulate(case.setup, case.u0, case.W0, times, method="mpmath", dps=dps)
        for k, t in enumerate(times):
            errs = state_errors(sim[k], exact[k], case.setup.y, tol)
            for name, err in errs.items():
                if err > worst:
                    worst, where = err, f"{case.name}: {name} at t={mpmath.nstr(t, 6)}"
            for name in ("u", "W"):
                ref = getattr(exact[k], name)
                if relative_error(getattr(sim[k], name), ref) > 0:
                    min_digits = min(min_digits, digits(getattr(sim[k], name), ref))
    status = "confirmed" if worst <= 1 else "failed"
    agree = "all" if min_digits == float("inf") else f"{min_digits:.1f}"
    detail = (
        f"{len(selected)} cases x 4 times; digits of agreement in u, W: {agree} of {dps}; "
        f"worst error {worst:.2g} tolerances{f' ({where})' if where else ''}"
    )
    return Verdict(status, detail, max_error=worst, tolerance=tol)
