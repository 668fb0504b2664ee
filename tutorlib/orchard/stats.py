"""Statistics of ORCHARD data for the chapter: input lengths by depth, depths, COPY rate.

The figures the release's ``stats-{part}.txt`` reports (tree lengths, depths, how many second
trees hold a COPY), computed from (input, label) pairs, plus the input length in tokens by depth
bin, which is what a sequence model sees: it grows quickly with depth (a depth-12 input runs to
hundreds of tokens).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from tutorlib.orchard.generator import TEST_DEPTHS, Pair, generate_part, part_depths
from tutorlib.orchard.language import Copy, Digit, Operator, depth, parse, tokenize


@dataclass(frozen=True)
class LengthStats:
    """Input lengths (tokens, ``X`` included) of one part of a variant."""

    part: str
    min_depth: int
    max_depth: int
    num_examples: int
    mean: float
    std: float
    median: float
    p95: float
    maximum: int
    mean_first: float  # tokens of the first tree alone
    mean_second: float


def input_lengths(pairs: list[Pair]) -> np.ndarray:
    """The number of tokens of each input.

    Parameters
    ----------
    pairs : list of (str, str)
        (input line, label) pairs.

    Returns
    -------
    numpy.ndarray
        One int64 token count per input (``X`` included), in the order of ``pairs``.
    """
    return np.array([len(tokenize(line)) for line, _ in pairs], dtype=np.int64)


def tree_depths(line: str) -> tuple[int, int]:
    """The depths of an input's two trees.

    Parameters
    ----------
    line : str
        An input: two trees separated by ``X``.

    Returns
    -------
    tuple of (int, int)
        The depth of the first and of the second tree (see :func:`~.language.depth`).
    """
    first, second = parse(line)
    return depth(first), depth(second)


def depth_counts(pairs: list[Pair]) -> tuple[Counter, Counter]:
    """How many first trees, and how many second trees, have each depth.

    Parameters
    ----------
    pairs : list of (str, str)
        (input line, label) pairs.

    Returns
    -------
    tuple of (Counter, Counter)
        Depth to number of inputs, for the first trees and for the second trees.
    """
    depths = [tree_depths(line) for line, _ in pairs]
    return Counter(d for d, _ in depths), Counter(d for _, d in depths)


def length_stats(pairs: list[Pair], part: str = "") -> LengthStats:
    """Summary of the input lengths of ``pairs`` (``part`` names them, e.g. ``"test12"``).

    Parameters
    ----------
    pairs : list of (str, str)
        (input line, label) pairs; at least one.
    part : str
        One of :func:`~.generator.part_names`, which sets the depth range; if empty (the
        default), the depth range is (0, 0).

    Returns
    -------
    LengthStats
        The part, its depth range, the number of examples, the mean, standard deviation
        (population), median, 95th percentile and maximum of the input lengths in tokens, and
        the mean length of each tree.
    """
    if not pairs:
        raise ValueError("length_stats needs at least one example")
    lengths = input_lengths(pairs)
    firsts = np.array([line.split(" X ", 1)[0].count(" ") + 1 for line, _ in pairs])
    min_depth, max_depth = part_depths(part) if part else (0, 0)
    return LengthStats(part=part, min_depth=min_depth, max_depth=max_depth,
                       num_examples=len(pairs), mean=float(lengths.mean()),
                       std=float(lengths.std()), median=float(np.median(lengths)),
                       p95=float(np.percentile(lengths, 95)), maximum=int(lengths.max()),
                       mean_first=float(firsts.mean()),
                       mean_second=float(lengths.mean() - firsts.mean() - 1))


def lengths_by_depth(variant_name: str, num_examples: int = 1000, seed: int = 0,
                     parts: list[str] | None = None) -> list[LengthStats]:
    """Input lengths of freshly generated parts of a variant: ``train`` and ``test3`` ...
    ``test12`` by default, ``num_examples`` each. Ready to plot against depth.

    Parameters
    ----------
    variant_name : str
        One of :func:`~.generator.variant_names`.
    num_examples : int
        Examples generated per part.
    seed : int
        Seed passed on to :func:`~.generator.generate_part`.
    parts : list of str, optional
        The parts to generate, from :func:`~.generator.part_names`.

    Returns
    -------
    list of LengthStats
        One per part, in the order of ``parts``.

    Examples
    --------
    >>> rows = lengths_by_depth("minmax_hard", num_examples=50, parts=["test3", "test12"])
    >>> rows[0].mean < rows[1].mean
    True
    """
    chosen = parts if parts is not None else ["train", *[f"test{d}" for d in TEST_DEPTHS]]
    return [length_stats(generate_part(variant_name, part, num_examples, seed), part)
            for part in chosen]


def value_slots(tree: Operator, max_depth: int) -> int:
    """How many value nodes (digit groups or COPYs) ``tree`` has, counted from its shape.

    The text does not show where one value node ends and the next begins (``4 9`` may be one node
    or two), but the generator's rule fixes their number: an operator above depth
    ``max_depth - 1`` has two children and one at ``max_depth - 1`` has one, so the value nodes
    are the children that are not operators.

    Parameters
    ----------
    tree : Operator
        A tree drawn by the generator, usually a second tree.
    max_depth : int
        The depth limit it was generated with.

    Returns
    -------
    int
        The number of value nodes.
    """
    slots = 0
    operators = 0
    stack: list[tuple[Operator, int]] = [(tree, 0)]
    while stack:
        node, level = stack.pop()
        operators += 1
        slots += 1 if level == max_depth - 1 else 2
        stack.extend((a, level + 1) for a in node.arguments if isinstance(a, Operator))
    return slots - (operators - 1)


def copy_rate(pairs: list[Pair], max_depth: int) -> float:
    """The fraction of the second trees' value nodes that are COPYs (``copy_prob`` in
    expectation), for pairs generated with depth limit ``max_depth``.

    Parameters
    ----------
    pairs : list of (str, str)
        (input line, label) pairs from the generator.
    max_depth : int
        Their depth limit: 6 for ``train``, ``valid`` and ``test``, ``d`` for ``test{d}``.

    Returns
    -------
    float
        From 0 to 1; 0.0 when the second trees have no value nodes.
    """
    copies = slots = 0
    for line, _ in pairs:
        second = parse(line)[1]
        slots += value_slots(second, max_depth)
        stack: list[Operator | Digit | Copy] = [second]
        while stack:
            node = stack.pop()
            if isinstance(node, Copy):
                copies += 1
            elif isinstance(node, Operator):
                stack.extend(node.arguments)
    return copies / slots if slots else 0.0


def has_copy_fraction(pairs: list[Pair]) -> float:
    """The fraction of inputs whose second tree holds at least one COPY (the release's
    "percentage of trees with copy operator", as a fraction).

    Parameters
    ----------
    pairs : list of (str, str)
        (input line, label) pairs.

    Returns
    -------
    float
        From 0 to 1; 0.0 when ``pairs`` is empty.
    """
    return sum("[COPY" in line for line, _ in pairs) / len(pairs) if pairs else 0.0
