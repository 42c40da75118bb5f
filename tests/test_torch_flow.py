"""numerics.torch_flow / models / measures on CPU (and, marked ``gpu``, on CUDA; the CPU
tests pin ``device="cpu"`` so that they run the same on a CUDA machine):
accuracy against the mpmath oracle, gradient descent -> gradient flow at first order,
batch independence, gradients against the papers' hand-written flows, measures against
their closed forms, memory-aware splitting, devices, seeds and input errors."""

from __future__ import annotations

import itertools
import math
import threading

import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tails_sweeps_and_defaults import _Quadratic  # L = theta^T H theta / 2, rates 1/2, 2

import numerics
from numerics import measures, models, torch_flow
from numerics.torch_flow import dop853 as tf_dop853
from numerics.torch_flow import field as tf_field
from numerics.torch_flow import layout as tf_layout
from solvable._core.tolerance import relative_error
from solvable.models import kunin
from solvable.models import xu_ziyin as xz

F64 = torch.float64


def _f(a):
    return np.vectorize(float, otypes=[float])(np.asarray(a, dtype=object))


def _xz_model(case):
    s = case.setup
    return models.TwoLayerLinear(_f(s.x), float(s.y), float(s.gamma), float(s.eta_u),
                                 float(s.eta_w))  # fmt: skip


def _xz_params(case, device="cpu"):
    u, W = _f(case.u0), _f(case.W0)
    return {"u": torch.tensor(u, dtype=F64, device=device)[None],
            "W": torch.tensor(W, dtype=F64, device=device)[None]}  # fmt: skip


def _balanced_error(u, W, u_ref, W_ref, case):
    """Normwise error of (sqrt(eta_w) u, sqrt(eta_u) W), the coordinates in which the flow
    is a hyperbolic rotation (Theorem 1): a decaying block is judged against the whole."""
    s = case.setup
    a = np.concatenate([math.sqrt(float(s.eta_w)) * u, math.sqrt(float(s.eta_u)) * W.ravel()])
    b = np.concatenate(
        [math.sqrt(float(s.eta_w)) * u_ref, math.sqrt(float(s.eta_u)) * W_ref.ravel()]
    )
    return relative_error(a, b) if np.any(b) else float(np.max(np.abs(a)))


# ---------------------------------------------------------------------------
# accuracy
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", xz.CASES, ids=lambda c: c.name)
def test_gradient_flow_matches_the_oracle(case, device="cpu"):
    """Every suite case (edge cases included) against the 30-digit closed form, which
    itself agrees with the Taylor-series oracle to all 30 digits (registry entry
    xu_ziyin.theorem_1_oracle), at t in {0, t_c/10, t_c, 3 t_c}."""
    exact = xz.closed_form(case.setup, case.u0, case.W0, dps=30)
    fast = xz.closed_form(case.setup, case.u0, case.W0)
    tc = float(exact.t_c) if math.isfinite(float(exact.t_c)) else 1.0
    times = [0.0, tc / 10, tc, 3 * tc]
    res = torch_flow.gradient_flow(_xz_model(case), _xz_params(case, device), times,
                                   rtol=1e-12, device=device)  # fmt: skip
    ref = exact.sample(times)
    alpha = fast.sample(times).alpha
    for k in range(len(times)):
        u = res.params["u"][k, 0].cpu().numpy()
        W = res.params["W"][k, 0].cpu().numpy()
        # 1e-9 (the bound): DOP853 at rtol 1e-12 accumulates ~rtol per e-folding
        # (measured worst 1.6e-13 on the well-conditioned cases), times the amplification
        # of float64 rounding of the initial state off the unstable manifolds P = 0 / Q = 0
        # (a property of the problem; kappa ~ 1e5 at 3 t_c there, 1 elsewhere)
        kappa = xz.manifold_condition(fast.P, fast.Q, float(alpha[k]))
        err = _balanced_error(u, W, _f(ref.u[k]), _f(ref.W[k]), case)
        assert err <= 1e-9 * kappa, (k, case.name, err, kappa)


def test_gradient_flow_matches_the_taylor_integrator():
    """Directly against numerics.simulate(method="mpmath") at 30 digits, d0 = 2."""
    case = xz.case("generic")
    times = [0.25, 1.0, 3.0]
    sim = numerics.simulate(case.setup, case.u0, case.W0, times, method="mpmath", dps=30)
    res = torch_flow.gradient_flow(_xz_model(case), _xz_params(case), times, rtol=1e-12)
    for k, s in enumerate(sim):
        got_u, got_W = res.params["u"][k, 0].numpy(), res.params["W"][k, 0].numpy()
        assert _balanced_error(got_u, got_W, _f(s.u), _f(s.W), case) <= 1e-9  # as above


@pytest.mark.parametrize("times", [[0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0], [1.0]])
def test_leading_zero_times_are_the_start_and_only_they(times):
    """Times equal to 0 are recorded before the first step (the initial state, exactly);
    every later time is the flow there (against the 30-digit closed form, to 1e-9 as
    above), however many zeros come first, including when only one time follows them."""
    case = xz.case("generic")
    res = torch_flow.gradient_flow(_xz_model(case), _xz_params(case), times, rtol=1e-12)
    exact = xz.closed_form(case.setup, case.u0, case.W0, dps=30)
    for k, t in enumerate(times):
        u, W = res.params["u"][k, 0].numpy(), res.params["W"][k, 0].numpy()
        if t == 0:
            assert np.array_equal(u, _f(case.u0)) and np.array_equal(W, _f(case.W0))
        else:
            ref = exact.at(t)
            assert _balanced_error(u, W, _f(ref.u), _f(ref.W), case) <= 1e-9, (times, k)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_rtol_floor_is_inclusive(dtype):
    """``min_rtol(dtype)`` is the smallest rtol accepted (documented): at it the flow runs
    and matches the closed form at float64 (to 1e-9, as above; float32 to its own rtol), one
    ulp below it is refused with a message naming the floor."""
    case = xz.case("generic")
    floor = torch_flow.min_rtol(dtype)
    params = {k: v.to(dtype) for k, v in _xz_params(case).items()}
    try:
        res = torch_flow.gradient_flow(_xz_model(case), params, [1.0], rtol=floor)
    except ValueError as exc:  # a wrong refusal is a failed check, not a crash
        raise AssertionError(f"rtol = min_rtol({dtype}) refused: {exc}") from exc
    ref = xz.closed_form(case.setup, case.u0, case.W0, dps=30).at(1.0)
    err = _balanced_error(
        res.params["u"][0, 0].double().numpy(),
        res.params["W"][0, 0].double().numpy(),
        _f(ref.u),
        _f(ref.W),
        case,
    )
    # float32: 100 x its rtol floor covers the accumulated rounding of ~100 float32 steps
    assert err <= (1e-9 if dtype == torch.float64 else 100 * floor), err  # fmt: skip
    with pytest.raises(ValueError, match=r"rtol must be >= "):
        torch_flow.gradient_flow(_xz_model(case), params, [1.0], rtol=math.nextafter(floor, 0))


@pytest.mark.parametrize("case", kunin.CASES, ids=lambda c: c.name)
def test_simulate_torch_single_neuron(case):
    times = [0.0, 0.5, 2.0, 10.0]
    sim = numerics.simulate(case.setup, case.a0, case.w0, times, method="torch", device="cpu")
    exact = kunin.closed_form(case.setup, case.a0, case.w0, dps=30).sample(times)
    for k, s in enumerate(sim):
        assert isinstance(s, kunin.State)
        got = np.concatenate([[s.a], s.w])
        ref = np.concatenate([[float(exact.a[k])], _f(exact.w[k])])
        # rtol 1e-12 DOP853 over ~10 e-foldings: ~1e-11; bound 1e-9 as for seed 001
        assert (relative_error(got, ref) if np.any(ref) else np.max(np.abs(got))) <= 1e-9


def test_simulate_torch_returns_states_in_the_order_given():
    case = xz.case("generic")
    sim = numerics.simulate(case.setup, case.u0, case.W0, [1.0, 0.0, 0.5, 1.0], method="torch")
    assert [s.t for s in sim] == [1.0, 0.0, 0.5, 1.0]
    assert all(isinstance(s, xz.State) for s in sim)
    np.testing.assert_array_equal(sim.at(0).W, sim.at(3).W)


def _gd_gap(lr, T=1.0):
    case = xz.case("generic")
    model, p = _xz_model(case), _xz_params(case)
    steps = round(T / lr)
    gd = torch_flow.gradient_descent(model, p, lr, [steps])
    gf = torch_flow.gradient_flow(model, p, [steps * lr], rtol=1e-13)
    a = torch.cat([gd.params["u"][0, 0], gd.params["W"][0, 0].ravel()])
    b = torch.cat([gf.params["u"][0, 0], gf.params["W"][0, 0].ravel()])
    return float(torch.linalg.vector_norm(a - b) / torch.linalg.vector_norm(b))


@pytest.mark.parametrize("kind", ["list", "numpy", "tensor"])
def test_gradient_descent_takes_one_learning_rate_per_element(kind):
    """A batch trained with one ``lr`` per element is each element trained alone: the
    three runs below, batched, against three single runs with a scalar ``lr``."""
    case = xz.case("generic")
    model, p1 = _xz_model(case), _xz_params(case)
    gen = torch.Generator().manual_seed(0)
    p = {k: v + 0.1 * torch.randn((3, *v.shape[1:]), generator=gen, dtype=F64)
         for k, v in p1.items()}  # fmt: skip
    rates = [0.01, 0.03, 0.002]
    lr = {"list": rates, "numpy": np.array(rates), "tensor": torch.tensor(rates, dtype=F64)}[kind]
    res = torch_flow.gradient_descent(model, p, lr, [5, 40], max_batch=2)  # split too
    assert res.times.shape == (2, 3)
    np.testing.assert_array_equal(res.times[:, 1].numpy(), np.array([5, 40]) * 0.03)
    for b, rate in enumerate(rates):
        alone = torch_flow.gradient_descent(model, {k: v[b : b + 1] for k, v in p.items()},
                                            rate, [5, 40])  # fmt: skip
        for k in p:
            # the same float64 operations on the same numbers; a batched matrix product may
            # sum in another order: 40 steps of a contraction, a few ulps (measured: equal)
            torch.testing.assert_close(res.params[k][:, b], alone.params[k][:, 0],
                                       rtol=1e-13, atol=0)  # fmt: skip


@pytest.mark.parametrize(
    ("lr", "message"),
    [
        ([0.1, 0.2], r"one per batch element \(3\), got 2"),
        ([0.1, -0.2, 0.1], r"lr\[1\] must be > 0, got -0.2"),
        ([0.1, math.nan, 0.1], r"lr\[1\] must be finite and > 0, got nan"),
        (np.zeros((3, 1)), "1-d sequence"),
        ([], "1-d sequence"),
    ],
)
def test_gradient_descent_refuses_bad_learning_rates_per_element(lr, message):
    case = xz.case("generic")
    p = {k: v.expand(3, *v.shape[1:]).clone() for k, v in _xz_params(case).items()}
    with pytest.raises(ValueError, match=message):
        torch_flow.gradient_descent(_xz_model(case), p, lr, [1])


def test_gradient_descent_records_a_repeated_step_twice_and_refuses_unsorted_steps():
    """``record_steps`` is sorted (non-decreasing) and >= 0: a repeated step is recorded
    twice, the same state, and step 0 is the start (seed-22 survivor ``descent.py:86``:
    ``diff < 1`` refused a repeat); a decreasing or negative step is refused."""
    case = xz.case("generic")
    model, p = _xz_model(case), _xz_params(case)
    res = torch_flow.gradient_descent(model, p, 0.01, [0, 3, 3, 7])
    alone = torch_flow.gradient_descent(model, p, 0.01, [3, 7])
    np.testing.assert_array_equal(res.times.numpy(), [0.0, 0.03, 0.03, 0.07])
    for k in p:
        assert torch.equal(res.params[k][0], p[k]), k
        assert torch.equal(res.params[k][1], res.params[k][2]), k
        assert torch.equal(res.params[k][2], alone.params[k][0]), k
        assert torch.equal(res.params[k][3], alone.params[k][1]), k
    for bad in ([3, 2], [-1, 2]):
        with pytest.raises(ValueError, match="record_steps must be sorted and >= 0"):
            torch_flow.gradient_descent(model, p, 0.01, bad)


def test_gradient_descent_converges_to_gradient_flow_at_first_order():
    """Forward Euler: global error C lr + O(lr^2).  The fitted log-log slope over lr in
    2^-6 .. 2^-10 (t = 1, ~3 t_c) is 1 to within the O(lr) curvature of the error."""
    lrs = [2.0**-k for k in range(6, 11)]
    gaps = [_gd_gap(lr) for lr in lrs]
    slope = np.polyfit(np.log(lrs), np.log(gaps), 1)[0]
    # measured 1.03; 0.9..1.1 allows the second-order term at lr = 2^-6 (error ratios
    # between halvings measured 2.10, 2.05, 2.02, 2.01: tending to 2 as lr -> 0)
    assert 0.9 <= slope <= 1.1, (slope, gaps)
    assert gaps[-1] < gaps[0] / 10


# ---------------------------------------------------------------------------
# issue 17: the block-major state and the model hook gradient_into
# ---------------------------------------------------------------------------
_SHAPES = st.lists(st.lists(st.integers(0, 3), max_size=2).map(tuple), min_size=1, max_size=3)


class _Blocks:
    """Any blocks with rate 1 (the layout tests need no loss)."""

    def __init__(self, shapes):
        self.blocks = tuple(f"b{k}" for k in range(len(shapes)))
        self.rates = dict.fromkeys(self.blocks, 1.0)


@settings(max_examples=60, deadline=None)
@given(shapes=_SHAPES, batch=st.integers(1, 7), tile=st.integers(1, 8), seed=st.integers(0, 9))
def test_block_major_tiles_hold_the_rows(shapes, batch, tile, seed):
    """Across block shapes (scalar and empty blocks included), batch sizes and tile sizes
    (uneven last tiles): the block-major copy is a permutation of the row-major state that
    to_rows undoes (also masked); each tile's blocks are contiguous views holding the
    tile's rows of the row-major blocks; where() is the per-element torch.where.  Copies
    only: exact."""
    gen = torch.Generator().manual_seed(seed)
    p = {f"b{k}": torch.randn((batch, *s), generator=gen, dtype=F64) for k, s in enumerate(shapes)}
    model = _Blocks(shapes)
    packing = tf_layout._Packing(model, p)
    tiles = tf_layout._Tiles(packing, [(a, min(a + tile, batch)) for a in range(0, batch, tile)])
    rows = packing.pack(p)
    flat = tiles.from_rows(rows)
    assert torch.equal(tiles.to_rows(flat), rows)
    mask = torch.rand(batch, generator=gen) < 0.5
    assert torch.equal(tiles.to_rows(flat, mask), rows[mask])
    for a, b in tiles.spans:
        views = packing.block_views(tiles.tile(flat, a, b), b - a)
        for block, view in zip(p.values(), views, strict=True):
            assert view.is_contiguous() and torch.equal(view, block[a:b])
    other = torch.randn(rows.shape, generator=gen, dtype=F64)
    target = tiles.from_rows(other)
    tiles.where(mask, flat, target)
    assert torch.equal(tiles.to_rows(target), torch.where(mask[:, None], rows, other))


class _Coupled:
    """A small model with a scalar, a vector and a matrix block and the ``gradient_into``
    hook of :func:`numerics.torch_flow.field._field_into`: ``e = s w^T M v - 1``,
    ``L = e^2 / 2 + |v|^2 / 20``; ``dL/ds = e w^T M v``, ``dL/dv = e s M^T w + v / 10``,
    ``dL/dM = e s w v^T``.  Records what the hook is given."""

    blocks = ("s", "v", "M")

    def __init__(self, drop_coefficient=False):
        self.rates = {"s": 0.5, "v": 1.0, "M": 2.0}
        self.w = torch.tensor([0.8, -0.6], dtype=F64)
        self.calls = []
        self.drop = drop_coefficient

    def loss(self, p):
        e = p["s"] * torch.einsum("i,bij,bj->b", self.w, p["M"], p["v"]) - 1
        return e**2 / 2 + (p["v"] ** 2).sum(-1) / 20

    def gradient_into(self, p, out, coefficients):
        self.calls.append((p, out, coefficients))
        s, v, M = p["s"], p["v"], p["M"]
        wM = torch.einsum("i,bij->bj", self.w, M)  # (n, 3)
        q = (wM * v).sum(-1)
        e = s * q - 1
        c = dict.fromkeys(self.blocks, 1.0) if self.drop else coefficients
        torch.mul(e * q, c["s"], out=out["s"])
        torch.mul((e * s)[:, None] * wM + v / 10, c["v"], out=out["v"])
        torch.mul((e * s)[:, None, None] * self.w[None, :, None] * v[:, None, :], c["M"],
                  out=out["M"])  # fmt: skip


class _NoHook(_Coupled):
    gradient_into = None  # torch_flow falls back to autograd of the loss


def _coupled_params(batch=6, seed=4):
    p = torch_flow.initialise({"s": (), "v": (3,), "M": (2, 3)}, batch, scale=0.6, seed=seed,
                              device="cpu")  # fmt: skip
    p["s"] = p["s"] + 1.0
    return p


def _hook_on_both_layouts(model, p):
    """The hook's field on a batch of 6 with steps h folded in, on the row-major state and
    on block-major tiles of 4 elements, and autograd's field times h: (rows, tiles, want)."""
    packing = tf_layout._Packing(model, p)
    y = packing.pack(p)
    auto = tf_field._field(model, packing, autograd=True)(y)
    h = torch.linspace(0.01, 0.05, 6, dtype=F64)
    into = tf_field._field_into(model, packing)
    rows = torch.empty_like(y)
    into(y, rows, packing.coefficients(h), packing.row_views)
    tiles = tf_layout._Tiles(packing, [(0, 4), (4, 6)])
    flat = tiles.from_rows(y)
    out = torch.empty_like(flat)
    for a, b in tiles.spans:
        views = lambda t, n=b - a: packing.block_views(t, n)  # noqa: E731
        into(tiles.tile(flat, a, b), tiles.tile(out, a, b),
             [c[a:b] for c in packing.coefficients(h)], views)  # fmt: skip
    return rows, tiles.to_rows(out), auto * h[:, None]


@pytest.mark.parametrize("drop", [False, True], ids=["hook", "hook_without_coefficient"])
def test_gradient_into_is_the_field_on_both_layouts(drop):
    """The hook's field is autograd's (the same sums: 1e-14), on the row-major state and on
    a block-major one, with the step folded in (coefficients (n, 1, ..., 1)) and without
    (floats); a hook that ignores its coefficients is caught."""
    model = _Coupled(drop_coefficient=drop)
    p = _coupled_params()
    rows, tiled, want = _hook_on_both_layouts(model, p)
    packing = tf_layout._Packing(model, p)
    y = packing.pack(p)
    for got in (rows, tiled):
        if drop:
            assert not torch.allclose(got, want, rtol=1e-3, atol=0)
        else:
            torch.testing.assert_close(got, want, rtol=1e-14, atol=1e-16)
    model.calls.clear()
    tf_field._field(model, packing, autograd=True)(y)
    assert not model.calls  # autograd=True never asks the hook


def test_gradient_flow_uses_the_hook_on_contiguous_blocks():
    """Every step's field evaluation (12 per attempted step) hands the hook contiguous
    (n, *shape) blocks of the DOP853's block-major tiles, with coefficients that are
    (n, 1, ..., 1) tensors (-eta h, the step folded in: the stages) or floats (the field of
    the new state); only the two evaluations of the initial step are on the row-major
    state (strided views, as the protocol allows).  The flow equals the one on autograd's
    field: the same steps (no decision near err = 1 here) and the states to the rounding
    of the two gradients' sums (1e-14 relative per evaluation, ~40 steps: 1e-12)."""
    p = _coupled_params()
    hooked, plain = _Coupled(), _NoHook()
    times = [0.5, 2.0]
    # one worker: one tile, so one hook call per evaluation (two workers: one per tile)
    got = torch_flow.gradient_flow(hooked, p, times, rtol=1e-11, fixed_point=False, workers=1)
    ref = torch_flow.gradient_flow(plain, p, times, rtol=1e-11, fixed_point=False)
    blocks, strided = [], 0
    for q, out, coefficients in hooked.calls:
        n = q["s"].shape[0]
        for name, shape in zip(_Coupled.blocks, [(), (3,), (2, 3)], strict=True):
            assert q[name].shape == out[name].shape == (n, *shape)
            c = coefficients[name]
            assert isinstance(c, float) or c.shape == (n, *(1,) * len(shape))
        if all(t.is_contiguous() for d in (q, out) for t in d.values()):
            blocks.append(coefficients)
        else:
            strided += 1
    assert strided == 2 and len(blocks) == got.nfev - 2
    assert sum(isinstance(c["s"], float) for c in blocks) == len(blocks) // 12
    assert torch.equal(got.steps, ref.steps) and torch.equal(got.rejected, ref.rejected)
    for k in p:
        torch.testing.assert_close(got.params[k], ref.params[k], rtol=1e-12, atol=1e-14)


# ---------------------------------------------------------------------------
# batching
# ---------------------------------------------------------------------------
def test_batched_equals_separate_runs():
    case = xz.case("generic")
    model = _xz_model(case)
    p = torch_flow.initialise({"u": (3,), "W": (3, 2)}, 6, scale=0.7, seed=1, device="cpu")
    times = [0.0, 0.3, 2.0]
    batched = torch_flow.gradient_flow(model, p, times, rtol=1e-11)
    for b in range(6):
        one = torch_flow.gradient_flow(
            model, {k: v[b : b + 1] for k, v in p.items()}, times, rtol=1e-11
        )
        # Per-element step control: the same steps and, on this 2-core CPU, bitwise the
        # same numbers.  Batched kernels may sum in another order (seen on a 16-thread
        # CPU), which can flip one accept decision near err = 1; the two runs then differ
        # by their integration errors, <= ~1e-11 per e-folding (<= 10 here): 1e-9.
        assert abs(int(one.steps[0]) - int(batched.steps[b])) <= 1
        for k in ("u", "W"):
            torch.testing.assert_close(
                batched.params[k][:, b], one.params[k][:, 0], rtol=1e-9, atol=1e-12
            )


def test_widths_batch_by_zero_padding():
    """Seed 001: zero rows of u and W stay exactly zero, so widths 2 and 4 share a batch."""
    case = xz.case("generic")
    model = _xz_model(case)
    p4 = torch_flow.initialise({"u": (4,), "W": (4, 2)}, 2, scale=0.5, seed=3, device="cpu")
    p4["u"][0, 2:] = 0
    p4["W"][0, 2:] = 0
    res = torch_flow.gradient_flow(model, p4, [1.0], rtol=1e-11)
    alone = torch_flow.gradient_flow(model, {"u": p4["u"][:1, :2], "W": p4["W"][:1, :2]},
                                     [1.0], rtol=1e-11)  # fmt: skip
    assert torch.all(res.params["u"][0, 0, 2:] == 0) and torch.all(res.params["W"][0, 0, 2:] == 0)
    torch.testing.assert_close(res.params["W"][0, 0, :2], alone.params["W"][0, 0],
                               rtol=1e-9, atol=1e-12)  # fmt: skip


class _Tight:
    """A model that runs out of memory for batches larger than ``limit``."""

    def __init__(self, inner, limit):
        self.inner, self.limit, self.calls = inner, limit, []
        self.blocks, self.rates = inner.blocks, inner.rates

    def loss(self, p):
        B = next(iter(p.values())).shape[0]
        self.calls.append(B)
        if B > self.limit:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory (simulated)")
        return self.inner.loss(p)


@pytest.mark.parametrize("method", ["flow", "descent"])
def test_a_batch_that_does_not_fit_is_split(method):
    case = xz.case("generic")
    p = torch_flow.initialise({"u": (3,), "W": (3, 2)}, 10, scale=0.5, seed=2, device="cpu")
    tight = _Tight(_xz_model(case), limit=3)
    loss = measures.record_loss(_xz_model(case))
    if method == "flow":
        run = lambda m: torch_flow.gradient_flow(m, p, [0.5], rtol=1e-10, measures={"L": loss})  # noqa: E731
    else:
        run = lambda m: torch_flow.gradient_descent(m, p, 0.01, [50], measures={"L": loss})  # noqa: E731
    split, whole = run(tight), run(_xz_model(case))
    assert max(tight.calls) > 3 and set(tight.calls[-5:]) <= {1, 2, 3}  # halved after OOM
    torch.testing.assert_close(split.params["W"], whole.params["W"], rtol=1e-13, atol=1e-15)
    torch.testing.assert_close(split.measures["L"], whole.measures["L"], rtol=1e-13, atol=1e-15)


def test_other_errors_are_not_swallowed_by_the_splitter():
    class Broken(_Tight):
        def loss(self, p):
            raise RuntimeError("shape mismatch")

    case = xz.case("generic")
    p = torch_flow.initialise({"u": (3,), "W": (3, 2)}, 4, seed=0, device="cpu")
    with pytest.raises(RuntimeError, match="shape mismatch"):
        torch_flow.gradient_flow(Broken(_xz_model(case), 1), p, [1.0])


# ---------------------------------------------------------------------------
# gradients against the papers' flows
# ---------------------------------------------------------------------------
def _autograd_rhs(model, p):
    packing = tf_layout._Packing(model, p)
    return tf_field._field(model, packing, autograd=True)(packing.pack(p)), packing


def test_hand_written_gradient_is_autograd():
    case = xz.case("generic")
    model = _xz_model(case)
    p = torch_flow.initialise({"u": (5,), "W": (5, 2)}, 4, seed=9, device="cpu")
    packing = tf_layout._Packing(model, p)
    y = packing.pack(p)
    hand = tf_field._field(model, packing)(y)
    auto = tf_field._field(model, packing, autograd=True)(y)
    torch.testing.assert_close(hand, auto, rtol=1e-14, atol=1e-15)  # the same sums


def test_two_layer_linear_hook_is_autograd_on_both_layouts():
    """TwoLayerLinear.gradient_into (the hook the DOP853 uses) against autograd's field
    times the step, on the row-major state (strided views, float coefficients) and on the
    block-major tiles (contiguous blocks, (n, 1, ..., 1) coefficients): the same sums in
    another order, a few ulps (rtol 1e-14)."""
    case = xz.case("generic")
    model = _xz_model(case)
    p = torch_flow.initialise({"u": (5,), "W": (5, 2)}, 6, seed=9, device="cpu")
    rows, tiled, want = _hook_on_both_layouts(model, p)
    for got in (rows, tiled):
        torch.testing.assert_close(got, want, rtol=1e-14, atol=1e-17)


def test_two_layer_linear_gradient_is_eq_31():
    """Seed 001 eq. (31) (the sympy flow of solvable.flows, derived from eq. (4))."""
    case = xz.case("generic")
    model, p = (
        _xz_model(case),
        torch_flow.initialise({"u": (3,), "W": (3, 2)}, 1, seed=5, device="cpu"),
    )
    rhs, _ = _autograd_rhs(model, p)
    flow = xz.flow(3, 2)
    f = sp.lambdify((flow.state, flow.params), list(flow.rhs), "numpy")
    s = case.setup
    params = [float(v) for v in (s.eta_u, s.eta_w, s.gamma, s.y, *s.x)]
    ref = np.array(f(np.concatenate([p["u"][0].numpy(), p["W"][0].numpy().ravel()]), params))
    np.testing.assert_allclose(rhs[0].numpy(), ref, rtol=1e-13, atol=1e-15)


def test_single_neuron_and_wide_gradients_are_the_sympy_flows():
    rng = np.random.default_rng(0)
    X, y, Y = rng.normal(size=(4, 3)), rng.normal(size=4), rng.normal(size=(4, 2))
    sn = models.SingleNeuron(X, y, eta_a=0.7, eta_w=1.3)
    p = torch_flow.initialise({"a": (), "w": (3,)}, 1, seed=1, device="cpu")
    rhs, _ = _autograd_rhs(sn, p)
    flow = kunin.flow(4, 3)
    f = sp.lambdify((flow.state, flow.params), list(flow.rhs), "numpy")
    ref = f([float(p["a"][0]), *p["w"][0].numpy()], [0.7, 1.3, *X.ravel(), *y])
    np.testing.assert_allclose(rhs[0].numpy(), np.array(ref, dtype=float), rtol=1e-12)

    wide = models.WideLinear(X, Y, eta_A=0.5, eta_W=2.0)
    p = torch_flow.initialise({"A": (2, 2), "W": (2, 3)}, 1, seed=2, device="cpu")
    rhs, _ = _autograd_rhs(wide, p)
    flow = kunin.wide_flow(4, 3, 2, 2)
    f = sp.lambdify((flow.state, flow.params), list(flow.rhs), "numpy")
    ref = f([*p["A"][0].numpy().ravel(), *p["W"][0].numpy().ravel()],
            [0.5, 2.0, *X.ravel(), *Y.ravel()])  # fmt: skip
    np.testing.assert_allclose(rhs[0].numpy(), np.array(ref, dtype=float), rtol=1e-12)


def test_wide_linear_default_rates_are_the_plain_gradient_flow():
    """Without rates, WideLinear integrates d theta/dt = -grad L (seed 003 Part II's flow at
    eta_A = eta_W = 1: the models' flow is d theta_b/dt = -eta_b grad_b L), the sympy wide
    flow at unit rates; a default of 2 on either block would double that block's field."""
    rng = np.random.default_rng(3)
    X, Y = rng.normal(size=(4, 3)), rng.normal(size=(4, 2))
    wide = models.WideLinear(X, Y)
    assert wide.rates == {"A": 1.0, "W": 1.0}
    p = torch_flow.initialise({"A": (2, 2), "W": (2, 3)}, 1, seed=2, device="cpu")
    rhs, _ = _autograd_rhs(wide, p)
    flow = kunin.wide_flow(4, 3, 2, 2)
    f = sp.lambdify((flow.state, flow.params), list(flow.rhs), "numpy")
    ref = f([*p["A"][0].numpy().ravel(), *p["W"][0].numpy().ravel()],
            [1.0, 1.0, *X.ravel(), *Y.ravel()])  # fmt: skip
    # as in the test above: the same sums in another order, rtol 1e-12 (a factor 2 is 1)
    np.testing.assert_allclose(rhs[0].numpy(), np.array(ref, dtype=float), rtol=1e-12)


@pytest.mark.parametrize("activation", ["linear", "relu", "swish"])
def test_node_scaled_gradient_is_the_papers_flow(activation):
    """Seed 000, Section 3.2: dw_j/dt = sqrt(lambda_j) a_j / sqrt(d) sum_i (y_i - f(x_i))
    sigma'(Z_j(x_i)) x_i; a and the scales do not move."""
    rng = np.random.default_rng(1)
    n, d, m = 5, 3, 7
    X, y = rng.normal(size=(n, d)), rng.normal(size=n)
    lam = rng.random(m)
    lam /= lam.sum()
    model = models.NodeScaled(X, y, activation=activation, eta=1.0)
    p = models.node_scaled_parameters(lam, d, 2, seed=4, device="cpu")
    rhs, packing = _autograd_rhs(model, p)
    got = packing.unpack(rhs)
    Xt = torch.tensor(X)
    _, dsig = models._activation(activation)
    resid = torch.tensor(y) - model.output(p, Xt)  # (B, n)
    Z = model.preactivations(p, Xt)  # (B, n, m)
    coef = (p["s"] * p["a"])[:, :, None] / math.sqrt(d)  # (B, m, 1)
    ref = coef * torch.einsum("bi,bim,id->bmd", resid, dsig(Z), Xt)
    torch.testing.assert_close(got["W"], ref, rtol=1e-12, atol=1e-14)
    assert torch.all(got["a"] == 0) and torch.all(got["s"] == 0)


@pytest.mark.parametrize("activation", ["relu", "tanh", "swish"])
@pytest.mark.parametrize(("eta_a", "scale"), [(1.0, None), (0.0, None), (0.5, 0.3)])
def test_wide_two_layer_gradient_is_the_lectures_flow(activation, eta_a, scale):
    """Seed 002 eq. (2.22) for eq. (2.28): theta' = 1/n sum_i (y_i - f(x_i)) grad f(x_i), with
    grad_{w_j} f = c a_j sigma'(<w_j, x>) x (eq. (2.12)) and grad_{a_j} f = c sigma(<w_j, x>),
    c = 1/sqrt(p) (or the fixed scale); eta_a = 0 keeps a fixed."""
    rng = np.random.default_rng(2)
    n, d, p_width = 4, 3, 6
    X, y = rng.normal(size=(n, d)), rng.normal(size=n)
    model = models.WideTwoLayer(X, y, activation=activation, eta_w=0.7, eta_a=eta_a, scale=scale)
    gen = torch.Generator().manual_seed(3)
    p = {"W": torch.randn(2, p_width, d, generator=gen, dtype=torch.float64),
         "a": torch.randn(2, p_width, generator=gen, dtype=torch.float64)}  # fmt: skip
    rhs, packing = _autograd_rhs(model, p)
    got = packing.unpack(rhs)
    Xt = torch.tensor(X)
    sig, dsig = models._activation(activation)
    c = 1 / math.sqrt(p_width) if scale is None else scale
    Z = Xt @ p["W"].transpose(1, 2)  # (B, n, p)
    resid = torch.tensor(y) - c * (sig(Z) * p["a"][:, None, :]).sum(-1)
    ref_W = 0.7 * c / n * p["a"][:, :, None] * torch.einsum("bi,bij,id->bjd", resid, dsig(Z), Xt)
    ref_a = eta_a * c / n * torch.einsum("bi,bij->bj", resid, sig(Z))
    torch.testing.assert_close(got["W"], ref_W, rtol=1e-12, atol=1e-14)
    torch.testing.assert_close(got["a"], ref_a, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("activation", ["tanh", "swish"])
def test_activation_derivatives_match_autograd(activation):
    z = torch.linspace(-6, 6, 101, dtype=torch.float64, requires_grad=True)
    sig, dsig = models._activation(activation)
    (g,) = torch.autograd.grad(sig(z).sum(), z)
    torch.testing.assert_close(dsig(z.detach()), g, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("bias", [False, True])
def test_three_layer_gradient_is_eq_5(bias):
    """Seed 004 eq. (5) (hand-written) against autograd of R_S, eq. (3); with biases the
    bias rows follow the same formulas with constant input 1."""
    rng = np.random.default_rng(2)
    n, d, m = 4, 2, 6
    X, y = rng.normal(size=(n, d)), rng.normal(size=n)
    model = models.ThreeLayerReLU(X, y, alpha=1.7, bias=bias)
    shapes = {"a": (m,), "W2": (m, m), "W1": (m, d)}
    if bias:
        shapes |= {"b2": (m,), "b1": (m,)}
    p = torch_flow.initialise(shapes, 2, seed=6, device="cpu")
    rhs, packing = _autograd_rhs(model, p)
    got = packing.unpack(rhs)
    Xt, al = torch.tensor(X), model.alpha
    z1 = Xt @ p["W1"].transpose(1, 2) + (p["b1"][:, None] if bias else 0)
    h1 = torch.relu(z1)
    z2 = h1 @ p["W2"].transpose(1, 2) + (p["b2"][:, None] if bias else 0)
    h2 = torch.relu(z2)
    e = (h2 @ p["a"][:, :, None])[..., 0] / al - torch.tensor(y)  # (B, n)
    g2 = p["a"][:, None, :] * (z2 > 0)  # a (.) sigma'(W2 h1), (B, n, m)
    g1 = (g2 @ p["W2"]) * (z1 > 0)  # W2^T (...) (.) sigma'(W1 x), (B, n, m)
    ref = {
        "a": -torch.einsum("bi,bim->bm", e, h2) / (n * al),
        "W2": -torch.einsum("bi,bim,bik->bmk", e, g2, h1) / (n * al),
        "W1": -torch.einsum("bi,bim,id->bmd", e, g1, Xt) / (n * al),
    }
    if bias:
        ref |= {"b2": -torch.einsum("bi,bim->bm", e, g2) / (n * al),
                "b1": -torch.einsum("bi,bim->bm", e, g1) / (n * al)}  # fmt: skip
    for k, v in ref.items():
        torch.testing.assert_close(got[k], v, rtol=1e-12, atol=1e-14)


# ---------------------------------------------------------------------------
# measures
# ---------------------------------------------------------------------------
def test_ntk_and_alignment_match_the_closed_form_along_the_flow():
    case = xz.case("generic")
    model = _xz_model(case)
    exact = xz.closed_form(case.setup, case.u0, case.W0)
    times = [0.0, 0.3, 1.0]
    x = _f(case.setup.x)
    rec = {
        "K18": lambda p, rows: measures.ntk_two_layer_linear(model, p),
        "K": measures.record_ntk(model),
        "zeta": lambda p, rows: measures.alignment(p["u"], p["W"], x),
    }
    res = torch_flow.gradient_flow(model, _xz_params(case), times, rtol=1e-12, measures=rec)
    ref = exact.sample(times)
    # DOP853 at rtol 1e-12 (~1e-13 measured, above) propagated through smooth measures
    np.testing.assert_allclose(res.measures["K18"][:, 0].numpy(), ref.ntk, rtol=1e-10)
    np.testing.assert_allclose(res.measures["K"][:, 0, 0, 0].numpy(), ref.ntk, rtol=1e-10)
    np.testing.assert_allclose(res.measures["zeta"][:, 0].numpy(), ref.alignment, rtol=1e-9)


@pytest.mark.parametrize("activation", ["relu", "swish"])
def test_generic_ntk_is_eq_7_for_node_scaling(activation):
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(6, 4)), rng.normal(size=6)
    lam = np.r_[0.5 / 10 * np.ones(10)] + 0.5 * (1 / np.arange(1, 11) ** 2) / np.sum(
        1 / np.arange(1, 11) ** 2
    )
    model = models.NodeScaled(X, y, activation=activation, eta=0.8)
    p = models.node_scaled_parameters(lam, 4, 3, seed=0, device="cpu")
    K = measures.ntk(model, p, X)
    torch.testing.assert_close(K, measures.ntk_node_scaled(model, p), rtol=1e-12, atol=1e-14)
    assert torch.all(measures.min_eigenvalue(K) > 0)


def test_relative_distance_and_feature_learning_ratios():
    rng = np.random.default_rng(4)
    X, y = rng.normal(size=(5, 3)), rng.normal(size=5)
    # swish: a smooth flow (with ReLU, DOP853 crawls where a neuron slides along its kink;
    # ReLU nets are trained by gradient descent, as in the papers)
    model = models.NodeScaled(X, y, activation="swish")
    p0 = models.node_scaled_parameters(np.full(20, 1 / 20), 3, 4, seed=1, device="cpu")
    x = X[0]
    rec = {
        "RD": measures.record_relative_distance("W", p0),
        "FL": measures.record_feature_learning(model, p0, x),
        "dK": measures.record_ntk_change(model, p0),
    }
    res = torch_flow.gradient_flow(model, p0, [0.0, 2.0], rtol=1e-9, measures=rec, max_batch=3)
    assert torch.all(res.measures["RD"][0] == 0) and torch.all(res.measures["FL"][0] == 0)
    assert torch.all(res.measures["dK"][0] == 0)
    W0, W = p0["W"], res.params["W"][1]
    rd = torch.linalg.vector_norm(W - W0, dim=(1, 2)) / torch.linalg.vector_norm(W0, dim=(1, 2))
    torch.testing.assert_close(res.measures["RD"][1], rd, rtol=1e-14, atol=0)
    r_sum, r_max = res.measures["FL"][1].unbind(-1)
    assert torch.all(r_max <= r_sum) and torch.all(r_sum > 0)  # max term <= the sum


# ---------------------------------------------------------------------------
# devices, seeds, progress, errors
# ---------------------------------------------------------------------------
def test_devices():
    assert torch_flow.resolve_device("cpu").type == "cpu"
    with pytest.raises(ValueError, match="device must be"):
        torch_flow.resolve_device("tpu")
    with pytest.raises(ValueError, match="device must be"):
        torch_flow.resolve_device("meta")
    if torch.cuda.is_available():
        assert torch_flow.resolve_device(None).type == "cuda"
    else:
        assert torch_flow.resolve_device(None).type == "cpu"
        with pytest.raises(ValueError, match="CUDA is not available"):
            torch_flow.resolve_device("cuda")


def test_seeds_are_reproducible():
    a = torch_flow.initialise({"W": (4, 3)}, 5, seed=7, device="cpu")
    b = torch_flow.initialise({"W": (4, 3)}, 5, seed=7, device="cpu")
    c = torch_flow.initialise({"W": (4, 3)}, 5, seed=8, device="cpu")
    assert torch.equal(a["W"], b["W"]) and not torch.equal(a["W"], c["W"])
    p = models.node_scaled_parameters([0.5, 0.5], 3, 4, seed=1, device="cpu")
    q = models.node_scaled_parameters([0.5, 0.5], 3, 4, seed=1, device="cpu")
    assert all(torch.equal(p[k], q[k]) for k in p) and set(p["a"].unique().tolist()) <= {-1, 1}


def test_progress_bar(capsys):
    case = xz.case("generic")
    torch_flow.gradient_flow(_xz_model(case), _xz_params(case), [1.0], progress=True)
    torch_flow.gradient_descent(_xz_model(case), _xz_params(case), 0.01, [10], progress=True)
    assert "t=1/1" in capsys.readouterr().err


def test_divergence_is_reported():
    case = xz.case("generic")
    with pytest.raises(ArithmeticError, match="diverged"):
        torch_flow.gradient_descent(_xz_model(case), _xz_params(case), 50.0, [200])


class _BlowUp:
    """d theta/dt = theta^3: theta(t) = theta0 / sqrt(1 - 2 theta0^2 t), blows up at
    t = 1 / (2 theta0^2)."""

    blocks, rates = ("z",), {"z": 1.0}

    def loss(self, p):
        return -(p["z"] ** 4).sum(-1) / 4


def test_blow_up_is_reported_not_spun():
    p = {"z": torch.tensor([[1.0], [0.1]], dtype=F64)}
    with pytest.raises(ArithmeticError, match=r"batch element 0: step size underflow at t = 0\.5"):
        torch_flow.gradient_flow(_BlowUp(), p, [1.0])
    ok = torch_flow.gradient_flow(_BlowUp(), {"z": p["z"][1:]}, [1.0], rtol=1e-12)
    exact = 0.1 / math.sqrt(1 - 2 * 0.01)
    assert abs(float(ok.params["z"][0, 0, 0]) - exact) <= 1e-11 * exact  # rtol 1e-12, smooth


_P = {"u": torch.zeros(1, 3, dtype=F64), "W": torch.zeros(1, 3, 2, dtype=F64)}


@pytest.mark.parametrize(
    ("call", "exc", "message"),
    [
        (lambda m: torch_flow.gradient_flow(m, _P, [1.0, 0.5]), ValueError, "sorted"),
        (lambda m: torch_flow.gradient_flow(m, _P, [-1.0]), ValueError, "times must be"),
        (lambda m: torch_flow.gradient_flow(m, _P, []), ValueError, "non-empty"),
        (lambda m: torch_flow.gradient_flow(m, _P, [1.0], rtol=0.0), ValueError, "rtol"),
        (lambda m: torch_flow.gradient_flow(m, _P, [1.0], atol=-1.0), ValueError, "atol"),
        (lambda m: torch_flow.gradient_flow(m, {"u": _P["u"]}, [1.0]), ValueError, "missing"),
        (lambda m: torch_flow.gradient_flow(m, {**_P, "W": _P["W"][0]}, [1.0]), ValueError,
         "leading batch"),
        (lambda m: torch_flow.gradient_flow(object(), _P, [1.0]), TypeError, "model"),
        (lambda m: torch_flow.gradient_flow(m, {**_P, "u": _P["u"] + math.nan}, [1.0]),
         ValueError, "finite"),
        (lambda m: torch_flow.gradient_flow(m, _P, [1.0], device="gpu0"), ValueError, "device"),
        (lambda m: torch_flow.gradient_descent(m, _P, 0.0, [1]), ValueError, "lr"),
        (lambda m: torch_flow.gradient_descent(m, _P, 0.1, [3, 1]), ValueError, "sorted"),
        (lambda m: torch_flow.gradient_descent(m, _P, 0.1, [0.5]), ValueError, "integers"),
        (lambda m: torch_flow.initialise({"W": (2,)}, 0, device="cpu"), ValueError, "batch"),
        (lambda m: models.TwoLayerLinear([0.0, 0.0], 1.0), ValueError, "x must not be"),
        (lambda m: models.TwoLayerLinear([1.0], 1.0, gamma=-1), ValueError, "gamma"),
        (lambda m: models.SingleNeuron([[1.0]], [1.0, 2.0]), ValueError, "y must have"),
        (lambda m: models.NodeScaled([[1.0]], [1.0], activation="softsign"), ValueError,
         "activation"),
        (lambda m: models.WideTwoLayer([[1.0]], [1.0], eta_a=-1.0), ValueError, "eta_a"),
        (lambda m: models.WideTwoLayer([[1.0]], [1.0], eta_a="1"), TypeError, "eta_a"),
        (lambda m: models.WideTwoLayer([[1.0]], [1.0], scale=0.0), ValueError, "scale"),
        (lambda m: models.node_scaled_parameters([-0.1, 1.1], 2, 1), ValueError, "lam"),
        (lambda m: models.ThreeLayerReLU([[1.0]], [1.0], alpha=0), ValueError, "alpha"),
        (lambda m: models.ThreeLayerReLU([[1.0]], [math.nan]), ValueError,
         r"y \(entry 0\) must be finite"),
    ],
)  # fmt: skip
def test_bad_input(call, exc, message):
    model = _xz_model(xz.case("generic"))
    with pytest.raises(exc, match=message):
        call(model)


# ---------------------------------------------------------------------------
# GPU (run with -m gpu on a CUDA machine)
# ---------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("case", xz.CASES, ids=lambda c: c.name)
def test_gpu_gradient_flow_matches_the_oracle(case):
    assert torch.cuda.is_available(), "the gpu marker needs CUDA"
    test_gradient_flow_matches_the_oracle(case, device="cuda")


@pytest.mark.gpu
def test_gpu_batch_equals_cpu_batch():
    assert torch.cuda.is_available(), "the gpu marker needs CUDA"
    case = xz.case("generic")
    model = _xz_model(case)
    p = torch_flow.initialise({"u": (64,), "W": (64, 2)}, 32, scale=0.2, seed=0, device="cpu")
    cpu = torch_flow.gradient_flow(model, p, [0.5, 2.0], rtol=1e-11, device="cpu")
    gpu = torch_flow.gradient_flow(model, p, [0.5, 2.0], rtol=1e-11, device="cuda")
    # the same algorithm; reductions in another order: a few ulps per step, over
    # O(100) steps of an at most mildly expanding flow
    torch.testing.assert_close(gpu.params["W"].cpu(), cpu.params["W"], rtol=1e-11, atol=1e-13)
    # device= moves the parameters both ways (seed-9 mutant ``dev or t.device`` -> ``dev and
    # t.device``: device was ignored, and the "gpu" run above stayed on the CPU)
    assert gpu.params["W"].device.type == "cuda" and cpu.params["W"].device.type == "cpu"
    back = torch_flow.gradient_flow(model, {k: v.cuda() for k, v in p.items()}, [0.5, 2.0],
                                    rtol=1e-11, device="cpu")  # fmt: skip
    assert back.params["W"].device.type == "cpu"
    torch.testing.assert_close(back.params["W"], cpu.params["W"], rtol=0, atol=0)


def test_threads_is_scoped_and_validated():
    before = torch.get_num_threads()
    with torch_flow.threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with torch_flow.threads(None):
        assert torch.get_num_threads() == before
    with pytest.raises(ValueError, match="threads"), torch_flow.threads(0):
        pass
    assert torch.get_num_threads() == before


# ---------------------------------------------------------------------------
# issue 17: the stage buffer, the tiles and the thread count of the fast DOP853
# ---------------------------------------------------------------------------
def _spread_batch(batch=5, seed=3):
    """A batch whose elements take different steps (initial scales 0.3 to 1.5)."""
    case = xz.case("generic")
    p = torch_flow.initialise({"u": (3,), "W": (3, 2)}, batch, seed=seed, device="cpu")
    spread = torch.linspace(0.3, 1.5, batch, dtype=F64)
    return _xz_model(case), {"u": p["u"] * spread[:, None], "W": p["W"] * spread[:, None, None]}


def test_dop853_takes_scipys_steps():
    """The batched flow is scipy's DOP853 per element: the same accepted and rejected
    number of attempted steps (nfev = 12 per attempted step + 2 for the initial step; no
    t_eval, whose dense output would cost 3 more) and the same end state to within the
    integration error."""
    from scipy.integrate import solve_ivp

    model, p = _spread_batch()
    T, rtol = 2.0, 1e-10
    res = torch_flow.gradient_flow(model, p, [T], rtol=rtol)
    f = tf_field._field(model, tf_layout._Packing(model, p))
    for b in range(5):
        z0 = torch.cat([p["u"][b], p["W"][b].ravel()])

        def rhs(_t, z):
            return f(torch.as_tensor(z, dtype=F64)[None])[0].numpy()

        top = float(z0.abs().max())
        sol = solve_ivp(rhs, (0.0, T), z0.numpy(), method="DOP853", rtol=rtol,
                        atol=rtol * 1e-3 * top)  # fmt: skip
        attempted = int(res.steps[b] + res.rejected[b])
        assert sol.nfev == 12 * attempted + 2, (b, sol.nfev, attempted)
        got = torch.cat([res.params["u"][0, b], res.params["W"][0, b].ravel()]).numpy()
        # the same method and number of steps, not the same step sizes to the last bit (the
        # initial step and rounding differ; measured 1.2e-11 here): the two differ by their
        # integration errors, <= ~1e-11 per e-folding: 1e-9 as for the oracle tests above
        assert relative_error(got, sol.y[:, -1]) <= 1e-9


def _tile_bytes(rows):
    """A :data:`numerics.torch_flow.TILE_BYTES` that gives tiles of ``rows`` elements of
    ``_spread_batch`` (N = 9 float64 entries)."""
    return rows * tf_dop853._TILE_ARRAYS * 9 * 8


@pytest.mark.parametrize("tile_rows", [1, 2])
def test_tiles_give_the_numbers_of_one_tile(monkeypatch, tile_rows):
    """Tiles of the batch (each with its own step sizes) give the numbers of one tile.

    Not bitwise: a matrix product may round a column differently by its position (a
    kernel's tail; the block-major tiles put an element's entries at other columns than
    one tile does), and the error estimate E.K cancels heavily (an ulp in a stage is
    ~1e-8 relative in err here), so the step sizes drift apart at that level: an accept
    decision within it of err = 1 can flip, and a step can land on a requested time in one
    run and fall short of it by an ulp in the other (one accepted step more).  Seen here:
    one accepted or rejected step more or less on 2 of 5 elements; every accepted-step
    count within one.  The runs then differ by their integration errors, <= ~1e-11 per
    e-folding: the bound of test_batched_equals_separate_runs.  Before the first such
    event the runs agree to rounding:
    test_tiles_give_the_steps_of_one_tile_to_rounding.  The number of rejected steps after
    the drift is not asserted: each decision within rounding of err = 1 may flip, and how
    many there are depends on the rounding of the field (with TwoLayerLinear's
    gradient_into hook: two on one element, the rejected counts 7 and 5), which says
    nothing about the integration; what is asserted is the accuracy of the states."""
    model, p = _spread_batch()
    times = [0.5, 3.0]
    whole = torch_flow.gradient_flow(model, p, times, rtol=1e-11, workers=1)
    monkeypatch.setattr(tf_dop853, "TILE_BYTES", _tile_bytes(tile_rows))
    tiled = torch_flow.gradient_flow(model, p, times, rtol=1e-11, workers=1)
    assert int((whole.steps - tiled.steps).abs().max()) <= 1
    for k in ("u", "W"):
        torch.testing.assert_close(tiled.params[k], whole.params[k], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("tile_rows", [1, 2, 4])
def test_tiles_give_the_steps_of_one_tile_to_rounding(monkeypatch, tile_rows):
    """To t = 0.5 (12 to 31 accepted steps per element, rejections included) no decision
    of _spread_batch is within rounding of err = 1: tiles of at most 1, 2 and 4 elements
    (5 elements: 1+1+1+1+1, 1+2+2 and 2+3) take exactly the steps of one tile, and the
    states differ by the per-column rounding of the stage combinations only (an ulp per
    stage combination, <= 31 steps: measured 7e-15 relative; 1e-13 allows 30 ulps per step
    without hiding a wrong coefficient, atol, step or row, which costs 1e-10 and more)."""
    model, p = _spread_batch()
    times = [0.1, 0.5]
    whole = torch_flow.gradient_flow(model, p, times, rtol=1e-11, workers=1)
    monkeypatch.setattr(tf_dop853, "TILE_BYTES", _tile_bytes(tile_rows))
    tiled = torch_flow.gradient_flow(model, p, times, rtol=1e-11, workers=1)
    assert torch.equal(whole.steps, tiled.steps) and torch.equal(whole.rejected, tiled.rejected)
    assert int(whole.rejected.sum()) > 0  # the partial accepts of the tiles are exercised
    for k in ("u", "W"):
        torch.testing.assert_close(tiled.params[k], whole.params[k], rtol=1e-13, atol=1e-15)


@settings(max_examples=200, deadline=None)
@given(batch=st.integers(1, 5000), per_row=st.integers(1, 2**24), workers=st.integers(1, 8))
def test_tile_spans_cover_the_batch_evenly(batch, per_row, workers):
    """The tiles of the CPU DOP853: consecutive, covering 0..batch, sizes differing by at
    most one, each within TILE_BYTES / workers and WORKER_TILE_BYTES (unless one element is
    larger), the fewest
    such, rounded up to a multiple of ``workers`` where the batch has that many elements
    (so that the workers finish a step together); on CUDA one tile."""
    spans = tf_dop853._tile_spans(batch, per_row, True, workers)
    assert spans[0][0] == 0 and spans[-1][1] == batch
    assert all(a < b for a, b in spans)
    assert all(b0 == a1 for (_, b0), (a1, _) in itertools.pairwise(spans))
    sizes = [b - a for a, b in spans]
    assert max(sizes) - min(sizes) <= 1
    budget = min(tf_dop853.TILE_BYTES // workers, tf_dop853.WORKER_TILE_BYTES)
    per_tile = max(1, budget // per_row)
    assert max(sizes) <= per_tile
    fewest = -(-batch // per_tile)
    want = min(batch, -(-fewest // workers) * workers)
    assert len(spans) == want
    assert tf_dop853._tile_spans(batch, per_row, False, workers) == [(0, batch)]


def _run_on_fixed_tiles(monkeypatch, spans, model=None, **kw):
    """_spread_batch on the given tiles, each worker's share allowed to be small."""
    model_, p = _spread_batch(batch=7)
    monkeypatch.setattr(tf_dop853, "_tile_spans", lambda *_a: list(spans))
    monkeypatch.setattr(tf_dop853, "MIN_WORKER_ENTRIES", 1)
    return torch_flow.gradient_flow(model or model_, p, [0.5, 3.0], rtol=1e-11, **kw)


def test_workers_give_the_numbers_of_one_worker(monkeypatch):
    """On the same tiles (uneven, so that two workers step different amounts), one, two
    and three workers give bit-identical states, steps and rejections: each worker has its
    own stage buffer and scratch and writes only its tiles' slices of the shared arrays
    (a shared buffer or a worker stepping another's tiles would differ, or race)."""
    spans = [(0, 1), (1, 3), (3, 4), (4, 7)]
    one = _run_on_fixed_tiles(monkeypatch, spans, workers=1)
    for w in (2, 3):
        try:
            many = _run_on_fixed_tiles(monkeypatch, spans, workers=w)
        except ArithmeticError as exc:  # e.g. stages overwritten by another worker
            raise AssertionError(f"{w} workers fail where one worker integrates: {exc}") from exc
        assert torch.equal(many.steps, one.steps) and torch.equal(many.rejected, one.rejected)
        for k in ("u", "W"):
            assert torch.equal(many.params[k], one.params[k]), (w, k)
    assert int(one.rejected.sum()) > 0  # the partial accepts of the tiles are exercised


def test_workers_run_under_the_callers_torch_modes(monkeypatch):
    """Under ``torch.inference_mode()`` the buffers are inference tensors, which a worker
    thread (torch's default modes) may not write to: the workers take the caller's modes
    and give the numbers of one worker."""
    spans = [(0, 3), (3, 7)]
    one = _run_on_fixed_tiles(monkeypatch, spans, workers=1)
    with torch.inference_mode():
        two = _run_on_fixed_tiles(monkeypatch, spans, workers=2)
    with torch.no_grad():
        nograd = _run_on_fixed_tiles(monkeypatch, spans, workers=2)
    for k in ("u", "W"):
        assert torch.equal(two.params[k], one.params[k])
        assert torch.equal(nograd.params[k], one.params[k])


class _ThreadRecorder(models.TwoLayerLinear):
    """TwoLayerLinear whose gradient_into hook records the thread that calls it."""

    def gradient_into(self, p, out, coefficients):
        self.__dict__.setdefault("threads", set()).add(threading.current_thread().name)
        super().gradient_into(p, out, coefficients)


def test_workers_share_only_a_batch_large_enough(monkeypatch):
    """The tiles are stepped by the worker threads only where each worker gets at least
    MIN_WORKER_ENTRIES entries: a small batch stays on the calling thread (where two
    workers measured up to 3x slower), a large one goes to the workers."""
    case = xz.case("generic")

    def threads_used(minimum):
        s = case.setup
        model = _ThreadRecorder(_f(s.x), float(s.y), float(s.gamma), float(s.eta_u),
                                float(s.eta_w))  # fmt: skip
        monkeypatch.setattr(tf_dop853, "MIN_WORKER_ENTRIES", minimum)
        monkeypatch.setattr(tf_dop853, "_tile_spans", lambda *_a: [(0, 3), (3, 7)])
        _, p = _spread_batch(batch=7)
        torch_flow.gradient_flow(model, p, [0.5], rtol=1e-10, workers=2)
        return {name.split("_")[0] for name in model.threads}

    n = 7 * 9  # the batch's entries
    main = threading.current_thread().name.split("_")[0]
    # the initial field and step are on the calling thread either way
    assert threads_used(n // 2 + 1) == {main}
    assert threads_used(n // 2) == {main, "dop853"}


def test_workers_threshold_is_the_documented_512_kib(monkeypatch):
    """The same, at the shipped MIN_WORKER_ENTRIES (2**16 entries, 512 KiB of float64, as
    its docstring says; the test above sets its own): with two workers, a batch of at
    least 2 * 2**16 entries goes to the workers, one entry fewer in total stays on the
    calling thread (seed-9 mutant ``2**16`` -> ``2-16``: no batch ever reached a worker)."""
    case = xz.case("generic")
    n_entries = 9  # u (3,) and W (3, 2)
    main = threading.current_thread().name.split("_")[0]

    def threads_used(batch):
        s = case.setup
        model = _ThreadRecorder(_f(s.x), float(s.y), float(s.gamma), float(s.eta_u),
                                float(s.eta_w))  # fmt: skip
        half = batch // 2
        monkeypatch.setattr(tf_dop853, "_tile_spans", lambda *_a: [(0, half), (half, batch)])
        p = torch_flow.initialise({"u": (3,), "W": (3, 2)}, batch, seed=0, device="cpu")
        torch_flow.gradient_flow(model, p, [0.01], rtol=1e-8, workers=2)
        return {name.split("_")[0] for name in model.threads}

    enough = -(-2 * 2**16 // n_entries)  # the smallest batch with >= 2 * 2**16 entries
    assert (enough - 1) * n_entries < 2 * 2**16 <= enough * n_entries
    assert threads_used(enough) == {main, "dop853"}
    assert threads_used(enough - 1) == {main}


def test_workers_argument_is_validated():
    model, p = _spread_batch(batch=2)
    with pytest.raises(ValueError, match=r"workers must be an integer >= 1, got 0"):
        torch_flow.gradient_flow(model, p, [1.0], workers=0)
    with pytest.raises(TypeError, match=r"workers must be an int >= 1, got float 2.0"):
        torch_flow.gradient_flow(model, p, [1.0], workers=2.0)


def test_threads_argument_is_scoped_and_validated():
    model, p = _spread_batch(batch=2)
    before = torch.get_num_threads()
    one = torch_flow.gradient_flow(model, p, [1.0], threads=1)
    two = torch_flow.gradient_flow(model, p, [1.0], threads=2)
    mine = torch_flow.gradient_flow(model, p, [1.0], threads=None)
    assert torch.get_num_threads() == before
    for k in ("u", "W"):
        # a second thread splits the reductions: the same steps, a few ulps
        torch.testing.assert_close(two.params[k], one.params[k], rtol=1e-13, atol=0)
        torch.testing.assert_close(mine.params[k], one.params[k], rtol=1e-13, atol=0)
    with pytest.raises(ValueError, match=r"threads must be an integer >= 1, got 0"):
        torch_flow.gradient_flow(model, p, [1.0], threads=0)
    with pytest.raises(TypeError, match=r"threads must be an int >= 1, got float 1.5"):
        torch_flow.gradient_flow(model, p, [1.0], threads=1.5)
    assert torch.get_num_threads() == before


class _ThreadSpy:
    """A model that records torch's thread count while its gradient is evaluated."""

    blocks, rates = ("x",), {"x": 1.0}

    def __init__(self):
        self.seen = set()

    def loss(self, p):
        return 0.5 * (p["x"] ** 2).sum(-1)

    def gradient(self, p):
        self.seen.add(torch.get_num_threads())
        return {"x": p["x"]}


@pytest.mark.parametrize("threads, inside", [(None, "before"), (1, 1), (2, 2)])
def test_gradient_descent_runs_on_its_threads_and_restores_them(threads, inside):
    """``gradient_descent(threads=...)``: torch's threads during the steps (default 1, as
    gradient_flow: 54 s against 4 s for the README's run at torch's default on 2 cores,
    issue 30), restored after; ``None`` leaves torch's setting; the steps do not change."""
    before = torch.get_num_threads()
    spy = _ThreadSpy()
    p = {"x": torch.ones(3, 4, dtype=F64)}
    kw = {} if threads is None else {"threads": threads}
    if threads is None:
        with torch_flow.threads(2):  # a caller's setting, left as it is
            res = torch_flow.gradient_descent(spy, p, 0.1, [0, 5], threads=None)
        inside = 2
    else:
        res = torch_flow.gradient_descent(spy, p, 0.1, [0, 5], **kw)
    assert spy.seen == {inside}
    assert torch.get_num_threads() == before
    torch.testing.assert_close(res.params["x"][-1], 0.9**5 * p["x"], rtol=1e-15, atol=0)
    default = _ThreadSpy()
    with torch_flow.threads(2):
        torch_flow.gradient_descent(default, p, 0.1, [0, 5])
    assert default.seen == {1}  # the default: one thread, whatever torch's setting


@pytest.mark.parametrize("bad, error, message", [
    (0, ValueError, r"threads must be an integer >= 1, got 0"),
    (-2, ValueError, r"threads must be an integer >= 1, got -2"),
    (1.5, TypeError, r"threads must be an int >= 1, got float 1.5"),
    (True, TypeError, r"threads must be an int >= 1"),
])  # fmt: skip
def test_gradient_descent_refuses_a_bad_thread_count(bad, error, message):
    before = torch.get_num_threads()
    with pytest.raises(error, match=message):
        torch_flow.gradient_descent(_ThreadSpy(), {"x": torch.ones(2, 3, dtype=F64)}, 0.1,
                                    [0, 1], threads=bad)  # fmt: skip
    assert torch.get_num_threads() == before


@pytest.mark.parametrize(("batch", "tested"), [(2, True), (3, False)])
def test_fixed_point_test_runs_exactly_where_batch_times_n_squared_fits(monkeypatch, batch,
                                                                        tested):  # fmt: skip
    """FIXED_POINT_MAX_ENTRIES bounds batch * N^2 (the dense Hessians), both sides: with the
    bound at 32 and N = 4, a batch of 2 (32 entries) takes the fixed-point test (finite
    fixed_point_t) and a batch of 3 (48) integrates to the end (NaN), though 3 + 4^2 = 19
    is below the bound (a sum for the product would test it)."""
    monkeypatch.setattr(tf_dop853, "FIXED_POINT_MAX_ENTRIES", 32)
    rng = np.random.default_rng(5)
    Q = np.linalg.qr(rng.standard_normal((4, 4)))[0]
    model = _Quadratic(Q @ np.diag([0.5, 1.0, 1.5, 2.5]) @ Q.T)
    theta = rng.standard_normal((batch, 4))
    params = {"a": torch.as_tensor(theta[:, :2]), "b": torch.as_tensor(theta[:, 2:])}
    res = torch_flow.gradient_flow(model, params, [3.0, 300.0], rtol=1e-10, workers=1)
    fixed = res.fixed_point_t
    assert bool(torch.isfinite(fixed).all() if tested else torch.isnan(fixed).all()), fixed


def test_every_documented_seed_is_accepted():
    """initialise's seed range is [0, 2**64 - 1] (torch's generator): the top of the range
    is a valid seed, one more is refused with the range in the message."""
    top = torch_flow.initialise({"w": (2,)}, 1, seed=2**64 - 1)
    again = torch_flow.initialise({"w": (2,)}, 1, seed=2**64 - 1)
    assert torch.equal(top["w"], again["w"])
    assert not torch.equal(top["w"], torch_flow.initialise({"w": (2,)}, 1, seed=0)["w"])
    with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64 - 1\]"):
        torch_flow.initialise({"w": (2,)}, 1, seed=2**64)


def test_default_threads_and_seed_are_the_documented_ones():
    """gradient_flow runs on DEFAULT_THREADS = 1 torch thread unless told otherwise (its
    docstring; the loss sees torch.get_num_threads() == 1 during the run, whatever torch's
    setting outside), and initialise's default seed is 0."""

    class Recording:
        def __init__(self):
            self.blocks, self.rates, self.seen = ("w",), {"w": 1.0}, []

        def loss(self, p):
            self.seen.append(torch.get_num_threads())
            return 0.5 * (p["w"] ** 2).sum(-1)

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        model = Recording()
        params = torch_flow.initialise({"w": (2,)}, 2)
        torch_flow.gradient_flow(model, params, [0.5], workers=1)
        assert model.seen and set(model.seen) == {1}, set(model.seen)
        assert torch.get_num_threads() == 2  # restored
    finally:
        torch.set_num_threads(before)
    assert torch.equal(params["w"], torch_flow.initialise({"w": (2,)}, 2, seed=0)["w"])
