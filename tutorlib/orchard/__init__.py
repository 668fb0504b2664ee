"""ORCHARD (Pung & Chan 2021): reasoning over two cross-referencing trees, by depth.

:mod:`.language` the two-tree language: parsing, level order, :func:`evaluate`;
:mod:`.generator` the release's tree generator, the six variants and the depth bins;
:mod:`.files` the release's file layout (:func:`export`, :func:`read_part`);
:mod:`.stats` input lengths and depths by bin; :mod:`.drawing` the two trees with COPY arrows.
"""

from tutorlib.orchard.generator import (DIFFICULTIES, OPERATOR_SETS, TEST_DEPTHS, TRAIN_DEPTHS,
                                        VARIANTS, Variant, balanced_depths, generate,
                                        generate_part, part_depths, part_names, part_seed, variant,
                                        variant_names)
from tutorlib.orchard.language import (OPERATORS, Copy, Digit, Operator, depth, evaluate,
                                       format_label, format_tree, item_values, level_order,
                                       num_items, parse, parse_label, parse_tree, tokenize, value)
from tutorlib.orchard.files import (PAPER_SIZE, RELEASE_SIZE, export, export_all, read_export,
                                    read_part, sizes, write_part)
from tutorlib.orchard.stats import (LengthStats, copy_rate, depth_counts, has_copy_fraction,
                                    input_lengths, length_stats, lengths_by_depth, tree_depths,
                                    value_slots)


def draw(line: str, ax=None, **kwargs):
    """Draw an input's two trees with COPY arrows (see :func:`tutorlib.orchard.drawing.draw`);
    imported on first use so that the rest of the package does not need matplotlib."""
    from tutorlib.orchard.drawing import draw as _draw

    return _draw(line, ax, **kwargs)
