#!/bin/sh
# windows-cmake.sh -- zlib's own CMake build of the patched tree for 64-bit
# Windows (mingw-w64 toolchain file, static library: the pinned file set has
# no win32/zlib1.rc for the DLL's resources), run under wine: zlib's
# example must print every line pristine zlib's example prints on the host
# (the compile flags line aside), infcover must pass, minigzip -9 must give
# pristine zlib's deflate bytes (the gzip header's OS byte is 10 there, as
# zlib writes on Windows) and read them back, and the zturbo command built
# by CMake must give the host zturbo's bytes at -n -9 -T4.  Skipped (77)
# without x86_64-w64-mingw32-gcc or wine.  Run by make check-windows.
set -eu
. tools/check/lib.sh
command -v x86_64-w64-mingw32-gcc >/dev/null ||
    skip "no x86_64-w64-mingw32-gcc (apt-get install gcc-mingw-w64-x86-64)"
w=$(command -v wine64 || command -v wine || true)
[ -n "$w" ] || skip "no wine (apt-get install wine64)"
W=$B/cross/win-cmake
rm -rf "$W/b"
mkdir -p "$W"
cat >"$W/toolchain.cmake" <<'TC'
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
TC
cmake -S "$TUR" -B "$W/b" -DCMAKE_TOOLCHAIN_FILE="$W/toolchain.cmake" \
    -DZLIB_BUILD_TESTING=ON -DZLIB_BUILD_SHARED=OFF \
    -DCMAKE_EXE_LINKER_FLAGS=-static >"$W/cmake.log" 2>&1 ||
    { tail -n 20 "$W/cmake.log"; echo "cmake (mingw) failed"; exit 1; }
$MAKE -C "$W/b" -s >"$W/make.log" 2>&1 ||
    { tail -n 20 "$W/make.log"; echo "the mingw build failed"; exit 1; }
export WINEPREFIX="$B/cross/wine" WINEDEBUG=-all
# run: text output (wine's console writes CR LF); runbin: bytes as they are
run() { timeout 600 "$w" "$@" 2>/dev/null | tr -d '\r'; }
runbin() { timeout 600 "$w" "$@" 2>/dev/null; }
# the first run may make the wine prefix (a minute)
cd "$W"
run "$W/b/test/zlib_static_example.exe" >"$W/example.out" ||
    run "$W/b/test/zlib_static_example.exe" >"$W/example.out" ||
    skip "wine cannot run a program here"
cd "$TOP"
(cd "$W" && "$REF/example") >"$W/example.ref" 2>/dev/null ||
    { echo "pristine example failed on the host"; exit 1; }
# the first line names the compile flags, which differ by platform
sed 1d "$W/example.ref" >"$W/example.ref1"
sed 1d "$W/example.out" >"$W/example.out1"
cmp -s "$W/example.ref1" "$W/example.out1" ||
    { diff "$W/example.ref1" "$W/example.out1"; echo "example differs from pristine"; exit 1; }
echo "example: $(wc -l <"$W/example.out") lines, as pristine's on the host"
run "$W/b/test/infcover.exe" >"$W/infcover.out" ||
    { tail -n 5 "$W/infcover.out"; echo "infcover failed"; exit 1; }
echo "infcover: passed"
n=0
for f in "$TOP/README.md" "$TOP/turbo/TECHNIQUES.md" "$TOP/../shared/corpus/canterbury/alice29.txt"; do
    [ -f "$f" ] || continue
    runbin "$W/b/test/static_minigzip.exe" -9 <"$f" >"$W/m.gz"
    "$REF/minigzip" -9 <"$f" >"$W/m-ref.gz"
    # the 10-byte gzip header carries the OS byte (10 on Windows, 3 here)
    cmp -s "$W/m-ref.gz" "$W/m.gz" ||
        [ "$(tail -c +11 "$W/m.gz" | od -An -tx1 | tr -d ' \n')" = \
          "$(tail -c +11 "$W/m-ref.gz" | od -An -tx1 | tr -d ' \n')" ] ||
        { echo "minigzip -9 on Windows: other bytes than pristine for $f"; exit 1; }
    runbin "$W/b/test/static_minigzip.exe" -d <"$W/m.gz" | cmp -s - "$f" ||
        { echo "minigzip -d on Windows does not give $f back"; exit 1; }
    runbin "$W/b/zturbo.exe" -n -9 -T4 -c <"$f" >"$W/z.gz"
    "$TUR/zturbo" -n -9 -c <"$f" | cmp -s - "$W/z.gz" ||
        { echo "zturbo.exe -n -9 -T4: other bytes than the host's zturbo for $f"; exit 1; }
    n=$((n + 1))
done
echo "minigzip and zturbo: $n files, pristine's deflate bytes and the host's zturbo bytes"
