"""The paper's own networks (:mod:`tutorlib.pcfgset.released`) read as chapter 12 shows
them: Table 1 recomputed from the released predictions beside the published numbers, and
the released networks' figures by length, by property and over training.

Re-exported by :mod:`tutorlib.pcfgset.report`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from tutorlib.colours import PALETTE
from tutorlib.pcfgset import released
from tutorlib.pcfgset.experiments import ARCHITECTURE_NAMES, PAPER
from tutorlib.pcfgset.length_report import COLOURS
from tutorlib.stats import mean_interval


@lru_cache(maxsize=1)
def _released_scores() -> pd.DataFrame:
    records = []
    for row, (label, _) in released.ROWS.items():
        for architecture in released.ARCHITECTURES:
            name = released.NAMES[architecture]
            values = released.run_scores(row, architecture)
            published = PAPER.get(row, {}).get(name)
            record = {"row": row, "test": label, "network": name, "published": published}
            if values is None:
                record.update({f"run {r}": None for r in released.RUNS})
                record.update({"mean": None, "low": None, "high": None, "paper's ±": None,
                               "difference": None})
            else:
                percents = [100 * v for v in values]
                mean, low, high = mean_interval(percents)
                record.update({f"run {r}": v for r, v in zip(released.RUNS, percents)})
                # a t interval knows no bounds: show it within what a share can be
                record.update({"mean": mean, "low": max(0.0, low), "high": min(100.0, high),
                               # the paper's ± matches the population standard deviation
                               "paper's ±": float(np.std(percents)),
                               "difference": None if published is None else mean - published})
            records.append(record)
    return pd.DataFrame(records)


def released_scores() -> pd.DataFrame:
    """Table 1 of Hupkes et al. (2020) recomputed from the released networks
    (:mod:`~tutorlib.pcfgset.released`): a row per test
    and architecture with each run's score, the mean with its 95% t interval (``low``,
    ``high``), the population standard deviation (the paper's ±, see the note), the published
    value and ``difference`` (ours minus published, in points). Scores are percentages; the
    rows without a published value are the accuracies on the substitutivity sets, which the
    paper's table does not give; localism has a value for LSTMS2S only (the release has no
    localism predictions of the other two).

    Notes
    -----
    The paper's ± are the population standard deviations over the three runs: LSTMS2S's
    overgeneralisation runs (66.7, 63.6, 74.2) give 4.5 (the paper's 0.04) as a population
    standard deviation and 5.5 as a sample one.
    """
    return _released_scores().copy()


def released_discrepancies(tolerance: float = 0.5) -> pd.DataFrame:
    """The rows of :func:`released_scores` whose mean differs from the published value by more than
    ``tolerance`` points, each with the reason found: for a consistency, the mean when two empty
    predictions count as consistent (the paper's convention) and how many such pairs there are.

    Returns
    -------
    pandas.DataFrame
        ``test``, ``network``, ``published``, ``mean`` (ours), ``difference``, and for the
        substitutivity rows ``empty pairs`` (per run, mean) and ``mean, empty consistent``.
    """
    if not (isinstance(tolerance, (int, float)) and tolerance >= 0):
        raise ValueError(f"tolerance must be a number of points >= 0, got {tolerance!r}")
    table = released_scores()
    table = table[table["difference"].abs() > tolerance]
    records = []
    for row in table.to_dict("records"):
        record = {k: row[k] for k in ("row", "test", "network", "published", "mean", "difference")}
        if row["row"].startswith("substitutivity_") and not row["row"].endswith("accuracy"):
            condition = row["row"].removeprefix("substitutivity_")
            architecture = {v: k for k, v in released.NAMES.items()}[row["network"]]
            loose = [100 * released.substitutivity(architecture, condition, r, empty_consistent=True)
                     for r in released.RUNS]
            empty = [sum(not a.split() and not b.split() for a, b in zip(
                released.frame(f"substitutivity_{condition}")[f"{architecture}_{r}"],
                released.frame(f"substitutivity_{condition}_twin")[f"{architecture}_{r}"]))
                for r in released.RUNS]
            record.update({"empty pairs": float(np.mean(empty)),
                           "mean, empty consistent": float(np.mean(loose))})
        records.append(record)
    return pd.DataFrame(records, columns=["row", "test", "network", "published", "mean", "difference",
                                          "empty pairs", "mean, empty consistent"])


def released_table1() -> pd.DataFrame:
    """Table 1 as the chapter shows it: a row per test, for each architecture the paper's
    number and the released networks' mean scored by us (%); "not in the release" where the
    release lacks the predictions (localism of ConvS2S and the Transformer)."""
    table = released_scores()
    table = table[table["published"].notna()]
    wide = {}
    for row in table.to_dict("records"):
        cells = wide.setdefault(row["test"], {})
        cells[(row["network"], "published")] = row["published"]
        cells[(row["network"], "released, scored by us")] = row["mean"]
    frame = pd.DataFrame.from_dict(wide, orient="index")
    frame.columns = pd.MultiIndex.from_tuples(frame.columns)
    frame = frame.round(1).astype(object)
    return frame.where(frame.notna(), "not in the release")


def plot_released_productivity(by: str = "input length"):
    """The paper's Fig. 3 from its released networks: task accuracy (red) and productivity
    (blue) by input length, a panel per architecture, at the lengths both test sets have."""
    import matplotlib.pyplot as plt

    control = released.productivity_control(by)
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.4), sharey=True)
    for ax, name in zip(axes, ARCHITECTURE_NAMES):
        ax.plot(control.index, control[(name, "task")], color=PALETTE[3], marker=".",
                label="task (base test set)")
        ax.plot(control.index, control[(name, "productivity")], color=PALETTE[0], marker=".",
                linestyle="--", label="productivity test set")
        ax.set_title(name)
        ax.set_xlabel(f"{by} (tokens)")
        ax.set_ylim(-3, 103)
    axes[0].set_ylabel("sequence accuracy (%)")
    axes[0].legend(fontsize=8)
    fig.suptitle("The paper's networks: accuracy at equal input length (released outputs)")
    fig.tight_layout()
    return fig


def plot_released_overgeneralisation():
    """The paper's Fig. 5 and its other three exception ratios from the released logs: for each
    ratio (a column) and architecture (a row), the share of the exceptions answered by the rule
    (overgeneralisation, solid) and by the exception (memorisation, dashed) over the epochs,
    thin lines per run, thick the mean over the three runs."""
    import matplotlib.pyplot as plt

    profiles = released.overgeneralisation_profiles()
    ratios = sorted(profiles["ratio"].unique())
    fig, axes = plt.subplots(3, len(ratios), figsize=(11, 7), sharex=True, sharey=True)
    for row, name in enumerate(ARCHITECTURE_NAMES):
        for column, ratio in enumerate(ratios):
            ax = axes[row, column]
            data = profiles[(profiles["network"] == name) & (profiles["ratio"] == ratio)]
            for quantity, style in (("overgeneralisation", "-"), ("memorisation", "--")):
                for _, run in data.groupby("run"):
                    ax.plot(run["epoch"], run[quantity], color=COLOURS[name], linestyle=style,
                            linewidth=0.6, alpha=0.45)
                mean = data.groupby("epoch")[quantity].mean()
                ax.plot(mean.index, mean.to_numpy(), color=COLOURS[name], linestyle=style,
                        linewidth=2, label="rule (overgeneralisation)" if quantity ==
                        "overgeneralisation" else "exception (memorisation)")
            if row == 0:
                ax.set_title(f"{ratio:g}% exceptions")
            if column == 0:
                ax.set_ylabel(f"{name}\n% of exceptions")
            if row == 2:
                ax.set_xlabel("epoch")
            ax.set_ylim(-3, 103)
    axes[0, 0].legend(fontsize=7, loc="center right")
    fig.suptitle("The paper's networks during training: rule or exception (released logs)")
    fig.tight_layout()
    return fig



def plot_released_by_property():
    """Accuracy of the paper's networks by number of functions, depth and output length, on the
    base test set (solid) and the productivity test set (dashed), mean of three runs; a point
    needs 20 inputs."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(11, 3.4), sharey=True)
    for ax, by in zip(axes, ("functions", "depth", "output length")):
        for test, style in (("pcfgset", "-"), ("productivity", "--")):
            table = released.by_property(test, by)
            for network in ARCHITECTURE_NAMES:
                ax.plot(table.index, table[network], color=COLOURS[network], linestyle=style,
                        marker=".", label=f"{network}, {'task' if test == 'pcfgset' else test}")
        ax.set_xlabel({"functions": "number of functions", "depth": "depth of the input's tree",
                       "output length": "output length (tokens)"}[by])
        ax.set_ylim(-3, 103)
    axes[0].set_ylabel("sequence accuracy (%)")
    axes[0].legend(fontsize=7)
    fig.suptitle("The paper's networks by the size of the input and output (released outputs)")
    fig.tight_layout()
    return fig

