"""The one trainer: its recipe, length-bucketed batches, the stopping rule, the fit it records,
checkpoints a cut run resumes from, and a network that learns a small task to the end."""

import math

import numpy as np
import pytest
import torch

from tutorlib import seq2seq as s2s
from tutorlib.seq2seq import training as recipes


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.setenv("TQDM_DISABLE", "1")


def copy_task(count: int, seed: int):
    """Copy 1-4 of 6 symbols: an easy task every architecture learns in a few epochs."""
    rng = np.random.default_rng(seed)
    symbols = "a b c d e f".split()
    pairs = []
    for _ in range(count):
        tokens = " ".join(rng.choice(symbols, size=rng.integers(1, 5)))
        pairs.append((tokens, tokens))
    return pairs


def test_recipe_checks_its_fields_and_names_the_bad_one():
    with pytest.raises(ValueError, match="batch_size"):
        recipes.Recipe(batch_size=0)
    with pytest.raises(ValueError, match="batch_size"):
        recipes.Recipe(batch_size=True)
    with pytest.raises(ValueError, match="learning_rate"):
        recipes.Recipe(learning_rate=-1e-3)
    with pytest.raises(ValueError, match="learning_rate"):
        recipes.Recipe(learning_rate=float("nan"))
    with pytest.raises(ValueError, match="schedule"):
        recipes.Recipe(schedule="cosine")
    with pytest.raises(ValueError, match="warmup_steps"):
        recipes.Recipe(schedule="inverse_sqrt")
    with pytest.raises(ValueError, match="precision"):
        recipes.Recipe(precision="fp16")
    with pytest.raises(ValueError, match="betas"):
        recipes.Recipe(betas=(0.9, 1.5))
    with pytest.raises(ValueError, match="max_seconds"):
        recipes.Recipe(max_seconds=0)
    with pytest.raises(ValueError, match="teacher_forcing"):
        recipes.Recipe(teacher_forcing=2)
    with pytest.raises(ValueError, match="unknown recipe field.*epochs"):
        recipes.Recipe.from_dict({"epochs": 3})
    with pytest.raises(ValueError, match="dict"):
        recipes.Recipe.from_dict([("batch_size", 3)])


def test_recipe_round_trips_through_its_dict():
    recipe = recipes.Recipe(batch_size=64, betas=[0.9, 0.98], warmup_steps=10,
                            schedule="inverse_sqrt", max_seconds=30.0)
    assert recipe.betas == (0.9, 0.98)
    assert recipes.Recipe.from_dict(recipe.to_dict()) == recipe
    assert recipe.to_dict()["betas"] == [0.9, 0.98]  # JSON, as stored in run keys


def test_scaling_keeps_the_warmup_over_the_same_examples():
    recipe = recipes.Recipe(batch_size=64, learning_rate=1e-3, warmup_steps=800)
    bigger = recipe.scaled_to(256)
    assert bigger.batch_size == 256
    assert bigger.learning_rate == pytest.approx(2e-3)  # sqrt(4) times
    assert bigger.warmup_steps * 256 == recipe.warmup_steps * 64
    assert recipe.scaled_to(64) == recipe


def test_learning_rate_warms_up_then_falls_as_the_inverse_square_root():
    recipe = recipes.Recipe(learning_rate=1.0, warmup_steps=4, schedule="inverse_sqrt")
    rates = [recipe.learning_rate_at(step, 16) for step in range(16)]
    assert rates[:4] == [0.25, 0.5, 0.75, 1.0]
    assert rates[15] == pytest.approx(math.sqrt(4 / 16))
    flat = recipes.Recipe(learning_rate=1.0, warmup_steps=4)
    assert flat.learning_rate_at(100, 1000) == 1.0


def test_bucketed_batches_hold_every_pair_once_and_little_padding():
    rng = np.random.default_rng(0)
    target = rng.integers(1, 50, size=2000)
    source = target + rng.integers(0, 5, size=2000)
    whole_epoch = recipes.Recipe(batch_size=32, bucket_pool=None)
    batches = recipes.epoch_batches(whole_epoch, target, source, rng=np.random.default_rng(1))
    assert sorted(np.concatenate(batches).tolist()) == list(range(2000))
    assert all(len(b) == 32 for b in batches[:-1] if len(b) != 2000 % 32)
    bucketed = recipes.padded_share(batches, source, target)
    shuffled = recipes.padded_share(recipes.epoch_batches(
        recipes.Recipe(batch_size=32, bucketed=False), target, source,
        rng=np.random.default_rng(1)), source, target)
    # the default, pools of 8 batches: every pair once, padding between the two
    pooled_batches = recipes.epoch_batches(recipes.Recipe(batch_size=32), target, source,
                                           rng=np.random.default_rng(1))
    assert sorted(np.concatenate(pooled_batches).tolist()) == list(range(2000))
    pooled = recipes.padded_share(pooled_batches, source, target)
    assert bucketed < 0.05 < pooled < 0.3 < shuffled
    assert recipes.Recipe(bucketed=False).bucket_pool is None
    # the ties are broken at random: another epoch, other batches
    again = recipes.epoch_batches(whole_epoch, target, source, rng=np.random.default_rng(2))
    assert {tuple(sorted(b)) for b in again} != {tuple(sorted(b)) for b in batches}


def test_padded_share_by_hand():
    # one batch: sources of 1 and 3 (3 + 3 positions, 4 real), targets of 2 and 2 (all real)
    assert recipes.padded_share([np.array([0, 1])], np.array([1, 3]),
                                np.array([2, 2])) == pytest.approx(0.2)
    assert recipes.padded_share([], np.array([]), np.array([])) == 0.0


def test_teacher_forcing_coins_fall_at_the_recipes_rate_and_pools_draw_them_per_step():
    from tutorlib.seq2seq.batches import teacher_forcing_coins

    batches = [np.arange(i, i + 4) for i in range(0, 4000, 4)]
    half = recipes.Recipe(teacher_forcing=0.5, bucketed=False)
    coins = teacher_forcing_coins(half, batches, np.random.default_rng(0), seed=0, first_step=0)
    assert len(coins) == 1000 and 0.45 < np.mean(coins) < 0.55
    per_pair = teacher_forcing_coins(recipes.Recipe(teacher_forcing=0.5, bucketed=False,
                                                    teacher_forcing_per="example"),
                                     batches, np.random.default_rng(0), seed=0, first_step=0)
    assert all(c.shape == (4,) for c in per_pair) and 0.45 < np.mean(per_pair) < 0.55
    never = teacher_forcing_coins(recipes.Recipe(teacher_forcing=0.0), batches,
                                  np.random.default_rng(0), seed=0, first_step=0)
    assert not any(never)
    # with pools, step s draws from (seed, s) alone: the run's generator is left untouched and
    # an epoch that starts at step 10 repeats steps 10 on of one that starts at 0
    pooled = recipes.Recipe(teacher_forcing=0.5)
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    whole = teacher_forcing_coins(pooled, batches[:20], rng, seed=7, first_step=0)
    assert rng.bit_generator.state == before
    assert teacher_forcing_coins(pooled, batches[:10], rng, seed=7, first_step=10) == whole[10:]


@pytest.mark.parametrize("cell,count,learning_rate", [("lstm", 300, 1e-2),
                                                      ("transformer", 600, 3e-3),
                                                      ("conv", 300, 3e-3)])
@pytest.mark.slow
def test_a_network_learns_the_copy_task_and_keeps_its_best_model(cell, count, learning_rate,
                                                                  one_thread):
    train, validation = copy_task(count, 0), copy_task(100, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    torch.manual_seed(0)
    options = {"lstm": {"attention": True}, "transformer": {"num_heads": 2, "norm_first": True},
               "conv": {"kernel_size": 3}}[cell]
    model = s2s.build_model(s2s.Seq2SeqConfig(cell, 32, 1, 0.0, **options), len(vocab),
                            len(vocab))
    recipe = recipes.Recipe(batch_size=32, learning_rate=learning_rate, max_epochs=25,
                            patience=3, fit_size=100, warmup_steps=20)
    fit = recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0)
    assert fit.stopped in recipes.STOP_REASONS
    assert fit.validation_accuracy >= 0.9 and fit.train_accuracy >= 0.9
    # the kept model is the best on validation, and it is what the model now holds
    best = max(fit.history, key=lambda row: row["validation_accuracy"])
    assert fit.validation_accuracy == best["validation_accuracy"]
    assert fit.best_epoch == best["epoch"]
    assert s2s.evaluate(model, validation, vocab, vocab,
                        batch_size=1000).accuracy == pytest.approx(fit.validation_accuracy)
    assert 0 < fit.seconds_to_fit <= fit.train_seconds
    assert fit.padded_share < 0.2 and fit.pairs_per_second > 0  # pools of 8 batches: some padding
    assert [row["step"] for row in fit.history] == sorted(row["step"] for row in fit.history)


def test_patience_stops_training_and_says_so(one_thread):
    train, validation = copy_task(200, 0), copy_task(50, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    torch.manual_seed(0)
    model = s2s.build_model(s2s.Seq2SeqConfig("lstm", 4, 1, 0.0), len(vocab), len(vocab))
    # a learning rate far too small to improve anything: patience ends it
    recipe = recipes.Recipe(batch_size=50, learning_rate=1e-9, max_epochs=50, patience=2,
                            evaluations_per_epoch=2)
    fit = recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0)
    assert fit.stopped == "patience"
    assert len(fit.history) == 2 * 2 + 1  # the first evaluation, then 2 epochs without gain
    assert fit.epochs == pytest.approx(2.5)


def test_the_time_budget_stops_training_and_max_epochs_caps_it():
    train, validation = copy_task(200, 0), copy_task(50, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    model = s2s.build_model(s2s.Seq2SeqConfig("lstm", 8, 1, 0.0), len(vocab), len(vocab))
    fit = recipes.fit(model, train, vocab, vocab,
                      recipes.Recipe(batch_size=20, max_seconds=1e-6, max_epochs=5),
                      validation=validation, seed=0)
    assert fit.stopped == "max_seconds" and len(fit.history) == 1
    # the budget is checked every step, not only at evaluations: with one evaluation an epoch
    # of 10 steps, a run out of time after its first step stops there (on a GPU sweep, an
    # epoch between evaluations took minutes and the runs overran the sweep's own budget)
    assert fit.steps == 1 and fit.epochs == pytest.approx(0.1)
    fit = recipes.fit(model, train, vocab, vocab,
                      recipes.Recipe(batch_size=100, max_epochs=2, patience=10),
                      validation=validation, seed=0)
    assert fit.stopped == "max_epochs" and fit.epochs == 2.0 and fit.steps == 4


def test_stop_at_ends_training_at_the_first_evaluation_that_passes_and_keeps_it(one_thread):
    train, validation = copy_task(300, 0), copy_task(100, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    torch.manual_seed(0)
    model = s2s.build_model(s2s.Seq2SeqConfig("lstm", 32, 1, 0.0, attention=True), len(vocab),
                            len(vocab))
    recipe = recipes.Recipe(batch_size=32, learning_rate=1e-2, max_epochs=40, patience=40,
                            fit_size=100, evaluations_per_epoch=2, stop_at=(0.9, 0.85))
    fit = recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0)
    assert fit.stopped == "fit"
    last = fit.history[-1]
    assert last["train_accuracy"] >= 0.9 and last["validation_accuracy"] >= 0.85
    # every earlier evaluation missed a bar, and the kept model is the last one, not the best
    assert all(r["train_accuracy"] < 0.9 or r["validation_accuracy"] < 0.85
               for r in fit.history[:-1])
    assert fit.epochs < 40 and fit.best_epoch == last["epoch"]
    assert fit.validation_accuracy == last["validation_accuracy"]
    assert s2s.evaluate(model, validation, vocab, vocab,
                        batch_size=1000).accuracy == pytest.approx(last["validation_accuracy"])


def test_stop_at_stops_only_where_confirm_agrees_and_patience_does_not_stop_it(one_thread):
    train, validation = copy_task(300, 0), copy_task(100, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    config = s2s.Seq2SeqConfig("lstm", 32, 1, 0.0, attention=True)
    recipe = recipes.Recipe(batch_size=32, learning_rate=1e-2, max_epochs=40, patience=1,
                            fit_size=100, evaluations_per_epoch=2, stop_at=(0.9, 0.85))
    torch.manual_seed(0)
    model = s2s.build_model(config, len(vocab), len(vocab))
    plain = recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0)
    asked = []

    def confirm(model):  # refuses the first model that reaches the bars
        asked.append(model.training)
        return len(asked) > 1

    torch.manual_seed(0)
    model = s2s.build_model(config, len(vocab), len(vocab))
    fit = recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0,
                      confirm=confirm)
    assert plain.stopped == fit.stopped == "fit" and asked == [False, False]
    # the same run up to the refused model, which is marked so; training went on past it
    refused = len(plain.history) - 1
    assert fit.history[refused]["confirmed"] is False and fit.history[-1]["confirmed"] is True
    assert [r["loss"] for r in fit.history[:refused + 1]] == [r["loss"] for r in plain.history]
    assert len(fit.history) > len(plain.history) and fit.best_epoch == fit.history[-1]["epoch"]
    # patience=1 stops the same run without stop_at (its validation accuracy dips), not so
    torch.manual_seed(0)
    model = s2s.build_model(config, len(vocab), len(vocab))
    impatient = recipes.fit(model, train, vocab, vocab, recipes.Recipe(
        **{**recipe.to_dict(), "stop_at": None}), validation=validation, seed=0)
    assert impatient.stopped == "patience" and len(impatient.history) < len(fit.history)
    plain_recipe = recipes.Recipe(**{**recipe.to_dict(), "stop_at": None})
    with pytest.raises(ValueError, match="confirm is a check .* for a recipe with stop_at"):
        recipes.fit(model, train, vocab, vocab, plain_recipe, validation=validation, seed=0,
                    confirm=confirm)
    with pytest.raises((TypeError, ValueError), match="confirm=True violates type hint"):
        recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0,
                    confirm=True)


def test_stop_at_is_checked_and_stays_out_of_earlier_keys():
    assert "stop_at" not in recipes.Recipe().to_dict()  # committed run keys are unchanged
    recipe = recipes.Recipe(stop_at=[0.9, 0.74])
    assert recipe.stop_at == (0.9, 0.74) and recipe.to_dict()["stop_at"] == [0.9, 0.74]
    assert recipes.Recipe.from_dict(recipe.to_dict()) == recipe
    for bad in ((1.5, 0.5), (0.9, -0.1), [0.9, 0.9, 0.9]):
        with pytest.raises(ValueError, match="stop_at"):
            recipes.Recipe(stop_at=bad)
    with pytest.raises(ValueError, match="stop_at is for training to convergence"):
        recipes.Recipe(presentations=100, schedule="linear", stop_at=(0.9, 0.9))


def test_on_evaluation_adds_to_each_row_and_the_run_is_reproducible(one_thread):
    train, validation = copy_task(100, 0), copy_task(20, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    recipe = recipes.Recipe(batch_size=25, max_epochs=2, patience=5, teacher_forcing=0.5)

    def train_once():
        torch.manual_seed(3)
        model = s2s.build_model(s2s.Seq2SeqConfig("lstm", 8, 1, 0.0, attention=True),
                                len(vocab), len(vocab))
        return recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=3,
                           on_evaluation=lambda m: {"probe": 1.5})

    first, second = train_once(), train_once()
    assert all(row["probe"] == 1.5 for row in first.history)
    assert [r["loss"] for r in first.history] == [r["loss"] for r in second.history]


def test_bad_input_gets_a_clear_error():
    vocab = s2s.Vocabulary(["a"])
    model = s2s.build_model(s2s.Seq2SeqConfig("lstm", 4, 1, 0.0), len(vocab), len(vocab))
    recipe = recipes.Recipe()
    with pytest.raises(ValueError, match="no training pairs"):
        recipes.fit(model, [], vocab, vocab, recipe, validation=[("a", "a")], seed=0)
    with pytest.raises(ValueError, match="needs validation pairs"):
        recipes.fit(model, [("a", "a")], vocab, vocab, recipe, validation=[], seed=0)
    with pytest.raises(ValueError, match="recipe=.* violates type hint"):
        recipes.fit(model, [("a", "a")], vocab, vocab, {"batch_size": 3},
                    validation=[("a", "a")], seed=0)
    with pytest.raises(ValueError, match="seed"):
        recipes.fit(model, [("a", "a")], vocab, vocab, recipe, validation=[("a", "a")],
                    seed=-1)
    with pytest.raises(ValueError, match="token 'b'"):
        recipes.fit(model, [("b", "a")], vocab, vocab, recipe, validation=[("a", "a")],
                    seed=0)


def test_predict_gives_what_evaluate_predicts_without_targets():
    train = copy_task(50, 0)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    torch.manual_seed(0)
    for cell in ("lstm", "transformer", "conv"):
        model = s2s.build_model(s2s.Seq2SeqConfig(cell, 8, 1, 0.0, num_heads=2), len(vocab),
                                len(vocab))
        evaluation = s2s.evaluate(model, train, vocab, vocab, max_length=9, batch_size=7)
        predictions = s2s.predict(model, [s for s, _ in train], vocab, vocab, max_length=9,
                                  batch_size=7)
        assert predictions == evaluation.predictions
    assert s2s.predict(model, [], vocab, vocab, max_length=3) == []
    with pytest.raises(ValueError, match="sources must be a sequence .*not .*string|sources=.a b. violates"):
        s2s.predict(model, "a b", vocab, vocab, max_length=3)
    with pytest.raises(ValueError, match="max_length"):
        s2s.predict(model, ["a"], vocab, vocab, max_length=0)
    with pytest.raises(ValueError, match="token 'zz'"):
        s2s.predict(model, ["zz"], vocab, vocab, max_length=3)


def test_a_transformer_with_the_default_embeddings_learns_to_reverse_short_strings(one_thread):
    # built and trained with every default, a small Transformer with sinusoidal positions must
    # learn an order-sensitive task in a few epochs; with PyTorch's embedding draw (standard
    # deviation 1, scaled by sqrt(64)) the positions are drowned and it does not
    rng = np.random.default_rng(0)
    symbols = "a b c d e f g h".split()

    def reversals(count):
        pairs = []
        for _ in range(count):
            tokens = list(rng.choice(symbols, size=rng.integers(2, 6)))
            pairs.append((" ".join(tokens), " ".join(reversed(tokens))))
        return pairs

    train, validation = reversals(1500), reversals(100)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    config = s2s.Seq2SeqConfig("transformer", 64, 2, 0.0, num_heads=4, positions="sinusoidal",
                               norm_first=True)
    # (8 epochs: with the default pools of 8 batches, issue 67, 6 epochs reached 0.89)
    recipe = recipes.Recipe(batch_size=32, learning_rate=1e-3, max_epochs=8, patience=8,
                            fit_size=100)
    accuracy = {}
    for draw in ("as built", "standard deviation 1"):
        torch.manual_seed(0)
        model = s2s.build_model(config, len(vocab), len(vocab))
        if draw == "standard deviation 1":  # PyTorch's draw of nn.Embedding, unscaled
            with torch.no_grad():
                for embedding in (model.source_embedding, model.target_embedding):
                    embedding.weight.mul_(64 ** 0.5)
        fit = recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0)
        accuracy[draw] = fit.validation_accuracy
    assert accuracy["as built"] >= 0.9, accuracy
    assert accuracy["standard deviation 1"] < accuracy["as built"] - 0.2, accuracy


class _Cut(Exception):
    pass


@pytest.mark.parametrize("recipe", [
    recipes.Recipe(batch_size=16, max_epochs=4, patience=10, evaluations_per_epoch=2,
                   teacher_forcing=0.5, fit_size=20),
    recipes.Recipe.fixed(400, 16, 3e-3, 0.1, warmup_steps=3, evaluate_every=5),
], ids=["to convergence", "presentations"])
def test_a_run_cut_and_resumed_from_its_checkpoint_ends_as_one_never_cut(recipe, tmp_path,
                                                                          one_thread):
    train, validation = copy_task(120, 0), copy_task(20, 1)
    vocabs = (s2s.Vocabulary.from_sequences([s.split() for s, _ in train]),) * 2
    config = s2s.Seq2SeqConfig("lstm", 8, 1, 0.1, attention=True)  # dropout: the RNG resumes
    evaluations = []

    def probe(model, cut_at=None):
        evaluations.append(1)
        if len(evaluations) == cut_at:
            raise _Cut  # the machine is taken back here
        return {"probe": len(evaluations)}

    whole = s2s.train_once(config, train, vocabs, recipe, 5, validation=validation,
                           on_evaluation=probe)
    evaluations.clear()
    with pytest.raises(_Cut):
        s2s.train_once(config, train, vocabs, recipe, 5, validation=validation,
                       on_evaluation=lambda m: probe(m, cut_at=3), checkpoints=tmp_path,
                       checkpoint_every=0.0)
    saved = list(tmp_path.glob("*.pt"))
    assert len(saved) == 1
    assert saved[0] == s2s.checkpoint_path(config, recipe, 5, train, validation, tmp_path)
    evaluations[:] = [1, 1]  # the two evaluations the checkpoint holds
    resumed = s2s.train_once(config, train, vocabs, recipe, 5, validation=validation,
                             on_evaluation=probe, checkpoints=tmp_path)
    assert not list(tmp_path.glob("*.pt"))  # removed when the run ends

    def untimed(log):
        return {k: v for k, v in log.to_dict().items() if "second" not in k} | {
            "history": [{k: v for k, v in row.items() if k != "seconds"} for row in log.history]}

    assert untimed(resumed.log) == untimed(whole.log)
    # a checkpoint of another run is refused, not resumed from
    evaluations.clear()
    with pytest.raises(_Cut):
        s2s.train_once(config, train, vocabs, recipe, 5, validation=validation,
                       on_evaluation=lambda m: probe(m, cut_at=3),
                       checkpoints=tmp_path, checkpoint_every=0.0)
    other = s2s.build_model(config, len(vocabs[0]), len(vocabs[1]))
    with pytest.raises(ValueError, match="is of another run"):
        recipes.fit(other, train, *vocabs, recipe, seed=6, validation=validation,
                    checkpoint=next(tmp_path.glob("*.pt")))
    assert resumed.log.losses == whole.log.losses
    assert all(torch.equal(resumed.state_dict()[k], v) for k, v in whole.state_dict().items())


def test_presentations_train_exactly_that_many_examples_and_keep_the_last_model(one_thread):
    train = copy_task(50, 0)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    torch.manual_seed(0)
    model = s2s.build_model(s2s.Seq2SeqConfig("gru", 8, 1, 0.0), len(vocab), len(vocab))
    fit = recipes.fit(model, train, vocab, vocab, recipes.Recipe.fixed(130, 20, 1e-2), seed=0)
    assert fit.steps == 7 == len(fit.losses) and fit.stopped == "presentations"
    assert fit.epochs == pytest.approx(7 / 3, abs=1e-3)
    assert fit.validation_accuracy is None and fit.seconds_to_fit is None
    assert fit.history[-1]["step"] == 7  # one row at the end, with the loss since the start
    assert recipes.Recipe.fixed(130, 20, 1e-2).to_dict()["presentations"] == 130
    assert "presentations" not in recipes.Recipe().to_dict()  # added later: left out of keys


def test_a_time_budget_that_does_not_bind_changes_nothing(one_thread):
    """What ``RunStore.carry_to_longer_budget`` relies on: a run stopped at the gate before its
    time budget ran out is, evaluation for evaluation, the run a longer budget trains."""
    train, validation = copy_task(300, 0), copy_task(100, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])

    def run(max_seconds):
        torch.manual_seed(0)
        model = s2s.build_model(s2s.Seq2SeqConfig("lstm", 32, 1, 0.0, attention=True),
                                len(vocab), len(vocab))
        recipe = recipes.Recipe(batch_size=32, learning_rate=1e-2, max_epochs=40, patience=40,
                                fit_size=100, evaluations_per_epoch=2, stop_at=(0.9, 0.85),
                                max_seconds=max_seconds)
        fit = recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0)
        history = [{k: v for k, v in row.items() if k != "seconds"} for row in fit.history]
        return fit, history, [p.detach().clone() for p in model.parameters()]

    short, short_history, short_weights = run(600.0)
    long, long_history, long_weights = run(1800.0)
    assert short.stopped == long.stopped == "fit" and short.train_seconds < 600.0
    assert short_history == long_history and short.steps == long.steps
    assert all(torch.equal(a, b) for a, b in zip(short_weights, long_weights, strict=True))


def test_loss_per_token_weighs_every_target_token_the_same():
    """With ``loss_per="token"`` a step's loss is the batch's summed token loss over one
    constant (the mean target tokens of a batch), so two batches' tokens weigh the same; with
    ``"batch"`` each batch divides by its own token count."""
    pairs = copy_task(64, seed=3)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in pairs])
    vocabularies = (vocab, vocab)
    losses = {}
    for how in ("batch", "token"):
        torch.manual_seed(0)
        model = s2s.build_model(s2s.Seq2SeqConfig("gru", 16, 1, 0.0), *map(len, vocabularies))
        log = s2s.fit(model, pairs, *vocabularies, s2s.Recipe(
            batch_size=16, presentations=16, schedule="linear", loss_per=how, bucketed=False),
            seed=0)
        losses[how] = log.losses[0]
    # one step, the same batch and initial model: the two losses differ by the ratio of the
    # batch's tokens to the mean tokens of a batch, and both are finite and positive
    assert losses["batch"] > 0 and losses["token"] > 0
    assert losses["batch"] != pytest.approx(losses["token"], rel=1e-6)
    assert s2s.Recipe(loss_per="token").to_dict()["loss_per"] == "token"
    # the default for new runs weighs tokens; recipes of committed runs, which predate the
    # setting, keep the loss per batch, and their keys leave it out
    assert s2s.Recipe().loss_per == "token" and s2s.Recipe().to_dict()["loss_per"] == "token"
    assert s2s.Recipe.from_dict({"batch_size": 32}).loss_per == "batch"
    assert "loss_per" not in s2s.Recipe.from_dict({"batch_size": 32}).to_dict()
    assert s2s.Recipe.fixed(100, 8, 1e-3).loss_per == "batch"
    with pytest.raises(ValueError, match="loss_per"):
        s2s.Recipe(loss_per="sentence")


def test_xavier_weights_and_zero_biases():
    torch.manual_seed(0)
    model = s2s.build_model(s2s.Seq2SeqConfig("transformer", 32, 1, 0.0, num_heads=4), 9, 9)
    embeddings = {n: p.clone() for n, p in model.named_parameters() if "embedding" in n}
    s2s.init_weights(model, "xavier")
    output = model.output.weight.detach()
    bound = math.sqrt(6 / sum(output.shape))
    assert float(output.abs().max()) <= bound and float(output.abs().max()) > 0.5 * bound
    assert all(float(p.detach().abs().max()) == 0 for n, p in model.named_parameters()
               if n.endswith("bias") and "norm" not in n)
    for name, before in embeddings.items():  # embeddings keep their own initialisation
        assert torch.equal(dict(model.named_parameters())[name], before)
    with pytest.raises(ValueError, match="weight_init"):
        s2s.init_weights(model, "he")


def test_source_eos_is_read_in_training_and_evaluation():
    pairs = copy_task(200, seed=4)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in pairs])
    vocabularies = (vocab, vocab)
    config = s2s.Seq2SeqConfig("gru", 32, 1, 0.0, attention=True, source_eos=True)
    assert config.to_dict()["source_eos"] is True
    assert "source_eos" not in s2s.Seq2SeqConfig("gru", 32, 1, 0.0).to_dict()
    encoded = s2s.encode_pairs(pairs[:2], *vocabularies, source_eos=True)
    assert all(int(row[length - 1]) == s2s.EOS
               for row, length in zip(encoded.source, encoded.source_lengths))
    run = s2s.train_once(config, pairs, vocabularies, s2s.Recipe(
        batch_size=16, presentations=8000, schedule="linear", bucketed=False), seed=0,
        tests={"train": pairs[:50]})
    assert run.accuracy("train") > 0.5  # it learns with the end token in every source
    with pytest.raises(ValueError, match="source_eos"):
        s2s.Seq2SeqConfig("gru", source_eos="yes")


def test_random_batches_have_no_pools():
    assert s2s.Recipe(bucketed=False).bucket_pool is None
    assert s2s.Recipe().bucket_pool == recipes.DEFAULT_POOL == 8
    assert s2s.Recipe(bucket_pool=None).to_dict().get("bucket_pool") is None  # old keys kept
    with pytest.raises(ValueError, match="bucketed=True"):
        s2s.Recipe(bucketed=False, bucket_pool=20)


def test_a_wall_budget_counts_the_evaluations_too(one_thread):
    train, validation = copy_task(400, 0), copy_task(200, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    model = s2s.build_model(s2s.Seq2SeqConfig("gru", 16, 1, 0.0), len(vocab), len(vocab))
    recipe = recipes.Recipe(batch_size=10, max_seconds=1.0, max_epochs=1000, patience=10_000,
                            evaluations_per_epoch=40, budget="wall")
    log = recipes.fit(model, train, vocab, vocab, recipe, validation=validation, seed=0)
    assert log.stopped == "max_seconds"
    # training and evaluations together reached the budget; training alone did not
    assert log.train_seconds + log.evaluation_seconds >= 1.0 > log.train_seconds
    assert recipe.to_dict()["budget"] == "wall"
    assert "budget" not in recipes.Recipe().to_dict()  # earlier runs keep their keys
    with pytest.raises(ValueError, match="budget must be one of training, wall"):
        recipes.Recipe(budget="cpu")


def test_the_presets_train_and_are_named():
    config, recipe = s2s.preset("laptop")
    assert config.cell == "gru" and config.attention and recipe.stop_at == (0.97, 0.0)
    assert recipe.max_seconds == 240 and recipe.budget == "wall"
    with pytest.raises(ValueError, match="the presets are tiny, laptop"):
        s2s.preset("huge")
    config, recipe = s2s.preset("tiny")
    train, validation = copy_task(200, 0), copy_task(50, 1)
    vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in train])
    run = s2s.train_once(config, train, (vocab, vocab), recipe, 0, validation=validation)
    assert run.log.stopped == "max_epochs" and run.log.epochs == 3
