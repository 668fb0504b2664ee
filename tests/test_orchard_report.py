"""tutorlib.orchard.report: the claims, the fit in words and the facts of the ORCHARD chapter,
on hand-made tables whose answers are known."""

import numpy as np
import pandas as pd
import pytest

from tutorlib.orchard import report


def _table(values: dict) -> pd.DataFrame:
    """A by-depth table from {(variant, model, tree, depth): accuracy (%)}."""
    return pd.DataFrame([{"variant": v, "model": m, "seed": 0, "tree": t, "depth": d,
                          "accuracy (%)": a} for (v, m, t, d), a in values.items()])


def test_claims_read_the_table_at_the_edge_and_at_depth():
    values = {}
    for model, (edge, deep) in {"lstm": (80.0, 60.0), "transformer": (70.0, 75.0)}.items():
        for variant in ("minmax_hard", "firstlast_hard"):
            for tree in ("first", "second", "both"):
                values[(variant, model, tree, 6)] = edge
                values[(variant, model, tree, 12)] = deep
    table = _table(values)
    assert report.mean_accuracy(table, model="lstm", tree="both", depth=12) == 60.0
    assert np.isnan(report.mean_accuracy(table, model="lstm", tree="both", depth=9))
    falls, first, transformer, second = report.claim_column(table, 12)
    assert falls == "LSTM falls, Transformer does not fall (both trees, depth 6 to 12)"
    assert first == "60.0% vs 75.0% (mean of the hard variants, depth 12)"
    assert transformer == "75.0% on the first tree at depth 12"
    assert second == "67.5% (both models, depth 12)"
    claims = report.claims_table(table, 12, committed=table, committed_runs=4, planned_runs=36)
    assert list(claims.columns) == ["published", "this run", "full profile (4 of 36 runs)"]
    assert claims.iloc[4, 2].startswith("needs the easy and medium variants")


def test_copy_makes_the_variants_harder_in_the_papers_order_or_says_not():
    def table(easy, medium, hard):
        return _table({(f"minmax_{name}", "lstm", "second", 6): value
                       for name, value in (("easy", easy), ("medium", medium), ("hard", hard))})
    assert report.copy_verdict(table(90, 50, 10)) == (
        "full profile, LSTM, second tree at depth 6: easy 90.0% > medium 50.0% > hard 10.0%")
    assert report.copy_verdict(table(50, 90, 10)).endswith("(not in that order)")
    assert report.copy_verdict(_table({("minmax_hard", "lstm", "second", 6): 5.0})).startswith(
        "needs the easy and medium variants")


def _records(train: dict, valid: dict) -> list[dict]:
    return [{"model": m, "train": {"first": train[m] / 100}, "valid": {"first": valid[m] / 100},
             "parameters": 1000} for m in ("lstm", "transformer")]


def test_the_fit_in_words():
    good = report.fit_verdict(_records({"lstm": 80, "transformer": 75},
                                       {"lstm": 78, "transformer": 70}))
    assert good.startswith("On the first tree, the LSTM has learned it well and the "
                           "Transformer has learned it well.")
    assert "Neither does much worse" in good and "generalisation from what each" in good
    poor = report.fit_verdict(_records({"lstm": 60, "transformer": 20},
                                       {"lstm": 40, "transformer": 12}))
    assert "the LSTM has learned part of it" in poor and "the Transformer has not learned it" in poor
    assert "The LSTM does at least ten points better" in poor  # 60 against 40
    assert "is no evidence either way" in poor


def test_setting_facts_are_shares_of_the_papers_setting():
    from tutorlib import profiles

    settings = profiles.settings("orchard", "ci")
    records = [{"model": "lstm", "parameters": 86_700}, {"model": "transformer", "parameters": 0}]
    found = report.setting_facts(settings, ["minmax_hard"], records)
    paper = report.PAPER["training"]
    assert found["lstm_share"] == f"{100 * 86_700 / paper['lstm_parameters']:.1f}"
    assert found["tutorial_variants"] == "minmax_hard"
    with pytest.raises(ValueError, match="no run of the transformer among the 1 records"):
        report.setting_facts(settings, [], [{"model": "lstm", "parameters": 1}])
