"""The ORCHARD experiment: settings, run keys, label scoring, and a tiny run end to end."""

import dataclasses
import json
from pathlib import Path

import pytest
import torch

from tutorlib import cache, orchard, profiles, results
from tutorlib import seq2seq as s2s
from tutorlib.orchard import experiments as exps


def test_profiles_grow_and_the_gpu_profile_runs_every_variant_model_and_seed():
    ci, tutorial, full = (profiles.settings("orchard", p) for p in profiles.PROFILES)
    gpu = profiles.settings("orchard", "gpu")
    assert ci["variants"] == ["minmax_hard"] and len(ci["test_depths"]) <= 3
    assert ci["test_size"] <= 20 and ci["recipe"]["presentations"] <= 500
    assert tutorial["variants"] == ["minmax_hard"]  # one variant, both models, in minutes
    assert tutorial["test_depths"] == full["test_depths"] == gpu["test_depths"] == list(range(3, 13))
    # the paper's scale: every variant; the full profile: the hard variants (issue 48's reduction)
    assert sorted(gpu["variants"]) == sorted(orchard.variant_names())
    assert set(full["variants"]) <= set(orchard.variant_names())
    assert full["seeds"] == gpu["seeds"] == [0, 1, 2]
    for s in (ci, tutorial, full, gpu):
        assert set(s["models"]) == {"lstm", "transformer"}
        lstm = s["models"]["lstm"]
        assert lstm["cell"] == "lstm" and lstm["bidirectional"] and lstm["attention"]
        transformer = s["models"]["transformer"]
        assert transformer["cell"] == "transformer" and transformer["positions"] == "sinusoidal"
    assert ci["recipe"]["presentations"] < tutorial["recipe"]["presentations"]
    assert ci["test_size"] < tutorial["test_size"] < full["test_size"]
    assert len(exps.runs(gpu)) == 6 * 2 * 3 and len(exps.runs(full)) == 2 * 2 * 3
    assert len(exps.runs(ci)) == 2


def test_run_settings_hold_everything_that_changes_a_run():
    ci = profiles.settings("orchard", "ci")
    pairs = exps.runs(ci)
    config, seed = pairs[0]
    assert seed == 0 and config["variant"] == "minmax_hard" and config["model"] == "lstm"
    assert config["architecture"] == ci["models"]["lstm"]
    for key in ("train_size", "test_depths", "test_size", "data_seed"):
        assert config[key] == ci[key]
    for key in ("presentations", "batch_size", "learning_rate"):
        assert config[key] == ci["recipe"][key]
    assert json.loads(json.dumps(config)) == config  # JSON-friendly: it is the committed key
    key = results.run_key("orchard", config, 0)
    assert key != results.run_key("orchard", {**config, "presentations": 401}, 0)
    assert key != results.run_key("orchard", {**config, "variant": "firstlast_hard"}, 0)
    assert key != results.run_key("orchard", config, 1)
    assert key != results.run_key("orchard", pairs[1][0], 0)  # the other model
    assert exps.part_name(config, 0) == "minmax_hard"
    with pytest.raises(ValueError, match="unknown ORCHARD variant 'minmax_extreme'"):
        exps.run_settings("minmax_extreme", "lstm", ci)
    with pytest.raises(ValueError, match="unknown model 'gru'"):
        exps.run_settings("minmax_hard", "gru", ci)


def test_training_overrides_change_one_models_key_and_leave_the_paper_keys_alone():
    tutorial = profiles.settings("orchard", "tutorial")
    # the tutorial profile trains its Transformer as fairseq would; its LSTM keys are as they were
    assert set(tutorial["training"]) == {"transformer"}
    for config, _ in exps.runs(tutorial):
        later = set(exps.LATER_DEFAULTS) & set(config)
        assert later == (set() if config["model"] == "lstm" else {"warmup_steps", "embedding_init"})
    runs_dir = Path(__file__).resolve().parents[1] / "results" / "orchard" / "runs"
    committed = {path.stem for path in runs_dir.glob("*.json")}
    keys = {results.run_key("orchard", c, s) for profile in ("full", "gpu")
            for c, s in exps.runs(profiles.settings("orchard", profile))}
    assert committed and committed <= keys  # the committed runs are still the profiles' own
    lstm = exps.run_settings("minmax_hard", "lstm", tutorial)
    transformer = exps.run_settings("minmax_hard", "transformer", tutorial)
    overrides = tutorial["training"]["transformer"]
    assert transformer["learning_rate"] == overrides["learning_rate"]
    assert transformer["warmup_steps"] == overrides["warmup_steps"] > 0
    assert transformer["embedding_init"] == "fairseq"
    assert "warmup_steps" not in lstm
    assert lstm["learning_rate"] == tutorial["recipe"]["learning_rate"]
    with pytest.raises(ValueError, match="unknown training setting.*momentum"):
        dataclasses.replace(tutorial, training={"lstm": {"momentum": 0.9}})
    with pytest.raises(ValueError, match="unknown model 'gru'"):
        dataclasses.replace(tutorial, training={"gru": {"learning_rate": 1e-3}})


def test_fairseq_embeddings_are_small_and_warmup_zero_is_plain_training(one_thread):
    ci = profiles.settings("orchard", "ci")
    config = exps.run_settings("minmax_hard", "transformer", ci)
    torch.manual_seed(0)
    plain = exps.build({**config, "embedding_init": "pytorch"})
    torch.manual_seed(0)
    small = exps.build({**config, "embedding_init": "fairseq"})
    hidden = config["architecture"]["hidden_size"]
    # both on the positions' scale (the Transformer is built so), "fairseq" in a fresh draw
    for model in (plain, small):
        assert model.source_embedding.weight[1:].std().item() == pytest.approx(hidden ** -0.5,
                                                                                rel=0.1)
    assert not torch.equal(plain.source_embedding.weight, small.source_embedding.weight)
    assert small.source_embedding.weight[0].abs().sum().item() == 0  # padding stays zero
    with pytest.raises(ValueError, match="for Transformers"):
        exps.build({**exps.run_settings("minmax_hard", "lstm", ci), "embedding_init": "fairseq"})
    with pytest.raises(ValueError, match="embedding_init must be one of"):
        exps.build({**config, "embedding_init": "xavier"})
    # warmup_steps=0 trains exactly as no warm-up does
    source, target = exps.vocabularies()
    pairs = exps.model_pairs(orchard.generate_part("minmax_hard", "train", 16))
    logs = []
    for warmup in (0, 0, 3):
        torch.manual_seed(0)
        model = exps.build(config)
        recipe = exps.s2s.Recipe.fixed(32, 8, config["learning_rate"], warmup_steps=warmup)
        logs.append(exps.s2s.fit(model, pairs, source, target, recipe, seed=0).losses)
    assert logs[0] == logs[1]
    assert logs[2][0] == logs[0][0] and logs[2] != logs[0]  # same first batch, smaller steps


def test_labels_are_three_tokens_and_predictions_are_scored_per_tree():
    assert exps.label_tokens("8,7") == "8 , 7"
    assert exps.model_pairs([("[MAX 8 ] X [MIN 7 ]", "8,7")]) == [("[MAX 8 ] X [MIN 7 ]", "8 , 7")]
    assert exps.read_prediction("8 , 7") == (8, 7)
    assert exps.read_prediction("8 ,") is None and exps.read_prediction("8 7") is None
    assert exps.read_prediction("") is None and exps.read_prediction(", , 7") is None
    assert exps.score_label("8 , 7", "8,7") == (True, True, True)
    assert exps.score_label("8 , 3", "8,7") == (True, False, False)
    assert exps.score_label("1 , 7", "8,7") == (False, True, False)
    assert exps.score_label("8", "8,7") == (False, False, False)  # not a label: wrong on both
    scores = exps.accuracies(["8 , 7", "8 , 3", "1 , 7", "8"],
                             [("a", "8,7"), ("b", "8,7"), ("c", "8,7"), ("d", "8,7")])
    assert scores == {"first": 0.5, "second": 0.5, "both": 0.25, "malformed": 0.25}
    with pytest.raises(ValueError, match="3 predictions for 1 examples"):
        exps.accuracies(["8 , 7"] * 3, [("a", "8,7")])


def test_the_vocabularies_cover_the_deepest_test_bin():
    source, target = exps.vocabularies()
    pairs = exps.depth_bin("minmax_hard", 12, 30)
    encoded = exps.s2s.encode_pairs(exps.model_pairs(pairs), source, target)
    assert encoded.source.shape[0] == 30 and int(encoded.target_lengths.max()) == 4  # 3 + EOS
    assert len(target) == 3 + 11  # specials, ten digits, the comma
    assert all(orchard.tree_depths(line) == (12, 12) for line, _ in pairs)


def test_by_depth_table_and_the_paper_comparison():
    record = {"variant": "minmax_hard", "model": "lstm", "seed": 0,
              "by_depth": {"12": {"first": 0.5, "second": 0.25, "both": 0.125, "n": 8},
                           "3": {"first": 1.0, "second": 1.0, "both": 1.0, "n": 8}}}
    table = exps.by_depth_table([record])
    assert len(table) == 2 * 3
    row = table[(table["depth"] == 12) & (table["tree"] == "second")]
    assert row["accuracy (%)"].item() == 25.0
    comparison = exps.paper_comparison(table)
    assert comparison.loc[("lstm", "minmax_hard"), "published (%)"] == 86.7
    assert comparison.loc[("lstm", "minmax_hard"), "ours (%)"] == 50.0
    assert comparison.loc[("transformer", "firstlast_hard"), "seeds"] == 0


@pytest.mark.slow
def test_a_tiny_run_is_cached_and_the_sweep_resumes(tmp_path, one_thread):
    ci = profiles.settings("orchard", "ci")
    config, seed = exps.runs(ci)[1]  # the Transformer: the faster of the two
    torch.set_num_threads(2)
    result = exps.run(config, seed)  # trains on config["threads"], then gives the threads back
    assert config["threads"] == 1 and torch.get_num_threads() == 2
    torch.set_num_threads(1)
    assert sorted(result["by_depth"], key=int) == [str(d) for d in ci["test_depths"]]
    for scores in result["by_depth"].values():
        assert scores["n"] == ci["test_size"]
        assert 0.0 <= scores["both"] <= min(scores["first"], scores["second"]) <= 1.0
    assert result["by_depth"]["3"]["mean_length"] < result["by_depth"]["9"]["mean_length"]
    entries = list(cache.cache_dir().glob("orchard-run/*.pkl"))
    again, model = exps.run(config, seed, return_model=True)
    assert again == result and list(cache.cache_dir().glob("orchard-run/*.pkl")) == entries
    assert not model.training
    predicted = s2s.predict(model, [line for line, _ in exps.depth_bin("minmax_hard", 3, 20)],
                            *exps.vocabularies(), max_length=exps.MAX_OUTPUT_LENGTH)
    first = [exps.score_label(p, label)[0] for p, (_, label) in
             zip(predicted, exps.depth_bin("minmax_hard", 3, 20))]
    assert sum(first) / 20 == result["by_depth"]["3"]["first"]  # the same model, the same bin
    # the sweep (the Transformer from the cache), then again: nothing runs twice
    summary = results.run_experiment("orchard", "ci", tmp_path, progress=False)
    data = results.read_results(summary)["data"]
    assert data["complete"] and len(data["runs"]) == 2 and data["published"] == exps.PAPER
    before = sorted(p.stat().st_mtime_ns for p in (tmp_path / "orchard" / "runs").glob("*.json"))
    results.run_experiment("orchard", "ci", tmp_path, progress=False)
    after = sorted(p.stat().st_mtime_ns for p in (tmp_path / "orchard" / "runs").glob("*.json"))
    assert before == after


@pytest.mark.slow
def test_the_gpu_profile_trains_by_the_recipe_and_records_its_fit(one_thread):
    gpu = profiles.settings("orchard", "gpu")
    assert len(exps.runs(gpu)) == 36 and set(gpu["training"]) == set(exps.MODELS)
    config = exps.run_settings("minmax_hard", "transformer", gpu)
    assert "presentations" not in config and config["recipe"]["max_seconds"] > 0
    assert config["recipe"]["embedding_init"] == "fairseq"
    # a tiny version of it, run on the CPU: where and why it stopped, and the fit on the way
    tiny = dataclasses.replace(
        gpu, train_size=120, test_depths=[3, 6], test_size=8, train_check=8,
        models={"lstm": exps._lstm(8, 1, 0.0), "transformer": exps._transformer(8, 1, 2, 0.0)},
        training={model: {**recipe, "batch_size": 40, "max_epochs": 2, "warmup_steps": 2}
                  for model, recipe in gpu["training"].items()})
    result = exps.run(exps.run_settings("minmax_hard", "lstm", tiny), 0)
    assert result["stopped"] in ("patience", "max_epochs", "max_seconds")
    assert result["device_name"] == "cpu" and 0 < result["epochs"] <= 2
    assert result["presentations"] == round(result["epochs"] * 120)
    assert result["fit"]["validation_accuracy"] == max(
        row["validation_accuracy"] for row in result["fit_history"])  # the best model is kept
    assert set(result["valid"]) == {"first", "second", "both", "malformed"}
    # each evaluation also scores each tree of the run's own checks
    assert {"train_first", "train_second", "valid_first", "valid_second"} \
        <= set(result["fit_history"][-1])
    # a bad recipe is named before any work
    with pytest.raises(ValueError, match="presentations needs batch_size and learning_rate"):
        dataclasses.replace(gpu, recipe={"presentations": 1000})
    with pytest.raises(ValueError, match="unknown training setting.*batch"):
        dataclasses.replace(gpu, training={**gpu["training"], "lstm": {"batch": 64}})
    with pytest.raises(ValueError, match="unknown recipe field"):
        dataclasses.replace(gpu, training={"lstm": gpu["training"]["lstm"]},
                            recipe={"bucketing": True})


def test_a_run_can_stop_at_the_fit_gate_on_the_first_tree_alone():
    scores = {"train_first": 0.95, "valid_first": 0.92, "train_second": 0.6, "valid_second": 0.5}
    assert exps._tree_gate(lambda model: scores, "first")(None)
    assert not exps._tree_gate(lambda model: scores, "both")(None)
    assert not exps._tree_gate(lambda model: {**scores, "valid_first": 0.89}, "first")(None)
    gpu = profiles.settings("orchard", "gpu")
    # the release's depths and the whole label keep the keys of earlier runs
    config = exps.run_settings("minmax_hard", "lstm", gpu)
    assert "stop_tree" not in config and "train_depths" not in config
    # the full profile's reduction: depths 3-4, stopped once the first tree fits; the trainer's
    # own samples (whole labels) do not stop it, the run's per-tree check does
    full = profiles.settings("orchard", "full")
    for model in ("lstm", "transformer"):
        config = exps.run_settings("minmax_hard", model, full)
        assert config["train_depths"] == [3, 4] and config["stop_tree"] == "first"
        assert config["recipe"]["stop_at"] == [0.0, 0.0]
        assert config["recipe"]["max_seconds"] == 1_800.0  # 30 minutes of one core (issue 48)
    assert full["variants"] == ["minmax_hard", "firstlast_hard"] and full["seeds"] == [0, 1, 2]
    with pytest.raises(ValueError, match="stop_tree must be one of first, second, both"):
        dataclasses.replace(full, stop_tree="left")
