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
    with pytest.raises(ValueError, match="non-negative integer"):
        train.seed_everything(1.5)


def test_early_stopping_hand_checked():
    stopper = train.EarlyStopping(patience=2, mode="min", min_delta=0.01)
    decisions = [stopper.update(loss) for loss in [1.0, 0.5, 0.495, 0.6, 0.4, 0.41, 0.42]]
    # 0.495 is not an improvement of more than 0.01; 0.6 is the second miss -> stop
    assert decisions == [False, False, False, True, False, False, True]
    assert (stopper.best, stopper.best_step) == (0.4, 4)
    with pytest.raises(ValueError, match="finite"):
        stopper.update(float("nan"))
    with pytest.raises(ValueError, match="mode"):
        train.EarlyStopping(patience=1, mode="up")
    with pytest.raises(ValueError, match="patience"):
        train.EarlyStopping(patience=0)


def _problem():
    """A linear regression the model can fit, with batches drawn from a per-step seed."""
    torch.manual_seed(0)
    true_w = torch.tensor([[2.0], [-1.0]])
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)

    def loss_on_batch(step):
        g = torch.Generator().manual_seed(step)
        x = torch.randn(32, 2, generator=g)
        # dropout-like randomness from the global RNG, so resuming must restore it
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


def test_resuming_from_a_checkpoint_equals_an_uninterrupted_run(tmp_path):
    model, optimizer, loss_on_batch, evaluate = _problem()
    train.fit(model, optimizer, loss_on_batch, num_steps=120, evaluate=evaluate, eval_every=40)
    uninterrupted = model.weight.detach().clone()

    model, optimizer, loss_on_batch, evaluate = _problem()
    checkpoint = tmp_path / "ckpt.pt"
    train.fit(model, optimizer, loss_on_batch, num_steps=80, evaluate=evaluate, eval_every=40,
              checkpoint=checkpoint)
    # a new process would build a fresh model and optimiser, then resume
    model, optimizer, loss_on_batch, evaluate = _problem()
    torch.manual_seed(1234)  # a different global RNG state, which the checkpoint must restore
    log = train.fit(model, optimizer, loss_on_batch, num_steps=120, evaluate=evaluate,
                    eval_every=40, checkpoint=checkpoint)
    assert log.resumed_from == 80
    assert log.steps_done == 120 and len(log.losses) == 120
    assert torch.equal(model.weight.detach(), uninterrupted)


def test_early_stopping_ends_training_and_is_remembered(tmp_path):
    model, optimizer, _, _ = _problem()
    scores = iter([0.1, 0.2, 0.2, 0.2, 0.9])
    log = train.fit(model, optimizer, lambda step: model(torch.ones(1, 2)).sum() ** 2,
                    num_steps=100, evaluate=lambda: next(scores), eval_every=10,
                    stopper=train.EarlyStopping(patience=2), checkpoint=tmp_path / "c.pt")
    assert log.stopped_early and log.steps_done == 40
    again = train.fit(model, optimizer, lambda step: model(torch.ones(1, 2)).sum() ** 2,
                      num_steps=100, evaluate=lambda: 1.0, eval_every=10,
                      stopper=train.EarlyStopping(patience=2), checkpoint=tmp_path / "c.pt")
    assert again.stopped_early and again.steps_done == 40


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
    with pytest.raises(ValueError, match="evaluate"):
        train.fit(model, optimizer, loss_on_batch, num_steps=1,
                  stopper=train.EarlyStopping(patience=1))
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        train.load_checkpoint("/nonexistent/ckpt.pt", model=model)
