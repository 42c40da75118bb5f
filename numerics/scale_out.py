r"""Scale-out settings of the paper-scale sweeps (``solvable verify --full`` and ``solvable
figures --full``), and seed 004's phase points measured under them.

:class:`ScaleOut` is one frozen, picklable record of how a simulation-backed check runs its
points: ``executor`` (``None``: in this process; ``"local"``: a dask ``LocalCluster``; a
scheduler address ``"tcp://host:8786"``: a dask.distributed cluster the user already has),
``device`` (``None``: the check's own default; ``"cpu"``, ``"cuda"``, ``"cuda:k"``),
``cache_dir`` (the resumable on-disk point cache of :func:`numerics.sweeps.run_sweep`;
``None``: no cache), ``progress`` (a tqdm bar on stderr: points done, rate, time left), and
``max_width`` / ``max_seeds`` (``None``: the check's own sizes; else only its widths up to
``max_width`` and its first ``max_seeds`` seeds: "the largest size that fits" a machine,
which is then not the paper's scale, and ``solvable verify`` says so).
The command line builds it and passes it down as the ``scale_out`` verify option (no
global state); a check that runs sweeps takes a ``scale_out`` parameter.

:func:`measure_points` is :func:`numerics.phase_diagram.measure_points` (the same grid of
``rd_point`` runs, the same :class:`~numerics.phase_diagram.PhasePoint` results) under a
:class:`ScaleOut`:

* in process (``executor=None``), the runs not in the cache train batched per width, as
  :func:`numerics.sweep_three_layer.rd_points` does (on a GPU every width and seed of a
  chunk is one torch program), in chunks of at most ``chunk`` runs; each chunk's results
  are cached as soon as it finishes, under the keys :func:`numerics.sweeps.run_sweep` uses
  for the same runs (batched and single runs give the same numbers: bit for bit on the
  CPU, tested in ``tests/test_sweep_three_layer.py``), so an interrupted run resumes at
  its last finished chunk, and a cache filled on a cluster serves a local rerun;
* with an executor, every run is one point of :func:`numerics.sweeps.run_sweep` (dask
  workers, the same cache, its progress bar);
* ``extra`` (measurements that need a run's trained weights, e.g. the condensation of
  Figure 8): the weights never leave a worker nor reach the cache, so the runs that
  ``extra_runs`` selects are trained again in this process, batched, with ``extra``; the
  other runs get ``None`` for each extra name (``extra_runs`` must select every run for
  which ``extra`` returns something else).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from numerics import phase_diagram as pdg
from numerics import sweeps
from numerics.sweep_three_layer import rd_points, rd_sweep_point

__all__ = [
    "DEVICES",
    "DEVICE_PATTERN",
    "ScaleOut",
    "check_device",
    "check_executor",
    "measure_points",
]

DEVICES = ("cpu", "cuda")
"""The ``--device`` values (``"cuda:k"`` picks the k-th GPU)."""
DEVICE_PATTERN = re.compile(r"cpu|cuda|cuda:(0|[1-9][0-9]{0,3})")
"""The valid device names (whether this machine can run one is checked apart)."""
CHUNK = 256
"""Runs per in-process chunk (the unit that is cached and resumed, and the progress bar's
step): at the paper's widths one chunk of 10000-wide nets is minutes on a GPU."""


def check_device(device: Any) -> str | None:
    """``device`` validated: ``None``, ``"cpu"``, ``"cuda"`` or ``"cuda:k"``.  A CUDA device
    on a machine where torch sees none is a ``ValueError`` saying so (not a crash later in
    a worker), as is a missing torch."""
    if device is None:
        return None
    if not isinstance(device, str):
        raise TypeError(f"device must be None, 'cpu', 'cuda' or 'cuda:k', got "
                        f"{type(device).__name__} {device!r:.60}")  # fmt: skip
    if not DEVICE_PATTERN.fullmatch(device):
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:k', got {device!r:.60}")
    if device == "cpu":
        return device
    try:
        import torch
    except ImportError:
        raise ValueError(f"{device!r} needs torch: pip install 'solvable[torch]'") from None
    if not torch.cuda.is_available():
        raise ValueError(f"{device!r}: torch {torch.__version__} sees no CUDA device on this "
                         f"machine; use 'cpu' (or leave the device unset)")  # fmt: skip
    if device != "cuda" and int(device[5:]) >= torch.cuda.device_count():
        raise ValueError(f"{device!r}: only {torch.cuda.device_count()} CUDA device(s) here")
    return device


def check_executor(executor: Any) -> str | None:
    """``executor`` validated: ``None`` (in process), ``"local"`` or a scheduler address
    ``"tcp://host:port"`` (any ``scheme://host:port``, or ``host:port``); nothing is
    started or connected here."""
    if executor is None:
        return None
    if not isinstance(executor, str):
        raise TypeError(f"executor must be None, 'local' or a dask scheduler address such as "
                        f"'tcp://host:8786', got {type(executor).__name__}")  # fmt: skip
    address = executor.split("://", 1)[-1]
    host, _, port = address.rpartition(":")
    if executor != "local" and not (host and port.isdigit() and 0 < int(port) < 65536):
        raise ValueError(f"executor must be 'local' or a dask scheduler address such as "
                         f"'tcp://host:8786', got {executor!r:.80}")  # fmt: skip
    sweeps._executor_kind(executor)
    return executor


@dataclass(frozen=True)
class ScaleOut:
    """How a simulation-backed check runs its points (module docstring): ``executor``,
    ``device``, ``cache_dir`` (a folder; ``None``: no cache) and ``progress`` (a bar on
    stderr).  Frozen and hashable (checks cache their measurements per setting) and
    picklable (``solvable verify --jobs`` sends it to its workers)."""

    executor: str | None = None
    device: str | None = None
    cache_dir: str | None = None
    progress: bool = False
    max_width: int | None = None
    max_seeds: int | None = None

    def __post_init__(self) -> None:
        check_executor(self.executor)
        check_device(self.device)
        if self.cache_dir is not None:
            if not isinstance(self.cache_dir, str) or not self.cache_dir or "\0" in self.cache_dir:
                raise TypeError(f"cache_dir must be None or a non-empty path str, got "
                                f"{self.cache_dir!r:.80}")  # fmt: skip
            if Path(self.cache_dir).exists() and not Path(self.cache_dir).is_dir():
                raise ValueError(f"cache_dir must be a directory, got the file {self.cache_dir!r}")
        if not isinstance(self.progress, bool):
            raise TypeError(f"progress must be a bool, got {self.progress!r}")
        # three seeds at least: a slope's standard error is taken over the seeds, and with
        # two the Student-t 95% interval of Table 2's check is 12.7 standard errors
        for name, low in (("max_width", 1), ("max_seeds", 3)):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"{name} must be None or an int >= {low}, got {v!r:.80}")
            if v is not None and v < low:
                raise ValueError(f"{name} must be None or an int >= {low}, got {v}")

    @property
    def capped(self) -> bool:
        """Whether ``max_width`` or ``max_seeds`` trims the checks' sizes."""
        return self.max_width is not None or self.max_seeds is not None

    def limit(self, widths: Sequence[int], seeds: Sequence[int], *, min_widths: int = 2
              ) -> tuple[tuple[int, ...], tuple[int, ...]]:  # fmt: skip
        """``widths`` up to ``max_width`` and the first ``max_seeds`` of ``seeds`` (all of
        them where ``None``).  A ``ValueError`` naming ``max_width`` when fewer than
        ``min_widths`` widths remain (a slope of eq. (11) needs two)."""
        ws, ss = pdg._ints("widths", widths, 2, 1), pdg._ints("seeds", seeds, 0, 1)
        if self.max_width is not None:
            kept = tuple(m for m in ws if m <= self.max_width)
            if len(kept) < min_widths:
                need = sorted(ws)[min_widths - 1] if len(ws) >= min_widths else None
                raise ValueError(f"max_width = {self.max_width} keeps {len(kept)} of the "
                                 f"widths {ws}; this check needs {min_widths}"
                                 + (f": max_width >= {need}" if need else ""))  # fmt: skip
            ws = kept
        if self.max_seeds is not None:
            ss = ss[: self.max_seeds]
        return ws, ss

    def describe(self) -> str:
        """One line for a report: the cap, or ``""`` when there is none."""
        if not self.capped:
            return ""
        parts = [f"widths <= {self.max_width}"] * (self.max_width is not None)
        parts += [f"the first {self.max_seeds} seeds"] * (self.max_seeds is not None)
        return ("capped (--max-width/--max-seeds): " + " and ".join(parts)
                + "; not the paper's scale")  # fmt: skip

    def sweep_kwargs(self) -> dict[str, Any]:
        """The :func:`numerics.sweeps.run_sweep` arguments: executor, cache_dir, progress."""
        return {"executor": self.executor, "cache_dir": self.cache_dir,
                "progress": self.progress}  # fmt: skip


def _bar(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError as exc:
        raise ImportError("a progress bar needs tqdm: pip install tqdm") from exc
    return tqdm(total=total, initial=initial, unit="run", file=sys.stderr,
                desc="three-layer runs")  # fmt: skip


def _batched(grid: Sequence[dict], cache: Path | None, progress: bool, chunk: int,
             extra: Mapping[str, Any] | None, fresh: set[int]) -> list[dict]:  # fmt: skip
    """The results of ``grid`` in this process: cached ones read, the others (and every
    index in ``fresh``, with ``extra``) trained batched per width in chunks, each chunk
    cached when it finishes."""
    keys = [sweeps.point_key(rd_sweep_point, p, pdg.RD_VERSION) for p in grid]
    out: list[dict | None] = [None] * len(grid)
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        for i, p in enumerate(grid):
            if i not in fresh:
                hit, value = sweeps._load(cache, keys[i], p)
                if hit:
                    out[i] = value
    todo = [i for i, r in enumerate(out) if r is None]
    todo.sort(key=lambda i: grid[i]["m"])  # one width per batch where possible
    bar = _bar(len(grid), len(grid) - len(todo), progress)
    name = f"{rd_sweep_point.__module__}.{rd_sweep_point.__qualname__}"
    try:
        for start in range(0, len(todo), chunk):
            part = todo[start : start + chunk]
            use = extra if any(i in fresh for i in part) else None
            results = json.loads(json.dumps(rd_points([grid[i] for i in part], extra=use)))
            for i, r in zip(part, results, strict=True):
                plain = {k: v for k, v in r.items() if not use or k not in use}
                if cache is not None:
                    sweeps._store(cache, keys[i], name, pdg.RD_VERSION, grid[i], plain)
                out[i] = r
            if bar is not None:
                bar.update(len(part))
    finally:
        if bar is not None:
            bar.close()
    return out  # type: ignore[return-value]


def measure_points(
    points: Sequence[tuple[Any, Any] | tuple[Any, Any, Any]],
    widths: Sequence[int] = pdg.FAST_WIDTHS,
    seeds: Sequence[int] = pdg.FAST_SEEDS,
    *,
    scale_out: ScaleOut,
    normalised_lr: bool = False,
    extra: Mapping[str, Callable[[dict[str, Any]], Any]] | None = None,
    extra_runs: Callable[[Mapping[str, Any]], bool] | None = None,
    chunk: int = CHUNK,
    **settings: Any,
) -> list[pdg.PhasePoint]:
    """:func:`numerics.phase_diagram.measure_points` (Zhou et al., Section 5, the slopes of
    eq. (11) from the relative distances of eq. (10)) run under ``scale_out`` (module
    docstring): ``scale_out.device`` (when not ``None``) replaces ``settings["device"]``;
    ``extra`` as there, computed in this process for the runs ``extra_runs(run_point)``
    selects (``None``: every run); ``chunk`` runs per cached in-process batch; the widths
    and seeds trimmed by :meth:`ScaleOut.limit`."""
    if not isinstance(scale_out, ScaleOut):
        raise TypeError(f"scale_out must be a numerics.scale_out.ScaleOut, got "
                        f"{type(scale_out).__name__}")  # fmt: skip
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be an integer >= 1, got {chunk!r}")
    if extra is not None and (not isinstance(extra, Mapping)
                              or not all(callable(f) for f in extra.values())):  # fmt: skip
        raise TypeError(f"extra must be a mapping of name -> callable, got {extra!r:.80}")
    if extra_runs is not None and not callable(extra_runs):
        raise TypeError(f"extra_runs must be a callable or None, got {extra_runs!r:.80}")
    if scale_out.device is not None:
        settings = {**settings, "device": scale_out.device}
    if scale_out.capped:
        widths, seeds = scale_out.limit(widths, seeds)
    parsed, ws, ss, grid = pdg._grid(points, widths, seeds, normalised_lr, settings)
    fresh = set()
    if extra:
        fresh = {i for i, g in enumerate(grid) if extra_runs is None or extra_runs(dict(g))}
    cache = None if scale_out.cache_dir is None else Path(scale_out.cache_dir)
    if scale_out.executor is None:
        results = _batched(grid, cache, scale_out.progress, chunk, extra, fresh)
    else:
        rest = [i for i in range(len(grid)) if i not in fresh]
        swept = sweeps.run_sweep(rd_sweep_point, [grid[i] for i in rest],
                                 version=pdg.RD_VERSION, **scale_out.sweep_kwargs())  # fmt: skip
        results = [None] * len(grid)
        for i, r in zip(rest, swept, strict=True):
            results[i] = r
        if fresh:
            idx = sorted(fresh)
            sub = _batched([grid[i] for i in idx], cache, False, chunk, extra,
                           set(range(len(idx))))  # fmt: skip
            for i, r in zip(idx, sub, strict=True):
                results[i] = r
    if extra:
        results = [r if i in fresh else {**r, **dict.fromkeys(extra)}
                   for i, r in enumerate(results)]  # fmt: skip
    n = len(ws) * len(ss)
    return [pdg._point_from_results(g2, g3, s, ws, ss, results[k * n : (k + 1) * n])
            for k, (g2, g3, s) in enumerate(parsed)]  # fmt: skip
