"""Scores of the five tests, computed from a model's predictions.

Hupkes et al. (2020), *Compositionality decomposed*, the sections on substitutivity, localism and
overgeneralisation.

Predictions are strings (space-separated symbols, as a model decodes them) or lists of symbols;
an empty prediction never counts as correct or consistent. Models live elsewhere
(``tutorlib.seq2seq``): :func:`unrolled_predictions` takes any ``predict`` function that maps a
batch of input strings to a batch of predictions.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence

from tutorlib.checks import ArrayLike, check_outputs, check_scalar
from tutorlib.pcfgset.language import FUNCTIONS, substitute, unroll


def _text(prediction) -> str:
    return prediction if isinstance(prediction, str) else " ".join(prediction)


def _same(first, second, *, non_empty: bool = True) -> bool:
    tokens = _text(first).split()
    return tokens == _text(second).split() and (bool(tokens) or not non_empty)


def _check_lengths(first: ArrayLike, second: ArrayLike,
                   names: str) -> tuple[list[list[str]], list[list[str]]]:
    """Both sequences checked and split into symbols once (the scores compare these lists)."""
    first_name, second_name = names.split(" and ")
    first_tokens = check_outputs(first, first_name)
    second_tokens = check_outputs(second, second_name, allow_empty_items=second_name != "targets")
    if len(first_tokens) != len(second_tokens):
        raise ValueError(f"{names} must have the same length, got {len(first_tokens)} and "
                         f"{len(second_tokens)}")
    if not first_tokens:
        raise ValueError(f"{names} are empty: a score needs at least one prediction")
    return first_tokens, second_tokens


def accuracy(predictions: ArrayLike, targets: ArrayLike) -> float:
    """The fraction of predictions equal to their target (sequence accuracy).

    Parameters
    ----------
    predictions : sequence of str or of list of str
        A model's predictions: space-separated strings or lists of symbols.
    targets : sequence of str or of list of str
        The target outputs in the same order, as many as ``predictions``.

    Returns
    -------
    float
        From 0 to 1; an empty prediction never counts as correct.
    """
    predicted, wanted = _check_lengths(predictions, targets, "predictions and targets")
    hits = sum(bool(p) and p == t for p, t in zip(predicted, wanted))
    return hits / len(predicted)


def token_accuracy(predictions: ArrayLike, targets: ArrayLike) -> float:
    """The share of output positions a model gets right, over all predictions: the symbols
    equal to the target's at the same position, divided by the longer of the prediction and
    the target, summed over the pairs. Unlike sequence accuracy (:func:`accuracy`) it rises as
    a model learns parts of the outputs; a perfect prediction scores 1, an empty one 0.

    Parameters
    ----------
    predictions : sequence of str or of list of str
        A model's predictions: space-separated strings or lists of symbols.
    targets : sequence of str or of list of str
        The target outputs in the same order, as many as ``predictions``.

    Returns
    -------
    float
        From 0 to 1 (a target may not be empty).

    Examples
    --------
    >>> token_accuracy(["A1 B2 C3", "D4"], ["A1 B2 D4", "D4 E5"])
    0.6
    """
    predicted, wanted = _check_lengths(predictions, targets, "predictions and targets")
    right = total = 0
    for p, t in zip(predicted, wanted):
        right += sum(a == b for a, b in zip(p, t))
        total += max(len(p), len(t))
    return right / total


def consistency(predictions_a: ArrayLike, predictions_b: ArrayLike) -> float:
    """Substitutivity: the fraction of pairs (an input and its twin) whose two
    predictions are identical and non-empty, correct or not.

    Parameters
    ----------
    predictions_a : sequence of str or of list of str
        The predictions for the original inputs.
    predictions_b : sequence of str or of list of str
        The predictions for their twins in the same order, as many as ``predictions_a``.

    Returns
    -------
    float
        From 0 to 1.

    Examples
    --------
    >>> consistency(["A1 B2", "C3", ""], ["A1 B2", "D4", ""])
    0.3333333333333333
    """
    first, second = _check_lengths(predictions_a, predictions_b, "predictions_a and predictions_b")
    same = sum(bool(a) and a == b for a, b in zip(first, second))
    return same / len(first)


def unrolled_steps(sources: Sequence[str], predict: Callable[[list[str]], Sequence],
                   *, synonyms: dict[str, str] | None = None) -> list[list[tuple[str, str]]]:
    """Localism's unrolled computation: each input's steps as the model computes them.

    Every input is unrolled (:func:`~.language.unroll`); the model predicts each step, and its
    prediction replaces the step's ``*k`` in later steps. ``predict`` gets one batch per step
    number (the k-th steps of every input that has one) and returns one prediction per input.

    Parameters
    ----------
    sources : sequence of str
        The inputs, each with at least one function.
    predict : callable
        Maps a list of steps (input strings) to as many predictions, each a space-separated
        string or a list of symbols.
    synonyms : dict, optional
        Synonyms and the function each stands for (e.g. ``TWINS``), as in
        :func:`~.language.parse`.

    Returns
    -------
    list of list of (str, str)
        For each input, its steps in order: the step as given to the model (earlier
        predictions substituted) and the model's prediction for it.
    """
    programs = [unroll(source, synonyms=synonyms) for source in sources]
    steps: list[list[tuple[str, str]]] = [[] for _ in programs]
    for k in range(max((len(p) for p in programs), default=0)):
        active = [i for i, program in enumerate(programs) if k < len(program)]
        batch = [substitute(programs[i][k], [out for _, out in steps[i]]) for i in active]
        predictions = list(predict(batch))
        if len(predictions) != len(batch):
            raise ValueError(f"predict returned {len(predictions)} predictions for a batch of "
                             f"{len(batch)} inputs")
        for i, step, prediction in zip(active, batch, predictions, strict=True):
            steps[i].append((step, _text(prediction)))
    return steps


def unrolled_predictions(sources: Sequence[str], predict: Callable[[list[str]], Sequence],
                         *, synonyms: dict[str, str] | None = None) -> list[str]:
    """Localism: each input's prediction when the model computes it step by step (the last
    step's prediction of :func:`unrolled_steps`).

    Parameters
    ----------
    sources : sequence of str
        The inputs, each with at least one function.
    predict : callable
        Maps a list of steps (input strings) to as many predictions (:func:`unrolled_steps`).
    synonyms : dict, optional
        Synonyms and the function each stands for (e.g. ``TWINS``).

    Returns
    -------
    list of str
        The prediction of each input's last step.
    """
    return [steps[-1][1] for steps in unrolled_steps(sources, predict, synonyms=synonyms)]


def longest_argument(step: str) -> int:
    """The longest string argument of one unrolled step: the longest run of tokens that are
    neither functions nor commas (a step's arguments are earlier predictions, whatever their
    symbols).

    Parameters
    ----------
    step : str
        One unrolled step, tokens separated by spaces.

    Returns
    -------
    int
        The number of symbols of its longest string argument (0 without one).

    Examples
    --------
    >>> longest_argument("append A B C , D E")
    3
    """
    longest = current = 0
    for token in step.split() + [","]:
        if token == "," or token in FUNCTIONS:
            longest, current = max(longest, current), 0
        else:
            current += 1
    return longest


def localism_long_steps(whole: ArrayLike, steps: Sequence[Sequence[tuple[str, str]]],
                        longer_than: int = 5) -> float:
    """Hupkes et al.'s (2020, Sec. 4.4) reading of localism's mistakes, counted: of the inputs
    whose unrolled prediction differs from the whole input's, the share with an unrolled step
    that applies a function to a string of more than ``longer_than`` symbols; NaN without such
    an input.

    Parameters
    ----------
    whole : sequence of str or of list of str
        The model's predictions for the whole inputs.
    steps : sequence
        Each input's unrolled steps, from :func:`unrolled_steps`, in the same order.
    longer_than : int
        A string argument longer than this is long (the paper: five).

    Returns
    -------
    float
        From 0 to 1, or NaN.
    """
    check_outputs(whole, "whole predictions")
    check_scalar(longer_than, "longer_than", int, min_val=0)
    if isinstance(steps, (str, bytes)) or not hasattr(steps, "__len__") or len(steps) != len(whole):
        raise ValueError(f"steps must hold one list of unrolled steps per whole prediction "
                         f"({len(whole)}), got {steps!r:.80}")
    for position, input_steps in enumerate(steps):
        if (isinstance(input_steps, (str, bytes)) or not input_steps
                or not all(isinstance(p, (tuple, list)) and len(p) == 2
                           and all(isinstance(x, str) for x in p) for p in input_steps)):
            raise ValueError(f"steps[{position}] must be a non-empty list of (step, prediction) "
                             f"string pairs, as unrolled_steps returns, got {input_steps!r:.80}")
    long = [any(longest_argument(step) > longer_than for step, _ in input_steps)
            for prediction, input_steps in zip(whole, steps, strict=True)
            if _text(prediction).split() != input_steps[-1][1].split()]
    return sum(long) / len(long) if long else math.nan


def localism_score(whole: ArrayLike, unrolled: ArrayLike) -> float:
    """Localism: the fraction of inputs whose unrolled prediction (from
    :func:`unrolled_predictions`) equals the model's prediction for the whole input.

    Parameters
    ----------
    whole : sequence of str or of list of str
        The model's predictions for the whole inputs.
    unrolled : sequence of str or of list of str
        The predictions from :func:`unrolled_predictions` in the same order, as many as
        ``whole``.

    Returns
    -------
    float
        From 0 to 1; here two empty predictions count as equal.
    """
    _check_lengths(whole, unrolled, "whole and unrolled predictions")
    same = sum(_same(a, b, non_empty=False) for a, b in zip(whole, unrolled, strict=True))
    return same / len(whole)


def overgeneralisation_rates(predictions: ArrayLike, exceptions: Sequence[tuple[str, str]],
                             originals: Sequence[tuple[str, str]]) -> tuple[float, float]:
    """Overgeneralisation: for predictions on the exception inputs, the fraction that
    match the exception outputs (memorisation) and the fraction that match the rule-following
    outputs (overgeneralisation), as in :func:`~.splits.overgeneralisation_split`.

    Parameters
    ----------
    predictions : sequence of str or of list of str
        The model's predictions for the exception inputs.
    exceptions : sequence of (str, str)
        The (input, exception output) pairs, e.g. ``OvergeneralisationSplit.exceptions``; as
        many as ``predictions``.
    originals : sequence of (str, str)
        The (input, rule-following output) pairs in the same order, e.g.
        ``OvergeneralisationSplit.originals``.

    Returns
    -------
    tuple of (float, float)
        The memorisation rate and the overgeneralisation rate, each from 0 to 1.
    """
    _check_lengths(predictions, exceptions, "predictions and exceptions")
    _check_lengths(exceptions, originals, "exceptions and originals")
    return (accuracy(predictions, [t for _, t in exceptions]),
            accuracy(predictions, [t for _, t in originals]))


def peak(curve: Sequence[float]) -> tuple[float, int]:
    """The highest value of a per-epoch curve and its epoch (1-based; the first if tied), e.g.
    the overgeneralisation peak of the paper's Fig. 5.

    Parameters
    ----------
    curve : sequence of float
        One value per epoch, from the first; not empty.

    Returns
    -------
    tuple of (float, int)
        The highest value and its epoch.
    """
    if not curve:
        raise ValueError("the curve is empty: give one value per epoch")
    missing = [i + 1 for i, value in enumerate(curve)
               if isinstance(value, bool) or not isinstance(value, numbers.Real)
               or not math.isfinite(value)]
    if missing:
        raise ValueError(f"the curve has no number at epoch(s) {missing[:5]}: its peak would be "
                         f"undefined; drop those epochs or give their values")
    best = max(range(len(curve)), key=lambda i: (curve[i], -i))
    return float(curve[best]), best + 1
