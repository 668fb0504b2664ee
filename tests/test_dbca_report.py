"""tutorlib.dbca.report: the facts chapter 15 states about the committed dial."""

import numpy as np
import pandas as pd
import pytest

from tutorlib import profiles
from tutorlib.dbca import experiments as exps
from tutorlib.dbca import report


def test_without_committed_runs_every_fact_says_so():
    settings = profiles.settings("dbca", "full")
    facts = report.full_facts(pd.DataFrame(), settings)
    planned = len(settings["targets"]) * len(settings["architectures"]) * len(settings["seeds"])
    assert facts["full_runs"] == f"0 of {planned}"
    assert {facts[k] for k in facts if k != "full_runs"} == {report.NOT_COMMITTED}


def test_the_committed_dial_in_words():
    committed = exps.committed_runs("full")
    settings = profiles.settings("dbca", "full")
    facts = report.full_facts(committed, settings)
    assert facts["full_runs"].startswith(f"{len(committed)} of ")
    assert facts["full_max_da"] == f"{committed['atom_divergence'].max():.6f}"
    # the paper's MCD numbers stand beside ours, network by network
    assert "the LSTM with attention gets" in facts["full_mcd"]
    assert (f"the paper {exps.PAPER['mcd']['lstm_attention']} ± "
            f"{exps.PAPER['mcd_interval']['lstm_attention']}%") in facts["full_mcd"]
    # per seed: each network's accuracies on the MCD splits, in seed order
    on_mcd = committed[committed["target_compound_divergence"].isna()].sort_values("seed")
    lstm = 100 * on_mcd[on_mcd["network"] == "lstm_attention"]["accuracy"].to_numpy()
    assert "the LSTM with attention " + ", ".join(f"{v:.1f}" for v in lstm) in \
        facts["full_mcd_seeds"]
    gap = lstm.mean() - 100 * on_mcd[on_mcd["network"] == "transformer"]["accuracy"].mean()
    assert f"(by {abs(gap):.1f} points)" in facts["full_mcd_seeds"]
    assert ("so do we" in facts["full_mcd_seeds"]) == bool(gap > 0)


def test_without_an_mcd_run_the_paper_is_untested():
    committed = exps.committed_runs("full")
    dial_only = committed[committed["target_compound_divergence"].notna()]
    facts = report.full_facts(dial_only, profiles.settings("dbca", "full"))
    assert facts["full_mcd"].startswith("No run on an MCD split")
    assert np.isfinite(float(facts["full_train"].rstrip("%")))


def _crossed(accuracy: dict) -> pd.DataFrame:
    """Runs from {(split seed, training seed): accuracy (fraction)} of the Transformer at MCD."""
    return pd.DataFrame([{"network": "transformer", "target_compound_divergence": None,
                          "split_seed": split, "seed": seed, "accuracy": value,
                          "compound_divergence": 0.7} for (split, seed), value in accuracy.items()])


def test_variance_between_splits_and_within_a_split_hand_computed():
    # split 0 always 40%, split 1 always 10%, split 2 0% / 20% / 10% by training seed
    runs = _crossed({(0, 0): .4, (0, 1): .4, (0, 2): .4, (1, 0): .1, (1, 1): .1, (1, 2): .1,
                     (2, 0): .0, (2, 1): .2, (2, 2): .1})
    assert report.crossed_cells(runs) == [("transformer", None)]
    grid = report.crossed_grid(runs, "transformer", None)
    assert grid.shape == (3, 3) and grid.loc[2, 1] == 20.0
    row = report.variance_table(runs).loc[("transformer", "MCD")]
    assert row["runs"] == 9 and row["splits"] == 3 and row["mean (%)"] == pytest.approx(20.0)
    # split means 40, 10, 10: sd sqrt(((20)^2 + (10)^2 + (10)^2) / 2) = sqrt(300)
    assert row["between splits (sd)"] == pytest.approx(np.sqrt(300))
    # within: variances 0, 0, 100 -> root of their mean
    assert row["within a split (sd)"] == pytest.approx(np.sqrt(100 / 3))
    # the dial's own runs (split seed = training seed) alone are no crossed cell
    assert report.crossed_cells(_crossed({(0, 0): .4, (1, 1): .1})) == []


def test_the_dial_regression_recovers_a_line_and_its_r2():
    x = np.array([0.0, 0.2, 0.4, 0.6])
    runs = pd.DataFrame({"network": "lstm", "compound_divergence": x,
                         "accuracy": 1.0 - x})  # 100 - 100 * D_C exactly
    row = report.dial_regression(runs).loc["lstm"]
    assert row["slope (points per D_C)"] == pytest.approx(-100)
    assert row["intercept (%)"] == pytest.approx(100) and row["R²"] == pytest.approx(1.0)
    noisy = runs.assign(accuracy=[1.0, 0.7, 0.7, 0.4])  # R² = 1 - 180 / 1800
    assert report.dial_regression(noisy).loc["lstm", "R²"] == pytest.approx(0.9)
    assert report.dial_regression(runs.iloc[:2]).empty  # too few runs for a line
    import matplotlib
    matplotlib.use("Agg")
    assert "R² 1.00" in report.plot_dial_regression(runs).axes[0].get_legend_handles_labels()[1][0]


def test_the_crossed_runs_and_the_line_in_words():
    nothing = pd.DataFrame(columns=["network", "target_compound_divergence", "split_seed",
                                    "seed", "accuracy"])
    assert "not measured yet" in report.variance_facts(
        report.variance_table(nothing))["variance_text"]
    runs = _crossed({(0, 0): .4, (0, 1): .4, (0, 2): .4, (1, 0): .1, (1, 1): .1, (1, 2): .1,
                     (2, 0): .0, (2, 1): .2, (2, 2): .1})
    lstm = runs.assign(network="lstm_attention", accuracy=runs["accuracy"] + 0.5)
    text = report.variance_facts(report.variance_table(pd.concat([runs, lstm])))["variance_text"]
    assert "the Transformer at MCD: 20.0% on average, 17.3 points between splits and 5.8 within " \
           "a split (9 of 9 runs)" in text
    # 50 points apart against a spread of at most 17.3: the order can be read
    assert "differ by 50.0 points" in text and "the order can be read" in text
    close = lstm.assign(accuracy=runs["accuracy"] + 0.05)
    assert "cannot rank" in report.variance_facts(
        report.variance_table(pd.concat([runs, close])))["variance_text"]
    line = report.regression_facts(report.dial_regression(pd.DataFrame(
        {"network": "lstm", "compound_divergence": [0.0, 0.2, 0.4, 0.6],
         "accuracy": [1.0, 0.7, 0.7, 0.4]})))["regression_text"]
    assert line.startswith("Ours: the LSTM R² 0.90, 9.0 points lost per 0.1 of D_C (4 runs)")
    assert "no line" in report.regression_facts(pd.DataFrame())["regression_text"]
