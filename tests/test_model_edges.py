"""Edges of the model modules that their own tests do not read: a refusal's message, an
erratum's printed residual, the immutability and repr of records, float64 accuracy where two
inputs are far apart in magnitude, and the CPU seconds a verify worker reports.

Mutation-testing triage (seed-2 run, helper C).
"""

from __future__ import annotations

import dataclasses
import math
import re
import signal
import sys
import time
import types
from fractions import Fraction
from multiprocessing import Pipe

import mpmath
import numpy as np
import pytest
import sympy as sp

from solvable._core.claims import Theorem, Verdict
from solvable.models import kernels, linearisation, phases
from solvable.models import piecewise_linear as pl
from solvable.verification import theorems, verify_runner


# ---------------------------------------------------------------------------
# kernels.gram: Y with another number of columns than X
# ---------------------------------------------------------------------------
def test_gram_refuses_y_of_another_dimension_naming_both_column_counts():
    """``gram`` takes X (n, d) and Y (m, d): a Y with another d is a ``ValueError`` that
    states both column counts (the initialisation records no d here, so the check on Y
    alone cannot catch it).  Mutant key: solvable/models/kernels.py:839:core/NumberReplacer:270."""
    init = kernels.exercise_initialisation()
    assert init.d is None
    with pytest.raises(ValueError, match=r"^Y must have 3 columns \(as X\), got 2$"):
        kernels.gram("rf", init, np.ones((2, 3)), np.ones((4, 2)))


# ---------------------------------------------------------------------------
# linearisation: the erratum of (2.13) reports the printed block H_12
# ---------------------------------------------------------------------------
def test_eq213_erratum_printed_residual_is_the_printed_off_diagonal_block_squared():
    """Erratum (2.13) (delta_ij printed for delta_jk): for p = 2, d = 1, sigma = tanh the
    true H_12 is 0, so the printed version's residual (H_12 - c_1)^2 is c_1^2 with c_1 =
    a_1 tanh''(w_1 x) x^2/sqrt(2), evaluated (``Erratum.residuals``) at the rational point
    a0 = 2/3, w0_0 = 3/4, x0 = 4/5 (the free symbols in name order set to (k+2)/(k+3)).
    Here tanh'' = -2 tanh sech^2 is evaluated by mpmath.  Mutant key:
    solvable/models/linearisation.py:955:core/ReplaceBinaryOperator_Div_FloorDiv:37."""
    (erratum,) = [e for e in linearisation.errata() if e.equation == "(2.13)"]
    printed, corrected = erratum.residuals()
    assert corrected == 0
    with mpmath.workdps(40):
        a, w, x = mpmath.mpf(2) / 3, mpmath.mpf(3) / 4, mpmath.mpf(4) / 5
        t = mpmath.tanh(w * x)
        c1 = a * (-2 * t * (1 - t**2)) * x**2 / mpmath.sqrt(2)
        got = mpmath.mpf(str(sp.N(printed, 40)))
        # both sides to 40 digits: 1e-35 relative leaves 5 digits for the roundings
        assert abs(got - c1**2) <= mpmath.mpf("1e-35") * c1**2, (got, c1**2)


# ---------------------------------------------------------------------------
# phases.Scaling: validated once, immutable, hashable
# ---------------------------------------------------------------------------
def test_scaling_is_immutable_so_its_checked_exponents_stay_valid():
    """``Scaling`` checks ``c_d >= 0`` (the width cannot shrink) when it is made; it is a
    frozen record, so no assignment can break that afterwards, and equal scalings are equal
    hashable values (usable as dict keys).  Mutant key:
    solvable/models/phases.py:125:core/ReplaceTrueWithFalse:1."""
    s = phases.Scaling(1, -1, 0, 0, 0, 0)
    with pytest.raises(ValueError, match="c_d must be >= 0"):
        phases.Scaling(-1, -1, 0, 0, 0, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.c_d = -1  # type: ignore[misc]
    assert s.c_d == 1
    twin = phases.Scaling(1, -1, 0, 0, 0, 0)
    assert hash(s) == hash(twin)
    assert {s: "kernel"}[twin] == "kernel"


# ---------------------------------------------------------------------------
# piecewise_linear.Symbols: the repr names the symbols, not the expressions
# ---------------------------------------------------------------------------
def test_piecewise_linear_symbols_repr_shows_the_symbols_but_not_the_expressions():
    """The repr of ``symbolic()`` shows its four symbols and leaves the expression dict out
    (as the package's other symbolic records, e.g. ``ConservationLaw`` leaves out its
    flow): the expressions are read from ``exprs``, not from a printout of all of them.
    Mutant key: solvable/models/piecewise_linear.py:141:core/ReplaceFalseWithTrue:0."""
    S = pl.symbolic()
    text = repr(S)
    for name in ("delta", "eta_a", "eta_w", "b"):
        assert f"{name}={getattr(S, name)!r}" in text, text
    assert "exprs" not in text, text
    assert str(S.exprs["sigma"]) not in text, text


# ---------------------------------------------------------------------------
# piecewise_linear.neuron_start: float64 where |delta| and |beta| are far apart
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("beta_norm", "delta"),
    [
        (1.3 * 2.0**-860, -(2.0**200)),  # |a| = 1.3 2^-960: a normal double
        (3e-290, -1e30),  # |a| ~ 3e-305: a normal double
    ],
)
def test_neuron_start_float64_is_accurate_for_far_apart_inputs(beta_norm, delta):
    """``neuron_start`` (a_k = sqrt(lambda_1/eta_w), w_k = beta_k/a_k, lambda_1 = (sigma +
    delta)/2, sigma = sqrt(delta^2 + 4 eta_a eta_w |beta|^2)) at inputs of very different
    magnitudes (|delta| ~ 1e30-1e60, |beta| ~ 1e-290-1e-259, both far inside float64's
    range) whose results are normal doubles: float64 must match the definition evaluated
    by mpmath at 800 digits (enough for delta^2 + 4 |beta|^2 to keep the relative term of
    ~1e-638 that sigma + delta cancels down to).  Mutant key:
    solvable/models/piecewise_linear.py:217:core/ReplaceBinaryOperator_Pow_Div:4."""
    a, W = pl.neuron_start([[beta_norm]], [delta])
    with mpmath.workdps(800):
        b, dl = mpmath.mpf(beta_norm), mpmath.mpf(delta)
        sigma = mpmath.sqrt(dl**2 + 4 * b**2)
        a_ref = mpmath.sqrt((sigma + dl) / 2)
        w_ref = b / a_ref
    assert float(a_ref) > sys.float_info.min  # the expected |a| is a normal double
    # a few float64 roundings (frexp scaling is exact): 1e-14 relative is ~45 ulp of slack
    assert abs(a[0] - float(a_ref)) <= 1e-14 * float(a_ref), (a[0], float(a_ref))
    assert abs(W[0, 0] - float(w_ref)) <= 1e-14 * float(w_ref), (W[0, 0], float(w_ref))


# ---------------------------------------------------------------------------
# verify_runner: the CPU seconds reported for a claim are the claim's
# ---------------------------------------------------------------------------
class _FakeClock:
    """A process clock that moves only when a check says it spent CPU."""

    def __init__(self) -> None:
        self.now = 0.0

    def process_time(self) -> float:
        return self.now


_CLOCK = _FakeClock()
_SPENT = 0.5  # CPU seconds the demo check "spends" (exact in binary)


def _spend_cpu() -> Verdict:
    """Module-level (a worker receives the claim pickled by reference)."""
    _CLOCK.now += _SPENT
    return Verdict("confirmed", "spent CPU on the fake clock", max_error=0.0)


def _fake_time(monkeypatch) -> None:
    _CLOCK.now = 2.0  # a process that has already run 2 CPU seconds (imports)
    fake = types.SimpleNamespace(process_time=_CLOCK.process_time,
                                 perf_counter=time.perf_counter)  # fmt: skip
    monkeypatch.setattr(verify_runner, "time", fake)


def _demo_claim() -> Theorem:
    return Theorem("demo.cpu_seconds", "000_x.txt (1)", "demo", "numeric", _spend_cpu)


def test_worker_reports_the_cpu_seconds_its_claim_took(monkeypatch):
    """A verify worker sends ``("done", index, verdict, cpu_seconds)`` with the CPU seconds
    of the check (``Outcome.cpu_seconds``: "the CPU seconds of the check in the process
    that ran it"): the process clock's advance over the check, here exactly the 0.5 s the
    check moves a fake clock by.  The worker loop runs in this process on a pipe (no
    spawn); its SIGINT handler and torch thread count are restored after.  Mutant key:
    solvable/verification/verify_runner.py:441:core/ReplaceBinaryOperator_Sub_Pow:2."""
    _fake_time(monkeypatch)
    parent, child = Pipe()
    parent.send([(0, _demo_claim())])
    parent.send(None)  # then stop
    old_handler = signal.getsignal(signal.SIGINT)
    torch = sys.modules.get("torch")
    old_threads = torch.get_num_threads() if torch is not None else None
    try:
        verify_runner._worker_main(child, {})
    finally:
        signal.signal(signal.SIGINT, old_handler)
        if torch is not None:
            torch.set_num_threads(old_threads)
    messages = []
    while parent.poll():
        messages.append(parent.recv())
    assert [m[0] for m in messages] == ["start", "done", "idle"], messages
    _, index, verdict, cpu = messages[1]
    assert index == 0 and verdict.status == "confirmed", verdict
    assert cpu == _SPENT  # 2.5 - 2.0: exact in binary


def test_local_run_reports_the_cpu_seconds_its_claim_took(monkeypatch):
    """The same for a claim checked in this process (``jobs=1``)."""
    _fake_time(monkeypatch)
    (outcome,) = verify_runner.run([_demo_claim()], jobs=1)
    assert outcome.verdict.status == "confirmed", outcome.verdict
    assert outcome.cpu_seconds == _SPENT


# ---------------------------------------------------------------------------
# linearisation.tanh_second_derivative_bound: the verdict states the supremum it proved
# ---------------------------------------------------------------------------
def test_tanh_bound_verdict_states_the_supremum_and_where_it_is_attained():
    """Mutant solvable/models/linearisation.py:545:core/ReplaceComparisonOperator_NotEq_Is:2.

    tanh'' = -2 t (1 - t^2) with t = tanh z; d/dt of 2 t (1 - t^2) = 2 - 6 t^2 vanishes at
    t^2 = 1/3, where |tanh''| = 2 (1/sqrt(3)) (2/3) = 4 sqrt(3)/9.  The proved claim must
    say so (not only that its residuals vanish): the value, its decimal and the point."""
    (thm,) = theorems.select("linearisation.tanh_second_derivative_bound")
    verdict = thm.verify()
    assert verdict.status == "proved", verdict.detail
    sup = f"{4 * math.sqrt(3) / 9:.6f}"  # the detail prints 6 decimals
    assert f"sup|tanh''| = 4 sqrt(3)/9 ~ {sup}" in verdict.detail, verdict.detail
    assert "tanh^2 z = 1/3" in verdict.detail, verdict.detail
    assert verdict.residuals and all(r == 0 for r in verdict.residuals)


# ---------------------------------------------------------------------------
# node_scaling.zipf_sum_of_squares_decreasing: the range it reports, to 5 digits
# ---------------------------------------------------------------------------
def test_zipf_decreasing_reports_the_range_of_its_grid_to_five_digits():
    """Mutant solvable/models/node_scaling.py:1201:core/NumberReplacer:421.

    The claim reports ``values in (min, max]`` of zeta(2/alpha)/zeta(1/alpha)^2 on alpha =
    0.05, ..., 0.95, to 5 significant digits.  The function decreases in alpha, so the ends
    are alpha = 0.95 (s = 1/alpha = 20/19) and alpha = 0.05 (s = 20), computed here with
    mpmath.zeta directly (not the package's generated closed form)."""
    (thm,) = theorems.select("node_scaling.zipf_sum_of_squares_decreasing")
    verdict = thm.verify()
    assert verdict.status == "confirmed", verdict.detail
    m = re.search(r"values in \(([-+.e0-9]+), ([-+.e0-9]+)\]", verdict.detail)
    assert m, verdict.detail
    with mpmath.workdps(40):
        ends = [mpmath.zeta(2 * s) / mpmath.zeta(s) ** 2 for s in (mpmath.mpf(20) / 19, 20)]
        for text, exact in zip(m.groups(), ends, strict=True):
            # 5 significant digits: within half a unit of the 5th digit of the exact value
            half_unit = mpmath.mpf(10) ** (mpmath.floor(mpmath.log10(exact)) - 4) / 2
            assert abs(mpmath.mpf(text) - exact) <= half_unit, (text, exact)


# ---------------------------------------------------------------------------
# linearisation.State: a measured state is a record its outputs stay consistent with
# ---------------------------------------------------------------------------
def test_linearisation_state_is_a_frozen_record_of_outputs_measured_from_its_weights():
    """Mutant solvable/models/linearisation.py:349:core/ReplaceTrueWithFalse:19.

    ``State`` holds ``W``, ``a`` and the outputs ``f`` and risk ``R`` measured from them
    (eqs. (2.19), (2.22)); as every model's ``State`` it is a frozen record, so no field
    can be reassigned (``FrozenInstanceError``) to leave ``f`` and ``R`` stale.  The values
    are checked against exact rational arithmetic (linear activation, p = 4: scale 1/2)."""
    X = ((1, 2), (3, -1), (0, 1))
    y = (1, 0, -2)
    W = [[1, 0], [0, 1], [1, -1], [2, 1]]
    a = [1, -1, 2, 1]
    setup = linearisation.Setup(X=X, y=y, activation="linear")
    state = linearisation.SYSTEM.state(setup, 0.5, {"W": W, "a": a}, None)
    scale = Fraction(1, 2)  # 1/sqrt(p), p = 4
    f = [scale * sum(aj * sum(wk * xk for wk, xk in zip(wj, x, strict=True))
                     for aj, wj in zip(a, W, strict=True)) for x in X]  # fmt: skip
    risk = sum((yi - fi) ** 2 for yi, fi in zip(y, f, strict=True)) / (2 * len(y))
    # small integers and halves: every float64 operation here is exact
    assert state.f.tolist() == [float(v) for v in f]
    assert state.risk == float(risk)
    assert state.t == 0.5
    for name, value in (("W", np.zeros((4, 2))), ("a", np.zeros(4)), ("f", np.zeros(3)),
                        ("risk", 0.0), ("t", 1.0)):  # fmt: skip
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(state, name, value)
    assert state.f.tolist() == [float(v) for v in f] and state.risk == float(risk)
    assert state.W.tolist() == W and state.a.tolist() == a
