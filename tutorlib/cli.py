"""``python -m tutorlib``: run experiments at a profile, inspect profiles, results and the cache.

Each method chapter registers its experiment in :data:`EXPERIMENTS` (``run NAME``) and, where it
has a dataset, an exporter in :data:`EXPORTS` (``export NAME DIR``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable

from tutorlib import (__version__, cache, concepts, profiles, results, scan, scan_experiments, toy,
                      tre_experiments)

# name -> (one-line description, function(profile, out_dir) -> path of the results file)
EXPERIMENTS: dict[str, tuple[str, Callable]] = {
    "compositionality": ("colour-shape toy world: held-out accuracy against irregularity",
                         toy.run_experiment),
    "scan": ("Lake & Baroni (2018) experiments 1-3 on SCAN", scan_experiments.run_experiment),
    "tre": ("Andreas (2019) Sec. 7: reference games, TRE against generalisation",
            tre_experiments.run_experiment),
    "tre_dynamics": ("Andreas (2019) Sec. 4: TRE and information over a concept learner's "
                     "training", concepts.run_experiment),
}

# name -> (one-line description, function(directory) -> None)
EXPORTS: dict[str, tuple[str, Callable]] = {
    "scan": ("SCAN's tasks.txt and every split, in the official layout", scan.export),
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tutorlib",
        description="Companion package of the book 'Measuring Compositionality'.",
        epilog="Experiments: " + "; ".join(f"{k} ({v[0]})" for k, v in EXPERIMENTS.items()),
    )
    parser.add_argument("--version", action="version", version=f"tutorlib {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    run = commands.add_parser("run", help="run an experiment at a profile, saving results with "
                                          "provenance (resumable)")
    run.add_argument("experiment", choices=sorted(EXPERIMENTS), metavar="EXPERIMENT",
                     help="one of: " + ", ".join(sorted(EXPERIMENTS)))
    run.add_argument("--profile", default="paper", choices=profiles.PROFILES)
    run.add_argument("--out", default="results", help="results directory (default: results)")
    run.add_argument("--only", help="comma-separated parts of the experiment to run in this "
                                    "process (scan: split names, and addprim_turn_left@per_example "
                                    "for the paper-training control), to share work between "
                                    "processes; --only '' just rewrites the summary")

    export = commands.add_parser("export", help="write a dataset to files in its official format")
    export.add_argument("dataset", choices=sorted(EXPORTS), metavar="DATASET",
                        help="one of: " + (", ".join(sorted(EXPORTS)) or "(none yet)"))
    export.add_argument("directory")

    show = commands.add_parser("profiles", help="show the settings of every experiment at each "
                                                "profile")
    show.add_argument("experiment", nargs="?", help="only this experiment")

    info = commands.add_parser("results", help="print a results file's provenance")
    info.add_argument("path")

    clear = commands.add_parser("cache", help="show where the cache is, or clear it")
    clear.add_argument("--clear", action="store_true", help="delete every cache entry")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "run":
            extra = {}
            if args.only is not None:
                if args.experiment != "scan":
                    raise ValueError("--only is supported by the scan experiment only")
                extra["only"] = [part for part in args.only.split(",") if part]
            path = EXPERIMENTS[args.experiment][1](args.profile, args.out, **extra)
            print(f"results written to {path}")
        elif args.command == "export":
            EXPORTS[args.dataset][1](args.directory)
            print(f"{args.dataset} written to {args.directory}")
        elif args.command == "profiles":
            names = [args.experiment] if args.experiment else profiles.experiments()
            for name in names:
                for profile in profiles.PROFILES:
                    print(f"{name} [{profile}]: {json.dumps(profiles.settings(name, profile))}")
        elif args.command == "results":
            record = results.read_results(args.path)
            print(json.dumps(record["provenance"], indent=2))
        elif args.command == "cache":
            if args.clear:
                print(f"removed {cache.clear()} files from {cache.cache_dir()}")
            else:
                print(cache.cache_dir())
    except (ValueError, FileNotFoundError, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
