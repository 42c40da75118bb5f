"""The README is a user's guide: every python example in it runs as printed and prints what
it says it shows (the pytest-oracle example is also run as a user's test module by
``tests/test_oracle.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import mpmath
import pytest

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def _run(block: str, capsys: pytest.CaptureFixture[str]) -> str:
    exec(compile(block, "README.md", "exec"), {"__name__": "readme_example"})  # our own file
    return capsys.readouterr().out


def test_the_readme_has_its_four_examples_and_stays_a_guide():
    assert len(BLOCKS) == 4, len(BLOCKS)
    # a user's guide of about 250 lines (issue 30); measurements live in docs/
    assert len(README.splitlines()) <= 250


def test_the_closed_form_example_prints_f_approaching_y_and_30_agreeing_digits(capsys):
    out = _run(BLOCKS[0], capsys)
    closed = re.search(r"closed form: (\S+)", out).group(1)
    simulated = re.search(r"simulation: +(\S+)", out).group(1)
    assert len(closed) >= 30
    # the raw flow integrated at 30 digits against the 30-digit closed form: agreement to
    # 1e-26 (the Taylor integrator's tolerance at dps = 30 leaves a few guard digits)
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(closed) - mpmath.mpf(simulated)) < mpmath.mpf("1e-26")
    f_line = re.search(r"f: \[(.*?)\]", out, re.S).group(1).split()
    assert float(f_line[-1]) == 1.5  # f(inf) = y


def test_the_single_neuron_example_prints_delta_and_its_regime(capsys):
    out = _run(BLOCKS[1], capsys)
    # delta = eta_w a0^2 - eta_a |w0|^2 = 0.5 * 0.09 - (0.01 + 0.16) = -0.125
    assert "delta = -0.125" in out
    assert re.search(r"regime: (lazy|rich|delayed rich)", out)


def test_the_torch_example_prints_the_recorded_shapes(capsys):
    out = _run(BLOCKS[2], capsys)
    assert "(3, 128, 64, 2)" in out
    ntk = [float(v) for v in re.search(r"t = 0, 1, 10: \[(.*)\]", out).group(1).split(",")]
    assert len(ntk) == 3 and all(v > 0 for v in ntk)


def test_the_oracle_example_prints_its_failure_report(capsys):
    out = _run(BLOCKS[3], capsys)
    assert "tolerances" in out and "first of" in out


def test_the_readmes_papers_are_the_package_table():
    """The README's table of papers says what ``solvable.papers`` says (one place for the
    citations: a paper renamed there and not here fails)."""
    from solvable import papers

    for p in papers.PAPERS:
        assert f"| {p.short} |" in README, p.short
        assert p.title in README, p.title
