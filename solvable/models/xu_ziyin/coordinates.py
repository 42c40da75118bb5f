"""The ``p_i``, ``q_i`` of eq. (6) (``rho = ||x||``) on given weights: :func:`pq_coordinates`
(Xu & Ziyin, seed ``001_070589003213e0cf.txt``, Section 2.1), from the generated evaluator of
``symbolic().paper["p"]``, ``["q"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable.models.xu_ziyin._arithmetic import _dot, _sqrt
from solvable.models.xu_ziyin.evaluators import _evaluators
from solvable.models.xu_ziyin.setups import Setup, _check_weights


@nb.mpmath_in_mpmath_out
def pq_coordinates(setup: Setup, u: Any, W: Any, *, dps: int | None = None) -> tuple[Any, Any]:
    """``p_i``, ``q_i`` of eq. (6) (``rho = ||x||``) on the weights ``u`` (d,), ``W``
    (d, d0) -- e.g. those of a simulated or trained network at any time -- from the
    generated evaluator of ``symbolic().paper["p"]``, ``["q"]``.  ``dps``: as in
    :func:`closed_form` (mpmath arrays at ``dps`` digits, computed with guard digits)."""
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    uc, Wc = _check_weights(setup, u, W, ("u", "W"))
    p, q = _pq(setup, uc, Wc, dps)
    if dps is None and not (np.isfinite(p).all() and np.isfinite(q).all()):
        # an intermediate (W x, v - u, ...) beyond float64 while p, q may fit: 17 digits in
        # mpmath (no exponent limit), rounded once
        p, q = (np.array([float(v) for v in a], dtype=float) for a in _pq(setup, uc, Wc, 17))
        if not (np.isfinite(p).all() and np.isfinite(q).all()):
            raise ValueError("p, q are beyond the float64 range for these weights u, W (and "
                             "setup): rescale them or pass dps=k (mpmath)")  # fmt: skip
        return p, q
    return nb.rounded((p, q), dps)


def _pq(setup: Setup, uc: Any, Wc: Any, dps: int | None) -> tuple[np.ndarray, np.ndarray]:
    """``p``, ``q`` of the checked weights at ``dps`` digits (float64: ``None``; may be
    non-finite where an intermediate overflows)."""
    conv = nb.converter(dps)
    dt = nb.dtype(dps)
    with nb.Precision(dps):
        x = np.array([conv(v) for v in setup.x], dtype=dt)
        cu, cW = nb.converter(dps, "u"), nb.converter(dps, "W")
        uu = np.array([cu(v) for v in uc], dtype=dt)
        WW = np.array([[cW(v) for v in row] for row in Wc], dtype=dt)
        with np.errstate(all="ignore"):
            v = np.array(WW @ x, dtype=dt)
            eta_u, eta_w = conv(setup.eta_u), conv(setup.eta_w)
            ev = _evaluators("numpy" if dps is None else "mpmath")
            p, q = (np.asarray(a, dtype=dt)
                    for a in ev.pq(uu, v, eta_u, eta_w, _sqrt(_dot(x, x), dps)))  # fmt: skip
    return p, q
