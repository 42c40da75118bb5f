"""Seed 004 (Zhou et al., "Empirical phase diagram for three-layer neural networks with
infinite width"), Sections 3-4: the normalised gradient flow and the phase coordinates.

The network (1) is ``f(x) = (1/alpha) a^T sigma(W2 sigma(W1 x))`` with ``a ~ N(0, beta_3^2)``,
``W2 ~ N(0, beta_2^2)``, ``W1 ~ N(0, beta_1^2)``, trained by the gradient flow (4)-(5) of
the empirical risk (3).  The rescaling (6) ``a = beta_3 abar``, ``W2 = beta_2 W2bar``,
``W1 = beta_1 W1bar`` and the time change ``tbar = (alpha kappa_1 kappa_2 kappa_3)^(-2/3) t``
of eq. (8) turn it into the normalised flow (7) with

    kappa_1 = beta_3/beta_2,  kappa_2 = beta_3/beta_1,  kappa_3 = beta_1 beta_2 beta_3/alpha,

using only the positive homogeneity of ReLU, ``sigma(c z) = c sigma(z)`` and
``sigma'(c z) = sigma'(z)`` for ``c > 0``.  The time factor simplifies to ``beta_3^-2``.
The phase coordinates (9) are ``gamma_i = lim_{m->oo} -log(kappa_i)/log(m)`` with
``m_1 = m_2 = m`` (Assumption 3.1) and ``d`` fixed; Table 1 lists them for the NTK, LeCun,
He and Xavier initialisations.

The regimes (linear / critical / condensed) of Section 5 are defined by the sign of the
empirical slope ``S_W = lim log RD(W)/log m`` (eqs. (10)-(11)); their boundaries in the
``(gamma_2, gamma_3)`` plane (Figures 1, 5, 6) are only measured and conjectured (dashed
lines), never stated in closed form, so this module implements only the slope criterion
(:func:`regime_from_slope`) and the exact measures the criterion and Section 5.4 read:
``RD`` (10) (:func:`relative_distance`), ``D`` (2) (:func:`cosine_similarity`) and the
condensation ``zeta`` (:func:`condensation`), each unchanged by the rescaling (6).

Biases: the first-layer bias folds into ``W1`` exactly (claim
``three_layer.bias_first_layer``); the second-layer bias folded as Section 3 says does not
give (7) (erratum "Section 3 (bias b^[2]) with (6)-(7)": the normalised hidden layer is
extended by ``1/beta_1``, not 1).  :func:`power_law_scheme` is the power-law
initialisation at a phase point, ``alpha = m^s``; Table 2's rows are that family.

The package, one concept per file (each imports only the files above it):

* :mod:`~solvable.models.three_layer.coordinates`: the symbols, the checked inputs,
  ``kappa_1..3``, the time factor and the coordinates ``gamma_i`` (eqs. (8)-(9));
* :mod:`~solvable.models.three_layer.tables`: :class:`InitScheme`, Tables 1 and 2;
* :mod:`~solvable.models.three_layer.regimes`: the regime from the slope ``S_W`` (11) and
  the points where the paper states one;
* :mod:`~solvable.models.three_layer.network`: the network (1) and the risk (3);
* :mod:`~solvable.models.three_layer.symbolic`: ``sigma``, ``sigma'`` and the
  homogeneity rules, symbolic weights;
* :mod:`~solvable.models.three_layer.system`: the flow (4) for ``numerics.simulate``
  (:class:`Setup`, :class:`ThreeLayerSystem`);
* :mod:`~solvable.models.three_layer.flow`: the package's flow against (5) as printed;
* :mod:`~solvable.models.three_layer.rescaling`: (6) + (8) map (5) to (7);
* :mod:`~solvable.models.three_layer.power_law`: the power-law initialisations (Table 2's
  family);
* :mod:`~solvable.models.three_layer.measures`: ``D`` (2), ``RD`` (10), ``zeta``;
* :mod:`~solvable.models.three_layer.proofs` and
  :mod:`~solvable.models.three_layer.statements`: the claims (checks, statements);
* :mod:`~solvable.models.three_layer.corrections`: the errata.
"""

from __future__ import annotations

from solvable._core.model import Model
from solvable.models.three_layer.coordinates import (
    ALPHA,
    B1,
    B2,
    B3,
    M1,
    M2,
    SEED,
    D,
    M,
    exponent,
    gamma_coordinates,
    kappas,
    time_factor,
)
from solvable.models.three_layer.coordinates import MAX_SIZE as MAX_SIZE
from solvable.models.three_layer.corrections import errata
from solvable.models.three_layer.flow import gradient_flow_residuals
from solvable.models.three_layer.measures import condensation, cosine_similarity, relative_distance
from solvable.models.three_layer.network import hidden, network_output, risk
from solvable.models.three_layer.power_law import power_law_scheme
from solvable.models.three_layer.regimes import PAPER_POINTS, regime_from_slope
from solvable.models.three_layer.rescaling import (
    BLOCKS,
    relu_rescaling_residuals,
    rescaling_residuals,
)
from solvable.models.three_layer.rescaling import KappaFn as KappaFn
from solvable.models.three_layer.rescaling import TimeFn as TimeFn
from solvable.models.three_layer.statements import claims
from solvable.models.three_layer.symbolic import homogeneity, sigma, sigma_prime
from solvable.models.three_layer.system import SYSTEM, Setup, State, ThreeLayerSystem
from solvable.models.three_layer.tables import (
    INITIALISATIONS,
    TABLE_2,
    InitScheme,
    format_table_1,
    table_1,
)

__all__ = [
    "ALPHA",
    "B1",
    "B2",
    "B3",
    "BLOCKS",
    "INITIALISATIONS",
    "M1",
    "M2",
    "MODEL",
    "PAPER_POINTS",
    "SYSTEM",
    "TABLE_2",
    "D",
    "InitScheme",
    "M",
    "Setup",
    "State",
    "ThreeLayerSystem",
    "claims",
    "condensation",
    "cosine_similarity",
    "errata",
    "exponent",
    "format_table_1",
    "gamma_coordinates",
    "gradient_flow_residuals",
    "hidden",
    "homogeneity",
    "kappas",
    "network_output",
    "power_law_scheme",
    "regime_from_slope",
    "relative_distance",
    "relu_rescaling_residuals",
    "rescaling_residuals",
    "risk",
    "sigma",
    "sigma_prime",
    "table_1",
    "time_factor",
]


MODEL = Model(
    name="three_layer",
    seed=SEED,
    title="Seed 004: three-layer ReLU network, normalised flow, phase coordinates gamma_2, gamma_3",
    claims=claims,
    errata=errata,
    systems=(SYSTEM,),
    tables=format_table_1,
)
