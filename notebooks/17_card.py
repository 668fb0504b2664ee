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
# - which measures can rank networks at all, and whether those that can rank them alike
#   (Kendall's tau-b, with an interval over networks and seeds);
# - whether the TRE of a network's representations goes with how well it generalises, within
#   one network and across networks;
# - whether compound divergence, DBCA's measure of a split, predicts difficulty within each
#   benchmark, and why it is not compared across benchmarks.
#
# **What you need first**: the five parts of the book; at least {doc}`../scan/05_scan_exp3`,
# {doc}`../tre/06_tre_intro` and {doc}`../dbca/15_dbca`. The per-network and per-seed tables
# behind this chapter are in its appendix, {doc}`17_card_full_runs`.

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
import inspect

import pandas as pd
import torch
from IPython.display import Markdown, display
from tqdm import tqdm

from tutorlib import card, fit, profiles
from tutorlib.card import agreement, analysis, geca, report
from tutorlib.card import experiments as exps
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
# A third follows from DBCA: does compound divergence measure how hard a split is? Answering
# them needs one model put through every measure under one protocol. That is the
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
# card marks it `fitted: False`: it has not learned the task, so its test score says nothing
# about generalisation. This is the rule the whole book follows, and the card applies it to
# every cell: a score of a network that did not fit is shown, marked, and never compared.
#
# `card.Seq2SeqModel` adapts every network the book trains (the convergence recipe of
# `tutorlib.seq2seq`); the usage page ({doc}`../usage`) wraps a PyTorch module of your own.
# Predictions made with another toolkit can be scored without a model, in each benchmark's
# released file layout: `python -m tutorlib card score scan|pcfgset|orchard ...`.
#
# ## What is on the card
#
# For each network and seed, the card trains a fresh model on each task and scores it on the
# task's test sets: SCAN's `simple`, `length`, `addprim_jump`, `addprim_turn_left`,
# `template_around_right` and our first MCD split; PCFG SET's tests on the reduced corpus of
# {doc}`../pcfgset/12_pcfgset_tests`; one ORCHARD variant trained on depths 3-6 and tested at
# depths 3 to 12; the DBCA dial's splits of SCAN at compound divergence near 0, near 0.4 and as
# high as the search reaches; and the TRE of every run's encoder on its task's validation
# inputs. The sizes of this profile:

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
# gate (at most the `max_seconds` above).

# %% tags=["remove-stderr"]
live_records = [exps.run_one(config, seed)
                for config, seed in tqdm(exps.runs(settings)[:1], desc="live card")]
live = card.card_table([row for record in live_records for row in record["rows"]])
live_fits = [fit.live_fit(f"{row['model']} on {row['benchmark']} {row['task']}, seed {record['seed']}",
                          row["train_accuracy"], row["validation_accuracy"])
             for record in live_records for row in record["rows"][:1]]
fit.show_live_fits(live_fits)
if all(row["passes"] for row in live_fits):
    display(live.round(3).fillna("—"))  # one seed: no interval (low, high)
else:
    display(Markdown("It does not pass the fit gate in this profile's budget, so this page reads "
                     "no score of it; the committed runs below carry the card."))

# %% [markdown]
# ## The committed card
#
# The full profile (`python -m tutorlib run card --profile full`, resumable) trains the book's
# five architectures at a width one core trains in minutes, and a sixth known to generalise
# better on some of SCAN's splits: the LSTM with attention trained on data augmented the way
# {cite:t}`andreas2020good` proposes. GECA (good-enough compositional data augmentation) takes
# two fragments of training examples that occur in a common environment to be interchangeable
# and puts each into the other's other environments; ours (`tutorlib.card.geca`) swaps one input
# word and its one output token (`jump` and `I_JUMP`), on the SCAN-based tasks only. Each network
# has a budget per benchmark sized by a pilot, and every run stops at the first evaluation that
# passes the gate. The networks, their recipes and budgets, and every cell as a table are in
# {doc}`17_card_full_runs`.

# %% tags=["remove-output"]
full_settings = profiles.settings("card", "full")
summary = report.committed_summary("full")
rows = report.committed_rows("full")
table = pd.DataFrame(summary["card"])
seeds = len(full_settings["seeds"])
# the dial's MCD point is SCAN's mcd1 split (the same pairs, the same runs): shown once
shown = report.distinct_tasks(table)
fig = card.plot_card(report.named(shown)) if len(shown) else report.empty_figure(
    "no card runs are committed yet")
glue_figure("fig-17-card", fig)

# %% tags=["remove-input"]
per_cell = table.groupby(["model", "benchmark", "task"])["fitted"].all() if len(table) else pd.Series(dtype=bool)
Markdown(f"{summary['runs']} of the full profile's {summary['planned']} runs are committed "
         f"({summary['skipped']} more need not run: a later seed of a cell whose first seed did "
         f"not pass the gate), {len(full_settings['models'])} networks at {seeds} seeds. "
         f"{int(per_cell.sum())} of the {len(per_cell)} cells (a network on a task) passed the "
         f"fit gate on every seed; only those are read below.")

# %% [markdown]
# ```{glue:figure} fig-17-card
# :name: fig-17-card
#
# The committed card: the mean score over seeds (%; TRE as it is) of every network on every
# task, test and score, the dial's MCD point shown once, as SCAN's `mcd1`. A hatched cell
# marked "not fitted" is one whose network did not pass the fit gate on every seed: it is not
# a comparison.
# ```
#
# ## Which measures can rank the networks?
#
# A ranking is only as good as the measure's power to tell the networks apart. Two things
# make a measure on this card rank nothing. On an **in-distribution** test set (SCAN's random
# split, the dial's D_C 0 point, PCFG SET's own test set) every run stops at the first
# evaluation that passes the fit gate, at about 90%, so the order of the networks says where
# each run happened to stop. And on a **floor**, where most networks score 0, the ranking is
# of one network against a block of ties. What is left must separate the networks by more than
# their seeds do. The rule, written once in `tutorlib.card.agreement`:

# %%
print("\n".join(f"{name} = {getattr(agreement, name)!r}" for name in
                ("MIN_NETWORKS", "TIE", "MAX_TIES", "SETTLED_SHARE")))
source = inspect.getsource(agreement.measure_rule)
print(source[source.index("    _check_seeds"):])

# %% [markdown]
# A pair of networks is *settled* by the book's ordering rule, the one the claims page uses
# ({doc}`../backmatter/16_claims`): their 95% intervals over seeds separate, or one is above the
# other on every seed. The rule applied to every measure of generalisation on the card:

# %%
measures = report.generalisation_measures(rows)
kept, judged = agreement.measure_rule(rows, measures, seeds=seeds)
judged.assign(measure=judged["measure"].map(report.short_label)).set_index("measure")[
    ["networks", "ties", "settled", "pairs", "reason"]]

# %% tags=["remove-input"]
dropped = judged[~judged["kept"]]
few = dropped[dropped["reason"].str.contains("fewer than")]
counts = {"in distribution": int(dropped["reason"].str.startswith("in distribution").sum()),
          f"with fewer than {agreement.MIN_NETWORKS} fitted networks (on "
          + ", ".join(sorted({report.BENCHMARKS[m.split()[0]] for m in few["measure"]})) + ")":
          len(few),
          f"with more than {agreement.MAX_TIES} tie": int(dropped["reason"].str.contains("tied").sum()),
          "whose seeds settle too few pairs": int(dropped["reason"].str.startswith("the seeds").sum())}
Markdown(f"Of the {len(judged)} measures, {len(kept)} can rank the networks: "
         + ", ".join(f"`{report.short_label(m)}`" for m in kept) + ". The rule drops "
         + "; ".join(f"{n} {what}" for what, n in counts.items() if n) + ".")

# %% [markdown]
# ## Do the benchmarks agree?
#
# {term}`Kendall's tau <Kendall's tau>` compares two rankings: 1 when they agree on the order of
# every pair of networks, −1 when they reverse every pair. Its tau-b form
# (`scipy.stats.kendalltau`, which `tutorlib.stats.kendall_tau` calls) leaves tied pairs out
# of the count. A card has few networks, and another choice of networks could move tau as much
# as another choice of seeds, so the interval comes from a bootstrap over both:

# %%
print(inspect.getsource(agreement._bootstrap_taus))

# %% tags=["remove-output"]
pairs = agreement.concurrence(rows, kept, seeds=seeds)
fig = analysis.plot_concurrency(pairs, {m: report.short_label(m) for m in kept})
glue_figure("fig-17-concurrency", fig)

# %% [markdown]
# ```{glue:figure} fig-17-concurrency
# :name: fig-17-concurrency
#
# Kendall's tau-b between every two kept measures' rankings of the networks that passed the
# fit gate on both tasks on every seed; ORCHARD by its second tree at depth 12.
# ```
#
# Each pair with its 95% interval, how many networks are behind it, and whether the interval
# lies above 0, below 0, or includes it (`unresolved`):

# %%
pairs.assign(a=pairs["a"].map(report.short_label), b=pairs["b"].map(report.short_label)).round(2)

# %% tags=["remove-input"]
verdicts = pairs["verdict"].value_counts()
settled_pairs = int(verdicts.get("above 0", 0) + verdicts.get("below 0", 0))
answer_agree = ("the card cannot tell" if settled_pairs == 0 else
                "they disagree" if verdicts.get("below 0", 0) > verdicts.get("above 0", 0)
                else "they agree" if not verdicts.get("below 0", 0) else "it depends on the pair")
Markdown(
    f"**Answer 1: {answer_agree}.** Of the {len(pairs)} pairs of kept measures, "
    f"{int(verdicts.get('above 0', 0))} have an interval above 0, "
    f"{int(verdicts.get('below 0', 0))} below 0 and "
    f"{int(verdicts.get(agreement.UNRESOLVED, 0))} include 0; the taus run from "
    f"{pairs['tau'].min():.2f} to {pairs['tau'].max():.2f}, on "
    f"{pairs['networks'].min()} to {pairs['networks'].max()} networks. "
    f"The intervals are {(pairs['high'] - pairs['low']).median():.2f} wide at the median (tau "
    f"runs from -1 to 1): redrawing a handful of networks moves tau far, so "
    + ("no pair's ranking is told apart from an unrelated one. " if settled_pairs == 0 else
       f"only {settled_pairs} pairs are told apart from unrelated rankings. ")
    + ("Sun et al.'s finding that benchmarks rank approaches differently is neither confirmed "
       "nor contradicted here." if settled_pairs == 0 else
       "Set these beside Sun et al.'s finding that benchmarks rank approaches differently."))

# %% [markdown]
# ## GECA on the MCD split
#
# One network stands out on the card: GECA's LSTM with attention scores far above the others on
# SCAN's MCD split. GECA builds its new pairs from training pairs only, but a new pair could
# still be a test command. How many of the MCD test commands are among the new pairs GECA adds at
# each seed, exactly, as commands? (The appendix measures the same for every SCAN split.)

# %% tags=["remove-stderr"]
mcd_config = next(config for config, seed in exps.runs(full_settings)
                  if config["model"] == "lstm_attention_geca" and config["task"] == "mcd1")
mcd_task = exps.build_task(mcd_config)
coverage = pd.DataFrame({seed: geca.coverage(geca.augment(mcd_task.train, seed=seed,
                                                          exclude=mcd_task.validation),
                                             mcd_task.tests["mcd1"])
                         for seed in full_settings["seeds"]}).T.rename_axis("seed")
coverage

# %% tags=["remove-input"]
mcd_scores = table[(table["benchmark"] == "scan") & (table["task"] == "mcd1") & table["fitted"]]
geca_mcd = float(mcd_scores.loc[mcd_scores["model"] == "lstm_attention_geca", "mean"].iloc[0])
others = mcd_scores[mcd_scores["model"] != "lstm_attention_geca"]["mean"]
share = float(coverage["share"].max())
Markdown(
    f"At most {int(coverage['contained'].max())} of the {int(coverage['commands'].max())} test "
    f"commands ({share:.1%}) are among GECA's new pairs at any seed, while it scores "
    f"{geca_mcd:.0f}% against {others.min():.0f}-{others.max():.0f}% for the others. "
    + ("So its score on MCD is not recall of the test set: nearly every test command is new to it "
       "too, and what in the new pairs lifts it is not measured here." if share < 0.05 else
       "A large share of the test set is in its training data: its score is partly recall."))

# %% [markdown]
# ## Does TRE predict behaviour?
#
# Every run has a TRE of its own encoder's representations and a test accuracy of the same
# network. Runs of one network are not independent points, and the card's six networks are six,
# not hundreds, so the two are compared two ways, on SCAN's commands (SCAN's splits and the dial,
# whose TRE shares one input language) beyond the training distribution: within each network,
# over its splits and seeds, and across networks, one point per network. In reference games
# {cite:t}`andreas2019measuring` (Sec. 7) found that lower TRE went with a smaller
# generalisation gap but also with a lower absolute reward; the common hope that compositional
# representations generalise better predicts a negative correlation between TRE and accuracy.
# Within each network (Fisher's interval over its runs):

# %%
runs = agreement.generalisation_runs(rows)
within = agreement.tre_within_networks(runs)
within.assign(model=within["model"].map(report.NAMES)).set_index("model").round(2)

# %% tags=["remove-output"]
augmented = list(full_settings["augment"])
per_network, across = agreement.tre_across_networks(runs)
_, across_plain = agreement.tre_across_networks(runs, exclude=augmented)
glue_figure("fig-17-tre", report.plot_tre_networks(runs, per_network))

# %% [markdown]
# ```{glue:figure} fig-17-tre
# :name: fig-17-tre
#
# Each fitted run on SCAN's commands beyond the training distribution: its TRE against its test
# accuracy (small), one colour per network, and each network's mean over the splits all networks
# fitted (large): the points the correlation across networks counts.
# ```
#
# The augmented network is a built-in control: the same architecture as the LSTM with attention,
# trained on other data. Split by split, each one's mean TRE and accuracy:

# %%
control = agreement.geca_control(runs, "lstm_attention", augmented[0])
control.round(3)

# %% tags=["remove-input"]
within_verdicts = within["verdict"].value_counts()
split_means = runs.groupby(["model", "task"])["tre"].mean()
within_range = float(split_means.groupby(level="model").agg(lambda v: v.max() - v.min()).max())
across_range = float(per_network["tre"].max() - per_network["tre"].min())


def interval(summary):
    return (f"r = {summary['r']:.2f} [{summary['low']:.2f}, {summary['high']:.2f}] over "
            f"{summary['points']} networks")


answer_tre = ("no, not on this card" if agreement.sign_verdict(across["low"], across["high"])
              == agreement.UNRESOLVED and within_verdicts.get("below 0", 0) == 0
              else "in part")
Markdown(
    f"**Answer 2: {answer_tre}.** Within a network, the interval of r includes 0 for "
    f"{int(within_verdicts.get(agreement.UNRESOLVED, 0))} of the {len(within)} networks "
    f"(below 0 for {int(within_verdicts.get('below 0', 0))}, above for "
    f"{int(within_verdicts.get('above 0', 0))}). Across networks, {interval(across)}; without "
    f"the augmented network, {interval(across_plain)}. A network's mean TRE moves by at most "
    f"{within_range:.3f} from one split to another, while the networks' means span "
    f"{across_range:.3f}. The control says what TRE follows: "
    f"GECA's TRE "
    f"differs from its own architecture's by at most {control['TRE difference'].abs().max():.3f} "
    f"on any split while its accuracy is up to {control['accuracy difference'].max():.0f} points "
    f"higher. TRE measures how the encoder represents commands it handles, not whether the "
    f"network composes new ones.")

# %% [markdown]
# ## Does compound divergence measure difficulty?
#
# DBCA measures a split by the divergence between its training and test distributions of
# compounds. Nothing in the measure is specific to SCAN: PCFG SET's inputs can be read as trees
# of functions, ORCHARD's as trees of operators (`analysis.split_divergences`). Each benchmark
# is compared with itself: each test set once, with the mean accuracy of the networks that
# passed the gate on it (at least four; the augmented network left out, since it trains on other
# pairs than the split's, so the split's divergence is not its divergence), ORCHARD's training
# depths left out:

# %%
plain = table[~table["model"].isin(augmented)]
difficulty = report.distinct_splits(report.divergence_accuracy(summary["divergences"], plain))
training = [f"depth {d}" for d in agreement.ORCHARD_TRAINING_DEPTHS]
difficulty = difficulty[~((difficulty["benchmark"] == "orchard")
                          & difficulty["test"].isin(training))]
by_benchmark = agreement.divergence_within(difficulty)
by_benchmark.set_index("benchmark").round(2)

# %% tags=["remove-output"]
glue_figure("fig-17-divergence", report.plot_divergence_accuracy(difficulty))

# %% [markdown]
# ```{glue:figure} fig-17-divergence
# :name: fig-17-divergence
#
# The mean test accuracy of the networks that passed the gate on each test set, against its
# compound divergence; hollow markers at the bottom: fewer than four networks passed, so the
# test set is off the card. ORCHARD's points are the depths beyond its training depths.
# ```

# %% tags=["remove-input"]
indexed = by_benchmark.set_index("benchmark")
divergences = pd.DataFrame(summary["divergences"])


def d_c(benchmark, test):
    return float(divergences.loc[(divergences["benchmark"] == benchmark)
                                 & (divergences["test"] == test), "compound divergence"].iloc[0])


scan_row, orchard_row = indexed.loc["SCAN (with the dial)"], indexed.loc["ORCHARD"]
scan_points = difficulty[difficulty["benchmark"].isin(agreement.SCAN_COMMANDS)].dropna(
    subset=["accuracy"])
most_divergent = scan_points.loc[scan_points["compound divergence"].idxmax(), "test"]
hardest = scan_points.loc[scan_points["accuracy"].idxmin(), "test"]
mismatch = (f"The most divergent split, `{most_divergent}`, is not the hardest, `{hardest}`. "
            if most_divergent != hardest else "")
Markdown(
    "**Answer 3: within a benchmark, "
    + ("yes" if scan_row["verdict"] == "below 0" else "not settled on SCAN") + ".** "
    f"Over SCAN's {int(scan_row['splits'])} splits (with the dial's), r = {scan_row['r']:.2f} "
    f"[{scan_row['low']:.2f}, {scan_row['high']:.2f}]"
    + (": the interval includes 0. " if scan_row["verdict"] == agreement.UNRESOLVED else ". ")
    + mismatch
    + f"On ORCHARD, r = {orchard_row['r']:.2f} [{orchard_row['low']:.2f}, "
    f"{orchard_row['high']:.2f}] over {int(orchard_row['splits'])} test depths, but those are "
    f"depth bins of one split: divergence and difficulty both grow with depth. PCFG SET has "
    f"{int(indexed.loc['PCFG SET', 'splits'])} test sets with enough fitted networks. Across "
    f"benchmarks the card does not correlate them at all: a random split of PCFG SET already has "
    f"D_C = {d_c('pcfgset', 'pcfgset'):.2f}, against {d_c('scan', 'simple'):.2f} for SCAN's "
    f"random split, because its functions combine in so many ways that a sample sees few of "
    f"its compounds. Across datasets, D_C also measures how rich each dataset's compounds are.")

# %% [markdown]
# ## What the card can and cannot say
#
# {cite:t}`sun2023validity` found that benchmarks built on the same idea of compositionality
# rank modelling approaches differently. The card was built to test that on the book's own
# benchmarks.

# %% tags=["remove-input"]
Markdown(
    f"Its answer is limited by what it has: {len(judged) - len(kept)} of its {len(judged)} "
    f"measures cannot rank its networks (in distribution, on a floor, or with too few networks "
    f"fitted), and the {len(kept)} that can rank them do it over {pairs['networks'].min()} to "
    f"{pairs['networks'].max()} networks, where an interval that counts networks is wide. More "
    f"networks that fit most tasks, and PCFG SET's tests with enough of them fitted, are what "
    f"would make its rankings mean something. The card is one protocol for every network (the "
    f"same samples, the same fit gate, budgets sized by one pilot), so its cells are comparable "
    f"with each other, not with the papers' numbers, which came from larger networks trained "
    f"far longer.")

# %% [markdown]
# ## Recap
#
# - A card model needs `fit` (returning its fit) and `predict`; `states` adds TRE. Any
#   predictions in a benchmark's released layout can be scored too.
# - A measure ranks networks only where it separates them: not in distribution, not on a floor,
#   with the seeds settling most pairs. Tau-b's interval must count networks as well as seeds.
# - TRE is compared with accuracy within a network and across networks, one point each; an
#   augmented network beside its own architecture is the control.
# - Compound divergence ranks splits of one dataset; across datasets its scale is the
#   dataset's.
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
# **2. What ties do to tau.** Six networks, four of them at 0% on a split and the other two at
# 40% and 90%; on another measure, any ranking. What is tau-b at most, and why did the rule
# drop such a measure? Check with `tutorlib.stats.kendall_tau`.

# %% tags=["hide-cell"]
# Solution: the four tied networks make 6 of the 15 pairs ties in the first ranking; tau-b leaves
# them out of the numerator, so even a second ranking that agrees on every untied pair has
# tau-b = 9 / sqrt(9 x 15) = 0.77, and its value rests on how the floor network compares with
# two others, not on a ranking of six.
import itertools

from tutorlib.stats import kendall_tau

floor = [0.0, 0.0, 0.0, 0.0, 0.4, 0.9]
best = max(kendall_tau(floor, list(p)) for p in itertools.permutations(range(6)))
pd.Series({"largest tau-b against any ranking": best,
           "9 / sqrt(9 x 15)": 9 / (9 * 15) ** 0.5}, name="tau-b").to_frame()

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
kept_pairs = [p for p in pairs_all if "swap_first_last repeat" not in p[0]]
mine = card.Task("pcfgset", "swap over repeat", kept_pairs[:2000], task.validation, {"held out": held})
measured = analysis.split_divergences([task, mine], sample=len(held))
measured.assign(**{"DBCA split (D_A <= 0.02)": measured["atom divergence"] <= 0.02}).round(3)
