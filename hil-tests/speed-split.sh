#!/usr/bin/env bash
# Where the M=3 tree's time goes on the virtual board (issue 39, item 7), in one script: the
# tree of the board drawn from seed 7 through probe-rs in lockstep with SIL, and the virtual
# CPU alone on the same firmware, in turn, ROUNDS times (3 unless set). For each tree the
# board writes its instruction count and the host time its engine spent executing them
# (`VIRTUAL_BOARD_SPEED`); the CPU's own rate is `virtual-board run` on a visitor's four
# presses with no bench (the speed script's command). Prints the medians and the ratio of
# the tree's wall time to its instructions at that rate. Release builds; about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p hil-tests -p virtual-board
cargo fw -q
hil=target/release/hil-tests
board=target/release/virtual-board
elf=target/thumbv7em-none-eabihf/fw/firmware
out=target/bench/speed-split
mkdir -p "$out"
: > "$out/trees.txt"
: > "$out/rates.txt"
for round in $(seq "${ROUNDS:-3}"); do
    start=$(date +%s.%N)
    VIRTUAL_BOARD_SPEED="$out/board.txt" "$hil" run --stage hil --probe virtual --compare-sil \
        --scenario tree3 --board-seed 7 --elf "$elf" --out "$out/tree" --force >/dev/null
    end=$(date +%s.%N)
    # instructions N cycles C executing S s serving T s
    read -r _ n _ _ _ executing _ _ serving _ < "$out/board.txt"
    echo "$(echo "$end - $start" | bc) $n $executing $serving" >> "$out/trees.txt"
    for _ in 1 2 3; do
        "$board" run --elf "$elf" --seed 7 --ms 2000 --press-at 300 --press-at 600 \
            --press-at 900 --press-at 1200 2>&1 >/dev/null |
            sed -n 's/^ran .*: \([0-9.]*\) M instructions\/s$/\1/p' >> "$out/rates.txt"
    done
done
python3 - "$out/trees.txt" "$out/rates.txt" <<'PY'
import statistics, sys
trees = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
rates = [float(l) for l in open(sys.argv[2]) if l.strip()]
med = lambda i: statistics.median(t[i] for t in trees)
wall, n, executing, serving = med(0), med(1), med(2), med(3)
rate = statistics.median(rates) * 1e6
alone = n / rate
print(f"M=3 tree through probe-rs, {len(trees)} runs: wall {', '.join(f'{t[0]:.2f}' for t in trees)} s "
      f"(median {wall:.2f} s)")
print(f"  instructions {n / 1e9:.3f} billion; the board's engine executing them {executing:.2f} s, "
      f"the board serving {serving:.2f} s (medians)")
print(f"the virtual CPU alone: {rate / 1e6:.1f} M instructions/s (median of {len(rates)} runs)")
print(f"  the tree's instructions at that rate: {alone:.2f} s")
print(f"everything else (probe-rs, packets, RTT polling, SIL, the lockstep): {wall - alone:.2f} s")
print(f"wall / instruction time alone: {wall / alone:.2f}")
print(f"wall / the engine's own time on them: {wall / executing:.2f} "
      f"(its rate in the tree: {n / executing / 1e6:.1f} M instructions/s)")
PY
