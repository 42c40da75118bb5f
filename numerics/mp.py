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

Engines (issue 17).  The recurrences cost ``O(p^2)`` multiplications per product node and
step; node by node in ``mpmath`` (``engine="reference"``) each costs a few microseconds of
Python.  The default ``engine="vector"`` computes one order of all the nodes of a depth of
the program at once on numpy object arrays of Python integers (mantissas; exponents in int64
arrays), the same floating point without a Python loop per term: on seed 001 with d = 50,
d0 = 10 to 10 t_c at dps 30 it is ~8x faster on a loaded 2-core machine
(``benchmarks/oracle_speed.py``); same order, same error estimate, same step rule.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from numerics.scipy_ode import progress_bar
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
"""How :func:`integrate` computes the Taylor series: ``"vector"`` (default,
:class:`_VectorEngine`) or ``"reference"`` (:func:`_taylor`, node by node)."""


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
    series: ``"vector"`` (default) evaluates each order of every node of one depth of the
    program at once, in floating point emulated on numpy arrays of Python integers at
    ``PREC_EXTRA`` bits beyond the working precision (:class:`_VectorEngine`);
    ``"reference"`` is the node-by-node ``mpmath.fdot`` recurrence (:func:`_taylor`).  Both
    take the same order, the same error estimate and the same steps (up to the last bits of
    the step size), and both round every Taylor coefficient once to at least the working
    precision; the vector engine is 4-8x faster on seed 001 at d = 10..50
    (``benchmarks/oracle_speed.py``).

    Returns the states (lists of ``mpf`` at ``dps + guard`` digits) and statistics
    (``steps``, ``order``).
    """
    blocks = [(0, len(y0))] if blocks is None else list(blocks)
    if len(y0) != prog.n_state:
        raise ValueError(f"y0 must have {prog.n_state} entries, got {len(y0)}")
    if len(params) != prog.n_params:
        raise ValueError(f"params must have {prog.n_params} entries, got {len(params)}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
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
        y = [mpmath.mpf(v) for v in y0]
        targets = [mpmath.mpf(v) for v in times]
        if any(b < a for a, b in itertools.pairwise(targets)) or (targets and targets[0] < 0):
            raise ValueError("times must be sorted and >= 0")
        series = (_VectorEngine if engine == "vector" else _ReferenceEngine)(prog, cvals, y, p)
        t = mpmath.mpf(0)
        j = 0
        bar = progress_bar(float(targets[-1])) if progress and targets else None
        while j < len(targets) and targets[j] <= t:  # t = 0 requested
            out.append(list(y))
            j += 1
        try:
            while j < len(targets):
                series.expand()
                h = targets[-1] - t
                total = series.absmax(0, 0, len(y))
                for start, stop in blocks:
                    scale = series.absmax(0, start, stop)
                    ref = scale if scale > 0 else (total if total > 0 else mpmath.mpf(1))
                    for k in (p - 1, p):
                        size = series.absmax(k, start, stop)
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
                    out.append(series.evaluate(targets[j] - t))
                    j += 1
                series.advance(h)
                t = targets[-1] if last else t_next
                steps += 1
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

    def expand(self) -> None:
        """The Taylor coefficients (orders ``0..p``) at the current state."""
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
# The vector engine: the nodes of one depth at once, in floating point on integer arrays
# ---------------------------------------------------------------------------
PREC_EXTRA = 8
"""Bits the vector engine's mantissas carry beyond mpmath's working precision (``dps +
guard`` digits).  Each Taylor coefficient and each sum of the series is rounded once (to
nearest) from an exact product or an aligned sum kept at twice the precision, as
``mpmath.fdot`` rounds once; a folded constant factor (a weight, ``1/(k + 1)``) adds one
more rounding.  8 more bits (~2.4 digits, a factor 256 on each rounding error) make these
roundings finer than the reference engine's single rounding at the working precision, so
the error estimate and the step control see the same numbers to the working precision;
more bits cost time (a Python integer multiplication grows with the 30-bit digits of its
operands: 177 bits at dps 30 are 6 digits, 185 would be 7)."""

_ZERO_EXP = -(1 << 40)  # the exponent of 0: below every finite one; twice it fits int64
_bit_length = np.frompyfunc(lambda v: v.bit_length(), 1, 1)
_ONE = np.array(1, dtype=object)


def _round(S: np.ndarray, T: np.ndarray, prec: int) -> tuple[np.ndarray, np.ndarray]:
    """``S * 2**T`` (object array of ints, int64 exponents) rounded to nearest at ``prec``
    bits: mantissas with ``prec`` bits (``prec + 1`` after rounding up), 0 with exponent
    :data:`_ZERO_EXP`."""
    bits = _bit_length(S).astype(np.int64)
    shift = bits - prec
    if (shift < 0).any():  # exact: fewer bits than prec (after a cancellation, or small ints)
        S = S << np.maximum(-shift, 0)
    right = np.maximum(shift, 0)
    if right.any():
        half = np.left_shift(_ONE, np.maximum(right - 1, 0))
        half[right == 0] = 0
        S = (S + half) >> right
    return S, np.where(bits == 0, _ZERO_EXP, T + shift)


def _split(values: Sequence[Any], prec: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """``mpf`` values as (mantissa, exponent) arrays at ``prec`` bits (exact when they have
    at most ``prec`` bits); a non-finite value is a ``ValueError`` naming ``name``."""
    M = np.empty(len(values), dtype=object)
    E = np.empty(len(values), dtype=np.int64)
    for i, v in enumerate(values):
        v = mpmath.mpf(v)
        if not mpmath.isfinite(v):
            raise ValueError(f"{name} must be finite for the Taylor integrator, got {v}")
        sign, man, exp, _bc = v._mpf_
        M[i], E[i] = (-man if sign else man), (exp if man else _ZERO_EXP)
    return _round(M, E, prec)


def _absmax(M: np.ndarray, E: np.ndarray) -> Any:
    """``max |M * 2**E|`` as an ``mpf`` (0 for none): the entries within 2 binades of the
    largest exponent (mantissas have ``prec`` or ``prec + 1`` bits) compared exactly."""
    top = int(E.max()) if len(E) else _ZERO_EXP
    if top == _ZERO_EXP:
        return mpmath.mpf(0)
    return max(abs(mpmath.mpf((int(M[i]), int(E[i])))) for i in np.flatnonzero(E >= top - 2))


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


class _VectorEngine:
    """The Taylor series of the solution, one order of every node of a depth at a time.

    The program (:func:`_linearise`) is grouped by depth in the DAG (a node's depth is one
    more than its operands'); at order ``k`` each group is a handful of numpy operations on
    object arrays of Python integers: the Cauchy products ``c_k = sum_j a_j b_(k-j)`` of a
    group as one elementwise product of two ``(m, k + 1)`` gathers and a row sum, the
    linear combinations as one product and a segmented sum.  Numbers are ``M * 2**E``
    (mantissas ``M`` of ``prec = mpmath.mp.prec + PREC_EXTRA`` bits, int64 exponents):
    products of mantissas are exact, the terms of a sum are aligned to its largest (so kept
    to ``2 prec`` bits) and the sum is rounded once (:func:`_round`), the floating point of
    ``mpmath.fdot`` without its Python loop per term.  The series is summed the same way at
    once for every state entry (``sum_k Y_k s^k`` with the powers of ``s`` at ``prec``
    bits).  Everything else (order, error estimate, step) is :func:`integrate`'s.
    """

    def __init__(self, prog: TaylorProgram, cvals: Sequence[Any], y: Sequence[Any], p: int):
        self.p, self.n = p, prog.n_state
        self.prec = prec = mpmath.mp.prec + PREC_EXTRA
        nodes, outputs = _linearise(prog, cvals)
        size = self.n + 1 + len(nodes)
        depth = [0] * size
        for i, node in enumerate(nodes, start=self.n + 1):
            kids = [c for c, _w in node[1]] if node[0] == "lin" else list(node[1:])
            depth[i] = 1 + max(depth[c] for c in kids)
        self.groups: list[tuple[Any, ...]] = []
        for level in range(1, max(depth, default=0) + 1):
            at = [i for i in range(self.n + 1, size) if depth[i] == level]
            lin = [i for i in at if nodes[i - self.n - 1][0] == "lin"]
            mul = [i for i in at if nodes[i - self.n - 1][0] == "mul"]
            if lin:
                terms = [nodes[i - self.n - 1][1] for i in lin]
                counts = np.array([len(t) for t in terms], dtype=np.int64)
                wM, wE = _split([w for t in terms for _c, w in t], prec, "the parameters")
                self.groups.append((
                    "lin", np.array(lin), np.array([c for t in terms for c, _w in t]),
                    wM, wE, np.concatenate(([0], np.cumsum(counts)[:-1])), counts,
                ))  # fmt: skip
            if mul:
                self.groups.append(("mul", np.array(mul),
                                    np.array([nodes[i - self.n - 1][1] for i in mul]),
                                    np.array([nodes[i - self.n - 1][2] for i in mul])))  # fmt: skip
        self.out_node = np.array([node for node, _w in outputs], dtype=np.int64)
        # y_(k+1) = weight node_k / (k + 1): the factors weight / (k + 1) of every order
        wM, wE = _split([w for _node, w in outputs], prec, "the parameters")
        with mpmath.workprec(prec):
            inv = _split([mpmath.mpf(1) / (k + 1) for k in range(p)], prec, "1/k")
        self.out = [_round(wM * inv[0][k], wE + inv[1][k], prec) for k in range(p)]
        self.CM = np.zeros((size, p + 1), dtype=object)
        self.CE = np.full((size, p + 1), _ZERO_EXP, dtype=np.int64)
        self.CM[self.n, 0], self.CE[self.n, 0] = 1 << (prec - 1), 1 - prec  # the series 1
        self.yM, self.yE = _split(y, prec, "y0")

    def expand(self) -> None:
        """The Taylor coefficients (orders ``0..p``) at the current state."""
        CM, CE, prec, n = self.CM, self.CE, self.prec, self.n
        CM[:n, 0], CE[:n, 0] = self.yM, self.yE
        for k in range(self.p):
            fwd, bwd = slice(k + 1), slice(k, None, -1)
            for group in self.groups:
                if group[0] == "mul":  # Cauchy products: sum_j a_j b_(k - j), row-wise
                    _kind, ids, a, b = group
                    PE = CE[a, fwd] + CE[b, bwd]
                    T = PE.max(axis=1)
                    S = ((CM[a, fwd] * CM[b, bwd]) >> (T[:, None] - PE)).sum(axis=1)
                else:  # linear combinations: segmented sums of weighted children
                    _kind, ids, kids, wM, wE, starts, counts = group
                    PE = CE[kids, k] + wE
                    T = np.maximum.reduceat(PE, starts)
                    S = np.add.reduceat((CM[kids, k] * wM) >> (np.repeat(T, counts) - PE), starts)
                CM[ids, k], CE[ids, k] = _round(S, T, prec)
            wM, wE = self.out[k]  # y_(k+1) = weight node_k / (k + 1)
            S, T = CM[self.out_node, k] * wM, CE[self.out_node, k] + wE
            CM[:n, k + 1], CE[:n, k + 1] = _round(S, T, prec)

    def absmax(self, k: int, start: int, stop: int) -> Any:
        """``max |Y[i][k]|`` over ``start <= i < stop`` (0 for an empty range)."""
        return _absmax(self.CM[start:stop, k], self.CE[start:stop, k])

    def _sum(self, s: Any) -> tuple[np.ndarray, np.ndarray]:
        with mpmath.workprec(self.prec + 8):  # s^k to k ulps of prec + 8 bits
            powers = [mpmath.mpf(1)]
            for _ in range(self.p):
                powers.append(powers[-1] * s)
        sM, sE = _split(powers, self.prec, "the time offset")
        n = self.n
        PE = self.CE[:n] + sE
        T = PE.max(axis=1)
        S = ((self.CM[:n] * sM) >> (T[:, None] - PE)).sum(axis=1)
        return _round(S, T, self.prec)

    def evaluate(self, s: Any) -> list[Any]:
        """The series at offset ``s`` from the current time (``mpf`` at the working
        precision)."""
        M, E = self._sum(s)
        return [mpmath.mpf((int(m), int(e))) for m, e in zip(M, E, strict=True)]

    def advance(self, h: Any) -> None:
        """Move the current state to offset ``h`` (the end of the step)."""
        self.yM, self.yE = self._sum(h)


def _horner(coeffs: Sequence[Any], h: Any) -> Any:
    acc = coeffs[-1]
    for c in reversed(coeffs[:-1]):
        acc = acc * h + c
    return acc
