"""Details of solvable._core and the command line that the broader tests pass over: the
normwise error of equal-sized float64 arrays of different shapes, and the errata table's
shortened residuals.  Each test names the surviving mutant of the seed-2 sample
(docs/mutation_testing.md) it was written against."""

from __future__ import annotations

import collections
import math
import re
import types
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from solvable._core import arrays
from solvable._core import numbers as nb
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import Tolerance, error_in_units
from solvable.verification import cli, theorems, verify_runner


# ---------------------------------------------------------------------------
# _core.tolerance.error_in_units: equal sizes compare entry by entry in flat order
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("size", "shape_a", "shape_b"),
    [(12, (3, 4), (12,)), (300, (20, 15), (300,)), (1024, (1, 1024), (1024, 1)),
     (4096, (64, 64), (16, 256))],
)  # fmt: skip
def test_error_in_units_compares_equal_sized_arrays_in_flat_order_whatever_the_shapes(
    size, shape_a, shape_b
):
    """Mutant solvable/_core/tolerance.py:92:core/ReplaceComparisonOperator_NotEq_IsNot:3.

    error_in_units is normwise over the entries: the float64 path refuses only arrays of
    different sizes (as the mpf path, which compares the flattened entries), so a (20, 15)
    array against a (300,) one is compared entry by entry in row-major order, at any size
    (also above 256, where equal Python ints need not be the same object).  Expected value
    by exact rationals: b = 1..size, a = b except one entry off by 1/4, rtol = 2^-10, so the
    error is (1/4) / (size 2^-10) = 256 / size; both the division and the data are exact
    up to one rounding of the quotient (1 ulp)."""
    b = np.arange(1, size + 1, dtype=float)
    a = b.copy()
    a[size // 3] += 0.25
    tol = Tolerance(rtol=2.0**-10, reason="exact binary test data")
    want = float(Fraction(256, size))
    got = error_in_units(a.reshape(shape_a), b.reshape(shape_b), tol)
    assert abs(got - want) <= 2 * np.spacing(want), (got, want)
    # the same numbers through the mpf path (object arrays), which flattens too
    with mpmath.workdps(30):
        am = np.array([mpmath.mpf(v) for v in a], dtype=object).reshape(shape_a)
        bm = np.array([mpmath.mpf(v) for v in b], dtype=object).reshape(shape_b)
    assert abs(error_in_units(am, bm, tol) - want) <= 2 * np.spacing(want)
    # and different sizes are refused on both paths
    with pytest.raises(ValueError, match="shapes differ"):
        error_in_units(a[:-1], b, tol)
    with pytest.raises(ValueError, match="shapes differ"):
        error_in_units(am.ravel()[:-1], bm, tol)


# ---------------------------------------------------------------------------
# cli errata: residuals longer than the column are shortened to 30 characters
# ---------------------------------------------------------------------------
def _erratum(printed: sp.Expr, corrected: sp.Expr) -> types.SimpleNamespace:
    return types.SimpleNamespace(
        source="001_070589003213e0cf.txt", equation="(1)", paper="p", corrected="c",
        explanation="e",
        changes_math=True, residuals=lambda: (printed, corrected),
        judge=lambda paper, corr: True,
    )  # fmt: skip


def test_errata_command_judges_each_erratum_by_its_residuals(monkeypatch, capsys):
    """``solvable errata`` computes each pair of residuals once and judges that pair: a
    printed version shown false and a corrected one proved pass; a corrected residual that
    is not 0, or a printed one that is 0, is FAILS and exit 1."""
    from solvable._core.claims import Erratum

    def real(printed, corrected):
        return Erratum("001_070589003213e0cf.txt", "(1)", "p", "c", "e",
                       lambda: (sp.sympify(printed), sp.sympify(corrected)))  # fmt: skip

    monkeypatch.setattr(cli, "ERRATA", (real(1, 0),))
    assert cli.main(["errata"]) == 0 and "1 errata, 1 checks pass" in capsys.readouterr().out
    for printed, corrected in ((1, 1), (0, 0)):
        monkeypatch.setattr(cli, "ERRATA", (real(printed, corrected),))
        assert cli.main(["errata"]) == 1
        out = capsys.readouterr().out
        assert "FAILS" in out and "1 errata, 0 checks pass" in out


def test_errata_table_shortens_long_residuals_to_30_characters(monkeypatch, capsys):
    """Mutant solvable/verification/cli.py:238:core/ReplaceBinaryOperator_Sub_RShift:4.

    ``solvable errata`` prints each residual in a column 30 characters wide: a longer one
    as its first 27 characters and "..." (30 in all), one of at most 30 whole."""
    x, y, z = sp.symbols("x y z")
    long = 1234567890 * x + 987654321 * y + 5555555 * z  # 38 characters
    exactly_30 = sp.Symbol("a" * 30)
    short = sp.Rational(-1, 7)
    assert len(str(long)) > 30 and len(str(exactly_30)) == 30
    monkeypatch.setattr(cli, "ERRATA", (_erratum(long, short), _erratum(exactly_30, 0)))
    assert cli.main(["errata"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("1 ", "2 ")) and "passes" in line]
    assert len(rows) == 2, out
    cut = str(long)[:27] + "..."
    assert len(cut) == 30
    assert cut in rows[0] and str(long) not in rows[0], rows[0]
    assert str(short) in rows[0]
    assert str(exactly_30) in rows[1] and "..." not in rows[1], rows[1]
    assert "2 errata, 2 checks pass" in out


# ---------------------------------------------------------------------------
# Theorem.verify checks its options: dps from 15 (float64's digits) to MAX_DPS, full a bool
# ---------------------------------------------------------------------------
def _dps_echo() -> Theorem:
    """A claim whose verdict reports the dps and full it was given."""

    def check(dps: int = 30, full: bool = False) -> Verdict:
        return Verdict("confirmed", f"dps={dps} full={full}")

    return Theorem("demo.options", "000_x.txt (1)", "echoes its options", "numeric", check)


@pytest.mark.parametrize(
    ("options", "exc"),
    [
        ({"dps": nb.VERIFY_MIN_DPS - 1}, ValueError),  # one below the least: false failures
        ({"dps": nb.MAX_DPS + 1}, ValueError),  # one above the most
        ({"dps": -7}, ValueError),
        ({"dps": None}, TypeError),
        ({"dps": True}, TypeError),
        ({"dps": 30.0}, TypeError),
        ({"dps": "30"}, TypeError),
        ({"full": 1}, TypeError),
        ({"full": "yes"}, TypeError),
    ],
)
def test_verify_refuses_options_out_of_range_naming_them(options, exc):
    """Mutant solvable/models/node_scaling.py:1197 (0 < v <= 1 -> < 1) was told apart only by
    ``verify(dps=-7)``, which ran a claim at 3 digits and confirmed it: such options are now
    refused, naming the option and its valid range."""
    (name,) = options
    with pytest.raises(exc, match=rf"^{name} must be"):
        _dps_echo().verify(**options)


@pytest.mark.parametrize("dps", [nb.VERIFY_MIN_DPS, 31, np.int64(40)])
def test_verify_passes_valid_options_through(dps):
    v = _dps_echo().verify(dps=dps, full=True)
    assert v.status == "confirmed" and v.detail == f"dps={dps} full=True"


# ---------------------------------------------------------------------------
# theorems registry: a claim id that appears twice is refused
# ---------------------------------------------------------------------------
class _Model:
    """A stand-in for a solvable.Model: a name (no module in solvable.verification.confirmations, so
    no
    simulation-backed claims are added) and its claims (hashable: _registry is cached)."""

    def __init__(self, name: str, ids: tuple[str, ...]) -> None:
        self.name = name
        self._ids = ids

    def theorems(self) -> list[Theorem]:
        return [_claim_with_id(i) for i in self._ids]


def _claim_with_id(claim_id: str) -> Theorem:
    return Theorem(claim_id, "000_x.txt (1)", "a statement", "numeric",
                   lambda: Verdict("confirmed", "ok"))  # fmt: skip


@pytest.mark.parametrize(
    ("models", "repeated"),
    [
        ((_Model("demo_a", ("demo_a.x", "demo_a.y", "demo_a.x")),), ["demo_a.x"]),  # twice
        (
            (_Model("demo_b", ("demo_b.x",)), _Model("demo_b", ("demo_b.x", "demo_b.y"))),
            ["demo_b.x"],
        ),  # the same id from two models
        (
            (_Model("demo_c", ("demo_c.x", "demo_c.y", "demo_c.x", "demo_c.y", "demo_c.x")),),
            ["demo_c.x", "demo_c.y"],
        ),  # three times and twice
    ],
)
def test_registry_refuses_a_claim_id_that_appears_more_than_once(models, repeated):
    """Mutant solvable/verification/theorems.py:46:core/NumberReplacer:0.

    "claim ids must be unique": every id repeated (twice or more) is named, sorted."""
    with pytest.raises(
        ValueError, match=re.escape(f"claim ids must be unique, repeated: {repeated}")
    ):
        theorems._registry(models)


def test_registry_accepts_distinct_claim_ids_in_model_order():
    models = (_Model("demo_d", ("demo_d.x", "demo_d.y")), _Model("demo_e", ("demo_e.x",)))
    assert [t.id for t in theorems._registry(models)] == ["demo_d.x", "demo_d.y", "demo_e.x"]


# ---------------------------------------------------------------------------
# verify_runner._drain: a worker's pending claims are those it has not reported yet
# ---------------------------------------------------------------------------
class _FakeConn:
    def __init__(self, messages):
        self.messages = collections.deque(messages)

    def poll(self):
        return bool(self.messages)

    def recv(self):
        return self.messages.popleft()


def _fake_worker(pending, messages):
    return types.SimpleNamespace(
        conn=_FakeConn(messages), pending=collections.deque(pending), current=None, busy=True,
        process=types.SimpleNamespace(exitcode=None),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("pending", "reported", "left"),
    [
        ([3, 5, 8], [3], [5, 8]),  # the task's order
        ([3, 5, 8], [5], [3, 8]),  # out of the task's order: that claim, not the first
        ([3, 5, 8], [8, 3], [5]),
        ([], [4], []),  # a claim no longer pending (nothing to remove)
    ],
)
def test_drain_keeps_pending_exactly_the_claims_not_yet_reported(pending, reported, left):
    """Mutant solvable/verification/verify_runner.py:363:core/ReplaceAndWithOr:3.

    _Worker.pending is "the claims of its current task not yet reported": a ("done", index,
    ...) message removes that index (wherever it stands) and records its verdict; the
    others stay pending, in order, for a fresh worker should this one die (_buried)."""
    verdict = Verdict("confirmed", "ok")
    messages = []
    for i in reported:
        messages += [("start", i), ("done", i, verdict, 0.5)]
    w = _fake_worker([(i, f"claim {i}") for i in pending], [*messages, ("idle",)])
    recorded = []
    assert verify_runner._drain(w, lambda i, v, cpu: recorded.append((i, v, cpu))) is True
    assert recorded == [(i, verdict, 0.5) for i in reported]
    assert list(w.pending) == [(i, f"claim {i}") for i in left]
    assert w.current is None and w.busy is False


def test_max_abs_is_the_largest_magnitude_or_nan():
    """``arrays.max_abs``: the largest |entry| whichever sign holds it, nan where any entry
    is nan (wherever it sits), 0 for an empty array, inf kept (the fast paths compare it with
    the float64 range)."""
    assert arrays.max_abs(np.array([1.0, -3.0, 2.0])) == 3.0
    assert arrays.max_abs(np.array([[1.0, 3.0], [-2.0, 0.5]])) == 3.0
    assert arrays.max_abs(np.array([-0.0])) == 0.0 and arrays.max_abs(np.empty((0, 2))) == 0.0
    for at in range(3):
        x = np.array([1.0, -5.0, 2.0])
        x[at] = math.nan
        assert math.isnan(arrays.max_abs(x)), at
    assert arrays.max_abs(np.array([-math.inf, 1.0])) == math.inf
