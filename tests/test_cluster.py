"""The runner on a local Dask cluster of two worker processes (``pip install -e '.[cluster]'``;
``make`` installs the extra, so these run in ``make test``)."""

import os
import signal
import threading
import time

import pytest
from test_results import DEMO

from tutorlib import results

distributed = pytest.importorskip("distributed", reason="Dask is an optional extra: "
                                                         "pip install -e '.[cluster]'")

# Runs that take a moment, so that a worker can be killed in the middle of the sweep.
SLOW = DEMO.replace('"full": {"sizes": [1], "seeds": [0]}',
                    '"full": {"sizes": [1, 2, 3], "seeds": [0, 1, 2, 3], "slow": True}').replace(
    'return [({"size": size}, seed)',
    'return [({"size": size, **({"sleep": 0.8, "pid": True} if settings.get("slow") else {})}, '
    'seed)')


@pytest.fixture
def cluster(tmp_path, monkeypatch):
    (tmp_path / "cluster_demo.py").write_text(SLOW)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=50) as local, \
            distributed.Client(local) as client:
        yield client


@pytest.mark.slow
def test_a_dask_sweep_gives_the_serial_results(tmp_path, cluster):
    serial = results.run_experiment("cluster_demo:EXPERIMENT", "tutorial", tmp_path / "serial",
                                    progress=False)
    spread = results.run_experiment("cluster_demo:EXPERIMENT", "tutorial", tmp_path / "dask",
                                    scheduler=cluster, progress=False)
    assert results.read_results(serial)["data"] == results.read_results(spread)["data"]
    # a second client on the finished sweep runs nothing again
    runs = sorted((tmp_path / "dask" / "demo" / "runs").iterdir())
    stamps = [p.stat().st_mtime_ns for p in runs]
    results.run_experiment("cluster_demo:EXPERIMENT", "tutorial", tmp_path / "dask",
                           scheduler=cluster.scheduler.address, progress=False)
    assert [p.stat().st_mtime_ns for p in runs] == stamps


@pytest.mark.slow
def test_a_killed_worker_loses_nothing_finished(tmp_path, cluster):
    out = tmp_path / "killed"
    store = results.RunStore(out / "demo" / "runs", "demo")
    pids = list(cluster.run(os.getpid).values())
    saved_before_kill: dict = {}

    def kill_one_worker():
        while not store.records():  # wait until a run has finished and been saved
            time.sleep(0.05)
        saved_before_kill.update({p.name: p.read_bytes()
                                  for p in (out / "demo" / "runs").glob("*.json")})
        os.kill(pids[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_one_worker, daemon=True)
    killer.start()
    path = results.run_experiment("cluster_demo:EXPERIMENT", "full", out, scheduler=cluster,
                                  progress=False)
    killer.join(timeout=30)
    data = results.read_results(path)["data"]
    assert data["complete"] and len(data["runs"]) == 12
    assert [r["value"] for r in data["runs"]] == [10 * s + k for s in (1, 2, 3) for k in range(4)]
    assert saved_before_kill, "the worker was killed before any run finished"
    for name, content in saved_before_kill.items():  # finished runs kept, as they were
        assert (out / "demo" / "runs" / name).read_bytes() == content
