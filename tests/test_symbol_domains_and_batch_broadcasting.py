"""The declared domains of the global-convergence symbols (the loss bound is a nonnegative
real) and the batch-shape broadcasting of the checked array arguments (numpy's rule, and a
refusal naming the arguments).

Written in the mutation-testing triage of the seed-5 run.
"""

import itertools

import numpy as np
import pytest
import sympy as sp

from solvable._core.arrays import ArrayArgs
from solvable.models import global_convergence as gc
from solvable.models import kunin


def test_global_convergence_symbols_carry_their_documented_domains():
    # mutant: solvable/models/global_convergence.py:138:core/ReplaceTrueWithFalse:9
    # sizes are positive integers, constants positive, times / losses / scalings >= 0 reals
    positive_integers = (gc.N, gc.D)
    positive = (gc.KAPPA, gc.DELTA, gc.CS, gc.C1, gc.MS)
    nonnegative = (gc.T, gc.L0, gc.LAM, gc.SUM_SQ, gc.R0, gc.STEPS)
    for s in positive_integers:
        assert s.is_integer and s.is_positive, s
    for s in positive:
        assert s.is_real and s.is_positive, s
    for s in nonnegative:
        assert s.is_real and s.is_nonnegative, s
    assert gc.STEPS.is_integer
    # hence sympy knows the Theorem 5.1(b) loss bound exp(-gamma kappa_n t/2) L0 is a
    # nonnegative real (t real, L0 >= 0)
    loss = gc.theorem_5_1().loss
    assert loss.is_real and loss.is_nonnegative
    assert sp.ask(sp.Q.nonnegative(loss))


_SHAPES = [(), (1,), (3,), (4,), (0,), (1, 3), (2, 1), (2, 3), (2, 4), (5, 1, 3), (0, 3)]


def test_batch_shapes_broadcast_by_numpys_rule_or_are_refused_naming_them():
    # mutant: solvable/_core/arrays.py:171:core/ReplaceBinaryOperator_Add_Pow:0
    # every pair and some triples of batch shapes, against np.broadcast_shapes
    combos = [*itertools.product(_SHAPES, repeat=2), ((3,), (1,), (4,)), ((2, 1), (3,), (1, 1))]
    for shapes in combos:
        named = [(f"arg{i}", s) for i, s in enumerate(shapes)]
        try:
            want = np.broadcast_shapes(*shapes)
        except ValueError:
            with pytest.raises(ValueError, match="batch shapes must broadcast together") as e:
                ArrayArgs("f").broadcast(*named)
            assert all(f"arg{i} {s}" in str(e.value) for i, s in enumerate(shapes))
        else:
            assert ArrayArgs("f").broadcast(*named) == want, shapes


def test_kunin_output_refuses_one_axis_batches_that_do_not_broadcast_naming_a_and_w():
    # mutant: solvable/_core/arrays.py:171:core/ReplaceBinaryOperator_Add_Pow:0
    X = np.ones((5, 2))
    with pytest.raises(ValueError, match=r"broadcast together, got a \(3,\), w .*\(2,\)"):
        kunin.output(np.ones(3), np.ones((2, 2)), X)
    # a broadcasting batch keeps its shape: (3,) with (1,) gives (3, n)
    out = kunin.output(np.arange(3.0), np.ones((1, 2)), X)
    # f(x_i) = a w^T x_i = a * 2 for X all ones and w = (1, 1): exact in float64
    np.testing.assert_array_equal(out, np.repeat(2 * np.arange(3.0)[:, None], 5, axis=1))


def test_kunin_wide_loss_batched_targets_have_c_on_their_last_axis():
    # mutant: solvable/models/kunin/losses.py:151:core/ReplaceUnaryOperator_USub_UAdd:30
    # (Y.shape[-1] read as Y.shape[1]: the same for a 2-D Y, n for a batched (B, n, c) one)
    rng = np.random.default_rng(3)
    B, h, c, d, n = 2, 3, 2, 4, 5
    A, W = rng.standard_normal((B, h, c)), rng.standard_normal((B, h, d))
    X, Y = rng.standard_normal((n, d)), rng.standard_normal((B, n, c))
    try:
        got = kunin.wide_loss(A, W, X, Y)
    except ValueError as exc:  # a valid batch refused: a failed check, not an error
        raise AssertionError(f"a valid batched Y was refused: {exc}") from exc
    # each batch entry is the unbatched loss (one sum, in the same order: equal)
    want = [kunin.wide_loss(A[b], W[b], X, Y[b]) for b in range(B)]
    np.testing.assert_array_equal(got, want)
    assert got.shape == (B,)
    # a batched Y whose c differs from A's is refused, even where A's c equals n
    A5 = rng.standard_normal((B, h, n))
    with pytest.raises(ValueError, match=r"the outputs c \(columns of A and Y\)"):
        kunin.wide_loss(A5, W, X, Y)
