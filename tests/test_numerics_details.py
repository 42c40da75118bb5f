"""Details of numerics pinned by the sampled mutation run's survivors (issue 27)."""

from __future__ import annotations

import numpy as np
import pytest

from numerics import node_scaling_gd


def test_first_step_runs_defaults_draw_eight_distinct_seeds():
    """The default experiment averages over independent draws: eight distinct seeds, one
    target vector each (a repeated seed would count one network twice); and a repeated seed
    given by the caller is refused, naming seeds."""
    out = node_scaling_gd.first_step_runs(n=2, d=2, widths=(10,), gammas=(1.0,))
    assert sorted(out["seeds"]) == list(range(8))
    y = np.array(out["cases"][0]["y"])
    assert len({tuple(row) for row in np.round(y, 12)}) == 8  # eight different target draws
    with pytest.raises(ValueError, match="seeds must be distinct"):
        node_scaling_gd.first_step_runs(n=2, d=2, widths=(10,), gammas=(1.0,), seeds=(0, 0))
