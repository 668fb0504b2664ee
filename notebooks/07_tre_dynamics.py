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
#   works, and why, with dozens of units and a few hundred inputs, the joint estimate is stuck
#   at its ceiling from the first step;
# - how to train a network until it passes the fit gate, and why the paper's own setting does
#   not get there here;
# - how the paper's Figure 3 is built, its third panel included (the {term}`compression phase`),
#   and why our committed runs cannot test its claims: they do not pass the fit gate.
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
import inspect

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from IPython.display import Markdown, display

from tutorlib import fit, profiles, stats, tre, trees
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
# input TRE needs. So *a 3 on a blue background* is `(3 bg_blue)`.

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
# to it. Notice what else the two examples happen to share: that is what makes them ambiguous.
# ```
#
# Two examples rarely pin a concept down: two red examples may also happen to share a digit.
# So even a learner that reads every attribute perfectly and knows how concepts are chosen
# makes mistakes. `concepts.ideal_observer_accuracy` computes the accuracy of that
# (Bayes-optimal) learner on fresh triplets, the ceiling for any model:

# %% tags=["remove-input"]
fresh = concepts.make_triplets(2000, seed=12345)
ideal = concepts.ideal_observer_accuracy(fresh)
Markdown(f"On {len(fresh):,} fresh triplets the ideal observer is right {100 * ideal:.1f}% of "
         f"the time. The paper's learner reached {100 * dynamics.PAPER['validation accuracy']:.1f}% "
         "on its own task, Colour MNIST.")

# %% [markdown]
# ## The model and one training step
#
# The model is the paper's (its Appendix A): a small convolutional network encodes each image to
# a vector $z$ of non-negative numbers (64 in the paper); the concept is
#
# $$\theta = \tanh\big(W (z_1 + z_2)\big),$$ (eq-07-concept)
#
# from the two examples, and the query $z^*$ belongs to the concept with probability
# $\sigma(\theta \cdot z^*)$. Here it is, as `tutorlib` runs it:

# %%
print(inspect.getsource(learner.ConceptLearner))

# %% [markdown]
# Training minimises the logistic loss on 9,000 triplets with Adam (learning rate 0.001,
# batches of 128), one step at a time:

# %%
print(inspect.getsource(learner.train_step))

# %% [markdown]
# When does training stop? The paper's appendix says training ends when the model stops
# improving on held-out data. The authors' released notebook instead runs 20 epochs of 100
# batches (2,000 steps), and our `full` profile does the same.
#
# $\theta$ of {eq}`eq-07-concept` is the representation whose compositionality we measure.
# For a concept with derivation `(3 bg_blue)`, TRE asks how close $\theta$ is, in cosine
# distance, to $\eta_{3} + \eta_{\mathrm{bg\_blue}}$, with one learned vector $\eta$ per
# primitive shared by all concepts. To compare snapshots, we compute TRE on a fixed *probe set*:
# one pair of example images for each of the 218 concepts, the same pair at every snapshot.
#
# ## Training, with snapshots
#
# `learner.train_concepts` runs `train_step` over shuffled batches and takes snapshots (one
# before the first step, then evenly spaced): the accuracy on the validation triplets and on a
# fixed sample of the training triplets, and $\theta$ of the probe and validation pairs. Runs
# are cached on disk, so executing this page again is fast.
#
# A network we read has to pass the fit gate: 90% of its own training triplets, and the
# paper's validation accuracy less 5 points. With the paper's 64 units, our learner did not get
# there within a CPU budget of minutes in our pilots (and the committed runs below, trained in
# the paper's setting, do not pass either). So this page's run widens $z$ and $\theta$ and
# trains *to the gate*: `stop_at` ends training at the first snapshot that clears both bars,
# each with a little to spare, and `epochs` is only a cap. The settings table above lists both.
# The stopping rule, inside the training loop:

# %%
source = inspect.getsource(learner._train)
print(source[source.index("    def fitted"):source.index("    return {")])

# %% tags=["remove-stderr"]
runs = {}
for seed in settings["seeds"]:
    config, every = dynamics.dynamics_config(settings, seed)
    runs[seed] = learner.train_concepts(config, progress=True, snapshot_every=every)
# the fit gate at the last snapshot: a sample of its own training triplets, and the validation
# triplets (in distribution) against the paper's 75.2%
paper = dynamics.PAPER["validation accuracy"]
live = [fit.live_fit(f"concept learner, seed {seed}, {PROFILE} profile",
                     float(run.train_accuracy[-1]), float(run.val_accuracy[-1]), paper=paper,
                     seconds=run.seconds) for seed, run in runs.items()]
fit.show_live_fits(live)

# %% tags=["remove-input"]
first_seed = settings["seeds"][0]
run = runs[first_seed]
live_passed = all(row["passes"] for row in live)
stopped = run.steps[-1] < run.config.epochs * run.config.steps_per_epoch
Markdown(
    f"After {run.epochs[-1]:.1f} epochs ({int(run.steps[-1]):,} steps, "
    + ("stopped by `stop_at`" if stopped else "no early stop") + f", {run.seconds:.0f} s) "
    f"the network of {run.config.representation_size} units gets "
    f"{100 * run.train_accuracy[-1]:.1f}% of its own training triplets right and {100 * run.val_accuracy[-1]:.1f}% of the validation "
    f"triplets. The fit gate asks for {100 * fit.TRAINING:.0f}% on training and, in "
    f"distribution, for the paper's {100 * paper:.1f}% minus {100 * fit.MARGIN:.0f} points, "
    f"{100 * fit.in_distribution_bar(paper):.1f}%. "
    + ("It passes, so what this page measures on it below is the behaviour of a network that "
       "has learned the task; one run, wider than the paper's, is still an illustration, not a "
       "test of the paper's claims over ten runs." if live_passed else
       "It does not pass, so from here on this page uses it only to show how TRE and the "
       "information are computed over training; nothing it measures is evidence for or against "
       "the paper's claims."))

# %% [markdown]
# ## TRE over training
#
# At every snapshot, `dynamics.measure_dynamics` fits TRE afresh on the probe concepts and
# computes the information estimates of the next section. Its core:

# %%
source = inspect.getsource(dynamics.measure_dynamics)
print(source[source.index("    def compute"):source.index("    key = ")])

# %% tags=["remove-output"]
shown = pd.DataFrame(dynamics.measure_dynamics(run, settings["tre_steps"], settings["bins"],
                                               settings["coarse_bins"]))
shown["train_accuracy"] = run.train_accuracy
fig = report.plot_training(shown, ideal, f"{PROFILE} profile, seed {first_seed} "
                                         "(fails the fit gate: the method only)"
                           if not live_passed else f"{PROFILE} profile, seed {first_seed}")
glue_figure("fig-07-training", fig)

# %% [markdown]
# ```{glue:figure} fig-07-training
# :name: fig-07-training
#
# This page's run (the tutorial profile), snapshot by snapshot. (a) Accuracy on a sample of the
# training triplets and on the validation triplets, beside the ideal observer, the paper's
# accuracy and the fit gate's bars. (b) TRE of the probe concepts: the mean over all 218
# concepts, over the 24 single-value concepts and over the 194 conjunctions. Note where TRE
# starts.
# ```
#
# Before training TRE is close to 0, and it jumps up within the first epoch. That is not
# because the untrained network is compositional, but because it hardly tells concepts apart:
# with a random encoder, every pair of example images gives nearly the same direction of
# $\theta$, and a constant vector is trivially rebuilt from parts (each primitive is that
# vector; with the cosine distance, twice the vector is as good). The mean cosine similarity
# between the probe concepts' $\theta$ shows it:

# %%
def mean_cosine_similarity(theta):
    unit = theta / np.linalg.norm(theta, axis=1, keepdims=True)
    similarity = unit @ unit.T
    return similarity[np.triu_indices(len(theta), k=1)].mean()


after_one = int(np.argmin(np.abs(run.epochs - 1)))
pd.DataFrame([{"snapshot": name, "epoch": run.epochs[i],
               "mean cosine similarity of θ between concepts":
               mean_cosine_similarity(run.probe_theta[i]), "TRE": shown["tre"][i]}
              for name, i in [("before training", 0),
                              ("after the first epoch", after_one)]]).round(3)

# %% [markdown]
# So low TRE has two sources that TRE alone cannot tell apart: structure (each concept is its
# parts added up) and a lack of information (all concepts look alike). That is the reason to
# look at TRE beside a measure of how much $\theta$ says about its input.
#
# ## Measuring information by binning
#
# The network is deterministic: $\theta$ is a function of its input $X$ (the two example
# images), so $H(\theta \mid X) = 0$ and $I(\theta; X) = H(\theta)$. For continuous $\theta$,
# that entropy is infinite; {cite:t}`shwartzziv2017opening` make it finite by *binning*: split
# $[-1, 1]$ (tanh's range) into 30 equal bins, replace each unit by its bin number, and take
# the entropy of the resulting patterns (64 numbers in the paper) over the inputs, each input
# counting once. The core of `stats.binned_mutual_information`, after its checks:

# %%
source = inspect.getsource(stats.binned_mutual_information)
print(source[source.index("    cells = "):])

# %% [markdown]
# With $n$ inputs the entropy is at most $\log n$, reached when every input has a pattern of its
# own. With 64 units there are $30^{64}$ possible patterns for a few hundred inputs: it is
# enough that the units vary a little for every pattern to be unique. Here is how many distinct
# patterns the 500 validation pairs have at a few snapshots of this page's run:

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
# ceiling $\log n$. At this sample size the joint binning estimate counts the inputs, not the
# information in $\theta$; with 64 units (more on this page) it would take far more inputs than the few hundred
# available before patterns start to repeat. Two variants can move:
#
# - **coarse joint bins**: the same joint estimate with 3 bins per unit. Patterns are fewer, but
#   with dozens of units still plentiful;
# - **the mean per-unit entropy**: bin each unit on its own (30 bins) and average the units'
#   entropies. Each unit's estimate is at most $\log 30$, well estimated from a few hundred
#   inputs. It is the mean of the per-unit informations $I(\theta_u; X)$, *not*
#   $I(\theta; X)$: it ignores what the units share, so its numbers cannot be set beside the
#   paper's.

# %%
print(inspect.getsource(dynamics.mean_unit_entropy).split('    """')[0]
      + inspect.getsource(dynamics.mean_unit_entropy).split('    """')[-1].split("\n", 1)[1])

# %% tags=["remove-output"]
fig, ax = plt.subplots(figsize=(7.5, 4), layout="constrained")
for column, label in [("info_joint", f"joint, {settings['bins']} bins (the paper's)"),
                      ("info_coarse", f"joint, {settings['coarse_bins']} bins"),
                      ("info_unit", f"mean per unit, {settings['bins']} bins")]:
    ax.plot(shown["epoch"], shown[column], marker="o", ms=3, label=label)
ax.axhline(ceiling, color="grey", linestyle=":", label="log n (joint ceiling)")
ax.axhline(np.log(settings["bins"]), color="grey", linestyle="--",
           label=f"log {settings['bins']} (per-unit ceiling)")
ax.set(xlabel="epoch", ylabel="information (nats)",
       title=f"Three binning estimates of I(θ; X): {PROFILE} profile, seed {first_seed}")
ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
glue_figure("fig-07-information", fig)

# %% [markdown]
# ```{glue:figure} fig-07-information
# :name: fig-07-information
#
# This page's run (the tutorial profile), validation pairs: three binning estimates of the
# information in θ over training, with the two ceilings as grey lines: $\log n$ for the joint
# estimates and $\log 30$ for the mean per-unit entropy. Which estimates are pinned to a
# ceiling, and which one has room to move?
# ```
#
# The 30-bin joint estimate is a flat line at its ceiling, or a hair below it in the first
# snapshots; the coarse one climbs towards the same ceiling. Only the mean per-unit entropy
# has room to move. It also falls when units saturate: values pushed to $\pm 1$ crowd into the
# two end bins, so a binned "compression" may reflect saturating tanh units rather than
# anything else (the paper points to Saxe et al., 2018, for the limits of this estimate).
#
# ## The paper's Figure 3
#
# The evidence is the paper's Figure 3, three panels of TRE against $I(\theta; X)$: (a) both
# over the course of a single run, coloured by epoch; (b) the values of ten runs together;
# (c) only the second half of each run, which the paper takes to begin where $I(\theta; X)$
# reaches its maximum, the {term}`compression phase`. It reports r = 0.70 for (b) and r = 0.71
# for (c), and reads them as: TRE and information rise together, then fall together, so
# compression finds compositional representations.
#
# Here is the same analysis on our committed full-profile runs (the paper's setting as its
# released notebook trains it, snapshots twice an epoch), with the mean per-unit entropy as the
# estimate, since the joint one does not move:

# %% tags=["remove-output"]
matched = dynamics.committed_results("full")
matched_runs = dynamics.committed_runs("full")
if not matched_runs.empty:
    one = matched_runs[matched_runs["seed"] == matched_runs["seed"].min()]
    second = pd.concat([frame.iloc[int(np.argmax(frame["info_unit"])):]
                        for _, frame in matched_runs.groupby("seed")])
    fig, axes = plt.subplots(1, 3, figsize=(9, 3.4), layout="constrained", sharey=True)
    for ax, frame, title in [(axes[0], one, f"(a) One run (seed {one['seed'].iloc[0]})"),
                             (axes[1], matched_runs, f"(b) {matched_runs['seed'].nunique()} runs"),
                             (axes[2], second, "(c) From each run's peak")]:
        points = ax.scatter(frame["info_unit"], frame["tre"], c=frame["epoch"], cmap="viridis",
                            s=10, vmin=0, vmax=matched_runs["epoch"].max())
        ax.set(xlabel="mean per-unit entropy (nats)", title=title)
    axes[0].set_ylabel("TRE (additive, cosine)")
    fig.colorbar(points, ax=axes, label="epoch")
    fig.suptitle("TRE against information: the full profile (20 epochs of 100 batches), "
                 "networks that fail the fit gate")
    glue_figure("fig-07-figure3", fig)

# %% [markdown]
# ```{glue:figure} fig-07-figure3
# :name: fig-07-figure3
#
# The paper's Figure 3 redrawn for our committed full-profile runs, each point a snapshot
# coloured by its epoch: (a) one run, (b) all of them, (c) the snapshots of each run from the one
# where its per-unit information peaks. These networks fail the fit gate (next section), so
# the figure shows how the analysis is done, not what it finds. Notice how few points
# panel (c) has.
# ```
#
# ## The paper's claim beside our runs
#
# The paper's claims need a network that has learned its task. Do the committed runs pass the
# fit gate?

# %% tags=["remove-input"]
if matched is None or matched_runs.empty:
    display(Markdown("The full profile's runs are not committed yet "
                     "(`python -m tutorlib run tre_dynamics --profile full` produces them)."))
else:
    data = matched["data"]
    finals = [r["final val_accuracy"] for r in data["runs"]]
    recorded = all("train_accuracy" in r["snapshots"] for r in data["runs"])
    matched_pass = recorded and all(
        fit.passes(r["snapshots"]["train_accuracy"][-1], r["final val_accuracy"], paper=paper)
        for r in data["runs"])
    display(Markdown(
        ("Yes. " if matched_pass else "No. ")
        + f"The {len(finals)} committed runs end at {100 * np.mean(finals):.1f}% validation "
        f"accuracy on average (from {100 * min(finals):.1f}% to {100 * max(finals):.1f}%), "
        f"against the gate's {100 * fit.in_distribution_bar(paper):.1f}%, and "
        + ("they record their training accuracy." if recorded else
           "they do not record their training accuracy, so the gate's first condition cannot "
           "even be checked.")
        + (" This page's run passes, but only because it is wider than the paper's network and "
           "stopped at the gate: it is one run outside the paper's setting."
           if live_passed else
           " This page's run, which does record it, does not pass either.")))

# %% [markdown]
# The gate asks for more than held-out accuracy near the paper's: a network that has also
# fitted its own training triplets. None of the committed runs in the paper's setting has been
# shown to, so by the book's rule they have not learned the task, and **the paper's Section 4
# claims cannot be tested here**:
# neither that TRE goes with information over training nor that it falls with information in
# the compression phase. The claims page ({doc}`../backmatter/16_claims`) marks
# all three Section 4 rows *untested: did not fit*. The appendix ({doc}`10_tre_full_runs`)
# keeps the audit: what produced the committed runs (the full profile, and eight earlier runs
# of 60 passes over the data), their correlations seed by seed, and where the phases fall when
# each run is stopped at its best validation accuracy, as the paper's training was. That last
# point matters for any future test: the paper's Figure 3 (c) needs a compression phase
# *before* held-out accuracy stops improving.
#
# | | {cite:t}`andreas2019measuring`, Sec. 4 | this chapter |
# |---|---|---|
# | images | Colour MNIST | digits drawn in a font, six colours, two stroke weights, jittered |
# | model | appendix CNN, $\theta = \tanh(W(z_1 + z_2))$ | the same |
# | data | 9,000 training and 500 validation triplets | the same sizes |
# | training | Adam, 0.001, batches of 128; until held-out accuracy stops improving (release: 2,000 steps) | the same; 2,000 steps (full profile) |
# | TRE | additive composition, cosine distance | the same, on a fixed probe set of all 218 concepts |
# | information | joint binning estimate of $I(\theta; X)$ | the same (at its ceiling), and the mean per-unit entropy |
# | fit | 75.2% validation accuracy | this page's run: wider, trained to the gate (the live fit table); committed runs fail the gate |
#
# ## Recap
#
# - The few-shot concept learner turns two examples into a concept representation $\theta$;
#   TRE, fitted at every snapshot on a fixed probe set, follows its compositionality over
#   training.
# - TRE near 0 can mean "no information" as well as "compositional": before training, all
#   concepts look alike and TRE is (nearly) 0.
# - The joint binning estimate of $I(\theta; X)$ sits at $\log n$ from the first step with 64
#   units and a few hundred inputs. The mean per-unit entropy can move, but it is another
#   quantity, and it falls when tanh units saturate.
# - The paper's Figure 3 (c) is the second half of each run, after information peaks; with
#   training stopped at the best held-out accuracy, that half is short.
# - A network is read only once it passes the fit gate; this page's run is trained until it does
#   (`stop_at`), but only with a wider $\theta$ than the paper's. The committed runs in the
#   paper's setting do not pass, so the paper's dynamics claims cannot be tested here.
#
# ## Exercises
#
# **1. Where is the ceiling?** The joint estimate's ceiling is $\log n$. Predict the joint
# estimate (30 bins) of the untrained network's $\theta$ for the first 50 validation pairs, and
# for all of them with 2 bins per unit (the sign of each unit). Then compute both.

# %% tags=["hide-cell"]
# Solution: the two estimates for theta before training, beside their ceilings.
theta_start = run.val_theta[0]
fifty = stats.binned_mutual_information(theta_start[:50], bins=30)
signs = stats.binned_mutual_information(theta_start, bins=2)
n, units = theta_start.shape
display(pd.Series({"first 50 inputs, 30 bins": fifty, "log 50": np.log(50),
                   "all inputs, 2 bins": signs, f"log n (n = {n})": np.log(n)}).round(3)
        .to_frame("nats"))
at_ceiling = signs > np.log(n) - 1e-3
Markdown(f"For the first 50 inputs the estimate is {fifty:.2f} nats, against $\\log 50$ = "
         f"{np.log(50):.2f}: (almost) every one of 50 patterns is unique. With 2 bins a pattern "
         f"is the signs of the {units} units, $2^{{{units}}}$ possible patterns, and the estimate "
         f"for all {n} inputs is {signs:.2f} nats, against $\\log n$ = {np.log(n):.2f}: "
         + ("every input still has a sign pattern of its own, although the untrained network "
            "gives nearly the same θ to every input. " if at_ceiling else
            "the untrained network gives nearly the same θ to every input, so some inputs "
            "share all their signs; it stays far from 0, though. ")
         + "The ceiling problem is the number of units, not the number of bins.")

# %% [markdown]
# **2. The uninformative representation.** Predict the TRE (additive, cosine) of a
# representation that gives all 218 concepts the same random vector, then of one that gives
# each concept its own random vector. Compute both and compare with the untrained network.

# %% tags=["hide-cell"]
# Solution: two made-up representations of the probe concepts, fitted like the network's.
rng = np.random.default_rng(0)
derivations = run.probe_derivations
width = run.config.representation_size  # as wide as the network's theta
constant = np.tile(rng.normal(size=width), (len(derivations), 1))
independent = rng.normal(size=(len(derivations), width))
ex2 = pd.Series({
    "same vector for every concept": tre.tre(constant, derivations, "additive", "cosine",
                                             steps=settings["tre_steps"]).value,
    "a random vector per concept": tre.tre(independent, derivations, "additive", "cosine",
                                           steps=settings["tre_steps"]).value,
    "network before training": shown["tre"].iloc[0],
}).abs()  # abs: no "-0.000"
display(ex2.round(3).to_frame("TRE"))
Markdown(f"The constant representation has TRE {ex2.iloc[0]:.3f}: every primitive can be that "
         f"vector, and sums of it point the same way. Independent random vectors cannot be "
         f"rebuilt from parts: TRE {ex2.iloc[1]:.3f}. The untrained network, at "
         f"{ex2.iloc[2]:.3f}, is close to the constant: all its concepts look alike."
         + ("" if live_passed else " (The trained network of this page failed the fit gate, so "
            "its TRE is not compared here.)"))

# %% [markdown]
# **3. Does the per-unit estimate depend on the bins?** Recompute the mean per-unit entropy of
# this page's run, snapshot by snapshot, with 10 and with 100 bins per unit instead of 30.
# Predict first: does its curve keep its shape, and where are the ceilings?

# %% tags=["hide-cell"]
# Solution: the per-unit estimate with three bin widths (a property of the estimator on this
# run's theta, not a finding about the network).
by_bins = pd.DataFrame({bins: [dynamics.mean_unit_entropy(theta, bins=bins)
                               for theta in run.val_theta] for bins in (10, 30, 100)},
                       index=pd.Index(run.epochs, name="epoch"))
ex3 = pd.DataFrame({"before training (nats)": by_bins.iloc[0],
                    "last snapshot (nats)": by_bins.iloc[-1],
                    "ceiling log bins (nats)": np.log(by_bins.columns.to_numpy(float)),
                    "r with the 30-bin curve": by_bins.corr()[30]},
                   index=pd.Index(by_bins.columns, name="bins per unit"))
display(ex3.round(2))
Markdown("The shape survives; only the scale moves: "
         + "; ".join(f"with {bins} bins the estimate goes from {row.iloc[0]:.2f} to "
                     f"{row.iloc[1]:.2f} nats (ceiling {row.iloc[2]:.2f})"
                     for bins, row in ex3.iterrows())
         + f", and over the snapshots each curve correlates with the 30-bin one at r ≥ "
         f"{ex3['r with the 30-bin curve'].min():.2f}. More bins give every value more room and "
         "so higher numbers, but the estimate rises wherever the units spread their values, "
         "whatever the bin width.")
