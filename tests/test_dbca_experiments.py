import json
from dataclasses import fields, replace

import numpy as np
import pytest

from tutorlib import cache, profiles, results
from tutorlib.dbca import experiments as exps

TINY = {"cell": "lstm", "hidden_size": 8, "num_layers": 1, "dropout": 0.0, "attention": True}
SMALL = replace(profiles.settings("dbca", "ci"), pool_size=200, targets=[0.2], max_test=5,
                recipe={**profiles.settings("dbca", "ci").recipe, "presentations": 64},
                architectures={"tiny": TINY}, training={"tiny": {"learning_rate": 1e-2}})


def test_profiles_have_the_same_fields_and_the_paper_profile_the_issue_scale():
    names = {f.name for f in fields(exps.DbcaSettings)}
    for profile in profiles.PROFILES:
        settings = profiles.settings("dbca", profile)
        assert set(settings.keys()) == names
        assert set(settings["architectures"]) == set(settings["training"])
        assert all("learning_rate" in values for values in settings["training"].values())
    paper = profiles.settings("dbca", "full")
    assert paper["pool_size"] is None and paper["max_test"] is None
    assert len(paper["targets"]) >= 8 and None in paper["targets"]
    assert set(paper["architectures"]) == {"lstm", "lstm_attention", "transformer"}
    assert paper["architectures"]["lstm"] == exps.ARCHITECTURES["lstm"].to_dict()
    transformer = exps.run_settings(None, "transformer", paper)
    assert transformer["architecture"]["norm_first"] is True
    assert transformer["embedding_init"] == "fairseq" and transformer["warmup_steps"] == 400
    dial = [(c, seed) for c, seed in exps.runs(paper) if "split_seed" not in c]
    assert len(dial) == len(paper["targets"]) * 3 * len(paper["seeds"]) >= 72


def test_crossed_runs_train_every_seed_on_every_other_seeds_split():
    paper = profiles.settings("dbca", "full")
    crossed = [(c, seed) for c, seed in exps.runs(paper) if "split_seed" in c]
    # the Transformer at MCD and at D_C 0.5, the LSTM with attention at MCD: 3 x 3 each, less
    # the diagonal, which is the dial's own runs
    assert len(crossed) == 3 * 6
    cells = {(c["network"], c["target_compound_divergence"], c["split_seed"], seed)
             for c, seed in crossed}
    assert len(cells) == 18 and all(split != seed for _, _, split, seed in cells)
    assert ("transformer", 0.5, 2, 0) in cells and ("lstm_attention", None, 0, 1) in cells
    # a crossed run's key differs from the dial run of the same training seed; the dial's keys
    # are as they were (no split_seed in them)
    dial_keys = {results.run_key("dbca", c, s) for c, s in exps.runs(paper) if "split_seed" not in c}
    assert not {results.run_key("dbca", c, s) for c, s in crossed} & dial_keys
    assert exps.split_seed({"split_seed": 2}, 0) == 2 and exps.split_seed({}, 1) == 1
    assert exps.split_seed({"split_seed": float("nan")}, 1) == 1  # a table's missing value
    assert exps.is_dial_run({"seed": 1}) and not exps.is_dial_run({"seed": 1, "split_seed": 0})
    with pytest.raises(ValueError, match="crossed runs for unknown network 'gru'"):
        replace(paper, crossed={"gru": [None]})
    with pytest.raises(ValueError, match="crossed targets \\[0.55\\] are not among"):
        replace(paper, crossed={"transformer": [0.55]})
    assert profiles.settings("dbca", "tutorial")["pool_size"] is None
    assert len(exps.runs(profiles.settings("dbca", "ci"))) == 2


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="pool_size"):
        replace(SMALL, pool_size=5)
    with pytest.raises(ValueError, match="unknown network 'other'"):
        replace(SMALL, training={"other": {"learning_rate": 1e-3}})
    with pytest.raises(ValueError, match="its learning_rate"):
        replace(SMALL, training={"tiny": {"warmup_steps": 3}})
    with pytest.raises(ValueError, match="recipe has exactly the keys"):
        replace(SMALL, recipe={"presentations": 64})
    with pytest.raises(ValueError, match="target D_C"):
        replace(SMALL, targets=[1.5])
    with pytest.raises(ValueError, match="unknown architecture"):
        exps.architecture("gpt")


def test_split_sizes_scale_the_released_mcd_sizes():
    assert exps.split_sizes(None) == (8_365, 1_045)
    assert exps.split_sizes(1_000) == (400, 50)
    assert exps.pool_rows(50, 0) == exps.pool_rows(50, 0) != exps.pool_rows(50, 1)
    assert len(set(exps.pool_rows(50))) == 50


def test_standard_splits_keep_one_replication_of_composed_jump():
    names = exps.standard_split_names()
    assert "simple" in names and "filler_num0" in names and "length" in names
    jumps = [n for n in names if n.startswith("addprim_complex_jump")]
    assert len(jumps) == 6 and all(n.endswith("_rep1") for n in jumps)
    assert len(names) == 25


def test_run_keys_hold_everything_that_changes_a_run():
    config = exps.run_settings(0.2, "tiny", SMALL)
    assert config["architecture"] == exps.architecture(TINY).to_dict()
    assert config["target_compound_divergence"] == 0.2 and config["learning_rate"] == 1e-2
    key = results.run_key("dbca", config, 0)
    changed = [exps.run_settings(0.3, "tiny", SMALL),
               exps.run_settings(None, "tiny", SMALL),
               exps.run_settings(0.2, "tiny", replace(
                   SMALL, recipe={**SMALL.recipe, "presentations": 128})),
               exps.run_settings(0.2, "tiny", replace(SMALL, pool_seed=1)),
               exps.run_settings(0.2, "tiny", replace(
                   SMALL, architectures={"tiny": {**TINY, "hidden_size": 12}}))]
    assert len({key, *(results.run_key("dbca", c, 0) for c in changed)}) == 6
    assert results.run_key("dbca", config, 1) != key
    json.dumps(config)  # a committed key is plain JSON


def test_a_subset_split_has_its_sizes_and_targets_and_is_seeded():
    split = exps.make_split(0.2, 0, pool_size=200)
    assert (len(split.train), len(split.test)) == exps.split_sizes(200) == (80, 10)
    assert not {c for c, _ in split.train} & {c for c, _ in split.test}
    assert split.atom_divergence <= 0.02 + 1e-9
    assert abs(split.compound_divergence - 0.2) < 0.05
    assert exps.make_split(0.2, 0, pool_size=200) == split
    assert exps.make_split(0.2, 1, pool_size=200).test != split.test


def test_a_tiny_run_is_cached_and_summarised():
    (config, seed), = exps.runs(SMALL)
    record = exps.run(config, seed)
    assert record["network"] == "tiny" and record["test_size"] == 5
    assert record["train_size"] == 80 and 0.0 <= record["accuracy"] <= 1.0
    assert record["target_compound_divergence"] == 0.2
    entries = list(cache.cache_dir().glob("dbca-run/*.pkl"))
    assert len(entries) == 1 and exps.run(config, seed) == record
    assert list(cache.cache_dir().glob("dbca-run/*.pkl")) == entries
    json.dumps(record)


def test_the_summary_averages_by_network_and_target():
    records = [{"network": "a", "target_compound_divergence": t, "seed": s,
                "compound_divergence": dc, "accuracy": acc, "train_accuracy": 1.0}
               for t, s, dc, acc in [(0.1, 0, 0.1, 0.9), (0.1, 1, 0.12, 0.7), (None, 0, 0.7, 0.05)]]
    table = exps.dial_table(records).set_index("target")
    assert list(table.index) == ["0.1", "max"]
    assert table.loc["0.1", "runs"] == 2 and table.loc["0.1", "D_C"] == pytest.approx(0.11)
    assert table.loc["0.1", "accuracy (%)"] == pytest.approx(80.0)
    assert table.loc["0.1", "sd (%)"] == pytest.approx(100 * np.std([0.9, 0.7], ddof=1))
    summary = exps.summarise(SMALL, records)
    assert summary["published"]["mcd"]["lstm_attention"] == 6.1
    assert summary["dial"][1]["sd (%)"] is None  # one run: no spread, and valid JSON
    json.dumps(summary, allow_nan=False)
    assert exps.dial_table([]).empty


def test_training_settings_are_per_network_and_in_the_key_only_when_set():
    tiny_transformer = {"cell": "transformer", "hidden_size": 8, "num_layers": 1,
                        "dropout": 0.0, "num_heads": 2, "positions": "sinusoidal"}
    both = replace(SMALL, architectures={"tiny": TINY, "t": tiny_transformer},
                   training={"tiny": {"learning_rate": 1e-2}, "t": {"learning_rate": 1e-3}})
    plain = exps.run_settings(0.2, "t", both)
    assert "warmup_steps" not in plain and "embedding_init" not in plain
    warm = replace(both, training={**both.training, "t": {
        "learning_rate": 1e-3, "warmup_steps": 4, "embedding_init": "fairseq"}})
    config = exps.run_settings(0.2, "t", warm)
    assert config["warmup_steps"] == 4 and config["embedding_init"] == "fairseq"
    assert results.run_key("dbca", config, 0) != results.run_key("dbca", plain, 0)
    # the other network's key is untouched; settings at their defaults leave keys as they were
    assert exps.run_settings(0.2, "tiny", warm) == exps.run_settings(0.2, "tiny", both)
    default = replace(both, training={**both.training, "t": {
        "learning_rate": 1e-3, "warmup_steps": 0, "embedding_init": "pytorch"}})
    assert exps.run_settings(0.2, "t", default) == plain
    record = exps.run(config, 0)
    assert record["network"] == "t" and 0.0 <= record["accuracy"] <= 1.0
    with pytest.raises(ValueError, match="does not train"):
        replace(both, training={**both.training, "gpt": {"warmup_steps": 4}})
    with pytest.raises(ValueError, match="unknown training setting"):
        replace(both, training={**both.training, "t": {"learning_rate": 1e-3, "momentum": 0.9}})
    with pytest.raises(ValueError, match="embedding_init must be one of"):
        replace(both, training={**both.training, "t": {"learning_rate": 1e-3,
                                                        "embedding_init": "xavier"}})
