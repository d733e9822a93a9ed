"""tools/check/clients/pybytes.py -- CPython's zlib and gzip modules, as
their users call them, print sha256 lines that must not depend on the zlib
the interpreter loaded:

  pybytes.py whoami LIBDIR   checks that this process runs on LIBDIR's
                             libz.so.1 (/proc/self/maps, zlib's runtime
                             version 1.3.2) and prints whether it has
                             zlibTurboVersion() (ctypes), e.g. "turbo 1.1.0"
  pybytes.py bytes FILE...   for each file and level 1, 6 and 9:
                             zlib.compress, gzip.compress (mtime 0) and a
                             raw zlib.compressobj fed 4 KiB at a time with a
                             Z_SYNC_FLUSH every 64 KiB; every stream is
                             decompressed again and compared with the file
"""
import ctypes
import gzip
import hashlib
import os
import sys
import zlib


def whoami(libdir):
    want = os.path.realpath(os.path.join(libdir, "libz.so.1"))
    with open("/proc/self/maps") as f:
        libs = sorted({l.split()[-1] for l in f if "/libz.so" in l})
    if libs != [want]:
        sys.exit("python loaded %s, not %s" % (libs, want))
    if zlib.ZLIB_RUNTIME_VERSION != "1.3.2":
        sys.exit("zlib.ZLIB_RUNTIME_VERSION is %s" % zlib.ZLIB_RUNTIME_VERSION)
    me = ctypes.CDLL(None)
    try:
        f = me.zlibTurboVersion
    except AttributeError:
        print("pristine %s" % zlib.ZLIB_RUNTIME_VERSION)
        return
    f.restype = ctypes.c_char_p
    print("turbo %s" % f().decode())


def sha(b):
    return hashlib.sha256(b).hexdigest()[:16]


def pieces(data, level):
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9)
    out = []
    for i in range(0, len(data), 4096):
        out.append(c.compress(data[i:i + 4096]))
        if (i + 4096) % 65536 == 0:
            out.append(c.flush(zlib.Z_SYNC_FLUSH))
    out.append(c.flush())
    return b"".join(out)


def bytes_of(files):
    for name in files:
        with open(name, "rb") as f:
            data = f.read()
        base = os.path.basename(name)
        for level in (1, 6, 9):
            z = zlib.compress(data, level)
            g = gzip.compress(data, level, mtime=0)
            p = pieces(data, level)
            if (zlib.decompress(z) != data or gzip.decompress(g) != data
                    or zlib.decompress(p, -15) != data):
                sys.exit("%s level %d: the round trip differs" % (name, level))
            print("%s %d zlib %d %s gzip %d %s pieces %d %s" % (
                base, level, len(z), sha(z), len(g), sha(g), len(p), sha(p)))


if __name__ == "__main__":
    if sys.argv[1] == "whoami":
        whoami(sys.argv[2])
    else:
        bytes_of(sys.argv[2:])
