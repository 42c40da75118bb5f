"""The short import paths of the public contract (``DESIGN.md``) after the layers became
folders: ``solvable.<model>`` is ``solvable.models.<model>`` and ``solvable.theorems``,
``solvable.testing``, ... are ``solvable.verification.<name>`` -- the same module objects
(:mod:`solvable._core.aliases`), in every import form a user writes."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import types

import pytest

import numerics
import solvable
from solvable._core.aliases import AliasFinder

MODELS = solvable._MODEL_MODULES
VERIFICATION = solvable._VERIFICATION_MODULES


@pytest.mark.parametrize("name", MODELS)
def test_a_model_is_one_module_under_both_paths(name):
    (finder,) = [f for f in sys.meta_path if isinstance(f, AliasFinder)]
    assert finder.home(f"solvable.{name}") == f"solvable.models.{name}"  # in the table
    home = importlib.import_module(f"solvable.models.{name}")
    assert importlib.import_module(f"solvable.{name}") is home
    assert getattr(solvable, name) is home  # bound by ``import solvable``
    assert sys.modules[f"solvable.{name}"] is home
    assert home.__name__ == f"solvable.models.{name}"  # the home keeps its name
    assert home.MODEL in solvable.MODELS


@pytest.mark.parametrize("name", VERIFICATION)
def test_a_verification_module_is_one_module_under_both_paths(name):
    (finder,) = [f for f in sys.meta_path if isinstance(f, AliasFinder)]
    assert finder.home(f"solvable.{name}") == f"solvable.verification.{name}"
    home = importlib.import_module(f"solvable.verification.{name}")
    assert importlib.import_module(f"solvable.{name}") is home
    assert home.__name__ == f"solvable.verification.{name}"


def test_every_import_form_of_the_contract():
    import solvable.confirmations.kunin as confirm_kunin_2
    import solvable.verification.confirmations.kunin as confirm_kunin_home
    from solvable import errata, kunin, theorems
    from solvable.confirmations import kunin as confirm_kunin
    from solvable.testing import TrajectoryOracle
    from solvable.xu_ziyin import Setup

    assert kunin is solvable.models.kunin and Setup is solvable.models.xu_ziyin.Setup
    assert theorems.registry() and errata.ERRATA
    assert confirm_kunin is confirm_kunin_2 is confirm_kunin_home  # a submodule: no copy
    assert TrajectoryOracle is solvable.verification.testing.TrajectoryOracle


def test_import_solvable_loads_no_verification_and_no_numerics():
    code = ("import sys, solvable; "
            "print(sorted(m for m in sys.modules if m.startswith(('solvable.verification', "
            "'numerics'))))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_an_unknown_short_path_is_a_clear_import_error():
    with pytest.raises(ModuleNotFoundError, match=r"solvable\.no_such_model"):
        importlib.import_module("solvable.no_such_model")
    with pytest.raises(ModuleNotFoundError, match=r"solvable\.verification\.confirmations\.nope"):
        importlib.import_module("solvable.confirmations.nope")


def test_the_finder_maps_names_at_dot_boundaries_only():
    finder = AliasFinder({"pkg.a": "pkg.home.a"})
    assert finder.home("pkg.a") == "pkg.home.a"
    assert finder.home("pkg.a.b.c") == "pkg.home.a.b.c"
    assert finder.home("pkg.ab") is None  # a longer name is not below the alias
    assert finder.home("pkg") is None and finder.home("other.a") is None
    assert finder.find_spec("pkg.ab") is None


def test_one_finder_however_often_solvable_is_reloaded():
    importlib.reload(solvable)
    assert sum(isinstance(f, AliasFinder) for f in sys.meta_path) == 1


@pytest.mark.parametrize("name", MODELS)
def test_no_file_of_a_model_package_hides_a_public_name(name):
    """Importing ``pkg.sub`` binds ``sub`` on ``pkg``: a file named like a public function
    (``kunin/claims.py`` beside ``kunin.claims()``) would replace the function by the module
    as soon as anything imports that file, and a monkeypatch of it would do nothing."""
    package = importlib.import_module(f"solvable.models.{name}")
    if not hasattr(package, "__path__"):
        return  # a single-file model
    files = {info.name for info in pkgutil.iter_modules(package.__path__)}
    for sub in files:
        importlib.import_module(f"{package.__name__}.{sub}")
    public = set(getattr(package, "__all__", ())) | {"MODEL", "claims", "errata", "laws"}
    clash = sorted(n for n in public & files)
    assert not clash, f"{package.__name__}: files named like public names: {clash}"
    assert all(not isinstance(getattr(package, n), types.ModuleType)
               for n in public if hasattr(package, n))  # fmt: skip


def test_every_simulatable_model_exports_its_setup_as_setup():
    """Issue 30: ``<model>.Setup`` exists for every model a user simulates, and it is a
    setup one of the model's own systems (or, for linear_node_scaling, node_scaling's)
    dispatches on."""
    dispatch = set(numerics.systems())
    for model in solvable.MODELS:
        module = importlib.import_module(f"solvable.models.{model.name}")
        if model.systems or model.name == "linear_node_scaling":
            assert hasattr(module, "Setup"), model.name
            assert "Setup" in module.__all__, model.name
            assert module.Setup in dispatch, model.name
        if model.systems:
            assert module.Setup in {s.setup_type for s in model.systems}, model.name
