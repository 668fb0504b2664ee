"""What the TRE chapters state about their committed runs: the training-length comparison of
"Compositionality over training" (Andreas 2019, Sec. 4), and for "Compositionality and
generalisation" (Sec. 7) the pair of languages like the paper's Fig. 6 and how consistently a
language writes an attribute (numbers only: the chapters write the sentences).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from tutorlib.tre.dynamics import PAPER as DYNAMICS_PAPER

# The other measures the chapter compares with TRE (posdis is shown, not compared here).
OTHER_MEASURES = ["topsim", "posdis", "bosdis", "context independence"]


def mine_pair(runs: pd.DataFrame, tolerance: float = 0.01):
    """Two languages whose training rewards are within ``tolerance`` and whose TRE differs
    most (the paper's Fig. 6 shows such a pair).

    Parameters
    ----------
    runs : pandas.DataFrame
        A row per language, with ``train reward`` and ``TRE``.
    tolerance : float
        Largest difference in training reward.

    Returns
    -------
    (pandas.Series, pandas.Series) or None
        (higher-TRE row, lower-TRE row), or ``None`` when no two rows qualify.
    """
    best = None
    for i in range(len(runs)):
        for j in range(len(runs)):
            a, b = runs.iloc[i], runs.iloc[j]
            if abs(a["train reward"] - b["train reward"]) <= tolerance and a["TRE"] > b["TRE"]:
                if best is None or a["TRE"] - b["TRE"] > best[0]["TRE"] - best[1]["TRE"]:
                    best = (a, b)
    return best


def symbol_consistency(derivations, messages, value: str) -> tuple[int, int, float]:
    """How consistently a language writes one attribute ``value`` (``"circle"``, ``"red"``):
    over the messages of the referents that have it (in either object), the (position, symbol)
    pair they share most often and the share of those messages that carry it.

    Examples
    --------
    >>> derivations = [(("red", "circle"), ("blue", "star")), (("blue", "circle"), ("red", "star")),
    ...                (("red", "star"), ("blue", "star"))]
    >>> symbol_consistency(derivations, [[1, 2, 3, 4], [5, 2, 6, 7], [1, 8, 3, 4]], "circle")
    (1, 2, 1.0)
    """
    rows = [list(m) for d, m in zip(derivations, messages) if value in (*d[0], *d[1])]
    if not rows:
        raise ValueError(f"no referent has the attribute value {value!r}")
    counts = Counter((position, int(symbol)) for row in rows for position, symbol in enumerate(row))
    (position, symbol), count = max(counts.items(), key=lambda item: (item[1], -item[0][0]))
    return position, symbol, count / len(rows)


# ---------------------------------------------------------------------------------------------
# Chapter "Compositionality over training" (Andreas 2019, Sec. 4)

# Batches per epoch of the long runs, whose settings predate ``batches_per_epoch``.
LONG_RUN_BATCHES = 71
# The two committed settings of the concept learner, as the table names them.
MATCHED = "full profile: 20 epochs of 100 batches"
LONG = "long runs: 60 passes of 71 batches"


def training_length_row(data: dict, label: str) -> dict:
    """One committed setting of the concept learner summarised: its seeds and optimiser steps,
    validation accuracy, TRE's correlations with information, and where information peaks.

    Parameters
    ----------
    data : dict
        The ``data`` of a committed ``tre_dynamics`` results file (``runs``, ``settings``,
        ``pooled correlations``, ``mean final val_accuracy``).
    label : str
        The row's name.

    Returns
    -------
    dict
        A row of :func:`training_length_table`.
    """
    runs = data["runs"]
    pooled = data["pooled correlations"]
    batches = data["settings"].get("batches_per_epoch") or LONG_RUN_BATCHES
    return {"setting": label, "seeds": len(runs),
            "optimiser steps": data["settings"]["epochs"] * batches,
            "best validation accuracy (%)": 100 * np.mean([r["best val_accuracy"] for r in runs]),
            "final validation accuracy (%)": 100 * data["mean final val_accuracy"],
            "r(TRE, per-unit info), all": pooled["info_unit"]["all"],
            "r, compression phase": pooled["info_unit"]["compression"],
            "r(TRE, joint 30-bin info), all": pooled["info_joint"]["all"],
            "per-unit info peaks at step (mean)":
                np.mean([r["correlations"]["info_unit"]["peak_epoch"] for r in runs]) * batches,
            "runs whose per-unit info peaks before the end": sum(
                r["correlations"]["info_unit"]["peak_epoch"] < data["settings"]["epochs"] - 1e-9
                for r in runs),
            "snapshots after the peak (mean)": np.mean([
                len(r["snapshots"]["epoch"]) - 1 - int(np.argmax(r["snapshots"]["info_unit"]))
                for r in runs])}


def training_length_table(matched: dict | None, long: dict | None) -> pd.DataFrame:
    """The full profile's setting (the paper's length of training), the earlier long runs and
    the paper, a row each.

    Parameters
    ----------
    matched : dict or None
        The committed full profile's results (:func:`tutorlib.tre.dynamics.committed_results`).
    long : dict or None
        The committed long runs' results (``committed_results(long=True)``).

    Returns
    -------
    pandas.DataFrame
        A row per setting (:func:`training_length_row`), ``nan`` where a setting has no value.
    """
    rows = []
    if matched is not None and matched["data"]["runs"]:
        rows.append(training_length_row(matched["data"], MATCHED))
    if long is not None:
        rows.append(training_length_row(long["data"], LONG))
    rows.append({"setting": "published", "optimiser steps": 2_000,
                 "final validation accuracy (%)": 100 * DYNAMICS_PAPER["validation accuracy"],
                 "r(TRE, per-unit info), all": np.nan,
                 "r(TRE, joint 30-bin info), all":
                     DYNAMICS_PAPER["r(TRE, I(theta; X)), all runs"],
                 "r, compression phase": DYNAMICS_PAPER["r(TRE, I(theta; X)), compression phase"]})
    return pd.DataFrame(rows).set_index("setting")


def formatted_training_length(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`training_length_table` for the page: a column per setting, counts whole, the
    rest to two decimals, "–" where a setting has no value.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`training_length_table`.

    Returns
    -------
    pandas.DataFrame
        The formatted, transposed table.
    """
    counts = ["seeds", "optimiser steps", "per-unit info peaks at step (mean)",
              "runs whose per-unit info peaks before the end"]
    return table.T.apply(lambda row: row.map(
        lambda v: "–" if pd.isna(v) else f"{v:,.0f}" if row.name in counts else f"{v:.2f}"),
        axis=1)


def plot_training(run: pd.DataFrame, ideal: float, title: str):
    """Accuracy and TRE over training for one run (one setting): training and validation
    accuracy beside the ideal observer, the paper's accuracy and the fit gate's bars, and TRE.

    Parameters
    ----------
    run : pandas.DataFrame
        Snapshots of the run (``epoch``, ``train_accuracy``, ``val_accuracy``, ``tre``,
        ``tre_single``, ``tre_conjunction``).
    ideal : float
        The ideal observer's accuracy (0-1).
    title : str
        The figure's title: which setting (profile) and seed it shows.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    from tutorlib import fit

    fig, axes = plt.subplots(1, 2, figsize=(8.5, 4.6), layout="constrained")
    axes[0].plot(run["epoch"], 100 * run["train_accuracy"], "o-", color="#E69F00", ms=3,
                 label="training sample")
    axes[0].plot(run["epoch"], 100 * run["val_accuracy"], "o-", color="#0072B2", ms=3,
                 label="validation")
    axes[0].axhline(100 * ideal, color="grey", linestyle=":", label="ideal observer")
    axes[0].axhline(100 * DYNAMICS_PAPER["validation accuracy"], color="#D55E00", linestyle="--",
                    label="published")
    axes[0].axhline(100 * fit.TRAINING, color="#E69F00", linestyle="-.", lw=1,
                    label="gate: training")
    axes[0].axhline(100 * fit.in_distribution_bar(DYNAMICS_PAPER["validation accuracy"]),
                    color="#0072B2", linestyle="-.", lw=1, label="gate: validation")
    axes[0].set(xlabel="epoch", ylabel="accuracy (%)", title="(a) Accuracy")
    axes[0].legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    for column, label, colour in [("tre", "all 218 concepts", "#0072B2"),
                                  ("tre_single", "single values", "#009E73"),
                                  ("tre_conjunction", "conjunctions", "#CC79A7")]:
        axes[1].plot(run["epoch"], run[column], "o-", color=colour, ms=3, lw=1, label=label)
    axes[1].set(xlabel="epoch", ylabel="TRE (additive, cosine)",
                title="(b) TRE of the probe concepts")
    axes[1].legend(loc="lower right")
    fig.suptitle(title)
    return fig
