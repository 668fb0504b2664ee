"""The architectures PCFG SET and ORCHARD need: bidirectional recurrent encoders, sinusoidal
positions, the convolutional seq2seq; configuration fields and devices."""

import copy
import math
import random

import pytest
import torch

from tutorlib import seq2seq as s2s
from tutorlib.seq2seq import EOS, PAD, SOS, Seq2SeqConfig

TOKENS = ["a", "b", "c", "d"]


def _reverse_task(n, seed, shortest=1, longest=4):
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        seq = [rng.choice(TOKENS) for _ in range(rng.randint(shortest, longest))]
        pairs.append((" ".join(seq), " ".join(reversed(seq))))
    return pairs


def _train(config, steps, learning_rate=3e-3, seed=0, device="cpu", train=None):
    torch.manual_seed(seed)
    vocab = s2s.Vocabulary(TOKENS)
    model = s2s.build_model(config, len(vocab), len(vocab))
    recipe = s2s.Recipe.fixed(32 * steps, 32, learning_rate)
    return model, s2s.fit(model, train or _reverse_task(600, 0), vocab, vocab, recipe, seed=seed,
                          device=device), vocab


# --- configuration -----------------------------------------------------------------------------

def test_new_fields_appear_in_the_dict_only_when_set_and_round_trip():
    old = Seq2SeqConfig("lstm", 200, 2, 0.5)
    assert set(old.to_dict()) == {"cell", "hidden_size", "num_layers", "dropout", "attention",
                                  "num_heads", "max_positions"}
    for config in [old, Seq2SeqConfig("lstm", 64, 2, 0.1, attention=True, bidirectional=True),
                   Seq2SeqConfig("transformer", 32, 2, 0.1, num_heads=4, positions="sinusoidal"),
                   Seq2SeqConfig("conv", 32, 3, 0.2, kernel_size=5)]:
        assert Seq2SeqConfig(**config.to_dict()) == config
    assert Seq2SeqConfig("lstm", bidirectional=True).to_dict()["bidirectional"] is True
    assert Seq2SeqConfig("conv", kernel_size=5).to_dict()["kernel_size"] == 5
    assert "kernel_size" not in Seq2SeqConfig("conv").to_dict()
    pre = Seq2SeqConfig("transformer", 32, 2, 0.1, num_heads=4, norm_first=True)
    assert pre.to_dict()["norm_first"] is True and Seq2SeqConfig(**pre.to_dict()) == pre
    assert "norm_first" not in Seq2SeqConfig("transformer", 32, 2, 0.1, num_heads=4).to_dict()


def test_bad_configurations_and_devices_are_named():
    with pytest.raises(ValueError, match="cell must be one of srn, gru, lstm, transformer, conv"):
        Seq2SeqConfig(cell="cnn")
    with pytest.raises(ValueError, match="positions must be one of learned, sinusoidal"):
        Seq2SeqConfig(cell="transformer", positions="rotary")
    with pytest.raises(ValueError, match="bidirectional is for recurrent cells"):
        Seq2SeqConfig(cell="transformer", bidirectional=True)
    with pytest.raises(ValueError, match="kernel_size must be an integer"):
        Seq2SeqConfig(cell="conv", kernel_size=0)
    with pytest.raises(ValueError, match="norm_first is for Transformers"):
        Seq2SeqConfig(cell="lstm", norm_first=True)
    with pytest.raises(ValueError, match="device must be one of"):
        s2s.build_model(Seq2SeqConfig("gru", 8, 1, 0.0), 5, 5, device="gpu")
    vocab = s2s.Vocabulary(TOKENS)
    model = s2s.build_model(Seq2SeqConfig("gru", 8, 1, 0.0), len(vocab), len(vocab))
    with pytest.raises(ValueError, match="device must be one of"):
        s2s.fit(model, [("a b", "b a")], vocab, vocab, s2s.Recipe.fixed(1, 1, 1e-3), seed=0,
                device="tpu")
    with pytest.raises(ValueError, match="device must be one of"):
        s2s.evaluate(model, [("a b", "b a")], vocab, vocab, device="cuda0")


# --- shapes and interfaces of every new architecture ---------------------------------------------

NEW = [Seq2SeqConfig("lstm", 16, 2, 0.1, attention=True, bidirectional=True),
       Seq2SeqConfig("gru", 16, 1, 0.0, attention=False, bidirectional=True),
       Seq2SeqConfig("srn", 16, 2, 0.0, attention=True, bidirectional=True),
       Seq2SeqConfig("transformer", 16, 1, 0.0, num_heads=2, positions="sinusoidal"),
       Seq2SeqConfig("transformer", 16, 2, 0.1, num_heads=2, positions="sinusoidal",
                     norm_first=True),
       Seq2SeqConfig("conv", 16, 2, 0.1),
       Seq2SeqConfig("conv", 16, 1, 0.0, kernel_size=4, positions="sinusoidal")]


@pytest.mark.parametrize("config", NEW, ids=lambda c: str(c.to_dict()))
def test_shapes_decoding_and_encoding(config):
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
    encoded = s2s.encode(model, ["a b", "c"], s2s.Vocabulary(["a", "b", "c", "d"]))
    assert encoded.shape == (2, 16) and torch.isfinite(encoded).all()


def test_conv_is_re_exported_by_seq2seq():
    from tutorlib.seq2seq import ConvSeq2Seq

    assert s2s.ConvSeq2Seq is ConvSeq2Seq
    assert isinstance(s2s.build_model(Seq2SeqConfig("conv", 8, 1, 0.0), 5, 5), ConvSeq2Seq)


# --- bidirectional recurrent encoder -----------------------------------------------------------

@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_bidirectional_encoder_states_see_the_whole_input(cell):
    """With a backward direction, the state at position 0 depends on the last token."""
    torch.manual_seed(0)
    source = torch.tensor([[3, 4, 5, 6]])
    changed = torch.tensor([[3, 4, 5, 3]])
    lengths = torch.tensor([4])
    for bidirectional, moves in [(False, False), (True, True)]:
        config = Seq2SeqConfig(cell, 12, 2, 0.0, attention=True, bidirectional=bidirectional)
        model = s2s.build_model(config, 7, 7).eval()
        outputs, state, mask = model.encode(source, lengths)
        assert outputs.shape == (1, 4, 12) and mask.all()
        h = state[0] if cell == "lstm" else state
        assert h.shape == (2, 1, 12)  # one state per decoder layer, both directions joined
        first = model.encode(changed, lengths)[0][0, 0]
        assert (not torch.allclose(first, outputs[0, 0])) == moves


def test_bidirectional_decoder_steps_equal_the_whole_sequence_rnn():
    torch.manual_seed(1)
    model = s2s.build_model(Seq2SeqConfig("lstm", 12, 2, 0.3, bidirectional=True), 6, 7).eval()
    source, s_len = s2s.pad_batch([[3, 4, 5], [5, 3]])
    target_in = torch.tensor([[SOS, 3, 4, 5, 6], [SOS, 4, 4, PAD, PAD]])
    whole = model(source, s_len, target_in, teacher_forcing=True)
    outputs, state, mask = model.encode(source, s_len)
    steps = []
    for t in range(target_in.shape[1]):
        logits, state = model._step(target_in[:, t], state, outputs, None, mask)
        steps.append(logits)
    torch.testing.assert_close(torch.stack(steps, 1), whole, rtol=1e-5, atol=1e-5)


def test_one_way_models_keep_their_parameters():
    """Existing recurrent configurations build exactly the modules they always had."""
    names = set(dict(s2s.build_model(Seq2SeqConfig("lstm", 8, 1, 0.0, True), 5, 5)
                     .named_parameters()))
    assert not any(n.startswith(("bridge", "encoder_projection")) or "reverse" in n for n in names)
    learned = s2s.build_model(Seq2SeqConfig("transformer", 8, 1, 0.0, num_heads=2), 5, 5)
    assert "positions.weight" in learned.state_dict()
    sinusoidal = s2s.build_model(Seq2SeqConfig("transformer", 8, 1, 0.0, num_heads=2,
                                               positions="sinusoidal"), 5, 5)
    assert not any("positions" in name for name in sinusoidal.state_dict())


@pytest.mark.slow
def test_bidirectional_lstm_with_attention_learns_to_reverse():
    config = Seq2SeqConfig("lstm", 32, 1, 0.0, attention=True, bidirectional=True)
    model, log, vocab = _train(config, 200)
    assert log.losses[-1] < log.losses[0] / 10
    assert s2s.evaluate(model, _reverse_task(200, 1), vocab, vocab).accuracy > 0.9


# --- positions ----------------------------------------------------------------------------------

def test_sinusoidal_positions_known_values():
    table = s2s.sinusoidal_positions(50, 6)
    assert table.shape == (50, 6)
    assert table[0].tolist() == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    assert table[7, 0].item() == pytest.approx(math.sin(7))
    assert table[7, 1].item() == pytest.approx(math.cos(7))
    assert table[7, 2].item() == pytest.approx(math.sin(7 / 10_000 ** (2 / 6)))
    assert s2s.sinusoidal_positions(4, 5).shape == (4, 5)  # odd widths too


@pytest.mark.parametrize("cell", ["transformer", "conv"])
def test_sinusoidal_models_decode_inputs_longer_than_any_in_training(cell):
    """Train on inputs of 1-4 tokens (positions 0-5), decode inputs of 30 tokens."""
    long = _reverse_task(5, 2, shortest=30, longest=30)
    for positions in ("learned", "sinusoidal"):
        config = Seq2SeqConfig(cell, 16, 1, 0.0, num_heads=2, max_positions=8,
                               positions=positions)
        model, log, vocab = _train(config, 20)
        if positions == "learned":
            with pytest.raises(ValueError, match="exceeds max_positions=8.*sinusoidal"):
                s2s.evaluate(model, long, vocab, vocab)
        else:
            # oracle lengths make the decoder, too, run to 30 tokens, past max_positions
            result = s2s.evaluate(model, long, vocab, vocab, oracle_length=True)
            assert [len(p.split()) for p in result.predictions] == [30] * 5
            assert set(" ".join(result.predictions).split()) <= set(TOKENS)


def test_relative_positions_are_for_transformers_only():
    with pytest.raises(ValueError, match="relative positions are for Transformers"):
        Seq2SeqConfig("conv", 16, 1, 0.0, positions="relative")
    config = Seq2SeqConfig("transformer", 16, 1, 0.0, num_heads=2, positions="relative")
    assert Seq2SeqConfig(**config.to_dict()) == config
    assert "Transformer" in config.describe()


def test_relative_bias_by_hand():
    """Bias of head h for distance key - query, clipped, and -inf where blocked."""
    from tutorlib.seq2seq.transformer import RELATIVE_DISTANCE, relative_bias

    table = torch.nn.Embedding(2 * RELATIVE_DISTANCE + 1, 2)
    with torch.no_grad():
        table.weight.copy_(torch.arange(2 * (2 * RELATIVE_DISTANCE + 1), dtype=torch.float32)
                           .reshape(-1, 2))
    blocked = torch.tensor([[[False, False, True]]])  # one sequence whose third key is padding
    bias = relative_bias(table, 3, 3, blocked)
    assert bias.shape == (2, 3, 3)  # batch * heads
    for head in range(2):
        for query in range(3):
            for key in range(2):
                row = key - query + RELATIVE_DISTANCE
                assert bias[head, query, key].item() == table.weight[row, head].item()
            assert bias[head, query, 2].item() == float("-inf")
    far = relative_bias(table, 1, 40, torch.zeros(1, 1, 40, dtype=torch.bool))
    assert far[0, 0, 39].item() == far[0, 0, RELATIVE_DISTANCE].item()  # clipped


def test_relative_transformer_is_causal_and_ignores_padding():
    torch.manual_seed(0)
    config = Seq2SeqConfig("transformer", 16, 2, 0.0, num_heads=2, positions="relative")
    model = s2s.build_model(config, 7, 9).eval()
    with torch.no_grad():  # non-zero biases, so that the test sees them
        model.source_distances.weight.normal_()
        model.target_distances.weight.normal_()
    alone = model.encode(*s2s.pad_batch([[3, 4]]))[0]
    padded = model.encode(*s2s.pad_batch([[3, 4], [5, 6, 5, 6, 5]]))[0]
    torch.testing.assert_close(padded[0, :2], alone[0])
    source, s_len = s2s.pad_batch([[3, 4, 5], [6, 5]])
    target_in = torch.tensor([[SOS, 3, 4, 5, 6, 7], [SOS, 6, 7, 8, 3, 4]])
    logits = model(source, s_len, target_in)
    for t in range(target_in.shape[1] - 1):
        changed = target_in.clone()
        changed[:, t + 1:] = torch.tensor([8, 3])[:, None]
        changed_logits = model(source, s_len, changed)
        torch.testing.assert_close(changed_logits[:, : t + 1], logits[:, : t + 1])
        assert not torch.allclose(changed_logits[:, t + 1], logits[:, t + 1])


def test_relative_transformer_evaluates_as_it_trains():
    """In evaluation without gradients PyTorch's fused encoder path would take the per-head
    masks (and gave NaN): the outputs must equal training mode's (no dropout)."""
    torch.manual_seed(0)
    config = Seq2SeqConfig("transformer", 16, 2, 0.0, num_heads=2, positions="relative")
    model = s2s.build_model(config, 7, 9)
    source, s_len = s2s.pad_batch([[3, 4, 5], [6, 5]])
    target_in = torch.tensor([[SOS, 3, 4, 5], [SOS, 6, 7, 8]])
    training = model(source, s_len, target_in)
    with torch.no_grad():
        evaluated = model.eval()(source, s_len, target_in)
    torch.testing.assert_close(evaluated, training.detach())


def _copy_task(n, seed, shortest=1, longest=4):
    return [(source, source) for source, _ in _reverse_task(n, seed, shortest, longest)]


@pytest.mark.slow
def test_relative_transformer_learns_to_copy_and_decodes_any_length():
    """Copying needs positions (the cross-attention has none): 200 steps learn it more often
    than not, as sinusoidal positions do (0.47 with one layer)."""
    config = Seq2SeqConfig("transformer", 32, 1, 0.0, num_heads=2, positions="relative")
    model, log, vocab = _train(config, 200, train=_copy_task(600, 0))
    assert log.losses[-1] < log.losses[0] / 2
    assert s2s.evaluate(model, _copy_task(200, 1), vocab, vocab).accuracy > 0.5
    long = _copy_task(3, 2, shortest=200, longest=200)  # past any max_positions
    result = s2s.evaluate(model, long, vocab, vocab, oracle_length=True)
    assert [len(p.split()) for p in result.predictions] == [200] * 3


# --- the convolutional seq2seq ------------------------------------------------------------------

def test_conv_decoder_is_causal():
    """The output at position t is unaffected by target tokens after t, and affected by t."""
    torch.manual_seed(0)
    model = s2s.build_model(Seq2SeqConfig("conv", 16, 3, 0.0, kernel_size=3), 7, 9).eval()
    source, s_len = s2s.pad_batch([[3, 4, 5], [6, 5]])
    target_in = torch.tensor([[SOS, 3, 4, 5, 6, 7], [SOS, 6, 7, 8, 3, 4]])
    logits = model(source, s_len, target_in)
    for t in range(target_in.shape[1] - 1):
        changed = target_in.clone()
        changed[:, t + 1:] = torch.tensor([8, 3])[:, None]
        changed_logits = model(source, s_len, changed)
        torch.testing.assert_close(changed_logits[:, : t + 1], logits[:, : t + 1])
        assert not torch.allclose(changed_logits[:, t + 1], logits[:, t + 1])


def test_conv_encoder_ignores_padding():
    """A source gets the same encoding alone and padded beside a longer one."""
    torch.manual_seed(0)
    model = s2s.build_model(Seq2SeqConfig("conv", 16, 3, 0.0, kernel_size=5), 7, 9).eval()
    alone = model.encode(*s2s.pad_batch([[3, 4]]))
    padded = model.encode(*s2s.pad_batch([[3, 4], [5, 6, 5, 6, 5]]))
    torch.testing.assert_close(padded[0][0, :2], alone[0][0])
    torch.testing.assert_close(padded[1][0, :2], alone[1][0])
    assert padded[0][0, 2:].abs().max() == 0


@pytest.mark.slow
def test_conv_learns_to_reverse_sequences():
    model, log, vocab = _train(Seq2SeqConfig("conv", 32, 2, 0.0), 200)
    assert log.losses[-1] < log.losses[0] / 10
    result = s2s.evaluate(model, _reverse_task(200, 1), vocab, vocab)
    assert result.accuracy > 0.9, result.accuracy


# --- devices ------------------------------------------------------------------------------------

def test_encoded_pairs_move_once():
    vocab = s2s.Vocabulary(TOKENS)
    data = s2s.encode_pairs([("a b", "b a"), ("c", "c")], vocab, vocab)
    assert data.to("cpu") is data and data.device == torch.device("cpu")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("config", [
    Seq2SeqConfig("lstm", 32, 2, 0.0, attention=True),
    Seq2SeqConfig("lstm", 32, 1, 0.0, attention=True, bidirectional=True),
    Seq2SeqConfig("transformer", 32, 1, 0.0, num_heads=2),
    Seq2SeqConfig("transformer", 32, 1, 0.0, num_heads=2, positions="sinusoidal"),
    Seq2SeqConfig("conv", 32, 2, 0.0)], ids=lambda c: str(c.to_dict()))
def test_training_evaluation_and_encoding_on_cuda(config):
    """A CPU-trained model decodes the same on the GPU (up to TF32 rounding on a few
    uncertain examples), and training on the GPU keeps everything there and learns."""
    test = _reverse_task(100, 1)
    cpu_model, _, vocab = _train(config, 200)
    on_cpu = s2s.evaluate(cpu_model, test, vocab, vocab, oracle_length=True)
    cpu_encoded = s2s.encode(cpu_model, ["a b", "c d a"], vocab)
    gpu_model = copy.deepcopy(cpu_model)
    on_gpu = s2s.evaluate(gpu_model, test, vocab, vocab, oracle_length=True, device="cuda")
    same = sum(a == b for a, b in zip(on_cpu.predictions, on_gpu.predictions, strict=True))
    assert same >= 95, (same, on_cpu.accuracy, on_gpu.accuracy)
    gpu_encoded = s2s.encode(gpu_model, ["a b", "c d a"], vocab, device="cuda")
    assert gpu_encoded.device.type == "cuda"
    torch.testing.assert_close(gpu_encoded.cpu(), cpu_encoded, rtol=1e-2, atol=1e-2)

    model, log, vocab = _train(config, 200, device="cuda")
    assert all(p.device.type == "cuda" for p in model.parameters())
    assert log.losses[-1] < log.losses[0] / 2
    assert s2s.evaluate(model, test, vocab, vocab, device="cuda").correct.shape == (100,)


def test_fairseq_embedding_initialisation_puts_embeddings_on_the_positions_scale():
    config = Seq2SeqConfig("transformer", 64, 1, 0.0, positions="sinusoidal")
    torch.manual_seed(0)
    plain = s2s.init_embeddings(s2s.build_model(config, 300, 300), "pytorch")
    torch.manual_seed(0)
    small = s2s.init_embeddings(s2s.build_model(config, 300, 300), "fairseq")
    for name in ("source_embedding", "target_embedding"):
        # built, the embeddings are already on the positions' scale; "fairseq" redraws them so
        assert getattr(plain, name).weight[1:].std().item() == pytest.approx(64 ** -0.5,
                                                                             rel=0.05)
        weight = getattr(small, name).weight
        assert weight[1:].std().item() == pytest.approx(64 ** -0.5, rel=0.05)
        assert weight[PAD].abs().sum().item() == 0  # padding stays zero
    # the scaled embeddings are now of the sinusoids' size, not sqrt(64) = 8 times larger
    assert (small.source_embedding.weight[1:] * 8).std().item() == pytest.approx(1.0, rel=0.05)
    with pytest.raises(ValueError, match="for Transformers"):
        s2s.init_embeddings(s2s.build_model(Seq2SeqConfig("lstm", 8, 1, 0.0), 5, 5), "fairseq")
    with pytest.raises(ValueError, match="embedding_init must be one of pytorch, fairseq"):
        s2s.init_embeddings(plain, "xavier")
    # a Transformer with relative positions adds none: it keeps PyTorch's draw
    relative = s2s.build_model(Seq2SeqConfig("transformer", 64, 1, 0.0, positions="relative"),
                               300, 300)
    assert relative.source_embedding.weight[1:].std().item() == pytest.approx(1.0, rel=0.05)
    # the scaling draws nothing: the layers after the embeddings are drawn as before
    torch.manual_seed(0)
    torch.nn.Embedding(300, 64, padding_idx=PAD)
    unscaled = torch.nn.Embedding(300, 64, padding_idx=PAD)
    torch.manual_seed(0)
    built = s2s.build_model(config, 300, 300)
    torch.testing.assert_close(built.target_embedding.weight * 8, unscaled.weight)
    lstm = s2s.build_model(Seq2SeqConfig("lstm", 8, 1, 0.0), 5, 5)
    assert s2s.init_embeddings(lstm, "pytorch") is lstm


def test_pre_layer_norm_transformers_normalise_before_each_sublayer():
    post = s2s.build_model(Seq2SeqConfig("transformer", 16, 2, 0.0, num_heads=2), 7, 7)
    pre = s2s.build_model(Seq2SeqConfig("transformer", 16, 2, 0.0, num_heads=2,
                                        norm_first=True), 7, 7)
    for model, first in ((post, False), (pre, True)):
        layers = [*model.transformer.encoder.layers, *model.transformer.decoder.layers]
        assert len(layers) == 4 and all(layer.norm_first is first for layer in layers)
    # the same parameters, only their order of use differs
    assert ([p.shape for p in post.parameters()] == [p.shape for p in pre.parameters()])


# --- incremental greedy decoding ----------------------------------------------------------------

INCREMENTAL = [
    Seq2SeqConfig("transformer", 16, 2, 0.1, num_heads=2, positions="learned"),
    Seq2SeqConfig("transformer", 16, 2, 0.1, num_heads=2, positions="sinusoidal",
                  norm_first=True),
    Seq2SeqConfig("transformer", 16, 2, 0.1, num_heads=2, positions="relative"),
    Seq2SeqConfig("transformer", 16, 2, 0.1, num_heads=2, positions="relative", norm_first=True),
    Seq2SeqConfig("conv", 16, 3, 0.1, kernel_size=3),
    Seq2SeqConfig("conv", 16, 2, 0.1, kernel_size=4, positions="sinusoidal"),
]


@pytest.mark.parametrize("config", INCREMENTAL, ids=lambda c: f"{c.cell}-{c.positions}"
                         f"-{'pre' if c.norm_first else 'post'}-{c.kernel_size}")
def test_decoding_one_position_a_step_equals_the_whole_prefix(config):
    """Incremental decoding (each step runs the decoder for the newest position on what the
    earlier steps kept) gives the teacher-forced logits at every position, past the relative
    positions' clipping distance too; and greedy outputs are their argmax along the way."""
    torch.manual_seed(0)
    model = s2s.build_model(config, 7, 9).eval()
    if config.positions == "relative":
        with torch.no_grad():  # non-zero biases, so that the test sees them
            model.source_distances.weight.normal_()
            model.target_distances.weight.normal_()
    source, s_len = s2s.pad_batch([[3, 4, 5, 6], [6, 5]])
    generator = torch.Generator().manual_seed(1)
    target_in = torch.cat([torch.full((2, 1), SOS),
                           torch.randint(3, 9, (2, 24), generator=generator)], dim=1)
    with torch.no_grad():
        whole = model(source, s_len, target_in)
        encoded = model.encode(source, s_len)
        if config.cell == "conv":
            kept = [encoded[0].new_zeros(2, config.kernel_size - 1, 16)] * config.num_layers
        else:
            kept = [None] * config.num_layers
        steps = torch.stack([model._decode_newest(*encoded, target_in[:, t], t, kept)
                             for t in range(target_in.shape[1])], dim=1)
    torch.testing.assert_close(steps, whole, atol=1e-5, rtol=1e-4)
    outputs = model.greedy(source, s_len, max_length=30)
    forced_in = torch.cat([torch.full((2, 1), SOS), outputs[:, :-1].clamp(min=3)], dim=1)
    with torch.no_grad():
        logits = model(source, s_len, forced_in)
    logits[..., [PAD, SOS]] = float("-inf")
    for row in range(2):
        produced = outputs[row][outputs[row] != PAD]
        assert torch.equal(produced, logits[row, : len(produced)].argmax(-1))
