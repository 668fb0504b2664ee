"""Named starting points: a network and a recipe that a newcomer can train at once.

- ``"tiny"``: a GRU of 32 units with attention, three epochs in batches of 32; trains in seconds
  on a few hundred pairs (to try the code, not to fit a benchmark).
- ``"laptop"``: the book's tutorial SCAN network, a GRU of 64 units with attention, in batches
  of 64 at a constant 3e-3, trained until it gets 97% of 500 of its own training pairs right,
  within 4 minutes of wall time (evaluations included): on one laptop core it fits SCAN's
  simple split in a minute or two (``benchmarks/presets.py`` measures it).

>>> config, recipe = preset("tiny")
>>> config.cell, config.hidden_size, recipe.max_epochs
('gru', 32, 3)
"""

from __future__ import annotations

from tutorlib.seq2seq.config import Seq2SeqConfig
from tutorlib.seq2seq.training import Recipe

PRESETS: dict[str, tuple[Seq2SeqConfig, Recipe]] = {
    "tiny": (Seq2SeqConfig(cell="gru", hidden_size=32, num_layers=1, dropout=0.0, attention=True),
             Recipe(batch_size=32, learning_rate=3e-3, max_epochs=3, patience=100_000,
                    fit_size=200, bucket_pool=8)),
    "laptop": (Seq2SeqConfig(cell="gru", hidden_size=64, num_layers=1, dropout=0.0, attention=True),
               Recipe(batch_size=64, learning_rate=3e-3, max_epochs=60, patience=100_000,
                      fit_size=500, bucket_pool=8, stop_at=(0.97, 0.0), max_seconds=240.0,
                      budget="wall")),
}


def preset(name: str) -> tuple[Seq2SeqConfig, Recipe]:
    """The network and recipe called ``name`` (one of :data:`PRESETS`).

    Parameters
    ----------
    name : {"tiny", "laptop"}
        Which starting point.

    Returns
    -------
    (Seq2SeqConfig, Recipe)
        Give them to :func:`tutorlib.seq2seq.train_once` (with validation pairs: both recipes
        train to convergence, the laptop one to the fit gate); both are frozen dataclasses, so
        ``dataclasses.replace(recipe, max_seconds=60)`` changes one field.
    """
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; the presets are {', '.join(PRESETS)}")
    return PRESETS[name]
