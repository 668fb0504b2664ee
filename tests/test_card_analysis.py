"""Reading many cards: the tau table, TRE against behaviour, and
divergences of every benchmark's splits, on hand-made rows with known answers."""

import math

import pandas as pd
import pytest

from tutorlib import card
from tutorlib.card import analysis


def _rows(values, score="accuracy", fitted=True, benchmark="scan"):
    """Card rows from {(model, task): [value per seed]}."""
    return [{"model": model, "benchmark": benchmark, "task": task, "test": task, "score": score,
             "value": value, "seed": seed, "fitted": fitted, "train_accuracy": 1.0,
             "validation_accuracy": 1.0}
            for (model, task), seeds in values.items() for seed, value in enumerate(seeds)]


def test_concurrency_matrix_is_the_pairs_as_a_square_table():
    pairs = pd.DataFrame({"a": ["x", "x"], "b": ["y", "z"], "tau": [1.0, None]})
    matrix = analysis.concurrency_matrix(pairs)
    assert matrix.loc["y", "x"] == 1.0 and matrix.loc["x", "x"] == 1.0
    assert math.isnan(matrix.loc["z", "x"])
    with pytest.raises(ValueError, match="concurrence"):
        analysis.concurrency_matrix(pairs.iloc[:0])


def test_tre_against_behaviour_pairs_each_run_with_its_own_accuracy():
    accuracy = {("m", "t"): [0.9, 0.5, 0.1, 0.7]}
    tre = {("m", "t"): [0.1, 0.5, 0.9, 0.3]}  # exactly falling: r = -1
    rows = _rows(accuracy) + [{**row, "test": "representations"}
                              for row in _rows(tre, score="TRE")]
    points, summary = analysis.tre_against_behaviour(rows)
    assert len(points) == 4 and summary["runs"] == 4
    assert summary["r"] == pytest.approx(-1.0) and summary["tasks"] == 1
    assert points.set_index("seed").loc[1, "accuracy"] == pytest.approx(50.0)
    three = [r for r in rows if r["seed"] < 3]
    assert analysis.tre_against_behaviour(three)[1]["low"] is None  # Fisher's z needs 4


def test_tre_is_compared_within_each_split_unless_asked_otherwise():
    """An easy split with high TRE and a hard one with low TRE: across splits TRE and accuracy
    rise together, within each split they fall together."""
    accuracy = {("m", "easy"): [0.95, 0.90, 0.85], ("m", "hard"): [0.15, 0.10, 0.05]}
    tre = {("m", "easy"): [0.50, 0.55, 0.60], ("m", "hard"): [0.10, 0.15, 0.20]}
    rows = _rows(accuracy) + [{**row, "test": "representations"}
                              for row in _rows(tre, score="TRE")]
    within = analysis.tre_against_behaviour(rows)[1]
    across = analysis.tre_against_behaviour(rows, within_task=False)[1]
    assert within["r"] == pytest.approx(-1.0) and within["tasks"] == 2
    assert across["r"] > 0.8


def test_tre_is_also_correlated_benchmark_by_benchmark():
    """Within SCAN TRE falls as accuracy rises, within the dial it rises with it: the pooled r
    hides that, each benchmark's own r shows it."""
    falling = {("m", "t"): [0.9, 0.7, 0.5, 0.1]}
    rows = _rows(falling) + [{**row, "test": "representations"}
                             for row in _rows({("m", "t"): [0.1, 0.3, 0.5, 0.9]}, score="TRE")]
    rising = [{**row, "benchmark": "dbca", "task": "D_C 0.40"} for row in
              _rows(falling) + [{**row, "test": "representations"} for row in
                                _rows({("m", "t"): [0.9, 0.7, 0.5, 0.1]}, score="TRE")]]
    points, summary = analysis.tre_against_behaviour(rows + rising)
    by = summary["by_benchmark"]
    assert set(by) == {"scan", "dbca"} and summary["tasks"] == 2 and summary["runs"] == 8
    assert by["scan"]["r"] == pytest.approx(-1.0) and by["dbca"]["r"] == pytest.approx(1.0)
    assert by["scan"]["runs"] == 4 and by["scan"]["tasks"] == 1


def test_tre_reads_orchards_second_tree_at_its_deepest_depth():
    rows = []
    for seed, (tre, deep, shallow) in enumerate([(0.1, 0.9, 0.2), (0.5, 0.5, 0.9),
                                                 (0.9, 0.1, 0.5), (0.3, 0.7, 0.1)]):
        base = {"model": "m", "benchmark": "orchard", "task": "v", "seed": seed, "fitted": True,
                "train_accuracy": 1.0, "validation_accuracy": 1.0}
        rows += [{**base, "test": "representations", "score": "TRE", "value": tre},
                 {**base, "test": "depth 12", "score": "second tree", "value": deep},
                 {**base, "test": "depth 12", "score": "first tree", "value": shallow},
                 {**base, "test": "depth 3", "score": "second tree", "value": shallow}]
    points, summary = analysis.tre_against_behaviour(rows)
    assert list(points["accuracy"]) == pytest.approx([90.0, 50.0, 10.0, 70.0])
    assert summary["r"] == pytest.approx(-1.0)


def test_a_task_stays_on_the_card_with_four_fitted_networks():
    from tutorlib.card import report

    rows = _rows({(m, "simple"): [0.9, 0.9] for m in "abcd"})
    rows += _rows({(m, "jump"): [0.1, 0.2] for m in "ab"})
    rows += _rows({(m, "jump"): [0.0, 0.0] for m in "cd"}, fitted=False)
    table = card.card_table(rows)
    coverage = report.task_coverage(table).set_index("task")
    assert coverage.loc["simple", "status"] == "kept" and coverage.loc["simple", "fitted"] == 4
    assert coverage.loc["jump", "status"] == "dropped"
    assert coverage.loc["jump", "why"].startswith("only 2 of 4 networks fitted it")
    assert report.task_coverage(table.iloc[:0]).empty
    # a sweep part-way: with six networks and three seeds planned, neither task is decided
    planned = {"models": dict.fromkeys("abcdef", {}), "seeds": [0, 1, 2], "augment": {}}
    partial = report.task_coverage(table, planned).set_index("task")
    assert list(partial["status"]) == ["open", "open"]
    assert partial.loc["jump", "why"] == ("4 of 6 networks run, at 2 of 3 seeds so far; 2 "
                                          "fitted every seed run")
    # ... unless too few networks are left to reach four (a failed seed settles a network)
    planned["models"] = dict.fromkeys("abcde", {})
    assert report.task_coverage(table, planned).set_index("task").loc["jump", "status"] == (
        "dropped")
    # four networks fitted on every planned seed keep a task while others are still running
    planned = {"models": dict.fromkeys("abcdef", {}), "seeds": [0, 1], "augment": {}}
    assert report.task_coverage(table, planned).set_index("task").loc["simple", "status"] == (
        "kept")


@pytest.mark.slow
def test_split_divergences_put_every_benchmark_on_one_scale():
    tasks = [card.scan_task("simple", train_size=400, validation_size=50, test_size=200),
             card.scan_task("addprim_jump", train_size=400, validation_size=50, test_size=200),
             card.pcfgset_task("productivity", train_size=300, validation_size=50,
                               test_size=100),
             card.orchard_task("minmax_hard", train_size=100, validation_size=20, test_size=30,
                               depths=(3, 12))]
    table = analysis.split_divergences(tasks, sample=None).set_index(["task", "test"])
    simple = table.loc[("simple", "simple")]
    jump = table.loc[("addprim_jump", "addprim_jump")]
    assert simple["compound divergence"] < 0.1 < jump["compound divergence"]
    assert simple["atom divergence"] < 0.05
    depth3 = table.loc[("minmax_hard", "depth 3"), "compound divergence"]
    assert depth3 < table.loc[("minmax_hard", "depth 12"), "compound divergence"]
    assert 0 < table.loc[("productivity", "productivity"), "compound divergence"] <= 1
    values = table[["atom divergence", "compound divergence"]].to_numpy().ravel()
    assert all(0 <= value <= 1 and not math.isnan(value) for value in values)


def _table():
    """A card table of two networks on two SCAN tasks (one did not fit the length split)."""
    rows = _rows({("lstm", "simple"): [0.90, 0.92], ("lstm", "length"): [0.10, 0.12],
                  ("transformer", "simple"): [0.80, 0.84]})
    rows += [{**row, "fitted": False, "validation_accuracy": 0.5}
             for row in _rows({("transformer", "length"): [0.02, 0.04]})]
    return rows, card.card_table(rows)


def test_the_card_as_tables_marks_what_did_not_fit_and_what_is_missing():
    from tutorlib.card import report

    rows, table = _table()
    scores = report.card_pivot(table)
    assert list(scores.columns) == ["LSTM", "Transformer"]
    assert scores.loc["scan simple", "LSTM"] == "91.0"
    assert scores.loc["scan length", "Transformer"] == "(3.0)"
    fits = report.fit_pivot(table)
    assert fits.loc["scan length", "Transformer"] == 50.0
    assert fits.loc["scan simple", "LSTM"] == 100.0
    missing = report.card_pivot(table[~((table["model"] == "lstm")
                                        & (table["task"] == "length"))])
    assert missing.loc["scan length", "LSTM"] == "—"


def test_difficulty_uses_only_fitted_networks_and_correlates_within_scan():
    from tutorlib.card import report

    rows, table = _table()
    divergences = [{"benchmark": "scan", "task": "simple", "test": "simple",
                    "atom divergence": 0.01, "compound divergence": 0.1},
                   {"benchmark": "scan", "task": "length", "test": "length",
                    "atom divergence": 0.04, "compound divergence": 0.5}]
    # the card keeps a task with at least report.MIN_NETWORKS fitted networks: not these
    card_rule = report.divergence_accuracy(divergences, table).set_index("task")
    assert card_rule["accuracy"].isna().all() and list(card_rule["networks"]) == [2, 1]
    frame = report.divergence_accuracy(divergences, table, min_networks=1).set_index("task")
    assert frame.loc["simple", "accuracy"] == pytest.approx(86.5)  # both networks
    assert frame.loc["length", "accuracy"] == pytest.approx(11.0)  # the LSTM only
    assert frame.loc["length", "networks"] == 1


def test_a_split_measured_twice_counts_once():
    import pandas as pd

    from tutorlib.card import report

    frame = pd.DataFrame({
        "benchmark": ["scan", "scan", "scan", "scan", "dbca", "pcfgset"],
        "task": ["simple", "length", "jump", "mcd1", "D_C 0.71", "pcfgset"],
        "test": ["simple", "length", "jump", "mcd1", "target MCD", "pcfgset"],
        "atom divergence": [0.002, 0.044, 0.049, 0.023, 0.023, 0.0],
        "compound divergence": [0.05, 0.29, 0.22, 0.709, 0.709, 0.445],
        "accuracy": [90.0, 13.0, 2.0, 5.0, 5.0, float("nan")], "networks": [1, 3, 1, 1, 1, 0]})
    distinct = report.distinct_splits(frame)
    assert list(distinct["task"]) == ["simple", "length", "jump", "mcd1", "pcfgset"]


def test_fit_summary_counts_each_networks_fitted_tasks():
    from tutorlib.card import report

    rows, table = _table()
    summary = report.fit_summary(table)
    assert summary.loc["LSTM", "scan"] == "2 of 2" and summary.loc["Transformer", "scan"] == "1 of 2"


def test_the_fit_table_shows_the_per_seed_rule_where_it_decides():
    import pandas as pd

    from tutorlib.card import report

    rows = [{"model": "lstm", "benchmark": "scan", "task": "x", "test": "x", "score": "accuracy",
             "seed": seed, "value": 0.5, "train_accuracy": fit, "validation_accuracy": fit,
             "fitted": fit >= 0.9} for seed, fit in enumerate((0.99, 0.98, 0.91))]
    rows += [{**rows[0], "task": "y", "test": "y", "seed": seed, "train_accuracy": fit,
              "validation_accuracy": fit, "fitted": fit >= 0.9}
             for seed, fit in enumerate((1.0, 1.0, 0.88))]
    table = card.card_table(rows)
    assert list(table["fitted"]) == [True, False]
    shown = report.fit_pivot(table, rows)
    assert shown.loc["scan x", "LSTM"] == 96.0
    assert shown.loc["scan y", "LSTM"] == "96.0 (2 of 3 seeds)"  # a high mean, not fitted
    assert report.fit_pivot(table).loc["scan y", "LSTM"] == 96.0
    assert isinstance(shown, pd.DataFrame)


def test_benchmarks_agreement_groups_the_pairs_by_where_their_measures_come_from():
    import pandas as pd

    from tutorlib.card import report

    pairs = pd.DataFrame({
        "a": ["scan simple: simple (accuracy)", "scan simple: simple (accuracy)",
              "scan length: length (accuracy)", "orchard v: depth 12 (second tree)",
              "scan length: length (accuracy)"],
        "b": ["scan length: length (accuracy)", "orchard v: depth 12 (second tree)",
              "orchard v: depth 12 (second tree)", "dbca D_C 0.40: target 0.4 (accuracy)",
              "dbca D_C 0.40: target 0.4 (accuracy)"],
        "models": [4, 4, 4, 4, 3], "tau": [0.8, 0.2, -0.6, 0.4, None],
        "low": [0.2, -0.4, -1.0, -0.2, None], "high": [1.0, 0.8, -0.2, 0.8, None]})
    table = report.agreement_by_benchmark(pairs).set_index("benchmarks")
    assert list(table.index) == ["SCAN", "SCAN with ORCHARD", "the DBCA dial with ORCHARD"]
    assert table.loc["SCAN with ORCHARD", "pairs"] == 2
    assert table.loc["SCAN with ORCHARD", "median tau"] == pytest.approx(-0.2)
    assert table.loc["SCAN with ORCHARD", ["above 0", "below 0", "include 0"]].tolist() == [0, 1, 1]
    assert table.loc["SCAN", "above 0"] == 1  # a pair without a tau is not counted
    assert report.agreement_by_benchmark(pairs[pairs["tau"].isna()]).empty
    with pytest.raises(TypeError, match="pairs must be a pandas DataFrame"):
        report.agreement_by_benchmark([1])


def test_the_dials_mcd_point_is_ranked_once_as_scans_mcd1():
    from tutorlib.card import report

    rows = _rows({(m, "mcd1"): [0.1, 0.2] for m in "abcd"})
    dial = [{**row, "benchmark": "dbca", "task": "D_C 0.71", "test": "target MCD"}
            for row in _rows({(m, "x"): [0.1, 0.2] for m in "abcd"})]
    measures = report.generalisation_measures(rows + dial)
    assert measures == ["scan mcd1: mcd1 (accuracy)"]
    assert report.generalisation_measures(dial) == ["dbca D_C 0.71: target MCD (accuracy)"]
