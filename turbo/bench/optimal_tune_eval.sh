#!/bin/sh
# optimal_tune_eval.sh ZRUN LEVEL [VAR=value ...] -- raw deflate bytes and CPU seconds per set
# (canterbury, calgary, large, mix1m = the first MiB of each mixed file, made in ./mix), one
# stream per file; ZRUN from optimal_perfile_build.sh (level 0: libdeflate 12), VAR=value to its
# environment (ZO_CF, ZO_SWP, ... in a -DZO_TUNE build).  Behind turbo/results/2026-12-02-sweep/
# and the configuration table of turbo/results/2026-12-02-minima/.
C=${ZT_CORPUS:-/work/shared/corpus}
Z=$1; L=$2; shift 2
mkdir -p mix
for f in "$C"/mixed/*; do
  [ -s mix/${f##*/} ] || head -c 1048576 "$f" > mix/${f##*/}
done
out=""
for set in canterbury calgary large mix; do
  if [ $set = mix ]; then files=$(ls mix/* | LC_ALL=C sort)
  else files=$(find "$C/$set" -type f | LC_ALL=C sort); fi
  out="$out $(env "$@" "$Z" "$L" $files | tail -1 | awk -v s=$set '{printf "%s %s %.2f  ", s, $2, $3}')"
done
echo "$out"
