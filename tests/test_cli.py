"""The ``solvable`` command line."""

from __future__ import annotations

import builtins
import contextlib
import io
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvable.verification import cli, verify_runner


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
    from solvable.verification import theorems

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


def _exit_code(argv, monkeypatch):
    """``cli.main(argv)``'s exit code, with the runner stubbed (it records the dps it got):
    a usage error is ``SystemExit(2)``, a run the stub's 0."""
    seen = {}

    def fake_verify(args, out, err):
        seen["dps"] = args.dps
        return 0

    monkeypatch.setattr(cli, "_verify", fake_verify)
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    return code, seen


@pytest.mark.parametrize("value", ["29", "100001", "99999999999", "nan", "1e9"])
def test_dps_outside_30_to_max_dps_is_a_usage_error(value, capsys, monkeypatch):
    """Before: ``--dps 99999999999`` passed the parser and every claim then failed with a
    ValueError traceback (minutes of them); now it is a usage error, exit 2, before any claim
    runs (the runner is never reached), naming the valid range."""
    code, seen = _exit_code(["verify", "--dps", value], monkeypatch)
    assert (code, seen) == (2, {})
    err = capsys.readouterr().err
    assert "--dps must be an integer >= 30" in err and "<= 100000" in err and repr(value) in err


@pytest.mark.parametrize("value", ["30", "100000"])
def test_dps_at_both_ends_of_the_range_parses(value, monkeypatch):
    """The other side of the boundary: 30 and MAX_DPS reach the runner (stubbed: a proof at
    100000 digits is not what this test is about)."""
    assert _exit_code(["verify", "--dps", value], monkeypatch) == (0, {"dps": int(value)})


def test_figures_out_that_cannot_hold_figures_is_a_usage_error(tmp_path, capsys):
    """Before: ``figures --out /dev/null`` (or any file) rendered nothing and ended in a
    ValueError traceback (exit 1); now the path is checked before any figure is computed."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out, want in [(afile, "--out must name a directory"),
                      (afile / "sub", "a parent of"),
                      ("/dev/null", "--out must name a directory")]:  # fmt: skip
        with pytest.raises(SystemExit) as info:
            cli.main(["figures", "--only", "001-fig1a", "--out", str(out)])
        assert info.value.code == 2
        assert want in capsys.readouterr().err
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not os.access(locked, os.W_OK):  # root writes anywhere: that side is untestable
            with pytest.raises(SystemExit) as info:
                cli.main(["figures", "--only", "001-fig1a", "--out", str(locked / "new")])
            assert info.value.code == 2 and "cannot be made" in capsys.readouterr().err
    finally:
        locked.chmod(0o700)
    # an existing folder that cannot be written, even by root (as CI and this machine run):
    # /proc/sys, where Linux grants no write access
    if os.path.isdir("/proc/sys") and not os.access("/proc/sys", os.W_OK):
        want = "--out: the directory '/proc/sys' is not writable"
        assert cli._out_dir_problem("/proc/sys") == want
        with pytest.raises(SystemExit) as info:
            cli.main(["figures", "--only", "001-fig1a", "--out", "/proc/sys"])
        assert info.value.code == 2
        assert want in capsys.readouterr().err
    # "" (the working folder: every figure dropped there) and a NUL (no path holds one; it
    # was a raw "embedded null byte" ValueError) are refused, as for --json
    for out in ("", "a\0b"):
        with pytest.raises(SystemExit) as info:
            cli.main(["figures", "--only", "001-fig1a", "--out", out])
        assert info.value.code == 2
        assert f"--out must name a directory, got {out!r}" in capsys.readouterr().err
        with pytest.raises(SystemExit) as info:
            cli.main(["verify", "--only", "xu_ziyin.eq_33", "--json", out])
        assert info.value.code == 2
        assert f"--json must name a file, got {out!r}" in capsys.readouterr().err
    # the other side: a new nested folder under a writable one, and an existing folder
    assert cli._out_dir_problem(str(tmp_path / "a" / "b")) is None
    assert cli._out_dir_problem(str(tmp_path)) is None


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
    from solvable.verification.errata import ERRATA

    assert cli.main(["errata"]) == 0
    text = capsys.readouterr().out
    assert text.count("\n    printed:   ") == len(ERRATA)  # one block each (texts may quote)
    assert f"{len(ERRATA)} errata, {len(ERRATA)} checks pass" in text


def test_console_script_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "solvable.verification.cli", "verify", "--only", "eq_38"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "xu_ziyin.eq_38" in proc.stdout


_OPTIONS = [("verify", "--only"), ("verify", "--dps"), ("verify", "--json"),
            ("verify", "--jobs"), ("figures", "--only"), ("figures", "--out")]  # fmt: skip
_PAYLOAD = "__import__('builtins').__setattr__('_solvable_cli_payload_ran', True) or 1"


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(option=st.sampled_from(_OPTIONS),
       value=st.one_of(st.text(max_size=30), st.sampled_from(
           ["", "\0", "nan", "inf", "-1", "0", "1e400", "10" * 40, "..", "/", "/dev/null",
            "-", "--full", _PAYLOAD, "[", "*", "30.0", " 30 "])))  # fmt: skip
def test_every_cli_option_takes_any_text(option, value, tmp_path, monkeypatch):
    """Any string for any option: the command runs (exit 0; the runners are stubbed: this
    is about parsing) or stops with exit 2 and a message naming the option (or the figure
    ids it lists); never a traceback, never code run from the string."""
    monkeypatch.chdir(tmp_path)  # a relative --json / --out lands here, never in the repo
    monkeypatch.setattr(cli, "_verify", lambda args, out, err: 0)
    monkeypatch.setattr(cli.figures, "render", lambda ids, out, **kw: [])
    command, flag = option
    argv = [command, flag, value]
    if command == "figures" and flag != "--out":
        argv += ["--out", str(tmp_path)]
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    assert not hasattr(builtins, "_solvable_cli_payload_ran")
    assert code in (0, 2), (argv, code)
    if code == 2:
        text = err.getvalue()
        assert flag in text or "figure id" in text or "no claim matches" in text, (argv, text)
