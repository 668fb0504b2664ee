"""Tokens to padded index tensors: the vocabularies, ``pad_batch`` and encoded pairs.

Every model reserves three ids: ``<pad>`` = 0, ``<sos>`` = 1 and ``<eos>`` = 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from tutorlib.checks import ArrayLike
from tutorlib.train import resolve_device

PAD, SOS, EOS = 0, 1, 2
SPECIALS = ("<pad>", "<sos>", "<eos>")


class Vocabulary:
    """Token <-> index, with ``<pad>`` = 0, ``<sos>`` = 1 and ``<eos>`` = 2.

    Parameters
    ----------
    tokens : sequence of str
        The tokens (repeats are fine); they get indices from 3 on, in sorted order.

    Examples
    --------
    >>> vocab = Vocabulary(["walk", "jump", "twice"])
    >>> vocab.encode(["jump", "twice"])
    [3, 4]
    >>> vocab.decode([3, 4, EOS, 5])
    ['jump', 'twice']
    """

    def __init__(self, tokens: Sequence[str]):
        bad = [t for t in tokens if not isinstance(t, str) or not t or t != t.strip()
               or len(t.split()) != 1]
        if bad:
            raise ValueError(f"Vocabulary: every token must be one non-empty symbol without "
                             f"spaces (split sequences into tokens first), got {bad[0]!r}")
        extra = sorted(set(tokens) - set(SPECIALS))
        self.itos: list[str] = [*SPECIALS, *extra]
        self.stoi: dict[str, int] = {t: i for i, t in enumerate(self.itos)}

    @classmethod
    def from_sequences(cls, sequences: Sequence[Sequence[str]]) -> Vocabulary:
        """The vocabulary of every token in ``sequences`` (lists of tokens)."""
        return cls([token for seq in sequences for token in seq])

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, tokens: Sequence[str]) -> list[int]:
        """The indices of ``tokens``; a ``ValueError`` names the first unknown token."""
        try:
            return [self.stoi[t] for t in tokens]
        except KeyError as error:
            raise ValueError(f"token {error.args[0]!r} is not in the vocabulary "
                             f"({len(self)} tokens: {' '.join(self.itos[3:13])} ...)") from None

    def decode(self, ids: ArrayLike) -> list[str]:
        """Tokens up to the first EOS, without PAD and SOS."""
        out = []
        for i in map(token_id, ids):
            if i >= len(self.itos):
                raise ValueError(f"token id {i} is outside the vocabulary (0-{len(self.itos) - 1})")
            if i == EOS:
                break
            if i not in (PAD, SOS):
                out.append(self.itos[i])
        return out


def token_id(value) -> int:
    """``value`` as a token id: a non-negative integer (a Python or NumPy integer, or an integer
    tensor of one element); ``ValueError`` otherwise (a bool, a float, a negative number).

    Parameters
    ----------
    value : int, numpy.integer or torch.Tensor
        The candidate id.

    Returns
    -------
    int
        The id.

    >>> token_id(3)
    3
    """
    if isinstance(value, torch.Tensor) and value.dim() == 0 and not (
            value.is_floating_point() or value.dtype == torch.bool):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"token ids are non-negative integers, got {value!r}")
    return int(value)


def pad_batch(sequences: Sequence[Sequence[int]],
              add_eos: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """Pad index sequences into one tensor.

    Parameters
    ----------
    sequences : sequence of sequences of int
        Token indices, none empty.
    add_eos : bool
        Append EOS to every sequence first.

    Returns
    -------
    batch : torch.Tensor
        (batch, max length) LongTensor padded with PAD, on the CPU.
    lengths : torch.Tensor
        The length of each sequence (EOS included when added).
    """
    if not sequences:
        raise ValueError("cannot pad an empty batch")
    seqs = [list(s) + ([EOS] if add_eos else []) for s in sequences]
    if any(len(s) == 0 for s in seqs):
        raise ValueError("cannot pad an empty sequence")
    if not all(type(token) is int for s in seqs for token in s):  # noqa: E721 - bools too
        seqs = [[token_id(token) for token in s] for s in seqs]
    lengths = torch.tensor([len(s) for s in seqs])
    batch = torch.full((len(seqs), int(lengths.max())), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        batch[i, : len(s)] = torch.tensor(s)
    if bool((batch < 0).any()):
        raise ValueError(f"token ids are non-negative integers, got {int(batch.min())}")
    return batch, lengths


@dataclass
class EncodedPairs:
    """Source and target sequences as padded tensors (targets end with EOS)."""

    source: torch.Tensor
    source_lengths: torch.Tensor
    target: torch.Tensor
    target_lengths: torch.Tensor

    def __len__(self) -> int:
        return self.source.shape[0]

    @property
    def device(self) -> torch.device:
        """Where the tensors are."""
        return self.source.device

    def to(self, device: str | torch.device) -> EncodedPairs:
        """The same pairs on ``device`` (``self`` when they are there already)."""
        device = resolve_device(device)
        if self.device == device:
            return self
        return EncodedPairs(self.source.to(device), self.source_lengths.to(device),
                            self.target.to(device), self.target_lengths.to(device))


def encode_pairs(pairs: Sequence[tuple[str, str]], source_vocab: Vocabulary,
                 target_vocab: Vocabulary, *, source_eos: bool = False) -> EncodedPairs:
    """Encode (source, target) string pairs (tokens separated by spaces), on the CPU.

    Parameters
    ----------
    pairs : sequence of (str, str)
        Source and target strings.
    source_vocab, target_vocab : Vocabulary
        Their vocabularies.
    source_eos : bool
        End every source with EOS too (a model whose config has ``source_eos``).

    Returns
    -------
    EncodedPairs
        Padded tensors; move them with :meth:`EncodedPairs.to` (the trainer does).
    """
    if not pairs:
        raise ValueError("no pairs to encode")
    return collate_pairs([(source_vocab.encode(s.split()), target_vocab.encode(t.split()))
                          for s, t in pairs], source_eos=source_eos)


def collate_pairs(batch: Sequence[tuple[Sequence[int], Sequence[int]]], *,
                  source_eos: bool = False) -> EncodedPairs:
    """Pad a batch of (source ids, target ids) into :class:`EncodedPairs` (targets end with EOS):
    the ``collate_fn`` of a ``torch.utils.data.DataLoader`` over a :class:`PairDataset`, and what
    :func:`encode_pairs` does to a whole set.

    Parameters
    ----------
    batch : sequence of (sequence of int, sequence of int)
        Token ids of each pair's source and target, none empty.
    source_eos : bool
        End every source with EOS too.

    Returns
    -------
    EncodedPairs
        Padded tensors on the CPU.
    """
    if not batch:
        raise ValueError("cannot collate an empty batch")
    source, source_lengths = pad_batch([s for s, _ in batch], add_eos=source_eos)
    target, target_lengths = pad_batch([t for _, t in batch], add_eos=True)
    return EncodedPairs(source, source_lengths, target, target_lengths)


class PairDataset(torch.utils.data.Dataset):
    """(source, target) string pairs as token ids, for a PyTorch ``DataLoader``: any benchmark's
    pairs (SCAN's, PCFG SET's, ORCHARD's, a DBCA split's) can go into another training loop.

    Parameters
    ----------
    pairs : sequence of (str, str)
        Source and target strings, tokens separated by spaces.
    source_vocab, target_vocab : Vocabulary, optional
        Their vocabularies; by default, every token of ``pairs``' sources and targets.

    Examples
    --------
    >>> from torch.utils.data import DataLoader
    >>> data = PairDataset([("jump", "I_JUMP"), ("jump twice", "I_JUMP I_JUMP")])
    >>> batch = next(iter(DataLoader(data, batch_size=2, collate_fn=collate_pairs)))
    >>> batch.source.shape, batch.target_lengths.tolist()
    (torch.Size([2, 2]), [2, 3])
    """

    def __init__(self, pairs: Sequence[tuple[str, str]], source_vocab: Vocabulary | None = None,
                 target_vocab: Vocabulary | None = None):
        pairs = list(pairs)
        if not pairs:
            raise ValueError("PairDataset needs at least one pair")
        for position, pair in enumerate(pairs):
            if (not isinstance(pair, (tuple, list)) or len(pair) != 2
                    or not all(isinstance(side, str) and side.split() for side in pair)):
                raise ValueError(f"pairs[{position}] must be two non-empty strings, got {pair!r}")
        self.pairs = pairs
        self.source_vocab = source_vocab or Vocabulary.from_sequences([s.split() for s, _ in pairs])
        self.target_vocab = target_vocab or Vocabulary.from_sequences([t.split() for _, t in pairs])

    def __len__(self) -> int:
        return len(self.pairs)

    def __getitem__(self, index: int) -> tuple[list[int], list[int]]:
        source, target = self.pairs[index]
        return self.source_vocab.encode(source.split()), self.target_vocab.encode(target.split())
