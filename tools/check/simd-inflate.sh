#!/bin/sh
# simd-inflate.sh -- inflate built with configure --simd's flags (its 32-byte
# AVX2 match copies, inffast.c's ZSIMD_COPY32) against pristine zlib 1.3.2
# built the same way: the inflate tests of the differential suite, edge cases
# (output cut at every byte around matches, bytes past next_out kept) and
# 15,000 damaged streams, through variants.sh's "simd" variant; x86 with
# PCLMULQDQ, SSE4.1, AVX2
set -eu
. tools/check/lib.sh
need_simd_cpu
F=InflateIdentity.FilesAllLevels:InflateIdentity.Dictionaries
F=$F:InflateIdentity.InflateBack:InflateIdentity.GzipHeadersAndMembers
F=$F:InflateIdentity.SyncPoints:InflateIdentity.OneShotUncompress2
F=$F:InflateIdentity.PrimeValidateReset2:InflateEdges.*:DamagedStream.*
VARIANTS=simd DAMAGED_VARIANTS=simd FILTER=$F sh tools/check/variants.sh
