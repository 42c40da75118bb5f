"""Fuzz entries, group p (see tests/test_fuzz_every_entry_point.py): seed 000 Section 8.2.1
(Figure 3) on scikit-learn's diabetes set (numerics.datasets.load_diabetes, the regression
experiment and its verdict) and Section 8.2.2's CIFAR experiment (Figure 5) on the digits
(the classification experiment and its verdict)."""

from __future__ import annotations

import functools
from typing import Any

from fuzz_harness import Entry

from numerics import datasets
from numerics import node_scaling_experiment as ex
from solvable.verification import section_8_2

_SMALL = {"width": 4, "steps": 2, "repeats": 2, "features": [1, 2], "threads": 1}


_SMALL_22 = {"width": 4, "steps": 2, "batch": 8, "repeats": 2, "n_train": 20, "n_test": 10,
             "keep": [1.0, 0.1], "threads": 1}  # fmt: skip


@functools.cache
def _result() -> dict[str, Any]:
    return ex.section_8_2_1_regression(**_SMALL)


@functools.cache
def _result_22() -> dict[str, Any]:
    return ex.section_8_2_2_classification(**_SMALL_22)


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
    Entry(
        "node_scaling_experiment.section_8_2_2_classification",
        ex.section_8_2_2_classification,
        lambda: dict(_SMALL_22),
        {
            "n_train": "int",
            "n_test": "int",
            "width": "int",
            "steps": "int",
            "batch": "int",
            "repeats": "int",
            "settings": "matrix",
            "keep": "vector",
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
        "section_8_2.classification_orderings",
        section_8_2.classification_orderings,
        lambda: {"result": _result_22(), "heavy": 0.1},
        {"result": "object", "heavy": "scalar"},
        numbers=lambda v: [],  # figures may be inf (a tie, by design): the verdict reads them
    ),
    Entry(
        "section_8_2.section_8_2_2_verdict",
        section_8_2.section_8_2_2_verdict,
        lambda: {"result": _result_22(), "caveats": {}, "heavy": 0.1},
        {"result": "object", "caveats": "object", "heavy": "scalar"},
        numbers=lambda v: [v.max_error],
    ),
]

EXEMPT: dict[str, str] = {}
