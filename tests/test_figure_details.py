"""Details of the figures that the render tests (files written, legends) do not read: a
reference line's value, a caption's stated sizes against the sizes the figure runs, the
heat map's cells against its grid points, and ``render``'s default progress display.

Mutation-testing triage (batch A).  The expensive parts (closed forms, sweeps, phase
measurements) are replaced by small fakes or shrunk where the test reads only what the
figure does with their output.
"""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import numpy as np
import pytest

import numerics
from numerics.torch_flow import threads
from solvable.models import three_layer
from solvable.models import xu_ziyin as xz
from solvable.verification import figures
from solvable.verification.figures import figure, seed_000, seed_001, seed_002, seed_004
from solvable.verification.figures._common import new_figure


# ---------------------------------------------------------------------------
# seed 001, Figure 1(a), (b): the dotted line of the f(t) panel is the target y = 2
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["iid", "near"])
def test_seed_001_linear_f_panel_marks_the_target_y(monkeypatch, kind):
    """Figure 1(a)/(b) (Appendix B, module docstring: one data point x = 1, y = 2): the f(t)
    panel draws f of the closed form and of the simulation converging to the label, and its
    one dotted horizontal line marks that label, y = 2, the target of every net drawn (the
    ``Setup`` each curve is computed for).  The closed form and the simulation are replaced
    by f(t) = y (1 - e^-t) here (the line is what is read; the real curves cost ~20 s of
    code generation)."""
    setups = []

    def fake_closed_form(setup, u0, w0):
        setups.append(setup)
        y = float(setup.y)

        def sample(ts):
            ts = np.asarray(ts, dtype=float)
            return SimpleNamespace(alignment=np.full_like(ts, 0.5), f=y * (1 - np.exp(-ts)))

        return SimpleNamespace(t_c=1.0, sample=sample)

    def fake_simulate(setup, u0, w0, times, **kw):
        y = float(setup.y)
        return [SimpleNamespace(alignment=0.5, f=y * (1 - math.exp(-t))) for t in times]

    monkeypatch.setattr(xz, "closed_form", fake_closed_form)
    monkeypatch.setattr(numerics, "simulate", fake_simulate)
    monkeypatch.setattr(seed_001, "D_FAST", 8)  # the width does not enter the line
    fig = new_figure(10.0, 4.0)
    seed_001._draw_linear(fig, False, kind)
    _ax_z, ax_f = fig.axes
    assert ax_f.get_ylabel() == "f(t)"
    dotted = [ln for ln in ax_f.get_lines() if ln.get_linestyle() == ":"]
    assert len(dotted) == 1, [ln.get_linestyle() for ln in ax_f.get_lines()]
    y_line = np.asarray(dotted[0].get_ydata(), dtype=float)
    assert setups and all(float(s.y) == 2.0 for s in setups)  # Appendix B: y = 2
    # axhline's data are the exact float it was given (no arithmetic): compare exactly
    assert y_line.tolist() == [2.0, 2.0], y_line


# ---------------------------------------------------------------------------
# seed 002, linearisation figure: the caption's sizes are the ones run
# ---------------------------------------------------------------------------
_CAPTION_SIZES = re.compile(
    r"default p = (\d+)\.\.(\d+) \(Hessian\), (\d+)\.\.(\d+) with (\d+) initialisations "
    r"\(flow\); --full up to (\d+) and (\d+) with (\d+)\."
)


def _linearisation_figure():
    (fig,) = figures.select(["002-linearisation-width"])
    return fig


class _StopError(Exception):
    """Raised by the recording flow sweep: the figure is not drawn further."""


def test_seed_002_linearisation_caption_states_the_sizes_the_figure_runs(monkeypatch):
    """The caption of 002-linearisation-width states the sizes: "default p = A..B
    (Hessian), C..D with N initialisations (flow); --full up to E and F with G".  They must
    be those the figure passes to the Hessian sweep and the flow sweep, default and --full
    (the sweeps are replaced by recorders: only their arguments are read)."""
    calls: dict[str, dict[str, object]] = {}

    def fake_hessian_sweep(widths, *, seeds, device=None, **kw):
        calls["hessian"] = {"widths": tuple(widths), "seeds": seeds}

    def fake_linearisation_sweep(widths, *, seeds, n_times=41, device=None, **kw):
        calls["flow"] = {"widths": tuple(widths), "seeds": seeds}
        raise _StopError

    monkeypatch.setattr(seed_002.lw, "hessian_sweep", fake_hessian_sweep)
    monkeypatch.setattr(seed_002.lw, "linearisation_sweep", fake_linearisation_sweep)
    monkeypatch.setattr(seed_002, "resolve_device", lambda device: "cpu")  # no CUDA probe
    m = _CAPTION_SIZES.search(_linearisation_figure().caption)
    assert m, _linearisation_figure().caption
    h_lo, h_hi, f_lo, f_hi, f_seeds, full_h, full_f, full_seeds = map(int, m.groups())
    ran = {}
    for full in (False, True):
        calls.clear()
        with pytest.raises(_StopError):
            seed_002._draw_linearisation(new_figure(14.0, 4.0), full, False)
        ran[full] = dict(calls)
    fast, full = ran[False], ran[True]
    assert (h_lo, h_hi) == (min(fast["hessian"]["widths"]), max(fast["hessian"]["widths"]))
    assert (f_lo, f_hi) == (min(fast["flow"]["widths"]), max(fast["flow"]["widths"]))
    assert f_seeds == fast["flow"]["seeds"]
    assert full_h == max(full["hessian"]["widths"])
    assert full_f == max(full["flow"]["widths"])
    assert full_seeds == full["flow"]["seeds"]


def test_seed_002_linearisation_default_draws_one_dot_series_per_initialisation(monkeypatch):
    """The default figure's middle panel draws sup_t E(t) "per init" (caption: "with N
    initialisations (flow)"): as many dot series as the caption states, from a flow sweep
    that accepts that count (``lw.linearisation_sweep`` needs at least 2 initialisations
    per width: the spread over them is what the fitted slope's error comes from).  The
    widths are shrunk to 2 and 4 and the flow to t <= 1/2 at 3 times (about a second); the
    numbers of initialisations are the figure's own."""
    real = seed_002.lw.linearisation_sweep

    def short_flow(widths, **kw):
        return real(widths, **{**kw, "n_times": 3, "horizon": 0.5})

    monkeypatch.setattr(seed_002.lw, "linearisation_sweep", short_flow)
    monkeypatch.setattr(seed_002, "WIDTHS_FAST", (2, 4))
    monkeypatch.setattr(seed_002, "LIN_FAST", (2, 4))
    m = _CAPTION_SIZES.search(_linearisation_figure().caption)
    assert m
    stated = int(m.group(5))
    fig = new_figure(14.0, 4.0)
    with threads(1):
        try:
            seed_002._draw_linearisation(fig, False, False)
            drawn = None
        except ValueError as exc:  # a sweep refusing the figure's sizes
            drawn = exc
    assert drawn is None, f"the default figure could not be drawn: {drawn}"
    ax_e = fig.axes[1]
    per_init = [ln for ln in ax_e.get_lines() if ln.get_marker() == "o"]
    assert len(per_init) == stated, (len(per_init), stated)
    assert per_init[0].get_label() == "simulated: sup_t E(t), per init"
    assert stated >= 2
    # the rate line has the slope its label and the title state, p^(-1/2) (Proposition 1):
    # its log-log slope between any two widths (seed-5 triage key
    # solvable/verification/figures/seed_002.py:129:core/NumberReplacer:154); exact powers: 1e-12
    (rate,) = [ln for ln in ax_e.get_lines() if "rate" in ln.get_label()]
    assert "p^(-1/2)" in rate.get_label()
    x, y = (np.asarray(v, dtype=float) for v in rate.get_data())
    slopes = np.diff(np.log(y)) / np.diff(np.log(x))
    assert np.all(np.abs(slopes + 0.5) <= 1e-12), slopes


# ---------------------------------------------------------------------------
# seed 004, Figure 5: every grid point sits in its own heat-map cell
# ---------------------------------------------------------------------------
FAKE_ERR = 0.05  # the fake points' standard error of S_W


class _FakePoint:
    """A phase point with S of our linear estimate (numerics.sweep_three_layer): S_W1 =
    gamma_3 - 2 gamma_2 - 3/2, S_W2 = gamma_3 - 2, s.e. FAKE_ERR; its zeros are known
    exactly."""

    widths, seeds = (32, 64, 128), (0, 1, 2)

    def __init__(self, g2, g3):
        self.g2, self.g3 = float(g2), float(g3)

    def slope(self, layer):
        return self.g3 - 2 * self.g2 - 1.5 if layer == "W1" else self.g3 - 2.0

    def err(self, layer):
        return FAKE_ERR

    def regime(self, layer, band=0.1):
        return three_layer.regime_from_slope(self.slope(layer), max(band, 2 * FAKE_ERR))


def test_seed_004_fig5_heat_map_cells_hold_their_grid_points(monkeypatch):
    """Figure 5 colours the (gamma_2, gamma_3) plane by S_W per grid point (caption:
    "Colour: S_W of eq. (11) per grid point"), with each point marked by a dot and its
    number.  The cells must tile the plane (edges strictly increasing along both axes, or
    cells overlap and a colour is drawn over another), each dot must lie inside its own
    cell, and that cell's colour value must be the point's S.  The measurement is replaced
    by the linear estimate (the real grid takes minutes); the grid is the figure's."""
    monkeypatch.setattr(seed_004, "_measure",
                        lambda g2, g3, full, progress, widths=None: _FakePoint(g2, g3))  # fmt: skip
    fig = new_figure(12.0, 4.6)
    seed_004._draw_fig5(fig, False, False)
    panels = [ax for ax in fig.axes if ax.collections and ax.get_xlabel()]
    assert len(panels) == 2
    for ax, layer in zip(panels, ("W1", "W2"), strict=True):
        (mesh,) = [c for c in ax.collections if type(c).__name__ == "QuadMesh"]
        coords = np.asarray(mesh.get_coordinates())  # (n3 + 1, n2 + 1, 2)
        x_edges, y_edges = coords[0, :, 0], coords[:, 0, 1]
        assert np.all(np.diff(x_edges) > 0), x_edges
        assert np.all(np.diff(y_edges) > 0), y_edges
        values = np.asarray(mesh.get_array()).reshape(len(y_edges) - 1, len(x_edges) - 1)
        dots = [ln for ln in ax.get_lines() if ln.get_marker() == "."]
        assert len(dots) == values.size
        for ln in dots:
            (x,), (y,) = ln.get_xdata(), ln.get_ydata()
            i = int(np.searchsorted(x_edges, x)) - 1
            j = int(np.searchsorted(y_edges, y)) - 1
            assert x_edges[i] < x < x_edges[i + 1] and y_edges[j] < y < y_edges[j + 1]
            # the colour value is the point's S as computed (same float operations)
            assert values[j, i] == _FakePoint(x, y).slope(layer), (layer, x, y)


# ---------------------------------------------------------------------------
# figures.render: progress is on by default
# ---------------------------------------------------------------------------
def test_render_shows_progress_by_default(monkeypatch, tmp_path, capsys):
    """``figures.render(ids, out)`` (no ``progress``): its default shows the progress on
    stderr (a tqdm bar named by the figure id, or a plain line without tqdm) and hands
    ``progress=True`` down to the figure's drawing (which may show its own); only
    ``progress=False`` silences it.  A one-axes figure registered for the test."""
    seen = []

    def draw(fig, full, progress):
        seen.append(progress)
        fig.add_subplot(1, 1, 1).plot([0, 1], [0, 1])

    tiny = figure("000-progress-default", "000_0123456789abcdef.txt", "Figure 0", "t",
                  "a test figure", draw, size=(2.0, 2.0))  # fmt: skip
    monkeypatch.setattr(seed_000, "FIGURES", (tiny,))
    paths = figures.render(["000-progress-default"], tmp_path)
    assert [p.name for p in paths] == ["000-progress-default.png", "000-progress-default.svg"]
    assert seen == [True]
    assert "000-progress-default" in capsys.readouterr().err
    figures.render(["000-progress-default"], tmp_path, progress=False)
    assert seen == [True, False]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "values, edges",
    [([0.5], [0.35, 0.65]), ([0.0, 1.0], [-0.15, 0.5, 1.15]), ([0.0, 0.2], [-0.1, 0.1, 0.3])],
)
def test_cell_edges_of_one_two_and_close_values(values, edges):
    """Seed 004's heat-map cells: midpoints inside, ``reach`` = 0.15 (or the half spacing,
    if smaller) beyond the ends; a single value gets +-reach on both sides (its ``+`` made
    ``*`` survived the seed-18 sample)."""
    assert np.allclose(seed_004._cell_edges(values), edges, rtol=0, atol=1e-15)
