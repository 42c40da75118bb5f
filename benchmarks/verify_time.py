"""Wall and CPU seconds of ``solvable verify`` with ``--jobs 1`` / ``--jobs 2`` and a cold /
warm proof cache (the target: the default run under 60 CPU seconds).

Run:  python benchmarks/verify_time.py [--only PATTERN] [--jobs 1 2] [--top 15]

Each configuration runs ``python -m solvable.verification.cli verify --jobs N --json ...`` as a
child
process.  CPU seconds are the child's user + system time with its own children (the
workers) included: ``resource.getrusage(RUSAGE_CHILDREN)`` before and after (the children
run one at a time, so the difference is that run's).  A cold run starts from an empty
cache directory (``SOLVABLE_CACHE_DIR`` set to a fresh temporary folder): every symbolic
claim is proved and stored; the warm run that follows reuses that folder.  Numeric claims
run in every configuration.  The table is printed with the ``--top`` claims by CPU seconds
of the first cold run (from the ``--json`` report's ``cpu_seconds``).

Figures on a shared machine are inflated by its load: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_verify(jobs: int, cache: Path, only: str | None, report: Path) -> dict[str, object]:
    """One ``solvable verify`` run: wall and CPU seconds, the counts, the JSON report."""
    cmd = [sys.executable, "-m", "solvable.verification.cli", "verify", "--jobs", str(jobs),
           "--json", str(report)]  # fmt: skip
    if only:
        cmd += ["--only", only]
    env = {**os.environ, "SOLVABLE_CACHE_DIR": str(cache)}
    cpu0, t0 = _cpu_children(), time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, check=False)  # fmt: skip
    wall, cpu = time.perf_counter() - t0, _cpu_children() - cpu0
    data = json.loads(report.read_text()) if report.exists() else {"results": []}
    results = data["results"]
    return {
        "rc": proc.returncode,
        "wall": wall,
        "cpu": cpu,
        "claims": len(results),
        "proved": sum(r["status"] == "proved" for r in results),
        "cached": sum(bool(r.get("cached")) for r in results),
        "confirmed": sum(r["status"] == "confirmed" for r in results),
        "failed": sum(r["status"] == "failed" for r in results),
        "results": results,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="passed to solvable verify --only (default: all)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--top", type=int, default=15, help="claims listed by CPU seconds")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# solvable verify{' --only ' + args.only if args.only else ''}: "
          f"{os.cpu_count()} CPUs, load average {load:.2f} at the start")  # fmt: skip
    rows, first = [], None
    with tempfile.TemporaryDirectory(prefix="verify-time-") as tmp:
        for jobs in args.jobs:
            cache = Path(tmp) / f"cache-jobs{jobs}"  # empty: a cold start
            for state in ("cold", "warm"):
                report = Path(tmp) / f"jobs{jobs}-{state}.json"
                r = run_verify(jobs, cache, args.only, report)
                first = first or r
                rows.append((jobs, state, r))
                print(f"  --jobs {jobs} {state}: {r['wall']:.1f} s wall, {r['cpu']:.1f} CPU s, "
                      f"exit {r['rc']}", file=sys.stderr, flush=True)  # fmt: skip
    head = ("jobs", "cache", "wall (s)", "CPU (s)", "CPU/wall", "claims", "proved (cached)",
            "confirmed", "failed", "exit")  # fmt: skip
    table = [
        (str(j), s, f"{r['wall']:.1f}", f"{r['cpu']:.1f}", f"{r['cpu'] / r['wall']:.2f}",
         str(r["claims"]), f"{r['proved']} ({r['cached']})", str(r["confirmed"]),
         str(r["failed"]), str(r["rc"]))
        for j, s, r in rows
    ]  # fmt: skip
    widths = [max(len(x) for x in col) for col in zip(head, *table, strict=True)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for line in table:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) + " |")
    if first and first["results"] and args.top > 0:
        res = sorted(first["results"], key=lambda r: -(r.get("cpu_seconds") or 0.0))
        total = sum(r.get("cpu_seconds") or 0.0 for r in res)
        by_kind = {k: sum(r.get("cpu_seconds") or 0.0 for r in res if r["kind"] == k)
                   for k in ("symbolic", "numeric")}  # fmt: skip
        print(f"\nfirst cold run: claims' own CPU {total:.1f} s (symbolic "
              f"{by_kind['symbolic']:.1f}, numeric {by_kind['numeric']:.1f}); "
              f"the {args.top} heaviest:")  # fmt: skip
        for r in res[: args.top]:
            print(f"  {r.get('cpu_seconds') or 0.0:7.2f} CPU s  {r['seconds']:7.2f} s  "
                  f"{r['kind']:8s}  {r['id']}")  # fmt: skip
    return 0 if all(r["rc"] == 0 for _, _, r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
