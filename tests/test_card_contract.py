"""The report card's model contract: a user's own model in a few lines, the book's networks
through Seq2SeqModel, and clear errors for a model that does not meet it."""

import numpy as np
import pytest

from tutorlib import card
from tutorlib.seq2seq import Recipe, Seq2SeqConfig, pinned_threads

TRAIN = [("a b", "B A"), ("b c", "C B"), ("c a", "A C"), ("a", "A")]
VALIDATION = [("b", "B"), ("c", "C")]


class Memoriser:
    """A model of a user's own, in a few lines: it memorises its training pairs."""

    def fit(self, train, validation, *, seed, max_seconds, device):
        self.table = dict(train)
        right = sum(self.table.get(s) == t for s, t in validation)
        return {"train_accuracy": 1.0, "validation_accuracy": right / len(validation)}

    def predict(self, sources):
        return [self.table.get(source, "") for source in sources]


def test_a_users_own_model_is_fitted_scored_and_marked_when_it_did_not_fit():
    result = card.train_and_score(Memoriser, TRAIN, VALIDATION,
                                  {"seen": TRAIN[:2], "new": VALIDATION}, seed=0, max_seconds=1)
    assert result["scores"] == {"seen": 1.0, "new": 0.0}
    assert result["fit"] == {"train_accuracy": 1.0, "validation_accuracy": 0.0}
    assert result["fitted"] is False  # validation 0 < 0.9: its scores are not comparisons


def test_a_model_that_does_not_meet_the_contract_is_named():
    class NoPredict:
        def fit(self, *a, **k):
            return {}

    with pytest.raises(TypeError, match="NoPredict lacks predict"):
        card.train_and_score(NoPredict, TRAIN, VALIDATION, {}, seed=0, max_seconds=1)

    class BadFit(Memoriser):
        def fit(self, *a, **k):
            return {"train_accuracy": 97.0, "validation_accuracy": 0.5}  # percent, not fraction

    with pytest.raises(ValueError, match="train_accuracy as a fraction"):
        card.train_and_score(BadFit, TRAIN, VALIDATION, {}, seed=0, max_seconds=1)

    class ShortPredict(Memoriser):
        def predict(self, sources):
            return ["A"]

    with pytest.raises(ValueError, match="returned 1 predictions for 2 sources"):
        card.train_and_score(ShortPredict, TRAIN, VALIDATION, {"t": VALIDATION}, seed=0,
                             max_seconds=1)
    with pytest.raises(ValueError, match="seed"):
        card.train_and_score(Memoriser, TRAIN, VALIDATION, {}, seed=-1, max_seconds=1)


@pytest.mark.slow
def test_the_books_networks_meet_the_contract_and_learn_a_small_task():
    pairs = [(f"{x} {y}", f"{y.upper()} {x.upper()}") for x in "abcd" for y in "abcd"]
    factory = lambda: card.Seq2SeqModel(  # noqa: E731
        Seq2SeqConfig("lstm", 48, 1, 0.0, attention=True),
        Recipe(batch_size=4, learning_rate=0.01, max_epochs=15, patience=15))
    with pinned_threads(1):  # a network this small trains fastest on one thread
        result = card.train_and_score(factory, pairs[:12], pairs[:12], {"all": pairs}, seed=0,
                                      max_seconds=60)
    assert result["fit"]["train_accuracy"] >= 0.9 and result["fitted"]
    assert 0 <= result["scores"]["all"] <= 1
    model = card.Seq2SeqModel(Seq2SeqConfig("lstm", 48, 1, 0.0, attention=True),
                              Recipe(batch_size=8, max_epochs=1))
    with pinned_threads(1):
        model.fit(pairs, pairs, seed=0, max_seconds=5)
    states = model.states(["a b", "c d", "a"])
    assert states.shape == (3, 48) and np.isfinite(states).all()
