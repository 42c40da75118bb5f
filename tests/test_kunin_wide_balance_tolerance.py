"""The wide net's default balance tolerance for float entries, ``max(10 u, 4 (c + d) eps)``
(``kunin.isotropic_data._default_rtol``), from both sides, on whitened inputs and on inputs
that are not whitened (the reduced balance): a start whose ``Delta`` is off ``delta I`` by
12 eps (between 10 u = 10 eps and 16 eps at c = d = 2; 4 (c + d) eps = 32 eps at c = d = 4) is
accepted, one off by more than the tolerance is refused."""

from __future__ import annotations

import numpy as np
import pytest

from solvable import kunin

EPS = float(np.finfo(float).eps)


def _A(k: int, c: int) -> tuple[tuple[float, ...], ...]:
    """h = 2 rows ``e_1`` and ``(1 + k eps) e_2``: ``A A^T = diag(1, (1 + k eps)^2)``, off its
    mean by ``k eps`` (to ``k^2 eps^2``)."""
    return ((1.0,) + (0.0,) * (c - 1), (0.0, 1.0 + k * EPS) + (0.0,) * (c - 2))


WHITE = kunin.WideSetup(1, 1, ((2.0, 0.0), (0.0, 2.0)), ((1.0, 0.3), (0.2, 1.0)))  # c = d = 2
# X^T X = 4 P (rank 2 of 4): the aligned path's reduced balance, c = d = 4
FRAME = np.array([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]], dtype=float)
RANK2 = tuple(map(tuple, np.diag([1.0, 1.0, 0.0, 0.0]) @ FRAME))
ALIGNED = kunin.WideSetup(1, 1, RANK2, ((1.0, 0.2, 0.0, 0.3), (0.1, 1.0, 0.4, 0.0),
                                        (0.3, 0.0, 1.0, 0.2), (0.0, 0.1, 0.2, 1.0)))  # fmt: skip


@pytest.mark.parametrize(("setup", "within", "beyond"), [(WHITE, 12, 20), (ALIGNED, 24, 40)],
                         ids=["whitened", "aligned"])  # fmt: skip
def test_the_default_tolerance_from_both_sides(setup, within, beyond):
    c = setup.c
    W0 = ((0.0,) * setup.d,) * 2
    assert 10 * 2.0**-52 < within * EPS < 4 * (c + setup.d) * EPS < beyond * EPS
    traj = kunin.wide_closed_form(setup, _A(within, c), W0)
    assert abs(float(traj.delta) - 1.0) < 1e-13
    with pytest.raises(ValueError, match=r"delta I"):
        kunin.wide_closed_form(setup, _A(beyond, c), W0)
