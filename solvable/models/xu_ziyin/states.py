"""The network at given times (:class:`State`, :class:`States`) and the ``p_i``, ``q_i`` of
eq. (6) on given weights (:func:`pq_coordinates`): measures of ``f`` (eq. (4)), the alignment
(eqs. (20), (21)) and the NTK (eq. (18), corrected) taken directly from the weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable.models.xu_ziyin._arithmetic import _cosine, _dot, _sqrt
from solvable.models.xu_ziyin.evaluators import _evaluators
from solvable.models.xu_ziyin.network import _network_output, _ntk
from solvable.models.xu_ziyin.setups import Setup, _check_times, _check_weights


@dataclass(frozen=True)
class State:
    """The network at one time: ``u`` (d,), ``W`` (d, d0), output ``f`` on ``x``,
    ``alignment`` (cosine between ``u`` and ``W x``; the paper's zeta, eq. (20),
    when d0 = 1; ``nan`` when ``u`` or ``W x`` is the zero vector, where the
    cosine is undefined) and ``ntk`` (``K(x, x)``, eq. (18) corrected)."""

    t: Any
    u: np.ndarray
    W: np.ndarray
    f: Any
    alignment: Any
    ntk: Any

    @classmethod
    @nb.mpmath_in_mpmath_out
    def from_weights(cls, setup: Setup, t: Any, u: Any, W: Any, *, dps: int | None = None) -> State:
        """Measure ``f``, alignment and NTK directly from the weights ``u`` (d,), ``W`` (d,
        d0) at the time ``t`` (``0 <= t <= inf``), no closed form: float64 (``dps=None``;
        a measure beyond the float64 range is a ``ValueError``) or mpmath at ``dps``
        digits."""
        if not isinstance(setup, Setup):
            raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
        (t,) = _check_times([t], "t")
        uc, Wc = _check_weights(setup, u, W, ("u", "W"))
        dps = nb.check_dps(dps)
        with nb.Precision(dps):
            cu, cW = nb.converter(dps, "u"), nb.converter(dps, "W")
            uu = np.array([cu(v) for v in uc], dtype=nb.dtype(dps))
            WW = np.array([[cW(v) for v in row] for row in Wc], dtype=nb.dtype(dps))
        with np.errstate(all="ignore"):
            st = cls._measure(setup, t, uu, WW, dps)
        if dps is None and not all(math.isfinite(z) for z in (st.f, st.ntk)):
            raise ValueError(
                f"the output f = {st.f!r} or the NTK = {st.ntk!r} is beyond the float64 range "
                "for these weights u, W (and setup): rescale them or pass dps=k (mpmath)"
            )
        return st

    @classmethod
    def _measure(cls, setup: Setup, t: Any, u: Any, W: Any, dps: int | None) -> State:
        """:meth:`from_weights` on checked weights (arrays of float64 or ``mpf``)."""
        conv = nb.converter(dps)
        with nb.Precision(dps):
            x = np.array([conv(v) for v in setup.x], dtype=nb.dtype(dps))
            g, eu, ew = conv(setup.gamma), conv(setup.eta_u), conv(setup.eta_w)
            u = np.asarray(u, dtype=nb.dtype(dps))
            W = np.asarray(W, dtype=nb.dtype(dps))
            v = np.array(W @ x, dtype=nb.dtype(dps))
            f = _network_output(u, W, x, g)
            nu, nv = _sqrt(_dot(u, u), dps), _sqrt(_dot(v, v), dps)
            align = _cosine(f / g, nu, nv, dps)
            return cls(t=t, u=u, W=W, f=f, alignment=align, ntk=_ntk(u, W, x, eu, ew, g))


@dataclass(frozen=True)
class States:
    """Many times at once: arrays with a leading time axis."""

    t: np.ndarray
    u: np.ndarray
    W: np.ndarray
    f: np.ndarray
    alignment: np.ndarray
    ntk: np.ndarray
    alpha: np.ndarray

    def __getitem__(self, k: int) -> State:
        return State(self.t[k], self.u[k], self.W[k], self.f[k], self.alignment[k], self.ntk[k])

    def __len__(self) -> int:
        return len(self.t)

    @classmethod
    def empty(cls, n_times: int, d: int, d0: int) -> States:
        """Uninitialised float64 arrays for ``n_times`` states of a width-``d`` network with
        ``d0`` inputs: the ``out=`` of :meth:`Trajectory.sample` (``t``, ``f``,
        ``alignment``, ``ntk``, ``alpha`` of shape ``(n_times,)``, ``u`` ``(n_times, d)``,
        ``W`` ``(n_times, d, d0)``), to be filled again and again without allocating.

        Parameters
        ----------
        n_times, d, d0 : int
            Number of times, hidden width and input dimension, each ``>= 1``.

        Returns
        -------
        States
            Arrays of the shapes above, C-contiguous, contents undefined.
        """
        n_times, d, d0 = (nb.check_int(k, v) for k, v in (("n_times", n_times), ("d", d),
                                                           ("d0", d0)))  # fmt: skip
        try:
            return cls(**{k: np.empty(shape) for k, shape in _shapes(n_times, d, d0).items()})
        except (ValueError, MemoryError) as exc:  # numpy: too big for the address space / RAM
            raise ValueError(
                f"States.empty(n_times={n_times}, d={d}, d0={d0}): the arrays (n_times d d0 = "
                f"{n_times * d * d0:.3g} entries of W) cannot be allocated ({exc})"
            ) from None


def _shapes(n: int, d: int, d0: int) -> dict[str, tuple[int, ...]]:
    """The shape of each field of :class:`States` for ``n`` times, width ``d``, ``d0``
    inputs."""
    return {"t": (n,), "u": (n, d), "W": (n, d, d0), "f": (n,), "alignment": (n,),
            "ntk": (n,), "alpha": (n,)}  # fmt: skip


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
    conv = nb.converter(dps)
    dt = nb.dtype(dps)
    with nb.Precision(dps):
        x = np.array([conv(v) for v in setup.x], dtype=dt)
        cu, cW = nb.converter(dps, "u"), nb.converter(dps, "W")
        uu = np.array([cu(v) for v in uc], dtype=dt)
        WW = np.array([[cW(v) for v in row] for row in Wc], dtype=dt)
        v = np.array(WW @ x, dtype=dt)
        eta_u, eta_w = conv(setup.eta_u), conv(setup.eta_w)
        ev = _evaluators("numpy" if dps is None else "mpmath")
        with np.errstate(all="ignore"):
            p, q = (np.asarray(a, dtype=dt)
                    for a in ev.pq(uu, v, eta_u, eta_w, _sqrt(_dot(x, x), dps)))  # fmt: skip
    if dps is None and not (np.isfinite(p).all() and np.isfinite(q).all()):
        raise ValueError("p, q are beyond the float64 range for these weights u, W (and "
                         "setup): rescale them or pass dps=k (mpmath)")  # fmt: skip
    return nb.rounded((p, q), dps)
