"""Import times of the package, and what its pytest plugin adds to a pytest run, each in a
fresh interpreter (the targets of issue 30: ``import solvable`` and ``import numerics``
under 0.5 s; the plugin adds under 0.2 s to a run that uses none of its fixtures).

Run (from the repository root)::

    python benchmarks/import_times.py            # best and median of 7 runs each
    python benchmarks/import_times.py --runs 15

Printed: a markdown table (what, best, median) and the load average before and after (the
machine may be shared: compare rows of one run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = {
    "import solvable": "import solvable",
    "import numerics": "import numerics",
    "import solvable; solvable.MODELS (every model)": "import solvable; solvable.MODELS",
    "import solvable.testing (the oracle)": "import solvable.testing",
}


def _seconds(argv: list[str], cwd: str | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd=cwd)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"# load average before: {os.getloadavg()[0]:.2f}; Python {sys.version.split()[0]}")
    rows = []
    base = [_seconds([sys.executable, "-c", "pass"]) for _ in range(args.runs)]
    rows.append(("python -c pass (the interpreter alone)", base))
    for label, code in CASES.items():
        rows.append((label, [_seconds([sys.executable, "-c", code]) for _ in range(args.runs)]))
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
        common = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                  "-p", "no:randomly", "-p", "no:xdist", "test_one.py"]  # fmt: skip
        with_plugin, without = [], []
        for _ in range(args.runs):  # alternated, so that a change of load hits both
            with_plugin.append(_seconds(common, cwd=tmp))
            without.append(_seconds([*common, "-p", "no:solvable"], cwd=tmp))
    rows.append(("pytest, one test, with the solvable plugin", with_plugin))
    rows.append(("pytest, one test, -p no:solvable", without))
    print("| what | best (s) | median (s) |")
    print("| --- | --- | --- |")
    for label, times in rows:
        print(f"| {label} | {min(times):.3f} | {statistics.median(times):.3f} |")
    added = [a - b for a, b in zip(with_plugin, without, strict=True)]
    print(f"\nthe plugin adds: median {statistics.median(added):+.3f} s per pytest run")
    print(f"# load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
