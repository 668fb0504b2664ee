"""What the ORCHARD chapter, its appendix and the claims page read from the runs: each run's
fit on each tree, the figure by depth of the runs that fit, the committed profile a claim is
read from, the CPU pilots, and how our setting differs from the paper's. The chapters write
their own sentences; this module returns numbers, tables, figures and verdict words.

Each function reads run records (:func:`tutorlib.orchard.experiments.run`) or the table
:func:`tutorlib.orchard.experiments.by_depth_table` makes of them (a row per variant, model,
seed, tree and depth, with ``accuracy (%)``).

**A network is compared only after it has learned.** A run *fits* when it gets at least
:data:`FIT_THRESHOLD` of the first and of the second trees right on its own training examples
and on validation examples of the training depths (3 to 6) it was not trained on
(:func:`run_fit`). A claim read from runs that do not fit is *untested*, whatever the number;
a comparison between the models is one of generalisation only where both fit. A claim about
one tree reads that tree's fit; the full profile's runs (a reduction: trained on depths 3 to 4)
are trained to fit the first tree alone (:func:`gate_tree`), and a level read from them is not
compared with the paper's (:func:`reduced`).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from tutorlib import fit as gate
from tutorlib import results
from tutorlib import seq2seq as s2s
from tutorlib.colours import PALETTE
from tutorlib.orchard.experiments import (
    CHANCE,
    MODELS,
    PAPER,
    by_depth_table,
    committed_records,
    run_settings,
    vocabularies,
)
from tutorlib.orchard.generator import TRAIN_DEPTHS
from tutorlib.profiles import network_recipe

NAMES = {"lstm": "LSTM", "transformer": "Transformer"}
# A run fits when it gets at least this share of the first and of the second trees right on its
# training examples and on validation examples of the training depths.
FIT_THRESHOLD = gate.TRAINING  # the gate's bar, drawn on the figures
# The committed profiles a claim may be read from, the one nearest the paper's setting first.
CLAIM_PROFILES = ("gpu", "full")


def _trees(tree: str) -> tuple[str, ...]:
    if tree not in ("first", "second", "both"):
        raise ValueError(f"tree must be 'first', 'second' or 'both', got {tree!r}")
    return ("first", "second") if tree == "both" else (tree,)


def run_fit(record: dict, tree: str = "both") -> float:
    """A run's fit: the lowest of its accuracies (fractions) on ``tree`` (the first, the second,
    or both, the lower of the two), on its own training examples and on validation examples of
    the training depths (the parts it has: three early full-profile records have no validation
    scores).

    Examples
    --------
    >>> record = {"train": {"first": 1.0, "second": 0.95}, "valid": {"first": 0.99, "second": 0.91}}
    >>> run_fit(record), run_fit(record, "first")
    (0.91, 0.99)
    """
    return min(record[part][name] for part in ("train", "valid") if part in record
               for name in _trees(tree))


def fits(record: dict, tree: str = "both") -> bool:
    """Whether a run has learned its training distribution on ``tree``, by the book's one fit
    gate (:func:`tutorlib.fit.passes`): its accuracy on its own training examples and on
    validation examples of the training depths (the lower of the two trees for ``"both"``; a
    claim about the first tree is tested on the first tree's fit). ORCHARD's paper gives no
    in-distribution number (both networks "perform well" at depths 3-6), so the bar in
    distribution is :data:`tutorlib.fit.IN_DISTRIBUTION`. A run without validation scores cannot
    show that it fits."""
    if "valid" not in record:
        return False
    names = _trees(tree)
    return gate.passes(min(record["train"][name] for name in names),
                       min(record["valid"][name] for name in names))


def gate_tree(record: dict) -> str:
    """The trees whose fit a run was trained to (``stop_tree`` of its settings): ``"first"`` for
    a run of the full profile, which stops once its first tree fits, else ``"both"``."""
    return record.get("stop_tree", "both")


def train_depths(record: dict) -> tuple[int, int]:
    """The depths a run was trained (and validated) on: the release's 3 to 6 unless the run
    says otherwise (the full profile's reduction: 3 to 4)."""
    return tuple(record.get("train_depths", TRAIN_DEPTHS))


def trained_for(records: list[dict], tree: str) -> bool:
    """Whether every run was trained to fit ``tree`` (a run trained to fit the first tree alone
    is not one to read a claim about the second tree or both from, where another profile's runs
    were trained for it)."""
    _trees(tree)
    return all(gate_tree(r) in ("both", tree) for r in records)


def reduced(records: list[dict]) -> bool:
    """Whether any of the runs was trained on other depths than the paper's 3 to 6: a reduction
    of its task, whose levels the claims page does not compare with the paper's."""
    return any(train_depths(r) != tuple(TRAIN_DEPTHS) for r in records)


def _mean(records: list[dict], part: str, tree: str) -> float:
    """Mean accuracy (%) of the records that have ``part``; NaN if none has."""
    values = [r[part][tree] for r in records if part in r]
    return 100 * float(np.mean(values)) if values else float("nan")


def _by_variant_and_model(records: list[dict]) -> list[tuple[tuple[str, str], list[dict]]]:
    """The records grouped by (variant, model), in sorted order."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for record in records:
        groups.setdefault((record["variant"], record["model"]), []).append(record)
    return sorted(groups.items())


def fit_table(records_by_profile: dict[str, list[dict]]) -> pd.DataFrame:
    """Each model's fit on each variant, per profile: the mean accuracy (%) on training and
    validation examples of the training depths, first and second tree, the depths and the
    trees the runs were trained to fit (:func:`gate_tree`), the lowest fit on those trees and
    how many runs fit them.

    Parameters
    ----------
    records_by_profile : dict of str to list of dict
        Profile name -> its run records.

    Returns
    -------
    pandas.DataFrame
        Indexed by profile, variant and model; the mean over seeds, ``training depths``,
        ``gate on``, the lowest run's fit and ``fitted`` as "k of n" runs.
    """
    rows = []
    for profile, records in records_by_profile.items():
        for (variant, model), runs in _by_variant_and_model(records):
            rows.append({
                "profile": profile, "variant": variant, "model": model, "runs": len(runs),
                **{f"{name}, {tree} (%)": _mean(runs, part, tree)
                   for part, name in (("train", "training"), ("valid", "validation"))
                   for tree in ("first", "second")},
                "training depths": "-".join(map(str, train_depths(runs[0]))),
                "gate on": gate_tree(runs[0]),
                "lowest fit (%)": 100 * min(run_fit(r, gate_tree(r)) for r in runs),
                "fitted": f"{sum(fits(r, gate_tree(r)) for r in runs)} of {len(runs)}"})
    columns = ["profile", "variant", "model", "runs", "training, first (%)",
               "training, second (%)", "validation, first (%)", "validation, second (%)",
               "training depths", "gate on", "lowest fit (%)", "fitted"]
    return pd.DataFrame(rows, columns=columns).set_index(["profile", "variant", "model"])


def committed_by_profile(profiles=CLAIM_PROFILES) -> dict[str, list[dict]]:
    """The committed run records of each profile that has some (``results/orchard/``)."""
    found = {profile: committed_records(profile) for profile in profiles}
    return {profile: records for profile, records in found.items() if records}


def best_profile(model: str, variant: str,
                 by_profile: dict[str, list[dict]] | None = None,
                 tree: str = "both", level: bool = False) -> tuple[str, list[dict]] | None:
    """The committed profile to read ``model`` on ``variant`` from, and its runs: one whose runs
    were trained to fit ``tree`` (:func:`trained_for`) before one whose were not, then one whose
    runs all pass the fit gate on ``tree`` before one whose runs do not, then (for a ``level``,
    which only the paper's task can judge) one not trained on a reduction (:func:`reduced`),
    then the one with more runs (a finished profile before one a sweep has only begun), then the
    best mean :func:`run_fit` (ties go to the first of :data:`CLAIM_PROFILES`); ``None`` when no
    profile has a run."""
    by_profile = committed_by_profile() if by_profile is None else by_profile
    best = None
    for profile, records in by_profile.items():
        runs = [r for r in records if r["model"] == model and r["variant"] == variant]
        if not runs:
            continue
        rank = (trained_for(runs, tree), all(fits(r, tree) for r in runs),
                level and not reduced(runs), len(runs),
                float(np.mean([run_fit(r, tree) for r in runs])))
        if best is None or rank > best[0]:
            best = (rank, profile, runs)
    return None if best is None else (best[1], best[2])


def claim_reading(model: str, variant: str, tree: str, depth: int | tuple[int, ...] = 12,
                  by_profile: dict[str, list[dict]] | None = None,
                  level: bool = False) -> dict | None:
    """What the claims page reads for ``model`` on ``variant`` (a ``level``, or a member of an
    ordering: :func:`best_profile`): the mean accuracy (%) on
    ``tree`` at ``depth`` (or averaged over a tuple of depths) from :func:`best_profile`'s runs,
    each run's own accuracy (``values``), how many runs, whether all fit on ``tree`` (a claim
    about one tree is tested on that tree's fit), the lowest fit (``fit``, a fraction), the
    profile, whether its runs trained on a reduction (:func:`reduced`) and whether they were
    trained to fit ``tree`` (:func:`trained_for`); ``None`` without a committed run."""
    found = best_profile(model, variant, by_profile, tree, level)
    if found is None:
        return None
    profile, runs = found
    depths = (depth,) if isinstance(depth, int) else tuple(depth)
    values = [100 * float(np.mean([r["by_depth"][str(d)][tree] for d in depths])) for r in runs]
    return {"value": float(np.mean(values)), "values": values, "runs": len(runs),
            "fitted": all(fits(r, tree) for r in runs),
            # each run's fit and the gate on it, for the verdict engine's rule on every run
            "fits": [run_fit(r, tree) for r in runs], "passed": [fits(r, tree) for r in runs],
            "fit": min(run_fit(r, tree) for r in runs), "profile": profile,
            "reduced": reduced(runs), "trained_for": trained_for(runs, tree)}


def gpu_sweeps() -> dict:
    """What the GPU sweeps of the ``gpu`` profile left besides their records
    (``results/orchard/gpu-sweeps.json``): why runs did not finish, and how far they got;
    empty when the file is not there."""
    path = results.project_results("orchard", "gpu-sweeps.json")
    return json.loads(path.read_text()) if path.exists() else {}


#: The committed CPU pilots of the gpu profile's recipe (``benchmarks/orchard_pilot.py``), by
#: their training budget: ``results/orchard/<file>``.
PILOT_FILES = {"15 minutes": "pilot-cpu.json", "1 hour": "pilot-cpu-hour.json"}


def cpu_pilots() -> dict[str, dict[str, dict]]:
    """The committed CPU pilots, by budget (:data:`PILOT_FILES`): each a dict of
    ``"variant/model"`` to its run record; budgets without a file are left out."""
    return _committed_pilots(PILOT_FILES)


def _committed_pilots(files: dict[str, str]) -> dict[str, dict[str, dict]]:
    """``{label: {"variant/model": record}}`` of the committed pilot files ``{label: file}``
    (``results/orchard/<file>``); labels without a file are left out."""
    found = {}
    for label, name in files.items():
        path = results.project_results("orchard", name)
        if path.exists():
            found[label] = json.loads(path.read_text(encoding="utf-8"))
    return found


def pilot_table(pilots: dict[str, dict[str, dict]]) -> pd.DataFrame:
    """A row per pilot run (budget, variant, model): its size, epochs and speed, its accuracy
    (%) on each tree of its training and validation examples and at depth 12, its fit and
    whether it fits (:func:`fits`)."""
    rows = []
    for budget, runs in pilots.items():
        for record in runs.values():
            rows.append({
                "budget": budget, "variant": record["variant"], "model": NAMES[record["model"]],
                "parameters": int(record["parameters"]), "epochs": record["epochs"],
                "pairs per second": record["fit"]["pairs_per_second"],
                **{f"{part}, {tree} (%)": 100 * record[part][tree]
                   for part in ("train", "valid") for tree in ("first", "second")},
                **{f"depth 12, {tree} (%)": 100 * record["by_depth"]["12"][tree]
                   for tree in ("first", "second")},
                "fit (%)": 100 * run_fit(record), "fits": fits(record)})
    return pd.DataFrame(rows)


#: The fit-first pilots: how long each model takes on one core to pass the fit
#: gate at the training depths, by variant (``benchmarks/orchard_pilot.py``, 40,000 training
#: examples, hidden 128), ``results/orchard/<file>``.
FIT_FIRST_PILOT_FILES = ("pilot-cpu-easy.json", "pilot-cpu-warmup.json",
                         "pilot-cpu-shallow.json")


def _all_pilots() -> list[dict]:
    """Every committed CPU pilot run (:data:`PILOT_FILES` and :data:`FIT_FIRST_PILOT_FILES`)."""
    files = {**{name: name for name in PILOT_FILES.values()},
             **{name: name for name in FIT_FIRST_PILOT_FILES}}
    return [record for runs in _committed_pilots(files).values() for record in runs.values()]


def _pilot_depths(record: dict) -> str:
    low, high = record.get("config", {}).get("train_depths", TRAIN_DEPTHS)
    return f"{low}-{high}"


def pilot_reason(tree: str, keys, pilots: list[dict] | None = None) -> str:
    """Why a claim on ``tree`` of the networks ``keys`` is untested, in one line, from the
    committed CPU pilots: for each (model, variant) the pilot run that came nearest the fit gate
    on that tree (the lower of its accuracies on training and validation examples, %), with its
    training depths and minutes of one core, or that none was piloted.

    Parameters
    ----------
    tree : {"first", "second", "both"}
        The tree the claim reads (its fit is what the gate asks for).
    keys : iterable of (str, str)
        The (model, variant) pairs the claim reads.
    pilots : list of dict, optional
        Pilot run records; default: every committed one.

    Returns
    -------
    str
        One sentence; "" when none of ``keys`` was piloted.

    Examples
    --------
    >>> run = {"variant": "minmax_hard", "model": "lstm", "train_seconds": 600,
    ...        "train": {"first": 1.0, "second": 0.5}, "valid": {"first": 0.97, "second": 0.4}}
    >>> for part in pilot_reason("second", [("lstm", "minmax_hard")], [run]).split(" ("):
    ...     print(part)
    on one core, no CPU pilot fitted the second tree of LSTM minmax hard
    nearest the gate: 40.0%, depths 3-6, 10 min)
    """
    _trees(tree)
    pilots = _all_pilots() if pilots is None else pilots
    which = "both trees" if tree == "both" else f"the {tree} tree"
    shown, fitted, untried = [], [], []
    for model, variant in keys:
        runs = [r for r in pilots if r["model"] == model and r["variant"] == variant
                and "valid" in r]
        name = f"{NAMES[model]} {variant.replace('_', ' ')}"
        if not runs:
            untried.append(name)
            continue
        passing = [r for r in runs if fits(r, tree)]
        if passing:  # the quickest to fit
            best = min(passing, key=lambda r: r["train_seconds"])
            fitted.append(f"{name} in {best['train_seconds'] / 60:.0f} min (depths "
                          f"{_pilot_depths(best)})")
        else:
            best = max(runs, key=lambda r: run_fit(r, tree))
            shown.append(f"{name} (nearest the gate: {100 * run_fit(best, tree):.1f}%, depths "
                         f"{_pilot_depths(best)}, {best['train_seconds'] / 60:.0f} min)")
    if not shown and not fitted:
        return ""
    bits = []
    if shown:
        bits.append(f"on one core, no CPU pilot fitted {which} of {'; '.join(shown)}")
    if fitted:
        bits.append(f"{'' if shown else 'on one core, '}CPU pilots fitted {which} of "
                    f"{', '.join(fitted)}" + ("" if shown else "; the committed runs the "
                                                "claim reads did not all fit"))
    if untried:
        bits.append(f"not piloted: {', '.join(untried)}")
    return "; ".join(bits)


def fits_committed(tree: str, model: str, variant: str,
                   by_profile: dict[str, list[dict]] | None = None) -> bool:
    """Whether the committed runs of ``model`` on ``variant`` that a claim on ``tree`` reads
    (:func:`best_profile`) all fit ``tree``; False without a run.

    Parameters
    ----------
    tree : {"first", "second", "both"}
        The tree the claim reads.
    model, variant : str
        The network.
    by_profile : dict, optional
        :func:`committed_by_profile`; default: the committed runs.

    Returns
    -------
    bool

    Examples
    --------
    >>> run = {"variant": "minmax_medium", "model": "lstm", "train": {"first": 1, "second": 0.7},
    ...        "valid": {"first": 1, "second": 0.6}}
    >>> [fits_committed(t, "lstm", "minmax_medium", {"gpu": [run]}) for t in ("first", "both")]
    [True, False]
    """
    found = best_profile(model, variant, by_profile, tree)
    return found is not None and all(fits(r, tree) for r in found[1])


def committed_reason(tree: str, keys, by_profile: dict[str, list[dict]] | None = None) -> str:
    """Why a claim on ``tree`` of the networks ``keys`` is untested, from the committed runs it
    reads (for networks no CPU pilot tried): each (model, variant) whose runs do not all fit
    ``tree``, with its profile and lowest fit; "" when every one fits or has no run.

    Examples
    --------
    >>> run = {"variant": "minmax_medium", "model": "lstm", "train": {"first": 1, "second": 0.7},
    ...        "valid": {"first": 1, "second": 0.6}}
    >>> committed_reason("both", [("lstm", "minmax_medium")], {"gpu": [run]})
    'its committed runs did not fit both trees: LSTM minmax medium (gpu profile, lowest 60.0%)'
    """
    which = "both trees" if tree == "both" else f"the {tree} tree"
    gaps = []
    for model, variant in keys:
        found = best_profile(model, variant, by_profile, tree)
        if found is None or all(fits(r, tree) for r in found[1]):
            continue
        profile, runs = found
        gaps.append(f"{NAMES[model]} {variant.replace('_', ' ')} ({profile} profile, lowest "
                    f"{100 * min(run_fit(r, tree) for r in runs):.1f}%)")
    return f"its committed runs did not fit {which}: {'; '.join(gaps)}" if gaps else ""


def _passed_at(record: dict, tree: str) -> float | None:
    """The training seconds at which a pilot first passed the fit gate on ``tree`` at an
    evaluation: on each tree's checks where its history scored them (newer pilots), else on the
    trainer's samples of the whole label; None if it never did."""
    names = ("first", "second") if tree == "both" else (tree,)
    for point in record.get("fit_history") or []:
        if all(f"train_{n}" in point for n in names):
            train = min(point[f"train_{n}"] for n in names)
            valid = min(point[f"valid_{n}"] for n in names)
        elif tree == "both":
            train, valid = point["train_accuracy"], point["validation_accuracy"]
        else:
            continue
        if gate.passes(train, valid):
            return point["seconds"]
    return None


def time_to_fit(pilots: dict[str, dict[str, dict]] | None = None) -> pd.DataFrame:
    """How long each fit-first pilot run took to pass the fit gate at its training depths, on
    the trees it stops on (both, unless it stops on the first tree alone), or that it did not
    within its budget; with its warm-up and its own checks of each tree at the end (%).

    Parameters
    ----------
    pilots : dict, optional
        ``{file: {"variant/model...": record}}``; default: the committed
        :data:`FIT_FIRST_PILOT_FILES`.

    Returns
    -------
    pandas.DataFrame
        A row per pilot run; empty without any.
    """
    if pilots is None:
        pilots = _committed_pilots({name: name for name in FIT_FIRST_PILOT_FILES})
    rows = []
    for runs in pilots.values():
        for record in runs.values():
            recipe = record.get("recipe") or {}
            budget = recipe.get("max_seconds")
            tree = record.get("config", {}).get("stop_tree", "both")
            passed = _passed_at(record, tree)
            rows.append({
                "variant": record["variant"], "model": NAMES[record["model"]],
                "training depths": _pilot_depths(record),
                "parameters": int(record["parameters"]),
                "warm-up steps": recipe.get("warmup_steps"), "gate on": tree,
                "passes the gate at (s)": (round(passed) if passed is not None
                                           else f"not in {budget:.0f}" if budget else "no"),
                "epochs": round(float(record["epochs"]), 1),
                **{f"{tree_name} tree, training / validation (%)":
                   f"{100 * record['train'][tree_name]:.1f} / {100 * record['valid'][tree_name]:.1f}"
                   for tree_name in ("first", "second")},
                "fits": fits(record, tree)})
    return pd.DataFrame(rows)


def time_to_fit_facts(table: pd.DataFrame) -> dict[str, str]:
    """What :func:`time_to_fit`'s table says about the second tree of the variants with COPY
    (``copy_pilot_text``): which pilots fitted both trees of one, if any."""
    copy = table[~table["variant"].str.endswith("_easy")] if len(table) else table
    both = copy[(copy["gate on"] == "both") & copy["fits"]] if len(copy) else copy
    if not len(copy):
        return {"copy_pilot_text": "No pilot has trained on a variant with `COPY` yet."}
    if not len(both):
        return {"copy_pilot_text": (
            "No CPU pilot has fitted both trees of a variant with `COPY` within its budget, so "
            "the comparisons of both trees on the claims page read the gpu profile's runs.")}
    names = "; ".join(f"{r['model']} on {r['variant'].replace('_', ' ')} (depths "
                      f"{r['training depths']}, {r['passes the gate at (s)']} s)"
                      for r in both.to_dict("records"))
    return {"copy_pilot_text": f"Pilots that fitted both trees of a variant with `COPY`: {names}."}


def plot_pilot_curves(pilots: dict[str, dict[str, dict]], title: str):
    """The pilots' fit over training: the share of training and of validation examples (depths
    3-6) with both trees right, against the seconds trained, a colour per model and a line
    style per budget. Returns the figure."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 3.8), layout="constrained")
    colours = {"lstm": PALETTE[0], "transformer": PALETTE[3]}
    styles = dict(zip(pilots, ["--", "-", ":"]))
    for budget, runs in pilots.items():
        for record in runs.values():
            history = pd.DataFrame(record["fit_history"])
            ax.plot(history["seconds"] / 60, 100 * history["validation_accuracy"],
                    color=colours[record["model"]], ls=styles[budget],
                    label=f"{NAMES[record['model']]}, {budget}: validation")
            ax.plot(history["seconds"] / 60, 100 * history["train_accuracy"],
                    color=colours[record["model"]], ls=styles[budget], alpha=0.4,
                    label=f"{NAMES[record['model']]}, {budget}: training")
    ax.axhline(100 * FIT_THRESHOLD, color="0.5", lw=0.8, ls=":")
    ax.set(xlabel="minutes of training (one core)", ylabel="both trees right (%)",
           ylim=(0, 100), title=title)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def plot_fitted_by_depth(records: list[dict], title: str, train_depths=TRAIN_DEPTHS):
    """Accuracy by depth of the runs that fit: one panel per variant, a colour per model, a line
    style per tree (first solid, second dashed). A model's curve on a tree is drawn only where
    every one of its runs on the variant passes the fit gate on that tree (:func:`fits`), so
    the figure shows no number from a network that did not learn.

    Parameters
    ----------
    records : list of dict
        One profile's run records.
    title : str
        The figure's title (name the profile in it).
    train_depths : (int, int)
        The training depths, shaded.

    Returns
    -------
    matplotlib.figure.Figure
        Six variants in two rows (MIN-MAX, FIRST-LAST) of three (easy, medium, hard); fewer in
        one row. Chance (10%) is dotted; a panel where no model fits a tree says so.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    variants = sorted({r["variant"] for r in records},
                      key=lambda v: (v.split("_")[0] != "minmax",
                                     ("easy", "medium", "hard").index(v.split("_")[1])))
    rows, columns = (2, 3) if len(variants) == 6 else (1, len(variants))
    fig, axes = plt.subplots(rows, columns, figsize=(3.3 * columns, 2.7 * rows + 0.9),
                             sharex=True, sharey=True, squeeze=False, layout="constrained")
    table = by_depth_table(records)
    means = table.groupby(["variant", "model", "tree", "depth"])["accuracy (%)"].mean()
    colours = {"lstm": PALETTE[0], "transformer": PALETTE[3]}
    styles = {"first": "-", "second": "--"}
    shown = set()  # the (model, tree) pairs drawn somewhere: the legend's entries
    for ax, variant in zip(axes.flat, variants):
        ax.axvspan(train_depths[0] - 0.5, train_depths[1] + 0.5, color="0.92", zorder=0)
        ax.axhline(CHANCE, color="0.5", ls=":", lw=1)
        drawn = 0
        for model in MODELS:
            runs = [r for r in records if r["variant"] == variant and r["model"] == model]
            for tree in ("first", "second"):
                if runs and all(fits(r, tree) for r in runs):
                    curve = means.loc[(variant, model, tree)]
                    ax.plot(curve.index, curve.values, color=colours[model], ls=styles[tree],
                            marker="o" if tree == "first" else "s", ms=3.5)
                    drawn += 1
                    shown.add((model, tree))
        if not drawn:
            ax.text(0.5, 0.5, "no model fits\neither tree", ha="center", va="center",
                    transform=ax.transAxes, color="0.4", fontsize=9)
        ax.set_title(variant, fontsize=10)
        ax.set_ylim(-3, 103)
        ax.set_xticks(sorted(set(table["depth"])))
    for ax in axes[-1]:
        ax.set_xlabel("depth of both trees")
    for ax in axes[:, 0]:
        ax.set_ylabel("accuracy (%)")
    handles = [Line2D([], [], color=colours[m], ls=styles[t], marker="o" if t == "first" else "s",
                      ms=3.5, label=f"{NAMES[m]}, {t} tree")
               for m in MODELS for t in ("first", "second") if (m, t) in shown]
    handles.append(Line2D([], [], color="0.5", ls=":", label="chance (10%)"))
    fig.legend(handles=handles, loc="outside lower center", ncol=5, fontsize=8, frameon=False)
    fig.suptitle(title)
    return fig


def _epochs(settings) -> str:
    """Passes over the training set, per model where the models differ (for a profile trained
    to convergence, its rule: until the gate's trees fit, at most so many epochs and minutes)."""
    config = run_settings(settings["variants"][0], "lstm", settings)
    if "recipe" in config:
        recipe = config["recipe"]
        until = ("until the first tree fits" if settings["stop_tree"] == "first"
                 else "until both trees fit" if recipe.get("stop_at")
                 else "until validation stops improving")
        budget = (f", {recipe['max_seconds'] / 60:g} minutes" if recipe.get("max_seconds")
                  else "")
        return f"{until} (at most {recipe['max_epochs']} epochs{budget})"
    per_model = {model: run_settings(settings["variants"][0], model, settings)["presentations"]
                 / settings["train_size"] for model in settings["models"]}
    if len(set(per_model.values())) == 1:
        return f"{next(iter(per_model.values())):g}"
    return ", ".join(f"{model} {value:g}" for model, value in per_model.items())


def _transformer_training(settings) -> str:
    """A profile's Transformer training in a few words."""
    config = run_settings(settings["variants"][0], "transformer", settings)
    config = {**config, **config.get("recipe", {})}  # a convergence recipe is one field
    return (f"learning rate {config['learning_rate']:g}, warmup "
            f"{config.get('warmup_steps', 0)} steps, {config.get('embedding_init', 'pytorch')} "
            f"embedding initialisation")


def _parameters(settings) -> dict[str, int]:
    source, target = vocabularies()
    return {name: sum(p.numel() for p in s2s.build_model(s2s.Seq2SeqConfig(**config),
                                                         len(source), len(target)).parameters())
            for name, config in settings["models"].items()}


def _variants(names: list[str]) -> str:
    return "all six" if len(names) == 6 else ", ".join(names)


def _hardware(settings) -> str:
    """Where a profile's runs train, in a few words: one CPU core a run, and the budget."""
    recipe = network_recipe(settings, "transformer")
    seconds = recipe.get("max_seconds")
    return "CPU, one core a run" + (f", at most {seconds / 60:g} minutes" if seconds else "")


def setting_table(full) -> pd.DataFrame:
    """Every difference between the paper's setting and ours: the paper and the full profile, a
    column each.

    Parameters
    ----------
    full : tutorlib.profiles.Settings
        The full profile's ``orchard`` settings.

    Returns
    -------
    pandas.DataFrame
        A row per aspect (variants, training depths and examples, epochs, sizes, decoding,
        hardware...).
    """
    paper = PAPER["training"]
    full_parameters = _parameters(full)

    def column(s, parameters, hardware, test_size) -> dict[str, str]:
        return {"variants": _variants(s["variants"]),
                "training depths": "-".join(map(str, s["train_depths"])),
                "training examples": f"{s['train_size']:,}", "epochs": _epochs(s),
                "batch size": f"{network_recipe(s, 'lstm')['batch_size']}",
                "LSTM parameters": f"{parameters['lstm'] / 1e6:.3f}M",
                "Transformer parameters": f"{parameters['transformer'] / 1e6:.3f}M",
                "decoding": "greedy", "checkpoint": "last", "hardware": hardware,
                "test examples per depth bin": test_size,
                "Transformer training": _transformer_training(s),
                "seeds": f"{len(s['seeds'])}"}

    return pd.DataFrame({
        "Pung & Chan (2021)": {
            "variants": "all six", "training depths": "-".join(map(str, TRAIN_DEPTHS)),
            "training examples": f"{paper['examples']:,}", "epochs": f"{paper['epochs']}",
            "batch size": f"{paper['batch_size']}",
            "LSTM parameters": f"{paper['lstm_parameters'] / 1e6:.1f}M",
            "Transformer parameters": f"{paper['transformer_parameters'] / 1e6:.1f}M",
            "decoding": paper["decoding"], "checkpoint": paper["checkpoint"],
            "hardware": f"{paper['gpus']} GPUs, {paper['hours']} hours",
            "test examples per depth bin": "the release's test sets",
            "Transformer training": "fairseq", "seeds": "-"},
        "our full profile": column(full, full_parameters, _hardware(full),
                                   f"{full['test_size']:,}"),
    })


