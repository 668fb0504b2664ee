"""Compounds and their vectors: the ``tre_judgments`` study (Andreas 2019, Sec. 5), and its
sweep (``python -m tutorlib run tre_judgments``: one generated corpus per seed).

For each compound, the vectors of its two words and of its own token, with its planted (or
rated) compositionality; TRE of the additive composition (:func:`compound_tre`) against
those judgments; and readers of the real setting's files (word2vec text format, Reddy et
al.'s ratings).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tutorlib import results
from tutorlib.profiles import Settings
from tutorlib.tre.corpora import Bigram
from tutorlib.tre.solver import tre
from tutorlib.tre.wordvec import WordVectors, is_number


@dataclass(frozen=True)
class JudgmentsSettings(Settings):
    """Settings of the chapter "Compositionality and human judgments" (Andreas 2019, Sec. 5).

    CBOW vectors (``epochs``) of generated corpora (one per seed of ``corpus_seeds``) with
    ``num_topics`` topics and ``num_bigrams`` compounds of planted compositionality; TRE is
    fitted for ``steps`` steps.
    """

    corpus_seeds: list[int]
    num_topics: int
    num_bigrams: int
    sentences_per_word: int
    sentences_per_bigram: int
    epochs: int
    steps: int


SETTINGS: dict[str, JudgmentsSettings] = {
    "ci": JudgmentsSettings(corpus_seeds=[0], num_topics=6, num_bigrams=12, sentences_per_word=60,
                            sentences_per_bigram=90, epochs=1, steps=200),
    "tutorial": JudgmentsSettings(corpus_seeds=[0], num_topics=16, num_bigrams=48,
                                  sentences_per_word=400, sentences_per_bigram=600, epochs=3,
                                  steps=800),
    "full": JudgmentsSettings(corpus_seeds=[0, 1, 2, 3, 4], num_topics=16, num_bigrams=48,
                               sentences_per_word=400, sentences_per_bigram=600, epochs=3,
                               steps=1500),
}

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
                bad = next(v for v in values[:6] if not is_number(v))
                raise ValueError(f"{path}, line {number}: value {bad!r} is not a number") from None
            if not all(math.isfinite(v) for v in numbers):
                raise ValueError(f"{path}, line {number}: values must be finite")
            if min(numbers[1::2]) < 0:
                raise ValueError(f"{path}, line {number}: standard deviations must be >= 0")
            word1, word2 = (_POS_TAG.sub("", w) for w in words)
            ratings.append(CompoundRating(word1, word2, *numbers))
    return ratings


def compound_tre(data, steps: int = 1000, distance: str = "cosine") -> np.ndarray:
    """TRE of every compound of ``data`` (a :class:`CompoundVectors`), Sec. 5.

    The inputs are the compounds' words, each its own primitive derivation with its own vector,
    and the compounds, derivation ``(word1, word2)`` with the vector of their joined token. The
    fit (additive composition) learns one vector per word that must serve both as the word and
    as a part of its compounds; a compound that its words' vectors add up to has low TRE.
    Returns TRE(x) of the compounds, in ``data``'s order.
    """
    if len(data) == 0:
        raise ValueError("no compounds: every compound's word or token is missing from the vectors")
    vectors: dict[str, np.ndarray] = {}
    for (first, second), v1, v2 in zip(data.compounds, data.word1, data.word2):
        vectors.setdefault(first, v1)
        vectors.setdefault(second, v2)
    words = list(vectors)
    representations = np.concatenate([np.stack([vectors[w] for w in words]), data.compound])
    derivations = words + list(data.compounds)
    fit = tre(representations, derivations, "additive", distance, steps=steps)
    return fit.per_datum[len(words):]


# --------------------------------------------------------------------------------------------
# The sweep: ``python -m tutorlib run tre_judgments``
# --------------------------------------------------------------------------------------------

#: Andreas (2019, Sec. 5): Spearman's rho between TRE and Reddy et al.'s human ratings.
PAPER = {"spearman rho(TRE, ratings)": -0.34}


def runs(settings: JudgmentsSettings) -> list[tuple[dict, int]]:
    """One run per corpus seed: the corpus, its CBOW vectors and its compounds' TRE."""
    config = {k: v for k, v in settings.to_dict().items() if k != "corpus_seeds"}
    return [(config, seed) for seed in settings["corpus_seeds"]]


def run_one(config: dict, seed: int, device: str = "cpu") -> dict:
    """One generated corpus (seed ``seed``): Spearman's rho between its compounds' TRE and
    their planted compositionality, and of the plain cosine to the sum of the words."""
    from tutorlib.stats import spearman
    from tutorlib.tre import corpora, wordvec

    corpus = corpora.make_corpus(corpora.CorpusConfig(
        num_topics=config["num_topics"], num_bigrams=config["num_bigrams"],
        sentences_per_word=config["sentences_per_word"],
        sentences_per_bigram=config["sentences_per_bigram"], seed=seed))
    vectors = wordvec.train_cbow(corpus, wordvec.CBOWConfig(epochs=config["epochs"]),
                                 device=device)
    data = compound_vectors(vectors, corpus.bigrams)
    per_compound = compound_tre(data, steps=config["steps"])
    return {"seed": seed, "compounds": len(data),
            "rho": spearman(per_compound, data.compositionality),
            "rho cosine to sum": spearman(cosine_to_sum(data), data.compositionality)}


def summarise(settings: JudgmentsSettings, finished: list[dict]) -> dict:
    """The mean rho over the finished corpora with its 95% t interval, and the published one."""
    from tutorlib.stats import mean_interval

    if not finished:
        return {"rho": None, "published": PAPER}
    mean, low, high = mean_interval([r["rho"] for r in finished])
    return {"rho": {"mean": mean, "low": low, "high": high, "corpora": len(finished)},
            "published": PAPER}


EXPERIMENT = results.Experiment(name="tre_judgments", runs=runs, run=run_one, summarise=summarise)


def committed_rhos(profile: str = "full") -> list[float]:
    """Each committed corpus's rho at ``profile`` (empty if none is committed)."""
    committed = results.committed("tre_judgments", profile)
    return [r["rho"] for r in committed["data"]["runs"]] if committed is not None else []
