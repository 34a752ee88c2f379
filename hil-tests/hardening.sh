#!/usr/bin/env bash
# What the firmware's per-press self-check buys against glitches (issues 39 and 51), in one
# script with named seeds, so the same command always prints the same table: the board
# binary users flash and its study build with the self-check off (`firmware-unchecked`, the
# same target folder), each through
#   - kept: flips of the state kept between presses, at moments uniform over the visit on
#     the visitor's clock (`--kinds kept`, a turn of 5 s), KEPT trials, seed KEPT_SEED;
#   - instants: skip, register, sram, adc and fpu at instants uniform over the game's
#     instructions (the default kinds), INSTANTS trials, seed INSTANTS_SEED.
# Prints one table (hil-tests/README.md, "The state kept between presses"): every class,
# late and silent apart, each count with its 95 % Clopper-Pearson interval. The reports stay
# in target/bench/hardening. Defaults: 20,000 kept and 10,000 instants (about an hour and a
# half on two cores); KEPT=N INSTANTS=N scale them.
set -euo pipefail
cd "$(dirname "$0")/.."
kept=${KEPT:-20000}
instants=${INSTANTS:-10000}
kept_seed=${KEPT_SEED:-1}
instants_seed=${INSTANTS_SEED:-1}
cargo build -q -p hil-tests -p virtual-board
cargo fw -q
cargo build -q -p firmware --bin firmware-unchecked --target thumbv7em-none-eabihf --profile fw \
    --features board,unchecked
out=target/bench/hardening
mkdir -p "$out"
fw=target/thumbv7em-none-eabihf/fw
campaign() { # name elf args...
    target/debug/hil-tests run --stage hil --probe virtual --scenario glitches \
        --elf "$2" --out "$out/$1" --force --fail-on none "${@:3}" >/dev/null
}
# The two builds of each campaign run side by side, one a core.
campaign unchecked-kept "$fw/firmware-unchecked" --trials "$kept" --seed "$kept_seed" --kinds kept &
campaign shipped-kept "$fw/firmware" --trials "$kept" --seed "$kept_seed" --kinds kept
wait
campaign unchecked-instants "$fw/firmware-unchecked" --trials "$instants" --seed "$instants_seed" &
campaign shipped-instants "$fw/firmware" --trials "$instants" --seed "$instants_seed"
wait
echo "| build | campaign | trials | no effect | detected | late | silent | stopped | slow |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for run in unchecked-kept shipped-kept unchecked-instants shipped-instants; do
    case $run in unchecked-*) build="self-check off" ;; *) build="self-check on (shipped)" ;; esac
    case $run in
    *-kept) what="\`--kinds kept --seed $kept_seed\`" ;;
    *) what="instants, \`--seed $instants_seed\`" ;;
    esac
    # The kind table's last row: | **all** | trials | one cell a class |
    grep '^| \*\*all\*\* |' "$out/$run/glitches.md" | head -n 1 |
        sed "s/^| \*\*all\*\* |/| $build | $what |/"
done
