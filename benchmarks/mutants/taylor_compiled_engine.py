"""Mutants of the compiled fixed-point Taylor engine of issue 17 target 3
(``numerics.mp._CompiledEngine``, ``engine="vector"``, the default of ``numerics.simulate(...,
method="mpmath")``): each a realistic bug in the fast path that the reference engine
(``engine="reference"``) does not share, killed by ``tests/test_simulate.py`` (the engines'
coefficients against each other, the simulated flow against the closed form).  They replace
``core.vector_taylor_cauchy_product_not_reversed`` and ``core.vector_taylor_sum_not_aligned``
(``benchmarks/mutants/core.py``), written for the numpy engine this one replaced.  Format:
see ``benchmarks/mutation.py``."""

# the coefficient tests first: a broken engine fails there in seconds, where the
# integrations of tests/test_simulate.py crawl to max_steps
_T = ["tests/test_taylor_engine.py", "tests/test_simulate.py"]

MUTANTS = [
    dict(
        name="taylor_engine.compiled_cauchy_not_reversed",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old='body.append(f"{c}.append((sum(map(mul, {a}, reversed({b}))) + {h}) >> {s})")',
        new='body.append(f"{c}.append((sum(map(mul, {a}, {b})) + {h}) >> {s})")',
        why="the generated Cauchy product sums a_j b_j instead of a_j b_(k-j) (killed by "
        "test_vector_engine_on_the_seed_001_flow and the closed-form tests)",
        tests=_T,
        claims="xu_ziyin.*",
    ),
    dict(
        name="taylor_engine.compiled_powers_unscaled",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old="r = _round_shift(*_split_scaled(s, F - self.sigma))",
        new="r = _round_shift(*_split_scaled(s, F))",
        why="the series of scaled coefficients y_k H^k summed with the powers of s, not of "
        "s / H (killed by test_taylor_matches_closed_form_at_30_digits)",
        tests=_T,
        claims="xu_ziyin.*",
    ),
    dict(
        name="taylor_engine.compiled_sum_not_aligned",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old="V += [M << (t - low) for (_c, M, _E, _lw), t in zip(item[2], qt, strict=True)]",
        new="V += [M for (_c, M, _E, _lw), t in zip(item[2], qt, strict=True)]",
        why="the weights of a linear combination not aligned to the common exponent of its "
        "terms: children of different exponents summed as if equal (killed by "
        "test_vector_engine_on_the_seed_001_flow)",
        tests=_T,
        claims="xu_ziyin.*",
    ),
    dict(
        name="taylor_engine.compiled_output_factor",
        seed="core",
        backend="mpmath",
        file="numerics/mp.py",
        old="shared[M, E] = [_div_round(X, k + 1) for k in range(p)]",
        new="shared[M, E] = [_div_round(X, k + 2) for k in range(p)]",
        why="y_(k+1) = w node_k / (k + 2): the 1/(k + 1) of the Taylor recurrence off by one "
        "(killed by test_vector_engine_on_the_seed_001_flow)",
        tests=_T,
        claims="xu_ziyin.*",
    ),
]
