"""Write the local intersphinx inventories ``docs/_inventories/<project>.inv``.

The documentation links the names of numpy, scipy, sympy, torch, mpmath and Python that its
pages use (type hints in signatures, ``:class:`` / ``:func:`` references in docstrings) to
those projects' documentation with ``sphinx.ext.intersphinx``.  The build reads no network
(``docs/conf.py`` maps each project to its real site and to one of these files), so the
inventories are committed, and this script writes them from the table :data:`OBJECTS`: only
the objects the pages reference, each with its address on the project's site.  Run it after
editing the table, from the repository root::

    python docs/_inventories/make_inventories.py

The files are Sphinx's inventory format, version 2 (the format of every ``objects.inv``:
four header lines, then ``name domain:type priority uri dispname`` lines compressed with
zlib), written byte for byte the same on every run.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent

BASES = {
    "python": "https://docs.python.org/3/",
    "numpy": "https://numpy.org/doc/stable/",
    "scipy": "https://docs.scipy.org/doc/scipy/",
    "sympy": "https://docs.sympy.org/latest/",
    "torch": "https://pytorch.org/docs/stable/",
    "mpmath": "https://mpmath.org/doc/current/",
}
"""Each project's documentation root: the target of ``intersphinx_mapping`` in conf.py."""

_PY = {
    "class": [
        ("int", "library/functions.html#int"),
        ("float", "library/functions.html#float"),
        ("bool", "library/functions.html#bool"),
        ("complex", "library/functions.html#complex"),
        ("object", "library/functions.html#object"),
        ("type", "library/functions.html#type"),
        ("str", "library/stdtypes.html#str"),
        ("bytes", "library/stdtypes.html#bytes"),
        ("tuple", "library/stdtypes.html#tuple"),
        ("list", "library/stdtypes.html#list"),
        ("dict", "library/stdtypes.html#dict"),
        ("set", "library/stdtypes.html#set"),
        ("frozenset", "library/stdtypes.html#frozenset"),
        ("range", "library/stdtypes.html#range"),
        ("abc.ABC", "library/abc.html#abc.ABC"),
        ("collections.abc.Callable", "library/collections.abc.html#collections.abc.Callable"),
        ("collections.abc.Iterable", "library/collections.abc.html#collections.abc.Iterable"),
        ("collections.abc.Iterator", "library/collections.abc.html#collections.abc.Iterator"),
        ("collections.abc.Mapping", "library/collections.abc.html#collections.abc.Mapping"),
        ("collections.abc.Sequence", "library/collections.abc.html#collections.abc.Sequence"),
        ("decimal.Decimal", "library/decimal.html#decimal.Decimal"),
        ("fractions.Fraction", "library/fractions.html#fractions.Fraction"),
        ("numbers.Integral", "library/numbers.html#numbers.Integral"),
        ("numbers.Rational", "library/numbers.html#numbers.Rational"),
        ("numbers.Real", "library/numbers.html#numbers.Real"),
        ("os.PathLike", "library/os.html#os.PathLike"),
        ("pathlib.Path", "library/pathlib.html#pathlib.Path"),
        ("types.ModuleType", "library/types.html#types.ModuleType"),
        ("types.SimpleNamespace", "library/types.html#types.SimpleNamespace"),
        ("typing.Protocol", "library/typing.html#typing.Protocol"),
        ("typing.TypeVar", "library/typing.html#typing.TypeVar"),
    ],
    "data": [
        ("None", "library/constants.html#None"),
        ("True", "library/constants.html#True"),
        ("False", "library/constants.html#False"),
        ("typing.Any", "library/typing.html#typing.Any"),
        ("typing.ClassVar", "library/typing.html#typing.ClassVar"),
        ("typing.Literal", "library/typing.html#typing.Literal"),
        ("typing.Optional", "library/typing.html#typing.Optional"),
        ("typing.Union", "library/typing.html#typing.Union"),
    ],
    "function": [
        ("functools.cache", "library/functools.html#functools.cache"),
        ("hmac.new", "library/hmac.html#hmac.new"),
        ("importlib.import_module", "library/importlib.html#importlib.import_module"),
        ("secrets.token_hex", "library/secrets.html#secrets.token_hex"),
    ],
    "exception": [
        (name, f"library/exceptions.html#{name}")
        for name in (
            "ArithmeticError",
            "KeyError",
            "ModuleNotFoundError",
            "OverflowError",
            "RuntimeError",
            "TypeError",
            "ValueError",
            "ZeroDivisionError",
        )
    ],
}

_NUMPY = {
    "class": [
        ("numpy.ndarray", "reference/generated/numpy.ndarray.html#numpy.ndarray"),
        ("numpy.dtype", "reference/generated/numpy.dtype.html#numpy.dtype"),
        ("numpy.float64", "reference/arrays.scalars.html#numpy.float64"),
        ("numpy.random.Generator", "reference/random/generator.html#numpy.random.Generator"),
    ],
    "function": [
        ("numpy.linalg.svd", "reference/generated/numpy.linalg.svd.html#numpy.linalg.svd"),
    ],
}

_SCIPY = {
    "function": [
        (
            "scipy.integrate.solve_ivp",
            "reference/generated/scipy.integrate.solve_ivp.html#scipy.integrate.solve_ivp",
        ),
        (
            "scipy.integrate.quad",
            "reference/generated/scipy.integrate.quad.html#scipy.integrate.quad",
        ),
    ],
    "class": [
        (
            "scipy.integrate.DOP853",
            "reference/generated/scipy.integrate.DOP853.html#scipy.integrate.DOP853",
        ),
        (
            "scipy.integrate.OdeSolver",
            "reference/generated/scipy.integrate.OdeSolver.html#scipy.integrate.OdeSolver",
        ),
    ],
}

_MATEXPR = "modules/matrices/expressions.html#sympy.matrices.expressions."
_SYMPY = {
    "class": [
        # the names type hints print (the defining module) and the public names, one page
        ("sympy.core.basic.Basic", "modules/core.html#sympy.core.basic.Basic"),
        ("sympy.core.expr.Expr", "modules/core.html#sympy.core.expr.Expr"),
        ("sympy.Expr", "modules/core.html#sympy.core.expr.Expr"),
        ("sympy.core.symbol.Symbol", "modules/core.html#sympy.core.symbol.Symbol"),
        ("sympy.Symbol", "modules/core.html#sympy.core.symbol.Symbol"),
        ("sympy.core.numbers.Rational", "modules/core.html#sympy.core.numbers.Rational"),
        ("sympy.Rational", "modules/core.html#sympy.core.numbers.Rational"),
        ("sympy.core.function.Function", "modules/core.html#sympy.core.function.Function"),
        ("sympy.matrices.expressions.matexpr.MatrixExpr", _MATEXPR + "MatrixExpr"),
        ("sympy.matrices.expressions.matexpr.MatrixSymbol", _MATEXPR + "MatrixSymbol"),
        ("sympy.MatrixSymbol", _MATEXPR + "MatrixSymbol"),
        (
            "sympy.matrices.dense.MutableDenseMatrix",
            "modules/matrices/dense.html#sympy.matrices.dense.MutableDenseMatrix",
        ),
        ("sympy.sets.sets.Set", "modules/sets.html#sympy.sets.sets.Set"),
    ],
    "function": [
        ("sympy.lambdify", "modules/utilities/lambdify.html#sympy.utilities.lambdify.lambdify"),
        ("sympy.latex", "modules/printing.html#sympy.printing.latex.latex"),
        ("sympy.simplify", "modules/simplify/simplify.html#sympy.simplify.simplify.simplify"),
    ],
}

_TORCH = {
    "class": [
        ("torch.Tensor", "tensors.html#torch.Tensor"),
        ("torch.device", "tensor_attributes.html#torch.device"),
        ("torch.dtype", "tensor_attributes.html#torch.dtype"),
    ],
    "function": [
        ("torch.compile", "generated/torch.compile.html#torch.compile"),
        ("torch.func.vmap", "generated/torch.func.vmap.html#torch.func.vmap"),
    ],
}

_MPMATH = {
    "class": [
        # the type hints print mpmath.ctx_mp_python.mpf, the class's defining module
        ("mpmath.ctx_mp_python.mpf", "basics.html#number-types"),
        ("mpmath.mpf", "basics.html#number-types"),
        ("mpmath.mpc", "basics.html#number-types"),
    ],
}

OBJECTS: dict[str, dict[str, list[tuple[str, str]]]] = {
    "python": _PY,
    "numpy": _NUMPY,
    "scipy": _SCIPY,
    "sympy": _SYMPY,
    "torch": _TORCH,
    "mpmath": _MPMATH,
}
"""Per project, per object type of the ``py`` domain, the ``(name, uri)`` pairs; ``uri`` is
relative to the project's root (:data:`BASES`)."""


def inventory(project: str) -> bytes:
    """The bytes of ``<project>.inv`` (inventory format version 2)."""
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n"
        "# Version: \n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    lines = sorted(
        f"{name} py:{objtype} 1 {uri} -\n"
        for objtype, entries in OBJECTS[project].items()
        for name, uri in entries
    )
    return header.encode() + zlib.compress("".join(lines).encode(), 9)


def main(folder: Path = HERE) -> list[Path]:
    """Write every inventory into ``folder``; returns the paths written."""
    paths = []
    for project in OBJECTS:
        path = folder / f"{project}.inv"
        path.write_bytes(inventory(project))
        paths.append(path)
    return paths


if __name__ == "__main__":
    for p in main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(p)
