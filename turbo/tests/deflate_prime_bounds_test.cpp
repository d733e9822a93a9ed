/* deflate_prime_bounds_test.cpp -- catches a deflatePrime() that writes or
 * makes deflate() read outside the pending buffer.
 *
 * deflatePrime() puts the bytes it completes at pending_buf[pending], and
 * the next flush sends pending bytes from pending_out on.  zlib 1.3.2 only
 * checks pending_out against the symbol buffer, so enough calls without
 * deflate() in between (memLevel 1: 256 calls of 16 bits) write past the
 * end of pending_buf, and calls made while output is still pending make
 * the next flush read past it (both found by the deflate fuzzer, under
 * AddressSanitizer, in pristine zlib).  zlib-turbo refuses exactly the calls
 * that would leave the buffer, with Z_BUF_ERROR.  Pristine zlib is only
 * given the calls turbo accepted, which stay inside its buffer too, and
 * everything it returns and writes must match.
 */
#include <cstring>
#include <vector>

#include "zt_harness.h"

namespace {

using Bytes = std::vector<uint8_t>;

struct Pair {
    z_stream r, t;
    Pair() { std::memset(&r, 0, sizeof r); std::memset(&t, 0, sizeof t); }
};

/* deflate(flush) on both with the given room; the bytes must match; the
   return code in *rc */
void step(Pair &p, Bytes &outr, Bytes &outt, int flush, unsigned room,
          int *rc = nullptr) {
    size_t hr = outr.size(), ht = outt.size();
    outr.resize(hr + room);
    outt.resize(ht + room);
    p.r.next_out = outr.data() + hr; p.r.avail_out = room;
    p.t.next_out = outt.data() + ht; p.t.avail_out = room;
    int rr = zapi_ref.deflate(&p.r, flush);
    int rt = zapi_tur.deflate(&p.t, flush);
    if (rc) *rc = rt;
    ASSERT_EQ(rr, rt);
    ASSERT_EQ(p.r.avail_out, p.t.avail_out);
    ASSERT_EQ(p.r.avail_in, p.t.avail_in);
    outr.resize(hr + room - p.r.avail_out);
    outt.resize(ht + room - p.t.avail_out);
    ASSERT_EQ(outr, outt);
}

/* deflatePrime() until turbo refuses; pristine gets only the accepted ones */
int prime_until_refused(Pair &p, int bits, int most) {
    for (int i = 0; i < most; i++) {
        int rt = zapi_tur.deflatePrime(&p.t, bits, 0x5a5a + i);
        if (rt == Z_BUF_ERROR) return i;
        EXPECT_EQ(rt, Z_OK);
        EXPECT_EQ(zapi_ref.deflatePrime(&p.r, bits, 0x5a5a + i), Z_OK);
    }
    return most;
}

void finish(Pair &p, Bytes &outr, Bytes &outt) {
    for (int k = 0; k < 64 && !::testing::Test::HasFatalFailure(); k++) {
        step(p, outr, outt, Z_FINISH, 1 << 16);
        if (p.t.avail_out != 0) break;
    }
    zapi_ref.deflateEnd(&p.r);
    zapi_tur.deflateEnd(&p.t);
}

/* Many primes with no deflate() between them: refused at the buffer's end,
   identical up to there. */
TEST(DeflatePrimeBounds, ManyPrimesWithoutDeflate) {
    for (int ml = 1; ml <= 3; ml++)
        for (int bits = 1; bits <= 16; bits += 5) {
            Pair p;
            ASSERT_EQ(ZAPI_DEFLATE_INIT2(&zapi_ref, &p.r, 6, Z_DEFLATED, 15, ml, 0), Z_OK);
            ASSERT_EQ(ZAPI_DEFLATE_INIT2(&zapi_tur, &p.t, 6, Z_DEFLATED, 15, ml, 0), Z_OK);
            int size = 4 << (ml + 6);           /* pending_buf, 4 * lit_bufsize */
            int most = 16 * size / bits + 16;   /* more bits than the buffer holds */
            int n = prime_until_refused(p, bits, most);
            /* refused, no earlier than the buffer's end, and before passing it */
            EXPECT_LT(n, most) << "memLevel " << ml << " bits " << bits;
            EXPECT_LE(n * bits / 8, size) << "memLevel " << ml << " bits " << bits;
            EXPECT_GE((n + 1) * bits / 8 + 2, size) << "memLevel " << ml << " bits " << bits;
            Bytes outr, outt;
            finish(p, outr, outt);
        }
}

/* Output left pending (no room), then primes: the next flush must not read
   past the buffer, and the bytes sent match pristine's for accepted calls. */
TEST(DeflatePrimeBounds, PrimesWhileOutputPending) {
    Bytes data(6000);
    uint32_t x = 12345;
    for (auto &c : data) { x = x * 1103515245u + 12345u; c = (uint8_t)(x >> 16); }
    for (int level = 0; level <= 9; level += 3) {
        Pair p;
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(&zapi_ref, &p.r, level, Z_DEFLATED, -15, 1, 0), Z_OK);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(&zapi_tur, &p.t, level, Z_DEFLATED, -15, 1, 0), Z_OK);
        Bytes outr, outt;
        p.r.next_in = p.t.next_in = data.data();
        p.r.avail_in = p.t.avail_in = (uInt)data.size();
        step(p, outr, outt, Z_FULL_FLUSH, 300);   /* leaves output pending */
        ASSERT_FALSE(::testing::Test::HasFatalFailure());
        int n = prime_until_refused(p, 16, 2000);
        EXPECT_LT(n, 2000) << "level " << level;
        /* both finish, pristine given only the primes turbo accepted (which
           keep it inside its buffer too): the same return codes and bytes,
           the stream ended */
        int rc = Z_OK;
        for (int k = 0; k < 64 && rc == Z_OK; k++) {
            step(p, outr, outt, Z_FINISH, 1 << 16, &rc);
            ASSERT_FALSE(::testing::Test::HasFatalFailure());
        }
        EXPECT_EQ(rc, Z_STREAM_END) << "level " << level;
        zapi_ref.deflateEnd(&p.r);
        zapi_tur.deflateEnd(&p.t);
    }
}

}  // namespace
