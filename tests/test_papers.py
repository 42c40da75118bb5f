"""The source papers in one table (``solvable.papers``): every output names a paper by its
short citation, never by its seed file's name; ``solvable papers`` lists them; and the
command line's conventions (``--version``, ``python -m solvable``, a reader that leaves)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solvable import papers
from solvable.verification import cli, figures, theorems
from solvable.verification.errata import ERRATA


def test_the_table_has_one_paper_per_seed_with_its_file():
    assert [p.seed for p in papers.PAPERS] == ["000", "001", "002", "003", "004"]
    for p in papers.PAPERS:
        assert p.file.startswith(p.seed + "_") and p.file.endswith(".txt")
        assert p.short and p.title and p.authors
        assert p.title in p.reference and p.authors in p.reference
        assert (str(p.year) in p.reference) is (p.year is not None)
    assert len({p.short for p in papers.PAPERS}) == len(papers.PAPERS)


def test_a_papers_year_is_the_one_its_citation_prints():
    """The year field and the short citation agree (a year changed in one place only
    fails), and a paper without a year prints none."""
    for p in papers.PAPERS:
        if p.year is None:
            assert not any(ch.isdigit() for ch in p.short), p.short
        else:
            assert p.short.endswith(f" {p.year}"), (p.short, p.year)
    # the years as the seed texts give them: 000 anonymous, under review (none); 001 dated
    # "January 17, 2024"; 002 dated "07/02/2025"; 003 and 004 NeurIPS 2024 and 2022
    assert [p.year for p in papers.PAPERS] == [None, 2024, 2025, 2024, 2022]


def test_every_claim_erratum_and_figure_names_a_paper_of_the_table():
    sources = [t.source for t in theorems.registry()] + [e.source for e in ERRATA]
    sources += [f.seed_file for f in figures.figures()]
    for source in sources:
        p = papers.paper(source)
        assert source.startswith(p.file)
        cited = papers.cite(source)
        assert cited.startswith(p.short) and p.file not in cited


@pytest.mark.parametrize("source, short, place", [
    ("001", "Xu & Ziyin 2024", ""),
    ("003_cfd8c5fad4b6665d.txt", "Kunin et al. 2024", ""),
    ("004_9b376d17acb97b57.txt Table 2 (No. 2)", "Zhou et al. 2022", "Table 2 (No. 2)"),
    ("000_f57230b12d385b63.txt eq. (5)", "Node scaling (anon.)", "eq. (5)"),
])  # fmt: skip
def test_paper_and_cite_read_a_seed_a_file_or_a_source(source, short, place):
    assert papers.paper(source).short == short
    assert papers.cite(source) == (f"{short}, {place}" if place else short)


@pytest.mark.parametrize("bad", ["", "005", "01", "001_0000000000000000.txt eq. (1)",
                                 "Xu & Ziyin 2024", " 001"])  # fmt: skip
def test_paper_refuses_a_source_that_names_no_paper_and_cite_leaves_it(bad):
    with pytest.raises(ValueError, match="source must start with a seed"):
        papers.paper(bad)
    assert papers.cite(bad) == bad  # a user's own model cites its own paper as it likes


@pytest.mark.parametrize("bad", [None, 1, b"001", ["001"]])
def test_paper_refuses_a_source_that_is_no_string(bad):
    with pytest.raises(TypeError, match="source must be a str"):
        papers.paper(bad)


def test_a_paper_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        papers.PAPERS[0].short = "x"


def test_solvable_papers_lists_each_paper_by_its_short_citation(capsys):
    assert cli.main(["papers"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 2 + len(papers.PAPERS)
    for line, p in zip(lines[2:], papers.PAPERS, strict=True):
        assert line.startswith(p.short) and p.reference in line and f" {p.seed} " in line


def test_errata_and_figures_name_papers_not_seed_files(capsys):
    assert cli.main(["errata"]) == 0
    assert cli.main(["figures", "--list"]) == 0
    out = capsys.readouterr().out
    assert not any(p.file in out for p in papers.PAPERS)
    assert all(p.short in out for p in papers.PAPERS)


def test_verify_names_the_paper_and_the_place(capsys, tmp_path):
    assert cli.main(["verify", "--only", "kunin.delta", "--jobs", "1", "--no-cache",
                     "--json", str(tmp_path / "r.json")]) == 0  # fmt: skip
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("kunin.delta "))
    assert "Kunin et al. 2024, Part I" in row and "003_" not in row
    assert '"paper": "Kunin et al. 2024"' in (tmp_path / "r.json").read_text()


def test_version_and_python_dash_m(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    from solvable import __version__

    assert capsys.readouterr().out.strip() == f"solvable {__version__}"
    run = subprocess.run([sys.executable, "-m", "solvable", "papers"], capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0 and "Xu & Ziyin 2024" in run.stdout, run.stderr


def test_a_reader_that_leaves_early_gets_no_traceback(monkeypatch):
    """``solvable errata | head -1``: the pipe closes; the command ends quietly with 141
    (128 + SIGPIPE), as a shell reports it, not with a BrokenPipeError traceback.  Here the
    reader has left before the first write (a pipe whose read end is closed: every write,
    once its 8 KiB buffer is flushed, fails with EPIPE)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "w") as gone:
        monkeypatch.setattr(sys, "stdout", gone)
        assert cli.main(["errata"]) == 141
        # stdout now points at devnull, so the flush at exit cannot fail again
        gone.write("x" * 100_000)
        gone.flush()


def test_figures_without_matplotlib_is_one_line_and_exit_1(monkeypatch, tmp_path, capsys):
    """An optional dependency missing: ``solvable figures`` says which and how to get it
    (the ``figures`` extra), in one line on stderr, exit 1; not a traceback."""

    def missing(*args, **kwargs):
        raise ImportError("solvable figures need matplotlib: pip install 'solvable[figures]'")

    monkeypatch.setattr(figures, "render", missing)
    assert cli.main(["figures", "--only", "001-fig1a", "--out", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [
        "solvable figures: solvable figures need matplotlib: pip install 'solvable[figures]'"
    ]
    assert "Traceback" not in captured.err + captured.out


def test_the_figures_and_all_extras_hold_what_a_user_runs():
    import tomllib

    extras = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(
        encoding="utf-8"))["project"]["optional-dependencies"]  # fmt: skip

    def names(extra):
        return {req.split(">")[0].split("=")[0].split("<")[0] for req in extras[extra]}

    assert {"matplotlib", "torch", "tqdm"} <= names("figures")
    assert names("torch") | names("figures") | names("sweeps") <= names("all")
    assert not {"pytest", "sphinx", "cosmic-ray"} & names("all")  # tools, not the package


def test_linear_node_scaling_has_the_setup_a_user_looks_for():
    from solvable import linear_node_scaling as lns
    from solvable import node_scaling as ns

    assert lns.Setup is ns.Setup and "Setup" in lns.__all__


@pytest.mark.parametrize(
    "asked, given, hinted",
    [
        ("ntk_first_layer", "ntk", True),
        ("ntk", "ntk_first_layer", True),
        ("nngp", "rf", True),
        ("ntk_first_layer", None, False),
    ],
)
def test_a_kernel_check_names_the_kernel_the_matrix_is(asked, given, hinted):
    """A user's full NTK checked as "ntk_first_layer" (the lecture's first-layer part K_NTK)
    fails with a hint that it is "ntk" (K_0, what neural-tangents calls the NTK), and the
    other way round (the lecture's K_NTK passed as "ntk" is hinted "ntk_first_layer"); a
    matrix that is no kernel of the four (here: 1.5 times one) gets no hint.  (E[a^2] = 2:
    "nngp" = E[a^2] "rf" would coincide with "rf" at 1.)"""
    import numpy as np

    from solvable import kernels, testing

    X = np.random.default_rng(0).standard_normal((6, 3))
    init = kernels.Initialisation(2, 1)
    K = kernels.gram(given, init, X) if given else 1.5 * kernels.gram(asked, init, X)
    with pytest.raises(AssertionError) as info:
        testing.kernel(asked, init, X).check(K)
    message = str(info.value)
    assert message.startswith(f"kernel {asked!r} (Loureiro 2025, ")
    assert ("hint: it matches kernel" in message) is hinted
    if hinted:
        assert f"matches kernel {given!r}" in message
