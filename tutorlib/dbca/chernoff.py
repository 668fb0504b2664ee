"""The Chernoff coefficient and the divergence of two count vectors (Keysers et al. 2020,
Sec. 2.1), with the paper's two alphas: 0.5 for atoms (symmetric, Bhattacharyya) and 0.1 for
compounds. :mod:`tutorlib.dbca.divergence` measures splits with them; :class:`tutorlib.dbca.Pool`
measures a split of its rows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ATOM_ALPHA = 0.5
COMPOUND_ALPHA = 0.1


def chernoff_coefficient(p: Sequence[float], q: Sequence[float], alpha: float) -> float:
    """C_alpha(p || q) = sum_k p_k^alpha q_k^(1 - alpha) of two probability vectors.

    Parameters
    ----------
    p, q : sequence of float
        Probability vectors over the same items, in the same order: one-dimensional, non-empty,
        finite and non-negative, each summing to 1.
    alpha : float
        Strictly between 0 and 1; the paper uses 0.5 for atoms (``ATOM_ALPHA``) and 0.1 for
        compounds (``COMPOUND_ALPHA``).

    Returns
    -------
    float
        The coefficient, from 0 (disjoint supports) to 1 (identical vectors).

    Raises
    ------
    ValueError
        If ``alpha`` is not strictly between 0 and 1, or ``p`` and ``q`` are not one-dimensional
        vectors of the same length with finite non-negative entries summing to 1 (within 1e-6).
    """
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number strictly between 0 and 1, got {alpha!r}")
    p, q = _probabilities(p, "p"), _probabilities(q, "q")
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same length, got {p.size} and {q.size}")
    return float(np.sum(p ** alpha * q ** (1 - alpha)))


def _probabilities(values: Sequence[float], name: str) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a vector of numbers, got {values!r}") from None
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty one-dimensional vector, "
                         f"got shape {array.shape}")
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        k = int(np.flatnonzero(~np.isfinite(array) | (array < 0))[0])
        raise ValueError(f"{name}[{k}] = {array[k]!r}: probabilities must be finite and >= 0")
    if abs(array.sum() - 1.0) > 1e-6:
        raise ValueError(f"{name} must sum to 1 (a probability vector), "
                         f"it sums to {array.sum():.6g}")
    return array


def divergence_of_counts(train: np.ndarray, test: np.ndarray, alpha: float) -> float:
    """1 - C_alpha of two unnormalised count vectors (0 if both are empty, 1 if one is)."""
    total_train, total_test = float(train.sum()), float(test.sum())
    if total_train == 0 or total_test == 0:
        return 0.0 if total_train == total_test else 1.0
    coefficient = np.sum((train / total_train) ** alpha * (test / total_test) ** (1 - alpha))
    return float(max(0.0, 1.0 - coefficient))
