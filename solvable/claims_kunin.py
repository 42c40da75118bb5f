"""Every claim of seed 003 (Kunin et al., "Get rich quick") that the package checks.

The poster's text is damaged; the claims are those listed in issue 4 and
re-derived here.  Symbolic claims return :func:`solvable.theorems.prove_zero`
verdicts; numeric ones compare with :func:`numerics.simulate`.
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import numpy as np
import sympy as sp

from solvable import kunin
from solvable._special import elementary
from solvable.flows import kunin_flow
from solvable.theorems import Theorem, Verdict, conservation_claims, prove_zero
from solvable.tolerance import Tolerance, error_in_units

SEED = "003_cfd8c5fad4b6665d.txt"

__all__ = ["claims"]


def _flow(n: int = 2, d: int = 2):
    flow = kunin_flow(n, d)
    a = flow.block("a")[0]
    w = flow.block("w")
    eta_a, eta_w = flow.params[0], flow.params[1]
    X = [list(flow.params[2 + i * d : 2 + (i + 1) * d]) for i in range(n)]
    y = list(flow.params[2 + n * d :])
    return flow, a, w, eta_a, eta_w, X, y


def _grad_beta(X, y, beta):
    # grad_beta L = X^T (X beta - y)
    n, d = len(X), len(X[0])
    r = [sum(X[i][j] * beta[j] for j in range(d)) - y[i] for i in range(n)]
    return [sum(X[i][j] * r[i] for i in range(n)) for j in range(d)]


def _beta_flow() -> Verdict:
    # d beta/dt = -M grad L with M = eta_w a^2 I + eta_a w w^T (n = 2, d = 2, any X)
    flow, a, w, ea, ew, X, y = _flow()
    beta = [a * wj for wj in w]
    g = _grad_beta(X, y, beta)
    d = len(w)
    res = []
    for j in range(d):
        Mg = ew * a**2 * g[j] + ea * w[j] * sum(w[k] * g[k] for k in range(d))
        res.append(flow.ddt(beta[j]) + Mg)
    return prove_zero(*res)


def _m_of_beta_delta() -> Verdict:
    # M = eta_w a^2 I + eta_a w w^T equals lambda_1 I + lambda_2 beta beta^T/|beta|^2 with
    # sigma = sqrt(delta^2 + 4 eta_a eta_w |beta|^2) = eta_w a^2 + eta_a |w|^2 (d = 2, a != 0)
    S = kunin.symbolic()
    a = sp.Symbol("a", nonzero=True, real=True)
    w = sp.symbols("w0:2", real=True)
    ea, ew = S.eta_a, S.eta_w
    beta = [a * wj for wj in w]
    b2 = sum(b**2 for b in beta)
    delta = ew * a**2 - ea * sum(wj**2 for wj in w)
    sigma = ew * a**2 + ea * sum(wj**2 for wj in w)
    lam1 = S.exprs["lambda_1"].subs(S.exprs["sigma"], sigma).subs(S.delta, delta)
    lam2 = S.exprs["lambda_2"].subs(S.exprs["sigma"], sigma).subs(S.delta, delta)
    res = [sigma**2 - (delta**2 + 4 * ea * ew * b2)]  # sigma is that square root (sigma > 0)
    for i in range(2):
        for j in range(2):
            M = ew * a**2 * (1 if i == j else 0) + ea * w[i] * w[j]
            res.append(M - (lam1 * (1 if i == j else 0) + lam2 * beta[i] * beta[j] / b2))
    return prove_zero(*res)


def _regimes() -> Verdict:
    # delta -> +oo: M/delta -> I; delta = 0: M = sqrt(eta_a eta_w)|beta|(I + bb^T/|b|^2);
    # delta -> -oo: M/|delta| -> bb^T/|b|^2
    S = kunin.symbolic()
    l1, l2 = S.exprs["lambda_1"], S.exprs["lambda_2"]
    d = S.delta
    rich = sp.sqrt(S.eta_a * S.eta_w * S.beta2)
    return prove_zero(
        sp.limit(l1 / d, d, sp.oo) - 1,
        sp.limit(l2 / d, d, sp.oo),
        l1.subs(d, 0) - rich,
        l2.subs(d, 0) - rich,
        sp.limit(l1 / -d, d, -sp.oo),
        sp.limit(l2 / -d, d, -sp.oo) - 1,
    )


def _ntk() -> Verdict:
    # d(X beta)/dt = -X M X^T (X beta - y): the NTK on the data is K = X M X^T (n = 2, d = 2)
    flow, a, w, ea, ew, X, y = _flow()
    beta = [a * wj for wj in w]
    n, d = len(X), len(w)
    f = [sum(X[i][j] * beta[j] for j in range(d)) for i in range(n)]
    r = [f[i] - y[i] for i in range(n)]

    def M(p, q):
        return ew * a**2 * (1 if p == q else 0) + ea * w[p] * w[q]

    K = [[sum(X[i][p] * M(p, q) * X[k][q] for p in range(d) for q in range(d)) for k in range(n)]
         for i in range(n)]  # fmt: skip
    return prove_zero(*(flow.ddt(f[i]) + sum(K[i][k] * r[k] for k in range(n)) for i in range(n)))


def _reduction() -> Verdict:
    # whitened inputs (X = I_2): z = (a/sqrt(eta_a), w/sqrt(eta_w)) obeys
    # dz/dt = G z - (kappa^2/2)|z|^2 z, G = [[delta/2, kappa y^T], [kappa y, -delta/2 I]]
    flow, a, w, ea, ew, X, y = _flow(2, 2)
    ident = {X[0][0]: 1, X[0][1]: 0, X[1][0]: 0, X[1][1]: 1}
    kappa = sp.sqrt(ea * ew)
    delta = ew * a**2 - ea * (w[0] ** 2 + w[1] ** 2)
    z = [a / sp.sqrt(ea), w[0] / sp.sqrt(ew), w[1] / sp.sqrt(ew)]
    zz = sum(v**2 for v in z)
    G = sp.Matrix(
        [[delta / 2, kappa * y[0], kappa * y[1]],
         [kappa * y[0], -delta / 2, 0],
         [kappa * y[1], 0, -delta / 2]]
    )  # fmt: skip
    Gz = G * sp.Matrix(z)
    res = [(flow.ddt(z[i]) - (Gz[i] - kappa**2 / 2 * zz * z[i])).subs(ident) for i in range(3)]
    return prove_zero(*res)


def _bernoulli_lemma() -> Verdict:
    # z = y/sqrt(phi) with dy/dt = G y and dphi/dt = kappa^2 |y|^2 solves dz/dt = Gz - k^2/2|z|^2 z
    yv = sp.symbols("y0:3", real=True)
    phi, k = sp.symbols("phi kappa", positive=True)
    G = sp.Matrix(3, 3, lambda i, j: sp.Symbol(f"G{min(i, j)}{max(i, j)}"))  # symmetric
    Y = sp.Matrix(yv)
    dY = G * Y
    dphi = k**2 * (Y.T * Y)[0]
    z = Y / sp.sqrt(phi)
    dz = dY / sp.sqrt(phi) - Y * dphi / (2 * phi ** sp.Rational(3, 2))
    zz = (z.T * z)[0]
    return prove_zero(*(dz - (G * z - k**2 / 2 * zz * z)))


def _textbook_solution() -> Verdict:
    # e^{Jt} = cosh(Omega t) I + sinh(Omega t)/Omega J solves dY/dt = J Y, Y(0) = I;
    # phi of the docstring has dphi/dt = kappa^2 (|e^{Jt} c|^2 + e^{-delta t} c_perp^2), phi(0) = 1
    S = kunin.symbolic()
    tb = S.textbook
    J, eJ, t = tb["J"], tb["eJ"], S.t
    c = sp.Matrix([S.c0, S.c1])
    y = eJ * c
    res = [sp.simplify((sp.diff(eJ[i], t) - (J * eJ)[i]).rewrite(sp.exp)) for i in range(4)]
    res += [(eJ.subs(t, 0) - sp.eye(2))[i] for i in range(4)]
    rate = S.kappa**2 * ((y.T * y)[0] + sp.exp(-S.delta * t) * S.cperp**2)
    res.append((sp.diff(tb["phi"], t) - rate).rewrite(sp.exp))
    res.append(sp.limit(tb["phi"], t, 0) - 1)
    return prove_zero(*res)


def _stable_solution() -> Verdict:
    # the evaluated form: e^{-Omega t} e^{Jt} c = c_+ v_+ + c_- e^{-2 Omega t} v_- and
    # phi_hat = e^{-2 Omega t} phi, for each sign branch of delta
    S = kunin.symbolic()
    ex, tb = S.exprs, S.textbook
    Omx = ex["Omega"]
    t = S.t
    res = []
    for sign in (1, -1):
        dl = sp.Symbol("dpos", positive=True) * sign
        branch = 0 if sign > 0 else 1
        raw = ex["v_raw"].args[branch][0]
        nrm = sp.sqrt(raw[0] ** 2 + raw[1] ** 2)
        vx, vy = raw[0] / nrm, raw[1] / nrm
        cp = vx * S.c0 + vy * S.c1
        cm = -vy * S.c0 + vx * S.c1
        E2 = sp.exp(-2 * S.Omega * t)
        stable = sp.Matrix([cp * vx - cm * E2 * vy, cp * vy + cm * E2 * vx])
        textbook = sp.exp(-S.Omega * t) * tb["eJ"].subs(Omx, S.Omega) * sp.Matrix([S.c0, S.c1])
        om = {S.Omega: Omx}
        for r in stable - textbook:
            res.append(sp.expand(r.subs(om).subs(S.delta, dl).rewrite(sp.exp)))
        # both Piecewise in phi_hat test delta >= 0 first: take this sign's branch
        phi_hat = elementary(ex["phi_hat"]).replace(
            lambda z: isinstance(z, sp.Piecewise), lambda z, b=branch: z.args[b][0]
        )
        # the cancellation-free Omega + delta/2 of the delta < 0 branch (proved equal below)
        om_neg = ex["om_plus"].args[1][0]
        phi_hat = phi_hat.subs(om_neg, S.Omega + S.delta / 2)
        res.append(sp.simplify((om_neg - (S.Omega + S.delta / 2)).subs(S.Omega, Omx)))
        phi_hat = phi_hat.subs({S.c_plus: cp, S.c_minus: cm})
        target = sp.exp(-2 * S.Omega * t) * tb["phi"].subs(Omx, S.Omega)
        diff = (phi_hat - target).subs(om).subs(S.delta, dl)
        res.append(sp.simplify(sp.expand(diff.rewrite(sp.exp))))
    return prove_zero(*res)


# ---------------------------------------------------------------------------
# numeric claims
# ---------------------------------------------------------------------------
def _oracle(dps: int = 30, cases: Sequence[str] | None = None) -> Verdict:
    """Closed form vs simulated raw flow over the single-neuron suite, dps - 5 digits."""
    import numerics
    from solvable.suites import KUNIN_SUITE

    tol = Tolerance.digits(dps - 5, "Taylor integrator at dps + 20 digits, closed form at dps + 10")
    worst, where, n = 0.0, "", 0
    for case in KUNIN_SUITE:
        if cases is not None and case.name not in cases:
            continue
        n += 1
        traj = kunin.closed_form(case.setup, case.a0, case.w0, dps=dps)
        with mpmath.workdps(dps + 10):
            scale = 1 / (traj.Omega if traj.Omega > 0 else 1)
            times = [mpmath.mpf(0), scale / 10, scale, 10 * scale]
        exact = traj.sample(times)
        sim = numerics.simulate(case.setup, case.a0, case.w0, times, method="mpmath", dps=dps)
        for k, t in enumerate(times):
            for name, got, ref in (
                ("a", [sim[k].a], [exact.a[k]]), ("w", sim[k].w, exact.w[k]),
                ("beta", sim[k].beta, exact.beta[k]),
            ):  # fmt: skip
                err = error_in_units(got, ref, tol)
                if err > worst:
                    worst, where = err, f"{case.name}: {name} at t={mpmath.nstr(t, 5)}"
    status = "confirmed" if worst <= 1 else "failed"
    return Verdict(
        status,
        f"{n} cases x 4 times (t in 0, 1/10, 1, 10 x 1/Omega); worst {worst:.2g} tolerances"
        + (f" ({where})" if where else ""),
        max_error=worst,
        tolerance=tol,
    )


def _xu_ziyin_cross(dps: int = 30) -> Verdict:
    """One hidden neuron, one input (d = d0 = 1, rank-1 data): kunin with (eta_a, eta_w) and
    L = 1/2 (...)^2 is Xu & Ziyin with gamma = 1, rates (eta_a/2, eta_w/2) and L = (...)^2."""
    from solvable import xu_ziyin

    tol = Tolerance.digits(dps - 5, "two closed forms at dps + 10 guard digits")
    worst = 0.0
    for x, yv, a0, w0, ea, ew in (
        ("0.8", "1.5", "0.3", "-0.2", "1", "0.5"),
        ("1", "-1", "-0.4", "0.7", "3", "0.2"),
        ("0.6", "2", "0.01", "0.02", "1", "1"),
    ):
        ks = kunin.Setup(ea, ew, [[x]], [yv])
        with mpmath.workdps(dps + 10):
            half = [mpmath.mpf(ea) / 2, mpmath.mpf(ew) / 2]
        xs = xu_ziyin.Setup(half[0], half[1], 1, [x], yv)
        kt = kunin.closed_form(ks, a0, [w0], dps=dps)
        xt = xu_ziyin.closed_form(xs, [a0], [[w0]], dps=dps)
        with mpmath.workdps(dps + 10):
            times = [mpmath.mpf(0), xt.t_c / 10, xt.t_c, 10 * xt.t_c]
        ka, xa = kt.sample(times), xt.sample(times)
        for k in range(len(times)):
            worst = max(worst, error_in_units([ka.a[k]], [xa.u[k][0]], tol))
            worst = max(worst, error_in_units(ka.w[k], xa.W[k][:, 0], tol))
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"3 setups x 4 times, both closed forms at dps={dps}; worst {worst:.2g} tolerances",
        max_error=worst,
        tolerance=tol,
    )


def _delta_continuity(dps: int = 40) -> Verdict:
    """The balanced solution is the limit of unbalanced ones: moving a0 so that delta goes
    through 1e-12, 1e-18, 0, -1e-18, -1e-12 changes the state continuously (|change| <= C
    |delta| with C fixed by the two largest |delta|), at t in {1, 10} / Omega."""
    S_w = ["0.3", "-0.4"]
    setup = kunin.Setup("1", "1", [["1", "0"], ["0", "1"]], ["1", "0.5"])
    with mpmath.workdps(dps + 20):
        out = {}  # a0^2 = |w0|^2 + delta (equal rates): delta = 0 at a0 = 0.5
        for dlt in ("1e-12", "1e-18", "0", "-1e-18", "-1e-12"):
            a0 = mpmath.sqrt(mpmath.mpf("0.25") + mpmath.mpf(dlt))
            traj = kunin.closed_form(setup, a0, S_w, dps=dps)
            out[dlt] = traj.sample([1, 10])
        base = out["0"]
        slope = max(abs(out["1e-12"].a[k] - base.a[k]) / mpmath.mpf("1e-12") for k in range(2))
        worst = 0.0
        for dlt in ("1e-18", "-1e-18", "-1e-12"):
            for k in range(2):
                change = abs(out[dlt].a[k] - base.a[k])
                bound = 2 * slope * abs(mpmath.mpf(dlt)) + mpmath.mpf(10) ** (-dps + 2)
                worst = max(worst, float(change / bound))
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"|a(delta) - a(0)| <= 2 C |delta| through delta = 0 (C = {mpmath.nstr(slope, 3)}); "
        f"worst {worst:.2g} of the bound",
        max_error=worst,
    )


def _mp_matrix(rows):
    return mpmath.matrix([[mpmath.mpf(v) for v in r] for r in rows])


def _wide_blocks(flat, h: int, c: int, d: int):
    """A (h x c) and W (h x d) from the flat state (or its derivative) of ``wide_flow``."""
    A = mpmath.matrix([[flat[i * c + j] for j in range(c)] for i in range(h)])
    W = mpmath.matrix([[flat[h * c + i * d + j] for j in range(d)] for i in range(h)])
    return A, W


def _wide_self_consistent(dps: int = 30) -> Verdict:
    """Part II (Theorem 4.2): for f = A^T W x started from Delta = eta_W A A^T - eta_A W W^T
    = delta I_h (h = d when delta < 0, h = c when delta > 0), along the simulated flow
    (i) Delta stays delta I and (ii) d beta/dt of the raw flow (beta = W^T A) equals
    -1/2 (sqrt(delta^2 I + 4 k^2 beta beta^T) - delta I) G - 1/2 G (sqrt(delta^2 I +
    4 k^2 beta^T beta) + delta I), G = grad_beta L, k^2 = eta_A eta_W; dps - 5 digits."""
    from numerics import mp
    from solvable.flows import wide_flow

    n, d, c = 4, 3, 2
    Xr = [["0.5", "-0.2", "0.9"], ["0.1", "0.7", "-0.4"], ["-0.6", "0.3", "0.2"],
          ["0.8", "0.5", "0.1"]]  # fmt: skip
    Yr = [["1", "-0.5"], ["0.3", "0.8"], ["-0.7", "0.2"], ["0.4", "1.1"]]
    eA, eW = mpmath.mpf(1), mpmath.mpf("0.5")
    tol = Tolerance.digits(dps - 5, "Taylor integrator at dps + 20 digits, mpmath sqrtm")
    worst, checked = 0.0, []
    for delta_s, h in (("-0.7", d), ("0.6", c)):
        with mpmath.workdps(dps + 20):
            delta = mpmath.mpf(delta_s)
            if h == d:  # choose A, then W W^T = (eta_W A A^T - delta I)/eta_A
                A = _mp_matrix([["0.3", "-0.2"], ["0.5", "0.1"], ["-0.4", "0.6"]])
                WWt = (eW * A * A.T - delta * mpmath.eye(h)) / eA
                W = mpmath.cholesky(WWt)  # h x h = h x d
            else:  # choose W, then A A^T = (delta I + eta_A W W^T)/eta_W
                W = _mp_matrix([["0.4", "0.1", "-0.3"], ["-0.2", "0.5", "0.2"]])
                AAt = (delta * mpmath.eye(h) + eA * W * W.T) / eW
                A = mpmath.cholesky(AAt)  # h x h = h x c
            flow = wide_flow(n, d, h, c)
            params = [eA, eW, *[mpmath.mpf(v) for r in Xr for v in r],
                      *[mpmath.mpf(v) for r in Yr for v in r]]  # fmt: skip
            y0 = [A[i, j] for i in range(h) for j in range(c)] + [
                W[i, j] for i in range(h) for j in range(d)
            ]
        prog = mp.compile_polynomial(flow.state, flow.params, flow.rhs)
        times = [mpmath.mpf("0.5"), mpmath.mpf(2)]
        ys, _ = mp.integrate(
            prog, params, flow.params, y0, times, dps, [(0, h * c), (h * c, len(y0))]
        )
        rhs = sp.lambdify((flow.state, flow.params), list(flow.rhs), "mpmath")
        with mpmath.workdps(dps + 20):
            X, Y = _mp_matrix(Xr), _mp_matrix(Yr)
            k2 = eA * eW
            for yv in ys:
                At, Wt = _wide_blocks(yv, h, c, d)
                Delta = eW * At * At.T - eA * Wt * Wt.T
                got = [Delta[i, j] for i in range(h) for j in range(h)]
                ref = [delta if i == j else 0 for i in range(h) for j in range(h)]
                worst = max(worst, error_in_units(got, ref, tol))
                dy = rhs(yv, params)
                dA, dW = _wide_blocks(dy, h, c, d)
                beta = Wt.T * At
                dbeta = dW.T * At + Wt.T * dA
                G = X.T * (X * beta - Y)
                Id, Ic = mpmath.eye(d), mpmath.eye(c)
                left = mpmath.sqrtm(delta**2 * Id + 4 * k2 * beta * beta.T) - delta * Id
                right = mpmath.sqrtm(delta**2 * Ic + 4 * k2 * beta.T * beta) + delta * Ic
                formula = -(left * G + G * right) / 2
                got = [dbeta[i, j] for i in range(d) for j in range(c)]
                ref = [formula[i, j] for i in range(d) for j in range(c)]
                worst = max(worst, error_in_units(got, ref, tol))
        checked.append(f"delta={delta_s}, h={h}")
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"{'; '.join(checked)} (n={n}, d={d}, c={c}), t in {{0.5, 2}}: Delta - delta I and the "
        f"self-consistent d beta/dt; worst {worst:.2g} tolerances",
        max_error=worst,
        tolerance=tol,
    )


def _relu_conservation() -> Verdict:
    """Part II: along a simulated ReLU net f = a^T relu(W x) (h = 8, d = 3, n = 10, targets
    from a 3-neuron ReLU teacher, rates eta_a = 1, eta_w = 0.4), every delta_k =
    eta_w a_k^2 - eta_a |w_k|^2 stays constant through activation changes, checked after
    every accepted DOP853 step (rtol 1e-12).  The hand-written ReLU gradient is first
    checked against the sympy gradient of the loss (solvable.flows.piecewise_linear_flow)
    inside one activation region.

    The data seed (3) is fixed: with other seeds a neuron can slide along its kink
    (a Filippov sliding mode, where the flow pushes w_k . x_i towards 0 from both sides),
    which an explicit integrator resolves only with ever smaller steps; the step cap turns
    that into a failure instead of a hang.  Conservation itself holds there too (sigma(z) =
    sigma'(z) z makes both sides' contributions equal), as the per-region proof shows."""
    from scipy.integrate import DOP853

    from solvable.flows import piecewise_linear_flow

    rng = np.random.default_rng(3)
    h, d, n = 8, 3, 10
    X = rng.normal(size=(n, d))
    teacher_W, teacher_a = rng.normal(size=(3, d)), rng.normal(size=3)
    y = teacher_a @ np.maximum(teacher_W @ X.T, 0)
    ea, ew = 1.0, 0.4
    a0 = rng.normal(size=h)
    W0 = rng.normal(size=(h, d))

    def grads(a, W, X, y):
        z = W @ X.T  # h x n
        act = (z > 0).astype(float)
        r = a @ (act * z) - y  # n
        return -ea * (act * z) @ r, -ew * (a[:, None] * act * r[None, :]) @ X

    # hand-written gradient vs the sympy gradient of the loss (n = 2, h = 2 sub-problem)
    flow = piecewise_linear_flow(2, d, 2)
    slopes = (W0[:2] @ X[:2].T > 0).astype(float)
    params = [ea, ew, *X[:2].ravel(), *y[:2], *slopes.ravel()]
    f = sp.lambdify((flow.state, flow.params), list(flow.rhs), "numpy")
    ref = np.array(f([*a0[:2], *W0[:2].ravel()], params), dtype=float)
    da, dW = grads(a0[:2], W0[:2], X[:2], y[:2])
    grad_err = float(np.max(np.abs(np.concatenate([da, dW.ravel()]) - ref)) / np.max(np.abs(ref)))

    def rhs(_t, yv):
        da, dW = grads(yv[:h], yv[h:].reshape(h, d), X, y)
        return np.concatenate([da, dW.ravel()])

    solver = DOP853(rhs, 0.0, np.concatenate([a0, W0.ravel()]), 2.0, rtol=1e-12, atol=1e-14)
    scale = float(np.max(ew * a0**2 + ea * np.sum(W0**2, axis=1)))
    delta0 = ew * a0**2 - ea * np.sum(W0**2, axis=1)
    drift, flips, steps, cap = 0.0, 0, 0, 5000
    prev = W0 @ X.T > 0
    while solver.status == "running" and steps < cap:
        solver.step()
        steps += 1
        a, W = solver.y[:h], solver.y[h:].reshape(h, d)
        drift = max(drift, float(np.max(np.abs(ew * a**2 - ea * np.sum(W**2, axis=1) - delta0))))
        now = W @ X.T > 0
        flips += int(np.sum(now != prev))
        prev = now
    # per-step local error <= 1e-12 relative (the step controller also rejects steps
    # across a kink until they meet it); a few hundred steps: 1e-9 of the weight scale
    tol = Tolerance(rtol=1e-9, reason="DOP853 at rtol 1e-12 over <= 5000 steps")
    ok = solver.status == "finished" and grad_err < 1e-13 and drift <= 1e-9 * scale and flips > 0
    return Verdict(
        "confirmed" if ok else "failed",
        f"max |delta_k(t) - delta_k(0)| = {drift:.1e} (scale {scale:.2f}) over t in [0, 2], "
        f"{steps} steps ({solver.status}), {flips} activation changes; hand-written vs sympy "
        f"gradient {grad_err:.1e}",
        max_error=drift / (1e-9 * scale),
        tolerance=tol,
    )


def claims() -> list[Theorem]:
    """Every claim of seed 003 that is registered."""

    def T(id_, where, statement, fn, kind="symbolic"):
        return Theorem(f"kunin.{id_}", f"{SEED} {where}", statement, kind, fn)

    laws = conservation_claims("kunin")
    return [
        *laws,
        T("beta_flow", "Part I (self-consistent flow)",
          "d beta/dt = -M grad_beta L with M = eta_w a^2 I + eta_a w w^T.", _beta_flow),
        T("M_of_beta_delta", "Part I",
          "M = (sigma + delta)/2 I + (sigma - delta)/2 beta beta^T/|beta|^2, "
          "sigma = sqrt(delta^2 + 4 eta_a eta_w |beta|^2).", _m_of_beta_delta),
        T("ntk", "Part I", "The NTK on the data is K = X M X^T.", _ntk),
        T("regimes", "Part I, regimes 1-3 (corrected, see errata)",
          "delta -> +oo: M ~ delta I (lazy); delta = 0: M = sqrt(eta_a eta_w)|beta|(I + "
          "bb^T/|b|^2) (rich); delta -> -oo: M ~ |delta| bb^T/|b|^2 (delayed rich).", _regimes),
        T("whitened_reduction", "Part I (exact solution)",
          "For X^T X = I: z = (a/sqrt(eta_a), w/sqrt(eta_w)) obeys dz/dt = G z - "
          "(kappa^2/2)|z|^2 z (a Riccati flow in the plane of (a, beta*), Bernoulli norm).",
          _reduction),
        T("bernoulli_lemma", "Part I (exact solution)",
          "z = e^{Gt} z0 / sqrt(phi), phi' = kappa^2 |e^{Gt} z0|^2, phi(0) = 1, solves it.",
          _bernoulli_lemma),
        T("textbook_solution", "Part I (exact solution)",
          "e^{Jt} = cosh(Omega t) + sinh(Omega t) J/Omega and the closed-form phi(t).",
          _textbook_solution),
        T("stable_solution", "Part I (evaluation form)",
          "The evaluated form (eigen-decomposed, all terms >= 0, exponents <= 0) equals the "
          "textbook one for delta > 0 and delta < 0.", _stable_solution),
        T("closed_form_oracle", "Part I (exact solution)",
          "Closed form and the simulated raw flow agree to dps - 5 digits in a, w, beta over "
          "the suite (delta <, =, > 0; a of both signs; unequal rates; beta0 parallel, "
          "antiparallel, orthogonal to beta*).", _oracle, kind="numeric"),
        T("delta_continuity", "Part I (balanced limit)",
          "The balanced (delta = 0) solution is the continuous limit of unbalanced ones.",
          _delta_continuity, kind="numeric"),
        T("wide_self_consistent", "Part II, Theorem 4.2",
          "From Delta = delta I (h = d if delta < 0, h = c if delta > 0) the simulated wide "
          "net keeps Delta = delta I and beta = W^T A follows the self-consistent flow.",
          _wide_self_consistent, kind="numeric"),
        T("relu_conservation", "Part II (piecewise-linear nets)",
          "delta_k is conserved along a simulated ReLU net through activation changes.",
          _relu_conservation, kind="numeric"),
        T("xu_ziyin_cross_check", "seed 001 Theorem 1 vs seed 003",
          "With one hidden neuron and rank-1 (d = 1) data the two closed forms coincide.",
          _xu_ziyin_cross, kind="numeric"),
    ]  # fmt: skip
