"""Carry committed runs to a longer time budget where the old budget did not bind.

    python tools/carry_budget.py pcfgset full Transformer 1200

For every run of the profile whose recipe now has a longer ``max_seconds`` than OLD, the record
trained under OLD seconds is saved under the new settings if that run stopped before its budget
(``RunStore.carry_to_longer_budget``); the runs that reached it are left to train again.
"""

from __future__ import annotations

import argparse
import copy

from tutorlib import results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment")
    parser.add_argument("profile")
    parser.add_argument("part", help="the runs' --only part (pcfgset: an architecture)")
    parser.add_argument("old", type=float, help="the budget the committed runs were trained under")
    args = parser.parse_args()
    spec = results.experiment(args.experiment)
    settings, _ = results._settings_at(spec, args.experiment, args.profile)
    store = results.RunStore(results.project_results(args.experiment, "runs"), args.experiment)
    carried = left = 0
    for run_settings, seed in spec.runs(settings):
        if spec.part(run_settings, seed) != args.part or store.has(run_settings, seed):
            continue
        new = run_settings["recipe"]["max_seconds"]
        old = copy.deepcopy(run_settings)
        old["recipe"]["max_seconds"] = args.old
        path = store.carry_to_longer_budget(old, seed, new)
        print(f"{'carried' if path else 'left   '} {run_settings.get('split', '')} seed {seed}"
              + (f" -> {path.name}" if path else ""))
        carried, left = carried + bool(path), left + (not path)
    print(f"{carried} carried, {left} left to train")


if __name__ == "__main__":
    main()
