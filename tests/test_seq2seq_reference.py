"""Refactoring guard: CPU training and decoding stay as they were before devices were added.

``REFERENCE`` was produced by the code of commit 7131532 (before ``device``, bidirectional
encoders, sinusoidal positions and ConvS2S were added) with torch 2.13.0+cpu on x86-64: every
step's loss, the greedy predictions, a hash of the oracle-length predictions and a few encoder
values. Losses and encoder values are compared to 1e-4 (relative), predictions exactly. The
comparison is not bit for bit: CPUs of the same capability round differently in torch's kernels
(the reference was recorded on one AVX2 machine; another AVX2 machine, an AMD EPYC, and the
AVX-512 machines differ from it in the last bits of some losses), so exactness would test the
CPU, not the code.
"""

import hashlib
import random

import pytest
import torch

from tutorlib import seq2seq as s2s
from tutorlib.seq2seq import Seq2SeqConfig

CONFIGS = {
    "lstm_2x16_d05": Seq2SeqConfig("lstm", 16, 2, 0.5),
    "lstm_2x16_attention": Seq2SeqConfig("lstm", 16, 2, 0.1, attention=True),
    "gru_1x16_attention": Seq2SeqConfig("gru", 16, 1, 0.5, attention=True),
    "srn_2x16": Seq2SeqConfig("srn", 16, 2, 0.2),
    "transformer_1x16": Seq2SeqConfig("transformer", 16, 1, 0.1, num_heads=2),
}

REFERENCE = {'lstm_2x16_d05': {'losses': [2.0601727962493896, 2.04400897026062, 1.9726499319076538,
                              2.0297303199768066, 1.9956926107406616, 1.944962501525879,
                              1.9511816501617432, 1.9043203592300415, 1.882920503616333,
                              1.866495966911316, 1.8117589950561523, 1.7878501415252686,
                              1.768082618713379, 1.7369245290756226, 1.821190357208252,
                              1.6874141693115234, 1.6676011085510254, 1.61163330078125,
                              1.6111947298049927, 1.579068660736084],
                   'predictions': ['a', 'a a', 'a a a', 'a', 'a a a', 'a a a a', '', 'a', 'a a a',
                                   'a a', 'a a a', 'a a a', 'a a', 'a a a', 'a a', 'a a', 'a a',
                                   'a a a', 'a', 'a a', 'a a', 'a', 'a a', 'a a', 'a', 'a a',
                                   'a a', 'a a a', '', 'a a'],
                   'oracle': '90fe23b7fa1fe2f0',
                   'hidden': [6.761759873246774, -0.6635563969612122, 0.8430489897727966]},
 'lstm_2x16_attention': {'losses': [2.059622049331665, 2.0410821437835693, 1.970064640045166,
                                    1.993407964706421, 1.980879545211792, 1.9079281091690063,
                                    1.897707223892212, 1.8909425735473633, 1.826010823249817,
                                    1.7978565692901611, 1.7534433603286743, 1.723451852798462,
                                    1.6734257936477661, 1.632108211517334, 1.8290761709213257,
                                    1.609593391418457, 1.57265305519104, 1.4850000143051147,
                                    1.4849944114685059, 1.5042222738265991],
                         'predictions': ['a', 'a a', 'a a', 'd', 'a a', 'a a a a', 'e', 'd',
                                         'd b a', 'a a', 'a a a', 'a a a a', 'a a', 'd d d', 'd d',
                                         'a a', 'a a', 'c a', 'c', 'e d', 'b a a', 'd', 'c a',
                                         'a a', 'e b', 'a', 'a a', 'c c', 'e', 'd d d'],
                         'oracle': 'ec6e754b68f853bc',
                         'hidden': [3.806039408314973, -0.39375096559524536, 0.8667451739311218]},
 'gru_1x16_attention': {'losses': [2.1342334747314453, 2.0917563438415527, 2.051548480987549,
                                   1.9573203325271606, 1.928167462348938, 1.837741732597351,
                                   1.8587820529937744, 1.8288291692733765, 1.7490657567977905,
                                   1.7250986099243164, 1.6676454544067383, 1.6729656457901,
                                   1.5741684436798096, 1.5396772623062134, 1.7778569459915161,
                                   1.5917003154754639, 1.5491503477096558, 1.3743959665298462,
                                   1.3857433795928955, 1.3400940895080566],
                        'predictions': ['e e', 'd d d', 'd d', 'd d d d d', '', 'a',
                                        'e e e e e e e e e e e e e e e e e', 'd d d d d', 'd d d',
                                        'a', 'd', 'c c', 'c', 'e e d', 'd d d d', 'a', 'e e e',
                                        'd', 'c c c c c c c c c c c c c c c c c', 'e e e e', 'e e',
                                        'e d d d', 'd', 'e e e e e e e e e e e e e e e e e',
                                        'e e e e e e e e e e e e e e e e e', 'd', 'e e', '',
                                        'e e e e e e e e e e e e e e e e e', 'e e e'],
                        'oracle': '96d4ecaea9db0bd2',
                        'hidden': [-10.016403246670961, -0.5509706735610962, -0.8296120166778564]},
 'srn_2x16': {'losses': [2.072019577026367, 2.0200443267822266, 1.9538573026657104,
                         1.9650229215621948, 1.9669781923294067, 1.790023684501648,
                         1.8502155542373657, 1.8789111375808716, 1.7757524251937866,
                         1.5882048606872559, 1.73451828956604, 1.7344239950180054,
                         1.6635135412216187, 1.556656002998352, 1.8520513772964478,
                         1.6755415201187134, 1.6375739574432373, 1.3893126249313354,
                         1.4902825355529785, 1.2377370595932007],
              'predictions': ['a', 'd', 'd', 'd', 'c', 'a', 'e a', 'd', 'd', 'b a', 'e a', 'a',
                              'c', 'a', 'b a', 'a', 'e a', 'd', 'c', 'b a', 'e a', 'e a', 'a', 'a',
                              'e a', 'a', 'b a', 'c', 'e a', 'e a'],
              'oracle': '8edc3a1ad7efcef5',
              'hidden': [1.3875215323641896, -0.4551652669906616, 0.6697635650634766]},
 'transformer_1x16': {'losses': [2.093857526779175, 2.047415256500244, 1.662564992904663,
                                 1.942450761795044, 1.921074628829956, 1.525899887084961,
                                 1.823919415473938, 1.8348435163497925, 1.6650880575180054,
                                 1.4392645359039307, 1.5592622756958008, 1.6694583892822266,
                                 1.4939044713974, 1.404758334159851, 1.8014857769012451,
                                 1.5105563402175903, 1.4683349132537842, 1.2150694131851196,
                                 1.344698190689087, 1.0916858911514282],
                      'predictions': ['e', 'd', 'd', 'd d d d d d d d d d d d d d d d d', 'c e',
                                      'a', 'e e e e e e e e e e e e e e e e e',
                                      'd d d d d d d d d d d d d d d d d', 'b', 'e', 'b', 'a', 'e',
                                      'e', 'd b', 'a', 'b', 'c d', 'c c c c', 'b', 'b', 'e', 'e d',
                                      'e e', 'e', 'd', 'e', 'd d',
                                      'e e e e e e e e e e e e e e e e e', 'e'],
                      'oracle': '61150a720b03a1d5',
                      'hidden': [-0.6834394782781601, -1.0457916259765625, -0.931726336479187]}}


def _reverse_task(n, seed):
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        seq = [rng.choice("abcde") for _ in range(rng.randint(1, 6))]
        pairs.append((" ".join(seq), " ".join(reversed(seq))))
    return pairs


@pytest.mark.parametrize("name", list(CONFIGS))
def test_cpu_training_and_decoding_match_the_reference(name):
    vocab = s2s.Vocabulary(list("abcde"))
    train, test = _reverse_task(200, 0), _reverse_task(30, 1)
    torch.manual_seed(0)
    model = s2s.build_model(CONFIGS[name], len(vocab), len(vocab))
    if name.startswith("transformer"):  # the reference was drawn before Transformers scaled
        with torch.no_grad():           # their embeddings to the positions' scale: undo it
            for embedding in (model.source_embedding, model.target_embedding):
                embedding.weight.mul_(CONFIGS[name].hidden_size ** 0.5)
    recipe = s2s.Recipe.fixed(320, 16, 1e-2, 0.5)
    log = s2s.fit(model, train, vocab, vocab, recipe, seed=3)
    evaluation = s2s.evaluate(model, test, vocab, vocab, batch_size=8)
    oracle = s2s.evaluate(model, test, vocab, vocab, oracle_length=True)
    hidden = s2s.encode(model, ["a b c", "e", "d d a b"], vocab)
    expected = REFERENCE[name]
    values = [float(hidden.double().sum()), float(hidden[0, 0]), float(hidden[2, -1])]
    assert log.losses == pytest.approx(expected["losses"], rel=1e-4)
    assert values == pytest.approx(expected["hidden"], rel=1e-3, abs=1e-4)
    assert evaluation.predictions == expected["predictions"]
    digest = hashlib.sha256("|".join(oracle.predictions).encode()).hexdigest()[:16]
    assert digest == expected["oracle"]


def test_existing_configurations_keep_their_dict():
    """``to_dict`` is part of cache keys and committed results: it must not change."""
    assert Seq2SeqConfig("lstm", 200, 2, 0.5).to_dict() == {
        "cell": "lstm", "hidden_size": 200, "num_layers": 2, "dropout": 0.5,
        "attention": False, "num_heads": 4, "max_positions": 128}
    assert Seq2SeqConfig("gru", 50, 1, 0.5, attention=True).to_dict() == {
        "cell": "gru", "hidden_size": 50, "num_layers": 1, "dropout": 0.5,
        "attention": True, "num_heads": 4, "max_positions": 128}
