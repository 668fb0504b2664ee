"""Pairs per second across processes on one GPU: the PCFG SET ``gpu`` sweep's networks and
recipes, trained side by side as the sweep trains them (issue 49).

``--jobs`` worker processes share the GPU (under CUDA MPS when installed, as the sweep runs
them), a third of them per architecture of the ``gpu`` profile (LSTMS2S, ConvS2S, the
Transformer, each with its recipe), each on the PCFG SET task for ``--seconds`` of training;
the result is the sum of the processes' pairs per second, and each architecture's mean. Run it
once with the current code and once with an older ``tutorlib`` first on ``PYTHONPATH`` (the
code before the trainers were one) on the same machine, one after the other:

    python benchmarks/gpu_throughput.py --label after --jobs 27 --seconds 45 --out after.json
    PYTHONPATH=benchmarks/_before python benchmarks/gpu_throughput.py --label before ...

The same call (``train_once`` with a convergence recipe) works on both versions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH, so an older tutorlib there wins


def _data():
    from tutorlib.pcfgset import experiments as pe

    settings = pe.SETTINGS["gpu"]
    options = {"max_output_length": settings.max_output_length}
    train = pe.training_pairs("pcfgset", settings.train_size, **options)
    train, validation = pe.validation_split("pcfgset", train, options)
    return pe, settings, train, validation


def one(architecture: str, seed: int, seconds: float, threads: int, device: str) -> dict:
    import torch

    torch.set_num_threads(threads)
    from tutorlib import seq2seq as s2s

    pe, settings, train, validation = _data()
    config = pe._configured(architecture, settings)
    recipe = {**pe.GPU_RECIPES[architecture], "max_seconds": seconds, "fit_size": 100,
              "patience": 1000, "max_epochs": 1000, "loss_per": "batch"}
    run = s2s.train_once(s2s.Seq2SeqConfig(**config), train, pe.vocabularies(None),
                         s2s.Recipe(**recipe), seed, validation=validation, device=device,
                         desc=architecture)
    return {"architecture": architecture, "seed": seed, "pairs_per_second":
            run.log.pairs_per_second, "steps": run.log.steps, "epochs": run.log.epochs,
            "train_seconds": run.log.train_seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", default="after")
    parser.add_argument("--jobs", type=int, default=27)
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--one", nargs=2, metavar=("ARCHITECTURE", "SEED"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--device", default="cuda", help="cuda (cpu: a smoke test)")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), args.seconds, args.threads,
                             args.device)))
        return
    from tutorlib import results

    os.environ.setdefault("TQDM_DISABLE", "1")
    mps = args.device == "cuda" and results.start_mps()
    _data()  # the corpus into the disk cache once, before the workers read it
    architectures = ["LSTMS2S", "ConvS2S", "Transformer"]
    threads = max(1, (os.cpu_count() or 1) // args.jobs)
    start = time.perf_counter()
    workers = [subprocess.Popen(
        [sys.executable, __file__, "--one", architectures[i % 3], str(i // 3), "--seconds",
         str(args.seconds), "--threads", str(threads), "--device", args.device],
        stdout=subprocess.PIPE, text=True)
        for i in range(args.jobs)]
    rows = []
    for worker in workers:
        out, _ = worker.communicate()
        rows += [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    import tutorlib

    summary = {"label": args.label, "tutorlib": tutorlib.__file__, "jobs": args.jobs,
               "threads": threads, "mps": mps, "seconds": args.seconds,
               "wall_seconds": round(time.perf_counter() - start, 1),
               "finished": len(rows),
               "pairs_per_second": round(sum(r["pairs_per_second"] for r in rows)),
               "per_architecture": {a: round(sum(r["pairs_per_second"] for r in rows
                                                 if r["architecture"] == a)
                                             / max(1, sum(r["architecture"] == a for r in rows)))
                                    for a in architectures},
               "runs": rows}
    print(json.dumps({k: v for k, v in summary.items() if k != "runs"}))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
