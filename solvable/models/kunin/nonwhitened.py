"""Seed 003 (Kunin et al.), Part I's exact solution on inputs that are not whitened (issue 31,
item 3): :func:`closed_form` (isotropic inputs as :func:`single_neuron.closed_form
<solvable.models.kunin.single_neuron.closed_form>`; else the aligned condition of
:mod:`~solvable.models.kunin.aligned_data`) and :class:`AlignedTrajectory`.

The reduction (claim ``kunin.aligned_reduction``): with ``w0 = w_E + w_N``, ``w_E`` in the
eigenspace ``E`` of ``X^T X`` (eigenvalue ``s``) that holds ``X^T y``, ``w_N`` in ``ker X``,
``w_N`` stays constant and ``(a, w_E)`` is the single neuron on whitened data; in the whitened
flow ``s`` and the rates enter only as ``s eta_a``, ``s eta_w`` (with ``beta* = X^T y / s``
fixed), so ``(a, w_E)`` is exactly the isotropic :class:`~solvable.models.kunin.Trajectory` of
the rational setup ``Setup(s eta_a, s eta_w, I_d, beta*)``, whose loss ``|beta_E - beta*|^2 /
2`` is ``(L - L_min) / s``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.exact_gram import to_fraction
from solvable._core.numbers import Number
from solvable.models.kunin._float64 import _SHADOW_DPS, _check_out
from solvable.models.kunin.aligned_data import Alignment, _alignment
from solvable.models.kunin.isotropic_data import _default_rtol
from solvable.models.kunin.losses import _balance, ntk
from solvable.models.kunin.minimum import _working_rational
from solvable.models.kunin.setups import Setup, _arrays, _check_weights
from solvable.models.kunin.single_neuron import Trajectory
from solvable.models.kunin.single_neuron import closed_form as _isotropic_closed_form
from solvable.models.kunin.states import State, States
from solvable.models.kunin.times import _SAMPLE_TIMES

# digits beyond dps at which the reduced trajectory is evaluated before w = w_E + w_N is
# formed: a component of w_E and of w_N may cancel (they are orthogonal vectors, not
# orthogonal entries), and the sum is rounded once to dps
_EXTRA = 10


@dataclass(frozen=True)
class AlignedTrajectory:
    """Exact solution from ``(a0, w0)`` on inputs that are not whitened, aligned start (seed
    003, Part I's exact solution; issue 31, item 3): ``w(t) = w_E(t) + w_N``, ``(a, w_E)`` the
    whitened single neuron with ``X^T X`` replaced by ``s`` on ``E`` (:attr:`reduced`, the
    isotropic :class:`~solvable.models.kunin.Trajectory` it is computed by).

    Attributes: ``delta`` (conserved, ``eta_w a^2 - eta_a |w|^2``), ``delta_reduced = delta +
    eta_a |w_N|^2`` (the reduced flow's: ``eta_w a^2 - eta_a |w_E|^2``), ``s`` (the
    eigenvalue on ``E``), ``beta_star`` (``X^T y / s``: the least-norm least-squares
    solution), ``Omega`` (the reduced flow's rate, as :class:`Trajectory`'s), ``w_kernel``
    (``w_N``, the constant part of ``w`` in ``ker X``), ``loss_floor`` (the least loss
    ``(|y|^2 - |X^T y|^2 / s) / 2``).  As ``t -> inf``, ``beta -> beta* + a(inf) w_N``: the
    part of the start in ``ker X`` stays in the learnt weights (Kunin et al.'s implicit
    bias, rank-deficient inputs): the least-norm solution only for ``w_N = 0`` or ``a(inf) =
    0``.

    ``t`` in ``[0, inf]``; float64 (``dps=None``) or mpmath at ``dps`` digits as
    :class:`Trajectory` (the reduced trajectory at ``dps + 10`` digits, the sums rounded once).
    float64 where a constant of the reduced setup (``s eta``, ``beta*``, ``w_E``, ``w_N``, the
    least loss) lies outside ``[1e-100, 1e100]``: the 17-digit trajectory rounded once (its
    ``reduced`` is then an mpmath one); a value float64 cannot hold is a ``ValueError``.
    """

    setup: Setup
    dps: int | None
    delta: Any
    delta_reduced: Any
    s: Any
    beta_star: np.ndarray
    Omega: Any
    w_kernel: np.ndarray
    loss_floor: Any
    reduced: Trajectory
    # w_N, s, the floor, a0 at dps + 10 digits (or the 17-digit "shadow" of float64)
    _work: dict[str, Any] = field(repr=False)

    def at(self, t: Number) -> State:
        """The state at time ``t`` in ``[0, inf]``."""
        return self._sample([t], None, "t").at(0)

    def sample(self, times: Any, *, out: States | None = None) -> States:
        """The states at many times, each in ``[0, inf]`` (as :meth:`Trajectory.sample`;
        ``out``: float64 only, a :class:`States` whose arrays are filled in place)."""
        return self._sample(times, out, _SAMPLE_TIMES)

    def regime(self, ratio: Number = 10.0) -> str:
        """:func:`~solvable.models.kunin.regime` of the reduced flow (its ``delta_reduced``, its
        rates ``s eta`` and ``|beta*|``): the regime of ``(a, w_E)``, which carries all of the
        learning (``w_N`` never moves)."""
        return self.reduced.regime(ratio)

    def ntk(self, t: Number) -> np.ndarray:
        """The NTK on the data at time ``t``, ``K = X M X^T`` (n, n) with ``M`` of
        :func:`~solvable.models.kunin.weight_preconditioner` at the state (claim
        ``kunin.ntk``: :func:`~solvable.models.kunin.ntk` of ``a(t), w(t)``)."""
        st = self.at(t)
        with nb.Precision(self.dps):
            X, _ = _arrays(self.setup, self.dps)
            conv = nb.converter(self.dps)
            K = ntk(st.a, st.w, X, conv(self.setup.eta_a), conv(self.setup.eta_w))
        return K if self.dps is None else nb.rounded((np.asarray(K, dtype=object),), self.dps)[0]

    def _sample(self, times: Any, out: States | None, name: str) -> States:
        if self.dps is not None and out is not None:
            raise ValueError(
                f"out must be None for dps={self.dps} (preallocated outputs are float64 only, "
                f"dps=None), got {type(out).__name__}"
            )
        if "shadow" in self._work:  # float64 out of range: 17 digits, rounded once
            a, t, w, beta, loss = self._shadow_sample(times, name)
        else:
            a, t, w, beta, loss = self._combined(times, name)
        if out is None:
            return States(t=t, a=a, w=w, beta=beta, delta=self.delta, loss=loss)
        _check_out(out, len(t), self.setup.d)  # (before any value is written)
        for label, src in (("t", t), ("a", a), ("w", w), ("beta", beta), ("loss", loss)):
            getattr(out, label)[...] = src
        if out.delta == self.delta:
            return out
        return States(t=out.t, a=out.a, w=out.w, beta=out.beta, delta=self.delta, loss=out.loss)

    def _shadow_sample(self, times: Any, name: str) -> tuple[Any, ...]:
        """float64 from the 17-digit trajectory (``_work["shadow"]``), rounded once."""
        st = self._work["shadow"]._sample(times, None, name)
        with mpmath.workdps(_SHADOW_DPS):
            out = [np.array([float(v) for v in np.ravel(arr)]).reshape(np.shape(arr))
                   for arr in (st.a, st.t, st.w, st.beta, st.loss)]  # fmt: skip
        _check_finite(out[2], out[3], out[4])
        return tuple(out)

    def _combined(self, times: Any, name: str) -> tuple[Any, ...]:
        """``a, t, w = w_E + w_N, beta, loss = L_min + s L_reduced`` at the working
        precision, rounded to ``dps``."""
        red = self.reduced._sample(times, None, name)
        wd = None if self.dps is None else self.dps + _EXTRA
        a = red.a
        if self._work["at_rest"]:  # a fixed point: a0 itself, not its round trip
            a = np.full(len(a), self._work["a0"], dtype=nb.dtype(self.dps))
        with nb.Precision(wd), np.errstate(all="ignore"):
            w_N = self._work["w_N"][None, :]
            w = red.w + w_N
            beta = red.beta + a[:, None] * w_N
            # L = L_min + s |beta_E - beta*|^2 / 2: both terms >= 0, no cancellation
            loss = red.loss * self._work["s"] + self._work["floor"]
        if self.dps is None:
            _check_finite(w, beta, loss)
            return a, red.t, w, beta, loss
        return nb.rounded((a, red.t, w, beta, loss), self.dps)


def _check_finite(w: np.ndarray, beta: np.ndarray, loss: np.ndarray) -> None:
    """``ValueError`` for a float64 state beyond the float64 range."""
    for label, arr in (("w", w), ("beta", beta), ("loss", loss)):
        if not np.all(np.isfinite(arr)):
            raise ValueError(
                f"the state's {label} exceeds the float64 range (|value| <= 1.8e308) for these "
                "X, y, eta_a, eta_w, a0, w0; pass dps=... for mpmath"
            )


@nb.mpmath_in_mpmath_out
def closed_form(setup: Setup, a0: Number, w0: Any, *, dps: int | None = None,
                isotropy_rtol: Number | None = None,
                alignment_rtol: Number | None = None,
                ) -> Trajectory | AlignedTrajectory:  # fmt: skip
    """Exact gradient-flow solution from ``(a0, w0)`` (seed 003, Part I, exact solution).

    Whitened (isotropic) inputs, ``X^T X = s I`` to ``isotropy_rtol``: the
    :class:`~solvable.models.kunin.Trajectory` of
    :func:`solvable.models.kunin.single_neuron.closed_form` (its conditions, tolerance and error
    bound).  Otherwise (issue 31, item 3): an :class:`AlignedTrajectory` when ``X^T y`` and the
    part of ``w0`` outside ``ker X`` lie in one eigenspace ``E`` of ``X^T X`` (eigenvalue ``s >
    0``), each to ``alignment_rtol`` relative (``max|X^T X v - s v| <= rtol s max|v|``, ``s``
    the Rayleigh quotient of ``v``), decided in exact rational arithmetic: by default exactly
    (``rtol = 0``) for exact entries of ``X`` (int, str, Fraction, mpf) and to the isotropy
    check's tolerance when any entry is a float (``isotropy_rtol``, or its default ``max(10 u,
    whitening_rtol(n))``), ``alignment_rtol`` in ``[0, 1)`` otherwise; a defect ``eps`` costs
    about ``eps`` relative in the state (to first order, as for the isotropy defect).  Such
    data: rank-deficient inputs ``X^T X = s P`` (``P`` a projection) from any ``w0``, and any
    ``X^T X`` from a start aligned with the eigenspace of ``X^T y`` (the mode-decoupled case).
    When ``X^T y = 0`` the eigenspace is that of ``X^T X w0`` (then ``beta -> 0`` or the start
    is at rest).  A ``w0`` with parts on two different nonzero eigenvalues couples them through
    ``a`` (no closed form is known; the seed solves the whitened case): ``ValueError`` naming
    the condition, pointing to ``numerics.simulate``; so is ``X = 0``.
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a kunin.Setup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    a0, w0c = _check_weights(setup, a0, w0)
    try:  # (the isotropic closed form decides X^T X = s I once, as its first condition)
        return _isotropic_closed_form(setup, a0, w0c, dps=dps, isotropy_rtol=isotropy_rtol)
    except ValueError as err:
        if "isotropic columns" not in str(err):  # (a bad isotropy_rtol, too-wide data, ...)
            raise
        not_isotropic = str(err)
    unit = 2.0**-52 if dps is None else 10.0 ** (-dps)
    if alignment_rtol is None:  # exact data: decided exactly; float data: as the isotropy
        if not any(isinstance(v, float) for row in setup.X for v in row):
            rtol = 0.0
        elif isotropy_rtol is None:
            rtol = _default_rtol((v for row in setup.X for v in row), unit, setup.n)
        else:  # (validated by the isotropy check)
            rtol = nb.to_float(isotropy_rtol, "isotropy_rtol")
    else:
        rtol = nb.to_float(nb.check_number("alignment_rtol", alignment_rtol, nonnegative=True),
                           "alignment_rtol")  # fmt: skip
        if not rtol < 1:
            raise ValueError(f"alignment_rtol must be in [0, 1), got {nb.describe(alignment_rtol)}")
    try:
        al = _alignment(setup, w0c, rtol)
    except ValueError as err:  # both conditions named, the isotropic one first
        raise ValueError(f"{not_isotropic} Nor is the start aligned: {err}") from None
    return _aligned_trajectory(setup, a0, w0c, dps, al)


def _aligned_trajectory(setup: Setup, a0: Number, w0c: tuple[Number, ...], dps: int | None,
                        al: Alignment) -> AlignedTrajectory:  # fmt: skip
    """The :class:`AlignedTrajectory` of an accepted :class:`Alignment`."""
    if dps is None and _beyond_float64(setup, al):
        shadow = _aligned_trajectory(setup, a0, w0c, _SHADOW_DPS, al)
        with mpmath.workdps(_SHADOW_DPS):
            vals = {k: float(getattr(shadow, k)) for k in ("delta", "delta_reduced", "s",
                                                           "Omega", "loss_floor")}  # fmt: skip
            vecs = {k: np.array([float(v) for v in getattr(shadow, k)])
                    for k in ("beta_star", "w_kernel")}  # fmt: skip
        out = AlignedTrajectory(setup=setup, dps=None, reduced=shadow.reduced,
                                _work={"shadow": shadow}, **vals, **vecs)  # fmt: skip
        _check_constants(out)
        return out
    d = setup.d
    eye = tuple(tuple(int(p == r) for r in range(d)) for p in range(d))
    ea, ew = to_fraction(setup.eta_a), to_fraction(setup.eta_w)
    virtual = Setup(al.s * ea, al.s * ew, eye, al.beta_star)
    wd = None if dps is None else dps + _EXTRA
    reduced = _isotropic_closed_form(virtual, a0, al.w_range, dps=wd, isotropy_rtol=0)
    w0f = [to_fraction(v) for v in w0c]
    delta = _balance(to_fraction(a0), np.array(w0f, dtype=object), ea, ew)
    delta_E = _balance(to_fraction(a0), np.array(al.w_range, dtype=object), ea, ew)
    with nb.Precision(wd):
        w_N = np.array([_working_rational(v, wd) for v in al.w_kernel], dtype=nb.dtype(dps))
        beta_star = np.array([_working_rational(v, wd) for v in al.beta_star],
                             dtype=nb.dtype(dps))  # fmt: skip
        s, floor = _working_rational(al.s, wd), _working_rational(al.floor, wd)
        delta, delta_E = _working_rational(delta, wd), _working_rational(delta_E, wd)
        a0w = _working_rational(to_fraction(a0), wd)
        Omega = reduced.Omega
    rnd = nb.round_to(dps)
    work = {"w_N": w_N, "s": s, "floor": floor, "at_rest": al.at_rest, "a0": a0w}
    w_Nr, beta_star = nb.rounded((w_N, beta_star), dps)
    out = AlignedTrajectory(
        setup=setup, dps=dps, delta=rnd(delta), delta_reduced=rnd(delta_E), s=rnd(s),
        beta_star=beta_star, Omega=rnd(Omega), w_kernel=w_Nr, loss_floor=rnd(floor),
        reduced=reduced, _work=work,
    )  # fmt: skip
    if dps is None:
        _check_constants(out)
    return out


# float64 evaluates the reduced trajectory where its setup's constants s eta, beta* and the
# least loss lie in [1e-100, 1e100] (or are 0): their products and squares then stay within the
# float64 range; otherwise the trajectory is evaluated at 17 digits and rounded once
_F64_ALIGNED_RANGE = (Fraction(1, 10**100), Fraction(10**100))


def _beyond_float64(setup: Setup, al: Alignment) -> bool:
    """Whether a constant of the reduced setup is outside :data:`_F64_ALIGNED_RANGE`."""
    lo, hi = _F64_ALIGNED_RANGE
    vals = [al.s * to_fraction(setup.eta_a), al.s * to_fraction(setup.eta_w), al.s, al.floor,
            *al.beta_star, *al.w_range, *al.w_kernel]  # fmt: skip
    return any(v != 0 and not lo <= abs(v) <= hi for v in vals)


def _check_constants(out: AlignedTrajectory) -> None:
    """``ValueError`` for a float64 trajectory whose reported constants overflow."""
    for name, v in (("s", out.s), ("delta", out.delta), ("w_kernel", out.w_kernel),
                    ("beta_star", out.beta_star), ("loss_floor", out.loss_floor)):  # fmt: skip
        if not np.all(np.isfinite(np.asarray(v, dtype=float))):
            raise ValueError(
                f"{name} exceeds the float64 range (|value| <= 1.8e308) for these X, y, a0, w0; "
                "pass dps=... for mpmath"
            )
