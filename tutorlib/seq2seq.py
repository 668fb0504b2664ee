"""Sequence-to-sequence models shared by the SCAN, PCFG SET and ORCHARD chapters.

- :class:`Vocabulary` and :func:`pad_batch`: tokens to padded index tensors (PAD/SOS/EOS).
- :class:`RNNSeq2Seq`: the encoder-decoder of Lake & Baroni (2018, Sec. 3): an SRN, GRU or LSTM
  encoder and decoder of 1-2 layers, dropout on the embeddings and between recurrent layers, and
  optional attention (Bahdanau et al. 2015: the previous decoder state queries the encoder
  states; the context joins the decoder's input and its output layer).
  With ``bidirectional=True`` the encoder reads the input both ways and the decoder starts from
  both final states: with attention, the LSTMS2S of Hupkes et al. (2020, Sec. 5.1).
- :class:`TransformerSeq2Seq`: a Transformer encoder-decoder (Vaswani et al. 2017) with learned
  positions (an error past ``max_positions``) or sinusoidal ones (no length limit), always
  trained with teacher forcing.
- :class:`~tutorlib.seq2seq_conv.ConvSeq2Seq` (``cell="conv"``): the convolutional
  encoder-decoder of Gehring et al. (2017, ConvS2S), in :mod:`tutorlib.seq2seq_conv`.
- Greedy decoding, and *oracle-length* decoding (EOS is suppressed until the true length, and
  forced there: Lake & Baroni's Exp. 2).
- :func:`fit_seq2seq`: batched training with Adam, gradient clipping and teacher forcing on a
  random half of the batches, counted in *presentations* (examples seen), as the paper counts
  its 100,000 training trials.
- :func:`evaluate`: exact-match accuracy and the prediction for every example;
  :func:`predict`: the predictions alone, for inputs without targets.
- :func:`encode`: the encoder's final hidden state, for nearest-neighbour analyses.

Every function that trains or runs a model takes ``device`` (``"cpu"`` by default, ``"cuda"``,
``"mps"`` or ``"auto"``; see :func:`tutorlib.train.resolve_device`). The model is moved there
and the encoded data is moved there once; on the CPU results are bit-reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.train import (
    EarlyStopping,
    TrainLog,
    fit,
    linear_decay,
    progress_bar,
    resolve_device,
)

PAD, SOS, EOS = 0, 1, 2
SPECIALS = ("<pad>", "<sos>", "<eos>")
CELLS = ("srn", "gru", "lstm", "transformer", "conv")
RECURRENT = ("srn", "gru", "lstm")
POSITIONS = ("learned", "sinusoidal")


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

    def decode(self, ids: Sequence[int]) -> list[str]:
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


# Fields added after results were committed, with their defaults: ``to_dict`` leaves them out
# while they have these values, so every earlier configuration keeps its dict (cache keys).
_LATER_FIELDS = {"bidirectional": False, "positions": "learned", "kernel_size": 3,
                 "norm_first": False}


@dataclass(frozen=True)
class Seq2SeqConfig:
    """An architecture.

    Parameters
    ----------
    cell : {"srn", "gru", "lstm", "transformer", "conv"}
        Recurrent cell of :class:`RNNSeq2Seq`, or a :class:`TransformerSeq2Seq`, or a
        convolutional :class:`~tutorlib.seq2seq_conv.ConvSeq2Seq`.
    hidden_size : int
        Width of embeddings and hidden states (1-4096).
    num_layers : int
        Layers of the encoder and of the decoder each (1-8).
    dropout : float
        Dropout probability, in [0, 1).
    attention : bool
        Recurrent models only: Bahdanau attention (the others always attend).
    num_heads : int
        Transformer only: attention heads (must divide ``hidden_size``).
    max_positions : int
        Longest sequence with ``positions="learned"`` (Transformer and ConvS2S).
    bidirectional : bool
        Recurrent models only: a bidirectional encoder, whose two directions are projected to
        ``hidden_size`` for attention and for the decoder's initial state.
    positions : {"learned", "sinusoidal"}
        Transformer and ConvS2S: a learned embedding per position (no sequence longer than
        ``max_positions``) or fixed sinusoids (Vaswani et al. 2017; any length).
    kernel_size : int
        ConvS2S only: width of the convolutions.
    norm_first : bool
        Transformer only: layer normalisation before each sublayer ("pre-LN", as later
        Transformers do) instead of after the residual sum (Vaswani et al.'s "post-LN", the
        default). Pre-LN trains faster at a CPU's small step counts.

    Examples
    --------
    >>> Seq2SeqConfig("lstm", 200, 2, 0.5).to_dict()["cell"]
    'lstm'
    >>> "positions" in Seq2SeqConfig("transformer", positions="sinusoidal").to_dict()
    True
    """

    cell: str = "lstm"
    hidden_size: int = 200
    num_layers: int = 2
    dropout: float = 0.5
    attention: bool = False
    num_heads: int = 4  # Transformer only
    max_positions: int = 128  # Transformer and ConvS2S with learned positions
    bidirectional: bool = False  # recurrent only
    positions: str = "learned"  # Transformer and ConvS2S
    kernel_size: int = 3  # ConvS2S only
    norm_first: bool = False  # Transformer only

    def __post_init__(self) -> None:
        if self.cell not in CELLS:
            raise ValueError(f"cell must be one of {', '.join(CELLS)}, got {self.cell!r}")
        _check_int("hidden_size", self.hidden_size, 1, 4096)
        _check_int("num_layers", self.num_layers, 1, 8)
        _check_int("num_heads", self.num_heads, 1, 4096)
        _check_int("max_positions", self.max_positions, 1, 1_000_000)
        _check_int("kernel_size", self.kernel_size, 1, 64)
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout!r}")
        if self.positions not in POSITIONS:
            raise ValueError(f"positions must be one of {', '.join(POSITIONS)}, "
                             f"got {self.positions!r}")
        if self.bidirectional and self.cell not in RECURRENT:
            raise ValueError(f"bidirectional is for recurrent cells ({', '.join(RECURRENT)}), "
                             f"not {self.cell!r}")
        if self.norm_first and self.cell != "transformer":
            raise ValueError(f"norm_first is for Transformers, not {self.cell!r}")
        if self.cell == "transformer" and self.hidden_size % self.num_heads:
            raise ValueError(f"hidden_size {self.hidden_size} must be divisible by num_heads "
                             f"{self.num_heads}")

    def to_dict(self) -> dict:
        """The fields as a dict, for cache keys and results; ``Seq2SeqConfig(**d)`` rebuilds it.

        Fields added later (``bidirectional``, ``positions``, ``kernel_size``) are left out
        while they have their defaults, so configurations that predate them keep their dict.
        """
        return {key: value for key, value in asdict(self).items()
                if key not in _LATER_FIELDS or value != _LATER_FIELDS[key]}


def named_config(spec: str | Seq2SeqConfig | dict, named: dict[str, Seq2SeqConfig]) -> Seq2SeqConfig:
    """An architecture given as a name in ``named``, a :class:`Seq2SeqConfig`, or its dict."""
    if isinstance(spec, Seq2SeqConfig):
        return spec
    if isinstance(spec, dict):
        return Seq2SeqConfig(**spec)
    if spec not in named:
        raise ValueError(f"unknown architecture {spec!r}; known: {', '.join(named)} "
                         f"(or pass a Seq2SeqConfig or its dict)")
    return named[spec]


def _check_int(name: str, value, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, got {value!r}")


def build_model(config: Seq2SeqConfig, source_size: int, target_size: int,
                device: str | torch.device = "cpu") -> nn.Module:
    """The model an architecture describes, for the given vocabulary sizes.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture.
    source_size, target_size : int
        Sizes of the source and target vocabularies (specials included).
    device : str or torch.device
        Where the model goes. Its weights are always initialised on the CPU (from PyTorch's
        global seed), so a seed gives the same initial model on every device.

    Returns
    -------
    torch.nn.Module
        A :class:`RNNSeq2Seq`, :class:`TransformerSeq2Seq` or
        :class:`~tutorlib.seq2seq_conv.ConvSeq2Seq`.
    """
    device = resolve_device(device)
    if config.cell == "transformer":
        model: nn.Module = TransformerSeq2Seq(config, source_size, target_size)
    elif config.cell == "conv":
        from tutorlib.seq2seq_conv import ConvSeq2Seq  # it imports this module

        model = ConvSeq2Seq(config, source_size, target_size)
    else:
        model = RNNSeq2Seq(config, source_size, target_size)
    return model.to(device)


EMBEDDING_INITS = ("pytorch", "fairseq")


def init_embeddings(model: nn.Module, how: str = "pytorch") -> nn.Module:
    """Redraw a Transformer's token embeddings as ``how`` says, in place; returns ``model``.

    ``"pytorch"`` leaves PyTorch's initialisation (standard deviation 1). ``"fairseq"`` draws
    them with standard deviation ``hidden_size ** -0.5``, as fairseq does: the Transformer
    multiplies its embeddings by ``sqrt(hidden_size)``, so with PyTorch's initialisation they
    start about ``sqrt(hidden_size)`` times larger than the sinusoidal positions added to them
    (amplitude 1) and drown them; drawn as fairseq draws them they start on the positions' scale.
    Draws from PyTorch's global generator (seed it first).
    """
    if how not in EMBEDDING_INITS:
        raise ValueError(f"embedding_init must be one of {', '.join(EMBEDDING_INITS)}, "
                         f"got {how!r}")
    if how == "fairseq":
        if not isinstance(model, TransformerSeq2Seq):
            raise ValueError(f"the 'fairseq' embedding initialisation is for Transformers (their "
                             f"embeddings are scaled by sqrt(hidden_size)), not "
                             f"{type(model).__name__}")
        with torch.no_grad():
            for embedding in (model.source_embedding, model.target_embedding):
                nn.init.normal_(embedding.weight, std=model.config.hidden_size ** -0.5)
                embedding.weight[embedding.padding_idx].zero_()
    return model


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
    position = torch.arange(length, dtype=torch.float32, device=device).unsqueeze(1)
    rates = torch.exp(torch.arange(0, size, 2, dtype=torch.float32, device=device)
                      * (-math.log(10_000.0) / size))
    table = torch.zeros(length, size, device=device)
    table[:, 0::2] = torch.sin(position * rates)
    table[:, 1::2] = torch.cos(position * rates)[:, : size // 2]
    return table


def position_vectors(config: Seq2SeqConfig, learned: nn.Embedding | None, length: int,
                     device: torch.device) -> torch.Tensor:
    """The (length, hidden) position vectors of ``config.positions`` (``learned`` its table)."""
    if config.positions == "sinusoidal":
        return sinusoidal_positions(length, config.hidden_size, device)
    if length > config.max_positions:
        raise ValueError(f"sequence of length {length} exceeds max_positions="
                         f"{config.max_positions} (learned positions; use a larger "
                         f"max_positions, or positions='sinusoidal' for any length)")
    return learned(torch.arange(length, device=device))


class RNNSeq2Seq(nn.Module):
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

    def __init__(self, config: Seq2SeqConfig, source_size: int, target_size: int):
        super().__init__()
        if config.cell not in RECURRENT:
            raise ValueError(f"RNNSeq2Seq needs a recurrent cell ({', '.join(RECURRENT)}), "
                             f"got {config.cell!r}")
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
    def greedy(self, source, lengths, max_length: int, oracle_lengths: torch.Tensor | None = None):
        """Greedy decoding: (batch, at most max_length) token ids, PAD after each EOS.

        ``oracle_lengths`` (tokens before EOS) forbids EOS before them and forces it there.
        """
        outputs, state, mask = self.encode(source, lengths)
        keys = self.attention_key(outputs) if self.config.attention else None
        tokens = torch.full((source.shape[0],), SOS, dtype=torch.long, device=source.device)
        return greedy_loop(lambda tok, st: self._step(tok, st, outputs, keys, mask), tokens, state,
                           max_length, oracle_lengths)


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


class TransformerSeq2Seq(nn.Module):
    """A Transformer encoder-decoder with learned or sinusoidal positions.

    Parameters
    ----------
    config : Seq2SeqConfig
        The architecture (``cell="transformer"``): ``num_layers`` encoder and decoder layers,
        ``num_heads`` heads, feed-forward width ``4 * hidden_size``, ``positions``.
    source_size, target_size : int
        Vocabulary sizes.
    """

    def __init__(self, config: Seq2SeqConfig, source_size: int, target_size: int):
        super().__init__()
        self.config = config
        hidden = config.hidden_size
        self.source_embedding = nn.Embedding(source_size, hidden, padding_idx=PAD)
        self.target_embedding = nn.Embedding(target_size, hidden, padding_idx=PAD)
        self.positions = (nn.Embedding(config.max_positions, hidden)
                          if config.positions == "learned" else None)
        layer = nn.TransformerEncoderLayer(hidden, config.num_heads, 4 * hidden, config.dropout,
                                           batch_first=True, norm_first=config.norm_first)
        encoder = nn.TransformerEncoder(layer, config.num_layers, norm=nn.LayerNorm(hidden),
                                        enable_nested_tensor=False)
        self.transformer = nn.Transformer(
            d_model=hidden, nhead=config.num_heads, num_encoder_layers=config.num_layers,
            num_decoder_layers=config.num_layers, dim_feedforward=4 * hidden,
            dropout=config.dropout, batch_first=True, custom_encoder=encoder,
            norm_first=config.norm_first)
        self.output = nn.Linear(hidden, target_size)

    def _embed(self, embedding: nn.Embedding, tokens: torch.Tensor) -> torch.Tensor:
        positions = position_vectors(self.config, self.positions, tokens.shape[1], tokens.device)
        return embedding(tokens) * math.sqrt(self.config.hidden_size) + positions

    def encode(self, source, lengths):
        """The encoder's outputs (batch, length, hidden) and the padding mask (True at PAD)."""
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
        causal = torch.triu(torch.ones(length, length, dtype=torch.bool,
                                       device=target_in.device), diagonal=1)
        out = self.transformer.decoder(self._embed(self.target_embedding, target_in), memory,
                                       tgt_mask=causal, tgt_is_causal=True,
                                       tgt_key_padding_mask=target_in == PAD,
                                       memory_key_padding_mask=memory_mask)
        return self.output(out)

    def forward(self, source, lengths, target_in, teacher_forcing: bool = True) -> torch.Tensor:
        """Logits (batch, target length, vocabulary); always teacher-forced (the flag is
        accepted for a common interface and ignored)."""
        memory, mask = self.encode(source, lengths)
        return self._decode(memory, mask, target_in)

    @torch.no_grad()
    def greedy(self, source, lengths, max_length: int, oracle_lengths: torch.Tensor | None = None):
        """Greedy decoding, as :meth:`RNNSeq2Seq.greedy` (the decoder re-reads its prefix)."""
        memory, mask = self.encode(source, lengths)
        prefix = torch.full((source.shape[0], 1), SOS, dtype=torch.long, device=source.device)

        def step(tokens, state):
            state = torch.cat([state, tokens.unsqueeze(1)], dim=1) if state is not None else prefix
            return self._decode(memory, mask, state)[:, -1], state

        return greedy_loop(step, prefix[:, 0], None, max_length, oracle_lengths)


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
                 target_vocab: Vocabulary) -> EncodedPairs:
    """Encode (source, target) string pairs (tokens separated by spaces), on the CPU.

    Parameters
    ----------
    pairs : sequence of (str, str)
        Source and target strings.
    source_vocab, target_vocab : Vocabulary
        Their vocabularies.

    Returns
    -------
    EncodedPairs
        Padded tensors; move them with :meth:`EncodedPairs.to` (the trainer does).
    """
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
    sos = torch.full((len(index), 1), SOS, dtype=torch.long, device=target.device)
    return source, s_len, torch.cat([sos, target[:, :-1]], 1), target


def batch_loss(model: nn.Module, data: EncodedPairs, index: torch.Tensor,
               teacher_forcing: bool | torch.Tensor = True) -> torch.Tensor:
    """Mean cross-entropy per target token (EOS included, padding excluded).

    Parameters
    ----------
    model : torch.nn.Module
        A model from :func:`build_model`, on the device of ``data``.
    data : EncodedPairs
        The encoded pairs.
    index : torch.Tensor
        The batch's example indices, on the device of ``data``.
    teacher_forcing : bool or torch.Tensor
        Feed the decoder the true previous tokens (recurrent models; the others always are):
        for the whole batch, or per example (a boolean tensor, one flag per index).
    """
    source, s_len, target_in, target = _batch(data, index)
    logits = model(source, s_len, target_in, teacher_forcing=teacher_forcing)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1),
                           ignore_index=PAD)


@dataclass
class TrainSettings:
    """Training as in Lake & Baroni (2018): Adam 1e-3, clip 5, teacher forcing half the time.

    ``final_lr_fraction`` below 1 decays the learning rate linearly, from ``learning_rate`` at
    the first step to ``learning_rate * final_lr_fraction`` at the last (the paper: constant).
    ``teacher_forcing_per`` is where the teacher-forcing coin is flipped: once per ``"batch"``
    (the default) or once per ``"example"`` inside each batch (the paper's coin; its batches
    hold one example).
    """

    presentations: int = 100_000
    batch_size: int = 32
    learning_rate: float = 1e-3
    final_lr_fraction: float = 1.0
    clip_norm: float = 5.0
    teacher_forcing: float = 0.5
    seed: int = 0
    teacher_forcing_per: str = "batch"

    def __post_init__(self) -> None:
        for name in ("presentations", "batch_size"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not 0.0 <= self.teacher_forcing <= 1.0:
            raise ValueError(f"teacher_forcing must be in [0, 1], got {self.teacher_forcing!r}")
        if self.teacher_forcing_per not in ("batch", "example"):
            raise ValueError(f"teacher_forcing_per must be 'batch' or 'example', "
                             f"got {self.teacher_forcing_per!r}")
        if not (self.learning_rate > 0 and math.isfinite(self.learning_rate)):
            raise ValueError(f"learning_rate must be a positive finite number, got "
                             f"{self.learning_rate!r}")
        if not (self.clip_norm > 0 and math.isfinite(self.clip_norm)):
            raise ValueError(f"clip_norm must be a positive finite number, got {self.clip_norm!r}")
        if not 0.0 < self.final_lr_fraction <= 1.0:
            raise ValueError(f"final_lr_fraction must be in (0, 1], "
                             f"got {self.final_lr_fraction!r}")


def epoch_batches(data: EncodedPairs, batch_size: int, seed: int,
                  pool: int = 20) -> list[torch.Tensor]:
    """One epoch of batches: a seeded shuffle, cut into pools of ``pool`` batches whose examples
    are sorted by target length (little padding), then the batches shuffled again.

    Every example appears exactly once per epoch. The shuffles run on the CPU (the same on
    every device); the index tensors are returned on the device of ``data``.
    """
    generator = torch.Generator().manual_seed(seed)
    lengths = data.target_lengths.cpu()
    order = torch.randperm(len(data), generator=generator)
    batches = []
    for chunk in torch.split(order, batch_size * pool):
        chunk = chunk[torch.argsort(lengths[chunk], stable=True)]
        batches.extend(torch.split(chunk, batch_size))
    shuffle = torch.randperm(len(batches), generator=generator).tolist()
    return [batches[i].to(data.device) for i in shuffle]


def learning_rate_at(settings: TrainSettings, step: int, num_steps: int) -> float:
    """The learning rate of ``step``: linear from ``learning_rate`` to ``learning_rate *
    final_lr_fraction`` over ``num_steps`` steps (constant when the fraction is 1)."""
    return linear_decay(settings.learning_rate, settings.final_lr_fraction, step, num_steps)


def fit_seq2seq(model: nn.Module, data: EncodedPairs, settings: TrainSettings, *,
                evaluate=None, eval_every: int = 500, stopper: EarlyStopping | None = None,
                checkpoint=None, desc: str = "training",
                device: str | torch.device = "cpu", warmup_steps: int = 0) -> TrainLog:
    """Train ``model`` on ``data`` for ``settings.presentations`` examples, in batches.

    ``warmup_steps`` > 0 raises the learning rate linearly over the first steps: step ``i``'s
    rate is multiplied by ``min(1, (i + 1) / warmup_steps)`` (0, the default: no warmup).

    Each epoch is a fresh seeded permutation of the data in length-sorted batches
    (:func:`epoch_batches`), so a run is reproducible and resumes from a checkpoint exactly.
    Whether a batch is teacher-forced is a seeded coin flip per batch (the paper flips it per
    example, its batches having one example), or per example with
    ``settings.teacher_forcing_per="example"``.

    Parameters
    ----------
    model : torch.nn.Module
        From :func:`build_model`; moved to ``device`` (in place) before the optimiser is made.
    data : EncodedPairs
        Training pairs (:func:`encode_pairs`); copied to ``device`` once.
    settings : TrainSettings
        Presentations, batch size, learning rate and its schedule, clipping, seed.
    evaluate, eval_every, stopper, checkpoint, desc
        As :func:`tutorlib.train.fit`.
    device : str or torch.device
        ``"cpu"`` (default, bit-reproducible), ``"cuda"``, ``"mps"`` or ``"auto"``.

    Returns
    -------
    TrainLog
        The loss of every step, the evaluations, and whether it stopped early.
    """
    if len(data) == 0:
        raise ValueError("no training data")
    if isinstance(warmup_steps, bool) or not isinstance(warmup_steps, int) or warmup_steps < 0:
        raise ValueError(f"warmup_steps must be a non-negative integer, got {warmup_steps!r}")
    device = resolve_device(device)
    model.to(device)
    data = data.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
    size = min(settings.batch_size, len(data))
    per_epoch = math.ceil(len(data) / size)
    num_steps = math.ceil(settings.presentations / size)
    epochs: dict[int, list[torch.Tensor]] = {}

    def loss_on_batch(step: int) -> torch.Tensor:
        rate = learning_rate_at(settings, step, num_steps)
        if warmup_steps:
            rate *= min(1.0, (step + 1) / warmup_steps)
        for group in optimizer.param_groups:  # a function of the step, so resuming is exact
            group["lr"] = rate
        epoch, b = divmod(step, per_epoch)
        if epoch not in epochs:
            epochs.clear()
            epochs[epoch] = epoch_batches(data, size, seed=settings.seed * 100_003 + epoch)
        index = epochs[epoch][b]
        coins = np.random.default_rng([settings.seed, step])
        if settings.teacher_forcing_per == "example":
            forced = torch.from_numpy(coins.random(len(index)) < settings.teacher_forcing)
            return batch_loss(model, data, index, teacher_forcing=forced.to(index.device))
        forced = coins.random() < settings.teacher_forcing
        return batch_loss(model, data, index, teacher_forcing=bool(forced))

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
    data = encode_pairs(pairs, source_vocab, target_vocab).to(device)
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
    _check_int("max_length", max_length, 1, 1_000_000)
    _check_int("batch_size", batch_size, 1, 1_000_000)
    if isinstance(sources, str):
        raise ValueError("sources must be a sequence of strings, not one string")
    if not sources:
        return []
    device = resolve_device(device)
    source, lengths = pad_batch([source_vocab.encode(str(s).split()) for s in sources])
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
    source, lengths = pad_batch([source_vocab.encode(s.split()) for s in sources])
    return model.final_hidden(source.to(device), lengths.to(device))


def __getattr__(name: str):
    # ConvSeq2Seq lives in its own module, which imports this one: re-export it lazily
    if name == "ConvSeq2Seq":
        from tutorlib.seq2seq_conv import ConvSeq2Seq

        return ConvSeq2Seq
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
