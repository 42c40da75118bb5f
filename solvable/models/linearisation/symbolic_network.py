"""The package's network (eq. (2.19)) and its gradient flow (eq. (2.22)) on sympy
symbols, with a generic smooth ``sigma``: the objects that the claims and the errata of seed
002, Sections 2.2-2.3, differentiate."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import sympy as sp

from solvable.models.linearisation.formulas import _SIGMA
from solvable.models.linearisation.network import network_output
from solvable.models.linearisation.system import _flow, _sympy_sigma


@functools.cache
def _network(p: int, d: int, sigma: Any = None):
    """The package's network :func:`network_output` at width ``p`` on one input ``x``
    (``1/sqrt(p)`` scaling) with a generic smooth ``sigma`` (or a given one-argument
    callable), on sympy symbols; returns (f, a, w (list of rows), x, z) with ``z_j =
    <w_j, x>`` the pre-activations in the paper's notation."""
    sig = _SIGMA if sigma is None else sigma
    x = sp.symbols(f"x0:{d}", real=True)
    a = sp.symbols(f"a0:{p}", real=True)
    w = [sp.symbols(f"w{j}_0:{d}", real=True) for j in range(p)]
    W = np.array([list(row) for row in w], dtype=object).reshape(p, d)
    X = np.array([list(x)], dtype=object)
    f = network_output(W, np.array(a, dtype=object), X, np.vectorize(sig, otypes=[object]),
                       1 / sp.sqrt(p))[0]  # fmt: skip
    z = [sum(wj[k] * x[k] for k in range(d)) for wj in w]
    return sp.sympify(f, strict=True), a, w, x, z


@functools.cache
def _flow_setup():
    """The flow that :func:`numerics.simulate` integrates (:func:`_flow`, the gradient flow
    of :func:`risk`) for p = 2 units, d = 1, n = 2 points, both layers trained at rates
    eta_w, eta_a, with a generic sigma: returns (f as a function of an input (the package's
    :func:`network_output`), theta, dtheta/dt, xs, ys, rates)."""
    p, d, n = 2, 1, 2
    flow = _flow(n, d, p, "generic", False)
    eta_w, eta_a = flow.params[:2]
    a, W = flow.block("a"), flow.block("W")
    xs = tuple(flow.params[2 : 2 + n * d])
    ys = tuple(flow.params[2 + n * d : 2 + n * d + n])
    sigma = _sympy_sigma("generic")

    def f(x: sp.Expr) -> sp.Expr:
        return sp.sympify(network_output(W, a, np.array([[x]], dtype=object), sigma,
                                         1 / sp.sqrt(p))[0], strict=True)  # fmt: skip

    theta = (*W.ravel(), *a)
    rate = {**dict.fromkeys(W.ravel(), eta_w), **dict.fromkeys(a, eta_a)}
    velocity = dict(zip(flow.state, flow.rhs, strict=True))
    return f, theta, velocity, xs, ys, rate


def _ntk(f, theta, rate, x: sp.Expr, xp: sp.Expr) -> sp.Expr:
    return sum(rate[v] * sp.diff(f(x), v) * sp.diff(f(xp), v) for v in theta)
