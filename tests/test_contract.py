"""The package's contracts, checked over everything at once (after scikit-learn's
``check_estimator``): every registered experiment keeps the experiment contract, the registry
is the one list of experiments, and every exported function documents its parameters (the
import graph's checks are in test_package.py)."""

import dataclasses
import json
from pathlib import Path

import pytest

import tutorlib
from tutorlib import cli, profiles, registry, results
from tutorlib.profiles import Settings

PACKAGE = Path(tutorlib.__file__).parent


def check_experiment(name: str, monkeypatch) -> None:
    """The contract of one registered experiment (see :mod:`tutorlib.registry`)."""
    module = registry.module(name)
    table = module.SETTINGS
    assert {"ci", "tutorial", "full"} <= set(table), name
    assert set(table) <= {*profiles.PROFILES, *profiles.EXTRA_PROFILES}, name
    for profile, settings in table.items():
        assert isinstance(settings, Settings), (name, profile)
        assert json.loads(json.dumps(settings.to_dict())) == settings.to_dict(), (name, profile)
        with pytest.raises(dataclasses.FrozenInstanceError):
            settings.seeds = []
    if not registry.entry(name).runnable:
        assert not hasattr(module, "EXPERIMENT"), f"{name} runs: register it as runnable"
        return
    spec = module.EXPERIMENT
    assert isinstance(spec, results.Experiment) and spec.name == name
    for profile in table:
        pairs = spec.runs(profiles.settings(name, profile))
        assert pairs, (name, profile)
        keys = set()
        for run_settings, seed in pairs:
            assert isinstance(run_settings, dict) and isinstance(seed, int), (name, profile)
            assert json.loads(json.dumps(run_settings)) == run_settings, (name, profile)
            keys.add(results.run_key(name, run_settings, seed))
            assert isinstance(spec.part(run_settings, seed), str)
        assert len(keys) == len(pairs), f"{name} at {profile}: two runs share a key"
    # a run asked for a device this machine cannot have fails before any work
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    run_settings, seed = spec.runs(profiles.settings(name, "ci"))[0]
    with pytest.raises(ValueError, match="no CUDA GPU"):
        spec.run(run_settings, seed, device="cuda")
    with pytest.raises(ValueError, match="device"):
        spec.run(run_settings, seed, device="nope")


@pytest.mark.parametrize("name", registry.names())
@pytest.mark.slow
def test_every_registered_experiment_keeps_the_contract(name, monkeypatch):
    check_experiment(name, monkeypatch)


def test_a_new_version_keeps_every_committed_run(monkeypatch):
    """Every record under results/<name>/runs/ is found by the key of one of its experiment's
    runs at some profile, whatever tutorlib's version (the one exception: tre_dynamics keeps
    the runs of its earlier 60-epoch full profile, summarised in FULL_60_EPOCHS)."""
    from tutorlib.tre import dynamics

    monkeypatch.setattr(tutorlib, "__version__", "99.0.0")
    monkeypatch.setattr(results, "__version__", "99.0.0")
    total = 0
    for name in registry.names(runnable=True):
        spec = results.experiment(name)
        store = results.RunStore(results.project_results(name, "runs"), name)
        committed = set(store.directory.glob("*.json")) if store.directory.exists() else set()
        found = {store.path(s, seed) for profile in registry.module(name).SETTINGS
                 for s, seed in spec.runs(profiles.settings(name, profile)) if store.has(s, seed)}
        assert found <= committed
        missing = committed - found
        if name == "tre_dynamics":
            long_runs = dynamics.committed_results(long=True)["data"]["runs"]
            assert len(missing) == len(long_runs), name
        else:
            assert not missing, f"{name}: {len(missing)} committed runs no profile finds"
        total += len(found)
    assert total >= 440  # the committed full-profile and gpu runs


def test_the_registry_is_the_one_list_of_experiments():
    assert list(cli.EXPERIMENTS) == registry.names(runnable=True)
    assert profiles.RUNNABLE == tuple(registry.names(runnable=True))
    assert profiles.experiments() == registry.names()
    assert {name: entry.module for name, entry in registry.EXPERIMENTS.items()} == profiles.SOURCES
    with pytest.raises(ValueError, match="unknown experiment 'scna': expected one of "
                                         "card, compositionality, dbca"):
        registry.entry("scna")
    with pytest.raises(ValueError, match="unknown experiment"):
        results.experiment("tre_intro")  # settings only: nothing to run


# Every subpackage's exported functions carry numpydoc Parameters/Returns sections.
NUMPYDOC_DONE = ("tutorlib.seq2seq", "tutorlib.tre", "tutorlib.scan", "tutorlib.dbca",
                 "tutorlib.pcfgset", "tutorlib.orchard")


@pytest.mark.parametrize("package", NUMPYDOC_DONE)
def test_exported_functions_say_their_parameters_and_returns(package):
    import importlib
    import inspect

    module = importlib.import_module(package)
    lacking = []
    for name in module.__all__:
        function = getattr(module, name)
        if not inspect.isfunction(function):
            continue
        doc = inspect.getdoc(function) or ""
        parameters = [p for p in inspect.signature(function).parameters if p != "self"]
        if parameters and "Parameters\n----------" not in doc:
            lacking.append(f"{name}: Parameters")
        if not any(s in doc for s in ("Returns\n-------", "Yields\n------")):
            lacking.append(f"{name}: Returns")
    assert lacking == []
