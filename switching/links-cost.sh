#!/usr/bin/env bash
# The cost of a whole links search projected from a stratified sample of its parts (issue 53
# item 2): the P parts split by index into STRATA equal strata, PER parts drawn at random
# (seeded) in each, each part run alone and timed (CPU seconds, user + system, geng
# included). The projection is the stratified estimator of the total, sum over strata of
# (parts in the stratum) x (the stratum's mean), with its standard error from each stratum's
# sample variance and a 95 % interval (normal approximation). PER = P / STRATA runs every
# part: the whole search, its parts timed one by one (then merge them with `BIN links
# --vertices N --merge --out OUT`).
#
# Usage: switching/links-cost.sh BIN N P [STRATA] [PER] [SEED] [OUT]
#   BIN: a birdcage binary; N, P: the search (e.g. 12 4096); STRATA 32, PER 2 (64 parts);
#   SEED 1; OUT a folder for the part files (kept: they are parts of the real search) and
#   cost.tsv (part, CPU seconds, graphs listed, pairs solved). Parts already in OUT/cost.tsv are
#   not run again, so a stopped sample resumes. JOBS=2 runs two parts at once (each still timed
#   alone: its own CPU seconds).
# geng is whatever `nauty-geng` the PATH finds (with the PRUNE hook: PATH=DIR:$PATH, DIR from
# switching/nauty/build-geng.sh); the script says which.
set -euo pipefail
BIN=$(realpath "$1")
N=$2
P=$3
STRATA=${4:-32}
PER=${5:-2}
SEED=${6:-1}
OUT=${7:-links-$N-cost}
mkdir -p "$OUT"
TSV="$OUT/cost.tsv"
[ -e "$TSV" ] || printf 'part\tcpu_s\tgraphs\tpairs\n' >"$TSV"
[ $((P % STRATA)) -eq 0 ] || { echo "links-cost: $STRATA strata do not divide $P parts" >&2; exit 2; }
SIZE=$((P / STRATA))

echo "bin: $BIN ($("$BIN" --version 2>/dev/null || true))"
echo "geng: $(command -v nauty-geng); lists $(nauty-geng -c -u 8 2>&1 | grep -o '[0-9]* graphs') on 8 vertices (Debian's: 11117 graphs)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
# The sample: PER distinct parts per stratum, drawn by awk's seeded generator.
SAMPLE=$(awk -v strata="$STRATA" -v size="$SIZE" -v per="$PER" -v seed="$SEED" 'BEGIN {
    srand(seed)
    for (h = 0; h < strata; h++) {
        delete taken
        for (j = 0; j < per; j++) {
            do { k = h * size + 1 + int(rand() * size) } while (k in taken)
            taken[k] = 1
            print k
        }
    }
}')
# One part, run alone and timed; its line appended to cost.tsv in one write, so JOBS workers
# can share the file. Each part keeps its own .time and .stderr until it is done.
run_shard() {
    local k=$1 shard
    /usr/bin/time -f '%U %S' -o "$OUT/.time.$k" "$BIN" links --vertices "$N" --part "$k/$P" --out "$OUT" >/dev/null 2>"$OUT/.stderr.$k" ||
        { cat "$OUT/.stderr.$k" >&2; return 255; }
    shard=$OUT/links-$N.$k-of-$P.shard
    printf '%s\t%s\t%s\t%s\n' "$k" "$(awk '{printf "%.2f", $1 + $2}' "$OUT/.time.$k")" \
        "$(awk '$1 == "graphs" {print $2}' "$shard")" "$(awk '$1 == "pairs" {print $2}' "$shard")" >>"$TSV"
    echo "part $k/$P: $(awk '{printf "%.2f", $1 + $2}' "$OUT/.time.$k") s"
    rm -f "$OUT/.time.$k" "$OUT/.stderr.$k"
}
export -f run_shard
export BIN N P OUT TSV
# JOBS parts at once (default 1: each part timed on an otherwise idle core).
TODO=$(for k in $SAMPLE; do grep -q "^$k	" "$TSV" || echo "$k"; done)
[ -z "$TODO" ] || printf '%s\n' "$TODO" | xargs -P "${JOBS:-1}" -I{} bash -c 'run_shard {}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# The estimate, from the parts of this sample only.
printf '%s\n' "$SAMPLE" | awk -v size="$SIZE" -v strata="$STRATA" -v tsv="$TSV" '
    BEGIN { while ((getline line < tsv) > 0) { split(line, f, "\t"); cpu[f[1]] = f[2] } }
    { k = $1; h = int((k - 1) / size); n[h]++; sum[h] += cpu[k]; sq[h] += cpu[k] ^ 2; all += cpu[k]; count++
      if (cpu[k] > top) { top = cpu[k]; at = k } }
    END {
        for (h = 0; h < strata; h++) {
            mean = sum[h] / n[h]
            total += size * mean
            # With the finite-population correction: a stratum run whole adds no error.
            if (n[h] > 1) var += size ^ 2 * (1 - n[h] / size) * (sq[h] - n[h] * mean ^ 2) / (n[h] - 1) / n[h]
        }
        se = sqrt(var)
        printf "sample: %d parts, %.1f CPU-s in all, mean %.2f s a part, largest %.1f s (part %d)\n", count, all, all / count, top, at
        printf "projected: %.2f core-hours (95 %% interval %.2f to %.2f; standard error %.2f)\n", total / 3600, (total - 1.96 * se) / 3600, (total + 1.96 * se) / 3600, se / 3600
    }'
