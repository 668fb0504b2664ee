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


def test_linear_decay_refuses_a_schedule_that_cannot_be():
    assert train.linear_decay(2.0, 0.5, 0, 1) == 2.0
    with pytest.raises(ValueError, match="num_steps >= 1"):
        train.linear_decay(1.0, 0.1, 0, 0)
