"""The paper's own networks: the outputs of the three architectures Hupkes et al. (2020) trained,
as their authors released them, scored by this package's scorers.

The release (``i-machine-think/am-i-compositional``, commit 4f75bdd, MIT licence; its licence
is ``released_data/LICENSE`` beside this module) holds, for LSTMS2S, ConvS2S and the
Transformer, three runs each, the predictions on the base task's test set, the systematicity,
productivity and both substitutivity test sets (with the synonym twins), the LSTMS2S localism
computations, and per-epoch logs of the overgeneralisation test at four exception ratios. The
localism predictions of ConvS2S and the Transformer and every training set are not in it.
``tools/pack_released.py`` packs what the book needs into ``released_data/`` (4.5 MB): each test
set once, in the order of the release's data files, with every run's predictions beside it.

Nothing here trains: :func:`run_scores` scores each run as the paper's Table 1 does, and
``pcfgset.report.released_scores`` sets the result beside the published numbers at full scale,
a check of our scorers.

Examples
--------
>>> from tutorlib.pcfgset import released
>>> rows = released.examples("transformer", "systematicity", 1)
>>> len(rows), rows[0].source.split()[:2]
(10175, ['swap_first_last', 'repeat'])
>>> round(released.score("lstms2s", "pcfgset", 1), 4)
0.7849
"""

from __future__ import annotations

import functools
import json
import lzma
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from tutorlib.pcfgset.language import TWINS, depth, num_functions, parse
from tutorlib.pcfgset.scores import (
    accuracy,
    consistency,
    localism_long_steps,
    localism_score,
    longest_argument,
    peak,
)
from tutorlib.pcfgset.splits import HELD_OUT_PAIRS

DATA = Path(__file__).with_name("released_data")
#: The release's architecture names, and the paper's.
ARCHITECTURES = ("lstms2s", "convs2s", "transformer")
NAMES = {"lstms2s": "LSTMS2S", "convs2s": "ConvS2S", "transformer": "Transformer"}
RUNS = (1, 2, 3)
#: The released test sets (a ``_twin`` set is line-aligned with the set it follows).
TESTS = ("pcfgset", "systematicity", "productivity", "substitutivity_equally_distributed",
         "substitutivity_equally_distributed_twin", "substitutivity_primitive",
         "substitutivity_primitive_twin")
CONDITIONS = ("equally_distributed", "primitive")
#: The overgeneralisation test's exception ratios (0.01%, 0.05%, 0.1%, 0.5%); Table 1 reports
#: the peak at 0.1%.
RATIOS = (0.0001, 0.0005, 0.001, 0.005)
TABLE1_RATIO = 0.001
SOURCE = ("Hupkes, Dankers, Mul & Bruni (2020), released at "
          "github.com/i-machine-think/am-i-compositional (commit 4f75bdd, MIT licence)")


@dataclass(frozen=True)
class Example:
    """One released example: the input, its target and a network's prediction."""

    source: str
    target: str
    prediction: str

    @property
    def correct(self) -> bool:
        return self.prediction.split() == self.target.split() and bool(self.target.split())


def _check(value, name: str, known) -> None:
    if value not in known:
        raise ValueError(f"unknown {name} {value!r}; the release has {', '.join(map(repr, known))}")


@functools.cache
def _frame(test: str) -> pd.DataFrame:
    _check(test, "test", TESTS)
    text = lzma.decompress((DATA / f"{test}.tsv.xz").read_bytes()).decode("utf-8")
    lines = text.rstrip("\n").split("\n")
    header = lines[0].split("\t")
    table = pd.DataFrame([line.split("\t") for line in lines[1:]], columns=header)
    for column in header[2:]:
        same = table[column] == "="
        table.loc[same, column] = table.loc[same, "target"]
    return table


def frame(test: str) -> pd.DataFrame:
    """One released test set with every network's predictions: columns ``source``, ``target``
    and one per architecture and run (``lstms2s_1`` ... ``transformer_3``), a row per example in
    the order of the release's data file.

    Parameters
    ----------
    test : str
        One of :data:`TESTS`.

    Returns
    -------
    pandas.DataFrame
        A copy: changing it changes nothing else.
    """
    return _frame(test).copy()


def examples(architecture: str, test: str, run: int) -> list[Example]:
    """A network's released predictions on a test set.

    Parameters
    ----------
    architecture : str
        ``lstms2s``, ``convs2s`` or ``transformer``.
    test : str
        One of :data:`TESTS`.
    run : int
        1, 2 or 3.

    Returns
    -------
    list of Example
        In the order of the release's data file.
    """
    _check(architecture, "architecture", ARCHITECTURES)
    _check(run, "run", RUNS)
    table = _frame(test)
    column = f"{architecture}_{run}"
    return [Example(s, t, p) for s, t, p in zip(table["source"], table["target"], table[column])]


def _predictions(architecture: str, test: str, run: int) -> list[str]:
    _check(architecture, "architecture", ARCHITECTURES)
    _check(run, "run", RUNS)
    return _frame(test)[f"{architecture}_{run}"].tolist()


def score(architecture: str, test: str, run: int) -> float:
    """Sequence accuracy of one released run on one test set (our :func:`~.scores.accuracy`)."""
    return accuracy(_predictions(architecture, test, run), _frame(test)["target"].tolist())


def substitutivity(architecture: str, condition: str, run: int, *,
                   empty_consistent: bool = False) -> float:
    """Consistency of one released run between the substitutivity inputs and their twins (our
    :func:`~.scores.consistency`, for which two empty predictions are not consistent: a network
    that answers nothing has not treated the synonyms alike). ``empty_consistent=True`` counts
    them as consistent, as the paper's published numbers do (``report.released_discrepancies``)."""
    _check(condition, "condition", CONDITIONS)
    original = _predictions(architecture, f"substitutivity_{condition}", run)
    twins = _predictions(architecture, f"substitutivity_{condition}_twin", run)
    if empty_consistent:
        return sum(a.split() == b.split() for a, b in zip(original, twins)) / len(original)
    return consistency(original, twins)


@dataclass(frozen=True)
class LocalismBlock:
    """One input of the LSTMS2S localism test: ``steps`` are the unrolled steps as the network
    computed them (each an input, with earlier predictions substituted, and its prediction),
    then the whole input and its prediction; ``released_same`` is the release's own verdict."""

    run: int
    steps: tuple[tuple[str, str], ...]
    released_same: bool

    @property
    def source(self) -> str:
        return self.steps[-1][0]

    @property
    def whole(self) -> str:
        """The prediction for the whole input."""
        return self.steps[-1][1]

    @property
    def unrolled(self) -> str:
        """The prediction of the last unrolled step."""
        return self.steps[-2][1]


@functools.cache
def _localism() -> tuple[LocalismBlock, ...]:
    text = lzma.decompress((DATA / "localism.jsonl.xz").read_bytes()).decode("utf-8")
    return tuple(LocalismBlock(r["run"], tuple(tuple(s) for s in r["steps"]), r["same"])
                 for r in map(json.loads, text.splitlines()))


def localism_blocks(run: int) -> list[LocalismBlock]:
    """The LSTMS2S localism test of one run (the release has none of ConvS2S or the
    Transformer)."""
    _check(run, "run", RUNS)
    return [block for block in _localism() if block.run == run]


def localism(run: int) -> float:
    """LSTMS2S localism of one run: the share of inputs whose unrolled prediction equals the
    whole input's (our :func:`~.scores.localism_score`)."""
    blocks = localism_blocks(run)
    return localism_score([b.whole for b in blocks], [b.unrolled for b in blocks])


@functools.cache
def _overgeneralisation() -> dict:
    return json.loads((DATA / "overgeneralisation.json").read_text(encoding="utf-8"))


def _ratio(ratio: float) -> str:
    _check(ratio, "exception ratio", RATIOS)
    return f"{ratio:g}" if ratio >= 0.001 else f"{ratio:.4f}"


def overgeneralisation_curves(architecture: str, ratio: float, run: int) -> dict[str, list[float]]:
    """The logged accuracies of one run of the overgeneralisation test, one per epoch:
    ``memorisation`` (the exception targets, the release's "Adapted") and ``overgeneralisation``
    (the rule-following targets, "Original")."""
    _check(architecture, "architecture", ARCHITECTURES)
    _check(run, "run", RUNS)
    curves = _overgeneralisation()["logs"][architecture][_ratio(ratio)][str(run)]
    return {k: list(v) for k, v in curves.items()}


def overgeneralisation(architecture: str, ratio: float, run: int) -> float:
    """The paper's overgeneralisation score of one run: the highest overgeneralisation accuracy
    of any epoch (our :func:`~.scores.peak`)."""
    return peak(overgeneralisation_curves(architecture, ratio, run)["overgeneralisation"])[0]


def exceptions(ratio: float) -> pd.DataFrame:
    """The released exception test set at ``ratio``: ``source``, ``exception_target`` (what
    training taught) and ``original_target`` (what the rule gives)."""
    tests = _overgeneralisation()["tests"][_ratio(ratio)]
    return pd.DataFrame({"source": tests["sources"], "exception_target": tests["exception_targets"],
                         "original_target": tests["original_targets"]})


# ---------------------------------------------------------------------------------------------
# Table 1 and what the paper shows beyond it

#: Table 1's rows (the keys of ``pcfgset.experiments.PAPER``) and the extra rows the release
#: allows, with how one run's score is computed.
ROWS = {
    "task": ("Task accuracy", lambda a, r: score(a, "pcfgset", r)),
    "systematicity": ("Systematicity", lambda a, r: score(a, "systematicity", r)),
    "productivity": ("Productivity", lambda a, r: score(a, "productivity", r)),
    "substitutivity_equally_distributed": (
        "Substitutivity, equally distributed (consistency)",
        lambda a, r: substitutivity(a, "equally_distributed", r)),
    "substitutivity_primitive": ("Substitutivity, primitive (consistency)",
                                 lambda a, r: substitutivity(a, "primitive", r)),
    "substitutivity_equally_distributed_accuracy": (
        "Substitutivity, equally distributed: accuracy on the originals",
        lambda a, r: score(a, "substitutivity_equally_distributed", r)),
    "substitutivity_equally_distributed_twin_accuracy": (
        "Substitutivity, equally distributed: accuracy on the twins",
        lambda a, r: score(a, "substitutivity_equally_distributed_twin", r)),
    "substitutivity_primitive_accuracy": (
        "Substitutivity, primitive: accuracy on the originals",
        lambda a, r: score(a, "substitutivity_primitive", r)),
    "substitutivity_primitive_twin_accuracy": (
        "Substitutivity, primitive: accuracy on the twins",
        lambda a, r: score(a, "substitutivity_primitive_twin", r)),
    "localism": ("Localism (consistency)",
                 lambda a, r: localism(r) if a == "lstms2s" else None),
    "overgeneralisation": ("Overgeneralisation (peak at 0.1% exceptions)",
                           lambda a, r: overgeneralisation(a, TABLE1_RATIO, r)),
}


def run_scores(row: str, architecture: str) -> list[float] | None:
    """One row's score of each released run of ``architecture`` (fractions), or None where the
    release has no predictions for it (localism of ConvS2S and the Transformer)."""
    _check(row, "row", tuple(ROWS))
    _check(architecture, "architecture", ARCHITECTURES)
    values = _run_scores(row, architecture)
    return None if values is None else list(values)


@functools.cache  # the release does not change while a process runs; the claims read it often
def _run_scores(row: str, architecture: str) -> tuple[float, ...] | None:
    values = tuple(ROWS[row][1](architecture, run) for run in RUNS)
    return None if values[0] is None else values


def _mean_accuracy(test: str, architecture: str, mask) -> tuple[float, int]:
    table = _frame(test)
    rows = table[mask]
    hits = [(rows[f"{architecture}_{r}"].str.split() == rows["target"].str.split()).mean()
            for r in RUNS]
    return 100 * float(np.mean(hits)), len(rows)


def by_pair() -> pd.DataFrame:
    """Systematicity by held-out function pair: for each of the four pairs, the examples that
    contain it (an example with two pairs counts under both) and each architecture's accuracy
    on them, mean over the three runs (%)."""
    table = _frame("systematicity")
    padded = " " + table["source"] + " "
    records = []
    for first, second in HELD_OUT_PAIRS:
        mask = padded.str.contains(f" {first} {second} ", regex=False)
        record = {"pair": f"{first} {second}", "examples": int(mask.sum())}
        for architecture in ARCHITECTURES:
            record[NAMES[architecture]] = _mean_accuracy("systematicity", architecture, mask)[0]
        records.append(record)
    return pd.DataFrame(records).set_index("pair")


#: What :func:`by_property` can group by.
PROPERTIES = {
    "functions": lambda source, target: num_functions(source),
    "depth": lambda source, target: depth(parse(source)),
    "input length": lambda source, target: len(source.split()),
    "output length": lambda source, target: len(target.split()),
}


@functools.cache
def _properties(test: str, by: str) -> tuple[int, ...]:
    table = _frame(test)
    return tuple(PROPERTIES[by](s, t) for s, t in zip(table["source"], table["target"]))


def by_property(test: str, by: str, *, min_examples: int = 20) -> pd.DataFrame:
    """Accuracy on a released test set by a property of the examples: ``functions`` (how many
    function words), ``depth`` (of the input's tree), ``input length`` or ``output length``
    (tokens). A row per value with at least ``min_examples`` examples: how many, and each
    architecture's accuracy (%, mean over the three runs)."""
    _check(by, "property", tuple(PROPERTIES))
    if not (isinstance(min_examples, int) and min_examples >= 1):
        raise ValueError(f"min_examples must be an integer >= 1, got {min_examples!r}")
    values = pd.Series(_properties(test, by))
    records = []
    for value in sorted(values.unique()):
        mask = (values == value).to_numpy()
        if mask.sum() < min_examples:
            continue
        record = {by: int(value), "examples": int(mask.sum())}
        for architecture in ARCHITECTURES:
            record[NAMES[architecture]] = _mean_accuracy(test, architecture, mask)[0]
        records.append(record)
    return pd.DataFrame(records).set_index(by)


def productivity_control(by: str = "input length", *, min_examples: int = 20) -> pd.DataFrame:
    """The paper's control for productivity (its Fig. 3): at each value of ``by`` that both the
    base task's test set and the productivity test set have (at least ``min_examples`` examples
    each), each architecture's task accuracy and productivity score (%)."""
    task = by_property("pcfgset", by, min_examples=min_examples)
    productive = by_property("productivity", by, min_examples=min_examples)
    common = task.index.intersection(productive.index)
    columns = {}
    for architecture in ARCHITECTURES:
        name = NAMES[architecture]
        columns[(name, "task")] = task.loc[common, name]
        columns[(name, "productivity")] = productive.loc[common, name]
    return pd.DataFrame(columns, index=common)


def productivity_below_task(by: str = "input length") -> dict[str, float]:
    """For each architecture, the share of the lengths of :func:`productivity_control` at which
    the productivity score is below the task accuracy (the paper: "almost all")."""
    control = productivity_control(by)
    return {NAMES[a]: float((control[(NAMES[a], "productivity")] < control[(NAMES[a], "task")]).mean())
            for a in ARCHITECTURES}


def productivity_below_task_by_run(architecture: str, by: str = "input length", *,
                                   min_examples: int = 20) -> list[float]:
    """For each run of ``architecture``, the share of the values of ``by`` (lengths with at
    least ``min_examples`` examples in both test sets) at which its productivity score is below
    its task accuracy: the paper's Fig. 3 control, one number a run."""
    _check(architecture, "architecture", ARCHITECTURES)
    task, productive = _frame("pcfgset"), _frame("productivity")
    task_values = pd.Series(_properties("pcfgset", by))
    productive_values = pd.Series(_properties("productivity", by))
    common = [v for v in sorted(set(task_values) & set(productive_values))
              if (task_values == v).sum() >= min_examples
              and (productive_values == v).sum() >= min_examples]
    shares = []
    for run in RUNS:
        column = f"{architecture}_{run}"
        right_task = task[column].str.split() == task["target"].str.split()
        right_productive = productive[column].str.split() == productive["target"].str.split()
        below = [right_productive[(productive_values == v).to_numpy()].mean()
                 < right_task[(task_values == v).to_numpy()].mean() for v in common]
        shares.append(float(np.mean(below)))
    return shares


def length_terciles(architecture: str, run: int, test: str = "pcfgset") -> list[float]:
    """Accuracy (%) of one run on the shortest, middle and longest third of a test set's inputs
    (by number of tokens; ties kept together)."""
    table = _frame(test)
    lengths = pd.Series(_properties(test, "input length"))
    cuts = lengths.quantile([1 / 3, 2 / 3]).to_numpy()
    bins = np.digitize(lengths.to_numpy(), cuts, right=True)
    right = (table[f"{architecture}_{run}"].str.split() == table["target"].str.split()).to_numpy()
    return [100 * float(right[bins == b].mean()) for b in range(3)]


def localism_mistakes_with_long_strings(run: int, longer_than: int = 5) -> float:
    """Of the LSTMS2S inputs whose unrolled prediction differs from the whole one, the share with
    an unrolled step applied to a string of more than ``longer_than`` symbols."""
    blocks = localism_blocks(run)
    return localism_long_steps([b.whole for b in blocks], [b.steps[:-1] for b in blocks],
                               longer_than)


def by_synonym(condition: str) -> pd.DataFrame:
    """Substitutivity by synonym: for each of the four words given a synonym, the twin pairs
    whose twin uses it and each architecture's consistency on them (%, mean over the runs)."""
    _check(condition, "condition", CONDITIONS)
    original = _frame(f"substitutivity_{condition}")
    twin = _frame(f"substitutivity_{condition}_twin")
    records = []
    for synonym, word in TWINS.items():
        mask = (" " + twin["source"] + " ").str.contains(f" {synonym} ", regex=False).to_numpy()
        record = {"word": word, "examples": int(mask.sum())}
        for architecture in ARCHITECTURES:
            same = [(original.loc[mask, f"{architecture}_{r}"].str.split()
                     == twin.loc[mask, f"{architecture}_{r}"].str.split()).mean() for r in RUNS]
            record[NAMES[architecture]] = 100 * float(np.mean(same))
        records.append(record)
    return pd.DataFrame(records).set_index("word")


def overgeneralisation_profiles() -> pd.DataFrame:
    """Every overgeneralisation log in long form: architecture (the paper's name), ratio (%),
    run, epoch, memorisation and overgeneralisation (%)."""
    records = []
    for architecture in ARCHITECTURES:
        for ratio in RATIOS:
            for run in RUNS:
                curves = overgeneralisation_curves(architecture, ratio, run)
                for epoch, (memorised, overgeneralised) in enumerate(
                        zip(curves["memorisation"], curves["overgeneralisation"]), start=1):
                    records.append({"network": NAMES[architecture], "ratio": 100 * ratio,
                                    "run": run, "epoch": epoch, "memorisation": 100 * memorised,
                                    "overgeneralisation": 100 * overgeneralised})
    return pd.DataFrame(records)


def overgeneralisation_peaks() -> pd.DataFrame:
    """The peak overgeneralisation and peak memorisation (%, mean over the three runs) of each
    architecture at each exception ratio, and the epochs logged (fewest of the runs)."""
    profiles = overgeneralisation_profiles()
    per_run = profiles.groupby(["network", "ratio", "run"]).agg(
        overgeneralisation=("overgeneralisation", "max"), memorisation=("memorisation", "max"),
        epochs=("epoch", "max"))
    table = per_run.groupby(["network", "ratio"]).agg(
        overgeneralisation=("overgeneralisation", "mean"), memorisation=("memorisation", "mean"),
        epochs=("epochs", "min"))
    return table.reindex(list(NAMES.values()), level="network")


def localism_long_strings(run: int, longer_than: int = 5) -> dict[str, float]:
    """The paper's manual reading of localism's mistakes ("function applications to string
    inputs with more than five characters"), counted: the share of LSTMS2S inputs whose unrolled
    prediction agrees with the whole one, among inputs with an unrolled step whose string
    argument has more than ``longer_than`` symbols and among the others."""
    groups: dict[bool, list[bool]] = {True: [], False: []}
    for block in localism_blocks(run):
        long = _has_long_step(block, longer_than)
        groups[long].append(block.whole.split() == block.unrolled.split())
    return {"long": float(np.mean(groups[True])) if groups[True] else float("nan"),
            "short": float(np.mean(groups[False])) if groups[False] else float("nan"),
            "long inputs": len(groups[True]), "short inputs": len(groups[False])}


def _has_long_step(block: LocalismBlock, longer_than: int) -> bool:
    """Whether an unrolled step of ``block`` applies a function to a string of more than
    ``longer_than`` symbols."""
    return any(longest_argument(step) > longer_than for step, _ in block.steps[:-1])


def failures(test: str) -> pd.DataFrame:
    """The examples of a released test set that every run of every architecture gets wrong."""
    table = _frame(test)
    wrong = np.ones(len(table), dtype=bool)
    target = table["target"].str.split()
    for architecture in ARCHITECTURES:
        for run in RUNS:
            wrong &= (table[f"{architecture}_{run}"].str.split() != target).to_numpy()
    return table.loc[wrong, ["source", "target"]].reset_index(drop=True)


__all__ = ["ARCHITECTURES", "CONDITIONS", "NAMES", "PROPERTIES", "RATIOS", "ROWS", "RUNS",
           "SOURCE", "TABLE1_RATIO", "TESTS", "Example", "LocalismBlock", "by_pair",
           "by_property", "by_synonym", "examples", "exceptions", "failures", "frame", "localism",
           "length_terciles", "localism_blocks", "localism_long_strings",
           "localism_mistakes_with_long_strings", "overgeneralisation",
           "overgeneralisation_curves", "overgeneralisation_peaks", "overgeneralisation_profiles",
           "productivity_below_task", "productivity_below_task_by_run", "productivity_control",
           "run_scores", "score",
           "substitutivity"]


from tutorlib.checks import type_check as _type_check  # noqa: E402

# the two record types are built by the ten thousand from the committed files
_type_check(globals(), __all__, unchecked=("Example", "LocalismBlock"))
