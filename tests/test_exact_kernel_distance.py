"""The exact kernel distance ``S(0, t)`` (issue 31, item 4): the model-agnostic measures of
:mod:`solvable._core.kernel_measures` (float64 against 40 digits, against the batched torch
measures of :mod:`numerics.measures`), along every exact solution (``kernel_path``:
xu_ziyin, the kunin single neuron and wide net; ``t = 0`` exactly 0, ``t = inf``), the
single neuron's closed-form ``S(0, inf)``, the claims (and that they can fail), the
refusals, and the figure."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import numerics
import solvable
from numerics import measures
from solvable import kunin, theorems, xu_ziyin
from solvable._core import kernel_measures as km
from solvable._core import numbers as nb
from solvable.models.kunin import kernel_distance as kd
from solvable.verification import figures
from solvable.verification.confirmations import kunin as kunin_conf
from solvable.verification.confirmations import xu_ziyin as xu_conf
from solvable.verification.figures import seed_003

EPS = 2.0**-52
_X = [[1, 0], [0, 1], [0, 0]]  # X^T X = I
_Y = [1.0, 0.5, 0.3]


def _psd(rng: np.random.Generator, n: int) -> np.ndarray:
    G = rng.standard_normal((n, n))
    return G @ G.T


def _mp(K: np.ndarray) -> np.ndarray:
    return np.vectorize(mpmath.mpf, otypes=[object])(K)


def _start(delta: float, beta0: float, direction=(0.6, -0.8)) -> tuple[float, np.ndarray]:
    r = math.sqrt(delta**2 + 4 * beta0**2)
    return math.sqrt((r + delta) / 2), np.array(direction) * math.sqrt((r - delta) / 2)


# ---------------------------------------------------------------------------
# the measures: float64 against 40 digits, against numerics.measures
# ---------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5),
       eps=st.sampled_from([1e-13, 1e-8, 1e-3, 1.0]),
       scale=st.sampled_from([1e-300, 1e-30, 1.0, 1e30, 1e300]))  # fmt: skip
def test_float64_against_40_digits_and_the_torch_measure(seed, n, eps, scale):
    """The stable form keeps ``|dS| <= 8 m eps (sqrt(S) + eps)`` for ``m = n^2`` entries at
    every scale (each entry of the difference of unit kernels is right to a few eps); the
    same bound as tests/test_kernel_distance.py for the torch version, which agrees."""
    rng = np.random.default_rng(seed)
    K0 = _psd(rng, n)
    K = K0 + eps * _psd(rng, n)
    got = km.kernel_distance(scale * K0, K)
    with mpmath.workdps(40):
        want = km.kernel_distance(_mp(K0), _mp(K))
        norm = km.kernel_norm_change(_mp(K0), _mp(scale * K))
        align = km.task_alignment(_mp(K), _mp(K[0]))
    bound = 8 * n * n * EPS * (math.sqrt(float(want)) + EPS)
    assert isinstance(got, float) and abs(got - float(want)) <= bound
    assert 0 <= got <= 1 + bound  # positive semi-definite kernels: S in [0, 1]
    torch_S = float(measures.kernel_distance(torch.tensor(K)[None], torch.tensor(K0)[None])[0])
    assert abs(torch_S - float(want)) <= bound
    # the norm change: relative eps-level (a ratio of fsums); the alignment absolutely
    assert math.isclose(km.kernel_norm_change(K0, scale * K), float(norm), rel_tol=8 * EPS)
    assert abs(km.task_alignment(K, K[0]) - float(align)) <= 8 * n * EPS
    torch_align = measures.task_alignment(torch.tensor(K)[None], torch.tensor(K[0]))
    assert abs(float(torch_align[0]) - float(align)) <= 8 * n * EPS  # the same definition


def test_definition_values_and_exact_zero():
    K0 = np.array([[2.0, 1.0], [1.0, 3.0]])
    assert km.kernel_distance(K0, K0) == 0.0  # the same kernel: 0 exactly
    assert km.kernel_distance(K0, 4 * K0) == 0.0  # a rescaling (by 2^2: exact) is no change
    assert km.kernel_distance(K0, 5 * K0) <= 4 * EPS**2  # (rounded: S ~ |dK^|^2 ~ eps^2)
    assert km.kernel_distance(K0, -K0) == pytest.approx(2.0, abs=1e-15)
    assert km.kernel_norm_change(K0, 5 * K0) == pytest.approx(5.0, rel=1e-15)
    I2, off = np.eye(2), np.array([[0.0, 1.0], [1.0, 0.0]])
    assert km.kernel_distance(I2, off) == pytest.approx(1.0, abs=1e-15)  # orthogonal
    # the sympy definition, evaluated on the Frobenius products, at 40 digits
    S = km.symbolic()
    with mpmath.workdps(40):
        A, B = _mp(K0), _mp(np.array([[1.0, -0.5], [-0.5, 4.0]]))
        g = {S.g00: np.sum(A * A), S.gtt: np.sum(B * B), S.g0t: np.sum(A * B)}
        want = mpmath.mpf(str(S.distance.subs(g).evalf(45)))
        assert abs(km.kernel_distance(A, B) - want) < mpmath.mpf(10) ** -38


def test_shapes_scalar_matrix_and_multi_output():
    assert km.kernel_distance(2.0, 7.0) == 0.0  # a positive 1 x 1 kernel never turns
    assert km.task_alignment(3.0, -2.0) == pytest.approx(1.0, abs=1e-15)
    Y = np.array([[1.0, -2.0], [0.5, 0.25], [3.0, 1.0]])
    K = np.einsum("ia,jb->iajb", Y, Y)  # (n, c, n, c) proportional to vec(Y) vec(Y)^T
    assert km.task_alignment(K, Y) == pytest.approx(1.0, abs=1e-15)
    assert km.kernel_matrix("K", K).shape == (6, 6)
    assert km.task_alignment(K, Y[:, ::-1]) < 0.99  # the flattening pairs K's rows with Y


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: km.kernel_distance(np.zeros((2, 2)), np.eye(2)), "K0 is zero"),
        (lambda: km.kernel_distance(np.eye(2), np.zeros((2, 2))), "Kt is zero"),
        (lambda: km.kernel_norm_change(np.zeros((2, 2)), np.eye(2)), "K0 is zero"),
        (lambda: km.task_alignment(np.eye(2), [0.0, 0.0]), "y is zero"),
        (lambda: km.task_alignment(np.zeros((2, 2)), [1.0, 0.0]), "K is zero"),
        (lambda: km.kernel_distance(np.eye(2), np.eye(3)), "K0 and Kt must be kernels on"),
        (lambda: km.kernel_distance(np.ones((2, 3)), np.ones((2, 3))), "K0 must be a scalar"),
        (lambda: km.kernel_distance(np.ones((0, 0)), np.ones((0, 0))), "K0 must be a scalar"),
        (lambda: km.kernel_distance(np.array([[1.0, np.nan]] * 2), np.eye(2)), "K0 must be fin"),
        (lambda: km.kernel_distance(np.eye(2), np.array([[math.inf, 0]] * 2)), "Kt must be fin"),
        (lambda: km.task_alignment(np.eye(2), [1.0, 2.0, 3.0]), "y must have the shape"),
        (lambda: km.kernel_norm_change(np.eye(2) * 1e-300, np.eye(2) * 1e300), "Kt / K0"),
        (lambda: km.kernel_distance([[1.0, 2.0], [3.0]], np.eye(2)), "K0 must be an array"),
        (lambda: km.task_alignment(np.eye(2), [[1.0], 2.0]), "y must be an array"),
    ],
)
def test_refusals_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_type_refusals():
    with pytest.raises(TypeError, match=r"K0 must be a numpy array.*numerics.measures"):
        km.kernel_distance(torch.eye(2), np.eye(2))
    with pytest.raises(TypeError, match="Kt must hold real numbers"):
        km.kernel_distance(np.eye(2), np.array([[1 + 1j, 0], [0, 1]]))
    with pytest.raises(TypeError, match="K must hold real numbers"):
        km.task_alignment(np.array([["a"]], dtype=object), 1.0)
    # nonzero on one side: mpmath kernels against float64 ones (mixed) run in mpmath
    with mpmath.workdps(30):
        out = km.kernel_distance(np.eye(2), _mp(np.diag([1.0, 2.0])))
    assert isinstance(out, mpmath.mpf)


def test_norm_change_beyond_float64_is_fine_in_mpmath():
    with mpmath.workdps(20):
        big = km.kernel_norm_change(_mp(np.eye(2)) * mpmath.mpf("1e-300"),
                                    _mp(np.eye(2)) * mpmath.mpf("1e300"))  # fmt: skip
        assert abs(big / mpmath.mpf("1e600") - 1) < mpmath.mpf(10) ** -18


# ---------------------------------------------------------------------------
# along the exact solutions
# ---------------------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(delta=st.floats(-4, 4), beta0=st.floats(1e-3, 3.0), angle=st.floats(0.1, 3.0))
def test_single_neuron_path_float64_against_40_digits(delta, beta0, angle):
    """kernel_path on kunin.closed_form: float64 against dps=40, t = 0 (exactly 0) to inf;
    S in [0, 1]; the closed form S(0, inf) equals the path's limit.  Tolerance: the float64
    states carry ~1e-13 relative error (the closed form's conditioning, measured: 1e-12 in
    S ~ 1e-8 at the suite's lazy case), which moves S by that times sqrt(S); 1e-9 absolute
    plus 1e-9 relative covers it with margin."""
    setup = kunin.Setup(1, 1, _X, _Y)
    a0, w0 = _start(delta, beta0, (math.cos(angle), math.sin(angle)))
    times = [0, 0.5, 3.0, math.inf]
    kernel = kunin.neuron_kernel(setup)
    f64 = km.kernel_path(kunin.closed_form(setup, a0, w0), times, kernel=kernel)
    tr40 = kunin.closed_form(setup, a0, w0, dps=40)
    p40 = km.kernel_path(tr40, times, kernel=kernel)
    assert f64.distance[0] == 0.0 and p40.distance[0] == 0 and f64.norm_change[0] == 1.0
    assert np.all(f64.distance >= 0) and np.all(f64.distance <= 1 + 1e-15)
    for a, b in ((f64.distance, p40.distance), (f64.alignment, p40.alignment)):
        assert np.allclose(a, np.asarray(b, dtype=float), rtol=1e-9, atol=1e-9)
    assert np.allclose(f64.norm_change, np.asarray(p40.norm_change, dtype=float), rtol=1e-9)
    with mpmath.workdps(40):
        limit = kunin.limit_kernel_distance(tr40)
        assert abs(limit - p40.distance[-1]) <= mpmath.mpf(10) ** -36 * (1 + limit)
    assert math.isclose(kunin.limit_kernel_distance(kunin.closed_form(setup, a0, w0)),
                        float(limit), rel_tol=1e-9, abs_tol=1e-12)  # fmt: skip


def test_limit_closed_form_keeps_digits_in_the_lazy_regime():
    """Large delta (lazy): S(0, inf) ~ 1e-13, computed without the cancellation of
    ``1 - cos`` (float64 against 40 digits, relative)."""
    setup = kunin.Setup(1, 1, _X, _Y)
    a0, w0 = _start(1e6, 0.05)
    got = kunin.limit_kernel_distance(kunin.closed_form(setup, a0, w0))
    with mpmath.workdps(40):
        want = kunin.limit_kernel_distance(kunin.closed_form(setup, a0, w0, dps=40))
    assert 0 < float(want) < 1e-10
    assert math.isclose(got, float(want), rel_tol=1e-6)


def test_every_exact_solution_S_is_zero_at_t0_and_finite_at_inf():
    xs = xu_ziyin.Setup(1, "0.5", "0.7", ["1", "2"], "1.5")
    xt = xu_ziyin.closed_form(xs, [0.1, 0.2], [[0.1, 0.0], [0.0, 0.2]])
    p = solvable.kernel_path(xt, [0, 1, math.inf])
    assert list(p.distance) == [0, 0, 0] and list(p.alignment) == [1, 1, 1]
    assert p.norm_change[0] == 1 and math.isfinite(p.norm_change[-1]) and p.norm_change[-1] > 1
    wide = kunin.WideSetup(1, 1, [[1, 0], [0, 1], [0, 0]], [[1.0, 0.5], [0.2, 0.3], [0, 1]])
    A0, W0 = kunin.wide_start(wide, "0.5", W=[[0.1, 0.2], [-0.3, 0.05]])
    for dps in (None, 30):
        pw = km.kernel_path(kunin.wide_closed_form(wide, A0, W0, dps=dps), [0, 2, math.inf])
        assert pw.distance[0] == 0 and 0 < pw.distance[-1] <= 1
        assert all(isinstance(v, float if dps is None else mpmath.mpf) for v in pw.distance)


def test_kernel_path_refusals():
    setup = kunin.Setup(1, 1, _X, _Y)
    tr = kunin.closed_form(setup, *_start(0.5, 0.1))
    with pytest.raises(TypeError, match=r"no ntk field: pass kernel=.*neuron_kernel"):
        km.kernel_path(tr, [0, 1])
    with pytest.raises(TypeError, match="trajectory must be an exact solution"):
        km.kernel_path(object(), [0])
    with pytest.raises(TypeError, match="kernel must be a callable"):
        km.kernel_path(tr, [0], kernel=3)
    with pytest.raises(ValueError, match="times must hold at least one"):
        km.kernel_path(tr, [], kernel=kunin.neuron_kernel(setup))
    with pytest.raises(ValueError, match="times"):
        km.kernel_path(tr, [-1.0], kernel=kunin.neuron_kernel(setup))
    origin = kunin.closed_form(setup, 0, [0, 0])
    with pytest.raises(ValueError, match="trajectory starts at a zero NTK"):
        km.kernel_path(origin, [0, 1], kernel=kunin.neuron_kernel(setup))
    with pytest.raises(TypeError, match=r"setup must be a kunin.Setup"):
        kunin.neuron_kernel("no")
    # zero targets: no alignment (undefined), the rest defined
    zero = kunin.Setup(1, 1, _X, [0, 0, 0])
    pz = km.kernel_path(kunin.closed_form(zero, *_start(0.5, 0.1)), [0, 1],
                        kernel=kunin.neuron_kernel(zero))  # fmt: skip
    assert pz.alignment is None and pz.distance[0] == 0 and pz.distance[1] > 0


def test_kernel_path_given_targets_are_checked_and_used():
    wide = kunin.WideSetup(1, 1, [[1, 0], [0, 1], [0, 0]], [[1.0, 0.5], [0.2, 0.3], [0, 1]])
    tr = kunin.wide_closed_form(wide, *kunin.wide_start(wide, "0.5", W=[[0.1, 0.2], [-0.3, 0.05]]))
    own = km.kernel_path(tr, [0, 1.0])
    same = km.kernel_path(tr, [0, 1.0], y=[[1.0, 0.5], [0.2, 0.3], [0.0, 1.0]])
    other = km.kernel_path(tr, [0, 1.0], y=[[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    assert np.array_equal(own.alignment, same.alignment)
    assert not np.allclose(own.alignment, other.alignment)
    assert np.array_equal(own.distance, other.distance)  # y does not enter S
    with pytest.raises(ValueError, match="y must have the shape"):
        km.kernel_path(tr, [0], y=[1.0, 0.5, 0.2])
    with pytest.raises(TypeError, match="y must hold real numbers"):
        km.kernel_path(tr, [0], y=[["a", "b"]] * 3)
    # mpmath: xu_ziyin's S is exactly 0 as an mpf, at the trajectory's precision
    xs = xu_ziyin.Setup(1, "0.5", "0.7", ["1", "2"], "1.5")
    p = km.kernel_path(xu_ziyin.closed_form(xs, [0.1, 0.2], [[0.1, 0.0], [0.0, 0.2]], dps=30),
                       ["0", "0.5", mpmath.inf])  # fmt: skip
    assert all(isinstance(v, mpmath.mpf) and v == 0 for v in p.distance)
    assert p.times[-1] == mpmath.inf and mpmath.isfinite(p.norm_change[-1])


def test_limit_closed_form_refuses_where_the_limit_is_not_beta_star():
    zero = kunin.Setup(1, 1, _X, [0, 0, 0])  # beta* = 0
    with pytest.raises(ValueError, match="trajectory does not converge to beta\\* != 0"):
        kunin.limit_kernel_distance(kunin.closed_form(zero, *_start(0.5, 0.1)))
    saddle = kunin.Setup(1, 1, _X, _Y)  # a = 0 with w orthogonal to beta*: stays there
    with pytest.raises(ValueError, match="does not converge"):
        kunin.limit_kernel_distance(kunin.closed_form(saddle, 0, [0.5, -1.0]))
    with pytest.raises(TypeError, match=r"trajectory must be kunin.closed_form"):
        kunin.limit_kernel_distance(object())
    # both sides of the condition: just off the saddle (a0 tiny) it converges to beta*
    near = kunin.closed_form(saddle, 1e-6, [0.5, -1.0])
    got = kunin.limit_kernel_distance(near)
    path = km.kernel_path(near, [math.inf], kernel=kunin.neuron_kernel(saddle))
    assert math.isclose(got, float(path.distance[0]), rel_tol=1e-9)


# ---------------------------------------------------------------------------
# the claims: proved, confirmed against the raw flow, and able to fail
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [kd._stable_form, kd._limit_distance])
def test_symbolic_claims_are_proved(fn):
    assert fn().status == "proved"


def test_stable_form_claim_can_fail(monkeypatch):
    real = km._distance
    monkeypatch.setattr(km, "_distance", lambda a, b, **k: 2 * real(a, b, **k))
    assert kd._stable_form().status == "failed"


def test_limit_claim_can_fail(monkeypatch):
    real = kd.limit_symbolic()
    wrong = real._replace(distance=real.distance + real.t0 * real.q / 100)
    monkeypatch.setattr(kd, "limit_symbolic", lambda: wrong)
    assert kd._limit_distance().status == "failed"


def test_limit_claim_against_the_limit_state_and_can_fail(monkeypatch):
    v = kd._limit_against_limit_state()
    assert v.status == "confirmed" and v.max_error <= 1, v.detail
    assert "origin, zero_target, balanced_zero_target" in v.detail  # the refusals, by name
    real = kd.limit_kernel_distance
    monkeypatch.setattr(kd, "limit_kernel_distance", lambda tr: real(tr) * (1 + 1e-20))
    assert kd._limit_against_limit_state().status == "failed"


def test_confirmed_against_the_raw_flow_at_30_digits():
    """Measured (all cases): worst 2.5e-06 tolerances of 1e-25 (single neuron and wide net),
    numerics.measures' float64 S within 0.022 of its bound; xu_ziyin 1.5e-05 tolerances."""
    v = kunin_conf.kernel_distance_oracle(cases=["upstream", "lazy", "delayed_rich"],
                                          wide=["downstream h=d=3"])  # fmt: skip
    assert v.status == "confirmed" and v.max_error <= 1, v.detail
    v = xu_conf.kernel_distance_oracle(cases=["generic", "y_zero"])
    assert v.status == "confirmed" and v.max_error <= 1, v.detail


def test_confirmation_can_fail(monkeypatch):
    real = km.kernel_path

    def shifted(*args, **kwargs):
        p = real(*args, **kwargs)
        with mpmath.workdps(40):
            return km.KernelPath(p.times, p.distance * (1 + mpmath.mpf(10) ** -20),
                                 p.norm_change, p.alignment)  # fmt: skip

    monkeypatch.setattr(km, "kernel_path", shifted)
    v = kunin_conf.kernel_distance_oracle(cases=["upstream"], wide=[])
    assert v.status == "failed"


def test_claims_are_registered():
    ids = {t.id for t in theorems.registry()}
    assert {"kunin.kernel_distance_stable_form", "kunin.kernel_distance_limit",
            "kunin.kernel_distance_oracle", "xu_ziyin.kernel_distance_oracle"} <= ids  # fmt: skip


# ---------------------------------------------------------------------------
# the figure
# ---------------------------------------------------------------------------
def test_figure_renders_with_simulated_points_on_the_exact_surface(tmp_path):
    (fig,) = figures.select(["003-kernel-distance"])
    paths = fig.render(tmp_path)
    assert {p.suffix for p in paths} == {".png", ".svg"}
    assert all(p.stat().st_size > 10_000 for p in paths)


def test_figure_points_are_converged():
    """The simulated time KD_T stands for t = oo: the simulated S at the figure's points
    equals the closed form to 1e-9 (float64 integration, rtol 1e-13)."""
    setup = kunin.Setup(1, 1, seed_003._REG_X, seed_003._REG_Y)
    kernel = kunin.neuron_kernel(setup)
    for d, b in seed_003._KD_POINTS:
        a0, w0 = seed_003._neuron_start(d, b)
        sim = numerics.simulate(setup, a0, w0, [0.0, seed_003.KD_T], method="scipy")
        got = km.kernel_distance(kernel(sim.at(0)), kernel(sim.at(1)))
        want = kunin.limit_kernel_distance(kunin.closed_form(setup, a0, w0))
        assert abs(got - want) <= 1e-9, (d, b, got, want)


def test_short_names():
    assert solvable.kernel_distance is km.kernel_distance
    assert solvable.task_alignment is km.task_alignment
    assert nb.to_float(solvable.kernel_norm_change(1.0, 4.0)) == 4.0
