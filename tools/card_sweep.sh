#!/usr/bin/env bash
# Runs part of the report card's sweep on a machine with many cores (a cluster node, or the CPUs
# of a lent GPU machine), one thread per run, until a deadline, and packs the finished run
# records into one file to bring back (a run still training at the deadline is lost; the
# others are saved the moment they finish, so the sweep resumes where it stopped).
#
#   tools/card_sweep.sh SECONDS PACK_DIR RESULTS_DIR [python -m tutorlib run card options...]
#   tools/card_sweep.sh 480 "$OUT" results --profile full --only lstm,gru_attention --seeds 1 --jobs 15
#
# Unpack the records here with `tar xzf PACK_DIR/card-runs.tgz` in the repository's root, then
# `python -m tutorlib run card --profile full --only ''` rewrites the summary.
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 SECONDS PACK_DIR RESULTS_DIR [run card options...]" >&2
    exit 2
fi
deadline=$1 pack=$2 results=$3
shift 3
python=${PYTHON:-python3}
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
mkdir -p "$pack" || exit 1
{ nproc --all; grep -m1 "model name" /proc/cpuinfo; } > "$pack/machine.txt"
"$python" -c "import sys, torch, tutorlib; print(sys.version.split()[0], torch.__version__,
tutorlib.__version__)" >> "$pack/machine.txt" || exit 1
timeout -k 10 "$deadline" "$python" -m tutorlib run card --out "$results" --quiet "$@" \
    > "$pack/sweep.log" 2>&1
echo "sweep ended with status $? (124: the deadline)"
tar czf "$pack/card-runs.tgz" --exclude="*.lock" -C "$results/card" runs
echo "$(ls "$results/card/runs" | grep -c '\.json$') run records packed"
