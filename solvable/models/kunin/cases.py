"""Seed 003 (Kunin et al.), the named initial conditions of the single neuron (exact decimal
strings) that every cross-check runs over: :class:`Case`, ``CASES`` and :func:`case`.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvable.models.kunin.setups import Setup


# ---------------------------------------------------------------------------
# Named initialisations every cross-check runs over (exact decimal strings)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One initial condition of the single-neuron model of seed 003."""

    name: str
    setup: Setup
    a0: str
    w0: tuple[str, ...]
    covers: str


# X has orthonormal columns (X^T X = I): beta* = X^T y = (1, 0.5)
_KX = (("0.6", "0.8"), ("-0.8", "0.6"), ("0", "0"))
_KY = ("1", "-0.5", "2")


def _kcase(name, covers, a0, w0, *, eta_a="1", eta_w="0.5", X=_KX, y=_KY):
    return Case(name, Setup(eta_a, eta_w, X, y), a0, tuple(w0), covers)


CASES: tuple[Case, ...] = (
    _kcase("upstream", "delta > 0, unequal rates", "1.2", ("0.2", "0.3")),
    _kcase("downstream", "delta < 0", "0.3", ("0.1", "-0.4")),
    _kcase("balanced", "delta = 0 exactly (eta_w a^2 = eta_a |w|^2)", "1", ("0.5", "0.5")),
    _kcase("negative_a", "a0 < 0", "-0.8", ("0.3", "0.2")),
    _kcase("parallel", "beta0 parallel to beta*", "0.5", ("0.4", "0.2")),
    _kcase("antiparallel", "beta0 antiparallel to beta*", "0.5", ("-0.4", "-0.2")),
    _kcase("orthogonal", "beta0 orthogonal to beta*", "0.5", ("-0.2", "0.4")),
    _kcase("lazy", "delta >> |beta| (lazy)", "10", ("0.1", "0.1")),
    _kcase("delayed_rich", "delta << -|beta| (delayed rich)", "0.01", ("3", "-2")),
    _kcase("origin", "a = 0, w = 0: the saddle, stays", "0", ("0", "0")),
    _kcase("scaled_inputs", "X^T X = 4 I (s = 4)", "0.3", ("0.1", "-0.4"),
           X=(("1.2", "1.6"), ("-1.6", "1.2"), ("0", "0"))),
    _kcase("zero_target", "X^T y = 0 (beta* = 0)", "0.7", ("0.2", "-0.3"), y=("0", "0", "2")),
    _kcase("balanced_zero_target", "delta = 0 and beta* = 0 (Omega = 0)", "1", ("0.5", "0.5"),
           y=("0", "0", "2")),
)  # fmt: skip


def case(name: str) -> Case:
    """Look a case up by name."""
    for c in CASES:
        if c.name == name:
            return c
    names = ", ".join(c.name for c in CASES)
    raise ValueError(f"name must be one of {names}; got {name!r}")
