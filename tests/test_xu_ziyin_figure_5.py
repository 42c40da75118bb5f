"""Seed 001's Figure 5 claim (``xu_ziyin.figure_5``, module ``xu_ziyin_figure_5``):
registered, confirmed by default, failing when GD does not approach Theorem 1 at first
order or when Adam changes zeta more than GD from Kaiming+; the stated optimiser settings
are those the runs use."""

from __future__ import annotations

import numpy as np
import pytest

from solvable.verification import theorems
from solvable.verification import xu_ziyin_figure_5 as f5
from solvable.verification.figures import seed_001


def test_registered_and_confirmed():
    (claim,) = [t for t in theorems.registry() if t.id == "xu_ziyin.figure_5"]
    assert claim.kind == "numeric" and "Figure 5" in claim.source
    assert f5.SETTINGS in claim.statement
    v = claim.verify()
    assert v.status == "confirmed", v.detail
    assert "xavier" in v.detail and "kaiming" in v.detail


@pytest.mark.parametrize("errors", [{"xavier": (1e-3, 1e-3)}, {"xavier": (4e-3, 1e-3)},
                                    {"xavier": (1e-3, 0.0)}, {}])  # fmt: skip
def test_verdict_fails_off_first_order(errors):
    assert f5.figure_5_verdict(errors).status == "failed"


def test_verdict_on_adam_changes():
    ok = {"kaiming": (2e-3, 1e-3)}
    assert f5.figure_5_verdict(ok, {"kaiming": (0.9, 0.8)}).status == "confirmed"
    assert f5.figure_5_verdict(ok, {"kaiming": (0.8, 0.9)}).status == "failed"
    # Xavier+ is reported, not asserted
    assert f5.figure_5_verdict(ok, {"xavier": (0.1, 0.9)}).status == "confirmed"


def test_initial_weights():
    u, w, gamma = f5.initial_weights("kaiming", 400)
    assert gamma == 1 / 400 and np.std(u) > 5 * np.std(w)
    u, w, gamma = f5.initial_weights("xavier", 400)
    assert gamma == 1.0 and 0.5 < np.std(u) / np.std(w) < 2
    with pytest.raises(ValueError, match="kind must be"):
        f5.initial_weights("lecun", 4)


def test_adam_uses_the_stated_settings(monkeypatch):
    import torch

    seen = {}
    real = torch.optim.Adam

    def spy(params, **kw):
        seen.update(kw)
        return real(params, **kw)

    monkeypatch.setattr(torch.optim, "Adam", spy)
    u, w, gamma = f5.initial_weights("xavier", 8)
    setup = seed_001.xz.Setup(1, 1, gamma, [1.0], f5.Y)
    z, loss = f5.adam_alignment(setup, u, w, 1e-3, np.array([0, 3]))
    assert seen == {"lr": 1e-3, **f5.ADAM} and z.shape == (2,) and np.isfinite(loss)


def test_the_figure_uses_the_claims_runs():
    assert seed_001.FIG5_STEPS == f5.STEPS_FULL
    (fig,) = [x for x in seed_001.FIGURES if x.id == "001-fig5"]
    assert "betas (0.9, 0.999)" in fig.caption and "xu_ziyin.figure_5" in fig.caption
