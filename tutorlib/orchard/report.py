"""What the ORCHARD chapter shows about its runs: the figure by depth, each run's fit, the
paper's claims beside ours, how our setting differs from the paper's, and the facts the prose
states.

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
from tutorlib.orchard.experiments import (
    CHANCE,
    MODELS,
    PAPER,
    TREES,
    by_depth_table,
    committed_records,
    run_settings,
    vocabularies,
)
from tutorlib.orchard.experiments import runs as runs_of
from tutorlib.orchard.generator import TRAIN_DEPTHS
from tutorlib.profiles import network_recipe
from tutorlib.profiles import settings as settings_of

NAMES = {"lstm": "LSTM", "transformer": "Transformer"}
# The last training depth: the edge the prose compares the deepest bin with.
EDGE = TRAIN_DEPTHS[1]
# A run fits when it gets at least this share of the first and of the second trees right on its
# training examples and on validation examples of the training depths.
FIT_THRESHOLD = gate.TRAINING  # the gate's bar, drawn on the figures
# The committed profiles a claim may be read from, the one nearest the paper's setting first.
CLAIM_PROFILES = ("gpu", "full")
# The claims of Pung & Chan (2021) the chapter checks, and what the paper reports.
CLAIMS = {
    "both models fall as depth grows past the training range": "yes",
    "LSTM beats the Transformer on deep first trees (hard variants)":
        "86.7% / 88.7% vs 54.1% / 48.3% (MIN-MAX / FIRST-LAST, depth 12)",
    "the Transformer is no better than chance (10%) on the second tree at depth 12 (hard "
    "variants)": "yes: 'no better than random' with references between the trees",
    "both models fail on the second tree of the hard variants": "yes",
    "the Transformer is ahead of the LSTM inside the training range (depths 3-6, medium and "
    "hard variants)": "yes",
    "MIN-MAX against FIRST-LAST (first tree, depth 12, hard)":
        "LSTM 86.7% vs 88.7%, Transformer 54.1% vs 48.3%",
    "COPY makes every variant harder": "yes (easy > medium > hard)",
}


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


def fit_summary(records: list[dict]) -> str:
    """Which variants each model fits, in words: where all its runs fit, where some do, or
    none (each run on the trees it was trained to fit, :func:`gate_tree`; "fits its first tree"
    where every run of the model was trained to fit the first tree alone).

    Examples
    --------
    >>> run = {"variant": "minmax_easy", "model": "lstm", "train": {"first": 1, "second": 1},
    ...        "valid": {"first": 1, "second": 1}}
    >>> fit_summary([run])
    'the LSTM fits on minmax_easy; the Transformer has no run'
    """
    parts = []
    for model in MODELS:
        runs = [r for r in records if r["model"] == model]
        if not runs:
            parts.append(f"the {NAMES[model]} has no run")
            continue
        variants = sorted({r["variant"] for r in runs})
        every = [v for v in variants
                 if all(fits(r, gate_tree(r)) for r in runs if r["variant"] == v)]
        some = [v for v in variants if v not in every
                and any(fits(r, gate_tree(r)) for r in runs if r["variant"] == v)]
        if not every and not some:
            parts.append(f"the {NAMES[model]} fits on no variant")
            continue
        if not every:
            parts.append(f"the {NAMES[model]} fits only in some runs, on {', '.join(some)}")
            continue
        first_only = all(gate_tree(r) == "first" for r in runs)
        parts.append(f"the {NAMES[model]} fits{' its first tree' if first_only else ''} on "
                     f"{', '.join(every)}"
                     + (f" (and in some runs on {', '.join(some)})" if some else ""))
    return "; ".join(parts)


def committed_by_profile(profiles=CLAIM_PROFILES) -> dict[str, list[dict]]:
    """The committed run records of each profile that has some (``results/orchard/``)."""
    found = {profile: committed_records(profile) for profile in profiles}
    return {profile: records for profile, records in found.items() if records}


def fit_gate(records: list[dict], models, variants, tree: str = "both") -> str | None:
    """``None`` when every run of ``models`` on ``variants`` fits on ``tree``; else why a claim
    about them is untested: the models whose runs do not, with their lowest fit.

    Examples
    --------
    >>> run = {"variant": "minmax_hard", "model": "lstm", "train": {"first": 1, "second": 1},
    ...        "valid": {"first": 0.95, "second": 0.4}}
    >>> fit_gate([run], ["lstm"], ["minmax_hard"])
    'untested, did not fit (lowest in-distribution accuracy: LSTM 40%)'
    """
    unfit = []
    for model in models:
        runs = [r for r in records if r["model"] == model and r["variant"] in variants]
        if runs and not all(fits(r, tree) for r in runs):
            unfit.append(f"{NAMES[model]} {100 * min(run_fit(r, tree) for r in runs):.0f}%")
    if not unfit:
        return None
    which = "" if tree == "both" else f" on the {tree} tree"
    return f"untested, did not fit{which} (lowest in-distribution accuracy: {', '.join(unfit)})"


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
            "fit": min(run_fit(r, tree) for r in runs), "profile": profile,
            "reduced": reduced(runs), "trained_for": trained_for(runs, tree)}


def fitted_by_depth(by_profile: dict[str, list[dict]], depths=(EDGE, 12)) -> pd.DataFrame:
    """What the runs that fit do past the training depths: for each profile, variant and model
    whose runs all fit, the mean accuracy (%) on each tree at each of ``depths``.

    Parameters
    ----------
    by_profile : dict of str to list of dict
        Profile name -> its run records (:func:`committed_by_profile`).
    depths : tuple of int
        The depth bins shown (default: the training edge and the paper's depth 12).

    Returns
    -------
    pandas.DataFrame
        Indexed by profile, variant and model; empty when no run fits.
    """
    rows = []
    for profile, records in by_profile.items():
        for (variant, model), runs in _by_variant_and_model(records):
            if not all(fits(r) for r in runs):
                continue
            table = by_depth_table(runs)
            rows.append({"profile": profile, "variant": variant, "model": model,
                         "runs": len(runs),
                         **{f"{tree}, depth {depth} (%)": mean_accuracy(
                             table, model=model, tree=tree, depth=depth)
                            for tree in TREES for depth in depths}})
    columns = ["profile", "variant", "model", "runs",
               *[f"{tree}, depth {depth} (%)" for tree in TREES for depth in depths]]
    return pd.DataFrame(rows, columns=columns).set_index(["profile", "variant", "model"])


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


#: The fit-first pilots (issue 48): how long each model takes on one core to pass the fit
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


def pilot_facts(pilots: dict[str, dict[str, dict]]) -> dict[str, str]:
    """What the longest CPU pilot says (``pilot_text``): whether both models fit, and so which
    comparisons it tests."""
    if not pilots:
        return {"pilot_text": "No CPU pilot is committed."}
    budget = list(pilots)[-1]
    records = list(pilots[budget].values())
    fitted = [r for r in records if fits(r)]
    sizes = ", ".join(f"{NAMES[r['model']]} {r['parameters'] / 1e6:.2f}M parameters, "
                      f"{r['epochs']:.1f} epochs, fit {100 * run_fit(r):.0f}%" for r in records)
    if len(fitted) == len(records) and len(records) > 1:
        reading = ("both fit their training depths, so the pilot compares generalisation with "
                   "depth on this variant")
    elif fitted:
        reading = (f"only the {' and the '.join(NAMES[r['model']] for r in fitted)} fits, so no "
                   "comparison between the models is tested")
    else:
        reading = ("neither fits its first and second trees at the training depths, so the "
                   "pilot tests none of the paper's claims: each stays untested until a GPU "
                   "trains the gpu profile")
    return {"pilot_text": f"Trained for {budget} on one CPU core ({records[0]['variant']}: "
                          f"{sizes}), {reading}."}


def plot_pilot_curves(pilots: dict[str, dict[str, dict]], title: str):
    """The pilots' fit over training: the share of training and of validation examples (depths
    3-6) with both trees right, against the seconds trained, a colour per model and a line
    style per budget. Returns the figure."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 3.8), layout="constrained")
    colours = {"lstm": "#0072B2", "transformer": "#D55E00"}
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


def _span(values) -> str:
    """``"a-b%"`` over the values (``"a%"`` when they round alike), or a dash for none."""
    values = [v for v in values if not np.isnan(v)]
    if not values:
        return "–"
    low, high = f"{min(values):.0f}", f"{max(values):.0f}"
    return f"{low}%" if low == high else f"{low}-{high}%"


def _span_gib(memory: dict) -> str:
    return f"{memory['min']:.1f}-{memory['max']:.1f}" if memory else "–"


def full_facts(settings, records: list[dict]) -> dict[str, str]:
    """The facts the chapter states about the full profile: what it trains (variants, training
    depths, the budget), how many of its runs are committed and fit the trees they were
    trained to fit, and how long its runs trained, per model.

    Parameters
    ----------
    settings : tutorlib.profiles.Settings
        The full profile's ``orchard`` settings.
    records : list of dict
        Its committed run records.

    Returns
    -------
    dict of str to str
        Name -> text (``full_variants``, ``full_depths``, ``full_budget``, ``full_runs``,
        ``full_fitted``, ``full_fit_summary``, ``full_lstm_minutes``,
        ``full_transformer_minutes``).

    Examples
    --------
    >>> from tutorlib import profiles
    >>> facts = full_facts(profiles.settings("orchard", "full"), [])
    >>> facts["full_depths"], facts["full_runs"], facts["full_lstm_minutes"]
    ('3 to 4', '0 of 12', 'no run yet')
    """
    recipe = network_recipe(settings, "transformer")
    planned = len(runs_of(settings))
    facts = {"full_variants": " and ".join(settings["variants"]),
             "full_depths": f"{settings['train_depths'][0]} to {settings['train_depths'][1]}",
             "full_budget": (f"{recipe['max_seconds'] / 60:g} minutes"
                             if recipe.get("max_seconds") else "no time limit"),
             "full_runs": f"{len(records)} of {planned}",
             "full_fitted": f"{sum(fits(r, gate_tree(r)) for r in records)} of {len(records)}",
             "full_fit_summary": fit_summary(records)}
    for model in MODELS:
        minutes = [r["train_seconds"] / 60 for r in records if r["model"] == model]
        facts[f"full_{model}_minutes"] = (f"{min(minutes):.0f} to {max(minutes):.0f}"
                                          if minutes else "no run yet")
    return facts


def gpu_facts(by_profile: dict[str, list[dict]], settings) -> dict[str, str]:
    """The facts the chapter states about the ``gpu`` profile and the networks that fit: how
    many gpu runs are committed and fit, each model's size, its time budget and how many epochs
    its runs got in it (``gpu_budget``, ``gpu_epochs``: the GPU is shared by every run of a
    call, so the pace varies), how far the unfinished Transformer runs of the first sweeps got,
    and what the fitted networks do between depth 6 and depth 12.

    Parameters
    ----------
    by_profile : dict of str to list of dict
        :func:`committed_by_profile`.
    settings : tutorlib.profiles.Settings
        The ``gpu`` profile's settings.

    Returns
    -------
    dict of str to str
        Name -> text.
    """
    records = by_profile.get("gpu", [])
    sweeps = gpu_sweeps()
    if not sweeps:  # no record of the sweeps (results read from elsewhere): dashes
        sweeps = {"sweep_1": {"failed_runs": "–", "memory_per_process_gib": {}},
                  "sweep_2": {"last_progress": [], "pairs_per_second_per_run": "–"}}
    by_variant: dict[str, list[float]] = {}
    for row in sweeps["sweep_2"]["last_progress"]:
        by_variant.setdefault(row["variant"], []).append(100 * row["valid_both_at_epoch_1"])
    unfitted: dict[tuple[str, str], float] = {}
    for r in records:
        if not fits(r):
            key = (r["variant"], r["model"])
            unfitted[key] = min(unfitted.get(key, 1.0), run_fit(r))
    fitted = fitted_by_depth(by_profile)
    parameters = _parameters(settings)
    lstm_speed = [r["fit"]["pairs_per_second"] for r in records if r["model"] == "lstm"]
    epochs = [float(r["epochs"]) for r in records if r.get("epochs") is not None]
    speed = [float(r["fit"]["pairs_per_second"]) for r in records
             if (r.get("fit") or {}).get("pairs_per_second")]
    budgets = sorted({float(recipe["max_seconds"]) for recipe in settings["training"].values()
                      if recipe.get("max_seconds")})
    return {
        "gpu_budget": " or ".join(f"{b:,.0f}" for b in budgets) or "no",
        "gpu_epochs": (f"{min(epochs):.1f} to {max(epochs):.1f} epochs "
                       f"({min(speed):,.0f} to {max(speed):,.0f} training examples a second)"
                       if epochs and speed else "–"),
        "gpu_runs": f"{len(records)} of {len(runs_of(settings))}",
        "gpu_fitted": f"{sum(fits(r) for r in records)} of {len(records)}",
        "gpu_variants": ", ".join(sorted({f"{r['variant']} ({NAMES[r['model']]})"
                                          for r in records})) or "none",
        "gpu_unfitted": ", ".join(f"{variant} ({NAMES[model]}, lowest {100 * low:.0f}%)"
                                  for (variant, model), low in sorted(unfitted.items()))
                        or "none",
        "gpu_lstm_parameters": f"{parameters['lstm'] / 1e6:.1f}M",
        "gpu_transformer_parameters": f"{parameters['transformer'] / 1e6:.1f}M",
        "gpu_oom": f"{sweeps['sweep_1']['failed_runs']}",
        "gpu_memory": _span_gib(sweeps["sweep_1"]["memory_per_process_gib"]),
        "gpu_transformer_pairs": (f"{sweeps['sweep_2']['pairs_per_second_per_run']:,}"
                                  if sweeps["sweep_2"]["pairs_per_second_per_run"] != "–"
                                  else "–"),
        "gpu_transformer_epoch1": "; ".join(
            f"{variant} {_span(values)}" for variant, values in sorted(by_variant.items()))
        or "–",
        "gpu_lstm_pairs": f"{np.mean(lstm_speed):,.0f}" if lstm_speed else "–",
        "fitted_networks": ", ".join(f"{variant} ({NAMES[model]}, {profile} profile)"
                                     for profile, variant, model in fitted.index) or "none",
        **{f"fitted_{tree}_d{depth}": _span(fitted[f"{tree}, depth {depth} (%)"])
           for tree in ("first", "second") for depth in (EDGE, 12)},
    }


def plot_by_depth(table: pd.DataFrame, title: str, train_depths=TRAIN_DEPTHS,
                  records: list[dict] | None = None):
    """Accuracy by depth: one row of panels per variant, one panel per tree, a line per model;
    with ``records``, a last column of each model's fit.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table`.
    title : str
        The figure's title.
    train_depths : (int, int)
        The training depths, shaded.
    records : list of dict, optional
        The runs behind ``table``: adds a column of bars, each model's mean accuracy on its
        training and validation examples (first and second tree), with :data:`FIT_THRESHOLD`
        dashed.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (chance dotted: 10% on one tree, 1% on both).
    """
    import matplotlib.pyplot as plt

    variants = list(dict.fromkeys(table["variant"]))
    columns = 3 + (records is not None)
    fig, axes = plt.subplots(len(variants), columns,
                             figsize=(3 * columns, 2.6 * len(variants) + 0.6),
                             sharey=True, squeeze=False)
    means = table.groupby(["variant", "model", "tree", "depth"])["accuracy (%)"].mean()
    for row, name in enumerate(variants):
        for col, tree in enumerate(TREES):
            ax = axes[row, col]
            ax.axvspan(train_depths[0] - 0.5, train_depths[1] + 0.5, color="0.9", zorder=0)
            ax.axhline(CHANCE if tree != "both" else CHANCE ** 2 / 100, color="0.5",
                       ls=":", lw=1)
            for model, marker in zip(MODELS, "os"):
                if (name, model, tree) in means.index.droplevel("depth"):
                    curve = means.loc[(name, model, tree)]
                    ax.plot(curve.index, curve.values, marker=marker, ms=4, label=model)
            ax.set_title(f"{name}: {tree} tree" if tree != "both" else f"{name}: both trees",
                         fontsize=9)
            ax.set_ylim(-3, 103)
            ax.set_xticks(sorted(set(table["depth"])))
            if row == len(variants) - 1:
                ax.set_xlabel("depth of both trees")
            if col == 0:
                ax.set_ylabel("accuracy (%)")
        if records is not None:
            _plot_fit(axes[row, 3], [r for r in records if r["variant"] == name], name,
                      train_depths)
    axes[0, 0].legend(loc="lower left", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _plot_fit(ax, records: list[dict], variant: str, depths=TRAIN_DEPTHS) -> None:
    """Bars of each model's mean accuracy on training and validation examples (of ``depths``)."""
    labels = ["train\n1st", "train\n2nd", "valid\n1st", "valid\n2nd"]
    width = 0.38
    for i, model in enumerate(MODELS):
        runs = [r for r in records if r["model"] == model]
        if not runs:
            continue
        heights = [_mean(runs, part, tree) for part in ("train", "valid")
                   for tree in ("first", "second")]
        ax.bar(np.arange(4) + (i - 0.5) * width, heights, width, label=model,
               color=f"C{i}")
    ax.axhline(100 * FIT_THRESHOLD, color="0.3", ls="--", lw=1)
    ax.set_xticks(np.arange(4), labels, fontsize=7)
    ax.set_title(f"{variant}: fit (depths {depths[0]}-{depths[1]})", fontsize=9)


def mean_accuracy(table: pd.DataFrame, *, model: str, tree: str, depth: int,
                  variant: str | None = None) -> float:
    """Mean accuracy (%) of ``model`` on ``tree`` at ``depth`` (over variants and seeds, or of
    one variant).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table`.
    model : {"lstm", "transformer"}
        The model.
    tree : {"first", "second", "both"}
        Which tree's value is scored.
    depth : int
        The test bin.
    variant : str, optional
        One variant only.

    Returns
    -------
    float
        The mean, ``nan`` where the table has no such row.
    """
    rows = table[(table["model"] == model) & (table["tree"] == tree) & (table["depth"] == depth)]
    if variant is not None:
        rows = rows[rows["variant"] == variant]
    return rows["accuracy (%)"].mean()


def _fit(records: list[dict], part: str) -> dict[str, float]:
    return {model: 100 * np.mean([r[part]["first"] for r in records if r["model"] == model])
            for model in MODELS}


def fit_verdict(records: list[dict]) -> str:
    """How far each model has learned the first tree of the training distribution, in words, by
    the book's one fit gate (:func:`tutorlib.fit.passes`) applied to the first tree: its mean
    accuracy on training inputs and on validation inputs of the training depths.

    Parameters
    ----------
    records : list of dict
        Run records (each with ``model``, ``train`` and ``valid`` accuracies per tree).

    Returns
    -------
    str
        A paragraph: whether each model passes the gate on the first tree (and why not); whether
        it did ten points better on its own inputs; and what that means for reading its accuracy
        past the training depths: generalisation only where every model passed.
    """
    train_first, valid_first = _fit(records, "train"), _fit(records, "valid")
    passed = {model: gate.passes(train_first[model] / 100, valid_first[model] / 100)
              for model in MODELS}

    def phrase(model: str) -> str:
        if passed[model]:
            return f"the {NAMES[model]} has learned it (it passes the fit gate)"
        why = gate.reason(train_first[model] / 100, valid_first[model] / 100)
        if valid_first[model] >= 2.5 * CHANCE:
            return (f"the {NAMES[model]} has learned part of it, above chance but short of the "
                    f"fit gate ({why})")
        return f"the {NAMES[model]} has not learned it ({why})"

    memorised = [model for model in MODELS if train_first[model] - valid_first[model] >= 10]
    return (
        f"On the first tree, {phrase('lstm')} and {phrase('transformer')}. "
        + ("Neither does much worse on the validation inputs than on its training inputs, so "
           "what it learned is the training distribution, not its examples. " if not memorised
           else f"The {' and the '.join(NAMES[m] for m in memorised)} does at least ten points "
                f"better on its training inputs than on new ones: part of what it learned is "
                f"its examples. ")
        + ("What happens past depth 6 is then generalisation from what each model learned "
           "inside the training range; a fully trained model may generalise differently."
           if all(passed.values()) else
           "A model that has not learned the task inside the training range cannot show a "
           "failure to generalise beyond it: its accuracy past depth 6 is shown, and it is no "
           "evidence either way."))


def copy_verdict(table: pd.DataFrame) -> str:
    """Whether COPY makes the MIN-MAX variants harder: the LSTM's second-tree accuracy at depth
    6 on the easy, medium and hard variants, when all three have runs.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table`.

    Returns
    -------
    str
        The three accuracies, in the paper's order when they fall easy > medium > hard.
    """
    rows = table[(table["model"] == "lstm") & (table["tree"] == "second")
                 & (table["depth"] == EDGE) & table["variant"].str.startswith("minmax")]
    means = rows.groupby("variant")["accuracy (%)"].mean()
    names = ["minmax_easy", "minmax_medium", "minmax_hard"]
    if not set(names) <= set(means.index):
        return "needs the LSTM on all three MIN-MAX variants"
    head = "LSTM, second tree at depth 6: "
    if means[names[0]] > means[names[1]] > means[names[2]]:
        return head + " > ".join(f"{name.split('_')[1]} {means[name]:.1f}%" for name in names)
    return (head + ", ".join(f"{name.split('_')[1]} {means[name]:.1f}%" for name in names)
            + " (not in that order)")


def _percent(values) -> str:
    """The mean of the values that exist, in %, or a dash where there is none."""
    values = [v for v in values if not np.isnan(v)]
    return f"{np.mean(values):.1f}%" if values else "–"


def _gated(text: str, records: list[dict], models, variants, tree: str = "both") -> str:
    """``text``, or why it is untested and then ``text`` when a run behind it does not fit on
    ``tree``."""
    untested = fit_gate(records, models, variants, tree)
    return text if untested is None else f"{untested}; ours: {text}"


def claim_column(table: pd.DataFrame, deep: int, records: list[dict]) -> list[str]:
    """The quantities of :data:`CLAIMS` in one profile's results, at depth ``deep``, each
    marked untested where a run behind it does not fit (:func:`fit_gate`).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`tutorlib.orchard.experiments.by_depth_table` of ``records``.
    deep : int
        The depth the claims are read at (the paper's: 12).
    records : list of dict
        The runs behind ``table`` (their fit).

    Returns
    -------
    list of str
        One entry per claim, in the order of :data:`CLAIMS`.
    """
    present = set(table["variant"])
    hard = [v for v in ("minmax_hard", "firstlast_hard") if v in present]
    harder = [v for v in present if not v.endswith("_easy")]

    def at(model, tree, depth, variants):
        return _percent([mean_accuracy(table, model=model, tree=tree, depth=depth, variant=v)
                         for v in variants])

    falls = {}
    for model in MODELS:
        deep_both, edge_both = (mean_accuracy(table, model=model, tree="both", depth=d)
                                for d in (deep, EDGE))
        falls[model] = ("has no run" if np.isnan(deep_both) or np.isnan(edge_both)
                        else "falls" if deep_both < edge_both else "does not fall")
    inside = {model: _percent([mean_accuracy(table, model=model, tree="both", depth=d,
                                             variant=v)
                               for d in range(TRAIN_DEPTHS[0], TRAIN_DEPTHS[1] + 1)
                               for v in harder]) for model in MODELS}
    second_deep = _percent([mean_accuracy(table, model=m, tree="second", depth=deep, variant=v)
                            for m in MODELS for v in hard])
    variant_pairs = ", ".join(
        f"{NAMES[m]} {at(m, 'first', deep, ['minmax_hard'])} vs "
        f"{at(m, 'first', deep, ['firstlast_hard'])}" for m in MODELS)
    return [
        _gated(f"LSTM {falls['lstm']}, Transformer {falls['transformer']} (both trees, depth "
               f"{EDGE} to {deep})", records, MODELS, present),
        _gated(f"{at('lstm', 'first', deep, hard)} vs {at('transformer', 'first', deep, hard)} "
               f"(mean of the hard variants, depth {deep})", records, MODELS, hard, "first"),
        _gated(f"{at('transformer', 'second', deep, hard)} on the second tree at depth {deep}",
               records, ["transformer"], hard, "second"),
        _gated(f"{second_deep} (both models, second tree, depth {deep})", records, MODELS,
               hard),
        _gated(f"Transformer {inside['transformer']} vs LSTM {inside['lstm']} (both trees, "
               f"depths {TRAIN_DEPTHS[0]}-{TRAIN_DEPTHS[1]}, medium and hard)", records, MODELS,
               harder),
        _gated(f"{variant_pairs} (MIN-MAX vs FIRST-LAST)", records, MODELS, hard, "first"),
        _gated(copy_verdict(table), records, ["lstm"],
               [v for v in present if v.startswith("minmax")]),
    ]


def claims_table(table: pd.DataFrame | None, deepest: int | None, records: list[dict] | None,
                 profile: str | None, committed: dict[str, list[dict]] | None = None,
                 planned_runs: dict[str, int] | None = None) -> pd.DataFrame:
    """The paper's claims, what it reports, and the same quantities from this page's runs and
    from each committed profile, each marked untested where its runs do not fit.

    Parameters
    ----------
    table : pandas.DataFrame or None
        This page's :func:`tutorlib.orchard.experiments.by_depth_table`; ``None`` for a page
        that trains no network (then ``deepest``, ``records`` and ``profile`` are ``None`` too).
    deepest : int or None
        This page's deepest bin.
    records : list of dict or None
        This page's runs.
    profile : str or None
        This page's profile.
    committed : dict of str to list of dict, optional
        Committed profiles' runs (:func:`committed_by_profile`), a column each, read at their
        deepest bin.
    planned_runs : dict of str to int, optional
        How many runs each committed profile plans; by default, from the profile's settings.

    Returns
    -------
    pandas.DataFrame
        A row per claim.
    """
    claims = pd.DataFrame({"claim": list(CLAIMS), "published": list(CLAIMS.values())})
    if table is not None:
        claims[f"this run ({profile})"] = claim_column(table, deepest, records)
    claims = claims.set_index("claim")
    for name, runs in (committed or {}).items():
        runs_table = by_depth_table(runs)
        planned = (planned_runs[name] if planned_runs is not None
                   else len(runs_of(settings_of("orchard", name))))
        depths = "-".join(map(str, train_depths(runs[0])))
        trained = "" if not reduced(runs) else f", trained on depths {depths}"
        claims[f"{name} profile ({len(runs)} of {planned} runs{trained})"] = claim_column(
            runs_table, max(runs_table["depth"]), runs)
    return claims


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


def _record_parameters(records: list[dict]) -> dict[str, int]:
    """Each model's parameter count, from its first run record."""
    found = {}
    for model in MODELS:
        counts = [r["parameters"] for r in records if r["model"] == model]
        if not counts:
            raise ValueError(f"no run of the {model} among the {len(records)} records: the "
                             f"setting compares both models ({', '.join(MODELS)})")
        found[model] = counts[0]
    return found


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


def _presentations(settings, model: str, records: list[dict]) -> int:
    """The training examples a profile's ``model`` sees: its fixed number of presentations, or,
    for a profile trained to convergence, the most any of its runs in ``records`` saw."""
    config = run_settings(settings["variants"][0], model, settings)
    if "presentations" in config:
        return config["presentations"]
    return max(r["presentations"] for r in records if r["model"] == model)


def setting_facts(settings, records: list[dict]) -> dict[str, str]:
    """The facts the prose states about the setting: this page's models' share of the paper's
    parameters, and how many times fewer examples they see.

    Parameters
    ----------
    settings : tutorlib.profiles.Settings
        The ``orchard`` settings of the runs the page reads.
    records : list of dict
        Their run records.

    Returns
    -------
    dict of str to str
        Name -> text.
    """
    paper = PAPER["training"]
    parameters = _record_parameters(records)
    most = max(_presentations(settings, model, records) for model in settings["models"])
    converging = "recipe" in run_settings(settings["variants"][0], "lstm", settings)
    return {
        "lstm_share": f"{100 * parameters['lstm'] / paper['lstm_parameters']:.1f}",
        "transformer_share":
            f"{100 * parameters['transformer'] / paper['transformer_parameters']:.1f}",
        "presentation_ratio": f"{paper['examples'] * paper['epochs'] / most:,.0f}",
        "training_rule": ("Adam with an inverse-square-root schedule, each run stopped at the "
                          "first evaluation that passes the fit gate" if converging else
                          "Adam at a linearly decaying learning rate, the last checkpoint rather "
                          "than the best on the validation set"),
    }
