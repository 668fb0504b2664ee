"""SCAN's rule-application trees and its maximum-compound-divergence splits (Keysers et al. 2020,
Sec. 5, on the grammar of Lake & Baroni 2018).

Every rule of SCAN's grammar (see :mod:`tutorlib.scan`) applied in a command is a node, the unary
rules included, labelled by the rule as the grammar writes it; lexical rules are leaves::

    rule_tree("jump twice")
    ('C -> S', ('S -> V twice', ('V -> U', 'U -> jump')))

In ``V -> D[1] opposite D[2]`` and ``V -> D[1] around D[2]`` the two D's are one D of the grammar
(``jump around left`` applies ``D -> U left`` once), so these nodes have one child, that D.

DBCA measures and splits SCAN with these trees (:mod:`tutorlib.dbca.scan_splits`); this module
needs nothing of DBCA.
"""

from __future__ import annotations

from tutorlib.scan import grammar
from tutorlib.scan.grammar import CONJUNCTIONS, REPEATS

# Only grammar.parse, grammar.derivations and grammar.all_pairs are used, so that this module does not
# depend on how tutorlib.scan lays out its helpers.
Tree = str | tuple  # a derivation of tutorlib.scan.parse
Pair = tuple[str, str]  # (command, actions)


def rule_tree(command: str | Tree) -> tuple:
    """The rule-application tree of a SCAN command (a string, or its derivation from
    :func:`tutorlib.scan.parse`).

    Parameters
    ----------
    command : str or tuple
        A SCAN command, or its derivation as :func:`tutorlib.scan.parse` gives it.

    Returns
    -------
    tuple
        The tree as nested tuples ``(label, child, ...)``, labelled by the rules as the grammar
        writes them, with lexical rules (``U -> walk``, ``D -> turn left``) as leaf strings; the
        root is ``C -> S``, ``C -> S and S`` or ``C -> S after S``. :func:`tutorlib.dbca.from_tree`
        reads this form.

    Raises
    ------
    ValueError
        From :func:`tutorlib.scan.parse`, naming the word and position, for a command outside
        the grammar; for a tuple that is not a derivation :func:`tutorlib.scan.parse` gives.

    Examples
    --------
    >>> rule_tree("walk left after turn around right")
    ('C -> S after S', ('S -> V', ('V -> D', ('D -> U left', 'U -> walk'))), \
('S -> V', ('V -> D[1] around D[2]', 'D -> turn right')))
    """
    tree = grammar.parse(command) if isinstance(command, str) else _derivation(command)
    if isinstance(tree, tuple) and len(tree) == 3 and tree[1] in CONJUNCTIONS:
        return (f"C -> S {tree[1]} S", _s(tree[0]), _s(tree[2]))
    return ("C -> S", _s(tree))


def _derivation(tree: object) -> Tree:
    """``tree`` once it is a derivation :func:`tutorlib.scan.parse` gives (checked by writing its
    command out and parsing it back)."""
    try:
        command = grammar.command_of(tree)
        same = grammar.parse(command) == tree
    except (TypeError, ValueError, IndexError, AttributeError):
        same = False
    if not same:
        raise ValueError(f"not a SCAN derivation (give a command, or its tree from "
                         f"tutorlib.scan.parse, e.g. parse('jump twice') == ('jump', 'twice')): "
                         f"{tree!r}")
    return tree


def _s(s: Tree) -> tuple:
    if isinstance(s, tuple) and len(s) == 2 and s[1] in REPEATS:
        return (f"S -> V {s[1]}", _v(s[0]))
    return ("S -> V", _v(s))


def _v(v: Tree) -> tuple:
    if isinstance(v, str):
        return ("V -> U", f"U -> {v}")
    if len(v) == 2:
        return ("V -> D", _d(v[0], v[1]))
    return (f"V -> D[1] {v[1]} D[2]", _d(v[0], v[2]))


def _d(head: str, direction: str) -> tuple | str:
    if head == "turn":
        return f"D -> turn {direction}"
    return (f"D -> U {direction}", f"U -> {head}")
