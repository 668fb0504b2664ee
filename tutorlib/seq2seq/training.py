"""The one trainer of every sequence-to-sequence network in the book: :class:`Recipe` says how,
:func:`fit` does it, :class:`TrainLog` says what happened.

A recipe covers the two ways the book trains:

- **a fixed number of presentations** (``presentations`` set): exactly that many training
  examples in batches, the learning rate decaying linearly to ``final_lr_fraction`` of itself
  (``schedule="linear"``), the last model kept. Lake & Baroni (2018) count their 100,000
  training trials so; the chapters' runs are trained so.
- **to convergence** (``presentations`` unset): evaluate ``evaluations_per_epoch`` times an
  epoch on a sample of the training pairs and on in-distribution validation pairs; stop when
  the validation accuracy has not improved for ``patience`` epochs, after ``max_epochs``, or
  when ``max_seconds`` of training have passed; keep the best model on validation. Hupkes et
  al. (2020, Sec. 5.1) trained "for 25 epochs or until convergence" so. With ``stop_at`` set,
  stop as soon as an evaluation reaches both of its bars (training and validation accuracy,
  the fit gate's: :mod:`tutorlib.fit`) and, where :func:`fit` is given ``confirm``, the
  model also passes that check (the gate measured as the run's report will measure it), and
  keep that model: a network that has learned costs only what it needed. Patience does not
  stop such a run: it trains until it fits, ``max_epochs`` or ``max_seconds``.

Batches (:func:`epoch_batches`) are sorted by length within pools by default: a shuffle of the
pairs cut into pools of ``bucket_pool`` (8) batches, each pool sorted by target length and cut
into batches, the batches shuffled, so a batch holds pairs of about one length (little padding:
:func:`padded_share` measures it) drawn from all over the data. ``bucket_pool=None`` sorts the
whole epoch (every batch of one length: the most pairs a second, but more epochs to fit and an
accuracy that swings from one evaluation to the next; the committed runs whose recipes say so
were trained this way), and ``bucketed=False`` draws random batches.

Teacher forcing (the decoder fed the true previous token, recurrent models only: the others
are always teacher-forced) is a seeded coin per batch with probability ``teacher_forcing``, 1.0
by default (as OpenNMT and fairseq train); Lake & Baroni's 0.5 is stated where it is used.

No host synchronisation inside the loop: batch shapes are known on the host beforehand, the
loss is summed on the device and read at evaluations, and recurrent models, which pack their
inputs by length on the CPU, are given the host's lengths. On a GPU: fp32 with TF32 matrix
products by default (``precision="bf16"`` autocasts). A run can save a *checkpoint* (model,
optimiser, schedule, random state, history) at most every ``checkpoint_every`` seconds and
resume from it: a resumed run ends exactly as one that was never cut (on the CPU).

The measure of speed that matters is *time to fit*: the training seconds until the validation
accuracy first reaches :data:`FIT_SHARE` of the best it reaches (``TrainLog.seconds_to_fit``).
"""

from __future__ import annotations

import inspect
import math
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, fields, replace
from io import BytesIO
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.cache import atomic_write_bytes, key_dict
from tutorlib.checks import check_scalar
from tutorlib.seq2seq.evaluation import evaluate
from tutorlib.seq2seq.models import EMBEDDING_INITS, WEIGHT_INITS
from tutorlib.seq2seq.vocab import PAD, SOS, Vocabulary, encode_pairs
from tutorlib.train import linear_decay, progress_bar, resolve_device

SCHEDULES = ("constant", "inverse_sqrt", "linear")
PRECISIONS = ("auto", "fp32", "bf16")
STOP_REASONS = ("presentations", "patience", "max_epochs", "max_seconds", "fit")
TEACHER_FORCING_PER = ("batch", "example")
LOSS_PER = ("batch", "token")
# Batches are sorted by length within pools of this many (benchmarks/trainer_ablation.py: as
# many pairs a second as bucketing nearly, and as few epochs to fit as random batches); the
# committed runs trained with whole-epoch bucketing say bucket_pool=None in their recipes
DEFAULT_POOL = 8
# "time to fit": seconds until the validation accuracy first reaches this share of its best
FIT_SHARE = 0.9
# Recipe fields added after runs were committed, with their defaults: a recipe's key leaves
# them out while they have these values, so every earlier key stays as it was.
_LATER_FIELDS = {"presentations": None, "final_lr_fraction": 1.0, "bucket_pool": None,
                 "teacher_forcing_per": "batch", "evaluate_every": None, "stop_at": None,
                 "loss_per": "batch", "weight_init": "pytorch", "budget": "training"}
BUDGETS = ("training", "wall")


@dataclass(frozen=True)
class Recipe:
    """How a network is trained: batches, optimiser, schedule, and when to stop.

    Parameters
    ----------
    batch_size : int
        Pairs per batch.
    learning_rate : float
        Adam's (peak) learning rate.
    betas : tuple of float
        Adam's betas (the Transformer of Vaswani et al.: (0.9, 0.98)).
    warmup_steps : int
        Steps over which the learning rate rises linearly to ``learning_rate`` (0: none).
    schedule : {"constant", "inverse_sqrt", "linear"}
        After warm-up the rate stays (``constant``), falls as ``1 / sqrt(step)``
        (``inverse_sqrt``, Vaswani et al. 2017; needs ``warmup_steps``), or, from the first
        step, falls linearly to ``learning_rate * final_lr_fraction`` at the last step
        (``linear``; the warm-up then multiplies it). ``presentations`` needs ``linear``.
    max_epochs : int
        Most epochs (the paper: 25). Training to convergence only.
    patience : int
        Epochs without a better validation accuracy before training stops.
    evaluations_per_epoch : int
        Evaluations (validation and training fit) per epoch.
    max_seconds : float, optional
        The time budget in seconds (None: none); what it counts is ``budget``.
    budget : {"training", "wall"}
        ``max_seconds`` counts the training steps only (``"training"``, the default, so that a
        run's length does not depend on how often it is evaluated), or the wall time of
        training and evaluations together (``"wall"``: the run ends within about one
        evaluation of ``max_seconds``).
    clip_norm : float
        Gradient-norm clipping.
    teacher_forcing : float
        Probability that a batch's decoder is fed the true previous tokens (recurrent models;
        the others are always teacher-forced).
    fit_size : int
        Training pairs and validation pairs decoded at each evaluation (seeded samples).
    embedding_init : {"pytorch", "fairseq"}
        The model's :meth:`init_embeddings` (:func:`tutorlib.seq2seq.init_embeddings`).
    precision : {"auto", "fp32", "bf16"}
        ``auto`` and ``fp32``: fp32, with TF32 matrix products on CUDA; ``bf16``: bf16 autocast.
    bucketed : bool
        Length-bucketed batches (:func:`epoch_batches`); False: random batches.
    presentations : int, optional
        Train on exactly this many examples (rounded up to whole batches) and keep the last
        model, instead of training to convergence.
    final_lr_fraction : float
        ``schedule="linear"``: the last step's rate as a fraction of ``learning_rate``.
    bucket_pool : int, optional
        Sort by length only within pools of this many batches (default :data:`DEFAULT_POOL`);
        None: the whole epoch. With ``bucketed=False`` the default is dropped (set to None)
        and any other pool is an error.
    teacher_forcing_per : {"batch", "example"}
        Where the teacher-forcing coin is flipped: once per batch, or once per example inside
        each batch (Lake & Baroni's coin; their batches hold one example).
    evaluate_every : int, optional
        Evaluate every this many steps and after the last, instead of
        ``evaluations_per_epoch`` times an epoch.
    stop_at : tuple of float, optional
        ``(training, validation)`` accuracy bars: training to convergence stops at the first
        evaluation that reaches both (and that :func:`fit`'s ``confirm`` accepts), and keeps
        that model (``stopped="fit"``); ``patience`` is then not a reason to stop.
    loss_per : {"batch", "token"}
        ``token`` (the default): the batch's summed loss over the mean number of target tokens
        a batch holds in the training set, so every target token weighs the same whatever
        batch it is in (as joeynmt and fairseq weigh tokens when their batches hold a fixed
        number of tokens). ``batch``: each step's loss is the mean over its batch's target
        tokens, so a token of a batch of long targets weighs less than one of short targets;
        the recipes of committed runs, which predate ``token``, say ``batch``
        (:meth:`from_dict`, :meth:`fixed`).
    weight_init : {"pytorch", "xavier"}
        The network's weight matrices as PyTorch draws them, or Xavier-uniform with zero
        biases (joeynmt's default; embeddings untouched): :func:`init_weights`.

    Examples
    --------
    >>> Recipe(batch_size=64, learning_rate=1e-3, warmup_steps=800).scaled_to(256).learning_rate
    0.002
    >>> Recipe(presentations=6400, batch_size=32, schedule="linear").steps(1000)
    200
    """

    batch_size: int = 128
    learning_rate: float = 1e-3
    betas: tuple[float, float] | list[float] = (0.9, 0.999)
    warmup_steps: int = 0
    schedule: str = "constant"
    max_epochs: int = 25
    patience: int = 3
    evaluations_per_epoch: int = 1
    max_seconds: float | None = None
    clip_norm: float = 5.0
    teacher_forcing: float = 1.0
    fit_size: int = 1000
    embedding_init: str = "pytorch"
    precision: str = "auto"
    bucketed: bool = True
    presentations: int | None = None
    final_lr_fraction: float = 1.0
    bucket_pool: int | None = DEFAULT_POOL
    teacher_forcing_per: str = "batch"
    evaluate_every: int | None = None
    stop_at: tuple[float, float] | list[float] | None = None
    loss_per: str = "token"
    weight_init: str = "pytorch"
    budget: str = "training"

    def __post_init__(self) -> None:
        for name, high in (("batch_size", 1 << 20), ("max_epochs", 100_000),
                           ("patience", 100_000), ("evaluations_per_epoch", 1000),
                           ("fit_size", 1 << 24)):
            object.__setattr__(self, name, check_scalar(getattr(self, name), name, int,
                                                         min_val=1, max_val=high))
        object.__setattr__(self, "warmup_steps", check_scalar(
            self.warmup_steps, "warmup_steps", int, min_val=0, max_val=1 << 30))
        for name in ("presentations", "bucket_pool", "evaluate_every"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, check_scalar(getattr(self, name), name, int,
                                                             min_val=1, max_val=1 << 40))
        for name in ("learning_rate", "clip_norm"):
            check_scalar(getattr(self, name), name, float, min_val=0, include_boundaries="right")
        if not 0.0 < self.final_lr_fraction <= 1.0:
            raise ValueError(f"final_lr_fraction must be in (0, 1], got {self.final_lr_fraction!r}")
        if (not isinstance(self.betas, (tuple, list)) or len(self.betas) != 2
                or not all(isinstance(b, (int, float)) and 0 <= b < 1 for b in self.betas)):
            raise ValueError(f"betas must be two numbers in [0, 1), got {self.betas!r}")
        object.__setattr__(self, "betas", tuple(float(b) for b in self.betas))
        if self.budget not in BUDGETS:
            raise ValueError(f"budget must be one of {', '.join(BUDGETS)}, got {self.budget!r}")
        if self.max_seconds is not None and (isinstance(self.max_seconds, bool) or not isinstance(
                self.max_seconds, (int, float)) or not self.max_seconds > 0):
            raise ValueError(f"max_seconds must be None or a positive number, "
                             f"got {self.max_seconds!r}")
        if isinstance(self.teacher_forcing, bool) or not isinstance(
                self.teacher_forcing, (int, float)) or not 0 <= self.teacher_forcing <= 1:
            raise ValueError(f"teacher_forcing must be in [0, 1], got {self.teacher_forcing!r}")
        for name, allowed in (("schedule", SCHEDULES), ("precision", PRECISIONS),
                              ("embedding_init", EMBEDDING_INITS),
                              ("teacher_forcing_per", TEACHER_FORCING_PER),
                              ("loss_per", LOSS_PER), ("weight_init", WEIGHT_INITS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, "
                                 f"got {getattr(self, name)!r}")
        if self.schedule == "inverse_sqrt" and not self.warmup_steps:
            raise ValueError("schedule 'inverse_sqrt' needs warmup_steps > 0")
        if self.presentations is not None and self.schedule != "linear":
            raise ValueError("a recipe with presentations decays linearly: give "
                             "schedule='linear' (final_lr_fraction=1.0 keeps the rate constant)")
        if self.final_lr_fraction != 1.0 and self.schedule != "linear":
            raise ValueError(f"final_lr_fraction is for schedule 'linear', not {self.schedule!r}")
        if not isinstance(self.bucketed, bool):
            raise ValueError(f"bucketed must be True or False, got {self.bucketed!r}")
        if self.stop_at is not None:
            if (not isinstance(self.stop_at, (tuple, list)) or len(self.stop_at) != 2
                    or not all(isinstance(b, (int, float)) and not isinstance(b, bool)
                               and 0 <= b <= 1 for b in self.stop_at)):
                raise ValueError(f"stop_at must be None or two accuracies (training, "
                                 f"validation) from 0 to 1, got {self.stop_at!r}")
            if self.presentations is not None:
                raise ValueError("stop_at is for training to convergence: a recipe with "
                                 "presentations trains exactly that many")
            object.__setattr__(self, "stop_at", tuple(float(b) for b in self.stop_at))
        if not self.bucketed:  # random batches: no pools to sort
            if self.bucket_pool not in (None, DEFAULT_POOL):
                raise ValueError(f"bucket_pool={self.bucket_pool} sorts pools of batches by "
                                 f"length: it needs bucketed=True (random batches have none)")
            object.__setattr__(self, "bucket_pool", None)

    @classmethod
    def fixed(cls, presentations: int, batch_size: int, learning_rate: float,
              final_lr_fraction: float = 1.0, *, teacher_forcing: float = 0.5,
              teacher_forcing_per: str = "batch", warmup_steps: int = 0,
              embedding_init: str = "pytorch", clip_norm: float = 5.0,
              evaluate_every: int | None = None) -> Recipe:
        """The chapters' training: ``presentations`` examples in batches sorted by length
        within pools of 20, the rate decaying linearly to ``final_lr_fraction`` of itself,
        and Lake & Baroni's (2018) teacher forcing on half the batches.

        Examples
        --------
        >>> Recipe.fixed(100_000, 32, 1e-3).teacher_forcing
        0.5
        """
        return cls(presentations=presentations, batch_size=batch_size,
                   learning_rate=learning_rate, final_lr_fraction=final_lr_fraction,
                   schedule="linear", bucket_pool=20, teacher_forcing=teacher_forcing,
                   teacher_forcing_per=teacher_forcing_per, warmup_steps=warmup_steps,
                   embedding_init=embedding_init, clip_norm=clip_norm,
                   evaluate_every=evaluate_every, loss_per="batch")

    def presentations_key(self, seed: int) -> dict:
        """The fields by which runs of a fixed number of presentations were keyed before the
        two trainers were one (and still are, so that their committed keys stay valid)."""
        return {"presentations": self.presentations, "batch_size": self.batch_size,
                "learning_rate": self.learning_rate, "final_lr_fraction": self.final_lr_fraction,
                "clip_norm": self.clip_norm, "teacher_forcing": self.teacher_forcing,
                "seed": seed, "teacher_forcing_per": self.teacher_forcing_per}

    def steps(self, pairs: int) -> int | None:
        """Optimiser steps of a run on ``pairs`` training pairs with ``presentations`` (None
        when it trains to convergence)."""
        if self.presentations is None:
            return None
        return math.ceil(self.presentations / min(self.batch_size, pairs))

    def to_dict(self) -> dict:
        """The fields as plain JSON (``Recipe(**d)`` rebuilds it): part of a run's key. The
        fields added later are left out while they have their defaults (:func:`key_dict`)."""
        values = {**asdict(self), "betas": list(self.betas)}
        if self.stop_at is not None:
            values["stop_at"] = list(self.stop_at)
        return key_dict(values, _LATER_FIELDS)

    @classmethod
    def from_dict(cls, values: Mapping) -> Recipe:
        """A recipe from :meth:`to_dict`'s dict; an error names any unknown key.

        A field added later that the dict leaves out takes the value the runs committed before
        it had (:meth:`to_dict` leaves it out while it has that value), not today's default: a
        dict without ``bucket_pool`` sorts the whole epoch, so a committed run's key rebuilds
        the recipe it was trained with.

        Examples
        --------
        >>> Recipe.from_dict({"batch_size": 32}).bucket_pool is None
        True
        >>> Recipe.from_dict(Recipe().to_dict()) == Recipe()
        True
        """
        if not isinstance(values, Mapping):
            raise ValueError(f"a recipe is a dict of Recipe fields, got {values!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown recipe field(s) {', '.join(unknown)}; known: "
                             f"{', '.join(sorted(known))}")
        return cls(**{**_LATER_FIELDS, **values})

    @classmethod
    def of(cls, values: Mapping) -> Recipe:
        """The recipe a profile's settings give a network: :meth:`fixed`'s keywords when they
        hold ``presentations``, else the fields of a recipe that trains to convergence
        (:meth:`from_dict`); an error names a missing or unknown key.

        Examples
        --------
        >>> Recipe.of({"presentations": 64, "batch_size": 8, "learning_rate": 1e-3}).bucket_pool
        20
        """
        if not isinstance(values, Mapping):
            raise ValueError(f"a recipe is a dict of Recipe fields, got {values!r}")
        if "presentations" not in values:
            return cls.from_dict(values)
        known = [name for name in inspect.signature(cls.fixed).parameters]
        unknown = sorted(set(values) - set(known))
        missing = [name for name in ("batch_size", "learning_rate") if name not in values]
        if unknown or missing:
            raise ValueError(f"a recipe of presentations needs batch_size and learning_rate and "
                             f"may have {', '.join(known[3:])}; missing: "
                             f"{', '.join(missing) or 'none'}; unknown: "
                             f"{', '.join(unknown) or 'none'}")
        return cls.fixed(**values)

    def scaled_to(self, batch_size: int) -> Recipe:
        """The recipe at another batch size: Adam's learning rate scaled by the square root of
        the ratio, the warm-up kept over the same number of examples."""
        check_scalar(batch_size, "batch_size", int, min_val=1, max_val=1 << 20)
        ratio = batch_size / self.batch_size
        return replace(self, batch_size=batch_size,
                       learning_rate=self.learning_rate * math.sqrt(ratio),
                       warmup_steps=math.ceil(self.warmup_steps / ratio))

    def learning_rate_at(self, step: int, num_steps: int) -> float:
        """The learning rate of optimiser step ``step`` (from 0) of ``num_steps``.

        Examples
        --------
        >>> recipe = Recipe(schedule="linear", final_lr_fraction=0.1, learning_rate=1.0)
        >>> [round(recipe.learning_rate_at(step, 3), 6) for step in range(3)]
        [1.0, 0.55, 0.1]
        """
        if self.schedule == "linear":
            rate = linear_decay(self.learning_rate, self.final_lr_fraction, step, num_steps)
            if self.warmup_steps:
                rate *= min(1.0, (step + 1) / self.warmup_steps)
            return rate
        if not self.warmup_steps:
            return self.learning_rate
        if step < self.warmup_steps:
            return self.learning_rate * (step + 1) / self.warmup_steps
        if self.schedule == "inverse_sqrt":
            return self.learning_rate * math.sqrt(self.warmup_steps / (step + 1))
        return self.learning_rate


# ---------------------------------------------------------------------------------------------
# Batches


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


def _coins(recipe: Recipe, batches: list[np.ndarray], rng: np.random.Generator, seed: int,
           first_step: int) -> list:
    """The epoch's teacher-forcing coins: a bool per batch, or a bool array per batch
    (``teacher_forcing_per="example"``). With ``bucket_pool`` each step draws its own from
    ``(seed, step)`` (the chapters' runs); otherwise from the run's generator."""
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


# ---------------------------------------------------------------------------------------------
# Training


@dataclass
class TrainLog:
    """What :func:`fit` did.

    ``history`` has one row per evaluation: ``epoch``, ``step``, ``seconds`` (training time so
    far), ``loss`` (mean training loss since the last evaluation), ``train_accuracy`` and
    ``validation_accuracy`` (when there are validation pairs), and whatever ``on_evaluation``
    added. ``train_accuracy`` and ``validation_accuracy`` are the kept model's: the best on
    validation when training to convergence, the last otherwise. ``losses`` holds every step's
    training loss (not part of :meth:`to_dict`).
    """

    stopped: str
    epochs: float
    steps: int
    best_epoch: float | None
    train_accuracy: float | None
    validation_accuracy: float | None
    train_seconds: float
    evaluation_seconds: float
    pairs_per_second: float
    padded_share: float
    seconds_to_fit: float | None
    history: list[dict] = field(default_factory=list)
    losses: list[float] = field(default_factory=list, repr=False)

    def final_loss(self, window: int = 100) -> float:
        """Mean training loss of the last ``window`` steps."""
        check_scalar(window, "window", int, min_val=1)
        if not self.losses:
            raise ValueError("no training steps were logged")
        return float(np.mean(self.losses[-window:]))

    def to_dict(self) -> dict:
        """The log as plain JSON, without the per-step losses."""
        return {k: v for k, v in asdict(self).items() if k != "losses"}


def _sample(pairs: Sequence, size: int, label: str) -> list:
    pairs = list(pairs)
    if size >= len(pairs):
        return pairs
    return random.Random(label).sample(pairs, size)


def _accuracy(model: nn.Module, pairs: Sequence[tuple[str, str]], source_vocab: Vocabulary,
              target_vocab: Vocabulary, device: torch.device) -> float:
    """:func:`~tutorlib.seq2seq.evaluate`'s exact-match accuracy on ``pairs`` (NaN for none)."""
    if not pairs:
        return float("nan")
    return evaluate(model, pairs, source_vocab, target_vocab, batch_size=1000,
                    device=device).accuracy


def _state_dict_copy(model: nn.Module) -> dict:
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def fit(model: nn.Module, train: Sequence[tuple[str, str]], source_vocab: Vocabulary,
        target_vocab: Vocabulary, recipe: Recipe, *, seed: int,
        validation: Sequence[tuple[str, str]] | None = None,
        device: str | torch.device = "cpu",
        on_evaluation: Callable[[nn.Module], dict] | None = None,
        confirm: Callable[[nn.Module], bool] | None = None,
        checkpoint: str | os.PathLike | None = None, checkpoint_every: float = 60.0,
        desc: str = "training") -> TrainLog:
    """Train ``model`` on ``train`` as ``recipe`` says, and leave it in eval mode holding the
    kept weights (the best on validation when training to convergence, else the last).

    Parameters
    ----------
    model : torch.nn.Module
        From :func:`tutorlib.seq2seq.build_model` (initialised: seed first); moved to ``device``.
    train : sequence of (str, str)
        Training pairs.
    source_vocab, target_vocab : Vocabulary
        The vocabularies.
    recipe : Recipe
        Batches, optimiser, schedule, stopping rule, precision.
    seed : int
        Seeds the order of the batches and the teacher-forcing coins.
    validation : sequence of (str, str), optional
        In-distribution validation pairs (not trained on); training to convergence needs them.
    device : str or torch.device
        ``"cpu"`` (bit-reproducible), ``"cuda"``, ``"mps"`` or ``"auto"``.
    on_evaluation : callable ``model -> dict``, optional
        Called at every evaluation (model in eval mode); its numbers join that history row.
    confirm : callable ``model -> bool``, optional
        With ``recipe.stop_at``: called (model in eval mode) when an evaluation's samples reach
        both bars; training stops there only if it returns True (e.g. the fit gate on the
        larger sample the run's report reads), else it goes on. Its time counts as evaluation.
    checkpoint : str or path, optional
        A file to save the run's state to at most every ``checkpoint_every`` training seconds,
        and to resume from when it exists; removed when the run ends.
    checkpoint_every : float
        Seconds between checkpoints.
    desc : str
        The progress bar's label.

    Returns
    -------
    TrainLog
        Where and why it stopped, the kept model's fit, timings and the history.
    """
    if not isinstance(recipe, Recipe):
        raise ValueError(f"recipe must be a Recipe, got {type(recipe).__name__}")
    if not train:
        raise ValueError("no training pairs")
    converging = recipe.presentations is None
    if confirm is not None and recipe.stop_at is None:
        raise ValueError("confirm is a check (model -> bool) for a recipe with stop_at; this "
                         "recipe has no stop_at")
    if converging and not validation:
        raise ValueError("training to convergence needs validation pairs (the stopping rule "
                         "reads them); or give the recipe presentations")
    check_scalar(seed, "seed", int, min_val=0, max_val=2**63 - 1)
    check_scalar(checkpoint_every, "checkpoint_every", float, min_val=0)
    device = resolve_device(device)
    data = encode_pairs(train, source_vocab, target_vocab,
                        source_eos=bool(getattr(getattr(model, "config", None), "source_eos",
                                                False)))
    source_lengths = data.source_lengths.numpy()
    target_lengths = data.target_lengths.numpy()
    data = data.to(device)
    model.to(device)
    # foreach: one multi-tensor update for all parameters (the same numbers, fewer calls)
    optimizer = torch.optim.Adam(model.parameters(), lr=recipe.learning_rate,
                                 betas=recipe.betas, foreach=True)
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True  # fp32 work on the matrix units
        torch.backends.cudnn.allow_tf32 = True
    autocast = (torch.autocast(device.type, dtype=torch.bfloat16)
                if recipe.precision == "bf16" else nullcontext())
    # recurrent encoders pack by length on the CPU: give them the host's lengths (no wait)
    host_lengths = bool(getattr(model, "host_lengths", False))
    train_check = _sample(train, recipe.fit_size, f"fit-train-{len(train)}")
    validation = (_sample(validation, recipe.fit_size, f"fit-validation-{len(validation)}")
                  if validation else [])

    rng = np.random.default_rng([seed, 7919])
    size = min(recipe.batch_size, len(data))
    per_epoch = math.ceil(len(data) / size)
    # loss_per="token": every step divides its summed loss by one number, the target tokens
    # of an average batch, so every token weighs the same (and the step's scale stays that of
    # a mean)
    tokens_per_batch = float(target_lengths.mean()) * size
    num_steps = recipe.steps(len(data)) or recipe.max_epochs * per_epoch
    max_epochs = math.ceil(num_steps / per_epoch)
    if recipe.evaluate_every is not None:
        evaluate_at = None
    else:
        evaluate_at = sorted({max(1, round(per_epoch * (i + 1) / recipe.evaluations_per_epoch))
                              for i in range(recipe.evaluations_per_epoch)})
    patience_evaluations = recipe.patience * (len(evaluate_at) if evaluate_at else
                                              max(1, per_epoch // recipe.evaluate_every))

    state = {"epoch": 0, "batch": 0, "step": 0, "train_seconds": 0.0, "evaluation_seconds": 0.0,
             "best_accuracy": -1.0, "best_state": None, "best_row": None, "bad": 0,
             "padding": [], "loss_count": 0, "pairs_seen": 0, "history": [],
             "stopped": "presentations" if not converging else "max_epochs"}
    # every step's loss, on the device (no wait to read it), in a buffer that grows by epochs
    losses = torch.zeros(min(num_steps, 2 * per_epoch), device=device)
    loss_sum = torch.zeros((), device=device)
    checkpoint = Path(checkpoint) if checkpoint is not None else None
    batches = coins = None
    if checkpoint is not None and checkpoint.exists():
        saved = torch.load(checkpoint, map_location=device, weights_only=False)
        if saved.get("recipe") != recipe.to_dict() or saved.get("seed") != seed:
            raise ValueError(f"the checkpoint {checkpoint} is of another run (recipe "
                             f"{saved.get('recipe')}, seed {saved.get('seed')}); remove it or "
                             f"give this run another checkpoint path")
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        if device.type == "cuda" and saved.get("cuda_rng") is not None:
            torch.cuda.set_rng_state(saved["cuda_rng"], device)
        state = saved["state"]
        losses = torch.zeros(max(len(losses), state["step"] + per_epoch), device=device)
        losses[: state["step"]] = saved["losses"].to(device)
        loss_sum.fill_(saved["loss_sum"])
        batches, coins = saved["batches"], saved["coins"]

    def save_checkpoint() -> None:
        payload = {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                   "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
                   "cuda_rng": torch.cuda.get_rng_state(device) if device.type == "cuda" else None,
                   "state": state, "losses": losses[: state["step"]].cpu(),
                   "loss_sum": float(loss_sum), "batches": batches, "coins": coins,
                   "recipe": recipe.to_dict(), "seed": seed}
        checkpoint.parent.mkdir(parents=True, exist_ok=True)
        buffer = BytesIO()
        torch.save(payload, buffer)
        atomic_write_bytes(checkpoint, buffer.getvalue())

    bar = progress_bar(total=num_steps, desc=desc, initial=state["step"])
    first_step, first_seconds = state["step"], state["train_seconds"]
    last_saved = state["train_seconds"]
    stop = False
    while state["epoch"] < max_epochs and not stop:
        epoch = state["epoch"]
        if batches is None:  # a new epoch (a resumed one has its batches)
            batches = epoch_batches(recipe, target_lengths, source_lengths, rng=rng, seed=seed,
                                    epoch=epoch)
            coins = _coins(recipe, batches, rng, seed, epoch * per_epoch)
            state["padding"].append(padded_share(batches, source_lengths, target_lengths))
        flat = torch.from_numpy(np.concatenate(batches)).to(device)  # one copy an epoch
        if len(losses) < min(num_steps, state["step"] + len(batches)):
            losses = torch.cat([losses, torch.zeros(len(losses) + len(batches), device=device)])
        offsets = np.cumsum([0] + [len(b) for b in batches])
        started = time.perf_counter()
        model.train()
        for b in range(state["batch"], len(batches)):
            batch = batches[b]
            index = flat[offsets[b]:offsets[b + 1]]
            source = data.source[index, :int(source_lengths[batch].max())]  # known on the host
            target = data.target[index, :int(target_lengths[batch].max())]
            target_in = torch.cat([torch.full_like(target[:, :1], SOS), target[:, :-1]], 1)
            lengths = (torch.from_numpy(source_lengths[batch]) if host_lengths
                       else data.source_lengths[index])
            forced = coins[b]
            forced = (torch.from_numpy(forced).to(device) if isinstance(forced, np.ndarray)
                      else bool(forced))
            step = state["step"]
            for group in optimizer.param_groups:  # a function of the step: resuming is exact
                group["lr"] = recipe.learning_rate_at(step, num_steps)
            optimizer.zero_grad(set_to_none=True)
            with autocast:
                logits = model(source, lengths, target_in, teacher_forcing=forced)
                if recipe.loss_per == "token":
                    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(),
                                           target.reshape(-1), ignore_index=PAD,
                                           reduction="sum") / tokens_per_batch
                else:
                    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(),
                                           target.reshape(-1), ignore_index=PAD)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), recipe.clip_norm)
            optimizer.step()
            loss = loss.detach()
            losses[step] = loss
            loss_sum += loss
            state["loss_count"] += 1
            state["pairs_seen"] += len(batch)
            state["step"] = step = step + 1
            state["batch"] = b + 1
            bar.update(1)
            elapsed = state["train_seconds"] + time.perf_counter() - started
            # the budget is checked every step on the host's clock (no wait for the device),
            # and a run that reaches it is evaluated at once
            spent = elapsed + (state["evaluation_seconds"] if recipe.budget == "wall" else 0.0)
            out_of_time = recipe.max_seconds is not None and spent >= recipe.max_seconds
            if recipe.max_seconds is not None and step % 50 == 0 and elapsed > 0:
                # the bar's total: the steps the budget leaves room for, at the rate so far
                rate = (step - first_step) / max(elapsed - first_seconds, 1e-9)
                room = state["step"] + rate * max(recipe.max_seconds - spent, 0.0)
                bar.total = max(step, min(num_steps, int(room)))
            last = step >= num_steps
            due = (step % recipe.evaluate_every == 0 or last) if evaluate_at is None \
                else (b + 1 in evaluate_at or last)
            if not (due and (converging or validation or on_evaluation)) and not out_of_time \
                    and not last:
                if checkpoint is not None and elapsed - last_saved >= checkpoint_every:
                    state["train_seconds"] = elapsed
                    started = time.perf_counter()
                    save_checkpoint()
                    last_saved = state["train_seconds"]
                continue
            # an evaluation (or the end): the only place the loop waits for the device
            if device.type == "cuda":
                torch.cuda.synchronize(device)
            state["train_seconds"] += time.perf_counter() - started
            tick = time.perf_counter()
            mean_loss = float(loss_sum) / max(state["loss_count"], 1)
            if not math.isfinite(mean_loss):
                raise FloatingPointError(f"{desc}: the training loss became {mean_loss} in "
                                         f"epoch {epoch + 1} (step {step})")
            if due or out_of_time:
                loss_sum.zero_()
                state["loss_count"] = 0
                model.eval()
                row = {"epoch": round(epoch + (b + 1) / per_epoch, 4), "step": step,
                       "seconds": round(state["train_seconds"], 2), "loss": round(mean_loss, 5)}
                if validation:
                    row["train_accuracy"] = _accuracy(model, train_check, source_vocab,
                                                      target_vocab, device)
                    row["validation_accuracy"] = _accuracy(model, validation, source_vocab,
                                                           target_vocab, device)
                if on_evaluation is not None:
                    row.update(on_evaluation(model))
                state["history"].append(row)
                if converging:
                    if row["validation_accuracy"] > state["best_accuracy"]:
                        state.update(best_accuracy=row["validation_accuracy"], best_row=row,
                                     bad=0, best_state=_state_dict_copy(model))
                    else:
                        state["bad"] += 1
                    bar.set_postfix(loss=f"{mean_loss:.3f}", train=f"{row['train_accuracy']:.2f}",
                                    valid=f"{row['validation_accuracy']:.2f}")
                else:
                    bar.set_postfix(loss=f"{mean_loss:.3f}")
                model.train()
            state["evaluation_seconds"] += time.perf_counter() - tick
            started = time.perf_counter()
            reached = (converging and recipe.stop_at is not None and (due or out_of_time)
                       and state["history"][-1]["train_accuracy"] >= recipe.stop_at[0]
                       and state["history"][-1]["validation_accuracy"] >= recipe.stop_at[1])
            if reached and confirm is not None:  # the gate as the report measures it
                tick = time.perf_counter()
                model.eval()
                reached = bool(confirm(model))
                model.train()
                state["history"][-1]["confirmed"] = reached
                state["evaluation_seconds"] += time.perf_counter() - tick
                started = time.perf_counter()
            if reached:  # keep this model, the first that passed
                state.update(best_row=state["history"][-1], best_state=_state_dict_copy(model))
                state["stopped"], stop = "fit", True
            elif (converging and recipe.stop_at is None
                  and state["bad"] >= patience_evaluations):
                state["stopped"], stop = "patience", True
            elif out_of_time or (recipe.budget == "wall" and recipe.max_seconds is not None and
                                 state["train_seconds"] + state["evaluation_seconds"]
                                 >= recipe.max_seconds):
                state["stopped"], stop = "max_seconds", True
            elif last:  # stopped stays "presentations" or "max_epochs"
                stop = True
            if stop:
                break
        else:  # the epoch ran to its end
            state["train_seconds"] += time.perf_counter() - started
            state.update(epoch=epoch + 1, batch=0)
            batches = None
    bar.total = bar.n  # the run is over: the bar ends full, where it stopped
    bar.refresh()
    bar.close()
    if checkpoint is not None and checkpoint.exists():
        checkpoint.unlink()
    history = state["history"]  # never empty: the last step is evaluated
    if converging:
        model.load_state_dict(state["best_state"])
        kept = state["best_row"]
    else:
        kept = history[-1]
    model.eval()
    seconds_to_fit = None
    if validation:
        target = FIT_SHARE * max(r["validation_accuracy"] for r in history)
        seconds_to_fit = next(r["seconds"] for r in history if r["validation_accuracy"] >= target)
    return TrainLog(
        stopped=state["stopped"], epochs=history[-1]["epoch"], steps=state["step"],
        best_epoch=kept.get("epoch"),
        train_accuracy=kept.get("train_accuracy"),
        validation_accuracy=kept.get("validation_accuracy"),
        train_seconds=round(state["train_seconds"], 2),
        evaluation_seconds=round(state["evaluation_seconds"], 2),
        pairs_per_second=round(state["pairs_seen"] / max(state["train_seconds"], 1e-9), 1),
        padded_share=round(float(np.mean(state["padding"])), 4), seconds_to_fit=seconds_to_fit,
        history=history, losses=losses[: state["step"]].tolist())
