"""Simulation-backed confirmations of the deep linear network's exact solution: the closed
form (:func:`solvable.deep_linear.closed_form`) against the raw parameter-space flow that
sympy derives from the model's loss (:func:`numerics.simulate`, Taylor integrator), at 30
digits, for every weight of every layer."""

from __future__ import annotations

from typing import Any

import mpmath

import numerics
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, beats, error_in_units
from solvable.models import deep_linear as dl

SEED = dl.SEED

# whitened inputs: the columns of a 4 x 3 Hadamard block, X^T X = 4 I exactly
X_WHITE = (("1", "1", "1"), ("1", "-1", "1"), ("1", "1", "-1"), ("1", "-1", "-1"))
Y = (("0.3", "-1.2"), ("0.8", "0.1"), ("-0.5", "0.7"), ("1.1", "0.4"))
# aligned, not whitened: X = H diag(1, 0.5, 1.5) (X^T X = diag(4, 1, 9)) and Y = X C^T + e q^T,
# C = [[0.2, 0, 0], [0, 0.4, 0]] (orthogonal columns), e = (1, -1, -1, 1) orthogonal to X's
# columns, q = (0.1, -0.05): Y^T X = C X^T X = [[0.8, 0, 0], [0, 0.4, 0]] has the standard
# basis as right singular vectors, the eigenvectors of X^T X (lambda = 4, 1)
X_ALIGNED = (("1", "0.5", "1.5"), ("1", "-0.5", "1.5"), ("1", "0.5", "-1.5"),
             ("1", "-0.5", "-1.5"))  # fmt: skip
Y_ALIGNED = (("0.3", "0.15"), ("0.1", "-0.15"), ("0.1", "0.25"), ("0.3", "-0.25"))

# (rates, X, Y, strengths, hidden widths): L = 2, 3, 4, non-square, small and O(1) starts,
# a mode opposite to its task (negative strength: decays to the saddle)
CASES: tuple[tuple[Any, ...], ...] = (
    (("1", "0.5"), X_WHITE, Y, ("0.05", "0.02"), (3,)),
    (("1", "0.5", "2"), X_WHITE, Y, ("0.05", "-0.3"), (3, 2)),
    (("1", "0.5", "2", "0.8"), X_WHITE, Y, ("0.01", "0.2"), (2, 3, 2)),
    (("0.7", "1.3", "1"), X_ALIGNED, Y_ALIGNED, ("0.1", "0.02"), (2, 4)),
)
TIMES = ("0.3", "1.5", "4")


def spectral_vs_flow(dps: int = 30) -> Verdict:
    """Every weight of the closed form at :data:`TIMES` against ``numerics.simulate(...,
    method="mpmath", dps=dps)`` from the same exactly balanced aligned start
    (:func:`dl.spectral_start` at ``dps + 10`` digits) on :data:`CASES`."""
    tol = Tolerance.digits(dps - 5, "Taylor integrator at dps + 20 digits, closed form's root "
                                    "finding at dps + 10, states rounded to dps")  # fmt: skip
    worst, where = NOTHING_COMPARED, ""
    for rates, X, Yc, strengths, widths in CASES:
        setup = dl.Setup(rates, X, Yc)
        Ws = dl.spectral_start(setup, strengths, widths, dps=dps)
        exact = dl.closed_form(setup, Ws, dps=dps)
        sim = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), list(TIMES), method="mpmath",
                                dps=dps)  # fmt: skip
        with mpmath.workdps(dps + 10):
            for k, t in enumerate(TIMES):
                a, b = exact.at(t), sim.at(k)
                for l, (Wa, Wb) in enumerate(zip(a.weights, b.weights, strict=True), start=1):
                    err = error_in_units(Wa, Wb, tol)
                    if beats(err, worst):
                        worst, where = err, f"L={setup.L}, W{l}, t={t}"
    return Verdict.from_error(
        worst, f"{len(CASES)} starts (L = 2, 3, 4; whitened and aligned X^T X; a decaying "
        f"mode), {len(TIMES)} times, every weight vs the raw flow at dps {dps}: worst "
        f"{worst:.2g} tolerances ({where})", tol)  # fmt: skip


def unbalanced(setup: dl.Setup, strengths: Any, scales: Any, dps: int) -> list[Any]:
    """A two-layer aligned start made unbalanced mode by mode: mode ``k`` of
    :func:`dl.spectral_start` with ``W_1`` scaled by ``scales[k]`` and ``W_2`` by its inverse
    (the same product; ``delta_k != 0``), at ``dps + 10`` digits."""
    W1, W2 = dl.spectral_start(setup, strengths, dps=dps)
    with mpmath.workdps(dps + 10):
        for k, c in enumerate(scales):
            W1[k, :] = W1[k, :] * mpmath.mpf(c)
            W2[:, k] = W2[:, k] / mpmath.mpf(c)
    return [W1, W2]


# (rates, strengths, scales): upstream and downstream modes (both signs of delta_k), a mode
# opposite to its task
UNBALANCED = ((("1", "0.5"), ("0.05", "0.02"), ("3", "0.4")),
              (("0.3", "2"), ("0.2", "-0.1"), ("0.5", "5")))  # fmt: skip


def two_layer_unbalanced_vs_flow(dps: int = 30) -> Verdict:
    """Every weight of the unbalanced two-layer exact solution (each mode kunin's single
    neuron with its own delta_k) against ``numerics.simulate(..., method="mpmath", dps=dps)``
    on :data:`UNBALANCED` at :data:`TIMES`."""
    tol = Tolerance.digits(dps - 5, "Taylor integrator at dps + 20 digits, kunin's closed "
                                    "form at dps, states rounded to dps")  # fmt: skip
    worst, where = NOTHING_COMPARED, ""
    for rates, strengths, scales in UNBALANCED:
        setup = dl.Setup(rates, X_WHITE, Y)
        Ws = unbalanced(setup, strengths, scales, dps)
        exact = dl.closed_form(setup, Ws, dps=dps)
        sim = numerics.simulate(setup, Ws[1], (Ws[0],), list(TIMES), method="mpmath", dps=dps)
        with mpmath.workdps(dps + 10):
            for k, t in enumerate(TIMES):
                for l, (Wa, Wb) in enumerate(zip(exact.at(t).weights, sim.at(k).weights,
                                                 strict=True), start=1):  # fmt: skip
                    err = error_in_units(Wa, Wb, tol)
                    if beats(err, worst):
                        worst, where = err, f"rates={rates}, W{l}, t={t}"
    return Verdict.from_error(
        worst, f"{len(UNBALANCED)} unbalanced two-layer starts (delta_k of both signs), "
        f"{len(TIMES)} times, every weight vs the raw flow at dps {dps}: worst {worst:.2g} "
        f"tolerances ({where})", tol)  # fmt: skip


def claims() -> list[Theorem]:
    """The simulation-backed claims of the deep linear network."""
    return [
        Theorem("deep_linear.spectral_vs_flow", f"{SEED} Sec. 2 (Saxe et al. 2013, every depth)",
                "From balanced task-aligned starts (whitened or aligned X^T X), every weight of "
                "the exact solution (t(u) in closed form, inverted with a proved bracket) equals "
                "the raw gradient flow's at 30 digits, L = 2, 3, 4, non-square widths.",
                "numeric", spectral_vs_flow),
        Theorem("deep_linear.two_layer_unbalanced_vs_flow",
                f"{SEED} Sec. 2; 003_cfd8c5fad4b6665d.txt Part I (single neuron per mode)",
                "Two layers, task-aligned but unbalanced (each mode its own delta_k): every "
                "mode is seed 003's single neuron, and every weight of the solution equals the "
                "raw gradient flow's at 30 digits.", "numeric", two_layer_unbalanced_vs_flow),
    ]  # fmt: skip
