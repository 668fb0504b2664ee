"""Word vectors: CBOW word2vec with negative sampling (Mikolov et al. 2013) in torch, cached.

Trained on the generated corpus of :mod:`tutorlib.tre.corpora` for the chapter on human
judgments (Andreas 2019, Sec. 5).
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from tutorlib.cache import cached
from tutorlib.checks import check_scalar
from tutorlib.stats import cosine
from tutorlib.train import linear_decay, progress_bar, resolve_device, seed_everything
from tutorlib.tre.corpora import Corpus

# Bump when the code below changes what it computes, so that cached results of the old code
# are not reused (tutorlib.cache).
CACHE_FORMAT = 1

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
        return cosine(self[a], self[b])


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
            check_scalar(getattr(self, name), name, int, min_val=1)
        check_scalar(self.seed, "seed", int, min_val=0)
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
               progress: bool = False, device: str | torch.device = "cpu") -> WordVectors:
    """Train CBOW word2vec on ``corpus`` and return its input vectors (word2vec's output).

    Every position of every sentence is one example; its context is up to ``window`` words on
    either side within the sentence. Results are cached (:func:`tutorlib.cache.cached`, name
    ``"cbow"``) under a hash of the corpus and the full ``config``.

    Parameters
    ----------
    corpus : Corpus
        From :func:`tutorlib.tre.corpora.make_corpus`.
    config : CBOWConfig, optional
        Hyperparameters; defaults train the default corpus in about half a minute on one thread.
    progress : bool
        Show a progress bar.
    device : str or torch.device
        Where to train (:func:`tutorlib.train.resolve_device`); ``"cpu"`` is bit-reproducible.
    """
    config = config or CBOWConfig()
    if corpus.sentences.ndim != 2 or corpus.sentences.shape[1] < 2:
        raise ValueError(f"corpus.sentences must be a (num_sentences, length >= 2) array, "
                         f"got shape {corpus.sentences.shape}")
    key = {"corpus": corpus_digest(corpus), "cbow": asdict(config)}
    where = resolve_device(device)
    arrays = cached("cbow", key, lambda: _train_cbow(corpus, config, progress, where),
                    format=CACHE_FORMAT)
    return WordVectors(arrays["vocab"].tolist(), arrays["vectors"], arrays["losses"].tolist())


def _train_cbow(corpus: Corpus, config: CBOWConfig, progress: bool,
                on: torch.device) -> dict[str, np.ndarray]:
    generator = seed_everything(config.seed)
    # the corpus moves to the device once; the random draws stay on the CPU's generator, so
    # every device sees the same batches
    sentences = torch.as_tensor(corpus.sentences, dtype=torch.long).to(on)
    num_sentences, length = sentences.shape
    vocab_size = len(corpus.vocab)
    offsets = torch.tensor([o for o in range(-config.window, config.window + 1) if o != 0],
                           device=on)
    counts = torch.bincount(sentences.flatten(), minlength=vocab_size).double()
    noise_cdf = torch.cumsum(counts ** 0.75 / (counts ** 0.75).sum(), 0)
    noise_cdf[-1] = 1.0  # no rounding gap above the last word

    model = CBOW(vocab_size, config.embedding_dim).to(on)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    num_examples = num_sentences * length
    steps_per_epoch = math.ceil(num_examples / config.batch_size)
    num_steps = config.epochs * steps_per_epoch
    bar = progress_bar(total=num_steps, desc="CBOW", disable=not progress)
    losses, step = [], 0
    for _ in range(config.epochs):
        order = torch.randperm(num_examples, generator=generator)
        total = 0.0
        for batch in order.to(on).split(config.batch_size):
            for group in optimizer.param_groups:
                group["lr"] = linear_decay(config.learning_rate, config.final_lr_fraction, step,
                                           num_steps)
            row, position = batch // length, batch % length
            centre = sentences[row, position]
            where = position.unsqueeze(1) + offsets
            inside = (where >= 0) & (where < length)
            context = sentences[row.unsqueeze(1), where.clamp(0, length - 1)]
            context = torch.where(inside, context, model.padding)
            # Inverse-CDF sampling: faster than torch.multinomial, the same distribution.
            uniform = torch.rand(len(batch), config.negatives, generator=generator,
                                 dtype=torch.float64).to(on)
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
            "vectors": model.input_vectors.weight[:vocab_size].detach().cpu().numpy().astype(np.float32),
            "losses": np.array(losses)}


# --------------------------------------------------------------------------------------------
# The word2vec text format (for vectors trained elsewhere, e.g. on Gigaword)
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
                bad = next(v for v in fields[1:] if not is_number(v))
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


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
