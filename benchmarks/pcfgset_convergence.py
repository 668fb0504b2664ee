"""PCFG SET training, the fixed-presentation recipe against the convergence recipe, per architecture.

Both are recipes of the one trainer, :func:`tutorlib.seq2seq.fit`. Each measurement compares
them, "old" against "new", in the same run:

- ``--mode fit`` (the CPU, one thread, a reduced task: 8,000 training pairs of at most 3
  functions over 26 symbols, outputs of at most 12; hidden 64): each recipe trains until the
  new one's stopping rule stops it (the old one for as many epochs), with the validation
  accuracy measured twice an epoch, and the script prints pairs/s, the share of padded
  positions, the final fit and the *time to fit*: training seconds until the validation
  accuracy first reaches 0.9 of its best.
- ``--mode throughput`` (any device; on a GPU, at the ``gpu`` profile's sizes on the full
  task): ``--steps`` steps of each recipe from the same start, pairs/s and padded share.
- ``--mode pilot`` (one ``--architectures`` and one ``--trainer``, which picks the recipe; on a
  GPU the full task at the ``gpu`` profile's sizes): train for ``--max-seconds`` (or until the
  stopping rule), the fit curve and time to fit; run old and new side by side to compare them.
- ``--mode precision``: pairs/s of the new recipe in bf16 autocast against fp32.

The old recipe is the fixed number of presentations the full profile trains with
(:meth:`tutorlib.seq2seq.Recipe.fixed`): batches of 16 from pools of 20 batches sorted by length
(``bucket_pool=20``), the rate decaying linearly to a tenth, teacher forcing on half the
batches. The new one is the convergence recipe of the ``gpu`` profile (a
:class:`~tutorlib.seq2seq.Recipe` without ``presentations``: batches of 128 bucketed by length
over the whole epoch, the paper's stopping rule, the best model on validation kept; fp32 with
TF32 on CUDA unless the recipe says ``precision="bf16"``).

    .venv/bin/python benchmarks/pcfgset_convergence.py --mode fit [--out results/pcfgset/convergence-cpu.json]
    python3 benchmarks/pcfgset_convergence.py --mode throughput --device cuda
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutorlib import profiles  # noqa: E402
from tutorlib import seq2seq as s2s  # noqa: E402
from tutorlib.pcfgset import experiments as pe  # noqa: E402
from tutorlib.train import resolve_device, seed_everything  # noqa: E402

REDUCED = {"train_size": 8_000, "max_output_length": 12, "max_functions": 3, "alphabet_size": 26}
# the old recipe's fields (Recipe.fixed's arguments after the presentations)
OLD = {"batch_size": 16, "learning_rate": 1e-3, "final_lr_fraction": 0.1}


def architecture(name: str, reduced: bool) -> dict:
    settings = profiles.settings("pcfgset", "gpu")
    if not reduced:
        return pe.run_settings(name, "pcfgset", settings)["architecture"]
    options = {**settings.architecture_options.get(name, {}), "num_layers": 1}
    if name == "ConvS2S":
        options["num_layers"] = 6
    return pe.architecture_config(name, 64, dropout=0.0, **options)


def new_recipe(name: str, **changes) -> s2s.Recipe:
    return s2s.Recipe.from_dict({**pe.GPU_RECIPES[name], **changes})


def old_recipe(presentations: int, **changes) -> s2s.Recipe:
    """The old recipe for ``presentations`` (at least one), with other fields changed."""
    return replace(s2s.Recipe.fixed(max(1, presentations), **OLD), **changes)


def data(reduced: bool):
    options = REDUCED if reduced else {"train_size": None, "max_output_length": 48}
    pair = {k: v for k, v in options.items() if k != "train_size"}
    train = pe.training_pairs("pcfgset", options["train_size"], **pe.pair_options(pair))
    train, validation = pe.validation_split("pcfgset", train, {**options, **pair})
    return train, validation, pe.vocabularies(options.get("alphabet_size"))


def fresh_model(config: dict, vocabs, recipe: s2s.Recipe, seed: int = 0):
    seed_everything(seed)
    model = s2s.build_model(s2s.Seq2SeqConfig(**config), len(vocabs[0]), len(vocabs[1]))
    return s2s.init_embeddings(model, recipe.embedding_init)


def _padded_share(recipe: s2s.Recipe, encoded: s2s.EncodedPairs) -> float:
    """Padding in an epoch (seed 0) of the recipe's batches."""
    source, target = encoded.source_lengths.numpy(), encoded.target_lengths.numpy()
    batches = s2s.epoch_batches(recipe, target, source, rng=np.random.default_rng(0), seed=0)
    return s2s.padded_share(batches, source, target)


def old_padded_share(encoded: s2s.EncodedPairs, batch_size: int) -> float:
    """Padding in an epoch of the old recipe's batches (pools of 20 batches sorted by length)."""
    return _padded_share(old_recipe(1, batch_size=batch_size), encoded)


def new_padded_share(encoded: s2s.EncodedPairs, batch_size: int) -> float:
    """Padding in an epoch of the convergence recipe's length-bucketed batches."""
    return _padded_share(s2s.Recipe(batch_size=batch_size), encoded)


def train_old(model, train, validation, vocabs, epochs: float, device, evaluations_per_epoch=2,
              fit_size=300, warmup_steps=0, max_seconds: float | None = None):
    """The old recipe for ``epochs`` epochs (or ``max_seconds`` of training), the validation
    accuracy ``evaluations_per_epoch`` times an epoch; the best evaluation's accuracies."""
    per_epoch = math.ceil(len(train) / min(OLD["batch_size"], len(train)))
    recipe = old_recipe(int(epochs * len(train)), warmup_steps=warmup_steps,
                        evaluate_every=max(1, per_epoch // evaluations_per_epoch),
                        fit_size=fit_size, max_seconds=max_seconds or None)
    log = s2s.fit(model, train, *vocabs, recipe, seed=0, validation=validation, device=device,
                  desc="old recipe")
    # the recipe keeps the last model: report its best evaluation, as the new one does
    kept = max(log.history, key=lambda r: r["validation_accuracy"])
    return {"pairs_per_second": log.pairs_per_second, "padded_share": log.padded_share,
            "train_seconds": round(log.train_seconds, 1),
            "epochs": round(log.steps / per_epoch, 3), "stopped": log.stopped,
            "validation_accuracy": kept["validation_accuracy"],
            "train_accuracy": kept["train_accuracy"], "seconds_to_fit": log.seconds_to_fit,
            "history": log.history}


def mode_fit(args) -> dict:
    train, validation, vocabs = data(reduced=True)
    out = {"task": REDUCED, "hidden_size": 64, "threads": torch.get_num_threads(),
           "architectures": {}}
    for name in args.architectures:
        config = architecture(name, reduced=True)
        recipe = new_recipe(name, batch_size=64, max_seconds=args.max_seconds, fit_size=300)
        model = fresh_model(config, vocabs, recipe)
        new = s2s.fit(model, train, *vocabs, recipe, seed=0, validation=validation,
                      device="cpu", desc=f"new {name}").to_dict()
        model = fresh_model(config, vocabs, recipe)
        old = train_old(model, train, validation, vocabs, new["epochs"], "cpu",
                        warmup_steps=recipe.warmup_steps)
        # time to a level both reach: the lower of their best validation accuracies
        level = min(old["validation_accuracy"], new["validation_accuracy"])
        for row in (old, new):
            row["seconds_to_common_level"] = next(
                r["seconds"] for r in row["history"] if r["validation_accuracy"] >= level)
        out["architectures"][name] = {"config": config, "recipe": recipe.to_dict(),
                                      "common_level": level, "old": old, "new": new}
        print(f"{name}: pairs/s old {old['pairs_per_second']:.0f} new "
              f"{new['pairs_per_second']:.0f} (x{new['pairs_per_second'] / old['pairs_per_second']:.2f}); "
              f"padded {old['padded_share']:.3f} -> {new['padded_share']:.3f}; "
              f"time to fit old {old['seconds_to_fit']:.0f} s new {new['seconds_to_fit']:.0f} s; "
              f"to validation {level:.2f} old {old['seconds_to_common_level']:.0f} s new "
              f"{new['seconds_to_common_level']:.0f} s; "
              f"validation old {old['validation_accuracy']:.2f} new {new['validation_accuracy']:.2f}; "
              f"train old {old['train_accuracy']:.2f} new {new['train_accuracy']:.2f} "
              f"({new['epochs']:.1f} epochs, stopped: {new['stopped']})", flush=True)
    return out


def mode_pilot(args) -> dict:
    """One recipe of one architecture at the gpu profile's size on the full task, for
    ``--max-seconds`` of training (or until its stopping rule): the fit curve and time to fit."""
    device = resolve_device(args.device)
    reduced = device.type != "cuda"
    train, validation, vocabs = data(reduced=reduced)
    name = args.architectures[0]
    config = architecture(name, reduced=reduced)
    recipe = new_recipe(name, **{"max_seconds": args.max_seconds or None, "fit_size": 500,
                                 **json.loads(args.recipe)})
    model = fresh_model(config, vocabs, recipe)
    if args.trainer == "new":
        row = s2s.fit(model, train, *vocabs, recipe, seed=0, validation=validation,
                      device=device, desc=f"new {name}").to_dict()
    else:
        row = train_old(model, train, validation, vocabs, recipe.max_epochs, device,
                        evaluations_per_epoch=4, fit_size=500, warmup_steps=recipe.warmup_steps,
                        max_seconds=args.max_seconds)
    print(f"{name} {args.trainer} on {device}: {row['pairs_per_second']:.0f} pairs/s, "
          f"validation {row['validation_accuracy']:.3f}, train {row['train_accuracy']:.3f}, "
          f"time to fit {row['seconds_to_fit']:.0f} s, {row['train_seconds']:.0f} s trained",
          flush=True)
    return {"device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
            "task": "full" if not reduced else REDUCED, "architectures": {
                name: {"config": config, "recipe": recipe.to_dict(), args.trainer: row}}}


def timed_recipe(config, vocabs, recipe, subset, validation, warmup: int, device):
    """The recipe over ``subset`` from a fresh model, after a warm-up run over its first
    ``warmup`` pairs (CUDA context, kernels, cuDNN plans), so its pairs/s are the steady ones."""
    s2s.fit(fresh_model(config, vocabs, recipe), subset[:warmup], *vocabs, recipe, seed=0,
            validation=validation, device=device)
    return s2s.fit(fresh_model(config, vocabs, recipe), subset, *vocabs, recipe, seed=0,
                   validation=validation, device=device)


def mode_precision(args) -> dict:
    """Seconds per training step of each architecture at the gpu size, bf16 against fp32."""
    device = resolve_device(args.device)
    train, validation, vocabs = data(reduced=device.type != "cuda")
    out = {"device": str(device), "architectures": {}}
    for name in args.architectures:
        config = architecture(name, reduced=device.type != "cuda")
        row = {}
        for precision in ("bf16", "fp32"):
            recipe = new_recipe(name, precision=precision, max_epochs=1, fit_size=32)
            subset = train[: args.steps * recipe.batch_size]
            fit = timed_recipe(config, vocabs, recipe, subset, validation[:32], 1024, device)
            row[precision] = fit.pairs_per_second
        out["architectures"][name] = row
        print(f"{name}: pairs/s bf16 {row['bf16']:.0f} fp32 {row['fp32']:.0f}", flush=True)
    return out


def mode_throughput(args) -> dict:
    device = resolve_device(args.device)
    reduced = device.type != "cuda"
    train, validation, vocabs = data(reduced=reduced)
    out = {"device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
           "steps": args.steps, "architectures": {}}
    for name in args.architectures:
        config = architecture(name, reduced=reduced)
        recipe = new_recipe(name, max_epochs=1, evaluations_per_epoch=1, fit_size=64)
        subset = train[: args.steps * recipe.batch_size]
        new = timed_recipe(config, vocabs, recipe, subset, validation[:64], 512, device)
        pairs = subset[: args.steps * OLD["batch_size"]]
        old = old_recipe(len(pairs))
        s2s.fit(fresh_model(config, vocabs, recipe), pairs, *vocabs, old, seed=0,
                device=device)  # warm-up
        model = fresh_model(config, vocabs, recipe)
        old_rate = s2s.fit(model, pairs, *vocabs, old, seed=0, device=device).pairs_per_second
        everything = s2s.encode_pairs(train, *vocabs)  # padding over a whole epoch
        row = {"old_pairs_per_second": round(old_rate, 1),
               "new_pairs_per_second": new.pairs_per_second,
               "ratio": round(new.pairs_per_second / old_rate, 2),
               "old_padded_share": round(old_padded_share(everything, OLD["batch_size"]), 4),
               "new_padded_share": round(new_padded_share(everything, recipe.batch_size), 4),
               "parameters": sum(p.numel() for p in model.parameters())}
        out["architectures"][name] = row
        print(f"{name} on {out['device']}: pairs/s old {row['old_pairs_per_second']:.0f} "
              f"new {row['new_pairs_per_second']:.0f} (x{row['ratio']}); padded "
              f"{row['old_padded_share']:.3f} -> {row['new_padded_share']:.3f}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["fit", "throughput", "pilot", "precision"],
                        default="fit")
    parser.add_argument("--trainer", choices=["old", "new"], default="new",
                        help="pilot: which recipe (old: fixed presentations, new: to "
                             "convergence)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--architectures", default=",".join(pe.ARCHITECTURE_NAMES))
    parser.add_argument("--steps", type=int, default=40, help="throughput: steps per recipe")
    parser.add_argument("--max-seconds", type=float, default=240.0,
                        help="fit and pilot: the training budget per architecture (pilot: 0 "
                             "for none)")
    parser.add_argument("--recipe", default="{}",
                        help="pilot: recipe fields to change, as JSON ('{\"batch_size\": 16}')")
    parser.add_argument("--out", help="write the measurements as JSON here")
    args = parser.parse_args()
    args.architectures = [a for a in args.architectures.split(",") if a]
    if args.device == "cpu":
        torch.set_num_threads(1)
    os.environ.setdefault("TQDM_DISABLE", "1")
    result = {"fit": mode_fit, "throughput": mode_throughput, "pilot": mode_pilot,
              "precision": mode_precision}[args.mode](args)
    result = {"mode": args.mode, "torch": torch.__version__, **result}
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({name: {k: v for k, v in row.items() if not isinstance(v, (dict, list))}
                      for name, row in result["architectures"].items()}, indent=1))


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
