#!/bin/sh
# cmake-turbo.sh -- the CMake build of the patched tree, zlib's CMake tests,
# and zlibTurboVersion exported under ZLIB_TURBO_1.0
set -eu
rm -rf "$B/cmake-turbo"
cmake -S "$TUR" -B "$B/cmake-turbo" -DCMAKE_BUILD_TYPE=Release \
    ${CC:+-DCMAKE_C_COMPILER="$CC"}
cmake --build "$B/cmake-turbo" -j2
(cd "$B/cmake-turbo" && ctest --output-on-failure)
objdump -T "$B/cmake-turbo/libz.so.1" | grep -q 'ZLIB_TURBO_1.0 *zlibTurboVersion'
echo "CMake build exports zlibTurboVersion under ZLIB_TURBO_1.0"
