"""pytest plugin for the mutation sample's coverage map: which tests *use* each cached function.

A function under ``functools.cache`` / ``lru_cache`` runs its body once per process, so line
coverage credits it to the first test that called it, not to the tests that read what it
built later (cache hits).  Mutants of such bodies (the sympy builders of every closed form)
kept surviving their covering tests while an existing test of their subject killed them
(seeds 2, 3, 15, 17, 18 and 19 of ``benchmarks/mutation_sample.py``).

With ``SOLVABLE_CACHE_USERS`` set to a folder, this plugin finds, after collection, every
``functools`` cache wrapper whose function lies in ``solvable/`` or ``numerics/``, reads each
one's ``cache_info()`` (hits and misses) before and after every test, and writes one JSON file
per process into the folder: the wrappers (file, first and last line of the function) and,
per test node id, the wrappers it called (``[index, missed]``).  A wrapper created after
collection (a cache built inside a function) is not seen; the line map still covers it.
Without the variable the plugin does nothing.
"""

from __future__ import annotations

import functools
import gc
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ENV = "SOLVABLE_CACHE_USERS"
_PACKAGES = ("solvable", "numerics")


def _source_span(func: Any) -> tuple[str, int, int] | None:
    """The file and the first and last line of ``func``'s source, or None outside the
    packages."""
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    path = Path(code.co_filename).resolve()
    parts = path.parts
    for i, part in enumerate(parts):
        if part in _PACKAGES:
            rel = Path(*parts[i:]).as_posix()
            break
    else:
        return None
    lines = [line for _, _, line in code.co_lines() if line is not None]
    last = max(lines, default=code.co_firstlineno)
    return rel, code.co_firstlineno, last


class _Recorder:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.wrappers: list[Any] = []
        self.spans: list[tuple[str, int, int]] = []
        self.users: dict[str, list[list[int]]] = {}

    def find_wrappers(self) -> None:
        for obj in gc.get_objects():
            if not isinstance(obj, functools._lru_cache_wrapper):
                continue
            span = _source_span(getattr(obj, "__wrapped__", None))
            if span is not None:
                self.wrappers.append(obj)
                self.spans.append(span)

    def counts(self) -> list[tuple[int, int]]:
        return [(i.hits, i.misses) for i in (w.cache_info() for w in self.wrappers)]

    def write(self) -> None:
        out = self.folder / f"cache-users-{os.getpid()}.json"
        data = {"wrappers": self.spans, "users": self.users}
        out.write_text(json.dumps(data), encoding="utf-8")


_KEY = pytest.StashKey[_Recorder]()


def pytest_configure(config: pytest.Config) -> None:
    folder = os.environ.get(ENV)
    if folder:
        config.stash[_KEY] = _Recorder(Path(folder))


def pytest_collection_finish(session: pytest.Session) -> None:
    recorder = session.config.stash.get(_KEY, None)
    if recorder is not None:
        recorder.find_wrappers()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    recorder = item.config.stash.get(_KEY, None)
    if recorder is None:
        yield
        return
    before = recorder.counts()
    yield
    after = recorder.counts()
    used = [[i, int(a[1] > b[1])] for i, (b, a) in enumerate(zip(before, after, strict=True))
            if a != b]  # fmt: skip
    if used:
        recorder.users[item.nodeid] = used


def pytest_sessionfinish(session: pytest.Session) -> None:
    recorder = session.config.stash.get(_KEY, None)
    if recorder is not None:
        recorder.write()
