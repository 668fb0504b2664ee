"""Training helpers shared by every chapter: seeding, progress bars, the loop, devices.

The loop itself stays visible in each method's module (PyTorch-examples style); this module
holds only what every loop needs:

- :func:`seed_everything` sets Python's, NumPy's and PyTorch's seeds at once;
- :func:`progress_bar` is tqdm with the book's defaults (``TQDM_DISABLE=1`` silences it);
- :func:`fit` is the plain loop under every sequence model's trainer;
- :func:`resolve_device` turns ``"cpu"``, ``"cuda"``, ``"mps"`` or ``"auto"`` into a device.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import torch
from tqdm import tqdm

from tutorlib.checks import check_seed

T = TypeVar("T")


def seed_everything(seed: int) -> torch.Generator:
    """Seed Python, NumPy and PyTorch; return a ``torch.Generator`` seeded the same way."""
    seed = check_seed(seed)
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
    if not (learning_rate > 0 and final_fraction >= 0 and step >= 0 and num_steps >= 1):
        raise ValueError(f"linear_decay needs learning_rate > 0, final_fraction >= 0, step >= 0 "
                         f"and num_steps >= 1, got {learning_rate!r}, {final_fraction!r}, "
                         f"{step!r}, {num_steps!r}")
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
class TrainLog:
    """What :func:`fit` did: the loss of every step, the evaluations, and whether it stopped
    before ``num_steps``."""

    losses: list[float] = field(default_factory=list)
    evaluations: list[tuple[int, float]] = field(default_factory=list)
    steps_done: int = 0
    stopped_early: bool = False

    def __post_init__(self) -> None:
        if self.steps_done < 0:
            raise ValueError(f"steps_done must be a non-negative integer, got {self.steps_done!r}")


def fit(model: torch.nn.Module, optimizer: torch.optim.Optimizer, loss_on_batch, *,
        num_steps: int, evaluate=None, eval_every: int = 100,
        stop: Callable[[float], bool] | None = None, clip_norm: float | None = None,
        desc: str = "training") -> TrainLog:
    """A plain training loop with a progress bar, evaluations and an optional stopping rule.

    Parameters
    ----------
    model, optimizer
        The model to train and its optimiser.
    loss_on_batch : callable ``step -> torch.Tensor``
        Returns the (scalar) loss of the batch for ``step``; it owns the data.
    num_steps : int
        Number of optimiser steps.
    evaluate : callable ``() -> float``, optional
        A validation score, called (in eval mode, without gradients) every ``eval_every``
        steps and after the last step.
    eval_every : int
        Steps between evaluations.
    stop : callable ``score -> bool``, optional
        Called with each evaluation's score; training stops when it returns ``True``.
    clip_norm : float, optional
        Clip the gradient norm to this value.
    desc : str
        The progress bar's label.

    Returns
    -------
    TrainLog
        The loss of every step, the evaluations, and whether ``stop`` ended training.

    Raises
    ------
    FloatingPointError
        When the loss is not finite, naming the step.
    """
    if not isinstance(num_steps, int) or num_steps < 0:
        raise ValueError(f"num_steps must be a non-negative integer, got {num_steps!r}")
    if not isinstance(eval_every, int) or eval_every < 1:
        raise ValueError(f"eval_every must be a positive integer, got {eval_every!r}")
    if stop is not None and evaluate is None:
        raise ValueError("a stopping rule needs an evaluate function")
    log = TrainLog()
    bar = progress_bar(range(num_steps), desc=desc, total=num_steps)
    for step in bar:
        model.train()
        optimizer.zero_grad()
        loss = loss_on_batch(step)
        if not torch.isfinite(loss):
            raise FloatingPointError(f"loss became {loss.item()} at step {step}")
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
            if stop is not None and stop(score):
                log.stopped_early = True
                break
    bar.close()
    return log


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
