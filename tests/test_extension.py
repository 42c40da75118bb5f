"""Adding a model is one module plus one registration line: the model module shown in the
contributor's map (docs/contributing.md, "Adding a model") is written to a temporary directory,
registered by adding its ``MODEL`` to ``solvable.MODELS`` (what the one line in ``_MODEL_MODULES``
does), and then the registry proves its claims, the errata list and ``numerics.simulate`` pick it up
with no other change."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import mpmath
import pytest

import numerics
import solvable
from solvable.verification import theorems

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "contributing.md"


def _template() -> str:
    text = GUIDE.read_text()
    section = text[text.index("**Adding a model**") :]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.fixture
def chain(tmp_path, monkeypatch):
    path = tmp_path / "scalar_chain.py"
    path.write_text(_template())
    spec = importlib.util.spec_from_file_location("scalar_chain", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "scalar_chain", module)
    spec.loader.exec_module(module)
    monkeypatch.setattr(solvable, "MODELS", (*solvable.MODELS, module.MODEL))
    return module


def test_the_registry_proves_the_new_model(chain):
    claims = theorems.select("scalar_chain.*")
    assert {t.id for t in claims} == {"scalar_chain.balance", "scalar_chain.loss_decreases"}
    assert all(t.verify().status == "proved" for t in claims)


def test_simulate_dispatches_to_the_new_model(chain):
    setup, a0, b0 = chain.ChainSystem().example()
    hi = numerics.simulate(setup, a0, b0, [0, 1], method="mpmath", dps=30).at(1)
    lo = numerics.simulate(setup, a0, b0, [0, 1], method="scipy").at(1)
    # the law of the README's model, a^2 - b^2, holds along the 30-digit flow (to ~30 digits)
    with mpmath.workdps(40):
        drift = abs((hi.a**2 - hi.b**2) - (mpmath.mpf("0.3") ** 2 - mpmath.mpf("0.5") ** 2))
    assert drift < mpmath.mpf(10) ** -25
    # scipy DOP853 at rtol 1e-13 against 30 digits: 1e-11 relative
    assert abs(lo.a - float(hi.a)) <= 1e-11 * abs(float(hi.a))
    assert hi.a != mpmath.mpf("0.3")  # it moved


def test_without_the_line_the_model_is_absent():
    assert theorems.select("scalar_chain.*") == []
