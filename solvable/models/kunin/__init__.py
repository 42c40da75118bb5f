r"""Seed 003 (Kunin et al.): the single hidden neuron ``f(x) = a w^T x`` (conserved delta,
lazy / rich / delayed rich, exact solution), and the wide linear and piecewise-linear
networks of Part II.

Source: seed ``003_cfd8c5fad4b6665d.txt``, a poster of Kunin, Raventós, Dominé,
Chen, Klindt, Saxe, Ganguli, "Get rich quick: exact solutions reveal how
unbalanced initializations promote rapid feature learning" (NeurIPS 2024).

Model and conventions (data ``X`` of shape ``(n, d)``, ``y`` of shape ``(n,)``):

.. math::

    f(x) = a\, w^\top x, \quad a \in \mathbb{R},\ w \in \mathbb{R}^d, \qquad
    L = \tfrac12 \sum_i (a\, w^\top x_i - y_i)^2 = \tfrac12 \|X\beta - y\|^2,
    \quad \beta = a w,

    \dot a = -\eta_a \frac{\partial L}{\partial a}, \qquad
    \dot w = -\eta_w \frac{\partial L}{\partial w}.

* :math:`\delta = \eta_w a^2 - \eta_a \|w\|^2` is conserved (:func:`balance`): > 0 upstream,
  = 0 balanced, < 0 downstream.  In the unit-rate variables ``a/sqrt(eta_a)``,
  ``w/sqrt(eta_w)`` (plain gradient flow of the same model with inputs ``sqrt(eta_a eta_w)
  X``) it is ``eta_a eta_w`` times the poster's ``a^2 - ||w||^2`` (claim ``kunin.unit_rates``).
* ``d beta/dt = -M grad_beta L`` with ``M = eta_w a^2 I + eta_a w w^T``
  (:func:`weight_preconditioner`) ``= (sigma + delta)/2 I + (sigma - delta)/2 beta
  beta^T/||beta||^2`` (:func:`preconditioner`), ``sigma = sqrt(delta^2 + 4 eta_a eta_w
  ||beta||^2)``; the NTK on the data is ``K = X M X^T`` (:func:`ntk`).  Regimes:
  ``M ~ delta I`` (delta >> 0, lazy), ``M = sqrt(eta_a eta_w) ||beta|| (I + beta
  beta^T/||beta||^2)`` (delta = 0, rich; the poster omits the square root, an erratum of
  this module), ``M ~ |delta| beta beta^T/||beta||^2`` (delta << 0, delayed rich).

Exact solution (derived here, checked by this module's claims): when the
inputs are isotropic, ``X^T X = s I_d`` (whitened: s = 1), the loss is
``s/2 ||beta - beta*||^2 + const`` with ``beta* = X^T y / s``.  In the balanced
coordinates ``z = (a / sqrt(eta_a'), w / sqrt(eta_w'))``, ``eta' = s eta``, the flow
is ``dz/dt = G z - (kappa^2/2) ||z||^2 z`` with the constant symmetric
``G = [[delta'/2, kappa beta*^T], [kappa beta*, -delta'/2 I]]`` (:func:`generator`,
:func:`reduced_field`), ``kappa = sqrt(eta_a' eta_w')``, ``delta' = s delta``; its largest
eigenvalue is the reported ``Omega = sqrt(delta'^2/4 + kappa^2 |beta*|^2)``.  A linear flow
(Riccati in the plane of ``(a, beta*)``) divided by a Bernoulli normaliser,


.. math::

    z(t) = \frac{e^{G t} z_0}{\sqrt{\phi(t)}}, \qquad
    \phi(t) = 1 + \kappa^2 \int_0^t \left|e^{G s} z_0\right|^2 \mathrm{d}s.


It is evaluated in a form where every term is non-negative and every exponent
is <= 0 (no cancellation, no overflow), continuous through delta = 0, for any
sign of ``a`` and any rates.

Part II: the wide linear network ``f(x) = A^T W x`` (:class:`WideSetup`; conserved
``Delta = eta_w A A^T - eta_a W W^T``, :func:`wide_balance`; Theorem 4.2's
self-consistent flow from ``Delta = delta I``, :func:`wide_preconditioner`) and the
piecewise-linear network ``f(x) = a^T relu(W x)`` (:class:`PiecewiseLinearSetup`; every
``delta_k`` is conserved; ``relu'(0) = 0`` on every backend).  Each model's loss is
defined once (:func:`loss`, :func:`wide_loss`, :func:`piecewise_linear_loss`);
``numerics.simulate`` integrates all three.

Exact solution of the wide net (derived here): for ``X^T X = s I`` and ``Delta(0) = delta
I_h`` (Theorem 4.2's setting) the stacked ``Q = [A/sqrt(eta_a'), W/sqrt(eta_w')]`` follows
``dQ/dt = Q K - (kappa^2/2) Q Q^T Q`` and ``P = Q^T Q`` a matrix Riccati equation solved in
closed form (:func:`wide_closed_form`: beta, outputs, loss, NTK, ``A^T A``, ``W^T W``; ``A``,
``W`` for ``h = 1``), for every shape the balance allows (``h <= c`` for ``delta > 0``, ``h <=
d`` for ``delta < 0``, any ``h`` at ``delta = 0``).  The poster's ``delta = a^2 - ||w||^2``
holds for equal rates only (erratum).

Files (each imports only the ones above it; this package's face re-exports the public names):

* ``losses.py``: ``SEED``; every loss and conserved quantity, defined once (array code).
* ``expressions.py``: the sympy source (:func:`symbolic`, :func:`wide_symbolic`) and the
  evaluators generated from it.
* ``generated.py``: the public generated evaluators, numpy / mpmath / torch
  (:func:`evaluators`, :func:`wide_evaluators`).
* ``setups.py``: :class:`Setup`, :class:`WideSetup`, :class:`PiecewiseLinearSetup`.
* ``reduction.py``: the reduced flows of isotropic inputs (:func:`generator`,
  :func:`wide_generator`, ...) and the Riccati evaluation forms (:func:`riccati_core`, ...).
* ``preconditioners.py``: :func:`preconditioner`, :func:`wide_preconditioner`, :func:`regime`.
* ``frame.py``: the loss in an orthonormal frame of a plane (the float64 sample's O(1) loss).
* ``flows.py``: the raw gradient flows (:func:`flow`, ...), :func:`beta_gradient`,
  :func:`laws`.
* ``states.py``: the states measured from the weights (:class:`State`, :class:`States`,
  :class:`WideState`, :class:`PiecewiseLinearState`).
* ``isotropic_data.py``: :func:`isotropy`, :func:`whitening_rtol` and the isotropy decision
  of the closed forms.
* ``minimum.py``: the exact least loss and the loss near the minimum.
* ``times.py``: the validated times of a sample.
* ``_float64.py``: the float64 pieces of Part I's exact solution (the safe range, the
  resolved coefficients, w and beta from the plane).
* ``reference_sample.py``: the reference engine of ``Trajectory.sample`` (mpmath, rounded),
  a base class of :class:`Trajectory`.
* ``float64_sample.py``: the fast float64 engine of ``Trajectory.sample``, a base class of
  :class:`Trajectory`.
* ``single_neuron.py``: the isotropic closed form, :class:`Trajectory` (Part I).
* ``aligned_data.py``: the condition of the exact solution on inputs that are not whitened
  (``X^T y`` and ``w0`` outside ``ker X`` in one eigenspace of ``X^T X``; issue 31).
* ``nonwhitened.py``: :func:`closed_form` (isotropic, else aligned), :class:`AlignedTrajectory`.
* ``wide_shapes.py``: the echelon form of the start (every shape the balance allows).
* ``wide_sample.py``: the float64 engine of ``WideTrajectory.sample`` (the times grouped
  by branch, each group on stacks of matrices).
* ``wide.py``: :func:`wide_closed_form`, :class:`WideTrajectory`, :func:`wide_start`
  (Part II).
* ``wide_aligned_data.py``: the condition of the wide net's exact solution on inputs that are
  not whitened (``X^T Y`` and ``X^T X W0^T`` in one eigenspace of ``X^T X``; issue 31).
* ``wide_aligned.py``: :class:`AlignedWideTrajectory`, the aligned branch of
  :func:`wide_closed_form`.
* ``cases.py``: the named initial conditions (``CASES``, :func:`case`).
* ``systems.py``: the systems that :func:`numerics.simulate` integrates (``SYSTEMS``).
* ``proofs.py``, ``wide_proofs.py``, ``wide_shapes_proofs.py``, ``wide_aligned_proofs.py``,
  ``numeric_checks.py``: the claims' checks (Part I, Part II, every shape, inputs not
  whitened, numeric).
* ``kernel_distance.py``: the kernel distance of the single neuron (:func:`neuron_kernel`,
  :func:`limit_kernel_distance`: ``S(0, inf)`` in closed form).
* ``model.py``: :func:`claims`, :func:`errata`, ``MODEL``.
"""

from __future__ import annotations

from solvable.models.kunin._float64 import resolved_piece as resolved_piece
from solvable.models.kunin.cases import CASES, Case
from solvable.models.kunin.cases import case as case
from solvable.models.kunin.expressions import Symbols, WideSymbols, symbolic, wide_symbolic
from solvable.models.kunin.float64_sample import PARALLEL_SAMPLE as PARALLEL_SAMPLE
from solvable.models.kunin.flows import beta_gradient, flow, piecewise_linear_flow, wide_flow
from solvable.models.kunin.flows import laws as laws
from solvable.models.kunin.generated import evaluators, wide_evaluators
from solvable.models.kunin.isotropic_data import WHITENING_C as WHITENING_C
from solvable.models.kunin.isotropic_data import isotropy, whitening_rtol
from solvable.models.kunin.kernel_distance import limit_kernel_distance, neuron_kernel
from solvable.models.kunin.losses import GUARD_DIGITS as GUARD_DIGITS
from solvable.models.kunin.losses import (
    SEED,
    balance,
    loss,
    ntk,
    output,
    piecewise_linear_loss,
    weight_preconditioner,
    wide_balance,
    wide_loss,
    wide_output,
)
from solvable.models.kunin.model import MODEL
from solvable.models.kunin.model import claims as claims
from solvable.models.kunin.model import errata as errata
from solvable.models.kunin.nonwhitened import AlignedTrajectory, closed_form
from solvable.models.kunin.numeric_checks import F64 as F64
from solvable.models.kunin.preconditioners import preconditioner, regime, wide_preconditioner
from solvable.models.kunin.reduction import (
    generator,
    reduced_field,
    riccati_core,
    riccati_direct,
    riccati_factor,
    riccati_gram,
    wide_field,
    wide_generator,
    wide_ntk,
)
from solvable.models.kunin.setups import PiecewiseLinearSetup, Setup, WideSetup
from solvable.models.kunin.single_neuron import Trajectory
from solvable.models.kunin.states import PiecewiseLinearState, State, States, WideState
from solvable.models.kunin.systems import SYSTEMS as SYSTEMS
from solvable.models.kunin.systems import PiecewiseLinearSystem as PiecewiseLinearSystem
from solvable.models.kunin.systems import SingleNeuronSystem as SingleNeuronSystem
from solvable.models.kunin.systems import WideLinearSystem as WideLinearSystem
from solvable.models.kunin.wide import WideExactState, WideTrajectory, wide_closed_form, wide_start
from solvable.models.kunin.wide_aligned import AlignedWideTrajectory
from solvable.models.mirror_flow import hyperbolic_entropy

__all__ = [
    "CASES",
    "MODEL",
    "SEED",
    "AlignedTrajectory",
    "AlignedWideTrajectory",
    "Case",
    "PiecewiseLinearSetup",
    "PiecewiseLinearState",
    "Setup",
    "State",
    "States",
    "Symbols",
    "Trajectory",
    "WideExactState",
    "WideSetup",
    "WideState",
    "WideSymbols",
    "WideTrajectory",
    "balance",
    "beta_gradient",
    "closed_form",
    "evaluators",
    "flow",
    "generator",
    "hyperbolic_entropy",
    "isotropy",
    "limit_kernel_distance",
    "loss",
    "neuron_kernel",
    "ntk",
    "output",
    "piecewise_linear_flow",
    "piecewise_linear_loss",
    "preconditioner",
    "reduced_field",
    "regime",
    "riccati_core",
    "riccati_direct",
    "riccati_factor",
    "riccati_gram",
    "symbolic",
    "weight_preconditioner",
    "whitening_rtol",
    "wide_balance",
    "wide_closed_form",
    "wide_evaluators",
    "wide_field",
    "wide_flow",
    "wide_generator",
    "wide_loss",
    "wide_ntk",
    "wide_output",
    "wide_preconditioner",
    "wide_start",
    "wide_symbolic",
]
