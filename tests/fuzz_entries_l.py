"""Fuzz entries, group l (see tests/test_fuzz_every_entry_point.py): seed 002's Exercise 1(b),
(c) Hoeffding bound (solvable.models.kernels.hoeffding) and Exercise 3's Hessian norm with the
second layer trained (solvable.models.linearisation.full_block_opnorm, full_hessian_bound)."""

from __future__ import annotations

from fuzz_harness import Entry

from solvable.models import kernels, linearisation

ENTRIES: list[Entry] = [
    Entry("kernels.hoeffding_failure_probability", kernels.hoeffding_failure_probability,
          lambda: {"p": 512, "epsilon": 0.5, "n": 8},
          {"p": "int", "epsilon": "scalar", "n": "int"}),
    Entry("kernels.hoeffding_width", kernels.hoeffding_width,
          lambda: {"epsilon": 0.3, "delta": 0.05, "n": 4},
          {"epsilon": "scalar", "delta": "scalar", "n": "int"}),
    Entry("kernels.hoeffding_epsilon", kernels.hoeffding_epsilon,
          lambda: {"p": 512, "delta": 0.05, "n": 8},
          {"p": "int", "delta": "scalar", "n": "int"}),
    Entry("linearisation.full_block_opnorm", linearisation.full_block_opnorm,
          lambda: {"name": "tanh"}, {"name": "name"}),
    Entry("linearisation.full_hessian_bound", linearisation.full_hessian_bound, dict, {}),
]  # fmt: skip

EXEMPT: dict[str, str] = {}
