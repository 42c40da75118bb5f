"""The one Monte Carlo confidence policy (``solvable.monte_carlo``) and the
``verify`` options that reach numeric checks."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from solvable._core.tolerance import MC_CONFIDENCE, monte_carlo
from solvable.verification import cli, theorems


def test_interval_is_the_normal_quantile_with_bonferroni():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2, 3))
    est = monte_carlo(x, confidence=0.99)
    z = norm.ppf(1 - 0.01 / (2 * 6))  # 6 entries compared at once
    np.testing.assert_allclose(est.z, z, rtol=1e-15)
    np.testing.assert_allclose(est.mean, x.mean(0), rtol=1e-15)
    np.testing.assert_allclose(est.half_width, z * x.std(0, ddof=1) / 20, rtol=1e-14)
    assert est.samples == 400 and est.confidence == 0.99
    np.testing.assert_array_equal(est.low, est.mean - est.half_width)


def test_error_in_units_and_coverage():
    est = monte_carlo([[0.0, 1.0], [2.0, 1.0]])  # second entry has zero spread
    hw = est.half_width[0]
    assert est.error_in_units([1.0, 1.0]) == 0.0
    assert est.error_in_units([1.0 + hw / 2, 1.0]) == pytest.approx(0.5)
    assert est.covers([1.0, 1.0]) and not est.covers([1.0, 1.5])
    assert est.error_in_units([1.0, 1.5]) == float("inf")
    assert "simultaneous" in est.summary()
    assert "+-" in monte_carlo([1.0, 2.0, 3.0]).summary()


def test_coverage_rate_is_about_the_confidence():
    """Over 2000 independent experiments the 90% interval of a normal mean misses about 10%
    of the time: the count of misses is Binomial(2000, 0.1) (sd 13.4); +-5 sd is 67."""
    rng = np.random.default_rng(1)
    misses = sum(not monte_carlo(rng.normal(size=200), confidence=0.9).covers(0.0)
                 for _ in range(2000))  # fmt: skip
    assert abs(misses - 200) <= 67


@pytest.mark.parametrize(
    ("kwargs", "samples", "message"),
    [({"confidence": 1.0}, [1.0, 2.0], "confidence"),
     ({}, [1.0], "at least 2"),
     ({}, [1.0, np.nan], "finite")],
)  # fmt: skip
def test_bad_input(kwargs, samples, message):
    with pytest.raises(ValueError, match=message):
        monte_carlo(samples, **kwargs)


def test_default_confidence():
    assert monte_carlo([0.0, 1.0]).confidence == MC_CONFIDENCE == 0.999


def test_verify_passes_only_the_options_a_check_takes():
    seen = []

    def fast(*, full: bool = False):
        seen.append(full)
        return theorems.Verdict("confirmed", "ok", 0.0)

    def plain():
        return theorems.Verdict("confirmed", "ok", 0.0)

    t_full = theorems.Theorem("demo.full", "000_x.txt (1)", "s", "numeric", fast)
    t_plain = theorems.Theorem("demo.plain", "000_x.txt (1)", "s", "numeric", plain)
    assert t_full.verify(full=True, dps=30).ok and seen == [True]
    assert t_plain.verify(full=True, dps=30).ok
    with pytest.raises(TypeError, match="unknown verify option"):
        t_plain.verify(fast=True)


def test_cli_full_flag_reaches_checks(monkeypatch, capsys):
    seen = []

    def check(*, full: bool = False):
        seen.append(full)
        return theorems.Verdict("confirmed", "ok", 0.0)

    t = theorems.Theorem("demo.sweep", "000_x.txt (1)", "s", "numeric", check)
    monkeypatch.setattr(theorems, "select", lambda pattern: [t])
    assert cli.main(["verify", "--full"]) == 0
    assert cli.main(["verify"]) == 0
    assert seen == [True, False]


def test_missing_optional_dependency_is_a_clear_failure():
    def needs_torch():
        raise ModuleNotFoundError("No module named 'torch'", name="torch")

    t = theorems.Theorem("demo.torch", "000_x.txt (1)", "s", "numeric", needs_torch)
    verdict = t.verify()
    assert verdict.status == "failed" and "solvable[torch]" in verdict.detail
