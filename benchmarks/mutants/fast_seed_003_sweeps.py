"""Mutants of the fast paths of seed 003's simulation-backed claims (issue 17, target 4):
the alpha sweep and the delta sweep trained as one batch (one step per network), and the
states of the 30-digit check of ``piecewise_linear.self_consistent_on_flow``.  Each is a
bug that still runs and returns numbers of the right shape.  Format: see
``benchmarks/mutation.py``."""

_AL = "numerics/alpha_scaling.py"
_PL = "solvable/verification/confirmations/piecewise_linear.py"

MUTANTS = [
    dict(
        name="alpha_scaling.batched_steps_tiled",
        seed="003",
        backend="torch",
        file=_AL,
        old="    res = gradient_descent(model, both, np.repeat(lrs, seeds), [steps])",
        new="    res = gradient_descent(model, both, np.tile(lrs, seeds), [steps])",
        why="the batched alpha sweep gives network b the step of alpha b mod A instead of its "
        "own alpha's (tile for repeat): most networks train at another alpha's step; killed "
        "by test_batched_path_is_the_reference_bit_for_bit",
        tests=["tests/test_alpha_scaling.py"],
        claims=["kunin.alpha_scaling"],
    ),
    dict(
        name="piecewise_linear.batched_sweep_read_at_the_last_step",
        seed="003",
        backend="torch",
        file=_PL,
        old="                             v[1 + record.index(r[3]), j * seeds : (j + 1) * seeds]])",
        new="                             v[-1, j * seeds : (j + 1) * seeds]])",
        why="the batched delta sweep reads every net at the largest step count instead of its "
        "own (T / lr): the nets of the faster deltas trained several times too long; killed "
        "by test_batched_sweep_is_the_reference_bit_for_bit",
        tests=["tests/test_piecewise_linear.py"],
        claims=["piecewise_linear.rapid_feature_learning"],
    ),
    dict(
        name="piecewise_linear.mp_states_one_side_of_a_change",
        seed="003",
        backend="mpmath",
        file=_PL,
        old="            keep |= {k, k + 1}",
        new="            keep |= {k}",
        why="the 30-digit check skips the first state after each activation or sign change "
        "(a new pattern is first checked up to 0.1 time units later, or never); killed by "
        "test_mp_states_cover_both_sides_of_every_change",
        tests=["tests/test_piecewise_linear.py"],
        claims=["piecewise_linear.self_consistent_on_flow"],
    ),
]
