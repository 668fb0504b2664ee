# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Claims and verdicts
#
# Every method part of this book tests numbers that a paper published. This page gathers them:
# one row per claim, the published number, ours from the committed runs
# (`results/<experiment>/full.json`, or `gpu.json` where that profile's networks fit better),
# and a verdict. It is generated when the book is built, from `tutorlib.claims`, so it says
# what the committed results say; a chapter tells the story behind each row. A verdict is only
# as strong as the runs behind it, so the first section states the rule that turns runs into
# verdicts, and shows its code.

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

# %% [markdown]
# This page trains nothing: whatever the profile, it reads the committed results.

# %% tags=["remove-stderr"]
import inspect

from IPython.display import Markdown

from tutorlib import claims, fit, profiles, verdicts
from tutorlib.orchard import experiments as orchard_experiments
from tutorlib.pcfgset import corpus as pcfgset_corpus
from tutorlib.pcfgset import experiments as pcfgset_experiments
from tutorlib.plotting import use_book_style

use_book_style()
table = claims.table()
verdict = table["verdict"].str.replace(", partial", "", regex=False)

# %% [markdown]
# ## How a verdict is reached
#
# Ours is a mean over the committed runs (seeds, or replications of a split) with its 95%
# interval in brackets (a t interval over the runs), or a correlation with Fisher's z interval.
# "fit" is the networks' accuracy on their own training data (for ORCHARD the lowest of the
# first and the second tree, on training examples and on validation examples of the training
# depths; for PCFG SET the training pairs), and one rule, the fit gate (`tutorlib.fit`), says
# whether a network learned:

# %% tags=["remove-input"]
bars = ", ".join(
    f"{network} {fit.in_distribution_bar(pcfgset_experiments.published_fraction('task', network)):.2f}"
    for network in pcfgset_experiments.ARCHITECTURE_NAMES)
Markdown(
    f"a network has learned its task when it gets at least {fit.TRAINING:.0%} of its own training "
    f"pairs right and, on in-distribution held-out pairs, at least the paper's own accuracy for "
    f"that architecture minus {100 * fit.MARGIN:g} points, or {fit.IN_DISTRIBUTION:.0%} where the "
    f"paper gives none. For PCFG SET the paper's in-distribution accuracies set that bar "
    f"({bars}: the paper's LSTMS2S reaches 0.79, so a bar of 0.9 would fail the paper's own "
    f"network); ORCHARD's paper gives no such number, so its bar is {fit.IN_DISTRIBUTION:.0%}.")

# %% [markdown]
# Three rules say what the runs support. They are written once, in the verdict engine
# `tutorlib.verdicts`, and every row of every part, ours and the paper's released networks
# alike, goes through them:
#
# 1. **The fit gate holds for every run, not for their mean.** A run that fails the gate is left
#    out; the row reads the runs that pass, and its "runs" column says how many were left out.
#    Where too few pass, the row is *untested: did not fit*.
# 2. **An ordering (A better than B) needs the runs to agree.** Each pair of an ordering is
#    *supported* when the two 95% intervals separate, or, where one run gives both numbers (the
#    length bins of one test set), when A is above B in every run; it is *contradicted* when
#    the same holds the other way round. Means that merely come out in order settle nothing.
# 3. **A level (our number beside the paper's) needs enough runs for an interval.** With fewer,
#    it is *unresolved*, and so is an ordering.

# %% tags=["remove-input"]
Markdown(
    f"The engine's threshold for rules 1 and 3 is {verdicts.MIN_RUNS} runs. A level is then "
    f"judged by the claim's tolerance: {claims.ACCURACY.tolerance:g} points for an accuracy "
    f"(under {claims.RELATIVE_BELOW:g}%, half the published value and at least "
    f"{claims.MIN_POINTS:g} of a point; a published ± widens the band), the same sign and within "
    f"{claims.CORRELATION.tolerance:g} for a correlation (partly: within "
    f"{claims.CORRELATION.partly:g}).")

# %% [markdown]
# The code of rules 2 and 3, as it runs: how a pair of members is settled, how an ordering's
# pairs make its verdict, and the judgment every row gets once the fit gate has been applied.

# %% tags=["remove-input"]
print(inspect.getsource(verdicts.pair_support))
print(inspect.getsource(verdicts.order_verdict))
print(inspect.getsource(verdicts.Claim._judged))

# %% [markdown]
# The verdicts, the whole vocabulary of the tables below:
#
# - **reproduced**: a level lies within the tolerance of the published number, or the published
#   number lies in our interval (when that interval is no wider than twice the band); an
#   ordering has every pair supported by the runs.
# - **partly**: a level whose interval reaches into the band; an ordering with some pairs
#   supported and the others not.
# - **not reproduced**: a level whose interval lies wholly outside the band (a correlation: or
#   of the other sign); an ordering whose runs support none of its pairs and contradict some.
# - **unresolved**: the runs do not settle it: too few runs for an interval, or an ordering whose
#   runs neither support nor contradict any pair. It is neither a success nor a failure.
# - **untested: did not fit**: too few of the runs behind the row pass the fit gate, so the
#   number says how far training got, not whether the paper's claim holds. It is never counted
#   as "not reproduced", and no number of an unfit run is read.
# - **untested: reduced task**: our networks learned a reduction of the paper's task, so a level
#   of theirs is shown beside the paper's but not judged (the reduction changes every level);
#   what the reduction keeps, each test's held-out part, is judged through orderings and gaps.
# - **stand-in: effect shown / partly shown / not shown**: our experiment stands in for the
#   paper's (generated data, another task); the verdict says whether it shows the paper's effect.
# - **not yet run** and **ours: not measured**: no committed run of ours measures it (the
#   second: a finding read from a paper's released networks only).
#
# A verdict marked *partial* rests on fewer committed runs than the full profile plans. Our runs
# are deterministic on one machine and thread count, not across processors, so the intervals,
# not single runs, carry the verdicts.
#
# ## What the rows say
#
# The rows of each part by verdict, counted from the tables below:

# %%
counts = claims.summary(table)
counts.loc[:, counts.sum() > 0]

# %% tags=["remove-input"]
judged = ["reproduced", "partly", "not reproduced"]
on_ours = table[verdict.isin(judged)]
orderings = int(((verdict == "reproduced") & (table["unit"] == "order")).sum())
pcfgset_rows = table[table["part"] == "PCFG SET"]
pcfgset_verdict = verdict[pcfgset_rows.index]
pcfgset_judged = pcfgset_rows[pcfgset_verdict.isin(judged)]
pcfgset_levels = pcfgset_rows[pcfgset_rows["unit"] == "%"]
Markdown(
    f"Of the {len(table)} rows, {len(on_ours)} are judged on networks of ours that learned their "
    f"task: {int((verdict == 'reproduced').sum())} reproduced, {int((verdict == 'partly').sum())} "
    f"partly and {int((verdict == 'not reproduced').sum())} not reproduced; {orderings} of the "
    f"reproduced are orderings, the others numbers set beside the paper's. "
    f"{int((verdict == claims.UNRESOLVED).sum())} rows are unresolved, "
    f"{int((verdict == claims.UNTESTED).sum())} untested because too few of their networks fit, "
    f"{int((verdict == claims.REDUCED).sum())} are levels of networks that learned a reduced "
    f"task, shown and not judged, and {int(verdict.str.startswith('stand-in').sum())} are "
    f"stand-ins, of which {int((verdict == claims.EFFECT['reproduced']).sum())} show the paper's "
    f"effect. What a count of \u201creproduced\u201d means depends on what is judged. Of PCFG "
    f"SET's {len(pcfgset_rows)} rows, {len(pcfgset_judged)} are judged "
    f"({int((pcfgset_judged['unit'] == 'order').sum())} orderings and "
    f"{int((pcfgset_judged['unit'] != 'order').sum())} shares of the findings its text states); "
    f"of its {len(pcfgset_levels)} levels (Table 1's numbers and the peaks), "
    f"{int(pcfgset_verdict[pcfgset_levels.index].isin(judged).sum()) or 'none'} judged.")

# %% [markdown]
# PCFG SET's chapter compares those levels architecture by architecture
# ({doc}`../pcfgset/12_pcfgset_tests`). A count of "reproduced" is only as honest as what it
# counts: an ordering such as "task >
# systematicity > productivity" is easier to reproduce than a level within five points of the
# paper's, and the rows marked "untested" or "unresolved" are claims this book does not settle
# either way. How many claims each part tests on networks that fit, and with a stand-in:

# %%
claims.tested_counts(table)

# %% [markdown]
# ## The table
#
# One table per part. "published": the paper's number (percent correct, a correlation
# coefficient, or an ordering), with the paper's own ± where it gives one; "ours": the mean over
# the runs read with its 95% interval ("every run the same" where all runs gave one value, a
# share of a few items); "fit": the lowest fit of the runs read; "runs": how many runs are read
# of those the full profile plans (for an ordering, the fewest of a member), and how many
# committed runs (of all its members) the fit gate left out;
# "profile": the committed profile read, with how its setting differs from the paper's where it
# does.
#
# ### SCAN
#
# {cite:t}`lake2018generalization`, in {doc}`../scan/03_scan_exp1`,
# {doc}`../scan/04_scan_exp2` and {doc}`../scan/05_scan_exp3`. Table 1's orderings of
# similarities come from one network, as in the paper: one run cannot show that the ordering
# holds across seeds, so they are unresolved.

# %%
claims.formatted(table, part="SCAN")

# %% [markdown]
# ### Tree Reconstruction Error
#
# {cite:t}`andreas2019measuring`, in {doc}`../tre/07_tre_dynamics`,
# {doc}`../tre/08_tre_judgments` and {doc}`../tre/10_tre_generalisation`. A correlation of
# Sec. 7 is computed over the runs whose agents learned their training referents; the others are
# left out by rule 1.

# %%
claims.formatted(table, part="TRE")

# %% [markdown]
# ### PCFG SET
#
# {cite:t}`hupkes2020compositionality`, Table 1 (accuracies and scores in percent) and the
# findings its text states, in {doc}`../pcfgset/12_pcfgset_tests`. Two columns of numbers sit
# beside the published one. **The paper's networks, scored by us**: the outputs of the paper's
# own trained networks, which its authors released (three runs of each architecture), scored by
# this book's scorers, with their own verdict by the same rules. These networks are the paper's,
# so that verdict is not a new test of the paper's claim: it checks our implementation of the
# tests, and it reads findings the paper states in words from its own networks (the rows whose
# verdict for ours reads "ours: not measured"). No fit gate applies to them: they are the
# reference. **Ours**: our own networks, a number for one network read from the committed
# profile whose runs of it fit best, an ordering of several read from one profile for all of
# them.

# %% tags=["remove-input"]
reduction = pcfgset_corpus.REDUCTIONS[profiles.settings("pcfgset", "full").reduction]
unfit = int((verdict[pcfgset_rows.index] == claims.UNTESTED).sum())
used = pcfgset_rows["profile"].value_counts()
Markdown(
    f"The full profile's networks learn a reduced task ({reduction.pairs:,} pairs, inputs of at "
    f"most {reduction.max_functions} functions, outputs of at most {reduction.max_output_length} "
    f"symbols, productivity tested on new inputs of "
    f"{' and '.join(map(str, reduction.productivity_functions))} functions, the symbols folded "
    f"onto {profiles.settings('pcfgset', 'full').alphabet_size}), so their levels are shown and "
    f"not judged, while the orderings and gaps the reduction keeps are judged. The rows read "
    + "; ".join(f"the {p} profile {n} times" for p, n in used.items()) + ". "
    + (f"{unfit} rows are untested because too few of their runs pass the fit gate; the table "
       f"after this one says which." if unfit else
       "Every committed run behind PCFG SET's rows passes the fit gate."))

# %%
claims.formatted(table, part="PCFG SET")

# %%
reasons = claims.untested_reasons(table, part="PCFG SET")
reasons if len(reasons) else None  # shown only where a row is untested

# %% [markdown]
# ### ORCHARD
#
# {cite:t}`pung2021orchard`, in {doc}`../orchard/14_orchard`. The paper trains on depths 3 to 6;
# a row read from a profile that trains on other depths says so in its "profile" column. Two
# levels the paper compares (the LSTM and the Transformer on one variant) are read from one
# profile, and so is every ordering.

# %% tags=["remove-input"]
orchard_rows = table[table["part"] == "ORCHARD"]
training = orchard_experiments.PAPER["training"]
used = orchard_rows["profile"].value_counts()
Markdown(
    "The rows read " + "; ".join(f"the {p} profile {n} times" for p, n in used.items())
    + f". The paper trained its networks for {training['epochs']} epochs, about "
    f"{training['hours']} hours on {training['gpus']} GPUs; the table after this one says, for "
    f"each untested row, the committed pilot that came nearest the fit gate and how long it "
    f"trained.")

# %%
claims.formatted(table, part="ORCHARD")

# %%
claims.untested_reasons(table, part="ORCHARD")

# %% [markdown]
# ### DBCA
#
# {cite:t}`keysers2020measuring`, on SCAN, in {doc}`../dbca/15_dbca` (we have no Universal
# Transformer, the paper's third model):

# %%
claims.formatted(table, part="DBCA")

# %% [markdown]
# ## The runs behind the table
#
# How many runs each experiment's full profile plans, how many are committed, and the command
# that runs (or completes) it. An unresolved row usually needs more runs, not a new method:

# %%
claims.coverage()

# %% [markdown]
# ## Reading the verdicts
#
# - A verdict compares our setting with the paper's, and the settings differ: batched training
#   instead of one example at a time, smaller models, generated data. Each chapter's section on
#   how it relates to the paper says where. The SCAN rows with one-example-at-a-time training are
#   controls that ask whether the training regime explains a gap
#   ({doc}`../scan/03_scan_exp1`, {doc}`../scan/05_scan_exp3`).
# - SCAN's size curve ("about" 5, 54 and 93%) is stated in the text as approximate values; a
#   few points of difference there say little.
# - A correlation that is "partly" reproduced points the same way as the paper's but is weaker:
#   the claim's direction holds, its strength does not ({doc}`../tre/07_tre_dynamics`,
#   {doc}`../tre/10_tre_generalisation`).
# - The {doc}`../glossary` defines the terms the claims use ({term}`split`, {term}`primitive`,
#   {term}`TRE`, {term}`MCD split`, ...).
