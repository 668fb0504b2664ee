import pytest

from tutorlib import profiles


def test_every_experiment_defines_every_profile_as_one_frozen_dataclass():
    import dataclasses

    for name in profiles.experiments():
        by_profile = [profiles.settings(name, p) for p in profiles.PROFILES]
        assert len({type(s) for s in by_profile}) == 1, name
        assert all(dataclasses.is_dataclass(s) and isinstance(s, profiles.Settings)
                   for s in by_profile), name
        with pytest.raises(dataclasses.FrozenInstanceError):
            by_profile[0].seeds = []  # noqa: B010 - frozen: settings change only in the source
        assert set(by_profile[0]) == set(by_profile[0].to_dict()), name


def test_settings_read_like_a_mapping_and_say_what_is_missing():
    scan = profiles.settings("scan", "full")
    assert scan["recipe"]["presentations"] == scan.recipe["presentations"] == 256_000
    assert "seeds" in scan and scan.get("nope", 3) == 3
    with pytest.raises(KeyError, match="no setting 'nope'.*recipe"):
        scan["nope"]


def test_every_runnable_experiment_has_an_experiment_definition():
    from tutorlib import cli, results

    assert sorted(cli.EXPERIMENTS) == sorted(profiles.RUNNABLE)
    for name in profiles.RUNNABLE:
        assert results.experiment(name).name == name


def test_ci_is_smallest_and_full_largest():
    ci, tutorial, full = (profiles.settings("compositionality", p) for p in profiles.PROFILES)
    assert ci["num_splits"] < tutorial["num_splits"] < full["num_splits"]


def test_the_profiles_are_named_once_and_an_old_name_is_refused():
    """The book says "published" for a paper's numbers and "full" for our large runs; the full
    profile's old name, "paper", is gone (0.2.0) and refused with the names there are."""
    from tutorlib import results

    assert profiles.PROFILES == ("ci", "tutorial", "full")
    assert results.committed("scan")["provenance"]["profile"] == "full"
    with pytest.raises(ValueError, match="unknown profile 'paper': expected one of ci, "
                                         "tutorial, full, gpu"):
        profiles.settings("scan", "paper")


def test_settings_are_a_copy():
    first = profiles.settings("compositionality", "ci")
    first["irregular_fractions"].append(42)
    assert 42 not in profiles.settings("compositionality", "ci")["irregular_fractions"]


def test_unknown_names_raise():
    with pytest.raises(ValueError, match="unknown profile 'fast'.*ci, tutorial, full"):
        profiles.settings("compositionality", "fast")
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        profiles.settings("nope", "ci")


def test_the_gpu_profile_exists_only_where_a_sweep_was_prepared():
    assert profiles.has_profile("pcfgset", "gpu") and profiles.has_profile("orchard", "gpu")
    assert not profiles.has_profile("scan", "gpu")
    assert profiles.check_profile("gpu") == "gpu"
    with pytest.raises(ValueError, match="scan has no 'gpu' profile.*exists for: "
                                         "orchard, pcfgset"):
        profiles.settings("scan", "gpu")
    with pytest.raises(ValueError, match="unknown profile 'gpus'"):
        profiles.has_profile("pcfgset", "gpus")
