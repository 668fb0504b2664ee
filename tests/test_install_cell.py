"""The install cell of every chapter (tools/install_cell.py): a no-op where tutorlib is
importable, an install from the checkout or from TUTORLIB_SOURCE where it is not, and a message
saying what to run where neither is available."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import install_cell  # noqa: E402


def run_cell(monkeypatch, cwd, importable, source=None):
    """Execute the cell's code; return the pip commands it would have run."""
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda command, check: calls.append(command))
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: (
        real_find_spec(name, *a) if importable or name != "tutorlib" else None))
    monkeypatch.chdir(cwd)
    if source is None:
        monkeypatch.delenv("TUTORLIB_SOURCE", raising=False)
    else:
        monkeypatch.setenv("TUTORLIB_SOURCE", source)
    exec(compile(install_cell.CODE, "install-cell", "exec"), {})
    return calls


def test_every_chapter_starts_with_the_same_install_cell_hidden_from_the_book():
    assert install_cell.main(["--check"]) == 0
    for path in install_cell.chapters():
        notebook = json.loads(path.with_suffix(".ipynb").read_text())
        code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
        assert "".join(code[0]["source"]).startswith("# Colab or a fresh Binder"), path.name
        assert code[0]["metadata"]["tags"] == ["remove-cell"], path.name
        assert code[1]["metadata"]["tags"] == ["parameters"], path.name


def test_where_tutorlib_is_importable_the_cell_does_nothing(monkeypatch, tmp_path):
    assert run_cell(monkeypatch, tmp_path, importable=True) == []
    assert run_cell(monkeypatch, tmp_path, importable=True, source="git+https://x/y/z") == []


def test_in_a_checkout_the_cell_installs_that_checkout(monkeypatch):
    calls = run_cell(monkeypatch, ROOT / "notebooks", importable=False)
    assert calls == [[sys.executable, "-m", "pip", "install", "-q", f"{ROOT}[book]"]]


def test_elsewhere_it_installs_from_tutorlib_source_or_says_what_to_run(monkeypatch, tmp_path):
    calls = run_cell(monkeypatch, tmp_path, importable=False, source="git+https://host/o/n")
    assert calls == [[sys.executable, "-m", "pip", "install", "-q",
                      "tutorlib[book] @ git+https://host/o/n"]]
    with pytest.raises(ModuleNotFoundError, match="TUTORLIB_SOURCE"):
        run_cell(monkeypatch, tmp_path, importable=False)


def test_putting_the_cell_in_twice_leaves_one_copy():
    text = (ROOT / "notebooks" / "03_scan_exp1.py").read_text()
    assert install_cell.with_cell(text) == text
    assert text.count("# Colab or a fresh Binder") == 1


def test_published_the_cell_installs_from_the_books_repository(monkeypatch, tmp_path):
    """What the publishing workflow writes (tools/install_cell.py --repository) makes the cell
    install from that repository where there is no checkout and no TUTORLIB_SOURCE: Colab."""
    code = install_cell.published_code("git+https://github.com/o/n@main")
    assert 'PUBLISHED = "git+https://github.com/o/n@main"' in code
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda command, check: calls.append(command))
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "tutorlib" else real_find_spec(name, *a))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TUTORLIB_SOURCE", raising=False)
    exec(compile(code, "install-cell", "exec"), {})
    assert calls == [[sys.executable, "-m", "pip", "install", "-q",
                      "tutorlib[book] @ git+https://github.com/o/n@main"]]
    for bad in ["", "github.com/o/n", "git+https://x/y z", 'git+https://x/"y']:
        with pytest.raises(ValueError, match="pip URL"):
            install_cell.published_code(bad)
    chapter = (ROOT / "notebooks" / "03_scan_exp1.py").read_text()
    published = install_cell.with_cell(chapter, "git+https://github.com/o/n@main")
    assert published.count("# Colab or a fresh Binder") == 1 and code in published


@pytest.mark.slow
def test_in_a_fresh_environment_the_published_cell_installs_tutorlib(tmp_path):
    """The Colab path for real: a fresh virtual environment without tutorlib, outside any
    checkout, runs the cell as published with this checkout's address; afterwards tutorlib is
    importable there. (PIP_NO_DEPS: the test checks the cell's path, not PyTorch's download.)"""
    import os
    import venv

    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    find = "import importlib.util, sys; sys.exit(importlib.util.find_spec('tutorlib') is None)"
    assert subprocess.run([python, "-c", find], cwd=tmp_path).returncode == 1  # not there yet
    cell = tmp_path / "cell.py"
    cell.write_text(install_cell.published_code(ROOT.as_uri()))
    environ = {k: v for k, v in os.environ.items() if k != "TUTORLIB_SOURCE"}
    environ.update(PIP_NO_DEPS="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run([python, cell], cwd=tmp_path, env=environ, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert subprocess.run([python, "-c", find], cwd=tmp_path).returncode == 0
