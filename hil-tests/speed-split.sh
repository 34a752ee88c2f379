#!/usr/bin/env bash
# Where the M=3 tree's time goes on the virtual board (issue 39, item 7), in one script: the
# tree of the board drawn from seed 7 through probe-rs in lockstep with SIL, and the virtual
# CPU alone on the same firmware, in turn, ROUNDS times (3 unless set). For each tree the
# board writes its instruction count and the host time its engine spent executing them
# (`VIRTUAL_BOARD_SPEED`); the CPU's own rate is `virtual-board run` on a visitor's four
# presses with no bench (the speed script's command), and on a visitor pressing every 200 ms
# for a minute. Prints the medians, the ratio of the tree's wall time to the time its work's
# instructions take in the engine (the issue's measure) and to those instructions at the
# four presses' rate (a workload with far fewer ADC conversions). Release builds; about 25 s.
#
# While the board waits for the bench its firmware spins its 1 ms main-loop tick (the button,
# the RTT channel, the watchdog, SysTick), so the engine's time holds waiting too. An idle
# tick's cost is measured here in the same rounds (`virtual-board run` idle for 200 s against
# 0 s of virtual time, no press: the difference over the difference in watchdog feeds, one a
# tick), and the tree's ticks are its feeds, so the engine's time splits into the firmware's
# work and its waiting. Every tick is counted as waiting, the ~20,000 that carried a command
# too, so the work's time is, if anything, understated.
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
: > "$out/idle.txt"
# One `virtual-board run` (its arguments after the ELF and seed), as `N S A R F`: its
# instructions, host seconds, conversions, M instructions a second (the precise rate), feeds.
board_run() {
    "$board" run --elf "$elf" --seed 7 "$@" 2>&1 >/dev/null |
        sed -n -e 's/^ran \([0-9]*\) instructions .* \([0-9]*\) conversions) in \([0-9.]*\) s: \([0-9.]*\) M instructions\/s$/\1 \3 \2 \4/p' \
            -e 's/^the independent watchdog was fed \([0-9]*\) times.*$/\1/p' | paste -sd' '
}
# A visitor pressing every 200 ms for a minute: after the first move nobody cuts the cage, so
# each press is the self-check's sweep of the nodes failing: work dense in conversions.
sweeps=()
for ms in $(seq 300 200 60000); do sweeps+=(--press-at "$ms"); done
: > "$out/sweeps.txt"
for round in $(seq "${ROUNDS:-3}"); do
    start=$(date +%s.%N)
    VIRTUAL_BOARD_SPEED="$out/board.txt" "$hil" run --stage hil --probe virtual --compare-sil \
        --scenario tree3 --board-seed 7 --elf "$elf" --out "$out/tree" --force >/dev/null
    end=$(date +%s.%N)
    # instructions N cycles C executing S s serving T s feeds F conversions A
    read -r _ n _ _ _ executing _ _ serving _ _ feeds _ conversions < "$out/board.txt"
    echo "$(echo "$end - $start" | bc) $n $executing $serving $feeds $conversions" >> "$out/trees.txt"
    echo "$(board_run --ms 2000) $(board_run --ms 202000)" >> "$out/idle.txt"
    board_run --ms 60100 "${sweeps[@]}" >> "$out/sweeps.txt"
    for _ in 1 2 3; do
        board_run --ms 2000 --press-at 300 --press-at 600 --press-at 900 --press-at 1200 \
            >> "$out/rates.txt"
    done
done
python3 - "$out/trees.txt" "$out/rates.txt" "$out/idle.txt" "$out/sweeps.txt" <<'PY'
import statistics, sys
trees = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
# `virtual-board run`s: N S A R F (instructions, seconds, conversions, M/s, feeds).
runs = lambda i: [list(map(float, l.split())) for l in open(sys.argv[i]) if l.strip()]
rates = runs(2)
# The visitor's run: its conversions per million instructions (the same in every run).
alone_density = rates[0][2] / rates[0][0] * 1e6
rates = [r[3] for r in rates]
idles = runs(3)
sweeps = runs(4)
med = lambda xs: statistics.median(xs)
wall, n, executing, serving = (med(t[i] for t in trees) for i in range(4))
rate = med(rates) * 1e6
alone = n / rate
# An idle tick, per round: (instructions, seconds) over the feeds between 2 s and 202 s idle.
ticks = [((b[0] - a[0]) / (b[4] - a[4]), (b[1] - a[1]) / (b[4] - a[4]))
         for a, b in ((i[:5], i[5:]) for i in idles)]
# Each tree with its round's tick: the engine's waiting, the work's instructions and time.
work = [(t[1] - t[4] * ipt, t[2] - t[4] * spt, t[0]) for t, (ipt, spt) in zip(trees, ticks)]
work_n, work_s = med(w[0] for w in work), med(w[1] for w in work)
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
print(f"an idle tick: {med(t[0] for t in ticks):.0f} instructions, "
      f"{med(t[1] for t in ticks) * 1e6:.2f} us (median of {len(ticks)})")
print(f"the tree's ticks (watchdog feeds): {med(t[4] for t in trees):.0f}; "
      f"the engine waiting in them {executing - work_s:.2f} s, "
      f"{(n - work_n) / 1e6:.0f} M instructions")
print(f"the firmware's work: {work_n / 1e6:.0f} M instructions, {work_s:.2f} s of the engine "
      f"({work_n / work_s / 1e6:.1f} M instructions/s)")
print(f"the ADC's conversions per million instructions of work: tree "
      f"{med(t[5] for t in trees) / work_n * 1e6:.0f}, the CPU-alone run {alone_density:.0f}")
# The sweeps' work, net of their idle ticks as the tree's is (the round's tick).
sweep = [((r[0] - r[4] * ipt), (r[0] / (r[3] * 1e6) - r[4] * spt), r[2]) for r, (ipt, spt) in zip(sweeps, ticks)]
print(f"  a visitor pressing every 200 ms for a minute, net of its ticks: "
      f"{med(w[0] / w[1] for w in sweep) / 1e6:.0f} M instructions/s with "
      f"{med(w[2] / w[0] for w in sweep) * 1e6:.0f} conversions a million instructions")
print(f"wall / the work's own time: {med(w[2] / w[1] for w in work):.2f}")
print(f"wall / the work's instructions at the CPU-alone rate: {med(w[2] / (w[0] / rate) for w in work):.2f}")
PY
