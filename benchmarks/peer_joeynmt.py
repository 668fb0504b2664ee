"""Our trainer beside a peer toolkit, joeynmt 2.3.0: the same LSTM + attention and Transformer
on the same SCAN data, on one core (issue: "a peer, side by side").

Two tasks of :mod:`time_to_fit` (its data, networks and recipes, imported): "scan-simple
LSTM+attention" and "scan-length Transformer". Each is trained by ours
(:func:`tutorlib.seq2seq.train_once`, four evaluations an epoch) and by joeynmt (run as
``python -m joeynmt train CONFIG.yaml`` in its own virtual environment, ``.venv-peer``, on the
same training and validation pairs written as its plain-text files, validating every
quarter-epoch's worth of steps), each for the same training budget (seconds of training,
evaluations excluded), one after the other, one thread, pinned to one core.

Measured per side: training pairs per second, and training seconds until the validation
exact-match accuracy (greedy decoding; joeynmt's ``sequence_accuracy``) first reaches each
threshold: the highest accuracy both sides reach within the budget, and 0.9 where both reach
it. joeynmt's training seconds are read from its ``train.log``: the wall time since its first
epoch began, less the time of every validation (from the log line of the validation's step,
written just before it starts, to the last line it writes or its hypotheses file, whichever is
later); read so, each epoch's training time agrees with the one joeynmt logs itself to a few
milliseconds (``epochs_timed`` in the results). Its pairs per second are the sentences of the
steps up to its last validation within the budget over that training time. joeynmt is stopped
(SIGINT, which it catches) at its first validation past the budget. A control run trains ours
once more on the Transformer with joeynmt's schedule (joeynmt cannot keep the rate constant
after warm-up, as ours does).

    TQDM_DISABLE=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 taskset -c 1 \
        python benchmarks/peer_joeynmt.py --core 1          # both tasks, both sides (~40 min)
    python benchmarks/peer_joeynmt.py --table results/benchmarks/peer_joeynmt.json
    python benchmarks/peer_joeynmt.py --core 0 --budget-scale 0.02 --peer-every 20 \
        --no-control --workdir /tmp/peer_smoke --out /tmp/peer_smoke.json   # a smoke test

Generated data and joeynmt's model folders go under ``--workdir`` (/tmp/peer_joeynmt). The
peer's environment (ignored by git) sees this project's pinned torch through a ``.pth`` file:

    python3.11 -m venv .venv-peer
    .venv/bin/python -c "import site; print(site.getsitepackages()[0])" \
        > .venv-peer/lib/python3.11/site-packages/tutorlib-venv.pth
    .venv-peer/bin/pip install joeynmt==2.3.0
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import time_to_fit as ttf  # noqa: E402
import yaml  # noqa: E402

PEER_PYTHON = ROOT / ".venv-peer" / "bin" / "python"
EVALUATIONS_PER_EPOCH = 4
BATCH = 32
ENV = {"TQDM_DISABLE": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

# The same networks in joeynmt's terms, as closely as its options allow (see the module's
# report in the usage page: what differs and why).
LSTM_MODEL = {
    # PyTorch's own initialisation of an LSTM, U(-1/sqrt(128), 1/sqrt(128)), for weights and
    # biases; embeddings N(0, 1) as nn.Embedding; forget-gate bias not set to 1 (ours: drawn)
    "initializer": "uniform", "init_weight": 128 ** -0.5,
    "bias_initializer": "uniform", "bias_init_weight": 128 ** -0.5,
    "embed_initializer": "normal", "embed_init_weight": 1.0,
    "lstm_forget_gate": 0.0,
    # joeynmt 2.3.0's RecurrentEncoder.forward reads the backward direction's final state
    # unconditionally (encoders.py: `hidden_layerwise[-1:, 1]`), an IndexError for a one-way
    # encoder: both sides run a bidirectional encoder (ours: OURS_CONFIG)
    "encoder": {"type": "recurrent", "rnn_type": "lstm", "hidden_size": 128, "num_layers": 1,
                "bidirectional": True, "dropout": 0.0,
                "embeddings": {"embedding_dim": 128, "dropout": 0.0}},
    "decoder": {"type": "recurrent", "rnn_type": "lstm", "hidden_size": 128, "num_layers": 1,
                "attention": "bahdanau", "input_feeding": True, "init_hidden": "bridge",
                "dropout": 0.0, "hidden_dropout": 0.0,
                "embeddings": {"embedding_dim": 128, "dropout": 0.0}},
}
TRANSFORMER_MODEL = {
    # embeddings N(0, 128^-0.5), scaled by sqrt(128) in the forward pass, as ours; the other
    # weights joeynmt's default (Xavier uniform, zero biases)
    "initializer": "xavier_uniform", "bias_initializer": "zeros",
    "embed_initializer": "normal", "embed_init_weight": 128 ** -0.5,
    "tied_embeddings": False, "tied_softmax": False,
    "encoder": {"type": "transformer", "num_layers": 2, "num_heads": 4, "hidden_size": 128,
                "ff_size": 512, "layer_norm": "pre", "activation": "relu", "dropout": 0.0,
                "embeddings": {"embedding_dim": 128, "scale": True, "dropout": 0.0}},
    "decoder": {"type": "transformer", "num_layers": 2, "num_heads": 4, "hidden_size": 128,
                "ff_size": 512, "layer_norm": "pre", "activation": "relu", "dropout": 0.0,
                "embeddings": {"embedding_dim": 128, "scale": True, "dropout": 0.0}},
}

PEER_TASKS = {
    "scan-simple LSTM+attention": {
        "slug": "scan-simple-lstm", "budget": 300.0, "model": LSTM_MODEL,
        # time_to_fit's network, made bidirectional as joeynmt's must be (see LSTM_MODEL)
        "ours_config": {"bidirectional": True},
        # a constant rate: joeynmt 2.3.0 has no "none" schedule (build_scheduler raises on
        # it) and its "plateau" passes `verbose`, which torch 2.13 no longer takes; an
        # exponential decay by 1.0 an epoch keeps the rate
        "training": {"scheduling": "exponential", "decrease_factor": 1.0,
                     "learning_rate": 1e-3, "adam_betas": [0.9, 0.999]}},
    "scan-length Transformer": {
        "slug": "scan-length-transformer", "budget": 360.0, "model": TRANSFORMER_MODEL,
        # linear warm-up over 400 steps to 5e-4, then 5e-4 * sqrt(400 / step): joeynmt cannot
        # keep the rate after warm-up (ours does) -- see "control" for ours on this schedule
        "training": {"scheduling": "warmupinversesquareroot", "learning_rate": 5e-4,
                     "learning_rate_warmup": 400, "adam_betas": [0.9, 0.98]}},
}
# ours once more on the Transformer task with joeynmt's schedule (warm-up, then 1/sqrt(step)),
# so that the time to each threshold can be told apart from the schedule
CONTROL = {"task": "scan-length Transformer", "recipe": {"schedule": "inverse_sqrt"}}


# ---------------------------------------------------------------------------------------------
# data


def task_data(name: str):
    task = ttf.TASKS[name]
    return task["data"]()


def write_plain(folder: Path, train, validation) -> dict:
    """joeynmt's plain files: {train,dev,test}.{src,trg}, one sentence a line (test = dev)."""
    folder.mkdir(parents=True, exist_ok=True)
    for part, pairs in (("train", train), ("dev", validation), ("test", validation)):
        for side, index in (("src", 0), ("trg", 1)):
            text = "\n".join(" ".join(pair[index].split()) for pair in pairs) + "\n"
            (folder / f"{part}.{side}").write_text(text, encoding="utf-8")
    return {part: str(folder / part) for part in ("train", "dev", "test")}


# ---------------------------------------------------------------------------------------------
# ours


def run_ours(name: str, train, validation, vocabularies, budget: float,
             recipe_override: dict | None = None, seed: int = 0,
             new_defaults: bool = False) -> dict:
    import torch

    from tutorlib import seq2seq as s2s

    torch.set_num_threads(1)
    task = ttf.TASKS[name]
    config = {**task["config"], **PEER_TASKS[name].get("ours_config", {})}
    common = {**ttf.COMMON, "evaluations_per_epoch": EVALUATIONS_PER_EPOCH}
    if new_defaults:  # Recipe()'s own batches and loss (pools of 8, loss per token)
        common = {k: v for k, v in common.items() if k not in ("bucket_pool", "loss_per")}
    recipe = s2s.Recipe(**{**task["recipe"], **(recipe_override or {})}, **common,
                        max_seconds=budget)
    tick = time.perf_counter()
    run = s2s.train_once(s2s.Seq2SeqConfig(**config), train, vocabularies, recipe, seed,
                         validation=validation, desc=name)
    history = [{"step": r["step"], "epoch": r["epoch"], "seconds": r["seconds"],
                "validation_accuracy": r["validation_accuracy"],
                "train_accuracy": r["train_accuracy"]} for r in run.log.history]
    return {"parameters": run.parameters, "config": config, "recipe": recipe.to_dict(),
            "train_seconds": run.log.train_seconds,
            "evaluation_seconds": run.log.evaluation_seconds, "steps": run.log.steps,
            "pairs_per_second": run.log.pairs_per_second, "padded_share": run.log.padded_share,
            "threads": torch.get_num_threads(),
            "cores": sorted(os.sched_getaffinity(0)), "wall_seconds": round(time.perf_counter() - tick, 1),
            "history": history}


# ---------------------------------------------------------------------------------------------
# joeynmt


def peer_config(name: str, paths: dict, model_dir: Path, steps_per_epoch: int,
                max_output_length: int, every: int | None = None, seed: int = 0) -> dict:
    spec = PEER_TASKS[name]
    every = every or max(1, round(steps_per_epoch / EVALUATIONS_PER_EPOCH))
    return {
        "name": spec["slug"], "joeynmt_version": "2.3.0", "model_dir": str(model_dir),
        "use_cuda": False, "fp16": False, "random_seed": seed, "num_workers": 0,
        "data": {
            "train": paths["train"], "dev": paths["dev"], "test": paths["test"],
            "dataset_type": "plain", "sample_dev_subset": -1,
            "src": {"lang": "src", "level": "word", "lowercase": False, "normalize": False,
                    "max_length": -1, "voc_min_freq": 1},
            "trg": {"lang": "trg", "level": "word", "lowercase": False, "normalize": False,
                    "max_length": -1, "voc_min_freq": 1},
        },
        "testing": {"beam_size": 1, "batch_size": 500, "batch_type": "sentence",
                    "max_output_length": max_output_length,
                    "eval_metrics": ["sequence_accuracy"]},
        "training": {
            "optimizer": "adam", **spec["training"],
            # the rate never stops training (joeynmt stops below learning_rate_min, 1e-4 by
            # default, which the Transformer's warm-up starts under)
            "learning_rate_min": 1.0e-9,
            "loss": "crossentropy", "label_smoothing": 0.0,
            "normalization": "tokens",  # the mean over target tokens, as ours
            "clip_grad_norm": 5.0,  # as ours
            "weight_decay": 0.0,
            "batch_size": BATCH, "batch_type": "sentence", "batch_multiplier": 1,
            "shuffle": True, "epochs": 10_000,
            "validation_freq": every, "logging_freq": every,
            "early_stopping_metric": "acc",  # never stops training: only picks checkpoints
            "keep_best_ckpts": 1,
            # no example sentences: for a recurrent model each one is also an attention plot
            # (matplotlib), drawn after the validation's last log line
            "print_valid_sents": [],
            "overwrite": True,
        },
        "model": spec["model"],
    }


STAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) - \w+ - [\w.]+ - (.*)$")
STEP_LINE = re.compile(r"^Epoch\s+(\d+), Step:\s+(\d+),")
TRAINING_LINE = re.compile(r"^(Epoch\s+\d+, Step:|EPOCH \d+|Epoch\s+\d+, total training loss"
                           r"|Interrupt at|Training ended|Best validation result)")
EPOCH_TOTAL = re.compile(r"^Epoch\s+(\d+), total training loss: .*, num\. of seqs: (\d+), "
                         r"num\. of tokens: (\d+), ([\d.]+)\[sec\]")


def _stamp(text: str) -> float:
    return dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S,%f").timestamp()


def parse_log(log: Path) -> dict:
    """The training seconds at each validation of a joeynmt train.log (see the module's
    docstring), its parameter count and its own per-epoch training times."""
    lines = []  # (POSIX time, message) of each stamped line
    for raw in log.read_text(encoding="utf-8", errors="replace").splitlines():
        match = STAMP.match(raw)
        if match:
            lines.append((_stamp(match.group(1)), match.group(2)))
    start = next((t for t, text in lines if text.startswith("EPOCH 1")), None)
    parameters = next((int(m.group(1)) for _, text in lines
                       if (m := re.match(r"Total params: (\d+)", text))), None)
    validations, epochs = [], []
    spent = 0.0  # validation seconds so far
    i = 0
    while i < len(lines):
        stamp, text = lines[i]
        total = EPOCH_TOTAL.match(text)
        if total:
            epochs.append({"epoch": int(total.group(1)), "seqs": int(total.group(2)),
                           "joeynmt_train_seconds": float(total.group(4)),
                           "our_reading": round(stamp - start - spent, 3)})
        step = STEP_LINE.match(text)
        if step and start is not None:
            j = i + 1
            while j < len(lines) and not TRAINING_LINE.match(lines[j][1]):
                j += 1
            block = lines[i + 1:j]
            if any(t.startswith("Evaluation result") for _, t in block):
                # the validation's end: its last log line, or its hypotheses file (written
                # after it), whichever is later
                hyps = log.parent / f"{step.group(2)}.hyps"
                end = max(block[-1][0], hyps.stat().st_mtime if hyps.exists() else 0.0)
                validations.append({"step": int(step.group(2)), "epoch": int(step.group(1)),
                                    "seconds": round(stamp - start - spent, 3),
                                    "validation_seconds": round(end - stamp, 3)})
                spent += end - stamp
            i = j
            continue
        i += 1
    # joeynmt's own per-epoch times restart each epoch: our reading is cumulative
    previous = 0.0
    for row in epochs:
        row["our_reading_epoch"] = round(row["our_reading"] - previous, 3)
        previous = row["our_reading"]
    return {"start": start, "parameters": parameters, "validations": validations,
            "epochs": epochs}


def parse_validations(path: Path) -> dict[int, float]:
    """Step -> sequence accuracy (0-1) from joeynmt's validations.txt."""
    scores = {}
    if not path.exists():
        return scores
    for line in path.read_text().splitlines():
        fields = dict(part.split(": ", 1) for part in line.split("\t") if ": " in part)
        if "Steps" in fields and "sequence_accuracy" in fields:
            scores[int(fields["Steps"])] = float(fields["sequence_accuracy"]) / 100
    return scores


def run_peer(name: str, train, validation, budget: float, core: int, workdir: Path,
             every: int | None = None, seed: int = 0) -> dict:
    spec = PEER_TASKS[name]
    folder = workdir / spec["slug"]
    paths = write_plain(folder / "data", train, validation)
    model_dir = folder / "model"
    if model_dir.exists():
        shutil.rmtree(model_dir)
    steps_per_epoch = math.ceil(len(train) / BATCH)
    longest = max(len(target.split()) for _, target in validation)
    config = peer_config(name, paths, model_dir, steps_per_epoch, longest + 10, every, seed)
    config_path = folder / "config.yaml"
    config_path.write_text(yaml.safe_dump(config, sort_keys=False))
    command = ["taskset", "-c", str(core), str(PEER_PYTHON), "-m", "joeynmt", "train",
               str(config_path), "--skip-test"]
    env = {**os.environ, **ENV}
    log = model_dir / "train.log"
    # this process only watches the log meanwhile: off joeynmt's core, where there is another
    mine = os.sched_getaffinity(0)
    others = set(range(os.cpu_count() or 1)) - {core}
    if others:
        os.sched_setaffinity(0, others)
    tick = time.perf_counter()
    threads = None
    with (folder / "stdout.txt").open("w") as out:
        # SIGINT as by default (a background shell ignores it, and so would joeynmt)
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                    signal.SIG_DFL))
        stopped = "finished"
        deadline = time.perf_counter() + 3 * budget + 300
        while process.poll() is None:
            time.sleep(0.5)
            if threads is None and time.perf_counter() - tick > 30:
                # its OS threads and the cores it may run on, read once while it trains
                status = Path(f"/proc/{process.pid}/status").read_text()
                threads = {k: v.strip() for k, v in (line.split(":", 1) for line in
                           status.splitlines()) if k in ("Threads", "Cpus_allowed_list")}
            if time.perf_counter() > deadline:
                stopped = "deadline"
                break
            if log.exists():
                reading = parse_log(log)["validations"]
                if reading and reading[-1]["seconds"] >= budget:
                    stopped = "budget"
                    break
        if process.poll() is None:
            process.send_signal(signal.SIGINT)  # joeynmt catches it and saves a checkpoint
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    wall = time.perf_counter() - tick
    os.sched_setaffinity(0, mine)
    if not log.exists():
        raise RuntimeError(f"joeynmt wrote no log; see {folder / 'stdout.txt'}")
    reading = parse_log(log)
    scores = parse_validations(model_dir / "validations.txt")
    history = [{**row, "validation_accuracy": scores.get(row["step"])}
               for row in reading["validations"]]
    if not history or history[0]["validation_accuracy"] is None:
        tail = (folder / "stdout.txt").read_text()[-3000:]
        raise RuntimeError(f"joeynmt validated nothing ({stopped}):\n{tail}")
    within = [row for row in history if row["seconds"] <= budget + SLACK]
    last = within[-1] if within else history[0]

    def sentences(step: int) -> int:
        return (step // steps_per_epoch) * len(train) + (step % steps_per_epoch) * BATCH

    return {"parameters": reading["parameters"], "config": config,
            "command": " ".join(f"{k}={v}" for k, v in ENV.items()) + " " + " ".join(command),
            "stopped": stopped, "steps_per_epoch": steps_per_epoch, "process": threads,
            "train_seconds": last["seconds"], "steps": last["step"],
            "pairs_per_second": round(sentences(last["step"]) / last["seconds"], 1),
            "evaluation_seconds": round(sum(r["validation_seconds"] for r in history
                                            if r["seconds"] <= budget + SLACK), 2),
            "wall_seconds": round(wall, 1), "epochs_timed": reading["epochs"],
            "history": [{**row, "pairs_seen": sentences(row["step"])} for row in history],
            "history_within_budget": len(within)}


# ---------------------------------------------------------------------------------------------
# comparison


# a run's evaluations count up to this many seconds past its budget (ours evaluates at the
# first step past it; joeynmt's cut is its last validation before it)
SLACK = 1.0


def seconds_to(history: list[dict], threshold: float, budget: float) -> float | None:
    for row in history:
        if row["seconds"] <= budget + SLACK and row["validation_accuracy"] is not None \
                and row["validation_accuracy"] >= threshold - 1e-9:
            return row["seconds"]
    return None


def best(history: list[dict], budget: float) -> float:
    """The best validation accuracy within the budget (NaN: no validation within it)."""
    return max((r["validation_accuracy"] for r in history
                if r["seconds"] <= budget + SLACK and r["validation_accuracy"] is not None),
               default=float("nan"))


def compare(ours: dict, peer: dict, budget: float) -> dict:
    best_ours, best_peer = best(ours["history"], budget), best(peer["history"], budget)
    both = min(best_ours, best_peer)
    thresholds = [] if math.isnan(both) else sorted({round(both, 4)}
                                                    | ({0.9} if both >= 0.9 else set()))
    rows = []
    for threshold in thresholds:
        a, b = seconds_to(ours["history"], threshold, budget), seconds_to(peer["history"],
                                                                         threshold, budget)
        rows.append({"threshold": threshold, "ours_seconds": a, "joeynmt_seconds": b,
                     "ratio": round(b / a, 2) if a and b else None})
    return {"best_ours": best_ours, "best_joeynmt": best_peer,
            "pairs_per_second_ratio": round(ours["pairs_per_second"] / peer["pairs_per_second"], 2),
            "thresholds": rows}


def medians(paths: list[Path], out: Path, threshold: float = 0.9) -> dict:
    """Per task, each side's training seconds to ``threshold`` validation accuracy in each seed's
    file (None: not within the budget) and their medians; written to ``out``."""
    import statistics

    seeds: dict[str, list] = {}
    for path in paths:
        data = json.loads(path.read_text())
        for name, entry in data["tasks"].items():
            if "ours" not in entry or "joeynmt" not in entry:
                continue
            budget = entry["budget_seconds"]
            seeds.setdefault(name, []).append({
                "seed": data.get("seed", 0), "new_defaults": data.get("new_defaults", False),
                "ours_seconds": seconds_to(entry["ours"]["history"], threshold, budget),
                "joeynmt_seconds": seconds_to(entry["joeynmt"]["history"], threshold, budget),
                "ours_pairs_per_second": entry["ours"]["pairs_per_second"],
                "joeynmt_pairs_per_second": entry["joeynmt"]["pairs_per_second"]})
    summary = {"threshold": threshold, "tasks": {}}
    for name, rows in seeds.items():
        # a seed that never reached it counts as slower than any that did
        ours, peer = (statistics.median([math.inf if r[f"{side}_seconds"] is None
                                         else r[f"{side}_seconds"] for r in rows])
                      for side in ("ours", "joeynmt"))
        summary["tasks"][name] = {"seeds": rows, "ours_median_seconds": ours,
                                  "joeynmt_median_seconds": peer,
                                  "joeynmt_over_ours": round(peer / ours, 2)
                                  if math.isfinite(ours) and math.isfinite(peer) else None}
        print(f"{name}: {len(rows)} seeds, median seconds to {threshold}: ours {ours}, joeynmt "
              f"{peer}, joeynmt/ours {summary['tasks'][name]['joeynmt_over_ours']}")
    out.write_text(json.dumps(summary, indent=1))
    return summary


def table(path: Path) -> None:
    data = json.loads(path.read_text())
    print("| task | ours pairs/s | joeynmt pairs/s | ratio | threshold | ours s to threshold "
          "| joeynmt s to threshold | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")

    def s(x):
        return "not reached" if x is None else f"{x:.1f}"

    for name, entry in data["tasks"].items():
        if "comparison" not in entry:
            continue
        c = entry["comparison"]
        for k, row in enumerate(c["thresholds"]):
            head = (f"| {name} | {entry['ours']['pairs_per_second']:.0f} | "
                    f"{entry['joeynmt']['pairs_per_second']:.0f} | "
                    f"{c['pairs_per_second_ratio']:.2f} |") if k == 0 else "| | | | |"
            print(f"{head} {row['threshold']:.3f} | {s(row['ours_seconds'])} | "
                  f"{s(row['joeynmt_seconds'])} | "
                  f"{'' if row['ratio'] is None else format(row['ratio'], '.2f')} |")
    control = data.get("control")
    if control:
        print(f"\nControl, ours on {control['task']} with joeynmt's schedule "
              f"({control['recipe_override']}): {control['ours']['pairs_per_second']:.0f} pairs/s, "
              f"best {control['best']:.3f}; " + "; ".join(
                  f"{t['threshold']:.3f} at {s(t['ours_seconds'])} s (joeynmt/ours "
                  f"{'' if t['ratio'] is None else t['ratio']})" for t in control["thresholds"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", action="append", choices=list(PEER_TASKS))
    parser.add_argument("--side", choices=["both", "ours", "joeynmt"], default="both")
    parser.add_argument("--core", type=int, default=1, help="the one core both sides run on")
    parser.add_argument("--budget-scale", type=float, default=1.0,
                        help="multiplies each task's training budget (smoke tests)")
    parser.add_argument("--control", action=argparse.BooleanOptionalAction, default=True,
                        help="also ours on the Transformer with joeynmt's schedule")
    parser.add_argument("--peer-every", type=int,
                        help="joeynmt validates every this many steps (smoke tests; default: "
                             f"a {EVALUATIONS_PER_EPOCH}th of an epoch, as ours)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/peer_joeynmt"))
    parser.add_argument("--out", type=Path, default=ROOT / "results/benchmarks/peer_joeynmt.json")
    parser.add_argument("--table", type=Path)
    parser.add_argument("--medians", type=Path, nargs="+",
                        help="summarise these result files (one seed each) into --out")
    parser.add_argument("--ours-schedule", choices=["inverse_sqrt"],
                        help="ours on this schedule in the main run (as the control does)")
    parser.add_argument("--seed", type=int, default=0, help="both sides' seed")
    parser.add_argument("--new-defaults", action="store_true",
                        help="ours with Recipe()'s defaults (pools of 8, loss per token) "
                             "instead of time_to_fit's pinned whole-epoch buckets and batch loss")
    args = parser.parse_args()
    if args.table:
        table(args.table)
        return
    if args.medians:
        medians(args.medians, args.out)
        return
    # ours runs in this process: pin it to the core (joeynmt gets taskset)
    os.sched_setaffinity(0, {args.core})
    for key, value in ENV.items():
        os.environ.setdefault(key, value)
    data = json.loads(args.out.read_text()) if args.out.exists() else {"tasks": {}}
    data.update({"machine": platform.node(), "core": args.core, "threads": 1,
                 "seed": args.seed, "new_defaults": args.new_defaults,
                 "ours_schedule": args.ours_schedule,
                 "budget_scale": args.budget_scale,
                 "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())})
    import torch

    data["torch"] = torch.__version__
    data["joeynmt"] = subprocess.run(
        [str(PEER_PYTHON), "-c", "import importlib.metadata as m; print(m.version('joeynmt'))"],
        capture_output=True, text=True, check=True).stdout.strip()

    def save() -> None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=1))

    git = ["git", "-C", str(ROOT)]
    data["commit"] = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True,
                                    text=True).stdout.strip()
    data["tutorlib_uncommitted"] = bool(subprocess.run(
        git + ["status", "--porcelain", "tutorlib"], capture_output=True, text=True).stdout.strip())
    names = args.task or list(PEER_TASKS)
    # every task's data (and so every import) first, before anything is timed
    datasets = {name: task_data(name) for name in names}
    for name in names:
        budget = PEER_TASKS[name]["budget"] * args.budget_scale
        train, validation, vocabularies = datasets[name]
        entry = data["tasks"].setdefault(name, {})
        entry.update({"budget_seconds": budget, "train_pairs": len(train),
                      "validation_pairs": len(validation)})
        if args.side in ("both", "ours"):
            entry["ours"] = run_ours(name, train, validation, vocabularies, budget,
                                    recipe_override={"schedule": args.ours_schedule}
                                    if args.ours_schedule else None,
                                    seed=args.seed, new_defaults=args.new_defaults)
            print(f"{name}, ours: {entry['ours']['pairs_per_second']} pairs/s, best "
                  f"{best(entry['ours']['history'], budget):.3f}", flush=True)
            save()
        if args.side in ("both", "joeynmt"):
            entry["joeynmt"] = run_peer(name, train, validation, budget, args.core, args.workdir,
                                        args.peer_every, args.seed)
            print(f"{name}, joeynmt: {entry['joeynmt']['pairs_per_second']} pairs/s, best "
                  f"{best(entry['joeynmt']['history'], budget):.3f}", flush=True)
            save()
        if "ours" in entry and "joeynmt" in entry:
            entry["comparison"] = compare(entry["ours"], entry["joeynmt"], budget)
            save()
    if args.control and args.side in ("both", "ours") and (
            CONTROL["task"] in names):
        name = CONTROL["task"]
        budget = PEER_TASKS[name]["budget"] * args.budget_scale
        train, validation, vocabularies = datasets[name]
        ours = run_ours(name, train, validation, vocabularies, budget, CONTROL["recipe"])
        peer = data["tasks"][name].get("joeynmt")
        control = {"task": name, "recipe_override": CONTROL["recipe"], "ours": ours,
                   "best": best(ours["history"], budget)}
        if peer:
            control.update(compare(ours, peer, budget))
        data["control"] = control
        save()
    table(args.out)


if __name__ == "__main__":
    main()
