"""Details of the experiment drivers (numerics.node_scaling_experiment, numerics.ntg_sampling)
pinned by survivors of the seed-2 mutation run: each test checks a documented property
against an independent computation (exact partial sums, the stated uniform law)."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest

from numerics import alpha_scaling as al
from numerics import node_scaling_experiment as ex
from numerics import node_scaling_gd as gd
from numerics import ntg_sampling
from numerics.node_scaling_experiment import figure_2 as ex_figure_2
from solvable.models import node_scaling as ns

# both drivers run torch: imported here, at collection, not inside the first test's time
torch = pytest.importorskip("torch")

# three inputs in the unit ball of R^2 (n = 3, d = 2); any rows would do
_X = np.array([[1.0, 0.0], [0.6, 0.8], [-0.5, 0.25]])


def _gram_frobenius(X: np.ndarray) -> float:
    """``||X X^T / d||_F``, summed exactly (math.fsum) from the entries."""
    d = X.shape[1]
    entries = [math.fsum(X[i] * X[j]) / d for i in range(len(X)) for j in range(len(X))]
    return math.sqrt(math.fsum(e * e for e in entries))


@pytest.mark.parametrize(
    ("weights", "gamma", "tail_nodes"),
    [(ns.finite_k(3), 0.5, 2), (ns.zipf(0.5), 0.25, 4), (ns.zipf(0.5), 0.0, 7)],
    ids=["finite_k3_M2", "zipf_half_M4", "zipf_half_M7_gamma0"],
)
def test_nested_widths_tail_bound_is_the_truncated_weight_mass(weights, gamma, tail_nodes):
    """``tail_bound = (1 - gamma) (1 - S_M) sup|sigma'|^2 ||X X^T/d||_F`` (the docstring of
    nested_widths; relu: sup|sigma'| = 1), ``S_M`` the exact partial sum of the weights
    (finite K: ``min(M, K)/K``; Zipf: ``H_M(s)/zeta(s)``).  Written against
    numerics/ntg_sampling.py:207:core/ReplaceBinaryOperator_Sub_Div:12 (``1 - S`` -> ``1 / S``)."""
    r = ntg_sampling.nested_widths(_X, "relu", gamma, weights, [1, 2], tail_nodes=tail_nodes)
    S = float(weights.partial_sum(tail_nodes).evalf(30))  # sympy's exact closed form
    want = (1 - gamma) * (1 - S) * _gram_frobenius(_X)
    # the code sums M float64 weights (a few ulps of 1) and 1 - S >= 0.08 here, so its
    # relative rounding is below 1e-14: 1e-12 is far above that and far below any other
    # formula's difference (1/S instead of 1 - S is off by a factor >= 7)
    assert r.tail_bound == pytest.approx(want, rel=1e-12, abs=0)


def test_nested_widths_tail_bound_vanishes_once_every_finite_k_weight_is_drawn():
    """Finite-K weights are 0 beyond node K: with ``tail_nodes >= K`` the truncated
    ``Theta_inf`` is the whole sum (``S_M = 1``), so nothing can move it and the bound is 0
    (to the rounding of summing the float64 weights).  Written against
    numerics/ntg_sampling.py:207:core/ReplaceBinaryOperator_Sub_Div:12."""
    for M in (3, 16):
        r = ntg_sampling.nested_widths(_X, "relu", 0.5, ns.finite_k(3), [1, 3], tail_nodes=M)
        # 1 - S is 0 or a few ulps of 1 (three weights 1/3 in float64): at most 4e-16 of
        # the norm (0.5 * 4 eps), where any formula without the 1 - S factor gives ~0.5
        assert 0.0 <= r.tail_bound <= 4e-16 * _gram_frobenius(_X), (M, r.tail_bound)


def test_pytorch_default_initialisation_is_uniform_in_plus_minus_one_over_root_fan_in():
    """``nn.Linear``'s default initialisation (the docstring of ``_pytorch_default``):
    ``W ~ U(-1/sqrt(d), 1/sqrt(d))`` (fan_in d) and ``a ~ U(-1/sqrt(m), 1/sqrt(m))`` (fan_in
    m).  Checked on 2000 x 3 and 2000 draws: every entry inside its bound, both signs
    present, and the second moment of ``sqrt(fan_in) x`` is that of U(-1, 1), 1/3.  Written
    against numerics/node_scaling_experiment.py:738:core/ReplaceBinaryOperator_Div_Mod:20
    (``/ sqrt(m)`` -> ``% sqrt(m)`` for ``a``)."""
    m, d = 2000, 3
    p = ex_figure_2._pytorch_default(m, d, 7919, "cpu")
    assert tuple(p["W"].shape) == (1, m, d) and tuple(p["a"].shape) == (1, m)
    for name, fan_in in (("W", d), ("a", m)):
        x = p[name].numpy().ravel()
        bound = 1 / math.sqrt(fan_in)
        assert np.all(np.abs(x) <= bound), name
        assert (x < 0).any() and (x > 0).any(), name
        u = x * math.sqrt(fan_in)  # U(-1, 1): E u^2 = 1/3, Var u^2 = 1/5 - 1/9 = 4/45
        # standard error of the mean of u^2 over >= 2000 draws: sqrt(4/45/2000) = 6.7e-3;
        # 0.04 is 6 of them (a fixed seed: deterministic; a wrong law is off by >= 0.3)
        assert abs(float(np.mean(u**2)) - 1 / 3) < 0.04, name


def test_single_relu_repeats_start_from_independent_initialisations(monkeypatch):
    """Section 8.1.2: "All experiments are repeated 5 times" (each repeat a new run: the
    data resampled, and a new draw of the network), so no two repeats of a setting may
    start gradient descent from the same weights.  The initial parameters handed to
    ``gradient_descent`` are recorded per repeat and setting.  Written against
    numerics/node_scaling_experiment.py:823:core/ReplaceBinaryOperator_Add_BitAnd:13
    (seeds ``rep * 100 + k`` -> ``rep * 100 & k``: repeats 0 and 1 then drew the same
    weights)."""
    starts = []
    real = ex_figure_2.gradient_descent

    def recording(model, p0, *args, **kwargs):
        starts.append({k: v.detach().clone() for k, v in p0.items()})
        return real(model, p0, *args, **kwargs)

    monkeypatch.setattr(ex_figure_2, "gradient_descent", recording)
    settings = ((0.5, 0.7), (0.0, 0.4))
    repeats = 3
    ex.single_relu_experiment(n=6, d=3, width=8, n_test=4, steps=2, repeats=repeats,
                              settings=settings, pytorch_default=False, n_records=2,
                              threads=1)  # fmt: skip
    assert len(starts) == repeats  # one batched run of every setting per repeat
    for k in range(len(settings)):
        W = [s["W"][k] for s in starts]
        a = [s["a"][k] for s in starts]
        for r in range(repeats):
            for q in range(r):
                # continuous N(0, I) draws: equal only if drawn from the same stream
                assert not torch.equal(W[r], W[q]), (k, q, r)
                assert W[r].shape == (8, 3) and a[r].shape == (8,)


def test_alpha_curve_is_a_frozen_record_whose_means_stay_those_of_its_values():
    """``AlphaCurve`` derives ``means`` and ``stderrs`` (``std(ddof=1)/sqrt(S)``) from
    ``values`` once, when it is made, and makes the value arrays read-only: a measured curve
    is a record, so no field can be reassigned afterwards (``FrozenInstanceError``) and the
    summaries can never disagree with the values.  The summaries are checked against exact
    rational arithmetic.  Written against numerics/alpha_scaling.py:255:core/
    ReplaceTrueWithFalse:4 (``frozen=True`` -> ``frozen=False``: ``values`` could then be
    swapped under stale means)."""
    rows = [[1, 2, 4], [0, 0, 3]]  # (A, S) = (2, 3)
    curve = al.AlphaCurve(alphas=(0.5, 2.0), seeds=3, setup=al.AlphaSetup(),
                          values={"test_error": np.array(rows, dtype=float)},
                          lrs=np.array([0.1, 0.2]), device="cpu", dtype="float64",
                          seconds=0.0)  # fmt: skip

    def summaries(row):
        mean = Fraction(sum(row), len(row))
        var = sum((Fraction(v) - mean) ** 2 for v in row) / (len(row) - 1)
        return float(mean), math.sqrt(var / len(row))

    def consistent():
        for i, row in enumerate(rows):
            mean, err = summaries(row)
            # a few float64 roundings of small integers' sums and squares: 1e-14 relative
            assert curve.means["test_error"][i] == pytest.approx(mean, rel=1e-14, abs=0)
            assert curve.stderrs["test_error"][i] == pytest.approx(err, rel=1e-14, abs=0)

    consistent()
    with pytest.raises(dataclasses.FrozenInstanceError):
        curve.values = {"test_error": np.zeros((2, 3))}  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        curve.means = {}  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        curve.values["test_error"][0, 0] = 100.0
    consistent()


def test_first_step_target_samples_data_seed_defaults_to_0():
    """The documented default ``data_seed = 0``: the same data X as ``data_seed=0``
    explicitly, other data for ``data_seed=1`` (a default of 1 survived the seed-18
    sample)."""
    kw = {"n": 2, "d": 2, "width": 2, "samples": 2}
    default = gd.first_step_target_samples(**kw)
    assert np.array_equal(default["X"], gd.first_step_target_samples(data_seed=0, **kw)["X"])
    assert not np.array_equal(default["X"], gd.first_step_target_samples(data_seed=1, **kw)["X"])


def test_section_8_1_1_summary_divides_eig_min_by_kappa_n():
    """``gamma{0,1}_eig_min_over_kappa_init_end`` are the summary's own eig_min at the start
    and the end of the gamma = 0 and gamma = 1 settings over kappa_n (the end's ``/`` made
    ``*`` survived the seed-18 sample)."""
    result = ex.section_8_1_1(n=4, d=3, widths=(4,), steps=4, n_records=3, threads=1,
                              settings=((1.0, None), (0.0, 0.4)))  # fmt: skip
    s = ex.section_8_1_1_summary(result)
    for key, k in (("gamma1_eig_min_over_kappa_init_end", 0),
                   ("gamma0_eig_min_over_kappa_init_end", 1)):  # fmt: skip
        assert s["gammas"][k] == (1.0 if k == 0 else 0.0)
        want = [s["eig_min_init"][k] / s["kappa_n"], s["eig_min_end"][k] / s["kappa_n"]]
        assert np.allclose(s[key], want, rtol=1e-15, atol=0), (s[key], want)
