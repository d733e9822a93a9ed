/* prepared_dictionary_test.cpp -- zlib-turbo's prepared dictionaries
 * (deflatePrepareDictionary / deflateUseDictionary / deflateFreeDictionary,
 * zturbo.h) must leave a stream exactly as deflateSetDictionary() does.
 *
 * Three streams run in lockstep with the same parameters and the same
 * calls: pristine zlib 1.3.2 with deflateSetDictionary() ("ref"), zlib-turbo
 * with deflateSetDictionary() ("tur-set") and zlib-turbo with
 * deflateUseDictionary() ("tur-use").  After every call the return codes,
 * strm->adler, total_in, total_out, avail_in, avail_out, msg, data_type,
 * deflateGetDictionary(), deflatePending() and every output byte are
 * compared.  Covered: levels 0-9, windowBits 8-15 with raw, zlib and gzip
 * wrappers, memLevel 1-9, every strategy, dictionary lengths around the
 * edges (0..3, MIN_LOOKAHEAD, window sizes +-1, longer than 32 KiB), objects
 * prepared at another level/strategy or for another geometry (the fallback),
 * deflateParams() and flushes after the dictionary, deflateReset() between
 * messages reusing the object, streams in states where the copy cannot be
 * used, user-set adler values, errors (null pointers, freed objects, gzip),
 * a failing allocator, and many threads sharing one object (run it under
 * ThreadSanitizer: see turbo/TECHNIQUES.md).
 *
 * ZT_MODE=full runs the whole product of parameters; quick mode a slice of
 * it in which every value of every parameter still appears. */
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "zt_harness.h"

namespace {

using zt::REF;
using zt::TUR;
typedef struct z_dict_s zdict;

bool have_prepared() {
    return TUR->deflatePrepareDictionary && TUR->deflateUseDictionary &&
           TUR->deflateFreeDictionary;
}
#define NEED_PREPARED()                                                  \
    do {                                                                 \
        ZT_NEED("prepared", have_prepared(),                             \
                "library under test has no prepared dictionaries");      \
    } while (0)

/* All file samples joined: dictionaries and messages are cut from it, a
 * message usually right after its dictionary so that it refers back. */
const std::vector<uint8_t> &pool() {
    static std::vector<uint8_t> p = [] {
        std::vector<uint8_t> v;
        for (auto &s : zt::file_samples())
            v.insert(v.end(), s.bytes.begin(), s.bytes.end());
        if (v.empty()) v.assign(4096, 'a');
        while (v.size() < (200u << 10)) {   /* tiny data sets: repeat */
            std::vector<uint8_t> more(v);
            v.insert(v.end(), more.begin(), more.end());
        }
        return v;
    }();
    return p;
}
std::vector<uint8_t> cut(size_t off, size_t len) {
    const auto &p = pool();
    std::vector<uint8_t> v;
    v.reserve(len + 1);         /* data() is never NULL, even for len 0 */
    v.resize(len);
    for (size_t i = 0; i < len; i++) v[i] = p[(off + i) % p.size()];
    return v;
}

int wbits_arg(int wb, int wrap) { return wrap == 0 ? -wb : wrap == 2 ? wb + 16 : wb; }

/* ---- three streams in lockstep ------------------------------------------ */
struct Side {
    const zapi *A;
    const char *name;
    z_stream s;
    std::vector<uint8_t> out;
};

/* fills every block with a pattern, the same for all three streams: the
 * window bytes past the data are then neither zero nor equal by chance, so
 * the zeroing deflateSetDictionary's fill_window() does above the
 * dictionary is checked too */
voidpf garbage_alloc(voidpf, uInt n, uInt size) {
    void *p = malloc((size_t)n * size);
    if (p) memset(p, 0xA5, (size_t)n * size);
    return p;
}
void garbage_free(voidpf, voidpf p) { free(p); }

struct Trio {
    Side x[3];
    std::string where;          /* the case, for messages */
    bool ok = true;
    Trio() {
        x[0].A = REF; x[0].name = "ref";
        x[1].A = TUR; x[1].name = "tur-set";
        x[2].A = TUR; x[2].name = "tur-use";
        for (auto &e : x) memset(&e.s, 0, sizeof(e.s));
    }
    bool fail(const std::string &what) {
        if (ok) ADD_FAILURE() << "ref and tur differ: " << what << "\n  case: " << where;
        ok = false;
        return false;
    }
    /* compares results and everything observable after one call */
    bool same(const char *call, const int rc[3]) {
        for (int i = 1; i < 3; i++) {
            const z_stream &a = x[0].s, &b = x[i].s;
            std::string who = std::string(call) + ": " + x[i].name + " vs ref: ";
            if (rc[i] != rc[0])
                return fail(who + "return " + std::to_string(rc[i]) + " vs " + std::to_string(rc[0]));
            if (a.adler != b.adler) return fail(who + "adler");
            if (a.total_in != b.total_in)
                return fail(who + "total_in " + std::to_string(b.total_in) + " vs " + std::to_string(a.total_in));
            if (a.total_out != b.total_out) return fail(who + "total_out");
            if (a.avail_in != b.avail_in) return fail(who + "avail_in");
            if (a.avail_out != b.avail_out) return fail(who + "avail_out");
            if (!zt::same_msg(a.msg, b.msg)) return fail(who + "msg");
            if (a.data_type != b.data_type) return fail(who + "data_type");
            if (x[i].out != x[0].out) return fail(who + "compressed bytes");
        }
        return true;
    }
    /* deflateGetDictionary, deflatePending, deflateUsed on all three */
    bool same_state(const char *call) {
        std::vector<uint8_t> w[3];
        uInt len[3];
        unsigned pend[3];
        int bits[3], used[3], rc[3];
        for (int i = 0; i < 3; i++) {
            if (x[i].s.state == nullptr) return true;
            w[i].resize(32768);
            rc[i] = x[i].A->deflateGetDictionary(&x[i].s, w[i].data(), &len[i]);
            w[i].resize(rc[i] == Z_OK ? len[i] : 0);
            x[i].A->deflatePending(&x[i].s, &pend[i], &bits[i]);
            x[i].A->deflateUsed(&x[i].s, &used[i]);
        }
        for (int i = 1; i < 3; i++)
            if (rc[i] != rc[0] || w[i] != w[0] || pend[i] != pend[0] ||
                bits[i] != bits[0] || used[i] != used[0])
                return fail(std::string(call) + ": " + x[i].name +
                            ": deflateGetDictionary/Pending/Used differ");
        return true;
    }
    bool init(int level, int wb_arg, int memLevel, int strategy,
              bool garbage = false) {
        int rc[3];
        for (int i = 0; i < 3; i++) {
            if (garbage) { x[i].s.zalloc = garbage_alloc; x[i].s.zfree = garbage_free; }
            rc[i] = ZAPI_DEFLATE_INIT2(x[i].A, &x[i].s, level, Z_DEFLATED, wb_arg, memLevel, strategy);
        }
        return same("deflateInit2", rc);
    }
    /* ref and tur-set: deflateSetDictionary; tur-use: deflateUseDictionary */
    bool dict(const std::vector<uint8_t> &d, const zdict *pd) {
        int rc[3];
        rc[0] = REF->deflateSetDictionary(&x[0].s, d.data(), (uInt)d.size());
        rc[1] = TUR->deflateSetDictionary(&x[1].s, d.data(), (uInt)d.size());
        rc[2] = TUR->deflateUseDictionary(&x[2].s, pd);
        return same("set/use dictionary", rc) && same_state("after the dictionary");
    }
    bool reset() {
        int rc[3];
        for (int i = 0; i < 3; i++) rc[i] = x[i].A->deflateReset(&x[i].s);
        for (auto &e : x) e.out.clear();
        return same("deflateReset", rc);
    }
    bool params(int level, int strategy) {
        int rc[3];
        for (int i = 0; i < 3; i++) {
            /* deflateParams may flush: give it room and keep its output */
            uint8_t buf[1 << 16];
            x[i].s.next_out = buf;
            x[i].s.avail_out = sizeof buf;
            rc[i] = x[i].A->deflateParams(&x[i].s, level, strategy);
            x[i].out.insert(x[i].out.end(), buf, buf + (sizeof buf - x[i].s.avail_out));
        }
        return same("deflateParams", rc);
    }
    /* the message through deflate(), sliced; flushes and deflateParams()
     * at random when `mixed`; Z_FINISH at the end */
    bool compress(const std::vector<uint8_t> &msg, zt::Rng &rng, bool mixed) {
        size_t pos = 0;
        int flush = Z_NO_FLUSH, rcs[3] = {Z_OK, Z_OK, Z_OK};
        uint8_t buf[3][4096];
        for (long calls = 0; calls < 100000; calls++) {
            size_t in = pos < msg.size() ? std::min(msg.size() - pos, (size_t)rng.range(1, mixed ? 3000 : 1 << 20)) : 0;
            unsigned outn = mixed ? (unsigned)rng.range(1, sizeof buf[0]) : (unsigned)sizeof buf[0];
            if (pos + in >= msg.size()) flush = Z_FINISH;
            else if (mixed && rng.chance(15)) {
                static const int f[] = {Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_BLOCK};
                flush = f[rng.below(4)];
            } else flush = Z_NO_FLUSH;
            if (mixed && rng.chance(5) && !params((int)rng.below(10), (int)rng.below(5)))
                return false;
            for (int i = 0; i < 3; i++) {
                z_stream &s = x[i].s;
                s.next_in = (Bytef *)(msg.data() + pos);
                s.avail_in = (uInt)in;
                s.next_out = buf[i];
                s.avail_out = outn;
                rcs[i] = x[i].A->deflate(&s, flush);
                x[i].out.insert(x[i].out.end(), buf[i], buf[i] + (outn - s.avail_out));
            }
            if (!same("deflate", rcs)) return false;
            pos += in - x[0].s.avail_in;
            if (rcs[0] == Z_STREAM_END || rcs[0] == Z_STREAM_ERROR) break;
            if (flush == Z_FINISH && rcs[0] == Z_BUF_ERROR && x[0].s.avail_out) break;
        }
        return same_state("after the message");
    }
    ~Trio() {
        int rc[3];
        for (int i = 0; i < 3; i++) rc[i] = x[i].s.state ? x[i].A->deflateEnd(&x[i].s) : 0;
        (void)rc;
    }
};

/* the dictionary lengths every test walks through */
std::vector<size_t> dict_lengths() {
    std::vector<size_t> v = {0, 1, 2, 3, 4, 257, 262, 263, 511, 512, 513, 1000,
                             4095, 4096, 4097, 16383, 16384, 32767, 32768, 32769,
                             40000};
    if (zt::full_mode()) { v.push_back(65535); v.push_back(100000); }
    return v;
}

/* prepared objects, one per (dictionary offset, length, wb, memLevel),
 * made with a raw or zlib stream at an arbitrary level and strategy */
struct Cache {
    std::map<std::string, zdict *> m;
    ~Cache() { for (auto &e : m) TUR->deflateFreeDictionary(e.second); }
    zdict *get(size_t off, size_t len, int wb, int memLevel, int prep_level,
               int prep_strategy, int prep_wrap) {
        std::string k = std::to_string(off) + "/" + std::to_string(len) + "/" +
                        std::to_string(wb) + "/" + std::to_string(memLevel) + "/" +
                        std::to_string(prep_level) + "/" + std::to_string(prep_strategy) + "/" +
                        std::to_string(prep_wrap);
        auto it = m.find(k);
        if (it != m.end()) return it->second;
        if (m.size() >= 64) {           /* bound the memory */
            for (auto &e : m) TUR->deflateFreeDictionary(e.second);
            m.clear();
        }
        z_stream s;
        memset(&s, 0, sizeof s);
        int wba = wbits_arg(wb, prep_wrap);
        if (wb == 8 && prep_wrap != 1) wba = 8;     /* raw/gzip refuse 8 */
        EXPECT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, prep_level, Z_DEFLATED, wba, memLevel, prep_strategy), Z_OK);
        auto d = cut(off, len);
        zdict *pd = nullptr;
        EXPECT_EQ(TUR->deflatePrepareDictionary(&s, d.data(), (uInt)len, &pd), Z_OK);
        EXPECT_NE(pd, nullptr);
        TUR->deflateEnd(&s);
        m[k] = pd;
        return pd;
    }
};

/* One case: init the three streams, then `messages` times: (reset,)
 * dictionary, message.  Returns false on a difference (reported). */
bool run_case(Cache &cache, uint64_t seed, int level, int wb, int wrap,
              int memLevel, int strategy, size_t dlen, int messages,
              bool mixed, bool other_geometry) {
    zt::Rng rng(seed);
    size_t doff = rng.range(0, pool().size() - 1);
    int pl = (int)rng.below(10), ps = (int)rng.below(5), pw = (int)rng.below(2);
    int pwb = wb, pml = memLevel;
    if (other_geometry) {       /* an object for another stream: fallback */
        if (rng.chance(50)) pwb = wb == 15 ? 9 + (int)rng.below(6) : wb + 1;
        else pml = memLevel == 9 ? 1 + (int)rng.below(8) : memLevel + 1;
    }
    zdict *pd = cache.get(doff, dlen, pwb, pml, pl, ps, pw);
    if (!pd) return false;
    auto d = cut(doff, dlen);
    Trio t;
    t.where = "seed=" + std::to_string(seed) + " level=" + std::to_string(level) +
              " wb=" + std::to_string(wb) + " wrap=" + std::to_string(wrap) +
              " memLevel=" + std::to_string(memLevel) + " strategy=" + std::to_string(strategy) +
              " dict=" + std::to_string(dlen) + "@" + std::to_string(doff) +
              " prepared(level=" + std::to_string(pl) + " strategy=" + std::to_string(ps) +
              " wb=" + std::to_string(pwb) + " memLevel=" + std::to_string(pml) +
              " wrap=" + std::to_string(pw) + ") mixed=" + std::to_string(mixed);
    if (!t.init(level, wbits_arg(wb, wrap), memLevel, strategy, (seed & 1) != 0)) return false;
    for (int m = 0; m < messages; m++) {
        if (m && !t.reset()) return false;
        if (!t.dict(d, pd)) return false;
        static const size_t lens[] = {0, 1, 10, 100, 256, 1000, 3000, 9000};
        size_t mlen = lens[rng.below(8)];
        auto msg = cut(doff + dlen + rng.range(0, 2000), mlen);
        if (!t.compress(msg, rng, mixed)) return false;
    }
    return true;
}

TEST(PreparedDictionary, ParameterProduct) {
    NEED_PREPARED();
    Cache cache;
    const auto lens = dict_lengths();
    uint64_t n = 0, cases = 0;
    /* full: the whole product; quick: each (level, windowBits, wrapper,
     * length) once, memLevel and strategy walking through their values */
    uint64_t tuple = 0;
    for (int level = 0; level <= 9; level++)
        for (int wb = 8; wb <= 15; wb++)
            for (int wrap = 0; wrap <= 2; wrap++) {
                if (wb == 8 && wrap != 1) continue;
                for (size_t li = 0; li < lens.size(); li++, tuple++)
                    for (int ml = 1; ml <= 9; ml++)
                        for (int st = 0; st <= 4; st++, n++) {
                            if (!zt::full_mode() &&
                                (ml != 1 + (int)(tuple % 9) || st != (int)((tuple / 9 + tuple) % 5)))
                                continue;
                            if (zt::too_many_failures()) return;
                            uint64_t seed = zt::case_seed("prepared-product", n);
                            run_case(cache, seed, level, wb, wrap, ml, st, lens[li],
                                     2, (n % 3) == 0, false);
                            cases++;
                        }
            }
    fprintf(stderr, "[zt] PreparedDictionary.ParameterProduct: %llu cases\n",
            (unsigned long long)cases);
}

/* Objects made for another windowBits or memLevel: deflateUseDictionary()
 * falls back to deflateSetDictionary() */
TEST(PreparedDictionary, OtherGeometryFallsBack) {
    NEED_PREPARED();
    Cache cache;
    const auto lens = dict_lengths();
    long cases = zt::by_mode(400, 4000);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("prepared-geometry", (uint64_t)i);
        zt::Rng rng(seed);
        int wb = 9 + (int)rng.below(7), wrap = (int)rng.below(3);
        run_case(cache, seed, (int)rng.below(10), wb, wrap, 1 + (int)rng.below(9),
                 (int)rng.below(5), lens[rng.below((uint32_t)lens.size())], 2,
                 rng.chance(50), true);
    }
}

/* Many messages through deflateReset() with one object, flushes and
 * deflateParams() after the dictionary */
TEST(PreparedDictionary, ResetBetweenMessages) {
    NEED_PREPARED();
    Cache cache;
    long cases = zt::by_mode(60, 600);
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("prepared-reset", (uint64_t)i);
        zt::Rng rng(seed);
        static const size_t dl[] = {3, 300, 4096, 32768, 40000};
        run_case(cache, seed, (int)rng.below(10), 9 + (int)rng.below(7),
                 (int)rng.below(2), 1 + (int)rng.below(9), (int)rng.below(5),
                 dl[rng.below(5)], 12, rng.chance(70), false);
    }
}

/* Stream states where the copy cannot be used, or must combine with what
 * the stream already holds: deflate() started (zlib: an error; raw: the
 * dictionary is appended), a second dictionary, deflatePrime() and
 * deflateParams() first, a user-set adler, pending input, gzip. */
TEST(PreparedDictionary, StreamStates) {
    NEED_PREPARED();
    Cache cache;
    long cases = zt::by_mode(300, 3000);
    const auto lens = dict_lengths();
    for (long i = 0; i < cases && !zt::too_many_failures(); i++) {
        uint64_t seed = zt::case_seed("prepared-states", (uint64_t)i);
        zt::Rng rng(seed);
        int level = (int)rng.below(10), wb = 9 + (int)rng.below(7),
            wrap = (int)rng.below(3), ml = 1 + (int)rng.below(9), st = (int)rng.below(5);
        size_t dlen = lens[rng.below((uint32_t)lens.size())];
        size_t doff = rng.range(0, pool().size() - 1);
        zdict *pd = cache.get(doff, dlen, wb, ml, level, st, wrap == 2 ? 1 : wrap);
        auto d = cut(doff, dlen);
        int what = (int)rng.below(7);
        Trio t;
        t.where = "StreamStates seed=" + std::to_string(seed) + " what=" + std::to_string(what) +
                  " level=" + std::to_string(level) + " wb=" + std::to_string(wb) +
                  " wrap=" + std::to_string(wrap) + " memLevel=" + std::to_string(ml) +
                  " strategy=" + std::to_string(st) + " dict=" + std::to_string(dlen);
        if (!t.init(level, wbits_arg(wb, wrap), ml, st)) continue;
        int rc[3];
        switch (what) {
        case 0: {               /* deflate() first, with a flush */
            auto pre = cut(doff + dlen, rng.range(0, 3000));
            int fl = rng.chance(50) ? Z_SYNC_FLUSH : Z_NO_FLUSH;
            for (int k = 0; k < 3; k++) {
                uint8_t buf[1 << 16];
                t.x[k].s.next_in = pre.data(); t.x[k].s.avail_in = (uInt)pre.size();
                t.x[k].s.next_out = buf; t.x[k].s.avail_out = sizeof buf;
                rc[k] = t.x[k].A->deflate(&t.x[k].s, fl);
                t.x[k].out.insert(t.x[k].out.end(), buf, buf + (sizeof buf - t.x[k].s.avail_out));
            }
            if (!t.same("deflate before the dictionary", rc)) continue;
            break;
        }
        case 1: {               /* a dictionary already set (by all three) */
            auto d0 = cut(doff + 7, rng.range(0, 5000));
            for (int k = 0; k < 3; k++)
                rc[k] = t.x[k].A->deflateSetDictionary(&t.x[k].s, d0.data(), (uInt)d0.size());
            if (!t.same("first dictionary", rc)) continue;
            break;
        }
        case 2:                 /* deflatePrime() */
            for (int k = 0; k < 3; k++) rc[k] = t.x[k].A->deflatePrime(&t.x[k].s, 5, 0x15);
            if (!t.same("deflatePrime", rc)) continue;
            break;
        case 3:                 /* deflateParams() */
            if (!t.params((int)rng.below(10), (int)rng.below(5))) continue;
            break;
        case 4: {               /* the caller's own adler, any 32 bits */
            uLong a = (uLong)rng.next() & 0xffffffffUL;
            if (rng.chance(30)) a = rng.chance(50) ? 0xffffffffUL : 0xfff0fff0UL;
            for (int k = 0; k < 3; k++) t.x[k].s.adler = a;
            break;
        }
        case 5:                 /* input waiting in next_in (not in the window) */
            for (int k = 0; k < 3; k++) {
                t.x[k].s.next_in = (Bytef *)d.data();
                t.x[k].s.avail_in = (uInt)std::min<size_t>(d.size(), 100);
            }
            break;
        default:                /* deflateTune() */
            for (int k = 0; k < 3; k++) rc[k] = t.x[k].A->deflateTune(&t.x[k].s, 4, 5, 16, 32);
            if (!t.same("deflateTune", rc)) continue;
            break;
        }
        if (!t.dict(d, pd)) continue;
        auto msg = cut(doff + dlen + 50, rng.range(0, 4000));
        t.compress(msg, rng, rng.chance(50));
    }
}

/* ---- errors --------------------------------------------------------------- */

/* An allocator that counts blocks, can fail the n-th allocation, and can
 * keep freed blocks (poisoned nowhere: their bytes stay as the library left
 * them) until the test ends, so a freed object can be passed back safely. */
struct Alloc {
    long calls = 0, fail_at = -1, live = 0;
    bool defer = false;
    std::vector<void *> kept;
    static voidpf za(voidpf op, uInt n, uInt size) {
        Alloc *a = (Alloc *)op;
        if (a->calls++ == a->fail_at) return Z_NULL;
        void *p = malloc((size_t)n * size);
        if (p) a->live++;
        return p;
    }
    static void zf(voidpf op, voidpf p) {
        Alloc *a = (Alloc *)op;
        a->live--;
        if (a->defer) a->kept.push_back(p); else free(p);
    }
    void attach(z_stream &s) { s.zalloc = za; s.zfree = zf; s.opaque = this; }
    ~Alloc() { for (void *p : kept) free(p); }
};

TEST(PreparedDictionary, Errors) {
    NEED_PREPARED();
    auto d = cut(1000, 5000);
    z_stream s;
    memset(&s, 0, sizeof s);
    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, 6, Z_DEFLATED, 15, 8, 0), Z_OK);
    zdict *pd = (zdict *)&s;    /* must be overwritten */
    EXPECT_EQ(TUR->deflatePrepareDictionary(nullptr, d.data(), 10, &pd), Z_STREAM_ERROR);
    EXPECT_EQ(pd, nullptr);
    EXPECT_EQ(TUR->deflatePrepareDictionary(&s, nullptr, 10, &pd), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflatePrepareDictionary(&s, d.data(), 10, nullptr), Z_STREAM_ERROR);
    ASSERT_EQ(TUR->deflatePrepareDictionary(&s, d.data(), (uInt)d.size(), &pd), Z_OK);
    EXPECT_EQ(TUR->deflateUseDictionary(nullptr, pd), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflateUseDictionary(&s, nullptr), Z_STREAM_ERROR);
    TUR->deflateFreeDictionary(nullptr);        /* no-op */
    /* a stream not initialised, or ended */
    z_stream bad;
    memset(&bad, 0, sizeof bad);
    EXPECT_EQ(TUR->deflateUseDictionary(&bad, pd), Z_STREAM_ERROR);
    zdict *bd = pd;
    EXPECT_EQ(TUR->deflatePrepareDictionary(&bad, d.data(), 10, &bd), Z_STREAM_ERROR);
    EXPECT_EQ(bd, nullptr);
    z_stream ended;
    memset(&ended, 0, sizeof ended);
    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &ended, 6, Z_DEFLATED, 15, 8, 0), Z_OK);
    TUR->deflateEnd(&ended);
    EXPECT_EQ(TUR->deflateUseDictionary(&ended, pd), Z_STREAM_ERROR);
    /* a stream whose state belongs to another (copied z_stream) */
    z_stream moved = s;
    EXPECT_EQ(TUR->deflateUseDictionary(&moved, pd), Z_STREAM_ERROR);
    /* gzip: cannot be prepared from, and refuses the dictionary like zlib */
    z_stream g;
    memset(&g, 0, sizeof g);
    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &g, 6, Z_DEFLATED, 31, 8, 0), Z_OK);
    zdict *gd = nullptr;
    EXPECT_EQ(TUR->deflatePrepareDictionary(&g, d.data(), 10, &gd), Z_STREAM_ERROR);
    EXPECT_EQ(gd, nullptr);
    EXPECT_EQ(TUR->deflateUseDictionary(&g, pd), Z_STREAM_ERROR);
    TUR->deflateEnd(&g);
    /* a zlib stream after its first deflate() */
    uint8_t out[64];
    s.next_in = d.data(); s.avail_in = 10; s.next_out = out; s.avail_out = sizeof out;
    EXPECT_EQ(TUR->deflate(&s, Z_NO_FLUSH), Z_OK);
    EXPECT_EQ(TUR->deflateUseDictionary(&s, pd), Z_STREAM_ERROR);
    TUR->deflateFreeDictionary(pd);
    TUR->deflateEnd(&s);
}

TEST(PreparedDictionary, FreedObjectIsRefused) {
    NEED_PREPARED();
    Alloc a;
    a.defer = true;             /* freed blocks stay readable */
    z_stream s;
    memset(&s, 0, sizeof s);
    a.attach(s);
    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, 1, Z_DEFLATED, 15, 8, 0), Z_OK);
    auto d = cut(0, 3000);
    zdict *pd = nullptr;
    ASSERT_EQ(TUR->deflatePrepareDictionary(&s, d.data(), (uInt)d.size(), &pd), Z_OK);
    EXPECT_EQ(TUR->deflateUseDictionary(&s, pd), Z_OK);
    long live = a.live;
    TUR->deflateFreeDictionary(pd);
    EXPECT_LT(a.live, live);
    TUR->deflateFreeDictionary(pd);             /* double free: ignored */
    EXPECT_EQ(TUR->deflateReset(&s), Z_OK);
    EXPECT_EQ(TUR->deflateUseDictionary(&s, pd), Z_STREAM_ERROR);
    TUR->deflateEnd(&s);
    EXPECT_EQ(a.live, 0);
    /* the object's memory came from this allocator, and all went back */
}

/* Every allocation deflatePrepareDictionary makes, failed in turn:
 * Z_MEM_ERROR, *dict Z_NULL, nothing left allocated, the stream unharmed. */
TEST(PreparedDictionary, FailingAllocator) {
    NEED_PREPARED();
    static const size_t dl[] = {0, 2, 300, 32768, 40000};
    for (size_t len : dl)
        for (int ml : {1, 8, 9}) {
            auto d = cut(len * 3, len);
            long n_ok = -1;
            for (long k = 0; k < 64; k++) {
                Alloc a;
                z_stream s;
                memset(&s, 0, sizeof s);
                a.attach(s);
                ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, 6, Z_DEFLATED, 15, ml, 0), Z_OK);
                long base = a.calls, live = a.live;
                a.fail_at = base + k;
                zdict *pd = (zdict *)&s;
                int rc = TUR->deflatePrepareDictionary(&s, d.data(), (uInt)len, &pd);
                a.fail_at = -1;
                if (rc == Z_OK) {
                    ASSERT_NE(pd, nullptr);
                    n_ok = k;
                    /* still usable and exact */
                    EXPECT_EQ(TUR->deflateUseDictionary(&s, pd), Z_OK);
                    TUR->deflateFreeDictionary(pd);
                    TUR->deflateEnd(&s);
                    EXPECT_EQ(a.live, 0);
                    break;
                }
                EXPECT_EQ(rc, Z_MEM_ERROR) << "failing allocation " << k;
                EXPECT_EQ(pd, nullptr);
                EXPECT_EQ(a.live, live) << "leak after failing allocation " << k;
                /* the stream is untouched and works */
                EXPECT_EQ(TUR->deflateSetDictionary(&s, d.data(), (uInt)len), Z_OK);
                TUR->deflateEnd(&s);
                EXPECT_EQ(a.live, 0);
            }
            EXPECT_GT(n_ok, 1) << "len " << len;   /* several allocations were failed */
        }
}

/* ---- threads ---------------------------------------------------------------- */

/* One object, many threads, each with its own streams, each message checked
 * against pristine zlib's output computed beforehand. */
TEST(PreparedDictionary, ThreadsShareOneObject) {
    NEED_PREPARED();
    const int nthreads = 8, nmsg = (int)zt::by_mode(40, 400);
    struct Cfg { int level, wb, wrap, ml, st; };
    const Cfg cfgs[] = {{1, 15, 1, 8, 0}, {6, 15, 0, 8, 0}, {9, 15, 1, 8, 1}, {3, 15, 0, 8, 0}};
    auto dict = cut(5000, 32768);
    z_stream p;
    memset(&p, 0, sizeof p);
    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &p, 6, Z_DEFLATED, 15, 8, 0), Z_OK);
    zdict *pd = nullptr;
    ASSERT_EQ(TUR->deflatePrepareDictionary(&p, dict.data(), (uInt)dict.size(), &pd), Z_OK);
    TUR->deflateEnd(&p);
    /* expected outputs by ref */
    std::vector<std::vector<uint8_t>> msgs, want;
    for (int m = 0; m < nmsg; m++) {
        msgs.push_back(cut(5000 + 32768 + (size_t)m * 397, 100 + (size_t)(m * 211) % 3000));
        const Cfg &c = cfgs[m % 4];
        z_stream s;
        memset(&s, 0, sizeof s);
        ZAPI_DEFLATE_INIT2(REF, &s, c.level, Z_DEFLATED, wbits_arg(c.wb, c.wrap), c.ml, c.st);
        REF->deflateSetDictionary(&s, dict.data(), (uInt)dict.size());
        std::vector<uint8_t> out(REF->deflateBound(&s, msgs[m].size()) + 16);
        s.next_in = msgs[m].data(); s.avail_in = (uInt)msgs[m].size();
        s.next_out = out.data(); s.avail_out = (uInt)out.size();
        EXPECT_EQ(REF->deflate(&s, Z_FINISH), Z_STREAM_END);
        out.resize(s.total_out);
        REF->deflateEnd(&s);
        want.push_back(out);
    }
    std::atomic<long> bad{0}, done{0};
    auto work = [&](int id) {
        z_stream s[4];
        for (int c = 0; c < 4; c++) {
            memset(&s[c], 0, sizeof s[c]);
            ZAPI_DEFLATE_INIT2(TUR, &s[c], cfgs[c].level, Z_DEFLATED,
                               wbits_arg(cfgs[c].wb, cfgs[c].wrap), cfgs[c].ml, cfgs[c].st);
        }
        std::vector<uint8_t> out(70000);
        for (int k = 0; k < nmsg; k++) {
            int m = (k + id * 7) % nmsg, c = m % 4;
            TUR->deflateReset(&s[c]);
            if (TUR->deflateUseDictionary(&s[c], pd) != Z_OK) { bad++; continue; }
            s[c].next_in = msgs[m].data(); s[c].avail_in = (uInt)msgs[m].size();
            s[c].next_out = out.data(); s[c].avail_out = (uInt)out.size();
            if (TUR->deflate(&s[c], Z_FINISH) != Z_STREAM_END ||
                s[c].total_out != want[m].size() ||
                memcmp(out.data(), want[m].data(), want[m].size()) != 0)
                bad++;
            done++;
        }
        for (auto &e : s) TUR->deflateEnd(&e);
    };
    std::vector<std::thread> th;
    for (int i = 0; i < nthreads; i++) th.emplace_back(work, i);
    for (auto &t : th) t.join();
    TUR->deflateFreeDictionary(pd);
    EXPECT_EQ(bad.load(), 0);
    EXPECT_EQ(done.load(), (long)nthreads * nmsg);
}

}  /* namespace */
