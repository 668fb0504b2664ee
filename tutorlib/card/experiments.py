"""``python -m tutorlib run card``: the report card of the book's networks, through the one
runner (resumable, ``--jobs``, ``--scheduler``, ``--device``), saved with provenance.

A run is one network, one task (:mod:`.tasks`) and one seed: the network is trained with the
convergence recipe within ``max_seconds`` on the task's training pairs, its fit measured on them
and on in-distribution validation pairs, and it is scored on the task's test sets. The summary
is the card (:func:`~tutorlib.card.card_table`): every score with its fit and a 95% interval
over seeds.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from tutorlib import seq2seq as s2s
from tutorlib.card.contract import Seq2SeqModel
from tutorlib.card.tasks import (
    DIAL_TARGETS,
    ORCHARD_DEPTHS,
    PCFGSET_TESTS,
    SCAN_SPLITS,
    card_table,
    dbca_task,
    orchard_task,
    pcfgset_task,
    run_task,
    scan_task,
)
from tutorlib.profiles import Settings, network_recipe
from tutorlib.results import Experiment
from tutorlib.seq2seq.runs import pinned_threads
from tutorlib.train import resolve_device


@dataclass(frozen=True)
class CardSettings(Settings):
    """Settings of the ``card`` experiment at one profile.

    ``models`` maps a network's name to its :class:`~tutorlib.seq2seq.Seq2SeqConfig` dict;
    ``recipe`` holds the :class:`~tutorlib.seq2seq.Recipe` fields every network is trained with
    (``training`` those a network trains with differently, e.g. a Transformer's warm-up),
    within ``max_seconds`` of training a run. The tasks: ``scan_splits``; ``pcfgset_tests``;
    ``orchard_variants`` (each tested at ``orchard_depths``); ``dial_targets`` (target D_C, None
    for the MCD split) of SCAN or of a ``dial_pool`` subset. ``train_size`` (None: all),
    ``validation_size`` and ``test_size`` (None: all) size every task; ORCHARD draws
    ``orchard_train`` training examples and ``test_size`` (or 200) per depth.
    """

    models: dict
    recipe: dict
    max_seconds: float
    scan_splits: list[str]
    pcfgset_tests: list[str]
    orchard_variants: list[str]
    orchard_depths: list[int]
    orchard_train: int
    dial_targets: list[float | None]
    dial_pool: int | None
    train_size: int | None
    validation_size: int
    test_size: int | None
    seeds: list[int]
    threads: int = 1
    training: dict = field(default_factory=dict)


# The book's five architectures and a sixth known to generalise better on some of the tests,
# each at a width one CPU core trains within the card's budget (the chapters' networks are
# larger): one layer of 64 for the recurrent networks, two of 64 for the others.
CARD_MODELS = {
    "lstm": {"cell": "lstm", "hidden_size": 64, "num_layers": 1, "dropout": 0.0},
    "lstm_attention": {"cell": "lstm", "hidden_size": 64, "num_layers": 1, "dropout": 0.0,
                       "attention": True},
    "gru_attention": {"cell": "gru", "hidden_size": 64, "num_layers": 1, "dropout": 0.0,
                      "attention": True},
    "transformer": {"cell": "transformer", "hidden_size": 64, "num_layers": 2, "dropout": 0.0,
                    "num_heads": 4, "positions": "sinusoidal", "norm_first": True},
    "convs2s": {"cell": "conv", "hidden_size": 64, "num_layers": 4, "dropout": 0.0,
                "positions": "sinusoidal"},
    # relative positions in Shaw et al. 2018's clipped form, no absolute positions (with a few
    # training choices, Csordas, Irie and Schmidhuber 2021 found they lift Transformers'
    # systematic generalisation considerably)
    "transformer_relative": {"cell": "transformer", "hidden_size": 64, "num_layers": 2,
                             "dropout": 0.0, "num_heads": 4, "positions": "relative",
                             "norm_first": True},
}
# how the Transformers train differently from the rest: warm-up and Adam's betas of Vaswani
# et al. 2017, a higher peak learning rate (in our pilots on SCAN they fitted faster with it
# within the card's budget), and (sinusoidal positions) embeddings drawn on the positions' scale
CARD_TRAINING = {
    "transformer": {"learning_rate": 0.005, "warmup_steps": 200, "betas": [0.9, 0.98],
                    "embedding_init": "fairseq"},
    "transformer_relative": {"learning_rate": 0.005, "warmup_steps": 200, "betas": [0.9, 0.98]},
}

# training seconds of a run of the full card (evaluations not counted)
FULL_SECONDS = 180.0

SETTINGS: dict[str, CardSettings] = {
    # one tiny network on one task of each benchmark: seconds
    "ci": CardSettings(
        models={"lstm_attention": {"cell": "lstm", "hidden_size": 16, "num_layers": 1,
                                   "dropout": 0.0, "attention": True}},
        recipe={"batch_size": 32, "learning_rate": 0.01, "max_epochs": 2, "patience": 2,
                "fit_size": 100},
        max_seconds=20.0, scan_splits=["simple"], pcfgset_tests=["productivity"],
        orchard_variants=["minmax_hard"], orchard_depths=[3, 12], orchard_train=300,
        dial_targets=[0.1], dial_pool=1000, train_size=300, validation_size=50, test_size=30,
        seeds=[0]),
    # the full card's first network on every task, a quarter of a minute of training a run on
    # one core (the chapter trains its first run live)
    "tutorial": CardSettings(
        models={"lstm_attention": dict(CARD_MODELS["lstm_attention"])},
        recipe={"batch_size": 64, "learning_rate": 0.002, "max_epochs": 100, "patience": 5,
                "fit_size": 100},
        max_seconds=15.0,
        scan_splits=list(SCAN_SPLITS), pcfgset_tests=list(PCFGSET_TESTS),
        orchard_variants=["minmax_hard"], orchard_depths=list(ORCHARD_DEPTHS), orchard_train=10_000,
        dial_targets=list(DIAL_TARGETS), dial_pool=None, train_size=10_000, validation_size=200,
        test_size=300, seeds=[0]),
    # six networks, three seeds, every task, FULL_SECONDS of training a run on one core
    "full": CardSettings(
        models=dict(CARD_MODELS), training=dict(CARD_TRAINING),
        recipe={"batch_size": 64, "learning_rate": 0.002, "max_epochs": 100, "patience": 5,
                "fit_size": 100},
        max_seconds=FULL_SECONDS,
        scan_splits=list(SCAN_SPLITS), pcfgset_tests=list(PCFGSET_TESTS),
        orchard_variants=["minmax_hard"], orchard_depths=list(ORCHARD_DEPTHS),
        orchard_train=20_000, dial_targets=list(DIAL_TARGETS), dial_pool=None,
        train_size=20_000, validation_size=200, test_size=300, seeds=[0, 1, 2]),
}


def _tasks(settings: CardSettings) -> list[dict]:
    tasks = [{"benchmark": "scan", "task": split} for split in settings["scan_splits"]]
    tasks += [{"benchmark": "pcfgset", "task": test} for test in settings["pcfgset_tests"]]
    tasks += [{"benchmark": "orchard", "task": variant}
              for variant in settings["orchard_variants"]]
    tasks += [{"benchmark": "dbca", "task": target} for target in settings["dial_targets"]]
    return tasks


def runs(settings: CardSettings) -> list[tuple[dict, int]]:
    """One run per network, task and seed (the seed trains the network and draws the task's
    samples; the splits themselves are seed 0's), seed by seed: a sweep stopped part-way has
    every network's whole card at the first seeds."""
    sizes = {key: settings[key] for key in ("train_size", "validation_size", "test_size")}
    out = []
    for seed, (name, architecture), task in itertools.product(
            settings["seeds"], settings["models"].items(), _tasks(settings)):
        extra = ({"depths": list(settings["orchard_depths"]),
                  "orchard_train": settings["orchard_train"]}
                 if task["benchmark"] == "orchard" else
                 {"pool": settings["dial_pool"]} if task["benchmark"] == "dbca" else {})
        recipe = network_recipe(settings, name)
        config = {"model": name, "architecture": dict(architecture),
                  "recipe": recipe, "max_seconds": settings["max_seconds"],
                  **task, **sizes, **extra, "threads": settings["threads"]}
        out.append((config, seed))
    return out


def build_task(config: dict):
    """The :class:`~tutorlib.card.Task` a run's settings describe."""
    benchmark, name = config["benchmark"], config["task"]
    if benchmark == "scan":
        return scan_task(name, train_size=config["train_size"],
                         validation_size=config["validation_size"],
                         test_size=config["test_size"])
    if benchmark == "pcfgset":
        return pcfgset_task(name, train_size=config["train_size"],
                            validation_size=config["validation_size"],
                            test_size=config["test_size"])
    if benchmark == "orchard":
        return orchard_task(name, train_size=config["orchard_train"],
                            validation_size=config["validation_size"],
                            test_size=config["test_size"] or 200, depths=config["depths"])
    if benchmark == "dbca":
        return dbca_task(name, pool_size=config["pool"], validation_size=config["validation_size"],
                         test_size=config["test_size"])
    raise ValueError(f"unknown benchmark {benchmark!r}: scan, pcfgset, orchard or dbca")


def run_one(config: dict, seed: int = 0, device: str = "cpu") -> dict:
    """One network on one task with one seed: the card's rows (each score with the fit)."""
    resolve_device(device)  # a device this machine cannot have fails before any work
    task = build_task(config)
    architecture = s2s.Seq2SeqConfig(**config["architecture"])
    recipe = s2s.Recipe(**config["recipe"])
    with pinned_threads(config["threads"]):
        rows = run_task(lambda: Seq2SeqModel(architecture, recipe), task, seed=seed,
                        max_seconds=config["max_seconds"], device=device,
                        model_name=config["model"])
    return {"model": config["model"], "benchmark": task.benchmark, "task": task.name,
            "seed": seed, "rows": rows}


# the cached divergences' format: bump it when what divergence_table computes changes
CACHE_FORMAT = 1
# pairs a side on which the divergences of the card's splits are computed
DIVERGENCE_SAMPLE = 500


def _task_configs(settings: CardSettings) -> list[dict]:
    """One run's settings per task (the first network's, at the first seed)."""
    return list({repr(c): c for c, seed in runs(settings) if seed == settings["seeds"][0]
                 and c["model"] == next(iter(settings["models"]))}.values())


def prepare(settings: CardSettings) -> None:
    """Builds every task once in the sweep's own process, so that its corpora and splits are in
    the disk cache before the workers start (each would otherwise build them itself)."""
    for config in _task_configs(settings):
        build_task(config)


def divergence_table(settings: CardSettings) -> list[dict]:
    """The atom and compound divergence of every split on the card (seed 0's samples,
    :data:`DIVERGENCE_SAMPLE` pairs a side; :func:`tutorlib.card.analysis.split_divergences`),
    computed once and cached."""
    from tutorlib import cache
    from tutorlib.card.analysis import split_divergences

    configs = _task_configs(settings)
    tasks = [{key: value for key, value in c.items()
              if key not in ("model", "architecture", "recipe", "max_seconds", "threads")}
             for c in configs]

    def compute() -> list[dict]:
        frame = split_divergences([build_task(c) for c in configs], sample=DIVERGENCE_SAMPLE)
        return frame.to_dict("records")

    return cache.cached("card-divergences", {"tasks": tasks, "sample": DIVERGENCE_SAMPLE},
                        compute, format=CACHE_FORMAT)


def summarise(settings: CardSettings, finished: list[dict]) -> dict:
    """The card of the finished runs (an empty card while none has finished) and the
    divergences of its splits."""
    rows = [row for record in finished for row in record["rows"]]
    card = card_table(rows) if rows else None
    # an interval over one seed is missing: None in the summary (JSON has no NaN)
    return {"card": [] if card is None else
            card.astype(object).where(card.notna(), None).to_dict("records"),
            "divergences": divergence_table(settings)}


def part(config: dict, seed: int) -> str:
    """``--only`` names a run by its network."""
    return config["model"]


EXPERIMENT = Experiment(name="card", runs=runs, run=run_one, summarise=summarise, part=part,
                        prepare=prepare)

__all__ = ["CARD_MODELS", "CARD_TRAINING", "DIVERGENCE_SAMPLE", "EXPERIMENT", "FULL_SECONDS",
           "SETTINGS", "CardSettings", "build_task", "divergence_table", "part", "prepare",
           "run_one", "runs", "summarise"]
