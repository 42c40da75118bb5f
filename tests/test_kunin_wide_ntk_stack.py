"""Issue 31, item 5: the wide net's float64 sample builds its NTK stack ``(T, n, c, n, c)``
with no temporary of the output's size (``kunin.wide_sample.wide_ntk_stack``); it must be
the array code ``kunin.reduction._wide_ntk_array`` bit for bit (the same bytes: values and
signs of zeros), on random stacks with exact zeros of both signs, and through
``WideTrajectory.sample`` against the per-time ``at``.  No wall-clock time is asserted
(``benchmarks/closed_form_scale.py --only kunin_wide`` measures it)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable.models import kunin
from solvable.models.kunin.reduction import _wide_ntk_array
from solvable.models.kunin.wide_sample import wide_ntk_stack


def _with_zeros(rng, shape, share):
    """Gaussian entries, a ``share`` of them replaced by +0.0 or -0.0."""
    a = rng.standard_normal(shape)
    mask = rng.random(shape) < share
    a[mask] = np.where(rng.random(int(mask.sum())) < 0.5, 0.0, -0.0)
    return a


@settings(max_examples=60, deadline=None)
@given(T=st.integers(1, 4), n=st.integers(1, 5), c=st.integers(1, 4), d=st.integers(1, 5),
       share=st.sampled_from([0.0, 0.3, 1.0]), seed=st.integers(0, 2**32 - 1),
       eta=st.tuples(st.floats(1e-3, 10.0), st.floats(1e-3, 10.0)))  # fmt: skip
def test_ntk_stack_is_the_array_code_bit_for_bit(T, n, c, d, share, seed, eta):
    rng = np.random.default_rng(seed)
    ga, gw = _with_zeros(rng, (T, c, c), share), _with_zeros(rng, (T, d, d), share)
    X = _with_zeros(rng, (n, d), share / 2)
    got, ref = wide_ntk_stack(ga, gw, X, *eta), _wide_ntk_array(ga, gw, X, *eta)
    assert got.shape == ref.shape == (T, n, c, n, c) and got.dtype == ref.dtype
    assert got.tobytes() == ref.tobytes()


def test_ntk_stack_of_object_arrays_is_the_array_code():
    ga = np.array([[[1, 2], [3, 4]]], dtype=object)
    gw = np.array([[[1, 0], [0, 2]]], dtype=object)
    X = np.array([[1, 1], [0, 1]], dtype=object)
    got, ref = wide_ntk_stack(ga, gw, X, 2, 3), _wide_ntk_array(ga, gw, X, 2, 3)
    assert got.dtype == object and np.array_equal(got, ref)


def test_sample_ntk_equals_the_per_time_state():
    rng = np.random.default_rng(0)
    n, c, h = 5, 4, 2
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    setup = kunin.WideSetup(1.0, 0.5, 2.0 * Q, rng.standard_normal((n, c)))
    A0, W0 = kunin.wide_start(setup, 0.5, W=rng.standard_normal((h, n)) / np.sqrt(n))
    tr = kunin.wide_closed_form(setup, A0, W0)
    times = [0.0, 0.3, 2.0, 50.0, float("inf")]
    states = tr.sample(times)
    for k, t in enumerate(times):
        ref = tr.at(t).ntk
        # the stacked engine is at()'s arithmetic "to a few ulps" (wide_sample's docstring):
        # 8 ulps of the NTK's largest entry
        assert np.max(np.abs(states.ntk[k] - ref)) <= 8 * np.spacing(np.max(np.abs(ref)))
