"""The papers the package turns into code, in one place: each seed file's authors, title,
year and the short citation that every user-facing output prints (``solvable papers``,
``verify``, ``errata``, ``figures --list``, the documentation's tables) instead of the seed
file's name.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvable._core.numbers import describe

__all__ = ["PAPERS", "Paper", "cite", "paper"]


@dataclass(frozen=True)
class Paper:
    """One source paper: ``seed`` (``"000"`` .. ``"004"``), its text's file name in
    ``../shared/seeds/`` (``file``, what a claim's or an erratum's ``source`` starts with),
    the ``short`` citation printed everywhere, and ``authors``, ``title``, ``year``,
    ``venue`` (``year`` None where the text gives none)."""

    seed: str
    file: str
    short: str
    authors: str
    title: str
    year: int | None
    venue: str

    @property
    def reference(self) -> str:
        """The full reference: authors, title, venue and year."""
        when = f", {self.year}" if self.year is not None else ""
        return f"{self.authors}, {self.title} ({self.venue}{when})"


PAPERS: tuple[Paper, ...] = (
    Paper("000", "000_f57230b12d385b63.txt", "Node scaling (anon.)", "Anonymous authors",
          "Over-parameterised Shallow Neural Networks with Asymmetrical Node Scaling: Global "
          "Convergence Guarantees and Feature Learning", None,
          "under double-blind review"),
    Paper("001", "001_070589003213e0cf.txt", "Xu & Ziyin 2024", "Y. Xu, L. Ziyin",
          "When Does Feature Learning Happen? Perspective from an Analytically Solvable Model",
          2024, "preprint"),
    Paper("002", "002_938675732d5dff93.txt", "Loureiro 2025", "B. Loureiro",
          "Mathematics of Deep Learning, Lecture 3: Neural networks close to initialisation",
          2025, "lecture notes, ENS"),
    Paper("003", "003_cfd8c5fad4b6665d.txt", "Kunin et al. 2024",
          "D. Kunin, A. Raventós, C. Dominé, F. Chen, D. Klindt, A. Saxe, S. Ganguli",
          "Get Rich Quick: Exact Solutions Reveal How Unbalanced Initializations Promote "
          "Rapid Feature Learning", 2024, "NeurIPS"),
    Paper("004", "004_9b376d17acb97b57.txt", "Zhou et al. 2022",
          "H. Zhou, Q. Zhou, Z. Jin, T. Luo, Y. Zhang, Z.-Q. J. Xu",
          "Empirical Phase Diagram for Three-layer Neural Networks with Infinite Width", 2022,
          "NeurIPS"),
)  # fmt: skip
"""Every source paper, by seed."""


def paper(source: str) -> Paper:
    """The :class:`Paper` of ``source``: a seed (``"001"``), a seed file's name, or a claim's
    or an erratum's ``source`` (the file's name, then the place: ``"001_... eq. (32)"``);
    ``ValueError`` naming ``source`` for anything else, ``TypeError`` for a non-string."""
    if not isinstance(source, str):
        raise TypeError(f"source must be a str (a seed or a seed file's name), got "
                        f"{describe(source)}")  # fmt: skip
    head = source.split(" ", 1)[0]
    for p in PAPERS:
        if head in (p.seed, p.file):
            return p
    raise ValueError(
        f"source must start with a seed ({', '.join(p.seed for p in PAPERS)}) or a seed "
        f"file's name ({PAPERS[0].file}, ...), got {source!r}"
    )


def cite(source: str) -> str:
    """``source`` with its seed file's name replaced by the paper's short citation:
    ``"001_070589003213e0cf.txt eq. (32)"`` -> ``"Xu & Ziyin 2024, eq. (32)"``; a source that
    names no paper of :data:`PAPERS` (a claim of a user's own model) is returned as given."""
    try:
        p = paper(source)
    except ValueError:
        return source
    place = source.split(" ", 1)[1].strip() if " " in source.strip() else ""
    return f"{p.short}, {place}" if place else p.short
