#!/bin/sh
# ab.sh ROUNDS REPS FILE.z NAME... : per round, each tinf-NAME once (REPS reps, best MB/s); prints the max per NAME
R=$1; P=$2; Z=$3; shift 3
for i in $(seq $R); do for n in "$@"; do echo "$n $(nice ./tinf-$n $Z $P)"; done; done |
awk '{ if ($2 > m[$1]) m[$1] = $2; s[$1] = s[$1] " " $2 } END { for (k in m) printf "%-6s max %7.1f  all:%s\n", k, m[k], s[k] }' | sort
