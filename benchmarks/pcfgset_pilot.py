"""Fit-first pilot for PCFG SET (issue 48): how long each architecture takes, on one core, to
pass the fit gate on a reduction of the paper's generator.

A *reduction* samples the task's inputs from the package's PCFG sampler
(:func:`tutorlib.pcfgset.corpus.sample_inputs`) with at most ``functions`` functions per input
and outputs of at most ``output`` symbols, the published depth distribution cut at that many
functions (a depth needs as many functions), ``pairs`` pairs in all, and folds the 520 symbols
onto ``alphabet`` (:func:`tutorlib.pcfgset.experiments.fold_symbols`). A tenth of the pairs
(at most 1,000) is the in-distribution validation set. Each run trains one architecture with the
convergence recipe (:func:`tutorlib.seq2seq.fit`, a :class:`~tutorlib.seq2seq.Recipe` without
``presentations``) for at most ``--max-seconds`` of training (one thread) and records, at every
evaluation, its accuracy on a sample of its training pairs and on the validation pairs; its
*time to fit* is the training seconds until it first passes :func:`tutorlib.fit.passes` with
the paper's in-distribution accuracy for that architecture (Hupkes et al. 2020, Table 1).

    python benchmarks/pcfgset_pilot.py --candidate f3-o24-20k --architecture Transformer \\
        --max-seconds 600 --out results/pcfgset/pilot/f3-o24-20k-Transformer.json
    python benchmarks/pcfgset_pilot.py --list      # the candidates

Each run writes one JSON record (``--out``); ``--summary DIR`` prints the time-to-fit table
of every record in DIR.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from tutorlib import fit  # noqa: E402
from tutorlib import seq2seq as s2s  # noqa: E402
from tutorlib.pcfgset import corpus  # noqa: E402
from tutorlib.pcfgset import experiments as pe  # noqa: E402
from tutorlib.train import seed_everything  # noqa: E402

# Candidate reductions: functions per input (at most), output symbols (at most), pairs, alphabet.
CANDIDATES = {
    "f3-o24-20k": {"functions": 3, "output": 24, "pairs": 20_000, "alphabet": 26},
    "f3-o16-20k": {"functions": 3, "output": 16, "pairs": 20_000, "alphabet": 26},
    "f4-o24-30k": {"functions": 4, "output": 24, "pairs": 30_000, "alphabet": 26},
    "f2-o16-10k": {"functions": 2, "output": 16, "pairs": 10_000, "alphabet": 26},
    "f3-o24-50k": {"functions": 3, "output": 24, "pairs": 50_000, "alphabet": 26},
}
VALIDATION = 1000
# The networks: small, one size for all (hidden 128); the Transformer pre-LN as in the issue.
NETWORKS = {
    "LSTMS2S": {"hidden_size": 128, "num_layers": 1},
    "ConvS2S": {"hidden_size": 128, "num_layers": 4},
    "Transformer": {"hidden_size": 128, "num_layers": 2, "norm_first": True},
}
RECIPES = {
    "LSTMS2S": {"batch_size": 32, "learning_rate": 1e-3},
    "ConvS2S": {"batch_size": 32, "learning_rate": 1e-3, "warmup_steps": 200},
    "Transformer": {"batch_size": 32, "learning_rate": 5e-4, "betas": (0.9, 0.98),
                    "warmup_steps": 400},
}


def reduced_pairs(candidate: dict, seed: int = 0) -> tuple[list, list]:
    """The candidate's training and validation pairs (seeded)."""
    functions, output = candidate["functions"], candidate["output"]
    target = {d: f for d, f in corpus.TARGET_DEPTH.items() if d <= functions}
    settings = corpus.SamplerSettings(max_functions=functions, max_output_length=output,
                                      max_depth=functions)
    trees = corpus.sample_inputs(candidate["pairs"], seed=seed, settings=settings,
                                 target_depth=target)
    pairs = [corpus.pair_of(tree) for tree in trees]
    pairs = [(pe.fold_symbols(s, candidate["alphabet"]), pe.fold_symbols(t, candidate["alphabet"]))
             for s, t in pairs]
    random.Random(f"pilot-{seed}").shuffle(pairs)
    cut = min(len(pairs) // 10, VALIDATION)
    return pairs[cut:], pairs[:cut]


def _processor() -> str:
    """The processor's model name (Linux), else what the platform module says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run(candidate_name: str, network: str, max_seconds: float, seed: int = 0,
        architecture: dict | None = None, recipe_changes: dict | None = None) -> dict:
    candidate = CANDIDATES[candidate_name]
    tick = time.perf_counter()
    train, validation = reduced_pairs(candidate)
    data_seconds = time.perf_counter() - tick
    vocabs = pe.vocabularies(candidate["alphabet"])
    options = {**NETWORKS[network], **(architecture or {})}
    config = pe.architecture_config(network, options.pop("hidden_size"),
                                    options.pop("num_layers"), 0.0, **options)
    recipe = s2s.Recipe(**{**RECIPES[network], **(recipe_changes or {})}, max_epochs=1000, patience=1000,
                        evaluations_per_epoch=2, fit_size=500, max_seconds=max_seconds,
                        precision="fp32", loss_per="batch")
    seed_everything(seed)
    model = s2s.build_model(s2s.Seq2SeqConfig(**config), len(vocabs[0]), len(vocabs[1]))
    result = s2s.fit(model, train, *vocabs, recipe, seed=seed, validation=validation,
                     desc=f"{candidate_name} {network}")
    paper = pe.published_fraction("task", network)
    history = result.history
    gate = next((row for row in history
                 if fit.passes(row["train_accuracy"], row["validation_accuracy"], paper=paper)),
                None)
    return {"candidate": candidate_name, "reduction": candidate, "network": network,
            "architecture": config, "recipe": recipe.to_dict(), "seed": seed,
            "train_pairs": len(train), "validation_pairs": len(validation),
            "parameters": sum(p.numel() for p in model.parameters()),
            "gate_in_distribution": fit.in_distribution_bar(paper),
            "seconds_to_fit": None if gate is None else gate["seconds"],
            "epochs_to_fit": None if gate is None else gate["epoch"],
            "best_validation": max(row["validation_accuracy"] for row in history),
            "best_train": max(row["train_accuracy"] for row in history),
            "train_seconds": round(result.train_seconds, 1),
            "pairs_per_second": round(result.pairs_per_second, 1),
            "data_seconds": round(data_seconds, 1), "threads": torch.get_num_threads(),
            "machine": platform.node(), "processor": _processor(),
            "architecture_changes": architecture or {}, "recipe_changes": recipe_changes or {},
            "history": [{k: row[k] for k in ("epoch", "seconds", "train_accuracy",
                                             "validation_accuracy")} for row in history]}


def summary(folder: Path) -> None:
    print(f"{'run':<28} {'pairs/s':>8} {'trained (s)':>11} {'to fit (s)':>10} "
          f"{'best train':>10} {'best val':>9} {'gate':>5} where")
    for path in sorted(folder.glob("*.json")):
        r = json.loads(path.read_text())
        fit_time = "-" if r["seconds_to_fit"] is None else f"{r['seconds_to_fit']:.0f}"
        print(f"{path.stem:<28} {r['pairs_per_second']:>8.0f} {r['train_seconds']:>11.0f} "
              f"{fit_time:>10} {r['best_train']:>10.3f} {r['best_validation']:>9.3f} "
              f"{r['gate_in_distribution']:>5.2f} {r.get('ran_on', r['machine'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--candidate", choices=sorted(CANDIDATES))
    parser.add_argument("--architecture", choices=sorted(NETWORKS))
    parser.add_argument("--max-seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--architecture-changes", type=json.loads, default={},
                        help="JSON: fields of the network to change, e.g. '{\"num_layers\": 6}'")
    parser.add_argument("--recipe-changes", type=json.loads, default={},
                        help="JSON: recipe fields to change, e.g. '{\"learning_rate\": 0.003}'")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--summary", type=Path)
    args = parser.parse_args()
    if args.list:
        print(json.dumps(CANDIDATES, indent=1))
        return
    if args.summary:
        summary(args.summary)
        return
    if not (args.candidate and args.architecture and args.out):
        parser.error("--candidate, --architecture and --out are needed")
    torch.set_num_threads(int(os.environ.get("THREADS", "1")))
    record = run(args.candidate, args.architecture, args.max_seconds, args.seed,
                 args.architecture_changes, args.recipe_changes)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{args.candidate} {args.architecture}: {record['pairs_per_second']:.0f} pairs/s, "
          f"time to fit {record['seconds_to_fit']}, best train {record['best_train']:.3f}, "
          f"best validation {record['best_validation']:.3f}", flush=True)


if __name__ == "__main__":
    main()
