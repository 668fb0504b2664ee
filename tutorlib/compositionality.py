"""The colour-shape toy world of the chapter *Compositionality in one notebook*.

Objects are derivations ``(colour, shape)`` (see :mod:`tutorlib.trees`). A *language* names every
object with a two-word string:

- :func:`compositional_language`: one word per colour and one per shape; the name of
  ``(red, circle)`` is the red-word followed by the circle-word;
- :func:`holistic_language`: every object gets two random words, unrelated to its parts;
- :func:`irregular_language`: compositional, except for a given fraction of objects whose
  names are holistic (the exceptions of natural languages, such as *went* for *go + past*).

A *learner* that believes in compositionality (:func:`learn_lexicon`) reads a word for each
colour and for each shape off the training names, by majority vote, and names unseen objects by
putting the two words together (:func:`predict`). How well it names held-out objects measures how
compositional the language is, and which objects are held out (the *split*) decides what is
being tested: new combinations of known atoms (:func:`compound_split`) or a new atom
(:func:`atom_split`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from tutorlib.profiles import Settings
from tutorlib.results import Experiment
from tutorlib.train import progress_bar, resolve_device
from tutorlib.world import COLOURS, SHAPES

Object = tuple[str, str]
Language = dict[Object, str]

_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"


@dataclass(frozen=True)
class World:
    """All ``(colour, shape)`` combinations of the given colours and shapes."""

    colours: tuple[str, ...]
    shapes: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.colours or not self.shapes:
            raise ValueError(f"a World needs at least one colour and one shape, got "
                             f"{len(self.colours)} and {len(self.shapes)}")

    def objects(self) -> list[Object]:
        return [(c, s) for c in self.colours for s in self.shapes]


def make_world(num_colours: int, num_shapes: int) -> World:
    """A world with the first ``num_colours`` colours and ``num_shapes`` shapes (2 to 12 each)."""
    for name, value, limit in (("num_colours", num_colours, len(COLOURS)),
                               ("num_shapes", num_shapes, len(SHAPES))):
        if not isinstance(value, int) or not 2 <= value <= limit:
            raise ValueError(f"{name} must be an integer from 2 to {limit}, got {value!r}")
    return World(COLOURS[:num_colours], SHAPES[:num_shapes])


def _new_words(rng: random.Random, count: int, taken: set[str]) -> list[str]:
    words = []
    while len(words) < count:
        word = "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(2))
        if word not in taken:
            taken.add(word)
            words.append(word)
    return words


def compositional_language(world: World, seed: int = 0) -> Language:
    """Name each object by its colour's word followed by its shape's word."""
    rng = random.Random(seed)
    taken: set[str] = set()
    colour_words = dict(zip(world.colours, _new_words(rng, len(world.colours), taken)))
    shape_words = dict(zip(world.shapes, _new_words(rng, len(world.shapes), taken)))
    return {(c, s): f"{colour_words[c]} {shape_words[s]}" for c, s in world.objects()}


def holistic_language(world: World, seed: int = 0) -> Language:
    """Name each object by two fresh random words: the name says nothing about the parts."""
    rng = random.Random(f"holistic-{seed}")
    objects = world.objects()
    words = _new_words(rng, 2 * len(objects), set())
    return {obj: f"{words[2 * i]} {words[2 * i + 1]}" for i, obj in enumerate(objects)}


def irregular_language(world: World, fraction: float, seed: int = 0) -> Language:
    """A compositional language in which ``fraction`` of the objects have holistic names."""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"fraction must be between 0 and 1, got {fraction!r}")
    language = compositional_language(world, seed)
    rng = random.Random(f"irregular-{seed}")
    objects = world.objects()
    exceptions = rng.sample(objects, round(fraction * len(objects)))
    taken = {word for name in language.values() for word in name.split()}
    words = _new_words(rng, 2 * len(exceptions), taken)
    for i, obj in enumerate(exceptions):
        language[obj] = f"{words[2 * i]} {words[2 * i + 1]}"
    return language


def atoms(objects: Iterable[Object]) -> Counter:
    """How often each atom (colour or shape) occurs in ``objects``."""
    return Counter(atom for obj in objects for atom in obj)


def compounds(objects: Iterable[Object]) -> Counter:
    """How often each compound (a whole ``(colour, shape)`` object) occurs in ``objects``."""
    return Counter(objects)


def random_split(objects: list[Object], test_fraction: float, seed: int) -> tuple[list, list]:
    """Shuffle and cut: ``(train, test)`` with ``round(test_fraction * n)`` test objects."""
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must be strictly between 0 and 1, got {test_fraction!r}")
    shuffled = list(objects)
    random.Random(seed).shuffle(shuffled)
    cut = round(test_fraction * len(shuffled))
    return shuffled[cut:], shuffled[:cut]


def compound_split(world: World, test_fraction: float, seed: int,
                   max_tries: int = 1000) -> tuple[list, list]:
    """A random split in which every atom still occurs in training: only compounds are new."""
    everything = set(world.colours) | set(world.shapes)
    for attempt in range(max_tries):
        train, test = random_split(world.objects(), test_fraction, seed * max_tries + attempt)
        if set(atoms(train)) == everything:
            return train, test
    raise ValueError(f"no split with test_fraction={test_fraction} keeps every atom in training "
                     f"after {max_tries} tries; use a smaller test_fraction")


def atom_split(world: World, atom: str) -> tuple[list, list]:
    """Hold out every object that contains ``atom``: the test objects have an unseen atom."""
    if atom not in world.colours and atom not in world.shapes:
        raise ValueError(f"{atom!r} is neither a colour nor a shape of this world")
    train = [obj for obj in world.objects() if atom not in obj]
    test = [obj for obj in world.objects() if atom in obj]
    return train, test


def split_summary(train: list[Object], test: list[Object]) -> dict[str, float]:
    """Sizes, and the fractions of test atoms and test compounds never seen in training."""
    if not train or not test:
        raise ValueError(f"split_summary needs objects in both parts, got {len(train)} training "
                         f"and {len(test)} test objects")
    train_atoms, train_compounds = set(atoms(train)), set(compounds(train))
    test_atoms = atoms(test)
    return {
        "train": len(train),
        "test": len(test),
        "unseen atoms in test": sum(n for a, n in test_atoms.items() if a not in train_atoms)
        / max(1, sum(test_atoms.values())),
        "unseen compounds in test": sum(obj not in train_compounds for obj in test) / max(1, len(test)),
    }


@dataclass
class Lexicon:
    """The words a compositional learner has read off training names, by majority vote."""

    colour_words: dict[str, str]
    shape_words: dict[str, str]


def learn_lexicon(named: dict[Object, str]) -> Lexicon:
    """For each colour the most common first word of its objects' names; likewise shapes."""
    if not named:
        raise ValueError("learn_lexicon needs at least one named object")
    first: dict[str, Counter] = {}
    second: dict[str, Counter] = {}
    for (colour, shape), name in named.items():
        words = name.split()
        if len(words) != 2:
            raise ValueError(f"the name of {(colour, shape)} should be two words, got {name!r}")
        first.setdefault(colour, Counter())[words[0]] += 1
        second.setdefault(shape, Counter())[words[1]] += 1
    # most_common breaks ties by first occurrence; sorting first makes that independent of order.
    pick = lambda counts: max(sorted(counts), key=counts.__getitem__)  # noqa: E731
    return Lexicon({c: pick(n) for c, n in first.items()}, {s: pick(n) for s, n in second.items()})


def predict(lexicon: Lexicon, obj: Object) -> str | None:
    """The learner's name for ``obj``, or ``None`` if it has never seen one of its atoms."""
    colour, shape = obj
    if colour not in lexicon.colour_words or shape not in lexicon.shape_words:
        return None
    return f"{lexicon.colour_words[colour]} {lexicon.shape_words[shape]}"


def heldout_accuracy(language: Language, train: list[Object], test: list[Object]) -> float:
    """Fraction of test objects the learner, trained on ``train``, names exactly right."""
    if not test:
        raise ValueError("the test set is empty")
    lexicon = learn_lexicon({obj: language[obj] for obj in train})
    return sum(predict(lexicon, obj) == language[obj] for obj in test) / len(test)


def irregularity_run(world: World, fraction: float, split: int, test_fraction: float = 0.25) -> float:
    """Held-out accuracy for one irregular language and one compound split (both seeded by ``split``)."""
    language = irregular_language(world, fraction, seed=split)
    train, test = compound_split(world, test_fraction, seed=split)
    return heldout_accuracy(language, train, test)


def irregularity_curve(world: World, fractions: list[float], num_splits: int,
                       test_fraction: float = 0.25) -> list[dict]:
    """Held-out accuracy on compound splits as the fraction of irregular names grows.

    Returns one row per (fraction, split): ``{"irregular fraction", "split", "accuracy"}``.
    """
    pairs = [(f, k) for f in fractions for k in range(num_splits)]
    return [{"irregular fraction": f, "split": k,
             "accuracy": irregularity_run(world, f, k, test_fraction)}
            for f, k in progress_bar(pairs, desc="languages x splits")]


@dataclass(frozen=True)
class CompositionalitySettings(Settings):
    """Settings of the ``compositionality`` experiment: the toy world's irregularity curve.

    A world of ``num_colours`` x ``num_shapes`` objects; ``num_splits`` compound splits (and
    irregular languages) at each fraction of ``irregular_fractions``.
    """

    num_colours: int
    num_shapes: int
    num_splits: int
    irregular_fractions: list[float]


SETTINGS: dict[str, CompositionalitySettings] = {
    "ci": CompositionalitySettings(num_colours=5, num_shapes=5, num_splits=3,
                                   irregular_fractions=[0.0, 0.5, 1.0]),
    "tutorial": CompositionalitySettings(
        num_colours=8, num_shapes=8, num_splits=50,
        irregular_fractions=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]),
    "full": CompositionalitySettings(num_colours=12, num_shapes=12, num_splits=500,
                                      irregular_fractions=[round(0.05 * i, 2) for i in range(21)]),
}


def runs(settings: CompositionalitySettings) -> list[tuple[dict, int]]:
    """One run per (irregular fraction, split); the split number is the seed."""
    return [({"num_colours": settings["num_colours"], "num_shapes": settings["num_shapes"],
              "irregular fraction": f, "test_fraction": 0.25}, k)
            for f in settings["irregular_fractions"] for k in range(settings["num_splits"])]


def run_one(config: dict, seed: int, device: str = "cpu") -> dict:
    """Held-out accuracy of one irregular language on one compound split, with the fraction
    and the split it belongs to (so a summary places it by its own record, never by order).

    The learner counts (no tensors), so it runs on the CPU whatever ``device`` says; a device
    this machine cannot have still fails here, as it does for every experiment."""
    resolve_device(device)
    world = make_world(config["num_colours"], config["num_shapes"])
    accuracy = irregularity_run(world, config["irregular fraction"], seed, config["test_fraction"])
    return {"irregular fraction": config["irregular fraction"], "split": seed,
            "accuracy": accuracy}


def summarise(settings: CompositionalitySettings, finished: list[dict]) -> dict:
    """``accuracy[i][k]``: the accuracy at fraction ``i`` on split ``k``, each placed by its
    record's own fraction and split; a run not finished (a partial sweep) is None."""
    fractions = list(settings["irregular_fractions"])
    grid: list[list[float | None]] = [[None] * settings["num_splits"] for _ in fractions]
    for record in finished:
        if not isinstance(record, dict):
            raise ValueError(f"a compositionality run record from an older tutorlib ({record!r}: "
                             f"a bare number, which does not say its fraction and split); delete "
                             f"results/compositionality/runs/ and run again")
        grid[fractions.index(record["irregular fraction"])][record["split"]] = round(
            record["accuracy"], 4)
    return {"irregular fraction": fractions, "accuracy": grid}


EXPERIMENT = Experiment(name="compositionality", runs=runs, run=run_one, summarise=summarise)


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
