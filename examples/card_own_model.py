"""A PyTorch module of your own on the report card (tutorlib.card).

The module is a plain GRU encoder-decoder written here, with nothing from tutorlib; the class
``OwnModel`` around it meets the card's contract: ``fit`` trains it and returns its fit,
``predict`` decodes, ``states`` gives one vector per input (for the card's TRE). Run it as a
script to put it on two SCAN splits for a minute each:

    python examples/card_own_model.py
"""

from __future__ import annotations

import random
import time

import torch
from torch import nn

from tutorlib import card

PAD, START, END = 0, 1, 2


class GRUSeq2Seq(nn.Module):
    """Your own network: a GRU encoder, a GRU decoder started from its final state."""

    def __init__(self, source_size: int, target_size: int, hidden: int = 64):
        super().__init__()
        self.source_embedding = nn.Embedding(source_size, hidden, padding_idx=PAD)
        self.target_embedding = nn.Embedding(target_size, hidden, padding_idx=PAD)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.decoder = nn.GRU(hidden, hidden, batch_first=True)
        self.output = nn.Linear(hidden, target_size)

    def encode(self, source: torch.Tensor) -> torch.Tensor:
        lengths = (source != PAD).sum(1).cpu()
        packed = nn.utils.rnn.pack_padded_sequence(self.source_embedding(source), lengths,
                                                    batch_first=True, enforce_sorted=False)
        return self.encoder(packed)[1]  # (1, batch, hidden)

    def forward(self, source: torch.Tensor, target_in: torch.Tensor) -> torch.Tensor:
        out, _ = self.decoder(self.target_embedding(target_in), self.encode(source))
        return self.output(out)


def _pad(rows: list[list[int]]) -> torch.Tensor:
    width = max(len(row) for row in rows)
    return torch.tensor([row + [PAD] * (width - len(row)) for row in rows])


class OwnModel:
    """The card's contract around :class:`GRUSeq2Seq`."""

    def __init__(self, hidden: int = 64, batch_size: int = 32, learning_rate: float = 3e-3):
        self.hidden, self.batch_size, self.learning_rate = hidden, batch_size, learning_rate

    def fit(self, train, validation, *, seed, max_seconds, device="cpu"):
        torch.manual_seed(seed)
        words = sorted({w for s, _ in [*train, *validation] for w in s.split()})
        actions = sorted({a for _, t in train for a in t.split()})
        self.source_ids = {w: i + 1 for i, w in enumerate(words)}
        self.actions = ["<pad>", "<s>", "</s>", *actions]
        action_ids = {a: i for i, a in enumerate(self.actions)}
        self.max_length = 2 * max(len(t.split()) for _, t in train) + 2
        self.net = GRUSeq2Seq(len(words) + 1, len(self.actions), self.hidden).to(device)
        self.device = device
        optimiser = torch.optim.Adam(self.net.parameters(), lr=self.learning_rate)
        loss = nn.CrossEntropyLoss(ignore_index=PAD)
        order, rng, started = list(range(len(train))), random.Random(seed), time.perf_counter()
        while time.perf_counter() - started < max_seconds:
            rng.shuffle(order)
            for i in range(0, len(order), self.batch_size):
                batch = [train[j] for j in order[i:i + self.batch_size]]
                source = _pad([self._source(s) for s, _ in batch]).to(device)
                target = _pad([[START, *(action_ids[a] for a in t.split()), END]
                               for _, t in batch]).to(device)
                logits = self.net(source, target[:, :-1])
                optimiser.zero_grad()
                loss(logits.reshape(-1, logits.shape[-1]), target[:, 1:].reshape(-1)).backward()
                optimiser.step()
                if time.perf_counter() - started >= max_seconds:
                    break

        def accuracy(pairs):
            return card.exact_match(self.predict([s for s, _ in pairs]), pairs)

        return {"train_accuracy": accuracy(train), "validation_accuracy": accuracy(validation)}

    def _source(self, source: str) -> list[int]:
        return [self.source_ids.get(w, PAD) for w in source.split()] or [PAD]

    @torch.no_grad()
    def predict(self, sources):
        self.net.eval()
        source = _pad([self._source(s) for s in sources]).to(self.device)
        state = self.net.encode(source)
        token = torch.full((len(sources), 1), START, device=self.device)
        outputs, done = [], torch.zeros(len(sources), dtype=torch.bool, device=self.device)
        for _ in range(self.max_length):
            out, state = self.net.decoder(self.net.target_embedding(token), state)
            token = self.net.output(out).argmax(-1)
            outputs.append(token[:, 0])
            done |= token[:, 0] == END
            if bool(done.all()):
                break
        self.net.train()
        predictions = []
        for row in torch.stack(outputs, 1).tolist():
            row = row[:row.index(END)] if END in row else row
            predictions.append(" ".join(self.actions[i] for i in row if i > END))
        return predictions

    @torch.no_grad()
    def states(self, sources):
        source = _pad([self._source(s) for s in sources]).to(self.device)
        return self.net.encode(source)[0].cpu().numpy()


if __name__ == "__main__":
    rows = []
    for split in ("simple", "addprim_jump"):
        task = card.scan_task(split, train_size=5000, validation_size=200, test_size=500)
        rows += card.run_task(OwnModel, task, seed=0, max_seconds=60, model_name="my GRU")
    print(card.card_table(rows)[["task", "test", "score", "mean", "train fit",
                                 "validation fit", "fitted"]].round(3).to_string(index=False))
