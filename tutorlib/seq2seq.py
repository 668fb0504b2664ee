"""Sequence-to-sequence models shared by the SCAN, PCFG SET and ORCHARD chapters.

- :class:`Vocabulary` and :func:`pad_batch`: tokens to padded index tensors (PAD/SOS/EOS).
- :class:`RNNSeq2Seq`: the encoder-decoder of Lake & Baroni (2018, Sec. 3): an SRN, GRU or LSTM
  encoder and decoder of 1-2 layers, dropout on the embeddings and between recurrent layers, and
  optional attention (Bahdanau et al. 2015: the previous decoder state queries the encoder
  states; the context joins the decoder's input and its output layer).
- :class:`TransformerSeq2Seq`: a Transformer encoder-decoder (Vaswani et al. 2017) with learned
  positions, always trained with teacher forcing.
- Greedy decoding, and *oracle-length* decoding (EOS is suppressed until the true length, and
  forced there: Lake & Baroni's Exp. 2).
- :func:`fit_seq2seq`: batched training with Adam, gradient clipping and teacher forcing on a
  random half of the batches, counted in *presentations* (examples seen), as the paper counts
  its 100,000 training trials.
- :func:`evaluate`: exact-match accuracy and the prediction for every example.
- :func:`encode`: the encoder's final hidden state, for nearest-neighbour analyses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.train import EarlyStopping, TrainLog, fit, progress_bar

PAD, SOS, EOS = 0, 1, 2
SPECIALS = ("<pad>", "<sos>", "<eos>")
CELLS = ("srn", "gru", "lstm", "transformer")


class Vocabulary:
    """Token <-> index, with ``<pad>`` = 0, ``<sos>`` = 1 and ``<eos>`` = 2.

    Examples
    --------
    >>> vocab = Vocabulary(["walk", "jump", "twice"])
    >>> vocab.encode(["jump", "twice"])
    [3, 4]
    >>> vocab.decode([3, 4, EOS, 5])
    ['jump', 'twice']
    """

    def __init__(self, tokens: Sequence[str]):
        extra = sorted(set(tokens) - set(SPECIALS))
        self.itos: list[str] = [*SPECIALS, *extra]
        self.stoi: dict[str, int] = {t: i for i, t in enumerate(self.itos)}

    @classmethod
    def from_sequences(cls, sequences: Sequence[Sequence[str]]) -> Vocabulary:
        return cls([token for seq in sequences for token in seq])

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, tokens: Sequence[str]) -> list[int]:
        try:
            return [self.stoi[t] for t in tokens]
        except KeyError as error:
            raise ValueError(f"token {error.args[0]!r} is not in the vocabulary "
                             f"({len(self)} tokens: {' '.join(self.itos[3:13])} ...)") from None

    def decode(self, ids: Sequence[int]) -> list[str]:
        """Tokens up to the first EOS, without PAD and SOS."""
        out = []
        for i in ids:
            i = int(i)
            if i == EOS:
                break
            if i not in (PAD, SOS):
                out.append(self.itos[i])
        return out


def pad_batch(sequences: Sequence[Sequence[int]], add_eos: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """A (batch, max length) LongTensor padded with PAD, and the lengths (with EOS if added)."""
    if not sequences:
        raise ValueError("cannot pad an empty batch")
    seqs = [list(s) + ([EOS] if add_eos else []) for s in sequences]
    if any(len(s) == 0 for s in seqs):
        raise ValueError("cannot pad an empty sequence")
    lengths = torch.tensor([len(s) for s in seqs])
    batch = torch.full((len(seqs), int(lengths.max())), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        batch[i, : len(s)] = torch.tensor(s)
    return batch, lengths


@dataclass(frozen=True)
class Seq2SeqConfig:
    """An architecture: ``cell`` is ``"srn"``, ``"gru"``, ``"lstm"`` or ``"transformer"``."""

    cell: str = "lstm"
    hidden_size: int = 200
    num_layers: int = 2
    dropout: float = 0.5
    attention: bool = False
    num_heads: int = 4  # Transformer only
    max_positions: int = 128  # Transformer only

    def __post_init__(self) -> None:
        if self.cell not in CELLS:
            raise ValueError(f"cell must be one of {', '.join(CELLS)}, got {self.cell!r}")
        if not isinstance(self.hidden_size, int) or not 1 <= self.hidden_size <= 4096:
            raise ValueError(f"hidden_size must be an integer from 1 to 4096, got {self.hidden_size!r}")
        if not isinstance(self.num_layers, int) or not 1 <= self.num_layers <= 8:
            raise ValueError(f"num_layers must be an integer from 1 to 8, got {self.num_layers!r}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout!r}")
        if self.cell == "transformer" and self.hidden_size % self.num_heads:
            raise ValueError(f"hidden_size {self.hidden_size} must be divisible by num_heads "
                             f"{self.num_heads}")

    def to_dict(self) -> dict:
        return asdict(self)


def build_model(config: Seq2SeqConfig, source_size: int, target_size: int) -> nn.Module:
    """The model an architecture describes, for the given vocabulary sizes."""
    if config.cell == "transformer":
        return TransformerSeq2Seq(config, source_size, target_size)
    return RNNSeq2Seq(config, source_size, target_size)


class RNNSeq2Seq(nn.Module):
    """Recurrent encoder-decoder (SRN/GRU/LSTM), with optional Bahdanau attention."""

    def __init__(self, config: Seq2SeqConfig, source_size: int, target_size: int):
        super().__init__()
        self.config = config
        hidden, layers = config.hidden_size, config.num_layers
        rnn = {"srn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}[config.cell]
        between = config.dropout if layers > 1 else 0.0
        self.source_embedding = nn.Embedding(source_size, hidden, padding_idx=PAD)
        self.target_embedding = nn.Embedding(target_size, hidden, padding_idx=PAD)
        self.dropout = nn.Dropout(config.dropout)
        self.encoder = rnn(hidden, hidden, layers, dropout=between, batch_first=True)
        extra = hidden if config.attention else 0
        self.decoder = rnn(hidden + extra, hidden, layers, dropout=between, batch_first=True)
        if config.attention:
            self.attention_query = nn.Linear(hidden, hidden, bias=False)
            self.attention_key = nn.Linear(hidden, hidden, bias=False)
            self.attention_score = nn.Linear(hidden, 1, bias=False)
        self.output = nn.Linear(hidden + extra, target_size)

    def encode(self, source: torch.Tensor, lengths: torch.Tensor):
        """Encoder states (batch, length, hidden), final state, and the non-padding mask."""
        embedded = self.dropout(self.source_embedding(source))
        packed = nn.utils.rnn.pack_padded_sequence(embedded, lengths.cpu(), batch_first=True,
                                                   enforce_sorted=False)
        outputs, state = self.encoder(packed)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs, batch_first=True,
                                                      total_length=source.shape[1])
        return outputs, state, source != PAD

    def final_hidden(self, source: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """The top encoder layer's final hidden state (batch, hidden)."""
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
        cell = {"lstm": torch.lstm_cell, "gru": torch.gru_cell, "srn": torch.rnn_tanh_cell}[self.config.cell]
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

    def forward(self, source, lengths, target_in, teacher_forcing: bool = True) -> torch.Tensor:
        """Logits (batch, target length, vocabulary) for ``target_in`` (which starts with SOS)."""
        outputs, state, mask = self.encode(source, lengths)
        if teacher_forcing and not self.config.attention:
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
                tokens = target_in[:, t + 1] if teacher_forcing else step_logits.argmax(-1)
        return torch.stack(logits, dim=1)

    @torch.no_grad()
    def greedy(self, source, lengths, max_length: int, oracle_lengths: torch.Tensor | None = None):
        """Greedy decoding: (batch, max_length) token ids, PAD after each sequence's EOS."""
        outputs, state, mask = self.encode(source, lengths)
        keys = self.attention_key(outputs) if self.config.attention else None
        tokens = torch.full((source.shape[0],), SOS, dtype=torch.long)
        return _greedy_loop(lambda tok, st: self._step(tok, st, outputs, keys, mask), tokens, state,
                            max_length, oracle_lengths)


def _greedy_loop(step, tokens, state, max_length, oracle_lengths):
    batch = tokens.shape[0]
    result = torch.full((batch, max_length), PAD, dtype=torch.long)
    done = torch.zeros(batch, dtype=torch.bool)
    for t in range(max_length):
        logits, state = step(tokens, state)
        logits = logits.clone()
        logits[:, [PAD, SOS]] = float("-inf")  # never outputs
        if oracle_lengths is not None:
            # Exp. 2: no EOS before the true length; EOS exactly there
            logits[oracle_lengths > t, EOS] = float("-inf")
            logits[oracle_lengths == t] = float("-inf")
            logits[oracle_lengths == t, EOS] = 0.0
        tokens = logits.argmax(-1)
        result[:, t] = torch.where(done, torch.full_like(tokens, PAD), tokens)
        done |= tokens == EOS
        if bool(done.all()):
            break
    return result


class TransformerSeq2Seq(nn.Module):
    """A Transformer encoder-decoder with learned positional embeddings."""

    def __init__(self, config: Seq2SeqConfig, source_size: int, target_size: int):
        super().__init__()
        self.config = config
        hidden = config.hidden_size
        self.source_embedding = nn.Embedding(source_size, hidden, padding_idx=PAD)
        self.target_embedding = nn.Embedding(target_size, hidden, padding_idx=PAD)
        self.positions = nn.Embedding(config.max_positions, hidden)
        layer = nn.TransformerEncoderLayer(hidden, config.num_heads, 4 * hidden, config.dropout,
                                           batch_first=True)
        encoder = nn.TransformerEncoder(layer, config.num_layers, norm=nn.LayerNorm(hidden),
                                        enable_nested_tensor=False)
        self.transformer = nn.Transformer(
            d_model=hidden, nhead=config.num_heads, num_encoder_layers=config.num_layers,
            num_decoder_layers=config.num_layers, dim_feedforward=4 * hidden,
            dropout=config.dropout, batch_first=True, custom_encoder=encoder)
        self.output = nn.Linear(hidden, target_size)

    def _embed(self, embedding: nn.Embedding, tokens: torch.Tensor) -> torch.Tensor:
        if tokens.shape[1] > self.config.max_positions:
            raise ValueError(f"sequence of length {tokens.shape[1]} exceeds max_positions="
                             f"{self.config.max_positions}")
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        return embedding(tokens) * math.sqrt(self.config.hidden_size) + self.positions(positions)

    def encode(self, source, lengths):
        mask = source == PAD
        memory = self.transformer.encoder(self._embed(self.source_embedding, source),
                                          src_key_padding_mask=mask)
        return memory, mask

    def final_hidden(self, source, lengths) -> torch.Tensor:
        """The mean of the encoder's outputs over the command's tokens (batch, hidden)."""
        memory, mask = self.encode(source, lengths)
        keep = (~mask).unsqueeze(-1).float()
        return (memory * keep).sum(1) / keep.sum(1)

    def _decode(self, memory, memory_mask, target_in):
        length = target_in.shape[1]
        causal = torch.triu(torch.ones(length, length, dtype=torch.bool), diagonal=1)
        out = self.transformer.decoder(self._embed(self.target_embedding, target_in), memory,
                                       tgt_mask=causal, tgt_is_causal=True,
                                       tgt_key_padding_mask=target_in == PAD,
                                       memory_key_padding_mask=memory_mask)
        return self.output(out)

    def forward(self, source, lengths, target_in, teacher_forcing: bool = True) -> torch.Tensor:
        memory, mask = self.encode(source, lengths)
        return self._decode(memory, mask, target_in)

    @torch.no_grad()
    def greedy(self, source, lengths, max_length: int, oracle_lengths: torch.Tensor | None = None):
        memory, mask = self.encode(source, lengths)
        prefix = torch.full((source.shape[0], 1), SOS, dtype=torch.long)

        def step(tokens, state):
            state = torch.cat([state, tokens.unsqueeze(1)], dim=1) if state is not None else prefix
            return self._decode(memory, mask, state)[:, -1], state

        return _greedy_loop(step, prefix[:, 0], None, max_length, oracle_lengths)


# ---------------------------------------------------------------------------------------------
# Data, training and evaluation


@dataclass
class EncodedPairs:
    """Source and target sequences as padded tensors (targets end with EOS)."""

    source: torch.Tensor
    source_lengths: torch.Tensor
    target: torch.Tensor
    target_lengths: torch.Tensor

    def __len__(self) -> int:
        return self.source.shape[0]


def encode_pairs(pairs: Sequence[tuple[str, str]], source_vocab: Vocabulary,
                 target_vocab: Vocabulary) -> EncodedPairs:
    """Encode (source, target) string pairs (tokens separated by spaces)."""
    if not pairs:
        raise ValueError("no pairs to encode")
    source, source_lengths = pad_batch([source_vocab.encode(s.split()) for s, _ in pairs])
    target, target_lengths = pad_batch([target_vocab.encode(t.split()) for _, t in pairs],
                                       add_eos=True)
    return EncodedPairs(source, source_lengths, target, target_lengths)


def _batch(data: EncodedPairs, index: torch.Tensor):
    s_len, t_len = data.source_lengths[index], data.target_lengths[index]
    source = data.source[index, : int(s_len.max())]
    target = data.target[index, : int(t_len.max())]
    target_in = torch.cat([torch.full((len(index), 1), SOS, dtype=torch.long), target[:, :-1]], 1)
    return source, s_len, target_in, target


def batch_loss(model: nn.Module, data: EncodedPairs, index: torch.Tensor,
               teacher_forcing: bool = True) -> torch.Tensor:
    """Mean cross-entropy per target token (EOS included, padding excluded)."""
    source, s_len, target_in, target = _batch(data, index)
    logits = model(source, s_len, target_in, teacher_forcing=teacher_forcing)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1),
                           ignore_index=PAD)


@dataclass
class TrainSettings:
    """Training as in Lake & Baroni (2018): Adam 1e-3, clip 5, teacher forcing half the time.

    ``final_lr_fraction`` below 1 decays the learning rate linearly, from ``learning_rate`` at
    the first step to ``learning_rate * final_lr_fraction`` at the last (the paper: constant).
    """

    presentations: int = 100_000
    batch_size: int = 32
    learning_rate: float = 1e-3
    final_lr_fraction: float = 1.0
    clip_norm: float = 5.0
    teacher_forcing: float = 0.5
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("presentations", "batch_size"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not 0.0 <= self.teacher_forcing <= 1.0:
            raise ValueError(f"teacher_forcing must be in [0, 1], got {self.teacher_forcing!r}")
        if not self.learning_rate > 0:
            raise ValueError(f"learning_rate must be positive, got {self.learning_rate!r}")
        if not 0.0 < self.final_lr_fraction <= 1.0:
            raise ValueError(f"final_lr_fraction must be in (0, 1], got {self.final_lr_fraction!r}")


def epoch_batches(data: EncodedPairs, batch_size: int, seed: int, pool: int = 20) -> list[torch.Tensor]:
    """One epoch of batches: a seeded shuffle, cut into pools of ``pool`` batches whose examples
    are sorted by target length (little padding), then the batches shuffled again.

    Every example appears exactly once per epoch.
    """
    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(data), generator=generator)
    batches = []
    for chunk in torch.split(order, batch_size * pool):
        chunk = chunk[torch.argsort(data.target_lengths[chunk], stable=True)]
        batches.extend(torch.split(chunk, batch_size))
    shuffle = torch.randperm(len(batches), generator=generator).tolist()
    return [batches[i] for i in shuffle]


def learning_rate_at(settings: TrainSettings, step: int, num_steps: int) -> float:
    """The learning rate of ``step``: linear from ``learning_rate`` to ``learning_rate *
    final_lr_fraction`` over ``num_steps`` steps (constant when the fraction is 1)."""
    progress = step / max(1, num_steps - 1)
    return settings.learning_rate * (1.0 - (1.0 - settings.final_lr_fraction) * progress)


def fit_seq2seq(model: nn.Module, data: EncodedPairs, settings: TrainSettings, *,
                evaluate=None, eval_every: int = 500, stopper: EarlyStopping | None = None,
                checkpoint=None, desc: str = "training") -> TrainLog:
    """Train ``model`` on ``data`` for ``settings.presentations`` examples, in batches.

    Each epoch is a fresh seeded permutation of the data in length-sorted batches
    (:func:`epoch_batches`), so a run is reproducible and resumes from a checkpoint exactly. Whether a batch is teacher-forced is a seeded coin flip per batch
    (the paper flips it per example, its batches having one example).
    """
    if len(data) == 0:
        raise ValueError("no training data")
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    size = min(settings.batch_size, len(data))
    per_epoch = math.ceil(len(data) / size)
    num_steps = math.ceil(settings.presentations / size)
    epochs: dict[int, list[torch.Tensor]] = {}

    def loss_on_batch(step: int) -> torch.Tensor:
        for group in optimizer.param_groups:  # a function of the step, so resuming is exact
            group["lr"] = learning_rate_at(settings, step, num_steps)
        epoch, b = divmod(step, per_epoch)
        if epoch not in epochs:
            epochs.clear()
            epochs[epoch] = epoch_batches(data, size, seed=settings.seed * 100_003 + epoch)
        forced = np.random.default_rng([settings.seed, step]).random() < settings.teacher_forcing
        return batch_loss(model, data, epochs[epoch][b], teacher_forcing=bool(forced))

    return fit(model, optimizer, loss_on_batch, num_steps=num_steps,
               evaluate=evaluate, eval_every=eval_every, stopper=stopper, checkpoint=checkpoint,
               clip_norm=settings.clip_norm, desc=desc)


@dataclass
class Evaluation:
    """Exact-match results: ``correct[i]`` and ``predictions[i]`` for the i-th example."""

    accuracy: float
    correct: np.ndarray
    predictions: list[str]


@torch.no_grad()
def evaluate(model: nn.Module, pairs: Sequence[tuple[str, str]], source_vocab: Vocabulary,
             target_vocab: Vocabulary, *, oracle_length: bool = False, batch_size: int = 512,
             max_length: int | None = None, progress: bool = False) -> Evaluation:
    """Greedy (or oracle-length) decoding of every source; exact match against its target."""
    data = encode_pairs(pairs, source_vocab, target_vocab)
    model.eval()
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
        for i, row in zip(index.tolist(), decoded.tolist()):
            predictions[i] = " ".join(target_vocab.decode(row))
    correct = np.array([p == t for p, (_, t) in zip(predictions, pairs)])
    return Evaluation(float(correct.mean()), correct, predictions)


@torch.no_grad()
def encode(model: nn.Module, sources: Sequence[str], source_vocab: Vocabulary) -> torch.Tensor:
    """The encoder's final hidden state for each source string (rows of a (n, hidden) tensor)."""
    model.eval()
    source, lengths = pad_batch([source_vocab.encode(s.split()) for s in sources])
    return model.final_hidden(source, lengths)
