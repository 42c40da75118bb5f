"""Seed 003 (Kunin et al.), Part II's exact solution of the wide net on inputs that are not
whitened (issue 31, item 3a): :class:`AlignedWideTrajectory` and the aligned branch of
:func:`~solvable.models.kunin.wide_closed_form` (:func:`aligned_wide_closed_form`).

The reduction (claim ``kunin.wide_aligned_reduction``): with ``W0 = W_E + W_N``, the rows of
``W_E`` in the eigenspace ``E`` of ``X^T X`` (eigenvalue ``s``) that holds the columns of ``X^T
Y`` and those of ``W_N`` in ``ker X``, ``W_N`` stays constant and ``(A, W_E)`` is the whitened
wide net of the virtual setup ``X = I_d, Y = B* = X^T Y / s``, rates ``s eta`` (the same
field; its loss ``|W_E^T A - B*|^2 / 2`` is ``(L - L_min) / s``, its balance ``s Delta_E``).
It is evaluated as the equivalent exact setup ``WideSetup(rho eta_a, rho eta_w, r I_d, r B*)``
with ``r = 2^j`` the power of 2 nearest ``sqrt(s)`` and ``rho = s / r^2`` in ``[1/2, 2]``
(the same field, its loss ``r^2`` times the first one's; claim ``kunin.wide_aligned_reduction``):
the rates stay those of the setup and float64 normalises ``r`` exactly, so data with ``s`` far
from 1 keeps the range of the whitened closed form.  Nothing here imports
:mod:`~solvable.models.kunin.wide`: the whitened closed form is handed in by its caller
(``wide_closed_form`` dispatches here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.exact_gram import to_fraction
from solvable._core.numbers import Number
from solvable._core.states import StackedStates
from solvable.models.kunin.aligned_data import _show
from solvable.models.kunin.isotropic_data import _default_rtol
from solvable.models.kunin.minimum import _working_rational
from solvable.models.kunin.setups import WideSetup, _arrays
from solvable.models.kunin.wide_aligned_data import (
    _SIMULATE,
    WideAlignment,
    _reduced_balance,
    _wide_alignment,
)
from solvable.models.kunin.wide_sample import wide_ntk_stack

# digits beyond dps at which the reduced trajectory is evaluated before W = W_E + W_N is
# formed (as the single neuron's: a component of W_E and of W_N may cancel), rounded once
_EXTRA = 10


@dataclass(frozen=True)
class AlignedWideTrajectory:
    """Exact solution of the wide net from ``(A0, W0)`` on inputs that are not whitened,
    aligned start (seed 003, Part II's exact solution; issue 31, item 3a): ``W(t) = W_E(t) +
    W_N``, ``(A, W_E)`` the whitened wide net of the virtual setup ``X = I_d, Y = B*``, rates
    ``s eta`` (:attr:`reduced`, the :class:`~solvable.models.kunin.WideTrajectory` it is
    computed by).

    Attributes: ``delta`` (``tr Delta(0) / h``: the conserved ``delta`` where ``Delta(0) =
    delta I_h``), ``delta_reduced`` (``Delta_E = Delta(0) + eta_a W_N W_N^T = delta_reduced
    I_h``), ``s``, ``beta_star`` (``X^T Y / s``, d x c: the least-norm least-squares
    solution), ``rates`` (the eigenvalues of the reduced generator ``K``, per unit time of
    this setup), ``h``, ``condition`` (the reduced trajectory's), ``w_kernel`` (``W_N``, h x
    d, the constant rows in ``ker X``), ``loss_floor`` (the least loss ``(|Y|^2 - |X^T
    Y|^2/s) / 2``).  As ``t -> inf``, ``beta -> beta_E(inf) + W_N^T A(inf)``: the start's
    part in ``ker X`` stays in the learnt map (Kunin et al.'s implicit bias on rank-deficient
    inputs).

    States: :class:`~solvable.models.kunin.WideExactState` (``A``, ``W = W_E + W_N`` where the
    reduced start determines them, else ``None``, which happens only with ``W_N = 0``; ``beta
    = W^T A``; ``outputs = X W_E^T A`` and the NTK on the original ``X``, exactly the same as
    with ``W`` since ``X W_N^T = 0``; ``loss = L_min + s L_reduced``).  ``t`` in ``[0, inf]``;
    float64, or mpmath at ``dps`` (the reduced trajectory at ``dps + 10``, rounded once)."""

    setup: WideSetup
    dps: int | None
    delta: Any
    delta_reduced: Any
    s: Any
    beta_star: np.ndarray
    rates: np.ndarray
    h: int
    condition: float
    w_kernel: np.ndarray
    loss_floor: Any
    reduced: Any  # the WideTrajectory of the virtual setup
    _work: dict[str, Any] = field(repr=False)

    def at(self, t: Number) -> Any:
        """The :class:`~solvable.models.kunin.WideExactState` at time ``t`` in ``[0, inf]``."""
        return self._map(StackedStates.stack([self.reduced.at(t)])).at(0)

    def sample(self, times: Any) -> StackedStates:
        """The states at many times (each in ``[0, inf]``), stacked as
        :meth:`WideTrajectory.sample <solvable.models.kunin.WideTrajectory.sample>` (float64:
        the reduced trajectory's vectorised sample, mapped back on whole arrays)."""
        return self._map(self.reduced.sample(times))

    def _map(self, red: StackedStates) -> StackedStates:
        """The states of this setup from the reduced ones (``red``, at the working
        precision)."""
        k, dps = self._work, self.dps
        wd = None if dps is None else dps + _EXTRA
        T = len(red.t)
        with nb.Precision(wd), np.errstate(all="ignore"):
            X, W_N = k["X"], k["W_N"]
            beta_E, gram_a, gram_wE = red.beta, red.gram_a, red.gram_w
            # L = L_min + rho L_reduced: both terms >= 0, no cancellation
            loss = k["floor"] + k["rho"] * red.loss
            outputs = X @ beta_E  # (X W_N^T = 0 exactly: X beta = X beta_E)
            ntk = wide_ntk_stack(gram_a, gram_wE, X, k["eta_a"], k["eta_w"])
            A = W = np.full(T, None, dtype=object)
            beta, gram_w = beta_E, gram_wE
            if k["determined"]:
                A = np.asarray(red.A.tolist(), dtype=nb.dtype(dps))
                W = np.asarray(red.W.tolist(), dtype=nb.dtype(dps))
            if not k["zero_kernel"]:  # (A, W determined: checked by aligned_wide_closed_form)
                W = W + W_N
                beta = beta_E + W_N.T @ A
                gram_w = W.swapaxes(-1, -2) @ W
        out = dict(beta=beta, outputs=outputs, loss=loss, ntk=ntk, gram_a=gram_a,
                   gram_w=gram_w)  # fmt: skip
        if dps is None:
            _check_finite(dict(out, **({"W": W} if k["determined"] else {})))
        else:
            names = list(out)
            keep = [A, W] if k["determined"] else []
            vals = nb.rounded([out[n] for n in names] + keep, dps)
            out = dict(zip(names, vals[: len(names)], strict=True))
            if keep:
                A, W = vals[len(names) :]
        fields = dict(t=red.t, delta=np.full(T, self.delta, dtype=nb.dtype(dps)), A=A, W=W, **out)
        return StackedStates(red.state_type, fields)


def _check_finite(out: dict[str, Any]) -> None:
    """``ValueError`` for a float64 state beyond the float64 range."""
    for name, v in out.items():
        if not np.all(np.isfinite(np.asarray(v, dtype=float))):
            raise ValueError(
                f"the state's {name} exceeds the float64 range (|value| <= 1.8e308) for these "
                "X, Y, eta_a, eta_w, A0, W0; pass dps=... for mpmath"
            )


def alignment_tolerance(setup: WideSetup, dps: int | None, isotropy_rtol: Number | None,
                        alignment_rtol: Number | None) -> float:  # fmt: skip
    """The tolerance of the alignment (as the single neuron's :func:`~solvable.models.kunin.
    closed_form`): ``alignment_rtol`` in ``[0, 1)`` if given; else exactly 0 for exact
    entries of ``X`` (int, str, Fraction, mpf) and the isotropy check's tolerance when any
    entry is a float (``isotropy_rtol``, or its default)."""
    if alignment_rtol is not None:
        rtol = nb.to_float(nb.check_number("alignment_rtol", alignment_rtol, nonnegative=True),
                           "alignment_rtol")  # fmt: skip
        if not rtol < 1:
            raise ValueError(f"alignment_rtol must be in [0, 1), got {nb.describe(alignment_rtol)}")
        return rtol
    if not any(isinstance(v, float) for row in setup.X for v in row):
        return 0.0
    if isotropy_rtol is None:
        unit = 2.0**-52 if dps is None else 10.0 ** (-dps)
        return _default_rtol((v for row in setup.X for v in row), unit, setup.n)
    return nb.to_float(isotropy_rtol, "isotropy_rtol")  # (validated by the isotropy check)


def aligned_wide_closed_form(setup: WideSetup, A0: Any, W0: Any, dps: int | None, rtol: float,
                             balance_rtol: Number | None, whitened: Callable[..., Any],
                             not_isotropic: str) -> AlignedWideTrajectory:  # fmt: skip
    """The aligned branch of ``wide_closed_form`` (its docstring): ``A0``, ``W0`` checked
    rows, ``rtol`` the alignment tolerance (:func:`alignment_tolerance`), ``whitened`` the
    whitened closed form (``wide_closed_form`` itself, called on the exactly whitened virtual
    setup), ``not_isotropic`` its isotropy refusal (named first when the start is not
    aligned either)."""
    try:
        al = _wide_alignment(setup, W0, rtol)
    except ValueError as err:  # both conditions named, the isotropic one first
        raise ValueError(f"{not_isotropic} Nor is the start aligned: {err}") from None
    unit = 2.0**-52 if dps is None else 10.0 ** (-dps)
    c, d = setup.c, setup.d
    if balance_rtol is None:
        brtol = _default_rtol([v for r in (*A0, *W0) for v in r], unit, c + d)
    else:
        brtol = nb.to_float(nb.check_number("balance_rtol", balance_rtol, nonnegative=True),
                            "balance_rtol")  # fmt: skip
    delta_E, delta, scale = _reduced_balance(setup, A0, W0, al, brtol)
    # the whitened check of the virtual start: the same absolute tolerance (its terms are
    # those of (A0, W_E), smaller than those of (A0, W0) by the part in ker X)
    ea, ew = to_fraction(setup.eta_a), to_fraction(setup.eta_w)
    WE = [list(r) for r in al.w_range]
    scale_E = max(ew * sum(to_fraction(v) ** 2 for v in A0[i]) + ea * sum(v * v for v in WE[i])
                  for i in range(len(A0)))  # fmt: skip
    vrtol = brtol if scale_E == 0 else float(Fraction(brtol) * scale / scale_E)
    # the virtual setup as X = r I_d, Y = r B*, rates rho eta (r = 2^j ~ sqrt(s), rho = s/r^2)
    r = Fraction(2) ** ((al.s.numerator.bit_length() - al.s.denominator.bit_length()) // 2)
    rho = al.s / (r * r)
    eye = tuple(tuple(r if p == q else 0 for q in range(d)) for p in range(d))
    virtual = WideSetup(rho * ea, rho * ew, eye, tuple(tuple(r * v for v in row)
                                                       for row in al.beta_star))  # fmt: skip
    wd = None if dps is None else dps + _EXTRA
    try:
        reduced = whitened(virtual, A0, al.w_range, dps=wd, isotropy_rtol=0, balance_rtol=vrtol)
    except ValueError as err:
        raise ValueError(
            "inputs not whitened, aligned start: the reduced problem (A0, W_E) on the virtual "
            f"setup X = I_d, Y = X^T Y / s, rates s eta (s = {_show(al.s, 6)}) is refused: "
            f"{err}"
        ) from None
    zero_kernel = not any(v for r in al.w_kernel for v in r)
    determined = reduced.at(0).A is not None
    if not (zero_kernel or determined):
        raise ValueError(
            "inputs not whitened, aligned start: the reduced start (A0, W_E) does not "
            "determine A and W (h >= 2, rows that do not decouple by modes: a rotation of "
            "the hidden layer with no closed form), and with W_N != 0 (rows of W0 in ker X) "
            "beta = W_E^T A + W_N^T A depends on that rotation. " + _SIMULATE
        )
    return _trajectory(setup, dps, al, reduced, rho, delta, delta_E, zero_kernel, determined)


def _trajectory(setup: WideSetup, dps: int | None, al: WideAlignment, reduced: Any,
                rho: Fraction, delta: Fraction, delta_E: Fraction, zero_kernel: bool,
                determined: bool) -> AlignedWideTrajectory:  # fmt: skip
    """The :class:`AlignedWideTrajectory` of an accepted alignment."""
    wd = None if dps is None else dps + _EXTRA
    dt = nb.dtype(dps)
    with nb.Precision(wd):
        X, _ = _arrays(setup, wd)
        W_N = np.array([[_working_rational(v, wd) for v in r] for r in al.w_kernel], dtype=dt)
        B = np.array([[_working_rational(v, wd) for v in r] for r in al.beta_star], dtype=dt)
        work = dict(X=X, W_N=W_N, rho=_working_rational(rho, wd),
                    floor=_working_rational(al.floor, wd),
                    eta_a=nb.converter(wd)(setup.eta_a), eta_w=nb.converter(wd)(setup.eta_w),
                    zero_kernel=zero_kernel, determined=determined)  # fmt: skip
        consts = [_working_rational(v, wd) for v in (delta, delta_E, al.s, al.floor)]
    rnd = nb.round_to(dps)
    W_Nr, Br, rates = nb.rounded((W_N, B, reduced.rates), dps)
    out = AlignedWideTrajectory(
        setup=setup, dps=dps, delta=rnd(consts[0]), delta_reduced=rnd(consts[1]),
        s=rnd(consts[2]), beta_star=Br, rates=rates, h=reduced.h,
        condition=reduced.condition, w_kernel=W_Nr, loss_floor=rnd(consts[3]),
        reduced=reduced, _work=work,
    )  # fmt: skip
    if dps is None:
        _check_finite(dict(s=out.s, delta=out.delta, w_kernel=W_Nr, beta_star=Br,
                           loss_floor=out.loss_floor))  # fmt: skip
    return out
