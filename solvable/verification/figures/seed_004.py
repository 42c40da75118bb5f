"""Seed 004 (Zhou et al., three-layer ReLU phase diagram): Figures 1, 4 and 5 measured on
trained nets, and the condensation pictures of Figures 2-3 (and 7-8).

Simulation: :mod:`numerics.phase_diagram` (every net is one
:func:`numerics.sweep_three_layer.rd_point`: the 1-d four-point problem of Section 5.1,
both biases folded into the input weights, full-batch gradient descent to ``R_S <= 1e-6``;
the slopes ``S_W`` of eq. (11) per phase point with their standard errors, the regime read
with the band :data:`numerics.phase_diagram.BAND`, the zero crossings of
:func:`numerics.phase_diagram.boundaries`, and ``D(u, v)`` of eq. (2) /
``zeta`` of Section 5.4 on the weights of :func:`numerics.phase_diagram.train`).

Theory drawn over it: the paper states no boundary in closed form (Section 5.3.1: "the
dashed lines are our speculative boundary"; its figures are not in the text), so what is
drawn is what it states as data, from :mod:`solvable.models.three_layer`: the points where it
states a regime (:data:`~solvable.models.three_layer.PAPER_POINTS`, Table 2 among them), Table 1's
initialisations (:func:`~solvable.models.three_layer.table_1`, ``gamma`` computed by eq. (9)), and,
labelled as ours, the slope of a net that stays linear
(:func:`numerics.sweep_three_layer.linear_estimate`: ``S_W1 = gamma_3 - 2 gamma_2 - 3/2``,
``S_W2 = gamma_3 - 2``, self-consistent only where negative), whose zero lines bound the
region where that estimate applies.

Fast default: the claims' widths 32, 64, 128 and seeds 0, 1, 2
(:data:`numerics.phase_diagram.FAST_WIDTHS`, ``FAST_SEEDS``) on a 3 x 4 grid (Figure 5)
and the plane claims' 3 x 3 grid (Figure 1,
:data:`solvable.verification.confirmations._three_layer_plane.GRID_FAST`; one point shared),
the condensation pictures at m = 64, one torch thread (measured on a loaded 2-core machine:
6-10 s for the condensation pictures, 10-25 s for Figure 4, 1.5-2.5 minutes for Figure 5's
grid).  ``full=True``: the
paper's widths (Figure 5: 100..10000, Figure 4: 100..10000 with 2000 in place of 2500),
eight seeds (Table 2's caption), a finer grid and m = 10000 for Figures 2-3, on CUDA where
torch finds one (hours).  Phase points are measured once per process
(:func:`functools.cache`), so the figures share runs; nothing is written to disk.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import numpy as np

from numerics import phase_diagram as pdg
from numerics import scale_out as so
from numerics.sweep_three_layer import DATA_X, DATA_Y, linear_estimate
from numerics.torch_flow import threads
from solvable.models import three_layer
from solvable.verification.confirmations import _three_layer_figure2 as figure2
from solvable.verification.confirmations import _three_layer_plane as plane
from solvable.verification.figures._common import Figure, figure

__all__ = ["FIGURES", "SEED"]

SEED = three_layer.SEED
F = Fraction

# the grid of Figure 5 (Figure 1 draws the plane claims' grid): reduced (it brackets the
# paper's critical points gamma_3 = 3/2 for W1 at gamma_2 = 0 and 5/2 for W2 at gamma_2 =
# 7/10, and holds (0, 1.1), (0, 2.1) and (1/2, 2.8) of PAPER_POINTS); full: finer, with
# Table 2 No. 2's gamma_3 = 5/2
GRID_FAST = ((F(0), F(1, 2), F(7, 10)), (F(11, 10), F(3, 2), F(21, 10), F(14, 5)))
GRID_FULL = ((F(0), F(1, 4), F(1, 2), F(7, 10)),
             (F(9, 10), F(11, 10), F(3, 2), F(21, 10), F(5, 2), F(14, 5)))  # fmt: skip
# Figure 4: gamma_2 = 0, gamma_3 in {0.9, 1.5, 2.1}; the paper's widths are its caption's
FIG4_GAMMA_3 = (F(9, 10), F(3, 2), F(21, 10))
FIG4_WIDTHS_FULL = (100, 1000, 2000, 5000, 10000)
# Figures 2-3: W2 at a linear and a condensed point (the claim three_layer.condensation_w2's
# points), W1 at Figure 2's gamma_3 in {1.0, 1.5, 2.0}, gamma_2 = 0
COND_LINEAR = (F(0), F(11, 10))
COND_CONDENSED = (F(1, 2), F(14, 5))
FIG2_GAMMA_3 = (F(1), F(3, 2), F(2))
COND_WIDTH_FAST, COND_WIDTH_FULL = 64, 10000  # the paper's m = 10000 (Figures 2, 3)
COND_SEED = 0

# regime colours as in the paper's Figure 5 ("red zone": S < 0, linear; "blue zone": S > 0)
_REGIME_STYLE = {
    "linear": {"marker": "v", "color": "C3"},
    "critical": {"marker": "D", "color": "0.3"},
    "condensed": {"marker": "^", "color": "C0"},
    "undetermined": {"marker": "x", "color": "k"},
}


def _config(full: bool) -> dict[str, Any]:
    if full:  # the paper's widths (Figure 5) and seeds (Table 2); CUDA where available
        return {"widths": pdg.FULL_WIDTHS, "seeds": pdg.FULL_SEEDS, "device": None,
                "threads": None}  # fmt: skip
    return {"widths": pdg.FAST_WIDTHS, "seeds": pdg.FAST_SEEDS, "device": "cpu", "threads": 1}


def _so(scale_out: so.ScaleOut | None) -> dict[str, Any]:
    """``scale_out`` as a keyword only when one is given (the fast default's calls, and the
    tests' stand-ins for ``_measure`` / ``_diagram``, keep their old form)."""
    return {} if scale_out is None else {"scale_out": scale_out}


@functools.cache
def _point(gamma_2: Fraction, gamma_3: Fraction, widths: tuple[int, ...],
           seeds: tuple[int, ...], device: str | None, n_threads: int | None,
           progress: bool = False,
           scale_out: so.ScaleOut | None = None) -> pdg.PhasePoint:  # fmt: skip
    """One measured phase point (``alpha = 1``), cached for the process: the figures share
    runs, and a second render of the same figure costs nothing.  ``scale_out``: through
    :func:`numerics.scale_out.measure_points` (its executor, device, point cache, bar)."""
    with threads(n_threads):
        if scale_out is not None:
            (p,) = so.measure_points([(gamma_2, gamma_3)], widths, seeds, scale_out=scale_out,
                                     device=device)  # fmt: skip
        else:
            (p,) = pdg.measure_points([(gamma_2, gamma_3)], widths, seeds, device=device,
                                      progress=progress)  # fmt: skip
    return p


def _measure(gamma_2: Fraction, gamma_3: Fraction, full: bool, progress: bool,
             widths: tuple[int, ...] | None = None,
             scale_out: so.ScaleOut | None = None) -> pdg.PhasePoint:  # fmt: skip
    c = _config(full)
    # a progress bar per point only for the paper's sizes (the reduced ones take seconds),
    # so that the reduced measurement has one cache key
    return _point(gamma_2, gamma_3, tuple(widths or c["widths"]), tuple(c["seeds"]),
                  c["device"], c["threads"], progress and full, scale_out)  # fmt: skip


def _diagram(full: bool, progress: bool, scale_out: so.ScaleOut | None = None,
             grid: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None = None
             ) -> pdg.PhaseDiagram:  # fmt: skip
    """The grid of Figure 5 (:data:`GRID_FAST` or :data:`GRID_FULL`), or ``grid``."""
    g2s, g3s = grid or (GRID_FULL if full else GRID_FAST)
    rows = tuple(tuple(_measure(a, b, full, progress, **_so(scale_out)) for b in g3s)
                 for a in g2s)  # fmt: skip
    first = rows[0][0]
    return pdg.PhaseDiagram(g2s, g3s, first.widths, first.seeds, rows)


def _crossings(diagram: pdg.PhaseDiagram, layer: str) -> list[pdg.Crossing]:
    return pdg.boundaries(diagram, layer, "gamma_3") + pdg.boundaries(diagram, layer, "gamma_2")


def _draw_crossings(ax: Any, crossings: list[pdg.Crossing]) -> None:
    """Figure 5's stars: a zero of ``S_W`` along gamma_3 (vertical error bar) or along
    gamma_2 (horizontal error bar), one standard error."""
    done: set[str] = set()
    for c in crossings:
        along3 = c.axis == "gamma_3"
        x, y = (c.fixed, c.at) if along3 else (c.at, c.fixed)
        lab = (f"measured zero of S (along γ{3 if along3 else 2}, ± 1 s.e.)"
               if c.axis not in done else None)  # fmt: skip
        done.add(c.axis)
        ax.errorbar(x, y, yerr=c.err if along3 else None, xerr=None if along3 else c.err,
                    fmt="*", ms=12, color="gold" if along3 else "violet", mec="k", mew=0.7,
                    ecolor="k", capsize=3, zorder=5, label=lab)  # fmt: skip


def _paper_points(ax: Any, layer: str) -> None:
    """PAPER_POINTS for ``layer``: large open circles coloured by the stated regime
    (grey: the paper states none for this layer there)."""
    col = 0 if layer == "W1" else 1
    done: set[str] = set()
    for (g2, g3), stated in three_layer.PAPER_POINTS.items():
        regime = stated[col]
        color = _REGIME_STYLE[regime]["color"] if regime != "n/s" else "0.6"
        key = regime if regime != "n/s" else "not stated"
        ax.plot(float(g2), float(g3), "o", ms=17, mfc="none", mec=color, mew=2,
                ls="none", zorder=3,
                label=None if key in done else f"paper states: {key}")  # fmt: skip
        done.add(key)


def _table_1(ax: Any) -> None:
    """Table 1's initialisations at their (gamma_2, gamma_3) of eq. (9), labelled."""
    at: dict[tuple[float, float], list[str]] = {}
    for row in three_layer.table_1():
        at.setdefault((float(row["gamma_2"]), float(row["gamma_3"])), []).append(row["name"])
    for k, (xy, names) in enumerate(at.items()):
        ax.plot(*xy, "ks", ms=5, zorder=4, label="Table 1 initialisation" if k == 0 else None)
        ax.annotate("/".join(names), xy, xytext=(5, -11), textcoords="offset points",
                    fontsize=7)  # fmt: skip


def _estimate_edge(ax: Any, layer: str, g2_range: tuple[float, float]) -> None:
    """The zero line of :func:`linear_estimate` for ``layer`` (ours, not the paper's).  The
    estimate is ``gamma_3`` plus a function of ``gamma_2`` (coefficient 1), so its zero at
    ``gamma_2`` is ``-S(gamma_2, 0)``."""
    k = 0 if layer == "W1" else 1
    g2 = np.linspace(*g2_range, 3)
    g3 = [float(-linear_estimate(float(v), 0)[k]) for v in g2]
    ax.plot(g2, g3, "k--", lw=1, label="S = 0 of our linear estimate (below it: applies)")


def _frame(ax: Any, diagram: pdg.PhaseDiagram) -> tuple[float, float]:
    g2 = [float(v) for v in diagram.gamma_2s]
    g3 = [float(v) for v in diagram.gamma_3s]
    lo2, hi2 = min([*g2, 0.0]) - 0.12, max(g2) + 0.12
    ax.set_xlim(lo2, hi2)
    ax.set_ylim(min([*g3, 1.0]) - 0.2, max(g3) + 0.2)
    ax.set_xlabel(r"$\gamma_2$")
    ax.set_ylabel(r"$\gamma_3$")
    return lo2, hi2


# Figure 1's regime pairs (W1, W2): reds where W2 is linear, blues where it condenses, the
# darker where W1 condenses; grey where a layer reads critical (or has no slope)
_PAIRS: tuple[tuple[tuple[str, str], str], ...] = (
    (("linear", "linear"), "#f4a582"),
    (("condensed", "linear"), "#b2182b"),
    (("condensed", "condensed"), "#2166ac"),
    (("linear", "condensed"), "#92c5de"),
)
_OTHER = "#d9d9d9"


_SHORT = {"linear": "lin", "critical": "crit", "condensed": "cond", "n/s": "n/s"}


def _paper_pairs(ax: Any) -> None:
    """PAPER_POINTS on one plane: open circles, labelled with the stated pair (W1/W2; n/s:
    not stated)."""
    for k, ((g2, g3), stated) in enumerate(three_layer.PAPER_POINTS.items()):
        ax.plot(float(g2), float(g3), "o", ms=15, mfc="none", mec="k", mew=1.5, zorder=3,
                label="paper states (W1/W2)" if k == 0 else None)  # fmt: skip
        ax.annotate(
            f"{_SHORT[stated[0]]}/{_SHORT[stated[1]]}",
            (float(g2), float(g3)),
            xytext=(9, 6),
            textcoords="offset points",
            fontsize=7,
            fontweight="bold",
        )


def _pair_name(pair: tuple[str, str]) -> str:
    return f"W1 {pair[0]} / W2 {pair[1]}"


def _draw_fig1(fig: Any, full: bool, progress: bool,
               scale_out: so.ScaleOut | None = None) -> None:  # fmt: skip
    """One (gamma_2, gamma_3) plane as the paper's Figure 1: each cell of the plane claims'
    grid (:mod:`~solvable.verification.confirmations._three_layer_plane`) shaded by the
    measured regime pair, the critical lines of that module drawn over it."""
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    diagram = _diagram(full, progress, **_so(scale_out),
                       grid=plane.GRID_FULL if full else plane.GRID_FAST)  # fmt: skip
    g2 = [float(v) for v in diagram.gamma_2s]
    g3 = [float(v) for v in diagram.gamma_3s]
    index = {pair: k for k, (pair, _) in enumerate(_PAIRS)}
    r1, r2 = diagram.regimes("W1"), diagram.regimes("W2")
    cells = np.array([[index.get((r1[i, j], r2[i, j]), len(_PAIRS)) for i in range(len(g2))]
                      for j in range(len(g3))], dtype=float)  # fmt: skip
    ax = fig.add_subplot(1, 1, 1)
    cmap = ListedColormap([c for _, c in _PAIRS] + [_OTHER])
    ax.pcolormesh(_cell_edges(g2, 0.125), _cell_edges(g3, 0.25), cells, cmap=cmap, vmin=-0.5,
                  vmax=len(_PAIRS) + 0.5, shading="flat")  # fmt: skip
    S1, S2 = diagram.slopes("W1"), diagram.slopes("W2")
    for i, a in enumerate(g2):
        for j, b in enumerate(g3):
            ax.plot(a, b, "k.", ms=3)
            text = f"{S1[i, j]:+.2f}\n{S2[i, j]:+.2f}"
            ax.annotate(text, (a, b), xytext=(0, -4), textcoords="offset points", ha="center",
                        va="top", fontsize=6.5)  # fmt: skip
    lo2, hi2 = _frame(ax, diagram)
    xs = np.array([lo2, hi2])
    for layer, style in (("W1", "k-"), ("W2", "k--")):
        c, k = plane.CRITICAL_LINES[layer]
        ax.plot(xs, float(c) + float(k) * xs, style, lw=1.6,
                label=f"{layer} critical line γ3 = {float(c):g}"
                + (f" + {float(k):g} γ2" if k else ""))  # fmt: skip
    _paper_pairs(ax)
    _table_1(ax)
    handles = ax.get_legend_handles_labels()[0]
    handles += [Patch(color=c, label=_pair_name(p)) for p, c in _PAIRS]
    handles.append(Patch(color=_OTHER, label="a layer reads critical"))
    ax.legend(handles=handles, loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize=7,
              frameon=False)  # fmt: skip
    ax.set_title("measured regime pair per grid cell (numbers: S_W1, S_W2; band max(0.1, 2 "
                 "s.e.)); lines through the paper's critical points", fontsize=9)  # fmt: skip


def _loglog_line(widths: np.ndarray, rd: np.ndarray) -> tuple[float, float]:
    """The anchor ``(mean log m, mean log RD)`` of the least-squares line of the seed
    geometric means (the line of ``fit_layer``'s slope passes through it)."""
    ok = np.isfinite(rd) & (rd > 0)
    rows = ok.any(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(ok, np.log(np.where(ok, rd, 1.0)), np.nan)
    gm = np.nanmean(logs[rows], axis=1)
    return float(np.mean(np.log(widths[rows]))), float(np.mean(gm))


def _draw_fig4(fig: Any, full: bool, progress: bool,
               scale_out: so.ScaleOut | None = None) -> None:  # fmt: skip
    widths = FIG4_WIDTHS_FULL if full else None
    axes = fig.subplots(1, len(FIG4_GAMMA_3), sharey=True)
    for ax, g3 in zip(axes, FIG4_GAMMA_3, strict=True):
        p = _measure(F(0), g3, full, progress, widths, **_so(scale_out))
        w = np.array(p.widths, dtype=float)
        rd = np.asarray(p.rd["W1"], dtype=float)
        for j, seed in enumerate(p.seeds):
            ax.loglog(w, rd[:, j], "os^dvP<>"[j % 8], color=f"C{j % 10}", ms=4, ls="none",
                      alpha=0.8, label=f"seed {seed}")  # fmt: skip
        fit = p.fits["W1"]
        x0, y0 = _loglog_line(w, rd)
        grid = np.geomspace(w[0], w[-1], 20)
        ax.loglog(grid, np.exp(y0 + fit.slope * (np.log(grid) - x0)), "k-", lw=1.2,
                  label=f"fit: S = {fit.slope:+.3f}")  # fmt: skip
        est = float(linear_estimate(F(0), g3)[0])
        if est < 0:  # the linear estimate is self-consistent only where negative
            ax.loglog(grid, np.exp(y0 + est * (np.log(grid) - x0)), "C2--", lw=1.2,
                      label=f"linear estimate: S = {est:+.2f}")  # fmt: skip
            note = ""
        else:
            note = f"\nlinear estimate {est:+.2f}: applies only where < 0"
        stated = three_layer.PAPER_POINTS.get((F(0), g3))
        paper = f"; paper: {stated[0]}" if stated and stated[0] != "n/s" else ""
        ax.set_title(rf"$\gamma_3 = {float(g3):g}$: $S_{{W1}} = {fit.slope:+.3f} \pm "
                     rf"{fit.err:.3f}$" + f"\nmeasured {p.regime('W1')}{paper}{note}",
                     fontsize=9)  # fmt: skip
        ax.set_xticks(w, [str(int(v)) for v in w])
        ax.minorticks_off()
        ax.set_xlabel("width m")
        ax.legend(fontsize=7)
    axes[0].set_ylabel(r"RD($W^{[1]}$), eq. (10)")


def _cell_edges(values: list[float], reach: float = 0.15) -> np.ndarray:
    """Cell edges of a heat map over the grid ``values``: midpoints inside, and ``reach`` (or
    the half spacing, if smaller) beyond the first and last value."""
    v = np.asarray(values, dtype=float)
    mid = (v[1:] + v[:-1]) / 2
    first = v[0] - min(reach, mid[0] - v[0]) if v.size > 1 else v[0] - reach
    last = v[-1] + min(reach, v[-1] - mid[-1]) if v.size > 1 else v[-1] + reach
    return np.concatenate([[first], mid, [last]])


def _draw_fig5(fig: Any, full: bool, progress: bool,
               scale_out: so.ScaleOut | None = None) -> None:  # fmt: skip
    from matplotlib.colors import TwoSlopeNorm

    diagram = _diagram(full, progress, **_so(scale_out))
    g2 = [float(v) for v in diagram.gamma_2s]
    g3 = [float(v) for v in diagram.gamma_3s]
    S = {layer: diagram.slopes(layer) for layer in pdg.LAYERS}
    finite = [np.abs(s[np.isfinite(s)]) for s in S.values()]
    vmax = max((float(np.max(a)) for a in finite if a.size), default=0.0) or 1.0
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-vmax, vmax=vmax)  # diverging, centred at 0
    axes = fig.subplots(1, 2, sharey=True)
    for ax, layer in zip(axes, pdg.LAYERS, strict=True):
        mesh = ax.pcolormesh(_cell_edges(g2), _cell_edges(g3), S[layer].T, cmap="RdBu",
                             norm=norm, shading="flat")  # fmt: skip
        err = diagram.errors(layer)
        for i, a in enumerate(g2):
            for j, b in enumerate(g3):
                ax.plot(a, b, "k.", ms=3)
                ax.annotate(f"{S[layer][i, j]:+.2f}±{err[i, j]:.2f}", (a, b), xytext=(0, -5),
                            textcoords="offset points", ha="center", va="top",
                            fontsize=7)  # fmt: skip
        _draw_crossings(ax, _crossings(diagram, layer))
        col = 0 if layer == "W1" else 1
        crit = [(float(a), float(b)) for (a, b), v in three_layer.PAPER_POINTS.items()
                if v[col] == "critical"]  # fmt: skip
        if crit:
            ax.plot(*zip(*crit, strict=True), "o", ms=16, mfc="none", mec="k", mew=2,
                    label=f"paper: {layer} critical")  # fmt: skip
        ax.set_xlabel(r"$\gamma_2$")
        ax.set_title(f"S_{layer} (eq. (11)), slope of log RD on log m", fontsize=9)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2,
                  frameon=False)  # fmt: skip
        fig.colorbar(mesh, ax=ax, label=f"S_{layer}")
    axes[0].set_ylabel(r"$\gamma_3$")


@functools.cache
def _trained(gamma_2: Fraction, gamma_3: Fraction, m: int, device: str | None,
             n_threads: int | None) -> dict[str, Any]:  # fmt: skip
    """One training of :func:`numerics.phase_diagram.train` (seed :data:`COND_SEED`),
    cached for the process."""
    with threads(n_threads):
        return pdg.train(gamma_2, gamma_3, m, COND_SEED, device=device)


def _train(gamma_2: Fraction, gamma_3: Fraction, full: bool) -> dict[str, Any]:
    c = _config(full)
    m = COND_WIDTH_FULL if full else COND_WIDTH_FAST
    return _trained(gamma_2, gamma_3, m, c["device"], c["threads"])


def _draw_condensation(fig: Any, full: bool, progress: bool) -> None:
    # four matrices and their colour bar above, three scatter plots below
    outer = fig.add_gridspec(2, 1, height_ratios=(1.0, 0.9))
    top = outer[0].subgridspec(1, 5, width_ratios=(1, 1, 1, 1, 0.06))
    bottom = outer[1].subgridspec(1, 3)
    panels = [(COND_LINEAR, "linear"), (COND_CONDENSED, "condensed")]
    k = 0
    image = None
    for pt, kind in panels:
        r = _train(*pt, full)
        for when in ("p0", "p"):
            ax = fig.add_subplot(top[0, k])
            W = pdg.input_weights(r[when], "W2")
            D = pdg.cosine_matrix(W, top=0.5, order=True)
            image = ax.imshow(D, cmap="RdYlBu", vmin=-1, vmax=1, interpolation="nearest")
            z = pdg.zeta(W)
            state = "initial" if when == "p0" else f"trained ({r['steps']} GD steps)"
            ax.set_title(rf"$W^{{[2]}}$ at $({float(pt[0]):g}, {float(pt[1]):g})$, {kind}"
                         f"\n{state}: ζ = {z:.3f}", fontsize=8)  # fmt: skip
            ax.set_xticks([])
            ax.set_yticks([])
            k += 1
    fig.colorbar(image, cax=fig.add_subplot(top[0, 4]), label="D(u, v), eq. (2)")
    for k, g3 in enumerate(FIG2_GAMMA_3):
        ax = fig.add_subplot(bottom[0, k])
        r = _train(F(0), g3, full)
        for when, color, lab in (("p0", "C3", "initial"), ("p", "C2", "trained")):
            W = pdg.input_weights(r[when], "W1")  # (m, 2): weight and bias (d = 1)
            ax.plot(W[:, 0], W[:, 1], "o", color=color, ms=0.8 if full else 2.5,
                    alpha=0.7, label=lab)  # fmt: skip
        z0 = pdg.zeta(pdg.input_weights(r["p0"], "W1"))
        z1 = pdg.zeta(pdg.input_weights(r["p"], "W1"))
        ax.set_title(rf"$W^{{[1]}}_k$, $(\gamma_2, \gamma_3) = (0, {float(g3):g})$: "
                     f"ζ {z0:.3f} → {z1:.3f}", fontsize=8)  # fmt: skip
        ax.set_xlabel("weight $(W^{[1]}_k)_1$")
        ax.axhline(0, color="k", lw=0.4)
        ax.axvline(0, color="k", lw=0.4)
        if k == 0:
            ax.set_ylabel("bias $(W^{[1]}_k)_2$")
            ax.legend(fontsize=7, markerscale=2)


def _draw_fig2_functions(fig: Any, full: bool, progress: bool) -> None:
    """Figure 2's first row: the nets of the claim ``three_layer.figure_2_functions``
    (:func:`solvable.verification.confirmations._three_layer_figure2.measure`) on [-1, 1],
    one panel per gamma_3, every seed, with the data and the linear spline through them."""
    runs = figure2.measure(full)
    axes = fig.subplots(1, len(figure2.GAMMA_3), sharey=True)
    spline = np.interp(figure2.GRID, DATA_X, DATA_Y)
    for ax, g3 in zip(axes, figure2.GAMMA_3, strict=True):
        for k, seed in enumerate(sorted(s for g, s in runs if g == g3)):
            r = runs[g3, seed]
            label = f"seed {seed}: gap {r['spline_gap']:.1e}, curv. {r['curvature']:.2f}"
            ax.plot(figure2.GRID, r["f"], color=f"C{k}", lw=1.0, label=label)
        ax.plot(figure2.GRID, spline, "k--", lw=0.8, label="linear spline of the data")
        ax.plot(DATA_X, DATA_Y, "ko", ms=4)
        ax.set_title(rf"$(\gamma_2, \gamma_3) = (0, {float(g3):g})$", fontsize=9)
        ax.set_xlabel("x")
        ax.legend(fontsize=6)
    axes[0].set_ylabel("f(x)")


_W = pdg.FAST_WIDTHS
_WF = pdg.FULL_WIDTHS
_SETUP = (
    "Section 5.1's 1-d problem (our four points x = (-1, -1/3, 1/3, 1), y = (0.2, 0.6, 0.3, "
    "0.8); the paper does not print them), net (1) with both biases folded into the input "
    "weights (Section 3), a ~ N(0, beta_3^2), W2, b2 ~ N(0, beta_2^2), W1, b1 ~ N(0, "
    "beta_1^2) with alpha = 1, beta_2 = beta_3 = m^-p, beta_1 = m^-q at the phase point "
    "(eqs. (8)-(9)), full-batch GD (lr = min(0.25/lambda_max(K_0/n), 0.2)) to R_S <= 1e-6 "
    "(numerics.sweep_three_layer.rd_point). "
)


def _grid_text() -> str:
    fast = ", ".join(f"{float(v):g}" for v in GRID_FAST[0])
    fast3 = ", ".join(f"{float(v):g}" for v in GRID_FAST[1])
    full = ", ".join(f"{float(v):g}" for v in GRID_FULL[0])
    full3 = ", ".join(f"{float(v):g}" for v in GRID_FULL[1])
    return (f"Reduced: gamma_2 in {{{fast}}} x gamma_3 in {{{fast3}}}, widths {list(_W)}, "
            f"seeds {list(pdg.FAST_SEEDS)} (one CPU thread); --full: gamma_2 in {{{full}}} x "
            f"gamma_3 in {{{full3}}}, the paper's widths {list(_WF)} (Figure 5) and "
            f"{len(pdg.FULL_SEEDS)} seeds (Table 2), CUDA where available.")  # fmt: skip


FIGURES: tuple[Figure, ...] = (
    figure(
        "004-fig1",
        SEED,
        "Figure 1",
        "phase diagram: the measured regime pair on one (gamma_2, gamma_3) plane",
        _SETUP + "One plane as the paper's Figure 1. Each cell: the regime pair (W1, W2) "
        "measured at its grid point (dot), S_W of eq. (11) (least squares of the seed-mean "
        "log RD on log m, numerics.phase_diagram.measure_points; the numbers are S_W1 over "
        "S_W2) read as linear (S < -B), critical (|S| <= B) or condensed (S > B) with B = "
        "max(0.1, 2 s.e.); grey: a layer reads critical. Lines: the critical lines of the "
        "claim three_layer.figure_1_plane, each through the paper's one stated critical point "
        "of its layer (W1: Xavier's (0, 1.5), solid, gamma_3 = 1.5 + 2 gamma_2; W2: Table 2 "
        "No. 2's (0.7, 2.5), dashed, gamma_3 = 2.5). Their slopes are ours, not the paper's: "
        "its Figure 1 draws its boundaries as an image, and its text gives no equation (W1's "
        "slope is that of our linear estimate, numerics.sweep_three_layer.linear_estimate; "
        "W2's line is flat because in eq. (7) gamma_2 only sets W1's rate). Circles: the "
        "points where the paper states regimes (PAPER_POINTS, labelled W1/W2); squares: Table "
        "1's initialisations (gamma by eq. (9)). Reduced: the claim's grid gamma_2 in {"
        + ", ".join(f"{float(v):g}" for v in plane.GRID_FAST[0])
        + "} x gamma_3 in {"
        + ", ".join(f"{float(v):g}" for v in plane.GRID_FAST[1])
        + f"}}, widths {list(_W)}, "
        f"seeds {list(pdg.FAST_SEEDS)} (one CPU thread); --full: gamma_2 in {{"
        + ", ".join(f"{float(v):g}" for v in plane.GRID_FULL[0])
        + "} x gamma_3 in {"
        + ", ".join(f"{float(v):g}" for v in plane.GRID_FULL[1])
        + f"}}, the paper's widths "
        f"{list(_WF)} and {len(pdg.FULL_SEEDS)} seeds, CUDA where available.",
        _draw_fig1,
        size=(10.0, 6.0),
    ),
    figure(
        "004-fig4",
        SEED,
        "Figure 4",
        "RD(W1) against m at gamma_2 = 0",
        _SETUP + "gamma_2 = 0, gamma_3 in {0.9, 1.5, 2.1} (panels (a)-(c)). Markers: RD(W1) "
        "of eq. (10) (W1 and b1) per seed; solid: the least-squares line of the seed-mean "
        "log RD on log m (slope S_W1, s.e. the larger of the regression's and the seeds'); "
        "dashed, where it applies (S < 0): the slope of our linear estimate S_W1 = gamma_3 - "
        "3/2 (numerics.sweep_three_layer.linear_estimate, not the paper's; drawn through the "
        "same mean point, so only the slopes compare). Titles: the regime read with the band "
        "max(0.1, 2 s.e.) and the paper's stated one (PAPER_POINTS). Reduced: widths "
        f"{list(_W)}, seeds {list(pdg.FAST_SEEDS)}; --full the paper's widths "
        f"{list(FIG4_WIDTHS_FULL)} (its caption) and {len(pdg.FULL_SEEDS)} seeds, CUDA where "
        "available.",
        _draw_fig4,
        size=(12.0, 4.0),
    ),
    figure(
        "004-fig2",
        SEED,
        "Figure 2 (first row)",
        "the functions learned on the four points at gamma_3 = 1, 1.5, 2",
        _SETUP + "gamma_2 = 0, gamma_3 in {1, 1.5, 2} (the paper's columns: 'from a relatively "
        "jagged interpolation (NTK scaling) to a smooth interpolation (mean-field scaling) and "
        "further to a linear spline interpolation'). Curves: the trained nets on [-1, 1] (600 "
        "intervals), one per seed, the same draws in every panel; dashed: the linear spline "
        "through the data. Legend: the claim three_layer.figure_2_functions' statistics, the "
        "largest distance from the linear spline through the net's own values at the data "
        "(gap) and the total variation of f' over that spline's (curv., >= 1). Reduced: m = "
        f"{figure2.WIDTH}, seeds {list(figure2.SEEDS)} (one CPU thread); --full m = "
        f"{figure2.WIDTH_FULL} (the paper's), seeds {list(figure2.SEEDS_FULL)}, CUDA where "
        "available.",
        _draw_fig2_functions,
        size=(12.0, 3.8),
    ),
    figure(
        "004-fig5",
        SEED,
        "Figure 5",
        "S_W1 and S_W2 over the (gamma_2, gamma_3) grid",
        _SETUP + "Colour: S_W of eq. (11) per grid point (red: S < 0, linear; blue: S > 0, "
        "condensed, as the paper's zones; diverging map centred at 0; numbers S ± s.e.). "
        "Stars: the zero crossings by linear interpolation of S_W along gamma_3 at fixed "
        "gamma_2 (yellow) and along gamma_2 at fixed gamma_3 (violet), ± 1 s.e. propagated "
        "(numerics.phase_diagram.boundaries), as the paper's stars. Circles: the paper's "
        "critical points (PAPER_POINTS: W1 at Xavier's (0, 1.5), W2 at Table 2 No. 2's (0.7, "
        "2.5)); the paper's dashed conjectured lines are not in its text and are not drawn. "
        + _grid_text(),
        _draw_fig5,
        size=(12.0, 4.6),
    ),
    figure(
        "004-condensation",
        SEED,
        "Figures 2-3, 7-8",
        "condensation: D(u, v) of W2 and the W1 scatter",
        _SETUP + "Top (Figure 3, Figure 8's zeta): D(u, v) of eq. (2) between the input "
        "weights [W2 | b2] of the half of the second-layer neurons with the largest norm "
        "(numerics.phase_diagram.cosine_matrix, ordered by angle in the plane of D's two "
        "leading eigenvectors; navy +1, beige 0, red -1 as the paper's), initial and trained, "
        "at the linear point (0, 1.1) and the condensed point (0.5, 2.8) (the paper's Fig. 3 "
        "compares 2.2 with 2.8 at gamma_2 = 0.5); zeta = mean |D| over those rows. Bottom "
        "(Figure 2, second row; Figure 7): the input weights (W1_k, b1_k) of every "
        "first-layer neuron, initial (red) and trained (green), at gamma_2 = 0 and the "
        "paper's gamma_3 in {1, 1.5, 2}, with zeta of W1. One seed. Reduced: m = "
        f"{COND_WIDTH_FAST} (one CPU thread); --full m = {COND_WIDTH_FULL} (the paper's), CUDA "
        "where available.",
        _draw_condensation,
        size=(13.0, 7.0),
    ),
)
