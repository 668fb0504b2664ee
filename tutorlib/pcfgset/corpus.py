"""The PCFG SET corpus: a seeded PCFG sampler and the shaping step.

Hupkes et al. (2020), *Compositionality decomposed*, the section on PCFG SET (data construction).

The paper samples inputs from a probabilistic grammar, then reshapes the sample so that its
distribution of depth and length resembles English sentences. We do the same in two steps:

1. **Sampling.** Each input draws its own nesting probability ``p`` uniformly from
   ``nesting_range`` (as the paper draws the grammar's probabilities afresh per sample, so that
   shallow and deep inputs both occur). A function is binary with probability
   ``binary_probability``; its first argument is another function with probability ``p``,
   a binary function's second argument with probability ``p * second_argument_factor``, else a
   string argument of 2-5 symbols (lengths drawn with ``string_lengths``' weights).
2. **Shaping.** An input is kept only while the quota of its depth (:data:`TARGET_DEPTH`, the
   published corpus's depth distribution) is not full, and only within the published ranges
   (depth 1-17, 1-30 functions, 3-71 tokens, outputs of at most 224 symbols: ``repeat``
   chains would otherwise make outputs of over a thousand). The quotas make the depth
   distribution exact; the sampler's settings are chosen so that the lengths come out like the
   published corpus's (median 16, mean 18.5 tokens; median 4 functions; median output 8
   symbols), which :func:`statistics` measures and ``tests/test_pcfgset_corpus.py`` checks.

Every string argument is drawn afresh until it differs from every string argument before it,
so no string argument repeats across the corpus, and no two inputs are the same.

The base corpus has the paper's 97,203 pairs (its "about 100,000"), split 85 / 5 / 10 percent:
82,622 train, 4,860 dev, 9,721 test.

A *reduction* (:class:`Reduction`, :data:`REDUCTIONS`) is a smaller corpus from the same
sampler, which networks learn on one CPU core: inputs of at most 3 functions (the
published depth distribution cut at depth 3), outputs of at most 24 symbols, 58,000 pairs
split as the paper's (85 / 5 / 10 percent), and, for productivity, a test of inputs with 4 or
5 functions that no training input has (:func:`productivity_inputs`). Every split of
:mod:`~tutorlib.pcfgset.splits` is built on a reduction the way it is built on the full corpus
(``reduction="f3-o24"``). A reduction's strings are drawn over the 520 symbols, so that every
one is new as in the paper; the experiments fold them onto 26 symbols
(:func:`tutorlib.pcfgset.experiments.fold_symbols`) where a network trains on them.
"""

from __future__ import annotations

import bisect
import math
import random
import statistics as stats
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache

from tutorlib.checks import check_scalar, check_seed
from tutorlib.pcfgset.language import (
    ALPHABET,
    BINARY,
    UNARY,
    Tree,
    alphabet,
    depth,
    evaluate,
    format_input,
    functions,
    parse,
    string_arguments,
)

Pair = tuple[str, str]  # (input, output), each a space-separated string

NUM_TRAIN, NUM_DEV, NUM_TEST = 82_622, 4_860, 9_721
NUM_PAIRS = NUM_TRAIN + NUM_DEV + NUM_TEST  # 97,203

# The depth distribution of the published corpus (i-machine-think/am-i-compositional,
# data/pcfgset/pcfgset/dev.src, 4,860 inputs), as we measured it; 11 stands for 11-17.
TARGET_DEPTH = {1: .015, 2: .132, 3: .220, 4: .240, 5: .158, 6: .088, 7: .057, 8: .041,
                9: .027, 10: .012, 11: .010}

# The published corpus's shape, measured on the same dev set, for the chapter's
# figures: depth fractions (11 = 11 or more), ranges, medians and means.
PUBLISHED_STATISTICS = {
    "depth": {"fractions": TARGET_DEPTH, "min": 1, "max": 17},
    "input_length": {"min": 3, "median": 16, "mean": 18.5, "max": 71},
    "num_functions": {"min": 1, "median": 4, "max": 30},
    "output_length": {"min": 2, "median": 8, "max": 224},
    "string_argument_length": {"fractions": {2: .16, 3: .30, 4: .28, 5: .26}},
}


@dataclass(frozen=True)
class SamplerSettings:
    """The PCFG sampler's and the shaping step's settings (see the module docstring)."""

    binary_probability: float = 0.42
    nesting_range: tuple[float, float] = (0.3, 0.9)
    second_argument_factor: float = 0.6
    string_lengths: tuple[tuple[int, float], ...] = ((2, .16), (3, .30), (4, .28), (5, .26))
    max_depth: int = 17
    max_functions: int = 30
    max_input_length: int = 71
    max_output_length: int = 224
    letters: int = 26  # the alphabet: A1 ... Z20 (see language.alphabet)
    numbers: int = 20

    @property
    def symbols(self) -> tuple[str, ...]:
        """The alphabet the string arguments are drawn from."""
        return alphabet(self.letters, self.numbers)

    def __post_init__(self) -> None:
        if not 0.0 <= self.binary_probability <= 1.0:
            raise ValueError(f"binary_probability must be in [0, 1], got "
                             f"{self.binary_probability!r}")
        low, high = self.nesting_range
        if not 0.0 <= low <= high < 1.0:
            raise ValueError(f"nesting_range must be (low, high) with 0 <= low <= high < 1, got "
                             f"{self.nesting_range!r}")
        for name in ("max_depth", "max_functions", "max_input_length", "max_output_length",
                     "letters", "numbers"):
            check_scalar(getattr(self, name), name, int, min_val=1)
        check_scalar(self.second_argument_factor, "second_argument_factor", float, min_val=0.0)
        if not self.string_lengths or any(n < 1 or w < 0 for n, w in self.string_lengths):
            raise ValueError(f"string_lengths must be (length >= 1, weight >= 0) pairs, got "
                             f"{self.string_lengths!r}")


class StringSource:
    """Draws string arguments, each different from every one drawn (or given) before."""

    def __init__(self, rng: random.Random, symbols: tuple[str, ...] = ALPHABET,
                 lengths: tuple[tuple[int, float], ...] = SamplerSettings.string_lengths,
                 used: Iterable[tuple[str, ...]] = ()) -> None:
        self.rng = rng
        self.symbols = tuple(symbols)
        self.used = set(used)
        self.lengths = [n for n, _ in lengths]
        total = sum(w for _, w in lengths)
        self._cumulative = []
        running = 0.0
        for _, w in lengths:
            running += w / total
            self._cumulative.append(running)

    def length(self) -> int:
        """A string length drawn with the configured weights."""
        i = bisect.bisect_left(self._cumulative, self.rng.random())
        return self.lengths[min(i, len(self.lengths) - 1)]

    def draw(self, length: int | None = None) -> tuple[str, ...]:
        """A new string argument of ``length`` symbols (a drawn length if ``None``)."""
        n = self.length() if length is None else length
        for _ in range(10_000):
            candidate = tuple(self.rng.choice(self.symbols) for _ in range(n))
            if candidate not in self.used:
                self.used.add(candidate)
                return candidate
        raise ValueError(f"could not find an unused string argument of length {n} over "
                         f"{len(self.symbols)} symbols; use a larger alphabet")


class _TooLarge(Exception):
    """A sampled input outgrew the shaping step's limits (stop building it early)."""


def _skeleton(rng: random.Random, settings: SamplerSettings, nest: float,
              strings: StringSource) -> tuple[object, int, int]:
    """A tree whose string arguments are still lengths, with its depth and function count.

    Raises ``_TooLarge`` as soon as it has more functions or tokens than the limits allow: most
    rejected samples are large, and abandoning them early makes the sampler fast.
    """
    draw = rng.random
    budget = [settings.max_functions, settings.max_input_length]
    second = nest * settings.second_argument_factor

    def node(level: int) -> tuple[object, int]:
        binary = draw() < settings.binary_probability
        name = BINARY[int(draw() * len(BINARY))] if binary else UNARY[int(draw() * len(UNARY))]
        budget[0] -= 1
        budget[1] -= 1 + binary  # the function and its comma
        children, deepest = [name], 0
        for chance in ((nest, second) if binary else (nest,)):
            if level < settings.max_depth and draw() < chance:
                child, d = node(level + 1)
                deepest = max(deepest, d)
            else:
                child = strings.length()
                budget[1] -= child
            children.append(child)
        if budget[0] < 0 or budget[1] < 0:
            raise _TooLarge
        return tuple(children), deepest + 1

    tree, d = node(1)
    return tree, d, settings.max_functions - budget[0]


_GROWTH = {"copy": 0, "reverse": 0, "shift": 0, "swap_first_last": 0, "echo": 1}


def _output_length(skeleton: object) -> int:
    """The output's length, which the string arguments' lengths alone decide."""
    if isinstance(skeleton, int):
        return skeleton
    name, *children = skeleton
    lengths = [_output_length(child) for child in children]
    if name in _GROWTH:
        return lengths[0] + _GROWTH[name]
    if name == "repeat":
        return 2 * lengths[0]
    if name in ("append", "prepend"):
        return lengths[0] + lengths[1]
    return lengths[1] if name == "remove_first" else lengths[0]


def _fill(skeleton: object, strings: StringSource) -> Tree:
    if isinstance(skeleton, int):
        return strings.draw(skeleton)
    return (skeleton[0], *(_fill(child, strings) for child in skeleton[1:]))


def _quotas(n: int, target: dict[int, float]) -> dict[int, int]:
    """Largest-remainder rounding of ``n * fraction`` so that the quotas sum to ``n``."""
    total = sum(target.values())
    exact = {d: n * f / total for d, f in target.items()}
    quotas = {d: int(x) for d, x in exact.items()}
    missing = n - sum(quotas.values())
    for d in sorted(exact, key=lambda d: exact[d] - quotas[d], reverse=True)[:missing]:
        quotas[d] += 1
    return quotas


def sample_inputs(n: int, seed: int = 0, settings: SamplerSettings = SamplerSettings(),
                  target_depth: dict[int, float] = TARGET_DEPTH,
                  strings: StringSource | None = None) -> list[Tree]:
    """``n`` inputs from the PCFG, shaped to ``target_depth`` (the last key: that depth or more).

    Parameters
    ----------
    n : int
        How many inputs.
    seed : int
        Seeds the sampler (and the strings, unless ``strings`` is given).
    settings : SamplerSettings
        The sampler's probabilities and the shaping step's ranges.
    target_depth : dict
        Depth -> fraction of the inputs; the largest key collects every deeper input.
    strings : StringSource, optional
        Where string arguments come from (to keep them unique beyond this sample).

    Returns
    -------
    list of trees, in the order sampled.
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    if not isinstance(target_depth, dict) or not target_depth:
        raise ValueError(f"target_depth must be a non-empty dict of depth -> fraction, got "
                         f"{target_depth!r}")
    for key, fraction in target_depth.items():
        if isinstance(key, bool) or not isinstance(key, int) or key < 1:
            raise ValueError(f"target_depth: every depth must be a positive integer, got {key!r}")
        if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) \
                or not math.isfinite(fraction) or fraction < 0:
            raise ValueError(f"target_depth: the fraction of depth {key} must be a finite "
                             f"number >= 0, got {fraction!r}")
    if not sum(target_depth.values()) > 0:
        raise ValueError(f"target_depth: the fractions must not all be 0, got {target_depth!r}")
    rng = random.Random(f"pcfgset-sampler-{seed}")
    strings = strings or StringSource(random.Random(f"pcfgset-strings-{seed}"), settings.symbols,
                                      settings.string_lengths)
    quotas = _quotas(n, target_depth)
    last = max(quotas)
    out: list[Tree] = []
    low, high = settings.nesting_range
    for _ in range(200 * n):
        try:
            skeleton, d, _ = _skeleton(rng, settings, rng.uniform(low, high), strings)
        except _TooLarge:
            continue
        key = min(d, last)
        if quotas.get(key, 0) == 0 or _output_length(skeleton) > settings.max_output_length:
            continue
        quotas[key] -= 1
        out.append(_fill(skeleton, strings))
        if len(out) == n:
            return out
    raise ValueError(f"the sampler did not fill the depth quotas {quotas} in {200 * n} tries; "
                     f"raise nesting_range or lower the target of deep inputs")


def pair_of(tree: Tree) -> Pair:
    """The (input, output) strings of a tree."""
    return format_input(tree), " ".join(evaluate(tree))


@dataclass(frozen=True)
class Corpus:
    """The base corpus: train, dev and test pairs, and every string argument it uses."""

    seed: int
    train: tuple[Pair, ...]
    dev: tuple[Pair, ...]
    test: tuple[Pair, ...]
    strings: frozenset = field(repr=False)

    @property
    def pairs(self) -> list[Pair]:
        """Every pair: train, then dev, then test."""
        return [*self.train, *self.dev, *self.test]


CACHE_FORMAT = 1  # bump when the generator changes what it makes (tutorlib.cache)


def generate(seed: int = 0, settings: SamplerSettings = SamplerSettings()) -> Corpus:
    """Generate the base corpus of 97,203 pairs (82,622 / 4,860 / 9,721) from ``seed``.

    Use :func:`base_corpus`, which caches the result, unless timing the generator.

    Parameters
    ----------
    seed : int
        Seeds the sampler, the string arguments and the shuffle into train, dev and test.
    settings : SamplerSettings
        The sampler's probabilities and the shaping step's ranges.

    Returns
    -------
    Corpus
        The seed, the train, dev and test pairs, and every string argument they use.
    """
    seed = check_seed(seed)
    strings = StringSource(random.Random(f"pcfgset-strings-{seed}"), settings.symbols,
                           settings.string_lengths)
    pairs = [pair_of(t) for t in sample_inputs(NUM_PAIRS, seed, settings, strings=strings)]
    random.Random(f"pcfgset-split-{seed}").shuffle(pairs)
    return Corpus(seed, tuple(pairs[:NUM_TRAIN]), tuple(pairs[NUM_TRAIN:NUM_TRAIN + NUM_DEV]),
                  tuple(pairs[NUM_TRAIN + NUM_DEV:]), frozenset(strings.used))


def base_corpus(seed: int = 0, reduction: str | None = None) -> Corpus:
    """The base corpus of ``seed`` (generated once, then cached in memory and on disk).

    Parameters
    ----------
    seed : int
        Non-negative; the book's corpus is seed 0.
    reduction : str, optional
        A key of :data:`REDUCTIONS`: the reduced corpus (:func:`generate_reduced`); None: the
        paper's.

    Returns
    -------
    Corpus
        As :func:`generate` (or :func:`generate_reduced`) makes it.
    """
    return _base_corpus(check_seed(seed), check_reduction(reduction))


@lru_cache(maxsize=4)
def _base_corpus(seed: int, reduction: str | None = None) -> Corpus:
    from tutorlib.cache import cached

    if reduction is None:
        config = {"seed": seed, "settings": asdict(SamplerSettings())}
        return cached("pcfgset-corpus", config, lambda: generate(seed), format=CACHE_FORMAT)
    config = {"seed": seed, "reduction": asdict(REDUCTIONS[reduction])}
    return cached("pcfgset-corpus", config, lambda: generate_reduced(seed, reduction),
                  format=CACHE_FORMAT)


# ---------------------------------------------------------------------------------------------
# Reductions


@dataclass(frozen=True)
class Reduction:
    """A smaller PCFG SET from the same sampler: what networks learn on one CPU core.

    Inputs have at most ``max_functions`` functions (the published depth distribution,
    :data:`TARGET_DEPTH`, cut at that depth), outputs at most ``max_output_length`` symbols;
    ``pairs`` pairs are
    split into train, dev and test in the paper's proportions. Productivity's test has
    ``productivity_pairs`` new inputs with ``productivity_functions`` functions (more than any
    input of the corpus), outputs within the same ``max_output_length``.
    """

    max_functions: int = 3
    max_output_length: int = 24
    pairs: int = 58_000
    productivity_functions: tuple[int, ...] = (4, 5)
    productivity_pairs: int = 2_000

    def __post_init__(self) -> None:
        for name in ("max_functions", "max_output_length", "pairs", "productivity_pairs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Reduction: {name} must be a positive integer, got {value!r}")
        functions = self.productivity_functions
        if not isinstance(functions, tuple) or not functions or not all(
                isinstance(f, int) and not isinstance(f, bool) and f > self.max_functions
                for f in functions):
            raise ValueError(f"Reduction: productivity_functions must be a tuple of function "
                             f"counts above max_functions ({self.max_functions}), got {functions!r}")

    @property
    def settings(self) -> SamplerSettings:
        """The sampler's settings for the corpus."""
        return SamplerSettings(max_depth=self.max_functions, max_functions=self.max_functions,
                               max_output_length=self.max_output_length)


#: The reductions by name: ``f3-o24`` is the one the pilots chose
#: (``results/pcfgset/NOTES.md``): LSTMS2S and ConvS2S fit it within 20 minutes of one core,
#: the Transformer within 30 (``experiments.FULL_SECONDS``).
REDUCTIONS: dict[str, Reduction] = {"f3-o24": Reduction()}


def check_reduction(reduction: str | None) -> str | None:
    """``reduction`` if it is None or a key of :data:`REDUCTIONS`, else a clear error."""
    if reduction is not None and reduction not in REDUCTIONS:
        raise ValueError(f"unknown PCFG SET reduction {reduction!r}; known: None (the paper's "
                         f"corpus) or {', '.join(map(repr, REDUCTIONS))}")
    return reduction


def _cut_depth(top: int) -> dict[int, float]:
    """:data:`TARGET_DEPTH` restricted to depths up to ``top``."""
    return {d: f for d, f in TARGET_DEPTH.items() if d <= top}


def generate_reduced(seed: int, reduction: str) -> Corpus:
    """The reduced corpus ``reduction`` (:data:`REDUCTIONS`) of ``seed``, split into train, dev
    and test in the paper's proportions (85 / 5 / 10 percent).

    Parameters
    ----------
    seed : int
        Seeds the sampler, the string arguments and the shuffle.
    reduction : str
        A key of :data:`REDUCTIONS`.

    Returns
    -------
    Corpus
        Its pairs and every string argument they use.
    """
    seed = check_seed(seed)
    if check_reduction(reduction) is None:
        raise ValueError("generate_reduced needs a reduction; the paper's corpus: generate()")
    spec = REDUCTIONS[reduction]
    settings = spec.settings
    strings = StringSource(random.Random(f"pcfgset-strings-{reduction}-{seed}"), settings.symbols,
                           settings.string_lengths)
    trees = sample_inputs(spec.pairs, seed, settings, target_depth=_cut_depth(spec.max_functions),
                          strings=strings)
    pairs = [pair_of(t) for t in trees]
    random.Random(f"pcfgset-split-{reduction}-{seed}").shuffle(pairs)
    train = round(spec.pairs * NUM_TRAIN / NUM_PAIRS)
    dev = round(spec.pairs * NUM_DEV / NUM_PAIRS)
    return Corpus(seed, tuple(pairs[:train]), tuple(pairs[train:train + dev]),
                  tuple(pairs[train + dev:]), frozenset(strings.used))


#: Offset of the productivity test's sampler seed from the corpus's (another stream of inputs).
PRODUCTIVITY_SEED_OFFSET = 1_000_003


def productivity_inputs(seed: int, reduction: str) -> list[Pair]:
    """A reduction's productivity test: new inputs with more functions than any input of its
    corpus (``Reduction.productivity_functions``), outputs as short as the corpus's, string
    arguments new to the corpus; as many of each function count (the sampler's shares over
    depths up to the largest count).

    Parameters
    ----------
    seed : int
        The corpus's seed.
    reduction : str
        A key of :data:`REDUCTIONS`.

    Returns
    -------
    list of (str, str)
        ``Reduction.productivity_pairs`` pairs, in the order sampled.
    """
    seed, reduction = check_seed(seed), check_reduction(reduction)
    if reduction is None:
        raise ValueError("productivity_inputs is for a reduction; the paper's productivity "
                         "test is the corpus's inputs with 9 or more functions")
    return list(_productivity_inputs(seed, reduction))


@lru_cache(maxsize=4)
def _productivity_inputs(seed: int, reduction: str) -> tuple[Pair, ...]:
    spec = REDUCTIONS[reduction]
    top = max(spec.productivity_functions)
    settings = replace(spec.settings, max_depth=top, max_functions=top)
    strings = StringSource(random.Random(f"pcfgset-productivity-{reduction}-{seed}"),
                           settings.symbols, settings.string_lengths,
                           used=base_corpus(seed, reduction).strings)
    wanted = set(spec.productivity_functions)
    per_count = {n: spec.productivity_pairs // len(wanted) for n in sorted(wanted)}
    for n in sorted(wanted)[: spec.productivity_pairs % len(wanted)]:
        per_count[n] += 1
    out: list[Pair] = []
    batch = 0
    while any(per_count.values()):
        if batch == 50:
            raise ValueError(f"the sampler made too few inputs with {sorted(wanted)} functions "
                             f"for the productivity test of {reduction!r}")
        trees = sample_inputs(4 * spec.productivity_pairs,
                              seed + PRODUCTIVITY_SEED_OFFSET * (batch + 1), settings,
                              target_depth=_cut_depth(top), strings=strings)
        for tree in trees:
            n = len(functions(tree))
            if per_count.get(n, 0) > 0:
                per_count[n] -= 1
                out.append(pair_of(tree))
        batch += 1
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Statistics


@dataclass(frozen=True)
class CorpusStatistics:
    """Counts of each value of five properties over a set of pairs."""

    depth: dict[int, int]
    input_length: dict[int, int]
    num_functions: dict[int, int]
    output_length: dict[int, int]
    string_argument_length: dict[int, int]

    def fractions(self, name: str, top: int | None = None) -> dict[int, float]:
        """Each value's share of ``name``'s counts; with ``top``, values >= top are pooled."""
        counts = getattr(self, name)
        if top is not None:
            pooled: Counter = Counter()
            for value, count in counts.items():
                pooled[min(value, top)] += count
            counts = dict(sorted(pooled.items()))
        total = sum(counts.values())
        return {value: count / total for value, count in counts.items()}

    def summary(self, name: str) -> dict[str, float]:
        """Min, median, mean and max of ``name``."""
        values = sorted(Counter(getattr(self, name)).elements())
        return {"min": values[0], "median": stats.median(values),
                "mean": round(stats.fmean(values), 2), "max": values[-1]}


def statistics(pairs: Iterable[Pair], synonyms: dict[str, str] | None = None,
               symbols: tuple[str, ...] | None = None) -> CorpusStatistics:
    """Depth, input length (tokens), function count, output length and string-argument length
    distributions of ``pairs``, to set beside :data:`PUBLISHED_STATISTICS` (``synonyms`` and
    ``symbols`` as in :func:`~.language.parse`).

    Parameters
    ----------
    pairs : iterable of (str, str)
        (input, output) pairs, tokens separated by white space.
    synonyms : dict, optional
        Synonyms and the function each stands for, for inputs that contain them.
    symbols : tuple of str, optional
        The alphabet; :data:`~.language.ALPHABET` by default.

    Returns
    -------
    CorpusStatistics
        For each property, how many times each value occurs, sorted by value; string-argument
        lengths are counted per string argument, the rest per pair.
    """
    symbols = frozenset(symbols) if symbols is not None else None
    counters = {name: Counter() for name in CorpusStatistics.__dataclass_fields__}
    for source, target in pairs:
        tree = parse(source, synonyms=synonyms, symbols=symbols)
        counters["depth"][depth(tree)] += 1
        counters["input_length"][len(source.split())] += 1
        counters["num_functions"][len(functions(tree))] += 1
        counters["output_length"][len(target.split())] += 1
        counters["string_argument_length"].update(len(s) for s in string_arguments(tree))
    return CorpusStatistics(**{name: dict(sorted(c.items())) for name, c in counters.items()})
