"""ORCHARD's seeded generator: random trees, COPY, the six variants and the depth bins.

The rules of the release's ``generate_tree.py`` (https://github.com/billptw/Orchard), which the
paper (Pung & Chan 2021, the dataset's description) summarises:

- the root (depth 0) is an operator, drawn uniformly from the variant's two operators;
- each of an operator's two children is independently an operator with probability 0.5, else a
  *value node* of one or two digits (each count with probability 0.5, each digit uniform 0-9);
- an operator at depth ``max_depth - 1`` gets a single value child instead, so no node lies
  deeper than ``max_depth``; a tree's depth is its deepest node's;
- in the second tree each value node becomes ``[COPY k ]`` with probability ``copy_prob``, with
  ``k`` uniform over the first tree's items in level order (see :mod:`.language`);
- the label is ``v1,v2``, the values of the two trees.

The release's training, validation and in-distribution test sets use ``max_depth = 6`` and keep a
pair when both trees have depth 3 to 6, capping each depth's count at a quarter of the set, so the
depths come in equal proportions; its test bin ``test{d}`` (d = 3 ... 12) uses ``max_depth = d``
and keeps a pair when both trees have depth exactly ``d``. The release draws trees until enough
are kept (rejection sampling); we draw each tree directly *conditioned on its depth*, which gives
the same distribution over trees of that depth without discarding any (see :class:`_Sampler`), and
costs time in proportion to the tree's size.

Variants (the paper's six datasets): operators ``minmax`` (MIN, MAX) or ``firstlast`` (FIRST,
LAST) times ``easy`` / ``medium`` / ``hard`` (``copy_prob`` 0, 0.5, 1), named e.g.
``"minmax_hard"``; :func:`variant` looks one up.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from functools import cache

OPERATOR_SETS = {"minmax": ("MIN", "MAX"), "firstlast": ("FIRST", "LAST")}
DIFFICULTIES = {"easy": 0.0, "medium": 0.5, "hard": 1.0}
TRAIN_DEPTHS = (3, 6)  # train, valid and test: both trees of depth 3 to 6, balanced
TEST_DEPTHS = tuple(range(3, 13))  # test3 ... test12: both trees of depth exactly d
MAX_SUPPORTED_DEPTH = 100  # the sampler recurses once per level

Pair = tuple[str, str]  # (input line, label "v1,v2")


@dataclass(frozen=True)
class Variant:
    """One of the paper's six datasets: an operator set and a COPY probability."""

    name: str
    operators: str
    copy_prob: float


VARIANTS = {f"{ops}_{level}": Variant(f"{ops}_{level}", ops, prob)
            for ops in OPERATOR_SETS for level, prob in DIFFICULTIES.items()}


def variant_names() -> list[str]:
    """The six variant names: ``minmax_easy``, ..., ``firstlast_hard``.

    Returns
    -------
    list of str
        The ``minmax`` variants, then the ``firstlast`` ones, each as ``easy``, ``medium``,
        ``hard``.
    """
    return list(VARIANTS)


def variant(name: str) -> Variant:
    """A variant by name, e.g. ``variant("firstlast_medium")``.

    Parameters
    ----------
    name : str
        One of :func:`variant_names`.

    Returns
    -------
    Variant
        Its name, operator set (``"minmax"`` or ``"firstlast"``) and COPY probability.
    """
    if name not in VARIANTS:
        raise ValueError(f"unknown ORCHARD variant {name!r}; the variants are "
                         f"{', '.join(VARIANTS)}")
    return VARIANTS[name]


def part_names() -> list[str]:
    """The release's parts: ``train``, ``valid``, ``test`` and ``test3`` ... ``test12``.

    Returns
    -------
    list of str
        The 13 part names, in that order.
    """
    return ["train", "valid", "test", *[f"test{d}" for d in TEST_DEPTHS]]


def part_depths(part: str) -> tuple[int, int]:
    """``(min_depth, max_depth)`` of a part: (3, 6) for train/valid/test, (d, d) for test{d}.

    Parameters
    ----------
    part : str
        One of :func:`part_names`.

    Returns
    -------
    tuple of (int, int)
        The smallest and the largest depth of either tree; the largest is also the generator's
        depth limit.
    """
    if part in ("train", "valid", "test"):
        return TRAIN_DEPTHS
    if part.startswith("test") and part[4:].isdigit() and int(part[4:]) in TEST_DEPTHS:
        return int(part[4:]), int(part[4:])
    raise ValueError(f"unknown ORCHARD part {part!r}; the parts are {', '.join(part_names())}")


# ---------------------------------------------------------------------------------------------
# Sampling a tree conditioned on its depth


@cache
def _tables(max_depth: int) -> tuple[list[list[float]], list[list[float]], list[list[float]]]:
    """Probabilities that steer the sampler to a tree of a given depth.

    ``F[h][k]`` is the probability that an operator at depth ``h`` has no node below depth ``k``;
    for a child slot at depth ``c`` it is ``G(c, k) = 0.5 [c <= k] + 0.5 F[c][k]`` (a value node
    or an operator), and an operator with two children has ``F[h][k] = G(h+1, k)^2``. Returned:
    ``at_most[c][k]``, the probability that the child at depth ``c`` is an operator given that its
    subtree ends by depth ``k``; ``exactly[c][d]``, the same given that it ends exactly at depth
    ``d``; ``left_first[h][d]``, given an operator at depth ``h`` whose subtree ends exactly at
    ``d``, the probability that its left child reaches ``d`` (the right one then reaches *at most*
    ``d``; otherwise the left ends above ``d`` and the right reaches ``d``).
    """
    top = max_depth
    f = [[0.0] * (top + 1) for _ in range(top)]
    f[top - 1] = [1.0 if k >= top else 0.0 for k in range(top + 1)]
    for h in range(top - 2, -1, -1):
        for k in range(top + 1):
            f[h][k] = (0.5 * (h + 1 <= k) + 0.5 * f[h + 1][k]) ** 2

    def g(c: int, k: int) -> float:
        return 0.5 * (c <= k) + 0.5 * f[c][k] if k >= 0 else 0.0

    at_most = [[0.0] * (top + 1) for _ in range(top)]
    exactly = [[0.0] * (top + 1) for _ in range(top)]
    left_first = [[1.0] * (top + 1) for _ in range(top)]
    for c in range(1, top):
        for k in range(top + 1):
            if g(c, k) > 0:
                at_most[c][k] = 0.5 * f[c][k] / g(c, k)
            reach = f[c][k] - (f[c][k - 1] if k > 0 else 0.0)  # operator ends exactly at k
            if (c == k) + reach > 0:
                exactly[c][k] = reach / ((c == k) + reach)
    for h in range(top - 1):
        for d in range(1, top + 1):
            total = g(h + 1, d) + g(h + 1, d - 1)
            if total > 0:
                left_first[h][d] = g(h + 1, d) / total
    return at_most, exactly, left_first


class _Sampler:
    """Draws (first tree, second tree) token lists and values with the release's rules.

    A tree whose depth must be exactly ``d`` is built top down: an operator at depth ``h`` that must
    reach ``d`` chooses which child reaches ``d`` with the probability that child does so under the
    release's process (``left_first``), then draws each child from the release's process
    conditioned on its own constraint ("ends exactly at ``d``" or "ends by depth ``k``"). Each
    conditional is exact, so the tree has the release's distribution given its depth: the same as
    drawing unconditioned trees and keeping those of depth ``d``, without the rejections. (With a
    depth limit of ``d`` a tree reaches depth ``d`` with probability 0.61 for d = 3 and 0.24 for
    d = 12, so the release keeps one pair in 2.7 and one in 17; a tree of the training range,
    depth 5 with a limit of 6, has probability 0.05.)
    """

    def __init__(self, operators: str, copy_prob: float, max_depth: int, rng: random.Random):
        self.names = tuple("[" + name for name in OPERATOR_SETS[operators])
        self.positional = operators == "firstlast"
        self.copy_prob = copy_prob
        self.max_depth = max_depth
        self.at_most, self.exactly, self.left_first = _tables(max_depth)
        self.random = rng.random
        self.tokens: list[str] = []  # of the tree being drawn
        self.levels: list[list[int]] | None = None  # item values by depth, first tree only
        self.reference: list[int] = []  # the first tree's item values in level order

    def pair(self, first_depth: int, second_depth: int) -> tuple[list[str], list[str], int, int]:
        """Tokens of both trees and their values."""
        self.tokens = []
        self.levels = [[] for _ in range(self.max_depth + 1)]
        first_value = self._operator(0, first_depth, True)
        first = self.tokens
        self.reference = [v for level in self.levels for v in level]
        self.levels = None
        self.tokens = []
        second_value = self._operator(0, second_depth, True)
        return first, self.tokens, first_value, second_value

    def _operator(self, h: int, bound: int, exact: bool) -> int:
        rand = self.random
        positional = self.positional
        name = self.names[rand() < 0.5]
        self.tokens.append(name)
        levels = self.levels
        if levels is not None:
            # Drawing left to right visits each level's items in level order, so appending
            # per level builds the level order; an operator's value is filled in below.
            slot = len(levels[h])
            levels[h].append(0)
        values: list[int] = []
        if h == self.max_depth - 1:  # the release's depth limit: a single value child
            self._leaf(h + 1, values)
        else:
            if not exact:
                children = ((bound, False), (bound, False))
            elif rand() < self.left_first[h][bound]:
                children = ((bound, True), (bound, False))
            else:
                children = ((bound - 1, False), (bound, True))
            for child_bound, child_exact in children:
                table = self.exactly if child_exact else self.at_most
                if rand() < table[h + 1][child_bound]:
                    values.append(self._operator(h + 1, child_bound, child_exact))
                else:
                    self._leaf(h + 1, values)
        self.tokens.append("]")
        if positional:
            result = values[0] if name == "[FIRST" else values[-1]
        else:
            result = min(values) if name == "[MIN" else max(values)
        if levels is not None:
            levels[h][slot] = result
        return result

    def _leaf(self, depth: int, values: list[int]) -> None:
        rand = self.random
        if self.levels is None and self.copy_prob and rand() < self.copy_prob:
            k = int(rand() * len(self.reference))
            self.tokens += ("[COPY", str(k), "]")
            values.append(self.reference[k])
            return
        for _ in range(1 if rand() < 0.5 else 2):
            digit = int(rand() * 10)  # uniform to within 2**-50, and faster than randrange
            self.tokens.append(str(digit))
            values.append(digit)
            if self.levels is not None:
                self.levels[depth].append(digit)


# ---------------------------------------------------------------------------------------------
# Data sets


def _check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low \
            or (high is not None and value > high):
        span = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be an integer {span}, got {value!r}")
    return value


def balanced_depths(num_examples: int, min_depth: int, max_depth: int,
                    rng: random.Random) -> list[int]:
    """``num_examples`` depths from ``min_depth`` to ``max_depth`` in equal proportions (counts
    differ by at most one), in random order.

    Parameters
    ----------
    num_examples : int
        How many depths, at least 0.
    min_depth, max_depth : int
        The range of depths, both included, with ``min_depth <= max_depth``.
    rng : random.Random
        The random generator; which depths get the extra ones, and the order, are drawn from it.

    Returns
    -------
    list of int
        The depths, shuffled.
    """
    _check_int("num_examples", num_examples, 0, None)
    _check_int("min_depth", min_depth, 1, None)
    if max_depth < min_depth:
        raise ValueError(f"min_depth ({min_depth}) must be at most max_depth ({max_depth})")
    depths = list(range(min_depth, max_depth + 1))
    out = depths * (num_examples // len(depths)) + rng.sample(depths, num_examples % len(depths))
    rng.shuffle(out)
    return out


def generate(num_examples: int, *, operators: str = "minmax", copy_prob: float = 0.0,
             min_depth: int = 3, max_depth: int = 6, seed: int = 0) -> list[Pair]:
    """ORCHARD examples ``(input, label)``, with the release's rules.

    Both trees are drawn as the release draws them with ``max_depth`` as its depth limit,
    conditioned on their depths, which lie in ``[min_depth, max_depth]`` in equal proportions for
    each tree separately (the two trees' depths are drawn independently).

    Parameters
    ----------
    num_examples : int
        How many examples.
    operators : {"minmax", "firstlast"}
        The variant's operator pair.
    copy_prob : float
        Probability that a value node of the second tree is a COPY (0, 0.5, 1 in the paper).
    min_depth, max_depth : int
        The depth range; ``max_depth`` is also the generator's depth limit, so ``(3, 6)`` gives
        the release's training set and ``(d, d)`` its test bin ``test{d}``.
    seed : int
        Seed of the generator: the same arguments give the same examples.

    Returns
    -------
    list of (str, str)
        Input lines (``[MAX 2 4 ... ] X [MIN ... ]``) and their labels (``"8,7"``).

    Examples
    --------
    >>> pairs = generate(2, operators="firstlast", copy_prob=1.0, min_depth=3, max_depth=3)
    >>> len(pairs), pairs[0][1].count(",")
    (2, 1)
    """
    _check_int("num_examples", num_examples, 0)
    if operators not in OPERATOR_SETS:
        raise ValueError(f"operators must be one of {', '.join(OPERATOR_SETS)}, got "
                         f"{operators!r}")
    if isinstance(copy_prob, bool) or not isinstance(copy_prob, (int, float)) \
            or not 0.0 <= copy_prob <= 1.0:
        raise ValueError(f"copy_prob must be a probability between 0 and 1, got {copy_prob!r}")
    _check_int("min_depth", min_depth, 1, MAX_SUPPORTED_DEPTH)
    _check_int("max_depth", max_depth, min_depth, MAX_SUPPORTED_DEPTH)
    _check_int("seed", seed, 0)
    rng = random.Random(seed)
    first_depths = balanced_depths(num_examples, min_depth, max_depth, rng)
    second_depths = balanced_depths(num_examples, min_depth, max_depth, rng)
    sampler = _Sampler(operators, float(copy_prob), max_depth, rng)
    out: list[Pair] = []
    for d1, d2 in zip(first_depths, second_depths, strict=True):
        first, second, v1, v2 = sampler.pair(d1, d2)
        out.append((" ".join(first) + " X " + " ".join(second), f"{v1},{v2}"))
    return out


def part_seed(seed: int, variant_name: str, part: str) -> int:
    """The seed of one part of one variant, derived from ``seed`` so that the parts are
    independent draws and each can be regenerated alone.

    Parameters
    ----------
    seed : int
        The seed of the whole export.
    variant_name : str
        The variant's name, e.g. ``"minmax_hard"``.
    part : str
        The part's name, e.g. ``"test12"``.

    Returns
    -------
    int
        A seed from 0 to ``2**64 - 1``: the first 8 bytes of the SHA-256 digest of the three.
    """
    digest = hashlib.sha256(f"orchard/{seed}/{variant_name}/{part}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def generate_part(variant_name: str, part: str, num_examples: int, seed: int = 0,
                  depths: tuple[int, int] | None = None) -> list[Pair]:
    """One part (``train``, ``valid``, ``test``, ``test3`` ... ``test12``) of a variant.

    Parameters
    ----------
    variant_name : str
        One of :func:`variant_names`.
    part : str
        One of :func:`part_names`; it sets the depth range (:func:`part_depths`).
    num_examples : int
        How many examples, at least 0.
    seed : int
        A non-negative seed, from which the part's own seed is derived (:func:`part_seed`).
    depths : (int, int), optional
        Another depth range for ``train``, ``valid`` or ``test`` (the release's: 3 to 6), for a
        reduction trained on shallower trees; the part's seed then also depends on it. A depth
        bin ``test{d}`` keeps its depth.

    Returns
    -------
    list of (str, str)
        Input lines and their labels (``"v1,v2"``).

    Examples
    --------
    >>> len(generate_part("minmax_medium", "test12", 3))
    3
    >>> shallow = generate_part("minmax_medium", "train", 2, depths=(3, 4))
    >>> len(shallow), shallow == generate_part("minmax_medium", "train", 2)
    (2, False)
    """
    spec = variant(variant_name)
    min_depth, max_depth = part_depths(part)
    if depths is not None and tuple(depths) != TRAIN_DEPTHS:
        if (min_depth, max_depth) != TRAIN_DEPTHS:
            raise ValueError(f"depths apply to the parts train, valid and test, not {part!r} "
                             f"(a depth bin keeps its depth)")
        min_depth, max_depth = depths
        _check_int("min_depth", min_depth, 1, MAX_SUPPORTED_DEPTH)
        _check_int("max_depth", max_depth, min_depth, MAX_SUPPORTED_DEPTH)
        part = f"{part}{min_depth}-{max_depth}"
    return generate(num_examples, operators=spec.operators, copy_prob=spec.copy_prob,
                    min_depth=min_depth, max_depth=max_depth,
                    seed=part_seed(_check_int("seed", seed, 0), variant_name, part))
