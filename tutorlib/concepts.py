"""Few-shot concept learning on coloured digits (Andreas 2019, Sec. 4 and Appendix A).

Section 4 of Andreas (2019), *Compositionality and learning dynamics*, trains a few-shot
concept learner on a Colour-MNIST task and follows, over training, how compositional its concept
representations are (TRE) and how much information they keep about their input (the
information-bottleneck view of Shwartz-Ziv & Tishby 2017). MNIST cannot be downloaded here, so
this module draws its own digits:

- **Images.** Each image shows a digit ``0``-``9`` in DejaVu Sans (matplotlib's bundled font),
  with a stroke weight (``normal`` or ``bold``), a digit colour and a different background colour
  from one palette of six (:data:`ATTRIBUTES`). Each of the 20 (digit, weight) glyphs is drawn
  once; every image then gets its own small rotation, scale and shift (:func:`render_batch`),
  so no two images of the same attributes are identical.
- **Concepts.** A concept is one attribute value (*red*) or a conjunction of two values of
  different attributes (*3 on a blue background*), see :class:`Concept`. Its derivation is a
  primitive (``"red"``) or a pair of primitives (``("3", "bg_blue")``), in the format of
  :mod:`tutorlib.trees`.
- **Task.** A triplet (:func:`make_triplets`) shows two positive examples of a concept and a
  query image, positive with probability 1/2; the learner says whether the query belongs to the
  concept. Two examples rarely pin a concept down, so even an ideal observer that reads the
  attributes without error is right only about 93% of the time
  (:func:`ideal_observer_accuracy`).
- **Model** (the paper's appendix). A small CNN encodes each image to ``z``; the concept is
  ``theta = tanh(W (z_1 + z_2))`` and the logit of the query is ``theta . z*``
  (:class:`ConceptLearner`).
- **Dynamics.** :func:`train_concepts` trains it and, at regular snapshots, records the
  validation accuracy, the representation ``theta`` of a fixed probe set (every concept once,
  for TRE) and of the validation example pairs (for :func:`binned_mutual_information`).

Where we differ from the paper: our digits are a font, not handwriting; the colours, the
concept distribution (:func:`concept_probabilities`), the negatives (uniform among the
concept's non-members by default, near misses on request) and centring the pixels on 0 are our
choices, because the paper does not spell them out.

Examples
--------
>>> images, attributes = sample_images(4, rng=0)
>>> images.shape, images.dtype
((4, 3, 28, 28), dtype('float32'))
>>> Concept.from_derivation(("3", "bg_blue"))
Concept(parts=(('digit', 3), ('background', 'blue')))
>>> binned_mutual_information([[0.1, 0.2], [0.1, 0.2], [0.5, -0.5]], bins=2) > 0
True
"""

from __future__ import annotations

import functools
import math
import os
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import torch
from torch import nn

from tutorlib import cache
from tutorlib.train import progress_bar, seed_everything

# --------------------------------------------------------------------------------------------
# The images
# --------------------------------------------------------------------------------------------

IMAGE_SIZE = 28

#: RGB values (0-1) of the palette shared by digits and backgrounds.
PALETTE: dict[str, tuple[float, float, float]] = {
    "red": (0.86, 0.12, 0.12),
    "orange": (0.98, 0.55, 0.08),
    "yellow": (0.97, 0.90, 0.15),
    "green": (0.15, 0.68, 0.22),
    "blue": (0.15, 0.32, 0.92),
    "purple": (0.56, 0.20, 0.76),
}

#: Every attribute and its values, in a fixed order (the order derivations use).
ATTRIBUTES: dict[str, tuple] = {
    "digit": tuple(range(10)),
    "colour": tuple(PALETTE),
    "background": tuple(PALETTE),
    "weight": ("normal", "bold"),
}

#: Largest rotation (degrees), scale range and largest shift (pixels) of the per-image jitter.
MAX_ROTATION = 12.0
SCALE_RANGE = (0.85, 1.10)
MAX_SHIFT = 2.0

_NAMES = tuple(ATTRIBUTES)
_SUPERSAMPLE = 4  # glyphs are drawn at 4x resolution and filtered down when sampled
_GLYPH_HEIGHT = 0.64  # digit height as a fraction of the image (MNIST's are about 20/28)


def _check_value(attribute: str, value: Any) -> Any:
    if attribute not in ATTRIBUTES:
        raise ValueError(f"unknown attribute {attribute!r}; expected one of "
                         f"{', '.join(ATTRIBUTES)}")
    values = ATTRIBUTES[attribute]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool) or value not in values:
        raise ValueError(f"unknown {attribute} {value!r}; expected one of "
                         f"{', '.join(map(str, values))}")
    return values[values.index(value)]  # the canonical value: 3, not 3.0


def primitive(attribute: str, value: Any) -> str:
    """The primitive naming ``attribute = value``: ``"3"``, ``"red"``, ``"bg_red"``, ``"bold"``."""
    value = _check_value(attribute, value)
    # Colours name both the digit and the background, so background primitives get a prefix.
    return f"bg_{value}" if attribute == "background" else str(value)


#: Primitive name -> (attribute, value), for every attribute value.
PRIMITIVES: dict[str, tuple[str, Any]] = {
    primitive(a, v): (a, v) for a, values in ATTRIBUTES.items() for v in values}


def _draw_glyph(digit: int, weight: str) -> np.ndarray:
    """The coverage mask (0-1) of one glyph, at ``_SUPERSAMPLE`` times the image resolution."""
    # Imported here so that importing tutorlib.concepts does not pull in a plotting backend.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.patches import PathPatch
    from matplotlib.textpath import TextPath
    from matplotlib.transforms import Affine2D

    path = TextPath((0, 0), str(digit), size=1, prop=FontProperties(family="DejaVu Sans",
                                                                    weight=weight))
    box = path.get_extents()
    # Every glyph gets the same height and is centred on its bounding box, as MNIST's are.
    to_unit = (Affine2D().translate(-(box.x0 + box.x1) / 2, -(box.y0 + box.y1) / 2)
               .scale(_GLYPH_HEIGHT / box.height).translate(0.5, 0.5))
    resolution = IMAGE_SIZE * _SUPERSAMPLE
    figure = Figure(figsize=(1, 1), dpi=resolution)
    canvas = FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.axis("off")
    axes.add_patch(PathPatch(to_unit.transform_path(path), facecolor="black", edgecolor="none"))
    canvas.draw()
    red = np.asarray(canvas.buffer_rgba())[..., 0].astype(np.float32)
    return 1.0 - red / 255.0


def _box_filter(masks: np.ndarray) -> np.ndarray:
    """Average over one output pixel (``_SUPERSAMPLE`` glyph pixels) along both image axes.

    Sampling the filtered glyph at one point per output pixel then approximates the pixel's
    area coverage: a cheap anti-aliasing that keeps rendering to one bilinear lookup a pixel.
    """
    half = _SUPERSAMPLE // 2
    # An even-width box centred on a pixel: half weights at both ends.
    weights = np.ones(2 * half + 1, np.float32)
    weights[[0, -1]] = 0.5
    weights /= weights.sum()
    for axis in (1, 2):
        padded = np.pad(masks, [(0, 0)] + [(half, half) if a == axis else (0, 0) for a in (1, 2)])
        size = masks.shape[axis]
        masks = sum(w * np.take(padded, np.arange(k, k + size), axis=axis)
                    for k, w in enumerate(weights))
    return masks.astype(np.float32)


@functools.lru_cache(maxsize=1)
def glyphs() -> np.ndarray:
    """Filtered masks of the 20 glyphs, indexed ``[digit * 2 + weight index]``; drawn once.

    Shape ``(20, 112, 112)``, values in ``[0, 1]``.
    """
    masks = np.stack([_draw_glyph(d, w) for d in ATTRIBUTES["digit"] for w in ATTRIBUTES["weight"]])
    masks = _box_filter(masks)
    masks.setflags(write=False)
    return masks


def _rng(rng: np.random.Generator | int | Sequence[int] | None) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def _indices(attributes: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Attribute values (arrays of any shape, all the same) -> arrays of value indices."""
    missing = [a for a in ATTRIBUTES if a not in attributes]
    if missing:
        raise ValueError(f"attribute table lacks {', '.join(missing)}")
    out, shape = {}, None
    for name, values in ATTRIBUTES.items():
        column = np.asarray(attributes[name])
        if shape is not None and column.shape != shape:
            raise ValueError(f"attribute columns differ in shape: {name} has {column.shape}, "
                             f"expected {shape}")
        shape = column.shape
        lookup = {v: i for i, v in enumerate(values)}
        flat = column.ravel().tolist()
        unknown = [v for v in set(flat) if isinstance(v, bool) or v not in lookup]
        if unknown:
            raise ValueError(f"unknown {name} {unknown[0]!r}; expected one of "
                             f"{', '.join(map(str, values))}")
        out[name] = np.array([lookup[v] for v in flat], dtype=np.int64).reshape(shape)
    same = out["colour"] == out["background"]
    if same.any():
        colour = ATTRIBUTES["colour"][out["colour"][same].ravel()[0]]
        raise ValueError(f"digit colour and background must differ, got both {colour!r}")
    return out


def _values(indices: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Arrays of value indices -> arrays of values (ints for digits, strings for the rest)."""
    return {name: np.asarray(ATTRIBUTES[name])[indices[name]] for name in ATTRIBUTES}


def _render_indices(indices: Mapping[str, np.ndarray], rng: np.random.Generator,
                    jitter: bool = True, chunk: int = 512) -> np.ndarray:
    digit, weight = indices["digit"].ravel(), indices["weight"].ravel()
    colour, background = indices["colour"].ravel(), indices["background"].ravel()
    n = digit.size
    masters = glyphs()
    side = masters.shape[-1]
    flat = masters.reshape(-1)
    glyph = (digit * len(ATTRIBUTES["weight"]) + weight).astype(np.int32) * (side * side)
    if jitter:
        angle = np.deg2rad(rng.uniform(-MAX_ROTATION, MAX_ROTATION, n))
        scale = rng.uniform(*SCALE_RANGE, n)
        shift = rng.uniform(-MAX_SHIFT, MAX_SHIFT, (n, 2)).astype(np.float32)
    else:
        angle, scale, shift = np.zeros(n), np.ones(n), np.zeros((n, 2), np.float32)
    # The inverse map, from output pixels into the glyph: rotate back, unscale, supersample.
    cos = (np.cos(angle) / scale * _SUPERSAMPLE).astype(np.float32)[:, None]
    sin = (np.sin(angle) / scale * _SUPERSAMPLE).astype(np.float32)[:, None]
    # Pixel centres relative to the image centre, in output pixels.
    centres = np.arange(IMAGE_SIZE, dtype=np.float32) + 0.5 - IMAGE_SIZE / 2
    grid_y, grid_x = (g.ravel() for g in np.meshgrid(centres, centres, indexing="ij"))
    palette = np.array(list(PALETTE.values()), dtype=np.float32)
    images = np.empty((n, 3, IMAGE_SIZE * IMAGE_SIZE), dtype=np.float32)
    # Chunks of 512 keep the temporaries in cache (measured: 1.7x faster than chunks of 4,096);
    # the in-place operations below exist for the same reason.
    for start in range(0, n, chunk):
        part = slice(start, min(n, start + chunk))
        dx = grid_x[None] - shift[part, :1]
        dy = grid_y[None] - shift[part, 1:]
        x = cos[part] * dx
        x += sin[part] * dy
        y = cos[part] * dy
        y -= sin[part] * dx
        # The glyphs' borders are empty, so clamping the lookups draws background outside them.
        for coordinate in (x, y):
            coordinate += (side - 1) / 2
            np.clip(coordinate, 0, side - 1.001, out=coordinate)
        x0, y0 = x.astype(np.int32), y.astype(np.int32)
        x -= x0
        y -= y0
        corner = y0
        corner *= side
        corner += x0
        corner += glyph[part, None]
        left, right = flat[corner], flat[corner + 1]
        top = left + x * (right - left)
        left, right = flat[corner + side], flat[corner + side + 1]
        bottom = left + x * (right - left)
        mask = top + y * (bottom - top)
        np.clip(mask, 0.0, 1.0, out=mask)
        ink, paper = palette[colour[part]], palette[background[part]]
        np.multiply(mask[:, None, :], (ink - paper)[:, :, None], out=images[part])
        images[part] += paper[:, :, None]
    return images.reshape(n, 3, IMAGE_SIZE, IMAGE_SIZE)


def render(digit: int, colour: str, background: str, weight: str = "normal",
           rng: np.random.Generator | int | None = None, jitter: bool = True) -> np.ndarray:
    """Draw one image: ``mask * colour + (1 - mask) * background``.

    Parameters
    ----------
    digit : int
        0 to 9.
    colour, background : str
        Names from :data:`PALETTE`; they must differ.
    weight : {"normal", "bold"}
        Stroke weight.
    rng : numpy Generator or int, optional
        Source of the jitter (rotation, scale, shift); an int is a seed.
    jitter : bool
        ``False`` draws the glyph upright, centred and at its nominal size.

    Returns
    -------
    numpy.ndarray
        ``(3, 28, 28)`` float32 RGB image with values in ``[0, 1]``.
    """
    table = {"digit": [digit], "colour": [colour], "background": [background], "weight": [weight]}
    return render_batch(table, rng, jitter=jitter)[0]


def render_batch(attributes: Mapping[str, Any], rng: np.random.Generator | int | None = None,
                 jitter: bool = True) -> np.ndarray:
    """Draw one image per row of an attribute table (vectorised; see :func:`render`).

    Parameters
    ----------
    attributes : mapping
        ``{"digit", "colour", "background", "weight"}`` to equally shaped arrays of values.
    rng, jitter
        As for :func:`render`.

    Returns
    -------
    numpy.ndarray
        ``(*shape, 3, 28, 28)`` float32, where ``shape`` is the shape of the columns.
    """
    indices = _indices(attributes)
    shape = indices["digit"].shape
    images = _render_indices(indices, _rng(rng), jitter=jitter)
    return images.reshape(*shape, 3, IMAGE_SIZE, IMAGE_SIZE)


def _check_count(name: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)


def _sample_indices(n: int, rng: np.random.Generator, fixed: np.ndarray | None = None,
                    forbidden: np.ndarray | None = None) -> np.ndarray:
    """``(n, 4)`` value indices, uniform subject to per-row constraints.

    ``fixed[i, a] >= 0`` pins attribute ``a`` of row ``i``. A draw that has *every* value
    ``forbidden[i, a] >= 0`` of its row is rejected (a row of -1 forbids nothing): forbidding one
    value excludes it, forbidding a concept's values excludes the concept's members. Colour and
    background always differ. Rejection sampling: every constraint we use leaves at least a
    third of the draws acceptable (5/12 for a near miss of ``("red", "bold")``).
    """
    sizes = np.array([len(v) for v in ATTRIBUTES.values()])
    fixed = np.full((n, len(sizes)), -1) if fixed is None else fixed
    forbidden = np.full((n, len(sizes)), -1) if forbidden is None else forbidden
    colour, background = _NAMES.index("colour"), _NAMES.index("background")
    out = np.where(fixed >= 0, fixed, 0)
    redo = np.ones(n, dtype=bool)
    while redo.any():
        rows = np.flatnonzero(redo)
        draw = (rng.random((rows.size, sizes.size)) * sizes).astype(np.int64)
        out[rows] = np.where(fixed[rows] >= 0, fixed[rows], draw)
        redo[:] = False
        banned = forbidden[rows]
        redo[rows] = ((out[rows, colour] == out[rows, background])
                      | (((out[rows] == banned) | (banned < 0)).all(axis=1)
                         & (banned >= 0).any(axis=1)))
    return out


def sample_images(n: int, rng: np.random.Generator | int | None = None
                  ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """``n`` images with uniformly random attributes (colour and background differ).

    Returns
    -------
    images : numpy.ndarray
        ``(n, 3, 28, 28)`` float32.
    attributes : dict
        Attribute name -> ``(n,)`` array of values (ints for ``digit``, strings otherwise).
    """
    n = _check_count("n", n)
    rng = _rng(rng)
    table = _sample_indices(n, rng)
    indices = {name: table[:, k] for k, name in enumerate(_NAMES)}
    return _render_indices(indices, rng), _values(indices)


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
            checked.append((part[0], _check_value(*part)))
        attributes = [a for a, _ in checked]
        if len(set(attributes)) != len(attributes):
            raise ValueError(f"a conjunction needs two different attributes, got {parts!r}")
        values = dict(checked)
        if "colour" in values and values["colour"] == values.get("background"):
            raise ValueError(f"no image has colour and background both {values['colour']!r}")
        object.__setattr__(self, "parts", tuple(sorted(checked, key=lambda p: _NAMES.index(p[0]))))

    @property
    def derivation(self):
        """``"red"`` for a single value, ``("3", "bg_blue")`` for a conjunction."""
        names = tuple(primitive(a, v) for a, v in self.parts)
        return names[0] if len(names) == 1 else names

    @classmethod
    def from_derivation(cls, derivation: str | tuple) -> "Concept":
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
             for a, b in combinations(_NAMES, 2)
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
    table = np.full((len(concepts), len(_NAMES)), -1)
    for i, concept in enumerate(concepts):
        for name, value in concept.parts:
            table[i, _NAMES.index(name)] = ATTRIBUTES[name].index(value)
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
    n = _check_count("n", n)
    if negatives not in NEGATIVES:
        raise ValueError(f"unknown negatives {negatives!r}; expected one of {', '.join(NEGATIVES)}")
    rng = _rng(seed)
    every = all_concepts()
    which = rng.choice(len(every), size=n, p=concept_probabilities())
    chosen = _concept_table(every)[which]
    examples = _sample_indices(2 * n, rng, fixed=np.repeat(chosen, 2, axis=0)).reshape(n, 2, -1)
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
    queries = _sample_indices(n, rng, fixed=fixed, forbidden=forbidden)
    table = np.concatenate([examples.reshape(2 * n, -1), queries])
    images = _render_indices({name: table[:, k] for k, name in enumerate(_NAMES)}, rng)
    return Triplets(examples=images[:2 * n].reshape(n, 2, 3, IMAGE_SIZE, IMAGE_SIZE),
                    queries=images[2 * n:], labels=labels,
                    concepts=[every[i] for i in which],
                    example_attributes=_values({a: examples[..., k] for k, a in enumerate(_NAMES)}),
                    query_attributes=_values({a: queries[:, k] for k, a in enumerate(_NAMES)}),
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
    valid = grid[:, _NAMES.index("colour")] != grid[:, _NAMES.index("background")]
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
        indices = _indices(attributes)
        return np.ravel_multi_index(tuple(indices[a] for a in _NAMES), sizes)

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
    rng = _rng(seed)
    concepts = all_concepts()
    fixed = _concept_table(concepts)
    table = _sample_indices(2 * len(concepts), rng, fixed=np.repeat(fixed, 2, axis=0))
    images = _render_indices({name: table[:, k] for k, name in enumerate(_NAMES)}, rng)
    return images.reshape(len(concepts), 2, 3, IMAGE_SIZE, IMAGE_SIZE), concepts


# --------------------------------------------------------------------------------------------
# The model (Andreas 2019, Appendix A)
# --------------------------------------------------------------------------------------------

class ImageEncoder(nn.Module):
    """LeNet-style CNN: two 5x5 convolutions with max-pooling, then two ReLU layers -> ``z``."""

    def __init__(self, representation_size: int = 64):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2),   # 28 -> 24 -> 12
            nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),  # 12 -> 8 -> 4
            nn.Flatten(),
            nn.Linear(16 * 4 * 4, 128), nn.ReLU(),
            nn.Linear(128, representation_size), nn.ReLU(),
        )

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        """``(batch, 3, 28, 28)`` images in [0, 1] -> ``(batch, representation_size)``."""
        # Centring the pixels on 0 makes the first epochs markedly faster (measured: 62% vs
        # 56% validation accuracy after one epoch); the paper does not say how it scaled them.
        return self.features(2 * images - 1)


class ConceptLearner(nn.Module):
    """``theta = tanh(W (z_1 + z_2))``; the query's logit is ``theta . z*``."""

    def __init__(self, representation_size: int = 64):
        super().__init__()
        self.encoder = ImageEncoder(representation_size)
        self.combine = nn.Linear(representation_size, representation_size, bias=False)

    def concept(self, examples: torch.Tensor) -> torch.Tensor:
        """``(batch, 2, 3, 28, 28)`` example pairs -> ``(batch, representation_size)`` theta."""
        batch = examples.shape[0]
        z = self.encoder(examples.reshape(2 * batch, *examples.shape[2:]))
        return self._theta(z.reshape(batch, 2, -1))

    def _theta(self, z_pairs: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.combine(z_pairs.sum(dim=1)))

    def forward(self, examples: torch.Tensor, queries: torch.Tensor) -> torch.Tensor:
        """Logits ``(batch,)`` that each query belongs to the concept of its examples."""
        batch = examples.shape[0]
        # One encoder call for all three images of each triplet.
        images = torch.cat([examples.reshape(2 * batch, *examples.shape[2:]), queries])
        z = self.encoder(images)
        theta = self._theta(z[:2 * batch].reshape(batch, 2, -1))
        return (theta * z[2 * batch:]).sum(dim=1)


# --------------------------------------------------------------------------------------------
# Training with snapshots
# --------------------------------------------------------------------------------------------

@dataclass
class ConceptConfig:
    """Settings of one training run; the defaults are the paper's where it gives them.

    Parameters
    ----------
    epochs : int
        Passes over the training triplets.
    batch_size : int
        Triplets per Adam step (paper: 128).
    lr : float
        Adam learning rate (paper: 1e-3).
    n_train, n_val : int
        Training and validation triplets (paper: 9,000 and 500).
    representation_size : int
        Size of ``z`` and ``theta`` (paper: 64).
    seed : int
        Initialisation and batch order.
    data_seed : int
        The training, validation and probe sets.
    negatives : {"random", "near_miss"}
        How negative queries are drawn (see :func:`make_triplets`).
    """

    epochs: int = 20
    batch_size: int = 128
    lr: float = 1e-3
    n_train: int = 9000
    n_val: int = 500
    representation_size: int = 64
    seed: int = 0
    data_seed: int = 0
    negatives: str = "random"

    def __post_init__(self) -> None:
        if self.negatives not in NEGATIVES:
            raise ValueError(f"unknown negatives {self.negatives!r}; expected one of "
                             f"{', '.join(NEGATIVES)}")
        for name in ("epochs", "batch_size", "n_train", "n_val", "representation_size"):
            _check_count(name, getattr(self, name))
        for name in ("seed", "data_seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if not (isinstance(self.lr, (int, float)) and math.isfinite(self.lr) and self.lr > 0):
            raise ValueError(f"lr must be a positive number, got {self.lr!r}")

    @property
    def steps_per_epoch(self) -> int:
        return math.ceil(self.n_train / self.batch_size)


@dataclass
class ConceptRun:
    """What :func:`train_concepts` recorded, as plain NumPy data.

    Attributes
    ----------
    config : ConceptConfig
    steps : numpy.ndarray
        ``(S,)`` optimiser steps at which the snapshots were taken (the first is 0, before
        training; the last is the end of training).
    val_accuracy : numpy.ndarray
        ``(S,)`` validation accuracy at each snapshot.
    train_loss : numpy.ndarray
        ``(num_steps,)`` training loss of every step.
    probe_derivations : list
        Derivations of the probe concepts (every concept once, :func:`make_probe`).
    probe_theta : numpy.ndarray
        ``(S, 218, representation_size)`` theta of the probe pairs, the same pairs throughout.
    val_derivations : list
        Derivations of the validation triplets' concepts.
    val_theta : numpy.ndarray
        ``(S, n_val, representation_size)`` theta of the validation example pairs: the
        activations for :func:`binned_mutual_information`.
    final_state : dict
        The trained model's parameters as NumPy arrays (see :meth:`model`).
    seconds : float
        Wall time of training, snapshots included.
    """

    config: ConceptConfig
    steps: np.ndarray
    val_accuracy: np.ndarray
    train_loss: np.ndarray
    probe_derivations: list
    probe_theta: np.ndarray
    val_derivations: list
    val_theta: np.ndarray
    final_state: dict[str, np.ndarray] = field(repr=False)
    seconds: float = 0.0

    @property
    def epochs(self) -> np.ndarray:
        """Snapshot times in epochs."""
        return self.steps / self.config.steps_per_epoch

    def mutual_information(self, bins: int = 30) -> np.ndarray:
        """``(S,)`` binned estimate of I(theta; X) on the validation pairs, in nats."""
        return np.array([binned_mutual_information(theta, bins=bins) for theta in self.val_theta])

    def model(self) -> ConceptLearner:
        """A :class:`ConceptLearner` with the trained parameters, in evaluation mode."""
        model = ConceptLearner(self.config.representation_size)
        model.load_state_dict({k: torch.from_numpy(v) for k, v in self.final_state.items()})
        return model.eval()


def _theta(model: ConceptLearner, examples: np.ndarray, batch_size: int = 500) -> np.ndarray:
    return np.concatenate([model.concept(torch.from_numpy(examples[s:s + batch_size])).numpy()
                           for s in range(0, len(examples), batch_size)])


def _accuracy(model: ConceptLearner, theta: np.ndarray, data: Triplets,
              batch_size: int = 500) -> float:
    """Validation accuracy, reusing the concepts ``theta`` already computed for ``data``."""
    correct = 0
    for start in range(0, len(data), batch_size):
        part = slice(start, start + batch_size)
        z = model.encoder(torch.from_numpy(data.queries[part]))
        logits = (torch.from_numpy(theta[part]) * z).sum(dim=1)
        correct += int(((logits > 0).long() == torch.from_numpy(data.labels[part])).sum())
    return correct / len(data)


def _train(config: ConceptConfig, snapshot_every: int, progress: bool) -> dict:
    started = time.perf_counter()
    data_seeds = np.random.SeedSequence(config.data_seed).spawn(3)
    train = make_triplets(config.n_train, np.random.default_rng(data_seeds[0]), config.negatives)
    val = make_triplets(config.n_val, np.random.default_rng(data_seeds[1]), config.negatives)
    probe, probe_concepts = make_probe(np.random.default_rng(data_seeds[2]))
    generator = seed_everything(config.seed)
    model = ConceptLearner(config.representation_size)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    examples, queries = torch.from_numpy(train.examples), torch.from_numpy(train.queries)
    labels = torch.from_numpy(train.labels).float()
    num_steps = config.epochs * config.steps_per_epoch
    steps, accuracy, probe_theta, val_theta, losses = [], [], [], [], []

    def snapshot(step: int) -> None:
        model.eval()
        with torch.no_grad():
            steps.append(step)
            val_theta.append(_theta(model, val.examples))
            accuracy.append(_accuracy(model, val_theta[-1], val))
            probe_theta.append(_theta(model, probe))

    snapshot(0)
    bar = progress_bar(total=num_steps, desc="concept learner", disable=None if progress else True)
    for _ in range(config.epochs):
        order = torch.randperm(config.n_train, generator=generator)
        for start in range(0, config.n_train, config.batch_size):
            batch = order[start:start + config.batch_size]
            model.train()
            optimizer.zero_grad()
            loss = nn.functional.binary_cross_entropy_with_logits(
                model(examples[batch], queries[batch]), labels[batch])
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
            bar.update()
            if len(losses) % snapshot_every == 0 or len(losses) == num_steps:
                snapshot(len(losses))
                bar.set_postfix(loss=f"{loss.item():.3f}", val=f"{accuracy[-1]:.3f}")
    bar.close()
    return {
        "config": asdict(config),
        "steps": np.array(steps, dtype=np.int64),
        "val_accuracy": np.array(accuracy),
        "train_loss": np.array(losses, dtype=np.float32),
        "probe_derivations": [c.derivation for c in probe_concepts],
        "probe_theta": np.stack(probe_theta),
        "val_derivations": val.derivations,
        "val_theta": np.stack(val_theta),
        "final_state": {k: v.detach().numpy().copy() for k, v in model.state_dict().items()},
        "seconds": time.perf_counter() - started,
    }


def train_concepts(config: ConceptConfig | None = None, progress: bool = False,
                   snapshot_every: int | None = None) -> ConceptRun:
    """Train the concept learner, snapshotting it along the way; cached on disk.

    Parameters
    ----------
    config : ConceptConfig, optional
        Defaults to ``ConceptConfig()``.
    progress : bool
        Show a progress bar.
    snapshot_every : int, optional
        Optimiser steps between snapshots; by default one per epoch. There is always a snapshot
        before the first step and one after the last.

    Returns
    -------
    ConceptRun
    """
    config = ConceptConfig() if config is None else config
    if not isinstance(config, ConceptConfig):
        raise ValueError(f"config must be a ConceptConfig, got {type(config).__name__}")
    snapshot_every = config.steps_per_epoch if snapshot_every is None else snapshot_every
    _check_count("snapshot_every", snapshot_every)
    key = {**asdict(config), "snapshot_every": snapshot_every}
    stored = cache.cached("concepts", key, lambda: _train(config, snapshot_every, progress))
    return ConceptRun(**{**stored, "config": ConceptConfig(**stored["config"])})


# --------------------------------------------------------------------------------------------
# Mutual information (Shwartz-Ziv & Tishby 2017)
# --------------------------------------------------------------------------------------------

def binned_mutual_information(activations: Any, bins: int = 30, low: float = -1.0,
                              high: float = 1.0, base: float = math.e) -> float:
    """Binning estimate of I(T; X) for a deterministic representation ``T = f(X)``.

    Because ``T`` is a function of ``X``, ``H(T | X) = 0`` and ``I(T; X) = H(T)``. Following
    Shwartz-Ziv & Tishby (2017), each unit's activation is put into one of ``bins`` equal-width
    bins over ``[low, high]``; each input's vector of bin numbers is a symbol, and the result is
    the entropy of the empirical distribution of symbols over the ``n`` inputs (each input
    counting once). It lies between 0 (every input lands in the same cell) and ``log n`` (every
    input in its own cell).

    Parameters
    ----------
    activations : array-like
        ``(n, units)``: one row per input. Values must lie in ``[low, high]``; ``high`` falls in
        the last bin.
    bins : int
        Bins per unit (the paper's 30).
    low, high : float
        The range the bins cover: ``[-1, 1]`` for tanh units.
    base : float
        Logarithm base: ``e`` for nats (default), 2 for bits.

    Returns
    -------
    float

    Examples
    --------
    >>> binned_mutual_information([[0.0], [0.0], [0.5], [-0.9]], bins=4)  # symbols 2, 2, 3, 0
    1.0397207708399179
    """
    values = np.asarray(activations, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] == 0 or values.shape[1] == 0:
        raise ValueError(f"activations must be a non-empty (inputs, units) array, got shape "
                         f"{values.shape}")
    _check_count("bins", bins)
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"need finite low < high, got low={low!r}, high={high!r}")
    if not (base > 0 and base != 1):
        raise ValueError(f"base must be positive and not 1, got {base!r}")
    if not np.isfinite(values).all():
        raise ValueError("activations contain NaN or infinite values")
    if values.min() < low or values.max() > high:
        raise ValueError(f"activations must lie in [{low}, {high}], got values from "
                         f"{values.min():.4g} to {values.max():.4g}")
    cells = np.minimum(((values - low) / (high - low) * bins).astype(np.int64), bins - 1)
    _, counts = np.unique(cells, axis=0, return_counts=True)
    p = counts / counts.sum()
    return float(-(p * np.log(p)).sum() / math.log(base))


# --------------------------------------------------------------------------------------------
# The Sec. 4 experiment: TRE and information over training
# --------------------------------------------------------------------------------------------

#: Andreas (2019), Sec. 4 and Fig. 3 (Colour MNIST, the appendix CNN).
PAPER = {"validation accuracy": 0.752, "r(TRE, I(theta; X)), all runs": 0.70,
         "r(TRE, I(theta; X)), compression phase": 0.71}

#: The information estimates :func:`measure_dynamics` records: the paper's joint binning
#: estimate, the joint estimate with coarse bins, and the mean over units of each unit's own
#: binned entropy (see :func:`mean_unit_entropy`).
INFORMATION = ("info_joint", "info_coarse", "info_unit")


def mean_unit_entropy(activations: Any, bins: int = 30, low: float = -1.0, high: float = 1.0,
                      base: float = math.e) -> float:
    """Mean over units of each unit's binned entropy: the average of ``I(T_u; X)`` over units.

    :func:`binned_mutual_information` bins all units jointly: with 64 units and 30 bins there are
    30**64 cells for a few hundred inputs, so as soon as the units vary at all every input gets a
    cell of its own and the estimate sits at its ceiling ``log n``. Binning each unit on its own
    (``bins`` cells for ``n`` inputs) keeps the estimate well below its ceiling ``log bins`` and
    lets it move; the price is that it ignores what the units share (it is not ``I(T; X)``, but
    the mean of the per-unit informations, which bounds ``I(T; X) / units`` from above).

    Parameters
    ----------
    activations, bins, low, high, base
        As for :func:`binned_mutual_information`.

    Returns
    -------
    float

    Examples
    --------
    >>> mean_unit_entropy([[0.0, 0.9], [0.5, 0.9]], bins=4)  # log 2 for the first unit, 0 for the second
    0.34657359027997264
    """
    values = np.asarray(activations, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] == 0 or values.shape[1] == 0:
        raise ValueError(f"activations must be a non-empty (inputs, units) array, got shape "
                         f"{values.shape}")
    return float(np.mean([binned_mutual_information(values[:, [unit]], bins, low, high, base)
                          for unit in range(values.shape[1])]))


def measure_dynamics(run: ConceptRun, tre_steps: int = 500, bins: int = 30,
                     coarse_bins: int = 3) -> dict[str, list]:
    """TRE and the information estimates at every snapshot of ``run``; cached on disk.

    TRE is that of the probe concepts' ``theta`` (every concept once) with the additive
    composition and the cosine distance, as in the paper, fitted afresh at each snapshot. The
    information estimates use the validation pairs' ``theta``.

    Parameters
    ----------
    run : ConceptRun
    tre_steps : int
        Optimisation steps of each TRE fit.
    bins : int
        Bins per unit of the paper's joint estimate and of :func:`mean_unit_entropy`.
    coarse_bins : int
        Bins per unit of the coarse joint estimate.

    Returns
    -------
    dict of lists, one entry per snapshot
        ``step``, ``epoch``, ``val_accuracy``; ``tre`` and its means over single-value concepts
        (``tre_single``) and conjunctions (``tre_conjunction``); ``info_joint``,
        ``info_coarse`` and ``info_unit`` (nats); ``saturation``, the share of the validation
        pairs' ``theta`` values in the outermost bin at either end (``|theta| >= 1 - 2 / bins``).
    """
    from tutorlib import tre

    if not isinstance(run, ConceptRun):
        raise ValueError(f"run must be a ConceptRun, got {type(run).__name__}")
    for name, value in (("tre_steps", tre_steps), ("bins", bins), ("coarse_bins", coarse_bins)):
        _check_count(name, value)
    single = np.array([isinstance(d, str) for d in run.probe_derivations])

    def compute() -> dict[str, list]:
        table: dict[str, list] = {key: [] for key in (
            "step", "epoch", "val_accuracy", "tre", "tre_single", "tre_conjunction",
            *INFORMATION, "saturation")}
        for snapshot, step in enumerate(run.steps):
            fit = tre.tre(run.probe_theta[snapshot], run.probe_derivations, "additive", "cosine",
                          steps=tre_steps)
            theta = run.val_theta[snapshot]
            table["step"].append(int(step))
            table["epoch"].append(float(run.epochs[snapshot]))
            table["val_accuracy"].append(float(run.val_accuracy[snapshot]))
            table["tre"].append(fit.value)
            table["tre_single"].append(float(fit.per_datum[single].mean()))
            table["tre_conjunction"].append(float(fit.per_datum[~single].mean()))
            # + 0.0 turns the -0.0 of an entropy of one cell into 0.0
            table["info_joint"].append(binned_mutual_information(theta, bins=bins) + 0.0)
            table["info_coarse"].append(binned_mutual_information(theta, bins=coarse_bins) + 0.0)
            table["info_unit"].append(mean_unit_entropy(theta, bins=bins) + 0.0)
            table["saturation"].append(float((np.abs(theta) >= 1 - 2 / bins).mean()))
        return table

    key = {"config": asdict(run.config), "steps": [int(s) for s in run.steps],
           "tre_steps": tre_steps, "bins": bins, "coarse_bins": coarse_bins}
    return cache.cached("concept-dynamics", key, compute)


def _pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Pearson's r, or ``None`` when it is undefined (fewer than 3 points, or a constant)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if len(x) < 3 or np.ptp(x) < 1e-12 or np.ptp(y) < 1e-12:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def correlations(tables: Mapping[str, list] | Sequence[Mapping[str, list]]) -> dict[str, Any]:
    """How TRE goes with information and with validation accuracy over training.

    For every estimate of :data:`INFORMATION`: Pearson's r between TRE and the estimate over all
    snapshots (``"all"``), and over the *compression phase* (``"compression"``), the snapshots
    from the one where the estimate peaks to the end of training (``None`` when fewer than three),
    and the epoch of the peak (``"peak_epoch"``); and r between TRE and validation accuracy.
    Given several runs' tables, snapshots are pooled (each run's compression phase starting at
    its own peak) and ``peak_epoch`` is the mean over runs.

    Parameters
    ----------
    tables : dict of lists, or a sequence of them
        What :func:`measure_dynamics` returns.

    Returns
    -------
    dict
        ``{"info_unit": {"all": r, "compression": r, "peak_epoch": e}, ...,
        "val_accuracy": r}``.
    """
    tables = [tables] if isinstance(tables, Mapping) else list(tables)
    if not tables:
        raise ValueError("correlations need at least one table of snapshots")
    out: dict[str, Any] = {}
    for name in INFORMATION:
        tre_all, info_all, tre_late, info_late, peaks = [], [], [], [], []
        for table in tables:
            info = np.asarray(table[name])
            peak = int(np.argmax(info))
            peaks.append(table["epoch"][peak])
            tre_all += list(table["tre"])
            info_all += list(info)
            tre_late += list(table["tre"][peak:])
            info_late += list(info[peak:])
        out[name] = {"all": _pearson(tre_all, info_all),
                     "compression": _pearson(tre_late, info_late),
                     "peak_epoch": float(np.mean(peaks))}
    out["val_accuracy"] = _pearson([v for t in tables for v in t["tre"]],
                                   [v for t in tables for v in t["val_accuracy"]])
    return out


def dynamics_config(settings: Mapping[str, Any], seed: int) -> tuple[ConceptConfig, int]:
    """The training run a profile's ``tre_dynamics`` settings describe, and its snapshot interval
    in steps (``snapshots_per_epoch`` evenly spaced snapshots an epoch)."""
    config = ConceptConfig(epochs=settings["epochs"], n_train=settings["n_train"],
                           n_val=settings["n_val"], seed=seed)
    every = max(1, config.steps_per_epoch // settings["snapshots_per_epoch"])
    return config, every


def dynamics_run(settings: Mapping[str, Any], seed: int, progress: bool = False) -> dict:
    """Train one seed, measure every snapshot; a small JSON-friendly record (no ``theta``)."""
    start = time.perf_counter()
    config, every = dynamics_config(settings, seed)
    run = train_concepts(config, progress=progress, snapshot_every=every)
    table = measure_dynamics(run, settings["tre_steps"], settings["bins"], settings["coarse_bins"])
    # Five decimals keep the record small; correlations use the stored numbers, so that those
    # pooled over the saved records agree with the per-run ones.
    table = {k: [round(v, 5) for v in values] for k, values in table.items()}
    return {"seed": seed,
            "final val_accuracy": table["val_accuracy"][-1],
            "best val_accuracy": max(table["val_accuracy"]),
            "snapshots": table,
            "correlations": correlations(table),
            "seconds": time.perf_counter() - start}


def run_experiment(profile: str, out_dir: str | os.PathLike = "results") -> Path:
    """The Sec. 4 runs of ``profile`` (one per seed), resumably; returns the summary's path.

    Each finished seed is saved under ``out_dir/tre_dynamics/runs`` at once; the summary
    ``out_dir/tre_dynamics/<profile>.json`` (settings, every run's record, correlations pooled
    over the runs, the paper's numbers) is rewritten after every run.

    From the command line: ``python -m tutorlib run tre_dynamics --profile paper``.
    """
    from tutorlib import profiles
    from tutorlib.results import RunStore, run_resumable, write_results

    settings = profiles.settings("tre_dynamics", profile)
    directory = Path(out_dir) / "tre_dynamics"
    store = RunStore(directory / "runs")
    config = {k: v for k, v in settings.items() if k != "seeds"}
    seeds = list(settings["seeds"])

    def write_summary() -> Path:
        finished = [store.record(config, s) for s in seeds if store.has(config, s)]
        runs = [r["result"] for r in finished]
        pooled = correlations([r["snapshots"] for r in runs]) if runs else None
        mean_final = float(np.mean([r["final val_accuracy"] for r in runs])) if runs else None
        return write_results(directory / f"{profile}.json",
                             {"settings": settings, "complete": len(finished) == len(seeds),
                              "runs": runs, "pooled correlations": pooled,
                              "mean final val_accuracy": mean_final, "paper": PAPER},
                             profile=profile, seeds=seeds,
                             wall_time=sum(r["seconds"] for r in finished))

    run_resumable(store, [config], seeds, lambda _, seed: dynamics_run(settings, seed),
                  after_each=write_summary)
    return write_summary()


def committed_results(profile: str = "paper") -> dict | None:
    """The committed ``results/tre_dynamics/<profile>.json`` (provenance and data), or ``None``."""
    from tutorlib.results import project_results, read_results

    path = project_results("tre_dynamics", f"{profile}.json")
    return read_results(path) if path.exists() else None


def committed_runs(profile: str = "paper"):
    """The committed runs' snapshots as one DataFrame, a row per (seed, snapshot); empty if none."""
    import pandas as pd

    columns = ["seed", "step", "epoch", "val_accuracy", "tre", "tre_single", "tre_conjunction",
               *INFORMATION, "saturation"]
    results = committed_results(profile)
    if results is None or not results["data"]["runs"]:
        return pd.DataFrame(columns=columns)
    frames = [pd.DataFrame(r["snapshots"]).assign(seed=r["seed"]) for r in results["data"]["runs"]]
    return pd.concat(frames, ignore_index=True)[columns]
