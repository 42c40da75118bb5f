"""Edges of the simulation-backed confirmations (solvable/verification/confirmations/*) that their
claims'
default runs do not reach: the full sweeps' settings against the claims' statements, the
default (fast) run of a claim, the min-l1 interpolant reported beside the implicit bias, and
the error bar of the decay rate measured on the xu_ziyin flow.  The simulations are replaced
by spies or by exactly known inputs, so each test runs in about a second.  Each test names
the surviving mutant of the seed-2 sample (docs/mutation_testing.md) it was written against."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import types
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy import stats

from solvable._core.claims import Verdict
from solvable.models import xu_ziyin as xz
from solvable.models.node_scaling import finite_k, zipf
from solvable.verification.confirmations import global_convergence as conf_gc
from solvable.verification.confirmations import linear_node_scaling as conf_lns
from solvable.verification.confirmations import mirror_flow as conf_mf
from solvable.verification.confirmations import ntg as conf_ntg
from solvable.verification.confirmations import xu_ziyin as conf_xz


def _claim(claims: list, claim_id: str):
    (thm,) = [t for t in claims if t.id == claim_id]
    return thm


class _StopError(Exception):
    """Raised by a spy once it has recorded its call (the simulation is not run)."""


# ---------------------------------------------------------------------------
# global_convergence.theorem_5_1_ntg_split: the full sweep is the one its statement names
# ---------------------------------------------------------------------------
def test_ntg_split_full_sweep_runs_the_gammas_widths_and_seeds_of_its_statement(monkeypatch):
    """Mutant solvable/verification/confirmations/global_convergence.py:362:core/NumberReplacer:279.

    The claim's statement: "(full=True: gamma in {1/2, 1/5}, m up to 1600, 6 seeds)"; the
    default run is the sweep's defaults (gamma 1/2, m in {25, 100, 400}, 4 seeds)."""
    calls: list[dict] = []

    def sweep(**kwargs):
        calls.append(kwargs)
        return {"stub": True}

    monkeypatch.setattr(conf_gc, "ntg_split_sweep", sweep)
    monkeypatch.setattr(conf_gc, "ntg_split_verdict", lambda result: Verdict("confirmed", "stub"))
    thm = _claim(conf_gc.claims(), "global_convergence.theorem_5_1_ntg_split")
    m = re.search(r"full=True: gamma in \{1/2, 1/5\}, m up to (\d+), (\d+) seeds", thm.statement)
    assert m, thm.statement
    top, n_seeds = int(m.group(1)), int(m.group(2))
    assert thm.verify(full=True).status == "confirmed"
    (full,) = calls
    assert tuple(full["gammas"]) == (0.5, 0.2)
    assert max(full["widths"]) == top
    assert len(set(full["seeds"])) == len(full["seeds"]) == n_seeds
    calls.clear()
    assert thm.verify().status == "confirmed"
    assert calls == [{}]  # the fast default: the sweep's own defaults


# ---------------------------------------------------------------------------
# linear_node_scaling flow claims: verify() without options runs the fast sweep
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "claim_id",
    ["linear_node_scaling.gradient_flow_limit", "linear_node_scaling.gradient_descent_limit"],
)
def test_flow_claims_run_the_fast_sweep_unless_full_is_asked(monkeypatch, claim_id):
    """Mutant
    solvable/verification/confirmations/linear_node_scaling.py:72:core/ReplaceFalseWithTrue:0.

    Theorem.verify: ``full`` (True: "the full sweep of a simulation-backed check instead of
    its fast default").  So verify() asks numerics.node_scaling_linear.flow_runs for the fast
    runs (full=False) and verify(full=True) for the full ones."""
    asked: list[bool] = []

    def flow_runs(*, method, full):
        asked.append(full)
        raise _StopError

    monkeypatch.setattr(conf_lns.nl, "flow_runs", flow_runs)
    thm = _claim(conf_lns.claims(), claim_id)
    assert thm.verify().status == "failed"  # the spy stops the run: a crash is a failure
    assert thm.verify(full=True).status == "failed"
    assert asked == [False, True]


# ---------------------------------------------------------------------------
# mirror_flow.implicit_bias: the min-l1 and min-l2 interpolants it reports distances to
# ---------------------------------------------------------------------------
def _exact_min_l1(X: list[list[Fraction]], y: list[Fraction]) -> tuple[Fraction, set]:
    """min ||b||_1 subject to X b = y (2 rows) by enumeration: an optimum of the linear
    program lies at a vertex, a solution with at most 2 non-zero entries; exact rationals."""
    d = len(X[0])
    best, where = None, set()
    for i, j in itertools.combinations(range(d), 2):
        det = X[0][i] * X[1][j] - X[0][j] * X[1][i]
        if det == 0:
            continue
        bi = (y[0] * X[1][j] - y[1] * X[0][j]) / det
        bj = (X[0][i] * y[1] - X[1][i] * y[0]) / det
        norm = abs(bi) + abs(bj)
        sol = {k: v for k, v in ((i, bi), (j, bj)) if v != 0}
        if best is None or norm < best:
            best, where = norm, {tuple(sorted(sol.items()))}
        elif norm == best:
            where.add(tuple(sorted(sol.items())))
    assert best is not None
    return best, where


@pytest.mark.parametrize(
    ("X", "y"),
    [((("1", "0.5", "-0.3", "0.8"), ("0.2", "-1", "0.6", "0.4")), ("1", "-0.6")),  # the claim's
     ((("2", "-1", "0.25", "3"), ("0.5", "4", "-2", "1")), ("-1.5", "2"))],
    ids=["claim_problem", "other"],
)  # fmt: skip
def test_min_norm_interpolants_are_the_min_l1_and_min_l2_solutions(X, y):
    """Mutant
    solvable/verification/confirmations/mirror_flow.py:140:core/ReplaceBinaryOperator_Sub_FloorDiv:3.

    _min_norm returns the min-l2 (pseudo-inverse) and min-l1 (linear program) interpolants
    of X b = y that the implicit-bias claim reports its prediction's distances to.  Checked
    against exact rationals: min-l2 = X^T (X X^T)^-1 y, and the l1 optimum by enumerating
    the vertices.  Tolerances: pinv of a well-conditioned 2 x 4 matrix, float64 rounding of
    O(1) entries, 1e-12; HiGHS's default primal feasibility tolerance is 1e-7."""
    Xf = [[Fraction(v) for v in row] for row in X]
    yf = [Fraction(v) for v in y]
    l2, l1 = conf_mf._min_norm(np.array(X, dtype=float), np.array(y, dtype=float))
    # min-l2: X^T (X X^T)^-1 y in exact arithmetic
    G = [[sum(a * b for a, b in zip(r, s, strict=True)) for s in Xf] for r in Xf]
    det = G[0][0] * G[1][1] - G[0][1] * G[1][0]
    z = [(G[1][1] * yf[0] - G[0][1] * yf[1]) / det, (G[0][0] * yf[1] - G[1][0] * yf[0]) / det]
    want_l2 = [Xf[0][k] * z[0] + Xf[1][k] * z[1] for k in range(len(Xf[0]))]
    np.testing.assert_allclose(l2, [float(v) for v in want_l2], rtol=0, atol=1e-12)
    # min-l1: interpolates, with the smallest l1 norm; the vertex itself when it is unique
    best, where = _exact_min_l1(Xf, yf)
    np.testing.assert_allclose(np.array(X, dtype=float) @ l1, [float(v) for v in yf], atol=1e-7)
    assert abs(np.abs(l1).sum() - float(best)) <= 1e-7, (l1, best)
    if len(where) == 1:
        want = np.zeros(len(Xf[0]))
        for k, v in next(iter(where)):
            want[k] = float(v)
        np.testing.assert_allclose(l1, want, rtol=0, atol=1e-7)


# ---------------------------------------------------------------------------
# ntg Proposition 4.3 claims: the full grid is the one the statement names
# ---------------------------------------------------------------------------
def test_ntg_full_grid_is_the_grid_of_the_claim_statement():
    """Mutant solvable/verification/confirmations/ntg.py:60:core/NumberReplacer:57.

    The claim ntg.mean_ntg_monte_carlo: "(MC; full: relu, swish x gamma in {1, 0.5, 0} x Zipf
    0.5, 0.7, K = 8 x m in {16, 256, 4096})" (the variance claims use the same grid)."""
    thm = _claim(conf_ntg.claims(), "ntg.mean_ntg_monte_carlo")
    m = re.search(r"gamma in \{([^}]*)\}.*m in \{([^}]*)\}", thm.statement)
    assert m, thm.statement
    gammas = [float(v) for v in m.group(1).split(",")]
    widths = tuple(int(v) for v in m.group(2).split(","))
    weights = [zipf(sp.Rational(1, 2)), zipf(sp.Rational(7, 10)), finite_k(8)]
    want = {(a, g, repr(w), widths) for a in ("relu", "swish") for g in gammas for w in weights}
    grid = conf_ntg._sweep_grid(True)
    got = {(a, g, repr(w), tuple(ms)) for a, g, w, ms, _draws in grid}
    assert len(grid) == len(want) == 18
    assert got == want


# ---------------------------------------------------------------------------
# xu_ziyin measured constants: the error bar of t_c from the decay of f - y
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("y", ["100", "0.001"])
def test_residual_decay_bar_covers_the_rounding_of_f_within_a_small_factor(monkeypatch, y):
    """Mutant
    solvable/verification/confirmations/xu_ziyin.py:329:core/ReplaceBinaryOperator_Add_Pow:22.

    _measure's "t_c (residual)" is 4 / r, r the decay rate of |f - y| between t = 6T and 10T
    (4T apart), and its bar covers "rounding of f (10**-(dps - 5) of |y| + |f - y|) in each
    log" and the change of the rate between the two intervals.  With the simulated f replaced
    by an exact exponential y + e^{-t/T} (u, W: the closed form, so the other fits are
    unchanged) the two rates agree, t_c = 4T, and the bar must (i) cover the largest change
    of 4/r when f(6T) and f(10T) each move by their rounding (both signs), computed here at
    dps + 10 digits, and (ii) not exceed it by more than a factor 10 (a first-order bound
    of the two logs is at most 4x the worst case; a bar orders of magnitude too large would
    give the comparison no teeth).  |y| = 100 and 0.001 put |y| far from |f - y| ~ e^-10."""
    dps = 30
    base = xz.case("generic")
    case = dataclasses.replace(base, setup=dataclasses.replace(base.setup, y=y))
    T = conf_xz.time_scale(case.setup, case.u0, case.W0)
    with mpmath.workdps(dps + 10):
        times = tuple(T * k for k in conf_xz.GRID)
        f = [mpmath.mpf(y) + mpmath.exp(-mpmath.mpf(k)) for k in conf_xz.GRID]
    states = xz.closed_form(case.setup, case.u0, case.W0, dps=dps).sample(list(times))
    sim = tuple(
        types.SimpleNamespace(u=states.u[i], W=states.W[i], f=f[i]) for i in range(len(times))
    )
    monkeypatch.setattr(conf_xz, "_simulation", lambda name, digits: (times, sim, T))
    kind, meas = conf_xz._measure(case, dps)
    assert kind == "generic"
    value, bar = meas["t_c (residual)"]
    eps = mpmath.mpf(10) ** -(dps - 5)
    with mpmath.workdps(dps + 10):
        Y = abs(mpmath.mpf(y))
        g6, g10 = mpmath.exp(-6), mpmath.exp(-10)
        assert abs(value - 4 * T) <= mpmath.mpf(10) ** -(dps + 5) * T  # rates agree exactly
        worst = max(
            abs(
                16 * T / mpmath.log((g6 + s6 * eps * (Y + g6)) / (g10 + s10 * eps * (Y + g10)))
                - 4 * T
            )
            for s6 in (1, -1)
            for s10 in (1, -1)
        )
    assert worst <= bar <= 10 * worst, (mpmath.nstr(bar, 5), mpmath.nstr(worst, 5))


# ---------------------------------------------------------------------------
# linear_node_scaling.contribution_moments: the KS test of one standardised coordinate
# ---------------------------------------------------------------------------
def _exact_contribution_samples(lam_j, total, beta_inf, V, coordinate, rng):
    """N samples of c_j (N, 3) whose sample mean and (1/N) sample covariance equal Theorem
    7.5's ``lambda_j/S beta_inf`` and ``lambda_j (I - lambda_j/S V V^T)`` to rounding, and
    whose standardised first coordinate is ``coordinate`` (standardised): the columns are
    centred and whitened by a lower-triangular (Cholesky) factor, then coloured by the lower
    Cholesky factor of the covariance, so the first column is only rescaled."""
    n = len(coordinate)
    mean = lam_j / total * beta_inf
    cov = lam_j * (np.eye(len(beta_inf)) - lam_j / total * V @ V.T)
    u = np.column_stack([coordinate, rng.permutation(coordinate), rng.permutation(coordinate)])
    u = u - u.mean(0)
    white = u @ np.linalg.inv(np.linalg.cholesky(u.T @ u / n)).T
    return mean + white @ np.linalg.cholesky(cov).T


@pytest.mark.parametrize("law", ["normal", "four_point"])
def test_contribution_mc_ks_test_rejects_a_non_normal_coordinate_with_exact_moments(
    monkeypatch, law
):
    """Mutant solvable/verification/confirmations/linear_node_scaling.py:169:core/NumberReplacer:67.

    The claim linear_node_scaling.contribution_moments checks Theorem 7.5's law N(lambda_j/S
    beta_inf, lambda_j (I - lambda_j/S V V^T)) of c_j by its mean and covariance "plus a KS
    test of one standardised coordinate at level 1e-3".  Samples built to have exactly the
    theorem's first and second moments (so the moment checks pass) are confirmed when that
    coordinate is normal (the N normal quantiles: KS distance ~ 1/N) and must fail when it
    is a four-point law (+-1/2, +-3/2 equally often: KS distance ~ 0.2, against a critical
    value ~ 1.95/sqrt(N) ~ 0.044 at N = 2000), which no moment check can see."""
    N = 2000
    X, y, _ = conf_lns.nl.linear_data(2, 3, seed=1)
    V = np.linalg.svd(X, full_matrices=False)[2].T  # (3, 2): the row space of X
    beta_inf = math.sqrt(3) * np.linalg.pinv(X) @ y  # sqrt(d) V D^-1 U^T y (Theorem 7.4)
    weights = zipf(sp.Rational(1, 2))
    lam = conf_lns.nl.scalings(10, 0.5, weights)
    if law == "normal":
        coordinate = stats.norm.ppf((np.arange(N) + 0.5) / N)
    else:
        coordinate = np.resize([-1.5, -0.5, 0.5, 1.5], N)
    rng = np.random.default_rng(0)
    c = np.stack([_exact_contribution_samples(lam[j], lam.sum(), beta_inf, V, coordinate, rng)
                  for j in (0, 1)], 1)  # fmt: skip
    smp = {"X": X, "y": y, "samples": N, "nodes": [0, 1],
           "cases": [{"m": 10, "gamma": 0.5, "name": "Zipf(0.5)", "weights": weights,
                      "lam": lam, "c": c}]}  # fmt: skip
    monkeypatch.setattr(conf_lns.nl, "contribution_samples", lambda full=False: smp)
    verdict = conf_lns._contribution_mc()
    ks, crit = map(float, re.search(r"KS (\S+) vs (\S+)$", verdict.detail).groups())
    assert "finite-m 0.00," in verdict.detail  # the moments are the theorem's (to rounding)
    if law == "normal":
        assert verdict.status == "confirmed", verdict.detail
        assert ks < crit, verdict.detail
    else:
        # the standardised atoms are +-1/sqrt(5), +-3/sqrt(5): sup |F_N - Phi| >= F_N(-0.447)
        # - Phi(-0.447) = 0.5 - 0.327 = 0.17; only the KS test can see it
        assert verdict.status == "failed", verdict.detail
        assert ks > 0.15, verdict.detail
    # the critical value at level 1e-3: the asymptotic Kolmogorov quantile is
    # 1.9495/sqrt(N); at N = 2000 the exact one is within 2% of it
    assert abs(crit * math.sqrt(N) - 1.9495) <= 0.04, verdict.detail


# ---------------------------------------------------------------------------
# xu_ziyin._fit: alpha_+ is the attracting fixed point, however slow the approach
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("h", ["1/40", "1/20", "1/8", "1/2"])
@pytest.mark.parametrize(("A", "B", "C"), [(2, -3, 2), (1, 1, 2), (1, 0, 4)])
def test_fit_reads_alpha_plus_minus_and_t_c_off_a_riccati_orbit_at_any_step(A, B, C, h):
    """Mutant solvable/verification/confirmations/xu_ziyin.py:258:core/NumberReplacer:142.

    alpha(t) solves ``d alpha/dt = -4 (A alpha^2 - B alpha - C)``, alpha(0) = 1 (the module
    docstring of solvable.models.xu_ziyin): fixed points alpha_+ = (B + D)/(2A) (attracting) and
    -alpha_- = (B - D)/(2A), D = sqrt(B^2 + 4AC) = 1/t_c, and ``(alpha - alpha_+)/(alpha +
    alpha_-) = xi(0) exp(-4 t/t_c)``.  From alpha at t = 0, h, 2h, 3h ``_fit`` must return
    alpha_+, alpha_-, t_c and alpha(4h) for every step h: the attracting point has the
    multiplier exp(-4h/t_c) < 1 also where the repelling one's, exp(4h/t_c), is below 2."""
    with mpmath.workdps(40):
        A, B, C = map(mpmath.mpf, (A, B, C))
        D = mpmath.sqrt(B**2 + 4 * A * C)
        ap, am, t_c = (B + D) / (2 * A), (D - B) / (2 * A), 1 / D
        xi0 = (1 - ap) / (1 + am)

        def alpha(t):
            w = xi0 * mpmath.exp(-4 * t / t_c)
            return (ap + am * w) / (1 - w)

        # the orbit is the Riccati solution: its ODE residual at t = 0.3 is at rounding level
        # (mpmath.diff by a 40-digit finite difference: 1e-25 leaves it 15 digits of slack)
        t0 = mpmath.mpf("0.3")
        ode = mpmath.diff(alpha, t0) + 4 * (A * alpha(t0) ** 2 - B * alpha(t0) - C)
        assert abs(ode) <= mpmath.mpf("1e-25"), ode
        assert abs(alpha(0) - 1) <= mpmath.mpf("1e-35")  # a few 40-digit roundings
        step = mpmath.mpf(Fraction(h).numerator) / Fraction(h).denominator
        samples = [alpha(k * step) for k in range(5)]
        fit = conf_xz._fit("generic", samples[:4], step)
        # 40-digit samples of a map whose multipliers are within exp(+-2D) of 1: the fit
        # (a 3x3 solve and a quadratic) loses at most ~10 digits to the samples' closeness,
        # so 1e-25 relative is far above its rounding
        tol = mpmath.mpf("1e-25")
        for key, want in (("alpha_plus", ap), ("alpha_minus", am), ("t_c", t_c),
                          ("prediction", samples[4])):  # fmt: skip
            assert abs(fit[key] - want) <= tol * abs(want), (key, fit[key], want, h)
        assert fit["alpha_prime"] is None
