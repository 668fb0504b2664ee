import dataclasses

import numpy as np
import pytest
import torch

from tutorlib.stats import spearman
from tutorlib.tre import corpora, judgments, wordvec

torch.set_num_threads(1)

SMALL = corpora.CorpusConfig(num_topics=5, context_words_per_topic=10, content_words_per_topic=4,
                             num_function_words=5, num_bigrams=30, sentence_length=10,
                             sentences_per_word=50, sentences_per_bigram=300, seed=3)
TINY = corpora.CorpusConfig(num_topics=4, context_words_per_topic=8, content_words_per_topic=4,
                            num_function_words=4, num_bigrams=6, sentence_length=8,
                            sentences_per_word=100, sentences_per_bigram=100, seed=0)
TINY_CBOW = wordvec.CBOWConfig(embedding_dim=16, window=3, epochs=5, batch_size=128,
                               learning_rate=0.03, seed=0)


def test_corpus_is_deterministic_for_a_seed():
    a, b = corpora.make_corpus(SMALL), corpora.make_corpus(SMALL)
    assert a.vocab == b.vocab and a.bigrams == b.bigrams
    assert np.array_equal(a.sentences, b.sentences)
    other = corpora.make_corpus(dataclasses.replace(SMALL, seed=4))
    assert not np.array_equal(a.sentences, other.sentences)


def test_corpus_sizes_and_vocabulary():
    corpus = corpora.make_corpus(SMALL)
    num_sentences = 5 * 4 * 50 + 30 * 300
    assert corpus.sentences.shape == (num_sentences, 10)
    assert corpus.num_tokens == num_sentences * 10
    assert len(corpus.vocab) == len(set(corpus.vocab)) == 5 + 5 * 10 + 5 * 4 + 30
    assert corpus.sentences.min() >= 0 and corpus.sentences.max() < len(corpus.vocab)
    assert corpus.text(0).split() == [corpus.vocab[t] for t in corpus.sentences[0]]


def test_bigram_tokens_present_with_planted_compositionality_in_unit_interval():
    corpus = corpora.make_corpus(SMALL)
    counts = np.bincount(corpus.sentences.ravel(), minlength=len(corpus.vocab))
    planted = [b.compositionality for b in corpus.bigrams]
    assert min(planted) == 0.0 and max(planted) == 1.0
    assert all(0.0 <= c <= 1.0 for c in planted)
    assert len({(b.word1, b.word2) for b in corpus.bigrams}) == 30
    for bigram in corpus.bigrams:
        assert bigram.token == f"{bigram.word1}_{bigram.word2}"
        # Each sentence has exactly one subject, so a compound occurs once per sentence of it.
        assert counts[corpus.index[bigram.token]] == 300
        topics = {corpus.topic_of[corpus.index[w]] for w in (bigram.word1, bigram.word2)}
        assert len(topics) == 2 and bigram.idiom_topic not in topics


def _topical_neighbour_fractions(corpus: corpora.Corpus, bigram: corpora.Bigram):
    """Among a compound's neighbours that have a topic: the fraction from its words' topics,
    and the fraction from its idiomatic topic."""
    rows = (corpus.sentences == corpus.index[bigram.token]).any(1)
    topics = corpus.topic_of[corpus.sentences[rows]]
    topics = topics[topics >= 0]
    parts = {corpus.topic_of[corpus.index[w]] for w in (bigram.word1, bigram.word2)}
    return np.isin(topics, list(parts)).mean(), (topics == bigram.idiom_topic).mean(), topics.size


def test_neighbours_come_from_the_parts_topics_in_proportion_to_compositionality():
    # Without the topic spread, a compound's topical neighbours come from its words' topics
    # with probability c and from its idiomatic topic otherwise: 2,700 draws per compound make
    # the standard error of each fraction at most 0.01.
    corpus = corpora.make_corpus(dataclasses.replace(SMALL, topic_spread=0.0))
    for bigram in corpus.bigrams:
        parts, idiom, n = _topical_neighbour_fractions(corpus, bigram)
        assert n > 2_000
        assert parts + idiom == pytest.approx(1.0)
        assert parts == pytest.approx(bigram.compositionality, abs=0.05)
        if bigram.compositionality == 0.0:
            assert parts == 0.0  # idiomatic compounds never occur near their words' topics
    for word in corpus.content_words:
        rows = (corpus.sentences == corpus.index[word]).any(1)
        topics = corpus.topic_of[corpus.sentences[rows]]
        neighbours = topics[(topics >= 0) & (corpus.sentences[rows] != corpus.index[word])]
        assert (neighbours == corpus.topic_of[corpus.index[word]]).all()


def test_with_topic_spread_idiomatic_compounds_still_avoid_their_parts_topics():
    corpus = corpora.make_corpus(SMALL)
    spread = SMALL.topic_spread
    fractions = {b.compositionality: _topical_neighbour_fractions(corpus, b)[0]
                 for b in corpus.bigrams}
    # The spread puts at most `spread` of the topical mass anywhere outside the own topics.
    for c, parts in fractions.items():
        assert (1 - spread) * c - 0.05 <= parts <= (1 - spread) * c + spread + 0.05
    assert fractions[0.0] < 0.25 < 0.65 < fractions[1.0]
    planted, observed = zip(*sorted(fractions.items()))
    assert spearman(planted, observed) > 0.9


@pytest.mark.slow
def test_tiny_cbow_puts_words_of_a_topic_closer_than_words_of_different_topics(tmp_path,
                                                                             monkeypatch):
    corpus = corpora.make_corpus(TINY)
    vectors = wordvec.train_cbow(corpus, TINY_CBOW)
    assert vectors.vocab == corpus.vocab and vectors.vectors.shape == (len(corpus.vocab), 16)
    assert vectors.losses[-1] < vectors.losses[0]
    words = np.stack([vectors[w] for w in corpus.content_words])
    words /= np.linalg.norm(words, axis=1, keepdims=True)
    similarity = words @ words.T
    topics = corpus.topic_of[[corpus.index[w] for w in corpus.content_words]]
    same = topics[:, None] == topics[None, :]
    np.fill_diagonal(same, False)
    different = topics[:, None] != topics[None, :]
    # Observed over corpus/training seeds 0-5: margins 0.26 to 0.38.
    assert similarity[same].mean() - similarity[different].mean() > 0.15
    assert vectors.cosine(corpus.content_words[0], corpus.content_words[1]) == pytest.approx(
        similarity[0, 1], abs=1e-5)

    # Cached: the entry exists, and a second call returns it.
    entries = list((tmp_path / "cache" / "cbow").glob("*.pkl"))
    assert len(entries) == 1
    again = wordvec.train_cbow(corpus, TINY_CBOW)
    assert np.array_equal(again.vectors, vectors.vectors)
    # Deterministic: retrained from scratch in an empty cache, the same vectors.
    monkeypatch.setenv("TUTORLIB_CACHE_DIR", str(tmp_path / "elsewhere"))
    retrained = wordvec.train_cbow(corpus, TINY_CBOW)
    assert (tmp_path / "elsewhere" / "cbow").is_dir()
    assert np.array_equal(retrained.vectors, vectors.vectors)


@pytest.mark.parametrize("field, value", [
    ("num_topics", 2), ("num_topics", -1), ("context_words_per_topic", 0),
    ("content_words_per_topic", -3), ("num_function_words", -1), ("num_bigrams", -2),
    ("sentence_length", 1), ("sentences_per_word", 0), ("sentences_per_bigram", -5),
    ("function_word_weight", 1.0), ("function_word_weight", -0.1), ("concentration", 0.0),
    ("topic_spread", 1.5), ("seed", -1), ("num_bigrams", 100_000), ("num_function_words", 71),
])
def test_bad_corpus_config_names_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        corpora.CorpusConfig(**{field: value})


@pytest.mark.parametrize("field, value", [
    ("embedding_dim", 0), ("embedding_dim", -8), ("window", 0), ("negatives", -1),
    ("batch_size", 0), ("epochs", 0), ("learning_rate", 0.0), ("final_lr_fraction", 0.0),
    ("seed", -1), ("window", 2.5),
])
def test_bad_cbow_config_names_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        wordvec.CBOWConfig(**{field: value})


def test_word2vec_text_format_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    original = wordvec.WordVectors(["the", "ivory", "tower", "ivory_tower"],
                                   rng.normal(size=(4, 5)).astype(np.float32))
    path = wordvec.write_vec(tmp_path / "vectors.vec", original)
    assert path.read_text().splitlines()[0] == "4 5"
    loaded = wordvec.read_vec(path)
    assert loaded.vocab == original.vocab
    assert np.array_equal(loaded.vectors, original.vectors)
    subset = wordvec.read_vec(path, words={"tower", "ivory", "absent"})
    assert subset.vocab == ["ivory", "tower"]
    assert np.array_equal(subset["tower"], original["tower"])


def test_read_vec_accepts_word2vec_trailing_spaces_and_blank_lines(tmp_path):
    path = tmp_path / "w2v.txt"
    path.write_text("2 3\nsnail 0.5 -1 2e-1 \n\nmail 1 2 3 \n")
    vectors = wordvec.read_vec(path)
    assert vectors.vocab == ["snail", "mail"]
    assert np.allclose(vectors["snail"], [0.5, -1.0, 0.2])
    assert vectors.dim == 3 and len(vectors) == 2


@pytest.mark.parametrize("text, message", [
    ("2\na 1 2\n", "line 1: expected a header"),
    ("two 2\na 1 2\n", "line 1: expected a header"),
    ("2 2\na 1 2\nb 1\n", "line 3: expected a word and 2 values, got 1"),
    ("2 2\na 1 2 3\nb 1 2\n", "line 2: expected a word and 2 values, got 3"),
    ("2 2\na 1 x\nb 1 2\n", "line 2: value 'x' is not a number"),
    ("2 2\na 1 nan\nb 1 2\n", "line 2: values must be finite"),
    ("3 2\na 1 2\nb 1 2\na 3 4\n", "line 4: word 'a' repeated \\(first on line 2\\)"),
    ("1 2\na 1 2\nb 1 2\n", "line 3: more vectors than the 1 announced"),
    ("3 2\na 1 2\nb 1 2\n", "line 1 announces 3 vectors but the file has 2"),
])
def test_read_vec_errors_name_the_line(tmp_path, text, message):
    path = tmp_path / "bad.vec"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        wordvec.read_vec(path)


REDDY_STYLE = (
    "#word\tWord1_mean Word1_std Word2_mean Word2_std Cpd_mean Cpd_std mean1*mean2\n"
    "snail-n mail-n\t0.5 0.8 4.5 1.0 1.25 1.0 2.25\n"
    "climate-n change-n\t4.9 0.3 4.8 0.4 4.95 0.2 23.52\n"
)


def test_read_compound_ratings_in_reddy_layout(tmp_path):
    path = tmp_path / "MeanAndDeviations.clean.txt"
    path.write_text(REDDY_STYLE)
    ratings = judgments.read_compound_ratings(path)
    assert ratings == [
        judgments.CompoundRating("snail", "mail", 0.5, 0.8, 4.5, 1.0, 1.25, 1.0),
        judgments.CompoundRating("climate", "change", 4.9, 0.3, 4.8, 0.4, 4.95, 0.2),
    ]
    assert ratings[0].compositionality == 1.25


def test_read_compound_ratings_without_tags_tab_or_product_column(tmp_path):
    path = tmp_path / "ratings.txt"
    path.write_text("# my ratings\n\nivory tower 0.4 1.0 0.5 0.7 0.46 0.68\n")
    (rating,) = judgments.read_compound_ratings(path)
    assert (rating.word1, rating.word2, rating.compound_mean) == ("ivory", "tower", 0.46)


@pytest.mark.parametrize("line, message", [
    ("snail-n\t0.5 0.8 4.5 1.0 1.25 1.0 2.25", "line 3: the compound must be two words"),
    ("snail-n mail-n\t0.5 0.8 4.5 1.0 1.25", "line 3: expected 6 values .* got 5"),
    ("snail-n mail-n\t0.5 0.8 4.5 1.0 1.25 1.0 2.25 7", "line 3: expected 6 values .* got 8"),
    ("snail-n mail-n\t0.5 high 4.5 1.0 1.25 1.0", "line 3: value 'high' is not a number"),
    ("snail-n mail-n\t0.5 -0.8 4.5 1.0 1.25 1.0", "line 3: standard deviations must be >= 0"),
    ("snail-n mail-n\t0.5 0.8 inf 1.0 1.25 1.0", "line 3: values must be finite"),
])
def test_read_compound_ratings_errors_name_the_line(tmp_path, line, message):
    path = tmp_path / "bad.txt"
    path.write_text(REDDY_STYLE.splitlines()[0] + "\n" + REDDY_STYLE.splitlines()[1] + "\n"
                    + line + "\n")
    with pytest.raises(ValueError, match=message):
        judgments.read_compound_ratings(path)


def test_compound_vectors_gathers_present_compounds_and_lists_missing_ones():
    vectors = wordvec.WordVectors(
        ["snail", "mail", "snail_mail", "climate", "change", "climate_change", "ivory"],
        np.array([[1, 0], [0, 1], [1, 1], [1, 0], [0, 2], [-2, 1], [3, 3]], dtype=float))
    ratings = [judgments.CompoundRating("snail", "mail", 0, 0, 0, 0, 1.3, 0),
               judgments.CompoundRating("ivory", "tower", 0, 0, 0, 0, 0.5, 0),
               judgments.CompoundRating("climate", "change", 0, 0, 0, 0, 4.9, 0)]
    data = judgments.compound_vectors(vectors, ratings)
    assert data.compounds == [("snail", "mail"), ("climate", "change")]
    assert data.missing == [("ivory", "tower")]
    assert np.array_equal(data.word2, [[0, 1], [0, 2]])
    assert np.array_equal(data.compound, [[1, 1], [-2, 1]])
    assert np.array_equal(data.compositionality, [1.3, 4.9])
    # snail_mail = snail + mail exactly; climate_change is orthogonal to climate + change.
    assert np.allclose(judgments.cosine_to_sum(data), [1.0, 0.0])
    none = judgments.compound_vectors(vectors, ratings[1:2])
    assert len(none) == 0 and none.word1.shape == (0, 2)


def test_compound_vectors_of_a_generated_corpus_use_the_planted_values():
    corpus = corpora.make_corpus(TINY)
    rng = np.random.default_rng(0)
    vectors = wordvec.WordVectors(corpus.vocab, rng.normal(size=(len(corpus.vocab), 3)))
    data = judgments.compound_vectors(vectors, corpus.bigrams)
    assert len(data) == 6 and not data.missing
    assert np.array_equal(data.compositionality, [b.compositionality for b in corpus.bigrams])
    assert np.array_equal(data.compound[2], vectors[corpus.bigrams[2].token])


def test_word_vectors_validate_their_shape():
    with pytest.raises(ValueError, match="shape"):
        wordvec.WordVectors(["a", "b"], np.zeros((3, 2)))
    with pytest.raises(ValueError, match="repeated"):
        wordvec.WordVectors(["a", "a"], np.zeros((2, 2)))
    with pytest.raises(KeyError, match="'c' has no vector"):
        wordvec.WordVectors(["a"], np.zeros((1, 2)))["c"]
