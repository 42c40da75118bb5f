"""Validation and conversion of user-supplied numbers: one policy for the whole package.

Numbers may be given as ``int``, ``float``, ``str`` (an exact decimal) or ``mpmath.mpf``;
numpy scalars are accepted as floats.  They are stored as given (after checking) and
converted only when a precision is chosen, so that ``"0.1"`` means one tenth at every
precision.

The exception policy: a value of the wrong *type* (a bool, a complex number, a string that
is not a decimal where a number is expected as an object, a list where an int is expected)
raises ``TypeError``; a value of the right type outside its range (non-finite, negative,
wrong shape, ``dps < 1``) raises ``ValueError``.  Every message names the argument, the
valid range, and quotes the value received.

Edge values, decided once here: a ``bool`` (or ``numpy.bool_``) is not a number
(``TypeError``), nor is a complex number (``TypeError``, even with a zero imaginary part);
numpy floating and integer scalars of every width are numbers (``np.float32(1e-3)`` is the
float it holds); a string must be a decimal (``"0.1"``, ``"1e-3"``; anything else is a
``ValueError`` naming the argument).  A torch tensor, even a 0-d one, is refused with a
``TypeError`` that says how to pass its value (``float(t)`` / ``t.item()`` for a number,
``t.tolist()`` for an array): a tensor may live on a GPU or carry a graph, and converting it
silently would hide a device transfer and detach it.

Precision is scoped, never set globally: :class:`Precision` is ``mpmath.workdps(dps +
GUARD_DIGITS)`` for ``dps`` digits and a no-op for float64 (``dps=None``).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import itertools
import math
import numbers
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar, Union

import mpmath
import numpy as np
import sympy as sp

Number = Union[int, float, str, mpmath.mpf]  # noqa: UP007 (a runtime alias on 3.10)

GUARD_DIGITS = 10
"""Extra working digits of every mpmath evaluation of a closed form (its result is rounded
to the ``dps`` digits asked for)."""

__all__ = [
    "FLOAT64_MAX",
    "GUARD_DIGITS",
    "INT64_MAX",
    "MAX_DPS",
    "MIN_ORACLE_DPS",
    "VERIFY_MIN_DPS",
    "Float64RangeError",
    "Number",
    "Precision",
    "check_dps",
    "check_entries",
    "check_flag",
    "check_int",
    "check_matrix",
    "check_number",
    "check_rows",
    "check_times",
    "check_vector",
    "converter",
    "describe",
    "dtype",
    "exact_to_mpf",
    "round_to",
    "rounded",
    "to_expr",
    "to_float",
    "to_mpf",
]


def describe(value: Any) -> str:
    """``repr(value)``, shortened to 80 characters for error messages."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_tensor(value: Any) -> bool:
    """A torch tensor, recognised without importing torch (the core does not need it)."""
    return type(value).__module__.split(".", 1)[0] == "torch"


def _tensor_hint(value: Any, want: str) -> str:
    return (
        f" (a torch tensor is not accepted where {want} is expected: pass "
        + ("float(t) or t.item()" if want == "a number" else "t.tolist() or t.cpu().numpy()")
        + ")"
        if _is_tensor(value)
        else ""
    )


def check_number(
    name: str, value: Any, *, positive: bool = False, nonnegative: bool = False
) -> Number:
    """Return ``value`` if it is a finite real number (with the stated sign).

    Numbers: int, float, numpy scalars, ``fractions.Fraction``, decimal strings and
    ``mpmath.mpf``. Raises ``TypeError`` for a value that is not a real number (bool,
    complex, None, an array or list, a torch tensor) and ``ValueError`` (naming ``name`` and
    the valid range, quoting the value) for one out of range or a string that is not a
    decimal.
    """
    low = " and > 0" if positive else " and >= 0" if nonnegative else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (numbers.Real, str, mpmath.mpf, np.floating, np.integer)
    ):
        raise TypeError(
            f"{name} must be a finite real number{low} (int, float, numpy scalar, Fraction, "
            f"decimal str or mpmath.mpf), got {type(value).__name__} {describe(value)}"
            + _tensor_hint(value, "a number")
        )
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()
    if isinstance(value, str):
        try:
            with mpmath.workdps(50):
                parsed = mpmath.mpf(value.strip())
        except (ValueError, TypeError):
            raise ValueError(
                f"{name} must be a decimal number{low} (e.g. '0.5', '1e-3'), got {describe(value)}"
            ) from None
    elif isinstance(value, numbers.Rational) and not isinstance(value, int):
        # a Fraction (or another exact rational): its sign and finiteness, without rounding
        parsed = mpmath.mpf(int(value.numerator)) / int(value.denominator)
    else:
        with mpmath.workprec(mpmath.mp.prec):
            parsed = mpmath.mpf(value) if not isinstance(value, int) else value
    if not mpmath.isfinite(parsed):
        raise ValueError(f"{name} must be finite{low}, got {describe(value)}")
    if positive and not parsed > 0:
        raise ValueError(f"{name} must be > 0, got {describe(value)}")
    if nonnegative and not parsed >= 0:
        raise ValueError(f"{name} must be >= 0, got {describe(value)}")
    return value


# an exact number as text: an integer, a decimal (with an exponent) or a fraction p/q
_EXACT_TEXT = re.compile(r"[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|\d+/0*[1-9]\d*)")


def to_expr(name: str, value: Any) -> sp.Expr:
    """A user's argument to a symbolic function as a sympy expression, **never evaluating
    a string** (``sympy.sympify`` of a string runs it as Python).

    Accepted: a sympy expression (unchanged); an ``int``, numpy integer or ``Fraction``
    (exact); a finite ``float``, numpy float or ``mpmath.mpf`` (a ``sympy.Float`` of its
    precision, as ``sympify`` gives); a string holding an exact number, an integer, a
    decimal (``"0.1"``, ``"1e-3"``) or a fraction (``"1/3"``), parsed by ``sympy.Rational``
    (exact: ``"0.1"`` is one tenth).  Anything else is refused: a bool, complex number,
    ``None``, a list or array, a torch tensor (``TypeError``), a non-finite number or a
    string that is no exact number, e.g. ``"pi"`` or code (``ValueError``: build the
    expression with sympy, ``sympy.pi / 4``).  Messages name ``name``.
    """
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, str):
        text = value.strip()
        if not _EXACT_TEXT.fullmatch(text):
            raise ValueError(
                f"{name} must be a number, a sympy expression or a string holding an exact "
                f"number ('2', '0.1', '1e-3', '1/3'); got {describe(value)}: strings are never "
                f"evaluated (write sympy.pi / 4, not 'pi/4')")  # fmt: skip
        return sp.Rational(text)
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (numbers.Real, mpmath.mpf, np.integer, np.floating)
    ):
        raise TypeError(
            f"{name} must be a real number, an exact-number string or a sympy expression, got "
            f"{type(value).__name__} {describe(value)}" + _tensor_hint(value, "a number")
        )
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, int):
        return sp.Integer(value)
    if not mpmath.isfinite(value):
        raise ValueError(f"{name} must be finite, got {describe(value)}")
    return sp.sympify(value, strict=True)  # a float or mpf: no string is parsed


def check_vector(name: str, value: Any, length: int | None = None) -> tuple[Number, ...]:
    """A 1-d sequence of finite numbers (numpy arrays, lists, tuples)."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu" and value.ndim == 1:
        # vectorised fast path for numeric arrays (e.g. many sample times)
        if value.size == 0:
            raise ValueError(f"{name} must not be empty")
        if length is not None and value.size != length:
            raise ValueError(f"{name} must have shape ({length},), got ({value.size},)")
        bad = np.flatnonzero(~np.isfinite(value))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"{name}[{i}] must be finite, got {value[i]!r}")
        return tuple(value.tolist())
    items = _as_nested(name, value)
    if not isinstance(items, list) or any(isinstance(v, list) for v in items):
        raise ValueError(f"{name} must be one-dimensional, got shape {_shape(value)}")
    if len(items) == 0:
        raise ValueError(f"{name} must not be empty")
    if length is not None and len(items) != length:
        raise ValueError(f"{name} must have shape ({length},), got ({len(items)},)")
    return tuple(check_number(f"{name}[{i}]", v) for i, v in enumerate(items))


def check_matrix(
    name: str, value: Any, shape: tuple[int | None, int | None]
) -> tuple[tuple[Number, ...], ...]:
    """A 2-d array of finite numbers of the given shape (``None``: any size, at least 1)."""
    if (isinstance(value, np.ndarray) and value.ndim == 2 and value.dtype.kind in "fiu"
            and value.shape[0] >= 1 and value.shape[1] >= 1
            and shape[0] in (None, value.shape[0]) and shape[1] in (None, value.shape[1])
            and bool(np.isfinite(value).all())):  # fmt: skip
        # vectorised fast path for a valid numeric array (issue 17: a per-entry check made
        # a 10^4-entry matrix cost 0.1 s): the Python numbers check_number returns for its
        # entries; any other input, and any bad one, goes the generic way (its messages)
        return tuple(map(tuple, value.tolist()))
    items = _as_nested(name, value)
    if not isinstance(items, list) or not items or not isinstance(items[0], list):
        raise ValueError(f"{name} must be a 2-d array, got shape {_shape(value)}")
    rows = len(items) if shape[0] is None else shape[0]
    cols = len(items[0]) if shape[1] is None else shape[1]
    if (
        len(items) != rows
        or cols < 1
        or any(not isinstance(r, list) or len(r) != cols for r in items)
    ):
        want = ("n" if shape[0] is None else shape[0], "m" if shape[1] is None else shape[1])
        raise ValueError(f"{name} must have shape ({want[0]}, {want[1]}), got {_shape(value)}")
    return tuple(
        tuple(check_number(f"{name}[{i},{j}]", v) for j, v in enumerate(row))
        for i, row in enumerate(items)
    )


def check_rows(name: str, value: Any, n: int, targets: str) -> tuple[tuple[Number, ...], ...]:
    """A data matrix ``value`` (n, d), any ``d >= 1``, whose row count ``n`` is the length
    of the (already checked) ``targets``: a mismatch names both, with both lengths."""
    rows = check_matrix(name, value, (None, None))
    if len(rows) != n:
        raise ValueError(
            f"{targets} has length {n} but {name} has {len(rows)} rows: {name} must have shape "
            f"({n}, m), one row (data point) per entry of {targets}, got "
            f"({len(rows)}, {len(rows[0])})"
        )
    return rows


def _as_nested(name: str, value: Any) -> Any:
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf" and value.dtype != object:
            raise TypeError(f"{name} must hold finite real numbers, got dtype {value.dtype}")
        return value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be an array or sequence of finite real numbers, got "
            f"{type(value).__name__} {describe(value)}" + _tensor_hint(value, "an array")
        )
    return [_as_nested(name, v) if _is_seq(v) else v for v in value]


def _is_seq(v: Any) -> bool:
    return isinstance(v, np.ndarray) or (
        isinstance(v, Sequence) and not isinstance(v, (str, bytes))
    )


def _shape(value: Any) -> tuple[int, ...]:
    try:
        return np.shape(np.asarray(value, dtype=object))
    except ValueError:
        return ("ragged",)  # type: ignore[return-value]


def check_float_array(name: str, value: Any, *,
                      ndim: int | tuple[int, ...] | None = None) -> np.ndarray:  # fmt: skip
    """A non-empty array of finite real numbers, as float64 (a copy), with ``ndim`` axes
    (one of them, if a tuple; any number if ``None``).

    ``TypeError`` for what is not an array of real numbers (a scalar, a string, a bool, a
    complex or string dtype, a torch tensor); ``ValueError`` for a ragged or empty array, a
    wrong number of axes, a non-finite entry, or an entry beyond the float64 range; each
    message names ``name``."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu":
        items: Any = value
    else:
        items = _as_nested(name, value)
        if not isinstance(items, list):
            raise TypeError(f"{name} must be an array of finite real numbers, got "
                            f"{type(value).__name__} {describe(value)}")  # fmt: skip
        if _shape(items) == ("ragged",) or any(
            isinstance(v, list) for v in np.asarray(items, dtype=object).flat
        ):
            raise ValueError(f"{name} must be a rectangular array, got a ragged one")
        flat = np.asarray(items, dtype=object).ravel()
        for i, v in enumerate(flat):
            check_number(f"{name} (entry {i})", v)
        items = np.array([to_float(v, f"{name} (entry {i})") for i, v in enumerate(flat)],
                         dtype=float).reshape(_shape(items))  # fmt: skip
    arr = np.array(items, dtype=float)
    ndims = (ndim,) if isinstance(ndim, int) else ndim
    if ndims is not None and arr.ndim not in ndims:
        raise ValueError(f"{name} must have {' or '.join(map(str, ndims))} dimensions, got "
                         f"shape {arr.shape}")  # fmt: skip
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise ValueError(f"{name} must be finite, got {arr.ravel()[bad[0]]!r} at flat index "
                         f"{int(bad[0])}")  # fmt: skip
    return arr


def check_times(times: Any, name: str = "t") -> tuple[Number, ...]:
    """One time or a 1-d sequence of times, each a finite number ``>= 0``."""
    if isinstance(times, np.ndarray) and times.ndim == 0:
        times = [times.item()]
    elif isinstance(times, (numbers.Real, str, mpmath.mpf)) and not isinstance(times, bool):
        times = [times]
    ts = check_vector(name, times)
    if all(type(t) is float or type(t) is int for t in ts):
        if min(ts) < 0:
            raise ValueError(f"{name} must be >= 0, got {min(ts)!r}")
        return ts
    for t in ts:
        check_number(name, t, nonnegative=True)
    return ts


MAX_DPS = 100_000
"""The most digits :func:`check_dps` accepts: mpmath runs at any precision, but a closed form
or a claim at more digits takes hours, and a huge ``dps`` is a typo more often than not."""


MIN_ORACLE_DPS = 15
"""The fewest digits of the mpmath oracle ``numerics.simulate(method="mpmath")``: below
float64's 15-16 digits an arbitrary-precision integration is weaker than the float64
methods (``method="scipy"``), so it is refused."""

VERIFY_MIN_DPS = 30
"""The fewest digits ``solvable verify --dps`` accepts (its default): the numeric claims'
tolerances (``dps - 5`` digits and the like) are validated from 30 digits up.  Below, some
checks lose more digits than their tolerance allows and would report a false failure:
measured at 15 digits, four claims (xu_ziyin.theorem_1_oracle, alignment_direction,
rescaling_cases, mirror_flow.wide_mirror_flow); theorem_1_oracle is still 1.6 tolerances
off at 25 digits."""


def check_dps(dps: Any) -> int | None:
    """``None`` (float64) or a number of significant digits ``1 <= dps <= MAX_DPS``, as an
    ``int``."""
    valid = f"None (float64) or an int >= 1 (and <= {MAX_DPS})"
    if dps is None:
        return None
    if isinstance(dps, (bool, np.bool_)) or not isinstance(dps, numbers.Integral):
        raise TypeError(
            f"dps must be {valid}, got {type(dps).__name__} {describe(dps)}"
            + _tensor_hint(dps, "a number")
        )
    if not 1 <= dps <= MAX_DPS:
        raise ValueError(f"dps must be {valid}, got {describe(dps)}")
    return int(dps)


_PLAIN_NUMBERS = frozenset({float, int, bool})
"""Types that are not and hold no ``mpmath.mpf`` (exactly these types, not subclasses)."""


HOLDS_MPF = "_holds_mpf"
"""The instance attribute (not a dataclass field) in which a validated, frozen record keeps
:func:`holds_mpf` of its fields (:func:`remember_holds_mpf`), so that each call taking it
(``dps_or_context``) does not scan its data again (a kunin ``X`` of 907 x 907 Python floats:
12 ms per call)."""


def remember_holds_mpf(record: Any, fields: dict[str, Any]) -> None:
    """Store on the frozen dataclass ``record`` whether any of its validated ``fields``
    (name -> value; ``None`` where a field is known to hold no mpf, e.g. a float64 array it
    was built from) holds an mpf; :func:`holds_mpf` of the record then returns it."""
    held = any(v is not None and holds_mpf(v, depth=3) for v in fields.values())
    object.__setattr__(record, HOLDS_MPF, held)


def holds_mpf(value: Any, *, depth: int = 4) -> bool:
    """Whether ``value`` is or holds an ``mpmath.mpf``: a scalar, a list / tuple / object
    array of them, or a field of a dataclass (a ``Setup``), at most ``depth`` levels deep;
    a record that remembered its answer (:func:`remember_holds_mpf`) gives it."""
    if isinstance(value, mpmath.mpf):
        return True
    if depth <= 0 or isinstance(value, (str, bytes)):
        return False
    if isinstance(value, np.ndarray) and value.dtype != object:
        return False
    if isinstance(value, (list, tuple, np.ndarray)):
        # the entries' types first (one pass in C): a row of Python floats and ints holds no
        # mpf, and looking at each (a function call per entry) took 0.28 s for the 506 x
        # 506 X of a kunin.Setup, more than its whole closed form
        items = value.flat if isinstance(value, np.ndarray) else value
        kinds = set(map(type, items))
        if kinds <= _PLAIN_NUMBERS:
            return False
        if depth > 1 and kinds <= {tuple, list}:  # rows (a matrix): all their entries at once
            inner = set(map(type, itertools.chain.from_iterable(value)))
            if inner <= _PLAIN_NUMBERS:
                return False
        items = value.flat if isinstance(value, np.ndarray) else value  # (flat is used up)
        return any(holds_mpf(v, depth=depth - 1) for v in items)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        known = getattr(value, "__dict__", {}).get(HOLDS_MPF)
        if known is not None:
            return bool(known)
        return any(
            holds_mpf(getattr(value, f.name), depth=depth - 1) for f in dataclasses.fields(value)
        )
    return False


def dps_or_context(dps: Any, *values: Any) -> int | None:
    """``dps`` checked (:func:`check_dps`); when it is ``None`` and any of ``values`` holds an
    ``mpmath.mpf`` (:func:`holds_mpf`), the caller's ``mpmath.mp.dps``: mpmath in, mpmath
    out, at the caller's precision, never a silent rounding to float64."""
    dps = check_dps(dps)
    if dps is None and any(holds_mpf(v) for v in values):
        return int(mpmath.mp.dps)
    return dps


_F = TypeVar("_F", bound=Callable[..., Any])


def mpmath_in_mpmath_out(func: _F) -> _F:
    """Decorate a public function that takes ``dps=``: called with ``dps=None`` (the
    default) and any argument that holds an ``mpmath.mpf`` (:func:`holds_mpf`), it runs at the
    caller's ``mpmath.mp.dps`` (:func:`dps_or_context`) and returns mpmath numbers, never a
    silent rounding of the caller's digits to float64 (issue 28).  An explicit ``dps`` wins;
    arguments that do not bind are passed through, so the function's own ``TypeError``
    names them."""
    sig = inspect.signature(func)
    if "dps" not in sig.parameters:
        raise TypeError(f"{func.__qualname__} takes no dps argument")

    @functools.wraps(func)
    def with_context_dps(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return func(*args, **kwargs)  # the function's own message names the argument
        given = bound.arguments.get("dps")
        if given is None:
            dps = dps_or_context(None, *(v for k, v in bound.arguments.items() if k != "dps"))
            if dps is not None:
                bound.arguments["dps"] = dps
                return func(*bound.args, **bound.kwargs)
        return func(*args, **kwargs)

    return with_context_dps  # type: ignore[return-value]


def check_int(name: str, value: Any, low: int = 1, high: int | None = None) -> int:
    """An integer ``>= low`` and, if given, ``<= high`` (``TypeError`` for a non-integer,
    ``ValueError`` outside the range, naming it)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be an int >= {low}, got {type(value).__name__} {describe(value)}"
            + _tensor_hint(value, "a number")
        )
    if int(value) < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if high is not None and int(value) > high:
        raise ValueError(f"{name} must be an integer in [{low}, {high}], got {value!r}")
    return int(value)


INT64_MAX = 2**63 - 1
"""The largest size of a numpy or torch array (both index with int64)."""


def check_entries(**sizes: int) -> None:
    """Refuse an array of more than :data:`INT64_MAX` entries, naming every size of it
    (``ValueError``; numpy and torch would raise their own errors, naming none)."""
    if math.prod(sizes.values()) > INT64_MAX:
        shown = " x ".join(f"{k} = {v}" for k, v in sizes.items())
        raise ValueError(f"{shown}: an array of more than 2**63 - 1 entries (numpy's and "
                         f"torch's limit)")  # fmt: skip


def check_flag(name: str, value: Any) -> bool:
    """``value`` if it is ``True`` or ``False`` (not a truthy number, string or tensor)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {describe(value)}")
    return value


FLOAT64_MAX = float(np.finfo(np.float64).max)
"""The largest finite float64 (about 1.8e308): a checked number beyond it has no float64
value, so :func:`to_float` refuses it rather than return inf (or raise ``OverflowError``)."""


class Float64RangeError(ValueError):
    """A finite number that float64 cannot hold (a ``ValueError``: callers that can evaluate
    in mpmath instead catch this one kind)."""


def to_float(value: Number, name: str | None = None) -> float:
    """float64 value (strings are rounded once, correctly).

    A finite number beyond the float64 range (an ``int`` like ``10**400``, the string
    ``"1e400"``, a large ``mpf``) raises :class:`Float64RangeError` (a ``ValueError``) naming
    ``name`` (when given) and the range, never ``OverflowError`` or a silent ``inf``; such a
    value is fine at ``dps``
    digits (mpmath has no exponent limit), so it is refused only when float64 is chosen.
    """
    try:
        out = float(value)
    except OverflowError:
        out = math.inf
    if math.isfinite(out) or not _finite(value):
        return out
    shown = f"int ~{mpmath.nstr(mpmath.mpf(value), 6)}" if isinstance(value, int) else None
    raise Float64RangeError(
        f"{name + ' = ' if name else 'the number '}{shown or describe(value)} is outside the "
        f"float64 range (|value| <= {FLOAT64_MAX:.4g}): it has no float64 value (rescale it, "
        "or use dps=... where the function offers mpmath, which has no exponent limit)"
    )


def _finite(value: Any) -> bool:
    """Whether ``value`` (a checked number) is finite as a real number (any size)."""
    if isinstance(value, (int, Fraction)):  # exact: always finite
        return True
    try:
        with mpmath.workdps(20):
            return bool(mpmath.isfinite(to_mpf(value)))
    except (TypeError, ValueError):
        return False


def to_mpf(value: Number) -> mpmath.mpf:
    """mpmath value at the current working precision (strings and fractions exactly
    rounded once)."""
    if isinstance(value, str):
        return mpmath.mpf(value.strip())
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    if isinstance(value, (np.floating, np.integer)):  # float16 has no mpf conversion
        value = value.item()
    return mpmath.mpf(value)


def exact_to_mpf(value: Any) -> mpmath.mpf:
    """``value`` at the working precision: sympy expressions and fractions evaluated with
    guard digits, strings parsed exactly, numpy scalars unwrapped; other types rejected."""
    if isinstance(value, sp.Expr):
        return mpmath.mpf(sp.N(value, mpmath.mp.dps + 5))
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    if isinstance(value, str):
        return mpmath.mpf(value.strip())
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, mpmath.mpf)):
        raise TypeError(f"expected a real number, got {describe(value)}")
    return mpmath.mpf(value)


# ---------------------------------------------------------------------------
# precision: float64 (dps=None) or mpmath at dps digits, scoped
# ---------------------------------------------------------------------------
class Precision:
    """``with Precision(dps):`` works at ``dps + guard`` digits (mpmath); a no-op for
    float64 (``dps=None``)."""

    def __init__(self, dps: int | None, guard: int = GUARD_DIGITS) -> None:
        self._ctx = None if dps is None else mpmath.workdps(dps + guard)

    def __enter__(self) -> None:
        if self._ctx is not None:
            self._ctx.__enter__()

    def __exit__(self, *exc: object) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(*exc)


def converter(dps: int | None, name: str | None = None) -> Callable[[Number], Any]:
    """The conversion of a stored number for the chosen precision (``name``: the argument
    the numbers come from, named in the error for one beyond the float64 range)."""
    if dps is not None:
        return to_mpf
    return to_float if name is None else lambda v: to_float(v, name)


def dtype(dps: int | None) -> Any:
    """numpy dtype of the arrays at the chosen precision (``object`` holds ``mpf``)."""
    return float if dps is None else object


def round_to(dps: int | None) -> Callable[[Any], Any]:
    """Round a working-precision number to ``dps`` digits (identity for float64)."""
    if dps is None:
        return lambda z: z

    def rnd(z: Any) -> Any:
        with mpmath.workdps(dps):
            return +z

    return rnd


def rounded(arrays: Sequence[Any], dps: int | None) -> tuple[Any, ...]:
    """Round every entry of each object array to ``dps`` digits (identity for float64)."""
    if dps is None:
        return tuple(arrays)
    with mpmath.workdps(dps):
        rnd = np.vectorize(lambda z: +z, otypes=[object])
        return tuple(rnd(a) if isinstance(a, np.ndarray) else +a for a in arrays)


def check_output_arrays(out: Any, shapes: dict[str, tuple[int, ...]], *, sizes: str = "",
                        contiguous: bool = False) -> None:  # fmt: skip
    """The fields ``shapes`` of ``out`` (a preallocated result, ``sample(..., out=out)``):
    each a writeable float64 ``numpy`` array of its shape (C-contiguous if ``contiguous``),
    no two overlapping; else ``TypeError`` / ``ValueError`` naming the field, the expected
    shape and dtype (``sizes``: the sizes the shape comes from, in words) and quoting what
    was received.  Views of one buffer that do not overlap are accepted; where numpy cannot
    decide that cheaply, they count as overlapping."""
    for name, shape in shapes.items():
        arr = getattr(out, name)
        want = f"a writeable float64 array of shape {shape}"
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"out.{name} must be {want}, got {type(arr).__name__}")
        if arr.dtype != np.float64:
            raise TypeError(f"out.{name} must be {want}, got dtype {arr.dtype}")
        if arr.shape != shape:
            raise ValueError(f"out.{name} must be {want}{sizes}, got shape {arr.shape}")
        if not arr.flags.writeable:
            raise ValueError(f"out.{name} must be {want}, got a read-only array")
        if contiguous and not arr.flags.c_contiguous:
            raise ValueError(f"out.{name} must be C-contiguous, got strides {arr.strides}")
    names = list(shapes)
    for i, p in enumerate(names):
        for q in names[i + 1 :]:
            if _overlap(getattr(out, p), getattr(out, q)):
                raise ValueError(f"out.{p} and out.{q} must not overlap (share memory)")


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` and ``b`` share an element (bounded work: undecided counts as yes)."""
    if not np.may_share_memory(a, b):
        return False
    try:
        return bool(np.shares_memory(a, b, max_work=_OVERLAP_WORK))
    except np.exceptions.TooHardError:
        return True


_OVERLAP_WORK = 10**5  # numpy's exact overlap test: the work allowed before it gives up
