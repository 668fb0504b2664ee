# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Compositionality and human judgments
#
# **What you will learn**
#
# - how TRE scores single items, here two-word compounds such as *ivory tower* or *snail mail*,
#   by how well the vectors of their words add up to the compound's own vector;
# - how {cite:t}`andreas2019measuring` compared these scores with people's judgments of how
#   compositional each compound is, and why we cannot rerun that offline;
# - a {term}`stand-in` in which the truth is known: a generated corpus with compounds whose
#   compositionality is *planted*, word vectors trained on it (CBOW), and the rank correlation
#   between TRE and the planted values;
# - how to run the same analysis on the real vectors and ratings if you have them.
#
# **What you need first**: {doc}`06_tre_intro`; the idea of word embeddings (a word's vector
# reflects the contexts it occurs in).

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
import numpy as np
import pandas as pd

from tutorlib import profiles, stats
from tutorlib.tre import corpora, judgments, wordvec
from tutorlib.plotting import glue_figure, use_book_style

use_book_style()
settings = profiles.settings("tre_judgments", PROFILE)
pd.Series(dict(settings.items()), name=f"{PROFILE} profile").to_frame()

# %% [markdown]
# ## The paper's study
#
# Some compounds mean what their parts mean (*application form*), others do not (*ivory tower*
# is neither ivory nor a tower). {cite:t}`reddy2011empirical` asked people to rate, for 90 noun
# compounds, how literal each is, on a scale from 0 to 5. {cite:t}`andreas2019measuring` trained
# word vectors on the Gigaword newswire corpus with each compound joined into one token
# (`ivory_tower`), so that the compound gets a vector of its own, learned from its own contexts.
# For each compound, TRE with the additive composition and the cosine distance measures how far
# the sum of its words' vectors is from its own vector. Compounds that people judge less
# compositional should have higher TRE: the paper found Spearman's $\rho = -0.34$ between TRE
# and the human ratings.
#
# Neither Gigaword nor the ratings can be downloaded here. So we build a world in which the
# answer is known, and check that the method recovers it.
#
# ## A corpus with planted compositionality
#
# `corpora.make_corpus` writes sentences about *topics*. Every content word belongs to a topic
# and is surrounded by that topic's context words. A compound of two words has a planted
# compositionality $c$ between 0 and 1: a fraction $c$ of its neighbours come from its two words'
# contexts, the rest from an unrelated *idiomatic* topic. At $c = 1$ the compound is used like
# its parts; at $c = 0$ it is an idiom. Words and compounds are made-up syllables.

# %% tags=["remove-stderr"]
def corpus_for(seed):
    return corpora.make_corpus(corpora.CorpusConfig(
        num_topics=settings["num_topics"], num_bigrams=settings["num_bigrams"],
        sentences_per_word=settings["sentences_per_word"],
        sentences_per_bigram=settings["sentences_per_bigram"], seed=seed))


corpus = corpus_for(settings["corpus_seeds"][0])
pd.DataFrame([{"compound": b.token, "planted compositionality c": round(b.compositionality, 3)}
              for b in corpus.bigrams[:6]])

# %%
pd.DataFrame({"tokens": [corpus.num_tokens], "word types": [len(corpus.vocab)],
              "sentences": [len(corpus.sentences)], "compounds": [len(corpus.bigrams)]})

# %% [markdown]
# A sentence about the first compound (its token is somewhere among its neighbours):

# %%
print(corpus.text(int(np.flatnonzero((corpus.sentences == corpus.index[corpus.bigrams[0].token])
                                      .any(axis=1))[0])))

# %% [markdown]
# ## Word vectors
#
# `wordvec.train_cbow` trains CBOW word2vec {cite:p}`mikolov2013efficient`: predict each word
# from the words around it, with negative sampling. Training is cached, so running the chapter
# again takes seconds.

# %% tags=["remove-stderr"]
def vectors_for(corpus):
    return wordvec.train_cbow(corpus, wordvec.CBOWConfig(epochs=settings["epochs"]), progress=True)


vectors = vectors_for(corpus)
pd.DataFrame({"epoch": np.arange(1, len(vectors.losses) + 1), "training loss": vectors.losses})

# %% [markdown]
# ## TRE of every compound
#
# The inputs are the compounds' words, each a primitive with its own vector, and the compounds,
# with derivation `(word1, word2)` and the vector of their token. TRE (additive, cosine) learns
# one vector per word that has to serve both as the word and as a part of its compounds, so a
# compound whose contexts are unrelated to its words' cannot be rebuilt:
# `judgments.compound_tre` returns TRE(x) for every compound.

# %%
data = judgments.compound_vectors(vectors, corpus.bigrams)
compound_scores = pd.DataFrame({
    "compound": ["_".join(c) for c in data.compounds],
    "planted c": data.compositionality,
    "TRE": judgments.compound_tre(data, steps=settings["steps"]),
})
rho = stats.spearman(compound_scores["TRE"], compound_scores["planted c"])
compound_scores.sort_values("TRE").round(3).head(8)

# %% tags=["remove-output"]
fig, ax = plt.subplots(figsize=(7, 3.8))
ax.scatter(compound_scores["planted c"], compound_scores["TRE"], s=18)
ax.set(xlabel="planted compositionality c", ylabel="TRE(compound) (cosine)",
       title=f"TRE against planted compositionality (ρ = {rho:.2f})")
glue_figure("fig-08-tre-vs-planted", fig)

# %% [markdown]
# ```{glue:figure} fig-08-tre-vs-planted
# :name: fig-08-tre-vs-planted
#
# One point per compound of the corpus: its planted compositionality $c$ (0: an
# idiom, used in unrelated contexts; 1: used like its two words) against its TRE, the cosine
# distance between its own vector and the best sum of its words' vectors. The title gives
# Spearman's rank correlation. The points fall from upper left to lower right: the more
# compositional the compound, the better its words' vectors rebuild it.
# ```
#
# The rank correlation is negative, as in the paper: the more compositional the compound, the
# better its words' vectors add up to its own. Our planted values are exact, while human ratings
# are noisy and the real vectors come from a corpus that mixes many senses, so we expect a
# stronger correlation than the paper's. Over the profile's corpora (one at `tutorial`, five in
# the full profile):

# %% tags=["remove-stderr"]
# one run of the tre_judgments sweep per corpus (judgments.run_one; the vectors are cached)
rows = [{"corpus seed": run["seed"], "compounds": run["compounds"],
         "Spearman ρ(TRE, c)": run["rho"],
         "ρ(cos(word1 + word2, compound), c)": run["rho cosine to sum"]}
        for run in (judgments.run_one(config, seed) for config, seed in judgments.runs(settings))]
rows.append({"corpus seed": "published (Gigaword, human ratings)", "compounds": 90,
             "Spearman ρ(TRE, c)": judgments.PAPER["spearman rho(TRE, ratings)"], "ρ(cos(word1 + word2, compound), c)": None})
pd.DataFrame(rows).round(3)

# %% [markdown]
# The last column is a simpler score, the cosine between the compound's vector and the plain sum
# of its words' vectors (no fitting). It correlates positively (high cosine, compositional), and
# about as strongly: with so few compounds per word, the fitted word vectors stay close to the
# trained ones, and TRE then mostly measures the same thing.
#
# ## With the real data
#
# If you have word vectors in the word2vec text format (with compounds joined by `_`) and the
# ratings of {cite:t}`reddy2011empirical` (`MeanAndDeviations.clean.txt`), the same three steps
# run on them: `wordvec.read_vec`, `judgments.read_compound_ratings`, `judgments.compound_vectors`,
# then `judgments.compound_tre`. Here we write our own vectors and planted values in those
# two formats and read them back, to show the calls:

# %%
import tempfile
from pathlib import Path

with tempfile.TemporaryDirectory() as folder:
    vec_path = wordvec.write_vec(Path(folder) / "vectors.vec", vectors)
    ratings_path = Path(folder) / "MeanAndDeviations.clean.txt"
    lines = ["#word\tWord1_mean Word1_std Word2_mean Word2_std Cpd_mean Cpd_std mean1*mean2"]
    for bigram in corpus.bigrams:  # ratings on the 0-5 scale: 5 c for every column
        score = 5 * bigram.compositionality
        lines.append(f"{bigram.word1}-n {bigram.word2}-n\t{score:.2f} 0.0 {score:.2f} 0.0 "
                     f"{score:.2f} 0.0 {score * score:.2f}")
    ratings_path.write_text("\n".join(lines) + "\n")
    ratings = judgments.read_compound_ratings(ratings_path)
    real = judgments.compound_vectors(wordvec.read_vec(vec_path), ratings)
per_compound = judgments.compound_tre(real, steps=settings["steps"])
print(f"{len(real)} compounds read back; Spearman ρ(TRE, rating) = "
      f"{stats.spearman(per_compound, real.compositionality):.3f}")

# %% [markdown]
# ## How this relates to the paper
#
# - **Data.** The paper used Gigaword vectors and the human ratings of
#   {cite:t}`reddy2011empirical`; we use a generated corpus with planted compositionality, so the
#   numbers test the method, not the claim about people. Our correlation is much stronger than the
#   paper's −0.34, as expected from exact planted values.
# - **Fit.** We fit word vectors jointly for the words and their compounds (words are inputs of
#   their own). Our corpus has about one compound per word; in a real corpus a word appears in
#   many compounds, which constrains its fitted vector more.
#
# ## Recap
#
# - TRE(x) scores single items: here, how far a compound's vector is from the sum of its words'.
# - On a corpus where compositionality is planted, TRE ranks compounds by it (negative Spearman
#   correlation), as the paper found against human judgments.
# - The loaders run the same analysis on real vectors and ratings.
#
# ## Exercises
#
# **1. Separate topics.** `CorpusConfig(topic_spread=0.0)` makes topics share no contexts at
# all. Predict what happens to the correlation, then measure it on one corpus.

# %% tags=["hide-cell", "remove-stderr"]
# Solution code: the same corpus settings with topics that share no contexts, new CBOW vectors,
# and TRE of every compound.
from myst_nb import glue

separate = corpora.make_corpus(corpora.CorpusConfig(
    num_topics=settings["num_topics"], num_bigrams=settings["num_bigrams"],
    sentences_per_word=settings["sentences_per_word"],
    sentences_per_bigram=settings["sentences_per_bigram"], seed=settings["corpus_seeds"][0],
    topic_spread=0.0))
separate_vectors = vectors_for(separate)
separate_data = judgments.compound_vectors(separate_vectors, separate.bigrams)
separate_rho = stats.spearman(judgments.compound_tre(separate_data, steps=settings["steps"]),
                              separate_data.compositionality)
ex1 = pd.DataFrame({
    "Spearman ρ(TRE, c)": [rho, separate_rho],
    "ρ(cos(word1 + word2, compound), c)": [
        stats.spearman(judgments.cosine_to_sum(d), d.compositionality)
        for d in (data, separate_data)],
    "final CBOW training loss": [vectors.losses[-1], separate_vectors.losses[-1]],
}, index=["topics share contexts (the chapter)", "topic_spread=0.0"])
glue("ex1_rho", f"{rho:.2f}", display=False)
glue("ex1_separate_rho", f"{separate_rho:.2f}", display=False)
glue("ex1_weaker", "weaker" if abs(separate_rho) < abs(rho) else "not weaker", display=False)
glue("ex1_loss", f"{vectors.losses[-1]:.2f}", display=False)
glue("ex1_separate_loss", f"{separate_vectors.losses[-1]:.2f}", display=False)
ex1.round(3)

# %% [markdown]
# ```{admonition} Solution
# :class: dropdown
# The correlation is {glue:text}`ex1_weaker`: Spearman's ρ is {glue:text}`ex1_separate_rho` with
# separate topics, against {glue:text}`ex1_rho` in the chapter's corpus. With no shared contexts,
# word2vec cannot place a compound "partly" near its words: any idiomatic share of its contexts
# already moves it far from them, so compounds of very different $c$ end up about equally far
# from their words. The new vectors had the same training as the chapter's (the profile's
# epochs) and fit their corpus at least as well (final CBOW training loss
# {glue:text}`ex1_separate_loss` against {glue:text}`ex1_loss`: separate topics make contexts
# easier to predict), so the difference lies in the corpus, not in the training.
# ```
#
# **2. Another distance.** Compute TRE with `distance="l2"` instead of the cosine. Does the
# correlation change? Why might the paper have chosen the cosine for word vectors?

# %% tags=["hide-cell"]
# Solution code: TRE of every compound with the L2 distance, on the chapter's vectors.
l2_rho = stats.spearman(judgments.compound_tre(data, steps=settings["steps"], distance="l2"),
                        data.compositionality)
glue("ex2_l2_rho", f"{l2_rho:.2f}", display=False)
glue("ex2_weaker", "weaker" if abs(l2_rho) < abs(rho) else "not weaker", display=False)
pd.Series({"cosine": rho, "L2": l2_rho}, name="Spearman ρ(TRE, c)").round(3).to_frame()

# %% [markdown]
# ```{admonition} Solution
# :class: dropdown
# With L2 the correlation is {glue:text}`ex2_weaker`: ρ = {glue:text}`ex2_l2_rho` against
# {glue:text}`ex1_rho` with the cosine. word2vec vectors differ in length with word frequency,
# and compounds are rarer than their words, so L2 mixes how often a word occurs into how far a
# compound is from its words; the cosine compares directions only, which is where word2vec
# puts meaning.
# ```
