"""Repository, issue, edit and launch (Colab, Binder) buttons, for a book built where its repository
is known.

The repository URL lives in one place, `_config.yml`'s `repository:` block, and is absent from
the committed file: a local build shows no such buttons and no URL is invented. The publishing
workflow (`.github/workflows/book.yml`) sets it from the repository it runs in, on its own
checkout, before building:

    python tools/book_links.py configure --repository https://github.com/OWNER/NAME --branch main
    make book
    python tools/book_links.py retarget _build/html --repository https://github.com/OWNER/NAME

`retarget` points the launch buttons at the paired notebooks that are committed
(`notebooks/NN_topic.ipynb`), since the executed copies under `book/` are not, and the edit button
at the chapter's source (`notebooks/NN_topic.py`). With ``--colab-branch colab-notebooks`` the
Colab buttons open that branch instead: the workflow pushes there the notebooks whose install
cell names this repository (`tools/install_cell.py --repository`), so that Colab, which has
the notebook and nothing else, can install `tutorlib` from it.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
COLAB = "https://colab.research.google.com"
BINDER = "https://mybinder.org"
# an executed chapter's path in the book (book/<part>/NN_topic.ipynb), as the theme links it
_CHAPTER = re.compile(r"book/[A-Za-z0-9_-]+/(\d\d_[A-Za-z0-9_]+)\.ipynb")


def check_repository(url: str) -> str:
    """``url`` without a trailing slash if it is an http(s) address of a repository."""
    if not isinstance(url, str) or not re.fullmatch(r"https?://[^\s/]+/[^\s/]+/[^\s/]+/?", url):
        raise ValueError(f"the repository must be an address like https://github.com/OWNER/NAME, "
                         f"got {url!r}")
    return url.rstrip("/")


def configure(config: dict, repository: str, branch: str = "main") -> dict:
    """``config`` (a loaded `_config.yml`) with the repository and every button that needs it."""
    out = dict(config)
    out["repository"] = {"url": check_repository(repository), "branch": branch,
                         "path_to_book": ""}
    html = dict(out.get("html") or {})
    html.update(use_repository_button=True, use_issues_button=True, use_edit_page_button=True)
    out["html"] = html
    out["launch_buttons"] = {"notebook_interface": "jupyterlab", "binderhub_url": BINDER,
                             "colab_url": COLAB}
    return out


def retarget_html(text: str, repository: str, colab_branch: str | None = None) -> str:
    """Links of one built page to a chapter's executed copy, rewritten to its committed pair:
    the edit link to `notebooks/NN_topic.py`, Colab, Binder and the rest to the `.ipynb`; with
    ``colab_branch``, Colab's on that branch."""
    repository = check_repository(repository)
    slug = repository.split("://", 1)[1].split("/", 1)[1]  # OWNER/NAME
    if colab_branch is not None and not re.fullmatch(r"[A-Za-z0-9._/-]+", colab_branch):
        raise ValueError(f"not a branch name: {colab_branch!r}")

    def fix(match: re.Match) -> str:
        href = match.group(0)
        if slug not in href:
            return href
        edit = f"{repository}/edit/" in href
        href = _CHAPTER.sub(lambda m: f"notebooks/{m.group(1)}.{'py' if edit else 'ipynb'}", href)
        if colab_branch is not None and href.startswith(f'href="{COLAB}/github/{slug}/blob/'):
            head = f'href="{COLAB}/github/{slug}/blob/'
            rest = href[len(head):].split("/", 1)[1]  # past the branch
            href = f"{head}{colab_branch}/{rest}"
        return href

    return re.sub(r'href="[^"]*"', fix, text)


def retarget(html_dir: Path, repository: str, colab_branch: str | None = None) -> int:
    """Rewrite every built page under ``html_dir``; return how many pages changed."""
    changed = 0
    for page in sorted(Path(html_dir).rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        new = retarget_html(text, repository, colab_branch)
        if new != text:
            page.write_text(new, encoding="utf-8")
            changed += 1
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    setup = commands.add_parser("configure", help="write the repository into _config.yml")
    setup.add_argument("--repository", required=True)
    setup.add_argument("--branch", default="main")
    setup.add_argument("--config", type=Path, default=ROOT / "_config.yml")
    fix = commands.add_parser("retarget", help="point the built pages' launch links at notebooks/")
    fix.add_argument("html", type=Path)
    fix.add_argument("--repository", required=True)
    fix.add_argument("--colab-branch", help="the branch whose notebooks the Colab buttons open")
    args = parser.parse_args(argv)
    try:
        if args.command == "configure":
            config = yaml.safe_load(args.config.read_text(encoding="utf-8"))
            args.config.write_text(yaml.safe_dump(configure(config, args.repository, args.branch),
                                                  sort_keys=False, allow_unicode=True),
                                   encoding="utf-8")
            print(f"{args.config}: buttons point at {args.repository} ({args.branch})")
        else:
            print(f"{retarget(args.html, args.repository, args.colab_branch)} pages retargeted")
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
