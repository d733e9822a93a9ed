"""tools/check/clients/pngidat.py A.png B.png -- why two PNGs that a
program wrote from the same input differ: prints "same-data" when their
IDAT streams inflate to the same bytes (so the compressed bytes differ: a
zlib difference), "padding" when the inflated rows differ only in the
unused low bits of each row's last byte once unfiltered (bit depths 1, 2,
4: the writer handed deflate rows whose padding it never set), else
"data"."""
import struct
import sys
import zlib


def chunks(name):
    d = open(name, "rb").read()
    i, ihdr, idat = 8, None, b""
    while i + 8 <= len(d):
        n, = struct.unpack(">I", d[i:i + 4])
        t, c = d[i + 4:i + 8], d[i + 8:i + 8 + n]
        if t == b"IHDR":
            ihdr = c
        elif t == b"IDAT":
            idat += c
        i += 12 + n
    return ihdr, zlib.decompress(idat)


(ha, a), (hb, b) = chunks(sys.argv[1]), chunks(sys.argv[2])
if a == b:
    print("same-data")
    sys.exit()
w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", ha)
chan = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
bits = w * depth * chan
if ha != hb or len(a) != len(b) or interlace or bits % 8 == 0:
    print("data")
    sys.exit()
row = 1 + (bits + 7) // 8
mask = (1 << (8 - bits % 8)) - 1


def unfilter(d):
    out, prev = [], bytearray(row - 1)
    for r in range(0, len(d), row):
        f, cur = d[r], bytearray(d[r + 1:r + row])
        for x in range(len(cur)):
            left = cur[x - 1] if x else 0
            up, ul = prev[x], prev[x - 1] if x else 0
            if f == 1:
                cur[x] = (cur[x] + left) & 255
            elif f == 2:
                cur[x] = (cur[x] + up) & 255
            elif f == 3:
                cur[x] = (cur[x] + (left + up) // 2) & 255
            elif f == 4:
                p = left + up - ul
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                cur[x] = (cur[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else ul)) & 255
        out.append(cur)
        prev = cur
    return out


for ra, rb in zip(unfilter(a), unfilter(b)):
    if ra[:-1] != rb[:-1] or (ra[-1] ^ rb[-1]) & ~mask & 255:
        print("data")
        sys.exit()
print("padding")
