"""Seed 002, the errata (:func:`errata`): (4.2) lacks the factor ``<x, x'>``; the
index slips of (2.29), (4.1) and (4.4); Table 1's Kaiming (Pytorch) row and Table 1 with
(2.3); each with the residuals of the printed and the corrected reading."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import sympy as sp

from solvable._core import activations as act
from solvable._core.claims import Erratum
from solvable.models.kernels.closed_forms import exercise_printed_ntk
from solvable.models.kernels.proofs import _polar_kernels, _uniform_mean
from solvable.models.kernels.symbols import A2, N1, N2, RHO, S2, SEED, THETA, D
from solvable.models.kernels.table_1 import P, default_initialisation, table_1_covariance
from solvable.models.linearisation import network_output

# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
_SIGMA = sp.Function("sigma")


def _cubic(z: sp.Expr) -> sp.Expr:
    # a concrete smooth activation for printed residuals (closed numbers at a rational point)
    return z + z**3 / 3


def _eq42_factor() -> tuple[sp.Expr, sp.Expr]:
    # K_NTK from the definition (polar integration, Exercise 1 init) at theta = acos(rho)
    # against the printed and the corrected right-hand sides of (4.2)
    definition = _polar_kernels()["ntk_first_layer"].subs({A2: 1, S2: 1}).subs(THETA, sp.acos(RHO))
    corrected = N1 * N2 * RHO * exercise_printed_ntk()
    return exercise_printed_ntk() - definition, corrected - definition


def _two_unit_network(shared_w: bool = False, sigma: Callable = _SIGMA):
    """The package's network (:func:`solvable.models.linearisation.network_output`) with p = 2
    units, d = 1: f = (a0 s(w0 x) + a1 s(w1 x))/sqrt(2) (``shared_w``: w0 = w1 = w, the
    printed (4.1))."""
    a = sp.symbols("a0 a1", real=True)
    w = sp.symbols("w0 w1", real=True) if not shared_w else (sp.Symbol("w", real=True),) * 2
    params = list(a) + list(dict.fromkeys(w))
    W = np.array([[w[0]], [w[1]]], dtype=object)
    sig = np.vectorize(sigma, otypes=[object])

    def f(x: sp.Expr) -> sp.Expr:
        X = np.array([[x]], dtype=object)
        return sp.sympify(network_output(W, np.array(a, dtype=object), X, sig,
                                         1 / sp.sqrt(2))[0], strict=True)  # fmt: skip

    return a, w, params, f


def _gram_entry(f: Callable, params: list, x: sp.Expr, xp: sp.Expr, block: list) -> sp.Expr:
    return sum(sp.diff(f(x), t) * sp.diff(f(xp), t) for t in block)


def _dsigma(sigma: Callable, z: sp.Expr) -> sp.Expr:
    s = sp.Dummy("s")
    return sp.diff(sigma(s), s).subs(s, z)


def _eq229_index() -> tuple[sp.Expr, sp.Expr]:
    # W block of (2.25) for p = 2, d = 1.  Printed: "sigma'(<w(t), x>)" read with one w (w_1)
    # for every j, evaluated with sigma = z + z^3/3; corrected: sigma'(<w_j, x>) with a
    # generic sigma (symbolic identity)
    x, xp = sp.symbols("x xp", real=True)

    def residual(sigma: Callable, printed: bool) -> sp.Expr:
        a, w, params, f = _two_unit_network(sigma=sigma)
        exact = _gram_entry(f, params, x, xp, list(w))
        wj = [w[0], w[0]] if printed else list(w)
        formula = x * xp / 2 * sum(a[j] ** 2 * _dsigma(sigma, wj[j] * x)
                                   * _dsigma(sigma, wj[j] * xp) for j in range(2))  # fmt: skip
        return formula - exact

    return residual(_cubic, True), residual(_SIGMA, False)


def _eq41_index() -> tuple[sp.Expr, sp.Expr]:
    # (4.1) as printed shares one w between all units: its W-gradient Gram is
    # (1/p)(sum_j a_j)^2 sigma' sigma' <x,x'>, not (4.4)'s sum_j a_j^2 sigma'_j sigma'_j;
    # corrected (w_j): the W-gradient Gram equals (4.4) exactly (generic sigma)
    x, xp = sp.symbols("x xp", real=True)

    def residual(sigma: Callable, shared: bool) -> sp.Expr:
        a, w, params, f = _two_unit_network(shared, sigma)
        exact = _gram_entry(f, params, x, xp, list(dict.fromkeys(w)))
        eq44 = x * xp / 2 * sum(a[j] ** 2 * _dsigma(sigma, w[j] * x) * _dsigma(sigma, w[j] * xp)
                                for j in range(2))  # fmt: skip
        return exact - eq44

    return residual(_cubic, True), residual(_SIGMA, False)


def _eq44_inputs() -> tuple[sp.Expr, sp.Expr]:
    # entry (1, 1) of the Gram matrix on data x_1, x_2 (d = 1, p = 2): printed factor <x, x'>
    # read as <x_1, x_2> for every entry; corrected <x_i, x_j> (generic sigma)
    x1, x2 = sp.symbols("x1 x2", real=True)

    def residual(sigma: Callable, printed: bool) -> sp.Expr:
        a, w, params, f = _two_unit_network(sigma=sigma)
        exact = _gram_entry(f, params, x1, x1, list(w))
        factor = x1 * x2 if printed else x1 * x1
        eq44 = factor / 2 * sum(a[j] ** 2 * _dsigma(sigma, w[j] * x1) ** 2 for j in range(2))
        return eq44 - exact

    return residual(_cubic, True), residual(_SIGMA, False)


def _table_1_pytorch() -> tuple[sp.Expr, sp.Expr]:
    # squared bound of the output-layer weights (fan_in = p).  torch.nn.Linear's default is
    # kaiming_uniform_(a = sqrt(5)): bound^2 = gain^2 * 3 / fan_in with the leaky-ReLU gain
    # gain^2 = 2/(1 + a^2) = 1/3, i.e. 1/p; the printed row, 6/p, is kaiming_uniform_ with the
    # ReLU gain sqrt(2) (a = 0).  Residuals: printed minus the default; corrected minus it.
    def bound_sq(a: sp.Expr) -> sp.Expr:
        return 2 / (1 + a**2) * 3 / P

    default = bound_sq(sp.sqrt(5))
    return default_initialisation("kaiming").a_bound ** 2 - default, 1 / P - default


def _table_1_ntk_scaling() -> tuple[sp.Expr, sp.Expr]:
    # Printed: Table 1's rows are the NTK scaling (2.3) (summands of O(1) variance, a
    # non-degenerate GP limit): lim Var_Xavier f(x) / Var_Kaiming f(x) = 1 (ReLU, b = 0).
    # It is 0.  Corrected: Var_Xavier f(x) = 2 p |x|^2/((p+1)(p+d)), from the uniform laws
    # integrated directly (one coordinate axis), and -> 0.
    var_k = table_1_covariance("kaiming").subs(N2, N1)
    init = default_initialisation("xavier")
    relu = act.activation("relu")
    direct = (P * _uniform_mean(lambda u: u**2, init.a_bound)
              * _uniform_mean(lambda w: relu.subs(act.Z, N1 * w) ** 2, init.w_bound))  # fmt: skip
    printed = sp.limit(direct / var_k, P, sp.oo) - 1
    corrected = direct - 2 * P * N1**2 / ((P + 1) * (P + D))
    return printed, corrected + sp.limit(direct, P, sp.oo)


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    s = SEED
    return (
        Erratum(
            s, "(4.2)",
            "K_NTK(x, x') := <x, x'> E_{a,w}[a^2 sigma'(<w, x_i>) sigma'(<w, x_j>)] = 1/2 - "
            "(1/(2 pi)) arccos(<x, x'>/(|x| |x'|))",
            "K_NTK(x, x') := <x, x'> E_{a,w}[a^2 sigma'(<w, x>) sigma'(<w, x'>)] = <x, x'> "
            "(1/2 - (1/(2 pi)) arccos(<x, x'>/(|x| |x'|)))",
            "With a^2 = 1 and w ~ N(0, I_d) the expectation is E[1{u>0}1{v>0}] = 1/2 - "
            "arccos(rho)/(2 pi) (orthant probability), and the definition keeps the factor "
            "<x, x'>; the printed value is scale-free and e.g. gives K_NTK(x, x') = 1/4 for "
            "orthogonal inputs instead of 0, and 1/2 instead of |x|^2/2 on the diagonal (the "
            "subscripts x_i, x_j inside the expectation should read x, x'). Residuals: each "
            "right-hand side minus K_NTK integrated from the definition in polar coordinates; "
            "claim kernels.monte_carlo_exercise_1 confirms by simulation.",
            _eq42_factor,
        ),
        Erratum(
            s, "(2.29)",
            "... + <x, x'>/p sum_j a_j^2 sigma'(<w(t), x>) sigma'(<w(t), x'>)",
            "... + <x, x'>/p sum_j a_j^2 sigma'(<w_j(t), x>) sigma'(<w_j(t), x'>)",
            "The derivative factors belong to unit j (d f/d w_j = a_j sigma'(<w_j, x>) x / "
            "sqrt(p)); read literally with one w the sum is a different quantity. Residuals "
            "(p = 2, d = 1): the W block of the NTK minus each form, printed with w = w_1 and "
            "sigma(z) = z + z^3/3, corrected for a generic sigma.",
            _eq229_index,
            changes_math=False,
        ),
        Erratum(
            s, "(4.1)",
            "f(x; theta) = p^(-1/2) sum_j a_j sigma(<w, x>),  w^0 ~ N(0, I_d)",
            "f(x; theta) = p^(-1/2) sum_j a_j sigma(<w_j, x>),  w_j^0 ~ N(0, I_d) i.i.d.",
            "With one shared w the W-gradient Gram is (1/p)(sum_j a_j)^2 sigma' sigma' <x, x'>, "
            "not the sum_j a_j^2 sigma'(<w_j, x_i>) sigma'(<w_j, x_j>) of (4.4) that the "
            "exercise uses. Residuals (p = 2, d = 1): W-gradient Gram minus (4.4), for the "
            "shared-w model (sigma = z + z^3/3) and for the per-unit model (generic sigma).",
            _eq41_index,
            changes_math=False,
        ),
        Erratum(
            s, "(4.4)",
            "K^_NTK,ij = <x, x'>/p sum_{j=1}^p a_j^2 sigma'(<w_j, x_i>) sigma'(<w_j, x_j>), "
            "K_NTK,ij = K_NTK(x, x')",
            "K^_NTK,ij = <x_i, x_j>/p sum_{k=1}^p a_k^2 sigma'(<w_k, x_i>) sigma'(<w_k, x_j>), "
            "K_NTK,ij = K_NTK(x_i, x_j)",
            "The entry (i, j) needs the inputs x_i, x_j in the prefactor and in K_NTK, and a "
            "summation index other than the column index j. Residuals (n = 2, p = 2, d = 1): "
            "entry (1, 1) of the W-gradient Gram minus the formula, with <x, x'> read as "
            "<x_1, x_2> (printed, sigma = z + z^3/3) and as <x_1, x_1> (corrected, generic "
            "sigma).",
            _eq44_inputs,
            changes_math=False,
        ),
        Erratum(
            s, "Table 1 (Kaiming (Pytorch) row)",
            "Pytorch default: a_j ~ Unif[-sqrt(6/p), sqrt(6/p)], w_jk ~ Unif[-sqrt(6/d), "
            "sqrt(6/d)], b = 0",
            "Pytorch's nn.Linear default is kaiming_uniform_(a = sqrt(5)): a_j ~ "
            "Unif[-1/sqrt(p), 1/sqrt(p)], w_jk ~ Unif[-1/sqrt(d), 1/sqrt(d)], b_j ~ "
            "Unif[-1/sqrt(d), 1/sqrt(d)]; the printed row is Kaiming-He uniform with the ReLU "
            "gain (kaiming_uniform_(nonlinearity='relu'))",
            "torch.nn.Linear.reset_parameters calls kaiming_uniform_(weight, a=sqrt(5)), whose "
            "bound gain * sqrt(3/fan_in) with gain^2 = 2/(1 + a^2) = 1/3 is 1/sqrt(fan_in), and "
            "draws the bias from the same interval. (2.2) holds either way (std a_j = "
            "1/sqrt(3p)). Residuals: the squared output-layer bound, printed 6/p and corrected "
            "1/p, minus the default's gain^2 * 3/p; tests/test_kernels.py checks torch's layer.",
            _table_1_pytorch,
            changes_math=False,
        ),
        Erratum(
            s, "Table 1 with (2.3) and the Epilogue",
            "the standard initialisation from Table 1 (a.k.a. NTK scaling): f(x; theta0) is a "
            "sum of p independent O(1)-variance terms scaled by 1/sqrt(p), with a GP limit (2.5)",
            "only the Kaiming row is the NTK scaling (2.3) (w = O(1): Var f(x) = 2|x|^2/d at "
            "every p, ReLU); under Xavier the first layer shrinks too, Var w_jk = 2/(p+d), so "
            "Var f(x; theta0) = 2p|x|^2/((p+1)(p+d)) -> 0: the wide limit is the zero function",
            "Xavier scales w by fan_in + fan_out = p + d, so <w_j, x> = O(1/sqrt(p)) and each "
            "summand a~_j relu(<w_j, x>) of (2.3) has variance O(1/p), not O(1). The lecture's "
            "(2.28) uses w ~ N(0, I/d), i.e. the Kaiming-like row. Residuals (ReLU, b = 0, "
            "integrated from the uniform laws): lim Var_Xavier / Var_Kaiming - 1 = -1 "
            "(printed), Var_Xavier - 2p|x|^2/((p+1)(p+d)) plus its limit (corrected: 0); claim "
            "kernels.monte_carlo_table_1 confirms by simulation.",
            _table_1_ntk_scaling,
        ),
    )  # fmt: skip


def errata() -> list[Erratum]:
    """Disagreements with seed 002 (Sections 2.1, 2.3, Exercise 1) found here."""
    return list(_errata())
