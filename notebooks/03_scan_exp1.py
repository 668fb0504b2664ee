# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # SCAN Experiment 1: a random split, and how much data it takes
#
# **What you will learn**
#
# - how the sequence-to-sequence networks of {cite:t}`lake2018generalization` are built and
#   trained (`tutorlib.seq2seq`), and what changes when training is batched;
# - how well they do when test commands are a random sample of SCAN (the *simple* split);
# - how that success depends on the share of SCAN seen in training (the paper's Fig. 3).
#
# **What you need first**: {doc}`02_scan_task`, and the idea of an encoder-decoder network.

# %% tags=["remove-cell"]
# Colab or a fresh Binder: install tutorlib where it is missing, from the checkout this notebook
# sits in, else from TUTORLIB_SOURCE (a pip URL: git+https://... of the book's repository).
# Where tutorlib is installed, as in the book's own build, this cell does nothing.
import importlib.util

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

from IPython.display import display

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
train_options = exps.train_options(settings)  # presentations, batch size, learning rate, ...
arch = settings["architecture"]  # the network this page trains (a small one, except at `full`)
shown = {k: v for k, v in settings.items() if not k.endswith("_splits") and k != "architecture"}
shown["architecture"] = exps.describe(arch)
# every value as text, so that 0.001 stays 0.001 (not rounded) and lists stay lists
pd.Series({k: f"{v:g}" if isinstance(v, float) else str(v) for k, v in shown.items()},
          name=f"{PROFILE} profile").to_frame()

# %% [markdown]
# ## The network
#
# The paper's *overall-best* network (the best on average over all its experiments) is an LSTM
# encoder-decoder: two layers of 200 units, dropout 0.5, no attention. The encoder reads the
# command word by word; its final state starts the decoder, which emits one action at a time,
# each conditioned on the previous one, until it emits end-of-sequence.
#
# Trained as long as it needs, that network takes about {glue:text}`exp1_full_minutes` minutes a
# run on one core, and this chapter's figures rest on {glue:text}`exp1_full_runs` such runs. So
# the two profiles divide the work. The `full` profile trains the overall-best network, five
# seeds per split, from the command line; its results are committed with the book, and every
# table below shows them. This page, executed at the {glue:text}`exp1_profile` profile, trains
# one small, fast network live, once for each point the chapter makes: a
# {glue:text}`exp1_network`, trained for {glue:text}`exp1_live_presentations`. (The
# `tutorial` profile's GRU is a close relative of the networks the paper found best in
# Experiments 2 and 3, GRUs with attention of 50 and 100 units.) The two side by side:

# %%
source_vocab, target_vocab = exps.vocabularies()
full_settings = profiles.settings("scan", "full")
network_rows = []
for label, name, options in [(f"this page ({PROFILE} profile)", arch, settings),
                             ("full profile (the paper's overall-best)", "overall_best", full_settings)]:
    config = exps.architecture(name)
    model = exps.s2s.build_model(config, len(source_vocab), len(target_vocab))
    network_rows.append({"network": label, "architecture": exps.describe(config),
                         "parameters": sum(p.numel() for p in model.parameters()),
                         "presentations": options["recipe"]["presentations"],
                         "batch size": options["recipe"]["batch_size"]})
pd.DataFrame(network_rows).set_index("network")

# %% [markdown]
# **Training as in the paper, batched.** The paper trains with Adam (learning rate 0.001),
# clips gradients to norm 5, and uses {term}`teacher forcing` (feeding the true previous action instead of
# the network's own) half of the time; it presents 100,000 commands one at a time, updating after
# each. We update on batches of {glue:text}`exp1_batch_size` commands, which is ten times faster
# on a CPU (`benchmarks/scan_throughput.py`) but makes {glue:text}`exp1_batch_size` times fewer
# updates. With the paper's constant learning rate our batched network stalled near 90% training
# accuracy; we therefore start at {glue:text}`exp1_learning_rate` and decay the rate linearly to
# {glue:text}`exp1_final_lr`, and the full profile presents {glue:text}`exp1_presentations`
# commands (the paper reports above 99.5% training accuracy; the tables show ours). Clipping
# and teacher forcing are the paper's. The settings table above gives the values this page ran
# with.
#
# ## The simple split
#
# 80% of the commands, drawn at random, for training; the other 20% for testing.

# %% tags=["remove-stderr"]
simple = exps.run("simple", arch, seed=0, **train_options)
simple_runs = exps.committed_runs().query("split == 'simple' and network == 'overall_best'")
pd.DataFrame([
    {"network": f"this page ({PROFILE} profile, seed 0)", "presentations": simple["presentations"],
     "training accuracy (%)": 100 * simple["train_accuracy"],
     "test accuracy (%)": 100 * simple["accuracy"]},
    {"network": f"full profile (overall-best, mean of {len(simple_runs)} seeds)",
     "presentations": simple_runs["presentations"].max(),
     "training accuracy (%)": 100 * simple_runs["train_accuracy"].mean(),
     "test accuracy (%)": 100 * simple_runs["accuracy"].mean()},
    {"network": "published (overall-best, Lake & Baroni 2018)", "presentations": 100_000,
     "test accuracy (%)": exps.PAPER["simple"]["overall_best"]},
]).set_index("network").round(1)

# %% [markdown]
# The small network fits {glue:text}`exp1_live_simple_train`% of its training commands and gets
# {glue:text}`exp1_live_simple`% of the test commands right: on a random split the test
# commands are no harder than the training ones, so test accuracy follows training accuracy.
# Trained longer, the overall-best network of the full profile fits nearly all of them, and so
# solves nearly all test commands, as in the paper.

# %% [markdown]
# ## How much data does it take? (Fig. 3)
#
# Lake and Baroni trained the same network on 1, 2, 4, 8, 16, 32 and 64% of the commands and
# tested on the rest. A network that had learnt the grammar from a small sample would do well
# everywhere; the paper found a steep rise instead: about {glue:text}`exp1_paper_p1`% correct
# after training on 1% of the commands, {glue:text}`exp1_paper_p2`% on 2%,
# {glue:text}`exp1_paper_p4`% on 4%.

# %% tags=["remove-stderr"]
size_rows = []
for percent in settings["size_percents"]:
    split_name = exps.split_name("size", percent=percent)
    result = exps.run(split_name, arch, seed=0, **train_options)
    size_rows.append({"percent of commands in training": percent,
                      "training commands": len(exps.scan.split(split_name)[0]),
                      "training accuracy (%)": 100 * result["train_accuracy"],
                      "accuracy (%)": 100 * result["accuracy"]})
sizes = pd.DataFrame(size_rows)
sizes.round(1).set_index("percent of commands in training")

# %% [markdown]
# Before reading any of these numbers: did each network learn what it was trained on? The
# book's fit gate (chapter 16's glossary) asks for at least 90% of its own training commands
# and, on these random splits, whose test commands come from the same distribution, a test
# accuracy within 5 points of the paper's own network on that split:

# %%
from tutorlib import fit

live_rows = [exps.live_fit("simple", simple, f"{exps.describe(arch)}, simple, seed 0")]
for percent in settings["size_percents"]:
    split_name = exps.split_name("size", percent=percent)
    live_rows.append(exps.live_fit(split_name, exps.run(split_name, arch, seed=0, **train_options),
                                   f"{exps.describe(arch)}, {split_name}, seed 0"))
fit.show_live_fits(live_rows)

# %% tags=["remove-output"]
committed = exps.committed_runs()  # the full-profile runs in results/scan, if any

fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(sizes["percent of commands in training"], sizes["accuracy (%)"], marker="o",
        label=f"this page ({PROFILE} profile, small GRU, 1 seed)")
paper_points = {p: exps.PAPER[exps.split_name("size", percent=p)]["overall_best"] for p in (1, 2, 4)}
ax.plot(list(paper_points), list(paper_points.values()), "s", color="#D55E00", ms=8,
        label="published (Lake & Baroni 2018, read off Fig. 3)")
family = committed["split"].map(lambda name: exps.split_info(name)["family"])
size_runs = committed[(family == "size") & (committed["network"] == "overall_best")]
if len(size_runs):
    curve = exps.accuracy_summary(size_runs, by="percent")  # in %, over seeds, a row a percent
    fewest, most = int(curve["runs"].min()), int(curve["runs"].max())
    seeds_per_point = f"{fewest}" if fewest == most else f"{fewest}-{most}"
    ax.errorbar(curve.index, curve["accuracy"], yerr=curve["accuracy sd"].fillna(0), marker=".",
                capsize=3, label=f"full profile (overall-best, {seeds_per_point} seeds per point)")
ax.set_xscale("log", base=2)
ax.set_xticks([1, 2, 4, 8, 16, 32, 64], ["1", "2", "4", "8", "16", "32", "64"])
ax.set_xlabel("commands used for training (% of SCAN, log scale)")
ax.set_ylabel("test accuracy (% exact match)")
ax.set_ylim(-2, 102)
ax.set_title("Accuracy against training-set size")
ax.legend(loc="lower right")
glue_figure("fig-03-size", fig)

# %% [markdown]
# ```{glue:figure} fig-03-size
# :name: fig-03-size
#
# Test accuracy after training on a random p% of SCAN and testing on the rest,
# against p: the small network trained on this page (circles), the overall-best network of the
# full profile (mean and standard deviation over seeds; `python -m tutorlib run scan --profile
# full`), and the published means (squares, read off the paper's Fig. 3 for 1, 2 and 4%). What
# to see: every curve rises steeply with the share of SCAN seen in training. How far the small
# network of this page gets also depends on how well it has fitted each training set (its
# training accuracies are in the table above).
# ```
#
# The committed full-profile runs of the simple split ({glue:text}`exp1_seeds` seeds each),
# beside the published means (read off the paper's Fig. 3, for 1, 2 and 4% only). One row per
# network and training: *batched* is our recipe, *per_example* the paper's (one example an
# update; see below); `exp1_best` is the paper's top network for this experiment, an LSTM like
# the overall-best one but without dropout (published {glue:text}`exp1_paper_exp1_best`%):

# %%
size_splits = [exps.split_name("size", percent=p) for p in exps.scan.SIZE_PERCENTS]
exps.compare_trainings(["simple", *size_splits]).round(1)

# %% tags=["remove-input"]
# The numbers the text states about the committed runs, glued into it (myst-nb) at build time
glue_facts(report.exp1_facts(committed, simple, settings, PROFILE, exps.describe(arch)))

# %% [markdown]
# ## What the result means
#
# In the paper the network solves the random split almost perfectly
# ({glue:text}`exp1_paper_simple`%). How close a run
# comes depends above all on how long it trained, which the training accuracy in the first table
# shows: a network that has not yet fitted its training commands cannot be expected to get the
# test commands right. Where it has, the success is not surprising: the test commands are close
# relatives of training commands ("jump twice and walk" is tested, "jump twice and run" was
# trained). The size curve looks at the same thing from the other side: with 1% of the commands
# ({glue:text}`exp1_p1_train_size`) almost nothing can be right; a few percent suffice once most
# *combinations* have close neighbours in training. The next two experiments remove those
# neighbours on purpose.
#
# **Where our setting differs from the paper.** We train on batches of
# {glue:text}`exp1_batch_size`, with a higher, decaying learning rate, and (in the full
# profile) present {glue:text}`exp1_presentations` commands instead of 100,000, except in the
# rows trained the paper's way (2% and 4%, every seed); our random splits
# are drawn with our own seeds, not the paper's files, and each seed draws its own simple split;
# this page trains a small stand-in with one seed (and at the `tutorial` profile tests it on a
# sample of each test set), where the paper averaged five runs of the overall-best network (the
# full profile: {glue:text}`exp1_seeds`).
#
# **Where our numbers differ.** Over {glue:text}`exp1_seeds` seeds, the full simple split gives
# {glue:text}`exp1_simple`% (published {glue:text}`exp1_paper_simple`%), and from 8% of the commands
# up our curve is where the paper's is, at {glue:text}`exp1_large_low`-{glue:text}`exp1_large_high`%.
# At 1% we agree too ({glue:text}`exp1_p1`% against about {glue:text}`exp1_paper_p1`%). At 2%
# and 4% we do not: {glue:text}`exp1_p2`% against about {glue:text}`exp1_paper_p2`%, and
# {glue:text}`exp1_p4`% against about {glue:text}`exp1_paper_p4`% (the two columns of the table
# above), although our networks fit their training commands just as well (at least
# {glue:text}`exp1_train_min`% in every run). So the gap is not under-fitting; it is in what the
# training makes the network do with commands it has not seen.
# Is our batched training the cause? The full profile answers by training the same network on
# `simple_p2` and `simple_p4` as the paper did, on every seed: one example per update at a
# constant learning rate of {glue:text}`exp1_control_lr` for {glue:text}`exp1_control_presentations`
# presentations (about {glue:text}`exp1_control_minutes` minutes a run here, about
# {glue:text}`exp1_control_runs_worth` batched runs' worth). The committed runs, beside the
# batched ones of the same splits:

# %%
regimes = exps.compare_trainings(["simple_p2", "simple_p4"])
regimes.xs("overall_best", level="network")[
    ["seeds run", "seeds planned", "training accuracy (%)", "test accuracy (%)",
     "published (%)"]].round(1)

# %% [markdown]
# {glue:text}`exp1_control_summary`
# Many small, noisy updates ({glue:text}`exp1_control_presentations` of them, against
# {glue:text}`exp1_updates` batches of {glue:text}`exp1_batch_size`) make a network that
# generalises better from few examples; more presentations of large batches do not replace them.
# The batched curve above is therefore a faithful measurement of our training, not of the
# paper's: read its small-data end beside the per-example rows.
#
# ## Recap
#
# - The overall-best network is a 2 x 200 LSTM encoder-decoder with dropout 0.5; it is trained
#   with Adam, clipping and teacher forcing half of the time. The full profile trains it; this
#   page trains a small stand-in, once for each point the chapter makes.
# - On the simple split test accuracy follows training accuracy: once trained to fit its training
#   commands, a network generalises to the random test commands (the paper:
#   {glue:text}`exp1_paper_simple`%; the full profile: {glue:text}`exp1_simple`%).
# - Accuracy rises steeply with the share of SCAN in training: in our
#   {glue:text}`exp1_seeds`-seed runs from {glue:text}`exp1_p1`% with 1% of the commands to
#   {glue:text}`exp1_p4`% with 4%, and {glue:text}`exp1_large_low`% or more from 8% on (published:
#   about {glue:text}`exp1_paper_p1`, {glue:text}`exp1_paper_p2` and {glue:text}`exp1_paper_p4`%
#   at 1, 2 and 4%). At 2% and 4% we fall short of the paper.
# - Batched training needs more presentations than the paper's one-at-a-time training; the
#   training accuracy says whether a run trained long enough. Even when it fits, it generalises
#   less from small training sets than one-at-a-time training (the per-example rows).
#
# ## Exercises
#
# **1. Where does the network look?** This page's network attends to the command's words while
# it decodes: before each action it weighs the encoder's state at every word (the weights sum to
# 1) and reads their weighted mean. Predict: while it emits the actions of
# `jump twice after walk left`, which words does it weigh most for the first action, and for the
# `I_JUMP`s? Compute the weights step by step and check.

# %% tags=["hide-cell", "remove-stderr"]
# Solution: greedy decoding written out, with the attention weights of each step computed as the
# model computes them (score = v . tanh(W_k h_word + W_q h_decoder), softmax over the words).
from IPython.display import Markdown

from tutorlib.seq2seq.evaluation import source_eos

_, model = exps.run("simple", arch, seed=0, return_model=True, **train_options)
command = "jump twice after walk left"
if not model.config.attention:
    display(Markdown(f"This profile's network ({exps.describe(arch)}) has no attention: it reads the "
                     f"whole command through the encoder's final state. Run the chapter at the "
                     f"tutorial profile to see the weights."))
else:
    words = command.split() + (["<eos>"] if source_eos(model) else [])
    source, lengths = exps.s2s.pad_batch([source_vocab.encode(command.split())],
                                         add_eos=source_eos(model))
    rows, token = [], torch.tensor([exps.s2s.SOS])
    with torch.no_grad():
        outputs, state, mask = model.encode(source, lengths)
        keys = model.attention_key(outputs)
        for _ in range(40):
            h = state[0] if isinstance(state, tuple) else state  # (layers, 1, hidden)
            scores = model.attention_score(torch.tanh(keys + model.attention_query(h[-1]).unsqueeze(1)))
            weights = torch.softmax(scores.squeeze(-1).masked_fill(~mask, float("-inf")), dim=-1)[0]
            logits, state = model._step(token, state, outputs, keys, mask)  # one decoder step
            logits[:, [exps.s2s.PAD, exps.s2s.SOS]] = float("-inf")
            token = logits.argmax(-1)
            if token.item() == exps.s2s.EOS:
                break
            rows.append({"action": target_vocab.decode([token.item()])[0],
                         **dict(zip(words, weights.tolist()))})
    attention = pd.DataFrame(rows)
    attention.index = [f"{i + 1}. {a}" for i, a in enumerate(attention.pop("action"))]
    display(attention.round(2))
    target = " ".join(a.split(". ")[1] for a in attention.index)
    right = target == dict(exps.scan.all_pairs())[command]
    most = attention.idxmax(axis=1)
    # the part of the command each action comes from: `walk left` gives the turn and the walk,
    # `jump twice` the jumps
    part = {"I_TURN_LEFT": {"walk", "left"}, "I_WALK": {"walk", "left"}, "I_JUMP": {"jump", "twice"}}
    aligned = sum(word in part.get(a.split(". ")[1], set()) for a, word in most.items())
    display(Markdown(
        f"The network answers `{target}` ({'right' if right else 'wrong'}). For its first action it "
        f"weighs `{most.iloc[0]}` most ({attention.iloc[0].max():.2f}); for {aligned} of its "
        f"{len(most)} actions the word it weighs most is in the part of the command the action comes "
        f"from (`walk left` for the turn and the walk, which come first in the actions though last "
        f"in the command; `jump twice` for the jumps)."))

# %% [markdown]
# **2. Which commands fail?** On the 1% split, look at the test commands the network gets wrong.
# Are they long? Do they share a modifier?

# %% tags=["hide-cell", "remove-stderr"]
# Solution: the per-command outcomes are in result["correct"], in test-set order (the run is the
# one of the size curve above, read from the cache).
p1 = exps.run("simple_p1", arch, seed=0, **train_options)
p1_test = exps.test_subset("simple_p1", settings["max_test"])
wrong = [c for (c, _), ok in zip(p1_test, p1["correct"]) if not ok]
words = pd.Series([w for c in wrong for w in c.split()]).value_counts()
pd.DataFrame({"training accuracy (%)": [round(100 * p1["train_accuracy"], 1)],
              "test commands": [len(p1_test)], "wrong": [len(wrong)],
              "mean words, wrong": [round(sum(len(c.split()) for c in wrong) / max(1, len(wrong)), 2)],
              "mean words, all": [round(sum(len(c.split()) for c, _ in p1_test) / len(p1_test), 2)],
              "most common word in wrong": [words.index[0] if len(words) else "-"]})
