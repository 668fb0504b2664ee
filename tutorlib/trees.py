"""Derivation trees as nested tuples (Andreas 2019, Sec. 3).

A derivation is either a *primitive* (a non-empty string without spaces or brackets) or a tuple
of two or more derivations, composed left to right::

    "blue"                                   a primitive
    ("blue", "triangle")                     a blue triangle
    (("red", "circle"), ("blue", "star"))    a pair of objects

The text form writes a composition in brackets, ``(blue triangle)``; :func:`parse` and
:func:`format_tree` convert between the two. :func:`draw` plots a tree as a figure.

Examples
--------
>>> tree = parse("((red circle) (blue star))")
>>> tree
(('red', 'circle'), ('blue', 'star'))
>>> format_tree(tree)
'((red circle) (blue star))'
>>> size(tree), num_leaves(tree), depth(tree)
(7, 4, 2)
>>> primitives(tree)
['red', 'circle', 'blue', 'star']
"""

from __future__ import annotations

import re

from tutorlib.colours import PALETTE, TINTS

Tree = str | tuple

_PRIMITIVE = re.compile(r"[^\s()]+")


def check_tree(tree: object) -> Tree:
    """Return ``tree`` if it is a valid derivation, else raise ``ValueError`` saying why."""
    _check(tree, path="tree")
    return tree  # type: ignore[return-value]


def _check(tree: object, path: str) -> None:
    if isinstance(tree, str):
        if not _PRIMITIVE.fullmatch(tree):
            raise ValueError(f"{path}: a primitive must be a non-empty string without spaces or "
                             f"brackets, got {tree!r}")
    elif isinstance(tree, tuple):
        if len(tree) < 2:
            raise ValueError(f"{path}: a composition needs at least two children, got {tree!r}")
        for i, child in enumerate(tree):
            _check(child, f"{path}[{i}]")
    else:
        raise ValueError(f"{path}: a derivation is a string or a tuple, got "
                         f"{type(tree).__name__} {tree!r}")


def is_primitive(tree: Tree) -> bool:
    """Whether ``tree`` is a single primitive."""
    return isinstance(tree, str)


def size(tree: Tree) -> int:
    """Number of nodes: primitives plus compositions."""
    check_tree(tree)
    return _size(tree)


def _size(tree: Tree) -> int:
    return 1 if isinstance(tree, str) else 1 + sum(_size(child) for child in tree)


def num_leaves(tree: Tree) -> int:
    """Number of primitive occurrences."""
    return len(primitives(tree))


def depth(tree: Tree) -> int:
    """Length of the longest path from the root to a primitive (a primitive has depth 0)."""
    check_tree(tree)
    return _depth(tree)


def _depth(tree: Tree) -> int:
    return 0 if isinstance(tree, str) else 1 + max(_depth(child) for child in tree)


def primitives(tree: Tree) -> list[str]:
    """The primitives of ``tree`` from left to right (with repetitions)."""
    check_tree(tree)
    out: list[str] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
        else:
            stack.extend(reversed(node))
    return out


def subtrees(tree: Tree) -> list[Tree]:
    """Every node of ``tree`` in pre-order (the root first)."""
    check_tree(tree)
    out: list[Tree] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, tuple):
            stack.extend(reversed(node))
    return out


def format_tree(tree: Tree) -> str:
    """The bracketed text form of ``tree``, e.g. ``(blue triangle)``."""
    check_tree(tree)
    return _format(tree)


def _format(tree: Tree) -> str:
    return tree if isinstance(tree, str) else "(" + " ".join(_format(c) for c in tree) + ")"


def parse(text: str) -> Tree:
    """Parse the bracketed text form back into nested tuples.

    Raises
    ------
    ValueError
        With the character position of the problem, for unbalanced brackets, an empty or
        one-child composition, or text after the tree.
    """
    if not isinstance(text, str):
        raise ValueError(f"parse expects a string, got {type(text).__name__}")
    tokens = [(m.group(), m.start()) for m in re.finditer(r"\(|\)|[^\s()]+", text)]
    if not tokens:
        raise ValueError("cannot parse an empty string as a derivation")
    tree, end = _parse(tokens, 0, text)
    if end != len(tokens):
        raise ValueError(f"unexpected {tokens[end][0]!r} at position {tokens[end][1]} after a "
                         f"complete derivation in {text!r}")
    return tree


def _parse(tokens: list[tuple[str, int]], i: int, text: str) -> tuple[Tree, int]:
    token, position = tokens[i]
    if token == ")":
        raise ValueError(f"unexpected ')' at position {position} in {text!r}")
    if token != "(":
        return token, i + 1
    children: list[Tree] = []
    i += 1
    while True:
        if i >= len(tokens):
            raise ValueError(f"'(' at position {position} is never closed in {text!r}")
        if tokens[i][0] == ")":
            break
        child, i = _parse(tokens, i, text)
        children.append(child)
    if len(children) < 2:
        raise ValueError(f"the composition opened at position {position} has {len(children)} "
                         f"child(ren); it needs at least two, in {text!r}")
    return tuple(children), i + 1


def draw(tree: Tree, ax=None, *, title: str | None = None, fontsize: int = 11):
    """Draw ``tree`` top-down: compositions as dots, primitives as labelled leaves.

    Returns the matplotlib ``Axes``.
    """
    import matplotlib.pyplot as plt

    check_tree(tree)
    if ax is None:
        leaves = num_leaves(tree)
        _, ax = plt.subplots(figsize=(max(2.5, 1.2 * leaves), 1.0 + 0.9 * depth(tree)))
    points: list[tuple[float, float]] = []
    next_leaf = [0.0]

    def place(node: Tree, level: int) -> tuple[float, float]:
        if isinstance(node, str):
            xy = (next_leaf[0], -level)
            next_leaf[0] += 1.0
        else:
            children = [place(child, level + 1) for child in node]
            xy = (sum(x for x, _ in children) / len(children), -level)
            for cx, cy in children:
                ax.plot([xy[0], cx], [xy[1], cy], color="0.45", lw=1.2, zorder=1)
        points.append(xy)
        if isinstance(node, str):
            ax.text(xy[0], xy[1], node, ha="center", va="center", fontsize=fontsize, zorder=3,
                    bbox={"boxstyle": "round,pad=0.3", "fc": TINTS[PALETTE[0]], "ec": PALETTE[0]})
        else:
            ax.scatter([xy[0]], [xy[1]], s=40, color=PALETTE[0], zorder=2)
        return xy

    place(tree, 0)
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    ax.set_xlim(min(xs) - 0.7, max(xs) + 0.7)
    ax.set_ylim(min(ys) - 0.5, max(ys) + 0.4)
    ax.set_axis_off()
    if title:
        ax.set_title(title)
    return ax


def edit_distance(first: Tree, second: Tree) -> int:
    """The tree edit distance Δ between two derivations (Andreas 2019, Sec. 6 and App. B).

    The book's variant of the paper's Definition 2, not the paper's own (that is
    :func:`tutorlib.tre.treedist.tree_edit_distance`, where an unmatched subtree costs its number
    of primitives rather than 1: Δ(red, ((red circle) (blue star))) is 3 there, 1 here). Δ counts
    the subtree replacements that turn one derivation into the other, matching their
    shapes from the root down: Δ(d, d) = 0; two compositions with the same number of children
    are as far apart as the sum of their children's distances; anything else (two different
    primitives, a primitive and a composition, compositions of different arity) is one
    replacement, Δ = 1.

    With this variant, Proposition 1's bound holds under conditions of its own: if the
    composition moves a result no further than it moves either argument, and all representations
    lie within distance 1 of each other, then δ(f̂(d), f̂(d′)) ≤ Δ(d, d′) by the triangle
    inequality, and a representation with TRE at most ε everywhere has
    δ(f(x), f(x′)) ≤ Δ(d(x), d(x′)) + 2ε.

    Examples
    --------
    >>> edit_distance(("red", "circle"), ("red", "circle"))
    0
    >>> edit_distance(("red", "circle"), ("blue", "square"))
    2
    >>> edit_distance((("red", "circle"), "star"), ("red", "star"))
    1
    """
    check_tree(first)
    check_tree(second)
    return _edit_distance(first, second)


def _edit_distance(first: Tree, second: Tree) -> int:
    if first == second:
        return 0
    if isinstance(first, tuple) and isinstance(second, tuple) and len(first) == len(second):
        return sum(_edit_distance(a, b) for a, b in zip(first, second))
    return 1


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
