"""Every trainer and solver takes ``device``: "cpu" is the default and gives the very same
results; on CUDA (where a GPU exists; skipped elsewhere) the same calls run and agree closely."""

import numpy as np
import pytest
import torch

from tutorlib import tre
from tutorlib.train import resolve_device
from tutorlib.tre import corpora, languages, learner, refgame, wordvec

CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
GAME = refgame.GameConfig(num_colours=2, num_shapes=2, hidden=16, steps=20)
CORPUS = corpora.CorpusConfig(num_topics=3, content_words_per_topic=2, num_bigrams=2,
                              sentences_per_word=5, sentences_per_bigram=5)


def test_auto_is_cpu_here_or_a_gpu_there():
    expected = "cuda" if torch.cuda.is_available() else None
    found = resolve_device("auto").type
    assert found == expected or (expected is None and found in ("cpu", "mps"))
    with pytest.raises(ValueError, match="device must be one of cpu, auto, cuda, mps"):
        resolve_device("gpu")


@pytest.mark.slow
def test_an_explicit_cpu_gives_the_default_results_bit_for_bit(one_thread):
    lang = languages.compositional(3, 3)
    a = tre.tre(lang.one_hot(), lang.derivations, "linear", "l1", steps=50)
    b = tre.tre(lang.one_hot(), lang.derivations, "linear", "l1", steps=50, device="cpu")
    assert np.array_equal(a.per_datum, b.per_datum) and np.array_equal(a.losses, b.losses)
    g1 = refgame.train_game(GAME, use_cache=False)
    g2 = refgame.train_game(GAME, use_cache=False, device="cpu")
    assert np.array_equal(g1.messages, g2.messages) and np.array_equal(g1.history, g2.history)
    corpus = corpora.make_corpus(CORPUS)
    config = wordvec.CBOWConfig(embedding_dim=8, epochs=1)
    v1 = wordvec.train_cbow(corpus, config)
    v2 = wordvec._train_cbow(corpus, config, False, torch.device("cpu"))  # not from the cache
    assert np.array_equal(v1.vectors, v2["vectors"])
    c = learner.ConceptConfig(epochs=1, n_train=64, n_val=20)
    r1 = learner._train(c, 8, False, torch.device("cpu"))
    r2 = learner.train_concepts(c, snapshot_every=8, device="cpu")
    assert np.array_equal(r1["val_accuracy"], r2.val_accuracy)


@CUDA
def test_every_trainer_runs_on_cuda_and_agrees_with_the_cpu():
    lang = languages.compositional(3, 3)
    cpu = tre.tre(lang.one_hot(), lang.derivations, "linear", "l1", steps=200)
    gpu = tre.tre(lang.one_hot(), lang.derivations, "linear", "l1", steps=200, device="cuda")
    assert gpu.value == pytest.approx(cpu.value, abs=1e-3)
    game = refgame.train_game(GAME, use_cache=False, device="cuda")
    assert game.messages.shape == (16, 4)
    vectors = wordvec.train_cbow(corpora.make_corpus(CORPUS),
                                 wordvec.CBOWConfig(embedding_dim=8, epochs=1), device="cuda")
    assert np.isfinite(vectors.vectors).all()
    run = learner.train_concepts(learner.ConceptConfig(epochs=1, n_train=64, n_val=20),
                                 snapshot_every=8, device="cuda")
    assert np.isfinite(run.val_accuracy).all()
