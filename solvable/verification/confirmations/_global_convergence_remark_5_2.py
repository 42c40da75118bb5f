"""Seed 000 Remark 5.2 in numbers (the symbolic side is
``global_convergence.remark_5_2_input_scaling``): the package's NTG (7) and mean NTG (10)
against the network without the ``1/sqrt(d)`` scaling, differentiated by torch autograd.

* the NTG: :func:`solvable.models.ntg.ntg` on unit-norm inputs ``X`` (scale ``sqrt(d)``)
  equals the Jacobian Gram of the unscaled network (:func:`network_output` at scale 1) on
  ``X/sqrt(d)``;
* the mean NTG with ``d`` set to 1: :func:`solvable.models.ntg.mean_ntg` at ``sqrt(d) X``
  (whose Gram matrix ``d X X^T/d = X X^T`` and scales ``|x_i|`` are those of (10) with
  ``d = 1``) agrees with a Monte Carlo over the nodes of the unscaled network on ``X``,
  while :func:`mean_ntg` at ``X`` (the scaled network's, with its ``d``) does not: ``d``
  enters (10) only through the scaling, and it does enter.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics.node_scaling_experiment import sphere_data
from numerics.torch_flow import threads
from solvable._core.activations import elementwise
from solvable._core.claims import Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, worst_of
from solvable.models import ntg
from solvable.models.node_scaling import network_output

# The NTG identity is exact in real arithmetic; the two float64 evaluations (closed form
# of ntg.ntg against autograd through network_output) differ by rounding: entries O(1),
# sums over m <= 64 nodes, so 1e-12 relative leaves a factor ~1e3 over the ~1e-15 seen.
_NTG_TOL = Tolerance(rtol=1e-12, reason="float64 rounding of two evaluations of one exact "
                     "identity (m <= 64 nodes)")  # fmt: skip
# The Monte Carlo mean of m i.i.d. node terms: 5 standard errors (per entry, n (n + 1)/2
# entries: a false alarm at 5 SE has probability < 1e-5 over the 21 entries of n = 6), and
# the scaled mean NTG must sit more than 5 SE away from it (d enters).
_MC_SE = 5.0
_MC_TOL = Tolerance(rtol=1.0, reason="|mean_ntg(sqrt(d) X) - MC| within 5 standard errors "
                    "of the MC mean per entry, and |mean_ntg(X) - MC| beyond 5 SE somewhere "
                    "(figure = the worse of the two ratios; <= 1 passes)")  # fmt: skip


def remark_5_2_measure(*, n: int = 6, d: int = 5, m_ntg: int = 16, m_mc: int = 20000,
                       seed: int = 0, activation: str = "swish") -> dict[str, Any]:  # fmt: skip
    """The numbers :func:`judge_remark_5_2` reads: ``ntg_scaled`` (:func:`ntg.ntg` at ``X``)
    and ``ntg_unscaled`` (autograd Gram of the unscaled network at ``X/sqrt(d)``), one
    random network of width ``m_ntg``; ``mean_d1`` (:func:`ntg.mean_ntg` at ``sqrt(d) X``),
    ``mean_scaled`` (at ``X``), and the Monte Carlo mean ``mc`` and its standard error
    ``mc_se`` over ``m_mc`` nodes ``w ~ N(0, I_d)`` of the unscaled network's per-node
    Gram ``J_j J_j^T`` (``lambda_j = a_j = 1``)."""
    import torch

    X, _ = sphere_data(n, d, seed=seed)
    rng = np.random.default_rng(seed + 1)
    sig = elementwise(activation, "torch")
    out: dict[str, Any] = {"n": n, "d": d, "m_ntg": m_ntg, "m_mc": m_mc, "activation": activation}

    def gram(W: np.ndarray, a: np.ndarray, s: np.ndarray, inputs: np.ndarray) -> Any:
        Wt = torch.tensor(W, dtype=torch.float64, requires_grad=True)
        args = [torch.tensor(v, dtype=torch.float64) for v in (a, s, inputs)]
        f = network_output(Wt, args[0], args[1], args[2], sig, 1.0)
        J = torch.stack([torch.autograd.grad(f[i], Wt, retain_graph=True)[0] for i in range(n)])
        return J.detach().numpy()  # (n, m, d)

    with threads(1):
        W = rng.normal(size=(m_ntg, d))
        a = rng.choice([-1.0, 1.0], size=m_ntg)
        lam = rng.dirichlet(np.ones(m_ntg))
        J = gram(W, a, np.sqrt(lam), X / math.sqrt(d)).reshape(n, -1)
        out["ntg_scaled"] = ntg.ntg(X, W, a, lam, activation)
        out["ntg_unscaled"] = J @ J.T
        Wm = rng.normal(size=(m_mc, d))
        Jm = gram(Wm, np.ones(m_mc), np.ones(m_mc), X)  # (n, m, d), node j's gradient
        per_node = np.einsum("imd,kmd->mik", Jm, Jm)  # (m, n, n)
    out["mc"] = per_node.mean(0)
    out["mc_se"] = per_node.std(0, ddof=1) / math.sqrt(m_mc)
    out["mean_d1"] = ntg.mean_ntg(math.sqrt(d) * X, activation)
    out["mean_scaled"] = ntg.mean_ntg(X, activation)
    return out


def judge_remark_5_2(r: dict[str, Any]) -> Verdict:
    """``confirmed`` when (i) ``max |ntg_scaled - ntg_unscaled| / max |ntg_unscaled|`` is
    within 1e-12, (ii) every entry of ``mean_d1`` is within 5 ``mc_se`` of ``mc``, and
    (iii) some entry of ``mean_scaled`` is more than 5 ``mc_se`` from ``mc``; the figure is
    the worst of (i)/1e-12, (ii) ``max |mean_d1 - mc|/(5 se)`` and (iii) ``5 se/max |mean_
    scaled - mc|`` (a NaN, an empty array or a zero standard error fails)."""
    worst = NOTHING_COMPARED
    A, B = np.asarray(r["ntg_scaled"], float), np.asarray(r["ntg_unscaled"], float)
    mc, se = np.asarray(r["mc"], float), np.asarray(r["mc_se"], float)
    d1, sc = np.asarray(r["mean_d1"], float), np.asarray(r["mean_scaled"], float)
    shapes = {mc.shape, se.shape, d1.shape, sc.shape}
    if A.size == 0 or A.shape != B.shape or mc.size == 0 or len(shapes) != 1:
        return Verdict.from_error(math.nan, "empty or mismatched measurement", _MC_TOL)
    scale = float(np.max(np.abs(B)))
    ntg_err = float(np.max(np.abs(A - B))) / scale / _NTG_TOL.rtol if scale > 0 else math.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        z_d1 = np.abs(d1 - mc) / se
        z_sc = np.abs(sc - mc) / se
    agree = float(np.max(z_d1)) / _MC_SE if np.all(se > 0) else math.nan
    apart = _MC_SE / float(np.max(z_sc)) if np.all(se > 0) else math.nan
    worst = worst_of(worst, ntg_err, agree, apart)
    detail = (
        f"{r['activation']}, n = {r['n']}, d = {r['d']}: NTG (7) at X against the unscaled "
        f"network's autograd Gram at X/sqrt(d) (m = {r['m_ntg']}): relative difference "
        f"{ntg_err * _NTG_TOL.rtol:.2e}; mean NTG (10) with d = 1 (mean_ntg at sqrt(d) X) "
        f"against a Monte Carlo of the unscaled network over {r['m_mc']} nodes: max "
        f"{float(np.max(z_d1)):.2f} SE; the scaled mean NTG (mean_ntg at X) is "
        f"{float(np.max(z_sc)):.3g} SE from it (d enters through the scaling)"
    )
    return Verdict.from_error(worst, detail, _MC_TOL)


def remark_5_2_numeric(full: bool = False) -> Verdict:
    """The claim ``global_convergence.remark_5_2_numeric`` (``full``: 200 000 nodes)."""
    return judge_remark_5_2(remark_5_2_measure(m_mc=200_000 if full else 20_000))
