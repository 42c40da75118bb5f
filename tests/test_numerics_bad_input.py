"""Refusals of the numerics building blocks (``numerics.mp``, ``numerics.scipy_ode``,
``numerics.measures``, ``numerics.sweeps``) found by the fuzz of every public callable
(``tests/fuzz_entries_e.py``): each bad input is refused with a ``TypeError`` /
``ValueError`` that names the argument, and a valid neighbouring input still works.

Before the fixes these inputs hung (NaN into DOP853, ``dps = 10**9``, ``10**30`` workers or
bootstrap draws), ran code from a string (``param_symbols``), returned NaN silently, or
failed with a raw numpy / torch / sympy / mpmath error that named no argument."""

from __future__ import annotations

import builtins
import math

import numpy as np
import pytest
import sympy as sp

from numerics import mp, scipy_ode
from solvable._core.flows import GradientFlow

torch = pytest.importorskip("torch")
from numerics import measures, models, sweeps  # noqa: E402  (need torch)
from solvable.models.phases import Scaling  # noqa: E402

X, Y = sp.symbols("x y")
A, B = sp.symbols("a b")
RHS = [-sp.sqrt(A) * X, -B * Y]  # sqrt(a): a node of the parameters alone
PROG = mp.compile_polynomial([X, Y], [A, B], RHS)


def _mp(**kw):
    args = {"prog": PROG, "params": [1, "0.5"], "param_symbols": [A, B], "y0": [1, 0.5],
            "times": [0.5], "dps": 15, **kw}  # fmt: skip
    return mp.integrate(**args)


def _close(a, b, rel=1e-12):
    return all(abs(p - q) <= rel * abs(q) for p, q in zip(a, b, strict=True))


# ---------------------------------------------------------------------------
# numerics.mp
# ---------------------------------------------------------------------------
def test_mp_param_symbols_must_be_symbols_never_code():
    """A string in ``param_symbols`` became an argument name of the generated evaluator of
    ``sqrt(a)``: ``"b=__import__(...)"`` was a default value, run as code.  Now a
    ``TypeError`` naming the entry; the Symbols give the state at t = 0.5."""
    flag = "_solvable_numerics_bad_input_ran"
    payload = f"b=__import__('builtins').__setattr__('{flag}', 1) or 1"
    with pytest.raises(TypeError, match=r"param_symbols\[1\] must be a sympy Symbol"):
        _mp(param_symbols=[A, payload])
    assert not hasattr(builtins, flag)
    with pytest.raises(ValueError, match="param_symbols must have 2 entries"):
        _mp(param_symbols=[A])
    ys, _ = _mp()
    assert _close(ys[0], [math.exp(-0.5), 0.5 * math.exp(-0.25)])


def test_mp_compile_polynomial_refuses_what_is_not_a_symbol_or_an_expression():
    """``state`` / ``params`` entries that are not Symbols, and ``rhs`` entries that are not
    expressions (None: a raw ``SympifyError``; True: a constant node; ``I``: a complex
    constant), are refused naming the argument; a number is a constant field."""
    with pytest.raises(TypeError, match=r"state\[1\] must be a sympy Symbol"):
        mp.compile_polynomial([X, 1.0], [A, B], RHS)
    with pytest.raises(TypeError, match="params must be a sequence"):
        mp.compile_polynomial([X, Y], None, RHS)
    with pytest.raises(ValueError, match="state must hold distinct symbols"):
        mp.compile_polynomial([X, X], [A, B], RHS)
    for bad in (None, True, "x"):
        with pytest.raises(TypeError, match=r"rhs\[0\] must be a sympy expression"):
            mp.compile_polynomial([X, Y], [A, B], [bad, -Y])
    with pytest.raises(ValueError, match="rhs has a non-real or infinite constant"):
        mp.compile_polynomial([X, Y], [A, B], [1j, -Y])
    with pytest.raises(ValueError, match="in neither state nor params: b"):
        mp.compile_polynomial([X, Y], [A], RHS)
    prog = mp.compile_polynomial([X, Y], [], [1.5, -Y])
    ys, _ = mp.integrate(prog, [], [], [0, 1], [2], 15)
    assert _close(ys[0], [3, math.exp(-2)])


@pytest.mark.parametrize("bad", [math.nan, "abc", None, 1.5, [30]])
def test_mp_order_takes_an_int(bad):
    with pytest.raises((TypeError, ValueError), match="digits must be an"):
        mp.order(bad)
    assert mp.order(30) == math.ceil(30 * math.log(10) / 2) + 1


@pytest.mark.parametrize(
    ("arg", "bad", "match"),
    [
        ("prog", None, "prog must be a TaylorProgram"),
        ("params", [None, 1.0], r"params\[0\] must be a finite real number"),
        ("params", [math.nan, 1.0], r"params\[0\] must be finite"),
        ("y0", [1.0, math.inf], r"y0\[1\] must be finite"),
        ("y0", 1.0, "y0 must be a sequence"),
        ("times", [math.nan], r"times\[0\] must be finite"),
        ("times", ["abc"], r"times\[0\] must be a decimal number"),
        ("blocks", [[0.0, 2.0]], r"blocks\[0\] must be a pair of ints"),
        ("blocks", [[0, 3]], r"blocks\[0\] = \[0, 3\] must satisfy 0 <= start <= stop <= 2"),
        ("dps", "30", "dps must be an int"),
        ("dps", 10**9, "dps must be at most 100000"),
        ("guard", 10**30, "guard must be at most 100000"),
        ("guard", -1, "guard must be an integer >= 0"),
        ("taylor_order", 2.5, "taylor_order must be None or an int"),
        ("taylor_order", 10**30, "taylor_order must be at most 10 times"),
        ("safety", -1.0, "safety must be > 0"),
        ("safety", 0, "safety must be > 0"),
        ("safety", 1.5, r"safety must be in \(0, 1\]"),
        ("safety", "abc", "safety must be a decimal number"),
        ("progress", torch.ones(2), "progress must be True or False"),
    ],
)
def test_mp_integrate_refuses_naming_the_argument(arg, bad, match):
    """Before: hangs (``dps = 10**9``, ``guard`` / ``taylor_order = 10**30``), 100000 steps
    backwards in time (``safety < 0``), ``ArithmeticError`` (NaN or inf in ``y0`` /
    ``times``), ``AttributeError`` (``prog``), or raw mpmath / Python errors."""
    with pytest.raises((TypeError, ValueError), match=match):
        _mp(**{arg: bad})


def test_mp_integrate_valid_neighbours():
    """Next to the refusals: a Fraction, a numpy scalar and a decimal string as numbers, a
    block of its own per component, safety 1, a low and the largest (10x) order, guard 0."""
    from fractions import Fraction

    want = [math.exp(-0.5), 0.5 * math.exp(-0.25)]
    ys, _ = _mp(params=[Fraction(1), np.float16(0.5)], y0=["1", np.float64(0.5)])
    assert _close(ys[0], want)
    for kw in ({"blocks": [(0, 1), [1, 2]]}, {"safety": 1}, {"taylor_order": 20},
               {"taylor_order": 10 * mp.order(35)}, {"guard": 0}, {"progress": False}):  # fmt: skip
        ys, _ = _mp(**kw)
        assert _close(ys[0], want, 1e-10), kw


# ---------------------------------------------------------------------------
# numerics.scipy_ode
# ---------------------------------------------------------------------------
FLOW = GradientFlow((X, Y), (A, B), (-A * X, -B * Y), (("w", (2,)),),
                    (A * X**2 + B * Y**2) / 2)  # fmt: skip


def _so(**kw):
    args = {"flow": FLOW, "params": [1.0, 0.5], "y0": [1.0, 0.5], "times": [0.5], **kw}
    return scipy_ode.integrate(**args)


@pytest.mark.parametrize(
    ("arg", "bad", "match"),
    [
        ("params", [math.nan, 1.0], r"params \(entry 0\) must be finite"),
        ("times", [math.nan], r"times \(entry 0\) must be finite"),
        ("times", [None], r"times \(entry 0\) must be a finite real number"),
        ("rtol", math.nan, "rtol must be finite"),
        ("times", [0.5, 0.1], "times must be sorted and >= 0"),
        ("flow", None, "flow must be a GradientFlow"),
        ("params", [1.0], "params must have 2 entries"),
        ("y0", "abc", "y0 must be an array"),
        ("rtol", -1.0, r"rtol must be in \(0, 1\)"),
        ("rates", [1.0, -1.0], "rates must hold 2 learning rates >= 0"),
        ("progress", torch.ones(2), "progress must be True or False"),
    ],
)
def test_scipy_integrate_refuses_naming_the_argument(arg, bad, match):
    """Before: NaN in ``params``, ``times`` or ``rtol`` hung (DOP853's first step NaN: its
    step loop never ends); unsorted times were scipy's ``RuntimeError``; the rest raw
    ``AttributeError`` / unpacking / scipy errors."""
    with pytest.raises((TypeError, ValueError), match=match):
        _so(**{arg: bad})


def test_scipy_integrate_start_and_blow_up_name_params_and_y0():
    """A start whose field is not finite in float64, and a flow that leaves float64 on the
    way (``y' = 1e300 y``), were an endless loop / an ``ArithmeticError`` naming nothing;
    now a ``ValueError`` naming params and y0 (:class:`FlowError` is also an
    ``ArithmeticError``, as before).  The valid neighbour ``y' = 10 y`` integrates."""
    with pytest.raises(ValueError, match="not finite in float64: params or y0"):
        _so(params=[1e308, 1.0], y0=[1e308, 0.5])
    with pytest.raises(scipy_ode.FlowError, match="params and y0") as info:
        _so(params=[1.0, -1e300])
    assert isinstance(info.value, ArithmeticError)
    out, _ = _so(params=[1.0, -10.0], rates=[1.0, 1.0])
    assert out[0] == pytest.approx([math.exp(-0.5), 0.5 * math.exp(5.0)], rel=1e-10)


def test_scipy_small_helpers_name_their_arguments():
    with pytest.raises(TypeError, match="n_state must be an int"):
        scipy_ode.check_interval("abc")
    assert scipy_ode.check_interval(0) == 16 and scipy_ode.check_interval(100) == 34
    with pytest.raises(ValueError, match="total must be finite"):
        scipy_ode.progress_bar(math.nan)
    with pytest.raises(TypeError, match="unit must be a str"):
        scipy_ode.progress_bar(1.0, None)
    scipy_ode.progress_bar(2.0, "step").close()
    good = {"last": (0.5, 0.002), "t": 1.0, "steps": 500, "t_end": 2.0, "max_steps": 10**5}
    for arg, bad, match in (("last", [1.0], "last must be None or a pair"),
                            ("t", "abc", "t must be a float"),
                            ("t_end", math.nan, "t_end must be finite"),
                            ("steps", 1.5, "steps must be an int"),
                            ("max_steps", 0, "max_steps must be an integer >= 1")):  # fmt: skip
        with pytest.raises((TypeError, ValueError), match=match):
            scipy_ode.projected_pace(**{**good, arg: bad})
    assert scipy_ode.projected_pace(**good) == (1.0, 0.5 / 250)


def _tail(**kw):
    args = {"S": np.array([[[2.0, 0.0], [0.0, 1.0]]]), "zdot": np.array([[1e-9, 0.0]]),
            "scale": np.full((1, 2), 1e-6), "root_eta": np.ones(2), "t_left": np.array([1.0]),
            "eps": 2.0**-52, "rtol": 1e-10, **kw}  # fmt: skip
    return scipy_ode.LinearTail(**args)


def test_linear_tail_checks_its_arrays():
    """A 2-d ``S`` was numpy's ``AxisError``, ``eps = 1.7e308`` a NaN tolerance, a short
    ``t_left`` a reshape error; a NaN in ``S`` stays what it was (the element is not
    admissible)."""
    with pytest.raises(ValueError, match="S must have 3 dimensions"):
        _tail(S=np.eye(2))
    with pytest.raises(ValueError, match=r"zdot must have shape \(B, N\)"):
        _tail(zdot=np.zeros((1, 3)))
    with pytest.raises(ValueError, match="scale must have shape"):
        _tail(scale=-np.ones((1, 2)))
    with pytest.raises(ValueError, match="t_left must hold B = 1 times >= 0"):
        _tail(t_left=np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"eps must be in \[0, 1\)"):
        _tail(eps=1.7e308)
    assert _tail().candidate()[0]
    assert not _tail(S=np.array([[[math.nan, 0.0], [0.0, 1.0]]])).admissible[0]


# ---------------------------------------------------------------------------
# numerics.measures
# ---------------------------------------------------------------------------
def _xz():
    return models.TwoLayerLinear([1.0, 2.0], 1.5, 0.7, 1.0, 0.5)


def _xz_p():
    return {"u": torch.tensor([[0.3, -0.2]], dtype=torch.float64),
            "W": torch.tensor([[[0.1, 0.2], [-0.3, 0.1]]], dtype=torch.float64)}  # fmt: skip


def _ns():
    return models.NodeScaled([[1.0, 0.5], [0.2, -1.0]], [1.0, -0.5], "tanh", 0.5)


def _ns_p():
    return models.node_scaled_parameters([0.6, 0.4], 2, 1, seed=1, device="cpu")


def test_measures_check_types_and_shapes():
    """Before: ``RuntimeError`` from matmul (an ``x`` of the wrong size), ``AttributeError``
    (a model or ``W`` that is not one), ``KeyError`` (a missing block), torch's
    ``RuntimeError`` (eigvalsh in bfloat16), and a silent broadcast (``relative_change``
    of a (1, 2) and a (2, 2) tensor returned two numbers)."""
    p = _xz_p()
    with pytest.raises(ValueError, match="x must have 2 entries along its last axis"):
        measures.alignment(p["u"], p["W"], [1.0])
    with pytest.raises(TypeError, match="W must be a torch tensor"):
        measures.alignment(p["u"], None, [1.0, 2.0])
    with pytest.raises(TypeError, match=r"model must be numerics\.models\.TwoLayerLinear"):
        measures.ntk_two_layer_linear(None, p)
    with pytest.raises(ValueError, match="p must hold the blocks"):
        measures.ntk_two_layer_linear(_xz(), {"u": p["u"]})
    with pytest.raises(ValueError, match="X must have 2 entries along its last axis"):
        measures.ntk(_ns(), _ns_p(), [[1.0]])
    with pytest.raises(TypeError, match="K must be a float32 or float64 tensor"):
        measures.min_eigenvalue(torch.eye(2, dtype=torch.bfloat16)[None])
    with pytest.raises(TypeError, match="K must be a torch tensor"):
        measures.min_eigenvalue([[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="new and old must have the same shape"):
        measures.relative_change(torch.ones(1, 2), torch.eye(2))
    with pytest.raises(ValueError, match="theta and theta0 must have the same shape"):
        measures.relative_distance(torch.ones(1, 2), torch.ones(1, 3))
    # valid neighbours: the values of the formulas
    a = measures.alignment(p["u"], p["W"], torch.tensor([1.0, 2.0]))
    v = p["W"][0] @ torch.tensor([1.0, 2.0], dtype=torch.float64)
    assert float(a[0]) == pytest.approx(float(p["u"][0] @ v / (p["u"][0].norm() * v.norm())))
    K = torch.tensor([[[2.0, 1.0], [1.0, 3.0]]], dtype=torch.float64)
    assert float(measures.min_eigenvalue(K)[0]) == pytest.approx((5 - math.sqrt(5)) / 2)
    rc = measures.relative_change(torch.tensor([[1.0, 2.0]]), torch.tensor([[1.5, 2.0]]))
    assert float(rc[0]) == pytest.approx(0.5 / 2.5)
    assert measures.ntk(_ns(), _ns_p(), torch.tensor([[1.0, 0.5]])).shape == (1, 1, 1)


def test_recorders_check_their_arguments_when_made():
    """A recorder with a bad argument used to fail at the first recorded time, inside
    gradient_flow, with a raw error; now the factory refuses it, naming the argument."""
    with pytest.raises(TypeError, match=r"model must be one of numerics\.models"):
        measures.record_loss("abc")
    with pytest.raises(ValueError, match="X must have 2 entries"):
        measures.record_ntk(_ns(), [[1.0, 2.0, 3.0]])
    with pytest.raises(TypeError, match="p0 must be a dict"):
        measures.record_ntk_change(_ns(), None)
    with pytest.raises(ValueError, match="block must be a key of p0"):
        measures.record_relative_distance("nope", _ns_p())
    with pytest.raises(TypeError, match="x must be an array"):
        measures.record_feature_learning(_ns(), _ns_p(), None)
    p0 = _ns_p()
    later = {**p0, "W": p0["W"] + 0.1}
    rd = measures.record_relative_distance("W", p0)(later, torch.tensor([0]))
    assert float(rd[0]) == pytest.approx(float(0.2 / p0["W"][0].norm()))
    fl = measures.record_feature_learning(_ns(), p0, [1.0, 0.5])(later, torch.tensor([0]))
    assert fl.shape == (1, 2) and bool(torch.isfinite(fl).all())


def _mp_relative_change(new, old):
    """The relative change per batch element in mpmath at 50 digits (an independent
    reference: exact squares of the float64 entries, no scaling needed)."""
    import mpmath

    with mpmath.workdps(50):
        out = []
        for n_row, o_row in zip(new.reshape(new.shape[0], -1).tolist(),
                                old.reshape(old.shape[0], -1).tolist(), strict=True):  # fmt: skip
            num = mpmath.sqrt(mpmath.fsum((mpmath.mpf(a) - mpmath.mpf(b)) ** 2
                                          for a, b in zip(n_row, o_row, strict=True)))  # fmt: skip
            den = mpmath.sqrt(mpmath.fsum(mpmath.mpf(b) ** 2 for b in o_row))
            out.append(float(num / den))
    return out


@pytest.mark.parametrize("scale", [5e-324, 1e-300, 1e-200, 1.0, 1e200, 1e300, 1.7e308])
def test_relative_change_keeps_its_digits_at_every_scale(scale):
    """Before: torch's ``vector_norm`` squares without rescaling, so entries of 1e200 gave
    inf / inf = NaN and entries of 1e-200 gave 0 / 0 = NaN (the true value about 0.45);
    ``new - old`` overflowed for entries of opposite sign near 1.7e308. Now each batch
    element is scaled by a power of two first. Tolerance: 8 ulps (the
    norms' roundings: sums of two or three squares, a square root, a division; the scaling
    by a power of two is exact, so the subnormal scales keep the same relative accuracy
    against the reference computed from the same rounded entries)."""
    new = torch.tensor([[1.0, 0.5, -1.0], [-0.25, 1.0, 0.0]], dtype=torch.float64) * scale
    old = torch.tensor([[0.5, 0.5, 1.0], [0.75, -1.0, 0.5]], dtype=torch.float64) * scale
    got = measures.relative_change(new, old).tolist()
    want = _mp_relative_change(new, old)
    assert all(math.isfinite(g) for g in got)
    assert got == pytest.approx(want, rel=8 * 2.0**-52)
    # each batch element is scaled by its own power of two: this scale next to 1e-200 and
    # 1e200 in one batch (one scale for the whole batch would underflow or overflow one)
    for other in (1e-200, 1e200):
        mixed_new = torch.cat([new[:1], new[1:] / scale * other])
        mixed_old = torch.cat([old[:1], old[1:] / scale * other])
        got = measures.relative_change(mixed_new, mixed_old).tolist()
        assert got == pytest.approx(_mp_relative_change(mixed_new, mixed_old), rel=8 * 2.0**-52)


def test_relative_change_refuses_a_zero_start_and_non_finite_entries():
    """Before: ``old`` all zero in a batch element gave inf (or NaN for 0/0) with no word;
    a NaN entry gave NaN. Now each is a ``ValueError`` naming the argument and the batch
    element; one nonzero entry of the smallest size is enough to be accepted."""
    new = torch.tensor([[1.0, 1.0], [2.0, 0.0]], dtype=torch.float64)
    with pytest.raises(ValueError, match=r"old is zero in batch element\(s\) \[1\]"):
        measures.relative_change(new, torch.tensor([[1.0, 0.0], [0.0, 0.0]]).double())
    with pytest.raises(ValueError, match=r"old is zero in batch element\(s\) \[0, 1\]"):
        measures.relative_change(new, torch.zeros(2, 2, dtype=torch.float64))
    with pytest.raises(ValueError, match="new must be finite"):
        measures.relative_change(new.clone().fill_(math.nan), new)
    with pytest.raises(ValueError, match="old must be finite"):
        measures.relative_change(new, torch.full((2, 2), math.inf, dtype=torch.float64))
    # the other side: the smallest nonzero start is a start (relative change 2**1074 * 2 - 1)
    tiny = torch.tensor([[5e-324, 0.0], [0.0, 5e-324]], dtype=torch.float64)
    got = measures.relative_change(tiny * 2, tiny)
    assert got.tolist() == [1.0, 1.0]
    # a 1-D batch: elementwise |new - old| / |old|, zero refused per element
    one_d = measures.relative_change(torch.tensor([3.0, 0.0]), torch.tensor([1.0, 2.0]))
    assert one_d.tolist() == [2.0, 1.0]
    with pytest.raises(ValueError, match=r"old is zero in batch element\(s\) \[1\]"):
        measures.relative_change(torch.tensor([3.0, 0.0]), torch.tensor([1.0, 0.0]))


def test_recorders_refuse_a_zero_or_non_finite_start_when_made():
    """Before: ``record_relative_distance`` of a block that starts at zero, and
    ``record_ntk_change`` of a network whose initial NTK is zero, returned inf / NaN at every
    recorded time. Now the factory refuses them (the ratio is undefined), naming ``p0``; a
    batch whose every element is nonzero is accepted and gives the value of eq. (10)."""
    p0 = _ns_p()
    zero_w = {**p0, "W": torch.zeros_like(p0["W"])}
    with pytest.raises(ValueError, match=r"p0\['W'\] is zero in batch element\(s\) \[0\]"):
        measures.record_relative_distance("W", zero_w)
    with pytest.raises(ValueError, match=r"p0\['W'\] must be finite"):
        measures.record_relative_distance("W", {**p0, "W": p0["W"] * math.inf})
    with pytest.raises(ValueError, match=r"p0 \(its NTK Gram matrix on X\) is zero"):
        measures.record_ntk_change(_ns(), p0, [[0.0, 0.0]])
    # one batch element of a two-element batch overflows its NTK (weights 1e200): refused,
    # though the other element's NTK is finite
    p2 = models.node_scaled_parameters([0.6, 0.4], 2, 2, seed=1, device="cpu")
    p2 = {k: torch.stack([v[0], v[1] * 1e200]) for k, v in p2.items()}
    with pytest.raises(ValueError, match="p0 gives a non-finite NTK Gram matrix"):
        measures.record_ntk_change(_ns(), p2, [[1.0, 0.5]])
    rec = measures.record_ntk_change(_ns(), p0, [[1.0, 0.5]])
    assert float(rec(p0, torch.tensor([0]))[0]) == 0.0
    big = {k: v * 1e150 for k, v in p0.items()}
    rd = measures.record_relative_distance("W", big)({**big, "W": big["W"] * 2}, torch.tensor([0]))
    assert float(rd[0]) == pytest.approx(1.0, rel=4 * 2.0**-52)  # |2W - W| / |W| = 1


# ---------------------------------------------------------------------------
# numerics.sweeps
# ---------------------------------------------------------------------------
KAPPAS, SAMPLES = [1.0, 2.0, 4.0], [[1.0, 1.1], [0.5, 0.6], [0.26, 0.3]]


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"n_boot": 0}, "n_boot must be an integer >= 2"),
        ({"n_boot": True}, "n_boot must be an int"),
        ({"n_boot": 10**30}, "n_boot must be at most 1000000"),
        ({"seed": -1}, "seed must be an integer >= 0"),
        ({"kappas": [-1.0, 2.0, 4.0]}, "need >= 2 kappas, distinct and > 0"),
        ({"kappas": [2.0, 2.0, 4.0]}, "need >= 2 kappas, distinct and > 0"),
        ({"kappas": None}, "kappas must be an array"),
        ({"samples": [[1.0]]}, "3 kappas and 1 entries of samples"),
        ({"samples": None}, "samples must be a list of sample lists"),
    ],
)
def test_fit_exponent_refuses_naming_the_argument(kw, match):
    """Before: ``n_boot`` 0, 1 or True gave a NaN bootstrap error silently and ``10**30``
    never returned; a negative kappa numpy's "SVD did not converge" (and LAPACK's complaints
    on stderr), a repeated kappa a finite but meaningless fit; ``seed = -1`` numpy's
    message; a missing sample list a message that did not name ``samples``."""
    with pytest.raises((TypeError, ValueError), match=match):
        sweeps.fit_exponent(**{"kappas": KAPPAS, "samples": SAMPLES, "n_boot": 20, **kw})


def test_fit_exponent_and_classify_valid_neighbours():
    fit = sweeps.fit_exponent(KAPPAS, SAMPLES, n_boot=2)
    assert math.isfinite(fit.exponent) and math.isfinite(fit.se_boot)
    assert fit.exponent == pytest.approx(-0.9, abs=0.1)
    with pytest.raises(TypeError, match="t_c must be an ExponentFit"):
        sweeps.classify(None, fit)
    with pytest.raises(TypeError, match="ntk_change must be an ExponentFit"):
        sweeps.classify(fit, {"exponent": 0.0})
    assert sweeps.classify(fit, fit) in ("unstable", "undetermined")


def test_table_1_cases_point_and_local_cluster_name_their_argument():
    """``table_1_cases(0)`` named ``d_scale``, ``xu_ziyin_point(None)`` was "'NoneType'
    object is not iterable", and ``local_cluster(10**30)`` started workers until stopped."""
    with pytest.raises(ValueError, match="lazy_width must be an integer >= 1"):
        sweeps.table_1_cases(0)
    assert sweeps.table_1_cases(3)["lazy, c_eta*"].d_scale == 3
    with pytest.raises(TypeError, match="point must be a dict"):
        sweeps.xu_ziyin_point(None)
    with pytest.raises(ValueError, match="n_workers must be at most 1024"):
        sweeps.local_cluster(10**30)
    with sweeps.local_cluster(1, processes=False) as cluster:
        assert len(cluster.workers) == 1


CASE = sweeps.PhaseCase("flat", Scaling(0, 0, 0, 0, 0, 0), "", 2)
SMALL = {"seeds": 2, "n_boot": 10, "n_times": 5, "d0": 1, "x": [1.0]}


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"cases": None}, "cases must be a list of PhaseCase"),
        ({"kappas": [1.0, -1e300]}, r"kappas\[1\] must be a finite number >= 1"),
        ({"kappas": ["abc", 2.0]}, r"kappas\[0\] must be a real number"),
        ({"seeds": True}, r"point\['seeds'\] must be an integer >= 1"),
        ({"seed": -1}, r"point\['seed'\]: seed must be an integer >= 0"),
        ({"n_boot": 0}, "n_boot must be an integer >= 2"),
    ],
)
def test_measure_phases_refuses_before_anything_runs(kw, match, monkeypatch):
    """Bad ``seeds`` / ``seed`` / ``kappas`` were a ``SweepError`` (a ``RuntimeError``) from
    inside the sweep, and ``n_boot = 0`` NaN fits after the whole sweep had run; now each
    is refused before any point is computed (``run_sweep`` is never reached)."""

    def never(*args, **kwargs):
        raise AssertionError("the sweep ran")

    monkeypatch.setattr(sweeps, "run_sweep", never)
    with pytest.raises((TypeError, ValueError), match=match):
        sweeps.measure_phases(**{"cases": [CASE], "kappas": [1.0, 2.0], **SMALL, **kw})


def test_measure_phases_valid_neighbour_numpy_kappas():
    """numpy kappas were refused by the sweep's JSON check (a ``TypeError`` naming
    ``points``); they are plain numbers now, and the measurement runs."""
    (m,) = sweeps.measure_phases([CASE], np.array([1.0, 2.0]), **SMALL)
    assert m.kappas == (1.0, 2.0) and m.widths == (2, 2)
    assert math.isfinite(m.t_c.exponent) and math.isfinite(m.ntk_change.exponent)


def test_outsider_boundaries_of_the_numerics_checks():
    """Three outsider mutants that survived (a helper that had not read these tests):
    ``rtol = 1`` (a 100% tolerance) is refused like any rtol outside (0, 1), and rtol just
    below 1 runs; a blow-up's FlowError is a ValueError too (callers catch bad input with
    ``except ValueError``); alignment refuses a u whose width differs from W's rows (a
    (B, 1) u broadcast against W (B, 3, 2) gave "cosines" of 1.29 and 1.69)."""
    with pytest.raises(ValueError, match=r"rtol must be in \(0, 1\)"):
        _so(rtol=1.0)
    out, _ = _so(rtol=0.5)
    assert np.isfinite(out).all()
    assert issubclass(scipy_ode.FlowError, ValueError)
    assert issubclass(scipy_ode.FlowError, ArithmeticError)
    u = torch.tensor([[0.3], [0.1]], dtype=torch.float64)
    W = torch.ones((2, 3, 2), dtype=torch.float64)
    with pytest.raises(ValueError, match=r"u must have shape \(B, d\) = \(2, 3\)"):
        measures.alignment(u, W, [1.0, 2.0])
    good = measures.alignment(torch.ones((2, 3), dtype=torch.float64), W, [1.0, 2.0])
    assert torch.all(torch.abs(good) <= 1 + 1e-12)  # cosines


def test_sweep_limits_from_both_sides(monkeypatch):
    """The documented limits are inclusive (outsider mutants: ``>`` written ``>=``, and a
    kappa of 0 let through to log(0)): n_boot = MAX_BOOT runs and MAX_BOOT + 1 is refused
    (the limit lowered to 5 for speed: the check reads the module's constant); a kappa of
    exactly 0 is refused like a negative one; n_workers = MAX_LOCAL_WORKERS is accepted (a
    stand-in for dask records the cluster it would start) and one more is refused."""
    monkeypatch.setattr(sweeps, "MAX_BOOT", 5)
    fit = sweeps.fit_exponent(KAPPAS, SAMPLES, n_boot=5)
    assert math.isfinite(fit.se_boot)
    with pytest.raises(ValueError, match="n_boot must be at most 5, got 6"):
        sweeps.fit_exponent(KAPPAS, SAMPLES, n_boot=6)
    with pytest.raises(ValueError, match="need >= 2 kappas, distinct and > 0"):
        sweeps.fit_exponent([0.0, 2.0, 4.0], SAMPLES, n_boot=5)
    started = []

    class FakeCluster:
        def __init__(self, n_workers=None, **kw):
            started.append(n_workers)

    monkeypatch.setattr(
        sweeps, "_distributed", lambda: type("D", (), {"LocalCluster": FakeCluster})
    )
    monkeypatch.setattr(sweeps, "MAX_LOCAL_WORKERS", 3)
    sweeps.local_cluster(3)
    assert started == [3]
    with pytest.raises(ValueError, match="n_workers must be at most 3"):
        sweeps.local_cluster(4)


def test_alignment_is_nan_at_a_zero_vector_and_differentiable_beside_it():
    """A batch of two: row 1 has u = 0, so its alignment is nan (no direction); the gradient
    of row 0's alignment is finite everywhere, 0 for row 1's inputs (the division is
    guarded where it is masked: a 0/0 there, masked in the value, made row 1's gradient
    nan through the mask, a seed-20 survivor)."""
    u = torch.tensor([[1.0, -2.0], [0.0, 0.0]], dtype=torch.float64, requires_grad=True)
    W = torch.tensor([[[0.5, 1.0], [2.0, -1.0]], [[1.0, 0.0], [0.0, 1.0]]],
                     dtype=torch.float64, requires_grad=True)  # fmt: skip
    a = measures.alignment(u, W, [1.0, 2.0])
    assert math.isfinite(float(a[0].detach())) and math.isnan(float(a[1].detach()))
    a[0].backward()
    for grad in (u.grad, W.grad):
        assert torch.isfinite(grad).all(), grad
    assert not u.grad[1].any() and not W.grad[1].any()
