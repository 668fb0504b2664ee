"""tools/book_links.py: the repository's buttons exist only where the repository is known, and the
launch links open the committed notebooks."""

import sys

import pytest
import yaml
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import book_links  # noqa: E402

REPO = "https://github.com/example-owner/measuring-compositionality"


def test_the_committed_config_names_no_repository():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert "repository" not in config and "launch_buttons" not in config
    assert not any(config["html"][k] for k in ("use_repository_button", "use_issues_button",
                                                "use_edit_page_button"))


def test_configure_sets_the_repository_and_every_button(tmp_path):
    config_path = tmp_path / "_config.yml"
    config_path.write_text((ROOT / "_config.yml").read_text())
    assert book_links.main(["configure", "--repository", REPO + "/", "--branch", "main",
                            "--config", str(config_path)]) == 0
    config = yaml.safe_load(config_path.read_text())
    assert config["repository"] == {"url": REPO, "branch": "main", "path_to_book": ""}
    assert config["html"]["use_repository_button"] and config["html"]["use_edit_page_button"]
    assert config["launch_buttons"]["colab_url"] == "https://colab.research.google.com"
    assert config["launch_buttons"]["binderhub_url"] == "https://mybinder.org"
    # everything else kept
    assert config["title"] == "Measuring Compositionality"
    assert config["sphinx"]["config"]["html_css_files"] == ["book.css"]


@pytest.mark.parametrize("bad", ["", "github.com/a/b", "https://github.com/only-owner", None])
def test_a_repository_that_is_not_an_address_is_refused(bad, tmp_path):
    with pytest.raises(ValueError, match="an address like"):
        book_links.configure({}, bad)


def test_launch_and_edit_links_open_the_committed_pair():
    page = (f'<a href="{REPO}/edit/main/book/scan/02_scan_task.ipynb">edit</a>'
            f'<a href="https://colab.research.google.com/github/example-owner/'
            f'measuring-compositionality/blob/main/book/scan/02_scan_task.ipynb">colab</a>'
            f'<a href="https://mybinder.org/v2/gh/example-owner/measuring-compositionality/main'
            f'?urlpath=lab/tree/book/scan/02_scan_task.ipynb">binder</a>'
            f'<a href="../_sources/book/scan/02_scan_task.ipynb">source</a>')
    fixed = book_links.retarget_html(page, REPO)
    assert f'{REPO}/edit/main/notebooks/02_scan_task.py"' in fixed
    assert "blob/main/notebooks/02_scan_task.ipynb" in fixed
    assert "lab/tree/notebooks/02_scan_task.ipynb" in fixed
    assert 'href="../_sources/book/scan/02_scan_task.ipynb"' in fixed  # the page's own download
    assert book_links.retarget_html(page, "https://github.com/someone/else") == page
    # Colab opens the branch whose install cells name the repository; the rest stay on main
    colab = book_links.retarget_html(page, REPO, colab_branch="colab-notebooks")
    assert ("colab.research.google.com/github/example-owner/measuring-compositionality/blob/"
            "colab-notebooks/notebooks/02_scan_task.ipynb") in colab
    assert "lab/tree/notebooks/02_scan_task.ipynb" in colab and f"{REPO}/edit/main/" in colab
    with pytest.raises(ValueError, match="not a branch name"):
        book_links.retarget_html(page, REPO, colab_branch="a b")


def test_the_publishing_workflow_sets_the_repository_and_retargets_the_pages():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "book.yml").read_text())
    runs = [step.get("run", "") for step in workflow["jobs"]["build"]["steps"]]
    configure = next(i for i, r in enumerate(runs) if "book_links.py configure" in r)
    build = next(i for i, r in enumerate(runs) if r.startswith("make book"))
    retarget = next(i for i, r in enumerate(runs) if "book_links.py retarget" in r)
    assert configure < build < retarget
    assert "${{ github.repository }}" in runs[configure]
    # the notebooks Colab opens install tutorlib from this repository
    colab = next(i for i, r in enumerate(runs) if "install_cell.py --repository" in r)
    assert build < colab < retarget and "git push --force origin colab-notebooks" in runs[colab]
    assert "--colab-branch colab-notebooks" in runs[retarget]
