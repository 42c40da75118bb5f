"""The conservation laws of the deep linear network: for every adjacent pair of layers,
``D_l = W_{l+1}^T W_{l+1} / eta_{l+1} - W_l W_l^T / eta_l`` (d_l x d_l) is constant along
the gradient flow (Saxe et al. 2013, cited by seed 001 Sec. 2; Arora et al. 2018 at equal
rates).  Derivation: with ``G = dL/dbeta`` and ``M = A_l^T G B_l^T W_l^T`` (``A_l = W_L ...
W_{l+1}``, ``B_l = W_{l-1} ... W_1``), ``W_{l+1}^T dW_{l+1}/dt / eta_{l+1} = -M =
dW_l/dt W_l^T / eta_l``, so ``dD_l/dt = -(M + M^T) + (M + M^T) = 0``.

:func:`laws` lists its entries on a non-square three-layer instance (each a registered
symbolic claim); :func:`~solvable.models.deep_linear.proofs.balance_general` proves the law
for matrices of symbolic sizes (every depth, every layer, every width).
"""

from __future__ import annotations

import sympy as sp

from solvable._core.conservation import ConservationLaw
from solvable.models.deep_linear.network import balance
from solvable.models.deep_linear.setups import SEED
from solvable.models.deep_linear.system import flow, rate_symbols

LAW_WIDTHS = (2, 3, 2, 1)
"""The instance of :func:`laws`: ``L = 3``, ``W_1`` (3, 2), ``W_2`` (2, 3), ``W_3`` (1, 2);
``n = 2`` data points."""


def laws() -> list[ConservationLaw]:
    """Every upper-triangle entry of ``D_l`` for ``l = 1, 2`` on :data:`LAW_WIDTHS`."""
    F = flow(LAW_WIDTHS, 2)
    L = len(LAW_WIDTHS) - 1
    etas = rate_symbols(L)
    Ws = [F.block(f"W{l}") for l in range(1, L + 1)]
    out = []
    for l in range(1, L):
        D = balance(Ws[l], Ws[l - 1], etas[l], etas[l - 1])
        for i in range(D.shape[0]):
            for j in range(i, D.shape[1]):
                out.append(ConservationLaw(
                    f"deep_linear.D{l}_{i}{j}", f"{SEED} Sec. 2 (Saxe et al. 2013)",
                    f"Entry ({i}, {j}) of D_{l} = W_{l + 1}^T W_{l + 1}/eta_{l + 1} - W_{l} "
                    f"W_{l}^T/eta_{l} is conserved (L = 3, widths {LAW_WIDTHS}).",
                    sp.expand(D[i, j]), F, "deep linear flow"))  # fmt: skip
    return out
