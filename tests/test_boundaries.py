"""Every threshold and case condition checked on BOTH sides and AT the boundary.

Each condition of the package's case splits is tested exactly on its boundary, one unit
inside and one unit outside (float64: ``np.nextafter``; exact rationals: ``1/10^40``), with the
expected answer derived from the paper's statement (quoted in each docstring), never from the
code's output:

* seed 003 (Kunin et al., Part I, regimes 1-3): :func:`solvable.models.kunin.regime`'s four
  thresholds ``delta >= ratio scale`` (lazy), ``delta <= -ratio scale`` (delayed rich),
  ``|delta| < scale/ratio`` (rich), ``ratio >= 1``; hypothesis over the rates, ``|beta|`` and
  ``ratio`` and monotonicity in ``delta``;
* seed 001 (Xu & Ziyin, Section 3): eq. (28) (``max(a, b) = 0``), eq. (30) (``b > a``
  strictly) and the three cases of eq. (29) in :func:`solvable.models.phases.xu_ziyin_phase`;
  Section 3.2's ``c_w > 0`` / ``c_w <= 0`` split in
  :func:`solvable.models.phases.initialisation_phase`;
* seed 000 (Section 7.2 / Proposition 7.6): ``r = floor(rho m)`` at ``rho m`` an integer, the
  open interval ``0 < rho < 1``, the mass bound ``Lambda_T <= S`` and footnote 3's step bounds;
* the cosine clamp of the kernels' float64 and torch evaluators (``|rho| <= 1``, 8 ulps slack)
  and the time guards of :mod:`numerics.torch_flow` (a subnormal span, repeated times).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import numerics
from solvable.models import kernels, kunin, phases
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns

UP, DOWN = math.inf, -math.inf


def _ulp(x: float, direction: float) -> float:
    return float(np.nextafter(x, direction))


# ---------------------------------------------------------------------------
# seed 003: kunin.regime
# ---------------------------------------------------------------------------
def _expected_regime(delta: Fraction, scale: Fraction, ratio: Fraction) -> str:
    """Seed 003 Part I regimes 1-3 as the module states them (exact rationals): lazy if
    delta >= ratio scale, delayed rich if delta <= -ratio scale, rich if |delta| < scale /
    ratio, else intermediate (the lazy test first: at scale = 0, delta = 0 is lazy)."""
    if delta >= ratio * scale:
        return "lazy"
    if delta <= -ratio * scale:
        return "delayed rich"
    if abs(delta) < scale / ratio:
        return "rich"
    return "intermediate"


# eta_a = 4, eta_w = 1/4, |beta| = 1/2: scale = 2 sqrt(eta_a eta_w) |beta| = 1 exactly;
# ratio = 4: the thresholds 4, -4, 1/4, -1/4 are exact in binary and at 30 digits
REGIME_POINTS = [
    (4.0, "lazy"),  # delta = ratio scale: ">=" includes it
    (_ulp(4.0, UP), "lazy"),
    (_ulp(4.0, DOWN), "intermediate"),
    (-4.0, "delayed rich"),  # delta = -ratio scale: "<=" includes it
    (_ulp(-4.0, DOWN), "delayed rich"),
    (_ulp(-4.0, UP), "intermediate"),
    (0.25, "intermediate"),  # |delta| = scale/ratio: "<" excludes it
    (_ulp(0.25, DOWN), "rich"),
    (_ulp(0.25, UP), "intermediate"),
    (-0.25, "intermediate"),
    (_ulp(-0.25, UP), "rich"),
    (_ulp(-0.25, DOWN), "intermediate"),
    (0.0, "rich"),
]


@pytest.mark.parametrize(("delta", "want"), REGIME_POINTS, ids=lambda v: repr(v))
def test_regime_at_and_one_ulp_around_each_threshold(delta, want):
    """kunin.regime (seed 003 Part I, regimes 1-3; scale = 2 sqrt(eta_a eta_w)|beta| = 1,
    ratio = 4): lazy iff delta >= 4, delayed rich iff delta <= -4, rich iff |delta| < 1/4,
    at each threshold and one ulp on either side (the comparison is at 30 digits, which
    resolves a float64 ulp)."""
    assert _expected_regime(Fraction(delta), Fraction(1), Fraction(4)) == want
    assert kunin.regime(delta, 4.0, 0.25, 0.5, ratio=4.0) == want


def test_regime_ratio_one_and_its_lower_bound():
    """ratio = 1 is allowed (ratio >= 1): then lazy iff delta >= scale, delayed rich iff
    delta <= -scale, rich iff |delta| < scale (no intermediate band); one ulp below 1 is a
    ValueError naming ratio.  scale = 0 (beta = 0): delta = 0 >= 0 is lazy."""
    assert kunin.regime(1.0, 1.0, 1.0, 0.5, ratio=1.0) == "lazy"
    assert kunin.regime(-1.0, 1.0, 1.0, 0.5, ratio=1.0) == "delayed rich"
    assert kunin.regime(_ulp(1.0, DOWN), 1.0, 1.0, 0.5, ratio=1.0) == "rich"
    assert kunin.regime(_ulp(-1.0, UP), 1.0, 1.0, 0.5, ratio=1.0) == "rich"
    with pytest.raises(ValueError, match="ratio"):
        kunin.regime(0.0, 1.0, 1.0, 0.5, ratio=_ulp(1.0, DOWN))
    assert kunin.regime(0.0, 1.0, 1.0, 0.0) == "lazy"
    assert kunin.regime(-5e-324, 1.0, 1.0, 0.0) == "delayed rich"


@settings(max_examples=150, deadline=None)
@given(
    ea=st.integers(-20, 20), ew=st.integers(-20, 20), nb_=st.integers(-20, 20),
    r=st.integers(0, 6), which=st.sampled_from(["lazy", "delayed", "rich+", "rich-"]),
    side=st.sampled_from([-1, 0, 1]),
)  # fmt: skip
def test_regime_thresholds_exact_scales(ea, ew, nb_, r, which, side):
    """Powers of two: eta_a = 4^ea, eta_w = 4^ew, |beta| = 2^nb, ratio = 2^r make every
    threshold a float64 number exactly (scale = 2^(ea + ew + nb + 1)); delta on it and one
    ulp either side gives the regime of seed 003 Part I (exact rational expectation)."""
    eta_a, eta_w, beta, ratio = 4.0**ea, 4.0**ew, 2.0**nb_, 2.0**r
    scale = 2.0 ** (ea + ew + nb_ + 1)
    edge = {"lazy": ratio * scale, "delayed": -ratio * scale, "rich+": scale / ratio,
            "rich-": -scale / ratio}[which]  # fmt: skip
    delta = edge if side == 0 else _ulp(edge, UP if side > 0 else DOWN)
    want = _expected_regime(Fraction(delta), Fraction(scale), Fraction(ratio))
    assert kunin.regime(delta, eta_a, eta_w, beta, ratio=ratio) == want


@settings(max_examples=100, deadline=None)
@given(
    eta_a=st.floats(1e-3, 1e3), eta_w=st.floats(1e-3, 1e3), beta=st.floats(1e-3, 1e3),
    ratio=st.floats(1.5, 100.0),
)  # fmt: skip
def test_regime_sequence_is_monotone_in_delta(eta_a, eta_w, beta, ratio):
    """As delta increases the regime runs delayed rich -> intermediate -> rich ->
    intermediate -> lazy (seed 003 Part I): checked at k scale for k a factor 1e-6 on either
    side of each threshold +-ratio, +-1/ratio (relative 1e-6 is far beyond the rounding of
    k * scale, ~1e-16, so the side is certain), plus 0 and +-oo-like k."""
    scale = 2 * math.sqrt(eta_a * eta_w) * beta
    ks = [-1e3 * ratio, -ratio * (1 + 1e-6), -ratio * (1 - 1e-6), -(1 + 1e-6) / ratio,
          -(1 - 1e-6) / ratio, 0.0, (1 - 1e-6) / ratio, (1 + 1e-6) / ratio,
          ratio * (1 - 1e-6), ratio * (1 + 1e-6), 1e3 * ratio]  # fmt: skip
    got = [kunin.regime(k * scale, eta_a, eta_w, beta, ratio=ratio) for k in ks]
    want = ["delayed rich"] * 2 + ["intermediate"] * 2 + ["rich"] * 3 + ["intermediate"] * 2
    want += ["lazy"] * 2
    assert got == want


# ---------------------------------------------------------------------------
# seed 001: phases (eqs. (28)-(30), Section 3.2)
# ---------------------------------------------------------------------------
EPS = Fraction(1, 10**40)  # "one unit" for exact rational exponents


def _paper_phase(c_d, c_g, c_u, c_w, c_eu, c_ew, zero=False) -> str:
    """Seed 001 Section 3 with exact Fractions: a = 2 c_g + c_eu + c_ew, b = 2 c_g + c_d +
    max(c_ew + c_u, c_eu + c_w) (eq. (28): max(a, 2b) has the sign of max(a, b); > 0
    unstable, < 0 frozen); at max(a, b) = 0 kernel iff b > a (eq. (30)) and P/Q -> 1
    (eq. (29): c_d > 0, or a zero initial output, or c_u + c_ew != c_w + c_eu), else
    feature learning (Theorem 2)."""
    a = 2 * c_g + c_eu + c_ew
    b = 2 * c_g + c_d + max(c_ew + c_u, c_eu + c_w)
    e = max(a, b)
    if e > 0:
        return "unstable"
    if e < 0:
        return "frozen"
    pq = c_d > 0 or zero or c_u + c_ew != c_w + c_eu
    return "kernel" if (b > a and pq) else "feature learning"


@pytest.mark.parametrize("k", [-1, 0, 1])
def test_eq28_boundary_max_a_b(k):
    """Eq. (28): c_d = 1, c_u = c_w = c_eta = 0, c_gamma = -1/2 + k eps: a = 2 c_gamma,
    b = 2 c_gamma + 1, max(a, b) = 2 k eps: k = 1 unstable (t_c -> 0), k = -1 frozen,
    k = 0 learning, and there b - a = 1 > 0 with c_d > 0 (case 1 of eq. (29)): kernel."""
    c_g = Fraction(-1, 2) + k * EPS
    want = {1: "unstable", -1: "frozen", 0: "kernel"}[k]
    assert _paper_phase(1, c_g, 0, 0, 0, 0) == want
    assert phases.xu_ziyin_phase(1, c_g, 0, 0, 0, 0) == want


@pytest.mark.parametrize("k", [-1, 0, 1])
def test_eq30_strict_inequality(k):
    """Eq. (30) is strict: c_d = 1, c_u = c_w = 0, c_eta_u = c_eta_w = c = 1 + k eps gives
    b - a = 1 - c = -k eps; c_gamma puts the larger term at 0 (eq. (28)).  b > a (k = -1):
    kernel; b = a (k = 0) and b < a (k = 1): feature learning."""
    c = 1 + k * EPS
    c_g = -c if k >= 0 else -(1 + c) / 2
    want = "kernel" if k < 0 else "feature learning"
    assert _paper_phase(1, c_g, 0, 0, c, c) == want
    assert phases.xu_ziyin_phase(1, c_g, 0, 0, c, c) == want
    s = phases.Scaling(1, c_g, 0, 0, c, c)
    assert max(s.first_term, s.second_term) == 0
    assert (s.second_term > s.first_term) == (k < 0)


@pytest.mark.parametrize("k", [-1, 0, 1])
@pytest.mark.parametrize("zero", [False, True])
def test_eq29_case3_unequal_balance(k, zero):
    """Eq. (29) case 3 (fixed d, c_d = 0): P/Q -> 1 iff c_u + c_eta_w != c_w + c_eta_u.
    c_u = k eps, c_w = 0, c_eta = -1: b - a = 1 + max(k eps, 0) > 0 and c_gamma = -m/2 puts
    b at 0.  k != 0: kernel (case 3); k = 0: feature learning unless the initial output is
    zero (case 2: kernel)."""
    c_u = k * EPS
    m = max(-1 + c_u, Fraction(-1))
    c_g = -m / 2
    want = "kernel" if (k != 0 or zero) else "feature learning"
    assert _paper_phase(0, c_g, c_u, 0, -1, -1, zero) == want
    assert phases.xu_ziyin_phase(0, c_g, c_u, 0, -1, -1, zero_initial_output=zero) == want
    s = phases.Scaling(0, c_g, c_u, 0, -1, -1, zero_initial_output=zero)
    # the first case of eq. (29) that applies (in the paper's order 1, 2, 3)
    assert s.p_over_q_case == (2 if zero else (3 if k != 0 else None))


@pytest.mark.parametrize("c_d", [Fraction(0), EPS, 5e-324, 0.0])
def test_eq29_case1_width_exponent(c_d):
    """Eq. (29) case 1 needs d -> oo, c_d > 0 (the smallest positive rational and float
    exponents included); c_d = 0 with c_u + c_eta_w = c_w + c_eta_u and a non-zero output
    leaves P/Q random: feature learning.  c_u = c_w = 0, c_eta = -1, c_gamma = (1 - c_d)/2:
    b = 0 > a = -1 - c_d."""
    cd = Fraction(c_d)
    c_g = (1 - cd) / 2
    want = "kernel" if cd > 0 else "feature learning"
    assert _paper_phase(cd, c_g, 0, 0, -1, -1) == want
    assert phases.xu_ziyin_phase(c_d, c_g, 0, 0, -1, -1) == want
    assert phases.Scaling(c_d, c_g, 0, 0, -1, -1).p_over_q_case == (1 if cd > 0 else None)


@pytest.mark.parametrize("c_d", [-EPS, -5e-324])
def test_negative_width_exponent_refused(c_d):
    """c_d >= 0 (d ~ kappa^c_d is a width): one unit below 0 is a ValueError."""
    with pytest.raises(ValueError, match="c_d"):
        phases.xu_ziyin_phase(c_d, 0, 0, 0, 0, 0)


_R = st.fractions(min_value=-3, max_value=3, max_denominator=4)


@settings(max_examples=200, deadline=None)
@given(c_d=st.fractions(0, 2, max_denominator=4), c_u=_R, c_w=_R, c_eu=_R, c_ew=_R,
       shift=st.sampled_from([-EPS, Fraction(0), EPS]), zero=st.booleans())  # fmt: skip
def test_phase_matches_theorem_2_near_eq28(c_d, c_u, c_w, c_eu, c_ew, shift, zero):
    """Theorem 2 with eqs. (28)-(30) over random rational exponents, c_gamma placed so that
    max(a, b) = shift (0: on the eq. (28) surface, +-eps: one unit off it)."""
    m = max(c_ew + c_u, c_eu + c_w)
    top = max(c_eu + c_ew, c_d + m)  # max(a, b) - 2 c_gamma
    c_g = (shift - top) / 2
    want = _paper_phase(c_d, c_g, c_u, c_w, c_eu, c_ew, zero)
    assert phases.xu_ziyin_phase(c_d, c_g, c_u, c_w, c_eu, c_ew, zero_initial_output=zero) == want


@pytest.mark.parametrize("c_w", [-EPS, Fraction(0), EPS, -5e-324, 0.0, 5e-324])
@pytest.mark.parametrize("zero", [False, True])
def test_section_3_2_split_at_c_w_zero(c_w, zero):
    """Seed 001 Section 3.2: c_u = max(0, c_w), c_gamma = min(-c_w/2, 0), fixed d and eta.
    Eq. (28) holds for every c_w; b - a = max(c_w, 0), so eq. (30) iff c_w > 0; the initial
    output ~ kappa^(c_w/2) (f0 = c_gamma + (c_u + c_w)/2), O(1) iff c_w <= 0; the printed
    phase is kernel iff c_w > 0; Theorem 2 gives kernel iff c_w > 0 and the initial output is
    zero (case 2 of eq. (29)), else feature learning (c_d = 0, c_u = c_w for c_w > 0)."""
    cw = Fraction(c_w)
    r = phases.initialisation_phase(c_w, zero_initial_output=zero)
    assert r.eq_28 is True
    assert r.eq_30 == (cw > 0)
    assert r.printed_phase == ("kernel" if cw > 0 else "feature learning")
    assert r.phase == ("kernel" if (cw > 0 and zero) else "feature learning")
    if zero:
        assert r.output_exponent == -sp.oo
    else:
        assert r.output_exponent == sp.Rational(cw.numerator, 2 * cw.denominator)
    assert r.output_bounded == (zero or cw <= 0)


# ---------------------------------------------------------------------------
# seed 000: Proposition 7.6 (pruning), Theorem 7.5 (masses), footnote 3 (step sizes)
# ---------------------------------------------------------------------------
def _pruned_by_definition(m: int, r: int, gamma, weights) -> sp.Expr:
    """sum_{j > r} lambda_{m,j} of eq. (1), summed node by node (exact)."""
    return sp.nsimplify(sum((ns.node_scaling(m, j, gamma, weights) for j in range(r + 1, m + 1)),
                            sp.S.Zero))  # fmt: skip


@pytest.mark.parametrize(
    ("rho", "exact_rho", "r"),
    [(0.5, Fraction(1, 2), 2), (_ulp(0.5, DOWN), Fraction(1, 2) - EPS, 1),
     (_ulp(0.5, UP), Fraction(1, 2) + EPS, 2), (0.75, Fraction(3, 4), 3),
     (_ulp(0.75, DOWN), Fraction(3, 4) - EPS, 2)],
)  # fmt: skip
def test_pruned_mass_floor_at_integer_rho_m(rho, exact_rho, r):
    """Proposition 7.6 prunes the nodes j > floor(rho m): at m = 4, rho m = 2 (rho = 1/2)
    keeps 2 nodes, one unit below keeps 1; rho m = 3 keeps 3, one unit below keeps 2.  The
    exact mass (rho a Fraction: the exact path reads a float through nsimplify, 1/2 - 1 ulp
    -> 1/2, by the package's float policy) and the float64 mass (rho one ulp off) equal the
    node-by-node sum of eq. (1)'s lambda_{m,j} (float64: 1e-14 relative, a sum of 4 terms
    each within a few ulps)."""
    w = ns.finite_k(2)
    gamma = sp.Rational(1, 3)
    want = _pruned_by_definition(4, r, gamma, w)
    assert sp.simplify(lns.pruned_mass(4, exact_rho, gamma, w) - want) == 0
    assert lns.pruned_mass_numeric(4, rho, 1 / 3, w) == pytest.approx(float(want), rel=1e-14)


@pytest.mark.parametrize("rho", [0.0, 1.0, -5e-324])
def test_pruned_mass_rho_open_interval_refused(rho):
    """rho in (0, 1) (Proposition 7.6): the endpoints are refused, exact and float64."""
    w = ns.finite_k(2)
    with pytest.raises(ValueError, match="rho"):
        lns.pruned_mass(4, rho, sp.Rational(1, 3), w)
    with pytest.raises(ValueError, match="rho"):
        lns.pruned_mass_numeric(4, rho, 1 / 3, w)


@pytest.mark.parametrize(("rho", "r"), [(5e-324, 0), (_ulp(1.0, DOWN), 3)])
def test_pruned_mass_rho_one_ulp_inside(rho, r):
    """One ulp inside (0, 1): floor(rho m) = 0 (every node pruned: the mass is
    sum lambda = 1, Section 3.1) and 3 at m = 4 (one node pruned)."""
    w = ns.finite_k(2)
    want = _pruned_by_definition(4, r, sp.Rational(1, 3), w)
    if r == 0:
        assert want == 1
    assert lns.pruned_mass_numeric(4, rho, 1 / 3, w) == pytest.approx(float(want), rel=1e-14)


def test_group_moments_mass_bound():
    """Theorem 7.5: Lambda_T <= S (a node set's mass is at most the total).  At Lambda_T =
    S the covariance is S (I - V V^T) (the projection off the data's row space); one ulp
    above S is accepted (rounding of a float sum, within the documented 1e-12 relative),
    2 S is refused; Lambda_T = 0 is refused (Lambda_T > 0)."""
    V = np.array([[1.0], [0.0]])
    b = np.array([2.0, 0.0])
    mean, cov = lns.group_moments(1.5, 1.5, b, V)
    np.testing.assert_allclose(mean, b, rtol=0, atol=0)  # Lambda_T/S = 1 exactly
    np.testing.assert_allclose(cov, 1.5 * (np.eye(2) - V @ V.T), rtol=0, atol=1e-15)
    lns.group_moments(_ulp(1.5, UP), 1.5, b, V)
    for bad in (3.0, 0.0, -5e-324):
        with pytest.raises(ValueError, match="lam_T"):
            lns.group_moments(bad, 1.5, b, V)


def test_gd_step_bounds_values():
    """Footnote 3: eta <= d / (D_max^2 S) (sufficient), and the sharp bound 2 d / (D_max^2 S)
    (the contraction factor 1 - eta D_max^2 S / d reaches -1 there): D_max from numpy's SVD,
    S = sum lambda (1e-14 relative: an SVD and three roundings)."""
    X = np.array([[3.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    lam = np.array([0.25, 0.5, 0.25])
    lo, hi = lns.gd_step_bounds(X, lam)
    D = float(np.linalg.svd(X, compute_uv=False)[0])
    assert lo == pytest.approx(3 / (D**2 * 1.0), rel=1e-14)
    assert hi == pytest.approx(2 * 3 / (D**2 * 1.0), rel=1e-14)
    assert 1 - hi * D**2 * 1.0 / 3 == pytest.approx(-1.0, abs=1e-14)


# ---------------------------------------------------------------------------
# clamps: the kernels' cosine, the torch flow's time guards
# ---------------------------------------------------------------------------
_INIT = kernels.Initialisation(1, 1)


def _kernel_at_one(name: str) -> float:
    """The kernel at rho = 1 exactly, mpmath at 30 digits (no clamp on that path)."""
    return float(kernels.kernel_numeric(name, _INIT, 1.5, 0.5, 1, dps=30))


@pytest.mark.parametrize("name", ["nngp", "ntk_first_layer"])
@pytest.mark.parametrize("k", [0, 1, 4, 8])
def test_cosine_a_few_ulps_above_one_is_clamped(name, k):
    """A computed cosine may exceed 1 by a few ulps (8 eps of slack): at rho = 1 + k ulp,
    k <= 8, the float64 and torch kernels equal the kernel at rho = 1 (30-digit mpmath) to
    1e-12 relative (arccos near 1 turns a k-ulp input error into sqrt(k eps) ~ 4e-8 of
    the angle: without the clamp the value is NaN; with it exact to rounding), and never
    NaN; the same at -1 - k ulp against rho = -1."""
    import torch

    for sign in (1, -1):
        rho = sign * (1.0 + k * float(np.finfo(float).eps))
        ref = float(kernels.kernel_numeric(name, _INIT, 1.5, 0.5, sign, dps=30))
        got = float(kernels.kernel_numeric(name, _INIT, 1.5, 0.5, rho))
        tg = float(kernels.kernel_torch(name, _INIT, torch.tensor(1.5, dtype=torch.float64),
                                        torch.tensor(0.5, dtype=torch.float64),
                                        torch.tensor(rho, dtype=torch.float64)))  # fmt: skip
        assert math.isfinite(got) and math.isfinite(tg)
        assert got == pytest.approx(ref, rel=1e-12, abs=1e-15)
        assert tg == pytest.approx(ref, rel=1e-12, abs=1e-15)
    assert _kernel_at_one(name) > 0


@pytest.mark.parametrize("k", [9, 16])
def test_cosine_beyond_the_slack_is_refused(k):
    """Beyond 8 ulps outside [-1, 1] the cosine is an input error: ValueError naming rho
    (float64 and torch), not a clamped value."""
    import torch

    for sign in (1, -1):  # both ends of [-1, 1]
        rho = sign * (1.0 + k * float(np.finfo(float).eps))
        with pytest.raises(ValueError, match="rho"):
            kernels.kernel_numeric("nngp", _INIT, 1.0, 1.0, rho)
        with pytest.raises(ValueError, match="rho"):
            kernels.kernel_torch("nngp", _INIT, 1.0, 1.0, torch.tensor(rho, dtype=torch.float64))
        with pytest.raises(ValueError, match="rho"):
            kernels.kernel_numeric("nngp", _INIT, 1.0, 1.0, mpmath.mpf(rho), dps=20)


def test_torch_flow_subnormal_span_and_repeated_times():
    """numerics.torch_flow's guards on the time span (span clamped to >= 1e-300 for the
    first step, the index of the next time clamped to the last): times (0, 5e-324, 5e-324,
    0.5, 0.5) give the initial state at 0 and 5e-324 (|d state/dt| ~ 1, so the change is
    < 1e-323: equal to rounding) and at 0.5 twice the same state, within 1e-10 of the
    exact solution (DOP853 at rtol 1e-12 over half a time unit; state of size ~1)."""
    case = kunin.CASES[0]
    times = [0.0, 5e-324, 5e-324, 0.5, 0.5]
    sim = numerics.simulate(case.setup, case.a0, case.w0, times, method="torch", device="cpu")
    exact = kunin.closed_form(case.setup, case.a0, case.w0).sample(times)
    for s in sim:
        assert all(math.isfinite(v) for v in (s.a, *s.w))
    for k in (0, 1, 2):
        assert sim.at(k).a == float(case.a0)
        np.testing.assert_array_equal(sim.at(k).w, [float(v) for v in case.w0])
    assert sim.at(3).a == sim.at(4).a
    np.testing.assert_array_equal(sim.at(3).w, sim.at(4).w)
    assert abs(sim.at(3).a - exact.a[3]) <= 1e-10
    np.testing.assert_allclose(sim.at(3).w, exact.w[3], rtol=0, atol=1e-10)
