"""The pytest plugin of ``solvable`` (registered through the ``pytest11`` entry point, so an
installed package provides it to every pytest run; disable with ``-p no:solvable``).

Fixtures:

* ``solvable_oracle``: a :class:`solvable.verification.testing.Oracle`, one method per exact
  solution::

      def test_my_trainer(solvable_oracle):
          oracle = solvable_oracle.xu_ziyin(setup, u0, W0)
          oracle.check(times, us, Ws, lr=1e-3)

* ``solvable_edge_case``: a named initial condition of a model
  (:class:`solvable.verification.testing.EdgeCase`: ``setup``, ``out0``, ``in0`` as float64 arrays,
  ``oracle()``), parametrised over the cases with the marker ``solvable_cases``::

      @pytest.mark.solvable_cases("xu_ziyin")            # every xu_ziyin case
      @pytest.mark.solvable_cases("kunin", "lazy", "balanced")   # or some by name
      def test_edges(solvable_edge_case): ...

  or indirectly, ``@pytest.mark.parametrize("solvable_edge_case",
  solvable.verification.testing.edge_cases("kunin"), indirect=True)``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

import solvable.verification
from solvable._core.lazy import lazy_module

# Every pytest run in the environment loads this plugin: the oracle (and sympy, numpy, the
# models behind it, 1.4 s) is imported when a test uses a fixture, not before (issue 30).
# Held in a tuple: pytest reads an attribute of every object in a plugin's namespace, which
# would load a lazy module found there.
_TESTING = (lazy_module("solvable.verification.testing"),)


def _testing() -> ModuleType:
    """:mod:`solvable.verification.testing`, imported on first use."""
    return _TESTING[0]


__all__ = ["pytest_configure", "pytest_generate_tests", "solvable_edge_case", "solvable_oracle"]

_MARKER = "solvable_cases"


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        f"{_MARKER}(model, *names): parametrise the solvable_edge_case fixture over the named "
        "cases of model ('xu_ziyin', 'kunin'; all of them when no name is given)",
    )


def pytest_generate_tests(metafunc: Any) -> None:
    """Parametrise ``solvable_edge_case`` from the ``solvable_cases`` marker."""
    if "solvable_edge_case" not in metafunc.fixturenames:
        return
    markers = list(metafunc.definition.iter_markers(_MARKER))
    if not markers:
        return
    ids: list[str] = []
    for mark in markers:
        if not mark.args:
            raise pytest.UsageError(f"@pytest.mark.{_MARKER} needs a model name, e.g. "
                                    f"@pytest.mark.{_MARKER}('xu_ziyin')")  # fmt: skip
        model, *names = mark.args
        known = _testing().edge_cases(model)
        if not names:
            ids += known
            continue
        for name in names:
            case_id = f"{model}:{name}"
            if case_id not in known:
                raise pytest.UsageError(f"@pytest.mark.{_MARKER}: no case {name!r} of {model}; "
                                        f"known: {', '.join(known)}")  # fmt: skip
            ids.append(case_id)
    metafunc.parametrize("solvable_edge_case", ids, indirect=True, ids=ids)


@pytest.fixture
def solvable_oracle() -> solvable.verification.testing.Oracle:
    """The exact solutions as oracles: ``.xu_ziyin(setup, u0, W0)``, ``.kunin(setup, a0,
    w0)``, ``.kunin_wide(setup, A0, W0)``, ``.linear_node_scaling(setup, a0, W0)``,
    ``.deep_linear(setup, weights)`` (each with ``.check(times, *blocks, lr=None,
    rtol=1e-6)``) and ``.kernel(name, init, X)`` (``.check(K)``, ``.check_samples(Ks)``)."""
    return _testing().Oracle()


@pytest.fixture
def solvable_edge_case(request: Any) -> solvable.verification.testing.EdgeCase:
    """A named edge case (:class:`solvable.verification.testing.EdgeCase`), parametrised by the
    marker
    ``@pytest.mark.solvable_cases(model, *names)`` or indirectly."""
    case_id = getattr(request, "param", None)
    if case_id is None:
        raise pytest.UsageError(
            "solvable_edge_case needs parameters: mark the test "
            f"@pytest.mark.{_MARKER}('xu_ziyin') (or 'kunin', optionally with case names), or "
            "@pytest.mark.parametrize('solvable_edge_case', "
            "solvable.verification.testing.edge_cases('xu_ziyin'), indirect=True)"
        )
    return _testing().edge_case(case_id)
