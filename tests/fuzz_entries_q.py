"""Fuzz entries, group q (see tests/test_fuzz_every_entry_point.py): seed 001's Figures 2 and
3 on a synthetic teacher (numerics.teacher_task and the verdicts
solvable.verification.figure_3_teacher and solvable.verification.figure_2_teacher)."""

from __future__ import annotations

import functools
from typing import Any

from fuzz_harness import Entry

from numerics import teacher_task
from solvable.verification import figure_2_teacher, figure_3_teacher

_SMALL = {"models": ["NTK", "mean field"], "kappas": [2, 4], "d0": 3, "n_train": 6,
          "n_test": 5, "steps": 2, "repeats": 2, "threads": 1}  # fmt: skip


_SMALL_2 = {"sigmas": [0.5, 2.0], "width": 3, "d0": 3, "n_train": 6, "n_test": 5, "steps": 2,
            "repeats": 2, "threads": 1}  # fmt: skip


@functools.cache
def _result() -> dict[str, Any]:
    return teacher_task.figure_3_teacher(**_SMALL)


@functools.cache
def _result_2() -> dict[str, Any]:
    return teacher_task.figure_2_teacher(**_SMALL_2)


ENTRIES: list[Entry] = [
    Entry(
        "teacher_task.teacher_data",
        teacher_task.teacher_data,
        lambda: {"d0": 4, "n_train": 7, "n_test": 3, "seed": 2},
        {"d0": "int", "n_train": "int", "n_test": "int", "seed": "int"},
        numbers=lambda d: [d["X_train"], d["y_train"], d["X_test"], d["y_test"], d["v"]],
    ),
    Entry(
        "teacher_task.model_scaling",
        teacher_task.model_scaling,
        lambda: {"model": "Kaiming+"},
        {"model": "name"},
        numbers=lambda s: [float(s.c_gamma), float(s.c_eta_u)],
    ),
    Entry(
        "teacher_task.figure_3_teacher",
        teacher_task.figure_3_teacher,
        lambda: dict(_SMALL),
        {
            "models": "vector",
            "kappas": "vector",
            "d0": "int",
            "n_train": "int",
            "n_test": "int",
            "steps": "int",
            "lr": "scalar",
            "repeats": "int",
            "data_seed": "int",
            "seed": "int",
            "device": "name",
            "threads": "int",
            "progress": "flag",
        },
        numbers=lambda r: [x["rd_w"] for x in r["runs"]] + [x["test_risk"] for x in r["runs"]],
    ),
    Entry(
        "figure_3_teacher.rd_exponent",
        figure_3_teacher.rd_exponent,
        lambda: {"model": "Xavier-"},
        {"model": "name"},
    ),
    Entry(
        "figure_3_teacher.phase_figure",
        figure_3_teacher.phase_figure,
        lambda: {"result": _result()},
        {"result": "object"},
        numbers=lambda v: [v[0]],
    ),
    Entry(
        "figure_3_teacher.generalisation_figure",
        figure_3_teacher.generalisation_figure,
        lambda: {"result": _result()},
        {"result": "object"},
        numbers=lambda v: [v[0]],
    ),
    Entry(
        "figure_3_teacher.figure_3_teacher_verdict",
        figure_3_teacher.figure_3_teacher_verdict,
        lambda: {"result": _result()},
        {"result": "object"},
        numbers=lambda v: [v.max_error],
    ),
]

ENTRIES += [
    Entry(
        "teacher_task.figure_2_teacher",
        teacher_task.figure_2_teacher,
        lambda: dict(_SMALL_2),
        {
            "sigmas": "vector",
            "width": "int",
            "d0": "int",
            "n_train": "int",
            "n_test": "int",
            "steps": "int",
            "lr": "scalar",
            "repeats": "int",
            "data_seed": "int",
            "seed": "int",
            "device": "name",
            "threads": "int",
            "progress": "flag",
        },
        numbers=lambda r: [x["norm_end"] for x in r["runs"]] + [x["test_risk"] for x in r["runs"]],
    ),
    Entry(
        "figure_2_teacher.ordering_figure",
        figure_2_teacher.ordering_figure,
        lambda: {"result": _result_2()},
        {"result": "object"},
        numbers=lambda v: [v[0]],
    ),
    Entry(
        "figure_2_teacher.figure_2_teacher_verdict",
        figure_2_teacher.figure_2_teacher_verdict,
        lambda: {"result": _result_2()},
        {"result": "object"},
        numbers=lambda v: [v.max_error],
    ),
]

EXEMPT: dict[str, str] = {}
