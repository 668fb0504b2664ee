"""The report card: one model on every benchmark of the book (issue 36, in progress).

The model contract (:mod:`.contract`): a model has ``fit(train, validation, *, seed,
max_seconds, device)`` returning its fit, and ``predict(sources)``; :class:`Seq2SeqModel`
adapts every architecture the book trains. Predictions made elsewhere are scored in each
benchmark's released layout (:mod:`.scoring`; ``python -m tutorlib card score ...``), with the
same scorers the book's own networks are scored with.
"""

from tutorlib.card.contract import (
    FIT_KEYS,
    FIT_SHARE,
    Seq2SeqModel,
    check_fit,
    check_model,
    check_predictions,
    exact_match,
    fitted,
    train_and_score,
)
from tutorlib.card.scoring import (
    BENCHMARKS,
    Score,
    read_pcfgset_predictions,
    read_predictions,
    score_orchard,
    score_pcfgset,
    score_scan,
)

__all__ = ["BENCHMARKS", "FIT_KEYS", "FIT_SHARE", "Score", "Seq2SeqModel", "check_fit",
           "check_model", "check_predictions", "exact_match", "fitted", "read_pcfgset_predictions",
           "read_predictions", "score_orchard", "score_pcfgset", "score_scan", "train_and_score"]

from tutorlib.checks import guard_exports as _guard_exports  # noqa: E402

_guard_exports(globals(), __all__)
