"""The generated stand-in for Lake & Baroni's (2018) Experiment 4 (tutorlib.scan.translation)."""

import pytest

from tutorlib import profiles
from tutorlib.scan import translation as tr


@pytest.mark.parametrize("english, french", [
    ("I am tired", "je suis fatigué"),
    ("you are not tired", "tu n' es pas fatigué"),
    ("he is not very happy today", "il n' est pas très heureux aujourd'hui"),
    ("I am never angry at home", "je ne suis jamais fâché à la maison"),
    ("he is a little sad too", "il est un peu triste aussi"),
    ("I am daxy", "je suis daxiste"),
])
def test_translations_by_hand(english, french):
    assert tr.translate(english) == french


def test_the_eight_test_constructions_are_the_papers():
    daxy = tr.sentences("daxy")
    assert [e for e, _ in daxy] == [
        "you are daxy", "he is daxy", "I am not daxy", "you are not daxy", "he is not daxy",
        "I am very daxy", "you are very daxy", "he is very daxy"]
    assert daxy[3] == ("you are not daxy", "tu n' es pas daxiste")


@pytest.mark.slow
def test_corpus_sizes_split_and_held_out_constructions():
    train, test = tr.corpus(0)
    assert len(train) == 10_000 and len(test) == 1_180
    assert len(set(train) | set(test)) == 11_180  # distinct, and train and test disjoint
    assert len(tr.ADJECTIVES) == 100 and len({a for a, _ in tr.ADJECTIVES}) == 100
    held_out = {e for word in ("daxy", "tired") for e, _ in tr.sentences(word)}
    assert not held_out & {e for e, _ in [*train, *test]}
    assert not any("daxy" in e.split() for e, _ in [*train, *test])
    pairs = tr.training_pairs(0)
    assert len(pairs) == 11_000
    assert pairs.count(("I am daxy", "je suis daxiste")) == 1_000
    # Zipf: the first adjective is far more frequent than the last
    count = {a: sum(a in e.split() for e, _ in train) for a in ("tired", "injured")}
    assert count["tired"] > 4 * count["injured"] > 0
    assert tr.corpus(0) == tr.corpus(0) and tr.corpus(1) != tr.corpus(0)


def test_bad_sentences_are_refused():
    with pytest.raises(ValueError, match="does not start with"):
        tr.translate("we are tired")
    with pytest.raises(ValueError, match="cannot read 'I am blorpy'"):
        tr.translate("I am blorpy")


@pytest.mark.slow
def test_ci_run_scores_every_construction(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTORLIB_CACHE_DIR", str(tmp_path))
    settings = profiles.settings("scan_translation", "ci")
    result = tr.run(tr.run_settings(settings), 0)
    for word in ("daxy", "tired"):
        assert result[word]["of"] == 8 and len(result[word]["predictions"]) == 8
        # a right translation contains the adjective's French
        assert 0 <= result[word]["right"] <= result[word]["word used"] <= 8
    assert result["test"]["of"] == 1_180
    assert result["I am daxy"] in (0, 1)
    assert result == tr.run(tr.run_settings(settings), 0)  # from the cache
