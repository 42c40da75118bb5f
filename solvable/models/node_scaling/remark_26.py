"""Seed 000, the remark after eq. (26) (Section 7.3, after the sketch of Theorem 7.9): a
learning rate that grows with the width gives feature learning at ``gamma = 1``.

"when ``eta = sqrt(m)`` and ``gamma = 1``, Equation (24) still holds, and its right-hand
side is almost surely positive because ``eta^2 lambda_{m,1}/d^2 = 1/d^2 > 0``"; and for the
mean-field scaling ``lambda_{m,j} = 1/m^2`` with ``eta = m`` "the essentially same argument
would apply ... because ``eta^2 lambda_{m,1}/d^2 = 1/d^2 > 0``".

:func:`remark_26_first_step` proves both on the first gradient-descent step of the zeroed model
derived by :func:`solvable.models.node_scaling.first_step_symbolic` (``sympy.diff`` of the loss,
generic activation), with ``lambda_{m,j}`` from :func:`solvable.models.node_scaling.node_scaling`
(eq. (1) at ``gamma = 1``): the pre-activation change of every node is ``a_j/d`` times the
printed sum, free of ``m``; the two scalings move every node by the same amount (the product
``eta sqrt(lambda_{m,j}) = 1``); at a fixed ``eta`` the same change vanishes as ``m -> oo``
(the lazy case the remark contrasts with).  The ratios (17), (18) that follow are simulated
in :mod:`solvable.verification.seed_000_experiments`.
"""

from __future__ import annotations

import itertools

import sympy as sp

from solvable._core.claims import Verdict, prove_zero
from solvable.models.node_scaling.first_step import first_step_symbolic
from solvable.models.node_scaling.scalings import node_scaling
from solvable.models.node_scaling.symbols import M
from solvable.models.node_scaling.weights import finite_k_symbolic, zipf_symbolic


def _scalings() -> dict[str, tuple[sp.Expr, list[sp.Expr]]]:
    """``name -> (eta, [lambda_{m,1}, lambda_{m,2}])``: ``gamma = 1`` (eq. (1), both weight
    families: ``1/m`` whatever the weights) with ``eta = sqrt(m)``; mean-field ``1/m^2`` with
    ``eta = m`` (not of the form (1): the remark's own)."""
    out = {}
    for w in (zipf_symbolic(), finite_k_symbolic()):
        lam = [node_scaling(M, j, 1, w) for j in (1, 2)]
        out[f"gamma = 1 ({type(w).__name__}), eta = sqrt(m)"] = (sp.sqrt(M), lam)
    out["mean field 1/m^2, eta = m"] = (M, [1 / M**2, 1 / M**2])
    return out


def remark_26_first_step() -> Verdict:
    """Proved when, for ``n = 2`` inputs in R^2, nodes ``j = 1, 2`` and every ``a`` in
    ``{-1, 1}^2``: (i) under both scalings of the remark the derived step
    ``Z_j(x_i; W_1) - Z_j(x_i; W_0)`` equals ``a_j g_ij/d`` (``g`` the sum inside eq. (24)),
    free of ``m``, so (24) is ``g_ij^2/d^2 = eta^2 lambda_{m,1}/d^2 g^2`` with ``eta^2
    lambda_{m,1} = 1``; (ii) at a fixed ``eta`` and ``gamma = 1`` the squared step
    ``eta^2 g^2/(m d^2)`` tends to 0 as ``m -> oo``."""
    fs = first_step_symbolic(2, 2, 2)
    n, d, m = fs.shape
    res: list[sp.Expr] = []
    for eta, lam in _scalings().values():
        sub = {fs.eta: eta, **{fs.s[j]: sp.sqrt(lam[j]) for j in range(m)}}
        res += [sp.simplify(eta**2 * lam[j]) - 1 for j in range(m)]  # the remark's 1/d^2
        for signs in itertools.product((1, -1), repeat=m):
            sub_a = {**sub, **dict(zip(fs.a, signs, strict=True))}
            res += [fs.dZ[i, j].subs(sub_a) - signs[j] * fs.g[i, j] / d
                    for i in range(n) for j in range(m)]  # fmt: skip
    lam1 = node_scaling(M, 1, 1, zipf_symbolic())
    lazy = (fs.dZ[0, 0] ** 2).subs({fs.s[0]: sp.sqrt(lam1), fs.a[0]: 1})
    res.append(sp.limit(lazy, M, sp.oo))
    verdict = prove_zero(*res)
    if verdict.status != "proved":
        return verdict
    return Verdict(
        "proved",
        f"{len(res)} residuals (n = 2, d = 2, nodes 1, 2, generic sigma, a in {{-1, 1}}^2): "
        "eta^2 lambda_{m,j} = 1 and Z_j(x_i; W_1) - Z_j(x_i; W_0) = a_j g_ij/d (no m) for "
        "gamma = 1 at eta = sqrt(m) (Zipf and finite-K weights) and for lambda = 1/m^2 at "
        "eta = m; at fixed eta (gamma = 1) the step squared, eta^2 g^2/(m d^2), -> 0",
        residuals=verdict.residuals,
    )
