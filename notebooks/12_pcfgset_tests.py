# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The five tests on three architectures
#
# **What you will learn**
#
# - how {cite:t}`hupkes2020compositionality` turn five readings of "compositional" into five
#   tests: systematicity, productivity, substitutivity, localism and overgeneralisation;
# - how each test is scored from a trained model's predictions: accuracy, consistency between
#   twins, agreement between whole and unrolled inputs, and a curve over training;
# - how a recurrent (LSTMS2S), a convolutional (ConvS2S) and a Transformer model compare on
#   them, in our runs and in the paper's Table 1;
# - why our small, briefly trained models can only show how the tests work, and which of the
#   paper's findings our runs can speak to.
#
# **What you need first**: {doc}`11_pcfgset_data` (the language and the splits); sequence-to-
# sequence models with attention ({doc}`../scan/03_scan_exp1`).

# %% tags=["parameters"]
PROFILE = "tutorial"

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import display
from myst_nb import glue

from tutorlib import pcfgset, profiles, results
from tutorlib.pcfgset import experiments as exps
from tutorlib.plotting import use_book_style

use_book_style()
settings = profiles.settings("pcfgset", PROFILE)
options = exps.train_options(settings)

# %% [markdown]
# ## Three architectures
#
# The paper compares three encoder-decoder architectures: **LSTMS2S**, a recurrent model with a
# bidirectional LSTM encoder and attention; **ConvS2S**, the convolutional model of Gehring et
# al. (2017), whose encoder and decoder are stacks of gated convolutions with attention in
# every decoder layer; and the **Transformer** of Vaswani et al. (2017), built from
# self-attention. All three are in `tutorlib.seq2seq`. ConvS2S and the Transformer use
# sinusoidal positions here, so that the productivity test's longer inputs and outputs never
# need a position that was not trained.
#
# A run trains one architecture on one training split and scores every test that uses that
# model (the base model is scored on the task and on localism). Trained models and scores are
# cached on disk, so running this chapter again trains nothing.

# %% tags=["remove-stderr"]
records = exps.profile_records(settings)
runs = pd.DataFrame(records)
architectures = (runs.groupby("network", sort=False)
                 .agg(parameters=("parameters", "first"), training_pairs=("train_pairs", "max"),
                      epochs=("epochs", "max"), seconds=("train_seconds", "sum"))
                 .assign(hidden_size=settings.hidden_size, layers=settings.num_layers,
                         presentations=settings.presentations))
glue("presentations", f"{settings.presentations:,}", display=False)
glue("train_size", f"{runs['train_pairs'].max():,}", display=False)
glue("hidden_size", f"{settings.hidden_size}", display=False)
glue("parameters_max", f"{architectures['parameters'].max():,}", display=False)
glue("epoch_fraction", f"{100 * settings.presentations / len(pcfgset.base_corpus(0).train):.1f}",
     display=False)
architectures[["hidden_size", "layers", "parameters", "training_pairs", "presentations",
               "epochs"]]

# %% [markdown]
# *Table 1.* The networks trained at this profile ({glue:text}`presentations` presentations
# each, on subsets of up to {glue:text}`train_size` pairs; "epochs" counts passes over the
# subset).
#
# ## The task
#
# Before the tests: how well does a model learn PCFG SET itself? The base split trains on the
# corpus's training pairs and tests on its test pairs; the score is sequence accuracy (an
# output is right only if every symbol is).

# %%
def scores(split_prefix: str, columns: list[str]) -> pd.DataFrame:
    """The runs of one kind of split: the columns asked for, a row per network (seed means)."""
    chosen = runs[runs["split"].str.startswith(split_prefix)]
    return chosen.groupby("network", sort=False)[columns].mean()


def say(key: str, frame: pd.DataFrame, column: str) -> None:
    """Glue one score of every network as a phrase, e.g. "ConvS2S 0.12, Transformer 0.30"."""
    glue(key, ", ".join(f"{network} {value:.2f}" for network, value in frame[column].items()),
         display=False)


task = scores("pcfgset", ["accuracy", "test_size"])
glue("task_best", f"{task['accuracy'].max():.2f}", display=False)
say("result_task", task, "accuracy")
task.round(3)

# %% [markdown]
# **Our result.** Task accuracy: {glue:text}`result_task` (the paper: .79 for LSTMS2S, .85 for
# ConvS2S, .92 for the Transformer). The paper also broke the accuracy down by the
# length of the input and by the number of functions in it (its Fig. 3): longer inputs, with
# more functions, are harder.

# %%
def by_length(split_name: str, which: str, frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """Accuracy per value of ``which`` (input_length or num_functions), a column per network,
    pooled over seeds (``frame``: the runs, by default this chapter's)."""
    frame = runs if frame is None else frame
    out = {}
    for network, group in frame[frame["split"] == split_name].groupby("network", sort=False):
        totals: dict[int, np.ndarray] = {}
        for counts in group["by_length"]:
            for value, (n, hits) in counts[which].items():
                totals[int(value)] = totals.get(int(value), np.zeros(2)) + (n, hits)
        out[network] = {value: hits / n for value, (n, hits) in sorted(totals.items())}
    return pd.DataFrame(out).sort_index()


fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
for ax, which, label in [(axes[0], "input_length", "input length (tokens)"),
                         (axes[1], "num_functions", "number of functions")]:
    table = by_length("pcfgset", which)
    for network in table.columns:
        ax.plot(table.index, table[network], marker="o", label=network)
    ax.set_xlabel(label)
    ax.set_ylim(-0.03, 1.03)
axes[0].set_ylabel("sequence accuracy")
axes[0].legend()
fig.suptitle(f"Figure 1. Task accuracy by input length and number of functions ({PROFILE} profile)")
fig.tight_layout()
plt.show()

# %% [markdown]
# *Figure 1.* Accuracy on the base test set against the input's length (left) and its number of
# functions (right), one line per architecture (our runs; the paper's Fig. 3 has the same
# axes). Each point averages the test inputs of that length in this run's test sample.
#
# ## Systematicity: new combinations of known parts
#
# **Question.** Can a model interpret combinations of functions it has never seen adjacent,
# having seen each function in other combinations? **Split.** No training input contains
# `swap_first_last repeat`, `append remove_second`, `repeat remove_second` or
# `append swap_first_last`; every test input contains one. **Score.** Accuracy on the test set.

# %%
systematicity = scores("systematicity", ["accuracy", "test_size"])
say("result_systematicity", systematicity, "accuracy")
systematicity.round(3)

# %% [markdown]
# **Our result.** Systematicity accuracy: {glue:text}`result_systematicity` (the paper: .53,
# .56, .72).

# %% [markdown]
# ## Productivity: longer than anything seen
#
# **Question.** Can a model interpret inputs with more functions than any training input?
# **Split.** Training inputs have at most 8 functions, test inputs 9 or more (so they are longer
# too). **Score.** Accuracy on the test set.

# %%
productivity = scores("productivity", ["accuracy", "test_size"])
say("result_productivity", productivity, "accuracy")
productivity.round(3)

# %% [markdown]
# **Our result.** Productivity accuracy: {glue:text}`result_productivity` (the paper: .30, .31,
# .50).

# %% [markdown]
# ## Substitutivity: synonyms
#
# **Question.** If two functions mean the same, does the model treat them the same?
# **Split.** `append`, `swap_first_last`, `repeat` and `remove_second` have twins with the same
# meaning. *Equally distributed*: half of their occurrences in training use the twin.
# *Primitive*: the twins appear only in single-function inputs. **Score.** *Consistency*: the
# fraction of test inputs whose prediction is identical to the prediction for its twin input
# (and not empty), whether or not it is correct. It measures whether the model treats the
# synonyms as equal, not whether it has learned the task.

# %%
substitutivity = pd.concat({
    condition: scores(f"substitutivity_{condition}",
                      ["consistency", "accuracy", "twin_accuracy", "consistent_correct"])
    for condition in ["equally_distributed", "primitive"]}, names=["condition"])
for condition in ["equally_distributed", "primitive"]:
    say(f"result_{condition}", substitutivity.loc[condition], "consistency")
substitutivity.round(3)

# %% [markdown]
# **Our result.** Consistency, equally distributed: {glue:text}`result_equally_distributed`
# (the paper: .80, .95, .98); primitive: {glue:text}`result_primitive` (the paper: .60, .58,
# .90).

# %% [markdown]
# Here is one twin pair with the predictions of the first network trained on the primitive
# condition:

# %%
first = settings.architectures[0]
config = exps.architecture_config(first, settings.hidden_size, settings.num_layers,
                                  settings.dropout)
twin_model, _ = exps.trained_model(config, "substitutivity_primitive", settings.seeds[0], options)
originals, twins = exps.twin_pairs("primitive", settings.max_test, settings.max_output_length)
length = (settings.max_output_length or 224) + 10
pair = [originals[0][0], twins[0][0]]
with pd.option_context("display.max_colwidth", None):
    display(pd.DataFrame({"input": pair, "target": [originals[0][1]] * 2,
                          "prediction": exps.predict(twin_model, pair, length)},
                         index=["original", "twin"]))

# %% [markdown]
# ## Localism: is the meaning computed from the parts?
#
# **Question.** Does a model compute the meaning of an input from the meanings of its parts
# (locally), or from the input as a whole (globally)? **Split.** The base model and test set;
# each test input is unrolled into single-function steps ({doc}`11_pcfgset_data`). The model's
# own prediction for each step is fed into the later steps that use it. **Score.** The fraction
# of inputs whose final unrolled prediction equals the model's prediction for the whole input,
# right or wrong.

# %%
localism = scores("pcfgset", ["localism", "unrolled_accuracy", "accuracy"])
say("result_localism", localism, "localism")
localism.round(3)

# %% [markdown]
# **Our result.** Localism: {glue:text}`result_localism` (the paper: .46, .59, .54).

# %% [markdown]
# One input, step by step, with the base model of the first network:

# %%
base_model, _ = exps.trained_model(config, "pcfgset", settings.seeds[0], options)
source, target = exps.test_pairs("pcfgset", settings.max_test, settings.max_output_length)[0]


def right_answer(step_input: str) -> str:
    try:
        return " ".join(pcfgset.interpret(step_input))
    except ValueError:  # an earlier step's prediction was empty
        return "(not a valid input)"


outputs, rows = [], []
for step in pcfgset.unroll(source):
    filled = pcfgset.substitute(step, outputs)
    outputs.append(exps.predict(base_model, [filled], length)[0])
    rows.append({"step": step, "fed to the model": filled, "prediction": outputs[-1],
                 "right answer": right_answer(filled)})
rows.append({"step": "(whole input)", "fed to the model": source,
             "prediction": exps.predict(base_model, [source], length)[0], "right answer": target})
with pd.option_context("display.max_colwidth", None):
    display(pd.DataFrame(rows))

# %% [markdown]
# A model that predicts the same output for every input is perfectly "local" by this score,
# so localism is read together with the accuracy beside it (exercise 2).
#
# ## Overgeneralisation: rules before exceptions
#
# **Question.** When a few training inputs break a rule, does the model first apply the rule to
# them (overgeneralise, as children say "goed"), and how long until it memorises the exception?
# **Split.** `reverse echo`, `prepend reverse`, `echo remove_first` and `prepend remove_first`
# take an exceptional meaning in a few training inputs; at this profile the ratio is
# {glue:text}`over_ratio` of the rarer function's occurrences (scaled with the training subset).
# **Score.** After every epoch, the fraction of the exceptions the model answers with the
# exception's output (memorisation) and with the rule's output (overgeneralisation); the
# paper's Table 1 reports the peak of overgeneralisation.

# %%
over_runs = runs[runs["split"].str.startswith("overgeneralisation")]
glue("over_ratio", f"{100 * settings.overgeneralisation_ratios[0]:g}%", display=False)
overgeneralisation = scores("overgeneralisation", ["overgeneralisation_peak", "peak_epoch",
                                                   "final_memorisation", "exceptions"])
say("result_overgeneralisation", overgeneralisation, "overgeneralisation_peak")
overgeneralisation.round(3)

# %% [markdown]
# **Our result.** Peak overgeneralisation: {glue:text}`result_overgeneralisation` (the paper:
# .68, .79, .88).

# %%
fig, ax = plt.subplots(figsize=(7, 3.8))
for (network, group), colour in zip(over_runs.groupby("network", sort=False),
                                    ["#0072B2", "#D55E00", "#009E73"]):
    curve = pd.DataFrame(group["curve"].iloc[0])
    ax.plot(curve["epoch"], curve["overgeneralisation"], color=colour, marker="o",
            label=f"{network}: rule (overgeneralisation)")
    ax.plot(curve["epoch"], curve["memorisation"], color=colour, linestyle="--", marker="x",
            label=f"{network}: exception (memorisation)")
ax.set_xlabel("epoch (passes over the training subset)")
ax.set_ylabel("fraction of the exceptions")
ax.set_ylim(-0.03, 1.03)
ax.set_title(f"Figure 2. Rule or exception during training ({PROFILE} profile)")
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# *Figure 2.* For the training exceptions, the fraction answered by the rule (solid) and by the
# exception (dashed) after each epoch, for each architecture (seed {glue:text}`first_seed`).
# The paper's Fig. 5 shows the same curves: overgeneralisation rising first, then falling as
# the exceptions are memorised.

# %%
glue("first_seed", str(settings.seeds[0]), display=False)

# %% [markdown]
# ## Table 1: ours beside the paper's
#
# The paper's Table 1, and the same scores from our runs (means over seeds; empty where this
# profile does not train that architecture):

# %%
ours_table = exps.table(records)
ours_table.round(2)

# %% [markdown]
# Which of the paper's orderings of the three architectures (which is best, which worst) does
# our run reproduce, test by test?

# %%
def orderings(frame: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for test, row in frame.iterrows():
        ours = {n: row[n] for n in exps.ARCHITECTURE_NAMES if pd.notna(row[n])}
        theirs = {n: row[f"{n} (paper)"] for n in ours}
        rank = lambda values: " > ".join(sorted(values, key=values.get, reverse=True))  # noqa: E731
        rows.append({"test": test, "paper": rank(theirs) if len(ours) > 1 else "",
                     "ours": rank(ours) if len(ours) > 1 else "",
                     "same order": (rank(ours) == rank(theirs)) if len(ours) > 1 else None})
    return pd.DataFrame(rows).set_index("test")


order = orderings(ours_table)
compared = order["same order"].notna().sum()
glue("orders_compared", str(int(compared)), display=False)
glue("orders_kept", str(int(order["same order"].fillna(False).astype(bool).sum())), display=False)
gaps = pd.DataFrame({
    "task - systematicity (ours)": ours_table.loc["task"] - ours_table.loc["systematicity"],
    "task - productivity (ours)": ours_table.loc["task"] - ours_table.loc["productivity"],
}).loc[list(exps.ARCHITECTURE_NAMES)]
gaps["task - systematicity (paper)"] = [exps.PAPER["task"][n] - exps.PAPER["systematicity"][n]
                                        for n in gaps.index]
gaps["task - productivity (paper)"] = [exps.PAPER["task"][n] - exps.PAPER["productivity"][n]
                                       for n in gaps.index]
order

# %% [markdown]
# Of the {glue:text}`orders_compared` tests where this profile trains more than one
# architecture, our ordering matches the paper's in {glue:text}`orders_kept`. The paper's
# central gaps are between the task and the two generalisation tests, for every architecture:

# %%
gaps.round(2)

# %% [markdown]
# ## The committed paper-profile results
#
# The `paper` profile trains the three architectures with three seeds on every split
# (`python -m tutorlib run pcfgset --profile paper`, resumable, about 15 core-hours) and
# commits the results to `results/pcfgset/`. When they are there, this section shows their
# Table 1 and their accuracy by input length and number of functions (Figure 3, pooled over
# the seeds).

# %%
committed = exps.committed_runs("paper")
if len(committed):
    provenance = results.committed("pcfgset", "paper")["provenance"]
    print(f"{provenance['command']}: seeds {provenance['seeds']}, {provenance['date']}, "
          f"tutorlib {provenance['tutorlib_version']}, {len(committed)} runs")
    display(exps.table(committed.to_dict("records")).round(2))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    for ax, which in zip(axes, ["input_length", "num_functions"]):
        table = by_length("pcfgset", which, committed)
        for network in table.columns:
            ax.plot(table.index, table[network], marker="o", label=network)
        ax.set_xlabel(which.replace("_", " "))
        ax.set_ylim(-0.03, 1.03)
    axes[0].set_ylabel("sequence accuracy")
    axes[0].legend()
    fig.suptitle("Figure 3. Task accuracy by input length and number of functions (paper profile)")
    fig.tight_layout()
    plt.show()
else:
    print("No paper-profile results are committed yet.")

# %% [markdown]
# ## Where our setting differs from the paper
#
# - **Size.** Our networks are {glue:text}`hidden_size` units wide with at most
#   {glue:text}`parameters_max` parameters at this profile; the paper's were the standard
#   full-size configurations of the toolkits it used, several hundred units wide and many
#   times larger.
# - **Training.** Each of our runs sees {glue:text}`presentations` training examples, that is
#   {glue:text}`epoch_fraction`% of one pass over the full training set of 82,622 pairs; the
#   paper trained on the whole training set for many passes, until the models converged. At the
#   quick profiles we also train on a subset and leave out outputs longer than
#   {glue:text}`max_output` symbols (in training and in the test samples), and we score
#   {glue:text}`max_test` test inputs per test.
# - **What survives.** At this profile the models' mean training loss at the end is
#   {glue:text}`final_loss` nats per output symbol, against {glue:text}`uniform_loss` for a
#   uniform guess among the 520 symbols, and the best task accuracy is {glue:text}`task_best`.
#   At the quick profiles the models have not yet learned the task: the scores that need
#   correct outputs stay near zero, and the scores that do not (consistency, localism) measure
#   agreement between wrong outputs. The orderings and gaps above are then no evidence for or
#   against the paper; the `paper` profile, once committed, is the comparison to read.
# - **Overgeneralisation.** We report the peak at one exception ratio, measured on the
#   training exceptions after every epoch, as the paper does; its Table 1 reports one peak per
#   architecture.

# %%
glue("max_output", str(settings.max_output_length or "any"), display=False)
glue("final_loss", f"{runs['final_loss'].mean():.2f}", display=False)
glue("uniform_loss", f"{np.log(520):.2f}", display=False)
glue("max_test", str(settings.max_test or "all"), display=False)

# %% [markdown]
# ## Recap
#
# - Each test is a split of PCFG SET and a score: accuracy on held-out combinations
#   (systematicity) and on longer inputs (productivity); consistency between synonymous inputs
#   (substitutivity); agreement between whole and unrolled inputs (localism); and the curve of
#   rule-following answers to exceptions over training (overgeneralisation).
# - Consistency and localism do not require correct outputs; read them beside accuracy.
# - In the paper the Transformer was best on the task and on most tests, and every
#   architecture lost accuracy on systematicity and more on productivity. Our quick profiles
#   show the machinery, not those numbers; the paper profile is sized to test them.
#
# ## Exercises
#
# **1. Train longer.** Predict how the task accuracy and the loss of ConvS2S (the quickest to
# train) change with twice as many presentations, then run it (and try more).

# %% tags=["hide-cell", "remove-stderr"]
# Solution: more updates lower the loss; whether accuracy leaves zero depends on how far the
# loss falls (at the quick profiles it usually does not yet).
quick = "ConvS2S" if "ConvS2S" in settings.architectures else first
quick_config = exps.architecture_config(quick, settings.hidden_size, settings.num_layers,
                                        settings.dropout)
longer = exps.run(quick_config, "pcfgset", settings.seeds[0],
                  **{**options, "presentations": 2 * settings.presentations})
pd.DataFrame([{"presentations": settings.presentations,
               "loss": runs[(runs["network"] == quick) & (runs["split"] == "pcfgset")]["final_loss"].iloc[0],
               "accuracy": task.loc[quick, "accuracy"]},
              {"presentations": 2 * settings.presentations, "loss": longer["final_loss"],
               "accuracy": longer["accuracy"]}]).round(3)

# %% [markdown]
# **2. A constant model.** Predict the localism score and the consistency of a "model" that
# answers `A1 B2` to every input. What does that say about reading the two scores alone?

# %% tags=["hide-cell"]
# Solution: both are 1.0: every unrolled prediction equals the whole-input prediction, and
# every twin gets the same answer. Neither score alone shows that a model has learned anything.
sources = [s for s, _ in exps.test_pairs("pcfgset", 20)]
constant = lambda batch: ["A1 B2"] * len(batch)  # noqa: E731
print(pcfgset.localism_score(constant(sources), pcfgset.unrolled_predictions(sources, constant)))
print(pcfgset.consistency(constant(sources), constant(sources)))

# %% [markdown]
# **3. Consistent and correct.** The substitutivity table has a column `consistent_correct`:
# the fraction of twin pairs answered identically *and* correctly. Predict whether it can
# exceed the accuracy on the originals, then check the definition in
# `tutorlib/pcfgset/experiments.py`.

# %% tags=["hide-cell"]
# Solution: no; a pair counts only if the original is answered correctly, so consistent_correct
# is at most the accuracy on the originals (and at most the twins' accuracy).
check = substitutivity.assign(
    at_most_accuracy=lambda t: t["consistent_correct"] <= t[["accuracy", "twin_accuracy"]].min(axis=1))
check[["consistent_correct", "accuracy", "twin_accuracy", "at_most_accuracy"]]
