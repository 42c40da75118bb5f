"""Seed 001's Figure 5 (Xu & Ziyin, Appendix B.1): the alignment ``zeta`` of a two-layer
linear net from the Xavier+ and Kaiming+ initialisations, trained by full-batch gradient
descent (the paper's "SGD": one data point) and by Adam; the runs shared by the figure
``001-fig5`` and the claim ``xu_ziyin.figure_5``.

Optimiser settings (the paper states none but the initialisations and ``gamma``):

* data ``x = 1``, ``y = 2``, ``L = (f - y)^2``, ``f = gamma u^T W x``, ``eta_u = eta_w``
  (Appendix B); Xavier+: ``u, w ~ N(0, 1/d)``, ``gamma = 1``; Kaiming+: ``u ~ N(0, 1)``,
  ``w ~ N(0, 1/d)``, ``gamma = 1/d``; ``numpy.random.default_rng(0)``;
* GD: :func:`numerics.torch_flow.gradient_descent`, float64, ``steps`` steps of ``lr = 5
  t_c/steps`` (``t_c`` of eq. (11) at the initial weights): the flow over ``5 t_c``;
* Adam: ``torch.optim.Adam`` with ``betas = (0.9, 0.999)``, ``eps = 1e-8``, no weight decay,
  no amsgrad, ``lr = 10 s/steps``, ``s = sqrt(|y|/(gamma d))`` (the balanced weight scale at
  ``f = y``), float64, the same number of steps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.models import TwoLayerLinear
from numerics.torch_flow import gradient_descent
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import Tolerance, worst_of
from solvable.models import xu_ziyin as xz

SEED = xz.SEED
HORIZON = 5.0  # the span run, in units of t_c (eq. (11))
ADAM_REACH = 10.0  # Adam's lr = ADAM_REACH * s / steps, s the balanced weight scale
ADAM = {"betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0.0, "amsgrad": False}
SETTINGS = (
    "GD: full batch, float64, lr = 5 t_c/steps over 5 t_c; Adam: torch.optim.Adam, betas "
    "(0.9, 0.999), eps 1e-8, no weight decay, lr = 10 s/steps, s = sqrt(|y|/(gamma d))"
)
STEPS_FAST, STEPS_FULL = 400, 2000  # GD steps (and twice as many for the halved lr)
D_FAST, D_FULL = 1000, 10000  # widths: default, the paper's (--full)
# GD is the explicit Euler scheme of the flow: its error at a fixed time is first order in
# lr, so halving lr halves it.  A ratio within [1.6, 2.4] allows the O(lr^2) term (at lr =
# t_c/80 the second-order term is a few percent of the first) and seed noise-free rounding.
RATIO_BAND = (1.6, 2.4)
Y = 2.0


def initial_weights(kind: str, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, float]:
    """``(u0, w0, gamma)``: ``kind`` ``"xavier"`` (Table 1: c_u = c_w = -1, c_gamma^+ = 0:
    ``u, w ~ N(0, 1/d)``, ``gamma = 1``) or ``"kaiming"`` (c_u = 0, c_w = -1, c_gamma^+ =
    -1: ``u ~ N(0, 1)``, ``w ~ N(0, 1/d)``, ``gamma = 1/d``) (Appendix B.1)."""
    if kind not in ("xavier", "kaiming"):
        raise ValueError(f"kind must be 'xavier' or 'kaiming', got {kind!r}")
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d) / math.sqrt(d)
    if kind == "xavier":
        return rng.standard_normal(d) / math.sqrt(d), w, 1.0
    return rng.standard_normal(d), w, 1.0 / d


def alignment_of(setup: xz.Setup, u: np.ndarray, W: np.ndarray) -> np.ndarray:
    """``zeta`` measured from weights (:meth:`solvable.models.xu_ziyin.State.from_weights`),
    per row of ``u`` (T, d), ``W`` (T, d, 1)."""
    return np.array([float(xz.State.from_weights(setup, 0.0, uu, ww).alignment)
                     for uu, ww in zip(u, W, strict=True)])  # fmt: skip


def gd_alignment(setup: xz.Setup, u0: np.ndarray, w0: np.ndarray, lr: float,
                 record: np.ndarray, device: Any = "cpu") -> np.ndarray:  # fmt: skip
    """``zeta`` of full-batch gradient descent (:func:`numerics.torch_flow.gradient_descent`
    on :class:`numerics.models.TwoLayerLinear`) at the steps ``record``."""
    model = TwoLayerLinear([1.0], setup.y, setup.gamma)
    res = gradient_descent(model, {"u": u0[None], "W": w0[None, :, None]}, lr, record,
                           device=device)  # fmt: skip
    return alignment_of(setup, res.params["u"][:, 0].cpu().numpy(),
                        res.params["W"][:, 0].cpu().numpy())  # fmt: skip


def adam_alignment(setup: xz.Setup, u0: np.ndarray, w0: np.ndarray, lr: float,
                   record: np.ndarray) -> tuple[np.ndarray, float]:  # fmt: skip
    """Adam (:data:`ADAM`, ``lr``) on ``L = (f - y)^2`` of
    :class:`numerics.models.TwoLayerLinear`: ``zeta`` at ``record`` and the final loss."""
    import torch  # the optional dependency (solvable[torch]), third-party

    model = TwoLayerLinear([1.0], setup.y, setup.gamma)
    p = {"u": torch.tensor(u0[None]), "W": torch.tensor(w0[None, :, None])}
    for v in p.values():
        v.requires_grad_(True)
    opt = torch.optim.Adam(list(p.values()), lr=lr, **ADAM)
    us, Ws, k = [], [], 0
    for target in record:
        while k < target:
            opt.zero_grad()
            model.loss(p).sum().backward()
            opt.step()
            k += 1
        us.append(p["u"][0].detach().numpy().copy())
        Ws.append(p["W"][0].detach().numpy().copy())
    return alignment_of(setup, np.array(us), np.array(Ws)), float(model.loss(p).sum().detach())


def gd_errors(kind: str, d: int, steps: int) -> tuple[float, float]:
    """The largest ``|zeta_GD - zeta(t = k lr)|`` (Theorem 1) over 11 recorded times in
    ``[0, 5 t_c]``, for ``lr = 5 t_c/steps`` and for ``lr/2`` (``2 steps``)."""
    u0, w0, gamma = initial_weights(kind, d)
    setup = xz.Setup(1, 1, gamma, [1.0], Y)
    traj = xz.closed_form(setup, u0, w0[:, None])
    out = []
    for n in (steps, 2 * steps):
        lr = HORIZON * float(traj.t_c) / n
        record = np.arange(0, n + 1, n // 10)
        z = gd_alignment(setup, u0, w0, lr, record)
        out.append(float(np.max(np.abs(z - traj.sample(record * lr).alignment))))
    return out[0], out[1]


def adam_changes(kind: str, d: int, steps: int) -> tuple[float, float]:
    """``zeta(end) - zeta(0)`` of GD and of Adam (settings above) after ``steps`` steps."""
    u0, w0, gamma = initial_weights(kind, d)
    setup = xz.Setup(1, 1, gamma, [1.0], Y)
    t_c = float(xz.closed_form(setup, u0, w0[:, None]).t_c)
    record = np.array([0, steps])
    z_gd = gd_alignment(setup, u0, w0, HORIZON * t_c / steps, record)
    lr = ADAM_REACH * math.sqrt(abs(Y) / (gamma * d)) / steps
    z_adam, _ = adam_alignment(setup, u0, w0, lr, record)
    return float(z_gd[1] - z_gd[0]), float(z_adam[1] - z_adam[0])


def figure_5_verdict(errors: dict[str, tuple[float, float]],
                     changes: dict[str, tuple[float, float]] | None = None) -> Verdict:  # fmt: skip
    """Confirmed when, for each initialisation, GD's distance to Theorem 1 halves with the
    step (ratio in :data:`RATIO_BAND`: GD is the flow to first order, the flow is the closed
    form) and, where Adam was run (``changes``: GD's and Adam's change of zeta), GD changes
    zeta more than Adam from Kaiming+ (the paper's "SGD leads to a larger change in
    alignment in the Kaiming+ initialization").  Xavier+'s GD-Adam gap is reported, not
    asserted: with these settings it is not smaller than Kaiming+'s (see the detail)."""
    bad, parts = [], []
    for kind, (e1, e2) in errors.items():
        ratio = e1 / e2 if e2 > 0 else math.inf
        parts.append(f"{kind}: |GD - Theorem 1| {e1:.2e} (lr), {e2:.2e} (lr/2), ratio "
                     f"{ratio:.2f}")  # fmt: skip
        if not RATIO_BAND[0] <= ratio <= RATIO_BAND[1]:
            bad.append(kind)
    for kind, (gd, adam) in (changes or {}).items():
        parts.append(f"{kind}: change of zeta GD {gd:+.3f}, Adam {adam:+.3f}")
        if kind == "kaiming" and not abs(gd) > abs(adam):
            bad.append(f"{kind} (Adam)")
    detail = "; ".join(parts) + f" [{SETTINGS}]"
    if bad or not errors:
        return Verdict("failed", f"fails for {bad or 'nothing run'}: {detail}")
    worst = worst_of(*(abs(e1 / e2 - 2.0) / 0.4 for e1, e2 in errors.values()))
    return Verdict.from_error(worst, detail, Tolerance(1.0, 0.0, "ratio 2 +- 0.4"))


def _figure_5(full: bool = False) -> Verdict:
    """Figure 5: GD against Theorem 1 at two step sizes for Xavier+ and Kaiming+ (d = 1000,
    400 steps by default; --full: d = 10000, 2000 steps, and Adam)."""
    d, steps = (D_FULL, STEPS_FULL) if full else (D_FAST, STEPS_FAST)
    kinds: Sequence[str] = ("xavier", "kaiming")
    errors = {k: gd_errors(k, d, steps) for k in kinds}
    changes = {k: adam_changes(k, d, steps) for k in kinds} if full else None
    return figure_5_verdict(errors, changes)


def claims() -> list[Theorem]:
    """The claim of Figure 5."""
    return [
        Theorem("xu_ziyin.figure_5", f"{SEED} Figure 5, Appendix B.1",
                "From Xavier+ and Kaiming+ (d = 1000; --full the paper's 10000), full-batch "
                "GD's zeta approaches Theorem 1's as lr -> 0 (error halves with lr); --full "
                "adds Adam: GD changes zeta more than Adam from Kaiming+. Settings: "
                + SETTINGS + ".", "numeric", _figure_5),
    ]  # fmt: skip
