"""Short import paths as aliases of the modules' homes.

The package's layers are folders (``solvable/models/``, ``solvable/verification/``), but a
user writes ``from solvable import kunin``, ``import solvable.theorems`` or
``from solvable.testing import Oracle`` (the public contract of ``DESIGN.md``).  An
:class:`AliasFinder` on ``sys.meta_path`` answers those names with the module at its home:
the *same* module object (``solvable.kunin is solvable.models.kunin``), so a monkeypatch,
an ``isinstance`` or a pickle sees one module, never a copy; a submodule of an alias
(``solvable.confirmations.kunin``) is the home's submodule too.

The finder imports a home only when its alias is imported, so the verification layer (which
imports :mod:`numerics`) is not loaded by ``import solvable``.  Code inside the package imports
the homes; ``tests/test_layers.py`` checks that.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Mapping
from types import ModuleType

__all__ = ["AliasFinder", "install"]


class AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``alias`` and ``alias.sub`` as ``home`` and ``home.sub`` (one mapping of
    fully qualified alias names to their homes)."""

    def __init__(self, aliases: Mapping[str, str]) -> None:
        self.aliases = dict(aliases)

    def home(self, fullname: str) -> str | None:
        """The home of ``fullname``, or ``None`` when it is no alias nor below one."""
        head, dot, rest = fullname, "", ""
        while head:
            if head in self.aliases:
                return self.aliases[head] + dot + rest
            head, _, tail = head.rpartition(".")
            rest, dot = (tail + dot + rest), "."
        return None

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if self.home(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        # the home module itself: the import system keeps its __name__ and __spec__ (they
        # are set) and binds it under the alias in sys.modules and on the parent package
        home = self.home(spec.name)
        assert home is not None  # find_spec answered only for aliases
        return importlib.import_module(home)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the home was executed when it was imported."""


def install(aliases: Mapping[str, str]) -> AliasFinder:
    """Put one :class:`AliasFinder` for ``aliases`` first on ``sys.meta_path`` (once: a second
    call, e.g. after ``importlib.reload(solvable)``, replaces the first).  First, because the
    path finder would otherwise find ``solvable.confirmations.kunin`` in the aliased
    package's folder and load a second copy of the module under the alias."""
    finder = AliasFinder(aliases)
    sys.meta_path[:] = [finder, *(f for f in sys.meta_path if not isinstance(f, AliasFinder))]
    return finder
