"""The numeric evaluators generated from the formulas of seed 002, Sections 2.2-2.3
(:mod:`solvable.models.linearisation.formulas`): the corrected eq. (2.17) per network
(:func:`hessian_opnorm_formula`, numpy or torch) and the residual envelope of eqs. (2.42),
(2.43) (:func:`relaxation_envelope`, numpy)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import activations as act
from solvable._core import numbers as nb
from solvable._core.arrays import ArrayArgs
from solvable._core.backends import generate, torch_module
from solvable.models.linearisation.formulas import (
    _AJ,
    _S2,
    _X2,
    LAM,
    N,
    P,
    T,
    Z,
    _check_activation,
    block_opnorm,
    check_flag,
    relaxation_exponent,
)


# ---------------------------------------------------------------------------
# generated evaluators
# ---------------------------------------------------------------------------
@functools.cache
def _block_fn(name: str, backend: str) -> Callable[..., Any]:
    # (2.16) with sigma'' in its cancellation-free form (equal: tanh_second_derivative_stable_form)
    expr = block_opnorm().subs(_S2, act.stable_derivative(name, 2))
    return generate((_AJ, Z, _X2, P), expr, backend)


@functools.cache
def _envelope_fn(printed: bool, du: bool) -> Callable[..., Any]:
    return generate((LAM, T, N), sp.exp(relaxation_exponent(printed, du)), "numpy")


def hessian_opnorm_formula(a: Any, W: Any, x: Any, *, activation: str = "tanh") -> Any:
    """Eq. (2.17), corrected: ``max_j |a_j sigma''(<w_j, x>)| |x|^2 / sqrt(p)`` per network.

    ``a``: (B, p), ``W``: (B, p, d), ``x``: (d,); numpy arrays or torch tensors (the result
    has the type and device of ``W``), shape (B,).  Generated from :func:`block_opnorm`."""
    name = _check_activation(activation, "activation")
    v = ArrayArgs("hessian_opnorm_formula", torch=True)
    W_, a_, xt = v.array("W", W), v.array("a", a), v.array("x", x)
    torch_in = "W" in v.tensors
    if torch_in:  # a and x may be numpy / lists: on W's device, in its dtype
        torch = torch_module()
        a_, xt = (val if label in v.tensors else torch.as_tensor(_float_values(label, val))
                  for label, val in (("a", a_), ("x", xt)))  # fmt: skip
        a_, xt = (val.to(dtype=W_.dtype, device=W_.device) for val in (a_, xt))
        fn, xp = _block_fn(name, "torch"), torch
    else:
        for label in ("a", "x"):
            if label in v.tensors:
                raise TypeError(f"{label} is a torch tensor but W is not: pass W as a tensor too")
        W_, a_, xt = _float_values("W", W_), _float_values("a", a), _float_values("x", x)
        fn, xp = _block_fn(name, "numpy"), np
    for label, arr, ndim in (("a", a_, 2), ("W", W_, 3), ("x", xt, 1)):
        if arr.ndim != ndim:
            raise ValueError(f"{label} must have {ndim} axes (a (B, p), W (B, p, d), x (d,)), "
                             f"got shape {tuple(arr.shape)}")  # fmt: skip
    if a_.shape != W_.shape[:2] or xt.shape != (W_.shape[2],):
        raise ValueError(
            f"need a (B, p), W (B, p, d), x (d,); got a {tuple(a_.shape)}, W {tuple(W_.shape)}, "
            f"x {tuple(xt.shape)}"
        )
    if not (
        bool(xp.isfinite(W_).all()) and bool(xp.isfinite(a_).all()) and bool(xp.isfinite(xt).all())
    ):
        raise ValueError("a, W and x must be finite")
    p = W_.shape[1]
    with np.errstate(all="ignore"):  # a value beyond float64 is refused below
        z = W_ @ xt
        x2 = (xt * xt).sum()
        pp = xp.full_like(z, float(p))
        blocks = fn(a_, z, x2 * xp.ones_like(z), pp) + xp.zeros_like(z)  # constant for linear
        out = blocks.amax(-1) if torch_in else blocks.max(-1)
    if not bool(xp.isfinite(out).all()):
        raise nb.Float64RangeError(f"the bound exceeds the largest {out.dtype} for these "
                                   f"a, W and x: rescale them")  # fmt: skip
    return out


def relaxation_envelope(
    lam: Any, t: Any, n: int, *, printed: bool = False, du: bool = False
) -> np.ndarray:
    """``exp(e)`` for the exponent of :func:`relaxation_exponent` (numpy, broadcasting):
    the factor by which ``||y - f(t)|| / ||y - f(0)||`` is bounded."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {nb.describe(n)}")
    printed, du = check_flag("printed", printed), check_flag("du", du)
    lam_, t_ = _float_values("lam", lam), _float_values("t", t)
    if not np.all(lam_ >= 0):
        raise ValueError(f"lam must be finite and >= 0, got {nb.describe(lam)}")
    if not np.all(t_ >= 0):
        raise ValueError(f"t must be finite and >= 0, got {nb.describe(t)}")
    try:
        np.broadcast_shapes(lam_.shape, t_.shape)
    except ValueError:
        raise ValueError(f"lam and t must broadcast together, got shapes {lam_.shape}, "
                         f"{t_.shape}") from None  # fmt: skip
    return np.asarray(_envelope_fn(printed, du)(lam_, t_, float(n)), dtype=float)


def _float_values(name: str, value: Any) -> np.ndarray:
    """A number or an array of numbers (any shape, not a tensor) as a float64 array, each
    entry finite and within the float64 range (``TypeError`` / ``ValueError`` naming
    ``name``)."""
    arr = np.asarray(ArrayArgs(name).array(name, value))
    if arr.dtype.kind == "O":

        def one(v: Any) -> float:
            if isinstance(v, sp.Basic):
                if v.free_symbols:
                    raise TypeError(f"{name} must hold numbers, got the expression {v}")
                v = nb.exact_to_mpf(v)
            return nb.to_float(v, name)

        arr = np.vectorize(one, otypes=[float])(arr) if arr.size else arr
    return arr.astype(np.float64)
