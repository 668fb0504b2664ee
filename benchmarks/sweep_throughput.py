"""Sweep throughput: the experiment runner serially against ``--jobs N`` worker processes.

The same small sweep (``--runs`` SCAN trainings of a 1 x 64 LSTM on the simple split, a few
thousand presentations each, every run with its own seed) runs twice through
:func:`tutorlib.results.run_experiment`: once in this process (on one thread, as a sweep's runs
use one core each) and once in ``--jobs`` worker processes of one thread each. Each pass has its
own empty cache and results folder. Prints both wall times, runs per minute and the ratio, and
checks that both passes give the same results.

    .venv/bin/python benchmarks/sweep_throughput.py [--runs 4] [--jobs 2] [--presentations 16000]
"""

from __future__ import annotations

import os

os.environ.setdefault("TQDM_DISABLE", "1")  # before tqdm is imported

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

from tutorlib import results  # noqa: E402

PRESENTATIONS = int(os.environ.get("SWEEP_PRESENTATIONS", "16000"))


def runs(settings: dict) -> list[tuple[dict, int]]:
    return [({"split": "simple", "presentations": settings["presentations"]}, seed)
            for seed in range(settings["runs"])]


def run(config: dict, seed: int, device: str = "cpu") -> dict:
    from tutorlib.scan import experiments as exps

    result = exps.run(config["split"], {"cell": "lstm", "hidden_size": 64, "num_layers": 1,
                                        "dropout": 0.0, "attention": False}, seed,
                      presentations=config["presentations"], batch_size=32, learning_rate=6e-3,
                      final_lr_fraction=0.1, max_test=300, device=device)
    return {"seed": seed, "accuracy": result["accuracy"]}


EXPERIMENT = results.Experiment(
    name="sweep_benchmark", runs=runs, run=run,
    settings={"ci": {"runs": int(os.environ.get("SWEEP_RUNS", "4")),
                     "presentations": PRESENTATIONS}})


def one_pass(jobs: int, root: Path) -> tuple[float, list]:
    os.environ["TUTORLIB_CACHE_DIR"] = str(root / "cache")  # workers inherit it: no cache hits
    start = time.perf_counter()
    path = results.run_experiment("sweep_throughput:EXPERIMENT", "ci", root / "results",
                                  jobs=jobs, progress=False)
    seconds = time.perf_counter() - start
    return seconds, json.loads(path.read_text())["data"]["runs"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--presentations", type=int, default=16000)
    args = parser.parse_args()
    os.environ["SWEEP_RUNS"] = str(args.runs)
    os.environ["SWEEP_PRESENTATIONS"] = str(args.presentations)
    EXPERIMENT.settings["ci"].update(runs=args.runs, presentations=args.presentations)
    here = str(Path(__file__).resolve().parent)
    sys.path.insert(0, here)
    os.environ["PYTHONPATH"] = here + os.pathsep + os.environ.get("PYTHONPATH", "")
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        serial, serial_runs = one_pass(1, Path(tmp) / "serial")
        parallel, parallel_runs = one_pass(args.jobs, Path(tmp) / "parallel")
    assert serial_runs == parallel_runs, "the two passes disagree"
    print(f"{args.runs} runs of {args.presentations:,} presentations (1 x 64 LSTM, SCAN simple)")
    print(f"serial (one process, one thread): {serial:7.1f} s  "
          f"{60 * args.runs / serial:5.1f} runs/min")
    print(f"--jobs {args.jobs} (one thread each):     {parallel:7.1f} s  "
          f"{60 * args.runs / parallel:5.1f} runs/min")
    print(f"ratio: {serial / parallel:.2f}x, identical results: yes")


if __name__ == "__main__":
    main()
