"""The executed chapters (``make execute`` writes them to book/<part>/): no progress-bar debris and
no table cell cut short with "…" in what the reader sees. ``make test`` runs this after executing
the chapters; elsewhere it checks whatever executed copies exist."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXECUTED = sorted(p for p in (ROOT / "book").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
BAR = re.compile(r"\d+%\|[^|\n]*\|\s*\d+/\d+|it/s\]|s/it\]")


def outputs(path: Path):
    for number, cell in enumerate(nbformat.read(path, as_version=4).cells):
        for output in cell.get("outputs", []):
            texts = [output.get("text", "")]
            data = output.get("data", {})
            texts += [data.get("text/plain", ""), data.get("text/html", "")]
            yield number, "".join(t if isinstance(t, str) else "".join(t) for t in texts)


@pytest.mark.skipif(not EXECUTED, reason="no executed chapters: run `make execute` first")
@pytest.mark.parametrize("path", EXECUTED, ids=lambda p: p.name)
def test_no_progress_bars_and_no_truncated_cells(path):
    for number, text in outputs(path):
        assert not BAR.search(text), f"{path.name}, cell {number}: a progress bar in the output"
        cells = re.findall(r"<td>([^<]*)</td>", text)
        cut = [c for c in cells if c.rstrip().endswith("...") or c.rstrip().endswith("…")]
        assert not cut, f"{path.name}, cell {number}: table cells cut short: {cut[:3]}"
        assert "IProgress not found" not in text, (
            f"{path.name}, cell {number}: a tqdm widget warning (import tqdm, not tqdm.auto)")


LIVE_FITS = ROOT / "_build" / "live-fits.json"


@pytest.mark.skipif(not LIVE_FITS.exists(), reason="no _build/live-fits.json: run `make execute`")
def test_live_fits_record():
    """``make execute`` writes one row per network a chapter trained live, with its fit."""
    import json

    record = json.loads(LIVE_FITS.read_text())
    assert set(record) == {"profile", "tutorlib", "networks", "passed", "rows"}
    assert record["networks"] == len(record["rows"]) > 0
    assert record["passed"] == sum(r["passes"] for r in record["rows"])
    chapters = {p.stem for p in EXECUTED}
    for row in record["rows"]:
        assert set(row) == {"chapter", "network", "training", "in_distribution", "bar", "passes",
                            "reason", "train_seconds"}, row
        assert row["chapter"] in chapters
        assert 0 <= row["training"] <= 1 and 0 <= row["bar"] <= 1
        assert row["passes"] == (row["training"] >= 0.9 and (row["in_distribution"] is None
                                                              or row["in_distribution"] >= row["bar"]))


# The chapters not yet brought to the chapter standard (CONTRIBUTING.md): their markdown still
# holds glue roles, which JupyterLab and Colab show as placeholders. This list only shrinks.
NOT_YET_STANDARD: set[str] = set()
GLUE_ROLE = re.compile(r"\{glue:(text|md)\}`")
SOURCES = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_no_glue_role_in_a_standard_chapter(path):
    """Every number of a chapter held to the standard is in its notebook's outputs: its markdown
    has no {glue:text} or {glue:md} role (a numbered figure's {glue:figure} stays)."""
    text = path.read_text()
    markdown = "\n".join(line for cell in text.split("# %%")[1:] if cell.startswith(" [markdown]")
                         for line in cell.splitlines())
    roles = GLUE_ROLE.findall(markdown)
    if path.stem in NOT_YET_STANDARD:
        assert roles, f"{path.stem} has no glue role left: take it off NOT_YET_STANDARD"
    else:
        assert not roles, f"{path.stem}: {len(roles)} glue roles in its markdown (CONTRIBUTING.md)"
