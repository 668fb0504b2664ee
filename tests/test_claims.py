"""Claims and verdicts (tutorlib.claims): the verdict rules on known cases, and every claim
resolved against the committed results."""

import math

import numpy as np
import pandas as pd
import pytest

from tutorlib import claims, results
from tutorlib.claims import STAND_IN, Claim, Ours, Rule, same_sign, within
from tutorlib.dbca import experiments as dbca_experiments
from tutorlib.orchard import experiments as orchard_experiments
from tutorlib.orchard import report as orchard_report
from tutorlib.pcfgset import experiments as pcfgset_experiments
from tutorlib.scan import experiments as scan_experiments
from tutorlib.tre import dynamics, generalisation


@pytest.mark.parametrize("published, ours, expected", [
    (99.7, 99.95, "reproduced"),
    (13.8, 18.8, "reproduced"),      # exactly 5 points: still within
    (90.0, 79.6, "partly"),
    (93.0, 78.0, "partly"),          # exactly 15 points
    (90.0, 51.9, "not reproduced"),
    (0.08, 0.0, "reproduced"),
    (54.0, None, "not yet run"),
    (54.0, math.nan, "not yet run"),
])
def test_accuracy_rule(published, ours, expected):
    assert within(5, 15).verdict(published, ours) == expected


@pytest.mark.parametrize("published, ours, expected", [
    (0.50, 0.40, "reproduced"),
    (-0.34, -0.30, "reproduced"),
    (0.70, 0.37, "partly"),
    (0.71, -0.51, "not reproduced"),
    (-0.34, 0.20, "not reproduced"),
    (0.57, None, "not yet run"),
])
def test_correlation_rule(published, ours, expected):
    assert same_sign(0.15).verdict(published, ours) == expected


def test_a_stand_in_is_a_stand_in_with_or_without_our_number():
    assert STAND_IN.verdict(75.2, 66.0) == STAND_IN.verdict(-0.34, None) == "stand-in"


def test_rules_refuse_nonsense():
    with pytest.raises(ValueError, match="kind"):
        Rule("closeish")
    with pytest.raises(ValueError, match="reproduced <= partly"):
        within(10, 5)


def test_a_partial_result_says_so():
    claim = Claim("X", "x/00_x", "andreas2019measuring", "a claim", 50.0, "%",
                  lambda: Ours(49.0, runs=1, planned=3))
    row = claims.table([claim]).iloc[0]
    assert row["verdict"] == "reproduced, partial" and row["runs"] == "1 of 3"
    done = Claim("X", "x/00_x", "andreas2019measuring", "a claim", 50.0, "%",
                 lambda: Ours(20.0, runs=3, planned=3))
    assert claims.table([done]).iloc[0]["verdict"] == "not reproduced"


def test_every_claim_resolves_against_the_committed_results():
    table = claims.table()
    assert len(table) == len(claims.CLAIMS)
    assert set(table["verdict"].str.replace(", partial", "")) <= set(claims.VERDICTS)
    assert set(table["paper"]) <= set(claims.CITATIONS)
    for claim, (_, row) in zip(claims.CLAIMS, table.iterrows()):
        committed = results.committed(claim.experiment) if claim.experiment else None
        if claim.rule is STAND_IN:
            assert row["verdict"] == "stand-in"
        elif committed is None:
            assert row["verdict"] == "not yet run", claim.claim
        elif committed["data"].get("complete"):
            # a complete full-profile run has a number for every claim it covers
            assert row["ours"] is not None and not math.isnan(row["ours"]), claim.claim
            assert not row["verdict"].endswith("partial"), claim.claim


def test_the_table_covers_the_book():
    table = claims.table()
    assert list(dict.fromkeys(table["part"])) == ["SCAN", "TRE", "PCFG SET", "ORCHARD", "DBCA"]
    scan_claims = table[table["part"] == "SCAN"]
    # the published numbers come from the experiment modules, not typed again
    for split in ("simple", "length", "addprim_jump", "addprim_turn_left", "simple_p1",
                  "simple_p2", "simple_p4", "addprim_complex_jump_num4",
                  "addprim_complex_jump_num32"):
        assert scan_experiments.PAPER[split]["overall_best"] in set(scan_claims["published"]), split
    tre_published = set(table.loc[table["part"] == "TRE", "published"])
    assert generalisation.PAPER["r(TRE, generalisation gap)"] in tre_published
    assert dynamics.PAPER["r(TRE, I(theta; X)), compression phase"] in tre_published
    assert len(table[table["part"] == "PCFG SET"]) == 3 * len(pcfgset_experiments.PAPER)
    # depth-12 first trees of the hard variants (2 models x 2), the Transformer's second tree
    assert len(table[table["part"] == "ORCHARD"]) == 6
    assert dbca_experiments.PAPER["mcd"]["lstm_attention"] in set(table["published"])


def test_our_numbers_are_the_experiment_modules_numbers():
    """The claims read through the experiment modules' own comparisons."""
    if results.committed("scan") is None:
        pytest.skip("no committed SCAN results")
    compared = scan_experiments.compare_with_paper(["simple", "addprim_jump"])
    table = claims.table()
    simple = table[table["claim"].str.contains("simple \\(random\\) split")].iloc[0]
    assert simple["ours"] == pytest.approx(compared.loc[("simple", "overall_best"), "test accuracy (%)"])
    assert simple["verdict"] == "reproduced"
    orchard = table[table["part"] == "ORCHARD"]
    for _, row in orchard[orchard["ours"].notna()].iterrows():
        # each ORCHARD number is the profile's own mean at depth 12, and its verdict is
        # untested unless every run behind it fits
        records = orchard_experiments.committed_records(row["profile"])
        model = "lstm" if row["claim"].startswith("LSTM") else "transformer"
        variant = row["claim"].split(" on ")[1].split(":")[0].replace(" ", "_")
        tree = "second" if "second tree" in row["claim"] else "first"
        runs = [r for r in records if r["model"] == model and r["variant"] == variant]
        assert row["ours"] == pytest.approx(
            100 * np.mean([r["by_depth"]["12"][tree] for r in runs]))
        assert row["fitted"] == all(orchard_report.fits(r) for r in runs)
        assert (row["verdict"].startswith("untested")) == (not row["fitted"])


def test_nothing_committed_means_not_yet_run(monkeypatch, tmp_path):
    monkeypatch.setenv("TUTORLIB_RESULTS_DIR", str(tmp_path))
    table = claims.table()
    expected = ["stand-in" if c.rule is STAND_IN else "not yet run" for c in claims.CLAIMS]
    assert list(table["verdict"]) == expected
    assert set(table["runs"]) == {""}


def test_the_reading_tables():
    frame = claims.table()
    shown = claims.formatted(frame)
    assert list(shown.columns) == ["claim", "published", "ours", "runs", "verdict"]
    assert shown.index.names == ["part", "number"]
    assert shown.index[0] == ("SCAN: Lake & Baroni (2018)", 1)
    assert "—" in set(shown["ours"]) and "%" in shown["published"].iloc[0]
    scan = claims.formatted(frame, part="SCAN")
    assert list(scan.index) == list(range(1, 1 + (frame["part"] == "SCAN").sum()))
    assert list(scan["claim"]) == list(frame.loc[frame["part"] == "SCAN", "claim"])
    with pytest.raises(ValueError, match="the parts are SCAN, TRE"):
        claims.formatted(frame, part="CFQ")
    counts = claims.summary(frame)
    assert counts.loc["all parts"].sum() == len(frame)
    assert isinstance(counts, pd.DataFrame) and list(counts.columns) == list(claims.VERDICTS)


def test_coverage_counts_committed_and_planned_runs():
    table = claims.coverage()
    assert list(table.index) == list(dict.fromkeys(c.experiment for c in claims.CLAIMS if c.experiment))
    assert (table["committed runs"] <= table["planned runs"]).all()
    assert table.loc["orchard", "planned runs"] == 36  # 6 variants x 2 models x 3 seeds
    assert table.loc["dbca", "command"] == "python -m tutorlib run dbca --profile full"
