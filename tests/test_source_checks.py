"""Checks of every module's source that no single test's coverage reaches.

Every module compiles without a warning, every annotation evaluates, and every dataclass is
frozen (the design's immutable validated inputs: a record whose fields could be reassigned
after ``__post_init__`` checked them would carry unchecked or stale values).

A ``SyntaxWarning`` is raised when a module is compiled, and an annotation is a string under
``from __future__ import annotations`` until something evaluates it (``typing.get_type_hints``:
Sphinx's autodoc, which renders the API pages' signatures, runtime type checkers, IDEs).
Neither runs a line of the module inside a test, so the mutation run's per-line test
selection would never pick these tests: ``benchmarks/mutation_sample.py`` runs this file for
every mutant (``every-mutant-tests`` in ``pyproject.toml``).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pathlib
import pkgutil
import re
import sys
import types
import typing
import warnings

import pytest

import numerics
import solvable

PACKAGES = (solvable, numerics)


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return sorted(names)


MODULES = _modules()


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_module_compiles_without_syntax_warnings(package):
    """Every module compiles with warnings as errors: no ``SyntaxWarning`` (``is`` against a
    literal, whose result depends on interning; an invalid escape sequence), so
    ``python -W error -c 'import solvable.models.phases'`` works from a fresh checkout (compiling
    is what warns, before any ``.pyc`` exists)."""
    files = sorted(pathlib.Path(package.__file__).parent.rglob("*.py"))
    assert len(files) > 5  # the package's own files, not an empty glob
    bad = []
    for path in files:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                compile(path.read_text(encoding="utf-8"), str(path), "exec")
            except (SyntaxWarning, SyntaxError) as exc:  # a warning raised as an error
                bad.append(f"{path}: {exc}")
    assert not bad, bad


def _own_class_hints(cls: type) -> dict[str, typing.Any]:
    """The class's own annotations, evaluated in its module (its bases' are not ours: sympy's
    own classes carry annotations ``get_type_hints`` cannot evaluate)."""
    own = dict(vars(cls).get("__annotations__", {}))
    stand_in = type(cls.__name__, (), {"__annotations__": own, "__module__": cls.__module__})
    return typing.get_type_hints(stand_in, localns=dict(vars(cls)))


def _annotated(module: typing.Any) -> typing.Iterator[tuple[str, typing.Any, bool]]:
    """``(qualified name, object, is a class)`` for every function, method, property and
    class defined in ``module`` (not imported into it)."""
    seen: set[int] = set()

    def walk(obj: typing.Any, name: str) -> typing.Iterator[tuple[str, typing.Any, bool]]:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if inspect.isclass(obj):
            yield name, obj, True
            for attr, member in vars(obj).items():
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if isinstance(member, property):
                    for part in (member.fget, member.fset):
                        if part is not None:
                            yield f"{name}.{attr}", part, False
                elif inspect.isfunction(member) or inspect.isclass(member):
                    if getattr(member, "__module__", None) == module.__name__:
                        yield from walk(member, f"{name}.{attr}")
        elif callable(obj):
            yield name, obj, False

    for attr, obj in list(vars(module).items()):  # (a lazy import may bind more)
        target = inspect.unwrap(obj) if callable(obj) else obj
        if (inspect.isfunction(target) or inspect.isclass(target)) and getattr(
            target, "__module__", None
        ) == module.__name__:
            yield from walk(target, attr)


def _unresolved(module: typing.Any) -> tuple[list[str], int]:
    """The annotations of ``module``'s own definitions that do not evaluate, and how many
    definitions were looked at."""
    bad, count = [], 0
    for qualname, obj, is_class in _annotated(module):
        count += 1
        try:
            _own_class_hints(obj) if is_class else typing.get_type_hints(obj)
        except Exception as exc:
            bad.append(f"{module.__name__}.{qualname}: {type(exc).__name__}: {exc}")
    return bad, count


@pytest.mark.parametrize("name", MODULES)
def test_every_annotation_is_a_valid_type_expression(name):
    """Every annotation of every function, method, property and class of the module
    evaluates (``typing.get_type_hints``): ``int | None`` is a type, ``int // None`` (a
    typo, or an operator slip) is a ``TypeError`` the API page of the function would hit."""
    module = importlib.import_module(name)
    bad, count = _unresolved(module)
    assert not bad, "\n".join(bad)
    own = {id(v) for v in vars(module).values()
           if inspect.isfunction(v) and v.__module__ == name}  # fmt: skip
    assert count >= len(own)  # the walk saw at least the module's own functions (an alias,
    # ``_threads = threads``, is one function)


BROKEN = """
from __future__ import annotations
import ast
import dataclasses

def fine(x: int | None) -> list[int]: ...
def function(x: int // None) -> int: ...

class Holder:
    size: int | None
    def method(self, y: float - None) -> None: ...
    @property
    def value(self) -> str ^ bytes: ...
    @staticmethod
    def static(z: int % None) -> None: ...

@dataclasses.dataclass
class Record:
    field: int >> None
"""


def test_the_annotation_check_finds_every_kind_of_broken_annotation():
    """The check above fails on what it is meant to find (a check that cannot fail is no
    check): a module with a broken annotation on a function, a method, a property, a
    static method and a dataclass field, and a sound one on a function and a field."""
    module = types.ModuleType("broken_annotations")
    sys.modules[module.__name__] = module  # get_type_hints looks classes' modules up here
    try:
        exec(BROKEN, vars(module))
        bad, count = _unresolved(module)
    finally:
        del sys.modules[module.__name__]
    found = sorted(line.split(":")[0] for line in bad)
    assert found == [
        f"broken_annotations.{q}"
        for q in (
            "Holder.method",
            "Holder.static",
            "Holder.value",
            "Record",
            "Record.__init__",
            "function",
        )
    ]
    assert count == 10  # fine, function, Holder + 3 members, Record + __init__, __repr__, __eq__


def _mutable_dataclasses(module: typing.Any) -> tuple[list[str], int]:
    """The dataclasses defined in ``module`` (at module level or nested in its classes) that
    are not frozen, and how many dataclasses there are."""
    mutable, count = [], 0
    for qualname, obj, is_class in _annotated(module):
        if is_class and dataclasses.is_dataclass(obj):
            count += 1
            if not obj.__dataclass_params__.frozen:
                mutable.append(f"{module.__name__}.{qualname}")
    return mutable, count


@pytest.mark.parametrize("name", MODULES)
def test_every_dataclass_is_frozen(name):
    """Every record of the package is immutable (``@dataclass(frozen=True)``): its fields
    are checked once, in ``__post_init__``, and a reassignment would skip the check or leave
    derived fields stale (``alpha_scaling.AlphaCurve.means`` of its ``values``)."""
    mutable, _ = _mutable_dataclasses(importlib.import_module(name))
    assert not mutable, mutable


def test_the_package_has_records_and_the_frozen_check_finds_a_mutable_one():
    """The check above can fail: a module with one frozen and one mutable dataclass (nested
    in a class, as the walk must find too)."""
    total = sum(_mutable_dataclasses(importlib.import_module(n))[1] for n in MODULES)
    assert total > 50  # the package's records were walked (105 on 29 November)
    module = types.ModuleType("records")
    sys.modules[module.__name__] = module
    try:
        exec(
            "import dataclasses\n"
            "@dataclasses.dataclass(frozen=True)\nclass Fine:\n    x: int = 0\n"
            "class Holder:\n    @dataclasses.dataclass\n    class Loose:\n        y: int = 0\n",
            vars(module),
        )
        mutable, count = _mutable_dataclasses(module)
    finally:
        del sys.modules[module.__name__]
    assert (mutable, count) == (["records.Holder.Loose"], 2)


# ---------------------------------------------------------------------------
# running worst errors: NaN kept, an empty sweep fails (the seed-3 run's kinds)
# ---------------------------------------------------------------------------
_DROPS_NAN = re.compile(
    r"\bif [\w\[\]]+ >=? worst\b|(?<![.\w])max\((\*|\w*(err|worst|units)|\w+\.items\(\), key=)"
)
# ``worst = 0.0`` and the tuple form ``lines, worst, tol = [], 0.0, None`` (worst's value 0)
_ZERO_START = re.compile(
    r"^\s*worst\w*(, \w+)* = 0(\.0)?\b"
    r"|^\s*(?P<before>(\w+, )+)worst\w*(, \w+)* = (?P<values>[^\n]+)$",
    re.MULTILINE,
)


def _zero_starts(text: str) -> list[str]:
    """The running worsts of ``text`` that start at 0 (plain or in a tuple assignment)."""
    out = []
    for m in _ZERO_START.finditer(text):
        if m.group("before") is None:
            out.append(m.group(0).strip())
            continue
        k = m.group("before").count(",")  # worst's position among the targets
        values = [v.strip() for v in m.group("values").split(",")]
        if k < len(values) and re.fullmatch(r"0(\.0)?", values[k]):
            out.append(m.group(0).strip())
    return out


def _sources() -> dict[str, str]:
    out = {}
    for package in PACKAGES:
        root = pathlib.Path(package.__file__).parent
        out.update({str(p.relative_to(root.parent)): p.read_text() for p in root.rglob("*.py")})
    return out


def test_no_running_worst_drops_a_nan_or_starts_at_zero():
    """``if err > worst: worst = err`` never takes a NaN ``err`` (the comparison is False),
    and ``max(errors)`` drops a NaN that is not first, so a term that failed to compute left
    the check confirmed (``tolerance.worst_of`` keeps it); ``worst = 0.0`` before a
    loop reads as a perfect agreement when the loop compared nothing (an emptied loop of
    ``solvable/verification/confirmations/mirror_flow.py`` confirmed its claim in the seed-3
    mutation
    run).  Every running worst uses ``tolerance.beats`` and starts at
    ``tolerance.NOTHING_COMPARED``, which ``Verdict.from_error`` fails (the figures draw
    numbers, they confirm nothing, and are not checked here)."""
    found = []
    for path, text in _sources().items():
        if "figures" in path or path.endswith("_core/tolerance.py"):  # worst_of is a max
            continue
        found += [f"{path}: {m.group(0).strip()}" for m in _DROPS_NAN.finditer(text)]
        found += [f"{path}: {z}" for z in _zero_starts(text)]
    assert not found, found


def test_the_running_worst_patterns_are_found():
    assert _DROPS_NAN.search("            if err > worst:") and _DROPS_NAN.search(
        "if units[k] > worst:"
    )
    assert _ZERO_START.search("    worst, where = 0.0, ''") and _ZERO_START.search("  worst = 0")
    assert not _ZERO_START.search("    worst = NOTHING_COMPARED")
    assert _zero_starts("    lines, worst, tol = [], 0.0, None\n") == [
        "lines, worst, tol = [], 0.0, None"
    ]
    assert _zero_starts("    lines, worst, tol = [], NOTHING_COMPARED, None\n") == []
    assert _zero_starts("    n, worst = 0, NOTHING_COMPARED\n") == []  # 0 is n's
    assert _DROPS_NAN.search("        if units >= worst or tol is None:")
    assert not _DROPS_NAN.search("if beats(err, worst):")
    assert _DROPS_NAN.search("worst = max(worst_f64, worst_mp)")
    assert _DROPS_NAN.search("e = max(error_in_units(a, b, tol) for a in x)")
    assert not _DROPS_NAN.search("np.max(units)") and not _DROPS_NAN.search("max(widths)")
    assert _DROPS_NAN.search("where, worst = max(checks.items(), key=lambda kv: kv[1])")


# ---------------------------------------------------------------------------
# the full/fast switch: one spelling, so a swapped branch is visible
# ---------------------------------------------------------------------------
def _negated_full(text: str) -> list[int]:
    """Lines where the mode flag ``full`` is negated (``not full``)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.Not)
        and isinstance(node.operand, ast.Name)
        and node.operand.id == "full"
    ]


def test_the_full_mode_switch_is_never_negated():
    """Every confirmation, figure and sweep with a ``full`` mode spells the switch one way,
    ``full_value if full else fast_value`` (or ``if full:``), never with ``not full``.  A
    swapped switch runs the fast sample where ``full=True`` was asked for (and the full one
    by default): the verdict usually reads the same, so no value check sees it, and only a
    slow run would (a swapped ``40_000 if full else 20_000`` of
    ``confirmations/kernels.py`` survived the seed-3 mutation run).  With one spelling the
    swap is the pattern itself, for every one of the package's ~80 switches at once."""
    found = [f"{path}:{line}" for path, text in _sources().items() for line in _negated_full(text)]
    assert not found, found


def test_the_negated_full_switch_is_found():
    assert _negated_full("n = 4 if not full else 8\n") == [1]
    assert _negated_full("def f(full):\n    if not full:\n        return 1\n") == [2]
    assert _negated_full("n = 8 if full else 4\nif full:\n    pass\n") == []
    assert _negated_full("ok = not fully\n") == []
