#!/bin/sh
# differential-sample.sh -- the differential suite on a sample, for make
# check-quick: six corpus files of different kinds (zlib's own sources
# without ../shared), the tests zlib's build variants run (variants.sh's
# filter: deflate levels 0-9, inflate, checksums, dictionaries, edge cases,
# threads, a subset of levels 10-12), each at a quarter of its quick cases.
# make check runs the whole suite.
set -eu
. tools/check/lib.sh
[ -x "$B/tests/zt_tests" ] ||
    { echo "build/tests/zt_tests was not built (see build-differential-suite)"; exit 1; }
sample_files
export ZT_MODE=quick ZT_CASE_SCALE=${ZT_CASE_SCALE:-25}
F=ChecksumIdentity.*
F=$F:DeflateIdentity.FilesAllLevels:DeflateIdentity.ParameterMatrix
F=$F:DeflateIdentity.SlicedWithFlushes:DeflateIdentity.ShortInputs
F=$F:DeflateIdentity.OneShotCompress2
F=$F:InflateIdentity.FilesAllLevels:InflateIdentity.Dictionaries
F=$F:InflateIdentity.InflateBack:InflateIdentity.GzipHeadersAndMembers
F=$F:InflateIdentity.SyncPoints:InflateIdentity.OneShotUncompress2
F=$F:InflateIdentity.PrimeValidateReset2:InflateEdges.*
F=$F:DamagedStream.KnownInflateBackRepro:PreparedDictionary.*
F=$F:DeflateCopy.*:DeflatePrimeBounds.*:GzZeroFill.*:MaxLevel.*
F=$F:OptimalLevels.LevelRange:OptimalLevels.SlicedInputSameBytes
F=$F:OptimalLevels.ThreadCountSameBytes:OptimalLevels.BoundHolds
exec "$B/tests/zt_tests" --gtest_filter="${FILTER:-$F}"
