# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # PCFG SET: a data set built to test compositionality
#
# **What you will learn**
#
# - the PCFG SET language of {cite:t}`hupkes2020compositionality`: ten string-editing functions
#   in prefix notation, and what every input means (`interpret`);
# - how an input is taken apart into single-function steps ({term}`unrolling`, `unroll`), the basis of the
#   {term}`localism` test;
# - how the corpus is sampled and then shaped to the depth and length of the published one;
# - the splits of the five tests (systematicity, productivity, substitutivity, localism,
#   overgeneralisation), and how large each is.
#
# **What you need first**: what a compositional interpretation is
# ({doc}`../foundations/01_compositionality`); the SCAN chapters ({doc}`../scan/02_scan_task`)
# help, since the next chapter trains the same kind of sequence-to-sequence models.

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
from IPython.display import display
from myst_nb import glue

from tutorlib import pcfgset, profiles
from tutorlib.pcfgset import experiments as exps
from tutorlib.pcfgset import report
from tutorlib.plotting import glue_figure, use_book_style

use_book_style()
settings = profiles.settings("pcfgset", PROFILE)

# %% [markdown]
# ## Why an artificial data set?
#
# Whether a network generalises compositionally is hard to judge on natural language: we do not
# know the rules that produce its meanings, so we cannot say which test sentences need which
# rules. {cite:t}`hupkes2020compositionality` built a task in which we do. Its inputs are
# sequences of function names and strings; its outputs are what the functions compute. The
# interpretation is *fully* compositional: the meaning of an input is a function of the
# meanings of its parts and of how they are put together. The distribution of the inputs,
# though, is shaped to look like that of English sentences (their depth and length), so the
# task is not unnaturally easy or hard. Every one of the paper's five tests is then a
# particular way of splitting this corpus into training and test data.
#
# ## The language
#
# An input is a prefix expression without brackets. A string argument is a run of symbols
# (`A1` ... `Z20`, 520 of them); a function takes one argument (unary) or two (binary, the two
# separated by a comma):
#
# | unary | meaning | binary | meaning |
# |---|---|---|---|
# | `copy` | $x$ | `append` | $x + y$ |
# | `reverse` | $x$ reversed | `prepend` | $y + x$ |
# | `shift` | $x_2 \ldots x_n x_1$ | `remove_first` | $y$ |
# | `echo` | $x\,x_n$ | `remove_second` | $x$ |
# | `swap_first_last` | $x_n x_2 \ldots x_{n-1} x_1$ | | |
# | `repeat` | $x\,x$ | | |
#
# Because every function comes before its arguments, an input parses in exactly one way.
# `interpret` computes the output:

# %%
examples = ["swap_first_last shift reverse copy M2 H16 K3 Z20",
            "append A1 B2 , repeat C3 D4",
            "remove_first reverse E5 F6 G7 , echo H8 I9",
            "prepend swap_first_last J10 K11 L12 , shift M13 N14 O15"]
pd.DataFrame({"input": examples, "output": [" ".join(pcfgset.interpret(x)) for x in examples]})

# %% [markdown]
# A malformed input is an error that says what is wrong and where:

# %%
for bad in ["append A1 B2 C3", "reverse", "copy A1 , B2", "copy A1 jump"]:
    try:
        pcfgset.interpret(bad)
    except ValueError as error:
        print(f"{bad!r}: {error}")

# %% [markdown]
# The parse is a tree; `depth` counts the functions on its longest branch and
# `num_functions` all of them:

# %%
source = "remove_first reverse E5 F6 G7 , echo H8 I9"
print(pcfgset.parse(source))
print("depth", pcfgset.depth(pcfgset.parse(source)), "| functions", pcfgset.num_functions(source))

# %% [markdown]
# ### Unrolling an input
#
# The localism test asks whether a model computes the meaning of an input from the meanings
# of its parts. To check that, the input is *unrolled*: written as a sequence of
# single-function steps in post-order (the innermost functions first), each step referring to
# the output of an earlier one as `*k`. Computing the steps one at a time, each with the
# outputs of the earlier ones filled in, must give the output of the whole input:

# %%
source = "reverse shift append V12 P3 R9 J8 , repeat K19 C16 P13"
steps = pcfgset.unroll(source)
outputs = []
rows = []
for k, step in enumerate(steps, start=1):
    filled = pcfgset.substitute(step, outputs)
    outputs.append(" ".join(pcfgset.interpret(filled)))
    rows.append({"step": k, "unrolled": step, "with earlier outputs filled in": filled,
                 "output": outputs[-1]})
assert outputs[-1] == " ".join(pcfgset.interpret(source))
pd.DataFrame(rows).set_index("step")

# %% [markdown]
# ## The corpus
#
# The corpus is sampled from a probabilistic grammar: at each point, a unary or a binary
# function, and for each argument another function or a string of 2-5 symbols; no string
# argument occurs twice in the corpus. A *shaping* step then keeps inputs until each depth has
# its share of the published corpus's depth distribution, within the published ranges. The
# base corpus has as many pairs as the published one, split 85 / 5 / 10 percent:

# %%
corpus = pcfgset.base_corpus(exps.CORPUS_SEED)
sizes = pd.DataFrame({"pairs": [len(corpus.train), len(corpus.dev), len(corpus.test)]},
                     index=["train", "dev", "test"])
glue("corpus_pairs", f"{len(corpus.pairs):,}", display=False)
glue("base_train", f"{len(corpus.train):,}", display=False)
sizes

# %% [markdown]
# The published corpus's shape was measured on its dev set (4,860 inputs); we measure ours on
# our dev set, the same size. Depth first:

# %% tags=["remove-output"]
ours = pcfgset.statistics(corpus.dev)
published = pcfgset.PUBLISHED_STATISTICS
depth = pd.DataFrame({"ours": ours.fractions("depth", top=11),
                      "published": published["depth"]["fractions"]}).fillna(0.0)
glue("depth_gap", f"{100 * (depth['ours'] - depth['published']).abs().max():.1f} points",
     display=False)

fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
x = depth.index.to_numpy()
axes[0].bar(x - 0.2, depth["ours"], width=0.4, label="ours (dev set)")
axes[0].bar(x + 0.2, depth["published"], width=0.4, label="published (dev set)")
axes[0].set_xticks(x, [str(d) if d < 11 else "11+" for d in x])
axes[0].set_xlabel("depth (functions on the longest branch)")
axes[0].set_ylabel("fraction of inputs")
axes[0].set_title("Depth")
axes[0].legend()
lengths = pd.Series(ours.fractions("input_length"))
axes[1].bar(lengths.index, lengths.values, width=1.0, color="#0072B2")
for name, style in [("median", "--"), ("mean", ":")]:
    axes[1].axvline(published["input_length"][name], color="#D55E00", linestyle=style,
                    label=f"published {name} ({published['input_length'][name]})")
axes[1].set_xlabel("input length (tokens)")
axes[1].set_ylabel("fraction of inputs")
axes[1].set_title("Input length (ours)")
axes[1].legend()
fig.suptitle("The shape of the corpus beside the published one")
fig.tight_layout()
glue_figure("fig-11-corpus-shape", fig)

# %% [markdown]
# ```{glue:figure} fig-11-corpus-shape
# :name: fig-11-corpus-shape
#
# Left: the fraction of inputs of each depth in our dev set and in the published
# dev set (11+ pools depths 11 to 17). Right: the distribution of input lengths in our dev set,
# with the published median and mean marked.
# ```
#
# The shaping step fills each depth's quota of the whole corpus; the dev set is a random 5%
# of it, so its fractions differ from the published ones by sampling noise only (the small
# gaps on the left, {glue:text}`depth_gap` at most). The lengths are not forced; they come out
# like the published ones because of the sampler's settings:

# %%
rows = []
for name in ["input_length", "num_functions", "output_length"]:
    mine, theirs = ours.summary(name), published[name]
    rows.append({"property": name.replace("_", " "),
                 **{f"{k} (ours)": round(mine[k], 1) for k in ("min", "median", "mean", "max")},
                 **{f"{k} (published)": "not reported" if theirs.get(k) is None
                    else round(theirs[k], 1) for k in ("min", "median", "mean", "max")}})
shape = pd.DataFrame(rows).set_index("property")
glue("median_input_length", f"{ours.summary('input_length')['median']:g}", display=False)
glue("mean_input_length", f"{ours.summary('input_length')['mean']:.1f}", display=False)
glue("median_functions", f"{ours.summary('num_functions')['median']:g}", display=False)
shape

# %%
string_lengths = pd.DataFrame({
    "ours": ours.fractions("string_argument_length"),
    "published": published["string_argument_length"]["fractions"]})
string_lengths.index.name = "string argument length"
string_lengths.round(2)

# %% [markdown]
# Our dev set's inputs have a median length of {glue:text}`median_input_length` tokens (mean
# {glue:text}`mean_input_length`; published: 16 and 18.5) and a median of
# {glue:text}`median_functions` functions (published: 4); output lengths and string arguments
# follow the published shape as closely. (The published figures are those measured on the
# published dev set for this project.)
#
# ## The splits of the five tests
#
# Every test is a split of the same corpus (`pcfgset.split(name)`):
#
# - **systematicity**: can a model combine known functions in combinations it never saw? The
#   four adjacent pairs `swap_first_last repeat`, `append remove_second`, `repeat
#   remove_second` and `append swap_first_last` never occur in training; every test input
#   has at least one.
# - **productivity**: can it handle inputs longer than any it was trained on? Training inputs
#   have at most 8 functions, test inputs 9 or more.
# - **substitutivity**: does a synonym change the prediction? `append`, `swap_first_last`,
#   `repeat` and `remove_second` get twins (`append_twin`, ...) with the same meaning. In the
#   *equally distributed* condition half of their occurrences in training are replaced; in the
#   *primitive* condition the twins appear only in single-function inputs. A test input is
#   scored beside its twin (every occurrence of the function replaced).
# - **localism**: the base corpus; the test inputs are unrolled as above.
# - **overgeneralisation**: four adjacent pairs (`reverse echo`, `prepend reverse`,
#   `echo remove_first`, `prepend remove_first`) take an exceptional meaning in a few training
#   inputs, at a ratio of 0.01% to 0.5% of the rarer function's occurrences. Does the model
#   first apply the rule to them, and when does it learn the exception?

# %%
split_rows = []
for name in pcfgset.split_names():
    train, test = pcfgset.split(name, seed=exps.CORPUS_SEED)
    split_rows.append({"split": name, "training pairs": len(train), "test pairs": len(test)})
splits = pd.DataFrame(split_rows).set_index("split")
glue("systematicity_test", f"{splits.loc['systematicity', 'test pairs']:,}", display=False)
glue("productivity_test", f"{splits.loc['productivity', 'test pairs']:,}", display=False)
glue("exceptions_001", f"{splits.loc['overgeneralisation_0.001', 'test pairs']:,}", display=False)
splits

# %% [markdown]
# *Table 1.* The splits and their sizes. For substitutivity the test pairs are the originals
# (each has a twin); for overgeneralisation they are the exceptions in training, which are
# watched during training rather than tested afterwards.
#
# The sizes differ from the base corpus's {glue:text}`base_train` training pairs for a
# reason. Systematicity and productivity are drawn from the *whole* corpus
# ({glue:text}`corpus_pairs` pairs, its dev and test parts included): every pair whose input
# has a held-out pair (or more than 8 functions) is a test pair, and every other pair trains, so
# their training sets are larger than the base one. Overgeneralisation starts from the base
# training set and removes every input that contains one of its four exceptional pairs, before
# putting the few exceptions back, so its training set is smaller.
#
# The systematicity test has {glue:text}`systematicity_test` inputs and the productivity test
# {glue:text}`productivity_test`; at the ratio 0.1% there are {glue:text}`exceptions_001`
# exceptions among the training pairs. Some examples:

# %%
sub = pcfgset.substitutivity_split("equally_distributed", seed=exps.CORPUS_SEED)
over = pcfgset.overgeneralisation_split(0.001, seed=exps.CORPUS_SEED)
_, systematic_test = pcfgset.split("systematicity")
_, productive_test = pcfgset.split("productivity")
display_rows = [
    ("systematicity test", systematic_test[0][0], systematic_test[0][1]),
    ("productivity test", productive_test[0][0], productive_test[0][1]),
    ("substitutivity test", sub.test[0][0], sub.test[0][1]),
    ("... its twin", sub.test_twin[0][0], sub.test_twin[0][1]),
    ("overgeneralisation exception", over.exceptions[0][0], over.exceptions[0][1]),
    ("... the rule's output", over.originals[0][0], over.originals[0][1]),
]
with pd.option_context("display.max_colwidth", None):
    display(pd.DataFrame(display_rows, columns=["kind", "input", "output"]).set_index("kind"))

# %% [markdown]
# ## What the next chapter trains on
#
# On the whole task a small network learns nothing in the minutes a chapter has, and even our
# largest CPU runs do not learn it (the next chapter shows how far they get). So both profiles
# the book reads train on a *reduced* task. The quicker profiles train a small network for a
# few seconds on a seeded subset of each split's training pairs, only inputs with few
# functions and short outputs (greedy decoding of long outputs is also what costs time on a
# CPU), with the 520 symbols folded onto fewer (`M17` becomes `M1` with 26 symbols). The
# {term}`full profile` (`full`: our large runs, executed from the command line) builds every
# split on a smaller corpus from the same sampler (inputs of at most 3 functions, outputs of at
# most 24 symbols, 58,000 pairs; productivity tested on new inputs of 4 and 5 functions) and
# trains all three architectures until they pass the book's fit gate. Folding keeps every pair
# correct, since every function only rearranges its arguments' symbols, and every split keeps
# its meaning. The profile this chapter was executed with, beside the full profile and the
# paper:

# %%
example = "append M17 B2 , reverse C13 D4"
glue("fold_example", exps.fold_symbols(example, 26), display=False)
with pd.option_context("display.max_colwidth", None):
    display(report.setting_table(settings, profiles.settings("pcfgset", "full"), PROFILE))

# %% [markdown]
# Folded onto 26 symbols, `append M17 B2 , reverse C13 D4` reads
# {glue:text}`fold_example`. The next chapter says at each result which setting it comes
# from.

# %% [markdown]
# ## Recap
#
# - PCFG SET's inputs are prefix expressions over ten string functions; `interpret` gives
#   their outputs, and `unroll` the single-function steps the localism test feeds a model.
# - Our corpus of {glue:text}`corpus_pairs` pairs is sampled from a grammar and shaped to the
#   published corpus's depth distribution; its lengths come out like the published ones.
# - Each of the five tests is a split of this corpus: held-out adjacent pairs
#   (systematicity), more functions (productivity), synonyms (substitutivity), unrolled inputs
#   (localism), and rare exceptions (overgeneralisation).
#
# ## Exercises
#
# **1. Interpret by hand.** Predict the output of
# `prepend repeat A1 B2 , swap_first_last C3 D4 E5`, then check it with `interpret` and with
# the unrolled steps.

# %% tags=["hide-cell"]
# Solution: repeat A1 B2 = A1 B2 A1 B2; swap_first_last C3 D4 E5 = E5 D4 C3;
# prepend(x, y) = y + x, so the output is E5 D4 C3 A1 B2 A1 B2.
exercise = "prepend repeat A1 B2 , swap_first_last C3 D4 E5"
print(" ".join(pcfgset.interpret(exercise)))
print(pcfgset.unroll(exercise))

# %% [markdown]
# **2. The whole corpus.** We compared dev sets. Predict whether the training set's median
# input length differs from the dev set's, then compute it.

# %% tags=["hide-cell"]
# Solution: the splits are random, so the shape is the same up to sampling noise.
whole = pcfgset.statistics(corpus.train[:20_000])
pd.DataFrame({"dev": ours.summary("input_length"),
              "train (first 20,000)": whole.summary("input_length")}).round(2)

# %% [markdown]
# **3. Which held-out pair?** Every systematicity test input has at least one of the four
# held-out pairs. Predict which pair is the most common, then count them.

# %% tags=["hide-cell"]
# Solution: count the inputs that contain each pair (an input may contain several), beside how
# often each function occurs in the corpus and how many arguments the two take. The four
# functions occur about equally often, so their frequencies do not explain the order (the
# pair with the largest product of frequencies is the rarest). What differs is the number of
# two-argument functions in the pair: the fewer, the more common the pair. Each two-argument
# function brings a whole second argument, which makes an input longer and deeper, and the
# corpus is shaped to the published depths and lengths.
from collections import Counter

counts = Counter(pair for source, _ in systematic_test
                 for pair in pcfgset.HELD_OUT_PAIRS if f" {pair[0]} {pair[1]} " in f" {source} ")
uses = Counter(token for source, _ in corpus.pairs for token in source.split())
pd.DataFrame([{"pair": " ".join(pair), "test inputs": counts[pair],
               "uses of each function": f"{uses[pair[0]]:,} / {uses[pair[1]]:,}",
               "frequency product (millions)": round(uses[pair[0]] * uses[pair[1]] / 1e6, 1),
               "two-argument functions": sum(f in pcfgset.BINARY for f in pair)}
              for pair in pcfgset.HELD_OUT_PAIRS]).sort_values("test inputs", ascending=False)
