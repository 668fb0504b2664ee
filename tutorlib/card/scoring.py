"""Scoring predictions a user brings, in each benchmark's released layout.

A model trained with another toolkit (fairseq, OpenNMT, Hugging Face) is put on the card by its
predictions alone: one prediction per line, in the order of the benchmark's test file.

- SCAN: the test file of the release (``IN: <command> OUT: <actions>`` lines, e.g.
  ``tasks_test_addprim_jump.txt``) and a file of predicted action sequences. Score: exact match.
- PCFG SET: the released prediction files, one example a line, tab-separated source, target and
  prediction, under the release's header line ``source<TAB>target<TAB>prediction``. Scores:
  sequence accuracy and token accuracy; with the predictions for the substitutivity twins (or
  any line-aligned second file), the consistency between the two.
- ORCHARD: a part's ``{part}.input`` and ``{part}.label`` (``v1,v2``) and a file of predicted
  labels (``8,7`` or the model's tokens ``8 , 7``). Scores: the first tree's value, the
  second's, both, and the share of predictions that are not labels at all.

Every score is the same function the book's own networks are scored with. A prediction may be
empty (a blank line); the files must have the same number of lines, or the error names both.
Predictions held in memory are scored by :func:`score` (as Hugging Face ``evaluate``'s
``compute(predictions=, references=)``), which the file scorers call.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tutorlib.card.contract import exact_match
from tutorlib.orchard.experiments import accuracies as orchard_accuracies
from tutorlib.orchard.files import read_part
from tutorlib.pcfgset.scores import accuracy, consistency, token_accuracy
from tutorlib.scan.files import read_pairs as read_scan_pairs
from tutorlib.textfiles import read_text

BENCHMARKS = ("scan", "pcfgset", "orchard")
#: The header line of the PCFG SET release's prediction files (not an example).
PCFGSET_HEADER = ("source", "target", "prediction")


@dataclass(frozen=True)
class Score:
    """The scores of one file of predictions.

    Attributes
    ----------
    benchmark : str
        ``scan``, ``pcfgset`` or ``orchard``.
    examples : int
        How many predictions were scored.
    scores : dict of str to float
        Each score as a fraction in [0, 1] (``accuracy``; ``token_accuracy``, ``consistency``;
        ``first``, ``second``, ``both``, ``malformed``).
    files : dict of str to str
        The files read, by role.
    """

    benchmark: str
    examples: int
    scores: dict[str, float]
    files: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """A JSON-friendly dict of every field."""
        return {"benchmark": self.benchmark, "examples": self.examples,
                "scores": dict(self.scores), "files": dict(self.files)}


def read_predictions(path: str | os.PathLike) -> list[str]:
    """One prediction per line (tokens separated by spaces; a blank line is an empty prediction),
    runs of spaces read as one.

    Parameters
    ----------
    path : str or path-like
        A UTF-8 text file.

    Returns
    -------
    list of str
        The predictions in file order.
    """
    lines = read_text(path).splitlines()
    if not lines:
        raise ValueError(f"{path} holds no predictions (it is empty)")
    looks_like = next((n for n, line in enumerate(lines, start=1)
                       if line.lstrip().startswith("IN: ") or "\t" in line), None)
    if looks_like is not None:
        raise ValueError(f"{path}, line {looks_like}, looks like a test file (IN: ... OUT: ... or "
                         f"tab-separated source and target), not predictions: give one predicted "
                         f"output per line, in the test file's order")
    return [" ".join(line.split()) for line in lines]


def _aligned(predictions: list[str], examples: int, prediction_path, test_path) -> None:
    if len(predictions) != examples:
        raise ValueError(f"{prediction_path} has {len(predictions)} predictions but {test_path} "
                         f"has {examples} examples: one prediction per line, in the test file's "
                         f"order")


def score(benchmark: str, predictions: Sequence[str], references: Sequence, *,
          twins: Sequence[str] | None = None, sources: Sequence[str] | None = None) -> Score:
    """Score predictions held in memory against their references, as the file scorers do.

    Parameters
    ----------
    benchmark : {"scan", "pcfgset", "orchard"}
        Which benchmark's scores.
    predictions : sequence of str
        One predicted output per example (tokens separated by spaces; may be empty).
    references : sequence
        The expected outputs, one per prediction: strings (SCAN's action sequences, PCFG SET's
        targets, ORCHARD's ``v1,v2`` labels) or ``(source, target)`` pairs.
    twins : sequence of str, optional
        PCFG SET only: the predictions for the substitutivity twins, line by line, for
        ``consistency``.
    sources : sequence of str, optional
        PCFG SET only: the inputs; when given, every reference is checked against
        :func:`tutorlib.pcfgset.interpret` of its source (synonyms read as :data:`TWINS`), and a
        ``ValueError`` names the first that is not the input's meaning.

    Returns
    -------
    Score
        As :func:`score_scan`, :func:`score_pcfgset` and :func:`score_orchard` (no ``files``).

    Examples
    --------
    >>> score("scan", ["I_JUMP I_JUMP", "I_WALK"], ["I_JUMP I_JUMP", "I_LOOK"]).scores
    {'accuracy': 0.5}
    """
    if benchmark not in BENCHMARKS:
        raise ValueError(f"unknown benchmark {benchmark!r}: expected one of {', '.join(BENCHMARKS)}")
    predictions = _strings(predictions, "predictions")
    targets = _strings([r[1] if isinstance(r, (tuple, list)) and len(r) == 2 else r
                        for r in _sequence(references, "references")], "references")
    if len(predictions) != len(targets) or not targets:
        raise ValueError(f"score needs one prediction per reference and at least one, got "
                         f"{len(predictions)} predictions and {len(targets)} references")
    if benchmark != "pcfgset" and (twins is not None or sources is not None):
        raise ValueError("twins and sources are PCFG SET's (substitutivity, the target check)")
    if benchmark == "scan":
        return Score("scan", len(targets), {"accuracy": exact_match(predictions,
                                                                     [("", t) for t in targets])})
    if benchmark == "orchard":
        return Score("orchard", len(targets), orchard_accuracies(predictions,
                                                                 [("", t) for t in targets]))
    if sources is not None:
        _check_targets(_strings(sources, "sources"), targets)
    split_predictions = [p.split() for p in predictions]
    split_targets = [t.split() for t in targets]
    scores = {"accuracy": accuracy(split_predictions, split_targets),
              "token_accuracy": token_accuracy(split_predictions, split_targets)}
    if twins is not None:
        twins = _strings(twins, "twins")
        if len(twins) != len(predictions):
            raise ValueError(f"{len(twins)} twin predictions for {len(predictions)} predictions: "
                             "one twin a line")
        scores["consistency"] = consistency(split_predictions, [t.split() for t in twins])
    return Score("pcfgset", len(targets), scores)


def _sequence(values, name: str) -> list:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise ValueError(f"{name} must be a list with one entry per example, got "
                         f"{type(values).__name__}")
    return list(values)


def _strings(values, name: str) -> list[str]:
    values = _sequence(values, name)
    wrong = next((v for v in values if not isinstance(v, str)), None)
    if wrong is not None:
        raise ValueError(f"{name} must be strings (tokens separated by spaces), got a "
                         f"{type(wrong).__name__}: {wrong!r}")
    return [" ".join(v.split()) for v in values]


def _check_targets(sources: list[str], targets: list[str]) -> None:
    from tutorlib.pcfgset import TWINS, interpret

    if len(sources) != len(targets):
        raise ValueError(f"{len(sources)} sources for {len(targets)} references")
    for number, (source, target) in enumerate(zip(sources, targets), start=1):
        meaning = " ".join(interpret(source, synonyms=TWINS))
        if meaning != target:
            raise ValueError(f"example {number}: the target {target!r} is not the meaning of "
                             f"{source!r}, which is {meaning!r}")


def score_scan(test_path: str | os.PathLike, predictions_path: str | os.PathLike) -> Score:
    """Exact-match accuracy of predicted action sequences on a SCAN test file.

    Parameters
    ----------
    test_path : str or path-like
        A test file of the release's layout (``IN: ... OUT: ...`` lines).
    predictions_path : str or path-like
        The predicted action sequence for each line of ``test_path``, one per line.

    Returns
    -------
    Score
        ``accuracy``: the share of predictions equal to the target, token for token.

    Examples
    --------
    A prediction is right only when every action is (see ``tests/test_card_scoring.py``).
    """
    pairs = read_scan_pairs(test_path)
    predictions = read_predictions(predictions_path)
    _aligned(predictions, len(pairs), predictions_path, test_path)
    scored = score("scan", predictions, pairs)
    return Score("scan", scored.examples, scored.scores,
                 {"test": str(test_path), "predictions": str(predictions_path)})


def read_pcfgset_predictions(path: str | os.PathLike) -> list[tuple[str, str, str]]:
    """A PCFG SET prediction file: ``source<TAB>target<TAB>prediction`` lines.

    The release's files open with a header line, ``source<TAB>target<TAB>prediction``; it is
    not an example, and it is skipped when it is the first line.

    Parameters
    ----------
    path : str or path-like
        The file; blank lines at its end are ignored, a prediction may be empty.

    Returns
    -------
    list of (str, str, str)
        (source, target, prediction) in file order, runs of spaces read as one.
    """
    lines = read_text(path).splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    first = 1
    if lines and lines[0].split("\t") == list(PCFGSET_HEADER):
        lines, first = lines[1:], 2
    if not lines:
        raise ValueError(f"{path} holds no predictions (it is empty"
                         f"{' but for its header' if first == 2 else ''})")
    rows = []
    for number, line in enumerate(lines, start=first):
        columns = line.split("\t")
        if len(columns) != 3 or not columns[0].strip() or not columns[1].strip():
            raise ValueError(f"{path}, line {number}: expected source, target and prediction "
                             f"separated by tabs, got {len(columns)} column(s): {line[:80]!r}")
        rows.append(tuple(" ".join(column.split()) for column in columns))
    return rows


def score_pcfgset(predictions_path: str | os.PathLike,
                  twin_path: str | os.PathLike | None = None, *, check_targets: bool = False) -> Score:
    """Sequence and token accuracy of a PCFG SET prediction file, and with ``twin_path`` the
    consistency between its predictions and the twin file's (substitutivity, line by line).

    Parameters
    ----------
    predictions_path : str or path-like
        ``source<TAB>target<TAB>prediction`` lines.
    twin_path : str or path-like, optional
        The same layout for the twin inputs (the substitutivity test's second file).
    check_targets : bool
        Check every target against :func:`tutorlib.pcfgset.interpret` of its source (and the
        twin file's too); a ``ValueError`` names the first that is wrong.

    Returns
    -------
    Score
        ``accuracy`` and ``token_accuracy`` (and ``consistency``: the share of line pairs with
        the same non-empty prediction).
    """
    rows = read_pcfgset_predictions(predictions_path)
    files = {"predictions": str(predictions_path)}
    twins = None
    if twin_path is not None:
        twin_rows = read_pcfgset_predictions(twin_path)
        _aligned([p for _, _, p in twin_rows], len(rows), twin_path, predictions_path)
        twins = [p for _, _, p in twin_rows]
        files["twin"] = str(twin_path)
        if check_targets:
            try:
                _check_targets([s for s, _, _ in twin_rows], [t for _, t, _ in twin_rows])
            except ValueError as error:
                raise ValueError(f"{twin_path}: {error}") from None
    try:
        scored = score("pcfgset", [p for _, _, p in rows], [t for _, t, _ in rows], twins=twins,
                       sources=[s for s, _, _ in rows] if check_targets else None)
    except ValueError as error:
        raise ValueError(f"{predictions_path}: {error}") from None
    return Score("pcfgset", scored.examples, scored.scores, files)


def score_orchard(directory: str | os.PathLike, part: str,
                  predictions_path: str | os.PathLike) -> Score:
    """Accuracy of predicted labels on an ORCHARD part (``{part}.input`` / ``{part}.label``).

    Parameters
    ----------
    directory : str or path-like
        The variant's directory of the release's layout.
    part : str
        The part, e.g. ``test12``.
    predictions_path : str or path-like
        A predicted label for each line (``8,7`` or ``8 , 7``).

    Returns
    -------
    Score
        ``first``, ``second`` and ``both``: the share of examples whose first tree's value, second
        tree's value, or both are right; ``malformed``: the share of predictions that are not
        labels.
    """
    pairs = read_part(directory, part)
    predictions = read_predictions(predictions_path)
    label_path = Path(directory) / f"{part}.label"
    _aligned(predictions, len(pairs), predictions_path, label_path)
    return Score("orchard", len(pairs), score("orchard", predictions, pairs).scores,
                 {"input": str(Path(directory) / f"{part}.input"), "label": str(label_path),
                  "predictions": str(predictions_path)})


__all__ = ["BENCHMARKS", "PCFGSET_HEADER", "Score", "read_pcfgset_predictions", "read_predictions",
           "score", "score_orchard", "score_pcfgset", "score_scan"]
