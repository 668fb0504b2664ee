"""The book's figure style: one look for every chapter, PNG output, colour-blind-safe colours.

Call :func:`use_book_style` once at the top of a chapter. Figures are shown inline as PNG (the
notebooks are executed without a display) and :func:`save_png` writes the same figure to a file.
A chapter's figure ends its cell with :func:`glue_figure`: the notebook shows it where it was
drawn, and the book places it, numbered, where a ``{glue:figure}`` directive gives its caption.
"""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

from tutorlib.colours import PALETTE, TINTS  # noqa: F401 (chapters take the colours from here)

BOOK_STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "legend.frameon": False,
    "image.cmap": "viridis",
}


def use_book_style() -> None:
    """Apply the book's matplotlib style, show inline figures as PNG, and let tables show whole
    cells (action sequences and error messages are meant to be read, not cut with "…")."""
    plt.rcParams.update(BOOK_STYLE)
    try:
        import pandas as pd

        pd.set_option("display.max_colwidth", None)
    except ImportError:  # pandas is a dependency; this only keeps plotting importable alone
        pass
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is not None:
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("png")


def save_png(fig: plt.Figure, path: str | os.PathLike) -> Path:
    """Save ``fig`` as a PNG (without a creation timestamp, so reruns give identical files)."""
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise ValueError(f"figures are saved as PNG; got a path ending in {path.suffix!r}: {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", metadata={"Software": None})
    return path


def glue_figure(name: str, fig: plt.Figure) -> None:
    """Show ``fig`` and record it under ``name`` for a numbered ``{glue:figure}`` in the book.

    The figure is displayed once (the notebook's reader sees it under the code that drew it) and
    closed, so the inline backend does not show it a second time. The book hides the code cell's
    output (tag ``remove-output``) and shows the figure where its caption is::

        ```{glue:figure} fig-03-size
        :name: fig-03-size

        Test accuracy against the share of SCAN used for training.
        ```

    and the text refers to it as ``{numref}`fig-03-size```.
    """
    if not name.strip():
        raise ValueError("glue_figure: name must be a non-empty string (the figure's label)")
    if not isinstance(fig, plt.Figure):
        raise TypeError(f"glue_figure: fig must be a matplotlib Figure, got {type(fig).__name__}")
    from myst_nb import glue  # the book's extra: only chapters call this

    glue(name, fig, display=True)
    plt.close(fig)


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
