"""DBCA on SCAN (Keysers et al. 2020, Sec. 5): the pool of all 20,910 SCAN commands, the
divergences of any split of SCAN, and SCAN's maximum-compound-divergence splits.

Each command is a rule-application tree (:func:`tutorlib.scan.rules.rule_tree`);
:func:`mcd_split_of_scan` builds an MCD split of all commands with
:func:`tutorlib.dbca.mcd_split` at the sizes of the released SCAN MCD splits (train 8,365,
test 1,045: 40% and 5%). ``tutorlib.scan.split("mcd", seed=k)`` is the same split.
"""

from __future__ import annotations

from functools import lru_cache

from tutorlib.cache import cached
from tutorlib.checks import check_scalar, check_seed
from tutorlib.dbca.pool import Pool, build_pool
from tutorlib.dbca.splitter import SplitResult, mcd_split
from tutorlib.scan import grammar
from tutorlib.scan.rules import rule_tree

Pair = tuple[str, str]  # (command, actions)
MCD_TRAIN_SIZE = 8_365
MCD_TEST_SIZE = 1_045
# Bump when the pool or the split construction changes, so that cached ones are recomputed
# (tutorlib.cache).
CACHE_FORMAT = 1


@lru_cache(maxsize=1)
def scan_pool() -> Pool:
    """The :class:`tutorlib.dbca.Pool` of all 20,910 SCAN commands, in :func:`tutorlib.scan.all_pairs`
    order: atoms, compounds and their weights (about 10 s to build; cached on disk)."""
    return cached("scan-dbca-pool", {},
                  lambda: build_pool([rule_tree(t) for t in grammar.derivations()]),
                  format=CACHE_FORMAT)


def scan_divergences(train: list[Pair] | list[str], test: list[Pair] | list[str]
                     ) -> tuple[float, float]:
    """(D_A, D_C) of any split of SCAN: lists of (command, actions) pairs or of commands.

    Compounds are weighted over all 20,910 commands (:func:`scan_pool`); a pair listed twice
    (as in the ``addprim`` training sets) counts twice.

    Parameters
    ----------
    train, test : list of (str, str) or list of str
        Non-empty lists of (command, actions) pairs or of commands; only the commands are used.

    Returns
    -------
    tuple of (float, float)
        (D_A, D_C), each from 0 (the same distribution) to 1 (nothing in common).

    Raises
    ------
    ValueError
        For an empty side, or a command that SCAN's grammar does not generate.
    """
    for name, part in (("train", train), ("test", test)):
        if not len(part):
            raise ValueError(f"{name} is empty: a split needs commands on both sides")
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

    Parameters
    ----------
    seed : int
        Seeds the search: equal seeds, equal splits.
    compound_divergence : float in [0, 1] or None
        Target D_C; ``None`` for as high as the search reaches.
    max_atom_divergence : float in [0, 1]
        Largest acceptable D_A (the paper: 0.02), enforced as a steep penalty (see
        :func:`tutorlib.dbca.mcd_split`).
    progress : bool
        Show a progress bar while the split is computed (not when it comes from the cache).

    Returns
    -------
    train, test : list of (str, str)
        (command, actions) pairs, in :func:`tutorlib.scan.all_pairs` order.
    """
    result = mcd_result_of_scan(seed, compound_divergence=compound_divergence,
                                max_atom_divergence=max_atom_divergence, progress=progress)
    pairs = grammar.all_pairs()
    return [pairs[i] for i in result.train], [pairs[i] for i in result.test]


def mcd_result_of_scan(seed: int = 0, *, compound_divergence: float | None = None,
                       max_atom_divergence: float = 0.02, progress: bool = False
                       ) -> SplitResult:
    """The :class:`tutorlib.dbca.SplitResult` behind :func:`mcd_split_of_scan` (cached on disk).

    Parameters
    ----------
    seed : int
        Seeds the search: equal seeds, equal splits.
    compound_divergence : float in [0, 1] or None
        Target D_C; ``None`` for as high as the search reaches.
    max_atom_divergence : float in [0, 1]
        Largest acceptable D_A (the paper: 0.02), enforced as a steep penalty (see
        :func:`tutorlib.dbca.mcd_split`).
    progress : bool
        Show a progress bar while the split is computed (not when it comes from the cache).

    Returns
    -------
    SplitResult
        Sorted indices into :func:`tutorlib.scan.all_pairs` (8,365 train, 1,045 test) and the
        divergences reached.
    """
    check_seed(seed)
    if compound_divergence is not None:
        check_scalar(compound_divergence, "compound_divergence", float, min_val=0.0, max_val=1.0)
    check_scalar(max_atom_divergence, "max_atom_divergence", float, min_val=0.0, max_val=1.0)
    config = {"seed": seed, "compound_divergence": compound_divergence,
              "max_atom_divergence": max_atom_divergence, "train_size": MCD_TRAIN_SIZE,
              "test_size": MCD_TEST_SIZE}
    return cached("scan-mcd-split", config, lambda: mcd_split(
        scan_pool(), MCD_TRAIN_SIZE, MCD_TEST_SIZE, compound_divergence=compound_divergence,
        max_atom_divergence=max_atom_divergence, seed=seed, progress=progress),
        format=CACHE_FORMAT)
