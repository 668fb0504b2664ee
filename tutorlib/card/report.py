"""The closing chapter's tables and figures, from committed card runs.

These functions read the committed card and return tables and figures; the chapter writes its
own sentences from them and from :mod:`tutorlib.card.agreement`'s statistics (the chapter
standard, CONTRIBUTING.md).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from tutorlib.card.agreement import MIN_NETWORKS
from tutorlib.card.analysis import check_frame, measure_label

# the card's networks by name, for tables and figures
NAMES = {"lstm": "LSTM", "lstm_attention": "LSTM + attention", "gru_attention": "GRU + attention",
         "transformer": "Transformer", "convs2s": "ConvS2S",
         "transformer_relative": "Transformer (relative)",
         "lstm_attention_geca": "LSTM + attention + GECA"}
# the card's benchmarks by name, for sentences
BENCHMARKS = {"scan": "SCAN", "dbca": "the DBCA dial", "pcfgset": "PCFG SET", "orchard": "ORCHARD"}


def _benchmark_rank(benchmark: str) -> int:
    """Where ``benchmark`` comes in :data:`BENCHMARKS`' order (an unknown one last)."""
    return list(BENCHMARKS).index(benchmark) if benchmark in BENCHMARKS else len(BENCHMARKS)

# the paper's own networks on the PCFG SET rows (Hupkes et al. 2020, their released outputs)
PAPER_NETWORKS = {f"{architecture}_paper": f"{name} (paper's)" for architecture, name in
                  (("lstms2s", "LSTMS2S"), ("convs2s", "ConvS2S"), ("transformer", "Transformer"))}
NAMES.update(PAPER_NETWORKS)
# the measures of generalisation the closing chapter ranks the models on: one per test
GENERALISATION = ("accuracy", "second tree", "consistency", "localism", "overgeneralisation")


def committed_rows(profile: str = "full") -> list[dict]:
    """Every row of every committed card run at ``profile`` (empty if none is committed)."""
    from tutorlib import results

    committed = results.committed("card", profile)
    runs = committed["data"].get("runs", []) if committed is not None else []
    return [row for record in runs for row in record["rows"]]


def committed_summary(profile: str = "full") -> dict:
    """The committed card summary at ``profile``: ``card``, ``divergences``, ``complete`` and
    ``runs`` (how many are finished), ``skipped`` (how many need not run: a later seed of a cell
    whose earlier seed did not fit), ``planned`` (how many the profile has); empty lists if
    nothing is committed."""
    from tutorlib import profiles, results
    from tutorlib.card.experiments import runs

    committed = results.committed("card", profile)
    data = committed["data"] if committed is not None else {}
    return {"card": data.get("card", []), "divergences": data.get("divergences", []),
            "complete": bool(data.get("complete", False)), "runs": len(data.get("runs", [])),
            "skipped": len(data.get("skipped", [])),
            "planned": len(runs(profiles.settings("card", profile)))}


def released_rows(directory: str | os.PathLike | None = None,
                  with_task: Sequence[str] = ()) -> list[dict]:
    """The paper's three released networks on the card's PCFG SET rows, in the card table's
    shape (a row per network, task, test and score: the mean over the three released runs with
    its t interval), scored through the card's prediction scorer: each run's predictions are
    written in the release's own layout (header line included) and read back by
    :func:`~tutorlib.card.scoring.score_pcfgset`, as ``card score pcfgset`` reads them.

    Substitutivity is the equally distributed condition, as on the card. Localism is LSTMS2S's
    only (the release has no localism of the other two); overgeneralisation is the last logged
    epoch at the card's exception ratio (0.5%), since the card measures it after training. The
    networks are the paper's, trained at the paper's scale: ``fitted`` is None (their training
    accuracy is not in the release) and ``paper`` is True.

    Parameters
    ----------
    directory : path-like, optional
        Where to write the prediction files (a temporary directory, removed after, by default).
    with_task : sequence of str
        Tests the card scores on its task network (the full card's ``pcfgset_with_task``:
        productivity and localism): their rows are put under the task ``pcfgset``, beside the
        card's own.

    Returns
    -------
    list of dict
        Rows in the card table's columns, with ``paper`` True.
    """
    import tempfile
    from pathlib import Path

    from tutorlib.card.scoring import PCFGSET_HEADER, score_pcfgset
    from tutorlib.card.tasks import OVERGENERALISATION_RATIO
    from tutorlib.pcfgset import released
    from tutorlib.stats import mean_interval

    if isinstance(directory, str) and not directory.strip():
        raise ValueError("released_rows: directory is empty; give a folder, or None for a "
                         "temporary one")

    def task_of(test: str) -> str:
        return "pcfgset" if test in with_task else test

    def write(folder: Path, architecture: str, test: str, run: int) -> Path:
        path = folder / f"{architecture}_{test}_run={run}.txt"
        path.write_text("\t".join(PCFGSET_HEADER) + "\n" + "".join(
            f"{e.source}\t{e.target}\t{e.prediction}\n"
            for e in released.examples(architecture, test, run)), encoding="utf-8")
        return path

    def scores(folder: Path, architecture: str, run: int) -> dict[tuple[str, str, str], float]:
        out = {}
        for test in ("pcfgset", "systematicity", "productivity"):
            out[(task_of(test), test, "accuracy")] = score_pcfgset(
                write(folder, architecture, test, run)).scores["accuracy"]
        originals = write(folder, architecture, "substitutivity_equally_distributed", run)
        twins = write(folder, architecture, "substitutivity_equally_distributed_twin", run)
        out[("substitutivity", "originals", "accuracy")] = score_pcfgset(originals).scores["accuracy"]
        twin_score = score_pcfgset(twins, originals).scores
        out[("substitutivity", "twins", "accuracy")] = twin_score["accuracy"]
        out[("substitutivity", "twins", "consistency")] = twin_score["consistency"]
        if architecture == "lstms2s":
            out[(task_of("localism"), "localism", "localism")] = released.localism(run)
        curves = released.overgeneralisation_curves(architecture, OVERGENERALISATION_RATIO, run)
        out[("overgeneralisation", "exceptions", "memorisation")] = curves["memorisation"][-1]
        out[("overgeneralisation", "rules", "overgeneralisation")] = curves["overgeneralisation"][-1]
        return out

    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(directory) if directory is not None else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for architecture in released.ARCHITECTURES:
            per_run = [scores(folder, architecture, run) for run in released.RUNS]
            for key in per_run[0]:
                mean, low, high = mean_interval([100 * run[key] for run in per_run])
                rows.append({"benchmark": "pcfgset", "task": key[0], "test": key[1],
                             "score": key[2], "model": f"{architecture}_paper", "mean": mean,
                             "low": low, "high": high, "seeds": len(per_run), "fitted": None,
                             "paper": True, "train fit": None, "validation fit": None})
    return rows


def named(frame):
    """``frame`` with the networks' names for the ``model`` column."""
    out = frame.copy()
    out["model"] = [NAMES.get(m, m) for m in out["model"]]
    return out


def card_pivot(table, value: str = "mean"):
    """The card as a wide table: a row per measure (:func:`short_label`), a column per
    network, ``value`` in each cell; a cell whose networks did not all fit is shown in brackets,
    "(x)", and "—" stands where a network has no run. The paper's own networks
    (:func:`released_rows`, a ``paper`` column) are shown as they are: they are the paper's
    reference, trained at its scale."""
    import pandas as pd

    if table is None or len(table) == 0:
        return pd.DataFrame()
    frame = named(pd.DataFrame(table))
    frame["measure"] = [short_label(measure_label(*k)) for k in
                        zip(frame["benchmark"], frame["task"], frame["test"], frame["score"])]
    cells = {}
    paper = frame["paper"].fillna(False).astype(bool) if "paper" in frame else [False] * len(frame)
    shown_plain = [bool(fitted) or is_paper for fitted, is_paper in zip(frame["fitted"], paper)]
    for measure, model, mean, ok, score in zip(frame["measure"], frame["model"], frame[value],
                                               shown_plain, frame["score"]):
        digits = 3 if score == "TRE" else 1
        cells.setdefault(measure, {})[model] = (f"{mean:.{digits}f}" if ok
                                                else f"({mean:.{digits}f})")
    models = list(dict.fromkeys(frame["model"]))
    return pd.DataFrame.from_dict(cells, orient="index")[models].fillna("—")


def fit_pivot(table, rows: Sequence[dict] | None = None):
    """Each cell's fit: the lower of the mean training and validation fit (%), a row per task
    (its scores share one run), a column per network; "—" where a network has no run. With the
    card's per-seed ``rows`` (:func:`committed_rows`), a task not fitted on every seed says how
    many seeds passed the fit gate, e.g. "96.0 (2 of 3 seeds)": the card counts a cell only when
    every seed fits, so a high mean can still be a bracketed cell."""
    import pandas as pd

    if table is None or len(table) == 0:
        return pd.DataFrame()
    frame = named(pd.DataFrame(table))
    frame["task"] = frame["benchmark"] + " " + frame["task"]
    frame["fit"] = frame[["train fit", "validation fit"]].min(axis=1)
    wide = frame.groupby(["task", "model"], sort=False)["fit"].first().unstack("model")
    models = list(dict.fromkeys(frame["model"]))
    shown = wide.reindex(index=list(dict.fromkeys(frame["task"])), columns=models).round(1)
    cells = shown.astype(object).where(shown.notna(), "—")
    if rows:
        seeds = named(pd.DataFrame(list(rows)))
        seeds["task"] = seeds["benchmark"] + " " + seeds["task"]
        per_seed = seeds.groupby(["task", "model", "seed"], sort=False)["fitted"].first()
        counts = per_seed.groupby(level=["task", "model"]).agg(["sum", "size"])
        for (task, model), row in counts.iterrows():
            if row["sum"] < row["size"] and task in cells.index and model in cells.columns:
                cells.loc[task, model] = (f"{shown.loc[task, model]:.1f} "
                                          f"({int(row['sum'])} of {int(row['size'])} seeds)")
    return cells


def _fitted_tasks(frame):
    """Whether each network fitted each task on every seed (a task's scores share its runs)."""
    return frame.groupby(["model", "benchmark", "task"], sort=False)["fitted"].all()


def networks_table(settings):
    """A profile's networks: each one's architecture, how it trains differently from the shared
    recipe, the augmentation it trains with, and its training budget on each benchmark (seconds
    of one core; a run stops earlier at the first evaluation that passes the fit gate when its
    recipe says so).

    Parameters
    ----------
    settings : CardSettings
        A card profile's settings (``profiles.settings("card", profile)``).

    Returns
    -------
    pandas.DataFrame
        A row per network (its name), columns ``architecture``, ``trained differently``,
        ``augmentation`` and ``<benchmark> budget (s)`` per benchmark.
    """
    import pandas as pd

    from tutorlib import seq2seq as s2s
    from tutorlib.card.experiments import AUGMENTED_BENCHMARKS

    budgets = settings.get("budgets") or {}
    augment = settings.get("augment") or {}
    benchmarks = ["scan", "pcfgset", "orchard", "dbca"]
    rows = {}
    for name, config in settings["models"].items():
        row = {"architecture": s2s.Seq2SeqConfig(**config).describe(),
               "trained differently": ", ".join(
                   f"{key} {value}" for key, value in
                   (settings.get("training") or {}).get(name, {}).items()) or "—",
               "augmentation": augment.get(name, "—")}
        for benchmark in benchmarks:
            seconds = budgets.get(name, {}).get(benchmark, settings["max_seconds"])
            applies = name not in augment or benchmark in AUGMENTED_BENCHMARKS
            row[f"{benchmark} budget (s)"] = f"{seconds:g}" if applies else "—"
        rows[NAMES.get(name, name)] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def task_coverage(table, settings=None):
    """Which tasks stay on the card: a row per task with the networks run on it, those that
    fitted it on every seed, and whether it is kept (at least :data:`MIN_NETWORKS` fitted) or
    dropped, and why; with ``settings``, a task whose planned runs are not all finished is
    ``open`` until enough of its networks are settled (a network is settled on a task when
    every seed passed the fit gate, or when one did not: the card skips its later seeds).

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`~tutorlib.card.card_table`.
    settings : CardSettings, optional
        The profile the table comes from (its networks and seeds); None: the table is taken as
        complete.

    Returns
    -------
    pandas.DataFrame
        ``benchmark``, ``task``, ``seeds`` (the fewest any network has so far), ``networks``
        (run on it), ``fitted`` (on every seed), ``fitted networks`` (their names), ``status``
        (``kept``, ``dropped`` or ``open``) and ``why``.
    """
    import pandas as pd

    from tutorlib.card.experiments import AUGMENTED_BENCHMARKS

    columns = ["benchmark", "task", "seeds", "networks", "fitted", "fitted networks", "status",
               "why"]
    if table is None or len(table) == 0:
        return pd.DataFrame(columns=columns)
    frame = named(pd.DataFrame(table))
    out = []
    for (benchmark, task), part in frame.groupby(["benchmark", "task"], sort=False):
        per_model = part.groupby("model", sort=False).agg(fitted=("fitted", "all"),
                                                          seeds=("seeds", "min"))
        names = [model for model, ok in per_model["fitted"].items() if ok]
        seeds = int(per_model["seeds"].min())
        if settings is None:
            planned, planned_seeds = len(per_model), int(per_model["seeds"].max())
        else:
            augment = settings.get("augment") or {}
            planned = sum(1 for name in settings["models"]
                          if name not in augment or benchmark in AUGMENTED_BENCHMARKS)
            planned_seeds = len(settings["seeds"])
        # a network is settled on a task when a seed failed (the card skips its later seeds)
        # or when every seed passed
        settled = int((per_model["fitted"] & (per_model["seeds"] >= planned_seeds)).sum())
        failed = int((~per_model["fitted"]).sum())
        undecided = planned - settled - failed
        if settled >= MIN_NETWORKS:
            status, why = "kept", ""
        elif settled + undecided < MIN_NETWORKS:
            status, why = "dropped", (f"only {len(names)} of {planned} networks fitted it on "
                                      f"every seed within their budgets (a task needs "
                                      f"{MIN_NETWORKS})")
        else:
            most = int(per_model["seeds"].max())
            run = f"{seeds}" if seeds == most else f"{seeds} to {most}"
            status, why = "open", (f"{len(per_model)} of {planned} networks run, at {run} of "
                                   f"{planned_seeds} seeds so far; {len(names)} fitted every "
                                   f"seed run")
        out.append({"benchmark": benchmark, "task": task, "seeds": seeds,
                    "networks": len(per_model), "fitted": len(names),
                    "fitted networks": ", ".join(names) or "—", "status": status, "why": why})
    return pd.DataFrame(out, columns=columns)


def fit_summary(table):
    """How many of each benchmark's tasks each network fitted on every seed: a row per network,
    a column per benchmark, ``"k of n"`` in each cell."""
    import pandas as pd

    if table is None or len(table) == 0:
        return pd.DataFrame()
    frame = named(pd.DataFrame(table))
    cells = _fitted_tasks(frame).groupby(level=["model", "benchmark"], sort=False).agg(
        ["sum", "size"])
    out = {(model, benchmark): f"{int(row['sum'])} of {int(row['size'])}"
           for (model, benchmark), row in cells.iterrows()}
    wide = pd.Series(out).unstack()
    return wide.reindex(index=list(dict.fromkeys(frame["model"])),
                        columns=list(dict.fromkeys(frame["benchmark"]))).fillna("—")


def empty_figure(message: str):
    """A small figure that says ``message`` (where nothing is committed yet)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 1.5))
    ax.text(0.5, 0.5, message, ha="center", va="center")
    ax.set_axis_off()
    return fig


def generalisation_measures(rows: Sequence[dict]) -> list[str]:
    """The measures the chapter ranks models on: each task's test accuracy, substitutivity's
    consistency, localism and overgeneralisation, and ORCHARD's second tree at its deepest test
    depth (where the hard variants fail); not TRE, memorisation, ORCHARD's first tree or its
    shallower depths. The DBCA dial's MCD point is SCAN's ``mcd1`` split (the same pairs), so
    where SCAN's is on the card the dial's is left out: one split is ranked once."""
    def depth(test: str) -> int:
        return int(test.split()[-1]) if test.startswith("depth ") else -1

    deepest = max([depth(r["test"]) for r in rows if r["benchmark"] == "orchard"], default=-1)
    has_mcd1 = any(r["benchmark"] == "scan" and r["task"] == "mcd1" for r in rows)
    seen = {}
    for row in rows:
        if row["score"] not in GENERALISATION or (
                row["benchmark"] == "pcfgset" and row["task"] == "substitutivity"
                and row["score"] == "accuracy"):
            continue
        if has_mcd1 and row["benchmark"] == "dbca" and row["test"] == "target MCD":
            continue
        if row["benchmark"] == "orchard" and depth(row["test"]) != deepest:
            continue
        seen[measure_label(row["benchmark"], row["task"], row["test"], row["score"])] = True
    return list(seen)


def short_label(measure: str) -> str:
    """A measure's label shortened for a figure: ``scan addprim_jump: addprim_jump (accuracy)``
    becomes ``scan addprim_jump``.

    Examples
    --------
    >>> short_label("orchard minmax_hard: depth 12 (second tree)")
    'orchard depth 12 (second tree)'
    >>> short_label("pcfgset substitutivity: twins (consistency)")
    'pcfgset substitutivity (consistency)'
    >>> short_label("pcfgset substitutivity: twins (accuracy)")
    'pcfgset substitutivity: twins'
    """
    head, tail = measure.split(": ", 1)
    benchmark, task = head.split(" ", 1)
    test, score = tail.rsplit(" (", 1)
    score = score.rstrip(")")
    if benchmark == "orchard":
        return f"orchard {test} ({score})"
    if score == "accuracy":
        return head if test == task else f"{head}: {test}"
    return f"{head} ({score})"


def agreement_by_benchmark(pairs):
    """Which benchmarks rank the networks alike: the measured pairs of a
    :func:`~tutorlib.card.agreement.concurrence` table grouped by the two benchmarks they come
    from (SCAN with SCAN, SCAN with ORCHARD, ...), with the median tau and how many intervals lie
    above 0, below 0 or include it.

    Returns
    -------
    pandas.DataFrame
        ``benchmarks``, ``pairs``, ``median tau``, ``above 0``, ``below 0``, ``include 0``; one
        row per pair of benchmarks with a measured tau (none: an empty table).
    """
    import pandas as pd

    check_frame(pairs, "pairs", ("a", "b", "tau", "low", "high"))
    columns = ["benchmarks", "pairs", "median tau", "above 0", "below 0", "include 0"]
    measured = pairs[pairs["tau"].notna()]
    if len(measured) == 0:
        return pd.DataFrame(columns=columns)
    def group(a: str, b: str) -> str:
        first, second = sorted((a.split()[0], b.split()[0]), key=_benchmark_rank)
        return (BENCHMARKS.get(first, first) if first == second else
                f"{BENCHMARKS.get(first, first)} with {BENCHMARKS.get(second, second)}")

    frame = measured.assign(benchmarks=[group(a, b) for a, b in zip(measured["a"], measured["b"])],
                            tau=measured["tau"].astype(float), low=measured["low"].astype(float),
                            high=measured["high"].astype(float))
    rows = []
    for name, part in frame.groupby("benchmarks", sort=False):
        above, below = int((part["low"] > 0).sum()), int((part["high"] < 0).sum())
        rows.append({"benchmarks": name, "pairs": len(part),
                     "median tau": float(part["tau"].median()), "above 0": above,
                     "below 0": below, "include 0": len(part) - above - below})
    return pd.DataFrame(rows, columns=columns)


def divergence_accuracy(divergences: Sequence[dict], table, min_networks: int = MIN_NETWORKS):
    """Each split's divergences beside the mean accuracy over the networks that fitted it (the
    split's test set; ORCHARD's second tree per depth), where at least ``min_networks`` did (by
    default :data:`MIN_NETWORKS`: a task with fewer is off the card; NaN).

    Returns
    -------
    pandas.DataFrame
        ``benchmark``, ``task``, ``test``, ``atom divergence``, ``compound divergence``,
        ``accuracy`` (mean over fitted networks, %; NaN if fewer than ``min_networks``),
        ``networks`` (how many fitted).
    """
    import pandas as pd

    frame = pd.DataFrame(list(divergences))
    if frame.empty:
        return frame
    card = pd.DataFrame(table) if table is not None and len(table) else pd.DataFrame(
        columns=["benchmark", "task", "test", "score", "mean", "fitted"])
    accuracies, counts = [], []
    for benchmark, task, test in zip(frame["benchmark"], frame["task"], frame["test"]):
        score = "second tree" if benchmark == "orchard" else "accuracy"
        cells = card[(card["benchmark"] == benchmark) & (card["task"] == task)
                     & (card["test"] == test) & (card["score"] == score)]
        fitted = cells[cells["fitted"].astype(bool)]
        accuracies.append(float(fitted["mean"].mean()) if len(fitted) >= min_networks
                          else np.nan)
        counts.append(len(fitted))
    frame["accuracy"] = accuracies
    frame["networks"] = counts
    first = ["benchmark", "task", "test", "atom divergence", "compound divergence"]
    return frame[first + [c for c in frame.columns if c not in first]]


def distinct_splits(frame):
    """:func:`divergence_accuracy`'s rows with each split once: a split measured under two
    names (the DBCA dial's MCD point is SCAN's ``mcd1`` split: the same divergences, the same
    networks) keeps its first row."""
    if frame is None or len(frame) == 0:
        return frame
    key = frame[["atom divergence", "compound divergence"]].round(6).astype(str).agg(" ".join, axis=1)
    return frame[~key.duplicated()]


def plot_divergence_accuracy(frame):
    """Mean accuracy of the fitted networks against each split's compound divergence, one
    marker per benchmark."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    markers = {"scan": "o", "dbca": "s", "pcfgset": "^", "orchard": "D"}
    for benchmark, part in frame.groupby("benchmark", sort=False):
        fitted = part.dropna(subset=["accuracy"])
        ax.scatter(part["compound divergence"], np.where(part["accuracy"].isna(), np.nan,
                                                         part["accuracy"]),
                   marker=markers.get(benchmark, "o"), label=benchmark, s=40)
        unfitted = part[part["accuracy"].isna()]
        if len(unfitted):
            ax.scatter(unfitted["compound divergence"], [-4] * len(unfitted),
                       marker=markers.get(benchmark, "o"), facecolors="none",
                       edgecolors="0.5", s=40)
        del fitted
    ax.axhline(-4, color="0.85", linewidth=0.5)
    ax.set_xlabel("compound divergence D_C (train against test)")
    ax.set_ylabel("mean test accuracy of fitted networks (%)")
    ax.set_ylim(-8, 104)
    ax.legend(title=f"benchmark (hollow at -4: fewer than {MIN_NETWORKS} networks fitted)",
              fontsize=8)
    fig.tight_layout()
    return fig


def distinct_tasks(table):
    """The card table with each split once: the DBCA dial's MCD point is SCAN's ``mcd1`` split
    (the same pairs, the same runs), so where SCAN's ``mcd1`` is on the card the dial's rows
    for it are left out."""
    import pandas as pd

    frame = pd.DataFrame(table)
    if frame.empty:
        return frame
    check_frame(frame, "table", ("benchmark", "task", "test"))
    has_mcd1 = bool(((frame["benchmark"] == "scan") & (frame["task"] == "mcd1")).any())
    dial_mcd = set(frame.loc[(frame["benchmark"] == "dbca") & (frame["test"] == "target MCD"),
                             "task"])
    repeated = (frame["benchmark"] == "dbca") & frame["task"].isin(dial_mcd) & has_mcd1
    return frame[~repeated].reset_index(drop=True)


def plot_tre_networks(runs, per_network):
    """TRE against test accuracy: each fitted run (small, one colour per network) and each
    network's mean over the splits it is compared on (large, outlined), the points that
    :func:`~tutorlib.card.agreement.tre_across_networks` correlates.

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`~tutorlib.card.agreement.generalisation_runs`' table.
    per_network : pandas.DataFrame
        :func:`~tutorlib.card.agreement.tre_across_networks`' first table.
    """
    import matplotlib.pyplot as plt

    check_frame(runs, "runs", ("model", "tre", "accuracy"))
    check_frame(per_network, "per_network", ("tre", "accuracy"))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (model, part) in enumerate(runs.groupby("model", sort=False)):
        colour = colours[i % len(colours)]
        ax.scatter(part["tre"], part["accuracy"], s=14, alpha=0.45, color=colour)
        if model in per_network.index:
            ax.scatter(per_network.loc[model, "tre"], per_network.loc[model, "accuracy"], s=110,
                       color=colour, edgecolors="black", label=NAMES.get(model, model))
    ax.set_xlabel("TRE of the encoder's states (cosine; left: more compositional)")
    ax.set_ylabel("test accuracy (%)")
    ax.set_ylim(-4, 104)
    ax.legend(fontsize=8, title="network (large: its mean)")
    fig.tight_layout()
    return fig


__all__ = ["BENCHMARKS", "GENERALISATION", "MIN_NETWORKS", "NAMES", "PAPER_NETWORKS",
           "agreement_by_benchmark", "card_pivot", "committed_rows", "committed_summary",
           "distinct_splits", "distinct_tasks", "divergence_accuracy", "empty_figure",
           "fit_pivot", "fit_summary", "generalisation_measures", "named", "networks_table",
           "plot_divergence_accuracy", "plot_tre_networks", "released_rows", "short_label",
           "task_coverage"]
