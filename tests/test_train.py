import random

import numpy as np
import pytest
import torch

from tutorlib import train


def test_seed_everything_reproduces_all_generators():
    def draw():
        return random.random(), np.random.rand(), torch.rand(1).item()

    train.seed_everything(3)
    first = draw()
    train.seed_everything(3)
    assert draw() == first
    with pytest.raises(ValueError, match="non-negative integer"):
        train.seed_everything(-1)
    with pytest.raises(ValueError, match="seed=1.5 violates type hint"):
        train.seed_everything(1.5)


def _problem():
    """A linear regression the model can fit, with batches drawn from a per-step seed."""
    torch.manual_seed(0)
    true_w = torch.tensor([[2.0], [-1.0]])
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)

    def loss_on_batch(step):
        g = torch.Generator().manual_seed(step)
        x = torch.randn(32, 2, generator=g)
        noise = 0.01 * torch.randn(32, 1)
        return torch.nn.functional.mse_loss(model(x), x @ true_w + noise)

    def evaluate():
        return -float((model.weight - true_w.T).abs().sum())

    return model, optimizer, loss_on_batch, evaluate


def test_fit_learns_and_logs():
    model, optimizer, loss_on_batch, evaluate = _problem()
    log = train.fit(model, optimizer, loss_on_batch, num_steps=300, evaluate=evaluate,
                    eval_every=100, clip_norm=5.0)
    assert log.steps_done == 300 and len(log.losses) == 300
    assert [step for step, _ in log.evaluations] == [100, 200, 300]
    assert log.losses[-1] < 0.01 < log.losses[0]


def test_the_stopping_rule_ends_training_at_the_evaluation_that_asks():
    model, optimizer, _, _ = _problem()
    scores = iter([0.1, 0.2, 0.2, 0.2, 0.9])
    seen = []

    def stop(score):  # stop after two evaluations without improvement
        seen.append(score)
        return len(seen) >= 3 and seen[-1] <= max(seen[:-2])

    log = train.fit(model, optimizer, lambda step: model(torch.ones(1, 2)).sum() ** 2,
                    num_steps=100, evaluate=lambda: next(scores), eval_every=10, stop=stop)
    assert log.stopped_early and log.steps_done == 40
    assert [step for step, _ in log.evaluations] == [10, 20, 30, 40]
    assert seen == [0.1, 0.2, 0.2, 0.2]


def test_non_finite_loss_is_reported_with_its_step():
    model, optimizer, _, _ = _problem()
    with pytest.raises(FloatingPointError, match="step 3"):
        train.fit(model, optimizer,
                  lambda step: model(torch.ones(1, 2)).sum() * (float("inf") if step == 3 else 1),
                  num_steps=10)


def test_bad_arguments_are_named():
    model, optimizer, loss_on_batch, _ = _problem()
    with pytest.raises(ValueError, match="num_steps"):
        train.fit(model, optimizer, loss_on_batch, num_steps=-1)
    with pytest.raises(ValueError, match="eval_every"):
        train.fit(model, optimizer, loss_on_batch, num_steps=1, eval_every=0)
    with pytest.raises(ValueError, match="evaluate"):
        train.fit(model, optimizer, loss_on_batch, num_steps=1, stop=lambda score: True)
