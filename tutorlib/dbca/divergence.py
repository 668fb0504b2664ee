"""Chernoff coefficients, atom divergence and compound divergence (Keysers et al. 2020, Sec. 2.1).

For two distributions P and Q over the same items, the Chernoff coefficient is

    C_alpha(P || Q) = sum_k p_k^alpha q_k^(1 - alpha)     (0 < alpha < 1),

1 for identical distributions, 0 for disjoint supports. The paper measures a split by

    D_A = 1 - C_0.5(F_A(train) || F_A(test))    atom divergence (symmetric: Bhattacharyya)
    D_C = 1 - C_0.1(F_C(train) || F_C(test))    compound divergence

alpha = 0.1 for compounds weighs mostly whether a test compound appears in training at all,
not how often: a test set may hold compounds rare in training, but not ones never seen there.

Examples
--------
>>> round(chernoff_coefficient([0.001, 0.001, 0.998, 0], [0.4, 0.4, 0, 0.2], 0.1), 2)
0.44
>>> round(chernoff_coefficient([0.001, 0.001, 0.998, 0], [0.4, 0.4, 0, 0.2], 0.5), 2)
0.04
>>> atom_divergence([("a", "b")], [("a", "b")])
0.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tutorlib.dbca.chernoff import (
    ATOM_ALPHA,
    COMPOUND_ALPHA,
    chernoff_coefficient,  # noqa: F401 (the examples above use it)
    divergence_of_counts,
)
from tutorlib.dbca.compounds import Sample
from tutorlib.dbca.graphs import as_graph, atom_counts
from tutorlib.dbca.pool import Pool, build_pool


def _check_samples(samples: Sequence[Sample], name: str) -> list:
    if len(samples) == 0:
        raise ValueError(f"{name} is empty: a divergence compares two non-empty sets of samples")
    graphs = []
    for i, sample in enumerate(samples):
        try:
            graphs.append(as_graph(sample))
        except ValueError as error:
            raise ValueError(f"{name}[{i}]: {error}") from None
    return graphs


def atom_divergence(train: Sequence[Sample], test: Sequence[Sample]) -> float:
    """D_A = 1 - C_0.5(F_A(train) || F_A(test)): how differently the atoms are distributed.

    Parameters
    ----------
    train, test : sequence of samples
        Non-empty lists of trees or :class:`RuleGraph` s; a sample listed twice counts twice.

    Returns
    -------
    float
        D_A, from 0 (the same atom distribution) to 1 (no atom in common).
    """
    first = atom_counts(_check_samples(train, "train"))
    second = atom_counts(_check_samples(test, "test"))
    atoms = sorted(set(first) | set(second))
    return divergence_of_counts(np.array([first[a] for a in atoms], dtype=float),
                                np.array([second[a] for a in atoms], dtype=float), ATOM_ALPHA)


def compound_divergence(train: Sequence[Sample], test: Sequence[Sample],
                        pool: Pool | Sequence[Sample] | None = None) -> float:
    """D_C = 1 - C_0.1(F_C(train) || F_C(test)), compounds weighted over ``pool``.

    ``pool`` is a :class:`Pool`, a list of samples, or ``None`` for the distinct samples of
    ``train`` and ``test`` together. Only the pool's kept compounds count.

    Parameters
    ----------
    train, test : sequence of samples
        Non-empty lists of trees or :class:`RuleGraph` s; a sample listed twice counts twice.
    pool : Pool, sequence of samples or None
        Where P(G' | G) of the compound weights is estimated, as in :func:`divergences`.

    Returns
    -------
    float
        D_C, from 0 (the same compound distribution) to 1 (no kept compound in common).
    """
    return divergences(train, test, pool)[1]


def divergences(train: Sequence[Sample], test: Sequence[Sample],
                pool: Pool | Sequence[Sample] | None = None) -> tuple[float, float]:
    """(D_A, D_C) of any split: two lists of samples.

    Parameters
    ----------
    train, test : sequence of samples
        Trees or :class:`RuleGraph` s; a sample listed twice counts twice.
    pool : Pool, sequence of samples or None
        Where P(G' | G) of the compound weights is estimated: a :class:`Pool` (fastest when
        measuring many splits of one pool), a list of samples, or ``None`` for the distinct
        samples of ``train`` and ``test`` together.

    Returns
    -------
    tuple of (float, float)
        (D_A, D_C), each from 0 (the same distribution) to 1 (nothing in common).

    Examples
    --------
    >>> divergences([("a", "b"), ("a", "c")], [("a", "b"), ("a", "c")])
    (0.0, 0.0)
    >>> divergences([("a", "b")], [("a", "c")])[1]
    1.0
    """
    train_graphs, test_graphs = _check_samples(train, "train"), _check_samples(test, "test")
    if pool is None:
        pool = build_pool(list(dict.fromkeys([*train_graphs, *test_graphs])))
    elif not isinstance(pool, Pool):
        pool = build_pool(pool)
    return (atom_divergence(train_graphs, test_graphs),
            divergence_of_counts(pool.compound_counts(train_graphs),
                                 pool.compound_counts(test_graphs), COMPOUND_ALPHA))
