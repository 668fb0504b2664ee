"""Exercise notebooks (``make exercises``, tools/exercises.py): the solutions go, an answer cell
follows each exercise, and everything else of the chapter stays."""

import re
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT
from execute import chapters
from exercises import (
    ANSWER,
    UNRESOLVED,
    figure_numbers,
    main,
    resolve_figures,
    split_markdown,
    strip_solutions,
    write_exercises,
)

# The chapters, that is every notebook but the back matter's pages and the parts' appendix pages
# (NN_part_full_runs: the committed runs in detail), which have no exercises.
BACK_MATTER = {Path(target).stem for _, target in chapters(ROOT) if "backmatter" in Path(target).parts}
APPENDICES = {p.stem for p in (ROOT / "notebooks").glob("*_full_runs.ipynb")}
CHAPTERS = [p for p in sorted((ROOT / "notebooks").glob("*.ipynb"))
            if p.stem not in BACK_MATTER | APPENDICES]


def md(source, tags=()):
    cell = nbformat.v4.new_markdown_cell(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def code(source, tags=()):
    cell = nbformat.v4.new_code_cell(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def synthetic():
    """Every form a solution takes, and the places an exercise can be."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["jupytext"] = {"formats": "ipynb,py:percent"}
    nb.cells = [
        md("# A chapter\n\nSome text.\n\n```python\n# a comment, not a heading\n```"),
        code('PROFILE = "tutorial"', ["parameters"]),
        code("setup = 1", ["hide-cell"]),  # hidden, but before the exercises: kept
        md("## Recap\n\n- a point\n\n## Exercises\n\nPredict first, then run.\n\n"
           "**1. First.** What is 1 + 1?"),
        code("# Solution: 2\n1 + 1", ["hide-cell"]),
        md("**2. Second.** Say why.\n\n```{admonition} Solution\n:class: dropdown\n"
           "Because SECRET-TWO.\n\n```python\nprint('SECRET-CODE')\n```\n```\n\nAfter the solution."),
        md("**3. Third, with two cells of solution.**"),
        code("# Solution\nx = 'SECRET-THREE'"),
        code("print(x)", ["hide-input"]),
        md("**4. No solution given.** Think about it.\n\n**5. Right after.** And this one?"),
        md("SECRET-FIVE", ["solution"]),
        md("## Further reading\n\nA paper."),
        code("kept = True", ["hide-cell"]),  # after the exercises: not a solution
    ]
    return nb


def test_split_markdown_finds_exercises_solutions_and_headings():
    pieces = split_markdown("## Exercises\n\n**1. A.** Q?\n\n:::{admonition} Solution\n"
                            ":class: dropdown\nA!\n:::\nmore\n\n```\n**2. not an exercise**\n```")
    assert [kind for kind, _ in pieces] == ["text", "exercise", "solution", "text"]
    assert pieces[2][1].startswith(":::{admonition} Solution") and pieces[2][1].endswith(":::")
    assert "**2. not an exercise**" in pieces[3][1]


def test_synthetic_notebook():
    copy, count = strip_solutions(synthetic())
    assert count == 5
    text = "\n".join(cell.source for cell in copy.cells)
    assert "SECRET" not in text and "Solution" not in text
    assert "After the solution." in text and "Predict first, then run." in text
    assert "setup = 1" in text and "kept = True" in text
    assert "a comment, not a heading" in text
    kinds = [("answer" if c.source == ANSWER else c.source.split()[0]) for c in copy.cells]
    assert kinds == ["#", "PROFILE", "setup", "##", "**1.", "answer", "**2.", "answer",
                     "After", "**3.", "answer", "**4.", "answer", "**5.", "answer", "##", "kept"]
    assert "jupytext" not in copy.metadata
    assert len({cell.id for cell in copy.cells}) == len(copy.cells)


def test_the_same_chapter_gives_the_same_file(tmp_path):
    nbformat.write(synthetic(), tmp_path / "a.ipynb")
    (tmp_path / "notebooks").mkdir()
    nbformat.write(synthetic(), tmp_path / "notebooks" / "99_x.ipynb")
    assert main(["--root", str(tmp_path), "--out", "one"]) == 0
    assert main(["--root", str(tmp_path), "--out", "two"]) == 0
    one, two = (tmp_path / "one" / "99_x.ipynb").read_text(), (tmp_path / "two" / "99_x.ipynb").read_text()
    assert one == two and "exercise-note" in one


def solution_sources(notebook):
    """The text of every solution in a chapter: hidden code cells after the Exercises heading,
    and solution blocks in markdown."""
    found, inside = [], False
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            inside = inside or bool(re.search(r"^#+ Exercises", cell.source, re.M))
            found += [text for kind, text in split_markdown(cell.source) if kind == "solution"]
        elif inside and ({"hide-cell", "hide-input", "solution"} & set(cell.metadata.get("tags", []))
                         or cell.source.lstrip().startswith("# Solution")):
            found.append(cell.source)
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter(path, tmp_path):
    original = nbformat.read(path, as_version=4)
    copy, count = strip_solutions(original)
    solutions = solution_sources(original)
    assert solutions, f"{path.name}: no solutions found; has the way chapters write them changed?"
    exercise_lines = [line for cell in original.cells if cell.cell_type == "markdown"
                      for line in cell.source.splitlines() if re.match(r"\*\*\d+\.", line)]
    assert count == len(exercise_lines) >= 2
    text = "\n".join(cell.source for cell in copy.cells)
    rest = [text for cell in original.cells if cell.cell_type == "markdown"
            for kind, text in split_markdown(cell.source) if kind != "solution"]
    rest += [cell.source for cell in original.cells
             if cell.cell_type == "code" and cell.source not in solutions]
    elsewhere = {line for text in rest for line in text.splitlines()}
    for solution in solutions:
        own = [line for line in solution.splitlines() if line.strip() and line not in elsewhere]
        assert own, f"{path.name}: a solution made only of lines found elsewhere: {solution[:200]}"
        left = [line for line in own if line in text.splitlines()]
        assert not left, f"{path.name}: solution text remains: {left[:3]}"
    assert not re.search(r"^\s*#\s*Solution|\{admonition\}\s*Solution", text, re.M | re.I)
    # every exercise is followed by its answer cell before the next exercise or the end
    starts = [i for i, c in enumerate(copy.cells)
              if c.cell_type == "markdown" and re.search(r"^\*\*\d+\.", c.source, re.M)]
    assert len(starts) == count
    for begin, end in zip(starts, [*starts[1:], len(copy.cells)]):
        assert any(c.source == ANSWER for c in copy.cells[begin:end]), f"{path.name}: cell {begin}"
    assert sum(c.source == ANSWER for c in copy.cells) == count
    # the rest of the chapter is kept: every code cell that is not a solution is there
    kept = [c.source for c in original.cells if c.cell_type == "code" and c.source not in solutions]
    assert [c.source for c in copy.cells if c.cell_type == "code" and c.source != ANSWER] == kept


def test_make_exercises_writes_every_chapter(tmp_path):
    assert BACK_MATTER, "the back matter's notebooks were not found in _toc.yml"
    assert main(["--root", str(ROOT), "--out", str(tmp_path / "exercises")]) == 0
    assert sorted(p.name for p in (tmp_path / "exercises").glob("*.ipynb")) == [p.name for p in CHAPTERS]
    for written in (tmp_path / "exercises").glob("*.ipynb"):
        cells = nbformat.read(written, as_version=4).cells
        assert not any("{glue" in c.source for c in cells if c.cell_type == "markdown"), written


def test_glued_values_are_written_into_the_exercise_text(tmp_path):
    """The prose's glue roles become the values the executed chapter glued, or a note."""
    chapter = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# T\n\nWe saw {glue:text}`acc` and {glue:md}`why`."),
        nbformat.v4.new_markdown_cell("## Exercises\n\n**1. Again.** Is {glue:text}`acc:.1f` right?"),
        nbformat.v4.new_code_cell("# Solution\nprint(1)")])
    executed = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("glue(...)", outputs=[
        nbformat.v4.new_output("display_data",
                               data={"application/papermill.record/text/plain": "'93.1%'"},
                               metadata={"scrapbook": {"name": "acc", "mime_prefix":
                                                       "application/papermill.record/"}})])])
    nbformat.write(chapter, tmp_path / "01_t.ipynb")
    nbformat.write(executed, tmp_path / "executed.ipynb")
    assert write_exercises(tmp_path / "01_t.ipynb", tmp_path / "out.ipynb",
                           tmp_path / "executed.ipynb") == 1
    text = "\n".join(c.source for c in nbformat.read(tmp_path / "out.ipynb", as_version=4).cells)
    assert "We saw 93.1% and " + UNRESOLVED in text and "Is 93.1% right?" in text
    assert "{glue" not in text
    write_exercises(tmp_path / "01_t.ipynb", tmp_path / "bare.ipynb")  # never executed
    bare = "\n".join(c.source for c in nbformat.read(tmp_path / "bare.ipynb", as_version=4).cells)
    assert "{glue" not in bare and bare.count(UNRESOLVED) == 3


def test_numbered_figures_become_captions_and_numrefs_their_numbers(tmp_path):
    """The exercise notebook shows each figure under its code; its directive becomes the caption
    and a {numref} the number the book gives it."""
    first = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "```{glue:figure} fig-01-a\n:name: fig-01-a\n\nThe first.\n```")])
    second = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "```{glue:figure} fig-02-b\n:name: fig-02-b\n\nThe second,\nover two lines.\n```\n\n"
        "As {numref}`fig-02-b` shows, and {numref}`Figure {number}a <fig-01-a>`.")])
    paths = []
    for name, notebook in (("01_x.ipynb", first), ("02_y.ipynb", second)):
        nbformat.write(notebook, tmp_path / name)
        paths.append(tmp_path / name)
    numbers = figure_numbers(paths)
    assert numbers == {"fig-01-a": 1, "fig-02-b": 2}
    resolve_figures(second, numbers)
    assert second.cells[0].source == ("**Figure 2.** The second,\nover two lines.\n\n"
                                      "As Figure 2 shows, and Figure 1a.")
