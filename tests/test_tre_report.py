"""tutorlib.tre.report: the pair of languages like the paper's Fig. 6, and the protocols' facts."""

import pandas as pd

from tutorlib.tre import generalisation, report


def _runs(rows):
    return pd.DataFrame(rows, columns=["seed", "train reward", "TRE", "gap"])


def test_the_pair_with_equal_rewards_and_the_largest_tre_difference():
    runs = _runs([(0, 0.900, 4.0, 0.10), (1, 0.905, 3.0, 0.05), (2, 0.9075, 1.0, 0.20),
                  (3, 0.50, 0.5, 0.01)])
    high, low = report.mine_pair(runs)
    # seeds 0, 1 and 2 are within 0.01 in reward; 0 and 2 differ most in TRE (4.0 against
    # 1.0); seed 3 is far in reward
    assert (high["seed"], low["seed"]) == (0, 2)
    assert report.mine_pair(_runs([(0, 0.9, 1.0, 0.1), (1, 0.5, 2.0, 0.1)])) is None


def test_only_committed_games_that_fit_their_training_referents_are_read():
    committed = generalisation.committed_runs("full")
    fitted = generalisation.fitted_runs("full")
    assert len(fitted) == int((committed["train accuracy"] >= 0.9).sum())
    assert (fitted["train accuracy"] >= 0.9).all()
    gate = generalisation.passes_gate(pd.DataFrame({"train accuracy": [0.95, 0.899, 0.9]}))
    assert gate.tolist() == [True, False, True]


def test_the_training_length_table():
    from tutorlib.tre import dynamics

    matched = dynamics.committed_results("full")
    long = dynamics.committed_results("full", long=True)
    table = report.training_length_table(matched, long)
    assert list(table.index) == [report.MATCHED, report.LONG, "published"]
    # the full profile: ten seeds of 20 epochs of 100 batches, the paper's 2,000 steps
    assert table.loc[report.MATCHED, "optimiser steps"] == 2_000
    assert table.loc[report.LONG, "optimiser steps"] == 60 * 71
    assert table.loc["published", "r(TRE, joint 30-bin info), all"] == \
        dynamics.PAPER["r(TRE, I(theta; X)), all runs"]
    shown = report.formatted_training_length(table)
    assert shown.loc["optimiser steps", report.LONG] == "4,260"
    assert shown.loc["r(TRE, per-unit info), all", "published"] == "–"


def test_the_training_figure_draws_one_run_with_the_gate():
    import matplotlib

    from tutorlib import fit

    matplotlib.use("Agg")
    run = pd.DataFrame({"epoch": [0, 1, 2], "val_accuracy": [0.5, 0.6, 0.7],
                        "train_accuracy": [0.5, 0.65, 0.8],
                        "tre": [1.0, 0.9, 0.8], "tre_single": [1.0, 1.0, 1.0],
                        "tre_conjunction": [0.9, 0.8, 0.7]})
    fig = report.plot_training(run, ideal=0.8, title="tutorial profile, seed 0")
    left, right = fig.axes
    assert [line.get_label() for line in left.get_lines()][:2] == ["training sample", "validation"]
    assert left.get_lines()[2].get_ydata()[0] == 80.0  # the ideal observer, in %
    assert left.get_lines()[4].get_ydata()[0] == 100 * fit.TRAINING
    assert len(right.get_lines()) == 3  # three TRE curves
    assert fig._suptitle.get_text() == "tutorial profile, seed 0"
