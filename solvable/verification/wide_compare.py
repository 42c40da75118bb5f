"""The wide net ``f = A^T W x`` (seed 003, Part II) against the raw flow: its closed form's
states compared with ``numerics.simulate(method="mpmath")`` of the same setup and start
(:func:`wide_compare`, the engine of the confirmations ``kunin.wide_closed_form_oracle``,
``kunin.wide_shapes_oracle`` and ``kunin.wide_aligned_oracle``), and the NTK of simulated
weights from its definition (:func:`ntk_of_output`).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

import numerics
from solvable._core import numbers as nb
from solvable._core.claims import Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, beats, error_in_units
from solvable.models import kunin

WIDE_TIMES = ("0", "0.3", "1", "4", "12")


def ntk_of_output(A: np.ndarray, W: np.ndarray, X: np.ndarray, eta_a: Any,
                   eta_w: Any) -> np.ndarray:  # fmt: skip
    """The NTK (n, c, n, c) of :func:`kunin.wide_output` at ``(A, W)`` from its definition,
    ``K = sum_p eta_p (dF/dp)(dF/dp)^T`` over the entries ``p`` of ``A`` (rate eta_a) and
    ``W`` (rate eta_w).  ``F = X W^T A`` is linear in ``A`` and in ``W`` separately, so
    ``dF/dA_p = wide_output(E_p, W, X)`` and ``dF/dW_p = wide_output(A, E_p, X)`` exactly
    (``E_p`` the unit matrix of entry ``p``): the oracle's NTK reference, independent of
    :func:`kunin.wide_ntk` (which the closed form evaluates: the same function on both sides
    could not fail)."""
    zero, one = 0 * A.flat[0], 0 * A.flat[0] + 1

    def units(shape: tuple[int, ...]) -> list[np.ndarray]:
        out = []
        for k in range(int(np.prod(shape))):
            E = np.full(shape, zero, dtype=object)
            E.flat[k] = one
            out.append(E)
        return out

    cols = [(eta_a, kunin.wide_output(E, W, X).ravel()) for E in units(A.shape)]
    cols += [(eta_w, kunin.wide_output(A, E, X).ravel()) for E in units(W.shape)]
    K = sum(rate * np.outer(g, g) for rate, g in cols)
    n, c = X.shape[0], A.shape[1]
    return np.asarray(K, dtype=object).reshape(n, c, n, c)


def wide_compare(chosen: list[tuple[str, kunin.WideSetup, tuple[Any, Any]]],
                  dps: int) -> Verdict:  # fmt: skip
    """The comparison of the wide oracles over ``(name, setup, (A0, W0))`` starts (A and
    W too where the closed form returns them)."""
    rtol = 10.0 ** -(dps - 5)
    tol = Tolerance(rtol, reason="Taylor integrator at dps + 20 digits, closed form at dps + 10")
    worst, where = NOTHING_COMPARED, ""
    for name, setup, (A0, W0) in chosen:
        exact = kunin.wide_closed_form(setup, A0, W0, dps=dps).sample(list(WIDE_TIMES))
        sim = numerics.simulate(setup, A0, W0, list(WIDE_TIMES), method="mpmath", dps=dps)
        with mpmath.workdps(dps + 20):
            X = np.array([[nb.to_mpf(v) for v in r] for r in setup.X], dtype=object)
            ea, ew = nb.to_mpf(setup.eta_a), nb.to_mpf(setup.eta_w)
            for t, e, s in zip(WIDE_TIMES, exact, sim, strict=True):
                ga, gw = s.A.T @ s.A, s.W.T @ s.W
                pairs = [
                    ("beta", e.beta, s.beta),
                    ("outputs", e.outputs, X @ s.beta),
                    ("loss", [e.loss], [s.loss]),
                    ("A^T A", e.gram_a, ga),
                    ("W^T W", e.gram_w, gw),
                    ("ntk", e.ntk, ntk_of_output(s.A, s.W, X, ea, ew)),
                ]
                if e.A is not None:
                    pairs += [("A", e.A, s.A), ("W", e.W, s.W)]
                for what, got, ref in pairs:
                    err = error_in_units(got, ref, tol)
                    if beats(err, worst):
                        worst, where = err, f"{name}: {what} at t={t}"
    return Verdict.from_error(
        worst,
        f"{len(chosen)} starts x t in {{{', '.join(WIDE_TIMES)}}}: beta, outputs, loss, "
        f"A^T A, W^T W, NTK (A, W where returned); worst {worst:.2g} tolerances"
        + (f" ({where})" if where else ""),
        tol,
    )
