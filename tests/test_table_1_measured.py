"""Seed 001's Table 1 measured on simulated nets (``phases.table_1_measured``): registered,
confirmed on its default subset, and failing when a cell disagrees."""

from __future__ import annotations

import dataclasses

import pytest

from numerics import sweeps
from solvable.models import phases
from solvable.verification import theorems
from solvable.verification.confirmations import phases as conf


@pytest.fixture(scope="module")
def measured():
    cases = sweeps.table_1_cases()
    cells = [cases["NTK, c_eta"], cases["mean field, c_eta"]]
    return sweeps.measure_phases(cells, list(conf.KAPPAS_FAST), seeds=conf.SEEDS_FAST, n_boot=100)


def test_registered_and_confirmed():
    (claim,) = [t for t in theorems.registry() if t.id == "phases.table_1_measured"]
    assert claim.kind == "numeric" and claim.source.startswith(phases.SEED)
    v = claim.verify()
    assert v.status == "confirmed", v.detail
    assert all(name in v.detail for name in conf.FAST_CELLS)


def test_cells_are_the_table():
    names = conf.cell_names()
    assert len(names) == len(set(names)) == 20
    assert set(conf.FAST_CELLS) <= set(names)
    assert set(names) <= set(sweeps.table_1_cases())


def test_verdict_confirms_agreeing_cells(measured):
    assert [m.phase for m in measured] == ["kernel", "frozen"]
    assert conf.table_1_verdict(measured).status == "confirmed"


def test_verdict_fails_on_a_wrong_printed_phase(measured):
    wrong = dataclasses.replace(measured[0].case, printed="learning")
    v = conf.table_1_verdict([dataclasses.replace(measured[0], case=wrong), measured[1]])
    assert v.status == "failed" and "NTK, c_eta" in v.detail


def test_verdict_fails_on_a_wrong_measured_phase(measured):
    v = conf.table_1_verdict([dataclasses.replace(measured[1], phase="kernel")])
    assert v.status == "failed" and "mean field, c_eta" in v.detail


def test_verdict_fails_on_nothing_measured():
    assert conf.table_1_verdict([]).status == "failed"
