"""The one call every sequence-to-sequence experiment makes: train one configuration on its
pairs with one seed and one :class:`~tutorlib.seq2seq.training.Recipe`, on one device, and
evaluate it on named test sets.

:func:`train_once` seeds, builds the model (with the recipe's embedding initialisation), trains
it with the one trainer (:func:`~tutorlib.seq2seq.training.fit`: a fixed number of
presentations, or until it has learned), checkpointing it when asked, and evaluates it;
:class:`TrainedRun` holds what an experiment's record is made of.
:func:`pinned_threads` runs a block on a given number of CPU threads (the experiments train
each small model on one). A change to how networks are trained is made here, once.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import torch
from torch import nn

from tutorlib.cache import canonical_json
from tutorlib.checks import check_scalar
from tutorlib.seq2seq.config import Seq2SeqConfig
from tutorlib.seq2seq.evaluation import Evaluation, evaluate
from tutorlib.seq2seq.models import build_model, init_embeddings, init_weights
from tutorlib.seq2seq.training import Recipe, TrainLog, fit
from tutorlib.seq2seq.vocab import Vocabulary
from tutorlib.train import seed_everything

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
    log : TrainLog
        What training did (:class:`~tutorlib.seq2seq.training.TrainLog`).
    seconds : float
        Training time (evaluations excluded).
    final_loss : float
        Mean training loss of the last ``loss_window`` steps.
    evaluations : dict of str to Evaluation
        The named test sets' evaluations.
    """

    model: nn.Module
    log: TrainLog
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


def checkpoint_path(config: Seq2SeqConfig, recipe: Recipe, seed: int, train: Pairs,
                    validation: Pairs | None, directory: str | os.PathLike) -> Path:
    """Where :func:`train_once` keeps the checkpoint of a run: a file in ``directory`` named by
    a digest of everything that decides the run (architecture, recipe, seed, the pairs), so a
    sweep started again finds the checkpoint of each unfinished run without being told.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture.
    recipe : Recipe
        How it is trained.
    seed : int
        The run's seed.
    train, validation : sequence of (str, str)
        Its training and validation pairs.
    directory : str or path
        The folder of the run's checkpoints.

    Returns
    -------
    pathlib.Path
        ``directory / "<digest>.pt"``.
    """
    digest = hashlib.sha256(canonical_json({
        "architecture": config.to_dict(), "recipe": recipe.to_dict(), "seed": seed,
        "train": [list(p) for p in train], "validation": [list(p) for p in validation or []],
    }).encode()).hexdigest()[:24]
    return Path(directory) / f"{digest}.pt"


def train_once(config: Seq2SeqConfig, train: Pairs, vocabularies: tuple[Vocabulary, Vocabulary],
               recipe: Recipe, seed: int, *, tests: Mapping[str, Pairs] | None = None,
               device: str | torch.device = "cpu", validation: Pairs | None = None,
               on_evaluation: Callable[[nn.Module], dict] | None = None,
               confirm: Callable[[nn.Module], bool] | None = None, loss_window: int = 100,
               eval_batch_size: int = 512, checkpoints: str | os.PathLike | None = None,
               checkpoint_every: float = 60.0, desc: str = "training") -> TrainedRun:
    """Train ``config`` on ``train`` with ``seed`` by ``recipe`` and evaluate it on ``tests``.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture.
    train : sequence of (str, str)
        Training pairs (sources and targets, tokens separated by spaces).
    vocabularies : (Vocabulary, Vocabulary)
        Source and target vocabularies.
    recipe : Recipe
        How it is trained (:func:`~tutorlib.seq2seq.training.fit`): a fixed number of
        presentations, or to convergence (which needs ``validation``).
    seed : int
        Seeds Python, NumPy and PyTorch just before the model is built, so the same seed gives
        the same initial model on every device; also the batches' and coins' seed.
    tests : mapping of str to pairs, optional
        Named test sets, evaluated after training (exact match, greedy decoding).
    device : str or torch.device
        Where it trains and is evaluated (:func:`tutorlib.train.resolve_device`).
    validation : sequence of (str, str), optional
        In-distribution validation pairs: the fit at every evaluation, and the stopping rule.
    on_evaluation : callable ``model -> dict``, optional
        Called at every evaluation; its numbers join that row of the log's history.
    confirm : callable ``model -> bool``, optional
        With ``recipe.stop_at``: the check a model must also pass to stop there
        (:func:`~tutorlib.seq2seq.training.fit`).
    loss_window : int
        ``final_loss`` averages this many last steps.
    eval_batch_size : int
        Sources decoded at once when evaluating ``tests``.
    checkpoints : str or path, optional
        A folder for the run's checkpoint (:func:`checkpoint_path`): saved at least once a
        minute, resumed from when the run is started again, removed when it ends. Default:
        ``$TUTORLIB_CHECKPOINT_DIR`` when set (the GPU sweeps set it), else none.
    checkpoint_every : float
        Training seconds between checkpoints.
    desc : str
        The progress bar's label.

    Returns
    -------
    TrainedRun
        The model, its log, training seconds, final loss and the test evaluations.
    """
    source_vocab, target_vocab = vocabularies
    check_scalar(loss_window, "loss_window", int, min_val=1)
    if not isinstance(recipe, Recipe):
        raise TypeError(f"recipe must be a Recipe, got {type(recipe).__name__}")
    if recipe.presentations is None and validation is None:
        raise ValueError("a recipe that trains to convergence needs validation pairs")
    checkpoints = checkpoints or os.environ.get("TUTORLIB_CHECKPOINT_DIR") or None
    checkpoint = (checkpoint_path(config, recipe, seed, train, validation, checkpoints)
                  if checkpoints else None)
    seed_everything(seed)
    model = init_embeddings(init_weights(build_model(config, len(source_vocab),
                                                     len(target_vocab)), recipe.weight_init),
                            recipe.embedding_init)
    log = fit(model, train, source_vocab, target_vocab, recipe, seed=seed,
              validation=validation, device=device, on_evaluation=on_evaluation,
              confirm=confirm, checkpoint=checkpoint, checkpoint_every=checkpoint_every, desc=desc)
    evaluations = {name: evaluate(model, pairs, source_vocab, target_vocab,
                                  batch_size=eval_batch_size, device=device)
                   for name, pairs in (tests or {}).items()}
    return TrainedRun(model.eval(), log, log.train_seconds, log.final_loss(loss_window),
                      evaluations)
