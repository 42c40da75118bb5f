"""Sampling a trajectory at many times (shared by the closed forms)."""

from __future__ import annotations

from typing import Any


def _each(at: Any, times: Any) -> list[Any]:
    """``at(t)`` for every time, an error naming ``times[k]``."""
    out = []
    for k, t in enumerate(times):
        try:
            out.append(at(t))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"times[{k}]: {exc}") from exc
    return out
