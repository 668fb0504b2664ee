import json
import os
from pathlib import Path

import pytest

from tutorlib import __version__, results


def test_write_and_read_with_provenance(tmp_path):
    path = results.write_results(tmp_path / "r" / "exp.json", {"accuracy": [0.5, 0.75]},
                                 profile="full", seeds=range(3), wall_time=12.34567,
                                 command="python -m tutorlib run exp")
    record = results.read_results(path)
    assert record["data"] == {"accuracy": [0.5, 0.75]}
    prov = record["provenance"]
    assert set(results.PROVENANCE_KEYS) <= set(prov)
    assert prov["command"] == "python -m tutorlib run exp"
    assert prov["profile"] == "full"
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


def test_resumable_run_keeps_finished_work(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "sweep_demo.py").write_text(DEMO)
    import sweep_demo

    sweep_demo.CALLS.clear()
    sweep_demo.STOP_AT = 3  # the sweep is stopped during its third run
    with pytest.raises(KeyboardInterrupt):
        results.run_experiment("sweep_demo:EXPERIMENT", "ci", tmp_path, progress=False)
    store = results.RunStore(tmp_path / "demo" / "runs", "demo")
    assert len(store.records()) == 2
    partial = results.read_results(tmp_path / "demo" / "ci.json")["data"]
    assert not partial["complete"] and partial["runs"] == [10, 11]
    sweep_demo.CALLS.clear()
    sweep_demo.STOP_AT = None
    path = results.run_experiment("sweep_demo:EXPERIMENT", "ci", tmp_path, progress=False)
    data = results.read_results(path)["data"]
    assert data["runs"] == [10, 11, 20, 21] and data["complete"] and data["total"] == 62
    assert sweep_demo.CALLS == [(2, 0), (2, 1)]  # finished runs were not run again
    assert store.load({"size": 2}, 1) == 21 and store.record({"size": 1}, 0)["seconds"] >= 0
    # runs copied in from elsewhere: the summary is rebuilt from the store, running nothing
    path.unlink()
    sweep_demo.CALLS.clear()
    rebuilt = results.summarise_runs("sweep_demo:EXPERIMENT", "ci", tmp_path)
    assert rebuilt == path and results.read_results(rebuilt)["data"] == data
    assert sweep_demo.CALLS == []
    # --only: a part by name; unknown parts are refused with the list of known ones
    with pytest.raises(ValueError, match="does not run: 7"):
        results.run_experiment("sweep_demo:EXPERIMENT", "ci", tmp_path, only=["7"])
    # --seeds: only those seeds run; unknown seeds are refused with the list of known ones
    with pytest.raises(ValueError, match="does not run: 5; it runs 0, 1"):
        results.run_experiment("sweep_demo:EXPERIMENT", "ci", tmp_path, seeds=[5])
    sweep_demo.CALLS.clear()
    results.run_experiment("sweep_demo:EXPERIMENT", "tutorial", tmp_path, seeds=[3, 1],
                           progress=False)
    # (sizes 1 and 2 with seed 1 are the ci profile's runs, already saved)
    assert sweep_demo.CALLS == [(1, 3), (2, 3), (3, 1), (3, 3)]
    sweep_demo.CALLS.clear()
    summary = results.run_experiment("sweep_demo:EXPERIMENT", "tutorial", tmp_path, only=["2"],
                                     seeds=[2, 0], progress=False)  # seed 0 is not part "2"
    assert sweep_demo.CALLS == [(1, 2), (2, 2), (3, 2)]
    assert not results.read_results(summary)["data"]["complete"]


# A tiny experiment for the runner's tests: run (size, seed) returns 10 * size + seed.
DEMO = """
import os, time
from tutorlib.results import Experiment

CALLS = []
STOP_AT = None


def runs(settings):
    return [({"size": size}, seed) for size in settings["sizes"] for seed in settings["seeds"]]


def run(config, seed, device="cpu"):
    CALLS.append((config["size"], seed))
    if STOP_AT is not None and len(CALLS) == STOP_AT:
        raise KeyboardInterrupt
    if config.get("sleep"):
        time.sleep(config["sleep"])
    return {"pid": os.getpid(), "value": 10 * config["size"] + seed} if config.get("pid") else (
        10 * config["size"] + seed)


def summarise(settings, finished):
    return {"total": sum(r if isinstance(r, int) else r["value"] for r in finished)}


PREPARED = []


def prepare(settings):
    PREPARED.append(len(settings["sizes"]))


EXPERIMENT = Experiment(name="demo", runs=runs, run=run, summarise=summarise,
                        part=lambda config, seed: str(seed), prepare=prepare,
                        settings={"ci": {"sizes": [1, 2], "seeds": [0, 1]},
                                  "tutorial": {"sizes": [1, 2, 3], "seeds": [0, 1, 2, 3]},
                                  "full": {"sizes": [1], "seeds": [0]}})
"""


def test_run_keys_ignore_the_version_and_find_every_committed_run(monkeypatch):
    """Committed runs are keyed by experiment, run settings and seed: a new release of tutorlib
    keeps all of them (before, the key held the version, and a bump orphaned every run)."""
    import tutorlib
    from tutorlib import profiles

    monkeypatch.setattr(tutorlib, "__version__", "99.0.0")
    monkeypatch.setattr(results, "__version__", "99.0.0")
    found = {}
    for name in ("scan", "tre_generalisation", "tre_dynamics", "orchard"):
        spec = results.experiment(name)
        store = results.RunStore(results.project_results(name, "runs"), name)
        pairs = [pair for profile in ("full", "gpu") if profiles.has_profile(name, profile)
                 for pair in spec.runs(profiles.settings(name, profile))]
        kept = {store.path(s, seed) for s, seed in pairs if store.has(s, seed)}
        if name in ("scan", "orchard"):
            # every committed record is one of the full (or gpu) profile's runs, by its key
            assert kept == set(store.directory.glob("*.json")), name
        found[name] = len(kept)
    # complete: the TRE experiments; growing: SCAN (127 runs were committed before its profile
    # grew) and ORCHARD
    assert found["tre_generalisation"] == 100 and found["tre_dynamics"] == 10
    assert found["scan"] >= 127 and found["orchard"] >= 19


def test_scan_run_keys_hold_every_setting_that_changes_a_result():
    """A tutorial SCAN run (a small network, briefly trained) is not a finished paper run."""
    from tutorlib import profiles
    from tutorlib.scan import experiments as exps

    paper = [s for s, _ in exps.runs(profiles.settings("scan", "full"))]
    tutorial = exps.runs(profiles.settings("scan", "tutorial"))
    store = results.RunStore(results.project_results("scan", "runs"), "scan")
    simple = [(s, seed) for s, seed in tutorial if s["split"] == "simple"][0]
    # trained to the gate (at most its presentations), not the paper's 256,000 presentations
    assert simple[0] not in paper and simple[0]["stop_at"] and not store.has(*simple)
    assert all(not store.has(s, seed) for s, seed in tutorial)
    base = next(s for s in paper if s["split"] == "simple")
    key = results.run_key("scan", base, 0)
    for field, other in [("presentations", 100_000), ("batch_size", 1), ("learning_rate", 1e-3),
                         ("final_lr_fraction", 1.0), ("max_test", 150), ("training", "x"),
                         ("architecture", {**base["architecture"], "hidden_size": 100})]:
        assert results.run_key("scan", {**base, field: other}, 0) != key, field
    assert results.run_key("tre_dynamics", base, 0) != key


@pytest.mark.slow
def test_worker_processes_give_the_serial_results(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    (tmp_path / "sweep_demo2.py").write_text(DEMO)
    serial = results.run_experiment("sweep_demo2:EXPERIMENT", "tutorial", tmp_path / "a",
                                    progress=False)
    parallel = results.run_experiment("sweep_demo2:EXPERIMENT", "tutorial", tmp_path / "b",
                                      jobs=2, progress=False)
    assert results.read_results(serial)["data"] == results.read_results(parallel)["data"]
    with pytest.raises(ValueError, match="jobs must be a positive integer"):
        results.run_experiment("sweep_demo2:EXPERIMENT", "ci", tmp_path, jobs=0)


def test_project_results_points_into_the_checkout(monkeypatch, tmp_path):
    assert results.project_results("x.json").parent.name == "results"
    monkeypatch.setenv("TUTORLIB_RESULTS_DIR", str(tmp_path))
    assert results.project_results("a", "b.json") == tmp_path / "a" / "b.json"


SHARED = """
from tutorlib.results import Experiment, RunStore

CALLS = []
OUT = None


def run(config, seed, device="cpu"):
    CALLS.append(seed)
    if seed == 0:  # meanwhile, another process sharing the sweep finishes seed 2
        RunStore(OUT / "shared" / "runs", "shared").save({"size": 1}, 2, 99)
    return seed


EXPERIMENT = Experiment(name="shared", runs=lambda s: [({"size": 1}, seed) for seed in s["seeds"]],
                        run=run, settings={"ci": {"seeds": [0, 1, 2, 3]}})
"""


def test_a_sweep_skips_runs_another_process_saved_meanwhile(tmp_path, monkeypatch):
    """Two processes sharing a sweep by hand (overlapping --only sets) never repeat a run."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "sweep_shared.py").write_text(SHARED)
    import sweep_shared

    sweep_shared.OUT = tmp_path
    path = results.run_experiment("sweep_shared:EXPERIMENT", "ci", tmp_path, progress=False)
    assert sweep_shared.CALLS == [0, 1, 3]  # seed 2 was saved by the other process
    store = results.RunStore(tmp_path / "shared" / "runs", "shared")
    assert store.load({"size": 1}, 2) == 99
    assert results.read_results(path)["data"]["complete"]


def test_row_log_resumes_and_refuses_a_file_that_is_not_one(tmp_path):
    path = tmp_path / "sub" / "screen.json"
    log = results.RowLog(path)
    assert log.rows == [] and not log.has(recipe="a")
    log.add({"recipe": "a", "split": "simple", "seed": 0, "accuracy": 0.5})
    log.add({"recipe": "b", "split": "simple", "seed": 0, "accuracy": 0.25})
    again = results.RowLog(path)  # a restarted screen sees what was written
    assert [r["recipe"] for r in again.rows] == ["a", "b"]
    assert again.has(recipe="b", split="simple", seed=0)
    assert not again.has(recipe="b", split="simple", seed=1)
    assert not again.has(recipe="a", missing_field=1)
    (tmp_path / "bad.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="bad.json is not a row log"):
        results.RowLog(tmp_path / "bad.json")
    for committed in ("scan", "pcfgset"):  # the committed screens are row logs
        assert results.RowLog(results.project_results(committed, "recipes.json")).rows


def test_a_device_this_machine_lacks_fails_before_any_work(tmp_path, monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="no CUDA GPU"):
        results.run_experiment("pcfgset", "gpu", tmp_path, device="cuda", progress=False)
    with pytest.raises(ValueError, match="device must be one of"):
        results.run_experiment("pcfgset", "ci", tmp_path, device="nope", progress=False)
    assert not any(tmp_path.iterdir())  # nothing was run or written


def test_workers_on_a_gpu_share_the_cores():
    assert results.worker_threads("cpu", 8, cores=16) == 1
    assert results.worker_threads("cuda", 27, cores=16) == 1
    assert results.worker_threads("cuda:0", 2, cores=16) == 8


def test_prepare_runs_once_before_a_sweep_with_work_to_do(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "prepare_demo.py").write_text(DEMO)
    import prepare_demo

    results.run_experiment("prepare_demo:EXPERIMENT", "ci", tmp_path, progress=False)
    assert prepare_demo.PREPARED == [2] and len(prepare_demo.CALLS) == 4
    results.run_experiment("prepare_demo:EXPERIMENT", "ci", tmp_path, progress=False)
    assert prepare_demo.PREPARED == [2]  # nothing left to run: nothing to prepare


def test_seeds_are_non_negative_integers_and_never_share_a_key():
    import numpy as np

    assert results.run_key("demo", {"a": 1}, np.int64(2)) == results.run_key("demo", {"a": 1}, 2)
    for bad in (1.5, True, -1, None, "1"):
        with pytest.raises(ValueError,
                           match="seed (is|must be) a non-negative integer|seed=.* violates"):
            results.run_key("demo", {"a": 1}, bad)


@pytest.mark.parametrize("content", ['{"experiment": "demo", "settings": {"si', "", "{}", "[]",
                                     "\udcff"])
def test_a_broken_record_counts_as_unfinished_and_is_moved_aside(tmp_path, content):
    store = results.RunStore(tmp_path, "demo")
    path = store.save({"size": 1}, 0, 10)
    path.write_text(content, encoding="utf-8", errors="surrogateescape")
    with pytest.warns(UserWarning, match=f"{path.name}.*moved aside"):
        assert not store.has({"size": 1}, 0)
    assert not path.exists() and len(list(tmp_path.glob(f"{path.name}.invalid-*"))) == 1
    with pytest.raises(KeyError, match="no valid record"):
        store.record({"size": 1}, 0)
    store.save({"size": 1}, 0, 11)  # done again
    assert store.load({"size": 1}, 0) == 11 and len(store.records()) == 1


def test_a_record_copied_over_another_runs_key_is_not_used(tmp_path):
    store = results.RunStore(tmp_path, "demo")
    first = store.save({"size": 1}, 0, 10)
    second = store.save({"size": 2}, 0, 20)
    second.write_bytes(first.read_bytes())  # the wrong run under size 2's name
    with pytest.warns(UserWarning, match="other settings or another seed"):
        assert not store.has({"size": 2}, 0)
    assert store.load({"size": 1}, 0) == 10
    other = results.RunStore(tmp_path, "other")
    (tmp_path / f"{results.run_key('other', {'size': 1}, 0)}.json").write_bytes(first.read_bytes())
    with pytest.warns(UserWarning, match="experiment 'demo', not 'other'"):
        assert not other.has({"size": 1}, 0)


def test_a_sweep_redoes_a_truncated_run(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "broken_demo.py").write_text(DEMO)
    import broken_demo

    results.run_experiment("broken_demo:EXPERIMENT", "ci", tmp_path, progress=False)
    store = results.RunStore(tmp_path / "demo" / "runs", "demo")
    store.path({"size": 2}, 1).write_text('{"experiment": "de')
    broken_demo.CALLS.clear()
    with pytest.warns(UserWarning, match="moved aside"):
        path = results.run_experiment("broken_demo:EXPERIMENT", "ci", tmp_path, progress=False)
    assert broken_demo.CALLS == [(2, 1)]
    assert results.read_results(path)["data"]["runs"] == [10, 11, 20, 21]


SLOW = """
import os, time
from pathlib import Path
from tutorlib.results import Experiment


def runs(settings):
    return [({"n": n}, 0) for n in range(settings["n"])]


def run(config, seed, device="cpu"):
    Path(os.environ["PIDS"], str(os.getpid())).touch()
    time.sleep(60)
    return 0


EXPERIMENT = Experiment(name="slow", runs=runs, run=run, settings={"ci": {"n": 2}})
"""


@pytest.mark.slow
def test_workers_exit_when_the_sweep_that_started_them_is_killed(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    (tmp_path / "slow_demo.py").write_text(SLOW)
    pids = tmp_path / "pids"
    pids.mkdir()
    env = {**os.environ, "PIDS": str(pids),
           "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    code = ("from tutorlib import results; results.run_experiment('slow_demo:EXPERIMENT', 'ci', "
            f"{str(tmp_path / 'out')!r}, jobs=2, progress=False)")
    parent = subprocess.Popen([sys.executable, "-c", code], env=env)
    deadline = time.monotonic() + 120
    while len(list(pids.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    workers = [int(p.name) for p in pids.iterdir()]
    assert len(workers) == 2
    parent.send_signal(signal.SIGKILL)
    parent.wait()

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        # a zombie (exited, not yet reaped) counts as gone
        stat = Path(f"/proc/{pid}/stat")
        return not (stat.exists() and stat.read_text().split(") ")[1].startswith("Z"))

    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(alive(pid) for pid in workers)


HOLDER = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1], timeout=0)
lock.acquire()
print("held", flush=True)
time.sleep(60)
"""


def test_a_claimed_run_is_left_to_its_process_and_a_dead_claim_is_taken_over(tmp_path,
                                                                            monkeypatch):
    import subprocess
    import sys

    store = results.RunStore(tmp_path / "demo" / "runs", "demo")
    assert store.claim({"size": 1}, 0) and store.claim({"size": 1}, 0)  # ours: held
    # a second store in this process (another sweep's view) cannot take it either
    assert not results.RunStore(tmp_path / "demo" / "runs", "demo").claim({"size": 1}, 0)
    store.release({"size": 1}, 0)
    store.release({"size": 1}, 0)  # releasing twice is harmless
    # a living process holds another run
    lock = store.lock_path({"size": 2}, 0)
    lock.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert not store.claim({"size": 2}, 0)
        monkeypatch.syspath_prepend(str(tmp_path))
        (tmp_path / "claim_demo.py").write_text(DEMO)
        import claim_demo

        with pytest.warns(UserWarning, match="1 run\\(s\\) of claim_demo:EXPERIMENT are claimed"):
            path = results.run_experiment("claim_demo:EXPERIMENT", "ci", tmp_path,
                                          progress=False)
        assert sorted(claim_demo.CALLS) == [(1, 0), (1, 1), (2, 1)]  # (2, 0) left to its holder
        assert not results.read_results(path)["data"]["complete"]
        assert store.claim({"size": 1}, 1)  # the sweep released what it claimed
        store.release({"size": 1}, 1)
    finally:
        holder.kill()  # killed: no clean-up of its own, the system frees its lock
        holder.wait()
    # its holder died: the claim is taken over and the run done
    claim_demo.CALLS.clear()
    path = results.run_experiment("claim_demo:EXPERIMENT", "ci", tmp_path, progress=False)
    assert claim_demo.CALLS == [(2, 0)] and results.read_results(path)["data"]["complete"]


def test_an_output_that_cannot_be_written_fails_before_any_work(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "readonly_demo.py").write_text(DEMO)
    import readonly_demo

    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    with pytest.raises(ValueError, match="cannot write results into"):
        results.run_experiment("readonly_demo:EXPERIMENT", "ci", blocked, progress=False)
    assert readonly_demo.CALLS == []


FAILING_SUMMARY = """
import os
from pathlib import Path
import pathlib
import time

from tutorlib.results import Experiment

MARKS = pathlib.Path(os.environ["SWEEP_MARKS"])


def run(config, seed, device="cpu"):
    (MARKS / str(seed)).touch()
    time.sleep(0.3)
    return seed


def summarise(settings, finished):
    raise RuntimeError("the summary is broken")


EXPERIMENT = Experiment(name="failing", runs=lambda s: [({"size": 1}, seed) for seed in s["seeds"]],
                        run=run, summarise=summarise, settings={"ci": {"seeds": list(range(40))}})
"""


@pytest.mark.slow
def test_a_summary_that_fails_stops_the_sweep_instead_of_training_every_run(tmp_path,
                                                                            monkeypatch):
    """An error after a run (writing the summary) ends the sweep: the runs not yet started
    are cancelled, not trained with their results thrown away; the finished run is saved."""
    marks = tmp_path / "marks"
    marks.mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("SWEEP_MARKS", str(marks))
    (tmp_path / "failing_demo.py").write_text(FAILING_SUMMARY)
    with pytest.raises(RuntimeError, match="the summary is broken"):
        results.run_experiment("failing_demo:EXPERIMENT", "ci", tmp_path / "out", jobs=2,
                               progress=False)
    assert len(list(marks.iterdir())) < 10  # of 40
    assert len(list((tmp_path / "out" / "failing" / "runs").glob("*.json"))) == 1


def test_a_checkpointing_sweep_gives_each_run_its_folder_and_status_reads_them(monkeypatch,
                                                                               tmp_path):
    seen = []

    def run(config, seed, device="cpu"):
        folder = Path(os.environ[results.CHECKPOINTS_VARIABLE])
        seen.append(folder)
        if config["size"] == 2:  # cut: its checkpoint stays behind
            folder.mkdir(parents=True)
            (folder / "net.pt").write_bytes(b"state")
            raise KeyboardInterrupt
        return config["size"]

    spec = results.Experiment(
        name="ckpt", runs=lambda s: [({"size": size}, 0) for size in s["sizes"]], run=run,
        settings={"gpu": {"sizes": [1, 2, 3]}})
    monkeypatch.setattr(results, "experiment", lambda name: spec)
    monkeypatch.setenv(results.CHECKPOINTS_VARIABLE, str(tmp_path / "ckpt"))
    store = results.RunStore(tmp_path / "out" / "ckpt" / "runs", "ckpt")
    store.save({"size": 1}, 0, results.execute_run("ckpt", {"size": 1}, 0)["result"])
    with pytest.raises(KeyboardInterrupt):
        results.execute_run("ckpt", {"size": 2}, 0)
    assert os.environ[results.CHECKPOINTS_VARIABLE] == str(tmp_path / "ckpt")  # restored
    assert seen == [results.checkpoint_folder(tmp_path / "ckpt", "ckpt", {"size": s}, 0)
                    for s in (1, 2)]
    assert seen[0] != seen[1] and seen[0].parent == tmp_path / "ckpt" / "ckpt"
    states = results.sweep_status("ckpt", "gpu", tmp_path / "out")
    assert [row["state"] for row in states] == ["done", "partial", "left"]
    monkeypatch.delenv(results.CHECKPOINTS_VARIABLE)
    assert [row["state"] for row in results.sweep_status("ckpt", "gpu", tmp_path / "out")] == [
        "done", "left", "left"]


def _budget_settings(seconds):
    return {"network": "toy", "recipe": {"max_seconds": seconds, "stop_at": [0.9, 0.9]}}


@pytest.mark.parametrize("stopped, seconds, carried", [
    ("fit", 900.0, True), ("patience", 300.0, True), ("max_epochs", 1199.0, True),
    ("max_seconds", 1200.0, False),   # the budget bound: a longer one trains it further
    ("fit", 1200.0, False),           # passed at the evaluation the budget forced
])
def test_a_run_whose_budget_did_not_bind_stands_for_the_longer_budget(tmp_path, stopped,
                                                                      seconds, carried):
    store = results.RunStore(tmp_path, "toy")
    old = _budget_settings(1200.0)
    store.save(old, 1, {"fit": {"stopped": stopped, "train_seconds": seconds}, "score": 0.5}, 3.0)
    path = store.carry_to_longer_budget(old, 1, 1800.0)
    new = _budget_settings(1800.0)
    assert (path is not None) is carried
    assert store.has(new, 1) is carried
    assert store.has(old, 1)  # the old record stays
    if carried:
        assert path == store.path(new, 1)
        record = store.record(new, 1)
        assert record["result"]["score"] == 0.5 and record["result"]["budget_carried_from"] == 1200.0
        assert record["seconds"] == 3.0


def test_carrying_a_budget_names_what_is_wrong(tmp_path):
    store = results.RunStore(tmp_path, "toy")
    assert store.carry_to_longer_budget(_budget_settings(1200.0), 0, 1800.0) is None  # no record
    with pytest.raises(ValueError, match="more than the recorded budget"):
        store.carry_to_longer_budget(_budget_settings(1200.0), 0, 600.0)
    with pytest.raises(ValueError, match="no recipe with max_seconds"):
        store.carry_to_longer_budget({"network": "toy"}, 0, 600.0)


def test_a_sweep_skips_the_runs_its_experiment_says_need_not_run(monkeypatch, tmp_path):
    """The card's rule: a later seed of a run whose first seed failed is settled, not run."""
    ran = []

    def run(config, seed, device="cpu"):
        ran.append((config["size"], seed))
        return {"ok": config["size"] != 2}

    def skip(config, seed, record_of):
        first = record_of(config, 0)
        if seed > 0 and first is not None and not first["result"]["ok"]:
            return "seed 0 failed"
        return None

    spec = results.Experiment(
        name="skipper", runs=lambda s: [({"size": size}, seed) for seed in (0, 1)
                                        for size in s["sizes"]],
        run=run, skip=skip, settings={"ci": {"sizes": [1, 2]}})
    monkeypatch.setattr(results, "experiment", lambda name: spec)
    path = results.run_experiment("skipper", "ci", tmp_path, progress=False)
    assert ran == [(1, 0), (2, 0), (1, 1)]  # size 2's seed 1 is skipped once seed 0 failed
    data = results.read_results(path)["data"]
    assert data["complete"] is True and len(data["runs"]) == 3
    assert data["skipped"] == [{"settings": {"size": 2}, "seed": 1, "why": "seed 0 failed"}]
    assert [row["state"] for row in results.sweep_status("skipper", "ci", tmp_path)] == [
        "done", "done", "done", "skipped"]
