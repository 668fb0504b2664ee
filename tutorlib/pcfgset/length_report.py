"""PCFG SET's setting in words and its readings by length: a profile's restrictions of
the task, accuracy by input length and by number of functions, the length terciles, the
reduced corpus's table and the overgeneralisation figure, as chapters 11 and 12 show them.

Re-exported by :mod:`tutorlib.pcfgset.report`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from tutorlib.colours import PALETTE
from tutorlib.pcfgset.corpus import REDUCTIONS
from tutorlib.pcfgset.experiments import ARCHITECTURE_NAMES, table_records
from tutorlib.profiles import network_recipe

# one colour per architecture in every PCFG SET figure
COLOURS = dict(zip(ARCHITECTURE_NAMES, [PALETTE[0], PALETTE[3], PALETTE[2]]))


def restrictions(settings) -> str:
    """A profile's restrictions of the task, in words.

    Parameters
    ----------
    settings : tutorlib.profiles.Settings
        A ``pcfgset`` profile's settings.

    Returns
    -------
    str
        Its limits on functions, output length and symbols, or ``"none"``.
    """
    found = []
    if settings.reduction is not None:
        spec = REDUCTIONS[settings.reduction]
        found.append(f"the reduced corpus {settings.reduction} ({spec.pairs:,} pairs, inputs of "
                     f"at most {spec.max_functions} functions, outputs of at most "
                     f"{spec.max_output_length} symbols; productivity tested on new inputs of "
                     f"{' and '.join(map(str, spec.productivity_functions))} functions)")
    if settings.max_functions is not None:
        found.append(f"inputs with at most {settings.max_functions} functions")
    reduced_to = REDUCTIONS[settings.reduction].max_output_length if settings.reduction else None
    if settings.max_output_length not in (None, reduced_to):
        found.append(f"outputs of at most {settings.max_output_length} symbols")
    if settings.alphabet_size is not None:
        found.append(f"the 520 symbols folded onto {settings.alphabet_size}")
    return ", ".join(found) if found else "none"


def stops_at_gate(settings) -> bool:
    """Whether every network of a profile's ``settings`` stops training as soon as it passes
    the fit gate (its recipe's ``stop_at``), so that its in-distribution accuracy is near the
    level the gate asks for rather than where training converged."""
    return all(network_recipe(settings, n).get("stop_at") for n in settings.architectures)


def by_length(runs: pd.DataFrame, split_name: str, which: str, width: int = 1,
              min_inputs: int = 1) -> pd.DataFrame:
    """Sequence accuracy per input length or number of functions, a column per network, pooled
    over seeds (the paper's Fig. 3).

    Parameters
    ----------
    runs : pandas.DataFrame
        Run records with ``split``, ``network`` and ``by_length``
        (:func:`tutorlib.pcfgset.experiments.breakdown` counts).
    split_name : str
        The split whose test set is broken down.
    which : {"input_length", "num_functions"}
        What to break it down by.
    width : int
        Bin width (a bin is named by its smallest value).
    min_inputs : int
        A bin with fewer test inputs is left out.

    Returns
    -------
    pandas.DataFrame
        Accuracy (0-1) per bin.
    """
    out = {}
    for network, group in runs[runs["split"] == split_name].groupby("network", sort=False):
        totals: dict[int, np.ndarray] = {}
        for counts in group["by_length"]:
            for value, (n, hits) in counts[which].items():
                key = int(value) // width * width
                totals[key] = totals.get(key, np.zeros(2)) + (n, hits)
        out[network] = {value: hits / n for value, (n, hits) in sorted(totals.items())
                        if n >= min_inputs}
    return pd.DataFrame(out).sort_index()


def length_terciles(counts: dict) -> list[float]:
    """Accuracy (%) on the shortest, middle and longest third of a test set's inputs by input
    length, from one run's :func:`tutorlib.pcfgset.experiments.breakdown` counts: the thirds
    cut as :func:`tutorlib.pcfgset.released.length_terciles` cuts the released test sets (at
    the length quantiles, ties kept together); NaN for a third that holds no input.

    Parameters
    ----------
    counts : dict
        ``{"input_length": {length: [inputs, correct]}, ...}`` (keys may be strings, as JSON
        stores them).

    Returns
    -------
    list of float
        Three accuracies (%), shortest third first.

    Examples
    --------
    >>> length_terciles({"input_length": {"3": [10, 9], "5": [10, 5], "9": [10, 1]}})
    [90.0, 50.0, 10.0]
    """
    cells = sorted((int(k), int(n), int(hits)) for k, (n, hits) in counts["input_length"].items())
    if not cells or sum(n for _, n, _ in cells) == 0:
        raise ValueError("length_terciles: the counts hold no test input")
    lengths = np.repeat([c[0] for c in cells], [c[1] for c in cells])
    cuts = np.quantile(lengths, [1 / 3, 2 / 3])
    bins = np.digitize([c[0] for c in cells], cuts, right=True)
    out = []
    for b in range(3):
        inputs = sum(c[1] for c, k in zip(cells, bins, strict=True) if k == b)
        right = sum(c[2] for c, k in zip(cells, bins, strict=True) if k == b)
        out.append(100 * right / inputs if inputs else math.nan)
    return out


def productivity_below_task(task: dict, productivity: dict, min_examples: int = 20) -> float | None:
    """The paper's Fig. 3 control for one run: the share of input lengths (with at least
    ``min_examples`` inputs in both test sets) at which the productivity score is below the
    task accuracy, as :func:`tutorlib.pcfgset.released.productivity_below_task_by_run` reads
    the released runs; None where no length has enough inputs in both.

    Parameters
    ----------
    task, productivity : dict
        The two runs' :func:`tutorlib.pcfgset.experiments.breakdown` counts.
    min_examples : int
        Fewest inputs a length needs in each test set.

    Returns
    -------
    float or None
    """
    left = {int(k): v for k, v in task["input_length"].items()}
    right = {int(k): v for k, v in productivity["input_length"].items()}
    common = [n for n in sorted(set(left) & set(right))
              if left[n][0] >= min_examples and right[n][0] >= min_examples]
    if not common:
        return None
    return float(np.mean([right[n][1] / right[n][0] < left[n][1] / left[n][0] for n in common]))



def by_functions(runs: pd.DataFrame) -> pd.DataFrame:
    """Sequence accuracy by number of functions, a column per network, pooled over seeds: the
    task's test set (``pcfgset``) and, beyond it, productivity's (on a reduction its test
    inputs have more functions than any training input). Each number of functions is read from
    the split that has it; a number in both is read from the task's test set.

    Parameters
    ----------
    runs : pandas.DataFrame
        Run records (:func:`by_length`).

    Returns
    -------
    pandas.DataFrame
        Accuracy (0-1) per number of functions, with a column ``split`` naming where it is read.
    """
    task = by_length(runs, "pcfgset", "num_functions")
    beyond = by_length(runs, "productivity", "num_functions")
    beyond = beyond.loc[[i for i in beyond.index if i not in task.index]]
    frame = pd.concat([task.assign(split="task"), beyond.assign(split="productivity")])
    frame.index.name = "functions"
    return frame.sort_index()


def plot_by_functions(runs: pd.DataFrame, title: str):
    """:func:`by_functions` as a figure: a line per network, the numbers of functions of the
    productivity test (beyond every training input) shaded.

    Parameters
    ----------
    runs : pandas.DataFrame
        Run records (:func:`by_length`).
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    table = by_functions(runs)
    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    beyond = table.index[table["split"] == "productivity"]
    if len(beyond):
        ax.axvspan(min(beyond) - 0.5, max(beyond) + 0.5, color="0.9",
                   label="beyond training (productivity)")
    for network in [c for c in table.columns if c != "split"]:
        ax.plot(table.index, table[network], marker="o", label=network)
    ax.set_xlabel("number of functions")
    ax.set_ylabel("sequence accuracy")
    ax.set_ylim(-0.03, 1.03)
    ax.set_xticks(list(table.index))
    ax.legend(fontsize="small")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def reduction_table(reduction: str) -> pd.DataFrame:
    """The training and test pairs of every split of a reduced corpus beside the paper's (as
    this book generates it), a row per split: what each test holds out, at both sizes.

    Parameters
    ----------
    reduction : str
        A key of :data:`tutorlib.pcfgset.corpus.REDUCTIONS`.

    Returns
    -------
    pandas.DataFrame
        Training and test pairs of each split, reduced and full.
    """
    from tutorlib.pcfgset import splits

    rows = {}
    for name in splits.split_names():
        reduced_train, reduced_test = splits.split(name, reduction=reduction)
        full_train, full_test = splits.split(name)
        rows[name] = {"training pairs (reduced)": len(reduced_train),
                      "test pairs (reduced)": len(reduced_test),
                      "training pairs (paper's size)": len(full_train),
                      "test pairs (paper's size)": len(full_test)}
    frame = pd.DataFrame(rows).T
    frame.index.name = "split"
    return frame


def _table_ratio_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """The overgeneralisation runs among ``runs`` that Table 1's row reads (the paper's ratio
    where there are any: :func:`~tutorlib.pcfgset.experiments.table_records`)."""
    if runs.empty:
        return runs
    return pd.DataFrame(table_records("overgeneralisation", runs.to_dict("records")),
                        columns=runs.columns)


def plot_overgeneralisation(runs: pd.DataFrame, title: str):
    """For the training exceptions of every overgeneralisation run (at the ratio of the paper's
    Table 1 where there are any), the share answered by the rule (solid) and by the exception
    (dashed) during training, one colour per network.

    Parameters
    ----------
    runs : pandas.DataFrame
        Run records with ``split``, ``network``, ``seed`` and ``curve``.
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    over = _table_ratio_runs(runs)
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for (network, seed), group in over.groupby(["network", "seed"], sort=False):
        curve = pd.DataFrame(group["curve"].iloc[0])
        labelled = seed == over[over["network"] == network]["seed"].min()
        ax.plot(curve["epoch"], curve["overgeneralisation"], color=COLOURS[network],
                label=f"{network}: rule" if labelled else None)
        ax.plot(curve["epoch"], curve["memorisation"], color=COLOURS[network],
                linestyle="--", label=f"{network}: exception" if labelled else None)
    ax.set_xlabel("epoch (passes over the training set)")
    ax.set_ylabel("fraction of the exceptions")
    ax.set_ylim(-0.03, 1.03)
    ax.set_title(title)
    ax.legend(fontsize=8)
    return fig

