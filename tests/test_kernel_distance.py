"""The kernel distance ``S(0, t) = 1 - <K0, K> / (|K0| |K|)`` and the task alignment
``y^T K y / (|K| |y|^2)`` (issue 31, item 4, as measures of simulations): against 50-digit
references, the small-S regime where ``1 - cos`` loses every digit, every scale, both sides
of every refusal, and the recorder along a torch run."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import measures, models, torch_flow


def _reference_distance(K, K0) -> float:
    with mpmath.workdps(50):
        a = [mpmath.mpf(float(v)) for v in K.reshape(-1).tolist()]
        b = [mpmath.mpf(float(v)) for v in K0.reshape(-1).tolist()]
        dot = mpmath.fsum(x * y for x, y in zip(a, b, strict=True))
        na = mpmath.sqrt(mpmath.fsum(x * x for x in a))
        nb = mpmath.sqrt(mpmath.fsum(y * y for y in b))
        return 1 - dot / (na * nb)


def _psd(rng, n):
    G = rng.standard_normal((n, n))
    return torch.tensor(G @ G.T, dtype=torch.float64)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6),
       eps=st.sampled_from([1e-12, 1e-8, 1e-4, 1e-1, 1.0]),
       scale=st.sampled_from([1e-200, 1e-30, 1.0, 1e30, 1e200]))  # fmt: skip
def test_distance_against_50_digits_at_every_scale_and_size_of_change(seed, n, eps, scale):
    """``|K^ - K0^|^2 / 2`` keeps its digits where the kernel barely moves: each entry of the
    difference of two unit matrices is right to a few eps of the entry, so S = |diff|^2 / 2
    is right to about 8 n eps / sqrt(S) relative (1e-7 at S = 1e-16), where ``1 - cos`` in
    float64 would be off by eps absolutely (100% at S = 1e-16); independent of the scale."""
    rng = np.random.default_rng(seed)
    K0 = _psd(rng, n)
    K = K0 + eps * _psd(rng, n)
    got = float(measures.kernel_distance((scale * K)[None], K0[None])[0])
    want = _reference_distance(K, K0)
    bound = 8 * n * 2.2e-16 * (math.sqrt(float(want)) + 2.2e-16) + 1e-300
    assert abs(got - float(want)) <= bound, (got, want)
    assert 0 <= got <= 1 + 1e-15  # positive semi-definite kernels: in [0, 1]


def test_values_at_the_ends_symmetry_and_batching():
    rng = np.random.default_rng(0)
    K0 = torch.stack([_psd(rng, 3) for _ in range(4)])
    K = torch.stack([_psd(rng, 3) for _ in range(4)])
    assert torch.equal(measures.kernel_distance(K0, K0), torch.zeros(4, dtype=torch.float64))
    assert torch.allclose(measures.kernel_distance(-K0, K0), torch.full((4,), 2.0,
                          dtype=torch.float64), rtol=0, atol=1e-15)  # fmt: skip
    a, b = measures.kernel_distance(K, K0), measures.kernel_distance(K0, K)
    assert torch.allclose(a, b, rtol=1e-15, atol=0)  # |x - y| = |y - x|: the same sums
    one = torch.stack([measures.kernel_distance(K[i : i + 1], K0[i : i + 1])[0]
                       for i in range(4)])  # fmt: skip
    assert torch.equal(one, a)  # each batch element alone, the same bits


def test_task_alignment_values_and_forms_of_y():
    y = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    K = torch.outer(y, y)[None] * torch.tensor([3.0, 1e-250], dtype=torch.float64).reshape(2, 1, 1)
    got = measures.task_alignment(K, y)
    assert torch.allclose(got, torch.ones(2, dtype=torch.float64), rtol=0, atol=1e-15)
    rng = np.random.default_rng(1)
    Kb = torch.stack([_psd(rng, 3) for _ in range(3)])
    yb = torch.tensor(rng.standard_normal((3, 3)))
    got = measures.task_alignment(Kb, yb)
    with mpmath.workdps(50):
        for i in range(3):
            Km = mpmath.matrix(Kb[i].tolist())
            ym = mpmath.matrix(yb[i].tolist())
            want = (ym.T * Km * ym)[0] / (mpmath.mnorm(Km, "f") * mpmath.norm(ym) ** 2)
            # a quadratic form of n = 3 unit entries: a few eps
            assert abs(float(got[i]) - float(want)) <= 1e-14
    same = measures.task_alignment(Kb, yb[0])
    assert torch.equal(same, measures.task_alignment(Kb, yb[0].expand(3, 3)))
    assert torch.equal(measures.task_alignment(-K, y), -measures.task_alignment(K, y))
    # a float32 y against a float64 K: computed (and returned) in K's float64
    y32 = yb[0].to(torch.float32)
    got32 = measures.task_alignment(Kb, y32)
    assert got32.dtype == torch.float64
    assert torch.allclose(got32, measures.task_alignment(Kb, y32.double()), rtol=0, atol=0)


def test_refusals_name_the_argument():
    K = torch.eye(2, dtype=torch.float64)[None]
    zero = torch.zeros(1, 2, 2, dtype=torch.float64)
    with pytest.raises(ValueError, match="K0 is zero in batch element"):
        measures.kernel_distance(K, zero)
    with pytest.raises(ValueError, match="K is zero in batch element"):
        measures.kernel_distance(zero, K)
    with pytest.raises(ValueError, match="K must be finite"):
        measures.kernel_distance(K * math.inf, K)
    with pytest.raises(ValueError, match=r"must have a batch axis and at least one more"):
        measures.kernel_distance(torch.tensor([1.0, 2.0]), torch.tensor([3.0, -4.0]))
    with pytest.raises(ValueError, match="same shape"):
        measures.kernel_distance(K, torch.eye(3, dtype=torch.float64)[None])
    with pytest.raises(TypeError, match="K must be a torch tensor"):
        measures.kernel_distance(np.eye(2)[None], K)
    y = torch.tensor([1.0, 2.0], dtype=torch.float64)
    with pytest.raises(ValueError, match="y is zero in batch element"):
        measures.task_alignment(K, torch.zeros(2, dtype=torch.float64))
    with pytest.raises(
        ValueError, match=r"y must have shape \(n,\) or \(B, n\) = \(1, 2\), got \(3,\)"
    ):
        measures.task_alignment(K, torch.ones(3, dtype=torch.float64))
    with pytest.raises(ValueError, match="K must be square"):
        measures.task_alignment(torch.ones(1, 2, 3, dtype=torch.float64), y)
    with pytest.raises(ValueError, match="K must have 3 dimensions"):
        measures.task_alignment(torch.eye(2, dtype=torch.float64), y)
    with pytest.raises(ValueError, match="K must be finite"):
        measures.task_alignment(K * math.nan, y)
    # K = I: y^T y / (|I|_F |y|^2) = 1 / sqrt(n) for every y
    assert float(measures.task_alignment(K, y)[0]) == pytest.approx(1 / math.sqrt(2), rel=1e-15)


def test_record_kernel_distance_along_a_run():
    """The recorder's S(0, t) is kernel_distance of the NTK Gram matrices at t and at the
    start: 0 at t = 0 exactly, growing as the features move."""
    model = models.NodeScaled([[1.0, 0.5], [-0.3, 0.8]], [1.0, -0.5], "tanh", 0.5)
    p0 = models.node_scaled_parameters([0.6, 0.4], 2, 3, seed=1, device="cpu")
    rec = measures.record_kernel_distance(model, p0)
    res = torch_flow.gradient_flow(model, p0, [0.0, 1.0, 5.0], rtol=1e-10,
                                   measures={"S": rec}, keep_params=True)  # fmt: skip
    S = res.measures["S"]
    assert torch.equal(S[0], torch.zeros(3, dtype=torch.float64))
    data = measures._data(model)
    K0 = measures.ntk(model, p0, data)
    for k in (1, 2):
        pk = {b: v[k] for b, v in res.params.items()}
        want = measures.kernel_distance(measures.ntk(model, pk, data), K0)
        assert torch.allclose(S[k], want, rtol=1e-12, atol=0)
    assert bool((S[2] > 0).all())  # the features moved
    with pytest.raises(ValueError, match="p0 \\(its NTK Gram matrix on X\\) is zero"):
        measures.record_kernel_distance(model, {b: 0 * v for b, v in p0.items()})


def test_one_zero_batch_element_among_others_is_named():
    """The zero test is per batch element: the zero one is refused by index, not left to
    give a nan in its row."""
    K = torch.eye(2, dtype=torch.float64)
    three = torch.stack([K, 0 * K, 2 * K])
    with pytest.raises(ValueError, match=r"K0 is zero in batch element\(s\) \[1\]"):
        measures.kernel_distance(torch.stack([K] * 3), three)
    with pytest.raises(ValueError, match=r"old is zero in batch element\(s\) \[1\]"):
        measures.relative_change(torch.stack([K] * 3), three)
