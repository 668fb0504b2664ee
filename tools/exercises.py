"""Write exercise notebooks for students (``make exercises``): each chapter without its solutions.

For every ``notebooks/NN_topic.ipynb`` this writes ``exercises/NN_topic.ipynb``: the same chapter,
with the solutions of its exercises removed and an empty answer cell (a code cell holding
``# Your answer here``) after each exercise, for an instructor to hand out. The book keeps the
solutions, hidden behind toggles.

What counts as a solution:

- a cell tagged ``solution``, or a code cell whose first line is a ``# Solution`` comment;
- in a markdown cell, a ```` ```{admonition} Solution ```` block (or ``:::{admonition}``, or a
  ``{dropdown} Solution``), with its body; the rest of the cell stays;
- in the section that a heading "Exercises" opens (up to the next heading of the same or a
  higher level), also a code cell tagged ``hide-cell`` or ``hide-input`` (how the chapters hide
  their worked solutions).

An exercise starts at a markdown line that opens with a bold number, ``**1. Title.**`` (or
``**Exercise 1.**``). Its answer cell goes where its first solution was, or, if it had none,
at the end of its text.

The prose's glued values (``{glue:text}`name```, which only the book resolves) are written in:
from the chapter as the book executed it (``book/<part>/NN_topic.ipynb``) where it is there,
else as a note that the value is computed when the chapter runs. A numbered figure's
``{glue:figure}`` directive (the figure itself is shown under the code that draws it) becomes
its caption, "**Figure N.** ...", and a ``{numref}`` reference the same "Figure N", numbered as
the book numbers them (through the chapters in order).

Usage: ``python tools/exercises.py [--root .] [--out exercises] [NN ...]``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ANSWER = "# Your answer here"
SOLUTION_TAGS = {"solution", "hide-cell", "hide-input"}
EXERCISES_HEADING = re.compile(r"^(#{1,6})\s+Exercises\b", re.I)
HEADING = re.compile(r"^(#{1,6})\s+\S")
EXERCISE_START = re.compile(r"^\s*\*\*(?:Exercise\s+)?\d+[.:)]", re.I)
# The opening line of a solution block: ```{admonition} Solution, :::{dropdown} Solution, ...
SOLUTION_OPEN = re.compile(r"^(\s*)(`{3,}|:{3,})\s*\{(admonition|dropdown)\}\s*Solution\b", re.I)
FENCE = re.compile(r"^\s*(`{3,}|:{3,})")
GLUE_ROLE = re.compile(r"\{glue(?::text|:md)?\}`([^`:]+)(?::[^`]*)?`")
UNRESOLVED = "*[computed when the chapter runs]*"
FIGURE_DIRECTIVE = re.compile(r"^```\{glue:figure\} (\S+)\n(?::[^\n]*\n)*\n?(.*?)\n```$", re.S | re.M)
NUMREF = re.compile(r"\{numref\}`([^`]+)`")
NOTE = ("*Exercise notebook for {chapter}: the solutions are removed. Write your answer in the "
        "cells marked `{answer}`; the book shows worked solutions behind toggles.*")


def is_solution_cell(cell: nbformat.NotebookNode, in_exercises: bool) -> bool:
    """Whether a whole cell is a solution. Anywhere: the tag ``solution``, or (a code cell) a first
    line ``# Solution``; inside an Exercises section also a code cell hidden by its tags."""
    tags = set(cell.get("metadata", {}).get("tags", []))
    if "solution" in tags:
        return True
    if cell.cell_type != "code":
        return False
    first = next((line.strip() for line in cell.source.splitlines() if line.strip()), "")
    return bool(re.match(r"#\s*Solution\b", first, re.I)) or (in_exercises and bool(SOLUTION_TAGS & tags))


def split_markdown(source: str) -> list[tuple[str, str]]:
    """Cut a markdown cell into pieces ``(kind, text)``: ``"text"`` (a new one at each heading),
    ``"exercise"`` (text opening with an exercise's bold number) and ``"solution"`` (a solution
    block, fences included). Lines inside other fenced blocks are never headings or exercises."""
    lines = source.split("\n")
    pieces: list[tuple[str, list[str]]] = []
    fence_open: str | None = None  # the fence of the (non-solution) block we are in
    i = 0
    while i < len(lines):
        line = lines[i]
        opened = SOLUTION_OPEN.match(line) if fence_open is None else None
        if opened:
            # The block ends at the first bare fence of the same character, at least as long,
            # that closes no fence opened inside the block.
            char, length = opened.group(2)[0], len(opened.group(2))
            block, depth, i = [line], 0, i + 1
            while i < len(lines):
                block.append(lines[i])
                fence = FENCE.match(lines[i])
                if fence:
                    rest = lines[i].strip()[len(fence.group(1)):].strip()
                    if rest:
                        depth += 1
                    elif depth:
                        depth -= 1
                    elif fence.group(1)[0] == char and len(fence.group(1)) >= length:
                        i += 1
                        break
                i += 1
            pieces.append(("solution", block))
            continue
        fence = FENCE.match(line)
        if fence_open is None and fence:
            fence_open = fence.group(1)
        elif fence_open and fence and fence.group(1).startswith(fence_open) \
                and not line.strip()[len(fence.group(1)):].strip():
            fence_open = None
        starts = fence_open is None and not fence
        if starts and EXERCISE_START.match(line):
            pieces.append(("exercise", [line]))
        elif starts and HEADING.match(line):
            pieces.append(("text", [line]))
        elif pieces and pieces[-1][0] != "solution":
            pieces[-1][1].append(line)
        else:
            pieces.append(("text", [line]))
        i += 1
    return [(kind, "\n".join(text).strip("\n")) for kind, text in pieces]


def answer_cell() -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(ANSWER)
    cell.metadata["tags"] = ["answer"]
    return cell


def strip_solutions(notebook: nbformat.NotebookNode) -> tuple[nbformat.NotebookNode, int]:
    """A copy of ``notebook`` without solutions, with an answer cell after each exercise;
    also the number of exercises found."""
    cells: list[nbformat.NotebookNode] = []
    level = 0          # heading level of the current Exercises section; 0 outside one
    pending = False    # an exercise whose answer cell is still to come
    exercises = 0

    def close() -> None:
        nonlocal pending
        if pending:
            cells.append(answer_cell())
            pending = False

    def solved() -> None:
        """A solution was removed: the answer cell of its exercise goes in its place (outside an
        Exercises section too, where a solution still answers a question)."""
        nonlocal pending
        if pending or not level:
            cells.append(answer_cell())
        pending = False

    for cell in notebook.cells:
        if is_solution_cell(cell, bool(level)):
            solved()
            continue
        if cell.cell_type != "markdown":
            cells.append(cell)
            continue
        pieces = split_markdown(cell.source)
        if not level and not any(kind == "solution" or EXERCISES_HEADING.match(text)
                                 for kind, text in pieces):
            cells.append(cell)  # untouched, byte for byte
            continue
        text_pieces: list[str] = []

        def flush(text_pieces=text_pieces, metadata=cell.metadata) -> None:
            if any(piece.strip() for piece in text_pieces):
                cells.append(nbformat.v4.new_markdown_cell("\n\n".join(text_pieces),
                                                           metadata=dict(metadata)))
            text_pieces.clear()

        for kind, text in pieces:
            heading = HEADING.match(text) if kind == "text" else None
            if heading and level and len(heading.group(1)) <= level:
                flush()
                close()
                level = 0
            opened = EXERCISES_HEADING.match(text) if kind == "text" else None
            if opened:
                level = len(opened.group(1))
            if kind == "solution":
                flush()
                solved()
            elif kind == "exercise" and level:
                flush()
                close()
                text_pieces.append(text)
                pending, exercises = True, exercises + 1
            else:
                text_pieces.append(text)
        flush()
    close()
    copy = nbformat.from_dict(notebook)
    copy.cells = cells
    for number, kept in enumerate(copy.cells):
        kept["id"] = f"cell-{number}"  # stable ids: the same chapter gives the same file
    copy.metadata.pop("jupytext", None)  # a plain notebook, not paired with a .py file
    return copy, exercises


def glued_values(executed: Path | None) -> dict[str, str]:
    """The text values an executed chapter glued (name -> text), or none."""
    if executed is None or not executed.exists():
        return {}
    values = {}
    for cell in nbformat.read(executed, as_version=4).cells:
        for output in cell.get("outputs", []):
            record = output.get("metadata", {}).get("scrapbook", {})
            data, prefix = output.get("data", {}), record.get("mime_prefix", "")
            markdown = data.get(f"{prefix}text/markdown")
            text = data.get(f"{prefix}text/plain")
            if record.get("name") and isinstance(markdown, str):
                values[record["name"]] = markdown
            elif record.get("name") and isinstance(text, str):
                values[record["name"]] = text[1:-1] if text[:1] in "'\"" and text[-1:] == text[:1] else text
    return values


def resolve_glue(notebook: nbformat.NotebookNode, values: dict[str, str]) -> None:
    """Write ``values`` in place of the glue roles of ``notebook``'s markdown cells (a note
    where a value is unknown)."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = GLUE_ROLE.sub(lambda m: values.get(m.group(1), UNRESOLVED), cell.source)


def figure_numbers(sources: list[Path]) -> dict[str, int]:
    """Label -> the number the book gives the figure: figures counted through the chapters in
    the order of their file names (the book's order)."""
    labels = []
    for source in sorted(sources):
        for cell in nbformat.read(source, as_version=4).cells:
            if cell.cell_type == "markdown":
                labels += [m.group(1) for m in FIGURE_DIRECTIVE.finditer(cell.source)]
    return {label: number for number, label in enumerate(labels, start=1)}


def resolve_figures(notebook: nbformat.NotebookNode, numbers: dict[str, int]) -> None:
    """Figure directives as captions and ``{numref}`` references as "Figure N" text."""

    def reference(match: re.Match) -> str:
        text = match.group(1)
        title, label = (text[:text.rindex("<")].strip(), text[text.rindex("<") + 1:-1]
                        ) if text.endswith(">") else ("Figure {number}", text)
        number = str(numbers.get(label, "?"))
        return title.replace("{number}", number).replace("%s", number)

    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = FIGURE_DIRECTIVE.sub(
                lambda m: f"**Figure {numbers.get(m.group(1), '?')}.** {m.group(2).strip()}",
                cell.source)
            cell.source = NUMREF.sub(reference, cell.source)


def write_exercises(source: Path, target: Path, executed: Path | None = None,
                    numbers: dict[str, int] | None = None) -> int:
    """Write ``source``'s exercise notebook to ``target``; return the number of exercises. A
    notebook without exercises (a back-matter page) is not written. ``executed`` is the chapter
    as the book executed it, whose glued values replace the prose's glue roles."""
    notebook = nbformat.read(source, as_version=4)
    copy, exercises = strip_solutions(notebook)
    if not exercises:
        return 0
    resolve_glue(copy, glued_values(executed))
    resolve_figures(copy, numbers if numbers is not None else figure_numbers([source]))
    note = nbformat.v4.new_markdown_cell(NOTE.format(chapter=source.stem, answer=ANSWER))
    note.metadata["tags"] = ["exercise-note"]
    copy.cells.insert(1 if copy.cells and copy.cells[0].cell_type == "markdown" else 0, note)
    for number, cell in enumerate(copy.cells):
        cell["id"] = f"cell-{number}"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(copy, target)
    return exercises


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=".", help="project root with notebooks/")
    parser.add_argument("--out", default="exercises", help="where to write (relative to --root)")
    parser.add_argument("only", nargs="*", metavar="NN",
                        help="only the chapters whose file name starts with NN (e.g. 05)")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    sources = sorted((root / "notebooks").glob("*.ipynb"))
    if args.only:
        sources = [s for s in sources if any(s.name.startswith(prefix) for prefix in args.only)]
    if not sources:
        print("error: no chapter notebooks found", file=sys.stderr)
        return 2
    out = root / args.out
    numbers = figure_numbers(sorted((root / "notebooks").glob("*.ipynb")))
    for source in sources:
        executed = next(iter(sorted((root / "book").glob(f"*/{source.name}"))), None)
        exercises = write_exercises(source, out / source.name, executed, numbers)
        where = (out / source.name).relative_to(root) if out.is_relative_to(root) else out / source.name
        print(f"{where}: {exercises} exercise(s)" if exercises
              else f"{source.relative_to(root)}: no exercises, nothing written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
