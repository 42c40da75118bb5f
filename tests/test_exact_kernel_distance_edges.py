"""The exact kernel measures (``solvable/_core/kernel_measures.py``) at the edges an outside
reviewer's mutants (benchmarks/mutants/kernel_measures_exact.py) found untested: a norm
ratio below the float64 range, the mpmath branch's guard digits, the targets' shape for
(n, c, n, c) kernels, targets with a zero entry, ``kernel_path`` rounded to the
trajectory's digits, ``mpmath.inf`` as a time, and the figure's simulated points."""

from __future__ import annotations

import re

import mpmath
import numpy as np
import pytest
from matplotlib.figure import Figure

from solvable import kunin
from solvable._core import kernel_measures as km
from solvable._core import numbers as nb
from solvable.verification.figures import seed_003

K0 = np.array([[2.0, 0.5], [0.5, 1.0]])
K1 = np.array([[1.0, -0.3], [-0.3, 3.0]])


@pytest.mark.parametrize("e", [200, 300])
def test_a_norm_ratio_below_the_float64_range_is_refused(e):
    # |K_t| / |K_0| ~ 10^(-2e): below the smallest double, refused (not rounded to 0); the
    # same ratio the other way round overflows and is refused too
    with pytest.raises(nb.Float64RangeError, match="outside the float64 range"):
        km.kernel_norm_change(10.0**e * K0, 10.0**-e * K1)
    with pytest.raises(nb.Float64RangeError, match="outside the float64 range"):
        km.kernel_norm_change(10.0**-e * K0, 10.0**e * K1)
    # within the range: the ratio itself
    ratio = km.kernel_norm_change(1e150 * K0, 1e-150 * K1)
    assert ratio == pytest.approx(1e-300 * np.linalg.norm(K1) / np.linalg.norm(K0), rel=1e-14)


def test_the_mpmath_branch_keeps_its_digits_for_a_lazy_pair():
    # S ~ 1e-39 from kernels that differ by 2^-64 ~ 5e-20 (dyadic entries: the same exact
    # inputs at every precision).  The stable form's relative error is ~ (rounding of the
    # unit kernels) / sqrt(S): with the branch's 10 guard digits 1e-40 / 4e-20 ~ 1e-21
    # (measured 1.4e-22), without them 1e-30 / 4e-20 ~ 1e-11; the bound 1e-18 between
    a = np.array([[mpmath.mpf(v) for v in r] for r in K0], dtype=object)
    d = np.array([[mpmath.mpf(v) for v in r] for r in ((1, -0.25), (-0.25, 3))], dtype=object)
    with mpmath.workdps(40):  # (66-bit entries: exact here and at 30 digits, 103 bits)
        b = a + mpmath.ldexp(1, -64) * d

    def S(dps):
        with mpmath.workdps(dps):
            return km.kernel_distance(a, b)

    with mpmath.workdps(80):
        got, ref = mpmath.mpf(S(30)), mpmath.mpf(S(70))
        assert ref > 0 and abs(got - ref) <= ref * mpmath.mpf(10) ** -18


def test_targets_of_an_nc_kernel_must_have_the_data_shape():
    rng = np.random.default_rng(0)
    F = rng.standard_normal((6, 6))
    K = (F @ F.T).reshape(3, 2, 3, 2)
    Y = rng.standard_normal((3, 2))
    assert -1 <= km.task_alignment(K, Y) <= 1
    with pytest.raises(ValueError, match="y must have the shape"):
        km.task_alignment(K, Y.T)


def _neuron():
    setup = kunin.Setup(1, 1, ((1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0)), (1, 0, 0, 0))
    return setup, kunin.closed_form(setup, "0.7", ("0.2", "-0.3", "0.1"), dps=30)


def test_targets_with_a_zero_entry_keep_the_alignment():
    setup, traj = _neuron()
    path = km.kernel_path(traj, [0, 1], kernel=kunin.neuron_kernel(setup))
    assert path.alignment is not None and all(0 < v <= 1 for v in path.alignment)
    with pytest.raises(ValueError, match="y"):
        km.kernel_path(traj, [0, 1], kernel=kunin.neuron_kernel(setup), y=(1, 0, 0))


def test_kernel_path_is_rounded_to_the_trajectorys_digits():
    setup, traj = _neuron()
    path = km.kernel_path(traj, [0.5, 2], kernel=kunin.neuron_kernel(setup))
    with mpmath.workdps(30):
        for v in (*path.distance, *path.norm_change, *path.alignment):
            assert isinstance(v, mpmath.mpf) and +v == v  # (unary + rounds to 30 digits)


def test_mpmath_inf_is_the_limit():
    setup, traj = _neuron()
    kernel = kunin.neuron_kernel(setup)
    path = km.kernel_path(traj, [mpmath.inf, float("inf")], kernel=kernel)
    limit = kunin.limit_kernel_distance(traj)
    with mpmath.workdps(30):
        assert path.distance[0] == path.distance[1]
        assert abs(path.distance[0] - limit) <= abs(limit) * mpmath.mpf(10) ** -25


def test_the_figure_simulates_the_points_it_compares():
    fig = Figure()
    seed_003._draw_kernel_distance(fig, False, False)
    titles = " ".join(ax.get_title() for ax in fig.axes)
    err = float(re.search(r"max \|exact - simulated\| = ([0-9.e+-]+)", titles).group(1))
    # the simulated time stands for t = oo to ~1e-9 (test_figure_points_are_converged)
    assert err <= 1e-8, titles
