"""Every device argument of :mod:`numerics.lazy_width` refuses an unknown device, the
bootstrap standard error of :func:`numerics.sweeps.fit_exponent` is the sample standard
deviation of the bootstrap slopes, :func:`numerics.ntg_sampling.sample_ntg` draws chunk
``k`` from seed ``seed + k``, and ``python -m numerics.node_scaling_experiment --quick``
runs the sizes its ``--help`` states.

Mutation-testing triage (seed-3 run).
"""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
import torch

from numerics import lazy_width as lw
from numerics import node_scaling_experiment as ex
from numerics import ntg_sampling, sweeps
from numerics.models import WideTwoLayer
from numerics.node_scaling_experiment import cli as ex_cli


# ---------------------------------------------------------------------------
# numerics.lazy_width: an unknown device is a ValueError at every entry point
# ---------------------------------------------------------------------------
def _run_tiny(device):
    X = lw.sphere(2, 3, seed=1)
    model = WideTwoLayer(X=X, y=np.array([0.5, -0.5]))
    params = lw.initial_parameters(4, 3, 1)  # on the CPU: only `device` names another
    return lw.linearisation_run(model, params, [0.0, 0.1], lw.sphere(2, 3, seed=3), device=device)


ENTRY_POINTS = {
    "initial_parameters": lambda dev: lw.initial_parameters(4, 3, 1, device=dev),
    "hessian_agreement": lambda dev: lw.hessian_agreement([4], seeds=1, d=3, device=dev),
    "hessian_sweep": lambda dev: lw.hessian_sweep([4, 8], seeds=2, d=3, device=dev),
    "linearisation_run": _run_tiny,
    "linearisation_sweep": lambda dev: lw.linearisation_sweep(
        [4], seeds=2, n=2, d=3, probes=2, n_times=2, horizon=0.1, device=dev
    ),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_lazy_width_refuses_an_unknown_device_at_every_entry_point(entry):
    # numerics/lazy_width.py:428:core/ReplaceComparisonOperator_IsNot_Is:1 (linearisation_run
    # skipped resolve_device for a given device, so "meta" was silently ignored)
    # resolve_device's docstring: "An unknown or unavailable device is a ValueError".
    with pytest.raises(ValueError, match="device"):
        ENTRY_POINTS[entry]("meta")


# ---------------------------------------------------------------------------
# numerics.sweeps.fit_exponent: se_boot is the bootstrap standard error (Efron: the sample
# standard deviation of the B bootstrap replicates, divisor B - 1)
# ---------------------------------------------------------------------------
def test_bootstrap_standard_error_of_two_replicates_is_their_difference_over_sqrt_2():
    # numerics/sweeps.py:700:core/NumberReplacer:203 (ddof=1 -> ddof=0)
    # Two seeds, paired, kappas 1 and e (log-kappa 0 and 1): seed values (1, 1) at kappa 1,
    # (1, 3) at kappa e.  A paired resample keeps 0, 1 or 2 copies of seed 1, so the
    # kappa-e mean is 1, 2 or 3, the kappa-1 mean is 1, and a bootstrap slope is
    # log(mean) in {0, log 2, log 3}.  With B = 2 replicates the sample standard deviation
    # is |b1 - b2| / sqrt(2): sqrt(2) se_boot is a difference of two of those slopes.
    kappas = [1.0, math.e]
    samples = [[1.0, 1.0], [1.0, 3.0]]
    slopes = (0.0, math.log(2.0), math.log(3.0))
    diffs = sorted({abs(a - b) for a, b in itertools.product(slopes, repeat=2)})
    nonzero = 0
    for seed in range(12):
        fit = sweeps.fit_exponent(kappas, samples, n_boot=2, seed=seed)
        assert fit.exponent == pytest.approx(math.log(2.0), rel=1e-12)  # log(2/1): lstsq
        r = math.sqrt(2.0) * fit.se_boot
        # 1e-12: lstsq and log roundings of O(1) numbers, far below the gaps between the
        # candidate differences (>= log 1.5 - 0 = 0.41, and a divisor-B slip moves r by 29%)
        assert min(abs(r - t) for t in diffs) < 1e-12, (seed, r, diffs)
        nonzero += r > 0.1
    assert nonzero >= 3  # the check above is not vacuous (p(equal slopes) = 3/8 per seed)


# ---------------------------------------------------------------------------
# numerics.ntg_sampling.sample_ntg: chunk k uses seed + k
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("per_chunk", [2, 3])
def test_sample_ntg_draws_chunk_k_from_seed_plus_k(monkeypatch, per_chunk):
    # numerics/ntg_sampling.py:66:core/ReplaceBinaryOperator_FloorDiv_Pow:0 (the chunk size
    # 2^22 ** (m max(n, d)) made one chunk of all draws, all from `seed`)
    # Docstring: "Batched over draws in chunks; chunk k uses seed seed + k"; a chunk holds
    # _CHUNK_ELEMENTS // (m max(n, d)) draws.  A small budget makes the chunks small.
    X = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, -1.0]])  # n = 3, d = 2
    lam = np.array([0.7, 0.3])  # m = 2
    monkeypatch.setattr(ntg_sampling, "_CHUNK_ELEMENTS", per_chunk * 2 * 3)
    seed = 5
    draws = 3 * per_chunk
    full = ntg_sampling.sample_ntg(X, "tanh", lam, draws, seed=seed)
    assert full.shape == (draws, 3, 3)
    for k in range(3):
        # chunk k alone: the same draws of a call with seed + k, as one chunk of its own
        monkeypatch.setattr(ntg_sampling, "_CHUNK_ELEMENTS", 1 << 22)
        alone = ntg_sampling.sample_ntg(X, "tanh", lam, per_chunk, seed=seed + k)
        monkeypatch.setattr(ntg_sampling, "_CHUNK_ELEMENTS", per_chunk * 2 * 3)
        # exact: the same generator draws and the same float64 arithmetic
        assert torch.equal(full[k * per_chunk : (k + 1) * per_chunk], alone), k
    assert not torch.equal(full[0], full[per_chunk])  # distinct seeds: distinct draws


# ---------------------------------------------------------------------------
# numerics.node_scaling_experiment: --quick runs what --help states
# ---------------------------------------------------------------------------
def test_node_scaling_quick_run_uses_the_sizes_its_help_states(monkeypatch, tmp_path):
    # numerics/node_scaling_experiment.py:887:core/NumberReplacer:572 (quick n 20 -> 21)
    # --help: "seconds: n=20, d=10, m=100, 60 steps".  The experiment itself is faked (its
    # results are tested elsewhere): only the sizes main() passes are checked here.
    (help_text,) = [a.help for a in ex_cli._parser()._actions if "--quick" in a.option_strings]
    stated = {k: int(v) for k, v in re.findall(r"\b(n|d|m)=(\d+)", help_text)}
    (steps,) = re.findall(r"(\d+) steps", help_text)
    assert set(stated) == {"n", "d", "m"}
    seen = {}

    def fake_section(**kw):
        seen.update(kw)
        return {"summary": {}}

    monkeypatch.setattr(ex_cli, "section_8_1_1", fake_section)
    monkeypatch.setattr(ex_cli, "plot_section_8_1_1", lambda res, path: None)
    assert ex.main(["--out", str(tmp_path), "--quick", "--part", "8.1.1"]) == 0
    assert (seen["n"], seen["d"], tuple(seen["widths"]), seen["steps"]) == (
        stated["n"],
        stated["d"],
        (stated["m"],),
        int(steps),
    )
