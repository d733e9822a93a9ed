/* deflate_copy_test.cpp -- deflateCopy() makes a stream that continues
 * exactly as the original does.
 *
 * zlib 1.3.2's deflateCopy() copies of pending_buf only the pending bytes
 * (from pending_out on) and the symbols.  deflatePrime() called while output
 * is still pending puts its bits at pending_buf[pending], not after
 * pending_out + pending, so the next bytes sent reach past the pending ones,
 * into bytes the original wrote earlier (an earlier block) but the copy
 * never wrote: pristine's copy sends uninitialised memory there.
 * zlib-turbo's copy holds all of pending_buf, so it sends what the original
 * sends.  Also checked: copies taken at many points of ordinary streams
 * (every level, strategy, flush, output left pending or not) continue
 * byte for byte as the original,
 * and the originals equal pristine's.  Run under valgrind, zlib-turbo's side
 * must show no uninitialised value (the allocations are plain malloc()).
 */
#include <algorithm>
#include <cstring>
#include <vector>

#include "zt_harness.h"

namespace {

using Bytes = std::vector<uint8_t>;

Bytes noise(size_t n, uint32_t x) {
    Bytes b(n);
    for (auto &c : b) { x = x * 1103515245u + 12345u; c = (uint8_t)(x >> 16); }
    return b;
}

/* deflate() all of in[*pos..*pos+n) into out with avail_out chunks of oc */
int run(const zapi *A, z_stream *s, const Bytes &in, size_t *pos, size_t n,
        Bytes *out, unsigned oc, int flush) {
    int r;
    s->next_in = (Bytef *)in.data() + *pos;
    s->avail_in = (uInt)n;
    do {
        uint8_t buf[70000];
        s->next_out = buf;
        s->avail_out = oc;
        r = A->deflate(s, flush);
        out->insert(out->end(), buf, buf + (oc - s->avail_out));
    } while (r == Z_OK && (s->avail_in || (flush == Z_FINISH) || s->avail_out == 0));
    *pos += n - s->avail_in;
    return r;
}

/* The fuzzer's finding, minimal: a block through pending_buf, then a block
 * left mostly pending, deflateCopy(), deflatePrime(), finish. */
TEST(DeflateCopy, PrimeWhilePending) {
    Bytes in = noise(8000, 7);
    for (int level = 1; level <= 9; level++) {
        for (int ml : {1, 8, 9}) {
            SCOPED_TRACE("level " + std::to_string(level) + " memLevel " + std::to_string(ml));
            const zapi *L[2] = {zt::REF, zt::TUR};
            Bytes orig[2], copy;
            z_stream s[2], c;
            for (int k = 0; k < 2; k++) {
                const zapi *A = L[k];
                memset(&s[k], 0, sizeof s[k]);
                ASSERT_EQ(ZAPI_DEFLATE_INIT2(A, &s[k], level, Z_DEFLATED, 15, ml,
                                             Z_DEFAULT_STRATEGY), Z_OK);
                size_t pos = 0;
                uint8_t buf[64];
                /* 1: 4000 bytes through pending_buf, all sent */
                run(A, &s[k], in, &pos, 4000, &orig[k], 65536, Z_FULL_FLUSH);
                /* 2: 100 bytes, only 20 sent: output left pending */
                s[k].next_in = (Bytef *)in.data() + pos;
                s[k].avail_in = 100;
                s[k].next_out = buf;
                s[k].avail_out = 20;
                ASSERT_EQ(A->deflate(&s[k], Z_FULL_FLUSH), Z_OK);
                orig[k].insert(orig[k].end(), buf, buf + 20);
                pos += 100 - s[k].avail_in;
                ASSERT_EQ(s[k].avail_in, 0u);
                unsigned pend = 0; int bits = 0;
                A->deflatePending(&s[k], &pend, &bits);
                ASSERT_GT(pend, 1u);
                if (A == zt::TUR) {
                    memset(&c, 0, sizeof c);
                    ASSERT_EQ(A->deflateCopy(&c, &s[k]), Z_OK);
                    copy = orig[k];
                    size_t p2 = pos;
                    ASSERT_EQ(A->deflatePrime(&c, 8, 0x5a), Z_OK);
                    EXPECT_EQ(run(A, &c, in, &p2, in.size() - p2, &copy, 1000, Z_FINISH),
                              Z_STREAM_END);
                    A->deflateEnd(&c);
                }
                ASSERT_EQ(A->deflatePrime(&s[k], 8, 0x5a), Z_OK);
                EXPECT_EQ(run(A, &s[k], in, &pos, in.size() - pos, &orig[k], 1000, Z_FINISH),
                          Z_STREAM_END);
                A->deflateEnd(&s[k]);
            }
            EXPECT_TRUE(orig[0] == orig[1]) << "original differs from pristine's";
            EXPECT_TRUE(copy == orig[1]) << "the copy does not continue as the original";
        }
    }
}

/* Copies taken at many points of ordinary streams continue exactly as the
 * original (zlib-turbo), and the original is pristine's. */
TEST(DeflateCopy, ContinuesAsOriginal) {
    long cases = zt::by_mode(60, 600);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        zt::Rng rng(zt::case_seed("DeflateCopy.ContinuesAsOriginal", i));
        zt::Sample smp = zt::any_sample(rng, 200000);
        const Bytes &in = smp.bytes;
        int level = (int)rng.below(11) - 1, strategy = (int)rng.below(5);
        int wb = 9 + (int)rng.below(7), ml = 1 + (int)rng.below(9);
        SCOPED_TRACE("case " + std::to_string(i) + " " + smp.name + " level " +
                     std::to_string(level) + " strategy " + std::to_string(strategy) +
                     " wb " + std::to_string(wb) + " ml " + std::to_string(ml));
        static const int fl[] = {Z_NO_FLUSH, Z_NO_FLUSH, Z_PARTIAL_FLUSH, Z_SYNC_FLUSH,
                                 Z_FULL_FLUSH, Z_BLOCK};
        const zapi *L[2] = {zt::REF, zt::TUR};
        Bytes out[2], copy;
        uint64_t rs = rng.next();
        for (int k = 0; k < 2; k++) {
            const zapi *A = L[k];
            zt::Rng r(rs);
            z_stream s;
            memset(&s, 0, sizeof s);
            ASSERT_EQ(ZAPI_DEFLATE_INIT2(A, &s, level, Z_DEFLATED, wb, ml, strategy), Z_OK);
            size_t pos = 0;
            int steps = (int)r.range(1, 12), at = (int)r.below((uint32_t)steps);
            for (int j = 0; j < steps; j++) {
                size_t n = std::min(in.size() - pos, (size_t)r.range(0, 40000));
                unsigned oc = (unsigned)r.range(1, 65536);
                int f = fl[r.below(6)];
                /* one call, so output may be left pending */
                uint8_t buf[65536];
                s.next_in = (Bytef *)in.data() + pos;
                s.avail_in = (uInt)n;
                s.next_out = buf;
                s.avail_out = oc;
                A->deflate(&s, f);
                out[k].insert(out[k].end(), buf, buf + (oc - s.avail_out));
                pos += n - s.avail_in;
                if (j == at) {
                    if (A == zt::TUR) {
                        z_stream c;
                        memset(&c, 0, sizeof c);
                        ASSERT_EQ(A->deflateCopy(&c, &s), Z_OK);
                        copy = out[k];
                        size_t p2 = pos;
                        run(A, &c, in, &p2, in.size() - p2, &copy, 7000, Z_FINISH);
                        A->deflateEnd(&c);
                    }
                    break;
                }
            }
            run(A, &s, in, &pos, in.size() - pos, &out[k], 7000, Z_FINISH);
            A->deflateEnd(&s);
        }
        EXPECT_TRUE(out[0] == out[1]) << "differs from pristine";
        EXPECT_TRUE(copy == out[1]) << "the copy does not continue as the original";
    }
}

}  // namespace
