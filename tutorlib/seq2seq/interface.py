"""What an architecture is: the interface every sequence-to-sequence model meets.

Adding an architecture to the book is one file in ``tutorlib/seq2seq/`` with a class that
meets :class:`Architecture` (most simply by subclassing :class:`Seq2SeqBase`) and one line in
:data:`tutorlib.seq2seq.config.ARCHITECTURES` naming it for its ``cell``. Nothing else in the
package asks which architecture a model is: the trainer, the evaluators and the experiments
only call the methods below.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

import torch
from torch import nn

from tutorlib.seq2seq.config import Seq2SeqConfig


@runtime_checkable
class Architecture(Protocol):
    """The interface of an architecture (a ``torch.nn.Module``).

    Attributes
    ----------
    config : Seq2SeqConfig
        The architecture it was built from.
    host_lengths : bool
        Whether :meth:`forward` wants the source lengths on the CPU (a recurrent encoder packs
        its inputs by length there); the trainer then gives it the host's lengths, without
        waiting for the device.
    """

    config: Seq2SeqConfig
    host_lengths: ClassVar[bool]

    def __init__(self, config: Seq2SeqConfig, source_size: int, target_size: int) -> None: ...

    @classmethod
    def check_config(cls, config: Seq2SeqConfig) -> None:
        """Refuse, with ``ValueError``, a configuration this architecture cannot build."""

    @classmethod
    def display_name(cls, config: Seq2SeqConfig) -> str:
        """The architecture's name in tables (``"LSTM"``, ``"Transformer"``)."""

    @classmethod
    def describe_parts(cls, config: Seq2SeqConfig) -> list[str]:
        """What a table says of this configuration beyond its name, layers and dropout."""

    def forward(self, source: torch.Tensor, lengths: torch.Tensor, target_in: torch.Tensor,
                teacher_forcing: bool | torch.Tensor = True) -> torch.Tensor:
        """Logits (batch, target length, vocabulary) for ``target_in`` (starting with SOS)."""

    def encode(self, source: torch.Tensor, lengths: torch.Tensor):
        """The encoder's outputs (what :meth:`forward` and :meth:`greedy` attend to)."""

    def final_hidden(self, source: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """One vector per source (batch, hidden): what nearest-neighbour analyses compare."""

    def greedy(self, source: torch.Tensor, lengths: torch.Tensor, max_length: int,
               oracle_lengths: torch.Tensor | None = None) -> torch.Tensor:
        """Greedy decoding: (batch, at most ``max_length``) token ids."""

    def init_embeddings(self, how: str) -> None:
        """Initialise the token embeddings as ``how`` says (``"pytorch"``: as built)."""


class Seq2SeqBase(nn.Module):
    """Defaults for an architecture: no host lengths, no checks beyond the configuration's
    own, nothing to describe, and only PyTorch's embedding initialisation."""

    NAME: ClassVar[str] = "seq2seq"
    host_lengths: ClassVar[bool] = False

    @classmethod
    def check_config(cls, config: Seq2SeqConfig) -> None:
        if config.bidirectional:
            raise ValueError(f"bidirectional is for recurrent cells, not {config.cell!r}")
        cls.refuse_transformer_options(config)

    @staticmethod
    def refuse_transformer_options(config: Seq2SeqConfig) -> None:
        """Refuse what only a Transformer has (pre-LN, relative positions)."""
        if config.norm_first:
            raise ValueError(f"norm_first is for Transformers, not {config.cell!r}")
        if config.positions == "relative":
            raise ValueError(f"relative positions are for Transformers, not {config.cell!r}")

    @classmethod
    def display_name(cls, config: Seq2SeqConfig) -> str:
        return cls.NAME

    @classmethod
    def describe_parts(cls, config: Seq2SeqConfig) -> list[str]:
        return []

    def init_embeddings(self, how: str) -> None:
        if how != "pytorch":
            raise ValueError(f"the {how!r} embedding initialisation is for Transformers (their "
                             f"embeddings are scaled by sqrt(hidden_size)), not "
                             f"{type(self).__name__}")
