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
>>> from tutorlib import wordvec
>>> corpus = wordvec.make_corpus(wordvec.CorpusConfig(num_topics=3, content_words_per_topic=2,
...     num_bigrams=2, sentences_per_word=5, sentences_per_bigram=5))
>>> corpus.sentences.shape
(40, 12)
>>> sorted(b.compositionality for b in corpus.bigrams)
[0.0, 1.0]
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.cache import cached
from tutorlib.train import progress_bar, seed_everything

_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"
_SYLLABLES = [c + v for c in _CONSONANTS for v in _VOWELS]  # 70 syllables


def _positive_int(name: str, value: object, minimum: int = 1) -> None:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < minimum:
        kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {kind}, got {value!r}")


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
        _positive_int("num_topics", self.num_topics, 3)
        for name in ("context_words_per_topic", "content_words_per_topic", "sentences_per_word",
                     "sentences_per_bigram"):
            _positive_int(name, getattr(self, name))
        _positive_int("sentence_length", self.sentence_length, 2)
        for name in ("num_function_words", "num_bigrams", "seed"):
            _positive_int(name, getattr(self, name), 0)
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


# --------------------------------------------------------------------------------------------
# Word vectors and CBOW
# --------------------------------------------------------------------------------------------


@dataclass
class WordVectors:
    """Embeddings: ``vectors[i]`` is the vector of ``vocab[i]``.

    ``losses`` holds the mean training loss of each epoch when the vectors come from
    :func:`train_cbow` (empty when read from a file).
    """

    vocab: list[str]
    vectors: np.ndarray
    losses: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.vectors = np.asarray(self.vectors)
        if self.vectors.ndim != 2 or self.vectors.shape[0] != len(self.vocab):
            raise ValueError(f"vectors must have shape (len(vocab), dim) = ({len(self.vocab)}, "
                             f"dim), got {self.vectors.shape}")
        if len(set(self.vocab)) != len(self.vocab):
            raise ValueError("vocab has repeated words")

    @cached_property
    def index(self) -> dict[str, int]:
        """Row of each word."""
        return {word: i for i, word in enumerate(self.vocab)}

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def __len__(self) -> int:
        return len(self.vocab)

    def __contains__(self, word: str) -> bool:
        return word in self.index

    def __getitem__(self, word: str) -> np.ndarray:
        try:
            return self.vectors[self.index[word]]
        except KeyError:
            raise KeyError(f"{word!r} has no vector") from None

    def cosine(self, a: str, b: str) -> float:
        """Cosine similarity of the vectors of words ``a`` and ``b``."""
        return _cosine(self[a], self[b])


def _cosine(u: np.ndarray, v: np.ndarray) -> float:
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-12))


@dataclass(frozen=True)
class CBOWConfig:
    """CBOW word2vec with negative sampling (Mikolov et al. 2013).

    Parameters
    ----------
    embedding_dim : int
        Size of the vectors.
    window : int
        Context words on each side of the predicted word (within its sentence).
    negatives : int
        Noise words per example, drawn from the unigram distribution to the power 3/4.
    batch_size : int
        Examples (predicted positions) per update.
    epochs : int
        Passes over the corpus.
    learning_rate : float
        Adam's learning rate at the first step, decayed linearly to ``learning_rate *
        final_lr_fraction`` at the last (word2vec also decays linearly).
    final_lr_fraction : float
        In (0, 1]; 1 keeps the learning rate constant.
    seed : int
        Seeds the initialisation, the example order and the noise words.
    """

    embedding_dim: int = 64
    window: int = 4
    negatives: int = 5
    batch_size: int = 1024
    epochs: int = 3
    learning_rate: float = 0.01
    final_lr_fraction: float = 0.05
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("embedding_dim", "window", "negatives", "batch_size", "epochs"):
            _positive_int(name, getattr(self, name))
        _positive_int("seed", self.seed, 0)
        if not (isinstance(self.learning_rate, (int, float)) and self.learning_rate > 0):
            raise ValueError(f"learning_rate must be positive, got {self.learning_rate!r}")
        if not 0.0 < self.final_lr_fraction <= 1.0:
            raise ValueError(f"final_lr_fraction must be in (0, 1], got {self.final_lr_fraction!r}")


class CBOW(nn.Module):
    """Continuous bag of words: the mean of the context's input vectors scores the centre word
    against ``negatives`` noise words through the output vectors.

    Row ``vocab_size`` of the input vectors is padding (always zero, left out of the mean),
    standing in for context positions beyond the sentence's ends.
    """

    def __init__(self, vocab_size: int, embedding_dim: int) -> None:
        super().__init__()
        self.padding = vocab_size
        self.input_vectors = nn.EmbeddingBag(vocab_size + 1, embedding_dim, mode="mean",
                                             padding_idx=vocab_size)
        self.output_vectors = nn.Embedding(vocab_size, embedding_dim)
        # word2vec's initialisation: small random inputs, zero outputs.
        with torch.no_grad():
            nn.init.uniform_(self.input_vectors.weight, -0.5 / embedding_dim, 0.5 / embedding_dim)
            self.input_vectors.weight[vocab_size].zero_()
        nn.init.zeros_(self.output_vectors.weight)

    def forward(self, context: torch.Tensor, centre: torch.Tensor,
                noise: torch.Tensor) -> torch.Tensor:
        """Mean negative-sampling loss of a batch.

        ``context`` (batch, 2 * window) ids, ``self.padding`` outside the sentence; ``centre``
        (batch,) the words to predict; ``noise`` (batch, negatives) the noise words.
        """
        hidden = self.input_vectors(context)
        # Scores of the centre word (column 0) and the noise words. An elementwise product and
        # a sum: for these many tiny products torch.bmm was the slowest step (measured on a CPU).
        targets = torch.cat([centre.unsqueeze(1), noise], dim=1)
        scores = (self.output_vectors(targets) * hidden.unsqueeze(1)).sum(-1)
        # A noise word that happens to be the centre word is not evidence against it.
        keep = (noise != centre.unsqueeze(1)).float()
        return -(F.logsigmoid(scores[:, 0]) + (F.logsigmoid(-scores[:, 1:]) * keep).sum(1)).mean()


def corpus_digest(corpus: Corpus) -> str:
    """A hash of the corpus's vocabulary and sentences (the cache key of its embeddings)."""
    digest = hashlib.sha256()
    digest.update("\n".join(corpus.vocab).encode())
    digest.update(np.ascontiguousarray(corpus.sentences, dtype=np.int64).tobytes())
    digest.update(str(corpus.sentences.shape).encode())
    return digest.hexdigest()[:24]


def train_cbow(corpus: Corpus, config: CBOWConfig | None = None,
               progress: bool = False) -> WordVectors:
    """Train CBOW word2vec on ``corpus`` and return its input vectors (word2vec's output).

    Every position of every sentence is one example; its context is up to ``window`` words on
    either side within the sentence. Results are cached (:func:`tutorlib.cache.cached`, name
    ``"cbow"``) under a hash of the corpus and the full ``config``.

    Parameters
    ----------
    corpus : Corpus
        From :func:`make_corpus`.
    config : CBOWConfig, optional
        Hyperparameters; defaults train the default corpus in about half a minute on one thread.
    progress : bool
        Show a progress bar.
    """
    config = config or CBOWConfig()
    if corpus.sentences.ndim != 2 or corpus.sentences.shape[1] < 2:
        raise ValueError(f"corpus.sentences must be a (num_sentences, length >= 2) array, "
                         f"got shape {corpus.sentences.shape}")
    key = {"corpus": corpus_digest(corpus), "cbow": asdict(config)}
    arrays = cached("cbow", key, lambda: _train_cbow(corpus, config, progress))
    return WordVectors(arrays["vocab"].tolist(), arrays["vectors"], arrays["losses"].tolist())


def _train_cbow(corpus: Corpus, config: CBOWConfig, progress: bool) -> dict[str, np.ndarray]:
    generator = seed_everything(config.seed)
    sentences = torch.as_tensor(corpus.sentences, dtype=torch.long)
    num_sentences, length = sentences.shape
    vocab_size = len(corpus.vocab)
    offsets = torch.tensor([o for o in range(-config.window, config.window + 1) if o != 0])
    counts = torch.bincount(sentences.flatten(), minlength=vocab_size).double()
    noise_cdf = torch.cumsum(counts ** 0.75 / (counts ** 0.75).sum(), 0)
    noise_cdf[-1] = 1.0  # no rounding gap above the last word

    model = CBOW(vocab_size, config.embedding_dim)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    num_examples = num_sentences * length
    steps_per_epoch = math.ceil(num_examples / config.batch_size)
    num_steps = config.epochs * steps_per_epoch
    bar = progress_bar(total=num_steps, desc="CBOW", disable=not progress)
    losses, step = [], 0
    for _ in range(config.epochs):
        order = torch.randperm(num_examples, generator=generator)
        total = 0.0
        for batch in order.split(config.batch_size):
            fraction = step / max(1, num_steps - 1)
            for group in optimizer.param_groups:
                group["lr"] = config.learning_rate * (1 - (1 - config.final_lr_fraction) * fraction)
            row, position = batch // length, batch % length
            centre = sentences[row, position]
            where = position.unsqueeze(1) + offsets
            inside = (where >= 0) & (where < length)
            context = sentences[row.unsqueeze(1), where.clamp(0, length - 1)]
            context = torch.where(inside, context, model.padding)
            # Inverse-CDF sampling: faster than torch.multinomial, the same distribution.
            uniform = torch.rand(len(batch), config.negatives, generator=generator,
                                 dtype=torch.float64)
            noise = torch.searchsorted(noise_cdf, uniform)
            loss = model(context, centre, noise)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(batch)
            step += 1
            bar.update(1)
        losses.append(total / num_examples)
        bar.set_postfix(loss=f"{losses[-1]:.3f}")
    bar.close()
    return {"vocab": np.array(corpus.vocab),
            "vectors": model.input_vectors.weight[:vocab_size].detach().numpy().astype(np.float32),
            "losses": np.array(losses)}


# --------------------------------------------------------------------------------------------
# Compounds and their vectors
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompoundRating:
    """One row of Reddy et al. (2011): mean and standard deviation of the human judgments.

    Ratings are on a 0-5 scale: how literally the compound uses ``word1`` (``word1_*``), uses
    ``word2`` (``word2_*``), and how literal the compound is as a whole (``compound_*``), the
    compositionality that Andreas (2019) correlates with TRE.
    """

    word1: str
    word2: str
    word1_mean: float
    word1_std: float
    word2_mean: float
    word2_std: float
    compound_mean: float
    compound_std: float

    @property
    def compositionality(self) -> float:
        """The rated literality of the whole compound (``compound_mean``)."""
        return self.compound_mean


@dataclass
class CompoundVectors:
    """For each compound found in the embeddings, the three vectors TRE needs.

    ``word1[i]``, ``word2[i]`` and ``compound[i]`` are the vectors of ``compounds[i]``'s two
    words and of its joined token; ``compositionality[i]`` its planted or rated
    compositionality. ``missing`` lists the compounds left out because one of the three tokens
    has no vector.
    """

    compounds: list[tuple[str, str]]
    word1: np.ndarray
    word2: np.ndarray
    compound: np.ndarray
    compositionality: np.ndarray
    missing: list[tuple[str, str]]

    def __len__(self) -> int:
        return len(self.compounds)


def compound_vectors(vectors: WordVectors, compounds: Iterable[Bigram | CompoundRating],
                     joiner: str = "_") -> CompoundVectors:
    """Gather the word, word and compound vectors of each compound present in ``vectors``.

    Parameters
    ----------
    vectors : WordVectors
        Trained (:func:`train_cbow`) or read (:func:`read_vec`) embeddings.
    compounds : iterable of Bigram or CompoundRating
        Anything with ``word1``, ``word2`` and ``compositionality``.
    joiner : str
        How the compound's token joins its words: ``word1 + joiner + word2``.

    Returns
    -------
    CompoundVectors
        In the order of ``compounds``, without those missing from the vocabulary.
    """
    found, missing, rows = [], [], []
    for item in compounds:
        token = f"{item.word1}{joiner}{item.word2}"
        if all(word in vectors for word in (item.word1, item.word2, token)):
            found.append((item.word1, item.word2))
            rows.append((vectors[item.word1], vectors[item.word2], vectors[token],
                         float(item.compositionality)))
        else:
            missing.append((item.word1, item.word2))
    if not rows:
        empty = np.zeros((0, vectors.dim), dtype=vectors.vectors.dtype)
        return CompoundVectors([], empty, empty.copy(), empty.copy(), np.zeros(0), missing)
    word1, word2, compound, score = zip(*rows)
    return CompoundVectors(found, np.stack(word1), np.stack(word2), np.stack(compound),
                           np.array(score), missing)


def cosine_to_sum(data: CompoundVectors) -> np.ndarray:
    """Cosine similarity between each compound's vector and the sum of its words' vectors.

    A baseline with the word vectors held fixed (Reddy et al. 2011's additive model); TRE
    (:mod:`tutorlib.tre`) instead fits the primitives' vectors.
    """
    total = data.word1 + data.word2
    numerator = (total * data.compound).sum(1)
    norms = np.linalg.norm(total, axis=1) * np.linalg.norm(data.compound, axis=1)
    return numerator / np.maximum(norms, 1e-12)


# --------------------------------------------------------------------------------------------
# Files of the real setting
# --------------------------------------------------------------------------------------------


def write_vec(path: str | os.PathLike, vectors: WordVectors) -> Path:
    """Write ``vectors`` in word2vec text format (9 significant digits: float32 round-trips)."""
    path = Path(path)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"{len(vectors)} {vectors.dim}\n")
        for word, row in zip(vectors.vocab, vectors.vectors):
            handle.write(word + " " + " ".join(f"{v:.9g}" for v in row.tolist()) + "\n")
    return path


def read_vec(path: str | os.PathLike, words: Iterable[str] | None = None) -> WordVectors:
    """Read word vectors in word2vec text format.

    The first line is ``count dim``; each of the next ``count`` lines is a word and ``dim``
    numbers, separated by whitespace.

    Parameters
    ----------
    path : path
        The ``.vec`` / ``.txt`` file.
    words : iterable of str, optional
        Keep only these words (the file is still checked throughout). Useful for the few
        hundred tokens a compound study needs out of a file of millions.

    Raises
    ------
    ValueError
        Naming the line: a bad header, a line with the wrong number of values, a value that is
        not a finite number, a repeated word, or fewer or more vectors than announced.
    """
    path = Path(path)
    wanted = set(words) if words is not None else None
    vocab: list[str] = []
    rows: list[np.ndarray] = []
    first_seen: dict[str, int] = {}
    with open(path, encoding="utf-8") as handle:
        header = handle.readline().split()
        if len(header) != 2 or not all(h.isdigit() for h in header) or int(header[1]) < 1:
            raise ValueError(f"{path}, line 1: expected a header 'count dim' of two integers "
                             f"(dim >= 1), got {' '.join(header)!r}")
        count, dim = int(header[0]), int(header[1])
        seen = 0
        for number, line in enumerate(handle, start=2):
            fields = line.split()
            if not fields:
                continue
            if seen == count:
                raise ValueError(f"{path}, line {number}: more vectors than the {count} "
                                 f"announced on line 1")
            if len(fields) != dim + 1:
                raise ValueError(f"{path}, line {number}: expected a word and {dim} values, "
                                 f"got {len(fields) - 1} values")
            word = fields[0]
            if word in first_seen:
                raise ValueError(f"{path}, line {number}: word {word!r} repeated (first on "
                                 f"line {first_seen[word]})")
            first_seen[word] = number
            try:
                row = np.array(fields[1:], dtype=np.float32)
            except ValueError:
                bad = next(v for v in fields[1:] if not _is_number(v))
                raise ValueError(f"{path}, line {number}: value {bad!r} is not a number") from None
            if not np.isfinite(row).all():
                raise ValueError(f"{path}, line {number}: values must be finite")
            seen += 1
            if wanted is None or word in wanted:
                vocab.append(word)
                rows.append(row)
    if seen < count:
        raise ValueError(f"{path}: line 1 announces {count} vectors but the file has {seen}")
    matrix = np.stack(rows) if rows else np.zeros((0, dim), dtype=np.float32)
    return WordVectors(vocab, matrix)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


_POS_TAG = re.compile(r"-[a-z]$")


def read_compound_ratings(path: str | os.PathLike) -> list[CompoundRating]:
    """Read compound compositionality ratings in the layout of Reddy et al. (2011).

    The public release (``MeanAndDeviations.clean.txt``) has a header line starting with
    ``#`` and one line per compound: the compound as two part-of-speech-tagged words
    (``ivory-n tower-n``), a tab, then whitespace-separated numbers: mean and standard
    deviation of the ratings for word 1, for word 2 and for the whole compound, and a seventh
    column, the product of the two word means, which is not read. Here the seventh column is
    optional, the tab may be any whitespace (then the compound is the first two fields), the
    tags are optional (a final ``-x`` of one letter is removed), and lines starting with ``#``
    and blank lines are skipped.

    Raises
    ------
    ValueError
        Naming the line: a compound that is not two words, the wrong number of values, a value
        that is not a finite number, or a negative standard deviation.
    """
    path = Path(path)
    ratings = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if "\t" in line:
                compound, _, rest = line.partition("\t")
                words, values = compound.split(), rest.split()
            else:
                fields = line.split()
                words, values = fields[:2], fields[2:]
            if len(words) != 2:
                raise ValueError(f"{path}, line {number}: the compound must be two words, "
                                 f"got {' '.join(words)!r}")
            if len(values) not in (6, 7):
                raise ValueError(f"{path}, line {number}: expected 6 values (mean and std for "
                                 f"word 1, word 2 and the compound) and an optional seventh, "
                                 f"got {len(values)}")
            try:
                numbers = [float(v) for v in values[:6]]
            except ValueError:
                bad = next(v for v in values[:6] if not _is_number(v))
                raise ValueError(f"{path}, line {number}: value {bad!r} is not a number") from None
            if not all(math.isfinite(v) for v in numbers):
                raise ValueError(f"{path}, line {number}: values must be finite")
            if min(numbers[1::2]) < 0:
                raise ValueError(f"{path}, line {number}: standard deviations must be >= 0")
            word1, word2 = (_POS_TAG.sub("", w) for w in words)
            ratings.append(CompoundRating(word1, word2, *numbers))
    return ratings
