"""Andreas (2019), Sec. 7: does the compositionality of an emergent language predict how well
it generalises? Many runs of the reference game (:mod:`tutorlib.refgame`), each scored by TRE
and by the other measures of :mod:`tutorlib.similarity`.

For every run: train the speaker and listener, decode a message for every referent (greedy),
and measure

- the rewards on training and held-out referents and the generalisation gap (train − test);
- TRE of the messages as one-hot strings, with the linear composition and the L1 distance (the
  composition's parameters start afresh in every run), over all referents;
- topographic similarity (Hamming distances of attributes and of messages), positional and
  bag-of-symbols disentanglement and context independence.

``python -m tutorlib run tre --profile paper`` runs the profile's seeds resumably into
``results/tre/``; the chapter plots the committed runs.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from tutorlib import profiles, refgame, similarity, tre
from tutorlib.results import RunStore, project_results, read_results, run_resumable

LETTERS = "abcdefghijklmnopqrstuvwxyz"

# Andreas (2019), Sec. 7, over 100 runs
PAPER = {"runs": 100, "r(TRE, generalisation gap)": 0.50, "r(TRE, absolute reward)": 0.57,
         "Fig. 6 TRE pair": (4.30, 2.96)}


def game_config(settings: dict, seed: int) -> refgame.GameConfig:
    """The reference game a profile's ``tre_generalisation`` settings describe, for ``seed``."""
    return refgame.GameConfig(hidden=settings["hidden"], steps=settings["game_steps"], seed=seed,
                              split_seed=settings["split_seed"])


def measure_language(result: refgame.GameResult, tre_steps: int) -> dict:
    """TRE and the other measures of one run's language (messages of every referent)."""
    config = refgame.GameConfig(**result.config)
    one_hot = np.eye(config.vocab_size)[result.messages]  # (referents, length, vocabulary)
    table = refgame.attributes(config)
    scores = {"TRE": tre.tre(one_hot, result.derivations, "linear", "l1", steps=tre_steps).value}
    try:
        scores["topsim"] = similarity.topographic_similarity(table, result.messages,
                                                             "hamming", "hamming")
    except ValueError:  # a language with one message for everything: no correlation exists
        scores["topsim"] = float("nan")
    scores["posdis"] = similarity.posdis(table, result.messages)
    scores["bosdis"] = similarity.bosdis(table, result.messages, config.vocab_size)
    scores["context independence"] = similarity.context_independence(table, result.messages)
    return scores


def generalisation_run(settings: dict, seed: int) -> dict:
    """One reference game and its measurements, as a JSON-friendly record."""
    start = time.perf_counter()
    result = refgame.train_game(game_config(settings, seed))
    record = {"seed": seed, "train reward": result.train_reward, "test reward": result.test_reward,
              "gap": result.gap, "train accuracy": result.train_accuracy,
              "test accuracy": result.test_accuracy}
    record.update(measure_language(result, settings["tre_steps"]))
    record["messages"] = ["".join(LETTERS[s] for s in m) for m in result.messages]
    record["seconds"] = time.perf_counter() - start
    return record


def run_experiment(profile: str, out_dir: str | os.PathLike = "results") -> Path:
    """``python -m tutorlib run tre``: the reference-game runs of ``profile``, resumably.

    Each finished seed is saved under ``out_dir/tre/runs`` at once; the summary
    ``out_dir/tre/<profile>.json`` is rewritten after every run.
    """
    settings = profiles.settings("tre_generalisation", profile)
    directory = Path(out_dir) / "tre"
    store = RunStore(directory / "runs")
    config = {k: settings[k] for k in ("hidden", "game_steps", "split_seed", "tre_steps")}
    seeds = list(range(settings["runs"]))

    pairs = [(config, seed) for seed in seeds]

    def write_summary() -> Path:
        return store.write_summary(directory / f"{profile}.json", pairs,
                                   {"settings": settings, "paper": PAPER},
                                   profile=profile, seeds=seeds)

    run_resumable(store, [config], seeds, lambda _, seed: generalisation_run(settings, seed),
                  after_each=write_summary)
    return write_summary()


def committed_runs(profile: str = "paper"):
    """The runs of ``results/tre/<profile>.json`` as a DataFrame (empty if there are none)."""
    import pandas as pd

    path = project_results("tre", f"{profile}.json")
    if not path.exists():
        return pd.DataFrame(columns=["seed", "gap", "TRE"])
    return pd.DataFrame(read_results(path)["data"]["runs"])


def compound_tre(data, steps: int = 1000, distance: str = "cosine") -> np.ndarray:
    """TRE of every compound of ``data`` (a :class:`tutorlib.wordvec.CompoundVectors`), Sec. 5.

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
    fit = tre.tre(representations, derivations, "additive", distance, steps=steps)
    return fit.per_datum[len(words):]
