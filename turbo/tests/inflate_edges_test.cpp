/* inflate_edges_test.cpp -- the edges of zlib-turbo's fast decoding loop
 * (inffast.c), in the spirit of zlib's test/infcover.c, but differential:
 * every case runs pristine zlib 1.3.2 and zlib-turbo in lockstep and
 * compares, after every call, the output bytes (and the caller's buffer
 * past them, which neither may touch), return code, msg, avail_in/out,
 * total_in/out, adler, data_type and inflateMark().
 *
 *  - Overlapping copies: hand-made fixed-code streams with matches at every
 *    distance 1..40 and lengths 3..258, so every copy path of copy_match()
 *    and the short-match copy is used, including the distance-multiple
 *    expansion for d < 8.
 *  - Buffer ends: each such stream is read with the first call's output
 *    ending at every byte of a 300-byte stretch and its input ending at
 *    every byte of a 24-byte stretch, so the loop's exits (out >= end, the
 *    six-byte input rule, the byte-wise refill near the end) are crossed at
 *    every symbol kind.
 *  - Distances too far back placed anywhere, also right at input ends.
 *  - Window wrap: long streams with far matches read through small output
 *    buffers of odd sizes, for every windowBits, so inflate_fast() copies
 *    from the window in all three of its layouts (wnext == 0, contiguous,
 *    wrapped).
 *  - inflateBack() with windows smaller than 32K and distances beyond the
 *    window (zlib 1.3.2's inflate_fast() accepted some of those there): it
 *    must answer as zlib 1.3.2's own slow path does (one byte per in()).
 *  - inflateBack() reading the oldest history, just after its output
 *    position in its window, right after a short match.
 *  - In place: the input at the end of the output space, so the output
 *    catches up with the unread input; wherever pristine zlib decodes that
 *    right, zlib-turbo must too, with the same counters and buffer (the
 *    short-match copies may not store past next_out there).
 */
#include <cstring>
#include <vector>

#include "zt_harness.h"

namespace {

/* Writes a raw deflate stream of fixed-code blocks, bit by bit. */
class FixedWriter {
public:
    void bits(unsigned v, int n) {
        for (int i = 0; i < n; i++) put((v >> i) & 1);
    }
    /* a Huffman code: most significant bit first */
    void code(unsigned c, int n) {
        for (int i = n - 1; i >= 0; i--) put((c >> i) & 1);
    }
    void header(bool last) { bits(last ? 1 : 0, 1); bits(1, 2); }
    void sym(unsigned s) {
        if (s < 144) code(0x30 + s, 8);
        else if (s < 256) code(0x190 + s - 144, 9);
        else if (s < 280) code(s - 256, 7);
        else code(0xc0 + s - 280, 8);
    }
    void lit(unsigned char c) { sym(c); }
    void match(unsigned len, unsigned dist) {
        static const unsigned lbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
                                           31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
                                           227, 258};
        static const int lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                     2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
        static const unsigned dbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
                                           193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                           4097, 6145, 8193, 12289, 16385, 24577};
        static const int dext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                     6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
        int l = 28;
        while (lbase[l] > len) l--;
        if (len == 258) l = 28;
        else if (l == 28) l = 27;
        sym(257 + l);
        bits(len - lbase[l], lext[l]);
        int d = 29;
        while (dbase[d] > dist) d--;
        code(d, 5);
        bits(dist - dbase[d], dext[d]);
    }
    void eob() { sym(256); }
    std::vector<uint8_t> done() {
        if (n_) { out_.push_back(cur_); n_ = 0; cur_ = 0; }
        return out_;
    }
private:
    void put(unsigned b) {
        cur_ |= (uint8_t)(b << n_);
        if (++n_ == 8) { out_.push_back(cur_); cur_ = 0; n_ = 0; }
    }
    std::vector<uint8_t> out_;
    uint8_t cur_ = 0;
    int n_ = 0;
};

/* Every (distance, length) pair of interest, with a few literals between. */
std::vector<uint8_t> overlap_stream(zt::Rng &rng, unsigned dlo, unsigned dhi,
                                    const std::vector<unsigned> &lens, unsigned far) {
    FixedWriter w;
    w.header(true);
    unsigned written = 0;
    for (unsigned d = dlo; d <= dhi; d++)
        for (unsigned len : lens) {
            unsigned k = (unsigned)rng.range(1, 3);
            while (written < d || k--) { w.lit((uint8_t)rng.below(256)); written++; }
            w.match(len, d);
            written += len;
            if (far && rng.chance(3)) w.match(3, written + far);   /* too far back */
        }
    w.eob();
    return w.done();
}

/* Lockstep inflate with the first call's avail_in / avail_out given, the
 * rest in random slices; compares everything after every call, and the
 * caller's buffer past next_out. */
bool lockstep_cut(zt::Ctx &ctx, const std::vector<uint8_t> &z, int wbits, size_t in1,
                  size_t out1, zt::Rng &rng, size_t cap = (size_t)1 << 16) {
    z_stream r, t;
    memset(&r, 0, sizeof r);
    memset(&t, 0, sizeof t);
    int a = ZAPI_INFLATE_INIT2(zt::REF, &r, wbits), b = ZAPI_INFLATE_INIT2(zt::TUR, &t, wbits);
    if (a != b) return ctx.mismatch("inflateInit2 rc");
    std::vector<uint8_t> orf(cap + 64, 0x5a), otr(cap + 64, 0x5a);
    size_t ip = 0, op = 0;
    bool ok = true;
    for (long call = 1; ok; call++) {
        ctx.call = call;
        ctx.fn = "inflate";
        size_t ai = call == 1 ? in1 : (size_t)rng.range(1, 4000);
        size_t ao = call == 1 ? out1 : (size_t)rng.range(1, 70000);
        ai = std::min(ai, z.size() - ip);
        ao = std::min(ao, cap - op);
        r.next_in = t.next_in = const_cast<uint8_t *>(z.data()) + ip;
        r.avail_in = t.avail_in = (uInt)ai;
        r.next_out = orf.data() + op;
        t.next_out = otr.data() + op;
        r.avail_out = t.avail_out = (uInt)ao;
        a = zt::REF->inflate(&r, Z_NO_FLUSH);
        b = zt::TUR->inflate(&t, Z_NO_FLUSH);
        if (a != b) ok = ctx.mismatch("rc " + std::to_string(a) + " " + std::to_string(b));
        else if (!zt::same_msg(r.msg, t.msg))
            ok = ctx.mismatch("msg " + zt::show_msg(r.msg) + " " + zt::show_msg(t.msg));
        else if (r.avail_in != t.avail_in || r.avail_out != t.avail_out ||
                 r.total_in != t.total_in || r.total_out != t.total_out ||
                 r.adler != t.adler || r.data_type != t.data_type ||
                 r.next_in != t.next_in)
            ok = ctx.mismatch("counters/adler/data_type after call " + std::to_string(call) +
                              ": avail_in " + std::to_string(r.avail_in) + "/" +
                              std::to_string(t.avail_in) + " avail_out " +
                              std::to_string(r.avail_out) + "/" + std::to_string(t.avail_out) +
                              " data_type " + std::to_string(r.data_type) + "/" +
                              std::to_string(t.data_type));
        else if (zt::REF->inflateMark(&r) != zt::TUR->inflateMark(&t))
            ok = ctx.mismatch("inflateMark " + std::to_string(zt::REF->inflateMark(&r)) + " " +
                              std::to_string(zt::TUR->inflateMark(&t)));
        else if (memcmp(orf.data() + op, otr.data() + op, ao + 64 > cap + 64 - op ?
                        cap + 64 - op : ao + 64))
            ok = ctx.mismatch("output bytes (or bytes past next_out) in call " +
                              std::to_string(call));
        ip += ai - r.avail_in;
        op += ao - r.avail_out;
        if (a != Z_OK && a != Z_BUF_ERROR) break;
        if (ip == z.size() && a == Z_BUF_ERROR) break;
        if (op == cap || call > 100000) break;
    }
    zt::REF->inflateEnd(&r);
    zt::TUR->inflateEnd(&t);
    return ok;
}

std::vector<unsigned> all_lengths() {
    std::vector<unsigned> v;
    for (unsigned l = 3; l <= 40; l++) v.push_back(l);
    for (unsigned l : {63u, 64u, 65u, 100u, 127u, 128u, 129u, 200u, 255u, 256u, 257u, 258u})
        v.push_back(l);
    return v;
}

/* Matches at distances 1..40, lengths 3..40 and long ones, whole buffers. */
TEST(InflateEdges, OverlapCopies) {
    zt::Rng rng(zt::case_seed("edges-overlap", 0));
    std::vector<uint8_t> z = overlap_stream(rng, 1, 40, all_lengths(), 0);
    zt::Ctx ctx;
    ctx.test = "InflateEdges.OverlapCopies";
    ctx.data = "fixed-code matches d=1..40";
    ctx.seed = 0;
    for (int i = 0; i < 20 && !ctx.failed; i++)
        lockstep_cut(ctx, z, -15, i == 0 ? z.size() : (size_t)rng.range(6, z.size()),
                     i == 0 ? 1 << 20 : (size_t)rng.range(258, 100000), rng,
                     (size_t)1 << 20);
}

/* The first call's output ends at every byte of 300 bytes around matches of
 * each distance 1..16, and of some distances from 17 to 40 (the short-match
 * copy that reads and rewrites the 16 bytes at next_out, copy_keep(), from
 * 16 on: the caller's bytes after the match must come out unchanged); its
 * input ends at every byte of 24 bytes. */
TEST(InflateEdges, BufferEnds) {
    static const unsigned dists[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                     17, 24, 31, 32, 33, 40};
    long cases = 0;
    for (unsigned k = 0; k < sizeof dists / sizeof *dists && !zt::too_many_failures(); k++) {
        unsigned d = dists[k];
        zt::Rng rng(zt::case_seed("edges-ends", d));
        std::vector<unsigned> lens = {3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 258, 100, 5};
        std::vector<uint8_t> z = overlap_stream(rng, d, d, lens, 0);
        zt::Ctx ctx;
        ctx.test = "InflateEdges.BufferEnds";
        ctx.data = "fixed-code matches d=" + std::to_string(d);
        size_t o0 = (size_t)rng.range(0, 200);
        for (size_t o = o0; o < o0 + 300 && !ctx.failed; o++, cases++) {
            ctx.params = "first avail_out " + std::to_string(o ? o : 1);
            lockstep_cut(ctx, z, -15, z.size(), o ? o : 1, rng);
        }
        size_t i0 = (size_t)rng.range(1, z.size() > 30 ? z.size() - 30 : 1);
        for (size_t i = i0; i < i0 + 24 && i <= z.size() && !ctx.failed; i++, cases++) {
            ctx.params = "first avail_in " + std::to_string(i);
            lockstep_cut(ctx, z, -15, i, 1 << 16, rng);
        }
    }
    fprintf(stderr, "[zt] edges: %ld buffer-end cases\n", cases);
}

/* Distances too far back, with the first call's input ending at every byte
 * near them, so the error falls to the fast loop or to inflate()'s own
 * state machine as in zlib 1.3.2 (inflateMark() tells them apart). */
TEST(InflateEdges, TooFarAtInputEnds) {
    long cases = 0;
    for (uint64_t k = 0; k < (uint64_t)zt::by_mode(30, 200) && !zt::too_many_failures(); k++) {
        zt::Rng rng(zt::case_seed("edges-toofar", k));
        std::vector<unsigned> lens = {3, 10, 20, 258};
        std::vector<uint8_t> z = overlap_stream(rng, 1 + (unsigned)rng.below(20),
                                                25 + (unsigned)rng.below(20), lens,
                                                1 + (unsigned)rng.below(300));
        /* where does ref stop with everything at once? */
        z_stream r;
        memset(&r, 0, sizeof r);
        ZAPI_INFLATE_INIT2(zt::REF, &r, -15);
        std::vector<uint8_t> o(1 << 20);
        r.next_in = z.data();
        r.avail_in = (uInt)z.size();
        r.next_out = o.data();
        r.avail_out = (uInt)o.size();
        zt::REF->inflate(&r, Z_NO_FLUSH);
        size_t e = r.total_in, eo = r.total_out;
        zt::REF->inflateEnd(&r);
        zt::Ctx ctx;
        ctx.test = "InflateEdges.TooFarAtInputEnds";
        ctx.data = "fixed-code stream with a too-far distance";
        ctx.seed = k;
        for (size_t i = e > 12 ? e - 12 : 1; i <= e + 8 && i <= z.size() && !ctx.failed; i++) {
            ctx.params = "first avail_in " + std::to_string(i);
            lockstep_cut(ctx, z, -15, i, 1 << 16, rng);
            cases++;
        }
        for (size_t oo = eo > 300 ? eo - 300 : 1; oo <= eo + 10 && !ctx.failed; oo += 7) {
            ctx.params = "first avail_out " + std::to_string(oo);
            lockstep_cut(ctx, z, -15, z.size(), oo, rng);
            cases++;
        }
    }
    fprintf(stderr, "[zt] edges: %ld too-far cases\n", cases);
}

/* Far matches through small odd output buffers, every windowBits: window
 * copies with wnext == 0, contiguous, and wrapped around. */
TEST(InflateEdges, WindowWrap) {
    long cases = 0;
    for (int wb = 9; wb <= 15 && !zt::too_many_failures(); wb++) {
        zt::Rng rng(zt::case_seed("edges-wrap", (uint64_t)wb));
        size_t w = (size_t)1 << wb;
        std::vector<uint8_t> data;
        std::vector<uint8_t> block = zt::generate(rng, zt::GEN_RANDOM, w - w / 8);
        for (int rep = 0; rep < 12; rep++) {     /* repeats just inside the window */
            for (size_t i = 0; i < block.size(); i++)
                data.push_back(rng.chance(2) ? (uint8_t)rng.below(256) : block[i]);
            std::vector<uint8_t> t = zt::generate(rng, zt::GEN_TEXT, (size_t)rng.range(10, 900));
            data.insert(data.end(), t.begin(), t.end());
        }
        for (int wrap = 0; wrap < 2; wrap++) {
            zt::DefParams p;
            p.level = wrap ? 9 : 6;
            p.windowBits = wrap ? wb : -wb;
            std::vector<uint8_t> z = zt::ref_deflate(p, data.data(), data.size());
            zt::Ctx ctx;
            ctx.test = "InflateEdges.WindowWrap";
            ctx.data = "far repeats, windowBits " + std::to_string(wb);
            for (int k = 0; k < 12 && !ctx.failed; k++, cases++) {
                zt::Ctx c2 = ctx;
                c2.params = "case " + std::to_string(k);
                zt::InflateScenario sc;
                sc.windowBits = p.windowBits;
                sc.in_slice = k % 3 == 0 ? zt::SLICE_LARGE : zt::SLICE_MEDIUM;
                sc.out_slice = k % 2 ? zt::SLICE_MEDIUM : zt::SLICE_SMALL;
                zt::InflateResult res = zt::inflate_lockstep(c2, sc, z, zt::case_seed("wrap", k));
                if (res.same) EXPECT_TRUE(res.out == data) << c2.describe();
                ctx.failed = c2.failed;
            }
        }
    }
    fprintf(stderr, "[zt] edges: %ld window-wrap cases\n", cases);
}

/* inflateBack() with small windows and distances just beyond them: the
 * answer must be zlib 1.3.2's slow-path answer (one byte per in()), for
 * every slicing. */
TEST(InflateEdges, InflateBackSmallWindow) {
    long cases = 0, refused = 0;
    for (int wb = 9; wb <= 15 && !zt::too_many_failures(); wb++) {
        for (uint64_t k = 0; k < 6; k++) {
            zt::Rng rng(zt::case_seed("edges-back", (uint64_t)wb * 16 + k));
            unsigned w = 1u << wb;
            FixedWriter fw;
            fw.header(true);
            unsigned written = 0;
            while (written < 3 * w) {
                if (written > 64 && rng.chance(40)) {
                    unsigned d = (unsigned)rng.range(1, std::min(written, w));
                    if (k && written > w && rng.chance(2))   /* just beyond the window */
                        d = std::min(written, w + (unsigned)rng.range(1, 200));
                    if (d > 32768) d = 32768;
                    unsigned len = (unsigned)rng.range(3, 258);
                    fw.match(len, d);
                    written += len;
                } else {
                    fw.lit((uint8_t)rng.below(256));
                    written++;
                }
            }
            fw.eob();
            std::vector<uint8_t> z = fw.done();
            zt::InfBackRun slow = zt::infback_run(zt::REF, z, wb, 1, zt::SLICE_TINY, 0xA5, 1,
                                                  1 << 22);
            for (int mode = 0; mode < zt::SLICE_MODES; mode++) {
                uint64_t seed = zt::case_seed("edges-back-slice", k * 8 + (uint64_t)mode);
                zt::InfBackRun t = zt::infback_run(zt::TUR, z, wb, seed, mode, 0xA5,
                                                   (size_t)-1, 1 << 22);
                cases++;
                if (t.rc == Z_DATA_ERROR) refused++;
                EXPECT_TRUE(t.rc == slow.rc && t.msg == slow.msg && t.out == slow.out)
                    << "inflateBack windowBits " << wb << " case " << k << " slicing "
                    << zt::slice_name(mode) << "\n  zlib slow path: " << slow.str()
                    << "\n  tur:            " << t.str();
            }
        }
    }
    fprintf(stderr, "[zt] edges: %ld inflateBack small-window runs, %ld refused\n", cases,
            refused);
}

}  /* namespace */

/* inflateBack() writes its output into its window, and the bytes after the
 * output position are the oldest history there: a short match followed by a
 * match that reaches back a whole window less a few bytes reads exactly the
 * bytes after the first match.  A copy that stored bytes past its match for a
 * while (inflate-copy-over) would hand out its own bytes instead; the fuzzer
 * found that (turbo/tests/fuzz/regressions/inflate-copy-over-inflateback-*). */
TEST(InflateEdges, InflateBackOldestHistory) {
    long cases = 0;
    for (int wb = 9; wb <= 15 && !zt::too_many_failures(); wb++) {
        zt::Rng rng(zt::case_seed("edges-back-oldest", (uint64_t)wb));
        unsigned w = 1u << wb;
        FixedWriter fw;
        fw.header(true);
        unsigned written = 0;
        while (written < 4 * w) {
            if (written > w + 64 && rng.chance(5)) {
                unsigned l1 = (unsigned)rng.range(3, 15), d1 = (unsigned)rng.range(16, 40);
                unsigned l2 = (unsigned)rng.range(3, 20);
                unsigned d2 = w - (unsigned)rng.range(0, 12);
                if (d2 > 32768) d2 = 32768;
                fw.match(l1, d1);
                fw.match(l2, d2);
                written += l1 + l2;
            } else {
                fw.lit((uint8_t)rng.below(256));
                written++;
            }
        }
        fw.eob();
        std::vector<uint8_t> z = fw.done();
        zt::InfBackRun slow = zt::infback_run(zt::REF, z, wb, 1, zt::SLICE_TINY, 0xA5, 1,
                                              1 << 22);
        for (int mode = 0; mode < zt::SLICE_MODES; mode++) {
            uint64_t seed = zt::case_seed("edges-back-oldest-slice", (uint64_t)mode);
            zt::InfBackRun t = zt::infback_run(zt::TUR, z, wb, seed, mode, 0xA5, (size_t)-1,
                                               1 << 22);
            cases++;
            EXPECT_TRUE(t.rc == slow.rc && t.msg == slow.msg && t.out == slow.out)
                << "inflateBack windowBits " << wb << " slicing " << zt::slice_name(mode)
                << "\n  zlib slow path: " << slow.str() << "\n  tur:            " << t.str();
        }
    }
    fprintf(stderr, "[zt] edges: %ld inflateBack oldest-history runs\n", cases);
}

/* One in-place case: the stream z at the end of a buffer of text's length
 * plus m bytes, inflated with one call into the whole buffer by each
 * library.  Where pristine zlib gets text back, zlib-turbo must give the same
 * return code, counters and buffer.  Returns whether pristine got it right. */
static bool inplace_case(zt::Ctx &ctx, const std::vector<uint8_t> &z,
                         const std::vector<uint8_t> &text, size_t m) {
    size_t n = text.size() + m;
    if (n < z.size()) return false;
    std::vector<uint8_t> br(n + 32, 0x5a), bt;
    memcpy(br.data() + n - z.size(), z.data(), z.size());
    bt = br;
    z_stream r, t;
    memset(&r, 0, sizeof r);
    memset(&t, 0, sizeof t);
    ZAPI_INFLATE_INIT2(zt::REF, &r, -15);
    ZAPI_INFLATE_INIT2(zt::TUR, &t, -15);
    r.next_in = br.data() + n - z.size();
    t.next_in = bt.data() + n - z.size();
    r.avail_in = t.avail_in = (uInt)z.size();
    r.next_out = br.data();
    t.next_out = bt.data();
    r.avail_out = t.avail_out = (uInt)n;
    int a = zt::REF->inflate(&r, Z_FINISH), b = zt::TUR->inflate(&t, Z_FINISH);
    bool ok_ref = a == Z_STREAM_END && r.total_out == text.size() &&
                  memcmp(br.data(), text.data(), text.size()) == 0;
    ctx.params = "margin " + std::to_string(m);
    if (ok_ref) {
        if (a != b || r.total_in != t.total_in || r.total_out != t.total_out ||
            r.avail_in != t.avail_in || r.avail_out != t.avail_out)
            ctx.mismatch("rc or counters: rc " + std::to_string(a) + "/" + std::to_string(b) +
                         " total_out " + std::to_string(r.total_out) + "/" +
                         std::to_string(t.total_out));
        else if (br != bt)
            ctx.mismatch("buffer after an in-place inflate");
    }
    zt::REF->inflateEnd(&r);
    zt::TUR->inflateEnd(&t);
    return ok_ref;
}

/* Decompression in place: a raw level-6 stream of text with a nearly
 * incompressible tail (random bytes and short repeats) placed at the end of
 * a buffer of the text's length plus a margin of 0..64 bytes, inflated with
 * one call into the whole buffer.  At the end the output comes within the
 * margin of the input not yet read.  Where pristine zlib gets the text back,
 * zlib-turbo must too, with the same return code, counters and every byte of
 * the buffer: a copy that stored bytes past next_out for a while
 * (inflate-copy-over) would overwrite input still to be read. */
TEST(InflateEdges, InPlace) {
    long cases = 0, right = 0;
    for (uint64_t k = 0; k < (uint64_t)zt::by_mode(24, 200) && !zt::too_many_failures(); k++) {
        zt::Rng rng(zt::case_seed("edges-inplace", k));
        std::vector<uint8_t> text = zt::generate(rng, zt::GEN_TEXT, rng.range(2000, 40000));
        /* a tail that barely compresses (random bytes, with short repeats
           16 to 40 bytes back), so that the output is still close behind
           the unread input while the fast loop runs */
        for (size_t i = 0, tail = rng.range(600, 3000); i < tail; ) {
            if (i >= 40 && rng.chance(12)) {
                size_t len = rng.range(4, 12), back = rng.range(16, 40);
                for (size_t j = 0; j < len; j++, i++)
                    text.push_back(text[text.size() - back]);
            }
            else {
                text.push_back((uint8_t)rng.below(256));
                i++;
            }
        }
        z_stream d;
        memset(&d, 0, sizeof d);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(zt::REF, &d, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY),
                  Z_OK);
        std::vector<uint8_t> z(zt::REF->deflateBound(&d, (uLong)text.size()) + 16);
        d.next_in = text.data();
        d.avail_in = (uInt)text.size();
        d.next_out = z.data();
        d.avail_out = (uInt)z.size();
        ASSERT_EQ(zt::REF->deflate(&d, Z_FINISH), Z_STREAM_END);
        z.resize(d.total_out);
        zt::REF->deflateEnd(&d);
        zt::Ctx ctx;
        ctx.test = "InflateEdges.InPlace";
        ctx.data = "text and a tail of short repeats, " + std::to_string(text.size()) +
                   " bytes, level 6 raw";
        ctx.seed = k;
        for (size_t m = 0; m <= 64 && !ctx.failed; m++, cases++)
            right += inplace_case(ctx, z, text, m);
    }
    /* Fixed-code streams that neither grow nor shrink: sixteen literals of
       nine bits and a match of four bytes 17 to 24 back (fifteen bits),
       over and over, so the input stays a few bytes ahead of the output for
       thousands of bytes, all through the fast loop. */
    for (uint64_t k = 0; k < 16 && !zt::too_many_failures(); k++) {
        zt::Rng rng(zt::case_seed("edges-inplace-fixed", k));
        FixedWriter w;
        std::vector<uint8_t> text;
        w.header(true);
        for (unsigned i = 0; i < 40; i++) {
            uint8_t c = (uint8_t)(144 + rng.below(112));
            w.lit(c);
            text.push_back(c);
        }
        for (unsigned r = 0, reps = 100 + (unsigned)rng.below(100); r < reps; r++) {
            unsigned back = 17 + (unsigned)rng.below(8), lits = 14 + (unsigned)rng.below(4);
            for (unsigned j = 0; j < 4; j++) text.push_back(text[text.size() - back]);
            w.match(4, back);
            for (unsigned j = 0; j < lits; j++) {
                uint8_t c = (uint8_t)(144 + rng.below(112));
                w.lit(c);
                text.push_back(c);
            }
        }
        w.eob();
        std::vector<uint8_t> z = w.done();
        zt::Ctx ctx;
        ctx.test = "InflateEdges.InPlace";
        ctx.data = "fixed-code stream of 9-bit literals and 4-byte matches, " +
                   std::to_string(text.size()) + " bytes";
        ctx.seed = k;
        for (size_t m = 0; m <= 64 && !ctx.failed; m++, cases++)
            right += inplace_case(ctx, z, text, m);
    }
    fprintf(stderr, "[zt] edges: %ld in-place cases, %ld decoded right by pristine\n", cases,
            right);
    EXPECT_GT(right, 0) << "no in-place case that pristine zlib decodes: the test tests nothing";
}
