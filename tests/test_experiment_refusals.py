"""Refusals of the numerics experiment modules, found by fuzzing their public callables
(tests/fuzz_entries_f.py, tests/fuzz_entries_g.py): each bad input is a ``TypeError`` /
``ValueError`` naming its argument, and each cap is checked on both sides (the largest
accepted value works, the next is refused; a cap whose largest value is hours of work is
lowered with ``monkeypatch`` first, so that both sides run in milliseconds)."""

from __future__ import annotations

import itertools
import math
import re
import warnings

import numpy as np
import pytest
import torch

from numerics import alpha_scaling as al
from numerics import kernel_sampling as ks
from numerics import lazy_width as lw
from numerics import node_scaling_experiment as ex
from numerics import node_scaling_gd as gd
from numerics import node_scaling_linear as nsl
from numerics import ntg_sampling as ntgs
from numerics import phase_diagram as pd
from numerics import sweep_three_layer as stl
from numerics.models import WideTwoLayer
from numerics.node_scaling_experiment import figure_1 as ex_figure_1
from numerics.node_scaling_experiment import kernel as ex_kernel
from numerics.node_scaling_experiment import monitor as ex_monitor
from solvable.models import kernels as kn
from solvable.models import node_scaling as ns

X2 = [[1.0, 0.5], [0.2, -1.0]]
HUGE = 10**30
INIT = kn.lecture_initialisation(2)


# ---------------------------------------------------------------------------
# numerics.alpha_scaling
# ---------------------------------------------------------------------------
def test_alpha_setup_caps_steps_and_names_lr_factor():
    setup = al.AlphaSetup(d=2, n_train=2, n_test=2, width=2, steps=al.MAX_STEPS)
    assert setup.steps == al.MAX_STEPS
    with pytest.raises(ValueError, match=r"steps must be an int in \[1, 1000000000\]"):
        al.AlphaSetup(d=2, n_train=2, n_test=2, width=2, steps=al.MAX_STEPS + 1)
    with pytest.raises(ValueError, match="lr_factor"):
        al.AlphaSetup(lr_factor="1e400")
    with pytest.raises(ValueError, match="n_train"):
        al.AlphaSetup(n_train=HUGE)
    with pytest.raises(ValueError, match=r"init_seed must be an int in \[0, 2\*\*64 - 1\]"):
        al.AlphaSetup(init_seed=2**64)


def test_alpha_initial_parameters_seed_range_and_tiny_alpha():
    top = al.initial_parameters(1.0, 2, 1, 1, seed=2**64 - 1, device="cpu")
    assert top["W"].shape == (1, 2, 1)
    with pytest.raises(ValueError, match="seed must be an int in"):
        al.initial_parameters(1.0, 2, 1, 1, seed=2**64, device="cpu")
    with pytest.raises(ValueError, match="width"):
        al.initial_parameters(1.0, HUGE, 1, 1, device="cpu")
    # 1e-300: W / alpha ~ 1e300, finite; 5e-324: W / alpha overflows
    assert torch.isfinite(al.initial_parameters(1e-300, 2, 1, 1, device="cpu")["W"]).all()
    with pytest.raises(ValueError, match="alpha = 5e-324 is too small"):
        al.initial_parameters(5e-324, 2, 1, 1, device="cpu")


def test_alpha_kernel_distance_and_activation_change_check_their_arrays():
    with pytest.raises(TypeError, match="K0"):
        al.kernel_distance(np.ones((2, 2), dtype=complex), np.eye(2))
    W0 = [[[0.5, -0.2], [0.1, 0.7]]]
    # arrays are accepted (a tensor was required before: AttributeError on a list)
    out = al.activation_change(W0, np.negative(W0), X2)
    assert out.shape == (1,) and 0 <= float(out[0]) <= 1
    with pytest.raises(TypeError, match="W0"):
        al.activation_change(None, np.negative(W0), X2)
    with pytest.raises(TypeError, match="X"):
        al.activation_change(W0, W0, "abc")


# ---------------------------------------------------------------------------
# numerics.kernel_sampling
# ---------------------------------------------------------------------------
def test_kernel_sampling_seed_and_size_ranges():
    assert ks.sample_parameters(INIT, 2, 2, 1, seed=2**64 - 1)["W"].shape == (1, 2, 2)
    with pytest.raises(ValueError, match="seed must be an int in"):
        ks.sample_parameters(INIT, 2, 2, 1, seed=2**64)
    with pytest.raises(ValueError, match="batch"):
        ks.sample_parameters(INIT, 2, 2, HUGE)
    top = (2**64 - 1) // 1_000_003 - 1  # width i draws from seed * 1_000_003 + i
    fit = ks.width_convergence(INIT, X2, [2, 4], replicates=2, batch=2, seed=top)
    assert np.isfinite(fit.slopes).all()
    # the bound quoted as the integer it is (a float bound, 18446688735596.0, survived the
    # seed-21 sample)
    with pytest.raises(ValueError, match=rf"seed must be an int in \[0, {top}\] "):
        ks.width_convergence(INIT, X2, [2, 4], replicates=2, batch=2, seed=top + 1)


def test_kernel_sampling_refuses_overflow_and_bad_names():
    with pytest.raises(ValueError, match="X is too large"):
        ks.empirical_kernels(INIT, [[1e300, 0.0], [0.0, 1e300]], 2, 2)
    with pytest.raises(TypeError, match="kernels"):
        ks.empirical_kernels(INIT, X2, 2, 2, kernels=None)
    with pytest.raises(ValueError, match="K must have two square last axes"):
        ks.upper([1.0, 2.0])
    with pytest.raises(ValueError, match="X gives an empirical kernel equal"):
        ks.width_convergence(INIT, [[0.0, 0.0], [0.0, 0.0]], [2, 4], replicates=2, batch=2)


def test_output_samples_caps_its_chunks(monkeypatch):
    monkeypatch.setattr(ks, "MAX_OUTPUT_CHUNKS", 2)
    monkeypatch.setattr(ks, "_OUTPUT_DOUBLES", 6)  # p (d + 1) = 6 weights: one net a chunk
    assert ks.output_samples(INIT, X2, 2, 2).shape == (2, 2)
    with pytest.raises(ValueError, match=r"batch = 3 .* more than MAX_OUTPUT_CHUNKS = 2"):
        ks.output_samples(INIT, X2, 2, 3)


# ---------------------------------------------------------------------------
# numerics.ntg_sampling
# ---------------------------------------------------------------------------
def test_sample_ntg_caps_chunks_and_seeds(monkeypatch):
    lam = [0.5, 0.25]
    assert ntgs.sample_ntg(X2, "relu", lam, 2, seed=2**64 - 1, device="cpu").shape == (2, 2, 2)
    with pytest.raises(ValueError, match="seed must be an int in"):
        ntgs.sample_ntg(X2, "relu", lam, 2, seed=2**64, device="cpu")
    monkeypatch.setattr(ntgs, "_CHUNK_ELEMENTS", 4)  # m max(n, d) = 4: one draw a chunk
    monkeypatch.setattr(ntgs, "MAX_CHUNKS", 3)
    assert ntgs.sample_ntg(X2, "relu", lam, 3, device="cpu").shape == (3, 2, 2)
    with pytest.raises(ValueError, match="draws = 4 needs 4 chunks"):
        ntgs.sample_ntg(X2, "relu", lam, 4, device="cpu")
    with pytest.raises(ValueError, match="X is too large"):
        ntgs.sample_ntg([[1e300, 0.0], [0.0, 1e300]], "relu", lam, 2, device="cpu")


def test_nested_widths_checks_its_arguments(monkeypatch):
    zipf = ns.zipf("0.5")
    monkeypatch.setattr(ntgs, "MAX_TAIL_NODES", 4)
    r = ntgs.nested_widths(X2, "relu", 0.5, zipf, [1, 2], tail_nodes=4, device="cpu")
    assert np.isfinite(r.distances).all()
    with pytest.raises(ValueError, match=r"tail_nodes must be an int in \[1, 4\]"):
        ntgs.nested_widths(X2, "relu", 0.5, zipf, [1, 2], tail_nodes=5, device="cpu")
    with pytest.raises(TypeError, match="widths"):
        ntgs.nested_widths(X2, "relu", 0.5, zipf, 2.0, tail_nodes=4)
    with pytest.raises(ValueError, match=r"gamma must be in \[0, 1\]"):
        ntgs.nested_widths(X2, "relu", 1.5, zipf, [1, 2], tail_nodes=4)


# ---------------------------------------------------------------------------
# numerics.lazy_width
# ---------------------------------------------------------------------------
def test_lazy_width_names_phi_output_activation_and_seed():
    with pytest.raises(ValueError, match=r"phi .* must be one of"):
        lw.ComposedTwoLayer(X2, [0.1, 0.2], phi="relu")
    with pytest.raises(ValueError, match="output must be one of"):
        lw.linearisation_sweep([2], seeds=2, n=1, d=2, probes=1, output="nope")
    with pytest.raises(ValueError, match="activation must be 'tanh'"):
        lw.hessian_sweep([2, 3], activation=None)
    with pytest.raises(TypeError, match="seed"):
        lw.sphere(2, 2, seed=math.nan)
    with pytest.raises(ValueError, match=r"n must be an integer in \[1, 9223372036854775807\]"):
        lw.sphere(2**63, 2)


def test_linearisation_sweep_caps_records_and_the_envelope(monkeypatch):
    kw = {"seeds": 2, "n": 1, "d": 2, "probes": 1, "device": "cpu"}
    monkeypatch.setattr(lw, "MAX_TIMES", 3)
    assert lw.linearisation_sweep([2], horizon=0.5, n_times=3, **kw).sup_E.shape == (1, 2)
    with pytest.raises(ValueError, match=r"n_times must be an integer in \[2, 3\]"):
        lw.linearisation_sweep([2], horizon=0.5, n_times=4, **kw)
    with pytest.raises(ValueError, match="horizon must be <= 700 / lambda_0") as info:
        lw.linearisation_sweep([2], horizon=1e300, n_times=2, **kw)
    # the bound it quotes is the one it applies, from both sides (a sum 700 + lambda_0 for
    # the quotient was quoted unchecked: a seed-20 survivor)
    bound = float(re.search(r"lambda_0 = (\S+) at width", str(info.value)).group(1))
    assert lw.linearisation_sweep([2], horizon=0.999 * bound, n_times=2, **kw).horizon > 700
    with pytest.raises(ValueError, match="horizon must be <= 700 / lambda_0"):
        lw.linearisation_sweep([2], horizon=1.001 * bound, n_times=2, **kw)


def test_lanczos_norm_of_a_zero_hessian():
    # x = 0, or x so large that tanh saturates: H = 0 exactly, and ARPACK refused the zero
    # Krylov start (ArpackError -9); the norm is 0, as the dense one says
    model = WideTwoLayer(X=[[0.6, 0.8]], y=[0.0], activation="tanh", eta_a=0.0)
    p = lw.initial_parameters(2, 2, 1, device="cpu")
    for x in ([0.0, 0.0], [1e300, -1e300]):
        assert lw.hessian_opnorm_lanczos(model, p, x).tolist() == [0.0]
        assert lw.hessian_opnorm_dense(model, p, x).tolist() == [0.0]


# ---------------------------------------------------------------------------
# numerics.node_scaling_gd
# ---------------------------------------------------------------------------
def test_monitor_theorem_6_1_caps_its_steps(monkeypatch):
    kw = {"n": 2, "d": 2, "width": 2, "horizon": 0.01, "n_records": 3}
    steps = gd.monitor_theorem_6_1(**kw)["steps"]
    monkeypatch.setattr(gd, "MAX_STEPS", steps)
    assert gd.monitor_theorem_6_1(**kw)["steps"] == steps
    monkeypatch.setattr(gd, "MAX_STEPS", steps - 1)
    with pytest.raises(ValueError, match=r"horizon = 0.01.*more than MAX_STEPS"):
        gd.monitor_theorem_6_1(**kw)
    with pytest.raises(ValueError, match="amplitude = 5e-324 is too small"):
        gd.monitor_theorem_6_1(**{**kw, "amplitude": 5e-324})


def test_node_scaling_gd_names_its_arguments():
    with pytest.raises(TypeError, match="data_seed"):
        gd.first_step_runs(n=2, d=2, widths=[2], seeds=[0], data_seed=math.nan)
    with pytest.raises(ValueError, match="eta = 1e"):
        gd.first_step_target_samples(n=2, d=2, width=2, samples=2, eta=1e300)
    ok = gd.mean_field_linear(n=2, d=2, widths=[2], samples=2, steps=2, eta0_fraction=1.99)
    assert np.isfinite(ok["cases"][0]["W_end"]).all()
    with pytest.raises(ValueError, match=r"eta0_fraction must be in \(0.0, 2.0\)"):
        gd.mean_field_linear(n=2, d=2, widths=[2], samples=2, steps=2, eta0_fraction=2.0)
    with pytest.raises(ValueError, match="eta0_fraction = 5e-324 is too small"):
        gd.mean_field_linear(n=2, d=2, widths=[2], samples=2, steps=2, eta0_fraction=5e-324)


# ---------------------------------------------------------------------------
# numerics.node_scaling_linear
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fn", [nsl.flow_runs, nsl.contribution_samples, nsl.feature_learning_sweep, nsl.pruning_samples]
)
def test_node_scaling_linear_full_must_be_a_bool(fn):
    for bad in (1, np.bool_(True), "yes", None):
        with pytest.raises(TypeError, match="full must be True or False"):
            fn(full=bad)


def test_sample_limits_caps_samples_and_checks_arrays(monkeypatch):
    monkeypatch.setattr(nsl, "MAX_SAMPLES", 3)
    out = nsl.sample_limits(X2, [0.1, -0.2], [0.5, 0.25], 3)
    assert out["c"].shape == (3, 1, 2)
    with pytest.raises(ValueError, match=r"samples must be an integer in \[2, 3\]"):
        nsl.sample_limits(X2, [0.1, -0.2], [0.5, 0.25], 4)
    with pytest.raises(ValueError, match=r"nodes\[0\] must be an integer in \[0, 1\]"):
        nsl.sample_limits(X2, [0.1, -0.2], [0.5, 0.25], 3, nodes=[2])
    with pytest.raises(ValueError, match=r"spread = 1.7e.* is too large"):
        nsl.linear_data(2, 2, spread=1.7e308)
    with pytest.raises(TypeError, match="families"):
        nsl.configs([2], [1], None)


# ---------------------------------------------------------------------------
# numerics.sweep_three_layer and numerics.phase_diagram
# ---------------------------------------------------------------------------
def test_three_layer_width_seed_and_scale_ranges():
    top = stl._MAX_WIDTH  # W2 is m x m: m^2 <= 2**63 - 1
    assert top**2 <= 2**63 - 1 < (top + 1) ** 2
    assert math.isfinite(stl.initial_scales(0, 2.1, top)["alpha"])
    with pytest.raises(ValueError, match=r"m must be an integer in \[2, 3037000499\]"):
        stl.initial_scales(0, 2.1, top + 1)
    few = {"max_steps": 2, "check_every": 2}
    assert stl.train_run(0, 2.1, 3, 2**64 - 1, **few)["seed"] == 2**64 - 1
    with pytest.raises(ValueError, match=r"seed must be an integer in \[0, 2\*\*64 - 1\]"):
        stl.train_run(0, 2.1, 3, 2**64, **few)
    with pytest.raises(ValueError, match=r"gamma_2 = 1e.*leave the float64 range"):
        stl.initial_scales(1e300, 2.1, 4)


def test_rd_sweep_point_and_slopes_name_their_argument():
    with pytest.raises(TypeError, match="point"):
        stl.rd_sweep_point(None)
    with pytest.raises(ValueError, match="point: "):
        stl.rd_sweep_point({"gamma_2": "abc", "gamma_3": "5/2", "m": 3, "seed": 0})
    with pytest.raises(ValueError, match="results"):
        stl.slopes(1.0)


def test_phase_diagram_checks_its_inputs():
    with pytest.raises(TypeError, match="diagram"):
        pd.boundaries(None, "W1")
    with pytest.raises(ValueError, match="g must be a pair"):
        pd.interpolate_zero((1.0,), (0.5, -0.5), (0.1, 0.1))
    with pytest.raises(ValueError, match="beyond the float64 range"):
        pd.interpolate_zero((1.0, 2.0), (1e300, -1e300), (1.0, 1.0))
    with pytest.raises(TypeError, match="rd"):
        pd.fit_layer([2, 4], np.ones((2, 1), dtype=complex))
    with pytest.raises(ValueError, match="kappas must be three numbers"):
        pd.NormalisedThreeLayer([[-1.0], [1.0]], [0.2, 0.8], (1.0, 2.0))
    with pytest.raises(TypeError, match="kappa_fn"):
        pd.normalised_vs_raw(m=2, times=(0.0, 0.25), kappa_fn=1.0)
    with pytest.raises(ValueError, match="W has a zero row"):
        pd.zeta([[0.0, 0.0], [0.0, 0.0]])
    # rows of 1e-300: their norms underflowed (NaN cosines); now scaled first
    assert pd.zeta([[1e-300, 0.0], [0.0, 1e-300]]) == pytest.approx(0.5)


# ---------------------------------------------------------------------------
# numerics.node_scaling_experiment
# ---------------------------------------------------------------------------
def test_kernel_gd_caps_record_steps_and_refuses_divergence(monkeypatch):
    K, r0 = [[1.0, 0.2], [0.2, 0.5]], [[1.0, -0.5]]
    monkeypatch.setattr(ex_kernel, "MAX_STEPS", 5)
    assert ex.kernel_gd(K, r0, 0.5, [0, 5])["risk"].shape == (2, 1)
    with pytest.raises(ValueError, match=r"record_steps\[1\] must be an integer in \[0, 5\]"):
        ex.kernel_gd(K, r0, 0.5, [0, 6])
    with pytest.raises(ValueError, match="lr = 1e"):
        ex.kernel_gd(K, r0, 1e300, [0, 5])


def test_section_8_1_1_caps_repeats_and_names_lr(monkeypatch):
    kw = {"n": 2, "d": 2, "widths": [2], "steps": 4, "n_records": 3, "threads": 1,
          "settings": ((1.0, None),)}  # fmt: skip
    monkeypatch.setattr(ex_figure_1, "MAX_REPEATS", 2)
    assert ex.section_8_1_1(repeats=2, **kw)["repeats"] == 2
    with pytest.raises(ValueError, match=r"repeats must be an integer in \[1, 2\]"):
        ex.section_8_1_1(repeats=3, **kw)
    with pytest.raises(ValueError, match="lr = 1e"):
        ex.section_8_1_1(lr=1e300, **kw)
    with pytest.raises(TypeError, match="settings"):
        ex.section_8_1_1(**{**kw, "settings": 1.0})


def test_monitor_theorem_5_1_caps_horizon(monkeypatch):
    kw = {"n": 2, "d": 2, "gammas": [1.0], "widths": [2], "seeds": [0], "n_times": 2,
          "threads": 1}  # fmt: skip
    monkeypatch.setattr(ex_monitor, "MAX_HORIZON", 0.1)
    assert ex.monitor_theorem_5_1(horizon=0.1, **kw)["horizon"] == 0.1
    with pytest.raises(ValueError, match="horizon must be in"):
        ex.monitor_theorem_5_1(horizon=math.nextafter(0.1, 1.0), **kw)


def test_result_readers_and_main_name_their_argument():
    for fn in (ex.monitor_table, ex.section_8_1_1_summary):
        with pytest.raises(TypeError, match="result must be the dict"):
            fn({"a": 1})
    with pytest.raises(ValueError, match="argv"):
        ex.main(["--out", "x", "--part", "bogus"])
    with pytest.raises(TypeError, match="argv"):
        ex.main([1.0, 2.0])


# ---------------------------------------------------------------------------
# both sides of the checks above, as value checks (written for the outsider mutants of
# benchmarks/mutants/experiment_input_checks.py: a valid input refused, or a refusal that
# became a raw KeyError / IndexError / SystemExit, must fail by an assertion)
# ---------------------------------------------------------------------------
def _accepted(call):
    """``call()``'s result; a refusal of this valid input fails the test by an assertion."""
    try:
        return call()
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"a valid input was refused: {exc}") from exc


def _raised(call):
    """The exception ``call()`` raises, any kind (a SystemExit or KeyError where a
    ValueError is due is then a failed assertion, not an error), or None."""
    try:
        call()
    except BaseException as exc:  # the kind is what is checked
        return exc
    return None


def test_caps_accept_their_largest_value(monkeypatch):
    """``>`` at each cap, not ``>=``: the largest documented value is accepted."""
    setup = _accepted(lambda: al.AlphaSetup(d=2, n_train=2, n_test=2, width=2,
                                            steps=al.MAX_STEPS))  # fmt: skip
    assert setup.steps == al.MAX_STEPS == 10**9
    monkeypatch.setattr(ntgs, "_CHUNK_ELEMENTS", 4)  # m max(n, d) = 4: one draw a chunk
    monkeypatch.setattr(ntgs, "MAX_CHUNKS", 3)
    out = _accepted(lambda: ntgs.sample_ntg(X2, "relu", [0.5, 0.25], 3, device="cpu"))
    assert out.shape == (3, 2, 2)


def test_output_samples_refuses_one_overflowing_input_among_finite_ones():
    """One row of X whose outputs overflow, next to a finite one: refused (``all`` finite,
    not ``any``: the finite row must not let NaN outputs of the other through)."""
    X = [[1.7e308, 0.0], [1.0, 0.5]]
    exc = _raised(lambda: ks.output_samples(INIT, X, 64, 2))
    assert isinstance(exc, ValueError) and "X is too large" in str(exc), exc
    assert np.isfinite(ks.output_samples(INIT, [[1.0, 0.0], [1.0, 0.5]], 64, 2)).all()


def test_lanczos_norm_where_the_start_vector_has_a_zero_entry():
    """A Hessian that is not zero, though H v0 has a zero coordinate (x = (sqrt 2, 0)):
    the Lanczos norm is the dense one, not the zero-Hessian shortcut's 0. Tolerance: ARPACK
    converges to 1e-10 relative here (its default tol is machine precision; the dense
    eigenvalue is exact to a few ulps)."""
    model = WideTwoLayer(X=[[0.6, 0.8]], y=[0.0], activation="tanh", eta_a=0.0)
    p = lw.initial_parameters(2, 2, 1, device="cpu")
    x = [math.sqrt(2.0), 0.0]
    dense = lw.hessian_opnorm_dense(model, p, x).tolist()
    assert dense[0] > 0.1
    assert lw.hessian_opnorm_lanczos(model, p, x).tolist() == pytest.approx(dense, rel=1e-10)


def test_monitor_theorem_6_1_work_is_set_by_the_smallest_gamma():
    """The step count scales with 1 / min(gammas): gamma = 1e-5 next to 1 needs about
    3e7 steps at this horizon (the work estimate), beyond MAX_STEPS = 10**7, and is refused
    before any step; gamma = 1 alone at the same horizon runs."""
    kw = {"width": 2, "n_records": 3, "horizon": 1e-6}
    alone = _accepted(lambda: gd.monitor_theorem_6_1(gammas=(1.0,), **kw))
    assert 1 <= alone["steps"] <= gd.MAX_STEPS
    exc = _raised(lambda: gd.monitor_theorem_6_1(gammas=(1.0, 1e-5), **kw))
    assert isinstance(exc, ValueError) and "more than MAX_STEPS" in str(exc), exc


def test_sample_limits_nodes_at_both_ends():
    """``nodes`` index the m nodes: m - 1 is the last one, m is a ValueError naming it (an
    IndexError from numpy is not a refusal)."""
    X, y = nsl.linear_data(2, 3)[:2]
    out = _accepted(lambda: nsl.sample_limits(X, y, [1.0, 0.5], 2, nodes=[1]))
    assert np.isfinite(out["c"]).all()
    exc = _raised(lambda: nsl.sample_limits(X, y, [1.0, 0.5], 2, nodes=[2]))
    assert isinstance(exc, ValueError), exc
    assert "nodes[0] must be an integer in [0, 1], got 2" in str(exc)


def test_initial_scales_refuse_underflow_to_zero():
    """A phase point whose scales underflow to 0 at this width (beta = m^-gamma_3 / ...):
    refused like an overflow, naming the scales; a large but representable one is positive."""
    exc = _raised(lambda: stl.initial_scales(0, 3300, 2))
    assert isinstance(exc, ValueError) and "leave the float64 range" in str(exc), exc
    scales = stl.initial_scales(0, 300, 2)
    assert all(0 < v < math.inf for v in scales.values()), scales


def test_zeta_is_invariant_under_row_scales_and_refuses_a_zero_top_row():
    """zeta reads directions only: rows scaled by 1e300 and 1e-300 in one matrix give the
    same value as the unscaled rows (each row rescaled by its own largest entry; one scale
    for the matrix underflows the small row). Tolerance: 1e-12 relative (the rescaling is
    exact but the norms and cosines are rounded). A zero row among the top rows is refused
    even next to rows that are not zero."""
    want = pd.zeta([[1.0, 1.0], [1.0, 2.0]], top=1.0)
    got = _accepted(lambda: pd.zeta([[1e300, 1e300], [1e-300, 2e-300]], top=1.0))
    assert got == pytest.approx(want, rel=1e-12)
    exc = _raised(lambda: pd.zeta([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], top=1.0))
    assert isinstance(exc, ValueError) and "W has a zero row" in str(exc), exc


def test_interpolate_zero_refuses_an_infinite_error():
    """A zero that is finite with an error beyond float64: refused (both must be finite)."""
    exc = _raised(lambda: pd.interpolate_zero((0.0, 1e300), (1.0, -1.0), (1e10, 1e10)))
    assert isinstance(exc, ValueError) and "beyond the float64 range" in str(exc), exc
    at, err = pd.interpolate_zero((0.0, 2.0), (1.0, -1.0), (0.1, 0.1))
    # g* = 0 + 2 * 1 / 2 = 1; err = 2 sqrt(0.01 + 0.01) / 4
    assert (at, err) == pytest.approx((1.0, 2 * math.sqrt(0.02) / 4), rel=1e-15)


def test_main_and_result_readers_refuse_with_named_errors_not_exits_or_key_errors():
    """``main(argv)``: a bad argv is an ArgvError (a ValueError naming argv), never a
    SystemExit from argparse; a result dict without its rows is a TypeError naming what it
    lacks, never a KeyError."""
    exc = _raised(lambda: ex.main(["--bogus"]))
    assert isinstance(exc, ValueError) and str(exc).startswith("argv"), repr(exc)
    exc = _raised(lambda: ex.monitor_table({}))
    assert isinstance(exc, TypeError) and "lacks ['cases']" in str(exc), repr(exc)


def test_single_relu_data_seed_leaves_room_for_every_repeat():
    """Repeat r draws its data from data_seed + 1000 r: the largest data_seed accepted is
    2**63 - 1 - 1000 repeats, refused up front above it (not in repeat 1 with a seed the
    caller never passed)."""
    kw = {"n": 2, "d": 2, "width": 2, "n_test": 2, "steps": 2, "n_records": 2,
          "repeats": 2, "pytorch_default": False, "settings": ((1.0, None),)}  # fmt: skip
    top = 2**63 - 1 - 2000
    exc = _raised(lambda: ex.single_relu_experiment(data_seed=top + 1, **kw))
    assert isinstance(exc, ValueError) and "data_seed must be an integer in" in str(exc), exc
    assert _accepted(lambda: ex.single_relu_experiment(data_seed=top, **kw)) is not None


def test_zeta_orders_rows_by_norm_beyond_the_float64_range_of_their_squares():
    """The top rows are those of largest norm also when the norms' squares overflow: rows
    of about 1.4e300 and 1.5e300 are told apart (their norms computed from each row
    rescaled), so zeta is that of the same rows divided by 1e300 (before: every norm was
    inf and the first rows were taken, whatever their size). Tolerance: 1e-12 relative, as
    above."""
    W = np.array([[1.0, 1.0], [1.5, 0.0], [1.45, 0.1]])
    want = pd.zeta(W, top=0.5)
    assert want == pytest.approx(pd.zeta(W[1:], top=1.0), rel=1e-15)  # rows 1 and 2 chosen
    assert pd.zeta(W * 1e300, top=0.5) == pytest.approx(want, rel=1e-12)
    assert pd.zeta(W * 1e-300, top=0.5) == pytest.approx(want, rel=1e-12)


def test_kernel_gd_stops_at_the_first_step_past_float64():
    """A divergent lr with a record at MAX_STEPS: refused at the first step whose residual
    is not finite, naming it (before: every one of the 10**7 requested steps ran on inf and
    NaN, with numpy overflow warnings, and then the run was refused). The reference is
    the same update, r <- r - lr r K, stepped here until it overflows."""
    K, r0, lr = np.array([[1.0, 0.2], [0.2, 0.5]]), np.array([[1.0, -0.5]]), 1e3
    r, first = r0.copy(), 0
    with np.errstate(over="ignore", invalid="ignore"):
        while np.isfinite(r).all():
            r, first = r - lr * r @ K, first + 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning before the refusal
        exc = _raised(lambda: ex.kernel_gd(K, r0, lr, [0, ex.MAX_STEPS]))
    assert isinstance(exc, ValueError), repr(exc)
    assert f"makes GD diverge past the float64 range at step {first} " in str(exc)
    assert 50 < first < 200  # |1 - lr lambda_max| ~ 1069 a step: about 102 steps to 1e308


def test_monitor_theorem_6_1_records_n_records_log_spaced_steps():
    """Step 0 and ``n_records - 1`` log-spaced steps from 1 to the last, rounded (the
    docstring): consecutive recorded steps r < r' above 10 are at most the log spacing
    ``steps^(1/(n_records - 2))`` apart, up to the rounding of both (a factor (r + 1)/(r -
    1)); half as many records (twice the spacing) passed every other test (a seed-20
    survivor)."""
    n_records = 40
    out = gd.monitor_theorem_6_1(width=2, n_records=n_records, horizon=1.0, gammas=(1.0,))
    r, steps = out["record_steps"], out["steps"]
    assert steps > 1000 and r[:2] == [0, 1] and r[-1] == steps and len(r) <= n_records
    assert all(b > a for a, b in itertools.pairwise(r))
    spacing = steps ** (1 / (n_records - 2))
    wide = [
        (a, b) for a, b in itertools.pairwise(r) if a >= 10 and b / a > spacing * (a + 1) / (a - 1)
    ]
    assert wide == [], (spacing, wide)


def test_single_relu_test_set_size_refused_only_beyond_int64():
    """The test inputs are an (n_test, d) array: ``n_test * d`` must be an int64 size,
    refused up front above 2**63 - 1 (naming the product), and nothing else limits it: d =
    64 inputs with one test point run (a shift ``n_test << d`` in place of the product
    refused it: a seed-20 survivor)."""
    kw = {"n": 2, "width": 2, "steps": 2, "n_records": 2, "repeats": 1,
          "pytorch_default": False, "settings": ((1.0, None),)}  # fmt: skip
    exc = _raised(lambda: ex.single_relu_experiment(d=2, n_test=2**62, **kw))
    assert isinstance(exc, ValueError) and "n_test * d must be an integer in" in str(exc), exc
    assert _accepted(lambda: ex.single_relu_experiment(d=64, n_test=1, **kw)) is not None
    # n_records: the first and the last step at least (1 refused, 2 run; a lower bound of 1
    # survived the seed-21 sample)
    one = _raised(lambda: ex.single_relu_experiment(d=2, n_test=1, **{**kw, "n_records": 1}))
    assert isinstance(one, ValueError) and "n_records must be an integer >= 2" in str(one), one


def test_mean_field_linear_beta0_is_the_initial_linear_map():
    """Each case's ``beta0`` is the initial network's linear map sum_j s_j a_j w_j (d
    entries per sample, s_j = sqrt(lambda_j) = 1/m), here with m = 5 nodes in d = 3
    dimensions (a sum over the input axis instead, m entries, passed the tests where m =
    d: a seed-20 survivor)."""
    out = gd.mean_field_linear(n=2, d=3, widths=[5], samples=2, steps=2)
    (case,) = out["cases"]
    W0, a = np.asarray(case["W0"]), np.asarray(case["a"])
    assert W0.shape == (2, 5, 3) and np.asarray(case["beta0"]).shape == (2, 3)
    # x: the first training input's direction, of unit norm (its rows differ in norm here:
    # dividing by the second row's norm survived the seed-21 sample)
    X = np.asarray(out["X"])
    assert abs(np.linalg.norm(X[0]) / np.linalg.norm(X[1]) - 1) > 0.1
    np.testing.assert_allclose(out["x"], X[0] / np.linalg.norm(X[0]), rtol=1e-15)
    assert np.linalg.norm(out["x"]) == pytest.approx(1.0, rel=1e-15)
    want = np.einsum("bj,bjk->bk", a / 5, W0)
    np.testing.assert_allclose(case["beta0"], want, rtol=1e-13, atol=1e-15)  # sums of 5
