"""Figures of the chapters: every figure is a numbered MyST figure (drawn in a code cell that
ends with ``plotting.glue_figure(label, fig)``, placed and captioned by a ``{glue:figure}``
directive, referred to by ``{numref}``), none is numbered by hand; figures of the foundations
and TRE chapters are drawn at a size whose text stays readable in the page column (about
730 px: 9 in at the book's 100 dpi shrinks text by a fifth, so figures stay at most 9 in wide,
with at most 3 panels a row and no font set below 9 pt).

Checked on the chapter sources, so the test runs without executing anything."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALL_CHAPTERS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
CHAPTERS = ["01_compositionality", "06_tre_intro", "07_tre_dynamics", "08_tre_judgments",
            "09_tre_similarity", "10_tre_generalisation"]
MAX_WIDTH_IN = 9.0
MIN_FONT_PT = 9
MAX_PANELS_A_ROW = 3


def source(chapter: str) -> str:
    return (ROOT / "notebooks" / f"{chapter}.py").read_text()


def cells(text: str) -> list[tuple[str, str]]:
    """(header, body) of each cell of a jupytext percent-format chapter."""
    parts = re.split(r"^# %%", text, flags=re.M)[1:]
    return [(part.split("\n", 1)[0], part.split("\n", 1)[1] if "\n" in part else "")
            for part in parts]


def markdown(text: str) -> str:
    """The chapter's markdown cells, without the leading ``# ``."""
    lines = []
    for header, body in cells(text):
        if header.startswith(" [markdown]"):
            lines += [line[2:] for line in body.splitlines() if line.startswith("#")]
    return "\n".join(lines)


def glued_figures(text: str) -> list[str]:
    return re.findall(r"""glue_figure\(\s*["']([^"']+)["']""", text)


def figure_directives(text: str) -> list[tuple[str, str]]:
    """(glued key, :name:) of each ``{glue:figure}`` directive of the markdown."""
    return re.findall(r"^```\{glue:figure\} (\S+)\n:name: (\S+)$", markdown(text), flags=re.M)


def every_label() -> dict[str, str]:
    labels = {}
    for chapter in ALL_CHAPTERS:
        for _, name in figure_directives(source(chapter)):
            assert name not in labels, f"figure label {name} used by {labels[name]} and {chapter}"
            labels[name] = chapter
    return labels


@pytest.mark.parametrize("chapter", ALL_CHAPTERS)
def test_every_figure_is_numbered_by_the_book_and_captioned(chapter):
    text = source(chapter)
    glued = glued_figures(text)
    directives = figure_directives(text)
    assert len(set(glued)) == len(glued), f"{chapter}: a figure glued twice under one label"
    assert sorted(glued) == sorted(key for key, _ in directives), (
        f"{chapter}: glued figures {sorted(glued)} against {{glue:figure}} directives "
        f"{sorted(key for key, _ in directives)}")
    assert all(key == name for key, name in directives), f"{chapter}: a label differs from its key"
    assert all(name.startswith(f"fig-{chapter[:2]}-") for _, name in directives), (
        f"{chapter}: figure labels are named fig-{chapter[:2]}-...")
    # no figure numbered by hand, in a title or in a caption
    assert not re.findall(r"""["']Figure \d+[a-z]?\.""", text), f"{chapter}: a title numbered by hand"
    assert not re.findall(r"^\*Figure \d+[a-z]?\.\*", markdown(text), flags=re.M), (
        f"{chapter}: a caption numbered by hand")
    # the notebook shows the figure under its code; the book only where its caption is
    for header, body in cells(text):
        if glued_figures(body):
            assert "remove-output" in header, f"{chapter}: a figure cell not tagged remove-output"


@pytest.mark.parametrize("chapter", ALL_CHAPTERS)
def test_the_text_refers_to_figures_by_numref_to_labels_that_exist(chapter):
    labels = every_label()
    prose = markdown(source(chapter))
    for ref in re.findall(r"\{numref\}`([^`]+)`", prose):
        label = re.search(r"<([^>]+)>$", ref).group(1) if ref.endswith(">") else ref
        assert label in labels, f"{chapter}: {{numref}} to an unknown label {label}"
    # "Figure 2" in our own prose is a number typed by hand; the papers' figures ("the paper's
    # Fig. 3", "Figure 6 of the paper") stay as they are
    typed = [m.group(0) for m in re.finditer(
        r"(?<![Pp]aper's )(?<!their )\bFigures? \d+[a-z]?\b(?! of the paper)(?! in the paper)",
        prose)]
    assert not typed, f"{chapter}: figures referred to by a typed number: {typed}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_figures_fit_the_page_column(chapter):
    text = source(chapter)
    for width, height in re.findall(r"figsize=\(([\d.]+),\s*([\d.]+)\)", text):
        assert float(width) <= MAX_WIDTH_IN, f"{chapter}: figsize=({width}, {height}) is too wide"
    for size in re.findall(r"fontsize=(\d+(?:\.\d+)?)", text):
        assert float(size) >= MIN_FONT_PT, f"{chapter}: fontsize={size} is unreadable in the column"
    for columns in re.findall(r"subplots\(\s*\d+\s*,\s*(\d+)", text):
        assert int(columns) <= MAX_PANELS_A_ROW, f"{chapter}: {columns} panels in a row"
    for columns in re.findall(r"subfigures\(\s*\d+\s*,\s*(\d+)", text):
        assert int(columns) <= MAX_PANELS_A_ROW, f"{chapter}: {columns} subfigures in a row"


def test_the_book_pages_refer_to_chapter_figures_that_exist():
    labels = every_label()
    for page in sorted((ROOT / "book").rglob("*.md")):
        for ref in re.findall(r"\{numref\}`([^`]+)`", page.read_text()):
            label = re.search(r"<([^>]+)>$", ref).group(1) if ref.endswith(">") else ref
            assert label in labels, f"{page.relative_to(ROOT)}: {{numref}} to an unknown {label}"


@pytest.mark.parametrize("chapter", ALL_CHAPTERS)
def test_every_displayed_equation_is_labelled_and_every_eq_reference_exists(chapter):
    prose = markdown(source(chapter))
    labels = {label for other in ALL_CHAPTERS
              for label in re.findall(r"\$\$ \(([\w-]+)\)", markdown(source(other)))}
    displayed = re.findall(r"\$\$(.+?)\$\$( \([\w-]+\))?", prose, flags=re.S)
    assert all(label for _, label in displayed), (
        f"{chapter}: a displayed equation without a label: "
        f"{[body[:40] for body, label in displayed if not label]}")
    for ref in re.findall(r"\{eq\}`([^`]+)`", prose):
        assert ref in labels, f"{chapter}: {{eq}} to an unknown label {ref}"  # of any chapter
