#!/usr/bin/env bash
# The virtual board's speed, side by side with QEMU, in one script (hil-tests/README.md, "No
# board yet"): the M=3 tree of the board drawn from seed 7 through probe-rs in lockstep with
# SIL, `--probe qemu` (the QEMU firmware) and `--probe virtual` (the board ELF), in turn,
# twice; then the virtual CPU's instructions per second on its own (`virtual-board run`).
# Release builds. Takes about 8 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p hil-tests -p virtual-board
cargo build -q -p firmware --bin firmware-qemu --features qemu --target thumbv7em-none-eabihf --profile fw
cargo fw -q
hil=target/release/hil-tests
fw=target/thumbv7em-none-eabihf/fw
for round in 1 2; do
    for probe in qemu virtual; do
        elf="$fw/firmware"
        [ "$probe" = qemu ] && elf="$fw/firmware-qemu"
        start=$(date +%s.%N)
        "$hil" run --stage hil --probe "$probe" --compare-sil --scenario tree3 --board-seed 7 \
            --elf "$elf" --out "target/bench/speed-$probe" --force | tail -n 2 | head -n 1
        end=$(date +%s.%N)
        printf 'round %d, --probe %-7s: %.1f s\n' "$round" "$probe" "$(echo "$end - $start" | bc)"
    done
done
target/release/virtual-board run --elf "$fw/firmware" --seed 7 --ms 2000 \
    --press-at 300 --press-at 600 --press-at 900 --press-at 1200 >/dev/null
