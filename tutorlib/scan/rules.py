"""SCAN's rule-application trees and its maximum-compound-divergence splits (Keysers et al. 2020,
Sec. 5, on the grammar of Lake & Baroni 2018).

Every rule of SCAN's grammar (see :mod:`tutorlib.scan`) applied in a command is a node, the unary
rules included, labelled by the rule as the grammar writes it; lexical rules are leaves::

    rule_tree("jump twice")
    ('C -> S', ('S -> V twice', ('V -> U', 'U -> jump')))

In ``V -> D[1] opposite D[2]`` and ``V -> D[1] around D[2]`` the two D's are one D of the grammar
(``jump around left`` applies ``D -> U left`` once), so these nodes have one child, that D.

:func:`mcd_split_of_scan` builds an MCD split of all 20,910 commands with
:func:`tutorlib.dbca.mcd_split` at the sizes of the released SCAN MCD splits (train 8,365,
test 1,045: 40% and 5%).
"""

from __future__ import annotations

from functools import lru_cache

from tutorlib import dbca
from tutorlib.cache import cached
from tutorlib.scan import grammar

# Only grammar.parse, grammar.derivations and grammar.all_pairs are used, so that this module does not
# depend on how tutorlib.scan lays out its helpers.
Tree = str | tuple  # a derivation of tutorlib.scan.parse
Pair = tuple[str, str]  # (command, actions)
REPEATS = ("twice", "thrice")
CONJUNCTIONS = ("and", "after")

MCD_TRAIN_SIZE = 8_365
MCD_TEST_SIZE = 1_045
# Bump when the pool or the split construction changes, so that cached ones are recomputed
# (tutorlib.cache).
CACHE_FORMAT = 1


def rule_tree(command: str | Tree) -> tuple:
    """The rule-application tree of a SCAN command (a string, or its derivation from
    :func:`tutorlib.scan.parse`).

    Raises
    ------
    ValueError
        From :func:`tutorlib.scan.parse`, naming the word and position, for a command outside
        the grammar.

    Examples
    --------
    >>> rule_tree("walk left after turn around right")
    ('C -> S after S', ('S -> V', ('V -> D', ('D -> U left', 'U -> walk'))), \
('S -> V', ('V -> D[1] around D[2]', 'D -> turn right')))
    """
    tree = grammar.parse(command) if isinstance(command, str) else command
    if isinstance(tree, tuple) and len(tree) == 3 and tree[1] in CONJUNCTIONS:
        return (f"C -> S {tree[1]} S", _s(tree[0]), _s(tree[2]))
    return ("C -> S", _s(tree))


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


@lru_cache(maxsize=1)
def scan_pool() -> dbca.Pool:
    """The :class:`tutorlib.dbca.Pool` of all 20,910 SCAN commands, in :func:`tutorlib.scan.all_pairs`
    order: atoms, compounds and their weights (about 10 s to build; cached on disk)."""
    return cached("scan-dbca-pool", {},
                  lambda: dbca.build_pool([rule_tree(t) for t in grammar.derivations()]),
                  format=CACHE_FORMAT)


def scan_divergences(train: list[Pair] | list[str], test: list[Pair] | list[str]
                     ) -> tuple[float, float]:
    """(D_A, D_C) of any split of SCAN: lists of (command, actions) pairs or of commands.

    Compounds are weighted over all 20,910 commands (:func:`scan_pool`); a pair listed twice
    (as in the ``addprim`` training sets) counts twice.

    Raises
    ------
    ValueError
        For an empty side, or a command that SCAN's grammar does not generate.
    """
    row = {command: i for i, (command, _) in enumerate(grammar.all_pairs())}

    def rows(pairs: list, name: str) -> list[int]:
        out = []
        for i, pair in enumerate(pairs):
            command = pair if isinstance(pair, str) else pair[0]
            if command not in row:
                grammar.parse(command)  # names the bad word and its position
                raise ValueError(f"{name}[{i}]: {command!r} is not a SCAN command")
            out.append(row[command])
        return out

    return scan_pool().divergences(rows(train, "train"), rows(test, "test"))


def mcd_split_of_scan(seed: int = 0, *, compound_divergence: float | None = None,
                      max_atom_divergence: float = 0.02, progress: bool = False
                      ) -> tuple[list[Pair], list[Pair]]:
    """MCD split number ``seed`` of SCAN: (train pairs, test pairs), 8,365 and 1,045 of them.

    ``compound_divergence=None`` makes D_C as high as the greedy search reaches with
    D_A <= ``max_atom_divergence`` (the paper's MCD splits); a number asks for that D_C instead.
    Cached on disk, keyed by all arguments. :func:`mcd_result_of_scan` gives the divergences.
    """
    result = mcd_result_of_scan(seed, compound_divergence=compound_divergence,
                                max_atom_divergence=max_atom_divergence, progress=progress)
    pairs = grammar.all_pairs()
    return [pairs[i] for i in result.train], [pairs[i] for i in result.test]


def mcd_result_of_scan(seed: int = 0, *, compound_divergence: float | None = None,
                       max_atom_divergence: float = 0.02, progress: bool = False
                       ) -> dbca.SplitResult:
    """The :class:`tutorlib.dbca.SplitResult` behind :func:`mcd_split_of_scan` (cached on disk)."""
    config = {"seed": seed, "compound_divergence": compound_divergence,
              "max_atom_divergence": max_atom_divergence, "train_size": MCD_TRAIN_SIZE,
              "test_size": MCD_TEST_SIZE}
    return cached("scan-mcd-split", config, lambda: dbca.mcd_split(
        scan_pool(), MCD_TRAIN_SIZE, MCD_TEST_SIZE, compound_divergence=compound_divergence,
        max_atom_divergence=max_atom_divergence, seed=seed, progress=progress),
        format=CACHE_FORMAT)
