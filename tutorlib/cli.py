"""``python -m tutorlib``: run experiments at a profile, inspect profiles, results and the cache.

Every experiment of :data:`tutorlib.profiles.RUNNABLE` runs with ``run NAME`` through the one
runner, :func:`tutorlib.results.run_experiment`: in this process, in ``--jobs N`` worker
processes, or on a Dask cluster (``--scheduler ADDRESS``). Datasets with an official file
format are written with ``export NAME DIR``. Predictions made elsewhere are scored with
``card score BENCHMARK FILES...`` (SCAN, PCFG SET and ORCHARD in their released layouts).

This module imports nothing heavy at start-up (``--help`` does not load torch): each command
imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from tutorlib import __version__, registry
from tutorlib.profiles import EXTRA_PROFILES, PROFILES

# name -> one-line description of every runnable experiment, from the one registry (the
# experiment itself: tutorlib.results.experiment(name))
EXPERIMENTS: dict[str, str] = {name: registry.EXPERIMENTS[name].description
                               for name in registry.names(runnable=True)}

# name -> (one-line description, "module:main" of the dataset's own command line, whose
# ``export DIR [OPTIONS]`` the top-level ``export NAME DIR [OPTIONS]`` runs)
EXPORTS: dict[str, tuple[str, str]] = {
    "scan": ("SCAN's tasks.txt and every split (--split NAME ... for some), official layout",
             "tutorlib.scan.files:main"),
    "pcfgset": ("PCFG SET's base corpus and every test split (--only SPLIT ...), published layout",
                "tutorlib.pcfgset.files:main"),
    "orchard": ("ORCHARD's variants in the release's layout (--variant NAME, default all)",
                "tutorlib.orchard.__main__:main"),
    "dbca": ("SCAN's tasks.txt and our three MCD splits as index JSON, in the released format",
             "tutorlib.dbca.files:main"),
}

# Names the command line accepted before each experiment had one name everywhere.
ALIASES = {"tre": "tre_generalisation"}


def _load(target: str):
    module, function = target.split(":")
    return getattr(importlib.import_module(module), function)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tutorlib",
        description="Companion package of the book 'Measuring Compositionality'.",
        epilog="Experiments: " + "; ".join(f"{k} ({v})" for k, v in EXPERIMENTS.items()),
    )
    parser.add_argument("--version", action="version", version=f"tutorlib {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    run = commands.add_parser("run", help="run an experiment at a profile, saving results with "
                                          "provenance (resumable)")
    run.add_argument("experiment", choices=sorted([*EXPERIMENTS, *ALIASES]), metavar="EXPERIMENT",
                     help="one of: " + ", ".join(sorted(EXPERIMENTS)))
    run.add_argument("--profile", default="full",
                     choices=[*PROFILES, *EXTRA_PROFILES],
                     help="full (the default), tutorial, ci, "
                          "or gpu where the experiment has one (pcfgset)")
    run.add_argument("--out", default="results", help="results directory (default: results)")
    run.add_argument("--only", help="comma-separated parts of the experiment to run in this "
                                    "process (scan: split names, and addprim_turn_left@per_example "
                                    "for the paper-training control; pcfgset: architectures; orchard: "
                                    "variants; card: network@benchmark, e.g. lstm@scan; the others: "
                                    "seeds), to share work by hand; --only '' just rewrites the "
                                    "summary")
    run.add_argument("--seeds", help="comma-separated seeds to run in this process (with --only: "
                                     "those seeds of those parts)")
    run.add_argument("--jobs", type=int, default=1,
                     help="worker processes, one thread each (default 1: this process)")
    run.add_argument("--scheduler", metavar="ADDRESS",
                     help="send the runs to a Dask cluster (e.g. tcp://host:8786); needs "
                          "pip install -e '.[cluster]'")
    run.add_argument("--device", default="cpu",
                     help="cpu (default), cuda, mps, or auto (CUDA or MPS when present)")
    run.add_argument("--quiet", action="store_true", help="no progress bars")

    status = commands.add_parser("status", help="list a profile's runs as done, partial (a "
                                                 "checkpoint to resume from) or left")
    status.add_argument("experiment", choices=sorted(EXPERIMENTS), metavar="EXPERIMENT")
    status.add_argument("--profile", default="gpu", choices=[*PROFILES, *EXTRA_PROFILES],
                        help="the profile (default: gpu)")
    status.add_argument("--out", default="results", help="results directory (default: results)")
    status.add_argument("--checkpoints", help="the sweep's checkpoint folder (default: "
                                              "$TUTORLIB_CHECKPOINT_DIR)")

    export = commands.add_parser("export", help="write a dataset to files in its official format")
    export.add_argument("dataset", choices=sorted(EXPORTS), metavar="DATASET",
                        help="one of: " + ", ".join(sorted(EXPORTS)))
    export.add_argument("directory")
    export.add_argument("options", nargs=argparse.REMAINDER, metavar="OPTIONS",
                        help="the dataset's own options: scan --split NAME ... --seed N; pcfgset "
                             "--only SPLIT ... --seed N; orchard --variant NAME --size N --seed N "
                             "--parts P,Q (python -m tutorlib.DATASET export --help)")

    card = commands.add_parser("card", help="the report card: score predictions made elsewhere")
    card_commands = card.add_subparsers(dest="card_command", metavar="CARD_COMMAND", required=True)
    score = card_commands.add_parser(
        "score", help="score a file of predictions (one per line) in a benchmark's released layout")
    benchmarks = score.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True)
    scan_score = benchmarks.add_parser("scan", help="TEST (IN: ... OUT: ... lines) PREDICTIONS")
    scan_score.add_argument("test")
    scan_score.add_argument("predictions")
    pcfgset_score = benchmarks.add_parser(
        "pcfgset", help="PREDICTIONS (source<TAB>target<TAB>prediction lines) [--twin FILE]")
    pcfgset_score.add_argument("predictions")
    pcfgset_score.add_argument("--twin", help="the twin inputs' predictions, for consistency")
    pcfgset_score.add_argument("--check-targets", action="store_true",
                               help="check every target against the interpreter's meaning of its "
                                    "source")
    orchard_score = benchmarks.add_parser(
        "orchard", help="DIRECTORY PART (PART.input, PART.label) PREDICTIONS")
    orchard_score.add_argument("directory")
    orchard_score.add_argument("part")
    orchard_score.add_argument("predictions")
    for sub in (scan_score, pcfgset_score, orchard_score):
        sub.add_argument("--json", action="store_true", help="print the scores as JSON")

    show = commands.add_parser("profiles", help="show the settings of every experiment at each "
                                                "profile")
    show.add_argument("experiment", nargs="?", help="only this experiment")

    info = commands.add_parser("results", help="print a results file's provenance")
    info.add_argument("path")

    clear = commands.add_parser("cache", help="show where the cache is, or clear it")
    clear.add_argument("--clear", action="store_true", help="delete every cache entry")
    return parser


def _seeds(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"--seeds takes comma-separated integers, got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "run":
            from tutorlib import results

            only = None if args.only is None else [p for p in args.only.split(",") if p]
            seeds = None if args.seeds is None else _seeds(args.seeds)
            name = ALIASES.get(args.experiment, args.experiment)
            path = results.run_experiment(name, args.profile, args.out, only=only, seeds=seeds,
                                          jobs=args.jobs, scheduler=args.scheduler,
                                          device=args.device, progress=not args.quiet)
            print(f"results written to {path}")
        elif args.command == "status":
            from tutorlib import results

            rows = results.sweep_status(args.experiment, args.profile, args.out,
                                        args.checkpoints)
            for row in rows:
                print(f"{row['state']:<8} {row['part']} seed {row['seed']}")
            counts = {state: sum(r["state"] == state for r in rows)
                      for state in results.RUN_STATES}
            print(f"{args.experiment} [{args.profile}]: " + ", ".join(
                f"{count} {state}" for state, count in counts.items()) + f" of {len(rows)}")
        elif args.command == "export":
            from tutorlib.textfiles import output_directory

            output_directory(args.directory)  # a file, or no access: say so before any work
            options = list(args.options)
            if args.dataset == "orchard" and not any(o.startswith("--variant") for o in options):
                options += ["--variant", "all"]
            status = _load(EXPORTS[args.dataset][1])(["export", args.directory, *options])
            if status:
                return status
        elif args.command == "card":
            scorer = _load(f"tutorlib.card.scoring:score_{args.benchmark}")
            if args.benchmark == "scan":
                result = scorer(args.test, args.predictions)
            elif args.benchmark == "pcfgset":
                result = scorer(args.predictions, args.twin, check_targets=args.check_targets)
            else:
                result = scorer(args.directory, args.part, args.predictions)
            if args.json:
                print(json.dumps(result.to_dict()))
            else:
                print(f"{result.benchmark}: {result.examples} examples; " + ", ".join(
                    f"{name.replace('_', ' ')} {100 * value:.1f}%"
                    for name, value in result.scores.items()))
        elif args.command == "profiles":
            from tutorlib import profiles

            names = [args.experiment] if args.experiment else profiles.experiments()
            for name in names:
                for profile in (*PROFILES, *EXTRA_PROFILES):
                    if not profiles.has_profile(name, profile):
                        continue
                    print(f"{name} [{profile}]: "
                          f"{json.dumps(profiles.settings(name, profile).to_dict())}")
        elif args.command == "results":
            from tutorlib import results

            if Path(args.path).is_dir():
                raise ValueError(f"{args.path} is a directory; `results` reads one results file "
                                 f"such as results/scan/full.json")
            record = results.read_results(args.path)
            print(json.dumps(record["provenance"], indent=2))
        elif args.command == "cache":
            from tutorlib import cache

            if args.clear:
                print(f"removed {cache.clear()} files from {cache.cache_dir()}")
            else:
                print(cache.cache_dir())
    except (ValueError, KeyError, OSError) as error:  # OSError: a file for a folder, no access
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
