"""Every caller of :func:`solvable._core.claims.all_proved` (a symbolic claim built of a
``prove_zero`` part and a ``decide`` part) fails when either part fails: each part is
forced to fail in turn (the module's ``prove_zero`` or ``decide`` replaced by one that
returns a failed verdict), so a caller that dropped a part, or passed one part twice,
is caught (outside mutants of stop 57 did both and survived the registry's tests, where
every part holds)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
import sympy as sp

import solvable
from solvable._core.claims import Verdict

PACKAGE = Path(solvable.__file__).resolve().parent

CALLERS = [
    ("solvable.models.ntg", "_claim_relu_bernoulli"),
    ("solvable.models.global_convergence.symbolic_checks", "_ntg_bound_derivation"),
    ("solvable.models.global_convergence.symbolic_checks", "_gd_width_stable"),
    ("solvable.models.linearisation.claim_checks", "_gronwall"),
    ("solvable.models.linear_node_scaling.checks", "_limit_is_unique"),
    ("solvable.models.linear_node_scaling.checks", "_gd_step_size"),
]


def _failed(*args, **kwargs) -> Verdict:
    return Verdict("failed", "forced to fail", residuals=(sp.Integer(1),))


@pytest.mark.parametrize(("module", "name"), CALLERS, ids=lambda v: v.rsplit(".", 1)[-1])
def test_caller_is_proved_and_fails_when_either_part_fails(module, name, monkeypatch):
    mod = importlib.import_module(module)
    fn = getattr(mod, name)
    ok = fn()
    assert ok.status == "proved" and ok.residuals and all(r == 0 for r in ok.residuals)
    for part in ("prove_zero", "decide"):
        with monkeypatch.context() as m:
            m.setattr(mod, part, _failed)
            v = fn()
        assert v.status == "failed" and "forced to fail" in v.detail, (part, v.detail)
        assert sp.Integer(1) in v.residuals, part  # the failed part's residual is kept


def test_every_caller_is_listed():
    """A new caller of all_proved joins CALLERS (found in the package's sources)."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(c, ast.Call) and getattr(c.func, "id", None) == "all_proved"
                for c in ast.walk(node)
            ):
                found.add((module, node.name))
    assert found == set(CALLERS)
