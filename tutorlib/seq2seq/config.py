"""The one architecture description, :class:`Seq2SeqConfig`.

Its ``to_dict`` is part of every committed run key: a field added later is left out of the
dict while it has its default, so earlier keys stay valid.
"""

from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass

from tutorlib.cache import key_dict
from tutorlib.checks import check_scalar

# The registry of architectures: a cell name -> the class that builds it ("module:Class").
# Adding an architecture is one file meeting tutorlib.seq2seq.interface.Architecture and one
# line here.
ARCHITECTURES: dict[str, str] = {
    "srn": "tutorlib.seq2seq.recurrent:RNNSeq2Seq",
    "gru": "tutorlib.seq2seq.recurrent:RNNSeq2Seq",
    "lstm": "tutorlib.seq2seq.recurrent:RNNSeq2Seq",
    "transformer": "tutorlib.seq2seq.transformer:TransformerSeq2Seq",
    "conv": "tutorlib.seq2seq.convolutional:ConvSeq2Seq",
}
CELLS = tuple(ARCHITECTURES)
RECURRENT = ("srn", "gru", "lstm")
POSITIONS = ("learned", "sinusoidal", "relative")


def architecture_class(cell: str) -> type:
    """The class :data:`ARCHITECTURES` names for ``cell`` (imported on first use).

    Parameters
    ----------
    cell : str
        A key of :data:`ARCHITECTURES`.

    Returns
    -------
    type
        The architecture's class (a :class:`~tutorlib.seq2seq.interface.Architecture`).

    Examples
    --------
    >>> architecture_class("conv").__name__
    'ConvSeq2Seq'
    """
    if cell not in ARCHITECTURES:
        raise ValueError(f"cell must be one of {', '.join(CELLS)}, got {cell!r}")
    module, name = ARCHITECTURES[cell].split(":")
    return getattr(importlib.import_module(module), name)


# Fields added after results were committed, with their defaults: ``to_dict`` leaves them out
# while they have these values, so every earlier configuration keeps its dict (cache keys).
_LATER_FIELDS = {"bidirectional": False, "positions": "learned", "kernel_size": 3,
                 "norm_first": False, "source_eos": False}


@dataclass(frozen=True)
class Seq2SeqConfig:
    """An architecture.

    Parameters
    ----------
    cell : {"srn", "gru", "lstm", "transformer", "conv"}
        Recurrent cell of :class:`RNNSeq2Seq`, or a :class:`TransformerSeq2Seq`, or a
        convolutional :class:`~tutorlib.seq2seq.ConvSeq2Seq`.
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
    positions : {"learned", "sinusoidal", "relative"}
        Transformer and ConvS2S: a learned embedding per position (no sequence longer than
        ``max_positions``) or fixed sinusoids (Vaswani et al. 2017; any length). Transformer
        only: ``"relative"``, no position vectors at all but a learned bias per head on each
        self-attention score for the distance between query and key, clipped at
        :data:`~tutorlib.seq2seq.transformer.RELATIVE_DISTANCE` (Shaw et al. 2018; any length).
    kernel_size : int
        ConvS2S only: width of the convolutions.
    norm_first : bool
        Transformer only: layer normalisation before each sublayer ("pre-LN", as later
        Transformers do) instead of after the residual sum (Vaswani et al.'s "post-LN", the
        default). Pre-LN trains faster at a CPU's small step counts.
    source_eos : bool
        End every source with the ``<eos>`` token, as joeynmt and fairseq do, so the encoder
        sees where the input stops (training, evaluation and prediction alike).

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
    source_eos: bool = False

    def __post_init__(self) -> None:
        if self.cell not in CELLS:
            raise ValueError(f"cell must be one of {', '.join(CELLS)}, got {self.cell!r}")
        for name, high in (("hidden_size", 4096), ("num_layers", 8), ("num_heads", 4096),
                           ("max_positions", 1_000_000), ("kernel_size", 64)):
            # a NumPy integer becomes a plain int, so the config's dict stays JSON (run keys)
            object.__setattr__(self, name, check_scalar(getattr(self, name), name, int,
                                                         min_val=1, max_val=high))
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout!r}")
        if not isinstance(self.source_eos, bool):
            raise ValueError(f"source_eos must be True or False, got {self.source_eos!r}")
        if self.positions not in POSITIONS:
            raise ValueError(f"positions must be one of {', '.join(POSITIONS)}, "
                             f"got {self.positions!r}")
        architecture_class(self.cell).check_config(self)

    def describe(self) -> str:
        """The network in words, for a table.

        Examples
        --------
        >>> Seq2SeqConfig("lstm", 200, 2, 0.5, attention=True).describe()
        'LSTM, 2 layers of 200, attention, dropout 0.5'
        >>> Seq2SeqConfig("transformer", 128, 2, 0.1, norm_first=True).describe()
        'Transformer (pre-LN), 2 layers of 128, 4 heads, dropout 0.1'
        >>> Seq2SeqConfig("transformer", 64, 2, 0.0, positions="relative").describe()
        'Transformer, 2 layers of 64, 4 heads, relative positions, dropout 0'
        """
        architecture = architecture_class(self.cell)
        parts = [architecture.display_name(self) + (" (pre-LN)" if self.norm_first else "")
                 + (", bidirectional" if self.bidirectional else ""),
                 f"{self.num_layers} layer{'s' if self.num_layers > 1 else ''} of {self.hidden_size}",
                 *architecture.describe_parts(self)]
        return ", ".join([*parts, f"dropout {self.dropout:g}"])

    def to_dict(self) -> dict:
        """The fields as a dict, for cache keys and results; ``Seq2SeqConfig(**d)`` rebuilds it.

        Fields added later (``bidirectional``, ``positions``, ``kernel_size``) are left out
        while they have their defaults, so configurations that predate them keep their dict.
        """
        return key_dict(asdict(self), _LATER_FIELDS)


def named_config(spec: str | Seq2SeqConfig | dict, named: dict[str, Seq2SeqConfig]) -> Seq2SeqConfig:
    """An architecture given as a name in ``named``, a :class:`Seq2SeqConfig`, or its dict.

    Parameters
    ----------
    spec : str, Seq2SeqConfig or dict
        A key of ``named``, a configuration, or a configuration's :meth:`~Seq2SeqConfig.to_dict`.
    named : dict of str to Seq2SeqConfig
        The architectures known by name.

    Returns
    -------
    Seq2SeqConfig
        The configuration (``ValueError`` listing the names for an unknown one).
    """
    if isinstance(spec, Seq2SeqConfig):
        return spec
    if isinstance(spec, dict):
        return Seq2SeqConfig(**spec)
    if spec not in named:
        raise ValueError(f"unknown architecture {spec!r}; known: {', '.join(named)} "
                         f"(or pass a Seq2SeqConfig or its dict)")
    return named[spec]
