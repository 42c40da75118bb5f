r"""Seed 000 in simulation: Theorem 5.1 monitored along gradient flow, the feature-learning
ratios (17)/(18) against the width, and a reduced reproduction of Section 8.1.1.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Sections 5, 7.1, 8.1.1.
The network is :class:`numerics.models.NodeScaled` (eq. (2), output weights fixed, eq. (3));
its raw parameter-space flow ``dW/dt = -grad L_m`` is integrated by
:func:`numerics.torch_flow.gradient_flow` (DOP853, error control per network) or stepped by
:func:`numerics.torch_flow.gradient_descent`; the bounds come from
:mod:`solvable.models.global_convergence`, ``kappa_n`` from :func:`solvable.models.ntg.kappa_n` and
the node
scalings from :func:`solvable.models.node_scaling.node_scaling_numeric`.

* :func:`monitor_theorem_5_1`: gradient flow (not GD: Theorem 5.1 is a gradient-flow
  statement, and DOP853 at ``rtol = 1e-9`` integrates it without a step-size artefact) on
  small data satisfying Assumption 3.1 (rows uniform on the unit sphere, no noise, ``C =
  max |y_i|``); records ``L(t)``, ``eig_min Theta_m(X; W_t)``, ``max_j ||w_tj - w_0j||`` per
  node scaling and ``||Theta_m(W_t) - Theta_m(W_0)||_2`` and divides them by (b), (a), (c), (d).
* :func:`feature_learning_sweep`: ratios (17)/(18) at a training input at the end of
  gradient-flow training, for nested widths (the first ``m`` nodes of one sequence
  ``(w_0j, a_j)_{j>=1}`` per seed, as in Definition 7.1), and per-seed log-log slopes.
* :func:`section_8_1_1`: GD at learning rate 1 on the simulated data of Section 8.1.1,
  scaled down (fewer steps and repeats), with :func:`section_8_1_1_summary` (the numbers the
  paper's orderings are about); :func:`draw_section_8_1_1` draws the 4 panels of Figure 1
  with the theory (the one drawing path, used by :func:`plot_section_8_1_1` and by
  ``solvable figures``), and :func:`kernel_gd` steps the ``gamma = 1`` kernel limit.
* :func:`single_relu_experiment`: Section 8.1.2 (Figure 2), reduced by its arguments.
  Command line: ``python -m numerics.node_scaling_experiment --out DIR`` (writes JSON and the
  figure, prints the numbers).

Everything here returns numbers; the bounds, criteria and verdicts (Theorem 5.1 holding along
the flow, the feature-learning regimes told apart, the orderings of Section 8.1.1) are in
:mod:`solvable.verification.confirmations.global_convergence`.

The three experiments take ``device`` (default ``"cpu"``; ``"cuda"`` runs on a GPU), float64
throughout, ``threads`` (``torch.set_num_threads`` for the call only, restored after; ``None``
leaves it) and ``progress`` (one line per case on stderr).

The package, one concept per file (each imports only the files above it):

* ``checks.py``: the caps (:data:`MAX_STEPS`, ...) and the argument checks;
* ``data.py``: :func:`sphere_data`, :func:`node_scalings`, :func:`nested_parameters`;
* ``network.py``: the node-scaled network with its hand-written gradient, and its NTG;
* ``running.py``: torch's threads scoped to a call, the progress lines;
* ``kernel.py``: :func:`kernel_gd`;
* ``monitor.py``: :func:`monitor_theorem_5_1`, :func:`monitor_table`;
* ``features.py``: :func:`feature_learning_sweep`;
* ``figure_1.py``: Section 8.1.1 (:func:`section_8_1_1`, its summary, drawing and plot);
* ``figure_2.py``: Section 8.1.2 (:func:`single_relu_data`, :func:`single_relu_experiment`);
* ``section_8_2.py``: Section 8.2 (Figure 4: pruning, transfer) on scikit-learn's digits
  (:func:`section_8_2_digits`);
* ``section_8_2_1.py``: Section 8.2.1 (Figure 3: weight and NTG change, transfer) on
  scikit-learn's diabetes set (:func:`section_8_2_1_regression`);
* ``section_8_2_2.py``: Section 8.2.2's CIFAR experiment (Figure 5: SGD, cross-entropy,
  both layers trained, pruning) on scikit-learn's digits with ten classes
  (:func:`section_8_2_2_classification`);
* ``cli.py``: :func:`main` (``__main__.py``: ``python -m``).

A cap is read where it is checked: a test that lowers one patches that file
(``kernel.MAX_STEPS``, ``figure_1.MAX_REPEATS``, ``monitor.MAX_HORIZON``, ...), not this
package.
"""

from numerics.node_scaling_experiment.checks import MAX_HORIZON as MAX_HORIZON
from numerics.node_scaling_experiment.checks import MAX_RECORDS as MAX_RECORDS
from numerics.node_scaling_experiment.checks import MAX_REPEATS as MAX_REPEATS
from numerics.node_scaling_experiment.checks import MAX_STEPS as MAX_STEPS
from numerics.node_scaling_experiment.cli import ArgvError as ArgvError
from numerics.node_scaling_experiment.cli import main
from numerics.node_scaling_experiment.data import nested_parameters, node_scalings, sphere_data
from numerics.node_scaling_experiment.features import feature_learning_sweep
from numerics.node_scaling_experiment.figure_1 import (
    SETTINGS_8_1_1,
    draw_section_8_1_1,
    plot_section_8_1_1,
    section_8_1_1,
    section_8_1_1_summary,
)
from numerics.node_scaling_experiment.figure_1 import THEOREM_5_1_DELTA as THEOREM_5_1_DELTA
from numerics.node_scaling_experiment.figure_2 import single_relu_data, single_relu_experiment
from numerics.node_scaling_experiment.kernel import kernel_gd
from numerics.node_scaling_experiment.monitor import monitor_table, monitor_theorem_5_1
from numerics.node_scaling_experiment.section_8_2 import section_8_2_digits
from numerics.node_scaling_experiment.section_8_2_1 import section_8_2_1_regression
from numerics.node_scaling_experiment.section_8_2_2 import section_8_2_2_classification

__all__ = [
    "SETTINGS_8_1_1",
    "draw_section_8_1_1",
    "feature_learning_sweep",
    "kernel_gd",
    "main",
    "monitor_table",
    "monitor_theorem_5_1",
    "nested_parameters",
    "node_scalings",
    "plot_section_8_1_1",
    "section_8_1_1",
    "section_8_1_1_summary",
    "section_8_2_1_regression",
    "section_8_2_2_classification",
    "section_8_2_digits",
    "single_relu_data",
    "single_relu_experiment",
    "sphere_data",
]
