"""kunin.evaluators / kunin.wide_evaluators (issue 31): the torch functions generated from seed
003's sympy source (Part I's Riccati / Bernoulli solution, Part II's Theorem 4.2 per mode and
the echelon form) against the numpy float64 ones, on batches drawn by hypothesis across the
parameter space (delta of both signs and 0, kappa, Y, t in [0, 1e3], k of both signs), every
branch of every Piecewise hit with a value check; the torch coefficients assembled into the
weights against ``numerics.simulate``'s raw flow at 30 digits (every named case, and starts
drawn by hypothesis); float32 kept; empty batches; refusals.  The ``gpu`` test (run with ``-m
gpu`` on a CUDA machine) repeats the comparison on the device.

The bound, in units of ``eps`` times each output's scale (:data:`ULPS`): both backends run the
same generated text; ``+ - * /`` are correctly rounded on both, but torch's vectorised CPU
``exp``, ``expm1`` and ``sqrt`` (SLEEF, AVX2/AVX512) are within 1 ulp and not correctly
rounded: they differ from numpy's by 1 ulp on 1-5 % of random arguments (CUDA's double
``exp`` / ``expm1``: 1 ulp).  Every argument of an ``exp`` is computed by the same IEEE
operations on the same inputs, so it is identical on both; on any path of these formulas at
most four such calls (each 1 ulp) meet, each carried through a few correctly rounded
operations on terms of one sign (the Bernoulli normaliser ``phi_hat`` is a sum of non-negative
terms) and a final ``sqrt`` that halves the relative difference: at most about 6 eps, and 8
leaves a margin (measured worst 2.7 eps over 2 x 10^5 random points of every evaluator).  The
scale is the output's magnitude, except where the formula subtracts: ``z_a`` and ``z_1`` are
the rotation by the unit ``v_+`` of ``(c_+, c_- E^2) / sqrt(phi_hat)``, so each term is at
most ``hypot(z_a, z_1)`` (their relative difference reached 282 eps where the two terms
cancel); ``z_dev`` is ``A k_dev + B`` (``B`` its value at ``k_dev = 0``), scale ``|B| + |A
k_dev|`` (130 eps relative where they cancel).  A result below the smallest normal double has
fewer digits: the bound adds ``ULPS`` times that number (SLEEF's ``exp`` differs there by up
to 4096 subnormal units, 2e-320).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import numerics
from solvable import kunin
from solvable.models.kunin.expressions import _evaluators, _wide_evaluators

ULPS = 8  # see the module docstring: at most ~6 eps from four 1-ulp calls, measured 2.7
EPS, TINY = float(np.finfo(np.float64).eps), float(np.finfo(np.float64).tiny)
NP, TO = kunin.evaluators("numpy"), kunin.evaluators("torch")
WNP, WTO = kunin.wide_evaluators("numpy"), kunin.wide_evaluators("torch")

Calls = dict[str, tuple[Any, ...]]


# ---------------------------------------------------------------------------
# the arguments of every evaluator, from columns of parameters
# ---------------------------------------------------------------------------
def _unit_v(delta: np.ndarray, kappa: np.ndarray, Y: np.ndarray, Om: np.ndarray) -> Any:
    """The unit eigenvector ``v_+`` from the package's two branches; ``(1, 0)`` where ``G``'s
    block is 0 (``delta = Y = 0``: every vector is an eigenvector)."""
    v = np.where(delta >= 0, NP["v_pos"](delta, kappa, Y, Om), NP["v_neg"](delta, kappa, Y, Om))
    norm = np.hypot(v[0], v[1])
    safe = np.where(norm > 0, norm, 1.0)
    return np.where(norm > 0, v[0] / safe, 1.0), np.where(norm > 0, v[1] / safe, 0.0)


def single_calls(cols: np.ndarray) -> Calls:
    """The numpy arguments of every single-neuron evaluator from the 16 columns ``delta'``,
    ``kappa``, ``Y``, ``t``, ``c_plus``, ``c_minus``, ``c_perp``, ``k_dev``, ``eta_a``,
    ``eta_w``, ``s``, ``D_1``, ``u_2``, ``root_s``, ``c_n``, ``L_min``; ``Omega`` and the
    unit ``v_+`` from the package's numpy evaluators."""
    delta, kappa, Y, t, cp, cm, cperp, kdev, eta_a, eta_w, s, *loss = cols
    Om = NP["Omega"](delta, kappa, Y)
    vx, vy = _unit_v(delta, kappa, Y, Om)
    targs = (delta, kappa, Y, Om, cp, cm, cperp, vx, vy, t)
    return {
        "Omega": (delta, kappa, Y),
        "primed": (eta_a, eta_w, s, delta),
        "v_pos": (delta, kappa, Y, Om),
        "v_neg": (delta, kappa, Y, Om),
        "coeffs": targs,
        "limits": (delta, kappa, Om, cp, cperp, vx, vy),
        "deviation": (*targs, kdev),
        "deviation_limit": (kappa, Y, Om, cp),
        "loss_deviation": tuple(loss),
    }


def wide_calls(cols: np.ndarray) -> Calls:
    """The numpy arguments of every wide evaluator from the columns ``k``, ``q - k >= 0``,
    ``t``, ``kappa``."""
    k, dq, t, kappa = cols
    return {"plus": (k, t), "minus": (k, t), "p_inf": (k, kappa), "u_plus": (k, t),
            "echelon": (k, k + dq, t)}  # fmt: skip


def _outputs(value: Any) -> list[Any]:
    return list(value) if isinstance(value, tuple) else [value]


def _scales(name: str, args: tuple[Any, ...], outs: list[np.ndarray]) -> list[np.ndarray]:
    """Each output's scale (see the module docstring): its magnitude, ``hypot(z_a, z_1)``
    for ``z_a`` and ``z_1``, ``|B| + |A k_dev|`` for ``z_dev``."""
    if name == "coeffs":
        plane = np.hypot(outs[0], outs[1])
        return [plane, plane, np.abs(outs[2])]
    if name == "deviation":
        B = NP["deviation"](*args[:-1], np.zeros_like(args[-1]))
        return [np.abs(B) + np.abs(outs[0] - B)]
    return [np.abs(o) for o in outs]


# ---------------------------------------------------------------------------
# the comparison
# ---------------------------------------------------------------------------
def _agree(name: str, got: Any, want: np.ndarray, scale: np.ndarray, ulps: float = ULPS,
           eps: float = EPS, tiny: float = TINY) -> float:  # fmt: skip
    """``got`` (a tensor) equals ``want`` where either is not finite, and is within ``ulps``
    eps of ``scale`` (plus ``ulps`` of the smallest normal) elsewhere; returns the worst
    ``|got - want| / (eps scale + tiny)``."""
    g = got.detach().cpu().to(torch.float64).numpy()
    w = np.broadcast_to(np.asarray(want, dtype=np.float64), g.shape)
    s = np.broadcast_to(scale, g.shape)
    finite = np.isfinite(g) & np.isfinite(w)
    assert np.array_equal(np.isnan(g), np.isnan(w)), f"{name}: nan where the other is not"
    other = ~finite & ~np.isnan(w)
    assert np.array_equal(g[other], w[other]), f"{name}: {g[other]} vs {w[other]}"
    err = np.abs(g - w)[finite]
    allowed = ulps * (eps * s[finite] + tiny)
    worst = int(np.argmax(err - allowed)) if err.size else 0
    assert np.all(err <= allowed), (
        f"{name}: |torch - numpy| = {err[worst]:.3g} > {allowed[worst]:.3g} "
        f"(torch {g[finite][worst]!r}, numpy {w[finite][worst]!r})"
    )
    return float(np.max(err / (eps * s[finite] + tiny), initial=0.0))


def check_against_numpy(torch_ev: Any, numpy_ev: Any, calls: Calls,
                        device: str = "cpu") -> dict[str, float]:  # fmt: skip
    """Every torch evaluator (float64 tensors on ``device``) against numpy's on ``calls``:
    dtype, device and shape kept, the values within :data:`ULPS`; returns each output's worst
    difference in eps of its scale."""
    assert set(calls) == set(torch_ev) == set(numpy_ev)  # every evaluator is compared
    worst: dict[str, float] = {}
    for name, args in calls.items():
        want = _outputs(numpy_ev[name](*args))
        got = _outputs(torch_ev[name](*(torch.tensor(a, device=device) for a in args)))
        assert len(got) == len(want)
        shape = np.broadcast_shapes(*(np.shape(a) for a in args))
        for g in got:
            assert g.dtype == torch.float64 and g.device.type == device and g.shape == shape
        for i, (g, w, s) in enumerate(zip(got, want, _scales(name, args, want), strict=True)):
            worst[f"{name}[{i}]"] = _agree(f"{name}[{i}]", g, w, s)
    return worst


# ---------------------------------------------------------------------------
# hypothesis: the whole parameter space, float64 on the CPU
# ---------------------------------------------------------------------------
DELTA = st.one_of(st.just(0.0), st.floats(-1e3, 1e3))
POSITIVE = st.floats(1e-3, 1e3)
NONNEG = st.one_of(st.just(0.0), st.floats(0.0, 1e3))
REAL = st.one_of(st.just(0.0), st.floats(-1e3, 1e3))
TIME = st.one_of(st.just(0.0), st.floats(0.0, 1e3))
SINGLE = st.tuples(DELTA, POSITIVE, NONNEG, TIME, REAL, REAL, NONNEG, REAL, POSITIVE, POSITIVE,
                   POSITIVE, REAL, REAL, NONNEG, NONNEG, NONNEG)  # fmt: skip
RATE = st.one_of(st.just(0.0), st.floats(-10.0, 10.0))
WIDE = st.tuples(RATE, st.one_of(st.just(0.0), st.floats(0.0, 10.0)), TIME, POSITIVE)


@given(st.lists(SINGLE, min_size=1, max_size=16))
def test_single_neuron_torch_matches_numpy(points):
    check_against_numpy(TO, NP, single_calls(np.array(points).T))


@given(st.lists(WIDE, min_size=1, max_size=16))
def test_wide_torch_matches_numpy(points):
    check_against_numpy(WTO, WNP, wide_calls(np.array(points).T))


# ---------------------------------------------------------------------------
# every branch, by construction
# ---------------------------------------------------------------------------
BRANCH_POINTS = [  # delta', kappa, Y, t, c_+, c_-, c_perp, k_dev, then 8 columns of the rest
    # delta' > 0, = 0, < 0 (v_pos / v_neg, om_plus's two branches, the c_perp term's two)
    (1.5, 0.8, 0.6, 2.0, 0.7, -0.2, 0.3, 0.1, 1.0, 0.5, 2.0, 0.3, -0.1, 1.0, 0.2, 0.05),
    (0.0, 0.8, 0.6, 2.0, -0.7, 0.2, 0.3, -0.1, 2.0, 0.5, 1.0, -0.3, 0.1, 2.0, 0.0, 0.0),
    (-1.5, 0.8, 0.6, 2.0, 0.7, 0.2, 0.3, 0.1, 0.5, 2.0, 4.0, 0.0, 0.0, 0.5, 0.3, 1.0),
    # limits: c_+ = 0 on a downstream start with c_perp > 0 (the rest point); c_perp = 0
    (-1.5, 0.8, 0.6, 3.0, 0.0, 0.4, 0.3, 0.2, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    (-1.5, 0.8, 0.6, 3.0, 0.0, 0.4, 0.0, 0.2, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    # Omega = 0 (delta' = Y = 0: the saddle's branch), Y = 0 downstream (om_plus = 0), t = 0
    (0.0, 0.8, 0.0, 1.0, 0.5, 0.5, 0.3, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    (-2.0, 0.8, 0.0, 1.0, 0.5, 0.5, 0.3, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    (0.5, 0.8, 0.6, 0.0, 0.5, 0.5, 0.3, 0.1, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
    # t large: every decaying term underflows
    (0.5, 0.8, 0.6, 1e3, 0.5, 0.5, 0.3, 0.1, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
]  # fmt: skip
WIDE_BRANCH_POINTS = [  # k, q - k, t, kappa: k > 0, = 0, < 0; q = k; t = 0; overflow of e^{kt}
    (0.7, 0.3, 2.0, 0.8), (0.0, 0.5, 2.0, 1.5), (-0.7, 0.0, 2.0, 0.8), (0.7, 0.0, 2.0, 0.8),
    (0.7, 0.3, 0.0, 0.8), (-0.7, 1.0, 0.0, 2.0), (10.0, 0.0, 1e3, 0.8), (-10.0, 5.0, 1e3, 0.8),
]  # fmt: skip


def test_every_branch_is_taken_and_agrees():
    cols = np.array(BRANCH_POINTS).T
    calls = single_calls(cols)
    delta, _kappa, Om, cp, cperp = (calls["limits"][i] for i in range(5))
    # the branches, taken (decided from the inputs, not from either backend's values)
    assert {np.sign(d) for d in delta} == {-1.0, 0.0, 1.0}
    fixed_point = (cp != 0) & (Om > 0)
    rest = (cp == 0) & (delta < 0) & (cperp > 0)
    assert fixed_point.any() and rest.any() and (~fixed_point & ~rest).any()
    assert (Om == 0).any()
    check_against_numpy(TO, NP, calls)
    wide = np.array(WIDE_BRANCH_POINTS).T
    assert {np.sign(k) for k in wide[0]} == {-1.0, 0.0, 1.0}
    check_against_numpy(WTO, WNP, wide_calls(wide))


def test_limits_branches_values():
    """Each branch of ``limits`` / ``deviation_limit`` on torch gives its own value (seed
    003, Part I: the rich / lazy end points): the fixed point's ``|z|^2 = 2 Omega / kappa^2``,
    the rest point's ``z_perp^2 c_perp^2 = |delta| / kappa^2`` (``|w|^2 = |delta| / eta_a``),
    the saddle's 0, and ``z_dev = z_a z_1 - Y/kappa`` on each, read from the torch outputs."""
    calls = single_calls(np.array(BRANCH_POINTS).T)
    delta, kappa, Om, cp, cperp = (torch.tensor(calls["limits"][i]) for i in range(5))
    za, z1, zp = TO["limits"](*(torch.tensor(a) for a in calls["limits"]))
    dev = TO["deviation_limit"](*(torch.tensor(a) for a in calls["deviation_limit"]))
    fixed = (cp != 0) & (Om > 0)
    rest = (cp == 0) & (delta < 0) & (cperp > 0)
    torch.testing.assert_close((za**2 + z1**2)[fixed], (2 * Om / kappa**2)[fixed],
                               rtol=4 * EPS, atol=0)  # fmt: skip
    torch.testing.assert_close((zp * cperp)[rest] ** 2, (-delta / kappa**2)[rest],
                               rtol=4 * EPS, atol=0)  # fmt: skip
    assert torch.all(za[~fixed] == 0) and torch.all(z1[~fixed] == 0)
    assert torch.all(zp[~rest] == 0)
    # z_dev(oo) = z_a(oo) z_1(oo) - Y/kappa: 0 at the fixed point (to rounding), -Y/kappa else
    assert torch.all(dev[fixed] == 0)
    Y = torch.tensor(calls["deviation_limit"][1])
    torch.testing.assert_close(
        dev, za * z1 - Y / kappa, rtol=0, atol=8 * EPS * float((Y / kappa).max())
    )


# ---------------------------------------------------------------------------
# against the raw flow: the torch coefficients are the weights of numerics.simulate at 30 digits
# ---------------------------------------------------------------------------
RAW_ULPS = 16  # normwise, in eps of the largest |a| (|w|) over the times, plus the growth
# below: the trajectory's float64 constants (sqrt(eta'), beta*-hat, c_perp's vector, the
# coefficients' arguments) are each within a few eps, torch's z_a, z_1, z_perp within ULPS = 8
# eps of their scale, and one product and one sum follow: 16 (measured worst 1.8 eps over
# kunin.CASES).  The evaluators take Omega rounded to float64 (relative error <= 2 eps: a
# sqrt of a sum of products) and the exponents -2 Omega t, -2 om_plus t (om_plus <= 2 Omega)
# carry it: e^{-2 Omega t} is off by up to 4 Omega t eps, e^{-2 om_plus t} by 8 Omega t eps
# (the closed form's own float64 sample avoids that; these functions' arguments are floats).
# RAW_GROWTH: that 8 Omega t_max, added (measured: 21.9 eps at Omega t = 25, a start 1e-14
# from the saddle growing to 5e-4)
RAW_GROWTH = 8
RAW_TIMES = [0.0, 0.25, 1.0, 4.0, 16.0]


def _torch_weights(traj: Any) -> tuple[np.ndarray, np.ndarray]:
    """``a(t)``, ``w(t)`` at :data:`RAW_TIMES` from the torch ``coeffs`` evaluated at the
    float64 trajectory's constants (its private ``_data``: the coefficients' arguments), by
    the coordinates' definition ``z = (a/sqrt(eta_a'), w/sqrt(eta_w'))``, ``w = sqrt(eta_w')
    (z_1 beta*-hat + z_perp c_perp)``."""
    k = traj._data
    names = ("delta_p", "kappa", "Y", "Omega", "c_plus", "c_minus", "cperp", "vx", "vy")
    t = torch.tensor(RAW_TIMES, dtype=torch.float64)  # (float64: the numbers take its dtype)
    za, z1, zp = (z.numpy() for z in TO["coeffs"](*(float(k[n]) for n in names), t))
    sw = float(k["sw"])
    bhat, cvec = (np.asarray(k[n], dtype=float) for n in ("bhat", "cperp_vec"))
    return float(k["sa"]) * za, np.outer(sw * z1, bhat) + np.outer(sw * zp, cvec)


def _normwise(got: np.ndarray, exact: Any) -> float:
    """``max |got - exact| / max |exact|`` in eps (``exact``: the mpf of the flow, at 40
    digits; 0 where both are 0)."""
    with mpmath.workdps(40):
        ref = [mpmath.mpf(v) for v in np.ravel(np.asarray(exact, dtype=object))]
        err = max(abs(mpmath.mpf(float(g)) - r) for g, r in zip(np.ravel(got), ref, strict=True))
        scale = max(abs(r) for r in ref)
        return 0.0 if err == 0 else float(err / scale) / EPS


def _check_raw_flow(setup: Any, a0: Any, w0: Any) -> float:
    """The torch weights against the raw flow at 30 digits; returns the worst error in eps,
    divided by the allowance (pass: <= 1)."""
    traj = kunin.closed_form(setup, a0, w0)
    a, w = _torch_weights(traj)
    sim = numerics.simulate(setup, a0, w0, RAW_TIMES, method="mpmath", dps=30)
    worst = max(_normwise(a, sim.a), _normwise(w, sim.w))
    allowed = RAW_ULPS + RAW_GROWTH * float(traj._data["Omega"]) * max(RAW_TIMES)
    assert worst <= allowed, f"{worst:.3g} eps of the raw flow > {allowed:.3g}"
    return worst / allowed


@pytest.mark.parametrize("case", kunin.CASES, ids=lambda c: c.name)
def test_torch_coefficients_are_the_raw_flow(case):
    _check_raw_flow(case.setup, case.a0, case.w0)


@given(st.sampled_from([c.setup for c in kunin.CASES]), st.floats(-2.0, 2.0),
       st.lists(st.floats(-2.0, 2.0), min_size=8, max_size=8))  # fmt: skip
def test_torch_coefficients_are_the_raw_flow_from_any_start(setup, a0, w0):
    d = np.shape(setup.X)[1]
    _check_raw_flow(setup, a0, w0[:d])


# ---------------------------------------------------------------------------
# dtypes, devices, numbers, empty batches
# ---------------------------------------------------------------------------
F32_ULPS = 16  # float32 inputs of modest size: every exp argument |x| <= 2 Omega t <= 8
# here, rounded to float32 (relative eps32) before the exp, so the exp's relative error grows
# to |x| eps32 <= 8 eps32, with the 8 eps of ULPS's analysis: 16 eps32 (measured worst 1.0)
MODERATE = np.array([  # delta', kappa, Y, t, c_+, c_-, c_perp, k_dev, eta_a, eta_w, s, ...
    (1.5, 0.8, 0.6, 2.0, 0.7, -0.2, 0.3, 0.1, 1.0, 0.5, 2.0, 0.3, -0.1, 1.0, 0.2, 0.05),
    (0.0, 1.2, 0.4, 1.0, -0.7, 0.2, 0.3, -0.1, 2.0, 0.5, 1.0, -0.3, 0.1, 2.0, 0.0, 0.0),
    (-1.5, 0.8, 0.6, 1.5, 0.7, 0.2, 0.3, 0.1, 0.5, 2.0, 4.0, 0.0, 0.0, 0.5, 0.3, 1.0),
    (-0.5, 0.8, 0.6, 0.5, 0.0, 0.4, 0.3, 0.2, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
]).T  # fmt: skip
WIDE_MODERATE = np.array([(0.7, 0.3, 2.0, 0.8), (0.0, 0.5, 2.0, 1.5), (-0.7, 0.0, 2.0, 0.8),
                          (-0.3, 1.0, 1.0, 2.0)]).T  # fmt: skip


@pytest.mark.parametrize("which", ["single", "wide"])
def test_float32_is_kept(which):
    cols = (MODERATE if which == "single" else WIDE_MODERATE).astype(np.float32)
    calls = (single_calls if which == "single" else wide_calls)(cols.astype(np.float64))
    torch_ev, numpy_ev = (TO, NP) if which == "single" else (WTO, WNP)
    eps32 = float(np.finfo(np.float32).eps)
    for name, args in calls.items():
        args32 = [np.asarray(a, dtype=np.float32) for a in args]
        # numpy at the float32 inputs, exactly (float32 -> float64 is exact)
        want = _outputs(numpy_ev[name](*(a.astype(np.float64) for a in args32)))
        got = _outputs(torch_ev[name](*(torch.from_numpy(a) for a in args32)))
        for i, (g, w, s) in enumerate(zip(got, want, _scales(name, args, want), strict=True)):
            assert g.dtype == torch.float32, f"{name}: {g.dtype}"
            _agree(f"{name}[{i}]", g, w, s, ulps=F32_ULPS, eps=eps32,
                   tiny=float(np.finfo(np.float32).tiny))  # fmt: skip


def test_numbers_become_tensors_of_the_tensors_dtype():
    # numbers alone: float64 0-d tensors, the values of numpy's evaluator at the same numbers
    got = TO["Omega"](-1.5, 0.8, 0.6)
    assert got.dtype == torch.float64 and got.shape == ()
    _agree("Omega", got, NP["Omega"](-1.5, 0.8, 0.6), abs(NP["Omega"](-1.5, 0.8, 0.6)))
    # numbers with a float32 tensor: float32, broadcast
    got = WTO["echelon"](torch.tensor([0.5, -0.5], dtype=torch.float32), 1, np.float64(2.0))
    assert all(g.dtype == torch.float32 and g.shape == (2,) for g in got)


def test_empty_batches():
    for torch_ev, cols in ((TO, MODERATE), (WTO, WIDE_MODERATE)):
        calls = (single_calls if torch_ev is TO else wide_calls)(cols[:, :0])
        for name, args in calls.items():
            for g in _outputs(torch_ev[name](*(torch.tensor(a) for a in args))):
                assert g.shape == (0,) and g.dtype == torch.float64, name


def test_numpy_and_mpmath_are_the_closed_forms_own_functions():
    """The public numpy / mpmath mappings hold the very functions the closed forms call
    (their numbers unchanged; those of t checked first), read-only."""
    for backend in ("numpy", "mpmath"):
        for public, private in ((kunin.evaluators, _evaluators),
                                (kunin.wide_evaluators, _wide_evaluators)):  # fmt: skip
            ev = public(backend)
            assert set(ev) == set(private(backend))
            for name, fn in ev.items():
                assert getattr(fn, "__wrapped__", fn) is private(backend)[name]
            with pytest.raises(TypeError):
                ev["Omega"] = None  # type: ignore[index]


# ---------------------------------------------------------------------------
# refusals
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("public", [kunin.evaluators, kunin.wide_evaluators])
@pytest.mark.parametrize("backend", ["jax", "", None, 3, ["torch"], "Torch"])
def test_bad_backend_is_refused(public, backend):
    with pytest.raises(ValueError, match=r"backend must be one of \('numpy', 'mpmath', 'torch'\)"):
        public(backend)


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: TO["Omega"](torch.tensor([1, 2]), 0.8, 0.6), TypeError,
         r"delta must be a floating tensor .* torch\.int64"),
        (lambda: TO["Omega"](torch.tensor([True]), 0.8, 0.6), TypeError, r"delta .* torch\.bool"),
        (lambda: TO["Omega"](0.5, torch.tensor([1j]), 0.6), TypeError,
         r"kappa must be a floating tensor .* torch\.complex64"),
        (lambda: TO["Omega"](0.5, 0.8, "0.6"), TypeError, r"Y must be .* got str"),
        (lambda: TO["Omega"](0.5, 0.8, None), TypeError, r"Y must be .* got NoneType"),
        (lambda: TO["Omega"](0.5, 0.8, True), TypeError, r"Y must be .* got bool"),
        (lambda: TO["Omega"](0.5, 0.8, np.array([0.6])), TypeError, r"Y must be .* ndarray"),
        (lambda: TO["Omega"](0.5, 0.8), TypeError, r"takes 3 arguments \('delta', 'kappa', 'Y'\)"),
        (lambda: TO["Omega"](0.5, 0.8, 0.6, 0.1), TypeError, r"takes 3 arguments .* got 4"),
        (lambda: TO["Omega"](10**400, 0.8, 0.6), ValueError, r"delta must be within the range"),
        (lambda: TO["Omega"](torch.ones(2), torch.ones(2, device="meta"), 0.6), ValueError,
         r"kappa is on meta, the tensors before it on cpu"),
        (lambda: WTO["p_inf"](torch.tensor([1.0], dtype=torch.float32), 1e300), ValueError,
         r"kappa must be within the range of torch\.float32"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_by_name(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("backend", ["numpy", "mpmath", "torch"])
@pytest.mark.parametrize("t", [float("inf"), float("nan"), -1.0, -1e-300])
def test_times_without_a_value_are_refused(backend, t):
    """Where the formula has no value (t = oo: ``t exprel(-2 k t)`` is ``oo * 0``) or t < 0:
    a ValueError naming t and the functions of t = oo, on every backend, as a number and
    inside a batch; never a NaN."""
    ev, wev = kunin.evaluators(backend), kunin.wide_evaluators(backend)
    batch = {"numpy": lambda v: np.array([1.0, v]),
             "mpmath": lambda v: np.array([mpmath.mpf(1), mpmath.mpf(v)], dtype=object),
             "torch": lambda v: torch.tensor([1.0, v], dtype=torch.float64)}[backend]  # fmt: skip
    one = mpmath.mpf(1) if backend == "mpmath" else 1.0
    calls = single_calls(MODERATE[:, :1])
    for value in (t, batch(t)):
        for fn, args in (
            (wev["plus"], (0.5, value)), (wev["minus"], (-0.5, value)),
            (wev["echelon"], (-0.5, 0.5, value)),
            (ev["coeffs"], (*(a[0] for a in calls["coeffs"][:-1]), value)),
            (ev["deviation"], (*(a[0] for a in calls["coeffs"][:-1]), value, one)),
        ):  # fmt: skip
            with pytest.raises(ValueError, match=r"t must be finite and >= 0: at t = oo use "
                                                 r"limits"):  # fmt: skip
                fn(*args)


def test_u_plus_at_infinity_is_its_limit():
    # u_plus = e^{-2 k t} (k > 0) or 1: its value at t = oo is the limit, so t = oo passes
    k = np.array([0.5, 0.0, -0.5])
    want = WNP["u_plus"](k, np.inf)
    assert np.array_equal(want, [0.0, 1.0, 1.0])
    assert np.array_equal(WTO["u_plus"](torch.tensor(k), float("inf")).numpy(), want)


# ---------------------------------------------------------------------------
# GPU (run with -m gpu on a CUDA machine)
# ---------------------------------------------------------------------------
def _random_columns(rng: np.random.Generator, n: int, which: str) -> np.ndarray:
    """``n`` points spread over the parameter space (log-uniform magnitudes, both signs and
    exact zeros), deterministic for a seed."""

    def mag(lo: float, hi: float) -> np.ndarray:
        return 10 ** rng.uniform(lo, hi, n)

    def signed(lo: float, hi: float) -> np.ndarray:
        out = rng.choice([-1.0, 1.0], n) * mag(lo, hi)
        out[::7] = 0.0
        return out

    t = np.where(rng.random(n) < 0.5, rng.uniform(0, 1e3, n), mag(-6, 1))
    t[::11] = 0.0
    if which == "wide":
        return np.array([signed(-6, 1), np.abs(signed(-6, 1)), t, mag(-3, 3)])
    Y = mag(-4, 3)
    Y[::13] = 0.0
    cperp = np.abs(signed(-3, 1))
    return np.array([signed(-6, 3), mag(-3, 3), Y, t, signed(-3, 1), signed(-3, 1), cperp,
                     signed(-3, 1), mag(-3, 3), mag(-3, 3), mag(-3, 3), signed(-3, 1),
                     signed(-3, 1), mag(-3, 1), mag(-3, 1), mag(-3, 1)])  # fmt: skip


def _compare_on(device: str, n: int = 20000) -> dict[str, float]:
    rng = np.random.default_rng(31)
    single = check_against_numpy(TO, NP, single_calls(_random_columns(rng, n, "single")), device)
    return {**single, **check_against_numpy(WTO, WNP, wide_calls(_random_columns(rng, n, "wide")),
                                            device)}  # fmt: skip


def test_random_batch_on_cpu():
    _compare_on("cpu")


@pytest.mark.gpu
def test_gpu_evaluators_match_numpy():
    assert torch.cuda.is_available(), "the gpu marker needs CUDA"
    _compare_on("cuda")


if __name__ == "__main__":  # the measured worst of each output (the module docstring's figure)
    import sys

    dev = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    for key, units in _compare_on(dev, 200000).items():
        print(f"{key:22s} {units:5.2f} eps of its scale")
