#!/bin/sh
# cgb.sh NAME LEVEL: callgrind with cache and branch simulation over the sample
N=$1; L=$2
nice valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --D1=49152,12,64 --LL=1048576,8,64 --I1=32768,8,64 \
  --callgrind-out-file=cgb-$N-L$L.out ./zrun-$N $L s-world s-binu s-book1 > cgb-$N-L$L.log 2>&1
