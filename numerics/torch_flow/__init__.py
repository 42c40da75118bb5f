"""Batched gradient flow and gradient descent in torch, on CPU or CUDA.

Many independent networks (a batch of initialisations, of widths padded as described in
:mod:`numerics.models`, or of node scalings) are integrated at once.  The vector field is
``d theta_b/dt = -eta_b grad_b L(theta)``, with the gradient from autograd on the model's
loss (the batch elements are independent, so the gradient of the summed losses is the
per-element gradient).

Gradient flow: Dormand-Prince 8(5,3) (the ``DOP853`` of Hairer, Norsett & Wanner, with
scipy's coefficient tables, :mod:`scipy.integrate._ivp.dop853_coefficients`) with error
control *per batch element*: each network has its own time and step, accepted or
rejected on its own error estimate (scipy's error norm), so a batch gives the same
trajectories as separate runs.  Steps are shortened to land exactly on the requested
times (no dense-output interpolation error).  Why not torchdiffeq: its adaptive solvers
share one step across the whole batch (one stiff or fast network sets it for all), it
would be one more dependency, and it was slower on these models: measured once on the
2-core CPU (torchdiffeq 0.2.5 ``dopri8``, B = 256 two-layer linear nets of width 256,
d0 = 10, to t = 5 at rtol 1e-10, the same vector field): 16.4 s and 444 evaluations
against 4.4 s here, both 2e-13 from an rtol 1e-13 reference.  ``benchmarks/bench_torch.py``
measures the speed against a loop of ``solve_ivp`` and ``tests/test_torch_flow.py`` the
accuracy against the mpmath oracle.

Near a stable fixed point an explicit method's step is bounded by stability, not accuracy:
every few steps the flow tests, per batch element, whether the rest of its trajectory is the
linearised flow to within the tolerance (:class:`numerics.scipy_ode.LinearTail`, from the
autograd Hessian) and then evaluates the remaining requested times from it.

Tolerances are checked against the parameters' dtype: ``rtol`` must be at least
``100 eps`` of the dtype (float64: 2.2e-14; float32: 1.2e-5), the accuracy an error
controller in that precision can meet (as scipy's ``100 * EPS`` floor).

Gradient descent: ``theta <- theta - lr eta_b grad_b L`` (the papers' experiments), with
the time of step ``k`` being ``k lr``.

Measures are recorded at the requested times only (never every step): a dict of
callables ``fn(params, rows) -> tensor (k, ...)`` evaluated on the ``k`` batch elements
``rows`` (indices into the full batch) that reached a requested time together (see
:mod:`numerics.measures`).

The package, one concept per file (each imports only the files above it):

* ``checks.py``: the lazy torch import and the input checks (times, lr, dtypes, seeds, ...);
* ``devices.py``: :func:`threads`, :func:`resolve_device`, :func:`min_rtol`,
  :func:`initialise`;
* ``tableau.py``: the DOP853 coefficients in the stage buffer's slot order;
* ``layout.py``: the flat row-major state (``_Packing``) and the block-major tiles (``_Tiles``);
* ``field.py``: the field ``-eta grad L`` (a ``gradient_into`` hook, ``gradient`` or autograd);
* ``results.py``: :class:`FlowResult` and the recorder of the requested times;
* ``batching.py``: the parameters checked and moved, the batch split on out-of-memory;
* ``fixed_point.py``: the fixed-point test (autograd Hessian, linearised tail);
* ``dop853.py``: the batched DOP853 (tiles, workers, step control, pace projection);
* ``flow.py``: :func:`gradient_flow`;
* ``descent.py``: :func:`gradient_descent` and :class:`DivergedError`.

A setting a step reads (``TILE_BYTES``, ``WORKER_TILE_BYTES``, ``MIN_WORKER_ENTRIES``,
``FIXED_POINT_MAX_ENTRIES``) is looked up in :mod:`numerics.torch_flow.dop853`: patch it
there, not here.
"""

from numerics.torch_flow.descent import CHECK_EVERY as CHECK_EVERY
from numerics.torch_flow.descent import DivergedError as DivergedError
from numerics.torch_flow.descent import gradient_descent
from numerics.torch_flow.devices import RTOL_FLOOR_EPS as RTOL_FLOOR_EPS
from numerics.torch_flow.devices import initialise, min_rtol, resolve_device
from numerics.torch_flow.devices import threads as threads
from numerics.torch_flow.dop853 import FIXED_POINT_MAX_ENTRIES as FIXED_POINT_MAX_ENTRIES
from numerics.torch_flow.dop853 import MIN_WORKER_ENTRIES as MIN_WORKER_ENTRIES
from numerics.torch_flow.dop853 import TILE_BYTES as TILE_BYTES
from numerics.torch_flow.dop853 import WORKER_TILE_BYTES as WORKER_TILE_BYTES
from numerics.torch_flow.flow import DEFAULT_RTOL as DEFAULT_RTOL
from numerics.torch_flow.flow import DEFAULT_THREADS as DEFAULT_THREADS
from numerics.torch_flow.flow import DEFAULT_WORKERS as DEFAULT_WORKERS
from numerics.torch_flow.flow import gradient_flow
from numerics.torch_flow.results import FlowResult

__all__ = [
    "FlowResult",
    "gradient_descent",
    "gradient_flow",
    "initialise",
    "min_rtol",
    "resolve_device",
]
