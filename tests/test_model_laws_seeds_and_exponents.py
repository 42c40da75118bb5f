"""More details of the models that a user can observe and that no other test pins: a
conservation law is a frozen value, so its registered claim keeps proving what it states;
a model refuses a ``seed`` that is not a seed file name; the claim
``lazy_training.exponent_printed_form`` fails on a wrong exponent; and the float64
isotropy check of ``kunin.closed_form`` decides as soon as ``isotropy_rtol`` clears its
documented rounding bound (no fallback to the exact check)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from solvable import Model
from solvable.models import kunin, mirror_flow
from solvable.models import lazy_training as lt
from solvable.verification.theorems import select


def _claim(claim_id: str):
    (claim,) = [c for c in select(claim_id.split(".")[0] + ".*") if c.id == claim_id]
    return claim


# ---------------------------------------------------------------------------
# _core.conservation: a law is data, its claim reads it
# ---------------------------------------------------------------------------
def test_a_conservation_law_cannot_be_reassigned_under_its_claim():
    """``ConservationLaw`` is data (its module docstring): a law's fields cannot be reassigned
    once it exists (``FrozenInstanceError``), so the claim it registered (which reads
    ``expression`` when it runs) still proves the law as stated, and equal laws hash alike."""
    law = mirror_flow.laws()[0]
    claim = law.claim()
    not_conserved = law.flow.state[0] ** 2  # a_0^2 alone changes along the flow
    assert law.flow.ddt(not_conserved) != 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        law.expression = not_conserved
    assert law.residual() == 0
    verdict = claim.verify()
    assert verdict.status == "proved", verdict.detail
    twin = dataclasses.replace(law)
    assert twin == law and hash(twin) == hash(law)


# ---------------------------------------------------------------------------
# _core.model: the seed of a model
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "seed",
    [
        "paper.txt",
        "001_0123456789abcdef",  # no .txt
        "001_0123456789ABCDEF.txt",  # not lower-case hex
        "001_0123456789abcde.txt",  # 15 hex digits
        "1_0123456789abcdef.txt",  # not three digits
        "",
    ],
)
def test_a_model_refuses_a_seed_that_is_not_a_seed_file_name(seed):
    """``Model.seed`` is the paper, a seed file name ``00k_<16 hex>.txt`` (as every claim's
    source cites it): any other string is a ``ValueError`` quoting it; a seed file name is
    accepted."""
    ok = Model(name="demo", seed="001_0123456789abcdef.txt", title="Demo", claims=tuple)
    assert ok.seed == "001_0123456789abcdef.txt"
    with pytest.raises(ValueError) as info:
        Model(name="demo", seed=seed, title="Demo", claims=tuple)
    want = f"seed must be a seed file name like 001_<16 hex>.txt, got {seed!r}"
    assert str(info.value) == want


# ---------------------------------------------------------------------------
# lazy_training.exponent_printed_form: a wrong exponent fails
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("shift", [sp.Rational(1, 4), sp.Rational(-1, 4)])
def test_printed_exponent_claim_fails_on_a_shifted_exponent(monkeypatch, shift):
    """The claim checks that the printed (3.10), ``1/sqrt(p) + 1/(p alpha)`` at ``alpha =
    p^a``, is ``Theta(p^e)`` with ``e = lazy_criterion_exponent(a)``: ``p^(-e)`` times it has
    a finite positive limit in every regime of ``a``.  With ``e`` off by ``+1/4`` that limit
    is 0 (not positive), with ``-1/4`` it is ``oo`` (not finite): both fail; the package's
    ``e`` is proved."""
    claim = _claim("lazy_training.exponent_printed_form")
    assert claim.verify().status == "proved"
    real = lt.lazy_criterion_exponent
    monkeypatch.setattr(lt, "lazy_criterion_exponent", lambda a: real(a) + shift)
    verdict = claim.verify()
    assert verdict.status == "failed", verdict.detail
    assert ("-> 0;" if shift > 0 else "-> oo;") in verdict.detail


# ---------------------------------------------------------------------------
# kunin: the float64 isotropy check decides at its documented bound
# ---------------------------------------------------------------------------
def test_float64_isotropy_check_accepts_just_above_its_rounding_bound():
    """``closed_form`` checks float64 data within ``2^-400 .. 2^400`` in float64 arithmetic
    (the exact check's refusal for work says so) with a rigorous bound on the rounding of
    ``G = fl(X^T X)``: ``gamma_n |x_p| |x_q|`` with ``|x_p|^2 <= G_pp / (1 - gamma_n)`` (the
    docstring of ``_isotropy_f64``), plus ``2 u (max|G - s I| + s)`` for the rounding of ``G -
    s I`` and of ``s``.  Data ``X = 2^33 I`` (n = d = 800) with one entry ``2^-400``: ``s =
    2^66`` (within the float64 range of the constants), ``max|G - s I| = 2^-367``, so the
    bound is ``(gamma_n / (1 - gamma_n) + 2 u) s``; an ``isotropy_rtol`` 2e-12 above it is
    accepted in float64.  The exact check of these entries (434 bits over one denominator:
    21 limbs, 2.3e11 multiply-adds) would refuse them for work."""
    n = 800
    X = np.zeros((n, n))
    X[np.diag_indices(n)] = 2.0**33
    X[0, 1] = 2.0**-400
    setup = kunin.Setup(1, 1, X, np.zeros(n))
    u = Fraction(1, 2**53)
    gamma = n * u / (1 - n * u)
    bound = gamma / (1 - gamma) + 2 * u
    # 2e-12 relative: far above the rounding factors of the bound left out here (a few
    # units: about 3e-15 relative), so that the documented bound is cleared
    rtol = float(bound * (1 + Fraction(2, 10**12)))
    try:
        traj = kunin.closed_form(setup, 0.0, np.zeros(n), isotropy_rtol=rtol)
    except ValueError as exc:  # the exact check's refusal for work
        pytest.fail(f"not decided in float64 at isotropy_rtol = bound (1 + 2e-12): {exc}")
    assert traj.s == 2.0**66
