"""tutorlib.scan.report and tutorlib.facts: the facts chapter 5 glues, from the committed runs."""

import pytest

from tutorlib import facts, profiles
from tutorlib.scan import experiments as exps
from tutorlib.scan import report


def test_numbers_are_formatted_as_the_prose_states_them():
    assert facts.number(1234.567) == "1,234.6"
    assert facts.number(20910, 0) == "20,910"
    assert facts.number(0.08, 2) == "0.08"
    with pytest.raises(ValueError, match="digits must be a non-negative integer"):
        facts.number(1.0, -1)


def test_glue_facts_glues_each_name_without_displaying(monkeypatch):
    import myst_nb

    glued = []
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: glued.append(
        (name, value, display)))
    facts.glue_facts({"a": "1.0", "b": "two", "c": facts.number(3.14159, 2)})
    assert glued == [("a", "1.0", False), ("b", "two", False), ("c", "3.14", False)]


def test_the_papers_composed_jump_curve():
    # Lake & Baroni (2018), Fig. 5
    assert report.paper_jump_curve() == {4: 4.1, 8: 15.3, 16: 70.2, 32: 89.9}


def test_exp3_facts_from_the_committed_runs():
    committed = exps.committed_runs()
    settings = profiles.settings("scan", "ci")
    live = {"addprim_jump": {"accuracy": 0.0123, "train_accuracy": 0.95},
            "addprim_turn_left": {"accuracy": 0.5, "train_accuracy": 0.9}}
    found = report.exp3_facts(committed, None, live, settings, "a tiny LSTM")
    # the published numbers, as the paper states them
    assert found["exp3_paper_jump"] == "0.08" and found["exp3_paper_turn_left"] == "90.0"
    assert found["exp3_paper_num8"] == "15.3" and found["exp3_paper_past_half"] == "16"
    assert found["exp3_control_lr"] == "0.001" and found["exp3_control_presentations"] == "100,000"
    # this page's live runs and settings
    assert found["exp3_live_jump"] == "1.23" and found["exp3_live_turn_left_train"] == "90.0"
    assert found["exp3_network"] == "a tiny LSTM"
    # the committed runs, as accuracy_summary gives them
    stats = exps.accuracy_summary(committed).xs("overall_best", level="network")
    assert found["exp3_jump"] == f"{stats.loc['addprim_jump', 'accuracy']:,.2f}"
    assert found["exp3_turn_left_max"] == f"{stats.loc['addprim_turn_left', 'accuracy max']:,.1f}"
    curve = report.composed_jump_curve(committed)
    assert found["exp3_num16"] == f"{curve.loc[16, 'accuracy']:,.1f}"
    assert all(f"exp3_{name}" in found for name in report.LOULA_SPLITS)
    assert "exp3_filler_num0_min" in found and "exp3_template_right_min" not in found


def test_exp1_numbers_and_exp2_facts_from_the_committed_runs():
    committed = exps.committed_runs()
    settings = profiles.settings("scan", "ci")
    live = {"accuracy": 0.5, "train_accuracy": 0.75, "oracle_accuracy": 0.25}
    # what chapter 3 reads (its sentences are written in the chapter): Lake & Baroni's numbers
    # and the 1% split's size
    assert exps.PAPER["simple"]["overall_best"] == 99.7
    assert round(exps.PAPER["simple_p1"]["overall_best"]) == 5
    assert len(exps.scan.split("simple_p1")[0]) == 209  # 1% of the 20,910 commands
    full = profiles.settings("scan", "full")["recipe"]
    assert full["presentations"] / full["batch_size"] == 8_000  # 256,000 in batches of 32
    two = report.exp2_facts(committed, live, settings, "net")
    # the length split: training on actions of at most 22, testing on 24-48 (Lake & Baroni)
    assert two["exp2_cutoff"] == "22"
    assert (two["exp2_test_shortest"], two["exp2_test_longest"]) == ("24", "48")
    assert (two["exp2_train_size"], two["exp2_test_size"]) == ("16,990", "3,920")
    assert two["exp2_paper_lstm"] == "13.8" and two["exp2_paper_gru_oracle"] == "60.2"
    assert two["exp2_live_oracle"] == "25.0"
    assert two["exp2_example_length"] == "25"  # (jump around left: 8) x 2 + (walk opposite right: 3) x 3
    lstm = sorted(committed.query("split == 'length' and network == 'overall_best'")
                  ["oracle_accuracy"])
    assert two["exp2_lstm_oracle_best"] == f"{100 * lstm[-1]:,.1f}"


def test_the_length_table_and_figures_from_the_committed_runs():
    import matplotlib

    matplotlib.use("Agg")
    committed = exps.committed_runs()
    table = report.length_table(committed)
    assert list(table.index) == ["overall-best", "Exp. 2 best"]
    lstm = committed.query("split == 'length' and network == 'overall_best'")
    assert table.loc["overall-best", "seeds"] == len(lstm)
    assert table.loc["overall-best", "oracle length (%)"] == pytest.approx(
        100 * lstm["oracle_accuracy"].mean())
    assert table.loc["Exp. 2 best", "published, oracle length (%)"] == 60.2  # Lake & Baroni
    empty = report.length_table(committed[committed["split"] != "length"])
    assert empty.iloc[0, 0].startswith("not yet committed")
    fig = report.plot_committed_length(committed)
    # every seed of both networks, greedy and oracle, beside the four published means
    points = fig.axes[0].get_lines()
    assert sum(len(line.get_xdata()) for line in points) == \
        2 * len(committed.query("split == 'length'")) + 4


def test_the_neighbour_table_beside_the_papers():
    table = report.neighbour_table({"run": [("look", 0.73), ("walk", 0.65), ("x", 0.1)]})
    assert table.loc[("run", 1)].tolist() == ["look (0.73)", "look (0.73)"]  # the paper's Table 1


def test_translation_facts_from_the_committed_runs():
    from tutorlib.scan import translation

    runs = translation.committed_runs("full")
    facts = report.translation_facts(runs)
    daxy = [r["right"] for r in runs["daxy"]]
    assert facts["exp4_full_seeds"] == str(len(runs))
    assert facts["exp4_full_daxy_range"] in (f"{min(daxy)} to {max(daxy)}", f"{min(daxy)}")
    table = report.translation_table(runs)
    assert table.loc["published (real corpus)", "daxy: right of 8"] == \
        translation.PAPER["daxy"]["right"]
    assert report.translation_facts(runs.iloc[:0]) == dict.fromkeys(report.TRANSLATION_FACTS, "–")


def test_the_task_figures_count_every_command():
    import matplotlib

    matplotlib.use("Agg")
    pairs = exps.scan.all_pairs()
    fig = report.plot_lengths(pairs)
    bars = fig.axes[0].patches
    assert sum(bar.get_height() for bar in bars) == len(pairs) == 20_910
    assert max(bar.get_x() + bar.get_width() / 2 for bar in bars) == 48  # the longest: 48
    fig = report.plot_test_lengths(["length"])
    (line,) = fig.axes[0].get_lines()
    assert min(line.get_xdata()) == 24 and sum(line.get_ydata()) == pytest.approx(1.0)
