#!/usr/bin/env bash
# What the firmware's per-press self-check buys against glitches (issue 39, item 5), in one
# script: the board binary users flash and the same binary built with the self-check off
# (`--features unchecked`, a study build into target/unchecked), each through the glitch
# campaign on the state kept between presses (`--kinds kept`, 4,000 trials) and at the
# decision (`--window 85..100`, 2,000 trials), seed 1. Prints one table (hil-tests/README.md,
# "The state kept between presses"); the reports stay in target/bench/hardening. About ten
# minutes on two cores. TRIALS=N scales both campaigns (N kept, N/2 at the decision).
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${TRIALS:-4000}
cargo build -q -p hil-tests -p virtual-board
cargo fw -q
CARGO_TARGET_DIR=target/unchecked cargo fw -q --features unchecked
out=target/bench/hardening
mkdir -p "$out"
campaign() { # name elf args...
    target/debug/hil-tests run --target hil --probe virtual --scenario glitches --seed 1 \
        --elf "$2" --out "$out/$1" --force "${@:3}" >/dev/null
}
shipped=target/thumbv7em-none-eabihf/fw/firmware
unchecked=target/unchecked/thumbv7em-none-eabihf/fw/firmware
campaign off-kept "$unchecked" --trials "$trials" --kinds kept
campaign on-kept "$shipped" --trials "$trials" --kinds kept
campaign off-late "$unchecked" --trials $((trials / 2)) --window 85..100
campaign on-late "$shipped" --trials $((trials / 2)) --window 85..100
echo "| build | campaign | trials | no effect | detected | hang | silent wrong move |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for run in off-kept on-kept off-late on-late; do
    case $run in off-*) build="self-check off" ;; *) build="self-check on (shipped)" ;; esac
    case $run in *-kept) what='`--kinds kept`' ;; *) what='`--window 85..100`' ;; esac
    # The kind table's last row: | **all** | trials | no effect | detected | hang | silent |
    grep '^| \*\*all\*\* |' "$out/$run/glitches.md" | head -n 1 |
        sed "s/^| \*\*all\*\* |/| $build | $what |/"
done
