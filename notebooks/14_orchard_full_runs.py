# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # ORCHARD: the full runs in detail
#
# The appendix of the ORCHARD part: every committed run of the gpu and full profiles, seed by
# seed, what produced them, every difference between our setting and the paper's, and how the
# runs were sized. The chapter ({doc}`14_orchard`) reads these runs in summary, only where they
# pass the fit gate; the claims page ({doc}`../backmatter/16_claims`) gives the verdicts.
# Nothing is trained here.

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
from tutorlib.orchard import experiments as exps
from tutorlib.orchard import report
from tutorlib.plotting import glue_figure, use_book_style

use_book_style()
by_profile = report.committed_by_profile()
pd.DataFrame({profile: {key: results.committed("orchard", profile)["provenance"].get(key)
                        for key in ("command", "date", "tutorlib_version", "git_commit")}
              | {"wall time (hours)": round(
                  results.committed("orchard", profile)["provenance"]["wall_time_seconds"] / 3600, 1),
                 "runs committed": len(records),
                 "runs planned": len(exps.runs(profiles.settings("orchard", profile)))}
              for profile, records in by_profile.items()})

# %% [markdown]
# ## Every run
#
# One row per committed run: its profile, variant, model and seed, the depths it trained on, the
# trees its training stopped on ("gate on"), its accuracy on each tree of its own training
# examples and of validation examples of its training depths, at depth 6 and at depth 12, its
# training minutes and epochs, and whether it passes the fit gate on each tree. A run that does
# not pass on a tree is shown here, and never read as a finding about that tree.

# %%
rows = []
for profile, records in by_profile.items():
    for r in records:
        rows.append({
            "profile": profile, "variant": r["variant"], "model": r["model"], "seed": r["seed"],
            "training depths": "-".join(map(str, report.train_depths(r))),
            "gate on": report.gate_tree(r),
            **{f"{part}, {tree} (%)": 100 * r[part][tree]
               for part in ("train", "valid") for tree in ("first", "second")},
            **{f"depth {d}, {tree} (%)": 100 * r["by_depth"][str(d)][tree]
               for d in (6, 12) for tree in ("first", "second")},
            "minutes": r["train_seconds"] / 60, "epochs": float(r["epochs"]),
            "fits first": report.fits(r, "first"), "fits second": report.fits(r, "second")})
every = pd.DataFrame(rows).set_index(["profile", "variant", "model", "seed"]).sort_index()
with pd.option_context("display.max_rows", 100, "display.max_columns", 30):
    display(every.round(1))
Markdown(f"{int(every['fits first'].sum())} of the {len(every)} committed runs pass the fit gate on "
         f"the first tree and {int(every['fits second'].sum())} on the second.")

# %% [markdown]
# ## Each profile's fit
#
# Per profile, variant and model: the mean accuracy over seeds on each tree of training and
# validation examples, the trees the runs were trained to fit, the lowest fit on those trees
# among the runs, and how many runs fit them.

# %%
report.fit_table(by_profile).round(1)

# %% [markdown]
# ## Where our setting differs from the paper
#
# The paper trains for 18 hours on four GPUs {cite:p}`pung2021orchard`; the full profile must
# run on one CPU core. Every difference between the two (the gpu profile's networks are in the
# chapter):

# %%
full_settings = profiles.settings("orchard", "full")
report.setting_table(full_settings)

# %% [markdown]
# Besides the table: our data come from our reimplementation of the release's generator
# (`tutorlib.orchard`, which draws trees conditioned on their depth instead of by rejection),
# one data set per variant for every seed; the models are `tutorlib.seq2seq`'s, not fairseq's.

# %% tags=["remove-input"]
paper = exps.PAPER["training"]
full_records = by_profile["full"]
parameters = {m: next(r["parameters"] for r in full_records if r["model"] == m) for m in exps.MODELS}
most = max(r["presentations"] for r in full_records)
Markdown(f"The full profile's LSTM has {100 * parameters['lstm'] / paper['lstm_parameters']:.1f}% of "
         f"the paper's LSTM's parameters and its Transformer "
         f"{100 * parameters['transformer'] / paper['transformer_parameters']:.1f}% of the paper's; "
         f"its runs see at least {paper['examples'] * paper['epochs'] / most:,.0f} times fewer "
         f"training examples than the paper's {paper['epochs']} epochs of "
         f"{paper['examples']:,}, on shallower trees.")

# %% [markdown]
# ## How the runs were sized: the GPU and one core
#
# The gpu profile's runs came from several short calls to a lent GPU
# (`results/orchard/gpu-sweeps.json` keeps what the first two left besides their records):

# %% tags=["remove-input"]
sweeps = report.gpu_sweeps()
if sweeps:
    first, second = sweeps["sweep_1"], sweeps["sweep_2"]
    memory = first["memory_per_process_gib"]
    text = (f"In the first call, with {first['processes']} runs at once, {first['failed_runs']} ran "
            f"out of the GPU's memory (each process held {memory['min']:.1f}-{memory['max']:.1f} "
            f"GiB). In the second, the {second['processes']} Transformer runs alone trained at "
            f"about {second['pairs_per_second_per_run']:,} training pairs a second each and "
            f"{second['finished_runs']} finished: {second['why']}. Later calls finished the runs "
            f"above, fewer at a time.")
else:
    text = "No record of the GPU calls is committed."
Markdown(text)

# %% [markdown]
# Can one CPU core train both models to fit a hard variant? The gpu profile's recipe, scaled
# down (an LSTM of 1 × 128 with attention and a pre-LN Transformer of 2 × 128, 40,000 training
# examples of minmax_hard), trained on one thread each with a fixed budget of time
# (`benchmarks/orchard_pilot.py`, committed to `results/orchard/pilot-cpu*.json`):

# %% tags=["remove-output"]
pilots = report.cpu_pilots()
fig = report.plot_pilot_curves(pilots, "Fit over training on one CPU core (minmax_hard)")
glue_figure("fig-14-pilots", fig)

# %% [markdown]
# ```{glue:figure} fig-14-pilots
# :name: fig-14-pilots
#
# The CPU pilots of the gpu profile's recipe: the share of training examples (faint) and of
# validation examples of depths 3 to 6 (solid) with both trees right, over the minutes trained
# (dotted: 90%).
# ```
#
# Each pilot's accuracy per tree on training and validation examples and at depth 12:

# %%
pilot_table = report.pilot_table(pilots)
display(pilot_table.set_index(["budget", "model"]).drop(columns="variant").round(1))
longest = list(pilots)[-1] if pilots else None
fitted = [r for r in pilots[longest].values() if report.fits(r)] if longest else []
Markdown(f"After {longest} on one core, {len(fitted)} of the {len(pilots[longest])} pilots fit both "
         f"trees of `minmax_hard` at depths 3 to 6." if longest else "No CPU pilot is committed.")

# %% [markdown]
# How long does each model need on one core to learn an easier variant, or shallower trees? The
# same scaled-down recipe on other variants, some trained on trees of depth 3 to 4 only, and
# some stopped as soon as their first tree passes the gate (`pilot-cpu-easy.json`,
# `pilot-cpu-warmup.json`, `pilot-cpu-shallow.json`): per run, the depths it trained on, its
# warm-up, the trees its gate reads, the seconds of training until it first passed the gate (or
# the budget it had), the epochs it trained, its own checks of each tree at the end, and whether
# it passes. This is what sized the full profile: depths 3 to 4, the first tree only.

# %%
time_to_fit = report.time_to_fit()
copy = time_to_fit[~time_to_fit["variant"].str.endswith("_easy")]
both_fit = copy[(copy["gate on"] == "both") & copy["fits"]]
display(time_to_fit)
Markdown(f"Of the {len(copy)} pilots on a variant with `COPY`, {len(both_fit)} fitted both trees "
         "within its budget.")
