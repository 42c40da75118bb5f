"""The input checks of :mod:`numerics.torch_flow` and its lazy torch import.

``_torch`` imports torch on first use (a clear ``ImportError`` without it); the ``_check_*``
functions check the arguments of :func:`~numerics.torch_flow.gradient_flow`,
:func:`~numerics.torch_flow.gradient_descent` and :func:`~numerics.torch_flow.initialise`
by the package's number policy (:mod:`solvable._core.numbers`): times, learning rates,
dtypes, flags, measures, seeds and thread counts, and the 64-bit limits of torch's sizes
and seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from solvable._core import numbers as nb


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            "numerics.torch_flow needs torch: pip install 'solvable[torch]' "
            "(CPU build: pip install torch==2.13.0)"
        ) from exc
    return torch


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
