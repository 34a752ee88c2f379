#!/usr/bin/env bash
# Two builds side by side (issue 53 item 4): the exhaustive quantisation study at M=4 (the
# ideal converter, the tree of 774,118 positions) and `beat --size 7 --ties any`, each run
# alternately with the old and the new binary, RUNS times; medians, the ratio new/old, and
# every report compared byte for byte (a faster wrong answer is no answer).
#
# Usage: studies/speed.sh OLD NEW [RUNS] [JOBS]
#   OLD, NEW: two birdcage binaries (e.g. d2aca82's release build and this one's);
#   RUNS: 3; JOBS: "study beat" (either or both; "full" adds the study with both boards).
# The machine may be shared: the load average is printed before and after.
set -euo pipefail
OLD=$(realpath "$1")
NEW=$(realpath "$2")
RUNS=${3:-3}
JOBS=${4:-study beat}
WORK=$(mktemp -d /tmp/speed.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# Seconds a command takes (wall clock), its stdout to $OUT, stderr discarded.
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >"$OUT" 2>/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

run_study() { "$1" study quantisation --size 4 --board ideal --out "$2" --force; }
run_full() { "$1" study quantisation --size 4 --out "$2" --force; }
run_beat() { "$1" beat --size 7 --ties any; }

echo "old: $OLD"
echo "new: $NEW"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
for job in $JOBS; do
    old=() new=()
    for i in $(seq "$RUNS"); do
        OUT="$WORK/$job-old-$i.out" old+=("$(seconds "run_$job" "$OLD" "$WORK/$job-old-$i")")
        OUT="$WORK/$job-new-$i.out" new+=("$(seconds "run_$job" "$NEW" "$WORK/$job-new-$i")")
    done
    # Same report, or the timing means nothing: stdout, and the study's folder.
    for i in $(seq "$RUNS"); do
        cmp -s "$WORK/$job-old-1.out" "$WORK/$job-new-$i.out" || { echo "$job: stdout of new run $i differs" >&2; exit 1; }
        if [ -d "$WORK/$job-old-1" ]; then
            diff -r "$WORK/$job-old-1" "$WORK/$job-new-$i" >/dev/null || { echo "$job: report of new run $i differs" >&2; exit 1; }
        fi
    done
    m1=$(printf '%s\n' "${old[@]}" | median)
    m2=$(printf '%s\n' "${new[@]}" | median)
    printf '%s: old %.2f s (%s), new %.2f s (%s), ratio %.2f; reports identical\n' "$job" \
        "$m1" "$(printf '%.2f ' "${old[@]}" | sed 's/ $//')" \
        "$m2" "$(printf '%.2f ' "${new[@]}" | sed 's/ $//')" \
        "$(echo "$m2 / $m1" | bc -l)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
