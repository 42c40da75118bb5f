"""Details of the simulation-backed confirmations that the registry runs only pass or fail:
where a verdict says its worst error is, which computation a claim's default run is (the
one its notebook shows), and which runs a limit claim reads.

Mutation-testing triage (batch A): each test pins a behaviour stated by a docstring, a
claim's statement or the notebook that cites the claim, not the constants themselves.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from numerics import lazy_width as lw
from solvable.verification.confirmations import delayed_rich as conf_dr
from solvable.verification.confirmations import linearisation as conf_lin
from solvable.verification.confirmations import ntg as conf_ntg

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------
# delayed_rich.plateau_sweep: where the worst error is
# ---------------------------------------------------------------------------
def test_sweep_detail_names_the_first_delta_where_the_worst_t_half_error_is_reached(
    monkeypatch,
):
    """The sweep's detail ends with ``(where)``, the place of its worst error in tolerances:
    read in the order the verdict checks (the grid from the smallest |delta|, then the fitted
    alpha and beta), the place named is the first one reaching the worst value.  Synthetic
    runs (no simulation): exact T_half = |delta| and measured = exact (1 + e) with relative
    errors e = 2^-10 at both ends of the grid (|delta| = 4 and 64, bitwise the same error in
    units: the runs differ by powers of two) and smaller ones between, alternating in sign so
    that the 3-parameter fit is off by O(1) standard errors only; the T_half error,
    2^-10/1e-8 ~ 1e5 tolerances, is the worst, first reached at delta = -4."""
    e = {"-4": 2.0**-10, "-8": -(2.0**-11), "-16": 2.0**-12, "-32": -(2.0**-11), "-64": 2.0**-10}
    assert tuple(e) == conf_dr.SWEEP  # the default grid, 4..64 (module comment)

    def fake_run(delta):
        D = float(-int(delta))
        return conf_dr._Run(delta, D, 1.0, 0.5, 1.0, 1.0, D, D * (1 + e[delta]), D, (), ())

    monkeypatch.setattr(conf_dr, "_run", fake_run)
    v = conf_dr._sweep()
    # the worst is the T_half error in units of TIME_TOL (rtol 1e-8), 2^-10/1e-8: the
    # difference D 2^-10 is exact and the allowance 1e-8 D one rounding, so 1e-9 is ample
    assert abs(v.max_error / (2.0**-10 / 1e-8) - 1) <= 1e-9, v.max_error
    assert v.status == "failed"
    assert v.detail.endswith("(T_half at delta=-4)"), v.detail


# ---------------------------------------------------------------------------
# linearisation.hessian_opnorm_autograd: the default run is the notebook's
# ---------------------------------------------------------------------------
def _notebook_hessian_agreement_call() -> tuple[tuple[int, ...], int]:
    """The widths and seeds of ``lw.hessian_agreement`` in the cell of notebook 02 that cites
    the claim ``linearisation.hessian_opnorm_autograd`` (its ``uses(...)``)."""
    nb = json.loads((ROOT / "notebooks" / "02_kernels_and_linearisation.ipynb").read_text())
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    (cell,) = [c for c in cells if '"linearisation.hessian_opnorm_autograd"' in c]
    m = re.search(r"lw\.hessian_agreement\((\([^)]*\)),\s*seeds=(\d+)\)", cell)
    assert m, "notebook 02 no longer calls lw.hessian_agreement(widths, seeds=...)"
    return tuple(ast.literal_eval(m.group(1))), int(m.group(2))


def test_hessian_formula_check_default_run_is_the_one_notebook_02_shows():
    """Notebook 02 prints ``dense autograd vs Lanczos vs (2.17)`` from
    ``lw.hessian_agreement(widths, seeds=...)`` in the cell that cites the claim
    ``linearisation.hessian_opnorm_autograd``: the claim's default run (what ``solvable
    verify`` reports) must be that same computation, so its detail states the notebook's
    widths and seed count and the very numbers the notebook prints (the networks are
    seeded: the computation is deterministic)."""
    widths, seeds = _notebook_hessian_agreement_call()
    agree = lw.hessian_agreement(widths, seeds=seeds)
    v = conf_lin._hessian_formula_check()
    assert f"over widths {widths}, {seeds} seeds each" in v.detail, v.detail
    assert agree.summary() in v.detail, (agree.summary(), v.detail)
    assert v.status == "confirmed"


# ---------------------------------------------------------------------------
# ntg.frobenius_variance_limit: every configuration of the sweep reaches the limit check
# ---------------------------------------------------------------------------
def test_ntg_limit_claim_reads_every_configuration_of_the_sweep_at_its_largest_width():
    """The claim ``ntg.frobenius_variance_limit`` (eq. (13)) checks, "at the largest m", the
    Monte Carlo variance of the sweep that the mean and variance claims share: each
    configuration of the sweep (activation, gamma, node scaling) is run over the same widths,
    so each is read at the largest m the claim names, and none is left out of the limit
    check (its detail lists one run per configuration)."""
    runs = conf_ntg._sweep(False)
    configs = {(r.activation, r.gamma, repr(r.weights)) for r in runs}
    assert len(configs) >= 2  # relu and swish (the claim's statement: same grid)
    v = conf_ntg._claim_limit(False)
    m = re.search(r"eq\. \(13\) at m=(\d+):", v.detail)
    assert m, v.detail
    largest = int(m.group(1))
    for act, gamma, weights in configs:
        widths = [r.m for r in runs if (r.activation, r.gamma, repr(r.weights)) ==
                  (act, gamma, weights)]  # fmt: skip
        assert max(widths) == largest, (act, gamma, weights, widths, largest)
        assert f"{act} g={gamma} {weights} m={largest}:" in v.detail, (act, v.detail)
    assert f"over {len(configs)} runs" in v.detail, v.detail
