"""Word embeddings with compound tokens, for the TRE chapter on human judgments.

Andreas (2019), *Measuring compositionality in representation learning*, section
*Compositionality and human judgments*: word vectors are trained on Gigaword with every
noun-noun compound (*ivory tower*) joined into one token (``ivory_tower``); for each compound,
TRE measures how well the sum of its two words' vectors reconstructs the compound's own vector
(cosine distance); and TRE is correlated with the compositionality that people judged the
compounds to have (Reddy, McCarthy & Manandhar 2011, 90 compounds): Spearman's rho = -0.34.
The less compositional people find a compound, the worse addition reconstructs it.

Neither Gigaword nor the ratings can be fetched here, so this module builds a stand-in in
which the compositionality of every compound is *planted* and therefore known:

- :func:`make_corpus` generates sentences from a topic model. Every content word belongs to a
  topic and draws its neighbours from its own distribution over that topic's context words
  (plus a few frequent function words). A compound with planted compositionality ``c`` draws
  its neighbours from ``c`` times the even mixture of its two words' distributions plus
  ``1 - c`` times the distribution of an unrelated *idiomatic* sense in a third topic;
- :func:`train_cbow` trains CBOW word2vec with negative sampling (Mikolov et al. 2013) in
  torch, cached on disk;
- :func:`compound_vectors` gathers, for each compound, the vectors of its two words and of its
  own token, with its planted (or rated) compositionality: the input of the TRE fit in
  :mod:`tutorlib.tre` (not done here). :func:`cosine_to_sum` is the fixed-primitive baseline
  that checks the embeddings carry the planted structure;
- :func:`read_vec` / :func:`write_vec` (word2vec text format) and
  :func:`read_compound_ratings` (the layout of Reddy et al.'s ``MeanAndDeviations.clean.txt``)
  let a reader with the real data run the same analysis on it.

Examples
--------
>>> from tutorlib.tre import corpora
>>> corpus = corpora.make_corpus(corpora.CorpusConfig(num_topics=3, content_words_per_topic=2,
...     num_bigrams=2, sentences_per_word=5, sentences_per_bigram=5))
>>> corpus.sentences.shape
(40, 12)
>>> sorted(b.compositionality for b in corpus.bigrams)
[0.0, 1.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tutorlib.checks import check_scalar

_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"
_SYLLABLES = [c + v for c in _CONSONANTS for v in _VOWELS]  # 70 syllables


# --------------------------------------------------------------------------------------------
# The generated corpus
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusConfig:
    """Sizes of the generated corpus (the defaults: 960,000 tokens, 506 types, 48 compounds).

    Parameters
    ----------
    num_topics : int
        Latent topics; at least 3, so that a compound's idiomatic sense can come from a topic
        that neither of its words belongs to.
    context_words_per_topic : int
        Context words owned by each topic (topics share none).
    content_words_per_topic : int
        Content words (the nouns compounds are made of) in each topic.
    num_function_words : int
        Frequent words shared by every topic (0 to 70), Zipf-distributed.
    function_word_weight : float
        Probability that a neighbour is a function word, in [0, 1); 0 if there are none.
    num_bigrams : int
        Compounds. Planted compositionalities are evenly spaced from 0 to 1 and assigned in a
        random order, so both extremes always occur.
    sentence_length : int
        Tokens per sentence: the sentence's one content word or compound, and its neighbours.
    sentences_per_word, sentences_per_bigram : int
        Sentences about each content word and each compound.
    concentration : float
        Dirichlet concentration of each word's distribution over its topic's context words
        (small: words of a topic differ more; large: they all look like the topic).
    topic_spread : float
        In [0, 1]: the share of every word's (and idiomatic sense's) topical neighbours drawn
        from a mixture of all topics (Dirichlet weights) instead of its own topic. Without it,
        two topics never share a context, every log co-occurrence ratio between topics is minus
        infinity, and word2vec's vectors cannot tell a compound of compositionality 0.1 from
        one of 1 (measured: Spearman 0.1 to 0.2 against the planted values, 0.8 with 0.3).
    seed : int
        Seed of everything random in the corpus.
    """

    num_topics: int = 16
    context_words_per_topic: int = 20
    content_words_per_topic: int = 8
    num_function_words: int = 10
    function_word_weight: float = 0.2
    num_bigrams: int = 48
    sentence_length: int = 12
    sentences_per_word: int = 400
    sentences_per_bigram: int = 600
    concentration: float = 1.0
    topic_spread: float = 0.3
    seed: int = 0

    def __post_init__(self) -> None:
        check_scalar(self.num_topics, "num_topics", int, min_val=3)
        for name in ("context_words_per_topic", "content_words_per_topic", "sentences_per_word",
                     "sentences_per_bigram"):
            check_scalar(getattr(self, name), name, int, min_val=1)
        check_scalar(self.sentence_length, "sentence_length", int, min_val=2)
        for name in ("num_function_words", "num_bigrams", "seed"):
            check_scalar(getattr(self, name), name, int, min_val=0)
        if self.num_function_words > len(_SYLLABLES):
            raise ValueError(f"num_function_words must be at most {len(_SYLLABLES)}, "
                             f"got {self.num_function_words}")
        if self.num_topics * self.context_words_per_topic > len(_SYLLABLES) ** 2:
            raise ValueError(f"num_topics * context_words_per_topic must be at most "
                             f"{len(_SYLLABLES) ** 2}, got "
                             f"{self.num_topics * self.context_words_per_topic}")
        if not 0.0 <= self.function_word_weight < 1.0:
            raise ValueError(f"function_word_weight must be in [0, 1), "
                             f"got {self.function_word_weight!r}")
        if self.num_function_words == 0 and self.function_word_weight != 0:
            raise ValueError(f"function_word_weight must be 0 when num_function_words is 0, "
                             f"got {self.function_word_weight!r}")
        if not 0.0 <= self.topic_spread <= 1.0:
            raise ValueError(f"topic_spread must be in [0, 1], got {self.topic_spread!r}")
        if not (isinstance(self.concentration, (int, float)) and self.concentration > 0
                and math.isfinite(self.concentration)):
            raise ValueError(f"concentration must be a positive number, got {self.concentration!r}")
        # Cross-topic pairs of distinct content words, counting (a, b) and (b, a) separately.
        words = self.num_topics * self.content_words_per_topic
        possible = words * (words - self.content_words_per_topic)
        if self.num_bigrams > possible:
            raise ValueError(f"num_bigrams must be at most {possible} (the cross-topic pairs of "
                             f"content words), got {self.num_bigrams}")


@dataclass(frozen=True)
class Bigram:
    """A compound of two content words, with the compositionality planted in the corpus.

    ``idiom_topic`` is the topic its idiomatic sense (weight ``1 - compositionality``) is drawn
    from; neither word belongs to it.
    """

    word1: str
    word2: str
    compositionality: float
    idiom_topic: int

    @property
    def token(self) -> str:
        """The compound's single token, ``word1_word2``."""
        return f"{self.word1}_{self.word2}"


@dataclass
class Corpus:
    """A generated corpus: sentences of vocabulary ids, and what was planted in them.

    Attributes
    ----------
    vocab : list of str
        Every type, in the order function words, context words, content words, compounds.
    sentences : numpy.ndarray
        ``(num_sentences, sentence_length)`` integer ids into ``vocab``.
    bigrams : list of Bigram
        The compounds and their planted compositionality.
    topic_of : numpy.ndarray
        The topic of each vocabulary entry; -1 for function words and compound tokens.
    function_words, context_words, content_words : list of str
        The vocabulary by kind.
    config : CorpusConfig
        How the corpus was generated.
    """

    vocab: list[str]
    sentences: np.ndarray
    bigrams: list[Bigram]
    topic_of: np.ndarray
    function_words: list[str]
    context_words: list[str]
    content_words: list[str]
    config: CorpusConfig

    @cached_property
    def index(self) -> dict[str, int]:
        """Vocabulary id of each word."""
        return {word: i for i, word in enumerate(self.vocab)}

    @property
    def num_tokens(self) -> int:
        return int(self.sentences.size)

    def text(self, i: int) -> str:
        """Sentence ``i`` as a string of words."""
        return " ".join(self.vocab[t] for t in self.sentences[i])


def _pseudo_words(rng: np.random.Generator, count: int, syllables: int) -> list[str]:
    """``count`` distinct pronounceable words of ``syllables`` consonant-vowel syllables."""
    codes = rng.choice(len(_SYLLABLES) ** syllables, size=count, replace=False)
    words = []
    for code in codes.tolist():
        parts = []
        for _ in range(syllables):
            code, digit = divmod(code, len(_SYLLABLES))
            parts.append(_SYLLABLES[digit])
        words.append("".join(parts))
    return words


def make_corpus(config: CorpusConfig | None = None) -> Corpus:
    """Generate sentences whose compounds have planted compositionality.

    Every sentence is about one content word or compound (the *subject*, at a random position)
    and its other ``sentence_length - 1`` tokens are neighbours drawn independently from the
    subject's distribution ``p``:

    - function words with probability ``function_word_weight`` (the same Zipf law for all);
    - otherwise a context word of the subject's topic, with the subject's own weights (a draw
      from a Dirichlet over the topic's context words).

    For a compound of ``w1`` and ``w2`` (from two different topics) with compositionality
    ``c``, the topical part is ``c * (q_w1 + q_w2) / 2 + (1 - c) * q_idiom``, where ``q_idiom``
    is a fresh Dirichlet draw over a third topic. At ``c = 1`` the compound occurs where its
    words do; at ``c = 0`` never near their topics' words.

    Parameters
    ----------
    config : CorpusConfig, optional
        Sizes and seed; the defaults give about a million tokens.

    Returns
    -------
    Corpus
        Deterministic for a given ``config``.
    """
    config = config or CorpusConfig()
    rng = np.random.default_rng(config.seed)
    k, m, n = config.num_topics, config.context_words_per_topic, config.content_words_per_topic
    function_words = _pseudo_words(rng, config.num_function_words, 1)
    context_words = _pseudo_words(rng, k * m, 2)  # topic t owns context words t*m .. t*m+m-1
    content_words = _pseudo_words(rng, k * n, 3)  # topic t owns content words t*n .. t*n+n-1

    # Neighbour distributions live on function words + context words (ids 0 .. f + k*m - 1).
    f = config.num_function_words
    background = np.zeros(f + k * m)
    if f:
        zipf = 1.0 / np.arange(1, f + 1)
        background[:f] = zipf / zipf.sum()

    shared = np.zeros((k, f + k * m))
    for t in range(k):
        shared[t, f + t * m: f + (t + 1) * m] = rng.dirichlet(np.full(m, config.concentration))

    def topical(topic: int) -> np.ndarray:
        q = np.zeros(f + k * m)
        q[f + topic * m: f + (topic + 1) * m] = rng.dirichlet(np.full(m, config.concentration))
        spread = rng.dirichlet(np.ones(k)) @ shared
        return (1 - config.topic_spread) * q + config.topic_spread * spread

    word_topic = np.repeat(np.arange(k), n)
    word_q = [topical(int(t)) for t in word_topic]

    pairs: set[tuple[int, int]] = set()
    while len(pairs) < config.num_bigrams:
        a, b = rng.choice(k * n, size=2, replace=False).tolist()
        if word_topic[a] != word_topic[b]:
            pairs.add((a, b))
    ordered = sorted(pairs)
    rng.shuffle(ordered)
    planted = np.linspace(0.0, 1.0, config.num_bigrams)[rng.permutation(config.num_bigrams)]
    bigrams, bigram_q = [], []
    for (a, b), c in zip(ordered, planted.tolist()):
        others = [t for t in range(k) if t not in (word_topic[a], word_topic[b])]
        idiom = int(rng.choice(others))
        bigrams.append(Bigram(content_words[a], content_words[b], round(c, 12), idiom))
        bigram_q.append(c * (word_q[a] + word_q[b]) / 2 + (1 - c) * topical(idiom))

    vocab = function_words + context_words + content_words + [b.token for b in bigrams]
    first_content, first_bigram = f + k * m, f + k * m + k * n
    subjects = ([(first_content + i, q, config.sentences_per_word) for i, q in enumerate(word_q)]
                + [(first_bigram + i, q, config.sentences_per_bigram)
                   for i, q in enumerate(bigram_q)])
    length, w = config.sentence_length, config.function_word_weight
    blocks = []
    for subject, q, count in subjects:
        p = w * background + (1 - w) * q
        neighbours = rng.choice(len(p), size=(count, length - 1), p=p / p.sum())
        block = np.empty((count, length), dtype=np.int32)
        is_subject = np.zeros((count, length), dtype=bool)
        is_subject[np.arange(count), rng.integers(0, length, size=count)] = True
        block[is_subject] = subject
        block[~is_subject] = neighbours.ravel()  # row-major: each row gets its own neighbours
        blocks.append(block)
    sentences = np.concatenate(blocks)[rng.permutation(sum(s[2] for s in subjects))]

    topic_of = np.full(len(vocab), -1, dtype=np.int64)
    topic_of[f:first_content] = np.repeat(np.arange(k), m)
    topic_of[first_content:first_bigram] = word_topic
    return Corpus(vocab, sentences, bigrams, topic_of, function_words, context_words,
                  content_words, config)
