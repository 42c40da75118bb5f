"""Running the claim registry for ``solvable verify``: a proof cache across runs and
independent claims checked in parallel worker processes.

* the proof cache (:class:`~solvable.verification.proof_cache.ProofCache`, re-exported here): proved
  symbolic verdicts on disk, authenticated by an HMAC under a per-user secret
  (:mod:`solvable.verification.proof_cache`).
* :func:`run`: checks the selected claims, the cached ones from the cache, the others in
  this process (``jobs=1``) or in ``jobs`` spawned worker processes (one torch / BLAS
  thread each, so N workers use N cores).  Claims that share in-process caches stay in one
  task: a task is every claim of one model module and one kind (:func:`group_of`), e.g. the
  seed-004 confirmations that reuse trained phase points.  A worker that dies (a crash in
  native code, ``os._exit``, the kernel's OOM killer) fails the claim it was checking, with
  the exit code; the rest of its task goes to a fresh worker.  Outcomes come back in the
  order of the selection, whatever the order of completion.  Ctrl-C raises
  :class:`Interrupted`, which carries the outcomes finished so far.

* :func:`scale_out`: the :class:`numerics.scale_out.ScaleOut` of ``--full --executor
  --device`` (the paper-scale sweeps' executor, device, point cache in
  :func:`sweep_cache_dir` and progress bar), passed to the checks as the ``scale_out``
  verify option.

This module sits in the verification layer (it reads the registry); nothing in the models
or in :mod:`numerics` imports it.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from numerics.scale_out import ScaleOut
from solvable._core.claims import Theorem, Verdict
from solvable.verification import theorems
from solvable.verification.proof_cache import (
    CACHE_ENV,
    ProofCache,
    default_cache_dir,
    source_digest,
    source_files,
)

__all__ = [
    "CACHE_ENV",
    "MAX_DEFAULT_JOBS",
    "Interrupted",
    "Outcome",
    "ProofCache",
    "ScaleOut",
    "default_cache_dir",
    "default_jobs",
    "group_of",
    "run",
    "scale_out",
    "source_digest",
    "source_files",
    "sweep_cache_dir",
]

# Workers by default: at most this many.  The heaviest task (seed 004's confirmations,
# which must stay together to share their trained networks) is about a third of the
# default run's CPU time, so a fifth worker cannot shorten the run, while each worker
# pays its own imports (about 2 s of CPU for sympy and the package, 2 s more for torch)
# and up to ~0.5 GB of memory.
MAX_DEFAULT_JOBS = 4
# Environment of the workers: one thread per BLAS / OpenMP pool (torch reads
# OMP_NUM_THREADS when it starts), so ``jobs`` workers keep to ``jobs`` cores.
_ONE_THREAD = {
    name: "1"
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                 "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")
}  # fmt: skip


# ---------------------------------------------------------------------------
# paper-scale sweeps: executor, device, point cache, progress
# ---------------------------------------------------------------------------
def sweep_cache_dir() -> Path:
    """Where the paper-scale sweeps cache their finished points: ``sweeps/`` under the
    proof cache's root (:func:`default_cache_dir`: ``$SOLVABLE_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/solvable``, else ``~/.cache/solvable``).  One JSON file per run,
    keyed by the run's settings (:func:`numerics.sweeps.point_key`); not created here."""
    return default_cache_dir() / "sweeps"


def scale_out(*, executor: str | None = None, device: str | None = None, cache: bool = True,
              progress: bool = False, max_width: int | None = None,
              max_seeds: int | None = None) -> ScaleOut:  # fmt: skip
    """The :class:`~numerics.scale_out.ScaleOut` of ``solvable verify --full`` / ``solvable
    figures --full``: ``executor`` (``None``, ``"local"`` or a dask scheduler address),
    ``device`` (``None``, ``"cpu"``, ``"cuda"``, ``"cuda:k"``: a CUDA device on a machine
    without one is a ``ValueError``), the point cache in :func:`sweep_cache_dir` unless
    ``cache`` is false, a progress bar on stderr when ``progress``, and the cap
    ``max_width`` / ``max_seeds`` (:class:`~numerics.scale_out.ScaleOut`)."""
    if not isinstance(cache, bool):
        raise TypeError(f"cache must be a bool, got {cache!r}")
    where = str(sweep_cache_dir()) if cache else None
    return ScaleOut(
        executor=executor,
        device=device,
        cache_dir=where,
        progress=progress,
        max_width=max_width,
        max_seeds=max_seeds,
    )


# ---------------------------------------------------------------------------
# running the claims
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """One checked claim: its :class:`Theorem`, the :class:`Verdict`, whether the verdict
    came from the proof cache (``seconds`` is then the lookup's), and the CPU seconds of
    the check in the process that ran it (``None`` when unknown: a dead worker)."""

    theorem: Theorem
    verdict: Verdict
    cached: bool = False
    cpu_seconds: float | None = None

    @property
    def label(self) -> str:
        """The status as the table shows it: ``"proved (cached)"`` for a cached proof."""
        return f"{self.verdict.status} (cached)" if self.cached else self.verdict.status


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run`: :attr:`outcomes` holds the claims finished before it, in
    the order of the selection (a ``KeyboardInterrupt``, so code that does not look for it
    stops as on any Ctrl-C)."""

    def __init__(self, outcomes: list[Outcome]) -> None:
        super().__init__("interrupted")
        self.outcomes = outcomes


def default_jobs() -> int:
    """The default number of workers: the CPUs this process may use, at most
    :data:`MAX_DEFAULT_JOBS` (see its comment)."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        n = os.cpu_count() or 1
    return max(1, min(n, MAX_DEFAULT_JOBS))


def group_of(thm: Theorem) -> tuple[str, str]:
    """The task a claim runs in: its model module (the id's prefix) and ``"symbolic"`` or
    ``"numeric"`` (a monitor runs with the numeric claims).  The confirmations and monitors
    of one model share their simulations through in-process caches (e.g.
    ``solvable.verification.confirmations.three_layer._point``, or the sweep that
    ``linearisation.theorem_1_monitored`` shares with the E(t) claims), so they run in one
    worker, in registry order."""
    return thm.id.split(".", 1)[0], "symbolic" if thm.kind == "symbolic" else "numeric"


Progress = Callable[[int, int, Outcome], None]


def run(claims: Sequence[Theorem], options: Mapping[str, Any] | None = None, *,
        jobs: int = 1, cache: ProofCache | None = None,
        on_start: Callable[[int, int, Theorem], None] | None = None,
        on_done: Progress | None = None) -> list[Outcome]:  # fmt: skip
    """Check ``claims`` and return one :class:`Outcome` each, in the order given.

    Parameters
    ----------
    claims : sequence of solvable.Theorem
        The claims (e.g. :func:`solvable.verification.theorems.select`).
    options : mapping, optional
        ``Theorem.verify`` options (``dps``, ``full``).
    jobs : int
        Worker processes; ``1`` checks in this process, in order.  Fewer are started when
        there are fewer tasks (:func:`group_of`) than ``jobs``.
    cache : ProofCache, optional
        Read and fill this proof cache (``None``: prove everything, store nothing).  Only
        the registry's own claims use it (a stand-in with a registered id never does).
    on_start, on_done : callable, optional
        Progress: ``on_start(k, n, theorem)`` before a claim is checked in this process
        (not for cached proofs, nor for claims sent to a worker), ``on_done(k, n,
        outcome)`` when the k-th claim (in order of completion) is finished.

    Returns
    -------
    list of Outcome

    Raises
    ------
    Interrupted
        On Ctrl-C (``KeyboardInterrupt``), with the outcomes finished so far; the workers
        are killed.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    options = dict(options or {})
    n = len(claims)
    outcomes: list[Outcome | None] = [None] * n
    finished = 0

    def done(index: int, outcome: Outcome) -> None:
        nonlocal finished
        outcomes[index] = outcome
        finished += 1
        if on_done is not None:
            on_done(finished, n, outcome)

    try:
        _check(claims, options, jobs, cache, on_start, done, lambda: finished)
    except KeyboardInterrupt:
        raise Interrupted([o for o in outcomes if o is not None]) from None
    assert all(o is not None for o in outcomes)
    return outcomes  # type: ignore[return-value]


def _check(claims: Sequence[Theorem], options: dict[str, Any], jobs: int,
           cache: ProofCache | None, on_start: Callable[[int, int, Theorem], None] | None,
           done: Callable[[int, Outcome], None],
           progress: Callable[[], int]) -> None:  # fmt: skip
    """The body of :func:`run`: the cached claims, then the others (in workers or here),
    each reported through ``done(index, outcome)``; ``progress()`` is how many are done."""
    n = len(claims)
    registered = {t.id: t for t in theorems.registry()}
    use_cache = [cache is not None and registered.get(t.id) is t for t in claims]
    todo: list[int] = []
    for i, thm in enumerate(claims):
        hit = None
        if use_cache[i]:
            start = time.perf_counter()
            hit = cache.get(thm)  # type: ignore[union-attr]
            lookup = time.perf_counter() - start
        if hit is not None:
            verdict = Verdict(hit.status, hit.detail, residuals=hit.residuals, seconds=lookup)
            done(i, Outcome(thm, verdict, cached=True, cpu_seconds=lookup))
        else:
            todo.append(i)

    def record(index: int, verdict: Verdict, cpu: float | None) -> None:
        if use_cache[index]:
            cache.put(claims[index], verdict)  # type: ignore[union-attr]
        done(index, Outcome(claims[index], verdict, cpu_seconds=cpu))

    groups: dict[tuple[str, str], list[int]] = {}
    for i in todo:
        groups.setdefault(group_of(claims[i]), []).append(i)
    workers = min(jobs, len(groups))
    local = todo
    if workers > 1:
        payloads, local = _payloads(claims, todo, registered)
        tasks = [[(i, payloads[i]) for i in g if i in payloads] for g in groups.values()]
        tasks = [t for t in tasks if t]
        # the heaviest first (numeric before symbolic, then the larger), so that the last
        # task to start is a short one
        tasks.sort(key=lambda t: (claims[t[0][0]].kind == "symbolic", -len(t)))
        _run_pool(tasks, options, min(workers, len(tasks)), record)
    for i in local:
        if on_start is not None:
            on_start(progress() + 1, n, claims[i])
        c0 = time.process_time()
        with _one_thread():
            verdict = claims[i].verify(**options)
        record(i, verdict, time.process_time() - c0)


def _payloads(claims: Sequence[Theorem], todo: Sequence[int],
              registered: Mapping[str, Theorem]) -> tuple[dict[int, Any], list[int]]:  # fmt: skip
    """What a worker gets per claim: the id of a registered claim (the worker looks it up
    in its own registry), else the pickled :class:`Theorem` (a check defined at module
    level); a claim that pickles neither way is checked in this process."""
    payloads: dict[int, Any] = {}
    local: list[int] = []
    for i in todo:
        thm = claims[i]
        if registered.get(thm.id) is thm:
            payloads[i] = thm.id
            continue
        try:
            pickle.dumps(thm)
        except Exception:  # a closure, a lambda, an unpicklable argument
            local.append(i)
        else:
            payloads[i] = thm
    return payloads, local


@contextlib.contextmanager
def _worker_environment() -> Iterator[None]:
    """One BLAS / OpenMP thread in the processes started inside the block (a spawned
    process copies ``os.environ`` when it starts); this process's own is restored."""
    saved = {k: os.environ.get(k) for k in _ONE_THREAD}
    os.environ.update(_ONE_THREAD)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    """A claim checked in this process gets the workers' thread policy: one torch thread
    (restored after the claim when torch was already loaded; a torch first loaded inside
    keeps one thread, from ``OMP_NUM_THREADS``).  Measured on the shared 2-core machine:
    ``piecewise_linear.rapid_feature_learning`` took 140 CPU s with torch's default two
    threads under load, 18 CPU s with one."""
    torch = sys.modules.get("torch")
    old = torch.get_num_threads() if torch is not None else None
    with _worker_environment():
        if torch is not None:
            torch.set_num_threads(1)
        try:
            yield
        finally:
            if torch is not None and old is not None:
                torch.set_num_threads(old)


class _Worker:
    """One spawned worker: its process, its end of the pipe, the claims of its current
    task not yet reported, and the one it is checking."""

    def __init__(self, ctx: Any, options: Mapping[str, Any]) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, dict(options)),
                                   name="solvable-verify", daemon=True)  # fmt: skip
        with _worker_environment():
            self.process.start()
        child.close()  # only the worker holds its end: its death reads as end of file
        self.pending: collections.deque[tuple[int, Any]] = collections.deque()
        self.current: int | None = None
        self.busy = False

    def give(self, task: list[tuple[int, Any]]) -> None:
        self.pending = collections.deque(task)
        self.current = None
        self.busy = True
        self.conn.send(task)

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)
        self.process.join(timeout=5)
        if self.process.is_alive():  # pragma: no cover - a worker stuck in native code
            self.process.kill()
            self.process.join()
        self.conn.close()


def _run_pool(tasks: list[list[tuple[int, Any]]], options: Mapping[str, Any], workers: int,
              record: Callable[[int, Verdict, float | None], None]) -> None:  # fmt: skip
    """Check ``tasks`` on ``workers`` spawned processes (module docstring), calling
    ``record(index, verdict, cpu_seconds)`` as each claim finishes."""
    ctx = multiprocessing.get_context("spawn")
    queue = collections.deque(tasks)
    pool: list[_Worker] = []
    interrupted = False
    try:
        while queue or any(w.busy for w in pool):
            while queue and (len(pool) < workers or any(not w.busy for w in pool)):
                idle = next((w for w in pool if not w.busy), None)
                if idle is None:
                    idle = _Worker(ctx, options)
                    pool.append(idle)
                idle.give(queue.popleft())
            busy = [w for w in pool if w.busy]
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
            for w in busy:
                if w.conn in ready or w.process.sentinel in ready:
                    if not _drain(w, record):
                        _buried(w, queue, record)
                        pool.remove(w)
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        for w in pool:
            if interrupted:  # Ctrl-C: no waiting for a claim to finish
                w.process.kill()
            w.stop()


def _drain(w: _Worker, record: Callable[[int, Verdict, float | None], None]) -> bool:
    """Read what ``w`` has sent; ``False`` when it is dead (end of file, a torn message,
    or its process has exited with everything read)."""
    try:
        while w.conn.poll():
            msg = w.conn.recv()
            if msg[0] == "start":
                w.current = msg[1]
            elif msg[0] == "done":
                _, index, verdict, cpu = msg
                w.current = None
                if w.pending and w.pending[0][0] == index:
                    w.pending.popleft()
                else:  # pragma: no cover - the protocol keeps the task's order
                    w.pending = collections.deque(p for p in w.pending if p[0] != index)
                record(index, verdict, cpu)
            elif msg[0] == "idle":
                w.busy = False
    except (EOFError, OSError, pickle.UnpicklingError, ValueError, TypeError):
        return False
    return w.process.exitcode is None


def _buried(w: _Worker, queue: collections.deque[list[tuple[int, Any]]],
            record: Callable[[int, Verdict, float | None], None]) -> None:  # fmt: skip
    """A worker died: the claim it was checking fails (with the exit code), the rest of
    its task goes first in the queue, for a fresh worker."""
    w.process.join(timeout=5)
    code = w.process.exitcode
    with contextlib.suppress(OSError):
        w.conn.close()
    why = _exit_text(code)
    if w.current is not None:
        index = w.current
        w.pending = collections.deque(p for p in w.pending if p[0] != index)
        record(index, Verdict("failed", f"the worker process died while checking this "
                                        f"claim ({why})"), None)  # fmt: skip
    elif w.pending:
        # died between two claims: the next one is blamed so that the run cannot loop
        index, _ = w.pending.popleft()
        record(index, Verdict("failed", f"the worker process died before this claim "
                                        f"started ({why})"), None)  # fmt: skip
    if w.pending:
        queue.appendleft(list(w.pending))
    w.busy = False


def _exit_text(code: int | None) -> str:
    if code is None:
        return "exit code unknown"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _worker_main(conn: Connection, options: dict[str, Any]) -> None:
    """A worker's loop: receive a task (a list of ``(index, payload)``), check each claim,
    send ``("start", index)``, ``("done", index, verdict, cpu_seconds)`` per claim and
    ``("idle",)`` after the task; ``None`` or end of file ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        torch = sys.modules.get("torch")
        if torch is not None:  # imported before OMP_NUM_THREADS could apply
            torch.set_num_threads(1)
        registered: dict[str, Theorem] | None = None
        while True:
            try:
                task = conn.recv()
            except EOFError:
                return
            if task is None:
                return
            for index, payload in task:
                conn.send(("start", index))
                c0 = time.process_time()
                if isinstance(payload, Theorem):
                    thm: Theorem | None = payload
                else:
                    if registered is None:
                        registered = {t.id: t for t in theorems.registry()}
                    thm = registered.get(payload)
                if thm is None:
                    verdict = Verdict("failed", f"claim {payload!r} is not in the worker's "
                                                f"registry")  # fmt: skip
                else:
                    verdict = thm.verify(**options)
                cpu = time.process_time() - c0
                try:
                    conn.send(("done", index, verdict, cpu))
                except Exception:  # residuals that do not pickle
                    v = verdict
                    bare = Verdict(v.status, v.detail, v.max_error, v.tolerance, (), v.seconds)
                    conn.send(("done", index, bare, cpu))
            conn.send(("idle",))
    except (BrokenPipeError, ConnectionResetError):  # the parent is gone
        return
