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
    assert report.pair_verdict(None).startswith("our runs contain no two languages")
    verdict = report.pair_verdict((high, low))
    assert verdict.startswith("the lower-TRE language (seed 2, TRE 1.00) has a gap of 0.200 "
                              "against 0.100 for the higher-TRE one (seed 0, TRE 4.00)")
    assert verdict.endswith("it generalises *worse*, against the paper's correlation")
    better = report.pair_verdict(report.mine_pair(runs.iloc[:2]))
    assert better.endswith("it generalises better, as the paper's correlation would have it")
    # a difference far inside the gaps' spread is called noise
    noise = report.pair_verdict((high, low), spread=1.0)
    assert "under half of the gaps' spread over all runs (sd 1.000), so noise" in noise


def test_protocol_facts_from_the_committed_languages():
    protocols = generalisation.committed_protocols("full")
    committed = generalisation.committed_runs("full")
    facts = report.protocol_facts(protocols, committed)
    r = {name: protocols[name].corr(protocols["gap"]) for name in generalisation.TRE_PROTOCOLS}
    assert facts["protocols_strongest"] == max(r, key=r.get)
    assert facts["protocols_strongest_r"] == f"{max(r.values()):.2f}"
    assert facts["protocols_best_tre_r"] == f"{max(abs(v) for v in r.values()):.2f}"
    assert facts["protocols_r_gap"] == ", ".join(
        f"{r[name]:.2f} ({name})" for name in generalisation.TRE_PROTOCOLS)
    assert facts["protocols_other_r"].startswith(
        f"topsim {committed['topsim'].corr(committed['gap']):.2f}")
    # every other measure is named once, stronger or weaker than the best TRE
    others = facts["protocols_others_better"]
    assert all(others.count(m) == 1 for m in ("topsim", "posdis", "bosdis"))
    assert facts["protocols_r_reward"].startswith(
        f"{protocols['converged (L1)'].corr(protocols['test reward']):.2f}")


def test_the_training_length_table_and_its_facts():
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
    facts = report.training_length_facts(table)
    assert facts["matched_seeds"] == f"{len(matched['data']['runs'])}"
    r = table.loc[report.LONG, "r, compression phase"]
    assert facts["long_compression_verdict"].endswith(f"(r = {r:.2f})" if r < 0 else
                                                       f"(r = {r:.2f}), as in the paper")
    without = report.training_length_facts(report.training_length_table(None, None))
    assert without["matched_best"] == "–" and without["long_compression_verdict"] == \
        "not yet committed"


def test_the_training_figure_draws_the_long_run_and_this_pages_dots():
    import matplotlib

    matplotlib.use("Agg")
    long_run = pd.DataFrame({"epoch": [0, 1, 2], "val_accuracy": [0.5, 0.6, 0.7],
                             "tre": [1.0, 0.9, 0.8], "tre_single": [1.0, 1.0, 1.0],
                             "tre_conjunction": [0.9, 0.8, 0.7]})
    frames = {0: long_run.iloc[:2]}
    fig = report.plot_training(long_run, frames, ideal=0.8, long_label="long")
    left, right = fig.axes
    assert [line.get_label() for line in left.get_lines()][:2] == ["long", "this page, seed 0"]
    assert left.get_lines()[2].get_ydata()[0] == 80.0  # the ideal observer, in %
    assert len(right.get_lines()) == 4  # three TRE curves and this page's dots
