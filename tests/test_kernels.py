"""Tests for solvable.models.kernels and numerics.kernel_sampling (seed 002, Sections 2.1, 2.3 and
Exercise 1: GP, random-feature and NTK kernels of the two-layer ReLU network).

The registered claims and errata run in tests/test_registry.py; here: values, validation,
degenerate inputs, property tests, backend agreement and the samplers."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given
from hypothesis import strategies as st

from numerics import kernel_sampling as ks
from solvable._core.backends import generate
from solvable._core.geometry import row_norms
from solvable._core.tolerance import Tolerance, error_in_units
from solvable.models import kernels as kn
from solvable.models import lazy_training
from solvable.models.kernels import corrections as kn_corrections
from solvable.models.kernels import numeric_checks as kn_numeric
from solvable.models.kernels import proofs as kn_proofs
from solvable.verification import theorems
from solvable.verification.confirmations import kernels as confirm_kn

LECTURE = kn.lecture_initialisation(3)
EXERCISE = kn.exercise_initialisation()
INITS = [LECTURE, EXERCISE]
F64 = Tolerance(rtol=1e-13, reason="float64 evaluators of O(1)-conditioned forms (kernels.py)")

norms = st.floats(0.0, 1e3, allow_nan=False, allow_infinity=False)
positive_norms = st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False)
cosines = st.floats(-1.0, 1.0, allow_nan=False)
scales = st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False)
inits = st.sampled_from(INITS)
# vector entries: 0 or |v| >= 1e-100, so that no kernel value (a product of two squared
# norms at most) underflows float64 -- an underflowed diagonal would void the bounds below
entries_ = st.floats(-10, 10, allow_nan=False).filter(lambda v: v == 0 or abs(v) >= 1e-100)
vectors = st.lists(entries_, min_size=6, max_size=6)
names = st.sampled_from(kn.KERNELS)


# ---------------------------------------------------------------------------
# records and closed forms
# ---------------------------------------------------------------------------
def test_named_initialisations():
    assert (LECTURE.a_second_moment, LECTURE.w_variance) == (sp.Rational(1, 3), sp.Rational(1, 3))
    assert (EXERCISE.a_second_moment, EXERCISE.w_variance) == (1, 1)
    assert EXERCISE.a_law == "rademacher" and LECTURE.a_law == "uniform"
    sym = kn.lecture_initialisation(kn.D)
    assert sym.w_variance == 1 / kn.D and not sym.is_numeric
    assert kn.Initialisation("0.5", 0.25).a_second_moment == sp.Rational(1, 2)
    assert kn.Initialisation(Fraction(1, 3), np.float64(2.0)).w_variance == 2


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"a_second_moment": 0, "w_variance": 1}, ValueError, "a_second_moment"),
        ({"a_second_moment": 1, "w_variance": -2}, ValueError, "w_variance"),
        ({"a_second_moment": float("nan"), "w_variance": 1}, ValueError, "a_second_moment"),
        ({"a_second_moment": 1, "w_variance": float("inf")}, ValueError, "w_variance"),
        ({"a_second_moment": True, "w_variance": 1}, TypeError, "a_second_moment"),
        ({"a_second_moment": [1], "w_variance": 1}, TypeError, "a_second_moment"),
        ({"a_second_moment": "x1", "w_variance": 1}, ValueError, "a_second_moment"),
        ({"a_second_moment": sp.Symbol("q"), "w_variance": 1}, ValueError, "a_second_moment"),
        ({"a_second_moment": 1, "w_variance": 1, "a_law": "cauchy"}, ValueError, "a_law"),
        ({"a_second_moment": 1, "w_variance": 1, "label": 3}, TypeError, "label"),
    ],
)
def test_initialisation_validation(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        kn.Initialisation(**kwargs)


BAD_D = [(0, ValueError), (-1, ValueError), (2.5, TypeError), (True, TypeError),
         (sp.Symbol("d"), ValueError)]  # fmt: skip


@pytest.mark.parametrize(("d", "exc"), BAD_D)
def test_lecture_initialisation_validation(d, exc):
    with pytest.raises(exc, match="d must be"):
        kn.lecture_initialisation(d)


def test_symbolic_values_at_special_cosines():
    assert kn.arccos_expectation(0, 0) == sp.Rational(1, 4)
    assert kn.arccos_expectation(1, 0) == 1 / (2 * sp.pi)
    assert (
        sp.simplify(kn.kernel("ntk_first_layer", EXERCISE, 1, 1, 0)) == 0
    )  # printed (4.2) gives 1/4
    assert kn.exercise_printed_ntk(0) == sp.Rational(1, 4)
    # x = (1, 0), x' = (1, 1): <x, x'> = 1, theta = pi/4
    assert sp.simplify(
        kn.kernel_of_vectors("ntk_first_layer", EXERCISE, [1, 0], [1, 1])
    ) == sp.Rational(3, 8)
    k0 = kn.kernel_of_vectors("ntk", kn.lecture_initialisation(2), [1, 0], [0, 2])
    assert sp.simplify(k0 - 2 * (1 / (2 * sp.pi)) / 2) == 0  # rho = 0: only K_RF = s^2 n n'/(2 pi)


def test_kernel_argument_validation():
    with pytest.raises(ValueError, match="name must be one of"):
        kn.kernel("NNGP")
    with pytest.raises(ValueError, match=r"name 'gp' was renamed: .* now 'nngp'"):
        kn.kernel("gp")
    with pytest.raises(ValueError, match="rho"):
        kn.kernel("rf", None, 1, 1, 2)
    with pytest.raises(ValueError, match="n1"):
        kn.kernel("rf", None, -1, 1, 0)
    with pytest.raises(TypeError, match="init"):
        kn.kernel("rf", {"a": 1})
    with pytest.raises(ValueError, match="theta"):
        kn.kernel_theta("rf", None, 1, 1, 4)
    with pytest.raises(ValueError, match="xp"):
        kn.kernel_of_vectors("rf", None, [1, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="order"):
        kn.arccos_expectation(2)


def test_zero_input_gives_zero_kernel():
    for k in kn.KERNELS:
        assert kn.kernel_of_vectors(k, LECTURE, [0, 0, 0], [1, 2, 3]) == 0
        for init in INITS:
            vals = kn.kernel_numeric(k, init, np.array([0.0, 2.0, 0.0]), np.array([1.0, 0.0, 0.0]),
                                     np.array([-1.0, 0.3, 1.0]))  # fmt: skip
            assert np.all(vals == 0)
            assert kn.kernel_numeric(k, init, 0, 1, 0.5, dps=25) == 0
    X = np.array([[1.0, 2.0, 0.0], [0.0, 0.0, 0.0], [-3.0, 1.0, 0.0]])  # LECTURE: d = 3
    for k in kn.KERNELS:
        G = kn.gram(k, LECTURE, X)
        assert np.all(G[1] == 0) and np.all(G[:, 1] == 0)
        Gm = kn.gram(k, LECTURE, X, dps=20)
        assert all(v == 0 for v in Gm[1]) and all(v == 0 for v in Gm[:, 1])
        assert torch.all(kn.gram_torch(k, LECTURE, X)[1] == 0)


@pytest.mark.parametrize("init", INITS, ids=["lecture", "exercise"])
def test_parallel_and_antiparallel_inputs(init):
    x = np.array([[0.3, -1.2, 2.0]])
    n2 = float((x**2).sum())
    # K(x, x) from the definitions integrated directly (E[relu(<w, x>)^2], ...; no closed form)
    moments = {kn.A2: init.a_second_moment, kn.S2: init.w_variance}
    direct = kn_proofs._diagonal_direct()
    expected = {k: float(direct[k].subs(moments).subs(kn.N1, sp.sqrt(n2))) for k in kn.KERNELS}
    for k in kn.KERNELS:
        same = kn.gram(k, init, x, 2.5 * x)[0, 0]  # rho = 1
        assert same == pytest.approx(2.5 * expected[k], rel=1e-14)
        opposite = kn.gram(k, init, x, -0.5 * x)[0, 0]  # rho = -1: relu(u) relu(-u) = 0
        assert abs(opposite) <= 1e-15 * expected[k]
        assert kn.kernel_numeric(k, init, 1.0, 2.0, -1.0) == pytest.approx(0, abs=1e-15)
        assert kn.kernel_numeric(k, init, 1.0, 1.0, 1.0) == pytest.approx(
            expected[k] / n2, rel=1e-15)  # fmt: skip


def test_nearly_parallel_rows_keep_precision():
    # acos of a rounded cosine would lose ~8 digits at theta ~ 1e-8; Kahan's angle does not
    x = np.array([[1.0, 0.0, 0.0], [1.0, 1e-8, 0.0], [-1.0, 1e-8, 0.0]])
    for k in kn.KERNELS:
        g64, gmp = kn.gram(k, EXERCISE, x), kn.gram(k, EXERCISE, x, dps=40)
        assert error_in_units(g64, gmp, F64) <= 1


def test_numeric_validation():
    with pytest.raises(ValueError, match="rho"):
        kn.kernel_numeric("rf", LECTURE, 1, 1, 1.5)
    with pytest.raises(ValueError, match="rho"):
        kn.kernel_numeric("rf", LECTURE, 1, 1, 1 + 1e-10)
    assert kn.kernel_numeric("rf", LECTURE, 1, 1, 1 + 4e-16) == kn.kernel_numeric(
        "rf", LECTURE, 1, 1, 1.0)  # fmt: skip  # rounding of a computed cosine is clipped
    with pytest.raises(ValueError, match="n1"):
        kn.kernel_numeric("rf", LECTURE, -1, 1, 0)
    with pytest.raises(ValueError, match="n2"):
        kn.kernel_numeric("rf", LECTURE, 1, float("nan"), 0)
    with pytest.raises(ValueError, match="dps"):
        kn.kernel_numeric("rf", LECTURE, 1, 1, 0, dps=0)
    with pytest.raises(ValueError, match="rho"):
        kn.kernel_numeric("rf", LECTURE, 1, 1, "1.01", dps=20)
    with pytest.raises(ValueError, match="init"):
        kn.kernel_numeric("rf", kn.generic_initialisation(), 1, 1, 0)
    with pytest.raises(ValueError, match="X"):
        kn.gram("rf", LECTURE, np.ones(3))
    with pytest.raises(ValueError, match="Y"):
        kn.gram("rf", LECTURE, np.ones((2, 3)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="finite"):
        kn.gram("rf", LECTURE, [[1.0, np.inf]])
    with pytest.raises(ValueError, match="rho"):
        kn.kernel_torch("rf", LECTURE, 1.0, 1.0, torch.tensor([1.5], dtype=torch.float64))


# ---------------------------------------------------------------------------
# backends
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("init", INITS, ids=["lecture", "exercise"])
@pytest.mark.parametrize("k", kn.KERNELS)
def test_float64_vs_mpmath_two_precisions(init, k):
    n1, n2, rho = kn_numeric._evaluator_points()
    f64 = kn.kernel_numeric(k, init, n1, n2, rho)
    lo = [kn.kernel_numeric(k, init, a, b, c, dps=20) for a, b, c in zip(n1, n2, rho, strict=True)]
    hi = [kn.kernel_numeric(k, init, a, b, c, dps=45) for a, b, c in zip(n1, n2, rho, strict=True)]
    assert error_in_units(lo, hi, Tolerance.digits(18, "20 vs 45 digits")) <= 1
    assert error_in_units(f64, hi, F64) <= 1
    with mpmath.workdps(45):
        assert isinstance(hi[0], mpmath.mpf)
    # exact-decimal strings mean the decimal at every precision
    assert kn.kernel_numeric(k, init, "0.1", "3", "0.7", dps=30) == pytest.approx(
        float(kn.kernel_numeric(k, init, 0.1, 3.0, 0.7)), rel=1e-14)  # fmt: skip


@pytest.mark.parametrize("init", INITS, ids=["lecture", "exercise"])
@pytest.mark.parametrize("k", kn.KERNELS)
def test_torch_evaluators_match_numpy(init, k):
    n1, n2, rho = kn_numeric._evaluator_points()
    t = kn.kernel_torch(k, init, torch.tensor(n1), torch.tensor(n2), torch.tensor(rho))
    assert t.dtype == torch.float64
    assert error_in_units(t.numpy(), kn.kernel_numeric(k, init, n1, n2, rho), F64) <= 1
    X = kn_numeric._evaluator_data()
    gt = kn.gram_torch(k, init, torch.tensor(X))
    assert error_in_units(gt.numpy(), kn.gram(k, init, X), F64) <= 1
    # two different sets of inputs (rows of X against scaled, rotated rows): K(x_i, y_j)
    Y = 1.5 * X[::-1, [1, 2, 0]][:7]
    gxy = kn.gram_torch(k, init, torch.tensor(X), torch.tensor(Y)).numpy()
    assert gxy.shape == (len(X), len(Y))
    assert error_in_units(gxy, kn.gram(k, init, X, Y), F64) <= 1
    assert error_in_units(kn.gram(k, init, X, Y), kn.gram(k, init, Y, X).T, F64) <= 1


# ---------------------------------------------------------------------------
# properties over norms and angles
# ---------------------------------------------------------------------------
@given(names, inits, positive_norms, positive_norms, cosines, scales, scales)
def test_homogeneity(k, init, n1, n2, rho, c1, c2):
    base = kn.kernel_numeric(k, init, n1, n2, rho)
    scaled = kn.kernel_numeric(k, init, c1 * n1, c2 * n2, rho)
    assert scaled == pytest.approx(c1 * c2 * base, rel=1e-12, abs=1e-300)


@given(inits, norms, norms, cosines)
def test_signs_and_decomposition(init, n1, n2, rho):
    v = {k: kn.kernel_numeric(k, init, n1, n2, rho) for k in kn.KERNELS}
    m2, _ = init.floats()
    scale = max(n1 * n2, 1e-300)
    assert v["rf"] >= -1e-15 * scale and v["nngp"] >= -1e-15 * scale
    assert v["ntk_first_layer"] * rho >= -1e-15 * scale  # sign K_NTK = sign <x, x'>
    assert v["ntk"] == pytest.approx(v["rf"] + v["ntk_first_layer"], rel=1e-14, abs=1e-15 * scale)
    assert v["nngp"] == pytest.approx(m2 * v["rf"], rel=1e-14, abs=1e-300)


@given(names, inits, vectors)
def test_gram_symmetric_and_cauchy_schwarz(k, init, entries):
    # every kernel is an expectation of products of features, hence PSD:
    # |K(x, x')| <= sqrt(K(x, x) K(x', x'))
    X = np.array(entries).reshape(2, 3)
    G = kn.gram(k, init, X)
    assert G[0, 1] == pytest.approx(G[1, 0], rel=1e-14, abs=1e-300)
    bound = math.sqrt(max(G[0, 0], 0.0) * max(G[1, 1], 0.0))
    assert abs(G[0, 1]) <= bound * (1 + 1e-12) + 1e-300


@given(names, inits, vectors)
def test_gram_matches_pointwise_cosine_form(k, init, entries):
    X = np.array(entries).reshape(2, 3)
    n = row_norms(X, "numpy")
    rho = float((X[0] / n[0]) @ (X[1] / n[1])) if n.min() > 0 else 0.0
    point = kn.kernel_numeric(k, init, n[0], n[1], np.clip(rho, -1, 1), dps=30)
    g = kn.gram(k, init, X[:1], X[1:], dps=30)[0, 0]
    # the cosine is rounded in float64 (error ~eps/(sin theta) in theta): compare loosely
    assert float(abs(point - g)) <= 1e-7 * max(n[0] * n[1], 1e-300)


# ---------------------------------------------------------------------------
# errata bookkeeping
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("erratum", kn.errata(), ids=[e.equation for e in kn.errata()])
def test_erratum_printed_false_corrected_true(erratum):
    printed, corrected = erratum.residuals()
    assert corrected == 0 and printed != 0
    assert erratum.check()


def test_fourth_cumulant_claim_catches_a_relu_second_moment_off_by_the_half_line(monkeypatch):
    """Claim ``fourth_cumulant`` checks E[relu(<w, x>)^2] = s^2 n1^2/2 (the ReLU keeps half
    the line of the Gaussian <w, x> ~ N(0, s^2 n1^2)) against the 1-D integral.  Fed the
    moment integrated over the whole line, s^2 n1^2 (a plausible bug: twice the value, so
    the residual is s^2 n1^2/2, not 0), the claim is not proved.  Only the claim's own call
    relu_moment(2, 0) is patched (the kernels' cumulants call it with ``simplify``)."""
    real = kn.relu_moment

    def wrong(k, m, *rest):
        value = real(k, m, *rest)
        return 2 * value if (k, m) == (2, 0) and not rest else value

    monkeypatch.setattr(kn_proofs, "relu_moment", wrong)
    assert sp.simplify(wrong(2, 0) - kn.S2 * kn.N1**2) == 0
    verdict = kn_proofs._fourth_cumulant()
    assert verdict.status != "proved", verdict.detail


def test_table_1_ntk_scaling_corrected_residual_catches_a_wrong_xavier_row(monkeypatch):
    """The corrected form of the "Table 1 with (2.3)" erratum is Var_Xavier f(x) = 2p|x|^2 /
    ((p+1)(p+d)) AND that it tends to 0; its residual is the difference plus the limit of
    Var_Xavier f(x).  Fed a Xavier row with the first layer scaled by fan_in alone (w ~
    Unif[+- sqrt(6/d)], a plausible bug), Var f(x) = p Var(a) Var(w) |x|^2/2 (ReLU, one axis)
    = p (2/(p+1)) (2/d) n1^2/2 = 2 p n1^2/((p+1) d), which tends to 2 n1^2/d: the residual is
    2 p n1^2/((p+1) d) - 2 p n1^2/((p+1)(p+d)) + 2 n1^2/d, not 0 (exact, sympy)."""
    import dataclasses

    real = kn.default_initialisation

    def wrong(name):
        row = real(name)
        return dataclasses.replace(row, w_bound=sp.sqrt(6 / kn.D)) if name == "xavier" else row

    monkeypatch.setattr(kn_corrections, "default_initialisation", wrong)
    try:
        corrected = kn_corrections._table_1_ntk_scaling()[1]
    except TypeError as exc:  # an operator sympy refuses on the non-zero residual
        corrected = exc
    assert isinstance(corrected, sp.Expr), f"no residual for the wrong row: {corrected!r}"
    p, d, n1 = kn.P, kn.D, kn.N1
    expected = 2 * p * n1**2 / ((p + 1) * d) - 2 * p * n1**2 / ((p + 1) * (p + d)) + 2 * n1**2 / d
    assert sp.simplify(corrected - expected) == 0
    assert sp.simplify(corrected) != 0


def test_claim_ids_and_errata_flags():
    ids = [c.id for c in theorems.select("kernels.*")]
    assert len(ids) == len(set(ids)) and all(i.startswith("kernels.") for i in ids)
    assert all(c.source.startswith(kn.SEED) for c in theorems.select("kernels.*"))
    flags = {e.equation: e.changes_math for e in kn.errata()}
    assert flags == {"(4.2)": True, "(2.29)": False, "(4.1)": False, "(4.4)": False,
                     "Table 1 (Kaiming (Pytorch) row)": False,
                     "Table 1 with (2.3) and the Epilogue": True}  # fmt: skip
    assert not set(flags) & {e.equation for e in lazy_training.errata()}


# ---------------------------------------------------------------------------
# numerics.kernel_sampling
# ---------------------------------------------------------------------------
def test_sample_parameters_shapes_laws_and_seed():
    for init, values in ((EXERCISE, {-1.0, 1.0}), (LECTURE, None)):
        p = ks.sample_parameters(init, 3, 50, 4, seed=5)
        assert p["W"].shape == (4, 50, 3) and p["a"].shape == (4, 50)
        assert p["W"].dtype == torch.float64
        if values:
            assert set(p["a"].unique().tolist()) == values
        else:
            assert float(p["a"].abs().max()) <= 1.0  # Unif[-1, 1]
        again = ks.sample_parameters(init, 3, 50, 4, seed=5)
        assert torch.equal(p["W"], again["W"]) and torch.equal(p["a"], again["a"])
    big = ks.sample_parameters(kn.Initialisation(4, 0.25, "gaussian"), 2, 4000, 2, seed=1)
    assert float((big["a"] ** 2).mean()) == pytest.approx(4, rel=0.1)  # 8000 draws: 5 sd
    assert float((big["W"] ** 2).mean()) == pytest.approx(0.25, rel=0.1)


def test_sampler_validation():
    with pytest.raises(TypeError, match="init"):
        ks.sample_parameters("lecture", 3, 4, 2)
    with pytest.raises(ValueError, match="p must"):
        ks.sample_parameters(LECTURE, 3, 0, 2)
    with pytest.raises(ValueError, match="init"):
        ks.sample_parameters(kn.generic_initialisation(), 3, 4, 2)
    with pytest.raises(ValueError, match="X"):
        ks.empirical_kernels(LECTURE, np.ones(3), 4, 2)
    with pytest.raises(ValueError, match="kernels"):
        ks.empirical_kernels(LECTURE, np.ones((2, 3)), 4, 2, kernels=("k0",))
    with pytest.raises(ValueError, match="batch"):
        ks.kernel_estimates(LECTURE, np.ones((2, 3)), 4, 1)
    with pytest.raises(ValueError, match="widths"):
        ks.width_convergence(LECTURE, np.ones((2, 3)), [8, 8], replicates=2, batch=2)
    with pytest.raises(ValueError, match="replicates"):
        ks.width_convergence(LECTURE, np.ones((2, 3)), [8, 16], replicates=1, batch=2)
    with pytest.raises(ValueError, match="kernel"):
        ks.width_convergence(LECTURE, np.ones((2, 3)), [8, 16], replicates=2, batch=2,
                             kernel="x")  # fmt: skip
    with pytest.raises(ValueError, match="device"):
        ks.sample_parameters(LECTURE, 3, 4, 2, device="tpu")


def test_autograd_blocks_match_unit_sums():
    # the autograd W block is (4.4) with the sampled weights, the a block (1/p) sum_j
    # relu relu, f f^T the GP sample; a zero input row gives zero rows
    X = np.array([[1.0, 0.5, -0.2], [0.0, 0.0, 0.0], [-0.3, 2.0, 1.0]])
    p, B = 20, 3
    emp = ks.empirical_kernels(LECTURE, X, p, B, seed=3)
    par = ks.sample_parameters(LECTURE, 3, p, B, seed=3)
    W, a = par["W"].numpy(), par["a"].numpy()
    Z = np.einsum("bpd,nd->bnp", W, X)
    ntk = (X @ X.T) * np.einsum("bp,bnp,bmp->bnm", a**2, Z > 0, Z > 0) / p
    rf = np.einsum("bnp,bmp->bnm", np.maximum(Z, 0), np.maximum(Z, 0)) / p
    f = np.einsum("bp,bnp->bn", a, np.maximum(Z, 0)) / math.sqrt(p)
    np.testing.assert_allclose(emp["ntk_first_layer"], ntk, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(emp["rf"], rf, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(emp["nngp"], f[:, :, None] * f[:, None, :], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(
        emp["ntk"], emp["rf"] + emp["ntk_first_layer"], rtol=1e-13, atol=1e-14
    )
    assert np.all(emp["ntk"][:, 1] == 0) and np.all(emp["ntk"][:, :, 1] == 0)


def test_monte_carlo_gaussian_output_weights():
    # a third law (Gaussian a) and other inputs: the MC means cover the closed forms
    init = kn.Initialisation(2, sp.Rational(1, 2), "gaussian")
    X = np.array([[1.0, 1.0], [2.0, -1.0], [0.0, 3.0]])
    est = ks.kernel_estimates(init, X, 16, 1500, seed=21)
    for k in kn.KERNELS:
        assert confirm_kn._mc_units(est[k], ks.upper(kn.gram(k, init, X))) <= 1, k
    assert est["ntk"].samples == 1500


def test_width_convergence_record():
    fit = ks.width_convergence(EXERCISE, np.array([[1.0, 0.0], [0.6, 0.8]]), [8, 32, 128],
                               replicates=3, batch=4, seed=2)  # fmt: skip
    assert fit.widths == (8, 32, 128) and len(fit.rms) == 3 and fit.slopes.shape == (3,)
    assert fit.rms[0] > fit.rms[-1] > 0
    assert fit.slope.samples == 3


@pytest.mark.slow
@pytest.mark.parametrize("name", ["monte_carlo_kernels", "monte_carlo_exercise_1",
                                  "width_convergence"])  # fmt: skip
def test_full_sweeps(name):
    claim = next(c for c in theorems.select("kernels.*") if c.id == f"kernels.{name}")
    verdict = claim.verify(full=True)
    assert verdict.status == "confirmed", verdict.detail


@functools.cache
def _kappa4_simplified():
    # the evaluator generated from the simplified moments (the form the proofs use)
    return generate((kn.C1, kn.C2, kn.N1, kn.N2, kn.THETA, kn.P),
                    kn.output_cumulant(4, LECTURE), "numpy")  # fmt: skip


@given(st.floats(-2, 2), st.floats(-2, 2), st.floats(0.1, 10), st.floats(0.1, 10),
       st.floats(0.0, math.pi), st.integers(1, 1000))  # fmt: skip
def test_kappa4_evaluator_of_gaussian_limit_is_the_simplified_cumulant(c1, c2, n1, n2, theta, p):
    # kernels.gaussian_limit's exact kappa_4 comes from the unsimplified moments
    # (relu_moment(..., simplify=False)); it must be the simplified cumulant's value.  Each
    # form is a sum of a few dozen float64 terms of size <= scale = (|c1| n1 + |c2| n2)^4 / p
    # (times O(1) moments of w), so each is within ~50 eps scale of the exact value: 1e-12
    # scale leaves a factor ~100
    fast = float(confirm_kn._kappa4_fn()(c1, c2, n1, n2, theta, float(p)))
    ref = float(_kappa4_simplified()(c1, c2, n1, n2, theta, float(p)))
    scale = (abs(c1) * n1 + abs(c2) * n2) ** 4 / p
    assert abs(fast - ref) <= 1e-12 * scale


def test_relu_moment_unsimplified_has_the_simplified_values():
    # every moment of the cumulants, at a generic angle (a wrong arc or order would show)
    at = {kn.N1: 1.3, kn.N2: 0.7, kn.THETA: 1.1, kn.S2: 0.4}
    for k, m in [(i, o - i) for o in (2, 4) for i in range(o + 1)]:
        raw = float(kn.relu_moment(k, m, simplify=False).subs(at))
        assert raw == pytest.approx(float(kn.relu_moment(k, m).subs(at)), rel=1e-13, abs=0)
    with pytest.raises(TypeError, match="simplify must be a bool, got 'no'"):
        kn.relu_moment(2, 0, "no")


def test_kernel_of_vectors_takes_1d_arrays_and_refuses_2d_ones():
    """``kernel_of_vectors`` takes a 1-d numpy array as it takes a list (the same exact
    kernel) and refuses a 2-d one naming its shape (the dimension test made ``!= 2``
    survived the seed-18 sample)."""
    as_list = kn.kernel_of_vectors("ntk_first_layer", None, [1, 2], [2, 1])
    assert (
        kn.kernel_of_vectors("ntk_first_layer", None, np.array([1, 2]), np.array([2, 1])) == as_list
    )
    with pytest.raises(ValueError, match=r"x must be one-dimensional, got shape \(1, 2\)"):
        kn.kernel_of_vectors("ntk_first_layer", None, np.array([[1, 2]]), [2, 1])


def test_positivity_claim_reads_k0_on_the_diagonal(monkeypatch):
    """The claim's last case is K_0(x, x) > 0: K_0 at n1 = n2 and cosine rho = 1 (seed-23
    survivor ``kernels/proofs.py:277``: rho = 0, K_0 of two orthogonal inputs, also > 0, so
    the claim held for the wrong statement).  A spy on ``kernel`` reads the point."""
    calls = []
    real = kn_proofs.kernel

    def spy(name, init=None, n1=kn.N1, n2=kn.N2, rho=kn.RHO):
        calls.append((name, n1, n2, rho))
        return real(name, init, n1, n2, rho)

    monkeypatch.setattr(kn_proofs, "kernel", spy)
    assert kn_proofs._positivity().status == "proved"
    k0 = [c for c in calls if c[0] == "ntk"]
    assert k0 and all(n1 == n2 and rho == 1 for _, n1, n2, rho in k0), calls
