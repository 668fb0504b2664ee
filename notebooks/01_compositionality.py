# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Compositionality in one notebook
#
# **What you will learn**
#
# - how the structure of an input is written down as a *derivation tree*, and how `tutorlib`
#   represents, prints and draws one;
# - the difference between a *compositional* and a *holistic* way of naming things, and how a
#   learner that expects compositionality generalises (or fails to) under each;
# - what *atoms*, *compounds* and *splits* are, the vocabulary every later chapter uses to say
#   what a test of compositional generalisation holds out.
#
# **What you need first**: Python, and the idea of training and test sets. Nothing about neural
# networks: this chapter has none, so that the ideas stand on their own before the methods
# measure them in networks.

# %% tags=["parameters"]
PROFILE = "tutorial"

# %% [markdown]
# Every chapter begins with a parameters cell, `PROFILE = "tutorial"` (hidden on this page, the
# first code cell when you open the notebook). It chooses how big the experiments are: `ci`,
# `tutorial` or `paper` (see {doc}`../usage`). The settings for this chapter come from
# `tutorlib.profiles`, the one place where they are defined:

# %%
import matplotlib.pyplot as plt
import pandas as pd

from tutorlib import compositionality, profiles, results, trees
from tutorlib.plotting import use_book_style

use_book_style()
settings = profiles.settings("compositionality", PROFILE)
pd.DataFrame([settings]).T.rename(columns={0: f"{PROFILE} profile"})

# %% [markdown]
# ## Derivation trees
#
# To ask whether a representation is compositional we must first say what its input is made
# of. {cite:t}`andreas2019measuring` writes this as a *derivation*: a tree whose leaves are
# primitives and whose inner nodes put their children together. A blue triangle is the
# derivation `(blue triangle)`; a pair of objects, a red circle and a blue star, is
# `((red circle) (blue star))`. In `tutorlib` a derivation is a string (a primitive) or a tuple
# of derivations, and `trees.parse` reads the bracketed text form:

# %%
pair = trees.parse("((red circle) (blue star))")
pair

# %% [markdown]
# The tree has seven nodes (four primitives and three compositions) and depth two. The same
# functions work for any structure, such as the derivation of a SCAN command that the SCAN part
# will build:

# %%
command = trees.parse("((jump twice) after (walk left))")
pd.DataFrame(
    [{"derivation": trees.format_tree(t), "nodes": trees.size(t), "primitives": trees.num_leaves(t),
      "depth": trees.depth(t)} for t in [("blue", "triangle"), pair, command]]
)

# %% [markdown]
# Drawn as figures (compositions are dots, primitives are labelled leaves):

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 3.2), gridspec_kw={"width_ratios": [1, 1.3]},
                         layout="constrained")
trees.draw(pair, ax=axes[0], title="Figure 1a. A pair of objects")
trees.draw(command, ax=axes[1], title="Figure 1b. A SCAN-like command")
plt.show()

# %% [markdown]
# *Figure 1.* Left: the derivation of a pair of coloured shapes. Right: a command in the style of
# SCAN, where `after` composes two sub-commands.
#
# ## Two ways to name a world of coloured shapes
#
# Our world has a set of colours and a set of shapes; every object is a `(colour, shape)`
# derivation. A *language* gives every object a two-word name. In a **compositional** language
# each colour and each shape has its own word and the name of an object is the colour's word
# followed by the shape's. In a **holistic** language every object has a name of its own, as
# arbitrary as the word *dog* is for dogs: the name carries no trace of the parts.

# %%
world = compositionality.make_world(settings["num_colours"], settings["num_shapes"])
compositional = compositionality.compositional_language(world, seed=0)
holistic = compositionality.holistic_language(world, seed=0)

sample = [(c, s) for c in world.colours[:3] for s in world.shapes[:3]]
pd.DataFrame({"object": [f"{c} {s}" for c, s in sample],
              "compositional name": [compositional[o] for o in sample],
              "holistic name": [holistic[o] for o in sample]})

# %% [markdown]
# Reading down the compositional column you can find the word for each colour (it repeats
# in the first position) and for each shape (second position). Nothing repeats in the holistic
# column.
#
# ## A learner that expects compositionality
#
# Suppose a learner sees the names of some objects and must name the rest. If it believes the
# language is compositional it can read a word for every colour and every shape off the names it
# has seen (the most frequent first word among the objects of that colour, and likewise for
# shapes) and put the two words together for an object it has never seen. `compositionality.learn_lexicon`
# and `compositionality.predict` do exactly that. We hold out a quarter of the objects, chosen so that every
# colour and every shape still occurs in training:

# %%
train, test = compositionality.compound_split(world, test_fraction=0.25, seed=0)
pd.DataFrame({
    "language": ["compositional", "holistic"],
    "held-out accuracy": [compositionality.heldout_accuracy(compositional, train, test),
                          compositionality.heldout_accuracy(holistic, train, test)],
}).round(3)

# %% [markdown]
# The learner names every held-out object of the compositional language correctly and none of
# the holistic one: generalising to new objects is possible exactly when the names are built
# from parts, and the learner's method of building them matches the language's. Every test in
# this book is a refinement of this experiment, with a neural network in the learner's place.
#
# ## Atoms, compounds and splits
#
# The objects of the test set above were new, but their parts were not. In the vocabulary of
# {cite:t}`keysers2020measuring`, the **atoms** are the primitive elements (here the colours and
# the shapes) and the **compounds** are their combinations (here the objects). A **split** of a
# dataset into training and test sets decides what a model must generalise over:
#
# - a *random* split usually tests nothing compositional at all: most test compounds, or
#   near-copies of them, are in the training set (SCAN's simple split, Exp. 1);
# - a *compound* split keeps all atoms in training and holds out compounds: it tests
#   systematic recombination (SCAN's template splits, DBCA's maximum-compound-divergence splits);
# - an *atom* split holds out an atom entirely, or shows it only in isolation: it tests whether a
#   new primitive is used like the old ones (SCAN's `addprim_jump` split).
#
# `compositionality.split_summary` counts, for a split, how many test atoms and test compounds the training
# set never showed:

# %%
splits = {
    "compound split (25% held out)": compositionality.compound_split(world, 0.25, seed=0),
    f"atom split (every '{world.colours[0]}' object)": compositionality.atom_split(world, world.colours[0]),
}
rows = []
for name, (train, test) in splits.items():
    rows.append({"split": name, **compositionality.split_summary(train, test),
                 "accuracy, compositional": compositionality.heldout_accuracy(compositional, train, test),
                 "accuracy, holistic": compositionality.heldout_accuracy(holistic, train, test)})
pd.DataFrame(rows).set_index("split").round(3)

# %% [markdown]
# On the atom split the learner fails even on the compositional language: no amount of
# compositionality lets it guess a word it has never seen. SCAN's `addprim` splits therefore
# show the new primitive once, in isolation (`jump` → `JUMP`), and ask whether a model then uses
# it in every context; the DBCA part turns "how new are the test compounds" into a number, the
# *compound divergence*.
#
# ## How much irregularity can compositionality survive?
#
# Natural languages are compositional with exceptions (*go* + past is *went*). Let us make a
# fraction of the objects' names holistic and measure the learner's held-out accuracy on
# compound splits, averaged over random languages and splits (their number is set by the
# profile). A test object whose own name is an exception can never be predicted, so `1 − fraction`
# is the best any learner could do; the learner can also fall short of it when exceptions
# outvote the regular names of an atom in training.

# %% tags=["remove-stderr"]
curve = pd.DataFrame(compositionality.irregularity_curve(world, settings["irregular_fractions"],
                                            settings["num_splits"]))
summary = (curve.groupby("irregular fraction")["accuracy"].agg(["mean", "std", "count"])
           .reset_index())
summary.round(3)

# %%
fig, ax = plt.subplots()
ax.errorbar(summary["irregular fraction"], summary["mean"], yerr=summary["std"], marker="o",
            capsize=3, label=f"learner, {PROFILE} profile ({settings['num_splits']} splits)")
ax.plot([0, 1], [1, 0], ls="--", color="0.4", label="upper bound: 1 − fraction")
paper_run = results.committed("compositionality")  # the paper-profile run, if committed
if paper_run is not None:
    paper = paper_run["data"]
    ax.plot(paper["irregular fraction"], [sum(a) / len(a) for a in paper["accuracy"]], marker=".",
            lw=1, label=f"paper profile ({paper['settings']['num_splits']} splits, "
                        f"{paper['settings']['num_colours']}×{paper['settings']['num_shapes']} world)")
ax.set_xlabel("fraction of objects with an irregular (holistic) name")
ax.set_ylabel("held-out accuracy (exact name)")
ax.set_title("Figure 2. Generalisation against irregularity")
ax.set_xlim(-0.02, 1.02)
ax.set_ylim(-0.02, 1.02)
ax.legend(loc="upper right")
plt.show()

# %% [markdown]
# *Figure 2.* Mean held-out accuracy (error bars: one standard deviation over splits) of the
# compositional learner on compound splits, as the fraction of irregular names grows from a
# fully compositional (0) to a fully holistic (1) language. The dashed line is the best
# achievable accuracy. Where committed results of a `paper`-profile run exist
# (`python -m tutorlib run compositionality --profile paper`), they are drawn too.
#
# Accuracy follows the upper bound closely while exceptions are rare, and drops below it once
# exceptions are common enough to outvote an atom's regular word in training. In a bigger world
# (the `paper` profile's curve, when it is drawn) every atom occurs in more training objects, so it
# takes more exceptions to outvote its regular word and the curve stays closer to the bound. The held-out
# accuracy is thus a graded measure of compositionality, not a yes-or-no verdict; the TRE part
# builds the same idea for vector representations, where "naming correctly" becomes "being
# close to the composition of the parts' representations".
#
# ## Recap
#
# - A derivation tree records how an input is built from primitives; in `tutorlib` it is a nested
#   tuple (`trees.parse`, `trees.format_tree`, `trees.draw`).
# - A compositional language names compounds by combining the names of their atoms; a holistic
#   one does not. Only the first lets a learner name what it has never seen.
# - A split decides what is tested: new compounds of known atoms, or a new atom. Later chapters
#   build splits like these for SCAN, PCFG SET, ORCHARD and DBCA, and put neural networks in the
#   learner's place.
# - Compositionality is graded: exceptions lower held-out accuracy smoothly.
#
# ## Exercises
#
# **1. A bigger world.** Predict first: if the world had twice as many shapes, would the
# learner's accuracy on a 25% compound split of the *compositional* language change? Then run it.

# %% tags=["hide-cell"]
# Solution: no. Every atom is still seen in training, so the learner still reads off every word.
big = compositionality.make_world(settings["num_colours"], min(12, 2 * settings["num_shapes"]))
big_train, big_test = compositionality.compound_split(big, 0.25, seed=1)
compositionality.heldout_accuracy(compositionality.compositional_language(big, seed=1), big_train, big_test)

# %% [markdown]
# **2. Hold out more.** Compound splits need every atom in training. What is the largest test
# fraction for which `compositionality.compound_split` still finds such a split in this world, and what
# happens to the learner's accuracy on the compositional language as you approach it?

# %% tags=["hide-cell"]
# Solution: accuracy stays 1.0 as long as every atom is seen; past the limit no split exists and
# compound_split raises a ValueError naming the test fraction.
fraction_rows = []
for fraction in [0.25, 0.5, 0.75, 0.8, 0.9]:
    try:
        tr, te = compositionality.compound_split(world, fraction, seed=0)
        fraction_rows.append({"test fraction": fraction,
                              "accuracy": compositionality.heldout_accuracy(compositional, tr, te), "note": ""})
    except ValueError as error:
        fraction_rows.append({"test fraction": fraction, "accuracy": None, "note": str(error)})
pd.DataFrame(fraction_rows)

# %% [markdown]
# **3. Make the language holistic, one word at a time.** Change `irregular_language` so that an
# exception replaces only the *shape* word of an object's name. Predict the shape of Figure 2's
# curve, then build the language by hand below and measure it at a few fractions.

# %% tags=["hide-cell"]
# Solution: only shape words are disturbed, so the learner's colour words stay right: the
# first word of every held-out prediction is correct, while whole-name accuracy still falls.
import random


def shape_irregular_language(world, fraction, seed):
    language = compositionality.compositional_language(world, seed)
    rng = random.Random(seed + 1)
    for obj in rng.sample(world.objects(), round(fraction * len(world.objects()))):
        colour_word, _ = language[obj].split()
        language[obj] = f"{colour_word} x{rng.randrange(10**6)}"
    return language


def first_word_accuracy(language, train, test):
    lexicon = compositionality.learn_lexicon({obj: language[obj] for obj in train})
    return sum(compositionality.predict(lexicon, obj).split()[0] == language[obj].split()[0]
               for obj in test) / len(test)


ex3_train, ex3_test = compositionality.compound_split(world, 0.25, seed=0)
ex3_rows = []
for fraction in [0.0, 0.25, 0.5]:
    language = shape_irregular_language(world, fraction, seed=0)
    ex3_rows.append({"fraction": fraction,
                     "whole-name accuracy": compositionality.heldout_accuracy(language, ex3_train, ex3_test),
                     "colour-word accuracy": first_word_accuracy(language, ex3_train, ex3_test)})
pd.DataFrame(ex3_rows).round(3)
