import doctest
import importlib

import pytest

from tutorlib import orchard

# Known answers. The first two are the examples (the second's trees, with one-digit
# children under depth-2 operators, are test3 trees of the release's generate_tree.py); the
# others are traced by hand with the release's rules: every digit is an argument, COPY k is item
# k of the first tree in level order, and an operator item stands for its subtree's value.
KNOWN = {
    "[MAX 2 4 [MAX 8 [MIN 4 9 ] ] ] X [MAX [MAX 7 0 [MAX 6 7 ] ] 7 ]": (8, 7),
    "[LAST [LAST [FIRST 3 ] [FIRST 0 ] ] 9 ] X "
    "[LAST [COPY 2 ] [FIRST [FIRST [COPY 3 ] ] [COPY 1 ] ] ]": (9, 3),
    # FIRST/LAST take the first/last digit of a two-digit value node
    "[FIRST 7 3 ] X [LAST 1 5 ]": (7, 5),
    "[LAST 7 3 [FIRST 2 ] ] X [FIRST [LAST 4 ] 9 1 ]": (2, 4),
    # MIN/MAX over every digit of every child
    "[MIN 9 8 [MAX 3 1 ] ] X [MAX 0 [MIN 6 2 7 ] 1 ]": (3, 2),
    # COPY of an operator item (item 1 = [MAX 3 8 ] = 8) and of a digit item (item 4 = 8)
    "[MIN [MAX 3 8 ] 9 ] X [FIRST [COPY 1 ] ]": (8, 8),
    "[MIN [MAX 3 8 ] 9 ] X [LAST [COPY 4 ] [COPY 2 ] ]": (8, 9),
    "[MIN [MAX 3 8 ] 9 ] X [MIN [COPY 3 ] 5 ]": (8, 3),
    # level order goes breadth first: item 2 is the root's second argument, not the MAX's 3
    "[MAX [MAX 3 1 ] 6 [MIN 2 ] ] X [FIRST [COPY 2 ] ] ": (6, 6),
    "[MAX [MAX 3 1 ] 6 [MIN 2 ] ] X [FIRST [COPY 3 ] [COPY 6 ] ]": (6, 2),
    # the operators of both variants may mix in one input: evaluate does not check the variant
    "[MIN [FIRST 4 1 ] [LAST 9 6 ] ] X [MAX [COPY 0 ] 2 ]": (4, 4),
}


@pytest.mark.parametrize("line, label", KNOWN.items())
def test_evaluate_known_answers(line, label):
    assert orchard.evaluate(line) == label


def test_level_order_items_and_values():
    first = orchard.parse_tree("[LAST [LAST [FIRST 3 ] [FIRST 0 ] ] 9 ]")
    items = orchard.level_order(first)
    names = [i.name if isinstance(i, orchard.Operator) else i.value for i in items]
    assert names == ["LAST", "LAST", 9, "FIRST", "FIRST", 3, 0]
    assert orchard.item_values(first) == [9, 0, 9, 3, 0, 3, 0]
    assert orchard.num_items(first) == 7
    assert [i.position for i in items] == [0, 1, 9, 2, 5, 3, 6]


@pytest.mark.parametrize("text, depth", [
    ("[MAX 1 ]", 1),
    ("[MAX 1 2 [MIN 3 ] ]", 2),
    ("[MAX 2 4 [MAX 8 [MIN 4 9 ] ] ]", 3),
    ("[LAST [COPY 2 ] [FIRST [FIRST [COPY 3 ] ] [COPY 1 ] ] ]", 3),
])
def test_depth_is_the_deepest_node(text, depth):
    assert orchard.depth(orchard.parse_tree(text)) == depth


def test_format_tree_round_trips_and_labels():
    line = "[LAST [LAST [FIRST 3 ] [FIRST 0 ] ] 9 ] X [LAST [COPY 2 ] [FIRST [COPY 3 ] ] ]"
    first, second = orchard.parse(line)
    assert f"{orchard.format_tree(first)} X {orchard.format_tree(second)}" == line
    assert orchard.format_label((9, 3)) == "9,3"
    assert orchard.parse_label("9,3\n") == (9, 3)
    with pytest.raises(ValueError, match="two digits 0-9"):
        orchard.parse_label("9 3")


# Malformed inputs: (input, words the message must contain). Positions count tokens from 0.
ERRORS = [
    ("[MAX 1 2 X [MIN 3 ]", ["'X' at position 3", "before the first tree is closed",
                              "'[MAX' at position 0 is still open"]),
    ("[MAX 1 [MIN 2 ] X [MIN 3 ]", ["'X' at position 5", "'[MAX' at position 0 is still open"]),
    ("[MAX 1 ] X [MIN 3 ] ]", ["unexpected ']' at position 7", "second tree ended"]),
    ("[MAX 1 ] ] X [MIN 3 ]", ["unexpected ']' at position 3"]),
    ("[MAX 1 ] X [MIN 3", ["'[MIN' at position 4", "never closed"]),
    ("[MAX 1 ] X [MIN [MAX 3 ]", ["'[MIN' at position 4", "never closed"]),
    ("[MAX 1 ] X [SUM 3 ]", ["unknown operator '[SUM' at position 4"]),
    ("[max 1 ] X [MIN 3 ]", ["unknown operator '[max' at position 0"]),
    ("[MAX 1 [MIN ] ] X [MIN 3 ]", ["'[MIN' at position 2", "has no arguments"]),
    ("[MAX 1 ] X [MIN ]", ["'[MIN' at position 4", "has no arguments"]),
    ("[MAX 1 ] [MIN 3 ]", ["no 'X'"]),
    ("[MAX 1 ] X [MIN 3 ] X [MAX 2 ]", ["extra 'X' at position 7"]),
    ("X [MIN 3 ]", ["first tree is empty"]),
    ("[MAX 1 ] X", ["second tree is empty"]),
    ("[MAX 1 ] X [MIN [COPY 3 ] ]", ["COPY at position 5", "refers to item 3",
                                      "outside the first tree", "2 items"]),
    ("[MAX [COPY 0 ] ] X [MIN 3 ]", ["COPY at position 1", "first tree"]),
    ("[MAX 1 ] X [MIN [COPY ] ]", ["COPY at position 5", "'[COPY k ]'"]),
    ("[MAX 1 ] X [MIN [COPY 0 1 ] ]", ["COPY at position 5", "'[COPY k ]'"]),
    ("[MAX 1 ] X [MIN [COPY -1 ] ]", ["COPY at position 5", "'[COPY k ]'"]),
    ("[MAX 12 ] X [MIN 3 ]", ["unknown token '12' at position 1", "each digit"]),
    ("[MAX 1 a ] X [MIN 3 ]", ["unknown token 'a' at position 2"]),
    ("3 X [MIN 3 ]", ["must start with an operator", "'3' at position 0"]),
    ("[MAX 1 ] 2 X [MIN 3 ]", ["unexpected '2' at position 3", "one root operator"]),
    ("[MAX 1 ] X [MIN 3 ] [MAX 4 ]", ["unexpected '[MAX' at position 7"]),
    ("[COPY 0 ] X [MIN 3 ]", ["first tree must start with an operator", "position 0"]),
    ("[MAX 1 ] X [COPY 0 ]", ["second tree must start with an operator", "position 4"]),
]


@pytest.mark.parametrize("line, words", ERRORS)
def test_malformed_input_names_the_problem_and_position(line, words):
    with pytest.raises(ValueError) as caught:
        orchard.evaluate(line)
    message = str(caught.value)
    for word in words:
        assert word in message, message


def test_non_string_input_is_rejected():
    with pytest.raises(ValueError, match=r"line=\['\[MAX', '1', '\]'\] violates type hint"):
        orchard.evaluate(["[MAX", "1", "]"])


@pytest.mark.parametrize("module", ["__init__", "language", "generator", "files", "stats"])
def test_docstring_examples_run(module):
    name = "tutorlib.orchard" if module == "__init__" else f"tutorlib.orchard.{module}"
    failed, tried = doctest.testmod(importlib.import_module(name))
    assert failed == 0 and tried > 0


def test_a_label_is_two_ascii_digits():
    from tutorlib.orchard.language import parse_label

    assert parse_label(" 8 , 7") == (8, 7)
    for bad in ("10,7", "\u0663,\u0664", "8,", "8,7,1", "a,b"):  # a tree's value is one digit
        with pytest.raises(ValueError, match="two digits 0-9"):
            parse_label(bad)
    with pytest.raises(TypeError, match="label=\"None\" violates type hint"):
        parse_label(None)


def test_deep_trees_have_a_value_and_a_text():
    """value and format_tree work without recursion: a tree 5,000 operators deep."""
    from tutorlib.orchard import language

    deep = language.Digit(4)
    for i in range(5_000):
        deep = language.Operator("MAX", (language.Digit(i % 10), deep))
    assert language.value(deep) == 9
    text = language.format_tree(deep)
    assert text.startswith("[MAX 9 [MAX 8") and text.endswith("4" + " ]" * 5_000)
    assert language.format_tree(language.parse_tree("[MAX 2 [MIN 3 [COPY 0 ] ] 5 ]")) == \
        "[MAX 2 [MIN 3 [COPY 0 ] ] 5 ]"
    with pytest.raises(TypeError, match="tree=.* violates type hint"):
        language.value("[MAX 2 3 ]")


def test_nested_reads_a_tree_as_tuples_for_tre_and_divergence():
    """nested: operators as (name, *arguments), digits as their value or one leaf "n", COPY as
    one leaf; the card's TRE and divergence both read ORCHARD through it."""
    from tutorlib.card import tasks
    from tutorlib.orchard import language

    first, second = orchard.parse("[MAX 2 [MIN 4 9 ] ] X [LAST [COPY 1 ] 7 ]")
    assert orchard.nested(first) == ("MAX", "2", ("MIN", "4", "9"))
    assert orchard.nested(second, digits=False) == ("LAST", "COPY", "n")
    assert orchard.nested(language.Digit(5)) == "5"
    line = "[FIRST 7 2 ] X [LAST 3 ]"
    assert tasks.derivation("orchard", line) == (((("FIRST", "7"), "2"), "X"), ("LAST", "3"))
    deep = language.Digit(4)
    for _ in range(5_000):  # no recursion, as value and format_tree
        deep = language.Operator("MIN", (deep,))
    depth = 0
    tree = orchard.nested(deep)
    while isinstance(tree, tuple):
        tree, depth = tree[1], depth + 1
    assert (depth, tree) == (5_000, "4")
    with pytest.raises(TypeError, match="tree='7' violates type hint"):
        orchard.nested("7")
    with pytest.raises(TypeError, match="Operator, Digit and Copy items, got str"):
        orchard.nested(language.Operator("MAX", ("7",)))
