"""TRE solver speed: level-by-level batched evaluation against per-example recursion.

The same 1,000 derivations (pairs of coloured shapes, like the reference game's referents), the
same one-hot messages with noise, the same optimiser, initialisation and number of steps; only
the evaluation of the derivations differs. The recursive solver evaluates one derivation at a
time with one Python call per node per step, as a direct implementation of Eq. 1 does. Prints
both times, their ratio, and the relative difference of the two TRE values (they must agree to
1e-4).

    .venv/bin/python benchmarks/tre_speed.py [--steps 50] [--composition linear]
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
import torch

from tutorlib.tre import tre

COLOURS = [f"colour{i}" for i in range(6)]
SHAPES = [f"shape{i}" for i in range(6)]


def problem(n: int = 1_000, vocabulary: int = 16, seed: int = 0):
    """n derivations ((colour, shape), (colour, shape)) and noisy 4-symbol one-hot messages."""
    rng = np.random.default_rng(seed)
    objects = list(itertools.product(range(len(COLOURS)), range(len(SHAPES))))
    pairs = list(itertools.product(objects, objects))
    chosen = rng.choice(len(pairs), size=n, replace=False)
    derivations, messages = [], np.zeros((n, 4, vocabulary))
    for row, k in enumerate(chosen):
        (c1, s1), (c2, s2) = pairs[k]
        derivations.append(((COLOURS[c1], SHAPES[s1]), (COLOURS[c2], SHAPES[s2])))
        messages[row, np.arange(4), [c1, 8 + s1, c2, 8 + s2]] = 1.0
    return messages + rng.normal(scale=0.1, size=messages.shape), derivations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--n", type=int, default=1_000)
    parser.add_argument("--composition", default="linear", choices=["additive", "linear"])
    parser.add_argument("--distance", default="l1", choices=["cosine", "l1", "l2"])
    args = parser.parse_args()
    messages, derivations = problem(args.n)
    options = dict(composition=args.composition, distance=args.distance, steps=args.steps,
                   dtype=torch.float64, progress=True)

    times, values = {}, {}
    for solver in ("recursive", "batched"):
        start = time.perf_counter()
        values[solver] = tre(messages, derivations, solver=solver, **options).value
        times[solver] = time.perf_counter() - start

    difference = abs(values["batched"] - values["recursive"]) / abs(values["recursive"])
    print(f"{args.n:,} derivations, {args.composition} composition, {args.distance} distance, "
          f"{args.steps} Adam steps (float64, one thread)")
    print(f"recursive (one call per node):  {times['recursive']:8.2f} s   TRE {values['recursive']:.6f}")
    print(f"batched (level by level):       {times['batched']:8.2f} s   TRE {values['batched']:.6f}")
    print(f"ratio: {times['recursive'] / times['batched']:.0f}x   "
          f"relative difference of TRE: {difference:.1e}")
    if difference > 1e-4:
        raise SystemExit("the two solvers disagree by more than 1e-4 (relative)")


if __name__ == "__main__":
    main()
