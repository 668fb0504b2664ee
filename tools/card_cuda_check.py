"""Checks the report card's networks on a CUDA device: each of the six trains briefly on SCAN's
simple split on the GPU, and the same weights must give the same greedy outputs and encoder
states on the GPU and on the CPU.

    python tools/card_cuda_check.py [SECONDS]

Prints one line per network; exits 1 if any disagrees (outputs: more than 1% of sources differ;
states: relative difference over 1e-3) or the GPU is missing.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import torch

from tutorlib import seq2seq as s2s
from tutorlib.card import Seq2SeqModel, scan_task
from tutorlib.card.experiments import SETTINGS, runs


def main(seconds: float) -> int:
    if not torch.cuda.is_available():
        print("no CUDA device")
        return 1
    print(torch.__version__, torch.cuda.get_device_name(0))
    task = scan_task("simple", train_size=2000, validation_size=200, test_size=100)
    sources = [s for s, _ in task.validation]
    failures = 0
    # each network as the full card trains it (its architecture and recipe)
    configs = [c for c, seed in runs(SETTINGS["full"]) if seed == 0 and c["task"] == "simple"]
    for config in configs:
        name = config["model"]
        model = Seq2SeqModel(s2s.Seq2SeqConfig(**config["architecture"]),
                             s2s.Recipe(**config["recipe"]))
        start = time.time()
        fit = model.fit(task.train, task.validation, seed=0, max_seconds=seconds, device="cuda")
        on_gpu, states_gpu = model.predict(sources), model.states(sources)
        model.model.to("cpu")
        model.device = "cpu"
        on_cpu, states_cpu = model.predict(sources), model.states(sources)
        differ = np.mean([a != b for a, b in zip(on_gpu, on_cpu)])
        drift = np.linalg.norm(states_gpu - states_cpu) / np.linalg.norm(states_cpu)
        ok = differ <= 0.01 and drift <= 1e-3
        failures += not ok
        print(f"{name:22s} epochs {fit['epochs']:5.1f} train {fit['train_accuracy']:.2f} "
              f"validation {fit['validation_accuracy']:.2f} outputs differ {differ:.3f} "
              f"states {drift:.1e} {time.time() - start:5.1f} s {'ok' if ok else 'FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0))
