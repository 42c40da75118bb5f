"""Arbitrary-precision integration of polynomial gradient flows: a Taylor series
method compiled from the sympy vector field.

Why not ``mpmath.odefun``: it caps every step at length 1 and estimates the
Taylor coefficients from Euler steps at ``(degree + 1)`` times the working
precision; on seed 001's flow it is orders of magnitude slower (see
``benchmarks/bench_integrators.py``).  The vector fields of the solvable models
are polynomials in the parameters, so their Taylor coefficients follow exactly
from Cauchy products (automatic differentiation in Taylor mode, e.g. Jorba & Zou,
Exp. Math. 14 (2005)): the order-``k`` coefficient of every node of the
expression DAG needs only the lower ones, ``O(p^2)`` operations per product node
and step for order ``p``.

Order and step (Jorba & Zou): with the relative tolerance ``eps`` the order is
``p = ceil(ln(1/eps) / 2) + 1`` and the step ``h = min_k (eps ||y|| / ||y_k||)^(1/k)``
over the last two orders ``k = p - 1, p``, times a safety factor 0.9; every term
``||y_k|| h^k`` then stays below ``eps ||y||``, and the tail beyond ``p`` is a
geometric series of ratio ``~ e^-2``.  Work is done at ``dps + guard`` digits
with ``eps = 10^-(dps + guard)`` so that O(1000) steps, and the growth of rounding
errors off unstable invariant manifolds, still leave ``dps`` digits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

__all__ = ["TaylorProgram", "compile_polynomial", "integrate"]

# Guard digits: beyond the per-step truncation error, rounding errors that leave an
# invariant but unstable manifold (P = 0 with y > 0, Q = 0 with y < 0: the flow runs into
# the saddle) grow like exp(|log alpha|/2), ~1e9 over 10 t_c in the suite; 20 guard
# digits keep dps digits there (10 were measured to leave 23 of 30).
GUARD_DIGITS = 20
SAFETY = 0.9


@dataclass(frozen=True)
class TaylorProgram:
    """A polynomial vector field as a DAG of Taylor-coefficient operations.

    ``ops[n]`` is one of ``("state", i)``, ``("param", j)``, ``("number", value)``,
    ``("add", children)``, ``("mul", a, b)``; ``const[n]`` is True for nodes that
    do not depend on the state; ``outputs[i]`` is the node of ``dy_i/dt``.
    """

    ops: tuple[tuple[Any, ...], ...]
    const: tuple[bool, ...]
    outputs: tuple[int, ...]
    n_state: int
    n_params: int


def compile_polynomial(
    state: Sequence[sp.Symbol], params: Sequence[sp.Symbol], rhs: Sequence[sp.Expr]
) -> TaylorProgram:
    """Compile ``rhs`` (polynomials in ``state``; any expressions in ``params``)."""
    ops: list[tuple[Any, ...]] = []
    const: list[bool] = []
    memo: dict[Any, int] = {}
    state_index = {s: i for i, s in enumerate(state)}
    param_index = {s: j for j, s in enumerate(params)}

    def emit(op: tuple[Any, ...], is_const: bool) -> int:
        key = op
        if key in memo:
            return memo[key]
        ops.append(op)
        const.append(is_const)
        memo[key] = len(ops) - 1
        return memo[key]

    temps: dict[sp.Symbol, int] = {}

    def build(e: sp.Expr) -> int:
        if e in temps:
            return temps[e]
        if e.is_Symbol:
            if e in state_index:
                return emit(("state", state_index[e]), False)
            if e in param_index:
                return emit(("param", param_index[e]), True)
            raise ValueError(f"rhs has a symbol that is neither state nor parameter: {e}")
        if e.is_Number:
            return emit(("number", sp.Rational(e) if e.is_Rational else e), True)
        if e.is_Add:
            kids = tuple(build(a) for a in e.args)
            return emit(("add", kids), all(const[k] for k in kids))
        if e.is_Mul:
            kids = [build(a) for a in e.args]
            node = kids[0]
            for k in kids[1:]:
                node = emit(("mul", node, k), const[node] and const[k])
            return node
        if e.is_Pow and e.exp.is_Integer and e.exp > 0:
            base = build(e.base)
            node = base
            for _ in range(int(e.exp) - 1):
                node = emit(("mul", node, base), const[node] and const[base])
            return node
        if not (e.free_symbols & set(state)):
            # a function of the parameters alone (e.g. sqrt(eta)): evaluate once
            return emit(("expr", e), True)
        raise ValueError(f"vector field is not polynomial in the state: {e}")

    replacements, reduced = sp.cse(list(rhs))
    for sym, expr in replacements:
        temps[sym] = build(expr)
    outputs = tuple(build(e) for e in reduced)
    return TaylorProgram(tuple(ops), tuple(const), outputs, len(state), len(params))


def _const_values(prog: TaylorProgram, params: Sequence[Any], psyms: Sequence[sp.Symbol]):
    values: list[Any] = [None] * len(prog.ops)
    for n, op in enumerate(prog.ops):
        if not prog.const[n]:
            continue
        kind = op[0]
        if kind == "param":
            values[n] = params[op[1]]
        elif kind == "number":
            num = op[1]
            values[n] = (
                mpmath.mpf(num.p) / num.q if isinstance(num, sp.Rational) else mpmath.mpf(str(num))
            )
        elif kind == "expr":
            f = sp.lambdify(psyms, op[1], "mpmath")
            values[n] = mpmath.mpf(f(*params))
        elif kind == "add":
            values[n] = mpmath.fsum(values[k] for k in op[1])
        elif kind == "mul":
            values[n] = values[op[1]] * values[op[2]]
    return values


def _taylor(prog: TaylorProgram, y: Sequence[Any], cvals: Sequence[Any], order: int):
    """Taylor coefficients ``Y[i][k]`` of the solution through ``y`` up to ``order``."""
    zero = mpmath.mpf(0)
    Y = [[yi] for yi in y]
    coef: list[list[Any]] = [[] for _ in prog.ops]
    for k in range(order):
        for n, op in enumerate(prog.ops):
            if prog.const[n]:
                coef[n].append(cvals[n] if k == 0 else zero)
                continue
            kind = op[0]
            if kind == "state":
                coef[n].append(Y[op[1]][k])
            elif kind == "add":
                coef[n].append(mpmath.fsum(coef[c][k] for c in op[1]))
            else:  # mul
                a, b = op[1], op[2]
                if prog.const[a]:
                    coef[n].append(cvals[a] * coef[b][k])
                elif prog.const[b]:
                    coef[n].append(coef[a][k] * cvals[b])
                else:
                    ca, cb = coef[a], coef[b]
                    coef[n].append(mpmath.fsum(ca[j] * cb[k - j] for j in range(k + 1)))
        for i, out in enumerate(prog.outputs):
            Y[i].append(coef[out][k] / (k + 1))
    return Y


def integrate(
    prog: TaylorProgram,
    params: Sequence[Any],
    param_symbols: Sequence[sp.Symbol],
    y0: Sequence[Any],
    times: Sequence[Any],
    dps: int,
    blocks: Sequence[tuple[int, int]] | None = None,
) -> tuple[list[list[Any]], dict[str, int]]:
    """States at ``times`` (sorted, ``>= 0``) from ``y0`` at ``t = 0``, to ``dps`` digits.

    The error is controlled relative to the norm of each block (``[start, stop)``
    index ranges, e.g. one per weight matrix; default: the whole state), so a
    block that decays (``u`` flowing into a saddle) keeps its relative accuracy.
    Returns the states (lists of ``mpf`` at ``dps + guard`` digits) and statistics
    (``steps``, ``order``).
    """
    blocks = [(0, len(y0))] if blocks is None else list(blocks)
    work = dps + GUARD_DIGITS
    with mpmath.workdps(work):
        eps = mpmath.mpf(10) ** (-work)
        order = math.ceil(work * math.log(10) / 2) + 1
        params = [mpmath.mpf(p) for p in params]
        cvals = _const_values(prog, params, param_symbols)
        y = [mpmath.mpf(v) for v in y0]
        t = mpmath.mpf(0)
        out: list[list[Any]] = []
        steps = 0
        for target in times:
            target = mpmath.mpf(target)
            while t < target:
                Y = _taylor(prog, y, cvals, order)
                h = target - t
                for start, stop in blocks:
                    scale = max((abs(v) for v in y[start:stop]), default=0)
                    for k in (order - 1, order):
                        size = max((abs(Y[i][k]) for i in range(start, stop)), default=0)
                        if size > 0:
                            # a block that is exactly zero is held to the absolute eps
                            ref = scale if scale > 0 else mpmath.mpf(1)
                            h = min(h, SAFETY * (eps * ref / size) ** (mpmath.mpf(1) / k))
                # Horner evaluation of the Taylor polynomial at h
                y = [_horner(Yi, h) for Yi in Y]
                t = t + h if t + h < target else target
                steps += 1
            out.append(list(y))
    return out, {"steps": steps, "order": order}


def _horner(coeffs: Sequence[Any], h: Any) -> Any:
    acc = coeffs[-1]
    for c in reversed(coeffs[:-1]):
        acc = acc * h + c
    return acc
