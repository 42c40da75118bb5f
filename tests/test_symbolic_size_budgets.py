"""Symbolic size budgets: the entries a symbolic builder counts against
``MAX_SYMBOLIC_ENTRIES`` are the symbols it creates (data and weights), so the budget refuses
exactly the sizes that would take sympy hours.

Written in the mutation-testing triage of the seed-5 run.
"""

from __future__ import annotations

import pytest

from solvable._core.arrays import MAX_SYMBOLIC_ENTRIES
from solvable.models import node_scaling
from solvable.models.node_scaling import first_step


@pytest.mark.parametrize(("n", "d", "m"), [(1, 1, 1), (2, 3, 1), (2, 3, 2)])
def test_first_step_budget_counts_every_symbol_it_creates(n, d, m):
    """Key solvable/models/node_scaling.py:763:core/ReplaceBinaryOperator_Add_RShift:7.

    first_step_symbolic creates X (n, d), y (n,), W and W0 (m, d), a and s (m,): the count
    it checks against the budget is that many symbols (W is differentiated at W0, so it is
    not a field; it has W0's shape)."""
    fs = node_scaling.first_step_symbolic(n, d, m)
    created = fs.X.size + fs.y.size + 2 * fs.W0.size + fs.a.size + fs.s.size
    assert first_step._first_step_entries(n=n, d=d, m=m) == created
    # and the refusal: one node too many for the budget (checked before any sympy work)
    m_big = MAX_SYMBOLIC_ENTRIES // (2 * d + 2) + 1
    with pytest.raises(ValueError, match="MAX_SYMBOLIC_ENTRIES"):
        node_scaling.first_step_symbolic(n, d, m_big)
