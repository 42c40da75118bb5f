"""Command line: ``solvable verify``, ``solvable errata``, ``solvable phases`` and
``solvable figures``."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO, get_args

import solvable
from numerics import scale_out as so
from solvable._core import numbers as nb
from solvable._core.claims import Status
from solvable._core.papers import PAPERS, cite
from solvable.verification import figures, theorems, verify_runner
from solvable.verification.errata import ERRATA

try:
    import resource
except ImportError:  # pragma: no cover - Windows: no getrusage, this process's CPU only
    resource = None  # type: ignore[assignment]

__all__ = ["main"]


def _fmt_err(err: float | None) -> str:
    if err is None:
        return "-"
    if math.isinf(err) or math.isnan(err):
        return str(err)
    return f"{err:.2e}"


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)), line]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)


def _verify(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    selected = theorems.select(args.only)
    if not selected:
        print(f"no claim matches --only {args.only!r}", file=err)
        return 2
    options: dict[str, object] = {} if args.dps is None else {"dps": args.dps}
    if args.full:
        options["full"] = True
        options["scale_out"] = _scale_out(args, err)
    jobs = verify_runner.default_jobs() if args.jobs is None else args.jobs
    cache = None if args.no_cache else verify_runner.ProofCache()
    n = len(selected)
    width = len(str(n))

    open_line: list[str] = []  # the id whose progress line awaits its status

    def on_start(k: int, n: int, thm: theorems.Theorem) -> None:
        # a claim checked in this process: its id first, its status when done (as before)
        print(f"[{k:>{width}}/{n}] {thm.id} ...", end="", file=err, flush=True)
        open_line.append(thm.id)

    def on_done(k: int, n: int, o: verify_runner.Outcome) -> None:
        when = "" if o.cached else f" ({o.verdict.seconds:.2f} s)"
        if open_line and open_line[-1] == o.theorem.id:
            open_line.clear()
            print(f" {o.label}{when}", file=err, flush=True)
        else:  # a cached proof, or a claim checked by a worker: one line when done
            print(f"[{k:>{width}}/{n}] {o.theorem.id} ... {o.label}{when}", file=err,
                  flush=True)  # fmt: skip

    start = time.perf_counter()
    cpu0 = _cpu_seconds()
    interrupted = False
    try:
        results = verify_runner.run(
            selected, options, jobs=jobs, cache=cache,
            on_start=on_start, on_done=on_done,
        )  # fmt: skip
    except verify_runner.Interrupted as stop:
        # Ctrl-C: the claims finished so far are still reported, then exit 130 (128 + SIGINT)
        results, interrupted = stop.outcomes, True
        print(f"\ninterrupted: {len(results)} of {n} claims finished", file=err, flush=True)
    total = time.perf_counter() - start
    cpu = _cpu_seconds() - cpu0
    if cache is not None and cache.disabled is not None:
        print(f"warning: {cache.disabled}; every claim was checked", file=err)
    if cache is not None and cache.write_error is not None:
        print(f"warning: proofs not cached in {cache.directory}: {cache.write_error}", file=err)
    rows = [
        [
            o.theorem.id,
            cite(o.theorem.source),
            o.label,
            _fmt_err(o.verdict.max_error),
            f"{o.verdict.seconds:.2f}",
        ]
        for o in results
    ]
    header = ["id", "source (paper, place)", "status", "max error", "time (s)"]
    print(_table(rows, header), file=out)
    counts = _counts(results)
    cached = sum(o.cached for o in results)
    print(f"\n{_summary(counts, cached)} in {total:.1f} s ({cpu:.1f} CPU s, {jobs} job"
          f"{'s' * (jobs > 1)})", file=out)  # fmt: skip
    for o in results:
        if o.verdict.status == "observed":
            print(f"observed, not counted: {o.theorem.id}: {o.theorem.reason}", file=out)
    for o in results:
        if not o.verdict.ok:
            print(f"FAILED {o.theorem.id}: {o.verdict.detail}", file=out)
    if args.json:
        payload = {
            "seconds": total,
            "cpu_seconds": cpu,
            "jobs": jobs,
            "cache": None if cache is None else str(cache.directory),
            "counts": counts,
            "interrupted": interrupted,
            "results": [
                {
                    "id": o.theorem.id,
                    "source": o.theorem.source,
                    "paper": cite(o.theorem.source.split(" ", 1)[0]),
                    "statement": o.theorem.statement,
                    "kind": o.theorem.kind,
                    "status": o.verdict.status,
                    "counted": o.verdict.counted,
                    "reason": o.theorem.reason or None,
                    "cached": o.cached,
                    "max_error": o.verdict.max_error,
                    "tolerance": None if o.verdict.tolerance is None else vars(o.verdict.tolerance),
                    "detail": o.verdict.detail,
                    "seconds": o.verdict.seconds,
                    "cpu_seconds": o.cpu_seconds,
                }
                for o in results
            ],
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, indent=2)
    if interrupted:
        print("interrupted", file=out)
        return 130
    return 1 if counts["failed"] else 0


def _counts(results: Sequence[verify_runner.Outcome]) -> dict[str, int]:
    """The number of outcomes per status (every status of :data:`solvable._core.claims.Status`,
    zeros included)."""
    return {s: sum(o.verdict.status == s for o in results) for s in get_args(Status)}


def _summary(counts: dict[str, int], cached: int) -> str:
    """The summary line's counts: proved and confirmed are the verifications; observed
    claims (monitors outside their theorem's hypotheses) are listed apart, not counted,
    and only when there are any."""
    text = (f"{counts['proved']} proved ({cached} cached), {counts['confirmed']} confirmed, "
            f"{counts['failed']} failed")  # fmt: skip
    if counts["observed"]:
        text += f"; {counts['observed']} observed (not counted: outside the theorem's hypotheses)"
    return text


def _cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of its finished children (the
    workers of ``--jobs``, once joined)."""
    if resource is None:  # pragma: no cover
        return time.process_time()
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _errata(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    rows, details, bad = [], [], 0
    for k, e in enumerate(ERRATA, 1):
        printed, corrected = e.residuals()
        ok = e.judge(printed, corrected)
        bad += not ok
        kind = "" if e.changes_math else " (minor)"
        rows.append(
            [
                str(k),
                cite(e.source.split(" ", 1)[0]),  # the paper (or the source's first word)
                e.equation + kind,
                "passes" if ok else "FAILS",
                _short(printed),
                _short(corrected),
            ]
        )
        details.append(
            f"[{k}] {cite(e.source)}, {e.equation}\n    printed:   {e.paper}\n"
            f"    corrected: {e.corrected}\n    why:       {e.explanation}\n"
        )
    header = ["#", "paper", "equation", "check", "printed residual", "corrected residual"]
    print(_table(rows, header), file=out)
    print(file=out)
    print("\n".join(details), file=out)
    print(f"{len(ERRATA)} errata, {len(ERRATA) - bad} checks pass", file=out)
    return 1 if bad else 0


def _phases(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Print the papers' tables that the models recompute (``MODEL.tables``), computed
    from the package (not retyped)."""
    tables = [m.tables for m in solvable.MODELS if m.tables is not None]
    for k, table in enumerate(tables):
        if k:
            print(file=out)
        print(table(), file=out)
    return 0


def _papers(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """The source papers: short citation (what every output prints), seed, reference."""
    rows = [[p.short, p.seed, p.reference] for p in PAPERS]
    print(_table(rows, ["paper", "seed", "reference"]), file=out)
    return 0


def _figures(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``--list``: one line per figure (id, paper, label, title); otherwise render the
    ``--only`` figures (default: all) into ``--out``.  An unknown id exits 2 with the list."""
    try:
        chosen = figures.select(args.only)
    except ValueError as exc:
        print(f"solvable figures: {exc}", file=err)
        return 2
    if args.list:
        for fig in chosen:
            print(fig.line(), file=out)
        return 0
    start = time.perf_counter()
    try:
        scale = _scale_out(args, err) if args.full else None
        paths = figures.render([f.id for f in chosen], args.out, full=args.full, progress=True,
                               scale_out=scale)  # fmt: skip
    except ImportError as exc:  # an optional dependency (matplotlib, torch): one line, exit 1
        print(f"solvable figures: {exc}", file=err)
        return 1
    for path in paths:
        print(path, file=out)
    print(f"{len(chosen)} figure(s), {len(paths)} files in {time.perf_counter() - start:.1f} s",
          file=out)  # fmt: skip
    return 0


def _scale_out(args: argparse.Namespace, err: TextIO) -> so.ScaleOut:
    """The paper-scale sweeps' settings of ``--full``: ``--executor``, ``--device``, the
    point cache (``sweeps/`` under the proof cache; none with ``--no-cache``) and a progress
    bar on stderr when it is a terminal or ``--progress`` asks for one."""
    progress = bool(args.progress) or (hasattr(err, "isatty") and err.isatty())
    scale = verify_runner.scale_out(executor=args.executor, device=args.device,
                                    cache=not getattr(args, "no_cache", False),
                                    progress=progress, max_width=args.max_width,
                                    max_seeds=args.max_seeds)  # fmt: skip
    if scale.capped:
        print(scale.describe(), file=err)
    return scale


def _executor(text: str) -> str:
    """``--executor``: ``local`` or a dask scheduler address (``tcp://host:8786``)."""
    try:
        return so.check_executor(text)  # type: ignore[return-value]
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(
            f"--executor must be 'local' (a dask LocalCluster on this machine) or a dask "
            f"scheduler address such as 'tcp://host:8786', got {text!r}") from None  # fmt: skip


def _device(text: str) -> str:
    """``--device``: ``cpu``, ``cuda`` or ``cuda:k``; CUDA on a machine without it is
    refused here (exit code 2), before any claim or figure runs."""
    try:
        return so.check_device(text)  # type: ignore[return-value]
    except (TypeError, ValueError) as exc:
        if so.DEVICE_PATTERN.fullmatch(text):  # a valid name this machine cannot run
            raise argparse.ArgumentTypeError(f"--device {exc}") from None
        raise argparse.ArgumentTypeError(
            f"--device must be 'cpu', 'cuda' or 'cuda:k', got {text!r}") from None  # fmt: skip


def _cap(option: str, low: int) -> Any:
    """The parser of ``--max-width`` / ``--max-seeds``: an integer >= ``low``."""

    def parse(text: str) -> int:
        if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) < low:
            raise argparse.ArgumentTypeError(f"{option} must be an integer >= {low}, got "
                                             f"{text!r:.40}")  # fmt: skip
        return int(text)

    return parse


def _add_scale_out(parser: argparse.ArgumentParser) -> None:
    """``--executor``, ``--device``, ``--max-width``, ``--max-seeds`` and ``--progress``
    (with ``--full``)."""
    parser.add_argument("--executor", type=_executor, default=None, metavar="WHERE",
                        help="with --full: run the sweeps' points on a dask cluster: 'local' "
                        "(a LocalCluster, one worker per core) or a scheduler address "
                        "such as tcp://host:8786 (default: in this process)")  # fmt: skip
    parser.add_argument("--device", type=_device, default=None, metavar="DEVICE",
                        help="with --full: torch device of the sweeps, 'cpu', 'cuda' or "
                        "'cuda:k' (default: CUDA where available)")  # fmt: skip
    parser.add_argument("--max-width", type=_cap("--max-width", 1), default=None,
                        metavar="M", help="with --full: only the paper's widths up to M "
                        "(the largest size that fits this machine; not the paper's scale, "
                        "and the report says so)")  # fmt: skip
    parser.add_argument("--max-seeds", type=_cap("--max-seeds", 3), default=None,
                        metavar="K", help="with --full: only the first K of the paper's "
                        "seeds (K >= 3: a slope's error is taken over the seeds, and with 2 "
                        "the 95%% interval is 12.7 standard errors)")  # fmt: skip
    parser.add_argument("--progress", action="store_true",
                        help="with --full: a progress bar on stderr (points done, time "
                        "left) even when stderr is not a terminal")  # fmt: skip


def _needs_full(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--executor``/``--device``/``--progress`` only act on ``--full``: an error without it
    (usage on stderr, exit code 2), rather than an option silently ignored."""
    given = [f"--{k.replace('_', '-')}" for k in ("executor", "device", "max_width", "max_seeds")
             if getattr(args, k) is not None]  # fmt: skip
    given += ["--progress"] * bool(args.progress)
    if given and not args.full:
        parser.error(f"{', '.join(given)}: only with --full (they set how the paper-scale "
                     f"sweeps run)")  # fmt: skip


def _short(expr: object, width: int = 30) -> str:
    text = str(expr)
    return text if len(text) <= width else text[: width - 3] + "..."


def _dps(text: str) -> int:
    """``--dps``: an integer from ``VERIFY_MIN_DPS`` (30, the default: the claims' tolerances
    are validated from there up) to ``MAX_DPS`` (what every claim accepts; argparse reports
    the ``ArgumentTypeError``, exit code 2, before any claim runs)."""
    try:
        value = int(text.strip())
    except ValueError:
        value = None
    if value is None or not nb.VERIFY_MIN_DPS <= value <= nb.MAX_DPS:
        raise argparse.ArgumentTypeError(
            f"--dps must be an integer >= {nb.VERIFY_MIN_DPS} (the claims' tolerances are "
            f"validated from there up) and <= {nb.MAX_DPS}, got {text!r}")  # fmt: skip
    return value


def _jobs(text: str) -> int:
    """``--jobs``: an integer >= 1 (argparse reports the ``ArgumentTypeError``, exit
    code 2)."""
    try:
        value = int(text.strip())
    except ValueError:
        value = None
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(f"--jobs must be an integer >= 1, got {text!r}")
    return value


def _json_path_problem(path: str) -> str | None:
    """Why ``--json path`` cannot be written, or ``None``: checked before any claim runs, so
    a typo does not cost a full run and a traceback at the end."""
    if not path or "\0" in path:  # "" would be the working folder; a NUL no OS path holds
        return f"--json must name a file, got {path!r}"
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        return f"--json must name a file, got the directory {path!r}"
    if not os.path.isdir(folder):
        return f"--json: the directory {folder!r} of {path!r} does not exist"
    if not os.access(folder, os.W_OK) or (
        os.path.exists(target) and not os.access(target, os.W_OK)
    ):
        return f"--json: {path!r} is not writable"
    return None


def _out_dir_problem(path: str) -> str | None:
    """Why ``figures --out path`` cannot hold the figures, or ``None``: checked before any
    figure is computed (a file, or a folder that cannot be written or made; "" would be the
    working folder, 36 files dropped there, and a NUL is in no path)."""
    if not path or "\0" in path:
        return f"--out must name a directory, got {path!r}"
    target = os.path.abspath(path)
    if os.path.exists(target):
        if not os.path.isdir(target):
            return f"--out must name a directory, got the file {path!r}"
        if not os.access(target, os.W_OK | os.X_OK):
            return f"--out: the directory {path!r} is not writable"
        return None
    parent = target  # the nearest existing ancestor must be a writable directory
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        return f"--out: {parent!r}, a parent of {path!r}, is a file"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"--out: {path!r} cannot be made ({parent!r} is not writable)"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``solvable`` console script."""
    parser = argparse.ArgumentParser(
        prog="solvable", description="Check the exact theory of lazy vs rich training."
    )
    parser.add_argument("--version", action="version",
                        version=f"%(prog)s {solvable.__version__}")  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("verify", help="run every registered verification")
    v.add_argument("--only", metavar="PATTERN", help="glob or substring of claim ids")
    v.add_argument("--dps", type=_dps, default=None,
                   help="digits for numeric checks (>= 30, the default)")  # fmt: skip
    v.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    v.add_argument(
        "--full",
        action="store_true",
        help="run the full width / sample sweeps of the simulation-backed checks (minutes)",
    )
    v.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help=f"worker processes (default: the CPUs available, at most "
        f"{verify_runner.MAX_DEFAULT_JOBS}; 1: in this process, in order)",
    )
    v.add_argument(
        "--no-cache",
        action="store_true",
        help="prove every symbolic claim again and run every sweep point again, and store "
        "nothing (default: proofs, and with --full the sweeps' points in sweeps/, are "
        f"cached in ${verify_runner.CACHE_ENV}, else $XDG_CACHE_HOME/solvable or "
        "~/.cache/solvable, keyed by a hash of the package source and authenticated by "
        "an HMAC under a per-user secret in ~/.config/solvable; see docs/proof_cache.md)",
    )
    _add_scale_out(v)
    sub.add_parser("errata", help="list every disagreement with the papers, with its check")
    sub.add_parser("phases", help="print the papers' phase tables, computed")
    sub.add_parser("papers", help="list the source papers: short citation, seed, reference")
    f = sub.add_parser(
        "figures", help="list or render the papers' figures (theory over simulation)"
    )
    f.add_argument("--list", action="store_true", help="list the figures: id, paper, label, title")
    f.add_argument("--only", nargs="+", metavar="ID", help="figure ids to render (default: all)")
    f.add_argument("--out", metavar="DIR", help="directory for <id>.png and <id>.svg")
    f.add_argument("--full", action="store_true",
                   help="the paper's sizes (minutes to hours; CUDA where available)")  # fmt: skip
    f.add_argument("--no-cache", action="store_true",
                   help="with --full: run every sweep point again and store none (default: "
                   "cached in sweeps/ under the proof cache, so a rerun resumes)")  # fmt: skip
    _add_scale_out(f)
    args = parser.parse_args(argv)
    if args.command in ("verify", "figures"):
        _needs_full(v if args.command == "verify" else f, args)
    if args.command == "figures" and not args.list and args.out is None:
        f.error("--out DIR is required unless --list is given")  # usage on stderr, exit 2
    if args.command == "figures" and not args.list:
        problem = _out_dir_problem(args.out)
        if problem is not None:
            f.error(problem)
    if args.command == "verify" and args.json is not None:
        problem = _json_path_problem(args.json)
        if problem is not None:
            v.error(problem)  # usage + message on stderr, SystemExit(2)
    handler = {"verify": _verify, "errata": _errata, "phases": _phases, "papers": _papers,
               "figures": _figures}[args.command]  # fmt: skip
    try:
        return handler(args, sys.stdout, sys.stderr)
    except BrokenPipeError:  # the reader left (``solvable errata | head``): no traceback
        # (Python's advice: point stdout at devnull, so the flush at exit does not fail too)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a command its reader left


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
