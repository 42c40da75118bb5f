"""Seed 003 (Kunin et al.), the sympy source of the exact solutions: :class:`Symbols` and
:func:`symbolic` (the single neuron: ``sigma``, ``lambda_1``, ``lambda_2``, the primed rates of
isotropic inputs, ``Omega``, the eigenvector ``v_+``, the stable Bernoulli normaliser
``phi_hat``, the coefficients ``z_a``, ``z_1``, ``z_perp`` and their limits at t = oo; the
textbook cosh / sinh form), :class:`WideSymbols` and :func:`wide_symbolic` (the scalar pieces
of the wide net's Riccati solution), and the numpy / mpmath / torch evaluators generated from
them (public: :mod:`solvable.models.kunin.generated`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from solvable._core.backends import exprel, generate


# ---------------------------------------------------------------------------
# symbolic layer
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Symbols:
    """Symbols and expressions of the single-neuron model (see the module docstring).

    ``exprs``: ``sigma``, ``lambda_1``, ``lambda_2`` (``M = lambda_1 I +
    lambda_2 beta beta^T/||beta||^2``), the primed quantities of isotropic inputs
    ``X^T X = s I`` (``delta_p`` = s delta, ``kappa_of_rates`` = sqrt(eta_a' eta_w'),
    ``root_a`` = sqrt(eta_a'), ``root_w`` = sqrt(eta_w'), eta' = s eta), ``Omega``,
    ``v_plus`` (unit eigenvector of the 2x2 block of G for +Omega), ``E`` (= e^{-Omega t}),
    ``h_perp``
    (= e^{-(Omega + delta/2) t}), ``phi_hat`` (= e^{-2 Omega t} phi), ``z_a``, ``z_1``,
    ``z_perp`` (coefficients of z(t) along e_a, beta*-hat, and of c_perp);
    ``textbook``: ``phi`` and the 2x2 block ``eJ`` in cosh/sinh form.
    """

    eta_a: sp.Symbol
    eta_w: sp.Symbol
    delta: sp.Symbol
    kappa: sp.Symbol
    Y: sp.Symbol
    t: sp.Symbol
    beta2: sp.Symbol
    c0: sp.Symbol
    c1: sp.Symbol
    cperp: sp.Symbol
    c_plus: sp.Symbol
    c_minus: sp.Symbol
    Omega: sp.Symbol
    s: sp.Symbol
    k_dev: sp.Symbol
    deviation: tuple[sp.Symbol, ...]
    exprs: dict[str, Any] = field(repr=False)
    textbook: dict[str, Any] = field(repr=False)


@functools.cache
def symbolic() -> Symbols:
    """The sympy expressions of the single-neuron model."""
    eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
    delta = sp.Symbol("delta", real=True)
    kappa = sp.Symbol("kappa", positive=True)
    Y, beta2, cperp = sp.symbols("Y beta2 c_perp", nonnegative=True)
    t = sp.Symbol("t", nonnegative=True)
    c0, c1, c_plus, c_minus = sp.symbols("c0 c1 c_plus c_minus", real=True)
    Omega = sp.Symbol("Omega", nonnegative=True)
    s = sp.Symbol("s", positive=True)
    k_dev = sp.Symbol("k_dev", real=True)  # = c0 c1 - Y/kappa (the start's a w_par - |beta*|)
    # the loss from beta - beta* (its coordinate D_1 along beta*-hat, u_2 along c_perp, whose
    # length is c_n), root_s = sqrt(s) and the least loss L_min (exactly isotropic X)
    dev = sp.symbols("D_1 u_2 root_s c_n L_min", real=True)

    sigma = sp.sqrt(delta**2 + 4 * eta_a * eta_w * beta2)
    Om = sp.sqrt(delta**2 / 4 + kappa**2 * Y**2)
    # eigenvector for +Omega, without cancellation for either sign of delta
    raw = sp.Piecewise(
        (sp.Matrix([Omega + delta / 2, kappa * Y]), delta >= 0),
        (sp.Matrix([kappa * Y, Omega - delta / 2]), True),
    )
    # Omega + delta/2 >= 0 without cancellation (= kappa^2 Y^2/(Omega - delta/2) if delta < 0)
    om_plus = sp.Piecewise(
        (Omega + delta / 2, delta >= 0), (kappa**2 * Y**2 / (Omega - delta / 2), True)
    )
    E = sp.exp(-Omega * t)
    h_perp = sp.exp(-om_plus * t)
    # the c_perp term of phi_hat, cperp^2 t exprel(-|delta| t) e^{-2 min(Omega, om_plus) t}
    perp_term = (
        cperp**2
        * t
        * exprel(-sp.Abs(delta) * t)
        * sp.Piecewise((E**2, delta >= 0), (h_perp**2, True))
    )
    phi_hat = E**2 + kappa**2 * (
        (c_plus**2 + c_minus**2 * E**2) * t * exprel(-2 * Omega * t)
        + perp_term
    )  # fmt: skip
    vx, vy = sp.symbols("v_x v_y", real=True)  # components of the unit v_plus
    exprs = {
        "sigma": sigma,
        "lambda_1": (sigma + delta) / 2,
        "lambda_2": (sigma - delta) / 2,
        "delta_p": s * delta,
        "kappa_of_rates": sp.sqrt((s * eta_a) * (s * eta_w)),
        "root_a": sp.sqrt(s * eta_a),
        "root_w": sp.sqrt(s * eta_w),
        "Omega": Om,
        "v_raw": raw,
        "om_plus": om_plus,
        "E": E,
        "h_perp": h_perp,
        "phi_hat": phi_hat,
        # z(t) = (c_+ v_+ + c_- E^2 v_-)/sqrt(phi_hat) in the (e_a, beta*-hat) plane,
        # v_- = (-v_y, v_x); and z_perp(t) = h_perp/sqrt(phi_hat) c_perp
        "z_a": (c_plus * vx - c_minus * E**2 * vy) / sp.sqrt(phi_hat),
        "z_1": (c_plus * vy + c_minus * E**2 * vx) / sp.sqrt(phi_hat),
        "z_perp": h_perp / sp.sqrt(phi_hat),
        # z_a z_1 - Y/kappa with the constant part cancelled in closed form (claim
        # kunin.deviation_from_minimum): beta's coordinate along beta*-hat minus |beta*| is
        # kappa z_dev, every term decaying, so it keeps its relative digits near beta*
        "z_dev": (E**2 * k_dev - Y * kappa * perp_term) / phi_hat,
        # L = L_min + s |beta - beta*|^2 / 2 for X^T X = s I exactly (same claim)
        "loss_deviation": dev[4] + ((dev[2] * dev[0]) ** 2 + (dev[2] * dev[3] * dev[1]) ** 2) / 2,
        "vx": vx,
        "vy": vy,
        # t -> oo (claim kunin.limit_at_infinity, sympy limits of z_a, z_1, z_perp on every
        # branch): the fixed point |z|^2 = 2 Omega/kappa^2 along sign(c_+) v_+ when c_+ != 0
        # and Omega > 0; on the stable manifold (c_+ = 0) of a downstream start (delta < 0)
        # the rest point a = 0, |w|^2 = |delta|/eta_a across beta* (z_perp is the coefficient
        # of the unnormalised c_perp vector); otherwise the saddle z = 0
        "z_a_inf": sp.Piecewise(
            (
                sp.sign(c_plus) * vx * sp.sqrt(2 * Omega) / kappa,
                sp.And(sp.Ne(c_plus, 0), Omega > 0),
            ),
            (0, True),
        ),
        "z_1_inf": sp.Piecewise(
            (
                sp.sign(c_plus) * vy * sp.sqrt(2 * Omega) / kappa,
                sp.And(sp.Ne(c_plus, 0), Omega > 0),
            ),
            (0, True),
        ),
        "z_perp_inf": sp.Piecewise(
            (sp.sqrt(-delta) / (kappa * cperp), sp.And(sp.Eq(c_plus, 0), delta < 0, cperp > 0)),
            (0, True),
        ),
        # z_a_inf z_1_inf - Y/kappa: 0 at the fixed point beta* (claim
        # kunin.deviation_from_minimum)
        "z_dev_inf": sp.Piecewise((0, sp.And(sp.Ne(c_plus, 0), Omega > 0)), (-Y / kappa, True)),
    }
    J = sp.Matrix([[delta / 2, kappa * Y], [kappa * Y, -delta / 2]])
    cc = sp.Matrix([c0, c1])
    textbook = {
        "J": J,
        "eJ": sp.cosh(Om * t) * sp.eye(2) + sp.sinh(Om * t) / Om * J,
        "phi": 1
        + kappa**2
        * (
            (cc.T * cc)[0] * sp.sinh(2 * Om * t) / (2 * Om)
            + (cc.T * J * cc)[0] * (sp.cosh(2 * Om * t) - 1) / (2 * Om**2)
            + cperp**2 * (1 - sp.exp(-delta * t)) / delta
        ),
    }
    return Symbols(
        eta_a=eta_a, eta_w=eta_w, delta=delta, kappa=kappa, Y=Y, t=t, beta2=beta2,
        c0=c0, c1=c1, cperp=cperp, c_plus=c_plus, c_minus=c_minus, Omega=Omega, s=s,
        k_dev=k_dev, deviation=dev, exprs=exprs, textbook=textbook,
    )  # fmt: skip


def _torch_numbers(expr: Any) -> Any:
    """``expr`` (or a tuple of them) with every composite number (``sqrt(2)``) as a 30-digit
    Float, for torch: its ``sqrt`` takes tensors only (as :mod:`solvable.models.deep_linear`'s
    evaluators do; the float literal is the double nearest the number, as numpy's
    ``sqrt(2)`` is)."""
    if isinstance(expr, (tuple, list)):
        return tuple(_torch_numbers(e) for e in expr)
    return expr.replace(lambda x: x.is_number and not x.is_Atom,
                        lambda x: sp.Float(sp.N(x, 30), 30))  # fmt: skip


def _generate(args: Any, expr: Any, backend: str, **options: Any) -> Callable[..., Any]:
    """:func:`~solvable._core.backends.generate`, with :func:`_torch_numbers` for torch (the
    numpy and mpmath evaluators are generated from ``expr`` unchanged)."""
    if backend == "torch":
        expr = _torch_numbers(expr)
    return generate(args, expr, backend, **options)


@functools.cache
def _evaluators(backend: str) -> dict[str, Callable[..., Any]]:
    S = symbolic()
    ex = S.exprs
    scal = (S.delta, S.kappa, S.Y)
    out = {"Omega": _generate(scal, ex["Omega"], backend)}
    primed = (ex["delta_p"], ex["kappa_of_rates"], ex["root_a"], ex["root_w"])
    out["primed"] = _generate((S.eta_a, S.eta_w, S.s, S.delta), primed, backend)
    # the two branches of v_raw, as tuples (a Piecewise of matrices does not generate well)
    pos, neg = ex["v_raw"].args[0][0], ex["v_raw"].args[1][0]
    out["v_pos"] = _generate((*scal, S.Omega), (pos[0], pos[1]), backend)
    out["v_neg"] = _generate((*scal, S.Omega), (neg[0], neg[1]), backend)
    targs = (S.delta, S.kappa, S.Y, S.Omega, S.c_plus, S.c_minus, S.cperp, ex["vx"], ex["vy"], S.t)
    out["coeffs"] = _generate(targs, (ex["z_a"], ex["z_1"], ex["z_perp"]), backend,
                             elementwise=True)  # fmt: skip
    largs = (S.delta, S.kappa, S.Omega, S.c_plus, S.cperp, ex["vx"], ex["vy"])
    out["limits"] = _generate(largs, (ex["z_a_inf"], ex["z_1_inf"], ex["z_perp_inf"]), backend)
    out["deviation"] = _generate((*targs, S.k_dev), ex["z_dev"], backend, elementwise=True)
    out["deviation_limit"] = _generate((S.kappa, S.Y, S.Omega, S.c_plus), ex["z_dev_inf"], backend)
    out["loss_deviation"] = _generate(S.deviation, ex["loss_deviation"], backend,
                                     elementwise=True)  # fmt: skip
    return out


@dataclass(frozen=True)
class WideSymbols:
    """The scalar pieces of the wide exact solution (one mode of rate ``k``): ``e_plus =
    e^{-k t}``, ``e_minus = e^{k t}``, ``g_plus = t exprel(-2 k t) = e^{-2kt} int_0^t e^{2ku}
    du``, ``g_minus = t exprel(2 k t) = int_0^t e^{2ku} du``, ``p_inf = 2 max(k, 0)/kappa^2``
    (the limit t -> oo of a ``+`` mode's entry of P) and ``u_plus = 1 - kappa^2 g_plus p_inf``
    (``e^{-2kt}`` for ``k > 0``, else 1).  For the echelon form of every shape (a row whose
    pivot mode has the rate ``q >= k`` wherever the row touches mode ``k``): ``gap = e^{(k -
    q) t}`` and ``weight = e^{-q t} sqrt(g_minus)``, written with every exponent <= 0."""

    k: sp.Symbol
    t: sp.Symbol
    kappa: sp.Symbol
    exprs: dict[str, Any] = field(repr=False)
    q: sp.Symbol = field(default=sp.Symbol("q", real=True))


@functools.cache
def wide_symbolic() -> WideSymbols:
    """The sympy expressions of the wide exact solution's scalar pieces."""
    k = sp.Symbol("k", real=True)
    t = sp.Symbol("t", nonnegative=True)
    kappa = sp.Symbol("kappa", positive=True)
    exprs = {
        "e_plus": sp.exp(-k * t),
        "e_minus": sp.exp(k * t),
        "g_plus": t * exprel(-2 * k * t),
        "g_minus": t * exprel(2 * k * t),
        "p_inf": sp.Piecewise((2 * k / kappa**2, k > 0), (0, True)),
        # 1 - kappa^2 g_plus p_inf without the cancellation: how far a + mode's entry of
        # kappa^2 core p_inf is from its limit 1 (claim kunin.wide_deviation_from_limit)
        "u_plus": sp.Piecewise((sp.exp(-2 * k * t), k > 0), (1, True)),
    }
    exprs["r_plus"] = sp.sqrt(exprs["g_plus"])
    exprs["r_minus"] = sp.sqrt(exprs["g_minus"])
    q = sp.Symbol("q", real=True)  # the rate of a row's pivot mode (q >= k where it is used)
    exprs["gap"] = sp.exp((k - q) * t)
    # e^{-q t} sqrt(g_minus(k)): for k > 0 as e^{(k - q) t} r_plus, else e^{-q t} r_minus
    # (claim kunin.wide_echelon_form: its square is e^{-2 q t} g_minus either way)
    exprs["weight"] = sp.Piecewise((exprs["gap"] * exprs["r_plus"], k > 0),
                                   (sp.exp(-q * t) * exprs["r_minus"], True))  # fmt: skip
    return WideSymbols(k=k, t=t, kappa=kappa, exprs=exprs, q=q)


@functools.cache
def _wide_evaluators(backend: str) -> dict[str, Callable[..., Any]]:
    W = wide_symbolic()
    ex = W.exprs
    mp = backend == "mpmath"
    pieces = (ex["gap"], ex["weight"])
    return {
        "plus": _generate((W.k, W.t), (ex["e_plus"], ex["r_plus"]), backend, elementwise=mp),
        "minus": _generate((W.k, W.t), (ex["e_minus"], ex["r_minus"]), backend, elementwise=mp),
        "p_inf": _generate((W.k, W.kappa), ex["p_inf"], backend, elementwise=mp),
        "u_plus": _generate((W.k, W.t), ex["u_plus"], backend, elementwise=mp),
        "echelon": _generate((W.k, W.q, W.t), pieces, backend, elementwise=mp),
    }
