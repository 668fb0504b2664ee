# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Do the measures agree? One report card for every benchmark
#
# **What you will learn**
#
# - how to put any model, the book's networks or one of your own, through SCAN, PCFG SET,
#   ORCHARD, the DBCA dial and TRE under one protocol, with its fit beside every score;
# - whether the benchmarks rank networks the same way (Kendall's tau between rankings, with an
#   interval over seeds);
# - whether the TRE of a network's representations predicts how well it generalises;
# - whether compound divergence, DBCA's measure of a split, predicts difficulty across
#   benchmarks as it does within SCAN.
#
# **What you need first**: the five parts of the book; at least {doc}`../scan/05_scan_exp3`,
# {doc}`../tre/06_tre_intro` and {doc}`../dbca/15_dbca`.

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

# %% tags=["remove-stderr"]
import pandas as pd
from IPython.display import display
import torch
from tqdm import tqdm

from tutorlib import card, fit, profiles
from tutorlib.card import analysis, report
from tutorlib.card import experiments as exps
from tutorlib.facts import glue_facts
from tutorlib.plotting import glue_figure, use_book_style

use_book_style()
settings = profiles.settings("card", PROFILE)
# the card's networks are small: one thread trains them about as fast as two
torch.set_num_threads(1)

# %% [markdown]
# ## One model, every measure
#
# Each part of this book measured compositionality its own way: SCAN by held-out
# combinations, TRE by how well word vectors composed along a derivation rebuild a
# representation, PCFG SET by five tests of one artificial language, ORCHARD by tree depth, DBCA
# by the divergence between a split's compound distributions. Each part also trained its own
# networks with its own budgets. Two questions no single paper answers are left:
#
# 1. Do the benchmarks **agree**? If one network is more compositional than another on SCAN,
#    is it also on PCFG SET, on ORCHARD, on the DBCA dial? {cite:t}`sun2023validity` trained
#    six modelling approaches on 18 compositional splits of four datasets and found that the
#    datasets rank the approaches differently; they call agreement between rankings
#    {term}`concurrence <concurrency>`.
# 2. Does a **representation measure predict behaviour**? {cite:t}`andreas2019measuring`
#    related TRE to generalisation in reference games; does the TRE of a seq2seq encoder's
#    representations of its inputs go with how well the same network generalises?
#
# Answering them needs one model put through every measure under one protocol. That is the
# {term}`report card`: `tutorlib.card`.
#
# ## A model on the card, in a few lines
#
# A card model is anything with two methods. `fit(train, validation, *, seed, max_seconds,
# device)` trains on `(source, target)` string pairs and returns the model's **fit**, its
# exact-match accuracy on its own training pairs and on in-distribution validation pairs (drawn
# like the training pairs, never trained on). `predict(sources)` returns one output string per
# source. An optional `states(sources)` returns one vector per source, for TRE. Here is the
# simplest model there is, a lookup table:

# %%
class Lookup:
    """Answers what it was trained on, and nothing else."""

    def fit(self, train, validation, *, seed, max_seconds, device):
        self.table = dict(train)
        return {"train_accuracy": card.exact_match(self.predict([s for s, _ in train]), train),
                "validation_accuracy": card.exact_match(
                    self.predict([s for s, _ in validation]), validation)}

    def predict(self, sources):
        return [self.table.get(source, "") for source in sources]


simple = card.scan_task("simple", train_size=2000, validation_size=200, test_size=500)
pd.DataFrame(card.run_task(Lookup, simple, seed=0, max_seconds=1, model_name="lookup"))

# %% [markdown]
# The lookup table fits its training pairs perfectly and none of its validation pairs, so the
# card marks it `fitted: False` (its {term}`fit` is too low): it has not learned the task, so
# its test score says nothing about generalisation. A score of a model that did not fit is never a comparison.
# This is the rule the whole book follows, and the card applies it to every cell.
#
# `card.Seq2SeqModel` adapts every network the book trains (the convergence recipe of
# `tutorlib.seq2seq`); the usage page ({doc}`../usage`) wraps a PyTorch module of your own.
# Predictions made with another toolkit can be scored without a model, in each benchmark's
# released file layout: `python -m tutorlib card score scan|pcfgset|orchard ...`.
#
# ## What is on the card
#
# For each network and seed, the card trains a fresh model on each task and scores it on the
# task's test sets:
#
# - **SCAN**: the `simple`, `length`, `addprim_jump`, `addprim_turn_left` and
#   `template_around_right` splits, and our first MCD split.
# - **PCFG SET**: task accuracy, systematicity, productivity, substitutivity (accuracy and the
#   consistency between an input's and its twin's predictions), localism (accuracy and whether
#   the prediction for a whole input equals the one computed step by step) and
#   overgeneralisation (how many of the training exceptions the trained model answers by the
#   rules instead). The full card builds every test on the reduced corpus of the PCFG SET
#   chapter's full profile (inputs of at most three functions, outputs of at most 24 symbols,
#   folded onto 26 symbols; {doc}`../pcfgset/12_pcfgset_tests`), on which small networks can
#   learn the task; the smaller profiles draw samples of the paper's corpus.
# - **ORCHARD**: one variant (the full card's: {glue:text}`orchard_variant`), trained on depths
#   3-6, tested at every depth from 3 to 12 on the first and the second tree.
# - **The DBCA dial**: three splits of SCAN at compound divergence near 0, near 0.4 and as high as
#   the search reaches, atom divergence at most 0.02.
# - **TRE** of every run's encoder: its representations of the task's validation inputs,
#   composed along each input's derivation (a PCFG SET input: its functions over their
#   arguments' symbols; an ORCHARD input: its operators over their numbers).
#
# Every score carries the model's fit and a 95% t interval over seeds. The sizes of this
# profile:

# %%
pd.Series({key: settings[key] for key in (
    "max_seconds", "train_size", "validation_size", "test_size", "orchard_train")}
    | {"networks": len(settings["models"]), "seeds": len(settings["seeds"]),
       "runs": len(exps.runs(settings))}, name=f"{PROFILE} profile", dtype=object).to_frame()

# %% [markdown]
# ## A card, live
#
# The profile's first run, trained now: one network, one task, one seed, its scores beside its
# fit. It trains as the full card's runs do, until its first evaluation that passes the fit
# gate (at most the `max_seconds` above); the committed full card below is the real one.

# %% tags=["remove-stderr"]
live_records = [exps.run_one(config, seed)
                for config, seed in tqdm(exps.runs(settings)[:1], desc="live card")]
live = card.card_table([row for record in live_records for row in record["rows"]])
display(live.round(3).fillna("—"))  # one seed: no interval (low, high)
fit.show_live_fits([fit.live_fit(f"{row['model']} on {row['benchmark']} {row['task']}, seed {record['seed']}",
                                 row["train_accuracy"], row["validation_accuracy"])
                    for record in live_records for row in record["rows"][:1]])

# %% [markdown]
# ## The committed card
#
# The full profile trains {glue:text}`full_networks` networks with {glue:text}`full_seeds`
# seeds each (`python -m tutorlib run card --profile full`, resumable; `--jobs` and `--device`
# as for every experiment; `--only lstm@scan` runs one network's tasks of one benchmark). A card
# compares networks only where they learned, so it is sized to fit first: a pilot measured how
# long each network takes to pass the fit gate on each benchmark (`benchmarks/card_pilot.py`,
# its records in `results/card/pilot/`), and each network gets a budget per benchmark with a
# margin over that (the table below). Every run is evaluated twice an epoch and stops at the first
# evaluation that passes the gate, so a network that learns quickly costs only what it needs.
#
# The networks are the book's five architectures at a width one core trains in that time, the
# Transformer configured as those that make Transformers fit these tasks configure them (small,
# pre-LN, a higher learning rate after a short warm-up, embeddings scaled to the positions';
# {cite:t}`csordas2021devil`), ConvS2S with kernels of 5 and a decaying rate (with kernels of 3
# at a constant rate it did not pass the gate on SCAN in the pilot), and a sixth known to
# generalise better on some of SCAN's splits: the LSTM with attention trained on data augmented
# the way {cite:t}`andreas2020good` proposes. GECA (good-enough compositional data
# augmentation) takes two fragments of training examples that occur in a common environment to
# be interchangeable, and puts each into the other's other environments. Our version,
# `tutorlib.card.geca`, keeps fragments of one input word and the one output token that occurs
# in exactly the same training examples (`jump` and `I_JUMP`): on SCAN's add-jump split,
# `jump -> I_JUMP` shares the empty environment with `walk -> I_WALK`, so `jump` is put into
# every environment of `walk`. Every pair it makes from SCAN's training splits is right by
# SCAN's own interpretation function (a test checks it). It augments the SCAN-based tasks only
# (SCAN and the dial); on the other benchmarks its cells are empty.

# %%
full_settings = profiles.settings("card", "full")
glue_facts({"full_networks": str(len(full_settings["models"])),
            "full_seeds": str(len(full_settings["seeds"])),
            "orchard_variant": ", ".join(full_settings["orchard_variants"])})
report.networks_table(full_settings)

# %% tags=["remove-input"]
summary = report.committed_summary("full")
rows = report.committed_rows("full")
table = pd.DataFrame(summary["card"])
glue_facts(report.card_facts(summary, table))
glue_facts(report.cell_facts(table, full_settings))

# %% [markdown]
# {glue:text}`card_runs_text` {glue:text}`cells_text`

# %% tags=["remove-output"]
if len(table):
    fig = card.plot_card(report.named(table))
else:
    fig = report.empty_figure("no card runs are committed yet")
glue_figure("fig-17-card", fig)

# %% [markdown]
# ```{glue:figure} fig-17-card
# :name: fig-17-card
#
# The committed card: the mean score over seeds (%; TRE as it is) of every network on every
# task, test and score. A hatched cell marked "not fitted" is one whose network did not fit
# its own training or validation data on every seed (below 90% exact match): it is not a
# comparison. {glue:text}`card_fit_text`
# ```

# %% [markdown]
# The same card as a table (a value in brackets: not fitted), and each cell's fit. On the PCFG
# SET rows, three more columns: the paper's own networks ({cite:t}`hupkes2020compositionality`),
# trained at the paper's scale, scored by the card's own prediction scorer from their released
# outputs (`card.report.released_rows`; {doc}`../pcfgset/12_pcfgset_tests` shows them in full).
# They are the reference our networks are measured against, not networks of this card: the
# release holds no training accuracy, so no fit is claimed for them and they enter none of the
# comparisons below. Their overgeneralisation row is the last logged epoch at the card's 0.5%
# exceptions, as the card measures it after training; the release has localism for LSTMS2S only.
# In the fit table (second), a cell whose task was not fitted on every seed says how many
# seeds passed the fit gate: the card counts a cell only when all of them did, so a high mean
# fit can sit beside a bracketed score.

# %%
released = report.released_rows(with_task=full_settings["pcfgset_with_task"] or ())
report.card_pivot(pd.concat([table, pd.DataFrame(released)], ignore_index=True))

# %%
report.fit_pivot(table, rows)

# %% [markdown]
# In short, how many of each benchmark's tasks each network fitted on every seed:

# %%
report.fit_summary(table)

# %% [markdown]
# A task stays on the card when at least {glue:text}`min_networks` networks fitted it on every
# seed: fewer rank nothing worth a tau. The tasks, and why any is dropped (a task is `open`
# while the sweep has not run all its networks and seeds):

# %%
glue_facts({"min_networks": str(report.MIN_NETWORKS)})
report.task_coverage(table, full_settings)

# %% [markdown]
# ## Do the benchmarks agree?
#
# Each measure ranks the networks that fitted its task by their mean score. {term}`Kendall's tau`
# compares two rankings: 1 when they agree on the order of every pair of networks, −1 when they
# reverse every pair, 0 when they agree on as many pairs as they disagree on. Its interval comes
# from a bootstrap over seeds: each resample redraws every network's seeds with replacement, so
# an interval that includes 0 says the two measures' rankings are not told apart from unrelated
# ones at this many seeds.

# %% tags=["remove-output"]
# a network is ranked on a measure once every seed of the profile has run on it
found = report.analyses(rows, min_seeds=len(full_settings["seeds"]))
pairs = found["pairs"]
glue_facts(report.concurrency_facts(pairs))
labels = {m: report.short_label(m) for m in report.generalisation_measures(rows)}
fig = analysis.plot_concurrency(pairs, labels)
glue_figure("fig-17-concurrency", fig)

# %% [markdown]
# ```{glue:figure} fig-17-concurrency
# :name: fig-17-concurrency
#
# Kendall's tau between every two measures' rankings of the networks that fitted both tasks on
# every seed (grey: fewer than {glue:text}`min_networks` such networks, or a ranking of ties
# only); ORCHARD by its second tree at depth 12. {glue:text}`concurrency_text`
# ```
#
# The pairs that could be compared, with their 95% bootstrap intervals (where no pair could,
# the pairs that came nearest, with how many networks fitted both tasks):

# %%
report.pairs_table(pairs).round(2).fillna("—")

# %% [markdown]
# The same pairs grouped by the benchmarks their two measures come from (the dial's MCD point is
# SCAN's `mcd1` split, so it is ranked once, as SCAN's): do the splits of one benchmark rank the
# networks alike more often than two benchmarks do?

# %%
report.agreement_by_benchmark(pairs).round(2)

# %% [markdown]
# Sun et al. found that datasets of the same origin ranked models alike more often than
# datasets built on the same idea of compositionality. On the card, the natural groups are the
# benchmarks themselves: SCAN's splits and the DBCA dial (the same commands) against PCFG SET
# and ORCHARD (other languages). Where a cell has no tau, the networks did not fit both tasks:
# at a CPU's budget the card can compare networks only where they learned.
#
# ## Does TRE predict behaviour?
#
# Every run has a TRE of its own encoder's representations and a test accuracy of the same
# network (ORCHARD's: the second tree at its deepest test depth). Splits differ in difficulty
# far more than networks do, so the two are
# compared *within* each split: a run's TRE and accuracy minus its split's means, pooled over
# splits. What to expect is not obvious. In reference games {cite:t}`andreas2019measuring`
# (Sec. 7, Fig. 5) found that languages with lower TRE had a smaller generalisation gap
# (train minus test reward; r = 0.50 between TRE and the gap) but also a *lower* absolute reward
# (r = 0.57 between TRE and reward): many of the most compositional languages were trivial
# strategies. The card measures absolute test accuracy, so his second finding predicts a
# positive correlation here, if any, and the common hope that compositional representations
# generalise better predicts a negative one.

# %% tags=["remove-output"]
glue_facts(report.tre_facts(found["tre"]))
fig = report.plot_tre_behaviour(found["points"])
glue_figure("fig-17-tre", fig)

# %% [markdown]
# ```{glue:figure} fig-17-tre
# :name: fig-17-tre
#
# Each fitted run: its TRE against its test accuracy, both minus the means of its split, one
# colour per network. {glue:text}`tre_text`
# ```
#
# TRE here measures how nearly the encoder's mean state for a command is a sum of one vector per
# word arranged along the derivation. That is one notion of compositional representation among
# several, and it is computed on validation commands the network handles; a network can
# represent commands compositionally and still fail to decode a new combination, which is what
# the accuracy measures.
#
# ## One measure of difficulty for every benchmark
#
# DBCA measures a split by the divergence between its training and test distributions of atoms
# and of compounds. Nothing in the measure is specific to SCAN: any example built by rules can
# be read as a tree. Below, SCAN's commands are read by SCAN's grammar, PCFG SET's inputs as
# trees of functions (a string argument is one leaf), ORCHARD's inputs as trees of operators (a
# number is one leaf). Every split is measured on samples of the same size (the divergences
# depend on it: a smaller sample sees fewer of the training compounds).

# %% tags=["remove-output"]
# each split once: the dial's MCD point is SCAN's mcd1 split
difficulty = report.distinct_splits(report.divergence_accuracy(summary["divergences"], table))
glue_facts(report.divergence_facts(difficulty))
glue_facts(report.divergence_scale_facts(summary["divergences"]))
if len(difficulty):
    fig = report.plot_divergence_accuracy(difficulty)
else:
    fig = report.empty_figure("no divergences are committed yet")
glue_figure("fig-17-divergence", fig)

# %% [markdown]
# ```{glue:figure} fig-17-divergence
# :name: fig-17-divergence
#
# The mean test accuracy of the networks that fitted each split, against the split's compound
# divergence; hollow markers at the bottom: fewer than {glue:text}`min_networks` networks
# fitted, so the split is off the card. {glue:text}`divergence_text`
# ```

# %%
difficulty.round(3).astype(object).where(difficulty.notna(), "—")

# %% [markdown]
# Read the scale before the scatter. At the same sample size, a random split of PCFG SET
# already has a compound divergence of {glue:text}`div_pcfgset_random`, against
# {glue:text}`div_scan_random` for SCAN's random split and {glue:text}`div_scan_mcd` for its MCD
# split: PCFG SET's functions combine in so many ways that a sample of inputs sees only a few of
# its compounds, whichever way it is split. D_C ranks splits *of one dataset*; across datasets it
# also measures how rich each dataset's compounds are. ORCHARD's test sets go from
# {glue:text}`div_orchard_low` at depth 3 to {glue:text}`div_orchard_high` at depth 12: its deep
# trees are built from the same small compounds as the shallow ones (an operator over an operator
# over a number), and compounds of up to five nodes see little of depth. Compound divergence also
# counts only which compounds occur, not how long the output is, which is what the `length`
# split changes.
#
# ## What the card can and cannot say
#
# - The card is one protocol for every network: the same samples, the same fit gate, each
#   network's budget on a benchmark sized by the same pilot. That makes its cells comparable
#   with each other, not with the papers' numbers, which
#   came from larger networks trained far longer. No paper has run this card, so it has no
#   published column to set beside it: each paper's own figures are set beside ours in its
#   chapter and on the {doc}`claims page <../backmatter/16_claims>`, and the one published
#   finding the card speaks to is {cite:t}`sun2023validity`'s, that benchmarks disagree.
# - The networks are small and their budgets minutes of one core: the fit summary above says
#   which networks learned which benchmarks' tasks in them, and the PCFG SET and ORCHARD rows are
#   reduced tasks, not the papers'. Cells that did not fit are shown and marked, and they enter
#   no ranking. With a GPU, `--device cuda` and a longer budget fill more of them.
# - Three seeds give wide intervals on tau: with six networks, one swapped pair moves tau by
#   0.13.
#
# ## Recap
#
# - A card model needs `fit` (returning its fit) and `predict`; `states` adds TRE. Any
#   predictions in a benchmark's released layout can be scored too.
# - Every score carries the model's fit; a model that did not fit its own in-distribution data
#   is not compared.
# - Concurrence is measured with Kendall's tau between measures' rankings, with a bootstrap over
#   seeds; TRE is compared with behaviour within splits; compound divergence is put on every
#   benchmark's splits.
#
# ## Exercises
#
# **1. Your own model.** Write a card model that answers every SCAN command with the actions of
# its first word alone (`jump` → `I_JUMP`, and so on), and put it on the `simple` task above.
# Predict its fit and its test accuracy before you run it.

# %% tags=["hide-cell"]
# Solution: it is right only for one-word commands (jump, walk, run, look: 4 of 20,910), so its
# fit and its accuracy are close to 0 and the card marks it not fitted.
class FirstWord(Lookup):
    ACTIONS = {"jump": "I_JUMP", "walk": "I_WALK", "run": "I_RUN", "look": "I_LOOK"}

    def fit(self, train, validation, *, seed, max_seconds, device):
        return {"train_accuracy": card.exact_match(self.predict([s for s, _ in train]), train),
                "validation_accuracy": card.exact_match(
                    self.predict([s for s, _ in validation]), validation)}

    def predict(self, sources):
        return [self.ACTIONS.get(source.split()[0], "") for source in sources]


pd.DataFrame(card.run_task(FirstWord, simple, seed=0, max_seconds=1, model_name="first word"))

# %% [markdown]
# **2. How much does one seed move tau?** With six networks, how many values can Kendall's tau
# take, and by how much does it change when two neighbouring networks swap places in one
# ranking? Check with `tutorlib.stats.kendall_tau`.

# %% tags=["hide-cell"]
# Solution: 6 networks make 6 x 5 / 2 = 15 pairs. Without ties tau = (concordant - discordant)
# / 15, and the concordant pairs can number 0 to 15, so tau takes 16 values, from -1 to 1 in
# steps of 2/15 = 0.13; one swapped neighbouring pair turns one concordant pair discordant.
from tutorlib.stats import kendall_tau

import itertools

order = [1, 2, 3, 4, 5, 6]
values = sorted({round(kendall_tau(order, list(p)), 6) for p in itertools.permutations(order)})
print(f"Over all {len(list(itertools.permutations(order)))} rankings of six networks, tau takes "
      f"{len(values)} values, from {values[0]:g} to {values[-1]:g}.")
pd.Series({"same ranking": kendall_tau(order, order),
           "one neighbouring swap": kendall_tau(order, [2, 1, 3, 4, 5, 6]),
           "reversed": kendall_tau(order, order[::-1])}, name="tau").to_frame()

# %% [markdown]
# **3. Divergence of a split of your own.** Hold out of PCFG SET's training sample every input
# in which `swap_first_last` is applied to the output of `repeat`, and measure the atom and
# compound divergence of that split with `analysis.split_divergences`. Is it a DBCA split (atom
# divergence at most 0.02)?

# %% tags=["hide-cell"]
# Solution: the held-out inputs use only known functions in a new combination, so compound
# divergence rises above the random split's at the same sample size. Whether the atoms stay
# within DBCA's bound depends on the sample: the last column says.
task = card.pcfgset_task("pcfgset", train_size=2000, validation_size=100, test_size=500)
pairs_all = task.train + task.tests["pcfgset"]
held = [p for p in pairs_all if "swap_first_last repeat" in p[0]]
kept = [p for p in pairs_all if "swap_first_last repeat" not in p[0]]
mine = card.Task("pcfgset", "swap over repeat", kept[:2000], task.validation, {"held out": held})
measured = analysis.split_divergences([task, mine], sample=len(held))
measured.assign(**{"DBCA split (D_A <= 0.02)": measured["atom divergence"] <= 0.02}).round(3)
