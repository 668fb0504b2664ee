"""Lake & Baroni (2018), Experiment 4: a new word in machine translation, on a generated stand-in.

The paper's last experiment leaves SCAN: it trains a sequence-to-sequence network on English
sentences that begin with "I am", "you are" or "he is" and their French translations (10,000
training pairs, 1,180 test pairs), adds the pair "I am daxy" -> "je suis daxiste" 1,000 times,
and asks whether the network translates the new word in the constructions it knows for other
adjectives. It got 1 of 8 right; for the frequent adjective "tired", 8 of 8.

That corpus cannot be downloaded here, so this module *generates* a stand-in, as chapter 8 does
for word vectors:

- **Sentences.** ``SUBJECT [MODIFIER] ADJECTIVE [TAIL]``: three subjects (:data:`SUBJECTS`),
  twelve modifiers ("not", "very", "not very", "always", ...; :data:`MODIFIERS`), nine tails
  ("today", "at home", ...; :data:`TAILS`) and 100 adjectives (:data:`ADJECTIVES`), each
  with its French translation. French puts the negation around the verb and elides "ne" before a
  vowel (``tu n' es pas fatigué``); adjectives stay masculine singular, as the subjects are
  I, you (singular) and he.
- **Frequencies.** Adjectives follow a Zipf law (the ``r``-th of :data:`ADJECTIVES` has weight
  ``1 / r``), so "tired", the first, is frequent, as in real text; modifiers and tails have
  fixed weights, the bare sentence being the most common. The corpus is ``11,180`` distinct
  sentences drawn by weight without replacement, split at random into 10,000 and 1,180.
- **The test constructions.** The eight sentences the paper tests (:data:`CONSTRUCTIONS`), for
  "daxy" and for "tired", are kept out of the corpus; "I am daxy" -> "je suis daxiste" is added
  1,000 times to the training pairs, and "I am tired" stays wherever the draw put it.

What this stand-in cannot give: real sentences vary far more (other verbs, word orders,
gender and number agreement, idioms such as "j'ai froid" for "I am cold"), their translations
are not one-to-one, and the words around an adjective carry more information about it. The
network's task here is easier, so a failure to use "daxy" says more than a success would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tutorlib import cache, results
from tutorlib import seq2seq as s2s
from tutorlib.profiles import PRESENTATION_FIELDS, Settings, check_fields, presentations_recipe
from tutorlib.train import resolve_device

CACHE_FORMAT = 2  # 2: the record has its fit on a sample of its training sentences

Pair = tuple[str, str]

# (English, French subject, French verb, whether the verb starts with a vowel)
SUBJECTS = [("I am", "je", "suis"), ("you are", "tu", "es"), ("he is", "il", "est")]

# (English modifier, French before the verb, French after it): "not" wraps the verb
MODIFIERS = [("", "", ""), ("not", "ne", "pas"), ("very", "", "très"),
             ("not very", "ne", "pas très"), ("so", "", "si"), ("too", "", "trop"),
             ("really", "", "vraiment"), ("a little", "", "un peu"),
             ("always", "", "toujours"), ("never", "ne", "jamais"), ("still", "", "encore"),
             ("quite", "", "assez")]
MODIFIER_WEIGHTS = [6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1]

TAILS = [("", ""), ("today", "aujourd'hui"), ("now", "maintenant"), ("tonight", "ce soir"),
         ("at home", "à la maison"), ("at work", "au travail"), ("here", "ici"),
         ("this morning", "ce matin"), ("too", "aussi")]
TAIL_WEIGHTS = [8, 1, 1, 1, 1, 1, 1, 1, 1]

# 100 adjectives with their masculine singular French forms, most frequent first (Zipf ranks)
ADJECTIVES = [
    ("tired", "fatigué"), ("happy", "heureux"), ("sad", "triste"), ("ready", "prêt"),
    ("busy", "occupé"), ("sick", "malade"), ("angry", "fâché"), ("sure", "sûr"),
    ("free", "libre"), ("rich", "riche"), ("poor", "pauvre"), ("young", "jeune"),
    ("old", "vieux"), ("tall", "grand"), ("small", "petit"), ("strong", "fort"),
    ("weak", "faible"), ("calm", "calme"), ("nervous", "nerveux"), ("proud", "fier"),
    ("lazy", "paresseux"), ("shy", "timide"), ("polite", "poli"), ("rude", "impoli"),
    ("honest", "honnête"), ("curious", "curieux"), ("jealous", "jaloux"), ("lucky", "chanceux"),
    ("brave", "courageux"), ("careful", "prudent"), ("clever", "intelligent"),
    ("stupid", "stupide"), ("serious", "sérieux"), ("funny", "drôle"), ("kind", "gentil"),
    ("nice", "sympathique"), ("mean", "méchant"), ("famous", "célèbre"), ("alone", "seul"),
    ("married", "marié"), ("single", "célibataire"), ("drunk", "ivre"), ("awake", "réveillé"),
    ("asleep", "endormi"), ("surprised", "surpris"), ("worried", "inquiet"),
    ("scared", "effrayé"), ("excited", "excité"), ("disappointed", "déçu"),
    ("satisfied", "satisfait"), ("confused", "confus"), ("embarrassed", "embarrassé"),
    ("ashamed", "honteux"), ("guilty", "coupable"), ("innocent", "innocent"), ("fat", "gros"),
    ("thin", "mince"), ("beautiful", "beau"), ("ugly", "laid"), ("clean", "propre"),
    ("dirty", "sale"), ("wet", "mouillé"), ("dry", "sec"), ("quiet", "silencieux"),
    ("noisy", "bruyant"), ("dangerous", "dangereux"), ("different", "différent"),
    ("normal", "normal"), ("strange", "étrange"), ("important", "important"),
    ("useful", "utile"), ("useless", "inutile"), ("generous", "généreux"),
    ("selfish", "égoïste"), ("patient", "patient"), ("impatient", "impatient"),
    ("optimistic", "optimiste"), ("pessimistic", "pessimiste"), ("sincere", "sincère"),
    ("modest", "modeste"), ("ambitious", "ambitieux"), ("creative", "créatif"),
    ("independent", "indépendant"), ("responsible", "responsable"),
    ("reasonable", "raisonnable"), ("sensitive", "sensible"), ("romantic", "romantique"),
    ("sleepy", "somnolent"), ("thirsty", "assoiffé"), ("hungry", "affamé"),
    ("furious", "furieux"), ("grateful", "reconnaissant"), ("delighted", "ravi"),
    ("glad", "content"), ("upset", "contrarié"), ("anxious", "anxieux"),
    ("lonely", "solitaire"), ("desperate", "désespéré"), ("exhausted", "épuisé"),
    ("injured", "blessé"),
]

NEW_WORD = ("daxy", "daxiste")
FREQUENT_WORD = "tired"
NEW_WORD_REPEATS = 1_000
CORPUS_SIZE, TRAIN_SIZE = 11_180, 10_000

# The eight constructions the paper tests the new word in (ADJ stands for the adjective)
CONSTRUCTIONS = ["you are ADJ", "he is ADJ", "I am not ADJ", "you are not ADJ", "he is not ADJ",
                 "I am very ADJ", "you are very ADJ", "he is very ADJ"]

# Lake & Baroni (2018), Sec. 6 (Experiment 4)
PAPER = {"daxy": {"right": 1, "of": 8}, "tired": {"right": 8, "of": 8},
         "network": "LSTM with attention, 2 layers of 400 units, dropout 0.05",
         "train pairs": 10_000, "test pairs": 1_180}


def _elide(word: str) -> bool:
    return word[0] in "aeéèêiouh"


def translate(english: str) -> str:
    """The French of one stand-in sentence (``SUBJECT [MODIFIER] ADJECTIVE [TAIL]``).

    Examples
    --------
    >>> translate("you are not tired today")
    "tu n' es pas fatigué aujourd'hui"
    >>> translate("I am daxy")
    'je suis daxiste'
    """
    words = english.split()
    subject = next((s for s in SUBJECTS if words[:2] == s[0].split()), None)
    if subject is None:
        raise ValueError(f"{english!r} does not start with one of "
                         f"{', '.join(repr(s[0]) for s in SUBJECTS)}")
    rest = " ".join(words[2:])
    french_of = dict([*ADJECTIVES, NEW_WORD])
    for english_modifier, before, after in sorted(MODIFIERS, key=lambda m: -len(m[0])):
        for english_tail, french_tail in sorted(TAILS, key=lambda t: -len(t[0])):
            middle = rest
            if english_modifier:
                if not middle.startswith(english_modifier + " "):
                    continue
                middle = middle[len(english_modifier) + 1:]
            if english_tail:
                if not middle.endswith(" " + english_tail):
                    continue
                middle = middle[: -len(english_tail) - 1]
            if middle not in french_of:
                continue
            _, pronoun, verb = subject
            negation = ("n'" if _elide(verb) else "ne") if before else ""
            french = [pronoun, negation, verb, after, french_of[middle], french_tail]
            return " ".join(part for part in french if part)
    raise ValueError(f"cannot read {english!r} as SUBJECT [MODIFIER] ADJECTIVE [TAIL] with the "
                     f"stand-in's words")


def sentences(adjective: str, constructions: list[str] = CONSTRUCTIONS) -> list[Pair]:
    """The test constructions for ``adjective``, with their French."""
    out = []
    for pattern in constructions:
        english = pattern.replace("ADJ", adjective)
        out.append((english, translate(english)))
    return out


@lru_cache(maxsize=4)
def corpus(seed: int = 0) -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
    """The stand-in corpus: ``(train, test)``, 10,000 and 1,180 distinct pairs drawn with
    ``seed`` (the 1,000 copies of "I am daxy" are added by :func:`training_pairs`)."""
    held_out = {e for adjective in (NEW_WORD[0], FREQUENT_WORD) for e, _ in sentences(adjective)}
    candidates, weights = [], []
    for english_subject, _, _ in SUBJECTS:
        for (modifier, _, _), w_modifier in zip(MODIFIERS, MODIFIER_WEIGHTS):
            for rank, (adjective, _) in enumerate(ADJECTIVES, start=1):
                for (tail, _), w_tail in zip(TAILS, TAIL_WEIGHTS):
                    english = " ".join(p for p in (english_subject, modifier, adjective, tail) if p)
                    if english in held_out:
                        continue
                    candidates.append(english)
                    weights.append(w_modifier * w_tail / rank)
    # weighted sampling without replacement (Efraimidis & Spirakis): the largest u ** (1 / w)
    rng = np.random.default_rng(seed)
    keys = np.log(rng.random(len(candidates))) / np.asarray(weights)
    chosen = [candidates[i] for i in np.argsort(-keys)[:CORPUS_SIZE]]
    random.Random(seed).shuffle(chosen)
    pairs = tuple((e, translate(e)) for e in chosen)
    return pairs[:TRAIN_SIZE], pairs[TRAIN_SIZE:]


def training_pairs(seed: int = 0) -> list[Pair]:
    """The training pairs with "I am daxy" -> "je suis daxiste" added 1,000 times."""
    train, _ = corpus(seed)
    return [*train, *[(f"I am {NEW_WORD[0]}", f"je suis {NEW_WORD[1]}")] * NEW_WORD_REPEATS]


def vocabularies(seed: int = 0) -> tuple[s2s.Vocabulary, s2s.Vocabulary]:
    """English and French vocabularies over the corpus, the new word and the test sentences."""
    train, test = corpus(seed)
    everything = [*train, *test, *training_pairs(seed)[-1:],
                  *sentences(NEW_WORD[0]), *sentences(FREQUENT_WORD)]
    return (s2s.Vocabulary.from_sequences([e.split() for e, _ in everything]),
            s2s.Vocabulary.from_sequences([f.split() for _, f in everything]))


# ---------------------------------------------------------------------------------------------
# Settings and runs


@dataclass(frozen=True)
class TranslationSettings(Settings):
    """Settings of the ``scan_translation`` experiment: ``architecture`` (a
    :class:`~tutorlib.seq2seq.Seq2SeqConfig` dict) trained by ``recipe`` (the keywords of
    :meth:`tutorlib.seq2seq.Recipe.fixed`: ``presentations`` pairs in batches of ``batch_size``,
    Adam from ``learning_rate``, decayed to ``final_lr_fraction`` of it), once
    per seed of ``seeds``; the corpus is drawn with ``corpus_seed``."""

    architecture: dict
    seeds: list[int]
    recipe: dict
    corpus_seed: int
    threads: int


def _lstm(hidden: int, layers: int, dropout: float) -> dict:
    return s2s.Seq2SeqConfig("lstm", hidden, layers, dropout, attention=True).to_dict()


SETTINGS = {
    "ci": TranslationSettings(architecture=_lstm(16, 1, 0.0), seeds=[0],
                              recipe=presentations_recipe(640, 32, 3e-3, 1.0),
                              corpus_seed=0, threads=1),
    "tutorial": TranslationSettings(architecture=_lstm(64, 1, 0.05), seeds=[0],
                                    recipe=presentations_recipe(32_000, 32, 3e-3, 0.1),
                                    corpus_seed=0, threads=1),
    # the paper's network: LSTM with attention, 2 x 400, dropout 0.05
    "full": TranslationSettings(architecture=_lstm(400, 2, 0.05), seeds=[0, 1, 2, 3, 4],
                                recipe=presentations_recipe(64_000, 32, 1e-3, 0.1),
                                corpus_seed=0, threads=1),
}


def _score(model, pairs: list[Pair], vocabularies_, word: str | None = None) -> dict:
    source_vocab, target_vocab = vocabularies_
    evaluation = s2s.evaluate(model, pairs, source_vocab, target_vocab)
    out = {"sentences": [e for e, _ in pairs], "predictions": list(evaluation.predictions),
           "correct": evaluation.correct.astype(int).tolist(), "right": int(evaluation.correct.sum()),
           "of": len(pairs), "accuracy": float(evaluation.accuracy)}
    if word is not None:  # does the translation at least contain the word's French?
        out["word used"] = int(sum(word in p.split() for p in evaluation.predictions))
    return out


# training sentences a run's fit is measured on (the corpus is shuffled, so the first are a sample)
TRAIN_CHECK = 1_000


def _train_and_test(config: dict, seed: int, device: str) -> dict:
    vocabs = vocabularies(config["corpus_seed"])
    train, test = corpus(config["corpus_seed"])  # train: distinct sentences, no daxy
    trained = s2s.train_once(s2s.Seq2SeqConfig(**config["architecture"]),
                             training_pairs(config["corpus_seed"]), vocabs,
                             s2s.Recipe.fixed(**{k: config[k] for k in PRESENTATION_FIELDS}),
                             seed, device=device,
                             loss_window=50, desc=f"English-French stand-in, seed {seed}")
    model = trained.model.cpu().eval()
    french = dict([*ADJECTIVES, NEW_WORD])
    return {"seed": seed, "architecture": config["architecture"],
            "presentations": config["presentations"], "train_seconds": round(trained.seconds, 1),
            "final_loss": trained.final_loss,
            "train": {k: v for k, v in _score(model, list(train[:TRAIN_CHECK]), vocabs).items()
                      if k in ("right", "of", "accuracy")},
            "test": {k: v for k, v in _score(model, list(test), vocabs).items()
                     if k in ("right", "of", "accuracy")},
            "daxy": _score(model, sentences(NEW_WORD[0]), vocabs, french[NEW_WORD[0]]),
            "tired": _score(model, sentences(FREQUENT_WORD), vocabs, french[FREQUENT_WORD]),
            "I am daxy": _score(model, [(f"I am {NEW_WORD[0]}", f"je suis {NEW_WORD[1]}")],
                                vocabs)["right"]}


def run_settings(settings: TranslationSettings) -> dict:
    """Everything that changes a run's result except its seed (the recipe's fields at the top
    level, as the runs were first keyed)."""
    check_fields(settings.recipe, PRESENTATION_FIELDS, "the recipe", exact=True)
    return {**{k: v for k, v in settings.to_dict().items() if k not in ("seeds", "recipe")},
            **settings.recipe}


def run(config: dict, seed: int = 0, device: str = "cpu") -> dict:
    """Train and test one network (cached on disk by ``config`` and ``seed``)."""
    def compute() -> dict:
        with s2s.pinned_threads(config["threads"]):
            return _train_and_test(config, seed, resolve_device(device))

    return cache.cached("scan-translation-run", {"config": config, "seed": seed}, compute,
                        format=CACHE_FORMAT)


def runs(settings: TranslationSettings) -> list[tuple[dict, int]]:
    """One run per seed."""
    return [(run_settings(settings), seed) for seed in settings["seeds"]]


def summarise(settings: TranslationSettings, finished: list[dict]) -> dict:
    return {"published": PAPER}


EXPERIMENT = results.Experiment(name="scan_translation", runs=runs, run=run, summarise=summarise)


def committed_runs(profile: str = "full"):
    """The committed runs of ``results/scan_translation/<profile>.json`` as a DataFrame."""
    return results.committed_runs("scan_translation", profile, columns=["seed"])
