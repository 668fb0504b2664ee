"""The ORCHARD language: two cross-referencing trees and their values.

Pung & Chan (2021), "ORCHARD: A Benchmark For Measuring Systematic Generalization of
Multi-Hierarchical Reasoning": the dataset's description and its Fig. 1, with the details of the
release's ``generate_tree.py`` (https://github.com/billptw/Orchard) where the paper is silent.

An input is two trees in prefix notation separated by ``X``; every token is separated by a
space. In the grammar below ``d`` is one digit and ``k`` a non-negative integer::

    input    -> tree X tree
    tree     -> [OP argument+ ]
    argument -> d | tree | [COPY k ]          (COPY only in the second tree)
    OP       -> FIRST | LAST | MIN | MAX

An operator's value is taken over all of its arguments in order: ``FIRST`` the first, ``LAST`` the
last, ``MIN`` the smallest, ``MAX`` the largest. The release's generator writes a *value node* of
one or two digits, and each digit is a separate argument (``[MAX 2 4 [MIN 4 9 ] ]`` has the
arguments 2, 4 and the MIN). ``[COPY k ]`` is one argument whose value is that of the k-th item
(from 0) of the first tree in *level order*, breadth first and left to right, where every
operator is one item (standing for its subtree's value) and every digit is one item::

    [LAST [LAST [FIRST 3 ] [FIRST 0 ] ] 9 ]        level order: LAST LAST 9 FIRST FIRST 3 0
                                                   item values:   9    0  9   3     0   3 0

A node's depth counts edges from the root (depth 0); a digit or COPY sits one level below its
operator, and a tree's depth is that of its deepest node. The label of an input is the values of
both trees, ``v1,v2``: :func:`evaluate` computes it.

Examples
--------
>>> evaluate("[MAX 2 4 [MAX 8 [MIN 4 9 ] ] ] X [MAX [MAX 7 0 [MAX 6 7 ] ] 7 ]")
(8, 7)
>>> first, second = parse("[LAST [LAST [FIRST 3 ] [FIRST 0 ] ] 9 ] X [LAST [COPY 2 ] [FIRST 1 ] ]")
>>> item_values(first), depth(first), depth(second)
([9, 0, 9, 3, 0, 3, 0], 3, 2)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

OPERATORS = ("FIRST", "LAST", "MIN", "MAX")
SEPARATOR = "X"
COPY = "COPY"
DIGITS = tuple(str(d) for d in range(10))

_APPLY = {
    "FIRST": lambda values: values[0],
    "LAST": lambda values: values[-1],
    "MIN": min,
    "MAX": max,
}


@dataclass(frozen=True, slots=True)
class Digit:
    """One digit argument; ``position`` is its token's index in the input (from 0)."""

    value: int
    position: int = -1

    def __post_init__(self) -> None:  # cheap: the parser makes millions of these
        if type(self.value) is not int or not 0 <= self.value <= 9 or type(self.position) is not int:
            raise ValueError(f"Digit needs a value from 0 to 9 and an integer position, got "
                             f"value={self.value!r}, position={self.position!r}")


@dataclass(frozen=True, slots=True)
class Copy:
    """``[COPY k ]``: the value of item ``index`` of the first tree in level order."""

    index: int
    position: int = -1

    def __post_init__(self) -> None:
        if type(self.index) is not int or self.index < 0 or type(self.position) is not int:
            raise ValueError(f"Copy needs a non-negative integer index and an integer position, "
                             f"got index={self.index!r}, position={self.position!r}")


@dataclass(frozen=True, slots=True)
class Operator:
    """``[name arguments... ]``; ``position`` is the index of its ``[name`` token."""

    name: str
    arguments: tuple[Argument, ...]
    position: int = -1

    def __post_init__(self) -> None:
        if (type(self.name) is not str or self.name not in _APPLY
                or type(self.arguments) is not tuple or not self.arguments
                or type(self.position) is not int):
            raise ValueError(f"Operator needs a name from {', '.join(OPERATORS)}, a non-empty "
                             f"tuple of arguments and an integer position, got "
                             f"name={self.name!r}, arguments={self.arguments!r}")


Argument = Digit | Copy | Operator
Item = Digit | Copy | Operator


# ---------------------------------------------------------------------------------------------
# Parsing


def tokenize(line: str) -> list[str]:
    """The tokens of an input line (it is split on white space).

    Parameters
    ----------
    line : str
        An input line, or a part of one such as a single tree.

    Returns
    -------
    list of str
        The tokens in order.
    """
    if not isinstance(line, str):
        raise ValueError(f"an ORCHARD input is a string, got {type(line).__name__}")
    return line.split()


def parse(line: str) -> tuple[Operator, Operator]:
    """The two trees of an input line.

    Parameters
    ----------
    line : str
        An input: two trees separated by ``X``, tokens separated by white space.

    Returns
    -------
    tuple of (Operator, Operator)
        The first and the second tree; each node's ``position`` is its token's index in ``line``.

    Raises
    ------
    ValueError
        Naming the problem and the offending token's position (counting tokens from 0): an
        unbalanced bracket, an unknown operator or token, an operator with no arguments, a missing
        or extra ``X``, COPY in the first tree, a COPY index outside the first tree.

    Examples
    --------
    >>> parse("[MIN 3 ] X [MAX [COPY 0 ] 7 ]")[1]
    Operator(name='MAX', arguments=(Copy(index=0, position=5), Digit(value=7, position=8)), \
position=4)
    """
    tokens = tokenize(line)
    separators = [i for i, token in enumerate(tokens) if token == SEPARATOR]
    if not separators:
        raise ValueError(f"no {SEPARATOR!r} in {line!r}: an input is two trees separated by "
                         f"{SEPARATOR!r}")
    open_positions: list[int] = []
    for i, token in enumerate(tokens[:separators[0]]):
        if token.startswith("["):
            open_positions.append(i)
        elif token == "]" and open_positions:
            open_positions.pop()
    if open_positions:
        i = open_positions[-1]
        raise ValueError(f"{SEPARATOR!r} at position {separators[0]} in {line!r} comes before the "
                         f"first tree is closed: {tokens[i]!r} at position {i} is still open")
    if len(separators) > 1:
        raise ValueError(f"extra {SEPARATOR!r} at position {separators[1]} in {line!r}: an input "
                         f"has exactly two trees and one {SEPARATOR!r}")
    cut = separators[0]
    first = _parse_tree(tokens, 0, cut, line, "the first tree", allow_copy=False)
    second = _parse_tree(tokens, cut + 1, len(tokens), line, "the second tree", allow_copy=True)
    size = num_items(first)
    for node in _walk(second):
        if isinstance(node, Copy) and node.index >= size:
            raise ValueError(f"COPY at position {node.position} in {line!r} refers to item "
                             f"{node.index}, outside the first tree, whose {size} items are "
                             f"numbered 0 to {size - 1}")
    return first, second


def parse_tree(text: str, *, allow_copy: bool = True) -> Operator:
    """One tree on its own (COPY indices are not checked: there is no first tree to check them
    against). Positions count the tokens of ``text``.

    Parameters
    ----------
    text : str
        One tree in prefix notation, e.g. ``"[MAX 2 [COPY 0 ] ]"``.
    allow_copy : bool
        Accept ``[COPY k ]`` arguments, as in a second tree; with ``False`` a COPY is an error.

    Returns
    -------
    Operator
        The tree's root operator.
    """
    tokens = tokenize(text)
    return _parse_tree(tokens, 0, len(tokens), text, "the tree", allow_copy=allow_copy)


def _is_index(token: str) -> bool:
    return token.isascii() and token.isdigit()


def _parse_tree(tokens: list[str], start: int, end: int, line: str, which: str, *,
                allow_copy: bool) -> Operator:
    if start == end:
        raise ValueError(f"{which} is empty in {line!r}")
    if not tokens[start].startswith("[") or tokens[start] == "[" + COPY:
        raise ValueError(f"{which} must start with an operator such as '[MAX', got "
                         f"{tokens[start]!r} at position {start} in {line!r}")
    # An explicit stack: trees of depth 12 and more would be deep recursions for no gain. The
    # first token opens an operator, so the stack is empty only once the root has closed.
    stack: list[tuple[str, int, list[Argument]]] = []
    root: Operator | None = None
    i = start
    while i < end:
        token = tokens[i]
        if root is not None:
            raise ValueError(f"unexpected {token!r} at position {i} in {line!r}: {which} ended "
                             f"at position {i - 1} (a tree has one root operator)")
        if token == "]":
            name, position, arguments = stack.pop()
            if not arguments:
                raise ValueError(f"operator '[{name}' at position {position} in {line!r} has no "
                                 f"arguments")
            node = Operator(name, tuple(arguments), position)
            if stack:
                stack[-1][2].append(node)
            else:
                root = node
        elif token == "[" + COPY:
            if not allow_copy:
                raise ValueError(f"COPY at position {i} in {line!r} is in the first tree; COPY "
                                 f"may only appear in the second tree")
            if i + 2 >= end or not _is_index(tokens[i + 1]) or tokens[i + 2] != "]":
                got = " ".join(tokens[i:min(i + 3, end)])
                raise ValueError(f"COPY at position {i} in {line!r} must read '[COPY k ]' with k "
                                 f"a non-negative integer, got {got!r}")
            stack[-1][2].append(Copy(int(tokens[i + 1]), i))
            i += 2
        elif token.startswith("["):
            name = token[1:]
            if name not in OPERATORS:
                raise ValueError(f"unknown operator {token!r} at position {i} in {line!r}; the "
                                 f"operators are {', '.join('[' + o for o in OPERATORS)}"
                                 + (" and [COPY" if allow_copy else ""))
            stack.append((name, i, []))
        elif token in DIGITS:
            stack[-1][2].append(Digit(int(token), i))
        else:
            hint = (" (each digit is its own token: write '1 2', not '12')" if token.isdigit()
                    else "")
            raise ValueError(f"unknown token {token!r} at position {i} in {line!r}{hint}")
        i += 1
    if stack:
        name, position, _ = stack[-1]
        raise ValueError(f"operator '[{name}' at position {position} in {line!r} is never closed")
    assert root is not None
    return root


# ---------------------------------------------------------------------------------------------
# Structure


def _walk(tree: Operator) -> Iterator[Item]:
    """Every node of ``tree`` in pre-order."""
    stack: list[Item] = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Operator):
            stack.extend(reversed(node.arguments))


def level_order(tree: Operator) -> list[Item]:
    """The items of ``tree`` breadth first, left to right: operators, digits and COPYs.

    Each operator, digit and COPY is one item; COPY's index indexes this list for the first tree.

    Parameters
    ----------
    tree : Operator
        A tree from :func:`parse` or :func:`parse_tree`.

    Returns
    -------
    list of Operator, Digit or Copy
        The items, starting with ``tree`` itself.
    """
    out: list[Item] = []
    level: list[Item] = [tree]
    while level:
        out.extend(level)
        level = [a for node in level if isinstance(node, Operator) for a in node.arguments]
    return out


def num_items(tree: Operator) -> int:
    """How many items ``tree`` has in level order (the range of a COPY index into it).

    Parameters
    ----------
    tree : Operator
        A tree from :func:`parse` or :func:`parse_tree`.

    Returns
    -------
    int
        The number of operators, digits and COPYs, ``len(level_order(tree))``.
    """
    return sum(1 for _ in _walk(tree))


def depth(tree: Operator) -> int:
    """The depth of the deepest node (the root has depth 0; a digit or COPY is one below its
    operator), as the release measures a tree's depth.

    Parameters
    ----------
    tree : Operator
        A tree from :func:`parse` or :func:`parse_tree`.

    Returns
    -------
    int
        The depth in edges from the root; at least 1 for a parsed tree.
    """
    deepest = 0
    stack: list[tuple[Item, int]] = [(tree, 0)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(node, Operator):
            stack.extend((a, level + 1) for a in node.arguments)
    return deepest


def value(tree: Item, reference: list[int] | None = None) -> int:
    """The value of a tree (or of any item); ``reference`` is the first tree's
    :func:`item_values`, needed to resolve COPY.

    Parameters
    ----------
    tree : Operator, Digit or Copy
        A tree or any item of one.
    reference : list of int, optional
        The first tree's item values in level order; required when ``tree`` holds a COPY.

    Returns
    -------
    int
        The value, a digit from 0 to 9.
    """
    def leaf(item: Digit | Copy) -> int:
        if isinstance(item, Digit):
            return item.value
        if reference is None:
            raise ValueError(f"COPY {item.index} at position {item.position} needs the first tree "
                             f"to refer to")
        if not 0 <= item.index < len(reference):
            raise ValueError(f"COPY {item.index} at position {item.position} refers to item "
                             f"{item.index} of the first tree, which has {len(reference)} item(s) "
                             f"(reference holds the first tree's item_values)")
        return reference[item.index]

    if not isinstance(tree, (Digit, Copy, Operator)):
        raise TypeError(f"tree must be an Operator, Digit or Copy, got {type(tree).__name__}")
    # without recursion, so that a tree of any depth has a value: a stack of operators whose
    # arguments are being evaluated, each with the values found so far
    if not isinstance(tree, Operator):
        return leaf(tree)
    stack: list[tuple[Operator, list[int]]] = [(tree, [])]
    while True:
        operator, found = stack[-1]
        if len(found) < len(operator.arguments):
            argument = operator.arguments[len(found)]
            if isinstance(argument, Operator):
                stack.append((argument, []))
            else:
                found.append(leaf(argument))
            continue
        result = _APPLY[operator.name](found)
        stack.pop()
        if not stack:
            return result
        stack[-1][1].append(result)


def item_values(tree: Operator, reference: list[int] | None = None) -> list[int]:
    """The value of every item of ``tree`` in level order (what ``[COPY k ]`` refers to).

    Parameters
    ----------
    tree : Operator
        A tree from :func:`parse` or :func:`parse_tree`.
    reference : list of int, optional
        The first tree's item values; required when ``tree`` holds a COPY (a second tree).

    Returns
    -------
    list of int
        One value per item of :func:`level_order`; the first is the value of ``tree``.
    """
    return [value(item, reference) for item in level_order(tree)]


def evaluate(line: str) -> tuple[int, int]:
    """The label of an input: the values of its first and second tree.

    Parameters
    ----------
    line : str
        An input: two trees separated by ``X``.

    Returns
    -------
    tuple of (int, int)
        The values of the first and the second tree, each a digit from 0 to 9.

    Raises
    ------
    ValueError
        For malformed input, naming the problem and the token position (see :func:`parse`).

    Examples
    --------
    >>> evaluate("[LAST [LAST [FIRST 3 ] [FIRST 0 ] ] 9 ] X "
    ...          "[LAST [COPY 2 ] [FIRST [FIRST [COPY 3 ] ] [COPY 1 ] ] ]")
    (9, 3)
    """
    first, second = parse(line)
    reference = item_values(first)
    return reference[0], value(second, reference)


def format_tree(tree: Operator) -> str:
    """The text of a tree, in the release's spacing (``[MAX 2 [COPY 0 ] ]``).

    Parameters
    ----------
    tree : Operator
        A tree (a :class:`Digit` or :class:`Copy` on its own is written too).

    Returns
    -------
    str
        Tokens separated by single spaces; positions are not written.
    """
    tokens: list[str] = []
    pending: list[Argument | str] = [tree]  # items to write, and closing brackets, last first
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            tokens.append(item)
        elif isinstance(item, Digit):
            tokens.append(str(item.value))
        elif isinstance(item, Copy):
            tokens.append(f"[{COPY} {item.index} ]")
        elif isinstance(item, Operator):
            tokens.append(f"[{item.name}")
            pending.append("]")
            pending.extend(reversed(item.arguments))
        else:
            raise TypeError(f"a tree holds Operator, Digit and Copy items, got "
                            f"{type(item).__name__}")
    return " ".join(tokens)


def nested(tree: Item, *, digits: bool = True):
    """A tree as nested tuples, for measures that read structure (TRE, compound divergence).

    Parameters
    ----------
    tree : Operator, Digit or Copy
        A tree, e.g. one of the two that :func:`parse` returns.
    digits : bool, default True
        Write a digit as its value (``"7"``); False writes every digit as one leaf ``"n"``, for a
        measure that counts how operators combine, not which numbers they hold.

    Returns
    -------
    str or tuple
        An operator as ``(name, *arguments)``, a digit as above, a ``[COPY k ]`` as ``"COPY"``.

    Examples
    --------
    >>> nested(parse_tree("[MAX 2 [MIN 4 9 ] [COPY 0 ] ]"))
    ('MAX', '2', ('MIN', '4', '9'), 'COPY')
    >>> nested(parse_tree("[FIRST 3 ]"), digits=False)
    ('FIRST', 'n')
    """
    def leaf(item):
        if isinstance(item, Digit):
            return str(item.value) if digits else "n"
        if isinstance(item, Copy):
            return COPY
        raise TypeError(f"a tree holds Operator, Digit and Copy items, got {type(item).__name__}")

    if not isinstance(tree, Operator):
        return leaf(tree)
    # without recursion, as value and format_tree: (operator, converted arguments so far)
    stack: list[tuple[Operator, list]] = [(tree, [])]
    while True:
        operator, done = stack[-1]
        if len(done) == len(operator.arguments):
            stack.pop()
            result = (operator.name, *done)
            if not stack:
                return result
            stack[-1][1].append(result)
            continue
        child = operator.arguments[len(done)]
        if isinstance(child, Operator):
            stack.append((child, []))
        else:
            done.append(leaf(child))


def format_label(values: tuple[int, int]) -> str:
    """A label as the release writes it: ``v1,v2``.

    Parameters
    ----------
    values : tuple of (int, int)
        The values of the two trees, e.g. from :func:`evaluate`.

    Returns
    -------
    str
        The two values separated by a comma, without spaces, e.g. ``"8,7"``.
    """
    return f"{values[0]},{values[1]}"


def parse_label(label: str) -> tuple[int, int]:
    """Read a ``v1,v2`` label back into two integers.

    Parameters
    ----------
    label : str
        Two digits 0-9 (a tree's value is one) separated by a comma, e.g. ``"8,7"``; white
        space around either digit is ignored.

    Returns
    -------
    tuple of (int, int)
        The values of the first and the second tree.
    """
    if not isinstance(label, str):
        raise TypeError(f"a label is a string such as '8,7', got {type(label).__name__} {label!r}")
    parts = [part.strip() for part in label.strip().split(",")]
    # every value of an ORCHARD tree is one of the ten ASCII digits (DIGITS)
    if len(parts) != 2 or not all(part in DIGITS for part in parts):
        raise ValueError(f"a label is two digits 0-9 separated by a comma, e.g. '8,7'; got "
                         f"{label!r}")
    return int(parts[0]), int(parts[1])
