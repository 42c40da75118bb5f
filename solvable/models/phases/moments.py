"""The moments of ``P`` and ``Q`` (eq. (6) of seed 001) under i.i.d. Gaussian
initialisation (:func:`p_q_moments`): mean and variance of ``P``, ``Q`` and of ``P - Q``."""

from __future__ import annotations

import functools

import sympy as sp
from sympy.stats import E, Normal, variance

from solvable.models import xu_ziyin


# ---------------------------------------------------------------------------
# P and Q under Gaussian initialisation
# ---------------------------------------------------------------------------
def p_q_moments(rho_convention: str = "norm") -> dict[str, sp.Expr]:
    """Mean and variance of ``P = (1/d) sum_i p_i^2`` (and of Q) for ``u_i ~ N(0,
    sigma_u^2)``, ``W_ij ~ N(0, sigma_w^2)`` i.i.d., with ``p_i, q_i = (sqrt(eta_u) (W x)_i
    / rho +- sqrt(eta_w) u_i)/2`` (eq. (6)).  ``rho_convention``: ``"norm"`` (rho = ||x||,
    this package) or ``"printed"`` (rho^2 = ||x||^2/d0, as printed in eqs. (6)-(7)).

    ``(W x)_i ~ N(0, sigma_w^2 ||x||^2)`` and ``u_i`` are independent Gaussians, so
    ``p_i ~ N(0, s^2)`` with ``s^2 = (eta_w sigma_u^2 + eta_u sigma_w^2 ||x||^2/rho^2)/4``,
    ``E[p_i^4] = 3 s^4`` and, the p_i being i.i.d., ``Var P = 2 s^4 / d``.  Returns the
    sympy expressions (keys ``mean_P``, ``var_P``, ``mean_Q``, ``var_Q``, ``mean_P_minus_Q``,
    ``msq_P_minus_Q`` (``E[(P - Q)^2]``), and the symbols ``x2``, ``d0``, ``d``, ``eta_u``,
    ``eta_w``, ``sigma_u``, ``sigma_w``)."""
    if rho_convention not in ("norm", "printed"):
        raise ValueError(f"rho_convention must be 'norm' or 'printed', got {rho_convention!r}")
    return dict(_moments(rho_convention))


@functools.cache
def _moments(rho_convention: str) -> dict[str, sp.Expr]:
    S = xu_ziyin.symbolic()
    eta_u, eta_w, d = S.eta_u, S.eta_w, S.d
    s_u, s_w, x2 = sp.symbols("sigma_u sigma_w x2", positive=True)
    d0 = sp.Symbol("d0", integer=True, positive=True)
    rho2 = x2 if rho_convention == "norm" else x2 / d0
    u = Normal("u", 0, s_u)
    v = Normal("v", 0, s_w * sp.sqrt(x2))  # (W x)_i
    # eq. (6) as the model defines it, with rho^2 of the chosen convention
    at = {S.u: u, S.v: v, S.rho: sp.sqrt(rho2)}
    p, q = (S.paper[k].subs(at, simultaneous=True) for k in ("p", "q"))
    out = {"x2": x2, "d0": d0, "d": d, "eta_u": eta_u, "eta_w": eta_w, "sigma_u": s_u,
           "sigma_w": s_w}  # fmt: skip
    for name, z in (("P", p), ("Q", q)):
        out[f"mean_{name}"] = sp.simplify(E(z**2))
        out[f"var_{name}"] = sp.simplify(variance(z**2) / d)  # i.i.d. over i
    # P - Q = (1/d) sum_i (p_i^2 - q_i^2): a mean of i.i.d. terms
    out["mean_P_minus_Q"] = sp.simplify(E(p**2 - q**2))
    out["msq_P_minus_Q"] = sp.simplify(E(sp.expand((p**2 - q**2) ** 2)) / d)
    return out
