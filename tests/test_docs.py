"""The Sphinx documentation builds with ``-W`` (every warning an error) and has its pages.

``python -m sphinx -W -b html docs OUT`` runs in a subprocess with this interpreter, into a
temporary directory, without ``-j``.  Two builds:

* the default suite builds the quick variant (``SOLVABLE_DOCS_EXECUTE=0``,
  ``SOLVABLE_DOCS_FIGURES=0``: notebooks not executed, gallery without images; about 20
  CPU-seconds) and checks every page: index, getting started, one API page per public module,
  one page per notebook, the gallery with one entry per registered figure, the errata and
  claims tables with one row per registered record (counts from the registries);
* ``-m docs`` (marked ``slow`` too, so the default suite skips it; ``.ci/run`` runs it) builds
  the complete documentation, as a user does, and checks in addition the notebook outputs
  and one image per figure.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

import solvable
from solvable.verification import figures, theorems
from solvable.verification.errata import ERRATA

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
BUILD_TIMEOUT_S = 3600  # the complete build renders every figure: minutes, not an hour


def _extension():
    """``docs/_ext/solvable_docs.py`` (not a package module: loaded from its file)."""
    spec = importlib.util.spec_from_file_location(
        "solvable_docs", DOCS / "_ext" / "solvable_docs.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Page(HTMLParser):
    """The parts of one HTML page the checks read: element ids, the rows of each table body
    (by the table's first class), image sources, notebook cell outputs, the text."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.rows: dict[str, int] = {}
        self.images: list[str] = []
        self.links: list[str] = []
        self.outputs = 0
        self.chunks: list[str] = []
        self._table: str | None = None
        self._in_body = False
        self.feed(path.read_text(encoding="utf-8"))
        self.text = re.sub(r"\s+", " ", "".join(self.chunks))  # highlighted code: one span a word

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "table":
            self._table = classes[0] if classes else ""
            self.rows[self._table] = 0
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body and self._table is not None:
            self.rows[self._table] += 1
        elif tag == "img":
            self.images.append(attrs.get("src", ""))
        elif tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if "cell_output" in classes:
            self.outputs += 1

    def handle_endtag(self, tag):
        if tag == "tbody":
            self._in_body = False
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        self.chunks.append(data)


def build(out: Path, *, execute: bool, images: bool) -> str:
    """Run ``python -m sphinx -W --keep-going -b html docs out``; returns its output and
    fails the test with that output when the build fails."""
    env = dict(os.environ)
    env["SOLVABLE_DOCS_EXECUTE"] = "1" if execute else "0"
    env["SOLVABLE_DOCS_FIGURES"] = "1" if images else "0"
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", str(DOCS), str(out)]
    proc = subprocess.run(
        cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{' '.join(cmd)} failed ({proc.returncode}):\n{log[-8000:]}"
    return log


def check_pages(out: Path, *, executed: bool, images: bool) -> None:
    """Every page exists and holds what the registries say it must."""
    for page in ("index", "getting_started", "notebooks", "gallery", "errata", "claims"):
        assert (out / f"{page}.html").is_file(), f"{page}.html missing"

    # the API reference: one page per public module, each documenting its module
    api = out / "_generated" / "api"
    modules = _extension().public_modules()
    expected = {
        "solvable",
        "numerics",
        "solvable._core",
        "solvable.verification.theorems",
        "solvable.verification.errata",
    }
    expected |= {f"solvable.models.{name}" for name in solvable._MODEL_MODULES}
    assert expected <= set(modules)
    assert (api / "index.html").is_file()
    ext = _extension()
    for module in modules:
        page = api / f"{module}.html"
        assert page.is_file(), f"no API page for {module}"
        parsed = Page(page)
        assert f"module-{module}" in parsed.ids, f"{page.name} does not document {module}"
        model = ext.model_of(module)
        assert ("formulas" in parsed.ids) == (model is not None), f"{page.name}: Formulas"
        for formula in ext.formulas(model) if model else ():
            assert formula.label in parsed.text, f"{page.name} lacks {formula.label}"
            shown = formula.latex or f"(expression too long to display; see {formula.where})"
            assert re.sub(r"\s+", " ", shown) in parsed.text, f"{page.name}: {formula.label}"

    # links into the other projects' documentation (intersphinx, local inventories)
    numerics_links = Page(api / "numerics.html").links
    for target in (
        "https://docs.scipy.org/doc/scipy/reference/generated/scipy.integrate.DOP853.html",
        "https://pytorch.org/docs/stable/tensors.html#torch.Tensor",
        "https://numpy.org/doc/stable/reference/generated/numpy.ndarray.html#numpy.ndarray",
        "https://mpmath.org/doc/current/basics.html#number-types",
    ):
        assert any(link.startswith(target) for link in numerics_links), target
    core_links = Page(api / "solvable._core.flows.html").links
    assert any(link.startswith("https://docs.sympy.org/latest/") for link in core_links)

    # one page per notebook, titled by the notebook's first heading; outputs when executed
    assert NOTEBOOKS
    for path in NOTEBOOKS:
        page = out / "_generated" / "notebooks" / f"{path.stem}.html"
        assert page.is_file(), f"no page for {path.name}"
        nb = nbformat.read(path, as_version=4)
        first = next(c for c in nb.cells if c.cell_type == "markdown")
        title = first.source.splitlines()[0].lstrip("# ").replace("`", "")
        parsed = Page(page)
        assert title in parsed.text, f"{page.name} lacks its title {title!r}"
        if executed:
            assert parsed.outputs > 0, f"{page.name} shows no cell output"
        else:
            assert parsed.outputs == 0

    # the gallery: one section per registered figure, with its command (and its image)
    gallery = Page(out / "gallery.html")
    registered = figures.figures()
    assert sum(i.startswith("figure-") for i in gallery.ids) == len(registered)
    for fig in registered:
        assert f"figure-{fig.id}" in gallery.ids
        assert f"solvable figures --only {fig.id} --out DIR" in gallery.text
        pngs = [src for src in gallery.images if src.endswith(f"/{fig.id}.png")]
        if images:
            assert len(pngs) == 1, f"{fig.id}: images {gallery.images}"
            assert (out / "gallery.html").parent.joinpath(pngs[0]).is_file()
        else:
            assert pngs == []

    # the captions' options as typed ("--full"), not made en dashes by smart quotes
    typed = sum(fig.caption.count("--full") for fig in registered)
    assert typed > 0 and gallery.text.count("--full") >= typed
    assert "\u2013full" not in gallery.text

    # the tables: one row per registered record, every record named
    errata = Page(out / "errata.html")
    assert errata.rows["solvable-errata"] == len(ERRATA)
    claims = Page(out / "claims.html")
    registry = theorems.registry()
    assert claims.rows["solvable-claims"] == len(registry)
    for thm in registry:
        assert thm.id in claims.text


@pytest.fixture(scope="module")
def quick_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs-quick")
    build(out, execute=False, images=False)
    return out


def test_quick_build_has_every_page(quick_build):
    check_pages(quick_build, executed=False, images=False)


def test_gallery_says_the_images_were_skipped(quick_build):
    assert "SOLVABLE_DOCS_FIGURES=0" in Page(quick_build / "gallery.html").text


def test_switches_refuse_other_values(monkeypatch):
    ext = _extension()
    for name in ext.SWITCHES:
        monkeypatch.setenv(name, "yes")
        with pytest.raises(ValueError, match=f"{name} must be 0 or 1.*'yes'"):
            ext.switch(name)
        monkeypatch.setenv(name, "0")
        assert ext.switch(name) is False
        monkeypatch.delenv(name)
        assert ext.switch(name) is True
    with pytest.raises(ValueError, match="name must be one of"):
        ext.switch("SOLVABLE_DOCS_OTHER")


def test_check_pages_sees_a_missing_row(quick_build, monkeypatch):
    """The page checks are not vacuous: one registered claim more than the page shows fails."""
    registered = theorems.registry()
    monkeypatch.setattr(theorems, "registry", lambda: [*registered, registered[0]])
    with pytest.raises(AssertionError):
        check_pages(quick_build, executed=False, images=False)


def test_build_refuses_a_bad_switch(tmp_path):
    env = {**os.environ, "SOLVABLE_DOCS_EXECUTE": "yes"}
    cmd = [sys.executable, "-m", "sphinx", "-W", "-b", "html", str(DOCS), str(tmp_path)]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode != 0
    assert "SOLVABLE_DOCS_EXECUTE must be 0 or 1 (unset: 1), got 'yes'" in proc.stdout + proc.stderr


@pytest.mark.docs
@pytest.mark.slow
def test_complete_build(tmp_path):
    """As a user builds it: notebooks executed, every figure rendered, ``-W``."""
    out = tmp_path / "html"
    build(out, execute=True, images=True)
    check_pages(out, executed=True, images=True)


def test_the_api_index_files_each_module_under_its_layer_folder():
    ext = _extension()

    def layer(module):
        try:
            return ext.layer(module)
        except ValueError as exc:
            return f"ValueError: {exc}"

    assert layer("solvable") == "models"  # the package face, with the models
    assert layer("solvable._core") == layer("solvable._core.numbers") == "core"
    assert layer("solvable.models") == layer("solvable.models.kunin") == "models"
    assert layer("solvable.models.kunin.wide") == "models"  # a model package's file
    assert layer("numerics") == layer("numerics.torch_flow") == "numerics"
    assert layer("solvable.verification") == layer("solvable.verification.cli")
    assert layer("solvable.verification.confirmations.kunin") == "verification"
    assert layer("solvable.stray").startswith("ValueError") and "no layer" in layer(
        "solvable.stray"
    )
    modules = ext.public_modules()
    assert {"solvable._core", "solvable._core.numbers", "solvable.models.kunin"} <= set(modules)
    assert "solvable.models.kunin.wide" not in modules  # a package's file: no page of its own
    assert "numerics.torch_flow.dop853" not in modules
    assert all(layer(m) in ext.LAYERS for m in modules)  # every page has a section


def _inventories():
    """``docs/_inventories/make_inventories.py`` (loaded from its file)."""
    path = DOCS / "_inventories" / "make_inventories.py"
    spec = importlib.util.spec_from_file_location("make_inventories", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_inventories_are_the_tables_and_point_into_their_sites(tmp_path):
    """The committed ``docs/_inventories/*.inv`` are what the script writes from its table
    (byte for byte), sphinx reads them, and every entry's address lies on its project's
    documentation site, the one ``docs/conf.py`` maps the project to."""
    from sphinx.util.inventory import InventoryFile

    inv = _inventories()
    written = inv.main(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{p}.inv" for p in inv.BASES)
    for path in written:
        committed = DOCS / "_inventories" / path.name
        assert committed.read_bytes() == path.read_bytes(), f"{path.name}: run the script"
    sites = {"python": "https://docs.python.org/3/", "numpy": "https://numpy.org/doc/stable/",
             "scipy": "https://docs.scipy.org/doc/scipy/", "sympy": "https://docs.sympy.org/",
             "torch": "https://pytorch.org/docs/", "mpmath": "https://mpmath.org/doc/"}  # fmt: skip
    for project, base in inv.BASES.items():
        assert base.startswith(sites[project]) and base.endswith("/")
        with (DOCS / "_inventories" / f"{project}.inv").open("rb") as f:
            data = InventoryFile.load(f, base, lambda b, u: b + u)
        data = getattr(data, "data", data)  # a dict before Sphinx 8.2, an _Inventory after
        entries = {(name, typ): item for typ, objs in data.items() for name, item in objs.items()}
        table = {(n, f"py:{t}") for t, objs in inv.OBJECTS[project].items() for n, _ in objs}
        assert set(entries) == table and table
        for (name, _), item in entries.items():
            uri = item[2] if isinstance(item, tuple) else item.uri
            assert uri.startswith(base), f"{name}: {uri}"
            top = name.split(".")[0]
            if project != "python":
                assert top == project, f"{name} in the {project} inventory"
            assert "#" in uri, f"{name}: {uri} names no anchor"

    # conf.py maps each project to its site and to its local file (no network)
    conf = {"__file__": str(DOCS / "conf.py")}
    text = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert "sphinx.ext.intersphinx" in text
    mapping_src = text[text.index("intersphinx_mapping = {") :].split("\n}\n")[0] + "\n}\n"
    exec(mapping_src, {"BASES": inv.BASES, "Path": Path}, conf)
    for project, (target, location) in conf["intersphinx_mapping"].items():
        assert target == inv.BASES[project]
        assert "://" not in location and (DOCS / location).is_file()


def test_formulas_are_the_registered_sympy_expressions(monkeypatch):
    """The Formulas section of a model's API page shows, as LaTeX, ``sympy.latex`` of each
    registered object: the loss of every system on its example instance, then every
    conservation law; too long an expression is replaced by a pointer."""
    import sympy as sp

    from solvable.papers import cite

    ext = _extension()
    model = next(m for m in solvable.MODELS if m.name == "xu_ziyin")
    found = ext.formulas("xu_ziyin")
    laws = model.laws()
    assert len(laws) > 0 and len(found) == len(model.systems) + len(laws)
    for formula, law in zip(found[len(model.systems) :], laws, strict=True):
        assert formula.label == law.id and formula.kind == "conserved"
        assert formula.latex == sp.latex(law.expression) and formula.latex
        assert formula.citation == cite(law.source)
        assert re.fullmatch(r"Xu & Ziyin 2024, eqs?\. \(\d+\).*", formula.citation)
    system = model.systems[0]
    setup, out0, in0 = system.example()
    shapes = {k: v.shape for k, v in system.initial(setup, out0, in0).items()}
    assert found[0].latex == sp.latex(system.flow(setup, shapes).loss)
    assert found[0].kind == "loss"
    # every model page has the section; other pages do not
    assert ".. solvable-formulas:: xu_ziyin" in ext.api_page("solvable.models.xu_ziyin")
    assert "Formulas" not in ext.api_page("solvable._core")
    assert ext.model_of("solvable.models.kunin") == "kunin"
    assert ext.model_of("solvable.models.kunin.wide") is None
    assert ext.model_of("numerics") is None
    # every label is unique across the models (equation labels are global)
    labels = [f.label for m in solvable.MODELS for f in ext.formulas(m.name)]
    assert len(labels) == len(set(labels))
    # too long an expression: no LaTeX, a pointer to where it is built
    monkeypatch.setattr(ext, "LATEX_LIMIT", 50)
    long = [f for f in ext.formulas("xu_ziyin") if len(sp.latex(f.expression)) > 50]
    assert long and all(f.latex is None and f.where for f in long)
    with pytest.raises(ValueError, match="no model named"):
        ext.formulas("no_such_model")
