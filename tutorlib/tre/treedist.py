"""The tree edit distance of Andreas (2019), App. B, Definitions 1 and 2, as the paper writes it.

Derivations are binary (:mod:`tutorlib.trees`: a primitive, or a pair of derivations). The size
of a derivation (Definition 1) counts its primitives, and the distance (Definition 2) is the
cheapest way to match two derivations from the root down, where a subtree left unmatched costs
its size::

    Δ(a, b)            = 0 if a = b else 1                       (two primitives)
    Δ(a, <d_j, d_k>)   = min(Δ(a, d_j) + |d_k|, Δ(a, d_k) + |d_j|)
    Δ(<d_i, d_j>, <d_k, d_l>) = min(Δ(d_i, d_k) + Δ(d_j, d_l),
                                    Δ(<d_i, d_j>, d_k) + |d_l|, Δ(<d_i, d_j>, d_l) + |d_k|,
                                    Δ(<d_k, d_l>, d_i) + |d_j|, Δ(<d_k, d_l>, d_j) + |d_i|)

The paper prints the first line as the indicator 𝕀[i = j]; the base case of its proof (Lemma 2:
0 for equal primitives, 1 for different ones) is the indicator of i ≠ j, which is what we
compute. A pair against a primitive is the primitive against the pair.

:func:`tutorlib.trees.edit_distance` is the book's simpler variant (an unmatched subtree costs
1, not its size). Chapter 9 compares the two.

Examples
--------
>>> tree_edit_distance("red", (("red", "circle"), ("blue", "star")))
3
>>> tree_edit_distance(("red", "circle"), ("blue", "circle"))
1
>>> derivation_size((("red", "circle"), ("blue", "star")))
4
"""

from __future__ import annotations

from functools import cache

from tutorlib.trees import Tree, check_tree


def _check_binary(tree: Tree, path: str = "tree") -> None:
    if isinstance(tree, tuple):
        if len(tree) != 2:
            raise ValueError(f"{path}: Definition 2 is for binary derivations, got a composition "
                             f"of {len(tree)} children: {tree!r}")
        for i, child in enumerate(tree):
            _check_binary(child, f"{path}[{i}]")


def _checked(tree: object) -> Tree:
    check_tree(tree)
    _check_binary(tree)  # type: ignore[arg-type]
    return tree  # type: ignore[return-value]


def derivation_size(tree: Tree) -> int:
    """|d|, Definition 1: 1 for a primitive, |d_a| + |d_b| for a pair (its primitives)."""
    return _size(_checked(tree))


def tree_edit_distance(first: Tree, second: Tree) -> int:
    """Δ(d, d′), Definition 2 of Andreas (2019, App. B), for two binary derivations.

    Raises
    ------
    ValueError
        If either is not a derivation (the message gives the path to the bad node), or has a
        composition of more than two children.
    """
    return _delta(_checked(first), _checked(second))


@cache
def _size(tree: Tree) -> int:
    return 1 if isinstance(tree, str) else _size(tree[0]) + _size(tree[1])


@cache
def _delta(d: Tree, e: Tree) -> int:
    if isinstance(d, str) and isinstance(e, str):  # two primitives
        return 0 if d == e else 1
    if isinstance(e, str):  # a pair against a primitive: the primitive against the pair
        d, e = e, d
    if isinstance(d, str):  # a primitive against a pair: match one part, delete the other
        d_j, d_k = e
        return min(_delta(d, d_j) + _size(d_k), _delta(d, d_k) + _size(d_j))
    (d_i, d_j), (d_k, d_l) = d, e  # two pairs: match part to part, or one pair to a part
    return min(_delta(d_i, d_k) + _delta(d_j, d_l),
               _delta(d, d_k) + _size(d_l), _delta(d, d_l) + _size(d_k),
               _delta(e, d_i) + _size(d_j), _delta(e, d_j) + _size(d_i))

__all__ = ["derivation_size", "tree_edit_distance"]

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
