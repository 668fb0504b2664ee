"""Running a trained model: exact-match :func:`evaluate`, :func:`predict` for inputs without
targets, :func:`exact_match` for predictions already made, and :func:`encode` (the encoder's
final state, for nearest-neighbour analyses).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from tutorlib.checks import check_scalar
from tutorlib.seq2seq.vocab import Vocabulary, encode_pairs, pad_batch
from tutorlib.train import progress_bar, resolve_device


@dataclass
class Evaluation:
    """Exact-match results: ``correct[i]`` and ``predictions[i]`` for the i-th example."""

    accuracy: float
    correct: np.ndarray
    predictions: list[str]


def source_eos(model: nn.Module) -> bool:
    """Whether ``model`` reads its sources ended by EOS (its config's ``source_eos``)."""
    return bool(getattr(getattr(model, "config", None), "source_eos", False))


@torch.no_grad()
def evaluate(model: nn.Module, pairs: Sequence[tuple[str, str]], source_vocab: Vocabulary,
             target_vocab: Vocabulary, *, oracle_length: bool = False, batch_size: int = 512,
             max_length: int | None = None, progress: bool = False,
             device: str | torch.device = "cpu") -> Evaluation:
    """Greedy (or oracle-length) decoding of every source; exact match against its target.

    Parameters
    ----------
    model : torch.nn.Module
        A trained model; put in eval mode and moved to ``device`` (in place).
    pairs : sequence of (str, str)
        Sources and their targets.
    source_vocab, target_vocab : Vocabulary
        The vocabularies the model was trained with.
    oracle_length : bool
        Decode with each target's true length (Lake & Baroni's Exp. 2).
    batch_size : int
        Sources decoded at once (longest first).
    max_length : int, optional
        Most tokens to produce (default: the longest target plus 10, and never fewer).
    progress : bool
        Show a progress bar.
    device : str or torch.device
        ``"cpu"`` (default), ``"cuda"``, ``"mps"`` or ``"auto"``.

    Returns
    -------
    Evaluation
        Accuracy, per-example correctness and predictions (in the order of ``pairs``).
    """
    device = resolve_device(device)
    data = encode_pairs(pairs, source_vocab, target_vocab,
                        source_eos=source_eos(model)).to(device)
    model.to(device).eval()
    longest = int(data.target_lengths.max())
    max_length = max_length or longest + 10
    order = torch.argsort(data.source_lengths, descending=True)
    predictions: list[str] = [""] * len(data)
    chunks = list(torch.split(order, batch_size))
    for index in progress_bar(chunks, desc="evaluating", disable=None if progress else True):
        s_len = data.source_lengths[index]
        source = data.source[index, : int(s_len.max())]
        oracle = data.target_lengths[index] - 1 if oracle_length else None  # tokens before EOS
        decoded = model.greedy(source, s_len, max(max_length, longest), oracle_lengths=oracle)
        for i, row in zip(index.tolist(), decoded.tolist(), strict=True):
            predictions[i] = " ".join(target_vocab.decode(row))
    correct = np.array([p == t for p, (_, t) in zip(predictions, pairs, strict=True)])
    return Evaluation(float(correct.mean()), correct, predictions)


def exact_match(predictions: Sequence[str], pairs: Sequence[tuple[str, str]]) -> float:
    """The share of predictions equal to their pair's target, token for token.

    Parameters
    ----------
    predictions : sequence of str
        One per pair.
    pairs : sequence of (str, str)
        (source, target) pairs.

    Returns
    -------
    float
        From 0 to 1.

    Examples
    --------
    >>> exact_match(["I_JUMP", "I_WALK"], [("jump", "I_JUMP"), ("run", "I_RUN")])
    0.5
    """
    if len(predictions) != len(pairs) or not pairs:
        raise ValueError(f"exact_match needs one prediction per pair and at least one pair, "
                         f"got {len(predictions)} and {len(pairs)}")
    return sum(p.split() == t.split() for p, (_, t) in zip(predictions, pairs)) / len(pairs)


@torch.no_grad()
def predict(model: nn.Module, sources: Sequence[str], source_vocab: Vocabulary,
            target_vocab: Vocabulary, *, max_length: int, batch_size: int = 512,
            device: str | torch.device = "cpu") -> list[str]:
    """Greedy predictions of ``model`` for ``sources``: no targets needed.

    Parameters
    ----------
    model : torch.nn.Module
        A trained model from :func:`build_model`; put in eval mode and moved to ``device``.
    sources : sequence of str
        Source strings (tokens separated by spaces).
    source_vocab, target_vocab : Vocabulary
        The vocabularies the model was trained with.
    max_length : int
        Most tokens to produce for each source.
    batch_size : int
        Sources decoded at once (longest first).
    device : str or torch.device
        ``"cpu"`` (default), ``"cuda"``, ``"mps"`` or ``"auto"``.

    Returns
    -------
    list of str
        One prediction per source, in the order of ``sources``.
    """
    check_scalar(max_length, "max_length", int, min_val=1, max_val=1_000_000)
    check_scalar(batch_size, "batch_size", int, min_val=1, max_val=1_000_000)
    if isinstance(sources, str):
        raise ValueError("sources must be a sequence of strings, not one string")
    if not sources:
        return []
    device = resolve_device(device)
    source, lengths = pad_batch([source_vocab.encode(str(s).split()) for s in sources],
                                add_eos=source_eos(model))
    source = source.to(device)
    model.to(device).eval()
    order = torch.argsort(lengths, descending=True)
    predictions: list[str] = [""] * len(sources)
    for index in torch.split(order, batch_size):
        s_len = lengths[index]
        batch = source[index.to(device), : int(s_len.max())]
        decoded = model.greedy(batch, s_len.to(device), max_length)
        for i, row in zip(index.tolist(), decoded.tolist(), strict=True):
            predictions[i] = " ".join(target_vocab.decode(row))
    return predictions


@torch.no_grad()
def encode(model: nn.Module, sources: Sequence[str], source_vocab: Vocabulary, *,
           device: str | torch.device = "cpu") -> torch.Tensor:
    """The encoder's final hidden state for each source string.

    Parameters
    ----------
    model : torch.nn.Module
        A model from :func:`build_model`; put in eval mode and moved to ``device`` (in place).
    sources : sequence of str
        Source strings (tokens separated by spaces).
    source_vocab : Vocabulary
        The model's source vocabulary.
    device : str or torch.device
        ``"cpu"`` (default), ``"cuda"``, ``"mps"`` or ``"auto"``.

    Returns
    -------
    torch.Tensor
        (len(sources), hidden) on ``device``: ``model.final_hidden`` of each source (recurrent:
        the encoder's final state; Transformer and ConvS2S: the mean of the encoder's outputs).
    """
    device = resolve_device(device)
    model.to(device).eval()
    source, lengths = pad_batch([source_vocab.encode(s.split()) for s in sources],
                                add_eos=source_eos(model))
    return model.final_hidden(source.to(device), lengths.to(device))
