"""Reported constants beyond float64's normal range, the x = 1 errata of Xu & Ziyin, the
one-thread fill of small float64 samples, the scale-free refusal of a zero delta in the
Bregman interpolant, the transpose symmetry of the linear tail, torch's 64-bit limits, and
two figures of seeds 000 and 004 (panel titles, the full phase grid).

Mutation-testing triage (seed-3 run, helper B).  The expensive parts of the figures (the
simulations) are replaced by small fakes; the tests read only what the figure draws from
their output.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
import torch

from numerics import models, torch_flow
from numerics.scipy_ode import LinearTail
from solvable.models import kunin, mirror_flow, three_layer
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models import xu_ziyin as xz
from solvable.models.kunin import float64_sample as kunin_f64_sample
from solvable.models.linear_node_scaling import float64_sample as lns_f64
from solvable.verification.figures import seed_000, seed_004
from solvable.verification.figures._common import new_figure


# ---------------------------------------------------------------------------
# xu_ziyin.constants: a value below float64's normal range is an mpf, never a subnormal
# ---------------------------------------------------------------------------
def _theorem_1_constants(eta: str, rho: str) -> dict[str, mpmath.mpf]:
    """alpha_+, alpha_-, t_c of eqs. (11), (12) (corrected sign) and (17) at 50 digits for
    eta_u = eta_w = eta, gamma = y = P = Q = 1, d = 2: A = C = gamma^2 d rho^2 = 2 rho^2,
    B = sqrt(eta_u eta_w) gamma rho y = eta rho, D = sqrt(B^2 + 4 A C) = 1/t_c;
    alpha_- = (D - B)/(2A) written as 2C/(D + B) (no cancellation)."""
    with mpmath.workdps(50):
        e, r = mpmath.mpf(eta), mpmath.mpf(rho)
        A = C = 2 * r**2
        B = e * r
        D = mpmath.sqrt(B**2 + 4 * A * C)
        return {"alpha_plus": (B + D) / (2 * A), "alpha_minus": 2 * C / (D + B), "t_c": 1 / D}


@pytest.mark.parametrize(
    ("eta", "rho"),
    [("1", "1e100"), ("1", "1e154"), ("1", "1e155"), ("1", "1e160"), ("1", "1e200"),
     ("1e300", "1"), ("1e310", "1"), ("1e318", "1"), ("1e400", "1")],
)  # fmt: skip
def test_reported_constants_below_the_normal_range_keep_seventeen_digits(eta, rho):
    """Mutant key: solvable/models/xu_ziyin.py:1454:core/ReplaceBinaryOperator_Pow_Mod:26.

    ``constants`` (float64 mode) reports a float only where float64 holds the value to its
    normal precision (|v| >= 2^-1022, or exactly 0 / inf), else an mpf of 17 digits: every
    reported constant, across the normal/subnormal/underflow boundary (t_c = 1/D from
    rho, alpha_- and t_c from the rates), against eqs. (11), (12), (17) at 50 digits."""
    got = xz.constants(eta, eta, 1, rho, 1, 2, 1, 1)
    want = _theorem_1_constants(eta, rho)
    for key, ref in want.items():
        v = got[key]
        if isinstance(v, float):
            assert v == 0 or math.isinf(v) or abs(v) >= 2.0**-1022, (
                f"{key} = {v!r} reported as a subnormal float (true value {mpmath.nstr(ref, 5)})"
            )
            assert math.isfinite(v) and v != 0, f"{key} = {v!r}, true value {ref}"
            # float64 arithmetic of a few operations (the float64-safe path): 1e-14 relative
            assert abs(mpmath.mpf(v) / ref - 1) <= 1e-14, (key, v, ref)
        else:
            assert isinstance(v, mpmath.mpf), (key, type(v))
            # an mpf rounded to 17 digits: 1e-16 relative, with a factor 10 of slack
            assert abs(v / ref - 1) <= 1e-15, (key, v, ref)


# ---------------------------------------------------------------------------
# xu_ziyin errata stated at x = 1: each printed residual is the stated form's residual
# there, derived from eq. (13) (u_i = (p_i - q_i)/sqrt(eta_w), w_i = (p_i + q_i)/sqrt(eta_u))
# ---------------------------------------------------------------------------
def _erratum(equation: str):
    (e,) = [e for e in xz.errata() if e.equation == equation]
    return e._residuals()


def _named(expr: sp.Expr, *names: str) -> list[sp.Symbol]:
    by_name = {s.name: s for s in expr.free_symbols}
    return [by_name[n] for n in names]


def test_x_equal_1_errata_residuals_are_those_of_eq_13_at_x_equal_1():
    """Mutant key: solvable/models/xu_ziyin.py:2850:core/NumberReplacer:1164.

    The errata of the text after (21), of (25) and of (26) are statements at x = 1 (rho = 1,
    w_i = (W x)_i): from eq. (13) there, 4 p q = eta_u w^2 - eta_w u^2, ||u||^2 = (alpha P +
    Q/alpha - 2 p0 q0)/eta_w and d||u||^2/d alpha = (P - Q/alpha^2)/eta_w (d = 1, with p =
    p0 sqrt(alpha), q = q0/sqrt(alpha) of (8), (9)).  Each printed residual must be that
    quantity minus the printed form (exactly), and each corrected residual 0: a residual
    evaluated away from x = 1 would still be non-zero for the printed form (and the registry
    would still pass) but would no longer test the statement the paper makes."""
    S = xz.symbolic()
    u, w, eta_u, eta_w = S.u, S.v, S.eta_u, S.eta_w
    printed, corrected = _erratum("text after (21)")
    four_pq = eta_u * w**2 - eta_w * u**2
    assert sp.simplify(printed - (four_pq - (u**2 - w**2))) == 0, printed
    assert sp.simplify(corrected) == 0

    printed, corrected = _erratum("(25)")
    p0, q0, alpha = _named(printed, "p0", "q0", "alpha")
    core = alpha * p0**2 - 2 * p0 * q0 + q0**2 / alpha  # d(alpha P + Q/alpha) - 2 p q, d = 1
    assert sp.simplify(printed - (core / eta_w - core)) == 0, printed
    assert sp.simplify(corrected) == 0

    printed, corrected = _erratum("(26)")
    p0, q0, alpha = _named(printed, "p0", "q0", "alpha")
    slope = p0**2 - q0**2 / alpha**2  # d (P - Q/alpha^2), d = 1
    assert sp.simplify(printed - (slope / eta_w - slope / eta_u)) == 0, printed
    assert sp.simplify(corrected) == 0


# ---------------------------------------------------------------------------
# float64 samples below PARALLEL_SAMPLE entries per half run in the caller's thread
# ---------------------------------------------------------------------------
class _NoThreads:
    """A ThreadPoolExecutor that refuses to start (the test's probe for threads)."""

    def __init__(self, *args, **kwargs):
        raise AssertionError("a small sample started a thread pool")


def _lns_sample(monkeypatch):
    rng = np.random.default_rng(11)
    n, d, m = 5, 4, 3
    X, y = rng.standard_normal((n, d)), rng.standard_normal(n)
    lam, a = rng.uniform(0.1, 1, m), rng.choice([-1.0, 1.0], m)
    tr = lns.closed_form(ns.Setup(X, y, lam, "linear", 0.5), a, rng.standard_normal((m, d)))
    monkeypatch.setattr(lns_f64, "_BLOCK_BYTES", 8 * m * d * 2)  # W blocks of 2 times
    monkeypatch.setattr(lns_f64, "_CHUNK_TIMES", 7)  # chunks of 6 times: 29 times are 5 chunks
    return lambda: tr.sample(np.linspace(0, 9, 29)), lns_f64


def _kunin_sample(monkeypatch):
    tr = kunin.closed_form(kunin.case("downstream").setup, "0.3", ("0.1", "-0.4"))
    monkeypatch.setattr(kunin_f64_sample, "_BLOCK_BYTES", 8 * 3 * 3)  # 3 times of max(n, d) = 3
    monkeypatch.setattr(kunin_f64_sample, "_COEFFICIENT_TIMES", 7)  # chunks of 6 times
    return lambda: tr.sample(np.linspace(0, 9, 29)), kunin_f64_sample


# (xu_ziyin's sample has the same threshold and the same rule; left out here: its first
# sample generates its evaluators, seconds of sympy)
@pytest.mark.parametrize("make", [_lns_sample, _kunin_sample], ids=["linear_node_scaling", "kunin"])
def test_small_float64_sample_of_many_blocks_runs_in_one_thread(monkeypatch, make):
    """Mutant key:
    solvable/models/linear_node_scaling.py:420:core/ReplaceBinaryOperator_Pow_FloorDiv:4.

    Each model's PARALLEL_SAMPLE: the float64 sample fills its two halves in two threads
    only where each half holds at least that many entries (32 MiB of float64, 2^22); a
    sample of 29 times of a few entries each (several blocks, so a split is possible) runs in
    the caller's thread, and the same sample with the threshold lowered to 1 does split (the
    probe sees threads)."""
    sample, module = make(monkeypatch)
    assert module.PARALLEL_SAMPLE * 8 == 32 * 2**20  # its docstring: 32 MiB of float64
    whole = sample()
    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", _NoThreads)
    again = sample()  # fails with the probe's AssertionError if a thread pool starts
    for name in ("t", "W", "f", "loss") if module is lns_f64 else ("t", "a", "w", "beta", "loss"):
        assert np.array_equal(np.asarray(getattr(again, name)), np.asarray(getattr(whole, name)))
    monkeypatch.setattr(module, "PARALLEL_SAMPLE", 1)
    with pytest.raises(AssertionError, match="started a thread pool"):
        sample()


# ---------------------------------------------------------------------------
# mirror_flow.bregman_interpolant: "delta_j = 0" is judged relative to its terms
# ---------------------------------------------------------------------------
_BREGMAN_X = (("1", "0.5", "-0.3", "0.8"), ("0.2", "-1", "0.6", "0.4"))
_BREGMAN_SETUP = mirror_flow.DiagonalSetup("1", "0.5", _BREGMAN_X, ("1", "-0.6"))


@pytest.mark.parametrize("c", ["1e-10", "1", "1e20"])
def test_bregman_interpolant_refuses_a_zero_delta_at_every_scale(c):
    """Mutant key: solvable/models/mirror_flow.py:512:core/ReplaceBinaryOperator_Add_Div:11.

    delta_j = eta_w a_j^2 - eta_a w_j^2 is zero to the working precision when it is below
    the precision times its terms eta_w a_j^2 + eta_a w_j^2: that judgement is invariant
    under (a0, w0) -> (c a0, c w0) (delta and its terms scale alike, by c^2).  At every
    scale c, a0_j = c, w0_j = c sqrt(eta_w/eta_a) to 45 digits (balanced to far below the
    working precision) is refused naming delta, and a clearly unbalanced start is solved
    (X beta = y)."""
    with mpmath.workdps(60):
        C = mpmath.mpf(c)
        balanced = [mpmath.nstr(C * mpmath.sqrt(mpmath.mpf("0.5")), 45)] * 4
        a0 = [mpmath.nstr(C * v, 45) for v in (1, 2, -1, mpmath.mpf("0.5"))]
        w0 = [mpmath.nstr(C * v, 45) for v in (1, mpmath.mpf("0.5"), 1, -2)]
    for dps in (None, 30):
        with pytest.raises(ValueError, match="delta_j"):
            mirror_flow.bregman_interpolant(_BREGMAN_SETUP, [c] * 4, balanced, dps=dps)
    beta = np.array(mirror_flow.bregman_interpolant(_BREGMAN_SETUP, a0, w0), dtype=float)
    X = np.array(_BREGMAN_X, dtype=float)
    # the constraint X beta = y holds to float64 rounding of beta: |X| |beta| * 1e-13
    tol = 1e-13 * float(np.abs(X).sum(axis=1).max() * np.abs(beta).max())
    assert np.all(np.abs(X @ beta - np.array([1.0, -0.6])) <= tol), X @ beta


# ---------------------------------------------------------------------------
# scipy_ode.LinearTail: S and S^T describe the same flow
# ---------------------------------------------------------------------------
def test_linear_tail_uses_the_symmetric_part_of_a_nearly_symmetric_hessian():
    """Mutant key: numerics/scipy_ode.py:123:core/NumberReplacer:32.

    The linearised flow has the symmetric ``S = sqrt(eta) H sqrt(eta)``; an ``S`` symmetric
    to 1e-4 relative (admissible: criterion 3 allows 1e-3) is taken as its symmetric part,
    so ``S`` and ``S^T`` give the same eigenvalues, the eigenvalues of ``(S + S^T)/2``, and
    the same predicted change."""
    rng = np.random.default_rng(3)
    N = 5
    Q = np.linalg.qr(rng.standard_normal((N, N)))[0]
    sym = Q @ np.diag([0.5, 1.0, 2.0, 3.0, 5.0]) @ Q.T
    skew = rng.standard_normal((N, N))
    S = (sym + 1e-4 * (skew - skew.T))[None]
    zdot = rng.standard_normal((1, N)) * 1e-9
    args = (zdot, np.ones((1, N)), np.ones(N), np.array([2.0]), 2.0**-52, 1e-10)
    a, b = LinearTail(S, *args), LinearTail(np.swapaxes(S, 1, 2), *args)
    assert a.admissible.all() and b.admissible.all()
    want = np.linalg.eigvalsh(sym)
    # eigenvalues of a 5 x 5 symmetric matrix of norm 5: within 1e-13 (rounding of eigh);
    # the skew part 1e-4 moves the lower-triangle eigenvalues by ~1e-4 (first order)
    assert np.allclose(a.lam[0], want, rtol=0, atol=1e-13), (a.lam, want)
    assert np.allclose(b.lam[0], want, rtol=0, atol=1e-13), (b.lam, want)
    # the predicted change: the same to rounding (1e-12 of its size)
    ea, eb = a.end(), b.end()
    assert np.allclose(ea, eb, rtol=0, atol=1e-12 * float(np.abs(ea).max())), (ea, eb)


# ---------------------------------------------------------------------------
# torch_flow: the 64-bit limits
# ---------------------------------------------------------------------------
def test_initialise_refuses_exactly_2_to_63_entries_before_torch_is_asked():
    """Mutant key: numerics/torch_flow.py:577:core/NumberReplacer:113.

    torch's sizes are int64: a block of 2^63 entries (one more than 2^63 - 1) is refused
    with a ValueError naming batch and the limit, before any allocation."""
    with pytest.raises(ValueError, match=r"batch = 2147483648 .* more than 2\*\*63 - 1 entries"):
        torch_flow.initialise({"w": (2**32,)}, 2**31)


def test_gradient_flow_accepts_a_max_steps_beyond_int64():
    """Mutant key: numerics/torch_flow.py:577:core/NumberReplacer:113.

    A ``max_steps`` beyond int64 (the step counters' type) is unreachable and means no cap:
    the run gives the run of the default cap, bit for bit."""
    case = xz.CASES[0]
    s = case.setup

    def f(v):
        return np.vectorize(float, otypes=[float])(np.asarray(v, dtype=object))

    model = models.TwoLayerLinear(f(s.x), float(s.y), float(s.gamma), float(s.eta_u),
                                  float(s.eta_w))  # fmt: skip
    params = {"u": torch.tensor(f(case.u0), dtype=torch.float64)[None],
              "W": torch.tensor(f(case.W0), dtype=torch.float64)[None]}  # fmt: skip
    capped = torch_flow.gradient_flow(model, params, [0.5, 1.0], device="cpu")
    for huge in (2**63 - 1, 2**63, 2**70):
        res = torch_flow.gradient_flow(model, params, [0.5, 1.0], max_steps=huge, device="cpu")
        for k in ("u", "W"):
            assert torch.equal(res.params[k], capped.params[k]), (huge, k)


# ---------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------
def test_seed_000_fig2_panel_titles_share_one_font_size(monkeypatch):
    """Mutant key: solvable/verification/figures/seed_000.py:72:core/NumberReplacer:69.

    Figure 2's two panels (training and test error, side by side, one role each) are titled
    alike: one font size for both titles, and each title's numbers those of the (fake)
    experiment it is drawn from (n_test, and the gap 1/4 between dyadic means)."""
    r = {
        "record_steps": [0, 1, 10],
        "labels": ["γ=1", "γ=0.5, α=0.7"],
        "train": [[[1.0, 0.5, 0.25]] * 2, [[1.0, 0.75, 0.5]] * 2],
        "test": [[[0.5, 0.25, 0.125]] * 2, [[1.0, 1.0, 1.0]] * 2],
        "kernel_limit_train": [[1.0, 0.5, 0.25]] * 2,
        "kernel_limit_test": [[0.5, 0.5, 0.25]] * 2,
        "trivial_test": [2.0, 2.0],
        "n_test": 123,
    }
    monkeypatch.setattr(seed_000.nse, "single_relu_experiment", lambda **kwargs: r)
    fig = new_figure(11.0, 4.0)
    seed_000._draw_fig2(fig, False, False)
    titles = [ax.title for ax in fig.axes if ax.get_title()]
    assert len(titles) == 2
    assert len({t.get_fontsize() for t in titles}) == 1, [t.get_fontsize() for t in titles]
    assert titles[1].get_text() == "test error (123 points); max |γ=1 - limit| = 0.25"


def test_seed_004_phase_grids_hold_the_points_their_comments_and_figure_4_name():
    """Mutant key: solvable/verification/figures/seed_004.py:57:core/NumberReplacer:43.

    The grids of Figures 1 and 5: each axis strictly increasing; the fast grid holds the
    paper points (0, 1.1), (0, 2.1), (1/2, 2.8) its comment names and brackets the critical
    gamma_3 = 3/2 (W1, gamma_2 = 0) and 5/2 (W2, gamma_2 = 7/10); the full grid is finer (it
    holds the fast grid), holds every point of PAPER_POINTS (Table 2 No. 2's 5/2 among
    them) and, in its gamma_2 = 0 column, Figure 4's gamma_3 in {0.9, 1.5, 2.1} (the paper's
    gamma_2 = 0 slice, "as gamma_3 grows from 0.9 to 2.1"), so that the full Figure 5 has a
    measured S_W1 at each of Figure 4's panels."""
    F = Fraction
    for g2s, g3s in (seed_004.GRID_FAST, seed_004.GRID_FULL):
        for axis in (g2s, g3s):
            assert all(a < b for a, b in itertools.pairwise(axis)), axis
    fast2, fast3 = seed_004.GRID_FAST
    full2, full3 = seed_004.GRID_FULL
    for g2, g3 in ((F(0), F(11, 10)), (F(0), F(21, 10)), (F(1, 2), F(14, 5))):
        assert g2 in fast2 and g3 in fast3, (g2, g3)
    assert min(fast3) < F(3, 2) < max(fast3) and min(fast3) < F(5, 2) < max(fast3)
    assert F(0) in fast2 and F(7, 10) in fast2
    assert set(fast2) <= set(full2) and set(fast3) <= set(full3)
    for g2, g3 in three_layer.PAPER_POINTS:
        assert g2 in full2 and g3 in full3, (g2, g3)
    assert F(0) in full2
    assert set(seed_004.FIG4_GAMMA_3) <= set(full3), (seed_004.FIG4_GAMMA_3, full3)
