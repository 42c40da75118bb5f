"""The figure record and the drawing helpers shared by the seed modules.

A :class:`Figure` is data: its id (``<seed prefix>-<label>``), the seed file, the paper's
label, a title, a caption that states the setup and the reduction from the paper, and
``render(out_dir, *, full, progress) -> [png, svg]``.  :func:`figure` builds the record from
a ``draw(fig, full, progress)`` function that fills a matplotlib figure; the helper adds the
title and the caption and writes ``<id>.png`` and ``<id>.svg``.

matplotlib is optional (``pip install solvable[notebooks]``): it is imported inside the
functions that draw, and only its object API is used (``matplotlib.figure.Figure`` on an Agg
canvas), so rendering never touches pyplot's global state or the caller's backend.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solvable._core.papers import cite

__all__ = ["ID_PATTERN", "SEED_PATTERN", "Figure", "figure", "new_figure"]

ID_PATTERN = re.compile(r"^(\d{3})-[a-z0-9][a-z0-9-]*$")
"""``<seed prefix>-<label>``: three digits, a dash, lower-case letters, digits and dashes."""
SEED_PATTERN = re.compile(r"^(\d{3})_[0-9a-f]{16}\.txt$")
"""A seed file name, e.g. ``003_cfd8c5fad4b6665d.txt``."""

_CAPTION_POINTS = 8.0  # caption font size
_CHARS_PER_INCH = 15.0  # characters of an 8-point caption line per inch of figure width
# height of one caption line: matplotlib's default line spacing, 1.2 times the font size
# (0.16 inches left 0.027 inch of blank per line: 4.6 lines of it under a 9-line caption)
_LINE_INCHES = 1.2 * _CAPTION_POINTS / 72


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__} {value!r:.60}")
    if not value.strip():
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value


@dataclass(frozen=True)
class Figure:
    """One reproduced figure of a seed paper.

    ``id``: ``<seed prefix>-<label>`` (:data:`ID_PATTERN`, e.g. ``"001-fig1a"``), its prefix
    that of ``seed_file`` (:data:`SEED_PATTERN`); ``label``: the paper's figure label;
    ``title``; ``caption``: the setup and any reduction from the paper's;
    ``render(out_dir, *, full, progress) -> list[Path]`` writes ``<id>.png`` and ``<id>.svg``
    into ``out_dir`` (``full``: the paper's sizes; default: reduced, fast)."""

    id: str
    seed_file: str
    label: str
    title: str
    caption: str
    render: Callable[..., list[Path]]

    def __post_init__(self) -> None:
        for name in ("id", "seed_file", "label", "title", "caption"):
            _text(name, getattr(self, name))
        fid = ID_PATTERN.match(self.id)
        if fid is None:
            raise ValueError(
                f"id must look like '<3-digit seed prefix>-<label>' with lower-case letters, "
                f"digits and dashes (e.g. '001-fig1a'), got {self.id!r}"
            )
        seed = SEED_PATTERN.match(self.seed_file)
        if seed is None:
            raise ValueError(
                f"seed_file must be a seed file name like '003_cfd8c5fad4b6665d.txt', "
                f"got {self.seed_file!r}"
            )
        if fid.group(1) != seed.group(1):
            raise ValueError(
                f"id {self.id!r} must start with the seed prefix {seed.group(1)!r} of "
                f"seed_file {self.seed_file!r}"
            )
        if not callable(self.render):
            raise TypeError(f"render must be callable, got {type(self.render).__name__}")

    def line(self) -> str:
        """The ``solvable figures --list`` line: id, paper (short citation), label, title."""
        return f"{self.id:<24} {cite(self.seed_file):<21} {self.label:<20} {self.title}"


def _matplotlib() -> Any:
    """``matplotlib`` with a clear message when it is missing (an optional dependency)."""
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "solvable figures need matplotlib: pip install 'solvable[figures]' (or 'solvable[all]')"
        ) from exc
    return matplotlib


def new_figure(width: float, height: float) -> Any:
    """A matplotlib ``Figure`` of ``width`` x ``height`` inches on an Agg canvas (no pyplot)."""
    _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def _check_render_args(out_dir: Any, full: Any, progress: Any) -> Path:
    if not isinstance(out_dir, (str, Path)):
        raise TypeError(f"out_dir must be a str or a Path, got {type(out_dir).__name__}")
    for name, value in (("full", full), ("progress", progress)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, got {value!r}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out_dir must be a directory, got the file {str(out)!r}")
    return out


def _save(fig: Any, fid: str, title: str, caption: str, out: Path) -> list[Path]:
    """Title, caption under the axes, then ``<id>.png`` and ``<id>.svg`` (reproducible SVG:
    no date, a fixed hash salt)."""
    import matplotlib

    width, height = fig.get_size_inches()
    lines = textwrap.wrap(caption, width=max(40, int(width * _CHARS_PER_INCH)))
    extra = (len(lines) + 1) * _LINE_INCHES
    fig.set_size_inches(width, height + extra)
    bottom = extra / (height + extra)
    fig.suptitle(f"{fid}: {title}", fontsize=11)
    fig.tight_layout(rect=(0.0, bottom, 1.0, 0.97))
    fig.text(0.01, 0.4 * _LINE_INCHES / (height + extra), "\n".join(lines),
             fontsize=_CAPTION_POINTS, va="bottom", ha="left", wrap=False)  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    png, svg = out / f"{fid}.png", out / f"{fid}.svg"
    fig.savefig(png, dpi=110)
    with matplotlib.rc_context({"svg.hashsalt": fid}):
        fig.savefig(svg, metadata={"Date": None})
    return [png, svg]


def figure(
    id: str,
    seed_file: str,
    label: str,
    title: str,
    caption: str,
    draw: Callable[[Any, bool, bool], tuple[float, float] | None],
    *,
    size: tuple[float, float] = (12.0, 3.6),
) -> Figure:
    """A :class:`Figure` whose ``render`` makes a ``size`` (inches) matplotlib figure, calls
    ``draw(fig, full, progress)`` to fill it (``draw`` may return another size; a ``draw``
    with a ``scale_out`` parameter also gets ``render``'s ``scale_out`` when one is given),
    and saves it with the title and the caption as ``<id>.png`` and ``<id>.svg``."""

    takes_scale_out = "scale_out" in inspect.signature(draw).parameters

    def render(out_dir: Path, *, full: bool = False, progress: bool = False,
               scale_out: Any = None) -> list[Path]:  # fmt: skip
        out = _check_render_args(out_dir, full, progress)
        fig = new_figure(*size)
        # the sweeps' executor / device / cache (numerics.scale_out.ScaleOut), for the
        # figures that run sweeps (their draw takes scale_out); the others ignore it
        extra = {"scale_out": scale_out} if takes_scale_out and scale_out is not None else {}
        new_size = draw(fig, full, progress, **extra)
        if new_size is not None:
            fig.set_size_inches(*new_size)
        return _save(fig, id, title, caption, out)

    return Figure(id, seed_file, label, title, caption, render)
