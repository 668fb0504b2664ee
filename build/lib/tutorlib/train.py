"""Training helpers shared by every chapter: seeding, progress bars, early stopping, checkpoints.

The loop itself stays visible in each method's module (PyTorch-examples style); this module
holds only what every loop needs:

- :func:`seed_everything` sets Python's, NumPy's and PyTorch's seeds at once;
- :func:`progress_bar` is tqdm with the book's defaults (``TQDM_DISABLE=1`` silences it);
- :class:`EarlyStopping` tracks a validation score and says when to stop;
- :func:`save_checkpoint` / :func:`load_checkpoint` write and read training state atomically,
  so a killed run resumes from its last checkpoint;
- :func:`resolve_device` turns ``"cpu"``, ``"cuda"``, ``"mps"`` or ``"auto"`` into a device.
"""

from __future__ import annotations

import io
import math
import os
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import torch
from tqdm import tqdm

from tutorlib.cache import atomic_write_bytes

T = TypeVar("T")


def seed_everything(seed: int) -> torch.Generator:
    """Seed Python, NumPy and PyTorch; return a ``torch.Generator`` seeded the same way."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    random.seed(int(seed))
    np.random.seed(int(seed) % 2**32)
    torch.manual_seed(int(seed))
    return torch.Generator().manual_seed(int(seed))


DEVICES = ("cpu", "auto", "cuda", "mps")


def resolve_device(device: str | torch.device = "cpu") -> torch.device:
    """The ``torch.device`` that ``device`` names.

    ``"cpu"`` (every function's default, bit-reproducible), ``"cuda"`` or ``"cuda:N"``,
    ``"mps"`` (Apple silicon), or ``"auto"``: CUDA if present, else MPS if present, else CPU.

    Examples
    --------
    >>> resolve_device("cpu")
    device(type='cpu')
    """
    if isinstance(device, torch.device):
        return device
    if not isinstance(device, str):
        raise ValueError(f"device must be one of {', '.join(DEVICES)} (or 'cuda:N'), "
                         f"got {device!r}")
    if device == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    kind = device.split(":", 1)[0]
    if kind not in DEVICES or (kind != "cuda" and ":" in device):
        raise ValueError(f"device must be one of {', '.join(DEVICES)} (or 'cuda:N'), "
                         f"got {device!r}")
    if kind == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {device!r} asked for, but this machine has no CUDA GPU "
                         f"(use 'cpu' or 'auto')")
    if kind == "mps" and not (getattr(torch.backends, "mps", None)
                              and torch.backends.mps.is_available()):
        raise ValueError("device 'mps' asked for, but MPS is not available (use 'cpu' or 'auto')")
    return torch.device(device)


def linear_decay(learning_rate: float, final_fraction: float, step: int, num_steps: int) -> float:
    """The learning rate of ``step`` when it decays linearly from ``learning_rate`` at the first
    step to ``learning_rate * final_fraction`` at the last of ``num_steps`` (constant when the
    fraction is 1): the one schedule of every training loop in tutorlib.

    Examples
    --------
    >>> [round(linear_decay(1.0, 0.1, step, 3), 6) for step in range(3)]
    [1.0, 0.55, 0.1]
    """
    progress = step / max(1, num_steps - 1)
    return learning_rate * (1.0 - (1.0 - final_fraction) * progress)


def progress_bar(iterable: Iterable[T] | None = None, *, desc: str | None = None,
                 total: int | None = None, disable: bool | None = None, **kwargs: Any) -> tqdm:
    """A text tqdm progress bar (no widgets, so executed notebooks render without JavaScript).

    ``disable=True`` hides the bar; otherwise (``None`` or ``False``) tqdm decides, and honours
    ``TQDM_DISABLE``, so that ``make test`` can silence every bar, whatever a caller asked for.
    """
    options: dict[str, Any] = {"desc": desc, "total": total, "dynamic_ncols": True, **kwargs}
    if disable:
        options["disable"] = True
    return tqdm(iterable, **options)


@dataclass
class EarlyStopping:
    """Stop when a validation score has not improved for ``patience`` evaluations.

    Parameters
    ----------
    patience : int
        Evaluations without improvement tolerated before :meth:`update` returns ``True``.
    mode : {"max", "min"}
        Whether a higher (accuracy) or lower (loss) score is better.
    min_delta : float
        Smallest change that counts as an improvement.

    Examples
    --------
    >>> stopper = EarlyStopping(patience=2, mode="max")
    >>> [stopper.update(score) for score in [0.5, 0.6, 0.6, 0.59]]
    [False, False, False, True]
    >>> stopper.best, stopper.best_step
    (0.6, 1)
    """

    patience: int
    mode: str = "max"
    min_delta: float = 0.0
    best: float | None = field(default=None, init=False)
    best_step: int | None = field(default=None, init=False)
    bad_evaluations: int = field(default=0, init=False)
    step: int = field(default=-1, init=False)

    def __post_init__(self) -> None:
        if self.mode not in ("max", "min"):
            raise ValueError(f"mode must be 'max' or 'min', got {self.mode!r}")
        if not isinstance(self.patience, int) or self.patience < 1:
            raise ValueError(f"patience must be a positive integer, got {self.patience!r}")

    def update(self, score: float) -> bool:
        """Record a new score; return ``True`` when training should stop."""
        if not math.isfinite(score):
            raise ValueError(f"validation score must be finite, got {score!r}")
        self.step += 1
        sign = 1.0 if self.mode == "max" else -1.0
        if self.best is None or sign * (score - self.best) > self.min_delta:
            self.best, self.best_step, self.bad_evaluations = score, self.step, 0
        else:
            self.bad_evaluations += 1
        return self.bad_evaluations >= self.patience

    def state_dict(self) -> dict[str, Any]:
        return {"best": self.best, "best_step": self.best_step,
                "bad_evaluations": self.bad_evaluations, "step": self.step}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.best, self.best_step = state["best"], state["best_step"]
        self.bad_evaluations, self.step = state["bad_evaluations"], state["step"]


def save_checkpoint(path: str | os.PathLike, *, step: int, model: torch.nn.Module,
                    optimizer: torch.optim.Optimizer | None = None, **extra: Any) -> Path:
    """Atomically save the training state at ``step`` (model, optimiser, RNG states, extras)."""
    state = {
        "step": step,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict() if optimizer is not None else None,
        "rng": {"python": random.getstate(), "numpy": np.random.get_state(),
                "torch": torch.get_rng_state()},
        "extra": extra,
    }
    buffer = io.BytesIO()
    torch.save(state, buffer)
    path = Path(path)
    atomic_write_bytes(path, buffer.getvalue())
    return path


def load_checkpoint(path: str | os.PathLike, *, model: torch.nn.Module,
                    optimizer: torch.optim.Optimizer | None = None) -> dict[str, Any]:
    """Restore a checkpoint into ``model`` (and ``optimizer``) and the RNGs; return its dict.

    The returned dict has ``step`` and the ``extra`` values given to :func:`save_checkpoint`.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no checkpoint at {path}")
    state = torch.load(path, weights_only=False)
    model.load_state_dict(state["model"])
    if optimizer is not None:
        if state["optimizer"] is None:
            raise ValueError(f"checkpoint {path} holds no optimiser state")
        optimizer.load_state_dict(state["optimizer"])
    random.setstate(state["rng"]["python"])
    np.random.set_state(state["rng"]["numpy"])
    torch.set_rng_state(state["rng"]["torch"])
    return {"step": state["step"], **state["extra"]}


@dataclass
class TrainLog:
    """What :func:`fit` did: the loss of every step, the evaluations, and why it stopped."""

    losses: list[float] = field(default_factory=list)
    evaluations: list[tuple[int, float]] = field(default_factory=list)
    steps_done: int = 0
    stopped_early: bool = False
    resumed_from: int | None = None


def fit(model: torch.nn.Module, optimizer: torch.optim.Optimizer, loss_on_batch, *,
        num_steps: int, evaluate=None, eval_every: int = 100,
        stopper: EarlyStopping | None = None, checkpoint: str | os.PathLike | None = None,
        clip_norm: float | None = None, desc: str = "training") -> TrainLog:
    """A plain training loop with a progress bar, early stopping and resumable checkpoints.

    Parameters
    ----------
    model, optimizer
        The model to train and its optimiser.
    loss_on_batch : callable ``step -> torch.Tensor``
        Returns the (scalar) loss of the batch for ``step``; it owns the data.
    num_steps : int
        Number of optimiser steps.
    evaluate : callable ``() -> float``, optional
        A validation score, higher is better unless ``stopper.mode == "min"``; called every
        ``eval_every`` steps and after the last step.
    stopper : EarlyStopping, optional
        Stops training when ``evaluate`` stops improving.
    checkpoint : path, optional
        Saved after every evaluation; if it exists when ``fit`` starts, training resumes from it.
    clip_norm : float, optional
        Clip the gradient norm to this value.
    """
    if not isinstance(num_steps, int) or num_steps < 0:
        raise ValueError(f"num_steps must be a non-negative integer, got {num_steps!r}")
    if not isinstance(eval_every, int) or eval_every < 1:
        raise ValueError(f"eval_every must be a positive integer, got {eval_every!r}")
    if stopper is not None and evaluate is None:
        raise ValueError("early stopping needs an evaluate function")
    log, start = TrainLog(), 0
    if checkpoint is not None and Path(checkpoint).exists():
        state = load_checkpoint(checkpoint, model=model, optimizer=optimizer)
        start = state["step"]
        log = TrainLog(**state["log"])
        log.resumed_from = start
        if stopper is not None and state.get("stopper") is not None:
            stopper.load_state_dict(state["stopper"])
        if log.stopped_early:
            return log

    def save() -> None:
        if checkpoint is not None:
            save_checkpoint(checkpoint, step=log.steps_done, model=model, optimizer=optimizer,
                            log=log.__dict__, stopper=stopper.state_dict() if stopper else None)

    bar = progress_bar(range(start, num_steps), desc=desc, total=num_steps, initial=start)
    for step in bar:
        model.train()
        optimizer.zero_grad()
        loss = loss_on_batch(step)
        if not torch.isfinite(loss):
            save()
            raise FloatingPointError(f"loss became {loss.item()} at step {step}; the last "
                                     f"checkpoint is kept")
        loss.backward()
        if clip_norm is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip_norm)
        optimizer.step()
        log.losses.append(loss.item())
        log.steps_done = step + 1
        if evaluate is not None and (log.steps_done % eval_every == 0 or log.steps_done == num_steps):
            model.eval()
            with torch.no_grad():
                score = float(evaluate())
            log.evaluations.append((log.steps_done, score))
            bar.set_postfix(loss=f"{loss.item():.3f}", score=f"{score:.3f}")
            if stopper is not None and stopper.update(score):
                log.stopped_early = True
            save()
            if log.stopped_early:
                break
    bar.close()
    if evaluate is None:
        save()
    return log
