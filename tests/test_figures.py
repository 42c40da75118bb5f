"""``solvable figures``: the registry, the command line and the fast render of every figure."""

from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction

import matplotlib.colors as mcolors
import numpy as np
import pytest
from matplotlib.lines import Line2D

from solvable import papers
from solvable.verification import cli, figures
from solvable.verification.figures import Figure, figure
from solvable.verification.figures import _common as figures_common

# rendered in the default suite (a few seconds each, at least one per seed); the others
# take 5-60 s on one core (seed 004's phase grid ~1.5-2.5 min) and are marked slow
FAST = {"000-fig1", "001-fig1a", "001-fig1b", "002-kernel-width", "003-fig-regimes",
        "003-fig-wide", "003-fig-plateau", "004-condensation"}  # fmt: skip
IDS = [f.id for f in figures.figures()]
SEEDS = sorted({i.split("-", 1)[0] for i in IDS})


def test_registry_ids_unique_and_well_formed():
    figs = figures.figures()
    assert len(IDS) == len(set(IDS))
    assert FAST <= set(IDS)
    for f in figs:
        prefix = f.id.split("-", 1)[0]
        assert f.seed_file.startswith(prefix + "_")
        assert f.caption.strip() and f.title.strip() and f.label.strip()
    seeds = {f.seed_file for f in figs}
    assert all(sum(f.seed_file == s for f in figs) >= 2 for s in seeds)
    # issue 16: at least 14 figures, every seed in the default render test, seed order
    assert len(IDS) >= 14
    assert {i.split("-", 1)[0] for i in FAST} == set(SEEDS)
    assert [i.split("-", 1)[0] for i in IDS] == sorted(i.split("-", 1)[0] for i in IDS)


def test_list_prints_one_line_per_figure(capsys):
    assert cli.main(["figures", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == IDS
    for line, f in zip(lines, figures.figures(), strict=True):
        fid = line.split()[0]
        assert re.fullmatch(r"\d{3}-[a-z0-9-]+", fid)
        # the paper by its short citation (solvable papers), not by its seed file's name
        assert line[25:].startswith(papers.paper(f.seed_file).short + " ")
        assert f.seed_file not in line and fid[:3] == papers.paper(f.seed_file).seed
        assert f.label in line and line.rstrip().endswith(f.title)


def test_list_with_only(capsys):
    assert cli.main(["figures", "--list", "--only", IDS[-1], IDS[0]]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == [IDS[0], IDS[-1]]


def test_unknown_id_exits_2_with_the_valid_ids(tmp_path, capsys):
    assert cli.main(["figures", "--only", "999-nope", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "'999-nope'" in err
    assert all(i in err for i in IDS)
    assert not any(tmp_path.iterdir())


def test_out_is_required_unless_list(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["figures", "--only", IDS[0]])
    assert exc.value.code == 2
    assert "--out DIR is required" in capsys.readouterr().err


def test_select_and_render_reject_bad_input(tmp_path):
    with pytest.raises(ValueError, match=r"valid ids: .*001-fig1a"):
        figures.select(["001-fig1z"])
    with pytest.raises(TypeError, match="not the str '001-fig1a'"):
        figures.select("001-fig1a")
    with pytest.raises(TypeError, match="full must be True or False, got 1"):
        figures.render([IDS[0]], tmp_path, full=1)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="out_dir must be a directory"):
        figures.select([IDS[0]])[0].render(tmp_path / "file", full=False, progress=False)


def test_figure_record_is_validated():
    def draw(fig, full, progress):
        return None

    good = figure("003-demo", "003_cfd8c5fad4b6665d.txt", "Part I", "t", "c", draw)
    assert isinstance(good, Figure)
    with pytest.raises(ValueError, match="id must look like"):
        figure("3-demo", "003_cfd8c5fad4b6665d.txt", "Part I", "t", "c", draw)
    with pytest.raises(ValueError, match="seed prefix '003'"):
        figure("001-demo", "003_cfd8c5fad4b6665d.txt", "Part I", "t", "c", draw)
    with pytest.raises(ValueError, match="seed_file must be"):
        figure("003-demo", "003.txt", "Part I", "t", "c", draw)
    with pytest.raises(ValueError, match="caption must be a non-empty string"):
        figure("003-demo", "003_cfd8c5fad4b6665d.txt", "Part I", "t", " ", draw)
    with pytest.raises(TypeError, match="render must be callable"):
        Figure("003-demo", "003_cfd8c5fad4b6665d.txt", "Part I", "t", "c", None)


def test_duplicate_ids_are_refused(monkeypatch):
    from solvable.verification.figures import seed_001

    monkeypatch.setattr(seed_001, "FIGURES", seed_001.FIGURES + seed_001.FIGURES[:1])
    with pytest.raises(ValueError, match="registered twice"):
        figures.figures()


def _check_files(paths, fid, tmp_path):
    assert [p.name for p in paths] == [f"{fid}.png", f"{fid}.svg"]
    for p in paths:
        assert p.parent == tmp_path and p.stat().st_size > 10_000
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in paths[1].read_bytes()[:2000]


def _style(line):
    return (mcolors.to_rgba(line.get_color()), line.get_marker(), line.get_linestyle())


def figure_problems(fig) -> list[str]:
    """What a reader of any figure relies on, checked for every figure as a whole (the
    seed-2 mutation run's survivors in the figures were of these kinds: a wrong subscript in
    a legend, every seed drawn in one colour): in each axes, legend labels and styles
    (colour, marker, line style) match one to one (a label repeated over markers of one
    category is fine; one label in two styles, or two labels in one style, is not), no
    text shows a NaN, and a log axis gets data it can
    draw (finite values > 0 are drawn; a curve with none of them vanishes silently); in a
    figure whose panels have titles, every panel that draws something (a colour bar aside)
    has one of its own, none repeated (a title set on the wrong panel left one panel
    without and another with two: a seed-18 survivor)."""
    problems = []
    panels = [(k, ax) for k, ax in enumerate(fig.axes)
              if ax.get_visible() and ax.has_data() and getattr(ax, "_colorbar", None) is None
              and ax.get_label() != "<colorbar>"]  # fmt: skip
    titles: dict[str, int] = {}
    if any(ax.get_title() for _, ax in panels):
        for k, ax in panels:
            if not ax.get_title():
                problems.append(f"axes {k} draws data but has no title")
            elif ax.get_title() in titles:
                problems.append(f"axes {k} ({ax.get_title()!r}): the title of axes "
                                f"{titles[ax.get_title()]} again")  # fmt: skip
            titles.setdefault(ax.get_title(), k)
    for k, ax in enumerate(fig.axes):
        if not ax.get_visible() or ax.get_label() == "<colorbar>":
            continue
        where = f"axes {k} ({ax.get_title()!r})"
        # a colour map spans a range: vmin = vmax paints every value one colour (seed 20:
        # an imshow of D in [-1, 1] with vmin = vmax = 1 survived)
        for mappable in [*ax.images, *ax.collections]:
            norm = getattr(mappable, "norm", None)
            if mappable.get_array() is not None and norm is not None and norm.scaled() \
                    and not norm.vmin < norm.vmax:  # fmt: skip
                problems.append(f"{where}: a colour map from {norm.vmin} to {norm.vmax}")
        handles, labels = ax.get_legend_handles_labels()
        keys = [_style(h) if isinstance(h, Line2D) else type(h).__name__ for h in handles]
        styles_of, labels_of = defaultdict(set), defaultdict(set)
        for key, label in zip(keys, labels, strict=True):
            styles_of[label].add(key)
            if not isinstance(key, str):
                labels_of[key].add(label)
        mixed = sorted(lb for lb, st in styles_of.items() if len(st) > 1)
        if mixed:
            problems.append(f"{where}: one legend label for different styles: {mixed}")
        for group in sorted(sorted(lbs) for lbs in labels_of.values() if len(lbs) > 1):
            problems.append(f"{where}: curves drawn in one style: {group}")
        texts = [ax.get_title(), ax.get_xlabel(), ax.get_ylabel(), *labels,
                 *(t.get_text() for t in ax.texts)]  # fmt: skip
        for text in texts:
            if re.search(r"\bnan\b", text, re.IGNORECASE):
                problems.append(f"{where}: text shows a NaN: {text!r}")
        for ln in ax.get_lines():
            for axis, data, scale in (("x", ln.get_xdata(), ax.get_xscale()),
                                      ("y", ln.get_ydata(), ax.get_yscale())):  # fmt: skip
                values = np.asarray(data, dtype=float)
                if (
                    scale == "log"
                    and values.size
                    and not np.any(np.isfinite(values) & (values > 0))
                ):
                    problems.append(f"{where}: {ln.get_label()!r} has no {axis} > 0 on a log axis")
    return problems


def layout_problems(fig) -> list[str]:
    """What the saved layout must give every figure (checked after ``_save`` has added the
    title and caption and laid the axes out above it): the caption under the axes, its text
    overlapping no axes (tick labels and axis labels included), so neither is hidden."""
    renderer = fig.canvas.get_renderer()
    if not fig.texts:
        return ["no caption"]
    text = fig.texts[-1]
    caption = text.get_window_extent(renderer)
    problems = []
    shown = [ax for ax in fig.axes if ax.get_visible()]
    for k, ax in enumerate(fig.axes):
        if ax.get_visible() and ax.get_tightbbox(renderer).overlaps(caption):
            problems.append(f"axes {k} ({ax.get_title()!r}) overlaps the caption")
    # ... and right under them: the strip reserved for it holds one spare line and
    # tight_layout's padding, 2.1-2.7 caption lines of blank on every figure (measured);
    # more than 4 is a caption left floating below an empty band
    line = caption.height / (text.get_text().count("\n") + 1)
    gap = min(ax.get_tightbbox(renderer).y0 for ax in shown) - caption.y1 if shown else 0.0
    if gap > 4 * line:
        problems.append(f"the caption is {gap / line:.1f} lines below the axes (at most 4)")
    return problems


def _render_checked(fid, tmp_path, monkeypatch):
    """Render ``fid`` and check :func:`figure_problems` on the finished drawing (the check
    runs where the figure is saved, so every render test reads it)."""
    seen = []
    save = figures_common._save

    def checked_save(fig, *args):
        problems = figure_problems(fig)
        files = save(fig, *args)
        seen.append(problems + layout_problems(fig))
        return files

    monkeypatch.setattr(figures_common, "_save", checked_save)
    (fig,) = figures.select([fid])
    _check_files(fig.render(tmp_path, full=False, progress=False), fid, tmp_path)
    assert seen == [[]], f"{fid}: " + "; ".join(seen[0]) if seen else f"{fid}: never saved"


def test_figure_problems_reports_each_kind_it_checks():
    """The whole-figure check can fail: each defect it looks for, put into a small figure
    once at a time, is reported; the clean figure gives nothing."""
    from solvable.verification.figures._common import new_figure

    def draw(defect):
        fig = new_figure(4.0, 3.0)
        ax = fig.subplots()
        x = np.array([1.0, 2.0, 3.0])
        ax.plot(x, x, "C0-", label="a")
        ax.plot(x, 2 * x, "C1-", label="a" if defect == "label" else "b")
        ax.plot(x, 3 * x, "C0-" if defect == "style" else "C2-", label="c")
        ax.set_title("max err nan" if defect == "nan" else "max err 1e-16")
        ax.set_yscale("log")
        ax.plot(x, -x if defect == "log" else x + 1, "C3--", label="d")
        return figure_problems(fig)

    assert draw(None) == []
    assert draw("label") == [
        "axes 0 ('max err 1e-16'): one legend label for different styles: ['a']"
    ]
    assert draw("style") == ["axes 0 ('max err 1e-16'): curves drawn in one style: ['a', 'c']"]
    assert draw("nan") == ["axes 0 ('max err nan'): text shows a NaN: 'max err nan'"]
    assert draw("log") == ["axes 0 ('max err 1e-16'): 'd' has no y > 0 on a log axis"]
    fig = new_figure(4.0, 3.0)
    ax = fig.subplots()
    ax.imshow([[-1.0, 0.5], [0.0, 1.0]], vmin=-1, vmax=1)
    assert figure_problems(fig) == []
    ax.images[0].set_clim(1, 1)
    assert figure_problems(fig) == ["axes 0 (''): a colour map from 1.0 to 1.0"]
    fig = new_figure(4.0, 3.0)
    left, mid, right = fig.subplots(1, 3)
    for ax in (left, mid, right):
        ax.plot([1.0, 2.0], [1.0, 2.0])
    left.set_title("first")
    mid.set_title("first")
    assert figure_problems(fig) == [
        "axes 1 ('first'): the title of axes 0 again",
        "axes 2 draws data but has no title",
    ]
    right.set_title("third")
    mid.set_title("second")
    assert figure_problems(fig) == []
    for ax in (left, mid, right):  # no panel titled: the axis labels name them
        ax.set_title("")
    assert figure_problems(fig) == []


def test_layout_problems_finds_a_caption_under_an_axes(tmp_path, monkeypatch):
    """The layout check can fail: a figure saved by ``_save`` has its caption clear of the
    axes; the same figure laid out over the caption's strip (``tight_layout`` without the
    bottom margin: a ``/`` made ``//`` in ``_save`` survived the seed-4 mutation run) is
    reported."""
    from solvable.verification.figures._common import _save, new_figure

    def saved(cover_caption):
        fig = new_figure(4.0, 3.0)
        ax = fig.subplots()
        ax.plot([1.0, 2.0], [1.0, 2.0])
        ax.set_xlabel("t")
        if cover_caption:  # the layout as if the caption's strip had no height
            monkeypatch.setattr(fig, "tight_layout", lambda rect: type(fig).tight_layout(fig))
        _save(fig, "x", "title", "a caption of two words " * 8, tmp_path)
        return layout_problems(fig)

    assert saved(False) == []
    assert saved(True) == ["axes 0 ('') overlaps the caption"]
    # a caption strip far taller than its text (seed-4 mutant _common.py:32: 1.16 inches a
    # line for 0.16) leaves the caption floating under an empty band
    monkeypatch.setattr(figures_common, "_LINE_INCHES", 1.16)
    (problem,) = saved(False)
    assert re.fullmatch(r"the caption is \d+\.\d lines below the axes \(at most 4\)", problem)


@pytest.mark.parametrize("lines", [2, 9, 21])
def test_a_caption_of_many_lines_keeps_clear_of_the_axes(tmp_path, lines):
    """The caption's strip grows with its lines at their real height (matplotlib's line
    spacing, 1.2 times the font size): 9 and 21 lines under two panels with x labels stay
    under the axes and close to them (a strip of font-size lines overlapped the axes from 9
    lines on, an outside reviewer's mutant)."""
    from solvable.verification.figures._common import _CHARS_PER_INCH, _save, new_figure

    fig = new_figure(12.0, 3.6)
    for ax in fig.subplots(1, 2):
        ax.plot([1.0, 2.0], [1.0, 2.0])
        ax.set_xlabel("t")
    words = "a caption of two words "
    caption = words * round(lines * 12.0 * _CHARS_PER_INCH / len(words))
    _save(fig, "x", "title", caption.strip(), tmp_path)
    assert abs(fig.texts[-1].get_text().count("\n") + 1 - lines) <= 1
    assert layout_problems(fig) == []


@pytest.mark.parametrize("fid", sorted(FAST))
def test_render_fast(fid, tmp_path, monkeypatch):
    _render_checked(fid, tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("fid", sorted(set(IDS) - FAST))
def test_render_fast_slow_ones(fid, tmp_path, monkeypatch):
    _render_checked(fid, tmp_path, monkeypatch)


def test_cli_renders_with_progress(tmp_path, capsys):
    assert cli.main(["figures", "--only", "003-fig-regimes", "--out", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert str(tmp_path / "003-fig-regimes.png") in out and "1 figure(s), 2 files" in out
    assert "003-fig-regimes" in err  # the progress bar (or its plain-line fallback)
    assert (tmp_path / "003-fig-regimes.svg").stat().st_size > 10_000


@pytest.mark.slow
def test_seed_004_full_branch_with_small_sizes(tmp_path, monkeypatch):
    """The ``--full`` path of seed 004 (the paper's widths, seeds, grid and m, device None)
    runs end to end: its sizes are shrunk here (the real ones take hours)."""
    from numerics import phase_diagram as pdg
    from numerics.torch_flow import threads
    from solvable.verification.figures import seed_004

    monkeypatch.setattr(pdg, "FULL_WIDTHS", (32, 64))  # m = 16 can fail to converge
    monkeypatch.setattr(pdg, "FULL_SEEDS", (0, 1))
    monkeypatch.setattr(
        seed_004, "GRID_FULL", ((Fraction(0), Fraction(7, 10)), (Fraction(11, 10), Fraction(14, 5)))
    )
    monkeypatch.setattr(seed_004.plane, "GRID_FULL", seed_004.GRID_FULL)  # Figure 1's grid
    monkeypatch.setattr(seed_004, "FIG4_WIDTHS_FULL", (32, 64))
    monkeypatch.setattr(seed_004, "COND_WIDTH_FULL", 32)
    with threads(1):  # device None is the CPU here; one thread on a shared machine
        for fig in seed_004.FIGURES:
            _check_files(fig.render(tmp_path, full=True, progress=False), fig.id, tmp_path)
    # the full measurement used the shrunk sizes (and is cached apart from the reduced one)
    p = seed_004._measure(Fraction(0), Fraction(11, 10), True, False)
    assert p.widths == (32, 64) and p.seeds == (0, 1)


def _png_height(path):
    data = path.read_bytes()
    assert data[12:16] == b"IHDR"  # the PNG header chunk: width, height (big-endian) follow
    return int.from_bytes(data[20:24], "big")


def test_caption_of_up_to_40_characters_is_one_line_on_a_narrow_figure(tmp_path):
    """The caption is wrapped to the figure's width, but never to fewer than 40 characters
    a line: on a 2-inch figure a 40-character caption (two words) takes the one line of a
    one-word caption (same saved height), a 41-character one wraps to two (taller)."""

    def draw(fig, full, progress):
        fig.add_subplot(1, 1, 1)

    def height(caption):
        f = figure("000-caption", "000_0123456789abcdef.txt", "Figure 0", "t", caption, draw,
                   size=(2.0, 2.0))  # fmt: skip
        return _png_height(f.render(tmp_path / str(len(caption)))[0])

    forty, forty_one = "x" * 19 + " " + "y" * 20, "x" * 20 + " " + "y" * 20
    assert len(forty) == 40 and len(forty_one) == 41
    one_line = height("x")
    assert height(forty) == one_line
    assert height(forty_one) > one_line


def test_seed_000_fig2_panels_and_legends(monkeypatch):
    """Figure 2 (single ReLU unit) drawn from a tiny run (the figure is in the slow set):
    two log-log panels over the GD step, each with a legend naming the four (gamma, alpha)
    of Figure 1 (the caption's (1, -), (0.5, 0.7), (0.2, 0.5), (0, 0.4)), the pytorch-default
    net and the gamma = 1 limit, the test panel also the zero predictor; both legends label
    the same curves, so they are set in the same font size."""
    from numerics.torch_flow import threads
    from solvable.verification.figures import seed_000
    from solvable.verification.figures._common import new_figure

    tiny = {"width": 12, "n_test": 20, "steps": 10, "repeats": 1, "n_records": 4}
    monkeypatch.setattr(seed_000, "FIG2_FAST", tiny)
    fig = new_figure(11.0, 4.0)
    with threads(1):
        seed_000._draw_fig2(fig, False, False)
    ax_train, ax_test = fig.axes
    nets = ["γ=1", "γ=0.5, α=0.7", "γ=0.2, α=0.5", "γ=0, α=0.4", "pytorch default init"]
    legends = [ax.get_legend() for ax in (ax_train, ax_test)]
    labels = [[t.get_text() for t in lg.get_texts()] for lg in legends]
    assert labels[0][:5] == nets and labels[1][:5] == nets
    assert labels[0][5].startswith("γ=1 limit") and labels[1][5] == labels[0][5]
    assert len(labels[0]) == 6 and len(labels[1]) == 7
    assert labels[1][6].startswith("zero predictor")
    sizes = {t.get_fontsize() for lg in legends for t in lg.get_texts()}
    assert len(sizes) == 1, f"the two legends differ in font size: {sorted(sizes)}"
    for ax in (ax_train, ax_test):
        assert ax.get_xscale() == ax.get_yscale() == "log" and ax.get_xlabel() == "GD step"


@pytest.mark.parametrize("delta", [-10.0, -4.0, -0.01, 0.0, 0.01, 4.0, 10.0])
def test_seed_003_neuron_start_has_the_stated_invariants(delta):
    # the regimes figure's start (docstring of _neuron_start): a0 w0 = beta0 with |beta0| =
    # 0.05 (w0 along the unit direction (0.6, -0.8)) and a0^2 - |w0|^2 = delta (the
    # conserved quantity at equal rates); the deltas straddle 0 and include |delta| >> and
    # << |beta0|.  Rounding: r -+ delta cancels to ~2 beta0^2/|delta| with an error ~eps
    # |delta|, so |a0 w0| is off by ~5 eps delta^2 <= 1.2e-13 at |delta| = 10, and a0^2 -
    # |w0|^2 by a few eps max(1, |delta|): 1e-12 (x max(1, |delta|)) is above both
    from solvable.verification.figures import seed_003

    a0, w0 = seed_003._neuron_start(delta)
    assert abs(float(np.linalg.norm(a0 * w0)) - 0.05) <= 1e-12
    np.testing.assert_allclose(a0 * w0 / np.linalg.norm(a0 * w0), [0.6, -0.8], atol=1e-12)
    assert abs(a0**2 - float(w0 @ w0) - delta) <= 1e-12 * max(1.0, abs(delta))


def test_seed_004_loglog_anchor_uses_only_finite_positive_measurements():
    """seed_004._loglog_line's docstring: the anchor is (mean log m, mean log RD) of the seed
    geometric means, i.e. over the widths that have a usable measurement, each width's mean of
    log RD over its seeds.  A log needs RD finite and > 0, so nan, inf, 0 and negative RD are
    left out, and a width with none left is dropped.  Here width 1 keeps RD 1 and 4 (geometric
    mean 2), width 10 keeps 10, width 100 keeps nothing: the anchor is (log(1 * 10)/2,
    log(2 * 10)/2)."""
    from solvable.verification.figures import seed_004

    widths = np.array([1.0, 10.0, 100.0])
    rd = np.array([[1.0, 4.0, np.nan], [10.0, -1.0, 0.0], [np.inf, np.nan, 0.0]])
    try:
        anchor = seed_004._loglog_line(widths, rd)
    except TypeError as exc:  # e.g. numpy refusing arithmetic on the boolean masks
        anchor = exc
    assert isinstance(anchor, tuple), f"the anchor was not computed: {anchor!r}"
    # a handful of logs and means of 2-3 terms: 1e-12 relative is ~1e4 roundings of 1.1e-16
    assert anchor == pytest.approx((np.log(10.0) / 2, np.log(20.0) / 2), rel=1e-12)
