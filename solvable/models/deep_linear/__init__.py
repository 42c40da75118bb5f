r"""Deep linear networks ``f(x) = W_L ... W_1 x`` (any depth ``L >= 2``, any widths, a
learning rate per layer), trained by gradient flow on ``L = 1/2 sum_i |f(x_i) - y_i|^2``.

Source: seed ``001_070589003213e0cf.txt`` Sec. 2 (the exact solution of linear nets from
aligned, "orthogonal" initialisations of Saxe et al. 2013), extended to every depth.

* conservation: ``D_l = W_{l+1}^T W_{l+1}/eta_{l+1} - W_l W_l^T/eta_l`` for every adjacent
  pair (:mod:`~solvable.models.deep_linear.conserved`, proved for general matrices in
  :func:`~solvable.models.deep_linear.proofs.balance_general`);
* the exact solution from balanced, task-aligned starts (:func:`closed_form`, every depth;
  :func:`spectral_start` builds such a start): every mode strength follows ``du/dt = L eta
  |u|^(2-2/L)(s - lambda u)``, ``t(u)`` in closed form inverted by bracketed root finding;
* the raw flow for :func:`numerics.simulate` (:class:`DeepLinearSystem`, ``out0 = W_L``,
  ``in0 = (W_1, ..., W_{L-1})``).

The files: ``setups.py`` (:class:`Setup`), ``network.py`` (the loss as array code),
``states.py`` (:class:`State`), ``kernel.py`` (:func:`network_kernel`, the NTK for
:func:`solvable.kernel_path`), ``system.py`` (the sympy flow, the system), ``conserved.py``,
``proofs.py``, ``expressions.py`` (the sympy source of one mode's ``t(u)``), ``strength.py`` (its
inversion), ``modes.py`` (the conditions, checked), ``spectral.py`` (:func:`closed_form`),
``unbalanced.py`` (two layers, unbalanced: a single neuron per mode), ``numeric_checks.py``,
``registry.py``; this file: the re-exports and :data:`MODEL`.
"""

from __future__ import annotations

from solvable._core.model import Model
from solvable.models.deep_linear.conserved import laws
from solvable.models.deep_linear.kernel import network_kernel
from solvable.models.deep_linear.modes import Mode
from solvable.models.deep_linear.network import balance as balance
from solvable.models.deep_linear.network import loss as loss
from solvable.models.deep_linear.network import ntk as ntk
from solvable.models.deep_linear.network import outputs as outputs
from solvable.models.deep_linear.network import product as product
from solvable.models.deep_linear.registry import claims
from solvable.models.deep_linear.setups import MAX_LAYERS, SEED, Setup
from solvable.models.deep_linear.setups import check_weights as check_weights
from solvable.models.deep_linear.spectral import SpectralTrajectory, closed_form, spectral_start
from solvable.models.deep_linear.states import State
from solvable.models.deep_linear.states import state_of as state_of
from solvable.models.deep_linear.system import SYSTEM, DeepLinearSystem
from solvable.models.deep_linear.system import flow as flow
from solvable.models.deep_linear.unbalanced import NeuronMode, TwoLayerTrajectory

MODEL = Model(
    name="deep_linear",
    seed=SEED,
    title="Deep linear networks: conservation laws and the aligned exact solution",
    claims=claims,
    laws=laws,
    systems=(SYSTEM,),
)

__all__ = [
    "MAX_LAYERS",
    "MODEL",
    "SEED",
    "SYSTEM",
    "DeepLinearSystem",
    "Mode",
    "NeuronMode",
    "Setup",
    "SpectralTrajectory",
    "State",
    "TwoLayerTrajectory",
    "claims",
    "closed_form",
    "laws",
    "network_kernel",
    "spectral_start",
]
# also importable, array code without validation (any backend): balance, loss, ntk,
# outputs, product; and flow, state_of, check_weights (the system's building blocks)
