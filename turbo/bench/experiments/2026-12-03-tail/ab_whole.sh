#!/bin/sh
# whole-file inflate A/B: the series before (REF) against after (TUR), quick set, -O2
C=/work/shared/corpus
cd /work/main
LAYOUTS=${LAYOUTS:-2} ROTATE=1 REPS=${REPS:-3} LEVELS=1,6 ILEVELS=1,6 OPS=inflate-zlib,inflate-zlib-16k MIN_TIME=0.1 \
  bash turbo/bench/run_speed.sh /tmp/old/build/zlib-turbo build/zlib-turbo \
  $C/calgary/book1 $C/canterbury/kennedy.xls $C/calgary/pic $C/mixed/austen.txt $C/mixed/ch2-mri.nii \
  $C/mixed/binutils-elf.tar $C/mixed/egm96_15.gtx $C/mixed/gcide-16m.txt $C/mixed/mingw-dlls.tar
