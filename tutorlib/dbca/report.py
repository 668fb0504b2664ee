"""What the DBCA chapter states about the committed full-profile dial: the facts it glues into
its prose (how far accuracy falls along the dial, the fit, the MCD splits beside the paper's
numbers, seed by seed).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tutorlib.dbca.experiments import PAPER, dial_table

NAMES = {"lstm": "the LSTM", "lstm_attention": "the LSTM with attention",
         "transformer": "the Transformer"}
NOT_COMMITTED = "(no full-profile runs committed)"


def _name(network: str) -> str:
    return NAMES.get(network, network)


def _mcd_facts(committed: pd.DataFrame, dials: dict[str, pd.DataFrame]) -> dict[str, str]:
    at_max = [(network, rows.loc["max"]) for network, rows in dials.items() if "max" in rows.index]
    if not at_max:
        return {"full_mcd": "No run on an MCD split (the last target of each seed's sweep) is "
                            "committed yet, so the paper's single-digit numbers are not yet "
                            "tested.",
                "full_mcd_seeds": "Per-seed accuracies follow when those runs are in."}
    mean_dc = np.mean([row["D_C"] for _, row in at_max])
    mcd = f"On the MCD splits (D_C about {mean_dc:.2f}) " + "; ".join(
        f"{_name(network)} gets {row['accuracy (%)']:.1f}% "
        f"({int(row['runs'])} seed{'s' if row['runs'] > 1 else ''}"
        + (f"; the paper {PAPER['mcd'][network]} ± {PAPER['mcd_interval'][network]}%"
           if network in PAPER["mcd"]
           else "; not in the paper's SCAN table") + ")"
        for network, row in at_max) + "."
    on_mcd = committed[committed["target_compound_divergence"].isna()].sort_values("seed")
    by_network = dict(list(on_mcd.groupby("network")))
    per_seed = {network: 100 * rows["accuracy"].to_numpy() for network, rows in by_network.items()}
    all_seeds = sorted(on_mcd["seed"].unique())
    seeds_text = "; ".join(
        f"{_name(network)} " + ", ".join(f"{value:.1f}" for value in values)
        + ("" if list(by_network[network]["seed"]) == all_seeds
           else f" (seeds {', '.join(map(str, by_network[network]['seed']))})")
        for network, values in per_seed.items())
    order = ""
    if {"lstm_attention", "transformer"} <= per_seed.keys():
        gap = per_seed["lstm_attention"].mean() - per_seed["transformer"].mean()
        spread = max(np.ptp(values) for values in per_seed.values())
        order = (" The paper has the LSTM with attention ahead of the Transformer on these "
                 "splits; " + ("so do we" if gap > 0 else "ours is the other way round")
                 + f" (by {abs(gap):.1f} points), while the same network's accuracy varies by "
                 f"up to {spread:.1f} points from one seed to the next.")
    return {"full_mcd": mcd,
            "full_mcd_seeds": f"Per seed (%, seeds {', '.join(map(str, all_seeds))}): "
                              f"{seeds_text}.{order}"}


def full_facts(committed: pd.DataFrame, settings) -> dict[str, str]:
    """Every fact the chapter states about the committed full-profile dial, by name.

    Parameters
    ----------
    committed : pandas.DataFrame
        :func:`tutorlib.dbca.experiments.committed_runs` (possibly empty).
    settings : tutorlib.profiles.Settings
        The full profile's ``dbca`` settings (how many runs are planned).

    Returns
    -------
    dict of str to str
        ``full_runs`` (committed of planned), ``full_falls`` (each network's accuracy at the
        lowest and the highest D_C), ``full_train`` (the lowest training accuracy of any
        cell), ``full_max_da`` (the largest atom divergence), ``full_mcd`` and
        ``full_mcd_seeds`` (the MCD splits beside the paper's numbers, and seed by seed).
    """
    planned = len(settings["targets"]) * len(settings["architectures"]) * len(settings["seeds"])
    facts = {"full_runs": f"{len(committed)} of {planned}"}
    if not len(committed):
        return facts | {name: NOT_COMMITTED for name in
                        ["full_falls", "full_train", "full_max_da", "full_mcd", "full_mcd_seeds"]}
    full_dial = dial_table(committed.to_dict(orient="records"))
    dials = {network: rows.set_index("target") for network, rows in full_dial.groupby("network")}
    falls = []
    for network, rows in dials.items():
        numeric = rows.drop(index="max", errors="ignore")
        low, high = numeric.iloc[0], numeric.iloc[-1]
        falls.append(f"{_name(network)} from {low['accuracy (%)']:.1f}% at D_C "
                     f"{low['D_C']:.1f} to {high['accuracy (%)']:.1f}% at {high['D_C']:.1f}")
    facts |= {"full_falls": "; ".join(falls),
              "full_train": f"{full_dial['training accuracy (%)'].min():.1f}%",
              "full_max_da": f"{committed['atom_divergence'].max():.6f}"}
    return facts | _mcd_facts(committed, dials)


# ---------------------------------------------------------------------------------------------
# The split or the training? (the crossed runs), and the dial's regression


def _target_name(target) -> str:
    return "MCD" if target is None or (isinstance(target, float) and np.isnan(target)) \
        else f"D_C {target:g}"


def crossed_cells(runs: pd.DataFrame) -> list[tuple[str, object]]:
    """The (network, target) cells that have a run with a split seed other than its training
    seed (:func:`tutorlib.dbca.experiments.committed_runs` with ``crossed=True``)."""
    off = runs[runs["split_seed"] != runs["seed"]]
    cells = {(network, None if pd.isna(target) else float(target))
             for network, target in zip(off["network"], off["target_compound_divergence"])}
    return sorted(cells, key=lambda cell: (cell[0], -1 if cell[1] is None else cell[1]))


def _cell(runs: pd.DataFrame, network: str, target) -> pd.DataFrame:
    targets = runs["target_compound_divergence"]
    chosen = targets.isna() if target is None else targets == target
    return runs[chosen & (runs["network"] == network)]


def crossed_grid(runs: pd.DataFrame, network: str, target) -> pd.DataFrame:
    """Test accuracy (%) of ``network`` at ``target`` (None: MCD), one row per split seed and
    one column per training seed (NaN where that run is not committed)."""
    cell = _cell(runs, network, target)
    grid = cell.pivot_table(index="split_seed", columns="seed", values="accuracy",
                            aggfunc="mean") * 100
    grid.index.name, grid.columns.name = "split seed", "training seed"
    return grid


def variance_table(runs: pd.DataFrame) -> pd.DataFrame:
    """How much of the spread of test accuracy comes from the split and how much from training,
    for each crossed (network, target) cell.

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`tutorlib.dbca.experiments.committed_runs` with ``crossed=True``.

    Returns
    -------
    pandas.DataFrame
        A row per cell: runs, splits, mean accuracy (%), the standard deviation of the split
        means (between splits), the root mean within-split variance over training seeds
        (within splits; splits with one run left out) and the overall standard deviation, in
        points.
    """
    rows = []
    for network, target in crossed_cells(runs):
        cell = _cell(runs, network, target)
        accuracy = 100 * cell["accuracy"]
        by_split = accuracy.groupby(cell["split_seed"])
        within = [group.var(ddof=1) for _, group in by_split if len(group) > 1]
        rows.append({"network": network, "target": _target_name(target), "runs": len(cell),
                     "splits": by_split.ngroups, "mean (%)": accuracy.mean(),
                     "between splits (sd)": by_split.mean().std(ddof=1),
                     "within a split (sd)": float(np.sqrt(np.mean(within))) if within
                     else float("nan"),
                     "overall (sd)": accuracy.std(ddof=1)})
    columns = ["network", "target", "runs", "splits", "mean (%)", "between splits (sd)",
               "within a split (sd)", "overall (sd)"]
    return pd.DataFrame(rows, columns=columns).set_index(["network", "target"])


def plot_crossed(runs: pd.DataFrame):
    """Each crossed cell's test accuracy by split seed, a marker per training seed and the
    split's mean as a bar: how far the points of one split scatter against how far the splits
    differ. Returns the figure."""
    import matplotlib.pyplot as plt

    cells = crossed_cells(runs)
    fig, axes = plt.subplots(1, max(len(cells), 1), figsize=(3.4 * max(len(cells), 1), 3.2),
                             sharey=True, squeeze=False)
    for ax, (network, target) in zip(axes[0], cells):
        grid = crossed_grid(runs, network, target)
        ax.bar(range(len(grid)), grid.mean(axis=1), color="0.85", label="split mean")
        for seed, marker in zip(grid.columns, "os^v"):
            ax.plot(range(len(grid)), grid[seed], marker, ms=6, label=f"training seed {seed}")
        ax.set_xticks(range(len(grid)), [f"split {s}" for s in grid.index])
        ax.set_title(f"{_name(network)}, {_target_name(target)}", fontsize=9)
    axes[0, 0].set_ylabel("test accuracy (%)")
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def dial_regression(committed: pd.DataFrame) -> pd.DataFrame:
    """The dial's least-squares line per network, as the paper fits one for CFQ: test accuracy
    (%) against the compound divergence each split reached, over every dial run.

    Parameters
    ----------
    committed : pandas.DataFrame
        The dial's runs (:func:`tutorlib.dbca.experiments.committed_runs`).

    Returns
    -------
    pandas.DataFrame
        A row per network: runs, slope (points of accuracy per unit of D_C), intercept (%) and
        R².
    """
    rows = []
    for network, cell in committed.groupby("network", sort=False):
        x = cell["compound_divergence"].to_numpy(float)
        y = 100 * cell["accuracy"].to_numpy(float)
        if len(cell) < 3 or np.ptp(x) == 0:
            continue
        slope, intercept = np.polyfit(x, y, 1)
        residual = y - (slope * x + intercept)
        r2 = 1 - residual @ residual / ((y - y.mean()) @ (y - y.mean()))
        rows.append({"network": network, "runs": len(cell), "slope (points per D_C)": slope,
                     "intercept (%)": intercept, "R²": r2})
    return pd.DataFrame(rows, columns=["network", "runs", "slope (points per D_C)",
                                       "intercept (%)", "R²"]).set_index("network")


def plot_dial_regression(committed: pd.DataFrame):
    """Every dial run's test accuracy against its split's D_C, with each network's line from
    :func:`dial_regression` and its R² in the legend. Returns the figure."""
    import matplotlib.pyplot as plt

    lines = dial_regression(committed)
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for i, (network, cell) in enumerate(committed.groupby("network", sort=False)):
        colour = f"C{i}"
        ax.scatter(cell["compound_divergence"], 100 * cell["accuracy"], s=14, color=colour,
                   alpha=0.7)
        if network in lines.index:
            row = lines.loc[network]
            xs = np.linspace(cell["compound_divergence"].min(), cell["compound_divergence"].max(), 2)
            ax.plot(xs, row["slope (points per D_C)"] * xs + row["intercept (%)"], color=colour,
                    label=f"{_name(network)} (R² {row['R²']:.2f})")
    ax.set_xlabel("compound divergence of the split (D_C)")
    ax.set_ylabel("test accuracy (%)")
    ax.set_ylim(-3, 103)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def regression_facts(regression: pd.DataFrame) -> dict[str, str]:
    """The dial's lines in words (``regression_text``), beside the paper's R² on CFQ.

    Parameters
    ----------
    regression : pandas.DataFrame
        :func:`dial_regression`.

    Returns
    -------
    dict of str to str
        ``regression_text``.
    """
    if regression.empty:
        return {"regression_text": "No dial runs are committed yet, so there is no line."}
    parts = [f"{_name(network)} R² {row['R²']:.2f}, {-row['slope (points per D_C)'] / 10:.1f} "
             f"points lost per 0.1 of D_C ({int(row['runs'])} runs)"
             for network, row in regression.iterrows()]
    low, high = regression["R²"].min(), regression["R²"].max()
    reading = ("on SCAN too, compound divergence alone predicts most of how hard a split is"
               if low >= 0.5 else "on SCAN, compound divergence alone leaves much of how hard "
               "a split is unexplained")
    return {"regression_text":
            f"Ours: {'; '.join(parts)}. A straight line explains {low:.2f} to {high:.2f} of the "
            f"variation of our SCAN dial, against the paper's {PAPER['cfq_r2'][0]} to "
            f"{PAPER['cfq_r2'][1]} on CFQ: {reading}."}


def variance_facts(variance: pd.DataFrame) -> dict[str, str]:
    """The crossed runs in words (``variance_text``): each cell's spread between splits and
    within a split, and what that allows one to rank.

    Parameters
    ----------
    variance : pandas.DataFrame
        :func:`variance_table`.

    Returns
    -------
    dict of str to str
        ``variance_text``.
    """
    if variance.empty:
        return {"variance_text": "No crossed runs are committed yet (`python -m tutorlib run "
                                 "dbca --profile full` runs them after the dial), so the "
                                 "split's share of the spread is not measured yet."}
    cells = []
    for (network, target), row in variance.iterrows():
        within = ("one run per split so far" if np.isnan(row["within a split (sd)"])
                  else f"{row['within a split (sd)']:.1f} within a split")
        cells.append(f"{_name(network)} at {target}: {row['mean (%)']:.1f}% on average, "
                     f"{row['between splits (sd)']:.1f} points between splits and {within} "
                     f"({int(row['runs'])} of 9 runs)")
    text = "; ".join(cells) + "."
    text = text[0].upper() + text[1:]
    at_mcd = variance.xs("MCD", level="target") if "MCD" in variance.index.get_level_values(
        "target") else variance.iloc[:0]
    if {"lstm_attention", "transformer"} <= set(at_mcd.index):
        gap = abs(at_mcd.loc["lstm_attention", "mean (%)"] - at_mcd.loc["transformer", "mean (%)"])
        noise = max(at_mcd[["between splits (sd)", "within a split (sd)"]].max())
        text += (f" At the MCD point the two networks' means differ by {gap:.1f} points against "
                 f"a spread of up to {noise:.1f} points from one split or one training seed to "
                 f"the next: " + ("the gap is larger than the spread, so the order can be "
                                  "read" if gap > 2 * noise else
                                  "the gap is within the spread, so these runs cannot rank the "
                                  "two networks on MCD splits") + ".")
    return {"variance_text": text}
