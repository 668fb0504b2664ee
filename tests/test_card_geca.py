"""GECA-style augmentation for the card (Andreas 2020, one-word aligned fragments), and the
rebuilt full card's settings: budgets per network and benchmark, the reduced PCFG SET, and the
augmented network on the SCAN-based tasks only."""

import pytest

from tutorlib import card, scan
from tutorlib.card import experiments as ce
from tutorlib.card import geca


def test_a_word_that_shares_an_environment_is_put_into_the_others_environments():
    pairs = [("walk", "W"), ("jump", "J"), ("walk left", "L W"), ("walk twice", "W W")]
    assert geca.candidates(pairs) == {("jump left", "L J"), ("jump twice", "J J")}


def test_unaligned_words_are_never_swapped():
    # "and" and "after" share "walk _ walk -> _ _" with the output token W, but W also occurs
    # without them: not a fragment, so "walk after run" is not made from "walk and run"
    pairs = [("walk and walk", "W W"), ("walk after walk", "W W"), ("walk and run", "W R")]
    assert geca.candidates(pairs) == set()


def test_every_pair_made_from_scans_jump_split_is_right_and_most_of_its_test_is_made():
    train, test = scan.split("addprim_jump")
    made = geca.candidates(train)
    quality = geca.augmentation_quality(sorted(made))
    assert quality["pairs"] == quality["correct"] > 5000  # by SCAN's interpretation function
    assert all("jump" in source for source, _ in made)  # the withheld word, in new places
    assert len(set(test) & made) / len(set(test)) > 0.8


def test_augment_samples_new_pairs_never_the_excluded_and_checks_its_input():
    pairs = [("walk", "W"), ("jump", "J"), ("walk left", "L W"), ("walk twice", "W W")]
    assert geca.augment(pairs, 1, seed=0) in ([("jump left", "L J")], [("jump twice", "J J")])
    assert geca.augment(pairs, seed=3) == geca.augment(pairs, seed=3)
    assert geca.augment(pairs, exclude=[("jump left", "L J")]) == [("jump twice", "J J")]
    assert geca.augment(pairs, 0) == []
    with pytest.raises(ValueError, match="size must be"):
        geca.augment(pairs, -1)
    with pytest.raises(ValueError, match="at least one training pair"):
        geca.augment([])
    with pytest.raises(ValueError, match="gaps"):
        geca.candidates([("walk _", "W")])


def test_an_augmented_task_adds_pairs_to_training_only():
    task = card.scan_task("addprim_jump", train_size=2000, validation_size=50, test_size=20)
    augmented = geca.augment_task(task, "geca", seed=0, size=300)
    assert len(augmented.train) == len(task.train) + 300
    assert set(task.train) <= set(augmented.train)
    assert augmented.validation == task.validation and augmented.tests == task.tests
    assert not set(augmented.validation) & set(augmented.train)
    with pytest.raises(ValueError, match="unknown augmentation"):
        geca.augment_task(task, "mixup")


def test_the_full_cards_runs_have_budgets_per_network_and_geca_only_on_scan_tasks():
    settings = ce.SETTINGS["full"]
    runs = ce.runs(settings)
    per_seed = [c for c, seed in runs if seed == 0]
    assert len(settings["models"]) >= 6 and len(runs) == 3 * len(per_seed)
    geca_runs = [c for c in per_seed if c["model"] == "lstm_attention_geca"]
    assert {c["benchmark"] for c in geca_runs} == set(ce.AUGMENTED_BENCHMARKS)
    assert all(c["augment"] == "geca" for c in geca_runs)
    assert not any("augment" in c for c in per_seed if c["model"] != "lstm_attention_geca")
    for config in per_seed:
        assert config["max_seconds"] == ce.FULL_BUDGETS[config["model"]][config["benchmark"]]
        assert config["recipe"]["stop_at"] == ce.FULL_RECIPE["stop_at"]
        assert (config.get("reduction") == "f3-o24") == (config["benchmark"] == "pcfgset")
        assert (config.get("pcfgset_train") == 0) == (config["benchmark"] == "pcfgset")
    # the other profiles' runs keep the keys they had: none of the new settings enters them
    for profile in ("ci", "tutorial"):
        for config, _ in ce.runs(ce.SETTINGS[profile]):
            assert not {"augment", "reduction", "pcfgset_train", "with_tests"} & set(config)


@pytest.mark.slow
def test_a_reduced_pcfgset_task_is_folded_onto_26_symbols():
    task = card.pcfgset_task("systematicity", train_size=500, validation_size=50, test_size=50,
                             reduction="f3-o24")
    symbols = {token for pairs in (task.train, task.validation, *task.tests.values())
               for _, target in pairs for token in target.split()}
    assert len(symbols) <= card.REDUCED_ALPHABET
    assert max(len(target.split()) for _, target in task.train) <= 24
    with pytest.raises(ValueError, match="unknown PCFG SET reduction"):
        card.pcfgset_task("systematicity", reduction="f2")


def test_a_later_seed_of_a_cell_that_did_not_fit_is_skipped():
    config = ce.runs(ce.SETTINGS["ci"])[0][0]
    records = {0: {"result": {"rows": [{"fitted": False}, {"fitted": False}]}},
               1: {"result": {"rows": [{"fitted": True}]}}}
    assert ce.skip(config, 0, lambda c, seed: records.get(seed)) is None
    assert ce.skip(config, 2, lambda c, seed: records.get(seed)).startswith(
        "seed 0 did not pass the fit gate")
    records[0] = {"result": {"rows": [{"fitted": True}]}}
    assert ce.skip(config, 2, lambda c, seed: records.get(seed)) is None
    assert ce.skip(config, 1, lambda c, seed: None) is None  # the earlier seed not run yet


@pytest.mark.slow
def test_productivity_and_localism_are_scored_on_the_reduced_task_network():
    task = card.pcfgset_task("pcfgset", train_size=300, validation_size=50, test_size=20,
                             reduction="f3-o24", with_tests=["productivity", "localism"])
    assert list(task.tests) == ["pcfgset", "productivity", "localism"]
    from tutorlib import pcfgset

    assert max(pcfgset.num_functions(s) for s, _ in task.tests["productivity"]) > 3

    class Interpreter:
        def fit(self, train, validation, *, seed, max_seconds, device):
            return {"train_accuracy": 1.0, "validation_accuracy": 1.0}

        def predict(self, sources):
            return [" ".join(pcfgset.interpret(s)) for s in sources]

    rows = card.run_task(Interpreter, task, seed=0, max_seconds=1)
    scores = {(r["test"], r["score"]): r["value"] for r in rows}
    assert scores == {("pcfgset", "accuracy"): 1.0, ("productivity", "accuracy"): 1.0,
                      ("localism", "accuracy"): 1.0, ("localism", "localism"): 1.0}
    with pytest.raises(ValueError, match="with_tests needs a reduction"):
        card.pcfgset_task("pcfgset", train_size=300, validation_size=50, test_size=20,
                          with_tests=["productivity"])
    with pytest.raises(ValueError, match="with_tests takes"):
        card.pcfgset_task("pcfgset", reduction="f3-o24", with_tests=["systematicity"])
