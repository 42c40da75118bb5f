"""The fast derivation of gradient flows (issue 17 target 3): :func:`solvable._core.flows.
gradient` applies sympy's own differentiation rules once per subexpression instead of calling
``sp.diff`` per parameter, and must give *the same expressions* as ``sp.diff`` -- compared
with ``==`` (structural equality, stronger than a proof that the difference simplifies to
0), so the compiled Taylor programs, the conservation-law proofs and every claim built on a
flow see exactly what they saw before.

Checked: every model's flow (polynomial, ReLU, tanh, swish, an undefined activation, a fixed
block), the learning rates and fixed blocks of :func:`gradient_flow`, random expressions
(hypothesis: sums, products, powers with numeric, rational, negative and symbolic exponents,
functions, shared subexpressions), and bad input.  A broken rule is the mutant
``core.flow_gradient_product_rule`` (benchmarks/mutants/oracle_speed.py), which the first
test kills.
"""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from solvable._core.flows import gradient, gradient_flow
from solvable.models import kunin, mirror_flow, node_scaling
from solvable.models import xu_ziyin as xz
from solvable.models.linearisation import system as lin_system
from solvable.models.three_layer import system as three_layer_system

# Every model's flow builder at a small size (sp.diff, the reference, is quadratic in the
# size of the loss: these take well under a second together).
FLOWS = {
    "xu_ziyin": lambda: xz.flow(3, 2),
    "kunin": lambda: kunin.flow(3, 2),
    "kunin_wide": lambda: kunin.wide_flow(3, 2, 2, 2),
    "kunin_region": lambda: kunin.piecewise_linear_flow(2, 2, 2),
    "kunin_relu": lambda: kunin.piecewise_linear_flow(2, 2, 2, region=False),
    "three_layer_relu_bias": lambda: three_layer_system._flow(2, 2, 2, True),
    "three_layer_generic": lambda: three_layer_system._flow(2, 2, 2, False, "generic"),
    "mirror_flow": lambda: mirror_flow.diagonal_flow(2, 3),
    "linearisation_tanh": lambda: lin_system._flow(2, 2, 2, "tanh", False),
    "linearisation_swish_scale": lambda: lin_system._flow(2, 2, 2, "swish", True),
    "linearisation_generic": lambda: lin_system._flow(2, 2, 2, "generic", False),
    "node_scaling_relu": lambda: node_scaling.flow_symbolic(2, 2, 2, "relu"),
    "node_scaling_tanh": lambda: node_scaling.flow_symbolic(2, 2, 2, "tanh"),
}


@pytest.mark.parametrize("name", sorted(FLOWS))
def test_gradient_is_sp_diff_on_every_model_flow(name):
    F = FLOWS[name]()
    got = gradient(F.loss, F.state)
    want = [sp.diff(F.loss, s) for s in F.state]
    assert got == want


def test_gradient_flow_rates_and_fixed_blocks():
    """``rhs = -eta dL/dtheta`` with each block's rate, ``0`` for a block with rate 0, the
    same expressions as ``-eta * sp.diff`` (seed 001 at d = 8, d0 = 4: 40 parameters, deep
    sums; seed 004's node-scaling flow, whose output layer ``a`` does not train)."""
    S = xz.symbolic()
    F = xz.flow(8, 4)
    rate = {"u": S.eta_u, "W": S.eta_w}
    assert F.rhs == tuple(-rate[str(s)[0]] * sp.diff(F.loss, s) for s in F.state)
    G = node_scaling.flow_symbolic(2, 3, 2, "linear")
    a_block, W_block = G.spans()
    assert all(r == 0 for r in G.rhs[slice(*a_block)])
    eta = G.params[0]
    assert G.rhs[slice(*W_block)] == tuple(
        -eta * sp.diff(G.loss, s) for s in G.state[slice(*W_block)]
    )


def test_gradient_of_symbols_absent_or_repeated():
    x, y, z = sp.symbols("x y z", real=True)
    e = x**2 * y + sp.tanh(x * y) + 3
    assert gradient(e, [x, z, x]) == [sp.diff(e, x), 0, sp.diff(e, x)]
    assert gradient(sp.Integer(5), [x]) == [0]
    assert gradient(x, []) == []


def test_gradient_refuses_what_is_not_a_symbol():
    x = sp.Symbol("x")
    with pytest.raises(TypeError, match=r"wrt must hold sympy Symbols, got \[x, 2\*x\]"):
        gradient(x**2, [x, 2 * x])
    with pytest.raises(TypeError, match="wrt must hold sympy Symbols"):
        gradient(x**2, ["x"])


# ---------------------------------------------------------------------------
# random expressions: the rules agree with sympy's wherever sympy's apply
# ---------------------------------------------------------------------------
_X = sp.symbols("x y z", real=True)
_K = sp.Symbol("k", positive=True)
_LEAVES = st.sampled_from([*_X, _K, sp.Integer(2), sp.Rational(-1, 3), sp.Float("0.5")])


def _extend(children):
    unary = st.sampled_from([sp.tanh, sp.exp, sp.sin, lambda e: sp.Max(0, e),
                             lambda e: sp.sqrt(e**2 + 1), sp.Abs])  # fmt: skip
    powers = st.sampled_from([2, 3, -1, sp.Rational(1, 2), _K, _X[2]])
    return st.one_of(
        st.lists(children, min_size=2, max_size=4).map(lambda es: sp.Add(*es)),
        st.lists(children, min_size=2, max_size=4).map(lambda es: sp.Mul(*es)),
        st.tuples(children, powers).map(lambda t: sp.Pow(*t)),
        st.tuples(unary, children).map(lambda t: t[0](t[1])),
        # a shared subexpression, used twice (the DAG case of seed 001's residual)
        st.tuples(children, children).map(lambda t: t[0] * t[1] + t[1] ** 2),
    )


@given(st.recursive(_LEAVES, _extend, max_leaves=12))
def test_gradient_matches_sp_diff_on_random_expressions(expr):
    assert gradient(expr, [*_X, _K]) == [sp.diff(expr, s) for s in (*_X, _K)]


def test_gradient_flow_blocks_follow_the_loss():
    """A flow built from a loss with a fixed block and a 3-axis block: the blocks' shapes,
    the state order and the rhs of every entry (``sp.diff``, entry by entry)."""
    eta = sp.Symbol("eta", positive=True)

    def loss(A, T):
        return ((A[:, None, None] * T).sum() - 1) ** 2 + (T**2).sum()

    F = gradient_flow(loss, {"A": ((2,), 0), "T": ((2, 1, 2), eta)}, (eta,))
    assert F.blocks == (("A", (2,)), ("T", (2, 1, 2)))
    assert F.rhs[:2] == (0, 0)
    assert F.rhs[2:] == tuple(-eta * sp.diff(F.loss, s) for s in F.state[2:])
