"""Training throughput of every seq2seq architecture, against the LSTM baseline in the same run.

The task is fixed and synthetic, of about SCAN's size and lengths: sources of 3-9 tokens over
20 symbols, targets the source reversed and then repeated (6-18 tokens), 2,000 pairs, seed 0.
Each architecture trains with :func:`tutorlib.seq2seq.fit` and a fixed number of presentations
(:meth:`tutorlib.seq2seq.Recipe.fixed`: Adam, teacher forcing on half the batches) from the same
seed; pairs per second is the trainer's, presentations over training time (encoding the pairs is
not timed), after one untimed warm-up batch. The ratio is to the overall-best LSTM of Lake &
Baroni (2018).

Where CUDA is available, each architecture is also timed on the GPU at batch 32 and batch 1,
with the GPU-over-CPU ratio.

    .venv/bin/python benchmarks/seq2seq_throughput.py [--threads 1] [--sample 3200]
"""

from __future__ import annotations

import argparse
import random

import torch

from tutorlib import seq2seq as s2s
from tutorlib.seq2seq import Seq2SeqConfig

ARCHITECTURES = {
    # Lake & Baroni's overall-best: the baseline of every ratio
    "LSTM 2x200": Seq2SeqConfig("lstm", 200, 2, 0.5),
    # Hupkes et al.'s LSTMS2S and ORCHARD's LSTM, at the baseline's size
    "BiLSTM+attention 2x200": Seq2SeqConfig("lstm", 200, 2, 0.5, attention=True,
                                            bidirectional=True),
    "Transformer 2x128, 4 heads": Seq2SeqConfig("transformer", 128, 2, 0.1, num_heads=4,
                                                positions="sinusoidal"),
    "ConvS2S 4x128, kernel 3": Seq2SeqConfig("conv", 128, 4, 0.1, kernel_size=3),
}
SYMBOLS = [f"s{i}" for i in range(20)]


def synthetic_pairs(n: int = 2_000, seed: int = 0) -> list[tuple[str, str]]:
    """The fixed task: a source of 3-9 symbols; its target, the source reversed, twice."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        source = [rng.choice(SYMBOLS) for _ in range(rng.randint(3, 9))]
        pairs.append((" ".join(source), " ".join(source[::-1] * 2)))
    return pairs


def throughput(config: Seq2SeqConfig, pairs: list[tuple[str, str]], vocab: s2s.Vocabulary,
               batch_size: int, presentations: int, device: str = "cpu") -> float:
    """Pairs per second of training ``config`` for ``presentations`` (after a warm-up batch)."""
    torch.manual_seed(0)
    model = s2s.build_model(config, len(vocab), len(vocab), device=device)
    warm_up = s2s.Recipe.fixed(batch_size, batch_size, 1e-3)
    s2s.fit(model, pairs, vocab, vocab, warm_up, seed=1, device=device, desc="warm-up")
    recipe = s2s.Recipe.fixed(presentations, batch_size, 1e-3)
    # the trainer waits for the device before it reads its clock at the end
    log = s2s.fit(model, pairs, vocab, vocab, recipe, seed=0, device=device,
                  desc=f"batch {batch_size}")
    return log.pairs_per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=torch.get_num_threads())
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--sample", type=int, default=3_200,
                        help="presentations timed per architecture at --batch-size (default "
                             "3,200); a tenth of it at batch 1")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    vocab = s2s.Vocabulary(SYMBOLS)
    data = synthetic_pairs()
    print(f"threads: {args.threads}; torch {torch.__version__}; {len(data)} pairs; "
          f"batch {args.batch_size}; {args.sample} presentations each")

    cpu = {}
    print(f"{'architecture':<28}{'parameters':>12}{'pairs/s (CPU)':>16}{'vs LSTM':>10}")
    for name, config in ARCHITECTURES.items():
        parameters = sum(p.numel() for p in s2s.build_model(config, len(vocab), len(vocab))
                         .parameters())
        cpu[name] = throughput(config, data, vocab, args.batch_size, args.sample)
        baseline = cpu["LSTM 2x200"]
        print(f"{name:<28}{parameters:>12,}{cpu[name]:>16.1f}{cpu[name] / baseline:>9.2f}x")

    if not torch.cuda.is_available():
        print("CUDA: not available on this machine; no GPU comparison")
        return
    print(f"CUDA: {torch.cuda.get_device_name()}")
    print(f"{'architecture':<28}{'batch':>6}{'CPU pairs/s':>13}{'GPU pairs/s':>13}{'GPU/CPU':>9}")
    for name, config in ARCHITECTURES.items():
        for batch_size, presentations in [(32, args.sample), (1, max(1, args.sample // 10))]:
            on_cpu = (cpu[name] if batch_size == args.batch_size else
                      throughput(config, data, vocab, batch_size, presentations))
            on_gpu = throughput(config, data, vocab, batch_size, presentations, device="cuda")
            print(f"{name:<28}{batch_size:>6}{on_cpu:>13.1f}{on_gpu:>13.1f}"
                  f"{on_gpu / on_cpu:>8.2f}x")


if __name__ == "__main__":
    main()
