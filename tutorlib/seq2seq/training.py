"""Batched training as Lake & Baroni (2018) train: Adam, gradient clipping and teacher forcing
on a random half of the batches, counted in *presentations* (examples seen), as the paper
counts its 100,000 training trials.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.checks import check_scalar
from tutorlib.seq2seq.vocab import PAD, SOS, EncodedPairs
from tutorlib.train import TrainLog, fit, linear_decay, resolve_device


def _batch(data: EncodedPairs, index: torch.Tensor):
    s_len, t_len = data.source_lengths[index], data.target_lengths[index]
    source = data.source[index, : int(s_len.max())]
    target = data.target[index, : int(t_len.max())]
    sos = torch.full((len(index), 1), SOS, dtype=torch.long, device=target.device)
    return source, s_len, torch.cat([sos, target[:, :-1]], 1), target


def batch_loss(model: nn.Module, data: EncodedPairs, index: torch.Tensor,
               teacher_forcing: bool | torch.Tensor = True) -> torch.Tensor:
    """Mean cross-entropy per target token (EOS included, padding excluded).

    Parameters
    ----------
    model : torch.nn.Module
        A model from :func:`build_model`, on the device of ``data``.
    data : EncodedPairs
        The encoded pairs.
    index : torch.Tensor
        The batch's example indices, on the device of ``data``.
    teacher_forcing : bool or torch.Tensor
        Feed the decoder the true previous tokens (recurrent models; the others always are):
        for the whole batch, or per example (a boolean tensor, one flag per index).

    Returns
    -------
    torch.Tensor
        The scalar loss, with its graph (call ``backward`` on it).
    """
    source, s_len, target_in, target = _batch(data, index)
    logits = model(source, s_len, target_in, teacher_forcing=teacher_forcing)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1),
                           ignore_index=PAD)


@dataclass
class TrainSettings:
    """Training as in Lake & Baroni (2018): Adam 1e-3, clip 5, teacher forcing half the time.

    ``final_lr_fraction`` below 1 decays the learning rate linearly, from ``learning_rate`` at
    the first step to ``learning_rate * final_lr_fraction`` at the last (the paper: constant).
    ``teacher_forcing_per`` is where the teacher-forcing coin is flipped: once per ``"batch"``
    (the default) or once per ``"example"`` inside each batch (the paper's coin; its batches
    hold one example).
    """

    presentations: int = 100_000
    batch_size: int = 32
    learning_rate: float = 1e-3
    final_lr_fraction: float = 1.0
    clip_norm: float = 5.0
    teacher_forcing: float = 0.5
    seed: int = 0
    teacher_forcing_per: str = "batch"

    @classmethod
    def from_mapping(cls, options: Mapping, seed: int) -> TrainSettings:
        """The settings an experiment's options describe: every field ``options`` has (other
        keys are ignored), and ``seed``.

        Examples
        --------
        >>> settings = TrainSettings.from_mapping({"presentations": 64, "batch_size": 8, "n": 3}, 1)
        >>> settings.presentations, settings.batch_size, settings.learning_rate, settings.seed
        (64, 8, 0.001, 1)
        """
        names = {f.name for f in fields(cls)} - {"seed"}
        return cls(**{k: options[k] for k in names if k in options}, seed=seed)

    def __post_init__(self) -> None:
        for name in ("presentations", "batch_size", "seed"):
            setattr(self, name, check_scalar(getattr(self, name), name, int,
                                             min_val=0 if name == "seed" else 1))
        if not 0.0 <= self.teacher_forcing <= 1.0:
            raise ValueError(f"teacher_forcing must be in [0, 1], got {self.teacher_forcing!r}")
        if self.teacher_forcing_per not in ("batch", "example"):
            raise ValueError(f"teacher_forcing_per must be 'batch' or 'example', "
                             f"got {self.teacher_forcing_per!r}")
        if not (self.learning_rate > 0 and math.isfinite(self.learning_rate)):
            raise ValueError(f"learning_rate must be a positive finite number, got "
                             f"{self.learning_rate!r}")
        if not (self.clip_norm > 0 and math.isfinite(self.clip_norm)):
            raise ValueError(f"clip_norm must be a positive finite number, got {self.clip_norm!r}")
        if not 0.0 < self.final_lr_fraction <= 1.0:
            raise ValueError(f"final_lr_fraction must be in (0, 1], "
                             f"got {self.final_lr_fraction!r}")


def epoch_batches(data: EncodedPairs, batch_size: int, seed: int,
                  pool: int = 20) -> list[torch.Tensor]:
    """One epoch of batches: a seeded shuffle, cut into pools of ``pool`` batches whose examples
    are sorted by target length (little padding), then the batches shuffled again.

    Every example appears exactly once per epoch. The shuffles run on the CPU (the same on
    every device); the index tensors are returned on the device of ``data``.

    Parameters
    ----------
    data : EncodedPairs
        The encoded pairs.
    batch_size : int
        Examples per batch.
    seed : int
        Seeds both shuffles.
    pool : int
        Batches per pool sorted by target length.

    Returns
    -------
    list of torch.Tensor
        The batches' example indices.
    """
    generator = torch.Generator().manual_seed(seed)
    lengths = data.target_lengths.cpu()
    order = torch.randperm(len(data), generator=generator)
    batches = []
    for chunk in torch.split(order, batch_size * pool):
        chunk = chunk[torch.argsort(lengths[chunk], stable=True)]
        batches.extend(torch.split(chunk, batch_size))
    shuffle = torch.randperm(len(batches), generator=generator).tolist()
    return [batches[i].to(data.device) for i in shuffle]


def learning_rate_at(settings: TrainSettings, step: int, num_steps: int) -> float:
    """The learning rate of ``step``: linear from ``learning_rate`` to ``learning_rate *
    final_lr_fraction`` over ``num_steps`` steps (constant when the fraction is 1).

    Parameters
    ----------
    settings : TrainSettings
        The learning rate and its final fraction.
    step : int
        The step, from 0.
    num_steps : int
        Steps in all.

    Returns
    -------
    float
        The step's learning rate.
    """
    return linear_decay(settings.learning_rate, settings.final_lr_fraction, step, num_steps)


def fit_seq2seq(model: nn.Module, data: EncodedPairs, settings: TrainSettings, *,
                evaluate=None, eval_every: int = 500, stop=None, desc: str = "training",
                device: str | torch.device = "cpu", warmup_steps: int = 0) -> TrainLog:
    """Train ``model`` on ``data`` for ``settings.presentations`` examples, in batches.

    ``warmup_steps`` > 0 raises the learning rate linearly over the first steps: step ``i``'s
    rate is multiplied by ``min(1, (i + 1) / warmup_steps)`` (0, the default: no warmup).

    Each epoch is a fresh seeded permutation of the data in length-sorted batches
    (:func:`epoch_batches`), so a run is reproducible.
    Whether a batch is teacher-forced is a seeded coin flip per batch (the paper flips it per
    example, its batches having one example), or per example with
    ``settings.teacher_forcing_per="example"``.

    Parameters
    ----------
    model : torch.nn.Module
        From :func:`build_model`; moved to ``device`` (in place) before the optimiser is made.
    data : EncodedPairs
        Training pairs (:func:`encode_pairs`); copied to ``device`` once.
    settings : TrainSettings
        Presentations, batch size, learning rate and its schedule, clipping, seed.
    evaluate, eval_every, stop, desc
        As :func:`tutorlib.train.fit`.
    device : str or torch.device
        ``"cpu"`` (default, bit-reproducible), ``"cuda"``, ``"mps"`` or ``"auto"``.

    Returns
    -------
    TrainLog
        The loss of every step, the evaluations, and whether ``stop`` ended it.
    """
    if len(data) == 0:
        raise ValueError("no training data")
    check_scalar(warmup_steps, "warmup_steps", int, min_val=0)
    device = resolve_device(device)
    model.to(device)
    data = data.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    size = min(settings.batch_size, len(data))
    per_epoch = math.ceil(len(data) / size)
    num_steps = math.ceil(settings.presentations / size)
    epochs: dict[int, list[torch.Tensor]] = {}

    def loss_on_batch(step: int) -> torch.Tensor:
        rate = learning_rate_at(settings, step, num_steps)
        if warmup_steps:
            rate *= min(1.0, (step + 1) / warmup_steps)
        for group in optimizer.param_groups:  # a function of the step, so resuming is exact
            group["lr"] = rate
        epoch, b = divmod(step, per_epoch)
        if epoch not in epochs:
            epochs.clear()
            epochs[epoch] = epoch_batches(data, size, seed=settings.seed * 100_003 + epoch)
        index = epochs[epoch][b]
        coins = np.random.default_rng([settings.seed, step])
        if settings.teacher_forcing_per == "example":
            forced = torch.from_numpy(coins.random(len(index)) < settings.teacher_forcing)
            return batch_loss(model, data, index, teacher_forcing=forced.to(index.device))
        forced = coins.random() < settings.teacher_forcing
        return batch_loss(model, data, index, teacher_forcing=bool(forced))

    return fit(model, optimizer, loss_on_batch, num_steps=num_steps,
               evaluate=evaluate, eval_every=eval_every, stop=stop,
               clip_norm=settings.clip_norm, desc=desc)
