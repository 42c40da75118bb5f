"""The named initialisations of seed 001 every cross-check runs over (:data:`CASES`).

Exact decimal strings, so a case means the same thing at every precision; the degenerate
cases P = 0, Q = 0 and P = Q = 0 (Proposition 1, the saddle) are exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvable.models.xu_ziyin.setups import Setup


# ---------------------------------------------------------------------------
# Named initialisations every cross-check runs over (exact decimal strings, so a case means
# the same thing at every precision; the degenerate cases P = 0, Q = 0, P = Q = 0 are exact)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One initial condition of the two-layer model with what it exercises."""

    name: str
    setup: Setup
    u0: tuple[str, ...]
    W0: tuple[tuple[str, ...], ...]
    covers: str


def _case(name, covers, *, eta_u="1", eta_w="0.5", gamma="0.7", x=("1", "2"), y="1.5", u0, W0):
    setup = Setup(eta_u=eta_u, eta_w=eta_w, gamma=gamma, x=x, y=y)
    return Case(name, setup, tuple(u0), tuple(tuple(r) for r in W0), covers)


_U = ("0.8", "-0.3", "1.1")
_W = (("0.2", "-0.5"), ("1.3", "0.4"), ("-0.7", "0.9"))
# x = (3, 4): rho = 5 exactly; with eta_u = 4, eta_w = 1 the unit p_i vanishes
# exactly when (W x)_i = -(5/2) u_i, and q_i vanishes when (W x)_i = +(5/2) u_i.
_ANTI_W = (("-0.5", "-0.25"), ("0.125", "0.25"), ("-0.5", "0.25"))  # W x = -2.5 u
_ANTI_U = ("1", "-0.55", "0.2")
_PAR_W = (("0.5", "0.25"), ("-0.125", "-0.25"), ("0.5", "-0.25"))  # W x = +2.5 u

CASES: tuple[Case, ...] = (
    _case("generic", "eta_u != eta_w, d0 = 2, y > 0", u0=_U, W0=_W),
    _case("y_negative", "y < 0", y="-1.2", u0=_U, W0=_W),
    _case("y_zero", "y = 0 (D = 2 sqrt(AC))", y="0", u0=_U, W0=_W),
    _case(
        "P_greater_Q", "P > Q (u and W x positively correlated)", u0=("0.9", "0.4", "-0.6"),
        W0=(("0.5", "0.3"), ("0.1", "0.2"), ("-0.4", "-0.1")),
    ),
    _case(
        "P_less_Q", "P < Q (wrong-sign initial output)", u0=("0.9", "0.4", "-0.6"),
        W0=(("-0.5", "-0.3"), ("-0.1", "-0.2"), ("0.4", "0.1")),
    ),
    _case(
        "P_approx_Q", "P ~ Q (u orthogonal to W x, f0 = 0)", u0=("1", "1", "0"),
        W0=(("0.2", "0.1"), ("-0.2", "-0.1"), ("0.3", "0.4")),
    ),
    _case(
        "near_parallel", "near-parallel layers (Q ~ 1e-9 P)", eta_u="4", eta_w="1",
        x=("3", "4"), y="1",
        u0=_ANTI_U, W0=(("0.5", "0.25"), ("-0.125", "-0.25"), ("0.5001", "-0.25")),
    ),
    _case(
        "near_antiparallel", "near-antiparallel layers (P ~ 1e-9 Q)", eta_u="4", eta_w="1",
        x=("3", "4"), y="1",
        u0=_ANTI_U, W0=(("-0.5", "-0.25"), ("0.125", "0.25"), ("-0.5001", "0.25")),
    ),
    _case(
        "tiny_init", "near-saddle initialisation (scale 1e-6)", y="1",
        u0=("1e-6", "-2e-6", "0.5e-6"), W0=(("1e-6", "0"), ("0", "1e-6"), ("-1e-6", "1e-6")),
    ),
    _case(
        "large_init", "large initialisation (scale 1e3, kernel-like)", gamma="0.01", y="1",
        u0=("1e3", "-2e3", "0.5e3"), W0=(("1e3", "0"), ("0", "1e3"), ("-1e3", "1e3")),
    ),
    _case(
        "P_zero_y_positive", "P = 0 exactly, y > 0 (Proposition 1: converges to the saddle)",
        eta_u="4", eta_w="1", x=("3", "4"), y="1", u0=_ANTI_U, W0=_ANTI_W,
    ),
    _case(
        "P_zero_y_negative", "P = 0 exactly, y < 0 (Proposition 1: reaches y)",
        eta_u="4", eta_w="1", x=("3", "4"), y="-1", u0=_ANTI_U, W0=_ANTI_W,
    ),
    _case(
        "Q_zero_y_negative", "Q = 0 exactly, y < 0 (alpha_plus = 0: converges to the saddle)",
        eta_u="4", eta_w="1", x=("3", "4"), y="-1", u0=_ANTI_U, W0=_PAR_W,
    ),
    _case(
        "saddle", "P = Q = 0 (u = 0, W = 0): stays at the saddle", y="1",
        u0=("0", "0", "0"), W0=(("0", "0"), ("0", "0"), ("0", "0")),
    ),
    _case(
        "d0_1_negative_x", "d0 = 1 with x < 0 (rho = |x|), d = 2", x=("-2",), y="0.8",
        eta_u="0.3", eta_w="2", u0=("0.5", "-1.5"), W0=(("0.7",), ("0.2",)),
    ),
    _case(
        "d0_1_disalign", "d0 = 1, near-parallel large init (learning by disalignment)",
        x=("1",), y="2", eta_u="1", eta_w="1", gamma="0.1",
        u0=("3", "-2", "4", "1"), W0=(("3.1",), ("-1.9",), ("4.05",), ("0.9",)),
    ),
    _case(
        "d0_1_align", "d0 = 1, small generic init (learning by alignment)",
        x=("1.5",), y="2", eta_u="2", eta_w="0.5", gamma="1",
        u0=("0.01", "-0.02", "0.015"), W0=(("-0.012",), ("0.007",), ("0.02",)),
    ),
)  # fmt: skip


def case(name: str) -> Case:
    """Look a case up by name."""
    for c in CASES:
        if c.name == name:
            return c
    names = ", ".join(c.name for c in CASES)
    raise ValueError(f"name must be one of {names}; got {name!r}")
