# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Compositionality and similarity, and a zoo of measures
#
# **What you will learn**
#
# - the tree edit distance between derivations, and {term}`topographic similarity`, the oldest
#   measure of compositionality: do similar meanings get similar messages?
# - the paper's Proposition 1, which links the two: a representation with low TRE (under
#   conditions on the composition) cannot put inputs further apart than their derivations are,
#   plus twice the error. We check it numerically;
# - why the link runs one way only: a representation with TRE exactly 0 can have almost no
#   topographic similarity;
# - how TRE, topographic similarity, positional and bag-of-symbols disentanglement and context
#   independence score the same six languages, and where each of them is blind.
#
# **What you need first**: {doc}`06_tre_intro`.

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
import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tutorlib import profiles, tre, trees
from tutorlib.tre import languages
from tutorlib.plotting import glue_figure, use_book_style

use_book_style()
settings = profiles.settings("tre_similarity", PROFILE)
pd.Series(dict(settings.items()), name=f"{PROFILE} profile").to_frame()

# %% [markdown]
# ## Distances between derivations
#
# To say that similar inputs get similar representations we need a distance between inputs.
# {cite:t}`andreas2019measuring` (Sec. 6 and App. B) uses a tree edit distance $\Delta(d, d')$
# between derivations. `trees.edit_distance` implements it as we read it, in the form the proof
# of Proposition 1 needs: equal derivations are at distance 0; two pairs are as far apart as
# their left parts plus their right parts; anything else (two different primitives, or a
# primitive against a pair) costs one replacement.

# %%
examples = [
    (("red", "circle"), ("red", "circle")),
    (("red", "circle"), ("blue", "circle")),
    (("red", "circle"), ("blue", "star")),
    ((("red", "circle"), ("blue", "star")), (("red", "circle"), ("blue", "cross"))),
    ((("red", "circle"), ("blue", "star")), ("red", ("blue", "star"))),
]
pd.DataFrame([{"d": trees.format_tree(a), "d′": trees.format_tree(b),
               "Δ(d, d′)": trees.edit_distance(a, b)} for a, b in examples])

# %% [markdown]
# ## Topographic similarity
#
# {cite:t}`brighton2006understanding` measure compositionality as the correlation, over all
# pairs of inputs, between the distance of their meanings and the distance of their messages
# (Spearman's $\rho$): *topographic similarity*. With `tre.topographic_similarity`, and
# the meaning distance taken to be Δ between derivations:

# %%
base = languages.compositional(5, 5, code_length=2, seed=0)


def tree_distance(a, b):
    return trees.edit_distance(a, b)


pd.Series({
    label: tre.topographic_similarity(language.derivations, language.messages,
                                             meaning_distance=tree_distance,
                                             message_distance="hamming")
    for label, language in [("compositional", base), ("holistic", languages.holistic(base)),
                            ("random", languages.random_language(base))]
}, name="topographic similarity").round(3).to_frame()

# %% [markdown]
# ## Proposition 1: low TRE bounds distances by tree distances
#
# Proposition 1 of the paper says: if a representation $f$ has $\mathrm{TRE}(x) \le \varepsilon$
# for every input, with a composition that moves its result no further than it moves either
# argument, and all the representations it composes lie within distance 1 of each other, then
#
# $$\delta\big(f(x), f(x')\big) \le \Delta\big(d(x), d(x')\big) + 2\varepsilon .$$ (eq-09-bound)
#
# The proof of {eq}`eq-09-bound` is the triangle inequality: go from $f(x)$ to its
# reconstruction ($\le \varepsilon$),
# from that to the reconstruction of $x'$ (one edit at a time, each $\le 1$), and on to $f(x')$
# ($\le \varepsilon$). We build a representation that meets the conditions: primitives on a
# sphere of radius ½ in $\mathbb{R}^8$, composed by averaging (which halves how far an argument
# moves the result), plus noise that makes it compositional only up to $\varepsilon$. Inputs are
# pairs of objects, `((colour shape) (colour shape))`.

# %%
def averaging(x, y):
    return (x + y) / 2


def proposition_check(noise, radius=0.5, compose=averaging, seed=0, steps=settings["steps"]):
    """ε and, for every pair of inputs, δ(f(x), f(x′)) and Δ(d, d′)."""
    rng = np.random.default_rng(seed)
    names = languages.COLOURS[:4] + languages.SHAPES[:4]
    parts = {name: rng.normal(size=8) for name in names}
    parts = {name: radius * v / np.linalg.norm(v) for name, v in parts.items()}
    objects = list(itertools.product(languages.COLOURS[:4], languages.SHAPES[:4]))
    derivations = [(a, b) for a, b in itertools.product(objects, objects)][::3]

    def build(d):
        return parts[d] if isinstance(d, str) else compose(build(d[0]), build(d[1]))

    direction = rng.normal(size=(len(derivations), 8))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    codes = np.stack([build(d) for d in derivations]) + noise * direction
    fit = tre.tre(codes, derivations, compose, "l2", steps=steps)
    epsilon = fit.per_datum.max()
    pairs = [(i, j) for i in range(len(derivations)) for j in range(i + 1, len(derivations))]
    delta = np.array([np.linalg.norm(codes[i] - codes[j]) for i, j in pairs])
    tree = np.array([trees.edit_distance(derivations[i], derivations[j]) for i, j in pairs])
    return epsilon, delta, tree


rows, plotted = [], None
for noise in settings["proposition_noise"]:
    epsilon, delta, tree = proposition_check(noise)
    rows.append({"noise added": noise, "ε = max TRE(x)": epsilon, "pairs": len(delta),
                 "largest δ − Δ": (delta - tree).max(), "bound 2ε": 2 * epsilon,
                 "pairs breaking the bound": int((delta > tree + 2 * epsilon + 1e-9).sum())})
    plotted = (noise, epsilon, delta, tree)
pd.DataFrame(rows).round(4)

# %% tags=["remove-output"]
noise, epsilon, delta, tree = plotted
fig, ax = plt.subplots(figsize=(6.5, 3.6))
jitter = np.random.default_rng(0).uniform(-0.15, 0.15, len(tree))
ax.scatter(tree + jitter, delta, s=6, alpha=0.3, label="pairs of inputs")
levels = np.arange(0, tree.max() + 1)
ax.step(levels, levels + 2 * epsilon, where="mid", color="#D55E00", label="Δ + 2ε")
ax.set(xlabel="tree edit distance Δ(d, d′)", ylabel="δ(f(x), f(x′)) (L2)",
       title=f"Proposition 1 at noise {noise} (ε = {epsilon:.3f})")
ax.legend()
glue_figure("fig-09-proposition", fig)

# %% [markdown]
# ```{glue:figure} fig-09-proposition
# :name: fig-09-proposition
#
# Every pair of inputs of the representation with the largest noise of the table: the
# tree edit distance Δ between their derivations (jittered sideways so that the points do not
# hide each other) against the L2 distance δ between their representations. The orange steps
# are Proposition 1's bound Δ + 2ε.
# ```
#
# Every pair lies below the bound. The bound is loose here: averaging halves the effect of a
# replaced part at every level, so pairs sit far under it.
#
# ## The converse fails: TRE 0, little topographic similarity
#
# Proposition 1 gives an upper bound, not a correlation. Take sums of two digits, `3 + 4`,
# with derivation `(n3 n4)`, and represent each by its value, a number (divided by 10, to keep
# the numbers in the range the solver's step size suits). Adding is an exactly
# additive composition, so TRE is 0. But `1 + 8` and `8 + 1` have different derivations
# (Δ = 2) and the same value, while `0 + 0` and `0 + 1` differ in one digit and in value by
# only 1:

# %%
digits = [f"n{i}" for i in range(10)]
sums = list(itertools.product(digits, digits))
values = np.array([[(int(a[1:]) + int(b[1:])) / 10] for a, b in sums])
sum_tre = tre.tre(values, sums, "additive", "l2", steps=settings["steps"]).value
sum_topsim = tre.topographic_similarity(sums, values, meaning_distance=tree_distance,
                                               message_distance="euclidean")
pd.Series({"TRE (additive, L2)": sum_tre, "topographic similarity (Δ vs |value difference|)":
           sum_topsim}).round(4).to_frame("sums of two digits")

# %% [markdown]
# TRE is (nearly) zero, topographic similarity is small: topographic similarity rewards languages
# in which distances track the derivations, while TRE rewards languages that are *built* from
# their parts by the chosen composition, whatever that does to distances.
#
# ## A zoo of languages
#
# Now six languages over the same 25 objects, built by `tutorlib.tre.languages` (each a variation
# on the compositional one of {doc}`06_tre_intro`):
#
# | language | messages |
# |---|---|
# | compositional | colour code, then shape code |
# | order-sensitive | both codes, colour first for some shapes and shape first for the others |
# | with negation | each object and its negation; `not` is a leading symbol |
# | context-sensitive | the shape's code depends on the colour |
# | holistic | the compositional messages shuffled among the objects |
# | random | random symbols |
#
# and every measure of `tutorlib`: TRE with the additive and the linear composition (L1 on
# one-hot strings; lower is more compositional), topographic similarity (Hamming distances on
# attributes and messages), positional disentanglement ({term}`posdis`), bag-of-symbols disentanglement
# (bosdis) {cite:p}`chaabouni2020compositionality`, and context independence
# {cite:p}`bogin2018emergence` (for all of these, higher is more compositional).

# %%
def zoo(seed):
    base = languages.compositional(5, 5, code_length=2, seed=seed)
    return [base, languages.order_sensitive(base), languages.with_negation(base),
            languages.context_sensitive(base), languages.holistic(base, seed=seed),
            languages.random_language(base, seed=seed)]


zoo_rows = []
for seed in settings["seeds"]:
    for language in zoo(seed):
        one_hot = language.one_hot()
        zoo_rows.append({
            "language": language.name, "seed": seed,
            "TRE additive ↓": tre.tre(one_hot, language.derivations, "additive", "l1",
                                      steps=settings["steps"]).value,
            "TRE linear ↓": tre.tre(one_hot, language.derivations, "linear", "l1",
                                    steps=settings["steps"]).value,
            "topsim ↑": tre.topographic_similarity(language.attributes, language.messages,
                                                          "hamming", "hamming"),
            "posdis ↑": tre.posdis(language.attributes, language.messages),
            "bosdis ↑": tre.bosdis(language.attributes, language.messages),
            "context independence ↑": tre.context_independence(language.attributes,
                                                                      language.messages),
        })
scores = pd.DataFrame(zoo_rows).drop(columns="seed").groupby("language", sort=False).mean()
scores.round(3)

# %% tags=["remove-output"]
fig, ax = plt.subplots(figsize=(8.5, 4.2))
# colour each column by where a language falls between the column's extremes, flipping the TRE
# columns so that dark always means "looks compositional to this measure"
shown = scores.copy()
for column in shown:
    low, high = shown[column].min(), shown[column].max()
    scaled = (shown[column] - low) / (high - low) if high > low else 0 * shown[column]
    shown[column] = 1 - scaled if "↓" in column else scaled
ax.imshow(shown.to_numpy(), cmap="Blues", vmin=0, vmax=1, aspect="auto")
for (i, j), value in np.ndenumerate(scores.to_numpy()):
    ax.text(j, i, f"{value:.2f}", ha="center", va="center",
            color="white" if shown.to_numpy()[i, j] > 0.6 else "black", fontsize=11)
ax.set_xticks(range(len(scores.columns)), scores.columns, rotation=20, ha="right")
ax.set_yticks(range(len(scores.index)), scores.index)
ax.grid(False)
ax.set(title="Six languages, six measures", xlabel="measure", ylabel="language")
glue_figure("fig-09-zoo", fig)

# %% [markdown]
# ```{glue:figure} fig-09-zoo
# :name: fig-09-zoo
#
# The table above as a picture: each cell gives a measure's score for a language
# (mean over the profile's seeds; ↓: lower is more compositional, ↑: higher is). Each column is
# shaded from light to dark between its least and its most compositional language by that
# measure, so dark always means "compositional according to this measure". Read down a column
# to see which languages a measure tells apart, and along a row to see where the measures
# disagree about a language.
# ```
#
# Reading the table column by column:
#
# - **TRE** sees the compositional language and the one with negation as exactly compositional:
#   with real-valued primitives, `not` can be a vector that writes its symbol in the first
#   position *and subtracts the blank symbol there*. It cannot rebuild the order-sensitive
#   language, whose composition would have to depend on the shape, nor the context-sensitive one.
#   The linear composition does no better than the additive one here, because in these languages
#   nothing needs to move.
# - **Topographic similarity** is never 1 even for the compositional language: two colours'
#   codes may share a symbol, so Hamming distances of messages do not match those of meanings
#   exactly. It falls gradually for the other languages.
# - **posdis** is 1 for the compositional language and drops for the order-sensitive one, whose
#   positions hold colours for some objects and shapes for others; **bosdis** ignores positions,
#   so it still gives the order-sensitive language full marks. Both are blind to structure that
#   is not one-symbol-one-attribute.
# - **Context independence** is low everywhere. {cite:t}`bogin2018emergence` define it from
#   symbol–concept co-occurrence counts: a concept's best symbol accounts for only a quarter of the
#   symbols in its messages here (two attributes, two symbols each), and that symbol co-occurs with
#   the other attribute's concepts about as often as with its own, so even the compositional
#   language scores below 0.1, and random languages come close to that. The measure
#   separates languages best when each concept has one symbol (exercise 3).
#
# No single number captures compositionality; each measure is a test against a particular idea
# of how parts are put together.

# %% [markdown]
# ## How this relates to the paper
#
# The paper proves Proposition 1 and discusses topographic similarity; the numerical check, the
# digit-sum counter-example and the zoo are this book's. Our Δ follows our reading of the
# paper's Definition 2 (App. B), the form for which the proof goes through. Context
# independence follows the co-occurrence definition of {cite:t}`bogin2018emergence`; with it, a
# perfectly compositional language with $k$ attributes (one symbol each) scores $1/k^2$, not 1.
#
# ## Recap
#
# - Tree edit distance compares derivations; topographic similarity correlates it (or any meaning
#   distance) with distances between representations.
# - Low TRE, with a non-expansive composition and bounded representations, bounds representation
#   distances by tree distances plus $2\varepsilon$ (Proposition 1), but does not make them
#   correlate: TRE and topographic similarity measure different things.
# - Each measure has a blind spot: positions (posdis), order (bosdis), operations like negation
#   (TRE handles them only if the composition can), concepts named by several symbols
#   (context independence).
#
# ## Exercises
#
# **1. Break a condition.** Proposition 1 needs every representation it composes within
# distance 1 of every other. Put the primitives on a sphere of radius 4 instead of ½
# (`proposition_check(0.0, radius=4)`). Does the bound still hold?

# %% tags=["hide-cell"]
# Solution code: the check of Proposition 1 with primitives eight times further from the origin.
from myst_nb import glue

epsilon4, delta4, tree4 = proposition_check(0.0, radius=4)
breaking = int((delta4 > tree4 + 2 * epsilon4 + 1e-9).sum())
glue("ex1_epsilon", f"{epsilon4:.4f}", display=False)
glue("ex1_breaking", f"{breaking:,}", display=False)
glue("ex1_pairs", f"{len(delta4):,}", display=False)
glue("ex1_worst", f"{(delta4 - tree4).max():.2f}", display=False)
pd.Series({"ε = max TRE(x)": round(epsilon4, 4), "pairs": len(delta4),
           "pairs breaking the bound": breaking, "largest δ − Δ": round((delta4 - tree4).max(), 3)},
          dtype=object).to_frame("radius 4")

# %% [markdown]
# ```{admonition} Solution
# :class: dropdown
# No. TRE is still (almost) 0 (ε = {glue:text}`ex1_epsilon`), yet {glue:text}`ex1_breaking` of
# the {glue:text}`ex1_pairs` pairs break the bound, and δ exceeds Δ by up to
# {glue:text}`ex1_worst`. Two primitives can now be 8 apart; replacing one of them moves the
# representation of a pair of objects by up to 8 / 4 = 2 (two averagings each halve it), while
# Δ counts that replacement as one edit. The proof's step "each edit moves the representation by
# at most 1" is exactly the condition we broke.
# ```
#
# **2. A distance that sees order?** Compute the topographic similarity of the order-sensitive
# language with `message_distance="edit"` (Levenshtein) instead of Hamming. Edit distance can
# align codes that moved; does that make the order-sensitive language look more compositional?

# %% tags=["hide-cell"]
# Solution code: topographic similarity of the order-sensitive language with both distances.
order = languages.order_sensitive(base)
ex2 = pd.Series({distance: tre.topographic_similarity(order.attributes, order.messages,
                                                      "hamming", distance)
                 for distance in ["hamming", "edit"]}, name="topographic similarity")
glue("ex2_hamming", f"{ex2['hamming']:.3f}", display=False)
glue("ex2_edit", f"{ex2['edit']:.3f}", display=False)
ex2.round(3).to_frame()

# %% [markdown]
# ```{admonition} Solution
# :class: dropdown
# Hardly: topographic similarity is {glue:text}`ex2_edit` with the edit distance against
# {glue:text}`ex2_hamming` with Hamming. Edit distance does align swapped codes, but it also
# shrinks the distances between unrelated messages, so the correlation barely moves. Swapping
# whole codes is not the kind of difference an edit distance of single symbols is built for.
# ```
#
# **3. One symbol per concept.** Build the compositional language with `code_length=1` and
# compute context independence. Predict the value first.

# %% tags=["hide-cell"]
# Solution code: context independence of the compositional language with one symbol per value.
single = languages.compositional(5, 5, code_length=1, seed=0)
ex3 = tre.context_independence(single.attributes, single.messages)
glue("ex3_ci", f"{ex3:.3f}", display=False)
glue("ex3_ci_long", f"{scores.loc['compositional', 'context independence ↑']:.3f}",
     display=False)
round(ex3, 3)

# %% [markdown]
# ```{admonition} Solution
# :class: dropdown
# {glue:text}`ex3_ci`, i.e. $1/k^2$ for $k = 2$ attributes, against
# {glue:text}`ex3_ci_long` with two symbols per value (the zoo's table). Half of the symbols in
# red objects' messages are red's symbol, so $p(v \mid c) = 1/2$; red's symbol co-occurs five
# times with "red" and once with each of the five shapes, so $p(c \mid v) = 5/10 = 1/2$, and
# the measure multiplies the two.
# ```
