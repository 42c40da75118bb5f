"""Edges of the figures that the render tests do not read: the initialisations the ReLU
panels of seed 001's Figure 1 start from, and which paper point each panel of seed 004's
Figure 5 circles as critical.

Mutation-testing triage (seed-2 run, helper C).  The expensive parts (closed forms,
simulations, phase measurements) are replaced by small fakes where the test reads only what
the figure feeds them or draws from their output.
"""

from __future__ import annotations

import math

import numpy as np

from solvable import figures, three_layer
from solvable.figures import seed_001, seed_004
from solvable.figures._common import new_figure


# ---------------------------------------------------------------------------
# seed 001, Figure 1(c), (d): the ReLU panels start from the initialisations of the caption
# ---------------------------------------------------------------------------
def _record_relu_starts(monkeypatch):
    """Replace the ReLU theory and simulation by constants and record ``(u0, w0)`` of every
    curve (the weights the figure hands its simulation)."""
    starts = []

    def fake_theory(x, y, gamma, u0, w0, ts):
        return np.ones(len(ts)), math.inf, 0, 1.0

    def fake_simulation(x, y, gamma, u0, w0, ts, full):  # once per curve
        starts.append((np.array(u0, copy=True), np.array(w0, copy=True)))
        return np.ones(len(ts))

    monkeypatch.setattr(seed_001, "_relu_theory", fake_theory)
    monkeypatch.setattr(seed_001, "_relu_simulation", fake_simulation)
    return starts


def _draw(cases):
    fig = new_figure(7.5, 4.2)
    try:
        seed_001._draw_relu(fig, False, cases)
    except ValueError as exc:  # e.g. the random generator refusing its seed
        return exc
    return None


def _close(value, want, sd):
    # the inits are fixed draws of d = 1000 samples: 5 standard errors never fail by chance
    return abs(value - want) <= 5 * sd


def _variance_ok(sample, var):
    # sample variance of n Gaussian draws: standard error var * sqrt(2/(n - 1))
    return _close(float(np.var(sample, ddof=1)), var, var * math.sqrt(2 / (len(sample) - 1)))


def _mean_ok(sample, var):
    return _close(float(np.mean(sample)), 0.0, math.sqrt(var / len(sample)))


def test_seed_001_relu_panels_start_from_the_captions_initialisations(monkeypatch):
    """Figure 1(c) (caption: "Init u, w ~ N(0, 1)") and 1(d) ("u ~ N(0, 10 I) and w = u
    (parallel) or w = u + N(0, 0.1 I)") at the default width d = 1000: each curve starts
    from weights with those laws, and the figure's inputs are fixed (a second drawing starts
    from the very same weights).  Mutant key:
    solvable/figures/seed_001.py:172:core/NumberReplacer:111."""
    starts = _record_relu_starts(monkeypatch)
    d = seed_001.D_FAST
    iid = {"γ = 1/d": ("iid", seed_001._inv), "γ = 1/sqrt(d)": ("iid", seed_001._inv_sqrt)}
    large = {"w = u": ("parallel", seed_001._inv), "w = u + noise": ("near", seed_001._inv)}
    for cases in (iid, large, iid, large):
        failed = _draw(cases)
        assert failed is None, f"the ReLU panel could not be drawn: {failed}"
    assert len(starts) == 8
    first, second = starts[:4], starts[4:]
    for (u, w), (u2, w2) in zip(first, second, strict=True):  # reproducible: same weights
        assert np.array_equal(u, u2) and np.array_equal(w, w2)
    (u_a, w_a), (u_b, w_b), (u_par, w_par), (u_near, w_near) = first
    for u, w in ((u_a, w_a), (u_b, w_b)):  # Figure 1(c): u, w ~ N(0, 1) i.i.d.
        assert u.shape == w.shape == (d,)
        assert _mean_ok(u, 1.0) and _mean_ok(w, 1.0)
        assert _variance_ok(u, 1.0) and _variance_ok(w, 1.0)
        # independent: the sample correlation has standard error 1/sqrt(d)
        assert abs(float(np.corrcoef(u, w)[0, 1])) <= 5 / math.sqrt(d)
    # Figure 1(d), parallel: w = u exactly, u ~ N(0, 10 I)
    assert np.array_equal(w_par, u_par)
    assert _mean_ok(u_par, 10.0) and _variance_ok(u_par, 10.0)
    # Figure 1(d), near-parallel: u ~ N(0, 10 I), w - u ~ N(0, 0.1 I)
    assert _mean_ok(u_near, 10.0) and _variance_ok(u_near, 10.0)
    noise = w_near - u_near
    assert _mean_ok(noise, 0.1) and _variance_ok(noise, 0.1)


# ---------------------------------------------------------------------------
# seed 004, Figure 5: each panel circles the paper's critical point of its own layer
# ---------------------------------------------------------------------------
class _FakePoint:
    """A phase point with the S of our linear estimate (numerics.sweep_three_layer): S_W1 =
    gamma_3 - 2 gamma_2 - 3/2, S_W2 = gamma_3 - 2, s.e. 0.05 (the circles do not read it)."""

    widths, seeds = (32, 64, 128), (0, 1, 2)

    def __init__(self, g2, g3):
        self.g2, self.g3 = float(g2), float(g3)

    def slope(self, layer):
        return self.g3 - 2 * self.g2 - 1.5 if layer == "W1" else self.g3 - 2.0

    def err(self, layer):
        return 0.05


def test_seed_004_fig5_circles_each_layers_own_paper_critical_point(monkeypatch):
    """Figure 5's caption: "Circles: the paper's critical points (PAPER_POINTS: W1 at
    Xavier's (0, 1.5), W2 at Table 2 No. 2's (0.7, 2.5))".  The S_W1 panel must circle
    (0, 1.5) and only it, labelled "paper: W1 critical", the S_W2 panel (0.7, 2.5),
    labelled "paper: W2 critical"; both agree with the column of PAPER_POINTS of that layer.
    The measurement is replaced by the linear estimate (the real grid takes minutes).
    Mutant key: solvable/figures/seed_004.py:289:core/ReplaceComparisonOperator_Eq_Lt:4."""
    monkeypatch.setattr(seed_004, "_measure",
                        lambda g2, g3, full, progress, widths=None: _FakePoint(g2, g3))  # fmt: skip
    fig = new_figure(12.0, 4.6)
    seed_004._draw_fig5(fig, False, False)
    panels = [ax for ax in fig.axes if ax.get_xlabel()]
    assert [ax.get_title().split()[0] for ax in panels] == ["S_W1", "S_W2"]
    caption = {"W1": [(0.0, 1.5)], "W2": [(0.7, 2.5)]}  # the caption's numbers
    for col, (ax, layer) in enumerate(zip(panels, ("W1", "W2"), strict=True)):
        rings = [ln for ln in ax.get_lines()
                 if ln.get_marker() == "o" and ln.get_markerfacecolor() == "none"]  # fmt: skip
        assert len(rings) == 1, [ln.get_label() for ln in rings]
        (ring,) = rings
        assert ring.get_label() == f"paper: {layer} critical"
        drawn = list(zip(map(float, ring.get_xdata()), map(float, ring.get_ydata()),
                         strict=True))  # fmt: skip
        # float(Fraction) of 0, 3/2, 7/10, 5/2 is the nearest double, as is the literal
        assert drawn == caption[layer], (layer, drawn)
        stated = [(float(a), float(b)) for (a, b), v in three_layer.PAPER_POINTS.items()
                  if v[col] == "critical"]  # fmt: skip
        assert drawn == stated, (layer, stated)


def test_seed_004_fig5_is_registered_with_the_caption_read_above():
    """The caption the test above reads its numbers from is Figure 5's (guards a silent
    rewording)."""
    (fig5,) = figures.select(["004-fig5"])
    assert "W1 at Xavier's (0, 1.5), W2 at Table 2 No. 2's (0.7, 2.5)" in fig5.caption
