"""Where and in what precision a torch run happens, and its initial draw.

:func:`threads` (torch's intra-op CPU threads for a block), :func:`resolve_device` (CPU or
CUDA), :func:`min_rtol` (the smallest ``rtol`` a dtype can meet: ``RTOL_FLOOR_EPS`` eps, as
scipy's ``100 * EPS`` floor) and :func:`initialise` (i.i.d. Gaussian parameters drawn on the
CPU from one seed, the same numbers on every device).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping
from typing import Any

from numerics.torch_flow.checks import (
    _INT64_MAX,
    _check_dtype,
    _check_seed,
    _check_shapes,
    _check_threads,
    _torch,
)
from solvable._core import numbers as nb

RTOL_FLOOR_EPS = 100
"""The smallest ``rtol`` is this many ``eps`` of the dtype (scipy's floor for its solvers)."""


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
