"""Details of numerics that no result shows on its own: which ``rtol`` the torch path of
``numerics.simulate`` integrates at, and how large the CPU DOP853's batch tiles are.

Mutation-testing triage (batch D): each test pins a behaviour stated by a docstring (the
default and the meaning of ``rtol``; the measured range of the tile budget), not the
constants themselves.
"""

from __future__ import annotations

import numpy as np
import pytest

import numerics
from numerics import torch_flow
from numerics.torch_flow import dop853 as tf_dop853
from solvable.models import xu_ziyin as xz


# ---------------------------------------------------------------------------
# simulate(method="torch"): the rtol integrated at
# ---------------------------------------------------------------------------
def test_simulate_torch_default_rtol_is_1e_12():
    """``simulate``'s docstring: ``method="torch"`` integrates at ``rtol`` "(default
    1e-12)".  The default run is the explicit ``rtol=1e-12`` run (bit for bit: the same
    steps on the same machine), and not the run at torch_flow's own default (1e-10), which
    takes other steps (measured: the states at t = 1 differ by 2e-13)."""
    case = xz.case("generic")
    times = [1.0]

    def run(**kw):
        return numerics.simulate(case.setup, case.u0, case.W0, times, method="torch",
                                 device="cpu", **kw)  # fmt: skip

    default, explicit, other = run(), run(rtol=1e-12), run(rtol=torch_flow.DEFAULT_RTOL)
    for a, b, c in zip(default, explicit, other, strict=True):
        np.testing.assert_array_equal(a.W, b.W)
        np.testing.assert_array_equal(a.u, b.u)
        assert not np.array_equal(a.W, c.W)


def test_simulate_torch_integrates_at_the_rtol_given():
    """A loose ``rtol`` given to ``simulate(method="torch")`` is the one integrated at:
    DOP853's steps grow like ``rtol^(-1/8)``, so at ``rtol=1e-3`` seed 001's generic case
    reaches t = 3 within 20 attempted steps (measured: 10 suffice), while at 1e-12 it takes
    more than 40 and stops at ``max_steps=20`` with the documented ``ArithmeticError``
    naming it."""
    case = xz.case("generic")

    def run(rtol):
        """The state at t = 3, or the ArithmeticError's message."""
        try:
            (state,) = numerics.simulate(case.setup, case.u0, case.W0, [3.0], method="torch",
                                         device="cpu", rtol=rtol, max_steps=20)  # fmt: skip
        except ArithmeticError as exc:
            return str(exc)
        return state

    loose, tight = run(1e-3), run(1e-12)
    assert not isinstance(loose, str), loose
    assert loose.t == 3.0 and np.all(np.isfinite(loose.W))
    assert isinstance(tight, str) and "max_steps=20" in tight


# ---------------------------------------------------------------------------
# the CPU tiles of the DOP853 step: within the measured range of TILE_BYTES
# ---------------------------------------------------------------------------
MIB = 2**20


def _tile_bytes(batch: int, N: int, workers: int) -> list[int]:
    """The bytes of each CPU tile's stage buffer and scratch (``_TILE_ARRAYS`` float64
    arrays of ``(tile, N)``, as :data:`numerics.torch_flow.TILE_BYTES` describes them)."""
    per_row = tf_dop853._TILE_ARRAYS * N * 8
    spans = tf_dop853._tile_spans(batch, per_row, True, workers)
    return [(b - a) * per_row for a, b in spans]


@pytest.mark.parametrize("workers", [1, 2])
def test_cpu_tiles_lie_in_the_measured_fast_range(workers):
    """TILE_BYTES' docstring: a tile's stage buffer and scratch take about TILE_BYTES
    (shared by the workers); measured at B = 256 and 1024, width 256: "8 MiB and less were
    slower (per-operation overhead of small tiles), 32 to 128 MiB as fast as or faster than
    one tile".  So a large batch of width-256 states is cut into tiles of more than 8 MiB
    per worker and at most 128 MiB in all, and a batch whose whole buffer is below 8 MiB
    is one tile per worker (splitting it further is only the slower small tiles)."""
    N = 256
    sizes = _tile_bytes(100_000, N, workers)
    # the tiles the workers step at once: more than 8 MiB, at most 128 MiB together
    assert 8 * MIB < min(sizes) * workers and max(sizes) * workers <= 128 * MIB
    small = 8 * MIB // (tf_dop853._TILE_ARRAYS * N * 8)  # rows that fit in 8 MiB: 240
    assert len(_tile_bytes(small, N, workers)) == workers
