"""The PCFG SET authors' released predictions, read from the committed files and scored by our
scorers: counts from the release's files, and Table 1 of Hupkes et al. (2020) to within half a
point (or with the reason it differs)."""

import pytest

from tutorlib import pcfgset
from tutorlib.pcfgset import released, report
from tutorlib.pcfgset.experiments import PAPER
from tutorlib.pcfgset.scores import accuracy


def test_every_test_set_has_the_release_s_size_and_nine_runs():
    # the lines of the release's data/pcfgset test files (without the prediction files' header)
    sizes = {"pcfgset": 9721, "systematicity": 10175, "productivity": 11333,
             "substitutivity_equally_distributed": 10000,
             "substitutivity_equally_distributed_twin": 10000,
             "substitutivity_primitive": 10000, "substitutivity_primitive_twin": 10000}
    for test, size in sizes.items():
        table = released.frame(test)
        assert len(table) == size, test
        assert list(table.columns[2:]) == [f"{a}_{r}" for a in released.ARCHITECTURES
                                           for r in released.RUNS]
        assert "=" not in set(table["lstms2s_1"])  # the packing's shorthand is expanded


def test_twins_are_line_aligned_with_their_inputs():
    for condition in released.CONDITIONS:
        original = released.frame(f"substitutivity_{condition}")
        twin = released.frame(f"substitutivity_{condition}_twin")
        stripped = twin["source"].str.replace("_twin", "", regex=False)
        assert (stripped == original["source"]).all()
        assert (twin["target"] == original["target"]).all()


def test_runs_scored_by_hand_from_the_release():
    # counted in the release's own files (correct lines of run=1.txt, header excluded)
    assert released.score("lstms2s", "pcfgset", 1) == pytest.approx(7630 / 9721)
    rows = released.examples("convs2s", "systematicity", 2)
    assert len(rows) == 10175 and isinstance(rows[0], released.Example)
    assert sum(r.correct for r in rows) / len(rows) == pytest.approx(
        released.score("convs2s", "systematicity", 2))
    assert accuracy([r.prediction for r in rows], [r.target for r in rows]) == pytest.approx(0.5693, abs=1e-4)


def test_localism_agrees_with_the_release_s_own_verdicts():
    # the release marks each input True or False; ours recomputes it from the predictions
    counts = {1: 4345, 2: 4391, 3: 4411}
    for run, same in counts.items():
        blocks = released.localism_blocks(run)
        assert len(blocks) == 9567
        assert all((b.whole.split() == b.unrolled.split()) == b.released_same for b in blocks)
        assert released.localism(run) == pytest.approx(same / 9567)


def test_overgeneralisation_logs_and_their_peaks():
    curves = released.overgeneralisation_curves("lstms2s", 0.001, 1)
    assert len(curves["memorisation"]) == len(curves["overgeneralisation"]) == 26
    assert curves["overgeneralisation"][2] == pytest.approx(39 / 66)  # epoch 3 of the log
    assert released.overgeneralisation("lstms2s", 0.001, 1) == pytest.approx(44 / 66)
    # the released exception test set: the rule's output never equals the exception's
    exceptions = released.exceptions(0.001)
    assert len(exceptions) == 125
    assert (exceptions["exception_target"] != exceptions["original_target"]).all()
    profiles = released.overgeneralisation_profiles()
    assert set(profiles["ratio"]) == {0.01, 0.05, 0.1, 0.5}
    assert len(profiles.groupby(["network", "ratio", "run"])) == 36


def test_table1_from_the_released_networks_matches_the_paper():
    table = report.released_scores()
    published = table.dropna(subset=["published", "mean"])
    # every published cell the release allows: 3 architectures x 6 tests + LSTMS2S localism
    assert len(published) == 19
    for row in published.to_dict("records"):
        assert row["published"] == PAPER[row["row"]][row["network"]]
        assert row["low"] <= row["mean"] <= row["high"]
    # within half a point, except the two LSTMS2S consistencies, which the table explains
    off = report.released_discrepancies(0.5)
    assert sorted(zip(off["row"], off["network"])) == [
        ("substitutivity_equally_distributed", "LSTMS2S"), ("substitutivity_primitive", "LSTMS2S")]
    assert (off["empty pairs"] > 0).all()
    assert ((off["mean, empty consistent"] - off["published"]).abs() <= 0.5).all()
    assert table.loc[(table["row"] == "localism") & (table["network"] != "LSTMS2S"), "mean"].isna().all()


def test_the_paper_s_plus_minus_is_a_population_standard_deviation():
    row = report.released_scores().query("row == 'overgeneralisation' and network == 'LSTMS2S'").iloc[0]
    assert row["paper's ±"] == pytest.approx(4.46, abs=0.01)  # the paper: 0.68 ± 0.04


def test_analyses_beyond_table1():
    pairs = released.by_pair()
    assert list(pairs.index) == ["swap_first_last repeat", "append remove_second",
                                 "repeat remove_second", "append swap_first_last"]
    assert (pairs["examples"] > 0).all() and pairs["examples"].sum() >= 10175
    control = released.productivity_control()
    assert control.index.min() >= 15 and len(control) > 10
    below = released.productivity_below_task()
    assert set(below) == {"LSTMS2S", "ConvS2S", "Transformer"}
    assert all(0 <= v <= 1 for v in below.values())
    synonyms = released.by_synonym("primitive")
    assert list(synonyms["examples"]) == [2500] * 4
    depths = released.by_property("pcfgset", "depth", min_examples=1)
    assert depths["examples"].sum() == 9721
    long = released.localism_long_strings(1)
    assert long["long inputs"] + long["short inputs"] == 9567
    assert pcfgset.longest_argument("remove_first A1 B2 C3 , D4") == 3
    failures = released.failures("pcfgset")
    assert 0 < len(failures) < 9721


@pytest.mark.parametrize("call, message", [
    (lambda: released.frame("localism"), "unknown test 'localism'"),
    (lambda: released.examples("gru", "pcfgset", 1), "unknown architecture 'gru'"),
    (lambda: released.examples("lstms2s", "pcfgset", 4), "unknown run 4"),
    (lambda: released.overgeneralisation("lstms2s", 0.002, 1), "unknown exception ratio 0.002"),
    (lambda: released.by_property("pcfgset", "width"), "unknown property 'width'"),
    (lambda: released.substitutivity("lstms2s", "rare", 1), "unknown condition 'rare'"),
])
def test_bad_names_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_chapter_s_tables_and_figures():
    table = report.released_table1()
    assert table.shape == (7, 6)
    assert table.loc["Localism (consistency)", ("ConvS2S", "released, scored by us")] == "not in the release"
    assert table.loc["Task accuracy", ("Transformer", "published")] == 92
    scores = report.released_scores()
    cells = scores[scores["published"].notna() & scores["mean"].notna()]
    assert len(cells) == 19 and len(report.released_discrepancies(0.5)) == 2
    fig = report.plot_released_overgeneralisation()
    assert len(fig.axes) == 12 and fig.axes[0].get_title() == "0.01% exceptions"
    fig = report.plot_released_productivity()
    assert [ax.get_title() for ax in fig.axes] == ["LSTMS2S", "ConvS2S", "Transformer"]


def test_table1_three_ways_keeps_unfitted_numbers_in_brackets():
    table = report.side_by_side("full")
    assert table.shape == (7, 9)
    assert table.loc["task", ("Transformer", "published")] == "92"
    assert table.loc["task", ("Transformer", "paper's networks, scored by us")] == "91.7"
    assert table.loc["localism", ("ConvS2S", "paper's networks, scored by us")] == "—"
    for test in table.index:
        for network in ("LSTMS2S", "ConvS2S", "Transformer"):
            mean, _, fitted = report.claim_fit(test, network, "full")
            cell = table.loc[test, (network, "ours (full profile, reduced task f3-o24)")]
            assert cell == ("—" if mean is None else f"{mean:.1f}" if fitted else f"({mean:.1f})")
    fig = report.plot_released_by_property()
    assert len(fig.axes) == 3
