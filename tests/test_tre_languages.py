"""The artificial languages have the structure their names promise."""

import numpy as np
import pytest

from tutorlib.tre import languages


@pytest.fixture
def base():
    return languages.compositional(5, 5, code_length=2, seed=0)


def test_compositional_codes_follow_the_attributes(base):
    assert base.messages.shape == (25, 4)
    assert len({tuple(m) for m in base.messages}) == 25  # one name per object
    for (c, s), message in zip(base.attributes, base.messages):
        same_colour = base.messages[base.attributes[:, 0] == c]
        same_shape = base.messages[base.attributes[:, 1] == s]
        assert (same_colour[:, :2] == message[:2]).all() and (same_shape[:, 2:] == message[2:]).all()
    half = base.vocab_size // 2
    assert (base.messages[:, :2] < half).all() and (base.messages[:, 2:] >= half).all()
    assert base.derivations[0] == ("red", "circle")
    one_hot = base.one_hot()
    assert one_hot.shape == (25, 4, base.vocab_size) and (one_hot.sum(axis=2) == 1).all()


def test_exceptions_noise_and_shuffles(base):
    exceptions = languages.with_exceptions(base, 5, seed=1)
    assert 0 < np.any(exceptions.messages != base.messages, axis=1).sum() <= 5
    assert (languages.with_noise(base, 0.0).messages == base.messages).all()
    noisy = languages.with_noise(base, 0.5, seed=2)
    assert 0.2 < (noisy.messages != base.messages).mean() < 0.6  # half replaced, some by themselves
    shuffled = languages.holistic(base, seed=3)
    assert sorted(map(tuple, shuffled.messages)) == sorted(map(tuple, base.messages))
    assert shuffled.derivations == base.derivations
    assert languages.random_language(base, seed=4).messages.max() < base.vocab_size


def test_order_context_and_negation(base):
    ordered = languages.order_sensitive(base)
    odd = base.attributes[:, 1] % 2 == 1
    assert (ordered.messages[odd, :2] == base.messages[odd, 2:]).all()
    assert (ordered.messages[~odd] == base.messages[~odd]).all()
    context = languages.context_sensitive(base)
    assert len({tuple(m) for m in context.messages}) == 25  # still injective
    assert (context.messages[:, :2] == base.messages[:, :2]).all()
    # the symbol pair naming a shape now differs across colours
    circles = context.messages[base.attributes[:, 1] == 0, 2:]
    assert len({tuple(m) for m in circles}) == 5
    negated = languages.with_negation(base)
    assert negated.messages.shape == (50, 5) and negated.vocab_size == base.vocab_size + 2
    assert negated.derivations[25] == ("not", ("red", "circle"))
    assert set(negated.messages[:25, 0]) == {base.vocab_size}
    assert set(negated.messages[25:, 0]) == {base.vocab_size + 1}
    assert (negated.attributes[25:, 2] == 1).all()


def test_text_form(base):
    assert all(len(t) == 4 for t in base.text())


@pytest.mark.parametrize("call, message", [
    (lambda: languages.compositional(0, 5), "num_colours"),
    (lambda: languages.compositional(5, 99), "num_shapes"),
    (lambda: languages.compositional(5, 5, code_length=0), "code_length"),
    (lambda: languages.compositional(5, 5, code_length=1, vocab_size=4), "distinct codes"),
])
def test_bad_worlds(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_dials(base):
    with pytest.raises(ValueError, match="count"):
        languages.with_exceptions(base, 26)
    with pytest.raises(ValueError, match="probability"):
        languages.with_noise(base, 1.5)
