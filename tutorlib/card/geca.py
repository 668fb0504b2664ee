"""GECA-style data augmentation (Andreas 2020, "Good-enough compositional data augmentation"),
in the one-word form the card trains with.

GECA's principle: if two fragments of training examples occur in a common environment (the rest
of an example, with the fragment taken out), they are taken to be interchangeable, and each is
put into the other's other environments to make new training examples. Here a *fragment* is a
pair of one input word that occurs once in its input and one output token that occurs in
exactly the training examples the word occurs in (``jump`` and ``I_JUMP``; never ``and`` and
``I_WALK``), and its *environment* is the input with that word replaced by a gap and the output
with every occurrence of that token replaced by a gap. On SCAN's add-jump split, ``jump -> I_JUMP`` shares
the environment ``_ -> _`` with ``walk -> I_WALK``, so ``jump`` is put into every environment of
``walk`` (``jump left -> I_TURN_LEFT I_JUMP``, ...): the examples the split withholds.

This is a restriction of Andreas's GECA, whose fragments are spans of several words with gaps
and whose environments may be windows around them: a fragment of one word and one output token
is enough for the lexical substitutions SCAN's jump and around-right splits need, it is cheap on
the card's 20,000 pairs, and it puts fewer wrong examples into training than longer or unaligned
fragments would on SCAN (``walk twice -> I_WALK I_WALK`` shares the empty environment with
``walk -> I_WALK`` and would be put into ``_ left``; ``and`` with the output token ``I_WALK``
shares ``walk _ walk -> _ _`` with ``after`` and would swap the two). The paper is not among
the sources in ``../shared/papers``: what is taken from it here is the principle above, from its
public description, not its implementation or its numbers.

:func:`augment` returns the new pairs; :func:`augment_task` a card task whose training pairs
have them added; :func:`augmentation_quality` how many of a SCAN augmentation's pairs are right
by SCAN's own interpretation function; :func:`coverage` how many of a test set's commands its
new pairs contain.
"""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict
from collections.abc import Sequence

from tutorlib.checks import check_seed

Pair = tuple[str, str]
GAP = "_"
#: the augmentations a card network may train with
METHODS = ("geca",)


def _aligned(pairs: Sequence[Pair]) -> set[tuple[str, str]]:
    """The (input word, output token) pairs that occur in exactly the same training examples:
    the only fragments :func:`candidates` considers."""
    where_word: dict = defaultdict(set)
    where_token: dict = defaultdict(set)
    for i, (source, target) in enumerate(pairs):
        for word in source.split():
            where_word[word].add(i)
        for token in target.split():
            where_token[token].add(i)
    by_examples: dict = defaultdict(list)
    for token, examples in where_token.items():
        by_examples[frozenset(examples)].append(token)
    return {(word, token) for word, examples in where_word.items()
            for token in by_examples.get(frozenset(examples), [])}


def _fragments(source: str, target: str, aligned: set[tuple[str, str]]):
    """Every (fragment, environment) of one example: a fragment is an aligned (input word,
    output token), the word occurring once in the input; the environment is the example with
    the word and every occurrence of the token replaced by :data:`GAP` (both as strings)."""
    words, tokens = source.split(), target.split()
    if GAP in words or GAP in tokens:
        raise ValueError(f"GECA marks gaps with {GAP!r}, which occurs in the pair "
                         f"{(source, target)!r}")
    counts: dict[str, int] = defaultdict(int)
    for word in words:
        counts[word] += 1
    for i, word in enumerate(words):
        if counts[word] != 1:
            continue
        left = " ".join(words[:i] + [GAP] + words[i + 1:])
        for token in dict.fromkeys(tokens):
            if (word, token) in aligned:
                right = " ".join(GAP if t == token else t for t in tokens)
                yield (word, token), (left, right)


def _fill(environment: tuple[str, str], fragment: tuple[str, str]) -> Pair:
    left, right = environment
    word, token = fragment
    return (" ".join(word if w == GAP else w for w in left.split()),
            " ".join(token if t == GAP else t for t in right.split()))


def candidates(pairs: Sequence[Pair]) -> set[Pair]:
    """Every pair GECA's rule makes from ``pairs`` (one-word fragments, see the module), those
    already in ``pairs`` left out.

    Parameters
    ----------
    pairs : sequence of (str, str)
        Training pairs (input, output), tokens separated by spaces.

    Returns
    -------
    set of (str, str)
        New pairs.

    Examples
    --------
    >>> sorted(candidates([("walk", "W"), ("jump", "J"), ("walk left", "L W")]))
    [('jump left', 'L J')]
    """
    distinct = list(dict.fromkeys(pairs))
    aligned = _aligned(distinct)
    environments: dict = defaultdict(set)  # fragment -> its environments
    fragments: dict = defaultdict(set)  # environment -> the fragments that occur in it
    for source, target in distinct:
        for fragment, environment in _fragments(source, target, aligned):
            environments[fragment].add(environment)
            fragments[environment].add(fragment)
    # two fragments that share an environment are interchangeable
    partners: dict = defaultdict(set)
    for shared in fragments.values():
        if len(shared) > 1:
            for fragment in shared:
                partners[fragment] |= shared - {fragment}
    known = set(pairs)
    out = set()
    for fragment, others in partners.items():
        for environment in environments[fragment]:
            for other in others:
                new = _fill(environment, other)
                if new not in known:
                    out.add(new)
    return out


def augment(pairs: Sequence[Pair], size: int | None = None, *, seed: int = 0,
            exclude: Sequence[Pair] = ()) -> list[Pair]:
    """GECA-style new training pairs (:func:`candidates`), a seeded sample of ``size`` of them.

    Parameters
    ----------
    pairs : sequence of (str, str)
        Training pairs.
    size : int, optional
        How many new pairs at most (None: as many as ``pairs``).
    seed : int
        Seeds the sample.
    exclude : sequence of (str, str)
        Pairs never to produce (a task's in-distribution validation pairs, so that the gate still
        measures pairs the network did not train on).

    Returns
    -------
    list of (str, str)
        New pairs, in a seeded order.
    """
    check_seed(seed)
    if not pairs:
        raise ValueError("augment needs at least one training pair")
    size = len(pairs) if size is None else size
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise ValueError(f"size must be a number of pairs, at least 0 (or None), got {size!r}")
    pool = sorted(candidates(pairs) - set(exclude))
    return random.Random(seed).sample(pool, min(size, len(pool)))


def augment_task(task, method: str = "geca", *, seed: int = 0, size: int | None = None):
    """``task`` (a :class:`~tutorlib.card.Task`) with GECA's new pairs added to its training
    pairs (never its validation pairs), named as before.

    Parameters
    ----------
    task : Task
        A card task.
    method : str
        One of :data:`METHODS`.
    seed : int
        Seeds the sample of new pairs and their place among the training pairs.
    size : int, optional
        New pairs at most (None: as many as the task's training pairs).

    Returns
    -------
    Task
    """
    if method not in METHODS:
        raise ValueError(f"unknown augmentation {method!r}; known: {', '.join(METHODS)}")
    new = augment(task.train, size, seed=seed, exclude=task.validation)
    train = list(task.train) + new
    random.Random(seed).shuffle(train)
    return dataclasses.replace(task, train=train)


def augmentation_quality(pairs: Sequence[Pair]) -> dict:
    """How many SCAN pairs (e.g. an augmentation's) are right by SCAN's interpretation
    function: ``pairs``, ``commands`` (inputs that parse as SCAN commands), ``correct`` and
    ``share`` (correct over all pairs; NaN for none)."""
    from tutorlib import scan

    parsed = correct = 0
    for source, target in pairs:
        try:
            actions = scan.interpret(source)
        except ValueError:
            continue
        parsed += 1
        correct += " ".join(actions) == target
    return {"pairs": len(pairs), "commands": parsed, "correct": correct,
            "share": correct / len(pairs) if pairs else float("nan")}


def coverage(new: Sequence[Pair], tests: Sequence[Pair]) -> dict:
    """How many of a test set's commands an augmentation's new pairs contain, exactly, as
    commands: ``commands`` (distinct test inputs), ``contained`` (of them, an input of a new
    pair), ``with_output`` (of those, a new pair with the test's own output too) and ``share``
    (contained over commands; NaN for no commands). A network trained on the new pairs has seen
    the ``contained`` test commands; the rest it must still compose.

    Examples
    --------
    >>> coverage([("jump left", "L J")], [("jump left", "L J"), ("jump twice", "J J")])
    {'commands': 2, 'contained': 1, 'with_output': 1, 'share': 0.5}
    """
    for name, pairs in (("new", new), ("tests", tests)):
        if isinstance(pairs, (str, bytes)) or not all(
                isinstance(p, (tuple, list)) and len(p) == 2 for p in pairs):
            raise TypeError(f"{name} must be a list of (input, output) pairs")
    inputs = {source for source, _ in new}
    known = set(map(tuple, new))
    commands = dict(map(tuple, tests))
    contained = [source for source in commands if source in inputs]
    return {"commands": len(commands), "contained": len(contained),
            "with_output": sum((source, commands[source]) in known for source in contained),
            "share": len(contained) / len(commands) if commands else float("nan")}


__all__ = ["GAP", "METHODS", "augment", "augment_task", "augmentation_quality", "candidates",
           "coverage"]
