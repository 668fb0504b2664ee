"""The report card: one model on every benchmark of the book.

Tasks (:mod:`.tasks`): SCAN's standard splits and an MCD split, PCFG SET's tests, an ORCHARD
variant by depth, the DBCA dial; :func:`run_task` fits and scores a model, :func:`card_table`
gives every score with its fit and a 95% interval over seeds. Many cards at once
(:mod:`.analysis`, :mod:`.agreement`): :func:`measure_rule` (which measures can rank the
networks), :func:`concurrence` (Kendall's tau-b between their rankings, with an interval over
networks and seeds), :func:`tre_against_behaviour`, :func:`split_divergences`. The model contract
(:mod:`.contract`): a model has ``fit(train, validation, *, seed, max_seconds, device)``
returning its fit, and ``predict(sources)``; :class:`Seq2SeqModel` adapts every architecture the
book trains. Predictions made elsewhere are scored in each benchmark's released layout
(:mod:`.scoring`; ``python -m tutorlib card score ...``), with the same scorers the book's own
networks are scored with.
"""

from tutorlib.card.agreement import concurrence, measure_rule
from tutorlib.card.analysis import (
    concurrency_matrix,
    measure_label,
    plot_concurrency,
    split_divergences,
    tre_against_behaviour,
)
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
    score,
    score_orchard,
    score_pcfgset,
    score_scan,
)
from tutorlib.card.tasks import (
    DIAL_TARGETS,
    ORCHARD_DEPTHS,
    OVERGENERALISATION_RATIO,
    PCFGSET_TESTS,
    REDUCED_ALPHABET,
    SCAN_SPLITS,
    SCORERS,
    UNSCALED,
    Task,
    card_table,
    command_derivation,
    dbca_task,
    derivation,
    holdout,
    orchard_task,
    pcfgset_task,
    plot_card,
    run_task,
    scan_task,
    states_tre,
)

__all__ = ["BENCHMARKS", "DIAL_TARGETS", "FIT_KEYS", "FIT_SHARE", "ORCHARD_DEPTHS",
           "OVERGENERALISATION_RATIO", "PCFGSET_TESTS", "REDUCED_ALPHABET", "SCAN_SPLITS", "SCORERS", "Score",
           "Seq2SeqModel", "Task", "UNSCALED",
           "card_table", "check_fit", "check_model", "check_predictions", "command_derivation",
           "concurrence", "concurrency_matrix", "dbca_task", "derivation", "exact_match", "fitted", "holdout",
           "measure_label", "orchard_task", "pcfgset_task", "plot_card", "plot_concurrency", "measure_rule",
           "read_pcfgset_predictions", "read_predictions", "run_task", "scan_task",
           "score", "score_orchard", "score_pcfgset", "score_scan", "split_divergences", "states_tre",
           "train_and_score", "tre_against_behaviour"]

from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals(), __all__)
