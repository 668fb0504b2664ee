# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Compositionality and learning dynamics
#
# **What you will learn**
#
# - the few-shot concept-learning task of {cite:t}`andreas2019measuring` (Sec. 4), on coloured
#   digits that `tutorlib.tre.digits` draws itself, and the model that turns two examples into a
#   concept representation $\theta$;
# - how to follow the compositionality of $\theta$ (TRE) snapshot by snapshot over training;
# - how the binning estimate of the information $I(\theta; X)$ of {cite:t}`shwartzziv2017opening`
#   works, and why, with 64 units and a few hundred inputs, the joint estimate is stuck at its
#   ceiling from the first step;
# - what an estimate that can move shows instead, and how our run compares with the paper's
#   claim that TRE falls in the {term}`compression phase` of training.
#
# **What you need first**: TRE with the additive composition and the cosine distance
# ({doc}`06_tre_intro`); entropy and mutual information of discrete variables; what a
# convolutional network is.

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

from IPython.display import Markdown, display

from tutorlib import fit, profiles, stats, tre, trees
from tutorlib.facts import glue_facts
from tutorlib.tre import concepts, dynamics, learner, report
from tutorlib.plotting import glue_figure, use_book_style

use_book_style()
settings = profiles.settings("tre_dynamics", PROFILE)
pd.Series(dict(settings.items()), name=f"{PROFILE} profile").to_frame()

# %% [markdown]
# ## The task: concepts from two examples
#
# Section 4 of {cite:t}`andreas2019measuring` asks how the compositionality of a learned
# representation changes *while* it is being learned. The representation is that of a
# few-shot concept learner. It sees two images of a concept, such as *red* or *a 3 on a blue
# background*, and a third image, the query, and says whether the query belongs to the concept.
#
# The paper's images come from Colour MNIST. We cannot download MNIST here, so
# `tutorlib.tre.digits` draws its own digits: a digit 0–9 in one of two stroke weights, in one of
# six colours on a background of another, each image slightly rotated, scaled and shifted.
# A concept is one attribute value (24 of them) or a conjunction of two values of different
# attributes (194), and its **derivation** is a primitive or a pair of primitives: exactly the
# input TRE needs. Primitives name a digit (`3`), a digit colour (`red`), a background colour
# (`bg_red`) or a stroke weight (`normal`, `bold`), so *a 3 on a blue background* is
# `(3 bg_blue)`.

# %% tags=["remove-output"]
examples = concepts.make_triplets(6, seed=3)
fig = plt.figure(figsize=(8, 6.4), layout="constrained")
for k, panel in enumerate(fig.subfigures(3, 2).ravel()):
    axes = panel.subplots(1, 3)
    images = [examples.examples[k, 0], examples.examples[k, 1], examples.queries[k]]
    for ax, image, label in zip(axes, images, ["example 1", "example 2", "query"]):
        ax.imshow(image.transpose(1, 2, 0))
        ax.set(xticks=[], yticks=[], xlabel=label)
        ax.grid(False)
    answer = "yes" if examples.labels[k] else "no"
    panel.suptitle(f"concept {trees.format_tree(examples.derivations[k])}; query in it? {answer}")
fig.suptitle("Six few-shot triplets")
glue_figure("fig-07-triplets", fig)

# %% [markdown]
# ```{glue:figure} fig-07-triplets
# :name: fig-07-triplets
#
# Six tasks of the concept learner, one per group of three images: two examples of a
# concept and a query; the heading gives the concept's derivation and whether the query belongs
# to it. Check that both examples show the concept (a colour, a background, a digit, a stroke
# weight, or two of these) and notice what else they happen to share, which is what makes two
# examples ambiguous.
# ```
#
# Two examples rarely pin a concept down: two red examples may also happen to share a digit.
# So even a learner that reads every attribute perfectly and knows how concepts are chosen
# makes mistakes. `concepts.ideal_observer_accuracy` computes the accuracy of that learner (the
# Bayes-optimal one), the ceiling for any model:

# %%
fresh = concepts.make_triplets(2000, seed=12345)
ideal = concepts.ideal_observer_accuracy(fresh)
pd.Series({"triplets": len(fresh), "ideal observer accuracy": round(ideal, 3)}).to_frame("value")

# %% [markdown]
# ## The model and its concept representation
#
# The model is the paper's (its appendix): a small convolutional network encodes each image to
# a vector $z$ of 64 non-negative numbers; the concept is
#
# $$\theta = \tanh\big(W (z_1 + z_2)\big),$$ (eq-07-concept)
#
# from the two examples, and the query $z^*$ belongs to the concept with probability
# $\sigma(\theta \cdot z^*)$. Training minimises the cross-entropy on 9,000 triplets (in the
# paper's setting; the table above lists ours) with Adam.
#
# $\theta$ of {eq}`eq-07-concept` is the representation whose compositionality we measure.
# For a concept with
# derivation `(3 bg_blue)`, TRE asks how close $\theta$ is, in cosine distance, to
# $\eta_{3} + \eta_{\mathrm{bg\_blue}}$, with one learned vector $\eta$ per primitive shared by
# all concepts; for `red`, how close it is to $\eta_{\mathrm{red}}$. To compare snapshots, we
# compute TRE on a fixed *probe set*: one pair of example images for each of the 218 concepts,
# the same pair at every snapshot. The information estimates use the $\theta$ of the
# validation triplets' example pairs.
#
# ## Training, with snapshots
#
# `learner.train_concepts` trains the model and keeps, at every snapshot, the validation
# accuracy and $\theta$ of the probe and validation pairs (a snapshot before the first step, the
# others evenly spaced, as many per epoch as the settings say). Runs are cached on disk, so
# executing this page again is fast. This page trains for the profile's
# {glue:text}`dynamics_live_epochs` epochs: enough to see the network learn and to look at its
# $\theta$ closely, but not the long run the paper's question is about. For that, committed
# runs train several seeds for {glue:text}`dynamics_full_epochs` epochs, from the command
# line, and this page reads their results below.

# %% tags=["remove-stderr"]
runs = {}
for seed in settings["seeds"]:
    config, every = dynamics.dynamics_config(settings, seed)
    runs[seed] = learner.train_concepts(config, progress=True, snapshot_every=every)
display(pd.DataFrame([{"seed": seed, "epochs": settings["epochs"], "optimiser steps": int(run.steps[-1]),
                       "snapshots": len(run.steps),
                       "best validation accuracy": run.val_accuracy.max(),
                       "at epoch": run.epochs[run.val_accuracy.argmax()],
                       "final training accuracy": run.train_accuracy[-1],
                       "final validation accuracy": run.val_accuracy[-1],
                       "published (validation accuracy)": dynamics.PAPER["validation accuracy"],
                       "ideal observer": ideal}
                      for seed, run in runs.items()]).set_index("seed").round(3))
# the fit gate of the network trained live, at its last snapshot: a sample of its own training
# triplets, and the validation triplets (in distribution) against the paper's 75.2%
fit.show_live_fits([fit.live_fit(f"concept learner, seed {seed}", float(run.train_accuracy[-1]),
                                 float(run.val_accuracy[-1]),
                                 paper=dynamics.PAPER["validation accuracy"], seconds=run.seconds)
                    for seed, run in runs.items()])
live_passed = all(fit.passes(float(run.train_accuracy[-1]), float(run.val_accuracy[-1]),
                             paper=dynamics.PAPER["validation accuracy"]) for run in runs.values())
Markdown("The network trained here passes the fit gate." if live_passed else
         "The network trained here does not pass the fit gate (the table above says on which "
         "count), so this page uses it to show how TRE and the information estimate are computed "
         "over training, not as evidence for or against the paper's claims.")

# %% [markdown]
# ### The committed long runs
#
# Eight seeds were trained for 60 epochs, with two snapshots an epoch, recording for each the
# table of measurements this page computes below (no $\theta$ arrays, so the records are small
# enough to commit): `results/tre_dynamics/full-60-epochs.json`. Where this page's short run
# cannot show something, the figures below draw the long run of the same seed. It starts like
# this page's run (the same data, seed and snapshots; floating-point arithmetic on another
# machine makes the numbers differ slightly) and goes on for longer. The full profile itself
# trains the paper's shorter setting, ten seeds, and is compared with these long runs at the end
# of the page. Both run from the command line, resumably (each finished seed is saved at once),
# never inside the book build: `python -m tutorlib run tre_dynamics --profile full` runs the
# paper's setting; the long runs are the same profile with `epochs=60` and no
# `batches_per_epoch` (its settings before this change).

# %%
committed = dynamics.committed_results("full", long=True)
committed_runs = dynamics.committed_runs("full", long=True)
if committed is None:
    provenance_table = pd.DataFrame([{"long runs": "not committed: "
                                      "results/tre_dynamics/full-60-epochs.json is missing"}])
else:
    provenance = committed["provenance"]
    provenance_table = pd.Series({
        "command": provenance["command"], "seeds": len(provenance["seeds"]),
        "complete": committed["data"]["complete"],
        "epochs": committed["data"]["settings"]["epochs"],
        "snapshots per epoch": committed["data"]["settings"]["snapshots_per_epoch"],
        "date": provenance["date"], "tutorlib version": provenance["tutorlib_version"],
        "compute time (minutes)": round(provenance["wall_time_seconds"] / 60, 1),
        "CPUs": provenance["cpu_count"]}).to_frame("committed long runs")
provenance_table

# %% [markdown]
# ## TRE over training
#
# At every snapshot we fit TRE afresh on the probe concepts (`dynamics.measure_dynamics`, which
# calls `tre.tre(theta, derivations, "additive", "cosine")` and caches the results), and keep
# the mean over all concepts, over the single-value concepts and over the conjunctions.
# {numref}`fig-07-training` shows this page's run beside the committed long run of the same seed:

# %% tags=["remove-output"]
tables = {seed: dynamics.measure_dynamics(run, settings["tre_steps"], settings["bins"],
                                          settings["coarse_bins"])
          for seed, run in runs.items()}
frames = {seed: pd.DataFrame(table) for seed, table in tables.items()}
first_seed = settings["seeds"][0]
shown = frames[first_seed]
# the long run the figures below draw: the committed run of the same seed, or, if there is
# none yet, this page's own run
if (committed_runs["seed"] == first_seed).any():
    long_run = committed_runs[committed_runs["seed"] == first_seed].reset_index(drop=True)
    long_settings = committed["data"]["settings"]
    long_label = f"long run, seed {first_seed}"
else:
    long_run, long_settings, long_label = shown, settings.to_dict(), f"{PROFILE} profile"

fig = report.plot_training(long_run, frames, ideal, long_label)
glue_figure("fig-07-training", fig)

# %% [markdown]
# ```{glue:figure} fig-07-training
# :name: fig-07-training
#
# Lines: the committed long run of seed {glue:text}`dynamics_first_seed`;
# orange dots: this page's shorter run. (a) Validation accuracy over training, beside the
# accuracy of the ideal observer (the best any learner can do on our task) and the published
# accuracy at the end of training. (b) TRE of the probe concepts' θ at each snapshot: the mean
# over all 218 concepts, over the 24 single-value concepts and over the 194 conjunctions. Note
# where TRE starts, and whether it is still moving after accuracy has stopped improving.
# ```
#
# Before training, TRE is close to 0, and it jumps up within the first epoch. That is not
# because the untrained network is compositional, but because it hardly tells concepts apart:
# with a random encoder, every pair of example images gives nearly the same direction of
# $\theta$, and a constant vector is trivially rebuilt by adding primitives (each primitive is
# that vector; with the cosine distance, twice the vector is as good). The mean cosine
# similarity between the probe concepts' $\theta$ in this page's run shows it:

# %%
def mean_cosine_similarity(theta):
    unit = theta / np.linalg.norm(theta, axis=1, keepdims=True)
    similarity = unit @ unit.T
    return similarity[np.triu_indices(len(theta), k=1)].mean()


run = runs[first_seed]
pd.DataFrame([{"snapshot": name, "epoch": run.epochs[i],
               "mean cosine similarity of θ between concepts":
               mean_cosine_similarity(run.probe_theta[i]), "TRE": shown["tre"][i]}
              for name, i in [("before training", 0), ("after the first epoch",
                              int(np.argmin(np.abs(run.epochs - 1)))),
                              ("end of this page's run", len(run.steps) - 1)]]).round(3)

# %% [markdown]
# In the long run (the lines of {numref}`fig-07-training`), TRE stays roughly level for a while
# after that first jump, then rises steadily once validation accuracy stops improving. In the
# first epochs the single-value concepts are rebuilt less well than the conjunctions; later
# both alike. Low TRE therefore has two sources that TRE alone cannot tell apart: structure (each concept is its
# parts added up) and a lack of information (all concepts look alike). That is one reason to look
# at TRE beside a measure of how much $\theta$ says about its input.
#
# ## Measuring information by binning
#
# The network is deterministic: $\theta$ is a function of its input $X$ (the two example
# images), so $H(\theta \mid X) = 0$ and $I(\theta; X) = H(\theta)$. For continuous $\theta$,
# that entropy is infinite; {cite:t}`shwartzziv2017opening` make it finite by *binning*: split
# $[-1, 1]$ (tanh's range) into 30 equal bins, replace each of the 64 units by its bin number,
# and take the entropy of the resulting 64-number patterns over the inputs, each input counting
# once. `stats.binned_mutual_information` does this.
#
# With $n$ inputs the entropy of $n$ equally likely patterns is at most $\log n$, reached when
# every input has a pattern of its own. With 64 units there are $30^{64}$ possible patterns for a
# few hundred inputs: it is enough that the units vary a little for every pattern to be unique.
# Here is how many distinct patterns the validation pairs have at a few snapshots of this page's
# run:

# %%
def bin_patterns(theta, bins):
    """Each input's vector of bin numbers, as the estimator sees it."""
    return np.minimum(((theta + 1) / 2 * bins).astype(int), bins - 1)


ceiling = np.log(settings["n_val"])
picked = sorted({0, 1, len(run.steps) // 2, len(run.steps) - 1})
pd.DataFrame([{
    "epoch": run.epochs[i],
    "inputs": run.val_theta[i].shape[0],
    f"distinct patterns ({settings['bins']} bins)":
        len(np.unique(bin_patterns(run.val_theta[i], settings["bins"]), axis=0)),
    "bins a unit uses (mean)": np.mean([len(np.unique(column)) for column in
                                        bin_patterns(run.val_theta[i], settings["bins"]).T]),
    "joint estimate (nats)": shown["info_joint"][i],
    "ceiling log n (nats)": ceiling,
} for i in picked]).round(3)

# %% [markdown]
# Even before training, when each unit uses only a few of its 30 bins, the inputs have (almost)
# as many distinct patterns as there are inputs, and the joint estimate is (almost) at its
# ceiling $\log n$. After that it cannot rise, and it has nowhere to fall unless units
# collapse onto each other. At this sample size, the joint binning estimate measures the number
# of inputs, not the information in $\theta$. This is a property of the estimator at this sample
# size: more inputs would lift the ceiling, but with 64 units it would take far more than the
# few hundred available here before patterns start to repeat.
#
# Two variants can move:
#
# - **coarse joint bins**: the same joint estimate with 3 bins per unit (below $-1/3$, between
#   $-1/3$ and $1/3$, above $1/3$). Patterns are fewer, but with 64 units still plentiful;
# - **the mean per-unit entropy**: bin each unit on its own (30 bins) and average the 64
#   entropies (`dynamics.mean_unit_entropy`). Each unit's estimate is at most $\log 30$, well
#   estimated from a few hundred inputs. It is the mean of the per-unit informations
#   $I(\theta_u; X)$, not $I(\theta; X)$: it ignores what the units share.
#
# {numref}`fig-07-information` shows all three over the long run, and below them the share of
# $\theta$'s values that fall in the outermost bin at either end (the unit is *saturated*,
# $|\theta_u| \ge 1 - 2/30$):

# %% tags=["remove-output"]
fig, axes = plt.subplots(2, 1, figsize=(7.5, 7), layout="constrained", sharex=True)
for column, label in [("info_joint", f"joint, {long_settings['bins']} bins (the paper's)"),
                      ("info_coarse", f"joint, {long_settings['coarse_bins']} bins"),
                      ("info_unit", f"mean per unit, {long_settings['bins']} bins")]:
    axes[0].plot(long_run["epoch"], long_run[column], label=label)
axes[0].axhline(np.log(long_settings["n_val"]), color="grey", linestyle=":",
                label="log n (joint ceiling)")
axes[0].axhline(np.log(long_settings["bins"]), color="grey", linestyle="--",
                label=f"log {long_settings['bins']} (per-unit ceiling)")
axes[0].set(ylabel="information (nats)", title="(a) Three binning estimates")
axes[0].legend(loc="lower right")
axes[1].plot(long_run["epoch"], 100 * long_run["saturation"], color="#CC79A7")
axes[1].set(xlabel="epoch", ylabel="θ in an end bin (%)",
            title="(b) Saturation of the tanh units")
glue_figure("fig-07-information", fig)

# %% [markdown]
# ```{glue:figure} fig-07-information
# :name: fig-07-information
#
# The run of {numref}`fig-07-training`'s lines (the committed long run of seed
# {glue:text}`dynamics_first_seed`), validation pairs. (a) Three binning estimates of the
# information in θ over training, with the two ceilings as grey lines: $\log n$ for the joint
# estimates and $\log 30$ for the mean per-unit entropy. (b) The share of θ's values in the
# outermost bin at either end, where a tanh unit is saturated. Compare the shapes: which
# estimates are pinned to their ceiling, which one rises and falls, and whether its fall
# coincides with the rise of saturation.
# ```
#
# The joint estimate with 30 bins is a flat line at the ceiling, or a hair below it in the first
# snapshots. The coarse joint estimate starts at 0 (at first every unit is in the middle bin)
# and climbs to the same ceiling while accuracy rises; after that it is flat too. Only the mean
# per-unit entropy keeps moving: it rises while the network learns to spread concepts apart,
# and, if training runs long enough (the table below gives the epoch of its peak), falls again.
# The fall comes with saturation ({numref}`Figure {number}b <fig-07-information>`): more and
# more values of $\theta$ are pushed to $\pm 1$, into the outermost bins, and a unit whose
# values crowd into two bins has a lower binned entropy. Whether such binned
# "compression" reflects anything beyond saturating units has been disputed since
# Shwartz-Ziv and Tishby's paper (Saxe et al., ICLR 2018, argued it is an effect of saturating
# tanh units). We use the per-unit estimate as the informative one below, and keep the other two
# in the tables.
#
# ## TRE against information and accuracy (the paper's Figure 3)
#
# The paper's Figure 3 plots (a) TRE and information over training, (b) TRE against information
# and (c) TRE against validation accuracy. Ours, for the same long run, with the mean per-unit
# entropy as the information estimate:

# %% tags=["remove-output"]
fig = plt.figure(figsize=(8.5, 7), layout="constrained")
top, bottom = fig.subfigures(2, 1)
left = top.subplots()
axes = [left, *bottom.subplots(1, 2, sharey=True)]
left.plot(long_run["epoch"], long_run["tre"], color="#0072B2", label="TRE")
left.set(xlabel="epoch", ylabel="TRE (additive, cosine)", title="(a) Over training")
right = left.twinx()
right.plot(long_run["epoch"], long_run["info_unit"], color="#E69F00",
           label="information (mean per-unit entropy)")
right.set_ylabel("mean per-unit entropy (nats)")
right.grid(False)
right.spines["right"].set_visible(True)
left.legend(handles=left.lines + right.lines, loc="lower right")
points = axes[1].scatter(long_run["info_unit"], long_run["tre"], c=long_run["epoch"],
                         cmap="viridis", s=18)
axes[1].set(xlabel="mean per-unit entropy (nats)", ylabel="TRE",
            title="(b) TRE against information")
axes[2].scatter(100 * long_run["val_accuracy"], long_run["tre"], c=long_run["epoch"],
                cmap="viridis", s=18)
axes[2].set(xlabel="validation accuracy (%)", title="(c) TRE against accuracy")
bottom.colorbar(points, ax=axes[1:], label="epoch")
fig.suptitle("Compositionality, information and accuracy over training")
glue_figure("fig-07-tre-information", fig)

# %% [markdown]
# ```{glue:figure} fig-07-tre-information
# :name: fig-07-tre-information
#
# The long run of {numref}`fig-07-training` and {numref}`fig-07-information`, snapshot by
# snapshot. (a) TRE (blue, left axis)
# and the mean per-unit entropy (orange, right axis) over training. (b) TRE against information
# and (c) TRE against validation accuracy, each point a snapshot coloured by its epoch (dark:
# early, yellow: late). Follow the points in order of colour: a path that goes up and to the
# right and then turns back to the left means that TRE and information first rise together and
# then part.
# ```
#
# The paper reports the correlation between TRE and information over all snapshots of all runs,
# and over the compression phase. `dynamics.correlations` computes both for each estimate; the
# compression phase is every snapshot from the one where the estimate peaks to the end (an
# estimate that never moves has no correlation, shown as NaN). For the long run of the figures:

# %%
def correlation_table(result):
    names = {"info_joint": f"joint, {settings['bins']} bins",
             "info_coarse": f"joint, {settings['coarse_bins']} bins",
             "info_unit": f"mean per unit, {settings['bins']} bins"}
    rows = [{"information estimate": label, "r(TRE, information)": result[key]["all"],
             "r, compression phase": result[key]["compression"],
             "estimate peaks at epoch": result[key]["peak_epoch"]}
            for key, label in names.items()]
    rows.append({"information estimate": "(validation accuracy instead)",
                 "r(TRE, information)": result["val_accuracy"]})
    rows.append({"information estimate": "published (its I(θ; X))",
                 "r(TRE, information)": dynamics.PAPER["r(TRE, I(theta; X)), all runs"],
                 "r, compression phase": dynamics.PAPER["r(TRE, I(theta; X)), compression phase"]})
    return pd.DataFrame(rows).set_index("information estimate").astype(float).round(2)


correlation_table(dynamics.correlations({column: long_run[column].tolist()
                                         for column in long_run.columns}))

# %% [markdown]
# Reading the figure and the table together:
#
# - Over the whole run, TRE and the per-unit information are positively correlated, as in the
#   paper: both rise together in the first epochs (the dark points of
#   {numref}`Figure {number}b <fig-07-tre-information>`).
# - In the compression phase the paper saw TRE fall with information. In our run TRE keeps
#   rising while the per-unit estimate falls, so the correlation there is negative.
# - TRE against validation accuracy ({numref}`Figure {number}c <fig-07-tre-information>`)
#   shows the same two phases: both rise early on; later TRE keeps growing while accuracy stops
#   improving, or even falls a little.
# - The joint 30-bin estimate gets a correlation only because it sits a hair below its ceiling
#   in the first snapshots (a few inputs share a pattern, as the table of patterns shows); in
#   this run it is constant after that, and says nothing about $\theta$.
#
# ## All the committed seeds
#
# One run is one run; the committed long runs repeat it over
# {glue:text}`dynamics_seeds` seeds. {numref}`fig-07-seeds` averages them:

# %%
if committed_runs.empty:
    print("No committed long runs: the figure and the tables below appear once "
          "results/tre_dynamics/full-60-epochs.json exists.")

# %% tags=["remove-output"]
if not committed_runs.empty:
    grouped = committed_runs.groupby("epoch")
    mean, spread = grouped.mean(numeric_only=True), grouped.std(numeric_only=True).fillna(0)
    fig, axes = plt.subplots(1, 3, figsize=(8.5, 3.4), layout="constrained")
    for ax, column, label, scale in [
            (axes[0], "val_accuracy", "validation accuracy (%)", 100),
            (axes[1], "tre", "TRE (additive, cosine)", 1),
            (axes[2], "info_unit", "per-unit entropy (nats)", 1)]:
        ax.plot(mean.index, scale * mean[column], color="#0072B2")
        ax.fill_between(mean.index, scale * (mean[column] - spread[column]),
                        scale * (mean[column] + spread[column]), color="#0072B2", alpha=0.25)
        ax.set(xlabel="epoch", ylabel=label)
    axes[0].axhline(100 * dynamics.PAPER["validation accuracy"], color="#D55E00", linestyle="--",
                    label="published")
    axes[0].legend(loc="lower right")
    axes[0].set_title("(a) Accuracy")
    axes[1].set_title("(b) TRE")
    axes[2].set_title("(c) Information")
    fig.suptitle(f"Committed long runs ({committed_runs['seed'].nunique()} seeds)")
    glue_figure("fig-07-seeds", fig)

# %% [markdown]
# ```{glue:figure} fig-07-seeds
# :name: fig-07-seeds
#
# The committed long runs, mean (line) ± one standard deviation (band) over
# seeds at every snapshot: (a) validation accuracy, with the published accuracy at the end of
# training as a dashed line, (b) TRE of the probe concepts, (c) the mean per-unit entropy of θ.
# Compare the epochs at which each curve peaks: the per-unit entropy turns down while TRE is
# still rising.
# ```

# %%
if committed is not None and not committed_runs.empty:
    data = committed["data"]
    accuracy = pd.DataFrame([{
        "seeds": len(data["runs"]),
        "final validation accuracy (mean)": data["mean final val_accuracy"],
        "best validation accuracy (mean)": np.mean([r["best val_accuracy"] for r in data["runs"]]),
        "published": dynamics.PAPER["validation accuracy"]}]).round(3)
    display(accuracy)
    display(correlation_table(data["pooled correlations"]))
    per_seed = pd.DataFrame([{"seed": r["seed"],
                              "r(TRE, info), all": r["correlations"]["info_unit"]["all"],
                              "r, compression phase": r["correlations"]["info_unit"]["compression"],
                              "information peaks at epoch":
                                  r["correlations"]["info_unit"]["peak_epoch"],
                              "r(TRE, accuracy)": r["correlations"]["val_accuracy"]}
                             for r in data["runs"]]).set_index("seed").astype(float).round(2)
    display(per_seed)

# %% tags=["remove-input"]
# The numbers the text below states about the committed runs, glued into it (myst-nb) at build time
from myst_nb import glue

unit = [r["correlations"]["info_unit"] for r in committed["data"]["runs"]]
numbers = {
    "dynamics_live_epochs": f"{settings['epochs']}",
    "dynamics_full_epochs": f"{committed['data']['settings']['epochs']}",
    "dynamics_first_seed": f"{first_seed}",
    "dynamics_seeds": f"{len(unit)}",
    "dynamics_paper_accuracy": f"{100 * dynamics.PAPER['validation accuracy']:.1f}",
    "dynamics_best_accuracy": f"{100 * np.mean([r['best val_accuracy'] for r in committed['data']['runs']]):.1f}",
    "dynamics_final_accuracy": f"{100 * committed['data']['mean final val_accuracy']:.1f}",
    "dynamics_peak_first": f"{min(u['peak_epoch'] for u in unit):.0f}",
    "dynamics_peak_last": f"{max(u['peak_epoch'] for u in unit):.0f}",
    "dynamics_r_all": f"{committed['data']['pooled correlations']['info_unit']['all']:.2f}",
    "dynamics_paper_r_all": f"{dynamics.PAPER['r(TRE, I(theta; X)), all runs']:.2f}",
    "dynamics_r_compression_low": f"{min(u['compression'] for u in unit):.2f}",
    "dynamics_r_compression_high": f"{max(u['compression'] for u in unit):.2f}",
    "dynamics_paper_r_compression": f"{dynamics.PAPER['r(TRE, I(theta; X)), compression phase']:.2f}",
    "dynamics_r_compression_pooled":
        f"{committed['data']['pooled correlations']['info_unit']['compression']:.2f}",
}
for key, text in numbers.items():
    glue(key, text, display=False)

# %% [markdown]
# The first table compares accuracy with the paper's; the second pools the snapshots of every
# committed run (each run's compression phase starting at its own peak), as the paper's
# "over all runs" does; the third gives the per-unit correlations of each seed, to show how much
# they vary. (If the committed runs are not there yet, {numref}`fig-07-seeds` and these tables are
# missing and the command above produces them.)
#
# Every seed tells the story of the long run of {numref}`fig-07-training` to
# {numref}`fig-07-tre-information`. On average over seeds ({numref}`fig-07-seeds`),
# accuracy stays below the paper's {glue:text}`dynamics_paper_accuracy`% (our best
# {glue:text}`dynamics_best_accuracy`%, our final {glue:text}`dynamics_final_accuracy`%, means
# over {glue:text}`dynamics_seeds` seeds) and falls back a little after its peak; TRE is roughly
# level for a while and then rises to the end of training; the per-unit estimate rises, peaks
# and falls, in every seed (the peaks lie between epochs {glue:text}`dynamics_peak_first` and
# {glue:text}`dynamics_peak_last`). Over all snapshots, TRE and information are positively
# correlated (pooled r = {glue:text}`dynamics_r_all`), less strongly than in the paper
# ({glue:text}`dynamics_paper_r_all`). In the compression phase every seed's correlation is
# strongly negative (from {glue:text}`dynamics_r_compression_low` to
# {glue:text}`dynamics_r_compression_high`), the opposite of the paper's
# {glue:text}`dynamics_paper_r_compression`. Pooled over seeds, that correlation is weaker
# ({glue:text}`dynamics_r_compression_pooled`) than any single seed's, mostly because the seeds'
# compression phases start from different levels of TRE and information.
#
# ## The paper's training length
#
# The paper's released notebook trains ten runs of 20 epochs of 100 batches of 128 triplets:
# 2,000 optimiser steps, less than half of the long runs above. The full profile repeats that
# setting exactly (ten seeds; the same data, model, snapshots twice an epoch and estimates).
# Does the shorter training change the comparison with the paper?

# %%
matched = dynamics.committed_results("full")
length_table = report.training_length_table(matched, committed)
report.formatted_training_length(length_table)

# %% tags=["remove-input"]
glue_facts(report.training_length_facts(length_table))

# %% [markdown]
# *The table:* one column per setting; the information estimates are those of the sections
# above, pooled over each setting's runs (the compression phase of a run starts at its own peak
# of the per-unit estimate; the paper's estimate is the joint 30-bin one).
#
# With the paper's training length ({glue:text}`matched_seeds` seeds) the final validation
# accuracy is {glue:text}`matched_final`% on average (published:
# {glue:text}`dynamics_paper_accuracy`%), the best along the way {glue:text}`matched_best`%
# (long runs: {glue:text}`long_best`%).
# TRE correlates with the per-unit information at r = {glue:text}`matched_r_unit` over all
# snapshots (long runs: {glue:text}`long_r_unit`) and with the paper's joint estimate at
# r = {glue:text}`matched_r_joint` (published 0.70); in the compression phase, r =
# {glue:text}`matched_r_compression` (long runs: {glue:text}`long_r_compression`; published
# 0.71). But the shorter training barely reaches the compression phase: the per-unit
# information peaks before the end in {glue:text}`matched_peaked` of the
# {glue:text}`matched_seeds` runs, and the phase after the peak lasts
# {glue:text}`matched_after_peak` snapshots on average (in the long runs
# {glue:text}`long_after_peak`). A correlation over so few snapshots a run says little about
# compression; the long runs, which go well past the peak, are the better test of the paper's
# second claim: {glue:text}`long_compression_verdict`.
#
# ## How this relates to the paper
#
# | | {cite:t}`andreas2019measuring`, Sec. 4 | this chapter |
# |---|---|---|
# | images | Colour MNIST | digits drawn in a font, six colours, two stroke weights, jittered |
# | model | appendix CNN, $\theta = \tanh(W(z_1 + z_2))$ | the same |
# | data | 9,000 training and 500 validation triplets | the same sizes (full and `tutorial` profiles) |
# | TRE | additive composition, cosine distance | the same, on a fixed probe set of all 218 concepts |
# | information | binning estimate of $I(\theta; X)$ | the same estimate (at its ceiling), plus coarse joint bins and the mean per-unit entropy |
# | accuracy | 75.2% | the tables above; the ideal observer bounds what is possible on our task |
# | r(TRE, information) | 0.70 over all runs, 0.71 in the compression phase | the tables above |
#
# - **Our task is not theirs.** Where the paper does not spell out how concepts and negative
#   queries are chosen, we made our own choices (`concepts.concept_probabilities`, uniformly
#   random negatives); with those and our drawn digits, accuracies compare only roughly.
# - **Training length.** The paper trains 20 epochs of 100 batches (2,000 steps), and so does
#   our full profile (the section above). The long runs the figures draw train
#   {glue:text}`dynamics_full_epochs` passes over the data (4,260 steps), past the peak of
#   validation accuracy, so that a compression phase, if there is one, has time to show.
# - **The information estimate.** We bin $\theta$ of the 500 validation pairs into 30 bins over
#   $[-1, 1]$ per unit. With 64 units the joint estimate then cannot move
#   ({numref}`Figure {number}a <fig-07-information>`), so our
#   comparisons with the paper's correlations use the mean per-unit entropy,
#   which measures something related but different: how many values each unit spreads its
#   inputs over, on average.
# - **What we find.** Information, by the per-unit estimate, first rises and then (in long
#   enough runs) falls, like the paper's. TRE rises with it at first, but we do not see TRE fall
#   in the compression phase: the falling estimate comes with saturating units, and TRE keeps
#   growing (see the tables for the correlations).
#
# ## Recap
#
# - The few-shot concept learner turns two examples into a concept representation $\theta$;
#   TRE, fitted at every snapshot on a fixed probe set, follows its compositionality over
#   training.
# - TRE near 0 can mean "no information" as well as "compositional": before training, all
#   concepts look alike and TRE is (nearly) 0.
# - The joint binning estimate of $I(\theta; X)$ is at $\log n$ from the first step with 64
#   units and a few hundred inputs. The mean per-unit entropy can move; it rises, then falls as
#   tanh units saturate.
# - In our runs TRE rises with information early, but keeps rising in the compression phase:
#   the paper's falling TRE is not reproduced here.
#
# ## Exercises
#
# **1. Where is the ceiling?** The joint estimate's ceiling is $\log n$. Predict the joint
# estimate (30 bins) of the untrained network's $\theta$ for the first 50 validation pairs, and
# for all of them with 2 bins per unit (the sign of each unit). Then compute both.

# %% tags=["hide-cell"]
# Solution code: the two estimates for theta before training, beside their ceilings.
theta_start = runs[first_seed].val_theta[0]
ex1 = pd.Series({
    "first 50 inputs, 30 bins": stats.binned_mutual_information(theta_start[:50], bins=30),
    "log 50": np.log(50),
    "all inputs, 2 bins": stats.binned_mutual_information(theta_start, bins=2),
    f"log n (n = {len(theta_start)})": np.log(len(theta_start)),
})
glue("ex1_fifty", f"{ex1.iloc[0]:.2f}", display=False)
glue("ex1_log50", f"{ex1.iloc[1]:.2f}", display=False)
glue("ex1_signs", f"{ex1.iloc[2]:.2f}", display=False)
glue("ex1_logn", f"{ex1.iloc[3]:.2f}", display=False)
glue("ex1_n", f"{len(theta_start)}", display=False)
ex1.round(3).to_frame("nats")

# %% [markdown]
# ```{admonition} Solution
# :class: dropdown
# For the first 50 inputs the estimate is {glue:text}`ex1_fifty` nats, at or just below
# $\log 50$ = {glue:text}`ex1_log50`: (almost) every one of 50 patterns is unique. With 2 bins a
# pattern is the signs of the 64 units, $2^{64}$ possible patterns, yet the estimate for all
# {glue:text}`ex1_n` inputs is {glue:text}`ex1_signs` nats, below $\log n$ =
# {glue:text}`ex1_logn`: the untrained network gives nearly the same θ to every input (the table
# of cosine similarities), so some inputs share all their signs. It stays far from 0, though:
# the ceiling problem is the number of units, not the number of bins.
# ```
#
# **2. The uninformative representation.** Predict the TRE (additive, cosine) of a
# representation that gives all 218 concepts the same random vector, then of one that gives
# each concept its own random vector. Compute both and compare with TRE before and after
# training.

# %% tags=["hide-cell"]
# Solution code: two made-up representations of the probe concepts, fitted like the network's.
rng = np.random.default_rng(0)
derivations = runs[first_seed].probe_derivations
constant = np.tile(rng.normal(size=64), (len(derivations), 1))
independent = rng.normal(size=(len(derivations), 64))
ex2 = pd.Series({
    "same vector for every concept": tre.tre(constant, derivations, "additive", "cosine",
                                             steps=settings["tre_steps"]).value,
    "a random vector per concept": tre.tre(independent, derivations, "additive", "cosine",
                                           steps=settings["tre_steps"]).value,
    "network before training": shown["tre"].iloc[0],
    "network at the end of this page's run": shown["tre"].iloc[-1],
}).abs()  # abs: no "-0.000"
for key, value in zip(["constant", "independent", "before", "after"], ex2):
    glue(f"ex2_{key}", f"{value:.3f}", display=False)
ex2.round(3).to_frame("TRE")

# %% [markdown]
# ```{admonition} Solution
# :class: dropdown
# The constant representation has TRE {glue:text}`ex2_constant`: every primitive can be that
# vector, and sums of it point the same way. Independent random vectors cannot be rebuilt from
# parts: TRE {glue:text}`ex2_independent`. The network lies in between: near the constant before
# training ({glue:text}`ex2_before`), because then all its concepts look alike, and at
# {glue:text}`ex2_after` after {glue:text}`dynamics_live_epochs` epochs, far below the random
# vectors, because its concepts now differ and their parts explain much of the difference.
# ```
#
# **3. Does the per-unit estimate depend on the bins?** Recompute the mean per-unit entropy of
# this page's run, snapshot by snapshot, with 10 and with 100 bins per unit instead of 30.
# Predict first: does its rise over training keep its shape, and where are the ceilings?

# %% tags=["hide-cell"]
# Solution code: the per-unit estimate with three bin widths, at the start and the end.
by_bins = pd.DataFrame({bins: [dynamics.mean_unit_entropy(theta, bins=bins)
                               for theta in run.val_theta] for bins in (10, 30, 100)},
                       index=pd.Index(run.epochs, name="epoch"))
ex3 = pd.DataFrame({"before training (nats)": by_bins.iloc[0],
                    "end of this page's run (nats)": by_bins.iloc[-1],
                    "ceiling log bins (nats)": np.log(by_bins.columns.to_numpy(float)),
                    "r with the 30-bin curve": by_bins.corr()[30]},
                   index=pd.Index(by_bins.columns, name="bins per unit"))
for bins in (10, 30, 100):
    glue(f"ex3_start_{bins}", f"{ex3.loc[bins].iloc[0]:.2f}", display=False)
    glue(f"ex3_end_{bins}", f"{ex3.loc[bins].iloc[1]:.2f}", display=False)
    glue(f"ex3_ceiling_{bins}", f"{ex3.loc[bins].iloc[2]:.2f}", display=False)
glue("ex3_r_min", f"{ex3['r with the 30-bin curve'].min():.2f}", display=False)
ex3.round(2)

# %% [markdown]
# ```{admonition} Solution
# :class: dropdown
# The shape survives; only the scale moves. With 10 bins the estimate goes from
# {glue:text}`ex3_start_10` to {glue:text}`ex3_end_10` nats (ceiling $\log 10$ =
# {glue:text}`ex3_ceiling_10`), with 30 from {glue:text}`ex3_start_30` to {glue:text}`ex3_end_30`
# (ceiling {glue:text}`ex3_ceiling_30`), with 100 from {glue:text}`ex3_start_100` to
# {glue:text}`ex3_end_100` (ceiling {glue:text}`ex3_ceiling_100`), and over the snapshots each
# curve correlates with the 30-bin one at r ≥ {glue:text}`ex3_r_min`. More bins give every
# value more room and so higher numbers, but the estimate rises wherever the units spread their
# values, whatever the bin width. (To see whether the later *fall* depends on the bins too, run
# the long runs' setting, `dataclasses.replace(settings, epochs=60)`: several minutes a
# seed.)
# ```
