"""Batched gradient flow ``d theta_b/dt = -eta_b grad_b L(theta)`` in torch, CPU or CUDA.

:func:`gradient_flow` checks its arguments, sets torch's threads and integrates each chunk
of the batch by the DOP853 of :mod:`numerics.torch_flow.dop853`; its defaults
(:data:`DEFAULT_RTOL`, :data:`DEFAULT_THREADS`, :data:`DEFAULT_WORKERS`) are measured
choices described where they are defined.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from numerics.torch_flow.batching import _prepare, _split_on_oom
from numerics.torch_flow.checks import (
    _INT64_MAX,
    _check_flag,
    _check_run_options,
    _check_threads,
    _check_times,
    _torch,
)
from numerics.torch_flow.devices import RTOL_FLOOR_EPS, _threads, min_rtol
from numerics.torch_flow.dop853 import _dop853
from numerics.torch_flow.results import FlowResult
from solvable._core import numbers as nb

DEFAULT_RTOL = 1e-10
"""float64's default ``rtol`` of :func:`gradient_flow` (a lower precision gets
:func:`min_rtol` of its dtype)."""


DEFAULT_THREADS = 1
"""torch's CPU threads during :func:`gradient_flow` unless ``threads`` says otherwise: the
flow is memory-bound, and on a shared machine a second OpenMP thread that waits for a busy
core made it several times slower (issue 17: 0.18x of one thread under load)."""

DEFAULT_WORKERS = 2
"""Python threads of :func:`gradient_flow` that step the tiles of the batch concurrently on
the CPU (torch releases the GIL inside an operation).  Unlike OpenMP threads, a worker
never spins at a barrier: measured on the 2-core EPYC (issue 17, ``python
benchmarks/bench_torch.py --only gf --threads 1 [--busy]``), two workers of one torch thread
each ran B = 128 to 1024 nets of width 256 1.35x-1.6x faster than one, and, next to a process
that kept one core busy, at 0.81x-1.10x of one, where two OpenMP threads collapsed (0.18x)."""


def gradient_flow(
    model: Any,
    params: Mapping[str, Any],
    times: Sequence[float],
    *,
    rtol: float | None = None,
    atol: float | None = None,
    measures: Mapping[str, Callable[..., Any]] | None = None,
    keep_params: bool = True,
    device: Any = None,
    dtype: Any = None,
    max_batch: int | None = None,
    max_steps: int = 100_000,
    progress: bool = False,
    fixed_point: bool = True,
    threads: int | None = DEFAULT_THREADS,
    workers: int = DEFAULT_WORKERS,
) -> FlowResult:
    """Integrate ``d theta/dt = -eta grad L`` for every batch element to each of ``times``.

    ``params``: dict of tensors ``(B, *shape)`` for the model's ``blocks``.  ``rtol`` and
    ``atol`` (default ``rtol * 1e-3 * max|theta_0|``, per element) as in scipy's DOP853.
    ``rtol`` defaults to 1e-10 in float64 and to :func:`min_rtol` (``100 eps``) of a lower
    precision (float32: 1.19e-5); an ``rtol`` below :func:`min_rtol` of the parameters'
    dtype is a ``ValueError`` that names the dtype and the smallest valid value (the step
    control could not meet it and would shrink the step for minutes).
    ``device``/``dtype`` move the parameters (default: where and what they are; float64
    recommended).  ``max_batch`` caps the chunk size; a chunk that runs out of memory is
    halved and retried.  ``max_steps`` caps the attempted steps of each element (an
    ``ArithmeticError`` naming it, not a hang); as in :func:`numerics.scipy_ode.integrate`,
    an element whose pace over the last :data:`~numerics.scipy_ode.PACE_WINDOW` attempts
    cannot reach the last time within ``PACE_MARGIN`` times what ``max_steps`` leaves stops
    early (a :class:`~numerics.scipy_ode.PaceError`).  ``progress`` shows a tqdm bar of the
    slowest element's time.

    ``fixed_point`` (default on): from the 64th step on, every
    :func:`numerics.scipy_ode.check_interval` steps, an element whose remaining trajectory
    is its linearised flow to within the tolerance (the criterion of
    :class:`numerics.scipy_ode.LinearTail`, with the autograd Hessian: no unstable
    direction, remaining change ``<= |grad| / lambda`` per mode below ``atol + rtol
    |theta|``, checked again at the predicted limit) stops stepping and its later times
    are evaluated from the linearised flow; ``FlowResult.fixed_point_t`` says when.  It runs
    where the dense Hessians are small (N <= 64, :data:`FIXED_POINT_MAX_ENTRIES`).

    ``threads``: torch's intra-operation CPU threads for the run, restored after it (an
    int ``>= 1``; ``None`` leaves torch's setting).  Default :data:`DEFAULT_THREADS` = 1:
    the operations are memory-bound, so a second OpenMP thread gains little and, on a
    loaded machine, loses much.  ``workers`` (an int ``>= 1``, default
    :data:`DEFAULT_WORKERS` = 2): Python threads that step the tiles of the batch
    concurrently on the CPU, each tile's operations on ``threads`` threads (so about
    ``workers * threads`` cores); where the batch is one tile (CUDA, or a small batch)
    one worker runs.  The tiling (:func:`_tile_spans`) depends on ``workers``; the
    numbers do not depend on which worker steps a tile.

    Each step writes the field of every stage, times the step, into one stage buffer
    ``(12, tile N)`` and forms every combination of stages as one matrix product
    (``torch.addmm``); see :data:`TILE_BYTES` and :data:`_SLOT_STAGE`.  The state is held
    block-major per tile (:class:`_Tiles`), so the model sees each block as a contiguous
    ``(n, *shape)`` tensor; a model may write its field straight into the stage buffer
    through a ``gradient_into(p, out, coefficients)`` hook (the protocol:
    :func:`_field_into`).
    """
    torch = _torch()  # a clear ImportError without torch
    ts = _check_times(times)
    if atol is not None:
        atol = nb.to_float(nb.check_number("atol", atol, positive=True), "atol")
    max_steps = min(nb.check_int("max_steps", max_steps), _INT64_MAX)  # beyond: unreachable
    fixed_point = _check_flag("fixed_point", fixed_point)
    keep_params, progress, measures, max_batch = _check_run_options(
        keep_params, progress, measures, max_batch
    )
    p = _prepare(model, params, device, dtype)
    work = next(iter(p.values())).dtype
    if work not in (torch.float32, torch.float64):
        raise ValueError(
            f"params have dtype {work}: gradient_flow integrates in float32 or float64 only "
            f"(in {work} the step control could ask no more than rtol = {min_rtol(work):.2g}, "
            f"errors of 10% and more); pass dtype=torch.float32 or dtype=torch.float64"
        )
    floor = min_rtol(work)
    if rtol is None:
        rtol = DEFAULT_RTOL if work == torch.float64 else max(DEFAULT_RTOL, floor)
    else:
        rtol = nb.to_float(nb.check_number("rtol", rtol, positive=True), "rtol")
        if not rtol < 1:
            raise ValueError(f"rtol must be in [{floor:.3g}, 1), got {rtol!r}")
        if rtol < floor:
            raise ValueError(
                f"rtol={rtol!r} is below what {work} can meet: rtol must be >= {floor:.3g} "
                f"({RTOL_FLOOR_EPS} eps of {work}); use float64 parameters for a smaller rtol"
            )

    if threads is not None:
        threads = _check_threads("threads", threads)
    workers = _check_threads("workers", workers)

    def run(chunk: dict[str, Any], offset: int) -> FlowResult:
        return _dop853(model, chunk, ts, rtol, atol, measures, keep_params, max_steps, progress,
                       offset, fixed_point, workers)  # fmt: skip

    # the fixed-point test and a model without a hand-written gradient need autograd, which
    # a caller's inference_mode would disable: the flow runs outside it (its results are
    # then ordinary tensors)
    with _threads(threads), torch.inference_mode(False):
        return _split_on_oom(run, p, max_batch)
