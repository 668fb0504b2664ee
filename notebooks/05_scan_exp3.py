# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # SCAN Experiment 3: a new primitive
#
# **What you will learn**
#
# - whether a network that has seen `jump` only on its own can use it in "jump twice" or
#   "jump around left" (the `addprim_jump` split), and why `turn left` is a different story;
# - how many composed examples of `jump` it takes before the network generalises (Fig. 5);
# - what the network's encoder makes of `jump`: its nearest neighbours (Table 1);
# - beyond the paper: whether a new *pattern* (`X around right`) or a new filler of a known
#   pattern (`jump around right`) is easier than a new primitive (Loula et al.'s splits);
# - the paper's Experiment 4, a new word in translation, on a generated English-French stand-in.
#
# **What you need first**: {doc}`03_scan_exp1`.

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
import matplotlib.pyplot as plt
import pandas as pd
import torch

from IPython.display import Markdown, display

from tutorlib import profiles
from tutorlib.facts import glue_facts
from tutorlib.scan import experiments as exps
from tutorlib.scan import report
from tutorlib.plotting import glue_figure, use_book_style

use_book_style()
# One thread: a network this small gains little from a second one, and while other work
# shares the cores a second thread mostly waits for the first (measured here under load:
# 6,400 presentations took 3 CPU seconds on one thread, 50-60 on two).
torch.set_num_threads(1)
settings = profiles.settings("scan", PROFILE)
arch = settings["architecture"]  # the small network this page trains (see Experiment 1)
train_options = exps.train_options(settings)

# %% [markdown]
# ## Jump and turn left
#
# In `addprim_jump` the training set holds every command without `jump`, and `jump` alone
# (`I_JUMP`), repeated to make up 10% of the training lines. The test set is every other command
# with `jump`: "jump twice", "walk after jump around left", ... The `addprim_turn_left` split does
# the same with `turn left`. As in Experiments 1 and 2, this page trains one small network live
# on each split (a {glue:text}`exp3_network`, trained for
# {glue:text}`exp3_live_presentations`, one seed), and the full profile's overall-best network (five seeds) gives the
# full picture.

# %% tags=["remove-stderr"]
primitive_runs = {split_name: exps.run(split_name, arch, seed=0, **train_options)
                  for split_name in ["addprim_turn_left", "addprim_jump"]}
pd.DataFrame([{"split": split_name, "training accuracy (%)": 100 * result["train_accuracy"],
               "test accuracy (%)": 100 * result["accuracy"],
               "published, overall-best (%)": exps.PAPER[split_name]["overall_best"]}
              for split_name, result in primitive_runs.items()]).set_index("split").round(2)

# %% [markdown]
# Both networks must first pass the fit gate (at least 90% of their own training commands; the
# test commands of these splits are not in distribution, so the gate reads training only):

# %%
from tutorlib import fit

fit.show_live_fits([exps.live_fit(split_name, result, f"{exps.describe(arch)}, {split_name}, seed 0")
                    for split_name, result in primitive_runs.items()])

# %% [markdown]
# The small network fits {glue:text}`exp3_live_turn_left_train`% and
# {glue:text}`exp3_live_jump_train`% of the training commands of the two splits, and gets
# {glue:text}`exp3_live_turn_left`% and {glue:text}`exp3_live_jump`% of their test commands right:
# like the paper's network, it uses `turn left` in new combinations far better than `jump`,
# which it never uses correctly. The committed full-profile runs beside the published means, one
# row per network and training: *batched* is our recipe (batches of
# {glue:text}`exp3_batch_size`, see Experiment 1), *per_example* the paper's own (one example an
# update, Adam at a constant {glue:text}`exp3_control_lr`, {glue:text}`exp3_control_presentations`
# presentations). Besides the overall-best network, the paper reports its best network for each
# split, and so do we: a GRU with attention (1 × 100, dropout 0.1) for `turn left`, trained the
# paper's way, and an LSTM with attention (1 × 100, dropout 0.1) for `jump`, batched as `jump`
# needs nothing else. `seeds run` of `seeds planned` says how far the full profile has got.

# %%
exps.compare_trainings(["addprim_turn_left", "addprim_jump"]).round(2)

# %% [markdown]
# What goes wrong on `turn left`? We decode the test commands with the network trained above and
# sort its mistakes: is the output the right one with an extra `I_TURN_LEFT`, one too few, or
# something else?

# %% tags=["remove-stderr"]
from collections import Counter

from tutorlib import seq2seq

_, left_model = exps.run("addprim_turn_left", arch, seed=0, return_model=True, **train_options)
left_test = exps.test_subset("addprim_turn_left", train_options["max_test"])
left_eval = seq2seq.evaluate(left_model, left_test, *exps.vocabularies())


def mistake(predicted, target):
    predicted, target = predicted.split(), target.split()
    if predicted == target:
        return "correct"
    for k in range(len(predicted) + 1):  # one action inserted somewhere?
        if predicted[:k] + predicted[k + 1:] == target:
            return f"one extra {predicted[k]}"
    for k in range(len(target)):  # one action dropped?
        if target[:k] + target[k + 1:] == predicted:
            return f"one {target[k]} missing"
    return "other"


kinds = Counter(mistake(p, t) for p, (_, t) in zip(left_eval.predictions, left_test))
pd.Series(kinds, name="test commands").sort_values(ascending=False).to_frame()

# %% [markdown]
# A few of the mistakes, next to the right answers:

# %%
wrong = [(c, t, p) for (c, t), p, ok in zip(left_test, left_eval.predictions, left_eval.correct)
         if not ok][:6]
with pd.option_context("display.max_colwidth", None):
    display(pd.DataFrame(wrong, columns=["command", "target", "output"]))

# %% [markdown]
# Is our batched training why `turn left` falls short of the paper? The rows trained the paper's
# way answer it: one example an update takes the overall-best network from
# {glue:text}`exp3_turn_left`% (batched, {glue:text}`exp3_seeds` seeds) to
# {glue:text}`exp3_control`% ({glue:text}`exp3_control_seeds` of
# {glue:text}`exp3_control_planned` seeds committed; the paper's mean:
# {glue:text}`exp3_paper_turn_left`%). The way we train, more than the network, decides how well
# a primitive seen alone is composed. It is also what the paper's training costs here: about
# {glue:text}`exp3_control_minutes` minutes a run on one core, against
# {glue:text}`exp3_batched_minutes` for a batched one. (Stacking several seeds into one
# computation, which pays on a GPU, does not help on a CPU: each model still reads all its
# weights for one example; `benchmarks/scan_ensemble.py` measures it.) Experiment 1 does the same
# on the 2% and 4% random splits.
#
# ### The paper's error analysis
#
# The paper looked at the errors of its median `turn left` run: all 45 of them were conjunctions
# ("and", "after") one of whose parts was plain `turn left` (22) or `turn left thrice` (23),
# while `turn left thrice` on its own was translated correctly. The same count on the median of
# our committed runs trained the paper's way (each kept its wrong test commands):

# %%
analysis = exps.turn_left_errors()
if analysis is None:
    print("No committed addprim_turn_left run trained per example has kept its errors yet "
          "(python -m tutorlib run scan --profile full --only addprim_turn_left@per_example).")
else:
    paper_kinds = exps.PAPER_TURN_LEFT_ERRORS
    kinds = sorted({*analysis["kinds"], *[k for k in paper_kinds if k != "errors"]})
    display(pd.DataFrame({
        "ours (median run)": [analysis["kinds"].get(k, 0) for k in kinds] + [analysis["errors"]],
        "paper (median run)": [paper_kinds.get(k, 0) for k in kinds] + [paper_kinds["errors"]]},
        index=[*kinds, "all errors"]).rename_axis("wrong test commands"))
    with pd.option_context("display.max_colwidth", None):
        display(pd.DataFrame(analysis["examples"][:6], columns=["command", "target", "output"]))

# %% [markdown]
# {glue:text}`exp3_error_summary`

# %% [markdown]
# The paper found a stark difference: {glue:text}`exp3_paper_turn_left`% for `turn left`,
# {glue:text}`exp3_paper_jump`% for `jump`. The two splits
# are not equally hard: `turn left` is not really new, since its action `I_TURN_LEFT` occurs
# throughout training ("walk left", "run opposite left", "turn around left"), while `jump` and its
# action `I_JUMP` occur in a single training command. The counts:
#
# %%
jump_train, _ = exps.scan.split("addprim_jump")
left_train, _ = exps.scan.split("addprim_turn_left")
pd.DataFrame({
    "addprim_turn_left": [len({c for c, a in left_train if "I_TURN_LEFT" in a.split()})],
    "addprim_jump": [len({c for c, a in jump_train if "I_JUMP" in a.split()})]},
    index=["distinct training commands whose actions contain the new primitive's action"])

# %% [markdown]
# ## How many composed examples does jump need? (Fig. 5)
#
# The paper then added composed commands with `jump` to training: 1, 2, 4, 8, 16 or 32 randomly
# chosen ones, each repeated, in five random selections. With 4 examples it found
# {glue:text}`exp3_paper_num4`% of the test commands right, with 8 {glue:text}`exp3_paper_num8`%,
# with 16 {glue:text}`exp3_paper_num16`%, with 32 {glue:text}`exp3_paper_num32`%.

# %% tags=["remove-stderr"]
curve_rows, curve_fits = [], []
for num in settings["complex_jump_nums"]:
    for rep in range(1, settings["complex_jump_reps"] + 1):
        split_name = exps.split_name("addprim_complex_jump", num=num, rep=rep)
        result = exps.run(split_name, arch, seed=rep - 1, **train_options)
        curve_rows.append({"composed jump commands": num, "replication": rep,
                           "training accuracy (%)": 100 * result["train_accuracy"],
                           "accuracy (%)": 100 * result["accuracy"]})
        curve_fits.append(exps.live_fit(split_name, result, f"{split_name}, seed {rep - 1}"))
curve_runs = pd.DataFrame(curve_rows)
fit.show_live_fits(curve_fits)
curve = curve_runs.groupby("composed jump commands")["accuracy (%)"].mean()
curve_runs.set_index(["composed jump commands", "replication"]).round(1)

# %% tags=["remove-output"]
fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(curve.index, curve.values, marker="o", label=f"this page ({PROFILE} profile, small GRU)")
# the paper's Fig. 5, by the number of composed jump commands (its mean over five selections)
paper_jump_curve = report.paper_jump_curve()
ax.plot(list(paper_jump_curve), list(paper_jump_curve.values()), "s", color="#D55E00", ms=8,
        label="published (Lake & Baroni 2018, Fig. 5)")
committed = exps.committed_runs()  # the full-profile runs in results/scan, if any
full_curve = report.composed_jump_curve(committed)  # in %, over replications
if len(full_curve):
    ax.errorbar(full_curve.index, full_curve["accuracy"], yerr=full_curve["accuracy sd"].fillna(0),
                marker=".", capsize=3, label=f"full profile (overall-best, up to "
                                             f"{int(full_curve['runs'].max())} replications)")
ax.set_xscale("log", base=2)
ax.set_xticks([1, 2, 4, 8, 16, 32], ["1", "2", "4", "8", "16", "32"])
ax.set_xlabel("composed jump commands in training (log scale)")
ax.set_ylabel("test accuracy (% exact match)")
ax.set_ylim(-2, 102)
ax.set_title("Accuracy against composed jump examples")
ax.legend(loc="upper left")
glue_figure("fig-05-composed-jump", fig)

# %% [markdown]
# ```{glue:figure} fig-05-composed-jump
# :name: fig-05-composed-jump
#
# Accuracy on the jump test commands after training with `jump` plus *n* composed
# jump commands, against *n*: the small network of this page (one replication per *n*), the
# overall-best network of the full profile (mean and standard deviation over replications), and
# the published means (squares). What to see: a handful of composed examples helps little;
# accuracy climbs only with dozens of them.
# ```
#
# In the committed full-profile runs ({glue:text}`exp3_reps` replications for each *n*, each
# its own random choice of composed commands and its own seed), the curve rises as in the paper
# but more slowly. With 4 and 8 composed commands our means, {glue:text}`exp3_num4`% and
# {glue:text}`exp3_num8`%, are close to the paper's {glue:text}`exp3_paper_num4`% and
# {glue:text}`exp3_paper_num8`%; with 16 and 32 they fall behind: {glue:text}`exp3_num16`%
# against {glue:text}`exp3_paper_num16`%, and {glue:text}`exp3_num32`% against
# {glue:text}`exp3_paper_num32`%. The replications spread widely (with 8 commands from
# {glue:text}`exp3_num8_min`% to {glue:text}`exp3_num8_max`%): *which* composed commands are
# drawn matters nearly as much as how many. Every run fits its training commands (at least
# {glue:text}`exp3_curve_train_min`%), so the shortfall is in generalisation, as with `turn left`
# below.
#
# ## What does the encoder make of jump? (Table 1)
#
# The paper looked inside the overall-best network trained on `addprim_jump`: for a command, the
# encoder's final hidden state, and the three training commands whose states are nearest to it
# (cosine similarity). If the network had placed `jump` among the other actions, the
# neighbours of `jump` would be `run`, `walk`, `look`, and those of `jump twice` would be
# "X twice" commands, just as for `run` and `run twice`.

# %% tags=["remove-stderr"]
# The table and every number the text below states about it come from this one cell (myst-nb
# glue): the network trained on addprim_jump above, read from the cache.
jump_result, jump_model = exps.run("addprim_jump", arch, seed=0, return_model=True, **train_options)
jump_training = sorted({c for c, _ in exps.scan.split("addprim_jump")[0]})
queries = list(exps.PAPER_NEIGHBOURS)  # run, jump, run twice, jump twice: the paper's queries
neighbours = exps.nearest_neighbours(jump_model, queries, k=3, candidates=jump_training)
display(report.neighbour_table(neighbours))
glue_facts(report.neighbour_facts(neighbours, jump_result))

# %% [markdown]
# *Table 1.* For each query, the three training commands of `addprim_jump` closest to it in the
# encoder's hidden space: ours from the small network trained on this page (cosine similarity
# in brackets), and those the paper lists for its overall-best network. Read the columns side by
# side: do the neighbours of `jump` and `jump twice` play the roles that those of `run` and
# `run twice` do?
#
# In the paper the neighbours of `run` are the other actions (`look`, `walk`), and those of
# `run twice` are `look twice` and longer commands that begin with `run twice`; the neighbours of
# `jump twice` are not "twice" commands at all (`walk and walk`, `run and walk`). The paper read
# this as the network not having placed `jump` among the actions that `twice` can repeat.
#
# In the network trained on this page (training accuracy {glue:text}`exp3_nn_train`%), the
# training command nearest to `run` is "{glue:text}`exp3_nn_run_command`" (cosine similarity
# {glue:text}`exp3_nn_run`), and the one nearest to `run twice` is
# "{glue:text}`exp3_nn_run_twice_command`" ({glue:text}`exp3_nn_run_twice`). The one nearest to
# `jump` is "{glue:text}`exp3_nn_jump_command`" ({glue:text}`exp3_nn_jump`): the lower that
# similarity, the further apart from everything it was trained on the encoder has put `jump`.
# And the nearest neighbour of `jump twice`, "{glue:text}`exp3_nn_jump_twice_command`"
# ({glue:text}`exp3_nn_jump_twice`), {glue:md}`exp3_nn_jump_twice_verdict`. Our network is not
# the paper's (it attends to the words while it decodes, so its final state need not carry the
# whole command), and a single seed's neighbours vary; the comparison is of roles, not of
# numbers. Exercise 2 below asks what changes once composed jump commands are in training.
#
# **The full profile's network.** The paper's table comes from its overall-best network, the
# LSTM of 2 layers of 200 units without attention, trained to fit. We trained that network with
# the full profile's recipe (seed 0: {glue:text}`exp3_full_train`% of its training commands
# right, {glue:text}`exp3_full_test`% of the composed `jump` commands) and committed its
# neighbours (`results/scan/neighbours-full.json`) by two readings of a "final hidden state":
# the encoder's, which starts the decoder, and the decoder's at the step where it ends the
# actions.

# %%
full_neighbours = exps.committed_neighbours()
glue_facts(report.full_neighbour_facts(full_neighbours))
report.full_neighbour_table(full_neighbours)

# %% [markdown]
# *Table 2.* The same queries as Table 1, with the full profile's overall-best network: the
# three nearest training commands of `addprim_jump` by each state (cosine similarity in
# brackets), and the paper's.
#
# By the encoder's state, {glue:md}`exp3_full_encoder_reading`: its nearest training command is
# "{glue:text}`exp3_full_encoder_jump_command`" at {glue:text}`exp3_full_encoder_jump`
# (published 0.15), against "{glue:text}`exp3_full_encoder_run_command`" at
# {glue:text}`exp3_full_encoder_run` for `run` (published 0.73) and
# "{glue:text}`exp3_full_encoder_run_twice_command`" at {glue:text}`exp3_full_encoder_run_twice`
# for `run twice` (published 0.72). By the decoder's state,
# {glue:md}`exp3_full_decoder_reading`: `jump`'s nearest is
# "{glue:text}`exp3_full_decoder_jump_command`" at {glue:text}`exp3_full_decoder_jump`, `run`'s
# "{glue:text}`exp3_full_decoder_run_command`" at {glue:text}`exp3_full_decoder_run`. The
# similarities are not the paper's (another network, another seed, batched training), and the
# two states disagree with each other; read the table for roles, as the paper did: which
# commands does each state put next to `run`, next to `jump`?
#
# **Where our setting differs from the paper.** Batched training with a larger, decaying learning
# rate and more presentations (see Experiment 1), except in the rows trained the paper's way; our
# own random selections of composed jump commands. The paper's top networks for the two splits
# are in the full profile with five seeds each, as the paper's were (the first table says how
# many are committed).
# The network trained live on this page is a small stand-in, trained briefly and tested on a
# sample of each test set; the comparison with the paper rests on the full profile.
#
# **Where our numbers agree, and where they differ.** The committed runs
# ({glue:text}`exp3_seeds` seeds per split) reproduce the `jump` result exactly:
# {glue:text}`exp3_jump`% (at most {glue:text}`exp3_jump_most_right` of the
# {glue:text}`exp3_jump_test_size` test commands right in any seed; published
# {glue:text}`exp3_paper_jump`%). They do not reproduce `turn left`: {glue:text}`exp3_turn_left`%
# on average against the paper's {glue:text}`exp3_paper_turn_left`%, and the seeds disagree
# widely (from {glue:text}`exp3_turn_left_min`% to {glue:text}`exp3_turn_left_max`%). The table of
# mistakes shows how the network fails: it gets the structure of the command right and miscounts
# the turns, most often by one `I_TURN_LEFT` too many. All {glue:text}`exp3_seeds` networks fit
# their training commands (at least {glue:text}`exp3_turn_left_train_min`%). Trained exactly
# as in the paper, the network reaches {glue:text}`exp3_control`% (from
# {glue:text}`exp3_control_min`% to {glue:text}`exp3_control_max`% over
# {glue:text}`exp3_control_seeds` committed seeds): most of the gap comes from our batched
# training, not from the network or the split. {glue:md}`exp3_top_summary` The composed-jump
# curve ({numref}`fig-05-composed-jump`) falls short of the paper's from 16 composed commands on,
# very likely for the same reason; we have not trained it the paper's way
# ({glue:text}`exp3_curve_runs` runs at about
# {glue:text}`exp3_control_minutes` minutes each).
#
# ## Beyond the paper: new templates and new fillers
#
# `jump` fails because the network never sees it inside any larger command. The template and
# filler splits of {cite:t}`loula2018rearranging` keep every word familiar and hold out a
# combination instead. A *template* split removes a whole pattern from training: no
# `X around right` for any action X (or no `X opposite right`, or no `X right`), while the words
# appear in other patterns. A *filler* split holds out only `jump around right`; training has
# `around right` with none, one, two or all three of the other actions (look, walk, run), and
# `jump` in every other pattern. (`template_jump_around_right` is the three-filler case,
# `filler_num3`: the same split under two names, trained once.) Lake
# and Baroni did not run these splits, so there is no paper value beside ours; the runs are the
# full profile's overall-best network, trained as above, with {glue:text}`exp3_seeds` seeds per
# split (the table's "seeds run" column counts those committed).

# %%
loula_splits = report.LOULA_SPLITS
loula = exps.compare_with_paper(loula_splits).droplevel("network").drop(columns="published (%)")
spread = committed[committed["split"].isin(loula_splits)].groupby("split")["accuracy"].std()
loula["test accuracy, sd over seeds"] = 100 * spread.reindex(loula.index)
loula["test commands"] = [len(exps.scan.split(name)[1]) for name in loula.index]
loula.round(1)

# %% tags=["remove-input"]
# The numbers the text states about the committed runs, glued into it (myst-nb) at build time
glue_facts(report.exp3_facts(committed, analysis, primitive_runs, settings, exps.describe(arch)))

# %% tags=["remove-output"]
fig, ax = plt.subplots(figsize=(8, 3.6))
done = loula[loula["seeds run"] > 0]
ax.bar(done.index, done["test accuracy (%)"], color="#0072B2",
       yerr=done["test accuracy, sd over seeds"].fillna(0), capsize=3)
bar_tops = done["test accuracy (%)"] + done["test accuracy, sd over seeds"].fillna(0)
for x, (name, row) in enumerate(done.iterrows()):
    ax.annotate(f"{row['test accuracy (%)']:.1f}\n({int(row['seeds run'])} seeds)",
                (x, bar_tops[name]), ha="center", va="bottom", fontsize=8,
                xytext=(0, 2), textcoords="offset points")
ax.set_ylabel("test accuracy (% exact match)")
ax.set_ylim(0, 118)
ax.tick_params(axis="x", rotation=30)
plt.setp(ax.get_xticklabels(), ha="right")
ax.set_title("Template and filler splits (full profile, committed runs)")
glue_figure("fig-05-loula", fig)

# %% [markdown]
# ```{glue:figure} fig-05-loula
# :name: fig-05-loula
#
# Test accuracy of the overall-best network on the template and filler splits, mean
# over the committed seeds (error bars: one standard deviation over seeds; splits with no
# committed run are left out). Compare the bars with the `turn left` and `jump` results above:
# is a new pattern harder than a new primitive, and how many fillers does `around right` need
# before `jump` can fill it?
# ```
#
# **What the runs show.** A new template is as hard as a new primitive. With no
# `X around right` in training, {glue:text}`exp3_template_around_right`% of the test commands come
# out right; without `X opposite right` {glue:text}`exp3_template_opposite_right`%, without
# `X right` {glue:text}`exp3_template_right`%, although every network fits its training commands
# (at least {glue:text}`exp3_new_template_train_min`%). The familiar words do not help when the
# pattern that combines them is new. A new *filler* for a familiar pattern is a different matter,
# and a matter of degree: with all three other actions in `around right`
# (`template_jump_around_right`), {glue:text}`exp3_template_jump_around_right`% of the
# `jump around right` commands are right. With two fillers {glue:text}`exp3_filler_num2`%, with
# one {glue:text}`exp3_filler_num1`%, and with none {glue:text}`exp3_filler_num0`%, as low as the
# new template. The seeds agree at the low end, not in the middle: with one filler they range
# from {glue:text}`exp3_filler_num1_min`% to {glue:text}`exp3_filler_num1_max`%, with two from
# {glue:text}`exp3_filler_num2_min`% to {glue:text}`exp3_filler_num2_max`%. A single example of
# the pattern with some other action gives the network a fair chance, not a rule.
#
# ## Experiment 4: a new word in translation (a generated stand-in)
#
# The paper's last experiment leaves SCAN for machine translation. A network is trained on
# 10,000 English sentences beginning with "I am", "you are" or "he is" and their French
# translations, plus the pair "I am daxy" → "je suis daxiste" repeated 1,000 times, and is then
# asked for eight constructions it never saw with the new word: "you are daxy", "he is daxy",
# "I am not daxy", ..., "he is very daxy". The paper's network (an LSTM with attention, 2 layers
# of 400 units, dropout 0.05) got 1 of the 8 right, and 8 of 8 for the frequent adjective
# "tired".
#
# The paper's corpus cannot be downloaded here, so `tutorlib.scan.translation` **generates a
# stand-in**: sentences `SUBJECT [MODIFIER] ADJECTIVE [TAIL]` from three subjects, twelve
# modifiers ("not", "very", "never", ...), nine tails ("today", "at home", ...) and 100
# adjectives with their French, the adjectives drawn with Zipfian frequencies so that "tired" is
# common. 11,180 distinct sentences are split at random into 10,000 for training and 1,180 for
# testing; the eight test constructions, for "daxy" and for "tired", never occur in the corpus.

# %%
from tutorlib.scan import translation

translation_settings = profiles.settings("scan_translation", PROFILE)
stand_in_train, stand_in_test = translation.corpus(translation_settings["corpus_seed"])
display(pd.DataFrame(stand_in_train[:6], columns=["English", "French"]))
pd.Series({"training pairs (with 1,000 × I am daxy)":
               len(translation.training_pairs(translation_settings["corpus_seed"])),
           "test pairs": len(stand_in_test),
           "training sentences with 'tired'": sum("tired" in e.split() for e, _ in stand_in_train),
           "training sentences with 'daxy'": sum(
               "daxy" in e.split()
               for e, _ in translation.training_pairs(translation_settings["corpus_seed"])),
           "distinct sentences with 'daxy'": 1}, name="the stand-in corpus").to_frame()

# %% [markdown]
# This page trains a small network of the same kind (an LSTM with attention, one layer of 64
# units) on it, and asks it for the eight constructions:

# %% tags=["remove-stderr"]
live_translation = translation.run(translation.run_settings(translation_settings),
                                   translation_settings["seeds"][0])


def constructions_table(record: dict) -> pd.DataFrame:
    """The eight test sentences for daxy and for tired, the network's French, and whether it
    is exactly right."""
    rows = []
    for word in ("daxy", "tired"):
        scored = record[word]
        for english, predicted, ok in zip(scored["sentences"], scored["predictions"],
                                          scored["correct"]):
            rows.append({"adjective": word, "English": english, "network's French": predicted,
                         "right": "yes" if ok else "no"})
    return pd.DataFrame(rows)


constructions_table(live_translation)

# %% tags=["remove-input"]
from myst_nb import glue

glue("exp4_live_daxy", f"{live_translation['daxy']['right']}", display=False)
glue("exp4_live_tired", f"{live_translation['tired']['right']}", display=False)
glue("exp4_live_test", f"{100 * live_translation['test']['accuracy']:.1f}", display=False)
glue("exp4_live_seconds", f"{live_translation['train_seconds']:.0f}", display=False)

# %% [markdown]
# In {glue:text}`exp4_live_seconds` seconds of training the small network translates
# {glue:text}`exp4_live_test`% of the 1,180 test sentences exactly, gets
# {glue:text}`exp4_live_tired` of the 8 "tired" constructions right and
# {glue:text}`exp4_live_daxy` of the 8 "daxy" ones. The full profile trains the paper's network
# (2 × 400 units, dropout 0.05) with five seeds:

# %%
translation_runs = translation.committed_runs("full")
if len(translation_runs):
    display(report.translation_table(translation_runs).round(1))
else:
    print("No committed full-profile runs: python -m tutorlib run scan_translation --profile full")
glue_facts(report.translation_facts(translation_runs))

# %% [markdown]
# **What the runs show.** The paper's network, trained on the stand-in with
# {glue:text}`exp4_full_seeds` seeds, translates at least {glue:text}`exp4_full_test_min`% of the
# test sentences and at least {glue:text}`exp4_full_tired_min` of the 8 "tired" constructions; of
# the 8 "daxy" constructions it gets {glue:text}`exp4_full_daxy_range` right. The constructions
# it misses most often: {glue:text}`exp4_full_hardest`. Compare with the paper's 1 of 8.
#
# **A stand-in, not a replication.** The generated corpus is far more regular than real
# sentences: every sentence has the same frame, every adjective translates to one word, nothing
# agrees in gender or number, and no idiom breaks the pattern ("I am cold" is "j'ai froid" in
# real French). In real data the words around an adjective tell the network much less about how
# to translate a new one, and a new word's single context competes with thousands of irregular
# ones. What the stand-in does test is the paper's mechanism: the network has seen "daxy" in one
# sentence only, and must put "daxiste" where it puts other adjectives. Whatever it gets right
# here is an upper bound on what to expect from real data; what it gets wrong, it gets wrong on
# the easiest version of the task.
#
# ## Recap
#
# - In the paper a primitive seen only in isolation was not used in composition (`jump`:
#   {glue:text}`exp3_paper_jump`%), while `turn left`, whose action is everywhere in training, was
#   ({glue:text}`exp3_paper_turn_left`%). Ours: {glue:text}`exp3_jump`% and
#   {glue:text}`exp3_turn_left`% with batched training, {glue:text}`exp3_control`% for `turn left`
#   trained one example at a time, as the paper trains.
# - Adding composed examples of `jump` helps only gradually: in the paper it took
#   {glue:text}`exp3_paper_past_half` or more to pass 50%; in ours {glue:text}`exp3_past_half`
#   ({glue:text}`exp3_num16`% with 16, {glue:text}`exp3_num32`% with 32).
# - The encoder's representation of `jump` can be inspected directly, through its nearest
#   neighbours among the training commands.
# - A held-out template (`X around right`) fails like `jump`
#   ({glue:text}`exp3_template_around_right`%); a held-out filler (`jump around right`) is mostly
#   solved once the pattern has been seen with the other three actions
#   ({glue:text}`exp3_template_jump_around_right`%), and partly with one or two of them
#   ({glue:text}`exp3_filler_num1`%, {glue:text}`exp3_filler_num2`%).
# - Experiment 4, on a generated English-French stand-in: the paper's network translates the new
#   word "daxy" in {glue:text}`exp4_full_daxy_range` of the 8 test constructions (the paper: 1 of
#   8 on real data), and "tired" in at least {glue:text}`exp4_full_tired_min` (the paper: 8).
#
# ## Exercises
#
# **1. Another primitive.** Would `walk` be as hard to add as `jump`? Before training anything,
# build an `addprim_walk` split by hand (every command without `walk` for training, plus `walk`
# repeated to a tenth of the training lines; every other command with `walk` for testing) and
# count, as the table above does for `jump` and `turn left`, how many distinct training commands
# have the new primitive's action. Predict which of the two splits `walk` resembles.

# %% tags=["hide-cell"]
# Solution: the rule of scan.addprim_split, with walk (scan.derivations gives each command's
# tree, scan.parts its one or two clauses, scan.verb_phrase and scan.head the clause's verb).
from tutorlib import scan

pairs_and_trees = list(zip(scan.all_pairs(), scan.derivations()))
uses_walk = lambda tree: any(scan.head(scan.verb_phrase(s)) == "walk" for s in scan.parts(tree))  # noqa: E731
others = [p for p, t in pairs_and_trees if not uses_walk(t)]
walk_test = [p for p, t in pairs_and_trees if uses_walk(t) and p[0] != "walk"]
walk_train = others + [("walk", "I_WALK")] * round(len(others) / 9)
counts = pd.DataFrame({
    "training commands": [len(set(walk_train)), len(set(jump_train))],
    "test commands": [len(walk_test), len(exps.scan.split("addprim_jump")[1])],
    "distinct training commands with the action": [
        len({c for c, a in walk_train if "I_WALK" in a.split()}),
        len({c for c, a in jump_train if "I_JUMP" in a.split()})]},
    index=["addprim_walk (ours)", "addprim_jump"])
display(counts)
with_walk = int(counts.iloc[0, 2])
with_left = len({c for c, a in left_train if "I_TURN_LEFT" in a.split()})
Markdown(f"Held out this way, `walk` leaves its action in {with_walk} distinct training "
         f"command{'' if with_walk == 1 else 's'} and `jump` in {int(counts.iloc[1, 2])}, where "
         f"`turn left`'s action stays in {with_left:,}: by the paper's account `walk` should be "
         "as hard to add as `jump`. To test that, "
         "train this page's network on the split with `exps.run_pairs(walk_train, walk_test, arch, "
         "seed=0, **train_options)` (a few minutes on one core) and gate it with "
         "`exps.live_fit(\"addprim_walk\", result)` before reading its test accuracy.")

# %% [markdown]
# **2. Neighbours after success.** Repeat the nearest-neighbour analysis for the network trained
# with {glue:text}`exp3_most_composed` composed jump commands (the last point of
# {numref}`fig-05-composed-jump`). Is `jump` now near `run`, and `jump twice` near the
# "X twice" commands?

# %% tags=["hide-cell", "remove-stderr"]
# Solution: that network is the one of the composed-jump figure (replication 1, seed 0), read
# from the cache.
helped_split = exps.split_name("addprim_complex_jump", num=max(settings["complex_jump_nums"]), rep=1)
helped_result, helped = exps.run(helped_split, arch, seed=0, return_model=True, **train_options)
helped_training = sorted({c for c, _ in exps.scan.split(helped_split)[0]})
helped_neighbours = exps.nearest_neighbours(helped, ["jump", "jump twice"], candidates=helped_training)
display(pd.DataFrame({q: [f"{c} ({s:.2f})" for c, s in found] for q, found in helped_neighbours.items()},
                     index=["1st", "2nd", "3rd"]))
actions_near = [c for c, _ in helped_neighbours["jump"] if c in ("run", "walk", "look")]
verdict = (f"Among the three nearest to `jump` are now other actions ({', '.join(actions_near)}): "
           f"the encoder has begun to place `jump` with them." if actions_near else
           "None of the three nearest to `jump` is another action: the encoder still keeps `jump` "
           "apart from run, walk and look, although the network now uses it in part of the test "
           "commands.")
Markdown(f"With {max(settings['complex_jump_nums'])} composed jump commands in training the network "
         f"fits {100 * helped_result['train_accuracy']:.1f}% of its training commands and gets "
         f"{100 * helped_result['accuracy']:.1f}% of the jump test commands right. The nearest "
         f"training command to `jump` is now \"{helped_neighbours['jump'][0][0]}\" "
         f"({helped_neighbours['jump'][0][1]:.2f}; in Table 1, \"{neighbours['jump'][0][0]}\", "
         f"{neighbours['jump'][0][1]:.2f}), and to `jump twice` \"{helped_neighbours['jump twice'][0][0]}\" "
         f"({helped_neighbours['jump twice'][0][1]:.2f}; in Table 1, "
         f"\"{neighbours['jump twice'][0][0]}\", {neighbours['jump twice'][0][1]:.2f}). {verdict}")
