"""ORCHARD generation speed: trees drawn conditioned on depth against the release's rejection.

The release's ``generate_tree.py`` draws pairs of trees and throws away those whose depths it
does not want (for the training set, depths 3-6 with each depth's count capped at a quarter of
the set, so the rare depths decide how long it takes; for test bin ``d``, both trees of depth
exactly ``d``). ``tutorlib.orchard`` draws each tree directly conditioned on its depth. The
baseline here is rejection sampling with *the same tree-drawing code* (tutorlib's sampler run
unconditioned), so the ratio measures the method, not the implementation.

Prints: the time to generate the paper's 500,000-example training set (hard variant, depths 3-6
balanced) and to write it in the release's layout, the same per example for rejection on a
sample, and the time per example and per token for each test bin 3 ... 12.

    .venv/bin/python benchmarks/orchard_generation.py [--train 500000] [--variant minmax_hard]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter

from tutorlib import orchard
from tutorlib.orchard.generator import _Sampler


def _depth(tokens: list[str]) -> int:
    """A tree's depth from its tokens: the deepest digit or COPY, counted in open brackets."""
    deepest = level = 0
    skip = 0
    for token in tokens:
        if skip:
            skip -= 1
        elif token == "[COPY":
            deepest = max(deepest, level)
            skip = 2
        elif token[0] == "[":
            level += 1
        elif token == "]":
            level -= 1
        else:
            deepest = max(deepest, level)
    return deepest


def rejection(num_examples: int, variant_name: str, min_depth: int, max_depth: int,
              seed: int = 0) -> tuple[list[tuple[str, str]], int]:
    """The release's procedure: draw unconditioned pairs with depth limit ``max_depth``, keep a
    pair when both depths are wanted and (for a range of depths) neither depth's quota is full.
    Returns the pairs and how many were drawn."""
    spec = orchard.variant(variant_name)
    sampler = _Sampler(spec.operators, spec.copy_prob, max_depth, random.Random(seed))
    quota = num_examples // (max_depth - min_depth + 1) + 1  # the release's bin_size
    first_counts: Counter = Counter()
    second_counts: Counter = Counter()
    out, drawn = [], 0
    while len(out) < num_examples:
        drawn += 1
        sampler.tokens, sampler.levels = [], [[] for _ in range(max_depth + 1)]
        v1 = sampler._operator(0, max_depth, False)  # unconditioned: "ends by max_depth"
        first = sampler.tokens
        sampler.reference = [v for level in sampler.levels for v in level]
        sampler.tokens, sampler.levels = [], None
        v2 = sampler._operator(0, max_depth, False)
        d1, d2 = _depth(first), _depth(sampler.tokens)
        if not (min_depth <= d1 <= max_depth and min_depth <= d2 <= max_depth):
            continue
        if min_depth < max_depth:
            if first_counts[d1] == quota or second_counts[d2] == quota:
                continue
            first_counts[d1] += 1
            second_counts[d2] += 1
        out.append((" ".join(first) + " X " + " ".join(sampler.tokens), f"{v1},{v2}"))
    return out, drawn


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=500_000, help="training examples (500,000)")
    parser.add_argument("--variant", default="minmax_hard", choices=orchard.variant_names())
    parser.add_argument("--baseline-train", type=int, default=20_000,
                        help="training examples drawn by rejection (default 20,000)")
    parser.add_argument("--per-bin", type=int, default=4_000,
                        help="examples per test bin for tutorlib (rejection: a quarter)")
    args = parser.parse_args()
    spec = orchard.variant(args.variant)
    options = {"operators": spec.operators, "copy_prob": spec.copy_prob}

    pairs, conditioned = timed(orchard.generate, args.train, min_depth=3, max_depth=6, seed=0,
                               **options)
    with tempfile.TemporaryDirectory() as directory:
        _, written = timed(orchard.write_part, directory, "train", pairs)
    lengths = orchard.input_lengths(pairs)
    print(f"{args.variant}, training set of {args.train:,} examples (depths 3-6 balanced), one "
          f"process:")
    print(f"  conditioned on depth (tutorlib): {conditioned:6.1f} s generate + {written:.1f} s "
          f"write   ({1e6 * conditioned / args.train:.1f} us/example, mean input "
          f"{lengths.mean():.0f} tokens)")
    (sample, drawn), rejected = timed(rejection, args.baseline_train, args.variant, 3, 6)
    per_example = rejected / args.baseline_train
    print(f"  rejection as the release does:   {per_example * args.train:6.1f} s (extrapolated "
          f"from {args.baseline_train:,}: {1e6 * per_example:.1f} us/example, "
          f"{drawn / args.baseline_train:.1f} pairs drawn per pair kept)")
    print(f"  ratio: {per_example * args.train / conditioned:.1f}x")
    assert statistics.mean(len(line.split()) for line, _ in sample) > 0

    print("\nTest bins (both trees of depth exactly d), per example:")
    print("   d   tokens (mean / max)   tutorlib us   us/token   rejection us   pairs drawn"
          "   ratio")
    for d in orchard.TEST_DEPTHS:
        bin_pairs, seconds = timed(orchard.generate, args.per_bin, min_depth=d, max_depth=d,
                                   seed=d, **options)
        tokens = orchard.input_lengths(bin_pairs)
        (_, drawn), baseline = timed(rejection, args.per_bin // 4, args.variant, d, d, seed=d)
        ours, theirs = 1e6 * seconds / args.per_bin, 1e6 * baseline / (args.per_bin // 4)
        print(f"  {d:2d}   {tokens.mean():6.1f} / {tokens.max():4d}   {ours:11.1f}   "
              f"{ours / tokens.mean():8.3f}   {theirs:12.1f}   {drawn / (args.per_bin // 4):11.1f}"
              f"   {theirs / ours:5.1f}x")


if __name__ == "__main__":
    main()
