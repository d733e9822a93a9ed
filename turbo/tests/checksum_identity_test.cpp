/* checksum_identity_test.cpp -- catches checksum code (adler32, crc32 and
 * their _z, combine and combine_gen/op forms) that gives a different value
 * from pristine zlib for some length, alignment, starting value or way of
 * splitting the data: e.g. a vectorised loop with a wrong tail, a modulo
 * reduction done too late, a braid/fold table error.  Every value is compared
 * with pristine zlib and with a byte-at-a-time implementation written here. */
#include <cstring>
#include <vector>

#include "zt_harness.h"

namespace {

using zt::REF;
using zt::TUR;

/* byte-at-a-time references, straight from the definitions (RFC 1950/1952) */
uint32_t adler_step(uint32_t adler, uint8_t c) {
    uint32_t a = adler & 0xffff, b = adler >> 16;
    a = (a + c) % 65521;
    b = (b + a) % 65521;
    return (b << 16) | a;
}
uint32_t crc_step(uint32_t crc, uint8_t c) {    /* on the pre/post-inverted value */
    crc = ~crc ^ c;
    for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    return ~crc;
}

std::vector<uint8_t> data_of(int kind, size_t n) {
    std::vector<uint8_t> v(n, 0xff);
    if (kind == 0) {
        zt::Rng r(zt::case_seed("checksum-data", 0));
        for (auto &c : v) c = (uint8_t)r.next();
    }
    return v;
}

const size_t MAXLEN = 4096, ALIGNS = 16;

/* Every length 0..4096 at alignments 0..15, random and all-0xFF data, from
 * the initial value and from a random one, in one call, both interfaces. */
TEST(ChecksumIdentity, AllLengthsAndAlignments) {
    zt::Rng rng(zt::case_seed("checksum-all", 0));
    for (int kind = 0; kind < 2; kind++) {
        std::vector<uint8_t> buf = data_of(kind, MAXLEN + ALIGNS);
        for (size_t al = 0; al < ALIGNS; al++) {
            const uint8_t *p = buf.data() + al;
            for (int start = 0; start < 2; start++) {
                uint32_t a0 = start ? (uint32_t)(rng.next() % 65521) |
                                          ((uint32_t)(rng.next() % 65521) << 16)
                                    : 1;
                uint32_t c0 = start ? (uint32_t)rng.next() : 0;
                uint32_t ea = a0, ec = c0;      /* reference over p[0..len) */
                for (size_t len = 0; len <= MAXLEN; len++) {
                    if (len) {
                        ea = adler_step(ea, p[len - 1]);
                        ec = crc_step(ec, p[len - 1]);
                    }
                    uLong v[8] = {
                        REF->adler32(a0, p, (uInt)len), TUR->adler32(a0, p, (uInt)len),
                        REF->adler32_z(a0, p, len), TUR->adler32_z(a0, p, len),
                        REF->crc32(c0, p, (uInt)len), TUR->crc32(c0, p, (uInt)len),
                        REF->crc32_z(c0, p, len), TUR->crc32_z(c0, p, len)};
                    bool ok = v[0] == ea && v[1] == ea && v[2] == ea && v[3] == ea &&
                              v[4] == ec && v[5] == ec && v[6] == ec && v[7] == ec;
                    if (!ok) {
                        ADD_FAILURE() << "data=" << (kind ? "all-0xFF" : "random")
                                      << " align=" << al << " len=" << len << std::hex
                                      << " start adler=" << a0 << " crc=" << c0
                                      << "\n  adler32 ref=" << v[0] << " tur=" << v[1]
                                      << " adler32_z ref=" << v[2] << " tur=" << v[3]
                                      << " expected=" << ea
                                      << "\n  crc32 ref=" << v[4] << " tur=" << v[5]
                                      << " crc32_z ref=" << v[6] << " tur=" << v[7]
                                      << " expected=" << ec;
                        if (zt::too_many_failures()) return;
                    }
                }
            }
        }
    }
}

/* The same data in random pieces (sizes down to 1 byte) must give the value
 * of one call. */
TEST(ChecksumIdentity, RandomPieces) {
    long cases = zt::by_mode(3000, 30000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("checksum-pieces", (uint64_t)i);
        zt::Rng rng(seed);
        size_t len = rng.chance(80) ? rng.range(0, MAXLEN) : rng.range(0, 200000);
        std::vector<uint8_t> buf = rng.chance(20) ? data_of(1, len + 16)
                                                  : zt::generate(rng, zt::GEN_RANDOM, len + 16);
        const uint8_t *p = buf.data() + rng.below(16);
        uLong whole_a = REF->adler32_z(1, p, len), whole_c = REF->crc32_z(0, p, len);
        uLong a[2] = {TUR->adler32(0, nullptr, 0), REF->adler32(0, nullptr, 0)};
        uLong c[2] = {TUR->crc32(0, nullptr, 0), REF->crc32(0, nullptr, 0)};
        ASSERT_EQ(a[0], a[1]) << "adler32 initial value";
        ASSERT_EQ(c[0], c[1]) << "crc32 initial value";
        int mode = (int)rng.below(zt::SLICE_MODES);
        for (size_t pos = 0; pos < len;) {
            size_t n = std::min(zt::slice(rng, mode), len - pos);
            bool z = rng.chance(50);
            for (int s = 0; s < 2; s++) {
                const zapi *A = s ? REF : TUR;
                a[s] = z ? A->adler32_z(a[s], p + pos, n) : A->adler32(a[s], p + pos, (uInt)n);
                c[s] = z ? A->crc32_z(c[s], p + pos, n) : A->crc32(c[s], p + pos, (uInt)n);
            }
            pos += n;
        }
        EXPECT_TRUE(a[0] == whole_a && a[1] == whole_a && c[0] == whole_c &&
                    c[1] == whole_c)
            << "case seed 0x" << std::hex << seed << " len=" << std::dec << len
            << " slicing=" << zt::slice_name(mode) << std::hex << " adler tur=" << a[0]
            << " ref=" << a[1] << " whole=" << whole_a << " crc tur=" << c[0]
            << " ref=" << c[1] << " whole=" << whole_c;
    }
}

/* combine: ref == tur, and combine(A, B) == checksum of A then B. */
TEST(ChecksumIdentity, Combine) {
    zt::Rng rng(zt::case_seed("checksum-combine", 0));
    std::vector<uint8_t> buf = zt::generate(rng, zt::GEN_RANDOM, 70000);
    long cases = zt::by_mode(2000, 20000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        size_t l1 = rng.range(0, 30000), l2 = rng.range(0, 30000);
        if (rng.chance(10)) l2 = 0;
        const uint8_t *p = buf.data(), *q = buf.data() + l1;
        uLong a1 = REF->adler32_z(rng.chance(50) ? 1 : 7, p, l1), a2 = REF->adler32_z(1, q, l2);
        uLong c1 = REF->crc32_z(0, p, l1), c2 = REF->crc32_z(0, q, l2);
        uLong a12 = REF->adler32_z(a1, q, l2), c12 = REF->crc32_z(c1, q, l2);
        uLong ra = REF->adler32_combine(a1, a2, (z_off_t)l2);
        uLong ta = TUR->adler32_combine(a1, a2, (z_off_t)l2);
        uLong rc = REF->crc32_combine(c1, c2, (z_off_t)l2);
        uLong tc = TUR->crc32_combine(c1, c2, (z_off_t)l2);
        uLong rop = REF->crc32_combine_gen((z_off_t)l2), top = TUR->crc32_combine_gen((z_off_t)l2);
        uLong rco = REF->crc32_combine_op(c1, c2, rop), tco = TUR->crc32_combine_op(c1, c2, top);
        EXPECT_TRUE(ra == a12 && ta == a12 && rc == c12 && tc == c12 && rop == top &&
                    rco == c12 && tco == c12)
            << "l1=" << l1 << " l2=" << l2 << std::hex << " adler ref=" << ra
            << " tur=" << ta << " want=" << a12 << " crc ref=" << rc << " tur=" << tc
            << " want=" << c12 << " op ref=" << rop << " tur=" << top;
    }
    /* lengths no buffer could hold, odd and negative ones: only ref vs tur */
    for (long i = 0; i < cases; i++) {
        z_off_t len2 = (z_off_t)(rng.next() >> rng.below(64));
        if (rng.chance(10)) len2 = -len2;
        uLong x = (uLong)(uint32_t)rng.next(), y = (uLong)(uint32_t)rng.next();
        if (rng.chance(30)) { x %= 65521; y %= 65521; }
        ASSERT_EQ(REF->adler32_combine(x, y, len2), TUR->adler32_combine(x, y, len2))
            << "adler32_combine(" << x << ", " << y << ", " << (long long)len2 << ")";
        ASSERT_EQ(REF->crc32_combine(x, y, len2), TUR->crc32_combine(x, y, len2))
            << "crc32_combine(" << x << ", " << y << ", " << (long long)len2 << ")";
        uLong op = REF->crc32_combine_gen(len2);
        ASSERT_EQ(op, TUR->crc32_combine_gen(len2)) << "crc32_combine_gen(" << (long long)len2 << ")";
        ASSERT_EQ(REF->crc32_combine_op(x, y, op), TUR->crc32_combine_op(x, y, op))
            << "crc32_combine_op(" << x << ", " << y << ", " << op << ")";
    }
}

TEST(ChecksumIdentity, CrcTable) {
    const z_crc_t *r = REF->get_crc_table(), *t = TUR->get_crc_table();
    for (int i = 0; i < 256; i++) {
        uint32_t want = ~crc_step(~0u, (uint8_t)i);   /* table[i] = raw CRC of byte i */
        ASSERT_EQ(r[i], want) << "ref table entry " << i;
        ASSERT_EQ(t[i], want) << "tur table entry " << i;
    }
}

}  /* namespace */
