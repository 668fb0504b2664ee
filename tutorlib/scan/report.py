"""What the SCAN chapters state about the committed runs: the facts they glue into their prose.

:func:`exp3_facts` gathers every number the chapter "Experiment 3: adding a primitive" states
(the committed full-profile runs beside the paper's numbers, the per-example control, the error
analysis, the composed-jump curve, the template and filler splits, and this page's live runs),
formatted for the text; the chapter glues them in one call (:func:`tutorlib.facts.glue_facts`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pandas as pd

from tutorlib import profiles
from tutorlib.colours import PALETTE
from tutorlib.facts import number
from tutorlib.scan import experiments as exps
from tutorlib.scan import translation

# The template and filler splits of Loula et al. (2018) that chapter 5 reports.
# (the filler splits by their number of fillers, the three-filler one, template_jump_around_right,
# last)
LOULA_SPLITS = ["template_around_right", "template_opposite_right", "template_right",
                "filler_num0", "filler_num1", "filler_num2", "template_jump_around_right"]
# The templates never seen in training (around right is held out, as are its parts' uses).
NEW_TEMPLATES = ["template_around_right", "template_opposite_right", "template_right"]
# The composed-jump curve of the paper's Fig. 5, by the number of composed jump commands.
COMPOSED_JUMPS = (4, 8, 16, 32)


def _of_family(committed: pd.DataFrame, family: str) -> pd.DataFrame:
    """The runs whose split belongs to ``family`` (:func:`tutorlib.scan.experiments.split_info`)."""
    families = committed["split"].map(lambda name: exps.split_info(name)["family"])
    return committed[families == family]


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
    runs = _of_family(committed, "addprim_complex_jump")
    return exps.accuracy_summary(runs, by="num") if len(runs) else pd.DataFrame()


def live_training(settings) -> str:
    """How a profile's live network is trained, as the chapters' prose reads it: "N
    presentations", or for a run trained to the gate "at most N presentations, stopping at
    the first epoch that gets P% of 500 training commands right"."""
    recipe = settings["recipe"]
    if recipe.get("stop_at") is None:
        return f"{number(recipe['presentations'], 0)} presentations"
    return (f"at most {number(recipe['presentations'], 0)} presentations, stopping at the first "
            f"epoch that gets {100 * recipe['stop_at']:.0f}% of 500 of its training commands right")


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
        Name -> text (numbers formatted by :func:`tutorlib.facts.number`); the chapters write
        the sentences.
    """
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
        "exp3_batch_size": number(full_settings["recipe"]["batch_size"], 0),
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
    facts["exp3_paper_past_half"] = number(min(n for n, v in published.items() if v > 50), 0)
    facts["exp3_past_half"] = number(min(curve.index[curve["accuracy"] > 50]), 0)
    # this page's live runs
    for split_name, result in primitive_runs.items():
        name = split_name.removeprefix("addprim_")
        facts[f"exp3_live_{name}"] = number(100 * result["accuracy"], 2 if name == "jump" else 1)
        facts[f"exp3_live_{name}_train"] = number(100 * result["train_accuracy"])
    facts["exp3_network"] = network
    facts["exp3_live_presentations"] = live_training(settings)
    # the template and filler splits
    for name in LOULA_SPLITS:
        facts[f"exp3_{name}"] = number(stats.loc[name, "accuracy"])
        if exps.split_info(name)["family"] == "filler":  # the text gives their spread
            facts[f"exp3_{name}_min"] = number(stats.loc[name, "accuracy min"])
            facts[f"exp3_{name}_max"] = number(stats.loc[name, "accuracy max"])
    facts["exp3_new_template_train_min"] = number(
        stats.loc[NEW_TEMPLATES, "train accuracy min"].min())
    return facts


# Exp. 2's example of a long command, and the action lengths whose accuracy the prose states.
LONG_EXAMPLE = "jump around left twice and walk opposite right thrice"


def exp2_facts(committed: pd.DataFrame, live: dict, settings, network: str) -> dict[str, str]:
    """Every fact the chapter "Experiment 2" glues into its prose, by name.

    Parameters
    ----------
    committed : pandas.DataFrame
        The committed full-profile runs (:func:`tutorlib.scan.experiments.committed_runs`).
    live : dict
        This page's live run on the length split (its record, with ``oracle_accuracy``).
    settings : tutorlib.profiles.Settings
        The page's ``scan`` settings.
    network : str
        The page's network in words (:func:`tutorlib.scan.experiments.describe`).

    Returns
    -------
    dict of str to str
        Name -> text (numbers formatted by :func:`tutorlib.facts.number`).
    """
    length_train, length_test = exps.scan.split("length")
    target_lengths = [len(actions.split()) for _, actions in length_test]
    facts = {
        "exp2_network": network,
        "exp2_live_presentations": live_training(settings),
        "exp2_live": number(100 * live["accuracy"]),
        "exp2_live_train": number(100 * live["train_accuracy"]),
        "exp2_live_oracle": number(100 * live["oracle_accuracy"]),
        "exp2_cutoff": number(exps.scan.LENGTH_CUTOFF, 0),
        "exp2_train_size": number(len(length_train), 0),
        "exp2_test_size": number(len(length_test), 0),
        "exp2_test_shortest": number(min(target_lengths), 0),
        "exp2_test_longest": number(max(target_lengths), 0),
        "exp2_example_length": number(len(exps.scan.interpret(LONG_EXAMPLE)), 0),
    }
    length_runs = committed[committed["split"] == "length"]
    length_stats = exps.accuracy_summary(length_runs, by="network")
    for name, key in {"lstm": "overall_best", "gru": "exp2_best"}.items():
        stats = length_stats.loc[key]
        facts |= {f"exp2_{name}": number(stats["accuracy"]),
                  f"exp2_{name}_sd": number(stats["accuracy sd"]),
                  f"exp2_{name}_oracle": number(stats["oracle accuracy"]),
                  f"exp2_{name}_oracle_sd": number(stats["oracle accuracy sd"]),
                  f"exp2_{name}_train": number(stats["train accuracy"]),
                  f"exp2_paper_{name}": number(exps.PAPER["length"][key]),
                  f"exp2_paper_{name}_oracle": number(exps.PAPER["length_oracle"][key])}
        runs = length_runs[length_runs["network"] == key]
        greedy = pd.DataFrame([r["action length"] for r in runs["by_length"]]).mean()
        for actions in (24, 25):  # greedy decoding, mean over seeds
            facts[f"exp2_{name}_at_{actions}"] = number(100 * greedy[str(actions)], 0)
        oracle = pd.DataFrame([r["action length"] for r in runs["oracle_by_length"]]).mean()
        oracle.index = oracle.index.astype(int)
        facts[f"exp2_{name}_oracle_26_40"] = number(100 * oracle.loc[26:40].mean(), 0)
        facts[f"exp2_{name}_oracle_at_40"] = number(100 * oracle.loc[40], 0)
    facts["exp2_seeds"] = number(length_stats["runs"].min(), 0)
    lstm_oracle = sorted(100 * length_runs[length_runs["network"] == "overall_best"]
                         ["oracle_accuracy"])
    facts["exp2_lstm_oracle_low"] = number(lstm_oracle[0])  # every seed but the best, the best
    facts["exp2_lstm_oracle_second"] = number(lstm_oracle[-2])
    facts["exp2_lstm_oracle_best"] = number(lstm_oracle[-1])
    return facts


# ---------------------------------------------------------------------------------------------
# Experiment 2's tables and figures

# The paper's two networks on the length split, as chapter 4 names them.
LENGTH_NETWORKS = {"overall-best": "overall_best", "Exp. 2 best": "exp2_best"}


def length_table(committed: pd.DataFrame) -> pd.DataFrame:
    """The committed length-split runs of the paper's two networks beside the published means.

    Parameters
    ----------
    committed : pandas.DataFrame
        :func:`tutorlib.scan.experiments.committed_runs`.

    Returns
    -------
    pandas.DataFrame
        A row per network (seeds; training, test and oracle-length accuracy in %; the paper's
        two numbers), or one row saying the runs are not committed.
    """
    rows = []
    for name, key in LENGTH_NETWORKS.items():
        runs = committed[(committed["split"] == "length") & (committed["network"] == key)]
        if len(runs):
            rows.append({"network": name, "seeds": len(runs),
                         "training accuracy (%)": 100 * runs["train_accuracy"].mean(),
                         "test accuracy (%)": 100 * runs["accuracy"].mean(),
                         "oracle length (%)": 100 * runs["oracle_accuracy"].mean(),
                         "published (%)": exps.PAPER["length"][key],
                         "published, oracle length (%)": exps.PAPER["length_oracle"][key]})
    if not rows:
        return pd.DataFrame([{"full-profile results": "not yet committed: run `python -m "
                                                      "tutorlib run scan --profile full`"}])
    return pd.DataFrame(rows).set_index("network")


def plot_live_by_length(live: dict, max_test: int | None):
    """A live length-split run's accuracy by action-sequence length and by command length,
    greedy and with oracle lengths (the paper's Fig. 4).

    Parameters
    ----------
    live : dict
        The run's record (with ``correct`` and ``oracle_correct``).
    max_test : int or None
        The test subset the run was scored on (:func:`tutorlib.scan.experiments.test_subset`).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), layout="constrained", sharey=True)
    for key, style, label in [("correct", "-", "greedy"), ("oracle_correct", "--", "oracle length")]:
        by = exps.accuracy_by_length("length", live, key, max_test=max_test)
        for ax, breakdown in zip(axes, ["action length", "command length"]):
            ax.plot(list(by[breakdown]), [100 * v for v in by[breakdown].values()], style,
                    marker="o", ms=4, label=label)
    axes[0].set_xlabel("length of the true action sequence (actions)")
    axes[1].set_xlabel("length of the command (words)")
    axes[0].set_ylabel("test accuracy (% exact match)")
    axes[0].set_title("(a) By action-sequence length")
    axes[1].set_title("(b) By command length")
    for ax in axes:
        ax.set_ylim(-2, 102)
    axes[0].legend()
    return fig


def plot_committed_length(committed: pd.DataFrame):
    """The committed length-split runs: every seed beside the published means, and accuracy by
    action length (mean over seeds), greedy and with oracle lengths.

    Parameters
    ----------
    committed : pandas.DataFrame
        :func:`tutorlib.scan.experiments.committed_runs` (with length-split runs).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    length_runs = committed[committed["split"] == "length"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), layout="constrained",
                             gridspec_kw={"width_ratios": [1, 1.6]})
    for i, (name, key) in enumerate(LENGTH_NETWORKS.items()):
        runs = length_runs[length_runs["network"] == key]
        for j, (column, paper_column) in enumerate(
                [("accuracy", "length"), ("oracle_accuracy", "length_oracle")]):
            x = 2 * i + j
            axes[0].plot([x] * len(runs), 100 * runs[column], "o", color=PALETTE[0], alpha=0.7,
                         label="our seeds" if x == 0 else None)
            axes[0].plot([x], [exps.PAPER[paper_column][key]], "s", color=PALETTE[3], ms=9,
                         label="published" if x == 0 else None)
        for column, style in [("by_length", "-"), ("oracle_by_length", "--")]:
            curves = pd.DataFrame([r["action length"] for r in runs[column]])
            curves.columns = curves.columns.astype(int)
            mean = curves[sorted(curves.columns)].mean()
            axes[1].plot(mean.index, 100 * mean.values, style, marker="o", ms=3,
                         color=[PALETTE[0], PALETTE[2]][i],
                         label=f"{name}, {'greedy' if column == 'by_length' else 'oracle length'}")
    # short labels, the network named once under each pair (long ones overlapped)
    axes[0].set_xticks(range(4), ["greedy", "oracle", "greedy", "oracle"], fontsize=9)
    for i, name in enumerate(LENGTH_NETWORKS):
        axes[0].annotate(name, (2 * i + 0.5, 0), xycoords=("data", "axes fraction"),
                         xytext=(0, -28), textcoords="offset points", ha="center", fontsize=9)
    axes[0].set_ylabel("test accuracy (% exact match)")
    axes[0].set_title("(a) Every committed seed")
    axes[1].set_xlabel("length of the true action sequence (actions)")
    axes[1].set_title("(b) By action length, mean over seeds")
    for ax in axes:
        ax.set_ylim(-2, 102)
        ax.legend(fontsize=8)
    return fig


# ---------------------------------------------------------------------------------------------
# Experiment 3's nearest neighbours (the paper's Table 1), and Experiment 4's translation runs


def neighbour_table(neighbours: Mapping[str, list]) -> pd.DataFrame:
    """Our nearest training commands beside the paper's (Lake & Baroni 2018, Table 1).

    Parameters
    ----------
    neighbours : mapping of str to list of (str, float)
        :func:`tutorlib.scan.experiments.nearest_neighbours` for the paper's queries.

    Returns
    -------
    pandas.DataFrame
        Indexed by query and rank: our command (cosine similarity) and the paper's (with its
        similarity).
    """
    return pd.DataFrame([
        {"query": query, "rank": rank + 1,
         "ours: training command (cosine similarity)": f"{command} ({similarity:.2f})",
         "published: training command (cosine similarity)":
             f"{exps.PAPER_NEIGHBOURS[query][rank]} ({exps.PAPER_SIMILARITIES[query][rank]:.2f})"}
        for query in neighbours
        for rank, (command, similarity) in enumerate(neighbours[query])
    ]).set_index(["query", "rank"])


def full_neighbour_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The committed full-profile Table 1 study beside the paper: for each query and rank, the
    nearest training command by the encoder's final state and by the decoder's, and the paper's.

    Parameters
    ----------
    frame : pandas.DataFrame
        :func:`tutorlib.scan.experiments.committed_neighbours` (not empty).

    Returns
    -------
    pandas.DataFrame
        Indexed by query and rank; one column per state and one for the paper, each
        "command (cosine similarity)".
    """
    if frame.empty:
        raise ValueError("no committed neighbour study: run "
                         "tutorlib.scan.experiments.write_neighbour_study()")
    shown = frame.assign(text=[f"{c} ({s:.2f})" for c, s in zip(frame["command"],
                                                                  frame["similarity"])])
    table = shown.pivot_table(index=["query", "rank"], columns="state", values="text",
                              aggfunc="first")
    table = table[[s for s in exps.STATES if s in table.columns]]  # the encoder's first
    table.columns = [f"ours, {state} state" for state in table.columns]
    paper = (frame.drop_duplicates(["query", "rank"]).set_index(["query", "rank"]))
    table["published (Table 1)"] = [f"{c} ({s:.2f})" for c, s in
                                    zip(paper.loc[table.index, "paper command"],
                                        paper.loc[table.index, "paper similarity"])]
    order = list(dict.fromkeys(frame["query"]))
    return table.reindex(order, level="query")


TRANSLATION_FACTS = ("exp4_full_seeds", "exp4_full_daxy_range", "exp4_full_tired_min",
                     "exp4_full_test_min", "exp4_full_hardest")


def translation_table(runs: pd.DataFrame) -> pd.DataFrame:
    """The committed Exp. 4 runs seed by seed, and the paper's two counts.

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`tutorlib.scan.translation.committed_runs` (not empty).

    Returns
    -------
    pandas.DataFrame
        A row per seed and one for the paper: "daxy" and "tired" constructions right of 8,
        how often "daxy" was translated with its word, test accuracy, training minutes.
    """
    table = pd.DataFrame({
        "seed": runs["seed"],
        "daxy: right of 8": [r["right"] for r in runs["daxy"]],
        "daxy: translated as daxiste": [r["word used"] for r in runs["daxy"]],
        "tired: right of 8": [r["right"] for r in runs["tired"]],
        "test sentences right (%)": [100 * r["accuracy"] for r in runs["test"]],
        "training minutes": runs["train_seconds"] / 60}).set_index("seed")
    published = pd.DataFrame({"daxy: right of 8": [translation.PAPER["daxy"]["right"]],
                              "tired: right of 8": [translation.PAPER["tired"]["right"]]},
                             index=pd.Index(["published (real corpus)"], name="seed"))
    return pd.concat([table, published])


def translation_facts(runs: pd.DataFrame) -> dict[str, str]:
    """The facts the chapter states about the committed Exp. 4 runs ("–" for each when none).

    Parameters
    ----------
    runs : pandas.DataFrame
        :func:`tutorlib.scan.translation.committed_runs`.

    Returns
    -------
    dict of str to str
        Seeds, the range of "daxy" constructions right, the fewest "tired" ones right, the
        lowest test accuracy, and the three "daxy" sentences most often wrong.
    """
    if not len(runs):
        return dict.fromkeys(TRANSLATION_FACTS, "–")
    daxy_right = [r["right"] for r in runs["daxy"]]
    wrong = Counter(s for r in runs["daxy"] for s, ok in zip(r["sentences"], r["correct"])
                    if not ok)
    return {
        "exp4_full_seeds": f"{len(runs)}",
        "exp4_full_daxy_range": f"{min(daxy_right)} to {max(daxy_right)}"
                                if min(daxy_right) != max(daxy_right) else f"{min(daxy_right)}",
        "exp4_full_tired_min": f"{min(r['right'] for r in runs['tired'])}",
        "exp4_full_test_min": f"{100 * min(r['accuracy'] for r in runs['test']):.1f}",
        "exp4_full_hardest": ", ".join(f'"{s}" ({n} of {len(runs)})'
                                       for s, n in wrong.most_common(3)) or "none",
    }


# ---------------------------------------------------------------------------------------------
# The SCAN task's figures (chapter 2)


def plot_lengths(pairs: list) -> object:
    """How long SCAN's action sequences and commands are: a histogram each, with the length
    split's cut-off marked.

    Parameters
    ----------
    pairs : list of (str, str)
        Commands and their action sequences (all of SCAN: :func:`tutorlib.scan.all_pairs`).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    actions_length, command_length = exps.scan.length_counts(pairs)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), layout="constrained")
    lengths = sorted(actions_length)
    axes[0].bar(lengths, [actions_length[n] for n in lengths], color=PALETTE[0])
    axes[0].axvline(exps.scan.LENGTH_CUTOFF + 0.5, color=PALETTE[3], ls="--",
                    label=f"length split: train ≤ {exps.scan.LENGTH_CUTOFF}")
    axes[0].set_xlabel("action sequence length (actions)")
    axes[0].set_ylabel("number of commands")
    axes[0].set_title("(a) Action sequence lengths")
    axes[0].legend()
    words = sorted(command_length)
    axes[1].bar(words, [command_length[n] for n in words], color=PALETTE[2])
    axes[1].set_xlabel("command length (words)")
    axes[1].set_ylabel("number of commands")
    axes[1].set_title("(b) Command lengths")
    return fig


def plot_test_lengths(split_names=("simple", "length", "addprim_jump")):
    """The distribution of test-set action lengths of a few splits, one line each.

    Parameters
    ----------
    split_names : sequence of str
        Splits (:func:`tutorlib.scan.split`), at most three.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 3.6), layout="constrained")
    offsets = [0.25 * (i - (len(split_names) - 1) / 2) for i in range(len(split_names))]
    for name, colour, offset in zip(split_names, [PALETTE[0], PALETTE[3], PALETTE[2]], offsets,
                                    strict=False):
        _, test = exps.scan.split(name)
        counts, _ = exps.scan.length_counts(test)
        # a discrete distribution: a stem per length a test command has (side by side, so that
        # splits with the same lengths do not hide each other), no line across lengths
        xs = sorted(counts)
        shares = [counts[x] / len(test) for x in xs]
        ax.vlines([x + offset for x in xs], 0, shares, color=colour, alpha=0.7)
        ax.plot([x + offset for x in xs], shares, "o", ms=3, color=colour, label=f"{name} test")
    ax.set_xlabel("action sequence length (actions)")
    ax.set_ylabel("fraction of test commands")
    ax.set_title("Test-set action lengths of three splits")
    ax.legend()
    return fig
