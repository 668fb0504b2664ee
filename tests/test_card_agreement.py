"""The closing chapter's statistics (issue 71): the rule that decides which measures can rank the
networks, tau-b with a bootstrap over networks and seeds, TRE within and across networks, and
divergence within each benchmark, on hand-made rows with known answers."""

import numpy as np
import pandas as pd
import pytest

from tutorlib.card import agreement, geca


def _rows(values, benchmark="scan", score="accuracy", fitted=True):
    """Card rows from {(model, task): [value per seed]}; the test set is named as the task."""
    return [{"model": model, "benchmark": benchmark, "task": task, "test": task, "score": score,
             "value": value, "seed": seed, "fitted": fitted}
            for (model, task), seeds in values.items() for seed, value in enumerate(seeds)]


def _label(task, benchmark="scan"):
    return f"{benchmark} {task}: {task} (accuracy)"


SPREAD = {m: base for m, base in zip("abcde", (0.1, 0.3, 0.5, 0.7, 0.9))}


def test_the_rule_keeps_a_separating_measure_and_says_why_it_drops_the_others():
    rows = _rows({(m, "length"): [v - 0.01, v, v + 0.01] for m, v in SPREAD.items()})
    # four networks on the floor: six tied pairs
    rows += _rows({(m, "jump"): [0.0, 0.0, 0.0] if m != "e" else [0.9, 0.95, 1.0]
                   for m in SPREAD})
    # seeds far wider than the gaps: no pair settled
    rows += _rows({(m, "turn"): [v - 0.3, v + 0.3, v] if i % 2 else [v + 0.3, v - 0.3, v]
                   for i, (m, v) in enumerate(zip(SPREAD, (0.40, 0.42, 0.44, 0.46, 0.48)))})
    rows += _rows({(m, "simple"): [v, v, v] for m, v in SPREAD.items()})
    rows += _rows({(m, "mcd1"): [v, v, v] for m, v in list(SPREAD.items())[:3]})
    measures = [_label(t) for t in ("length", "jump", "turn", "simple", "mcd1")]
    kept, judged = agreement.measure_rule(rows, measures, seeds=3)
    assert kept == [_label("length")]
    why = judged.set_index("measure")["reason"]
    assert why[_label("jump")] == "6 tied pairs of networks at 0% (at most 1)"
    # only the networks whose seeds move together (same parity) are settled: 4 of 10 pairs
    assert why[_label("turn")].startswith("the seeds settle 4 of 10 pairs")
    assert why[_label("simple")] == "in distribution: the fit gate sets the score"
    assert why[_label("mcd1")] == "3 networks fitted on every seed (fewer than 4)"
    assert judged.set_index("measure").loc[_label("length"), "settled"] == 10
    # a network that failed the gate on one seed is not ranked; one short of seeds neither
    failed = [{**r, "fitted": r["model"] != "a" or r["seed"] != 1} for r in rows]
    assert agreement.measure_rule(failed, [_label("length")], seeds=3)[1]["networks"][0] == 4
    assert agreement.measure_rule(rows, [_label("length")], seeds=4)[1]["networks"][0] == 0
    with pytest.raises(ValueError, match="seeds must be a positive integer"):
        agreement.measure_rule(rows, measures, seeds=0)
    with pytest.raises(ValueError, match="no rows for the measures"):
        agreement.measure_rule(rows, ["scan x: x (accuracy)"], seeds=3)


def test_tau_b_by_hand_and_an_interval_that_counts_networks():
    # rankings a<b<c<d<e and a<c<b<d<e: one discordant pair of ten, tau = 8 / 10
    rows = _rows({(m, "x"): [v - 0.001, v, v + 0.001] for m, v in SPREAD.items()})
    rows += _rows({(m, "y"): [v - 0.001, v, v + 0.001] for m, v in
                   zip(SPREAD, (0.1, 0.5, 0.3, 0.7, 0.9))})
    pair = agreement.concurrence(rows, [_label("x"), _label("y")], seeds=3, resamples=300).iloc[0]
    assert pair["tau"] == pytest.approx(0.8) and pair["networks"] == 5
    # the seeds never move the means, but redrawing the networks does: the interval is not
    # the point, and it stays within tau's range
    assert pair["low"] < 0.8 and -1 <= pair["low"] <= pair["high"] <= 1
    assert pair["verdict"] in ("above 0", agreement.UNRESOLVED)
    same = agreement.concurrence(rows, [_label("x"), _label("x")], seeds=3, resamples=50)
    assert same.empty  # a measure is not compared with itself
    identical = _rows({(m, "z"): [v, v, v] for m, v in SPREAD.items()})
    pair = agreement.concurrence(rows + identical, [_label("x"), _label("z")], seeds=3,
                                 resamples=200).iloc[0]
    assert pair["tau"] == pytest.approx(1.0)
    assert pair["low"] == pytest.approx(1.0) and pair["verdict"] == "above 0"
    few = _rows({(m, t): [0.1 * i] * 3 for i, m in enumerate("abc") for t in "pq"})
    row = agreement.concurrence(few, [_label("p"), _label("q")], seeds=3).iloc[0]
    assert row["networks"] == 3 and np.isnan(row["tau"]) and row["verdict"] == "unresolved"
    with pytest.raises(ValueError, match="resamples must be"):
        agreement.concurrence(rows, [_label("x"), _label("y")], seeds=3, resamples=0)


def test_sign_verdicts():
    assert agreement.sign_verdict(-0.9, -0.1) == "below 0"
    assert agreement.sign_verdict(float("nan"), 0.3) == agreement.UNRESOLVED


def _tre_rows():
    """Two networks on three SCAN splits: network a's TRE falls as its accuracy rises across
    splits; b has a constant offset."""
    rows = []
    for model, offset in (("a", 0.0), ("b", 0.2)):
        for task, accuracy, tre in (("length", 0.1, 0.3), ("jump", 0.5, 0.2), ("mcd1", 0.9, 0.1)):
            for seed in range(3):
                base = {"model": model, "benchmark": "scan", "task": task, "seed": seed,
                        "fitted": True}
                rows += [{**base, "test": task, "score": "accuracy", "value": accuracy},
                         {**base, "test": "representations", "score": "TRE",
                          "value": tre + offset + 0.001 * seed}]
    # an in-distribution split is not generalisation
    rows += [{**r, "task": "simple", "test": "simple" if r["test"] != "representations"
              else "representations"} for r in rows[:2]]
    return rows


def test_tre_within_and_across_networks():
    runs = agreement.generalisation_runs(_tre_rows())
    assert set(runs["task"]) == {"length", "jump", "mcd1"} and len(runs) == 18
    within = agreement.tre_within_networks(runs).set_index("model")
    assert within.loc["a", "r"] == pytest.approx(-1.0, abs=1e-3)
    assert within.loc["a", "points"] == 9 and within.loc["a", "splits"] == 3
    per_network, summary = agreement.tre_across_networks(runs)
    assert summary["points"] == 2 and np.isnan(summary["r"])  # two networks: no correlation
    assert per_network.loc["b", "tre"] - per_network.loc["a", "tre"] == pytest.approx(0.2)
    assert per_network.loc["a", "accuracy"] == pytest.approx(50.0)
    assert agreement.tre_across_networks(runs, exclude=["b"])[0].index.tolist() == ["a"]
    control = agreement.geca_control(runs, "a", "b")
    assert control["TRE difference"].tolist() == pytest.approx([0.2] * 3)
    assert control["accuracy difference"].tolist() == pytest.approx([0.0] * 3)
    with pytest.raises(ValueError, match="no runs of"):
        agreement.geca_control(runs, "a", "c")
    with pytest.raises(TypeError, match="exclude must be a list"):
        agreement.tre_across_networks(runs, exclude="b")


def test_divergence_within_benchmarks_leaves_out_training_depths_and_unfitted_splits():
    difficulty = pd.DataFrame({
        "benchmark": ["scan"] * 4 + ["orchard"] * 6 + ["pcfgset"],
        "test": ["simple", "length", "jump", "mcd1", "depth 3", "depth 6", "depth 7", "depth 8",
                 "depth 9", "depth 10", "pcfgset"],
        "compound divergence": [0.05, 0.3, 0.2, 0.7, 0.06, 0.08, 0.09, 0.11, 0.12, 0.14, 0.2],
        "accuracy": [90.0, 10.0, 20.0, 5.0, 10.0, 99.0, 80.0, 70.0, 60.0, 50.0, np.nan]})
    table = agreement.divergence_within(difficulty).set_index("benchmark")
    assert table.loc["SCAN (with the dial)", "splits"] == 4
    assert table.loc["SCAN (with the dial)", "r"] < -0.5
    # depths 3 and 6 are training depths: four test depths, accuracy falling as D_C rises
    assert table.loc["ORCHARD", "splits"] == 4 and table.loc["ORCHARD", "r"] < -0.99
    assert table.loc["PCFG SET", ["splits", "of"]].tolist() == [0, 1]
    assert table.loc["PCFG SET", "verdict"] == "unresolved"


def test_geca_coverage_counts_test_commands_among_the_new_pairs():
    new = [("jump left", "I_TURN_LEFT I_JUMP"), ("jump twice", "I_JUMP")]  # the second is wrong
    tests = [("jump left", "I_TURN_LEFT I_JUMP"), ("jump twice", "I_JUMP I_JUMP"),
             ("walk", "I_WALK")]
    assert geca.coverage(new, tests) == {"commands": 3, "contained": 2, "with_output": 1,
                                         "share": pytest.approx(2 / 3)}
    assert np.isnan(geca.coverage(new, [])["share"])
    with pytest.raises(TypeError, match="tests must be a list of"):
        geca.coverage(new, "jump")
