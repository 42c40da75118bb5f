"""Edges of :mod:`solvable.models.global_convergence` that its claim tests do not read: the gaps a
claim's detail reports.

Mutation-testing triage (seed-2 run, helper C).
"""

from __future__ import annotations

import math
import re

import sympy as sp

from solvable.verification import theorems


def test_never_binding_terms_reports_each_ratio_minus_its_bound():
    """Claim ``global_convergence.never_binding_terms`` states "width term3/term2 = R_w,
    minus 32 = G_w >= 0" and "step term1/term2 = R_s, minus 16 = G_s >= 0" with kappa_n d =
    1/(1 + b), gamma = 1/(1 + g), n = 1 + p (b, g, p >= 0).  From the printed terms
    (Theorem 5.1: 2^10 n^3 M^2 c/(kappa^3 d^3 gamma^2 delta) and 2^15 n^4 M^2 c/(kappa^4
    d^4 gamma^2 delta); Theorem 6.1: 2/(gamma kappa) and gamma kappa d^2/(8 n^2)):
    R_w = 32 n/(kappa d) = 32 (1 + p)(1 + b), R_s = 16 n^2/(gamma kappa d)^2 = 16 (1 + p)^2
    (1 + g)^2 (1 + b)^2, so the reported gaps must be exactly these minus 32 and 16.
    Mutant key: solvable/models/global_convergence.py:724:core/ReplaceBinaryOperator_Sub_Add:19."""
    (thm,) = theorems.select("global_convergence.never_binding_terms")
    verdict = thm.verify()
    assert verdict.status == "proved", verdict.detail
    b, g, p = sp.symbols("b g p", nonnegative=True)
    names = {"b": b, "g": g, "p": p}
    want = {
        "32": 32 * (1 + p) * (1 + b) - 32,
        "16": 16 * (1 + p) ** 2 * (1 + g) ** 2 * (1 + b) ** 2 - 16,
    }
    for bound, expected in want.items():
        found = re.search(rf"minus {bound} = (.+?) >= 0", verdict.detail)
        assert found is not None, verdict.detail
        reported = sp.parse_expr(found.group(1), local_dict=names)
        # exact polynomials in b, g, p: the difference expands to 0 exactly
        assert sp.expand(reported - expected) == 0, (bound, reported)


def test_activation_derivative_bounds_reports_each_tail_bound():
    """Claim ``global_convergence.activation_derivative_bounds`` reports the tail bounds for
    |u| > 60 it compares the sups with (its comment): S(1 - S) <= e^{-|u|} gives |swish'| <=
    1 + 61 e^{-60} and |swish''| <= 62 e^{-60}; sech^2 <= 4 e^{-2|u|} gives |tanh'| <= 4
    e^{-120} and |tanh''| <= 8 e^{-120}.  A bound >= 1 is printed as ``1 + (bound - 1)``.
    Mutant key: solvable/models/global_convergence.py:981:core/ReplaceBinaryOperator_Sub_Mul:37."""
    (thm,) = theorems.select("global_convergence.activation_derivative_bounds")
    verdict = thm.verify()
    assert verdict.status == "confirmed", verdict.detail
    found = re.findall(r"\(tail < (1 \+ )?([-+.e0-9]+)\)", verdict.detail)
    e60 = math.exp(-60)
    # (printed offset from 1 or not, the bound or its excess over 1), in the printed order
    want = [(True, 61 * e60), (False, 62 * e60), (False, 4 * e60**2), (False, 8 * e60**2)]
    assert len(found) == len(want), verdict.detail
    for (one_plus, text), (want_one, value) in zip(found, want, strict=True):
        assert bool(one_plus) == want_one, verdict.detail
        # 3 significant digits printed: within 0.5 % of the value (float64 exp(-60) is exact
        # to 1e-16 relative)
        assert abs(float(text) - value) <= 5e-3 * value, (text, value)
