#!/usr/bin/env bash
# Shard overhead on one machine: the one-process run against P shards run by GNU parallel,
# two at a time, plus the merge; medians of 3 runs each, both in this one script. Jobs:
# links on 10 vertices (16 parts, the search's default split, in both) and the quantisation
# study at M=4 (8 shards). Issue 38's target: sharded within 1.2x of one process.
#
# Usage: studies/bench-shards.sh [BIRDCAGE] [RUNS] [VERTICES] [M]
#   BIRDCAGE: the binary (default target/release/birdcage, built if missing); RUNS: 3;
#   VERTICES: the links search's size (10); M: the quantisation study's board size (4).
# The shards run one thread each (RAYON_NUM_THREADS=1: parallel -j 2 fills the two cores);
# the one-process runs use every core (the links search its parts on threads, the study
# rayon). The machine may be shared: the load average is printed before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
BIRDCAGE=${1:-target/release/birdcage}
RUNS=${2:-3}
N=${3:-10}
M=${4:-4}
command -v parallel >/dev/null || { echo "skipped: no parallel (apt-get install parallel)"; exit 0; }
if [ ! -x "$BIRDCAGE" ]; then cargo build --release -p birdcage; fi
BIRDCAGE=$(realpath "$BIRDCAGE")
WORK=$(mktemp -d /tmp/bench-shards.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# Seconds a command takes (wall clock), its output discarded.
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

one_links() { "$BIRDCAGE" links --vertices "$N" --shards 16 --out "$1" --format json; }
sharded_links() {
    seq 16 | RAYON_NUM_THREADS=1 parallel -j 2 "$BIRDCAGE" links --vertices "$N" --out "$1" --shard {}/16
    "$BIRDCAGE" links --vertices "$N" --out "$1" --merge --format json
}
one_study() { "$BIRDCAGE" study quantisation --size "$M" --out "$1"; }
sharded_study() {
    seq 8 | RAYON_NUM_THREADS=1 parallel -j 2 "$BIRDCAGE" study quantisation --size "$M" --out "$1" --shard {}/8
    "$BIRDCAGE" study quantisation --size "$M" --out "$1" --merge
}

echo "links on $N vertices (16 shards), quantisation study at M=$M (8 shards); $BIRDCAGE"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
for job in links study; do
    one=() sharded=()
    for i in $(seq "$RUNS"); do
        one+=("$(seconds "one_$job" "$WORK/$job-one-$i")")
        sharded+=("$(seconds "sharded_$job" "$WORK/$job-sharded-$i")")
    done
    # Same report, or the timing means nothing.
    for f in "$WORK/$job-one-1"/*; do
        case "$f" in *.shard) continue ;; esac
        cmp -s "$f" "$WORK/$job-sharded-1/$(basename "$f")" || { echo "$job: $(basename "$f") differs" >&2; exit 1; }
    done
    m1=$(printf '%s\n' "${one[@]}" | median)
    m2=$(printf '%s\n' "${sharded[@]}" | median)
    printf '%-6s one process %6.2f s (runs: %s)  sharded + merge %6.2f s (runs: %s)  ratio %.2f\n' \
        "$job" "$m1" "$(printf '%.1f ' "${one[@]}")" "$m2" "$(printf '%.1f ' "${sharded[@]}")" \
        "$(echo "$m2 / $m1" | bc -l)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
