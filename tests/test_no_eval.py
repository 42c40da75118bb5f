"""No user string is ever run as code (issue 28, item 2).

``sympy.sympify`` of a string evaluates it as Python: on main, eight public functions passed
a string argument to it, and a payload string wrote a file through each.  Now:

* every ``sympify`` call of the package passes ``strict=True`` (which refuses strings) and no
  module calls ``eval``, ``exec``, ``parse_expr`` or ``sympy.S`` (a static check over the
  source, so a new call site cannot slip in);
* a user's number for a symbolic function goes through ``solvable._core.numbers.to_expr``:
  exact-number strings (``"0.1"``, ``"1/3"``) are parsed by ``sympy.Rational``, anything else
  is refused with a ``ValueError`` naming the argument;
* a payload that writes a file, given to every argument of every public function that takes
  a number (the functions the issue lists, and the fuzz list of ``tests/test_bad_input.py``),
  writes nothing.
"""

from __future__ import annotations

import ast
import math
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from solvable._core.numbers import to_expr
from solvable.models import global_convergence, kernels, three_layer

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "solvable").rglob("*.py"), *(ROOT / "numerics").rglob("*.py")])


# ---------------------------------------------------------------------------
# static: no evaluating call in the source
# ---------------------------------------------------------------------------
def _evaluating_calls(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        strict = any(k.arg == "strict" and isinstance(k.value, ast.Constant)
                     and k.value.value is True for k in node.keywords)  # fmt: skip
        if name == "sympify" and not strict:
            found.append(f"line {node.lineno}: sympify without strict=True")
        elif name in ("eval", "exec", "parse_expr", "S"):
            found.append(f"line {node.lineno}: {name}(...)")
    return found


# The two allowed evaluating calls compile code the package generated itself, from its own
# sympy expressions, never from user text: numerics.mp's Taylor program (straight-line
# integer arithmetic on names c0, a3_1, ... made from node indices), and backends' hoisting
# of repeated calls in lambdify's source (lambdify itself compiles with exec the same way).
ALLOWED = {"numerics/mp.py": ["exec(...)"], "solvable/_core/backends.py": ["exec(...)"]}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_calls_an_evaluating_parser(path):
    found = _evaluating_calls(ast.parse(path.read_text(encoding="utf-8")))
    rel = path.relative_to(ROOT).as_posix()
    assert [f.split(": ", 1)[1] for f in found] == ALLOWED.get(rel, [])


def test_the_static_check_can_fail():
    bad = "import sympy as sp\nsp.sympify(x)\nsp.S('1')\neval(s)\nsp.sympify(y, strict=False)\n"
    assert len(_evaluating_calls(ast.parse(bad))) == 4
    assert _evaluating_calls(ast.parse("sp.sympify(x, strict=True)\n")) == []


# ---------------------------------------------------------------------------
# to_expr: exact numbers from strings, everything else refused
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [("2", 2), (" -3 ", -3), ("0.1", Fraction(1, 10)),
                                         ("1e-3", Fraction(1, 1000)), ("+2.5E2", 250),
                                         (".5", Fraction(1, 2)), ("7/3", Fraction(7, 3)),
                                         ("1/03", Fraction(1, 3))])  # fmt: skip
def test_exact_number_strings_are_exact(text, value):
    out = to_expr("x", text)
    assert isinstance(out, sp.Rational) and out == sp.Rational(value.numerator, value.denominator) \
        if isinstance(value, Fraction) else out == value  # fmt: skip


@pytest.mark.parametrize("value", [1, np.int64(-4), Fraction(2, 7), 0.25, np.float32(0.5),
                                   mpmath.mpf("0.1"), sp.pi / 4, sp.Symbol("r")])  # fmt: skip
def test_numbers_and_expressions_are_kept(value):
    out = to_expr("x", value)
    if isinstance(value, sp.Basic):
        assert out is value
    else:
        assert isinstance(out, sp.Number) and abs(float(out) - float(value)) <= 0


@pytest.mark.parametrize("value, exc", [("pi", ValueError), ("1/0", ValueError),
                                        ("inf", ValueError), ("nan", ValueError),
                                        ("", ValueError), ("1+1", ValueError),
                                        ("x", ValueError), (True, TypeError),
                                        (np.bool_(False), TypeError), (1j, TypeError),
                                        (None, TypeError), ([1], TypeError),
                                        (np.ones(2), TypeError), (math.inf, ValueError),
                                        (mpmath.nan, ValueError)])  # fmt: skip
def test_other_values_are_refused_naming_the_argument(value, exc):
    with pytest.raises(exc, match="the_arg"):
        to_expr("the_arg", value)


@given(st.text(max_size=30))
def test_any_string_is_an_exact_number_or_refused(text):
    try:
        out = to_expr("s", text)
    except ValueError as e:
        assert "s must be" in str(e)
        return
    # what was accepted is the number the text holds, read by Python's own Fraction
    assert out == sp.Rational(Fraction(text.strip()).numerator, Fraction(text.strip()).denominator)


# ---------------------------------------------------------------------------
# runtime: a payload in every argument of every function that takes a number
# ---------------------------------------------------------------------------
def _payload(marker: Path) -> str:
    return f"__import__('pathlib').Path({str(marker)!r}).write_text('ran')"


CALLS = {
    "kernels.arccos_expectation(rho)": lambda s: kernels.arccos_expectation(1, s),
    "kernels.kernel_theta(theta)": lambda s: kernels.kernel_theta("ntk_first_layer", None, 1, 1, s),
    "kernels.kernel_theta(n1)": lambda s: kernels.kernel_theta("ntk_first_layer", None, s, 1, 0.5),
    "kernels.kernel(rho)": lambda s: kernels.kernel("ntk_first_layer", None, 1, 1, s),
    "kernels.exercise_printed_ntk(rho)": lambda s: kernels.exercise_printed_ntk(s),
    "kernels.uniform_variance(bound)": lambda s: kernels.uniform_variance(s),
    "kernels.output_cumulant(p)": lambda s: kernels.output_cumulant(4, None, s),
    "kernels.output_excess_kurtosis(p)": lambda s: kernels.output_excess_kurtosis(None, s),
    "kernels.output_excess_kurtosis(c1)": lambda s: kernels.output_excess_kurtosis(None, 3, s),
    "kernels.output_excess_kurtosis(c2)": lambda s: kernels.output_excess_kurtosis(None, 3, 1, s),
    "three_layer.cosine_similarity(u)": lambda s: three_layer.cosine_similarity([s, 1], [1, 1]),
    "three_layer.cosine_similarity(v)": lambda s: three_layer.cosine_similarity([1, 1], [1, s]),
    "global_convergence.c1_expression(c)": lambda s: global_convergence.c1_expression("relu", c=s),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=list(CALLS))
def test_a_payload_string_is_refused_and_never_runs(call, tmp_path):
    marker = tmp_path / "pwned"
    with pytest.raises((TypeError, ValueError)):
        call(_payload(marker))
    assert not marker.exists(), "the string was run as Python"


@pytest.mark.parametrize("call", CALLS.values(), ids=list(CALLS))
def test_the_same_calls_accept_an_exact_number_string(call):
    # the converse: a decimal string is a number there, so the refusal above is about the
    # payload, not about strings (0.5 is a valid rho, theta, n1, bound, p, c1, c2)
    out = call("0.5")
    assert isinstance(out, sp.Basic) and not out.has(sp.nan, sp.zoo)
