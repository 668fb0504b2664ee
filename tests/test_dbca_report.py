"""tutorlib.dbca.report: the tables and figures of chapter 15 and its appendix page."""

import numpy as np
import pandas as pd
import pytest

from tutorlib.dbca import experiments as exps
from tutorlib.dbca import report


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


def test_the_papers_interval_is_clipped_to_0_100():
    # Table 4: 99.9 +- 2.7 on the random split, 6.1 +- 2.2 on the MCD splits
    assert report.published_interval("lstm_attention", "random") == (pytest.approx(97.2), 100.0)
    assert report.published_interval("lstm_attention") == (pytest.approx(3.9), pytest.approx(8.3))
    table = report.published_accuracies()
    assert table.loc["LSTM + attention", "random split (%), 95% interval"] == "99.9 [97.2, 100.0]"
    assert table.loc["Transformer", "SCAN MCD splits (%), 95% interval"] == "1.1 [0.6, 1.6]"
    with pytest.raises(ValueError, match="'mcd' or 'random'"):
        report.published_interval("lstm_attention", "length")


def test_a_line_is_drawn_only_between_0_and_100():
    # 120 - 100 x reaches 100% at x = 0.2 and 0% at x = 1.2
    xs = report._line_segment(-100.0, 120.0, 0.0, 0.7)
    assert xs == pytest.approx([0.2, 0.7])
    assert report._line_segment(-100.0, 120.0, 0.0, 1.5) == pytest.approx([0.2, 1.2])
    assert report._line_segment(0.0, 50.0, 0.1, 0.6) == pytest.approx([0.1, 0.6])
    import matplotlib
    matplotlib.use("Agg")
    runs = pd.DataFrame({"network": "lstm", "compound_divergence": [0.0, 0.3, 0.6],
                         "accuracy": [1.0, 0.9, 0.3]})
    line = report.plot_dial_regression(runs).axes[0].get_lines()[0]
    assert max(line.get_ydata()) <= 100 + 1e-9


def _dial(accuracy: dict) -> pd.DataFrame:
    """Dial runs from {(network, target, seed): (accuracy, training accuracy)}."""
    return pd.DataFrame([{"network": n, "target_compound_divergence": t, "seed": s,
                          "split_seed": s, "compound_divergence": 0.7 if t is None else t,
                          "accuracy": a, "train_accuracy": fit}
                         for (n, t, s), (a, fit) in accuracy.items()])


def test_the_gate_reads_training_and_at_dc_0_the_random_split():
    runs = _dial({("lstm_attention", 0.0, 0): (0.99, 1.0),   # paper 99.9: bar 94.9
                  ("lstm_attention", 0.0, 1): (0.90, 1.0),   # below that bar
                  ("lstm", 0.0, 0): (0.91, 1.0),             # no paper number: bar 90
                  ("lstm", None, 0): (0.01, 0.95),           # MCD: training alone
                  ("transformer", None, 0): (0.40, 0.85)})   # training below 90
    assert list(report.passes_gate(runs)) == [True, False, True, True, False]


def test_dial_points_and_the_dial_figure():
    runs = _dial({("lstm", 0.0, 0): (1.0, 1.0), ("lstm", 0.0, 1): (0.9, 1.0),
                  ("lstm", None, 0): (0.1, 1.0), ("lstm", None, 1): (0.0, 1.0)})
    crossed = runs.iloc[:1].assign(split_seed=1)  # a crossed run is no point of the dial
    points = report.dial_points(pd.concat([runs, crossed], ignore_index=True))
    assert list(points.index) == [("lstm", "0"), ("lstm", "max")]
    assert points.loc[("lstm", "0"), "accuracy (%)"] == pytest.approx(95.0)
    assert points.loc[("lstm", "max"), ["lowest (%)", "highest (%)"]].tolist() == [0.0, 10.0]
    import matplotlib
    matplotlib.use("Agg")
    ax = report.plot_dial(runs, 0.7).axes[0]
    labels = ax.get_legend_handles_labels()[1]
    assert labels[0] == "LSTM (ours)" and len(labels) == 1 + len(exps.PAPER["mcd"])


def test_the_divergence_plane_names_each_kind():
    import matplotlib
    matplotlib.use("Agg")
    table = pd.DataFrame({"kind": ["random", "length", "MCD (ours)"],
                          "atom_divergence": [0.0, 0.04, 0.02],
                          "compound_divergence": [0.0, 0.24, 0.7]},
                         index=pd.Index(["simple", "length", "mcd (seed 0)"], name="split"))
    ax = report.plot_divergences(table, 0.02).axes[0]
    assert ax.get_legend_handles_labels()[1] == ["random", "length", "MCD (ours)"]
    assert sorted(t.get_text() for t in ax.texts) == ["length", "simple"]
