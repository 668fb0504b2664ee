"""The greedy MCD search rebuilding both distributions for every candidate (the check and the
benchmark baseline of :mod:`tutorlib.dbca.splitter`).

This is how a direct implementation of Keysers et al. (2020, Sec. 2 and the appendix on
generating splits) scores a candidate: put it on its side, sum the count vectors of every member
of train and of test afresh, and compute both divergences from the two distributions (the way
the public re-implementation dbca-splitter is reported to work).
Same search, same seeds, same candidates and same tie-breaking as :func:`tutorlib.dbca.mcd_split`,
so both give the same split; only the cost of a step differs (a pass over every member per
candidate, against a pass over the candidate's own entries).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tutorlib.dbca.compounds import Sample
from tutorlib.dbca.divergence import ATOM_ALPHA, COMPOUND_ALPHA, divergence_of_counts
from tutorlib.dbca.pool import Pool
from tutorlib.dbca.splitter import SplitResult, as_pool, check_split_settings, greedy_split


class _RebuildScorer:
    """Keeps the member lists only; every score sums the members' rows from scratch."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.members: list[list[int]] = [[], []]

    def add(self, side: int, row: int) -> None:
        self.members[side].append(row)

    def remove(self, side: int, row: int) -> None:
        self.members[side].remove(row)

    def _score(self, train: list[int], test: list[int]) -> tuple[float, float]:
        atoms, compounds = self.pool.atom_matrix, self.pool.compound_matrix
        return (divergence_of_counts(atoms.sum_rows(train), atoms.sum_rows(test), ATOM_ALPHA),
                divergence_of_counts(compounds.sum_rows(train), compounds.sum_rows(test),
                                     COMPOUND_ALPHA))

    def divergences(self) -> tuple[float, float]:
        return self._score(*self.members)

    def if_added(self, side: int, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        scores = []
        for row in rows:
            changed = [list(m) for m in self.members]
            changed[side].append(int(row))
            scores.append(self._score(*changed))
        return np.array([s[0] for s in scores]), np.array([s[1] for s in scores])

    def if_removed(self, side: int, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        scores = []
        for row in rows:
            changed = [list(m) for m in self.members]
            changed[side].remove(int(row))
            scores.append(self._score(*changed))
        return np.array([s[0] for s in scores]), np.array([s[1] for s in scores])


def rebuild_split(samples: Pool | Sequence[Sample], train_size: int, test_size: int, *,
                  compound_divergence: float | None = None, max_atom_divergence: float = 0.02,
                  seed: int = 0, num_candidates: int | None = None, removal_interval: int = 100,
                  removal_count: int = 30, progress: bool = True) -> SplitResult:
    """:func:`tutorlib.dbca.mcd_split`, scoring every candidate by rebuilding both
    distributions (slow; same arguments, same split)."""
    pool = as_pool(samples)
    settings = check_split_settings(len(pool), train_size, test_size, compound_divergence,
                               max_atom_divergence, seed, num_candidates, removal_interval,
                               removal_count)
    return greedy_split(_RebuildScorer(pool), len(pool), *settings, progress=progress)
