r"""The kernel measures of issue 31 (item 4), model-agnostic: the kernel distance

.. math::

    S(0, t) = 1 - \frac{\langle K_0, K_t\rangle_F}{|K_0|_F\, |K_t|_F}

(Fort et al. 2020; the measure seed 003, Kunin et al. "Get rich quick", plots against the
initial scale), the change of the kernel's norm ``|K_t|_F / |K_0|_F`` and its alignment
with the task ``y^T K y / (|K|_F |y|^2)``, as exact functions of any exact solution
(:func:`kernel_path`) on float64 and mpmath object arrays.

Shapes (as the states' ``ntk`` fields and :mod:`numerics.measures`): a scalar ``K(x, x)``
(one data point, e.g. ``xu_ziyin.State.ntk``) is a ``1 x 1`` kernel, ``(n, n)`` (scalar
outputs) is itself, ``(n, c, n, c)`` (``c`` outputs, ``kunin.wide_ntk``) is the ``nc x nc``
matrix of ``vec(F)`` (row-major, as ``Y.reshape(-1)``).  The Frobenius products do not
depend on the flattening; the task alignment pairs ``K``'s rows with ``y``'s entries in it.

The single source is :func:`symbolic` (the definition, ``1 - cos``); every backend evaluates
the stable form ``S = |K_0/|K_0| - K_t/|K_t||^2 / 2`` (:func:`_distance`, array code run on
float64, mpmath and sympy object arrays), which equals the definition (claim
``kunin.kernel_distance_stable_form`` runs :func:`_distance` on sympy vectors) and keeps its
digits where the kernel barely moves (lazy training: ``1 - cos`` in float64 loses every digit
below ``S ~ 1e-16``; the stable form has relative error ``~ eps / sqrt(S)``).  float64
inputs are scaled by a power of two first (exact), so that kernels of ``1e-300`` or
``1e300`` neither underflow nor overflow.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import mpmath
import numpy as np
import sympy as sp

from solvable._core import numbers as nb

__all__ = [
    "KernelPath",
    "KernelSymbols",
    "kernel_distance",
    "kernel_matrix",
    "kernel_norm_change",
    "kernel_path",
    "symbolic",
    "task_alignment",
]


# ---------------------------------------------------------------------------
# the single source
# ---------------------------------------------------------------------------
class KernelSymbols(NamedTuple):
    """The definitions in the Frobenius products ``g00 = <K0, K0>``, ``gtt = <Kt, Kt>``,
    ``g0t = <K0, Kt>`` and, for the task alignment, ``yky = y^T K y``, ``yy = |y|^2``."""

    g00: sp.Symbol
    gtt: sp.Symbol
    g0t: sp.Symbol
    yky: sp.Symbol
    yy: sp.Symbol
    distance: sp.Expr
    norm_change: sp.Expr
    alignment: sp.Expr


def symbolic() -> KernelSymbols:
    """The sympy definitions (issue 31, item 4): ``S = 1 - g0t / sqrt(g00 gtt)``, the norm
    change ``sqrt(gtt / g00)`` and the task alignment ``yky / (sqrt(gtt) yy)`` of the kernel
    ``Kt``."""
    g00, gtt, yy = sp.symbols("g00 gtt yy", positive=True)
    g0t, yky = sp.symbols("g0t yky", real=True)
    return KernelSymbols(g00, gtt, g0t, yky, yy, 1 - g0t / (sp.sqrt(g00) * sp.sqrt(gtt)),
                         sp.sqrt(gtt) / sp.sqrt(g00), yky / (sp.sqrt(gtt) * yy))  # fmt: skip


# ---------------------------------------------------------------------------
# array code (float64, mpmath and sympy object arrays)
# ---------------------------------------------------------------------------
def _unit(K: np.ndarray, sqrt: Callable[[Any], Any], fsum: Callable[[Any], Any]) -> np.ndarray:
    """``K / |K|_F`` (flat)."""
    return K / sqrt(fsum(v * v for v in K.ravel()))


def _distance(K0: np.ndarray, Kt: np.ndarray, sqrt: Callable[[Any], Any] = sp.sqrt,
              fsum: Callable[[Any], Any] = sum) -> Any:  # fmt: skip
    """The stable form ``|K0^ - Kt^|_F^2 / 2`` (``K^ = K / |K|_F``): no cancellation."""
    diff = _unit(K0, sqrt, fsum) - _unit(Kt, sqrt, fsum)
    return fsum(v * v for v in diff.ravel()) / 2


def _alignment(K: np.ndarray, y: np.ndarray, sqrt: Callable[[Any], Any] = sp.sqrt,
               fsum: Callable[[Any], Any] = sum) -> Any:  # fmt: skip
    """``y^ K^ y^`` with ``y^ = y / |y|``, ``K^ = K / |K|_F`` (``K`` (m, m), ``y`` (m,))."""
    Kh, yh = _unit(K, sqrt, fsum), _unit(y, sqrt, fsum)
    m = len(yh)
    return fsum(yh[i] * Kh[i, j] * yh[j] for i in range(m) for j in range(m))


# ---------------------------------------------------------------------------
# checked entry points
# ---------------------------------------------------------------------------
def kernel_matrix(name: str, K: Any) -> np.ndarray:
    """``K`` as a square matrix (a scalar is ``1 x 1``; ``(n, n)`` itself; ``(n, c, n, c)``
    the ``nc x nc`` matrix of ``vec(F)``), float64 or an object array of ``mpf``; anything
    else (a torch tensor, complex or non-finite entries, an empty or non-square kernel) is a
    ``TypeError`` / ``ValueError`` naming ``name``."""
    if type(K).__module__.split(".")[0] == "torch":
        raise TypeError(f"{name} must be a numpy array (float64 or mpf), got a torch tensor: "
                        f"for batched torch kernels use numerics.measures")  # fmt: skip
    arr = _entries(name, K)
    if arr.ndim == 0:
        arr = arr.reshape(1, 1)
    elif arr.ndim == 4 and arr.shape[:2] == arr.shape[2:]:
        arr = arr.reshape(arr.shape[0] * arr.shape[1], -1)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.size == 0:
        raise ValueError(f"{name} must be a scalar, an (n, n) or an (n, c, n, c) kernel with "
                         f"n, c >= 1, got shape {np.shape(K)}")  # fmt: skip
    return arr


def _entries(name: str, value: Any) -> np.ndarray:
    """float64 array, or object array of ``mpf`` when an entry is one (finite reals)."""
    try:
        arr = np.asarray(value, dtype=object if _has_mpf(value) else None)
    except (ValueError, TypeError):  # (ragged nested lists)
        raise ValueError(f"{name} must be an array of real numbers, got a ragged "
                         f"{type(value).__name__}") from None  # fmt: skip
    if arr.dtype == object and any(isinstance(v, (list, tuple, np.ndarray)) for v in arr.ravel()):
        raise ValueError(f"{name} must be an array of real numbers, got a ragged nesting")
    if arr.dtype == object:
        for v in arr.ravel():
            if isinstance(v, bool) or not isinstance(v, (mpmath.mpf, int, float, np.floating,
                                                        np.integer)):  # fmt: skip
                raise TypeError(f"{name} must hold real numbers (float or mpmath.mpf), got "
                                f"{nb.describe(v)}")  # fmt: skip
        arr = np.vectorize(nb.to_mpf, otypes=[object])(arr) if arr.size else arr
        bad = [i for i, v in enumerate(arr.ravel()) if not mpmath.isfinite(v)]
    else:
        if arr.dtype.kind not in "fiu" or arr.dtype == bool:
            raise TypeError(f"{name} must hold real numbers (float or mpmath.mpf), got dtype "
                            f"{arr.dtype}")  # fmt: skip
        arr = arr.astype(float)
        bad = np.flatnonzero(~np.isfinite(arr)).tolist()
    if bad:
        raise ValueError(f"{name} must be finite, got a non-finite entry at flat index {bad[0]}")
    return arr


def _has_mpf(value: Any) -> bool:
    if isinstance(value, mpmath.mpf):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype == object and any(isinstance(v, mpmath.mpf) for v in value.ravel())
    if isinstance(value, (list, tuple)):
        return any(_has_mpf(v) for v in value)
    return False


def _nonzero(name: str, K: np.ndarray, what: str) -> None:
    if all(v == 0 for v in K.ravel()):
        raise ValueError(f"{name} is zero: {what} is undefined (it has no direction)")


def _scaled(K: np.ndarray) -> tuple[np.ndarray, int]:
    """float64 ``K 2^-e`` with its largest magnitude in [0.5, 1) (exact), and ``e``."""
    _, e = math.frexp(float(np.max(np.abs(K))))
    return np.ldexp(K, -e), e


def _pair(name0: str, K0: Any, namet: str, Kt: Any, what: str) -> tuple[Any, Any, bool]:
    A, B = kernel_matrix(name0, K0), kernel_matrix(namet, Kt)
    if A.shape != B.shape:
        raise ValueError(f"{name0} and {namet} must be kernels on the same data, got shapes "
                         f"{np.shape(K0)} and {np.shape(Kt)}")  # fmt: skip
    _nonzero(name0, A, what)
    _nonzero(namet, B, what)
    mp = A.dtype == object or B.dtype == object
    if mp:
        A, B = (np.vectorize(nb.to_mpf, otypes=[object])(M) for M in (A, B))
    return A, B, mp


def _mp(func: Callable[..., Any], *args: Any) -> Any:
    """``func`` at 10 guard digits over the working precision, rounded back."""
    with mpmath.workdps(mpmath.mp.dps + 10):
        out = func(*args, sqrt=mpmath.sqrt, fsum=mpmath.fsum)
    return +out


def kernel_distance(K0: Any, Kt: Any) -> Any:
    """The kernel distance ``S(0, t) = 1 - <K0, Kt>_F / (|K0|_F |Kt|_F)`` (issue 31; Fort
    et al. 2020, plotted by seed 003 against the initial scale) in ``[0, 2]`` (``[0, 1]``
    for positive semi-definite kernels), 0 exactly when ``Kt`` is ``K0`` (entry for entry).

    Evaluated as ``|K0^ - Kt^|_F^2 / 2`` (:func:`symbolic`'s definition, without the
    cancellation of ``1 - cos``): float64 when both kernels are float64 (relative error
    ``~ m eps / sqrt(S)`` for ``m`` entries), else mpmath at the working precision (10 guard
    digits).  A zero kernel (no direction) or a non-finite entry is a ``ValueError`` naming
    ``K0`` or ``Kt``."""
    A, B, mp = _pair("K0", K0, "Kt", Kt, "the kernel distance")
    if mp:
        return _mp(_distance, A, B)
    return float(_distance(_scaled(A)[0], _scaled(B)[0], math.sqrt, math.fsum))


def kernel_norm_change(K0: Any, Kt: Any) -> Any:
    """The factor ``|Kt|_F / |K0|_F`` by which the kernel's norm changed (1: unchanged), by
    :func:`symbolic`'s ``norm_change``; float64 (``Float64RangeError`` naming ``Kt`` when the
    ratio is beyond its range) or mpmath as :func:`kernel_distance`."""
    A, B, mp = _pair("K0", K0, "Kt", Kt, "the change of the kernel's norm")
    if mp:

        def ratio(A: Any, B: Any, sqrt: Any, fsum: Any) -> Any:
            return sqrt(fsum(v * v for v in B.ravel()) / fsum(v * v for v in A.ravel()))

        return _mp(ratio, A, B)
    (As, ea), (Bs, eb) = _scaled(A), _scaled(B)
    r = math.sqrt(math.fsum(v * v for v in Bs.ravel()) / math.fsum(v * v for v in As.ravel()))
    try:
        out = math.ldexp(r, eb - ea)
    except OverflowError:
        out = math.inf
    if not math.isfinite(out) or (out == 0 and r != 0):
        raise nb.Float64RangeError(f"Kt / K0: the norm ratio 2^{eb - ea} x {r:.6g} is outside "
                                   f"the float64 range (pass mpmath kernels)")  # fmt: skip
    return out


def task_alignment(K: Any, y: Any) -> Any:
    """The kernel's alignment with the task, ``y^T K y / (|K|_F |y|^2)`` (issue 31), in
    ``[-1, 1]`` (1 when ``K`` is proportional to ``y y^T``), by :func:`symbolic`'s
    ``alignment``.  ``y``: the targets, a scalar for a scalar ``K``, ``(n,)`` for ``(n, n)``,
    ``(n, c)`` for ``(n, c, n, c)`` (flattened as ``K``).  A zero ``K`` or ``y``, a non-finite
    entry or a shape that does not match is a ``ValueError`` naming it."""
    M = kernel_matrix("K", K)
    v = _entries("y", y)
    if v.size != M.shape[0] or (np.ndim(K) == 4 and v.shape != np.shape(K)[:2]) or (
            np.ndim(K) == 2 and v.ndim != 1) or (np.ndim(K) == 0 and v.ndim != 0):  # fmt: skip
        raise ValueError(f"y must have the shape of K's data axes (scalar, (n,) or (n, c)) for "
                         f"K of shape {np.shape(K)}, got {v.shape}")  # fmt: skip
    v = v.reshape(-1)
    _nonzero("K", M, "the task alignment")
    _nonzero("y", v, "the task alignment")
    if M.dtype == object or v.dtype == object:
        M, v = (np.vectorize(nb.to_mpf, otypes=[object])(a) for a in (M, v))
        return _mp(_alignment, M, v)
    return float(_alignment(_scaled(M)[0], _scaled(v)[0], math.sqrt, math.fsum))


# ---------------------------------------------------------------------------
# along an exact solution
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class KernelPath:
    """The kernel measures along an exact solution at ``times`` (float64 arrays, or object
    arrays of ``mpf`` at the trajectory's ``dps``): ``distance`` ``S(0, t)``, ``norm_change``
    ``|K_t| / |K_0|`` and ``alignment`` (``y^T K_t y / (|K_t| |y|^2)``; ``None`` when the
    targets are zero: undefined)."""

    times: np.ndarray
    distance: np.ndarray
    norm_change: np.ndarray
    alignment: np.ndarray | None


def _state_ntk(state: Any) -> Any:
    return state.ntk


def kernel_path(trajectory: Any, times: Any, *, kernel: Callable[[Any], Any] | None = None,
                y: Any = None) -> KernelPath:  # fmt: skip
    """:func:`kernel_distance` ``S(0, t)``, :func:`kernel_norm_change` and
    :func:`task_alignment` of the NTK along an exact solution (issue 31, item 4), ``t = inf``
    included (the limit state of the closed form).

    ``trajectory``: any exact solution with ``at(t)`` and ``dps`` (``xu_ziyin.closed_form``,
    ``kunin.wide_closed_form``, ...); ``kernel(state)``: its NTK (default: the state's
    ``ntk`` field; for ``kunin.closed_form``, whose states carry the weights only, pass
    ``kunin.neuron_kernel(setup)``); ``y``: the targets (default: the setup's ``y`` or
    ``Y``).  Evaluated at the trajectory's precision."""
    if not callable(getattr(trajectory, "at", None)) or not hasattr(trajectory, "dps"):
        raise TypeError(f"trajectory must be an exact solution (with at(t) and dps), got "
                        f"{nb.describe(trajectory)}")  # fmt: skip
    if kernel is None:
        if not hasattr(trajectory.at(0), "ntk"):
            raise TypeError(f"trajectory's states ({type(trajectory.at(0)).__name__}) have no "
                            f"ntk field: pass kernel=... (for kunin.closed_form: "
                            f"kernel=kunin.neuron_kernel(setup))")  # fmt: skip
        kernel = _state_ntk
    elif not callable(kernel):
        raise TypeError(f"kernel must be a callable state -> NTK, got {nb.describe(kernel)}")
    ts = _times(times)
    dps = trajectory.dps
    given = y is not None
    if not given:
        setup = getattr(trajectory, "setup", None)
        y = getattr(setup, "y", getattr(setup, "Y", None))
        if y is None:
            raise TypeError("trajectory's setup has no targets y or Y: pass y=...")
    with nb.Precision(dps, 0):
        conv = nb.converter(dps, "times")
        y = _entries("y", y) if given else np.asarray(y, object)  # (the setup's: str too)
        y = np.vectorize(nb.converter(dps, "y"), otypes=[nb.dtype(dps)])(y)
        has_y = any(v != 0 for v in np.ravel(y))
        K0 = kernel(trajectory.at(0))
        if all(v == 0 for v in np.ravel(K0)):
            raise ValueError(
                "trajectory starts at a zero NTK (K(0) = 0: a start at the "
                "origin): S(0, t) is undefined (K(0) has no direction)"
            )
        rows = []
        for t in ts:
            K = K0 if t == 0 else kernel(trajectory.at(t))
            align = task_alignment(K, y) if has_y else 0
            rows.append((kernel_distance(K0, K), kernel_norm_change(K0, K), align))
    out = np.array(rows, dtype=nb.dtype(dps)).reshape(len(ts), 3)
    times_out = np.array([conv(t) for t in ts], dtype=nb.dtype(dps))
    return KernelPath(times_out, out[:, 0], out[:, 1], out[:, 2] if has_y else None)


def _times(times: Any) -> list[Any]:
    """One time or a 1-d sequence, each ``>= 0`` or ``+inf``."""
    one = np.ndim(times) == 0 if not isinstance(times, str) else True
    ts = [times] if one else list(np.asarray(times, dtype=object).ravel())
    if not ts:
        raise ValueError("times must hold at least one time (>= 0 or inf)")
    out = []
    for t in ts:
        if isinstance(t, (float, mpmath.mpf)) and t == math.inf:
            out.append(t)
            continue
        nb.check_number("times", t, nonnegative=True)
        out.append(t)
    return out
