"""Seed 001's Appendix B.3 (``phases.appendix_b3`` and its Kaiming+- erratum): the printed
settings against Table 1 and "the same for d = 100"."""

from __future__ import annotations

import sympy as sp

from solvable.models import phases
from solvable.models.phases import appendix_b3 as b3
from solvable.verification import theorems


def test_registered_and_proved():
    (claim,) = [t for t in theorems.registry() if t.id == "phases.appendix_b3"]
    assert claim.source.startswith(phases.SEED) and claim.verify().status == "proved"


def test_printed_kaiming_rates_are_table_1s_swapped():
    got, want = b3.b3_exponents(), b3.table_exponents()
    assert got["Kaiming-"][1] == want["Kaiming+"][1] == 1
    assert want["Kaiming-"][1] == -1 and got["Kaiming+"][1] == 0 and want["Kaiming+"][1] == 1
    # by eq. (28) the printed Kaiming- is unstable and Kaiming+ frozen (Kaiming: c_u = 0, c_w = -1)
    assert phases.xu_ziyin_phase(1, got["Kaiming-"][0], 0, -1, got["Kaiming-"][1],
                                 got["Kaiming-"][1]) == "unstable"  # fmt: skip
    assert phases.xu_ziyin_phase(1, got["Kaiming+"][0], 0, -1, got["Kaiming+"][1],
                                 got["Kaiming+"][1]) == "frozen"  # fmt: skip
    assert b3._appendix_b3(models=tuple(b3.CELLS)).status == "failed"
    (err,) = [e for e in phases.errata() if e.equation == "Appendix B.3 (Kaiming+- learning rates)"]
    printed, corrected = err.residuals()
    assert printed == 5 and corrected == 0 and err.check()


def test_fails_when_a_pair_differs_at_d_100():
    wrong = {**b3.B3, "mean field": (11 / b3.D, b3.ETA0 * b3.D / 100)}
    v = b3._appendix_b3(wrong)
    assert v.status == "failed" and "NTK = mean field" in v.detail


def test_fails_when_an_exponent_differs():
    wrong = {**b3.B3, "Xavier-": (b3.D / 100, b3.ETA0 * (100 / b3.D) ** 2 * sp.sqrt(b3.D) / 10)}
    assert b3._appendix_b3(wrong).status == "failed"
