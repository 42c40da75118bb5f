"""Seed 004 Section 5: the (gamma_2, gamma_3) phase diagram of three-layer ReLU nets, measured.

Every network is one :func:`numerics.sweep_three_layer.rd_point` (the 1-d four-point
problem, full-batch gradient descent to ``R_S <= 1e-6``, biases folded into the input
weights): in process all runs train at once, batched per width
(:func:`numerics.sweep_three_layer.rd_points`, the same numbers), or, with
``executor="local"``, a dask scheduler address or a ``cache_dir`` (a resumable sweep),
one by one through :func:`numerics.sweeps.run_sweep`.  On top of those runs this module
measures:

* :func:`measure_points` / :func:`phase_grid`: per phase point and layer the relative
  distances RD (eq. (10)) per (width, seed), the slope ``S_W`` of eq. (11) with its
  standard error (:class:`SlopeFit`) and the regime
  (:func:`solvable.models.three_layer.regime_from_slope`); a grid is a :class:`PhaseDiagram`;
* :func:`boundaries`: the zero crossings of ``S_W`` by linear interpolation between
  neighbouring grid points (the stars of Figure 5), with the slopes' standard errors
  propagated through the interpolation (:class:`Crossing`);
* :func:`table_2_invariance`: ``S_W1``, ``S_W2`` for each scaling of Table 2
  (:data:`solvable.models.three_layer.TABLE_2`; the exponent of ``alpha`` varies inside a group at
  fixed ``(gamma_2, gamma_3)``), the spread inside each group against the seed noise;
* the condensation diagnostic of Figures 2, 3 and 8: :func:`cosine_matrix` (``D(u, v)`` of
  eq. (2) between the input weights of the half of the neurons with the largest norm),
  :func:`zeta` (Figure 8's average ``|D|``) and :func:`aligned_fraction`, on weights from
  :func:`train` (the same training as ``rd_point``, returning the weights);
* :func:`normalised_vs_raw`: the raw gradient flow (4) and the normalised flow (7)
  integrated (``numerics.torch_flow.gradient_flow``, DOP853) from the same initial draw,
  the raw one rescaled by (6) and (8), for the confirmation of the rescaling.

Numbers only: which regime the paper states where (``PAPER_POINTS``), and whether a
measurement confirms it, belong to the verification layer
(:mod:`solvable.verification.confirmations.three_layer`).

The slope and its error (:class:`SlopeFit`): ``S`` is the least-squares slope of the
seed mean of ``log RD`` on ``log m`` (:func:`numerics.sweep_three_layer.fit_slope`); with
every run converged it is the mean of the per-seed slopes.  Two standard errors:
``se_fit``, the regression's (the departure of the seed-mean curve from a power law),
and ``se_seeds``, the standard deviation of the per-seed slopes over ``sqrt(#seeds)``
(the seed noise); ``err`` is the larger finite one (as
:class:`numerics.sweeps.ExponentFit` does).  The seeds are paired across widths (seed
``k`` at every width), so a seed's constant factor in RD cancels from its slope: pooling
all runs in one regression instead would count that factor as noise (at (0.7, 2.5),
widths 32..128, it gave an error of 0.081 for per-seed slopes that scatter by 0.02).
With 2 or 3 seeds ``se_seeds`` rests on 1 or 2 degrees of freedom: the fast defaults
are for checks at a margin, the paper's widths and more seeds for the diagram itself.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from numerics.models import ThreeLayerReLU
from numerics.sweep_three_layer import (
    DEFAULT_SETTINGS,
    _fraction,
    _seed,
    _settings,
    _width,
    fit_slope,
    initial_scales,
    rd_points,
    rd_sweep_point,
    scale_exponents,
    train_run,
)
from numerics.sweeps import run_sweep
from numerics.torch_flow import gradient_flow, initialise
from solvable._core import numbers as nb
from solvable.models import three_layer

__all__ = [
    "BAND",
    "FAST_SEEDS",
    "FAST_WIDTHS",
    "FULL_SEEDS",
    "FULL_WIDTHS",
    "LAYERS",
    "RD_VERSION",
    "Crossing",
    "FlowComparison",
    "NormalisedThreeLayer",
    "PhaseDiagram",
    "PhasePoint",
    "SlopeFit",
    "Table2Group",
    "aligned_fraction",
    "boundaries",
    "cosine_matrix",
    "fit_layer",
    "input_weights",
    "interpolate_zero",
    "measure_points",
    "normalised_vs_raw",
    "phase_grid",
    "point_from_rd",
    "table_2_groups",
    "table_2_invariance",
    "train",
    "zeta",
]

Layer = Literal["W1", "W2"]
LAYERS: tuple[Layer, ...] = ("W1", "W2")
_RD_KEY = {"W1": "rd_w1", "W2": "rd_w2"}

RD_VERSION = "4"
"""Cache version of ``rd_sweep_point`` results (the one ``benchmarks/sweep_three_layer.py``
uses, so the two share a cache directory); bump it when ``rd_point``'s numbers change
(3: a run whose descent stalls stops there and says so, ``"stalled"``; 4: and starts
again at a quarter of the rate, ``"restarts"``)."""

FAST_WIDTHS: tuple[int, ...] = (32, 64, 128)
"""Default widths: a factor 4 (log-range 1.39), ~0.5-1.5 s per run alone on one CPU core,
about 0.1 s per run when many train together (:func:`measure_points` in process)."""
FAST_SEEDS: tuple[int, ...] = (0, 1, 2)
FULL_WIDTHS: tuple[int, ...] = (100, 1000, 2500, 5000, 10000)
"""Figure 5's widths (Section 5.3.1): a CUDA device or a dask cluster."""
FULL_SEEDS: tuple[int, ...] = tuple(range(8))
"""Table 2 averages eight experiments (its caption)."""

BAND = 0.1
"""A measured slope with ``|S_W| <= max(BAND, 2 err)`` reads as critical: at finite widths a
zero slope is measured as a small one (the paper's own three parametrisations of one
point differ by up to 0.025 in Table 2; over a factor 4 in width a change of 0.1 in S is a
factor 1.15 in RD).  The convention of ``benchmarks/sweep_three_layer.py``."""


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _ints(name: str, values: Any, low: int, min_len: int) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"{name} must be a sequence of integers, got {values!r:.80}")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
            raise ValueError(f"{name} must hold integers >= {low}, got {v!r} in {values!r:.80}")
        out.append(int(v))
    if len(set(out)) != len(out) or len(out) < min_len:
        raise ValueError(f"{name} must hold >= {min_len} distinct values, got {values!r:.80}")
    return tuple(out)


def _rd_array(name: str, value: Any) -> np.ndarray:
    """RD values as float64: real numbers, NaN allowed (it marks an excluded run); a
    complex, bool, string or object array is a ``TypeError`` naming ``name``."""
    if isinstance(value, (str, bytes)) or nb._is_tensor(value):
        raise TypeError(f"{name} must be an array of real numbers, got {nb.describe(value)}")
    try:
        arr = np.asarray(value)
    except ValueError:  # ragged
        raise ValueError(f"{name} must be a rectangular array, got {nb.describe(value)}") from None
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"{name} must be an array of real numbers (NaN: an excluded run), got "
                        f"dtype {arr.dtype} {nb.describe(value)}")  # fmt: skip
    return arr.astype(float)


def _scales_at(where: str, g2: Fraction, g3: Fraction, s: Fraction, widths: Sequence[int]
               ) -> None:  # fmt: skip
    """Refuse a phase point whose scales leave float64 at some width, naming ``where``."""
    for m in (min(widths), max(widths)):
        try:
            initial_scales(g2, g3, m, s)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from exc


def _layer(layer: Any) -> Layer:
    if layer not in LAYERS:
        raise ValueError(f"layer must be 'W1' or 'W2', got {layer!r}")
    return layer


def _gammas(name: str, values: Any) -> tuple[Fraction, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise TypeError(f"{name} must be a non-empty sequence of numbers, got {values!r:.80}")
    out = tuple(_fraction(name, v) for v in values)
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must hold distinct values, got {values!r:.80}")
    return out


# ---------------------------------------------------------------------------
# slopes of one phase point
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SlopeFit:
    """``S_W`` of eq. (11) at one phase point (module docstring): ``slope``, ``err``
    (the larger finite one of ``se_fit`` and ``se_seeds``), ``se_fit`` (pooled
    least-squares standard error, NaN with two runs), ``se_seeds`` (standard deviation of
    ``seed_slopes`` over ``sqrt(len)``, NaN with fewer than two seeds), ``seed_slopes``."""

    slope: float
    err: float
    se_fit: float
    se_seeds: float
    seed_slopes: tuple[float, ...]

    def regime(self, band: float = BAND) -> str:
        """:func:`solvable.models.three_layer.regime_from_slope` with the band
        ``max(band, 2 err)`` (a slope within two standard errors of 0 reads as critical);
        ``"undetermined"`` without a slope (fewer than two widths with converged runs)."""
        if not math.isfinite(self.slope):
            return "undetermined"
        b = max(band, 2 * self.err) if math.isfinite(self.err) else band
        return three_layer.regime_from_slope(self.slope, b)


_NO_FIT = SlopeFit(math.nan, math.nan, math.nan, math.nan, ())


def _fit_or_nan(widths: Sequence[int], rd: np.ndarray) -> SlopeFit:
    ok = np.isfinite(rd) & (rd > 0)
    return fit_layer(widths, rd) if ok.any(axis=1).sum() >= 2 else _NO_FIT


def fit_layer(widths: Sequence[int], rd: np.ndarray) -> SlopeFit:
    """:class:`SlopeFit` from ``rd`` of shape (len(widths), n_seeds); NaN marks an excluded
    run (diverged or not converged).  ``slope``: least squares of the seed mean of
    ``log RD`` on ``log m`` (the mean of the per-seed slopes when no run is excluded);
    ``se_fit``: that regression's standard error (NaN with two widths); ``se_seeds``: the
    standard error of the mean of the per-seed slopes."""
    rd = _rd_array("rd", rd)
    w = nb.check_float_array("widths", widths, ndim=1)
    if np.any(w <= 0):
        raise ValueError(f"widths must be > 0, got {widths!r:.80}")
    if rd.ndim != 2 or rd.shape[0] != w.size:
        raise ValueError(f"rd must have shape (len(widths) = {w.size}, n_seeds), got {rd.shape}")
    ok = np.isfinite(rd) & (rd > 0)
    rows = ok.any(axis=1)
    if rows.sum() < 2:
        raise ValueError(f"rd needs runs (finite RD > 0) at two or more widths, got "
                         f"{rd.tolist()!r:.120}")  # fmt: skip
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(ok, np.log(np.where(ok, rd, 1.0)), np.nan)
    mean = np.exp(np.nanmean(logs[rows], axis=1))  # geometric mean over the seeds
    pooled = fit_slope(w[rows].tolist(), mean.tolist())
    per_seed = []
    for j in range(rd.shape[1]):
        col = ok[:, j]
        if col.sum() >= 2:
            per_seed.append(fit_slope(w[col].tolist(), rd[col, j].tolist())["slope"])
    sem = (float(np.std(per_seed, ddof=1)) / math.sqrt(len(per_seed))
           if len(per_seed) >= 2 else math.nan)  # fmt: skip
    finite = [v for v in (pooled["err"], sem) if math.isfinite(v)]
    return SlopeFit(pooled["slope"], max(finite) if finite else math.nan, pooled["err"], sem,
                    tuple(per_seed))  # fmt: skip


@dataclass(frozen=True)
class PhasePoint:
    """One measured phase point: coordinates (exact), the exponent ``s`` of ``alpha = m^s``
    of its representative (:func:`numerics.sweep_three_layer.scale_exponents`), widths and
    seeds, ``rd[layer]`` of shape (widths, seeds) (NaN: run excluded), the fits and the
    raw ``rd_point`` results (width-major)."""

    gamma_2: Fraction
    gamma_3: Fraction
    alpha_exponent: Fraction
    widths: tuple[int, ...]
    seeds: tuple[int, ...]
    rd: Mapping[str, np.ndarray]
    fits: Mapping[str, SlopeFit]
    excluded: int
    results: tuple[dict, ...] = field(default=(), repr=False)

    def slope(self, layer: Layer) -> float:
        return self.fits[_layer(layer)].slope

    def err(self, layer: Layer) -> float:
        return self.fits[_layer(layer)].err

    def regime(self, layer: Layer, band: float = BAND) -> str:
        """The regime of ``layer`` here (:meth:`SlopeFit.regime`)."""
        return self.fits[_layer(layer)].regime(band)


def _point_from_results(g2: Fraction, g3: Fraction, s: Fraction, widths: tuple[int, ...],
                        seeds: tuple[int, ...], results: Sequence[dict]) -> PhasePoint:  # fmt: skip
    rd = {k: np.full((len(widths), len(seeds)), np.nan) for k in LAYERS}
    excluded = 0
    for r in results:
        i, j = widths.index(r["m"]), seeds.index(r["seed"])
        good = r["converged"] and r["rd_w1"] and r["rd_w2"]
        excluded += not good
        for k in LAYERS:
            rd[k][i, j] = r[_RD_KEY[k]] if good else np.nan
    for v in rd.values():
        v.setflags(write=False)
    fits = {k: _fit_or_nan(widths, rd[k]) for k in LAYERS}
    return PhasePoint(g2, g3, s, widths, seeds, rd, fits, excluded, tuple(results))


def point_from_rd(gamma_2: Any, gamma_3: Any, widths: Sequence[int], seeds: Sequence[int],
                  rd_w1: Any, rd_w2: Any, alpha_exponent: Any = 0) -> PhasePoint:  # fmt: skip
    """A :class:`PhasePoint` from RD arrays of shape (len(widths), len(seeds)) (NaN: an
    excluded run), e.g. saved measurements or a perturbed one in a test."""
    ws, ss = _ints("widths", widths, 2, 2), _ints("seeds", seeds, 0, 1)
    rd = {}
    for k, v in (("W1", rd_w1), ("W2", rd_w2)):
        a = _rd_array(f"rd_{k.lower()}", v)
        if a.shape != (len(ws), len(ss)):
            raise ValueError(f"rd_{k.lower()} must have shape {(len(ws), len(ss))}, got {a.shape}")
        a.setflags(write=False)
        rd[k] = a
    fits = {k: _fit_or_nan(ws, rd[k]) for k in LAYERS}
    excluded = int(np.sum(~(np.isfinite(rd["W1"]) & np.isfinite(rd["W2"]))))
    g2, g3 = _fraction("gamma_2", gamma_2), _fraction("gamma_3", gamma_3)
    return PhasePoint(g2, g3, _fraction("alpha_exponent", alpha_exponent), ws, ss, rd, fits,
                      excluded)  # fmt: skip


_Grid = tuple[list[tuple[Fraction, Fraction, Fraction]], tuple[int, ...], tuple[int, ...],
              list[dict]]  # fmt: skip


def _grid(points: Any, widths: Any, seeds: Any, normalised_lr: Any,
          settings: Mapping[str, Any]) -> _Grid:  # fmt: skip
    """The validated points ``(gamma_2, gamma_3, s)``, widths, seeds and the JSON grid of
    ``rd_point`` runs (point-major, then width, then seed) of :func:`measure_points`."""
    if not isinstance(normalised_lr, bool):
        raise TypeError(f"normalised_lr must be a bool, got {normalised_lr!r}")
    ws = _ints("widths", widths, 2, 2)
    ss = _ints("seeds", seeds, 0, 1)
    for m in ws:
        _width(m)
    for sd in ss:
        _seed(sd)
    _settings({k: v for k, v in settings.items()})  # validate before any run
    settings = dict(settings)
    base_s = settings.pop("alpha_exponent", 0)
    if isinstance(points, (str, bytes, Mapping)) or not isinstance(points, Sequence):
        raise TypeError(f"points must be a sequence of (gamma_2, gamma_3[, alpha_exponent]) "
                        f"tuples, got {nb.describe(points)}")  # fmt: skip
    parsed = []
    for pt in points:
        if not isinstance(pt, tuple) or len(pt) not in (2, 3):
            raise TypeError(f"points must hold (gamma_2, gamma_3[, alpha_exponent]) tuples, "
                            f"got {pt!r:.80}")  # fmt: skip
        s = pt[2] if len(pt) == 3 else base_s
        parsed.append((_fraction("gamma_2", pt[0]), _fraction("gamma_3", pt[1]),
                       _fraction("alpha_exponent", s)))  # fmt: skip
        _scales_at(f"points[{len(parsed) - 1}]", *parsed[-1], ws)
    if not parsed:
        raise ValueError("points must be non-empty")
    grid = []
    for g2, g3, s in parsed:
        # JSON: a float, read back exactly through its shortest repr (-0.3 -> -3/10)
        own = {"alpha_exponent": float(s)} if s != 0 else {}
        for m in ws:
            cap = {}
            if normalised_lr and s != 0:
                base = settings.get("lr_max", DEFAULT_SETTINGS["lr_max"])
                cap = {"lr_max": float(base) * float(m) ** (2 * float(s) / 3)}
            grid += [{"gamma_2": str(g2), "gamma_3": str(g3), "m": m, "seed": sd, **own,
                      **settings, **cap} for sd in ss]  # fmt: skip
    return parsed, ws, ss, grid


def measure_points(
    points: Sequence[tuple[Any, Any] | tuple[Any, Any, Any]],
    widths: Sequence[int] = FAST_WIDTHS,
    seeds: Sequence[int] = FAST_SEEDS,
    *,
    executor: Any = None,
    cache_dir: Any = None,
    progress: bool = False,
    normalised_lr: bool = False,
    extra: Mapping[str, Any] | None = None,
    **settings: Any,
) -> list[PhasePoint]:
    """Measure ``S_W1``, ``S_W2`` at each of ``points`` (``(gamma_2, gamma_3)`` or
    ``(gamma_2, gamma_3, alpha_exponent)``): every (point, width, seed) is one
    ``rd_point`` run.  In process (no ``executor``, no ``cache_dir``, no ``progress``
    bar) all runs train at once, batched per width
    (:func:`numerics.sweep_three_layer.rd_points`: the same results as one ``rd_point``
    each); otherwise all in one :func:`numerics.sweeps.run_sweep`, run by run (so a
    cluster runs them at once; ``cache_dir`` caches each run and a rerun resumes;
    ``progress`` shows a bar over the runs).  ``settings`` go to
    ``rd_point`` (e.g. ``device="cuda"``, ``tol``); a point's own exponent of ``alpha``
    overrides ``settings["alpha_exponent"]``.  Returns one :class:`PhasePoint` per point,
    in order.

    ``normalised_lr``: the cap ``lr_max`` of a point with ``alpha = m^s`` is multiplied by
    ``m^(2s/3) = (beta_3(s)/beta_3(0))^2``, so that every exponent ``s`` of one phase point
    takes the same steps in the normalised time ``tbar = t/beta_3^2`` of eq. (8) (the
    other term of the rule, ``lr_scale/lambda_max(K_0/n)``, already does: the NTK scales
    like ``beta_3^-2`` at fixed normalised weights).  Without it the raw cap 0.2 is a
    normalised step ``m^(-2s/3)`` times larger: at Table 2 No. 2, m = 128, s = -3/10 that
    is 2.6 times the step of s = 0, near the edge of stability (measured: S_W2 +0.127
    against +0.065 at s = 0, widths 32..128, 3 seeds).

    ``extra``: more measurements of each trained run, in its result
    (:func:`numerics.sweep_three_layer.rd_points`, e.g. the condensation of the trained
    weights); in process only (a ``ValueError`` with ``executor`` or ``cache_dir``: the
    weights do not leave a worker or reach the cache; nor with ``progress``)."""
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be a bool, got {progress!r}")
    parsed, ws, ss, grid = _grid(points, widths, seeds, normalised_lr, settings)
    if executor is None and cache_dir is None and not progress:
        # in process, nothing to resume: every run at once, batched per width (the same
        # results as one rd_point per run, tested), normalised through JSON as run_sweep's
        results = json.loads(json.dumps(rd_points(grid, extra=extra)))
    elif extra is not None:
        raise ValueError(f"extra needs executor=None, cache_dir=None and progress=False, got "
                         f"executor={executor!r}, cache_dir={cache_dir!r}, "
                         f"progress={progress!r}")  # fmt: skip
    else:
        results = run_sweep(rd_sweep_point, grid, cache_dir=cache_dir, version=RD_VERSION,
                            executor=executor, progress=progress)  # fmt: skip
    n = len(ws) * len(ss)
    return [_point_from_results(g2, g3, s, ws, ss, results[k * n : (k + 1) * n])
            for k, (g2, g3, s) in enumerate(parsed)]  # fmt: skip


# ---------------------------------------------------------------------------
# the grid
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PhaseDiagram:
    """A measured grid: ``points[i][j]`` at ``(gamma_2s[i], gamma_3s[j])``.  Arrays of the
    slopes, errors and regimes come from :meth:`slopes`, :meth:`errors`, :meth:`regimes`
    (shape ``(len(gamma_2s), len(gamma_3s))``); :meth:`rd` gives RD as
    ``(gamma_2, gamma_3, width, seed)``."""

    gamma_2s: tuple[Fraction, ...]
    gamma_3s: tuple[Fraction, ...]
    widths: tuple[int, ...]
    seeds: tuple[int, ...]
    points: tuple[tuple[PhasePoint, ...], ...]
    settings: Mapping[str, Any] = field(default_factory=dict)

    def _grid(self, fn: Any, dtype: Any = float) -> np.ndarray:
        return np.array([[fn(p) for p in row] for row in self.points], dtype=dtype)

    def slopes(self, layer: Layer) -> np.ndarray:
        """``S_W`` of ``layer`` per grid point."""
        return self._grid(lambda p: p.slope(layer))

    def errors(self, layer: Layer) -> np.ndarray:
        """The standard error of ``S_W`` per grid point."""
        return self._grid(lambda p: p.err(layer))

    def regimes(self, layer: Layer, band: float = BAND) -> np.ndarray:
        """``"linear"`` / ``"critical"`` / ``"condensed"`` per grid point (object array)."""
        return self._grid(lambda p: p.regime(layer, band), dtype=object)

    def rd(self, layer: Layer) -> np.ndarray:
        """RD of ``layer``, shape ``(gamma_2, gamma_3, width, seed)``, NaN where excluded."""
        return np.array([[p.rd[_layer(layer)] for p in row] for row in self.points])

    def point(self, gamma_2: Any, gamma_3: Any) -> PhasePoint:
        """The grid point at ``(gamma_2, gamma_3)`` (exact match)."""
        g2, g3 = _fraction("gamma_2", gamma_2), _fraction("gamma_3", gamma_3)
        if g2 not in self.gamma_2s or g3 not in self.gamma_3s:
            raise ValueError(f"({gamma_2}, {gamma_3}) is not a grid point; gamma_2 in "
                             f"{[str(v) for v in self.gamma_2s]}, gamma_3 in "
                             f"{[str(v) for v in self.gamma_3s]}")  # fmt: skip
        return self.points[self.gamma_2s.index(g2)][self.gamma_3s.index(g3)]

    def table(self, band: float = BAND) -> str:
        """Plain-text table: per point the slopes with errors and the regimes."""
        head = (f"{'g2':>6} {'g3':>6}  {'S_W1':>16}  {'S_W2':>16}  {'regime W1/W2':<22}"
                f"{'excluded':>8}")  # fmt: skip
        lines = [head, "-" * len(head)]
        for row in self.points:
            for p in row:
                s1 = f"{p.slope('W1'):+.3f} +- {p.err('W1'):.3f}"
                s2 = f"{p.slope('W2'):+.3f} +- {p.err('W2'):.3f}"
                reg = f"{p.regime('W1', band)}/{p.regime('W2', band)}"
                lines.append(f"{float(p.gamma_2):>6.3g} {float(p.gamma_3):>6.3g}  {s1:>16}  "
                             f"{s2:>16}  {reg:<22}{p.excluded:>8}")  # fmt: skip
        return "\n".join(lines)


def phase_grid(
    gamma_2s: Sequence[Any],
    gamma_3s: Sequence[Any],
    widths: Sequence[int] = FAST_WIDTHS,
    seeds: Sequence[int] = FAST_SEEDS,
    *,
    executor: Any = None,
    cache_dir: Any = None,
    progress: bool = False,
    **settings: Any,
) -> PhaseDiagram:
    """Measure the phase diagram on the grid ``gamma_2s x gamma_3s`` (Figure 5): one
    :func:`measure_points` over every grid point (one sweep).  The defaults
    (:data:`FAST_WIDTHS`, :data:`FAST_SEEDS`) take ~0.1 s per run in process (batched;
    ~1 s per run through ``run_sweep``), so a 3 x 4 grid is ~10 s; the paper's widths
    are :data:`FULL_WIDTHS` (``device="cuda"`` or ``executor="local"`` / a dask
    scheduler)."""
    g2s, g3s = _gammas("gamma_2s", gamma_2s), _gammas("gamma_3s", gamma_3s)
    ws = _ints("widths", widths, 2, 2)
    s = _fraction("alpha_exponent", settings.get("alpha_exponent", 0))
    for a in g2s:
        for b in g3s:
            _scales_at(f"gamma_2s, gamma_3s at ({a}, {b})", a, b, s, ws)
    pts = measure_points([(a, b) for a in g2s for b in g3s], widths, seeds, executor=executor,
                         cache_dir=cache_dir, progress=progress, **settings)  # fmt: skip
    rows = tuple(tuple(pts[i * len(g3s) : (i + 1) * len(g3s)]) for i in range(len(g2s)))
    return PhaseDiagram(g2s, g3s, pts[0].widths, pts[0].seeds, rows, dict(settings))


# ---------------------------------------------------------------------------
# boundaries: zero crossings of S_W (Figure 5's stars)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Crossing:
    """A zero of ``S_W`` of ``layer`` between two neighbouring grid points along ``axis``
    (``"gamma_3"``: at fixed ``gamma_2 = fixed``; ``"gamma_2"``: at fixed ``gamma_3``):
    ``at`` (linear interpolation of S_W), ``err`` (its standard error from the two
    slopes' errors, taken independent), ``bracket`` (the two grid values), ``slopes`` (S_W
    there) and ``dS`` (the slope of S_W along the axis between them)."""

    layer: str
    axis: str
    fixed: float
    at: float
    err: float
    bracket: tuple[float, float]
    slopes: tuple[float, float]
    dS: float  # noqa: N815 (the paper's S_W, differentiated)


def interpolate_zero(g: tuple[float, float], s: tuple[float, float],
                     e: tuple[float, float]) -> tuple[float, float]:  # fmt: skip
    """The zero ``g* = g0 + (g1 - g0) s0/(s0 - s1)`` of the line through ``(g0, s0)``,
    ``(g1, s1)`` and its standard error for independent errors ``e`` of ``s``:
    ``|g1 - g0| sqrt(s1^2 e0^2 + s0^2 e1^2)/(s0 - s1)^2`` (first-order propagation).
    Each of ``g``, ``s``, ``e`` a pair of finite real numbers (``e >= 0``); a result
    beyond the float64 range is a ``ValueError``."""
    pairs = []
    for name, v in (("g", g), ("s", s), ("e", e)):
        arr = nb.check_float_array(name, v, ndim=1)
        if arr.shape != (2,):
            raise ValueError(f"{name} must be a pair of numbers, got {nb.describe(v)}")
        pairs.append(tuple(float(x) for x in arr))
    (g0, g1), (s0, s1), (e0, e1) = pairs
    if e0 < 0 or e1 < 0:
        raise ValueError(f"e must be standard errors >= 0, got {nb.describe(e)}")
    if s0 == s1:
        raise ValueError(f"s: slopes must differ to interpolate a zero, got {s0!r} twice")
    try:
        at = g0 + (g1 - g0) * s0 / (s0 - s1)
        err = abs(g1 - g0) * math.sqrt((s1 * e0) ** 2 + (s0 * e1) ** 2) / (s0 - s1) ** 2
    except (OverflowError, ZeroDivisionError):  # a square beyond 1.8e308, or below 5e-324
        at = err = math.inf
    if not (math.isfinite(at) and math.isfinite(err)):
        raise ValueError(f"g, s, e = {g!r}, {s!r}, {e!r}: the zero or its error is beyond the "
                         f"float64 range")  # fmt: skip
    return at, err


def boundaries(diagram: PhaseDiagram, layer: Layer, axis: str = "gamma_3") -> list[Crossing]:
    """Every zero crossing of ``S_W`` of ``layer`` along ``axis`` (Figure 5: along
    ``gamma_3`` at fixed ``gamma_2`` in (a), (c); along ``gamma_2`` in (b)), by linear
    interpolation between neighbouring grid points where the slope changes sign (a slope
    exactly 0 is a crossing at that grid point, counted once)."""
    if not isinstance(diagram, PhaseDiagram):
        raise TypeError(f"diagram must be a PhaseDiagram, got {type(diagram).__name__}")
    layer = _layer(layer)
    if axis not in ("gamma_3", "gamma_2"):
        raise ValueError(f"axis must be 'gamma_3' or 'gamma_2', got {axis!r}")
    S, E = diagram.slopes(layer), diagram.errors(layer)
    g2 = [float(v) for v in diagram.gamma_2s]
    g3 = [float(v) for v in diagram.gamma_3s]
    if axis == "gamma_2":
        S, E, fixed_vals, along = S.T, E.T, g3, g2
    else:
        fixed_vals, along = g2, g3
    out = []
    for i, fixed in enumerate(fixed_vals):
        for j in range(len(along) - 1):
            s0, s1 = S[i, j], S[i, j + 1]
            if not (s0 * s1 < 0 or s0 == 0 or (s1 == 0 and j == len(along) - 2)):
                continue
            if s0 == s1:  # both exactly 0
                continue
            e0 = E[i, j] if math.isfinite(E[i, j]) else 0.0
            e1 = E[i, j + 1] if math.isfinite(E[i, j + 1]) else 0.0
            g = (along[j], along[j + 1])
            at, err = interpolate_zero(g, (s0, s1), (e0, e1))
            out.append(Crossing(layer, axis, fixed, at, err, g, (float(s0), float(s1)),
                                float((s1 - s0) / (g[1] - g[0]))))  # fmt: skip
    return out


# ---------------------------------------------------------------------------
# Table 2: the exponent of alpha inside a group
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Table2Group:
    """One group of Table 2: ``names`` of its rows (:data:`solvable.models.three_layer.TABLE_2`),
    their exponents ``s`` of ``alpha = m^s``, the common ``(gamma_2, gamma_3)``, the
    measured ``points`` (same widths and seeds: paired), ``spread[layer]`` = max - min of
    ``S_W`` over the rows and ``noise[layer]`` = the largest ``err`` over the rows."""

    group: str
    names: tuple[str, ...]
    alpha_exponents: tuple[Fraction, ...]
    gamma_2: Fraction
    gamma_3: Fraction
    points: tuple[PhasePoint, ...]

    def spread(self, layer: Layer) -> float:
        s = [p.slope(layer) for p in self.points]
        return max(s) - min(s)

    def noise(self, layer: Layer) -> float:
        return max(p.err(layer) for p in self.points)


def _rational(expr: Any) -> Fraction:
    return Fraction(int(expr.p), int(expr.q))


def table_2_groups() -> list[tuple[str, list[tuple[str, Fraction, Fraction, Fraction]]]]:
    """Table 2's rows as ``(group, [(name, s, gamma_2, gamma_3), ...])`` from
    :data:`solvable.models.three_layer.TABLE_2`: ``s = lim log(alpha)/log m`` and the coordinates
    by eqs. (8)-(9).  Each row's scalings are checked to be the representative
    ``rd_point`` trains (:func:`numerics.sweep_three_layer.scale_exponents` with that
    ``s``: ``beta_3 = beta_2 = m^-p``, ``beta_1 = m^-q``); a mismatch is a ``ValueError``."""
    groups: dict[str, list[tuple[str, Fraction, Fraction, Fraction]]] = {}
    for init in three_layer.TABLE_2:
        s = -_rational(three_layer.exponent(init.alpha))
        _, g2, g3 = (_rational(g) for g in init.gammas)
        e = scale_exponents(g2, g3, s)
        have = {k: -_rational(three_layer.exponent(getattr(init, k)))
                for k in ("beta_1", "beta_2", "beta_3")}  # fmt: skip
        if any(have[k] != e[k] for k in have):
            raise ValueError(f"Table 2 row {init.name}: scalings {have} are not the "
                             f"representative {e} of rd_point")  # fmt: skip
        # rows are named "No. 1a", "No. 1b", ...: the group is the name less its letter
        group = init.name[:-1].strip() if init.name[-1].isalpha() else init.name
        groups.setdefault(group, []).append((init.name, s, g2, g3))
    return list(groups.items())


def table_2_invariance(
    widths: Sequence[int] = FAST_WIDTHS,
    seeds: Sequence[int] = FAST_SEEDS,
    *,
    executor: Any = None,
    cache_dir: Any = None,
    progress: bool = False,
    normalised_lr: bool = True,
    **settings: Any,
) -> list[Table2Group]:
    """Table 2 measured: each row's scaling (its exponent of ``alpha``, the phase point
    of its group) trained at ``widths`` x ``seeds`` (the same draws for every row: the
    comparison inside a group is paired), one sweep; one :class:`Table2Group` per
    group.  ``settings`` go to ``rd_point`` (``alpha_exponent`` is set per row).
    ``normalised_lr`` (default on): the learning-rate cap in normalised time, see
    :func:`measure_points` (the claim is about the flow, "up to a time scaling")."""
    if "alpha_exponent" in settings:
        raise ValueError("alpha_exponent is set per Table 2 row; do not pass it")
    groups = table_2_groups()
    pts = [(g2, g3, s) for _, rows in groups for _, s, g2, g3 in rows]
    measured = measure_points(pts, widths, seeds, executor=executor, cache_dir=cache_dir,
                              progress=progress, normalised_lr=normalised_lr,
                              **settings)  # fmt: skip
    out, k = [], 0
    for group, rows in groups:
        ps = tuple(measured[k : k + len(rows)])
        k += len(rows)
        out.append(Table2Group(group, tuple(r[0] for r in rows), tuple(r[1] for r in rows),
                               rows[0][2], rows[0][3], ps))  # fmt: skip
    return out


# ---------------------------------------------------------------------------
# training with the weights returned; condensation (Figures 2, 3, 8)
# ---------------------------------------------------------------------------
def train(gamma_2: Any, gamma_3: Any, m: int, seed: int, **settings: Any) -> dict[str, Any]:
    """The training of :func:`numerics.sweep_three_layer.rd_point` (same initial draw,
    learning rate and stopping rule: its RDs are this run's, tested), returning the
    weights: ``p0``, ``p`` (float64 numpy arrays per block ``a``, ``W2``, ``W1``, [``b2``,
    ``b1``]), ``loss``, ``steps``, ``converged``, ``lr``."""
    import torch

    r = train_run(gamma_2, gamma_3, m, seed, **settings)
    if r["diverged"]:
        raise ArithmeticError(f"training diverged at step {r['steps']} (lr = {r['lr']})")
    loss, tol = r["loss"], r["settings"]["tol"]

    def host(q: Mapping[str, Any]) -> dict[str, np.ndarray]:
        return {k: v[0].detach().to("cpu", torch.float64).numpy() for k, v in q.items()}

    return {"p0": host(r["p0"]), "p": host(r["p"]), "loss": loss, "steps": r["steps"],
            "converged": loss <= tol, "lr": r["lr"]}  # fmt: skip


def input_weights(params: Mapping[str, np.ndarray], layer: Layer) -> np.ndarray:
    """The input weights of the neurons of ``layer``, one row per neuron, the bias as the
    last column when present (Section 3: "the input weight of a hidden neuron consists of
    the weight from its input layer to the hidden neuron and its bias term"): ``[W1 | b1]``
    (m, d + 1) or ``[W2 | b2]`` (m, m + 1)."""
    w, b = {"W1": ("W1", "b1"), "W2": ("W2", "b2")}[_layer(layer)]
    if not isinstance(params, Mapping) or w not in params:
        raise TypeError(f"params must map {w!r} (and {b!r}) to arrays, got {nb.describe(params)}")
    W = np.asarray(params[w], dtype=float)
    return np.column_stack([W, np.asarray(params[b], dtype=float)]) if b in params else W


def _top_rows(W: np.ndarray, top: float) -> np.ndarray:
    W = nb.check_float_array("W", W)
    if W.ndim != 2 or W.shape[0] < 2:
        raise ValueError(f"W must be a matrix with >= 2 rows, got shape {W.shape}")
    if not (isinstance(top, (int, float)) and not isinstance(top, bool) and 0 < top <= 1):
        raise ValueError(f"top must be in (0, 1], got {top!r}")
    k = max(2, round(top * W.shape[0]))
    # log norms of the rows, each rescaled by its largest entry first: the squares of rows
    # of 1e300 overflow (every norm inf, no order) and those of 1e-300 underflow
    big = np.abs(W).max(axis=1)
    with np.errstate(divide="ignore"):  # a zero row: log 0 = -inf, the smallest norm
        log_norms = np.log(big) + np.log(np.linalg.norm(W / np.where(big > 0, big, 1.0)[:, None],
                                                        axis=1))  # fmt: skip
    return W[np.argsort(-log_norms, kind="stable")[:k]]


def _unit_rows(U: np.ndarray) -> np.ndarray:
    """Rows divided by their norms, each first scaled by its largest entry (so that rows of
    1e-300 or 1e300 have a norm: their squares would underflow or overflow); rows of 0 NaN."""
    big = np.abs(U).max(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        S = U / big
        return S / np.linalg.norm(S, axis=1)[:, None]


def cosine_matrix(W: Any, *, top: float = 0.5, order: bool = True) -> np.ndarray:
    """``D(u, v)`` of eq. (2) between the rows of ``W`` (input weights of a layer,
    :func:`input_weights`) of the fraction ``top`` of the neurons with the largest norm
    (Figure 3's caption: half), ``(k, k)``.  ``order``: rows and columns ordered for
    display (Figure 3 prints blocks): by the angle of each row in the plane of the two
    leading eigenvectors of D, so that aligned rows are adjacent and opposite ones
    half a turn apart; else by decreasing norm.  Rows of norm 0 give NaN."""
    if not isinstance(order, bool):
        raise TypeError(f"order must be True or False, got {nb.describe(order)}")
    U = _top_rows(W, top)
    V = _unit_rows(U)
    D = np.clip(V @ V.T, -1.0, 1.0)
    if order and np.all(np.isfinite(D)):
        vals, vecs = np.linalg.eigh(D)
        lead = vecs[:, np.argsort(-vals)[:2]]
        idx = np.argsort(np.arctan2(lead[:, 1], lead[:, 0]), kind="stable")
        D = D[np.ix_(idx, idx)]
    return D


def zeta(W: Any, *, top: float = 0.5) -> float:
    """Figure 8's condensation measure ``zeta = (m/2)^-2 sum_{i,j <= m/2} |D(u_i, u_j)|``
    over the half of the rows with the largest norm (the diagonal included, as printed):
    1 when they all lie on one line, ``~ 2/m + sqrt(2/(pi m'))`` for independent Gaussian
    rows in ``R^m'``.  A zero row among them (no direction) is a ``ValueError``."""
    return float(np.mean(np.abs(_nonzero(cosine_matrix(W, top=top, order=False)))))


def _nonzero(D: np.ndarray) -> np.ndarray:
    if not np.all(np.isfinite(D)):
        raise ValueError("W has a zero row among its top-norm rows: its cosine with the "
                         "others is undefined")  # fmt: skip
    return D


def aligned_fraction(W: Any, *, top: float = 0.5, threshold: float = 0.9) -> float:
    """The fraction of pairs ``i != j`` of the top-norm rows with ``|D(u_i, u_j)| >
    threshold``: a scalar summary of the ``+-1`` blocks of Figures 2-3."""
    if (isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.floating))
            or not 0 < threshold < 1):  # fmt: skip
        raise ValueError(f"threshold must be a number in (0, 1), got {nb.describe(threshold)}")
    D = np.abs(_nonzero(cosine_matrix(W, top=top, order=False)))
    off = ~np.eye(D.shape[0], dtype=bool)
    return float(np.mean(D[off] > threshold))


# ---------------------------------------------------------------------------
# eq. (7): the normalised flow, integrated
# ---------------------------------------------------------------------------
class NormalisedThreeLayer:
    """The normalised flow (7) as a model for :mod:`numerics.torch_flow`: the risk (3) of
    the network (1) with output factor ``kappa_3`` in place of ``1/alpha``
    (:func:`solvable.models.three_layer.risk` with ``alpha = 1/kappa_3``), blocks ``a``, ``W2``,
    ``W1`` (and ``b2``, ``b1``) at the rates ``1``, ``kappa_1^2``, ``kappa_2^2`` (the
    biases at their weight's rate: they are its extra column, Section 3), so that
    ``d thetabar/dtbar = -rate * grad Rbar`` is (7) (e_i inside the sum: see the erratum
    on (7) in :mod:`solvable.models.three_layer`)."""

    def __init__(self, X: Any, y: Any, kappas: tuple[float, float, float],
                 bias: bool = False) -> None:  # fmt: skip
        ks = nb.check_float_array("kappas", kappas, ndim=1)
        if ks.shape != (3,):
            raise ValueError(f"kappas must be three numbers (kappa_1, kappa_2, kappa_3), got "
                             f"{nb.describe(kappas)}")  # fmt: skip
        k1, k2, k3 = (float(k) for k in ks)
        if not all(math.isfinite(k) and k > 0 for k in (k1, k2, k3)):
            raise ValueError(f"kappas must be finite and > 0, got {kappas!r}")
        self.inner = ThreeLayerReLU(X, y, alpha=1.0 / k3, bias=bias)
        self.blocks = self.inner.blocks
        rate = {"a": 1.0, "W2": k1**2, "W1": k2**2, "b2": k1**2, "b1": k2**2}
        self.rates = {b: rate[b] for b in self.blocks}

    def loss(self, p: dict[str, Any]) -> Any:
        return self.inner.loss(p)


@dataclass(frozen=True)
class FlowComparison:
    """The raw flow (4) at times ``t`` rescaled by (6) (``raw_scaled``: blocks divided
    by their beta) and the normalised flow (7) at ``tbar = time_factor * t``
    (``normalised``), stacked per time ``(T, N)``; the scales used."""

    t: np.ndarray
    tbar: np.ndarray
    raw_scaled: np.ndarray
    normalised: np.ndarray
    alpha: float
    betas: tuple[float, float, float]
    kappas: tuple[float, float, float]
    time_factor: float


def normalised_vs_raw(
    gamma_2: Any = Fraction(7, 10),
    gamma_3: Any = Fraction(5, 2),
    m: int = 16,
    seed: int = 0,
    *,
    alpha_exponent: Any = Fraction(3, 10),
    times: Sequence[float] = (0.0, 0.25, 1.0, 4.0),
    rtol: float = 1e-11,
    bias: bool = False,
    time_factor_fn: Any = None,
    kappa_fn: Any = None,
) -> FlowComparison:
    """Integrate the raw gradient flow (4) (:class:`numerics.models.ThreeLayerReLU`, rate
    1, ``alpha``) from ``theta_0`` (the representative of ``(gamma_2, gamma_3)`` with
    ``alpha = m^s``, biases, ``rd_point``'s data) and the normalised flow (7)
    (:class:`NormalisedThreeLayer`) from ``thetabar_0 = D^-1 theta_0`` (eq. (6)), both by
    DOP853 at ``rtol`` in float64.  ``times`` are in units of the normalised time
    ``tbar``; the raw flow runs to ``t = tbar / (dtbar/dt)``.  The kappas and the time
    factor are the model's (:func:`solvable.models.three_layer.kappas`,
    :func:`solvable.models.three_layer.time_factor`, exact sympy, then floats);
    ``kappa_fn``/``time_factor_fn`` replace them (to test that a wrong one is caught).

    ``bias``: with biases, drawn as ``rd_point`` does (``b1 ~ N(0, beta_1^2)``, ``b2 ~
    N(0, beta_2^2)``: Section 3 folds each into its weight), normalised by the same
    beta and run at the same rate as their weight.  Then (7) is not exact: ``W2 h1``
    scales like ``beta_1 beta_2`` (``h1 = beta_1 relu(W1bar x + b1bar)``) but ``b2`` like
    ``beta_2`` (the 1 appended to ``h1`` is not rescaled), and no scale of ``b2`` helps,
    since its gradient then carries ``beta_1`` in the rate (``b2 = beta_1 beta_2 b2bar``
    gives ``d b2bar/dtbar = -(kappa_1/beta_1)^2 dRbar/d b2bar``); ``b1`` alone would be
    exact (``x`` is not rescaled).  The comparison measures the difference."""
    import torch

    kappa_fn = three_layer.kappas if kappa_fn is None else kappa_fn
    time_factor_fn = three_layer.time_factor if time_factor_fn is None else time_factor_fn
    for name, fn in (("kappa_fn", kappa_fn), ("time_factor_fn", time_factor_fn)):
        if not callable(fn):
            raise TypeError(f"{name} must be None or a callable, got {nb.describe(fn)}")
    s = _fraction("alpha_exponent", alpha_exponent)
    g2, g3 = _fraction("gamma_2", gamma_2), _fraction("gamma_3", gamma_3)
    m = _width(m)
    seed = _seed(seed)
    tb = nb.check_float_array("times", times, ndim=1)
    if tb.ndim != 1 or tb.size < 2 or tb[0] != 0 or np.any(np.diff(tb) <= 0):
        raise ValueError(f"times must start at 0 and increase, got {times!r}")
    sc = initial_scales(g2, g3, int(m), s)
    alpha, b1, b2, b3 = sc["alpha"], sc["beta_1"], sc["beta_2"], sc["beta_3"]
    ks = tuple(float(k) for k in kappa_fn(alpha, b1, b2, b3))
    tf = float(time_factor_fn(alpha, b1, b2, b3))
    X = np.array(_settings({})["x"], dtype=float)[:, None]
    y = np.array(_settings({})["y"], dtype=float)
    if not isinstance(bias, bool):
        raise TypeError(f"bias must be a bool, got {bias!r}")
    shapes = {"a": (m,), "W2": (m, m), "W1": (m, 1)}
    beta = {"a": b3, "W2": b2, "W1": b1, "b2": b2, "b1": b1}
    if bias:
        shapes.update(b2=(m,), b1=(m,))
    bar0 = initialise(shapes, 1, scale=1.0, seed=int(seed), device="cpu")
    raw0 = {k: beta[k] * v for k, v in bar0.items()}
    raw = gradient_flow(ThreeLayerReLU(X, y, alpha=alpha, bias=bias), raw0, tb / tf,
                        rtol=rtol, device="cpu")  # fmt: skip
    nor = gradient_flow(NormalisedThreeLayer(X, y, ks, bias=bias), bar0, tb, rtol=rtol,
                        device="cpu")  # fmt: skip

    def stack(params: Mapping[str, Any], scale: Mapping[str, float] | None) -> np.ndarray:
        cols = []
        for k in shapes:
            v = params[k][:, 0].reshape(len(tb), -1).to(torch.float64).numpy()
            cols.append(v / (scale[k] if scale else 1.0))
        return np.concatenate(cols, axis=1)

    return FlowComparison(tb / tf, tb, stack(raw.params, beta), stack(nor.params, None),
                          alpha, (b1, b2, b3), ks, tf)  # fmt: skip
