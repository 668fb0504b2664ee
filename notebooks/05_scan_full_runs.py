# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # SCAN: the full runs in detail
#
# The appendix of the SCAN part: every committed full-profile run, seed by seed, what produced
# it, and how the two ways of training compare on every split. The chapters read these runs in
# summary ({doc}`03_scan_exp1`, {doc}`04_scan_exp2`, {doc}`05_scan_exp3`,
# {doc}`05_scan_exp4`); the claims page ({doc}`../backmatter/16_claims`) gives the verdicts.
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

from tutorlib import fit, results
from tutorlib.scan import experiments as exps

committed = exps.committed_runs()  # batched, the full profile's recipe
per_example = exps.committed_runs(training="per_example")  # the paper's own training
provenance = results.committed("scan", "full")["provenance"]
pd.Series({k: provenance[k] for k in ("command", "date", "tutorlib_version", "git_commit",
                                      "cpu_count", "seeds")}
          | {"wall time (hours)": round(provenance["wall_time_seconds"] / 3600, 1),
             "runs (batched)": len(committed), "runs (one example an update)": len(per_example)},
          name="results/scan/full.json").to_frame()

# %% [markdown]
# ## Every run
#
# One row per committed run: the split, the network (the paper's overall-best LSTM, or the
# paper's best network for an experiment), how it was trained, its seed, its accuracy on its
# own training commands and on the test commands, with oracle lengths where the split asks for
# them, and its training minutes. The last column is the fit gate's verdict on the run (the
# test commands of the random splits are in distribution, so there the gate also reads the test
# accuracy against the paper's own minus 5 points).

# %%
every = pd.concat([committed, per_example], ignore_index=True)
every["passes the gate"] = exps.passes_gate(every)
table = every.assign(**{"training accuracy (%)": 100 * every["train_accuracy"],
                        "test accuracy (%)": 100 * every["accuracy"],
                        "oracle-length accuracy (%)": 100 * every["oracle_accuracy"],
                        "training minutes": every["train_seconds"] / 60})
with pd.option_context("display.max_rows", 200):
    display(table.set_index(["split", "network", "training", "seed"])[
        ["training accuracy (%)", "test accuracy (%)", "oracle-length accuracy (%)",
         "training minutes", "passes the gate"]].sort_index().round(2))
failed = every[~every["passes the gate"]]
Markdown(f"{len(every) - len(failed)} of the {len(every)} committed runs pass the fit gate"
         + (": every one." if failed.empty else
            "; those that do not: " + ", ".join(f"{r['split']} ({r['network']}, {r['training']}, "
                                                f"seed {r['seed']})" for _, r in failed.iterrows())
            + ". Their numbers are shown here, not read as findings: on the random splits the "
              "in-distribution bar is the paper's own accuracy minus 5 points."))

# %% [markdown]
# ## Batched against one example an update, split by split
#
# Every split the full profile trains both ways, beside the published means: seeds run of
# those planned, the training and test accuracy (means over seeds).

# %%
splits = list(dict.fromkeys(per_example["split"]))
with pd.option_context("display.max_rows", 100):
    display(exps.compare_trainings(splits).round(2))

# %% [markdown]
# The fit gate used above is `tutorlib.fit`'s, the book's one definition; the paper's own
# accuracy on a random split sets its in-distribution bar there:

# %%
pd.Series({"training accuracy at least": fit.TRAINING,
           "in distribution: the paper's accuracy minus": fit.MARGIN,
           "in distribution where the paper gives none": fit.IN_DISTRIBUTION},
          name="the fit gate").to_frame()
