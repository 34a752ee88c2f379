#!/usr/bin/env bash
# The bench's campaign through Slurm (issue 38): 400 random M=4 games, the same 50 on each of
# 8 drawn boards (`--board-seeds 1..9`), in 8 shards through `hil-tests run --slurm` (an array
# job and a merge job after it), the merged report compared both ways and byte for byte
# (.ci/same-report) with the one-process sweep's, which plays each board's games in a plain
# loop (no shard, no merge): every board's steps.jsonl, summaries and plot, and
# sweep.md/sweep.csv, and no file more.
#
# Needs a running cluster (SLURM_CONF set: .ci/slurm-cluster starts one and calls this at its
# bench step). Usage: hil-tests/slurm-campaign.sh HIL-TESTS WORK-DIR
set -euo pipefail
hil=$(realpath "$1")
work=$2
mkdir -p "$work"
work=$(realpath "$work")
args=(run --stage sil --scenario random4 --games 50 --seed 1 --board-seeds 1..9)

start=$SECONDS
"$hil" "${args[@]}" --out "$work/bench-one" >/dev/null
one=$((SECONDS - start))

start=$SECONDS
"$hil" "${args[@]}" --out "$work/bench" --slurm --shards 8
limit=600
while [ -n "$(squeue --me -h -o %i)" ]; do
    if [ $((SECONDS - start)) -gt "$limit" ]; then
        echo "bench jobs still queued after $limit s:" >&2
        squeue --me >&2
        exit 1
    fi
    sleep 1
done
slurm=$((SECONDS - start))
"$hil" "${args[@]}" --out "$work/bench" --status

same=$("$(dirname "$0")/../.ci/same-report" "$work/bench-one" "$work/bench")
echo "$same"
n=$(awk '{print $1}' <<<"$same")
[ "$n" -eq 34 ] || { echo "expected 34 report files (8 boards x 4, and the sweep's 2), found $n" >&2; exit 1; }
echo "bench campaign: $n report files identical byte for byte; one process ${one} s, 8 shards and the merge through Slurm ${slurm} s"
