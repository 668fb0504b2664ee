"""Pieces the architectures share: position vectors and the greedy decoding loop."""

from __future__ import annotations

import math

import torch
from torch import nn

from tutorlib.checks import check_scalar
from tutorlib.seq2seq.config import Seq2SeqConfig
from tutorlib.seq2seq.vocab import EOS, PAD, SOS


def sinusoidal_positions(length: int, size: int,
                         device: str | torch.device | None = None) -> torch.Tensor:
    """The fixed positional encodings of Vaswani et al. (2017, Sec. 3.5), for any length.

    Row ``p`` holds ``sin(p / 10000^(2i/size))`` in column ``2i`` and the cosine in ``2i + 1``.

    Parameters
    ----------
    length : int
        Number of positions (rows).
    size : int
        Width of each encoding (columns).
    device : str or torch.device, optional
        Where the tensor is made.

    Returns
    -------
    torch.Tensor
        (length, size) float tensor.

    Examples
    --------
    >>> sinusoidal_positions(3, 4)[0].tolist()
    [0.0, 1.0, 0.0, 1.0]
    """
    check_scalar(length, "length", int, min_val=0)
    check_scalar(size, "size", int, min_val=1)
    position = torch.arange(length, dtype=torch.float32, device=device).unsqueeze(1)
    rates = torch.exp(torch.arange(0, size, 2, dtype=torch.float32, device=device)
                      * (-math.log(10_000.0) / size))
    table = torch.zeros(length, size, device=device)
    table[:, 0::2] = torch.sin(position * rates)
    table[:, 1::2] = torch.cos(position * rates)[:, : size // 2]
    return table


def position_vectors(config: Seq2SeqConfig, learned: nn.Embedding | None, length: int,
                     device: torch.device) -> torch.Tensor:
    """The (length, hidden) position vectors of ``config.positions`` (``learned`` its table).

    Parameters
    ----------
    config : Seq2SeqConfig
        Says which positions (``positions``), their width and ``max_positions``.
    learned : torch.nn.Embedding or None
        The learned table (unused for sinusoidal positions).
    length : int
        Number of positions.
    device : torch.device
        Where the vectors are made.

    Returns
    -------
    torch.Tensor
        (length, hidden_size); ``ValueError`` past ``max_positions`` for learned positions.
    """
    if config.positions == "sinusoidal":
        return sinusoidal_positions(length, config.hidden_size, device)
    if length > config.max_positions:
        raise ValueError(f"sequence of length {length} exceeds max_positions="
                         f"{config.max_positions} (learned positions; use a larger "
                         f"max_positions, or positions='sinusoidal' for any length)")
    return learned(torch.arange(length, device=device))


def greedy_loop(step, tokens: torch.Tensor, state, max_length: int,
                oracle_lengths: torch.Tensor | None = None) -> torch.Tensor:
    """Greedy decoding around a model's ``step(tokens, state) -> (logits, state)``.

    Parameters
    ----------
    step : callable
        Given the previous tokens (batch,) and the decoder state, the next logits
        (batch, vocabulary) and the new state.
    tokens : torch.Tensor
        The first input tokens (SOS), on the model's device.
    state
        The decoder's initial state (anything ``step`` accepts).
    max_length : int
        Most tokens to produce.
    oracle_lengths : torch.Tensor, optional
        Lake & Baroni's Exp. 2: no EOS before each true length, EOS exactly there.

    Returns
    -------
    torch.Tensor
        (batch, at most max_length) token ids, PAD after each sequence's EOS; it stops early
        once every sequence has produced EOS.
    """
    batch = tokens.shape[0]
    result = torch.full((batch, max_length), PAD, dtype=torch.long, device=tokens.device)
    done = torch.zeros(batch, dtype=torch.bool, device=tokens.device)
    for t in range(max_length):
        logits, state = step(tokens, state)
        logits = logits.clone()
        logits[:, [PAD, SOS]] = float("-inf")  # never outputs
        if oracle_lengths is not None:
            logits[oracle_lengths > t, EOS] = float("-inf")
            logits[oracle_lengths == t] = float("-inf")
            logits[oracle_lengths == t, EOS] = 0.0
        tokens = logits.argmax(-1)
        result[:, t] = torch.where(done, torch.full_like(tokens, PAD), tokens)
        done |= tokens == EOS
        if bool(done.all()):
            break
    return result
