"""The TRE studies' experiment code: per-compound TRE, language measures, the resumable runner."""

import json

import numpy as np
import pytest

from tutorlib import results
from tutorlib.tre import generalisation, judgments, refgame


def compound_data(noise_of_idiom: float):
    """Four words, four compounds; the last compound's vector is unrelated to its words."""
    rng = np.random.default_rng(0)
    words = {w: rng.normal(size=6) for w in ["ab", "cd", "ef", "gh"]}
    pairs = [("ab", "cd"), ("cd", "ef"), ("ef", "gh"), ("gh", "ab")]
    compound = np.stack([words[a] + words[b] for a, b in pairs])
    compound[3] = noise_of_idiom * rng.normal(size=6)
    return judgments.CompoundVectors(pairs, np.stack([words[a] for a, _ in pairs]),
                                   np.stack([words[b] for _, b in pairs]), compound,
                                   np.array([1.0, 1.0, 1.0, 0.0]), [])


def test_compound_tre_singles_out_the_idiom():
    per_compound = judgments.compound_tre(compound_data(3.0), steps=600)
    assert per_compound.shape == (4,)
    assert int(np.argmax(per_compound)) == 3
    assert per_compound[3] > 3 * per_compound[:3].max()


def test_compound_tre_needs_compounds():
    empty = judgments.CompoundVectors([], np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)),
                                    np.zeros(0), [("a", "b")])
    with pytest.raises(ValueError, match="no compounds"):
        judgments.compound_tre(empty)


def test_measure_language_of_a_hand_made_compositional_language():
    config = refgame.GameConfig(num_colours=3, num_shapes=3)
    table = refgame.attributes(config)
    messages = table + np.array([0, 5, 0, 5])  # colour symbols 0-2, shape symbols 5-7
    result = refgame.GameResult(config.to_dict(), 1.0, 1.0, 0.0, 1.0, 1.0, messages,
                                refgame.referents(config), np.zeros(len(table), bool),
                                np.ones(len(table)), np.zeros(1))
    scores = generalisation.measure_language(result, tre_steps=600)
    assert scores["TRE"] < 0.05
    assert scores["posdis"] == pytest.approx(1.0) and scores["topsim"] == pytest.approx(1.0)
    # both objects share the colour symbols, so a symbol's count is about two attributes
    assert scores["bosdis"] < 0.5


def test_run_experiment_is_resumable_and_summarised(tmp_path):
    path = results.run_experiment("tre_generalisation", "ci", tmp_path, progress=False)
    summary = json.loads(path.read_text())
    runs = summary["data"]["runs"]
    assert summary["data"]["complete"] and len(runs) == 2
    # the paper's numbers are stored as "published" (our own runs are the profiles')
    assert summary["data"]["published"]["r(TRE, generalisation gap)"] == 0.50
    assert {"TRE", "gap", "topsim", "posdis", "bosdis", "messages"} <= set(runs[0])
    assert len(runs[0]["messages"]) == 625 and len(runs[0]["messages"][0]) == 4
    first = sorted((tmp_path / "tre_generalisation" / "runs").iterdir())
    # nothing left to run: nothing rewritten
    results.run_experiment("tre_generalisation", "ci", tmp_path, progress=False)
    assert sorted((tmp_path / "tre_generalisation" / "runs").iterdir()) == first
