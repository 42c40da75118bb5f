"""One result type for trajectories (issue 30): states at many times, stacked.

Every model's ``States`` (what ``closed_form(...).sample(times)`` returns, and what
:func:`numerics.simulate` returns) holds arrays with a leading time axis and is also a
sequence of single states:

* ``states.u``, ``states.loss``, ...: the fields, each ``(T, ...)``;
* ``states.at(k)``: the model's ``State`` at the ``k``-th time (negative ``k`` counts from
  the end, as in Python);
* ``for s in states``: each ``State`` in turn; ``len(states)``: the number of times.

``states[k]`` (the list that :func:`numerics.simulate` returned before) still works, with a
:class:`DeprecationWarning` pointing to ``.at(k)``; it goes in the release after next.

:class:`SequenceOfStates` is the mixin that gives a model's own ``States`` dataclass this
behaviour (it implements :meth:`SequenceOfStates.at`); :class:`StackedStates` stacks the
``State`` records of a model that has no ``States`` of its own (field by field; a field that
is a dict of arrays, as ``three_layer``'s ``params``, is stacked key by key).
"""

from __future__ import annotations

import dataclasses
import operator
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

DEPRECATED_INDEXING = (
    "states[k] (indexing the list numerics.simulate used to return) is deprecated: use "
    "states.at(k) for the State at the k-th time, iterate over states, or read the arrays "
    "(states.u[k], states.loss, ...)"
)


def check_index(k: Any, n: int, name: str = "k", what: str = "times") -> int:
    """``k`` as an index into ``n`` items (negative from the end); ``TypeError`` for a
    non-integer, ``IndexError`` outside ``[-n, n)``, each naming the argument ``name`` and
    the ``n`` ``what`` (``"times"``, ``"batch elements"``)."""
    if isinstance(k, bool):
        raise TypeError(f"{name} must be an integer index, got bool {k!r}")
    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"{name} must be an integer index, got {type(k).__name__} "
                        f"{k!r}") from None  # fmt: skip
    if not -n <= k < n:
        raise IndexError(f"{name} = {k} is out of range for {n} {what} (valid: {-n} <= "
                         f"{name} < {n})")  # fmt: skip
    return k % n


class SequenceOfStates:
    """Mixin: a ``States`` dataclass whose ``t`` is the ``(T,)`` times is a sequence of the
    model's ``State`` records (subclasses implement :meth:`at`)."""

    t: Any

    def at(self, k: int) -> Any:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.t)

    def __iter__(self) -> Iterator[Any]:
        for k in range(len(self)):
            yield self.at(k)

    def __reversed__(self) -> Iterator[Any]:
        for k in reversed(range(len(self))):
            yield self.at(k)

    def __getitem__(self, k: int | slice) -> Any:
        warnings.warn(DEPRECATED_INDEXING, DeprecationWarning, stacklevel=2)
        if isinstance(k, slice):
            return [self.at(i) for i in range(len(self))[k]]
        return self.at(k)


class StackedStates(SequenceOfStates):
    """The ``State`` records of one trajectory (a model without a ``States`` of its own),
    stacked: each field of the ``State`` dataclass an array with a leading time axis (object
    arrays for mpmath), a dict-valued field a dict of such arrays; read as attributes
    (``states.W``, ``states.risk``; ``states.loss`` too where the ``State`` names its loss
    field in ``loss_field``), :meth:`at` rebuilds the ``State``."""

    __slots__ = ("_fields", "_state_type")

    def __init__(self, state_type: type, fields: Mapping[str, Any]):
        object.__setattr__(self, "_state_type", state_type)
        object.__setattr__(self, "_fields", dict(fields))

    @classmethod
    def stack(cls, records: Sequence[Any]) -> StackedStates:
        """Stack ``records`` (instances of one ``State`` dataclass, at least one)."""
        if not records:
            raise ValueError("records must hold at least one State")
        state_type = type(records[0])
        if not dataclasses.is_dataclass(state_type) or any(
            type(r) is not state_type for r in records
        ):
            raise TypeError(f"records must be instances of one State dataclass, got "
                            f"{sorted({type(r).__name__ for r in records})}")  # fmt: skip
        fields = {}
        for f in dataclasses.fields(state_type):
            values = [getattr(r, f.name) for r in records]
            if isinstance(values[0], Mapping):
                fields[f.name] = {key: _stack([v[key] for v in values]) for key in values[0]}
            else:
                fields[f.name] = _stack(values)
        return cls(state_type, fields)

    @property
    def state_type(self) -> type:
        """The ``State`` dataclass whose records these are."""
        return self._state_type

    @property
    def field_names(self) -> tuple[str, ...]:
        """The fields, in the order of the ``State`` dataclass."""
        return tuple(self._fields)

    def arrays(self) -> dict[str, Any]:
        """The stacked fields by name (a new dict; the arrays themselves are shared)."""
        return dict(self._fields)

    def __getattr__(self, name: str) -> Any:
        fields = object.__getattribute__(self, "_fields")
        if name in fields:
            return fields[name]
        alias = getattr(object.__getattribute__(self, "_state_type"), "loss_field", None)
        if name == "loss" and alias in fields:  # (a model that calls its loss the risk)
            return fields[alias]
        raise AttributeError(f"{type(self).__name__} of {self._state_type.__name__} has no "
                             f"field {name!r}; fields: {', '.join(fields)}")  # fmt: skip

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        # (copy and pickle rebuild it through __init__: the frozen __setattr__ refuses the
        # default slot-by-slot restore)
        return (type(self), (self._state_type, self._fields))

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._fields))

    def at(self, k: int) -> Any:
        """The ``State`` at the ``k``-th time."""
        k = check_index(k, len(self))
        values = {}
        for name, v in self._fields.items():
            values[name] = {key: a[k] for key, a in v.items()} if isinstance(v, dict) else v[k]
        return self._state_type(**values)

    def __repr__(self) -> str:
        return (f"StackedStates({self._state_type.__name__}, {len(self)} times, fields "
                f"{', '.join(self._fields)})")  # fmt: skip


def _stack(values: list[Any]) -> np.ndarray:
    """One field over the times: float64 when every value is float64, else an object array
    (mpmath numbers keep their precision), with a leading time axis."""
    arrays = [np.asarray(v) for v in values]
    dtype = object if any(a.dtype == object for a in arrays) else None
    out = np.empty((len(arrays), *arrays[0].shape), dtype=dtype or np.result_type(*arrays))
    for k, a in enumerate(arrays):
        out[k] = a[()] if a.ndim == 0 else a  # (a 0-d object array would be stored itself)
    return out
