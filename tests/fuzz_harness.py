"""The fuzz harness: bad values by kind, the entry record, and the check of one bad call.

Used by ``tests/test_fuzz_every_entry_point.py`` (every public callable, from the entry
lists in ``tests/fuzz_entries_*.py``).

The check (issue 28, "Done when"): a call with one argument replaced by a bad value must
either return finite numbers (some "bad" values are valid: ``t = inf`` is the limit state,
``1e300`` may be a fine learning rate) or raise ``TypeError`` / ``ValueError`` whose message
names the argument; any other exception, a NaN or inf in the output, a message that does
not name the argument, code run from a string, or a call that outlives ``BUDGET_S`` fails.
One refusal is accepted whatever the argument: the integrators' projected work
(``numerics.scipy_ode.PaceError``: at the pace of its last steps, ``max_steps`` cannot reach
the horizon; a start of 1e300 makes a flow that needs 1e598 steps), which names
``max_steps``, the argument that decides it.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import math
import re
import signal
import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy as sp
import torch

from numerics.scipy_ode import PaceError

# A hang guard, not a speed test: every fuzzed call uses tiny sizes (one or two data points,
# width 2) and takes well under a second alone; 60 s is far beyond that even with both cores
# of the CI machine busy, and far below a real hang (the hangs of issue 28 were minutes to
# days).
BUDGET_S = 60.0

# Code in a string: if any parser ran it, ``builtins`` would have this attribute afterwards.
SENTINEL = "_solvable_fuzz_payload_ran"
PAYLOAD = f"__import__('builtins').__setattr__('{SENTINEL}', True) or 1"

# ---------------------------------------------------------------------------
# bad values, by the kind of argument they corrupt (functions: tensors are made fresh)
# ---------------------------------------------------------------------------
_COMMON: list[Callable[[], Any]] = [
    lambda: math.nan,
    lambda: math.inf,
    lambda: -math.inf,
    lambda: True,
    lambda: False,
    lambda: np.bool_(True),
    lambda: 1 + 2j,
    lambda: np.complex128(1.0),
    lambda: "abc",
    lambda: "",
    lambda: "nan",
    lambda: "__import__('os').getcwd()",  # code: never run (a path would come back)
    lambda: PAYLOAD,
    lambda: None,
    lambda: torch.tensor(1.0, dtype=torch.float64),
    lambda: torch.tensor([1.0, 2.0], dtype=torch.float64),
    lambda: {"a": 1.0},
    lambda: object(),
]
_SCALES = [5e-324, 1e-300, 1e300, -1e300, 2.0**-1074, 1.7e308]
BAD: dict[str, list[Callable[[], Any]]] = {
    "scalar": [
        *_COMMON,
        lambda: [1.0],
        lambda: np.ones(2),
        lambda: np.array([]),
        lambda: -1.0,
        lambda: 0,
        lambda: -0.0,
        *[(lambda s=s: s) for s in _SCALES],
        lambda: "1e400",
        lambda: mpmath.mpf("1e400"),
        lambda: mpmath.mpf("nan"),
        lambda: mpmath.mpc(1, 1),
        lambda: np.float16(0.5),
        lambda: np.array(0.5, dtype=object),
        lambda: Fraction(10**400, 3),
        lambda: sp.Symbol("x"),
    ],
    "vector": [
        *_COMMON,
        lambda: [],
        lambda: np.empty(0),
        lambda: [[1.0, 2.0]],
        lambda: [1.0] * 5,
        lambda: [1.0],
        lambda: np.ones(2, dtype=complex),
        lambda: np.ones(2, dtype=bool),
        lambda: np.ones(2, dtype=np.float16),
        lambda: np.array([1.0, 2.0], dtype=object),
        lambda: np.array([object(), object()], dtype=object),
        lambda: np.array(["a", "b"]),
        lambda: [None, 1.0],
        lambda: [math.nan, 1.0],
        lambda: [1.0, math.inf],
        lambda: [True, 1.0],
        lambda: [1j, 1.0],
        lambda: [PAYLOAD, "1"],
        lambda: [1e300, -1e300],
        lambda: [1e-300, 5e-324],
        lambda: [0.0, 0.0],
        lambda: torch.ones(2, dtype=torch.float64),
        lambda: torch.ones(2, dtype=torch.float16),
        lambda: 1.0,
    ],
    "matrix": [
        *_COMMON,
        lambda: [],
        lambda: [[]],
        lambda: np.empty((0, 2)),
        lambda: np.empty((2, 0)),
        lambda: [1.0, 2.0],
        lambda: [[1.0, 2.0], [3.0]],
        lambda: [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
        lambda: [[1.0]],
        lambda: np.ones((2, 2), dtype=complex),
        lambda: np.ones((2, 2), dtype=bool),
        lambda: np.ones((2, 2), dtype=np.float16),
        lambda: np.ones((2, 2), dtype=object),
        lambda: np.array([["a", "b"], ["c", "d"]]),
        lambda: [[math.nan, 1.0], [0.0, 1.0]],
        lambda: [[1.0, 0.0], [math.inf, 1.0]],
        lambda: [[None, 1.0], [0.0, 1.0]],
        lambda: [[PAYLOAD, "1"], ["0", "1"]],
        lambda: [[1e300, 0.0], [0.0, 1e300]],
        lambda: [[1e-300, 0.0], [0.0, 1e-300]],
        lambda: [[0.0, 0.0], [0.0, 0.0]],
        lambda: np.ones((2, 2, 2)),
        lambda: torch.eye(2, dtype=torch.float64),
        lambda: torch.eye(2, dtype=torch.bfloat16),
    ],
    "int": [
        *_COMMON,
        lambda: 1.5,
        lambda: -1,
        lambda: 0,
        lambda: "3",
        lambda: [2],
        lambda: 10**30,
        lambda: np.float64(2.0),
    ],
    "dps": [
        *_COMMON,
        lambda: 1.5,
        lambda: -1,
        lambda: 0,
        lambda: 5,
        lambda: "30",
        lambda: [30],
        lambda: 10**9,
    ],
    "times": [
        *_COMMON,
        lambda: [],
        lambda: [-1.0],
        lambda: [math.nan],
        lambda: [[0.5]],
        lambda: np.array([0.5 + 1j]),
        lambda: [True],
        lambda: ["abc"],
        lambda: [PAYLOAD],
        lambda: [None],
        lambda: [1e300],
        lambda: [0.5, 0.1],
        lambda: np.empty(0),
    ],
    "flag": [*_COMMON, lambda: 1.5, lambda: "yes", lambda: [True], lambda: 2],
    "object": [
        lambda: None,
        lambda: 1.0,
        lambda: "abc",
        lambda: PAYLOAD,
        lambda: {"a": 1},
        lambda: True,
        lambda: object(),
    ],
    "name": [
        lambda: None,
        lambda: "nope",
        lambda: PAYLOAD,
        lambda: 3,
        lambda: True,
        lambda: "",
        lambda: ["ntk"],
    ],
}


def names(arg: str, message: str) -> bool:
    """``message`` mentions ``arg`` as a word (``x``, ``x[1]``, ``x = ...``; not ``max``)."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(arg)}(?![A-Za-z0-9_])", message) is not None


# ---------------------------------------------------------------------------
# the numbers in an output, and whether they are finite
# ---------------------------------------------------------------------------
def _finite_scalar(z: Any) -> bool:
    if isinstance(z, bool | np.bool_ | str | bytes) or z is None:
        return True
    if isinstance(z, sp.Basic):
        return not z.has(sp.nan, sp.zoo) and not (z.is_number and z.has(sp.oo, -sp.oo))
    if isinstance(z, complex | np.complexfloating | mpmath.mpc):
        return False  # no public function returns a complex number
    if isinstance(z, int | Fraction | np.integer):
        return True  # exact: always finite
    if isinstance(z, float | np.floating | mpmath.mpf):
        return bool(mpmath.isfinite(z))
    return True  # not a number (a name, a function, a module): nothing to check


def non_finite(value: Any, *, depth: int = 5) -> list[str]:
    """Where ``value`` holds a NaN or an infinity: a list of paths (empty when finite).

    Walks numbers, arrays, tensors, sympy expressions, containers and dataclass fields, at
    most ``depth`` levels deep.
    """
    found: list[str] = []
    seen: set[int] = set()

    def walk(v: Any, path: str, level: int) -> None:
        if level > depth or id(v) in seen:
            return
        if isinstance(v, torch.Tensor):
            if v.is_complex() or not bool(torch.isfinite(v).all()):
                found.append(path)
            return
        if isinstance(v, np.ndarray):
            if v.dtype.kind in "fiub":
                if not np.isfinite(v.astype(float)).all() if v.size else False:
                    found.append(path)
            elif v.dtype.kind == "c":
                found.append(path)
            else:
                for i, z in enumerate(v.ravel()):
                    walk(z, f"{path}[{i}]", level + 1)
            return
        if isinstance(v, dict):
            seen.add(id(v))
            for k, z in v.items():
                walk(z, f"{path}[{k!r}]", level + 1)
            return
        if isinstance(v, list | tuple):
            seen.add(id(v))
            for i, z in enumerate(v):
                walk(z, f"{path}[{i}]", level + 1)
            return
        if isinstance(v, sp.MatrixBase):
            for i, z in enumerate(v):
                walk(z, f"{path}[{i}]", level + 1)
            return
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            seen.add(id(v))
            for f in dataclasses.fields(v):
                walk(getattr(v, f.name), f"{path}.{f.name}", level + 1)
            return
        if not _finite_scalar(v):
            found.append(f"{path} = {v!r}")

    walk(value, "out", 0)
    return found


# ---------------------------------------------------------------------------
# entry points and the check
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One public callable: how to call it well, and the kind of each argument.

    ``name`` is the name a user types (``kunin.closed_form``, ``kunin.Trajectory.at``);
    ``call`` the callable (a bound method for ``.at``); ``good`` makes fresh keyword
    arguments for a call that succeeds; ``kinds`` maps every argument the fuzz corrupts to a
    key of ``BAD``; ``numbers`` picks from the output what must be finite (default: all of
    it, see ``non_finite``); ``exempt`` names arguments left out, each with the reason.
    """

    name: str
    call: Callable[..., Any]
    good: Callable[[], dict[str, Any]]
    kinds: dict[str, str]
    numbers: Callable[[Any], Any] = lambda out: out
    exempt: dict[str, str] = field(default_factory=dict)


class HangError(Exception):
    """A fuzzed call outlived ``BUDGET_S``."""


@contextlib.contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Raise ``HangError`` in the calling (main) thread after ``seconds`` of wall time."""
    assert threading.current_thread() is threading.main_thread(), "the budget needs SIGALRM"

    def fire(signum: int, frame: Any) -> None:
        raise HangError(f"the call took more than {seconds:g} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def call_good(entry: Entry) -> Any:
    """The entry's good call: it must succeed with finite numbers (else the fuzz is void)."""
    with budget(BUDGET_S):
        out = entry.call(**entry.good())
        bad = non_finite(entry.numbers(out))
    assert not bad, f"{entry.name}'s good call returned non-finite numbers at {bad}"
    return out


def check(entry: Entry, arg: str, bad: Any) -> None:
    """Call ``entry`` with ``arg = bad`` and every other argument good; see the module doc."""
    kwargs = {**entry.good(), arg: bad}
    if hasattr(builtins, SENTINEL):
        delattr(builtins, SENTINEL)
    where = f"{entry.name}({arg}={bad!r})"
    try:
        with budget(BUDGET_S), warnings.catch_warnings():
            # a complex value silently cast to real is a wrong answer, not a warning
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            out = entry.call(**kwargs)
            bad_paths = non_finite(entry.numbers(out))
    except PaceError as exc:  # the work refused: names max_steps (see the module doc)
        assert names("max_steps", str(exc)), f"{where}: {exc}"
    except (TypeError, ValueError) as exc:
        assert names(arg, str(exc)), f"{where}: {type(exc).__name__} does not name {arg!r}: {exc}"
    else:
        assert not bad_paths, f"{where} returned non-finite numbers at {bad_paths}"
    finally:
        ran = hasattr(builtins, SENTINEL)
        if ran:
            delattr(builtins, SENTINEL)
    assert not ran, f"{where}: the string was run as code"
