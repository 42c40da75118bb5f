"""The layer rules of the package, checked on the source (imports parsed with ``ast``,
imports inside functions included):

* the layers are folders and import downward only: core (``solvable/_core/``) -> models
  (``solvable/models/``, and the package face ``solvable/__init__.py``) -> ``numerics/`` ->
  verification (``solvable/verification/``: registry, errata, confirmations, figures, CLI,
  pytest oracle and plugin; and ``solvable/__main__.py``, the CLI's entry);
* code inside the package imports the modules at their homes, never through the short
  aliases (``solvable.kunin``, ``solvable.theorems``, :mod:`solvable._core.aliases`): an
  alias resolves to the package face and would hide a layer violation from these checks;
* no import cycle among the package's modules (a package's ``__init__`` is a module too;
  a submodule's implicit import of its parent package is not counted, as Python runs the
  parent first whichever way the submodule is reached);
* first-party imports are at module level; inside functions only optional third-party
  dependencies are imported lazily (torch, dask/distributed, matplotlib, tqdm, ...); a
  module-level ``lazy_module("x")`` (:mod:`solvable._core.lazy`) counts as an import of x;
* adding a model is one module plus one line of ``solvable.MODELS``: every model module
  is listed there, and every confirmation module is named after a model.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import solvable
from solvable.verification import confirmations

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solvable", "numerics")
LAYERS = ("solvable._core", "solvable.models", "numerics", "solvable.verification")
LAZY_THIRD_PARTY = {"torch", "dask", "distributed", "matplotlib", "tqdm", "IPython", "sklearn"}
# modules of a required package that import an optional one when imported
# (sympy.printing.pytorch runs import_module("torch"))
LAZY_MODULES = {"sympy.printing.pytorch"}
MODEL_MODULES = {f"solvable.models.{m.name}" for m in solvable.MODELS}
ALIASES = {f"solvable.{n}" for n in (*solvable._MODEL_MODULES, *solvable._VERIFICATION_MODULES)}


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> list[tuple[str, int, bool]]:
    """(imported name, line, inside a function) for every import of ``module``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(n.lineno for n in ast.walk(node) if hasattr(n, "lineno"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno, node.lineno in inside) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            names = [f"{base}.{a.name}" for a in node.names]
            out += [(n, node.lineno, node.lineno in inside) for n in names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_module"
                and node.args and isinstance(node.args[0], ast.Constant)):  # fmt: skip
            # solvable._core.lazy.lazy_module("x"): an import of x, loaded on first use
            out.append((node.args[0].value, node.lineno, node.lineno in inside))
    return out


def _edges() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        for name, _line, _inside in _imports(module):
            target = _resolve(name)
            if target and target != module:
                graph[module].add(target)
    return graph


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _layer(module: str) -> int:
    if module == "solvable":  # the package face: core types and the models
        return 1
    if module == "solvable.__main__":  # ``python -m solvable``: the CLI's entry point
        return LAYERS.index("solvable.verification")
    for level, package in enumerate(LAYERS):
        if _in(module, package):
            return level
    raise AssertionError(f"module {module} belongs to no layer: place it in one of {LAYERS}")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_has_a_layer(module):
    _layer(module)


def test_layers_import_downward_only():
    bad = [
        f"{m} (layer {_layer(m)}) imports {t} (layer {_layer(t)})"
        for m, targets in _edges().items()
        for t in targets
        if _layer(t) > _layer(m)
    ]
    assert not bad, "\n".join(bad)


def test_numerics_never_imports_the_verification_layer():
    bad = [f"{m} -> {t}" for m, ts in _edges().items() if m.startswith("numerics")
           for t in ts if _in(t, "solvable.verification")]  # fmt: skip
    assert not bad, bad


def test_no_import_cycle():
    graph = _edges()
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, path: list[str]) -> bool:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle.extend([*path[path.index(nxt) :], node, nxt] if nxt in path else [node, nxt])
                return True
            if state.get(nxt) is None and visit(nxt, [*path, node]):
                return True
        state[node] = 2
        return False

    for node in sorted(graph):
        if state.get(node) is None and visit(node, []):
            break
    assert not cycle, " -> ".join(cycle)


def test_only_optional_third_party_imports_inside_functions():
    bad = []
    for module in MODULES:
        for name, line, inside in _imports(module):
            if not inside:
                continue
            top = name.split(".")[0]
            lazy_module = any(name == m or name.startswith(m + ".") for m in LAZY_MODULES)
            if top in PACKAGES or (top not in LAZY_THIRD_PARTY and not lazy_module):
                bad.append(f"{MODULES[module].relative_to(ROOT)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


def test_every_model_module_is_registered_once():
    names = [m.name for m in solvable.MODELS]
    assert len(names) == len(set(names))
    for module in MODULES:
        parts = module.split(".")
        if len(parts) == 3 and parts[:2] == ["solvable", "models"]:
            assert parts[2] in names, f"{module} is not in solvable.MODELS"
    assert {m for m in MODULES if m.count(".") == 1 and m.startswith("solvable.")} == {
        *(f"solvable.{layer}" for layer in ("_core", "models", "verification")),
        "solvable.__main__",
    }  # nothing else beside the three layer folders (and python -m solvable's entry)
    for name in confirmations.modules():
        assert name in names, f"solvable.verification.confirmations.{name} names no model"


def test_the_layer_check_can_fail(monkeypatch):
    """A model module that imports numerics is reported (the rule is not vacuous)."""
    real = _imports

    def fake(module):
        extra = [("numerics", 1, False)] if module == "solvable.models.kunin" else []
        return real(module) + extra

    monkeypatch.setattr(__import__(__name__), "_imports", fake)
    with pytest.raises(AssertionError, match=r"solvable\.models\.kunin"):
        test_layers_import_downward_only()


def _alias_imports() -> list[str]:
    return [f"{MODULES[m].relative_to(ROOT)}:{line} imports {name}"
            for m in MODULES for name, line, _inside in _imports(m)
            if any(_in(name, alias) for alias in ALIASES)]  # fmt: skip


def test_package_code_imports_the_homes_not_the_aliases():
    bad = _alias_imports()
    assert not bad, "\n".join(bad)


def test_the_alias_check_can_fail(monkeypatch):
    real = _imports

    def fake(module):
        extra = [("solvable.kunin", 7, False)] if module == "numerics.sweeps" else []
        return real(module) + extra

    monkeypatch.setattr(__import__(__name__), "_imports", fake)
    assert _alias_imports() == ["numerics/sweeps.py:7 imports solvable.kunin"]


def test_a_lazy_module_counts_as_an_import():
    """``mp = lazy_module("numerics.mp")`` is an edge of the import graph like ``import``."""
    assert {"numerics.mp", "numerics.scipy_ode", "numerics.torch_flow"} <= {
        name for name, _line, _inside in _imports("numerics")
    }
