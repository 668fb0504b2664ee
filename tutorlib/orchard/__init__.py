"""ORCHARD (Pung & Chan 2021): reasoning over two cross-referencing trees, by depth.

- :mod:`.language`: the two-tree language, its parser, level order and :func:`evaluate`;
- :mod:`.generator`: the release's tree generator conditioned on depth, the six variants
  (:func:`variant`) and the parts with their depth bins (:func:`generate_part`);
- :mod:`.files`: the release's file layout (:func:`export`, :func:`read_part`);
- :mod:`.stats`: input lengths and depths by bin, COPY rate;
- :mod:`.drawing`: the two trees with COPY arrows (:func:`draw`, the paper's Fig. 1).

Examples
--------
>>> from tutorlib import orchard
>>> orchard.evaluate("[MAX 2 4 [MAX 8 [MIN 4 9 ] ] ] X [MAX [MAX 7 0 [MAX 6 7 ] ] 7 ]")
(8, 7)
>>> line, label = orchard.generate_part("firstlast_hard", "test5", 1)[0]
>>> orchard.tree_depths(line), orchard.format_label(orchard.evaluate(line)) == label
((5, 5), True)
"""

from tutorlib.orchard.files import (
    PAPER_SIZE,
    RELEASE_SIZE,
    export,
    export_all,
    read_export,
    read_part,
    sizes,
    write_part,
)
from tutorlib.orchard.generator import (
    DIFFICULTIES,
    OPERATOR_SETS,
    TEST_DEPTHS,
    TRAIN_DEPTHS,
    VARIANTS,
    Variant,
    balanced_depths,
    generate,
    generate_part,
    part_depths,
    part_names,
    part_seed,
    variant,
    variant_names,
)
from tutorlib.orchard.language import (
    OPERATORS,
    Copy,
    Digit,
    Operator,
    depth,
    evaluate,
    format_label,
    format_tree,
    item_values,
    level_order,
    nested,
    num_items,
    parse,
    parse_label,
    parse_tree,
    tokenize,
    value,
)
from tutorlib.orchard.stats import (
    LengthStats,
    copy_rate,
    depth_counts,
    has_copy_fraction,
    input_lengths,
    length_stats,
    lengths_by_depth,
    tree_depths,
    value_slots,
)

__all__ = [
    # language
    "OPERATORS", "Copy", "Digit", "Operator", "depth", "evaluate", "format_label", "format_tree",
    "item_values", "level_order", "nested", "num_items", "parse", "parse_label", "parse_tree", "tokenize",
    "value",
    # generator
    "DIFFICULTIES", "OPERATOR_SETS", "TEST_DEPTHS", "TRAIN_DEPTHS", "VARIANTS", "Variant",
    "balanced_depths", "generate", "generate_part", "part_depths", "part_names", "part_seed",
    "variant", "variant_names",
    # files
    "PAPER_SIZE", "RELEASE_SIZE", "export", "export_all", "read_export", "read_part", "sizes",
    "write_part",
    # stats
    "LengthStats", "copy_rate", "depth_counts", "has_copy_fraction", "input_lengths",
    "length_stats", "lengths_by_depth", "tree_depths", "value_slots",
    # drawing
    "draw",
    "plot_lengths_by_depth",
]


def draw(line: str, ax=None, **kwargs):
    """Draw an input's two trees with COPY arrows: :func:`tutorlib.orchard.drawing.draw`, imported
    on first use so that the rest of the package does not load matplotlib.

    Parameters
    ----------
    line : str
        An ORCHARD input.
    ax : matplotlib Axes, optional
        Where to draw; a new figure sized to the trees otherwise.
    **kwargs
        Passed on: ``values``, ``indices``, ``arrows``, ``title`` and ``fontsize``.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.
    """
    from tutorlib.orchard.drawing import draw as _draw

    return _draw(line, ax, **kwargs)


def plot_lengths_by_depth(rows: list, ax=None, **kwargs):
    """Input length against depth: :func:`tutorlib.orchard.drawing.plot_lengths_by_depth`.

    Parameters
    ----------
    rows : list of LengthStats
        From :func:`lengths_by_depth`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure otherwise.
    **kwargs
        Passed on: ``title``.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.
    """
    from tutorlib.orchard.drawing import plot_lengths_by_depth as _plot

    return _plot(rows, ax, **kwargs)

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__, unchecked=("Digit", "Copy", "Operator"))
