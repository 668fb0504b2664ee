#!/usr/bin/env bash
# One prepared call on a lent GPU machine for issue 49 (one trainer): the PCFG SET gpu sweep's
# networks trained side by side by the old trainers and the new one (benchmarks/
# gpu_throughput.py, 27 processes, THROUGHPUT_SECONDS of training each), then what is left of
# the call on the next wave of ORCHARD's gpu sweep, with checkpoints (tools/gpu_sweep.sh).
# Needs benchmarks/_before/tutorlib (the package before the change) and .whl/ (beartype, which
# the machine's image lacks) carried.
#   OUT=/tmp/out DEADLINE=560 bash benchmarks/trainer_device.sh
set -u
out=${OUT:-gpu-out}
deadline=$(( $(date +%s) + ${DEADLINE:-560} ))
seconds=${THROUGHPUT_SECONDS:-45}
mkdir -p "$out"
python3 -m pip install --no-deps --no-index -q .whl/*.whl 2>&1 | tail -1
export PYTHONUNBUFFERED=1 TQDM_DISABLE=1 TUTORLIB_CACHE_DIR=/tmp/tutorlib-cache
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
for label in after before; do
  path=$([ "$label" = before ] && echo "benchmarks/_before")
  PYTHONPATH=$path timeout $((seconds + 120)) python3 benchmarks/gpu_throughput.py \
      --label "$label" --jobs 27 --seconds "$seconds" --out "$out/throughput-$label.json" \
      2> "$out/throughput-$label.log" | tail -1
done
budget=$(( deadline - $(date +%s) ))
echo "ORCHARD wave: $budget s"
if [ "$budget" -gt 120 ]; then
  OUT=$out JOBS=${JOBS:-18} BUDGET=$budget bash tools/gpu_sweep.sh orchard
fi
