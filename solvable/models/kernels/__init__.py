r"""Infinite-width kernels of two-layer ReLU networks (seed 002, Sections 2.1 and 2.3, Exercise 1).

Source: seed ``002_938675732d5dff93.txt``, B. Loureiro, "Mathematics of Deep Learning,
Lecture 3: Neural networks close to initialisation".

Core (Cho & Saul's arc-cosine kernels): for a standard bivariate normal pair ``(u, v)`` with
correlation ``rho = cos(theta)``, ``theta in [0, pi]``::

    E[1{u > 0} 1{v > 0}]     = J_0(theta) / (2 pi),   J_0 = pi - theta
    E[relu(u) relu(v)]       = J_1(theta) / (2 pi),   J_1 = sin(theta) + (pi - theta) cos(theta)

(:func:`arccos_expectation`); every ReLU kernel of the lecture is one of these times
norms and second moments of the initialisation.

Network, eqs. (2.3) / (2.28): ``f(x; theta0) = p^(-1/2) sum_{j<=p} a_j relu(<w_j, x>)`` with
i.i.d. ``a_j`` of second moment ``E[a^2]`` independent of ``w_j ~ N(0, s^2 I_d)``
(:class:`Initialisation`).  With ``n = |x|``, ``n' = |x'|`` and ``rho = <x, x'>/(n n')``,
``<w, x> = s n u`` and ``<w, x'> = s n' v``, so positive homogeneity of ReLU gives::

    K_RF(x, x')  = E_w[relu(<w,x>) relu(<w,x'>)]                 = s^2 n n' J_1/(2 pi)  (2.31)
    K_NTK(x, x') = <x,x'> E[a^2 relu'(<w,x>) relu'(<w,x'>)]      = E[a^2] n n' rho J_0/(2 pi)
    K_GP(x, x')  = E[a^2 relu(<w,x>) relu(<w,x'>)] = E[a^2] K_RF                            (2.4)
    K_0          = K_RF + K_NTK                                                            (2.30)

(:func:`kernel`, names ``"rf"``, ``"ntk_first_layer"`` (``K_NTK``), ``"nngp"`` (``K_GP``),
``"ntk"`` (``K_0``): the field's names, :data:`KERNELS`; the old ``"gp"`` and ``"k0"`` are
refused, :data:`RENAMED`).  At ``x = 0`` or ``x' = 0``
every kernel is 0 (``relu(0) = 0`` and the factor ``<x, x'>``); the closed forms are
``n n'`` times a function bounded on ``[-1, 1]``, so this is also their limit, for every
direction (claim ``homogeneity_and_zero_limit``).  The lecture's initialisations are
:func:`lecture_initialisation` (eq. (2.28): ``a ~ Unif[-1, 1]``, ``w ~ N(0, I_d/d)``) and
:func:`exercise_initialisation` (Exercise 1: ``a ~ Unif{-1, 1}``, ``w ~ N(0, I_d)``).

Numeric evaluators are generated from these expressions by ``sympy.lambdify``: float64
(numpy), mpmath at ``dps`` digits and torch (:func:`kernel_numeric`, :func:`kernel_torch`,
:func:`gram`, :func:`gram_torch`).  They evaluate one rewriting, proved equal to the
lecture's form (claim ``stable_forms``): the kernel in ``phi = pi - theta`` with ``J_1 =
phi^3 sinc3(phi)`` (no cancellation near antiparallel inputs, where ``sin phi`` and ``phi cos
phi`` agree to ``phi^3/3``), ``phi`` computed directly as ``2 atan2(|u + v|, |u - v|)`` from
the chords of the unit vectors (Kahan; never ``pi - theta``), or from ``rho`` through
``sqrt(2 (1 +- rho))``.  In float64 and torch each term's product of norms, moments and
``phi^3`` is formed by :func:`~solvable._core.scaled.scaled_sum` (mantissas and exponents
apart), so no intermediate overflows or underflows where the result is a float; a result
beyond the type is a ``Float64RangeError``.  Gram entries nearer antiparallel than ``phi <
1/16``, where rounded unit vectors would cost ``~3 eps/phi``, are recomputed from the exact
float inputs (integer ``|x|^2 |y|^2 - (x . y)^2``), as are all entries at ``dps``.

Errata (:func:`errata`): Exercise 1's (4.2) lacks the factor ``<x, x'>``; (2.29), (4.1) and
(4.4) have cosmetic index slips.

The package, one concept per file (each imports only the files above it):

* :mod:`~solvable.models.kernels.symbols`: the symbols and names;
* :mod:`~solvable.models.kernels.initialisation`: :class:`Initialisation` and the
  lecture's, the exercise's and the generic records;
* :mod:`~solvable.models.kernels.closed_forms`: the arc-cosine expectations and the
  closed-form kernels;
* :mod:`~solvable.models.kernels.table_1`: Table 1's default initialisations, (2.2);
* :mod:`~solvable.models.kernels.cumulants`: the fourth cumulant at finite width;
* :mod:`~solvable.models.kernels.evaluators`: the generated float64, mpmath and torch
  evaluators and the Gram matrices;
* :mod:`~solvable.models.kernels.proofs`, :mod:`~solvable.models.kernels.numeric_checks`
  and :mod:`~solvable.models.kernels.statements`: the claims (symbolic checks, numeric
  checks, statements);
* :mod:`~solvable.models.kernels.corrections`: the errata.
"""

from __future__ import annotations

from solvable._core.model import Model
from solvable.models.kernels.closed_forms import (
    arccos_expectation,
    exercise_printed_ntk,
    kernel,
    kernel_of_vectors,
    kernel_theta,
)
from solvable.models.kernels.corrections import errata
from solvable.models.kernels.cumulants import (
    a_fourth_moment,
    output_cumulant,
    output_excess_kurtosis,
    relu_moment,
)
from solvable.models.kernels.evaluators import PHI, gram, gram_torch, kernel_numeric, kernel_torch
from solvable.models.kernels.hoeffding import (
    hoeffding_epsilon,
    hoeffding_failure_probability,
    hoeffding_width,
)
from solvable.models.kernels.initialisation import (
    Initialisation,
    exercise_initialisation,
    generic_initialisation,
    lecture_initialisation,
)
from solvable.models.kernels.statements import claims
from solvable.models.kernels.symbols import (
    A2,
    A_LAWS,
    KERNELS,
    N1,
    N2,
    RENAMED,
    RHO,
    S2,
    SEED,
    THETA,
    D,
)
from solvable.models.kernels.table_1 import (
    C1,
    C2,
    COVARIANCE_PAIRS,
    TABLE_1,
    DefaultInitialisation,
    P,
    default_initialisation,
    table_1_covariance,
    uniform_variance,
)

__all__ = [
    "A2",
    "A_LAWS",
    "C1",
    "C2",
    "COVARIANCE_PAIRS",
    "KERNELS",
    "N1",
    "N2",
    "PHI",
    "RENAMED",
    "RHO",
    "S2",
    "SEED",
    "TABLE_1",
    "THETA",
    "D",
    "DefaultInitialisation",
    "Initialisation",
    "P",
    "a_fourth_moment",
    "arccos_expectation",
    "claims",
    "default_initialisation",
    "errata",
    "exercise_initialisation",
    "exercise_printed_ntk",
    "generic_initialisation",
    "gram",
    "gram_torch",
    "hoeffding_epsilon",
    "hoeffding_failure_probability",
    "hoeffding_width",
    "kernel",
    "kernel_numeric",
    "kernel_of_vectors",
    "kernel_theta",
    "kernel_torch",
    "lecture_initialisation",
    "output_cumulant",
    "output_excess_kurtosis",
    "relu_moment",
    "table_1_covariance",
    "uniform_variance",
]


MODEL = Model(
    name="kernels",
    seed=SEED,
    title="Seed 002: ReLU kernels K_GP, K_RF, K_NTK, K_0 in closed form",
    claims=claims,
    errata=errata,
)
