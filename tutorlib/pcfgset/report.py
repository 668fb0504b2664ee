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

import math
from functools import lru_cache

import numpy as np
import pandas as pd

from tutorlib import fit as gate
from tutorlib import profiles, results
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

# the report's other readers, in modules of their own, importable from here as before
from tutorlib.pcfgset.length_report import (  # noqa: F401
    COLOURS,
    by_functions,
    by_length,
    length_terciles,
    plot_by_functions,
    plot_overgeneralisation,
    productivity_below_task,
    reduction_table,
    restrictions,
    stops_at_gate,
)
from tutorlib.pcfgset.pilot_report import (  # noqa: F401
    gpu_measurements,
    pilot_curves,
    pilot_table,
    reduction_pilots,
)
from tutorlib.pcfgset.released_report import (  # noqa: F401
    plot_released_by_property,
    plot_released_overgeneralisation,
    plot_released_productivity,
    released_discrepancies,
    released_scores,
    released_table1,
)

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
# The committed runs by length, by localism and by exception ratio (the setting in words and
# the figures by length: tutorlib.pcfgset.length_report)


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


# ---------------------------------------------------------------------------------------------
# The paper's own networks beside ours (Table 1 recomputed from them and their figures:
# tutorlib.pcfgset.released_report)


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


