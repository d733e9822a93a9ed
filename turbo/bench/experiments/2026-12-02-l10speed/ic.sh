#!/bin/sh
# ic.sh NAME LEVEL: instruction counts over the sample (callgrind, no cache sim)
N=$1; L=$2
nice valgrind --tool=callgrind --callgrind-out-file=ic-$N-L$L.out ./zrun-$N $L s-world s-binu s-book1 > ic-$N-L$L.log 2>&1
grep -E "TOTAL" ic-$N-L$L.log
callgrind_annotate --inclusive=no ic-$N-L$L.out 2>/dev/null | grep -E "PROGRAM TOTALS|opt_|deflate_opt" | head -12 | sed 's/ *\[.*//' | cut -c1-120
