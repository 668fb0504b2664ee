"""Training throughput on SCAN: batched trainer against one example at a time (the paper's setting).

Same model (the overall-best LSTM, 2 x 200, dropout 0.5), same split (simple), same code path
(:func:`tutorlib.seq2seq.fit` with :meth:`~tutorlib.seq2seq.Recipe.fixed`'s recipe); only the
batch size differs. Prints presentations per second of training for both (the trainer's own
count: the pairs' encoding is not timed) and their ratio, and with ``--full`` also the wall time
of one complete run of ``--presentations`` presentations.

    .venv/bin/python benchmarks/scan_throughput.py [--threads 2] [--full] [--presentations N]
"""

from __future__ import annotations

import argparse
import time

import torch

from tutorlib import scan
from tutorlib import seq2seq as s2s
from tutorlib.scan.experiments import ARCHITECTURES, vocabularies


def throughput(train, batch_size: int, presentations: int, seed: int = 0) -> float:
    """Presentations per second of training (Lake & Baroni's settings at ``batch_size``)."""
    source_vocab, target_vocab = vocabularies()
    torch.manual_seed(seed)
    model = s2s.build_model(ARCHITECTURES["overall_best"], len(source_vocab), len(target_vocab))
    recipe = s2s.Recipe.fixed(presentations, batch_size, 1e-3)
    log = s2s.fit(model, train, source_vocab, target_vocab, recipe, seed=seed,
                  desc=f"batch {batch_size}")
    return log.pairs_per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=torch.get_num_threads())
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--sample", type=int, default=1_500,
                        help="presentations timed for each setting (default 1,500)")
    parser.add_argument("--full", action="store_true", help="also time one complete run")
    parser.add_argument("--presentations", type=int, default=100_000)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    train, _ = scan.split("simple")

    single = throughput(train, 1, args.sample)
    batched = throughput(train, args.batch_size, args.sample * 4)
    print(f"threads: {args.threads}")
    print(f"one example at a time: {single:8.1f} presentations/s")
    print(f"batches of {args.batch_size:<3}:          {batched:8.1f} presentations/s")
    print(f"ratio: {batched / single:.1f}x")
    if args.full:
        start = time.perf_counter()
        throughput(train, args.batch_size, args.presentations)
        minutes = (time.perf_counter() - start) / 60
        print(f"one full run of {args.presentations:,} presentations in batches of "
              f"{args.batch_size}: {minutes:.1f} min")


if __name__ == "__main__":
    main()
