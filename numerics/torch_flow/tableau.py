"""The Dormand-Prince 8(5,3) tableau of :mod:`numerics.torch_flow`, in stage-buffer order.

The coefficients are scipy's (:mod:`scipy.integrate._ivp.dop853_coefficients`, the ``DOP853``
of Hairer, Norsett & Wanner), with scipy's step-size control constants.  The stages are held
in a slot order in which every row of ``A``, ``B`` and the error estimates ``E5``/``E3``
reads one run of consecutive slots (the layout comment below), so that the DOP853 of
:mod:`numerics.torch_flow.dop853` forms each combination as one matrix product.
"""

from __future__ import annotations

import numpy as np
from scipy.integrate._ivp import dop853_coefficients as _dop

_SAFETY, _MIN_FACTOR, _MAX_FACTOR = 0.9, 0.2, 10.0
_ERROR_EXPONENT = -1.0 / 8.0  # DOP853: error ~ h^8
_STAGES = _dop.N_STAGES


# The stage buffer of :func:`_dop853` is (12, B, N), stage outermost, and holds h_b f(Y_s)
# (the step folded in), so a combination y + h sum_k a_k f(Y_k) is one matrix product
# (1, m) @ (m, B N) added to y (``torch.addmm``), reading each stage once at full
# bandwidth.  DOP853's rows are sparse (A[s, 1:3] = 0 for s >= 5, B and E3/E5 are zero at
# stages 1-4, and E3/E5 at the FSAL stage 12): with the stages held in the slot order
# below (stage 0, used by every row, between stages 1 and 3), every row reads one run of
# consecutive slots, 72 stage reads per step instead of 90.  A run may cover a stage of
# coefficient 0 that is already computed in this step (never a later one).
_SLOT_STAGE = (2, 1, 0, *range(3, _STAGES))  # the stage held by each slot
_STAGE_SLOT = tuple(_SLOT_STAGE.index(k) for k in range(_STAGES))


def _run(row: np.ndarray, before: int) -> tuple[int, int, np.ndarray]:
    """The run of slots ``lo:hi`` that covers the non-zero entries of ``row`` (indexed by
    stage), and its coefficients in slot order; every slot in it holds a stage < ``before``."""
    nonzero = [_STAGE_SLOT[k] for k in range(_STAGES) if row[k] != 0]
    lo, hi = min(nonzero), max(nonzero) + 1
    stages = _SLOT_STAGE[lo:hi]
    if max(stages) >= before:  # pragma: no cover - a property of the table, checked at import
        raise RuntimeError(f"DOP853 slot order: a run needs stage {max(stages)} before it exists")
    return lo, hi, np.array([row[k] for k in stages], dtype=float)


if _dop.E3[_STAGES] != 0 or _dop.E5[_STAGES] != 0:  # pragma: no cover - scipy's table
    raise RuntimeError("DOP853 error estimate uses the FSAL stage: the stage buffer needs it")
_STAGE_RUNS = [_run(_dop.A[s, :_STAGES], s) for s in range(1, _STAGES)]
_B_RUN = _run(_dop.B, _STAGES)
_E_LO, _E_HI, _ = _run(np.abs(_dop.E3[:_STAGES]) + np.abs(_dop.E5[:_STAGES]), _STAGES)
_E_ROWS = np.array([[row[k] for k in _SLOT_STAGE[_E_LO:_E_HI]] for row in (_dop.E5, _dop.E3)])
