"""Can several seeds of the paper's one-example-at-a-time training share one computation?

The paper trains Lake & Baroni's overall-best network (LSTM 2 x 200, dropout 0.5, no attention)
one example per update; on a CPU core that is about 40 presentations a second, so five seeds of a
split cost five times one. Issue 18 asks whether stacking independent models into one
computation (each model still sees one example an update) makes per-example training cheaper.

This script times, on the same SCAN commands, one thread:

- baseline: tutorlib's trainer (:func:`tutorlib.seq2seq.fit`, Lake & Baroni's fixed-presentation
  recipe) at batch size 1 (the full profile's per-example runs), one model;
- stacked: M copies of the same network written as batched matrix products over a leading model
  dimension (``torch.bmm``), each copy fed its own command, with teacher forcing, dropout, the
  loss, per-model gradient clipping and one Adam over the stacked parameters (Adam is
  elementwise, so that is M independent Adams). It is a timing model, not a trainer: it shows
  what the stacked computation costs, which is all the question needs.

It prints presentations per second for each and the ratio (stacked against M baseline runs).
On a CPU the products are matrix-vector ones whatever M is: every model's weights are read for
one example, so the work grows with M and the ratio stays near 1. A GPU, where one small product
costs the same as M of them, is where stacking pays.

    .venv/bin/python benchmarks/scan_ensemble.py [--models 1 5 15] [--steps 200]
"""

from __future__ import annotations

import argparse
import time

import torch
import torch.nn.functional as F

from tutorlib import scan
from tutorlib import seq2seq as s2s
from tutorlib.scan.experiments import ARCHITECTURES, vocabularies


class StackedLSTM:
    """M encoder-decoder LSTMs (the overall-best network's sizes) as one computation."""

    def __init__(self, models: int, hidden: int, layers: int, source_size: int,
                 target_size: int, dropout: float):
        bound = hidden ** -0.5

        def uniform(*shape):
            return torch.empty(models, *shape).uniform_(-bound, bound).requires_grad_()

        self.models, self.hidden, self.layers, self.dropout = models, hidden, layers, dropout
        self.params = {"source": torch.randn(models, source_size, hidden).requires_grad_(),
                       "target": torch.randn(models, target_size, hidden).requires_grad_(),
                       "out_w": uniform(hidden, target_size), "out_b": uniform(1, target_size)}
        for part in ("enc", "dec"):
            for layer in range(layers):
                self.params[f"{part}{layer}_ih"] = uniform(hidden, 4 * hidden)
                self.params[f"{part}{layer}_hh"] = uniform(hidden, 4 * hidden)
                self.params[f"{part}{layer}_b"] = uniform(1, 4 * hidden)

    def _layers(self, part: str, x, h, c, keep):
        for layer in range(self.layers):
            p = self.params
            gates = torch.baddbmm(p[f"{part}{layer}_b"], x, p[f"{part}{layer}_ih"]) \
                + torch.bmm(h[layer], p[f"{part}{layer}_hh"])
            i, f, g, o = gates.chunk(4, -1)
            new_c = torch.sigmoid(f) * c[layer] + torch.sigmoid(i) * torch.tanh(g)
            new_h = torch.sigmoid(o) * torch.tanh(new_c)
            # a model whose command has ended keeps its state (padding does not change it)
            h[layer] = torch.where(keep, new_h, h[layer])
            c[layer] = torch.where(keep, new_c, c[layer])
            x = F.dropout(h[layer], self.dropout, True) if layer + 1 < self.layers else h[layer]
        return x

    def loss(self, source, source_len, target_in, target_out, forced):
        """source (M, S), target_in/out (M, T) padded with PAD; forced (M,) teacher-forcing coins."""
        m = torch.arange(self.models)
        zeros = torch.zeros(self.models, 1, self.hidden)
        h, c = [zeros] * self.layers, [zeros] * self.layers
        for t in range(source.shape[1]):
            x = F.dropout(self.params["source"][m, source[:, t]].unsqueeze(1), self.dropout, True)
            self._layers("enc", x, h, c, (t < source_len).view(-1, 1, 1))
        tokens, logits = target_in[:, 0], []
        always = torch.ones(self.models, 1, 1, dtype=torch.bool)
        for t in range(target_in.shape[1]):
            x = F.dropout(self.params["target"][m, tokens].unsqueeze(1), self.dropout, True)
            out = self._layers("dec", x, h, c, always)
            step = torch.baddbmm(self.params["out_b"], out, self.params["out_w"]).squeeze(1)
            logits.append(step)
            if t + 1 < target_in.shape[1]:
                tokens = torch.where(forced, target_in[:, t + 1], step.argmax(-1))
        logits = torch.stack(logits, 1)
        per_token = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target_out.reshape(-1),
                                    ignore_index=s2s.PAD, reduction="none")
        return per_token.view(self.models, -1).sum(1) / (target_out != s2s.PAD).sum(1)

    def clip(self, max_norm: float = 1.0) -> None:
        """Clip each model's gradient to ``max_norm`` on its own."""
        grads = [p.grad for p in self.params.values()]
        norms = torch.stack([g.pow(2).flatten(1).sum(1) for g in grads]).sum(0).sqrt()
        scale = (max_norm / (norms + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(scale.view(-1, *[1] * (g.dim() - 1)))


def baseline(train, steps: int) -> float:
    """Presentations per second of tutorlib's trainer at batch size 1 (one model), counted in
    training time (the trainer's own clock: encoding the pairs is not timed)."""
    source_vocab, target_vocab = vocabularies()
    for presentations in (5, steps):  # the first, short run only warms up
        torch.manual_seed(0)
        model = s2s.build_model(ARCHITECTURES["overall_best"], len(source_vocab),
                                len(target_vocab))
        recipe = s2s.Recipe.fixed(presentations, batch_size=1, learning_rate=1e-3)
        log = s2s.fit(model, train, source_vocab, target_vocab, recipe, seed=0, desc="batch 1")
    return log.pairs_per_second


def stacked(data, models: int, steps: int) -> float:
    """Presentations per second of ``models`` stacked copies, one command each an update."""
    config = ARCHITECTURES["overall_best"]
    source_vocab, target_vocab = vocabularies()
    torch.manual_seed(0)
    net = StackedLSTM(models, config.hidden_size, config.num_layers, len(source_vocab),
                      len(target_vocab), config.dropout)
    optimizer = torch.optim.Adam(net.params.values(), lr=1e-3)
    generator = torch.Generator().manual_seed(0)
    warmup = 5
    for step in range(warmup + steps):
        if step == warmup:
            start = time.perf_counter()
        index = torch.randint(len(data), (models,), generator=generator)
        source_len = data.source_lengths[index]
        source = data.source[index, : int(source_len.max())]
        target = data.target[index, : int(data.target_lengths[index].max())]
        target_in = torch.cat([torch.full((models, 1), s2s.SOS), target[:, :-1]], 1)
        forced = torch.rand(models, generator=generator) < 0.5
        loss = net.loss(source, source_len.view(-1, 1, 1), target_in, target, forced)
        optimizer.zero_grad()
        loss.sum().backward()  # the models share no parameter: each gets its own gradient
        net.clip()
        optimizer.step()
    return models * steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, nargs="+", default=[1, 5, 15])
    parser.add_argument("--steps", type=int, default=200, help="updates timed for each setting")
    parser.add_argument("--split", default="addprim_turn_left")
    args = parser.parse_args()
    torch.set_num_threads(1)
    source_vocab, target_vocab = vocabularies()
    train, _ = scan.split(args.split)
    data = s2s.encode_pairs(train, source_vocab, target_vocab)
    one = baseline(train, args.steps)
    print(f"{args.split}, one thread, {args.steps} updates per setting")
    print(f"tutorlib, batch size 1, one model: {one:7.1f} presentations/s")
    for models in args.models:
        rate = stacked(data, models, args.steps)
        print(f"stacked, {models:>2} models:              {rate:7.1f} presentations/s "
              f"({rate / one:.2f}x the one-model rate)")


if __name__ == "__main__":
    main()
