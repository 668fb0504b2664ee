"""A Transformer encoder-decoder (Vaswani et al. 2017) with learned positions (an error past
``max_positions``), sinusoidal ones (no length limit) or relative ones (Shaw et al. 2018: a
learned bias per head and clipped distance on the self-attention scores, no position vectors;
no length limit), post-LN or pre-LN, always trained with teacher forcing; greedy decoding is
incremental (each step runs the decoder for the newest position only, attending to the earlier
positions' layer inputs, kept from the earlier steps).
"""

from __future__ import annotations

import math

import torch
from torch import nn

from tutorlib.seq2seq.config import Seq2SeqConfig
from tutorlib.seq2seq.interface import Seq2SeqBase
from tutorlib.seq2seq.layers import greedy_loop, position_vectors
from tutorlib.seq2seq.vocab import PAD, SOS

# relative positions: distances beyond this many tokens share one bias (Shaw et al. 2018 found
# no gain from clipping later than 16)
RELATIVE_DISTANCE = 16


def relative_bias(table: nn.Embedding, queries: int, keys: int, blocked: torch.Tensor,
                  first_query: int = 0) -> torch.Tensor:
    """The additive self-attention mask of relative positions, one (queries, keys) matrix per
    sequence and head: ``table``'s bias for the clipped distance ``key - query``, and minus
    infinity where ``blocked`` (batch, queries or 1, keys) is True (padding, the future). The
    queries are positions ``first_query``, ``first_query + 1``, ... (the keys start at 0).

    Returns
    -------
    torch.Tensor
        (batch * heads, queries, keys), as :class:`torch.nn.MultiheadAttention` takes it.
    """
    device = blocked.device
    distance = (torch.arange(keys, device=device)[None, :]
                - torch.arange(first_query, first_query + queries, device=device)[:, None])
    bias = table(distance.clamp(-RELATIVE_DISTANCE, RELATIVE_DISTANCE) + RELATIVE_DISTANCE)
    bias = bias.permute(2, 0, 1).unsqueeze(0)  # (1, heads, queries, keys)
    bias = bias.masked_fill(blocked.unsqueeze(1), float("-inf"))
    return bias.reshape(-1, queries, keys)


# One decoder layer's cross-attention and feed-forward blocks for the newest position, written
# with the layer's public modules in the order nn.TransformerDecoderLayer.forward applies them,
# so incremental decoding computes what the whole-prefix decoder computes
def _cross_attention(layer: nn.TransformerDecoderLayer, x: torch.Tensor, memory: torch.Tensor,
                     memory_mask: torch.Tensor) -> torch.Tensor:
    """The layer's attention over the encoder's ``memory``, after its dropout."""
    attended = layer.multihead_attn(x, memory, memory, key_padding_mask=memory_mask,
                                    need_weights=False)[0]
    return layer.dropout2(attended)


def _feed_forward(layer: nn.TransformerDecoderLayer, x: torch.Tensor) -> torch.Tensor:
    """The layer's position-wise feed-forward network, after its dropout."""
    return layer.dropout3(layer.linear2(layer.dropout(layer.activation(layer.linear1(x)))))


class TransformerSeq2Seq(Seq2SeqBase):
    """A Transformer encoder-decoder with learned, sinusoidal or relative positions.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture (``cell="transformer"``): ``num_layers`` encoder and decoder layers,
        ``num_heads`` heads, feed-forward width ``4 * hidden_size``, ``positions``.
    source_size, target_size : int
        Vocabulary sizes.
    """

    NAME = "Transformer"

    @classmethod
    def check_config(cls, config: Seq2SeqConfig) -> None:
        if config.cell != "transformer":
            raise ValueError(f"TransformerSeq2Seq needs cell='transformer', got {config.cell!r}")
        if config.bidirectional:
            raise ValueError("bidirectional is for recurrent cells, not 'transformer'")
        if config.hidden_size % config.num_heads:
            raise ValueError(f"hidden_size {config.hidden_size} must be divisible by num_heads "
                             f"{config.num_heads}")

    @classmethod
    def describe_parts(cls, config: Seq2SeqConfig) -> list[str]:
        return [f"{config.num_heads} heads"
                + (", relative positions" if config.positions == "relative" else "")]

    def init_embeddings(self, how: str) -> None:
        """``"pytorch"``: as built (PyTorch's draw, on the positions' scale unless positions
        are relative); ``"fairseq"``: drawn afresh with standard deviation
        ``hidden_size ** -0.5`` from PyTorch's global generator, as fairseq does."""
        if how == "pytorch":
            return
        if how != "fairseq":
            raise ValueError(f"embedding_init must be 'pytorch' or 'fairseq', got {how!r}")
        with torch.no_grad():
            for embedding in (self.source_embedding, self.target_embedding):
                nn.init.normal_(embedding.weight, std=self.config.hidden_size ** -0.5)
                embedding.weight[embedding.padding_idx].zero_()

    def __init__(self, config: Seq2SeqConfig, source_size: int, target_size: int):
        super().__init__()
        self.check_config(config)
        self.config = config
        hidden = config.hidden_size
        self.source_embedding = nn.Embedding(source_size, hidden, padding_idx=PAD)
        self.target_embedding = nn.Embedding(target_size, hidden, padding_idx=PAD)
        self.positions = (nn.Embedding(config.max_positions, hidden)
                          if config.positions == "learned" else None)
        self.relative = config.positions == "relative"
        if self.relative:  # one table for the encoder's self-attention, one for the decoder's
            self.source_distances = nn.Embedding(2 * RELATIVE_DISTANCE + 1, config.num_heads)
            self.target_distances = nn.Embedding(2 * RELATIVE_DISTANCE + 1, config.num_heads)
            for table in (self.source_distances, self.target_distances):
                nn.init.zeros_(table.weight)
        # PyTorch's fused inference path of the encoder layer gets per-head masks wrong (NaN in
        # evaluation); relative positions need them, so their layers call ReLU as torch.relu,
        # the same function under a name that path does not take
        layer = nn.TransformerEncoderLayer(
            hidden, config.num_heads, 4 * hidden, config.dropout, batch_first=True,
            norm_first=config.norm_first,
            activation=torch.relu if config.positions == "relative" else "relu")
        encoder = nn.TransformerEncoder(layer, config.num_layers, norm=nn.LayerNorm(hidden),
                                        enable_nested_tensor=False)
        self.transformer = nn.Transformer(
            d_model=hidden, nhead=config.num_heads, num_encoder_layers=config.num_layers,
            num_decoder_layers=config.num_layers, dim_feedforward=4 * hidden,
            dropout=config.dropout, batch_first=True, custom_encoder=encoder,
            norm_first=config.norm_first)
        self.output = nn.Linear(hidden, target_size)
        if not self.relative:
            # token embeddings start on the scale of the positions added to them: drawn with
            # standard deviation 1 they are sqrt(hidden) times larger once scaled and drown the
            # positions (scaled in place, so the generator's later draws are unchanged)
            with torch.no_grad():
                for embedding in (self.source_embedding, self.target_embedding):
                    embedding.weight.mul_(hidden ** -0.5)

    def _embed(self, embedding: nn.Embedding, tokens: torch.Tensor) -> torch.Tensor:
        if self.relative:  # nothing to balance the embeddings against: not scaled (as T5)
            return embedding(tokens)
        return embedding(tokens) * math.sqrt(self.config.hidden_size) + position_vectors(
            self.config, self.positions, tokens.shape[1], tokens.device)

    def encode(self, source, lengths):
        """The encoder's outputs (batch, length, hidden) and the padding mask (True at PAD)."""
        mask = source == PAD
        embedded = self._embed(self.source_embedding, source)
        if self.relative:
            length = source.shape[1]
            memory = self.transformer.encoder(
                embedded, mask=relative_bias(self.source_distances, length, length,
                                             mask.unsqueeze(1)))
        else:
            memory = self.transformer.encoder(embedded, src_key_padding_mask=mask)
        return memory, mask

    def final_hidden(self, source, lengths) -> torch.Tensor:
        """The mean of the encoder's outputs over the command's tokens (batch, hidden)."""
        memory, mask = self.encode(source, lengths)
        keep = (~mask).unsqueeze(-1).float()
        return (memory * keep).sum(1) / keep.sum(1)

    def _decode(self, memory, memory_mask, target_in):
        length = target_in.shape[1]
        causal = torch.triu(torch.ones(length, length, dtype=torch.bool,
                                       device=target_in.device), diagonal=1)
        embedded = self._embed(self.target_embedding, target_in)
        if self.relative:
            blocked = causal.unsqueeze(0) | (target_in == PAD).unsqueeze(1)
            out = self.transformer.decoder(
                embedded, memory, tgt_mask=relative_bias(self.target_distances, length, length,
                                                         blocked),
                memory_key_padding_mask=memory_mask)
        else:
            out = self.transformer.decoder(embedded, memory, tgt_mask=causal, tgt_is_causal=True,
                                           tgt_key_padding_mask=target_in == PAD,
                                           memory_key_padding_mask=memory_mask)
        return self.output(out)

    def forward(self, source, lengths, target_in, teacher_forcing: bool = True) -> torch.Tensor:
        """Logits (batch, target length, vocabulary); always teacher-forced (the flag is
        accepted for a common interface and ignored)."""
        memory, mask = self.encode(source, lengths)
        return self._decode(memory, mask, target_in)

    def _decode_newest(self, memory, memory_mask, token, position: int, kept: list):
        """The logits (batch, vocabulary) at ``position`` for its input ``token`` (batch,),
        running every decoder layer for that position only. ``kept`` holds, per layer, what
        its self-attention reads at the earlier positions (its inputs, layer-normed first in a
        pre-LN layer), and grows by this position's: the decoder is causal, so nothing at an
        earlier position changes. The same function as :meth:`_decode` (tested)."""
        x = self.target_embedding(token.unsqueeze(1))
        if not self.relative:
            x = x * math.sqrt(self.config.hidden_size) + position_vectors(
                self.config, self.positions, position + 1, token.device)[position]
        bias = None
        if self.relative:
            blocked = torch.zeros(token.shape[0], 1, position + 1, dtype=torch.bool,
                                  device=token.device)
            bias = relative_bias(self.target_distances, 1, position + 1, blocked,
                                 first_query=position)
        decoder = self.transformer.decoder
        for i, layer in enumerate(decoder.layers):
            query = layer.norm1(x) if layer.norm_first else x
            kept[i] = query if position == 0 else torch.cat([kept[i], query], dim=1)
            attended = layer.dropout1(layer.self_attn(query, kept[i], kept[i], attn_mask=bias,
                                                      need_weights=False)[0])
            if layer.norm_first:
                x = x + attended
                x = x + _cross_attention(layer, layer.norm2(x), memory, memory_mask)
                x = x + _feed_forward(layer, layer.norm3(x))
            else:
                x = layer.norm1(x + attended)
                x = layer.norm2(x + _cross_attention(layer, x, memory, memory_mask))
                x = layer.norm3(x + _feed_forward(layer, x))
        if decoder.norm is not None:
            x = decoder.norm(x)
        return self.output(x)[:, 0]

    @torch.no_grad()
    def greedy(self, source, lengths, max_length: int, oracle_lengths: torch.Tensor | None = None):
        """Greedy decoding, as :meth:`RNNSeq2Seq.greedy`, one position a step
        (:meth:`_decode_newest`): linear, not quadratic, in the output's length."""
        memory, mask = self.encode(source, lengths)
        first = torch.full((source.shape[0],), SOS, dtype=torch.long, device=source.device)

        def step(tokens, state):
            position, kept = state
            logits = self._decode_newest(memory, mask, tokens, position, kept)
            return logits, (position + 1, kept)

        return greedy_loop(step, first, (0, [None] * len(self.transformer.decoder.layers)),
                           max_length, oracle_lengths)
