import pytest

from tutorlib import profiles


def test_every_experiment_defines_every_profile_with_the_same_keys():
    for name, by_profile in profiles.SETTINGS.items():
        assert set(by_profile) == set(profiles.PROFILES), name
        keys = [set(settings) for settings in by_profile.values()]
        assert all(k == keys[0] for k in keys), name


def test_ci_is_smallest_and_paper_largest():
    ci, tutorial, paper = (profiles.settings("compositionality", p) for p in profiles.PROFILES)
    assert ci["num_splits"] < tutorial["num_splits"] < paper["num_splits"]


def test_settings_are_a_copy():
    first = profiles.settings("compositionality", "ci")
    first["irregular_fractions"].append(42)
    assert 42 not in profiles.settings("compositionality", "ci")["irregular_fractions"]


def test_unknown_names_raise():
    with pytest.raises(ValueError, match="unknown profile 'fast'.*ci, tutorial, paper"):
        profiles.settings("compositionality", "fast")
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        profiles.settings("nope", "ci")
