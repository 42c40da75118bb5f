"""Mutants of the fast paths of issue 17 target 3 (the 30-digit oracle): the derivation of
gradient flows by sympy's rules applied once per subexpression
(:func:`solvable._core.flows.gradient`).  Format: see ``benchmarks/mutation.py``."""

MUTANTS = [
    dict(
        name="core.flow_gradient_product_rule",
        seed="core",
        backend="sympy",
        file="solvable/_core/flows.py",
        old="terms.append(sp.Mul(*args[:i], da, *args[i + 1 :]))",
        new="terms.append(sp.Mul(*args[:i], da))",
        why="the product rule of the fast derivation drops the factors after the one "
        "differentiated (a slicing slip): d(u_i h_i)/dW_ij loses u_i",
        tests=["tests/test_flow_derivation.py"],
        claims="xu_ziyin.*",
    ),
    dict(
        name="core.flow_gradient_memo_shared",
        seed="core",
        backend="sympy",
        file="solvable/_core/flows.py",
        old="return [derivative(expr, s, {}) if s in under[expr] else sp.S.Zero for s in wrt]",
        new="shared: dict = {}\n"
        "    return [derivative(expr, s, shared) if s in under[expr] else sp.S.Zero for s in wrt]",
        why="the fast derivation's memo of derivatives kept across parameters: every "
        "parameter gets the first one's derivative of a shared subexpression",
        tests=["tests/test_flow_derivation.py"],
        claims="xu_ziyin.*",
    ),
]
