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
# Every method part of this book tests numbers that a paper published. This page gathers them in
# one table: each claim, the published number, ours from the committed runs
# (`results/<experiment>/full.json`, or `gpu.json` where that profile's networks fit better),
# and a verdict. It is generated when the book is built,
# from `tutorlib.claims`, so it always says what the committed results say; a chapter tells the
# story behind each row.

# %% tags=["parameters"]
PROFILE = "tutorial"

# %% [markdown]
# This page trains nothing: whatever the profile, it reads the committed results.

# %% tags=["remove-stderr"]
from myst_nb import glue

from tutorlib import claims
from tutorlib.pcfgset import report as pcfgset_report
from tutorlib.plotting import use_book_style

use_book_style()
table = claims.table()

# %% [markdown]
# ## How a verdict is reached
#
# - **reproduced**: for an accuracy, ours lies {glue:text}`claims_accuracy_reproduced` points
#   or less from the published number; for a correlation, it has the same sign and lies within
#   {glue:text}`claims_correlation_reproduced`.
# - **partly**: an accuracy within {glue:text}`claims_accuracy_partly` points; a correlation of
#   the same sign but further away.
# - **not reproduced**: further still, or a correlation of the opposite sign.
# - **untested**: the networks behind our number did not learn their own training data (they
#   get fewer than {glue:text}`claims_fit_threshold` of their training pairs right), so the
#   number says how far training got, not whether the paper's claim holds; the claim waits for
#   networks that fit. Today this applies to PCFG SET and ORCHARD, whose runs record their fit
#   (ORCHARD's: the first and the second tree, on training examples and on validation examples
#   of the training depths).
# - **stand-in**: our experiment stands in for the paper's (generated data instead of data we
#   cannot download, another task), so the numbers stand side by side but do not test the claim.
# - **not yet run**: the full-profile runs for it are not committed yet.
#
# A verdict marked *partial* rests on fewer runs than the full profile plans (the column
# "runs" says how many). Ours is the mean over the committed runs (seeds, or replications of a
# split); a verdict compares means and says nothing about the spread over seeds, which the
# chapters show.

# %% tags=["remove-input"]
glue("claims_accuracy_reproduced", f"{claims.ACCURACY.reproduced:g}", display=False)
glue("claims_accuracy_partly", f"{claims.ACCURACY.partly:g}", display=False)
glue("claims_correlation_reproduced", f"{claims.CORRELATION.reproduced:g}", display=False)
glue("claims_fit_threshold", f"{pcfgset_report.FIT_THRESHOLD:.0%}", display=False)

# %% [markdown]
# ## The table
#
# One table per part. "published": the paper's number (percent correct, or a correlation
# coefficient); "ours": the mean over our committed full-profile runs; "runs": how many of the
# runs the full profile plans are committed.
#
# ### SCAN
#
# {cite:t}`lake2018generalization`, in {doc}`../scan/03_scan_exp1`,
# {doc}`../scan/04_scan_exp2` and {doc}`../scan/05_scan_exp3`:

# %%
claims.formatted(table, part="SCAN")

# %% [markdown]
# ### Tree Reconstruction Error
#
# {cite:t}`andreas2019measuring`, in {doc}`../tre/07_tre_dynamics`,
# {doc}`../tre/08_tre_judgments` and {doc}`../tre/10_tre_generalisation`:

# %%
claims.formatted(table, part="TRE")

# %% [markdown]
# ### PCFG SET
#
# {cite:t}`hupkes2020compositionality`, Table 1 (accuracies and scores in percent), in
# {doc}`../pcfgset/12_pcfgset_tests`. Each number is read from the committed profile whose
# networks fit their training data best ({glue:text}`claims_pcfgset_profiles`); the chapter
# shows both profiles, with every network's fit.

# %%
claims.formatted(table, part="PCFG SET")

# %% tags=["remove-input"]
pcfgset_rows = table[table["part"] == "PCFG SET"]
glue("claims_pcfgset_profiles",
     "; ".join(f"{profile}: {count} numbers" for profile, count in
               pcfgset_rows["profile"].value_counts().items()) or "none committed",
     display=False)

# %% [markdown]
# ### ORCHARD
#
# {cite:t}`pung2021orchard`, in {doc}`../orchard/14_orchard`, each read from the committed
# profile whose networks fit best ({glue:text}`claims_orchard_profiles`):

# %%
claims.formatted(table, part="ORCHARD")

# %% tags=["remove-input"]
orchard_rows = table[table["part"] == "ORCHARD"]
glue("claims_orchard_profiles",
     "; ".join(f"{profile}: {count} numbers" for profile, count in
               orchard_rows["profile"].value_counts().items()) or "none committed",
     display=False)

# %% [markdown]
# ### DBCA
#
# {cite:t}`keysers2020measuring`, on SCAN, in {doc}`../dbca/15_dbca` (we have no Universal
# Transformer, the paper's third model):

# %%
claims.formatted(table, part="DBCA")

# %% [markdown]
# ## In numbers

# %%
counts = claims.summary(table)
counts

# %% tags=["remove-input"]
run = table[table["verdict"] != "not yet run"]
glue("claims_total", f"{len(table)}", display=False)
glue("claims_run", f"{int((~run['verdict'].isin(['stand-in', 'untested'])).sum())}",
     display=False)
for verdict in claims.VERDICTS:
    glue(f"claims_{verdict.replace(' ', '_').replace('-', '_')}",
         f"{int(counts.loc['all parts', verdict])}", display=False)

# %% [markdown]
# Of the {glue:text}`claims_total` published numbers, {glue:text}`claims_run` are tested against
# committed runs: {glue:text}`claims_reproduced` reproduced, {glue:text}`claims_partly` partly
# and {glue:text}`claims_not_reproduced` not. {glue:text}`claims_untested` are untested: our
# networks did not learn their training data. {glue:text}`claims_stand_in` are compared with a
# stand-in, and {glue:text}`claims_not_yet_run` wait for their full-profile runs.
#
# ## What is not yet run
#
# Each experiment's full profile runs from the command line, resumably (see {doc}`../usage`);
# its committed results turn the "not yet run" rows above into verdicts the next time the book
# is built.

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
# - Several published numbers were read off the papers' figures (SCAN's size curve and composed
#   jump curve); a few points of difference there are within the reading error.
# - A correlation that is "partly" reproduced points the same way as the paper's but is weaker:
#   the claim's direction holds, its strength does not ({doc}`../tre/07_tre_dynamics`,
#   {doc}`../tre/10_tre_generalisation`).
# - The {doc}`../glossary` defines the terms the claims use ({term}`split`, {term}`primitive`,
#   {term}`TRE`, {term}`MCD split`, ...).
