# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # SCAN Experiment 2: longer action sequences
#
# **What you will learn**
#
# - whether a network trained on action sequences of at most 22 actions can produce longer ones
#   (the *length* split);
# - how accuracy falls with the length of the action sequence and of the command (the paper's
#   Fig. 4);
# - what {term}`oracle-length decoding` is, and what it reveals about why the network fails.
#
# **What you need first**: {doc}`03_scan_exp1` (the network and its training).

# %% tags=["remove-cell"]
# Colab or a fresh Binder: install tutorlib where it is missing, from TUTORLIB_SOURCE (a pip
# URL: git+https://... of the book's repository), else from the checkout this notebook sits in,
# else from the repository the published book names. Where tutorlib is installed, as in the
# book's own build, this cell does nothing.
import importlib.util

PUBLISHED = None  # the publishing workflow writes the book's repository here (git+https://...)
if importlib.util.find_spec("tutorlib") is None:
    import os
    import pathlib
    import subprocess
    import sys

    here = pathlib.Path.cwd()
    checkout = next((p for p in [here, *here.parents]
                     if (p / "pyproject.toml").is_file() and (p / "tutorlib").is_dir()), None)
    source = os.environ.get("TUTORLIB_SOURCE")
    if source:
        requirement = f"tutorlib[book] @ {source}"
    elif checkout is not None:
        requirement = f"{checkout}[book]"
    elif PUBLISHED:
        requirement = f"tutorlib[book] @ {PUBLISHED}"
    else:
        raise ModuleNotFoundError(
            "tutorlib is not installed here. Install it from the book's repository (its GitHub "
            "button): %pip install 'tutorlib[book] @ git+https://github.com/OWNER/NAME', or set "
            "TUTORLIB_SOURCE to that git+https:// address and run this cell again.")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", requirement], check=True)
    importlib.invalidate_caches()  # so that this kernel finds what was just installed

# %% tags=["parameters"]
PROFILE = "tutorial"

# %%
import inspect

import pandas as pd
import torch
from IPython.display import Markdown, display

from tutorlib import fit, profiles
from tutorlib.scan import experiments as exps
from tutorlib.scan import report
from tutorlib.plotting import glue_figure, use_book_style
from tutorlib.seq2seq.layers import greedy_loop

use_book_style()
# One thread: a network this small gains little from a second one, and while other work
# shares the cores a second thread mostly waits for the first (measured here under load:
# 6,400 presentations took 3 CPU seconds on one thread, 50-60 on two).
torch.set_num_threads(1)
settings = profiles.settings("scan", PROFILE)
train_options = exps.train_options(settings)  # presentations, batch size, learning rate, ...
arch = settings["architecture"]  # the small network this page trains (see Experiment 1)
# the paper's two networks of this experiment, whose full-profile runs are committed
paper_key = report.LENGTH_NETWORKS  # the paper's two networks on this split
committed = exps.committed_runs()  # the full profile's runs, committed in results/scan

# %% [markdown]
# ## The split
#
# Training: every command whose action sequence has at most 22 actions. Test: all the longer
# ones. The commands themselves are not new in kind: "jump around left twice and walk opposite
# right thrice" combines familiar pieces, but its actions are more than any training output:

# %%
length_train, length_test = exps.scan.split("length")
test_lengths = [len(actions.split()) for _, actions in length_test]
example = "jump around left twice and walk opposite right thrice"
pd.Series({"training commands": len(length_train),
           "longest training target (actions)": max(len(a.split()) for _, a in length_train),
           "test commands": len(length_test),
           "test targets (actions)": f"{min(test_lengths)} to {max(test_lengths)}",
           f"actions of '{example}'": len(exps.scan.interpret(example))}).to_frame("length split")

# %% [markdown]
# The paper reports two networks here: the overall-best LSTM of Experiment 1, and the top
# performer of this experiment, a one-layer GRU of 50 units with attention and dropout 0.5. The
# full profile trains both (five seeds each, committed below). This page trains one network
# live, the small network of Experiment 1, trained as there:

# %% tags=["remove-stderr"]
live = exps.run("length", arch, seed=0, **train_options)
pd.DataFrame([{"network": f"this page ({exps.describe(arch)}, {PROFILE} profile, seed 0)",
               "training accuracy (%)": 100 * live["train_accuracy"],
               "test accuracy (%)": 100 * live["accuracy"],
               "oracle-length test accuracy (%)": 100 * live["oracle_accuracy"]}]
             + [{"network": f"published, {name}", "test accuracy (%)": exps.PAPER["length"][key],
                 "oracle-length test accuracy (%)": exps.PAPER["length_oracle"][key]}
                for name, key in paper_key.items()]).set_index("network").round(1)

# %% [markdown]
# First, the fit gate: a network that has not learned its own training commands tells us
# nothing about longer ones. (The length split's test commands are not in distribution, so the
# gate reads the training commands only.)

# %%
fit.show_live_fits([exps.live_fit("length", live, f"{exps.describe(arch)}, length, seed 0")])

# %% tags=["remove-input"]
Markdown(f"Trained on outputs of at most 22 actions, the network fits "
         f"{100 * live['train_accuracy']:.1f}% of its training commands but gets only "
         f"{100 * live['accuracy']:.1f}% of the longer test commands right. The last column of the "
         f"first table anticipates the section on oracle lengths below.")

# %% [markdown]
# ## Accuracy by length (Fig. 4)
#
# Which long sequences fail? The per-command outcomes let us break accuracy down by the length
# of the action sequence and by the number of words in the command:

# %% tags=["remove-output"]
fig = report.plot_live_by_length(live, settings["max_test"])
glue_figure("fig-04-by-length", fig)

# %% [markdown]
# ```{glue:figure} fig-04-by-length
# :name: fig-04-by-length
#
# Test accuracy of this page's network on the length split by the length of the target action
# sequence (a) and by the number of words in the command (b), with greedy decoding (solid) and
# with oracle lengths (dashed, next section). The paper's Fig. 4 shows the same breakdown for
# the overall-best network.
# ```
#
# The paper reads both panels: the partial success is almost all on the shortest test
# sequences, and by command length the network gets right only some of the longest commands (8
# or 9 words), the ones whose training relatives have the longest outputs. This page's network,
# by the same two counts:

# %%
tested = exps.test_subset("length", settings["max_test"])
outcomes = pd.DataFrame({"actions": [len(a.split()) for _, a in tested],
                         "words": [len(c.split()) for c, _ in tested], "correct": live["correct"]})
shortest = outcomes["actions"] == outcomes["actions"].min()
longest_commands = outcomes["words"] >= 8
pd.DataFrame({"test commands": [shortest.sum(), (~shortest).sum(), longest_commands.sum(),
                                (~longest_commands).sum()],
              "greedy accuracy (%)": [100 * outcomes["correct"][m].mean() for m in
                                      (shortest, ~shortest, longest_commands, ~longest_commands)]},
             index=[f"targets of {outcomes['actions'].min()} actions", "longer targets",
                    "commands of 8 or 9 words", "shorter commands"]).round(1)

# %% [markdown]
# ## Oracle lengths
#
# Perhaps the network knows *what* to do but stops too early, having never produced an
# end-of-sequence token after more than 22 actions. *Oracle-length decoding* tests this: the
# end-of-sequence token is forbidden until the sequence has its true length, and forced then.
# It is a few lines of the decoding loop every network of `tutorlib.seq2seq` uses (`step` is the
# network's one decoder step, as in the previous chapter):

# %%
print(inspect.getsource(greedy_loop))

# %% [markdown]
# In the paper accuracy rose with oracle lengths for both networks (the first table): part of
# the failure was in knowing when to stop. This page's network:

# %%
pd.DataFrame([{"network": f"this page ({PROFILE} profile)", "greedy (%)": 100 * live["accuracy"],
               "oracle length (%)": 100 * live["oracle_accuracy"],
               "gain (points)": 100 * (live["oracle_accuracy"] - live["accuracy"])}]
             ).set_index("network").round(1)

# %% [markdown]
# ## Full-profile results
#
# The committed full-profile runs beside the published means, and {numref}`fig-04-committed`
# with every seed and the breakdown by action length averaged over the seeds:

# %%
report.length_table(committed).round(1)

# %% tags=["remove-output"]
if (committed["split"] == "length").any():
    fig = report.plot_committed_length(committed)
    glue_figure("fig-04-committed", fig)

# %% [markdown]
# ```{glue:figure} fig-04-committed
# :name: fig-04-committed
#
# The committed full-profile runs on the length split. (a) Test accuracy of each
# seed with greedy and with oracle-length decoding (dots), beside the published means (squares).
# (b) Accuracy by the length of the target sequence, averaged over the seeds, for both networks
# and both ways of decoding.
# ```

# %% tags=["remove-input"]
facts = report.exp2_facts(committed, live, settings, exps.describe(arch))
seeds = facts["exp2_seeds"]
Markdown(
    f"**Where our numbers agree, and where they differ.** The committed runs ({seeds} seeds per "
    f"network; the paper's are means over five) reproduce the experiment's main finding: trained "
    f"on outputs of at most 22 actions, neither network produces most longer ones. The "
    f"overall-best LSTM gets {facts['exp2_lstm']}% of the test commands right (standard deviation "
    f"{facts['exp2_lstm_sd']} points over seeds; published {facts['exp2_paper_lstm']}%) and "
    f"{facts['exp2_lstm_oracle']}% with oracle lengths (published "
    f"{facts['exp2_paper_lstm_oracle']}%). That oracle mean hides a wide spread: every seed but "
    f"one lies between {facts['exp2_lstm_oracle_low']}% and {facts['exp2_lstm_oracle_second']}%, "
    f"the last reaches {facts['exp2_lstm_oracle_best']}%. The GRU with attention gets "
    f"{facts['exp2_gru_oracle']}% with oracle lengths (sd {facts['exp2_gru_oracle_sd']}; "
    f"published {facts['exp2_paper_gru_oracle']}%) and {facts['exp2_gru']}% greedily (sd "
    f"{facts['exp2_gru_sd']}; published {facts['exp2_paper_gru']}%). Both fit their training "
    f"commands (LSTM {facts['exp2_lstm_train']}%, GRU {facts['exp2_gru_train']}%), so this is "
    f"not under-fitting.\n\n"
    f"Panel (b) says where the failures lie. With greedy decoding the two networks get "
    f"{facts['exp2_lstm_at_24']}% and {facts['exp2_gru_at_24']}% of the test sequences of 24 "
    f"actions right and {facts['exp2_lstm_at_25']}% and {facts['exp2_gru_at_25']}% of those of "
    f"25. With oracle lengths the GRU with attention gets {facts['exp2_gru_oracle_26_40']}% of "
    f"the sequences of 26 to 40 actions right on average over those lengths, and the LSTM "
    f"{facts['exp2_lstm_oracle_at_40']}% at 40 actions.")

# %% [markdown]
# Read against the oracle column: where a network's accuracy rises with oracle lengths, it
# produced the right actions and stopped at the wrong time; where it stays low, it also produced
# the wrong actions. Our batched training differs from the paper's (Experiment 1: a larger,
# decaying learning rate and more presentations; our own seeds), and Experiments 1 and 3 show
# that it generalises less than one-example-at-a-time training on small or unusual training
# sets; we have not run that control for this split. The live network above is a small
# stand-in tested on a sample of the test set; the comparison with the paper rests on the full
# profile.
#
# ## Recap
#
# - Trained on outputs of at most 22 actions, the paper's networks rarely produced longer ones
#   correctly, and neither do ours (the tables above).
# - Accuracy falls with the length of the target sequence: most of what is right is at the
#   shortest test lengths.
# - Oracle-length decoding separates two failures, stopping at the wrong time and producing the
#   wrong actions; the full profile's GRU with attention and LSTM differ in how much of each.
#
# ## Exercises
#
# **1. Predict, then check.** Every test command of the length split contains `around` (that is
# how its action sequences grow past 22), so `around` cannot tell the
# commands the network gets right from the others. The two connectives split the test set in
# halves: in "X and Y" the actions of X come first, in "X after Y" those of Y, so the network
# must produce the second part of the command first. Predict: does this page's network get the
# `and` commands or the `after` commands right more often? Count it, and compare the lengths of
# their targets ({numref}`fig-04-by-length` says why that matters).

# %% tags=["hide-cell"]
# Solution: the per-command outcomes of the network trained above, grouped by connective.
test = exps.test_subset("length", settings["max_test"])
outcome = pd.DataFrame({"words": [c.split() for c, _ in test],
                        "actions": [len(a.split()) for _, a in test], "correct": live["correct"]})
outcome["connective"] = ["and" if "and" in w else "after" if "after" in w else "neither"
                         for w in outcome["words"]]
by_connective = outcome.groupby("connective").agg(
    commands=("correct", "size"), accuracy=("correct", "mean"), mean_actions=("actions", "mean"))
by_connective["accuracy"] *= 100
by_connective = by_connective.rename(columns={"accuracy": "test accuracy (%)",
                                              "mean_actions": "mean target length (actions)"})
display(by_connective.round(1))
rates = by_connective["test accuracy (%)"]
lengths = by_connective["mean target length (actions)"]
gap = rates["and"] - rates["after"]
if abs(gap) < 3:
    finding = (f"about as often ({rates['and']:.1f}% of the `and` commands, {rates['after']:.1f}% of "
               f"the `after` commands): the order in which the parts must be produced makes little "
               f"difference; what fails is the length of the whole output")
else:
    finding = (f"{'more' if gap > 0 else 'less'} often when they are joined by `and` "
               f"({rates['and']:.1f}%) than by `after` ({rates['after']:.1f}%): with equally long "
               f"targets, the order in which the parts must be produced makes the difference")
Markdown(f"The network (training accuracy {100 * live['train_accuracy']:.1f}%) gets these commands "
         f"right {finding}. The targets of the two groups are equally long on average "
         f"({lengths['and']:.1f} and {lengths['after']:.1f} actions): every `X and Y` has a twin "
         f"`Y after X` with the same actions.")

# %% [markdown]
# **2. Turn the dial.** Where would the cliff be if training sequences could have up to 30
# actions? Write that split (hint: filter `scan.all_pairs()` by length) and predict, before
# training anything, how many test commands it leaves and how long their targets are; then
# compare with the standard split. Which of this page's test commands would move into training?

# %% tags=["hide-cell"]
# Solution: the split with the dial at 30, beside the standard one (cut-off 22 actions).
from tutorlib import scan

pairs = scan.all_pairs()
long_train = [p for p in pairs if len(p[1].split()) <= 30]
long_test = [p for p in pairs if len(p[1].split()) > 30]
standard_train, standard_test = exps.scan.split("length")
dial_table = pd.DataFrame([
    {"split": f"standard: training targets of at most {exps.scan.LENGTH_CUTOFF} actions",
     "training commands": len(standard_train), "test commands": len(standard_test),
     "shortest test target": min(len(a.split()) for _, a in standard_test)},
    {"split": "the dial at 30", "training commands": len(long_train), "test commands": len(long_test),
     "shortest test target": min(len(a.split()) for _, a in long_test)}]).set_index("split")
display(dial_table)
moved = sum(len(a.split()) <= 30 for _, a in standard_test)
Markdown(f"With the dial at 30, {moved:,} of the standard split's {len(standard_test):,} test "
         f"commands (targets of {exps.scan.LENGTH_CUTOFF + 1} to 30 actions) move into training and "
         f"{len(long_test):,} remain. To see whether the cliff moves with the dial, train this page's "
         f"network on it with `exps.run_pairs(long_train, long_test, arch, seed=0, **train_options)` "
         f"(a few minutes on one core), gate it with `exps.live_fit(\"length\", result)`, and "
         f"compare its accuracy on the targets just past 30 with the standard network's.")
