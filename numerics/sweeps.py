r"""Sweeps: grids of independent simulations, run in-process or on a dask.distributed
cluster, with an on-disk cache so that an interrupted sweep resumes; and the measured
phase sweep of seed 001 (Xu & Ziyin, Section 3, Table 1) built on it.

Executor and cache (:func:`run_sweep`)
--------------------------------------
A sweep is ``fn(point) -> result`` over a list of points, ``fn`` a top-level (importable,
picklable) pure function, points and results JSON dicts.  Each result is written, as soon
as it arrives, to ``cache_dir/<kk>/<key>.json`` (atomically: temporary file + fsync +
``os.replace``), ``key`` = SHA-256 of the canonical JSON of (``fn``'s qualified name,
the caller's ``version`` string, the point) (:func:`point_key`).  A rerun loads the
points already done and computes only the rest, so an interrupted or failed sweep
resumes where it stopped.  The cache is written by the calling process only: workers
need no shared file system.  Change ``version`` whenever ``fn``'s results change.

Executors: ``None`` (default) runs in-process, one point after the other; ``"local"``
starts a ``dask.distributed.LocalCluster`` (:func:`local_cluster`: one single-threaded
worker process per core) for the call; a ``distributed.Client`` is used as given; a
scheduler address string (``"tcp://host:8786"``) is connected to for the call; a
``concurrent.futures.Executor`` is also accepted.

Why dask.distributed rather than Ray: its wheels are pure Python (``pip install
distributed``, no compiled runtime or object-store daemon), ``LocalCluster`` gives real
worker processes inside a test in a few seconds, and the same ``Client`` API reaches a
remote scheduler (``dask scheduler`` / ``dask worker`` on the cluster, or dask-jobqueue
on SLURM/PBS) with no code change; its futures deliver results as they complete, which
is what the driver-side cache needs.  Ray would add a compiled runtime (and its own
cluster launcher) for features a grid of independent tasks does not use (actors, shared
object store).  On a cluster of your own, start the workers with
``MALLOC_MMAP_THRESHOLD_=33554432`` in their environment (see :data:`WORKER_ENV`: dask's
default malloc setting made torch 3x slower here).

Seed 001 phase sweep (:func:`xu_ziyin_point`, :func:`measure_phases`)
----------------------------------------------------------------------
One grid point: a batch of ``seeds`` two-layer linear nets ``f = gamma u^T W x`` (eq.
(4); ``L = (f - y)^2``) of width ``d = d_scale kappa^c_d`` with ``gamma = kappa^c_gamma``,
``u_i ~ N(0, kappa^c_u)``, ``W_ij ~ N(0, kappa^c_w)``, ``eta = kappa^c_eta``, integrated
by :func:`numerics.torch_flow.gradient_flow` (DOP853, float64) to a horizon of a few t_c
(chosen from eq. (11) at the initial weights; the measurement does not use it).
Measured, per network:

* ``t_c``: 4 times the time at which the residual ``|f - y|`` has fallen by a factor
  ``e``.  The residual obeys ``d(f - y)/dt = -2 K(t) (f - y)`` (K the NTK, eq. (18)), so
  this is the time at which ``int_0^t 2 K = 1``; in the kernel limit ``K = 2/t_c`` is
  constant and the measurement is exactly the ``t_c`` of eq. (11) (residual
  ``~ exp(-4 t/t_c)``, eq. (10)); otherwise it is ``t_c`` times an O(1) shape factor
  that tends to a constant, so it has the exponent of ``t_c``.  Chosen over the
  late-time rate because it needs no choice of fitting window, and over a fixed loss
  threshold because it does not depend on the initial loss (``|f - y|`` is monotone).
* ``ntk_change``: ``|K(T) - K(0)| / K(0)`` with ``T = horizon * t_c`` (3 by default,
  where the residual is ``e^-12`` of its initial value).

Predicted exponents (:func:`predicted_exponents`).  From eq. (11) (eq. (17), rho =
||x||)::

    t_c^-2 = eta_u eta_w gamma^2 rho^2 y^2 + 4 rho^4 (gamma^2 d)^2 P Q

with ``P, Q ~ kappa^m``, ``m = max(c_eta_w + c_u, c_eta_u + c_w)`` (their means, Section
3 after eq. (27)), so ``t_c^-2 ~ kappa^max(a, 2b)``, ``a = 2 c_gamma + c_eta_u + c_eta_w``,
``b = 2 c_gamma + c_d + m`` (the two entries of eq. (28); the second enters t_c^-2 with
weight 2), and ``t_c ~ kappa^(-max(a, 2b)/2)``.  For the NTK, the flow (eq. (5)) conserves
``K^2 - 4 eta_u eta_w gamma^2 rho^2 f^2 = 16 gamma^4 rho^4 d^2 P Q`` (differentiate:
both terms change by ``-16 gamma^3 eta_u eta_w rho^2 (f - y) (u.Wx) K``), so with
``f(oo) = y``, ``K(oo) = 2/t_c`` exactly and::

    K(oo)/K(0) = sqrt((1 + R) / (1 + R F)),  R = eta_u eta_w y^2 / (4 gamma^2 rho^2 d^2 PQ),
                                           F = f(0)^2 / y^2,

``R ~ kappa^(a - 2b)`` (ratio of the two terms of t_c^-2), ``F ~ kappa^e_F``,
``e_F = 2 c_gamma + c_d + c_u + c_w`` (``f(0)`` is a sum of d products, variance
``gamma^2 d sigma_u^2 sigma_w^2 ||x||^2``; ``F = 0`` for a zero initial output).  Hence
the relative NTK change ``~ R |1 - F| / 2 ~ kappa^(a - 2b + max(0, e_F))`` when that
exponent is negative (kernel), ``~ sqrt(R)``, exponent ``(a - 2b)/2``, when ``R -> oo``
and ``F -> 0``, and ``Theta(1)`` (exponent 0) otherwise.  Phases: t_c exponent > 0
frozen, < 0 unstable, else kernel if the NTK-change exponent is < 0, else feature
learning.  This agrees with Theorem 2 as implemented in
:func:`solvable.models.phases.xu_ziyin_phase` (tested for random exponents).

Measured phase (:func:`classify`): exponents fitted by least squares on log-log of the
seed mean against kappa, error = the larger of the regression standard error and the
bootstrap (over seeds) standard error; an exponent counts as non-zero when it is beyond
``delta = 0.25`` and 3 errors from 0, as zero when within ``delta`` with 3 errors below
``delta`` (over kappa from 64 to 4096, an exponent of 0.25 is a factor 2.8, while the
O(d^-1/2) fluctuations of P/Q at d = 64 move a point by ~12%, a slope bias < 0.03).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import json
import math
import numbers
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from numerics import measures, models, torch_flow
from numerics.torch_flow.checks import _check_seed
from solvable._core import numbers as nb
from solvable.models.phases import Scaling, table_1, xu_ziyin_phase

__all__ = [
    "DELTA",
    "Z_SCORE",
    "ExponentFit",
    "PhaseCase",
    "PhaseMeasurement",
    "PredictedExponents",
    "SweepError",
    "classify",
    "fit_exponent",
    "local_cluster",
    "measure_phases",
    "point_key",
    "predicted_exponents",
    "run_sweep",
    "table_1_cases",
    "xu_ziyin_point",
]

KEY_SCHEMA = 1  # bump when the key derivation changes (old cache entries become misses)


class SweepError(RuntimeError):
    """A point of a sweep failed; the points finished before it are cached."""


# ---------------------------------------------------------------------------
# keys and cache
# ---------------------------------------------------------------------------
def _check_json(name: str, value: Any, *, allow_nan: bool) -> None:
    """Raise ``TypeError``/``ValueError`` naming the path of the first value that is not
    plain JSON (dict with str keys, list/tuple, str, int, float, bool, None)."""
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not allow_nan and not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{name} keys must be str, got {k!r}")
            _check_json(f"{name}[{k!r}]", v, allow_nan=allow_nan)
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_json(f"{name}[{i}]", v, allow_nan=allow_nan)
        return
    raise TypeError(
        f"{name} must be JSON data (dict, list, str, int, float, bool, None), got "
        f"{type(value).__name__} {value!r:.60} (convert numpy scalars with float()/int())"
    )


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)  # fmt: skip


def _fn_name(fn: Any) -> str:
    if not callable(fn):
        raise TypeError(f"fn must be a callable, got {type(fn).__name__}")
    module, qual = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if not module or not qual or "<lambda>" in qual or "<locals>" in qual:
        raise TypeError(
            f"fn must be a top-level (importable) function, got {fn!r:.80}: lambdas, "
            "nested functions and partials have no stable name to key the cache by and "
            "cannot be sent to workers by reference"
        )
    return f"{module}.{qual}"


def _check_version(version: Any) -> str:
    if not isinstance(version, str) or not version:
        raise TypeError(f"version must be a non-empty str, got {version!r}")
    return version


def point_key(fn: Callable[[dict], dict], point: Mapping[str, Any], version: str) -> str:
    """SHA-256 (hex) of the canonical JSON (sorted keys, no spaces, ASCII) of
    ``{"schema", "fn": module.qualname, "version", "point"}``: independent of the key
    order of ``point``, of the process and of the platform; tuples key as lists."""
    _check_json("point", point, allow_nan=False)
    if not isinstance(point, Mapping):
        raise TypeError(f"point must be a dict, got {type(point).__name__}")
    blob = {"schema": KEY_SCHEMA, "fn": _fn_name(fn), "version": _check_version(version),
            "point": point}  # fmt: skip
    return hashlib.sha256(_canonical(blob).encode("ascii")).hexdigest()


def _path(cache_dir: Path, key: str) -> Path:
    return cache_dir / key[:2] / f"{key}.json"


def _load(cache_dir: Path, key: str, point: Any) -> tuple[bool, Any]:
    path = _path(cache_dir, key)
    if not path.exists():
        return False, None
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        if entry["key"] != key or _canonical(entry["point"]) != _canonical(point):
            raise ValueError("key or point does not match")
        return True, entry["result"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        warnings.warn(f"sweep cache entry {path} unreadable ({exc}); recomputing", stacklevel=3)
        return False, None


def _store(cache_dir: Path, key: str, fn_name: str, version: str, point: Any,
           result: Any) -> None:  # fmt: skip
    path = _path(cache_dir, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"key": key, "fn": fn_name, "version": version, "point": point,
                       "result": result}, sort_keys=True, indent=1)  # fmt: skip
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:8]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _normalise(fn_name: str, point: Any, result: Any) -> Any:
    """The result as it reads back from the cache (tuples -> lists), so a fresh and a
    cached run return equal objects.  NaN and infinities are allowed (Python's json)."""
    if not isinstance(result, Mapping):
        raise TypeError(f"{fn_name} must return a dict, got {type(result).__name__} "
                        f"for point {point!r:.120}")  # fmt: skip
    _check_json(f"{fn_name}(...) result", result, allow_nan=True)
    return json.loads(json.dumps(result))


# ---------------------------------------------------------------------------
# executors
# ---------------------------------------------------------------------------
def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            "a dask executor needs dask.distributed: pip install 'distributed>=2024.1'"
        ) from exc
    return distributed


# dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536, which freezes glibc's
# mmap threshold at 128 KiB: every tensor above it is a fresh mmap, page-faulted in and
# returned at free.  Measured (2-core CPU, one xu_ziyin_point at width 4096, 16 nets):
# 2.0 s unset, 6.5 s with that setting, 2.3 s with it and MALLOC_MMAP_THRESHOLD_ = 32 MiB.
WORKER_ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 * 2**20)}
MAX_LOCAL_WORKERS = 1024
"""The most worker processes :func:`local_cluster` starts on one machine (a guard against a
typo: each is a process of its own, and ``10**30`` would never return)."""


def local_cluster(n_workers: int | None = None, **kwargs: Any) -> Any:
    """A ``distributed.LocalCluster`` for sweeps: ``n_workers`` single-threaded worker
    processes (default: one per core; at most :data:`MAX_LOCAL_WORKERS`), no dashboard, and
    :data:`WORKER_ENV` in the workers' environment.  ``kwargs`` go to ``LocalCluster``.  Use
    as a context manager."""
    distributed = _distributed()
    if n_workers is None:
        n_workers = max(1, os.cpu_count() or 1)
    if isinstance(n_workers, bool) or not isinstance(n_workers, int) or n_workers < 1:
        raise ValueError(f"n_workers must be an integer >= 1, got {n_workers!r}")
    if n_workers > MAX_LOCAL_WORKERS:
        raise ValueError(f"n_workers must be at most {MAX_LOCAL_WORKERS} (worker processes on "
                         f"one machine), got {n_workers}")  # fmt: skip
    import dask

    options = {"threads_per_worker": 1, "processes": True, "dashboard_address": None, **kwargs}
    # glibc reads these at process start: they must be in the environment the nanny spawns
    # the worker with ("pre-spawn"), not set by the worker afterwards (LocalCluster(env=))
    pre = {f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in WORKER_ENV.items()}
    with dask.config.set(pre):
        return distributed.LocalCluster(n_workers=n_workers, **options)


def _executor_kind(executor: Any) -> str:
    """Validate ``executor`` without starting anything: ``"inprocess"``, ``"futures"``,
    ``"local"``, ``"address"`` or ``"client"``."""
    if executor is None:
        return "inprocess"
    if isinstance(executor, concurrent.futures.Executor):
        return "futures"
    if isinstance(executor, str):
        if executor == "local":
            return "local"
        if "://" in executor or ":" in executor:
            return "address"
        raise ValueError(
            "executor must be None, 'local', a scheduler address such as 'tcp://host:8786', "
            f"a distributed.Client or a concurrent.futures.Executor, got {executor!r}"
        )
    if type(executor).__module__.split(".")[0] == "distributed":
        if isinstance(executor, _distributed().Client):
            return "client"
    raise TypeError(
        "executor must be None, 'local', a scheduler address str, a distributed.Client or "
        f"a concurrent.futures.Executor, got {type(executor).__name__}"
    )


@contextlib.contextmanager
def _executor(executor: Any) -> Iterator[tuple[str, Any]]:
    """``("inprocess", None)``, ``("dask", client)`` or ``("futures", executor)``; a
    cluster or client started here is closed on exit."""
    kind = _executor_kind(executor)
    if kind in ("inprocess", "futures"):
        yield kind, executor
    elif kind == "client":
        yield "dask", executor
    elif kind == "local":
        with local_cluster() as cluster, _distributed().Client(cluster) as client:
            yield "dask", client
    else:
        with _distributed().Client(executor) as client:
            yield "dask", client


def _progress(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError as exc:
        raise ImportError("progress=True needs tqdm: pip install tqdm") from exc
    return tqdm(total=total, initial=initial, unit="pt")


def _cancel_futures(fs: Sequence[Any]) -> None:
    for fut in fs:
        fut.cancel()


def run_sweep(
    fn: Callable[[dict], dict],
    points: Sequence[Mapping[str, Any]],
    *,
    cache_dir: str | os.PathLike | None = None,
    version: str = "0",
    executor: Any = None,
    progress: bool = False,
) -> list[dict]:
    """``[fn(p) for p in points]``, through ``executor`` (see the module docstring),
    cached in ``cache_dir`` (``None``: no cache) under ``version``.

    ``fn``: a top-level function of one JSON dict returning a JSON dict (NaN allowed in
    results).  Results come back in the order of ``points``, normalised through JSON
    (tuples become lists) so that cached and fresh results are equal; identical points
    are computed once.  If a point raises, the others in flight are cancelled, the
    finished ones stay cached, and :class:`SweepError` (from the original exception) is
    raised; rerunning resumes.
    """
    name = _fn_name(fn)
    version = _check_version(version)
    if isinstance(points, (str, bytes, Mapping)) or not isinstance(points, Sequence):
        raise TypeError(f"points must be a list of dicts, got {type(points).__name__}")
    for i, p in enumerate(points):
        if not isinstance(p, Mapping):
            raise TypeError(f"points[{i}] must be a dict, got {type(p).__name__}")
        _check_json(f"points[{i}]", p, allow_nan=False)
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be a bool, got {progress!r}")
    _executor_kind(executor)
    cache = None if cache_dir is None else Path(cache_dir)
    if cache is not None:
        if cache.exists() and not cache.is_dir():
            raise ValueError(f"cache_dir must be a directory, got the file {cache}")
        cache.mkdir(parents=True, exist_ok=True)

    keys = [point_key(fn, p, version) for p in points]
    first: dict[str, int] = {}
    for i, k in enumerate(keys):
        first.setdefault(k, i)
    done: dict[str, Any] = {}
    if cache is not None:
        for k, i in first.items():
            hit, value = _load(cache, k, points[i])
            if hit:
                done[k] = value
    todo = [(k, i) for k, i in first.items() if k not in done]
    bar = _progress(len(first), len(done), progress)

    def finish(k: str, i: int, result: Any) -> None:
        done[k] = _normalise(name, points[i], result)
        if cache is not None:
            _store(cache, k, name, version, points[i], done[k])
        if bar is not None:
            bar.update(1)

    def fail(i: int, exc: BaseException) -> SweepError:
        return SweepError(f"{name} failed on points[{i}] = {points[i]!r:.200}: "
                          f"{type(exc).__name__}: {exc}")  # fmt: skip

    try:
        if todo:
            with _executor(executor) as (kind, ex):
                if kind == "inprocess":
                    for k, i in todo:
                        try:
                            result = fn(dict(points[i]))
                        except Exception as exc:
                            raise fail(i, exc) from exc
                        finish(k, i, result)
                else:
                    if kind == "futures":
                        fs = [ex.submit(fn, dict(points[i])) for _, i in todo]
                        completed, cancel = concurrent.futures.as_completed, _cancel_futures
                    else:
                        fs = ex.map(fn, [dict(points[i]) for _, i in todo], pure=False)
                        completed = _distributed().as_completed
                        cancel = lambda fs: ex.cancel([f for f in fs if not f.done()])  # noqa: E731
                    futs = dict(zip(fs, todo, strict=True))
                    try:
                        for fut in completed(fs):
                            k, i = futs[fut]
                            try:
                                result = fut.result()
                            except Exception as exc:
                                raise fail(i, exc) from exc
                            finish(k, i, result)
                    finally:
                        cancel(fs)
    finally:
        if bar is not None:
            bar.close()
    return [done[k] for k in keys]


# ---------------------------------------------------------------------------
# seed 001: predicted exponents
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PredictedExponents:
    """Exact exponents of kappa (sympy Rationals) derived in the module docstring:
    ``t_c``, ``ntk_change`` (relative NTK change over training), ``ratio`` (R, the first
    over the second term of t_c^-2), ``output`` (F = f(0)^2/y^2; ``None`` when the
    initial output is zero), and the ``phase`` they imply."""

    t_c: Any
    ntk_change: Any
    ratio: Any
    output: Any
    phase: str


def predicted_exponents(
    c_d: Any, c_gamma: Any, c_u: Any, c_w: Any, c_eta_u: Any, c_eta_w: Any, *,
    zero_initial_output: bool = False,
) -> PredictedExponents:  # fmt: skip
    """Exponents of ``t_c`` and of ``|K(T) - K(0)|/K(0)`` in kappa from eqs. (11)/(27),
    (28) and the conserved ``K^2 - 4 eta_u eta_w gamma^2 rho^2 f^2`` (module docstring).
    Exponents: int, float (exact binary value), Fraction or sympy Rational (validated by
    :class:`solvable.models.phases.Scaling`)."""
    s = Scaling(c_d, c_gamma, c_u, c_w, c_eta_u, c_eta_w, zero_initial_output)
    m = max(s.c_eta_w + s.c_u, s.c_eta_u + s.c_w)
    a = 2 * s.c_gamma + s.c_eta_u + s.c_eta_w
    b = 2 * s.c_gamma + s.c_d + m
    t_c = -max(a, 2 * b) / 2
    e_r = a - 2 * b
    e_f = None if zero_initial_output else 2 * s.c_gamma + s.c_d + s.c_u + s.c_w
    small = e_r + (0 if e_f is None else max(0, e_f))
    if small < 0:
        ntk = small
    elif e_r > 0 and (e_f is None or e_f < 0):
        ntk = e_r / 2
    else:
        ntk = 0 * e_r
    if t_c > 0:
        phase = "frozen"
    elif t_c < 0:
        phase = "unstable"
    else:
        phase = "kernel" if ntk < 0 else "feature learning"
    return PredictedExponents(t_c=t_c, ntk_change=ntk, ratio=e_r, output=e_f, phase=phase)


# ---------------------------------------------------------------------------
# seed 001: one grid point
# ---------------------------------------------------------------------------
XU_ZIYIN_VERSION = "xu_ziyin_point/1"  # bump when xu_ziyin_point's results change
_DEFAULTS: dict[str, Any] = {
    "d_scale": 1, "d0": 4, "x": [0.5, -0.5, 0.5, 0.5], "y": 2.0, "seeds": 8, "seed": 0,
    "init": "gaussian", "rtol": 1e-8, "horizon": 3.0, "n_times": 41, "threads": 1,
}  # fmt: skip
_EXPONENTS = ("c_d", "c_gamma", "c_u", "c_w", "c_eta_u", "c_eta_w")


@contextlib.contextmanager
def _torch_threads(n: int) -> Iterator[None]:
    """torch's intra-op threads set for the block and restored after it (one thread per
    task: on a shared 2-core machine spinning OpenMP threads were 50x slower)."""
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def _point_options(point: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(point, Mapping):
        raise TypeError(f"point must be a dict, got {type(point).__name__} {nb.describe(point)}")
    unknown = set(point) - set(_DEFAULTS) - set(_EXPONENTS) - {"kappa", "case"}
    if unknown:
        raise ValueError(f"point has unknown keys {sorted(unknown)}")
    missing = [k for k in (*_EXPONENTS, "kappa") if k not in point]
    if missing:
        raise ValueError(f"point is missing {missing}")
    o = {**_DEFAULTS, **point}
    for k in _EXPONENTS:
        if not isinstance(o[k], (str, int)) or isinstance(o[k], bool):
            raise TypeError(f"point[{k!r}] must be an int or a 'p/q' string, got {o[k]!r}")
        try:
            o[k] = Fraction(o[k])
        except (ValueError, ZeroDivisionError) as exc:
            raise ValueError(f"point[{k!r}] must be a rational 'p/q', got {o[k]!r}") from exc
    kappa = o["kappa"]
    if isinstance(kappa, bool) or not isinstance(kappa, (int, float)) or not kappa >= 1:
        raise ValueError(f"point['kappa'] must be a number >= 1, got {kappa!r}")
    for k in ("d_scale", "d0", "seeds", "n_times", "threads"):
        if isinstance(o[k], bool) or not isinstance(o[k], int) or o[k] < 1:
            raise ValueError(f"point[{k!r}] must be an integer >= 1, got {o[k]!r}")
    if o["n_times"] < 3:
        raise ValueError(f"point['n_times'] must be >= 3, got {o['n_times']}")
    if o["seeds"] > nb.INT64_MAX:
        raise ValueError(f"point['seeds'] must be at most 2**63 - 1 (torch's sizes), got "
                         f"{o['seeds']}")  # fmt: skip
    try:
        _check_seed(o["seed"])
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"point['seed']: {exc}") from None
    if o["init"] not in ("gaussian", "zero_output"):
        raise ValueError(f"point['init'] must be 'gaussian' or 'zero_output', got {o['init']!r}")
    if len(o["x"]) != o["d0"]:
        raise ValueError(f"point['x'] must have d0 = {o['d0']} entries, got {len(o['x'])}")
    if not (isinstance(o["y"], (int, float)) and o["y"] != 0 and math.isfinite(o["y"])):
        raise ValueError(f"point['y'] must be a finite non-zero number, got {o['y']!r}")
    if not (isinstance(o["horizon"], (int, float)) and o["horizon"] >= 1):
        raise ValueError(f"point['horizon'] must be >= 1 (units of t_c), got {o['horizon']!r}")
    return o


def _listed(name: str, values: Any) -> list[Any]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a list, got {type(values).__name__} "
                        f"{nb.describe(values)}")  # fmt: skip
    return list(values.tolist() if isinstance(values, np.ndarray) else values)


def _json_numbers(name: str, value: Any) -> Any:
    """``value`` with each ``mpmath.mpf`` (also inside lists and tuples) read as the float64
    number it is: the sweep runs in float64 and its points are JSON (a float sweep reads an
    mpf as its value, docs/inputs.md); anything else is left for the point's own checks."""
    if nb.holds_mpf(value) and not isinstance(value, (list, tuple)):
        return nb.to_float(nb.check_number(name, value), name)
    if isinstance(value, (list, tuple)):
        return type(value)(_json_numbers(f"{name}[{i}]", v) for i, v in enumerate(value))
    return value


def _kappa(i: int, k: Any) -> int | float:
    """``kappas[i]``: a finite real number >= 1, as a JSON int or float."""
    name = f"kappas[{i}]"
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Real):
        raise TypeError(f"{name} must be a real number >= 1, got {type(k).__name__} "
                        f"{nb.describe(k)}")  # fmt: skip
    k = int(k) if isinstance(k, numbers.Integral) else nb.to_float(nb.check_number(name, k), name)
    if not 1 <= k <= nb.FLOAT64_MAX:
        raise ValueError(f"{name} must be a finite number >= 1, got {nb.describe(k)}")
    return k


def _efold_time(t: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Per column of ``r`` (T, B): the first time at which ``log|r|`` has dropped by 1
    from its start, linear interpolation of ``log|r|`` between recorded times (exact for
    an exponential); NaN when it never does."""
    with np.errstate(divide="ignore"):  # a residual that reaches 0 exactly: log -> -inf
        a = np.log(np.abs(r)) - np.log(np.abs(r[0]))
    out = np.full(r.shape[1], math.nan)
    for b in range(r.shape[1]):
        below = np.nonzero(a[:, b] <= -1.0)[0]
        if below.size == 0 or below[0] == 0:
            continue
        k = below[0]
        a0, a1 = a[k - 1, b], a[k, b]
        out[b] = t[k - 1] + (-1.0 - a0) / (a1 - a0) * (t[k] - t[k - 1])
    return out


def xu_ziyin_point(point: dict) -> dict:
    """One grid point of the seed 001 phase sweep (module docstring): ``point`` holds the
    six exponents (``"c_d"``, ...; int or ``"p/q"``), ``"kappa"``, and optionally
    ``d_scale`` (d = round(d_scale kappa^c_d)), ``d0``, ``x``, ``y``, ``seeds`` (batch),
    ``seed``, ``init`` (``"gaussian"`` or ``"zero_output"``: the second half of the
    neurons mirrors the first with ``u -> -u``, so ``f(0) = 0``), ``rtol``, ``horizon``
    (T in units of the largest t_c of the batch), ``n_times`` (recorded times), ``threads``
    (torch threads) and ``case`` (a label).  Returns per-network lists ``t_c``,
    ``ntk_change``, ``t_c_eq11`` (eq. (11) at the initial weights, horizon only),
    ``residual_ratio`` (``|f - y|`` at T over its start), ``f0``, ``ntk0``, and ``d``,
    ``steps`` (most DOP853 steps in the batch)."""
    import torch

    o = _point_options(point)
    kappa = float(o["kappa"])

    def power(c: Fraction) -> float:
        return kappa ** float(c)

    d = round(o["d_scale"] * power(o["c_d"]))
    zero = o["init"] == "zero_output"
    if d < 1 or (zero and d % 2):
        raise ValueError(f"width d = {d} must be >= 1 (and even for init 'zero_output')")
    gamma, eta_u, eta_w = power(o["c_gamma"]), power(o["c_eta_u"]), power(o["c_eta_w"])
    sig_u, sig_w = math.sqrt(power(o["c_u"])), math.sqrt(power(o["c_w"]))
    model = models.TwoLayerLinear(o["x"], float(o["y"]), gamma, eta_u, eta_w)
    x = torch.tensor(o["x"], dtype=torch.float64)
    rho2 = float(x @ x)
    with _torch_threads(o["threads"]):
        half = d // 2 if zero else d
        p = torch_flow.initialise({"u": (half,), "W": (half, o["d0"])}, o["seeds"],
                                  scale={"u": sig_u, "W": sig_w}, seed=o["seed"],
                                  device="cpu")  # fmt: skip
        if zero:
            p = {"u": torch.cat([p["u"], -p["u"]], 1), "W": torch.cat([p["W"], p["W"]], 1)}

        def output(q: Mapping[str, Any]) -> Any:
            return gamma * ((q["W"] @ x) * q["u"]).sum(-1)

        f0 = output(p)
        k0 = measures.ntk_two_layer_linear(model, p)
        # eq. (11) through the conserved K^2 - 4 eta_u eta_w gamma^2 rho^2 f^2: K(oo) = 2/t_c
        k_inf2 = k0**2 + 4 * eta_u * eta_w * gamma**2 * rho2 * (o["y"] ** 2 - f0**2)
        t_c_eq11 = 2 / torch.sqrt(k_inf2)
        T = o["horizon"] * float(t_c_eq11.max())
        times = np.linspace(0.0, T, o["n_times"])
        res = torch_flow.gradient_flow(
            model, p, times, rtol=o["rtol"], keep_params=False, device="cpu",
            measures={"r": lambda q, rows: output(q) - o["y"],
                      "K": lambda q, rows: measures.ntk_two_layer_linear(model, q)},
        )  # fmt: skip
    r = res.measures["r"].numpy()
    K = res.measures["K"].numpy()
    t_c = 4 * _efold_time(times, r)
    change = np.abs(K[-1] - K[0]) / K[0]
    return {
        "d": d,
        "t_c": t_c.tolist(),
        "ntk_change": change.tolist(),
        "t_c_eq11": t_c_eq11.tolist(),
        "residual_ratio": (np.abs(r[-1]) / np.abs(r[0])).tolist(),
        "f0": f0.tolist(),
        "ntk0": k0.tolist(),
        "steps": int(torch.as_tensor(res.steps).max()),
    }


# ---------------------------------------------------------------------------
# fits and classification
# ---------------------------------------------------------------------------
DELTA = 0.25  # smallest exponent counted as non-zero (module docstring)
Z_SCORE = 3.0  # errors an exponent must be away from 0 (or below DELTA) to count


@dataclass(frozen=True)
class ExponentFit:
    """Slope of ``log(mean over seeds)`` against ``log kappa``: ``exponent``,
    ``se_ols`` (regression standard error; NaN with 2 kappas), ``se_boot`` (bootstrap
    over seeds, paired across kappa); ``error`` = the larger finite one."""

    exponent: float
    se_ols: float
    se_boot: float

    @property
    def error(self) -> float:
        vals = [v for v in (self.se_ols, self.se_boot) if math.isfinite(v)]
        return max(vals) if vals else math.nan

    def sign(self, delta: float = DELTA, z: float = Z_SCORE) -> str:
        """``"-"``, ``"0"``, ``"+"`` or ``"?"`` (undetermined), see the module docstring."""
        e, err = self.exponent, self.error
        if not (math.isfinite(e) and math.isfinite(err)):
            return "?"
        if e < -delta and e + z * err < 0:
            return "-"
        if e > delta and e - z * err > 0:
            return "+"
        if abs(e) <= delta and z * err <= delta:
            return "0"
        return "?"


def _slope(lx: np.ndarray, ly: np.ndarray) -> tuple[float, float]:
    A = np.column_stack([np.ones_like(lx), lx])
    coef, *_ = np.linalg.lstsq(A, ly, rcond=None)
    n = len(lx)
    if n <= 2:
        return float(coef[1]), math.nan
    resid = ly - A @ coef
    s2 = float(resid @ resid) / (n - 2)
    return float(coef[1]), math.sqrt(s2 / float(((lx - lx.mean()) ** 2).sum()))


def fit_exponent(kappas: Sequence[float], samples: Sequence[Sequence[float]], *,
                 n_boot: int = 1000, seed: int = 0) -> ExponentFit:  # fmt: skip
    """Fit ``mean(samples[k]) ~ kappa^e`` (least squares on log-log) with standard errors
    (module docstring).  ``samples[k]``: the positive per-seed values at ``kappas[k]``.
    With as many samples at every kappa, entry ``i`` is taken to be seed ``i`` at each
    kappa and the bootstrap resamples seeds jointly (paired); otherwise independently.
    ``kappas``: >= 2 distinct finite numbers > 0; ``n_boot``: an int from 2 to
    :data:`MAX_BOOT`; ``seed``: an int >= 0."""
    kappas = nb.check_float_array("kappas", kappas, ndim=1)
    if len(kappas) < 2 or not np.all(kappas > 0) or len(set(kappas.tolist())) != len(kappas):
        raise ValueError(f"need >= 2 kappas, distinct and > 0, got {kappas.tolist()}")
    lx = np.log(kappas)
    if isinstance(samples, (str, bytes, Mapping)) or not isinstance(
        samples, (Sequence, np.ndarray)
    ):
        raise TypeError(f"samples must be a list of sample lists (one per kappa), got "
                        f"{type(samples).__name__} {nb.describe(samples)}")  # fmt: skip
    if len(samples) != len(lx):
        raise ValueError(f"need one sample list per kappa: {len(lx)} kappas and "
                         f"{len(samples)} entries of samples")  # fmt: skip
    n_boot, seed = _check_boot(n_boot), nb.check_int("seed", seed, low=0)
    arrs = [nb.check_float_array(f"samples[{k}]", s, ndim=1) for k, s in enumerate(samples)]
    for k, s in enumerate(arrs):
        if np.any(s <= 0):
            raise ValueError(f"samples[{k}] must be a non-empty list of finite positive "
                             f"numbers, got {samples[k]!r:.80}")  # fmt: skip
    e, se = _slope(lx, np.log([s.mean() for s in arrs]))
    rng = np.random.default_rng(seed)
    paired = len({s.size for s in arrs}) == 1
    boot = []
    for _ in range(n_boot):
        if paired:  # the same seeds at every kappa (the same draws when the width is fixed)
            idx = rng.integers(0, arrs[0].size, arrs[0].size)
            means = [s[idx].mean() for s in arrs]
        else:
            means = [rng.choice(s, s.size).mean() for s in arrs]
        boot.append(_slope(lx, np.log(means))[0])
    return ExponentFit(exponent=e, se_ols=se, se_boot=float(np.std(boot, ddof=1)))


MAX_BOOT = 10**6
"""The most bootstrap resamples :func:`fit_exponent` draws (a typo guard: about a minute)."""


def _check_boot(n_boot: Any) -> int:
    n_boot = nb.check_int("n_boot", n_boot, low=2)  # the standard error needs 2 resamples
    if n_boot > MAX_BOOT:
        raise ValueError(f"n_boot must be at most {MAX_BOOT}, got {n_boot}")
    return n_boot


def classify(t_c: ExponentFit, ntk_change: ExponentFit) -> str:
    """The measured phase: t_c exponent ``+`` frozen, ``-`` unstable; ``0``: NTK-change
    exponent ``-`` kernel, ``0``/``+`` feature learning; else ``"undetermined"``."""
    for name, fit in (("t_c", t_c), ("ntk_change", ntk_change)):
        if not isinstance(fit, ExponentFit):
            raise TypeError(f"{name} must be an ExponentFit (from fit_exponent), got "
                            f"{type(fit).__name__} {nb.describe(fit)}")  # fmt: skip
    s = t_c.sign()
    if s == "+":
        return "frozen"
    if s == "-":
        return "unstable"
    if s == "?":
        return "undetermined"
    k = ntk_change.sign()
    return {"-": "kernel", "0": "feature learning", "+": "feature learning"}.get(k, "undetermined")


# ---------------------------------------------------------------------------
# seed 001: the sweep over Table 1
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PhaseCase:
    """One simulated cell: ``name`` (e.g. ``"NTK, c_eta"``), its
    :class:`solvable.models.phases.Scaling`, the paper's printed phase (``""`` if none) and
    ``d_scale`` (width at kappa = 1; the fixed width when c_d = 0)."""

    name: str
    scaling: Any
    printed: str = ""
    d_scale: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.scaling, Scaling):
            raise TypeError(f"scaling must be a solvable.phases.Scaling, got "
                            f"{type(self.scaling).__name__}")  # fmt: skip
        if isinstance(self.d_scale, bool) or not isinstance(self.d_scale, int) or \
                self.d_scale < 1:  # fmt: skip
            raise ValueError(f"d_scale must be an integer >= 1, got {self.d_scale!r}")

    def exponents(self) -> dict[str, str]:
        return {k: str(getattr(self.scaling, k)) for k in _EXPONENTS}

    def predicted(self) -> PredictedExponents:
        s = self.scaling
        return predicted_exponents(*(getattr(s, k) for k in _EXPONENTS),
                                   zero_initial_output=s.zero_initial_output)  # fmt: skip

    def paper_phase(self) -> str:
        s = self.scaling
        return xu_ziyin_phase(*(getattr(s, k) for k in _EXPONENTS),
                              zero_initial_output=s.zero_initial_output)  # fmt: skip

    def point(self, kappa: float, **options: Any) -> dict[str, Any]:
        init = "zero_output" if self.scaling.zero_initial_output else "gaussian"
        return {"case": self.name, **self.exponents(), "kappa": kappa,
                "d_scale": self.d_scale, "init": init, **options}  # fmt: skip


_SHORT_BLOCKS = {"c_eta": "c_eta", "c_eta^*": "c_eta*", "(c_eta^+, c_gamma^+)": "+",
                 "(c_eta^-, c_gamma^-)": "-"}  # fmt: skip


def table_1_cases(lazy_width: int = 16) -> dict[str, PhaseCase]:
    """Every cell of Table 1 (:func:`solvable.models.phases.table_1`) as a :class:`PhaseCase`,
    keyed ``"<column>, <block>"`` (blocks ``c_eta``, ``c_eta*``, ``+``, ``-``), plus each
    lazy cell with a Gaussian initialisation (``"lazy (gaussian), <block>"``: nonzero
    initial output, outside case 2 of eq. (29)).  The lazy width is ``lazy_width``."""
    lazy_width = nb.check_int("lazy_width", lazy_width)
    out = {}
    for row in table_1():
        s = row["scaling"]
        block = _SHORT_BLOCKS[row["block"]]
        width = lazy_width if s.c_d == 0 else 1
        out[f"{row['column']}, {block}"] = PhaseCase(f"{row['column']}, {block}", s,
                                                     row["printed"], width)  # fmt: skip
        if s.zero_initial_output:
            g = Scaling(*(getattr(s, k) for k in _EXPONENTS), zero_initial_output=False)
            name = f"{row['column']} (gaussian), {block}"
            out[name] = PhaseCase(name, g, "", width)
    return out


@dataclass(frozen=True)
class PhaseMeasurement:
    """A case measured at ``kappas`` (``widths``, ``seeds`` networks each): the fits,
    the measured phase, the predicted exponents, the phase from
    :func:`solvable.models.phases.xu_ziyin_phase`, and the raw results (one dict per kappa)."""

    case: PhaseCase
    kappas: tuple[float, ...]
    widths: tuple[int, ...]
    seeds: int
    t_c: ExponentFit
    ntk_change: ExponentFit
    phase: str
    predicted: PredictedExponents
    paper_phase: str
    results: tuple[dict, ...] = field(repr=False, default=())

    @property
    def agrees(self) -> bool:
        """The measured phase is the predicted one (and the two predictions agree)."""
        return self.phase == self.paper_phase == self.predicted.phase


def measure_phases(
    cases: Sequence[PhaseCase],
    kappas: Sequence[float],
    *,
    seeds: int = 8,
    seed: int = 0,
    executor: Any = None,
    cache_dir: str | os.PathLike | None = None,
    progress: bool = False,
    n_boot: int = 1000,
    **options: Any,
) -> list[PhaseMeasurement]:
    """Run every (case, kappa) point through :func:`run_sweep` (one sweep, so a cluster
    runs all at once), fit the exponents and classify each case.  ``options`` go into
    the points (see :func:`xu_ziyin_point`)."""
    if (isinstance(cases, (PhaseCase, str, bytes, Mapping))
            or not isinstance(cases, (Sequence, np.ndarray))
            or not all(isinstance(c, PhaseCase) for c in cases)):  # fmt: skip
        raise TypeError(f"cases must be a list of PhaseCase, got {nb.describe(cases)}")
    ks = [_kappa(i, k) for i, k in enumerate(_listed("kappas", kappas))]
    options = {k: _json_numbers(k, v) for k, v in options.items()}
    if len(ks) < 2 or len(set(ks)) != len(ks):
        raise ValueError(f"kappas must hold >= 2 distinct values, got {kappas!r}")
    n_boot = _check_boot(n_boot)
    points = [c.point(k, seeds=seeds, seed=seed, **options) for c in cases for k in ks]
    for p in points:  # every point's options, before anything runs
        _point_options(p)
    results = run_sweep(xu_ziyin_point, points, cache_dir=cache_dir, version=XU_ZIYIN_VERSION,
                        executor=executor, progress=progress)  # fmt: skip
    out = []
    for j, case in enumerate(cases):
        rs = results[j * len(ks) : (j + 1) * len(ks)]
        t_fit = fit_exponent(ks, [r["t_c"] for r in rs], n_boot=n_boot, seed=seed)
        k_fit = fit_exponent(ks, [r["ntk_change"] for r in rs], n_boot=n_boot, seed=seed)
        out.append(PhaseMeasurement(
            case=case, kappas=tuple(ks), widths=tuple(r["d"] for r in rs), seeds=seeds,
            t_c=t_fit, ntk_change=k_fit, phase=classify(t_fit, k_fit),
            predicted=case.predicted(), paper_phase=case.paper_phase(), results=tuple(rs),
        ))  # fmt: skip
    return out
