"""The first code cell of every chapter: it installs `tutorlib` where it is missing.

A reader who opens a chapter in Colab or a fresh Binder has the notebook but not the package.
The cell installs it from the checkout the notebook sits in (Binder, a clone), or else from
``TUTORLIB_SOURCE`` (a pip URL, ``git+https://...`` of the book's repository); with
neither, it says what to run. Where `tutorlib` is importable, as in the book's own build and in
`make lab`, it does nothing. The book does not show it (tag ``remove-cell``).

    python tools/install_cell.py           # put the cell in every chapter (before its parameters)
    python tools/install_cell.py --check   # exit 1 if a chapter lacks it or carries another text

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
# Colab or a fresh Binder: install tutorlib where it is missing, from the checkout this notebook
# sits in, else from TUTORLIB_SOURCE (a pip URL: git+https://... of the book's repository).
# Where tutorlib is installed, as in the book's own build, this cell does nothing.
import importlib.util

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
    else:
        raise ModuleNotFoundError(
            "tutorlib is not installed here. Install it from the book's repository (its GitHub "
            "button): %pip install 'tutorlib[book] @ git+https://github.com/OWNER/NAME', or set "
            "TUTORLIB_SOURCE to that git+https:// address and run this cell again.")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", requirement], check=True)
    importlib.invalidate_caches()  # so that this kernel finds what was just installed
'''
CELL = f"{HEADER}\n{CODE}\n"
PARAMETERS = '# %% tags=["parameters"]'


def chapters(root: Path = ROOT) -> list[Path]:
    return sorted((root / "notebooks").glob("[0-9][0-9]_*.py"))


def with_cell(text: str) -> str:
    """A chapter's source with the install cell just before its parameters cell (replacing an
    older copy of the cell)."""
    if text.count(PARAMETERS) != 1:
        raise ValueError("a chapter needs exactly one parameters cell to put the install cell before")
    start = text.find(HEADER + "\n# Colab or a fresh Binder")
    if start >= 0:
        end = text.index("\n# %%", start + 1) + 1
        text = text[:start] + text[end:]
    return text.replace(PARAMETERS, CELL + PARAMETERS, 1)


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
    args = parser.parse_args(argv)
    wrong = []
    for path in chapters():
        text = path.read_text()
        if args.check:
            if cell_code(text) != CODE or text.index(HEADER + "\n# Colab") > text.index(PARAMETERS):
                wrong.append(path.name)
        else:
            path.write_text(with_cell(text))
    if wrong:
        print("chapters without the install cell: " + ", ".join(wrong), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
