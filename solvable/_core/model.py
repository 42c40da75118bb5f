"""The model protocol: what a model module provides to the rest of the package.

Every module listed in :data:`solvable.MODELS` (one per paper or model: ``xu_ziyin``,
``kunin``, ``phases``, ...) defines ``MODEL = Model(...)``:

* ``name`` (its import name, the prefix of every claim id), ``seed`` (the paper), ``title``;
* ``claims()``: its claims (symbolic proofs, and numeric checks of its own evaluators);
  simulation-backed confirmations live in the verification layer,
  :mod:`solvable.verification.confirmations`, in a module of the same name, found by that name;
* ``errata()``: its disagreements with the printed paper, as data with checks;
* ``laws()``: its conservation laws (each becomes a symbolic claim);
* ``systems``: its losses in parameter space (:class:`System`), which
  :func:`numerics.simulate` integrates (the one dispatch table is built from these);
* ``tables``: the paper's tables it recomputes, printed by ``solvable phases``.

:class:`System` is the extension point for a simulatable model, in the manner of scipy's
``OdeSolver`` or diffrax's ``AbstractSolver``: subclass it, implement the abstract members,
and list an instance in ``MODEL.systems``.  Its ``loss`` is the model's one definition of
the objective, written as array code that runs on numpy object arrays (sympy symbols, from
which the sympy gradient flow is derived; mpmath numbers), on float64 arrays and on batched
torch tensors (leading batch axes).

Adding a model therefore takes one module (with its ``MODEL``) and one line in
:data:`solvable.MODELS`.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from solvable._core.claims import Erratum, Theorem
from solvable._core.conservation import ConservationLaw
from solvable._core.flows import GradientFlow
from solvable._core.states import StackedStates

__all__ = ["SEED_PATTERN", "Model", "System", "Trajectory"]

SEED_PATTERN = re.compile(r"00[0-9]_[0-9a-f]{16}\.txt")
"""The seed file names (``../shared/seeds/``) that sources cite."""


@runtime_checkable
class Trajectory(Protocol):
    """An exact solution from one initialisation: the state at one time ``t`` in
    ``[0, inf)`` (``at``) or at many (``sample``, arrays with a leading time axis), with the
    model's reported constants as attributes; ``dps`` is None for float64, else the digits."""

    dps: int | None

    def at(self, t: Any) -> Any: ...

    def sample(self, times: Any) -> Any: ...


class System(abc.ABC):
    """A model's loss in parameter space and how its raw gradient flow is simulated.

    Class attributes: ``setup_type`` (the frozen ``Setup`` dataclass that
    :func:`numerics.simulate` dispatches on) and ``blocks`` (the parameter blocks in the
    order of the flat state).  ``numerics.simulate(setup, out0, in0, ...)`` passes the
    output layer as ``out0`` and the input layer (or, for deeper nets, a tuple of the other
    blocks) as ``in0`` to :meth:`initial`.
    """

    setup_type: ClassVar[type]
    blocks: ClassVar[tuple[str, ...]]

    def polynomial(self, setup: Any) -> bool:
        """Whether the vector field is polynomial in the parameters (the mpmath Taylor
        integrator needs it; linear networks are, ReLU / tanh / swish ones are not)."""
        return True

    @abc.abstractmethod
    def example(self) -> tuple[Any, Any, Any]:
        """A small instance ``(setup, out0, in0)`` (exact decimal strings), used by the generic
        tests of every system and as a starting point in the documentation."""

    @abc.abstractmethod
    def initial(self, setup: Any, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        """The validated initial weights, one object array of the given numbers (exact) per
        block of :attr:`blocks`; a bad value is a ``ValueError``/``TypeError`` naming
        ``out0`` or ``in0``."""

    @abc.abstractmethod
    def flow(self, setup: Any, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        """The sympy gradient flow of :meth:`loss` for blocks of these shapes (cached)."""

    @abc.abstractmethod
    def flow_parameters(self, setup: Any, convert: Callable[[Any], Any]) -> list[Any]:
        """The values of ``flow(...).params`` for ``setup``, each passed through ``convert``."""

    @abc.abstractmethod
    def rates(self, setup: Any) -> dict[str, float]:
        """The learning rate of each block (0 for a block that does not train)."""

    @abc.abstractmethod
    def data(self, setup: Any, backend: str, like: Any = None) -> dict[str, Any]:
        """The fixed data and hyper-parameters of :meth:`loss` for ``backend`` (torch
        tensors on the device and dtype of ``like``)."""

    @abc.abstractmethod
    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        """The objective: the model's one definition (array code, batched over leading
        axes of the parameter blocks)."""

    @abc.abstractmethod
    def state(self, setup: Any, t: Any, params: Mapping[str, Any], dps: int | None) -> Any:
        """The model's ``State`` at time ``t`` measured from the weights (no closed form);
        float64 when ``dps`` is None, else object arrays at the working precision."""

    def stack(
        self, setup: Any, states: Sequence[Any], initial: Mapping[str, Any], dps: int | None
    ) -> Any:
        """The trajectory's :meth:`state` records at many times as one record with a leading
        time axis, what :func:`numerics.simulate` returns: the model's own ``States`` where it
        has one (the type its closed form's ``sample`` returns), else
        :class:`solvable._core.states.StackedStates` (the default).  ``initial``: the
        initial weights by block (for a measure relative to the start); ``dps``: as in
        :meth:`state`."""
        return StackedStates.stack(states)

    def closed_form(
        self, setup: Any, out0: Any, in0: Any, *, dps: int | None = None
    ) -> Trajectory | None:
        """The exact solution from ``(out0, in0)`` where the model has one for this setup
        (a :class:`Trajectory` whose states have the same type as :meth:`state`'s); ``None``
        where it has none (the default)."""
        return None


def _none() -> tuple[()]:
    return ()


@dataclass(frozen=True)
class Model:
    """One model module's contribution to the registry, the errata and ``numerics``."""

    name: str
    seed: str
    title: str
    claims: Callable[[], Sequence[Theorem]]
    errata: Callable[[], Sequence[Erratum]] = _none
    laws: Callable[[], Sequence[ConservationLaw]] = _none
    systems: tuple[System, ...] = ()
    tables: Callable[[], str] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(f"name must be a module name, got {self.name!r}")
        if not isinstance(self.seed, str) or not SEED_PATTERN.fullmatch(self.seed):
            raise ValueError(
                f"seed must be a seed file name like 001_<16 hex>.txt, got {self.seed!r}"
            )
        for fn in ("claims", "errata", "laws"):
            if not callable(getattr(self, fn)):
                raise TypeError(f"{fn} must be callable, got {getattr(self, fn)!r}")
        if not isinstance(self.systems, tuple) or not all(
            isinstance(s, System) for s in self.systems
        ):
            raise TypeError(f"systems must be a tuple of System instances, got {self.systems!r}")
        if self.tables is not None and not callable(self.tables):
            raise TypeError(f"tables must be callable or None, got {self.tables!r}")

    def theorems(self) -> list[Theorem]:
        """Its claims and its conservation laws (as claims), each id prefixed by its name."""
        out = [law.claim() for law in self.laws()] + list(self.claims())
        for thm in out:
            if not thm.id.startswith(f"{self.name}."):
                raise ValueError(f"claim {thm.id!r} of model {self.name!r} must start with "
                                 f"'{self.name}.'")  # fmt: skip
        return out
