"""Readers of PCFG SET's committed results: the fit of every trained network beside its
scores, for the full (CPU) and gpu profiles, as the tables and figures chapter 12 and its appendix show.

A network's comparison with the paper is only a test of the paper's claim once the network has
learned its own training data, by the book's one fit gate (:mod:`tutorlib.fit`, through
:func:`passes`): :data:`FIT_THRESHOLD` of its training pairs (a seeded sample, decoded greedily,
exact match) and, in distribution, the paper's own task accuracy for its architecture minus 5
points. Hupkes et al. (2020, Sec. 5.1) trained "for 25 epochs or until convergence" and kept
the best model on validation; their models fit their training data.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache

import numpy as np
import pandas as pd

from tutorlib import fit as gate
from tutorlib import profiles, results
from tutorlib.colours import PALETTE
from tutorlib.pcfgset import released
from tutorlib.pcfgset.corpus import REDUCTIONS
from tutorlib.pcfgset.experiments import (
    ARCHITECTURE_NAMES,
    PAPER,
    TEST_SCORES,
    committed_runs,
    published_fraction,
    ratio_records,
    table_records,
    table_rows,
)
from tutorlib.profiles import network_recipe
from tutorlib.stats import mean_interval

# The fit gate's bar on training pairs (tutorlib.fit), drawn on the figures.
FIT_THRESHOLD = gate.TRAINING
# The profiles whose runs are committed, in the order the chapter shows them.
COMMITTED_PROFILES = ("full", "gpu")


def _runs(profile: str) -> pd.DataFrame:
    """:func:`committed_runs`, read once per version of the file (the claims page asks for the
    same profile once per claim)."""
    path = results.project_results("pcfgset", f"{profile}.json")
    stamp = path.stat().st_mtime_ns if path.exists() else None
    return _runs_of(str(path), stamp, profile).copy()


@lru_cache(maxsize=8)
def _runs_of(path: str, stamp: int | None, profile: str) -> pd.DataFrame:
    return committed_runs(profile)


def _validation(row) -> float:
    value = row.get("validation_accuracy")
    return float(value) if isinstance(value, (int, float)) and not math.isnan(value) else math.nan


def in_distribution(row) -> float | None:
    """A run's accuracy in distribution: its validation accuracy where it measured one (the gpu
    profile), else for a run of the base task its accuracy on the base test set, which is drawn
    from the training distribution; None where neither was measured."""
    validation = _validation(row)
    if not math.isnan(validation):
        return validation
    if row.get("split") == "pcfgset" and isinstance(row.get("accuracy"), (int, float)):
        return float(row["accuracy"])
    return None


def passes(row) -> bool:
    """Whether a committed run passes the book's fit gate (:func:`tutorlib.fit.passes`): its
    training accuracy, and its accuracy in distribution (:func:`in_distribution`) against the
    paper's own task accuracy for its architecture minus 5 points (LSTMS2S 0.79 - 0.05)."""
    return gate.passes(float(row["train_accuracy"]), in_distribution(row),
                       paper=published_fraction("task", row["network"]))


def fit_table(profiles: tuple[str, ...] = COMMITTED_PROFILES) -> pd.DataFrame:
    """Per profile and architecture: parameters, epochs trained, the share of its own training
    pairs the network gets right (mean, min and max over its runs, every split), its
    in-distribution validation accuracy (the gpu profile's kept model; "not measured" for the
    full profile, which has none), how many of its runs fit (:data:`FIT_THRESHOLD`), and why
    training stopped."""
    rows = []
    for profile in profiles:
        runs = _runs(profile)
        if runs.empty:
            continue
        for network in ARCHITECTURE_NAMES:
            mine = runs[runs["network"] == network]
            if mine.empty:
                continue
            fit = mine["train_accuracy"].astype(float)
            passed = [passes(r) for r in mine.to_dict("records")]
            validation = [_validation(r) for r in mine.to_dict("records")]
            stops = [r["fit"]["stopped"] for r in mine.to_dict("records")
                     if isinstance(r.get("fit"), dict)]
            rows.append({
                "profile": profile, "network": network,
                "parameters": int(mine["parameters"].iloc[0]),
                "epochs": round(float(mine["epochs"].mean()), 2),
                "training fit": round(float(fit.mean()), 3),
                "lowest": round(float(fit.min()), 3), "highest": round(float(fit.max()), 3),
                "validation": (round(float(np.nanmean(validation)), 3)
                               if not all(math.isnan(v) for v in validation) else "not measured"),
                "runs fitted": f"{sum(passed)} of {len(mine)}",
                "stopped by": ", ".join(f"{reason} ({stops.count(reason)})"
                                        for reason in dict.fromkeys(stops)) or "presentations",
            })
    return pd.DataFrame(rows).set_index(["profile", "network"]) if rows else pd.DataFrame()


def tests_table(profiles: tuple[str, ...] = COMMITTED_PROFILES) -> pd.DataFrame:
    """The paper's Table 1 with each committed profile's means beside it: a row per test, a
    column per (architecture, source), where the source is ``published`` or a profile."""
    columns = {}
    for network in ARCHITECTURE_NAMES:
        columns[(network, "published")] = {test: published_fraction(test, network)
                                            for test in PAPER}
    for profile in profiles:
        runs = _runs(profile)
        if runs.empty:
            continue
        for row in table_rows(runs.to_dict("records")):
            for network in ARCHITECTURE_NAMES:
                columns.setdefault((network, profile), {})[row["test"]] = row[network]
    order = [(n, s) for n in ARCHITECTURE_NAMES for s in ("published", *profiles)
             if (n, s) in columns]
    frame = pd.DataFrame({key: columns[key] for key in order})
    frame.columns = pd.MultiIndex.from_tuples(order, names=["network", "source"])
    frame.index.name = "test"
    return frame.loc[list(PAPER)]


def claim_fit(test: str, network: str, profile: str) -> tuple[float | None, int, bool]:
    """For one claim of Table 1 read from ``profile``: the mean score in % (None: no run), how
    many runs it averages, and whether every one of those runs passes the fit gate."""
    values, _ = claim_runs(test, network, profile)
    if not values:
        return None, 0, False
    return float(np.mean(values)), len(values), all(claim_passes(test, network, profile))


def claim_records(test: str, network: str, profile: str) -> list[dict]:
    """The committed run records behind one claim of Table 1 read from ``profile`` (those that
    hold its score)."""
    runs = _runs(profile)
    if runs.empty:
        return []
    return [r for r in table_records(test, runs.to_dict("records")) if r["network"] == network]


def claim_runs(test: str, network: str, profile: str) -> tuple[list[float], list[float]]:
    """For one claim of Table 1 read from ``profile``: each run's score (%) and each run's fit
    (its accuracy on its own training data, a fraction); empty lists without a run."""
    mine = claim_records(test, network, profile)
    score = TEST_SCORES[test][1]
    return [100 * float(r[score]) for r in mine], [float(r["train_accuracy"]) for r in mine]


def claim_passes(test: str, network: str, profile: str) -> list[bool]:
    """For one claim of Table 1 read from ``profile``: whether each run behind it passes the
    fit gate (:func:`passes`)."""
    return [passes(r) for r in claim_records(test, network, profile)]


def unfit_reason(tests, networks, profile: str = "full") -> str:
    """Why a claim on ``tests`` of ``networks`` read from ``profile`` is untested, in one
    line: each committed run behind it that fails the fit gate, why its training stopped and
    where it stood against the gate's bars; "" when none fails.

    Parameters
    ----------
    tests : iterable of str
        Keys of Table 1 (``"task"``, ``"systematicity"``, ...).
    networks : iterable of str
        Architectures (``"Transformer"``).
    profile : str
        The committed profile.

    Returns
    -------
    str
        One sentence, or "".
    """
    return unfit_runs_reason([row for network in networks for test in tests
                              for row in claim_records(test, network, profile)], profile)


def unfit_runs_reason(rows: list[dict], profile: str = "full") -> str:
    """:func:`unfit_reason` for the run records ``rows`` of ``profile``: each that fails the fit
    gate, why its training stopped and where it stood against the gate's bars; "" when none
    fails.

    Parameters
    ----------
    rows : list of dict
        Committed run records.
    profile : str
        The profile they belong to (named in the sentence).

    Returns
    -------
    str
        One sentence, or "".
    """
    stops = {"max_seconds": "reached its time budget", "max_epochs": "reached its epoch limit",
             "patience": "stopped improving"}
    failing = {}  # one entry a run: productivity is scored on its task's network
    for row in rows:
        if not passes(row):
            trained = "task" if row["split"] in ("pcfgset", "productivity") else row["split"]
            failing[(row["network"], trained, row["seed"])] = row
    if not failing:
        return ""
    parts = []
    for (network, split, seed), row in failing.items():  # split: what the network trained on
        fit = row.get("fit") or {}
        held = in_distribution(row)
        bar = gate.in_distribution_bar(published_fraction("task", network))
        parts.append(
            f"{network}'s {split.replace('_', ' ')} run, seed {seed}: "
            f"{stops.get(fit.get('stopped'), 'stopped')} "
            f"({float(row['train_seconds']) / 60:.0f} min of one core) at "
            f"{float(row['train_accuracy']):.3f} training"
            + ("" if held is None else f", {held:.3f} in distribution")
            + f" (the gate: {gate.TRAINING:g} and {bar:g})")
    return f"in the {profile} profile, " + "; ".join(parts)


def best_fitted_profile(test: str, network: str) -> str | None:
    """Of the committed profiles, the one whose runs behind ``(test, network)`` fit their
    training data best (mean training fit); None when none is committed."""
    best, best_fit = None, -1.0
    for profile in COMMITTED_PROFILES:
        runs = _runs(profile)
        if runs.empty:
            continue
        mine = [r for r in table_records(test, runs.to_dict("records")) if r["network"] == network]
        if not mine:
            continue
        fit = float(np.mean([r["train_accuracy"] for r in mine]))
        if fit > best_fit:
            best, best_fit = profile, fit
    return best


def fit_curves(profile: str = "gpu") -> pd.DataFrame:
    """The fit history of every run of ``profile`` trained by the convergence recipe: a row per
    evaluation (network, split, seed, epoch, seconds, training and validation accuracy)."""
    runs = _runs(profile)
    rows = []
    for record in runs.to_dict("records"):
        history = record.get("fit_history")
        if not isinstance(history, list):
            continue
        for point in history:
            rows.append({"network": record["network"], "split": record["split"],
                         "seed": record["seed"], **point})
    return pd.DataFrame(rows)


def gpu_measurements() -> dict | None:
    """``results/pcfgset/convergence-gpu.json``: the GPU sweep's wall time, the trainers'
    throughput and precision, and the old-against-new pilots (None when not committed)."""
    path = results.project_results("pcfgset", "convergence-gpu.json")
    if not path.exists():
        return None
    return json.loads(path.read_text())


def pilot_curves() -> pd.DataFrame:
    """The GPU pilots' validation curves: a row per evaluation (network, trainer, seconds,
    validation and training accuracy), today's trainer against the convergence recipe."""
    measured = gpu_measurements()
    rows = []
    for network, entry in ((measured or {}).get("pilots") or {}).items():
        for trainer in ("old", "new"):
            for point in entry.get(trainer, {}).get("history", []):
                rows.append({"network": network, "trainer": trainer,
                             "seconds": point["seconds"],
                             "validation_accuracy": point["validation_accuracy"],
                             "train_accuracy": point["train_accuracy"]})
    return pd.DataFrame(rows)


def _seconds_to(history: list[dict], level: float | None) -> float | None:
    """Training seconds until the validation accuracy first reaches ``level`` (None: never)."""
    if level is None:
        return None
    return next((round(p["seconds"]) for p in history if p["validation_accuracy"] >= level),
                None)


def pilot_table() -> pd.DataFrame:
    """Per architecture, today's trainer against the convergence recipe on the GPU (one run
    each, the six sharing the card) for the same training time: pairs/s, epochs, validation
    accuracy reached, the time to fit (seconds until the validation accuracy first reaches 0.9
    of its best), and the seconds each takes to reach today's trainer's best validation
    accuracy."""
    measured = gpu_measurements()
    rows = []
    for network, entry in ((measured or {}).get("pilots") or {}).items():
        for trainer, label in (("old", "today's trainer"), ("new", "convergence recipe")):
            if trainer not in entry:
                continue
            row = entry[trainer]
            rows.append({"network": network, "trainer": label,
                         "pairs/s": round(row["pairs_per_second"]),
                         "epochs": round(float(row["epochs"]), 1),
                         "seconds trained": round(row["train_seconds"]),
                         "validation": round(row["validation_accuracy"], 3),
                         "training fit": round(row["train_accuracy"], 3),
                         "time to fit (s)": round(row["seconds_to_fit"]),
                         "to today's best (s)": _seconds_to(
                             row["history"], entry.get("old", {}).get("validation_accuracy"))})
    return pd.DataFrame(rows).set_index(["network", "trainer"]) if rows else pd.DataFrame()


def reduction_pilots() -> pd.DataFrame:
    """The pilot that chose the full profile's reduction (``results/pcfgset/pilot/``,
    ``benchmarks/pcfgset_pilot.py``, one core a run): per candidate reduction, architecture and
    recipe tried, the training pairs, the seconds of training until the network first passed
    the fit gate (or "not in" its budget), and its best training and validation accuracy.

    Returns
    -------
    pandas.DataFrame
        A row per pilot run, by candidate (fewest training pairs first) and architecture;
        empty without the folder.
    """
    folder = results.project_results("pcfgset", "pilot")
    rows = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        run = json.loads(path.read_text(encoding="utf-8"))
        architecture, recipe = run["architecture"], run["recipe"]
        shape = f"{architecture['num_layers']} layer{'s' if architecture['num_layers'] > 1 else ''}"
        if architecture.get("kernel_size"):
            shape += f", kernel {architecture['kernel_size']}"
        fitted = run["seconds_to_fit"]
        rows.append({
            "candidate": run["candidate"], "network": run["network"], "seed": run["seed"],
            "network size": shape,
            "recipe": f"{recipe['learning_rate']:g}, {recipe['schedule'].replace('_', ' ')}",
            "training pairs": run["train_pairs"],
            "passes the gate at (s)": (round(fitted) if fitted is not None
                                       else f"not in {round(run['train_seconds'])}"),
            "best training": round(run["best_train"], 2),
            "best validation": round(run["best_validation"], 2),
            "validation bar": run["gate_in_distribution"]})
    if not rows:
        return pd.DataFrame()
    return (pd.DataFrame(rows).sort_values(["training pairs", "candidate", "network", "seed"],
                                           kind="stable").reset_index(drop=True))


# one colour per architecture in every PCFG SET figure
COLOURS = dict(zip(ARCHITECTURE_NAMES, [PALETTE[0], PALETTE[3], PALETTE[2]]))


def fit_figure(title: str = "Learning curves on the GPU"):
    """Validation accuracy against training seconds: left, every run of the gpu profile's
    sweep (27 processes sharing the GPU); right, the pilots (six runs sharing the GPU), today's
    trainer (dashed, crosses) against the early-stopping recipe (solid, dots). None when nothing
    is committed."""
    import matplotlib.pyplot as plt

    sweep, pilots = fit_curves("gpu"), pilot_curves()
    if sweep.empty and pilots.empty:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for (network, split, seed), run in (sweep.groupby(["network", "split", "seed"], sort=False)
                                        if not sweep.empty else []):
        first = split == "pcfgset" and seed == 0
        axes[0].plot(run["seconds"], run["validation_accuracy"], color=COLOURS[network],
                     alpha=0.6, linewidth=1, label=network if first else None)
    axes[0].set_title("gpu profile: 54 runs sharing the GPU", fontsize=10)
    for (network, trainer), run in (pilots.groupby(["network", "trainer"], sort=False)
                                    if not pilots.empty else []):
        # the two trainers differ in line and marker, so that the legend tells them apart
        axes[1].plot(run["seconds"], run["validation_accuracy"], color=COLOURS[network],
                     linestyle="-" if trainer == "new" else (0, (4, 2)),
                     marker="o" if trainer == "new" else "x", markersize=3,
                     label=f"{network}, {'recipe' if trainer == 'new' else 'today'}")
    axes[1].set_title("base task, six runs on the GPU: today's trainer against the recipe",
                      fontsize=10)
    for ax in axes:
        ax.set_xlabel("training time (s)")
        ax.axhline(FIT_THRESHOLD, color="grey", linewidth=0.8, linestyle=":")
        ax.set_ylim(-0.03, 1.03)
        ax.legend(fontsize=7, handlelength=3.5)
    axes[0].set_ylabel("validation accuracy (exact match)")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def ranking(row: pd.Series) -> str:
    """The architectures of ``row`` from best to worst, as ``"A > B > C"`` (those without a
    number left out; "—" when none has one)."""
    return " > ".join(row.dropna().sort_values(ascending=False).index) or "—"


def findings(committed: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The paper's qualitative findings checked against committed runs (chapter 12, Tables 2
    to 4): whether each within-architecture finding holds ("yes"/"no", in brackets where a run
    behind one of its two tests fails the fit gate), the architectures from best to worst on
    each test beside the paper's (a network in brackets where a run behind it fails the gate),
    and the share of its task accuracy each keeps on systematicity and productivity, ours and
    the paper's. Empty tables when there are no runs."""
    if committed.empty:
        return pd.DataFrame(), pd.DataFrame(), pd.DataFrame()
    published = pd.DataFrame(PAPER).T[list(ARCHITECTURE_NAMES)] / 100  # fractions, as ours
    ours = (pd.DataFrame(table_rows(committed.to_dict("records"))).set_index("test")
            [list(ARCHITECTURE_NAMES)]).astype(float)  # None (no run yet) becomes NaN
    # whether every run behind a test's number passes the fit gate (None: no run)
    records = committed.to_dict("records")
    gated = {}
    for test in TEST_SCORES:
        for network in ARCHITECTURE_NAMES:
            mine = [r for r in table_records(test, records) if r["network"] == network]
            gated[(test, network)] = all(passes(r) for r in mine) if mine else None
    checked = []
    for network in ARCHITECTURE_NAMES:
        o, p = ours[network], published[network]
        for finding, first, second in [
                ("task > systematicity", "task", "systematicity"),
                ("systematicity > productivity", "systematicity", "productivity"),
                ("consistency: equally distributed > primitive",
                 "substitutivity_equally_distributed", "substitutivity_primitive")]:
            known = pd.notna(o[first]) and pd.notna(o[second])
            holds = bool(o[first] > o[second]) if known else None
            countable = known and gated[(first, network)] and gated[(second, network)]
            checked.append({"finding": finding, "network": network,
                            "paper": bool(p[first] > p[second]), "holds": holds,
                            "countable": bool(countable),
                            "ours": "—" if holds is None else ("yes" if holds else "no")
                            if countable else f"({'yes' if holds else 'no'})"})
    table3a = (pd.DataFrame(checked).pivot(index="finding", columns="network", values="ours")
               [list(ARCHITECTURE_NAMES)].rename_axis(columns=None))

    def bracketed(test: str) -> str:
        """Our ranking on ``test``, a network in brackets where a run behind it fails the gate."""
        order = ranking(ours.loc[test])
        if order == "—":
            return order
        return " > ".join(n if gated[(test, n)] else f"({n})" for n in order.split(" > "))

    # the paper's ranking over the architectures we have numbers for, so that a partial sweep
    # compares like with like
    orderings = pd.DataFrame({"ours": [bracketed(t) for t in ours.index],
                              "paper": published.where(ours.notna()).apply(ranking, axis=1)},
                             index=ours.index)
    # which is best is a comparison only where at least two architectures have a number and
    # every run behind them passes the gate
    orderings["same best"] = [o.split(" > ")[0] == p.split(" > ")[0]
                              if " > " in o and "(" not in o else None
                              for o, p in zip(orderings["ours"], orderings["paper"])]
    kept = pd.DataFrame({
        f"{test} / task ({who})": (table.loc[test] / table.loc["task"]).round(2)
        for test in ["systematicity", "productivity"]
        for who, table in [("ours", ours), ("paper", published)]})
    kept.index.name = "network"
    return table3a, orderings, kept


# ---------------------------------------------------------------------------------------------
# The chapter's setting, and its figures by length


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


def _budgets(settings) -> str:
    """Each architecture's time budget in a profile, in words ("no time budget" without one):
    "20 minutes for LSTMS2S and ConvS2S; 30 minutes for Transformer"."""
    minutes: dict[float, list[str]] = {}
    for name in ARCHITECTURE_NAMES:
        if name not in settings.architectures:
            continue
        seconds = network_recipe(settings, name).get("max_seconds")
        if seconds:
            minutes.setdefault(seconds / 60, []).append(name)
    return "; ".join(f"{round(m, 1):g} minutes for {' and '.join(names)}"
                     for m, names in sorted(minutes.items())) or "no time budget"


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


def length_readings(network: str, profile: str) -> dict[str, list]:
    """Per seed of ``network``'s committed runs in ``profile``, the task's accuracy by thirds of
    input length (:func:`length_terciles`), the productivity control
    (:func:`productivity_below_task`, where both runs of a seed are committed) and whether the
    runs behind each reading pass the fit gate: ``{"terciles", "terciles_pass", "below",
    "below_pass"}``."""
    task = {r["seed"]: r for r in claim_records("task", network, profile)
            if isinstance(r.get("by_length"), dict)}
    productive = {r["seed"]: r for r in claim_records("productivity", network, profile)
                  if isinstance(r.get("by_length"), dict)}
    out: dict[str, list] = {"terciles": [], "terciles_pass": [], "below": [], "below_pass": []}
    for seed in sorted(task):
        out["terciles"].append(length_terciles(task[seed]["by_length"]))
        out["terciles_pass"].append(passes(task[seed]))
        if seed in productive:
            share = productivity_below_task(task[seed]["by_length"],
                                            productive[seed]["by_length"])
            if share is not None:
                out["below"].append(share)
                out["below_pass"].append(passes(task[seed]) and passes(productive[seed]))
    return out


def localism_mistake_records(network: str, profile: str) -> list[dict]:
    """``network``'s committed task runs of ``profile`` that recorded the share of localism's
    mistakes with a long unrolled step (``localism_long_steps``; runs scored before it was
    recorded, and runs without a mistake, have none)."""
    return [r for r in claim_records("localism", network, profile)
            if isinstance(r.get("localism_long_steps"), (int, float))
            and not math.isnan(r["localism_long_steps"])]


def network_ratio_records(network: str, ratio: float, profile: str) -> list[dict]:
    """``network``'s committed overgeneralisation runs of ``profile`` that trained with
    ``ratio`` exceptions (``0.005``: 0.5%) and recorded their peak."""
    return [r for r in ratio_records(_runs(profile).to_dict("records"), ratio)
            if r["network"] == network and isinstance(r.get("overgeneralisation_peak"), (int, float))
            and not math.isnan(r["overgeneralisation_peak"])]


def ratio_table(profile: str = "full") -> pd.DataFrame:
    """Overgeneralisation by exception ratio (the paper's Sec. 4.5: the rule is applied to the
    exceptions at 0.1%, hardly at all at 0.5%), from ``profile``'s committed runs: a row per
    architecture and ratio, with the mean peak share of the exceptions answered by the rule,
    the epoch of the peak, the share memorised at the end of training, how many runs there are
    and how many of them pass the fit gate.

    Parameters
    ----------
    profile : str
        A committed profile (``"full"``).

    Returns
    -------
    pandas.DataFrame
        Indexed by network and ratio (in %); empty without a run.
    """
    runs = _runs(profile)
    ratios = sorted(runs["ratio"].dropna().unique()) if "ratio" in runs else []
    rows = []
    for network in ARCHITECTURE_NAMES:
        for ratio in ratios:
            mine = network_ratio_records(network, float(ratio), profile)
            if not mine:
                continue
            rows.append({
                "network": network, "exceptions (%)": 100 * ratio,
                "peak (rule)": round(float(np.mean([r["overgeneralisation_peak"] for r in mine])), 3),
                "peak epoch": round(float(np.mean([r["peak_epoch"] for r in mine])), 1),
                "memorised at the end": round(float(np.mean([r["final_memorisation"]
                                                             for r in mine])), 3),
                "runs": len(mine), "fitted": sum(passes(r) for r in mine)})
    if not rows:
        return pd.DataFrame()
    return pd.DataFrame(rows).set_index(["network", "exceptions (%)"])


def length_table(profile: str = "full") -> pd.DataFrame:
    """The paper's findings about length and localism's mistakes (Sec. 4.2, Fig. 3; Sec. 4.4),
    read on each architecture's committed runs of ``profile`` that pass the fit gate (how many
    of its task runs do is the last column): the task's accuracy on the
    shortest, middle and longest third of its test inputs (:func:`length_terciles`, mean over
    seeds), the share of input lengths at which productivity is below the task
    (:func:`productivity_below_task`, mean over seeds), the share of localism's mistakes that
    have an unrolled step applied to more than five symbols (mean over the runs that recorded
    it), and how many of the runs behind the row pass the fit gate.

    Parameters
    ----------
    profile : str
        A committed profile (:data:`COMMITTED_PROFILES`).

    Returns
    -------
    pandas.DataFrame
        A row per architecture with runs; empty without any.
    """
    if profile not in COMMITTED_PROFILES:
        raise ValueError(f"length_table: profile must be one of {COMMITTED_PROFILES}, got "
                         f"{profile!r}")
    rows = []
    for network in ARCHITECTURE_NAMES:
        readings = length_readings(network, profile)
        if not readings["terciles"]:
            continue
        passed = readings["terciles_pass"]
        # only runs that pass the fit gate are read; a network without one says so
        thirds = [t for t, ok in zip(readings["terciles"], passed, strict=True) if ok]
        below = [b for b, ok in zip(readings["below"], readings["below_pass"], strict=True) if ok]
        long_steps = [r["localism_long_steps"] for r in localism_mistake_records(network, profile)
                      if passes(r)]
        mean_thirds = np.mean(thirds, axis=0) if thirds else [None] * 3
        rows.append({
            "network": network,
            **{f"{name} third (%)": (round(float(v), 1) if v is not None else "no fitted run")
               for name, v in zip(("shortest", "middle", "longest"), mean_thirds, strict=True)},
            "productivity below the task (share of lengths)": (
                round(float(np.mean(below)), 2) if below else "not measured"),
            "localism mistakes with a long step (share)": (
                round(float(np.mean(long_steps)), 2) if long_steps else "not measured"),
            "task runs passing the gate": f"{sum(passed)} of {len(passed)}"})
    return pd.DataFrame(rows).set_index("network") if rows else pd.DataFrame()


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


# ---------------------------------------------------------------------------------------------
# The paper's own networks (tutorlib.pcfgset.released): Table 1 recomputed and the figures

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


def side_by_side(profile: str = "full") -> pd.DataFrame:
    """Table 1 three ways, a row per test and three columns per architecture: the published
    number, the paper's released networks scored by us, and our networks at one ``profile``
    (the mean of its committed runs, in brackets where a run behind it did not fit its training
    data: shown, not a finding). All in %; "—" where there is no number."""
    theirs = released_scores().set_index(["row", "network"])["mean"]
    cells: dict[tuple[str, str], list[str]] = {}
    for network in ARCHITECTURE_NAMES:
        published, scored, ours = [], [], []
        for test in PAPER:
            published.append(f"{PAPER[test][network]:g}")
            value = theirs.get((test, network))
            scored.append("—" if value is None or pd.isna(value) else f"{value:.1f}")
            mean, _, fitted = claim_fit(test, network, profile)
            ours.append("—" if mean is None else f"{mean:.1f}" if fitted else f"({mean:.1f})")
        cells[(network, "published")] = published
        cells[(network, "paper's networks, scored by us")] = scored
        reduction = profiles.settings("pcfgset", profile).reduction
        cells[(network, f"ours ({profile} profile" + (f", reduced task {reduction})"
                                                       if reduction else ")"))] = ours
    frame = pd.DataFrame(cells, index=pd.Index(list(PAPER), name="test"))
    frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["network", "source"])
    return frame


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
