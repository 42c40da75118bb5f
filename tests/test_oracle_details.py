"""Details of solvable.testing pinned by the sampled mutation run's survivors (issue 27)."""

from __future__ import annotations

from types import SimpleNamespace

from solvable._core.tolerance import Tolerance
from solvable.testing import state_errors


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
