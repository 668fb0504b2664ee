"""PCFG SET from the corpus to one run's scores (Hupkes et al. 2020): the pairs a network
trains and is tested on (sampled, filtered and folded onto fewer symbols), its vocabularies,
the trained model cached on disk, and :func:`run`, which scores every test that uses it.

The experiment (its profiles, runs and tables) is :mod:`tutorlib.pcfgset.experiments`, which
re-exports every public name here.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

import numpy as np
import torch

from tutorlib import cache, pcfgset
from tutorlib import fit as fit_gate
from tutorlib import seq2seq as s2s
from tutorlib.cache import key_dict
from tutorlib.profiles import (
    PRESENTATION_FIELDS,
    check_fields,
    network_recipe,
)
from tutorlib.train import resolve_device

# Bump when the code below changes what it computes (tutorlib.cache).
CACHE_FORMAT = 3
# The overgeneralisation curve has at least this many points (and one after every epoch).
CURVE_POINTS = 10

CORPUS_SEED = 0  # one data set, as in the paper; a run's seed is the model's
# Runs train and test on one CPU thread: models this small gain nothing from more, and on a
# busy machine two threads are many times slower than one (and cost more CPU time).
THREADS = 1


def ratio_records(records: list[dict], ratio: float) -> list[dict]:
    """The overgeneralisation runs among ``records`` that trained with ``ratio`` exceptions.

    Parameters
    ----------
    records : list of dict
        Run records (with ``split``).
    ratio : float
        An exception ratio (``0.005`` for 0.5%).

    Returns
    -------
    list of dict
        Those whose split is ``overgeneralisation_<ratio>``.

    Examples
    --------
    >>> runs = [{"split": "overgeneralisation_0.001"}, {"split": "overgeneralisation_0.005"}]
    >>> ratio_records(runs, 0.005)
    [{'split': 'overgeneralisation_0.005'}]
    """
    return [r for r in records if _ratio(r["split"]) == ratio]


LETTERS = 26  # the alphabet's letters; its symbols are A1 ... Z20


def _numbers(alphabet_size: int | None) -> int:
    """How many numbers per letter an alphabet of ``alphabet_size`` symbols has (None: 20)."""
    if alphabet_size is None:
        return len(pcfgset.ALPHABET) // LETTERS
    if (isinstance(alphabet_size, bool) or not isinstance(alphabet_size, int)
            or alphabet_size % LETTERS or not LETTERS <= alphabet_size <= len(pcfgset.ALPHABET)):
        raise ValueError(f"alphabet_size must be None (all {len(pcfgset.ALPHABET)} symbols) or a "
                         f"multiple of {LETTERS} from {LETTERS} to {len(pcfgset.ALPHABET)}, got "
                         f"{alphabet_size!r}")
    return alphabet_size // LETTERS


def fold_symbols(text: str, alphabet_size: int | None) -> str:
    """``text`` (an input or an output) with every symbol folded onto an alphabet of
    ``alphabet_size`` symbols, ``A1`` ... ``Z<alphabet_size / 26>``: a symbol keeps its letter
    and its number is taken modulo the new count (None: unchanged).

    Every PCFG SET function only rearranges, copies or drops its arguments' symbols, so folding
    an input and folding its output give a correct pair again.

    Examples
    --------
    >>> fold_symbols("append M17 B2 , C3", 26)
    'append M1 B1 , C1'
    >>> fold_symbols("M17 B2", 52)
    'M1 B2'
    """
    numbers = _numbers(alphabet_size)
    if alphabet_size is None:
        return text
    out = []
    for token in text.split():
        if token[:1].isupper() and token[1:].isdigit():
            token = f"{token[0]}{(int(token[1:]) - 1) % numbers + 1}"
        out.append(token)
    return " ".join(out)


@lru_cache(maxsize=4)
def vocabularies(alphabet_size: int | None = None) -> tuple[s2s.Vocabulary, s2s.Vocabulary]:
    """Input and output vocabularies of every split: the symbols (520, or ``alphabet_size``
    after :func:`fold_symbols`), the ten functions, their four synonyms and the comma; the
    outputs are symbols only."""
    symbols = pcfgset.alphabet(LETTERS, _numbers(alphabet_size))
    return (s2s.Vocabulary([*symbols, *pcfgset.FUNCTIONS, *pcfgset.TWINS, ","]),
            s2s.Vocabulary(symbols))


def _fits(pair, max_output_length: int | None, max_functions: int | None = None) -> bool:
    return ((max_output_length is None or len(pair[1].split()) <= max_output_length)
            and (max_functions is None or pcfgset.num_functions(pair[0]) <= max_functions))


def _short(pairs, max_output_length: int | None, max_functions: int | None = None):
    return [p for p in pairs if _fits(p, max_output_length, max_functions)]


def _fold(pairs, alphabet_size: int | None) -> list:
    if alphabet_size is None:
        return list(pairs)
    return [(fold_symbols(s, alphabet_size), fold_symbols(t, alphabet_size)) for s, t in pairs]


def _sample(pairs: list, size: int | None, label: str) -> list:
    """A seeded sample of ``size`` of ``pairs`` (all of them when ``size`` is None or larger)."""
    if size is None or size >= len(pairs):
        return list(pairs)
    return random.Random(f"pcfgset-{label}-{size}").sample(pairs, size)


def _ratio(split_name: str) -> float | None:
    if not split_name.startswith("overgeneralisation_"):
        return None
    return float(split_name.removeprefix("overgeneralisation_"))


def training_pairs(split_name: str, train_size: int | None = None,
                   max_output_length: int | None = None, max_functions: int | None = None,
                   alphabet_size: int | None = None,
                   reduction: str | None = None) -> list[pcfgset.corpus.Pair]:
    """The training pairs a run trains on: the split's, without outputs longer than
    ``max_output_length`` or inputs with more than ``max_functions`` functions, a seeded sample
    of ``train_size`` of them, folded onto ``alphabet_size`` symbols (:func:`fold_symbols`).

    For overgeneralisation the sample keeps the exceptions at the split's ratio: each exception
    pattern keeps the same fraction of its exceptions as the sample keeps of the other pairs
    (at least one), so a small sample is not flooded with exceptions. ``reduction``: the split
    of a reduced corpus (:data:`tutorlib.pcfgset.corpus.REDUCTIONS`).
    """
    # fails early on an unknown name
    train, _ = pcfgset.split(split_name, seed=CORPUS_SEED, reduction=reduction)
    _numbers(alphabet_size)  # and on a bad alphabet
    if _ratio(split_name) is None:
        return _fold(_sample(_short(train, max_output_length, max_functions), train_size,
                             f"train-{split_name}"), alphabet_size)
    chosen = set(exception_pairs(split_name, train_size, max_output_length, max_functions,
                                 reduction=reduction)[0])
    every = set(_exceptions(split_name, reduction)[0])
    kept = _short([p for p in train if p not in every], max_output_length, max_functions)
    size = None if train_size is None else max(train_size - len(chosen), 1)
    pairs = _sample(kept, size, f"train-{split_name}") + sorted(chosen)
    random.Random(f"pcfgset-order-{split_name}-{train_size}").shuffle(pairs)
    return _fold(pairs, alphabet_size)


def _exceptions(split_name: str, reduction: str | None = None):
    data = pcfgset.overgeneralisation_split(_ratio(split_name), seed=CORPUS_SEED,
                                            reduction=reduction)
    return data.exceptions, data.originals, data.patterns


def exception_pairs(split_name: str, train_size: int | None = None,
                    max_output_length: int | None = None, max_functions: int | None = None,
                    alphabet_size: int | None = None, reduction: str | None = None):
    """The exceptions a run of ``overgeneralisation_R`` trains with: ``(exceptions, originals)``,
    the pairs with the exception's output and the same inputs with the rule's output (the
    filters, the folding and the reduction as :func:`training_pairs`)."""
    exceptions, originals, patterns = _exceptions(split_name, reduction)
    train, _ = pcfgset.split(split_name, seed=CORPUS_SEED, reduction=reduction)
    fraction = 1.0
    if train_size is not None:
        others = len(_short(train, max_output_length, max_functions)) - len(exceptions)
        fraction = min(1.0, train_size / max(others, 1))
    chosen_e, chosen_o = [], []
    for pattern in dict.fromkeys(patterns):
        rows = [(e, o) for e, o, p in zip(exceptions, originals, patterns, strict=True)
                if p == pattern and _fits(e, max_output_length, max_functions)
                and _fits(o, max_output_length)]
        keep = max(1, round(fraction * len(rows))) if rows else 0
        chosen_e += [e for e, _ in rows[:keep]]
        chosen_o += [o for _, o in rows[:keep]]
    return _fold(chosen_e, alphabet_size), _fold(chosen_o, alphabet_size)


def test_pairs(split_name: str, max_test: int | None = None,
               max_output_length: int | None = None, max_functions: int | None = None,
               alphabet_size: int | None = None,
               reduction: str | None = None) -> list[pcfgset.corpus.Pair]:
    """The test pairs of ``pcfgset``, ``systematicity`` or ``productivity`` a run scores: without
    outputs longer than ``max_output_length`` or inputs with more than ``max_functions``
    functions (productivity: any number, its test inputs having more than any training input),
    a seeded sample of ``max_test``, folded onto ``alphabet_size`` symbols (of the reduced
    corpus ``reduction``, if given)."""
    _, test = pcfgset.split(split_name, seed=CORPUS_SEED, reduction=reduction)
    if split_name == "productivity":
        max_functions = None
    return _fold(_sample(_short(test, max_output_length, max_functions), max_test,
                         f"test-{split_name}"), alphabet_size)


def twin_pairs(condition: str, max_test: int | None = None,
               max_output_length: int | None = None, max_functions: int | None = None,
               alphabet_size: int | None = None, reduction: str | None = None):
    """The substitutivity test: ``(test, twins)``, a seeded sample of ``max_test`` pairs and
    their twins (same output, one function replaced by its synonym everywhere), with the
    filters, the folding and the reduction of :func:`test_pairs`."""
    data = pcfgset.substitutivity_split(condition, seed=CORPUS_SEED, reduction=reduction)
    rows = [r for r in zip(data.test, data.test_twin, strict=True)
            if _fits(r[0], max_output_length, max_functions)]
    rows = _sample(rows, max_test, f"twins-{condition}")
    return _fold([a for a, _ in rows], alphabet_size), _fold([b for _, b in rows], alphabet_size)


# ---------------------------------------------------------------------------------------------
# Training and scoring


def _later(options: dict) -> dict:
    """The :data:`LATER_OPTIONS` of ``options`` that differ from their defaults
    (:func:`tutorlib.cache.key_dict`)."""
    return key_dict({key: options.get(key, default) for key, default in LATER_OPTIONS.items()},
                    LATER_OPTIONS)


def pair_options(options) -> dict:
    """The options (or a profile's settings) that choose and fold the pairs, as the keywords
    ``max_output_length``, ``max_functions``, ``alphabet_size`` and ``reduction`` of
    :func:`training_pairs`, :func:`test_pairs` and :func:`twin_pairs`."""
    return {"max_output_length": options["max_output_length"],
            "max_functions": options.get("max_functions"),
            "alphabet_size": options.get("alphabet_size"),
            "reduction": options.get("reduction")}


def _key(config: dict, split_name: str, seed: int, options: dict) -> dict:
    if "recipe" in options:
        return {"architecture": config, "split": split_name, "seed": seed,
                "train_size": options["train_size"],
                "max_output_length": options["max_output_length"],
                "recipe": options["recipe"], **_later(options)}
    return {"architecture": config, "split": split_name, "seed": seed,
            "train_size": options["train_size"], "max_output_length": options["max_output_length"],
            "training": fixed_recipe(options).presentations_key(seed), **_later(options)}


def fixed_recipe(options: dict, evaluate_every: int | None = None) -> s2s.Recipe:
    """The recipe of a run with a fixed number of presentations (``options`` of :func:`run`)."""
    options = LATER_OPTIONS | options
    return s2s.Recipe.fixed(options["presentations"], options["batch_size"],
                            options["learning_rate"], options["final_lr_fraction"],
                            warmup_steps=options["warmup_steps"],
                            embedding_init=options["embedding_init"],
                            evaluate_every=evaluate_every)


# A test split's in-distribution validation: this many of its training pairs held out (at most
# this share of them)
VALIDATION_SIZE = 1_000
VALIDATION_SHARE = 0.05


def validation_split(split_name: str, train: list, options: dict) -> tuple[list, list]:
    """``(training pairs, in-distribution validation pairs)`` of a run of the convergence recipe.

    For the base task, the base corpus's dev pairs (filtered and folded as the training pairs);
    for a test split, whose training data is a different distribution, a seeded sample of
    :data:`VALIDATION_SIZE` of its own training pairs, held out of training (for
    overgeneralisation, never an exception).
    """
    if split_name == "pcfgset":
        dev = pcfgset.base_corpus(CORPUS_SEED, options.get("reduction")).dev
        return train, _fold(_short(dev, options["max_output_length"],
                                   options.get("max_functions")), options.get("alphabet_size"))
    avoid = set()
    if _ratio(split_name) is not None:
        avoid = set(exception_pairs(split_name, options["train_size"],
                                    **pair_options(options))[0])
    size = min(VALIDATION_SIZE, math.ceil(len(train) * VALIDATION_SHARE))
    held = set(_sample([p for p in train if p not in avoid], size, f"validation-{split_name}"))
    return [p for p in train if p not in held], [p for p in train if p in held]


def _overgeneralisation_probe(split_name: str, options: dict, device: str):
    """A function scoring memorisation and overgeneralisation of the training exceptions."""
    exceptions, originals = exception_pairs(split_name, options["train_size"],
                                            **pair_options(options))
    longest = max(len(t.split()) for _, t in exceptions + originals) + 5
    source_vocab, target_vocab = vocabularies(options.get("alphabet_size"))

    def probe(model) -> dict:
        predictions = s2s.predict(model, [s for s, _ in exceptions], source_vocab, target_vocab,
                                  max_length=longest, device=device)
        memorised, overgeneralised = pcfgset.overgeneralisation_rates(predictions, exceptions,
                                                                      originals)
        return {"memorisation": memorised, "overgeneralisation": overgeneralised}

    return probe


def _train_check(split_name: str, options: dict) -> list[tuple[str, str]]:
    """The sample of its own training pairs on which a run's training fit is reported (and
    gated): as many as a test's (``max_test``), seeded."""
    return _sample(training_pairs(split_name, options["train_size"], **pair_options(options)),
                   options["max_test"], "train-check")


def _gate_check(split_name: str, options: dict, device: str):
    """``model -> bool``: whether the model's accuracy on :func:`_train_check` reaches the gate's
    training bar; a run with ``stop_at`` stops only where it does, so that its report (which
    reads the same sample) shows it passing (the samples the trainer evaluates are smaller)."""
    check = _train_check(split_name, options)
    source_vocab, target_vocab = vocabularies(options.get("alphabet_size"))
    length = _decode_length(check, options)

    def confirm(model) -> bool:
        fitted = s2s.evaluate(model, check, source_vocab, target_vocab, device=device,
                              max_length=length)
        return fitted.accuracy >= fit_gate.TRAINING

    return confirm


def _train_recipe(config: dict, split_name: str, seed: int, options: dict, device: str) -> dict:
    """Train with the architecture's convergence recipe (:class:`tutorlib.seq2seq.Recipe`)."""
    train, validation = validation_split(
        split_name, training_pairs(split_name, options["train_size"], **pair_options(options)),
        options)
    probe = (_overgeneralisation_probe(split_name, options, device)
             if _ratio(split_name) is not None else None)
    recipe = s2s.Recipe.from_dict(options["recipe"])
    trained = s2s.train_once(
        s2s.Seq2SeqConfig(**config), train, vocabularies(options.get("alphabet_size")),
        recipe, seed, validation=validation, device=device, on_evaluation=probe,
        confirm=_gate_check(split_name, options, device) if recipe.stop_at else None,
        desc=f"{config['cell']} on {split_name}, seed {seed}")
    fit = trained.log
    curve = [{"memorisation": r["memorisation"], "overgeneralisation": r["overgeneralisation"],
              "epoch": r["epoch"]} for r in fit.history if "memorisation" in r]
    where = resolve_device(device)
    device_name = torch.cuda.get_device_name(where) if where.type == "cuda" else "cpu"
    info = {"train_pairs": len(train), "validation_pairs": len(validation),
            "device_name": device_name,
            "train_seconds": fit.train_seconds, "epochs": fit.epochs,
            "final_loss": trained.final_loss, "parameters": trained.parameters, "curve": curve,
            "fit": {k: v for k, v in fit.to_dict().items() if k != "history"},
            "fit_history": [{k: v for k, v in r.items()
                             if k not in ("memorisation", "overgeneralisation")}
                            for r in fit.history]}
    return {"info": info, "state_dict": trained.state_dict()}


def _train(config: dict, split_name: str, seed: int, options: dict, device: str) -> dict:
    if "recipe" in options:
        return _train_recipe(config, split_name, seed, options, device)
    train = training_pairs(split_name, options["train_size"], **pair_options(options))
    size = min(options["batch_size"], len(train))
    per_epoch = math.ceil(len(train) / size)
    num_steps = math.ceil(options["presentations"] / size)
    probe = (_overgeneralisation_probe(split_name, options, device)
             if _ratio(split_name) is not None else None)
    # after every epoch, and more often when training is short (the full profile's ~2 epochs)
    recipe = fixed_recipe(options, evaluate_every=(
        min(per_epoch, math.ceil(num_steps / CURVE_POINTS)) if probe else None))
    trained = s2s.train_once(
        s2s.Seq2SeqConfig(**config), train, vocabularies(options.get("alphabet_size")), recipe,
        seed, device=device, on_evaluation=probe, loss_window=50,
        desc=f"{config['cell']} on {split_name}, seed {seed}")
    log = trained.log
    curve = [{"memorisation": r["memorisation"], "overgeneralisation": r["overgeneralisation"],
              "epoch": round(r["step"] / per_epoch, 3)} for r in log.history if "memorisation" in r]
    info = {"train_pairs": len(train), "train_seconds": round(trained.seconds, 1),
            "epochs": round(log.steps / per_epoch, 3), "final_loss": trained.final_loss,
            "parameters": trained.parameters, "curve": curve}
    return {"info": info, "state_dict": trained.state_dict()}


def model_split(split_name: str, options: dict) -> str:
    """The split whose training pairs train the model that ``split_name``'s tests are scored on:
    itself, but the task's (``pcfgset``) for productivity on a reduction, whose training pairs
    are the task's (:func:`tutorlib.pcfgset.splits.productivity_split`)."""
    if split_name == "productivity" and options.get("reduction") is not None:
        return "pcfgset"
    return split_name


def trained_model(config: dict, split_name: str, seed: int, options: dict,
                  device: str = "cpu"):
    """The model ``config`` trained on ``split_name`` with ``seed`` (cached on disk), and what
    training recorded (pairs, seconds, epochs, parameters, and for overgeneralisation the
    curve over training). ``options`` holds ``train_size``, ``max_output_length``, the training
    (``presentations``, ``batch_size``, ``learning_rate``, ``final_lr_fraction``) and
    optionally :data:`LATER_OPTIONS`. The model is returned in eval mode, on the CPU. On a
    reduction, productivity's model is the task's (:func:`model_split`)."""
    split_name = model_split(split_name, options)
    with s2s.pinned_threads(THREADS):
        entry = cache.cached("pcfgset-model", _key(config, split_name, seed, options),
                             lambda: _train(config, split_name, seed, options, device),
                             format=CACHE_FORMAT)
    source_vocab, target_vocab = vocabularies(options.get("alphabet_size"))
    model = s2s.build_model(s2s.Seq2SeqConfig(**config), len(source_vocab), len(target_vocab))
    model.load_state_dict(entry["state_dict"])
    return model.eval(), entry["info"]


def breakdown(sources: list[str], correct) -> dict[str, dict[int, list[int]]]:
    """Accuracy counts by input length (tokens) and by number of functions (Fig. 3):
    ``{"input_length": {n: [inputs, correct]}, "num_functions": {...}}``."""
    out: dict[str, dict[int, list[int]]] = {"input_length": {}, "num_functions": {}}
    for source, ok in zip(sources, correct, strict=True):
        for name, value in (("input_length", len(source.split())),
                            ("num_functions", pcfgset.num_functions(source))):
            cell = out[name].setdefault(value, [0, 0])
            cell[0] += 1
            cell[1] += int(bool(ok))
    return {name: dict(sorted(cells.items())) for name, cells in out.items()}


def _decode_length(pairs, options: dict) -> int:
    longest = max(len(t.split()) for _, t in pairs)
    cap = options["max_output_length"]
    return (cap if cap is not None else longest) + 10


def _score(config: dict, split_name: str, seed: int, options: dict, device: str) -> dict:
    model, info = trained_model(config, split_name, seed, options, device)
    alphabet_size = options.get("alphabet_size")
    source_vocab, target_vocab = vocabularies(alphabet_size)
    scores: dict = {"split": split_name, **{k: v for k, v in info.items() if k != "curve"}}
    if "fit" in info:  # the convergence recipe: the kept model's fit on validation
        scores["validation_accuracy"] = info["fit"]["validation_accuracy"]
    # does the model fit its own training pairs? (a sample as large as a test's)
    check = _train_check(split_name, options)
    fitted = s2s.evaluate(model, check, source_vocab, target_vocab, device=device,
                          max_length=_decode_length(check, options))
    scores.update(train_accuracy=fitted.accuracy,
                  train_token_accuracy=pcfgset.token_accuracy(fitted.predictions,
                                                              [t for _, t in check]))
    if split_name in ("pcfgset", "systematicity", "productivity"):
        test = test_pairs(split_name, options["max_test"], **pair_options(options))
        evaluation = s2s.evaluate(model, test, source_vocab, target_vocab, device=device,
                                  max_length=_decode_length(test, options))
        scores.update(accuracy=evaluation.accuracy, test_size=len(test),
                      token_accuracy=pcfgset.token_accuracy(evaluation.predictions,
                                                            [t for _, t in test]),
                      by_length=breakdown([s for s, _ in test], evaluation.correct))
        if split_name == "pcfgset":
            length = _decode_length(test, options)
            sources = [s for s, _ in test]
            steps = pcfgset.unrolled_steps(
                sources, lambda batch: s2s.predict(model, batch, source_vocab, target_vocab,
                                                   max_length=length, device=device))
            unrolled = [input_steps[-1][1] for input_steps in steps]
            scores["localism"] = pcfgset.localism_score(evaluation.predictions, unrolled)
            # the paper's reading of localism's mistakes (Sec. 4.4), counted
            share = pcfgset.localism_long_steps(evaluation.predictions, steps)
            scores["localism_long_steps"] = None if math.isnan(share) else share
            scores["unrolled_accuracy"] = pcfgset.accuracy(unrolled, [t for _, t in test])
    elif split_name.startswith("substitutivity_"):
        test, twins = twin_pairs(split_name.removeprefix("substitutivity_"), options["max_test"],
                                 **pair_options(options))
        length = _decode_length(test, options)
        first = s2s.predict(model, [s for s, _ in test], source_vocab, target_vocab,
                            max_length=length, device=device)
        second = s2s.predict(model, [s for s, _ in twins], source_vocab, target_vocab,
                             max_length=length, device=device)
        targets = [t for _, t in test]
        scores.update(consistency=pcfgset.consistency(first, second), test_size=len(test),
                      accuracy=pcfgset.accuracy(first, targets),
                      twin_accuracy=pcfgset.accuracy(second, targets),
                      consistent_correct=float(np.mean([a == b == t for a, b, t in
                                                        zip(first, second, targets,
                                                            strict=True)])))
    else:
        curve = info["curve"]
        value, point = pcfgset.peak([p["overgeneralisation"] for p in curve])
        epoch = curve[point - 1]["epoch"]
        scores.update(ratio=_ratio(split_name), curve=curve, overgeneralisation_peak=value,
                      peak_epoch=epoch, exceptions=len(exception_pairs(
                          split_name, options["train_size"], **pair_options(options))[0]),
                      final_memorisation=curve[-1]["memorisation"])
    return scores


OPTION_KEYS = ("train_size", "max_output_length", "presentations", "batch_size", "learning_rate",
               "final_lr_fraction", "max_test")
# Options added after the full profile was sized, with their defaults (which change nothing):
# run keys and cache keys hold them only when they differ, so earlier keys stay as they were.
# ``warmup_steps`` raises the learning rate linearly over the first steps;
# ``embedding_init="fairseq"`` draws a Transformer's token embeddings on the scale of its
# positions (:func:`tutorlib.seq2seq.init_embeddings`).
LATER_OPTIONS = {"max_functions": None, "alphabet_size": None, "warmup_steps": 0,
                 "embedding_init": "pytorch", "reduction": None}
# The convergence recipe (:class:`tutorlib.seq2seq.Recipe`) replaces the training options: a run
# of a profile with ``recipes`` has these options (and may have the pair filters).
RECIPE_OPTION_KEYS = ("train_size", "max_output_length", "max_test", "recipe")
RECIPE_LATER_OPTIONS = ("max_functions", "alphabet_size", "reduction")
# The training fields of a run of presentations (a profile's recipe with an architecture's
# training over it: tutorlib.profiles.network_recipe).
TRAINING_KEYS = (*PRESENTATION_FIELDS, "warmup_steps", "embedding_init")


def run(config: dict, split_name: str, seed: int = 0, *, device: str = "cpu",
        **options) -> dict:
    """Train ``config`` (a :func:`architecture_config` dict) on ``split_name`` with ``seed`` and
    score its tests (cached on disk; see the module docstring for what each split scores).

    ``options``: every key of :data:`OPTION_KEYS`, and any of :data:`LATER_OPTIONS` (a
    profile's settings hold them all: ``run(config, "pcfgset", 0, **train_options(settings))``).
    """
    resolve_device(device)  # a device this machine lacks fails before any work
    required, later = ((RECIPE_OPTION_KEYS, RECIPE_LATER_OPTIONS) if "recipe" in options
                       else (OPTION_KEYS, tuple(LATER_OPTIONS)))
    missing = sorted(set(required) - set(options))
    extra = sorted(set(options) - set(required) - set(later))
    if missing or extra:
        raise ValueError(f"run() needs exactly the options {', '.join(required)} (and may "
                         f"have {', '.join(later)}); missing: "
                         f"{', '.join(missing) or 'none'}; unknown: {', '.join(extra) or 'none'}")
    if "recipe" in options:
        s2s.Recipe.from_dict(options["recipe"])  # a clear error for a bad recipe
    if options.get("max_functions") is not None:
        _check_positive("max_functions", options["max_functions"])
    _numbers(options.get("alphabet_size"))
    pcfgset.corpus.check_reduction(options.get("reduction"))
    if options.get("embedding_init", "pytorch") not in s2s.EMBEDDING_INITS:
        raise ValueError(f"embedding_init must be one of {', '.join(s2s.EMBEDDING_INITS)}, got "
                         f"{options['embedding_init']!r}")
    if split_name not in pcfgset.split_names() or split_name == "localism":
        raise ValueError(f"unknown training split {split_name!r}; a run trains on one of "
                         f"{', '.join(n for n in pcfgset.split_names() if n != 'localism')} "
                         f"(localism is scored on the pcfgset model)")
    s2s.Seq2SeqConfig(**config)  # a clear error for a bad architecture
    key = {**_key(config, split_name, seed, options), "max_test": options["max_test"]}
    with s2s.pinned_threads(THREADS):
        return cache.cached("pcfgset-scores", key,
                            lambda: _score(config, split_name, seed, options, device),
                            format=CACHE_FORMAT)


def _check_positive(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be None or a positive integer, got {value!r}")


def train_options(settings, network: str | None = None) -> dict:
    """The keyword arguments of :func:`run` that a profile's settings fix for ``network`` (one
    of :data:`ARCHITECTURE_NAMES`, whose ``training`` applies over the profile's ``recipe``;
    None: the shared recipe alone), the :data:`LATER_OPTIONS` only where they differ from their
    defaults."""
    training = (network_recipe(settings, network) if network
                else dict(settings["recipe"]))
    filters = {key: settings.get(key) for key in RECIPE_LATER_OPTIONS}
    if "presentations" not in training:  # to convergence: the whole recipe, one option
        return {**{key: settings[key] for key in RECIPE_OPTION_KEYS if key != "recipe"},
                "recipe": s2s.Recipe.from_dict(training).to_dict() if training else None,
                **_later(filters)}
    check_fields(training, TRAINING_KEYS, f"the training of {network}")
    options = {**{key: settings[key] for key in OPTION_KEYS if key not in TRAINING_KEYS},
               **training, **filters}
    return {**{key: options[key] for key in OPTION_KEYS}, **_later(options)}

