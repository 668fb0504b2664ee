import itertools
import math
import time
import tracemalloc

import numpy as np
import pytest

from tutorlib.stats import entropy, levenshtein, mutual_information, spearman
from tutorlib.tre.measures import bosdis, context_independence, posdis, topographic_similarity

# The trivially compositional 5 × 5 language: meaning (a, b) is named by the symbol a (0-4)
# followed by the symbol 5 + b (5-9); the two attributes use disjoint symbols.
ATTRIBUTES = np.array([(a, b) for a in range(5) for b in range(5)])
COMPOSITIONAL = ATTRIBUTES + [0, 5]
SWAPPED = COMPOSITIONAL[:, ::-1]


def holistic(seed: int) -> np.ndarray:
    """The same 25 two-symbol messages, given to the meanings by a random bijection."""
    return COMPOSITIONAL[np.random.default_rng(seed).permutation(25)]


# ---------------------------------------------------------------- entropy, mutual information

def test_entropy_hand_cases():
    assert entropy([0, 1]) == pytest.approx(math.log(2))            # a fair coin: ln 2 nats
    assert entropy(["h", "t", "t", "h"], base=2) == pytest.approx(1.0)  # ... or 1 bit
    assert entropy([3, 3, 3]) == 0.0
    # p = (3/4, 1/4): -(3/4 ln 3/4 + 1/4 ln 1/4)
    assert entropy([0, 0, 0, 1]) == pytest.approx(-(0.75 * math.log(0.75) + 0.25 * math.log(0.25)))
    assert entropy(range(8), base=2) == pytest.approx(3.0)          # uniform over 8: 3 bits


def test_mutual_information_hand_cases():
    x = [0, 1, 2, 3, 0, 1, 2, 3]
    assert mutual_information(x, x) == pytest.approx(entropy(x))    # I(X; X) = H(X) = ln 4
    assert mutual_information(x, x) == pytest.approx(math.log(4))
    assert mutual_information([0, 0, 1, 1], [0, 1, 0, 1]) == 0.0    # independent, exactly
    # y = x // 2 is a function of x: I(X; Y) = H(Y) = ln 2.
    assert mutual_information([0, 1, 2, 3], [0, 0, 1, 1]) == pytest.approx(math.log(2))
    y = [5, 5, 6, 7, 7, 5, 6, 6]
    assert mutual_information(x, y) == pytest.approx(mutual_information(y, x))
    # Labels are names only: renaming them changes nothing.
    assert mutual_information(["a", "b", "a", "b"], [1, 1, 2, 2]) == 0.0
    assert mutual_information([0, 1, 0, 1], ["p", "q", "p", "q"], base=2) == pytest.approx(1.0)


def test_helpers_reject_bad_input():
    with pytest.raises(ValueError, match="at least one label"):
        entropy([])
    with pytest.raises(ValueError, match="1-D"):
        entropy([[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="equal length, got 3 and 2"):
        mutual_information([0, 1, 0], [0, 1])
    with pytest.raises(ValueError, match="base must be"):
        entropy([0, 1], base=1)


# ---------------------------------------------------------------- edit distance, Spearman

@pytest.mark.parametrize("a, b, expected", [
    ("kitten", "sitting", 3),
    ("sitting", "kitten", 3),
    ("flaw", "lawn", 2),
    ("", "", 0),
    ("", "abc", 3),
    ("abc", "abc", 0),
    ("ab", "ba", 2),
    ([1, 2, 3, 4], [1, 3, 4], 1),
    ((0, 5), (0, 6), 1),
    (np.array([1, 2]), [1, 2, 2], 1),
])
def test_levenshtein_hand_cases(a, b, expected):
    assert levenshtein(a, b) == expected


def test_rapidfuzz_and_python_edit_distances_agree():
    """The compiled distance (rapidfuzz, the `fast` extra, installed by make) and the pure Python
    one give the same answers, on strings, symbol lists and mixed numbers alike."""
    from tutorlib import stats

    pytest.importorskip("rapidfuzz")
    assert stats._rapid_levenshtein is not None
    rng = np.random.default_rng(0)
    for _ in range(500):
        a = rng.integers(0, 4, rng.integers(0, 9)).tolist()
        b = rng.integers(0, 4, rng.integers(0, 9)).tolist()
        assert levenshtein(a, b) == stats.levenshtein_python(a, b)
        text_a, text_b = "".join("abcd"[i] for i in a), "".join("abcd"[i] for i in b)
        assert levenshtein(text_a, text_b) == stats.levenshtein_python(text_a, text_b)
        words_a, words_b = [f"w{i}" for i in a], [f"w{i}" for i in b]
        assert levenshtein(words_a, words_b) == stats.levenshtein_python(words_a, words_b)
    mixed_a, mixed_b = [1.0, 2, True], [1, 2.0, 1]
    assert levenshtein(mixed_a, mixed_b) == 0 == stats.levenshtein_python(mixed_a, mixed_b)
    # rapidfuzz compares floats and tuples by hash, and hash(-1.0) == hash(-2.0): those stay in
    # Python, where -1.0 != -2.0 and -1.0 == -1
    assert levenshtein([-1.0], [-2.0]) == 1 and levenshtein([-1.0], [-1]) == 0
    assert levenshtein([(-1,)], [(-2,)]) == 1 and levenshtein([(1, 2), (3,)], [(1, 2)]) == 1
    # topographic similarity computes its edit distances in blocks through rapidfuzz: the same
    messages = [rng.integers(0, 5, 4).tolist() for _ in range(60)]
    meanings = rng.integers(0, 3, (60, 2))
    fast = topographic_similarity(meanings, messages, "hamming", "edit")
    texts = ["".join("abcde"[s] for s in m) for m in messages]
    fast_text = topographic_similarity(meanings, texts, "hamming", "edit")
    saved, stats._rapid_levenshtein = stats._rapid_levenshtein, None
    try:
        assert topographic_similarity(meanings, messages, "hamming", "edit") == fast
        assert topographic_similarity(meanings, texts, "hamming", "edit") == fast_text
    finally:
        stats._rapid_levenshtein = saved


def test_spearman_with_ties_hand_computed():
    # Ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4); centred (-1.5, 0, 0, 1.5) and
    # (-1.5, -0.5, 0.5, 1.5): r = 4.5 / sqrt(4.5 * 5) = 3 / sqrt(10).
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(3 / math.sqrt(10))
    # Ties on both sides: ranks (1.5, 1.5, 3.5, 3.5) against (1, 2.5, 2.5, 4);
    # centred (-1, -1, 1, 1) and (-1.5, 0, 0, 1.5): r = 3 / sqrt(4 * 4.5) = 1 / sqrt(2).
    assert spearman([10, 10, 20, 20], [1, 2, 2, 3]) == pytest.approx(1 / math.sqrt(2))
    assert spearman([1, 2, 3], [9, 4, 1]) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="undefined because all values of y are equal"):
        spearman([1, 2, 3], [7, 7, 7])
    with pytest.raises(ValueError, match="equal length"):
        spearman([1, 2, 3], [1, 2])


# ---------------------------------------------------------------- topographic similarity

def test_topsim_compositional_is_one_and_holistic_is_low():
    assert topographic_similarity(ATTRIBUTES, COMPOSITIONAL, message_distance="hamming") \
        == pytest.approx(1.0)
    # With disjoint symbols per position, edit distance equals Hamming distance here.
    assert topographic_similarity(ATTRIBUTES, COMPOSITIONAL) == pytest.approx(1.0)
    assert topographic_similarity(ATTRIBUTES, SWAPPED, message_distance="hamming") \
        == pytest.approx(1.0)
    # Observed for seeds 0-4: between -0.1 and 0.1.
    for seed in range(5):
        assert abs(topographic_similarity(ATTRIBUTES, holistic(seed),
                                          message_distance="hamming")) < 0.3


def test_topsim_hand_computed_with_ties():
    # Pairs of meanings at Hamming distance 1, 1, 2, 2, 1, 1 get messages at edit distance
    # 2, 1, 1, 1, 1, 2. Both are "is the distance 2" indicators with p = 1/3 that never
    # coincide: r = (0 - 1/9) / (2/9) = -1/2.
    meanings = [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert topographic_similarity(meanings, ["aa", "bb", "ab", "ba"]) == pytest.approx(-0.5)
    assert topographic_similarity(meanings, ["aa", "ab", "ba", "bb"]) == pytest.approx(1.0)


def test_topsim_matches_a_direct_computation_over_all_pairs():
    # 400 items give 79,800 pairs: more than one block of pairs inside the function.
    rng = np.random.default_rng(1)
    meanings = rng.normal(size=(400, 3))
    messages = rng.integers(0, 3, size=(400, 3))
    pairs = list(itertools.combinations(range(400), 2))
    expected = spearman([math.dist(meanings[i], meanings[j]) for i, j in pairs],
                        [sum(x != y for x, y in zip(messages[i], messages[j])) for i, j in pairs])
    kwargs = dict(meaning_distance="euclidean", message_distance="hamming")
    assert topographic_similarity(meanings, messages, **kwargs) == pytest.approx(expected)
    # max_pairs at least the number of pairs: no sampling, the same answer.
    assert topographic_similarity(meanings, messages, max_pairs=79_800, **kwargs) \
        == pytest.approx(expected)
    # A sample of 20,000 pairs estimates it, and is reproducible from its seed.
    sampled = topographic_similarity(meanings, messages, max_pairs=20_000, seed=3, **kwargs)
    assert sampled == pytest.approx(expected, abs=0.03)
    assert sampled == topographic_similarity(meanings, messages, max_pairs=20_000, seed=3,
                                             **kwargs)
    assert sampled != topographic_similarity(meanings, messages, max_pairs=20_000, seed=4,
                                             **kwargs)


def test_topsim_levenshtein_on_messages_of_different_lengths():
    rng = np.random.default_rng(2)
    meanings = rng.integers(0, 4, size=(60, 3)).tolist()
    messages = [tuple(rng.integers(0, 3, size=rng.integers(1, 5))) for _ in range(60)]
    pairs = list(itertools.combinations(range(60), 2))
    expected = spearman([sum(x != y for x, y in zip(meanings[i], meanings[j])) for i, j in pairs],
                        [levenshtein(messages[i], messages[j]) for i, j in pairs])
    assert topographic_similarity(meanings, messages) == pytest.approx(expected)


def test_topsim_other_distances_and_callables():
    # Pairs (0,1), (0,2), (1,2): cosine distances 1 - 1/sqrt(2), 1, 1 - 1/sqrt(2); message
    # distances |len a - len b| = 1, 0, 1: ranks (1.5, 3, 1.5) against (2.5, 1, 2.5), reversed.
    value = topographic_similarity([[1, 0], [1, 1], [0, 1]], ["a", "ab", "b"],
                                   meaning_distance="cosine",
                                   message_distance=lambda a, b: abs(len(a) - len(b)))
    assert value == pytest.approx(-1.0)
    # Euclidean distances 1, 3, 2 against 10, 20, 10: ranks (1, 3, 2) and (1.5, 3, 1.5);
    # centred (-1, 1, 0) and (-0.5, 1, -0.5): r = 1.5 / sqrt(2 * 1.5) = sqrt(3) / 2.
    value = topographic_similarity([[0], [1], [3]], np.array([[0], [10], [20]]),
                                   meaning_distance="euclidean", message_distance="euclidean")
    assert value == pytest.approx(math.sqrt(3) / 2)


def test_topsim_sampled_pairs_are_distinct_items_and_counted():
    seen = []

    def record(a, b):
        seen.append((a, b))
        return abs(a - b)

    n = 1_000
    value = topographic_similarity(list(range(n)), list(range(n)), meaning_distance=record,
                                   message_distance="euclidean", max_pairs=5_000, seed=7)
    assert value == pytest.approx(1.0)
    assert len(seen) == 5_000
    assert all(a != b for a, b in seen)
    # Spread over all the items, both orders equally: not a corner of the pair matrix.
    assert len({item for pair in seen for item in pair}) > 990
    assert 0.45 < np.mean([a < b for a, b in seen]) < 0.55


def test_topsim_sampling_scales_without_n_squared_memory():
    # 200,000 items of a compositional language with 4 attributes of 10 values each: all
    # pairs would be 2e10 distances (160 GB); 50,000 sampled pairs take a few megabytes.
    rng = np.random.default_rng(0)
    attributes = rng.integers(0, 10, size=(200_000, 4))
    messages = attributes + np.arange(4) * 10
    tracemalloc.start()
    start = time.perf_counter()
    try:
        value = topographic_similarity(attributes, messages, message_distance="hamming",
                                       max_pairs=50_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - start < 5.0
    assert peak < 50e6
    assert value == pytest.approx(1.0)


def test_topsim_sampling_with_levenshtein_on_strings():
    rng = np.random.default_rng(2)
    attributes = rng.integers(0, 10, size=(50_000, 3))
    messages = ["abcdefghij"[a] + "klmnopqrst"[b] + "uvwxyzABCD"[c] for a, b, c in attributes]
    start = time.perf_counter()
    value = topographic_similarity(attributes.tolist(), messages, max_pairs=10_000)
    assert time.perf_counter() - start < 5.0
    assert value == pytest.approx(1.0)


@pytest.mark.parametrize("kwargs, message", [
    (dict(meanings=[[0], [1], [2]], messages=["a", "b"]),
     "got 3 meanings and 2 messages"),
    (dict(meanings=[[0]], messages=["a"]), "at least 2 items, got 1"),
    (dict(meanings=[[0], [1]], messages=["a", "b"], meaning_distance="manhattan"),
     "unknown meaning_distance 'manhattan': expected one of 'hamming', 'edit', 'cosine', "
     "'euclidean'"),
    (dict(meanings=[[0], [1]], messages=["a", "b"], message_distance="levenshtein"),
     "unknown message_distance 'levenshtein'"),
    (dict(meanings=[[0], [1], [2]], messages=["a", "ab", "b"], message_distance="hamming"),
     r"hamming distance needs messages of equal length, got length 1 \(item 0\) and 2 "
     r"\(item 1\); use 'edit'"),
    (dict(meanings=[[0, 1], [1], [2, 2]], messages=["a", "b", "c"]),
     "hamming distance needs meanings of equal length"),
    (dict(meanings=[[0, 0], [0, 1], [1, 1]], messages=["ab", "ab", "ab"]),
     "undefined because all message distances are equal"),
    (dict(meanings=[[0], [0], [0]], messages=["a", "b", "c"]),
     "undefined because all meaning distances are equal"),
    (dict(meanings=[[0, 0], [1, 0]], messages=["a", "b"], meaning_distance="cosine"),
     "cosine distance is undefined for the zero vector, found in meanings at item 0"),
    (dict(meanings=[[0], [1], [2]], messages=["a", "b", "c"], max_pairs=0),
     "max_pairs must be None or an integer >= 2, got 0"),
    (dict(meanings=[[0], [1], [2]], messages=["a", "b", "c"], max_pairs=2.5),
     "max_pairs=2.5 violates type hint"),
    (dict(meanings=[[0], [1], [2]], messages=["a", "b", "c"],
          meaning_distance=lambda a, b: float("nan")),
     "not finite"),
])
def test_topsim_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        topographic_similarity(**kwargs)


# ---------------------------------------------------------------- posdis, bosdis

def test_posdis_compositional_swapped_and_holistic():
    assert posdis(ATTRIBUTES, COMPOSITIONAL) == pytest.approx(1.0)
    assert posdis(ATTRIBUTES, SWAPPED) == pytest.approx(1.0)
    # Observed for seeds 0-4: 0.03 to 0.08.
    for seed in range(5):
        assert posdis(ATTRIBUTES, holistic(seed)) < 0.3


def test_posdis_hand_computed():
    attributes = [[0, 0], [0, 1], [1, 0], [1, 1]]
    # s = (0, 0, 1, 2): I(s; a) = H(a) = ln 2; I(s; b) = ln 2 - H(b | s) = ln 2 - ln 2 / 2;
    # H(s) = 1.5 ln 2, so posdis = (ln 2 / 2) / (1.5 ln 2) = 1/3.
    assert posdis(attributes, [[0], [0], [1], [2]]) == pytest.approx(1 / 3)
    # One symbol per meaning (s = 2a + b) tells as much about a as about b: 0.
    assert posdis(attributes, [[0], [1], [2], [3]]) == pytest.approx(0.0)
    # A constant position (padding) is skipped, not averaged in as 0.
    padded = np.hstack([COMPOSITIONAL, np.full((25, 1), 9)])
    assert posdis(ATTRIBUTES, padded) == pytest.approx(1.0)
    assert posdis(attributes, [[4, 4]] * 4) == 0.0
    # One attribute: the second-largest mutual information is 0.
    assert posdis([[0], [1], [2], [0]], [[5], [6], [7], [5]]) == pytest.approx(1.0)


def test_bosdis_compositional_swapped_and_holistic():
    assert bosdis(ATTRIBUTES, COMPOSITIONAL) == pytest.approx(1.0)
    assert bosdis(ATTRIBUTES, SWAPPED) == pytest.approx(1.0)
    assert bosdis(ATTRIBUTES, COMPOSITIONAL, vocab_size=10) == pytest.approx(1.0)
    # Observed for seeds 0-4: 0.03 to 0.15.
    for seed in range(5):
        assert bosdis(ATTRIBUTES, holistic(seed)) < 0.3


def test_bosdis_ignores_order_and_sees_shared_symbols():
    # Each item's message in a random order: still one symbol per attribute value.
    rng = np.random.default_rng(0)
    shuffled = np.array([rng.permutation(m) for m in COMPOSITIONAL])
    assert bosdis(ATTRIBUTES, shuffled) == pytest.approx(1.0)
    assert posdis(ATTRIBUTES, shuffled) < 0.5
    # Both attributes drawn from the same symbols 0-4: positions are perfectly disentangled,
    # but the count of symbol v is [a = v] + [b = v], symmetric in a and b: gap 0.
    shared = ATTRIBUTES.copy()
    assert posdis(ATTRIBUTES, shared) == pytest.approx(1.0)
    assert bosdis(ATTRIBUTES, shared) == pytest.approx(0.0)


def test_bosdis_hand_computed():
    attributes = [[0, 0], [0, 1], [1, 0], [1, 1]]
    messages = [[0, 1, 2, 2], [0, 1, 2, 3], [1, 2, 2, 3], [1, 2, 3, 3]]
    # Counts per item: symbol 0 (1, 1, 0, 0) = [a = 0], a function of a alone: score 1.
    # Symbol 1 (1, 1, 1, 1) is constant: skipped. Symbol 2 (2, 1, 2, 1) = 2 - b: score 1.
    # Symbol 3 (0, 1, 1, 2) = a + b: I(n; a) = I(n; b) by symmetry, gap 0: score 0.
    assert bosdis(attributes, messages) == pytest.approx(2 / 3)
    assert bosdis(attributes, messages, vocab_size=4) == pytest.approx(2 / 3)


@pytest.mark.parametrize("function", [posdis, bosdis])
@pytest.mark.parametrize("attributes, messages, message", [
    ([0, 1, 2], [[0], [1], [2]], r"attributes must be a 2-D array of shape \(n, k\), got an "
                                 r"array of shape \(3,\)"),
    ([[0], [1], [2]], [0, 1, 2], r"messages must be a 2-D array of shape \(n, L\)"),
    ([[0], [1], [2]], np.zeros((3, 2, 2)), r"messages must be a 2-D array .* \(3, 2, 2\)"),
    ([[0], [1], [2]], [[0], [1]], "got 3 rows of attributes and 2 messages"),
    ([[0]], [[1]], "at least 2 items, got 1"),
    (np.zeros((3, 0)), [[0], [1], [2]], "at least one column"),
])
def test_disentanglement_errors(function, attributes, messages, message):
    with pytest.raises(ValueError, match=message):
        function(attributes, messages)


def test_bosdis_vocab_size_is_checked():
    with pytest.raises(ValueError, match="integers from 0 to 7"):
        bosdis(ATTRIBUTES, COMPOSITIONAL, vocab_size=8)
    with pytest.raises(ValueError, match="positive integer"):
        bosdis(ATTRIBUTES, COMPOSITIONAL, vocab_size=0)


# ---------------------------------------------------------------- context independence

def test_context_independence_compositional_is_one_over_k_squared():
    # Concept (0, a) co-occurs with its symbol a in its 5 items and with each of the 5
    # symbols 5 + b once: p(a | c) = 5 / 10. Symbol a co-occurs with concept (0, a) 5 times and
    # with each (1, b) once: p(c | a) = 5 / 10. So every concept scores 1/2 · 1/2 = 1/4.
    assert context_independence(ATTRIBUTES, COMPOSITIONAL) == pytest.approx(0.25)
    assert context_independence(ATTRIBUTES, SWAPPED) == pytest.approx(0.25)
    # Three attributes of 3 values, one symbol each: (1/3) · (1/3).
    three = np.array(list(itertools.product(range(3), repeat=3)))
    assert context_independence(three, three + [0, 3, 6]) == pytest.approx(1 / 9)
    # One attribute, one symbol per value: 1.
    assert context_independence([[0], [1], [2]], [[7], [8], [9]]) == pytest.approx(1.0)


def test_context_independence_holistic_is_lower():
    # Observed for seeds 0-4: 0.045 to 0.065, against 0.25 for the compositional language.
    for seed in range(5):
        assert context_independence(ATTRIBUTES, holistic(seed)) < 0.125


def test_context_independence_hand_computed():
    # One symbol for both concepts: p(a | c) = 1, p(c | a) = 1/2.
    assert context_independence([[0], [1]], ["a", "a"]) == pytest.approx(0.5)
    # Messages of different lengths. N(c0, a) = N(c0, b) = N(c1, a) = 1.
    # c0: p(c0 | b) = 1 beats p(c0 | a) = 1/2, so v = b and the score is p(b | c0) · 1 = 1/2;
    # c1: only a, p(a | c1) · p(c1 | a) = 1 · 1/2. Mean 1/2.
    assert context_independence([[0], [1]], ["ab", "a"]) == pytest.approx(0.5)
    # The alignment maximises p(c | v), not p(v | c). N(c0, a) = 3, N(c0, b) = 1,
    # N(c1, a) = N(c2, a) = 1. For c0: p(c0 | b) = 1 > p(c0 | a) = 3/5, so v = b, scoring
    # p(b | c0) · 1 = 1/4 (aligning with a, the likelier symbol, would give 3/4 · 3/5 = 9/20).
    # c1 and c2: p(a | c) · p(c | a) = 1 · 1/5. Mean (1/4 + 1/5 + 1/5) / 3 = 13/60.
    assert context_independence([[0], [1], [2]], ["aaab", "a", "a"]) == pytest.approx(13 / 60)
    # Renaming symbols (a bijection onto 100-109) changes nothing, ties included.
    rename = 100 + np.random.default_rng(5).permutation(10)
    assert context_independence(ATTRIBUTES, rename[COMPOSITIONAL]) == pytest.approx(0.25)
    for seed in range(5):
        assert context_independence(ATTRIBUTES, rename[holistic(seed)]) \
            == pytest.approx(context_independence(ATTRIBUTES, holistic(seed)))


@pytest.mark.parametrize("attributes, messages, message", [
    ([[0], [1], [2]], ["a", "b"], "got 3 rows of attributes and 2 messages"),
    ([[0]], ["a"], "at least 2 items, got 1"),
    ([0, 1], ["a", "b"], "attributes must be a 2-D array"),
])
def test_context_independence_errors(attributes, messages, message):
    with pytest.raises(ValueError, match=message):
        context_independence(attributes, messages)


def test_non_finite_or_ragged_inputs_are_refused():
    attributes = np.array([(a, b) for a in range(3) for b in range(3)], dtype=float)
    messages = attributes.astype(int)
    with_nan = np.where(attributes == 1, np.nan, attributes)
    with pytest.raises(ValueError, match="attributes contain a value that is not finite"):
        posdis(with_nan, messages)
    with pytest.raises(ValueError, match="messages contain a value that is not finite"):
        bosdis(attributes, with_nan)
    with pytest.raises(ValueError, match="meanings contain a value that is not finite"):
        topographic_similarity(with_nan, messages, "hamming", "hamming")
    ragged = [[1, 2], [1]] + [[1, 2]] * 7
    with pytest.raises(ValueError, match=r"messages must all have the same length .* got length "
                                         r"2 \(item 0\) and 1 \(item 1\)"):
        posdis(attributes, ragged)


def test_cosine_ties_stay_ties_whatever_the_vectors_lengths():
    """Cosine distances equal in exact arithmetic may differ in their last bits; rounded before
    ranking, rescaling every meaning (which leaves every cosine unchanged) leaves the score
    unchanged (it moved by 3e-5 before)."""
    rng = np.random.default_rng(0)
    meanings = rng.integers(0, 3, size=(30, 4)).astype(float) + np.eye(30, 4)
    messages = rng.integers(0, 4, size=(30, 3))
    scale = rng.uniform(0.1, 10, size=(30, 1))
    assert topographic_similarity(meanings * scale, messages, "cosine", "hamming") == \
        topographic_similarity(meanings, messages, "cosine", "hamming")
