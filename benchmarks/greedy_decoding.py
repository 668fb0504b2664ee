"""Greedy decoding speed of the Transformer and ConvS2S: one position a step (each layer's
earlier inputs kept) against re-running the decoder on the whole prefix at every step.

The same untrained network (an untrained or unfitted network rarely emits EOS, so decoding runs
to ``max_length``, as on the report card's PCFG SET tasks, where ``max_length`` is 458), the
same 300 sources; the baseline is the loop ``greedy`` ran before: ``_decode`` on the prefix,
keeping the last position's logits. Prints both times, their ratio, and checks that both give
the same outputs.

    .venv/bin/python benchmarks/greedy_decoding.py [--length 458] [--batch 300]
"""

from __future__ import annotations

import argparse
import time

import torch

from tutorlib import seq2seq as s2s
from tutorlib.seq2seq.layers import greedy_loop
from tutorlib.seq2seq.vocab import SOS

NETWORKS = {
    "transformer (sinusoidal, pre-LN)": s2s.Seq2SeqConfig(
        "transformer", 64, 2, 0.0, num_heads=4, positions="sinusoidal", norm_first=True),
    "transformer (relative, pre-LN)": s2s.Seq2SeqConfig(
        "transformer", 64, 2, 0.0, num_heads=4, positions="relative", norm_first=True),
    "convs2s": s2s.Seq2SeqConfig("conv", 64, 4, 0.0, positions="sinusoidal"),
}


@torch.no_grad()
def whole_prefix(model, source, lengths, max_length):
    """The baseline: the decoder re-reads the whole prefix at every step."""
    encoded = model.encode(source, lengths)
    prefix = torch.full((source.shape[0], 1), SOS, dtype=torch.long)

    def step(tokens, state):
        state = torch.cat([state, tokens.unsqueeze(1)], dim=1) if state is not None else prefix
        return model._decode(*encoded, state)[:, -1], state

    return greedy_loop(step, prefix[:, 0], None, max_length)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=458, help="max_length (default 458)")
    parser.add_argument("--batch", type=int, default=300, help="sources (default 300)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    generator = torch.Generator().manual_seed(0)
    sources = [torch.randint(3, 40, (int(n),), generator=generator).tolist()
               for n in torch.randint(5, 60, (args.batch,), generator=generator)]
    source, lengths = s2s.pad_batch(sources)
    print(f"{args.batch} sources, max_length {args.length}, one thread")
    for name, config in NETWORKS.items():
        torch.manual_seed(0)
        model = s2s.build_model(config, 40, 40).eval()
        times, outputs = {}, {}
        for method, run in (("whole prefix", whole_prefix),
                            ("one position", type(model).greedy)):
            start = time.perf_counter()
            outputs[method] = run(model, source, lengths, args.length)
            times[method] = time.perf_counter() - start
        same = torch.equal(outputs["whole prefix"], outputs["one position"])
        print(f"{name:34s} whole prefix {times['whole prefix']:7.1f} s  one position "
              f"{times['one position']:6.1f} s  ratio {times['whole prefix'] / times['one position']:5.1f}"
              f"  outputs {'identical' if same else 'DIFFER'} ({outputs['one position'].shape[1]} steps)")


if __name__ == "__main__":
    main()
