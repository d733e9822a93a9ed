#!/bin/sh
# ab.sh N LEVEL "zA zB ..." files...: alternate runs, print min and median CPU time of each
N=$1; L=$2; Z=$3; shift 3
for r in $(seq $N); do for z in $Z; do echo "$z $(./zrun-$z $L "$@" | tail -1 | awk '{print $3}')"; done; done > /tmp/ab.$$
for z in $Z; do grep "^$z " /tmp/ab.$$ | awk '{print $2}' | sort -n | awk -v z=$z '{a[NR]=$1} END{printf "%s min %.4f med %.4f\n", z, a[1], a[int((NR+1)/2)]}'; done
