"""The few-shot concept learner of Andreas (2019), Appendix A, and its training with snapshots.

A small CNN encodes each image to ``z``; the concept is ``theta = tanh(W (z_1 + z_2))`` and
the logit of the query is ``theta . z*`` (:class:`ConceptLearner`). :func:`train_concepts`
trains it and records, at regular snapshots, the validation accuracy and the
representations ``theta`` that :mod:`tutorlib.tre.dynamics` measures.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import asdict, dataclass, field

import numpy as np
import torch
from torch import nn

from tutorlib import cache
from tutorlib.checks import check_scalar
from tutorlib.stats import binned_mutual_information
from tutorlib.train import progress_bar, resolve_device, seed_everything
from tutorlib.tre.concepts import NEGATIVES, Triplets, make_probe, make_triplets

# Bump when the code below changes what it computes, so that cached results of the old code
# are not reused (tutorlib.cache).
CACHE_FORMAT = 2  # 2: the training accuracy at every snapshot

# --------------------------------------------------------------------------------------------
# The model (Andreas 2019, Appendix A)
# --------------------------------------------------------------------------------------------

class ImageEncoder(nn.Module):
    """LeNet-style CNN: two 5x5 convolutions with max-pooling, then two ReLU layers -> ``z``."""

    def __init__(self, representation_size: int = 64):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2),   # 28 -> 24 -> 12
            nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),  # 12 -> 8 -> 4
            nn.Flatten(),
            nn.Linear(16 * 4 * 4, 128), nn.ReLU(),
            nn.Linear(128, representation_size), nn.ReLU(),
        )

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        """``(batch, 3, 28, 28)`` images in [0, 1] -> ``(batch, representation_size)``."""
        # Centring the pixels on 0 makes the first epochs markedly faster (measured: 62% vs
        # 56% validation accuracy after one epoch); the paper does not say how it scaled them.
        return self.features(2 * images - 1)


class ConceptLearner(nn.Module):
    """``theta = tanh(W (z_1 + z_2))``; the query's logit is ``theta . z*``."""

    def __init__(self, representation_size: int = 64):
        super().__init__()
        self.encoder = ImageEncoder(representation_size)
        self.combine = nn.Linear(representation_size, representation_size, bias=False)

    def concept(self, examples: torch.Tensor) -> torch.Tensor:
        """``(batch, 2, 3, 28, 28)`` example pairs -> ``(batch, representation_size)`` theta."""
        batch = examples.shape[0]
        z = self.encoder(examples.reshape(2 * batch, *examples.shape[2:]))
        return self._theta(z.reshape(batch, 2, -1))

    def _theta(self, z_pairs: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.combine(z_pairs.sum(dim=1)))

    def forward(self, examples: torch.Tensor, queries: torch.Tensor) -> torch.Tensor:
        """Logits ``(batch,)`` that each query belongs to the concept of its examples."""
        batch = examples.shape[0]
        # One encoder call for all three images of each triplet.
        images = torch.cat([examples.reshape(2 * batch, *examples.shape[2:]), queries])
        z = self.encoder(images)
        theta = self._theta(z[:2 * batch].reshape(batch, 2, -1))
        return (theta * z[2 * batch:]).sum(dim=1)


# --------------------------------------------------------------------------------------------
# Training with snapshots
# --------------------------------------------------------------------------------------------

@dataclass
class ConceptConfig:
    """Settings of one training run; the defaults are the paper's where it gives them.

    Parameters
    ----------
    epochs : int
        Epochs of training (see ``batches_per_epoch``).
    batch_size : int
        Triplets per Adam step (paper: 128).
    batches_per_epoch : int or None
        Adam steps an epoch counts. ``None``: one pass over the training triplets
        (``ceil(n_train / batch_size)`` steps). The paper's released notebook counts an epoch as
        100 batches of 128 (20 epochs: 2,000 steps); with a number here the batches still come
        from successive shuffled passes over the training set, which simply run across epochs.
    lr : float
        Adam learning rate (paper: 1e-3).
    n_train, n_val : int
        Training and validation triplets (paper: 9,000 and 500).
    representation_size : int
        Size of ``z`` and ``theta`` (paper: 64).
    seed : int
        Initialisation and batch order.
    data_seed : int
        The training, validation and probe sets.
    negatives : {"random", "near_miss"}
        How negative queries are drawn (see :func:`make_triplets`).
    stop_at : (float, float) or None
        Train to a fit: end at the first snapshot whose accuracy on the training sample and on
        the validation triplets reach ``(training, validation)``, or after ``epochs`` epochs if
        none does. ``None``: train all ``epochs``.
    """

    epochs: int = 20
    batch_size: int = 128
    lr: float = 1e-3
    n_train: int = 9000
    n_val: int = 500
    representation_size: int = 64
    seed: int = 0
    data_seed: int = 0
    negatives: str = "random"
    batches_per_epoch: int | None = None
    stop_at: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.stop_at is not None:
            if not isinstance(self.stop_at, (tuple, list)) or len(self.stop_at) != 2 or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1
                    for v in self.stop_at):
                raise ValueError("stop_at must be a pair (training, validation) of accuracies "
                                 f"in [0, 1], got {self.stop_at!r}")
            self.stop_at = (float(self.stop_at[0]), float(self.stop_at[1]))
        if self.negatives not in NEGATIVES:
            raise ValueError(f"unknown negatives {self.negatives!r}; expected one of "
                             f"{', '.join(NEGATIVES)}")
        for name in ("epochs", "batch_size", "n_train", "n_val", "representation_size"):
            check_scalar(getattr(self, name), name, int, min_val=1)
        if self.batches_per_epoch is not None:
            check_scalar(self.batches_per_epoch, "batches_per_epoch", int, min_val=1)
        for name in ("seed", "data_seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if not (isinstance(self.lr, (int, float)) and math.isfinite(self.lr) and self.lr > 0):
            raise ValueError(f"lr must be a positive number, got {self.lr!r}")

    @property
    def steps_per_epoch(self) -> int:
        if self.batches_per_epoch is not None:
            return self.batches_per_epoch
        return math.ceil(self.n_train / self.batch_size)


@dataclass
class ConceptRun:
    """What :func:`train_concepts` recorded, as plain NumPy data.

    Attributes
    ----------
    config : ConceptConfig
    steps : numpy.ndarray
        ``(S,)`` optimiser steps at which the snapshots were taken (the first is 0, before
        training; the last is the end of training, earlier than ``epochs`` with ``stop_at``).
    val_accuracy : numpy.ndarray
        ``(S,)`` validation accuracy at each snapshot.
    train_accuracy : numpy.ndarray
        ``(S,)`` accuracy at each snapshot on a fixed sample of the training triplets (as many
        as the validation triplets): how well the model fits what it is trained on.
    train_loss : numpy.ndarray
        ``(num_steps,)`` training loss of every step.
    probe_derivations : list
        Derivations of the probe concepts (every concept once, :func:`make_probe`).
    probe_theta : numpy.ndarray
        ``(S, 218, representation_size)`` theta of the probe pairs, the same pairs throughout.
    val_derivations : list
        Derivations of the validation triplets' concepts.
    val_theta : numpy.ndarray
        ``(S, n_val, representation_size)`` theta of the validation example pairs: the
        activations for :func:`binned_mutual_information`.
    final_state : dict
        The trained model's parameters as NumPy arrays (see :meth:`model`).
    seconds : float
        Wall time of training, snapshots included.
    """

    config: ConceptConfig
    steps: np.ndarray
    val_accuracy: np.ndarray
    train_loss: np.ndarray
    probe_derivations: list
    probe_theta: np.ndarray
    val_derivations: list
    val_theta: np.ndarray
    final_state: dict[str, np.ndarray] = field(repr=False)
    seconds: float = 0.0
    train_accuracy: np.ndarray | None = None

    @property
    def epochs(self) -> np.ndarray:
        """Snapshot times in epochs."""
        return self.steps / self.config.steps_per_epoch

    def mutual_information(self, bins: int = 30) -> np.ndarray:
        """``(S,)`` binned estimate of I(theta; X) on the validation pairs, in nats."""
        return np.array([binned_mutual_information(theta, bins=bins) for theta in self.val_theta])

    def model(self) -> ConceptLearner:
        """A :class:`ConceptLearner` with the trained parameters, in evaluation mode."""
        model = ConceptLearner(self.config.representation_size)
        model.load_state_dict({k: torch.from_numpy(v) for k, v in self.final_state.items()})
        return model.eval()


def _device_of(model: nn.Module) -> torch.device:
    return next(model.parameters()).device


def _theta(model: ConceptLearner, examples: np.ndarray, batch_size: int = 500) -> np.ndarray:
    where = _device_of(model)
    return np.concatenate([model.concept(torch.from_numpy(examples[s:s + batch_size]).to(where))
                           .cpu().numpy() for s in range(0, len(examples), batch_size)])


def _accuracy(model: ConceptLearner, theta: np.ndarray, data: Triplets,
              batch_size: int = 500) -> float:
    """Validation accuracy, reusing the concepts ``theta`` already computed for ``data``."""
    correct = 0
    where = _device_of(model)
    for start in range(0, len(data), batch_size):
        part = slice(start, start + batch_size)
        z = model.encoder(torch.from_numpy(data.queries[part]).to(where))
        logits = (torch.from_numpy(theta[part]).to(where) * z).sum(dim=1)
        correct += int(((logits > 0).long().cpu() == torch.from_numpy(data.labels[part])).sum())
    return correct / len(data)


def _sample(data: Triplets, n: int) -> Triplets:
    """The first ``n`` triplets of ``data`` (drawn at random, so any ``n`` are a fair sample)."""
    return Triplets(data.examples[:n], data.queries[:n], data.labels[:n], data.concepts[:n],
                    {k: v[:n] for k, v in data.example_attributes.items()},
                    {k: v[:n] for k, v in data.query_attributes.items()}, data.negatives)


def _batches(config: ConceptConfig, generator: torch.Generator, where: torch.device):
    """Training batches (index tensors), pass after pass over the training set, each pass in a
    fresh seeded order, the last batch of a pass possibly smaller."""
    while True:
        order = torch.randperm(config.n_train, generator=generator).to(where)
        for start in range(0, config.n_train, config.batch_size):
            yield order[start:start + config.batch_size]


def train_step(model: ConceptLearner, optimizer: torch.optim.Optimizer, examples: torch.Tensor,
               queries: torch.Tensor, labels: torch.Tensor) -> float:
    """One Adam step on a batch of triplets: the logistic loss of the query logits
    ``theta . z*`` against the labels (Andreas 2019, Sec. 4); returns the batch's loss."""
    model.train()
    optimizer.zero_grad()
    loss = nn.functional.binary_cross_entropy_with_logits(model(examples, queries), labels)
    loss.backward()
    optimizer.step()
    return loss.item()


def _train(config: ConceptConfig, snapshot_every: int, progress: bool,
           where: torch.device) -> dict:
    started = time.perf_counter()
    data_seeds = np.random.SeedSequence(config.data_seed).spawn(3)
    train = make_triplets(config.n_train, np.random.default_rng(data_seeds[0]), config.negatives)
    val = make_triplets(config.n_val, np.random.default_rng(data_seeds[1]), config.negatives)
    probe, probe_concepts = make_probe(np.random.default_rng(data_seeds[2]))
    generator = seed_everything(config.seed)
    model = ConceptLearner(config.representation_size).to(where)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    # the training set moves to the device once
    examples = torch.from_numpy(train.examples).to(where)
    queries = torch.from_numpy(train.queries).to(where)
    labels = torch.from_numpy(train.labels).float().to(where)
    num_steps = config.epochs * config.steps_per_epoch
    steps, accuracy, probe_theta, val_theta, losses = [], [], [], [], []
    train_check, train_accuracy = _sample(train, min(config.n_val, config.n_train)), []

    def snapshot(step: int) -> None:
        model.eval()
        with torch.no_grad():
            steps.append(step)
            val_theta.append(_theta(model, val.examples))
            accuracy.append(_accuracy(model, val_theta[-1], val))
            train_accuracy.append(_accuracy(model, _theta(model, train_check.examples), train_check))
            probe_theta.append(_theta(model, probe))

    def fitted() -> bool:
        return config.stop_at is not None and (train_accuracy[-1] >= config.stop_at[0]
                                                and accuracy[-1] >= config.stop_at[1])

    snapshot(0)
    bar = progress_bar(total=num_steps, desc="concept learner", disable=None if progress else True)
    for batch in itertools.islice(_batches(config, generator, where), num_steps):
        loss = train_step(model, optimizer, examples[batch], queries[batch], labels[batch])
        losses.append(loss)
        bar.update()
        if len(losses) % snapshot_every == 0 or len(losses) == num_steps:
            snapshot(len(losses))
            bar.set_postfix(loss=f"{loss:.3f}", train=f"{train_accuracy[-1]:.3f}",
                            val=f"{accuracy[-1]:.3f}")
            if fitted():
                break
    bar.close()
    return {
        "config": asdict(config),
        "steps": np.array(steps, dtype=np.int64),
        "val_accuracy": np.array(accuracy),
        "train_accuracy": np.array(train_accuracy),
        "train_loss": np.array(losses, dtype=np.float32),
        "probe_derivations": [c.derivation for c in probe_concepts],
        "probe_theta": np.stack(probe_theta),
        "val_derivations": val.derivations,
        "val_theta": np.stack(val_theta),
        "final_state": {k: v.detach().cpu().numpy().copy()
                        for k, v in model.state_dict().items()},
        "seconds": time.perf_counter() - started,
    }


def train_concepts(config: ConceptConfig | None = None, progress: bool = False,
                   snapshot_every: int | None = None,
                   device: str | torch.device = "cpu") -> ConceptRun:
    """Train the concept learner, snapshotting it along the way; cached on disk.

    Parameters
    ----------
    config : ConceptConfig, optional
        Defaults to ``ConceptConfig()``.
    progress : bool
        Show a progress bar.
    snapshot_every : int, optional
        Optimiser steps between snapshots; by default one per epoch. There is always a snapshot
        before the first step and one after the last.
    device : str or torch.device
        Where to train (:func:`tutorlib.train.resolve_device`); ``"cpu"`` is bit-reproducible.

    Returns
    -------
    ConceptRun
    """
    config = ConceptConfig() if config is None else config
    if not isinstance(config, ConceptConfig):
        raise ValueError(f"config must be a ConceptConfig, got {type(config).__name__}")
    snapshot_every = config.steps_per_epoch if snapshot_every is None else snapshot_every
    check_scalar(snapshot_every, "snapshot_every", int, min_val=1)
    # runs from before these settings keep their cache entries
    key = cache.key_dict({**asdict(config), "snapshot_every": snapshot_every},
                         {"batches_per_epoch": None, "stop_at": None})
    where = resolve_device(device)
    stored = cache.cached("concepts", key,
                          lambda: _train(config, snapshot_every, progress, where),
                          format=CACHE_FORMAT)
    return ConceptRun(**{**stored, "config": ConceptConfig(**stored["config"])})
