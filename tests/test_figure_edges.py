"""Edges of the figures that the render tests do not read: the initialisations the ReLU
panels of seed 001's Figure 1 start from, and which paper point each panel of seed 004's
Figure 5 circles as critical.

Mutation-testing triage (seed-2 run, helper C).  The expensive parts (closed forms,
simulations, phase measurements) are replaced by small fakes where the test reads only what
the figure feeds them or draws from their output.
"""

from __future__ import annotations

import math
import re
import types
from fractions import Fraction

import matplotlib.colors as mcolors
import numpy as np
import pytest
from test_figure_details import _FakePoint  # a phase point with our linear S estimate

from numerics import phase_diagram as pdg
from solvable.models import three_layer
from solvable.verification import figures
from solvable.verification.figures import seed_000, seed_001, seed_003, seed_004
from solvable.verification.figures._common import figure, new_figure


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
    solvable/verification/figures/seed_001.py:172:core/NumberReplacer:111."""
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
def test_seed_004_fig5_circles_each_layers_own_paper_critical_point(monkeypatch):
    """Figure 5's caption: "Circles: the paper's critical points (PAPER_POINTS: W1 at
    Xavier's (0, 1.5), W2 at Table 2 No. 2's (0.7, 2.5))".  The S_W1 panel must circle
    (0, 1.5) and only it, labelled "paper: W1 critical", the S_W2 panel (0.7, 2.5),
    labelled "paper: W2 critical"; both agree with the column of PAPER_POINTS of that layer.
    The measurement is replaced by the linear estimate (the real grid takes minutes).
    Mutant key:
    solvable/verification/figures/seed_004.py:289:core/ReplaceComparisonOperator_Eq_Lt:4."""
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


# ---------------------------------------------------------------------------
# Figure.render: full and progress must be True or False, refused before any drawing
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"full": 1}, "full must be True or False, got 1"),
        ({"full": "yes"}, "full must be True or False, got 'yes'"),
        ({"progress": 0}, "progress must be True or False, got 0"),
        ({"progress": None}, "progress must be True or False, got None"),
    ],
)
def test_figure_render_refuses_non_bool_full_or_progress_before_drawing(tmp_path, options, message):
    """Mutant solvable/verification/figures/_common.py:113:core/ZeroIterationForLoop:1.

    A figure record's render(out_dir, *, full: bool, progress: bool) refuses a full or
    progress that is not a bool with a TypeError naming it (as figures.render does), before
    its drawing starts and without writing anything."""
    drawn = []

    def draw(fig, full, progress):
        drawn.append((full, progress))

    demo = figure("003-demo", "003_cfd8c5fad4b6665d.txt", "Part I", "t", "c", draw)
    kwargs = {"full": False, "progress": False, **options}
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        demo.render(tmp_path, **kwargs)
    assert drawn == [] and not any(tmp_path.iterdir())


# ---------------------------------------------------------------------------
# seed 004, Figure 4: the markers of each seed, told apart from every other seed's
# ---------------------------------------------------------------------------
class _FakeRdPoint:
    """A phase point with RD(W1) = c_seed m^-1/2 (distinct c per seed), fitted by the real
    numerics.phase_diagram.fit_layer."""

    widths = (32, 64, 128)

    def __init__(self, n_seeds):
        self.seeds = tuple(range(100, 100 + n_seeds))
        m = np.array(self.widths, dtype=float)[:, None]
        self.rd = {"W1": (1.0 + np.arange(n_seeds))[None, :] * m**-0.5}
        self.fits = {"W1": pdg.fit_layer(self.widths, self.rd["W1"])}

    def regime(self, layer):
        return self.fits[layer].regime()


@pytest.mark.parametrize("n_seeds", [len(pdg.FAST_SEEDS), len(pdg.FULL_SEEDS), 10])
def test_seed_004_fig4_draws_each_seed_as_its_own_distinguishable_series(monkeypatch, n_seeds):
    """Mutant
    solvable/verification/figures/seed_004.py:231:core/ReplaceBinaryOperator_Mod_FloorDiv:1.

    Figure 4's caption: "Markers: RD(W1) of eq. (10) (W1 and b1) per seed".  Each panel has
    one marker series per seed, labelled "seed <s>", with that seed's RD against the widths,
    and no two seeds share a style (marker and colour), so that the legend tells them apart:
    the figure cycles 8 markers and the 10 colours C0..C9 (period 40), and 10 seeds (beyond
    the 8 markers) must still be distinct."""

    def measure(g2, g3, full, progress, widths=None):
        return _FakeRdPoint(n_seeds)

    monkeypatch.setattr(seed_004, "_measure", measure)
    fig = new_figure(12.0, 4.0)
    seed_004._draw_fig4(fig, False, False)
    want = _FakeRdPoint(n_seeds)
    panels = [ax for ax in fig.axes if ax.get_xlabel()]
    assert len(panels) == len(seed_004.FIG4_GAMMA_3)
    for ax in panels:
        series = [ln for ln in ax.get_lines() if ln.get_label().startswith("seed ")]
        assert [ln.get_label() for ln in series] == [f"seed {s}" for s in want.seeds]
        for j, ln in enumerate(series):
            assert ln.get_linestyle() == "None" and ln.get_marker() not in (None, "None", "")
            np.testing.assert_array_equal(ln.get_xdata(), want.widths)
            np.testing.assert_array_equal(ln.get_ydata(), want.rd["W1"][:, j])
        styles = [(ln.get_marker(), mcolors.to_hex(ln.get_color())) for ln in series]
        assert len(set(styles)) == n_seeds, styles


# ---------------------------------------------------------------------------
# seed 003, regimes: the exact and simulated curves of beta_1, beta_2 are labelled alike
# ---------------------------------------------------------------------------
def test_seed_003_regimes_label_both_curves_of_each_coordinate_beta_1_and_beta_2():
    """Mutant solvable/verification/figures/seed_003.py:53:core/ReplaceBinaryOperator_Add_Mul:2.

    Each panel of 003-fig-regimes draws, per coordinate i of beta = a w (R^2), the exact
    solution (line) and the simulated flow (dots) in one colour, labelled "beta_i exact" and
    "beta_i simulated" with i = 1, 2 (beta_1 the first coordinate); the dots lie on the
    line of the same label (the simulation agrees with the closed form to ~1e-10)."""
    fig = new_figure(12.0, 4.0)
    seed_003._draw_regimes(fig, False, False)
    panels = [ax for ax in fig.axes if ax.get_xlabel() == "t"]
    assert len(panels) == 3
    for ax in panels:
        lines = {ln.get_label(): ln for ln in ax.get_lines()}
        for i, colour in ((1, "C0"), (2, "C1")):
            exact = lines.get(rf"$\beta_{i}$ exact")
            sim = lines.get(rf"$\beta_{i}$ simulated")
            assert exact is not None and sim is not None, sorted(lines)
            assert mcolors.same_color(exact.get_color(), colour)
            assert mcolors.same_color(sim.get_color(), colour)
            # the dots at the marked times on the exact line of the same label
            # (rtol 1e-13 DOP853 on an O(1) flow: 1e-8 is far above its error)
            on_line = np.interp(sim.get_xdata(), exact.get_xdata(), exact.get_ydata())
            np.testing.assert_allclose(sim.get_ydata(), on_line, rtol=0, atol=1e-8)
        assert len(lines) == 4, sorted(lines)
        # the title's max |exact - sim| is that of the dots against the line (seed-23
        # survivor seed_003.py:57: |exact + sim|, of order 1, was printed instead)
        m = re.search(r"max \|exact - sim\| = (\S+)$", ax.get_title())
        assert m and 0 <= float(m.group(1)) < 1e-8, ax.get_title()


# ---------------------------------------------------------------------------
# seed 000, Figure 2: the title reports max |gamma=1 - limit| over the recorded steps
# ---------------------------------------------------------------------------
def test_seed_000_fig2_title_reports_the_largest_gap_between_gamma_1_and_its_limit(monkeypatch):
    """Mutant solvable/verification/figures/seed_000.py:67:core/ReplaceBinaryOperator_Sub_Pow:0.

    The test panel's title, "max |γ=1 - limit| = <err>", is the largest difference over the
    recorded steps between the repeat mean of the γ = 1 net's test error and the repeat mean
    of its infinite-width limit.  The experiment is replaced by dyadic numbers (exact in
    float64): means (1/2, 1/4, 1/8) and (1/2, 1/2, 1/4), so the gap is 1/4."""
    r = {
        "record_steps": [0, 1, 10],
        "labels": ["γ=1", "γ=0.5, α=0.7"],
        "train": [[[1.0, 0.5, 0.25]] * 2, [[1.0, 0.75, 0.5]] * 2],
        "test": [[[0.25, 0.5, 0.0625], [0.75, 0.0, 0.1875]], [[1.0, 1.0, 1.0]] * 2],
        "kernel_limit_train": [[1.0, 0.5, 0.25]] * 2,
        "kernel_limit_test": [[0.75, 0.25, 0.125], [0.25, 0.75, 0.375]],
        "trivial_test": [2.0, 2.0],
        "n_test": 400,
    }
    monkeypatch.setattr(seed_000.nse, "single_relu_experiment", lambda **kwargs: r)
    fig = new_figure(11.0, 4.0)
    seed_000._draw_fig2(fig, False, False)
    (ax_test,) = [ax for ax in fig.axes if ax.get_title().startswith("test error")]
    gaps = [abs(Fraction(a) - Fraction(b)) for a, b in
            zip(("1/2", "1/4", "1/8"), ("1/2", "1/2", "1/4"), strict=True)]  # fmt: skip
    assert max(gaps) == Fraction(1, 4)
    assert ax_test.get_title() == "test error (400 points); max |γ=1 - limit| = 0.25"


# ---------------------------------------------------------------------------
# seed 001, Figure 5: GD recorded at step 0 and log-spaced steps up to FIG5_STEPS
# ---------------------------------------------------------------------------
def test_seed_001_fig5_records_gd_at_step_0_and_log_spaced_steps_to_the_last(monkeypatch):
    """Mutant solvable/verification/figures/seed_001.py:249:core/NumberReplacer:149.

    Figure 5 runs GD for FIG5_STEPS steps at lr = HORIZON t_c / FIG5_STEPS (caption) and
    plots it against step k + 1 on a log axis: it records step 0 (the initialisation) and
    FIG5_RECORDS log-spaced steps from 1 to FIG5_STEPS, rounded to whole steps (repeats
    merged).  The closed form and GD are replaced by fakes (t_c = 2); the expected steps
    are computed here with Python floats, FIG5_STEPS ** (k / (FIG5_RECORDS - 1))."""
    runs = []

    def fake_closed_form(setup, u0, w0):
        return types.SimpleNamespace(
            t_c=2.0, sample=lambda ts: types.SimpleNamespace(alignment=np.zeros(len(ts)))
        )

    def fake_gradient_descent(model, params, lr, record, device=None):
        runs.append((lr, [int(k) for k in record]))
        raise _StopDrawingError

    monkeypatch.setattr(seed_001.xz, "closed_form", fake_closed_form)
    monkeypatch.setattr(seed_001.fig5, "gradient_descent", fake_gradient_descent)  # its GD runs
    fig = new_figure(11.0, 4.0)
    with pytest.raises(_StopDrawingError):
        seed_001._draw_fig5(fig, False, False)
    ((lr, record),) = runs
    n, steps = seed_001.FIG5_RECORDS, seed_001.FIG5_STEPS
    # lr = 5 t_c / 2000 with t_c = 2: both exact binary fractions up to one rounding
    assert lr == pytest.approx(seed_001.HORIZON * 2.0 / steps, rel=1e-15)
    want = sorted({round(steps ** (k / (n - 1))) for k in range(n)})
    assert record == [0, *want]
    assert record[1] == 1 and record[-1] == steps


class _StopDrawingError(Exception):
    """Raised by a spy once it has recorded what the figure handed it."""


# ---------------------------------------------------------------------------
# seed 004, condensation: each point of the lower panels is one neuron's (weight, bias)
# ---------------------------------------------------------------------------
def test_seed_004_condensation_scatters_each_neurons_weight_against_its_bias():
    """The lower panels of 004-condensation draw, per neuron k of the first layer, the point
    (weight, bias) = rows of ``pdg.input_weights(run, "W1")`` (d = 1: two columns) for the
    initial and the trained net (seed-23 survivor ``seed_004.py:346``: the bias against
    itself, on the diagonal, passed every test)."""
    fig = new_figure(12.0, 7.0)
    seed_004._draw_condensation(fig, False, False)
    panels = [ax for ax in fig.axes if ax.get_xlabel().startswith("weight")]
    assert len(panels) == len(seed_004.FIG2_GAMMA_3)
    for ax, g3 in zip(panels, seed_004.FIG2_GAMMA_3, strict=True):
        run = seed_004._train(Fraction(0), g3, False)
        lines = {ln.get_label(): ln for ln in ax.get_lines()}
        for when, label in (("p0", "initial"), ("p", "trained")):
            W = np.asarray(pdg.input_weights(run[when], "W1"), dtype=float)
            np.testing.assert_array_equal(lines[label].get_xdata(), W[:, 0])
            np.testing.assert_array_equal(lines[label].get_ydata(), W[:, 1])
