"""Time-to-fit pilot for the report card (issue 50): how long each of the card's networks takes,
on one core, to pass the book's fit gate on a card task.

A run builds one task of the card's full profile (:func:`tutorlib.card.experiments.build_task`,
the sizes of ``SETTINGS["full"]``), trains one of its networks (``CARD_MODELS``) with the
card's recipe for that network (``network_recipe``) through the one trainer
(:func:`tutorlib.seq2seq.train_once`), evaluated twice an epoch on 500 of its training pairs
and on the task's in-distribution validation pairs, and stops at the first evaluation that
passes the gate (:func:`tutorlib.fit.passes`: 0.9 on both, the card's networks being no
paper's) or at ``--max-seconds`` of training. Its *time to fit* is the training seconds
(evaluations not counted) until that evaluation.

    python benchmarks/card_pilot.py --benchmark scan --task simple --model transformer \\
        --max-seconds 600 --out results/card/pilot
    python benchmarks/card_pilot.py --summary results/card/pilot

Each run writes one JSON record into ``--out`` (named by task, model and seed; an existing
record is kept, so a stopped pilot resumes); ``--summary DIR`` prints the table of every record
in DIR.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import torch  # noqa: E402
from time_to_fit import fit_record  # noqa: E402

from tutorlib import fit  # noqa: E402
from tutorlib import seq2seq as s2s  # noqa: E402
from tutorlib.card import experiments as ce  # noqa: E402

PILOT = {"evaluations_per_epoch": 2, "fit_size": 500, "max_epochs": 1000, "patience": 1000,
         "stop_at": [fit.TRAINING, fit.IN_DISTRIBUTION], "precision": "fp32"}


def _config(benchmark: str, task: str, model: str) -> dict:
    """The full card's settings of one run (seed aside)."""
    for config, _ in ce.runs(ce.SETTINGS["full"]):
        if (config["benchmark"], str(config["task"]), config["model"]) == (benchmark, task, model):
            return config
    known = sorted({(c["benchmark"], str(c["task"])) for c, _ in ce.runs(ce.SETTINGS["full"])})
    raise SystemExit(f"no card run {benchmark}/{task}/{model}: tasks {known}, models "
                     f"{list(ce.CARD_MODELS)}")


def measure(benchmark: str, task: str, model: str, seed: int, max_seconds: float,
            changes: dict | None = None) -> dict:
    config = _config(benchmark, task, model)
    config = {**config, "recipe": {**config["recipe"], **(changes or {})}}
    built = ce.build_task(config)
    every = [*built.train, *built.validation]
    vocabularies = (s2s.Vocabulary.from_sequences([s.split() for s, _ in every]),
                    s2s.Vocabulary.from_sequences([t.split() for _, t in every]))
    recipe = s2s.Recipe(**{**config["recipe"], **PILOT, "max_seconds": max_seconds})
    run = s2s.train_once(s2s.Seq2SeqConfig(**config["architecture"]), list(built.train),
                         vocabularies, recipe, seed, validation=list(built.validation),
                         desc=f"{task} {model}")
    return {"benchmark": benchmark, "task": task, "model": model, "seed": seed,
            "train_pairs": len(built.train), "validation_pairs": len(built.validation),
            "parameters": run.parameters, "recipe": {**config["recipe"], **PILOT},
            "max_seconds": max_seconds, "stopped": run.log.stopped, **fit_record(run)}


def summary(directory: Path) -> None:
    rows = [json.loads(p.read_text()) for p in sorted(directory.glob("*.json"))]
    print("| task | model | seed | parameters | to fit (s) | epochs | best train / valid | pairs/s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in sorted(rows, key=lambda r: (r["benchmark"], r["task"], list(ce.CARD_MODELS).index(r["model"]),
                                         r["seed"])):
        fitted = (f"{r['seconds_to_fit']:.0f}" if r["seconds_to_fit"] is not None
                  else f"not in {r['train_seconds']:.0f}")
        epochs = f"{r['epochs_to_fit']:.1f}" if r["epochs_to_fit"] is not None else "-"
        print(f"| {r['benchmark']} {r['task']} | {r['model']} | {r['seed']} | {r['parameters']:,} | "
              f"{fitted} | {epochs} | {r['best_train']:.3f} / {r['best_validation']:.3f} | "
              f"{r['pairs_per_second']:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmark")
    parser.add_argument("--task")
    parser.add_argument("--model", action="append", help="a network of CARD_MODELS (repeatable)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=600.0)
    parser.add_argument("--out", type=Path, default=ROOT / "results/card/pilot")
    parser.add_argument("--summary", type=Path)
    parser.add_argument("--loss-per", choices=s2s.LOSS_PER,
                        help="override the card recipe's loss_per (its file name says so)")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
        return
    if not (args.benchmark and args.task and args.model):
        parser.error("--benchmark, --task and --model are required to measure")
    if args.max_seconds <= 0:
        parser.error(f"--max-seconds must be positive, got {args.max_seconds}")
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    for model in args.model:
        changes = {"loss_per": args.loss_per} if args.loss_per else {}
        suffix = f"-loss-per-{args.loss_per}" if args.loss_per else ""
        path = args.out / f"{args.benchmark}-{args.task}-{model}-s{args.seed}{suffix}.json"
        if path.exists():
            print(f"{path.name}: kept", flush=True)
            continue
        tick = time.perf_counter()
        row = {**measure(args.benchmark, args.task, model, args.seed, args.max_seconds, changes),
               "wall_seconds": round(time.perf_counter() - tick, 1), "machine": platform.node(),
               "torch": torch.__version__, "threads": 1, "date": time.strftime("%Y-%m-%d")}
        path.write_text(json.dumps(row, indent=1))
        print(f"{path.name}: to fit {row['seconds_to_fit']} s, {row['pairs_per_second']:.0f} "
              f"pairs/s, best {row['best_train']:.3f} / {row['best_validation']:.3f}", flush=True)


if __name__ == "__main__":
    main()
