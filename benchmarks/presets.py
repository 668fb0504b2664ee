"""The named presets (:mod:`tutorlib.seq2seq.presets`) on one core: the wall time from the call
to the trained network, and its fit (``tutorlib.fit.passes``) on SCAN's simple split.

    python benchmarks/presets.py [--preset laptop] [--seed 0]

One thread; prints one JSON line per preset (wall seconds, training seconds, why it stopped,
training and in-distribution accuracy, the bar, passes).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from tutorlib import fit, scan
from tutorlib import seq2seq as s2s


def measure(name: str, seed: int) -> dict:
    train, test = scan.split("simple")
    rng = np.random.default_rng(seed)
    validation = [test[i] for i in rng.choice(len(test), 500, replace=False)]
    vocabularies = (s2s.Vocabulary.from_sequences([c.split() for c, _ in train + test]),
                    s2s.Vocabulary.from_sequences([a.split() for _, a in train + test]))
    config, recipe = s2s.preset(name)
    start = time.perf_counter()
    run = s2s.train_once(config, train, vocabularies, recipe, seed, validation=validation,
                         tests={"test": test})
    wall = time.perf_counter() - start
    training = s2s.evaluate(run.model, train[:2000], *vocabularies, batch_size=1000).accuracy
    in_distribution = run.evaluations["test"].accuracy
    bar = fit.in_distribution_bar(0.997)  # the paper: 99.7% on the simple split
    return {"preset": name, "seed": seed, "wall_seconds": round(wall, 1),
            "train_seconds": round(run.seconds, 1), "stopped": run.log.stopped,
            "training": round(training, 4), "in_distribution": round(in_distribution, 4),
            "bar": bar, "passes": fit.passes(training, in_distribution, paper=0.997)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", nargs="+", default=["laptop"], choices=list(s2s.PRESETS))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    for name in args.preset:
        print(json.dumps(measure(name, args.seed)), flush=True)


if __name__ == "__main__":
    main()
