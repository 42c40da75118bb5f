"""Every notebook in notebooks/ runs top to bottom, and is committed without outputs.

The notebooks are executed with nbclient on a ``python3`` kernel that is pinned to the
interpreter running the tests (a kernelspec written into a temporary directory that leads
``JUPYTER_PATH``), so a ``python3`` kernelspec elsewhere on the machine cannot substitute
another environment; the kernel imports the same ``solvable``/``numerics`` as the tests.

Executing them takes about 6 CPU minutes, so it carries the ``docs`` marker (``pytest -m
docs``): the default suite checks that they are committed without outputs and import the
public API only, and the documentation build (README command 3, run by ``.ci/run``) executes
every notebook with ``nb_execution_raise_on_error``, so a failing notebook still fails CI.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import write_kernel_spec
from nbclient import NotebookClient

import solvable

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT_S = 300


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for k, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: cell {k} has outputs"
            assert cell.execution_count is None, f"{path.name}: cell {k} has an execution count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_imports_the_public_api_only(path):
    """A notebook is a user's derivation: it imports no private module or name (``_core``,
    ``_evaluators``, ``_name``), as a user reading it would copy it."""

    nb = nbformat.read(path, as_version=4)
    for k, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tree = ast.parse("\n".join(line for line in cell.source.splitlines()
                                   if not line.lstrip().startswith(("%", "!"))))  # fmt: skip
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(a.name for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            private = [n for n in names if any(p.startswith("_") for p in n.split("."))]
            assert not private, f"{path.name}: cell {k} imports private {private}"


@pytest.fixture
def python3_kernel(tmp_path, monkeypatch):
    """A ``python3`` kernelspec whose argv is this interpreter, found first by jupyter."""
    write_kernel_spec(path=str(tmp_path / "kernels" / "python3"))
    jupyter_path = os.environ.get("JUPYTER_PATH")
    monkeypatch.setenv("JUPYTER_PATH", os.pathsep.join(filter(None, [str(tmp_path), jupyter_path])))
    # the kernel imports the package the tests import (editable checkout or installed copy)
    root = str(Path(solvable.__file__).resolve().parent.parent)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    )
    return "python3"


@pytest.mark.docs  # minutes: the docs build (README command 3, in CI) executes them too
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path, python3_kernel):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name=python3_kernel,
        timeout=CELL_TIMEOUT_S,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
