"""The compiled Taylor engine of ``numerics.mp`` (issue 17 target 3): its Taylor
coefficients against the reference engine's, on random polynomial fields and on the seed-001
flow.  Kept apart from tests/test_simulate.py so that a broken engine fails here by an
assertion in seconds (the integrations there crawl with a wrong series)."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numerics import mp
from solvable.models import xu_ziyin as xz


def _coefficients(prog, params, psyms, y, order_, dps):
    """Both engines' Taylor coefficients ``Y[i][k]`` at ``y``, at ``dps`` digits, and the
    compiled engine's scale ``H`` (a horizon of 1: ``H <= 1``)."""
    with mpmath.workdps(dps):
        cvals = mp._const_values(prog, [mpmath.mpf(v) for v in params], psyms)
        y = [mpmath.mpf(v) for v in y]
        ref = mp._taylor(prog, mp._plan(prog, cvals), cvals, y, order_)
        vec = mp._CompiledEngine(prog, cvals, y, order_, [(0, prog.n_state)])
        vec.expand(1)
        got = vec.coefficients()
    return got, ref, vec.cap


def _scaled_error(got, ref, H):
    """``max_(i,k) |got_ik - ref_ik| H^k / max_(i,k) |ref_ik| H^k``: the two series' distance
    normwise over the rows and the orders of the scaled series ``sum_k Y_k (s H)^k``, ``s <=
    1`` (the compiled engine's steps are at most ``H``)."""
    err = max(abs(g - r) * H**k for gi, ri in zip(got, ref, strict=True)
              for k, (g, r) in enumerate(zip(gi, ri, strict=True)))  # fmt: skip
    size = max(abs(r) * H**k for ri in ref for k, r in enumerate(ri))
    return err / size if size else err


_TERMS = st.lists(
    st.tuples(
        st.integers(-3, 3),  # coefficient (0: a term that cancels)
        st.integers(0, 2), st.integers(0, 2), st.integers(0, 1),  # powers of x, z and k
    ),
    min_size=1, max_size=4,
)  # fmt: skip


@given(
    rhs=st.lists(_TERMS, min_size=2, max_size=2),
    y0=st.lists(st.sampled_from(["0", "1", "-0.5", "3.25", "1e-30", "-7e12"]), min_size=2,
                max_size=2),
    kval=st.sampled_from(["0", "2", "-0.1", "1e8"]),
)  # fmt: skip
def test_vector_engine_coefficients_match_the_reference(rhs, y0, kval):
    """Random polynomial fields (degree <= 4 in the state x, z; a parameter k, constants,
    zero coefficients, repeated and cancelling terms, states of very different sizes): the
    compiled engine's Taylor coefficients are the reference engine's to the working
    precision, normwise over the scaled series (:func:`_scaled_error`).

    Tolerance: 40 digits (``10^-(dps - 10)``, dps = 50).  The reference rounds each
    coefficient relative to itself, the compiled engine to ``2^-prec`` (prec = 177 bits)
    of its node's bound, which is the size of the scaled series or above it (bounds of sums
    and products of the state's block norm); they differ by rounding, amplified by the
    cancellations inside a Cauchy product or a sum and by the bounds' excess over the
    actual sizes (a degree-4 term of the block norm 7e12 beside a state of 1e-30)."""
    x, z, k = sp.symbols("x z k")
    exprs = [sum((c * x**a * z**b * k**e for c, a, b, e in terms), sp.Integer(0))
             for terms in rhs]  # fmt: skip
    prog = mp.compile_polynomial([x, z], [k], exprs)
    order_ = 8
    got, ref, H = _coefficients(prog, [kval], [k], y0, order_, 50)
    with mpmath.workdps(50):
        assert _scaled_error(got, ref, H) <= mpmath.mpf(10) ** -40


def test_vector_engine_on_the_seed_001_flow():
    """The compiled seed-001 flow (d = 4, d0 = 3): the compiled engine's coefficients at a
    random state are the reference's to the working precision (50 digits; normwise over
    the scaled series, as above, with the same 10 digits of room)."""
    flow = xz.flow(4, 3)
    prog = mp.compile_polynomial(flow.state, flow.params, flow.rhs)
    rng = np.random.default_rng(1)
    y = [float(v) for v in rng.normal(size=len(flow.state))]
    got, ref, H = _coefficients(prog, ["1", "0.5", "0.7", "1.5", "1", "-2", "0.3"],
                                flow.params, y, mp.order(50), 50)  # fmt: skip
    with mpmath.workdps(50):
        assert _scaled_error(got, ref, H) <= mpmath.mpf(10) ** -40


def test_a_wrong_cauchy_product_is_caught(monkeypatch):
    """The comparison above has teeth: the compiled engine with its Cauchy product summed
    ``a_j b_j`` (not reversed, the mutant ``taylor_engine.compiled_cauchy_not_reversed``)
    misses the reference's coefficients of x' = x z, z' = -x z by far more than the
    tolerance."""
    x, z = sp.symbols("x z")
    prog = mp.compile_polynomial([x, z], [], [x * z, -x * z])
    compiled = mp._compiled.__wrapped__
    monkeypatch.setattr(mp, "_compiled", lambda source: compiled(source.replace("reversed", "")))
    got, ref, H = _coefficients(prog, [], [], ["1", "0.5"], 6, 50)
    with mpmath.workdps(50):
        assert _scaled_error(got, ref, H) > 1e-3
