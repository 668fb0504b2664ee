# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Compositionality and generalisation
#
# **What you will learn**
#
# - how two neural agents invent a language in a *reference game*: a speaker describes a pair
#   of objects in four symbols, a listener must say which objects they were;
# - how to measure how compositional the invented language is with TRE, using the derivations of
#   the objects and a composition that can move symbols between positions;
# - whether more compositional languages generalise better to objects never seen in training,
#   the question of {cite:t}`andreas2019measuring`, Sec. 7, and how TRE compares with
#   topographic similarity, posdis and bosdis as a predictor.
#
# **What you need first**: {doc}`06_tre_intro` and {doc}`09_tre_similarity`; the idea of a
# policy gradient (REINFORCE) helps but is explained briefly.

# %% tags=["parameters"]
PROFILE = "tutorial"

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from IPython.display import display

from tutorlib import profiles
from tutorlib.tre import generalisation, refgame
from tutorlib.plotting import use_book_style

use_book_style()
settings = profiles.settings("tre_generalisation", PROFILE)
pd.DataFrame([settings]).T.rename(columns={0: f"{PROFILE} profile"})

# %% [markdown]
# ## The game
#
# A *referent* is a pair of objects, each a colour and a shape, e.g. a red circle and a blue
# star. Its derivation is `((red circle) (blue star))`. The speaker, a GRU, reads the referent
# and writes a message of 4 symbols from a vocabulary of 16; the listener, another GRU, reads the
# message and guesses the four attributes. Their reward is the fraction of attributes guessed
# right. The speaker's symbols are sampled, so its gradient is estimated with REINFORCE
# {cite:p}`williams1992simple`: the log-probability of each message is pushed up in proportion to
# how much better than usual (a running-average baseline) its reward was. The listener learns by
# ordinary cross-entropy. One third of the referents are held out of training.

# %%
config = generalisation.game_config(settings, seed=0)
train_index, test_index = refgame.split_referents(config)
pd.DataFrame({"referents": [config.num_referents], "training": [len(train_index)],
              "held out": [len(test_index)], "message length": [config.message_length],
              "vocabulary": [config.vocab_size], "steps": [config.steps],
              "batch": [config.batch_size]})

# %% tags=["remove-stderr"]
game = refgame.train_game(config, progress=True)
fig, ax = plt.subplots(figsize=(7, 3.2))
ax.plot(game.history, lw=1)
ax.axhline(1 / 5, color="0.5", ls="--", lw=1, label="chance (1 of 5 values)")
ax.set(xlabel="training step", ylabel="mean reward of the batch",
       title="Figure 1. The agents learn to communicate (sampled messages)")
ax.legend()
plt.show()

# %% [markdown]
# With greedy decoding (the most probable symbol at each position), the reward on training and
# held-out referents:

# %%
pd.DataFrame({"training reward": [game.train_reward], "held-out reward": [game.test_reward],
              "generalisation gap": [game.gap]}).round(3)

# %% [markdown]
# ## What the language looks like
#
# Messages for a few referents (symbols written as letters). Is the colour of the first object
# always in the same place? Is `circle` always the same symbol?

# %%
letters = generalisation.LETTERS
sample = [i for i, (first, second) in enumerate(game.derivations)
          if first[0] == "red" and second[1] == "star"][:8]
pd.DataFrame({"referent": [f"{a[0]} {a[1]} + {b[0]} {b[1]}" for a, b in
                           (game.derivations[i] for i in sample)],
              "message": ["".join(letters[s] for s in game.messages[i]) for i in sample],
              "held out": game.heldout[sample]})

# %% [markdown]
# `generalisation.measure_language` scores the language: TRE with the linear composition
# $A\theta + B\theta'$ and the L1 distance on one-hot messages, as in the paper (the linear
# composition can learn that the second object's symbols go to later positions; its parameters
# start afresh for every language), and the other measures of {doc}`09_tre_similarity`.

# %%
pd.Series(generalisation.measure_language(game, settings["tre_steps"])).round(3).to_frame(
    "this language")

# %% [markdown]
# ## Many languages: does TRE predict generalisation?
#
# Every seed gives a different language. The profile's runs (a handful at `tutorial`; the
# committed `paper` results below have {glue:text}`tre_generalisation_committed_runs`) each record
# the rewards, the gap and the measures:

# %% tags=["remove-stderr"]
live = pd.DataFrame([generalisation.generalisation_run(settings, seed)
                     for seed in range(settings["runs"])]).drop(columns="messages")
live["held-out error"] = 1 - live["test reward"]
live[["seed", "train reward", "test reward", "gap", "TRE", "topsim", "posdis", "bosdis"]].round(3)


# %%
def correlation_table(runs):
    """Pearson r of each measure with the gap and with the held-out error."""
    measures = ["TRE", "topsim", "posdis", "bosdis", "context independence"]
    return pd.DataFrame({
        "r with generalisation gap": [runs[m].corr(runs["gap"]) for m in measures],
        "r with held-out error": [runs[m].corr(runs["held-out error"]) for m in measures],
    }, index=measures)


correlation_table(live).round(2)

# %% [markdown]
# Several languages may sit at TRE = 4 exactly. That is a ceiling of TRE with the L1 distance on
# one-hot messages: the best L1 fit of each entry is a median, so a primitive's entry for a symbol
# at a position stays 0 unless that symbol appears there in most of the inputs the primitive
# takes part in. A language in which no primitive fixes any symbol is rebuilt as all zeros, at
# L1 distance 4 (one per symbol) from every message.
#
# A few runs give noisy correlations. The paper's profile has
# {glue:text}`tre_generalisation_paper_runs`.
#
# ## The paper profile: 100 languages
#
# `python -m tutorlib run tre_generalisation --profile paper` trains the profile's runs, saving each as it
# finishes, and commits them to `results/tre_generalisation/`. The paper reports, over its 100 runs, Pearson
# $r = 0.50$ between TRE and the generalisation gap and $r = 0.57$ between TRE and absolute
# performance on held-out referents, and concludes that more compositional languages (lower TRE)
# generalise better, though the relation is far from deterministic. We report TRE against the
# gap and against the held-out *error* (1 − reward), so that for both a positive $r$ means that
# more compositional languages generalise better.

# %%
committed = generalisation.committed_runs("paper")
if len(committed):
    committed["held-out error"] = 1 - committed["test reward"]
    planned = profiles.settings("tre_generalisation", "paper")["runs"]
    print(f"{len(committed)} of the paper profile's {planned} runs are committed in "
          "results/tre_generalisation/paper.json")
else:
    print("No committed paper-profile runs yet: run `python -m tutorlib run tre_generalisation --profile paper`.")

# %% tags=["remove-input"]
# The counts the text states, glued into it (myst-nb) at build time
from myst_nb import glue

glue("tre_generalisation_committed_runs", f"{len(committed):,}", display=False)
glue("tre_generalisation_paper_runs",
     f"{profiles.settings('tre_generalisation', 'paper')['runs']:,}", display=False)

# %%
if len(committed):
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
    for ax, column in zip(axes, ["gap", "held-out error"]):
        r = committed["TRE"].corr(committed[column])
        ax.scatter(committed["TRE"], committed[column], s=14)
        ax.set(xlabel="TRE (L1, linear composition)", ylabel=column, title=f"r = {r:.2f}")
    fig.suptitle(f"Figure 2. TRE against generalisation over {len(committed)} reference games")
    plt.show()

# %%
if len(committed):
    table = correlation_table(committed)
    table["paper"] = [0.50, None, None, None, None]
    table.loc["TRE", "paper (held-out)"] = 0.57
    display(table.round(2))

# %% [markdown]
# The last rows go beyond the paper: on the same runs, how well do the other measures predict
# generalisation? For the measures where *higher* is more compositional (topographic similarity,
# posdis, bosdis, context independence), a *negative* $r$ means that more compositional languages
# generalise better.
#
# ## Two languages with the same reward
#
# The paper's Figure 6 shows two languages that reach similar rewards but differ in TRE (4.30
# against 2.96), and whose generalisation differs accordingly. We pick, among the committed runs,
# the pair with training rewards within 0.01 of each other and the largest difference in TRE:

# %%
def mine_pair(runs, tolerance=0.01):
    best = None
    for i in range(len(runs)):
        for j in range(len(runs)):
            a, b = runs.iloc[i], runs.iloc[j]
            if abs(a["train reward"] - b["train reward"]) <= tolerance and a["TRE"] > b["TRE"]:
                if best is None or a["TRE"] - b["TRE"] > best[0]["TRE"] - best[1]["TRE"]:
                    best = (a, b)
    return best


pair = mine_pair(committed) if len(committed) > 1 else None
if pair is not None:
    display(pd.DataFrame([pair[0], pair[1]], index=["higher TRE", "lower TRE"])[
        ["seed", "train reward", "test reward", "gap", "TRE", "topsim", "posdis"]].round(3))
    referents = refgame.referents(config)
    shown = [i for i, (first, second) in enumerate(referents)
             if first == ("red", "circle") and second[0] in ("red", "blue")][:6]
    display(pd.DataFrame({
        "referent": [f"{a[0]} {a[1]} + {b[0]} {b[1]}" for a, b in (referents[i] for i in shown)],
        "higher-TRE language": [pair[0]["messages"][i] for i in shown],
        "lower-TRE language": [pair[1]["messages"][i] for i in shown]}))
else:
    print("No two committed runs have training rewards within 0.01 of each other yet.")

# %% [markdown]
# ## How this relates to the paper
#
# - **Setting.** As in the paper: two objects with two attributes each, speaker and listener GRUs
#   with 256-unit embeddings and states, 16 symbols, messages of length 4, REINFORCE with a
#   running-average baseline, Adam at 0.001, batches of 256, 500 steps, sampled messages in
#   training and greedy decoding in evaluation, partial credit, a third of the referents held out,
#   TRE with the linear composition and L1. Where we could not check the paper's choices, we chose
#   (documented in `tutorlib.tre.refgame`): 5 colours × 5 shapes (625 referents), reward = fraction of
#   the four attributes right, a listener trained by cross-entropy, an entropy bonus of 0.01 on
#   the speaker (without it the speaker often stopped exploring early), and one held-out split
#   shared by all runs so that their gaps compare.
# - **Numbers.** Compare the correlation table above with the paper's 0.50 and 0.57; the pair of
#   languages above plays the role of the paper's Figure 6.
#
# ## Recap
#
# - A reference game produces languages whose compositionality is not designed in; derivations
#   of the referents let TRE measure it.
# - Across many runs, TRE can be correlated with how well each language generalises to held-out
#   referents; the relation the paper reports is moderate, and the other measures can be put to the
#   same test on the same runs.
#
# ## Exercises
#
# **1. The additive composition.** Write down a perfectly compositional language for this game:
# the message of `((c1 s1) (c2 s2))` is `c1, 5 + s1, c2, 5 + s2` (colour symbols 0–4, shape
# symbols 5–9, the same for both objects). Predict its TRE with the linear and with the additive
# composition, then compute both.

# %% tags=["hide-cell"]
# Solution: linear ~0, additive clearly above 0. The additive composition must put the first and
# the second object's symbols in different positions with the same primitive vectors; only the
# linear composition's A and B can move an object's symbols to where its place in the pair says.
from tutorlib import tre

table = refgame.attributes(config)
perfect = np.eye(config.vocab_size)[table + np.array([0, 5, 0, 5])]
pd.Series({composition: tre.tre(perfect, refgame.referents(config), composition, "l1",
                                steps=settings["tre_steps"]).value
           for composition in ["linear", "additive"]}).round(3)

# %% [markdown]
# **2. A smaller channel.** Train a game with `vocab_size=5` (`refgame.GameConfig(...)`, other
# settings as above). Predict the effect on reward and on TRE.

# %% tags=["hide-cell", "remove-stderr"]
# Solution: with 5 symbols and 4 positions there is exactly enough room for one symbol per
# attribute value, so the agents are pushed towards a positional code; the reward may be lower
# after 500 steps.
small = refgame.train_game(refgame.GameConfig(vocab_size=5, hidden=settings["hidden"],
                                              steps=settings["game_steps"], seed=0,
                                              split_seed=settings["split_seed"]))
pd.Series({"training reward": small.train_reward, "held-out reward": small.test_reward,
           **generalisation.measure_language(small, settings["tre_steps"])}).round(3)
