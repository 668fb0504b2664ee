"""The batches of one epoch of training: :func:`epoch_batches` forms them as a
:class:`~tutorlib.seq2seq.recipe.Recipe` says, :func:`teacher_forcing_coins` draws their
teacher-forcing coins, :func:`padded_share` measures their padding.

Batches are sorted by length within pools by default: a shuffle of the
pairs cut into pools of ``bucket_pool`` (8) batches, each pool sorted by target length and cut
into batches, the batches shuffled, so a batch holds pairs of about one length (little padding:
:func:`padded_share` measures it) drawn from all over the data. ``bucket_pool=None`` sorts the
whole epoch (every batch of one length: the most pairs a second, but more epochs to fit and an
accuracy that swings from one evaluation to the next; the committed runs whose recipes say so
were trained this way), and ``bucketed=False`` draws random batches.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from tutorlib.seq2seq.recipe import Recipe


def epoch_batches(recipe: Recipe, target_lengths: np.ndarray, source_lengths: np.ndarray, *,
                  rng: np.random.Generator, seed: int = 0, epoch: int = 0) -> list[np.ndarray]:
    """One epoch of batches, as the recipe says: every pair exactly once.

    - ``bucketed`` (the default): the pairs sorted by target length, then source length, ties
      broken at random (``rng``); cut into batches of ``batch_size``; the batches shuffled. A
      batch holds pairs of (nearly) one length, so little of it is padding.
    - with ``bucket_pool``: a shuffle of the pairs cut into pools of ``bucket_pool`` batches,
      each sorted by target length, the batches then shuffled: drawn from ``seed`` and
      ``epoch`` (PyTorch's generator), as the chapters' committed runs drew them.
    - ``bucketed=False``: a random permutation cut into batches.

    Parameters
    ----------
    recipe : Recipe
        ``batch_size``, ``bucketed`` and ``bucket_pool``.
    target_lengths, source_lengths : numpy.ndarray
        Each pair's target and source length (tokens).
    rng : numpy.random.Generator
        The run's generator (unused with ``bucket_pool``).
    seed, epoch : int
        Seed the pools' shuffles.

    Returns
    -------
    list of numpy.ndarray
        The batches, as arrays of pair indices.

    Examples
    --------
    >>> batches = epoch_batches(Recipe(batch_size=2), np.array([3, 1, 3, 1]),
    ...                         np.array([2, 2, 2, 2]), rng=np.random.default_rng(0))
    >>> sorted(sorted(b.tolist()) for b in batches)
    [[0, 2], [1, 3]]
    """
    size = min(recipe.batch_size, len(target_lengths))
    if not recipe.bucketed:
        order = rng.permutation(len(target_lengths))
        return [order[i:i + size] for i in range(0, len(order), size)]
    if recipe.bucket_pool is not None:
        generator = torch.Generator().manual_seed(seed * 100_003 + epoch)
        lengths = torch.from_numpy(np.asarray(target_lengths))
        order = torch.randperm(len(lengths), generator=generator)
        pooled = []
        for chunk in torch.split(order, size * recipe.bucket_pool):
            chunk = chunk[torch.argsort(lengths[chunk], stable=True)]
            pooled.extend(torch.split(chunk, size))
        shuffle = torch.randperm(len(pooled), generator=generator).tolist()
        return [pooled[i].numpy() for i in shuffle]
    order = np.lexsort((rng.random(len(target_lengths)), source_lengths, target_lengths))
    batches = [order[i:i + size] for i in range(0, len(order), size)]
    rng.shuffle(batches)
    return batches


def teacher_forcing_coins(recipe: Recipe, batches: Sequence[np.ndarray], rng: np.random.Generator,
                          seed: int, first_step: int) -> list:
    """The teacher-forcing coins of an epoch's batches: whether each batch's decoder is fed the
    true previous tokens.

    With ``bucket_pool`` each step draws its coin from ``(seed, step)``, as the chapters'
    committed runs drew them; otherwise the coins come from the run's generator ``rng``.

    Parameters
    ----------
    recipe : Recipe
        ``teacher_forcing`` (the probability), ``teacher_forcing_per`` and ``bucket_pool``.
    batches : sequence of numpy.ndarray
        The epoch's batches of pair indices.
    rng : numpy.random.Generator
        The run's generator (unused with ``bucket_pool``).
    seed : int
        The run's seed.
    first_step : int
        The optimiser step of the epoch's first batch.

    Returns
    -------
    list
        A bool per batch, or with ``teacher_forcing_per="example"`` a bool array per batch (a
        coin per pair).

    Examples
    --------
    >>> coins = teacher_forcing_coins(Recipe(teacher_forcing=1.0), [np.array([0, 1])] * 3,
    ...                               np.random.default_rng(0), seed=0, first_step=0)
    >>> [bool(c) for c in coins]
    [True, True, True]
    """
    per_example = recipe.teacher_forcing_per == "example"
    if recipe.bucket_pool is not None:
        draws = [np.random.default_rng([seed, first_step + b]) for b in range(len(batches))]
        return [(d.random(len(batch)) if per_example else d.random()) < recipe.teacher_forcing
                for d, batch in zip(draws, batches, strict=True)]
    if per_example:
        return [rng.random(len(batch)) < recipe.teacher_forcing for batch in batches]
    return list(rng.random(len(batches)) < recipe.teacher_forcing)


def padded_share(batches: Sequence[np.ndarray], source_lengths: np.ndarray,
                 target_lengths: np.ndarray) -> float:
    """The share of the positions of ``batches`` (sources and targets) that are padding.

    Parameters
    ----------
    batches : sequence of numpy.ndarray
        Batches of pair indices.
    source_lengths, target_lengths : numpy.ndarray
        Each pair's source and target length.

    Returns
    -------
    float
        Padded positions over all positions, from 0 to 1.

    Examples
    --------
    >>> padded_share([np.array([0, 1])], np.array([1, 3]), np.array([2, 2]))
    0.2
    """
    real = padded = 0
    for batch in batches:
        for lengths in (source_lengths[batch], target_lengths[batch]):
            real += int(lengths.sum())
            padded += int(lengths.max()) * len(batch)
    return round(1.0 - real / padded, 6) if padded else 0.0

