"""u_t and v_t of seed 001 (eq. (13) with (8), (9)) as coefficients of time times the units'
initial values (``xu_ziyin.evaluators.unit_forms``), the form in which the float64 sample
evaluates them: the decomposition proved against the sympy source, the values of
``_unit_value`` against the source evaluated by sympy at two precisions, and the bound of
their magnitudes that spares the fast sample a look at each entry.  The fast and reference
engines share this arithmetic, so their bit-for-bit comparison
(``tests/test_closed_form_scale.py``) cannot see an error in it: these can."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable.models import xu_ziyin as xz
from solvable.models.xu_ziyin import evaluators as xz_evaluators
from solvable.models.xu_ziyin import float64_sample as xz_f64
from solvable.models.xu_ziyin import units as xz_units


# ---------------------------------------------------------------------------
# u_t, v_t as functions of time times the units' initial values (unit_forms)
# ---------------------------------------------------------------------------
def test_unit_forms_are_the_pieces_of_u_t_and_v_t():
    """Each piece of ``u_t``, ``v_t`` (with ``p_t``, ``q_t`` in their general pieces) minus
    its coefficients times the units' initial values simplifies to exactly 0, and ``p_t^2``,
    ``q_t^2`` are the squares' coefficients times ``p0^2``, ``q0^2``: the fast sample's
    arithmetic is the sympy source's (a proof, not a sample of points)."""
    S = xz.symbolic()
    st_ = S.stable
    forms = xz_evaluators.unit_forms()
    c = forms.coefficients
    general = {st_["p_t"]: S.p0 * sp.exp(S.ell / 2), st_["q_t"]: S.q0 * sp.exp(-S.ell / 2)}
    (u1, cond), (u2, _) = st_["u_t"].args
    (v1, _), (v2, _) = st_["v_t"].args
    assert cond == (sp.Abs(S.ell) <= 1) and forms.condition == cond
    residuals = [
        u1 - (c[0] * S.u0 + c[1] * S.v0),
        v1 - (c[2] * S.u0 + c[3] * S.v0),
        u2.xreplace(general) - (c[4] * S.p0 + c[5] * S.q0),
        v2.xreplace(general) - (c[6] * S.p0 + c[7] * S.q0),
        general[st_["p_t"]] ** 2 - forms.squares[0] * S.p0**2,
        general[st_["q_t"]] ** 2 - forms.squares[1] * S.q0**2,
    ]
    assert [sp.simplify(r) for r in residuals] == [0] * 6
    assert all(not e.has(S.u0, S.v0, S.p0, S.q0, S.t) for e in (*c, *forms.squares))


_ZERO_OR = st.just(0.0) | st.floats(-3, 3)


@settings(max_examples=60, deadline=None, report_multiple_bugs=False)
@given(
    ell=st.floats(-30, 30) | st.sampled_from([math.inf, -math.inf]),
    u0=_ZERO_OR,
    v0=_ZERO_OR,
    p0=_ZERO_OR,
    q0=_ZERO_OR,
    rates=st.tuples(st.floats(0.1, 4), st.floats(0.1, 4)),
    rho=st.floats(0.1, 4),
)
def test_unit_values_equal_the_piecewise_source_at_two_precisions(ell, u0, v0, p0, q0, rates,
                                                                   rho):  # fmt: skip
    """``_unit_value`` for u and v (float64, and mpmath at 40 digits) against ``u_t``,
    ``v_t`` of the sympy source evaluated by sympy at 40 digits, at one unit, over both
    pieces (|ell| <= 1 and > 1, and ell = +-inf, where a term of p0 = 0 or q0 = 0 is 0, not
    0 x inf) and exact zeros (the pieces read u0, v0 and p0, q0 as independent symbols):
    float64 to 8 ulps of the magnitudes of the terms (a few roundings each), mpmath to
    1e-35 of them; an infinite ell exactly (each value is 0 or infinite)."""
    S = xz.symbolic()
    eta_u, eta_w = rates
    at = {S.u0: u0, S.v0: v0, S.p0: p0, S.q0: q0, S.eta_u: eta_u, S.eta_w: eta_w, S.rho: rho}
    exact_at = {k: sp.Float(v, 60) for k, v in at.items()}
    exact_at[S.ell] = sp.Float(ell, 60) if math.isfinite(ell) else sp.oo * int(np.sign(ell))
    exact = [sp.N(S.stable[n].xreplace(exact_at), 40) for n in ("u_t", "v_t")]
    scale = (abs(u0) + abs(v0) + abs(p0) + abs(q0)) * math.exp(abs(ell) / 2) * max(
        1, rho, 1 / rho) * max(eta_u, eta_w, 1 / eta_u, 1 / eta_w)  # fmt: skip
    for dps, tol in ((None, 8 * 2.0**-52), (40, 1e-35)):
        ev = xz_evaluators._evaluators("numpy" if dps is None else "mpmath")
        with mpmath.workdps(dps or 15), np.errstate(all="ignore"):
            conv = float if dps is None else mpmath.mpf
            ells = np.array([conv(ell)], dtype=float if dps is None else object)
            first = np.asarray(ev.unit_piece(ells), dtype=bool)
            coef = [
                np.asarray(cc)
                for cc in ev.unit_coefficients(ells, conv(eta_u), conv(eta_w), conv(rho))
            ]
            units = [np.array([[conv(v)]], dtype=ells.dtype) for v in (u0, v0, p0, q0)]
            u, v = (xz_units._unit_value(first, [coef[i] for i in terms], tuple(units))
                    for terms in (xz_units._U_TERMS, xz_units._V_TERMS))  # fmt: skip
        with mpmath.workdps(50):
            for got, want in zip((u[0, 0], v[0, 0]), exact, strict=True):
                if not math.isfinite(ell):
                    assert float(got) == float(want), (dps, got, want)
                    continue
                err = abs(mpmath.mpf(got) - mpmath.mpf(str(want)))
                assert err <= tol * scale + mpmath.mpf(10) ** -300, (dps, got, want)


_MAGNITUDES = st.floats(-300, 300).map(lambda e: 10.0**e) | st.just(0.0)


@settings(max_examples=80, deadline=None, report_multiple_bugs=False)
@given(
    coefficients=st.lists(st.tuples(*[_MAGNITUDES] * 4, st.booleans()), min_size=1, max_size=6),
    units=st.lists(st.tuples(*[_MAGNITUDES] * 4), min_size=1, max_size=5),
    signs=st.integers(0, 2**30),
)
def test_magnitude_bounds_every_entry_the_fast_path_makes(coefficients, units, signs):
    """``_magnitude`` bounds every finite entry ``_two_terms`` makes from the same
    coefficients and units, in either piece, whatever the signs (the fast sample skips its
    check of each entry where this bound is below 1e308): a bound that forgets a term, or
    that is smaller than an entry, would let an overflow through unseen."""
    rng = np.random.default_rng(signs)
    c = np.array([row[:4] for row in coefficients]) * rng.choice(
        [-1.0, 1.0], (len(coefficients), 4)
    )
    first = np.array([row[4] for row in coefficients])
    x = np.array(units).T * rng.choice([-1.0, 1.0], (4, len(units)))  # (4, k)
    mags = [float(np.max(np.abs(r))) for r in x]
    with np.errstate(all="ignore"):  # as inside the fast sample
        bound = xz_f64._magnitude(first, list(c.T), mags)
        for t in range(len(first)):
            ca, xa, _, cb, xb, _ = xz_f64._piece_terms(
                [c[t : t + 1, j : j + 1] for j in range(4)], bool(first[t]),
                tuple(r[None, :] for r in x), False, False)  # fmt: skip
            got = xz_f64._two_terms(
                ca, xa, False, cb, xb, False, np.empty((1, len(units))), np.empty((1, len(units)))
            )
            finite = got[np.isfinite(got)]
            assert not finite.size or np.max(np.abs(finite)) <= bound, (t, got, bound)
            if bound <= 1e308:
                assert np.isfinite(got).all(), (t, got, bound)


@settings(max_examples=40, deadline=None, report_multiple_bugs=False)
@given(
    ell=st.floats(-30, 30),
    p0=st.lists(_ZERO_OR, min_size=1, max_size=4),
    q0=st.lists(_ZERO_OR, min_size=1, max_size=4),
)
def test_unit_sums_are_the_sums_of_the_sources_squares(ell, p0, q0):
    """``_unit_sums`` (the squares' coefficients times the initial sums, float64) against
    ``sum_i p_t^2`` and ``sum_i q_t^2`` of the sympy source evaluated at 40 digits, exact
    zeros included: 8 ulps of the sums (a few roundings each; an error in either
    coefficient, e.g. exp(ell) for q, is off by orders)."""
    S = xz.symbolic()
    ev = xz_evaluators._evaluators("numpy")
    ells = np.array([ell])
    p, q = np.array(p0), np.array(q0)
    with np.errstate(all="ignore"):
        got = xz_units._unit_sums(ev.unit_squares(ells), xz_units._initial_sums(p, q), 1)
    for name, sym, values, value in (("p_t", S.p0, p0, got[0]), ("q_t", S.q0, q0, got[1])):
        src = S.stable[name]
        exact = sum(sp.N(src.xreplace({sym: sp.Float(v, 60), S.ell: sp.Float(ell, 60)}), 40) ** 2
                    for v in values)  # fmt: skip
        with mpmath.workdps(50):
            err = abs(mpmath.mpf(float(np.asarray(value).ravel()[0])) - mpmath.mpf(str(exact)))
            assert err <= 8 * 2.0**-52 * abs(mpmath.mpf(str(exact))) + mpmath.mpf(10) ** -300
