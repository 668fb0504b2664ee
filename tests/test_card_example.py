"""The usage page's worked example (examples/card_own_model.py): a PyTorch module of one's own,
wrapped in a few lines, meets the card's contract and learns a small task."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from tutorlib import card

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "card_own_model.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("card_own_model", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_worked_example_fits_a_small_task_and_goes_on_the_card(example):
    import torch

    torch.set_num_threads(1)
    words = ["a", "b", "c", "d"]
    pairs = [(f"{x} {y}", f"{y.upper()} {x.upper()}") for x in words for y in words]
    task = card.Task("toy", "swap", pairs, pairs[:4], {"all": pairs})
    row, = card.run_task(lambda: example.OwnModel(hidden=32, learning_rate=0.01), task, seed=0,
                         max_seconds=4, model_name="own")
    assert row["fitted"] and row["value"] >= 0.9, row
    # its states give the card's TRE on SCAN commands
    scan = card.scan_task("simple", train_size=200, validation_size=20, test_size=20)
    model = example.OwnModel()
    model.fit(scan.train, scan.validation, seed=0, max_seconds=0.5)
    assert model.states(["jump", "walk twice"]).shape == (2, 64)
    assert np.isfinite(card.states_tre(model, scan.representations, steps=50)["tre"])
    assert len(model.predict(["jump zzz"])) == 1  # an unknown word still decodes
