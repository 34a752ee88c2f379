#!/usr/bin/env bash
# The M=3 tree on the virtual board idle and beside two busy processes, side by side in one
# script (issue 52, hil-tests/README.md "Beside busy processes"): each round runs the tree
# (`--probe virtual`, board seed 7, the board ELF) once alone, then once with two shell loops
# spinning; it prints every time, the two medians and their ratio. The loops are this script's
# own and are killed when it ends, however it ends. ROUNDS (3) rounds; PROFILE (debug) or
# release builds; HIL_TESTS and ELF name binaries built elsewhere (another commit's: the
# virtual board is found beside hil-tests), and nothing is built. Takes about a minute per
# round and a half on 2 cores shared with other work (debug builds).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
profile=${PROFILE:-debug}
target=${CARGO_TARGET_DIR:-target}
flag=()
[ "$profile" = release ] && flag=(--release)
if [ -z "${HIL_TESTS:-}" ]; then
    cargo build -q "${flag[@]}" -p hil-tests -p virtual-board
    cargo fw -q
fi
hil=${HIL_TESTS:-$target/$profile/hil-tests}
elf=${ELF:-$target/thumbv7em-none-eabihf/fw/firmware}
out=$(mktemp -d)
busy=()
stop_busy() {
    for pid in "${busy[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    busy=()
}
trap 'stop_busy; rm -rf "$out"' EXIT

# One tree, its wall time in seconds.
tree() {
    local start end
    start=$(date +%s.%N)
    "$hil" run --stage hil --probe virtual --scenario tree3 --board-seed 7 --elf "$elf" \
        --out "$out/tree" --force >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

median() {
    printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"
}

idle=()
loaded=()
for round in $(seq "$rounds"); do
    idle+=("$(tree)")
    for _ in 1 2; do
        (while :; do :; done) &
        busy+=("$!")
    done
    loaded+=("$(tree)")
    stop_busy
    printf 'round %d: idle %.2f s, beside two busy loops %.2f s\n' "$round" \
        "${idle[-1]}" "${loaded[-1]}"
done
i=$(median "${idle[@]}")
b=$(median "${loaded[@]}")
printf 'medians of %d (%s build): idle %.2f s, busy %.2f s, ratio %.2f\n' "$rounds" "$profile" \
    "$i" "$b" "$(echo "$b / $i" | bc -l)"
