#!/bin/sh
# consumers.sh -- programs built the ways zlib's users build them, against
# an installed zlib-turbo, each run on it (LD_LIBRARY_PATH) and checked to
# see zlib 1.3.2 and zlibTurboVersion() (tools/check/ver.c):
#   cc -lz       a plain build including zturbo.h, after make install
#                PREFIX=... (zlib's configure + Makefile.in);
#   pkg-config   `pkg-config --cflags --libs zlib` from that prefix;
#   FindZLIB     a CMake project with find_package(ZLIB) (CMake's module),
#                CMAKE_PREFIX_PATH at that prefix;
#   ZLIBConfig   a CMake project with find_package(ZLIB CONFIG) (zlib's own
#                package, which only zlib's CMake build installs: the
#                cmake-turbo step's build, installed with cmake --install).
# Also: the installed shared library keeps zlib's names (libz.so ->
# libz.so.1 -> libz.so.1.3.2).  pkg-config and CMake are skipped, each
# saying so, where missing; the step fails if the plain build fails.
set -eu
. tools/check/lib.sh
W=$LOG/consumers
rm -rf "$W"
mkdir -p "$W"
P=$W/prefix
$MAKE -s install PREFIX="$P" >"$W/install.log" 2>&1 ||
    { tail -n 20 "$W/install.log"; echo "make install PREFIX=$P failed"; exit 1; }
[ "$(readlink "$P/lib/libz.so")" = libz.so.1.3.2 ] &&
    [ "$(readlink "$P/lib/libz.so.1")" = libz.so.1.3.2 ] && [ -f "$P/lib/libz.so.1.3.2" ] ||
    { ls -l "$P/lib"; echo "the installed libz.so names are not zlib's"; exit 1; }
echo "installed: libz.so -> libz.so.1.3.2, libz.so.1 -> libz.so.1.3.2"
VER="-DVERSION=\"$VERSION\""
run() { # LABEL PROGRAM [LIBDIR]: run it on the installed library
    l=${3:-$P/lib}
    LD_LIBRARY_PATH="$l" "$2" >"$W/run.out" ||
        { cat "$W/run.out"; echo "$1: the program failed"; exit 1; }
    LD_LIBRARY_PATH="$l" ldd "$2" 2>/dev/null | grep -q "$l/libz.so.1" ||
        { echo "$1: not linked with $l/libz.so.1"; exit 1; }
    echo "$1: $(cat "$W/run.out")"
}
${CC:-cc} "$VER" -I"$P/include" -o "$W/plain" tools/check/ver.c -L"$P/lib" -lz
run "cc -lz" "$W/plain"
n=1
if command -v pkg-config >/dev/null; then
    flags=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --cflags --libs zlib)
    # shellcheck disable=SC2086
    ${CC:-cc} "$VER" -o "$W/pc" tools/check/ver.c $flags
    run "pkg-config ($flags)" "$W/pc"
    n=$((n + 1))
else
    echo "pkg-config: not installed here, not checked"
fi
if command -v cmake >/dev/null; then
    mkdir -p "$W/module" "$W/config"
    for m in module config; do
        mode=
        [ $m = config ] && mode=CONFIG
        cat >"$W/$m/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.10)
project(consumer C)
find_package(ZLIB $mode REQUIRED)
add_executable(ver $TOP/tools/check/ver.c)
target_compile_definitions(ver PRIVATE VERSION="$VERSION")
target_link_libraries(ver ZLIB::ZLIB)
CM
    done
    cmake -S "$W/module" -B "$W/module/b" -DCMAKE_PREFIX_PATH="$P" \
        >"$W/module.log" 2>&1 && cmake --build "$W/module/b" >>"$W/module.log" 2>&1 ||
        { tail -n 20 "$W/module.log"; echo "find_package(ZLIB): the build failed"; exit 1; }
    grep -q "Found ZLIB: $P/lib/libz.so" "$W/module.log" ||
        { grep "Found ZLIB" "$W/module.log"; echo "find_package(ZLIB) did not find $P"; exit 1; }
    run "find_package(ZLIB)" "$W/module/b/ver"
    n=$((n + 1))
    if [ -f "$B/cmake-turbo/CMakeCache.txt" ]; then
        # zlib's config package comes only with zlib's CMake build (cmake-turbo)
        C=$W/cmake-prefix
        cmake --install "$B/cmake-turbo" --prefix "$C" >"$W/config.log" 2>&1 &&
        cmake -S "$W/config" -B "$W/config/b" -DCMAKE_PREFIX_PATH="$C" \
            >>"$W/config.log" 2>&1 && cmake --build "$W/config/b" >>"$W/config.log" 2>&1 ||
            { tail -n 20 "$W/config.log"; echo "find_package(ZLIB CONFIG): the build failed"; exit 1; }
        run "find_package(ZLIB CONFIG)" "$W/config/b/ver" "$C/lib"
        n=$((n + 1))
    else
        echo "find_package(ZLIB CONFIG): no CMake build of the tree (cmake-turbo step) to install, not checked"
    fi
else
    echo "cmake: not installed here, not checked"
fi
echo "consumers: $n ways of building against the installed zlib-turbo"
