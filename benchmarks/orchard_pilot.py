"""ORCHARD's gpu profile piloted on the CPU at a reduced size: does the convergence recipe make
both models fit their in-distribution first and second trees?

Each call trains one model of the ``gpu`` profile's run on one variant with smaller networks,
a smaller training set and a training budget (one thread), tests it as the profile does, and
adds the record (with its fit curve) to ``--out`` under ``"<variant>/<model>"``:

    .venv/bin/python benchmarks/orchard_pilot.py --model lstm --hidden 128 --layers 1 \
        --train-size 40000 --max-seconds 1200 --out results/orchard/pilot-cpu.json

Run the two models side by side (one thread each) to compare them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tutorlib import fit
from tutorlib.orchard import experiments


def pilot_config(variant: str, model: str, hidden: int, layers: int, train_size: int,
                 max_seconds: float, test_size: int, batch_size: int | None = None,
                 warmup_steps: int | None = None, learning_rate: float | None = None,
                 train_depths: tuple[int, int] | None = None,
                 stop_tree: str | None = None) -> dict:
    """The gpu profile's run of ``model`` on ``variant``, scaled down for one CPU core (and
    with another batch size, warm-up or peak learning rate where given)."""
    config = experiments.run_settings(variant, model, experiments.SETTINGS["gpu"])
    config["architecture"] = {**config["architecture"], "hidden_size": hidden,
                              "num_layers": layers}
    if model == "transformer":
        config["architecture"]["num_heads"] = 4
    recipe = {**config["recipe"], "max_seconds": max_seconds}
    if stop_tree is not None:  # stop at the first evaluation past the fit gate: time to fit
        # on the whole label the trainer's samples can check it; on the first tree alone only
        # the run's per-tree check can (experiments._tree_gate)
        recipe["stop_at"] = ([fit.TRAINING, fit.IN_DISTRIBUTION] if stop_tree == "both"
                             else [0.0, 0.0])
        if stop_tree != "both":
            config["stop_tree"] = stop_tree
    for name, value in (("batch_size", batch_size), ("warmup_steps", warmup_steps),
                        ("learning_rate", learning_rate)):
        if value is not None:
            recipe[name] = value
    config.update(train_size=train_size, test_size=test_size, train_check=min(1_000, test_size),
                  eval_batch_size=32, recipe=recipe)
    if train_depths is not None and tuple(train_depths) != experiments.TRAIN_DEPTHS:
        config["train_depths"] = list(train_depths)
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="minmax_hard")
    parser.add_argument("--model", choices=experiments.MODELS, required=True)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--layers", type=int, default=1)
    parser.add_argument("--train-size", type=int, default=40_000)
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--warmup-steps", type=int)
    parser.add_argument("--learning-rate", type=float)
    parser.add_argument("--max-seconds", type=float, default=1_200.0)
    parser.add_argument("--train-depths", type=int, nargs=2, metavar=("MIN", "MAX"),
                        help="train (and validate) on trees of these depths (default 3 6)")
    parser.add_argument("--stop-at-gate", choices=experiments.TREES,
                        help="stop at the first evaluation past the fit gate on these trees "
                             "(the time to fit)")
    parser.add_argument("--new-defaults", action="store_true",
                        help="train with a new Recipe()'s batches and loss (pools of 8 batches, "
                             "the loss per token) instead of the gpu profile's")
    parser.add_argument("--test-size", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out", type=Path, default=Path("results/orchard/pilot-cpu.json"))
    args = parser.parse_args()
    config = pilot_config(args.variant, args.model, args.hidden, args.layers, args.train_size,
                          args.max_seconds, args.test_size, args.batch_size, args.warmup_steps,
                          args.learning_rate, args.train_depths, args.stop_at_gate)
    if args.new_defaults:
        config["recipe"] = {**config["recipe"], "bucket_pool": 8, "loss_per": "token"}
    record = experiments.run(config, args.seed, device=args.device)
    fit = record["fit"]
    print(f"{args.variant} {args.model}: {record['parameters']:,} parameters, "
          f"{record['epochs']} epochs ({record['stopped']}), {fit['pairs_per_second']} pairs/s; "
          f"train first/second {record['train']['first']:.3f}/{record['train']['second']:.3f}, "
          f"valid {record['valid']['first']:.3f}/{record['valid']['second']:.3f}; depth 12 "
          f"{record['by_depth']['12']['first']:.3f}/{record['by_depth']['12']['second']:.3f}")
    found = json.loads(args.out.read_text()) if args.out.exists() else {}
    name = f"{args.variant}/{args.model}"
    if args.train_depths is not None and tuple(args.train_depths) != experiments.TRAIN_DEPTHS:
        name += "/depths{}-{}".format(*args.train_depths)
    if args.stop_at_gate not in (None, "both"):
        name += f"/stop-{args.stop_at_gate}"
    found[name] = {"config": config, "seed": args.seed, **record}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
