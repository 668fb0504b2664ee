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

``python -m tutorlib run tre_generalisation --profile full`` runs the profile's seeds resumably
into ``results/tre_generalisation/``; the chapter plots the committed runs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from tutorlib import results
from tutorlib.profiles import Settings
from tutorlib.tre import measures, refgame
from tutorlib.tre.solver import tre

LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class GeneralisationSettings(Settings):
    """Settings of the ``tre_generalisation`` experiment (Andreas 2019, Sec. 7).

    ``runs`` reference games (seeds ``0 .. runs - 1``) with ``hidden`` units trained for
    ``game_steps`` steps; ``split_seed`` fixes one held-out third of the referents for every run,
    so that gaps compare; TRE is fitted for ``tre_steps`` steps.
    """

    runs: int
    hidden: int
    game_steps: int
    split_seed: int
    tre_steps: int


SETTINGS: dict[str, GeneralisationSettings] = {
    "ci": GeneralisationSettings(runs=2, hidden=32, game_steps=30, split_seed=0, tre_steps=100),
    # the book trains one game live (seed 0, the paper's setting) and shows the many-game
    # correlations from the committed full-profile runs
    "tutorial": GeneralisationSettings(runs=1, hidden=256, game_steps=500, split_seed=0,
                                       tre_steps=600),
    "full": GeneralisationSettings(runs=100, hidden=256, game_steps=500, split_seed=0,
                                    tre_steps=1000),
}

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
    scores = {"TRE": tre(one_hot, result.derivations, "linear", "l1", steps=tre_steps).value}
    try:
        scores["topsim"] = measures.topographic_similarity(table, result.messages,
                                                             "hamming", "hamming")
    except ValueError:  # a language with one message for everything: no correlation exists
        scores["topsim"] = float("nan")
    scores["posdis"] = measures.posdis(table, result.messages)
    scores["bosdis"] = measures.bosdis(table, result.messages, config.vocab_size)
    scores["context independence"] = measures.context_independence(table, result.messages)
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


def runs(settings: GeneralisationSettings) -> list[tuple[dict, int]]:
    """One run per seed ``0 .. runs - 1``, all with the same settings."""
    config = {k: settings[k] for k in ("hidden", "game_steps", "split_seed", "tre_steps")}
    return [(config, seed) for seed in range(settings["runs"])]


def run_one(config: dict, seed: int, device: str = "cpu") -> dict:
    """One reference game of the sweep and its measurements."""
    return generalisation_run(config, seed)


def summarise(settings: GeneralisationSettings, finished: list[dict]) -> dict:
    """The published numbers (:data:`PAPER`) beside the runs."""
    return {"published": PAPER}


EXPERIMENT = results.Experiment(name="tre_generalisation", runs=runs, run=run_one,
                                summarise=summarise)


def committed_runs(profile: str = "full"):
    """The committed runs of ``results/tre_generalisation/<profile>.json`` as a DataFrame."""
    return results.committed_runs("tre_generalisation", profile, columns=["seed", "gap", "TRE"])
