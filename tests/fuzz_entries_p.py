"""Fuzz entries, group p (see tests/test_fuzz_every_entry_point.py): seed 000 Section 8.2.1
(Figure 3) on scikit-learn's diabetes set (numerics.datasets.load_diabetes, the regression
experiment and its verdict)."""

from __future__ import annotations

import functools
from typing import Any

from fuzz_harness import Entry

from numerics import datasets
from numerics import node_scaling_experiment as ex
from solvable.verification import section_8_2

_SMALL = {"width": 4, "steps": 2, "repeats": 2, "features": [1, 2], "threads": 1}


@functools.cache
def _result() -> dict[str, Any]:
    return ex.section_8_2_1_regression(**_SMALL)


ENTRIES: list[Entry] = [
    Entry(
        "datasets.load_diabetes",
        datasets.load_diabetes,
        lambda: {"seed": 1, "train": 0.4, "test": 0.2, "unit_rows": True},
        {"seed": "int", "train": "scalar", "test": "scalar", "unit_rows": "flag"},
        numbers=lambda d: [d["X_train"], d["X_test"], d["X_valid"], d["y_train"]],
    ),
    Entry(
        "node_scaling_experiment.section_8_2_1_regression",
        ex.section_8_2_1_regression,
        lambda: dict(_SMALL),
        {
            "width": "int",
            "steps": "int",
            "repeats": "int",
            "settings": "matrix",
            "features": "vector",
            "lr": "scalar",
            "data_seed": "int",
            "activation": "name",
            "device": "name",
            "threads": "int",
            "progress": "flag",
        },
        numbers=lambda r: [x["max_moved"] for x in r["runs"]],
    ),
    Entry(
        "section_8_2.regression_orderings",
        section_8_2.regression_orderings,
        lambda: {"result": _result(), "few": 2},
        {"result": "object", "few": "int"},
        numbers=lambda v: [],  # figures may be inf (a tie, by design): the verdict reads them
    ),
    Entry(
        "section_8_2.section_8_2_1_verdict",
        section_8_2.section_8_2_1_verdict,
        lambda: {"result": _result(), "caveats": {}, "few": 2},
        {"result": "object", "caveats": "object", "few": "int"},
        numbers=lambda v: [v.max_error],
    ),
]

EXEMPT: dict[str, str] = {}
