"""Small artificial languages with known structure, for measuring compositionality.

Objects have two attributes, a colour and a shape (Andreas 2019, Fig. 1). A *language* names
every object with a fixed-length message of symbols. Each language here is built so that we
know how compositional it is, which makes it a test case for the measures of
:mod:`tutorlib.tre` and :mod:`tutorlib.tre.measures`:

- :func:`compositional`: the message is the colour's code followed by the shape's code;
- :func:`with_exceptions`: a compositional language in which some objects have arbitrary names;
- :func:`with_noise`: a compositional language in which each symbol is replaced by a random one
  with some probability;
- :func:`holistic`: the compositional language's messages, shuffled among the objects (the
  same symbols, no structure);
- :func:`random_language`: every object gets random symbols;
- :func:`order_sensitive`: both codes, in an order that depends on the shape;
- :func:`context_sensitive`: the shape's code depends on the colour;
- :func:`with_negation`: objects and their negations, ``not`` written as a leading symbol.

Examples
--------
>>> language = compositional(num_colours=3, num_shapes=2, code_length=1, seed=0)
>>> language.derivations[:2]
[('red', 'circle'), ('red', 'square')]
>>> language.messages.shape, language.one_hot().shape
((6, 2), (6, 2, 6))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tutorlib.profiles import Settings
from tutorlib.world import COLOURS, SHAPES


@dataclass
class Language:
    """A name for every object.

    Attributes
    ----------
    name : str
        What the language is (shown in tables).
    derivations : list
        The derivation of each object, e.g. ``("red", "circle")`` (see :mod:`tutorlib.trees`).
    attributes : numpy.ndarray, shape (n, k)
        The attribute values of each object as integers (colour, shape[, negated]).
    messages : numpy.ndarray, shape (n, length)
        The symbols naming each object.
    vocab_size : int
        The number of distinct symbols messages may use.
    """

    name: str
    derivations: list
    attributes: np.ndarray
    messages: np.ndarray
    vocab_size: int

    def one_hot(self) -> np.ndarray:
        """The messages as one-hot strings, shape (n, length, vocab_size)."""
        n, length = self.messages.shape
        out = np.zeros((n, length, self.vocab_size))
        out[np.arange(n)[:, None], np.arange(length)[None, :], self.messages] = 1.0
        return out

    def text(self) -> list[str]:
        """Messages as strings, one letter per symbol (a, b, c, ...)."""
        letters = "abcdefghijklmnopqrstuvwxyz0123456789"
        if self.vocab_size > len(letters):
            return [" ".join(map(str, m)) for m in self.messages]
        return ["".join(letters[s] for s in m) for m in self.messages]


def _check_world(num_colours: int, num_shapes: int) -> None:
    for name, value, most in [("num_colours", num_colours, len(COLOURS)),
                              ("num_shapes", num_shapes, len(SHAPES))]:
        if not isinstance(value, int) or not 1 <= value <= most:
            raise ValueError(f"{name} must be an integer from 1 to {most}, got {value!r}")


def _codes(count: int, code_length: int, vocab_size: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` distinct random codes of ``code_length`` symbols."""
    if vocab_size ** code_length < count:
        raise ValueError(f"{count} distinct codes of length {code_length} need more than "
                         f"{vocab_size} symbols")
    chosen: list[tuple[int, ...]] = []
    while len(chosen) < count:
        code = tuple(int(s) for s in rng.integers(vocab_size, size=code_length))
        if code not in chosen:
            chosen.append(code)
    return np.array(chosen)


def compositional(num_colours: int = 5, num_shapes: int = 5, code_length: int = 2,
                  vocab_size: int | None = None, seed: int = 0) -> Language:
    """Colour code then shape code; colours and shapes use separate symbols.

    ``vocab_size`` defaults to just enough symbols: half for colours, half for shapes.
    """
    _check_world(num_colours, num_shapes)
    if code_length < 1:
        raise ValueError(f"code_length must be at least 1, got {code_length}")
    rng = np.random.default_rng(seed)
    half = vocab_size // 2 if vocab_size else max(2, int(np.ceil(max(num_colours, num_shapes)
                                                                    ** (1 / code_length))))
    colour_codes = _codes(num_colours, code_length, half, rng)
    shape_codes = _codes(num_shapes, code_length, half, rng) + half
    derivations, attributes, messages = [], [], []
    for c in range(num_colours):
        for s in range(num_shapes):
            derivations.append((COLOURS[c], SHAPES[s]))
            attributes.append((c, s))
            messages.append(np.concatenate([colour_codes[c], shape_codes[s]]))
    return Language("compositional", derivations, np.array(attributes), np.array(messages),
                    2 * half)


def with_exceptions(language: Language, count: int, seed: int = 0) -> Language:
    """``language`` with ``count`` objects (chosen at random) renamed with random symbols."""
    if not 0 <= count <= len(language.messages):
        raise ValueError(f"count must be between 0 and {len(language.messages)}, got {count}")
    rng = np.random.default_rng(seed)
    messages = language.messages.copy()
    chosen = rng.choice(len(messages), size=count, replace=False)
    messages[chosen] = rng.integers(language.vocab_size, size=(count, messages.shape[1]))
    return replace(language, name=f"{count} exceptions", messages=messages)


def with_noise(language: Language, probability: float, seed: int = 0) -> Language:
    """``language`` with every symbol replaced by a random one with ``probability``."""
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be between 0 and 1, got {probability}")
    rng = np.random.default_rng(seed)
    messages = language.messages.copy()
    flip = rng.random(messages.shape) < probability
    messages[flip] = rng.integers(language.vocab_size, size=int(flip.sum()))
    return replace(language, name=f"noise {probability:g}", messages=messages)


def holistic(language: Language, seed: int = 0) -> Language:
    """``language``'s messages shuffled among its objects: same symbols, no structure."""
    rng = np.random.default_rng(seed)
    return replace(language, name="holistic", messages=language.messages[rng.permutation(
        len(language.messages))])


def random_language(language: Language, seed: int = 0) -> Language:
    """Uniformly random messages of ``language``'s length and vocabulary."""
    rng = np.random.default_rng(seed)
    return replace(language, name="random",
                   messages=rng.integers(language.vocab_size, size=language.messages.shape))


def order_sensitive(language: Language) -> Language:
    """Colour code first for even-numbered shapes, shape code first for odd ones."""
    messages = language.messages.copy()
    half = messages.shape[1] // 2
    odd = language.attributes[:, 1] % 2 == 1
    messages[odd] = np.concatenate([messages[odd, half:], messages[odd, :half]], axis=1)
    return replace(language, name="order-sensitive", messages=messages)


def context_sensitive(language: Language) -> Language:
    """The shape code used depends on the colour: shape s of colour c is written with the code
    of shape (s + c) mod the number of shapes. Still one name per object, but no symbol means
    a shape on its own."""
    num_shapes = int(language.attributes[:, 1].max()) + 1
    half = language.messages.shape[1] // 2
    code_of = {int(s): language.messages[i, half:] for i, (_, s) in enumerate(language.attributes)}
    messages = language.messages.copy()
    for i, (c, s) in enumerate(language.attributes):
        messages[i, half:] = code_of[int((s + c) % num_shapes)]
    return replace(language, name="context-sensitive", messages=messages)


def with_negation(language: Language) -> Language:
    """Every object and its negation: ``not`` is a leading symbol, absent otherwise.

    Derivations of negated objects are ``("not", (colour, shape))``; messages get one leading
    position (``not`` or a blank symbol), and the attributes a third column (negated or not).
    """
    n, length = language.messages.shape
    blank, negation = language.vocab_size, language.vocab_size + 1
    messages = np.zeros((2 * n, length + 1), dtype=language.messages.dtype)
    messages[:n, 0], messages[n:, 0] = blank, negation
    messages[:n, 1:] = messages[n:, 1:] = language.messages
    attributes = np.concatenate([np.column_stack([language.attributes, np.zeros(n, int)]),
                                 np.column_stack([language.attributes, np.ones(n, int)])])
    derivations = list(language.derivations) + [("not", d) for d in language.derivations]
    return Language("with negation", derivations, attributes, messages, language.vocab_size + 2)


# The settings of the chapter "TRE from scratch" (the registry's ``tre_intro``), per profile.


@dataclass(frozen=True)
class TREIntroSettings(Settings):
    """Chapter "TRE from scratch": small colour-shape languages (:mod:`tutorlib.tre.languages`)."""

    steps: int
    seeds: list[int]
    exception_counts: list[int]
    noise_levels: list[float]
    free_composition_steps: int


SETTINGS: dict[str, TREIntroSettings] = {
    "ci": TREIntroSettings(steps=150, seeds=[0], exception_counts=[0, 5, 25],
                           noise_levels=[0.0, 0.3], free_composition_steps=200),
    "tutorial": TREIntroSettings(steps=800, seeds=[0, 1, 2],
                                 exception_counts=[0, 1, 2, 5, 10, 15, 25],
                                 noise_levels=[0.0, 0.05, 0.1, 0.2, 0.3, 0.5],
                                 free_composition_steps=2000),
    "full": TREIntroSettings(steps=1500, seeds=list(range(10)),
                              exception_counts=[0, 1, 2, 5, 10, 15, 20, 25],
                              noise_levels=[0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5],
                              free_composition_steps=4000),
}
