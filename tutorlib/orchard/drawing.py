"""Draw an ORCHARD input: its two trees side by side, with COPY arrows (the paper's Fig. 1).

Operators are boxes labelled with their name (and, by default, their value); digits and COPYs are
leaves. The first tree's items carry their level-order index in small grey type, and each
``[COPY k ]`` of the second tree has an arrow to item ``k`` of the first tree.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch

from tutorlib.colours import PALETTE, TINTS
from tutorlib.orchard.language import Copy, Digit, Item, Operator, depth, item_values, level_order
from tutorlib.orchard.language import parse as parse_input
from tutorlib.orchard.language import value as value_of
from tutorlib.orchard.stats import LengthStats

_OPERATOR_STYLE = {"boxstyle": "round,pad=0.3", "fc": TINTS[PALETTE[0]], "ec": PALETTE[0]}
_DIGIT_STYLE = {"boxstyle": "circle,pad=0.25", "fc": "white", "ec": "0.4"}
_COPY_STYLE = {"boxstyle": "round,pad=0.3", "fc": TINTS[PALETTE[1]], "ec": PALETTE[1]}


def _label(node: Item, reference: list[int] | None, values: bool) -> tuple[str, dict]:
    if isinstance(node, Digit):
        return str(node.value), _DIGIT_STYLE
    if isinstance(node, Copy):
        return f"COPY {node.index}", _COPY_STYLE
    text = f"{node.name} = {value_of(node, reference)}" if values else node.name
    return text, _OPERATOR_STYLE


def _layout(tree: Operator, x0: float, width_of) -> tuple[dict[int, tuple[float, float]], float]:
    """x, y of every node (keyed by ``id``), one unit down per level, and the total width.

    Each subtree gets a strip as wide as its own label or as its children's strips side by side,
    whichever is wider, and each node sits above the middle of its children, so that labels
    never overlap."""
    extent: dict[int, float] = {}

    def measure(node: Item) -> float:
        own = width_of(node)
        if isinstance(node, Operator):
            own = max(own, sum(measure(a) for a in node.arguments))
        extent[id(node)] = own
        return own

    where: dict[int, tuple[float, float]] = {}

    def place(node: Item, left: float, level: int) -> None:
        span = extent[id(node)]
        if isinstance(node, Operator):
            inner = sum(extent[id(a)] for a in node.arguments)
            x = left + (span - inner) / 2
            for child in node.arguments:
                place(child, x, level + 1)
                x += extent[id(child)]
            first, last = where[id(node.arguments[0])][0], where[id(node.arguments[-1])][0]
            where[id(node)] = ((first + last) / 2, -float(level))
        else:
            where[id(node)] = (left + span / 2, -float(level))

    measure(tree)
    place(tree, x0, 0)
    return where, extent[id(tree)]


def draw(line: str, ax=None, *, values: bool = True, indices: bool = True, arrows: bool = True,
         title: str | None = None, fontsize: int = 9):
    """Draw the two trees of an input line, with COPY arrows into the first tree.

    Parameters
    ----------
    line : str
        An ORCHARD input (checked with :func:`~tutorlib.orchard.parse`).
    ax : matplotlib Axes, optional
        Where to draw; a new figure sized to the trees otherwise.
    values : bool
        Label each operator with its value (``MAX = 8``).
    indices : bool
        Write each first-tree item's level-order index beside it (what COPY refers to).
    arrows : bool
        Draw an arrow from each COPY to the item it copies.

    Returns
    -------
    matplotlib Axes
    """
    first, second = parse_input(line)
    reference = item_values(first)
    unit = 0.42  # inches per leaf unit in a figure made here

    def layouts(size: float):
        def width_of(node: Item) -> float:  # in leaf units: a digit is 1
            text = _label(node, reference, values)[0]
            return 1.0 if isinstance(node, Digit) else (0.19 * len(text) + 0.5) * size / 9

        first_xy, first_width = _layout(first, 0.0, width_of)
        second_xy, second_width = _layout(second, first_width + 1.5, width_of)
        return first_xy, second_xy, first_width, first_width + 1.5 + second_width, width_of

    first_xy, second_xy, first_width, total, width_of = layouts(fontsize)
    if ax is None:
        if unit * total > 24.0:  # the widest figure we make: shrink the labels to fit
            fontsize = max(4, int(fontsize * 24.0 / (unit * total)))
            first_xy, second_xy, first_width, total, width_of = layouts(fontsize)
        tallest = max(depth(first), depth(second))
        fig, ax = plt.subplots(figsize=(max(4.0, unit * total), 1.0 + 0.7 * tallest))
        fig.subplots_adjust(left=0.01, right=0.99, bottom=0.01, top=0.9 if title else 0.99)

    for tree, where, ref in ((first, first_xy, None), (second, second_xy, reference)):
        for node in level_order(tree):
            x, y = where[id(node)]
            if isinstance(node, Operator):
                for child in node.arguments:
                    cx, cy = where[id(child)]
                    ax.plot([x, cx], [y, cy], color="0.6", lw=1.0, zorder=1)
            text, style = _label(node, ref, values)
            ax.text(x, y, text, ha="center", va="center", fontsize=fontsize, zorder=3,
                    bbox=style)
    if indices:
        for k, node in enumerate(level_order(first)):
            x, y = first_xy[id(node)]
            ax.text(x - 0.5 * width_of(node) + 0.15, y + 0.22, str(k), ha="right",
                    va="bottom", fontsize=max(4, fontsize - 2), color="0.45", zorder=4)
    top = 0.6
    if arrows:
        items = level_order(first)
        for node in level_order(second):
            if isinstance(node, Copy):
                # From the top of the COPY to the top of its item, bending upwards.
                (x1, y1), (x2, y2) = second_xy[id(node)], first_xy[id(items[node.index])]
                ax.add_patch(FancyArrowPatch((x1, y1 + 0.25), (x2, y2 + 0.25), arrowstyle="-|>",
                                             mutation_scale=12, connectionstyle="arc3,rad=0.3",
                                             color=PALETTE[1], lw=1.2, alpha=0.85, zorder=4,
                                             shrinkA=1, shrinkB=1))
                # A quadratic Bezier bends half as far as its control point (0.3 x length).
                top = max(top, max(y1, y2) + 0.25 + 0.15 * abs(x1 - x2) + 0.2)
    bottom = min(y for _, y in (*first_xy.values(), *second_xy.values()))
    ax.axvline(first_width + 0.75, color="0.8", lw=1.0, ls="--", zorder=0)
    ax.text(first_width + 0.75, bottom - 0.1, "X", ha="center", va="top", fontsize=fontsize + 1,
            color="0.4", bbox={"fc": "white", "ec": "none"})
    ax.set_xlim(0.0, total)
    ax.set_ylim(bottom - 0.6, top)
    ax.set_axis_off()
    if title:
        ax.set_title(title)
    return ax


def plot_lengths_by_depth(rows: list[LengthStats], ax=None, *, title: str | None = None):
    """Input length against tree depth, from :func:`~tutorlib.orchard.lengths_by_depth`.

    One point per test bin (mean, with a bar from the median to the 95th percentile and a cross
    at the longest input); a ``train`` row, if present, is drawn as a band over its depth range.

    Returns
    -------
    matplotlib Axes
    """
    if not rows or not all(hasattr(r, "min_depth") for r in rows):
        raise ValueError("plot_lengths_by_depth needs the rows of lengths_by_depth(), got "
                         f"{'none' if not rows else type(rows[0]).__name__}")
    if ax is None:
        _, ax = plt.subplots()
    bins = [r for r in rows if r.min_depth == r.max_depth and r.min_depth > 0]
    depths = [r.min_depth for r in bins]
    ax.plot(depths, [r.mean for r in bins], "o-", color=PALETTE[0], label="mean")
    ax.vlines(depths, [r.median for r in bins], [r.p95 for r in bins], color=PALETTE[0],
              alpha=0.5, lw=3, label="median to 95th percentile")
    ax.plot(depths, [r.maximum for r in bins], "x", color=PALETTE[3], label="longest")
    for r in rows:
        if r.min_depth < r.max_depth:
            ax.axvspan(r.min_depth - 0.3, r.max_depth + 0.3, color=PALETTE[2], alpha=0.12,
                       label=f"{r.part} (mean {r.mean:.0f} tokens)")
    ax.set_xlabel("depth of both trees")
    ax.set_ylabel("input length (tokens)")
    ax.set_xticks(depths)
    ax.legend()
    if title:
        ax.set_title(title)
    return ax
