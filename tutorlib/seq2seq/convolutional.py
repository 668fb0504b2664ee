"""A convolutional encoder-decoder, after Gehring et al. (2017), *Convolutional Sequence to
Sequence Learning* (ConvS2S), small enough to train on a CPU.

What it keeps of the paper (Sec. 3):

- token embeddings plus position vectors (learned, as in the paper, or sinusoidal);
- encoder and decoder are stacks of 1-D convolutions whose ``2 * hidden`` output channels are
  halved by a gated linear unit (GLU, Dauphin et al. 2017), each block with a residual
  connection, scaled by sqrt(0.5) to keep the variance of the sum (Sec. 3.4);
- the decoder's convolutions are causal (the input is padded ``kernel_size - 1`` on the left
  only), so the output at position t sees target tokens up to t and never later ones;
- *multi-step attention* (Sec. 3.3): every decoder layer attends on its own. Its query is the
  layer's output projected and added to the embedding of the previous target token; the keys
  are the encoder's outputs z, the values z + e (the source embeddings e); the context, scaled
  by m * sqrt(1/m) for a source of m tokens, is projected and added to the layer's output.

What it leaves out: weight normalisation and the paper's initialisation (PyTorch's defaults
train these small models well) and the separate embedding and hidden widths (one width here).
Greedy decoding is incremental: each step runs the decoder for the newest position only, each
layer's convolution on the last ``kernel_size`` inputs of that layer, kept from the earlier
steps.

Use it through :func:`tutorlib.seq2seq.build_model` with ``Seq2SeqConfig(cell="conv", ...)``:
``hidden_size`` is the width, ``num_layers`` the blocks in encoder and in decoder,
``kernel_size`` the convolutions' width, ``positions`` and ``max_positions`` as for the
Transformer.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.seq2seq.config import Seq2SeqConfig
from tutorlib.seq2seq.interface import Seq2SeqBase
from tutorlib.seq2seq.layers import greedy_loop, position_vectors
from tutorlib.seq2seq.vocab import PAD, SOS

HALF = math.sqrt(0.5)


class ConvSeq2Seq(Seq2SeqBase):
    """Convolutional encoder-decoder with gated linear units and multi-step attention.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture (``cell="conv"``); see the module docstring for what each field sets.
    source_size, target_size : int
        Vocabulary sizes.

    Examples
    --------
    >>> from tutorlib.seq2seq import build_model, pad_batch
    >>> model = build_model(Seq2SeqConfig("conv", 16, 2, 0.0), 7, 9)
    >>> source, lengths = pad_batch([[3, 4, 5], [6]])
    >>> model(source, lengths, torch.tensor([[SOS, 3], [SOS, 4]])).shape
    torch.Size([2, 2, 9])
    """

    NAME = "ConvS2S"

    @classmethod
    def check_config(cls, config: Seq2SeqConfig) -> None:
        if config.cell != "conv":
            raise ValueError(f"ConvSeq2Seq needs cell='conv', got {config.cell!r}")
        super().check_config(config)

    def __init__(self, config: Seq2SeqConfig, source_size: int, target_size: int):
        super().__init__()
        self.check_config(config)
        self.config = config
        hidden, layers, width = config.hidden_size, config.num_layers, config.kernel_size
        self.source_embedding = nn.Embedding(source_size, hidden, padding_idx=PAD)
        self.target_embedding = nn.Embedding(target_size, hidden, padding_idx=PAD)
        learned = config.positions == "learned"
        self.source_positions = nn.Embedding(config.max_positions, hidden) if learned else None
        self.target_positions = nn.Embedding(config.max_positions, hidden) if learned else None
        self.dropout = nn.Dropout(config.dropout)
        self.encoder_convolutions = nn.ModuleList(
            nn.Conv1d(hidden, 2 * hidden, width) for _ in range(layers))
        self.decoder_convolutions = nn.ModuleList(
            nn.Conv1d(hidden, 2 * hidden, width) for _ in range(layers))
        self.attention_query = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(layers))
        self.attention_output = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(layers))
        self.output = nn.Linear(hidden, target_size)

    def _embed(self, embedding: nn.Embedding, table: nn.Embedding | None,
               tokens: torch.Tensor) -> torch.Tensor:
        positions = position_vectors(self.config, table, tokens.shape[1], tokens.device)
        return self.dropout(embedding(tokens) + positions)

    def encode(self, source: torch.Tensor, lengths: torch.Tensor):
        """Attention keys z (batch, length, hidden), values z + e, and the non-padding mask."""
        mask = source != PAD
        keep = mask.unsqueeze(-1).to(self.output.weight.dtype)
        embedded = self._embed(self.source_embedding, self.source_positions, source)
        x = embedded
        width = self.config.kernel_size
        for convolution in self.encoder_convolutions:
            # zero the padding first, so that it never leaks into a real position's window;
            # then pad both ends (centred windows, also for even widths)
            h = (self.dropout(x) * keep).transpose(1, 2)
            h = F.pad(h, ((width - 1) // 2, width // 2))
            x = (F.glu(convolution(h), dim=1).transpose(1, 2) + x) * HALF
        keys = x * keep
        return keys, (keys + embedded) * HALF, mask

    def final_hidden(self, source: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """The mean of the encoder's outputs over the source's tokens (batch, hidden)."""
        keys, _, mask = self.encode(source, lengths)
        keep = mask.unsqueeze(-1).to(keys.dtype)
        return keys.sum(1) / keep.sum(1)

    def _decode(self, keys, values, mask, target_in: torch.Tensor) -> torch.Tensor:
        """Logits (batch, target length, vocabulary) for the teacher-forced ``target_in``."""
        previous = self._embed(self.target_embedding, self.target_positions, target_in)
        # m * sqrt(1/m) = sqrt(m) for a source of m tokens (Gehring et al., Sec. 3.4)
        scale = mask.sum(1, keepdim=True).unsqueeze(-1).to(keys.dtype).sqrt()
        blocked = ~mask.unsqueeze(1)  # (batch, 1, source length)
        x = previous
        for convolution, query, output in zip(self.decoder_convolutions, self.attention_query,
                                              self.attention_output, strict=True):
            # left padding only: position t sees target positions t - kernel_size + 1 ... t
            h = F.pad(self.dropout(x).transpose(1, 2), (self.config.kernel_size - 1, 0))
            h = F.glu(convolution(h), dim=1).transpose(1, 2)
            scores = ((query(h) + previous) * HALF) @ keys.transpose(1, 2)
            weights = torch.softmax(scores.masked_fill(blocked, float("-inf")), dim=-1)
            h = (h + output(weights @ values * scale)) * HALF
            x = (h + x) * HALF
        return self.output(self.dropout(x))

    def forward(self, source, lengths, target_in, teacher_forcing: bool = True) -> torch.Tensor:
        """Logits (batch, target length, vocabulary) for ``target_in`` (which starts with SOS).

        Always teacher-forced, all positions at once (``teacher_forcing`` is accepted for a
        common interface with :class:`~tutorlib.seq2seq.RNNSeq2Seq` and ignored).
        """
        keys, values, mask = self.encode(source, lengths)
        return self._decode(keys, values, mask, target_in)

    def _decode_newest(self, keys, values, mask, token, position: int, windows: list):
        """The logits (batch, vocabulary) at ``position`` for its input ``token`` (batch,),
        running every decoder layer for that position only: ``windows`` holds, per layer, its
        inputs at the last ``kernel_size - 1`` positions (zeros before the first, as the left
        padding of :meth:`_decode`) and moves on by one. The same function as :meth:`_decode`
        (tested)."""
        previous = self.dropout(self.target_embedding(token.unsqueeze(1)) + position_vectors(
            self.config, self.target_positions, position + 1, token.device)[position])
        scale = mask.sum(1, keepdim=True).unsqueeze(-1).to(keys.dtype).sqrt()
        blocked = ~mask.unsqueeze(1)
        x = previous
        for i, (convolution, query, output) in enumerate(zip(
                self.decoder_convolutions, self.attention_query, self.attention_output,
                strict=True)):
            window = torch.cat([windows[i], self.dropout(x)], dim=1)  # (batch, kernel, hidden)
            windows[i] = window[:, 1:]
            h = F.glu(convolution(window.transpose(1, 2)), dim=1).transpose(1, 2)
            scores = ((query(h) + previous) * HALF) @ keys.transpose(1, 2)
            weights = torch.softmax(scores.masked_fill(blocked, float("-inf")), dim=-1)
            h = (h + output(weights @ values * scale)) * HALF
            x = (h + x) * HALF
        return self.output(self.dropout(x))[:, 0]

    @torch.no_grad()
    def greedy(self, source, lengths, max_length: int, oracle_lengths: torch.Tensor | None = None):
        """Greedy decoding, as :meth:`tutorlib.seq2seq.RNNSeq2Seq.greedy`, one position a step
        (:meth:`_decode_newest`): linear, not quadratic, in the output's length."""
        keys, values, mask = self.encode(source, lengths)
        first = torch.full((source.shape[0],), SOS, dtype=torch.long, device=source.device)
        empty = keys.new_zeros(source.shape[0], self.config.kernel_size - 1, keys.shape[-1])

        def step(tokens, state):
            position, windows = state
            logits = self._decode_newest(keys, values, mask, tokens, position, windows)
            return logits, (position + 1, windows)

        return greedy_loop(step, first, (0, [empty] * len(self.decoder_convolutions)),
                           max_length, oracle_lengths)
