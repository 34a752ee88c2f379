#!/usr/bin/env bash
# The M=3 tree in lockstep with SIL over the board's own path (the virtual board's debug port,
# probe-rs's STM32F446RETx target and flash algorithm: --probe dap:) against the GDB path
# (--probe virtual), alternating, N runs each; the medians and their ratio (issue 61's figure:
# the DAP path within 1.5x). Both runs start from power-on and download the board ELF.
#
#   hil-tests/dap-speed.sh [HIL_TESTS [VIRTUAL_BOARD [N]]]   (defaults: the debug builds, 3)
set -euo pipefail
cd "$(dirname "$0")/.."
hil=${1:-target/debug/hil-tests}
board=${2:-target/debug/virtual-board}
n=${3:-3}
elf=target/thumbv7em-none-eabihf/fw/firmware
for f in "$hil" "$board" "$elf"; do
    [ -f "$f" ] || { echo "dap-speed: $f is missing (cargo build -p hil-tests -p virtual-board; cargo fw)" >&2; exit 2; }
done
tmp=$(mktemp -d)
served=
cleanup() { [ -n "$served" ] && kill "$served" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
seconds() { awk -v a="$(date +%s.%N)" -v b="$1" 'BEGIN { print a - b }'; }

for i in $(seq "$n"); do
    t0=$(date +%s.%N)
    VIRTUAL_BOARD="$PWD/$board" "$hil" run --stage hil --probe virtual --compare-sil --scenario tree3 \
        --board-seed 7 --elf "$elf" --out "$tmp/gdb" --force | grep -q "agreed on all 9284 commands"
    seconds "$t0" >> "$tmp/gdb.s"

    rm -f "$tmp/dap.sock" "$tmp/board.out"
    "$board" serve --seed 7 --dap "unix:$tmp/dap.sock" > "$tmp/board.out" 2> "$tmp/board.err" &
    served=$!
    while ! grep -q "serving its debug port" "$tmp/board.out" 2>/dev/null; do sleep 0.05; done
    t0=$(date +%s.%N)
    "$hil" run --stage hil --probe "dap:unix:$tmp/dap.sock" --compare-sil --scenario tree3 \
        --board-seed 7 --elf "$elf" --out "$tmp/dap" --force | grep -q "agreed on all 9284 commands"
    seconds "$t0" >> "$tmp/dap.s"
    kill "$served"; wait "$served" 2>/dev/null || true; served=
done
gdb=$(median < "$tmp/gdb.s")
dap=$(median < "$tmp/dap.s")
awk -v g="$gdb" -v d="$dap" -v n="$n" 'BEGIN { printf "tree3, SIL-equal on all 9,284 commands, medians of %d: GDB path %.1f s, DAP path %.1f s, ratio %.2f\n", n, g, d, d / g }'
