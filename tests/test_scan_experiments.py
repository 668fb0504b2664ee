import numpy as np
import pytest
import torch

from tutorlib import cache, results, scan
from tutorlib import seq2seq as s2s
from tutorlib.scan import experiments as exps

TINY = {"cell": "gru", "hidden_size": 16, "num_layers": 1, "dropout": 0.0, "attention": True}


@pytest.mark.slow
def test_a_run_is_cached_and_reports_per_example_outcomes():
    first = exps.run("length", TINY, seed=0, presentations=256, batch_size=32, max_test=40)
    assert len(first["correct"]) == first["test_size"] == 40
    assert 0.0 <= first["accuracy"] <= 1.0 and first["accuracy"] == sum(first["correct"]) / 40
    assert len(first["oracle_correct"]) == 40  # length split: oracle-length evaluation too
    assert first["presentations"] == 256
    # the second call loads from the cache: same numbers, and no new cache entry
    entries = list(cache.cache_dir().glob("scan-run/*.pkl"))
    again, model = exps.run("length", TINY, seed=0, presentations=256, batch_size=32, max_test=40,
                            return_model=True)
    assert again == first and list(cache.cache_dir().glob("scan-run/*.pkl")) == entries
    assert not model.training


@pytest.mark.slow
def test_accuracy_by_length_matches_the_outcomes():
    result = exps.run("length", TINY, seed=0, presentations=256, batch_size=32, max_test=40)
    by = exps.accuracy_by_length("length", result, max_test=40)
    test = exps.test_subset("length", 40)
    counts = scan.length_counts(test)[0]
    assert set(by["action length"]) == set(counts)
    assert all(n > 22 for n in by["action length"])
    overall = sum(by["action length"][n] * counts[n] for n in counts) / len(test)
    assert overall == pytest.approx(result["accuracy"])
    with pytest.raises(ValueError, match="test outcomes"):
        exps.accuracy_by_length("length", {"correct": [1, 0]}, max_test=40)


@pytest.mark.slow
def test_nearest_neighbours_exclude_the_query_and_rank_by_similarity():
    _, model = exps.run("simple", TINY, seed=0, presentations=256, batch_size=32, max_test=20,
                        return_model=True)
    found = exps.nearest_neighbours(model, ["run", "jump twice"], k=3)
    for query, neighbours in found.items():
        assert len(neighbours) == 3 and query not in [c for c, _ in neighbours]
        similarities = [s for _, s in neighbours]
        assert similarities == sorted(similarities, reverse=True)
    with pytest.raises(ValueError, match="unknown word 'dax'"):
        exps.nearest_neighbours(model, ["dax"])
    # by the decoder's state when it emits the end (Lake & Baroni's Table 1), batch by batch
    # the same as one command at a time
    by_decoder = exps.nearest_neighbours(model, ["run", "jump twice"], k=3, state="decoder",
                                         candidates=["walk", "look twice", "run and walk", "jump"])
    assert [len(v) for v in by_decoder.values()] == [3, 3]
    source, lengths = s2s.pad_batch([[5, 6], [7]])
    with torch.no_grad():
        together = model.final_decoder_hidden(source, lengths, max_length=49)
        alone = torch.cat([model.final_decoder_hidden(*s2s.pad_batch([s]), max_length=49)
                           for s in ([5, 6], [7])])
    assert torch.allclose(together, alone, atol=1e-6)
    with pytest.raises(ValueError, match="state must be one of"):
        exps.nearest_neighbours(model, ["run"], state="hidden")


def test_the_full_profile_neighbour_table_sets_both_states_beside_the_paper():
    import pandas as pd

    from tutorlib.scan import report

    rows = [{"state": state, "query": query, "rank": rank, "command": f"{query} {state} {rank}",
             "similarity": 0.9 - rank / 10, "paper command": exps.PAPER_NEIGHBOURS[query][rank - 1],
             "paper similarity": exps.PAPER_SIMILARITIES[query][rank - 1]}
            for state in exps.STATES for query in exps.PAPER_NEIGHBOURS for rank in (1, 2, 3)]
    frame = pd.DataFrame(rows)
    frame.attrs.update(train_accuracy=0.9995, accuracy=0.0)
    table = report.full_neighbour_table(frame)
    assert list(table.columns) == ["ours, encoder state", "ours, decoder state",
                                   "published (Table 1)"]
    assert table.loc[("jump", 1), "published (Table 1)"] == "run (0.15)"
    assert table.loc[("run twice", 2), "ours, decoder state"] == "run twice decoder 2 (0.70)"
    assert list(dict.fromkeys(table.index.get_level_values(0))) == list(exps.PAPER_NEIGHBOURS)
    with pytest.raises(ValueError, match="no committed neighbour study"):
        report.full_neighbour_table(frame.iloc[0:0])


def test_run_pairs_trains_on_a_split_of_your_own_and_caches_it():
    train = [p for p in scan.all_pairs() if len(p[1].split()) <= 4]
    test = [p for p in scan.all_pairs() if 4 < len(p[1].split()) <= 6]
    first = exps.run_pairs(train, test, TINY, seed=0, presentations=256, batch_size=32, max_test=30)
    assert first["test_size"] == len(first["correct"]) == len(first["test_commands"]) == 30
    position = {c: i for i, (c, _) in enumerate(test)}
    kept = [position[c] for c in first["test_commands"]]
    assert kept == sorted(kept)  # a sample of the test pairs, in their given order
    assert first["accuracy"] == sum(first["correct"]) / 30 and 0 <= first["train_accuracy"] <= 1
    entries = list(cache.cache_dir().glob("scan-run-pairs/*.pkl"))
    again, model = exps.run_pairs(train, test, TINY, seed=0, presentations=256, batch_size=32,
                                  max_test=30, return_model=True)
    assert again == first and list(cache.cache_dir().glob("scan-run-pairs/*.pkl")) == entries
    assert not model.training
    with pytest.raises(ValueError, match="needs training and test pairs"):
        exps.run_pairs(train, [], TINY, presentations=10)
    with pytest.raises(ValueError, match="unknown word 'dax'"):
        exps.run_pairs([("dax", "I_JUMP")], test, TINY, presentations=10)


def test_describe_names_the_architecture_in_words():
    assert exps.describe("exp2_best") == "GRU with attention, 1 layer of 50 units, dropout 0.5"
    assert exps.describe(exps.s2s.Seq2SeqConfig("lstm", 24, 1, 0.0)) == (
        "LSTM, 1 layer of 24 units, no dropout, no attention")


def test_the_papers_neighbours_cover_its_four_queries():
    assert list(exps.PAPER_NEIGHBOURS) == ["run", "jump", "run twice", "jump twice"]
    for query, commands in exps.PAPER_NEIGHBOURS.items():
        assert len(commands) == 3 and query not in commands
        for command in commands:
            scan.parse(command)  # every neighbour is a SCAN command
            assert "jump" not in command.split()  # a training command of addprim_jump


def test_bad_names_are_named():
    with pytest.raises(ValueError, match="unknown architecture 'best'"):
        exps.run("simple", "best", presentations=10)
    with pytest.raises(ValueError, match="unknown SCAN split 'simpel'"):
        exps.run("simpel", TINY, presentations=10)


@pytest.mark.slow
def test_paper_profile_lists_every_split_with_five_seeds():
    from tutorlib import profiles

    settings = profiles.settings("scan", "full")
    configs = exps.paper_configurations(settings)
    assert {c["split"] for c in configs} >= {"simple", "length", "addprim_jump", "addprim_turn_left",
                                             "filler_num2", "template_right", "simple_p64",
                                             "template_jump_around_right"}
    # filler_num3 is template_jump_around_right under another name: trained once, not twice
    assert "filler_num3" not in {c["split"] for c in configs}
    assert settings["seeds"] == [0, 1, 2, 3, 4]
    for c in configs:
        scan.split(c["split"])  # every name is a real split


def test_per_example_control_uses_the_papers_training():
    from tutorlib import profiles

    settings = profiles.settings("scan", "full")
    batched = exps.train_options(settings)
    assert batched["batch_size"] == 32 and batched["presentations"] == 256_000
    control = exps.train_options(settings, "per_example")
    assert control == {**batched, "presentations": 100_000, "batch_size": 1,
                       "learning_rate": 1e-3, "final_lr_fraction": 1.0}
    assert settings["per_example_splits"] == ["addprim_turn_left", "simple_p2", "simple_p4"]
    # every seed of those splits is trained per example: the overall-best network both ways, the
    # turn-left split's top network only per example; the other top networks batched
    pairs = exps.runs(settings)
    names = {n: c.to_dict() for n, c in exps.ARCHITECTURES.items()}

    def seeds(split, network, batch_size):
        return sorted(seed for s, seed in pairs if s["split"] == split
                      and s["architecture"] == names[network] and s["batch_size"] == batch_size)

    for split in settings["per_example_splits"]:
        assert seeds(split, "overall_best", 1) == seeds(split, "overall_best", 32) == [0, 1, 2, 3, 4]
    assert seeds("addprim_turn_left", "turn_left_best", 1) == [0, 1, 2, 3, 4]
    assert seeds("addprim_turn_left", "turn_left_best", 32) == []
    assert seeds("simple", "exp1_best", 32) == seeds("addprim_jump", "jump_best", 32) == [0, 1, 2, 3, 4]
    assert seeds("length", "exp2_best", 32) == [0, 1, 2, 3, 4]
    assert len(pairs) == len({(results.run_key("scan", s, seed)) for s, seed in pairs})
    config = {"split": "addprim_turn_left", "architecture": "overall_best", "training": "per_example"}
    assert exps.part_name(config) == "addprim_turn_left@per_example"
    assert exps.part_name({"split": "simple", "architecture": "overall_best"}) == "simple"
    with pytest.raises(ValueError, match="unknown training 'online'"):
        exps.train_options(settings, "online")


def test_compare_with_paper_averages_the_committed_runs():
    runs = exps.committed_runs("full")
    table = exps.compare_with_paper(["simple", "length", "template_right"])
    # one row per (split, network) the paper reports; the template split (not in the paper) has one
    assert list(table.index) == [("simple", "overall_best"), ("simple", "exp1_best"),
                                 ("length", "overall_best"), ("length", "exp2_best"),
                                 ("template_right", "overall_best")]
    assert table.loc[("simple", "overall_best"), "published (%)"] == 99.7
    assert np.isnan(table.loc[("template_right", "overall_best"), "published (%)"])
    mine = runs[(runs["split"] == "length") & (runs["network"] == "exp2_best")]
    row = table.loc[("length", "exp2_best")]
    assert row["seeds run"] == len(mine) > 0
    assert row["test accuracy (%)"] == pytest.approx(100 * mine["accuracy"].mean())
    with pytest.raises(ValueError, match="unknown SCAN split 'simpel'"):
        exps.compare_with_paper(["simpel"])
    # the paper's training: only the runs trained one example an update
    control = exps.committed_runs("full", training="per_example")
    per_example = exps.compare_with_paper(["addprim_turn_left"], training="per_example")
    mine = control[(control["split"] == "addprim_turn_left") & (control["network"] == "overall_best")]
    assert per_example.loc[("addprim_turn_left", "overall_best"), "seeds run"] == len(mine) > 0
    assert per_example.loc[("addprim_turn_left", "overall_best"), "test accuracy (%)"] == \
        pytest.approx(100 * mine["accuracy"].mean())
    assert per_example.loc[("addprim_turn_left", "turn_left_best"), "published (%)"] == 90.3
    with pytest.raises(ValueError, match="unknown training 'online'"):
        exps.compare_with_paper(["simple"], training="online")


def test_split_info_reads_every_standard_name_and_split_name_writes_it_back():
    for name in scan.split_names():
        assert exps.split_name(**exps.split_info(name)) == name
    assert exps.split_info("addprim_complex_jump_num8_rep1") == {
        "family": "addprim_complex_jump", "num": 8, "rep": 1}
    assert exps.split_info("addprim_jump") == {"family": "addprim", "primitive": "jump"}
    assert exps.split_info("simple_p64") == {"family": "size", "percent": 64}
    assert exps.split_info("filler_num0") == {"family": "filler", "num": 0}
    assert exps.split_info("template_jump_around_right") == {"family": "template",
                                                             "template": "jump_around_right"}
    # any replication of the composed-jump splits exists, as scan.split says
    assert exps.split_info("addprim_complex_jump_num2_rep9")["rep"] == 9
    scan.split("addprim_complex_jump_num2_rep9")


@pytest.mark.parametrize("name", ["simple_p3", "addprim_walk", "addprim_complex_jump_num3_rep1",
                                  "addprim_complex_jump_num8_rep0", "filler_num4", "template_left",
                                  "Simple", ""])
def test_split_info_names_a_bad_split(name):
    with pytest.raises(ValueError, match=f"unknown SCAN split {name!r}"):
        exps.split_info(name)


def test_split_name_checks_family_and_parameters():
    with pytest.raises(ValueError, match="unknown SCAN split family 'sized'"):
        exps.split_name("sized", percent=4)
    with pytest.raises(ValueError, match="need rep"):
        exps.split_name("addprim_complex_jump", num=8)
    with pytest.raises(ValueError, match="unknown SCAN split 'simple_p5'"):
        exps.split_name("size", percent=5)


def test_accuracy_summary_matches_hand_computed_statistics():
    import pandas as pd

    runs = pd.DataFrame({
        "split": ["addprim_complex_jump_num8_rep1", "addprim_complex_jump_num8_rep2",
                  "addprim_complex_jump_num16_rep1"],
        "network": ["overall_best"] * 3, "accuracy": [0.1, 0.3, 0.8],
        "train_accuracy": [1.0, 0.98, 0.99], "train_seconds": [60.0, 180.0, 120.0]})
    by_num = exps.accuracy_summary(runs, by="num")
    assert list(by_num.index) == [8, 16] and list(by_num["runs"]) == [2, 1]
    assert by_num.loc[8, "accuracy"] == pytest.approx(20.0)
    assert by_num.loc[8, "accuracy sd"] == pytest.approx(100 * np.std([0.1, 0.3], ddof=1))
    assert (by_num.loc[8, "accuracy min"], by_num.loc[8, "accuracy max"]) == pytest.approx((10, 30))
    assert by_num.loc[8, "train accuracy min"] == pytest.approx(98.0)
    assert by_num.loc[8, "train minutes"] == pytest.approx(2.0)
    assert np.isnan(by_num.loc[16, "accuracy sd"])
    assert "oracle accuracy" not in by_num.columns  # only the length split has oracle lengths


def test_accuracy_summary_of_the_committed_length_runs():
    runs = exps.committed_runs("full")
    table = exps.accuracy_summary(runs)
    length = runs[(runs["split"] == "length") & (runs["network"] == "exp2_best")]
    row = table.loc[("length", "exp2_best")]
    assert row["runs"] == len(length) > 0
    assert row["oracle accuracy"] == pytest.approx(100 * length["oracle_accuracy"].mean())
    assert row["accuracy max"] == pytest.approx(100 * length["accuracy"].max())
    assert np.isnan(table.loc[("simple", "overall_best"), "oracle accuracy"])


@pytest.mark.slow
def test_turn_left_records_keep_every_error_and_classify_it():
    settings = {"presentations": 256, "batch_size": 32, "learning_rate": 6e-3,
                "final_lr_fraction": 0.1, "max_test": 30}
    for split_name in ("addprim_turn_left", "simple"):
        config = {"split": split_name, "architecture": TINY, "training": "batched", **settings}
        record = exps.run_one(config, 0)
        if split_name == "simple":
            assert "errors" not in record  # only the analysed splits commit them
            continue
        test = dict(exps.test_subset(split_name, 30))
        assert len(record["errors"]) == round((1 - record["accuracy"]) * 30)
        for command, predicted in record["errors"]:
            assert command in test and predicted != test[command]
    kinds = [exps.turn_left_error_kind(c) for c in
             ["walk after turn left", "turn left thrice and jump", "turn left and turn right",
              "turn left thrice", "walk left and run"]]
    assert kinds == ["conjunction with 'turn left'", "conjunction with 'turn left thrice'",
                     "conjunction with 'turn left'", "single command", "other conjunction"]


def test_compare_trainings_counts_the_planned_seeds():
    table = exps.compare_trainings(["addprim_turn_left", "addprim_jump"])
    assert list(table.index) == [
        ("addprim_turn_left", "overall_best", "batched"),
        ("addprim_turn_left", "overall_best", "per_example"),
        ("addprim_turn_left", "turn_left_best", "per_example"),
        ("addprim_jump", "overall_best", "batched"), ("addprim_jump", "jump_best", "batched")]
    assert (table["seeds planned"] == 5).all()
    assert (table["seeds run"] <= table["seeds planned"]).all()
    assert table.loc[("addprim_turn_left", "turn_left_best", "per_example"), "published (%)"] == 90.3


def test_turn_left_errors_sorts_the_median_runs_mistakes(monkeypatch):
    import pandas as pd

    def record(seed, accuracy, errors):
        return {"split": "addprim_turn_left", "network": "overall_best", "seed": seed,
                "accuracy": accuracy, "errors": errors}

    median_errors = [["jump and turn left", "I_JUMP"],
                     ["turn left thrice after walk", "I_WALK I_TURN_LEFT"],
                     ["turn left twice and run", "I_RUN"]]
    fake = pd.DataFrame([record(0, 0.9, [["turn left thrice", "I_TURN_LEFT"]]),
                         record(1, 0.5, median_errors * 3),
                         record(2, 0.7, median_errors),
                         {**record(3, 0.6, None), "network": "exp2_best"}])
    monkeypatch.setattr(exps, "committed_runs", lambda profile, training: fake)
    out = exps.turn_left_errors()
    assert (out["seed"], out["accuracy"], out["runs"], out["errors"]) == (2, 0.7, 3, 3)
    assert out["kinds"] == {"conjunction with 'turn left'": 1,
                            "conjunction with 'turn left thrice'": 1, "other conjunction": 1}
    assert out["thrice_alone_right"]
    assert out["examples"][0] == ("jump and turn left", "I_JUMP I_TURN_LEFT", "I_JUMP")
    assert sum(exps.PAPER_TURN_LEFT_ERRORS[k] for k in out["kinds"]
               if k in exps.PAPER_TURN_LEFT_ERRORS) == exps.PAPER_TURN_LEFT_ERRORS["errors"]
    monkeypatch.setattr(exps, "committed_runs", lambda profile, training: fake.drop(columns="errors"))
    assert exps.turn_left_errors() is None


def test_a_run_trained_to_the_gate_and_its_fit_row():
    from tutorlib.scan import experiments as exps

    recipe = exps.training_recipe(300_000, 64, 3e-3, 1.0, stop_at=0.95, train_size=1_000)
    assert recipe.presentations is None and recipe.stop_at == (0.95, 0.0)
    assert recipe.max_epochs == 300 and recipe.teacher_forcing == 1.0 and recipe.bucket_pool == 8
    with pytest.raises(ValueError, match="train_size"):
        exps.training_recipe(300_000, 64, 3e-3, stop_at=0.95)
    with pytest.raises(ValueError, match="stop_at"):
        exps.check_training({"presentations": 10, "batch_size": 8, "learning_rate": 1e-3,
                             "final_lr_fraction": 1.0, "stop": 0.9})
    # the fit gate of a SCAN run: on the random splits the test set is in distribution
    simple = exps.live_fit("simple", {"train_accuracy": 0.98, "accuracy": 0.94})
    assert simple["bar"] == 0.947 and not simple["passes"]
    assert exps.live_fit("simple_p1", {"train_accuracy": 0.95, "accuracy": 0.11})["passes"]
    jump = exps.live_fit("addprim_jump", {"train_accuracy": 0.92, "accuracy": 0.0})
    assert jump["in_distribution"] is None and jump["passes"]
    # the same rule over a frame of committed runs, row by row
    import pandas as pd

    runs = pd.DataFrame([{"split": "simple", "train_accuracy": 0.98, "accuracy": 0.94},
                         {"split": "addprim_jump", "train_accuracy": 0.92, "accuracy": 0.0}])
    assert exps.passes_gate(runs) == [False, True]
