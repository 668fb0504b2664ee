"""The training-speed tables of the "Running at scale" page (book/scale.md), from the committed
benchmark results.

Reads ``results/benchmarks/time_to_fit.json`` (``benchmarks/time_to_fit.py``: one core, before
and after the trainers were one), ``results/benchmarks/peer_joeynmt.json``
(``benchmarks/peer_joeynmt.py``: the same networks trained by joeynmt 2.3.0) and
``results/benchmarks/gpu_throughput.json`` (``benchmarks/gpu_throughput.py``: one GPU) and
writes ``book/speed_tables.md``, which book/scale.md includes. A test checks that the
committed file is what this writes, so the page's numbers are the results', never typed.

    python tools/speed_table.py            # rewrite book/speed_tables.md
    python tools/speed_table.py --check    # exit 1 if it is not up to date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "book" / "speed_tables.md"


def _read(name: str) -> dict | None:
    path = ROOT / "results" / "benchmarks" / name
    return json.loads(path.read_text()) if path.exists() else None


def _seconds(value) -> str:
    return "did not pass" if value is None else f"{value:,.0f}"


def _cpu_table() -> list[str]:
    data = _read("time_to_fit.json")
    lines = ["| task | before: to fit (s) | before: pairs/s | one trainer: to fit (s) | "
             "one trainer: pairs/s | epochs to fit |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    if data is None:
        return ["Not measured."]
    tasks = list(dict.fromkeys(r["task"] for r in data["runs"]))
    for task in tasks:
        rows = {r["label"]: r for r in data["runs"] if r["task"] == task}
        before, after = rows.get("before"), rows.get("after")
        cells = []
        for row in (before, after):
            cells += (["not measured"] * 2 if row is None else
                      [_seconds(row["seconds_to_fit"]), f"{row['pairs_per_second']:,.0f}"])
        epochs = after or before
        cells.append("-" if epochs["epochs_to_fit"] is None
                     else f"{round(epochs['epochs_to_fit'], 2):g}")
        lines.append(f"| {task} | " + " | ".join(cells) + " |")
    return lines


def _peer_table() -> list[str]:
    data = _read("peer_joeynmt.json")
    if data is None:
        return ["Not measured."]
    lines = ["| task | ours: pairs/s | joeynmt: pairs/s | ratio | validation accuracy | "
             "ours: seconds to it | joeynmt: seconds to it | ratio |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    rows = [(task, row, row["comparison"]) for task, row in data["tasks"].items()]
    if "control" in data:  # ours again, with joeynmt's learning-rate schedule
        control = data["control"]
        schedule = ", ".join(f"{k} {v}" for k, v in control["recipe_override"].items())
        rows.append((f"{control['task']}, ours with {schedule} (joeynmt's schedule)",
                     {"ours": control["ours"], "joeynmt": data["tasks"][control["task"]]["joeynmt"]},
                     control))
    for task, row, comparison in rows:
        for i, point in enumerate(comparison["thresholds"]):
            speed = ([f"{row['ours']['pairs_per_second']:,.0f}",
                      f"{row['joeynmt']['pairs_per_second']:,.0f}",
                      f"{comparison['pairs_per_second_ratio']:.2f}x"] if i == 0 else ["", "", ""])
            lines.append(f"| {task if i == 0 else ''} | " + " | ".join(
                [*speed, f"{point['threshold']:.3f}", _seconds(point["ours_seconds"]),
                 _seconds(point["joeynmt_seconds"]),
                 "-" if point["ratio"] is None else f"{point['ratio']:.2f}x"]) + " |")
    return lines


def _ablation_table() -> list[str]:
    """``benchmarks/trainer_ablation.py``'s table: every variant, its seeds, time to fit."""
    data = _read("trainer_ablation.json")
    if data is None:
        return ["Not measured."]
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import trainer_ablation

    return trainer_ablation.table(data["runs"]).splitlines()


# The peer's seconds to 0.90 on validation, read from peer_joeynmt.json, beside ours at the gate
PEER_TASKS = ("scan-simple LSTM+attention", "scan-length Transformer")
# the ablation's variant that a new Recipe() trains with (pools of 8 batches, the loss per token)
DEFAULT_VARIANT = "pools+tokens"


def _before_after_peer() -> list[str]:
    """Per peer task: the median time to the gate over seeds with the old default (length-bucketed
    batches), with the new default and with the fastest variant, and joeynmt's seconds to 0.90
    on validation."""
    data, peer = _read("trainer_ablation.json"), _read("peer_joeynmt.json")
    if data is None or peer is None:
        return ["Not measured."]
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import trainer_ablation

    summary = trainer_ablation.summary(data["runs"])
    lines = ["| task | before (bucketed): median s to the gate | after (the new default, "
             f"{DEFAULT_VARIANT}) | fastest variant | joeynmt: s to 0.90 | "
             "ratio, joeynmt over the new default |",
             "| --- | ---: | ---: | --- | ---: | ---: |"]

    def cell(row) -> str:
        if row is None:
            return "not measured"
        if row["median_seconds"] is None:
            return f"none of {row['runs']} fitted"
        return f"{row['median_seconds']:,.0f} ({row['fitted']} of {row['runs']} fitted)"

    for task in PEER_TASKS:
        rows = [r for r in summary if r["task"] == task]
        before = next((r for r in rows if r["variant"] == "bucketed"), None)
        after = next((r for r in rows if r["variant"] == DEFAULT_VARIANT), None)
        fitted = [r for r in rows if r["fitted"] == r["runs"] and r["median_seconds"] is not None]
        best = min(fitted, key=lambda r: r["median_seconds"]) if fitted else None
        thresholds = peer["tasks"][task]["comparison"]["thresholds"]
        joey = next((t["joeynmt_seconds"] for t in thresholds if t["threshold"] == 0.9), None)
        best_cell = ("none fitted on every seed" if best is None else
                     f"{best['median_seconds']:,.0f} ({best['variant']})")
        ratio = ("-" if after is None or after["median_seconds"] is None or joey is None
                 else f"{joey / after['median_seconds']:.2f}x")
        lines.append(f"| {task} | {cell(before)} | {cell(after)} | {best_cell} | "
                     f"{_seconds(joey)} | {ratio} |")
    return lines


def _gpu_table() -> list[str]:
    data = _read("gpu_throughput.json")
    if data is None:
        return ["Not measured: no GPU was lent."]
    architectures = list(data["after"]["per_architecture"])
    lines = ["| trainer | pairs/s, all processes | " + " | ".join(
        f"{a}, per process" for a in architectures) + " |",
             "| --- | ---: |" + " ---: |" * len(architectures)]
    for label, name in (("before", "the two trainers (before)"), ("after", "the one trainer")):
        row = data[label]
        lines.append(f"| {name} | {row['pairs_per_second']:,} | " + " | ".join(
            f"{row['per_architecture'][a]:,}" for a in architectures) + " |")
    return lines


def render() -> str:
    gpu = _read("gpu_throughput.json")
    parts = [
        "<!-- written by tools/speed_table.py from results/benchmarks/: do not edit -->",
        "",
        "One core (one thread), seed 0: seconds of training (evaluations not counted) until "
        "the network first passes the fit gate (`tutorlib.fit.passes`), and training pairs "
        "per second (`benchmarks/time_to_fit.py`):",
        "",
        *_cpu_table(),
        "",
        "The same networks, data and machine, trained by joeynmt 2.3.0 beside ours "
        "(`benchmarks/peer_joeynmt.py`, one thread each on one core; training seconds, its "
        "validations not counted; ratio: ours over joeynmt's speed; the LSTMs with a "
        "bidirectional encoder on both sides, as joeynmt 2.3.0 fails on a one-way one):",
        "",
        *_peer_table(),
        "",
        "What makes the trainer sample-efficient (`benchmarks/trainer_ablation.py`): each "
        "variant changes one thing, trained to the fit gate within the task's budget, one "
        "thread a run, seeds 0-2 (a run that did not pass counts as not fitted; pairs/s is the "
        "median over its runs):",
        "",
        *_ablation_table(),
        "",
        "Before, after and the peer, on the peer's two tasks: the median over seeds of the "
        "seconds to the gate with length-bucketed batches (the old default), with the new "
        "default, and with the variant that fitted on every seed soonest, beside joeynmt's "
        "seconds to 0.90 on "
        "validation from the table above (measured in an earlier session on a machine of the "
        "same kind; a ratio above 1 means ours is faster):",
        "",
        *_before_after_peer(),
        "",
        "One GPU: the PCFG SET `gpu` sweep's three networks, " + (
            f"{gpu['after']['jobs']} processes side by side under CUDA MPS, "
            f"{gpu['after']['seconds']:g} s of training each "
            if gpu else "") + "(`benchmarks/gpu_throughput.py`).",
        "",
        *_gpu_table(),
        "",
    ]
    return "\n".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} is not up to date: run python tools/speed_table.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
