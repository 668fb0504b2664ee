"""MCD splitter speed: incremental count vectors against rebuilding both distributions.

The same 1,000 SCAN commands (a seeded random subset of the 20,910), the same sizes (40% train,
5% test, as in the released SCAN MCD splits), the same seed and search; only the scoring of a
candidate differs. The baseline scores each candidate at each step by summing the count vectors
of every member of train and test afresh and computing both divergences from the two
distributions, as the public re-implementation dbca-splitter does; tutorlib keeps the counts and
each sample's change of the Chernoff sums up to date. Prints both times, their ratio, and the
time of an MCD split of the full pool (20,910 commands: train 8,365, test 1,045), building the
pool included. Both splits must be identical.

    .venv/bin/python benchmarks/dbca_splitter.py [--n 1000] [--seed 0] [--no-full]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tutorlib import dbca, scan
from tutorlib.dbca.reference import rebuild_split
from tutorlib.dbca.scan_splits import MCD_TEST_SIZE, MCD_TRAIN_SIZE
from tutorlib.scan.rules import rule_tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000, help="size of the pool (default 1,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-full", action="store_true", help="skip the full-pool split")
    args = parser.parse_args()

    derivations = scan.derivations()
    chosen = np.sort(np.random.default_rng(args.seed).choice(len(derivations), args.n,
                                                             replace=False))
    pool = dbca.build_pool([rule_tree(derivations[i]) for i in chosen])
    train_size, test_size = round(0.4 * args.n), round(0.05 * args.n)
    options = dict(seed=args.seed, progress=False)

    times, results = {}, {}
    for name, method in (("rebuild", rebuild_split), ("incremental", dbca.mcd_split)):
        start = time.perf_counter()
        results[name] = method(pool, train_size, test_size, **options)
        times[name] = time.perf_counter() - start
    same = all(np.array_equal(a, b) for a, b in zip(results["rebuild"], results["incremental"],
                                                     strict=True))
    print(f"{args.n:,} SCAN commands, train {train_size:,} / test {test_size:,}, seed {args.seed}, "
          f"all candidates every step ({results['incremental'].steps:,} steps)")
    for name, label in (("rebuild", "rebuild both distributions:"),
                        ("incremental", "incremental (tutorlib):    ")):
        r = results[name]
        print(f"{label} {times[name]:8.2f} s   D_A {r.atom_divergence:.4f}  "
              f"D_C {r.compound_divergence:.4f}")
    print(f"ratio: {times['rebuild'] / times['incremental']:.0f}x   same split: {same}")
    if not same:
        raise SystemExit("the two searches gave different splits")

    if not args.no_full:
        start = time.perf_counter()
        full = dbca.build_pool([rule_tree(t) for t in derivations])
        built = time.perf_counter() - start
        result = dbca.mcd_split(full, MCD_TRAIN_SIZE, MCD_TEST_SIZE, **options)
        total = time.perf_counter() - start
        print(f"full SCAN pool ({len(full):,} commands, {len(full.compounds):,} compounds): "
              f"{total:.1f} s ({built:.1f} s building the pool)")
        print(f"  {result.summary()}")


if __name__ == "__main__":
    main()
