"""How a sequence-to-sequence network is trained: the :class:`Recipe` that
:func:`~tutorlib.seq2seq.training.fit` follows.

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
  the fit gate's: :mod:`tutorlib.fit`) and, where :func:`~tutorlib.seq2seq.training.fit` is
  given ``confirm``, the model also passes that check (the gate measured as the run's report
  will measure it), and keep that model: a network that has learned costs only what it
  needed. Patience does not stop such a run: it trains until it fits, ``max_epochs`` or
  ``max_seconds``.

A recipe's :meth:`~Recipe.to_dict` is part of every committed run's key: the fields added after
runs were committed (``_LATER_FIELDS``) are left out while they have the values those runs had.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace

from tutorlib.cache import key_dict
from tutorlib.checks import check_scalar
from tutorlib.seq2seq.models import EMBEDDING_INITS, WEIGHT_INITS
from tutorlib.train import linear_decay

SCHEDULES = ("constant", "inverse_sqrt", "linear")
PRECISIONS = ("auto", "fp32", "bf16")
TEACHER_FORCING_PER = ("batch", "example")
LOSS_PER = ("batch", "token")
# Batches are sorted by length within pools of this many (benchmarks/trainer_ablation.py: as
# many pairs a second as bucketing nearly, and as few epochs to fit as random batches); the
# committed runs trained with whole-epoch bucketing say bucket_pool=None in their recipes
DEFAULT_POOL = 8
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
        Length-bucketed batches (:func:`~tutorlib.seq2seq.batches.epoch_batches`); False: random batches.
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
        evaluation that reaches both (and that :func:`~tutorlib.seq2seq.training.fit`'s
        ``confirm`` accepts), and keeps that model (``stopped="fit"``); ``patience`` is then
        not a reason to stop.
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
        biases (joeynmt's default; embeddings untouched): :func:`~tutorlib.seq2seq.init_weights`.

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
