"""Confirm the survivors of a sampled mutation run against the whole default suite.

``benchmarks/mutation_sample.py exec`` runs each mutant against the tests that cover its line (a
coverage map with per-test contexts): fast, but a line that runs once per process is credited only
to the test that ran it first. Lexically cached functions are handled there
(:func:`mutation_sample.in_cached_function`), but not a line whose caller caches: the seed-13 run
had a survivor in ``xu_ziyin.laws()`` (``w0[0]/x[0] - w0[1]/x[1]`` -> ``+``), a body the cached
registry runs once, credited to ``tests/test_extension.py`` only, while ``tests/test_registry.py``
kills it. A mutant survives the suite only if the whole suite passes, so every survivor is run once
more against all of it::

    python benchmarks/mutation_sample.py --workspace W exec ...      # as before
    python benchmarks/mutation_confirm.py --workspace W               # then this
    python benchmarks/mutation_sample.py --workspace W report

For each surviving or not-covered mutant (not those listed as equivalent) the mutation is applied to
the workspace's snapshot (cosmic-ray's ``use_mutation``, which restores the file afterwards) and the
default suite runs there (the snapshot's ``addopts``: two workers, markers ``not slow and not
gpu and not docs``; stopped at the first assertion failure), classified by ``exec``'s own
:func:`mutation_sample.classify` (an assertion failure kills; another failure is a crash kill;
pytest's usage or internal error leaves the mutant a survivor, with the error noted). A killed
mutant's stored result becomes a kill whose verdict says ``"selection": "full suite"``; a confirmed
survivor's verdict gets ``"confirmed": "full suite"``. A run past ``--limit`` seconds (default 3600)
leaves the mutant a survivor (a timeout is not taken for a kill here). Rerunning skips mutants
already confirmed."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def _load(name: str) -> Any:
    path = Path(__file__).with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


ms = _load("mutation_sample")


def full_suite(snapshot: Path, workspace: Path, limit: float) -> dict[str, Any]:
    """Run the default suite in ``snapshot`` (as mutated now): the verdict's fields."""
    xml, log = workspace / "confirm-junit.xml", workspace / "confirm.log"
    xml.unlink(missing_ok=True)
    # no -x: the mutation plugin stops at the first assertion failure (a crash must not
    # hide an assertion that a later test would fail)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           "-p", "mutation", "-o", "junit_family=xunit1", f"--junitxml={xml}"]  # fmt: skip
    start = time.monotonic()
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=snapshot, env=ms.environment(snapshot), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        try:
            rc: int | None = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            rc = None
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
    seconds = round(time.monotonic() - start, 1)
    if rc is None:
        return {"verdict": "survived", "confirmed": f"not finished in {limit:.0f} s",
                "confirm_seconds": seconds}  # fmt: skip
    found = ms.classify(xml, log, rc)
    if found["verdict"] == "killed":
        return {**found, "selection": "full suite", "confirm_seconds": seconds}
    confirmed = "full suite" if found["verdict"] == "survived" else found["detail"]
    return {"verdict": "survived", "confirmed": confirmed, "confirm_seconds": seconds}


def confirm(workspace: Path, limit: float) -> int:
    from cosmic_ray.mutating import use_mutation
    from cosmic_ray.plugins import get_operator
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkResult

    equivalents = ms.load_equivalents()
    snapshot = workspace / "snapshot"
    os.chdir(snapshot)  # the session's module paths are relative to it
    with use_db(str(workspace / "session.sqlite"), WorkDB.Mode.open) as db:
        results = dict(db.results)
        items = {item.job_id: item for item in db.work_items}
        rows = [r for r in ms.collect(db, equivalents)
                if r.outcome in ("survived", "not covered")
                and "confirmed" not in r.verdict]  # fmt: skip
        for k, row in enumerate(rows, 1):
            (m,) = items[row.mutant.job_id].mutations
            print(f"[{k}/{len(rows)}] {row.mutant.key} ...", end="", file=sys.stderr,
                  flush=True)  # fmt: skip
            operator = get_operator(m.operator_name)(**m.operator_args)
            with use_mutation(Path(m.module_path), operator, m.occurrence) as (_, mutated):
                if mutated is None:
                    print(" no mutation applied: left as it is", file=sys.stderr)
                    continue
                found = full_suite(snapshot, workspace, limit)
            verdict = {**row.verdict, **found}
            old = results[row.mutant.job_id]
            outcome = TestOutcome.KILLED if found["verdict"] == "killed" else old.test_outcome
            output = (old.output or "") + f"\n{ms.VERDICT_TAG} {json.dumps(verdict)}\n"
            new = WorkResult(worker_outcome=old.worker_outcome, output=output,
                             test_outcome=outcome, diff=old.diff)  # fmt: skip
            db.set_result(row.mutant.job_id, new)
            print(f" {found['verdict']} ({found['confirm_seconds']:.0f} s)", file=sys.stderr,
                  flush=True)  # fmt: skip
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--workspace", type=Path, default=ms.DEFAULT_WORKSPACE)
    parser.add_argument("--limit", type=float, default=3600.0,
                        help="seconds for one full-suite run (default 3600)")  # fmt: skip
    args = parser.parse_args(argv)
    if not args.limit > 0:
        parser.error(f"--limit must be > 0, got {args.limit}")
    return confirm(args.workspace.expanduser().resolve(), args.limit)


if __name__ == "__main__":
    raise SystemExit(main())
