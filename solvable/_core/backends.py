"""Array backends for the generated evaluators: one namespace, one generator, one set of
array operations per backend (numpy float64, mpmath at the working precision, torch).

Every closed form of :mod:`solvable` is a sympy expression; :func:`generate` turns it into a
function for a backend (``sympy.lambdify`` with that backend's namespace, the one place where
namespaces are built).  Where the textbook form of a formula cancels or overflows in float64,
the stable form is written with the sympy functions below (``expm1``, ``log1p``,
``logaddexp``, ``exprel``, ``sinc3``); :func:`elementary` rewrites them back into
``exp``/``log``/``sin``/``cos`` so that sympy can prove the stable form equal to the
textbook one.

Numeric code that is not a closed form (norms, angles, reductions) is written once against
:func:`ops` (mpmath's ``ctx`` design: one body, many contexts): ``ops("numpy")`` works on
float64 arrays, ``ops("mpmath")`` on numpy object arrays of ``mpmath.mpf``, ``ops("torch")``
on tensors.  torch is imported only when the torch backend is asked for.
"""

from __future__ import annotations

import ast
import concurrent.futures
import contextlib
import functools
import inspect
import linecache
from collections.abc import Callable, Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import mpmath
import numpy as np
import sympy as sp
import threadpoolctl
from sympy.codegen.cfunctions import expm1, log1p

__all__ = [
    "BACKENDS",
    "check_backend",
    "elementary",
    "expm1",
    "exprel",
    "fill_in_halves",
    "generate",
    "log1p",
    "logaddexp",
    "namespace",
    "ops",
    "sinc3",
    "torch_module",
]

BACKENDS = ("numpy", "mpmath", "torch")


def check_backend(backend: Any) -> str:
    """``backend`` if it is one of :data:`BACKENDS`, else ``ValueError`` naming them."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    return backend


def fill_in_halves(fill: Callable[[int, int], Any], n: int, step: int, entries: int,
                   threshold: int) -> list[Any]:  # fmt: skip
    """``fill(start, stop)`` over the items ``0..n`` of an output: ``[fill(0, n)]``, or,
    where the output holds at least ``2 * threshold`` numbers (``entries``) and more than
    one ``step`` of items, ``[fill(0, cut), fill(cut, n)]`` in two threads (numpy releases
    the GIL inside its loops), ``cut`` a multiple of ``step`` so that the blocks of items
    are those of one call.  Each thread runs under the caller's ``np.errstate`` (numpy's is
    per thread).  ``fill`` must write disjoint parts of the output for disjoint ranges,
    with its own scratch; whatever it generates lazily should exist before the call.  While
    the two threads run, BLAS runs one thread per call (:func:`_blas_controller`; the
    process's setting, restored after)."""
    if n <= step or entries < 2 * threshold:
        return [fill(0, n)]
    blocks = -(-n // step)  # ceil(n / step)
    cut = min(n, (blocks + 1) // 2 * step)  # the first ceil(blocks / 2) blocks
    errors = np.geterr()

    def run(span: tuple[int, int]) -> Any:
        with np.errstate(**errors):
            return fill(*span)

    with _blas_controller().limit(limits=1, user_api="blas"), \
            concurrent.futures.ThreadPoolExecutor(2) as pool:  # fmt: skip
        return list(pool.map(run, [(0, cut), (cut, n)]))


SMALL_BLAS = 10**8
"""Matrix work of fewer multiply-adds than this runs BLAS on one thread
(:func:`blas_threads_for`): a few milliseconds on one core, and BLAS's own threads, once
woken, spin for about 0.1 s afterwards, taking the cores of the sample threads that follow
(a linear_node_scaling construction of a 52 x 160 X left a sample 1.27x slower)."""


@contextlib.contextmanager
def blas_threads_for(multiply_adds: float) -> Iterator[None]:
    """A context in which BLAS runs one thread per call if ``multiply_adds`` (the size of
    the matrix work inside) is below :data:`SMALL_BLAS`; else BLAS as configured.  The limit
    is set on entering the ``with`` block (threadpoolctl's ``limit`` sets it when called) and
    restored on leaving it."""
    if multiply_adds < SMALL_BLAS:
        with one_blas_thread():
            yield
    else:
        yield


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """A context in which BLAS runs one thread per call (set on entering, restored on
    leaving): for a fast path whose values must not depend on how BLAS splits its work
    (a matrix product's rounding depends on the threads' share of it)."""
    with _blas_controller().limit(limits=1, user_api="blas"):
        yield


@functools.cache
def _blas_controller() -> threadpoolctl.ThreadpoolController:
    """The BLAS libraries loaded when first asked, numpy's among them (the one the fast
    paths call; threadpoolctl, as scikit-learn limits them, 1 ms to find them): while
    :func:`fill_in_halves` runs its two threads, BLAS runs one thread per call (its own
    threads, spinning between the two threads' matrix products, made a linear_node_scaling
    sample 1.6x slower: ``benchmarks/closed_form_family.py``).  The limit is the process's
    for that time and is restored after."""
    return threadpoolctl.ThreadpoolController()


def torch_module() -> Any:
    """``torch``, or an ``ImportError`` that says how to install it (an optional extra)."""
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            "the torch backend needs torch: pip install 'solvable[torch]' "
            "(CPU build: pip install torch==2.13.0)"
        ) from exc
    return torch


# ---------------------------------------------------------------------------
# stable special functions (sympy), rewritable into exp / log for proofs
# ---------------------------------------------------------------------------
class logaddexp(sp.Function):  # noqa: N801 - sympy function names are lower case
    """``log(exp(a) + exp(b))`` without overflow; ``-oo`` arguments allowed."""

    nargs = 2

    def _eval_rewrite_as_exp(self, a, b, **kwargs):
        return sp.log(sp.exp(a) + sp.exp(b))

    _eval_rewrite_as_log = _eval_rewrite_as_exp


class exprel(sp.Function):  # noqa: N801
    """``(exp(z) - 1) / z``, continued by ``exprel(0) = 1``."""

    nargs = 1

    @classmethod
    def eval(cls, z):
        if z.is_zero:
            return sp.S.One
        return None

    def _eval_rewrite_as_exp(self, z, **kwargs):
        return (sp.exp(z) - 1) / z


class sinc3(sp.Function):  # noqa: N801
    """``(sin z - z cos z) / z^3``, continued by ``sinc3(0) = 1/3``: the ReLU arc-cosine
    kernel's ``J_1 = sin(phi) - phi cos(phi) = phi^3 sinc3(phi)`` at ``phi = pi - theta`` near
    antiparallel inputs, without the cancellation of the two terms (both ``~ phi``, their
    difference ``~ phi^3/3``).  Evaluated by its Maclaurin series for ``|z| <= 1`` (float64,
    torch) and with ``2 log2(1/|z|)`` extra bits (mpmath)."""

    nargs = 1

    @classmethod
    def eval(cls, z):
        if z.is_zero:
            return sp.Rational(1, 3)
        return None

    def _eval_rewrite_as_cos(self, z, **kwargs):
        return (sp.sin(z) - z * sp.cos(z)) / z**3

    _eval_rewrite_as_sin = _eval_rewrite_as_cos


_SINC3_SERIES_UP_TO = 1.0  # |z| at or below: the series; above, the direct form loses at
# most a factor (|sin z| + |z cos z|) / |sin z - z cos z| <= 4.6 of eps (at z = 1)
_SINC3_TERMS = 10  # z^0 .. z^18: the first omitted term, 20 z^18 / 21!, is 4e-19 at z = 1


@functools.cache
def _sinc3_coefficients() -> tuple[float, ...]:
    """The Maclaurin coefficients of :class:`sinc3` in powers of ``z^2``, from sympy's series
    of the elementary form (1/3, -1/30, 1/840, ...), as floats."""
    z = sp.Symbol("z")
    series = sp.series(sinc3(z).rewrite(sp.cos), z, 0, 2 * _SINC3_TERMS).removeO()
    return tuple(float(series.coeff(z, 2 * k)) for k in range(_SINC3_TERMS))


def elementary(expr: sp.Expr) -> sp.Expr:
    """Rewrite the stable special functions into ``exp``, ``log``, ``sin`` and ``cos``."""
    return (
        sp.sympify(expr, strict=True)
        .replace(expm1, lambda z: sp.exp(z) - 1)
        .replace(log1p, lambda z: sp.log(1 + z))
        .replace(logaddexp, lambda a, b: sp.log(sp.exp(a) + sp.exp(b)))
        .replace(exprel, lambda z: (sp.exp(z) - 1) / z)
        .replace(sinc3, lambda z: (sp.sin(z) - z * sp.cos(z)) / z**3)
    )


# --- numpy ----------------------------------------------------------------
def _np_sinc3(z: Any) -> Any:
    """The series where ``|z| <= _SINC3_SERIES_UP_TO``, the direct form elsewhere, each
    evaluated only where it is taken (both over the whole array cost 0.23 s of a 2000 x
    2000 Gram matrix; issue 30): the same values."""
    z = np.asarray(z, dtype=float)
    near = np.abs(z) <= _SINC3_SERIES_UP_TO
    out = np.empty_like(z)
    out[near] = _np_sinc3_series(z[near])
    far = ~near
    out[far] = _np_sinc3_direct(z[far])
    return out


def _np_sinc3_series(z: np.ndarray) -> np.ndarray:
    z2 = z * z
    series = np.zeros_like(z2)
    for c in reversed(_sinc3_coefficients()):  # Horner in z^2
        series = series * z2 + c
    return series


def _np_sinc3_direct(z: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return (np.sin(z) - z * np.cos(z)) / (z * z * z)


def _np_exprel(z: Any) -> Any:
    z = np.asarray(z, dtype=float)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if z.ndim == 0:  # (the limits: 1 at 0, +inf at +inf, where expm1(z) / z is nan)
            return np.where(z == 0, 1.0, np.where(z == np.inf, np.inf, np.expm1(z) / z))
        out = np.expm1(z)  # (a new array: divided in place)
        np.divide(out, z, out=out)
    zero = z == 0
    if zero.any():
        out[zero] = 1.0
    if z.size and not np.max(z) < np.inf:  # a +inf or a nan (the max is then nan)
        out[z == np.inf] = np.inf
    return out


_SCALAR_TYPES = (bool, int, float, complex, np.bool_, np.number)


def _is_scalar(a: Any) -> bool:
    """A number: a Python or numpy scalar, or a 0-d numeric array."""
    if isinstance(a, _SCALAR_TYPES):
        return True
    return isinstance(a, np.ndarray) and a.ndim == 0 and a.dtype.kind in "biufc"


def _np_select(condlist: list[Any], choicelist: list[Any], default: Any = np.nan) -> Any:
    """``numpy.select`` for sympy's Piecewise, with scalar branches broadcast; a condition
    that is itself a (nested, boolean-valued) Piecewise arrives as 0.0 / 1.0 and is cast
    back to bool.

    When every condition and choice is a scalar (a scipy right-hand side evaluated one
    entry at a time), the first true branch is taken directly: the same 0-d array of the
    same dtype as :func:`_np_select_arrays` (the general path), without broadcasting."""
    if (
        0 < len(condlist) == len(choicelist)
        and all(map(_is_scalar, condlist))
        and all(map(_is_scalar, choicelist))
    ):
        choices = [np.asarray(c) for c in choicelist]
        # numpy.select's own dtype rule: the choices as arrays, the default as given
        dtype = np.result_type(*choices, default)
        if dtype.kind in "fc":  # (always, with sympy's default nan)
            out = np.array(default, dtype)
            for cond, choice in zip(condlist, choices, strict=True):
                if bool(cond):  # the first true branch; each choice casts safely to dtype
                    out[()] = choice
                    break
            return out
    return _np_select_arrays(condlist, choicelist, default)


def _np_select_arrays(condlist: list[Any], choicelist: list[Any], default: Any = np.nan) -> Any:
    """:func:`_np_select` for any shapes (the reference path): the branches broadcast
    against each other, then ``numpy.select``."""
    arrays = np.broadcast_arrays(*(np.asarray(a) for a in (*condlist, *choicelist)))
    n = len(condlist)
    conds = [c if c.dtype == bool else c.astype(bool) for c in arrays[:n]]
    return np.select(conds, arrays[n:], default=default)


class _Broadcasting:
    """``logical_and``/``logical_or`` whose ``.reduce`` (as printed by sympy's numpy
    printer for ``And``/``Or``) accepts a mix of scalars and arrays."""

    def __init__(self, ufunc: np.ufunc) -> None:
        self._ufunc = ufunc

    def __call__(self, *args: Any) -> Any:
        return self._ufunc(*args)

    def reduce(self, args: Any) -> Any:
        return functools.reduce(self._ufunc, args)


def _np_heaviside(x: Any, value: Any = 0.5) -> Any:
    return np.heaviside(x, value)


# --- mpmath ---------------------------------------------------------------
def _mp_logaddexp(a: Any, b: Any) -> Any:
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if a == mpmath.ninf:
        return b
    if b == mpmath.ninf:
        return a
    hi, lo = (a, b) if a >= b else (b, a)
    if hi == mpmath.inf:
        return hi
    return hi + mpmath.log1p(mpmath.exp(lo - hi))


def _mp_exprel(z: Any) -> Any:
    z = mpmath.mpf(z)
    if z == 0:
        return mpmath.mpf(1)
    if z == mpmath.inf:
        return z
    return mpmath.expm1(z) / z


def _mp_sinc3(z: Any) -> Any:
    z = mpmath.mpf(z)
    if z == 0:
        return mpmath.mpf(1) / 3
    # the difference cancels about 2 log2(1/|z|) bits (both terms ~ z, their difference
    # ~ z^3/3): that many extra bits, and 10 more
    extra = max(0, 2 * int(-mpmath.log(abs(z), 2))) + 10
    with mpmath.extraprec(extra):
        value = (mpmath.sin(z) - z * mpmath.cos(z)) / z**3
    return +value


def _mp_log(z: Any) -> Any:
    z = mpmath.mpf(z)
    return mpmath.ninf if z == 0 else mpmath.log(z)


def _mp_exp(z: Any) -> Any:
    z = mpmath.mpf(z)
    return mpmath.mpf(0) if z == mpmath.ninf else mpmath.exp(z)


def _mp_heaviside(x: Any, value: Any = 0.5) -> Any:
    x = mpmath.mpf(x)
    return mpmath.mpf(1) if x > 0 else (mpmath.mpf(0) if x < 0 else mpmath.mpf(value))


# --- torch ----------------------------------------------------------------
def _torch_namespace() -> dict[str, Any]:
    torch = torch_module()

    def heaviside(x: Any, value: Any = 0.5) -> Any:
        return torch.heaviside(x, torch.as_tensor(float(value), dtype=x.dtype, device=x.device))

    def exprel_(z: Any) -> Any:
        safe = torch.where(z == 0, torch.ones_like(z), z)
        out = torch.where(z == 0, torch.ones_like(z), torch.expm1(safe) / safe)
        return torch.where(z == float("inf"), z, out)  # (expm1(inf) / inf is nan)

    def sinc3_(z: Any) -> Any:
        z2 = z * z
        series = torch.zeros_like(z2)
        for c in reversed(_sinc3_coefficients()):
            series = series * z2 + c
        small = z.abs() <= _SINC3_SERIES_UP_TO
        safe = torch.where(small, torch.ones_like(z), z)  # no 0/0 in the unused branch
        return torch.where(small, series, (torch.sin(safe) - safe * torch.cos(safe)) / safe**3)

    def extremum(op: Any) -> Any:
        def fn(*args: Any) -> Any:  # sympy's Max / Min print as max(...) / min(...)
            like = next(a for a in args if isinstance(a, torch.Tensor))
            ts = [
                a
                if isinstance(a, torch.Tensor)
                else torch.as_tensor(a, dtype=like.dtype, device=like.device)
                for a in args
            ]
            return functools.reduce(op, ts)

        return fn

    return {"heaviside": heaviside, "exprel": exprel_, "sinc3": sinc3_,
            "logaddexp": torch.logaddexp,
            "max": extremum(torch.maximum), "min": extremum(torch.minimum),
            "threshold": torch.threshold}  # fmt: skip


def _threshold_form(expr: Any) -> tuple[Any, int, int] | None:
    """``(x, t, v)`` when ``expr`` is ``Piecewise((v, x <= t), (x, True))`` with integers
    ``|t|, |v| <= 256`` (exact in every torch floating dtype, bfloat16 included, so the
    comparison and the value are those of the where form; ReLU's
    :func:`~solvable._core.activations.evaluated_form` is ``t = v = 0``), else ``None``."""
    if not isinstance(expr, sp.Piecewise) or len(expr.args) != 2:
        return None
    (v, cond), (x, last) = expr.args
    if last is not sp.true or not isinstance(cond, sp.LessThan) or cond.lhs != x:
        return None
    t = cond.rhs
    if not (v.is_Integer and t.is_Integer and abs(v) <= 256 and abs(t) <= 256):
        return None
    return x, int(t), int(v)


@functools.cache
def _torch_printer(names: tuple[str, ...]) -> Any:
    """sympy's ``TorchPrinter`` (sympy >= 1.14), which prints neither ``expm1`` / ``log1p``
    nor the package's ``exprel`` / ``logaddexp``: here the first two print as ``torch.expm1``
    / ``torch.log1p`` and the others as calls into the torch namespace (without it a stable
    form written in them, e.g. xu_ziyin's ``ell``, could not be generated for torch).
    ``names``: the namespace dict's entries, printed as themselves (as lambdify's own
    printer does)."""
    # lazily: importing sympy.printing.pytorch imports torch
    from sympy.printing.pytorch import TorchPrinter

    def call(name: str) -> Callable[[Any, Any], str]:
        def print_(self: Any, e: Any) -> str:
            return f"{name}({', '.join(self._print(a) for a in e.args)})"

        return print_

    def piecewise(self: Any, e: Any) -> str:
        # Piecewise((v, x <= t), (x, True)) is torch.threshold(x, t, v), elementwise the
        # same function: x <= t ? v : x (nan passes through, v = 0 is +0.0 at x = -0.0),
        # and autograd's derivative 0 wherever x <= t (relu'(0) = 0) and 1 elsewhere, as
        # for where(le(x, t), v, x); one kernel instead of le + where and a broadcast
        # scalar (the ReLU of the torch losses).  tests/test_backends.py compares values,
        # signs of zero and first and second derivatives with the where form
        form = _threshold_form(e)
        if form is None:
            return TorchPrinter._print_Piecewise(self, e)
        x, t, v = form
        return f"threshold({self._print(x)}, {float(t)!r}, {float(v)!r})"

    cls = type("_TorchPrinter", (TorchPrinter,), {
        "_print_expm1": call("torch.expm1"), "_print_log1p": call("torch.log1p"),
        # the package's own functions, resolved in the torch namespace dict
        "_print_exprel": call("exprel"), "_print_logaddexp": call("logaddexp"),
        "_print_sinc3": call("sinc3"),
        "_print_Piecewise": piecewise,
    })  # fmt: skip
    return cls({"fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True,
                "user_functions": {n: n for n in names}})  # fmt: skip


def namespace(backend: str) -> list[Any]:
    """The ``modules`` argument of :func:`sympy.lambdify` for ``backend``: the
    implementations of the stable functions, then the backend's own module (numpy also
    with scipy.special, for zeta and friends)."""
    backend = check_backend(backend)
    if backend == "numpy":
        return [
            {
                "exprel": _np_exprel,
                "sinc3": _np_sinc3,
                "logaddexp": np.logaddexp,
                "select": _np_select,
                "logical_and": _Broadcasting(np.logical_and),
                "logical_or": _Broadcasting(np.logical_or),
                "heaviside": _np_heaviside,
            },
            "scipy",
            "numpy",
        ]
    if backend == "mpmath":
        return [
            {
                "logaddexp": _mp_logaddexp,
                "exprel": _mp_exprel,
                "sinc3": _mp_sinc3,
                "log": _mp_log,
                "exp": _mp_exp,
                "expm1": mpmath.expm1,
                "log1p": mpmath.log1p,
                "heaviside": _mp_heaviside,
            },
            "mpmath",
        ]
    return [_torch_namespace(), "torch"]


def _check_generate_inputs(args: Any, expr: Any) -> None:
    """:func:`generate`'s ``args`` (sympy symbols) and ``expr`` (sympy objects), never a
    string, which ``sympy.lambdify`` would ``eval``."""

    def sympy_objects(a: Any) -> bool:  # a sympy object, or (nested) tuples / lists of them
        if isinstance(a, (tuple, list)):  # (an empty group of arguments too: ((x,), ()))
            return all(sympy_objects(b) for b in a)
        return isinstance(a, (sp.Basic, sp.MatrixBase))

    if not isinstance(args, (tuple, list)) or not sympy_objects(args):
        raise TypeError(f"args must be a tuple or list of sympy symbols, got {args!r:.80}")
    if not sympy_objects(expr):
        raise TypeError(f"expr must be a sympy expression or matrix, or a tuple of them, got "
                        f"{expr!r:.80}")  # fmt: skip


def generate(
    args: Sequence[Any],
    expr: Any,
    backend: str,
    *,
    cse: bool = False,
    hoist_calls: bool = False,
    elementwise: bool = False,
    printer: Any = None,
    extra: dict[str, Any] | None = None,
) -> Callable[..., Any]:
    """The evaluator of the sympy ``expr`` (or tuple of expressions) of ``args`` for
    ``backend``: the one code generator of the package.

    ``elementwise`` (mpmath only): map the scalar mpmath function over numpy object arrays
    (broadcast), returning object arrays; a ``ZeroDivisionError`` of an undefined quantity
    (0/0) becomes ``nan``, as in numpy.  ``printer`` and ``extra`` (names added to the
    namespace) serve matrix expressions (see :mod:`solvable.models.linear_node_scaling`).  A
    constant expression comes back broadcast like the first argument (numpy, torch).

    ``hoist_calls``: every function call that the generated code makes more than once with
    the same argument text is made once (:func:`_hoist_repeated_calls`); unlike sympy's
    ``cse`` this leaves every product and sum as printed, so the numbers are bit-for-bit
    those of the code without it (the namespace's functions are pure).

    ``args``: a tuple or list of sympy symbols (or matrix symbols, nested tuples of them);
    ``expr``: a sympy expression or matrix, or a (nested) tuple / list of them; anything
    else (a string in particular: sympy would ``eval`` it) is a ``TypeError`` naming the
    argument."""
    backend = check_backend(backend)
    _check_generate_inputs(args, expr)
    modules = namespace(backend)
    if extra:
        modules = [{**modules[0], **extra}, *modules[1:]]
    if backend == "torch" and printer is None:
        printer = _torch_printer(tuple(sorted(modules[0])))
    fn = sp.lambdify(args, expr, modules=modules, cse=cse, printer=printer)
    if hoist_calls:
        fn = _hoist_repeated_calls(fn)
    multi = isinstance(expr, (tuple, list))
    if backend == "mpmath" and elementwise:
        n_out = len(expr) if multi else 1

        def scalar(*a: Any) -> Any:
            try:
                return fn(*a)
            except ZeroDivisionError:
                return (mpmath.nan,) * n_out if multi else mpmath.nan

        return np.vectorize(scalar, otypes=[object] * n_out)
    exprs = expr if multi else [expr]
    free = set().union(*(sp.sympify(e, strict=True).free_symbols for e in exprs))
    if backend != "mpmath" and not multi and args and not free & set(_flat(args)):
        # lambdify returns a Python scalar for a constant: broadcast it like the argument
        if backend == "numpy":
            return lambda *a: np.full(np.shape(a[0]), float(fn(*a)))
        torch = torch_module()
        return lambda *a: torch.full_like(torch.as_tensor(a[0]), float(fn(*a)))
    return fn


# the expressions whose parts Python may not evaluate (a branch, a short circuit, a body run
# later): a call inside one is never hoisted out of it
_LAZY = (ast.IfExp, ast.BoolOp, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
         ast.GeneratorExp)  # fmt: skip


def _hoist_repeated_calls(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (a function generated by ``lambdify``) with each call that occurs more than
    once in its source as the same syntax tree evaluated once, into a local, before the
    statement that first uses it (inner calls before the calls around them).  A call is an
    atom of Python's grammar, so the name that replaces it is used by the same operations
    in the same order."""
    tree = ast.parse(inspect.getsource(fn))
    counts: dict[str, int] = {}

    class Count(ast.NodeVisitor):
        def visit(self, node: ast.AST) -> None:
            if not isinstance(node, _LAZY):
                super().visit(node)

        def visit_Call(self, node: ast.Call) -> None:  # (ast.NodeVisitor names its methods)
            key = ast.dump(node)
            counts[key] = counts.get(key, 0) + 1
            self.generic_visit(node)

    Count().visit(tree)
    names: dict[str, str] = {}

    class Hoist(ast.NodeTransformer):
        def __init__(self) -> None:
            self.assigns: list[ast.stmt] = []

        def visit(self, node: ast.AST) -> ast.AST:
            return node if isinstance(node, _LAZY) else super().visit(node)

        def visit_Call(self, node: ast.Call) -> ast.AST:
            key = ast.dump(node)  # the call as written, before its own calls are replaced
            if key in names:
                return ast.Name(id=names[key], ctx=ast.Load())
            self.generic_visit(node)
            if counts.get(key, 0) < 2:
                return node
            names[key] = f"_call{len(names)}"
            target = ast.Name(id=names[key], ctx=ast.Store())
            self.assigns.append(ast.Assign(targets=[target], value=node, lineno=0))
            return ast.Name(id=names[key], ctx=ast.Load())

    func = tree.body[0]
    if not isinstance(func, ast.FunctionDef):  # pragma: no cover - lambdify's output
        raise AssertionError("lambdify generated no function")
    body: list[ast.stmt] = []
    for stmt in func.body:
        hoist = Hoist()
        stmt = hoist.visit(stmt)
        body.extend([*hoist.assigns, stmt])
    if not names:
        return fn
    func.body = body
    source = ast.unparse(ast.fix_missing_locations(tree))
    filename = f"<hoisted {fn.__code__.co_filename}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = fn.__globals__
    exec(compile(source, filename, "exec"), namespace)
    hoisted = namespace[func.name]
    hoisted.__doc__ = fn.__doc__  # (lambdify's: the signature and the expression)
    return hoisted


def _flat(args: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for a in args:
        if isinstance(a, (tuple, list)):
            out.extend(_flat(a))
        else:
            out.append(a)
    return out


# ---------------------------------------------------------------------------
# array operations: one body, many contexts
# ---------------------------------------------------------------------------
@functools.cache
def ops(backend: str) -> SimpleNamespace:
    """Elementwise and reducing operations for ``backend`` with one calling convention:
    ``sqrt``, ``atan2``, ``abs``, ``where(cond, a, b)``, ``amax(x, axis)``, ``sum(x, axis)``,
    ``ones_like``, ``asarray``.  mpmath works on numpy object arrays of ``mpf`` (at the caller's
    working precision)."""
    backend = check_backend(backend)
    if backend == "numpy":
        return SimpleNamespace(
            name="numpy",
            sqrt=np.sqrt,
            atan2=np.arctan2,
            abs=np.abs,
            where=np.where,
            amax=lambda x, axis: np.max(x, axis=axis),
            sum=lambda x, axis: np.sum(x, axis=axis),
            ones_like=np.ones_like,
            asarray=lambda x: np.asarray(x, dtype=float),
        )
    if backend == "mpmath":
        sqrt = np.vectorize(mpmath.sqrt, otypes=[object])
        atan2 = np.vectorize(mpmath.atan2, otypes=[object])
        return SimpleNamespace(
            name="mpmath",
            sqrt=sqrt,
            atan2=atan2,
            abs=np.abs,
            where=lambda c, a, b: np.where(c, a, b).astype(object),
            amax=lambda x, axis: np.max(x, axis=axis),
            sum=lambda x, axis: np.sum(x, axis=axis),
            ones_like=lambda x: np.full(np.shape(x), mpmath.mpf(1), dtype=object),
            asarray=lambda x: np.vectorize(mpmath.mpf, otypes=[object])(np.asarray(x)),
        )
    torch = torch_module()
    return SimpleNamespace(
        name="torch",
        sqrt=torch.sqrt,
        atan2=torch.atan2,
        abs=torch.abs,
        where=torch.where,
        amax=lambda x, axis: x.amax(dim=axis),
        sum=lambda x, axis: x.sum(dim=axis),
        ones_like=torch.ones_like,
        asarray=lambda x: torch.as_tensor(x, dtype=torch.float64),
    )
