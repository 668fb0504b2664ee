"""Figures of the foundations and TRE chapters: each has a caption in the text, and is drawn at a
size whose text stays readable in the page column (about 730 px: 9 in at the book's 100 dpi
shrinks text by a fifth, so figures stay at most 9 in wide, with at most 3 panels a row and no
font set below 9 pt).

Checked on the chapter sources, so the test runs without executing anything."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ["01_compositionality", "06_tre_intro", "07_tre_dynamics", "08_tre_judgments",
            "09_tre_similarity", "10_tre_generalisation"]
MAX_WIDTH_IN = 9.0
MIN_FONT_PT = 9
MAX_PANELS_A_ROW = 3


def source(chapter: str) -> str:
    return (ROOT / "notebooks" / f"{chapter}.py").read_text()


def markdown(text: str) -> str:
    """The chapter's markdown cells, without the leading ``# ``."""
    cells = re.split(r"^# %%", text, flags=re.M)
    lines = []
    for cell in cells:
        if cell.startswith(" [markdown]"):
            lines += [line[2:] for line in cell.splitlines()[1:] if line.startswith("#")]
    return "\n".join(lines)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_figure_has_a_caption(chapter):
    text = source(chapter)
    titled = set(re.findall(r"""["']Figure (\d+)[a-z]?\.""", text))
    assert titled, f"{chapter}: no figure titled 'Figure N.'"
    captions = set(re.findall(r"^\*Figure (\d+)\.\*", markdown(text), flags=re.M))
    assert titled <= captions, (f"{chapter}: figures without a caption paragraph "
                                f"'*Figure N.* ...': {sorted(titled - captions, key=int)}")


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
