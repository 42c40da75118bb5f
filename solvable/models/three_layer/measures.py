"""Seed 004, eqs. (2), (10) and Section 5.4: the exact measures the regimes are read
from, each unchanged by the rescaling (6): the cosine similarity ``D`` (2)
(:func:`cosine_similarity`), the relative distance ``RD`` (10)
(:func:`relative_distance`) and the condensation ``zeta`` (:func:`condensation`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable.models.three_layer.coordinates import _describe


# ---------------------------------------------------------------------------
# eqs. (2), (10) and Section 5.4: the measures, exact
# ---------------------------------------------------------------------------
def _vector(name: str, value: Any) -> list[sp.Expr]:
    if isinstance(value, (str, bytes)) or not isinstance(
        value, (Sequence, sp.MatrixBase, np.ndarray)
    ):
        raise TypeError(f"{name} must be a sequence of numbers, got {_describe(value)}")
    out = [
        sp.nsimplify(v, rational=True) if isinstance(v, float) else nb.to_expr(f"{name}[{i}]", v)
        for i, v in enumerate(list(value))
    ]
    if not out:
        raise ValueError(f"{name} must not be empty, got {_describe(value)}")
    bad = [v for v in out if v.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or v.is_real is False
           or v.is_finite is False]  # fmt: skip
    if bad:
        raise ValueError(f"{name} must hold finite real numbers, got {_describe(value)}")
    return out


def _inner(u: Sequence[sp.Expr], v: Sequence[sp.Expr]) -> sp.Expr:
    return sp.Add(*(a * b for a, b in zip(u, v, strict=True)))


def cosine_similarity(u: Any, v: Any) -> sp.Expr:
    """Eq. (2): ``D(u, v) = u^T v / ((u^T u)^(1/2) (v^T v)^(1/2))``, exact (sympy).

    Parameters
    ----------
    u, v : sequence of numbers or sympy expressions
        Two vectors of the same length (floats are read as the decimal they print as).

    Returns
    -------
    sympy.Expr
        In ``[-1, 1]``; ``1`` (``-1``) for equal (opposite) directions, ``0`` for
        perpendicular vectors (Figure 3's caption; claim ``three_layer.cosine_similarity``).
    """
    a, b = _vector("u", u), _vector("v", v)
    if len(a) != len(b):
        raise ValueError(f"u and v must have the same length, got {len(a)} and {len(b)}")
    for name, w in (("u", a), ("v", b)):
        if all(x.is_zero for x in w):
            raise ValueError(f"{name} must not be the zero vector (D is undefined), got {w}")
    return _inner(a, b) / (sp.sqrt(_inner(a, a)) * sp.sqrt(_inner(b, b)))


def relative_distance(final: Any, initial: Any) -> sp.Expr:
    """Eq. (10): ``RD(W) = ||theta_W* - theta_W(0)||_2 / ||theta_W(0)||_2``, exact (sympy),
    with the weights of a layer (and their biases) flattened into one vector.

    Parameters
    ----------
    final, initial : sequence (or nested sequences) of numbers or sympy expressions
        ``theta_W*`` after training and ``theta_W(0)``, the same shape.

    Returns
    -------
    sympy.Expr
        ``RD >= 0``; unchanged by the rescaling (6) and by the time change (8) (claim
        ``three_layer.rd_invariance``), so ``S_W`` of eq. (11) is the same for the raw and
        the normalised network.
    """
    w1, w0 = _vector("final", _flatten(final)), _vector("initial", _flatten(initial))
    if len(w1) != len(w0):
        raise ValueError(f"final and initial must have the same size, got {len(w1)}, {len(w0)}")
    if all(x.is_zero for x in w0):
        raise ValueError("initial must not be all zeros (RD divides by ||theta_W(0)||)")
    diff = [a - b for a, b in zip(w1, w0, strict=True)]
    return sp.sqrt(_inner(diff, diff)) / sp.sqrt(_inner(w0, w0))


def _flatten(value: Any) -> Any:
    if isinstance(value, sp.MatrixBase):
        return list(value)
    if isinstance(value, np.ndarray):
        return list(value.ravel())
    if (
        isinstance(value, Sequence)
        and not isinstance(value, (str, bytes))
        and value
        and all(
            isinstance(r, (Sequence, np.ndarray)) and not isinstance(r, (str, bytes)) for r in value
        )
    ):
        return [x for r in value for x in r]
    return value


def condensation(W: Any) -> sp.Expr:
    """Section 5.4: ``zeta = (1/(m/2)^2) sum_{i,j=1}^{m/2} |D(u_i, u_j)|`` over the
    ``m/2`` rows of ``W`` with the largest norms (``u_i`` = the row ranked ``i``; the
    caption of Figure 3 selects the half with the largest modulus), exact (sympy).

    ``m/2`` is rounded down for odd ``m`` (the paper's widths are even); rows of equal
    norm keep their order.  ``zeta = 1`` when the selected rows are parallel or opposite
    ("condense in one direction", Figure 8) and ``2/m`` (its least value: the diagonal
    alone) when they are mutually perpendicular (claim ``three_layer.condensation``).

    Parameters
    ----------
    W : nested sequence of numbers, shape (m, k), m >= 2
        The rows are the neurons' input weights (``W^[2]``, with its bias column when the
        network has one).

    Returns
    -------
    sympy.Expr
        ``zeta`` in ``[2/m, 1]``.
    """
    if isinstance(W, (str, bytes)) or not isinstance(W, (Sequence, sp.MatrixBase, np.ndarray)):
        raise TypeError(f"W must be a nested sequence (m, k), got {_describe(W)}")
    rows = [list(W.row(i)) for i in range(W.rows)] if isinstance(W, sp.MatrixBase) else [
        _vector(f"W[{i}]", r) for i, r in enumerate(W)]  # fmt: skip
    if len(rows) < 2 or len({len(r) for r in rows}) != 1:
        raise ValueError(f"W must have m >= 2 rows of equal length, got {_describe(W)}")
    k = len(rows) // 2
    order = sorted(range(len(rows)), key=lambda i: -sp.sqrt(_inner(rows[i], rows[i])))
    top = [rows[i] for i in order[:k]]
    if any(all(x.is_zero for x in u) for u in top):
        raise ValueError(f"W must have at least m/2 = {k} non-zero rows (D of a zero row is "
                         f"undefined), got {_describe(W)}")  # fmt: skip
    return sp.Add(*(sp.Abs(cosine_similarity(u, v)) for u in top for v in top)) / k**2
