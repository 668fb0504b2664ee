import matplotlib

matplotlib.use("Agg")

import pytest

from tutorlib import trees

PAIR = (("red", "circle"), ("blue", "star"))


def test_parse_and_format_round_trip():
    text = "((red circle) (blue star))"
    assert trees.parse(text) == PAIR
    assert trees.format_tree(PAIR) == text
    for tree in ["blue", ("blue", "triangle"), PAIR, ("a", ("b", "c", "d"), "e")]:
        assert trees.parse(trees.format_tree(tree)) == tree


def test_parse_tolerates_whitespace():
    assert trees.parse("  ( blue\n triangle )  ") == ("blue", "triangle")


def test_counts_hand_checked():
    assert (trees.size("blue"), trees.num_leaves("blue"), trees.depth("blue")) == (1, 1, 0)
    assert (trees.size(PAIR), trees.num_leaves(PAIR), trees.depth(PAIR)) == (7, 4, 2)
    deep = ("a", ("b", ("c", "d")))
    assert (trees.size(deep), trees.num_leaves(deep), trees.depth(deep)) == (7, 4, 3)


def test_primitives_and_subtrees_in_order():
    assert trees.primitives(PAIR) == ["red", "circle", "blue", "star"]
    assert trees.subtrees(PAIR) == [PAIR, ("red", "circle"), "red", "circle", ("blue", "star"),
                                    "blue", "star"]


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("(blue", "never closed"),
    ("blue)", r"unexpected '\)' at position 4"),
    ("(blue)", "1 child"),
    ("()", "0 child"),
    ("(a b) c", "unexpected 'c' at position 6"),
])
def test_parse_errors_name_the_problem(text, message):
    with pytest.raises(ValueError, match=message):
        trees.parse(text)


@pytest.mark.parametrize("tree, message", [
    (("blue",), "at least two children"),
    (("blue", 3), r"tree\[1\]: a derivation is a string or a tuple"),
    (("blue", ""), "non-empty string"),
    (["blue", "star"], r"tree=\['blue', 'star'\] violates type hint"),
    (("blue star", "x"), "without spaces"),
])
def test_invalid_trees_are_rejected(tree, message):
    with pytest.raises(ValueError, match=message):
        trees.size(tree)


def test_draw_places_a_label_per_primitive():
    ax = trees.draw(PAIR, title="pair")
    labels = sorted(text.get_text() for text in ax.texts)
    assert labels == ["blue", "circle", "red", "star"]
    assert ax.get_title() == "pair"
    # one line from each composition to each of its children: 2 + 2 + 2
    assert len(ax.lines) == 6
