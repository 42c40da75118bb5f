"""The mutation table of ``benchmarks/mutation.py`` (issue 13) stays applicable and covers
what the issue asks: read through the harness's own loader, every mutant must still apply
to the code as it is (its ``old`` text occurs exactly once in its file), and the table must
span every seed and every backend.  Running the mutants is the harness's job (minutes);
this only checks the table (well under a second)."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

from solvable.verification import theorems

ROOT = Path(__file__).resolve().parents[1]


def _harness():
    spec = importlib.util.spec_from_file_location(
        "benchmarks_mutation", ROOT / "benchmarks" / "mutation.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


mutation = _harness()
MUTANTS = mutation.load_mutants(ROOT / "benchmarks" / "mutants")


def test_names_are_unique():
    repeated = [name for name, n in Counter(m.name for m in MUTANTS).items() if n > 1]
    assert not repeated


@pytest.mark.parametrize("m", MUTANTS, ids=lambda m: m.name)
def test_mutant_applies_to_the_code_as_it_is(m):
    """``old`` occurs exactly once in ``file`` (else the table has rotted) and ``new``
    differs from it; seed and backend are known labels; the hinted tests exist."""
    path = ROOT / m.file
    assert path.is_file(), m.file
    assert path.read_text(encoding="utf-8").count(m.old) == 1
    assert m.new != m.old
    assert m.seed in mutation.SEEDS and m.backend in mutation.BACKENDS
    assert all((ROOT / t).is_file() for t in m.tests), m.tests
    assert m.why.strip()


@pytest.mark.parametrize("m", MUTANTS, ids=lambda m: m.name)
def test_claim_hints_match_registered_claims(m):
    assert all(theorems.select(pattern) for pattern in m.claims), m.claims


def test_the_table_spans_every_seed_and_backend():
    """Issue 13: at least 30 mutants, across all five seeds and the three backends."""
    assert len(MUTANTS) >= 30
    assert {"000", "001", "002", "003", "004"} <= {m.seed for m in MUTANTS}
    assert {"numpy", "mpmath", "torch"} <= {m.backend for m in MUTANTS}


def test_problems_finds_a_rotted_or_duplicate_mutant():
    """The harness refuses a table that no longer matches the code."""
    good = MUTANTS[0]
    rotted = mutation.Mutant(**{**vars(good), "old": good.old + "\n# not in the file"})
    same = mutation.Mutant(**{**vars(good), "new": good.old})
    found = mutation.problems([good, rotted, same], ROOT)
    assert any("duplicate name" in p for p in found)
    assert any("occurs 0 times" in p for p in found)
    assert any("new == old" in p for p in found)
    assert mutation.problems([good], ROOT) == []


def test_failures_are_classified_as_checks_or_crashes():
    assert mutation.is_assertion("assert 1 == 2")
    assert mutation.is_assertion("AssertionError: \nNot equal to tolerance rtol=1e-07")
    assert mutation.is_assertion("Failed: DID NOT RAISE <class 'ValueError'>")
    assert mutation.is_assertion("Failed: DID NOT WARN. No warnings of type (<class 'W'>,)")
    assert not mutation.is_assertion("ZeroDivisionError: division by zero")
    assert mutation.is_crash("OverflowError: math range error", None)
    assert mutation.is_crash("needs the optional dependency 'torch': pip install ...", None)
    assert not mutation.is_crash("non-zero residual: x - 1", None)
    assert not mutation.is_crash("float64 vs 30 digits", 3.5)
