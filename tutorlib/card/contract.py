"""The model contract of the report card: what a model must do to be put on it.

A card model is anything with two methods (a few lines around a user's own PyTorch module):

- ``fit(train, validation, *, seed, max_seconds, device) -> dict``: train on ``train`` (a list
  of ``(source, target)`` strings) with ``seed``, in at most ``max_seconds`` of training, on
  ``device``; ``validation`` is in-distribution (drawn like ``train``, not trained on). Return at
  least ``train_accuracy`` and ``validation_accuracy``: the model's exact-match accuracy on its
  own training pairs and on ``validation``, fractions in [0, 1]. That is its fit: a score of a
  model that did not fit is marked, never compared.
- ``predict(sources) -> list[str]``: one output string per source, in order.

and, optionally, ``states(sources) -> array`` (one vector per source) for the card's TRE.

A factory (a callable with no arguments that returns a fresh model) is what the card takes, so
every seed starts from an untrained model. :class:`Seq2SeqModel` adapts every architecture the
book trains (the one convergence recipe of :mod:`tutorlib.seq2seq`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import torch

from tutorlib import fit as gate
from tutorlib import seq2seq as s2s
from tutorlib.checks import check_seed
from tutorlib.seq2seq.evaluation import exact_match

Pair = tuple[str, str]
FIT_KEYS = ("train_accuracy", "validation_accuracy")
FIT_SHARE = gate.TRAINING  # the fit gate's bar (tutorlib.fit), kept for callers of the card


def check_model(model: object) -> object:
    """``model`` if it meets the contract (``fit`` and ``predict`` methods), else a
    ``TypeError`` naming what is missing.

    Parameters
    ----------
    model : object
        What a factory returned.

    Returns
    -------
    object
        ``model`` itself.
    """
    missing = [name for name in ("fit", "predict") if not callable(getattr(model, name, None))]
    if missing:
        raise TypeError(f"a card model needs the methods fit(train, validation, *, seed, "
                        f"max_seconds, device) and predict(sources); "
                        f"{type(model).__name__} lacks {' and '.join(missing)}")
    return model


def check_fit(fit: object, model: object) -> dict:
    """What ``fit`` returned, checked: a dict with ``train_accuracy`` and
    ``validation_accuracy`` in [0, 1].

    Parameters
    ----------
    fit : object
        The return value of ``model.fit``.
    model : object
        The model, named in the error.

    Returns
    -------
    dict
        ``fit`` as a plain dict.
    """
    name = type(model).__name__
    if not isinstance(fit, Mapping):
        raise TypeError(f"{name}.fit must return a dict with {' and '.join(FIT_KEYS)}, "
                        f"got {type(fit).__name__}")
    for key in FIT_KEYS:
        value = fit.get(key)
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or not 0 <= value <= 1):
            raise ValueError(f"{name}.fit must return {key} as a fraction in [0, 1], got "
                             f"{value!r}")
    return dict(fit)


def fitted(fit: Mapping) -> bool:
    """Whether a model fits, by the book's one fit gate (:func:`tutorlib.fit.passes`): its
    training accuracy, and its in-distribution validation accuracy against the gate's bar
    (:data:`tutorlib.fit.IN_DISTRIBUTION`: the card's networks are not the papers' own, so no
    paper's number applies).

    Parameters
    ----------
    fit : mapping
        A checked fit (:func:`check_fit`).

    Returns
    -------
    bool
    """
    return gate.passes(fit["train_accuracy"], fit["validation_accuracy"])


def check_predictions(predictions: object, sources: Sequence[str], model: object) -> list[str]:
    """``predictions`` if they are one string per source, else an error naming the model.

    Parameters
    ----------
    predictions : object
        What ``model.predict(sources)`` returned.
    sources : sequence of str
        The sources it was given.
    model : object
        The model, named in the error.

    Returns
    -------
    list of str
        The predictions.
    """
    name = type(model).__name__
    if isinstance(predictions, str) or not isinstance(predictions, Sequence):
        raise TypeError(f"{name}.predict must return a list of strings, got "
                        f"{type(predictions).__name__}")
    if len(predictions) != len(sources):
        raise ValueError(f"{name}.predict returned {len(predictions)} predictions for "
                         f"{len(sources)} sources")
    bad = next((p for p in predictions if not isinstance(p, str)), None)
    if bad is not None:
        raise TypeError(f"{name}.predict must return strings, got a {type(bad).__name__}")
    return list(predictions)


def fit_fresh(factory: Callable[[], object], train: Sequence[Pair], validation: Sequence[Pair],
              *, seed: int, max_seconds: float, device: str = "cpu") -> tuple[object, dict]:
    """A fresh model from ``factory`` that meets the contract, fitted: (model, checked fit).

    Parameters
    ----------
    factory : callable
        Returns a fresh model.
    train, validation : sequence of (str, str)
        Training pairs and in-distribution validation pairs.
    seed : int
        The training seed.
    max_seconds : float
        The training budget in seconds.
    device : str
        Where to train.

    Returns
    -------
    tuple of (object, dict)
        The fitted model and what its ``fit`` returned (:func:`check_fit`).
    """
    check_seed(seed)
    if not callable(factory):
        raise TypeError(f"factory must be callable (it returns a fresh model), got "
                        f"{type(factory).__name__}")
    model = check_model(factory())
    fit = check_fit(model.fit(list(train), list(validation), seed=seed, max_seconds=max_seconds,
                              device=device), model)
    return model, fit


def predict_checked(model: object, sources: Sequence[str]) -> list[str]:
    """``model.predict(sources)``, checked to be one string per source (:func:`check_predictions`).

    Parameters
    ----------
    model : object
        A fitted card model.
    sources : sequence of str
        The inputs.

    Returns
    -------
    list of str
        One prediction per source.
    """
    sources = list(sources)
    return check_predictions(model.predict(sources), sources, model)


def train_and_score(factory: Callable[[], object], train: Sequence[Pair],
                    validation: Sequence[Pair], tests: Mapping[str, Sequence[Pair]], *,
                    seed: int, max_seconds: float, device: str = "cpu") -> dict:
    """A fresh model from ``factory``, fitted and scored by exact match on each test set.

    Parameters
    ----------
    factory : callable
        Returns a fresh model that meets the contract.
    train, validation : sequence of (str, str)
        Training pairs and in-distribution validation pairs.
    tests : mapping of str to sequence of (str, str)
        Named test sets.
    seed : int
        The training seed.
    max_seconds : float
        The training budget in seconds.
    device : str
        Where to train (``cpu``, ``cuda``, ``auto``).

    Returns
    -------
    dict
        ``fit`` (what ``fit`` returned), ``fitted`` (:func:`fitted`) and ``scores`` (test name ->
        exact-match accuracy, a fraction).
    """
    check_seed(seed)
    if not train or not validation:
        raise ValueError("train_and_score needs training and validation pairs")
    model, fit = fit_fresh(factory, train, validation, seed=seed, max_seconds=max_seconds,
                           device=device)
    scores = {name: exact_match(predict_checked(model, [s for s, _ in pairs]), list(pairs))
              for name, pairs in tests.items()}
    return {"fit": fit, "fitted": fitted(fit), "scores": scores}


class Seq2SeqModel:
    """Any architecture the book trains, as a card model: the convergence recipe of
    :func:`tutorlib.seq2seq.train_once` with the card's budget.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture (e.g. ``Seq2SeqConfig("lstm", 200, 2, 0.5)``).
    recipe : Recipe, optional
        The convergence recipe; its ``max_seconds`` is capped by the card's budget.
    max_length : int, optional
        Most output tokens; by default twice the longest training target plus 10.

    Examples
    --------
    >>> from tutorlib.seq2seq import Seq2SeqConfig
    >>> factory = lambda: Seq2SeqModel(Seq2SeqConfig("lstm", 32, 1, 0.0))
    """

    def __init__(self, config: s2s.Seq2SeqConfig, recipe: s2s.Recipe | None = None,
                 max_length: int | None = None):
        self.config = config
        self.recipe = recipe or s2s.Recipe()
        self.max_length = max_length
        self.model: torch.nn.Module | None = None
        self.device = "cpu"

    def fit(self, train: Sequence[Pair], validation: Sequence[Pair], *, seed: int,
            max_seconds: float, device: str = "cpu") -> dict:
        """Train to convergence (or the budget); return the fit and the run's numbers."""
        every = [*train, *validation]
        self.vocabularies = (s2s.Vocabulary.from_sequences([s.split() for s, _ in every]),
                             s2s.Vocabulary.from_sequences([t.split() for _, t in every]))
        budget = (max_seconds if self.recipe.max_seconds is None
                  else min(max_seconds, self.recipe.max_seconds))
        recipe = dataclasses.replace(self.recipe, max_seconds=budget)
        run = s2s.train_once(self.config, list(train), self.vocabularies, recipe, seed,
                             validation=list(validation), device=device, desc="card")
        self.model, self.device = run.model, device
        if self.max_length is None:
            self.max_length = 2 * max(len(t.split()) for _, t in train) + 10
        log = run.log
        return {"train_accuracy": log.train_accuracy,
                "validation_accuracy": log.validation_accuracy, "epochs": log.epochs,
                "stopped": log.stopped, "seconds": round(run.seconds, 1),
                "parameters": run.parameters}

    def predict(self, sources: Sequence[str]) -> list[str]:
        """Greedy outputs for ``sources``; a source with a word the network never saw in
        training gets an empty output (wrong, whatever its target), since the network has no
        embedding for it."""
        if self.model is None:
            raise RuntimeError("Seq2SeqModel.predict: call fit first")
        known = self.vocabularies[0].stoi
        readable = [i for i, s in enumerate(sources) if all(w in known for w in s.split())]
        outputs = s2s.predict(self.model, [sources[i] for i in readable], *self.vocabularies,
                              max_length=self.max_length, device=self.device)
        predictions = [""] * len(sources)
        for i, output in zip(readable, outputs):
            predictions[i] = output
        return predictions

    def states(self, sources: Sequence[str]) -> np.ndarray:
        """One vector per source: the encoder's outputs averaged over the source's tokens."""
        if self.model is None:
            raise RuntimeError("Seq2SeqModel.states: call fit first")
        source_vocab = self.vocabularies[0]
        ids = [source_vocab.encode(s.split()) for s in sources]
        padded, lengths = s2s.pad_batch(ids)
        device = next(self.model.parameters()).device
        with torch.no_grad():
            encoded = self.model.encode(padded.to(device), lengths.to(device))
            outputs = encoded[0]  # every architecture's encoder: (batch, length, hidden) first
            mask = (torch.arange(outputs.shape[1], device=device)[None, :]
                    < lengths.to(device)[:, None]).unsqueeze(-1)
            mean = (outputs * mask).sum(1) / mask.sum(1)
        return mean.float().cpu().numpy()


__all__ = ["FIT_KEYS", "FIT_SHARE", "Seq2SeqModel", "check_fit", "check_model",
           "check_predictions", "exact_match", "fit_fresh", "fitted", "predict_checked",
           "train_and_score"]
