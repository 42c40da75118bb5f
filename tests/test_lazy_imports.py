"""What ``import solvable``, ``import numerics`` and the pytest plugin load (issue 30: each
was 1-7 s, the plugin's cost paid by every pytest run in the environment): the heavy
modules behind them (sympy, scipy.integrate, torch, the models) load on first use, checked
in a fresh interpreter by what is in ``sys.modules`` (tests assert no wall-clock times;
``python benchmarks/import_times.py`` measures them).  And the lazy names still resolve."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import numerics
import solvable
from solvable._core import claims, model, tolerance
from solvable._core.lazy import lazy_module


def _loaded_after(code: str) -> set[str]:
    """The modules imported (in ``sys.modules``) after running ``code`` in a fresh
    interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120).stdout  # fmt: skip
    return set(json.loads(out.strip().splitlines()[-1]))


def _under(names: set[str], *packages: str) -> set[str]:
    return {n for n in names if any(n == p or n.startswith(p + ".") for p in packages)}


def test_import_solvable_loads_no_sympy_numpy_or_model():
    loaded = _loaded_after("import solvable")
    assert not _under(loaded, "sympy", "numpy", "scipy", "torch", "solvable.models",
                      "solvable.verification", "numerics")  # fmt: skip
    # the other side: naming a model imports it, and only it
    loaded = _loaded_after("from solvable import kunin")
    assert "solvable.models.kunin" in loaded and "solvable.models.xu_ziyin" not in loaded


def test_import_numerics_loads_no_integrator_torch_or_model():
    loaded = _loaded_after("import numerics")
    assert not _under(loaded, "scipy.integrate", "torch", "solvable.models", "numerics.mp",
                      "numerics.models", "numerics.torch_flow",
                      "solvable.verification")  # fmt: skip
    loaded = _loaded_after("import numerics; numerics.scipy_ode.DOP853")
    assert "scipy.integrate" in loaded  # loaded on first use


def test_the_pytest_plugin_loads_neither_the_oracle_nor_sympy():
    loaded = _loaded_after("import solvable.verification.pytest_plugin")
    assert not _under(loaded, "sympy", "numpy", "solvable.verification.testing",
                      "solvable.models", "numerics")  # fmt: skip


def test_a_pytest_run_that_uses_no_fixture_does_not_load_the_oracle(tmp_path):
    """pytest looks at every object of a plugin's namespace (its fixture scan): the oracle
    module is kept where that look does not load it."""
    (tmp_path / "test_plain.py").write_text(
        "import sys\n\ndef test_plain():\n"
        "    assert 'solvable.verification.pytest_plugin' in sys.modules  # (it is loaded)\n"
        "    assert 'solvable.verification.testing' not in sys.modules\n"
        "    assert 'sympy' not in sys.modules\n"
    )
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "no:randomly", "-p", "no:xdist", str(tmp_path)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_lazy_names_resolve_to_the_modules_own_objects():
    assert solvable.Theorem is claims.Theorem and solvable.Erratum is claims.Erratum
    assert solvable.Model is model.Model and solvable.monte_carlo is tolerance.monte_carlo
    assert [m.name for m in solvable.MODELS] == list(solvable._MODEL_MODULES)
    assert solvable.MODELS is solvable.MODELS  # built once
    assert solvable.kunin is sys.modules["solvable.models.kunin"]
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        solvable.nope  # noqa: B018
    assert {"MODELS", "Theorem", "kunin"} <= set(dir(solvable))


def test_dir_of_numerics_shows_its_api_and_every_submodule():
    here = Path(numerics.__file__).parent
    modules = {p.stem for p in here.glob("*.py") if p.stem != "__init__"}
    packages = {p.name for p in here.iterdir() if (p / "__init__.py").exists()}
    files = modules | packages
    assert set(numerics._SUBMODULES) == files
    assert set(dir(numerics)) == {*numerics.__all__, *files}  # no np, math, Any
    assert numerics.torch_flow.gradient_flow.__module__ == "numerics.torch_flow.flow"


def test_lazy_module_gives_a_loaded_module_as_is_and_refuses_an_unknown_one():
    assert lazy_module("json") is json
    with pytest.raises(ModuleNotFoundError, match=r"no module named 'solvable\.nope'"):
        lazy_module("solvable.nope")


def _prints_ok(code: str) -> None:
    """``code`` run in a fresh interpreter ends by printing ``ok`` (its asserts held)."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert run.stdout.strip() == "ok", run.stderr


def test_a_lazy_module_loads_once_for_threads_that_reach_it_together():
    code = (
        "import sys, threading\n"
        "from solvable._core.lazy import lazy_module\n"
        "m = lazy_module('fractions')\n"
        "seen, start = [], threading.Barrier(8)\n"
        "def use():\n"
        "    start.wait()\n"
        "    seen.append(m.Fraction(1, 3) + m.Fraction(1, 6))\n"
        "ts = [threading.Thread(target=use) for _ in range(8)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "import fractions\n"
        "assert len(seen) == 8 and all(str(v) == '1/2' for v in seen), seen\n"
        "assert fractions.Fraction is m.Fraction\n"
        "print('ok')\n"
    )
    _prints_ok(code)


def test_the_threads_of_this_process_see_the_same_lazy_module():
    m = lazy_module("solvable._core.exact_gram")  # (imported by now or lazily: either way)
    out = []
    threads = [threading.Thread(target=lambda: out.append(m.to_fraction)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(map(id, out))) == 1


def test_a_stand_in_passes_writes_to_its_module(monkeypatch):
    """A monkeypatch through a stand-in (``from numerics import scipy_ode`` taken before the
    module loaded) reaches the module itself, and so does its undo."""
    stand_in = lazy_module("solvable._core.lazy")  # loaded: the module itself
    assert stand_in is sys.modules["solvable._core.lazy"]
    code = (
        "import sys\n"
        "from solvable._core.lazy import lazy_module\n"
        "m = lazy_module('fractions')\n"
        "assert 'fractions' not in sys.modules and repr(m) == \"<lazy module 'fractions'>\"\n"
        "m.FLAG = 7\n"
        "import fractions\n"
        "assert fractions.FLAG == 7 and m.FLAG == 7\n"
        "del m.FLAG\n"
        "assert not hasattr(fractions, 'FLAG')\n"
        "print('ok')\n"
    )
    _prints_ok(code)


def test_dir_of_a_fresh_solvable_lists_the_names_not_yet_loaded():
    """``dir(solvable)`` right after ``import solvable`` (nothing loaded yet) lists the lazy
    names too: the models, MODELS and the core records."""
    _prints_ok(
        "import solvable\n"
        "names = set(dir(solvable))\n"
        "assert {'MODELS', 'Theorem', 'kunin', 'generate', 'MC_CONFIDENCE'} <= names, names\n"
        "import sys\n"
        "assert 'solvable.models.kunin' not in sys.modules\n"
        "print('ok')\n"
    )
