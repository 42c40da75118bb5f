"""Simulation-backed confirmations of seed 001 (Xu & Ziyin), Section 3: Table 1 measured on
simulated two-layer linear nets (:func:`numerics.sweeps.measure_phases`), cell by cell; and
Section 3.2's initialisation scale at fixed width on real data (issue 32's stand-in for
Figure 4, :func:`numerics.initialisation_scale.section_3_2_digits`); and Section 3.1's
Figure 3 on a synthetic teacher (the six models of Appendix B.3 in their Table 1 cells,
:func:`numerics.teacher_task.figure_3_teacher`), and Section 2.3's Figure 2 (the Kaiming
initialisation times sigma) on the same teacher.

Registered with the model's own claims by :mod:`solvable.verification.theorems` (this module
has the model's name, :mod:`solvable.models.phases`).
"""

from __future__ import annotations

from collections.abc import Sequence

from numerics import sweeps
from numerics.initialisation_scale import section_3_2_digits
from numerics.teacher_task import figure_2_teacher, figure_3_teacher
from solvable._core.claims import Theorem, Verdict
from solvable.models import phases
from solvable.models.phases import table as phases_table
from solvable.verification.figure_2_teacher import figure_2_teacher_verdict
from solvable.verification.figure_3_teacher import figure_3_teacher_verdict
from solvable.verification.section_3_2_digits import section_3_2_verdict

SEED = phases.SEED

FAST_CELLS = (
    "NTK, c_eta",  # kernel (infinite width)
    "mean field, c_eta",  # frozen (t_c grows)
    "Kaiming, c_eta",  # unstable (t_c vanishes)
    "mean field, c_eta*",  # feature learning after rescaling eta
    "Xavier, +",  # feature learning by Corollary 2
    "lazy, c_eta*",  # kernel at a fixed width (zero initial output, case 2 of (29))
)
"""The default subset: one cell per phase the table prints, each reached by a different
mechanism (width, learning rate, output scale, a fixed width); ``--full`` runs all 20."""
KAPPAS_FAST, KAPPAS_FULL = (16, 64, 256), (64, 256, 1024, 4096)
SEEDS_FAST, SEEDS_FULL = 4, 16  # nets per (cell, kappa); --full: benchmarks/sweep_xu_ziyin.py's


def cell_names() -> list[str]:
    """The 20 cells of Table 1, ``"<column>, <block>"`` as keyed by
    :func:`numerics.sweeps.table_1_cases`, in the table's order."""
    return [f"{r['column']}, {sweeps._SHORT_BLOCKS[r['block']]}" for r in phases.table_1()]


def table_1_verdict(measurements: Sequence[sweeps.PhaseMeasurement]) -> Verdict:
    """Confirmed when every measured cell's phase (read off its fitted exponents by
    :func:`numerics.sweeps.classify`: an exponent counts as non-zero when it is beyond
    ``DELTA`` = 0.25 and ``Z_SCORE`` = 3 bootstrap/regression errors from 0, the thresholds
    derived in :mod:`numerics.sweeps`) is the phase Theorem 2 gives (``paper_phase``), that
    of the predicted exponents, and the printed one (where the paper prints one; the lazy
    column is the corrected table, :mod:`solvable.models.phases.errata_checks`).  A
    pass/fail verdict: ``max_error`` is the number of cells that disagree (0)."""
    bad = []
    for m in measurements:
        printed = m.case.printed
        if not m.agrees or (printed and phases_table._short(m.phase) != printed):
            bad.append(f"{m.case.name}: measured {m.phase}, Theorem 2 {m.paper_phase}, "
                       f"printed {printed or '-'} (t_c {m.t_c.exponent:+.2f} +- "
                       f"{m.t_c.error:.2f}, NTK change {m.ntk_change.exponent:+.2f} +- "
                       f"{m.ntk_change.error:.2f})")  # fmt: skip
    if bad or not measurements:
        return Verdict("failed", "; ".join(bad) or "no cell measured")
    return Verdict("confirmed", f"{len(measurements)} cells of Table 1: measured phase = "
                   "Theorem 2 = printed (" + ", ".join(m.case.name for m in measurements)
                   + ")", max_error=0.0)  # fmt: skip


def _table_1_measured(full: bool = False) -> Verdict:
    """Table 1 measured: :data:`FAST_CELLS` at kappa :data:`KAPPAS_FAST` with
    :data:`SEEDS_FAST` nets by default (a few seconds); ``full``: all 20 cells at
    :data:`KAPPAS_FULL` with :data:`SEEDS_FULL` nets."""
    cases = sweeps.table_1_cases()
    names = cell_names() if full else list(FAST_CELLS)
    ms = sweeps.measure_phases([cases[n] for n in names],
                               list(KAPPAS_FULL if full else KAPPAS_FAST),
                               seeds=SEEDS_FULL if full else SEEDS_FAST, n_boot=300)  # fmt: skip
    return table_1_verdict(ms)


def _section_3_2_digits(full: bool = False) -> Verdict:
    # fast: width 100, kappa in {1, 10, 100, 1000}, 1000 GD steps at rate 5/width, 3 repeats,
    # zero initial output (measured slopes -0.498 and +0.518 for c_w = +1, -1); full: the
    # paper's width 2000, c_w in {-1, -1/2, 1/2, 1}, 5 repeats, 1000 images
    setup = ({"width": 2000, "c_ws": (-1.0, -0.5, 0.5, 1.0), "repeats": 5, "n_train": 1000,
              "n_test": 797} if full else {})  # fmt: skip
    return section_3_2_verdict(section_3_2_digits(threads=1, **setup))


def _figure_3_teacher(full: bool = False) -> Verdict:
    # fast: kappa = d in {16, 64, 256}, 6 initialisations, 100 steps at base rate 2, 100
    # training points in d0 = 10 (3.5 CPU s; phase figure 0.69, test-risk figure 0.31);
    # full: kappa up to 4096, 16 initialisations, 400 training points (not run here; up to
    # kappa 1024 with 8 initialisations it is confirmed at 0.46 / 0.28, 48 CPU s)
    setup = ({"kappas": (16, 64, 256, 1024, 4096), "repeats": 16, "n_train": 400,
              "n_test": 2000} if full else {})  # fmt: skip
    return figure_3_teacher_verdict(figure_3_teacher(threads=1, **setup))


def _figure_2_teacher(full: bool = False) -> Verdict:
    # fast: width 256, sigma in {0.5, 1, 2, 4}, 6 initialisations, 100 steps at 2 / k(sigma)
    # (about 3 CPU s); full: width 1024, sigma from 1/4 to 8, 16 initialisations, 400 points
    setup = ({"width": 1024, "sigmas": (0.25, 0.5, 1.0, 2.0, 4.0, 8.0), "repeats": 16,
              "n_train": 400, "n_test": 2000} if full else {})  # fmt: skip
    return figure_2_teacher_verdict(figure_2_teacher(threads=1, **setup))


def claims() -> list[Theorem]:
    """The simulation-backed claims of seed 001, Section 3."""
    return [
        Theorem("phases.table_1_measured", f"{SEED} Table 1 (measured)",
                "Each cell's phase measured on simulated nets (exponents of t_c and of the "
                "NTK change fitted over kappa) is the phase Theorem 2 and the table give: "
                f"{len(FAST_CELLS)} cells (one per printed phase) by default, all 20 with "
                "--full.", "numeric", _table_1_measured),
        Theorem(
            "phases.section_3_2_digits",
            f"{SEED} Section 3.2, Figure 4 (corrected, see errata; CIFAR-10 replaced by "
            "scikit-learn's digits, issue 32)",
            "A two-layer ReLU net of fixed width on the digits (even vs odd), sigma_w^2 = "
            "kappa^c_w with Section 3.2's c_u = max{0, c_w}, c_gamma = min{-c_w/2, 0} and a "
            "fixed rate, from a zero initial output: after training, RD(W) = |W_T - W_0|/|W_0| "
            "scales as kappa^(c_gamma + c_u/2 - c_w/2) = kappa^(-c_w/2) (fitted over kappa "
            "in 1..1000, within 0.1 + 2 SE over 3 initialisations): the first layer freezes "
            "relative to its scale (kernel) for c_w = 1 and moves more and more (feature "
            "learning) for c_w = -1 (full=True: width 2000, c_w in {-1, -1/2, 1/2, 1}).",
            "numeric",
            _section_3_2_digits,
        ),
        Theorem(
            "phases.figure_3_teacher",
            f"{SEED} Section 3.1, Figure 3 and Appendix B.3 (CIFAR-10 replaced by a synthetic "
            "single-index ReLU teacher in d0 = 10)",
            "A two-layer ReLU net of width d = kappa trained by GD with the exponents of "
            "each Appendix B.3 model's Table 1 cell (NTK, mean field, Kaiming-, Kaiming+, "
            "Xavier+, Xavier-: sigma_w^2 = kappa^c_w, sigma_u^2 = kappa^c_u, gamma = "
            "kappa^c_gamma, rates kappa^c_eta) for a fixed time: (1) the fitted exponent "
            "of RD(W) = |W_T - W_0|/|W_0| over kappa in 16..256 reads Theorem 2's phase, "
            "below -1/4 beyond 2 SE (RD -> 0) in the kernel cells (NTK, Kaiming-, Xavier-) "
            "and above -1/4 beyond 2 SE (not vanishing) in the feature-learning cells; "
            "(2) Figure 3 left: at every kappa the feature-phase model of each pair "
            "(mean field / NTK, Kaiming+ / Kaiming-, Xavier+ / Xavier-) has at most half "
            "its partner's test risk (full=True: kappa up to 4096, 16 initialisations).",
            "numeric",
            _figure_3_teacher,
        ),
        Theorem(
            "phases.figure_2_teacher",
            f"{SEED} Section 2.3, Figure 2 and Appendix B.2 (ResNet-18 on CIFAR-10 replaced "
            "by a two-layer ReLU net on the synthetic teacher of phases.figure_3_teacher)",
            "A two-layer ReLU net of width 256 from the Kaiming initialisation multiplied by "
            "sigma in {0.5, 1, 2, 4}, trained by GD for the same time in units of its initial "
            "kernel: the mean final norm of all weights and the mean test risk both grow "
            "with sigma, each step by at least two standard errors over 6 initialisations "
            "(full=True: width 1024, sigma from 1/4 to 8, 16 initialisations).",
            "numeric",
            _figure_2_teacher,
        ),
    ]  # fmt: skip
