import json
import os

import pytest

from tutorlib import __version__, results


def test_write_and_read_with_provenance(tmp_path):
    path = results.write_results(tmp_path / "r" / "exp.json", {"accuracy": [0.5, 0.75]},
                                 profile="paper", seeds=range(3), wall_time=12.34567,
                                 command="python -m tutorlib run exp")
    record = results.read_results(path)
    assert record["data"] == {"accuracy": [0.5, 0.75]}
    prov = record["provenance"]
    assert set(results.PROVENANCE_KEYS) <= set(prov)
    assert prov["command"] == "python -m tutorlib run exp"
    assert prov["profile"] == "paper"
    assert prov["seeds"] == [0, 1, 2]
    assert prov["tutorlib_version"] == __version__
    assert prov["wall_time_seconds"] == 12.346
    assert prov["cpu_count"] == os.cpu_count()
    assert prov["date"][:4].isdigit()
    # inside this repository the commit is known (40 hex digits)
    assert prov["git_commit"] is None or len(prov["git_commit"]) == 40


def test_bad_input_is_named(tmp_path):
    with pytest.raises(ValueError, match="unknown profile"):
        results.write_results(tmp_path / "x.json", {}, profile="big", seeds=[0], wall_time=1)
    with pytest.raises(ValueError, match="finite"):
        results.write_results(tmp_path / "x.json", {"a": float("nan")}, profile="ci", seeds=[0],
                              wall_time=1)
    with pytest.raises(ValueError, match="wall_time"):
        results.write_results(tmp_path / "x.json", {}, profile="ci", seeds=[0], wall_time=-1)
    (tmp_path / "plain.json").write_text(json.dumps({"accuracy": 1}))
    with pytest.raises(ValueError, match="not a results file"):
        results.read_results(tmp_path / "plain.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ValueError, match="not valid JSON"):
        results.read_results(tmp_path / "broken.json")
    with pytest.raises(FileNotFoundError, match="no results file"):
        results.read_results(tmp_path / "absent.json")


def test_resumable_run_keeps_finished_work(tmp_path):
    store = results.RunStore(tmp_path / "runs")
    calls = []

    def run(config, seed):
        calls.append((config["size"], seed))
        if len(calls) == 3:
            raise KeyboardInterrupt  # the run is stopped during its third job
        return config["size"] * 10 + seed

    configs = [{"size": 1}, {"size": 2}]
    with pytest.raises(KeyboardInterrupt):
        results.run_resumable(store, configs, [0, 1], run, progress=False)
    assert len(store.records()) == 2
    calls.clear()
    out, seconds = results.run_resumable(store, configs, [0, 1], run, progress=False)
    assert out == [10, 11, 20, 21]
    assert seconds >= 0 and store.record({"size": 1}, 0)["seconds"] >= 0
    assert calls == [(2, 0), (2, 1)]  # finished jobs were not run again
    assert store.load({"size": 2}, 1) == 21


def test_project_results_points_into_the_checkout(monkeypatch, tmp_path):
    assert results.project_results("x.json").parent.name == "results"
    monkeypatch.setenv("TUTORLIB_RESULTS_DIR", str(tmp_path))
    assert results.project_results("a", "b.json") == tmp_path / "a" / "b.json"
