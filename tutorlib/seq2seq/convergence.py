"""Train a sequence-to-sequence network until it has learned: the convergence recipe.

Hupkes et al. (2020, Sec. 5.1) trained each architecture "for 25 epochs or until convergence"
and kept the model that did best on validation data. :func:`fit_to_convergence` does the same
for any model of :func:`tutorlib.seq2seq.build_model`, and records the *fit* a comparison needs:
exact-match accuracy on a fixed sample of the run's own training pairs and on an
in-distribution validation set, at every evaluation and for the model kept.

- **The stopping rule** (:class:`Recipe`): evaluate ``evaluations_per_epoch`` times an epoch;
  stop when the validation accuracy has not improved for ``patience`` epochs, after
  ``max_epochs`` epochs, or when ``max_seconds`` of training have passed (a budget for sweeps
  on a lent machine); keep the best model on validation. The result says where and why it
  stopped.
- **Length-bucketed batches** (:func:`bucketed_batches`): every epoch the pairs are sorted by
  target and source length (ties broken at random), cut into batches and the batches shuffled,
  so a batch holds pairs of one length and padding hardly costs anything
  (:func:`padded_share` measures it).
- **On a GPU**: large batches in bf16 autocast (or fp32 with TF32), the data moved to the
  device once, and no reading back inside the loop (the loss is summed on the device and read
  at evaluations; batch shapes are known on the host beforehand). One wait remains for the
  recurrent models: packing a batch by length copies its order to the device (PyTorch's
  ``pack_padded_sequence``). On the CPU: fp32, and the caller's thread count (one per run in
  the sweeps). :meth:`Recipe.scaled_to` scales the learning rate and the warm-up to another
  batch size.

The measure of speed that matters is *time to fit*: the training seconds until the validation
accuracy first reaches 0.9 of the best it reaches (``FitResult.seconds_to_fit``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, fields

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.checks import check_scalar
from tutorlib.seq2seq.evaluation import evaluate
from tutorlib.seq2seq.models import EMBEDDING_INITS
from tutorlib.seq2seq.recurrent import RNNSeq2Seq
from tutorlib.seq2seq.vocab import PAD, SOS, Vocabulary, encode_pairs
from tutorlib.train import progress_bar, resolve_device

SCHEDULES = ("constant", "inverse_sqrt")
PRECISIONS = ("auto", "fp32", "bf16")
STOP_REASONS = ("patience", "max_epochs", "max_seconds")
# "time to fit": seconds until the validation accuracy first reaches this share of its best
FIT_SHARE = 0.9


@dataclass(frozen=True)
class Recipe:
    """How a network is trained to convergence.

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
    schedule : {"constant", "inverse_sqrt"}
        After warm-up, the rate stays (``constant``) or falls as ``1 / sqrt(step)``
        (``inverse_sqrt``, Vaswani et al. 2017; needs ``warmup_steps``).
    max_epochs : int
        Most epochs (the paper: 25).
    patience : int
        Epochs without a better validation accuracy before training stops.
    evaluations_per_epoch : int
        Evaluations (validation and training fit) per epoch.
    max_seconds : float, optional
        Training-time budget in seconds (evaluations not counted); None: none.
    clip_norm : float
        Gradient-norm clipping.
    teacher_forcing : float
        Share of batches whose decoder is fed the true previous tokens (recurrent models; the
        others are always teacher-forced, as OpenNMT and fairseq train them).
    fit_size : int
        Training pairs and validation pairs decoded at each evaluation (seeded samples).
    embedding_init : {"pytorch", "fairseq"}
        :func:`tutorlib.seq2seq.init_embeddings`.
    precision : {"auto", "fp32", "bf16"}
        ``auto``: bf16 autocast on CUDA, fp32 elsewhere. On CUDA, fp32 matrix products use
        TF32.
    bucketed : bool
        Length-bucketed batches (:func:`bucketed_batches`); False: random batches.

    Examples
    --------
    >>> Recipe(batch_size=64, learning_rate=1e-3, warmup_steps=800).scaled_to(256).learning_rate
    0.002
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

    def __post_init__(self) -> None:
        for name, high in (("batch_size", 1 << 20), ("max_epochs", 100_000),
                           ("patience", 100_000), ("evaluations_per_epoch", 1000),
                           ("fit_size", 1 << 24)):
            object.__setattr__(self, name, check_scalar(getattr(self, name), name, int,
                                                         min_val=1, max_val=high))
        object.__setattr__(self, "warmup_steps", check_scalar(
            self.warmup_steps, "warmup_steps", int, min_val=0, max_val=1 << 30))
        for name in ("learning_rate", "clip_norm"):
            check_scalar(getattr(self, name), name, float, min_val=0, include_boundaries="right")
        if (not isinstance(self.betas, (tuple, list)) or len(self.betas) != 2
                or not all(isinstance(b, (int, float)) and 0 <= b < 1 for b in self.betas)):
            raise ValueError(f"betas must be two numbers in [0, 1), got {self.betas!r}")
        object.__setattr__(self, "betas", tuple(float(b) for b in self.betas))
        if self.max_seconds is not None and (isinstance(self.max_seconds, bool) or not isinstance(
                self.max_seconds, (int, float)) or not self.max_seconds > 0):
            raise ValueError(f"max_seconds must be None or a positive number, "
                             f"got {self.max_seconds!r}")
        if isinstance(self.teacher_forcing, bool) or not isinstance(
                self.teacher_forcing, (int, float)) or not 0 <= self.teacher_forcing <= 1:
            raise ValueError(f"teacher_forcing must be in [0, 1], got {self.teacher_forcing!r}")
        for name, allowed in (("schedule", SCHEDULES), ("precision", PRECISIONS),
                              ("embedding_init", EMBEDDING_INITS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, "
                                 f"got {getattr(self, name)!r}")
        if self.schedule == "inverse_sqrt" and not self.warmup_steps:
            raise ValueError("schedule 'inverse_sqrt' needs warmup_steps > 0")
        if not isinstance(self.bucketed, bool):
            raise ValueError(f"bucketed must be True or False, got {self.bucketed!r}")

    def to_dict(self) -> dict:
        """The fields as plain JSON (``Recipe(**d)`` rebuilds it): part of a run's key."""
        return {**asdict(self), "betas": list(self.betas)}

    @classmethod
    def from_dict(cls, values: dict) -> Recipe:
        """A recipe from :meth:`to_dict`'s dict; an error names any unknown key."""
        if not isinstance(values, dict):
            raise ValueError(f"a recipe is a dict of Recipe fields, got {values!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown recipe field(s) {', '.join(unknown)}; known: "
                             f"{', '.join(sorted(known))}")
        return cls(**values)

    def scaled_to(self, batch_size: int) -> Recipe:
        """The recipe at another batch size: Adam's learning rate scaled by the square root of
        the ratio, the warm-up kept over the same number of examples."""
        check_scalar(batch_size, "batch_size", int, min_val=1, max_val=1 << 20)
        ratio = batch_size / self.batch_size
        return Recipe(**{**asdict(self), "batch_size": batch_size,
                         "learning_rate": self.learning_rate * math.sqrt(ratio),
                         "warmup_steps": math.ceil(self.warmup_steps / ratio)})



# ---------------------------------------------------------------------------------------------
# Batches


def bucketed_batches(target_lengths: np.ndarray, source_lengths: np.ndarray, batch_size: int,
                     rng: np.random.Generator) -> list[np.ndarray]:
    """One epoch of length-bucketed batches: the pairs sorted by target length, then source
    length, ties broken at random; cut into batches of ``batch_size``; the batches shuffled.

    Every pair appears once. A batch holds pairs of (nearly) one length, so little of it is
    padding, and the random ties give different batches every epoch.

    Parameters
    ----------
    target_lengths, source_lengths : numpy.ndarray
        Each pair's target and source length (tokens).
    batch_size : int
        Pairs per batch (the last batch of a length may be smaller).
    rng : numpy.random.Generator
        Breaks ties and shuffles the batches.

    Returns
    -------
    list of numpy.ndarray
        The batches, as arrays of pair indices.

    Examples
    --------
    >>> batches = bucketed_batches(np.array([3, 1, 3, 1]), np.array([2, 2, 2, 2]), 2,
    ...                            np.random.default_rng(0))
    >>> sorted(sorted(b.tolist()) for b in batches)
    [[0, 2], [1, 3]]
    """
    order = np.lexsort((rng.random(len(target_lengths)), source_lengths, target_lengths))
    batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
    rng.shuffle(batches)
    return batches


def random_batches(count: int, batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """One epoch of batches of a random permutation (the baseline of :func:`bucketed_batches`).

    Parameters
    ----------
    count : int
        Number of pairs.
    batch_size : int
        Pairs per batch.
    rng : numpy.random.Generator
        Draws the permutation.

    Returns
    -------
    list of numpy.ndarray
        The batches, as arrays of pair indices.
    """
    order = rng.permutation(count)
    return [order[i:i + batch_size] for i in range(0, count, batch_size)]


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
class FitResult:
    """What :func:`fit_to_convergence` did.

    ``history`` has one row per evaluation: ``epoch``, ``step``, ``seconds`` (training time so
    far), ``loss`` (mean training loss since the last evaluation), ``train_accuracy``,
    ``validation_accuracy`` and whatever ``on_evaluation`` added. ``train_accuracy`` and
    ``validation_accuracy`` are the kept (best on validation) model's.
    """

    stopped: str
    epochs: float
    steps: int
    best_epoch: float
    train_accuracy: float
    validation_accuracy: float
    train_seconds: float
    evaluation_seconds: float
    pairs_per_second: float
    padded_share: float
    seconds_to_fit: float
    history: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def _sample(pairs: Sequence, size: int, label: str) -> list:
    pairs = list(pairs)
    if size >= len(pairs):
        return pairs
    return random.Random(label).sample(pairs, size)


def exact_match(model: nn.Module, pairs: Sequence[tuple[str, str]], source_vocab: Vocabulary,
                target_vocab: Vocabulary, device: torch.device, batch_size: int = 1000) -> float:
    """Share of ``pairs`` whose greedy prediction equals the target exactly
    (:func:`tutorlib.seq2seq.evaluate`'s accuracy).

    Parameters
    ----------
    model : torch.nn.Module
        A model from :func:`tutorlib.seq2seq.build_model`.
    pairs : sequence of (str, str)
        Sources and targets.
    source_vocab, target_vocab : Vocabulary
        The model's vocabularies.
    device : torch.device
        Where it decodes.
    batch_size : int
        Sources decoded at once.

    Returns
    -------
    float
        Exact-match accuracy, from 0 to 1.
    """
    if not pairs:
        return float("nan")
    return evaluate(model, pairs, source_vocab, target_vocab, batch_size=batch_size,
                    device=device).accuracy


def _learning_rate(recipe: Recipe, step: int) -> float:
    """The learning rate at optimiser step ``step`` (0-based)."""
    if not recipe.warmup_steps:
        return recipe.learning_rate
    if step < recipe.warmup_steps:
        return recipe.learning_rate * (step + 1) / recipe.warmup_steps
    if recipe.schedule == "inverse_sqrt":
        return recipe.learning_rate * math.sqrt(recipe.warmup_steps / (step + 1))
    return recipe.learning_rate


def fit_to_convergence(model: nn.Module, train: Sequence[tuple[str, str]],
                       validation: Sequence[tuple[str, str]], source_vocab: Vocabulary,
                       target_vocab: Vocabulary, recipe: Recipe, *, seed: int,
                       device: str | torch.device = "cpu",
                       on_evaluation: Callable[[nn.Module], dict] | None = None,
                       desc: str = "training") -> FitResult:
    """Train ``model`` on ``train`` until its accuracy on ``validation`` stops improving, and
    leave it holding the best weights on validation (in eval mode).

    Parameters
    ----------
    model : torch.nn.Module
        From :func:`tutorlib.seq2seq.build_model` (initialised: seed first); moved to ``device``.
    train, validation : sequence of (str, str)
        Training pairs, and in-distribution validation pairs (not trained on).
    source_vocab, target_vocab : Vocabulary
        The vocabularies.
    recipe : Recipe
        Batches, optimiser, stopping rule, precision.
    seed : int
        Seeds the order of the batches and the teacher-forcing coins.
    device : str or torch.device
        ``"cpu"`` (fp32, bit-reproducible), ``"cuda"`` (bf16 autocast by default) or ``"auto"``.
    on_evaluation : callable ``model -> dict``, optional
        Called at every evaluation (model in eval mode); its numbers join that history row.
    desc : str
        The progress bar's label.

    Returns
    -------
    FitResult
        Where and why it stopped, the kept model's fit, timings and the history.
    """
    if not isinstance(recipe, Recipe):
        raise ValueError(f"recipe must be a Recipe, got {type(recipe).__name__}")
    if not train:
        raise ValueError("no training pairs")
    if not validation:
        raise ValueError("no validation pairs: the stopping rule needs some")
    check_scalar(seed, "seed", int, min_val=0, max_val=2**63 - 1)
    device = resolve_device(device)
    data = encode_pairs(train, source_vocab, target_vocab)
    source_lengths = data.source_lengths.numpy()
    target_lengths = data.target_lengths.numpy()
    data = data.to(device)
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=recipe.learning_rate,
                                 betas=recipe.betas)
    bf16 = recipe.precision == "bf16" or (recipe.precision == "auto" and device.type == "cuda")
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True  # fp32 work on the matrix units
        torch.backends.cudnn.allow_tf32 = True
    autocast = (torch.autocast(device.type, dtype=torch.bfloat16) if bf16 else nullcontext())
    recurrent = isinstance(model, RNNSeq2Seq)
    train_check = _sample(train, recipe.fit_size, f"fit-train-{len(train)}")
    validation = _sample(validation, recipe.fit_size, f"fit-validation-{len(validation)}")

    rng = np.random.default_rng([seed, 7919])
    size = min(recipe.batch_size, len(data))
    per_epoch = math.ceil(len(data) / size)
    evaluate_at = sorted({max(1, round(per_epoch * (i + 1) / recipe.evaluations_per_epoch))
                          for i in range(recipe.evaluations_per_epoch)})
    patience_evaluations = recipe.patience * len(evaluate_at)

    history: list[dict] = []
    best_accuracy, best_state, best_row = -1.0, None, None
    bad, step, train_seconds, evaluation_seconds = 0, 0, 0.0, 0.0
    padding: list[float] = []
    loss_sum = torch.zeros((), device=device)
    loss_count = pairs_seen = 0
    stopped = "max_epochs"
    bar = progress_bar(total=recipe.max_epochs * per_epoch, desc=desc)
    for epoch in range(recipe.max_epochs):
        batches = (bucketed_batches(target_lengths, source_lengths, size, rng) if recipe.bucketed
                   else random_batches(len(data), size, rng))
        padding.append(padded_share(batches, source_lengths, target_lengths))
        flat = torch.from_numpy(np.concatenate(batches)).to(device)  # one copy an epoch
        coins = rng.random(len(batches)) < recipe.teacher_forcing
        offset, started = 0, time.perf_counter()
        stop = False
        model.train()
        for b, batch in enumerate(batches):
            index = flat[offset:offset + len(batch)]
            offset += len(batch)
            source_max = int(source_lengths[batch].max())  # known on the host: no sync
            target_max = int(target_lengths[batch].max())
            source = data.source[index, :source_max]
            target = data.target[index, :target_max]
            target_in = torch.cat([torch.full_like(target[:, :1], SOS), target[:, :-1]], 1)
            # recurrent encoders pack by length on the CPU: give them the host's lengths
            lengths = (torch.from_numpy(source_lengths[batch]) if recurrent
                       else data.source_lengths[index])
            for group in optimizer.param_groups:
                group["lr"] = _learning_rate(recipe, step)
            optimizer.zero_grad(set_to_none=True)
            with autocast:
                logits = model(source, lengths, target_in, teacher_forcing=bool(coins[b]))
                loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(),
                                       target.reshape(-1), ignore_index=PAD)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), recipe.clip_norm)
            optimizer.step()
            loss_sum += loss.detach()
            loss_count += 1
            pairs_seen += len(batch)
            step += 1
            bar.update(1)
            # the budget is checked every step on the host's clock (no wait for the device),
            # and a run that reaches it is evaluated at once: between evaluations an epoch of
            # a large set can take minutes
            out_of_time = (recipe.max_seconds is not None and train_seconds
                           + time.perf_counter() - started >= recipe.max_seconds)
            if b + 1 not in evaluate_at and not out_of_time:
                continue
            # an evaluation: the only place the loop waits for the device
            if device.type == "cuda":
                torch.cuda.synchronize(device)
            train_seconds += time.perf_counter() - started
            tick = time.perf_counter()
            mean_loss = float(loss_sum) / max(loss_count, 1)
            if not math.isfinite(mean_loss):
                raise FloatingPointError(f"{desc}: the training loss became {mean_loss} in "
                                         f"epoch {epoch + 1}")
            loss_sum.zero_()
            loss_count = 0
            model.eval()
            row = {"epoch": round(epoch + (b + 1) / per_epoch, 4), "step": step,
                   "seconds": round(train_seconds, 2), "loss": round(mean_loss, 5),
                   "train_accuracy": exact_match(model, train_check, source_vocab,
                                                 target_vocab, device),
                   "validation_accuracy": exact_match(model, validation, source_vocab,
                                                      target_vocab, device)}
            if on_evaluation is not None:
                row.update(on_evaluation(model))
            history.append(row)
            if row["validation_accuracy"] > best_accuracy:
                best_accuracy, best_row, bad = row["validation_accuracy"], row, 0
                best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
            else:
                bad += 1
            bar.set_postfix(loss=f"{mean_loss:.3f}", train=f"{row['train_accuracy']:.2f}",
                            valid=f"{row['validation_accuracy']:.2f}")
            model.train()
            evaluation_seconds += time.perf_counter() - tick
            started = time.perf_counter()
            if bad >= patience_evaluations:
                stopped, stop = "patience", True
            elif recipe.max_seconds is not None and train_seconds >= recipe.max_seconds:
                stopped, stop = "max_seconds", True
            if stop:
                break
        if stop:
            break
    bar.close()
    model.load_state_dict(best_state)
    model.eval()
    target = FIT_SHARE * best_accuracy
    seconds_to_fit = next(r["seconds"] for r in history if r["validation_accuracy"] >= target)
    return FitResult(
        stopped=stopped, epochs=history[-1]["epoch"], steps=step, best_epoch=best_row["epoch"],
        train_accuracy=best_row["train_accuracy"],
        validation_accuracy=best_row["validation_accuracy"],
        train_seconds=round(train_seconds, 2), evaluation_seconds=round(evaluation_seconds, 2),
        pairs_per_second=round(pairs_seen / max(train_seconds, 1e-9), 1),
        padded_share=round(float(np.mean(padding)), 4), seconds_to_fit=seconds_to_fit,
        history=history)
