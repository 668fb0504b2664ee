"""Lake & Baroni's (2018) SCAN experiments 1-3: architectures, cached runs, the paper's numbers.

One *run* trains an architecture on a split with a seed (:func:`run`) and evaluates it on the
split's test set: exact-match accuracy, whether each test command was right (for breakdowns by
length), and for the length split also oracle-length accuracy. Runs are cached on disk by their
full configuration, so a chapter executed twice trains nothing the second time.

``python -m tutorlib run scan --profile full`` runs every configuration of the ``full``
profile (resumably) and writes ``results/scan/full.json``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from tutorlib import fit, results, scan
from tutorlib import seq2seq as s2s

# the architectures, the profiles' settings, one run and the split names, in a module of
# their own, importable from here as before
from tutorlib.scan import training as _training
from tutorlib.scan.training import (  # noqa: F401
    ARCHITECTURES,
    CACHE_FORMAT,
    GATE_POOL,
    GATE_TEACHER_FORCING,
    PER_EXAMPLE_TRAINING,
    SETTINGS,
    ScanSettings,
    architecture,
    check_training,
    describe,
    run,
    run_pairs,
    split_info,
    test_subset,
    train_options,
    training_recipe,
    vocabularies,
)
from tutorlib.train import resolve_device

# re-exported by assignment, not by import: the functions below name a split ``split_name``
split_name = _training.split_name

# Accuracies (%) reported by Lake & Baroni (2018), for the chapters to show beside ours; the size
# curve's and the composed jumps' are stated in the text (Fig. 3: "about" 5, 54 and 93%; Fig. 5).
PAPER = {
    "simple": {"overall_best": 99.7, "exp1_best": 99.8},
    "simple_p1": {"overall_best": 5.0},
    "simple_p2": {"overall_best": 54.0},
    "simple_p4": {"overall_best": 93.0},
    "length": {"overall_best": 13.8, "exp2_best": 20.8},
    "length_oracle": {"overall_best": 23.6, "exp2_best": 60.2},
    "addprim_turn_left": {"overall_best": 90.0, "turn_left_best": 90.3},
    "addprim_jump": {"overall_best": 0.08, "jump_best": 1.2},
    "addprim_complex_jump_num4": {"overall_best": 4.1},  # Fig. 5
    "addprim_complex_jump_num8": {"overall_best": 15.3},
    "addprim_complex_jump_num16": {"overall_best": 70.2},
    "addprim_complex_jump_num32": {"overall_best": 89.9},
}

# Table 1 of Lake & Baroni (2018): for each query, the training commands whose encodings (the
# final hidden state of the overall-best network trained on addprim_jump) are closest by cosine
# similarity, best first; the three closest of the five the table lists, and their cosine
# similarities (PAPER_SIMILARITIES, in the same order).
PAPER_SIMILARITIES = {"run": (0.73, 0.65, 0.55), "jump": (0.15, 0.13, 0.12),
                      "run twice": (0.72, 0.65, 0.64), "jump twice": (0.19, 0.16, 0.12)}
PAPER_NEIGHBOURS = {
    "run": ["look", "walk", "walk after run"],
    "jump": ["run", "walk", "turn right"],
    "run twice": ["look twice", "run twice and look opposite right thrice",
                  "run twice and run right twice"],
    "jump twice": ["walk and walk", "run and walk", "walk opposite right and walk"],
}


def live_fit(split_name: str, result: dict, network: str | None = None) -> dict:
    """A run's fit as a row of :func:`tutorlib.fit.show_live_fits`: its training accuracy and,
    on the random splits (``simple``, ``simple_pN``), whose test set is in distribution, its
    test accuracy against the paper's overall-best network on that split minus 5 points.

    Examples
    --------
    >>> live_fit("simple", {"train_accuracy": 0.99, "accuracy": 0.96, "train_seconds": 70.0},
    ...          "GRU")["bar"]
    0.947
    """
    random_split = split_name == "simple" or split_name.startswith("simple_p")
    paper = PAPER.get(split_name, {}).get("overall_best") if random_split else None
    return fit.live_fit(network or f"{split_name}, seed {result.get('seed', 0)}",
                        result["train_accuracy"], result["accuracy"] if random_split else None,
                        paper=None if paper is None else paper / 100,
                        seconds=result.get("train_seconds"))


def passes_gate(runs) -> list[bool]:
    """The fit gate's verdict on each run of a frame of run records (:func:`committed_runs`), in
    order: :func:`live_fit`'s rule, the test set read as in distribution on the random splits."""
    return [live_fit(run["split"], run)["passes"] for _, run in runs.iterrows()]


# ---------------------------------------------------------------------------------------------
# The experiment: every configuration of a profile, resumably


def run_settings(split_name: str, arch: str | dict | s2s.Seq2SeqConfig, settings: ScanSettings,
                 training: str = "batched") -> dict:
    """Everything that changes one run's result except its seed: the key of a committed run."""
    return {"split": split_name, "architecture": architecture(arch).to_dict(),
            "training": training, **train_options(settings, training)}


def paper_configurations(settings: ScanSettings) -> list[dict]:
    """The (split, architecture, training) triples a profile runs on each of its seeds."""
    # settings["architecture"] plays the overall-best network (ci swaps in a tiny stand-in)
    configs = [{"split": split_name, "architecture": settings["architecture"],
                "training": "batched"} for split_name in settings["overall_best_splits"]]
    configs += [{"split": split_name, "architecture": settings["architecture"],
                 "training": "per_example"} for split_name in settings["per_example_splits"]]
    configs += [{"split": split_name, "architecture": network,
                 "training": ("per_example" if split_name in settings["per_example_splits"]
                              else "batched")}
                for network, splits in settings["top_splits"].items() for split_name in splits]
    return configs


def runs(settings: ScanSettings) -> list[tuple[dict, int]]:
    """Every (run settings, seed) pair of a profile, seed by seed (a stopped sweep has covered
    every split once before it repeats any); each composed-jump replication is its own split,
    trained once, with seed ``rep - 1``."""
    pairs = [(run_settings(c["split"], c["architecture"], settings, c["training"]), seed)
             for seed in settings["seeds"] for c in paper_configurations(settings)]
    pairs += [(run_settings(f"addprim_complex_jump_num{n}_rep{r}", settings["architecture"],
                            settings), r - 1)
              for n in settings["complex_jump_nums"]
              for r in range(1, settings["complex_jump_reps"] + 1)]
    return pairs


def part_name(config: dict, seed: int = 0) -> str:
    """How ``--only`` names a run: its split, plus ``@per_example`` for the control."""
    training = config.get("training", "batched")
    return config["split"] + (f"@{training}" if training != "batched" else "")


# The splits whose committed records keep every wrong test command and its prediction
ERROR_SPLITS = ("addprim_turn_left",)


def turn_left_error_kind(command: str) -> str:
    """Which kind of ``addprim_turn_left`` test command this is, in the terms of the paper's
    error analysis (Lake & Baroni 2018, Sec. 5): a conjunction (``and`` / ``after``) one of whose
    parts is plain ``turn left`` or ``turn left thrice``, another conjunction, or a single
    command.

    Examples
    --------
    >>> turn_left_error_kind("jump and turn left")
    "conjunction with 'turn left'"
    >>> turn_left_error_kind("turn left thrice after walk twice")
    "conjunction with 'turn left thrice'"
    >>> turn_left_error_kind("turn left twice")
    'single command'
    """
    scan.parse(command)
    for word in ("and", "after"):
        if f" {word} " in f" {command} ":
            parts = [p.strip() for p in f" {command} ".split(f" {word} ")]
            if "turn left" in parts:
                return "conjunction with 'turn left'"
            if "turn left thrice" in parts:
                return "conjunction with 'turn left thrice'"
            return "other conjunction"
    return "single command"


def run_one(config: dict, seed: int, device: str = "cpu") -> dict:
    """One run of the sweep, as the compact record that is committed (no per-example outcomes,
    but accuracy by length for the length split: the paper's Fig. 4)."""
    options = {k: config[k] for k in ("presentations", "batch_size", "learning_rate",
                                      "final_lr_fraction", "max_test", "stop_at") if k in config}
    result = run(config["split"], config["architecture"], seed, device=device, **options)
    result = {**result, "device": str(resolve_device(device))}
    record = {k: v for k, v in result.items()
              if k not in ("correct", "oracle_correct", "errors")}
    if config["split"] in ERROR_SPLITS:  # few enough to commit, and analysed in chapter 5
        record["errors"] = result["errors"]
    if config["split"] == "length":
        record["by_length"] = accuracy_by_length("length", result, max_test=config["max_test"])
        record["oracle_by_length"] = accuracy_by_length("length", result, "oracle_correct",
                                                        max_test=config["max_test"])
    return record


def summarise(settings: ScanSettings, finished: list[dict]) -> dict:
    return {"published": PAPER}


EXPERIMENT = results.Experiment(name="scan", runs=runs, run=run_one, summarise=summarise,
                                part=part_name)


# ---------------------------------------------------------------------------------------------
# Reading runs: breakdowns, neighbours, committed results beside the paper


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


#: The states :func:`nearest_neighbours` can compare commands by.
STATES = ("encoder", "decoder")
_DECODE_LIMIT = 49  # SCAN's longest action sequence (48 actions) and its end


def _states(model: torch.nn.Module, commands: list[str], state: str) -> torch.Tensor:
    source_vocab, _ = vocabularies()
    if state == "encoder":
        return s2s.encode(model, commands, source_vocab)
    if not hasattr(model, "final_decoder_hidden"):
        raise ValueError("the decoder's final state is defined for the recurrent networks only")
    model.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(commands), 512):
            source, lengths = s2s.pad_batch([source_vocab.encode(c.split())
                                             for c in commands[start:start + 512]])
            out.append(model.final_decoder_hidden(source, lengths, max_length=_DECODE_LIMIT))
    return torch.cat(out)


def nearest_neighbours(model: torch.nn.Module, queries: list[str], k: int = 3,
                       candidates: list[str] | None = None, state: str = "encoder"
                       ) -> dict[str, list]:
    """For each query command, the ``k`` candidate commands whose states are closest (cosine).

    ``state="encoder"``: the encoder's final hidden state (the decoder's initial state);
    ``"decoder"``: the decoder's hidden state when it emits the end of the actions (recurrent
    networks). Lake & Baroni's Table 1 compares a final hidden state; both are offered, since
    the two readings differ. The candidates are all SCAN
    commands unless given (the paper used the training commands). A query is never its own
    neighbour.
    """
    if state not in STATES:
        raise ValueError(f"state must be one of {', '.join(STATES)}, got {state!r}")
    commands = list(candidates) if candidates is not None else [c for c, _ in scan.all_pairs()]
    for command in [*queries, *commands]:
        scan.parse(command)
    with torch.no_grad():
        everything = torch.nn.functional.normalize(_states(model, commands, state), dim=1)
        asked = torch.nn.functional.normalize(_states(model, queries, state), dim=1)
        similarity = asked @ everything.T
    out = {}
    position = {command: j for j, command in enumerate(commands)}
    for i, query in enumerate(queries):
        if query in position:
            similarity[i, position[query]] = -2.0  # not itself
        values, index = similarity[i].topk(k)
        out[query] = [(commands[j], round(float(v), 3)) for v, j in zip(values, index.tolist())]
    return out


#: The committed Table 1 study of the full profile's network (:func:`write_neighbour_study`).
NEIGHBOURS_FILE = "neighbours-full.json"


def neighbour_study(profile: str = "full", seed: int = 0, k: int = 3) -> dict:
    """Lake & Baroni's Table 1 with the overall-best network that ``profile`` trains on
    ``addprim_jump`` (from the cache, or trained: about 10 minutes on one core at the full
    profile): for each of the paper's four queries, the ``k`` nearest training commands by the
    encoder's final state and by the decoder's, with the network's accuracies.

    Parameters
    ----------
    profile : str
        The profile whose ``scan`` training settings the network is trained with.
    seed : int
        Its seed.
    k : int
        Neighbours per query.

    Returns
    -------
    dict
        ``network``, ``seed``, ``accuracy`` (on the add-jump test set), ``train_accuracy`` and
        ``rows`` (state, query, rank, command, similarity, and the paper's command and
        similarity at that rank).
    """
    from tutorlib import profiles

    settings = profiles.settings("scan", profile)
    result, model = run("addprim_jump", "overall_best", seed, return_model=True,
                        **train_options(settings))
    training = sorted({command for command, _ in scan.split("addprim_jump")[0]})
    queries = list(PAPER_NEIGHBOURS)
    rows = []
    for state in STATES:
        found = nearest_neighbours(model, queries, k=k, candidates=training, state=state)
        for query in queries:
            for rank, (command, similarity) in enumerate(found[query], start=1):
                rows.append({"state": state, "query": query, "rank": rank, "command": command,
                             "similarity": similarity,
                             "paper command": PAPER_NEIGHBOURS[query][rank - 1],
                             "paper similarity": PAPER_SIMILARITIES[query][rank - 1]})
    return {"network": "overall_best", "seed": seed, "accuracy": result["accuracy"],
            "train_accuracy": result["train_accuracy"], "rows": rows}


def write_neighbour_study(seed: int = 0) -> Path:
    """Run :func:`neighbour_study` at the full profile and write it to
    ``results/scan/neighbours-full.json`` (with provenance); return the path.

    Parameters
    ----------
    seed : int
        The network's seed.

    Returns
    -------
    Path
        The file written.
    """
    import time

    start = time.perf_counter()
    data = neighbour_study("full", seed)
    return results.write_results(results.project_results("scan", NEIGHBOURS_FILE), data,
                                 profile="full", seeds=[seed],
                                 wall_time=time.perf_counter() - start,
                                 command="tutorlib.scan.experiments.write_neighbour_study()")


def committed_neighbours():
    """The committed full-profile Table 1 study as a DataFrame (a row per state, query and rank),
    with the network's accuracies in ``attrs``; empty if none is committed."""
    import pandas as pd

    path = results.project_results("scan", NEIGHBOURS_FILE)
    if not path.exists():
        return pd.DataFrame(columns=["state", "query", "rank", "command", "similarity",
                                     "paper command", "paper similarity"])
    data = results.read_results(path)["data"]
    frame = pd.DataFrame(data["rows"])
    frame.attrs.update({key: data[key] for key in ("network", "seed", "accuracy",
                                                    "train_accuracy")})
    return frame


def committed_runs(profile: str = "full", training: str | None = "batched"):
    """The finished runs of ``results/scan/<profile>.json`` as a DataFrame (empty if none).

    Columns: those of :func:`run`'s results without the per-example outcomes, plus ``network``,
    the :data:`ARCHITECTURES` name of the run's architecture (``"custom"`` for any other), and
    ``training``: ``"per_example"`` for the paper's one-at-a-time control runs, else
    ``"batched"``. Only runs with that ``training`` are returned (all with ``training=None``).
    """
    runs = results.committed_runs("scan", profile, columns=["split", "network", "seed", "accuracy",
                                                            "training", "batch_size"])
    if runs.empty:
        return runs
    runs["network"] = runs["architecture"].map(network_name)
    runs["training"] = np.where(runs["batch_size"] == 1, "per_example", "batched")
    return runs if training is None else runs[runs["training"] == training].reset_index(drop=True)


def compare_with_paper(splits: list[str], profile: str = "full", training: str = "batched"):
    """Committed runs of ``splits`` (mean over seeds) beside the published accuracy, as a table.

    The column ``published (%)`` holds Lake & Baroni's (2018) number (:data:`PAPER`), one row
    for each network the paper reports on the split. A split the paper did not run (the template
    and filler splits) gets one row, for the overall-best network, with no published value.
    ``training`` picks the committed runs: ``"batched"`` (ours) or ``"per_example"`` (the
    paper's).
    """
    import pandas as pd

    if training not in ("batched", "per_example"):
        raise ValueError(f"unknown training {training!r}: expected 'batched' or 'per_example'")
    runs = committed_runs(profile, training)
    rows = []
    for split_name in splits:
        scan.split(split_name)  # fails early, with the list of names, on an unknown split
        for network, paper_value in PAPER.get(split_name, {"overall_best": None}).items():
            mine = runs[(runs["split"] == split_name) & (runs["network"] == network)]
            rows.append({"split": split_name, "network": network, "seeds run": len(mine),
                         "presentations": mine["presentations"].max() if len(mine) else None,
                         "training accuracy (%)": 100 * mine["train_accuracy"].mean() if len(mine) else None,
                         "test accuracy (%)": 100 * mine["accuracy"].mean() if len(mine) else None,
                         "published (%)": paper_value})
    return pd.DataFrame(rows).set_index(["split", "network"])


def network_name(config: dict) -> str:
    """The :data:`ARCHITECTURES` name of an architecture given as a dict (``"custom"`` if none)."""
    names = {tuple(sorted(c.to_dict().items())): n for n, c in ARCHITECTURES.items()}
    return names.get(tuple(sorted(config.items())), "custom")


def compare_trainings(splits: list[str], profile: str = "full"):
    """:func:`compare_with_paper` for both trainings at once, with the seeds the profile plans.

    One row per (split, network, training) that the profile runs or that has committed runs;
    ``seeds run`` of ``seeds planned`` says how far the full profile has got.
    """
    import pandas as pd

    from tutorlib import profiles

    planned: dict[tuple, int] = {}
    for config, _ in runs(profiles.settings("scan", profile)):
        key = (config["split"], network_name(config["architecture"]), config["training"])
        planned[key] = planned.get(key, 0) + 1
    table = pd.concat({training: compare_with_paper(splits, profile, training)
                       for training in ("batched", "per_example")}, names=["training"])
    table = table.reorder_levels(["split", "network", "training"])
    table.insert(1, "seeds planned", [planned.get(key, 0) for key in table.index])
    table = table[(table["seeds run"] > 0) | (table["seeds planned"] > 0)]
    # each split's rows together, in the order asked; within a split, batched rows first
    present = set(table.index.get_level_values("split"))
    return pd.concat([table.xs(name, level="split", drop_level=False)
                      for name in splits if name in present])


# The paper's error analysis of its median turn-left run (overall-best network, Sec. 5 of Lake &
# Baroni 2018): all 45 errors are conjunctions one of whose parts is "turn left" (22) or "turn left
# thrice" (23); "turn left thrice" alone is translated correctly.
PAPER_TURN_LEFT_ERRORS = {"errors": 45, "conjunction with 'turn left'": 22,
                          "conjunction with 'turn left thrice'": 23}


def turn_left_errors(profile: str = "full", network: str = "overall_best",
                     training: str = "per_example") -> dict | None:
    """The paper's error analysis on the median committed ``addprim_turn_left`` run.

    Among the committed runs of ``network`` trained with ``training`` that kept their errors,
    takes the median by accuracy (the lower one of an even count) and sorts its wrong test
    commands with :func:`turn_left_error_kind`. Returns ``{"seed", "accuracy", "runs", "errors",
    "kinds": {kind: count}, "thrice_alone_right", "examples": [(command, target, output)]}``, or
    None when no such run is committed yet.
    """
    committed = committed_runs(profile, training)
    if committed.empty or "errors" not in committed:
        return None
    mine = committed[(committed["split"] == "addprim_turn_left")
                     & (committed["network"] == network) & committed["errors"].notna()]
    if mine.empty:
        return None
    mine = mine.sort_values(["accuracy", "seed"]).reset_index(drop=True)
    median = mine.iloc[(len(mine) - 1) // 2]
    errors = [(command, " ".join(scan.interpret(command)), output)
              for command, output in median["errors"]]
    kinds: dict[str, int] = {}
    for command, _, _ in errors:
        kind = turn_left_error_kind(command)
        kinds[kind] = kinds.get(kind, 0) + 1
    return {"seed": int(median["seed"]), "accuracy": float(median["accuracy"]), "runs": len(mine),
            "errors": len(errors), "kinds": kinds,
            "thrice_alone_right": "turn left thrice" not in {c for c, _, _ in errors},
            "examples": errors}


def accuracy_summary(runs, by: str | list[str] = ("split", "network")):
    """Statistics over seeds of runs (a :func:`committed_runs` table), in percent, a row a group.

    Parameters
    ----------
    runs : pandas.DataFrame
        Runs as :func:`committed_runs` returns them.
    by : str or list of str
        The columns to group by; a :func:`split_info` parameter that is not a column (``num``,
        ``percent``, ``rep``, ...) is read off the split names.

    Returns
    -------
    pandas.DataFrame
        ``runs``; ``accuracy`` (test, mean), ``accuracy sd``, ``accuracy min``, ``accuracy
        max``; ``train accuracy`` (mean) and ``train accuracy min``; for the length split also
        ``oracle accuracy`` and its ``sd``, ``min`` and ``max``; ``train minutes`` (mean). Every
        accuracy in percent; the standard deviation over runs is NaN for a single run.

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"split": ["simple_p1", "simple_p1", "simple_p2"],
    ...                      "accuracy": [0.1, 0.3, 0.5], "train_accuracy": [1.0, 0.9, 1.0],
    ...                      "train_seconds": [60.0, 120.0, 60.0]})
    >>> table = accuracy_summary(runs, by="percent").round(1)
    >>> table["runs"].to_dict(), table["accuracy"].to_dict(), table["train accuracy min"].to_dict()
    ({1: 2, 2: 1}, {1: 20.0, 2: 50.0}, {1: 90.0, 2: 100.0})
    """
    import pandas as pd

    by = [by] if isinstance(by, str) else list(by)
    runs = runs.copy()
    for key in by:
        if key not in runs.columns:
            runs[key] = [split_info(name).get(key) for name in runs["split"]]
    groups = runs.groupby(by)
    table = pd.DataFrame({"runs": groups.size()})
    for column, label in [("accuracy", "accuracy"), ("oracle_accuracy", "oracle accuracy")]:
        if column in runs.columns and runs[column].notna().any():
            values = groups[column]
            table[label] = 100 * values.mean()
            table[f"{label} sd"] = 100 * values.std()
            table[f"{label} min"] = 100 * values.min()
            table[f"{label} max"] = 100 * values.max()
    table["train accuracy"] = 100 * groups["train_accuracy"].mean()
    table["train accuracy min"] = 100 * groups["train_accuracy"].min()
    if "train_seconds" in runs.columns:
        table["train minutes"] = groups["train_seconds"].mean() / 60
    return table
