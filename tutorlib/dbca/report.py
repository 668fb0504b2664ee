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
        + (f"; the paper {PAPER['mcd'][network]}%" if network in PAPER["mcd"]
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
