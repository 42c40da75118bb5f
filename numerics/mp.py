"""Arbitrary-precision integration of polynomial gradient flows: a Taylor series
method compiled from the sympy vector field.

Seed 001 (Xu & Ziyin), eqs. (4)-(5)/(31): ``du/dt = -eta_u dL/du``, ``dW/dt =
-eta_w dL/dW`` with ``L = (gamma u^T W x - y)^2`` is a polynomial (cubic) vector
field, and so are the flows of the other solvable models.  Their Taylor coefficients
follow exactly from Cauchy products (automatic differentiation in Taylor mode,
Jorba & Zou, Exp. Math. 14 (2005) 99-117): the order-``k`` coefficient of every node
of the expression DAG needs only the lower ones, ``O(k)`` operations per product node
for the newest coefficient, ``O(p^2)`` per node and step for order ``p``.

Why not ``mpmath.odefun``: it caps every step at 1/2 and estimates the Taylor
coefficients from Euler steps at ``(degree + 1)`` times the working precision, with
no guard digits.  Measured at dps = 30 on seed 001's ``generic`` case
(``benchmarks/bench_integrators.py``): to ``10 t_c`` (t_c = 0.31) odefun takes 3.1 s
for 31 digits, this integrator 0.27 s at equal precision (0.48 s with the 20 guard
digits below, 50 digits); with learning rates / 100 (t_c = 31, where the step cap
binds) 4.5 s vs 0.13 s to ``t_c``.  Usable, but 6-35x slower, and without guard digits
it keeps only 14 digits on the unstable P = 0 manifold.

Order and step (Jorba & Zou, Sect. 3.2).  With the relative tolerance ``eps`` the
order is ``p = ceil(ln(1/eps) / 2) + 1`` (= ``ceil(1.15 * digits) + 1``: the
``1.15 * digits`` rule and Jorba-Zou are the same rule) and the step is
``h = SAFETY * min_k (eps ||y|| / ||y_k||)^(1/k)`` over the last two orders
``k = p - 1, p``.  Then ``||y_k|| h^k <= eps ||y||`` for the last terms and, since
``eps^(1/p) ~ e^-2``, ``h ~ rho / e^2`` for the radius of convergence ``rho``: the
neglected tail is a geometric series of ratio ``~ e^-2``.  Minimising the cost
``p^2 / h ~ p^2 eps^(-1/p)`` over ``p`` gives the same ``p = ln(1/eps)/2``.  Measured on seed
001 (``benchmarks/bench_integrators.py --orders``, dps 30 and 50): 0.5x this order
takes ~6x the steps and ~2x the time, 0.75x and 1x are within timing noise, 1.5x is
1.2-1.7x slower; every choice keeps the full working precision.

Precision.  Work is done at ``dps + GUARD_DIGITS`` digits with ``eps = 10^-(dps +
guard)`` so that O(100) steps and the growth of rounding errors off unstable
invariant manifolds still leave ``dps`` digits.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from numerics.scipy_ode import progress_bar
from solvable._core.backends import generate

__all__ = ["GUARD_DIGITS", "SAFETY", "TaylorProgram", "compile_polynomial", "integrate", "order"]

# Guard digits: beyond the per-step truncation error, rounding errors that leave an
# invariant but unstable manifold (P = 0 with y > 0, Q = 0 with y < 0: the flow runs into
# the saddle) grow like exp(|log alpha|/2), ~1e9 over 10 t_c in the suite; 20 guard
# digits keep dps digits there (10 were measured to leave 23 of 30).
GUARD_DIGITS = 20
# Safety factor on the step (already ~rho/e^2, see above): measured, 0.5 and e^-2
# take 1.7x and 6x the steps of 0.9 at the same (full working precision) accuracy.
SAFETY = 0.9
MAX_STEPS = 100_000  # a finite-time blow-up shrinks the step geometrically: stop, don't hang


@dataclass(frozen=True)
class TaylorProgram:
    """A polynomial vector field as a DAG of Taylor-coefficient operations.

    ``ops[n]`` is one of ``("state", i)``, ``("param", j)``, ``("number", value)``,
    ``("expr", e)`` (a function of the parameters alone), ``("add", children)``,
    ``("mul", a, b)``; ``const[n]`` is True for nodes that do not depend on the
    state; ``outputs[i]`` is the node of ``dy_i/dt``.  Integer powers are repeated
    products; constant-times-series products are scalings (detected at run time).
    """

    ops: tuple[tuple[Any, ...], ...]
    const: tuple[bool, ...]
    outputs: tuple[int, ...]
    n_state: int
    n_params: int


def compile_polynomial(
    state: Sequence[sp.Symbol], params: Sequence[sp.Symbol], rhs: Sequence[sp.Expr]
) -> TaylorProgram:
    """Compile ``rhs`` (polynomials in ``state``; any expressions in ``params``).

    ``sympy.cse`` first finds the shared subexpressions (e.g. the residual
    ``gamma u^T W x - y`` of seed 001 eq. (31)), which become single nodes.  Raises
    ``ValueError`` if ``rhs`` is not a polynomial in ``state`` or has unknown symbols.
    """
    if len(rhs) != len(state):
        raise ValueError(
            f"rhs must have one entry per state symbol, got {len(rhs)} vs {len(state)}"
        )
    ops: list[tuple[Any, ...]] = []
    const: list[bool] = []
    memo: dict[Any, int] = {}
    state_index = {s: i for i, s in enumerate(state)}
    param_index = {s: j for j, s in enumerate(params)}
    state_set = set(state)

    def emit(op: tuple[Any, ...], is_const: bool) -> int:
        if op not in memo:
            ops.append(op)
            const.append(is_const)
            memo[op] = len(ops) - 1
        return memo[op]

    temps: dict[sp.Symbol, int] = {}  # cse symbol -> node
    replaced: dict[sp.Symbol, sp.Expr] = {}  # cse symbol -> its full expression

    def build(e: sp.Expr) -> int:
        e = sp.sympify(e)
        if e in temps:
            return temps[e]
        if e.is_Symbol:
            if e in state_index:
                return emit(("state", state_index[e]), False)
            if e in param_index:
                return emit(("param", param_index[e]), True)
            raise ValueError(f"rhs has a symbol that is neither state nor parameter: {e}")
        if e.is_Number:
            if not e.is_real or not e.is_finite:
                raise ValueError(f"rhs has a non-real or infinite constant: {e}")
            return emit(("number", sp.Rational(e) if e.is_Rational else e), True)
        uses_state = bool(e.free_symbols & state_set) or any(
            s in temps and not const[temps[s]] for s in e.free_symbols
        )
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
        if not uses_state:
            # a function of the parameters alone (e.g. sqrt(eta)): evaluated once
            return emit(("expr", e.xreplace(replaced)), True)
        raise ValueError(f"vector field is not polynomial in the state: {e}")

    replacements, reduced = sp.cse([sp.sympify(e) for e in rhs])
    for sym, expr in replacements:
        replaced[sym] = expr.xreplace(replaced)
        temps[sym] = build(expr)
    outputs = tuple(build(e) for e in reduced)
    return TaylorProgram(tuple(ops), tuple(const), outputs, len(state), len(params))


def order(digits: int) -> int:
    """Jorba-Zou order for a relative tolerance ``10^-digits``: ``ceil(ln(1/eps)/2) + 1``."""
    return math.ceil(digits * math.log(10) / 2) + 1


def _const_values(
    prog: TaylorProgram, params: Sequence[Any], psyms: Sequence[sp.Symbol]
) -> list[Any]:
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
            fn = generate(psyms, op[1], "mpmath")
            value = fn(*params)
            if not (isinstance(value, (mpmath.mpf, int, float)) and mpmath.isfinite(value)):
                raise ValueError(f"parameter expression {op[1]} is not a finite real: {value}")
            values[n] = mpmath.mpf(value)
        elif kind == "add":
            values[n] = mpmath.fsum(values[k] for k in op[1])
        elif kind == "mul":
            values[n] = values[op[1]] * values[op[2]]
    return values


def _plan(prog: TaylorProgram, cvals: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The state-dependent nodes as a flat instruction list (constants folded in)."""
    plan: list[tuple[Any, ...]] = []
    for n, op in enumerate(prog.ops):
        if prog.const[n]:
            continue
        kind = op[0]
        if kind == "state":
            plan.append(("state", n, op[1]))
        elif kind == "add":
            series = tuple(c for c in op[1] if not prog.const[c])
            c0 = mpmath.fsum(cvals[c] for c in op[1] if prog.const[c])
            plan.append(("add", n, series, c0))
        else:
            a, b = op[1], op[2]
            if prog.const[a]:
                plan.append(("scale", n, b, cvals[a]))
            elif prog.const[b]:
                plan.append(("scale", n, a, cvals[b]))
            else:
                plan.append(("mul", n, a, b))
    return plan


def _taylor(
    prog: TaylorProgram,
    plan: Sequence[tuple[Any, ...]],
    cvals: Sequence[Any],
    y: Sequence[Any],
    p: int,
) -> list[list[Any]]:
    """Taylor coefficients ``Y[i][k]``, ``k = 0..p``, of the solution through ``y``."""
    Y: list[list[Any]] = [[yi] for yi in y]
    coef: list[list[Any] | None] = [None] * len(prog.ops)
    for ins in plan:  # series of state nodes are the solution's own (grown below)
        coef[ins[1]] = Y[ins[2]] if ins[0] == "state" else []
    fdot, fsum = mpmath.fdot, mpmath.fsum
    zero = mpmath.mpf(0)
    outs = [(coef[o], cvals[o], Y[i]) for i, o in enumerate(prog.outputs)]
    for k in range(p):
        for ins in plan:
            kind = ins[0]
            if kind == "mul":  # Cauchy product, newest coefficient only: O(k)
                ca, cb = coef[ins[2]], coef[ins[3]]
                coef[ins[1]].append(fdot(ca[: k + 1], cb[k::-1]))
            elif kind == "add":
                s = fsum(coef[c][k] for c in ins[2])
                coef[ins[1]].append(s + ins[3] if k == 0 else s)
            elif kind == "scale":
                coef[ins[1]].append(ins[3] * coef[ins[2]][k])
        for c, c0, Yi in outs:
            if c is None:  # a constant right-hand side
                Yi.append(c0 if k == 0 else zero)
            else:
                Yi.append(c[k] / (k + 1))
    return Y


def integrate(
    prog: TaylorProgram,
    params: Sequence[Any],
    param_symbols: Sequence[sp.Symbol],
    y0: Sequence[Any],
    times: Sequence[Any],
    dps: int,
    blocks: Sequence[tuple[int, int]] | None = None,
    *,
    guard: int = GUARD_DIGITS,
    taylor_order: int | None = None,
    safety: float = SAFETY,
    max_steps: int = MAX_STEPS,
    progress: bool = False,
) -> tuple[list[list[Any]], dict[str, int]]:
    """States at ``times`` (sorted, ``>= 0``) from ``y0`` at ``t = 0``, to ``dps`` digits.

    The error is controlled relative to the norm of each block (``[start, stop)``
    index ranges, e.g. one per weight matrix; default: the whole state), so a block
    that decays (``u`` flowing into a saddle) keeps its relative accuracy; a block
    that is exactly zero is controlled relative to the whole state (or absolutely,
    if the state is zero).  A stationary state (all derivatives zero) stays put.
    Times inside a step are dense output (Horner at the offset); only the last time
    cuts a step short.  ``guard``, ``taylor_order`` (default :func:`order`) and
    ``safety`` are exposed for measurement.  ``max_steps`` caps the steps (an
    ``ArithmeticError`` naming it, not a hang); ``progress`` shows a tqdm bar of ``t``.
    Near a stable fixed point the step grows by itself (it is set relative to the state,
    whose Taylor coefficients decay), so long times need no special treatment here.

    Returns the states (lists of ``mpf`` at ``dps + guard`` digits) and statistics
    (``steps``, ``order``).
    """
    blocks = [(0, len(y0))] if blocks is None else list(blocks)
    if len(y0) != prog.n_state:
        raise ValueError(f"y0 must have {prog.n_state} entries, got {len(y0)}")
    if len(params) != prog.n_params:
        raise ValueError(f"params must have {prog.n_params} entries, got {len(params)}")
    work = dps + guard
    p = order(work) if taylor_order is None else int(taylor_order)
    if p < 2:
        raise ValueError(f"taylor_order must be >= 2, got {p}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be an integer >= 1, got {max_steps!r}")
    out: list[list[Any]] = []
    steps = 0
    with mpmath.workdps(work):
        eps = mpmath.mpf(10) ** (-work)
        inv = {k: mpmath.mpf(1) / k for k in (p - 1, p)}
        cvals = _const_values(prog, [mpmath.mpf(v) for v in params], param_symbols)
        plan = _plan(prog, cvals)
        y = [mpmath.mpf(v) for v in y0]
        targets = [mpmath.mpf(v) for v in times]
        if any(b < a for a, b in itertools.pairwise(targets)) or (targets and targets[0] < 0):
            raise ValueError("times must be sorted and >= 0")
        t = mpmath.mpf(0)
        j = 0
        bar = progress_bar(float(targets[-1])) if progress and targets else None
        while j < len(targets) and targets[j] <= t:  # t = 0 requested
            out.append(list(y))
            j += 1
        try:
            while j < len(targets):
                Y = _taylor(prog, plan, cvals, y, p)
                h = targets[-1] - t
                total = max((abs(v) for v in y), default=mpmath.mpf(0))
                for start, stop in blocks:
                    scale = max((abs(v) for v in y[start:stop]), default=mpmath.mpf(0))
                    ref = scale if scale > 0 else (total if total > 0 else mpmath.mpf(1))
                    for k in (p - 1, p):
                        size = max((abs(Y[i][k]) for i in range(start, stop)), default=0)
                        if not mpmath.isfinite(size):
                            raise ArithmeticError(f"Taylor coefficient overflow at t = {t}")
                        if size > 0:
                            h = min(h, safety * (eps * ref / size) ** inv[k])
                t_next = t + h
                last = t_next >= targets[-1]
                if not last and steps >= max_steps:
                    raise ArithmeticError(
                        f"max_steps={max_steps} steps taken by t = {mpmath.nstr(t, 6)} of "
                        f"{mpmath.nstr(targets[-1], 6)}: raise max_steps (or the flow blows up)"
                    )
                if not last and t_next == t:
                    raise ArithmeticError(
                        f"step {mpmath.nstr(h, 3)} at t = {mpmath.nstr(t, 12)} after {steps} "
                        "steps: finite-time blow-up (or a flow too stiff for an explicit method)"
                    )
                while j < len(targets) and (last or targets[j] <= t_next):  # dense output
                    s = targets[j] - t
                    out.append([_horner(Yi, s) for Yi in Y])
                    j += 1
                y = [_horner(Yi, h) for Yi in Y]
                t = targets[-1] if last else t_next
                steps += 1
                if bar is not None:
                    bar.n = float(t)
                    bar.refresh()
        finally:
            if bar is not None:
                bar.close()
    return out, {"steps": steps, "order": p}


def _horner(coeffs: Sequence[Any], h: Any) -> Any:
    acc = coeffs[-1]
    for c in reversed(coeffs[:-1]):
        acc = acc * h + c
    return acc
