"""The ``solvable`` command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from solvable import cli, verify_runner


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """The proof cache of these runs is the test's own, never the user's."""
    monkeypatch.setenv(verify_runner.CACHE_ENV, str(tmp_path / "cache"))


def test_verify_only_prints_table_and_json(tmp_path, capsys):
    out = tmp_path / "v.json"
    rc = cli.main(["verify", "--only", "xu_ziyin.eq_3?", "--json", str(out)])
    captured = capsys.readouterr()
    assert rc == 0
    assert "xu_ziyin.eq_32" in captured.out and "proved" in captured.out
    assert "[1/8]" in captured.err  # progress display
    data = json.loads(out.read_text())
    assert {"xu_ziyin.eq_31", "xu_ziyin.eq_32"} <= {r["id"] for r in data["results"]}
    assert all(r["status"] == "proved" for r in data["results"])


def test_verify_exit_code_on_failure(monkeypatch, capsys):
    from solvable import theorems

    bad = theorems.Theorem(
        "demo.bad", "001_x.txt (0)", "false", "symbolic", lambda: theorems.prove_zero(1)
    )
    monkeypatch.setattr(theorems, "select", lambda pattern: [bad])
    assert cli.main(["verify"]) == 1
    assert "FAILED demo.bad" in capsys.readouterr().out


def test_verify_no_match(capsys):
    assert cli.main(["verify", "--only", "nothing-matches"]) == 2


def test_dps_must_be_reasonable():
    with pytest.raises(SystemExit):
        cli.main(["verify", "--dps", "3"])


@pytest.mark.parametrize("value", ["0", "-1", "x", "1.5", "", "2x"])
def test_jobs_must_be_a_positive_integer(value, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["verify", "--jobs", value, "--only", "xu_ziyin.eq_33"])
    assert info.value.code == 2
    assert f"--jobs must be an integer >= 1, got {value!r}" in capsys.readouterr().err


def test_jobs_and_no_cache_in_the_help(capsys):
    with pytest.raises(SystemExit):
        cli.main(["verify", "--help"])
    text = capsys.readouterr().out
    assert "--jobs N" in text and "--no-cache" in text


def test_errata_lists_every_erratum(capsys):
    from solvable.errata import ERRATA

    assert cli.main(["errata"]) == 0
    text = capsys.readouterr().out
    assert text.count("\n    printed:   ") == len(ERRATA)  # one block each (texts may quote)
    assert f"{len(ERRATA)} errata, {len(ERRATA)} checks pass" in text


def test_console_script_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "solvable.cli", "verify", "--only", "eq_38"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "xu_ziyin.eq_38" in proc.stdout
