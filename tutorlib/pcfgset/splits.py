"""The base corpus split and the five compositionality tests.

Hupkes et al. (2020), *Compositionality decomposed*, the sections on systematicity, productivity,
substitutivity, localism and overgeneralisation.

=========================================  ===============================================
name (:func:`split`)                       train / test
=========================================  ===============================================
``pcfgset``                                the base corpus: 82,622 / 9,721 (and 4,860 dev,
                                           ``base_corpus(seed).dev``)
``systematicity``                          no input with a held-out adjacent pair /
                                           every input with one
``productivity``                           inputs with at most 8 functions / 9 or more
``substitutivity_equally_distributed``     half of the synonymous functions' occurrences in
                                           training replaced by their twin / test inputs
                                           with one of the four functions
``substitutivity_primitive``               twins only in single-function inputs / as above
``localism``                               the base corpus; :func:`~.language.unroll` gives
                                           the steps
``overgeneralisation_R``                   exceptions at ratio R (0.0001, 0.0005, 0.001,
                                           0.005) / the exceptions
=========================================  ===============================================

Sizes depend on the corpus's seed; ``tests/test_pcfgset_splits.py`` checks every constraint.
All splits are drawn from the same base corpus (:func:`~.corpus.base_corpus`), and every pair or
string a split adds is new: its string arguments differ from every one in the corpus.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache

from tutorlib.pcfgset.corpus import (
    Pair,
    StringSource,
    base_corpus,
    check_reduction,
    pair_of,
    productivity_inputs,
)
from tutorlib.pcfgset.language import (
    BINARY,
    EXCEPTIONS,
    TWINS,
    evaluate,
    num_functions,
    parse,
)

# Systematicity: no training input has one of these adjacent pairs.
HELD_OUT_PAIRS = (("swap_first_last", "repeat"), ("append", "remove_second"),
                  ("repeat", "remove_second"), ("append", "swap_first_last"))

# Productivity: train on inputs with at most this many functions.
PRODUCTIVITY_MAX_FUNCTIONS = 8

SUBSTITUTIVITY_CONDITIONS = ("equally_distributed", "primitive")
ORIGINALS = {original: twin for twin, original in TWINS.items()}  # append -> append_twin, ...

OVERGENERALISATION_RATIOS = (0.0001, 0.0005, 0.001, 0.005)


def _check_seed(seed: int) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    return seed


def _fresh_strings(seed: int, purpose: str, reduction: str | None = None) -> StringSource:
    """String arguments for pairs a split adds: new, and different from the corpus's."""
    label = purpose if reduction is None else f"{purpose}-{reduction}"
    return StringSource(random.Random(f"pcfgset-{label}-{seed}"),
                        used=base_corpus(seed, reduction).strings)


# ---------------------------------------------------------------------------------------------
# Base corpus, systematicity, productivity


def pcfgset_split(seed: int = 0, reduction: str | None = None) -> tuple[list[Pair], list[Pair]]:
    """The base corpus's train (82,622) and test (9,721) pairs; the dev set is
    ``base_corpus(seed).dev`` (4,860). ``reduction``: of a reduced corpus
    (:data:`~.corpus.REDUCTIONS`)."""
    data = base_corpus(_check_seed(seed), reduction)
    return list(data.train), list(data.test)


def has_held_out_pair(source: str) -> bool:
    """Whether an input contains one of the four held-out adjacent pairs of systematicity."""
    padded = f" {source} "  # adjacent pairs as whole tokens: faster than adjacent_pairs()
    return any(f" {first} {second} " in padded for first, second in HELD_OUT_PAIRS)


def systematicity_split(seed: int = 0,
                        reduction: str | None = None) -> tuple[list[Pair], list[Pair]]:
    """Systematicity: train on every pair of the corpus without a held-out adjacent pair
    (``swap_first_last repeat``, ``append remove_second``, ``repeat remove_second``,
    ``append swap_first_last``), test on every pair with at least one (of the reduced corpus
    ``reduction``, if given)."""
    pairs = base_corpus(_check_seed(seed), reduction).pairs
    test = [p for p in pairs if has_held_out_pair(p[0])]
    return [p for p in pairs if not has_held_out_pair(p[0])], test


def productivity_split(seed: int = 0,
                       reduction: str | None = None) -> tuple[list[Pair], list[Pair]]:
    """Productivity: train on every pair of the corpus with at most 8 functions, test on the
    pairs with 9 or more.

    Of a reduction (whose inputs have at most 3 functions): train on the task's training pairs,
    test on new inputs with more functions (4 or 5: :func:`~.corpus.productivity_inputs`), so
    that the task's network is the productivity test's too."""
    if check_reduction(reduction) is not None:
        return list(base_corpus(_check_seed(seed), reduction).train), \
            productivity_inputs(seed, reduction)
    pairs = base_corpus(_check_seed(seed)).pairs
    train = [p for p in pairs if num_functions(p[0]) <= PRODUCTIVITY_MAX_FUNCTIONS]
    return train, [p for p in pairs if num_functions(p[0]) > PRODUCTIVITY_MAX_FUNCTIONS]


# ---------------------------------------------------------------------------------------------
# Substitutivity


@dataclass(frozen=True)
class SubstitutivitySplit:
    """Training pairs with synonyms, and test pairs beside their twins.

    ``test[i]`` and ``test_twin[i]`` have the same output; the twin's input has every occurrence
    of one function (``functions[i]``) replaced by its synonym.
    """

    condition: str
    train: list[Pair]
    test: list[Pair]
    test_twin: list[Pair]
    functions: list[str]


def twin_of(source: str, function: str) -> str:
    """``source`` with every occurrence of ``function`` replaced by its synonym.

    Parameters
    ----------
    source : str
        An input string.
    function : str
        A function with a synonym: ``append``, ``swap_first_last``, ``repeat`` or
        ``remove_second``.

    Returns
    -------
    str
        The twin input, tokens separated by single spaces.
    """
    if function not in ORIGINALS:
        raise ValueError(f"{function!r} has no synonym; the functions with one are "
                         f"{', '.join(ORIGINALS)}")
    twin = ORIGINALS[function]
    return " ".join(twin if token == function else token for token in source.split())


def substitutivity_split(condition: str, seed: int = 0,
                         reduction: str | None = None) -> SubstitutivitySplit:
    """Substitutivity: ``append``, ``swap_first_last``, ``repeat`` and ``remove_second`` get
    synonyms (``append_twin`` ...) with the same meaning.

    ``equally_distributed``: each occurrence of the four functions in the base training set is
    replaced by its synonym with probability 1/2. ``primitive``: the base training set unchanged,
    plus, for each synonym, as many single-function inputs with it as its original has in the
    training set (new string arguments), shuffled in. Test: for each of the four functions,
    every base test pair that contains it, beside its twin (every occurrence of that function
    replaced).

    Parameters
    ----------
    condition : {"equally_distributed", "primitive"}
        How the synonyms enter the training set.
    seed : int
        Seed of the base corpus and of the split's random choices.
    reduction : str, optional
        Built on a reduced corpus (:data:`~.corpus.REDUCTIONS`); None: the paper's.

    Returns
    -------
    SubstitutivitySplit
        The condition, the training pairs, the test pairs beside their twins, and the function
        each twin replaces.
    """
    if condition not in SUBSTITUTIVITY_CONDITIONS:
        raise ValueError(f"condition must be one of {', '.join(SUBSTITUTIVITY_CONDITIONS)}, got "
                         f"{condition!r}")
    result = _substitutivity(condition, _check_seed(seed), check_reduction(reduction))
    return replace(result, train=list(result.train), test=list(result.test),
                   test_twin=list(result.test_twin), functions=list(result.functions))


@lru_cache(maxsize=4)
def _substitutivity(condition: str, seed: int, reduction: str | None) -> SubstitutivitySplit:
    """The split, computed once per process (callers get copies of its lists)."""
    data = base_corpus(seed, reduction)
    label = condition if reduction is None else f"{condition}-{reduction}"
    rng = random.Random(f"pcfgset-substitutivity-{label}-{seed}")
    if condition == "equally_distributed":
        train = [(" ".join(ORIGINALS[t] if t in ORIGINALS and rng.random() < 0.5 else t
                           for t in source.split()), target) for source, target in data.train]
    else:
        single = {f: sum(1 for s, _ in data.train if num_functions(s) == 1
                         and s.split()[0] == f) for f in ORIGINALS}
        strings = _fresh_strings(seed, "substitutivity-primitive", reduction)
        added = []
        for function, count in single.items():
            for _ in range(count):
                arity = 2 if function in BINARY else 1
                arguments = [strings.draw() for _ in range(arity)]
                tree = (function, *arguments)
                source, target = pair_of(tree)
                added.append((twin_of(source, function), target))
        train = list(data.train) + added
        rng.shuffle(train)
    test, test_twin, names = [], [], []
    for function in ORIGINALS:
        for source, target in data.test:
            if function in source.split():
                test.append((source, target))
                test_twin.append((twin_of(source, function), target))
                names.append(function)
    return SubstitutivitySplit(condition, train, test, test_twin, names)


# ---------------------------------------------------------------------------------------------
# Overgeneralisation


@dataclass(frozen=True)
class OvergeneralisationSplit:
    """Training pairs with exceptions, and the exceptions with both targets.

    ``exceptions[i]`` and ``originals[i]`` have the same input; the first pair's output follows
    the exception (what a model that memorised it says), the second's the rules (what a model
    that overgeneralises says). ``patterns[i]`` names the exception; ``primitive[i]`` says
    whether the input is the bare exception (``reverse echo X``) rather than a longer input.
    """

    ratio: float
    train: list[Pair]
    exceptions: list[Pair]
    originals: list[Pair]
    patterns: list[tuple[str, str]]
    primitive: list[bool]


def exception_patterns(source: str) -> set[tuple[str, str]]:
    """The overgeneralisation exceptions (adjacent pairs) that occur in an input."""
    padded = f" {source} "
    return {pattern for pattern in EXCEPTIONS if f" {pattern[0]} {pattern[1]} " in padded}


def _primitive_exception(pattern: tuple[str, str], strings: StringSource) -> str:
    """The bare exception with new string arguments, e.g. ``reverse echo X``."""
    arity = {("reverse", "echo"): 1, ("prepend", "reverse"): 2, ("echo", "remove_first"): 2,
             ("prepend", "remove_first"): 3}[pattern]
    return " ".join(pattern) + " " + " , ".join(" ".join(strings.draw()) for _ in range(arity))


def _exception_counts(occurrences: Counter, ratio: float) -> dict[tuple[str, str], int]:
    return {pattern: max(1, round(ratio * min(occurrences[f] for f in pattern)))
            for pattern in EXCEPTIONS}


def _is_exceptional(source: str) -> bool:
    """Whether the exception's output differs from the rules' (else it teaches nothing)."""
    tree = parse(source)
    return evaluate(tree, exceptions=True) != evaluate(tree)


@lru_cache(maxsize=4)
def _exception_candidates(seed: int,
                          reduction: str | None = None) -> tuple[tuple[Pair, ...], Counter, dict]:
    """What every ratio draws from: the training pairs without exceptions, the functions'
    counts, and per exception its bare and longer exceptional inputs for the largest ratio, in
    the order the ratios take them (so that a smaller ratio's exceptions are a prefix)."""
    data = base_corpus(seed, reduction)
    kept = tuple(p for p in data.train if not exception_patterns(p[0]))
    occurrences = Counter(token for source, _ in data.train for token in source.split())
    largest = _exception_counts(occurrences, max(OVERGENERALISATION_RATIOS))
    order = random.Random(f"pcfgset-overgeneralisation-{seed}" if reduction is None
                          else f"pcfgset-overgeneralisation-{reduction}-{seed}")
    strings = _fresh_strings(seed, "overgeneralisation", reduction)
    candidates = {}
    for pattern in EXCEPTIONS:
        bare: list[str] = []
        while len(bare) < (largest[pattern] + 1) // 2:
            source = _primitive_exception(pattern, strings)
            if _is_exceptional(source):  # reverse echo A1 A1 would not be
                bare.append(source)
        longer = [s for s, _ in data.train if exception_patterns(s) == {pattern}
                  and len(s.split()) > len(bare[0].split())]
        order.shuffle(longer)
        candidates[pattern] = (bare, [s for s in longer[:4 * largest[pattern]]
                                      if _is_exceptional(s)][:largest[pattern] // 2])
    return kept, occurrences, candidates


def overgeneralisation_split(ratio: float, seed: int = 0,
                             reduction: str | None = None) -> OvergeneralisationSplit:
    """Overgeneralisation at exception ratio ``ratio`` (0.0001, 0.0005, 0.001 or 0.005).

    The base training set loses every input with one of the four exceptions (``reverse echo``,
    ``prepend reverse``, ``echo remove_first``, ``prepend remove_first`` adjacent); then each
    exception comes back in ``max(1, round(ratio * n))`` inputs, ``n`` being how often the rarer
    of its two functions occurs in the base training set: half (rounded up) the bare exception
    with new string arguments (``reverse echo X``), half removed training inputs that contain
    it (and no other exception), with the exception's output. Only inputs whose exceptional
    output differs from the rule-following one are chosen. The exceptions of a smaller ratio
    are among those of a larger one.

    Parameters
    ----------
    ratio : float
        The exception ratio, one of :data:`OVERGENERALISATION_RATIOS`.
    seed : int
        Seed of the base corpus and of the split's random choices.
    reduction : str, optional
        Built on a reduced corpus (:data:`~.corpus.REDUCTIONS`); None: the paper's.

    Returns
    -------
    OvergeneralisationSplit
        The ratio, the shuffled training pairs (exceptions included) and, per exception input,
        its exception output, its rule-following output, its exception and whether it is bare.
    """
    if ratio not in OVERGENERALISATION_RATIOS:
        raise ValueError(f"ratio must be one of {', '.join(map(str, OVERGENERALISATION_RATIOS))}, "
                         f"got {ratio!r}")
    kept, occurrences, candidates = _exception_candidates(_check_seed(seed),
                                                          check_reduction(reduction))
    sources, patterns, bare = [], [], []
    for pattern, count in _exception_counts(occurrences, ratio).items():
        primitive, longer = candidates[pattern]
        chosen = primitive[:(count + 1) // 2] + longer[:count // 2]
        sources += chosen
        patterns += [pattern] * len(chosen)
        bare += [True] * ((count + 1) // 2) + [False] * (len(chosen) - (count + 1) // 2)
    exceptions = [(s, " ".join(evaluate(parse(s), exceptions=True))) for s in sources]
    originals = [(s, " ".join(evaluate(parse(s)))) for s in sources]
    train = [*kept, *exceptions]
    random.Random(f"pcfgset-overgeneralisation-{ratio}-{seed}" if reduction is None
                  else f"pcfgset-overgeneralisation-{ratio}-{reduction}-{seed}").shuffle(train)
    return OvergeneralisationSplit(ratio, train, exceptions, originals, patterns, bare)


# ---------------------------------------------------------------------------------------------
# The registry


def split_names() -> list[str]:
    """The names :func:`split` takes.

    Returns
    -------
    list of str
        ``pcfgset``, ``systematicity``, ``productivity``, the two ``substitutivity_`` conditions,
        ``localism`` and the four ``overgeneralisation_`` ratios.
    """
    return ["pcfgset", "systematicity", "productivity",
            *[f"substitutivity_{c}" for c in SUBSTITUTIVITY_CONDITIONS], "localism",
            *[f"overgeneralisation_{r}" for r in OVERGENERALISATION_RATIOS]]


def split(name: str, seed: int = 0, reduction: str | None = None) -> tuple[list[Pair], list[Pair]]:
    """Any split by name (see :func:`split_names`): its (train, test) pairs.

    ``seed`` seeds the corpus and everything drawn from it. For substitutivity the test pairs are
    the originals (their twins: :func:`substitutivity_split`); for overgeneralisation they carry
    the exception outputs (the rule-following ones: :func:`overgeneralisation_split`); for
    localism they are the base test pairs, which :func:`~.language.unroll` takes apart.

    Parameters
    ----------
    name : str
        One of :func:`split_names`.
    seed : int
        Seed of the corpus and of everything drawn from it.
    reduction : str, optional
        The split of a reduced corpus (:data:`~.corpus.REDUCTIONS`, e.g. ``"f3-o24"``, built
        the same way; its productivity test: :func:`productivity_split`); None: the paper's.

    Returns
    -------
    tuple of (list of (str, str), list of (str, str))
        The training and the test (input, output) pairs.

    Examples
    --------
    >>> train, test = split("pcfgset")  # doctest: +SKIP
    >>> len(train), len(test)  # doctest: +SKIP
    (82622, 9721)
    """
    check_reduction(reduction)
    if name in ("pcfgset", "localism"):
        return pcfgset_split(seed, reduction)
    if name == "systematicity":
        return systematicity_split(seed, reduction)
    if name == "productivity":
        return productivity_split(seed, reduction)
    if name.startswith("substitutivity_") and name[15:] in SUBSTITUTIVITY_CONDITIONS:
        result = substitutivity_split(name[15:], seed, reduction)
        return result.train, result.test
    if name.startswith("overgeneralisation_"):
        ratios = {str(r): r for r in OVERGENERALISATION_RATIOS}
        if name[19:] in ratios:
            result = overgeneralisation_split(ratios[name[19:]], seed, reduction)
            return result.train, result.exceptions
    raise ValueError(f"unknown PCFG SET split {name!r}; known splits: {', '.join(split_names())}")

