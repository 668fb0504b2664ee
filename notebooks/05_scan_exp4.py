# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Beyond Experiment 3: new templates, and a new word in translation
#
# **What you will learn**
#
# - how the template and filler splits of {cite:t}`loula2018rearranging` hold out a
#   *combination* of familiar words rather than a word, and what that does to SCAN's networks;
# - how the last experiment of {cite:t}`lake2018generalization` (Exp. 4) asks the same question
#   of machine translation, on a generated stand-in for its corpus, and what the stand-in can
#   and cannot show.
#
# **What you need first**: {doc}`05_scan_exp3` (a new primitive, `jump`).

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
import pandas as pd
import torch
from IPython.display import Markdown, display

from tutorlib import fit, profiles
from tutorlib.scan import experiments as exps
from tutorlib.scan import report, translation
from tutorlib.plotting import PALETTE, glue_figure, use_book_style

use_book_style()
torch.set_num_threads(1)  # one thread: these networks are small (see Experiment 1)
settings = profiles.settings("scan", PROFILE)
committed = exps.committed_runs()  # the full profile's runs, committed in results/scan
facts = report.exp3_facts(committed, None, {}, settings, exps.describe(settings["architecture"]))

# %% [markdown]
# ## New templates and new fillers
#
# `jump` fails because the network never sees it inside any larger command. The template and
# filler splits keep every word familiar and hold out a combination instead. A *template* split
# removes a whole pattern from training: no `X around right` for any action X (or no
# `X opposite right`, or no `X right`), while the words appear in other patterns. A *filler*
# split holds out only `jump around right`; training has `around right` with none, one, two or
# all three of the other actions (look, walk, run), and `jump` in every other pattern.
# (`template_jump_around_right` is the three-filler case, `filler_num3`: the same split under
# two names, trained once.) A template split is two lines; here it is written out and checked
# against the package (a command with `turn around right` in it is in neither set):

# %%
pairs = exps.scan.all_pairs()
actions = ("walk", "look", "run", "jump")  # X: an action, not `turn`
held_out = [(c, a) for c, a in pairs  # an action around right, and no turn around right
            if any(f"{x} around right" in c for x in actions) and "turn around right" not in c]
kept = [(c, a) for c, a in pairs if "around right" not in c]  # no around right at all
package_train, package_test = exps.scan.split("template_around_right")
assert set(held_out) == set(package_test) and set(kept) == set(package_train)
pd.Series({"training commands": len(kept), "test commands": len(held_out),
           "a test command": held_out[0][0],
           "training commands with 'around'": sum("around" in c for c, _ in kept),
           "training commands with 'right'": sum("right" in c.split() for c, _ in kept)},
          name="template_around_right").to_frame()

# %% [markdown]
# Lake and Baroni did not run these splits, so there is no paper value beside ours; the runs
# are the full profile's overall-best network, trained as in Experiment 3, several seeds per
# split (the table's "seeds run" column counts those committed). No network is trained live
# here: each run takes many minutes on a core, and the committed ones fit their training
# commands (the last column).

# %%
loula_splits = report.LOULA_SPLITS
loula = exps.compare_with_paper(loula_splits).droplevel("network").drop(columns="published (%)")
spread = committed[committed["split"].isin(loula_splits)].groupby("split")["accuracy"].std()
loula["test accuracy, sd over seeds"] = 100 * spread.reindex(loula.index)
loula["test commands"] = [len(exps.scan.split(name)[1]) for name in loula.index]
loula.round(1)

# %% tags=["remove-output"]
fig, ax = plt.subplots(figsize=(8, 3.6))
done = loula[loula["seeds run"] > 0]
ax.bar(done.index, done["test accuracy (%)"], color=PALETTE[0],
       yerr=done["test accuracy, sd over seeds"].fillna(0), capsize=3)
bar_tops = done["test accuracy (%)"] + done["test accuracy, sd over seeds"].fillna(0)
for x, (name, row) in enumerate(done.iterrows()):
    ax.annotate(f"{row['test accuracy (%)']:.1f}\n({int(row['seeds run'])} seeds)",
                (x, bar_tops[name]), ha="center", va="bottom", fontsize=8,
                xytext=(0, 2), textcoords="offset points")
ax.set_ylabel("test accuracy (% exact match)")
ax.set_ylim(0, 118)
ax.tick_params(axis="x", rotation=30)
plt.setp(ax.get_xticklabels(), ha="right")
ax.set_title("Template and filler splits (full profile, committed runs)")
glue_figure("fig-05-loula", fig)

# %% [markdown]
# ```{glue:figure} fig-05-loula
# :name: fig-05-loula
#
# Test accuracy of the overall-best network on the template and filler splits, mean
# over the committed seeds (error bars: one standard deviation over seeds; splits with no
# committed run are left out). Compare the bars with the `turn left` and `jump` results of
# Experiment 3: is a new pattern harder than a new primitive, and how many fillers does
# `around right` need before `jump` can fill it?
# ```

# %% tags=["remove-input"]
Markdown(
    f"**What the runs show.** With no `X around right` in training, "
    f"{facts['exp3_template_around_right']}% of the test commands come out right; without "
    f"`X opposite right` {facts['exp3_template_opposite_right']}%, without `X right` "
    f"{facts['exp3_template_right']}%, although every network fits its training commands (at "
    f"least {facts['exp3_new_template_train_min']}%): the familiar words do not help when the "
    f"pattern that combines them is new. A new *filler* for a familiar pattern is a matter of "
    f"degree: with all three other actions in `around right` (`template_jump_around_right`), "
    f"{facts['exp3_template_jump_around_right']}% of the `jump around right` commands are right; "
    f"with two fillers {facts['exp3_filler_num2']}%, with one {facts['exp3_filler_num1']}%, and "
    f"with none {facts['exp3_filler_num0']}%. With one filler the seeds range from "
    f"{facts['exp3_filler_num1_min']}% to {facts['exp3_filler_num1_max']}%, with two from "
    f"{facts['exp3_filler_num2_min']}% to {facts['exp3_filler_num2_max']}%.")

# %% [markdown]
# ## Experiment 4: a new word in translation (a generated stand-in)
#
# The paper's last experiment leaves SCAN for machine translation. A network is trained on
# 10,000 English sentences beginning with "I am", "he is", "they are" and their contractions,
# with their French translations, plus the pair "I am daxy" → "je suis daxiste" repeated 1,000
# times, and is then asked for eight constructions it never saw with the new word: "you are
# daxy", "he is daxy", "I am not daxy", ..., "he is very daxy". The paper's network (an LSTM with
# attention, 2 layers of 400 units, dropout 0.05) got 1 of the 8 right, and 8 of 8 for the
# frequent adjective "tired".
#
# The paper's corpus cannot be downloaded here, so `tutorlib.scan.translation` **generates a
# stand-in**: sentences `SUBJECT [MODIFIER] ADJECTIVE [TAIL]` from three subjects, twelve
# modifiers ("not", "very", "never", ...), nine tails ("today", "at home", ...) and 100
# adjectives with their French, the adjectives drawn with Zipfian frequencies so that "tired" is
# common. The distinct sentences are split at random into training and test sentences; the
# eight test constructions, for "daxy" and for "tired", never occur in the corpus.

# %%
translation_settings = profiles.settings("scan_translation", PROFILE)
stand_in_train, stand_in_test = translation.corpus(translation_settings["corpus_seed"])
all_training = translation.training_pairs(translation_settings["corpus_seed"])
display(pd.DataFrame(stand_in_train[:6], columns=["English", "French"]))
pd.Series({"training pairs (with the copies of I am daxy)": len(all_training),
           "test pairs": len(stand_in_test),
           "training sentences with 'tired'": sum("tired" in e.split() for e, _ in stand_in_train),
           "training sentences with 'daxy'": sum("daxy" in e.split() for e, _ in all_training),
           "distinct sentences with 'daxy'": len({e for e, _ in all_training if "daxy" in e.split()})},
          name="the stand-in corpus").to_frame()

# %% [markdown]
# This page trains a small network of the same kind (an LSTM with attention, one layer) on it.
# First the fit gate: the test sentences are drawn like the training ones, so they are in
# distribution, and the paper gives no accuracy for them (the bar is 0.9):

# %% tags=["remove-stderr"]
live_translation = translation.run(translation.run_settings(translation_settings),
                                   translation_settings["seeds"][0])
gate = fit.live_fit(f"English-French stand-in, {exps.describe(translation_settings['architecture'])}, "
                    f"seed {translation_settings['seeds'][0]}",
                    live_translation["train"]["accuracy"], live_translation["test"]["accuracy"],
                    seconds=live_translation["train_seconds"])
fit.show_live_fits([gate])

# %% [markdown]
# and then the eight constructions, with the network's French:

# %%
def constructions_table(record: dict) -> pd.DataFrame:
    """The eight test sentences for daxy and for tired, the network's French, and whether it
    is exactly right."""
    rows = []
    for word in ("daxy", "tired"):
        scored = record[word]
        for english, predicted, ok in zip(scored["sentences"], scored["predictions"],
                                          scored["correct"]):
            rows.append({"adjective": word, "English": english, "network's French": predicted,
                         "right": "yes" if ok else "no"})
    return pd.DataFrame(rows)


display(constructions_table(live_translation))
Markdown(
    (f"The network translates {100 * live_translation['test']['accuracy']:.1f}% of the test "
     f"sentences exactly, and gets {live_translation['tired']['right']} of the 8 \"tired\" "
     f"constructions right and {live_translation['daxy']['right']} of the 8 \"daxy\" ones. "
     if gate["passes"] else
     "This network does not pass the fit gate, so its constructions are shown, not read: a "
     "network that has not learned the corpus says nothing about the new word. ")
    + "The full profile trains the paper's network (2 × 400 units, dropout 0.05) with five seeds:")

# %%
translation_runs = translation.committed_runs("full")
if len(translation_runs):
    display(report.translation_table(translation_runs).round(1))
else:
    print("No committed full-profile runs: python -m tutorlib run scan_translation --profile full")
full_facts = report.translation_facts(translation_runs)
test_share = ("all" if full_facts["exp4_full_test_min"] == "100.0"
              else f"at least {full_facts['exp4_full_test_min']}%")
Markdown(f"**What the runs show.** The paper's network, trained on the stand-in with "
         f"{full_facts['exp4_full_seeds']} seeds, translates {test_share} of the test sentences "
         f"and at least "
         f"{full_facts['exp4_full_tired_min']} of the 8 \"tired\" constructions; of the 8 \"daxy\" "
         f"constructions it gets {full_facts['exp4_full_daxy_range']} right (the paper: 1 of 8). "
         f"The constructions it misses most often: {full_facts['exp4_full_hardest']}.")

# %% [markdown]
# **A stand-in, not a replication.** The generated corpus is far more regular than real
# sentences: every sentence has the same frame, every adjective translates to one word, nothing
# agrees in gender or number, and no idiom breaks the pattern ("I am cold" is "j'ai froid" in
# real French). In real data the words around an adjective tell the network much less about how
# to translate a new one, and a new word's single context competes with thousands of irregular
# ones. What the stand-in does test is the paper's mechanism: the network has seen "daxy" in one
# sentence only, and must put "daxiste" where it puts other adjectives. Whatever it gets right
# here is an upper bound on what to expect from real data; what it gets wrong, it gets wrong on
# the easiest version of the task.
#
# ## Recap
#
# - A held-out *template* (`X around right`) fails like `jump`; a held-out *filler*
#   (`jump around right`) is mostly solved once the pattern has been seen with the other three
#   actions, and partly with one or two of them (the table above).
# - Experiment 4 asks the same question of translation: a word seen in one sentence, used in
#   eight new ones. On a generated stand-in, far more regular than real text, the paper's
#   network does better than on the paper's real corpus; the stand-in bounds what to expect.
#
# ## Exercises
#
# **1. Count before you train.** In `template_around_right`, how many training commands contain
# `around` and how many contain `right`? Predict whether the network has seen every word of
# `jump around right` in training, then check which of its two-word pieces (`jump around`,
# `around right`) occur in training commands.

# %% tags=["hide-cell"]
# Solution: every word occurs in training; the piece "around right" never does.
train, test = exps.scan.split("template_around_right")
pieces = {piece: sum(piece in c for c, _ in train) for piece in ["jump around", "around right",
                                                                  "around left", "jump"]}
display(pd.Series(pieces, name="training commands containing it").to_frame())
Markdown(f"Every word of `jump around right` is in training (`jump` in {pieces['jump']:,} "
         f"commands, `around` in {pieces['around left']:,} as `around left`), and `jump around` in "
         f"{pieces['jump around']:,}; only the piece `around right` never is ({pieces['around right']} "
         f"commands). What the split holds out is the combination.")

# %% [markdown]
# **2. How frequent is frequent?** The paper contrasts "daxy", seen in one sentence, with the
# frequent "tired". Predict how often "tired" occurs in the stand-in's training sentences and
# where it ranks among the 100 adjectives, then count.

# %% tags=["hide-cell"]
# Solution: count each adjective's training sentences (the adjective is the word after the
# subject and any modifier, so count every word that is one of the adjectives).
adjectives = {english for english, _ in translation.ADJECTIVES}
counts = pd.Series([w for e, _ in stand_in_train for w in e.split() if w in adjectives]).value_counts()
rank = list(counts.index).index("tired") + 1 if "tired" in counts.index else None
display(counts.head(8).rename("training sentences").to_frame())
Markdown(f"\"tired\" is in {counts.get('tired', 0):,} of the {len(stand_in_train):,} training sentences, "
         f"rank {rank} of the {len(counts)} adjectives that occur; the rarest occurs "
         f"{counts.min():,} times, and \"daxy\" is in one distinct sentence, repeated.")
