"""Checks of the repository itself: notebook pairs, dependency lists, versions, chapters."""

import json
import re
import tomllib
from pathlib import Path

import jupytext
import pytest
import yaml
from conftest import ROOT
from execute import chapters

import tutorlib

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_there_are_chapters():
    assert NOTEBOOKS, "notebooks/ holds no chapter sources"


def test_notebook_pairs_are_in_sync():
    """Each notebooks/NN.py and its .ipynb hold the same cells (run `make sync` if not)."""
    for source in NOTEBOOKS:
        paired = source.with_suffix(".ipynb")
        assert paired.exists(), f"{paired.name} is missing: run `make sync`"
        text_cells = [(c.cell_type, c.source.strip()) for c in jupytext.read(source).cells]
        nb = json.loads(paired.read_text())
        ipynb_cells = [(c["cell_type"], "".join(c["source"]).strip()) for c in nb["cells"]]
        assert text_cells == ipynb_cells, f"{source.name} and {paired.name} differ: run `make sync`"
        assert all(not c.get("outputs") for c in nb["cells"]), f"{paired.name} has outputs"


def test_every_chapter_has_a_tutorial_parameters_cell():
    for source in NOTEBOOKS:
        cells = [c for c in jupytext.read(source).cells if "parameters" in c.metadata.get("tags", [])]
        assert len(cells) == 1, f"{source.name} needs exactly one cell tagged 'parameters'"
        assert re.search(r'^PROFILE = "tutorial"$', cells[0].source, re.M), source.name


def test_every_chapter_is_in_the_table_of_contents():
    # in the order of their numbers; a part's appendix page (NN_part_full_runs) ends its part
    order = sorted(NOTEBOOKS, key=lambda s: (s.stem[:2], s.stem.endswith("_full_runs"), s.stem))
    assert [s.stem for s, _ in chapters(ROOT)] == [s.stem for s in order]


def test_environment_yml_lists_the_pyproject_dependencies():
    project = _pyproject()["project"]
    wanted = set(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted |= set(extra)
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    listed = {d for d in pip_section if not d.startswith("-")}
    assert listed == wanted
    assert "python=3.11" in env["dependencies"]


def test_versions_agree():
    assert _pyproject()["project"]["version"] == tutorlib.__version__


def test_torch_is_pinned_to_the_cpu_wheel():
    constraints = (ROOT / "constraints.txt").read_text().splitlines()
    assert "torch==2.13.0" in constraints
    assert "jupyter-book==1.0.4.post1" in constraints
    # and the build installed is the CPU one, not the CUDA one with its gigabytes of libraries,
    # unless make was asked for another index (make TORCH_INDEX=.../cu128 for a GPU)
    import os

    import torch

    assert torch.__version__.startswith("2.13.0")
    if os.environ.get("TORCH_INDEX", "/whl/cpu").endswith("/whl/cpu"):
        assert torch.version.cuda is None, f"the CUDA build {torch.__version__} is installed"
    makefile = (ROOT / "Makefile").read_text()
    assert "export TORCH_INDEX ?= https://download.pytorch.org/whl/cpu" in makefile


@pytest.mark.slow
def test_browser_check_skips_without_chromium_and_exits_0(tmp_path):
    """On a machine without Chromium, `make test`'s last step skips with a message; before, pytest
    exited 5 (no tests collected) and `make test` failed."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "REQUIRE_BROWSER"}
    env["PATH"] = str(Path(sys.executable).parent)  # no chromium, no chromedriver on it
    out = subprocess.run([sys.executable, "-m", "pytest", "-rs", "tests/browser"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:]
    assert "headless Chromium is not installed" in out.stdout and "skipped" in out.stdout
    env["REQUIRE_BROWSER"] = "1"  # CI: the absence fails
    out = subprocess.run([sys.executable, "-m", "pytest", "tests/browser"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode != 0 and "REQUIRE_BROWSER=1" in out.stdout


def test_the_licences_and_the_citation_are_stated():
    """Code under MIT (LICENSE, in the wheel's metadata), text under CC BY 4.0 (stated in the
    README and the book's footer), and a citation file at the package's version."""
    project = _pyproject()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "CC BY 4.0" in (ROOT / "LICENSE-TEXT.md").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "MIT licence" in readme and "CC BY 4.0" in readme
    assert "CC BY 4.0" in (ROOT / "_config.yml").read_text()
    citation = (ROOT / "CITATION.cff").read_text()
    assert f'version: "{tutorlib.__version__}"' in citation
    for name in ("CONTRIBUTING.md", "CHANGELOG.md"):
        assert (ROOT / name).exists(), name
    assert f"## {tutorlib.__version__}" in (ROOT / "CHANGELOG.md").read_text()


def test_pull_requests_are_tested_with_a_pip_cache():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "test.yml").read_text())
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML reads `on` as True
    assert "pull_request" in triggers and "push" in triggers
    steps = workflow["jobs"]["test"]["steps"]
    setup = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["cache"] == "pip"
    assert any(s.get("run") == "bash .ci/run" for s in steps)


def test_the_usage_pages_speed_tables_are_the_committed_results():
    """book/speed_tables.md is written from results/benchmarks/ (tools/speed_table.py)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("speed_table", ROOT / "tools" / "speed_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "book" / "speed_tables.md").read_text() == module.render(), (
        "run python tools/speed_table.py")
    assert "{include} speed_tables.md" in (ROOT / "book" / "scale.md").read_text()
