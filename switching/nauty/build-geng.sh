#!/bin/sh
# Builds geng with the links search's PRUNE hook (prune.c) as `nauty-geng` in DIR, so that
# `PATH=DIR:$PATH birdcage links ...` (or the links_cost example) lists only the graphs that
# can have three triangle-free vertices. Needs nauty's geng.c (nauty's source, e.g. nauty 2.8's
# tarball from https://pallini.di.uniroma1.it or https://users.cecs.anu.edu.au/~bdm/nauty/),
# Debian's libnauty2-dev (headers and libnautyW1) and a C compiler.
#   switching/nauty/build-geng.sh path/to/geng.c DIR
# Check: DIR/nauty-geng -c -u 10 counts 939267 graphs (plain geng: 11716571).
set -eu
geng_c=$1
out=$2
here=$(dirname "$0")
mkdir -p "$out"
cc -O3 -DWORDSIZE=32 -DMAXN=WORDSIZE -DPRUNE=links_prune -I/usr/include/nauty \
    -o "$out/nauty-geng" "$geng_c" "$here/prune.c" -l:libnautyW1.so.2
"$out/nauty-geng" -c -u 10 2>&1 | tail -1
