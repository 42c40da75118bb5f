"""The :data:`MODEL` record of seed 001 (Xu & Ziyin: two-layer linear network on rank-1
data) that ``solvable.MODELS`` lists: its claims, errata, conservation laws and system.
"""

from __future__ import annotations

from solvable._core.model import Model
from solvable.models.xu_ziyin.network import SEED
from solvable.models.xu_ziyin.paper_claims import claims
from solvable.models.xu_ziyin.paper_errata import errata
from solvable.models.xu_ziyin.raw_flow import laws
from solvable.models.xu_ziyin.system import SYSTEM

MODEL = Model(
    name="xu_ziyin",
    seed=SEED,
    title="Xu & Ziyin: two-layer linear network on rank-1 data (Theorem 1, Proposition 1)",
    claims=claims,
    errata=errata,
    laws=laws,
    systems=(SYSTEM,),
)
