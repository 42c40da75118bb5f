"""Bad input is a clear error: one test per case, pinning the message a user reads.

The fuzz of every public entry point (each argument, every kind of bad value: NaN, +-inf,
bools, complex, strings and code, wrong shapes and dtypes, empty inputs, tensors, extremes
of scale) is ``tests/test_fuzz_every_entry_point.py`` (its harness ``tests/fuzz_harness.py``).
Here: the command line's options (a fuzz of their own) and single cases with their exact
messages.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
import torch
from fuzz_entries_c import _xz_model, _xz_params  # the seed-001 torch model and start
from hypothesis import given, settings
from hypothesis import strategies as st

import numerics
import solvable
from numerics import torch_flow
from solvable._core import numbers as nb
from solvable.models import kernels, kunin, node_scaling, ntg, three_layer
from solvable.models import xu_ziyin as xz
from solvable.verification import cli

# ---------------------------------------------------------------------------
# good arguments the one-case tests below start from (the fuzz of every public entry point
# with bad values of each kind: tests/test_fuzz_every_entry_point.py)
# ---------------------------------------------------------------------------
_XZ = {"eta_u": 1.0, "eta_w": 0.5, "gamma": 0.7, "x": [1.0, 2.0], "y": 1.5}
_XZ_SETUP = xz.Setup(**_XZ)
_XZ_TRAJ = xz.closed_form(_XZ_SETUP, [0.3, -0.2], [[0.1, 0.2], [-0.3, 0.1]])
_KU = {"eta_a": 1.0, "eta_w": 2.0, "X": [[1.0, 0.0], [0.0, 1.0]], "y": [1.0, 0.5]}
_KU_SETUP = kunin.Setup(**_KU)
_NS = {"X": [[1.0, 0.5], [0.2, -1.0]], "y": [1.0, -0.5], "lam": [1.0, 0.5], "eta": 1.0}
_NS_LINEAR = node_scaling.Setup(**_NS, activation="linear")
_LECTURE = kernels.lecture_initialisation(2)


# ---------------------------------------------------------------------------
# the CLI: a bad option value exits with code 2 and a message naming the option, before
# anything runs (argparse's usage error; never a traceback)
# ---------------------------------------------------------------------------
_CLI_BAD = {
    "--dps": ["abc", "", "nan", "inf", "1.5", "14", "29", "-3", "0", "1e3", "True", "1+2j"],
    "--json": ["/no/such/dir/x.json", ".", "/"],
    "--only": ["no-claim-matches-this-pattern"],
}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(case=st.sampled_from([(k, v) for k, vs in _CLI_BAD.items() for v in vs]))
def test_fuzz_cli_arguments(case):
    option, value = case
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli.main(["verify", option, value])
        except SystemExit as exc:
            code = exc.code
    err = stderr.getvalue()
    assert code == 2, f"verify {option} {value!r}: exit code {code}"
    assert option.lstrip("-") in err, f"verify {option} {value!r}: {err!r}"


# ---------------------------------------------------------------------------
# the "Why" cases of this item, one test each
# ---------------------------------------------------------------------------
def test_wrong_length_u0_names_u0_and_the_expected_length():
    with pytest.raises(ValueError, match=r"u0 must have shape \(2,\)") as info:
        xz.closed_form(_XZ_SETUP, [0.3, -0.2, 0.1], [[0.1, 0.2], [-0.3, 0.1]])
    assert "(3,)" in str(info.value)


def test_cli_dps_names_the_option_and_the_range(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["verify", "--dps", "abc"])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert "--dps must be an integer >= 30" in err and "got 'abc'" in err
    assert "_dps" not in err


def test_cli_checks_the_json_path_before_running(monkeypatch, capsys):
    ran = []
    monkeypatch.setattr(cli.theorems, "select", lambda *a, **k: ran.append(a) or [])
    with pytest.raises(SystemExit) as info:
        cli.main(["verify", "--only", "xu_ziyin.*", "--json", "/no/such/dir/x.json"])
    assert info.value.code == 2
    assert "'/no/such/dir' of '/no/such/dir/x.json' does not exist" in capsys.readouterr().err
    assert ran == []  # refused before a claim is even selected


def test_cli_json_path_that_is_writable_is_accepted(tmp_path, capsys):
    target = tmp_path / "out.json"
    code = cli.main(["verify", "--only", "no-claim-matches-this", "--json", str(target)])
    assert code == 2  # no claim matched: the path itself passed the check
    assert "no claim matches" in capsys.readouterr().err


@pytest.mark.parametrize("shape", [(3, 3), (3, 1)])
def test_gram_refuses_a_wrong_input_dimension(shape):
    # the lecture initialisation's law w ~ N(0, I_d/d) is made for one d
    with pytest.raises(ValueError, match=r"X must have d = 2 columns .* got " + str(shape[1])):
        kernels.gram("ntk_first_layer", _LECTURE, np.ones(shape))
    with pytest.raises(ValueError, match=r"X must have d = 2 columns"):
        kernels.gram_torch("ntk_first_layer", _LECTURE, torch.ones(shape, dtype=torch.float64))
    # a record without a dimension takes any d
    assert kernels.gram(
        "ntk_first_layer", kernels.exercise_initialisation(), np.ones(shape)
    ).shape == (3, 3)


def test_gram_refuses_complex_and_bool_inputs():
    with pytest.raises(TypeError, match="X must be an array of finite real numbers"):
        kernels.gram("ntk_first_layer", _LECTURE, np.ones((2, 2)) + 0j)
    with pytest.raises(TypeError, match="Y must be an array of finite real numbers"):
        kernels.gram("ntk_first_layer", _LECTURE, np.ones((2, 2)), np.ones((2, 2), dtype=bool))
    with pytest.raises(TypeError, match="X must be a real floating-point tensor"):
        kernels.gram_torch("ntk_first_layer", _LECTURE, torch.ones((2, 2), dtype=torch.complex128))


def test_float32_scalar_is_a_number():
    assert nb.check_number("lr", np.float32(1e-3), positive=True) == pytest.approx(1e-3)
    res = torch_flow.gradient_descent(_xz_model(), _xz_params(), np.float32(1e-3), [2])
    assert res.times[-1] == pytest.approx(2e-3, rel=1e-6)


@pytest.mark.parametrize(
    ("value", "exc", "message"),
    [
        (True, TypeError, "got bool True"),
        (np.bool_(False), TypeError, "got bool"),
        (1 + 0j, TypeError, "got complex"),
        (np.complex64(1), TypeError, "got complex64"),
        (torch.tensor(0.5), TypeError, r"float\(t\) or t.item\(\)"),
        ("abc", ValueError, "lr must be a decimal number and > 0"),
        (math.nan, ValueError, "lr must be finite and > 0, got nan"),
        (None, TypeError, "lr must be a finite real number and > 0"),
    ],
)
def test_number_policy(value, exc, message):
    with pytest.raises(exc, match=message):
        nb.check_number("lr", value, positive=True)


def test_tensor_where_an_array_is_expected():
    with pytest.raises(TypeError, match=r"x must be an array .* t.tolist\(\)"):
        nb.check_vector("x", torch.ones(2))


# ---------------------------------------------------------------------------
# pairs that used to fail the fuzz, one test each
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("make", "targets"),
    [
        (lambda X, y: kunin.Setup(eta_a=1.0, eta_w=2.0, X=X, y=y), "y"),
        (lambda X, y: kunin.WideSetup(eta_a=1.0, eta_w=2.0, X=X, Y=[[v] for v in y]), "Y"),
        (lambda X, y: three_layer.Setup(X=X, y=y), "y"),
        (lambda X, y: node_scaling.Setup(X=X, y=y, lam=[1.0, 0.5]), "y"),
    ],
    ids=["kunin", "kunin-wide", "three_layer", "node_scaling"],
)
def test_wrong_length_targets_name_the_targets_and_X(make, targets):
    X = [[1.0, 0.5], [0.2, -1.0]]
    with pytest.raises(ValueError, match=rf"^{targets} has length 5 but X has 2 rows"):
        make(X, [1.0] * 5)
    with pytest.raises(ValueError, match=rf"^{targets} has length 2 but X has 1 rows"):
        make([[1.0, 0.5]], [1.0, -0.5])
    # a malformed X (not the lengths) is still blamed on X alone
    with pytest.raises(ValueError, match=r"^X must have shape \(n, m\), got"):
        make([[1.0, 0.5], [0.2]], [1.0, -0.5])


@pytest.mark.parametrize(
    ("shapes", "exc", "message"),
    [
        ("abc", TypeError, "shapes must be a mapping of block name"),
        (None, TypeError, "shapes must be a mapping .* got NoneType None"),
        ([("u", (2,))], TypeError, "shapes must be a mapping"),
        ({}, ValueError, "shapes must be .* at least one block"),
        ({1: (2,)}, TypeError, "shapes must be .*; got the key 1"),
        ({"u": 2}, TypeError, r"shapes\['u'\] must be a tuple of ints >= 0, got int 2"),
        ({"u": "ab"}, TypeError, r"shapes\['u'\] must be a tuple"),
        ({"u": (2.0,)}, TypeError, r"shapes\['u'\]\[0\] must be an int >= 0, got float"),
        ({"u": (True,)}, TypeError, r"shapes\['u'\]\[0\] must be an int"),
        ({"u": (2, -1)}, ValueError, r"shapes\['u'\]\[1\] must be an integer >= 0, got -1"),
    ],
)
def test_initialise_validates_shapes(shapes, exc, message):
    with pytest.raises(exc, match=message):
        torch_flow.initialise(shapes, 1, device="cpu")


def test_initialise_accepts_lists_and_scalar_blocks():
    p = torch_flow.initialise({"a": (), "w": [3], "W": (0, 2)}, 2, device="cpu")
    assert {k: tuple(v.shape) for k, v in p.items()} == {"a": (2,), "w": (2, 3), "W": (2, 0, 2)}


@pytest.mark.parametrize("flow", ["gradient_flow", "gradient_descent"])
@pytest.mark.parametrize(
    ("params", "message"),
    [
        (None, r"params must be a mapping of block name \(str\) -> torch tensor"),
        ([1.0, 2.0], "params must be a mapping"),
        ({0: torch.zeros(1, 2)}, r"params must be keyed by block name \(str\), got 0"),
        ({"u": [[0.3, -0.2]]}, r"params\['u'\] must be a torch tensor \(B, \*shape\), got list"),
        ({"u": 1.0}, r"params\['u'\] must be a torch tensor"),
        ({"u": torch.ones(1, 2, dtype=torch.complex128)}, r"params\['u'\] must be a real"),
        ({"u": torch.ones(1, 2, dtype=torch.bool)}, r"params\['u'\] must be a real"),
    ],
)
def test_flows_validate_params(flow, params, message):
    call = {
        "gradient_flow": lambda p: torch_flow.gradient_flow(_xz_model(), p, [0.1]),
        "gradient_descent": lambda p: torch_flow.gradient_descent(_xz_model(), p, 0.01, [1]),
    }[flow]
    with pytest.raises(TypeError, match=message):
        call(params)


@pytest.mark.parametrize(
    ("times", "exc", "message"),
    [
        ("abc", TypeError, "times must be a non-empty 1-d sequence .* got str 'abc'"),
        ({"a": 1.0}, TypeError, "times must be a non-empty 1-d sequence .* got dict"),
        (0.5, TypeError, "times must be a non-empty 1-d sequence .* got float"),
        (torch.tensor([0.5]), TypeError, r"got Tensor .* t.tolist\(\)"),
        (["abc"], ValueError, r"times\[0\] must be a decimal number"),
        ([0.5 + 1j], TypeError, r"times\[0\] must be a finite real number .* got complex"),
        (np.array([0.5 + 0j]), TypeError, "times must hold finite real numbers, got dtype complex"),
        ([True], TypeError, r"times\[0\] must be a finite real number .* got bool"),
        ([math.nan], ValueError, r"times\[0\] must be finite"),
        ([-1.0], ValueError, "times must be >= 0"),
        ([[0.5]], ValueError, "times must be one-dimensional"),
        (np.empty(0), ValueError, "times must be a non-empty"),
    ],
)
def test_gradient_flow_times_follow_the_number_policy(times, exc, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)  # never a silent cast
        with pytest.raises(exc, match=message):
            torch_flow.gradient_flow(_xz_model(), _xz_params(), times)


def test_gradient_flow_times_accept_decimal_strings_and_numpy():
    a = torch_flow.gradient_flow(_xz_model(), _xz_params(), ["0", "0.25", 0.5], rtol=1e-12)
    b = torch_flow.gradient_flow(_xz_model(), _xz_params(), np.array([0.0, 0.25, 0.5]), rtol=1e-12)
    assert torch.equal(a.times, b.times)
    assert torch.equal(a.params["W"], b.params["W"])


_HUGE = [10**400, -(10**400), "1e400", mpmath.mpf("1e500")]


@pytest.mark.parametrize("value", _HUGE, ids=str)
def test_float_conversion_beyond_float64_is_a_value_error(value):
    with pytest.raises(
        ValueError, match=r"^lr = .* outside the float64 range \(\|value\| <= 1.798e\+308\)"
    ):
        nb.to_float(value, "lr")
    with pytest.raises(ValueError, match=r"^the number .* outside the float64 range"):
        nb.to_float(value)
    with pytest.raises(ValueError, match=r"^W0 = .* outside the float64 range"):
        nb.converter(None, "W0")(value)
    # at dps digits the same value is a number like any other
    assert mpmath.isfinite(nb.converter(30, "W0")(value))


def test_float_conversion_keeps_the_edges_of_float64():
    assert nb.to_float(10**308, "x") == 1e308
    assert nb.to_float("1.7976931348623157e308", "x") == nb.FLOAT64_MAX
    assert nb.to_float("1e-400", "x") == 0.0  # underflow to 0 is float64's rounding, not an error
    assert nb.to_float(math.inf, "t") == math.inf  # a checked inf (t = inf) passes through
    assert nb.to_float("0.1", "x") == 0.1


@pytest.mark.parametrize("value", [10**400, "1e400", mpmath.mpf("1e500")], ids=str)
@pytest.mark.parametrize(
    ("arg", "call"),
    [
        ("scale", lambda v: torch_flow.initialise({"u": (2,)}, 1, scale=v, device="cpu")),
        ("scale['u']", lambda v: torch_flow.initialise({"u": (2,)}, 1, scale={"u": v})),
        ("lr", lambda v: torch_flow.gradient_descent(_xz_model(), _xz_params(), v, [1])),
        ("rtol", lambda v: torch_flow.gradient_flow(_xz_model(), _xz_params(), [0.1], rtol=v)),
        ("atol", lambda v: torch_flow.gradient_flow(_xz_model(), _xz_params(), [0.1], atol=v)),
        ("times", lambda v: torch_flow.gradient_flow(_xz_model(), _xz_params(), [0.1, v])),
    ],
)
def test_torch_flow_refuses_numbers_beyond_float64_naming_them(value, arg, call):
    with pytest.raises(ValueError, match=r"outside the float64 range") as info:
        call(value)
    assert str(info.value).startswith(arg + " = "), str(info.value)


@pytest.mark.parametrize(
    ("arg", "call"),
    [
        ("t", lambda: _XZ_TRAJ.at(10**400)),
        ("a0", lambda: kunin.closed_form(_KU_SETUP, 10**400, [0.2, -0.1])),
        ("times", lambda: numerics.simulate(
            _XZ_SETUP, [0.3, -0.2], [[0.1, 0.2], [-0.3, 0.1]], [10**400], method="scipy"
        )),
        ("X", lambda: kernels.gram("ntk_first_layer", kernels.lecture_initialisation(2),
                                   np.array([[10**400, 1]], dtype=object))),
    ],
    ids=["Trajectory.at", "kunin.closed_form", "simulate", "kernels.gram"],
)  # fmt: skip
def test_float64_overflow_elsewhere_is_a_value_error_naming_the_argument(arg, call):
    # a float64 conversion of a number beyond the float64 range: a ValueError with the range
    # that names the argument, never OverflowError
    with pytest.raises(
        ValueError, match=r"outside the float64 range \(\|value\| <= 1.798e\+308\)"
    ) as info:
        call()
    assert str(info.value).startswith(arg + " "), str(info.value)


def test_a_fraction_is_an_exact_number():
    # its sign and finiteness are judged exactly (no rounding through float), at any size
    assert nb.check_number("lr", Fraction(1, 3), positive=True) == Fraction(1, 3)
    assert nb.check_number("lr", Fraction(10**400, 3), positive=True) == Fraction(10**400, 3)
    with pytest.raises(ValueError, match=r"lr must be > 0, got Fraction\(-1, 3\)"):
        nb.check_number("lr", Fraction(-1, 3), positive=True)
    with pytest.raises(ValueError, match=r"lr must be >= 0"):
        nb.check_number("lr", Fraction(-1, 10**400), nonnegative=True)
    # and its mpmath value is the fraction rounded once, at any size
    assert nb.to_mpf(Fraction(1, 3)) == mpmath.mpf(1) / 3
    assert nb.to_mpf(Fraction(10**400, 3)) == mpmath.mpf(10) ** 400 / 3


def test_monte_carlo_at_the_edges_of_float64():
    # the squares of 1e300 overflow and those of 1e-300 underflow: scaled by a power of two,
    # the mean and standard error are those of the samples at scale 1, times the scale
    for scale in (1e300, 1e-300):
        res = solvable.monte_carlo([1 * scale, 2 * scale, 3 * scale])
        assert res.mean == pytest.approx(2 * scale, rel=1e-15)
        assert res.stderr == pytest.approx(scale / math.sqrt(3), rel=1e-15)
    with pytest.raises(ValueError, match="samples must be a rectangular array"):
        solvable.monte_carlo([[1.0, 2.0], [3.0]])
    with pytest.raises(ValueError, match=r"axis must be in \[-1, 1\)"):
        solvable.monte_carlo([1.0, 2.0], axis=1)
    with pytest.raises(ValueError, match="samples must be finite"):
        solvable.monte_carlo(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="confidence must be in"):
        solvable.monte_carlo([1.0, 2.0], confidence=1)


def test_tolerance_fields_are_checked_numbers():
    assert solvable.Tolerance(rtol="1e-3").rtol == 1e-3
    with pytest.raises(ValueError, match="rtol must be finite"):
        solvable.Tolerance(rtol=math.inf)
    with pytest.raises(TypeError, match="atol must be a finite real number"):
        solvable.Tolerance(rtol=1e-3, atol=None)
    with pytest.raises(ValueError, match="not both 0"):
        solvable.Tolerance(rtol=0)


def test_a_derivative_order_is_an_int_never_code():
    with pytest.raises(TypeError, match="order must be an int >= 0"):
        ntg.activation_derivative("tanh", order="__import__('os').getcwd()")
    with pytest.raises(ValueError, match=r"order must be an integer in \[0, 64\]"):
        ntg.activation_derivative("tanh", order=10**30)
    with pytest.raises(ValueError, match="name must be one of"):
        ntg.activation_derivative("gelu")
    assert ntg.activation_derivative("tanh", order=0) == sp.tanh(sp.Symbol("z", real=True))


@pytest.mark.parametrize("record", ["Setup", "WideSetup", "PiecewiseLinearSetup"])
@pytest.mark.parametrize("field", ["eta_a", "eta_w", "X", "targets", None])
def test_a_kunin_setup_remembers_whether_it_holds_mpf(record, field):
    """A kunin setup keeps holds_mpf of its validated fields (so closed_form does not scan
    an X of 10^6 entries at each call): an mpf in any one field, and in none; an X given as
    a float array (never scanned) beside an mpf elsewhere; and a replace() is judged anew."""
    one = mpmath.mpf(1)
    values = {"eta_a": 1.0, "eta_w": 0.5, "X": [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]}
    targets = [[0.5], [1.0], [2.0]] if record == "WideSetup" else [0.5, 1.0, 2.0]
    if field == "X":
        values["X"] = [[1.0, 0.0], [0.0, 1.0], [0.5, one]]
    elif field == "targets":
        targets = [[0.5], [1.0], [one]] if record == "WideSetup" else [0.5, 1.0, one]
    elif field is not None:
        values[field] = one
    cls = getattr(kunin, record)
    setup = cls(values["eta_a"], values["eta_w"], values["X"], targets)
    assert nb.holds_mpf(setup) is (field is not None)
    assert setup.__dict__[nb.HOLDS_MPF] is (field is not None)  # remembered, not rescanned
    if field != "X":  # the same with X from a float array (the fast path, not scanned)
        arr = cls(values["eta_a"], values["eta_w"], np.array(values["X"]), targets)
        assert nb.holds_mpf(arr) is (field is not None)
    flipped = dataclasses.replace(setup, eta_a=one if field is None else 2.0)
    assert nb.holds_mpf(flipped) is (field is None or field != "eta_a")


def test_holds_mpf_and_dps_or_context():
    # an mpf anywhere in an argument (scalar, list, object array, a Setup's field) selects
    # the caller's mpmath precision when dps is None; an explicit dps always wins
    setup = xz.Setup(eta_u=mpmath.mpf(1), eta_w=0.5, gamma=0.7, x=[1.0, 2.0], y=1.5)
    mixed = np.array([1.0, mpmath.mpf(2), 3.0], dtype=object)  # an mpf not first, not alone
    # rows of a matrix (looked at all at once when every row is a tuple or list): an mpf in
    # the last entry of the last row, in a row of ints, in a nested row
    rows = (*((1.0, 2, True) for _ in range(300)), (3.0, mpmath.mpf(4)))
    nested = ((1.0, 2.0), [3, (4.0, mpmath.mpf(5))])
    big = kunin.Setup(1, 1, [[1.0, 0.0]] * 299 + [[0.0, mpmath.mpf(1)]], [0.5] * 300)
    arrays = [np.ones(2), np.array([1.0, mpmath.mpf(2)], dtype=object)]  # a list of arrays
    for value in (mpmath.mpf("0.5"), [1.0, mpmath.mpf(2)], np.array([mpmath.mpf(1)]), mixed,
                  setup, rows, nested, big, arrays):  # fmt: skip
        assert nb.holds_mpf(value)
        with mpmath.workdps(40):
            assert nb.dps_or_context(None, 1.0, value) == 40
        assert nb.dps_or_context(25, value) == 25
    plain_rows = tuple((1.0, 2, False) for _ in range(300))
    plain = kunin.Setup(1, 1, np.eye(300), np.ones(300))
    for value in (0.5, [1.0, 2.0], np.ones(2), "0.5", _XZ_SETUP, plain_rows, plain, (), [[]],
                  [[[[[mpmath.mpf(1)]]]]]):  # fmt: skip
        assert not nb.holds_mpf(value)  # the last: deeper than the walk goes
        assert nb.dps_or_context(None, value) is None
    with pytest.raises(ValueError, match="dps must be"):
        nb.dps_or_context(0, mpmath.mpf(1))
