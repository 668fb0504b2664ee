"""Topographic similarity with edit distance: the pure-Python Levenshtein against rapidfuzz's.

Both compute the same ranking (checked here); the ratio is the time of the Python distance over
the compiled one, for every pair of N random messages (the shape of the TRE chapter's languages:
length 4 over 16 symbols) and for the whole topographic similarity.

    .venv/bin/python benchmarks/edit_distance.py --messages 1000
"""

import argparse
import itertools
import time

import numpy as np

from tutorlib import stats
from tutorlib.tre.measures import topographic_similarity


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1000)
    args = parser.parse_args()
    if stats._rapid_levenshtein is None:
        raise SystemExit("rapidfuzz is not installed: pip install rapidfuzz (the `fast` extra)")
    rng = np.random.default_rng(0)
    messages = [rng.integers(0, 16, 4).tolist() for _ in range(args.messages)]
    meanings = rng.integers(0, 5, (args.messages, 2))
    pairs = list(itertools.combinations(messages, 2))

    start = time.perf_counter()
    slow = [stats.levenshtein_python(a, b) for a, b in pairs]
    python_seconds = time.perf_counter() - start
    start = time.perf_counter()
    fast = [stats.levenshtein(a, b) for a, b in pairs]
    rapid_seconds = time.perf_counter() - start
    assert slow == fast
    print(f"{len(pairs):,} pairs: Python {python_seconds:.2f} s "
          f"({1e6 * python_seconds / len(pairs):.1f} us a pair), rapidfuzz {rapid_seconds:.2f} s "
          f"({1e6 * rapid_seconds / len(pairs):.1f} us): {python_seconds / rapid_seconds:.1f}x")

    start = time.perf_counter()
    with_rapid = topographic_similarity(meanings, messages, "hamming", "edit")
    rapid_total = time.perf_counter() - start
    saved, stats._rapid_levenshtein = stats._rapid_levenshtein, None
    try:
        start = time.perf_counter()
        with_python = topographic_similarity(meanings, messages, "hamming", "edit")
        python_total = time.perf_counter() - start
    finally:
        stats._rapid_levenshtein = saved
    assert with_rapid == with_python
    print(f"topographic similarity of {args.messages:,} messages: Python {python_total:.2f} s, "
          f"rapidfuzz {rapid_total:.2f} s: {python_total / rapid_total:.1f}x (same value, "
          f"{with_rapid:.4f})")


if __name__ == "__main__":
    main()
