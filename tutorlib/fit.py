"""The fit gate: the one definition of "a network that has learned its task", read by every page.

A number from a trained network tests a paper's claim only when the network has learned what
it was trained on, as the paper's networks had. A network *passes* the gate when

- its accuracy on (a sample of) its own training pairs is at least :data:`TRAINING`, and
- its accuracy on in-distribution held-out pairs is at least the paper's own in-distribution
  accuracy for that architecture and benchmark minus :data:`MARGIN`, or :data:`IN_DISTRIBUTION`
  where the paper gives none.

The paper's own networks need not reach 0.9 in distribution: Hupkes et al. (2020) report 0.79
for their LSTMS2S on PCFG SET's test set, so a bar of 0.9 would fail the paper's own network.
Where a run measured no in-distribution accuracy, the gate is decided on training alone, and
:func:`reason` says so.

Examples
--------
>>> passes(0.95, 0.76, paper=0.79)      # within 5 points of the paper's 0.79
True
>>> passes(0.95, 0.76)                  # no published number: 0.9 in distribution
False
>>> passes(0.85, None)
False
>>> in_distribution_bar(0.92), in_distribution_bar(None)
(0.87, 0.9)
"""

from __future__ import annotations

import math

#: Accuracy on a network's own training pairs that the gate asks for.
TRAINING = 0.9
#: In-distribution accuracy the gate asks for where the paper gives none.
IN_DISTRIBUTION = 0.9
#: How far below the paper's own in-distribution accuracy a network may be (5 points).
MARGIN = 0.05


def _share(value, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) \
            or not 0 <= value <= 1:
        raise ValueError(f"{name} must be an accuracy from 0 to 1 (or None), got {value!r}")
    return float(value)


def in_distribution_bar(paper: float | None = None) -> float:
    """The in-distribution accuracy the gate asks for: the paper's own (a fraction) minus
    :data:`MARGIN`, or :data:`IN_DISTRIBUTION` without one."""
    paper = _share(paper, "paper")
    return IN_DISTRIBUTION if paper is None else round(paper - MARGIN, 6)


def passes(training: float | None, in_distribution: float | None = None, *,
           paper: float | None = None) -> bool:
    """Whether a network passes the fit gate.

    Parameters
    ----------
    training : float or None
        Its accuracy on its own training pairs (a fraction); None (not measured) fails.
    in_distribution : float or None
        Its accuracy on in-distribution held-out pairs; None: not measured, and the gate is
        decided on training alone.
    paper : float or None
        The paper's own in-distribution accuracy for that architecture and benchmark (a
        fraction); None where the paper gives none.

    Returns
    -------
    bool
    """
    training = _share(training, "training")
    in_distribution = _share(in_distribution, "in_distribution")
    bar = in_distribution_bar(paper)
    if training is None or training < TRAINING:
        return False
    return in_distribution is None or in_distribution >= bar


def reason(training: float | None, in_distribution: float | None = None, *,
           paper: float | None = None) -> str:
    """Why a network passes or fails the gate, in words (for tables and captions)."""
    training = _share(training, "training")
    in_distribution = _share(in_distribution, "in_distribution")
    bar = in_distribution_bar(paper)
    source = "the paper's own minus 5 points" if paper is not None else "no published number"
    if training is None:
        return "training accuracy not measured"
    if training < TRAINING:
        return f"training {training:.2f} < {TRAINING:.2f}"
    if in_distribution is None:
        return f"training {training:.2f} >= {TRAINING:.2f}; in distribution not measured"
    if in_distribution < bar:
        return f"in distribution {in_distribution:.2f} < {bar:.2f} ({source})"
    return f"training {training:.2f}, in distribution {in_distribution:.2f} >= {bar:.2f} ({source})"


#: The key of a displayed table's output metadata that holds its live networks' fit rows;
#: ``tools/execute.py`` gathers them from the executed chapters into ``_build/live-fits.json``.
LIVE_FITS_KEY = "tutorlib_live_fits"


def live_fit(network: str, training: float | None, in_distribution: float | None = None, *,
             paper: float | None = None, seconds: float | None = None) -> dict:
    """One network a chapter trains live, with its fit and the gate's decision (a row of
    :func:`show_live_fits`).

    Parameters
    ----------
    network : str
        What it is, e.g. ``"GRU + attention on SCAN simple, seed 0"``.
    training, in_distribution : float or None
        Its accuracy on its own training pairs and on in-distribution held-out pairs.
    paper : float or None
        The paper's own in-distribution accuracy (a fraction), None where it gives none.
    seconds : float or None
        Its training seconds.

    Returns
    -------
    dict
        ``network``, ``training``, ``in_distribution``, ``bar`` (the in-distribution bar),
        ``passes``, ``reason`` and ``train_seconds``.

    Examples
    --------
    >>> row = live_fit("a GRU", 0.97, 0.95, paper=0.998)
    >>> row["bar"], row["passes"]
    (0.948, True)
    """
    if not isinstance(network, str) or not network.strip():
        raise ValueError(f"network must say what the network is (a non-empty string), "
                         f"got {network!r}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not seconds >= 0):
        raise ValueError(f"seconds must be None or a non-negative number, got {seconds!r}")
    return {"network": network, "training": _share(training, "training"),
            "in_distribution": _share(in_distribution, "in_distribution"),
            "bar": in_distribution_bar(paper),
            "passes": passes(training, in_distribution, paper=paper),
            "reason": reason(training, in_distribution, paper=paper),
            "train_seconds": None if seconds is None else round(float(seconds), 1)}


def show_live_fits(rows: list[dict]) -> None:
    """Display the networks a chapter trained live as a table (training and in-distribution
    accuracy, the bar, whether each passes the gate). The rows
    travel in the output's metadata (:data:`LIVE_FITS_KEY`), from which ``make book`` writes
    ``_build/live-fits.json``."""
    import pandas as pd
    from IPython.display import display

    if not isinstance(rows, (list, tuple)) or not rows or not all(
            isinstance(r, dict) and {"network", "passes"} <= set(r) for r in rows):
        raise ValueError("show_live_fits needs a non-empty list of live_fit(...) rows")
    table = pd.DataFrame(rows).set_index("network")
    table = table.rename(columns={"training": "training accuracy",
                                  "in_distribution": "in-distribution accuracy",
                                  "bar": "in-distribution bar", "passes": "passes the gate",
                                  "train_seconds": "training (s)"})
    display(table, metadata={LIVE_FITS_KEY: rows})


__all__ = ["IN_DISTRIBUTION", "LIVE_FITS_KEY", "MARGIN", "TRAINING",
           "in_distribution_bar", "live_fit", "passes", "reason", "show_live_fits"]
