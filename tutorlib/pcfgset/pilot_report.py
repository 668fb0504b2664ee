"""Readers of PCFG SET's committed pilots: the GPU sweep's measurements and its
old-against-new trainer pilots, and the pilot that chose the full profile's reduction, as
chapter 12 shows them.

Re-exported by :mod:`tutorlib.pcfgset.report`.
"""

from __future__ import annotations

import json

import pandas as pd

from tutorlib import results


def gpu_measurements() -> dict | None:
    """``results/pcfgset/convergence-gpu.json``: the GPU sweep's wall time, the trainers'
    throughput and precision, and the old-against-new pilots (None when not committed)."""
    path = results.project_results("pcfgset", "convergence-gpu.json")
    if not path.exists():
        return None
    return json.loads(path.read_text())


def pilot_curves() -> pd.DataFrame:
    """The GPU pilots' validation curves: a row per evaluation (network, trainer, seconds,
    validation and training accuracy), today's trainer against the convergence recipe."""
    measured = gpu_measurements()
    rows = []
    for network, entry in ((measured or {}).get("pilots") or {}).items():
        for trainer in ("old", "new"):
            for point in entry.get(trainer, {}).get("history", []):
                rows.append({"network": network, "trainer": trainer,
                             "seconds": point["seconds"],
                             "validation_accuracy": point["validation_accuracy"],
                             "train_accuracy": point["train_accuracy"]})
    return pd.DataFrame(rows)


def _seconds_to(history: list[dict], level: float | None) -> float | None:
    """Training seconds until the validation accuracy first reaches ``level`` (None: never)."""
    if level is None:
        return None
    return next((round(p["seconds"]) for p in history if p["validation_accuracy"] >= level),
                None)


def pilot_table() -> pd.DataFrame:
    """Per architecture, today's trainer against the convergence recipe on the GPU (one run
    each, the six sharing the card) for the same training time: pairs/s, epochs, validation
    accuracy reached, the time to fit (seconds until the validation accuracy first reaches 0.9
    of its best), and the seconds each takes to reach today's trainer's best validation
    accuracy."""
    measured = gpu_measurements()
    rows = []
    for network, entry in ((measured or {}).get("pilots") or {}).items():
        for trainer, label in (("old", "today's trainer"), ("new", "convergence recipe")):
            if trainer not in entry:
                continue
            row = entry[trainer]
            rows.append({"network": network, "trainer": label,
                         "pairs/s": round(row["pairs_per_second"]),
                         "epochs": round(float(row["epochs"]), 1),
                         "seconds trained": round(row["train_seconds"]),
                         "validation": round(row["validation_accuracy"], 3),
                         "training fit": round(row["train_accuracy"], 3),
                         "time to fit (s)": round(row["seconds_to_fit"]),
                         "to today's best (s)": _seconds_to(
                             row["history"], entry.get("old", {}).get("validation_accuracy"))})
    return pd.DataFrame(rows).set_index(["network", "trainer"]) if rows else pd.DataFrame()


def reduction_pilots() -> pd.DataFrame:
    """The pilot that chose the full profile's reduction (``results/pcfgset/pilot/``,
    ``benchmarks/pcfgset_pilot.py``, one core a run): per candidate reduction, architecture and
    recipe tried, the training pairs, the seconds of training until the network first passed
    the fit gate (or "not in" its budget), and its best training and validation accuracy.

    Returns
    -------
    pandas.DataFrame
        A row per pilot run, by candidate (fewest training pairs first) and architecture;
        empty without the folder.
    """
    folder = results.project_results("pcfgset", "pilot")
    rows = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        run = json.loads(path.read_text(encoding="utf-8"))
        architecture, recipe = run["architecture"], run["recipe"]
        shape = f"{architecture['num_layers']} layer{'s' if architecture['num_layers'] > 1 else ''}"
        if architecture.get("kernel_size"):
            shape += f", kernel {architecture['kernel_size']}"
        fitted = run["seconds_to_fit"]
        rows.append({
            "candidate": run["candidate"], "network": run["network"], "seed": run["seed"],
            "network size": shape,
            "recipe": f"{recipe['learning_rate']:g}, {recipe['schedule'].replace('_', ' ')}",
            "training pairs": run["train_pairs"],
            "passes the gate at (s)": (round(fitted) if fitted is not None
                                       else f"not in {round(run['train_seconds'])}"),
            "best training": round(run["best_train"], 2),
            "best validation": round(run["best_validation"], 2),
            "validation bar": run["gate_in_distribution"]})
    if not rows:
        return pd.DataFrame()
    return (pd.DataFrame(rows).sort_values(["training pairs", "candidate", "network", "seed"],
                                           kind="stable").reset_index(drop=True))

