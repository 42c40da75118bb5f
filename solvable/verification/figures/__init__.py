"""``solvable figures``: the seed papers' figures, regenerated, theory over simulation.

Each seed has one module (``seed_000.py``, ``seed_001.py``, ...) with a tuple ``FIGURES`` of
:class:`Figure` records; :func:`figures` is the registry built from them (ids unique,
validated).  Every figure overlays the theory (the exact solution or the predicted boundary,
from the model modules) on a simulation (:mod:`numerics`: the raw gradient flow or gradient
descent of the weights), and its caption states the setup and what is reduced from the
paper's.  Default sizes are reduced (seconds each on a 2-core CPU); ``full=True`` runs the
paper's sizes (on CUDA where torch finds one).

Verification layer: imports the models and :mod:`numerics`; matplotlib (optional,
``pip install solvable[notebooks]``) and tqdm are imported inside functions.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from numerics.scale_out import ScaleOut
from solvable.verification.figures import seed_000, seed_001, seed_002, seed_003, seed_004
from solvable.verification.figures._common import Figure, figure

__all__ = ["Figure", "figure", "figures", "render", "select"]

# seed order
SEED_MODULES = (seed_000, seed_001, seed_002, seed_003, seed_004)
"""The seed modules whose ``FIGURES`` make the registry, in seed order."""


def figures() -> list[Figure]:
    """Every registered figure, in seed order (``ValueError`` on a duplicate id)."""
    out: list[Figure] = []
    seen: set[str] = set()
    for module in SEED_MODULES:
        for fig in module.FIGURES:
            if not isinstance(fig, Figure):
                raise TypeError(f"{module.__name__}.FIGURES holds {type(fig).__name__}, "
                                f"not a Figure")  # fmt: skip
            if fig.id in seen:
                raise ValueError(f"figure id {fig.id!r} is registered twice")
            seen.add(fig.id)
            out.append(fig)
    return out


def select(ids: Iterable[str] | None = None) -> list[Figure]:
    """The figures named by ``ids`` (registry order; ``None``: all).  An unknown id is a
    ``ValueError`` that lists the valid ones."""
    every = figures()
    if ids is None:
        return every
    if isinstance(ids, str):
        raise TypeError(f"ids must be a sequence of figure ids, not the str {ids!r}")
    wanted = list(ids)
    known = {f.id for f in every}
    unknown = [i for i in wanted if i not in known]
    if unknown:
        raise ValueError(f"unknown figure id(s) {', '.join(map(repr, unknown))}; "
                         f"valid ids: {', '.join(sorted(known))}")  # fmt: skip
    return [f for f in every if f.id in set(wanted)]


def _bar(total: int, enabled: bool) -> Any:
    """A tqdm bar over figures, or ``None`` (disabled, or tqdm missing: plain lines)."""
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="figure", file=sys.stderr)


def render(
    ids: Sequence[str] | None,
    out: str | Path,
    *,
    full: bool = False,
    progress: bool = True,
    scale_out: ScaleOut | None = None,
) -> list[Path]:
    """Render the figures ``ids`` (``None``: all) into ``out`` as ``<id>.png`` and
    ``<id>.svg``; returns the written paths.  ``full``: the paper's sizes (minutes to hours;
    CUDA where available); ``progress``: a tqdm bar over the figures (plain lines on stderr
    without tqdm); ``scale_out`` (``solvable figures --full --executor/--device``): how the
    figures that run sweeps run their points (:class:`numerics.scale_out.ScaleOut`:
    executor, device, point cache, progress bar)."""
    if scale_out is not None and not isinstance(scale_out, ScaleOut):
        raise TypeError(f"scale_out must be None or a numerics.scale_out.ScaleOut, got "
                        f"{type(scale_out).__name__}")  # fmt: skip
    if not isinstance(full, bool):
        raise TypeError(f"full must be True or False, got {full!r}")
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, got {progress!r}")
    chosen = select(ids)
    out = Path(out)
    bar = _bar(len(chosen), progress)
    paths: list[Path] = []
    try:
        for k, fig in enumerate(chosen, 1):
            if bar is not None:
                bar.set_description(fig.id)
            elif progress:
                print(f"[{k}/{len(chosen)}] {fig.id} ...", file=sys.stderr, flush=True)
            more = {} if scale_out is None else {"scale_out": scale_out}
            paths += fig.render(out, full=full, progress=progress, **more)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return paths
