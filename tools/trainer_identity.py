"""Are the committed runs still valid after a change to how networks are trained?

Runs the first two ci-profile runs of every experiment that trains a sequence-to-sequence
network (and, with ``--profile``, another profile's), in a fresh disk cache, and writes their
records without timings to one JSON file; ``--compare A B`` lists every record that differs.

    python tools/trainer_identity.py --out /tmp/before.json      # on the old commit
    python tools/trainer_identity.py --out /tmp/after.json       # on the new one
    python tools/trainer_identity.py --compare /tmp/before.json /tmp/after.json

``--keys OUT`` writes instead the run key of every run of every profile of every experiment
(no training): compared the same way, it shows that no committed run lost its key.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

SEQ2SEQ_EXPERIMENTS = ("scan", "scan_translation", "pcfgset", "orchard", "dbca", "card")
# measured, not trained: left out of the comparison
TIMING_KEYS = {"train_seconds", "seconds", "evaluation_seconds", "pairs_per_second",
               "seconds_to_fit", "wall_time_seconds", "train_time", "time"}


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def capture(out: Path, profile: str, count: int) -> None:
    os.environ["TUTORLIB_CACHE_DIR"] = tempfile.mkdtemp(prefix="identity-cache-")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tutorlib import profiles, results

    records = {}
    for name in SEQ2SEQ_EXPERIMENTS:
        experiment = results.experiment(name)
        pairs = experiment.runs(profiles.settings(name, profile))[:count]
        for index, (run_settings, seed) in enumerate(pairs):
            start = time.perf_counter()
            record = results.execute_run(name, run_settings, seed, "cpu", threads=1)["result"]
            records[f"{name}/{index}"] = {"settings": run_settings, "seed": seed,
                                          "record": _strip(record)}
            print(f"{name} run {index}: {time.perf_counter() - start:.1f} s", flush=True)
    out.write_text(json.dumps(records, indent=1, sort_keys=True, default=str))


def keys(out: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tutorlib import profiles, results

    found = {}
    for name in profiles.RUNNABLE:
        spec = results.experiment(name)
        for profile in (*profiles.PROFILES, *profiles.EXTRA_PROFILES):
            if profiles.has_profile(name, profile):
                pairs = spec.runs(profiles.settings(name, profile))
                found[f"{name}/{profile}"] = {"settings": None, "seed": None, "record": sorted(
                    results.run_key(name, s, seed) for s, seed in pairs)}
    out.write_text(json.dumps(found, indent=1, sort_keys=True))
    print(f"{sum(len(v['record']) for v in found.values())} run keys of {len(found)} profiles")


def compare(before: Path, after: Path) -> int:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    differing = 0
    for key in sorted(set(a) | set(b)):
        if a.get(key) == b.get(key):
            print(f"{key}: identical")
            continue
        differing += 1
        if key not in a or key not in b:
            print(f"{key}: only in {'after' if key in b else 'before'}")
            continue
        fields = sorted(k for k in set(a[key]["record"]) | set(b[key]["record"])
                        if a[key]["record"].get(k) != b[key]["record"].get(k))
        settings = "settings differ; " if a[key]["settings"] != b[key]["settings"] else ""
        print(f"{key}: DIFFERS ({settings}fields: {', '.join(fields)})")
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--count", type=int, default=2)
    parser.add_argument("--compare", nargs=2, type=Path)
    parser.add_argument("--keys", type=Path, help="write every profile's run keys here")
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.keys:
        keys(args.keys)
        return 0
    if args.out is None:
        parser.error("--out or --compare")
    capture(args.out, args.profile, args.count)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
