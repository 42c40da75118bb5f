"""The claims of the deep linear network proved or checked from this package alone (the
simulation-backed confirmations are in :mod:`solvable.verification.confirmations.deep_linear`)."""

from __future__ import annotations

from solvable._core.claims import Theorem
from solvable.models.deep_linear.numeric_checks import antiderivative_high_depths
from solvable.models.deep_linear.proofs import antiderivative, balance_general, mode_reduction
from solvable.models.deep_linear.setups import SEED


def claims() -> list[Theorem]:
    """The registered claims (ids ``deep_linear.*``)."""

    def T(id_, where, statement, fn, kind="symbolic"):
        return Theorem(f"deep_linear.{id_}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("balance_general", "Sec. 2 (Saxe et al. 2013: conservation)",
          "D_l = W_{l+1}^T W_{l+1}/eta_{l+1} - W_l W_l^T/eta_l is conserved by the gradient "
          "flow of f = W_L ... W_1 x for every adjacent pair, every depth and every width: "
          "the rest of the network as general matrices of symbolic sizes, gradients by matrix "
          "calculus; the typed loss, fields and D_l are the package's on widths (2, 3, 2, 1).",
          balance_general),
        T("mode_reduction", "Sec. 2 (Saxe et al. 2013: aligned modes, every depth)",
          "A balanced mode (c_l^2/eta_l equal, u = prod c_l) of the decoupled flow dc_l/dt = "
          "eta_l (u/c_l)(s - lambda u) has du/dt = L eta u^(2-2/L)(s - lambda u), eta = (prod "
          "eta_l)^(1/L), and z = lambda u/s has dz/dt = kappa |z|^(2-2/L)(1 - z) (L = 2..6).",
          mode_reduction),
        T("antiderivative", "Sec. 2 (exact t(u) of an aligned mode)",
          "T_+(v) and T_-(v) (logs and arctangents over the L-th roots of +-1) have dT/dv = L "
          "v^(1-L)/(1 -+ v^L): t(u) = (T(z) - T(z0))/kappa exactly, v = |z|^(1/L) (L = 2..6).",
          antiderivative),
        T("antiderivative_high_depths", "Sec. 2 (exact t(u), L = 7..12)",
          "The same T_+- at L = 7..12 (cos(2 pi/L) not in radicals for sympy): dT/dv - "
          "integrand vanishes to 60 digits at 7 points of (0, 1) and (1, 3) for every L.",
          antiderivative_high_depths, kind="numeric"),
    ]  # fmt: skip
