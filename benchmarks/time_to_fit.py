"""Time to fit and pairs per second of the one trainer, on one core (issue 49).

Four tasks, each a network the book trains: LSTM + attention on SCAN simple, the Transformer
on SCAN length, LSTMS2S on the fit-first reduction of PCFG SET (f3-o24-20k) and the
bidirectional LSTM on ORCHARD FIRST-LAST easy (40,000 pairs). Each is trained by
:func:`tutorlib.seq2seq.train_once` with a convergence recipe and a training budget, evaluated
twice an epoch on 500 of its training pairs and 500 in-distribution validation pairs; its *time
to fit* is the training seconds (evaluations not counted) until it first passes
:func:`tutorlib.fit.passes` (training at least 0.9, in distribution at least the paper's own
minus 5 points, or 0.9). One thread, seed 0.

    python benchmarks/time_to_fit.py --label after --out results/benchmarks/time_to_fit.json
    python benchmarks/time_to_fit.py --table results/benchmarks/time_to_fit.json

Run it on the old code (a worktree of the commit before) and the new, one after the other on
the same idle core, so that the two labels compare.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import torch  # noqa: E402

from tutorlib import fit  # noqa: E402
from tutorlib import seq2seq as s2s  # noqa: E402

# bucket_pool None: length-bucketed over the whole epoch, as these tasks were measured before
# issue 67 made pools of 8 batches the default (benchmarks/trainer_ablation.py varies it)
COMMON = {"max_epochs": 1000, "patience": 1000, "evaluations_per_epoch": 2, "fit_size": 500,
          "precision": "fp32", "bucket_pool": None, "loss_per": "batch"}


def scan_task(split: str) -> tuple[list, list, tuple]:
    from tutorlib import scan
    from tutorlib.scan import experiments as se

    train, test = scan.split(split)
    train = list(train)
    random.Random(f"ttf-{split}").shuffle(train)
    if split == "simple":  # a random split: its test set is in distribution
        validation = random.Random("ttf-valid").sample(list(test), 500)
    else:  # held out of the training pairs
        validation, train = train[:500], train[500:]
    return train, validation, se.vocabularies()


def pcfgset_task() -> tuple[list, list, tuple]:
    import pcfgset_pilot

    from tutorlib.pcfgset import experiments as pe

    candidate = pcfgset_pilot.CANDIDATES["f3-o24-20k"]
    train, validation = pcfgset_pilot.reduced_pairs(candidate)
    return train, validation[:500], pe.vocabularies(candidate["alphabet"])


def orchard_task() -> tuple[list, list, tuple]:
    from tutorlib.orchard import experiments as oe

    train = oe.model_pairs(oe.generate_part("firstlast_easy", "train", 40_000, 0))
    validation = oe.model_pairs(oe.generate_part("firstlast_easy", "valid", 500, 0))
    return train, validation, oe.vocabularies()


TASKS = {
    "scan-simple LSTM+attention": {
        "data": lambda: scan_task("simple"), "paper": 0.998, "max_seconds": 240,
        "config": {"cell": "lstm", "hidden_size": 128, "num_layers": 1, "dropout": 0.0,
                   "attention": True},
        "recipe": {"batch_size": 32, "learning_rate": 1e-3}},
    "scan-length Transformer": {
        "data": lambda: scan_task("length"), "paper": None, "max_seconds": 360,
        "config": {"cell": "transformer", "hidden_size": 128, "num_layers": 2, "dropout": 0.0,
                   "norm_first": True, "positions": "sinusoidal"},
        "recipe": {"batch_size": 32, "learning_rate": 5e-4, "betas": (0.9, 0.98),
                   "warmup_steps": 400}},
    "pcfgset-f3-o24-20k LSTMS2S": {
        "data": pcfgset_task, "paper": 0.79, "max_seconds": 300,
        "config": {"cell": "lstm", "hidden_size": 128, "num_layers": 1, "dropout": 0.0,
                   "attention": True, "bidirectional": True},
        "recipe": {"batch_size": 32, "learning_rate": 1e-3}},
    "orchard-firstlast-easy LSTM": {
        "data": orchard_task, "paper": None, "max_seconds": 240,
        "config": {"cell": "lstm", "hidden_size": 128, "num_layers": 1, "dropout": 0.1,
                   "attention": True, "bidirectional": True},
        "recipe": {"batch_size": 128, "learning_rate": 2e-3, "warmup_steps": 200,
                   "schedule": "inverse_sqrt"}},
}


def measure(name: str, seed: int = 0) -> dict:
    task = TASKS[name]
    train, validation, vocabularies = task["data"]()
    recipe = s2s.Recipe(**task["recipe"], **COMMON, max_seconds=task["max_seconds"])
    run = s2s.train_once(s2s.Seq2SeqConfig(**task["config"]), train, vocabularies, recipe, seed,
                         validation=validation, desc=name)
    return {"task": name, "train_pairs": len(train), "parameters": run.parameters,
            "gate_in_distribution": fit.in_distribution_bar(task["paper"]),
            **fit_record(run, task["paper"])}


def fit_record(run, paper: float | None = None) -> dict:
    """A trained run's time to fit (training seconds and epochs until its first evaluation that
    passes :func:`tutorlib.fit.passes`, None if none did), pace, best accuracies and history."""
    history = run.log.history
    passed = next((row for row in history if fit.passes(
        row["train_accuracy"], row["validation_accuracy"], paper=paper)), None)
    return {"seconds_to_fit": None if passed is None else passed["seconds"],
            "epochs_to_fit": None if passed is None else passed["epoch"],
            "train_seconds": run.log.train_seconds, "pairs_per_second": run.log.pairs_per_second,
            "best_train": max(r["train_accuracy"] for r in history),
            "best_validation": max(r["validation_accuracy"] for r in history),
            "history": [{k: r[k] for k in ("epoch", "seconds", "train_accuracy",
                                           "validation_accuracy")} for r in history]}


def table(path: Path) -> None:
    rows = json.loads(path.read_text())["runs"]
    labels = list(dict.fromkeys(r["label"] for r in rows))
    print("| task | " + " | ".join(f"{label}: to fit (s) | {label}: pairs/s" for label in labels)
          + " |")
    print("| --- |" + " --- | --- |" * len(labels))
    for name in TASKS:
        cells = []
        for label in labels:
            found = [r for r in rows if r["label"] == label and r["task"] == name]
            if not found:
                cells += ["not measured", "not measured"]
                continue
            r = found[-1]
            cells += [f"{r['seconds_to_fit']:.0f}" if r["seconds_to_fit"] is not None
                      else f"not within {r['train_seconds']:.0f}", f"{r['pairs_per_second']:.0f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", help="e.g. before, after")
    parser.add_argument("--task", action="append", choices=list(TASKS))
    parser.add_argument("--out", type=Path, default=ROOT / "results/benchmarks/time_to_fit.json")
    parser.add_argument("--table", type=Path)
    args = parser.parse_args()
    if args.table:
        table(args.table)
        return
    if not args.label:
        parser.error("--label is required to measure")
    torch.set_num_threads(1)
    for name in args.task or list(TASKS):
        tick = time.perf_counter()
        row = {"label": args.label, **measure(name), "wall_seconds": round(time.perf_counter() - tick, 1),
               "machine": platform.node(), "torch": torch.__version__, "threads": 1,
               "date": time.strftime("%Y-%m-%d")}
        data = json.loads(args.out.read_text()) if args.out.exists() else {"runs": []}
        data["runs"].append(row)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=1))
        print(f"{name}: to fit {row['seconds_to_fit']} s, {row['pairs_per_second']} pairs/s, "
              f"best {row['best_train']:.3f} / {row['best_validation']:.3f}", flush=True)


if __name__ == "__main__":
    main()
