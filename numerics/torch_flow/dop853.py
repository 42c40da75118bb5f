"""The batched DOP853 of :func:`numerics.torch_flow.gradient_flow`, per-element step control.

Dormand-Prince 8(5,3) (the ``DOP853`` of Hairer, Norsett & Wanner, with scipy's coefficient
tables, :mod:`numerics.torch_flow.tableau`) with error control *per batch element*:
each network has its own time and step, accepted or rejected on its own error estimate
(scipy's error norm), and steps are shortened to land exactly on the requested times.  The
batch is stepped in tiles (:func:`_tile_spans`, :data:`TILE_BYTES`) by ``workers`` Python
threads; every :func:`numerics.scipy_ode.check_interval` steps the fixed-point test
(:mod:`numerics.torch_flow.fixed_point`) may end an element's stepping, and the pace
projection (:func:`_projected_pace`) stops an element that cannot reach the last time.
The first step is Hairer, Norsett & Wanner II.4 (:func:`_initial_step`).
"""

from __future__ import annotations

import concurrent.futures
import functools
import itertools
import math
from typing import Any

import numpy as np

from numerics.scipy_ode import (
    FIXED_POINT_MAX_STATE,
    PACE_GROWTH,
    PACE_MARGIN,
    PACE_WINDOW,
    PaceError,
    check_interval,
    progress_bar,
)
from numerics.torch_flow.checks import _torch
from numerics.torch_flow.field import _field, _field_binder
from numerics.torch_flow.fixed_point import _fixed_point
from numerics.torch_flow.layout import _Packing, _Tiles
from numerics.torch_flow.results import FlowResult, _Recorder
from numerics.torch_flow.tableau import (
    _B_RUN,
    _E_HI,
    _E_LO,
    _E_ROWS,
    _ERROR_EXPONENT,
    _MAX_FACTOR,
    _MIN_FACTOR,
    _SAFETY,
    _STAGE_RUNS,
    _STAGE_SLOT,
    _STAGES,
)

FIXED_POINT_MAX_ENTRIES = 2**20
"""The fixed-point test takes a dense Hessian (``N`` backward passes) and its eigenvectors
per batch element: it runs where ``batch * N^2`` is at most this (8 MiB in float64) and
``N <= 64`` (:data:`numerics.scipy_ode.FIXED_POINT_MAX_STATE`), so that a test costs about
what a few steps cost; larger batches of wide nets integrate to the end (``max_steps``)."""
_FIRST_CHECK = 64  # attempted steps before the first fixed-point test
TILE_BYTES = 32 * 2**20
"""On the CPU a DOP853 step runs over tiles of the batch whose stage buffer and scratch
(:data:`_TILE_ARRAYS` arrays of ``(tile, N)``) take about this many bytes, so that a tile's
twelve stages are combined from the cache, not from main memory (a large batch stays
linear in cost).  Measured on the shared 2-core EPYC at B = 256 and 1024, width 256
(loaded, noisy): 8 MiB and less were slower (per-operation overhead of small tiles), 32 to
128 MiB as fast as or faster than one tile; one worker's tile is at most
:data:`WORKER_TILE_BYTES`.  On CUDA the batch is one tile."""
_TILE_ARRAYS = 17  # the 12 stages, the stage state, the scale and its scratch, E5 and E3
WORKER_TILE_BYTES = 16 * 2**20
"""The most one worker's tile takes (its share of :data:`TILE_BYTES` is at most this): half
of this machine's 32 MiB L3, which the tile shares with the states it streams.  Measured
at one torch thread, width 256 (``python benchmarks/bench_torch.py --only gf --threads 1
--workers 1``): one worker at B = 1024 took 2.46 s with 16 MiB tiles against 2.99 s with
32 MiB, at B = 256 0.61 s against 0.72 s; two workers (16 MiB each either way) unchanged."""


MIN_WORKER_ENTRIES = 2**16
"""The ``workers`` of :func:`gradient_flow` share a batch of ``B`` elements of ``N`` entries
only as far as each gets at least this many entries (512 KiB in float64): a worker's
operations on a smaller share take less time than the Python around them, which holds the
GIL the workers share.  Measured on the 2-core EPYC (width 256, d0 = 10, N = 2816), two
workers against one: 0.30x at B = 4, 0.63x at 16, 1.04x at 32, 1.22x at 64, 1.37x at 128."""


def _tile_spans(batch: int, per_row: int, cpu: bool, workers: int) -> list[tuple[int, int]]:
    """The tiles ``(a, b)`` of :func:`_dop853`: on the CPU, the fewest tiles of ``per_row``
    bytes per element within a worker's share of :data:`TILE_BYTES` (the workers share the
    cache), at most :data:`WORKER_TILE_BYTES`, a multiple of ``workers`` of them where the
    batch allows, of sizes differing by at most one (so that the workers finish a step
    together); on CUDA one tile."""
    if not cpu or batch <= 1:
        return [(0, batch)]
    share = min(TILE_BYTES // workers, WORKER_TILE_BYTES)
    per_tile = max(1, share // max(per_row, 1))
    count = -(-batch // per_tile)
    count = min(batch, -(-count // workers) * workers)
    edges = [batch * k // count for k in range(count + 1)]
    return list(itertools.pairwise(edges))


def _projected_pace(pace_t, pace_mean, t, due, used, t_end, max_steps, rows):
    """:func:`numerics.scipy_ode.projected_pace` for each element still integrating
    (``due``): the mean step of the last :data:`PACE_WINDOW` attempts; where it has stopped
    growing and the attempts left at that pace exceed :data:`PACE_MARGIN` times what
    ``max_steps`` leaves, a :class:`PaceError` naming the first such element (instead of
    running to ``max_steps``: minutes for a long horizon without the fixed-point test).
    Returns the new ``(pace_t, pace_mean)``."""
    torch = _torch()
    mean = (t - pace_t) / PACE_WINDOW
    positive = mean > 0
    left = (t_end - t) / torch.where(positive, mean, torch.ones_like(mean))
    budget = (max_steps - used).to(t.dtype) * PACE_MARGIN  # float: no int64 overflow
    grew = mean > PACE_GROWTH * pace_mean  # still growing: no projection (as scipy_ode)
    slow = due & (pace_mean > 0) & positive & ~grew & (left > budget)
    if bool(slow.any()):
        k = int(torch.nonzero(slow)[0])
        why = ""
        if bool(mean[k] < pace_mean[k] / 2):  # the steps shrink by half or more per window
            why = "; the steps shrink: a finite-time blow-up (or a flow too stiff for an "
            why += "explicit method)"
        raise PaceError(
            f"batch element {int(rows[k])}: max_steps={max_steps} cannot reach the last of "
            f"times, t = {float(t_end):.6g}: at the pace of the last {PACE_WINDOW} attempted "
            f"steps (mean step {float(mean[k]):.3g}, no longer growing) it needs about "
            f"{float(left[k]):.3g} more after {int(used[k])} (t = {float(t[k]):.6g}); raise "
            f"max_steps, or ask for earlier times{why}"
        )
    return t.clone(), torch.where(due, mean, pace_mean)


def _dop853(model, params, ts, rtol, atol, measures, keep_params, max_steps, progress, offset,
            fixed_point=True, workers=1):  # fmt: skip
    torch = _torch()
    packing = _Packing(model, params)
    y_rows = packing.pack(params).detach()
    B, N = y_rows.shape
    dev, dt = y_rows.device, y_rows.dtype
    f = _field(model, packing)
    bind = _field_binder(model, packing)

    def as_rows(a: np.ndarray) -> Any:
        return torch.as_tensor(a, dtype=dt, device=dev).reshape(-1, a.shape[-1])

    # the flows are autonomous: the nodes C of the tableau are not needed
    A_runs = [(lo, hi, as_rows(r)) for lo, hi, r in _STAGE_RUNS]
    B_run = (_B_RUN[0], _B_RUN[1], as_rows(_B_RUN[2]))
    E_rows = as_rows(_E_ROWS)
    T = torch.as_tensor(ts, dtype=dt, device=dev)
    rec = _Recorder(measures, keep_params, len(ts), packing, offset)
    if atol is None:
        # as numerics.scipy_ode: three orders below the initial scale (or 1 if all zero)
        top = y_rows.abs().amax(1)
        atol_b = rtol * 1e-3 * torch.where(top > 0, top, torch.ones_like(top))
    else:
        atol_b = torch.full((B,), float(atol), dtype=dt, device=dev)
    atol_b = atol_b[:, None]

    t = torch.zeros(B, dtype=dt, device=dev)
    j = torch.zeros(B, dtype=torch.long, device=dev)  # next time index per element
    rows = torch.arange(B, device=dev)
    # times equal to 0 are recorded at once
    while True:
        hit = (j < len(ts)) & (T[j.clamp(max=len(ts) - 1)] <= t)
        if not bool(hit.any()):
            break
        rec.record(y_rows[hit], rows[hit], j[hit])
        j = j + hit.long()
    steps = torch.zeros(B, dtype=torch.long, device=dev)
    rejected = torch.zeros(B, dtype=torch.long, device=dev)
    fixed_t = torch.full((B,), math.nan, dtype=dt, device=dev)
    test = fixed_point and N <= FIXED_POINT_MAX_STATE and B * N * N <= FIXED_POINT_MAX_ENTRIES
    every = check_interval(N)
    attempts = 0
    last_rejected = torch.zeros(B, dtype=torch.bool, device=dev)
    # the work budget of numerics.scipy_ode.projected_pace, per element: t and the mean
    # step at the end of the last window of PACE_WINDOW attempts (0: no window yet)
    pace_t = torch.zeros(B, dtype=dt, device=dev)
    pace_mean = torch.zeros(B, dtype=dt, device=dev)
    nfev = 0
    fy_rows = f(y_rows)
    nfev += 1
    h = _initial_step(f, y_rows, fy_rows, rtol, atol_b, T[-1] - t)
    nfev += 1
    # the buffers, allocated once: K[slot] = h_b f(Y_stage) (see _SLOT_STAGE); the stage
    # state, the new state and its field (swapped with y and fy when every element
    # accepts).  The states are block-major tiles (_Tiles): y[tile] is one run of memory
    # and each block of it a contiguous (n, *shape) tensor; the stage buffer holds a tile
    # in the same layout.  Every combination of stages is elementwise, so layout-agnostic;
    # the per-element parts (the step, atol, the error sums) go block by block.
    per_row = _TILE_ARRAYS * max(N, 1) * y_rows.element_size()
    # a worker's share below MIN_WORKER_ENTRIES costs more in GIL hand-offs than it gains
    workers = max(1, min(workers, B * N // MIN_WORKER_ENTRIES))
    spans = _tile_spans(B, per_row, dev.type == "cpu", workers)
    tiles = _Tiles(packing, spans)
    tile = max(b - a for a, b in spans)
    y, fy = tiles.from_rows(y_rows), tiles.from_rows(fy_rows)
    del y_rows, fy_rows
    y_new, f_new = torch.empty_like(y), torch.empty_like(y)
    # y and y_new (fy and f_new) trade places when every element accepts: states[par] is y
    states, fields, par = (y, y_new), (fy, f_new), 0
    sums = torch.empty((2, B), dtype=dt, device=dev)
    top = torch.empty((B,), dtype=dt, device=dev)
    neg_rates = packing.coefficients()
    # per worker: the stage buffer (12, tile N), the stage state, the scale and its
    # scratch, and the E5 / E3 estimates (2, tile N); worker w steps the tiles w, w + W, ...
    n_workers = min(workers, len(spans))
    buffers = [
        (torch.empty((_STAGES, tile * N), dtype=dt, device=dev),
         *(torch.empty(tile * N, dtype=dt, device=dev) for _ in range(3)),
         torch.empty((2, tile * N), dtype=dt, device=dev))
        for _ in range(n_workers)
    ]  # fmt: skip

    def plan(i: int, par: int) -> tuple[Any, ...]:
        """The views tile ``i`` steps through when ``y`` is ``states[par]`` (and ``y_new``
        the other), in its worker's buffers: taken once, not at every step."""
        a, b = spans[i]
        n, w = b - a, i % n_workers
        K, stage, scale, scratch, err_mn = buffers[w]
        Kt = K[:, : n * N]  # the tile's stages, (12, n N) with leading dimension
        st, sc, sr, em = stage[: n * N], scale[: n * N], scratch[: n * N], err_mn[:, : n * N]
        y_, yn_ = (tiles.tile(s, a, b) for s in (states[par], states[1 - par]))
        fn_ = tiles.tile(fields[1 - par], a, b)
        vs = functools.partial(packing.block_views, n=n)
        first = list(zip(tiles.rows(fields[par], a, b),
                         packing.block_rows(Kt[_STAGE_SLOT[0]], n), strict=True))  # fmt: skip
        stages = [
            (y_.view(1, -1), row, Kt[lo:hi], st.view(1, -1), bind(st, Kt[_STAGE_SLOT[s]], vs))
            for s, (lo, hi, row) in enumerate(A_runs, 1)
        ]
        lo, hi, row = B_run
        new_state = (y_.view(1, -1), row, Kt[lo:hi], yn_.view(1, -1), bind(yn_, fn_, vs))
        error = (Kt[_E_LO:_E_HI], em, y_, yn_, sc, sr, packing.block_rows(sc, n),
                 packing.block_rows(em, n), atol_b[a:b], top[a:b], sums[:, a:b])  # fmt: skip
        return a, b, first, stages, new_state, error

    plans = {(i, par): plan(i, par) for i in range(len(spans)) for par in (0, 1)}

    def step_tiles(w: int, par: int, hb: Any, folded: list[Any]) -> None:
        """One attempted step of the tiles of worker ``w`` (``y`` is ``states[par]``):
        y_new, f(y_new) and the error sums and scale maxima of their elements (disjoint
        slices of the shared arrays)."""
        for i in range(w, len(spans), n_workers):
            a, b, first, stages, new_state, error = plans[i, par]
            coef = [c[a:b] for c in folded]
            hn = hb[a:b]
            for src, dst in first:
                torch.mul(src, hn, out=dst)
            for y_row, row, Kr, out, field in stages:
                torch.addmm(y_row, row, Kr, out=out)
                field(coef)
            y_row, row, Kr, out, field = new_state
            torch.addmm(y_row, row, Kr, out=out)
            field(neg_rates)
            Ke, em, ys, yn, sc, sr, sc_blocks, em_blocks, at, tp, sm = error
            torch.mm(E_rows, Ke, out=em)
            # scipy's norm: scale = atol + rtol max(|y|, |y_new|), no full-size temporary
            torch.abs(ys, out=sc)
            torch.abs(yn, out=sr)
            torch.maximum(sc, sr, out=sc)
            sc.mul_(rtol)
            for k, block in enumerate(sc_blocks):
                block.add_(at)
                if k == 0:
                    torch.amax(block, 1, out=tp)
                else:
                    torch.maximum(tp, block.amax(1), out=tp)
            em.div_(sc).square_()
            for k, block in enumerate(em_blocks):
                if k == 0:
                    torch.sum(block, 2, out=sm)
                else:
                    sm.add_(block.sum(2))

    # a worker thread starts in torch's default modes: give it the caller's (a buffer made
    # under inference_mode may only be written to under it)
    grad_mode, inference = torch.is_grad_enabled(), torch.is_inference_mode_enabled()

    def in_caller_modes(w: int, par: int, hb: Any, folded: list[Any]) -> None:
        with torch.inference_mode(inference), torch.set_grad_enabled(grad_mode):
            step_tiles(w, par, hb, folded)

    pool = None
    if n_workers > 1:
        # a new thread's MKL runs on every core until told otherwise: give it the caller's
        # thread count (measured: a worker's products took 2 cores where the caller's took 1)
        pool = concurrent.futures.ThreadPoolExecutor(
            n_workers, thread_name_prefix="dop853", initializer=torch.set_num_threads,
            initargs=(torch.get_num_threads(),))  # fmt: skip
    bar = progress_bar(float(ts[-1])) if progress else None
    try:
        while bool((j < len(ts)).any()):
            attempts += 1
            active = j < len(ts)
            target = T[j.clamp(max=len(ts) - 1)]
            # as scipy: no step below 10 spacings of t (a stiff start, |f| ~ 1e300, makes the
            # initial-step formula give 0; scipy raises it to this floor and goes on)
            min_step = 10 * (torch.nextafter(t, torch.full_like(t, math.inf)) - t)
            h = torch.where(active, torch.maximum(h, min_step), h)
            h_eff = torch.minimum(h, target - t)
            h_eff = torch.where(active, h_eff, torch.zeros_like(h_eff))
            hb = h_eff[:, None]
            folded = packing.coefficients(h_eff)
            if pool is None:
                step_tiles(0, par, hb, folded)
            else:  # torch releases the GIL inside each operation
                jobs = [pool.submit(in_caller_modes, w, par, hb, folded) for w in range(n_workers)]
                for job in jobs:
                    job.result()
            nfev += _STAGES
            e5, e3 = sums
            # the step is folded into K: these are h^2 times scipy's sums, and
            # e5 / sqrt((e5 + e3 / 100) N) is scipy's |h| e5 / sqrt(...) on its sums
            denom = torch.sqrt((e5 + 0.01 * e3) * N)
            err = e5 / torch.where(denom > 0, denom, 1.0)
            # a step that overflows (or meets NaN) is rejected like a too-large one: a
            # non-finite y_new makes its row of scale non-finite (maximum propagates NaN)
            finite = torch.isfinite(top) & torch.isfinite(err)
            err = torch.where(finite, err, torch.full_like(err, math.inf))
            accept = active & (err < 1)
            factor = _SAFETY * err.clamp(min=1e-300) ** _ERROR_EXPONENT
            factor = torch.where(err == 0, _MAX_FACTOR, factor.clamp(_MIN_FACTOR, _MAX_FACTOR))
            # as scipy: no growth on the step after a rejection
            factor = torch.where(accept & last_rejected, factor.clamp(max=1.0), factor)
            last_rejected = active & ~accept
            reached = accept & (h_eff >= target - t)
            t = torch.where(accept, torch.where(reached, target, t + h_eff), t)
            if bool(accept.all()):
                y, y_new = y_new, y
                fy, f_new = f_new, fy
                par = 1 - par
            elif bool(accept.any()):
                tiles.where(accept, y_new, y)
                tiles.where(accept, f_new, fy)
            # a step cut short to land on a requested time keeps the step it would have
            # taken (the error estimate of the shorter step says nothing larger)
            grown = torch.where(reached & (h_eff < h), h, h_eff * factor)
            h = torch.where(active, torch.where(accept, grown, h_eff * factor), h)
            steps += accept.long()
            rejected += last_rejected.long()
            # a rejected step that would shrink below the floor (as scipy: the flow blows up,
            # or meets NaN) or too many attempts: stop with the element and its time
            floor = 10 * (torch.nextafter(t, torch.full_like(t, math.inf)) - t)
            stuck = active & ~reached & ((~accept & (h < floor)) | ~torch.isfinite(h))
            if bool(stuck.any()):
                bad = int(rows[stuck][0])
                raise ArithmeticError(
                    f"batch element {bad}: step size underflow at t = {float(t[bad]):.6g} "
                    "(non-finite state or finite-time blow-up)"
                )
            tired = active & ~reached & (steps + rejected >= max_steps)
            if bool(tired.any()):
                bad = int(rows[tired][0])
                raise ArithmeticError(f"batch element {bad}: max_steps={max_steps} attempted "
                                      f"steps by t = {float(t[bad]):.6g}")  # fmt: skip
            while bool(reached.any()):
                rec.record(tiles.to_rows(y, reached), rows[reached], j[reached])
                j = j + reached.long()
                nxt = j.clamp(max=len(ts) - 1)
                reached = reached & (j < len(ts)) & (T[nxt] <= t)
            if test and attempts >= _FIRST_CHECK and attempts % every == 0:
                due = j < len(ts)
                if bool(due.any()):
                    y_rows = tiles.to_rows(y)
                    done, tail = _fixed_point(model, packing, f, y_rows, tiles.to_rows(fy), due,
                                              t, T[-1], rtol, atol_b)  # fmt: skip
                    nfev += N + 2
                    for k in range(len(ts)):
                        now = done & (j <= k)
                        if bool(now.any()):
                            ext = tail.change((T[k] - t).cpu().numpy())
                            ext = torch.as_tensor(ext, dtype=dt, device=dev)
                            rec.record((y_rows + ext)[now], rows[now],
                                       torch.full_like(j[now], k))  # fmt: skip
                    fixed_t = torch.where(done, t, fixed_t)
                    j = torch.where(done, torch.full_like(j, len(ts)), j)
            if attempts % PACE_WINDOW == 0:
                used = steps + rejected
                pace_t, pace_mean = _projected_pace(
                    pace_t, pace_mean, t, j < len(ts), used, T[-1], max_steps, rows
                )
            if bar is not None:
                done = torch.where(j < len(ts), t, T[-1])
                bar.n = float(done.min())
                bar.refresh()
    finally:
        if pool is not None:
            pool.shutdown()
        if bar is not None:
            bar.close()
    return FlowResult(
        times=T, params=rec.params_dict(), measures=rec.values, steps=steps,
        rejected=rejected, nfev=nfev, fixed_point_t=fixed_t,
    )  # fmt: skip


def _initial_step(f, y, fy, rtol, atol_b, span):
    """Hairer, Norsett & Wanner II.4 (as scipy's ``select_initial_step``), per element."""
    torch = _torch()
    scale = atol_b + y.abs() * rtol
    N = y.shape[1]
    d0 = torch.linalg.vector_norm(y / scale, dim=1) / math.sqrt(N)
    d1 = torch.linalg.vector_norm(fy / scale, dim=1) / math.sqrt(N)
    small = (d0 < 1e-5) | (d1 < 1e-5)
    h0 = torch.where(small, torch.full_like(d0, 1e-6), 0.01 * d0 / torch.where(small, 1.0, d1))
    h0 = torch.minimum(h0, span.clamp(min=1e-300))
    f1 = f(y + h0[:, None] * fy)
    d2 = torch.linalg.vector_norm((f1 - fy) / scale, dim=1) / math.sqrt(N) / h0
    tiny = (d1 <= 1e-15) & (d2 <= 1e-15)
    dmax = torch.maximum(d1, d2)
    h1 = torch.where(tiny, torch.maximum(torch.full_like(h0, 1e-6), h0 * 1e-3),
                     (0.01 / torch.where(tiny, 1.0, dmax)) ** (1 / 8))  # fmt: skip
    return torch.minimum(torch.minimum(100 * h0, h1), span.clamp(min=1e-300))
