# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The report card: the full runs in detail
#
# The appendix of the closing chapter ({doc}`17_card`): every committed full-profile cell of the
# card, each network's recipe and budget, how many seeds passed the fit gate, the seed-by-seed
# values behind the measure rule and the taus, TRE run by run, GECA's coverage of every SCAN
# test set, and every divergence. The chapter reads these runs in summary. Nothing is trained
# here.

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
import pandas as pd
from IPython.display import Markdown, display

from tutorlib import profiles, results
from tutorlib.card import agreement, analysis, geca, report
from tutorlib.card import experiments as exps

pd.set_option("display.max_colwidth", None)  # the tables' names and lists, in full
full = profiles.settings("card", "full")
summary = report.committed_summary("full")
rows = report.committed_rows("full")
table = pd.DataFrame(summary["card"])
seeds = len(full["seeds"])
committed = results.committed("card", "full")
provenance = committed["provenance"] if committed is not None else {}
with pd.option_context("display.max_colwidth", None):
    display(pd.Series({k: provenance.get(k, "—") for k in ("command", "date", "tutorlib_version",
                                                           "git_commit", "cpu_count")}
                      | {"runs committed": summary["runs"], "runs planned": summary["planned"],
                         "runs that need not run": summary["skipped"]},
                      name="results/card/full.json").to_frame())

# %% [markdown]
# ## The networks
#
# Each network's architecture, how it trains differently from the shared recipe, the
# augmentation it trains with, and its training budget on each benchmark (seconds of one core;
# every run stops at its first evaluation that passes the fit gate). The budgets come from a
# pilot of how long each network takes to pass the gate (`benchmarks/card_pilot.py`, its records
# in `results/card/pilot/`).

# %%
with pd.option_context("display.max_colwidth", None):
    display(report.networks_table(full))

# %% [markdown]
# ## Every cell
#
# The card as a table: the mean over seeds (%; TRE as it is), a value in brackets where the
# network did not pass the fit gate on every seed. On the PCFG SET rows, three more columns: the
# paper's own networks ({cite:t}`hupkes2020compositionality`), trained at the paper's scale,
# scored by the card's own prediction scorer from their released outputs. They are a
# reference, not networks of this card: the release holds no training accuracy, so no fit is
# claimed for them and they enter no comparison.

# %%
released = report.released_rows(with_task=full["pcfgset_with_task"] or ())
with pd.option_context("display.max_rows", 200):
    display(report.card_pivot(pd.concat([table, pd.DataFrame(released)], ignore_index=True)))

# %% [markdown]
# Each cell's fit (the lower of the mean training and validation fit, %); a task not fitted on
# every seed says how many seeds passed the gate:

# %%
report.fit_pivot(table, rows)

# %% [markdown]
# How many of each benchmark's tasks each network fitted on every seed, and which tasks keep
# at least four fitted networks (a task is `open` while the sweep has not run all its networks
# and seeds):

# %%
display(report.fit_summary(table))
report.task_coverage(table, full)

# %% [markdown]
# ## The measures, seed by seed
#
# Every measure of generalisation the chapter's rule judged: each network's value (%) on each
# seed, only for networks that passed the gate on every seed, with the rule's reason where it
# dropped the measure.

# %%
measures = report.generalisation_measures(rows)
kept, judged = agreement.measure_rule(rows, measures, seeds=seeds)
frame = pd.DataFrame(rows)
frame["measure"] = [analysis.measure_label(*k) for k in
                    zip(frame["benchmark"], frame["task"], frame["test"], frame["score"])]
for measure, reason in zip(judged["measure"], judged["reason"]):
    values = agreement.network_values(frame, measure, seeds)
    if not values:
        continue
    grid = pd.DataFrame({report.NAMES.get(m, m): 100 * v for m, v in values.items()},
                        index=[f"seed {s}" for s in full["seeds"]]).T
    grid["mean"] = grid.mean(axis=1)
    display(Markdown(f"**{report.short_label(measure)}**: " + (reason or "kept")))
    display(grid.round(1))

# %% [markdown]
# ## Every pair of measures, without the rule
#
# For the audit: tau-b between every two measures of generalisation, as an analysis without the
# rule would read them, with the same bootstrap over networks and seeds. The pairs the rule
# keeps are marked. A pair with a measure on a floor or in distribution has a tau, and often a
# wide interval; neither says how the benchmarks rank networks.

# %%
every = agreement.concurrence(rows, measures, seeds=seeds, resamples=200)
every = every.dropna(subset=["tau"])
every = every.assign(kept=every["a"].isin(kept) & every["b"].isin(kept),
                     a=every["a"].map(report.short_label), b=every["b"].map(report.short_label))
with pd.option_context("display.max_rows", 200):
    display(every.round(2))
report.agreement_by_benchmark(every[every["kept"]]).round(2)

# %% [markdown]
# ## TRE, run by run
#
# Each fitted run on SCAN's commands beyond the training distribution (the runs the chapter's TRE
# analysis reads): its TRE and test accuracy (%) by network, split and seed.

# %%
runs = agreement.generalisation_runs(rows)
with pd.option_context("display.max_rows", 200):
    display(runs.assign(model=runs["model"].map(report.NAMES)).set_index(
        ["model", "benchmark", "task", "seed"]).round(3))

# %% [markdown]
# ## GECA's coverage of every SCAN test set
#
# For each SCAN split and seed, how many of the card's test commands GECA's new training pairs
# contain exactly, as commands, and how many of those with the test's own output.

# %% tags=["remove-stderr"]
augmented = next(iter(full["augment"]))
coverage = []
for config, seed in exps.runs(full):
    if config["model"] == augmented and config["benchmark"] == "scan":
        task = exps.build_task(config)
        new = geca.augment(task.train, seed=seed, exclude=task.validation)
        for pairs in task.tests.values():
            coverage.append({"split": task.name, "seed": seed, "new pairs": len(new),
                             **geca.coverage(new, pairs)})
coverage = pd.DataFrame(coverage).set_index(["split", "seed"])
coverage.round(3)

# %% [markdown]
# ## Every divergence
#
# The atom and compound divergences of every committed test set against its training pairs
# (500 pairs a side), with the mean accuracy of the networks that passed the gate on it (the
# augmented network left out; NaN where fewer than four passed) and whether ORCHARD's test depth
# is one of its training depths.

# %%
plain = table[~table["model"].isin(list(full["augment"]))]
difficulty = report.divergence_accuracy(summary["divergences"], plain)
training = {f"depth {d}" for d in agreement.ORCHARD_TRAINING_DEPTHS}
difficulty["training depth"] = (difficulty["benchmark"] == "orchard") & difficulty["test"].isin(training)
with pd.option_context("display.max_rows", 100):
    display(difficulty.round(3))
