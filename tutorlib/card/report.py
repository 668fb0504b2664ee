"""The closing chapter's tables, figures and numbers, from committed card runs.

The chapter states numbers about the committed cards only through these functions (glued at
build time): :func:`card_facts` (how many runs, which cells fitted), :func:`concurrency_facts`,
:func:`tre_facts` and :func:`divergence_facts`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from tutorlib.card.analysis import check_frame, concurrency, measure_label, tre_against_behaviour

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
# fitted networks a task needs to stay on the card, and a pair of measures for a tau (issue 50)
MIN_NETWORKS = 4


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


def card_facts(summary: dict, table) -> dict[str, str]:
    """Sentences about the committed card: how many of the planned runs are finished, and
    which networks fitted how many of their tasks."""
    import pandas as pd

    if summary["runs"] == 0 or table is None or len(table) == 0:
        return {"card_runs_text": "No card runs are committed yet: "
                                  "`python -m tutorlib run card --profile full` makes them.",
                "card_fit_text": ""}
    frame = named(pd.DataFrame(table))
    low, high = int(frame["seeds"].min()), int(frame["seeds"].max())
    seeds = f"{low}" if low == high else f"{low} to {high}"
    state = ("all of them" if summary["complete"] else
             f"the sweep goes on, so a cell has {seeds} of its seeds so far")
    fitted = _fitted_tasks(frame).groupby(level="model", sort=False).agg(["sum", "size"])
    parts = [f"{model} {int(row['sum'])} of {int(row['size'])}" for model, row in
             fitted.iterrows()]
    skipped = summary.get("skipped", 0)
    settled = (f" and {skipped} need not run (a later seed of a cell whose earlier seed did not "
               f"pass the fit gate: the cell cannot be fitted on every seed)" if skipped else "")
    return {"card_runs_text": f"{summary['runs']} of the full profile's {summary['planned']} "
                              f"runs are committed{settled} ({state}); the figure and every "
                              f"number below are computed from them when the book is built.",
            "card_fit_text": "Tasks fitted on every seed: " + "; ".join(parts) + "."}


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


def cell_facts(table, settings=None) -> dict[str, str]:
    """How many of the card's cells (a network on a task) fitted on every seed so far, as
    ``cells_fitted`` (``"k of n"``), ``cells_share`` (%) and a sentence ``cells_text`` (with
    how many tasks :func:`task_coverage` keeps, drops or leaves open, given ``settings``)."""
    import pandas as pd

    if table is None or len(table) == 0:
        return {"cells_fitted": "0 of 0", "cells_share": "not measured",
                "cells_text": "No card cell is committed yet."}
    fitted = _fitted_tasks(pd.DataFrame(table))
    share = 100 * fitted.mean()
    status = task_coverage(table, settings)["status"].value_counts()
    tasks = int(status.sum())
    shares = ", ".join(f"{int(status.get(key, 0))} {key}" for key in ("kept", "dropped", "open")
                       if status.get(key, 0))
    return {"cells_fitted": f"{int(fitted.sum())} of {len(fitted)}",
            "cells_share": f"{share:.0f}%",
            "cells_text": (f"{int(fitted.sum())} of the {len(fitted)} cells run so far (a network "
                           f"on a task) fitted on every seed ({share:.0f}%). Of the {tasks} "
                           f"tasks run, a task stays on the card with at least {MIN_NETWORKS} "
                           f"fitted networks: {shares}.")}


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


def divergence_scale_facts(divergences: Sequence[dict]) -> dict[str, str]:
    """The compound divergence of each benchmark's in-distribution split (SCAN's ``simple``,
    PCFG SET's task split, ORCHARD at depth 3) and of ORCHARD's deepest test set, as text."""
    import pandas as pd

    frame = pd.DataFrame(list(divergences))
    if frame.empty:
        return {name: "not measured" for name in ("div_scan_random", "div_pcfgset_random",
                                                  "div_orchard_low", "div_orchard_high",
                                                  "div_scan_mcd")}

    def at(benchmark: str, test: str) -> str:
        part = frame[(frame["benchmark"] == benchmark) & (frame["test"] == test)]
        return f"{part['compound divergence'].iloc[0]:.2f}" if len(part) else "not measured"

    depths = sorted(int(t.split()[-1]) for t in frame.loc[frame["benchmark"] == "orchard", "test"])
    return {"div_scan_random": at("scan", "simple"), "div_pcfgset_random": at("pcfgset", "pcfgset"),
            "div_scan_mcd": at("scan", "mcd1"),
            "div_orchard_low": at("orchard", f"depth {depths[0]}") if depths else "not measured",
            "div_orchard_high": at("orchard", f"depth {depths[-1]}") if depths else "not measured"}


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


def pairs_table(pairs, top: int = 10):
    """The pairs of measures a reader should see from a
    :func:`~tutorlib.card.analysis.concurrency` table, with short labels: every measured pair,
    highest tau first; where none is measured, the ``top`` pairs with the most fitted networks
    in common (their tau, low and high empty), so the table shows how near a comparison came."""
    check_frame(pairs, "pairs", ("a", "b", "models", "tau", "low", "high"))
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"top must be a positive integer, got {top!r}")
    measured = pairs[pairs["tau"].notna()]
    if len(measured):
        shown = measured.sort_values("tau", ascending=False)
    else:
        shown = pairs.sort_values("models", ascending=False, kind="stable").head(top)
    return shown.assign(a=shown["a"].map(short_label),
                        b=shown["b"].map(short_label)).reset_index(drop=True)


def agreement_by_benchmark(pairs):
    """Which benchmarks rank the networks alike: the measured pairs of a
    :func:`~tutorlib.card.analysis.concurrency` table grouped by the two benchmarks they come
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


def concurrency_facts(pairs) -> dict[str, str]:
    """Sentences about a :func:`~tutorlib.card.analysis.concurrency` table: how many pairs of
    measures could be compared, the median tau, and the share whose interval excludes 0."""
    measured = pairs[pairs["tau"].notna()] if len(pairs) else pairs
    if len(measured) == 0:
        text = (f"No two measures have {MIN_NETWORKS} fitted networks in common (on every seed "
                f"the chapter asks for), so no ranking is compared")
        if len(pairs):
            closest = pairs_table(pairs, top=1).iloc[0]
            text += (f" (the most any pair has: {int(closest['models'])}, "
                     f"{closest['a']} and {closest['b']})")
        return {"concurrency_pairs": "0", "concurrency_median": "not measured",
                "concurrency_text": text + ": whether these benchmarks agree is untested here."}
    taus = measured["tau"].astype(float)
    low = measured["low"].astype(float)
    high = measured["high"].astype(float)
    agree = int(((low > 0)).sum())
    disagree = int(((high < 0)).sum())
    return {
        "concurrency_pairs": f"{len(measured)}",
        "concurrency_median": f"{np.median(taus):.2f}",
        "concurrency_text": (
            f"Of {len(pairs)} pairs of measures, {len(measured)} share at least {MIN_NETWORKS} fitted "
            f"networks; their median tau is {np.median(taus):.2f} (from {taus.min():.2f} to "
            f"{taus.max():.2f}). The bootstrap interval over seeds lies above 0 for {agree} "
            f"of them and below 0 for {disagree}; for the other {len(measured) - agree - disagree} "
            f"it includes 0: those two measures' rankings cannot be told apart from unrelated "
            f"ones at these seeds."),
    }


def tre_facts(summary: dict) -> dict[str, str]:
    """Sentences about :func:`~tutorlib.card.analysis.tre_against_behaviour`'s summary."""
    if summary["r"] is None:
        return {"tre_r": "not measured", "tre_runs": f"{summary['runs']}",
                "tre_text": f"Only {summary['runs']} fitted runs have both a TRE and a test "
                            f"accuracy: too few for a correlation."}
    interval = (f" (95% interval {summary['low']:.2f} to {summary['high']:.2f})"
                if summary["low"] is not None else "")
    excludes = (summary["low"] is not None and (summary["high"] < 0 or summary["low"] > 0))
    if excludes:
        reading = (": lower TRE (more compositional representations) goes with higher accuracy."
                   if summary["r"] < 0 else ": lower TRE goes with lower accuracy.")
    else:
        reading = (": the interval includes 0, so these runs show no relation between TRE and "
                   "accuracy in either direction.")
    by = summary.get("by_benchmark", {})
    text = (f"Over {summary['runs']} fitted runs on {summary['tasks']} splits"
            f"{f' of {len(by)} benchmarks' if len(by) > 1 else ''}, within splits, "
            f"r = {summary['r']:.2f}{interval}{reading}")
    if len(by) > 1:
        def one(benchmark: str, part: dict) -> str:
            if part["r"] is None:
                return f"{benchmark} too few runs ({part['runs']})"
            band = (f" [{part['low']:.2f}, {part['high']:.2f}]" if part["low"] is not None
                    else "")
            splits = f"{part['tasks']} split{'s' if part['tasks'] != 1 else ''}"
            return f"{benchmark} {part['r']:.2f}{band} ({part['runs']} runs, {splits})"
        text += " Benchmark by benchmark: " + "; ".join(
            one(BENCHMARKS.get(b, b), by[b]) for b in sorted(by, key=_benchmark_rank)) + "."
    return {"tre_r": f"{summary['r']:.2f}", "tre_runs": f"{summary['runs']}", "tre_text": text}


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


def divergence_facts(frame) -> dict[str, str]:
    """The correlation of compound divergence with mean accuracy, within SCAN (and the dial)
    and across benchmarks, each split counted once (:func:`distinct_splits`); across
    benchmarks only where more than one benchmark has fitted networks."""
    from tutorlib.stats import correlation_interval, pearson

    def describe(part, where):
        part = part.dropna(subset=["accuracy"])
        if len(part) < 3:
            return f"{where}: only {len(part)} splits have fitted networks, too few to correlate."
        r = pearson(list(part["compound divergence"]), list(part["accuracy"]))
        if r is None:
            return f"{where}: the accuracies do not vary."
        low, high = correlation_interval(r, len(part))
        interval = f" (95% interval {low:.2f} to {high:.2f})" if low is not None else ""
        return f"{where}, over {len(part)} distinct splits: r = {r:.2f}{interval}."

    if frame is None or len(frame) == 0:
        return {"divergence_text": "No divergences are committed yet."}
    frame = distinct_splits(frame)
    scan = frame[frame["benchmark"].isin(["scan", "dbca"])]
    fitted = frame.dropna(subset=["accuracy"])
    others = sorted(set(fitted["benchmark"]) - {"scan", "dbca"})
    spanned = ", ".join(BENCHMARKS.get(b, b) for b in dict.fromkeys(fitted["benchmark"]))
    across = (describe(frame, f"Across benchmarks ({spanned})") if others else
              "Across benchmarks: no split of another benchmark has enough fitted networks, so "
              "the correlation across benchmarks is untested here (it would repeat SCAN's).")
    return {"divergence_text": " ".join([describe(scan, "Within SCAN (its splits and the dial)"),
                                         across])}


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
    ax.legend(title="benchmark (hollow at -4: no network fitted)", fontsize=8)
    fig.tight_layout()
    return fig


def plot_tre_behaviour(points):
    """Each fitted run's TRE against its test accuracy, both as deviations from its split's
    means (as :func:`~tutorlib.card.analysis.tre_against_behaviour` correlates them), one colour
    per network."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    if points is None or len(points) == 0:
        ax.text(0.5, 0.5, "no fitted run with a TRE yet", ha="center", va="center",
                transform=ax.transAxes)
    else:
        points = points.assign(accuracy_deviation=points["accuracy"] - points.groupby(
            ["benchmark", "task"])["accuracy"].transform("mean"), tre_deviation=points["tre"]
            - points.groupby(["benchmark", "task"])["tre"].transform("mean"))
    for model, part in (points.groupby("model", sort=False) if points is not None and len(points)
                        else []):
        ax.scatter(part["tre_deviation"], part["accuracy_deviation"],
                   label=NAMES.get(model, model), s=30)
    ax.axhline(0, color="0.8", linewidth=0.8)
    ax.axvline(0, color="0.8", linewidth=0.8)
    ax.set_xlabel("TRE minus its split's mean (cosine; left: more compositional)")
    ax.set_ylabel("test accuracy minus its split's mean (points)")
    if points is not None and len(points):
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def analyses(rows: Sequence[dict], resamples: int = 1000, min_seeds: int = 1) -> dict:
    """The chapter's three analyses of card rows at once: ``pairs`` (concurrency over
    :func:`generalisation_measures`, a network ranked on a measure with at least ``min_seeds``
    seeds and :data:`MIN_NETWORKS` in common), ``points`` and ``tre`` (TRE against
    behaviour)."""
    import pandas as pd

    measures = generalisation_measures(rows)
    pairs = (concurrency(rows, measures, resamples=resamples, min_models=MIN_NETWORKS,
                         min_seeds=min_seeds)
             if len(measures) >= 2
             else pd.DataFrame(columns=["a", "b", "models", "tau", "low", "high"]))
    points, tre = tre_against_behaviour(rows) if rows else (pd.DataFrame(), {"r": None,
                                                                              "runs": 0})
    return {"pairs": pairs, "points": points, "tre": tre}


__all__ = ["BENCHMARKS", "GENERALISATION", "MIN_NETWORKS", "NAMES", "PAPER_NETWORKS",
           "agreement_by_benchmark", "analyses",
           "card_facts", "card_pivot", "cell_facts", "networks_table", "task_coverage",
           "committed_rows", "committed_summary", "concurrency_facts", "divergence_accuracy",
           "distinct_splits", "divergence_facts", "divergence_scale_facts", "empty_figure", "fit_pivot",
           "fit_summary", "generalisation_measures", "named", "released_rows",
           "plot_divergence_accuracy", "plot_tre_behaviour", "short_label", "tre_facts"]
