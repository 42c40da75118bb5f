"""Details of solvable.verification.testing pinned by the sampled mutation run's survivors (issue
27)."""

from __future__ import annotations

from types import SimpleNamespace

from solvable._core.tolerance import Tolerance
from solvable.verification.testing import state_errors


def test_state_errors_at_a_zero_output_scale_measure_f_absolutely():
    """``f`` is measured relative to ``|y| + |f_ref - y| + f_floor``; where that scale and
    ``atol`` are all 0 (target 0, the reference output 0: a start at the origin) there is
    no division by zero: an exact match is 0 units, any other output infinitely many (a
    zero tolerance), as error_in_units says."""
    ref = SimpleNamespace(u=[0.0, 0.0], W=[[0.0, 0.0], [0.0, 0.0]], f=0.0)
    tol = Tolerance(rtol=1e-10, atol=0.0)
    out = state_errors(ref, ref, 0, tol)
    assert out["f"] == 0.0
    off = SimpleNamespace(u=[0.0, 0.0], W=[[0.0, 0.0], [0.0, 0.0]], f=0.25)
    assert state_errors(off, ref, 0, tol)["f"] == float("inf")


def test_the_gd_step_check_reads_every_time_whatever_their_order():
    """``lr max||J(theta(t))||`` is over *every* time given (gd_allowance's docstring): with
    100 times (near_parallel, lr = 0.004, steps 250, 0, 251..348) a check of every 50th
    time in the caller's order read 0 and 250 only and accepted, while the same times sorted
    were refused (lr max||J|| = 0.46 > 0.25).  The verdict must not depend on the order."""
    import numpy as np
    import pytest

    from solvable.models import xu_ziyin as xz
    from solvable.verification import testing

    case = xz.case("near_parallel")
    oracle = testing.xu_ziyin(case.setup, case.u0, case.W0)
    lr = 0.004
    steps = np.array([250, 0, *range(251, 349)])
    for order in (np.arange(steps.size), np.argsort(steps)):
        ts = steps[order] * lr
        exact = oracle.exact(ts)
        with pytest.raises(ValueError, match="GD_STEP_LIMIT"):
            oracle.compare(ts, **{b: np.asarray(exact[b], dtype=float) for b in oracle.blocks},
                           lr=lr)  # fmt: skip
