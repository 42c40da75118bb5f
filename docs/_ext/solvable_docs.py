"""Local Sphinx extension: pages generated from the package's registries at build time.

Directives (every row is built from the registry when the page is read, never typed):

* ``solvable-claims``: the claims registry (:func:`solvable.verification.theorems.registry`) as a
  table, one row per :class:`solvable.Theorem` (id, kind, source, statement);
* ``solvable-errata``: :data:`solvable.verification.errata.ERRATA` as a table, one row per
  :class:`solvable.Erratum` (seed, equation, printed, corrected, why);
* ``solvable-gallery``: one section per registered figure
  (:func:`solvable.verification.figures.figures`): id, seed file, the paper's label, title,
  caption, the command that renders it, and the image when the build rendered the figures
  (see :func:`render_figures`);
* ``solvable-formulas NAME``: the formulas of model ``NAME`` (:func:`formulas`), each a
  sympy object of the model's record rendered by ``sympy.latex`` into a labelled ``math``
  block with its citation; every model's API page ends with it (:func:`api_page`).

Text from the registries goes into the document as plain text nodes, so a ``|``, ``*`` or
backtick in a statement can never be read as markup (no escaping, no warnings).

Generated sources: at ``builder-inited``, :func:`generate_sources` writes into
``<srcdir>/_generated/`` (git-ignored, rewritten only when the content changes, so an
incremental build re-reads nothing it does not need to) the API pages, one per public module,
and copies of ``notebooks/*.ipynb``; :func:`render_figures` renders every figure's fast
default into ``_generated/figures/`` unless ``SOLVABLE_DOCS_FIGURES=0``.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import shutil
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import sympy as sp
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.directives.patches import MathDirective
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import solvable
from solvable._core.papers import cite
from solvable.verification import figures, theorems
from solvable.verification.errata import ERRATA

logger = logging.getLogger(__name__)

GENERATED = "_generated"
"""The folder under the source directory that holds every generated source (git-ignored)."""

PACKAGES = ("solvable", "numerics")
"""The top-level packages whose modules get an API page."""

SWITCHES = {
    "SOLVABLE_DOCS_FIGURES": "render every figure of the gallery (about 4 minutes on 2 cores)",
    "SOLVABLE_DOCS_EXECUTE": "execute the notebooks, so that their pages show the outputs",
}
"""The environment switches of a quick build: ``0`` turns the step off, ``1`` (default) on."""


def switch(name: str) -> bool:
    """The value of the environment switch ``name`` (:data:`SWITCHES`): unset or ``"1"`` is
    on, ``"0"`` off; anything else is a ``ValueError`` quoting it."""
    if name not in SWITCHES:
        raise ValueError(f"name must be one of {sorted(SWITCHES)}, got {name!r}")
    value = os.environ.get(name, "1").strip()
    if value not in ("0", "1"):
        raise ValueError(f"environment variable {name} must be 0 or 1 (unset: 1), got {value!r}")
    return value == "1"


def public_modules(packages: Iterable[str] = PACKAGES) -> list[str]:
    """Every importable module of ``packages`` whose dotted name has no private component,
    except the core package ``solvable._core`` (layer 0, documented); sorted.  The files of
    a model package (``solvable.models.kunin.wide``) or of a numerics package
    (``numerics.torch_flow.dop853``) get no page of their own: the package's page documents
    its public names (its ``__all__``), and a second page would give each name two targets."""
    names: list[str] = []
    for top in packages:
        package = __import__(top)
        names.append(top)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{top}."):
            parts = info.name.split(".")[1:]
            if any(p.startswith("_") and p != "_core" for p in parts):
                continue
            if _in_a_split_package(info.name):
                continue
            names.append(info.name)
    return sorted(names)


def _in_a_split_package(module: str) -> bool:
    """Whether ``module`` is a file of a model package or of a numerics package."""
    parts = module.split(".")
    return (parts[:2] == ["solvable", "models"] and len(parts) > 3) or (
        parts[0] == "numerics" and len(parts) > 2
    )


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` only when it differs (keeps the file's mtime otherwise)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _copy(src: Path, dst: Path) -> None:
    """Copy ``src`` to ``dst`` only when the bytes differ."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    if not dst.exists() or dst.read_bytes() != src.read_bytes():
        shutil.copyfile(src, dst)


def _prune(folder: Path, keep: set[str]) -> None:
    """Remove the files of ``folder`` not named in ``keep`` (a module or notebook removed
    from the package must not leave a stale page behind)."""
    if folder.is_dir():
        for path in folder.iterdir():
            if path.is_file() and path.name not in keep:
                path.unlink()


def api_page(module: str, documented: Sequence[str] = ()) -> str:
    """The reStructuredText page of one module: its title and an ``automodule``, without
    the names it re-exports from another ``documented`` module (described there: autodoc
    would describe the same object twice, e.g. ``linear_node_scaling.Setup``, which is
    ``node_scaling.Setup``)."""
    title = f"``{module}``"
    elsewhere = _reexported(module, documented)
    exclude = f"   :exclude-members: {', '.join(elsewhere)}\n" if elsewhere else ""
    page = (
        f"{title}\n{'=' * len(title)}\n\n"
        f".. automodule:: {module}\n   :members:\n   :show-inheritance:\n{exclude}"
    )
    model = model_of(module)
    if model is not None:
        page += f"\nFormulas\n--------\n\n.. solvable-formulas:: {model}\n"
    return page


def model_of(module: str) -> str | None:
    """The name of the model (:data:`solvable.MODELS`) whose module is ``module``
    (``solvable.models.<name>``), else None."""
    parts = module.split(".")
    if len(parts) == 3 and parts[:2] == ["solvable", "models"]:
        if parts[2] in solvable._MODEL_MODULES:
            return parts[2]
    return None


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _reexported(module: str, documented: Sequence[str]) -> list[str]:
    """The names of ``module.__all__`` whose object another documented module (not the
    package face ``solvable``, which re-exports for users) lists in its own ``__all__`` and
    defines (the object's ``__module__`` is in that module's package)."""
    mod = importlib.import_module(module)
    homes = {}
    for other in documented:
        if other in (module, "solvable"):
            continue
        om = importlib.import_module(other)
        for name in getattr(om, "__all__", ()):
            obj = getattr(om, name, None)
            if _within(getattr(obj, "__module__", None) or "", other):
                homes[id(obj)] = other
    return [name for name in getattr(mod, "__all__", ())
            if id(getattr(mod, name, None)) in homes
            and not _within(getattr(getattr(mod, name), "__module__", ""), module)]  # fmt: skip


def layer(module: str) -> str:
    """The layer of ``module`` (docs/contributing.md, "The layers"): its folder, core
    (``solvable/_core``), models (``solvable/models``), numerics or verification
    (``solvable/verification``); the package face ``solvable`` is listed with the models."""
    for name, package in (
        ("core", "solvable._core"),
        ("models", "solvable.models"),
        ("numerics", "numerics"),
        ("verification", "solvable.verification"),
    ):
        if module == package or module.startswith(package + "."):
            return name
    if module == "solvable":
        return "models"
    raise ValueError(f"{module} is in no layer folder")


LAYERS = {
    "core": "Layer 0, knows no model: numbers, backends, claims, tolerance, flows, ...",
    "models": "Layer 1, one module or package per paper or model (``solvable.MODELS``).",
    "numerics": "Layer 2: the raw gradient flows, batched torch models, measures, experiments.",
    "verification": "Layer 3: the registries, the confirmations, figures, CLI, pytest oracle.",
}
"""The API index's sections, in order, each with its one-line description."""


def api_index(modules: Sequence[str]) -> str:
    """The API reference's index page: one toctree per layer (:data:`LAYERS`)."""
    lines = ["API reference", "=============", ""]
    lines += ["One page per public module, generated from its docstrings (numpy style).", ""]
    for name, text in LAYERS.items():
        members = [m for m in modules if layer(m) == name]
        title = name.capitalize()
        lines += [title, "-" * len(title), "", text, "", ".. toctree::", "   :maxdepth: 1", ""]
        lines += [f"   {m}" for m in members] + [""]
    return "\n".join(lines)


def generate_sources(srcdir: Path, notebooks: Path) -> dict[str, list[str]]:
    """Write the API pages (and their index, ``api/index``) and copy the notebooks into
    ``srcdir/_generated``; returns the generated document names by kind (``"api"``,
    ``"notebooks"``)."""
    out = srcdir / GENERATED
    modules = public_modules()
    for module in modules:
        _write(out / "api" / f"{module}.rst", api_page(module, modules))
    _write(out / "api" / "index.rst", api_index(modules))
    _prune(out / "api", {f"{m}.rst" for m in modules} | {"index.rst"})
    books = sorted(notebooks.glob("*.ipynb"))
    if not books:
        raise FileNotFoundError(f"no notebook found in {str(notebooks)!r}")
    for book in books:
        _copy(book, out / "notebooks" / book.name)
    _prune(out / "notebooks", {b.name for b in books})
    return {
        "api": [f"{GENERATED}/api/{m}" for m in modules],
        "notebooks": [f"{GENERATED}/notebooks/{b.stem}" for b in books],
    }


def render_figures(srcdir: Path) -> dict[str, float]:
    """Render every registered figure's fast default (``full=False``) into
    ``srcdir/_generated/figures``, one line of log each; returns the seconds per figure id."""
    target = srcdir / GENERATED / "figures"
    registered = figures.figures()
    seconds: dict[str, float] = {}
    for k, fig in enumerate(registered, 1):
        start = time.perf_counter()
        fig.render(target, full=False, progress=False)
        seconds[fig.id] = time.perf_counter() - start
        logger.info(f"[solvable_docs] figure {k}/{len(registered)} {fig.id}: "
                    f"{seconds[fig.id]:.1f} s")  # fmt: skip
    _prune(target, {f"{f.id}.{ext}" for f in registered for ext in ("png", "svg")})
    logger.info(f"[solvable_docs] {len(registered)} figures in {sum(seconds.values()):.1f} s")
    return seconds


def _on_builder_inited(app: Sphinx) -> None:
    srcdir = Path(app.srcdir)
    generate_sources(srcdir, Path(app.config.solvable_notebooks))
    app.env.solvable_figures_rendered = False  # type: ignore[attr-defined]
    if switch("SOLVABLE_DOCS_FIGURES"):
        render_figures(srcdir)
        app.env.solvable_figures_rendered = True  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- formulas

LATEX_LIMIT = 2000
"""The longest LaTeX source a formula block shows; a longer one is replaced by a pointer to
the function that builds the expression (a page of indices helps no reader)."""


class Formula(NamedTuple):
    """One formula of a model's API page, built from a sympy object of the model's record:
    ``label`` (the equation's label, unique in the documentation), ``kind`` (``"loss"`` or
    ``"conserved"``), ``citation`` (paper and place, :func:`solvable.papers.cite`),
    ``statement`` (plain text), ``latex`` (``sympy.latex`` of ``expression``, or None when
    longer than :data:`LATEX_LIMIT`) and ``where`` (the function that builds it)."""

    label: str
    kind: str
    citation: str
    statement: str
    expression: sp.Basic
    latex: str | None
    where: str


def _formula(label: str, kind: str, citation: str, statement: str, expr: sp.Basic,
             where: str) -> Formula:  # fmt: skip
    latex = sp.latex(expr)
    return Formula(label, kind, citation, statement, expr,
                   latex if len(latex) <= LATEX_LIMIT else None, where)  # fmt: skip


def _model(name: str) -> Any:
    for model in solvable.MODELS:
        if model.name == name:
            return model
    raise ValueError(f"no model named {name!r} in solvable.MODELS")


def formulas(name: str) -> list[Formula]:
    """The formulas of model ``name`` (:data:`solvable.MODELS`), every one a sympy object of
    the model's record, never typed: the loss of each of its systems (``MODEL.systems``) on
    the system's example instance (:meth:`solvable.System.example`; the sympy objective the
    gradient flow is derived from, :attr:`solvable.GradientFlow.loss`), then each of its
    conservation laws (``MODEL.laws()``, :class:`solvable.ConservationLaw`: id, source with
    the equation, statement, expression)."""
    model = _model(name)
    out: list[Formula] = []
    for system in model.systems:
        setup, out0, in0 = system.example()
        weights = system.initial(setup, out0, in0)
        flow = system.flow(setup, {k: v.shape for k, v in weights.items()})
        cls = type(system)
        shapes = ", ".join(f"{k} {tuple(v.shape)}" for k, v in weights.items())
        statement = (f"The loss L of {cls.__name__} (the objective its gradient flow is "
                     f"derived from) on its example instance, blocks {shapes}.")  # fmt: skip
        where = f"{cls.__module__}.{cls.__qualname__}.loss"
        out.append(_formula(f"{name}.loss.{cls.__name__}", "loss", cite(model.seed),
                            statement, flow.loss, where))  # fmt: skip
    for law in model.laws():
        where = f"solvable.models.{name}.MODEL.laws()"
        out.append(_formula(law.id, "conserved", cite(law.source), law.statement,
                            law.expression, where))  # fmt: skip
    return out


class FormulasDirective(MathDirective):
    """``solvable-formulas NAME``: the formulas of model ``NAME`` (:func:`formulas`), each a
    paragraph (label, citation, statement) and a numbered ``math`` block with its label."""

    has_content = False
    required_arguments = 1
    optional_arguments = 0
    option_spec: ClassVar[dict[str, Any]] = {}

    def run(self) -> list[nodes.Node]:
        _note_page(self)
        name = self.arguments[0]
        found = formulas(name)
        out: list[nodes.Node] = []
        intro = (f"{len(found)} formulas of the model {name}, rendered from its sympy "
                 "objects when the documentation is built: the loss of each system on its "
                 "example instance, then each conservation law (conserved along the "
                 "gradient flow).")  # fmt: skip
        out.append(nodes.paragraph(text=intro))
        docname = self.env.docname
        for f in found:
            para = nodes.paragraph()
            para += nodes.strong(text=f.label)
            para += nodes.Text(f" ({f.citation}). {f.statement}")
            out.append(para)
            if f.latex is None:
                out.append(nodes.paragraph(
                    text=f"(expression too long to display; see {f.where})"))  # fmt: skip
                continue
            node = nodes.math_block(f.latex, f.latex, classes=["solvable-formula"],
                                    docname=docname, number=None, label=f.label)  # fmt: skip
            node["no-wrap"] = node["nowrap"] = False
            self.set_source_info(node)
            block: list[nodes.Node] = [node]
            self.add_target(block)
            out.extend(block)
        return out


# ----------------------------------------------------------------------------- tables


def _text_cell(text: str, literal: bool = False) -> nodes.entry:
    para = nodes.paragraph()
    para += nodes.literal(text, text) if literal else nodes.Text(text)
    return nodes.entry("", para)


def _table(
    header: Sequence[str], widths: Sequence[int], rows: Iterable[Sequence[nodes.entry]], cls: str
) -> nodes.table:
    """A docutils table with a header row (every cell already built)."""
    table = nodes.table(classes=[cls])
    group = nodes.tgroup(cols=len(header))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for name in header:
        row += _text_cell(name)
    head += row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            row += cell
        body += row
    return table


class _RegistryDirective(SphinxDirective):
    """A directive whose output comes from a registry: the page that holds it is read again
    on every build (:func:`_always_outdated`), so it never shows a stale registry."""

    has_content = False

    def note_page(self) -> None:
        _note_page(self)


def _note_page(directive: SphinxDirective) -> None:
    """Note the page that holds ``directive`` as one to read again on every build."""
    pages = getattr(directive.env, "solvable_pages", set())
    pages.add(directive.env.docname)
    directive.env.solvable_pages = pages  # type: ignore[attr-defined]


class ClaimsDirective(_RegistryDirective):
    """``solvable-claims``: every registered claim, one row each (``:kind:`` filters)."""

    option_spec: ClassVar[dict[str, Any]] = {
        "kind": lambda arg: directives.choice(arg, ("symbolic", "numeric"))
    }

    def run(self) -> list[nodes.Node]:
        self.note_page()
        records = theorems.registry()
        kind = self.options.get("kind")
        if kind is not None:
            records = [t for t in records if t.kind == kind]
        rows = (
            [
                _text_cell(t.id, literal=True),
                _text_cell(t.kind),
                _text_cell(cite(t.source)),
                _text_cell(t.statement),
            ]
            for t in records
        )
        summary = nodes.paragraph(text=f"{len(records)} claims.")
        header = ["id", "kind", "source (paper, place)", "statement"]
        return [summary, _table(header, [25, 8, 22, 45], rows, "solvable-claims")]


class ErrataDirective(_RegistryDirective):
    """``solvable-errata``: every registered erratum, one row each."""

    def run(self) -> list[nodes.Node]:
        self.note_page()
        rows = (
            [
                _text_cell(str(k)),
                _text_cell(cite(e.source.split(" ", 1)[0])),
                _text_cell(e.equation + ("" if e.changes_math else " (minor)")),
                _text_cell(e.paper),
                _text_cell(e.corrected),
                _text_cell(e.explanation),
            ]
            for k, e in enumerate(ERRATA, 1)
        )
        summary = nodes.paragraph(text=f"{len(ERRATA)} errata.")
        header = ["#", "paper", "equation", "printed", "corrected", "why"]
        return [summary, _table(header, [3, 12, 10, 20, 20, 35], rows, "solvable-errata")]


class GalleryDirective(_RegistryDirective):
    """``solvable-gallery``: one section per registered figure, with its command and, when
    the build rendered the figures, its image."""

    def run(self) -> list[nodes.Node]:
        self.note_page()
        rendered = getattr(self.env, "solvable_figures_rendered", False)
        out: list[nodes.Node] = []
        for fig in figures.figures():
            section = nodes.section(ids=[nodes.make_id(f"figure-{fig.id}")], classes=["figure"])
            section += nodes.title(text=f"{fig.id}: {fig.title}")
            fields = nodes.field_list()
            for name, value in (("paper", cite(fig.seed_file)),
                                ("paper's label", fig.label)):  # fmt: skip
                field = nodes.field()
                field += nodes.field_name(text=name)
                body = nodes.field_body()
                body += nodes.paragraph(text=value)
                field += body
                fields += field
            section += fields
            section += nodes.paragraph(text=fig.caption)
            command = f"solvable figures --only {fig.id} --out DIR"
            section += nodes.literal_block(command, command, language="bash")
            if rendered:
                uri = f"/{GENERATED}/figures/{fig.id}.png"
                section += nodes.image(uri=uri, alt=f"{fig.id}: {fig.title}")
                self.env.note_dependency(str(Path(self.env.srcdir) / uri.lstrip("/")))
            out.append(section)
        if not rendered:
            note = nodes.note()
            note += nodes.paragraph(
                text="This build skipped the images (SOLVABLE_DOCS_FIGURES=0); "
                "each figure's command renders it."
            )
            out.insert(0, note)
        return out


def _always_outdated(
    app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """The pages that hold a registry directive: read again on every build."""
    return sorted(getattr(env, "solvable_pages", set()) - removed)


def _merge_pages(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    """Parallel reads: collect the registry pages a worker noted."""
    pages = getattr(env, "solvable_pages", set())
    pages |= getattr(other, "solvable_pages", set())
    env.solvable_pages = pages


def _purge_page(app: Sphinx, env: Any, docname: str) -> None:
    getattr(env, "solvable_pages", set()).discard(docname)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives, the ``solvable_notebooks`` setting and the generator."""
    app.add_config_value("solvable_notebooks", "", "env", types=[str])
    app.add_directive("solvable-claims", ClaimsDirective)
    app.add_directive("solvable-errata", ErrataDirective)
    app.add_directive("solvable-gallery", GalleryDirective)
    app.add_directive("solvable-formulas", FormulasDirective)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-get-outdated", _always_outdated)
    app.connect("env-merge-info", _merge_pages)
    app.connect("env-purge-doc", _purge_page)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":  # pragma: no cover - a manual helper
    print("\n".join(public_modules()), file=sys.stdout)
