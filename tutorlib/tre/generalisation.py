"""Andreas (2019), Sec. 7: does the compositionality of an emergent language predict how well
it generalises? Many runs of the reference game (:mod:`tutorlib.tre.refgame`), each scored by TRE
and by the other measures of :mod:`tutorlib.tre.measures`.

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

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from tutorlib import fit, results
from tutorlib.profiles import Settings
from tutorlib.train import progress_bar
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
    # the book trains one game live (seed 0) and shows the many-game correlations from the
    # committed full-profile runs that pass the fit gate; 1,000 steps, since at the full
    # profile's 500 seed 0 fits 65% of its training referents and at 1,000 98.8 to 99.8% (the
    # last digits depend on the machine and thread count; issue 67, 82 s on one core)
    "tutorial": GeneralisationSettings(runs=1, hidden=256, game_steps=1000, split_seed=0,
                                       tre_steps=600),
    "full": GeneralisationSettings(runs=100, hidden=256, game_steps=500, split_seed=0,
                                    tre_steps=1000),
}

# Andreas (2019), Sec. 7, over 100 runs: r(TRE, gap); r(TRE, reward), positive, so the more
# compositional (lower TRE) languages also get a lower absolute reward; r(TRE, gap) over the
# successful runs only (held-out reward above 0.5)
PAPER = {"runs": 100, "r(TRE, generalisation gap)": 0.50, "r(TRE, absolute reward)": 0.57,
         "r(TRE, generalisation gap), successful runs": 0.60, "successful test reward": 0.5,
         "Fig. 6 TRE pair": (4.30, 2.96)}


def game_config(settings: dict, seed: int) -> refgame.GameConfig:
    """The reference game a profile's ``tre_generalisation`` settings describe, for ``seed``."""
    return refgame.GameConfig(hidden=settings["hidden"], steps=settings["game_steps"], seed=seed,
                              split_seed=settings["split_seed"])


def measure_language(result: refgame.GameResult, tre_steps: int) -> dict:
    """TRE and the other measures of one run's language (messages of every referent)."""
    config = refgame.GameConfig(**result.config)
    one_hot = np.eye(config.vocab_size)[result.messages]  # (referents, length, vocabulary)
    scores = {"TRE": tre(one_hot, result.derivations, "linear", "l1", steps=tre_steps).value}
    scores.update(other_measures(result))
    return scores


def other_measures(result: refgame.GameResult) -> dict:
    """The measures of :mod:`tutorlib.tre.measures` other than TRE for one run's language:
    topographic similarity, posdis, bosdis and context independence."""
    config = refgame.GameConfig(**result.config)
    table = refgame.attributes(config)
    scores = {}
    try:
        scores["topsim"] = measures.topographic_similarity(table, result.messages,
                                                             "hamming", "hamming")
    except ValueError:  # a language with one message for everything: no correlation exists
        scores["topsim"] = float("nan")
    scores["posdis"] = measures.posdis(table, result.messages)
    scores["bosdis"] = measures.bosdis(table, result.messages, config.vocab_size)
    scores["context independence"] = measures.context_independence(table, result.messages)
    return scores


def generalisation_run(settings: dict, seed: int, device: str = "cpu") -> dict:
    """One reference game, trained on ``device``, and its measurements, as a JSON-friendly
    record."""
    start = time.perf_counter()
    result = refgame.train_game(game_config(settings, seed), device=device)
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
    """One reference game of the sweep, trained on ``device``, and its measurements."""
    return generalisation_run(config, seed, device=device)


def summarise(settings: GeneralisationSettings, finished: list[dict]) -> dict:
    """The published numbers (:data:`PAPER`) beside the runs."""
    return {"published": PAPER}


EXPERIMENT = results.Experiment(name="tre_generalisation", runs=runs, run=run_one,
                                summarise=summarise)


# ---------------------------------------------------------------------------------------------
# The same languages measured three ways


class ReleaseComposition(nn.Module):
    """The composition of the paper's released reference game: ``A x + a + B y + b``, where
    ``A`` and ``B`` mix a message's positions and ``a`` and ``b`` add one learned number per
    position (two ``Linear(length, length)`` layers with bias, applied along the position axis
    of a ``(length, vocabulary)`` one-hot message). Its starting point is PyTorch's default
    initialisation of those layers, drawn from ``seed`` (the release draws it once, from the
    notebook's global seed, and never re-initialises it between languages; we draw it afresh
    for every language, so that each measurement starts from the same kind of point).
    """

    def __init__(self, length: int, seed: int):
        super().__init__()
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.left = nn.Linear(length, length)
            self.right = nn.Linear(length, length)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        # (n, length, vocabulary): mix positions, add each position's bias to every symbol
        left = self.left(x.transpose(1, 2)).transpose(1, 2)
        right = self.right(y.transpose(1, 2)).transpose(1, 2)
        return left + right


# How each protocol measures a language: the committed runs' TRE is "converged (L1)".
TRE_PROTOCOLS = ("converged (L1)", "release (L1)", "converged (L2)")


def tre_protocols(messages: list[str], config: refgame.GameConfig, steps: int = 1000,
                  seed: int = 0) -> dict[str, float]:
    """TRE of one language (a message string per referent, letters ``a`` ...) three ways.

    - ``"converged (L1)"``: this book's measure, as committed (linear composition, L1 distance,
      the converged solver): bounded above by the message length (the zero reconstruction).
    - ``"release (L1)"``: the paper's protocol as its released code runs it
      (``protocol="release"``: RMSprop at a constant 0.01 on the summed L1 distance for
      ``steps`` steps from zero primitives, errors before the last update), with the release's
      composition (:class:`ReleaseComposition`, drawn from ``seed``) and its message layout
      (two extra symbol rows, for the start and padding symbols no message contains).
    - ``"converged (L2)"``: the converged solver with the Euclidean distance, whose best fit is
      a mean rather than a median, so that partial structure lowers it instead of leaving the
      zero reconstruction optimal.
    """
    symbols = np.array([[LETTERS.index(c) for c in m] for m in messages])
    derivations = refgame.referents(config)
    if symbols.shape != (len(derivations), config.message_length):
        raise ValueError(f"expected {len(derivations)} messages of {config.message_length} "
                         f"symbols, got an array of shape {symbols.shape}")
    one_hot = np.eye(config.vocab_size)[symbols]
    release_hot = np.eye(config.vocab_size + 2)[symbols]
    return {
        "converged (L1)": tre(one_hot, derivations, "linear", "l1", steps=steps).value,
        "release (L1)": tre(release_hot, derivations,
                            ReleaseComposition(config.message_length, seed), "l1",
                            steps=steps, protocol="release").value,
        "converged (L2)": tre(one_hot, derivations, "linear", "l2", steps=steps).value,
    }


def remeasure_committed(profile: str = "full", path: str | Path | None = None) -> dict:
    """Measure every committed language of ``profile`` under :data:`TRE_PROTOCOLS` and write
    ``results/tre_generalisation/protocols-<profile>.json`` (or ``path``): one record per run
    (its seed and the three TREs), with the rewards and gap beside them. A language's
    release-protocol composition is drawn from the run's seed. The file is rewritten after
    every language, and languages already in it are not measured again, so a stopped
    re-measurement resumes where it stopped."""
    profile = results.check_profile(profile)
    committed = results.committed("tre_generalisation", profile)
    if committed is None or not committed["data"].get("runs"):
        raise ValueError(f"no committed tre_generalisation runs at profile {profile!r}")
    settings = committed["data"]["settings"]
    out = Path(path) if path is not None else results.project_results(
        "tre_generalisation", f"protocols-{profile}.json")
    done = {row["seed"]: row for row in
            (json.loads(out.read_text())["runs"] if out.exists() else [])}
    for run in progress_bar(committed["data"]["runs"], desc="re-measuring languages"):
        if run["seed"] in done:
            continue
        scores = tre_protocols(run["messages"], game_config(settings, run["seed"]),
                               steps=settings["tre_steps"], seed=run["seed"])
        done[run["seed"]] = {"seed": run["seed"],
                             **{k: run[k] for k in ("train reward", "test reward", "gap")},
                             **scores}
        out.write_text(json.dumps({"protocols": list(TRE_PROTOCOLS),
                                   "runs": list(done.values())}, indent=1))
    return {"protocols": list(TRE_PROTOCOLS), "runs": list(done.values())}


def committed_protocols(profile: str = "full"):
    """The committed re-measurements of :func:`remeasure_committed` as a DataFrame (a row per
    run: seed, rewards, gap and one column per protocol of :data:`TRE_PROTOCOLS`), empty if
    none are committed."""
    import pandas as pd

    path = results.project_results("tre_generalisation",
                                   f"protocols-{results.check_profile(profile)}.json")
    if not path.exists():
        return pd.DataFrame(columns=["seed", *TRE_PROTOCOLS])
    return pd.DataFrame(json.loads(path.read_text())["runs"])


def committed_runs(profile: str = "full"):
    """The committed runs of ``results/tre_generalisation/<profile>.json`` as a DataFrame."""
    return results.committed_runs("tre_generalisation", profile, columns=["seed", "gap", "TRE"])


def passes_gate(runs):
    """Which runs (rows with ``train accuracy``) pass the fit gate (:func:`tutorlib.fit.passes`)
    on their training referents, as a boolean Series. There is no in-distribution bar: the
    held-out referents are what the experiment measures (selecting runs by them would select by
    the outcome), and the paper reports no accuracy to set one."""
    import pandas as pd

    return pd.Series([fit.passes(float(a)) for a in runs["train accuracy"]], index=runs.index,
                     dtype=bool)


def fitted_runs(profile: str = "full"):
    """The committed runs of ``profile`` that pass the fit gate (:func:`passes_gate`)."""
    committed = committed_runs(profile)
    return committed[passes_gate(committed)] if len(committed) else committed


if __name__ == "__main__":  # python -m tutorlib.tre.generalisation [PROFILE]
    import sys

    written = remeasure_committed(*sys.argv[1:2])
    print(f"re-measured {len(written['runs'])} languages under {', '.join(TRE_PROTOCOLS)}")
