#!/usr/bin/env bash
# Do two builds of the bench write the same reports? For a refactor that must keep every
# report byte for byte (issue 42): `hil-tests/same-reports.sh OLD_HIL_TESTS NEW_HIL_TESTS`,
# each a hil-tests binary built with probe-rs (before stop 46: `--features probe`) (say, main's copied aside, then this
# checkout's). Runs SIL's tree3, random4 on a drawn board, the cage's fault campaign at M=3, a
# sweep of three drawn boards, PIL's tree3 in lockstep, and on the virtual board the tree in
# lockstep and the board faults; then compares every file. Differences allowed, and said:
# the folder lock (a pid) and the RTT poll count (a wall-clock figure). About 6 minutes on 2
# cores (debug builds); needs qemu-system-arm, `cargo fw` and the virtual-board binary. It
# says `--target`, the stage's name before `--stage`, which both old and new builds take.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 OLD_HIL_TESTS NEW_HIL_TESTS" >&2; exit 2; }
for bin in "$1" "$2"; do
    [ -x "$bin" ] || { echo "$bin is not an executable hil-tests" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
runs=(
    "tree3-sil --target sil --scenario tree3"
    "random4-sil --target sil --scenario random4 --games 30 --seed 7 --board-seed 3"
    "faults-sil --target sil --scenario faults --size 3"
    "sweep-sil --target sil --scenario random4 --games 5 --board-seeds 1..4"
    "tree3-pil --target pil --scenario tree3 --compare-sil"
    "tree3-virtual --target hil --probe virtual --scenario tree3 --compare-sil"
    "faults-virtual --target hil --probe virtual --scenario faults"
)
for side in old new; do
    bin=$1; [ "$side" = new ] && bin=$2
    mkdir -p "$out/$side"
    for run in "${runs[@]}"; do
        read -r name args <<<"$run"
        # shellcheck disable=SC2086
        "$bin" run $args --out "$out/$side/$name" --force >/dev/null 2>"$out/$side/$name.stderr" ||
            { echo "$side $name failed:"; cat "$out/$side/$name.stderr"; exit 1; }
    done
done
same=0; differ=0
while read -r file; do
    old="$out/old/$file"; new="$out/new/$file"
    if cmp -s "$old" "$new"; then
        same=$((same + 1))
    elif diff <(grep -v -E '"polls"|^Link \(RTT\)' "$old") <(grep -v -E '"polls"|^Link \(RTT\)' "$new") >/dev/null; then
        echo "same but the RTT poll count (wall clock): $file"
        same=$((same + 1))
    else
        echo "DIFFERS: $file"; diff "$old" "$new" | head -n 10
        differ=$((differ + 1))
    fi
done < <(cd "$out/old" && find . -type f ! -name .shards.lock ! -name '*.stderr' | sort)
echo "$same files the same, $differ differ"
[ "$differ" -eq 0 ]
