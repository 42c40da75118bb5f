"""Oracle helpers: compare trajectories with the exact solution, in one place.

For users' own training code::

    from solvable.testing import assert_matches_closed_form
    assert_matches_closed_form(setup, u0, W0, times, us, Ws, rtol=1e-6)

and, for the package's own confirmations, :func:`state_errors` (errors of a state in
units of a tolerance).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np

from solvable import xu_ziyin
from solvable._core.tolerance import Tolerance, error_in_units

__all__ = ["assert_matches_closed_form", "state_errors"]


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
