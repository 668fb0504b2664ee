"""The statistics behind the closing chapter's three answers (issue 71): which measures can rank
the card's networks, how far the kept measures' rankings agree (Kendall's tau-b, Sun, Williams
and Hupkes 2023's *concurrence*), TRE against generalisation within and across networks, and
compound divergence (Keysers et al. 2020) against difficulty within each benchmark.

Every function reads only networks that passed the fit gate on every seed of a task (a card
row's ``fitted``): a network that did not fit is never ranked, correlated or averaged.

- :func:`measure_rule`: the one rule that decides whether a measure enters the concurrency
  analysis, with the reason for every measure it drops.
- :func:`concurrence`: tau-b between every two kept measures, with a bootstrap interval that
  resamples networks and, within each, its seeds.
- :func:`tre_within_networks`, :func:`tre_across_networks`, :func:`geca_control`: TRE against
  generalisation, network by network, one point per network, and the augmented network beside
  its own architecture.
- :func:`divergence_within`: compound divergence against the fitted networks' mean accuracy,
  benchmark by benchmark.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from tutorlib.card.analysis import check_frame, measure_label, tre_against_behaviour
from tutorlib.verdicts import UNRESOLVED, pair_support

#: Fitted networks a measure needs to rank (and a pair of measures to share) for a tau.
MIN_NETWORKS = 4
#: Two networks' means closer than this (a fraction: one point of accuracy) are a tie.
TIE = 0.01
#: Tied pairs of networks a measure may have and still rank them.
MAX_TIES = 1
#: The share of network pairs the seeds must settle (more than this) for a measure to rank.
SETTLED_SHARE = 0.5
#: ORCHARD's training depths (:func:`tutorlib.card.orchard_task` trains on depths 3-6).
ORCHARD_TRAINING_DEPTHS = (3, 4, 5, 6)
#: (benchmark, test, score) of the card's in-distribution test sets: drawn as the training pairs
#: are, so the fit gate (90% in distribution) sets their score; ORCHARD's training depths too.
IN_DISTRIBUTION = frozenset({("scan", "simple", "accuracy"), ("dbca", "target 0", "accuracy"),
                             ("pcfgset", "pcfgset", "accuracy"), ("pcfgset", "localism", "accuracy")}
                            | {("orchard", f"depth {d}", score) for d in ORCHARD_TRAINING_DEPTHS
                               for score in ("first tree", "second tree")})
#: the SCAN-command benchmarks (one input language: their TRE and D_C share a scale)
SCAN_COMMANDS = ("scan", "dbca")


def _frame(rows: Sequence[dict]):
    import pandas as pd

    if isinstance(rows, (str, bytes)) or not len(rows):
        raise ValueError("no card rows: give the rows of finished card runs (run_task's)")
    frame = pd.DataFrame(list(rows))
    missing = {"model", "benchmark", "task", "test", "score", "value", "seed",
               "fitted"} - set(frame.columns)
    if missing:
        raise ValueError(f"card rows lack {', '.join(sorted(missing))}: give run_task's rows")
    frame["measure"] = [measure_label(*key) for key in
                        zip(frame["benchmark"], frame["task"], frame["test"], frame["score"])]
    return frame


def _check_seeds(seeds: int) -> None:
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise ValueError(f"seeds must be a positive integer (the profile's seeds), got {seeds!r}")


def network_values(frame, measure: str, seeds: int) -> dict[str, np.ndarray]:
    """Each network's values of ``measure`` in seed order, for the networks that passed the fit
    gate on all ``seeds`` seeds (a network short of seeds, or one failed seed, is left out)."""
    part = frame[frame["measure"] == measure]
    return {model: group.sort_values("seed")["value"].to_numpy(dtype=float)
            for model, group in part.groupby("model", sort=False)
            if bool(group["fitted"].all()) and group["seed"].nunique() >= seeds}


def measure_rule(rows: Sequence[dict], measures: Sequence[str], *, seeds: int):
    """Which measures can rank the networks, and why each other one cannot.

    A measure ranks the networks when all of these hold:

    1. its test set is not in distribution (:data:`IN_DISTRIBUTION`): there every run stops at
       the first evaluation that passes the fit gate, so the score says where a run stopped;
    2. at least :data:`MIN_NETWORKS` networks passed the fit gate on every seed;
    3. at most :data:`MAX_TIES` pairs of networks have means within :data:`TIE` of each other
       (a floor or a ceiling, where most networks score 0 or 100%, ties most pairs: tau-b
       would rank the one network off the floor against nothing);
    4. the seeds settle more than :data:`SETTLED_SHARE` of the pairs of networks, by the book's
       ordering rule (:func:`tutorlib.verdicts.pair_support`: the two 95% intervals separate,
       or one network is above the other on every seed). A ranking is its pairs; where most
       pairs are not settled, most of a tau's terms are seed noise.

    Parameters
    ----------
    rows : sequence of dict
        Card rows (:func:`tutorlib.card.run_task`'s, or a committed card's).
    measures : sequence of str
        :func:`~tutorlib.card.analysis.measure_label` s to judge.
    seeds : int
        The seeds a network needs on a measure (the profile's).

    Returns
    -------
    tuple of (list of str, pandas.DataFrame)
        The kept measures, and a row per measure with ``measure``, ``networks`` (fitted on every
        seed), ``ties``, ``settled`` and ``pairs`` (of networks), ``kept`` and ``reason`` (empty
        for a kept one).
    """
    import pandas as pd

    _check_seeds(seeds)
    frame = _frame(rows)
    if isinstance(measures, str) or not len(measures):
        raise ValueError("measures must be a non-empty list of measure labels")
    unknown = [m for m in measures if m not in set(frame["measure"])]
    if unknown:
        raise ValueError(f"no rows for the measures {unknown}")
    where = frame.drop_duplicates("measure").set_index("measure")
    out = []
    for measure in dict.fromkeys(measures):
        values = network_values(frame, measure, seeds)
        means = np.array([v.mean() for v in values.values()])
        pairs = list(itertools.combinations(values, 2))
        ties = sum(abs(values[a].mean() - values[b].mean()) < TIE for a, b in pairs)
        settled = sum(pair_support(values[a], values[b], paired=True) != 0 for a, b in pairs)
        key = tuple(where.loc[measure, ["benchmark", "test", "score"]])
        if key in IN_DISTRIBUTION:
            reason = "in distribution: the fit gate sets the score"
        elif len(values) < MIN_NETWORKS:
            reason = f"{len(values)} networks fitted on every seed (fewer than {MIN_NETWORKS})"
        elif ties > MAX_TIES:
            floor = f" at {means.min():.0%}" if np.sum(means - means.min() < TIE) > 2 else ""
            reason = f"{ties} tied pairs of networks{floor} (at most {MAX_TIES})"
        elif settled <= SETTLED_SHARE * len(pairs):
            reason = (f"the seeds settle {settled} of {len(pairs)} pairs of networks "
                      f"(more than {SETTLED_SHARE:.0%} needed)")
        else:
            reason = ""
        out.append({"measure": measure, "networks": len(values), "ties": ties,
                    "settled": settled, "pairs": len(pairs), "kept": not reason,
                    "reason": reason})
    table = pd.DataFrame(out)
    return list(table.loc[table["kept"], "measure"]), table


def sign_verdict(low: float | None, high: float | None) -> str:
    """``"above 0"`` or ``"below 0"`` where a 95% interval excludes 0, else
    :data:`~tutorlib.verdicts.UNRESOLVED` (no interval, or one across 0).

    >>> sign_verdict(0.1, 0.9), sign_verdict(-0.5, 0.2), sign_verdict(None, None)
    ('above 0', 'unresolved', 'unresolved')
    """
    if low is None or high is None or not (np.isfinite(low) and np.isfinite(high)):
        return UNRESOLVED
    return "above 0" if low > 0 else "below 0" if high < 0 else UNRESOLVED


def _bootstrap_taus(a: dict, b: dict, common: list[str], resamples: int, rng) -> np.ndarray:
    """Tau-b of resampled means: each resample draws the networks with replacement and, within
    each drawn network, its seeds with replacement (separately for each measure: separate
    runs). A network drawn twice is a tie in both rankings, which tau-b leaves out."""
    from tutorlib.stats import kendall_tau

    taus = np.full(resamples, np.nan)
    for i in range(resamples):
        drawn = rng.choice(len(common), len(common))
        if len(set(drawn)) < 3:
            continue  # two distinct networks rank one pair: no ranking to compare
        # one seed resample per drawn network, so a network drawn twice is the same twice
        means = {j: (rng.choice(a[common[j]], len(a[common[j]])).mean(),
                     rng.choice(b[common[j]], len(b[common[j]])).mean()) for j in set(drawn)}
        x, y = [means[j][0] for j in drawn], [means[j][1] for j in drawn]
        tau = kendall_tau(x, y)
        taus[i] = np.nan if tau is None else tau
    return taus


def concurrence(rows: Sequence[dict], measures: Sequence[str], *, seeds: int,
                resamples: int = 1000, seed: int = 0):
    """Kendall's tau-b between every two measures' rankings of the networks they share, with a
    95% bootstrap interval over networks and seeds.

    Each measure ranks the networks that passed the fit gate on all ``seeds`` seeds by their
    mean. Tau-b (:func:`tutorlib.stats.kendall_tau`, ``scipy.stats.kendalltau``) counts
    concordant minus discordant pairs over the pairs untied in each ranking. The interval is the
    2.5th to 97.5th percentile of tau over ``resamples`` resamples that redraw the networks (a
    card has few: the interval must say how much another choice of networks could move tau) and,
    within each, its seeds; resamples with fewer than three distinct networks are left out.

    Parameters
    ----------
    rows : sequence of dict
        Card rows.
    measures : sequence of str
        The measures to compare (the kept ones of :func:`measure_rule`).
    seeds : int
        The seeds a network needs on a measure.
    resamples : int
        Bootstrap resamples.
    seed : int
        Seeds the bootstrap.

    Returns
    -------
    pandas.DataFrame
        A row per pair: ``a``, ``b``, ``networks`` (fitted on both), ``tau``, ``low``, ``high``
        (NaN with fewer than :data:`MIN_NETWORKS` networks in common) and ``verdict``
        (:func:`sign_verdict`).
    """
    import pandas as pd

    from tutorlib.stats import kendall_tau

    _check_seeds(seeds)
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"resamples must be a positive integer, got {resamples!r}")
    frame = _frame(rows)
    measures = list(dict.fromkeys(measures))
    unknown = [m for m in measures if m not in set(frame["measure"])]
    if unknown:
        raise ValueError(f"no rows for the measures {unknown}")
    values = {m: network_values(frame, m, seeds) for m in measures}
    rng = np.random.default_rng(seed)
    out = []
    for a, b in itertools.combinations(measures, 2):
        common = [m for m in values[a] if m in values[b]]
        row = {"a": a, "b": b, "networks": len(common), "tau": np.nan, "low": np.nan,
               "high": np.nan}
        if len(common) >= MIN_NETWORKS:
            tau = kendall_tau([values[a][m].mean() for m in common],
                              [values[b][m].mean() for m in common])
            if tau is not None:
                taus = _bootstrap_taus(values[a], values[b], common, resamples, rng)
                row["tau"] = tau
                if np.isfinite(taus).any():
                    row["low"], row["high"] = np.nanpercentile(taus, [2.5, 97.5])
        row["verdict"] = sign_verdict(row["low"], row["high"])
        out.append(row)
    return pd.DataFrame(out, columns=["a", "b", "networks", "tau", "low", "high", "verdict"])


def _correlate(x, y) -> dict:
    """Pearson's r with Fisher's 95% interval over ``len(x)`` points, and its verdict."""
    from tutorlib.stats import correlation_interval, pearson

    r = pearson(list(x), list(y)) if len(x) >= 3 else None
    low, high = correlation_interval(r, len(x)) if r is not None else (None, None)
    return {"points": len(x), "r": np.nan if r is None else r,
            "low": np.nan if low is None else low, "high": np.nan if high is None else high,
            "verdict": sign_verdict(low, high)}


def generalisation_runs(rows: Sequence[dict]):
    """Each fitted run on SCAN's commands (SCAN's splits and the DBCA dial; the dial's MCD point
    is SCAN's ``mcd1``, so once) beyond its training distribution: its TRE and its test accuracy
    (%), from :func:`~tutorlib.card.analysis.tre_against_behaviour`."""
    frame = _frame(rows)
    points, _ = tre_against_behaviour(rows)
    if points.empty:
        return points
    scored = frame[(frame["score"] == "accuracy") & (frame["test"] != "representations")]
    accuracy_test = dict(zip(zip(scored["benchmark"], scored["task"]), scored["test"]))
    has_mcd1 = bool(((frame["benchmark"] == "scan") & (frame["task"] == "mcd1")).any())

    def keep(benchmark: str, task: str) -> bool:
        test = accuracy_test.get((benchmark, task), "")
        if benchmark not in SCAN_COMMANDS or (benchmark, test, "accuracy") in IN_DISTRIBUTION:
            return False
        return not (has_mcd1 and benchmark == "dbca" and test == "target MCD")

    return points[[keep(b, t) for b, t in zip(points["benchmark"], points["task"])]].reset_index(
        drop=True)


def tre_within_networks(runs):
    """TRE against test accuracy network by network, over each network's runs (its splits and
    seeds): a row per network with ``splits``, ``points`` (runs), ``r``, Fisher's ``low`` and
    ``high`` over the runs, and ``verdict``.

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`generalisation_runs`' table.
    """
    import pandas as pd

    check_frame(runs, "runs", ("model", "task", "tre", "accuracy"))
    out = [{"model": model, "splits": part["task"].nunique(), **_correlate(part["tre"],
                                                                           part["accuracy"])}
           for model, part in runs.groupby("model", sort=False)]
    return pd.DataFrame(out, columns=["model", "splits", "points", "r", "low", "high", "verdict"])


def tre_across_networks(runs, exclude: Sequence[str] = ()):
    """One point per network: its mean TRE and mean test accuracy over the splits that every
    network compared has fitted on every seed, and Pearson's r over the networks (Fisher's
    interval counts networks, not runs).

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`generalisation_runs`' table.
    exclude : sequence of str
        Networks left out (e.g. one trained on augmented data).

    Returns
    -------
    tuple of (pandas.DataFrame, dict)
        A row per network (``tre``, ``accuracy``, ``splits``) and ``{"points", "r", "low",
        "high", "verdict", "splits"}``.
    """
    check_frame(runs, "runs", ("model", "task", "seed", "tre", "accuracy"))
    if isinstance(exclude, str):
        raise TypeError("exclude must be a list of network names, not one string")
    part = runs[~runs["model"].isin(list(exclude))]
    seeds = part.groupby(["model", "task"])["seed"].nunique().unstack("model")
    full = seeds.index[seeds.notna().all(axis=1) & (seeds == seeds.max().max()).all(axis=1)]
    shared = part[part["task"].isin(full)]
    per_network = shared.groupby("model", sort=False)[["tre", "accuracy"]].mean()
    per_network["splits"] = len(full)
    return per_network, {**_correlate(per_network["tre"], per_network["accuracy"]),
                         "splits": len(full)}


def geca_control(runs, base: str, augmented: str):
    """The augmented network beside its own architecture trained without augmentation, split by
    split: each one's mean TRE and accuracy over seeds and the differences (augmented minus
    base). Same architecture, other data: if TRE tracked generalisation, a large accuracy gain
    would come with a TRE change."""
    check_frame(runs, "runs", ("model", "task", "tre", "accuracy"))
    missing = [name for name in (base, augmented) if name not in set(runs["model"])]
    if missing:
        raise ValueError(f"no runs of {missing}; the runs have {sorted(set(runs['model']))}")
    means = runs.groupby(["task", "model"])[["tre", "accuracy"]].mean().unstack("model")
    means = means.dropna()
    out = means.swaplevel(axis=1)[[base, augmented]]
    out.columns = [f"{column} ({name})" for name, column in out.columns]
    out["TRE difference"] = means[("tre", augmented)] - means[("tre", base)]
    out["accuracy difference"] = means[("accuracy", augmented)] - means[("accuracy", base)]
    return out


def divergence_within(difficulty, groups: dict[str, Sequence[str]] | None = None):
    """Compound divergence against the fitted networks' mean accuracy within each benchmark, one
    point per test set with at least :data:`MIN_NETWORKS` fitted networks, ORCHARD's training
    depths left out.

    Parameters
    ----------
    difficulty : pandas.DataFrame
        :func:`tutorlib.card.report.divergence_accuracy`'s table, each split once
        (:func:`~tutorlib.card.report.distinct_splits`).
    groups : dict of str to list of str, optional
        Which benchmarks make one group (default: SCAN with the dial, whose splits are of SCAN's
        commands; PCFG SET; ORCHARD).

    Returns
    -------
    pandas.DataFrame
        A row per group: ``benchmark``, ``splits`` (with enough fitted networks), ``of``
        (measured), ``r``, ``low``, ``high``, ``verdict``.
    """
    import pandas as pd

    check_frame(difficulty, "difficulty", ("benchmark", "test", "compound divergence", "accuracy"))
    groups = groups or {"SCAN (with the dial)": SCAN_COMMANDS, "PCFG SET": ("pcfgset",),
                        "ORCHARD": ("orchard",)}
    training = {f"depth {d}" for d in ORCHARD_TRAINING_DEPTHS}
    out = []
    for name, benchmarks in groups.items():
        part = difficulty[difficulty["benchmark"].isin(list(benchmarks))]
        part = part[~((part["benchmark"] == "orchard") & part["test"].isin(training))]
        fitted = part.dropna(subset=["accuracy"])
        out.append({"benchmark": name, "of": len(part),
                    **_correlate(fitted["compound divergence"], fitted["accuracy"])})
    table = pd.DataFrame(out).rename(columns={"points": "splits"})
    return table[["benchmark", "splits", "of", "r", "low", "high", "verdict"]]


__all__ = ["IN_DISTRIBUTION", "MAX_TIES", "MIN_NETWORKS", "ORCHARD_TRAINING_DEPTHS",
           "SCAN_COMMANDS", "SETTLED_SHARE", "TIE", "concurrence", "divergence_within",
           "geca_control", "generalisation_runs", "measure_rule", "network_values",
           "sign_verdict", "tre_across_networks", "tre_within_networks"]
