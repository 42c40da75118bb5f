"""solvable.verification.pytest_plugin in-process (``pytester.runpytest``, so coverage and the
mutation
run see its lines; tests/test_oracle.py runs it through the installed entry point in a
subprocess): the ``solvable_cases`` marker's parametrisation and its refusals, and the
``solvable_edge_case`` fixture with and without parameters."""

from __future__ import annotations

from solvable.verification import testing

pytest_plugins = ["pytester"]

_ARGS = ("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly", "-rA")

MARKED = """\
import pytest


@pytest.mark.solvable_cases("kunin", "lazy", "balanced")
def test_named(solvable_edge_case):
    assert solvable_edge_case.setup is not None


@pytest.mark.parametrize("solvable_edge_case", ["kunin:lazy"], indirect=True)
def test_indirect(solvable_edge_case):
    assert solvable_edge_case.setup is not None


def test_unparametrised(solvable_edge_case):
    pass
"""


def test_marker_with_names_parametrises_and_the_bare_fixture_is_refused(pytester):
    # two marked cases and one indirect one run (passed = 3); the fixture without
    # parameters is a setup error naming the marker
    pytester.makepyfile(test_user=MARKED)
    result = pytester.runpytest(*_ARGS)
    result.assert_outcomes(passed=3, errors=1)
    out = result.stdout.str()
    for test_id in ("test_named[kunin:lazy]", "test_named[kunin:balanced]",
                    "test_indirect[kunin:lazy]"):  # fmt: skip
        assert f"PASSED test_user.py::{test_id}" in out, out
    assert "solvable_edge_case needs parameters" in out


def test_marker_without_a_model_is_a_usage_error(pytester):
    pytester.makepyfile(
        test_user="""\
import pytest


@pytest.mark.solvable_cases()
def test_bare(solvable_edge_case):
    pass
"""
    )
    result = pytester.runpytest(*_ARGS)
    text = result.stdout.str() + result.stderr.str()
    assert "@pytest.mark.solvable_cases needs a model name" in text, text


def test_marker_with_the_model_alone_runs_every_case(pytester):
    pytester.makepyfile(
        test_user="""\
import pytest


@pytest.mark.solvable_cases("xu_ziyin")
def test_all(solvable_edge_case):
    pass
"""
    )
    result = pytester.runpytest(*_ARGS)
    result.assert_outcomes(passed=len(testing.edge_cases("xu_ziyin")))
