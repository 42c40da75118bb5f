"""Fuzz entries, group o (see tests/test_fuzz_every_entry_point.py): the digits stand-ins
of issue 32 (numerics.datasets; seed 000 Section 8.2 and seed 001 Section 3.2 on the
digits)."""

from __future__ import annotations

import functools
from typing import Any

from fuzz_harness import Entry

from numerics import datasets, initialisation_scale
from numerics import node_scaling_experiment as ex
from solvable.verification import section_3_2_digits, section_8_2

_SMALL = {"n_train": 20, "n_test": 10, "n_transfer": 10, "width": 4, "steps": 2,
          "repeats": 2, "keep": [1.0, 0.1], "features": [1, 2], "threads": 1}  # fmt: skip


_SMALL_32 = {"width": 4, "n_train": 20, "n_test": 10, "steps": 3, "repeats": 2,
             "kappas": [1.0, 10.0], "threads": 1}  # fmt: skip


@functools.cache
def _result() -> dict[str, Any]:
    return ex.section_8_2_digits(**_SMALL)


@functools.cache
def _result_32() -> dict[str, Any]:
    return initialisation_scale.section_3_2_digits(**_SMALL_32)


ENTRIES: list[Entry] = [
    Entry(
        "datasets.load_digits",
        datasets.load_digits,
        lambda: {"n_train": 30, "n_test": 20, "seed": 1, "positive": [0, 1]},
        {"n_train": "int", "n_test": "int", "seed": "int", "positive": "vector"},
        numbers=lambda d: [d["X_train"], d["X_test"], d["y_train"], d["y_test"]],
    ),
    Entry(
        "node_scaling_experiment.section_8_2_digits",
        ex.section_8_2_digits,
        lambda: dict(_SMALL),
        {
            "n_train": "int",
            "n_test": "int",
            "n_transfer": "int",
            "width": "int",
            "steps": "int",
            "repeats": "int",
            "settings": "matrix",
            "keep": "vector",
            "features": "vector",
            "lr": "scalar",
            "data_seed": "int",
            "activation": "name",
            "device": "name",
            "threads": "int",
            "progress": "flag",
        },
        numbers=lambda r: [x["test_risk"] for x in r["runs"]],
    ),
    Entry(
        "section_8_2.section_8_2_verdict",
        section_8_2.section_8_2_verdict,
        lambda: {"result": _result(), "heavy": 0.1, "few": 2},
        {"result": "object", "heavy": "scalar", "few": "int"},
        numbers=lambda v: [v.max_error],
    ),
    Entry(
        "section_8_2.pruning_figure",
        section_8_2.pruning_figure,
        lambda: {"result": _result(), "heavy": 0.1},
        {"result": "object", "heavy": "scalar"},
        numbers=lambda v: [v[0]],
    ),
    Entry(
        "initialisation_scale.section_3_2_digits",
        initialisation_scale.section_3_2_digits,
        lambda: dict(_SMALL_32),
        {
            "c_ws": "vector",
            "kappas": "vector",
            "width": "int",
            "n_train": "int",
            "n_test": "int",
            "steps": "int",
            "lr": "scalar",
            "repeats": "int",
            "zero_initial_output": "flag",
            "data_seed": "int",
            "device": "name",
            "threads": "int",
            "progress": "flag",
        },
        numbers=lambda r: [x["rd_w"] for x in r["runs"]],
    ),
    Entry(
        "section_3_2_digits.rd_exponent",
        section_3_2_digits.rd_exponent,
        lambda: {"c_w": 0.5},
        {"c_w": "scalar"},
    ),
    Entry(
        "section_3_2_digits.slope_figure",
        section_3_2_digits.slope_figure,
        lambda: {"result": _result_32()},
        {"result": "object"},
        numbers=lambda v: [v[0]],
    ),
    Entry(
        "section_3_2_digits.section_3_2_verdict",
        section_3_2_digits.section_3_2_verdict,
        lambda: {"result": _result_32()},
        {"result": "object"},
        numbers=lambda v: [v.max_error],
    ),
    Entry(
        "section_8_2.transfer_figure",
        section_8_2.transfer_figure,
        lambda: {"result": _result(), "few": 2},
        {"result": "object", "few": "int"},
        numbers=lambda v: [v[0]],
    ),
]

EXEMPT: dict[str, str] = {}
