"""Sequence-to-sequence models shared by the SCAN, PCFG SET, ORCHARD and DBCA chapters.

One module per concern, each readable in one sitting:

- :mod:`~tutorlib.seq2seq.vocab`: :class:`Vocabulary`, :func:`pad_batch` and
  :func:`encode_pairs` (tokens to padded index tensors, PAD/SOS/EOS); :class:`PairDataset` and
  :func:`collate_pairs` for a PyTorch ``DataLoader`` in another training loop;
- :mod:`~tutorlib.seq2seq.config`: :class:`Seq2SeqConfig`, the one architecture description
  (its dict is part of every committed run key);
- :mod:`~tutorlib.seq2seq.interface`: :class:`Architecture`, the interface every architecture
  meets; adding one is a file and a line in :data:`ARCHITECTURES`;
- the architectures, one file each: :class:`RNNSeq2Seq` (:mod:`~tutorlib.seq2seq.recurrent`;
  SRN, GRU or LSTM, Lake & Baroni 2018, and the bidirectional LSTMS2S of Hupkes et al. 2020),
  :class:`TransformerSeq2Seq` (:mod:`~tutorlib.seq2seq.transformer`) and :class:`ConvSeq2Seq`
  (:mod:`~tutorlib.seq2seq.convolutional`, Gehring et al. 2017), sharing the position vectors
  and greedy decoding of :mod:`~tutorlib.seq2seq.layers`; :func:`build_model` makes one from
  its config (:mod:`~tutorlib.seq2seq.models`);
- the one trainer, in three files: :class:`Recipe` (:mod:`~tutorlib.seq2seq.recipe`: a fixed
  number of presentations, or until the network has learned its data), the batches of an epoch
  and their teacher-forcing coins (:func:`epoch_batches`, :func:`teacher_forcing_coins`,
  :mod:`~tutorlib.seq2seq.batches`), and :func:`fit` with its
  :class:`TrainLog` (:mod:`~tutorlib.seq2seq.training`: the training step and the loop, with
  checkpoints a run resumes from);
- :mod:`~tutorlib.seq2seq.evaluation`: :func:`evaluate` (exact match; greedy or oracle-length
  decoding), :func:`predict` (the predictions alone, for inputs without targets),
  :func:`exact_match` (the score of predictions already made) and :func:`encode` (the
  encoder's final state);
- :mod:`~tutorlib.seq2seq.runs`: :func:`train_once`, the one recipe every experiment calls to
  train one configuration with one seed and evaluate it on named test sets.

Every function that trains or runs a model takes ``device`` (``"cpu"`` by default, ``"cuda"``,
``"mps"`` or ``"auto"``; see :func:`tutorlib.train.resolve_device`); on the CPU results are
bit-reproducible.
"""

from tutorlib.seq2seq.batches import epoch_batches, padded_share, teacher_forcing_coins
from tutorlib.seq2seq.config import (
    ARCHITECTURES,
    CELLS,
    POSITIONS,
    RECURRENT,
    Seq2SeqConfig,
    architecture_class,
    named_config,
)
from tutorlib.seq2seq.convolutional import ConvSeq2Seq
from tutorlib.seq2seq.evaluation import Evaluation, encode, evaluate, exact_match, predict
from tutorlib.seq2seq.interface import Architecture, Seq2SeqBase
from tutorlib.seq2seq.layers import greedy_loop, position_vectors, sinusoidal_positions
from tutorlib.seq2seq.models import (
    EMBEDDING_INITS,
    WEIGHT_INITS,
    build_model,
    init_embeddings,
    init_weights,
)
from tutorlib.seq2seq.presets import PRESETS, preset
from tutorlib.seq2seq.recipe import LOSS_PER, PRECISIONS, SCHEDULES, TEACHER_FORCING_PER, Recipe
from tutorlib.seq2seq.recurrent import RNNSeq2Seq
from tutorlib.seq2seq.runs import TrainedRun, checkpoint_path, pinned_threads, train_once
from tutorlib.seq2seq.training import FIT_SHARE, STOP_REASONS, TrainLog, fit
from tutorlib.seq2seq.transformer import TransformerSeq2Seq
from tutorlib.seq2seq.vocab import (
    EOS,
    PAD,
    SOS,
    SPECIALS,
    EncodedPairs,
    PairDataset,
    Vocabulary,
    collate_pairs,
    encode_pairs,
    pad_batch,
    token_id,
)

__all__ = [
    "ARCHITECTURES", "CELLS", "EMBEDDING_INITS", "EOS", "FIT_SHARE", "LOSS_PER", "PAD",
    "POSITIONS", "WEIGHT_INITS",
    "PRECISIONS", "PRESETS", "RECURRENT", "SCHEDULES", "SOS", "SPECIALS", "STOP_REASONS",
    "TEACHER_FORCING_PER", "Architecture", "ConvSeq2Seq", "EncodedPairs", "Evaluation", "PairDataset",
    "RNNSeq2Seq", "Recipe", "Seq2SeqBase", "Seq2SeqConfig", "TrainLog",
    "TrainedRun", "TransformerSeq2Seq", "Vocabulary", "architecture_class", "build_model",
    "checkpoint_path", "collate_pairs", "encode", "encode_pairs", "epoch_batches", "evaluate",
    "exact_match", "fit", "greedy_loop", "init_embeddings", "init_weights", "named_config",
    "pad_batch", "padded_share", "pinned_threads", "position_vectors", "predict", "preset",
    "sinusoidal_positions", "teacher_forcing_coins",
    "token_id", "train_once",
]

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
