# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # TRE: the full runs in detail
#
# The appendix of the TRE part: the committed full-profile runs behind chapters
# {doc}`06_tre_intro` to {doc}`10_tre_generalisation`, seed by seed, what produced them, and the
# comparisons and checks that would interrupt a lecture. The chapters read these runs in summary;
# the claims page ({doc}`../backmatter/16_claims`) gives the verdicts. Nothing is trained here.

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

# %% [markdown]
# ## Chapter 6: TRE from scratch
#
# <!-- section 06: owned by chapter 06's edits; its cells go between this marker and the next -->

# %% [markdown]
# ### How `tutorlib.tre` fits Eq. (2)
#
# The paper's objective ({eq}`tre-fit` in {doc}`06_tre_intro`) does not say how to minimise
# it. `tutorlib.tre` uses full-batch Adam on the mean distance (learning rate 0.01, decayed
# linearly to 1% over the steps, gradient norm clipped at 1), with the primitives starting at
# zero as in the paper. The decay matters for the L1 distance, which has a kink at its
# minimum: at a constant rate Adam keeps stepping across it. The clipping matters for the
# cosine distance, whose gradient is huge next to a zero vector: unclipped, that first
# gradient fills Adam's second-moment estimate and stalls the fit for hundreds of steps.
#
# The solver evaluates all derivations level by level as batched tensors. The benchmark
# `benchmarks/tre_speed.py` compares it with a recursive, one-call-per-node evaluation of the
# paper's Eq. 1 on 1,000 derivations; `benchmarks/README.md` gives the times and the
# difference between the two TREs.
#
# (tre-two-protocols)=
# ### Two protocols: the minimum, and the paper's released code
#
# Every TRE in this book is the minimum {eq}`tre-fit` defines, found by the optimiser above
# (`protocol="converged"`, the default). The paper's released code fits it differently:
# RMSprop at a constant rate of 0.01 on the *summed* distance, no clipping, and it reports the
# errors as they stood before its last update. `tre.tre(..., protocol="release")` reproduces
# that loop (`tests/test_tre.py` checks it against per-input values from running the release).
# The two agree on what TRE is, not on its value: where the release's optimisation stops short
# of the minimum, its numbers sit above it, by an amount that depends on the language. On an
# exactly additive language with the cosine distance, where the minimum is 0:

# %%
import numpy as np

from tutorlib import tre

rng = np.random.default_rng(0)
parts = {name: rng.normal(size=8) for name in ["red", "blue", "green", "circle", "star", "square"]}
additive_derivations = [(c, s) for c in ["red", "blue", "green"] for s in ["circle", "star", "square"]]
additive_codes = np.stack([parts[c] + parts[s] for c, s in additive_derivations])
protocol_steps = (100, 1000)
protocol_table = pd.DataFrame({
    protocol: {steps: tre.tre(additive_codes, additive_derivations, "additive", "cosine",
                              steps=steps, protocol=protocol).value
               for steps in protocol_steps}
    for protocol in ("converged", "release")})
protocol_table.index.name = "steps"
display(protocol_table.round(4) + 0.0)  # + 0.0: no "-0.0"
release = protocol_table["release"]
converged_last = protocol_table.loc[protocol_steps[-1], "converged"]
Markdown(f"After {protocol_steps[-1]:,} steps the converged solver reports "
         + ("0 to within 1e-6" if abs(converged_last) < 1e-6 else f"{converged_last:.2g}")
         + "; the release's protocol reports "
         f"{release.iloc[-1]:.3f}, against {release.iloc[0]:.3f} after {protocol_steps[0]} steps"
         + (": it has stopped moving long before the minimum. "
            if abs(release.iloc[-1] - release.iloc[0]) < 0.01 else ". ")
         + "Numbers from the two protocols are therefore not on one scale, and the paper's are the "
           "release's. The reference-game languages of chapter 10 are measured both ways in its "
           "section below.")

# %% [markdown]
# ## Chapter 7: Learning dynamics
#
# <!-- section 07: owned by chapter 07's edits; its cells go between this marker and the next -->
#
# Two sets of concept-learner runs are committed: the full profile (the paper's setting as its
# released notebook trains it, 20 epochs of 100 batches) and eight earlier, longer runs of 60
# passes over the training triplets. Neither passes the fit gate (chapter 7 says why), so what
# follows *describes* these runs; no verdict rests on it, and the claims page marks the
# Section 4 rows untested.
#
# ### What produced them

# %% tags=["remove-input"]
from tutorlib.tre import dynamics
from tutorlib.tre import report as tre_report

dynamics_sets = {"full profile": dynamics.committed_results("full"),
                 "long runs": dynamics.committed_results("full", long=True)}
dynamics_sets = {name: found for name, found in dynamics_sets.items()
                 if found is not None and found["data"]["runs"]}
display(pd.DataFrame({name: {
    "seeds": len(found["data"]["runs"]),
    "complete": found["data"]["complete"],
    "epochs": found["data"]["settings"]["epochs"],
    "batches per epoch": found["data"]["settings"].get("batches_per_epoch")
    or tre_report.LONG_RUN_BATCHES,
    "snapshots per epoch": found["data"]["settings"]["snapshots_per_epoch"],
    "training accuracy recorded": all("train_accuracy" in r["snapshots"]
                                      for r in found["data"]["runs"]),
    "date": found["provenance"]["date"][:10],
    "tutorlib version": found["provenance"]["tutorlib_version"],
    "compute time (minutes)": round(found["provenance"]["wall_time_seconds"] / 60, 1),
    "CPUs": found["provenance"]["cpu_count"]} for name, found in dynamics_sets.items()}))
display(Markdown("The commands, as each record names them: " + "; ".join(
    f"{name}, `{found['provenance']['command']}`" for name, found in dynamics_sets.items())
    + "."))
if "long runs" in dynamics_sets:
    long_provenance = dynamics_sets["long runs"]["provenance"]
    display(Markdown(
        f"The long runs' record names the command that made them, `{long_provenance['command']}`, "
        f"run with tutorlib {long_provenance['tutorlib_version']} (on "
        f"{long_provenance['date'][:10]}). That profile has since become today's `full` "
        "profile, changed to the paper's length of training; the long runs are not reproduced "
        "by any current profile, and are kept as they were recorded "
        f"(`results/tre_dynamics/{dynamics.FULL_60_EPOCHS}`)."))

# %% [markdown]
# ### The two training lengths side by side
#
# Pooled over each setting's runs (each run's compression phase starting at its own peak of the
# per-unit information). The paper's number is for its joint binning estimate; ours for that
# estimate sits at its ceiling, and the per-unit estimate is another quantity.

# %% tags=["remove-input"]
tre_report.formatted_training_length(tre_report.training_length_table(
    dynamics_sets.get("full profile"), dynamics_sets.get("long runs")))

# %% [markdown]
# ### Where the phases fall, and the paper's stopping rule
#
# The paper's Appendix A ends training when the model stops improving on held-out data, and
# the paper's Figure 3 (c) takes the compression phase to begin where $I(\theta; X)$ peaks. The table below
# gives, run by run, the epoch of the best validation accuracy, the epoch where the per-unit
# information peaks, and the snapshots after that peak: over the whole run as committed, and
# with each run stopped at its best validation accuracy (`dynamics.until_best_validation`).

# %% tags=["remove-input"]
phase_tables = []
for name, found in dynamics_sets.items():
    tables = [r["snapshots"] for r in found["data"]["runs"]]
    for stopped in (False, True):
        frame = dynamics.phases(tables, early_stopped=stopped)
        frame.insert(0, "seed", [r["seed"] for r in found["data"]["runs"]])
        frame.insert(0, "run", "stopped at best validation" if stopped else "whole run")
        frame.insert(0, "setting", name)
        phase_tables.append(frame)
phase_table = pd.concat(phase_tables, ignore_index=True)
display(phase_table.set_index(["setting", "run", "seed"]).round(2))

# %% tags=["remove-input"]
sentences = []
for name, found in dynamics_sets.items():
    whole = phase_table[(phase_table["setting"] == name) & (phase_table["run"] == "whole run")]
    stopped = phase_table[(phase_table["setting"] == name) & (phase_table["run"] != "whole run")]
    pooled = dynamics.correlations([dynamics.until_best_validation(r["snapshots"])
                                    for r in found["data"]["runs"]])["info_unit"]["compression"]
    sentences.append(
        f"In the {name} ({len(whole)} seeds), validation accuracy peaks at epoch "
        f"{whole['at epoch'].mean():.1f} on average and the per-unit information at epoch "
        f"{whole['information peaks at epoch'].mean():.1f}; stopped at their best validation "
        f"accuracy, {int((stopped['snapshots after the peak'] >= 3).sum())} of the runs have "
        f"three or more snapshots after their information peak "
        f"({stopped['snapshots after the peak'].mean():.1f} on average); pooled over the "
        f"{int((stopped['snapshots after the peak'] + 1).sum())} snapshots from each run's "
        "peak on, r(TRE, per-unit information) is "
        + ("undefined" if pooled is None else f"{pooled:.2f}")
        + ", which, with so few snapshots a run, compares runs more than phases.")
Markdown(" ".join(sentences) + " Under the paper's stopping rule a compression phase is thus "
         "short or absent in these runs; the long runs' phase, which starts after the validation "
         "peak, is one the paper's training would not have reached.")

# %% [markdown]
# ## Chapter 8: Human judgments
#
# <!-- section 08: owned by chapter 08's edits; its cells go between this marker and the next -->
#
# The full profile of `tre_judgments` (`python -m tutorlib run tre_judgments --profile full`)
# generates one corpus per seed with the chapter's settings, trains CBOW vectors on it and fits
# TRE for longer than the tutorial profile does. Its committed runs, one row per corpus: the
# number of compounds, Spearman's ρ between TRE and the planted compositionality, and ρ of the
# plain cosine between a compound's vector and the sum of its words' (no fitting).

# %%
import numpy as np

from tutorlib import results
from tutorlib.tre import judgments

committed_08 = results.committed("tre_judgments", "full")
runs_08 = pd.DataFrame(committed_08["data"]["runs"] if committed_08 else [],
                       columns=["seed", "compounds", "rho", "rho cosine to sum"])
runs_08.rename(columns={"seed": "corpus seed", "rho": "Spearman ρ(TRE, c)",
                        "rho cosine to sum": "ρ(cos(word1 + word2, compound), c)"}).round(3)

# %% tags=["remove-input"]
def signed(value):
    return f"{value:.3f}".replace("-", "\u2212")


if committed_08 is None:
    display(Markdown("No full-profile run of `tre_judgments` is committed yet."))
else:
    made, summary_08 = committed_08["provenance"], committed_08["data"]["rho"]
    same = np.allclose(judgments.committed_rhos("full"), runs_08["rho"])
    display(Markdown(
        f"These runs were made with `{made['command']}` on {made['date'][:10]}, from commit "
        f"`{made['git_commit'][:10]}` (tutorlib {made['tutorlib_version']}), in "
        f"{made['wall_time_seconds']:.0f} s on {made['cpu_count']} cores, with "
        f"{committed_08['data']['settings']['steps']:,} TRE steps per corpus. Over the "
        f"{summary_08['corpora']} corpora the mean ρ(TRE, c) is {signed(summary_08['mean'])} "
        f"(95% t interval {signed(summary_08['low'])} to {signed(summary_08['high'])}); every "
        f"corpus gives a ρ between {signed(runs_08['rho'].min())} and "
        f"{signed(runs_08['rho'].max())}, and the plain cosine's ρ lies between "
        f"{signed(runs_08['rho cosine to sum'].min())} and "
        f"{signed(runs_08['rho cosine to sum'].max())}"
        + (", about as strong with the opposite sign. "
           if abs(runs_08["rho cosine to sum"].mean() + runs_08["rho"].mean()) < 0.1 else ". ")
        + "The claims page reads the same per-corpus values (`judgments.committed_rhos`)"
        + (". " if same else ", which here differ from this table: a mismatch to look into. ")
        + "The vectors are word2vec's, not a classifier's, so the fit gate has no accuracy to "
          "read; the chapter shows their training loss."))

# %% [markdown]
# ## Chapter 9: Similarity and the zoo of measures
#
# <!-- section 09: owned by chapter 09's edits; its cells go between this marker and the next -->
#
# Chapter 9 has no committed runs: Proposition 1 is a theorem, checked there at the profile's
# noise levels, and the zoo is computed on the page. Here are two comparisons that would
# interrupt it. First, the paper's Δ (Definition 2, `treedist.tree_edit_distance`) against the
# book's variant (`trees.edit_distance`) on the inputs of the chapter's check (8 objects and 64
# pairs of objects over 4 colours and 4 shapes): how many pairs of inputs get each combination
# of the two distances.

# %%
import itertools

import numpy as np

from tutorlib import profiles, trees
from tutorlib.tre import languages, measures, treedist

objects_09 = list(itertools.product(languages.COLOURS[:4], languages.SHAPES[:4]))
inputs_09 = objects_09[::2] + list(itertools.product(objects_09, objects_09))[::4]
pairs_09 = list(itertools.combinations(inputs_09, 2))
both_09 = pd.DataFrame({"Δ (paper, Definition 2)": [treedist.tree_edit_distance(a, b)
                                                    for a, b in pairs_09],
                        "Δ variant": [trees.edit_distance(a, b) for a, b in pairs_09]})
pd.crosstab(both_09["Δ (paper, Definition 2)"], both_09["Δ variant"])

# %% tags=["remove-input"]
differ_09 = both_09["Δ (paper, Definition 2)"] != both_09["Δ variant"]
shapes_09 = [isinstance(a[0], tuple) == isinstance(b[0], tuple) for a, b in pairs_09]
Markdown(f"The two distances differ on {int(differ_09.sum()):,} of the {len(pairs_09):,} pairs, "
         + ("all of them an object against a pair of objects; on inputs of the same shape they "
            "agree. " if not differ_09[np.array(shapes_09)].any() else
            "some of them inputs of the same shape. ")
         + "Where they differ, the variant gives "
         + " or ".join(map(str, sorted(both_09.loc[differ_09, "Δ variant"].unique())))
         + " and Definition 2 "
         + " or ".join(map(str, sorted(both_09.loc[differ_09, "Δ (paper, Definition 2)"].unique())))
         + ": where a primitive faces a composition, the variant counts one replacement and "
           "Definition 2 also every primitive left unmatched.")

# %% [markdown]
# Second, why the chapter checks the variant with averaging rather than addition. With exactly
# compositional codes (no noise, so TRE is 0: the true primitives reconstruct every input) and
# the primitives of the chapter's check, addition keeps the paper's bound but breaks the
# variant's: an unmatched object adds two primitives' worth of distance, which the variant
# counts as 1.

# %%
rng_09 = np.random.default_rng(0)
names_09 = languages.COLOURS[:4] + languages.SHAPES[:4]
parts_09 = {name: rng_09.normal(size=8) for name in names_09}
parts_09 = {name: 0.5 * v / np.linalg.norm(v) for name, v in parts_09.items()}


def added_09(d):
    return parts_09[d] if isinstance(d, str) else added_09(d[0]) + added_09(d[1])


delta_09 = np.array([np.linalg.norm(added_09(a) - added_09(b)) for a, b in pairs_09])
pd.DataFrame({
    "pairs breaking δ ≤ Δ": {"Definition 2": int((delta_09 > both_09["Δ (paper, Definition 2)"]
                                                  + 1e-9).sum()),
                             "variant": int((delta_09 > both_09["Δ variant"] + 1e-9).sum())},
    "largest δ − Δ": {"Definition 2": (delta_09 - both_09["Δ (paper, Definition 2)"]).max(),
                      "variant": (delta_09 - both_09["Δ variant"]).max()},
}).round(3)

# %% [markdown]
# Finally the zoo seed by seed, for the measures that need no fitting (the chapter's table
# averages them, and the two TRE columns, over the same seeds): how much each measure moves
# when the languages' codes are drawn again.

# %%
settings_09 = profiles.settings("tre_similarity", PROFILE)
rows_09 = []
for seed in settings_09["seeds"]:
    base_09 = languages.compositional(5, 5, code_length=2, seed=seed)
    for language in [base_09, languages.order_sensitive(base_09), languages.with_negation(base_09),
                     languages.context_sensitive(base_09), languages.holistic(base_09, seed=seed),
                     languages.random_language(base_09, seed=seed)]:
        rows_09.append({
            "language": language.name, "seed": seed,
            "topsim": measures.topographic_similarity(language.attributes, language.messages,
                                                      "hamming", "hamming"),
            "posdis": measures.posdis(language.attributes, language.messages),
            "bosdis": measures.bosdis(language.attributes, language.messages),
            "context independence": measures.context_independence(language.attributes,
                                                                  language.messages)})
pd.DataFrame(rows_09).pivot(index="language", columns="seed").round(3)

# %% [markdown]
# ## Chapter 10: Generalisation
#
# <!-- section 10: owned by chapter 10's edits; its cells go between this marker and the next -->

# %%
import matplotlib.pyplot as plt
import numpy as np

from tutorlib.plotting import glue_figure, use_book_style
from tutorlib.tre import generalisation, report

use_book_style()
g10_runs = generalisation.committed_runs("full")
g10_gate = generalisation.passes_gate(g10_runs) if len(g10_runs) else None
g10_fitted = g10_runs[g10_gate] if len(g10_runs) else g10_runs

# %% [markdown]
# ### Every committed game and the fit gate
#
# The committed full-profile games of {doc}`10_tre_generalisation`, trained for the paper's 500
# steps, one row a seed: the listener's accuracy on the training referents (all four attributes
# right), the rewards, the gap, the measures, and whether the game passes the fit gate (at least
# 90% of its training referents; the chapter explains why there is no in-distribution bar).

# %%
if len(g10_runs):
    g10_table = g10_runs[["seed", "train accuracy", "train reward", "test reward", "gap", "TRE",
                          "topsim", "posdis", "bosdis", "context independence"]].copy()
    g10_table["passes the gate"] = g10_gate
    with pd.option_context("display.max_rows", 200):
        display(g10_table.set_index("seed").round(3))

# %% tags=["remove-input"]
if len(g10_runs):
    g10_seed0 = g10_runs[g10_runs["seed"] == 0]
    display(Markdown(
        f"{int(g10_gate.sum())} of the {len(g10_runs)} games pass the gate. Over all of them the "
        f"training accuracy averages {100 * g10_runs['train accuracy'].mean():.1f}% (lowest "
        f"{100 * g10_runs['train accuracy'].min():.1f}%): "
        f"{'most' if 2 * g10_gate.sum() < len(g10_runs) else 'some'} fall short of the gate "
        f"after 500 steps, the paper's length."
        + (f" Seed 0, the seed the chapter trains live, gets "
           f"{100 * g10_seed0['train accuracy'].iloc[0]:.1f}% here, which is why the chapter's "
           f"game trains longer (its own fit is shown there)." if len(g10_seed0) else "")))

# %% [markdown]
# ### What the games that fail the gate would have said
#
# Before the gate was applied, the chapter and the claims page read all the committed games.
# The correlations below set those readings beside the ones over the games that fit. The
# all-games column is not a finding: most of its games did not learn their training referents.
# The paper's 0.57 is its "absolute model reward", a split it does not name; the chapter reads
# it against our held-out reward and shows the training reward beside it.

# %%
if len(g10_runs):
    g10_compare = pd.DataFrame({
        f"{label} ({len(frame)})": {
                "r(TRE, gap)": frame["TRE"].corr(frame["gap"]),
                "r(TRE, training reward)": frame["TRE"].corr(frame["train reward"]),
                "r(TRE, held-out reward)": frame["TRE"].corr(frame["test reward"]),
                "r(topsim, gap)": frame["topsim"].corr(frame["gap"])}
        for label, frame in [("games that fit", g10_fitted),
                             ("all committed games, not a finding", g10_runs)]})
    g10_compare[f"paper ({generalisation.PAPER['runs']})"] = [
        generalisation.PAPER["r(TRE, generalisation gap)"], np.nan,
        generalisation.PAPER["r(TRE, absolute reward)"], np.nan]
    display(g10_compare.round(2))

# %% [markdown]
# ### One language, three measurements
#
# The chapter's TRE is the converged minimum of the paper's objective with the L1 distance. The
# paper's released code fits the same composition differently: RMSprop at a constant rate of
# 0.01 on the *summed* distance for 1,000 steps from zero primitives, with a composition that
# also adds a learned bias to every position, reporting the errors as they stood before the last
# update. That optimisation does not converge ({ref}`tre-two-protocols`), so it reports values above
# the minimum, by an amount that depends on the language; `tutorlib.tre.tre(...,
# protocol="release")` reproduces it exactly. The paper's Fig. 6 pair (TRE 4.30 and 2.96) is on
# that scale. Every committed language is measured three ways
# (`generalisation.remeasure_committed`, committed to
# `results/tre_generalisation/protocols-full.json`), and the games that fit are read:
#
# - **converged (L1)**: the chapter's measure;
# - **release (L1)**: the released code's protocol and composition (its starting point drawn
#   afresh for each language; the release draws it once and reuses the trained one for every
#   language, so its later languages start where the previous fit ended);
# - **converged (L2)**: the minimum with the Euclidean distance, whose best fit is a mean rather
#   than a median, so a primitive that fixes a symbol in a third of its messages still lowers it:
#   no ceiling.

# %%
g10_protocols = generalisation.committed_protocols("full")
if len(g10_protocols) and len(g10_fitted):
    g10_protocols = g10_protocols[g10_protocols["seed"].isin(g10_fitted["seed"])]
    g10_protocol_table = pd.DataFrame({
        name: {"mean TRE": g10_protocols[name].mean(),
               "lowest": g10_protocols[name].min(), "highest": g10_protocols[name].max(),
               "r with gap": g10_protocols[name].corr(g10_protocols["gap"]),
               "r with held-out reward": g10_protocols[name].corr(g10_protocols["test reward"])}
        for name in generalisation.TRE_PROTOCOLS}).T
    g10_published = pd.DataFrame(
        {"mean TRE": [np.nan],
         "lowest": [min(generalisation.PAPER["Fig. 6 TRE pair"])],
         "highest": [max(generalisation.PAPER["Fig. 6 TRE pair"])],
         "r with gap": [generalisation.PAPER["r(TRE, generalisation gap)"]],
         "r with held-out reward": [generalisation.PAPER["r(TRE, absolute reward)"]]},
        index=[f"paper, {generalisation.PAPER['runs']} runs (release code; lowest / highest: "
               f"its Fig. 6 pair)"])
    display(pd.concat([g10_protocol_table, g10_published]).round(2))
else:
    print("No committed re-measurements: run `python -m tutorlib.tre.generalisation`.")

# %% tags=["remove-output"]
if len(g10_protocols):
    fig, axes = plt.subplots(1, 3, figsize=(9, 3.4), layout="constrained", sharey=True)
    for ax, name, letter in zip(axes, generalisation.TRE_PROTOCOLS, "abc"):
        r = g10_protocols[name].corr(g10_protocols["gap"])
        ax.scatter(g10_protocols[name], g10_protocols["gap"], s=10)
        ax.set(xlabel=f"TRE, {name}", title=f"({letter}) r = {r:.2f}")
    axes[0].set_ylabel("generalisation gap")
    fig.suptitle("The same languages measured three ways, against the gap")
    glue_figure("fig-10-protocols", fig)

# %% [markdown]
# ```{glue:figure} fig-10-protocols
# :name: fig-10-protocols
#
# Each point is one committed language whose game passes the fit gate: its TRE under each
# protocol against its generalisation gap, with Pearson's r in the titles. (a) The converged L1
# measure of {doc}`10_tre_generalisation`. (b) The release's protocol. (c) The converged L2
# measure.
# ```

# %% tags=["remove-input"]
if len(g10_protocols) >= 4:
    g10_r = {name: g10_protocols[name].corr(g10_protocols["gap"])
             for name in generalisation.TRE_PROTOCOLS}
    g10_strongest = max(g10_r, key=lambda name: abs(g10_r[name]))
    g10_release = g10_protocols["release (L1)"]
    g10_excess = (g10_release - g10_protocols["converged (L1)"]).mean()
    g10_pair = report.mine_pair(g10_protocols.rename(columns={"release (L1)": "TRE"}))

    def g10_signed(value):
        return f"{value:.2f}".replace("-", "\u2212")

    g10_pair_text = "no two of the games have training rewards within 0.01" if g10_pair is None else (
        f"the pair with training rewards within 0.01 and the largest difference in the "
        f"release's TRE is seed {int(g10_pair[1]['seed'])} (TRE {g10_pair[1]['TRE']:.2f}, gap "
        f"{g10_pair[1]['gap']:.3f}) and seed {int(g10_pair[0]['seed'])} (TRE "
        f"{g10_pair[0]['TRE']:.2f}, gap {g10_pair[0]['gap']:.3f})")
    display(Markdown(
        f"**What changes with the protocol.** Over the {len(g10_protocols)} games that fit, the "
        f"release's protocol puts the languages at TRE {g10_release.min():.2f} to "
        f"{g10_release.max():.2f}, on average {g10_excess:.2f} above the converged minimum. "
        f"Its r with the gap is {g10_signed(g10_r['release (L1)'])}, against "
        f"{g10_signed(g10_r['converged (L1)'])} for the converged L1 measure and "
        f"{g10_signed(g10_r['converged (L2)'])} for the L2 measure without a ceiling; the "
        f"strongest is {g10_strongest}. With the release's protocol, {g10_pair_text}."))

# %% [markdown]
# <!-- end of the appendix -->
