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
``k = p - 1, p`` (both zero in a block, as for ``y' = 1 - y^3`` at ``y = 0`` whose series
has only the orders ``1 mod 3``: the highest nonzero order from ``p/2`` up).  Then
``||y_k|| h^k <= eps ||y||`` for the last terms and, since ``eps^(1/p) ~ e^-2``,
``h ~ rho / e^2`` for the radius of convergence ``rho``: the neglected tail is a geometric
series of ratio ``~ e^-2``.  Minimising the cost ``p^2 / h ~ p^2 eps^(-1/p)`` over ``p``
gives the same ``p = ln(1/eps)/2``.  Measured on seed 001
(``benchmarks/bench_integrators.py --orders``, dps 30 and 50): 0.5x this order takes ~6x
the steps and ~2x the time, 0.75x and 1x are within timing noise, 1.5x is
1.2-1.7x slower; every choice keeps the full working precision.

Precision.  Work is done at ``dps + GUARD_DIGITS`` digits with ``eps = 10^-(dps +
guard)`` so that O(100) steps and the growth of rounding errors off unstable
invariant manifolds still leave ``dps`` digits.

Engines (issue 17).  The recurrences cost ``O(p^2)`` multiplications per product node and
step; node by node in ``mpmath`` (``engine="reference"``) each costs a few microseconds of
Python.  The default ``engine="vector"`` (:class:`_CompiledEngine`) compiles the program into
one Python function of one statement per node and order, on fixed-point integer series (one
exponent per node and step, the series scaled by a power of two ``H >= h``): a Cauchy product
is ``sum(map(mul, a, reversed(b)))`` with no shift per term.  Same order, same error estimate,
same step rule (capped at ``H``); at the working precision it is as close to the closed form
as the reference (``tests/test_simulate.py``).  On seed 001 with d = 50, d0 = 10 to 10 t_c it
takes half the CPU time of the numpy engine it replaced (dps 30 and 50), and on the 2-4
dimensional flows of seed 003 a sixth (``benchmarks/oracle_speed.py``; the CPU seconds of
``solvable verify --only kunin.closed_form_oracle``).
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from numerics.scipy_ode import PACE_WINDOW, _check_flag, progress_bar, projected_pace
from solvable._core import numbers as nb
from solvable._core.backends import generate

__all__ = [
    "ENGINES",
    "GUARD_DIGITS",
    "SAFETY",
    "TaylorProgram",
    "compile_polynomial",
    "integrate",
    "order",
]

# Guard digits: beyond the per-step truncation error, rounding errors that leave an
# invariant but unstable manifold (P = 0 with y > 0, Q = 0 with y < 0: the flow runs into
# the saddle) grow like exp(|log alpha|/2), ~1e9 over 10 t_c in the suite; 20 guard
# digits keep dps digits there (10 were measured to leave 23 of 30).
GUARD_DIGITS = 20
# Safety factor on the step (already ~rho/e^2, see above): measured, 0.5 and e^-2
# take 1.7x and 6x the steps of 0.9 at the same (full working precision) accuracy.
SAFETY = 0.9
MAX_STEPS = 100_000  # a finite-time blow-up shrinks the step geometrically: stop, don't hang
ENGINES = ("vector", "reference")
"""How :func:`integrate` computes the Taylor series: ``"vector"`` (default, the compiled
fixed-point :class:`_CompiledEngine`; the name is that of its first, numpy version) or
``"reference"`` (:func:`_taylor`, node by node in ``mpmath``)."""


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
    ``ValueError`` if ``rhs`` is not a polynomial in ``state`` or has unknown symbols, and
    ``TypeError`` if ``state`` / ``params`` are not sequences of distinct sympy Symbols or an
    entry of ``rhs`` is not a sympy expression or a real number (strings are never parsed).
    """
    state = _symbols("state", state)
    params = _symbols("params", params)
    rhs = _sequence("rhs", rhs)
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
        if e in temps:
            return temps[e]
        if e.is_Symbol:
            if e in state_index:
                return emit(("state", state_index[e]), False)
            if e in param_index:
                return emit(("param", param_index[e]), True)
            raise ValueError(f"rhs has a symbol that is in neither state nor params: {e}")
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
            if not e.free_symbols and (e.is_extended_real is False or e.is_finite is False
                                       or e.has(sp.nan)):  # fmt: skip
                raise ValueError(f"rhs has a non-real or infinite constant: {e}")
            return emit(("expr", e.xreplace(replaced)), True)
        raise ValueError(f"vector field is not polynomial in the state: {e}")

    replacements, reduced = sp.cse([_expression(f"rhs[{i}]", e) for i, e in enumerate(rhs)])
    for sym, expr in replacements:
        replaced[sym] = expr.xreplace(replaced)
        temps[sym] = build(expr)
    outputs = tuple(build(e) for e in reduced)
    return TaylorProgram(tuple(ops), tuple(const), outputs, len(state), len(params))


def order(digits: int) -> int:
    """Jorba-Zou order for a relative tolerance ``10^-digits``: ``ceil(ln(1/eps)/2) + 1``
    (``digits``: an int >= 1)."""
    digits = nb.check_int("digits", digits)
    return math.ceil(digits * math.log(10) / 2) + 1


def _sequence(name: str, values: Any) -> list[Any]:
    """``values`` (a list, tuple, 1-d array or other finite iterable, not a string or a
    mapping) as a list; anything else is a ``TypeError`` naming ``name``."""
    items = None
    if not isinstance(values, (str, bytes, Mapping)):
        try:
            items = list(values)
        except TypeError:  # not iterable (a number, None, a 0-d array or tensor)
            pass
    if items is None:
        raise TypeError(f"{name} must be a sequence, got {type(values).__name__} "
                        f"{nb.describe(values)}")  # fmt: skip
    return items


def _symbols(name: str, values: Any) -> list[sp.Symbol]:
    """A sequence of distinct sympy Symbols (never strings: a string would be an argument
    name in generated code)."""
    items = _sequence(name, values)
    for i, v in enumerate(items):
        if not isinstance(v, sp.Symbol):
            raise TypeError(f"{name}[{i}] must be a sympy Symbol, got {type(v).__name__} "
                            f"{nb.describe(v)}")  # fmt: skip
    if len(set(items)) != len(items):
        raise ValueError(f"{name} must hold distinct symbols, got {nb.describe(items)}")
    return items


def _expression(name: str, value: Any) -> sp.Expr:
    """A sympy expression, or a real number as one (``sympify(strict=True)``: no string is
    parsed); a bool, a string or another object is a ``TypeError`` naming ``name``."""
    try:
        e = sp.sympify(value, strict=True)  # a bool becomes sympy's true: not an Expr
    except sp.SympifyError:
        e = None
    if not isinstance(e, sp.Expr):
        raise TypeError(f"{name} must be a sympy expression or a real number, got "
                        f"{type(value).__name__} {nb.describe(value)}")  # fmt: skip
    return e


def _reals(name: str, values: Any) -> list[Any]:
    """A sequence of finite real numbers (:func:`solvable._core.numbers.check_number`:
    int, float, numpy scalar, Fraction, decimal string or ``mpf``), each checked, as given."""
    items = _sequence(name, values)
    for i, v in enumerate(items):
        try:
            nb.check_number(f"{name}[{i}]", v)
        except ValueError as exc:
            raise ValueError(f"{name} must be finite real numbers; {exc}") from None
    return items


def _blocks(blocks: Any, n: int) -> list[tuple[int, int]]:
    """``[start, stop)`` index ranges with ``0 <= start <= stop <= n``."""
    out = []
    for i, b in enumerate(_sequence("blocks", blocks)):
        pair = _sequence(f"blocks[{i}]", b) if not isinstance(b, (str, bytes)) else None
        if (
            pair is None
            or len(pair) != 2
            or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in pair)
        ):
            raise TypeError(f"blocks[{i}] must be a pair of ints (start, stop), got "
                            f"{nb.describe(b)}")  # fmt: skip
        start, stop = int(pair[0]), int(pair[1])
        if not 0 <= start <= stop <= n:
            raise ValueError(f"blocks[{i}] = {nb.describe(b)} must satisfy 0 <= start <= stop "
                             f"<= {n} (the state's length)")  # fmt: skip
        out.append((start, stop))
    return out


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
    engine: str = "vector",
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

    ``engine`` (one of :data:`ENGINES`) computes the Taylor coefficients and sums the
    series: ``"vector"`` (default) runs the program compiled to Python statements on
    fixed-point integer series, scaled by a power of two ``H`` that also caps the step
    (:class:`_CompiledEngine`); ``"reference"`` is the node-by-node ``mpmath.fdot``
    recurrence (:func:`_taylor`).  Both take the same order, the same error estimate and the
    same step rule, and round every coefficient to at least the working precision (relative
    to itself in the reference, to its node's bound in the compiled engine); their states
    agree to the working precision (``tests/test_simulate.py``).  The compiled engine is
    2x faster than the numpy engine it replaced on seed 001 at d = 50, 6x on small systems
    (``benchmarks/oracle_speed.py``).

    Arguments: ``prog`` from :func:`compile_polynomial`; ``params``, ``y0`` and ``times``
    sequences of finite real numbers (int, float, decimal str, Fraction, ``mpf``);
    ``param_symbols`` the program's parameter Symbols; ``dps`` an int in ``[1,
    MAX_DPS]`` and ``guard`` in ``[0, MAX_DPS]``; ``taylor_order`` an int from 2 to 10 times
    :func:`order`'s; ``0 < safety <= 1``.  Anything else is a ``TypeError`` / ``ValueError``
    naming the argument.

    Returns the states (lists of ``mpf`` at ``dps + guard`` digits) and statistics
    (``steps``, ``order``).
    """
    if not isinstance(prog, TaylorProgram):
        raise TypeError(f"prog must be a TaylorProgram (from compile_polynomial), got "
                        f"{type(prog).__name__} {nb.describe(prog)}")  # fmt: skip
    y0, params, times = _reals("y0", y0), _reals("params", params), _reals("times", times)
    param_symbols = _symbols("param_symbols", param_symbols)
    blocks = [(0, len(y0))] if blocks is None else _blocks(blocks, len(y0))
    if len(y0) != prog.n_state:
        raise ValueError(f"y0 must have {prog.n_state} entries, got {len(y0)}")
    if len(params) != prog.n_params:
        raise ValueError(f"params must have {prog.n_params} entries, got {len(params)}")
    if len(param_symbols) != prog.n_params:
        raise ValueError(f"param_symbols must have {prog.n_params} entries (one per entry of "
                         f"params), got {len(param_symbols)}")  # fmt: skip
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    progress = _check_flag("progress", progress)
    dps, guard = nb.check_int("dps", dps), nb.check_int("guard", guard, low=0)
    for name, value in (("dps", dps), ("guard", guard)):
        if value > nb.MAX_DPS:
            raise ValueError(f"{name} must be at most {nb.MAX_DPS} digits, got {value}")
    work = dps + guard
    integral = isinstance(taylor_order, numbers.Integral) and not isinstance(taylor_order, bool)
    if taylor_order is not None and not integral:
        raise TypeError(f"taylor_order must be None or an int >= 2, got "
                        f"{type(taylor_order).__name__} {nb.describe(taylor_order)}")  # fmt: skip
    p = order(work) if taylor_order is None else int(taylor_order)
    if p < 2:
        raise ValueError(f"taylor_order must be >= 2, got {p}")
    if p > 10 * order(work):
        raise ValueError(f"taylor_order must be at most 10 times the Jorba-Zou order "
                         f"{order(work)} of dps + guard = {work} digits (each step costs "
                         f"O(order^2)), got {p}")  # fmt: skip
    nb.check_number("safety", safety, positive=True)
    if not nb.to_mpf(safety) <= 1:
        raise ValueError(f"safety must be in (0, 1] (a factor on the step rule's step), got "
                         f"{nb.describe(safety)}")  # fmt: skip
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be an integer >= 1, got {max_steps!r}")
    out: list[list[Any]] = []
    steps = 0
    with mpmath.workdps(work):
        eps = mpmath.mpf(10) ** (-work)
        inv = {k: mpmath.mpf(1) / k for k in (p - 1, p)}
        cvals = _const_values(prog, [nb.to_mpf(v) for v in params], param_symbols)
        y = [nb.to_mpf(v) for v in y0]
        targets = [nb.to_mpf(v) for v in times]
        if not isinstance(safety, (int, float, mpmath.mpf)):  # a str, Fraction, numpy scalar
            safety = nb.to_mpf(safety)
        if any(b < a for a, b in itertools.pairwise(targets)) or (targets and targets[0] < 0):
            raise ValueError("times must be sorted and >= 0")
        if engine == "vector":
            series: Any = _CompiledEngine(prog, cvals, y, p, blocks)
        else:
            series = _ReferenceEngine(prog, cvals, y, p)
        t = mpmath.mpf(0)
        j = 0
        bar = progress_bar(float(targets[-1])) if progress and targets else None
        pace = None
        t_end = targets[-1] if targets else mpmath.mpf(0)  # the projection's horizon, an mpf
        while j < len(targets) and targets[j] <= t:  # t = 0 requested
            out.append(list(y))
            j += 1
        try:
            while j < len(targets):
                h = targets[-1] - t
                series.expand(h)
                total = series.absmax(0, 0, len(y))
                for start, stop in blocks:
                    scale = series.absmax(0, start, stop)
                    ref = scale if scale > 0 else (total if total > 0 else mpmath.mpf(1))
                    top = False  # a nonzero coefficient of order p - 1 or p in the block
                    for k in (p - 1, p):
                        size = series.absmax(k, start, stop)
                        if not mpmath.isfinite(size):
                            raise ArithmeticError(f"Taylor coefficient overflow at t = {t}")
                        if size > 0:
                            h = min(h, safety * (eps * ref / size) ** inv[k])
                            top = True
                    if not top:  # both vanish (y' = 1 - y^3 at y = 0 has only the orders 1 mod
                        # 3): the highest nonzero order >= p/2 bounds the step (none: the block
                        # stays, or its series ends below p/2, a polynomial exact at any step).
                        # No safety factor: where the top orders are below the compiled engine's
                        # rounding at its cap H (not structural zeros), so is that order's term
                        # (< 2**q < eps ref) and H stays the step, as without this fallback
                        for k in range(p - 2, p // 2 - 1, -1):
                            size = series.absmax(k, start, stop)
                            if size > 0:
                                h = min(h, (eps * ref / size) ** (mpmath.mpf(1) / k))
                                break
                if series.cap is not None and h > series.cap:  # the compiled engine's H
                    h = series.cap
                t_next = t + h
                last = t_next >= targets[-1]
                if steps >= max_steps:  # the step that lands on the last time counts too
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
                    out.append(series.evaluate(targets[j] - t))
                    j += 1
                series.advance(h)
                t = targets[-1] if last else t_next
                steps += 1
                if steps % PACE_WINDOW == 0 and not last:  # the work budget, as in scipy_ode
                    pace = projected_pace(pace, t, steps, t_end, max_steps)  # mpf: no underflow
                if bar is not None:
                    bar.n = float(t)
                    bar.refresh()
        finally:
            if bar is not None:
                bar.close()
    return out, {"steps": steps, "order": p}


class _ReferenceEngine:
    """The Taylor series of the solution node by node (:func:`_taylor`, ``mpmath.fdot``),
    summed by Horner's rule in ``mpf`` arithmetic: ``engine="reference"``."""

    def __init__(self, prog: TaylorProgram, cvals: Sequence[Any], y: Sequence[Any], p: int):
        self.prog, self.cvals, self.p = prog, cvals, p
        self.plan = _plan(prog, cvals)
        self.y = list(y)
        self.Y: list[list[Any]] = []

    cap = None
    """No bound on the step beyond :func:`integrate`'s rule."""

    def expand(self, horizon: Any = None) -> None:
        """The Taylor coefficients (orders ``0..p``) at the current state (``horizon``,
        the time left, is not needed)."""
        self.Y = _taylor(self.prog, self.plan, self.cvals, self.y, self.p)

    def absmax(self, k: int, start: int, stop: int) -> Any:
        """``max |Y[i][k]|`` over ``start <= i < stop`` (0 for an empty range)."""
        return max((abs(self.Y[i][k]) for i in range(start, stop)), default=mpmath.mpf(0))

    def evaluate(self, s: Any) -> list[Any]:
        """The series at offset ``s`` from the current time."""
        return [_horner(Yi, s) for Yi in self.Y]

    def advance(self, h: Any) -> None:
        """Move the current state to offset ``h`` (the end of the step)."""
        self.y = self.evaluate(h)


# ---------------------------------------------------------------------------
# The compiled engine: fixed-point series, one Python statement per node and order
# ---------------------------------------------------------------------------
PREC_EXTRA = 8
"""Bits the compiled engine keeps beyond mpmath's working precision (``dps + guard``
digits): every node's series is rounded to ``prec = mpmath.mp.prec + PREC_EXTRA`` bits of a
bound on its size (:class:`_CompiledEngine`).  The rounding errors then lie 8 bits (a factor
256) below those of the working precision, so the truncation error ``eps`` of the step rule
still dominates; more bits cost time (a Python integer multiplication grows with the 30-bit
digits of its operands: 177 bits at dps 30 are 6 digits, 185 would be 7)."""


def _mantissa(value: Any, name: str) -> tuple[int, int]:
    """An ``mpf`` (or int) as the exact pair ``(M, E)``, ``value = M * 2**E`` (0 is
    ``(0, 0)``); a non-finite value is a ``ValueError`` naming ``name``."""
    v = mpmath.mpf(value)
    if not mpmath.isfinite(v):
        raise ValueError(f"{name} must be finite for the Taylor integrator, got {v}")
    sign, man, exp, _bc = v._mpf_
    return (-man if sign else man), (exp if man else 0)


def _ceil_log2(value: Any) -> int:
    """An integer ``e`` with ``2**(e - 1) <= value < 2**e`` for an ``mpf`` ``value > 0``."""
    _sign, _man, exp, bc = mpmath.mpf(value)._mpf_
    return int(exp + bc)


def _log2_sum(logs: Sequence[float]) -> int:
    """``ceil(log2(sum 2**x))`` over ``logs`` (floats), plus one bit for the float rounding."""
    top = max(logs)
    return math.ceil(top + math.log2(sum(2.0 ** (x - top) for x in logs)) + 2.0**-20)


def _round_shift(m: int, shift: int) -> int:
    """``m * 2**-shift`` rounded to the nearest integer (exact for ``shift <= 0``)."""
    if shift <= 0:
        return m << -shift
    return (m + (1 << (shift - 1))) >> shift


def _linearise(
    prog: TaylorProgram, cvals: Sequence[Any]
) -> tuple[list[tuple[Any, ...]], list[tuple[int, Any]]]:
    """The program as products of two nodes and linear combinations of nodes.

    Nodes ``0..n_state - 1`` are the state, ``n_state`` is the constant series 1, the others
    are ``("lin", [(child, weight), ...])`` or ``("mul", a, b)`` in topological order.  The
    constant factors of the program are folded into the weights of the linear combinations
    and of the outputs (``c (a b) = (c a) b``; a scaled node is not a node), products are
    shared (``a b`` once), a constant term is a weight of the series 1.  Returns the nodes
    after the state and the series 1, and each output as ``(node, weight)``.
    """
    n = prog.n_state
    one = n
    nodes: list[tuple[Any, ...]] = []
    ref: dict[int, tuple[int, Any]] = {}  # program node -> (node, weight)
    products: dict[tuple[int, int], int] = {}
    for ins in _plan(prog, cvals):
        kind, node = ins[0], ins[1]
        if kind == "state":
            ref[node] = (ins[2], mpmath.mpf(1))
        elif kind == "scale":
            child, weight = ref[ins[2]]
            ref[node] = (child, weight * ins[3])
        elif kind == "add":
            terms: dict[int, Any] = {}
            for c in ins[2]:
                child, weight = ref[c]
                terms[child] = terms.get(child, 0) + weight
            if ins[3] != 0:
                terms[one] = ins[3]
            if len(terms) == 1 and one not in terms:
                ref[node] = next(iter(terms.items()))
            else:
                nodes.append(("lin", list(terms.items())))
                ref[node] = (n + len(nodes), mpmath.mpf(1))
        else:
            (a, wa), (b, wb) = ref[ins[2]], ref[ins[3]]
            key = (min(a, b), max(a, b))
            if key not in products:
                nodes.append(("mul", *key))
                products[key] = n + len(nodes)
            ref[node] = (products[key], wa * wb)
    outputs = [(one, cvals[o]) if prog.const[o] else ref[o] for o in prog.outputs]
    return nodes, outputs


@functools.lru_cache(maxsize=64)
def _compiled(source: str) -> Callable[..., None]:
    """The ``expand`` function of a generated ``source`` (cached: one program, one text)."""
    namespace: dict[str, Any] = {"mul": operator.mul}
    exec(compile(source, "<numerics.mp compiled Taylor program>", "exec"), namespace)
    return namespace["expand"]


class _CompiledProgram:
    """The straight-line program of :class:`_CompiledEngine`: the nodes of the linearised
    Taylor program (products and weighted sums, structural zeros dropped), the state rows
    with their exactly rounded weights ``w / (k + 1)``, the rows grouped by blocks, and
    ``expand(C, V, p)`` generated from them and compiled (a base class of the engine,
    which steps with it)."""

    def _compile(self, prog: TaylorProgram, cvals: Sequence[Any], p: int,
                 blocks: Sequence[tuple[int, int]]) -> None:  # fmt: skip
        """The program for ``p`` orders of ``prog`` at the parameter values ``cvals``."""
        self.p, self.n = p, prog.n_state
        n = prog.n_state
        self.prec = prec = mpmath.mp.prec + PREC_EXTRA
        self.wprec = wprec = prec + 8  # the output weights w/(k+1), k <= p: 6 bits of room
        self.F = prec + 8  # bits of the powers (s/H)^k
        nodes, outputs = _linearise(prog, cvals)
        self.size = size = n + 1 + len(nodes)
        zero = [False] * size  # structurally zero (zero weights, or a zero factor)
        self.spec: list[tuple[Any, ...]] = []  # (node, "mul", a, b) or (node, "lin", terms)
        for node, item in enumerate(nodes, start=n + 1):
            if item[0] == "mul":
                zero[node] = zero[item[1]] or zero[item[2]]
                if not zero[node]:
                    self.spec.append((node, "mul", item[1], item[2]))
                continue
            terms = []
            for child, weight in item[1]:
                M, E = _mantissa(weight, "the parameters")
                if M and not zero[child]:
                    terms.append((child, M, E, math.log2(abs(M)) + E))
            zero[node] = not terms
            if terms:
                self.spec.append((node, "lin", terms))
        self.rows: list[tuple[int, int, int, float, list[int]] | None] = []
        shared: dict[tuple[int, int], list[int]] = {}
        for node, weight in outputs:  # y_i' = w node: G_k = w/(k+1) * 2**-Ew exactly rounded
            M, E = _mantissa(weight, "the parameters")
            if not M or zero[node]:
                self.rows.append(None)
                continue
            Ew = E + abs(M).bit_length() - wprec
            if (M, E) not in shared:
                X = M << (E - Ew)
                shared[M, E] = [_div_round(X, k + 1) for k in range(p)]
            self.rows.append((node, Ew, M, math.log2(abs(M)) + E, shared[M, E]))
        # groups of rows with the same blocks: one exponent per group and step
        member: dict[tuple[int, ...], list[int]] = {}
        for i in range(n):
            key = tuple(b for b, (start, stop) in enumerate(blocks) if start <= i < stop)
            member.setdefault(key, []).append(i)
        self.groups = list(member.items())
        self.group_of = [0] * n
        for g, (_key, rows) in enumerate(self.groups):
            for i in rows:
                self.group_of[i] = g
        self.blocks = list(blocks)
        self.expand_fn = _compiled(self._source())

    # -- code generation ------------------------------------------------------------
    def _source(self) -> str:
        """The text of ``expand(C, V, p)``: order 0, then ``for k in range(1, p)``."""
        one = self.n
        names = [f"c{i}" for i in range(self.size)]
        consts: list[str] = []
        head: list[str] = []
        body: list[str] = []
        for item in self.spec:
            node = item[0]
            c, s, h = f"c{node}", f"s{node}", f"h{node}"
            consts += [s, h]
            if item[1] == "mul":
                a, b = f"c{item[2]}", f"c{item[3]}"
                head.append(f"{c}.append(({a}[0] * {b}[0] + {h}) >> {s})")
                body.append(f"{c}.append((sum(map(mul, {a}, reversed({b}))) + {h}) >> {s})")
                continue
            terms0, terms = [], []
            for j, (child, *_rest) in enumerate(item[2]):
                w = f"a{node}_{j}"
                consts.append(w)
                terms0.append(f"{w} * c{child}[0]" if child != one else w)
                if child != one:
                    terms.append(f"{w} * c{child}[k]")
            head.append(f"{c}.append(({' + '.join(terms0)} + {h}) >> {s})")
            body.append(f"{c}.append(({' + '.join(terms)} + {h}) >> {s})" if terms
                        else f"{c}.append(0)")  # fmt: skip
        for i, row in enumerate(self.rows):
            if row is None:
                head.append(f"c{i}.append(0)")
                body.append(f"c{i}.append(0)")
                continue
            g, s, h = f"g{i}", f"s{i}", f"h{i}"
            consts += [g, s, h]
            line = f"c{i}.append(({g}[K] * c{row[0]}[K] + {h}) >> {s})"
            head.append(line.replace("K", "0"))
            body.append(line.replace("K", "k"))
        lines = ["def expand(C, V, p):"]
        lines.append(f"    ({', '.join(names)},) = C")
        if consts:
            lines.append(f"    ({', '.join(consts)},) = V")
        lines += ["    " + s for s in head]
        lines.append("    for k in range(1, p):")
        lines += ["        " + s for s in body] or ["        pass"]
        return "\n".join(lines) + "\n"


class _CompiledEngine(_CompiledProgram):
    """The Taylor series of the solution in fixed point, compiled to straight-line Python.

    Number format.  Each step takes a power of two ``H = 2**sigma`` (the step is at most
    ``H``: :attr:`cap`) and works with the scaled coefficients ``c_k H^k`` of every node.
    Scaling commutes with the recurrences (``(a b)_k H^k = sum_j a_j H^j b_(k-j) H^(k-j)``),
    and, ``H`` being a power of two, it is exact.  Each node ``c`` has one exponent ``q_c``
    per step for all its orders: the scaled coefficients are the integers ``M_ck`` times
    ``2**q_c``, with ``q_c = e_c - prec`` for a bound ``|c| < 2**e_c`` propagated from the
    state (a state row: its block's ``max |y_i|``, as the step rule's ``ref``; ``a b``:
    ``e_a + e_b``; ``sum w_j c_j``: ``log2 sum |w_j| 2**e_j``).  So a Cauchy product is a
    plain integer dot product, ``sum(map(mul, a, reversed(b)))``, with no shift per term, and
    each new coefficient is rounded once, ``(S + half) >> shift``, with a shift fixed for the
    whole step.  The program (:func:`_linearise`) is compiled once into a Python function of
    one statement per node and order (products, linear combinations with their weights
    aligned once per step, the outputs ``y_(k+1) = w/(k + 1) H node_k``): no Python loop
    over the terms and no per-node interpretation.

    Accuracy.  The floating-point engines round every coefficient relative to itself; here a
    coefficient is rounded to ``2**-prec`` of its node's bound.  The error of a step is
    nonetheless of the same order: the state itself (order 0) carries ``2**-prec`` of its
    block norm in both, and every coefficient of order ``k`` inherits that through the
    recurrence (a bound like ``e_c``, not like ``|c_k|``); the series is summed at ``s / H <=
    1`` so that no rounding error is amplified by ``(s / H)^k``.  The step rule is
    :func:`integrate`'s (the same ``eps``, blocks and orders), capped at ``H``: a top
    coefficient below the rounding (``|c_p H^p| < 2**q_c``) then means a term below ``eps
    ref``, as the rule asks.  ``H`` is taken ``1-2x`` the previous step (twice the cap after a
    capped step; the first from the derivative's bound, ``~4 |y| / |y'|``) and never above
    the time left: the scaled coefficients then decay (``h ~ rho / e^2`` for the radius of
    convergence ``rho``), and their top orders have fewer bits than ``prec`` (measured: 1-2x
    takes one step more than the reference on seed 001 and 10-20% less time than 2-4x).
    """

    def __init__(
        self,
        prog: TaylorProgram,
        cvals: Sequence[Any],
        y: Sequence[Any],
        p: int,
        blocks: Sequence[tuple[int, int]],
    ):
        self._compile(prog, cvals, p, blocks)
        ys = [_mantissa(v, "y0") for v in y]
        self.ys, self.yexp = [m for m, _e in ys], [e for _m, e in ys]
        self.sigma: int | None = None  # log2 H of the current step
        self.next_sigma: int | None = None  # from the last step taken
        self.C: list[list[int]] = []
        self.q: list[int] = []

    # -- one step ----------------------------------------------------------------------
    def _bounds(self) -> tuple[list[int], list[int]]:
        """Per row group and per node: the bound exponent ``e`` (``|value| < 2**e``)."""
        n = self.n
        top = [
            abs(m).bit_length() + x if m else None for m, x in zip(self.ys, self.yexp, strict=True)
        ]  # |y_i| < 2**top_i
        nonzero = [x for x in top if x is not None]
        total = max(nonzero) if nonzero else 1  # a zero state: absolute (ref 1 < 2**1)
        block = []
        for start, stop in self.blocks:
            inside = [x for x in top[start:stop] if x is not None]
            block.append(max(inside) if inside else total)  # a zero block: the whole state
        eg = [min((block[b] for b in key), default=total) for key, _rows in self.groups]
        e = [0] * self.size
        for i in range(n):
            e[i] = eg[self.group_of[i]]
        e[n] = 1  # the series 1
        for item in self.spec:
            if item[1] == "mul":
                e[item[0]] = e[item[2]] + e[item[3]]
            else:
                e[item[0]] = _log2_sum([lw + e[child] for child, _m, _E, lw in item[2]])
        return eg, e

    def expand(self, horizon: Any) -> None:
        """The scaled Taylor coefficients (orders ``0..p``) at the current state, with
        ``H <= horizon`` (the time left)."""
        n, prec, p = self.n, self.prec, self.p
        eg, e = self._bounds()
        sigma = _ceil_log2(horizon)
        if self.next_sigma is None:  # first step: H ~ 4 |y| / |y'| (bounds), <= horizon
            ratios = [eg[self.group_of[i]] - (row[3] + e[row[0]])
                      for i, row in enumerate(self.rows) if row is not None]  # fmt: skip
            if ratios:
                sigma = min(sigma, math.floor(min(ratios)) + 2)
        else:
            sigma = min(sigma, self.next_sigma)
        self.sigma = sigma
        q = [x - prec for x in e]
        q[n] = 0  # the series 1 is exact: [1, 0, 0, ...]
        qg = [x - prec for x in eg]
        for i in range(n):
            q[i] = qg[self.group_of[i]]
        V: list[Any] = []
        for item in self.spec:
            node = item[0]
            if item[1] == "mul":
                shift = q[node] - q[item[2]] - q[item[3]]
                V += [shift, (1 << (shift - 1)) if shift > 0 else 0]
                continue
            qt = [E + q[child] for child, _M, E, _lw in item[2]]
            low = min(qt)
            if q[node] < low:
                q[node] = low
            shift = q[node] - low
            V += [shift, (1 << (shift - 1)) if shift > 0 else 0]
            V += [M << (t - low) for (_c, M, _E, _lw), t in zip(item[2], qt, strict=True)]
        for i, row in enumerate(self.rows):
            if row is None:
                continue
            node, Ew, _M, _lw, G = row
            shift = q[i] - (Ew + q[node] + sigma)
            if shift < 0:  # the state's exponent finer than the product's: finer weights
                G, shift = [g << -shift for g in G], 0
            V += [G, shift, (1 << (shift - 1)) if shift > 0 else 0]
        C: list[list[int]] = [
            [_round_shift(m, q[i] - x)]
            for i, (m, x) in enumerate(zip(self.ys, self.yexp, strict=True))
        ]
        C.append([1] + [0] * p)  # the series 1
        C += [[] for _ in range(self.size - n - 1)]
        self.expand_fn(C, V, p)
        self.C, self.q = C, q

    @property
    def cap(self) -> Any:
        """The largest step this expansion allows, ``H = 2**sigma``."""
        return mpmath.ldexp(1, self.sigma)

    def absmax(self, k: int, start: int, stop: int) -> Any:
        """``max |Y[i][k]|`` over ``start <= i < stop`` (0 for an empty range)."""
        best = mpmath.mpf(0)
        C, q = self.C, self.q
        for _key, rows in self.groups:
            ms = [abs(C[i][k]) for i in rows if start <= i < stop]
            m = max(ms, default=0)
            if m:
                best = max(best, mpmath.mpf((m, q[rows[0]] - k * self.sigma)))
        return best

    def coefficients(self) -> list[list[Any]]:
        """The Taylor coefficients ``Y[i][k]`` (unscaled, ``mpf``): for tests."""
        return [[mpmath.mpf((m, self.q[i] - k * self.sigma)) for k, m in enumerate(row)]
                for i, row in enumerate(self.C[: self.n])]  # fmt: skip

    def _sum(self, s: Any) -> list[int]:
        """``sum_k M_ik P_k``: the series at ``s`` as integers times ``2**(q_i - F)``,
        ``P_k = (s / H)^k`` in fixed point at ``F`` bits (``k`` ulps)."""
        F = self.F
        r = _round_shift(*_split_scaled(s, F - self.sigma))
        one, half = 1 << F, 1 << (F - 1)
        P = [one]
        for _ in range(self.p):
            P.append((P[-1] * r + half) >> F)
        return [sum(map(operator.mul, row, P)) for row in self.C[: self.n]]

    def evaluate(self, s: Any) -> list[Any]:
        """The series at offset ``s`` from the current time (``mpf`` at the working
        precision)."""
        F = self.F
        return [mpmath.mpf((m, self.q[i] - F)) for i, m in enumerate(self._sum(s))]

    def advance(self, h: Any) -> None:
        """Move the current state to offset ``h`` (the end of the step)."""
        self.ys = self._sum(h)
        self.yexp = [x - self.F for x in self.q[: self.n]]
        # the next H: 1-2x this step (twice the cap if it bound)
        self.next_sigma = self.sigma + 1 if h >= self.cap else _ceil_log2(h)


def _split_scaled(s: Any, bits: int) -> tuple[int, int]:
    """``(M, shift)`` with ``s * 2**bits = M * 2**-shift`` exactly (``s >= 0``)."""
    M, E = _mantissa(s, "the time offset")
    return M, -(E + bits)


def _div_round(x: int, d: int) -> int:
    """``x / d`` rounded to the nearest integer (``d > 0``; halves away from zero)."""
    q, r = divmod(abs(x), d)
    q += 2 * r >= d
    return q if x >= 0 else -q


def _horner(coeffs: Sequence[Any], h: Any) -> Any:
    acc = coeffs[-1]
    for c in reversed(coeffs[:-1]):
        acc = acc * h + c
    return acc
