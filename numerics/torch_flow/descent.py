"""Batched gradient descent in torch: ``theta <- theta - lr eta_b grad_b L``.

The training of the papers' experiments.  The time of step ``k`` is ``k lr``; the
parameters are checked for inf / NaN every :data:`CHECK_EVERY` steps, and a run that leaves
the finite numbers is a :class:`DivergedError` naming its first non-finite step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from numerics.scipy_ode import progress_bar
from numerics.torch_flow.batching import _prepare, _split_on_oom
from numerics.torch_flow.checks import (
    _check_lr_vector,
    _check_run_options,
    _check_threads,
    _lr_is_sequence,
    _torch,
)
from numerics.torch_flow.devices import _threads
from numerics.torch_flow.field import _field, _field_into
from numerics.torch_flow.flow import DEFAULT_THREADS
from numerics.torch_flow.layout import _Packing
from numerics.torch_flow.results import FlowResult, _Recorder
from solvable._core import numbers as nb

CHECK_EVERY = 64
"""Gradient descent checks its parameters for inf / NaN after every this many steps."""


class DivergedError(ArithmeticError, ValueError):
    """Gradient descent left the float64 (or the parameters' dtype) range: an
    ``ArithmeticError`` (it is one) and a ``ValueError`` of its argument ``lr`` (too large
    for this model and start), named in the message."""


def _diverged(f: Any, step: Any, y: Any, k0: int, n: int, offset: int, per_element: bool,
              lr: Any) -> None:  # fmt: skip
    """Replay the ``n`` steps after step ``k0`` from ``y`` to name the first step with a
    non-finite parameter and its batch elements; raise :class:`DivergedError`."""
    torch = _torch()
    first = k0
    while first < k0 + n:
        y = y + step * f(y)
        first += 1
        bad = ~torch.isfinite(y).all(dim=1)
        if bool(bad.any()):
            break
    rows = (torch.nonzero(bad).reshape(-1) + offset).tolist()
    shown = ", ".join(map(str, rows[:5])) + (", ..." if len(rows) > 5 else "")
    what = "its lr" if per_element else f"lr = {lr}"
    raise DivergedError(
        f"gradient descent diverged: a parameter is inf or NaN after step {first} in batch "
        f"element(s) {shown} ({what}); a smaller lr keeps it finite"
    )


def gradient_descent(
    model: Any,
    params: Mapping[str, Any],
    lr: float | Sequence[float] | np.ndarray,
    record_steps: Sequence[int],
    *,
    measures: Mapping[str, Callable[..., Any]] | None = None,
    keep_params: bool = True,
    device: Any = None,
    dtype: Any = None,
    max_batch: int | None = None,
    progress: bool = False,
    threads: int | None = DEFAULT_THREADS,
) -> FlowResult:
    """``theta_b <- theta_b - lr_b eta_b grad_b L``, recording after each of
    ``record_steps`` (sorted integers >= 0).

    ``lr``: one finite real number ``> 0`` for the whole batch (numpy scalars too; a bool or
    a 0-d tensor is a ``TypeError``), or one per batch element: a 1-d sequence, numpy array
    or tensor of length ``B`` of finite numbers ``> 0`` (e.g. runs whose step is set by
    their own initial kernel, trained together).  ``times = step * lr``: shape ``(T,)`` for
    one ``lr``, ``(T, B)`` for one per element.

    ``threads``: torch's intra-operation CPU threads for the run, restored after it (an int
    ``>= 1``; ``None`` leaves torch's setting), default
    :data:`~numerics.torch_flow.flow.DEFAULT_THREADS` = 1 as :func:`gradient_flow`: each
    step is a few memory-bound operations on small tensors, where more OpenMP threads cost
    more than they gain (issue 30 measured the README's run, B = 256, width 64, 10^4 steps,
    at 4 s on one thread and 54 s at torch's default of one per core on a 2-core machine).
    ``progress``: a tqdm bar of the steps done."""
    torch = _torch()
    per_element = _lr_is_sequence(lr)
    lr = (
        _check_lr_vector(lr)
        if per_element
        else nb.to_float(nb.check_number("lr", lr, positive=True), "lr")
    )
    steps_arr = np.asarray(record_steps)
    if steps_arr.ndim != 1 or steps_arr.size == 0 or not np.issubdtype(steps_arr.dtype, np.integer):
        raise ValueError(f"record_steps must be a non-empty 1-d sequence of integers, "
                         f"got {record_steps!r:.80}")  # fmt: skip
    if np.any(steps_arr < 0) or np.any(np.diff(steps_arr) < 0):
        raise ValueError("record_steps must be sorted and >= 0")
    keep_params, progress, measures, max_batch = _check_run_options(
        keep_params, progress, measures, max_batch
    )
    if threads is not None:
        threads = _check_threads("threads", threads)
    p = _prepare(model, params, device, dtype)
    if per_element:
        batch = next(iter(p.values())).shape[0]
        if len(lr) != batch:
            raise ValueError(
                f"lr must be one number or one per batch element ({batch}), got {len(lr)} values"
            )

    def run(chunk: dict[str, Any], offset: int) -> FlowResult:
        packing = _Packing(model, chunk)
        y = packing.pack(chunk).detach()  # a new tensor (torch.cat): updated in place
        f = _field(model, packing)
        # the step in place, into buffers kept for the run: y + step * f(y), the same
        # operations in the same order (bit for bit), without the three state-size
        # tensors a step allocated (above ~32 MB each allocation is fresh memory from the
        # kernel, page faults included: measured at m = 2500, seed 004's W2 of 50 MB)
        into, neg = _field_into(model, packing), packing.coefficients()
        grad = torch.empty_like(y)
        if per_element:
            rate = torch.as_tensor(lr[offset : offset + y.shape[0]], dtype=y.dtype,
                                   device=y.device)  # fmt: skip
            step = rate[:, None]
        else:
            step = lr
        rec = _Recorder(measures, keep_params, len(steps_arr), packing, offset)
        rows = torch.arange(y.shape[0], device=y.device)
        bar = progress_bar(float(steps_arr[-1]), "step") if progress else None
        k = 0
        try:
            for idx, target in enumerate(steps_arr):
                while k < target:
                    # a window of steps, then one finiteness check (a sync on a GPU): a
                    # run that diverges stops within CHECK_EVERY steps, not at the last
                    n = min(CHECK_EVERY, int(target) - k)
                    start = y.clone()  # the replay of _diverged starts here
                    for _ in range(n):
                        into(y, grad, neg, packing.row_views)  # grad = f(y)
                        y.add_(torch.mul(grad, step, out=grad))
                    k += n
                    if bar is not None:
                        bar.update(n)
                    if not bool(torch.isfinite(y).all()):
                        _diverged(f, step, start, k - n, n, offset, per_element, lr)
                rec.record(y, rows, torch.full_like(rows, idx))
        finally:
            if bar is not None:
                bar.close()
        if per_element:
            times = torch.as_tensor(steps_arr, dtype=y.dtype, device=y.device)[:, None] * rate
        else:
            times = torch.as_tensor(steps_arr * float(lr), dtype=y.dtype, device=y.device)
        n = torch.full((y.shape[0],), int(steps_arr[-1]), dtype=torch.long, device=y.device)
        return FlowResult(times, rec.params_dict(), rec.values, n, torch.zeros_like(n), k)

    with _threads(threads), torch.inference_mode(False):  # autograd fields, as in gradient_flow
        return _split_on_oom(run, p, max_batch)
