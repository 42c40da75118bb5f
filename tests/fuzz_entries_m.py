"""Fuzz entries, group m (see tests/test_fuzz_every_entry_point.py): numerics.overall_scale
(seed 003's motivating experiment, the overall-scale axis)."""

from __future__ import annotations

from typing import Any

from fuzz_harness import Entry

from numerics import overall_scale as osc

# d = 2, two training and two test points, width 2, two steps (as group f's alpha_scaling)
_SETUP = {"d": 2, "n_train": 2, "n_test": 2, "width": 2, "steps": 2}
_SEEDS = ("data_seed", "init_seed")


def _curve_numbers(curve: Any) -> Any:
    # the standard errors are over 2 seeds (finite); the values, rates and means must be
    return [curve.values, curve.lrs, curve.means, curve.stderrs, curve.scales]


ENTRIES: list[Entry] = [
    Entry(
        "overall_scale.scaled_parameters",
        osc.scaled_parameters,
        lambda: {"scale": 0.5, "alpha": 2.0, "width": 2, "d": 2, "seeds": 1, "device": "cpu"},
        {
            "scale": "scalar",
            "alpha": "scalar",
            "width": "int",
            "d": "int",
            "seeds": "int",
            "seed": "int",
            "device": "name",
            "dtype": "object",
        },
    ),
    Entry(
        "overall_scale.scale_curve",
        osc.scale_curve,
        lambda: {"scales": [0.5, 2.0], "seeds": 2, **_SETUP, "device": "cpu"},
        {
            "scales": "vector",
            "alpha": "scalar",
            "seeds": "int",
            **{k: "int" for k in ("width", "d", "n_train", "n_test", "steps")},
            "lr_factor": "scalar",
            **{k: "int" for k in _SEEDS},
            "device": "name",
            "dtype": "object",
        },
        numbers=_curve_numbers,
    ),
]

EXEMPT: dict[str, str] = {
    "overall_scale.ScaleCurve": "output record: returned by scale_curve, which is fuzzed",
}
