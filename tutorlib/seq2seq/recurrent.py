"""The recurrent encoder-decoder of Lake & Baroni (2018, Sec. 3), and Hupkes et al.'s
(2020) LSTMS2S: an SRN, GRU or LSTM encoder and decoder of 1-2 layers, dropout on the
embeddings and between recurrent layers, optional Bahdanau attention (the previous decoder
state queries the encoder states; the context joins the decoder's input and its output
layer) and an optional bidirectional encoder.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.seq2seq.config import RECURRENT, Seq2SeqConfig
from tutorlib.seq2seq.interface import Seq2SeqBase
from tutorlib.seq2seq.layers import greedy_loop
from tutorlib.seq2seq.vocab import EOS, PAD, SOS


class RNNSeq2Seq(Seq2SeqBase):
    """Recurrent encoder-decoder (SRN/GRU/LSTM), with optional Bahdanau attention.

    With ``config.bidirectional`` the encoder runs both ways; its states (both directions
    concatenated) are projected to ``hidden_size`` for attention, and its final states (both
    directions, per layer) through a tanh layer to the decoder's initial state.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture (``cell`` one of ``"srn"``, ``"gru"``, ``"lstm"``).
    source_size, target_size : int
        Vocabulary sizes.
    """

    host_lengths = True  # packs its inputs by length, on the CPU

    @classmethod
    def check_config(cls, config: Seq2SeqConfig) -> None:
        if config.cell not in RECURRENT:
            raise ValueError(f"RNNSeq2Seq needs a recurrent cell ({', '.join(RECURRENT)}), "
                             f"got {config.cell!r}")
        cls.refuse_transformer_options(config)

    @classmethod
    def display_name(cls, config: Seq2SeqConfig) -> str:
        return config.cell.upper()

    @classmethod
    def describe_parts(cls, config: Seq2SeqConfig) -> list[str]:
        return ["attention"] if config.attention else []

    def __init__(self, config: Seq2SeqConfig, source_size: int, target_size: int):
        super().__init__()
        self.check_config(config)
        self.config = config
        hidden, layers = config.hidden_size, config.num_layers
        rnn = {"srn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}[config.cell]
        between = config.dropout if layers > 1 else 0.0
        self.source_embedding = nn.Embedding(source_size, hidden, padding_idx=PAD)
        self.target_embedding = nn.Embedding(target_size, hidden, padding_idx=PAD)
        self.dropout = nn.Dropout(config.dropout)
        self.encoder = rnn(hidden, hidden, layers, dropout=between, batch_first=True,
                           bidirectional=config.bidirectional)
        extra = hidden if config.attention else 0
        self.decoder = rnn(hidden + extra, hidden, layers, dropout=between, batch_first=True)
        if config.attention:
            self.attention_query = nn.Linear(hidden, hidden, bias=False)
            self.attention_key = nn.Linear(hidden, hidden, bias=False)
            self.attention_score = nn.Linear(hidden, 1, bias=False)
        self.output = nn.Linear(hidden + extra, target_size)
        if config.bidirectional:  # created last, so one-way models initialise as they always did
            self.encoder_projection = nn.Linear(2 * hidden, hidden)
            self.bridge = nn.Linear(2 * hidden, hidden)
            if config.cell == "lstm":
                self.bridge_cell = nn.Linear(2 * hidden, hidden)

    def encode(self, source: torch.Tensor, lengths: torch.Tensor):
        """Encoder states (batch, length, hidden), the decoder's initial state, and the
        non-padding mask (batch, length)."""
        embedded = self.dropout(self.source_embedding(source))
        # pack_padded_sequence wants the lengths on the CPU, whatever the device
        packed = nn.utils.rnn.pack_padded_sequence(embedded, lengths.cpu(), batch_first=True,
                                                   enforce_sorted=False)
        outputs, state = self.encoder(packed)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs, batch_first=True,
                                                      total_length=source.shape[1])
        if self.config.bidirectional:
            outputs = self.encoder_projection(outputs)
            if isinstance(state, tuple):
                state = (self._join(state[0], self.bridge, torch.tanh),
                         self._join(state[1], self.bridge_cell, None))
            else:
                state = self._join(state, self.bridge, torch.tanh)
        return outputs, state, source != PAD

    def _join(self, state: torch.Tensor, layer: nn.Linear, activation) -> torch.Tensor:
        """(layers * 2, batch, hidden) states of both directions -> (layers, batch, hidden)."""
        both = state.reshape(self.config.num_layers, 2, *state.shape[1:])
        joined = layer(torch.cat([both[:, 0], both[:, 1]], dim=-1))
        return activation(joined) if activation is not None else joined

    def final_hidden(self, source: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """The top layer of the decoder's initial state (batch, hidden): the encoder's final
        hidden state (both directions joined, when bidirectional)."""
        _, state, _ = self.encode(source, lengths)
        h = state[0] if isinstance(state, tuple) else state
        return h[-1]

    def _context(self, state, outputs, keys, mask) -> torch.Tensor:
        h = state[0] if isinstance(state, tuple) else state
        scores = self.attention_score(torch.tanh(keys + self.attention_query(h[-1]).unsqueeze(1)))
        scores = scores.squeeze(-1).masked_fill(~mask, float("-inf"))
        return torch.bmm(torch.softmax(scores, dim=-1).unsqueeze(1), outputs)  # (batch, 1, hidden)

    def _cells(self, inputs: torch.Tensor, state):
        """One decoder time step, layer by layer, with the decoder RNN's own weights.

        Cheaper than calling the multi-layer RNN on a length-1 sequence at every step; applies
        the same dropout between layers as the RNN does in training.
        """
        cell = {"lstm": torch.lstm_cell, "gru": torch.gru_cell,
                "srn": torch.rnn_tanh_cell}[self.config.cell]
        is_lstm = self.config.cell == "lstm"
        hs, cs = (state if is_lstm else (state, None))
        new_h, new_c, x = [], [], inputs
        for layer in range(self.config.num_layers):
            weights = [getattr(self.decoder, f"{name}_l{layer}")
                       for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
            if is_lstm:
                h, c = cell(x, (hs[layer], cs[layer]), *weights)
                new_c.append(c)
            else:
                h = cell(x, hs[layer], *weights)
            new_h.append(h)
            x = h
            if layer + 1 < self.config.num_layers:
                x = F.dropout(x, self.config.dropout, self.training)
        h = torch.stack(new_h)
        return x, ((h, torch.stack(new_c)) if is_lstm else h)

    def _step(self, tokens: torch.Tensor, state, outputs, keys, mask):
        embedded = self.dropout(self.target_embedding(tokens))
        if self.config.attention:
            context = self._context(state, outputs, keys, mask).squeeze(1)
            out, state = self._cells(torch.cat([embedded, context], dim=-1), state)
            features = torch.cat([out, context], dim=-1)
        else:
            out, state = self._cells(embedded, state)
            features = out
        return self.output(features), state

    def forward(self, source, lengths, target_in,
                teacher_forcing: bool | torch.Tensor = True) -> torch.Tensor:
        """Logits (batch, target length, vocabulary) for ``target_in`` (which starts with SOS).

        Without teacher forcing each step is fed the previous step's most likely token.
        ``teacher_forcing`` is one flag for the batch, or a boolean tensor (batch,): one flag per
        example, as the paper's coin is when a batch holds one example.
        """
        if isinstance(teacher_forcing, torch.Tensor):
            if bool(teacher_forcing.all()):
                teacher_forcing = True
            elif not bool(teacher_forcing.any()):
                teacher_forcing = False
            else:
                teacher_forcing = teacher_forcing.to(target_in.device)
        outputs, state, mask = self.encode(source, lengths)
        if not isinstance(teacher_forcing, torch.Tensor) and teacher_forcing \
                and not self.config.attention:
            # without attention the whole teacher-forced sequence is one RNN call
            out, _ = self.decoder(self.dropout(self.target_embedding(target_in)), state)
            return self.output(out)
        keys = self.attention_key(outputs) if self.config.attention else None
        tokens = target_in[:, 0]
        logits = []
        for t in range(target_in.shape[1]):
            step_logits, state = self._step(tokens, state, outputs, keys, mask)
            logits.append(step_logits)
            if t + 1 < target_in.shape[1]:
                if isinstance(teacher_forcing, torch.Tensor):  # one flag per example
                    tokens = torch.where(teacher_forcing, target_in[:, t + 1],
                                         step_logits.argmax(-1))
                else:
                    tokens = target_in[:, t + 1] if teacher_forcing else step_logits.argmax(-1)
        return torch.stack(logits, dim=1)

    @torch.no_grad()
    def final_decoder_hidden(self, source: torch.Tensor, lengths: torch.Tensor,
                             max_length: int) -> torch.Tensor:
        """The top layer of the decoder's hidden state at the step where greedy decoding emits
        EOS (the last step, for a sequence that never does): (batch, hidden), the decoder's
        reading of a whole command (the SCAN chapter compares commands by it and by
        :meth:`final_hidden`)."""
        outputs, state, mask = self.encode(source, lengths)
        keys = self.attention_key(outputs) if self.config.attention else None
        tokens = torch.full((source.shape[0],), SOS, dtype=torch.long, device=source.device)
        done = torch.zeros(source.shape[0], dtype=torch.bool, device=source.device)
        final = None
        for _ in range(max_length):
            logits, state = self._step(tokens, state, outputs, keys, mask)
            logits = logits.clone()
            logits[:, [PAD, SOS]] = float("-inf")
            tokens = logits.argmax(-1)
            top = (state[0] if isinstance(state, tuple) else state)[-1]
            final = top.clone() if final is None else torch.where(done.unsqueeze(1), final, top)
            done |= tokens == EOS
            if bool(done.all()):
                break
        return final

    def greedy(self, source, lengths, max_length: int, oracle_lengths: torch.Tensor | None = None):
        """Greedy decoding: (batch, at most max_length) token ids, PAD after each EOS.

        ``oracle_lengths`` (tokens before EOS) forbids EOS before them and forces it there.
        """
        outputs, state, mask = self.encode(source, lengths)
        keys = self.attention_key(outputs) if self.config.attention else None
        tokens = torch.full((source.shape[0],), SOS, dtype=torch.long, device=source.device)
        return greedy_loop(lambda tok, st: self._step(tok, st, outputs, keys, mask), tokens, state,
                           max_length, oracle_lengths)
