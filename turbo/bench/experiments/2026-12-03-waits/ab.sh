#!/bin/bash
# ab.sh A B LEVEL THREADS ROUNDS FILE... : alternate binaries A and B, 5 reps per call; print median of per-call medians and min
A=$1; B=$2; L=$3; T=$4; R=$5; shift 5
for f in "$@"; do
  ra=(); rb=()
  for i in $(seq $R); do
    ra+=($($A $L $T 5 $f | awk '{print $6}')); rb+=($($B $L $T 5 $f | awk '{print $6}'))
  done
  ma=$(printf '%s\n' "${ra[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)], a[1]}')
  mb=$(printf '%s\n' "${rb[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)], a[1]}')
  echo "$(basename $f) A $ma B $mb" | awk '{printf "%-14s A med %6.2f min %6.2f  B med %6.2f min %6.2f  A/B med %.3f min %.3f\n", $1, $3, $4, $6, $7, $3/$6, $4/$7}'
done
