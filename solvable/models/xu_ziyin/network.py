"""The two-layer linear network of seed 001: its one definition (eq. (4)).

Xu & Ziyin, "When Does Feature Learning Happen? Perspective from an Analytically Solvable
Model" (seed ``001_070589003213e0cf.txt``), Section 2.1: ``f(x) = gamma * u^T W x``,
``L = (f(x) - y)^2`` (no factor 1/2), and the learning-rate-weighted NTK of eq. (18)
(corrected), shared by the closed form, the flow and numerics; the public
:func:`network_output`, :func:`loss`, :func:`ntk` check their arguments.  ``SEED`` names the
paper's seed file (every claim, erratum and law of the model cites it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvable._core.arrays import ArrayArgs, shape_of

SEED = "001_070589003213e0cf.txt"


# ---------------------------------------------------------------------------
# The model: its one definition, shared by the closed form, the flow and numerics
# ---------------------------------------------------------------------------
def _network_output(u: Any, W: Any, x: Any, gamma: Any) -> Any:
    h = x @ W.swapaxes(-1, -2)  # (..., d) for one input, (..., n, d) for n
    return gamma * (h * (u if x.ndim == 1 else u[..., None, :])).sum(-1)


def _loss(u: Any, W: Any, x: Any, y: Any, gamma: Any) -> Any:
    return _squared_error(_network_output(u, W, x, gamma) - y)


def _squared_error(residual: Any) -> Any:
    """The loss from the residual ``f(x) - y`` (the closed form has the residual without
    cancellation, eq. (19), and takes its loss from here)."""
    return residual * residual


def _ntk(u: Any, W: Any, x: Any, eta_u: Any, eta_w: Any, gamma: Any) -> Any:
    v = W @ x
    # gamma * gamma, not gamma**2: a Python float's ** raises OverflowError, * gives inf
    return gamma * gamma * (eta_u * (v * v).sum(-1) + eta_w * (u * u).sum(-1) * (x * x).sum(-1))


# The public functions check their arguments (_core.arrays.ArrayArgs, as kunin's array
# code: a TypeError / ValueError names the argument, a result beyond float64 is refused);
# this module's own code calls the unchecked forms above.
def _weight_args(fn: str, u: Any, W: Any, x: Any, x_ndim: tuple[int, ...]) -> Any:
    """``u`` (..., d), ``W`` (..., d, d0) and ``x`` (d0,) (or (n, d0) where ``x_ndim``
    allows it) of ``fn``, checked."""
    v = ArrayArgs(fn, torch=True)
    u, W = v.array("u", u, min_ndim=1), v.array("W", W, min_ndim=2)
    x = v.array("x", x, min_ndim=1)
    if len(shape_of(x)) not in x_ndim:
        want = " or ".join(f"{k}" for k in x_ndim)
        raise ValueError(f"x must have {want} axes ((d0,) or (n, d0)), got shape {shape_of(x)}")
    v.same("the width d (last axis of u, rows of W)", ("u", u.shape[-1]), ("W", W.shape[-2]))
    v.same("the input dimension d0 (columns of W, last axis of x)",
           ("W", W.shape[-1]), ("x", x.shape[-1]))  # fmt: skip
    v.broadcast(("u without its last axis", u.shape[:-1]),
                ("W without its last two axes", W.shape[:-2]))  # fmt: skip
    return v, u, W, x


def network_output(u: Any, W: Any, x: Any, gamma: Any) -> Any:
    """``f(x) = gamma * u^T W x`` (eq. (4)).

    ``u`` (..., d), ``W`` (..., d, d0), and ``x`` (d0,) (one input: shape (...)) or ``X``
    (n, d0) (the outputs on its rows: shape (..., n)); numpy arrays (float64, or object
    arrays of sympy symbols or ``mpmath.mpf``), nested lists, or torch tensors with leading
    batch axes.  Every argument is checked (``TypeError`` / ``ValueError`` naming it; a
    tensor's values are not read), and a float64 result beyond the float64 range is a
    ``ValueError``."""
    v, u, W, x = _weight_args("network_output", u, W, x, (1, 2))
    return v(_network_output, u, W, x, v.scalar("gamma", gamma))


def loss(u: Any, W: Any, x: Any, y: Any, gamma: Any) -> Any:
    """``L = (gamma u^T W x - y)^2``, eq. (4) (no factor 1/2); arrays as in
    :func:`network_output` (``y`` a number, or an array that broadcasts with the outputs),
    checked as there."""
    v, u, W, x = _weight_args("loss", u, W, x, (1, 2))
    y = v.array("y", y)
    outputs = np.broadcast_shapes(u.shape[:-1], W.shape[:-2]) + tuple(x.shape[:-1])
    v.broadcast(("the outputs", outputs), ("y", shape_of(y)))
    return v(_loss, u, W, x, y, v.scalar("gamma", gamma))


def ntk(u: Any, W: Any, x: Any, eta_u: Any, eta_w: Any, gamma: Any) -> Any:
    r"""Learning-rate-weighted NTK ``K(x, x)`` with ``df/dt = -2 K (f - y)``.

    ``K(x, x) = gamma^2 (eta_u ||W x||^2 + eta_w ||u||^2 ||x||^2)``.  This is eq. (18)
    with the learning rates in their correct places (the paper prints
    ``eta_w W^T W + eta_u ||u||^2 I``; an erratum of this module).  Arrays as in
    :func:`network_output` (one input ``x`` (d0,)), checked as there.
    """
    v, u, W, x = _weight_args("ntk", u, W, x, (1,))
    eta_u, eta_w = v.scalar("eta_u", eta_u), v.scalar("eta_w", eta_w)
    return v(_ntk, u, W, x, eta_u, eta_w, v.scalar("gamma", gamma))
