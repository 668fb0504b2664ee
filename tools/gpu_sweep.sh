#!/usr/bin/env bash
# One prepared GPU sweep, for a lent machine with one NVIDIA GPU and no network:
#
#   bash tools/gpu_sweep.sh pcfgset                     # the experiment's gpu profile
#   JOBS=18 BUDGET=900 bash tools/gpu_sweep.sh orchard  # 29 runs left: two waves of 18
#
# Runs `python -m tutorlib run NAME --profile gpu --device cuda --jobs JOBS` (worker processes
# sharing the GPU under CUDA MPS, each with its share of the cores) for at most BUDGET seconds,
# then packs the finished run records into $OUT/NAME-gpu-runs.tgz, beside the sweep's log and
# a GPU-utilisation trace. Records are saved the moment each run finishes, so a sweep stopped
# by the budget loses only the runs in flight. Unpack the archive into results/ and rewrite the
# summary with `python -m tutorlib run NAME --profile gpu --only ''` (or run the sweep again to
# finish what is missing).
#
# Every network saves a checkpoint (weights, optimiser, schedule, random state) at least once a
# minute under CHECKPOINTS, and a run started again resumes from its checkpoint, ending as a run
# that was never cut: a wave cut by the budget loses at most a minute of each unfinished run.
# The folder is inside the checkout and ignored by git, so a second call on the same (warm)
# machine finds it; the checkpoints also come back in $OUT/NAME-checkpoints.tgz when that
# archive is under 15 MiB (an ORCHARD network's is 20-100 MB). After the wave,
# `python -m tutorlib status NAME` lists the profile's runs as done, partial or left
# ($OUT/status.txt).
#
# Environment: JOBS (default 27: the 54 PCFG SET runs in two waves), BUDGET (seconds, default
# 480), OUT (where the archive goes, default ./gpu-out), CHECKPOINTS (default
# ./gpu-checkpoints), PYTHON (default python3).
# Memory: an ORCHARD worker holds 1.7-2.7 GiB of GPU memory, so 36 at once ran out of an H100's
# 80 GB (results/orchard/gpu-sweeps.json); 18 fit with room to spare.
set -u
name=${1:?usage: bash tools/gpu_sweep.sh EXPERIMENT}
jobs=${JOBS:-27}
budget=${BUDGET:-480}
out=${OUT:-gpu-out}
python=${PYTHON:-python3}
mkdir -p "$out"
work=$(mktemp -d)
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export TUTORLIB_CACHE_DIR=${TUTORLIB_CACHE_DIR:-$work/cache}
export TUTORLIB_CHECKPOINT_DIR=${CHECKPOINTS:-$PWD/gpu-checkpoints}
mkdir -p "$TUTORLIB_CHECKPOINT_DIR"
# committed records of the gpu profile are skipped (the sweep resumes)
mkdir -p "$work/results"
if [ -d "results/$name/runs" ]; then cp -r "results/$name" "$work/results/"; fi

start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
"$python" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())" \
    | tee -a "$out/gpu.txt"
nvidia-smi dmon -s u -d 5 > "$out/dmon.txt" 2>&1 &
dmon=$!
timeout --signal=INT --kill-after=20 "$budget" "$python" -m tutorlib run "$name" --profile gpu \
    --device cuda --jobs "$jobs" --out "$work/results" > "$out/sweep.log" 2>&1
status=$?
kill "$dmon" 2>/dev/null
echo "sweep exit status $status after $(( $(date +%s) - start )) s" | tee -a "$out/sweep.log"
ls "$work/results/$name/runs" | wc -l | sed 's/^/records: /' | tee -a "$out/sweep.log"
tar czf "$out/$name-gpu-runs.tgz" -C "$work/results" "$name"
"$python" -m tutorlib status "$name" --profile gpu --out "$work/results" > "$out/status.txt" 2>&1
tail -1 "$out/status.txt" | tee -a "$out/sweep.log"
if [ -d "$TUTORLIB_CHECKPOINT_DIR/$name" ]; then
    tar czf "$work/checkpoints.tgz" -C "$TUTORLIB_CHECKPOINT_DIR" "$name"
    if [ "$(stat -c %s "$work/checkpoints.tgz")" -lt 15728640 ]; then
        mv "$work/checkpoints.tgz" "$out/$name-checkpoints.tgz"
    else
        echo "checkpoints ($(du -sh "$TUTORLIB_CHECKPOINT_DIR/$name" | cut -f1)) left in" \
             "$TUTORLIB_CHECKPOINT_DIR for the next call on this machine" | tee -a "$out/sweep.log"
    fi
fi
tail -5 "$out/sweep.log"
