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
#   in prefix notation, and the code that gives every input its meaning (`apply`, `evaluate`);
# - how an input is taken apart into single-function steps ({term}`unrolling`, `unroll`), the basis of the
#   {term}`localism` test;
# - how the corpus is sampled and then shaped to the depth and length of the published one;
# - what each of the five tests (systematicity, productivity, substitutivity, localism,
#   overgeneralisation) does to the corpus, and how large its data are.
#
# **What you need first**: what a compositional interpretation is
# ({doc}`../foundations/01_compositionality`); the SCAN chapters ({doc}`../scan/02_scan_task`)
# help, since the next chapter reads the same kind of sequence-to-sequence models. This
# chapter trains no network.

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
from collections import Counter

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown, display

from tutorlib import pcfgset, profiles, stats
from tutorlib.pcfgset import experiments as exps
from tutorlib.pcfgset import language
from tutorlib.pcfgset import report
from tutorlib.plotting import PALETTE, glue_figure, use_book_style

use_book_style()
settings = profiles.settings("pcfgset", PROFILE)


def code_of(function, start: str | None = None) -> str:
    """The source of ``function`` without its docstring; with ``start``, its first line and then
    only the lines from the first one that begins with ``start`` (what comes before is checks)."""
    head, _, rest = inspect.getsource(function).partition('    """')
    body = rest.partition('"""\n')[2]
    if start is not None:
        skipped = body[:body.index(start)].count("\n")
        body = f"    ...  # {skipped} lines that check the arguments\n" + body[body.index(start):]
    return head + body


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
# task is not unnaturally easy or hard. The paper's five tests are all built on this one
# corpus, in three ways: two redistribute its pairs between training and test (systematicity,
# productivity), two change its training data (synonyms for substitutivity, exceptions for
# overgeneralisation), and localism keeps the ordinary split but feeds each test input to the
# model a second time, unrolled into steps, to compare the two answers.
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
# In code, a string value is a tuple of symbols, and each function is one line of `apply`:

# %%
print(code_of(language.apply, start="    if function in UNARY"))

# %% [markdown]
# Because every function comes before its arguments, an input parses in exactly one way, into
# a tree (`parse`). Its meaning is computed bottom-up: the value of a function's node is `apply`
# of the values of its children. That recursion is the whole interpreter; the branch on
# `exceptions` is used only by the overgeneralisation test, below:

# %%
print(code_of(language.evaluate))

# %% [markdown]
# `interpret` parses an input string and evaluates it:

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
# `depth` counts the functions on the tree's longest branch and `num_functions` all of them:

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
# the output of an earlier one as `*k`. `unroll` visits the tree and writes a step as it
# leaves each function's node:

# %%
print(code_of(language.unroll))

# %% [markdown]
# Computing the steps one at a time, each with the outputs of the earlier ones filled in
# (`substitute`), must give the output of the whole input:

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
# In the localism test a model, not `interpret`, computes each step; the test asks whether its
# answer for the whole input equals what it reaches step by step.
#
# ## The corpus
#
# The corpus is sampled from a probabilistic grammar: at each point, a unary or a binary
# function, and for each argument another function or a string of 2-5 symbols; no string
# argument occurs twice in the corpus. A *shaping* step then keeps inputs until each depth has
# its share of the published corpus's depth distribution, within the published ranges. The
# paper's corpus has "around 100 thousand" pairs, split 85 / 5 / 10 percent into training,
# validation and test {cite:p}`hupkes2020compositionality`; ours has as many pairs as the
# published release:

# %% tags=["remove-input"]
corpus = pcfgset.base_corpus(exps.CORPUS_SEED)
parts = {"training": corpus.train, "dev": corpus.dev, "test": corpus.test}
Markdown(f"Our base corpus has {len(corpus.pairs):,} pairs: "
         + ", ".join(f"{len(pairs):,} for {name} ({100 * len(pairs) / len(corpus.pairs):.0f}%)"
                     for name, pairs in parts.items()) + ".")

# %% [markdown]
# The published corpus's shape was measured on the release's dev set; we measure ours on our
# dev set, the same size. Depth first:

# %% tags=["remove-output"]
ours = pcfgset.statistics(corpus.dev)
published = pcfgset.PUBLISHED_STATISTICS
depth = pd.DataFrame({"ours": ours.fractions("depth", top=11),
                      "published": published["depth"]["fractions"]}).fillna(0.0)

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
axes[1].bar(lengths.index, lengths.values, width=1.0, color=PALETTE[0])
for name, style in [("median", "--"), ("mean", ":")]:
    axes[1].axvline(published["input_length"][name], color=PALETTE[3], linestyle=style,
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

# %% [markdown]
# The shaping step fills each depth's quota of the whole corpus; the dev set is a random 5% of
# it, so its fractions in {numref}`fig-11-corpus-shape` (left) differ from the published ones by
# sampling noise only.

# %% tags=["remove-input"]
gap = (depth["ours"] - depth["published"]).abs()
Markdown(f"The largest gap is {100 * gap.max():.1f} percentage points, at depth "
         f"{'11+' if gap.idxmax() == 11 else gap.idxmax()}, on a dev set of "
         f"{len(corpus.dev):,} inputs.")

# %% [markdown]
# The lengths are not forced; they come out like the published ones because of the sampler's
# settings (Table 1 and Table 2):

# %%
rows = []
for name in ["input_length", "num_functions", "output_length"]:
    mine, theirs = ours.summary(name), published[name]
    rows.append({"property": name.replace("_", " "),
                 **{f"{k} (ours)": round(mine[k], 1) for k in ("min", "median", "mean", "max")},
                 **{f"{k} (published)": "not reported" if theirs.get(k) is None
                    else round(theirs[k], 1) for k in ("min", "median", "mean", "max")}})
shape = pd.DataFrame(rows).set_index("property")
shape

# %% [markdown]
# *Table 1.* Lengths in tokens and numbers of functions of our dev set's inputs and outputs,
# beside the published dev set's (measured on the release for this project; "not reported":
# not measured there).

# %%
string_lengths = pd.DataFrame({
    "ours": ours.fractions("string_argument_length"),
    "published": published["string_argument_length"]["fractions"]})
string_lengths.index.name = "string argument length"
string_lengths.round(2)

# %% [markdown]
# *Table 2.* The share of string arguments of each length.

# %% tags=["remove-input"]
mine = {name: ours.summary(name) for name in ("input_length", "num_functions")}
Markdown(f"Our dev set's inputs have a median length of {mine['input_length']['median']:g} "
         f"tokens (mean {mine['input_length']['mean']:.1f}; published: "
         f"{published['input_length']['median']:g} and {published['input_length']['mean']:g}) and "
         f"a median of {mine['num_functions']['median']:g} functions (published: "
         f"{published['num_functions']['median']:g}); output lengths and string arguments follow "
         f"the published shape as closely.")

# %% [markdown]
# ## The five tests
#
# Each test is built on this corpus (`pcfgset.split(name)` gives its training and test pairs):
#
# - **systematicity**: can a model combine known functions in combinations it never saw? The
#   four adjacent pairs `swap_first_last repeat`, `append remove_second`, `repeat
#   remove_second` and `append swap_first_last` never occur in training; every test input
#   has at least one. A new split of the whole corpus.
# - **productivity**: can it handle inputs longer than any it was trained on? Training inputs
#   have at most 8 functions, test inputs 9 or more. A new split of the whole corpus.
# - **substitutivity**: does a synonym change the prediction? `append`, `swap_first_last`,
#   `repeat` and `remove_second` get twins (`append_twin`, ...) with the same meaning. In the
#   *equally distributed* condition half of their occurrences in training are replaced; in the
#   *primitive* condition the twins appear only in single-function inputs. A test input is
#   scored beside its twin (every occurrence of the function replaced). New training data.
# - **localism**: the base split, unchanged. What changes is the test: each test input is also
#   fed to the model unrolled, one step at a time as above, each step with the model's own
#   answers to the earlier steps filled in, and the two final answers are compared.
# - **overgeneralisation**: four adjacent pairs (`reverse echo`, `prepend reverse`,
#   `echo remove_first`, `prepend remove_first`) take an exceptional meaning in a few training
#   inputs, at a ratio of 0.01% to 0.5% of the rarer function's occurrences. Does the model
#   first apply the rule to them, and when does it learn the exception? New training data.

# %%
split_rows = []
for name in pcfgset.split_names():
    train, test = pcfgset.split(name, seed=exps.CORPUS_SEED)
    split_rows.append({"test": name, "training pairs": len(train), "test pairs": len(test)})
splits = pd.DataFrame(split_rows).set_index("test")
splits

# %% [markdown]
# *Table 3.* Each test's data and their sizes (`pcfgset` is the base split). For substitutivity
# the test pairs are the originals (each has a twin); for localism they are the base test
# pairs, each unrolled; for overgeneralisation they are the exceptions in training, which are
# watched during training rather than tested afterwards.

# %% tags=["remove-input"]
size = splits["training pairs"]
Markdown(
    f"The training sets differ from the base one ({size['pcfgset']:,} pairs) for a reason. "
    f"Systematicity and productivity are drawn from the *whole* corpus ({len(corpus.pairs):,} "
    f"pairs, its dev and test parts included): every pair whose input has a held-out pair (or "
    f"more than 8 functions) is a test pair, and every other pair trains, so their training sets "
    f"are larger ({size['systematicity']:,} and {size['productivity']:,}). Overgeneralisation "
    f"starts from the base training set and removes every input that contains one of its four "
    f"exceptional pairs before putting the few exceptions back, so its training set is smaller "
    f"({size['overgeneralisation_0.001']:,} at the ratio 0.1%, with "
    f"{splits.loc['overgeneralisation_0.001', 'test pairs']:,} exceptions among them). The "
    f"systematicity test has {splits.loc['systematicity', 'test pairs']:,} inputs and the "
    f"productivity test {splits.loc['productivity', 'test pairs']:,}. Some examples:")

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
# PCFG SET has four {term}`profiles <profile>`, one more than most experiments of the book.
# On the whole task a small network learns nothing in the minutes a chapter has, and the next
# chapter trains no network: it reads the paper's released outputs and our committed runs. Its
# findings rest on the {term}`full profile` (our large CPU runs of all three architectures,
# executed from the command line), which trains on a *reduced* task: every test is built on a
# smaller corpus from the same sampler, with few functions per input and short outputs (greedy
# decoding of long outputs is also what costs time on a CPU), the 520 symbols are folded onto
# fewer (`M17` becomes `M1` with 26 symbols), and each network trains until it passes the book's
# fit gate. Folding keeps every pair correct, since every function only rearranges its
# arguments' symbols, and every test keeps its meaning. The {term}`gpu profile <gpu profile>`
# tries the whole task with larger networks on a lent GPU. The **tutorial** and **ci** profiles
# are small versions of the same runs (`python -m tutorlib run pcfgset --profile tutorial`; ci
# only checks that every line runs, for `make test`), reduced like the full profile but on a
# sample of the paper's corpus. Table 4 sets the four side by side with
# the paper:

# %%
PURPOSE = {"ci": "checks that every line runs (make test)",
           "tutorial": "a quick run on a laptop (command line)",
           "full": "our large CPU runs (committed)",
           "gpu": "the whole task on one lent GPU (committed)"}


def task_of(s) -> str:
    """The task a profile's networks learn, in a few words."""
    if s.reduction:
        r = pcfgset.REDUCTIONS[s.reduction]
        words = [f"reduced corpus of {r.pairs:,} pairs", f"at most {r.max_functions} functions",
                 f"outputs of at most {r.max_output_length} symbols",
                 f"productivity on {' and '.join(map(str, r.productivity_functions))} functions"]
    else:
        words = ["the paper's corpus"]
        if s.max_functions:
            words.append(f"at most {s.max_functions} functions")
        if s.max_output_length:
            words.append(f"outputs of at most {s.max_output_length} symbols")
    if s.alphabet_size:
        words.append(f"{s.alphabet_size} symbols")
    return ", ".join(words)


def training_of(s) -> str:
    """How a profile's networks are trained and stopped."""
    recipes = {name: profiles.network_recipe(s, name) for name in s.architectures}
    first = next(iter(recipes.values()))
    if "presentations" in first:
        return f"{first['presentations']:,} presentations in batches of {first['batch_size']}"
    budgets = ", ".join(f"{name} {recipe['max_seconds'] / 60:.1f}" for name, recipe in recipes.items())
    if first.get("stop_at"):
        return f"until it passes the fit gate; at most (minutes of one core) {budgets}"
    return (f"best model on validation, patience {first['patience']} epochs, at most "
            f"{first['max_epochs']} epochs; at most (minutes) {budgets}")


columns = {}
for name in ("ci", "tutorial", "full", "gpu"):
    s = profiles.settings("pcfgset", name)
    columns[name] = {
        "what for": PURPOSE[name],
        "architectures": ", ".join(s.architectures),
        "hidden size, layers": f"{s.hidden_size}, {s.num_layers}" + "".join(
            f"; {network} {options['num_layers']}" for network, options in s.architecture_options.items()),
        "training pairs per test": f"{s.train_size:,}" if s.train_size else "all",
        "task": task_of(s),
        "training": training_of(s),
        "test inputs per test": f"{s.max_test:,}",
        "seeds": len(s.seeds)}
columns["the paper"] = {
    "what for": "Table 1 of the paper",
    "architectures": ", ".join(exps.ARCHITECTURE_NAMES),
    "hidden size, layers": "not stated in the extended abstract",
    "training pairs per test": "all",
    "task": "the whole corpus: about 100,000 pairs, string arguments of at most 5 symbols, 520 symbols",
    "training": "not stated in the extended abstract",
    "test inputs per test": "all",
    "seeds": 3}
with pd.option_context("display.max_colwidth", None):
    display(pd.DataFrame(columns))

# %% [markdown]
# *Table 4.* The four profiles of PCFG SET and the paper's setting {cite:p}`hupkes2020compositionality`
# (the layers of ConvS2S and the Transformer where they differ from the rest). A time budget
# is of training alone, and on the GPU it was shared by many runs at once.

# %% tags=["remove-input"]
example = "append M17 B2 , reverse C13 D4"
gpu_runs = exps.committed_runs("gpu")
fitted = sum(report.passes(row) for row in gpu_runs.to_dict("records"))
Markdown(
    f"Folded onto 26 symbols, `{example}` reads `{exps.fold_symbols(example, 26)}`. This chapter "
    f"was executed at the `{PROFILE}` profile. On the whole task, {fitted} of the gpu profile's "
    f"{len(gpu_runs)} committed runs pass the fit gate in the minutes they had (the next chapter's "
    f"appendix shows how far they got), which is why the next chapter's findings come from the "
    f"full profile's reduced task.")

# %% [markdown]
# ## Recap
#
# - PCFG SET's inputs are prefix expressions over ten string functions; `evaluate` computes
#   an input's output bottom-up from `apply`, and `unroll` writes the single-function steps the
#   localism test feeds a model.
# - Our corpus, as large as the published one, is sampled from a grammar and shaped to the
#   published corpus's depth distribution; its lengths come out like the published ones.
# - The five tests build on this corpus: held-out adjacent pairs (systematicity) and more
#   functions (productivity) redistribute it, synonyms (substitutivity) and rare exceptions
#   (overgeneralisation) change its training data, and localism compares a model's answer to
#   an input with its answer reached step by step on the unrolled input.
#
# ## Exercises
#
# **1. Interpret by hand.** Predict the output of
# `prepend repeat A1 B2 , swap_first_last C3 D4 E5`, then check it with `interpret` and with
# the unrolled steps.

# %% tags=["hide-cell"]
exercise = "prepend repeat A1 B2 , swap_first_last C3 D4 E5"
exercise_steps = pcfgset.unroll(exercise)
step_outputs = []
for step in exercise_steps:
    step_outputs.append(" ".join(pcfgset.interpret(pcfgset.substitute(step, step_outputs))))
display(pd.DataFrame({"step": exercise_steps, "output": step_outputs}))
Markdown(f"**Solution.** `repeat A1 B2` is `{step_outputs[0]}` and `swap_first_last C3 D4 E5` is "
         f"`{step_outputs[1]}`; `prepend` puts its second argument first, so the output is "
         f"`{' '.join(pcfgset.interpret(exercise))}`, which is also what the last unrolled step gives.")

# %% [markdown]
# **2. The whole corpus.** We compared dev sets. Predict whether the training set's median
# input length differs from the dev set's, then compute it.

# %% tags=["hide-cell"]
whole = pcfgset.statistics(corpus.train[:20_000])
lengths_of = pd.DataFrame({"dev": ours.summary("input_length"),
                           "training (first 20,000)": whole.summary("input_length")}).round(2)
sample = lengths_of.columns[1]
display(lengths_of)
Markdown(f"**Solution.** The base split is random, so the two sets have the same shape up to "
         f"sampling noise: the median input length is {lengths_of.loc['median', 'dev']:g} tokens "
         f"in the dev set and {lengths_of.loc['median', sample]:g} in 20,000 training inputs, the "
         f"means {lengths_of.loc['mean', 'dev']:g} and {lengths_of.loc['mean', sample]:g}.")

# %% [markdown]
# **3. Which adjacent pairs are common?** Every systematicity test input has at least one of the
# four held-out pairs, and one of them, `swap_first_last repeat`, joins two one-argument
# functions while `append remove_second` joins two two-argument ones. Does a pair's kind
# (how many of its two functions take two arguments) change how often it occurs? Predict,
# then count the inputs of the corpus that contain each of the 100 ordered pairs of functions.
# Are four pairs enough to tell?

# %% tags=["hide-cell"]
F = pcfgset.FUNCTIONS
having, uses = Counter(), Counter()  # inputs with each ordered pair; uses of each function
for source, _ in corpus.pairs:
    tokens = source.split()
    having.update({(a, b) for a, b in zip(tokens, tokens[1:]) if a in F and b in F})
    uses.update(token for token in tokens if token in F)
kinds = {}
for a in F:
    for b in F:
        kinds.setdefault(sum(f in pcfgset.BINARY for f in (a, b)), []).append(having[(a, b)])
rows = []
for binary, counts in sorted(kinds.items()):
    mean, low, high = stats.mean_interval(counts)
    rows.append({"two-argument functions in the pair": binary, "pairs": len(counts),
                 "mean inputs": round(mean), "95% interval": f"{low:,.0f} to {high:,.0f}",
                 "fewest": min(counts), "most": max(counts)})
by_kind = pd.DataFrame(rows).set_index("two-argument functions in the pair")
display(by_kind)
held = {" ".join(p): having[p] for p in pcfgset.HELD_OUT_PAIRS}
display(pd.Series(held, name="inputs with the pair").to_frame())
spread = {k: (min(v), max(v)) for k, v in kinds.items()}
intervals = [stats.mean_interval(kinds[k])[1:] for k in sorted(kinds)]
separate = all(intervals[i][0] > intervals[i + 1][1] for i in range(len(intervals) - 1))
kind = {p: sum(f in pcfgset.BINARY for f in p.split()) for p in held}
ordered = all(held[p] > held[q] for p in held for q in held if kind[p] < kind[q])
Markdown(
    f"**Solution.** The four held-out pairs occur in {min(held.values()):,} to "
    f"{max(held.values()):,} inputs, {'in the order of' if ordered else 'not in the order of'} "
    f"their kind; but four numbers that differ by about "
    f"{100 * (max(held.values()) / min(held.values()) - 1):.0f}% cannot show a rule, since pairs "
    f"of one kind spread as widely (with no two-argument function, from {spread[0][0]:,} to "
    f"{spread[0][1]:,} inputs). Over all 100 pairs, a pair is in "
    f"{by_kind.loc[0, 'mean inputs']:,} inputs on average with no two-argument function, "
    f"{by_kind.loc[1, 'mean inputs']:,} with one and {by_kind.loc[2, 'mean inputs']:,} with two, "
    + ("and the 95% intervals of the three means do not overlap: on average, the more "
       "two-argument functions, the rarer the pair. " if separate else
       "but the 95% intervals of the means overlap, so even 100 pairs do not settle it. ")
    + f"It is not the functions' frequencies: each occurs in {min(uses.values()):,} to "
    f"{max(uses.values()):,} places in the corpus. A likely reason: a two-argument function brings "
    f"a whole second argument, which makes an input longer and deeper, and the corpus is shaped to "
    f"the published depths and lengths. The ranges of the groups overlap, though, so the order of any four "
    f"particular pairs is partly chance.")
