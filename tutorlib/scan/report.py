"""What the SCAN chapters state about the committed runs: the facts they glue into their prose.

:func:`exp3_facts` gathers every number the chapter "Experiment 3: adding a primitive" states
(the committed full-profile runs beside the paper's numbers, the per-example control, the error
analysis, the composed-jump curve, the template and filler splits, and this page's live runs),
formatted for the text; the chapter glues them in one call (:func:`tutorlib.facts.glue_facts`).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from tutorlib import profiles
from tutorlib.facts import number
from tutorlib.scan import experiments as exps

# The template and filler splits of Loula et al. (2018) that chapter 5 reports.
LOULA_SPLITS = ["template_around_right", "template_opposite_right", "template_right",
                "template_jump_around_right", "filler_num0", "filler_num1", "filler_num2"]
# The templates never seen in training (around right is held out, as are its parts' uses).
NEW_TEMPLATES = ["template_around_right", "template_opposite_right", "template_right"]
# The composed-jump curve of the paper's Fig. 5, by the number of composed jump commands.
COMPOSED_JUMPS = (4, 8, 16, 32)


def paper_jump_curve() -> dict[int, float]:
    """The paper's Fig. 5: accuracy (%) by the number of composed jump commands in training.

    Returns
    -------
    dict of int to float
        Composed commands -> published accuracy (%).
    """
    return {n: exps.PAPER[f"addprim_complex_jump_num{n}"]["overall_best"] for n in COMPOSED_JUMPS}


def composed_jump_curve(committed: pd.DataFrame) -> pd.DataFrame:
    """The committed composed-jump runs summarised by the number of composed commands.

    Parameters
    ----------
    committed : pandas.DataFrame
        :func:`tutorlib.scan.experiments.committed_runs`.

    Returns
    -------
    pandas.DataFrame
        :func:`tutorlib.scan.experiments.accuracy_summary` by ``num`` (in %, over
        replications); empty when no such run is committed.
    """
    family = committed["split"].map(lambda name: exps.split_info(name)["family"])
    runs = committed[family == "addprim_complex_jump"]
    return exps.accuracy_summary(runs, by="num") if len(runs) else pd.DataFrame()


def _top_networks(committed: pd.DataFrame, per_example: pd.DataFrame) -> str:
    sentences = []
    for split_name, network, training, label in [
            ("addprim_turn_left", "turn_left_best", "per_example",
             "The paper's top network for `turn left` (a GRU with attention), trained the "
             "paper's way,"),
            ("addprim_jump", "jump_best", "batched",
             "Its top network for `jump` (an LSTM with attention)")]:
        runs = {"per_example": per_example, "batched": committed}[training]
        if len(runs):
            runs = runs[(runs["split"] == split_name) & (runs["network"] == network)]
        if runs.empty:
            sentences.append(f"{label} has no committed runs yet.")
            continue
        sentences.append(
            f"{label} gets {100 * runs['accuracy'].mean():.1f}% (from "
            f"{100 * runs['accuracy'].min():.1f}% to {100 * runs['accuracy'].max():.1f}% over "
            f"{len(runs)} seeds, fitting {100 * runs['train_accuracy'].min():.0f}% to "
            f"{100 * runs['train_accuracy'].max():.0f}% of its training commands; published "
            f"{exps.PAPER[split_name][network]}%).")
    return " ".join(sentences)


def error_summary(analysis: dict | None) -> str:
    """The turn-left error analysis (:func:`tutorlib.scan.experiments.turn_left_errors`) in
    words, beside the paper's (Lake & Baroni 2018, Sec. 5: 45 errors, all conjunctions with
    "turn left" or "turn left thrice").

    Parameters
    ----------
    analysis : dict or None
        The analysis of the median committed run, or ``None`` when no run kept its errors.

    Returns
    -------
    str
        One paragraph.
    """
    if analysis is None:
        return ("No committed run trained the paper's way has kept its errors yet; the count "
                "appears here once the full profile's runs are committed.")
    kinds = analysis["kinds"]
    single = kinds.get("single command", 0)
    plain, thrice = (kinds.get(f"conjunction with '{part}'", 0)
                     for part in ("turn left", "turn left thrice"))
    return (
        f"Our median run (seed {analysis['seed']}, {100 * analysis['accuracy']:.1f}%, the median "
        f"of {analysis['runs']} committed) gets {analysis['errors']:,} test commands wrong "
        f"(the paper's: 45): {plain:,} are conjunctions with plain 'turn left', {thrice:,} with "
        f"'turn left thrice', {kinds.get('other conjunction', 0):,} other conjunctions and "
        f"{single:,} single command{'' if single == 1 else 's'}; 'turn left thrice' on its own is "
        f"{'right' if analysis['thrice_alone_right'] else 'wrong'} (the paper's: right). So "
        f"{100 * (plain + thrice) / max(analysis['errors'], 1):.0f}% of our median run's errors "
        f"are of the paper's two kinds, against all of the paper's"
        + ("; the rest are other conjunctions and single commands." if plain + thrice
           < analysis["errors"] else "."))


def exp3_facts(committed: pd.DataFrame, analysis: dict | None,
               primitive_runs: Mapping[str, dict], settings, network: str) -> dict[str, object]:
    """Every fact the chapter "Experiment 3" glues into its prose, by name.

    Parameters
    ----------
    committed : pandas.DataFrame
        The committed full-profile runs (:func:`tutorlib.scan.experiments.committed_runs`).
    analysis : dict or None
        :func:`tutorlib.scan.experiments.turn_left_errors`.
    primitive_runs : mapping of str to dict
        This page's live runs on ``addprim_jump`` and ``addprim_turn_left`` (their records).
    settings : tutorlib.profiles.Settings
        The page's ``scan`` settings.
    network : str
        The page's network in words (:func:`tutorlib.scan.experiments.describe`).

    Returns
    -------
    dict of str to object
        Name -> text (numbers formatted by :func:`tutorlib.facts.number`), and one
        ``Markdown`` paragraph (``exp3_top_summary``).
    """
    from IPython.display import Markdown  # the book's extra: only chapters ask for facts

    facts: dict[str, object] = {}
    stats = exps.accuracy_summary(committed).xs("overall_best", level="network")  # %, seeds
    full_settings = profiles.settings("scan", "full")
    per_example = exps.committed_runs(training="per_example")  # every split: a run's cost
    control = per_example[(per_example["split"] == "addprim_turn_left")
                          & (per_example["network"] == "overall_best")]
    batched_left = committed[(committed["split"] == "addprim_turn_left")
                             & (committed["network"] == "overall_best")]
    jump_runs = committed[committed["split"] == "addprim_jump"]
    jump, left = stats.loc["addprim_jump"], stats.loc["addprim_turn_left"]
    facts |= {
        "exp3_seeds": number(jump["runs"], 0),
        "exp3_jump": number(jump["accuracy"], 2),
        "exp3_jump_most_right": number(
            (jump_runs["accuracy"] * jump_runs["test_size"]).round().max(), 0),
        "exp3_jump_test_size": number(jump_runs["test_size"].max(), 0),
        "exp3_turn_left": number(left["accuracy"]),
        "exp3_turn_left_min": number(left["accuracy min"]),
        "exp3_turn_left_max": number(left["accuracy max"]),
        "exp3_turn_left_train_min": number(left["train accuracy min"]),
        "exp3_paper_jump": number(exps.PAPER["addprim_jump"]["overall_best"], 2),
        "exp3_paper_turn_left": number(exps.PAPER["addprim_turn_left"]["overall_best"]),
        "exp3_control": number(100 * control["accuracy"].mean()),
        "exp3_control_min": number(100 * control["accuracy"].min()),
        "exp3_control_max": number(100 * control["accuracy"].max()),
        "exp3_control_seeds": number(len(control), 0),
        "exp3_control_planned": number(len(full_settings["seeds"]), 0),
        "exp3_control_lr": number(exps.PER_EXAMPLE_TRAINING["learning_rate"], 3),
        "exp3_control_presentations": number(exps.PER_EXAMPLE_TRAINING["presentations"], 0),
        "exp3_control_minutes": number(per_example[per_example["network"] == "overall_best"]
                                       ["train_seconds"].median() / 60, 0),
        "exp3_curve_runs": number(len(full_settings["complex_jump_nums"])
                                  * full_settings["complex_jump_reps"], 0),
        "exp3_batched_minutes": number(batched_left["train_seconds"].median() / 60, 0),
        "exp3_batch_size": number(full_settings["batch_size"], 0),
        "exp3_top_summary": Markdown(_top_networks(committed, per_example)),
        "exp3_error_summary": error_summary(analysis),
    }
    # the composed-jump curve (Fig. 5): ours by number of composed commands, and the paper's
    curve, published = composed_jump_curve(committed), paper_jump_curve()
    facts["exp3_reps"] = number(curve["runs"].min(), 0)
    facts["exp3_curve_train_min"] = number(curve["train accuracy min"].min())
    for n, value in published.items():
        facts[f"exp3_num{n}"] = number(curve.loc[n, "accuracy"])
        facts[f"exp3_paper_num{n}"] = number(value)
    facts["exp3_num8_min"] = number(curve.loc[8, "accuracy min"])
    facts["exp3_num8_max"] = number(curve.loc[8, "accuracy max"])
    facts["exp3_most_composed"] = number(max(settings["complex_jump_nums"]), 0)
    facts["exp3_paper_past_half"] = number(min(n for n, v in published.items() if v > 50), 0)
    facts["exp3_past_half"] = number(min(curve.index[curve["accuracy"] > 50]), 0)
    # this page's live runs
    for split_name, result in primitive_runs.items():
        name = split_name.removeprefix("addprim_")
        facts[f"exp3_live_{name}"] = number(100 * result["accuracy"], 2 if name == "jump" else 1)
        facts[f"exp3_live_{name}_train"] = number(100 * result["train_accuracy"])
    facts["exp3_network"] = network
    facts["exp3_live_presentations"] = number(settings["presentations"], 0)
    # the template and filler splits
    for name in LOULA_SPLITS:
        facts[f"exp3_{name}"] = number(stats.loc[name, "accuracy"])
        if exps.split_info(name)["family"] == "filler":  # the text gives their spread
            facts[f"exp3_{name}_min"] = number(stats.loc[name, "accuracy min"])
            facts[f"exp3_{name}_max"] = number(stats.loc[name, "accuracy max"])
    facts["exp3_new_template_train_min"] = number(
        stats.loc[NEW_TEMPLATES, "train accuracy min"].min())
    return facts
