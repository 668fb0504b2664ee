"""Training helpers shared by every chapter: seeding, progress bars, the schedule, devices.

The sequence models' trainer is :func:`tutorlib.seq2seq.fit`; this module holds what every
training loop of the book needs:

- :func:`seed_everything` sets Python's, NumPy's and PyTorch's seeds at once;
- :func:`progress_bar` is tqdm with the book's defaults (``TQDM_DISABLE=1`` silences it);
- :func:`linear_decay` is the linear learning-rate schedule;
- :func:`resolve_device` turns ``"cpu"``, ``"cuda"``, ``"mps"`` or ``"auto"`` into a device.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
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


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
