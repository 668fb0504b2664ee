import dataclasses
import random

import pytest
import torch

from tutorlib import card
from tutorlib import seq2seq as s2s
from tutorlib.seq2seq import EOS, PAD, SOS, Seq2SeqConfig
from tutorlib.train import seed_everything


def test_vocabulary_round_trip_and_unknown_tokens():
    vocab = s2s.Vocabulary.from_sequences([["b", "a"], ["c"]])
    assert vocab.itos[:3] == ["<pad>", "<sos>", "<eos>"] and len(vocab) == 6
    assert vocab.decode(vocab.encode(["a", "c", "b"]) + [EOS, 3]) == ["a", "c", "b"]
    with pytest.raises(ValueError, match="token 'z' is not in the vocabulary"):
        vocab.encode(["a", "z"])


def test_pad_batch():
    batch, lengths = s2s.pad_batch([[3, 4], [5]], add_eos=True)
    assert batch.tolist() == [[3, 4, EOS], [5, EOS, PAD]]
    assert lengths.tolist() == [3, 2]
    with pytest.raises(ValueError, match="empty batch"):
        s2s.pad_batch([])


@pytest.mark.parametrize("config", [
    Seq2SeqConfig("srn", 16, 1, 0.0, False), Seq2SeqConfig("gru", 16, 2, 0.1, True),
    Seq2SeqConfig("lstm", 16, 2, 0.5, False), Seq2SeqConfig("lstm", 16, 1, 0.0, True),
    Seq2SeqConfig("transformer", 16, 1, 0.0, num_heads=2),
])
def test_shapes_and_decoding(config):
    torch.manual_seed(0)
    model = s2s.build_model(config, 7, 9)
    source, s_len = s2s.pad_batch([[3, 4, 5], [6]])
    target_in = torch.tensor([[SOS, 3, 4, 5], [SOS, 6, PAD, PAD]])
    assert model(source, s_len, target_in).shape == (2, 4, 9)
    assert model(source, s_len, target_in, teacher_forcing=False).shape == (2, 4, 9)
    model.eval()
    decoded = model.greedy(source, s_len, max_length=6)
    assert decoded.shape[0] == 2 and decoded.shape[1] <= 6
    oracle = model.greedy(source, s_len, max_length=8, oracle_lengths=torch.tensor([2, 5]))
    for row, length in zip(oracle.tolist(), [2, 5], strict=True):
        assert EOS not in row[:length] and row[length] == EOS
    assert s2s.encode(model, ["a b", "c"], s2s.Vocabulary(["a", "b", "c", "d"])).shape == (2, 16)


@pytest.mark.parametrize("cell", ["srn", "gru", "lstm"])
def test_step_by_step_decoder_equals_the_whole_sequence_rnn(cell):
    """The per-step cells use the decoder RNN's weights: both paths must agree."""
    torch.manual_seed(1)
    model = s2s.build_model(Seq2SeqConfig(cell, 12, 2, 0.3, False), 6, 7).eval()
    source, s_len = s2s.pad_batch([[3, 4, 5], [5, 3]])
    target_in = torch.tensor([[SOS, 3, 4, 5, 6], [SOS, 4, 4, PAD, PAD]])
    whole = model(source, s_len, target_in, teacher_forcing=True)
    outputs, state, mask = model.encode(source, s_len)
    steps = []
    for t in range(target_in.shape[1]):
        logits, state = model._step(target_in[:, t], state, outputs, None, mask)
        steps.append(logits)
    torch.testing.assert_close(torch.stack(steps, 1), whole, rtol=1e-5, atol=1e-5)


def test_config_validation_names_the_setting():
    with pytest.raises(ValueError, match="cell must be one of"):
        Seq2SeqConfig(cell="rnn")
    with pytest.raises(ValueError, match="hidden_size"):
        Seq2SeqConfig(hidden_size=0)
    with pytest.raises(ValueError, match="dropout"):
        Seq2SeqConfig(dropout=1.0)
    with pytest.raises(ValueError, match="divisible by num_heads"):
        Seq2SeqConfig(cell="transformer", hidden_size=10, num_heads=4)
    with pytest.raises(ValueError, match="batch_size"):
        s2s.Recipe(batch_size=0)
    with pytest.raises(ValueError, match="final_lr_fraction"):
        s2s.Recipe(schedule="linear", final_lr_fraction=0.0)
    with pytest.raises(ValueError, match="final_lr_fraction is for schedule 'linear'"):
        s2s.Recipe(final_lr_fraction=0.5)
    with pytest.raises(ValueError, match="presentations decays linearly"):
        s2s.Recipe(presentations=100)


def test_learning_rate_schedule():
    constant = s2s.Recipe.fixed(100, 8, 1e-3)
    assert [constant.learning_rate_at(step, 11) for step in (0, 5, 10)] == [1e-3] * 3
    decayed = s2s.Recipe.fixed(100, 8, 3e-3, 0.1)
    rates = [decayed.learning_rate_at(step, 11) for step in range(11)]
    assert rates[0] == pytest.approx(3e-3) and rates[-1] == pytest.approx(3e-4)
    assert rates[5] == pytest.approx(1.65e-3)
    warm = s2s.Recipe(warmup_steps=4, schedule="inverse_sqrt", learning_rate=1.0)
    assert [warm.learning_rate_at(step, 100) for step in (0, 3, 15)] == [0.25, 1.0, 0.5]


@pytest.mark.parametrize("recipe", [s2s.Recipe(batch_size=10), s2s.Recipe(batch_size=10,
                                    bucketed=False), s2s.Recipe.fixed(100, 10, 1e-3)])
def test_epoch_batches_cover_every_example_once(recipe):
    import numpy as np

    targets = np.array([i % 7 + 1 for i in range(103)])
    sources = np.array([i % 5 + 1 for i in range(103)])
    batches = s2s.epoch_batches(recipe, targets, sources, rng=np.random.default_rng(0))
    assert sorted(np.concatenate(batches).tolist()) == list(range(103))
    assert [len(b) for b in batches].count(10) == 10
    again = s2s.epoch_batches(recipe, targets, sources, rng=np.random.default_rng(0))
    assert [b.tolist() for b in again] == [b.tolist() for b in batches]
    if recipe.bucketed:  # sorted by length: fewer padded positions than at random
        shuffled = s2s.epoch_batches(s2s.Recipe(batch_size=10, bucketed=False), targets, sources,
                                     rng=np.random.default_rng(0))
        assert s2s.padded_share(batches, sources, targets) < s2s.padded_share(
            shuffled, sources, targets)


def _reverse_task(n, seed):
    rng = random.Random(seed)
    symbols = ["a", "b", "c", "d"]
    pairs = []
    for _ in range(n):
        seq = [rng.choice(symbols) for _ in range(rng.randint(1, 4))]
        pairs.append((" ".join(seq), " ".join(reversed(seq))))
    return pairs


@pytest.mark.parametrize("config", [Seq2SeqConfig("gru", 48, 1, 0.0, True),
                                    Seq2SeqConfig("lstm", 64, 1, 0.0, False)])
@pytest.mark.slow
def test_a_small_model_learns_to_reverse_sequences(config):
    torch.manual_seed(0)
    train, test = _reverse_task(600, 0), _reverse_task(200, 1)
    vocab = s2s.Vocabulary(["a", "b", "c", "d"])
    model = s2s.build_model(config, len(vocab), len(vocab))
    log = s2s.fit(model, train, vocab, vocab, s2s.Recipe.fixed(32 * 500, 32, 1e-3), seed=0)
    result = s2s.evaluate(model, test, vocab, vocab)
    assert log.losses[-1] < log.losses[0] / 5
    assert result.accuracy > 0.9, result.accuracy
    assert result.correct.shape == (200,) and result.predictions[0].split()


def test_oracle_length_evaluation_never_has_the_wrong_length():
    torch.manual_seed(0)
    vocab = s2s.Vocabulary(["a", "b"])
    model = s2s.build_model(Seq2SeqConfig("gru", 8, 1, 0.0), len(vocab), len(vocab))
    pairs = [("a b", "a a a"), ("b", "b a b b a")]
    result = s2s.evaluate(model, pairs, vocab, vocab, oracle_length=True)
    assert [len(p.split()) for p in result.predictions] == [3, 5]


def test_exact_match_scores_predictions_token_for_token():
    pairs = [("jump", "I_JUMP"), ("jump twice", "I_JUMP I_JUMP"), ("walk", "I_WALK")]
    assert s2s.exact_match(["I_JUMP", "I_JUMP  I_JUMP ", "I_RUN"], pairs) == pytest.approx(2 / 3)
    assert s2s.exact_match(["I_JUMP", "I_JUMP", "I_WALK"], pairs) == pytest.approx(2 / 3)
    assert s2s.exact_match([t for _, t in pairs], pairs) == 1.0
    with pytest.raises(ValueError, match="one prediction per pair.*got 2 and 3"):
        s2s.exact_match(["I_JUMP", "I_JUMP I_JUMP"], pairs)
    with pytest.raises(ValueError, match="at least one pair"):
        s2s.exact_match([], [])
    assert card.exact_match is s2s.exact_match  # the report card scores with this one


@pytest.mark.parametrize("attention", [False, True])
def test_teacher_forcing_per_example_mixes_the_two_decoders(attention):
    torch.manual_seed(0)
    config = Seq2SeqConfig("lstm", 16, 2, 0.0, attention=attention)
    model = s2s.build_model(config, 9, 7).eval()
    source = torch.randint(3, 9, (4, 5))
    lengths = torch.tensor([5, 4, 3, 5])
    target_in = torch.cat([torch.full((4, 1), SOS), torch.randint(3, 7, (4, 5))], 1)
    forced = model(source, lengths, target_in, teacher_forcing=True)
    free = model(source, lengths, target_in, teacher_forcing=False)
    mask = torch.tensor([True, False, False, True])
    mixed = model(source, lengths, target_in, teacher_forcing=mask)
    assert torch.allclose(mixed[mask], forced[mask], atol=1e-6)
    assert torch.allclose(mixed[~mask], free[~mask], atol=1e-6)
    assert torch.equal(model(source, lengths, target_in, teacher_forcing=torch.ones(4, dtype=bool)),
                       forced)


def test_training_with_a_coin_per_example():
    pairs = [("a b", "b a"), ("b c", "c b"), ("c a", "a c")] * 4
    source_vocab = s2s.Vocabulary.from_sequences([s.split() for s, _ in pairs])
    target_vocab = s2s.Vocabulary.from_sequences([t.split() for _, t in pairs])
    logs = []
    for per, pool in (("batch", True), ("example", True), ("example", True), ("example", False)):
        torch.manual_seed(0)
        model = s2s.build_model(Seq2SeqConfig("gru", 8, 1, 0.0), len(source_vocab),
                                len(target_vocab))
        recipe = s2s.Recipe.fixed(48, 4, 1e-3, teacher_forcing_per=per)
        if not pool:
            recipe = dataclasses.replace(recipe, bucket_pool=None)
        logs.append(s2s.fit(model, pairs, source_vocab, target_vocab, recipe, seed=0).losses)
    assert logs[1] == logs[2] and logs[0] != logs[1]  # seeded, and a different training
    assert logs[3] != logs[1]
    with pytest.raises(ValueError, match="teacher_forcing_per must be one of batch, example"):
        s2s.Recipe(teacher_forcing_per="token")


def test_token_ids_are_checked_where_they_enter():
    import numpy as np

    vocab = s2s.Vocabulary(["walk", "jump"])
    assert vocab.decode([torch.tensor(3), np.int64(4)]) == ["jump", "walk"]
    for bad, match in [([-1], "non-negative"), ([True], "non-negative"), ([1.5], "non-negative"),
                       ([99], "outside the vocabulary")]:
        with pytest.raises(ValueError, match=match):
            vocab.decode(bad)
    with pytest.raises(ValueError, match="non-negative integers, got 3.7|sequences=.* violates type hint"):
        s2s.pad_batch([[3.7, 4]])
    batch, lengths = s2s.pad_batch([torch.tensor([3, 4]), [5]])
    assert batch.tolist() == [[3, 4], [5, 0]] and lengths.tolist() == [2, 1]


def test_recipes_refuse_infinite_or_missing_numbers():
    with pytest.raises(ValueError, match="learning_rate"):
        s2s.Recipe(learning_rate=float("inf"))
    with pytest.raises(ValueError, match="clip_norm"):
        s2s.Recipe(clip_norm=float("nan"))
    with pytest.raises(ValueError, match="unknown recipe field.*presentation;"):
        s2s.Recipe.from_dict({"presentation": 100})


@pytest.mark.parametrize("embedding_init,config", [
    ("pytorch", Seq2SeqConfig("gru", 16, 1, 0.1, attention=True)),
    ("fairseq", Seq2SeqConfig("transformer", 16, 1, 0.1, num_heads=2)),
])
def test_train_once_is_the_pipeline_written_out(embedding_init, config):
    train, test = _reverse_task(40, 0), _reverse_task(10, 1)
    vocabs = (s2s.Vocabulary.from_sequences([s.split() for s, _ in train + test]),
              s2s.Vocabulary.from_sequences([t.split() for _, t in train + test]))
    recipe = s2s.Recipe.fixed(96, 8, 1e-3, warmup_steps=2, embedding_init=embedding_init)
    with s2s.pinned_threads(1):
        trained = s2s.train_once(config, train, vocabs, recipe, 3, tests={"test": test},
                                 loss_window=5)
        # the same steps written out
        seed_everything(3)
        model = s2s.init_embeddings(s2s.build_model(config, *map(len, vocabs)), embedding_init)
        log = s2s.fit(model, train, *vocabs, recipe, seed=3)
        by_hand = s2s.evaluate(model, test, *vocabs)
    assert trained.log.losses == log.losses and len(log.losses) == 12 == log.steps
    assert trained.log.stopped == "presentations"
    assert trained.final_loss == pytest.approx(sum(log.losses[-5:]) / 5)
    assert trained.evaluations["test"].predictions == by_hand.predictions
    assert trained.accuracy("test") == by_hand.accuracy
    assert trained.parameters == sum(p.numel() for p in model.parameters())
    state = trained.state_dict()
    assert all(v.device.type == "cpu" for v in state.values())
    assert all(torch.equal(state[k], v) for k, v in model.state_dict().items())
    with pytest.raises(KeyError, match="no test set 'valid'; this run has test"):
        trained.accuracy("valid")


def test_train_once_with_the_convergence_recipe_and_its_bad_calls():
    train, validation = _reverse_task(40, 0), _reverse_task(10, 1)
    vocabs = (s2s.Vocabulary.from_sequences([s.split() for s, _ in train + validation]),
              s2s.Vocabulary.from_sequences([t.split() for _, t in train + validation]))
    config = Seq2SeqConfig("lstm", 16, 1, 0.0, attention=True)
    recipe = s2s.Recipe(batch_size=8, max_epochs=2, patience=1, fit_size=10)
    trained = s2s.train_once(config, train, vocabs, recipe, 0, validation=validation,
                             tests={"validation": validation}, loss_window=3)
    assert trained.log.epochs <= 2 and trained.seconds == trained.log.train_seconds
    assert trained.final_loss == pytest.approx(sum(trained.log.losses[-3:]) / 3)
    assert trained.accuracy("validation") == trained.log.validation_accuracy
    assert trained.log.stopped in ("patience", "max_epochs")
    with pytest.raises(ValueError, match="needs validation pairs"):
        s2s.train_once(config, train, vocabs, recipe, 0)
    with pytest.raises(TypeError, match="recipe=.* violates type hint"):
        s2s.train_once(config, train, vocabs, {"presentations": 8}, 0)
    with pytest.raises(ValueError, match="loss_window"):
        s2s.train_once(config, train, vocabs, s2s.Recipe.fixed(8, 8, 1e-3), 0, loss_window=0)


def test_pinned_threads_restores_the_count():
    before = torch.get_num_threads()
    with s2s.pinned_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with pytest.raises(ValueError, match="threads"):
        with s2s.pinned_threads(0):
            pass


def test_a_dataloader_over_pairs_gives_what_encode_pairs_gives():
    from torch.utils.data import DataLoader

    from tutorlib import scan
    from tutorlib.seq2seq import PairDataset, collate_pairs, encode_pairs

    train, _ = scan.split("addprim_jump")
    data = PairDataset(train[:50])
    assert len(data) == 50
    (batch,) = list(DataLoader(data, batch_size=50, collate_fn=collate_pairs))
    whole = encode_pairs(train[:50], data.source_vocab, data.target_vocab)
    for name in ("source", "source_lengths", "target", "target_lengths"):
        assert torch.equal(getattr(batch, name), getattr(whole, name))
    for bad in ([], [("jump", "")], ["jump I_JUMP"]):
        with pytest.raises(ValueError):
            PairDataset(bad)
    with pytest.raises(ValueError, match="empty batch"):
        collate_pairs([])
