# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # ORCHARD: reasoning over two trees, deeper than in training
#
# **What you will learn**
#
# - how the ORCHARD benchmark of {cite:t}`pung2021orchard` builds its inputs: two trees of
#   nested operators, where the second tree can point into the first with {term}`COPY`, and
#   the code that evaluates them;
# - its six variants (two operator pairs, three amounts of `COPY`), how the generator draws a
#   tree of a given depth, and how quickly an input grows with that depth;
# - how to test {term}`depth generalisation`: train a bidirectional LSTM with attention and a
#   Transformer on trees of depth 3 to 6, test them on every depth from 3 to 12, and read only
#   the networks that learned the training depths;
# - what the paper found (the LSTM generalises to deep first trees far better than the
#   Transformer), and how much of it our committed runs reproduce.
#
# **What you need first**: an encoder-decoder network and how it is trained
# ({doc}`../scan/03_scan_exp1`); length generalisation on SCAN ({doc}`../scan/04_scan_exp2`)
# is the closest relative of this chapter.

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

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

from tutorlib import fit, orchard, profiles
from tutorlib.orchard import experiments as exps
from tutorlib.orchard import report
from tutorlib.orchard.generator import _Sampler
from tutorlib.plotting import glue_figure, use_book_style

use_book_style()
settings = profiles.settings("orchard", PROFILE)


def show_source(function) -> None:
    """Print the code of ``function`` as it runs, without its docstring."""
    lines = inspect.getsource(function).splitlines()
    doc = function.__doc__
    if doc:
        text = "\n".join(lines)
        start = text.index('"""')
        end = text.index('"""', start + 3) + 3
        text = text[:start].rstrip(" ") + text[end:].lstrip("\n")
        lines = [line for line in text.splitlines()]
    print("\n".join(lines))


# %% [markdown]
# ## Why two trees?
#
# SCAN asks a network to follow one command; its length split showed that networks fail on
# commands longer than any in training ({doc}`../scan/04_scan_exp2`). ORCHARD makes the structure
# explicit and its depth a dial. An input is an expression tree: operators over values, nested
# to some depth. The network must output the tree's value, which needs every level of the tree,
# so a network that learnt a shortcut for shallow trees has nowhere to hide on deep ones. And
# there are *two* trees: the second can refer to parts of the first, so the network must also
# find, in a long input, the item a reference points to and compute *its* value: the
# "multi-hierarchical reasoning" of the paper's title.
#
# ## The idea: two trees and COPY
#
# An input is two trees in prefix notation separated by `X`; an operator is written
# `[OP ... ]`. The operators are `FIRST` and `LAST` (the first or last of their arguments) or
# `MIN` and `MAX`. A value node is one or two digits, each digit a separate argument. In the
# second tree, `[COPY k ]` stands for the value of the k-th item of the first tree, counting
# from 0 in level order (breadth first), where every operator and every digit is an item and an
# operator's value is its subtree's. The label is the two trees' values, `v1,v2`. An example,
# drawn as in the paper's Figure 1:

# %% tags=["remove-output"]
example = ("[LAST [LAST [FIRST 3 ] [FIRST 0 ] ] 9 ] X "
           "[LAST [COPY 2 ] [FIRST [FIRST [COPY 3 ] ] [COPY 1 ] ] ]")
ax = orchard.draw(example, title="Two trees, and what each COPY copies")
glue_figure("fig-14-two-trees", ax.figure)
plt.close(ax.figure)

# %% tags=["remove-input"]
Markdown(f"The label of this input, from `orchard.evaluate`, is "
         f"`{orchard.format_label(orchard.evaluate(example))}`.")

# %% [markdown]
# ```{glue:figure} fig-14-two-trees
# :name: fig-14-two-trees
#
# The first tree (left) and the second (right). Each item of the first tree carries
# its level-order index; each operator shows its value; an arrow runs from each `COPY` to the
# item it copies.
# ```
#
# The first tree's level order, with each item's value, is what the `COPY` indices refer to:

# %%
first_tree, second_tree = orchard.parse(example)
items = orchard.level_order(first_tree)
pd.DataFrame({"item": [orchard.format_tree(i) if isinstance(i, orchard.Operator) else str(i.value)
                       for i in items],
              "value": orchard.item_values(first_tree)}).rename_axis("index k").T

# %% [markdown]
# `[COPY 2 ]` is item 2, the digit `9`; `[COPY 3 ]` is item 3, `[FIRST 3 ]`, whose value is 3;
# `[COPY 1 ]` is the subtree `[LAST [FIRST 3 ] [FIRST 0 ] ]`, value 0. So the second tree is
# `LAST(9, FIRST(FIRST(3), 0))` = 3.
#
# That is the whole semantics, and it fits in three functions of `tutorlib.orchard`. `value`
# evaluates a tree bottom up (with a stack rather than recursion, so that a tree of any depth
# has a value), looking a `COPY` up in `reference`; `item_values` gives every item of the first
# tree its value in level order, which is that `reference`; `evaluate` labels an input:

# %%
for function in (orchard.value, orchard.item_values, orchard.evaluate):
    show_source(function)
    print()

# %% [markdown]
# ## Generation and the six variants
#
# The generator follows the release's rules: the root is an operator; each of an operator's two
# children is an operator with probability 0.5, else a value node of one or two random digits;
# an operator one level above the depth limit gets a single value child; a tree's depth is its
# deepest node's. In the second tree each value node becomes a `COPY` with probability *c*,
# pointing at an item of the first tree chosen uniformly. A variant is an operator pair times a
# `COPY` probability: *c* = 0 (easy), 0.5 (medium) or 1 (hard). Training and validation
# inputs have both trees of depth 3 to 6 in equal proportions; the test bin of depth *d* has
# both trees of depth exactly *d*, for *d* = 3 ... 12.
#
# The release draws trees and throws away those of the wrong depth. Ours draws each tree
# *conditioned* on its depth, which gives the same distribution without the rejections. First
# the depths, in equal proportions:

# %%
show_source(orchard.balanced_depths)

# %% [markdown]
# Then each tree, top down. An operator at depth `h` that must reach depth `bound` exactly
# chooses which child reaches it, with the probability that child would under the release's
# process (`left_first`); each child is then an operator or a value node with the release's
# probability *given* its constraint (`exactly` or `at_most`, tables computed once per depth
# limit). A value node of the second tree is a `COPY` with probability *c*:

# %%
show_source(_Sampler._operator)
print()
show_source(_Sampler._leaf)

# %% [markdown]
# One input of depth 3 from each variant:

# %%
pd.DataFrame([{"variant": v.name, "operators": " and ".join(orchard.OPERATOR_SETS[v.operators]),
               "COPY probability c": v.copy_prob,
               "example (depth 3)": orchard.generate_part(v.name, "test3", 1)[0][0]}
              for v in orchard.VARIANTS.values()]).set_index("variant")

# %% [markdown]
# Comparative operators (`MIN`, `MAX`) need every value below them; positional ones (`FIRST`,
# `LAST`) only the values along one path, but the network must find that path. With *c* = 1
# every value of the second tree is a reference into the first.
#
# ## Inputs grow quickly with depth
#
# A sequence model reads the input token by token, so what matters to it is the length of the
# input, and that grows much faster than the depth:

# %% tags=["remove-output"]
lengths = orchard.lengths_by_depth("minmax_hard", num_examples=settings["test_size"])
ax = orchard.plot_lengths_by_depth(
    lengths, title="Input length by depth (minmax_hard)")
glue_figure("fig-14-lengths", ax.figure)
plt.close(ax.figure)

# %% tags=["remove-input"]
by_part = {row.part: row for row in lengths}
train_items = [orchard.num_items(orchard.parse(line)[0])
               for line, _ in orchard.generate_part("minmax_hard", "train", settings["test_size"])]
deep_items = [orchard.num_items(orchard.parse(line)[0])
              for line, _ in orchard.generate_part("minmax_hard", "test12", settings["test_size"])]
Markdown(
    f"From {settings['test_size']:,} generated inputs per depth bin of `minmax_hard` "
    f"(the figure below): the training inputs average {by_part['train'].mean:.0f} "
    f"tokens and those of depth 6 average {by_part['test6'].mean:.0f}; at depth 12 the mean is "
    f"{by_part['test12'].mean:.0f} tokens and the longest input has {by_part['test12'].maximum}. "
    f"A model tested at depth 12 also meets `COPY` indices it has rarely or never seen: the "
    f"largest first tree among these training inputs has {max(train_items)} items, while the "
    f"depth-12 first trees have {np.mean(deep_items):.0f} on average and up to "
    f"{max(deep_items)}.")

# %% [markdown]
# ```{glue:figure} fig-14-lengths
# :name: fig-14-lengths
#
# Input length in tokens against the depth of both trees (`minmax_hard`): mean (points),
# median to 95th percentile (bars), the longest input (crosses); the band is the training
# range.
# ```
#
# ## The two models
#
# The paper trains fairseq's LSTM (a bidirectional encoder with attention) and a Transformer
# whose sinusoidal positions extend to any length. Ours are `tutorlib.seq2seq` models of the
# same kinds. Both read the input tokens as written (`[MAX`, `7`, `]`, `X`, `[COPY`, `14`,
# ...: the numbers 0 to 2,000 are in the vocabulary, so every `COPY` index has a token even if
# training never showed it) and write the label as three tokens, the two digits and the comma
# (`8 , 7`). The predicted label is parsed back; the first tree is right if its digit is, the
# second likewise, and a prediction that is not a label at all is wrong on both.
#
# A Transformer is harder to train than the LSTM. Its token embeddings are multiplied by
# $\sqrt{d}$ (the width) before the sinusoidal positions are added; PyTorch draws embeddings
# with standard deviation 1, which makes them about $\sqrt{d}$ times larger than the positions,
# and a model that can barely see where a token is cannot find its way through a tree. fairseq,
# which the paper used, draws them with standard deviation $1/\sqrt{d}$. We do the same, and
# raise the Transformer's learning rate over its first steps (a *warmup*). The networks of the
# gpu profile, whose runs this chapter reads first:

# %%
gpu_settings = profiles.settings("orchard", "gpu")
full_settings = profiles.settings("orchard", "full")


def architecture_table(profile_settings) -> pd.DataFrame:
    configs = {name: exps.s2s.Seq2SeqConfig(**config)
               for name, config in profile_settings["models"].items()}
    return pd.DataFrame({
        name: {"cell": c.cell, "hidden size": c.hidden_size,
               "layers (encoder, decoder)": c.num_layers,
               "bidirectional encoder": c.bidirectional if c.cell == "lstm" else "-",
               "attention": "Bahdanau" if c.cell == "lstm" else f"{c.num_heads} heads",
               "positions": "recurrence" if c.cell == "lstm" else c.positions,
               "dropout": c.dropout}
        for name, c in configs.items()})


architecture_table(gpu_settings)

# %% [markdown]
# ## Only networks that have learned
#
# A network's accuracy at depth 12 says something about generalisation only once it has
# learned the training depths. This chapter trains no network itself: networks small enough to
# train here in a minute or two do not learn the task, and a number from a network that has
# not learned would be read as a finding about depth. It reads runs trained from the command
# line and committed with the book (`results/orchard/`), and of those only the ones that pass
# the book's one **fit gate**. A run passes on a tree when it gets at least 90% of that tree
# right on its own training examples and on validation examples of the training depths (the
# paper gives no in-distribution number to set the bar by). A claim about the first tree reads
# the first tree's fit; a claim about the second tree, the second's:

# %%
show_source(report.fits)
print()
show_source(fit.passes)

# %% [markdown]
# ## The gpu profile: networks near the paper's
#
# The {term}`gpu profile` (`gpu`) trains every variant on the paper's depths 3 to 6, three seeds
# each, with networks a little smaller than the paper's, on one lent GPU
# (`bash tools/gpu_sweep.sh orchard`). The paper trains for 500 epochs of 500,000 examples and
# evaluates the checkpoint with the best validation accuracy among those saved every 50 epochs
# {cite:p}`pung2021orchard`. Ours, from the gpu profile's settings:

# %% tags=["remove-input"]
recipe = gpu_settings["training"]["lstm"]
Markdown(f"Each run sees {gpu_settings['train_size']:,} training examples in batches of "
         f"{recipe['batch_size']}, is evaluated "
         f"{ {1: 'once', 2: 'twice'}.get(recipe['evaluations_per_epoch'], recipe['evaluations_per_epoch'])}"
         f"{'' if recipe['evaluations_per_epoch'] in (1, 2) else ' times'} an epoch on "
         f"validation examples of depths {gpu_settings['train_depths'][0]} to "
         f"{gpu_settings['train_depths'][1]}, and stops when that accuracy has not improved for "
         f"{recipe['patience']} epochs or when its {recipe['max_seconds']:.0f} seconds of training "
         f"end, keeping the model that was best on validation.")

# %% tags=["remove-input"]
by_profile = report.committed_by_profile()
gpu_records = by_profile["gpu"]
full_records = by_profile["full"]


def fit_counts(records: list[dict]) -> pd.DataFrame:
    """How many runs of each variant and model pass the fit gate on each tree."""
    rows = []
    for (variant, model), runs in pd.Series(records).groupby(
            [[r["variant"] for r in records], [r["model"] for r in records]]):
        rows.append({"variant": variant, "model": model,
                     **{f"{tree} tree fits": f"{sum(report.fits(r, tree) for r in runs)} of "
                                              f"{len(runs)}" for tree in ("first", "second")}})
    return pd.DataFrame(rows).set_index(["variant", "model"])


def percent(value: float) -> str:
    """A percentage to one decimal, rounded as the tables round it."""
    return f"{np.round(value, 1):.1f}%"


def at_depth(table, variant, model, tree, depth=12):
    """Mean accuracy (%) over seeds of one variant, model and tree at one depth."""
    rows = table[(table["variant"] == variant) & (table["model"] == model)
                 & (table["tree"] == tree) & (table["depth"] == depth)]
    return rows["accuracy (%)"].mean()


def fitted_pairs(records: list[dict], tree: str) -> list[str]:
    """The variant-model pairs whose runs all pass the gate on ``tree``."""
    counts = fit_counts(records)
    column = counts[f"{tree} tree fits"]
    return [f"{variant} ({report.NAMES[model]})" for (variant, model), text in column.items()
            if text.split(" of ")[0] == text.split(" of ")[1]]


gpu_both = [r for r in gpu_records if report.fits(r)]
first_only = [p for p in fitted_pairs(gpu_records, "first")
              if p not in fitted_pairs(gpu_records, "second")]
reasons = {"max_seconds": "at the end of their time budget",
           "patience": "when validation accuracy stopped improving"}
stopped = pd.Series([reasons.get(r.get("stopped"), "otherwise") for r in gpu_records]).value_counts()
Markdown(
    f"{len(gpu_records)} of the gpu profile's {len(exps.runs(gpu_settings))} planned runs are "
    f"committed, and {len(gpu_both)} of them fit both trees. Every run of these pairs fits both: "
    f"{', '.join(fitted_pairs(gpu_records, 'second')) or 'none'}. In these, every run fits the "
    f"first tree but not every run the second: {', '.join(first_only) or 'none'}. Of the "
    f"committed runs, "
    + ", ".join(f"{n} stopped {reason}" for reason, n in stopped.items()) + ".")

# %% [markdown]
# The table counts, per variant and model, the runs that fit each tree; {numref}`fig-14-gpu`
# draws a model's curve on a tree only where all its runs fit that tree.

# %%
fit_counts(gpu_records)

# %% tags=["remove-output"]
fig = report.plot_fitted_by_depth(
    gpu_records, "Accuracy by depth of the runs that fit (gpu profile, trained on depths 3-6)")
glue_figure("fig-14-gpu", fig)

# %% tags=["remove-input"]
gpu_table = exps.by_depth_table(gpu_records)
falls = {}  # (variant, model, tree) -> points lost from depth 6 to depth 12, runs that fit
for (variant, model), runs in pd.Series(gpu_records).groupby(
        [[r["variant"] for r in gpu_records], [r["model"] for r in gpu_records]]):
    for tree in ("first", "second"):
        if all(report.fits(r, tree) for r in runs):
            falls[variant, model, tree] = (at_depth(gpu_table, variant, model, tree, 6)
                                           - at_depth(gpu_table, variant, model, tree, 12))
pairs_both = [(v, t) for v, m, t in falls if m == "lstm" and (v, "transformer", t) in falls]
steeper = sum(falls[v, "transformer", t] > falls[v, "lstm", t] for v, t in pairs_both)
Markdown(
    f"In the figure above, every drawn curve falls from depth 6 to depth 12, by "
    f"{min(falls.values()):.0f} to {max(falls.values()):.0f} points: what a network learned "
    f"inside the training range does not carry intact to trees twice as deep. Where both models "
    f"are drawn on the same tree of the same variant ({len(pairs_both)} curves each), the "
    f"Transformer falls further than the LSTM in {steeper} of them.")

# %% [markdown]
# ```{glue:figure} fig-14-gpu
# :name: fig-14-gpu
#
# The committed gpu-profile runs that fit: accuracy on the first tree (solid) and the second
# tree (dashed) against the depth of the test trees, the mean over seeds, one panel per variant,
# a colour per model. A curve is drawn only where every run of that model on that variant
# passes the fit gate on that tree. Shaded: the training depths; dotted: chance.
# ```


# %% tags=["remove-input"]
paper_first = exps.PAPER["first_tree_depth12_hard"]
hard_lstm = [r for r in gpu_records if r["variant"] == "firstlast_hard" and r["model"] == "lstm"]
hard_fits = bool(hard_lstm) and all(report.fits(r) for r in hard_lstm)
Markdown(
    (f"The closest to the paper is the LSTM on `firstlast_hard`, the hardest FIRST-LAST variant: "
     f"every one of its {len(hard_lstm)} runs fits both trees, and at depth 12 it gets "
     f"{percent(at_depth(gpu_table, 'firstlast_hard', 'lstm', 'first'))} of first trees right, "
     f"against the paper's {paper_first['lstm']['firstlast_hard']}% "
     f"(its Fig. 4), while its second tree falls to "
     f"{percent(at_depth(gpu_table, 'firstlast_hard', 'lstm', 'second'))}: the paper's finding that "
     f"the LSTM carries the first tree deep but not the references into it.")
    if hard_fits else
    "The LSTM on `firstlast_hard` does not fit here, so its depth-12 accuracy is not read.")

# %% [markdown]
# ## The full profile: a reduction one core can fit
#
# The {term}`full profile` (`full`) is sized by what one CPU core can fit ({doc}`the appendix
# <14_orchard_full_runs>` shows the pilots): both models on the two hard variants, three seeds,
# smaller networks, trees of depths 3 to 4 only, each run stopped at the first evaluation at
# which its **first tree** passes the fit gate. It does not try the second tree, and since it
# trains on shallower trees than the paper, its levels are not the paper's; what it can show is
# the order of the two models beyond the training depths.

# %% tags=["remove-input"]
full_first = [r for r in full_records if report.fits(r, "first")]
minutes = {model: [r["train_seconds"] / 60 for r in full_records if r["model"] == model]
           for model in exps.MODELS}
Markdown(
    f"{len(full_records)} of its {len(exps.runs(full_settings))} planned runs are committed, and "
    f"{len(full_first)} of them fit the first tree. The LSTM runs needed "
    f"{min(minutes['lstm']):.0f} to {max(minutes['lstm']):.0f} minutes of one core to get there, "
    f"the Transformer runs {min(minutes['transformer']):.0f} to "
    f"{max(minutes['transformer']):.0f}.")

# %% tags=["remove-output"]
fig = report.plot_fitted_by_depth(
    full_records, "Accuracy by depth of the runs that fit (full profile, trained on depths 3-4)",
    train_depths=full_settings["train_depths"])
glue_figure("fig-14-full", fig)

# %% [markdown]
# ```{glue:figure} fig-14-full
# :name: fig-14-full
#
# The committed full-profile runs, as {numref}`fig-14-gpu`: trained on depths 3 to 4 (shaded)
# and to fit the first tree only, so only first-tree curves are drawn.
# ```
#
# ## What the paper claimed, beside our runs
#
# The paper trains on depths 3 to 6 and tests to depth 12 (its Figs. 2-5). On the hard
# variants, at depth 12, it reports first-tree accuracies of 86.7% (MIN-MAX) and 88.7%
# (FIRST-LAST) for the LSTM against 54.1% and 48.3% for the Transformer, and finds both models
# failing on the second tree, the Transformer no better than chance
# {cite:p}`pung2021orchard`. The table sets the first-tree numbers beside ours, at depth 12, a
# dash where the runs do not all fit the first tree:

# %%
def first_tree_at_12(records: list[dict], model: str, variant: str) -> float:
    runs = [r for r in records if r["model"] == model and r["variant"] == variant]
    if not runs or not all(report.fits(r, "first") for r in runs):
        return np.nan  # no finding from a run that did not learn
    return at_depth(exps.by_depth_table(runs), variant, model, "first")


comparison = pd.DataFrame([
    {"model": model, "variant": variant, "paper (%)": published,
     "gpu profile, depths 3-6 (%)": first_tree_at_12(gpu_records, model, variant),
     "full profile, depths 3-4 (%)": first_tree_at_12(full_records, model, variant)}
    for model, per_variant in paper_first.items() for variant, published in per_variant.items()
]).set_index(["model", "variant"])
comparison.round(1).astype(object).where(comparison.notna(), "—")

# %% tags=["remove-input"]
def ordering(column: str) -> str:
    found = []
    for variant in ("minmax_hard", "firstlast_hard"):
        lstm, transformer = (comparison.loc[(m, variant), column] for m in exps.MODELS)
        if np.isnan(lstm) or np.isnan(transformer):
            found.append(f"untested on `{variant}` (a model's runs do not all fit)")
        else:
            found.append(f"the LSTM {'ahead' if lstm > transformer else 'behind'} on `{variant}` "
                         f"({percent(lstm)} against {percent(transformer)})")
    return "; ".join(found)


Markdown(f"At depth 12, on the gpu profile: {ordering('gpu profile, depths 3-6 (%)')}. On the "
         f"full profile: {ordering('full profile, depths 3-4 (%)')}. The paper has the LSTM "
         "ahead on both.")

# %% [markdown]
# The verdict on each claim, with the profile it is read from, is on the claims page
# ({doc}`../backmatter/16_claims`); every run, seed by seed, the differences between our setting
# and the paper's, and how the runs were sized are in the appendix ({doc}`14_orchard_full_runs`).

# %% [markdown]
# ## Recap
#
# - An ORCHARD input is two trees; `COPY k` in the second refers to the k-th item of the first in
#   level order, so the second tree can only be evaluated through the first.
# - Six variants: `MIN`/`MAX` or `FIRST`/`LAST`, and `COPY` with probability 0, 0.5 or 1. Trees
#   are drawn conditioned on their depth; inputs grow several times longer from the training
#   depths to depth 12.
# - A network is read only once it has learned: a claim whose runs do not pass the fit gate at
#   the training depths, on the tree the claim is about, is *untested*.
# - The paper: both models fall with depth, the LSTM far less on the first tree; the second
#   tree of the hard variants defeats both. What our gpu-profile networks that learned do past
#   the training depths is in {numref}`fig-14-gpu` and the table beside the paper's numbers.
# - A Transformer learns this task only once its training is tuned: embeddings drawn small
#   enough not to drown its positions, and a warmup.
#
# ## Exercises
#
# **1. Evaluate by hand.** Predict the label of
# `[MIN [MAX 4 7 ] 2 ] X [MAX [COPY 1 ] [MIN [COPY 0 ] 9 ] ]`, then check it with
# `orchard.evaluate` and draw it with `orchard.draw`.

# %% tags=["hide-cell"]
# Solution: the first tree's level order is [MIN ...] (0), [MAX 4 7 ] (1), 2 (2), 4 (3), 7 (4).
# MAX(4, 7) = 7 and MIN(7, 2) = 2, so the first value is 2. COPY 1 is the MAX subtree (7) and
# COPY 0 the whole first tree (2): MAX(7, MIN(2, 9)) = 7. The label is 2,7.
exercise = "[MIN [MAX 4 7 ] 2 ] X [MAX [COPY 1 ] [MIN [COPY 0 ] 9 ] ]"
print(orchard.format_label(orchard.evaluate(exercise)))
orchard.draw(exercise, title="Exercise 1")
plt.show()

# %% [markdown]
# **2. Depth or length?** A deeper tree is also a longer input. Predict: among the inputs of
# one depth bin, how much do the lengths vary, and do neighbouring bins overlap in length?
# Generate the test bins of `minmax_hard` and measure. What does the answer mean for reading a
# fall in accuracy with depth?

# %% tags=["hide-cell"]
# Solution: the lengths of the inputs of every test bin, their spread within a bin, and how far
# the bins overlap.
rows = []
for depth in settings["test_depths"]:
    pairs = exps.depth_bin("minmax_hard", depth, settings["test_size"], settings["data_seed"])
    length = np.array([len(line.split()) for line, _ in pairs])
    rows.append({"depth": depth, "inputs": len(length), "shortest": length.min(),
                 "median": np.median(length), "longest": length.max()})
spread = pd.DataFrame(rows).set_index("depth")
overlap = int((spread["shortest"].shift(-1) <= spread["longest"]).sum())
display(spread)
shallow, deep = spread.index.min(), spread.index.max()
deeper_than_shallow = int((spread["shortest"] <= spread.loc[shallow, "longest"]).sum())
Markdown(
    f"Within a bin the longest input is {(spread['longest'] / spread['shortest']).median():.1f} "
    f"times the shortest (median over the bins), and {overlap} of the {len(spread) - 1} pairs of "
    f"neighbouring bins overlap in length: the longest inputs of depth {shallow} are longer than "
    f"the shortest of {deeper_than_shallow - 1} deeper bins. So depth and length go together "
    f"but not one to one, and a fall in accuracy from bin to bin cannot by itself say which "
    f"of the two the network fails on. The test that can is within the overlap: compare inputs "
    f"of the same length from different depths (or of different lengths within one bin). If "
    f"accuracy follows depth at fixed length, the network fails on depth; if it follows "
    f"length at fixed depth, on length. The committed runs keep only each bin's accuracy, so "
    f"answering it needs a trained network's predictions per input.")

# %% [markdown]
# **3. Without COPY.** The easy variant has no `COPY`. Predict: how does the LSTM's second-tree
# accuracy by depth on `firstlast_easy` compare with `firstlast_hard`, where every value of the
# second tree is a `COPY`? Compare the two from the committed gpu-profile runs, after checking
# that they fit.

# %% tags=["hide-cell"]
# Solution: the LSTM's runs on both variants (the gpu profile), gated, then their second tree.
pair = {variant: [r for r in gpu_records if r["model"] == "lstm" and r["variant"] == variant]
        for variant in ("firstlast_easy", "firstlast_hard")}
fitted = {variant: all(report.fits(r, "second") for r in runs) for variant, runs in pair.items()}
if not all(fitted.values()):
    raise RuntimeError(f"the LSTM runs do not all fit the second tree: {fitted}")
both = exps.by_depth_table(pair["firstlast_easy"] + pair["firstlast_hard"])
second = both[both["tree"] == "second"].groupby(["depth", "variant"])["accuracy (%)"].mean()
second = second.unstack()
ax = second.plot(marker="o", figsize=(6, 3.6),
                 title="Exercise 3. LSTM, second tree, with and without COPY (gpu profile)")
ax.set(xlabel="depth of both trees", ylabel="accuracy (%)", ylim=(-3, 103))
plt.show()
edge, deepest = 6, int(second.index.max())
Markdown(
    f"Both pass the fit gate on the second tree, so both curves can be read. At depth {edge}, "
    f"the last training depth, the second tree is right {percent(second.loc[edge, 'firstlast_easy'])} "
    f"of the time without `COPY` and {percent(second.loc[edge, 'firstlast_hard'])} with it; at depth "
    f"{deepest}, {percent(second.loc[deepest, 'firstlast_easy'])} against "
    f"{percent(second.loc[deepest, 'firstlast_hard'])}. Without `COPY` the second tree is an "
    f"ordinary tree and follows the first tree's curve; with it, the network must find each "
    f"referenced item in an input that grows with depth, and that is what it does not carry to "
    f"deep trees.")
