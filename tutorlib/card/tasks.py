"""The report card's tasks: each benchmark's training data, an in-distribution validation set
drawn from it, and its test sets, at a size one budget can train.

A :class:`Task` is what a model is fitted and scored on. :func:`scan_task` gives SCAN's standard
splits and an MCD split (Keysers et al. 2020); :func:`pcfgset_task` PCFG SET's task accuracy,
systematicity, productivity, substitutivity and localism (Hupkes et al. 2020);
:func:`orchard_task` one ORCHARD variant with a test set per depth from 3 to 12, scored on the
first and the second tree; :func:`dbca_task` a point of the DBCA dial (:data:`DIAL_TARGETS`);
:func:`states_tre` the TRE of a model's representations of SCAN commands. :func:`run_task`
fits a fresh model from a factory and scores it; :func:`card_table` puts the runs of every task
and seed in one tidy table, each score with its model's fit and a 95% interval over seeds.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from tutorlib.card.contract import exact_match, fit_fresh, fitted, predict_checked
from tutorlib.checks import check_seed

Pair = tuple[str, str]
SCAN_SPLITS = ("simple", "length", "addprim_jump", "addprim_turn_left", "template_around_right",
               "mcd1")
ORCHARD_DEPTHS = tuple(range(3, 13))
# the DBCA dial's three points on the card: a near-random split, the middle, and the MCD split
# (None: as high a compound divergence as the search reaches)
DIAL_TARGETS = (0.0, 0.4, None)
PCFGSET_TESTS = ("pcfgset", "systematicity", "productivity", "substitutivity", "localism",
                 "overgeneralisation")
SCORERS = ("exact", "orchard", "consistency", "localism", "overgeneralisation")
# scores that are not fractions (the card keeps them as they are, not in percent)
UNSCALED = ("TRE",)
# the card's overgeneralisation split: its exceptions keep their share of the training pairs
OVERGENERALISATION_RATIO = 0.005
# the symbols a reduced PCFG SET corpus is folded onto (as the PCFG SET chapter's full profile)
REDUCED_ALPHABET = 26


@dataclass(frozen=True)
class Task:
    """What one model is fitted and scored on.

    Attributes
    ----------
    benchmark : str
        ``scan``, ``orchard``, ...
    name : str
        The split or variant.
    train, validation : list of (str, str)
        Training pairs and in-distribution validation pairs (held out of the training split).
    tests : dict of str to list of (str, str)
        Named test sets.
    scorer : {"exact", "orchard", "consistency", "localism", "overgeneralisation"}
        Exact match; ORCHARD's first and second tree (labels ``v1 , v2``); exact match and the
        consistency between the predictions for the tests ``originals`` and ``twins``
        (substitutivity); exact match and localism (the whole input's prediction against the
        model's step-by-step one); memorisation and overgeneralisation of the training
        exceptions (the tests ``exceptions``, with the exceptions' outputs, and ``rules``, the
        same inputs with the rules' outputs).
    representations : list of str
        Inputs whose representations the card measures with TRE (the validation inputs;
        :func:`derivation` gives each benchmark's derivations).
    """

    benchmark: str
    name: str
    train: list[Pair]
    validation: list[Pair]
    tests: dict[str, list[Pair]] = field(default_factory=dict)
    scorer: str = "exact"
    representations: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.scorer not in SCORERS:
            raise ValueError(f"scorer must be one of {', '.join(SCORERS)}, got {self.scorer!r}")
        if not self.train or not self.validation or not self.tests:
            raise ValueError(f"task {self.benchmark}/{self.name} needs training, validation "
                             f"and test pairs")
        if self.scorer == "consistency" and (
                set(self.tests) != {"originals", "twins"}
                or len(self.tests["originals"]) != len(self.tests["twins"])):
            raise ValueError("a consistency task needs the tests 'originals' and 'twins', "
                             "line-aligned")
        if self.scorer == "overgeneralisation" and (
                set(self.tests) != {"exceptions", "rules"}
                or [s for s, _ in self.tests["exceptions"]] != [s for s, _ in self.tests["rules"]]):
            raise ValueError("an overgeneralisation task needs the tests 'exceptions' and "
                             "'rules', with the same inputs in the same order")


def holdout(pairs: Sequence[Pair], size: int, seed: int = 0) -> tuple[list[Pair], list[Pair]]:
    """``pairs`` split into (the rest, ``size`` pairs drawn at random with ``seed``): the second
    part is in-distribution validation, never trained on. Only pairs that occur once are drawn:
    a pair a split repeats on purpose (SCAN's add-primitive splits repeat the primitive's one
    command, e.g. ``jump``) stays in training, and no validation pair is also a training pair.

    Parameters
    ----------
    pairs : sequence of (str, str)
        A training split.
    size : int
        Validation pairs, fewer than ``len(pairs)``.
    seed : int
        Seeds the draw.

    Returns
    -------
    tuple of (list, list)
        Training and validation pairs, each in the order of ``pairs``.
    """
    check_seed(seed)
    counts = Counter(pairs)
    once = [i for i, pair in enumerate(pairs) if counts[pair] == 1]
    if not 0 < size < len(once):
        raise ValueError(f"a validation set of {size} pairs needs more than {size} distinct "
                         f"pairs, got {len(once)}")
    chosen = set(random.Random(seed).sample(once, size))
    return ([p for i, p in enumerate(pairs) if i not in chosen],
            [p for i, p in enumerate(pairs) if i in chosen])


def _positions(count: int, size: int | None, seed: int) -> list[int]:
    """The positions, in order, of a seeded sample of ``size`` of ``count`` items (all if None)."""
    if size is not None and size < 1:
        raise ValueError(f"a sample size must be a positive number of pairs (or None: all), "
                         f"got {size}")
    if size is None or size >= count:
        return list(range(count))
    return sorted(random.Random(seed).sample(range(count), size))


def sample_pairs(pairs: Sequence[Pair], size: int | None, seed: int = 0) -> list[Pair]:
    """A seeded sample of ``size`` of ``pairs``, in their order (all of them if None or more
    than there are).

    Examples
    --------
    >>> sample_pairs([("a", "A"), ("b", "B"), ("c", "C")], 2, seed=0)
    [('b', 'B'), ('c', 'C')]
    """
    return [pairs[i] for i in _positions(len(pairs), size, seed)]


def scan_task(split: str, *, train_size: int | None = None, validation_size: int = 500,
              test_size: int | None = None, seed: int = 0) -> Task:
    """A SCAN split as a card task (``mcd1``: our first MCD split, computed once and cached).

    Parameters
    ----------
    split : str
        One of :data:`SCAN_SPLITS` (or any :func:`tutorlib.scan.split_names` name).
    train_size : int, optional
        Training pairs kept (a seeded sample; None: all).
    validation_size : int
        In-distribution validation pairs held out of the training split.
    test_size : int, optional
        Test pairs kept (a seeded sample; None: all).
    seed : int
        Seeds the samples.

    Returns
    -------
    Task
        Its ``representations`` are the validation commands (the card's TRE).
    """
    if split == "mcd1":
        from tutorlib.dbca.scan_splits import mcd_split_of_scan

        train, test = mcd_split_of_scan(0)
    else:
        from tutorlib import scan

        train, test = scan.split(split)
    train, validation = holdout(train, validation_size, seed)
    return Task("scan", split, sample_pairs(train, train_size, seed), validation,
                {split: sample_pairs(test, test_size, seed)},
                representations=[command for command, _ in validation])


def orchard_task(variant: str = "minmax_hard", *, train_size: int = 10_000,
                 validation_size: int = 500, test_size: int = 200,
                 depths: Sequence[int] = ORCHARD_DEPTHS, seed: int = 0) -> Task:
    """An ORCHARD variant as a card task: training and validation trees of depth 3-6, a test
    set per depth, targets as the model writes labels (``8 , 7``).

    Parameters
    ----------
    variant : str
        One of :func:`tutorlib.orchard.variant_names`.
    train_size, validation_size : int
        Training and validation examples (depths 3-6, the release's balanced draw).
    test_size : int
        Examples per depth.
    depths : sequence of int
        Test depths (3-12).
    seed : int
        The data seed.

    Returns
    -------
    Task
    """
    from tutorlib.orchard.experiments import depth_bin, model_pairs
    from tutorlib.orchard.generator import generate_part

    examples = model_pairs(generate_part(variant, "train", train_size + validation_size, seed))
    train, validation = holdout(examples, validation_size, seed)
    tests = {f"depth {d}": model_pairs(depth_bin(variant, d, test_size, seed)) for d in depths}
    return Task("orchard", variant, train, validation, tests, scorer="orchard",
                representations=[line for line, _ in validation])


def pcfgset_task(test: str, *, train_size: int | None = None, validation_size: int = 500,
                 test_size: int | None = None, seed: int = 0,
                 reduction: str | None = None, with_tests: Sequence[str] = ()) -> Task:
    """A PCFG SET test as a card task (Hupkes et al. 2020).

    ``pcfgset`` (the task accuracy), ``systematicity`` and ``productivity`` are scored by exact
    match; ``substitutivity`` (the equally distributed condition) by exact match on the test
    pairs and on their twins and by the consistency between the two predictions; ``localism``
    by exact match and by how often the model's prediction for a whole input equals its
    prediction computed step by step; ``overgeneralisation`` (exception ratio
    :data:`OVERGENERALISATION_RATIO`) by how many of the training exceptions the trained model
    reproduces (memorisation) and how many it answers by the rules instead (overgeneralisation).
    Hupkes et al. report the peak of overgeneralisation over training; the card measures it once,
    after training, so its value is a lower bound of that peak. A sample of the training pairs
    keeps the exceptions' share (at least one exception of each kind).

    Parameters
    ----------
    test : str
        One of :data:`PCFGSET_TESTS`.
    train_size : int, optional
        Training pairs kept (a seeded sample; None: all, about 82,000).
    validation_size : int
        In-distribution validation pairs held out of the training split.
    test_size : int, optional
        Test pairs kept (a seeded sample; None: all).
    seed : int
        Seeds the corpus and the samples.
    reduction : str, optional
        Build the test on a reduced corpus (:data:`tutorlib.pcfgset.REDUCTIONS`, e.g.
        ``"f3-o24"``) with its symbols folded onto :data:`REDUCED_ALPHABET`
        (:func:`tutorlib.pcfgset.experiments.fold_symbols`), as the PCFG SET chapter's full
        profile trains; None: the paper's corpus.
    with_tests : sequence of str
        Further tests scored on the same network, for tests whose training pairs are the
        task's own: on a reduced corpus, ``productivity`` and ``localism`` (the PCFG SET
        chapter's full profile scores them on its task network); only with ``test="pcfgset"``.

    Returns
    -------
    Task
    """
    from tutorlib import pcfgset
    from tutorlib.pcfgset.corpus import check_reduction

    if test not in PCFGSET_TESTS:
        raise ValueError(f"test must be one of {', '.join(PCFGSET_TESTS)}, got {test!r}")
    check_reduction(reduction)
    fold = _folding(reduction)
    with_tests = list(with_tests)
    if with_tests:
        return _shared_task(with_tests, train_size, validation_size, test_size, seed, reduction)
    if test == "overgeneralisation":
        return _overgeneralisation_task(train_size, validation_size, seed, reduction)
    if test == "substitutivity":
        split = pcfgset.substitutivity_split("equally_distributed", seed=seed,
                                             reduction=reduction)
        train, validation = holdout(fold(split.train), validation_size, seed)
        keep = _positions(len(split.test), test_size, seed)  # the same pairs and their twins
        return Task("pcfgset", test, sample_pairs(train, train_size, seed), validation,
                    {"originals": fold([split.test[i] for i in keep]),
                     "twins": fold([split.test_twin[i] for i in keep])}, scorer="consistency",
                    representations=[source for source, _ in validation])
    train, tests = pcfgset.split(test, seed=seed, reduction=reduction)
    train, tests = fold(train), fold(tests)
    train, validation = holdout(train, validation_size, seed)
    return Task("pcfgset", test, sample_pairs(train, train_size, seed), validation,
                {test: sample_pairs(tests, test_size, seed)},
                scorer="localism" if test == "localism" else "exact",
                representations=[source for source, _ in validation])


def _shared_task(with_tests: list[str], train_size: int | None, validation_size: int,
                 test_size: int | None, seed: int, reduction: str | None) -> Task:
    """The task split with further tests that train on exactly its pairs."""
    from tutorlib import pcfgset

    unknown = [t for t in with_tests if t not in ("productivity", "localism")]
    if unknown:
        raise ValueError(f"with_tests takes productivity and localism, got {unknown}")
    if reduction is None:  # the paper's productivity split trains on shorter inputs
        raise ValueError("productivity trains on other pairs than the task on the paper's "
                         "corpus: with_tests needs a reduction (e.g. 'f3-o24')")
    task = pcfgset_task("pcfgset", train_size=train_size, validation_size=validation_size,
                        test_size=test_size, seed=seed, reduction=reduction)
    fold = _folding(reduction)
    train, _ = pcfgset.split("pcfgset", seed=seed, reduction=reduction)
    tests = dict(task.tests)
    for name in with_tests:
        own_train, own_test = pcfgset.split(name, seed=seed, reduction=reduction)
        if own_train != train:
            raise ValueError(f"{name} trains on other pairs than the task on this corpus "
                             f"(reduction {reduction!r}): give it its own task")
        tests[name] = sample_pairs(fold(own_test), test_size, seed)
    return dataclasses.replace(task, tests=tests)


def _folding(reduction: str | None) -> Callable[[Sequence[Pair]], list[Pair]]:
    """What a reduced corpus's pairs go through before a network sees them: every symbol folded
    onto :data:`REDUCED_ALPHABET` (none for the paper's corpus)."""
    if reduction is None:
        return list
    from tutorlib.pcfgset.experiments import fold_symbols

    return lambda pairs: [(fold_symbols(s, REDUCED_ALPHABET), fold_symbols(t, REDUCED_ALPHABET))
                          for s, t in pairs]


def _overgeneralisation_task(train_size: int | None, validation_size: int, seed: int,
                             reduction: str | None = None) -> Task:
    from tutorlib import pcfgset

    fold = _folding(reduction)
    split = pcfgset.overgeneralisation_split(OVERGENERALISATION_RATIO, seed=seed,
                                             reduction=reduction)
    split = dataclasses.replace(split, train=fold(split.train), exceptions=fold(split.exceptions),
                                originals=fold(split.originals))
    exceptional = set(split.exceptions)
    regular, validation = holdout([p for p in split.train if p not in exceptional],
                                  validation_size, seed)
    kept = list(range(len(split.exceptions)))
    if train_size is not None and train_size < len(regular) + len(kept):
        share = len(kept) / (len(regular) + len(kept))
        by_kind: dict = {}
        for i, pattern in enumerate(split.patterns):
            by_kind.setdefault(pattern, []).append(i)
        rng = random.Random(seed)
        kept = sorted({rng.choice(indices) for indices in by_kind.values()}
                      | set(rng.sample(kept, max(0, round(share * train_size)
                                                 - len(by_kind)))))
        regular = sample_pairs(regular, train_size - len(kept), seed)
    exceptions = [split.exceptions[i] for i in kept]
    train = regular + exceptions
    random.Random(seed).shuffle(train)
    return Task("pcfgset", "overgeneralisation", train, validation,
                {"exceptions": exceptions, "rules": [split.originals[i] for i in kept]},
                scorer="overgeneralisation", representations=[source for source, _ in validation])


def dbca_task(compound_divergence: float | None, *, seed: int = 0, pool_size: int | None = None,
              validation_size: int = 500, test_size: int | None = None) -> Task:
    """A point of the DBCA dial as a card task: a split of SCAN (or of a ``pool_size`` subset)
    with atom divergence at most 0.02 and compound divergence near ``compound_divergence``
    (Keysers et al. 2020), computed once and cached.

    Parameters
    ----------
    compound_divergence : float in [0, 1] or None
        The target D_C; None for the MCD split (as high as the search reaches).
    seed : int
        Seeds the split's search and the samples.
    pool_size : int, optional
        Split a seeded subset of SCAN of this many commands (None: all of SCAN).
    validation_size : int
        In-distribution validation pairs held out of the training split.
    test_size : int, optional
        Test pairs kept (a seeded sample; None: all).

    Returns
    -------
    Task
        Named ``D_C <reached>`` (``<target>`` the name of the test set); its
        ``representations`` are the validation commands (the card's TRE).
    """
    from tutorlib.dbca.experiments import make_split

    if compound_divergence is not None and not 0 <= compound_divergence <= 1:
        raise ValueError(f"compound_divergence must be in [0, 1] or None (the MCD split), got "
                         f"{compound_divergence!r}")
    split = make_split(compound_divergence, seed, pool_size=pool_size)
    train, validation = holdout(split.train, validation_size, seed)
    target = "MCD" if compound_divergence is None else f"{compound_divergence:g}"
    return Task("dbca", f"D_C {split.compound_divergence:.2f}", train, validation,
                {f"target {target}": sample_pairs(split.test, test_size, seed)},
                representations=[command for command, _ in validation])


def _scores(task: Task, test: str, predictions: list[str], pairs: list[Pair]
            ) -> dict[str, float]:
    if task.scorer == "overgeneralisation":
        name = "memorisation" if test == "exceptions" else "overgeneralisation"
        return {name: exact_match(predictions, pairs)}
    if task.scorer == "orchard":
        from tutorlib.orchard.experiments import accuracies

        scored = accuracies(predictions, [(s, target.replace(" ", "")) for s, target in pairs])
        return {"first tree": scored["first"], "second tree": scored["second"]}
    return {"accuracy": exact_match(predictions, pairs)}


def run_task(factory: Callable[[], object], task: Task, *, seed: int, max_seconds: float,
             device: str = "cpu", model_name: str = "model") -> list[dict]:
    """Fit a fresh model on ``task`` and score it on each of its test sets.

    Parameters
    ----------
    factory : callable
        Returns a fresh model that meets the contract (:mod:`.contract`).
    task : Task
        What to fit and score.
    seed : int
        The training seed.
    max_seconds : float
        The training budget.
    device : str
        Where to train.
    model_name : str
        The model's name on the card.

    Returns
    -------
    list of dict
        One row per test set and score: ``model``, ``benchmark``, ``task``, ``test``,
        ``score``, ``value`` (a fraction; TRE as it is), ``seed``, ``train_accuracy``,
        ``validation_accuracy`` and ``fitted``. A task with ``representations`` and a model
        with ``states`` get a row ``TRE`` (test ``representations``): :func:`states_tre` of
        those inputs (additive, cosine).
    """
    if not model_name.strip():
        raise ValueError("model_name must be a non-empty name")
    model, fit = fit_fresh(factory, task.train, task.validation, seed=seed,
                           max_seconds=max_seconds, device=device)
    scores, predicted, by_sources = [], {}, {}
    for test, pairs in task.tests.items():
        sources = [source for source, _ in pairs]
        key = tuple(sources)  # tests on the same inputs (overgeneralisation's) decode them once
        if key not in by_sources:
            by_sources[key] = predict_checked(model, sources)
        predicted[test] = by_sources[key]
        scores += [(test, score, value)
                   for score, value in _scores(task, test, predicted[test], pairs).items()]
        if task.scorer == "localism" or (task.benchmark == "pcfgset" and test == "localism"):
            from tutorlib.pcfgset import localism_score, unrolled_predictions

            scores.append((test, "localism", localism_score(
                predicted[test], unrolled_predictions(
                    sources, lambda batch: predict_checked(model, batch)))))
    if task.scorer == "consistency":
        from tutorlib.pcfgset import consistency

        scores.append(("twins", "consistency",
                       consistency(predicted["originals"], predicted["twins"])))
    if task.representations and callable(getattr(model, "states", None)):
        scores.append(("representations", "TRE",
                       states_tre(model, task.representations, seed=seed,
                                  benchmark=task.benchmark)["tre"]))
    return [{"model": model_name, "benchmark": task.benchmark, "task": task.name, "test": test,
             "score": score,
             "value": value, "seed": seed, "train_accuracy": fit["train_accuracy"],
             "validation_accuracy": fit["validation_accuracy"], "fitted": fitted(fit)}
            for test, score, value in scores]


def card_table(rows: Sequence[dict]):
    """The card: a row per model, benchmark, task, test and score, with the mean over seeds, its
    95% t interval, the mean fit and whether every seed's model fitted (a score whose models did
    not all fit is not a comparison of generalisation).

    Parameters
    ----------
    rows : sequence of dict
        Rows of :func:`run_task`.

    Returns
    -------
    pandas.DataFrame
        Columns ``model``, ``benchmark``, ``task``, ``test``, ``score``, ``seeds``, ``mean``, ``low``,
        ``high`` (in percent; TRE as it is), ``train fit``, ``validation fit`` (in percent) and
        ``fitted``.
    """
    import pandas as pd

    from tutorlib.stats import mean_interval

    if not rows:
        raise ValueError("card_table needs at least one run's rows")
    frame = pd.DataFrame(list(rows))
    keys = ["model", "benchmark", "task", "test", "score"]
    out = []
    for key, group in frame.groupby(keys, sort=False):
        scale = 1 if key[-1] in UNSCALED else 100
        mean, low, high = mean_interval(list(scale * group["value"]))
        out.append({**dict(zip(keys, key)),
                    "seeds": len(group), "mean": mean, "low": low, "high": high,
                    "train fit": 100 * group["train_accuracy"].mean(),
                    "validation fit": 100 * group["validation_accuracy"].mean(),
                    "fitted": bool(group["fitted"].all())})
    return pd.DataFrame(out)


def _binary(tree):
    """A tree of words with nodes of any number of children, read left to right as binary
    compositions: ``(a, b, c)`` becomes ``((a, b), c)``."""
    if isinstance(tree, str):
        return tree
    parts = [_binary(part) for part in tree]
    folded = parts[0]
    for part in parts[1:]:
        folded = (folded, part)
    return folded


def command_derivation(command: str):
    """A SCAN command's derivation as TRE takes it: a primitive, or a pair of derivations.

    SCAN's parse has nodes of two and three children (``("jump", "opposite", "left")``,
    ``(x, "and", y)``); a node of three is read left to right as two binary compositions,
    ``(("jump", "opposite"), "left")`` and ``((x, "and"), y)``.

    Parameters
    ----------
    command : str
        A SCAN command.

    Returns
    -------
    str or tuple
        Nested pairs of words.

    Examples
    --------
    >>> command_derivation("jump twice and walk left")
    ((('jump', 'twice'), 'and'), ('walk', 'left'))
    """
    from tutorlib import scan

    return _binary(scan.parse(command))


def _orchard_derivation(line: str):
    from tutorlib import orchard

    first, second = orchard.parse(line)
    return (orchard.nested(first), "X", orchard.nested(second))


def derivation(benchmark: str, source: str):
    """An input's derivation as TRE takes it (nested pairs of words), for any benchmark of the
    card: SCAN's (and the DBCA dial's) commands by SCAN's grammar (:func:`command_derivation`);
    a PCFG SET input as its functions applied to their arguments, a string argument its symbols
    in order (``("echo", ("A1", "B1"))``); an ORCHARD input as its two trees either side of
    ``X``, an operator applied to its arguments, a number its digit (a COPY one word, ``COPY``).
    A node of more than two children is read left to right as binary compositions.

    Parameters
    ----------
    benchmark : {"scan", "dbca", "pcfgset", "orchard"}
        The input's benchmark.
    source : str
        The input.

    Returns
    -------
    str or tuple
        Nested pairs of words.

    Examples
    --------
    >>> derivation("pcfgset", "append A1 B1 , C1")
    (('append', ('A1', 'B1')), 'C1')
    >>> derivation("orchard", "[FIRST 7 2 ] X [LAST 3 ]")
    (((('FIRST', '7'), '2'), 'X'), ('LAST', '3'))
    """
    if benchmark in ("scan", "dbca"):
        return command_derivation(source)
    if benchmark == "pcfgset":
        from tutorlib import pcfgset

        return _binary(pcfgset.parse(source, synonyms=pcfgset.TWINS))
    if benchmark == "orchard":
        return _binary(_orchard_derivation(source))
    raise ValueError(f"unknown benchmark {benchmark!r}: scan, dbca, pcfgset or orchard")


def states_tre(model: object, commands: Sequence[str], *, composition: str = "additive",
               distance: str = "cosine", steps: int = 1000, seed: int = 0,
               benchmark: str = "scan") -> dict:
    """TRE (Andreas 2019) of a card model's representations of inputs (SCAN commands by
    default), with respect to the inputs' derivations (:func:`derivation`): how well one learned
    vector per word, composed along the derivation, reconstructs the model's vector for each
    input.

    Parameters
    ----------
    model : object
        A fitted card model with ``states(sources)`` (one vector per source), e.g.
        :class:`~tutorlib.card.Seq2SeqModel`.
    commands : sequence of str
        SCAN commands.
    composition, distance : str
        As in :func:`tutorlib.tre.tre` (``additive`` or ``linear``; ``cosine``, ``l1``, ``l2``).
    steps : int
        Optimisation steps of the TRE solver.
    seed : int
        The solver's seed.
    benchmark : str
        Whose inputs ``commands`` are (:func:`derivation`).

    Returns
    -------
    dict
        ``tre`` (the mean over commands), ``commands`` (how many) and ``composition`` and
        ``distance``.
    """
    from tutorlib import tre

    states = getattr(model, "states", None)
    if not callable(states):
        raise TypeError(f"TRE needs the model's representations: {type(model).__name__} has no "
                        f"states(sources) method")
    commands = list(commands)
    if len(commands) < 2:
        raise ValueError("TRE over fewer than two commands measures nothing")
    vectors = np.asarray(states(commands), dtype=np.float64)
    if vectors.ndim != 2 or len(vectors) != len(commands) or not np.isfinite(vectors).all():
        raise ValueError(f"{type(model).__name__}.states must return one finite vector per "
                         f"command, got shape {vectors.shape}")
    result = tre.tre(vectors, [derivation(benchmark, c) for c in commands], composition,
                     distance, steps=steps, seed=seed)
    return {"tre": float(result.value), "commands": len(commands), "composition": composition,
            "distance": distance}


def plot_card(table):
    """The card as a heat map: a row per task, test and score, a column per model, each cell the
    mean score over seeds (in %; TRE written out on grey, on its own scale); a cell whose models
    did not all fit is marked "not fitted" and hatched, since it compares nothing.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`card_table`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"plot_card needs card_table()'s DataFrame, got {type(table).__name__}")
    if len(table) == 0:
        raise ValueError("plot_card needs a card table with at least one row")
    label = table["benchmark"] + " " + table["task"] + ": " + table["test"] + " (" + table[
        "score"] + ")"
    score_of = dict(zip(label, table["score"]))
    rows = list(score_of)
    models = list(dict.fromkeys(table["model"]))
    means = np.full((len(rows), len(models)), np.nan)
    unfitted = np.zeros_like(means, dtype=bool)
    for (name, model), mean, ok in zip(zip(label, table["model"]), table["mean"], table["fitted"]):
        i, j = rows.index(name), models.index(model)
        means[i, j], unfitted[i, j] = mean, not ok
    fig, ax = plt.subplots(figsize=(min(12.0, 6.0 + 1.0 * len(models)), 1.2 + 0.32 * len(rows)),
                           layout="constrained")
    # scores on another scale than percent (TRE) are written out on grey, not coloured
    unscaled = np.array([score_of[row] in UNSCALED for row in rows])
    coloured = np.where(unscaled[:, None], np.nan, means)
    cmap = plt.get_cmap("viridis").with_extremes(bad="0.92")
    image = ax.imshow(np.ma.masked_invalid(coloured), vmin=0, vmax=100, cmap=cmap,
                      aspect="auto")
    for i in range(len(rows)):
        for j in range(len(models)):
            if np.isnan(means[i, j]):  # no run yet: a white cell
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, color="white"))
                continue
            text = (f"{means[i, j]:.3f}" if unscaled[i] else f"{means[i, j]:.0f}") + (
                "\nnot fitted" if unfitted[i, j] else "")
            dark = not unscaled[i] and means[i, j] < 60
            ax.text(j, i, text, ha="center", va="center", fontsize=7 if unfitted[i, j] else 9,
                    linespacing=0.9, color="white" if dark else "black")
            if unfitted[i, j]:
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="//",
                                           edgecolor="0.6", linewidth=0))
    ax.set_xticks(range(len(models)), models)
    ax.set_yticks(range(len(rows)), rows)
    ax.grid(False)
    ax.tick_params(axis="x", labelrotation=30)
    fig.colorbar(image, ax=ax, label="mean over seeds (%)")
    return fig


__all__ = ["DIAL_TARGETS", "ORCHARD_DEPTHS", "OVERGENERALISATION_RATIO", "PCFGSET_TESTS",
           "REDUCED_ALPHABET",
           "SCAN_SPLITS", "SCORERS", "UNSCALED", "Task",
           "card_table", "command_derivation", "dbca_task", "derivation", "holdout", "orchard_task",
           "pcfgset_task", "plot_card", "run_task", "sample_pairs", "scan_task", "states_tre"]
