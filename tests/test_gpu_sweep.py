"""The prepared GPU sweep (tools/gpu_sweep.sh) on a machine without a GPU: the sweep fails fast
with a clear error, and the script still packs what is finished (the committed records) and its
log into the output folder, as it does on a lent machine when the budget runs out."""

import os
import subprocess
import sys
import tarfile

import pytest
from conftest import ROOT


@pytest.mark.slow
def test_the_sweep_script_packs_its_records_and_log_even_when_the_sweep_fails(tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "nvidia-smi").write_text("#!/bin/sh\necho 'no GPU here, 0 MiB, none'\n")
    (fake / "nvidia-smi").chmod(0o755)
    out = tmp_path / "out"
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "OUT": str(out),
           "BUDGET": "120", "JOBS": "2", "PYTHON": sys.executable,
           "TUTORLIB_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(["bash", str(ROOT / "tools" / "gpu_sweep.sh"), "pcfgset"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    log = (out / "sweep.log").read_text()
    assert "no CUDA GPU" in log and "sweep exit status 2" in log
    with tarfile.open(out / "pcfgset-gpu-runs.tgz") as archive:
        names = archive.getnames()
    committed = sorted((ROOT / "results" / "pcfgset" / "runs").glob("*.json"))
    assert len([n for n in names if n.startswith("pcfgset/runs/")]) == len(committed)
    assert "no GPU here" in (out / "gpu.txt").read_text()
