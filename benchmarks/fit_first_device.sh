#!/usr/bin/env bash
# One prepared call on a lent GPU machine (16 cores, one GPU) for issue 48, in two halves side
# by side: the PCFG SET fit-first pilot (benchmarks/pcfgset_pilot.py: three candidate
# reductions x three architectures, one thread each, pinned to cores 0-8) and a wave of
# ORCHARD's gpu sweep (tools/gpu_sweep.sh, on cores 9-15). Results land in $OUT: pilot.tgz
# (one JSON record per run), the sweep's archive, log and GPU trace.
#   OUT=/tmp/out PILOT_SECONDS=380 SWEEP_BUDGET=450 bash benchmarks/fit_first_device.sh
set -u
out=${OUT:-device-out}
pilot_seconds=${PILOT_SECONDS:-380}
mkdir -p "$out/pilot"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TQDM_DISABLE=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
# pin where the machine allows it (some sandboxes refuse affinity): then unpinned
pin() { if taskset -c "$1" true 2>/dev/null; then echo "taskset -c $1"; fi; }
core=0
for candidate in f3-o24-20k f3-o16-20k f4-o24-30k; do
  for network in LSTMS2S ConvS2S Transformer; do
    CUDA_VISIBLE_DEVICES= $(pin $core) python3 benchmarks/pcfgset_pilot.py \
      --candidate $candidate --architecture $network --max-seconds "$pilot_seconds" \
      --out "$out/pilot/$candidate-$network.json" > "$out/pilot/$candidate-$network.log" 2>&1 &
    core=$((core + 1))
  done
done
OUT=$out JOBS=6 BUDGET=${SWEEP_BUDGET:-450} $(pin 9-15) bash tools/gpu_sweep.sh orchard
wait
python3 benchmarks/pcfgset_pilot.py --summary "$out/pilot" | tee "$out/pilot-summary.txt"
tail -n 2 "$out"/pilot/*.log
tar czf "$out/pilot.tgz" -C "$out" pilot && rm -rf "$out/pilot"
