"""The chapter executor: failures fail (naming notebook and cell), unchanged chapters are skipped."""

import subprocess
import sys

import nbformat
import pytest
from conftest import ROOT

TOC = """format: jb-book
root: book/intro
chapters:
  - file: book/part/{name}
"""


def make_project(tmp_path, name, cells):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "book").mkdir()
    (tmp_path / "_toc.yml").write_text(TOC.format(name=name))
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    params = nbformat.v4.new_code_cell('PROFILE = "tutorial"')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {name}"), params,
                *[nbformat.v4.new_code_cell(src) for src in cells]]
    nbformat.write(nb, tmp_path / "notebooks" / f"{name}.ipynb")
    return tmp_path


def execute(root, *extra):
    return subprocess.run([sys.executable, str(ROOT / "tools" / "execute.py"), "--root", str(root),
                           "--profile", "ci", *extra], capture_output=True, text=True)


@pytest.mark.slow
def test_a_broken_notebook_fails_and_is_named(tmp_path):
    root = make_project(tmp_path, "99_broken", ["x = 1", "y = x / 0", "z = 2"])
    out = execute(root)
    assert out.returncode == 1
    assert "notebooks/99_broken.ipynb failed in cell 4" in out.stderr  # markdown, params, injected, x, y
    assert "ZeroDivisionError" in out.stderr and "y = x / 0" in out.stderr
    assert not (root / "book" / "part" / "99_broken.ipynb").exists()
    assert (root / "_build" / "failed" / "99_broken.ipynb").exists()


@pytest.mark.slow
def test_make_execute_fails_on_a_broken_notebook(tmp_path):
    root = make_project(tmp_path, "98_broken", ["raise RuntimeError('chapter is broken')"])
    out = subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), "execute",
                          f"ROOT={root}", "PROFILE=ci"], capture_output=True, text=True)
    assert out.returncode != 0
    assert "98_broken.ipynb failed in cell 3" in out.stderr
    assert "RuntimeError: chapter is broken" in out.stderr


@pytest.mark.slow
def test_a_good_notebook_is_executed_once_with_its_profile(tmp_path):
    root = make_project(tmp_path, "01_good", ["print(PROFILE)"])
    (root / "notebooks" / "01_good.py").write_text("print(PROFILE)\n")  # its jupytext pair
    out = execute(root)
    assert out.returncode == 0, out.stderr
    executed = nbformat.read(root / "book" / "part" / "01_good.ipynb", as_version=4)
    assert executed.cells[-1].outputs[0]["text"] == "ci\n"
    assert executed.metadata["tutorlib_execution"]["profile"] == "ci"
    # parameter cells are hidden in the book; the profile line sits under the title
    for cell in executed.cells:
        tags = cell.metadata.get("tags", [])
        if {"parameters", "injected-parameters"} & set(tags):
            assert "remove-cell" in tags
    assert "executed at the `ci` profile" in executed.cells[1].source
    # with a download link to the chapter's source, from the executed copy's folder
    assert "{download}`01_good.py <../../notebooks/01_good.py>`" in executed.cells[1].source
    again = execute(root)
    assert again.returncode == 0 and "up to date: notebooks/01_good.ipynb" in again.stdout


@pytest.mark.slow
def test_a_notebook_missing_from_the_toc_is_an_error(tmp_path):
    root = make_project(tmp_path, "01_good", ["1"])
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/intro\n")
    out = execute(root)
    assert out.returncode != 0 and "01_good.ipynb is not in _toc.yml" in out.stderr


@pytest.mark.slow
def test_only_executes_the_chapter_named(tmp_path):
    root = make_project(tmp_path, "98_fine", ["x = 1"])
    out = execute(root, "--only", "77")
    assert out.returncode == 2 and "no chapter's file name starts with '77'" in out.stderr
    out = execute(root, "--only", "98")
    assert out.returncode == 0 and "executing notebooks/98_fine.ipynb" in out.stdout
    # a chapter named exactly is that chapter alone, not also its part's appendix page
    (root / "_toc.yml").write_text(TOC.format(name="98_fine") + "  - file: book/part/98_fine_full_runs\n")
    (root / "notebooks" / "98_fine_full_runs.ipynb").write_bytes(
        (root / "notebooks" / "98_fine.ipynb").read_bytes())
    out = execute(root, "--only", "98_fine", "--force")
    assert out.returncode == 0 and "98_fine_full_runs" not in out.stdout
    out = execute(root, "--only", "98", "--force")
    assert "executing notebooks/98_fine_full_runs.ipynb" in out.stdout


@pytest.mark.slow
def test_jobs_execute_chapters_side_by_side_and_still_name_failures(tmp_path):
    root = make_project(tmp_path, "01_good", ["print(PROFILE)"])
    (root / "_toc.yml").write_text(TOC.format(name="01_good") + "  - file: book/part/02_broken\n")
    broken = nbformat.read(root / "notebooks" / "01_good.ipynb", as_version=4)
    broken.cells[-1].source = "raise RuntimeError('second chapter is broken')"
    nbformat.write(broken, root / "notebooks" / "02_broken.ipynb")
    out = execute(root, "--jobs", "2")
    assert out.returncode == 1
    assert "RuntimeError: second chapter is broken" in out.stderr
    assert "1 notebook(s) failed: notebooks/02_broken.ipynb" in out.stderr
    assert (root / "book" / "part" / "01_good.ipynb").exists()
    again = execute(root, "--jobs", "2")
    assert "up to date: notebooks/01_good.ipynb" in again.stdout
    assert execute(root, "--jobs", "0").returncode == 2
    # the seconds each chapter took, for scheduling the next run longest first
    import json

    assert set(json.loads((root / "_build" / "chapter-seconds.json").read_text())["ci"]) == {"01_good"}


def test_chapters_are_scheduled_by_the_seconds_they_last_took(tmp_path):
    import importlib.util
    import json

    spec = importlib.util.spec_from_file_location("execute_tool", ROOT / "tools" / "execute.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    (tmp_path / "tools").mkdir()
    assert tool.chapter_seconds(tmp_path, "tutorial") == {}  # none recorded: file order
    (tmp_path / "tools" / "chapter_seconds.json").write_text(json.dumps(
        {"tutorial": {"01_a": 10, "02_b": 300}}))
    assert tool.chapter_seconds(tmp_path, "tutorial") == {"01_a": 10.0, "02_b": 300.0}
    assert tool.chapter_seconds(tmp_path, "ci") == {}
    committed = tool.chapter_seconds(ROOT, "tutorial")
    assert {p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.py")} <= set(committed)


@pytest.mark.slow
def test_live_networks_are_gathered_into_live_fits_json(tmp_path):
    import json

    root = make_project(tmp_path, "03_live", [
        "from tutorlib import fit\n"
        "fit.show_live_fits([fit.live_fit('net a', 0.95, 0.96, seconds=3),\n"
        "                    fit.live_fit('net b', 0.5, None)])"])
    out = execute(root)
    assert out.returncode == 0, out.stderr
    record = json.loads((root / "_build" / "live-fits.json").read_text())
    assert record["profile"] == "ci" and record["networks"] == 2 and record["passed"] == 1
    assert [(r["chapter"], r["network"], r["passes"]) for r in record["rows"]] == [
        ("03_live", "net a", True), ("03_live", "net b", False)]
    assert "2 trained, 1 pass the fit gate; failing: 03_live: net b" in out.stdout
