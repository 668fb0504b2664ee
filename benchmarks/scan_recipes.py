"""Which training recipe reproduces Lake & Baroni's per-example regime, and at what cost?

The full profile trains the overall-best network (LSTM 2 x 200, dropout 0.5) in batches of 32 at
6e-3 decayed to a tenth over 256,000 presentations, with one teacher-forcing coin per batch. It
misses the paper where data are scarce or the test is compositional (addprim_turn_left 51.9%
against 90.0%; simple_p2 23.9% against ~54%; simple_p4 74.3% against ~93%), while the paper's own
training (one example per update, Adam 1e-3, 100,000 presentations) reached 79.6% and 91.4% on
turn left and p4 with seed 0, at about 40 presentations a second.

This script trains candidate recipes (:data:`RECIPES`) on those splits and records, for each run,
the test and training accuracy, the training time and presentations per second, appending each
finished run to ``results/scan/recipes.json`` at once (a stopped screen resumes where it
stopped; runs are also cached like every SCAN run). One thread per process, as the full profile's
runs use.

    .venv/bin/python benchmarks/scan_recipes.py [--recipes per_example_coin batch8] \\
        [--splits addprim_turn_left simple_p2] [--seeds 0]
"""

from __future__ import annotations

import os

os.environ.setdefault("TQDM_DISABLE", "1")  # before tqdm is imported

import argparse  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402

from tutorlib import results  # noqa: E402
from tutorlib.scan import experiments as exps  # noqa: E402

# name -> keyword arguments of tutorlib.scan.experiments.run
RECIPES = {
    # the full profile's batched recipe (its committed runs are the reference)
    "batched": {"presentations": 256_000, "batch_size": 32, "learning_rate": 6e-3,
                "final_lr_fraction": 0.1},
    # the same, with the paper's coin: teacher forcing decided per example inside each batch
    "per_example_coin": {"presentations": 256_000, "batch_size": 32, "learning_rate": 6e-3,
                         "final_lr_fraction": 0.1, "teacher_forcing_per": "example"},
    # smaller batches, closer to the paper's noise, with the paper's coin
    "batch8": {"presentations": 128_000, "batch_size": 8, "learning_rate": 2e-3,
               "final_lr_fraction": 0.1, "teacher_forcing_per": "example"},
    "batch4_paper_lr": {"presentations": 100_000, "batch_size": 4, "learning_rate": 1e-3,
                        "final_lr_fraction": 1.0, "teacher_forcing_per": "example"},
    # the paper's training exactly (the full profile's control runs)
    "per_example": dict(exps.PER_EXAMPLE_TRAINING),
}

OUT = results.project_results("scan", "recipes.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--recipes", nargs="+", default=["per_example_coin", "batch8"],
                        choices=list(RECIPES))
    parser.add_argument("--splits", nargs="+", default=["addprim_turn_left", "simple_p2"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    args = parser.parse_args()
    torch.set_num_threads(1)
    done = results.RowLog(OUT)
    for seed in args.seeds:
        for recipe in args.recipes:
            for split_name in args.splits:
                if done.has(recipe=recipe, split=split_name, seed=seed):
                    continue
                start = time.perf_counter()
                result = exps.run(split_name, "overall_best", seed, **RECIPES[recipe])
                seconds = time.perf_counter() - start
                row = {"recipe": recipe, **RECIPES[recipe], "split": split_name, "seed": seed,
                       "accuracy": result["accuracy"],
                       "train_accuracy": result["train_accuracy"],
                       "train_seconds": result["train_seconds"],
                       "presentations_per_second": round(
                           RECIPES[recipe]["presentations"] / result["train_seconds"], 1),
                       "wall_seconds": round(seconds, 1)}
                done.add(row)
                print(f"{recipe:>18} {split_name:>18} seed {seed}: test "
                      f"{100 * row['accuracy']:5.1f}%  train {100 * row['train_accuracy']:5.1f}%  "
                      f"{row['presentations_per_second']:7.1f} presentations/s", flush=True)


if __name__ == "__main__":
    main()
