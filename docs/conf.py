"""Sphinx configuration of the ``solvable`` documentation.

Build (from the repository root; ``pip install ".[docs]"`` first)::

    python -m sphinx -W -b html docs docs/_build/html

Environment switches for a quick build (``0`` off, ``1`` or unset on):

* ``SOLVABLE_DOCS_EXECUTE=0``: do not execute the notebooks (their pages show the code only);
* ``SOLVABLE_DOCS_FIGURES=0``: do not render the gallery's images (about 4 minutes on 2 cores).

Everything generated (API pages, notebook copies, figures, the pinned kernelspec) goes to
``docs/_generated/`` (git-ignored) through the local extension ``_ext/solvable_docs.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# the checkout's package, before any installed copy, for autodoc and for the notebook kernel
sys.path[:0] = [str(DOCS / "_ext"), str(ROOT)]
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

import solvable_docs  # noqa: E402  (found through the path set just above)

from solvable import __version__  # noqa: E402

project = "solvable"
author = "the solvable authors"
copyright = "the solvable authors"
version = release = __version__

extensions = [
    "sphinx.ext.autodoc",
    # numpy-style sections (Parameters, Returns, ...) through napoleon rather than numpydoc:
    # napoleon leaves a docstring without sections as plain reST and needs no autosummary
    # stubs for class members, where numpydoc's class-member tables and its section parser
    # turn every loose docstring of the package into a -W failure.
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.intersphinx",  # links to Python, numpy, scipy, sympy, torch, mpmath (local files)
    "myst_nb",  # Markdown pages (MyST) and the notebooks, executed at build time
    "solvable_docs",  # the registries' tables, the gallery, the generated API pages
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "**/.ipynb_checkpoints", "_generated/jupyter", "_inventories"]

# --- autodoc / napoleon
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_member_order = "bysource"
# hints in the signature only: "description" repeats every parameter a numpy-style
# "Parameters" section already lists
autodoc_typehints = "signature"
# defaults shown as their repr: autodoc_preserve_defaults = True fails ("error while
# formatting arguments ... pop from empty list") on some signatures of the package
autodoc_preserve_defaults = False
nitpicky = False  # unresolved references (numpy, sympy types in hints) are not errors

# --- intersphinx, without network: each project's real site as the target of its links, and
# as its inventory a committed file holding only the objects these pages reference, written by
# _inventories/make_inventories.py from its table (a build never downloads an objects.inv)
sys.path.insert(0, str(DOCS / "_inventories"))
from make_inventories import BASES  # noqa: E402

intersphinx_mapping = {
    project: (base, str(Path("_inventories") / f"{project}.inv")) for project, base in BASES.items()
}

# smart quotes and ellipses, but no dashes: "--full" in a caption or a command stays as typed
# (the default made it an en dash in 18 captions of the gallery; issue 30)
smartquotes_action = "qe"

# --- MyST and the notebooks
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
nb_execution_mode = "force" if solvable_docs.switch("SOLVABLE_DOCS_EXECUTE") else "off"
nb_execution_timeout = 600  # per cell; the longest cell takes under a minute on 2 cores
nb_execution_raise_on_error = True  # a failing notebook fails the build
nb_execution_show_tb = True
nb_merge_streams = True
solvable_notebooks = str(ROOT / "notebooks")

# a ``python3`` kernelspec pinned to this interpreter, found first by jupyter, so the
# notebooks run in the environment that builds the docs (as tests/test_notebooks.py does)
_jupyter = DOCS / "_generated" / "jupyter"
if nb_execution_mode != "off":
    from ipykernel.kernelspec import write_kernel_spec

    _kernel = _jupyter / "kernels" / "python3"
    if _kernel.exists():
        import shutil

        shutil.rmtree(_kernel)
    write_kernel_spec(path=str(_kernel))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        filter(None, [str(_jupyter), os.environ.get("JUPYTER_PATH")])
    )

# --- HTML
html_theme = "alabaster"
html_title = f"solvable {release}"
html_theme_options = {"page_width": "1200px", "sidebar_width": "240px"}
