"""Concepts over the coloured digits and the few-shot task (Andreas 2019, Sec. 4).

A concept is one attribute value (*red*) or a conjunction of two values of different
attributes (*3 on a blue background*), see :class:`Concept`; a triplet
(:func:`make_triplets`) shows two positive examples and a query.

Examples
--------
>>> Concept.from_derivation(("3", "bg_blue"))
Concept(parts=(('digit', 3), ('background', 'blue')))
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from tutorlib.checks import check_scalar
from tutorlib.tre.digits import (
    ATTRIBUTE_NAMES,
    ATTRIBUTES,
    IMAGE_SIZE,
    PRIMITIVES,
    as_rng,
    check_value,
    primitive,
    render_indices,
    sample_indices,
    value_indices,
    values_of,
)

# --------------------------------------------------------------------------------------------
# Concepts and the few-shot task
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Concept:
    """A set of images: those with every ``(attribute, value)`` of ``parts``.

    ``parts`` holds one pair, or two pairs of different attributes, in the order of
    :data:`ATTRIBUTES`; the constructor sorts and checks them.
    """

    parts: tuple[tuple[str, Any], ...]

    def __post_init__(self) -> None:
        parts = tuple(self.parts)
        if not 1 <= len(parts) <= 2:
            raise ValueError(f"a concept has one or two parts, got {len(parts)}: {parts!r}")
        checked = []
        for part in parts:
            if not (isinstance(part, tuple) and len(part) == 2):
                raise ValueError(f"a concept part is an (attribute, value) pair, got {part!r}")
            checked.append((part[0], check_value(*part)))
        attributes = [a for a, _ in checked]
        if len(set(attributes)) != len(attributes):
            raise ValueError(f"a conjunction needs two different attributes, got {parts!r}")
        values = dict(checked)
        if "colour" in values and values["colour"] == values.get("background"):
            raise ValueError(f"no image has colour and background both {values['colour']!r}")
        object.__setattr__(self, "parts", tuple(sorted(checked, key=lambda p: ATTRIBUTE_NAMES.index(p[0]))))

    @property
    def derivation(self):
        """``"red"`` for a single value, ``("3", "bg_blue")`` for a conjunction."""
        names = tuple(primitive(a, v) for a, v in self.parts)
        return names[0] if len(names) == 1 else names

    @classmethod
    def from_derivation(cls, derivation: str | tuple) -> Concept:
        """The concept with this derivation (the inverse of :attr:`derivation`)."""
        names = (derivation,) if isinstance(derivation, str) else derivation
        if (not isinstance(names, tuple) or len(names) not in (1, 2)
                or (len(names) == 1 and not isinstance(derivation, str))
                or not all(isinstance(p, str) for p in names)):
            raise ValueError(f"a concept derivation is a primitive or a tuple of two, got "
                             f"{derivation!r}")
        unknown = [p for p in names if p not in PRIMITIVES]
        if unknown:
            raise ValueError(f"unknown primitive {unknown[0]!r} in {derivation!r}")
        return cls(tuple(PRIMITIVES[p] for p in names))

    def holds(self, attributes: Mapping[str, Any]) -> np.ndarray:
        """Whether each row of an attribute table (arrays of values) belongs to the concept."""
        result = None
        for name, value in self.parts:
            match = np.asarray(attributes[name]) == value
            result = match if result is None else result & match
        return result


def all_concepts() -> list[Concept]:
    """Every concept, singles first: 24 single values and 194 conjunctions (218)."""
    return list(_all_concepts())


@functools.lru_cache(maxsize=1)
def _all_concepts() -> tuple[Concept, ...]:
    singles = [Concept(((a, v),)) for a, values in ATTRIBUTES.items() for v in values]
    pairs = [Concept(((a, u), (b, v)))
             for a, b in combinations(ATTRIBUTE_NAMES, 2)
             for u in ATTRIBUTES[a] for v in ATTRIBUTES[b]
             if not (a == "colour" and b == "background" and u == v)]
    return tuple(singles + pairs)


def concept_probabilities() -> np.ndarray:
    """How often :func:`make_triplets` picks each concept of :func:`all_concepts`.

    Half the triplets have a single-value concept, half a conjunction. The attribute (or the
    pair of attributes) is uniform, and so are its values: a colour-background concept is as
    likely as a digit-colour one although there are fewer of them.
    """
    every = _all_concepts()
    kinds = [tuple(attribute for attribute, _ in c.parts) for c in every]
    # How many concepts of each kind; colour-background has 6 x 5, not 6 x 6.
    counts = Counter(kinds)
    singles = sum(len(kind) == 1 for kind in counts)
    pairs = len(counts) - singles
    return np.array([0.5 / (singles if len(kind) == 1 else pairs) / counts[kind] for kind in kinds])


def _concept_table(concepts: Sequence[Concept]) -> np.ndarray:
    """``(len(concepts), 4)`` value indices, -1 for the attributes a concept leaves free."""
    table = np.full((len(concepts), len(ATTRIBUTE_NAMES)), -1)
    for i, concept in enumerate(concepts):
        for name, value in concept.parts:
            table[i, ATTRIBUTE_NAMES.index(name)] = ATTRIBUTES[name].index(value)
    return table


@dataclass
class Triplets:
    """A few-shot data set: two positive examples of a concept and a query, labelled.

    Attributes
    ----------
    examples : numpy.ndarray
        ``(n, 2, 3, 28, 28)`` float32, two images of the concept.
    queries : numpy.ndarray
        ``(n, 3, 28, 28)`` float32.
    labels : numpy.ndarray
        ``(n,)`` int64, 1 if the query belongs to the concept.
    concepts : list of Concept
    example_attributes, query_attributes : dict
        Attribute name -> ``(n, 2)`` and ``(n,)`` arrays of values.
    negatives : {"random", "near_miss"}
        How the negative queries were drawn (see :func:`make_triplets`).
    """

    examples: np.ndarray
    queries: np.ndarray
    labels: np.ndarray
    concepts: list[Concept]
    example_attributes: dict[str, np.ndarray]
    query_attributes: dict[str, np.ndarray]
    negatives: str = "random"

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def derivations(self) -> list:
        """The derivation of each triplet's concept."""
        return [c.derivation for c in self.concepts]


NEGATIVES = ("random", "near_miss")


def make_triplets(n: int, seed: int | Sequence[int] | np.random.Generator = 0,
                  negatives: str = "random") -> Triplets:
    """``n`` seeded few-shot triplets.

    Each triplet picks a concept (see :func:`concept_probabilities`), draws two positive
    examples uniformly among the images of the concept, and a query that is positive with
    probability 1/2.

    Parameters
    ----------
    n : int
        Number of triplets (the paper's sets: 9,000 training, 500 validation).
    seed : int, sequence of ints or numpy Generator
        Anything :func:`numpy.random.default_rng` accepts.
    negatives : {"random", "near_miss"}
        How a negative query is drawn. ``"random"``: uniformly among all images outside the
        concept. ``"near_miss"``: one of the concept's parts, chosen at random, takes another
        value while the other part still holds, so that a conjunction can never be told from
        a non-member by one of its parts alone (a harder task).
    """
    n = check_scalar(n, "n", int, min_val=1)
    if negatives not in NEGATIVES:
        raise ValueError(f"unknown negatives {negatives!r}; expected one of {', '.join(NEGATIVES)}")
    rng = as_rng(seed)
    every = all_concepts()
    which = rng.choice(len(every), size=n, p=concept_probabilities())
    chosen = _concept_table(every)[which]
    examples = sample_indices(2 * n, rng, fixed=np.repeat(chosen, 2, axis=0)).reshape(n, 2, -1)
    labels = (rng.random(n) < 0.5).astype(np.int64)
    negative = labels == 0
    fixed = np.where(negative[:, None], -1, chosen)
    forbidden = np.where(negative[:, None], chosen, -1)
    if negatives == "near_miss":
        for i in np.flatnonzero(negative):
            parts = np.flatnonzero(chosen[i] >= 0)
            broken = parts[rng.integers(parts.size)]
            kept = parts[parts != broken]
            fixed[i, kept], forbidden[i, kept] = chosen[i, kept], -1
    queries = sample_indices(n, rng, fixed=fixed, forbidden=forbidden)
    table = np.concatenate([examples.reshape(2 * n, -1), queries])
    images = render_indices({name: table[:, k] for k, name in enumerate(ATTRIBUTE_NAMES)}, rng)
    return Triplets(examples=images[:2 * n].reshape(n, 2, 3, IMAGE_SIZE, IMAGE_SIZE),
                    queries=images[2 * n:], labels=labels,
                    concepts=[every[i] for i in which],
                    example_attributes=values_of({a: examples[..., k]
                                                  for k, a in enumerate(ATTRIBUTE_NAMES)}),
                    query_attributes=values_of({a: queries[:, k] for k, a in enumerate(ATTRIBUTE_NAMES)}),
                    negatives=negatives)


def ideal_observer_accuracy(data: Triplets) -> float:
    """Accuracy of the Bayes-optimal learner that reads every image's attributes exactly.

    Two examples rarely pin a concept down (two red examples may also share a digit or a
    weight), so even this learner errs; no model can beat it on average. It weighs every
    concept by its probability (:func:`concept_probabilities`) times the chance of drawing the
    two examples from it, and compares the chance of the query as a positive with its chance as
    a negative (``data.negatives`` says how negatives were drawn).
    """
    every = all_concepts()
    sizes = [len(v) for v in ATTRIBUTES.values()]
    # All attribute combinations, as a table of value indices.
    grid = np.stack(np.meshgrid(*[np.arange(k) for k in sizes], indexing="ij"), axis=-1)
    grid = grid.reshape(-1, len(sizes))
    concepts_table = _concept_table(every)
    member = ((grid[None] == concepts_table[:, None]) | (concepts_table[:, None] < 0)).all(axis=2)
    valid = grid[:, ATTRIBUTE_NAMES.index("colour")] != grid[:, ATTRIBUTE_NAMES.index("background")]
    member &= valid[None]
    positive = member / member.sum(axis=1, keepdims=True)
    if data.negatives == "random":
        outside = ~member & valid[None]
        negative = outside / outside.sum(axis=1, keepdims=True)
    else:
        negative = np.zeros(member.shape)
        for k, row in enumerate(concepts_table):
            parts = np.flatnonzero(row >= 0)
            for broken in parts:
                near = valid & (grid[:, broken] != row[broken])
                for kept in parts[parts != broken]:
                    near &= grid[:, kept] == row[kept]
                negative[k] += near / near.sum() / parts.size

    def cell(attributes: Mapping[str, Any]) -> np.ndarray:
        indices = value_indices(attributes)
        return np.ravel_multi_index(tuple(indices[a] for a in ATTRIBUTE_NAMES), sizes)

    first_second = cell(data.example_attributes)
    query = cell(data.query_attributes)
    weight = (concept_probabilities()[:, None] * positive[:, first_second[:, 0]]
              * positive[:, first_second[:, 1]])
    says_positive = (weight * positive[:, query]).sum(0) > (weight * negative[:, query]).sum(0)
    return float((says_positive == (data.labels == 1)).mean())


def make_probe(seed: int | Sequence[int] | np.random.Generator = 0
               ) -> tuple[np.ndarray, list[Concept]]:
    """One pair of example images for every concept of :func:`all_concepts`.

    Returns ``(examples, concepts)`` with ``examples`` of shape ``(218, 2, 3, 28, 28)``.
    """
    rng = as_rng(seed)
    concepts = all_concepts()
    fixed = _concept_table(concepts)
    table = sample_indices(2 * len(concepts), rng, fixed=np.repeat(fixed, 2, axis=0))
    images = render_indices({name: table[:, k] for k, name in enumerate(ATTRIBUTE_NAMES)}, rng)
    return images.reshape(len(concepts), 2, 3, IMAGE_SIZE, IMAGE_SIZE), concepts
