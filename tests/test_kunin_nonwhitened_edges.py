"""kunin.closed_form on inputs that are not whitened: the edges an outside reviewer's mutants
(benchmarks/mutants/kunin_nonwhitened.py) found untested: the alignment defect is relative
to the eigenvalue (a scaled X is decided as X), ``alignment_rtol`` in [0, 1), exact data
decided exactly, the guard digits where ``w_E`` and ``w_N`` cancel, and ``out=`` refused at
dps on its own."""

from __future__ import annotations

import mpmath
import pytest

from solvable import kunin

# X^T X = 9 (I - n n^T), n = (2, -2, 1)/3: the eigenvalue 9 on span((1, 2, 2), (2, 1, -2))
RANK2 = ((1, 2, 2), (2, 1, -2), (0, 0, 0))
Y = ("0.5", "-0.3", "0.4")


def _scaled(c: float, perturb: float = 0.0) -> tuple[tuple[float, ...], ...]:
    rows = [[c * v for v in r] for r in RANK2]
    rows[1][2] += perturb
    return tuple(map(tuple, rows))


@pytest.mark.parametrize("c", [1.0, 100.0, 1e-3])
def test_the_alignment_defect_is_relative_to_the_eigenvalue(c):
    # the same relative perturbation (1e-9 of the entry) at every scale c of X: accepted at
    # alignment_rtol = 1e-6 (relative defect ~1e-10), refused at 1e-12; an absolute defect
    # would decide c = 100 (s = 9e4) and c = 1e-3 differently
    setup = kunin.Setup(0.2, 0.1, _scaled(c, -2 * c * 1e-9), (0.5, -0.3, 0.4))
    w0 = (0.2, -0.1, 0.3)
    traj = kunin.closed_form(setup, 0.8, w0, alignment_rtol=1e-6, isotropy_rtol=1e-12)
    assert isinstance(traj, kunin.AlignedTrajectory)
    assert traj.s == pytest.approx(9 * c * c, rel=1e-8)
    with pytest.raises(ValueError, match="alignment_rtol"):
        kunin.closed_form(setup, 0.8, w0, alignment_rtol=1e-12, isotropy_rtol=1e-12)


@pytest.mark.parametrize(
    ("bad", "says"),
    [(1, r"in \[0, 1\)"), (1.5, r"in \[0, 1\)"), (-1e-3, ">= 0, got -0.001"),
     (float("nan"), "finite and >= 0")],
)  # fmt: skip
def test_alignment_rtol_outside_zero_one_is_refused(bad, says):
    setup = kunin.Setup("0.2", "0.1", RANK2, Y)
    with pytest.raises(ValueError, match="alignment_rtol must be " + says):
        kunin.closed_form(setup, "0.8", ("0.2", "-0.1", "0.3"), alignment_rtol=bad)
    # just inside the range: accepted
    assert isinstance(kunin.closed_form(setup, "0.8", ("0.2", "-0.1", "0.3"),
                                        alignment_rtol=0.999), kunin.AlignedTrajectory)  # fmt: skip


def test_exact_data_are_decided_exactly():
    # a relative defect of 2.4e-21, below every float tolerance: exact strings are refused
    # (the data are not aligned), the same data without the defect are accepted
    off = ((1, 2, 2), (2, 1, "-2.00000000000000000001"), (0, 0, 0))
    with pytest.raises(ValueError, match=r"alignment_rtol = 0\.0e\+00"):
        kunin.closed_form(kunin.Setup("0.2", "0.1", off, Y), "0.8", ("0.2", "-0.1", "0.3"))
    ok = kunin.closed_form(kunin.Setup("0.2", "0.1", RANK2, Y), "0.8", ("0.2", "-0.1", "0.3"))
    assert isinstance(ok, kunin.AlignedTrajectory)


def test_guard_digits_where_the_eigenspace_and_kernel_parts_cancel():
    # w0[0] = 1e-8 is the sum of w_E[0] and w_N[0], each ~2: 8 digits cancel.  The closed
    # form works 10 digits beyond dps, so at dps = 30 the entry keeps its 30 digits (at t =
    # 0 it is w0[0] itself); without the guard it would keep ~22
    setup = kunin.Setup("0.2", "0.1", RANK2, ("0", "0", "0.7"))
    traj = kunin.closed_form(setup, 1, ("1e-8", "-4", "2"), dps=30)
    with mpmath.workdps(40):
        got = traj.at(0).w[0]
        assert abs(got - mpmath.mpf("1e-8")) <= mpmath.mpf("1e-8") * mpmath.mpf(10) ** -28


def test_out_is_refused_at_dps():
    setup = kunin.Setup(0.5, 1.5, ((1.0, 2.0, 2.0), (2.0, 1.0, -2.0), (0.0, 0.0, 0.0)),
                        (0.7, -0.2, 0.5))  # fmt: skip
    out = kunin.closed_form(setup, 0.3, (0.2, -0.1, 0.4)).sample([5.0, 6.0])
    with pytest.raises(ValueError, match="out must be None"):
        kunin.closed_form(setup, 0.3, (0.2, -0.1, 0.4), dps=20).sample([1.0, 2.0], out=out)
