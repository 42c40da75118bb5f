"""The claims of the deep linear network proved or checked from this package alone (the
simulation-backed confirmations are in :mod:`solvable.verification.confirmations.deep_linear`)."""

from __future__ import annotations

from solvable._core.claims import Theorem
from solvable.models.deep_linear.proofs import balance_general
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
    ]  # fmt: skip
