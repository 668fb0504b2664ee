"""What the chapter "Compositionality and generalisation" states about the committed reference
games (Andreas 2019, Sec. 7): the pair of languages like the paper's Fig. 6, and how TRE under
each protocol predicts generalisation beside the other measures.
"""

from __future__ import annotations

import pandas as pd

from tutorlib.tre.generalisation import TRE_PROTOCOLS

# The other measures the chapter compares with TRE (posdis is shown, not compared here).
OTHER_MEASURES = ["topsim", "bosdis", "context independence"]


def mine_pair(runs: pd.DataFrame, tolerance: float = 0.01):
    """Two languages whose training rewards are within ``tolerance`` and whose TRE differs
    most (the paper's Fig. 6 shows such a pair).

    Parameters
    ----------
    runs : pandas.DataFrame
        A row per language, with ``train reward`` and ``TRE``.
    tolerance : float
        Largest difference in training reward.

    Returns
    -------
    (pandas.Series, pandas.Series) or None
        (higher-TRE row, lower-TRE row), or ``None`` when no two rows qualify.
    """
    best = None
    for i in range(len(runs)):
        for j in range(len(runs)):
            a, b = runs.iloc[i], runs.iloc[j]
            if abs(a["train reward"] - b["train reward"]) <= tolerance and a["TRE"] > b["TRE"]:
                if best is None or a["TRE"] - b["TRE"] > best[0]["TRE"] - best[1]["TRE"]:
                    best = (a, b)
    return best


def pair_verdict(pair) -> str:
    """Whether the lower-TRE language of a pair generalises better (a smaller gap), in words.

    Parameters
    ----------
    pair : (pandas.Series, pandas.Series) or None
        :func:`mine_pair`'s result (rows with ``seed``, ``TRE`` and ``gap``).

    Returns
    -------
    str
        A clause for the prose.
    """
    if pair is None:
        return "our runs contain no two languages with training rewards within 0.01"
    high, low = pair
    better = low["gap"] < high["gap"]
    return (f"the lower-TRE language (seed {int(low['seed'])}, TRE {low['TRE']:.2f}) has a gap "
            f"of {low['gap']:.3f} against {high['gap']:.3f} for the higher-TRE one (seed "
            f"{int(high['seed'])}, TRE {high['TRE']:.2f}): "
            + ("it generalises better, as in the paper's figure" if better else
               "it generalises *worse*, so our runs contain no pair like the paper's under this "
               "measure"))


def protocol_facts(protocols: pd.DataFrame, committed: pd.DataFrame) -> dict[str, str]:
    """The facts the chapter states about TRE under each protocol, by name.

    Parameters
    ----------
    protocols : pandas.DataFrame
        :func:`tutorlib.tre.generalisation.committed_protocols`: a row per language, TRE under
        each of :data:`~tutorlib.tre.generalisation.TRE_PROTOCOLS`, ``gap``, ``held-out error``
        and ``train reward``.
    committed : pandas.DataFrame
        :func:`tutorlib.tre.generalisation.committed_runs` (the other measures and the gap).

    Returns
    -------
    dict of str to str
        Pearson's r of each protocol with the gap and with the error, the release protocol's
        range and excess over the converged one, the other measures' r, which protocol
        correlates most with the gap, and the pair verdict under the release protocol.
    """
    def r_text(target: pd.Series) -> str:
        return ", ".join(f"{protocols[name].corr(target):.2f} ({name})" for name in TRE_PROTOCOLS)

    others = {m: committed[m].corr(committed["gap"]) for m in OTHER_MEASURES}
    with_gap = {name: protocols[name].corr(protocols["gap"]) for name in TRE_PROTOCOLS}
    best_tre = max(abs(r) for r in with_gap.values())
    beaten = [m for m, v in others.items() if abs(v) <= best_tre]
    weaker = sum(abs(r) < min(abs(v) for v in others.values()) for r in with_gap.values())
    strongest = max(TRE_PROTOCOLS, key=lambda name: with_gap[name])
    release = protocols["release (L1)"]
    return {
        "protocols_r_gap": r_text(protocols["gap"]),
        "protocols_r_error": r_text(protocols["held-out error"]),
        "protocols_release_range": f"{release.min():.2f} to {release.max():.2f}",
        "protocols_release_excess": f"{(release - protocols['converged (L1)']).mean():.2f}",
        "protocols_other_r": ", ".join(f"{m} {v:.2f}" for m, v in others.items()),
        "protocols_best_tre_r": f"{best_tre:.2f}",
        "protocols_others_better":
            "all predict the gap better than TRE does under any of the three protocols"
            if not beaten else
            f"all predict it better than TRE under {weaker} of the three protocols, but the "
            f"best TRE does as well as or better than {' and '.join(beaten)}",
        "protocols_pair_verdict": pair_verdict(mine_pair(protocols.rename(
            columns={"release (L1)": "TRE"}))),
        "protocols_strongest": strongest,
        "protocols_strongest_r": f"{with_gap[strongest]:.2f}",
        "protocols_strongest_error_r":
            f"{protocols[strongest].corr(protocols['held-out error']):.2f}",
        "protocols_ceiling":
            "The ceiling matters: the measure without one tells the languages at the L1 "
            "ceiling apart, and ranks all the languages more as their generalisation does"
            if strongest == "converged (L2)" else
            "Removing the ceiling (the L2 measure) does not bring TRE closer to generalisation",
    }
