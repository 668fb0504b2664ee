"""The one recipe every sequence-to-sequence experiment calls: train one configuration on its
pairs with one seed, on one device, and evaluate it on named test sets.

:func:`train_once` seeds, builds the model (with its embedding initialisation), trains it with
:func:`~tutorlib.seq2seq.training.fit_seq2seq` (fixed presentations) or
:func:`~tutorlib.seq2seq.convergence.fit_to_convergence` (until it has learned), times it and
evaluates it; :class:`TrainedRun` holds what an experiment's record is made of.
:func:`pinned_threads` runs a block on a given number of CPU threads (the experiments train
each small model on one). A change to how networks are trained is made here, once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

from tutorlib.checks import check_scalar
from tutorlib.seq2seq.config import Seq2SeqConfig
from tutorlib.seq2seq.convergence import FitResult, Recipe, fit_to_convergence
from tutorlib.seq2seq.evaluation import Evaluation, evaluate
from tutorlib.seq2seq.models import build_model, init_embeddings
from tutorlib.seq2seq.training import TrainSettings, fit_seq2seq
from tutorlib.seq2seq.vocab import Vocabulary, encode_pairs
from tutorlib.train import TrainLog, seed_everything

Pairs = Sequence[tuple[str, str]]


def pinned_threads(count: int) -> AbstractContextManager[None]:
    """Run the block on ``count`` PyTorch CPU threads, and restore the count after it.

    Models this small gain nothing from more threads, and on a busy machine two threads are
    many times slower than one, so the experiments train each run on one.

    Parameters
    ----------
    count : int
        Threads inside the block (at least 1).

    Yields
    ------
    None
    """
    check_scalar(count, "threads", int, min_val=1)  # checked when called, not when entered
    return _pinned_threads(count)


@contextmanager
def _pinned_threads(count: int) -> Iterator[None]:
    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@dataclass
class TrainedRun:
    """One trained network and what its record is made of.

    Attributes
    ----------
    model : torch.nn.Module
        The trained model, in eval mode (on the training device).
    log : TrainLog or FitResult
        The training log (fixed presentations) or the convergence recipe's result.
    seconds : float
        Training time (evaluations of the convergence recipe excluded).
    final_loss : float
        Mean training loss of the last ``loss_window`` steps (the recipe: of its last epoch).
    evaluations : dict of str to Evaluation
        The named test sets' evaluations.
    """

    model: nn.Module
    log: TrainLog | FitResult
    seconds: float
    final_loss: float
    evaluations: dict[str, Evaluation] = field(default_factory=dict)

    @property
    def parameters(self) -> int:
        """Number of trainable parameters."""
        return sum(p.numel() for p in self.model.parameters())

    def state_dict(self) -> dict[str, torch.Tensor]:
        """The weights on the CPU, so that a run trained on a GPU loads on any machine."""
        return {k: v.detach().cpu().clone() for k, v in self.model.state_dict().items()}

    def accuracy(self, name: str) -> float:
        """Exact-match accuracy on the test set called ``name``."""
        if name not in self.evaluations:
            raise KeyError(f"no test set {name!r}; this run has {', '.join(self.evaluations)}")
        return self.evaluations[name].accuracy


def train_once(config: Seq2SeqConfig, train: Pairs, vocabularies: tuple[Vocabulary, Vocabulary],
               training: TrainSettings | Recipe, seed: int, *,
               tests: Mapping[str, Pairs] | None = None, device: str | torch.device = "cpu",
               embedding_init: str = "pytorch", warmup_steps: int = 0,
               validation: Pairs | None = None, evaluate_every: int = 500,
               on_evaluation: Callable | None = None, loss_window: int = 100,
               eval_batch_size: int = 512, desc: str = "training") -> TrainedRun:
    """Train ``config`` on ``train`` with ``seed`` and evaluate it on ``tests``.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture.
    train : sequence of (str, str)
        Training pairs (sources and targets, tokens separated by spaces).
    vocabularies : (Vocabulary, Vocabulary)
        Source and target vocabularies.
    training : TrainSettings or Recipe
        Fixed presentations (:func:`~tutorlib.seq2seq.training.fit_seq2seq`; its ``seed`` is
        the batches' and coins' seed) or the convergence recipe
        (:func:`~tutorlib.seq2seq.convergence.fit_to_convergence`, which needs ``validation``).
    seed : int
        Seeds Python, NumPy and PyTorch just before the model is built, so the same seed gives
        the same initial model on every device.
    tests : mapping of str to pairs, optional
        Named test sets, evaluated after training (exact match, greedy decoding).
    device : str or torch.device
        Where it trains and is evaluated (:func:`tutorlib.train.resolve_device`).
    embedding_init : {"pytorch", "fairseq"}
        :func:`~tutorlib.seq2seq.models.init_embeddings` (the recipe: its own).
    warmup_steps : int
        Fixed presentations only: linear warm-up of the learning rate.
    validation : sequence of (str, str), optional
        The convergence recipe's in-distribution validation pairs.
    evaluate_every : int
        Fixed presentations only: steps between calls of ``on_evaluation``.
    on_evaluation : callable, optional
        Fixed presentations: ``model -> float``, called every ``evaluate_every`` steps and
        after the last (its scores are ``log.evaluations``). The recipe: ``model -> dict``,
        merged into each row of its history.
    loss_window : int
        Fixed presentations: ``final_loss`` averages this many last steps.
    eval_batch_size : int
        Sources decoded at once when evaluating ``tests``.
    desc : str
        The progress bar's label.

    Returns
    -------
    TrainedRun
        The model, its log, training seconds, final loss and the test evaluations.
    """
    source_vocab, target_vocab = vocabularies
    check_scalar(loss_window, "loss_window", int, min_val=1)
    if not isinstance(training, TrainSettings | Recipe):
        raise TypeError(f"training must be a TrainSettings or a Recipe, got "
                        f"{type(training).__name__}")
    seed_everything(seed)
    model = build_model(config, len(source_vocab), len(target_vocab))
    if isinstance(training, Recipe):
        if validation is None:
            raise ValueError("the convergence recipe needs validation pairs")
        model = init_embeddings(model, training.embedding_init)
        log: TrainLog | FitResult = fit_to_convergence(
            model, train, validation, source_vocab, target_vocab, training, seed=seed,
            device=device, on_evaluation=on_evaluation, desc=desc)
        seconds, final_loss = log.train_seconds, log.history[-1]["loss"]
    else:
        model = init_embeddings(model, embedding_init)
        evaluate_now = None if on_evaluation is None else (lambda: on_evaluation(model))
        start = time.perf_counter()
        log = fit_seq2seq(model, encode_pairs(train, source_vocab, target_vocab), training,
                          evaluate=evaluate_now, eval_every=evaluate_every, desc=desc,
                          device=device, warmup_steps=warmup_steps)
        seconds = time.perf_counter() - start
        final_loss = float(np.mean(log.losses[-loss_window:]))
    evaluations = {name: evaluate(model, pairs, source_vocab, target_vocab,
                                  batch_size=eval_batch_size, device=device)
                   for name, pairs in (tests or {}).items()}
    return TrainedRun(model.eval(), log, seconds, final_loss, evaluations)
