"""The first code cell of every chapter: it installs `tutorlib` where it is missing.

A reader who opens a chapter in Colab or a fresh Binder has the notebook but not the package.
The cell installs it from ``TUTORLIB_SOURCE`` if set (a pip URL, ``git+https://...`` of the
book's repository), else from the checkout the notebook sits in (Binder, a clone), else from
the address the publishing workflow wrote into it (``PUBLISHED``); with none of them, it says
what to run. Where `tutorlib` is importable, as in the book's own build and in `make lab`, it
does nothing. The book does not show it (tag ``remove-cell``).

    python tools/install_cell.py           # put the cell in every chapter (before its parameters)
    python tools/install_cell.py --check   # exit 1 if a chapter lacks it or carries another text
    python tools/install_cell.py --repository https://github.com/OWNER/NAME --branch main

The committed chapters carry ``PUBLISHED = None``: no address is invented. The publishing
workflow (`.github/workflows/book.yml`) runs the last form on its own checkout, so that the
notebooks it publishes for Colab (the ``colab-notebooks`` branch its launch buttons open)
install `tutorlib` from the repository they came from.

The chapters' `.ipynb` pairs are then synchronised with `make sync`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = '# %% tags=["remove-cell"]'
# the cell's code, as it stands in notebooks/NN_topic.py (jupytext percent format)
CODE = '''\
# Colab or a fresh Binder: install tutorlib where it is missing, from TUTORLIB_SOURCE (a pip
# URL: git+https://... of the book's repository), else from the checkout this notebook sits in,
# else from the repository the published book names. Where tutorlib is installed, as in the
# book's own build, this cell does nothing.
import importlib.util

PUBLISHED = None  # the publishing workflow writes the book's repository here (git+https://...)
if importlib.util.find_spec("tutorlib") is None:
    import os
    import pathlib
    import subprocess
    import sys

    here = pathlib.Path.cwd()
    checkout = next((p for p in [here, *here.parents]
                     if (p / "pyproject.toml").is_file() and (p / "tutorlib").is_dir()), None)
    source = os.environ.get("TUTORLIB_SOURCE")
    if source:
        requirement = f"tutorlib[book] @ {source}"
    elif checkout is not None:
        requirement = f"{checkout}[book]"
    elif PUBLISHED:
        requirement = f"tutorlib[book] @ {PUBLISHED}"
    else:
        raise ModuleNotFoundError(
            "tutorlib is not installed here. Install it from the book's repository (its GitHub "
            "button): %pip install 'tutorlib[book] @ git+https://github.com/OWNER/NAME', or set "
            "TUTORLIB_SOURCE to that git+https:// address and run this cell again.")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", requirement], check=True)
    importlib.invalidate_caches()  # so that this kernel finds what was just installed
'''
PARAMETERS = '# %% tags=["parameters"]'


def chapters(root: Path = ROOT) -> list[Path]:
    return sorted((root / "notebooks").glob("[0-9][0-9]_*.py"))


def published_code(source: str) -> str:
    """The cell's code with the address it installs from in Colab: ``source``, a pip URL of the
    book's repository (``git+https://github.com/OWNER/NAME@BRANCH``)."""
    if not isinstance(source, str) or not source.startswith(("git+", "file:", "https:")) \
            or any(c in source for c in "\"'\n "):
        raise ValueError(f"the published address must be a pip URL such as "
                         f"git+https://github.com/OWNER/NAME@main, got {source!r}")
    return CODE.replace("PUBLISHED = None", f'PUBLISHED = "{source}"', 1)


def with_cell(text: str, source: str | None = None) -> str:
    """A chapter's source with the install cell just before its parameters cell (replacing an
    older copy of the cell); with ``source``, the cell installs from there in Colab
    (:func:`published_code`)."""
    if text.count(PARAMETERS) != 1:
        raise ValueError("a chapter needs exactly one parameters cell to put the install cell before")
    start = text.find(HEADER + "\n# Colab or a fresh Binder")
    if start >= 0:
        end = text.index("\n# %%", start + 1) + 1
        text = text[:start] + text[end:]
    code = CODE if source is None else published_code(source)
    return text.replace(PARAMETERS, f"{HEADER}\n{code}\n" + PARAMETERS, 1)


def cell_code(text: str) -> str | None:
    """The install cell's code in a chapter's source, or None."""
    start = text.find(HEADER + "\n")
    while start >= 0:
        end = text.find("\n# %%", start + 1)
        body = text[start + len(HEADER) + 1:end + 1 if end >= 0 else len(text)]
        if body.startswith("# Colab or a fresh Binder"):
            return body.rstrip("\n") + "\n"
        start = text.find(HEADER + "\n", start + 1)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, change nothing")
    parser.add_argument("--repository", help="https://github.com/OWNER/NAME: the cell installs "
                        "from it in Colab (the publishing workflow, on its own checkout)")
    parser.add_argument("--branch", default="main", help="the branch to install from")
    args = parser.parse_args(argv)
    source = None
    if args.repository:
        from book_links import check_repository  # the same rule as the launch buttons'

        source = f"git+{check_repository(args.repository)}@{args.branch}"
    wrong = []
    for path in chapters():
        text = path.read_text()
        if args.check:
            if cell_code(text) != CODE or text.index(HEADER + "\n# Colab") > text.index(PARAMETERS):
                wrong.append(path.name)
        else:
            path.write_text(with_cell(text, source))
    if wrong:
        print("chapters without the install cell: " + ", ".join(wrong), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
