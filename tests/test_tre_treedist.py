"""The paper's tree edit distance (Andreas 2019, App. B, Definition 2): hand-checked cases,
properties, and Lemma 2 (additive composition, primitives within the paper's conditions)."""

import itertools

import numpy as np
import pytest

from tutorlib import trees
from tutorlib.tre.treedist import derivation_size, tree_edit_distance

PAIR = (("red", "circle"), ("blue", "star"))


@pytest.mark.parametrize("first, second, expected", [
    ("red", "red", 0),
    ("red", "blue", 1),
    # delete the unmatched primitive: |circle| = 1
    ("red", ("red", "circle"), 1),
    # replace red by blue (1) or keep either word and delete the other (1 + 1)
    ("red", ("blue", "star"), 2),
    # keep (red circle)'s red (Δ = 1 with circle deleted) and delete (blue star), of size 2
    ("red", PAIR, 3),
    (("red", "circle"), ("blue", "circle"), 1),
    (("red", "circle"), ("blue", "star"), 2),
    # swapping the two words: two replacements, or delete one and match the other (1 + 1)
    (("red", "circle"), ("circle", "red"), 2),
    # the pair (a b) is kept whole and c deleted
    (("a", "b"), (("a", "b"), "c"), 1),
    (PAIR, ("red", ("blue", "star")), 1),
    (PAIR, PAIR, 0),
])
def test_hand_checked_cases(first, second, expected):
    assert tree_edit_distance(first, second) == expected
    assert tree_edit_distance(second, first) == expected


def test_differs_from_the_books_variant_on_the_papers_example():
    # the variant charges 1 for a primitive against any composition
    assert trees.edit_distance("red", PAIR) == 1
    assert tree_edit_distance("red", PAIR) == 3


def test_size_counts_primitives():
    assert derivation_size("red") == 1
    assert derivation_size(("red", "circle")) == 2
    assert derivation_size(PAIR) == 4
    assert derivation_size((PAIR, "star")) == 5


def _random_tree(rng, leaves, depth):
    if depth == 0 or rng.random() < 0.3:
        return str(rng.choice(leaves))
    return (_random_tree(rng, leaves, depth - 1), _random_tree(rng, leaves, depth - 1))


def _some_trees(count=40, seed=0):
    rng = np.random.default_rng(seed)
    return [_random_tree(rng, ["a", "b", "c", "d"], 3) for _ in range(count)]


def test_zero_exactly_for_equal_trees_and_symmetric():
    for d, e in itertools.combinations(_some_trees(), 2):
        value = tree_edit_distance(d, e)
        assert value == tree_edit_distance(e, d)
        assert (value == 0) == (d == e)
    for d in _some_trees():
        assert tree_edit_distance(d, d) == 0


def test_lemma_2_bounds_distances_of_additive_reconstructions():
    # Condition 1 and 2 of Proposition 1: primitives within 1 of each other and of 0 (a ball of
    # radius 1/2); condition 3 holds for addition under L2. Then Lemma 2:
    # ||f(d) - f(d')|| <= Δ(d, d'). A Δ that undercounts (e.g. 1 for an unmatched pair) fails.
    rng = np.random.default_rng(1)
    vectors = rng.normal(size=(4, 6))
    vectors = 0.5 * vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    table = dict(zip("abcd", vectors))

    def build(d):
        return table[d] if isinstance(d, str) else build(d[0]) + build(d[1])

    tight = 0.0
    for d, e in itertools.combinations(_some_trees(60, seed=2), 2):
        gap = tree_edit_distance(d, e) - np.linalg.norm(build(d) - build(e))
        assert gap >= -1e-9
        tight = max(tight, np.linalg.norm(build(d) - build(e)) / max(tree_edit_distance(d, e), 1))
    assert tight > 0.5  # the bound is not vacuous on these trees


def test_books_variant_breaks_lemma_2_for_addition():
    # why the book's variant needs a composition that does not grow its result (averaging)
    table = {"red": np.array([0.5, 0.0]), "circle": np.array([0.5, 0.0]),
             "blue": np.array([0.5, 0.0]), "star": np.array([0.5, 0.0])}

    def build(d):
        return table[d] if isinstance(d, str) else build(d[0]) + build(d[1])

    gap = np.linalg.norm(build("red") - build(PAIR))
    assert gap == pytest.approx(1.5)
    assert gap > trees.edit_distance("red", PAIR)
    assert gap <= tree_edit_distance("red", PAIR)


@pytest.mark.parametrize("bad, message", [
    (("a", "b", "c"), r"tree: Definition 2 is for binary derivations"),
    (("a", ("b", "c", "d")), r"tree\[1\]: Definition 2 is for binary"),
    (("a", ""), r"tree\[1\]: a primitive must be"),
])
def test_errors_name_the_bad_node(bad, message):
    with pytest.raises(ValueError, match=message):
        tree_edit_distance("a", bad)
    with pytest.raises(ValueError, match=message):
        derivation_size(bad)
