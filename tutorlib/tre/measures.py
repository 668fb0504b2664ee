"""The measures that Tree Reconstruction Error is compared with, in one place.

Each measure scores how *compositional* a language is: how systematically the parts of a
message follow the parts of its meaning. The book compares them with TRE (Andreas 2019,
:mod:`tutorlib.tre`):

- :func:`topographic_similarity` (Brighton & Kirby 2006, "Understanding linguistic evolution by
  visualizing the emergence of topographic mappings", *Artificial Life* 12(2)): the Spearman
  correlation between the distances of pairs of meanings and the distances of their messages;
- :func:`posdis` and :func:`bosdis` (Chaabouni, Kharitonov, Bouchacourt, Dupoux & Baroni 2020,
  "Compositionality and generalization in emergent languages", ACL): positional and
  bag-of-symbols disentanglement, how much of what a message position (or a symbol count) says
  is about a single attribute;
- :func:`context_independence` (Bogin, Geva & Berant 2018, "Emergence of communication in an
  interactive world with consistent speakers", arXiv:1809.00549): whether each concept is
  named by one symbol that means that concept wherever it appears.

They share the plug-in estimates :func:`entropy` and :func:`mutual_information` (in nats unless
``base`` is given; the disentanglement scores are ratios, so their unit cancels),
:func:`levenshtein` and :func:`spearman`.

Examples
--------
A trivially compositional language: the meaning ``(a, b)`` is named by the symbol ``a`` for the
first attribute followed by the symbol ``5 + b`` for the second.

>>> import numpy as np
>>> attributes = np.array([(a, b) for a in range(5) for b in range(5)])
>>> messages = attributes + [0, 5]
>>> topographic_similarity(attributes, messages, message_distance="hamming")
1.0
>>> posdis(attributes, messages), bosdis(attributes, messages)
(1.0, 1.0)
>>> context_independence(attributes, messages)  # 1 / (number of attributes)**2, see its notes
0.25
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from tutorlib.checks import ArrayLike
from tutorlib.profiles import Settings
from tutorlib.stats import (
    as_symbols,
    average_ranks,
    edit_distances_are_compiled,
    entropy_of_codes,
    label_codes,
    levenshtein,
    mutual_information_of_codes,
    pearson,
)

Distance = str | Callable[[Any, Any], float]

DISTANCES = ("hamming", "edit", "cosine", "euclidean")

# Pairs are processed in blocks of about this many, so memory stays bounded whatever n is.
_CHUNK = 1 << 16


# --------------------------------------------------------------------------------------------
# Topographic similarity


def _check_distance(distance: object, name: str) -> None:
    if callable(distance):
        return
    if distance not in DISTANCES:
        valid = ", ".join(repr(d) for d in DISTANCES)
        raise ValueError(f"unknown {name} {distance!r}: expected one of {valid} or a callable "
                         f"(a, b) -> float")


def _as_matrix(values: ArrayLike, name: str, distance: str) -> np.ndarray:
    """Equal-length items as the rows of a 2-D array (strings become rows of characters)."""
    if isinstance(values, np.ndarray) and values.ndim == 2:
        return values
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "biuf":
        return values.reshape(-1, 1)     # one number per item
    if isinstance(values, np.ndarray) and values.ndim > 2:
        raise ValueError(f"{name} must be a sequence of vectors (2-D), got an array of shape "
                         f"{values.shape}")
    rows = [list(as_symbols(item)) for item in values]
    lengths = np.fromiter((len(row) for row in rows), dtype=np.int64, count=len(rows))
    if np.any(lengths != lengths[0]):
        other = int(np.argmax(lengths != lengths[0]))
        hint = "; use 'edit' for sequences of different lengths" if distance == "hamming" else ""
        raise ValueError(f"{distance} distance needs {name} of equal length, got length "
                         f"{lengths[0]} (item 0) and {lengths[other]} (item {other}){hint}")
    return np.array(rows)


def _pair_chunks(n: int, max_pairs: int | None, seed: int | None
                 ) -> tuple[int, Iterator[tuple[np.ndarray, np.ndarray]]]:
    """The number of pairs and an iterator over blocks of index pairs ``(i, j)``, ``i != j``."""
    total = n * (n - 1) // 2
    if max_pairs is None or total <= max_pairs:
        def all_pairs() -> Iterator[tuple[np.ndarray, np.ndarray]]:
            rows_per_block = max(1, _CHUNK // n)
            for start in range(0, n - 1, rows_per_block):
                rows = np.arange(start, min(n - 1, start + rows_per_block))
                counts = n - 1 - rows                     # row r pairs with r+1 .. n-1
                i = np.repeat(rows, counts)
                first = np.repeat(np.cumsum(counts) - counts, counts)
                j = i + 1 + (np.arange(i.size) - first)
                yield i, j
        return total, all_pairs()

    def sampled_pairs() -> Iterator[tuple[np.ndarray, np.ndarray]]:
        # Draw i uniformly and j uniformly among the other n - 1 items, block by block: pairs
        # may repeat, but no n × n structure is ever built.
        rng = np.random.default_rng(seed)
        for start in range(0, max_pairs, _CHUNK):
            size = min(_CHUNK, max_pairs - start)
            i = rng.integers(0, n, size=size)
            j = rng.integers(0, n - 1, size=size)
            j = j + (j >= i)
            yield i, j
    return max_pairs, sampled_pairs()


def _pair_distances(values: ArrayLike, distance: Distance, name: str, total: int,
                    chunks: Iterator[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    out = np.empty(total, dtype=float)
    if distance in ("hamming", "cosine", "euclidean"):
        matrix = _as_matrix(values, name, distance)
        if matrix.dtype.kind == "f" and not np.all(np.isfinite(matrix)):
            row = int(np.argwhere(~np.isfinite(matrix))[0, 0])
            raise ValueError(f"{name} contain a value that is not finite (NaN or infinity), at "
                             f"item {row}")
        if distance != "hamming":
            if matrix.dtype.kind not in "biuf":
                raise ValueError(f"{distance} distance needs numeric vectors, got {name} of "
                                 f"dtype {matrix.dtype}")
            matrix = matrix.astype(float)
        if distance == "cosine":
            norms = np.linalg.norm(matrix, axis=1)
            if np.any(norms == 0):
                raise ValueError(f"cosine distance is undefined for the zero vector, found in "
                                 f"{name} at item {int(np.argmax(norms == 0))}")
        position = 0
        for i, j in chunks:
            a, b = matrix[i], matrix[j]
            if distance == "hamming":
                block = np.count_nonzero(a != b, axis=1)
            elif distance == "euclidean":
                block = np.linalg.norm(a - b, axis=1)
            else:
                block = 1.0 - np.einsum("ij,ij->i", a, b) / (norms[i] * norms[j])
            out[position:position + i.size] = block
            position += i.size
        if distance != "hamming":
            # Distances that are equal in exact arithmetic can differ in their last bits (the
            # cosine of (1, 2) and (2, 1) against that of (3, 6) and (6, 3)); rounded, they tie,
            # as the rank correlation should see them.
            tolerance = 1e-12 * max(1.0, float(np.max(np.abs(out))) if out.size else 1.0)
            out = np.round(out / tolerance) * tolerance
    elif distance == "edit" and edit_distances_are_compiled(values):
        # rapidfuzz (the `fast` extra): a whole block of pairs in one compiled call
        from rapidfuzz.distance import Levenshtein
        from rapidfuzz.process import cpdist

        symbols = [as_symbols(v) for v in values]
        position = 0
        for i, j in chunks:
            block = cpdist([symbols[a] for a in i.tolist()], [symbols[b] for b in j.tolist()],
                           scorer=Levenshtein.distance, workers=1)
            out[position:position + i.size] = block
            position += i.size
    else:
        metric = levenshtein if distance == "edit" else distance
        position = 0
        for i, j in chunks:
            for a, b in zip(i.tolist(), j.tolist()):
                out[position] = metric(values[a], values[b])
                position += 1
    if not np.all(np.isfinite(out)):
        raise ValueError(f"the {name} distance returned a value that is not finite")
    return out


def topographic_similarity(meanings: ArrayLike, messages: ArrayLike,
                           meaning_distance: Distance = "hamming",
                           message_distance: Distance = "edit",
                           max_pairs: int | None = None, seed: int | None = 0) -> float:
    """Topographic similarity (Brighton & Kirby 2006).

    The Spearman correlation (:func:`spearman`) between the distances of the meanings and the
    distances of the messages of the same pairs of items, over every unordered pair ``i < j``,
    or over a random sample of pairs when there are more than ``max_pairs``. Near 1: similar
    meanings get similar messages.

    Parameters
    ----------
    meanings : sequence of items, or an array of shape (n, k)
        One meaning per item, e.g. a vector of attribute values.
    messages : sequence of items, or an array of shape (n, L)
        One message per item: a sequence of symbols (list, tuple, string, 1-D array); for the
        ``"edit"`` distance messages may have different lengths.
    meaning_distance, message_distance : str or callable
        ``"hamming"`` (number of positions that differ; items of equal length), ``"edit"``
        (Levenshtein, :func:`levenshtein`), ``"cosine"`` (1 - cosine similarity),
        ``"euclidean"``, or a function ``(a, b) -> float`` called with two items as given.
        Hamming, cosine and Euclidean distances are computed with numpy, a block of pairs at a
        time; edit distances and callables one pair at a time in Python.
    max_pairs : int, optional
        If there are more than ``max_pairs`` pairs, use ``max_pairs`` pairs ``(i, j)`` with
        ``i != j`` drawn uniformly at random with replacement, instead of all ``n (n - 1) / 2``.
        Memory then grows with ``max_pairs``, never with ``n**2``.
    seed : int, optional
        Seed of the pair sample (used only when pairs are sampled).

    Returns
    -------
    float
        The correlation, in ``[-1, 1]``.

    Raises
    ------
    ValueError
        If the numbers of meanings and messages differ, there are fewer than 2 items, a distance
        name is unknown, hamming is asked of items of different lengths, ``max_pairs`` is not an
        integer >= 2, or all meaning (or all message) distances are equal, which leaves the
        correlation undefined.

    Examples
    --------
    >>> meanings = [(0, 0), (0, 1), (1, 0), (1, 1)]
    >>> topographic_similarity(meanings, ["aa", "ab", "ba", "bb"])
    1.0
    >>> round(topographic_similarity(meanings, ["aa", "bb", "ab", "ba"]), 4)
    -0.5
    """
    n = len(meanings)
    if len(messages) != n:
        raise ValueError(f"expected one message per meaning, got {n} meanings and "
                         f"{len(messages)} messages")
    if n < 2:
        raise ValueError(f"topographic similarity needs at least 2 items, got {n}")
    _check_distance(meaning_distance, "meaning_distance")
    _check_distance(message_distance, "message_distance")
    if max_pairs is not None and (isinstance(max_pairs, bool)
                                  or not isinstance(max_pairs, (int, np.integer))
                                  or max_pairs < 2):
        raise ValueError(f"max_pairs must be None or an integer >= 2, got {max_pairs!r}")

    total, chunks = _pair_chunks(n, max_pairs, seed)
    meaning_d = _pair_distances(meanings, meaning_distance, "meanings", total, chunks)
    # The same pairs again, from a fresh iterator with the same seed.
    total, chunks = _pair_chunks(n, max_pairs, seed)
    message_d = _pair_distances(messages, message_distance, "messages", total, chunks)
    for name, distances in (("meaning", meaning_d), ("message", message_d)):
        if distances.min() == distances.max():
            raise ValueError(f"topographic similarity is undefined because all {name} distances "
                             f"are equal (to {distances[0]:g}) over the {total} pairs")
    return pearson(average_ranks(meaning_d), average_ranks(message_d))


# --------------------------------------------------------------------------------------------
# Disentanglement (Chaabouni et al. 2020) and context independence (Bogin et al. 2018)


def _check_table(values, name: str, shape_hint: str) -> np.ndarray:
    try:
        array = np.asarray(values)
    except ValueError:  # numpy refuses ragged rows
        array = np.asarray(values, dtype=object)
    if array.dtype == object and array.ndim == 1 and len(array) and all(
            np.ndim(row) == 1 for row in array):
        lengths = [len(row) for row in array]
        other = next(i for i, n in enumerate(lengths) if n != lengths[0])
        raise ValueError(f"{name} must all have the same length (shape {shape_hint}), got length "
                         f"{lengths[0]} (item 0) and {lengths[other]} (item {other})")
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array of shape {shape_hint}, got an array of "
                         f"shape {array.shape}")
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        row = int(np.argwhere(~np.isfinite(array))[0, 0])
        raise ValueError(f"{name} contain a value that is not finite (NaN or infinity), at item "
                         f"{row}")
    if array.shape[1] == 0:
        raise ValueError(f"{name} must have at least one column, got shape {array.shape}")
    return array


def _check_items(num_attributes_rows: int, num_messages: int) -> None:
    if num_attributes_rows != num_messages:
        raise ValueError(f"expected one message per item, got {num_attributes_rows} rows of "
                         f"attributes and {num_messages} messages")
    if num_attributes_rows < 2:
        raise ValueError(f"the measure needs at least 2 items, got {num_attributes_rows}")


def _columns_as_codes(table: np.ndarray) -> list[tuple[np.ndarray, int]]:
    out = []
    for column in table.T:
        uniques, codes = np.unique(column, return_inverse=True)
        out.append((codes.reshape(-1), len(uniques)))
    return out


def _disentanglement(attribute_codes: list[tuple[np.ndarray, int]],
                     variables: list[np.ndarray]) -> float:
    """Mean over non-constant variables of (largest - second-largest MI) / H(variable)."""
    scores = []
    for variable in variables:
        codes, _ = label_codes(variable, "variable")
        h = entropy_of_codes(codes)
        if h == 0.0:
            continue                       # a constant variable carries no information
        informations = sorted((mutual_information_of_codes(codes, attribute, num_values)
                               for attribute, num_values in attribute_codes), reverse=True)
        second = informations[1] if len(informations) > 1 else 0.0
        scores.append((informations[0] - second) / h)
    return float(np.mean(scores)) if scores else 0.0


def posdis(attributes, messages) -> float:
    """Positional disentanglement (Chaabouni et al. 2020).

    For each message position ``j`` with symbol ``s_j``: the gap between the largest and the
    second-largest mutual information ``I(s_j; a_i)`` over attributes ``a_i``, divided by the
    entropy ``H(s_j)``; averaged over the positions whose symbol varies (``H(s_j) > 0``).
    1 means every informative position speaks about exactly one attribute.

    Parameters
    ----------
    attributes : array of shape (n, k)
        Discrete attribute values (labels), one row per item.
    messages : array of shape (n, L)
        Fixed-length messages of discrete symbols, one row per item.

    Returns
    -------
    float
        In ``[0, 1]``; 0.0 if every position is constant. With one attribute the
        second-largest mutual information is taken to be 0.

    Raises
    ------
    ValueError
        If either input is not 2-D (or has no columns), the numbers of rows differ, or there
        are fewer than 2 items.

    Examples
    --------
    >>> attributes = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> posdis(attributes, [[0, 2], [0, 3], [1, 2], [1, 3]])
    1.0
    >>> posdis(attributes, [[0, 0], [1, 1], [1, 1], [0, 0]])  # symbol = a XOR b: 0 for each
    0.0
    """
    attributes = _check_table(attributes, "attributes", "(n, k)")
    messages = _check_table(messages, "messages", "(n, L)")
    _check_items(len(attributes), len(messages))
    return _disentanglement(_columns_as_codes(attributes), list(messages.T))


def bosdis(attributes, messages, vocab_size: int | None = None) -> float:
    """Bag-of-symbols disentanglement (Chaabouni et al. 2020).

    Like :func:`posdis`, with positions replaced by symbols: for each symbol ``v``, ``n_v`` is
    how many times ``v`` occurs in the message; the score averages
    ``(largest - second-largest I(n_v; a_i)) / H(n_v)`` over symbols with ``H(n_v) > 0``.
    It ignores word order: a language whose symbols each name one attribute value scores 1
    however they are arranged.

    Parameters
    ----------
    attributes : array of shape (n, k)
        Discrete attribute values, one row per item.
    messages : array of shape (n, L)
        Fixed-length messages of discrete symbols, one row per item.
    vocab_size : int, optional
        If given, symbols must be integers in ``[0, vocab_size)``. The value does not change
        the score: symbols that never occur have a constant count and are skipped anyway.

    Returns
    -------
    float
        In ``[0, 1]``; 0.0 if no symbol count varies.

    Raises
    ------
    ValueError
        As :func:`posdis`, and if a symbol lies outside ``[0, vocab_size)``.

    Examples
    --------
    >>> attributes = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> bosdis(attributes, [[0, 2], [3, 0], [1, 2], [3, 1]])  # order does not matter
    1.0
    """
    attributes = _check_table(attributes, "attributes", "(n, k)")
    messages = _check_table(messages, "messages", "(n, L)")
    _check_items(len(attributes), len(messages))
    if vocab_size is not None:
        if isinstance(vocab_size, bool) or not isinstance(vocab_size, (int, np.integer)) \
                or vocab_size < 1:
            raise ValueError(f"vocab_size must be None or a positive integer, got {vocab_size!r}")
        if messages.dtype.kind not in "iu" or messages.min() < 0 or messages.max() >= vocab_size:
            raise ValueError(f"with vocab_size={vocab_size} messages must hold integers from 0 "
                             f"to {vocab_size - 1}, got dtype {messages.dtype} with values from "
                             f"{messages.min()!r} to {messages.max()!r}")
    symbols, codes = np.unique(messages, return_inverse=True)
    codes = codes.reshape(messages.shape)
    n, vocabulary = len(messages), len(symbols)
    rows = np.repeat(np.arange(n), messages.shape[1])
    counts = np.bincount(rows * vocabulary + codes.reshape(-1),
                         minlength=n * vocabulary).reshape(n, vocabulary)
    return _disentanglement(_columns_as_codes(attributes), list(counts.T))


def context_independence(attributes, messages: ArrayLike) -> float:
    """Context independence (Bogin, Geva & Berant 2018).

    A *concept* is an ``(attribute index, value)`` pair; item ``x`` has one concept per
    attribute. Co-occurrence counts ``N(c, v)`` add, over items, the number of times symbol
    ``v`` occurs in the message of an item that has concept ``c``. Normalising them by
    concept and by symbol gives the two conditional probabilities

    - ``p(v | c) = N(c, v) / Σ_v' N(c, v')``,
    - ``p(c | v) = N(c, v) / Σ_c' N(c', v)``;

    each concept is aligned with the symbol that most signals it, ``v_c = argmax_v p(c | v)``,
    and the score is the mean over the observed concepts of ``p(v_c | c) · p(c | v_c)``.

    Parameters
    ----------
    attributes : array of shape (n, k)
        Discrete attribute values, one row per item.
    messages : sequence of n messages
        Each a sequence of symbols (list, tuple, string, row of an array); lengths may differ.

    Returns
    -------
    float
        In ``[0, 1]``.

    Raises
    ------
    ValueError
        If ``attributes`` is not 2-D, the numbers of items differ, or there are fewer than 2.

    Notes
    -----
    Bogin et al. define the score from ``p(v | c)`` and ``p(c | v)`` computed from
    co-occurrence counts between the concepts of a referent and the symbols of its message;
    this function estimates both by normalising one table of counts, as above, counting a
    symbol as often as it occurs (so any padding or end-of-message symbol counts too: strip
    it first). Because every symbol of a message co-occurs with every concept of its item,
    probabilities are shared among the ``k`` attributes: a perfectly compositional language
    with ``k`` attributes, whose messages hold one symbol per attribute value, scores
    ``(1/k) · (1/k)``, i.e. 0.25 for two attributes, and 1 only when ``k = 1``. Compare scores
    between languages with the same number of attributes. Ties in the argmax go to the symbol
    with the larger ``p(v | c)`` (then the smaller symbol), so renaming symbols never changes
    the score.

    Examples
    --------
    >>> context_independence([[0], [1]], ["a", "b"])   # one attribute, one symbol per value
    1.0
    >>> context_independence([[0], [1]], ["a", "a"])   # p(a|c) = 1, p(c|a) = 1/2
    0.5
    """
    attributes = _check_table(attributes, "attributes", "(n, k)")
    if isinstance(messages, np.ndarray) and messages.ndim > 2:
        raise ValueError(f"messages must be a sequence of messages (at most 2-D), got an array "
                         f"of shape {messages.shape}")
    _check_items(len(attributes), len(messages))

    # Every symbol occurrence as a token (item, symbol code).
    sequences = [as_symbols(message) for message in messages]
    lengths = np.fromiter((len(s) for s in sequences), dtype=np.int64, count=len(sequences))
    flat = [symbol for sequence in sequences for symbol in sequence]
    if not flat:
        return 0.0
    token_item = np.repeat(np.arange(len(sequences)), lengths)
    _, token_symbol = np.unique(np.asarray(flat), return_inverse=True)
    token_symbol = token_symbol.reshape(-1)
    num_symbols = int(token_symbol.max()) + 1

    # Concepts numbered attribute by attribute: attribute i's values follow attribute i-1's.
    concept_of_item, offset = [], 0
    for codes, num_values in _columns_as_codes(attributes):
        concept_of_item.append(codes + offset)
        offset += num_values
    num_concepts = offset
    concept = np.concatenate([c[token_item] for c in concept_of_item])
    symbol = np.tile(token_symbol, len(concept_of_item))

    # The sparse table N(c, v): only pairs that occur.
    pairs, count = np.unique(concept.astype(np.int64) * num_symbols + symbol, return_counts=True)
    pair_concept, pair_symbol = pairs // num_symbols, pairs % num_symbols
    per_concept = np.bincount(pair_concept, weights=count, minlength=num_concepts)
    per_symbol = np.bincount(pair_symbol, weights=count, minlength=num_symbols)
    p_v_given_c = count / per_concept[pair_concept]
    p_c_given_v = count / per_symbol[pair_symbol]

    # For each concept, the pair with the largest p(c|v), ties to larger p(v|c), then smaller v.
    order = np.lexsort((pair_symbol, -p_v_given_c, -p_c_given_v, pair_concept))
    first = np.ones(order.size, dtype=bool)
    first[1:] = pair_concept[order][1:] != pair_concept[order][:-1]
    best = order[first]
    scores = np.zeros(num_concepts)      # a concept whose items have empty messages scores 0
    scores[pair_concept[best]] = p_v_given_c[best] * p_c_given_v[best]
    return float(scores.mean())


# The settings of the chapter "Compositionality and similarity" (the registry's
# ``tre_similarity``), per profile.


@dataclass(frozen=True)
class TRESimilaritySettings(Settings):
    """Chapter "Compositionality and similarity" (Andreas 2019, Sec. 6) and the metric zoo."""

    steps: int
    seeds: list[int]
    proposition_noise: list[float]


SETTINGS: dict[str, TRESimilaritySettings] = {
    "ci": TRESimilaritySettings(steps=150, seeds=[0], proposition_noise=[0.0, 0.1]),
    "tutorial": TRESimilaritySettings(steps=800, seeds=[0, 1, 2],
                                      proposition_noise=[0.0, 0.02, 0.05, 0.1]),
    "full": TRESimilaritySettings(steps=1500, seeds=list(range(10)),
                                   proposition_noise=[0.0, 0.01, 0.02, 0.05, 0.1, 0.2]),
}
