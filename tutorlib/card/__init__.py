"""The report card: one model on every benchmark of the book (issue 36, in progress).

Today it scores predictions a user brings, in each benchmark's released layout
(:mod:`.scoring`; ``python -m tutorlib card score ...``), with the same scorers the book's own
networks are scored with.
"""

from tutorlib.card.scoring import (
    BENCHMARKS,
    Score,
    read_pcfgset_predictions,
    read_predictions,
    score_orchard,
    score_pcfgset,
    score_scan,
)

__all__ = ["BENCHMARKS", "Score", "read_pcfgset_predictions", "read_predictions",
           "score_orchard", "score_pcfgset", "score_scan"]

from tutorlib.checks import guard_exports as _guard_exports  # noqa: E402

_guard_exports(globals(), __all__)
