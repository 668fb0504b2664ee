"""Lake & Baroni's (2018) SCAN experiments 1-3: architectures, cached runs, the paper's numbers.

One *run* trains an architecture on a split with a seed (:func:`run`) and evaluates it on the
split's test set: exact-match accuracy, whether each test command was right (for breakdowns by
length), and for the length split also oracle-length accuracy. Runs are cached on disk by their
full configuration, so a chapter executed twice trains nothing the second time.

``python -m tutorlib run scan --profile paper`` runs every configuration of the ``paper``
profile (resumably) and writes ``results/scan/paper.json``.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from tutorlib import cache, profiles, scan
from tutorlib import seq2seq as s2s
from tutorlib.results import RunStore, run_resumable
from tutorlib.train import seed_everything

ARCHITECTURES: dict[str, s2s.Seq2SeqConfig] = {
    # The overall-best network of the paper: the best mean over all experiments.
    "overall_best": s2s.Seq2SeqConfig("lstm", 200, 2, 0.5, attention=False),
    # The top performer on the length split (Exp. 2).
    "exp2_best": s2s.Seq2SeqConfig("gru", 50, 1, 0.5, attention=True),
}

# Accuracies (%) reported by Lake & Baroni (2018), for the chapters to show beside ours.
PAPER = {
    "simple": {"overall_best": 99.7},
    "simple_p1": {"overall_best": 5.0},  # Fig. 3, read off the plot ("about")
    "simple_p2": {"overall_best": 54.0},
    "simple_p4": {"overall_best": 93.0},
    "length": {"overall_best": 13.8, "exp2_best": 20.8},
    "length_oracle": {"overall_best": 23.6, "exp2_best": 60.2},
    "addprim_turn_left": {"overall_best": 90.0},
    "addprim_jump": {"overall_best": 0.08},
    "addprim_complex_jump_num4": {"overall_best": 4.1},  # Fig. 5
    "addprim_complex_jump_num8": {"overall_best": 15.3},
    "addprim_complex_jump_num16": {"overall_best": 70.2},
    "addprim_complex_jump_num32": {"overall_best": 89.9},
}


@lru_cache(maxsize=1)
def vocabularies() -> tuple[s2s.Vocabulary, s2s.Vocabulary]:
    """Command and action vocabularies over all of SCAN (so every split shares them)."""
    pairs = scan.all_pairs()
    return (s2s.Vocabulary.from_sequences([c.split() for c, _ in pairs]),
            s2s.Vocabulary.from_sequences([a.split() for _, a in pairs]))


def architecture(name_or_config: str | s2s.Seq2SeqConfig | dict) -> s2s.Seq2SeqConfig:
    """An architecture by name (:data:`ARCHITECTURES`), or a configuration (object or dict)."""
    if isinstance(name_or_config, s2s.Seq2SeqConfig):
        return name_or_config
    if isinstance(name_or_config, dict):
        return s2s.Seq2SeqConfig(**name_or_config)
    if name_or_config not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {name_or_config!r}; known: {', '.join(ARCHITECTURES)} "
                         f"(or pass a Seq2SeqConfig)")
    return ARCHITECTURES[name_or_config]


def test_subset(split_name: str, max_test: int | None, seed: int = 0) -> list[scan.Pair]:
    """The split's test set, or a seeded sample of ``max_test`` of it (for quick profiles)."""
    _, test = scan.split(split_name, seed=seed)
    if max_test is None or max_test >= len(test):
        return test
    return random.Random(f"test-{split_name}").sample(test, max_test)


def _train_and_evaluate(split_name: str, config: s2s.Seq2SeqConfig, seed: int,
                        settings: s2s.TrainSettings, max_test: int | None) -> dict:
    source_vocab, target_vocab = vocabularies()
    train, _ = scan.split(split_name, seed=seed)
    test = test_subset(split_name, max_test, seed)
    seed_everything(seed)
    model = s2s.build_model(config, len(source_vocab), len(target_vocab))
    start = time.perf_counter()
    log = s2s.fit_seq2seq(model, s2s.encode_pairs(train, source_vocab, target_vocab), settings,
                          desc=f"{split_name}, seed {seed}")
    seconds = time.perf_counter() - start
    # training accuracy on a sample of distinct training commands (as large as the test subset)
    sample_size = min(max_test or 2_000, 2_000, len(set(train)))
    train_sample = random.Random(seed).sample(sorted(set(train)), sample_size)
    evaluation = s2s.evaluate(model, test, source_vocab, target_vocab)
    result = {
        "split": split_name, "architecture": config.to_dict(), "seed": seed,
        "presentations": settings.presentations, "batch_size": settings.batch_size,
        "learning_rate": settings.learning_rate, "final_lr_fraction": settings.final_lr_fraction,
        "train_seconds": round(seconds, 1),
        "accuracy": evaluation.accuracy,
        "train_accuracy": s2s.evaluate(model, train_sample, source_vocab, target_vocab).accuracy,
        "test_size": len(test),
        "correct": evaluation.correct.astype(int).tolist(),
        "final_loss": float(np.mean(log.losses[-100:])),
    }
    if split_name == "length":
        oracle = s2s.evaluate(model, test, source_vocab, target_vocab, oracle_length=True)
        result["oracle_accuracy"] = oracle.accuracy
        result["oracle_correct"] = oracle.correct.astype(int).tolist()
    return {"result": result, "state_dict": {k: v.clone() for k, v in model.state_dict().items()}}


# The paper's training exactly: one example per update, Adam at a constant 1e-3, 100,000
# presentations. Slow (about 40 presentations/s on one core), so only a control run uses it.
PER_EXAMPLE_TRAINING = {"presentations": 100_000, "batch_size": 1, "learning_rate": 1e-3,
                        "final_lr_fraction": 1.0}


def train_options(settings: dict, training: str = "batched") -> dict:
    """The keyword arguments of :func:`run` that a profile's ``scan`` settings fix.

    ``training="per_example"`` swaps in the paper's one-example-at-a-time training.
    """
    keys = ("presentations", "batch_size", "learning_rate", "final_lr_fraction", "max_test")
    options = {key: settings[key] for key in keys}
    if training == "per_example":
        options.update(PER_EXAMPLE_TRAINING)
    elif training != "batched":
        raise ValueError(f"unknown training {training!r}: expected 'batched' or 'per_example'")
    return options


def train_settings(settings: dict, presentations: int | None = None, seed: int = 0) -> s2s.TrainSettings:
    """The training a profile's ``scan`` settings describe (optionally with other presentations)."""
    return s2s.TrainSettings(presentations=presentations or settings["presentations"],
                             batch_size=settings["batch_size"], learning_rate=settings["learning_rate"],
                             final_lr_fraction=settings["final_lr_fraction"], seed=seed)


def run(split_name: str, arch: str | s2s.Seq2SeqConfig = "overall_best", seed: int = 0, *,
        presentations: int = 100_000, batch_size: int = 32, learning_rate: float = 1e-3,
        final_lr_fraction: float = 1.0, max_test: int | None = None, return_model: bool = False):
    """Train ``arch`` on ``split_name`` with ``seed`` and evaluate it (cached on disk).

    The defaults are the paper's training (100,000 presentations, Adam 1e-3), batched. Returns
    the result dict (accuracy, train_accuracy, per-test-example ``correct``, ...) and, with
    ``return_model=True``, also the trained model (in eval mode).
    """
    scan.split(split_name)  # fails early, with the list of names, on an unknown split
    config = architecture(arch)
    settings = s2s.TrainSettings(presentations=presentations, batch_size=batch_size, seed=seed,
                                 learning_rate=learning_rate, final_lr_fraction=final_lr_fraction)
    key = {"split": split_name, "architecture": config.to_dict(), "seed": seed,
           "settings": asdict(settings), "max_test": max_test}
    entry = cache.cached("scan-run", key,
                         lambda: _train_and_evaluate(split_name, config, seed, settings, max_test))
    if not return_model:
        return entry["result"]
    source_vocab, target_vocab = vocabularies()
    model = s2s.build_model(config, len(source_vocab), len(target_vocab))
    model.load_state_dict(entry["state_dict"])
    return entry["result"], model.eval()


def accuracy_by_length(split_name: str, result: dict, key: str = "correct", seed: int = 0,
                       max_test: int | None = None) -> dict[str, dict[int, float]]:
    """Accuracy per action-sequence length and per command length (Fig. 4 of the paper)."""
    test = test_subset(split_name, max_test, seed)
    correct = np.array(result[key], dtype=bool)
    if len(correct) != len(test):
        raise ValueError(f"the result has {len(correct)} test outcomes, the split {len(test)}")
    by_actions: dict[int, list[bool]] = {}
    by_words: dict[int, list[bool]] = {}
    for (command, actions), ok in zip(test, correct):
        by_actions.setdefault(len(actions.split()), []).append(bool(ok))
        by_words.setdefault(len(command.split()), []).append(bool(ok))
    return {"action length": {n: float(np.mean(v)) for n, v in sorted(by_actions.items())},
            "command length": {n: float(np.mean(v)) for n, v in sorted(by_words.items())}}


def nearest_neighbours(model: torch.nn.Module, queries: list[str], k: int = 3,
                       candidates: list[str] | None = None) -> dict[str, list]:
    """For each query command, the ``k`` candidate commands whose encodings are closest (cosine).

    The encoding is the encoder's final hidden state (Table 1 of the paper); the candidates are
    all SCAN commands unless given (the paper used the training commands). A query is never
    its own neighbour.
    """
    source_vocab, _ = vocabularies()
    commands = list(candidates) if candidates is not None else [c for c, _ in scan.all_pairs()]
    for command in [*queries, *commands]:
        scan.parse(command)
    with torch.no_grad():
        everything = torch.nn.functional.normalize(s2s.encode(model, commands, source_vocab), dim=1)
        asked = torch.nn.functional.normalize(s2s.encode(model, queries, source_vocab), dim=1)
        similarity = asked @ everything.T
    out = {}
    position = {command: j for j, command in enumerate(commands)}
    for i, query in enumerate(queries):
        if query in position:
            similarity[i, position[query]] = -2.0  # not itself
        values, index = similarity[i].topk(k)
        out[query] = [(commands[j], round(float(v), 3)) for v, j in zip(values, index.tolist())]
    return out


def committed_runs(profile: str = "paper", training: str | None = "batched"):
    """The finished runs of ``results/scan/<profile>.json`` as a DataFrame (empty if none).

    Columns: those of :func:`run`'s results without the per-example outcomes, plus ``network``,
    the :data:`ARCHITECTURES` name of the run's architecture (``"custom"`` for any other), and
    ``training``: ``"per_example"`` for the paper's one-at-a-time control runs, else
    ``"batched"``. Only runs with that ``training`` are returned (all with ``training=None``).
    """
    import pandas as pd

    from tutorlib.results import project_results, read_results

    path = project_results("scan", f"{profile}.json")
    if not path.exists():
        return pd.DataFrame(columns=["split", "network", "seed", "accuracy"])
    runs = pd.DataFrame(read_results(path)["data"]["runs"])
    names = {tuple(sorted(c.to_dict().items())): n for n, c in ARCHITECTURES.items()}
    runs["network"] = runs["architecture"].map(lambda a: names.get(tuple(sorted(a.items())), "custom"))
    runs["training"] = np.where(runs["batch_size"] == 1, "per_example", "batched")
    return runs if training is None else runs[runs["training"] == training].reset_index(drop=True)


def compare_with_paper(splits: list[str], profile: str = "paper"):
    """Committed runs of ``splits`` (mean over seeds) beside the paper's accuracy, as a table.

    A split the paper did not run (the template and filler splits) gets one row, for the
    overall-best network, with no paper value.
    """
    import pandas as pd

    runs = committed_runs(profile)
    rows = []
    for split_name in splits:
        scan.split(split_name)  # fails early, with the list of names, on an unknown split
        for network, paper_value in PAPER.get(split_name, {"overall_best": None}).items():
            mine = runs[(runs["split"] == split_name) & (runs["network"] == network)]
            rows.append({"split": split_name, "network": network, "seeds run": len(mine),
                         "presentations": mine["presentations"].max() if len(mine) else None,
                         "training accuracy (%)": 100 * mine["train_accuracy"].mean() if len(mine) else None,
                         "test accuracy (%)": 100 * mine["accuracy"].mean() if len(mine) else None,
                         "paper (%)": paper_value})
    return pd.DataFrame(rows).set_index(["split", "network"])


# ---------------------------------------------------------------------------------------------
# The paper profile: every configuration, resumably


def paper_configurations(settings: dict) -> list[dict]:
    """The (split, architecture) pairs a profile runs, each with its seeds."""
    # settings["architecture"] plays the overall-best network (ci swaps in a tiny stand-in)
    configs = [{"split": split_name, "architecture": settings["architecture"]}
               for split_name in settings["overall_best_splits"]]
    configs += [{"split": split_name, "architecture": "exp2_best"}
                for split_name in settings["exp2_best_splits"]]
    return configs


def part_name(config: dict) -> str:
    """How ``--only`` names a configuration: its split, plus ``@per_example`` for the control."""
    return config["split"] + (f"@{config['training']}" if "training" in config else "")


def run_experiment(profile: str, out_dir: str | os.PathLike = "results",
                   only: list[str] | None = None) -> Path:
    """``python -m tutorlib run scan``: every configuration of ``profile``, resumably.

    Each finished (configuration, seed) is saved at once under ``out_dir/scan/runs``; a run
    started again skips them. ``only`` restricts this invocation to some splits (so that several
    processes can share the work; ``only=[]`` just rewrites the summary). The summary
    ``out_dir/scan/<profile>.json``, rewritten after every run, lists every finished run of the
    profile and says whether all of them are there.
    """
    settings = profiles.settings("scan", profile)
    directory = Path(out_dir) / "scan"
    store = RunStore(directory / "runs")
    # (configuration, seed) pairs, seed by seed (a stopped run has covered every split once
    # before it repeats any); each composed-jump replication is its own split, trained once
    pairs = [(config, seed) for seed in settings["seeds"] for config in paper_configurations(settings)]
    pairs += [({"split": f"addprim_complex_jump_num{n}_rep{r}", "architecture": settings["architecture"]},
               r - 1) for n in settings["complex_jump_nums"]
              for r in range(1, settings["complex_jump_reps"] + 1)]
    pairs += [({"split": split_name, "architecture": settings["architecture"],
                "training": "per_example"}, 0) for split_name in settings["per_example_splits"]]
    if only is not None:
        unknown = set(only) - {part_name(config) for config, _ in pairs}
        if unknown:
            raise ValueError(f"--only names splits this profile does not run: {', '.join(sorted(unknown))}")

    def one(config: dict, seed: int) -> dict:
        result = run(config["split"], config["architecture"], seed,
                     **train_options(settings, config.get("training", "batched")))
        # a compact record (committed with the results, so that later sessions resume)
        record = {k: v for k, v in result.items() if k not in ("correct", "oracle_correct")}
        if config["split"] == "length":  # Fig. 4: accuracy by action and command length
            record["by_length"] = accuracy_by_length("length", result, max_test=settings["max_test"])
            record["oracle_by_length"] = accuracy_by_length("length", result, "oracle_correct",
                                                            max_test=settings["max_test"])
        return record

    def write_summary() -> Path:
        return store.write_summary(directory / f"{profile}.json", pairs,
                                   {"settings": settings, "paper": PAPER},
                                   profile=profile, seeds=settings["seeds"])

    for config, seed in pairs:
        if (only is None or part_name(config) in only) and not store.has(config, seed):
            run_resumable(store, [config], [seed], one, progress=False)
            write_summary()  # after every run, so a stopped process leaves a current summary
    return write_summary()
