#!/usr/bin/env bash
# Two builds of the links search side by side (issue 53 item 1): every part of N = 3..10
# (their default splits) and sampled parts of N = 11 and 12, each part file of NEW compared
# byte for byte with OLD's (the part's text: counts and links; the shard header around it
# names the build, so it is left out), both ways (no part missing, none extra), with each
# part's CPU seconds (user + system, geng included) and the ratio NEW / OLD.
#
# Usage: switching/parts-check.sh OLD NEW [PARTS...]
#   OLD, NEW: birdcage binaries (e.g. d2aca82's release build and this one's);
#   PARTS: N:K/P to run besides N = 3..10, default 11:1/256 11:64/256 11:128/256 11:200/256
#   12:1/4096 12:2560/4096.
# geng is whatever `nauty-geng` the PATH finds, the same for both builds: run it with
# Debian's for the byte-for-byte check. GENG_NEW=DIR runs NEW with DIR first on its PATH (DIR
# from switching/nauty/build-geng.sh: geng with the PRUNE hook): its parts list fewer graphs
# and say `listing pruned`, so those two lines are left out of the comparison, and the times
# are the old build with Debian's geng against the new one with the hook.
# The machine may be shared: the load average is printed before and after.
set -euo pipefail
OLD=$(realpath "$1")
NEW=$(realpath "$2")
shift 2
PARTS=("$@")
[ ${#PARTS[@]} -gt 0 ] || PARTS=(11:1/256 11:64/256 11:128/256 11:200/256 12:1/4096 12:2560/4096)
WORK=$(mktemp -d /tmp/parts-check.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
GENG_NEW=${GENG_NEW:-}
CHECK=bytes
[ -z "$GENG_NEW" ] || { GENG_NEW=$(realpath "$GENG_NEW"); CHECK=pruned; }
# NEW's command, with the geng it is given.
NEWCMD=("$NEW")
[ -z "$GENG_NEW" ] || NEWCMD=(env "PATH=$GENG_NEW:$PATH" "$NEW")

# The part's own text, from either build's file.
body() {
    sed -n '/^# birdcage links: one part/,$p' "$1" | if [ "$CHECK" = pruned ]; then grep -v -e '^graphs ' -e '^listing pruned$'; else cat; fi
}
# Each part file of DIR, as "N K P" lines.
parts_of() {
    for f in "$1"/*; do
        case $(basename "$f") in
        links-*-part-*-of-*.txt) basename "$f" | sed -E 's/links-([0-9]+)-part-([0-9]+)-of-([0-9]+)\.txt/\1 \2 \3/' ;;
        links-*.*-of-*.shard) basename "$f" | sed -E 's/links-([0-9]+)\.([0-9]+)-of-([0-9]+)\.shard/\1 \2 \3/' ;;
        esac
    done | sort
}
file_of() { # DIR N K P
    if [ -e "$1/links-$2-part-$3-of-$4.txt" ]; then echo "$1/links-$2-part-$3-of-$4.txt"; else echo "$1/links-$2.$3-of-$4.shard"; fi
}
# CPU seconds of a command (its children included).
cpu() {
    /usr/bin/time -f '%U %S' -o "$WORK/time" "$@" >/dev/null 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; return 1; }
    awk '{printf "%.2f", $1 + $2}' "$WORK/time"
}

echo "old: $OLD"
echo "new: $NEW"
echo "geng: $(command -v nauty-geng)${GENG_NEW:+; new: $GENG_NEW/nauty-geng} ($CHECK)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
compare() { # OLDDIR NEWDIR
    diff <(parts_of "$1") <(parts_of "$2") >/dev/null || { echo "the part files differ in number: $1 against $2" >&2; exit 1; }
    parts_of "$1" | while read -r n k p; do
        cmp -s <(body "$(file_of "$1" "$n" "$k" "$p")") <(body "$(file_of "$2" "$n" "$k" "$p")") ||
            { echo "part $k/$p of N = $n differs" >&2; exit 1; }
    done
}
for n in 3 4 5 6 7 8 9 10; do
    t_old=$(cpu "$OLD" links --vertices "$n" --out "$WORK/old-$n" --jobs 1)
    t_new=$(cpu "${NEWCMD[@]}" links --vertices "$n" --out "$WORK/new-$n" --jobs 1)
    compare "$WORK/old-$n" "$WORK/new-$n"
    echo "N = $n, every part ($(parts_of "$WORK/new-$n" | wc -l)): old $t_old s, new $t_new s; parts identical"
done
for spec in "${PARTS[@]}"; do
    n=${spec%%:*} part=${spec#*:}
    t_old=$(cpu "$OLD" links --vertices "$n" --part "$part" --out "$WORK/old-$spec")
    t_new=$(cpu "${NEWCMD[@]}" links --vertices "$n" --part "$part" --out "$WORK/new-$spec")
    compare "$WORK/old-$spec" "$WORK/new-$spec"
    printf 'N = %s, part %s: old %s s, new %s s, ratio %.3f; part identical\n' "$n" "$part" "$t_old" "$t_new" \
        "$(echo "$t_new / $t_old" | bc -l)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
