"""Claims and verdicts (tutorlib.claims): the verdict rules on known cases, and every claim
resolved against the committed results."""

import math

import numpy as np
import pandas as pd
import pytest

from tutorlib import claims, results
from tutorlib.claims import ORDER, Claim, Ours, Rule, close_to, same_sign, stand_in, within
from tutorlib.dbca import experiments as dbca_experiments
from tutorlib.orchard import experiments as orchard_experiments
from tutorlib.orchard import report as orchard_report
from tutorlib.pcfgset import experiments as pcfgset_experiments
from tutorlib.scan import experiments as scan_experiments
from tutorlib.tre import dynamics, generalisation


@pytest.mark.parametrize("published, ours, interval, expected", [
    (99.7, 99.95, (None, None), "reproduced"),
    (13.8, 18.8, (None, None), "reproduced"),        # exactly 5 points: still within
    (90.0, 79.6, (None, None), "not reproduced"),    # one run, no interval: outside the band
    (90.0, 79.6, (70.0, 86.0), "partly"),            # the interval reaches the band (85-95)
    (90.0, 79.6, (75.0, 92.0), "reproduced"),        # the published value is in the interval
    (90.0, 51.9, (30.9, 72.9), "not reproduced"),
    (1.1, 16.7, (0.0, 67.0), "partly"),              # covers 1.1, but far wider than the band
    (0.08, 0.0, (None, None), "reproduced"),         # under 10%: at least half a point
    (1.2, 0.12, (0.0, 0.2), "not reproduced"),       # under 10%: half of 1.2, not 5 points
    (54.0, None, (None, None), "not yet run"),
    (54.0, math.nan, (None, None), "not yet run"),
])
def test_accuracy_rule(published, ours, interval, expected):
    assert within(5).verdict(published, ours, *interval) == expected


def test_the_papers_own_interval_widens_the_band():
    assert within(5).verdict(6.1, 3.4) == "reproduced"            # 6.1: band 3.05-9.15
    assert within(5).verdict(1.1, 0.45) == "not reproduced"       # band 0.55-1.65
    assert within(5).verdict(1.1, 0.45, spread=0.7) == "reproduced"
    assert within(5).band(1.1) == pytest.approx((0.55, 1.65))
    assert within(5).band(40.0, spread=7.0) == (33.0, 47.0)


@pytest.mark.parametrize("published, ours, interval, expected", [
    (0.50, 0.40, (None, None), "reproduced"),
    (-0.34, -0.30, (None, None), "reproduced"),
    (0.60, 0.32, (0.13, 0.48), "partly"),            # same sign, within 0.3
    (0.70, 0.37, (None, None), "not reproduced"),    # same sign, but 0.33 away: no bound met
    (0.70, 0.37, (0.10, 0.58), "partly"),            # the interval reaches the band
    (0.57, -0.31, (-0.48, -0.12), "not reproduced"), # the other sign
    (0.71, -0.51, (None, None), "not reproduced"),
    (0.57, None, (None, None), "not yet run"),
])
def test_correlation_rule(published, ours, interval, expected):
    assert same_sign(0.15).verdict(published, ours, *interval) == expected


def test_an_ordering_holds_in_full_in_part_or_not():
    assert [ORDER.verdict(1.0, share) for share in (1.0, 2 / 3, 0.0, None)] == [
        "reproduced", "partly", "not reproduced", "not yet run"]


def test_a_stand_in_says_whether_it_shows_the_effect():
    rule = stand_in(close_to(1.5))
    assert rule.verdict(1, 4.8) == "stand-in: effect not shown"     # daxy: 1 of 8 against 4.8
    assert rule.verdict(8, 8.0) == "stand-in: effect shown"
    assert rule.verdict(1, 4.8, 2.0, 7.6) == "stand-in: effect partly shown"
    assert rule.verdict(1, None) == "not yet run"
    assert set(claims.EFFECT.values()) <= set(claims.VERDICTS)


def test_no_rule_is_a_constant():
    """Every rule of every claim can give more than one verdict for a number of ours."""
    for claim in claims.CLAIMS:
        far = claim.published * 10 + 50 if claim.rule.kind != "order" else 0.0
        outcomes = {claim.rule.verdict(claim.published, value, None, None, claim.spread)
                    for value in (claim.published, far, -far)}
        assert len(outcomes) > 1, claim.claim


def test_intervals_over_seeds_and_for_correlations():
    ours = Ours.mean_of([10.0, 12.0, 14.0], planned=3, fit=0.95)
    assert ours.value == 12.0 and ours.low == pytest.approx(7.032, abs=1e-3) and ours.fitted
    assert Ours.mean_of([10.0], planned=3).low is None
    assert Ours.mean_of([10.0, 12.0], planned=3, fit=0.5).fitted is False
    x = np.arange(50.0)
    r = Ours.correlation(x, x + np.random.default_rng(0).normal(0, 20, 50), planned=50)
    assert r.low < r.value < r.high and r.runs == 50


def test_rules_refuse_nonsense():
    with pytest.raises(ValueError, match="kind"):
        Rule("closeish")
    with pytest.raises(ValueError, match="tolerance <= partly"):
        same_sign(0.5, partly=0.2)
    with pytest.raises(ValueError, match="stand-in rule needs an effect"):
        Rule("stand-in")
    with pytest.raises(ValueError, match="tolerance must be a number"):
        within(-1)


def test_a_partial_result_says_so():
    claim = Claim("X", "x/00_x", "andreas2019measuring", "a claim", 50.0, "%",
                  lambda: Ours(49.0, runs=3, planned=5))
    row = claims.table([claim]).iloc[0]
    assert row["verdict"] == "reproduced, partial" and row["runs"] == "3 of 5"
    done = Claim("X", "x/00_x", "andreas2019measuring", "a claim", 50.0, "%",
                 lambda: Ours(20.0, runs=3, planned=3))
    assert claims.table([done]).iloc[0]["verdict"] == "not reproduced"


@pytest.mark.slow
def test_every_claim_resolves_against_the_committed_results():
    table = claims.table()
    assert len(table) == len(claims.CLAIMS)
    assert set(table["verdict"].str.replace(", partial", "")) <= set(claims.VERDICTS)
    assert set(table["paper"]) <= set(claims.CITATIONS)
    for claim, (_, row) in zip(claims.CLAIMS, table.iterrows()):
        committed = results.committed(claim.experiment) if claim.experiment else None
        if committed is None:
            # a finding read from the paper's released networks only has no experiment of ours
            expected = "not yet run" if claim.experiment or claim.released is None else claims.NOT_MEASURED
            assert row["verdict"] == expected, claim.claim
        elif committed["data"].get("complete"):
            if claim.experiment == "orchard" and row["verdict"] == "not yet run":
                # ORCHARD's full profile trains the hard variants only: a claim that also reads
                # the easy or medium ones waits for the gpu profile
                assert "easy" in claim.claim or "medium" in claim.claim, claim.claim
                continue
            # a complete full-profile run has a number for every claim it covers; a partial
            # reading comes from another profile, read because its runs fit where these did not,
            # or from the full profile's runs that pass the fit gate, fewer than it planned
            # (no number where no run passes the fit gate: nothing of theirs is read)
            assert row["verdict"].startswith(claims.UNTESTED) or (
                row["ours"] is not None and not math.isnan(row["ours"])), claim.claim


@pytest.mark.slow
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
    # 21 numbers of Table 1, 8 orderings, and 13 findings the paper states in words (3 of them
    # Sec. 4.5's contrast of exception ratios)
    assert len(table[table["part"] == "PCFG SET"]) == 3 * len(pcfgset_experiments.PAPER) + 8 + 13
    assert table["claim"].str.contains("overgeneralises more with 0.1% exceptions").sum() == 3
    # depth-12 first trees of the hard variants (2 models x 2), the Transformer's second tree
    # (2), the Transformer against the LSTM in distribution (4) and the LSTM against the
    # Transformer beyond it (4), FIRST-LAST against MIN-MAX (2 models x 2 levels), COPY's
    # ordering (2 models x 2)
    orchard = table[table["part"] == "ORCHARD"]
    assert len(orchard) == 22
    assert orchard["claim"].str.contains("FIRST-LAST is easier than MIN-MAX").sum() == 4
    assert orchard["claim"].str.contains("at depths 9-12, the LSTM is ahead").sum() == 4
    assert dbca_experiments.PAPER["mcd"]["lstm_attention"] in set(table["published"])
    # Keysers et al.'s Table 4 with its intervals
    mcd = table[table["claim"].str.startswith("SCAN's MCD splits")]
    assert list(mcd["spread"]) == [dbca_experiments.PAPER["mcd_interval"][n]
                                   for n in ("lstm_attention", "transformer")]


@pytest.mark.slow
def test_our_numbers_are_the_experiment_modules_numbers():
    """The claims read through the experiment modules' own comparisons."""
    if results.committed("scan") is None:
        pytest.skip("no committed SCAN results")
    compared = scan_experiments.compare_with_paper(["simple", "addprim_jump"])
    table = claims.table()
    simple = table[table["claim"].str.contains("simple \\(random\\) split")].iloc[0]
    assert simple["ours"] == pytest.approx(compared.loc[("simple", "overall_best"), "test accuracy (%)"])
    assert simple["verdict"] == "reproduced"
    orchard = table[(table["part"] == "ORCHARD") & (table["unit"] == "%")]
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
        # a claim about one tree is gated on that tree's fit
        assert row["fitted"] == all(orchard_report.fits(r, tree) for r in runs)
        verdict = row["verdict"].removesuffix(", partial")  # a begun profile says so
        assert (verdict == claims.UNTESTED) == (not row["fitted"])


@pytest.mark.slow
def test_the_paper_s_released_networks_have_their_own_column():
    from tutorlib.pcfgset import report

    table = claims.table()
    pcfgset = table[table["part"] == "PCFG SET"]
    others = table[table["part"] != "PCFG SET"]
    assert set(others["released verdict"]) == {""}
    assert pcfgset["released verdict"].astype(bool).all()
    # Table 1 cells: the released networks' mean as pcfgset.released computes it
    t1 = report.released_scores().dropna(subset=["mean"])
    for row in t1[t1["published"].notna()].to_dict("records"):
        claim = pcfgset[pcfgset["claim"].str.endswith(f": {row['network']}")
                        & (pcfgset["published"] == row["published"])]
        assert row["mean"] in set(claim["released"]), row
    # the release has no localism of ConvS2S or the Transformer
    localism = pcfgset[pcfgset["claim"].str.startswith("localism")]
    assert list(localism["released verdict"]) == ["reproduced", "not in the release",
                                                  "not in the release"]
    # no fit gate on the paper's own networks; ours stay gated
    assert not (pcfgset["released verdict"] == claims.UNTESTED).any()
    shown = claims.formatted(table, part="PCFG SET")
    assert claims.RELEASED_COLUMN in shown and claims.RELEASED_VERDICT_COLUMN in shown
    assert claims.RELEASED_COLUMN not in claims.formatted(table, part="SCAN")


def test_nothing_committed_means_not_yet_run(monkeypatch, tmp_path):
    monkeypatch.setenv("TUTORLIB_RESULTS_DIR", str(tmp_path))
    table = claims.table()
    ours = table["experiment"] != ""
    assert set(table.loc[ours, "verdict"]) == {"not yet run"}
    assert set(table.loc[~ours, "verdict"]) <= {"not yet run", claims.NOT_MEASURED}
    assert set(table["runs"]) == {""}


@pytest.mark.slow
def test_the_reading_tables():
    frame = claims.table()
    shown = claims.formatted(frame)
    assert list(shown.columns) == ["claim", "published", "ours", "fit", "runs", "profile",
                                   "verdict"]
    assert shown.index.names == ["part", "number"]
    assert shown.index[0] == ("SCAN: Lake & Baroni (2018)", 1)
    assert "%" in shown["published"].iloc[0]
    missing = frame.copy()  # a claim without committed runs shows a dash, not NaN
    missing.loc[missing.index[0], ["ours", "low", "high"]] = np.nan
    assert claims.formatted(missing)["ours"].iloc[0] == "—"
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
    assert table.loc["orchard", "planned runs"] == 12  # 2 hard variants x 2 models x 3 seeds
    assert table.loc["dbca", "command"] == "python -m tutorlib run dbca --profile full"


def test_the_fig4_trend_counts_the_orderings_of_three_length_bins(monkeypatch):
    from tutorlib.scan import claims as scan_claims

    def runs(by_length):
        return pd.DataFrame({"by_length": [{"action length": by_length}],
                             "train_accuracy": [0.99]})

    falling = {"24": 0.9, "25": 0.5, "26": 0.1, "32": 0.0, "33": 0.0, "48": 0.0}
    monkeypatch.setattr(scan_claims, "_scan_runs", lambda split, network: runs(falling))
    ours = scan_claims._scan_length_trend("overall_best")()
    assert ours.value == 1.0 and ours.fitted and ours.text == "70.0% > 5.0% > 0.0%"
    rising = {"24": 0.0, "25": 0.0, "26": 0.5, "32": 0.5, "33": 0.9, "48": 0.9}
    monkeypatch.setattr(scan_claims, "_scan_runs", lambda split, network: runs(rising))
    assert scan_claims._scan_length_trend("overall_best")().value == 0.0
    middle_low = {"24": 0.9, "25": 0.9, "26": 0.0, "32": 0.0, "33": 0.5, "48": 0.5}
    monkeypatch.setattr(scan_claims, "_scan_runs", lambda split, network: runs(middle_low))
    assert scan_claims._scan_length_trend("overall_best")().value == pytest.approx(2 / 3)


@pytest.mark.slow
def test_no_comparison_row_mixes_profiles():
    """A comparison between networks (an ordering) reads every member from one profile and
    names it; its numbers are that profile's own."""
    from tutorlib.orchard import report as orchard_report
    from tutorlib.pcfgset import report as pcfgset_report

    table = claims.table()
    compared = table[(table["unit"] == "order") & table["experiment"].isin(["pcfgset", "orchard"])
                     & table["ours"].notna()]
    assert len(compared) >= 10
    for row in compared.to_dict("records"):
        assert row["ours text"].startswith(f"{row['profile']} profile: "), row["claim"]
    # ORCHARD's in-distribution row: both networks from the profile it names
    row = compared[compared["claim"].str.contains("ahead of the LSTM on firstlast medium")].iloc[0]
    records = orchard_report.committed_by_profile()[row["profile"]]
    for model, name in (("transformer", "Transformer"), ("lstm", "LSTM")):
        found = orchard_report.claim_reading(model, "firstlast_medium", "both", depth=(3, 4, 5, 6),
                                             by_profile={row["profile"]: records})
        # the mean of the runs that pass the fit gate; none passing: no number ("—")
        kept = [v for v, ok in zip(found["values"], found["passed"]) if ok]
        shown = f"{np.mean(kept):.1f}" if kept else "—"
        assert f"{name} firstlast medium {shown}" in row["ours text"]
    # PCFG SET's ordering of the three architectures on the task: one profile for all three
    row = compared[compared["claim"] == "on the task, Transformer > ConvS2S > LSTMS2S"].iloc[0]
    for network in ("Transformer", "ConvS2S", "LSTMS2S"):
        values, _ = pcfgset_report.claim_runs("task", network, row["profile"])
        assert f"{network} {np.mean(values):.1f}" in row["ours text"]


def test_a_subset_equal_to_the_whole_says_so():
    # TRE, Sec. 7: "successful runs only" is every run when every run is successful
    from tutorlib.tre import generalisation

    runs = generalisation.committed_runs("full")
    if runs.empty:
        pytest.skip("no committed tre_generalisation runs")
    table = claims.table([c for c in claims.CLAIMS if c.part == "TRE"])
    both = table[table["claim"].str.contains("r\\(TRE, gap\\)$|successful runs only")]
    assert len(both) == 2
    # both read only the runs that pass the fit gate
    fitted = generalisation.fitted_runs("full")
    every = (fitted["test reward"] > generalisation.PAPER["successful test reward"]).all()
    assert (both["ours"].iloc[0] == both["ours"].iloc[1]) == every
    assert f"the {len(fitted)} of {len(runs)} runs that fit" in both["ours text"].iloc[0]
    if every:
        assert "every one is successful" in both["ours text"].iloc[1]


def test_each_part_s_claims_live_beside_the_part():
    from tutorlib.dbca import claims as dbca_claims
    from tutorlib.orchard import claims as orchard_claims
    from tutorlib.pcfgset import claims as pcfgset_claims
    from tutorlib.scan import claims as scan_claims
    from tutorlib.tre import claims as tre_claims

    parts = {"SCAN": scan_claims, "TRE": tre_claims, "PCFG SET": pcfgset_claims,
             "ORCHARD": orchard_claims, "DBCA": dbca_claims}
    gathered = []
    for part, module in parts.items():
        mine = module.claims()
        assert mine and {c.part for c in mine} == {part}
        gathered += [c.claim for c in mine]
    assert gathered == [c.claim for c in claims.CLAIMS]  # the page gathers them in book order
    # the engine holds no part's claims
    import tutorlib.verdicts as verdicts
    assert not hasattr(verdicts, "CLAIMS")


def test_the_claims_counted_by_part():
    import pandas as pd

    frame = pd.DataFrame({
        "part": ["SCAN", "SCAN", "PCFG SET", "PCFG SET", "TRE"],
        "paper": ["lake2018generalization"] * 2 + ["hupkes2020compositionality"] * 2
        + ["andreas2019measuring"],
        "claim": list("abcde"),
        "verdict": ["reproduced", "not reproduced, partial", claims.UNTESTED, claims.NOT_MEASURED,
                    "stand-in: effect shown"],
        "released verdict": ["", "", "reproduced", "partly", ""]})
    counts = claims.tested_counts(frame)
    assert list(counts.index) == ["SCAN", "PCFG SET", "TRE", "all"]
    assert counts.loc["SCAN"].tolist() == [2, 2, 0, 0, 0]
    assert counts.loc["PCFG SET"].tolist() == [2, 0, 0, 2, 1]
    assert counts.loc["TRE", "with a stand-in"] == 1
    assert counts.loc["all"].tolist() == [5, 2, 1, 2, 1]


def test_a_level_read_from_a_reduced_task_is_shown_not_judged():
    ours = claims.Ours(95.0, 3, 3, fitted=True, reduced=True)
    level = claims.Claim("PCFG SET", "pcfgset/12_pcfgset_tests", "k", "task: LSTMS2S", 79.0, "%",
                         lambda: ours, experiment="pcfgset")
    assert level.verdict() == claims.REDUCED
    # an ordering read from the same networks is judged
    order = claims.order_reading({"a": 90.0, "b": 80.0}, ["a", "b"], [0.95], 3, 3, "full",
                                 fitted=True, reduced=True,
                                 per_run={"a": [89.0, 90.0, 91.0], "b": [79.0, 80.0, 81.0]})
    ordering = claims.Claim("PCFG SET", "pcfgset/12_pcfgset_tests", "k", "a > b", 1.0, "order",
                            lambda: order, claims.ORDER, "pcfgset")
    assert ordering.verdict() == "reproduced"
    # a network that failed the gate stays untested, reduced or not
    unfit = claims.Ours(95.0, 3, 3, fitted=False, reduced=True)
    assert claims.Claim("PCFG SET", "c", "k", "x", 79.0, "%", lambda: unfit,
                        experiment="pcfgset").verdict() == claims.UNTESTED


def test_an_order_of_levels_the_stopping_rule_set_is_shown_not_judged():
    order = claims.order_reading({"a": 80.0, "b": 90.0}, ["a", "b"], [0.95], 3, 3, "full",
                                 fitted=True, reduced=True, levels=True)
    claim = claims.Claim("PCFG SET", "c", "k", "on the task, a > b", 1.0, "order",
                         lambda: order, claims.ORDER, "pcfgset")
    assert claim.verdict() == claims.REDUCED
    table = claims.table()
    task_order = table[table["claim"] == "on the task, Transformer > ConvS2S > LSTMS2S"].iloc[0]
    if task_order["profile"] == "full" and task_order["fitted"]:
        assert task_order["verdict"].startswith(claims.REDUCED)


def test_an_untested_row_says_why_and_only_an_untested_one():
    unfit = claims.Ours(40.0, 3, 3, fitted=False)
    fitted = claims.Ours(40.0, 3, 3, fitted=True)
    rows = [claims.Claim("ORCHARD", "orchard/14_orchard", "k", name, 40.0, "%", lambda o=ours: o,
                         experiment="orchard", why_untested=lambda: "no pilot fitted it")
            for name, ours in (("a", unfit), ("b", fitted))]
    rows.append(claims.Claim("ORCHARD", "orchard/14_orchard", "k", "c", 40.0, "%",
                             lambda: unfit, experiment="orchard"))
    frame = claims.table(rows)
    assert list(frame["why untested"]) == ["no pilot fitted it", "", ""]
    reasons = claims.untested_reasons(frame, part="ORCHARD")
    assert list(reasons.index) == [1, 3] and list(reasons["why"]) == ["no pilot fitted it", "—"]
    with pytest.raises(ValueError, match="no claims for part 'CFQ'"):
        claims.untested_reasons(frame, part="CFQ")


def test_the_committed_untested_rows_name_their_reason():
    frame = claims.table()
    for part in ("PCFG SET", "ORCHARD"):
        reasons = claims.untested_reasons(frame, part=part)
        # a row read from runs that failed the gate names a run, a pilot or the committed runs
        assert all(("seed" in why or "pilot" in why or "committed runs" in why)
                   for why in reasons["why"] if why != "—")
    pcfgset = claims.untested_reasons(frame, part="PCFG SET")
    assert (pcfgset["why"] != "—").all()  # every failing PCFG SET run is in the full profile


# ---------------------------------------------------------------------------------------------
# What the runs support: the engine's three rules (tutorlib.verdicts)


def _level(ours):
    return Claim("X", "x/00_x", "andreas2019measuring", "a level", 90.0, "%", lambda: ours)


def test_the_fit_gate_holds_for_every_run_not_their_mean():
    # mean fit 0.90 passes the gate, but two runs of five fail it: they are left out
    ours = Ours.mean_of([60.0, 62.0, 88.0, 90.0, 92.0], 5, fits=[0.80, 0.85, 0.95, 0.96, 0.94])
    assert (ours.runs, ours.dropped, ours.value, ours.fit) == (3, 2, 90.0, 0.94)
    assert ours.complete and _level(ours).verdict() == "reproduced"
    row = claims.formatted(claims.table([_level(ours)])).iloc[0]
    assert row["runs"] == "3/5 (2 unfit left out)"
    # too few runs pass: untested, not "unresolved"
    few = Ours.mean_of([60.0, 90.0, 91.0], 3, fits=[0.80, 0.95, 0.96])
    assert _level(few).verdict() == claims.UNTESTED
    none = Ours.mean_of([60.0, 61.0], 3, passed=[False, False])
    assert none.runs == 0 and _level(none).verdict() == claims.UNTESTED
    with pytest.raises(ValueError, match="one fit"):
        Ours.mean_of([1.0, 2.0], 3, passed=[True])


def test_a_level_needs_three_runs():
    two = Ours.mean_of([86.0, 87.0], 3, fits=[0.99, 0.99])
    assert _level(two).verdict() == claims.UNRESOLVED
    assert claims.table([_level(two)]).iloc[0]["verdict"] == "unresolved, partial"
    assert _level(Ours.mean_of([86.0, 87.0, 88.0], 3)).verdict() == "reproduced"


def test_an_ordering_is_reproduced_only_where_the_runs_support_it():
    from tutorlib.verdicts import order_verdict, pair_support

    def ordering(per_run, paired=False, passed=None):
        means = {k: sum(v) / len(v) for k, v in per_run.items()}
        ours = claims.order_reading(means, list(per_run), [0.95], 3, 3, "full", per_run=per_run,
                                    paired=paired, passed=passed)
        return Claim("X", "x/00_x", "andreas2019measuring", "a > b", 1.0, "order", lambda: ours,
                     ORDER).verdict()

    apart = {"a": [90.0, 91.0, 92.0], "b": [80.0, 81.0, 82.0]}
    assert ordering(apart) == "reproduced"
    assert ordering({"a": apart["b"], "b": apart["a"]}) == "not reproduced"
    # the means are in order but the intervals overlap: unresolved, unless paired and one way
    close = {"a": [90.0, 70.0, 92.0], "b": [80.0, 69.0, 82.0]}
    assert ordering(close) == claims.UNRESOLVED
    assert ordering(close, paired=True) == "reproduced"
    assert pair_support([1.0, 2.0], [0.0, 0.5]) == 0  # two runs settle nothing
    # three members, one pair unsettled: partly
    assert ordering({"a": [90.0, 91.0, 92.0], "b": [80.0, 81.0, 82.0],
                     "c": [70.0, 95.0, 60.0]}) == "partly"
    assert [order_verdict(*p) for p in ((3, 0, 3), (1, 0, 3), (0, 1, 3), (0, 0, 3))] == [
        "reproduced", "partly", "not reproduced", claims.UNRESOLVED]
    # without the runs (only means), an ordering is unresolved
    means_only = claims.order_reading({"a": 90.0, "b": 80.0}, ["a", "b"], [0.95], 3, 3, "full")
    assert Claim("X", "x/00_x", "andreas2019measuring", "a > b", 1.0, "order",
                 lambda: means_only, ORDER).verdict() == claims.UNRESOLVED
    # a run that fails the gate is left out of its member; too few left: untested
    unfit = {"a": [True, True, False], "b": [True, True, True]}
    assert ordering(apart, passed=unfit) == claims.UNTESTED


def test_an_interval_of_no_width_says_every_run_was_the_same():
    same = Ours.mean_of([300 / 7] * 3, 3)
    row = claims.formatted(claims.table([_level(same)])).iloc[0]
    assert "every run the same" in row["ours"]


def test_orchard_levels_the_paper_compares_read_one_profile():
    table = claims.table()
    orchard = table[(table["part"] == "ORCHARD") & table["claim"].str.contains(": first tree")]
    for variant in ("minmax hard", "firstlast hard"):
        pair = orchard[orchard["claim"].str.contains(variant)]
        assert len(pair) == 2 and pair["profile"].nunique() == 1, variant
    # a profile whose training depths differ from the paper's says so
    for _, row in orchard.iterrows():
        assert (row["setting"] != "") == (row["profile"] == "full"), row["claim"]
