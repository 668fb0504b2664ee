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
"""

from __future__ import annotations

import os
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
    return [" ".join(line.split()) for line in lines]


def _aligned(predictions: list[str], examples: int, prediction_path, test_path) -> None:
    if len(predictions) != examples:
        raise ValueError(f"{prediction_path} has {len(predictions)} predictions but {test_path} "
                         f"has {examples} examples: one prediction per line, in the test file's "
                         f"order")


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
    return Score("scan", len(pairs), {"accuracy": exact_match(predictions, pairs)},
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
                  twin_path: str | os.PathLike | None = None) -> Score:
    """Sequence and token accuracy of a PCFG SET prediction file, and with ``twin_path`` the
    consistency between its predictions and the twin file's (substitutivity, line by line).

    Parameters
    ----------
    predictions_path : str or path-like
        ``source<TAB>target<TAB>prediction`` lines.
    twin_path : str or path-like, optional
        The same layout for the twin inputs (the substitutivity test's second file).

    Returns
    -------
    Score
        ``accuracy`` and ``token_accuracy`` (and ``consistency``: the share of line pairs with
        the same non-empty prediction).
    """
    rows = read_pcfgset_predictions(predictions_path)
    # split into symbols once: each score takes lists of symbols as they are
    predictions = [prediction.split() for _, _, prediction in rows]
    targets = [target.split() for _, target, _ in rows]
    scores = {"accuracy": accuracy(predictions, targets),
              "token_accuracy": token_accuracy(predictions, targets)}
    files = {"predictions": str(predictions_path)}
    if twin_path is not None:
        twins = read_pcfgset_predictions(twin_path)
        _aligned([p for _, _, p in twins], len(rows), twin_path, predictions_path)
        scores["consistency"] = consistency(predictions, [p.split() for _, _, p in twins])
        files["twin"] = str(twin_path)
    return Score("pcfgset", len(rows), scores, files)


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
    return Score("orchard", len(pairs), orchard_accuracies(predictions, pairs),
                 {"input": str(Path(directory) / f"{part}.input"), "label": str(label_path),
                  "predictions": str(predictions_path)})


__all__ = ["BENCHMARKS", "PCFGSET_HEADER", "Score", "read_pcfgset_predictions", "read_predictions",
           "score_orchard", "score_pcfgset", "score_scan"]
