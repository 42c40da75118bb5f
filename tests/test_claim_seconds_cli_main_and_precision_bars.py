"""Details of claims, the CLI entry point and a figure that other tests do not read: a
verdict's ``seconds`` (time spent, on a fake clock), ``python -m solvable.verification.cli`` running
``main``, the time span of the ReLU conservation check's simulation, the test-error gap
range printed when the alpha grid has no gap to compare, the precision bars of the sampled
alpha_k (xu_ziyin constants), and the range of the seed-003 alpha figure's theory curve.

Mutation-testing triage (batch H).  Expensive parts (simulations, the alpha curve) are
replaced by small fakes where the test reads only what the code does with their output.
"""

from __future__ import annotations

import itertools
import runpy
import sys
import time
import warnings

import mpmath
import numpy as np
import pytest

from numerics import alpha_scaling
from solvable._core.claims import Theorem, Verdict
from solvable.models import xu_ziyin as xz
from solvable.verification import cli
from solvable.verification.confirmations import kunin as conf_kunin
from solvable.verification.confirmations import xu_ziyin as conf_xz
from solvable.verification.figures import seed_003
from solvable.verification.figures._common import new_figure


# ---------------------------------------------------------------------------
# Theorem.verify: the verdict's seconds are the time the check took
# ---------------------------------------------------------------------------
def test_verify_seconds_is_elapsed_time_on_the_clock(monkeypatch):
    """``Verdict.seconds`` of ``Theorem.verify`` is the time the check took: the clock's
    reading after it minus the reading before.  On a fake ``time.perf_counter`` that reads
    1000.0 and then 1002.5 the verdict must report 2.5 s (not a ratio of the readings)."""
    readings = iter([1000.0, 1002.5])
    monkeypatch.setattr(time, "perf_counter", lambda: next(readings))
    thm = Theorem("test.clock", "nowhere", "a check that is always right", "numeric",
                  lambda: Verdict("confirmed", "fine", 0.0))  # fmt: skip
    v = thm.verify()
    assert v.status == "confirmed"
    # 1002.5 - 1000.0 is exact in float64 (both are multiples of 1/2)
    assert v.seconds == 2.5


# ---------------------------------------------------------------------------
# python -m solvable.verification.cli runs main
# ---------------------------------------------------------------------------
def test_python_m_solvable_cli_runs_main(monkeypatch, capsys):
    """``python -m solvable.verification.cli --help`` runs the CLI (the module's ``__main__`` guard
    calls
    ``main``): it prints the usage of the ``solvable`` command and exits 0.  Run in-process
    as ``-m`` does (``runpy`` on the module's file with ``__name__ == "__main__"``)."""
    monkeypatch.setattr(sys, "argv", ["solvable", "--help"])
    with warnings.catch_warnings():
        # runpy notes that solvable.verification.cli is already imported (by this test session):
        # harmless
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(SystemExit) as exit_:
            runpy.run_path(cli.__file__, run_name="__main__")
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: solvable"), out
    assert "verify" in out


# ---------------------------------------------------------------------------
# kunin.relu_conservation: simulated on 201 times in [0, 2]
# ---------------------------------------------------------------------------
class _StopError(Exception):
    pass


def test_relu_conservation_simulates_201_times_over_0_to_2(monkeypatch):
    """The ReLU conservation check simulates the net at 201 times in [0, 2], as its
    docstring and its verdict's detail ("over 201 times in [0, 2]") state: the times handed
    to ``numerics.simulate`` are 201 increasing times from 0 to 2 (the spy stops the check
    there; the real simulation costs ~6 s)."""
    seen = []

    def spy(setup, a0, W0, times, **kw):
        seen.append(list(times))
        raise _StopError

    monkeypatch.setattr(conf_kunin.numerics, "simulate", spy)
    with pytest.raises(_StopError):
        conf_kunin._relu_conservation()
    (times,) = seen
    assert len(times) == 201
    assert times[0] == 0.0
    # linspace's last point is the end point exactly
    assert times[-1] == 2.0
    assert all(b > a for a, b in itertools.pairwise(times))


# ---------------------------------------------------------------------------
# kunin.alpha_scaling: no alpha <= 1/4 and >= 4 on the grid -> the gap range is 0.0..0.0
# ---------------------------------------------------------------------------
def _fake_curve(alphas, seeds=3, setup=None):
    rng = np.random.default_rng(1)
    values = {k: rng.uniform(0.1, 0.2, (len(alphas), seeds)) for k in alpha_scaling.METRICS}
    setup = setup or alpha_scaling.AlphaSetup()
    return alpha_scaling.AlphaCurve(tuple(alphas), seeds, setup, values, np.ones(len(alphas)),
                                    "cpu", "float64", 0.0)  # fmt: skip


def test_alpha_scaling_without_gaps_reports_an_empty_gap_range():
    """On a grid with no alpha <= 1/4 (here 1, 2) there is no test-error gap to compare: the
    claim fails (an infinite error naming the missing comparison) and its detail prints the
    (empty) range of gaps as ``0.0..0.0 SE``, not an inverted range with a maximum below
    the minimum."""
    v = conf_kunin._alpha_scaling(curve=_fake_curve((1.0, 2.0)))
    assert v.status == "failed"
    assert "no alpha <= 1/4 and >= 4 on the grid" in v.detail
    assert "test-error gaps 0.0..0.0 SE" in v.detail


# ---------------------------------------------------------------------------
# xu_ziyin constants: the precision bar of each sampled alpha_k
# ---------------------------------------------------------------------------
def test_sample_precision_follows_its_documented_bound():
    """``_sample_precision`` (docstring): with e = 10**-(dps - 5) (sqrt(eta_w) max|u| +
    sqrt(eta_u) max|W x| / rho), the sum of squares S of the chosen coordinate is off by at
    most 2 sqrt(S) e + d e^2, so alpha_k (a ratio of sums at t_k and 0) is off by the
    relative bar at t_k plus the one at 0.  One state, d = 1: eta_u = 4, eta_w = 1,
    x = (3, 4) (rho = 5), u = 1, W = (0.4, 0.3) (W x = 2.4): e = 10**-25 (1 + 2 * 2.4 / 5)
    = 1.96e-25 at dps = 30, and the bar is twice (2 sqrt(S) e + e^2)/S."""
    setup = xz.Setup(eta_u="4", eta_w="1", gamma="1", x=("3", "4"), y="1")
    case = xz.Case("probe", setup, ("1",), (("0.4", "0.3"),), "test")
    dps = 30
    with mpmath.workdps(dps + 10):
        state = type("S", (), {"u": [mpmath.mpf(1)],
                               "W": [[mpmath.mpf("0.4"), mpmath.mpf("0.3")]]})()  # fmt: skip
        p, q = xz.pq_coordinates(setup, state.u, state.W, dps=dps)
        sp2, sq2 = sum(v * v for v in p), sum(v * v for v in q)
        S = sp2 if sp2 >= sq2 else sq2
        e = mpmath.mpf(10) ** -25 * mpmath.mpf("1.96")
        expected = 2 * (2 * mpmath.sqrt(S) * e + e * e) / S
        (got,) = conf_xz._sample_precision(case, [state], dps)
        # the same bound at dps + 10 digits: equal to far better than 1e-6 relative
        assert abs(got / expected - 1) < 1e-6, (got, expected)


# ---------------------------------------------------------------------------
# seed 003, the alpha figure: the theory curve spans the whole simulated grid
# ---------------------------------------------------------------------------
def test_seed_003_alpha_theory_curve_covers_the_simulated_grid(monkeypatch):
    """003's alpha figure: the theory panel (fraction of neurons with delta_k > 0 at init)
    is drawn over a range that contains every simulated alpha of the grid, from below the
    smallest to beyond the largest (the simulated curve is replaced by a fake on the same
    grid, ``ALPHAS_SMALL``: only its alphas enter that line)."""
    grids = []

    def fake_curve(grid, seeds, device):
        grids.append(tuple(grid))
        # a small width and input dimension: the initial draws are cheap (same line range)
        return _fake_curve(grid, seeds, alpha_scaling.AlphaSetup(d=2, width=2))

    monkeypatch.setattr(seed_003.alpha_scaling, "alpha_curve", fake_curve)
    fig = new_figure(12.0, 3.0)
    seed_003._draw_alpha(fig, False, False)
    (grid,) = grids
    theory = fig.axes[-1].lines[0]
    x = np.asarray(theory.get_xdata(), float)
    y = np.asarray(theory.get_ydata(), float)
    assert len(x) == len(y) > 1
    assert x.min() < min(grid)
    assert x.max() > max(grid)
    assert np.all((0 <= y) & (y <= 1))  # a fraction of neurons
    # each panel names what it shows, the theory panel last (its title set on another
    # panel survived the seed-18 run)
    titles = [ax.get_title() for ax in fig.axes]
    assert all(titles) and len(set(titles)) == len(titles), titles
    assert "theory" in titles[-1] and not any("theory" in t for t in titles[:-1]), titles
