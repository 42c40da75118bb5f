"""How the experiments of :mod:`numerics.node_scaling_experiment` run: torch's threads
scoped to a call (``_Threads``, ``_scoped_threads``) and one progress line per case on
stderr (``_say``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from numerics.torch_flow.checks import _check_threads


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, file=sys.stderr, flush=True)


class _Threads:
    """Scoped ``torch.set_num_threads`` (``None``: leave it); restored on exit."""

    def __init__(self, n: int | None):
        self.n = None if n is None else _check_threads("threads", n)

    def __enter__(self) -> None:
        import torch

        self.old = torch.get_num_threads()
        if self.n is not None:
            torch.set_num_threads(self.n)

    def __exit__(self, *exc: Any) -> None:
        import torch

        torch.set_num_threads(self.old)


def _scoped_threads(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``fn`` with its keyword ``threads`` applied by :class:`_Threads`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with _Threads(kwargs.get("threads")):
            return fn(*args, **kwargs)

    return wrapper
