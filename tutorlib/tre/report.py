"""What the TRE chapters state about their committed runs: the training-length comparison of
"Compositionality over training" (Andreas 2019, Sec. 4), and for "Compositionality and
generalisation" (Sec. 7) the pair of languages like the paper's Fig. 6 and how TRE under each
protocol predicts generalisation beside the other measures.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from tutorlib.tre.dynamics import PAPER as DYNAMICS_PAPER
from tutorlib.tre.generalisation import TRE_PROTOCOLS

# The other measures the chapter compares with TRE (posdis is shown, not compared here).
OTHER_MEASURES = ["topsim", "posdis", "bosdis", "context independence"]


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


def pair_verdict(pair, spread: float | None = None) -> str:
    """Whether the lower-TRE language of a pair generalises better (a smaller gap), in words.

    Parameters
    ----------
    pair : (pandas.Series, pandas.Series) or None
        :func:`mine_pair`'s result (rows with ``seed``, ``TRE`` and ``gap``).
    spread : float, optional
        The standard deviation of the gap over all runs: a difference under half of it is
        called noise.

    Returns
    -------
    str
        A clause for the prose.
    """
    if pair is None:
        return "our runs contain no two languages with training rewards within 0.01"
    high, low = pair
    better = low["gap"] < high["gap"]
    text = (f"the lower-TRE language (seed {int(low['seed'])}, TRE {low['TRE']:.2f}) has a gap "
            f"of {low['gap']:.3f} against {high['gap']:.3f} for the higher-TRE one (seed "
            f"{int(high['seed'])}, TRE {high['TRE']:.2f})")
    if spread is not None and abs(low["gap"] - high["gap"]) < spread / 2:
        return (text + f": a difference of {abs(low['gap'] - high['gap']):.3f}, under half "
                f"of the gaps' spread over all runs (sd {spread:.3f}), so noise: this pair "
                "shows nothing either way")
    return text + (": it generalises better, as the paper's correlation would have it" if better
                   else ": it generalises *worse*, against the paper's correlation")


def protocol_facts(protocols: pd.DataFrame, committed: pd.DataFrame) -> dict[str, str]:
    """The facts the chapter states about TRE under each protocol, by name.

    Parameters
    ----------
    protocols : pandas.DataFrame
        :func:`tutorlib.tre.generalisation.committed_protocols`: a row per language, TRE under
        each of :data:`~tutorlib.tre.generalisation.TRE_PROTOCOLS`, ``gap``, ``test reward``
        and ``train reward``.
    committed : pandas.DataFrame
        :func:`tutorlib.tre.generalisation.committed_runs` (the other measures and the gap).

    Returns
    -------
    dict of str to str
        Pearson's r of each protocol with the gap and with the held-out reward, the release protocol's
        range and excess over the converged one, the other measures' r, which protocol
        correlates most with the gap, and the pair verdict under the release protocol.
    """
    def r_text(target: pd.Series) -> str:
        return ", ".join(f"{protocols[name].corr(target):.2f} ({name})" for name in TRE_PROTOCOLS)

    others = {m: committed[m].corr(committed["gap"]) for m in OTHER_MEASURES}
    with_gap = {name: protocols[name].corr(protocols["gap"]) for name in TRE_PROTOCOLS}
    best_tre = max(abs(r) for r in with_gap.values())
    stronger = [m for m, v in others.items() if abs(v) > best_tre]
    weaker = [m for m, v in others.items() if abs(v) <= best_tre]
    strongest = max(TRE_PROTOCOLS, key=lambda name: with_gap[name])
    release = protocols["release (L1)"]
    if not weaker:
        comparison = "every one of them predicts the gap more strongly than TRE under any protocol"
    elif not stronger:
        comparison = "none predicts the gap more strongly than the best TRE"
    else:
        comparison = (f"{' and '.join(stronger)} predict the gap more strongly than TRE under "
                      f"the best of its protocols; {' and '.join(weaker)} no more strongly")
    return {
        "protocols_r_gap": r_text(protocols["gap"]),
        "protocols_r_reward": r_text(protocols["test reward"]),
        "protocols_release_range": f"{release.min():.2f} to {release.max():.2f}",
        "protocols_release_excess": f"{(release - protocols['converged (L1)']).mean():.2f}",
        "protocols_other_r": ", ".join(f"{m} {v:.2f}" for m, v in others.items()),
        "protocols_best_tre_r": f"{best_tre:.2f}",
        "protocols_others_better": comparison,
        "protocols_pair_verdict": pair_verdict(mine_pair(protocols.rename(
            columns={"release (L1)": "TRE"})), float(protocols["gap"].std())),
        "protocols_strongest": strongest,
        "protocols_strongest_r": f"{with_gap[strongest]:.2f}",
        "protocols_strongest_reward_r":
            f"{protocols[strongest].corr(protocols['test reward']):.2f}",
        "protocols_ceiling":
            "The ceiling matters: the measure without one tells the languages at the L1 "
            "ceiling apart, and ranks all the languages more as their generalisation does"
            if strongest == "converged (L2)" else
            "Removing the ceiling (the L2 measure) does not bring TRE closer to generalisation",
    }


def symbol_consistency(derivations, messages, value: str) -> tuple[int, int, float]:
    """How consistently a language writes one attribute ``value`` (``"circle"``, ``"red"``):
    over the messages of the referents that have it (in either object), the (position, symbol)
    pair they share most often and the share of those messages that carry it.

    Examples
    --------
    >>> derivations = [(("red", "circle"), ("blue", "star")), (("blue", "circle"), ("red", "star")),
    ...                (("red", "star"), ("blue", "star"))]
    >>> symbol_consistency(derivations, [[1, 2, 3, 4], [5, 2, 6, 7], [1, 8, 3, 4]], "circle")
    (1, 2, 1.0)
    """
    rows = [list(m) for d, m in zip(derivations, messages) if value in (*d[0], *d[1])]
    if not rows:
        raise ValueError(f"no referent has the attribute value {value!r}")
    counts = Counter((position, int(symbol)) for row in rows for position, symbol in enumerate(row))
    (position, symbol), count = max(counts.items(), key=lambda item: (item[1], -item[0][0]))
    return position, symbol, count / len(rows)


def language_facts(game, measures: dict, letters: str, ceiling: int) -> dict[str, str]:
    """What the chapter says about its one language: the answers to its questions (is the first
    object's colour always in the same place? is ``circle`` always the same symbol?) and whether
    its TRE sits at the L1 ceiling (``ceiling``: the message length)."""
    first_colour = game.derivations[0][0][0]
    pos_c, sym_c, share_c = symbol_consistency(game.derivations, game.messages, "circle")
    rows = [list(m) for d, m in zip(game.derivations, game.messages) if d[0][0] == first_colour]
    place = Counter((p, int(s)) for row in rows for p, s in enumerate(row))
    (pos_f, sym_f), count_f = max(place.items(), key=lambda item: item[1])
    tre_value = measures["TRE"]
    at_ceiling = abs(tre_value - ceiling) < 1e-3
    return {
        "language_answers":
            f"In this language `circle` (in either object) comes with the symbol "
            f"`{letters[sym_c]}` at position {pos_c + 1} in {share_c:.0%} of its messages, and a "
            f"first object coloured {first_colour} with `{letters[sym_f]}` at position "
            f"{pos_f + 1} in {count_f / len(rows):.0%} of them: "
            + ("both are close to fixed, so parts of the message do carry parts of the meaning"
               if min(share_c, count_f / len(rows)) >= 0.9 else
               "neither is a fixed code word, so the meaning is spread over the message"),
        "language_tre":
            f"Its TRE is {tre_value:.3f}"
            + (f", exactly the ceiling of the L1 measure on messages of {ceiling} symbols (one "
               f"unit per symbol): no primitive fixes a symbol at a position in most of the "
               f"messages it takes part in, so the best reconstruction is all zeros. The "
               f"ceiling is explained below" if at_ceiling else
               f", below the ceiling of {ceiling} that the L1 measure has on messages of "
               f"{ceiling} symbols (explained below)") + ".",
    }


def generalisation_reading(committed: pd.DataFrame) -> str:
    """The chapter's reading of r(TRE, gap) and r(TRE, held-out reward) against the paper's
    two-sided conclusion (:data:`tutorlib.tre.generalisation.PAPER`)."""
    from tutorlib.stats import correlation_interval
    from tutorlib.tre.generalisation import PAPER

    n = len(committed)
    r_gap = float(committed["TRE"].corr(committed["gap"]))
    r_reward = float(committed["TRE"].corr(committed["test reward"]))
    (gap_low, gap_high), (rew_low, rew_high) = (correlation_interval(r_gap, n),
                                                correlation_interval(r_reward, n))
    gap_side = ("the gap side holds: lower TRE goes with a smaller gap" if r_gap > 0 else
                "the gap side does not hold: lower TRE goes with a larger gap")
    reward_side = ("the reward side holds too: lower TRE goes with a lower held-out reward"
                   if r_reward > 0 else "the reward side does not: our more compositional "
                   "languages reach a *higher* held-out reward, not a lower one")
    def signed(value: float) -> str:
        return f"{value:.2f}".replace("-", "\u2212")

    return (f"Over our {n} languages r(TRE, gap) = {signed(r_gap)} (95% interval "
            f"{signed(gap_low)} to {signed(gap_high)}; the paper's "
            f"{signed(PAPER['r(TRE, generalisation gap)'])}) and r(TRE, held-out reward) = "
            f"{signed(r_reward)} ({signed(rew_low)} to {signed(rew_high)}; the paper's "
            f"{signed(PAPER['r(TRE, absolute reward)'])}). Of the paper's two-sided conclusion, "
            f"{gap_side}, weaker than in the paper; {reward_side}.")


# ---------------------------------------------------------------------------------------------
# Chapter "Compositionality over training" (Andreas 2019, Sec. 4)

# Batches per epoch of the long runs, whose settings predate ``batches_per_epoch``.
LONG_RUN_BATCHES = 71
# The two committed settings of the concept learner, as the table names them.
MATCHED = "full profile: 20 epochs of 100 batches"
LONG = "long runs: 60 passes of 71 batches"


def training_length_row(data: dict, label: str) -> dict:
    """One committed setting of the concept learner summarised: its seeds and optimiser steps,
    validation accuracy, TRE's correlations with information, and where information peaks.

    Parameters
    ----------
    data : dict
        The ``data`` of a committed ``tre_dynamics`` results file (``runs``, ``settings``,
        ``pooled correlations``, ``mean final val_accuracy``).
    label : str
        The row's name.

    Returns
    -------
    dict
        A row of :func:`training_length_table`.
    """
    runs = data["runs"]
    pooled = data["pooled correlations"]
    batches = data["settings"].get("batches_per_epoch") or LONG_RUN_BATCHES
    return {"setting": label, "seeds": len(runs),
            "optimiser steps": data["settings"]["epochs"] * batches,
            "best validation accuracy (%)": 100 * np.mean([r["best val_accuracy"] for r in runs]),
            "final validation accuracy (%)": 100 * data["mean final val_accuracy"],
            "r(TRE, per-unit info), all": pooled["info_unit"]["all"],
            "r, compression phase": pooled["info_unit"]["compression"],
            "r(TRE, joint 30-bin info), all": pooled["info_joint"]["all"],
            "per-unit info peaks at step (mean)":
                np.mean([r["correlations"]["info_unit"]["peak_epoch"] for r in runs]) * batches,
            "runs whose per-unit info peaks before the end": sum(
                r["correlations"]["info_unit"]["peak_epoch"] < data["settings"]["epochs"] - 1e-9
                for r in runs),
            "snapshots after the peak (mean)": np.mean([
                len(r["snapshots"]["epoch"]) - 1 - int(np.argmax(r["snapshots"]["info_unit"]))
                for r in runs])}


def training_length_table(matched: dict | None, long: dict | None) -> pd.DataFrame:
    """The full profile's setting (the paper's length of training), the earlier long runs and
    the paper, a row each.

    Parameters
    ----------
    matched : dict or None
        The committed full profile's results (:func:`tutorlib.tre.dynamics.committed_results`).
    long : dict or None
        The committed long runs' results (``committed_results(long=True)``).

    Returns
    -------
    pandas.DataFrame
        A row per setting (:func:`training_length_row`), ``nan`` where a setting has no value.
    """
    rows = []
    if matched is not None and matched["data"]["runs"]:
        rows.append(training_length_row(matched["data"], MATCHED))
    if long is not None:
        rows.append(training_length_row(long["data"], LONG))
    rows.append({"setting": "published", "optimiser steps": 2_000,
                 "final validation accuracy (%)": 100 * DYNAMICS_PAPER["validation accuracy"],
                 "r(TRE, per-unit info), all": np.nan,
                 "r(TRE, joint 30-bin info), all":
                     DYNAMICS_PAPER["r(TRE, I(theta; X)), all runs"],
                 "r, compression phase": DYNAMICS_PAPER["r(TRE, I(theta; X)), compression phase"]})
    return pd.DataFrame(rows).set_index("setting")


def formatted_training_length(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`training_length_table` for the page: a column per setting, counts whole, the
    rest to two decimals, "–" where a setting has no value.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`training_length_table`.

    Returns
    -------
    pandas.DataFrame
        The formatted, transposed table.
    """
    counts = ["seeds", "optimiser steps", "per-unit info peaks at step (mean)",
              "runs whose per-unit info peaks before the end"]
    return table.T.apply(lambda row: row.map(
        lambda v: "–" if pd.isna(v) else f"{v:,.0f}" if row.name in counts else f"{v:.2f}"),
        axis=1)


def training_length_facts(table: pd.DataFrame) -> dict[str, str]:
    """The facts the chapter states about :func:`training_length_table`, by name.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`training_length_table`.

    Returns
    -------
    dict of str to str
        The full profile's and the long runs' numbers ("–" where missing), and whether TRE
        and information fall together after the peak in the long runs.
    """
    def value(row: str, column: str, digits: int) -> str:
        if row not in table.index or pd.isna(table.loc[row, column]):
            return "–"
        return f"{table.loc[row, column]:.{digits}f}"

    facts = {name: value(row, column, digits) for name, row, column, digits in [
        ("matched_seeds", MATCHED, "seeds", 0),
        ("matched_best", MATCHED, "best validation accuracy (%)", 1),
        ("matched_final", MATCHED, "final validation accuracy (%)", 1),
        ("matched_r_unit", MATCHED, "r(TRE, per-unit info), all", 2),
        ("matched_r_compression", MATCHED, "r, compression phase", 2),
        ("matched_r_joint", MATCHED, "r(TRE, joint 30-bin info), all", 2),
        ("matched_peaked", MATCHED, "runs whose per-unit info peaks before the end", 0),
        ("matched_after_peak", MATCHED, "snapshots after the peak (mean)", 1),
        ("long_after_peak", LONG, "snapshots after the peak (mean)", 1),
        ("long_best", LONG, "best validation accuracy (%)", 1),
        ("long_r_unit", LONG, "r(TRE, per-unit info), all", 2),
        ("long_r_compression", LONG, "r, compression phase", 2)]}
    compression = table.loc[LONG, "r, compression phase"] if LONG in table.index else np.nan
    facts["long_compression_verdict"] = (
        "not yet committed" if pd.isna(compression) else
        f"there TRE and information move in opposite directions after the peak (r = "
        f"{compression:.2f})" if compression < 0 else
        f"there they fall together after the peak (r = {compression:.2f}), as in the paper")
    return facts


def plot_training(long_run: pd.DataFrame, frames: dict[int, pd.DataFrame], ideal: float,
                  long_label: str):
    """Validation accuracy and TRE over training: the long run as lines, this page's runs as
    dots, beside the ideal observer and the paper's final accuracy.

    Parameters
    ----------
    long_run : pandas.DataFrame
        Snapshots of the long run (``epoch``, ``val_accuracy``, ``tre``, ``tre_single``,
        ``tre_conjunction``).
    frames : dict of int to pandas.DataFrame
        This page's runs' snapshots, by seed (the first seed's TRE is drawn).
    ideal : float
        The ideal observer's accuracy (0-1).
    long_label : str
        The long run's name in the legend.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8.5, 3.8), layout="constrained")
    axes[0].plot(long_run["epoch"], 100 * long_run["val_accuracy"], color="#0072B2", lw=1,
                 label=long_label)
    for seed, frame in frames.items():
        axes[0].plot(frame["epoch"], 100 * frame["val_accuracy"], "o", color="#E69F00", ms=4,
                     label=f"this page, seed {seed}")
    axes[0].axhline(100 * ideal, color="grey", linestyle=":", label="ideal observer")
    axes[0].axhline(100 * DYNAMICS_PAPER["validation accuracy"], color="#D55E00", linestyle="--",
                    label="published, end of training")
    axes[0].set(xlabel="epoch", ylabel="validation accuracy (%)",
                title="(a) Validation accuracy")
    axes[0].legend(loc="lower right")
    for column, label, colour in [("tre", "all 218 concepts", "#0072B2"),
                                  ("tre_single", "single values", "#009E73"),
                                  ("tre_conjunction", "conjunctions", "#CC79A7")]:
        axes[1].plot(long_run["epoch"], long_run[column], color=colour, lw=1, label=label)
    shown = next(iter(frames.values()))
    axes[1].plot(shown["epoch"], shown["tre"], "o", color="#E69F00", ms=4, label="this page, all")
    axes[1].set(xlabel="epoch", ylabel="TRE (additive, cosine)",
                title="(b) TRE of the probe concepts")
    axes[1].legend(loc="lower right")
    return fig
