"""tutorlib.dbca.report: the facts chapter 15 states about the committed dial."""

import numpy as np
import pandas as pd

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
    assert f"the paper {exps.PAPER['mcd']['lstm_attention']}%" in facts["full_mcd"]
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
