"""What makes the one trainer sample-efficient: an ablation on :mod:`time_to_fit`'s four tasks
(issue 67), three seeds each, one thread a run.

Each variant changes one thing of the trainer or the network, every other setting as
:mod:`time_to_fit` has it (the two SCAN tasks are also :mod:`peer_joeynmt`'s):

- ``bucketed``: length-bucketed batches over the whole epoch (the default until issue 67);
- ``random``: random batches (``bucketed=False``);
- ``pools``: bucketed within pools of 8 batches (``bucket_pool=8``);
- ``random+tokens``: random batches, every target token weighing the same
  (``loss_per="token"``);
- ``random+xavier``: random batches, Xavier-uniform weights and zero biases (joeynmt's
  initialisation, ``weight_init="xavier"``);
- ``random+eos``: random batches, sources ended by ``<eos>`` (``source_eos=True``);
- ``pools+tokens``: the two that helped most on the first seed, together.

A run trains to the fit gate (``stop_at``: training at least 0.9, in distribution at least the
paper's own minus 5 points or 0.9), evaluated twice an epoch on 500 training and 500 validation
pairs, within the task's training budget; its *time to fit* is the training seconds (evaluations
not counted) to the first evaluation that passes, None where none did. Every finished run is
saved at once (``--out``), and a run already there is skipped: the sweep resumes.

    python benchmarks/trainer_ablation.py --jobs 2                  # every task, variant, seed
    python benchmarks/trainer_ablation.py --task "scan-length Transformer" --variant random
    python benchmarks/trainer_ablation.py --table                   # the committed table
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import time_to_fit as ttf  # noqa: E402

OUT = ROOT / "results/benchmarks/trainer_ablation.json"
SEEDS = (0, 1, 2)
# name -> (recipe fields, config fields) changed from the task's own
VARIANTS = {
    "bucketed": ({"bucketed": True, "bucket_pool": None}, {}),
    "random": ({"bucketed": False}, {}),
    "pools": ({"bucketed": True, "bucket_pool": 8}, {}),
    "random+tokens": ({"bucketed": False, "loss_per": "token"}, {}),
    "random+xavier": ({"bucketed": False, "weight_init": "xavier"}, {}),
    "random+eos": ({"bucketed": False}, {"source_eos": True}),
    "pools+tokens": ({"bucketed": True, "bucket_pool": 8, "loss_per": "token"}, {}),
}


def measure(task_name: str, variant: str, seed: int) -> dict:
    """One run of ``task_name`` with ``variant`` at ``seed``: its time to fit and pace."""
    import torch

    from tutorlib import fit
    from tutorlib import seq2seq as s2s

    torch.set_num_threads(1)
    task = ttf.TASKS[task_name]
    recipe_fields, config_fields = VARIANTS[variant]
    train, validation, vocabularies = task["data"]()
    bar = fit.in_distribution_bar(task["paper"])
    recipe = s2s.Recipe(**{**task["recipe"], **ttf.COMMON, **recipe_fields},
                        max_seconds=task["max_seconds"], stop_at=(fit.TRAINING, bar))
    config = s2s.Seq2SeqConfig(**{**task["config"], **config_fields})
    tick = time.perf_counter()
    run = s2s.train_once(config, train, vocabularies, recipe, seed, validation=validation,
                         desc=f"{task_name} {variant} {seed}")
    return {"task": task_name, "variant": variant, "seed": seed, "stopped": run.log.stopped,
            "budget_seconds": task["max_seconds"], **ttf.fit_record(run, task["paper"]),
            "padded_share": run.log.padded_share, "wall_seconds": round(time.perf_counter() - tick, 1),
            "recipe": recipe.to_dict(), "config": config.to_dict(), "machine": platform.node(),
            "torch": torch.__version__, "threads": 1, "date": time.strftime("%Y-%m-%d")}


def _measure(job: tuple[str, str, int]) -> dict:
    os.environ.setdefault("TQDM_DISABLE", "1")
    return measure(*job)


def load(path: Path) -> list[dict]:
    return json.loads(path.read_text())["runs"] if path.exists() else []


def save(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps({"runs": rows}, indent=1))
    temporary.replace(path)  # atomic: a killed sweep leaves the last saved file whole


def summary(rows: list[dict]) -> list[dict]:
    """Per task and variant: runs, how many fitted, the median [min, max] time and epochs to
    fit over the fitted seeds, and the median pairs per second."""
    out = []
    for task in ttf.TASKS:
        for variant in VARIANTS:
            mine = [r for r in rows if r["task"] == task and r["variant"] == variant]
            if not mine:
                continue
            fitted = [r for r in mine if r["seconds_to_fit"] is not None]
            seconds = sorted(r["seconds_to_fit"] for r in fitted)
            out.append({
                "task": task, "variant": variant, "runs": len(mine), "fitted": len(fitted),
                "median_seconds": statistics.median(seconds) if seconds else None,
                "min_seconds": seconds[0] if seconds else None,
                "max_seconds": seconds[-1] if seconds else None,
                "median_epochs": statistics.median(r["epochs_to_fit"] for r in fitted)
                if fitted else None,
                "pairs_per_second": statistics.median(r["pairs_per_second"] for r in mine),
                "budget": mine[0]["budget_seconds"]})
    return out


def table(rows: list[dict]) -> str:
    """The ablation as a Markdown table (a run that never fitted counts as its budget)."""
    lines = ["| task | variant | fitted | seconds to fit: median [min, max] | epochs to fit "
             "(median) | pairs/s |", "| --- | --- | --- | --- | --- | --- |"]
    for row in summary(rows):
        seconds = (f"{row['median_seconds']:.0f} [{row['min_seconds']:.0f}, "
                   f"{row['max_seconds']:.0f}]" if row["fitted"] else f"none within {row['budget']}")
        epochs = f"{row['median_epochs']:.1f}" if row["fitted"] else "-"
        lines.append(f"| {row['task']} | {row['variant']} | {row['fitted']} of {row['runs']} | "
                     f"{seconds} | {epochs} | {row['pairs_per_second']:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", action="append", choices=list(ttf.TASKS))
    parser.add_argument("--variant", action="append", choices=list(VARIANTS))
    parser.add_argument("--seed", action="append", type=int)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--table", action="store_true", help="print the table of --out")
    args = parser.parse_args()
    rows = load(args.out)
    if args.table:
        print(table(rows))
        return
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    done = {(r["task"], r["variant"], r["seed"]) for r in rows}
    # seed-major, in the order the tasks are given: every variant at seed 0 first, so a
    # stopped sweep has a comparable table
    jobs = [(t, v, s) for s in args.seed or SEEDS for t in args.task or list(ttf.TASKS)
            for v in args.variant or list(VARIANTS) if (t, v, s) not in done]
    print(f"{len(done)} runs saved, {len(jobs)} to run", flush=True)
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.jobs, maxtasksperchild=1) as pool:
        for row in pool.imap_unordered(_measure, jobs):
            rows = load(args.out) + [row]  # another sweep may have saved runs meanwhile
            save(args.out, rows)
            print(f"{row['task']} | {row['variant']} | seed {row['seed']}: to fit "
                  f"{row['seconds_to_fit']} s, {row['pairs_per_second']} pairs/s", flush=True)


if __name__ == "__main__":
    main()
