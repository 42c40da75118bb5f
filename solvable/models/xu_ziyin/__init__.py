r"""Two-layer linear network on rank-1 data: the exact gradient flow.

Source: Xu & Ziyin, "When Does Feature Learning Happen? Perspective from an
Analytically Solvable Model" (seed ``001_070589003213e0cf.txt``), Section 2.1,
Theorem 1, Proposition 1 and Appendix A.1.

Model and conventions (eqs. (4), (5) of the paper; no factor 1/2 in the loss):

.. math::

    f(x) = \gamma\, u^\top W x, \qquad L = (f(x) - y)^2, \qquad
    \dot u = -\eta_u \frac{\partial L}{\partial u}, \qquad
    \dot W = -\eta_w \frac{\partial L}{\partial W},

with ``u`` of shape ``(d,)``, ``W`` of shape ``(d, d0)``, ``x`` of shape ``(d0,)``.

Conventions that differ from the printed paper (each one is an erratum of this module,
listed by ``solvable errata``):

* ``rho = ||x||``, the Euclidean norm (the paper prints
  ``sqrt(1/d0 sum_{i=0}^{d0} x_i^2)``, which is wrong for ``d0 > 1``).
* ``alpha_minus = (D - B) / (2A) >= 0`` is the *magnitude* of the negative root,
  so that eqs. (8)-(10), (19) and ``alpha_plus * alpha_minus = Q / P`` hold as
  printed; the printed eq. (12) has ``B - D`` instead.
* :math:`\xi(t) = \frac{1 - \alpha_+}{1 + \alpha_-} e^{-4 t / t_c}`, and
  :math:`t_c = 1 / D` with :math:`D = \sqrt{B^2 + 4 A C}`, where

  .. math::

      A = \gamma^2 d \rho^2 P, \qquad B = \gamma \rho y \sqrt{\eta_u \eta_w}, \qquad
      C = \gamma^2 d \rho^2 Q.

Everything follows from one scalar, :math:`\alpha(t) = p_i(t)^2 / p_i(0)^2`, which
solves the Riccati equation :math:`\dot\alpha = -4 (A \alpha^2 - B \alpha - C)`,
:math:`\alpha(0) = 1`.  Its solution is evaluated through ``ell = log(alpha)`` in a
form that is free of cancellation and overflow at every ``t`` in ``[0, oo]`` (early in
``tau = expm1(4Dt)/(2D)``, late in ``s = 1/tau``, which is 0 at ``t = oo``; see
:func:`symbolic`, the ``stable`` expressions, each proved equal to the textbook form, and
their ``t -> oo`` limits, by claims of this module), and covers Theorem 1 (P > 0),
Proposition 1 (P = 0), Q = 0, y = 0 and the saddle P = Q = 0 with one formula.  In float64,
data outside the range where float64 neither overflows nor underflows (see
:data:`SAFE_INPUT`) are evaluated by the same generated evaluators in mpmath and rounded.

This package is the one place of the model, one concept per file, each file importing only
the ones listed before it:

* ``network.py``: ``SEED``; the network, its loss and NTK (eqs. (4), (18)):
  :func:`network_output`, :func:`loss`, :func:`ntk`;
* ``expressions.py``: the sympy source, :func:`symbolic` (:class:`Symbols`);
* ``raw_flow.py``: the raw gradient flow derived from the loss (:func:`flow`), the per-unit
  flow of eq. (31) (:func:`unit_flow`) and the conservation laws (:func:`laws`);
* ``evaluators.py``: the float64 and mpmath evaluators generated from the sympy source;
* ``setups.py``: :class:`Setup` and the checks of weights and times;
* ``_arithmetic.py``: small float64 / mpmath arithmetic (dot products, Lagrange's identity);
* ``coordinates.py``: :func:`pq_coordinates` (eq. (6) on given weights);
* ``units.py``: the per-unit arithmetic both engines of ``Trajectory.sample`` share;
* ``float64_sample.py``: the fast float64 engine of ``Trajectory.sample`` (chunks of times,
  blocks of units, two threads; :data:`SAMPLE_BLOCK`, :data:`PARALLEL_SAMPLE`), a base class
  of :class:`Trajectory`;
* ``trajectory.py``: :func:`closed_form`, its :class:`Trajectory` (the record, the reference
  engine), the states it reports (:class:`State`, :class:`States`), the checks of
  ``sample``'s arguments, and :func:`constants`;
* ``cases.py``: the named test cases (:data:`CASES`, :func:`case`);
* ``system.py``: the :class:`TwoLayerLinearSystem` that ``numerics.simulate`` integrates,
  and :func:`manifold_condition`;
* ``symbolic_claims.py``, ``numeric_claims.py`` (with :func:`paper_constants`) and
  ``paper_claims.py`` (:func:`claims`, in paper order): the claims;
* ``paper_errata.py``: the errata (:func:`errata`);
* ``model.py``: the :data:`MODEL` record (claims, errata, laws, system).
"""

# names outside __all__ (public names of the module before the split) are re-exported too
from solvable.models.xu_ziyin.cases import CASES, Case, case
from solvable.models.xu_ziyin.coordinates import pq_coordinates
from solvable.models.xu_ziyin.evaluators import REPORTED, Backend  # noqa: F401
from solvable.models.xu_ziyin.expressions import Symbols, symbolic
from solvable.models.xu_ziyin.float64_sample import PARALLEL_SAMPLE, SAMPLE_BLOCK  # noqa: F401
from solvable.models.xu_ziyin.model import MODEL
from solvable.models.xu_ziyin.network import SEED, loss, network_output, ntk
from solvable.models.xu_ziyin.numeric_claims import paper_constants
from solvable.models.xu_ziyin.paper_claims import claims  # noqa: F401
from solvable.models.xu_ziyin.paper_errata import errata  # noqa: F401
from solvable.models.xu_ziyin.raw_flow import UnitFlow, flow, laws, unit_flow  # noqa: F401
from solvable.models.xu_ziyin.setups import Setup
from solvable.models.xu_ziyin.system import (  # noqa: F401
    SYSTEM,
    TwoLayerLinearSystem,
    manifold_condition,
)
from solvable.models.xu_ziyin.trajectory import (  # noqa: F401
    ENGINES,
    EXTENDED_DPS,
    GUARD_DIGITS,
    SAFE_INPUT,
    State,
    States,
    Trajectory,
    closed_form,
    constants,
)

__all__ = [
    "CASES",
    "MODEL",
    "SEED",
    "Case",
    "Setup",
    "State",
    "States",
    "Symbols",
    "Trajectory",
    "TwoLayerLinearSystem",
    "case",
    "closed_form",
    "constants",
    "flow",
    "loss",
    "manifold_condition",
    "network_output",
    "ntk",
    "paper_constants",
    "pq_coordinates",
    "symbolic",
    "unit_flow",
]
