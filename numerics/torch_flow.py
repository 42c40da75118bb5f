"""Batched gradient flow and gradient descent in torch, on CPU or CUDA.

Many independent networks (a batch of initialisations, of widths padded as described in
:mod:`numerics.models`, or of node scalings) are integrated at once.  The vector field is
``d theta_b/dt = -eta_b grad_b L(theta)``, with the gradient from autograd on the model's
loss (the batch elements are independent, so the gradient of the summed losses is the
per-element gradient).

Gradient flow: Dormand-Prince 8(5,3) (the ``DOP853`` of Hairer, Norsett & Wanner, with
scipy's coefficient tables, :mod:`scipy.integrate._ivp.dop853_coefficients`) with error
control *per batch element*: each network has its own time and step, accepted or
rejected on its own error estimate (scipy's error norm), so a batch gives the same
trajectories as separate runs.  Steps are shortened to land exactly on the requested
times (no dense-output interpolation error).  Why not torchdiffeq: its adaptive solvers
share one step across the whole batch (one stiff or fast network sets it for all), it
would be one more dependency, and it was slower on these models: measured once on the
2-core CPU (torchdiffeq 0.2.5 ``dopri8``, B = 256 two-layer linear nets of width 256,
d0 = 10, to t = 5 at rtol 1e-10, the same vector field): 16.4 s and 444 evaluations
against 4.4 s here, both 2e-13 from an rtol 1e-13 reference.  ``benchmarks/bench_torch.py``
measures the speed against a loop of ``solve_ivp`` and ``tests/test_torch_flow.py`` the
accuracy against the mpmath oracle.

Near a stable fixed point an explicit method's step is bounded by stability, not accuracy:
every few steps the flow tests, per batch element, whether the rest of its trajectory is the
linearised flow to within the tolerance (:class:`numerics.scipy_ode.LinearTail`, from the
autograd Hessian) and then evaluates the remaining requested times from it.

Tolerances are checked against the parameters' dtype: ``rtol`` must be at least
``100 eps`` of the dtype (float64: 2.2e-14; float32: 1.2e-5), the accuracy an error
controller in that precision can meet (as scipy's ``100 * EPS`` floor).

Gradient descent: ``theta <- theta - lr eta_b grad_b L`` (the papers' experiments), with
the time of step ``k`` being ``k lr``.

Measures are recorded at the requested times only (never every step): a dict of
callables ``fn(params, rows) -> tensor (k, ...)`` evaluated on the ``k`` batch elements
``rows`` (indices into the full batch) that reached a requested time together (see
:mod:`numerics.measures`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.integrate._ivp import dop853_coefficients as _dop

from numerics.scipy_ode import (
    FIXED_POINT_MAX_STATE,
    PACE_GROWTH,
    PACE_MARGIN,
    PACE_WINDOW,
    LinearTail,
    PaceError,
    check_interval,
    progress_bar,
)
from solvable._core import numbers as nb

__all__ = [
    "FlowResult",
    "gradient_descent",
    "gradient_flow",
    "initialise",
    "min_rtol",
    "resolve_device",
]

_SAFETY, _MIN_FACTOR, _MAX_FACTOR = 0.9, 0.2, 10.0
_ERROR_EXPONENT = -1.0 / 8.0  # DOP853: error ~ h^8
_STAGES = _dop.N_STAGES
DEFAULT_RTOL = 1e-10
"""float64's default ``rtol`` of :func:`gradient_flow` (a lower precision gets
:func:`min_rtol` of its dtype)."""
RTOL_FLOOR_EPS = 100
"""The smallest ``rtol`` is this many ``eps`` of the dtype (scipy's floor for its solvers)."""
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
128 MiB as fast as or faster than one tile.  On CUDA the batch is one tile."""
_TILE_ARRAYS = 17  # the 12 stages, the stage state, the scale and its scratch, E5 and E3
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

MIN_WORKER_ENTRIES = 2**16
"""The ``workers`` of :func:`gradient_flow` share a batch of ``B`` elements of ``N`` entries
only as far as each gets at least this many entries (512 KiB in float64): a worker's
operations on a smaller share take less time than the Python around them, which holds the
GIL the workers share.  Measured on the 2-core EPYC (width 256, d0 = 10, N = 2816), two
workers against one: 0.30x at B = 4, 0.63x at 16, 1.04x at 32, 1.22x at 64, 1.37x at 128."""

# The stage buffer of :func:`_dop853` is (12, B, N), stage outermost, and holds h_b f(Y_s)
# (the step folded in), so a combination y + h sum_k a_k f(Y_k) is one matrix product
# (1, m) @ (m, B N) added to y (``torch.addmm``), reading each stage once at full
# bandwidth.  DOP853's rows are sparse (A[s, 1:3] = 0 for s >= 5, B and E3/E5 are zero at
# stages 1-4, and E3/E5 at the FSAL stage 12): with the stages held in the slot order
# below (stage 0, used by every row, between stages 1 and 3), every row reads one run of
# consecutive slots, 72 stage reads per step instead of 90.  A run may cover a stage of
# coefficient 0 that is already computed in this step (never a later one).
_SLOT_STAGE = (2, 1, 0, *range(3, _STAGES))  # the stage held by each slot
_STAGE_SLOT = tuple(_SLOT_STAGE.index(k) for k in range(_STAGES))


def _run(row: np.ndarray, before: int) -> tuple[int, int, np.ndarray]:
    """The run of slots ``lo:hi`` that covers the non-zero entries of ``row`` (indexed by
    stage), and its coefficients in slot order; every slot in it holds a stage < ``before``."""
    nonzero = [_STAGE_SLOT[k] for k in range(_STAGES) if row[k] != 0]
    lo, hi = min(nonzero), max(nonzero) + 1
    stages = _SLOT_STAGE[lo:hi]
    if max(stages) >= before:  # pragma: no cover - a property of the table, checked at import
        raise RuntimeError(f"DOP853 slot order: a run needs stage {max(stages)} before it exists")
    return lo, hi, np.array([row[k] for k in stages], dtype=float)


if _dop.E3[_STAGES] != 0 or _dop.E5[_STAGES] != 0:  # pragma: no cover - scipy's table
    raise RuntimeError("DOP853 error estimate uses the FSAL stage: the stage buffer needs it")
_STAGE_RUNS = [_run(_dop.A[s, :_STAGES], s) for s in range(1, _STAGES)]
_B_RUN = _run(_dop.B, _STAGES)
_E_LO, _E_HI, _ = _run(np.abs(_dop.E3[:_STAGES]) + np.abs(_dop.E5[:_STAGES]), _STAGES)
_E_ROWS = np.array([[row[k] for k in _SLOT_STAGE[_E_LO:_E_HI]] for row in (_dop.E5, _dop.E3)])


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            "numerics.torch_flow needs torch: pip install 'solvable[torch]' "
            "(CPU build: pip install torch==2.13.0)"
        ) from exc
    return torch


@contextlib.contextmanager
def threads(n: int | None) -> Iterator[None]:
    """torch intra-op threads set to ``n`` for the block (``None``: leave them), restored
    after it.  The seeds' problems are small: on a shared 2-core machine spinning OpenMP
    threads made them 10-20x slower than one thread."""
    torch = _torch()
    old = torch.get_num_threads()
    if n is not None:
        torch.set_num_threads(_check_threads("threads", n))
    try:
        yield
    finally:
        torch.set_num_threads(old)


_threads = threads  # gradient_flow's argument of the same name hides it there


def min_rtol(dtype: Any) -> float:
    """The smallest ``rtol`` :func:`gradient_flow` accepts for parameters of ``dtype``:
    ``RTOL_FLOOR_EPS * eps`` (float64 2.2e-14, float32 1.2e-5, bfloat16 0.78)."""
    torch = _torch()
    dtype = _check_dtype(dtype)  # None: torch's default dtype
    return RTOL_FLOOR_EPS * float(torch.finfo(dtype).eps)


def resolve_device(device: Any = None) -> Any:
    """``None``: CUDA when available, else CPU; ``"cpu"``, ``"cuda"``, ``"cuda:k"`` or a
    ``torch.device``.  An unknown or unavailable device is a ``ValueError``."""
    torch = _torch()
    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError) as exc:
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:k', got {device!r}") from exc
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"device {device!r}: CUDA is not available on this machine")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValueError(
                f"device {device!r}: only {torch.cuda.device_count()} CUDA device(s) here"
            )
    elif dev.type != "cpu":
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:k', got {device!r}")
    return dev


def initialise(
    shapes: Mapping[str, tuple[int, ...]],
    batch: int,
    *,
    scale: float | Mapping[str, float] = 1.0,
    seed: int = 0,
    device: Any = None,
    dtype: Any = None,
) -> dict[str, Any]:
    """i.i.d. Gaussian parameters ``N(0, scale^2)`` of shape ``(batch, *shape)`` per block.

    ``scale``: one finite number ``>= 0`` or one per block (a mapping with exactly the
    blocks of ``shapes``).  Drawn on the CPU from ``torch.Generator().manual_seed(seed)``
    and then moved, so the same seed gives the same numbers on every device."""
    torch = _torch()
    shapes = _check_shapes(shapes)
    batch = nb.check_int("batch", batch)
    seed = _check_seed(seed)
    for name, shape in shapes.items():
        if batch * math.prod(shape) > _INT64_MAX:
            raise ValueError(f"batch = {batch} networks of shapes[{name!r}] = {shape}: more "
                             f"than 2**63 - 1 entries (torch's limit)")  # fmt: skip
    if isinstance(scale, Mapping):
        missing = sorted(set(shapes) - set(scale))
        extra = sorted(set(scale) - set(shapes))
        if missing or extra:
            raise ValueError(f"scale must give one value per block {sorted(shapes)}; missing "
                             f"{missing}, unexpected {extra}")  # fmt: skip
        scales = {k: nb.to_float(nb.check_number(f"scale[{k!r}]", v, nonnegative=True),
                                 f"scale[{k!r}]") for k, v in scale.items()}  # fmt: skip
    else:
        value = nb.to_float(nb.check_number("scale", scale, nonnegative=True), "scale")
        scales = dict.fromkeys(shapes, value)
    dev = resolve_device(device)
    dtype = torch.float64 if dtype is None else _check_dtype(dtype)
    gen = torch.Generator().manual_seed(int(seed))
    out = {}
    for name, shape in shapes.items():
        z = torch.randn((batch, *shape), generator=gen, dtype=torch.float64)
        drawn = (scales[name] * z).to(dtype=dtype)  # on the CPU: checked without a device sync
        if not bool(torch.isfinite(drawn).all()):
            raise ValueError(f"scale = {scales[name]!r} (block {name!r}) times N(0, 1) draws "
                             f"leaves the range of {dtype}: rescale it")  # fmt: skip
        out[name] = drawn.to(device=dev)
    return out


def _check_shapes(shapes: Any) -> dict[str, tuple[int, ...]]:
    """``shapes``: a non-empty mapping of block name (str) -> shape (a sequence of ints
    ``>= 0``; ``()`` for a scalar block)."""
    want = "a mapping of block name (str) -> shape (tuple of ints >= 0)"
    if not isinstance(shapes, Mapping):
        raise TypeError(f"shapes must be {want}, got {type(shapes).__name__} "
                        f"{nb.describe(shapes)}")  # fmt: skip
    if not shapes:
        raise ValueError(f"shapes must be {want} with at least one block, got {{}}")
    out = {}
    for name, shape in shapes.items():
        if not isinstance(name, str):
            raise TypeError(f"shapes must be {want}; got the key {nb.describe(name)}")
        if isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence):
            raise TypeError(f"shapes[{name!r}] must be a tuple of ints >= 0, got "
                            f"{type(shape).__name__} {nb.describe(shape)}")  # fmt: skip
        out[name] = tuple(nb.check_int(f"shapes[{name!r}][{i}]", d, low=0)
                          for i, d in enumerate(shape))  # fmt: skip
    return out


@dataclass(frozen=True)
class FlowResult:
    """``times`` (T,); ``params[name]``: ``(T, B, *shape)`` (if kept); ``measures[name]``:
    (T, B, ...); ``steps``, ``rejected``, ``nfev``: per batch element (B,) (gradient
    flow) or totals (gradient descent)."""

    times: Any
    params: dict[str, Any]
    measures: dict[str, Any]
    steps: Any
    rejected: Any
    nfev: int
    fixed_point_t: Any = None
    """(B,): the time at which the fixed-point test succeeded (the later times are the
    linearised flow from there), NaN where it did not (gradient flow only)."""


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
class _Packing:
    """Flatten a dict of (B, *shape) blocks to (B, N) and back."""

    def __init__(self, model: Any, params: Mapping[str, Any]):
        torch = _torch()
        missing = [b for b in model.blocks if b not in params]
        extra = [b for b in params if b not in model.blocks]
        if missing or extra:
            raise ValueError(
                f"params must have exactly the blocks {model.blocks}; missing {missing}, "
                f"unexpected {extra}"
            )
        first = params[model.blocks[0]]
        if not isinstance(first, torch.Tensor):
            raise TypeError(f"params must be torch tensors, got {type(first).__name__}")
        self.batch = first.shape[0] if first.ndim else 0
        if self.batch == 0:
            raise ValueError(
                f"params must hold at least one batch element (a leading dimension B >= 1), "
                f"got params[{model.blocks[0]!r}] of shape {tuple(first.shape)}"
            )
        self.names = model.blocks
        self.shapes = []
        for b in self.names:
            t = params[b]
            if not isinstance(t, torch.Tensor) or t.shape[:1] != (self.batch,):
                raise ValueError(
                    f"params[{b!r}] must be a tensor with leading batch dimension "
                    f"{self.batch}, got {getattr(t, 'shape', type(t).__name__)}"
                )
            self.shapes.append(tuple(t.shape[1:]))
        self.sizes = [math.prod(s) for s in self.shapes]
        rates = model.rates
        self.rates = torch.cat(
            [torch.full((n,), float(rates[b]), dtype=first.dtype, device=first.device)
             for b, n in zip(self.names, self.sizes, strict=True)]
        )  # fmt: skip
        self.neg_rates = [-float(rates[b]) for b in self.names]
        ends = list(itertools.accumulate(self.sizes))
        self.slices = [slice(e - n, e) for e, n in zip(ends, self.sizes, strict=True)]

    @property
    def width(self) -> int:
        """``N``, the number of parameters of one batch element."""
        return sum(self.sizes)

    def coefficients(self, h: Any = None) -> list[Any]:
        """Per block, the factor of its gradient in the field: ``-eta_block`` (a float), or
        ``-eta_block h`` for a per-element step ``h`` (B,) (the step folded in), shaped
        ``(B, 1, ..., 1)`` to broadcast against the block ``(B, *shape)``."""
        if h is None:
            return list(self.neg_rates)
        return [h.view(-1, *(1,) * len(s)) * r
                for s, r in zip(self.shapes, self.neg_rates, strict=True)]  # fmt: skip

    def pack(self, params: Mapping[str, Any]) -> Any:
        torch = _torch()
        return torch.cat([params[b].reshape(self.batch_of(params), -1) for b in self.names], 1)

    def batch_of(self, params: Mapping[str, Any]) -> int:
        return params[self.names[0]].shape[0]

    def unpack(self, y: Any) -> dict[str, Any]:
        return dict(zip(self.names, self.row_views(y), strict=True))

    def row_views(self, y: Any) -> list[Any]:
        """The blocks ``(n, *shape)`` of a row-major state ``y`` (n, N): views (strided:
        a block's rows are ``N`` apart)."""
        n = y.shape[0]
        return [y[:, sl].reshape(n, *s) for sl, s in zip(self.slices, self.shapes, strict=True)]

    def block_views(self, flat: Any, n: int) -> list[Any]:
        """The blocks ``(n, *shape)`` of a block-major state ``flat`` (n N,) of ``n``
        elements, ``[block 0 of all n | block 1 of all n | ...]``: contiguous views."""
        return [flat[n * sl.start : n * sl.stop].view(n, *s)
                for sl, s in zip(self.slices, self.shapes, strict=True)]  # fmt: skip

    def block_rows(self, flat: Any, n: int) -> list[Any]:
        """As :meth:`block_views`, each block flattened to ``(..., n, size)`` (``flat`` may
        have leading dimensions: ``(..., n N)``), for the per-element reductions."""
        return [flat[..., n * sl.start : n * sl.stop].unflatten(-1, (n, sl.stop - sl.start))
                for sl in self.slices]  # fmt: skip


class _Tiles:
    """The block-major state of :func:`_dop853`: a flat ``(B N,)`` tensor holding the batch
    in tiles of ``tile`` consecutive elements, each tile block-major (see
    :meth:`_Packing.block_views`), so that a tile is one contiguous run (every stage
    combination is one ``addmm`` over it, whatever the layout) and each of its blocks is a
    contiguous ``(n, *shape)`` tensor (a model's ``W @ x`` is one matrix-vector product,
    not a batched product over rows ``N`` apart)."""

    def __init__(self, packing: _Packing, spans: Sequence[tuple[int, int]]):
        self.packing = packing
        self.N = packing.width
        self.spans = list(spans)

    def tile(self, flat: Any, a: int, b: int) -> Any:
        """The ``(b - a) N`` entries of the tile of elements ``a:b``."""
        return flat[a * self.N : b * self.N]

    def rows(self, flat: Any, a: int, b: int) -> list[Any]:
        """The tile's blocks as ``(b - a, size)`` views."""
        return self.packing.block_rows(self.tile(flat, a, b), b - a)

    def from_rows(self, y: Any) -> Any:
        """The block-major copy of a row-major state ``y`` (B, N)."""
        torch = _torch()
        flat = torch.empty(y.numel(), dtype=y.dtype, device=y.device)
        for a, b in self.spans:
            for view, sl in zip(self.rows(flat, a, b), self.packing.slices, strict=True):
                view.copy_(y[a:b, sl])
        return flat

    def to_rows(self, flat: Any, mask: Any = None) -> Any:
        """The row-major ``(B, N)`` copy of ``flat`` (only the elements of the boolean
        ``mask`` (B,), in order, if given)."""
        torch = _torch()
        parts = []
        for a, b in self.spans:
            blocks = self.rows(flat, a, b)
            if mask is not None:
                blocks = [v[mask[a:b]] for v in blocks]
            parts.append(torch.cat(blocks, 1))
        return torch.cat(parts, 0)

    def where(self, mask: Any, new: Any, old: Any) -> None:
        """``old <- where(mask, new, old)`` per element (``mask`` (B,)), in place."""
        torch = _torch()
        for a, b in self.spans:
            m = mask[a:b, None]
            for n_, o_ in zip(self.rows(new, a, b), self.rows(old, a, b), strict=True):
                torch.where(m, n_, o_, out=o_)


def _tile_spans(batch: int, per_row: int, cpu: bool, workers: int) -> list[tuple[int, int]]:
    """The tiles ``(a, b)`` of :func:`_dop853`: on the CPU, the fewest tiles of ``per_row``
    bytes per element within :data:`TILE_BYTES` per worker (the workers share the cache), a
    multiple of ``workers`` of them where the batch allows, of sizes differing by at most one
    (so that the workers finish a step together); on CUDA one tile."""
    if not cpu or batch <= 1:
        return [(0, batch)]
    per_tile = max(1, (TILE_BYTES // workers) // max(per_row, 1))
    count = -(-batch // per_tile)
    count = min(batch, -(-count // workers) * workers)
    edges = [batch * k // count for k in range(count + 1)]
    return list(itertools.pairwise(edges))


_Views = Callable[[Any], list[Any]]  # a state -> its blocks (n, *shape)


def _field_into(model: Any, packing: _Packing, autograd: bool = False
                ) -> Callable[[Any, Any, Sequence[Any], _Views], None]:  # fmt: skip
    """``(y, out, coefficients, views) -> None``: writes ``coefficients[k] * grad_k L(y)``
    into block ``k`` of ``out`` (e.g. a stage of the DOP853 buffer), block by block with no
    concatenated or rescaled copy.  ``views(t)`` gives the blocks ``(n, *shape)`` of a
    state ``t`` laid out as ``y`` (:meth:`_Packing.row_views` for ``(n, N)`` rows, or
    :meth:`_Packing.block_views` for a block-major tile); ``coefficients`` from
    :meth:`_Packing.coefficients` (``-eta``, or ``-eta h`` with the step folded in, one
    per block, each a float or a tensor broadcastable to the block).

    The gradient is, unless ``autograd`` is True, in order of preference:

    * the model's ``gradient_into(p, out, coefficients)`` hook: ``p``, ``out`` and
      ``coefficients`` are dicts keyed by block name; ``p[b]`` and ``out[b]`` are
      ``(n, *shape)`` tensors (contiguous on the DOP853's block-major state; strided views
      on a row-major one), ``coefficients[b]`` a float or a tensor of shape ``(n, 1, ...,
      1)``; the hook writes ``coefficients[b] * dL/d(block b)`` into ``out[b]`` (e.g.
      ``torch.mul(..., out=out[b])``), every entry of it, and changes nothing else (so it
      can fold the coefficient into a small factor and skip the full-size temporary of
      ``gradient`` and its rescaling); the DOP853 may call it from several threads at
      once (``workers``), on disjoint tiles;
    * its hand-written ``gradient(p) -> {block: (n, *shape)}``;
    * autograd of its loss."""
    bind = _field_binder(model, packing, autograd)

    def f(y: Any, out: Any, coefficients: Sequence[Any], views: Any) -> None:
        bind(y, out, views)(coefficients)

    return f


def _field_binder(model: Any, packing: _Packing, autograd: bool = False
                  ) -> Callable[[Any, Any, _Views], Callable[[Sequence[Any]], None]]:  # fmt: skip
    """:func:`_field_into` with the state and the output bound ahead: ``(y, out, views) ->
    (coefficients -> None)``.  The block views are taken once, so the DOP853 builds them
    once per tile rather than at each of its 12 evaluations per step (a view costs
    Python time under the GIL, which the ``workers`` share)."""
    torch = _torch()
    names = packing.names
    hook = None if autograd else getattr(model, "gradient_into", None)
    if hook is not None:

        def bind_hook(y: Any, out: Any, views: Any) -> Callable[[Sequence[Any]], None]:
            p = dict(zip(names, views(y), strict=True))
            o = dict(zip(names, views(out), strict=True))

            def call(coefficients: Sequence[Any]) -> None:
                hook(dict(p), dict(o), dict(zip(names, coefficients, strict=True)))

            return call

        return bind_hook

    if not autograd and hasattr(model, "gradient"):

        def bind_gradient(y: Any, out: Any, views: Any) -> Callable[[Sequence[Any]], None]:
            p, o = dict(zip(names, views(y), strict=True)), views(out)

            def call(coefficients: Sequence[Any]) -> None:
                grads = model.gradient(dict(p))
                for b, ob, c in zip(names, o, coefficients, strict=True):
                    torch.mul(grads[b], c, out=ob)

            return call

        return bind_gradient

    def bind_autograd(y: Any, out: Any, views: Any) -> Callable[[Sequence[Any]], None]:
        o = views(out)

        def call(coefficients: Sequence[Any]) -> None:
            with torch.enable_grad():
                # a copy: a view of y shares the version counter of its base, which another
                # worker's tiles bump while this backward pass checks it
                z = y.detach().clone().requires_grad_(True)
                loss = model.loss(dict(zip(names, views(z), strict=True))).sum()
                (grad,) = torch.autograd.grad(loss, z)
            for gv, ob, c in zip(views(grad), o, coefficients, strict=True):
                torch.mul(gv, c, out=ob)

        return call

    return bind_autograd


def _field(model: Any, packing: _Packing, autograd: bool = False) -> Callable[[Any], Any]:
    """``y -> -eta * grad L`` on the flat state (a new tensor), by :func:`_field_into`."""
    torch = _torch()
    into = _field_into(model, packing, autograd)
    neg = packing.coefficients()

    def f(y: Any) -> Any:
        out = torch.empty_like(y)
        into(y, out, neg, packing.row_views)
        return out

    return f


def _is_tensor(value: Any) -> bool:
    return type(value).__module__.split(".", 1)[0] == "torch"


def _check_dtype(dtype: Any, name: str = "dtype") -> Any:
    """``None`` or a real floating-point ``torch.dtype`` (else ``TypeError`` naming
    ``name``)."""
    torch = _torch()
    if dtype is None:
        return None
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise TypeError(f"{name} must be None or a floating-point torch.dtype (torch.float64, "
                        f"torch.float32, ...), got {type(dtype).__name__} "
                        f"{nb.describe(dtype)}")  # fmt: skip
    return dtype


def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} "
                        f"{nb.describe(value)}")  # fmt: skip
    return bool(value)


def _check_measures(measures: Any) -> dict[str, Callable[..., Any]]:
    """``None`` or a mapping of name (str) -> callable ``(params, rows) -> tensor``."""
    if measures is None:
        return {}
    want = "None or a mapping of name (str) -> callable(params, rows) returning a tensor (B, ...)"
    if not isinstance(measures, Mapping):
        raise TypeError(f"measures must be {want}, got {type(measures).__name__} "
                        f"{nb.describe(measures)}")  # fmt: skip
    for k, fn in measures.items():
        if not isinstance(k, str) or not callable(fn):
            raise TypeError(f"measures must be {want}; got the item {nb.describe(k)}: "
                            f"{nb.describe(fn)}")  # fmt: skip
    return dict(measures)


_INT64_MAX = nb.INT64_MAX
"""torch's sizes and seeds are 64-bit: a batch (or block) of more elements, or a seed
beyond ``2**64 - 1``, is refused before torch is asked."""


def _check_seed(seed: Any) -> int:
    seed = nb.check_int("seed", seed, low=0)
    if seed > 2**64 - 1:
        raise ValueError(f"seed must be an int in [0, 2**64 - 1] (torch's generator), got {seed}")
    return seed


def _check_threads(name: str, value: Any) -> int:
    value = nb.check_int(name, value)
    if value > 2**31 - 1:
        raise ValueError(f"{name} must be an int in [1, 2**31 - 1], got {value}")
    return value


def _check_times(times: Any) -> np.ndarray:
    """``times``: a non-empty sorted 1-d sequence of finite real numbers ``>= 0`` (a numpy
    array, list or tuple; the package's number policy, :func:`solvable._core.numbers.
    check_times`: no bool, complex, string that is not a decimal, or tensor), as float64."""
    if isinstance(times, (str, bytes)) or not isinstance(times, (Sequence, np.ndarray)):
        raise TypeError(
            f"times must be a non-empty 1-d sequence of finite real numbers >= 0, got "
            f"{type(times).__name__} {nb.describe(times)}"
            + (" (pass t.tolist() for a tensor)" if _is_tensor(times) else "")
        )
    if (times.size if isinstance(times, np.ndarray) else len(times)) == 0:
        raise ValueError("times must be a non-empty 1-d sequence, got an empty one")
    checked = nb.check_times(times if isinstance(times, np.ndarray) else list(times), "times")
    ts = np.array([nb.to_float(t, "times") for t in checked], dtype=float)
    if np.any(np.diff(ts) < 0):
        raise ValueError("times must be sorted (non-decreasing)")
    return ts


def _is_oom(exc: BaseException) -> bool:
    torch = _torch()
    oom = getattr(torch, "OutOfMemoryError", torch.cuda.OutOfMemoryError)
    if isinstance(exc, (oom, torch.cuda.OutOfMemoryError, MemoryError)):
        return True
    text = str(exc).lower()
    return isinstance(exc, RuntimeError) and (
        "out of memory" in text or "can't allocate memory" in text
    )


def _split_on_oom(run: Callable[[dict[str, Any], int], FlowResult], params: dict[str, Any],
                  max_batch: int | None) -> FlowResult:  # fmt: skip
    """Run in chunks of ``max_batch``; a chunk that does not fit is halved, not fatal."""
    torch = _torch()
    batch = next(iter(params.values())).shape[0]
    size = batch if max_batch is None else max(1, min(int(max_batch), batch))
    parts: list[FlowResult] = []
    start = 0
    while start < batch:
        chunk = {k: v[start : start + size] for k, v in params.items()}
        try:
            parts.append(run(chunk, start))
        except Exception as exc:
            if not _is_oom(exc) or size == 1:
                raise
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
            size = max(1, size // 2)
            continue
        start += size
    if len(parts) == 1:
        return parts[0]
    return FlowResult(
        times=parts[0].times
        if parts[0].times.ndim == 1
        else torch.cat([p.times for p in parts], 1),
        params={k: torch.cat([p.params[k] for p in parts], 1) for k in parts[0].params},
        measures={k: torch.cat([p.measures[k] for p in parts], 1) for k in parts[0].measures},
        steps=torch.cat([torch.as_tensor(p.steps).reshape(-1) for p in parts]),
        rejected=torch.cat([torch.as_tensor(p.rejected).reshape(-1) for p in parts]),
        nfev=sum(p.nfev for p in parts),
        fixed_point_t=None
        if parts[0].fixed_point_t is None
        else torch.cat([p.fixed_point_t for p in parts]),
    )


def _lr_is_sequence(lr: Any) -> bool:
    """Whether ``lr`` is meant as one learning rate per batch element (a 1-d container)."""
    if _is_tensor(lr) or isinstance(lr, np.ndarray):
        return getattr(lr, "ndim", 0) >= 1
    return isinstance(lr, (list, tuple))


def _check_lr_vector(lr: Any) -> np.ndarray:
    """One learning rate per batch element: a 1-d array of finite float64 numbers > 0."""
    values = lr.detach().cpu().numpy() if _is_tensor(lr) else lr
    shape = np.shape(values)
    if len(shape) != 1 or shape[0] == 0:
        raise ValueError(f"lr must be one number or a non-empty 1-d sequence (one per batch "
                         f"element), got shape {shape}")  # fmt: skip
    out = np.array([nb.to_float(nb.check_number(f"lr[{i}]", v, positive=True), f"lr[{i}]")
                    for i, v in enumerate(np.asarray(values).tolist())])  # fmt: skip
    return out


def _prepare(model: Any, params: Mapping[str, Any], device: Any, dtype: Any):
    torch = _torch()
    if not hasattr(model, "loss") or not hasattr(model, "blocks"):
        raise TypeError(f"model must be one of numerics.models, got {type(model).__name__}")
    if not isinstance(params, Mapping):
        raise TypeError(
            f"params must be a mapping of block name (str) -> torch tensor (B, *shape) for "
            f"the blocks {model.blocks}, got {type(params).__name__} {nb.describe(params)}"
        )
    dev = resolve_device(device) if device is not None else None
    dtype = _check_dtype(dtype)
    out = {}
    for k, v in params.items():
        if not isinstance(k, str):
            raise TypeError(f"params must be keyed by block name (str), got {nb.describe(k)}")
        if not isinstance(v, (torch.Tensor, np.ndarray)):
            raise TypeError(f"params[{k!r}] must be a torch tensor (B, *shape), got "
                            f"{type(v).__name__} {nb.describe(v)}")  # fmt: skip
        t = torch.as_tensor(v)
        if t.dtype == torch.bool or t.is_complex():
            raise TypeError(f"params[{k!r}] must be a real tensor, got dtype {t.dtype}")
        if not torch.is_floating_point(t):
            t = t.to(torch.float64)
        out[k] = t.to(device=dev or t.device, dtype=dtype or t.dtype)
        if not bool(torch.isfinite(out[k]).all()):
            raise ValueError(f"params[{k!r}] must be finite")
    _Packing(model, out)  # blocks, shapes and one batch size, checked before any split
    return out


class _Recorder:
    def __init__(self, measures: Mapping[str, Callable[..., Any]] | None, keep_params: bool,
                 n_times: int, packing: _Packing, offset: int):  # fmt: skip
        self.offset = offset
        self.measures = dict(measures or {})
        self.keep = keep_params
        self.T = n_times
        self.packing = packing
        self.params: Any = None
        self.values: dict[str, Any] = {}

    def record(self, y: Any, rows: Any, j: Any) -> None:
        """Store the states ``y`` (k, N) of batch rows ``rows`` at time indices ``j``."""
        torch = _torch()
        B = self.packing.batch
        if self.keep:
            if self.params is None:
                self.params = torch.full((self.T, B, y.shape[1]), math.nan, dtype=y.dtype,
                                         device=y.device)  # fmt: skip
            self.params[j, rows] = y
        if self.measures:
            p = self.packing.unpack(y)
            for name, fn in self.measures.items():
                v = fn(p, rows + self.offset).detach()
                if name not in self.values:
                    self.values[name] = torch.full((self.T, B, *v.shape[1:]), math.nan,
                                                   dtype=v.dtype, device=v.device)  # fmt: skip
                self.values[name][j, rows] = v

    def params_dict(self) -> dict[str, Any]:
        if self.params is None:
            return {}
        T, B = self.params.shape[:2]
        flat = self.params.reshape(T * B, -1)
        return {k: v.reshape(T, B, *v.shape[1:]) for k, v in self.packing.unpack(flat).items()}


# ---------------------------------------------------------------------------
# gradient flow
# ---------------------------------------------------------------------------
def _check_run_options(
    keep_params: Any, progress: Any, measures: Any, max_batch: Any
) -> tuple[bool, bool, dict[str, Callable[..., Any]], int | None]:
    """The options :func:`gradient_flow` and :func:`gradient_descent` share, checked:
    ``keep_params`` and ``progress`` bools, ``measures`` (see :func:`_check_measures`) and
    ``max_batch`` an int >= 1 or ``None``."""
    return (
        _check_flag("keep_params", keep_params),
        _check_flag("progress", progress),
        _check_measures(measures),
        None if max_batch is None else nb.check_int("max_batch", max_batch),
    )


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


def _hessian(model: Any, packing: _Packing, y: Any) -> Any:
    """``d^2 L / d theta^2`` per batch element, (B, N, N), by autograd of the model's loss
    (one backward pass per parameter; the elements are independent)."""
    torch = _torch()
    B, N = y.shape
    with torch.enable_grad():
        z = y.detach().requires_grad_(True)
        loss = model.loss(packing.unpack(z)).sum()
        (g,) = torch.autograd.grad(loss, z, create_graph=True)
        if not g.requires_grad:  # a loss linear in the parameters
            return torch.zeros((B, N, N), dtype=y.dtype, device=y.device)
        rows = []
        for i in range(N):
            (r,) = torch.autograd.grad(g[:, i].sum(), z, retain_graph=i < N - 1,
                                       allow_unused=True)  # fmt: skip
            rows.append(torch.zeros_like(y) if r is None else r)
    return torch.stack(rows, 1).detach()


def _fixed_point(model, packing, f, y, fy, due, t, T_end, rtol, atol_b):
    """The elements ``due`` whose rest is their linearised flow (see
    :class:`numerics.scipy_ode.LinearTail`), and that :class:`LinearTail` (or None)."""
    torch = _torch()
    root = packing.rates.clamp(min=0).sqrt()
    inv = torch.where(root > 0, 1 / torch.where(root > 0, root, 1.0), 0.0)
    H = _hessian(model, packing, y)
    S = root[None, :, None] * H * root[None, None, :]
    zdot = fy * inv
    scale = atol_b + rtol * y.abs()
    eps = float(torch.finfo(y.dtype).eps)
    cpu = {"dtype": torch.float64, "device": "cpu"}
    tail = LinearTail(S.to(**cpu).numpy(), zdot.to(**cpu).numpy(),
                      scale.to(**cpu).numpy(), root.to(**cpu).numpy()[None],
                      (T_end - t).to(**cpu).numpy(), eps, rtol)  # fmt: skip
    limit = np.where(due.cpu().numpy()[:, None], tail.end(), 0.0)
    limit = np.where(np.isfinite(limit), limit, 0.0)  # an unstable mode: refused below anyway
    f_lim = f(y + torch.as_tensor(limit, dtype=y.dtype, device=y.device))
    ok = tail.converged((f_lim * inv).to(**cpu).numpy())
    return due & torch.as_tensor(ok, device=y.device), tail


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


# ---------------------------------------------------------------------------
# gradient descent
# ---------------------------------------------------------------------------
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
) -> FlowResult:
    """``theta_b <- theta_b - lr_b eta_b grad_b L``, recording after each of
    ``record_steps`` (sorted integers >= 0).

    ``lr``: one finite real number ``> 0`` for the whole batch (numpy scalars too; a bool or
    a 0-d tensor is a ``TypeError``), or one per batch element: a 1-d sequence, numpy array
    or tensor of length ``B`` of finite numbers ``> 0`` (e.g. runs whose step is set by
    their own initial kernel, trained together).  ``times = step * lr``: shape ``(T,)`` for
    one ``lr``, ``(T, B)`` for one per element."""
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
    p = _prepare(model, params, device, dtype)
    if per_element:
        batch = next(iter(p.values())).shape[0]
        if len(lr) != batch:
            raise ValueError(
                f"lr must be one number or one per batch element ({batch}), got {len(lr)} values"
            )

    def run(chunk: dict[str, Any], offset: int) -> FlowResult:
        packing = _Packing(model, chunk)
        y = packing.pack(chunk).detach()
        f = _field(model, packing)
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
                    start = y
                    for _ in range(n):
                        y = y + step * f(y)
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

    with torch.inference_mode(False):  # autograd fields, as in gradient_flow
        return _split_on_oom(run, p, max_batch)
