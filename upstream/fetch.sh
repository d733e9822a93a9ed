#!/bin/sh
# upstream/fetch.sh DEST
#
# Puts a verified copy of pristine zlib 1.3.2 at DEST (a folder that must not
# exist yet).  zlib-turbo commits no zlib code: zlib is a build input, pinned
# by the sha256 of every file the build uses (upstream/zlib-1.3.2.sha256).
#
# Sources, tried in this order:
#   1. ZLIB_SRC=DIR        an unpacked zlib 1.3.2 tree the user names
#      ZLIB_TARBALL=FILE   a tarball the user names (zlib-1.3.2.tar.gz, or
#                          Debian's zlib_1.3.dfsg+really1.3.2.orig.tar.gz)
#   2. build/dl/zlib-1.3.2.tar.gz, the copy cached by an earlier run
#   3. Debian's source package "zlib" at upstream version 1.3.2, through
#      apt-get source --download-only, with a temporary sources list and
#      temporary state folders made from the Debian mirror this machine is
#      already configured with (the system's apt configuration is only read)
#   4. the upstream release addresses (zlib.net, GitHub), if there is internet
#
# Every file listed in the pin is checked; a tarball is accepted only if all of
# them match.  Nothing is left at DEST unless the whole tree verified.
set -eu

DEST=${1:?usage: fetch.sh DEST}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
PIN="$HERE/zlib-1.3.2.sha256"
VERSION=1.3.2
CACHE_DIR=${ZLIB_CACHE_DIR:-$TOP/build/dl}
CACHE="$CACHE_DIR/zlib-$VERSION.tar.gz"
# sha256 of the Debian orig tarball (the upstream tarball is checked per file)
DEBIAN_ORIG_SHA256=7b6903eb019983987b7112eccf90f1703f1c6c0e0cede36564bf611d19ca579d

say() { echo "fetch: $*" >&2; }
die() {
    cat >&2 <<EOF
fetch: $*

zlib-turbo needs pristine zlib $VERSION as a build input and could not get a
verified copy.  Download zlib-$VERSION.tar.gz from https://zlib.net/ (or
Debian's zlib_1.3.dfsg+really$VERSION.orig.tar.gz, sha256
$DEBIAN_ORIG_SHA256)
and run:   make ZLIB_TARBALL=/path/to/zlib-$VERSION.tar.gz
or, with an unpacked tree:   make ZLIB_SRC=/path/to/zlib-$VERSION
EOF
    exit 1
}

[ ! -e "$DEST" ] || die "$DEST already exists"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/zt-fetch.XXXXXX")
trap '[ -n "${FETCH_KEEP:-}" ] || rm -rf "$WORK"' EXIT INT TERM

# verify_tree DIR: every pinned file present with its sha256
verify_tree() {
    (cd "$1" && sha256sum --quiet --strict -c "$PIN") >"$WORK/verify.log" 2>&1
}

# take_tree DIR: copy the pinned files of a verified tree to DEST, atomically
take_tree() {
    mkdir -p "$WORK/out"
    (cd "$1" && cut -c67- "$PIN" | while IFS= read -r f; do
        mkdir -p "$WORK/out/$(dirname "$f")"
        cp -p "$f" "$WORK/out/$f"
    done)
    # the tarballs ship configure executable; keep it so whatever the source
    chmod +x "$WORK/out/configure"
    mkdir -p "$(dirname "$DEST")"
    mv "$WORK/out" "$DEST"
}

# try_tarball FILE: unpack, verify, take; returns 1 if it does not verify
try_tarball() {
    rm -rf "$WORK/x"
    mkdir -p "$WORK/x"
    if ! tar -xzf "$1" -C "$WORK/x" 2>"$WORK/tar.log"; then
        say "$1: not a readable tar.gz"
        return 1
    fi
    set -- "$1" "$WORK"/x/*/
    if [ $# -ne 2 ] || [ ! -d "$2" ]; then
        say "$1: expected one top-level folder"
        return 1
    fi
    if ! verify_tree "$2"; then
        say "$1: does not match the pin:"
        head -5 "$WORK/verify.log" >&2
        return 1
    fi
    take_tree "$2"
    return 0
}

# cache FILE: keep a verified tarball for the next run
cache() {
    if [ "$1" != "$CACHE" ]; then
        mkdir -p "$CACHE_DIR"
        cp "$1" "$CACHE.tmp" && mv "$CACHE.tmp" "$CACHE"
    fi
}

# 1. what the user named
if [ -n "${ZLIB_SRC:-}" ]; then
    [ -d "$ZLIB_SRC" ] || die "ZLIB_SRC=$ZLIB_SRC is not a folder"
    verify_tree "$ZLIB_SRC" || { head -5 "$WORK/verify.log" >&2;
        die "ZLIB_SRC=$ZLIB_SRC is not pristine zlib $VERSION"; }
    take_tree "$ZLIB_SRC"
    say "verified zlib $VERSION from ZLIB_SRC=$ZLIB_SRC"
    exit 0
fi
if [ -n "${ZLIB_TARBALL:-}" ]; then
    [ -f "$ZLIB_TARBALL" ] || die "ZLIB_TARBALL=$ZLIB_TARBALL is not a file"
    try_tarball "$ZLIB_TARBALL" ||
        die "ZLIB_TARBALL=$ZLIB_TARBALL is not pristine zlib $VERSION"
    cache "$ZLIB_TARBALL"
    say "verified zlib $VERSION from ZLIB_TARBALL=$ZLIB_TARBALL"
    exit 0
fi

# 2. the cached copy
if [ -f "$CACHE" ]; then
    if try_tarball "$CACHE"; then
        say "verified zlib $VERSION from $CACHE"
        exit 0
    fi
    say "ignoring the cached $CACHE"
fi

# 3. Debian's source package, from the mirror this machine already uses
debian_mirrors() {
    # one-line style (sources.list, *.list) and deb822 style (*.sources)
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        sed -n 's/^[[:space:]]*deb\(-src\)\{0,1\}[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\).*/\3/p' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        sed -n 's/^URIs:[[:space:]]*//p' "$f" | tr ' ' '\n'
    done
}
try_debian() {
    command -v apt-get >/dev/null 2>&1 || return 1
    mirrors=$(debian_mirrors | grep -i '/debian/*$' | grep -v -i security |
              awk '!seen[$0]++')
    [ -n "$mirrors" ] || return 1
    A="$WORK/apt"
    mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$A/parts" "$A/dl"
    : >"$A/sources.list"
    for m in $mirrors; do
        for s in sid trixie forky; do
            echo "deb-src $m $s main" >>"$A/sources.list"
        done
    done
    set -- -o Dir::Etc::SourceList="$A/sources.list" \
           -o Dir::Etc::SourceParts="$A/parts" \
           -o Dir::State::Lists="$A/lists" -o Dir::Cache="$A/cache" \
           -o Dir::State::Status=/dev/null -o Debug::NoLocking=1 \
           -o APT::Sandbox::User=root
    say "asking Debian's mirror ($(echo $mirrors | tr ' ' ',')) for source package zlib $VERSION"
    apt-get "$@" -q update >"$A/log" 2>&1 || true
    # the version named in the README first, then any other Debian revision
    # of upstream $VERSION (they share one orig tarball); only the orig
    # tarball is used, so a revision whose .dsc or diff is gone still serves
    vers=$(apt-cache "$@" showsrc zlib 2>/dev/null | sed -n 's/^Version: //p' |
           grep -F "really$VERSION-" | sort -u | sort -r -V)
    [ -n "$vers" ] || { say "no zlib $VERSION source package on the mirror"; return 1; }
    orig=
    for ver in "1:1.3.dfsg+really$VERSION-3" $vers; do
        echo "$vers" | grep -q -x -F "$ver" || continue
        (cd "$A/dl" && apt-get "$@" -q source --download-only "zlib=$ver") \
            >>"$A/log" 2>&1 || true
        orig=$(ls "$A"/dl/zlib_*really"$VERSION".orig.tar.gz 2>/dev/null | head -n 1)
        [ -z "$orig" ] || break
    done
    [ -n "$orig" ] || { say "apt-get source found no zlib $VERSION orig tarball"; return 1; }
    sum=$(sha256sum "$orig" | cut -d' ' -f1)
    [ "$sum" = "$DEBIAN_ORIG_SHA256" ] || say "note: orig tarball sha256 $sum (checking its files)"
    try_tarball "$orig" || return 1
    cache "$orig"
    say "verified zlib $VERSION from Debian source package zlib $ver"
    return 0
}
if try_debian; then exit 0; fi

# 4. upstream release addresses
for url in https://zlib.net/zlib-$VERSION.tar.gz \
           https://zlib.net/fossils/zlib-$VERSION.tar.gz \
           https://github.com/madler/zlib/releases/download/v$VERSION/zlib-$VERSION.tar.gz; do
    rm -f "$WORK/dl.tar.gz"
    if command -v curl >/dev/null 2>&1; then
        curl -fsSL --max-time 60 -o "$WORK/dl.tar.gz" "$url" 2>/dev/null || continue
    elif command -v wget >/dev/null 2>&1; then
        wget -q -T 60 -O "$WORK/dl.tar.gz" "$url" 2>/dev/null || continue
    else
        break
    fi
    if try_tarball "$WORK/dl.tar.gz"; then
        cache "$WORK/dl.tar.gz"
        say "verified zlib $VERSION from $url"
        exit 0
    fi
done

die "no verified source of zlib $VERSION could be reached"
