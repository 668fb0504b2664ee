"""An architecture's model: :func:`build_model` and the embedding initialisations."""

from __future__ import annotations

import torch
from torch import nn

from tutorlib.checks import check_scalar
from tutorlib.seq2seq.config import Seq2SeqConfig, architecture_class
from tutorlib.seq2seq.interface import Architecture
from tutorlib.seq2seq.vocab import SPECIALS
from tutorlib.train import resolve_device


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
        The class :data:`~tutorlib.seq2seq.config.ARCHITECTURES` names for ``config.cell``
        (a :class:`~tutorlib.seq2seq.interface.Architecture`).
    """
    if not isinstance(config, Seq2SeqConfig):
        raise TypeError(f"build_model: config must be a Seq2SeqConfig, got "
                        f"{type(config).__name__}")
    for name, size in (("source_size", source_size), ("target_size", target_size)):
        # at least the three specials (padding, start, end) and one symbol
        check_scalar(size, name, int, min_val=len(SPECIALS) + 1)
    device = resolve_device(device)
    model = architecture_class(config.cell)(config, source_size, target_size)
    return model.to(device)


EMBEDDING_INITS = ("pytorch", "fairseq")
WEIGHT_INITS = ("pytorch", "xavier")


def init_weights(model: nn.Module, how: str = "pytorch") -> nn.Module:
    """Draw ``model``'s weights as ``how`` says, in place (seed PyTorch first); returns it.

    ``"pytorch"`` keeps PyTorch's draw of every module. ``"xavier"`` redraws every weight
    matrix (two or more dimensions) Xavier-uniform (Glorot & Bengio 2010) and sets every bias
    to zero, as joeynmt initialises by default; embeddings, position tables and layer norms
    keep their own initialisation. Xavier's bound, ``sqrt(6 / (fan_in + fan_out))``, keeps the
    variance of activations and gradients about one layer to the next; PyTorch's packed q/k/v
    projection and its output layer start smaller than that.

    Parameters
    ----------
    model : torch.nn.Module
        A model from :func:`build_model`.
    how : {"pytorch", "xavier"}
        The initialisation.

    Returns
    -------
    torch.nn.Module
        ``model`` itself.

    Examples
    --------
    >>> _ = torch.manual_seed(0)
    >>> model = init_weights(build_model(Seq2SeqConfig("gru", 8, 1, 0.0), 5, 5), "xavier")
    >>> max(float(p.detach().abs().max()) for n, p in model.named_parameters() if "bias" in n)
    0.0
    """
    if how not in WEIGHT_INITS:
        raise ValueError(f"weight_init must be one of {', '.join(WEIGHT_INITS)}, got {how!r}")
    if how == "pytorch":
        return model
    embeddings = {id(m.weight) for m in model.modules() if isinstance(m, nn.Embedding)}
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if id(parameter) in embeddings:
                continue
            if parameter.dim() >= 2:
                nn.init.xavier_uniform_(parameter)
            elif "bias" in name.rsplit(".", 1)[-1]:  # LSTM/GRU biases are bias_ih_l0, ...
                nn.init.zeros_(parameter)
    return model


def init_embeddings(model: nn.Module, how: str = "pytorch") -> nn.Module:
    """Set a Transformer's token embeddings as ``how`` says, in place; returns ``model``.

    A Transformer multiplies its token embeddings by ``sqrt(hidden_size)`` before it adds the
    positions (amplitude about 1). Drawn with PyTorch's standard deviation 1 they would start
    ``sqrt(hidden_size)`` times larger than the positions and drown them, and a small
    Transformer then learns almost nothing (a 2-layer, 128-wide one on a reduced PCFG SET: 0.09
    of its training pairs after 20 epochs, against 0.90 on the positions' scale). So
    :class:`TransformerSeq2Seq` scales PyTorch's draw of them by ``hidden_size ** -0.5`` when
    it is built (a Transformer with relative positions adds none and does not scale its
    embeddings, so keeps PyTorch's draw).

    ``"pytorch"`` (the default) keeps the model as built: PyTorch's initialisation of every
    module, with a Transformer's embeddings on the positions' scale as above. ``"fairseq"``
    draws a Transformer's embeddings afresh with standard deviation ``hidden_size ** -0.5``, as
    fairseq does, from PyTorch's global generator (seed it first): the same scale, another
    draw; the runs committed with this setting drew theirs so.

    Parameters
    ----------
    model : torch.nn.Module
        A model from :func:`build_model`.
    how : {"pytorch", "fairseq"}
        The initialisation ("fairseq" only for a :class:`TransformerSeq2Seq`).

    Returns
    -------
    torch.nn.Module
        ``model`` itself.
    """
    if how not in EMBEDDING_INITS:
        raise ValueError(f"embedding_init must be one of {', '.join(EMBEDDING_INITS)}, "
                         f"got {how!r}")
    if not isinstance(model, Architecture):
        raise ValueError(f"init_embeddings needs a model of build_model (an Architecture), got "
                         f"{type(model).__name__}")
    model.init_embeddings(how)
    return model
