from collections import Counter

import pytest

from tutorlib import pcfgset
from tutorlib.pcfgset.language import adjacent_pairs
from tutorlib.pcfgset.splits import ORIGINALS, exception_patterns, has_held_out_pair


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    # Generated once per session (base_corpus() caches it in memory), into a cache of its own.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TUTORLIB_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        return pcfgset.base_corpus(0)


@pytest.fixture(scope="module")
def substitutivity(data):
    return {c: pcfgset.substitutivity_split(c) for c in ("equally_distributed", "primitive")}


@pytest.fixture(scope="module")
def overgeneralisation(data):
    return {r: pcfgset.overgeneralisation_split(r) for r in pcfgset.OVERGENERALISATION_RATIOS}


def strings_of(source):
    return pcfgset.string_arguments(pcfgset.parse(source, synonyms=pcfgset.TWINS))


def test_split_names():
    assert pcfgset.split_names() == [
        "pcfgset", "systematicity", "productivity", "substitutivity_equally_distributed",
        "substitutivity_primitive", "localism", "overgeneralisation_0.0001",
        "overgeneralisation_0.0005", "overgeneralisation_0.001", "overgeneralisation_0.005"]


def test_unknown_names_and_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown PCFG SET split 'systematic'.*systematicity"):
        pcfgset.split("systematic")
    with pytest.raises(ValueError, match="unknown PCFG SET split 'overgeneralisation_0.01'"):
        pcfgset.split("overgeneralisation_0.01")
    with pytest.raises(ValueError, match="ratio must be one of"):
        pcfgset.overgeneralisation_split(0.01)
    with pytest.raises(ValueError, match="condition must be one of"):
        pcfgset.substitutivity_split("secondary")
    with pytest.raises(ValueError, match="seed='0' violates type hint"):
        pcfgset.split("pcfgset", seed="0")


def test_base_split_and_dev(data):
    train, test = pcfgset.split("pcfgset")
    assert (len(train), len(data.dev), len(test)) == (82_622, 4_860, 9_721)
    assert train == list(data.train) and test == list(data.test)
    assert pcfgset.split("localism") == (train, test)


def test_systematicity(data):
    train, test = pcfgset.split("systematicity")
    held_out = set(pcfgset.HELD_OUT_PAIRS)
    assert all(adjacent_pairs(s).isdisjoint(held_out) for s, _ in train)
    assert all(adjacent_pairs(s) & held_out for s, _ in test)
    assert len(train) + len(test) == len(data.pairs) and set(train) | set(test) == set(data.pairs)
    assert {p for s, _ in test for p in adjacent_pairs(s) & held_out} == held_out
    assert 0.05 < len(test) / len(data.pairs) < 0.2
    # in the pairs, the second function is the first argument of the first
    assert ("append", "remove_second") in adjacent_pairs("append remove_second A1 , B1 , C1")
    assert ("append", "remove_second") not in adjacent_pairs("append A1 , remove_second B1 , C1")


@pytest.mark.slow
def test_productivity(data):
    train, test = pcfgset.split("productivity")
    assert all(pcfgset.num_functions(s) <= 8 for s, _ in train)
    assert all(pcfgset.num_functions(s) >= 9 for s, _ in test)
    assert len(train) + len(test) == len(data.pairs) and set(train) | set(test) == set(data.pairs)
    assert len(test) > 5_000
    assert max(len(s.split()) for s, _ in test) > max(len(s.split()) for s, _ in train)


def test_substitutivity_test_pairs_are_twins(data, substitutivity):
    base_test = list(data.test)
    for result in substitutivity.values():
        assert len(result.test) == len(result.test_twin) == len(result.functions)
        expected = sum(1 for f in ORIGINALS for s, _ in base_test if f in s.split())
        assert len(result.test) == expected
        for (source, target), (twin, twin_target), function in zip(
                result.test, result.test_twin, result.functions, strict=True):
            assert target == twin_target
            assert function in source.split() and "_twin" not in source
            assert twin == " ".join(ORIGINALS[function] if t == function else t
                                    for t in source.split())
            assert function not in twin.split()
        assert set(result.test) <= set(base_test)
    # the test sets do not depend on the condition
    assert substitutivity["primitive"].test == substitutivity["equally_distributed"].test
    sample = substitutivity["primitive"].test_twin[:300]
    assert all(" ".join(pcfgset.interpret(s, synonyms=pcfgset.TWINS)) == t for s, t in sample)


def test_substitutivity_equally_distributed(data, substitutivity):
    train = substitutivity["equally_distributed"].train
    assert len(train) == len(data.train)
    restored = [(" ".join(pcfgset.TWINS.get(t, t) for t in s.split()), o) for s, o in train]
    assert restored == list(data.train)
    tokens = Counter(t for s, _ in train for t in s.split())
    for original, twin in ORIGINALS.items():
        share = tokens[twin] / (tokens[twin] + tokens[original])
        assert share == pytest.approx(0.5, abs=0.02)


@pytest.mark.slow
def test_substitutivity_primitive(data, substitutivity):
    train = substitutivity["primitive"].train
    with_twins = [(s, t) for s, t in train if any(w in s.split() for w in pcfgset.TWINS)]
    assert Counter(train) - Counter(with_twins) == Counter(data.train)
    assert all(pcfgset.num_functions(s) == 1 for s, _ in with_twins)
    single = Counter(s.split()[0] for s, _ in data.train if pcfgset.num_functions(s) == 1)
    added = Counter(pcfgset.TWINS[s.split()[0]] for s, _ in with_twins)
    assert added == {f: single[f] for f in ORIGINALS}
    assert all(" ".join(pcfgset.interpret(s, synonyms=pcfgset.TWINS)) == t for s, t in with_twins)
    new = Counter(x for s, _ in with_twins for x in strings_of(s))
    assert max(new.values()) == 1 and not set(new) & data.strings


def test_localism_steps(data):
    _, test = pcfgset.split("localism")
    for source, target in test[:500]:
        steps = pcfgset.unroll(source)
        assert len(steps) == pcfgset.num_functions(source)
        assert all(pcfgset.num_functions(step) == 1 for step in steps)
        outputs: list[str] = []
        for step in steps:
            outputs.append(" ".join(pcfgset.interpret(pcfgset.substitute(step, outputs))))
        assert outputs[-1] == target


@pytest.mark.slow
def test_overgeneralisation_training_sets(data, overgeneralisation):
    base = [p for p in data.train if not exception_patterns(p[0])]
    for ratio, result in overgeneralisation.items():
        assert pcfgset.split(f"overgeneralisation_{ratio}") == (result.train, result.exceptions)
        assert Counter(result.train) == Counter(base) + Counter(result.exceptions)
        exceptional = [s for s, _ in result.train if exception_patterns(s)]
        assert sorted(exceptional) == sorted(s for s, _ in result.exceptions)
        assert not set(result.originals) & set(result.train)


def test_overgeneralisation_exceptions(data, overgeneralisation):
    occurrences = Counter(t for s, _ in data.train for t in s.split())
    for ratio, result in overgeneralisation.items():
        counts = Counter(result.patterns)
        for pattern in pcfgset.EXCEPTIONS:
            assert counts[pattern] == max(1, round(ratio * min(occurrences[f] for f in pattern)))
            assert counts[pattern] >= 4 if ratio >= 0.0005 else counts[pattern] >= 1
            sources = [s for (s, _), p in zip(result.exceptions, result.patterns, strict=True)
                       if p == pattern]
            bare = [s for (s, _), p, b in zip(result.exceptions, result.patterns, result.primitive,
                                              strict=True) if p == pattern and b]
            assert len(bare) == (len(sources) + 1) // 2  # half, rounded up, are bare exceptions
            assert all(pcfgset.num_functions(s) == 2 for s in bare)
            assert all(exception_patterns(s) == {pattern} for s in sources)
        for (source, exception), (same, original) in zip(result.exceptions, result.originals,
                                                          strict=True):
            assert source == same
            assert exception == " ".join(pcfgset.interpret(source, exceptions=True))
            assert original == " ".join(pcfgset.interpret(source))
            assert exception != original  # an exception that changes nothing teaches nothing
    sizes = [len(overgeneralisation[r].exceptions) for r in pcfgset.OVERGENERALISATION_RATIOS]
    assert sizes == sorted(sizes) and sizes[0] >= 4
    ratios = pcfgset.OVERGENERALISATION_RATIOS
    for small, large in zip(ratios, ratios[1:], strict=False):
        smaller, larger = overgeneralisation[small], overgeneralisation[large]
        assert set(smaller.exceptions) <= set(larger.exceptions)


def test_added_strings_are_new(data, overgeneralisation):
    result = overgeneralisation[0.005]
    bare = [s for (s, _), b in zip(result.exceptions, result.primitive, strict=True) if b]
    new = Counter(x for s in bare for x in strings_of(s))
    assert max(new.values()) == 1 and not set(new) & data.strings


@pytest.mark.slow
def test_splits_are_deterministic_and_return_fresh_lists(data):
    first = pcfgset.substitutivity_split("equally_distributed")
    first.train.clear()
    assert pcfgset.substitutivity_split("equally_distributed").train  # the cache is untouched
    train, _ = pcfgset.split("systematicity")
    train.clear()
    assert pcfgset.split("systematicity") == pcfgset.split("systematicity", seed=0)
    assert pcfgset.split("systematicity")[0]


# ---------------------------------------------------------------------------------------------
# The reduction (issue 48): every split built on a smaller corpus the way it is on the paper's


@pytest.fixture(scope="module")
def reduced(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TUTORLIB_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        return pcfgset.base_corpus(0, reduction="f3-o24")


def test_the_reduced_corpus_has_its_sizes_and_limits(reduced):
    spec = pcfgset.corpus.REDUCTIONS["f3-o24"]
    assert (len(reduced.train), len(reduced.dev), len(reduced.test)) == (49_300, 2_900, 5_800)
    assert sum((len(reduced.train), len(reduced.dev), len(reduced.test))) == spec.pairs
    counts = Counter(pcfgset.num_functions(s) for s, _ in reduced.pairs)
    assert set(counts) == {1, 2, 3} and counts[3] > counts[2] > counts[1]
    assert max(len(t.split()) for _, t in reduced.pairs) <= spec.max_output_length
    for source, target in reduced.train[:200]:
        assert target == " ".join(pcfgset.interpret(source))
    every = [x for s, _ in reduced.pairs for x in strings_of(s)]
    assert len(every) == len(set(every))  # as in the paper's corpus, no string repeats
    assert pcfgset.split("pcfgset", reduction="f3-o24") == (list(reduced.train),
                                                             list(reduced.test))


def test_reduced_productivity_tests_more_functions_than_any_training_input(reduced):
    train, test = pcfgset.split("productivity", reduction="f3-o24")
    assert train == list(reduced.train)  # the task's network is the productivity test's
    counts = Counter(pcfgset.num_functions(s) for s, _ in test)
    assert counts == {4: 1_000, 5: 1_000}
    assert max(pcfgset.num_functions(s) for s, _ in train) == 3
    assert all(t == " ".join(pcfgset.interpret(s)) and len(t.split()) <= 24 for s, t in test)
    new = [x for s, _ in test for x in strings_of(s)]
    assert not set(new) & reduced.strings
    assert not {s for s, _ in test} & {s for s, _ in reduced.pairs}


def test_reduced_tests_keep_what_each_test_tests(reduced):
    train, test = pcfgset.split("systematicity", reduction="f3-o24")
    assert len(test) > 1_000 and all(has_held_out_pair(s) for s, _ in test)
    assert not any(has_held_out_pair(s) for s, _ in train)
    for condition in ("equally_distributed", "primitive"):
        result = pcfgset.substitutivity_split(condition, reduction="f3-o24")
        assert len(result.test) == len(result.test_twin) > 1_000
        assert all(a[1] == b[1] and a[0] != b[0] for a, b in zip(result.test, result.test_twin,
                                                                 strict=True))
        twins_in_training = [s for s, _ in result.train if any(t in s.split()
                                                                for t in pcfgset.TWINS)]
        assert twins_in_training
        if condition == "primitive":
            assert all(pcfgset.num_functions(s) == 1 for s in twins_in_training)
    sizes = []
    for ratio in pcfgset.OVERGENERALISATION_RATIOS:
        result = pcfgset.overgeneralisation_split(ratio, reduction="f3-o24")
        assert all(e[1] != o[1] for e, o in zip(result.exceptions, result.originals, strict=True))
        assert set(result.exceptions) <= set(result.train)
        sizes.append(len(result.exceptions))
    assert sizes == sorted(sizes) and sizes[0] >= 4 and sizes[2] >= 40
    with pytest.raises(ValueError, match="unknown PCFG SET reduction 'f3'.*f3-o24"):
        pcfgset.split("pcfgset", reduction="f3")


@pytest.mark.slow
def test_the_reduction_table_counts_each_split_at_both_sizes(data, reduced):
    from tutorlib.pcfgset import report

    table = report.reduction_table("f3-o24")
    assert list(table.index) == pcfgset.split_names()
    train, test = pcfgset.split("systematicity", reduction="f3-o24")
    assert table.loc["systematicity", "training pairs (reduced)"] == len(train)
    assert table.loc["systematicity", "test pairs (reduced)"] == len(test)
    assert table.loc["pcfgset", "training pairs (paper's size)"] == pcfgset.NUM_TRAIN
    assert (table["training pairs (reduced)"] < table["training pairs (paper's size)"]).all()
