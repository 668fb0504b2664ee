import hashlib
from collections import Counter

import pytest

from tutorlib import pcfgset
from tutorlib.pcfgset.corpus import StringSource, _quotas


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    # Generated once per session (base_corpus() caches it in memory), into a cache of its own.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TUTORLIB_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        return pcfgset.base_corpus(0)


@pytest.fixture(scope="module")
def shape(data):
    return pcfgset.statistics(data.pairs)


@pytest.mark.slow
def test_sizes_are_the_papers(data):
    assert (len(data.train), len(data.dev), len(data.test)) == (82_622, 4_860, 9_721)
    assert pcfgset.NUM_PAIRS == 97_203 == len(data.pairs)


def test_pairs_are_distinct_and_the_parts_disjoint(data):
    sources = [s for s, _ in data.pairs]
    assert len(set(sources)) == len(sources)
    train, dev, test = ({s for s, _ in part} for part in (data.train, data.dev, data.test))
    assert not (train & dev) and not (train & test) and not (dev & test)


SYMBOLS = frozenset(pcfgset.ALPHABET)


def string_arguments(source):
    """The runs of symbols in an input: a faster reading than parsing, checked against it."""
    runs, run = [], []
    for token in source.split() + [","]:
        if token in SYMBOLS:
            run.append(token)
        elif run:
            runs.append(tuple(run))
            run = []
    return runs


@pytest.mark.slow
def test_no_string_argument_repeats(data):
    for source, _ in data.dev:
        assert string_arguments(source) == pcfgset.string_arguments(pcfgset.parse(source))
    seen = Counter(s for source, _ in data.pairs for s in string_arguments(source))
    assert seen.most_common(1)[0][1] == 1
    assert set(seen) <= data.strings


@pytest.mark.slow
def test_every_output_is_the_interpretation_of_its_input(data):
    sample = data.pairs[::3]  # a third of the corpus keeps the test fast
    assert all(" ".join(pcfgset.interpret(source)) == target for source, target in sample)


@pytest.mark.slow
def test_the_depth_distribution_matches_the_target(shape):
    fractions = shape.fractions("depth", top=11)
    for depth, target in pcfgset.TARGET_DEPTH.items():
        assert fractions[depth] == pytest.approx(target, abs=6e-5)  # quotas: exact up to rounding
    assert min(shape.depth) == 1 and max(shape.depth) <= 17


def test_the_lengths_are_close_to_the_published_corpus(shape):
    published = pcfgset.PUBLISHED_STATISTICS
    length = shape.summary("input_length")
    assert length["min"] == 3 and length["max"] <= 71
    assert abs(length["median"] - published["input_length"]["median"]) <= 1
    assert abs(length["mean"] - published["input_length"]["mean"]) <= 1
    functions = shape.summary("num_functions")
    assert functions["min"] == 1 and functions["median"] == 4 and functions["max"] <= 30
    output = shape.summary("output_length")
    assert output["min"] == 2 and abs(output["median"] - 8) <= 1
    strings = shape.fractions("string_argument_length")
    for n, target in published["string_argument_length"]["fractions"].items():
        assert strings[n] == pytest.approx(target, abs=0.01)


def test_the_corpus_is_the_same_in_every_run(data):
    # A fingerprint of the first 100 training pairs of seed 0: if the generator changes on
    # purpose, bump CACHE_FORMAT (the on-disk cache's key) and this number.
    text = "\n".join(f"{s}\t{t}" for s, t in data.train[:100])
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == FINGERPRINT


FINGERPRINT = "a399b80cf326b567"


def test_sampler_is_deterministic_and_seeded():
    first = pcfgset.sample_inputs(300, seed=3)
    assert first == pcfgset.sample_inputs(300, seed=3)
    assert first != pcfgset.sample_inputs(300, seed=4)


def test_sampler_fills_the_depth_quotas_exactly():
    trees = pcfgset.sample_inputs(2_000, seed=1)
    counts = Counter(min(pcfgset.depth(t), 11) for t in trees)
    assert dict(counts) == _quotas(2_000, pcfgset.TARGET_DEPTH)
    assert sum(_quotas(2_000, pcfgset.TARGET_DEPTH).values()) == 2_000
    settings = pcfgset.SamplerSettings()
    for tree in trees:
        source = pcfgset.format_input(tree)
        assert len(source.split()) <= settings.max_input_length
        assert pcfgset.num_functions(source) <= settings.max_functions


def test_sampler_takes_other_targets_and_settings():
    trees = pcfgset.sample_inputs(200, seed=0, target_depth={1: 0.5, 2: 0.5},
                                  settings=pcfgset.SamplerSettings(binary_probability=1.0))
    # the last key pools every deeper input
    assert Counter(min(pcfgset.depth(t), 2) for t in trees) == {1: 100, 2: 100}
    assert all(t[0] in pcfgset.BINARY for t in trees)
    with pytest.raises(ValueError, match="binary_probability"):
        pcfgset.SamplerSettings(binary_probability=1.5)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        pcfgset.sample_inputs(0)


def test_string_source_never_repeats_and_says_when_it_runs_out():
    import random

    strings = StringSource(random.Random(0), symbols=("A1", "B1"), lengths=((2, 1.0),))
    drawn = {strings.draw() for _ in range(4)}
    assert len(drawn) == 4  # all of A1 A1, A1 B1, B1 A1, B1 B1
    with pytest.raises(ValueError, match="could not find an unused string argument of length 2"):
        strings.draw()


def test_published_statistics_are_kept_for_the_chapter():
    published = pcfgset.PUBLISHED_STATISTICS
    assert sum(published["depth"]["fractions"].values()) == pytest.approx(1.0)
    assert published["input_length"] == {"min": 3, "median": 16, "mean": 18.5, "max": 71}


def test_a_smaller_alphabet():
    settings = pcfgset.SamplerSettings(letters=3, numbers=30)
    trees = pcfgset.sample_inputs(100, seed=0, settings=settings)
    pairs = [(pcfgset.format_input(t), " ".join(pcfgset.evaluate(t))) for t in trees]
    used = {x for t in trees for s in pcfgset.string_arguments(t) for x in s}
    assert used <= set(settings.symbols) and any(x.endswith("30") for x in used)
    with pytest.raises(ValueError, match="unknown token"):
        pcfgset.statistics(pairs)
    assert sum(pcfgset.statistics(pairs, symbols=settings.symbols).depth.values()) == 100
