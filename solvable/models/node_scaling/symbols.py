"""The symbols of seed 000's node scaling, eq. (1): the width :data:`M`, the node index :data:`J`,
the symmetric fraction :data:`GAMMA`, and the placeholders of the derivations (``lambda~_j``,
``S_m``, ``Q_m``, the Zipf exponent ``1/alpha = 1 + b`` and ``K``).

Source: seed ``000_f57230b12d385b63.txt`` (:data:`SEED`), "Over-parameterised shallow neural
networks with asymmetrical node scaling: global convergence guarantees and feature learning"
(anonymous), Sections 3, 4, 7 and Appendix B.2.
"""

from __future__ import annotations

import sympy as sp

SEED = "000_f57230b12d385b63.txt"


M = sp.Symbol("m", positive=True, integer=True)
"""The width ``m``."""
J = sp.Symbol("j", positive=True, integer=True)
"""The node index ``j``."""
GAMMA = sp.Symbol("gamma", nonnegative=True)
"""The symmetric fraction ``gamma`` (proofs treat ``gamma = 1`` and ``gamma = 1 - g``,
``g in (0, 1]``, separately where the sign matters)."""
_N = sp.Symbol("n", nonnegative=True, integer=True)  # m = m0 + n, n -> oo
_BZ = sp.Symbol("b", positive=True)  # Zipf: 1/alpha = 1 + b
_KS = sp.Symbol("K", positive=True, integer=True)
_W = sp.Symbol("w", nonnegative=True)  # placeholder for lambda~_j (free of m)
_S = sp.Symbol("S", positive=True)  # placeholder for S_m
_Q = sp.Symbol("Q", positive=True)  # placeholder for Q_m
