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


@pytest.mark.slow
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


@pytest.mark.slow
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


# ---------------------------------------------------------------------------------------------
# The same languages measured three ways (generalisation.tre_protocols)

SMALL = refgame.GameConfig(num_colours=3, num_shapes=3)  # 81 referents


def _messages(symbols: np.ndarray) -> list[str]:
    return ["".join(generalisation.LETTERS[s] for s in row) for row in symbols]


def test_release_composition_is_seeded_and_leaves_the_global_generator_alone():
    import torch

    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    a = generalisation.ReleaseComposition(4, seed=5)
    after = torch.rand(3)
    b = generalisation.ReleaseComposition(4, seed=5)
    c = generalisation.ReleaseComposition(4, seed=6)
    assert torch.equal(after, expected)
    assert torch.equal(a.left.weight, b.left.weight) and torch.equal(a.right.bias, b.right.bias)
    assert not torch.equal(a.left.weight, c.left.weight)
    # positions are mixed, and each position's bias reaches every symbol of it
    x = torch.zeros(2, 4, 7)
    out = a(x, x)
    assert out.shape == (2, 4, 7)
    assert torch.allclose(out[0, :, 3], a.left.bias + a.right.bias)


@pytest.mark.slow
def test_protocols_on_a_perfect_and_on_a_random_language():
    table = refgame.attributes(SMALL)
    perfect = generalisation.tre_protocols(_messages(table + np.array([0, 5, 0, 5])), SMALL)
    assert perfect["converged (L1)"] < 0.05 and perfect["converged (L2)"] < 0.05
    assert perfect["release (L1)"] < perfect["converged (L1)"] + 1.0
    noise = np.random.default_rng(0).integers(0, SMALL.vocab_size, (SMALL.num_referents, 4))
    random = generalisation.tre_protocols(_messages(noise), SMALL)
    # L1 saturates: no primitive fixes a symbol in most of its inputs, so the zero
    # reconstruction (distance 4, one per symbol) is optimal
    assert random["converged (L1)"] == pytest.approx(4.0, abs=1e-3)
    # L2 does not: the mean fit beats the zero reconstruction's distance sqrt(4) = 2
    assert random["converged (L2)"] < 2.0 - 0.05
    # the release's unconverged fit lands above the converged minimum
    assert random["release (L1)"] > random["converged (L1)"]


def test_protocols_refuse_messages_that_do_not_fit_the_game():
    with pytest.raises(ValueError, match="expected 81 messages of 4 symbols"):
        generalisation.tre_protocols(["abcd"] * 80, SMALL)


@pytest.mark.slow
def test_committed_protocol_measurements_match_the_committed_runs():
    path = results.project_results("tre_generalisation", "protocols-full.json")
    committed = results.committed("tre_generalisation", "full")
    assert committed is not None and path.exists(), \
        "the reference games and their re-measurement are committed"
    runs = {r["seed"]: r for r in committed["data"]["runs"]}
    measured = json.loads(path.read_text())
    assert measured["protocols"] == list(generalisation.TRE_PROTOCOLS)
    assert sorted(r["seed"] for r in measured["runs"]) == sorted(runs)
    for row in measured["runs"]:
        assert row["converged (L1)"] == pytest.approx(runs[row["seed"]]["TRE"], abs=1e-6)
        assert row["gap"] == runs[row["seed"]]["gap"]
    # one language measured again, under every protocol
    row = measured["runs"][0]
    settings = committed["data"]["settings"]
    again = generalisation.tre_protocols(
        runs[row["seed"]]["messages"], generalisation.game_config(settings, row["seed"]),
        settings["tre_steps"], seed=row["seed"])
    # the converged protocols agree to the rounding of the CPU (a few 1e-6 between AVX2 and
    # AVX-512 kernels); the release's RMSprop at a constant rate on the L1 distance never settles,
    # so where the CPU rounds differently its value after 1,000 steps moves by up to about 0.1
    # (committed 4.27, re-measured on an AVX-512 machine 4.37; the 100 languages spread 3.80-4.48)
    for name in generalisation.TRE_PROTOCOLS:
        tolerance = 0.15 if name.startswith("release") else 1e-4
        assert again[name] == pytest.approx(row[name], abs=tolerance), name


@pytest.mark.slow
def test_remeasuring_resumes_from_what_is_already_written(tmp_path):
    committed = results.committed("tre_generalisation", "full")
    assert committed is not None, "the 100 reference games are committed"
    runs = committed["data"]["runs"]
    path = tmp_path / "protocols.json"
    # every language but the first already measured (with placeholder numbers)
    placeholder = [{"seed": r["seed"], "train reward": 0.0, "test reward": 0.0, "gap": 0.0,
                    **{name: -1.0 for name in generalisation.TRE_PROTOCOLS}} for r in runs[1:]]
    path.write_text(json.dumps({"protocols": list(generalisation.TRE_PROTOCOLS),
                                "runs": placeholder}))
    written = generalisation.remeasure_committed("full", path=path)
    rows = {row["seed"]: row for row in json.loads(path.read_text())["runs"]}
    assert len(rows) == len(runs) == len(written["runs"])
    assert rows[runs[1]["seed"]]["converged (L1)"] == -1.0  # kept, not measured again
    first = rows[runs[0]["seed"]]
    assert first["converged (L1)"] == pytest.approx(runs[0]["TRE"], abs=1e-6)
    assert first["gap"] == runs[0]["gap"]
