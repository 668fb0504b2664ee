import numpy as np
import pytest

from tutorlib import cache, scan
from tutorlib.scan import experiments as exps

TINY = {"cell": "gru", "hidden_size": 16, "num_layers": 1, "dropout": 0.0, "attention": True}


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


def test_bad_names_are_named():
    with pytest.raises(ValueError, match="unknown architecture 'best'"):
        exps.run("simple", "best", presentations=10)
    with pytest.raises(ValueError, match="unknown SCAN split 'simpel'"):
        exps.run("simpel", TINY, presentations=10)


def test_paper_profile_lists_every_split_with_five_seeds():
    from tutorlib import profiles

    settings = profiles.settings("scan", "paper")
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

    settings = profiles.settings("scan", "paper")
    batched = exps.train_options(settings)
    assert batched["batch_size"] == 32 and batched["presentations"] == 256_000
    control = exps.train_options(settings, "per_example")
    assert control == {**batched, "presentations": 100_000, "batch_size": 1,
                       "learning_rate": 1e-3, "final_lr_fraction": 1.0}
    assert settings["per_example_splits"] == ["addprim_turn_left", "simple_p4"]
    config = {"split": "addprim_turn_left", "architecture": "overall_best", "training": "per_example"}
    assert exps.part_name(config) == "addprim_turn_left@per_example"
    assert exps.part_name({"split": "simple", "architecture": "overall_best"}) == "simple"
    with pytest.raises(ValueError, match="unknown training 'online'"):
        exps.train_options(settings, "online")


def test_compare_with_paper_averages_the_committed_runs():
    runs = exps.committed_runs("paper")
    table = exps.compare_with_paper(["simple", "length", "template_right"])
    # one row per (split, network) the paper reports; the template split (not in the paper) has one
    assert list(table.index) == [("simple", "overall_best"), ("length", "overall_best"),
                                 ("length", "exp2_best"), ("template_right", "overall_best")]
    assert table.loc[("simple", "overall_best"), "paper (%)"] == 99.7
    assert np.isnan(table.loc[("template_right", "overall_best"), "paper (%)"])
    mine = runs[(runs["split"] == "length") & (runs["network"] == "exp2_best")]
    row = table.loc[("length", "exp2_best")]
    assert row["seeds run"] == len(mine) > 0
    assert row["test accuracy (%)"] == pytest.approx(100 * mine["accuracy"].mean())
    with pytest.raises(ValueError, match="unknown SCAN split 'simpel'"):
        exps.compare_with_paper(["simpel"])
