"""Modules loaded on first use, declared at module level.

``mp = lazy_module("numerics.mp")`` at the top of a module names the dependency where a
reader (and ``tests/test_layers.py``'s import graph) looks for it, and defers the import
until an attribute of ``mp`` is first read.  ``import solvable``, ``import numerics`` and the
pytest plugin then load only what they use (issue 30: each under 0.5 s, the plugin under
0.2 s, where they took 1-7 s).

Not the standard library's :class:`importlib.util.LazyLoader`: before Python 3.12 its
loading is not thread-safe (threads that reach a lazy module together see it half
executed, ``AttributeError``; ``tests/test_lazy_imports.py`` shows it).  Here the first
attribute read runs an ordinary import (:func:`importlib.import_module`, under the import
system's per-module lock) and every read delegates to the module it returns.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType
from typing import Any

__all__ = ["lazy_module"]


class _LazyModule(ModuleType):
    """A stand-in for the module of the same ``__name__``: reading an attribute it does not
    have imports that module (once; then the import system's cache) and reads it there;
    setting or deleting one does it on that module."""

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self.__name__), attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        # on the module itself (a monkeypatch of numerics.scipy_ode.MAX_STEPS reaches it)
        setattr(importlib.import_module(self.__name__), attr, value)

    def __delattr__(self, attr: str) -> None:
        delattr(importlib.import_module(self.__name__), attr)

    def __repr__(self) -> str:
        return f"<lazy module {self.__name__!r}>"


def lazy_module(name: str) -> ModuleType:
    """The module ``name``: itself if it is imported already, else a stand-in that imports
    it when an attribute is first read (its parent packages are imported now, as ``import
    name`` would; where the parent has no attribute of that name yet, the stand-in is bound
    there until the import binds the module itself).  ``ModuleNotFoundError`` now if there
    is no such module."""
    if name in sys.modules:
        return sys.modules[name]
    if importlib.util.find_spec(name) is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    module = _LazyModule(name)
    parent, _, child = name.rpartition(".")
    if parent and not hasattr(sys.modules[parent], child):
        setattr(sys.modules[parent], child, module)
    return module
