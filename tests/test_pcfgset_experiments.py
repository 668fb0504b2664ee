"""The pcfgset experiment: settings, run keys, the scoring helpers, and one tiny run."""

import dataclasses

import pytest

from tutorlib import pcfgset, profiles, results
from tutorlib.pcfgset import experiments as exps
from tutorlib.seq2seq import training as recipes

TINY = {"train_size": 40, "max_output_length": 6, "presentations": 96, "batch_size": 16,
        "learning_rate": 3e-3, "final_lr_fraction": 1.0, "max_test": 6}


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.setenv("TQDM_DISABLE", "1")  # the cache is per test already (conftest)


def test_profiles_grow_and_the_full_profile_runs_the_whole_table_on_the_reduction():
    ci, tutorial, full = (profiles.settings("pcfgset", p) for p in profiles.PROFILES)
    assert ci.recipe["presentations"] < tutorial.recipe["presentations"]
    assert ci.max_test < tutorial.max_test < full.max_test
    assert ci.train_size < tutorial.train_size and full.train_size is None
    assert ci.hidden_size < tutorial.hidden_size < full.hidden_size
    assert set(full.architectures) == set(exps.ARCHITECTURE_NAMES)
    # the tutorial trains one small network on a reduced task; the full profile all three on
    # the reduction of issue 48, each trained to the fit gate
    assert tutorial.architectures == ci.architectures == ["LSTMS2S"]
    assert tutorial.max_functions and tutorial.alphabet_size and tutorial.max_output_length
    assert full.reduction == "f3-o24" and full.alphabet_size == 26 and full.max_functions is None
    assert len(ci.architectures) <= 2 and ci.seeds == [0] and len(full.seeds) == 3
    assert set(exps.ALL_SPLITS) == set(full.splits)
    # 3 architectures x 3 seeds x 7 splits (two overgeneralisation ratios: Table 1's, and 0.5%
    # for the paper's contrast of Sec. 4.5)
    assert len(exps.runs(full)) == 63 and full.overgeneralisation_ratios == [0.001, 0.005]
    assert all(r in pcfgset.OVERGENERALISATION_RATIOS for s in (ci, tutorial, full)
               for r in s.overgeneralisation_ratios)
    # 20 minutes of one core, the Transformer 30 (at 20, 4 of its 15 networks did not fit)
    assert exps.FULL_SECONDS == {"LSTMS2S": 1200, "ConvS2S": 1200, "Transformer": 1800}
    for network in exps.ARCHITECTURE_NAMES:
        recipe = recipes.Recipe.of(profiles.network_recipe(full, network))
        bar = exps.published_fraction("task", network) - 0.05
        assert recipe.presentations is None and recipe.max_seconds == exps.FULL_SECONDS[network]
        assert recipe.stop_at == (0.92, pytest.approx(bar))


def test_run_settings_hold_everything_that_changes_a_run():
    ci = profiles.settings("pcfgset", "ci")
    config, seed = exps.runs(ci)[0]
    assert set(exps.OPTION_KEYS) <= set(config)
    assert {"network", "architecture", "split"} <= set(config)
    key = results.run_key("pcfgset", config, seed)
    for field, value in [("presentations", 257), ("max_output_length", 9), ("train_size", 129),
                         ("max_test", 31), ("split", "productivity"), ("max_functions", 2),
                         ("alphabet_size", 52)]:
        assert results.run_key("pcfgset", {**config, field: value}, seed) != key, field
    assert results.run_key("pcfgset", config, seed + 1) != key
    bigger = dataclasses.replace(ci, hidden_size=17)
    assert results.run_key("pcfgset", exps.runs(bigger)[0][0], seed) != key
    assert exps.part_name(config, seed) == "LSTMS2S"


def test_the_later_options_stay_out_of_keys_at_their_defaults():
    tutorial, seed = exps.runs(profiles.settings("pcfgset", "tutorial"))[0]
    assert tutorial["max_functions"] == 3 and tutorial["alphabet_size"] == 26
    assert "reduction" not in tutorial and "warmup_steps" not in tutorial
    # the tutorial profile's first run keeps the key it had before the reduction was added
    assert results.run_key("pcfgset", tutorial, seed) == results.run_key(
        "pcfgset", {k: v for k, v in tutorial.items() if k != "reduction"}, seed)
    full = profiles.settings("pcfgset", "full")
    config, _ = exps.runs(full)[0]
    assert config["reduction"] == "f3-o24" and config["network"] == "LSTMS2S"
    assert results.run_key("pcfgset", {**config, "reduction": None}, 0) != results.run_key(
        "pcfgset", config, 0)
    transformer = next(c for c, _ in exps.runs(full) if c["network"] == "Transformer")
    assert transformer["architecture"]["norm_first"] is True
    assert transformer["architecture"]["num_layers"] == 2
    conv = next(c for c, _ in exps.runs(full) if c["network"] == "ConvS2S")
    assert conv["architecture"]["num_layers"] == 6 and conv["architecture"]["kernel_size"] == 5


def test_productivity_on_a_reduction_is_scored_on_the_tasks_network():
    assert exps.model_split("productivity", {"reduction": "f3-o24"}) == "pcfgset"
    assert exps.model_split("productivity", {"reduction": None}) == "productivity"
    assert exps.model_split("systematicity", {"reduction": "f3-o24"}) == "systematicity"


def test_training_splits_expand_overgeneralisation_into_its_ratios():
    ci = profiles.settings("pcfgset", "ci")
    settings = dataclasses.replace(ci, overgeneralisation_ratios=[0.001, 0.005])
    names = exps.training_splits(settings)
    assert names[-2:] == ["overgeneralisation_0.001", "overgeneralisation_0.005"]
    assert "overgeneralisation" not in names and len(names) == len(exps.ALL_SPLITS) + 1


def test_architectures_are_the_papers_three():
    lstm = exps.architecture_config("LSTMS2S", 32, 1, 0.0)
    assert lstm["cell"] == "lstm" and lstm["bidirectional"] and lstm["attention"]
    assert exps.architecture_config("ConvS2S", 32, 1, 0.0)["cell"] == "conv"
    transformer = exps.architecture_config("Transformer", 32, 1, 0.0)
    assert transformer["cell"] == "transformer" and transformer["positions"] == "sinusoidal"
    with pytest.raises(ValueError, match="unknown architecture 'GRU'.*LSTMS2S"):
        exps.architecture_config("GRU", 32, 1, 0.0)


def test_breakdown_counts_by_length_and_functions():
    sources = ["copy A1 B2", "reverse copy A1 B2", "copy C3 D4"]
    counts = exps.breakdown(sources, [True, False, False])
    assert counts["input_length"] == {3: [2, 1], 4: [1, 0]}
    assert counts["num_functions"] == {1: [2, 1], 2: [1, 0]}


def test_table_rows_average_seeds_and_sit_beside_the_paper():
    records = [
        {"network": "ConvS2S", "split": "pcfgset", "accuracy": 0.5, "localism": 1.0},
        {"network": "ConvS2S", "split": "pcfgset", "accuracy": 0.7, "localism": 0.0},
        {"network": "ConvS2S", "split": "overgeneralisation_0.005",
         "overgeneralisation_peak": 0.25},
    ]
    rows = {row["test"]: row for row in exps.table_rows(records)}
    assert rows["task"]["ConvS2S"] == pytest.approx(0.6) and rows["task"]["ConvS2S seeds"] == 2
    assert rows["localism"]["ConvS2S"] == pytest.approx(0.5)
    assert rows["overgeneralisation"]["ConvS2S"] == 0.25
    assert rows["systematicity"]["ConvS2S"] is None and rows["task"]["LSTMS2S"] is None
    assert rows["task"]["Transformer (published)"] == 0.92
    assert rows["localism"]["LSTMS2S (published)"] == 0.46
    as_frame = exps.table_rows([{**r, "localism": r.get("localism", float("nan"))} for r in records])
    assert as_frame == exps.table_rows(records)  # NaN (a DataFrame's gaps) is no score
    # beside a run at the paper's ratio (0.1%), Table 1's row reads that run only
    both = [*records, {"network": "ConvS2S", "split": "overgeneralisation_0.001",
                       "overgeneralisation_peak": 0.75}]
    assert {row["test"]: row for row in exps.table_rows(both)}["overgeneralisation"]["ConvS2S"] == 0.75
    assert [r["overgeneralisation_peak"] for r in exps.ratio_records(both, 0.005)] == [0.25]
    with pytest.raises(ValueError, match="unknown PCFG SET test 'tasks'"):
        exps.table_records("tasks", records)
    frame = exps.table(records)
    assert list(frame.index) == list(exps.PAPER)
    assert list(frame.columns[:2]) == ["LSTMS2S", "LSTMS2S (published)"]
    assert list(exps.table(records, ["ConvS2S"]).columns) == ["ConvS2S", "ConvS2S (published)"]


@pytest.mark.slow
def test_subsets_are_seeded_short_and_sized():
    first = exps.training_pairs("systematicity", 50, 8)
    assert first == exps.training_pairs("systematicity", 50, 8) and len(first) == 50
    assert all(len(t.split()) <= 8 for _, t in first)
    assert not any(pcfgset.splits.has_held_out_pair(s) for s, _ in first)
    test = exps.test_pairs("productivity", 20, 8)
    assert len(test) == 20 and all(pcfgset.num_functions(s) > 8 for s, _ in test)
    originals, twins = exps.twin_pairs("primitive", 10, 8)
    assert [t for _, t in originals] == [t for _, t in twins]
    assert all(a != b for (a, _), (b, _) in zip(originals, twins, strict=True))


@pytest.mark.slow
def test_folding_keeps_every_pair_correct_and_the_filters_hold():
    assert exps.fold_symbols("append M17 B2 , C3", 26) == "append M1 B1 , C1"
    assert exps.fold_symbols("M17 B2 T20", 52) == "M1 B2 T2"
    assert exps.fold_symbols("M17 *1", None) == "M17 *1"
    with pytest.raises(ValueError, match="multiple of 26"):
        exps.fold_symbols("A1", 30)
    source_vocab, target_vocab = exps.vocabularies(26)
    assert len(target_vocab) == 3 + 26 and "Z1" in target_vocab.stoi and "Z2" not in target_vocab.stoi
    train = exps.training_pairs("pcfgset", 200, 12, max_functions=3, alphabet_size=26)
    assert len(train) == 200
    for source, target in train:  # folded pairs are still correct pairs
        assert pcfgset.interpret(source) == target.split()
        assert pcfgset.num_functions(source) <= 3 and len(target.split()) <= 12
        assert set(target.split()) <= set(target_vocab.stoi)
    systematic = exps.test_pairs("systematicity", 20, 12, max_functions=3, alphabet_size=26)
    assert all(pcfgset.num_functions(s) <= 3 for s, _ in systematic)
    # productivity's test inputs keep their 9 or more functions whatever the limit
    productive = exps.test_pairs("productivity", 20, 12, max_functions=3, alphabet_size=26)
    assert all(pcfgset.num_functions(s) > 8 for s, _ in productive)
    originals, twins = exps.twin_pairs("primitive", 10, 12, max_functions=3, alphabet_size=26)
    assert all(pcfgset.interpret(s) == t.split() for s, t in originals)
    exceptions, rules = exps.exception_pairs("overgeneralisation_0.005", 2_000, 12, 3, 26)
    assert exceptions and all(pcfgset.interpret(s) == t.split() for s, t in rules)
    assert all(pcfgset.num_functions(s) <= 3 for s, _ in exceptions)


@pytest.mark.slow
def test_a_small_overgeneralisation_sample_keeps_the_ratio():
    exceptions, originals = exps.exception_pairs("overgeneralisation_0.005", 2_000)
    everything, _ = exps.exception_pairs("overgeneralisation_0.005")
    assert 4 <= len(exceptions) < len(everything) / 10  # at least one per pattern
    assert [s for s, _ in exceptions] == [s for s, _ in originals]
    assert all(pcfgset.interpret(s) == t.split() for s, t in originals)
    train = exps.training_pairs("overgeneralisation_0.005", 2_000)
    assert len(train) == 2_000 and set(exceptions) <= set(train)


def test_run_checks_its_options():
    config = exps.architecture_config("ConvS2S", 8, 1, 0.0)
    with pytest.raises(ValueError, match="missing: max_test"):
        exps.run(config, "pcfgset", 0, **{k: v for k, v in TINY.items() if k != "max_test"})
    with pytest.raises(ValueError, match="unknown: depth"):
        exps.run(config, "pcfgset", 0, **TINY, depth=3)
    with pytest.raises(ValueError, match="max_functions must be None or a positive integer"):
        exps.run(config, "pcfgset", 0, **TINY, max_functions=0)
    with pytest.raises(ValueError, match="alphabet_size must be None"):
        exps.run(config, "pcfgset", 0, **TINY, alphabet_size=27)
    with pytest.raises(ValueError, match="unknown training split 'localism'"):
        exps.run(config, "localism", 0, **TINY)


@pytest.mark.slow
def test_a_tiny_run_scores_each_kind_of_test_and_is_cached(one_thread):
    config = exps.architecture_config("ConvS2S", 8, 1, 0.0)
    base = exps.run(config, "pcfgset", 0, **TINY)
    assert base["test_size"] == 6 and 0 <= base["accuracy"] <= 1 and 0 <= base["localism"] <= 1
    for score in ("token_accuracy", "train_accuracy", "train_token_accuracy"):
        assert 0 <= base[score] <= 1, score
    assert sum(n for n, _ in base["by_length"]["num_functions"].values()) == 6
    assert exps.run(config, "pcfgset", 0, **TINY) == base  # from the cache
    twins = exps.run(config, "substitutivity_primitive", 0, **TINY)
    assert 0 <= twins["consistency"] <= 1 and twins["test_size"] == 6
    over = exps.run(config, "overgeneralisation_0.005", 0, **TINY)
    # 96 presentations of 40 pairs: 2 epochs of 3 steps, the curve after each of the 6 steps
    assert over["epochs"] == 2 and len(over["curve"]) == 6
    assert [p["epoch"] for p in over["curve"]] == pytest.approx([1 / 3, 2 / 3, 1, 4 / 3, 5 / 3, 2],
                                                                abs=1e-3)
    assert over["peak_epoch"] in [p["epoch"] for p in over["curve"]]
    assert over["overgeneralisation_peak"] == max(p["overgeneralisation"] for p in over["curve"])
    model, info = exps.trained_model(config, "pcfgset", 0, TINY)
    assert info["train_pairs"] == 40 and not model.training
    folded = exps.run(config, "pcfgset", 0, **TINY, max_functions=3, alphabet_size=26)
    assert folded["train_pairs"] == 40 and folded != base
    model, _ = exps.trained_model(config, "pcfgset", 0, {**TINY, "alphabet_size": 26})
    assert model.output.out_features == 3 + 26


def test_training_overrides_apply_to_their_architecture_only():
    ci = profiles.settings("pcfgset", "ci")
    both = dataclasses.replace(ci, architectures=["LSTMS2S", "Transformer"],
                               training={"Transformer": {"embedding_init": "fairseq",
                                                         "warmup_steps": 10,
                                                         "learning_rate": 1e-3}})
    by_network = {config["network"]: config for config, _ in exps.runs(both)}
    assert by_network["Transformer"]["embedding_init"] == "fairseq"
    assert by_network["Transformer"]["warmup_steps"] == 10
    assert by_network["Transformer"]["learning_rate"] == 1e-3
    lstm = by_network["LSTMS2S"]
    assert "embedding_init" not in lstm and "warmup_steps" not in lstm
    assert lstm["learning_rate"] == ci.recipe["learning_rate"]
    # the overrides are part of the run's key
    plain = exps.run_settings("Transformer", "pcfgset", dataclasses.replace(both, training={}))
    assert (results.run_key("pcfgset", plain, 0)
            != results.run_key("pcfgset", by_network["Transformer"], 0))
    with pytest.raises(ValueError, match="does not train"):
        dataclasses.replace(ci, training={"ConvS2S": {"warmup_steps": 5}})
    with pytest.raises(ValueError, match="unknown training setting"):
        dataclasses.replace(both, training={"Transformer": {"momentum": 0.9}})
    config = exps.architecture_config("LSTMS2S", 8, 1, 0.0)
    with pytest.raises(ValueError, match="embedding_init must be one of"):
        exps.run(config, "pcfgset", 0, **TINY, embedding_init="xavier")


def test_a_fairseq_transformer_with_warmup_trains_and_is_cached(tmp_path):
    config = exps.architecture_config("Transformer", 8, 1, 0.0)
    options = {**TINY, "embedding_init": "fairseq", "warmup_steps": 3}
    model, info = exps.trained_model(config, "pcfgset", 0, options)
    assert info["train_pairs"] == 40
    assert model.source_embedding.weight.std().item() < 0.6  # drawn small, trained a little
    again, _ = exps.trained_model(config, "pcfgset", 0, options)
    assert all((a == b).all() for a, b in zip(model.state_dict().values(),
                                              again.state_dict().values()))


def test_architecture_options_set_fields_of_one_architecture():
    ci = profiles.settings("pcfgset", "ci")
    three = dataclasses.replace(ci, architectures=list(exps.ARCHITECTURE_NAMES),
                                architecture_options={"ConvS2S": {"num_layers": 3},
                                                      "Transformer": {"norm_first": True}})
    by_network = {config["network"]: config["architecture"] for config, _ in exps.runs(three)}
    assert by_network["ConvS2S"]["num_layers"] == 3 and by_network["ConvS2S"]["cell"] == "conv"
    assert by_network["Transformer"]["norm_first"] is True
    assert by_network["LSTMS2S"] == exps.architecture_config("LSTMS2S", ci.hidden_size,
                                                             ci.num_layers, ci.dropout)
    assert "norm_first" not in exps.architecture_config("Transformer", 8, 1, 0.0)
    with pytest.raises(ValueError, match="unknown architecture field"):
        exps.architecture_config("Transformer", 8, 1, 0.0, depth=3)
    with pytest.raises(ValueError, match="does not train"):
        dataclasses.replace(ci, architecture_options={"Transformer": {"norm_first": True}})
    with pytest.raises(ValueError, match="norm_first is for Transformers"):
        dataclasses.replace(three, architecture_options={"ConvS2S": {"norm_first": True}})


# ---------------------------------------------------------------------------------------------
# The gpu profile: the convergence recipe


def test_gpu_profile_runs_the_full_profiles_table_with_a_recipe_per_architecture():
    full, gpu = profiles.settings("pcfgset", "full"), profiles.settings("pcfgset", "gpu")
    assert len(exps.runs(gpu)) == 54
    # the full profile's runs but those at 0.5% exceptions (Sec. 4.5's contrast, full only)
    assert [(c["network"], c["split"], s) for c, s in exps.runs(gpu)] == \
        [(c["network"], c["split"], s) for c, s in exps.runs(full)
         if c["split"] != "overgeneralisation_0.005"]
    assert gpu.hidden_size >= 256 and gpu.num_layers >= 2  # at least 2 x 256 recurrent
    for config, _ in exps.runs(gpu):
        recipe = config["recipe"]
        assert recipe == recipes.Recipe.from_dict(recipe).to_dict()  # complete, in the key
        assert recipe["batch_size"] >= 128 and recipe["max_epochs"] == 25
        assert not set(exps.OPTION_KEYS) - set(exps.RECIPE_OPTION_KEYS) & set(config)
    transformer = exps.run_settings("Transformer", "pcfgset", gpu)["architecture"]
    assert transformer["num_layers"] >= 3 and transformer["norm_first"]
    # a recipe is part of the key
    config, seed = exps.runs(gpu)[0]
    changed = {**config, "recipe": {**config["recipe"], "patience": 4}}
    assert results.run_key("pcfgset", changed, seed) != results.run_key("pcfgset", config, seed)


def test_gpu_profiles_committed_runs_are_all_found_and_carry_their_fit():
    store = results.RunStore(results.project_results("pcfgset", "runs"), "pcfgset")
    gpu = profiles.settings("pcfgset", "gpu")
    for config, seed in exps.runs(gpu):
        assert store.has(config, seed), (config["network"], config["split"], seed)
        record = store.load(config, seed)
        assert record["device_name"].startswith("NVIDIA")
        fit = record["fit"]
        assert fit["stopped"] in recipes.STOP_REASONS
        assert 0 <= fit["train_accuracy"] <= 1 and 0 <= fit["validation_accuracy"] <= 1
        assert record["validation_accuracy"] == fit["validation_accuracy"]
        assert record["fit_history"][-1]["epoch"] == fit["epochs"]


def test_each_architecture_has_one_recipe_and_a_bad_one_is_named():
    gpu = profiles.settings("pcfgset", "gpu")
    assert gpu.recipe == {} and set(gpu.training) == set(gpu.architectures)
    assert all("presentations" not in values for values in gpu.training.values())
    with pytest.raises(ValueError, match="presentations needs batch_size and learning_rate"):
        dataclasses.replace(gpu, recipe={"presentations": 1000})
    with pytest.raises(ValueError, match="unknown training setting.*epochs"):
        dataclasses.replace(gpu, training={**gpu.training, "LSTMS2S": {"epochs": 3}})
    with pytest.raises(ValueError, match="batch_size"):
        dataclasses.replace(gpu, training={**gpu.training, "LSTMS2S": {"batch_size": 0}})
    tutorial = profiles.settings("pcfgset", "tutorial")
    with pytest.raises(ValueError, match="missing: learning_rate"):
        dataclasses.replace(tutorial, recipe={"presentations": 100, "batch_size": 16})



@pytest.mark.slow
def test_validation_is_the_dev_set_or_held_out_training_pairs():
    options = {"train_size": 400, "max_output_length": 8, "max_functions": 3,
               "alphabet_size": 26}
    pairs = exps.pair_options(options)
    train = exps.training_pairs("pcfgset", 400, **pairs)
    kept, validation = exps.validation_split("pcfgset", train, options)
    assert kept == train and validation  # the base task: its own dev pairs
    assert all(len(t.split()) <= 8 for _, t in validation)
    for split in ("systematicity", "overgeneralisation_0.001"):
        train = exps.training_pairs(split, 400, **pairs)
        kept, validation = exps.validation_split(split, train, options)
        assert len(validation) == 20 and len(kept) + len(validation) == len(train)
        assert not set(kept) & set(validation)
        assert validation == exps.validation_split(split, train, options)[1]  # seeded
    exceptions = set(exps.exception_pairs("overgeneralisation_0.001", 400, **pairs)[0])
    assert exceptions and exceptions <= set(kept) and not exceptions & set(validation)


@pytest.mark.slow
def test_a_tiny_recipe_run_records_its_fit_and_overgeneralisation_curve(one_thread):
    config = exps.architecture_config("LSTMS2S", 8, 1, 0.0)
    options = {"train_size": 60, "max_output_length": 6, "max_test": 6,
               "recipe": {"batch_size": 20, "max_epochs": 2, "patience": 5, "fit_size": 10,
                          "evaluations_per_epoch": 2}}
    with pytest.raises(ValueError, match="unknown: presentations"):
        exps.run(config, "pcfgset", 0, presentations=5, **options)
    with pytest.raises(ValueError, match="unknown recipe field"):
        exps.run(config, "pcfgset", 0, **{**options, "recipe": {"epochs": 2}})
    scores = exps.run(config, "overgeneralisation_0.001", 0, **options)
    assert scores["fit"]["stopped"] == "max_epochs" and scores["epochs"] == 2.0
    assert len(scores["fit_history"]) == 4 == len(scores["curve"])
    # 57 pairs in batches of 20: 3 batches an epoch, evaluated after the 2nd and the 3rd
    assert [p["epoch"] for p in scores["curve"]] == [0.6667, 1.0, 1.6667, 2.0]
    assert scores["validation_pairs"] == 3 and scores["train_pairs"] == len(
        exps.training_pairs("overgeneralisation_0.001", 60, max_output_length=6)) - 3
    assert scores["device_name"] == "cpu"
    task = exps.run(config, "pcfgset", 0, **options)
    assert 0 <= task["validation_accuracy"] <= 1 and "localism" in task


@pytest.mark.slow
def test_a_run_on_the_reduction_trains_to_the_gate_and_productivity_reuses_the_task_network():
    config = exps.architecture_config("LSTMS2S", 8, 1, 0.0)
    options = {"train_size": None, "max_output_length": 24, "max_test": 12,
               "alphabet_size": 26, "reduction": "f3-o24",
               "recipe": {"batch_size": 64, "learning_rate": 1e-3, "max_seconds": 1.0,
                          "fit_size": 20, "stop_at": [0.92, 0.74]}}
    task = exps.run(config, "pcfgset", 0, **options)
    productivity = exps.run(config, "productivity", 0, **options)
    assert task["train_pairs"] == productivity["train_pairs"] == 49_300
    # the same trained network: its training record is the task's
    assert productivity["fit"] == task["fit"] and productivity["train_seconds"] == task["train_seconds"]
    assert task["fit"]["stopped"] in ("fit", "max_seconds")
    functions = {int(n) for n in productivity["by_length"]["num_functions"]}
    assert functions <= {4, 5} and {int(n) for n in task["by_length"]["num_functions"]} <= {1, 2, 3}
    with pytest.raises(ValueError, match="unknown PCFG SET reduction"):
        exps.run(config, "pcfgset", 0, **{**options, "reduction": "f9"})
