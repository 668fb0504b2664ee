"""Tables and figures of the DBCA chapter and its appendix page about the committed
full-profile runs (Keysers et al. 2020, Sec. 5 and Table 4): the dial's accuracy against compound
divergence beside the paper's SCAN numbers, its straight line, and the crossed runs that split
the spread of test accuracy into the split's share and training's. Numbers, tables and figures
only: the chapter writes the sentences.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tutorlib.colours import PALETTE
from tutorlib.dbca.experiments import PAPER, is_dial_run

NAMES = {"lstm": "the LSTM", "lstm_attention": "the LSTM with attention",
         "transformer": "the Transformer"}


def _name(network: str) -> str:
    return NAMES.get(network, network)


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
        ax.set_title(f"{_name(network)}, {_target_name(target)}", fontsize=10)
    axes[0, 0].set_ylabel("test accuracy (%)")
    axes[0, 0].legend(fontsize=8)
    fig.suptitle("Test accuracy by split and by training seed")
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


def _line_segment(slope: float, intercept: float, low: float, high: float) -> np.ndarray:
    """The D_C values from ``low`` to ``high`` where the line lies between 0 and 100%."""
    xs = np.array([low, high], dtype=float)
    if slope != 0:
        bounds = sorted([(0.0 - intercept) / slope, (100.0 - intercept) / slope])
        xs = np.clip(xs, bounds[0], bounds[1])
    return xs


def plot_dial_regression(committed: pd.DataFrame):
    """Every dial run's test accuracy against its split's D_C, with each network's line from
    :func:`dial_regression` (drawn over the D_C its runs reached, and only where it lies between
    0 and 100%) and its R² in the legend. Returns the figure."""
    import matplotlib.pyplot as plt

    lines = dial_regression(committed)
    fig, ax = plt.subplots(figsize=(6.8, 4.0), layout="constrained")
    for i, (network, cell) in enumerate(committed.groupby("network", sort=False)):
        colour = f"C{i}"
        ax.scatter(cell["compound_divergence"], 100 * cell["accuracy"], s=14, color=colour,
                   alpha=0.7)
        if network in lines.index:
            row = lines.loc[network]
            slope, intercept = row["slope (points per D_C)"], row["intercept (%)"]
            xs = _line_segment(slope, intercept, cell["compound_divergence"].min(),
                               cell["compound_divergence"].max())
            ax.plot(xs, slope * xs + intercept, color=colour,
                    label=f"{_name(network)} (R² {row['R²']:.2f})")
    ax.set_xlabel("compound divergence of the split (D_C)")
    ax.set_ylabel("test accuracy (% exact match)")
    ax.set_ylim(-3, 103)
    ax.set_title("The dial's runs and each network's straight line")
    ax.legend(fontsize=9)
    return fig


def published_interval(network: str, split: str = "mcd") -> tuple[float, float]:
    """The paper's 95% interval (%) for ``network`` on its SCAN MCD splits (``"mcd"``) or its
    random split (``"random"``), mean ± half-width clipped to [0, 100] (an accuracy interval
    cannot leave that range; Table 4 gives 99.9 ± 2.7 for the LSTM with attention)."""
    if split not in ("mcd", "random"):
        raise ValueError(f"split must be 'mcd' or 'random', got {split!r}")
    mean, half = PAPER[split][network], PAPER[f"{split}_interval"][network]
    return max(0.0, mean - half), min(100.0, mean + half)


def dial_points(committed: pd.DataFrame) -> pd.DataFrame:
    """The dial's runs by network and target: mean reached D_C, mean, lowest and highest test
    accuracy (%) over the seeds, and the number of runs (a spread that stays within [0, 100])."""
    runs = committed[[is_dial_run(r) for r in committed.to_dict(orient="records")]]
    target = runs["target_compound_divergence"].map(lambda t: "max" if pd.isna(t) else f"{t:g}")
    grouped = (100 * runs["accuracy"]).groupby([runs["network"], target], sort=False)
    table = pd.DataFrame({"runs": grouped.size(),
                          "D_C": runs["compound_divergence"].groupby(
                              [runs["network"], target], sort=False).mean(),
                          "accuracy (%)": grouped.mean(), "lowest (%)": grouped.min(),
                          "highest (%)": grouped.max()})
    table.index.names = ["network", "target"]
    return table


LABELS = {"lstm": "LSTM", "lstm_attention": "LSTM + attention", "transformer": "Transformer"}
PAPER_NAMES = {"lstm_attention": "LSTM + attention", "transformer": "Transformer",
               "universal_transformer": "Universal Transformer"}


def plot_dial(committed: pd.DataFrame, mcd_compound_divergence: float):
    """The dial: each network's mean test accuracy (bars: lowest to highest over seeds) against
    the mean D_C its splits reached (each network nudged sideways by a few thousandths), with
    the paper's SCAN MCD means and 95% intervals (:func:`published_interval`) as crosses just
    right of ``mcd_compound_divergence``, a step apart so that none hides another. Returns the
    figure."""
    import matplotlib.pyplot as plt

    points = dial_points(committed)
    fig, ax = plt.subplots(figsize=(7.5, 5.0), layout="constrained")
    colours = {}
    networks = list(dict.fromkeys(points.index.get_level_values("network")))
    for i, (network, rows) in enumerate(points.groupby(level="network", sort=False)):
        colours[network] = f"C{i}"
        # each network nudged sideways a little, so that its bars do not hide the others'
        nudge = 0.006 * (i - (len(networks) - 1) / 2)
        ax.errorbar(rows["D_C"] + nudge, rows["accuracy (%)"],
                    yerr=[rows["accuracy (%)"] - rows["lowest (%)"],
                          rows["highest (%)"] - rows["accuracy (%)"]],
                    marker="o", capsize=3, color=colours[network],
                    label=f"{LABELS.get(network, network)} (ours)")
    # just right of our MCD points, a step apart, so that no cross hides a dot or another cross
    offsets = 0.02 + 0.015 * np.arange(len(PAPER["mcd"]))
    for offset, (network, value) in zip(offsets, PAPER["mcd"].items()):
        low, high = published_interval(network)
        ax.errorbar([mcd_compound_divergence + offset], [value],
                    yerr=[[value - low], [high - value]], marker="x", ms=8, ls="none",
                    capsize=3, zorder=4, color=colours.get(network, "0.35"),
                    label=f"{PAPER_NAMES[network]} (Keysers et al., SCAN MCD)")
    ax.set_xlabel("compound divergence D_C of the split")
    ax.set_ylabel("test accuracy (% exact match)")
    ax.set_ylim(-3, 103)
    ax.set_title("Accuracy against compound divergence (full profile)")
    ax.legend(fontsize=9, loc="upper right")
    return fig


def passes_gate(runs: pd.DataFrame) -> pd.Series:
    """Whether each committed run passes the fit gate (:func:`tutorlib.fit.passes`): its
    training accuracy, and at target D_C 0 (a random split, in distribution) also its test
    accuracy against the paper's own on a random split (Table 4) where the paper has the
    network. A boolean Series on ``runs``' index."""
    from tutorlib import fit

    def one(row) -> bool:
        at_zero = row["target_compound_divergence"] == 0.0
        paper = PAPER["random"].get(row["network"]) if at_zero else None
        return fit.passes(float(row["train_accuracy"]),
                          float(row["accuracy"]) if at_zero else None,
                          paper=None if paper is None else paper / 100)

    return pd.Series([one(row) for _, row in runs.iterrows()], index=runs.index, dtype=bool)


KIND_COLOURS = {"random": PALETTE[0], "length": PALETTE[2], "primitive": PALETTE[3],
                "composed jump": PALETTE[1], "template": PALETTE[4], "filler": PALETTE[5],
                "MCD (ours)": "black"}
LABELLED_SPLITS = ("simple", "simple_p1", "length", "addprim_jump", "template_around_right",
                   "filler_num0", "addprim_complex_jump_num32_rep1")


def plot_divergences(divergences: pd.DataFrame, max_atom_divergence: float):
    """Every split of :func:`tutorlib.dbca.experiments.divergence_table` on the D_A-D_C plane:
    a dot per standard split coloured by kind, a star per MCD split of ours, the splits of
    :data:`LABELLED_SPLITS` named, and the MCD bound on D_A as a dotted line. Returns the
    figure."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.8), layout="constrained")
    for kind, rows in divergences.groupby("kind", sort=False):
        mcd = kind == "MCD (ours)"
        ax.scatter(rows["atom_divergence"], rows["compound_divergence"], label=kind,
                   color=KIND_COLOURS.get(kind, "grey"), marker="*" if mcd else "o",
                   s=110 if mcd else 40, zorder=3)
    for name in LABELLED_SPLITS:
        if name in divergences.index:
            row = divergences.loc[name]
            ax.annotate(name, (row["atom_divergence"], row["compound_divergence"]), fontsize=8,
                        xytext=(5, 3), textcoords="offset points")
    ax.axvline(max_atom_divergence, color="0.6", ls=":", lw=1)
    ax.set_xlabel("atom divergence D_A")
    ax.set_ylabel("compound divergence D_C")
    ax.set_ylim(-0.02, 0.8)
    ax.set_title("Atom and compound divergence of SCAN's splits")
    ax.legend(fontsize=9, loc="upper right")
    return fig


def plot_chernoff(p, q, marked=(0.1, 0.5)):
    """C_alpha(p || q) of two probability vectors against alpha, the values at ``marked``
    (the paper's 0.1 for compounds and 0.5 for atoms) marked and written. Returns the
    figure."""
    import matplotlib.pyplot as plt

    from tutorlib.dbca.divergence import chernoff_coefficient

    alphas = np.linspace(0.02, 0.98, 49)
    fig, ax = plt.subplots(figsize=(6.5, 3.6), layout="constrained")
    ax.plot(alphas, [chernoff_coefficient(p, q, a) for a in alphas], color=PALETTE[0])
    for alpha in marked:
        value = chernoff_coefficient(p, q, alpha)
        ax.scatter([alpha], [value], color=PALETTE[3], zorder=3)
        ax.annotate(f"C_{alpha:g} = {value:.2f}", (alpha, value), xytext=(8, 4),
                    textcoords="offset points")
    ax.set_xlabel("alpha")
    ax.set_ylabel("C_alpha(p || q)")
    ax.set_title("Two distributions, weighed with different alpha")
    return fig


def published_accuracies() -> pd.DataFrame:
    """Keysers et al.'s Table 4 (SCAN): each network's mean accuracy (%) with its 95% interval
    clipped to [0, 100] (:func:`published_interval`), on a random split and on the SCAN MCD
    splits, as text (``"6.1 [3.9, 8.3]"``), a row per network."""
    def column(split: str) -> dict[str, str]:
        return {PAPER_NAMES[network]: f"{value:.1f} [{published_interval(network, split)[0]:.1f}, "
                                      f"{published_interval(network, split)[1]:.1f}]"
                for network, value in PAPER[split].items()}

    return pd.DataFrame({"random split (%), 95% interval": column("random"),
                         "SCAN MCD splits (%), 95% interval": column("mcd")})
