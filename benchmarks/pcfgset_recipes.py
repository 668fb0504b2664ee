"""Which training of the three PCFG SET networks learns the task within a CPU's budget?

The full profile was sized from throughputs, not from learning: hidden 128, 2 layers, batches of
64 at 2e-3 decayed to a tenth, 100,000 presentations (about 1,560 updates), teacher forcing on
half the batches. Small networks on the whole task (520 symbols) learned nothing at the tutorial's
budget, so before the 54 full-profile runs are spent this script trains candidate recipes
(:data:`RECIPES`) on the base corpus (the ``pcfgset`` split, outputs of at most 48 symbols) and
records for each: the learning curve (sequence and token accuracy on 200 test inputs every
``--eval-every`` presentations), the final test and training accuracy, the training time and
the pairs trained per second. Each finished run is appended to ``results/pcfgset/recipes.json``
at once (a stopped screen resumes where it stopped). One thread, as the full profile's runs use.

    .venv/bin/python benchmarks/pcfgset_recipes.py [--recipes full tf1] \\
        [--networks LSTMS2S] [--seeds 0]
"""

from __future__ import annotations

import os

os.environ.setdefault("TQDM_DISABLE", "1")  # before tqdm is imported

import argparse  # noqa: E402

import torch  # noqa: E402

from tutorlib import pcfgset, results  # noqa: E402
from tutorlib import seq2seq as s2s  # noqa: E402
from tutorlib.pcfgset import experiments as exps  # noqa: E402
from tutorlib.pcfgset import pipeline  # noqa: E402
from tutorlib.train import seed_everything  # noqa: E402

FULL = exps.SETTINGS["full"]
# name -> (architecture size, training settings); unnamed keys keep the full profile's values
RECIPES = {
    # the full profile as sized (run keys unchanged)
    "full": {},
    # the same with every batch teacher-forced (what OpenNMT and fairseq do; the paper's setting)
    "tf1": {"teacher_forcing": 1.0},
    # more updates for the same presentations: batches of 16, always teacher-forced
    "tf1_batch16": {"teacher_forcing": 1.0, "batch_size": 16, "learning_rate": 1e-3},
    # a wider network, always teacher-forced
    "tf1_wide": {"teacher_forcing": 1.0, "hidden_size": 256},
    # more presentations, always teacher-forced
    "tf1_long": {"teacher_forcing": 1.0, "presentations": 200_000},
    # the Transformer as ORCHARD's full profile trains it: fairseq's embedding initialisation
    # and 100 warmup steps (ignored by the other networks)
    "tf1_fairseq": {"teacher_forcing": 1.0, "embedding_init": "fairseq", "warmup_steps": 100},
    # deeper stacks (ConvS2S: a wider receptive field; 2 layers of width 3 see 5 tokens)
    "deep6": {"num_layers": 6},
    "deep4_fairseq": {"num_layers": 4, "embedding_init": "fairseq", "warmup_steps": 100},
    # four times the updates for the same presentations: batches of 16 at 1e-3
    "b16": {"batch_size": 16, "learning_rate": 1e-3},
    "b16_fairseq": {"batch_size": 16, "learning_rate": 1e-3, "embedding_init": "fairseq",
                    "warmup_steps": 400},
    "b16_deep6": {"batch_size": 16, "learning_rate": 1e-3, "num_layers": 6},
    # the Transformer with layer normalisation before each sublayer (pre-LN)
    "b16_preln": {"batch_size": 16, "learning_rate": 1e-3, "embedding_init": "fairseq",
                  "warmup_steps": 400, "norm_first": True},
}

OUT = results.project_results("pcfgset", "recipes.json")
TEST_SIZE = 200


def train_once(network: str, recipe: str, seed: int, eval_every: int) -> dict:
    options = {"hidden_size": FULL.hidden_size, "num_layers": FULL.num_layers,
               "dropout": FULL.dropout, "presentations": FULL.presentations,
               "batch_size": FULL.batch_size, "learning_rate": FULL.learning_rate,
               "final_lr_fraction": FULL.final_lr_fraction, "teacher_forcing": 0.5,
               "embedding_init": "pytorch", "warmup_steps": 0, **RECIPES[recipe]}
    if network != "Transformer":
        options.update(embedding_init="pytorch")
    source_vocab, target_vocab = exps.vocabularies(None)
    train = exps.training_pairs("pcfgset", None, max_output_length=FULL.max_output_length)
    test = exps.test_pairs("pcfgset", TEST_SIZE, max_output_length=FULL.max_output_length)
    config = exps.architecture_config(network, options["hidden_size"], options["num_layers"],
                                      options["dropout"])
    if options.get("norm_first") and network == "Transformer":
        config["norm_first"] = True
    # a point of the learning curve every ``eval_every`` presentations, and after the last step
    training = s2s.Recipe.fixed(options["presentations"], options["batch_size"],
                                options["learning_rate"], options["final_lr_fraction"],
                                teacher_forcing=options["teacher_forcing"],
                                warmup_steps=options["warmup_steps"],
                                embedding_init=options["embedding_init"],
                                evaluate_every=max(1, eval_every // options["batch_size"]))
    seed_everything(seed)
    model = s2s.init_embeddings(s2s.build_model(s2s.Seq2SeqConfig(**config), len(source_vocab),
                                                len(target_vocab)), training.embedding_init)
    length = FULL.max_output_length + 10

    def evaluate(model) -> dict:
        result = s2s.evaluate(model, test, source_vocab, target_vocab, max_length=length)
        token = pcfgset.token_accuracy(result.predictions, [t for _, t in test])
        return {"accuracy": result.accuracy, "token_accuracy": token}

    # the trainer's clock counts training alone (not the evaluations)
    log = s2s.fit(model, train, source_vocab, target_vocab, training, seed=seed,
                  on_evaluation=evaluate)
    curve = [{"accuracy": row["accuracy"], "token_accuracy": row["token_accuracy"],
              "presentations": row["step"] * training.batch_size} for row in log.history]
    check = pipeline._sample(train, TEST_SIZE, "train-check")
    fitted = s2s.evaluate(model, check, source_vocab, target_vocab, max_length=length)
    final = s2s.evaluate(model, test, source_vocab, target_vocab, max_length=length)
    return {"recipe": recipe, "network": network, "seed": seed, **options,
            "parameters": sum(p.numel() for p in model.parameters()),
            "accuracy": final.accuracy,
            "token_accuracy": pcfgset.token_accuracy(final.predictions, [t for _, t in test]),
            "train_accuracy": fitted.accuracy,
            "final_loss": float(sum(log.losses[-50:]) / len(log.losses[-50:])),
            "train_seconds": round(log.train_seconds, 1),
            "pairs_per_second": round(log.pairs_per_second, 1),
            "curve": curve}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--recipes", nargs="+", default=["full", "tf1"], choices=list(RECIPES))
    parser.add_argument("--networks", nargs="+", default=["LSTMS2S"],
                        choices=list(exps.ARCHITECTURE_NAMES))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    parser.add_argument("--eval-every", type=int, default=10_000,
                        help="presentations between two points of the learning curve")
    args = parser.parse_args()
    torch.set_num_threads(1)
    done = results.RowLog(OUT)
    for seed in args.seeds:
        for recipe in args.recipes:
            for network in args.networks:
                if done.has(recipe=recipe, network=network, seed=seed):
                    continue
                row = train_once(network, recipe, seed, args.eval_every)
                done.add(row)
                curve = " ".join(f"{p['accuracy']:.2f}" for p in row["curve"])
                print(f"{recipe:>12} {network:>11} seed {seed}: test {row['accuracy']:.3f} "
                      f"(token {row['token_accuracy']:.3f})  train {row['train_accuracy']:.3f}  "
                      f"{row['pairs_per_second']:6.1f} pairs/s  curve {curve}", flush=True)


if __name__ == "__main__":
    main()
