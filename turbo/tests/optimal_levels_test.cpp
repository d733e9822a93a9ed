/* optimal_levels_test.cpp -- compression levels 10, 11 and 12 (zturbo.h:
 * Z_TURBO_OPTIMAL_FAST, Z_TURBO_OPTIMAL, Z_TURBO_OPTIMAL_BEST).
 *
 * These levels parse optimally: valid deflate, but not zlib's bytes, so no
 * test here compares them with pristine zlib's compressed bytes.  Instead
 * every stream the library under test ("tur") writes at 10-12 is
 *   - inflated by pristine zlib 1.3.2 ("ref") initialised with the SAME
 *     windowBits (and the dictionary, and reading the gzip header), which
 *     must give back the input exactly, end with Z_STREAM_END with nothing
 *     left over, and agree on Adler-32 / CRC-32;
 *   - walked by a small deflate decoder of this file (walk()) that counts
 *     the blocks by type, the literals and the matches and finds the longest
 *     distance: never beyond 2^windowBits, never before the start of the
 *     history (dictionary + output);
 *   - compared with the same stream written by one deflate() call per flush
 *     point on one thread (the "one-call run"): the bytes must be identical
 *     however the input and the output are sliced (down to one byte each),
 *     for every thread count (deflateSetThreads(): 1, 2, 3, 4, 8), with
 *     deflateParams() switches, deflateSetThreads() and deflateCopy()
 *     between calls, input moved to other buffers or overwritten before it
 *     is consumed.
 * Around that: levels 10-12 accepted by deflateInit(), deflateInit2(),
 * compress2(), deflateParams(), gzsetparams() and 13 and above refused;
 * deflateInit2()'s other parameters judged as at level 9; every geometry
 * (windowBits 8-15 raw, zlib and gzip, memLevel 1-9, strategies 0-4);
 * flushes with zlib.h's meaning (after Z_SYNC_FLUSH, Z_FULL_FLUSH and
 * Z_PARTIAL_FLUSH the output so far inflates to exactly the input so far;
 * after Z_FULL_FLUSH the rest inflates on its own, without the history);
 * deflateBound() and compressBound(); deflateSetDictionary() and prepared
 * dictionaries; deflatePrime(); deflateReset(); deflatePending();
 * deflateCopy(); deflateParams() among 10-12 (zlib's Z_BLOCK flush first,
 * Z_BUF_ERROR when it cannot complete) and between 0-9 and 10-12 (only
 * before the first deflate() since init or reset, else Z_STREAM_ERROR and
 * the stream goes on unharmed); the strategies' meaning (Z_HUFFMAN_ONLY: no
 * matches, Z_RLE: distance 1 only, Z_FIXED: no dynamic block, Z_FILTERED:
 * the default's bytes); memory (every block from zalloc, all freed by
 * deflateEnd(), failing allocations reported as Z_MEM_ERROR without a leak,
 * uninitialised memory never read into the output).
 *
 * The driver (class Driver) runs a Plan: the stream's parameters and a list
 * of events at input positions (a flush, deflateParams(), deflateSetThreads(),
 * deflateCopy()).  Each event happens once all the input before it has been
 * consumed, however the calls are sliced.  A flush is complete when
 * deflate() returns with avail_out != 0.  Z_NO_FLUSH, Z_BLOCK and Z_FINISH
 * calls and deflateParams() get output room down to one byte; a
 * Z_SYNC_FLUSH, Z_FULL_FLUSH or Z_PARTIAL_FLUSH call gets room for all it
 * may write: zlib's deflate() cannot tell a caller whether such a flush is
 * complete when it returns with avail_out == 0, and a flush repeated once
 * complete adds another marker (zlib.h), so in pristine zlib too those
 * bytes depend on the room given to the flush call itself.
 * HarnessSlicingHoldsOnZlib runs the same driver on pristine zlib at levels
 * 1-9, whose bytes do not depend on the slicing under these rules
 * either: if that test fails, the driver is wrong, not the library.
 *
 * Threads (deflateSetThreads()) only matter for input that spans several
 * segments (256 KiB in the default build).  The size from which one call
 * starts worker threads at level 10 is measured once (probe(): threads
 * seen in /proc/self/task) and the threaded cases are sized from it.  A
 * build with small segments (TUR_CFLAGS=-DZO_SEG_BITS=12, which
 * tools/check/optimal-small-segments.sh makes; ZO_SEG_BITS=12 in the
 * environment tells the tests) makes small inputs cross many segments, and
 * the tests then run many more, smaller cases.
 *
 * A library without levels 10-12 FAILS every test (it must not pass by
 * skipping); the threaded tests are SKIPPED (GTEST_SKIP, with the reason)
 * where the library has no threads, and so is MemoryOnlyFromZalloc where
 * malloc cannot be watched (sanitizers).  Quick by default (data of a few
 * KiB to tens of KiB per case, a few hundred KiB to about 1 MiB for the
 * threads); ZT_MODE=full: more files and sizes, flush intervals 31 to
 * 131072, one-byte slicing of larger inputs, more thread counts and cases.
 * A failure names the case: rerun it alone with the ZT_SEED and ZT_OPT_CASE
 * it prints.  ZT_OPT_LEVELS=a,b,c runs the level-independent tests at other
 * levels (a check of the tests themselves on a library without 10-12).
 */
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__GLIBC__) || defined(__linux__)
#  include <malloc.h>
#endif

#include "zt_harness.h"

/* zturbo.h of the library under test (the Makefile names it when the
 * library's folder has one) */
#ifdef ZT_TURBO_H
#  include ZT_TURBO_H
#endif

namespace {

using zt::REF;
using zt::TUR;
using zt::by_mode;
using Bytes = std::vector<uint8_t>;
typedef struct z_dict_s zdict;

/* ---- the levels under test ------------------------------------------------ */

const std::vector<int> &levels() {
    static std::vector<int> v = [] {
        std::vector<int> l;
        const char *e = getenv("ZT_OPT_LEVELS");
        if (e && *e) {
            std::string s(e), cur;
            for (char c : s + ",") {
                if (c == ',') {
                    if (!cur.empty()) l.push_back(atoi(cur.c_str()));
                    cur.clear();
                } else {
                    cur += c;
                }
            }
            fprintf(stderr, "[zt] OptimalLevels: ZT_OPT_LEVELS: the tests run at levels %s "
                    "instead of 10-12\n", e);
        }
        if (l.empty()) l = {10, 11, 12};
        return l;
    }();
    return v;
}
bool dev_levels() { return levels().size() != 3 || levels()[0] != 10; }
int pick_level(zt::Rng &rng) { return levels()[rng.below((uint32_t)levels().size())]; }

/* does the library under test compress at level 10?  Without it every test
 * fails (a library that refuses the levels must not pass by skipping) */
bool optimal_supported(std::string *why) {
    static int known = -1;
    static std::string note;
    if (known < 0) {
        known = 1;
        for (int level : levels()) {
            z_stream s;
            memset(&s, 0, sizeof s);
            int rc = ZAPI_DEFLATE_INIT2(TUR, &s, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY);
            if (rc == Z_OK) {
                TUR->deflateEnd(&s);
                continue;
            }
            known = 0;
            note = "the library under test does not compress at level " + std::to_string(level) +
                   ": deflateInit2(level " + std::to_string(level) + ", windowBits 15, memLevel 8) "
                   "returned " + std::to_string(rc) + " (levels 10-12 are not there)";
            break;
        }
    }
    if (why) *why = note;
    return known == 1;
}

long g_opt_failures = 0;
bool stop_all() { return g_opt_failures >= 30 || zt::too_many_failures(); }

#define NEED_OPTIMAL()                                                       \
    do {                                                                     \
        std::string why_;                                                    \
        if (!optimal_supported(&why_)) FAIL() << why_;                       \
        if (stop_all())                                                      \
            GTEST_SKIP() << "not run: too many failures reported already";   \
    } while (0)

/* ---- reporting: one case of a test -------------------------------------- */

long only_case() {
    static long c = [] {
        const char *e = getenv("ZT_OPT_CASE");
        return e && *e ? atol(e) : -1L;
    }();
    return c;
}

struct Case {
    std::string test;           /* "OptimalLevels.Name" */
    long index = 0;
    uint64_t seed = 0;
    std::string data, params;
    bool failed = false;
    Case(const char *t, long i, uint64_t s) : test(std::string("OptimalLevels.") + t), index(i), seed(s) {}
    std::string describe() const {
        char b[64];
        std::ostringstream o;
        snprintf(b, sizeof b, "0x%llx", (unsigned long long)zt::opt().seed);
        o << "[zt] case " << index << " of " << test << "\n  data:   " << data
          << "\n  params: " << params << "\n  rerun:  ZT_SEED=" << b
          << (zt::full_mode() ? " ZT_MODE=full" : "") << " ZT_OPT_CASE=" << index
          << " zt_tests --gtest_filter=" << test;
        return o.str();
    }
    bool fail(const std::string &what) {
        failed = true;
        g_opt_failures++;
        ADD_FAILURE() << describe() << "\n  failure: " << what;
        return false;
    }
};

/* the cases of a test: stops after 3 failing ones; ZT_OPT_CASE=N runs only
 * case N */
struct Cases {
    const char *name;
    long next = 0, ran = 0, failed = 0;
    explicit Cases(const char *n) : name(n) {}
    bool stop() const { return failed >= 3 || stop_all(); }
    /* the next case number, or -1 when it is not to run */
    bool want(long i) const { return only_case() < 0 || only_case() == i; }
    uint64_t seed(long i) const { return zt::case_seed(name, (uint64_t)i); }
    void done(const Case &c) {
        ran++;
        if (c.failed) failed++;
    }
};

std::string hexs(const uint8_t *p, size_t n) { return zt::hex(p, n); }

const char *strat_name(int s) {
    static const char *n[] = {"default", "filtered", "huffman", "rle", "fixed"};
    return s >= 0 && s <= 4 ? n[s] : "?";
}
const char *flush_name(int f) {
    static const char *n[] = {"Z_NO_FLUSH", "Z_PARTIAL_FLUSH", "Z_SYNC_FLUSH",
                              "Z_FULL_FLUSH", "Z_FINISH", "Z_BLOCK", "Z_TREES"};
    return f >= 0 && f <= 6 ? n[f] : "?";
}

/* ---- the stream's geometry ---------------------------------------------- */
struct Geo {
    int level = 10, wb = 15, wrap = 1, ml = 8, strategy = Z_DEFAULT_STRATEGY;
    /* the windowBits argument of deflateInit2() */
    int warg() const { return wrap == 0 ? -wb : wrap == 2 ? wb + 16 : wb; }
    /* the window deflate uses: zlib turns 8 into 9 */
    int eff_wb() const { return wb == 8 ? 9 : wb; }
    /* another wrapper (windowBits 8 is zlib's only) */
    void set_wrap(int w) {
        wrap = w;
        if (wb == 8 && w != 1) wb = 9;
    }
    /* inflateInit2()'s windowBits for these streams: the same window */
    int iarg() const { return wrap == 0 ? -eff_wb() : wrap == 2 ? eff_wb() + 16 : eff_wb(); }
    std::string str() const {
        std::ostringstream o;
        o << "level=" << level << " windowBits=" << warg() << "("
          << (wrap == 0 ? "raw" : wrap == 1 ? "zlib" : "gzip") << ") memLevel=" << ml
          << " strategy=" << strat_name(strategy);
        return o.str();
    }
};

Geo random_geo(zt::Rng &rng) {
    Geo g;
    g.level = pick_level(rng);
    g.wrap = (int)rng.below(3);
    g.wb = rng.chance(40) ? 15 : (int)rng.range(9, 15);
    if (g.wrap == 1 && rng.chance(5)) g.wb = 8;
    g.ml = rng.chance(40) ? 8 : (int)rng.range(1, 9);
    g.strategy = rng.chance(60) ? Z_DEFAULT_STRATEGY : (int)rng.below(5);
    return g;
}

/* ---- an allocator that counts, fails on demand and fills blocks ---------- */
struct Alloc {
    std::mutex mu;
    std::thread::id owner = std::this_thread::get_id();
    long calls = 0, frees = 0, live = 0, foreign = 0, bad_frees = 0;
    size_t bytes = 0, peak = 0;
    long fail_at = -1;          /* fail the allocation with this index */
    bool fail_all = false;
    bool failed = false;        /* an allocation was failed */
    int fill = -1;              /* >= 0: each block filled with this byte;
                                   -2: pseudo-random bytes; -1: as malloc */
    uint64_t fill_state = 0x243F6A8885A308D3ULL;
    std::map<void *, size_t> size_of;

    static voidpf za(voidpf op, uInt n, uInt size) {
        Alloc *a = (Alloc *)op;
        std::lock_guard<std::mutex> g(a->mu);
        if (std::this_thread::get_id() != a->owner) a->foreign++;
        long k = a->calls++;
        if (a->fail_all || k == a->fail_at) {
            a->failed = true;
            return Z_NULL;
        }
        size_t len = (size_t)n * size;
        uint8_t *p = (uint8_t *)malloc(len ? len : 1);
        if (p == nullptr) return Z_NULL;
        if (a->fill >= 0) {
            memset(p, a->fill, len);
        } else if (a->fill == -2) {
            for (size_t i = 0; i < len; i += 8) {
                uint64_t x = (a->fill_state += 0x9E3779B97F4A7C15ULL);
                x = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ULL;
                memcpy(p + i, &x, std::min<size_t>(8, len - i));
            }
        }
        a->live++;
        a->bytes += len;
        a->peak = std::max(a->peak, a->bytes);
        a->size_of[p] = len;
        return p;
    }
    static void zf(voidpf op, voidpf p) {
        Alloc *a = (Alloc *)op;
        std::lock_guard<std::mutex> g(a->mu);
        if (std::this_thread::get_id() != a->owner) a->foreign++;
        a->frees++;
        if (p == nullptr) return;
        auto it = a->size_of.find(p);
        if (it == a->size_of.end()) {
            a->bad_frees++;
            return;             /* not ours: do not free it */
        }
        a->bytes -= it->second;
        a->size_of.erase(it);
        a->live--;
        free(p);
    }
    void attach(z_stream &s) {
        s.zalloc = za;
        s.zfree = zf;
        s.opaque = this;
    }
    /* fail the k-th allocation from now (0: the next one) */
    void arm(long k) {
        fail_at = calls + k;
        failed = false;
    }
    void disarm() {
        fail_at = -1;
        fail_all = false;
    }
    std::string leak_note() const {
        return std::to_string(live) + " block(s), " + std::to_string(bytes) + " bytes";
    }
};
using AllocP = std::shared_ptr<Alloc>;
AllocP new_alloc() { return std::make_shared<Alloc>(); }

/* ---- worker threads, seen from outside ---------------------------------- */

int task_count() {
    DIR *d = opendir("/proc/self/task");
    if (d == nullptr) return -1;
    int n = 0;
    while (struct dirent *e = readdir(d))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

int tasks_settle(int want) {
    int n = task_count();
    for (int i = 0; n > want && i < 2000; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        n = task_count();
    }
    return n;
}

/* ---- test data ----------------------------------------------------------- */
/* zt::make_data() with this file's settings: K_PERIOD with dense noise when
 * it has some (a changed byte every 1500 bytes on average), the parts of
 * K_MIXED up to a third of the length, a file pool of 4 MiB */
using namespace zt::data_kinds;
using zt::kind_name;

Bytes make_data(zt::Rng &rng, int kind, size_t len) {
    zt::DataSettings ds;
    ds.zeros_pct = 40;
    ds.noise_min = 1500;
    ds.noise_max = 1500;
    ds.mixed_part = 0;
    ds.pool_size = 4u << 20;
    return zt::make_data(rng, kind, len, ds);
}

/* a random kind, files and mixed ones more often */
int pick_kind(zt::Rng &rng) {
    uint32_t r = rng.below(100);
    if (r < 30) return K_FILES;
    if (r < 45) return K_MIXED;
    if (r < 55) return K_TEXT;
    return (int)rng.below(K_KINDS);
}

/* ---- a small deflate decoder: blocks, symbols, distances ------------------ */

struct Walk {
    bool ok = false;
    std::string err;
    long stored = 0, fixed = 0, dynamic = 0;
    long lits = 0, matches = 0;
    unsigned maxdist = 0;
    long dist_not1 = 0;         /* matches with a distance other than 1 */
    long too_far = 0;           /* distances beyond the window */
    long before_start = 0;      /* distances before the history's start */
    size_t out = 0;             /* bytes it decodes to */
    size_t end_bit = 0;         /* bit position after the last block */
    std::string str() const {
        std::ostringstream o;
        o << "blocks stored/fixed/dynamic " << stored << "/" << fixed << "/" << dynamic
          << ", " << lits << " literals, " << matches << " matches, longest distance "
          << maxdist;
        return o.str();
    }
};

class Walker {
public:
    Walker(const uint8_t *p, size_t n, size_t bit) : p_(p), n_(n), bit_(bit) {}
    /* history: bytes usable before the start (a dictionary), window: the
     * largest distance allowed */
    Walk run(size_t history, unsigned window) {
        Walk w;
        static const unsigned short lbase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
                                                 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
                                                 227, 258};
        static const unsigned char lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                               2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
        static const unsigned short dbase[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97,
                                                 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
                                                 3073, 4097, 6145, 8193, 12289, 16385, 24577};
        static const unsigned char dext[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                               6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
        int last = 0;
        while (!last) {
            last = (int)bits(1);
            int type = (int)bits(2);
            if (over_) return fail(w, "stream ends inside a block header");
            if (type == 0) {
                bit_ = (bit_ + 7) & ~(size_t)7;
                unsigned len = (unsigned)bits(16), nlen = (unsigned)bits(16);
                if (over_) return fail(w, "stream ends inside a stored block header");
                if ((len ^ 0xffff) != nlen) return fail(w, "stored block length check");
                if (bit_ / 8 + len > n_) return fail(w, "stream ends inside a stored block");
                bit_ += (size_t)len * 8;
                w.out += len;
                w.lits += len;
                w.stored++;
                continue;
            }
            if (type == 3) return fail(w, "block type 3");
            Huff ll, d;
            if (type == 1) {
                unsigned char l[320];
                int i = 0;
                for (; i < 144; i++) l[i] = 8;
                for (; i < 256; i++) l[i] = 9;
                for (; i < 280; i++) l[i] = 7;
                for (; i < 288; i++) l[i] = 8;
                ll.build(l, 288);
                for (i = 0; i < 30; i++) l[i] = 5;
                d.build(l, 30);
                w.fixed++;
            } else {
                if (!dynamic_codes(ll, d)) return fail(w, "bad dynamic block header");
                w.dynamic++;
            }
            for (;;) {
                int sym = decode(ll);
                if (sym < 0) return fail(w, "bad literal/length code");
                if (sym < 256) {
                    w.lits++;
                    w.out++;
                    continue;
                }
                if (sym == 256) break;
                sym -= 257;
                if (sym >= 29) return fail(w, "length symbol 286/287");
                unsigned len = lbase[sym] + (unsigned)bits(lext[sym]);
                int ds = decode(d);
                if (ds < 0 || ds >= 30) return fail(w, "bad distance code");
                unsigned dist = dbase[ds] + (unsigned)bits(dext[ds]);
                if (over_) return fail(w, "stream ends inside a match");
                w.matches++;
                w.maxdist = std::max(w.maxdist, dist);
                if (dist != 1) w.dist_not1++;
                if (dist > window) w.too_far++;
                if (dist > w.out + history) w.before_start++;
                w.out += len;
            }
            if (over_) return fail(w, "stream ends inside a block");
        }
        w.end_bit = bit_;
        w.ok = true;
        return w;
    }

private:
    struct Huff {
        short count[16];
        short sym[320];
        void build(const unsigned char *len, int n) {
            short offs[16];
            memset(count, 0, sizeof count);
            for (int i = 0; i < n; i++) count[len[i]]++;
            count[0] = 0;
            offs[1] = 0;
            for (int l = 1; l < 15; l++) offs[l + 1] = (short)(offs[l] + count[l]);
            for (int i = 0; i < n; i++)
                if (len[i]) sym[offs[len[i]]++] = (short)i;
        }
    };
    const uint8_t *p_;
    size_t n_, bit_;
    bool over_ = false;

    uint32_t bits(int k) {
        uint32_t v = 0;
        for (int i = 0; i < k; i++) {
            size_t byte = bit_ >> 3;
            if (byte >= n_) {
                over_ = true;
                return 0;
            }
            v |= (uint32_t)((p_[byte] >> (bit_ & 7)) & 1) << i;
            bit_++;
        }
        return v;
    }
    /* canonical code, one bit at a time (codes are sent from their top bit) */
    int decode(const Huff &h) {
        int code = 0, first = 0, index = 0;
        for (int len = 1; len <= 15; len++) {
            code |= (int)bits(1);
            if (over_) return -1;
            int count = h.count[len];
            if (code - count < first) return h.sym[index + (code - first)];
            index += count;
            first += count;
            first <<= 1;
            code <<= 1;
        }
        return -1;
    }
    bool dynamic_codes(Huff &ll, Huff &d) {
        static const unsigned char order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                                11, 4, 12, 3, 13, 2, 14, 1, 15};
        int nlen = (int)bits(5) + 257, ndist = (int)bits(5) + 1, ncode = (int)bits(4) + 4;
        if (over_ || nlen > 286 || ndist > 30) return false;
        unsigned char l[320];
        memset(l, 0, sizeof l);
        for (int i = 0; i < ncode; i++) l[order[i]] = (unsigned char)bits(3);
        Huff cl;
        cl.build(l, 19);
        unsigned char lens[320];
        int i = 0;
        while (i < nlen + ndist) {
            int sym = decode(cl);
            if (sym < 0) return false;
            if (sym < 16) {
                lens[i++] = (unsigned char)sym;
                continue;
            }
            int rep, val = 0;
            if (sym == 16) {
                if (i == 0) return false;
                val = lens[i - 1];
                rep = 3 + (int)bits(2);
            } else if (sym == 17) {
                rep = 3 + (int)bits(3);
            } else {
                rep = 11 + (int)bits(7);
            }
            if (i + rep > nlen + ndist) return false;
            while (rep--) lens[i++] = (unsigned char)val;
        }
        if (over_ || lens[256] == 0) return false;
        ll.build(lens, nlen);
        d.build(lens + nlen, ndist);
        return true;
    }
    Walk fail(Walk &w, const char *why) {
        w.ok = false;
        w.err = std::string(why) + " (bit " + std::to_string(bit_) + ")";
        return w;
    }
};

/* bytes of the zlib or gzip header before the deflate data; 0 for raw, and
 * SIZE_MAX where the header is cut short */
size_t header_len(const Bytes &z, int wrap) {
    if (wrap == 0) return 0;
    if (wrap == 1) {
        if (z.size() < 2) return SIZE_MAX;
        return (z[1] & 0x20) ? 6 : 2;
    }
    if (z.size() < 10) return SIZE_MAX;
    size_t i = 10;
    int flg = z[3];
    if (flg & 4) {
        if (i + 2 > z.size()) return SIZE_MAX;
        i += 2 + (size_t)(z[i] | z[i + 1] << 8);
    }
    for (int f : {8, 16})
        if (flg & f) {
            while (i < z.size() && z[i]) i++;
            i++;
        }
    if (flg & 2) i += 2;
    return i <= z.size() ? i : SIZE_MAX;
}

/* ---- pristine inflate ------------------------------------------------------ */

struct Inflated {
    int rc = Z_OK;
    std::string msg;
    Bytes out;
    size_t left = 0;            /* input bytes not consumed */
    bool need_dict = false;
    uLong dict_id = 0;
    std::string what() const {
        return "inflate returned " + std::to_string(rc) + " (" + msg + ") after " +
               std::to_string(out.size()) + " bytes out";
    }
};

/* the whole stream through ref's inflate: warg as inflateInit2's; dict set
 * where zlib asks (Z_NEED_DICT) or at once (raw); head filled for gzip;
 * out_step 0: all the room at once, k: k bytes of room per call (1: every
 * distance must be inside the window, none inside this call's output) */
Inflated ref_inflate(const uint8_t *z, size_t zn, int warg, const Bytes *dict,
                     gz_header *head, size_t expect, size_t out_step = 0, int skip_bits = 0) {
    Inflated r;
    z_stream s;
    memset(&s, 0, sizeof s);
    r.rc = ZAPI_INFLATE_INIT2(REF, &s, warg);
    if (r.rc != Z_OK) {
        r.msg = "inflateInit2 failed";
        return r;
    }
    if (dict && warg < 0) REF->inflateSetDictionary(&s, dict->data(), (uInt)dict->size());
    if (head) REF->inflateGetHeader(&s, head);
    size_t cap = expect + 1024;
    r.out.resize(cap);
    static const uint8_t none[1] = {0};
    s.next_in = const_cast<Bytef *>(zn ? z : none);
    s.avail_in = (uInt)zn;
    /* a raw stream that starts skip_bits into its first bytes (after
     * deflatePrime()'s bits): the rest of the partial byte goes in through
     * inflatePrime(), so stored blocks stay aligned on the stream's bytes */
    if (skip_bits && (size_t)(skip_bits + 7) / 8 <= zn) {
        size_t whole = (size_t)skip_bits / 8;
        int r = skip_bits % 8;
        s.next_in += whole;
        s.avail_in -= (uInt)whole;
        if (r) {
            REF->inflatePrime(&s, 8 - r, *s.next_in >> r);
            s.next_in++;
            s.avail_in--;
        }
    }
    size_t have = 0;
    int rc = Z_OK;
    for (long calls = 0;; calls++) {
        size_t room = cap - have;
        if (out_step && room > out_step) room = out_step;
        s.next_out = r.out.data() + have;
        s.avail_out = (uInt)room;
        rc = REF->inflate(&s, Z_NO_FLUSH);
        have += room - s.avail_out;
        if (rc == Z_NEED_DICT) {
            r.need_dict = true;
            r.dict_id = s.adler;
            if (dict == nullptr) break;
            rc = REF->inflateSetDictionary(&s, dict->data(), (uInt)dict->size());
            if (rc != Z_OK) break;
            continue;
        }
        if (rc == Z_STREAM_END || (rc != Z_OK && rc != Z_BUF_ERROR)) break;
        if (have >= cap) break;                     /* more than expected */
        if (rc == Z_BUF_ERROR && s.avail_in == 0) break;    /* cut short */
        if (calls > (long)(zn + expect) * 2 + 1000) break;
    }
    r.rc = rc;
    r.msg = s.msg ? s.msg : (rc == Z_BUF_ERROR ? "the stream ends early" : "");
    r.left = s.avail_in;
    r.out.resize(have);
    REF->inflateEnd(&s);
    return r;
}

/* ---- the plan of a stream and the driver that runs it --------------------- */

enum SliceMode { S_ALL, S_ONE, S_SMALL, S_MEDIUM, S_MIXED };
const char *slice_mode_name(int m) {
    static const char *n[] = {"all", "1", "1-64", "1-8192", "mixed"};
    return m >= 0 && m <= 4 ? n[m] : "?";
}
size_t draw(zt::Rng &rng, int mode, size_t all) {
    switch (mode) {
    case S_ALL: return all;
    case S_ONE: return 1;
    case S_SMALL: return rng.range(1, 64);
    case S_MEDIUM: return rng.range(1, 8192);
    default:
        switch (rng.below(6)) {
        case 0: return rng.range(1, 3);
        case 1: return rng.range(1, 64);
        case 2: return rng.range(1, 8192);
        case 3: return rng.range(1, 300000);
        default: return all;
        }
    }
}

struct Slicing {
    int in = S_ALL, out = S_ALL;
    bool move = false;          /* each call's input from a fresh copy, freed after */
    int overwrite = 0;          /* % of calls after which the unconsumed input is changed */
    uint64_t seed = 1;
    std::string str() const {
        std::ostringstream o;
        o << "in " << slice_mode_name(in) << ", out " << slice_mode_name(out);
        if (move) o << ", input moved";
        if (overwrite) o << ", unconsumed input overwritten";
        return o.str();
    }
};

enum EvKind { EV_FLUSH, EV_PARAMS, EV_THREADS, EV_COPY, EV_FINISH, EV_PRIME, EV_DICT, EV_RESET };
struct Event {
    size_t pos;
    int kind;
    int a = 0, b = 0;           /* flush; level, strategy; thread count */
    std::string str() const {
        std::ostringstream o;
        o << "@" << pos << " ";
        switch (kind) {
        case EV_FLUSH: o << flush_name(a); break;
        case EV_PARAMS: o << "deflateParams(" << a << "," << strat_name(b) << ")"; break;
        case EV_THREADS: o << "deflateSetThreads(" << a << ")"; break;
        case EV_COPY: o << "deflateCopy"; break;
        case EV_PRIME: o << "deflatePrime(" << a << "," << b << ")"; break;
        case EV_DICT: o << "deflateSetDictionary"; break;
        case EV_RESET: o << "deflateReset"; break;
        default: o << "Z_FINISH"; break;
        }
        return o.str();
    }
};

struct Plan {
    Geo g;
    int threads = 0;            /* deflateSetThreads() before the first call (0: none) */
    const Bytes *dict = nullptr;
    bool prepared = false;      /* the dictionary via deflatePrepareDictionary/UseDictionary */
    gz_header *head = nullptr;
    int prime_bits = 0;         /* deflatePrime() before data (raw only) */
    uint32_t prime_value = 0;
    bool init1 = false;         /* deflateInit() instead of deflateInit2() */
    const Bytes *mid_dict = nullptr;    /* the dictionary of EV_DICT */
    bool mem_ok = false;        /* a failed allocation may end the stream (Z_MEM_ERROR) */
    std::vector<Event> ev;      /* by position */
    std::string str() const {
        std::ostringstream o;
        o << g.str();
        if (init1) o << " (deflateInit)";
        if (threads) o << " threads=" << threads;
        if (dict) o << (prepared ? " prepared-dict=" : " dict=") << dict->size();
        if (head) o << " gzheader";
        if (prime_bits) o << " prime=" << prime_bits << "bits:" << prime_value;
        if (!ev.empty()) {
            o << "\n          events (" << ev.size() << "):";
            size_t k = 0;
            for (auto &e : ev) {
                if (k++ == 24) {
                    o << " ...";
                    break;
                }
                o << " " << e.str();
            }
        }
        return o.str();
    }
};

struct Mark {
    int flush;
    size_t in_pos, out_len;
};

struct Output {
    bool ok = true;
    bool mem_error = false;     /* ended by Z_MEM_ERROR after a failed allocation (mem_ok) */
    size_t base = 0;            /* input position of the stream's start (after EV_RESET) */
    std::string why;
    Bytes out;
    std::vector<Mark> marks;
    uLong adler = 0, total_in = 0, total_out = 0;
    long calls = 0;
    bool engaged = false;       /* worker threads were seen */
};

/* a stream of the driver: the plan's, or a copy of it (deflateCopy()),
 * continued on its own from where it was made */
struct Twin {
    z_stream s;
    Bytes out;
    bool open = false;
    /* where a copy starts: input position, next event, and what the driver
     * counts for the stream at that point */
    size_t pos = 0, next_ev = 0, base = 0, dict_in = 0;
    std::vector<Mark> marks;
};

class Driver {
public:
    Driver(const zapi *A, const Plan &p, const Bytes &data, const Slicing &sl, AllocP al, Output &r)
        : A_(A), p_(p), data_(data), work_(data), sl_(sl), rng_(sl.seed), al_(std::move(al)),
          r_(r) {}
    Driver(const Driver &) = delete;
    Driver &operator=(const Driver &) = delete;
    ~Driver() { end_quiet(); }

    /* the input as given (differs from data where it was overwritten) */
    const Bytes &input() const { return work_; }

    bool run() {
        if (!setup()) return false;
        ev_ = p_.ev;
        ev_.push_back(Event{data_.size(), EV_FINISH, Z_FINISH});
        if (!play(0)) return false;
        z_stream &s = tw_[0]->s;
        r_.out = tw_[0]->out;
        r_.adler = s.adler;
        r_.total_in = s.total_in;
        r_.total_out = s.total_out;
        /* zlib counts the dictionary's bytes that go into the window in
         * total_in (deflateSetDictionary() reads them as input) */
        if (s.total_in != data_.size() - r_.base + dict_in_)
            return bad("total_in " + std::to_string(s.total_in) + " at Z_STREAM_END: not the input, " +
                       std::to_string(data_.size() - r_.base) + " bytes, plus the dictionary's " +
                       std::to_string(dict_in_) + " in the window, as zlib counts it");
        if (s.total_out != r_.out.size())
            return bad("total_out " + std::to_string(s.total_out) + " at Z_STREAM_END, output " +
                       std::to_string(r_.out.size()));
        note_tasks();
        /* each copy, continued on its own from where it was made (with one
         * thread: it may take input in other amounts per call), must end
         * with the stream's bytes */
        std::vector<Mark> marks0 = r_.marks;
        size_t base0 = r_.base;
        for (size_t t = 1; t < tw_.size(); t++) {
            Twin &c = *tw_[t];
            cur_ = t;
            pos_ = c.pos;
            r_.base = c.base;
            dict_in_ = c.dict_in;
            r_.marks = c.marks;
            log("the copy made at input " + std::to_string(c.pos) + " goes on");
            if (!play(c.next_ev)) return false;
            if (c.out != tw_[0]->out) {
                size_t i = 0;
                while (i < c.out.size() && i < tw_[0]->out.size() && c.out[i] == tw_[0]->out[i]) i++;
                return bad("a copy made by deflateCopy() at input " + std::to_string(c.pos) + " ends with " +
                           std::to_string(c.out.size()) + " bytes, the stream with " +
                           std::to_string(tw_[0]->out.size()) + "; first difference at offset " +
                           std::to_string(i));
            }
        }
        cur_ = 0;
        r_.marks = marks0;
        r_.base = base0;
        for (auto &t : tw_) {
            int rc = A_->deflateEnd(&t->s);
            t->open = false;
            if (rc != Z_OK) return bad("deflateEnd after Z_STREAM_END returned " + std::to_string(rc));
        }
        return true;
    }

    /* the events from ev_[e0] on, on the current stream */
    bool play(size_t e0) {
        for (size_t ei = e0; ei < ev_.size(); ei++) {
            const Event &e = ev_[ei];
            if (e.pos < pos_ || e.pos > data_.size()) return bad("event out of order: " + e.str());
            bool flushy = e.kind == EV_FLUSH || e.kind == EV_FINISH;
            size_t stop = e.pos;
            if (flushy) {
                if (sl_.in == S_ALL) stop = pos_;
                else if (rng_.chance(40)) stop = e.pos - std::min(e.pos - pos_, draw(rng_, sl_.in, e.pos - pos_));
            }
            if (!feed(stop)) return false;
            bool ok = true;
            switch (e.kind) {
            case EV_FLUSH: ok = flush_to(e.pos, e.a); break;
            case EV_FINISH: ok = flush_to(e.pos, Z_FINISH); break;
            case EV_PARAMS: ok = params(e.a, e.b); break;
            case EV_THREADS: ok = set_threads(e.a); break;
            case EV_COPY: ok = copy(ei + 1); break;
            case EV_PRIME: ok = prime(e.a, e.b); break;
            case EV_DICT: ok = mid_dictionary(); break;
            case EV_RESET: ok = reset(); break;
            }
            if (!ok) return false;
        }
        return true;
    }

    /* for the tests that drive a stream by hand */
    z_stream &stream() { return tw_[0]->s; }

    bool setup() {
        tw_.push_back(std::unique_ptr<Twin>(new Twin));
        z_stream &s = tw_[0]->s;
        memset(&s, 0, sizeof s);
        al_->attach(s);
        const Geo &g = p_.g;
        int rc = p_.init1 ? A_->deflateInit_(&s, g.level, ZLIB_VERSION, (int)sizeof(z_stream))
                          : ZAPI_DEFLATE_INIT2(A_, &s, g.level, Z_DEFLATED, g.warg(), g.ml, g.strategy);
        log(p_.init1 ? "deflateInit" : "deflateInit2");
        if (rc != Z_OK) {
            if (mem_end(rc)) return false;
            return bad(std::string(p_.init1 ? "deflateInit" : "deflateInit2") + " returned " +
                       std::to_string(rc));
        }
        tw_[0]->open = true;
        tasks0_ = task_count();
        if (p_.head && (rc = A_->deflateSetHeader(&s, p_.head)) != Z_OK)
            return bad("deflateSetHeader returned " + std::to_string(rc));
        if (p_.dict) {
            dict_in_ = dict_counted(*p_.dict);
            if (p_.prepared) {
                if (!A_->deflatePrepareDictionary) return bad("no deflatePrepareDictionary()");
                z_stream q;
                memset(&q, 0, sizeof q);
                al_->attach(q);
                /* an object made on a stream of the same geometry, at another level */
                rc = ZAPI_DEFLATE_INIT2(A_, &q, rng_.chance(50) ? 6 : g.level, Z_DEFLATED,
                                        g.wrap == 0 ? -g.wb : g.wb, g.ml, Z_DEFAULT_STRATEGY);
                if (rc != Z_OK) {
                    if (mem_end(rc)) return false;
                    return bad("deflateInit2 of the preparing stream returned " + std::to_string(rc));
                }
                zdict *pd = nullptr;
                rc = A_->deflatePrepareDictionary(&q, p_.dict->data(), (uInt)p_.dict->size(), &pd);
                A_->deflateEnd(&q);
                if (rc != Z_OK) {
                    if (mem_end(rc)) return false;
                    return bad("deflatePrepareDictionary returned " + std::to_string(rc));
                }
                rc = A_->deflateUseDictionary(&s, pd);
                A_->deflateFreeDictionary(pd);     /* the stream holds its own copy */
                if (rc != Z_OK && !mem_end(rc)) return bad("deflateUseDictionary returned " + std::to_string(rc));
                if (rc != Z_OK) return false;
            } else {
                rc = A_->deflateSetDictionary(&s, p_.dict->data(), (uInt)p_.dict->size());
                if (rc != Z_OK && !mem_end(rc)) return bad("deflateSetDictionary returned " + std::to_string(rc));
                if (rc != Z_OK) return false;
            }
        }
        uint32_t v = p_.prime_value;
        for (int left = std::min(p_.prime_bits, 32); left > 0;) {
            int k = std::min(left, 16);
            rc = A_->deflatePrime(&s, k, (int)(v & ((1u << k) - 1)));
            if (rc != Z_OK) return bad("deflatePrime returned " + std::to_string(rc));
            v >>= k;
            left -= k;
        }
        if (p_.threads && !set_threads(p_.threads)) return false;
        return true;
    }

    /* NO_FLUSH calls until all input before stop is consumed */
    bool feed(size_t stop) {
        int stall = 0;
        while (pos_ < stop) {
            size_t nin = std::min(draw(rng_, sl_.in, stop - pos_), stop - pos_);
            size_t nout = draw(rng_, sl_.out, room_all());
            int rc;
            size_t used, made;
            if (!call(Z_NO_FLUSH, nin, nout, &rc, &used, &made)) return false;
            if (rc != Z_OK) {
                if (mem_end(rc)) return false;
                return bad("deflate(Z_NO_FLUSH) returned " + std::to_string(rc));
            }
            stall = used || made ? 0 : stall + 1;
            if (stall > 3) return bad("deflate(Z_NO_FLUSH) takes no input and writes no output");
            maybe_overwrite(made == nout);
        }
        return true;
    }

    /* one flush at position at, complete when deflate() returns with
     * avail_out != 0 (Z_FINISH: Z_STREAM_END).  Z_BLOCK and Z_FINISH calls
     * get sliced room like any other.  A Z_SYNC_FLUSH, Z_FULL_FLUSH or
     * Z_PARTIAL_FLUSH call gets room for all: zlib's deflate() cannot tell
     * a caller whether such a flush is complete when it returns with
     * avail_out == 0 (nothing pending may mean "marker written" or "marker
     * still to come"), and calling it again once it was complete adds
     * another marker (zlib.h), so those bytes depend on the room in
     * pristine zlib too */
    bool flush_to(size_t at, int flush) {
        bool marker = flush == Z_SYNC_FLUSH || flush == Z_FULL_FLUSH || flush == Z_PARTIAL_FLUSH;
        int stall = 0;
        for (long n = 0;; n++) {
            size_t nout = marker ? data_.size() * 2 + 65536 : draw(rng_, sl_.out, room_all());
            int rc;
            size_t used, made;
            if (!call(flush, at - pos_, nout, &rc, &used, &made)) return false;
            bool full_out = made == nout;
            if (flush == Z_FINISH) {
                if (rc == Z_STREAM_END) {
                    if (pos_ != at)
                        return bad("deflate(Z_FINISH) returned Z_STREAM_END with " +
                                   std::to_string(at - pos_) + " input bytes not consumed");
                    break;
                }
                if (rc != Z_OK) {
                    if (mem_end(rc)) return false;
                    return bad("deflate(Z_FINISH) returned " + std::to_string(rc));
                }
            } else {
                if (rc != Z_OK) {
                    if (mem_end(rc)) return false;
                    return bad(std::string("deflate(") + flush_name(flush) + ") returned " +
                               std::to_string(rc));
                }
                if (pos_ == at && !full_out) break;
                if (marker && n > 0) return bad(std::string("deflate(") + flush_name(flush) +
                                                ") fills all the room it is given, twice");
            }
            stall = used || made ? 0 : stall + 1;
            if (stall > 3) return bad(std::string("deflate(") + flush_name(flush) +
                                      ") makes no progress");
            if (pos_ < at) maybe_overwrite(full_out);
        }
        if (flush != Z_FINISH) {
            unsigned pend = 0;
            int bits = 0;
            A_->deflatePending(&tw_[cur_]->s, &pend, &bits);
            if (pend != 0 || bits < 0 || bits > 7 ||
                ((flush == Z_SYNC_FLUSH || flush == Z_FULL_FLUSH) && bits != 0))
                return bad(std::string("after a complete ") + flush_name(flush) + " deflatePending says " +
                           std::to_string(pend) + " bytes and " + std::to_string(bits) +
                           " bits are held");
            r_.marks.push_back(Mark{flush, pos_ - r_.base, tw_[cur_]->out.size()});
        }
        return true;
    }

    /* deflateParams() with all input before it consumed; Z_BUF_ERROR (the
     * Z_BLOCK flush could not complete) is answered with more room */
    bool params(int level, int strategy) {
        Twin &t = *tw_[cur_];
        for (long n = 0;; n++) {
            size_t nout = draw(rng_, sl_.out, room_all());
            size_t have = t.out.size();
            t.out.resize(have + nout + 8, 0xC5);
            t.s.next_in = const_cast<Bytef *>(dummy());
            t.s.avail_in = 0;
            t.s.next_out = t.out.data() + have;
            t.s.avail_out = (uInt)nout;
            int rc = A_->deflateParams(&t.s, level, strategy);
            size_t made = nout - t.s.avail_out;
            if (!canary_ok(t, have + nout)) return bad("deflateParams wrote past avail_out");
            t.out.resize(have + made);
            r_.calls++;
            log("deflateParams(" + std::to_string(level) + "," + strat_name(strategy) + ") out=" +
                std::to_string(nout) + " -> " + std::to_string(rc) + " +" + std::to_string(made));
            if (rc == Z_OK) return true;
            if (mem_end(rc)) return false;
            if (rc != Z_BUF_ERROR || made < nout)
                return bad("deflateParams(" + std::to_string(level) + ", " + strat_name(strategy) +
                           ") returned " + std::to_string(rc) + " with " +
                           std::to_string(nout - made) + " bytes of output room left");
            if (n > (long)data_.size() * 4 + 10000) return bad("deflateParams never completes");
        }
    }

    bool set_threads(int n) {
        if (!A_->deflateSetThreads) return bad("no deflateSetThreads()");
        note_tasks();
        int rc = A_->deflateSetThreads(&tw_[cur_]->s, n);
        log("deflateSetThreads(" + std::to_string(n) + ")");
        /* zturbo.h: Z_MEM_ERROR leaves the stream on one thread, usable */
        if (rc == Z_MEM_ERROR && p_.mem_ok && al_->failed) return true;
        if (rc != Z_OK) return bad("deflateSetThreads(" + std::to_string(n) + ") returned " +
                                   std::to_string(rc));
        return true;
    }

    /* a copy of the current stream, continued on its own from the next
     * event once this one has ended */
    bool copy(size_t next_ev) {
        std::unique_ptr<Twin> c(new Twin);
        memset(&c->s, 0, sizeof c->s);
        int rc = A_->deflateCopy(&c->s, &tw_[cur_]->s);
        log("deflateCopy");
        if (rc != Z_OK) {
            if (mem_end(rc)) return false;
            return bad("deflateCopy returned " + std::to_string(rc));
        }
        c->open = true;
        c->out = tw_[cur_]->out;
        c->pos = pos_;
        c->next_ev = next_ev;
        c->base = r_.base;
        c->dict_in = dict_in_;
        c->marks = r_.marks;
        tw_.push_back(std::move(c));
        return true;
    }

    bool prime(int bits, int value) {
        int rc = A_->deflatePrime(&tw_[cur_]->s, bits, value);
        log("deflatePrime(" + std::to_string(bits) + "," + std::to_string(value) + ")");
        if (rc != Z_OK) return bad("deflatePrime(" + std::to_string(bits) + ", " + std::to_string(value) +
                                   ") returned " + std::to_string(rc));
        return true;
    }

    /* deflateSetDictionary() in the middle (raw streams, after a flush) */
    bool mid_dictionary() {
        int rc = A_->deflateSetDictionary(&tw_[cur_]->s, p_.mid_dict->data(), (uInt)p_.mid_dict->size());
        log("deflateSetDictionary(" + std::to_string(p_.mid_dict->size()) + ")");
        if (rc != Z_OK) return bad("deflateSetDictionary after a flush returned " + std::to_string(rc));
        dict_in_ += dict_counted(*p_.mid_dict);
        return true;
    }

    /* deflateReset(): the rest of the input is a new stream (with the
     * plan's dictionary again) */
    bool reset() {
        note_tasks();
        Twin &t = *tw_[cur_];
        int rc = A_->deflateReset(&t.s);
        log("deflateReset");
        if (rc != Z_OK) return bad("deflateReset returned " + std::to_string(rc));
        t.out.clear();
        if (p_.dict) {
            rc = A_->deflateSetDictionary(&t.s, p_.dict->data(), (uInt)p_.dict->size());
            if (rc != Z_OK) return bad("deflateSetDictionary after deflateReset returned " + std::to_string(rc));
        }
        dict_in_ = p_.dict ? dict_counted(*p_.dict) : 0;
        r_.marks.clear();
        r_.base = pos_;
        return true;
    }

    /* with plan.mem_ok: an allocation was failed and the call says so */
    bool mem_end(int rc) {
        if (rc != Z_MEM_ERROR || !p_.mem_ok || !al_->failed) return false;
        r_.mem_error = true;
        bad("Z_MEM_ERROR");
        return true;
    }

    /* one deflate() on the current stream: nin bytes from pos_, nout of room */
    bool call(int flush, size_t nin, size_t nout, int *rc0, size_t *used0, size_t *made0) {
        const uint8_t *src = work_.empty() ? dummy() : work_.data() + pos_;
        Twin &t = *tw_[cur_];
        uint8_t *moved = nullptr;
        const uint8_t *in = src;
        if (sl_.move) {
            moved = (uint8_t *)malloc(nin + 1);
            if (nin) memcpy(moved, src, nin);
            in = moved;
        }
        size_t have = t.out.size();
        t.out.resize(have + nout + 8, 0xC5);
        t.s.next_in = const_cast<Bytef *>(in);
        t.s.avail_in = (uInt)nin;
        t.s.next_out = t.out.data() + have;
        t.s.avail_out = (uInt)nout;
        int rc = A_->deflate(&t.s, flush);
        size_t used = nin - t.s.avail_in, made = nout - t.s.avail_out;
        bool ptrs = t.s.next_in == in + used && t.s.next_out == t.out.data() + have + made;
        bool canary = canary_ok(t, have + nout);
        t.s.next_in = Z_NULL;
        t.s.avail_in = 0;
        if (moved) {
            memset(moved, 0x5A, nin);
            free(moved);
        }
        t.out.resize(have + made);
        *rc0 = rc;
        *used0 = used;
        *made0 = made;
        r_.calls++;
        log(std::string("deflate(") + flush_name(flush) + ") in=" + std::to_string(nin) + "@" +
            std::to_string(pos_) + " out=" + std::to_string(nout) + " -> " + std::to_string(rc) +
            " took " + std::to_string(used) + " wrote " + std::to_string(made));
        if (!ptrs) return bad("next_in/next_out do not match avail_in/avail_out");
        if (!canary) return bad("deflate wrote past avail_out");
        pos_ += used;
        if (p_.threads > 1 && (r_.calls % 8 == 0 || nin > 4096)) note_tasks();
        return true;
    }

    void note_tasks() {
        if (r_.engaged || tasks0_ < 0) return;
        if (task_count() > tasks0_) r_.engaged = true;
    }

    bool bad(const std::string &what) {
        if (!r_.ok) return false;
        r_.ok = false;
        std::string t;
        for (auto &e : trail_) t += "\n            " + e;
        r_.why = what + "\n  last calls (" + std::to_string(r_.calls) + " in all):" + t;
        return false;
    }
    void log(const std::string &e) {
        static const bool trace = getenv("ZT_OPT_TRACE") != nullptr;
        if (trace) fprintf(stderr, "[zt] %s: %s\n", A_->name, e.c_str());
        if (trail_.size() >= 8) trail_.erase(trail_.begin());
        trail_.push_back(e);
    }

private:
    const zapi *A_;
    const Plan &p_;
    const Bytes &data_;
    Bytes work_;
    Slicing sl_;
    zt::Rng rng_;
    AllocP al_;
    Output &r_;
    std::vector<std::unique_ptr<Twin>> tw_;
    size_t cur_ = 0;            /* the stream being driven */
    std::vector<Event> ev_;     /* the plan's events and the finish */
    std::vector<std::string> trail_;
    size_t pos_ = 0;
    size_t dict_in_ = 0;        /* dictionary bytes counted in total_in */
    int tasks0_ = -1;

    size_t dict_counted(const Bytes &d) const {
        return std::min<size_t>(d.size(), (size_t)1 << p_.g.eff_wb());
    }

    static const uint8_t *dummy() {
        static const uint8_t d[1] = {0};
        return d;
    }
    size_t room_all() const { return (data_.size() - pos_) * 2 + 4096; }
    static bool canary_ok(const Twin &t, size_t at) {
        for (size_t i = 0; i < 8; i++)
            if (t.out[at + i] != 0xC5) return false;
        return true;
    }
    /* after a call that left input, change bytes not consumed yet: the
     * library must compress the bytes it is given, not the ones it saw */
    void maybe_overwrite(bool any) {
        if (!sl_.overwrite || !any || pos_ >= work_.size() || !rng_.chance((unsigned)sl_.overwrite)) return;
        size_t a = pos_ + (rng_.chance(50) ? rng_.range(0, 64) : rng_.range(0, work_.size() - pos_ - 1));
        a = std::min(a, work_.size() - 1);
        size_t m = std::min(work_.size() - a, rng_.range(1, 3000));
        for (size_t i = 0; i < m; i++) work_[a + i] = (uint8_t)(work_[a + i] + 1 + rng_.below(200));
        log("overwrote " + std::to_string(m) + " input bytes at " + std::to_string(a));
    }
    void end_quiet() {
        for (auto &t : tw_)
            if (t->open) {
                A_->deflateEnd(&t->s);
                t->open = false;
            }
    }
};

/* runs the plan on the library under test (or A); false with r.why set */
bool run_plan(const Plan &p, const Bytes &data, const Slicing &sl, Output &r, AllocP al = nullptr,
              const zapi *A = TUR, Bytes *given = nullptr) {
    if (!al) al = new_alloc();
    static const bool on_ref = getenv("ZT_OPT_ON_REF") != nullptr;   /* a check of the driver */
    if (on_ref) A = REF;
    {
        Driver d(A, p, data, sl, al, r);
        d.run();
        if (given) *given = d.input();
    }
    if (r.ok && al->live != 0) {
        r.ok = false;
        r.why = "deflateEnd left " + al->leak_note() + " allocated";
    }
    if (r.ok && al->foreign) {
        r.ok = false;
        r.why = "zalloc/zfree called " + std::to_string(al->foreign) + " times from another thread";
    }
    if (r.ok && al->bad_frees) {
        r.ok = false;
        r.why = "zfree called " + std::to_string(al->bad_frees) + " times with a block zalloc never gave";
    }
    return r.ok;
}

/* ---- checking a stream ---------------------------------------------------- */

struct Check {
    const Geo *g = nullptr;
    const Bytes *dict = nullptr;
    const gz_header *head = nullptr;    /* as given to deflateSetHeader */
    int prime_bits = 0;
    uint32_t prime_value = 0;
    const std::vector<Mark> *marks = nullptr;
    bool strict = false;        /* inflate again one byte of output at a time */
    size_t full_checks = 6;     /* Z_FULL_FLUSH points whose rest is inflated alone */
    bool adler_from_deflate = true;
    uLong deflate_adler = 0;
};

bool same_bytes(Case &c, const Bytes &got, const Bytes &want, const std::string &what) {
    if (got == want) return true;
    size_t i = 0;
    while (i < got.size() && i < want.size() && got[i] == want[i]) i++;
    size_t k = std::min<size_t>(16, std::max(got.size(), want.size()) - i);
    return c.fail(what + ": " + std::to_string(got.size()) + " bytes instead of " +
                  std::to_string(want.size()) + ", first difference at offset " + std::to_string(i) +
                  ": " + hexs(got.data() + std::min(i, got.size()), std::min(k, got.size() - std::min(i, got.size()))) +
                  " instead of " +
                  hexs(want.data() + std::min(i, want.size()), std::min(k, want.size() - std::min(i, want.size()))));
}

/* everything checked of one stream (see the top of this file) */
bool verify(Case &c, const Bytes &z, const Bytes &data, const Check &k, Walk *walk_out = nullptr) {
    const Geo &g = *k.g;
    const Bytes *zz = &z;
    if (k.prime_bits) {
        uint32_t got = 0;
        for (int i = 0; i < k.prime_bits && (size_t)(i >> 3) < z.size(); i++)
            got |= (uint32_t)((z[(size_t)i >> 3] >> (i & 7)) & 1) << i;
        uint32_t want = k.prime_bits >= 32 ? k.prime_value : k.prime_value & ((1u << k.prime_bits) - 1);
        if (got != want)
            return c.fail("the stream does not start with deflatePrime()'s " +
                          std::to_string(k.prime_bits) + " bits");
    }
    gz_header h;
    Bytes hx(300), hn(300), hc(300);
    memset(&h, 0, sizeof h);
    h.extra = hx.data();
    h.extra_max = (uInt)hx.size();
    h.name = hn.data();
    h.name_max = (uInt)hn.size();
    h.comment = hc.data();
    h.comm_max = (uInt)hc.size();
    Inflated inf = ref_inflate(zz->data(), zz->size(), g.iarg(), k.dict, g.wrap == 2 ? &h : nullptr,
                               data.size(), 0, k.prime_bits);
    if (inf.rc != Z_STREAM_END)
        return c.fail("pristine inflate (windowBits " + std::to_string(g.iarg()) + ") rejects the stream: " +
                      inf.what() + (inf.need_dict && !k.dict ? " (asks for a dictionary)" : ""));
    if (!same_bytes(c, inf.out, data, "pristine inflate gives other bytes back")) return false;
    if (inf.left)
        return c.fail(std::to_string(inf.left) + " bytes follow the end of the stream");
    if (g.wrap == 1 && k.dict && !inf.need_dict)
        return c.fail("zlib stream with a dictionary does not ask for it (no FDICT)");
    if (g.wrap == 1 && !k.dict && inf.need_dict) return c.fail("zlib stream asks for a dictionary");
    if (k.adler_from_deflate && g.wrap != 0) {
        uLong want = g.wrap == 1 ? REF->adler32_z(1, data.data(), data.size())
                                 : REF->crc32_z(0, data.data(), data.size());
        if (k.deflate_adler != want)
            return c.fail("strm->adler at the end is " + std::to_string(k.deflate_adler) + ", not the " +
                          (g.wrap == 1 ? "Adler-32 " : "CRC-32 ") + std::to_string(want));
    }
    if (g.wrap == 2 && k.head) {
        const gz_header *w = k.head;
        if (h.done != 1) return c.fail("gzip header not read back");
        if (h.text != w->text || h.time != w->time || h.os != w->os || h.hcrc != w->hcrc)
            return c.fail("gzip header fields (text, time, os, hcrc) differ from deflateSetHeader's");
        auto cstr = [](const Bytef *p) { return std::string(p ? (const char *)p : ""); };
        int flg = (*zz)[3];
        if (((flg & 8) != 0) != (w->name != nullptr) || (w->name && cstr(w->name) != cstr(h.name)))
            return c.fail("gzip header name differs from deflateSetHeader's");
        if (((flg & 16) != 0) != (w->comment != nullptr) ||
            (w->comment && cstr(w->comment) != cstr(h.comment)))
            return c.fail("gzip header comment differs from deflateSetHeader's");
        if (((flg & 4) != 0) != (w->extra != nullptr) ||
            (w->extra && (h.extra_len != w->extra_len || memcmp(h.extra, w->extra, w->extra_len))))
            return c.fail("gzip header extra field differs from deflateSetHeader's");
    }
    /* the decoder's view: distances */
    size_t hl = header_len(*zz, g.wrap);
    if (hl == SIZE_MAX) return c.fail("header cut short");
    unsigned window = 1u << g.eff_wb();
    size_t hist = k.dict ? std::min<size_t>(k.dict->size(), window) : 0;
    Walk w = Walker(zz->data(), zz->size(), hl * 8 + (size_t)k.prime_bits).run(hist, window);
    if (!w.ok) return c.fail("the stream decoder of this test fails where pristine inflate did not: " + w.err);
    if (w.out != data.size())
        return c.fail("the stream decoder counts " + std::to_string(w.out) + " bytes, not " +
                      std::to_string(data.size()));
    if (w.too_far)
        return c.fail(std::to_string(w.too_far) + " match distance(s) beyond the window of " +
                      std::to_string(window) + " bytes (longest " + std::to_string(w.maxdist) + ")");
    if (w.before_start)
        return c.fail(std::to_string(w.before_start) + " match distance(s) reach before the start of "
                      "the history");
    if (g.wrap == 0 && z.size() != (w.end_bit + 7) / 8)
        return c.fail(std::to_string(z.size()) + " bytes for a raw stream that ends at bit " +
                      std::to_string(w.end_bit));
    if (walk_out) *walk_out = w;
    /* inflate with one byte of output per call: the window alone holds
     * the history, so a distance beyond it is "invalid distance too far back" */
    if (k.strict) {
        Inflated one = ref_inflate(zz->data(), zz->size(), g.iarg(), k.dict, nullptr, data.size(), 1, k.prime_bits);
        if (one.rc != Z_STREAM_END || one.out != data)
            return c.fail("pristine inflate with one byte of output per call (window " +
                          std::to_string(window) + ") rejects the stream: " + one.what());
    }
    if (!k.marks || k.marks->empty() || k.prime_bits) return true;
    /* flush points: the output so far gives exactly the input so far */
    {
        z_stream s;
        memset(&s, 0, sizeof s);
        if (ZAPI_INFLATE_INIT2(REF, &s, g.iarg()) != Z_OK) return c.fail("inflateInit2 failed");
        if (k.dict && g.wrap == 0) REF->inflateSetDictionary(&s, k.dict->data(), (uInt)k.dict->size());
        Bytes out(data.size() + 1024);
        size_t fed = 0, have = 0;
        bool ok = true;
        for (const Mark &m : *k.marks) {
            if (m.flush == Z_BLOCK) continue;
            if (m.out_len > z.size() || m.out_len < fed || m.in_pos > data.size()) {
                ok = c.fail("flush mark out of range");
                break;
            }
            s.next_in = const_cast<Bytef *>(z.data() + fed);
            s.avail_in = (uInt)(m.out_len - fed);
            int rc;
            for (;;) {
                s.next_out = out.data() + have;
                s.avail_out = (uInt)(out.size() - have);
                rc = REF->inflate(&s, Z_SYNC_FLUSH);
                have = out.size() - s.avail_out;
                if (rc == Z_NEED_DICT && k.dict) {
                    rc = REF->inflateSetDictionary(&s, k.dict->data(), (uInt)k.dict->size());
                    if (rc == Z_OK) continue;
                }
                break;
            }
            fed = m.out_len - s.avail_in;
            if (rc != Z_OK && rc != Z_BUF_ERROR) {
                ok = c.fail(std::string("inflating the output up to the ") + flush_name(m.flush) + " at input " +
                            std::to_string(m.in_pos) + " (output " + std::to_string(m.out_len) +
                            "): inflate returned " + std::to_string(rc) + (s.msg ? std::string(" ") + s.msg : ""));
                break;
            }
            if (have != m.in_pos || memcmp(out.data(), data.data(), have) != 0) {
                ok = c.fail(std::string("after ") + flush_name(m.flush) + " at input " + std::to_string(m.in_pos) +
                            " the output so far (" + std::to_string(m.out_len) + " bytes) inflates to " +
                            std::to_string(have) + " bytes" +
                            (have <= m.in_pos && memcmp(out.data(), data.data(), have) == 0
                                 ? " (a prefix of the input: not everything given is decompressible)"
                                 : " that are not the input so far"));
                break;
            }
        }
        REF->inflateEnd(&s);
        if (!ok) return false;
    }
    /* after a full flush the rest inflates alone (raw, no dictionary) */
    std::vector<const Mark *> fulls;
    for (const Mark &m : *k.marks)
        if (m.flush == Z_FULL_FLUSH && m.in_pos < data.size()) fulls.push_back(&m);
    size_t step = fulls.size() > k.full_checks ? fulls.size() / k.full_checks + 1 : 1;
    for (size_t i = 0; i < fulls.size(); i += step) {
        const Mark &m = *fulls[i];
        Inflated rest = ref_inflate(z.data() + m.out_len, z.size() - m.out_len, -g.eff_wb(), nullptr,
                                    nullptr, data.size() - m.in_pos);
        if (rest.rc != Z_STREAM_END ||
            rest.out.size() != data.size() - m.in_pos ||
            memcmp(rest.out.data(), data.data() + m.in_pos, rest.out.size()) != 0)
            return c.fail("after Z_FULL_FLUSH at input " + std::to_string(m.in_pos) + " (output " +
                          std::to_string(m.out_len) + "), a raw inflate started there without history: " +
                          rest.what() + (rest.rc == Z_STREAM_END ? " but not the rest of the input" : "") +
                          " -- the stream refers to data before the full flush");
    }
    return true;
}

Check check_for(const Plan &p, const Output &r) {
    Check k;
    k.g = &p.g;
    k.dict = p.dict;
    k.head = p.head;
    k.prime_bits = p.prime_bits;
    k.prime_value = p.prime_value;
    k.marks = &r.marks;
    k.deflate_adler = r.adler;
    return k;
}

/* ---- random plans ----------------------------------------------------------- */

struct PlanMix {
    size_t gap_min = 1000, gap_max = 20000;     /* between events */
    int flush_pct = 0, params_pct = 0, threads_pct = 0, copy_pct = 0;
    std::vector<int> flushes = {Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_PARTIAL_FLUSH, Z_BLOCK};
    bool strategies = false;    /* deflateParams() may change the strategy too */
    std::vector<int> thread_counts = {0, 1, 2, 3, 4, 8};
};

std::vector<Event> random_events(zt::Rng &rng, size_t n, const PlanMix &m) {
    std::vector<Event> v;
    size_t pos = 0;
    int total = m.flush_pct + m.params_pct + m.threads_pct + m.copy_pct;
    if (total == 0) return v;
    int copies = 0;
    for (;;) {
        pos += rng.range(m.gap_min, m.gap_max);
        if (pos >= n) break;
        int r = (int)rng.below(100);
        if (r >= total) continue;
        Event e{pos, EV_FLUSH};
        if (r < m.flush_pct) {
            e.a = m.flushes[rng.below((uint32_t)m.flushes.size())];
        } else if ((r -= m.flush_pct) < m.params_pct) {
            e.kind = EV_PARAMS;
            e.a = pick_level(rng);
            e.b = m.strategies && rng.chance(40) ? (int)rng.below(5) : -1;   /* -1: keep */
        } else if ((r -= m.params_pct) < m.threads_pct) {
            e.kind = EV_THREADS;
            e.a = m.thread_counts[rng.below((uint32_t)m.thread_counts.size())];
        } else {
            if (copies++ >= 3) continue;
            e.kind = EV_COPY;
        }
        v.push_back(e);
    }
    return v;
}

/* fills in "keep the strategy" (-1) of params events from the plan.  With
 * ZT_OPT_LEVELS (zlib's levels under test) every switch changes the
 * strategy among default, filtered and fixed: zlib's own slicing
 * dependences kept out (see HarnessSlicingHoldsOnZlib) */
void settle_strategies(Plan &p) {
    if (dev_levels()) {
        bool any = false;
        for (Event &e : p.ev) any |= e.kind == EV_PARAMS;
        if (any) {
            static const int sts[3] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_FIXED};
            zt::Rng rng(p.ev.size() * 7919 + (size_t)p.g.level);
            p.g.strategy = sts[rng.below(3)];
            int st = p.g.strategy;
            for (Event &e : p.ev)
                if (e.kind == EV_PARAMS) e.b = st = sts[((st == Z_FIXED ? 2 : st) + 1 + (int)rng.below(2)) % 3];
            return;
        }
    }
    int st = p.g.strategy;
    for (Event &e : p.ev)
        if (e.kind == EV_PARAMS) {
            if (e.b < 0) e.b = st;
            st = e.b;
        }
}

/* flush intervals of the full mode's sweep */
const std::vector<size_t> &flush_intervals() {
    static std::vector<size_t> v = zt::full_mode()
        ? std::vector<size_t>{31, 100, 1000, 4096, 10000, 32768, 131072}
        : std::vector<size_t>{31, 1000, 4096};
    return v;
}

/* ---- one case: the one-call run, checked; other runs, the same bytes ------ */

/* run r of plan p must be valid (verify()) */
bool run_checked(Case &c, const Plan &p, const Bytes &data, const Slicing &sl, Output &r,
                 AllocP al = nullptr, bool strict = false, Walk *w = nullptr) {
    if (!run_plan(p, data, sl, r, al)) return c.fail("(" + sl.str() + ") " + r.why);
    Check k = check_for(p, r);
    k.strict = strict;
    return verify(c, r.out, data, k, w);
}

Slicing one_call() { return Slicing(); }

/* ZT_OPT_MINIMIZE=1: a plan whose sliced run differs from its one-call run
 * is cut down (events dropped one at a time, the slicing of one side made
 * whole) while it still differs, and the smallest is printed: the
 * reproduction to report */
void minimize_difference(const Plan &p0, const Bytes &data, const Slicing &sl0) {
    static const bool on = getenv("ZT_OPT_MINIMIZE") != nullptr;
    if (!on) return;
    auto differs = [&](const Plan &p, const Slicing &sl) {
        Output a, b;
        bool oa = run_plan(p, data, one_call(), a), ob = run_plan(p, data, sl, b);
        return oa && ob && a.out != b.out;
    };
    Plan p = p0;
    Slicing sl = sl0;
    if (!differs(p, sl)) {
        fprintf(stderr, "[zt] minimize: the difference does not come back\n");
        return;
    }
    for (bool progress = true; progress;) {
        progress = false;
        for (size_t i = 0; i < p.ev.size(); i++) {
            Plan q = p;
            q.ev.erase(q.ev.begin() + (long)i);
            if (differs(q, sl)) {
                p = q;
                progress = true;
                i--;
            }
        }
        for (int side = 0; side < 2; side++) {
            Slicing t = sl;
            (side ? t.out : t.in) = S_ALL;
            if ((side ? sl.out : sl.in) != S_ALL && differs(p, t)) {
                sl = t;
                progress = true;
            }
        }
        if (p.threads) {
            Plan q = p;
            q.threads = 0;
            if (differs(q, sl)) {
                p = q;
                progress = true;
            }
        }
    }
    fprintf(stderr, "[zt] minimize: still differs with\n  %s\n  slicing: %s (seed 0x%llx)\n",
            p.str().c_str(), sl.str().c_str(), (unsigned long long)sl.seed);
}

/* the same plan under another slicing / thread count must give ref's bytes
 * (and the same flush points) */
bool run_same(Case &c, const Plan &p, const Bytes &data, const Slicing &sl, const Output &ref,
              const std::string &what, Output *out = nullptr) {
    Output r;
    if (!run_plan(p, data, sl, r)) return c.fail("(" + what + ", " + sl.str() + ") " + r.why);
    if (!same_bytes(c, r.out, ref.out, what + " (" + sl.str() + "): not the one-call run's bytes")) {
        minimize_difference(p, data, sl);
        return false;
    }
    if (r.marks.size() != ref.marks.size()) return c.fail(what + ": flush points differ in number");
    for (size_t i = 0; i < r.marks.size(); i++)
        if (r.marks[i].in_pos != ref.marks[i].in_pos || r.marks[i].out_len != ref.marks[i].out_len)
            return c.fail(what + " (" + sl.str() + "): after the " + flush_name(r.marks[i].flush) +
                          " at input " + std::to_string(r.marks[i].in_pos) + " the output so far is " +
                          std::to_string(r.marks[i].out_len) + " bytes, in the one-call run " +
                          std::to_string(ref.marks[i].out_len) + " (the bytes of the flush were held back)");
    if (out) *out = std::move(r);
    return true;
}


/* ---- random cases ------------------------------------------------------------ */

/* one case's plan and data; the gzip header points into it (not copyable) */
struct Made {
    Plan p;
    Bytes data, dict, mid_dict;
    gz_header head;
    Bytes hextra;
    std::string hname, hcomment;
    std::string desc;
    Made() { memset(&head, 0, sizeof head); }
    Made(const Made &) = delete;
    Made &operator=(const Made &) = delete;
    void set_head(zt::Rng &rng) {
        head.text = (int)rng.below(2);
        head.time = (uLong)rng.below(2000000000u);
        head.os = (int)rng.below(256);
        head.hcrc = (int)rng.below(2);
        if (rng.chance(60)) {
            hname = "name-" + std::to_string(rng.below(100000));
            head.name = (Bytef *)hname.c_str();
        }
        if (rng.chance(40)) {
            hcomment = std::string(rng.range(0, 200), 'c');
            head.comment = (Bytef *)hcomment.c_str();
        }
        if (rng.chance(40)) {
            hextra = zt::generate(rng, zt::GEN_RANDOM, rng.range(0, 200));
            head.extra = hextra.empty() ? (Bytef *)"" : hextra.data();
            head.extra_len = (uInt)hextra.size();
        }
        p.head = &head;
    }
    void set_dict(zt::Rng &rng, size_t maxlen) {
        size_t n = rng.range(1, maxlen);
        if (!data.empty() && rng.chance(60)) {
            /* a piece of the data: matches into it are likely */
            n = std::min(n, data.size());
            size_t at = rng.range(0, data.size() - n);
            dict.assign(data.begin() + (long)at, data.begin() + (long)(at + n));
        } else {
            dict = make_data(rng, K_FILES, n);
        }
        p.dict = &dict;
        p.prepared = A_has_prepared() && rng.chance(30);
    }
    static bool A_has_prepared() { return TUR->deflatePrepareDictionary != nullptr; }
};

/* geometry, data (up to maxlen), events; dictionary, gzip header, primed
 * bits now and then */
void make_case(zt::Rng &rng, size_t maxlen, const PlanMix &mix, Made &m, bool extras = true) {
    m.p.g = random_geo(rng);
    int kind = pick_kind(rng);
    size_t n = rng.chance(8) ? rng.range(0, 64) : rng.range(65, std::max<size_t>(maxlen, 65));
    m.data = make_data(rng, kind, n);
    m.desc = std::string(kind_name(kind)) + ", " + std::to_string(n) + " bytes";
    m.p.ev = random_events(rng, n, mix);
    settle_strategies(m.p);
    if (!extras) return;
    if (m.p.g.wrap != 2 && rng.chance(15)) m.set_dict(rng, 40000);
    if (m.p.g.wrap == 2 && rng.chance(40)) m.set_head(rng);
    if (m.p.g.wrap == 0 && rng.chance(10)) {
        m.p.prime_bits = (int)rng.range(1, 30);
        m.p.prime_value = (uint32_t)rng.next();
    }
}

PlanMix mix_flushes(size_t gmin, size_t gmax) {
    PlanMix m;
    m.gap_min = gmin;
    m.gap_max = gmax;
    m.flush_pct = 35;
    m.params_pct = 15;
    m.strategies = true;
    return m;
}

/* a gap between events: a flush interval of the sweep, or any */
void random_gaps(zt::Rng &rng, PlanMix &m, size_t n) {
    if (rng.chance(50)) {
        size_t f = flush_intervals()[rng.below((uint32_t)flush_intervals().size())];
        m.gap_min = std::max<size_t>(1, f * 3 / 4);
        m.gap_max = f + f / 4;
    } else {
        m.gap_min = 1;
        m.gap_max = std::max<size_t>(2, n / 2);
    }
}

/* the one-call run, checked, then each slicing: the same bytes */
bool sliced_case(Case &c, const Plan &p, const Bytes &data, const std::vector<Slicing> &sls) {
    Output ref;
    if (!run_checked(c, p, data, one_call(), ref)) return false;
    for (const Slicing &sl : sls)
        if (!run_same(c, p, data, sl, ref, "sliced")) return false;
    return true;
}

/* ==== the levels and the parameters ========================================= */

/* one deflate(Z_FINISH) of data on a fresh stream s (already initialised) */
int finish_all(const zapi *A, z_stream &s, const Bytes &data, Bytes &out) {
    out.resize(data.size() * 2 + 1024);
    static const uint8_t none[1] = {0};
    s.next_in = const_cast<Bytef *>(data.empty() ? none : data.data());
    s.avail_in = (uInt)data.size();
    s.next_out = out.data();
    s.avail_out = (uInt)out.size();
    int rc = A->deflate(&s, Z_FINISH);
    out.resize(out.size() - s.avail_out);
    return rc;
}

Geo geo_of(int level, int warg, int ml, int st) {
    Geo g;
    g.level = level;
    g.ml = ml;
    g.strategy = st;
    if (warg < 0) {
        g.wrap = 0;
        g.wb = -warg;
    } else if (warg > 15) {
        g.wrap = 2;
        g.wb = warg - 16;
    } else {
        g.wrap = 1;
        g.wb = warg;
    }
    return g;
}

/* 10, 11, 12 accepted by deflateInit(), deflateInit2(), compress2() and
 * deflateParams(), with zturbo.h's names; 13 and above (and below -1)
 * refused with Z_STREAM_ERROR, nothing allocated; deflateInit(L) is
 * deflateInit2(L, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY), and compress2(L)
 * writes the same bytes */
int seg_bits_env();
bool small_segments();

TEST(OptimalLevels, LevelRange) {
    NEED_OPTIMAL();
    static_assert(Z_BEST_COMPRESSION == 9, "Z_BEST_COMPRESSION is still 9");
#ifdef ZT_TURBO_H
#  if defined(Z_TURBO_OPTIMAL_FAST) && defined(Z_TURBO_OPTIMAL) && defined(Z_TURBO_OPTIMAL_BEST)
    EXPECT_EQ(Z_TURBO_OPTIMAL_FAST, 10);
    EXPECT_EQ(Z_TURBO_OPTIMAL, 11);
    EXPECT_EQ(Z_TURBO_OPTIMAL_BEST, 12);
#  else
    ADD_FAILURE() << "zturbo.h (" << ZT_TURBO_H << ") does not define Z_TURBO_OPTIMAL_FAST, "
                  << "Z_TURBO_OPTIMAL and Z_TURBO_OPTIMAL_BEST";
#  endif
#else
    fprintf(stderr, "[zt] OptimalLevels.LevelRange: no zturbo.h beside the library under test: "
            "its level names are not checked\n");
#endif
    zt::Rng rng(zt::case_seed("opt-range", 0));
    Bytes data = make_data(rng, K_FILES, 5000);
    for (int L : levels()) {
        Case c("LevelRange", L, 0);
        c.data = "files, 5000 bytes";
        c.params = "level " + std::to_string(L);
        AllocP al = new_alloc();
        z_stream s;
        memset(&s, 0, sizeof s);
        al->attach(s);
        Bytes a, b, d;
        int rc = TUR->deflateInit_(&s, L, ZLIB_VERSION, (int)sizeof(z_stream));
        if (rc != Z_OK) {
            c.fail("deflateInit(level " + std::to_string(L) + ") returned " + std::to_string(rc));
            continue;
        }
        EXPECT_EQ(finish_all(TUR, s, data, a), Z_STREAM_END);
        EXPECT_EQ(TUR->deflateEnd(&s), Z_OK);
        memset(&s, 0, sizeof s);
        al->attach(s);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
        EXPECT_EQ(finish_all(TUR, s, data, b), Z_STREAM_END);
        EXPECT_EQ(TUR->deflateEnd(&s), Z_OK);
        EXPECT_EQ(al->live, 0) << "deflateEnd left " << al->leak_note();
        Geo g;
        g.level = L;
        Check k;
        k.g = &g;
        k.adler_from_deflate = false;
        verify(c, a, data, k);
        same_bytes(c, b, a, "deflateInit2(L, 8, 15, 8, 0) against deflateInit(L)");
        uLongf dl = REF->compressBound((uLong)data.size());
        if (small_segments())   /* a stored block per small segment: 5 bytes each */
            dl += 5 * (uLongf)((data.size() >> seg_bits_env()) + 1);
        d.resize(dl);
        rc = TUR->compress2(d.data(), &dl, data.data(), (uLong)data.size(), L);
        if (rc != Z_OK) {
            c.fail("compress2(level " + std::to_string(L) + ") returned " + std::to_string(rc));
        } else {
            d.resize(dl);
            same_bytes(c, d, a, "compress2(L) against deflateInit(L)");
        }
    }
    if (dev_levels()) return;
    for (int L : {13, 14, 15, 16, 20, 99, 255, 256, 1000, 65536 + 10, INT_MAX, -2, -3, -10, -256 + 10,
                  INT_MIN}) {
        AllocP al = new_alloc();
        z_stream s;
        memset(&s, 0, sizeof s);
        al->attach(s);
        int rc = TUR->deflateInit_(&s, L, ZLIB_VERSION, (int)sizeof(z_stream));
        EXPECT_EQ(rc, Z_STREAM_ERROR) << "deflateInit(level " << L << ")";
        if (rc == Z_OK) TUR->deflateEnd(&s);
        memset(&s, 0, sizeof s);
        al->attach(s);
        rc = ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY);
        EXPECT_EQ(rc, Z_STREAM_ERROR) << "deflateInit2(level " << L << ")";
        if (rc == Z_OK) TUR->deflateEnd(&s);
        EXPECT_EQ(al->live, 0) << "a refused deflateInit left " << al->leak_note();
        uLongf dl = REF->compressBound((uLong)data.size());
        Bytes d(dl);
        EXPECT_EQ(TUR->compress2(d.data(), &dl, data.data(), (uLong)data.size(), L), Z_STREAM_ERROR)
            << "compress2(level " << L << ")";
        /* deflateParams(L) on a level-10 stream, before and after deflate() */
        memset(&s, 0, sizeof s);
        al->attach(s);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, 10, Z_DEFLATED, 15, 8, 0), Z_OK);
        EXPECT_EQ(TUR->deflateParams(&s, L, 0), Z_STREAM_ERROR) << "deflateParams(" << L << ") before deflate()";
        Bytes out(data.size() * 2 + 100);
        s.next_in = const_cast<Bytef *>(data.data());
        s.avail_in = 1000;
        s.next_out = out.data();
        s.avail_out = (uInt)out.size();
        EXPECT_EQ(TUR->deflate(&s, Z_NO_FLUSH), Z_OK);
        uInt ai = s.avail_in, ao = s.avail_out;
        s.avail_in = (uInt)(data.size() - 1000);
        ai = s.avail_in;
        EXPECT_EQ(TUR->deflateParams(&s, L, 0), Z_STREAM_ERROR) << "deflateParams(" << L << ") mid-stream";
        EXPECT_EQ(s.avail_in, ai) << "a refused deflateParams consumed input";
        EXPECT_EQ(s.avail_out, ao) << "a refused deflateParams wrote output";
        EXPECT_EQ(TUR->deflate(&s, Z_FINISH), Z_STREAM_END);
        out.resize(out.size() - s.avail_out);
        TUR->deflateEnd(&s);
        Geo g;
        g.level = 10;
        Case c("LevelRange", L, 0);
        c.params = "level 10, deflateParams(" + std::to_string(L) + ") refused mid-stream";
        Check k;
        k.g = &g;
        k.adler_from_deflate = false;
        verify(c, out, data, k);
        EXPECT_EQ(al->live, 0);
    }
    /* Z_DEFAULT_COMPRESSION is still level 6 */
    z_stream s;
    memset(&s, 0, sizeof s);
    EXPECT_EQ(TUR->deflateInit_(&s, Z_DEFAULT_COMPRESSION, ZLIB_VERSION, (int)sizeof(z_stream)), Z_OK);
    TUR->deflateEnd(&s);
}

/* deflateInit2() at 10-12 accepts and refuses windowBits, memLevel,
 * strategy and method exactly as pristine zlib does at level 9 (windowBits
 * 8 is 9; -8 and 24 refused); every accepted stream round-trips and frees
 * all */
TEST(OptimalLevels, InitParamsAsLevel9) {
    NEED_OPTIMAL();
    std::vector<int> wbs = {-16, -15, -12, -9, -8, -7, 0, 1, 7, 8, 9, 10, 15, 16, 23, 24, 25, 28, 31, 32, 40};
    std::vector<int> mls = {-1, 0, 1, 2, 8, 9, 10};
    std::vector<int> sts = {-1, 0, 1, 2, 3, 4, 5};
    zt::Rng rng(zt::case_seed("opt-initparams", 0));
    Bytes data = make_data(rng, K_TEXT, 700);
    long reported = 0, accepted = 0;
    for (int L : levels())
        for (int wb : wbs)
            for (int ml : mls)
                for (int st : sts)
                    for (int method : {Z_DEFLATED, 7}) {
                        if (method == 7 && (wb != 15 || ml != 8 || st != 0)) continue;
                        AllocP ar = new_alloc(), at = new_alloc();
                        z_stream r, t;
                        memset(&r, 0, sizeof r);
                        memset(&t, 0, sizeof t);
                        ar->attach(r);
                        at->attach(t);
                        int rr = ZAPI_DEFLATE_INIT2(REF, &r, 9, method, wb, ml, st);
                        int rt = ZAPI_DEFLATE_INIT2(TUR, &t, L, method, wb, ml, st);
                        if (rr == Z_OK) REF->deflateEnd(&r);
                        if (rr != rt && reported++ < 8)
                            ADD_FAILURE() << "deflateInit2(level " << L << ", method " << method << ", windowBits "
                                          << wb << ", memLevel " << ml << ", strategy " << st << ") returned "
                                          << rt << "; pristine zlib at level 9 returns " << rr;
                        if (rt != Z_OK) {
                            EXPECT_EQ(at->live, 0) << "a refused deflateInit2 left " << at->leak_note();
                            continue;
                        }
                        accepted++;
                        Bytes out;
                        int rc = finish_all(TUR, t, data, out);
                        uLong adler = t.adler;
                        TUR->deflateEnd(&t);
                        Case c("InitParamsAsLevel9", accepted, 0);
                        c.data = "text, 700 bytes";
                        Geo g = geo_of(L, wb, ml, st);
                        c.params = g.str();
                        if (rc != Z_STREAM_END) {
                            c.fail("deflate(Z_FINISH) with room for all returned " + std::to_string(rc));
                            continue;
                        }
                        Check k;
                        k.g = &g;
                        k.deflate_adler = adler;
                        verify(c, out, data, k);
                        if (at->live) c.fail("deflateEnd left " + at->leak_note());
                        if (stop_all()) return;
                    }
    EXPECT_GT(accepted, 0);
}

/* every geometry: raw, zlib and gzip; windowBits 8 (zlib) and 9-15;
 * memLevel 1-9; the five strategies; at each level (quick: one level per
 * combination, in turn) -- valid, distances inside the window */
TEST(OptimalLevels, EveryGeometryRoundTrips) {
    NEED_OPTIMAL();
    Cases cs("opt-geometry");
    long n = 0;
    for (int wrap = 0; wrap < 3; wrap++)
        for (int wb = 8; wb <= 15; wb++) {
            if (wb == 8 && wrap != 1) continue;
            for (int ml = 1; ml <= 9; ml++)
                for (int st = 0; st <= 4; st++)
                    for (size_t li = 0; li < levels().size(); li++) {
                        long i = n++;
                        if (!zt::full_mode() && (long)li != i / (long)levels().size() % (long)levels().size())
                            continue;
                        if (!cs.want(i) || cs.stop()) continue;
                        Case c("EveryGeometryRoundTrips", i, cs.seed(i));
                        zt::Rng rng(c.seed);
                        Geo g;
                        g.level = levels()[li];
                        g.wrap = wrap;
                        g.wb = wb;
                        g.ml = ml;
                        g.strategy = st;
                        int kind = rng.chance(50) ? K_FARREP : pick_kind(rng);
                        size_t len = rng.range(by_mode(500, 5000), by_mode(3000, 60000));
                        Bytes data = make_data(rng, kind, len);
                        c.data = std::string(kind_name(kind)) + ", " + std::to_string(len) + " bytes";
                        Plan p;
                        p.g = g;
                        c.params = p.str();
                        Output r;
                        run_checked(c, p, data, one_call(), r);
                        cs.done(c);
                    }
        }
    fprintf(stderr, "[zt] OptimalLevels.EveryGeometryRoundTrips: %ld streams\n", cs.ran);
    EXPECT_GT(cs.ran, 0);
}

/* corpus files (quick: six, 32 KiB of each; full: every file, up to 1 MiB)
 * at every level: valid, and the same bytes sliced */
TEST(OptimalLevels, FilesRoundTrip) {
    NEED_OPTIMAL();
    Cases cs("opt-files");
    const auto &files = zt::file_samples();
    std::vector<size_t> pick;
    if (zt::full_mode()) {
        for (size_t i = 0; i < files.size(); i++) pick.push_back(i);
    } else {
        for (size_t i = 0; i < 6 && i < files.size(); i++) pick.push_back(i * files.size() / 6);
    }
    long i = 0;
    for (size_t fi : pick)
        for (int L : levels()) {
            long idx = i++;
            if (!cs.want(idx) || cs.stop()) continue;
            Case c("FilesRoundTrip", idx, cs.seed(idx));
            zt::Rng rng(c.seed);
            const zt::Sample &f = files[fi];
            size_t len = std::min<size_t>(f.bytes.size(), by_mode(32768, 1 << 20));
            size_t off = f.bytes.size() > len ? rng.range(0, f.bytes.size() - len) : 0;
            Bytes data(f.bytes.begin() + (long)off, f.bytes.begin() + (long)(off + len));
            c.data = f.name + "@" + std::to_string(off) + "+" + std::to_string(len);
            Plan p;
            p.g.level = L;
            p.g.wrap = (int)rng.below(3);
            c.params = p.str();
            Slicing sl;
            sl.in = sl.out = S_MIXED;
            sl.seed = rng.next();
            sliced_case(c, p, data, {sl});
            cs.done(c);
        }
    EXPECT_GT(cs.ran, 0);
}

/* ==== determinism ============================================================== */

/* random plans (flushes of every kind, deflateParams() among 10-12 and the
 * strategies) with the input sliced, down to one byte per call: the bytes
 * of the one-call run */
TEST(OptimalLevels, SlicedInputSameBytes) {
    NEED_OPTIMAL();
    Cases cs("opt-sliced-in");
    long cases = by_mode(16, 160);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("SlicedInputSameBytes", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix = mix_flushes(1, 1);
        size_t maxlen = by_mode(24000, 300000);
        random_gaps(rng, mix, maxlen);
        make_case(rng, maxlen, mix, m);
        Slicing sl;
        sl.seed = rng.next();
        sl.move = rng.chance(30);
        size_t one_max = by_mode(6000, 200000);
        sl.in = m.data.size() <= one_max && rng.chance(40) ? S_ONE : (int)rng.range(S_SMALL, S_MIXED);
        c.data = m.desc;
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        sliced_case(c, m.p, m.data, {sl});
        cs.done(c);
    }
    EXPECT_GT(cs.ran, 0);
}

/* the same with the output sliced (and both) */
TEST(OptimalLevels, SlicedOutputSameBytes) {
    NEED_OPTIMAL();
    Cases cs("opt-sliced-out");
    long cases = by_mode(16, 160);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("SlicedOutputSameBytes", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix = mix_flushes(1, 1);
        size_t maxlen = by_mode(24000, 300000);
        random_gaps(rng, mix, maxlen);
        make_case(rng, maxlen, mix, m);
        Slicing sl;
        sl.seed = rng.next();
        size_t one_max = by_mode(8000, 300000);
        sl.out = m.data.size() <= one_max && rng.chance(50) ? S_ONE : (int)rng.range(S_SMALL, S_MIXED);
        sl.in = rng.chance(50) ? S_ALL : S_MIXED;
        c.data = m.desc;
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        sliced_case(c, m.p, m.data, {sl});
        cs.done(c);
    }
    EXPECT_GT(cs.ran, 0);
}

/* the input given in deflate(Z_NO_FLUSH) calls that each end exactly at a
 * segment's end, then deflate(Z_FINISH) with no input: the one-call bytes.
 * A complete segment must wait for a byte after it (or a flush) before it
 * is compressed, or it is written without the last-block bit and an empty
 * last block follows; the random slicings of the tests above end a call at
 * a segment's end only by chance.  The library's segment size is not known
 * here (ZO_SEG_BITS in the environment, else every power of two from 1 KiB
 * to 256 KiB is tried), so each size gets inputs of one, two and three
 * segments (ZO_SEG_BITS given) or two (the sweep). */
TEST(OptimalLevels, CallsEndingAtSegmentEndsSameBytes) {
    NEED_OPTIMAL();
    std::vector<std::pair<size_t, size_t>> cases;     /* segment, segments */
    if (seg_bits_env() > 0) {
        for (size_t k = 1; k <= 3; k++) cases.push_back({(size_t)1 << seg_bits_env(), k});
    } else {
        for (int b = 10; b <= 18; b++) cases.push_back({(size_t)1 << b, 2});
    }
    for (size_t i = 0; i < cases.size() && !zt::too_many_failures(); i++) {
        size_t seg = cases[i].first, len = seg * cases[i].second;
        zt::Rng rng(zt::case_seed("opt-segment-ends", (uint64_t)i));
        int L = levels()[i % levels().size()];
        Bytes data = make_data(rng, rng.chance(50) ? K_FILES : K_TEXT, len), one, cut;
        std::string what = "level " + std::to_string(L) + ", " + std::to_string(len) +
                           " bytes in calls of " + std::to_string(seg);
        z_stream s;
        memset(&s, 0, sizeof s);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
        int rc = finish_all(TUR, s, data, one);
        TUR->deflateEnd(&s);
        ASSERT_EQ(rc, Z_STREAM_END) << what << ": one deflate(Z_FINISH)";
        Inflated back = ref_inflate(one.data(), one.size(), 15, nullptr, nullptr, len);
        EXPECT_TRUE(back.rc == Z_STREAM_END && back.out == data)
            << what << ": the one-call stream does not decode to the input: " << back.what();

        memset(&s, 0, sizeof s);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
        cut.resize(len * 2 + 1024);
        s.next_out = cut.data();
        s.avail_out = (uInt)cut.size();
        for (size_t pos = 0; pos < len && rc != Z_STREAM_ERROR; pos += seg) {
            s.next_in = data.data() + pos;
            s.avail_in = (uInt)seg;
            rc = TUR->deflate(&s, Z_NO_FLUSH);
            EXPECT_TRUE(rc == Z_OK && s.avail_in == 0)
                << what << ": deflate(Z_NO_FLUSH) at " << pos << " returned " << rc << " with "
                << s.avail_in << " bytes left";
        }
        rc = TUR->deflate(&s, Z_FINISH);
        cut.resize(cut.size() - s.avail_out);
        TUR->deflateEnd(&s);
        EXPECT_EQ(rc, Z_STREAM_END) << what << ": deflate(Z_FINISH) with no input";
        if (cut != one) {
            size_t d = 0;
            while (d < cut.size() && d < one.size() && cut[d] == one[d]) d++;
            ADD_FAILURE() << what << ", then Z_FINISH with no input: " << cut.size()
                          << " bytes instead of the one-call run's " << one.size()
                          << ", first difference at offset " << d;
        }
    }
}

/* pristine zlib at levels 1-9 under the same driver: its bytes do not
 * depend on the slicing either.  A failure here is the driver's (the
 * protocol the other tests ask of levels 10-12 is not one zlib keeps) */
TEST(OptimalLevels, HarnessSlicingHoldsOnZlib) {
    Cases cs("opt-harness-zlib");
    long cases = by_mode(10, 60);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("HarnessSlicingHoldsOnZlib", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix = mix_flushes(1, 1);
        mix.copy_pct = 5;
        random_gaps(rng, mix, 20000);
        make_case(rng, 20000, mix, m, false);
        /* zlib's own slicing dependences kept out: deflateParams()
         * without a flush (a level of the same function, the same
         * strategy) takes effect wherever the parse stands, which depends
         * on the room; and after Z_HUFFMAN_ONLY or Z_RLE a hashing strategy
         * finds a hash chain that depends on the input slicing (fill_window()
         * inserts the strings left before a flush only while lookahead
         * allows).  Here every switch changes the strategy among default,
         * filtered and fixed, so zlib flushes first */
        m.p.g.level = (int)rng.range(1, 9);
        static const int sts[3] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_FIXED};
        m.p.g.strategy = sts[rng.below(3)];
        int st = m.p.g.strategy;
        for (Event &e : m.p.ev)
            if (e.kind == EV_PARAMS) {
                e.a = (int)rng.range(1, 9);
                e.b = st = sts[((st == Z_FIXED ? 2 : st) + 1 + (int)rng.below(2)) % 3];
            }
        Slicing sl;
        sl.seed = rng.next();
        sl.in = (int)rng.range(S_ONE, S_MIXED);
        sl.out = (int)rng.range(S_ONE, S_MIXED);
        if (m.data.size() > 4000) {
            if (sl.in == S_ONE) sl.in = S_SMALL;
            if (sl.out == S_ONE) sl.out = S_SMALL;
        }
        c.data = m.desc;
        c.params = "pristine zlib " + m.p.str() + "\n          slicing: " + sl.str();
        Output ref, r;
        if (!run_plan(m.p, m.data, one_call(), ref, nullptr, REF)) {
            c.fail("one-call run: " + ref.why);
        } else if (!run_plan(m.p, m.data, sl, r, nullptr, REF)) {
            c.fail("sliced run: " + r.why);
        } else {
            Check k = check_for(m.p, ref);
            if (verify(c, ref.out, m.data, k))
                same_bytes(c, r.out, ref.out, "pristine zlib sliced against one call (the driver is wrong)");
        }
        cs.done(c);
    }
}

/* ---- threads ------------------------------------------------------------------- */

struct Probe {
    bool fn = false;            /* the library has deflateSetThreads() */
    bool threads = false;       /* and accepts 2 threads at level 10 */
    bool visible = false;       /* /proc/self/task can be read */
    bool found = false;         /* threads were seen to start */
    size_t from = 0;            /* least power-of-two input of one call that starts them */
    size_t seg = 1u << 18;      /* the unit of the threaded cases' sizes */
    int seg_bits_env = 0;       /* ZO_SEG_BITS in the environment */
    std::string note;
};

/* one stream at level, n threads, one deflate(Z_FINISH) of len bytes:
 * did worker threads start? */
bool starts_threads(int level, size_t len, int n) {
    zt::Rng rng(len + (size_t)level);
    Bytes in = make_data(rng, K_FILES, len), out;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(TUR, &s, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
    int before = task_count();
    bool started = false;
    if (TUR->deflateSetThreads(&s, n) == Z_OK) {
        finish_all(TUR, s, in, out);
        started = task_count() > before;
    }
    TUR->deflateEnd(&s);
    tasks_settle(before);
    return started;
}

const Probe &probe() {
    static Probe p;
    static bool done = false;
    if (done) return p;
    done = true;
    const char *e = getenv("ZO_SEG_BITS");
    if (e && *e) {
        p.seg_bits_env = atoi(e);
        p.seg = (size_t)1 << p.seg_bits_env;
    }
    p.fn = TUR->deflateSetThreads != nullptr;
    if (!p.fn) {
        p.note = "the library under test has no deflateSetThreads()";
        return p;
    }
    std::string why;
    if (!optimal_supported(&why)) {
        p.note = why;
        return p;
    }
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(TUR, &s, levels()[0], Z_DEFLATED, 15, 8, 0) == Z_OK) {
        p.threads = TUR->deflateSetThreads(&s, 2) == Z_OK;
        TUR->deflateEnd(&s);
    }
    if (!p.threads) {
        p.note = "the library under test was built without threads (deflateSetThreads(strm, 2) "
                 "is refused)";
        return p;
    }
    p.visible = task_count() > 0;
    if (!p.visible) {
        p.note = "/proc/self/task cannot be read: whether threads start is not checked";
        return p;
    }
    int top = zt::full_mode() ? 22 : 21;
    for (int b = 10; b <= top && !p.found; b++)
        if (starts_threads(levels()[0], (size_t)1 << b, 2)) {
            p.found = true;
            p.from = (size_t)1 << b;
        }
    /* threads start once one call has a quarter of a segment: a segment
       that long is parsed in two parts, part 1 offered to another thread */
    if (p.found && !p.seg_bits_env) p.seg = std::max<size_t>(1024, p.from * 4);
    p.note = p.found ? "worker threads start from " + std::to_string(p.from) + " bytes or less in one call "
                       "at level " + std::to_string(levels()[0])
                     : "worker threads never started at level " + std::to_string(levels()[0]) +
                       " for up to " + std::to_string((1 << top) >> 10) + " KiB in one call";
    fprintf(stderr, "[zt] OptimalLevels: %s; threaded cases sized in units of %zu bytes\n",
            p.note.c_str(), p.seg);
    return p;
}
size_t SEG() { return probe().seg; }
bool big_segments() { return SEG() > 16384; }

#define NEED_THREADS()                                                       \
    do {                                                                     \
        NEED_OPTIMAL();                                                      \
        const Probe &p_ = probe();                                           \
        ZT_NEED("threads", p_.fn && p_.threads, p_.note);                    \
    } while (0)

std::vector<int> thread_counts() {
    if (zt::full_mode()) return {1, 2, 3, 4, 5, 8, 16};
    return {1, 2, 3, 4, 8};
}

/* data for the threaded cases: kinds whose parse differs a lot */
int pick_thread_kind(zt::Rng &rng) {
    static const int k[] = {K_FILES, K_FILES, K_MIXED, K_MIXED, K_TEXT, K_RANDOM, K_ZEROS,
                            K_PERIOD, K_FARREP, K_RUNS};
    return k[rng.below(10)];
}

/* the same stream with 1, 2, 3, 4, 8 threads (full: 5 and 16 too), in one
 * call each and sliced: the bytes of the one-call run on one thread */
TEST(OptimalLevels, ThreadCountSameBytes) {
    NEED_THREADS();
    Cases cs("opt-threadcount");
    long cases = big_segments() ? by_mode(3, 12) : by_mode(24, 200);
    long engaged = 0, runs = 0;
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("ThreadCountSameBytes", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        m.p.g = random_geo(rng);
        m.p.g.level = levels()[(size_t)i % levels().size()];
        if (rng.chance(60)) m.p.g.strategy = Z_DEFAULT_STRATEGY;
        int kind = pick_thread_kind(rng);
        size_t len = SEG() * rng.range(2, big_segments() ? 4 : 8) + rng.range(0, SEG());
        m.data = make_data(rng, kind, len);
        if (rng.chance(50)) {
            PlanMix mix;
            mix.gap_min = SEG() / 2;
            mix.gap_max = SEG() * 3;
            mix.flush_pct = 40;
            mix.params_pct = 30;
            m.p.ev = random_events(rng, len, mix);
            settle_strategies(m.p);
        }
        if (m.p.g.wrap != 2 && rng.chance(15)) m.set_dict(rng, 40000);
        c.data = std::string(kind_name(kind)) + ", " + std::to_string(len) + " bytes";
        c.params = m.p.str();
        Output ref;
        if (!run_checked(c, m.p, m.data, one_call(), ref)) {
            cs.done(c);
            continue;
        }
        std::vector<int> counts = thread_counts();
        if (!big_segments() && !zt::full_mode()) {
            /* many small cases: two counts each */
            std::vector<int> two = {counts[1 + rng.below((uint32_t)counts.size() - 1)],
                                    counts[rng.below((uint32_t)counts.size())]};
            counts = two;
        }
        for (int n : counts) {
            Plan p = m.p;
            p.threads = n;
            Output r;
            if (!run_same(c, p, m.data, one_call(), ref, std::to_string(n) + " threads, one call", &r)) break;
            runs++;
            engaged += r.engaged;
        }
        if (!c.failed) {
            Plan p = m.p;
            p.threads = 2 + (int)rng.below(3);
            Slicing sl;
            sl.in = sl.out = S_MIXED;
            sl.seed = rng.next();
            Output r;
            if (run_same(c, p, m.data, sl, ref, std::to_string(p.threads) + " threads, sliced", &r)) {
                runs++;
                engaged += r.engaged;
            }
        }
        cs.done(c);
    }
    fprintf(stderr, "[zt] OptimalLevels.ThreadCountSameBytes: %ld cases, %ld threaded runs, %ld of them "
            "with worker threads seen\n", cs.ran, runs, engaged);
    EXPECT_GT(cs.ran, 0);
}

/* worker threads start at each level for input of several segments in one
 * call (else the thread tests above compare one thread with itself) and for
 * half a segment (its parts), and none outlives deflateEnd() */
TEST(OptimalLevels, ThreadsStart) {
    NEED_THREADS();
    const Probe &pr = probe();
    if (!pr.visible) GTEST_SKIP() << pr.note;
    if (dev_levels()) GTEST_SKIP() << "ZT_OPT_LEVELS given";
    size_t len = 8 * SEG();
    if (!pr.found)
        ADD_FAILURE() << pr.note << ": deflateSetThreads() never starts a thread at level "
                      << levels()[0];
    if (pr.seg_bits_env && pr.found && pr.from > 8 * SEG())
        ADD_FAILURE() << "threads start only from " << pr.from << " bytes; with ZO_SEG_BITS="
                      << pr.seg_bits_env << " they should from 8 segments (" << 8 * SEG() << ")";
    for (int L : levels()) {
        int t0 = task_count();
        bool started = starts_threads(L, len, 3);
        EXPECT_TRUE(started) << "no worker thread started at level " << L << " for " << len
                             << " bytes in one deflate(Z_FINISH) call with 3 threads";
        EXPECT_EQ(tasks_settle(t0), t0) << "threads left running after deflateEnd() at level " << L;
    }
    /* one segment: its second part goes to a worker */
    if (pr.found && pr.from > SEG() / 2)
        ADD_FAILURE() << "threads start only from " << pr.from << " bytes, not for one segment of "
                      << SEG() / 2 << " (its two parts)";
}

/* one stream, n threads, each input in one deflate(Z_FINISH) after
 * deflateReset(): several segments (whole contexts, plans for 3n); then
 * deflateSetThreads(1) and (n) again (the contexts go, the plans stay) and
 * one segment (the other thread gets a helper's arrays, for parts only:
 * no more than 3 MiB, and a worker thread seen); several segments again
 * (the helper must become a whole context before its thread takes a
 * segment, or, if that allocation fails, take none); one segment again.
 * Each stream the bytes of a fresh one-thread stream; and with the k-th
 * allocation after deflateSetThreads() failed, for every k (4 KiB
 * segments or full mode: a run is short), the same bytes and nothing left
 * allocated after deflateEnd() */
TEST(OptimalLevels, OneSegmentThenMoreAfterResetSameBytes) {
    NEED_THREADS();
    const Probe &pr = probe();
    bool fail_all_k = small_segments() || zt::full_mode();
    long failed_runs = 0;
    for (int L : levels()) {
        Case c("OneSegmentThenMoreAfterResetSameBytes", L, zt::case_seed("opt-helpers", (uint64_t)L));
        zt::Rng rng(c.seed);
        int n = 2 + (int)rng.below(3);
        Bytes in[4], want[4];
        in[0] = make_data(rng, K_MIXED, SEG() * 2 + rng.range(1, SEG()));
        in[1] = make_data(rng, K_FILES, SEG() / 2 + rng.range(0, SEG() / 2));
        in[2] = make_data(rng, pick_thread_kind(rng), SEG() * 3 + rng.range(1, SEG()));
        in[3] = make_data(rng, K_MIXED, SEG() / 4 + rng.range(0, SEG() / 2));
        c.data = std::to_string(in[0].size()) + ", " + std::to_string(in[1].size()) + ", " +
                 std::to_string(in[2].size()) + " and " + std::to_string(in[3].size()) + " bytes, " +
                 std::to_string(n) + " threads";
        c.params = "level " + std::to_string(L);
        for (int j = 0; j < 4; j++) {
            z_stream f;
            memset(&f, 0, sizeof f);
            ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &f, L, Z_DEFLATED, 15, 8, 0), Z_OK);
            EXPECT_EQ(finish_all(TUR, f, in[j], want[j]), Z_STREAM_END);
            TUR->deflateEnd(&f);
        }
        /* k = -1: no failure; then the k-th allocation after deflateSetThreads() */
        for (long k = -1; !c.failed; k++) {
            Alloc al;
            z_stream s;
            memset(&s, 0, sizeof s);
            al.attach(s);
            int before = task_count();
            ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, 15, 8, 0), Z_OK);
            ASSERT_EQ(TUR->deflateSetThreads(&s, n), Z_OK);
            if (k >= 0) al.arm(k);
            for (int j = 0; j < 4 && !c.failed; j++) {
                Bytes got;
                int base = 0;
                size_t held = 0;
                std::string at0 = "before stream 2, allocation " + std::to_string(k) + " failed";
                if (j > 0) EXPECT_EQ(TUR->deflateReset(&s), Z_OK);
                if (j == 1) {
                    EXPECT_EQ(TUR->deflateSetThreads(&s, 1), Z_OK);
                    int rs = TUR->deflateSetThreads(&s, n);
                    if (rs != Z_OK && (k < 0 || rs != Z_MEM_ERROR))
                        c.fail(at0 + ": deflateSetThreads(" + std::to_string(n) + ") returned " +
                               std::to_string(rs));
                    base = tasks_settle(before);
                    held = al.bytes;
                    al.peak = held;
                }
                int rc = finish_all(TUR, s, in[j], got);
                std::string at = "stream " + std::to_string(j + 1) + " of 4" +
                                 (k >= 0 ? ", allocation " + std::to_string(k) + " failed" : "");
                if (j == 1 && k < 0) {
                    /* zturbo.h: one helper, 2.4 MiB, whatever the thread count */
                    if (al.peak > held + (3u << 20))
                        c.fail(at + ": one segment with " + std::to_string(n) + " threads took " +
                               std::to_string(al.peak - held) + " bytes more (a helper's arrays: 2.4 MiB)");
                    if (pr.visible && pr.found && task_count() <= base)
                        c.fail(at + ": no worker thread started for one segment of " +
                               std::to_string(in[1].size()) + " bytes in one deflate(Z_FINISH) call");
                }
                if (rc != Z_STREAM_END) c.fail(at + ": deflate(Z_FINISH) returned " + std::to_string(rc));
                else same_bytes(c, got, want[j], at + ": not the bytes of one thread");
            }
            TUR->deflateEnd(&s);
            tasks_settle(before);
            if (al.live != 0) c.fail("after deflateEnd(), k = " + std::to_string(k) + ": " + al.leak_note() + " left");
            if (k >= 0 && !al.failed) break;    /* past the last allocation */
            failed_runs += k >= 0;
            if (!fail_all_k) break;
        }
    }
    fprintf(stderr, "[zt] OptimalLevels.OneSegmentThenMoreAfterResetSameBytes: %ld runs with an "
            "allocation failed%s\n", failed_runs, fail_all_k ? "" : " (every allocation: 4 KiB segments or full mode)");
}

/* deflateSetThreads() between calls (0, 1, 2, 3, 4, 8, 16), and
 * deflateCopy() (the copy has one thread): the one-call run's bytes */
TEST(OptimalLevels, SetThreadsBetweenCallsSameBytes) {
    NEED_THREADS();
    Cases cs("opt-setthreads");
    long cases = big_segments() ? by_mode(2, 10) : by_mode(16, 150);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("SetThreadsBetweenCallsSameBytes", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        m.p.g = random_geo(rng);
        m.p.g.level = levels()[(size_t)i % levels().size()];
        int kind = pick_thread_kind(rng);
        size_t len = SEG() * rng.range(2, big_segments() ? 4 : 8) + rng.range(0, SEG());
        m.data = make_data(rng, kind, len);
        PlanMix mix;
        mix.gap_min = SEG() / 4;
        mix.gap_max = SEG() * 2;
        mix.threads_pct = 50;
        mix.copy_pct = 10;
        mix.flush_pct = 15;
        mix.params_pct = 10;
        mix.thread_counts = {0, 1, 2, 3, 4, 8, 16};
        m.p.ev = random_events(rng, len, mix);
        settle_strategies(m.p);
        m.p.threads = 2 + (int)rng.below(3);
        c.data = std::string(kind_name(kind)) + ", " + std::to_string(len) + " bytes";
        Slicing sl;
        sl.in = sl.out = S_MIXED;
        sl.seed = rng.next();
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        Plan p1 = m.p;
        p1.threads = 0;
        p1.ev.clear();
        for (const Event &e : m.p.ev)
            if (e.kind != EV_THREADS && e.kind != EV_COPY) p1.ev.push_back(e);
        Output ref;
        if (run_checked(c, p1, m.data, one_call(), ref))
            run_same(c, m.p, m.data, sl, ref, "threads changed between calls");
        cs.done(c);
    }
    EXPECT_GT(cs.ran, 0);
}

/* input overwritten after a call that left some of it unconsumed (threads
 * may have read ahead), and input moved to a new buffer (the old one freed):
 * the bytes of the one-call run of the input as finally given */
TEST(OptimalLevels, OverwrittenInputSeen) {
    NEED_OPTIMAL();
    Cases cs("opt-overwrite");
    bool thr = probe().fn && probe().threads;
    long cases = thr && big_segments() ? by_mode(3, 12) : by_mode(10, 100);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("OverwrittenInputSeen", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        m.p.g = random_geo(rng);
        m.p.g.level = levels()[(size_t)i % levels().size()];
        int kind = pick_thread_kind(rng);
        size_t len = thr ? SEG() * rng.range(2, big_segments() ? 3 : 8) + rng.range(0, SEG())
                         : rng.range(1000, by_mode(30000, 300000));
        m.data = make_data(rng, kind, len);
        if (rng.chance(40)) {
            PlanMix mix = mix_flushes(len / 4 + 1, len);
            m.p.ev = random_events(rng, len, mix);
            settle_strategies(m.p);
        }
        if (thr) m.p.threads = 2 + (int)rng.below(3);
        Slicing sl;
        sl.in = rng.chance(50) ? S_MIXED : S_MEDIUM;
        sl.out = rng.chance(50) ? S_SMALL : S_MEDIUM;
        if (!thr && sl.out == S_SMALL && len > (size_t)by_mode(10000, 100000)) sl.out = S_MEDIUM;
        sl.move = rng.chance(50);
        sl.overwrite = 40;
        sl.seed = rng.next();
        c.data = std::string(kind_name(kind)) + ", " + std::to_string(len) + " bytes";
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        Output r, ref;
        Bytes given;
        if (!run_plan(m.p, m.data, sl, r, nullptr, TUR, &given)) {
            c.fail(r.why);
        } else if (run_checked(c, m.p, given, one_call(), ref)) {
            same_bytes(c, r.out, ref.out, "input overwritten before it was consumed: not the one-call "
                                          "bytes of the input as given");
        }
        cs.done(c);
    }
    EXPECT_GT(cs.ran, 0);
}

/* ==== flushes ======================================================================= */

/* after each Z_SYNC_FLUSH (and Z_PARTIAL_FLUSH, documented "as for
 * Z_SYNC_FLUSH"), the output so far inflates to exactly the input so far;
 * flush intervals 31 .. 131072 (quick: 31, 1000, 4096) */
TEST(OptimalLevels, SyncFlushDecompressible) {
    NEED_OPTIMAL();
    Cases cs("opt-syncflush");
    long i = 0;
    long per = by_mode(3, 6);
    for (size_t f : flush_intervals())
        for (int flush : {Z_SYNC_FLUSH, Z_PARTIAL_FLUSH})
            for (long j = 0; j < per && !cs.stop(); j++) {
                long idx = i++;
                if (!cs.want(idx)) continue;
                Case c("SyncFlushDecompressible", idx, cs.seed(idx));
                zt::Rng rng(c.seed);
                Made m;
                PlanMix mix;
                mix.gap_min = std::max<size_t>(1, f - f / 8);
                mix.gap_max = f + f / 8;
                mix.flush_pct = 100;
                mix.flushes = {flush};
                if (rng.chance(30)) mix.flushes.push_back(rng.chance(50) ? Z_SYNC_FLUSH : Z_PARTIAL_FLUSH);
                size_t maxlen = std::min<size_t>(by_mode(40000, 600000), std::max<size_t>(f * by_mode(12, 30), 3000));
                make_case(rng, maxlen, mix, m);
                Slicing sl;
                sl.in = (int)rng.range(S_ALL, S_MIXED);
                sl.out = (int)rng.range(S_ALL, S_MIXED);
                if (m.data.size() > (size_t)by_mode(8000, 100000)) {
                    if (sl.in == S_ONE) sl.in = S_SMALL;
                    if (sl.out == S_ONE) sl.out = S_SMALL;
                }
                sl.seed = rng.next();
                c.data = m.desc;
                c.params = m.p.str() + "\n          slicing: " + sl.str();
                Output ref, r;
                if (run_checked(c, m.p, m.data, one_call(), ref)) {
                    if (run_same(c, m.p, m.data, sl, ref, "sliced", &r)) {
                        Check k = check_for(m.p, r);
                        verify(c, r.out, m.data, k);
                    }
                }
                cs.done(c);
            }
    EXPECT_GT(cs.ran, 0);
}

/* data that repeats itself across each Z_FULL_FLUSH: a raw inflate started
 * right after the flush's output, without any history or dictionary, gives
 * the rest (no "invalid distance too far back") */
TEST(OptimalLevels, FullFlushForgetsHistory) {
    NEED_OPTIMAL();
    Cases cs("opt-fullflush");
    long i = 0;
    long per = by_mode(4, 8);
    for (size_t f : flush_intervals())
        for (long j = 0; j < per && !cs.stop(); j++) {
            long idx = i++;
            if (!cs.want(idx)) continue;
            Case c("FullFlushForgetsHistory", idx, cs.seed(idx));
            zt::Rng rng(c.seed);
            Made m;
            m.p.g = random_geo(rng);
            if (m.p.g.strategy == Z_HUFFMAN_ONLY) m.p.g.strategy = Z_DEFAULT_STRATEGY;
            /* a chunk, repeated with small changes: the best match for
             * what follows a flush is always the same bytes just before it */
            size_t chunk = std::min<size_t>((size_t)1 << m.p.g.eff_wb(), rng.range(8, std::max<size_t>(9, f)));
            Bytes piece = make_data(rng, rng.chance(50) ? K_RANDOM : K_FILES, chunk);
            size_t len = std::min<size_t>(by_mode(40000, 600000), std::max<size_t>(f * by_mode(10, 30), 4 * chunk));
            Bytes data;
            while (data.size() < len) {
                data.insert(data.end(), piece.begin(), piece.end());
                if (rng.chance(30)) piece[rng.below((uint32_t)piece.size())] ^= 0x21;
            }
            data.resize(len);
            m.data = data;
            PlanMix mix;
            mix.gap_min = std::max<size_t>(1, f - f / 8);
            mix.gap_max = f + f / 8;
            mix.flush_pct = 100;
            mix.flushes = {Z_FULL_FLUSH, Z_FULL_FLUSH, Z_FULL_FLUSH, Z_SYNC_FLUSH};
            m.p.ev = random_events(rng, len, mix);
            if (m.p.g.wrap != 2 && rng.chance(25)) {
                m.dict = piece;
                m.p.dict = &m.dict;
            }
            Slicing sl;
            sl.in = (int)rng.range(S_ALL, S_MIXED);
            sl.out = (int)rng.range(S_ALL, S_MIXED);
            if (len > (size_t)by_mode(8000, 100000)) {
                if (sl.in == S_ONE) sl.in = S_SMALL;
                if (sl.out == S_ONE) sl.out = S_SMALL;
            }
            sl.seed = rng.next();
            c.data = "a " + std::to_string(chunk) + "-byte piece repeated, " + std::to_string(len) + " bytes";
            c.params = m.p.str() + "\n          slicing: " + sl.str();
            Output ref, r;
            if (run_checked(c, m.p, m.data, one_call(), ref))
                if (run_same(c, m.p, m.data, sl, ref, "sliced", &r)) {
                    Check k = check_for(m.p, r);
                    k.full_checks = 12;
                    verify(c, r.out, m.data, k);
                }
            cs.done(c);
        }
    EXPECT_GT(cs.ran, 0);
}

/* Z_BLOCK and Z_PARTIAL_FLUSH are accepted: once complete, no byte is held
 * (deflatePending), only 0-7 bits; the stream stays valid and its bytes do
 * not depend on the slicing (the driver checks the pending state after
 * every flush) */
TEST(OptimalLevels, BlockFlushLeavesOnlyBits) {
    NEED_OPTIMAL();
    Cases cs("opt-blockflush");
    long cases = by_mode(10, 80);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("BlockFlushLeavesOnlyBits", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix;
        mix.flush_pct = 80;
        mix.params_pct = 10;
        mix.flushes = {Z_BLOCK, Z_BLOCK, Z_PARTIAL_FLUSH};
        random_gaps(rng, mix, 20000);
        make_case(rng, by_mode(20000, 200000), mix, m);
        Slicing sl;
        sl.in = (int)rng.range(S_SMALL, S_MIXED);
        sl.out = (int)rng.range(S_SMALL, S_MIXED);
        sl.seed = rng.next();
        c.data = m.desc;
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        sliced_case(c, m.p, m.data, {sl});
        cs.done(c);
    }
    EXPECT_GT(cs.ran, 0);
}

/* deflatePending(): nothing held after init and after Z_STREAM_END; the
 * bits of deflatePrime() counted; while a flush's output is held, a call
 * given k <= pending bytes of room writes all k (it may generate more: the
 * rest of the flush); nothing held once a flush is complete; what is
 * pending when Z_FINISH returns early does come out */
TEST(OptimalLevels, PendingReportsHeldOutput) {
    NEED_OPTIMAL();
    Cases cs("opt-pending");
    long cases = by_mode(9, 60);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("PendingReportsHeldOutput", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Geo g = random_geo(rng);
        g.level = levels()[(size_t)i % levels().size()];
        if (g.strategy == Z_HUFFMAN_ONLY && rng.chance(50)) g.strategy = Z_DEFAULT_STRATEGY;
        int kind = pick_kind(rng);
        size_t len = rng.range(2000, by_mode(30000, 300000));
        Bytes data = make_data(rng, kind, len);
        c.data = std::string(kind_name(kind)) + ", " + std::to_string(len) + " bytes";
        c.params = g.str();
        AllocP al = new_alloc();
        z_stream s;
        memset(&s, 0, sizeof s);
        al->attach(s);
        if (ZAPI_DEFLATE_INIT2(TUR, &s, g.level, Z_DEFLATED, g.warg(), g.ml, g.strategy) != Z_OK) {
            c.fail("deflateInit2 failed");
            cs.done(c);
            continue;
        }
        unsigned pend = 99;
        int bits = 99;
        Bytes out(len * 2 + 4096);
        size_t have = 0;
        auto pending = [&](const char *when) {
            int rc = TUR->deflatePending(&s, &pend, &bits);
            if (rc != Z_OK) return c.fail(std::string("deflatePending ") + when + " returned " + std::to_string(rc));
            return true;
        };
        auto call = [&](int flush, size_t nin, size_t nout, int *rc) {
            s.next_in = data.data() + s.total_in;
            s.avail_in = (uInt)nin;
            s.next_out = out.data() + have;
            s.avail_out = (uInt)nout;
            *rc = TUR->deflate(&s, flush);
            have += nout - s.avail_out;
            return nout - s.avail_out;
        };
        bool ok = pending("after deflateInit2");
        if (ok && (pend != 0 || bits != 0)) ok = c.fail("deflatePending after deflateInit2: " +
                                                         std::to_string(pend) + " bytes, " + std::to_string(bits) + " bits");
        if (ok && TUR->deflatePending(&s, nullptr, nullptr) != Z_OK) ok = c.fail("deflatePending(NULL, NULL) refused");
        int primed = 0;
        if (ok && g.wrap == 0) {
            primed = (int)rng.range(1, 16);
            if (TUR->deflatePrime(&s, primed, (int)rng.below(1u << primed)) != Z_OK) ok = c.fail("deflatePrime refused");
            else if (pending("after deflatePrime") && pend * 8 + (unsigned)bits != (unsigned)primed)
                ok = c.fail("after deflatePrime(" + std::to_string(primed) + " bits) deflatePending says " +
                            std::to_string(pend) + " bytes and " + std::to_string(bits) + " bits");
        }
        /* a sync flush of half the input with 1-7 bytes of room per call */
        int rc = Z_OK;
        size_t half = len / 2;
        if (ok) {
            call(Z_NO_FLUSH, half / 2, out.size() - have, &rc);
            size_t made = call(Z_SYNC_FLUSH, half - s.total_in, rng.range(1, 7), &rc);
            bool complete = s.avail_out != 0 && s.total_in == half;
            for (int n = 0; ok && !complete && n < 10000000; n++) {
                if (!pending("in a flush")) { ok = false; break; }
                if (s.total_in == half && pend == 0) {
                    /* nothing held, but the marker may still be to come
                     * (zlib cannot say): one call with room completes it */
                    call(Z_SYNC_FLUSH, 0, out.size() - have, &rc);
                    if (rc != Z_OK || s.avail_out == 0)
                        ok = c.fail("deflate(Z_SYNC_FLUSH) with room for all returned " + std::to_string(rc));
                    break;
                }
                bool all_in = s.total_in == half;
                size_t k = std::min<size_t>(rng.range(1, 7), all_in ? pend : 7);
                unsigned pb = pend;
                made = call(Z_SYNC_FLUSH, half - s.total_in, k, &rc);
                if (rc != Z_OK) ok = c.fail("deflate(Z_SYNC_FLUSH) returned " + std::to_string(rc));
                else if (all_in && pb && made != k)
                    ok = c.fail("with " + std::to_string(pb) + " bytes pending and room for " +
                                std::to_string(k) + ", deflate wrote " + std::to_string(made));
                complete = s.avail_out != 0 && s.total_in == half;
            }
            if (ok && pending("after the flush") && (pend != 0 || bits != 0))
                ok = c.fail("after a complete Z_SYNC_FLUSH deflatePending says " + std::to_string(pend) +
                            " bytes, " + std::to_string(bits) + " bits");
        }
        /* Z_FINISH with little room: what is pending then does come out */
        if (ok) {
            size_t k = rng.range(1, 40);
            call(Z_FINISH, len - s.total_in, k, &rc);
            if (rc == Z_OK && s.avail_out == 0) {
                pending("after an early return of Z_FINISH");
                unsigned held = pend;
                size_t rest = call(Z_FINISH, len - s.total_in, out.size() - have, &rc);
                if (rc != Z_STREAM_END) ok = c.fail("deflate(Z_FINISH) then returned " + std::to_string(rc));
                else if (rest < held)
                    ok = c.fail("deflatePending said " + std::to_string(held) + " bytes were held, only " +
                                std::to_string(rest) + " came out");
            } else if (rc != Z_STREAM_END) {
                ok = c.fail("deflate(Z_FINISH) returned " + std::to_string(rc));
            }
            if (ok && pending("after Z_STREAM_END") && (pend != 0 || bits != 0))
                ok = c.fail("after Z_STREAM_END deflatePending says " + std::to_string(pend) + " bytes, " +
                            std::to_string(bits) + " bits");
        }
        uLong adler = s.adler;
        TUR->deflateEnd(&s);
        if (ok) {
            out.resize(have);
            Check k;
            k.g = &g;
            k.deflate_adler = adler;
            if (primed) {
                /* the primed bits were random: only the rest is checked */
                k.prime_bits = primed;
                uint32_t v = 0;
                for (int b = 0; b < primed; b++) v |= (uint32_t)((out[(size_t)b >> 3] >> (b & 7)) & 1) << b;
                k.prime_value = v;
            }
            verify(c, out, data, k);
        }
        if (al->live) c.fail("deflateEnd left " + al->leak_note());
        cs.done(c);
    }
}

/* ==== the window ==================================================================== */

/* data that repeats with a period just inside and just outside the window
 * (2^windowBits - 262 .. 2^windowBits + 258), from a dictionary longer than
 * the window too: pristine inflate with the same windowBits, one byte of
 * output per call (only the window holds history), takes every stream, and
 * no distance exceeds 2^windowBits */
TEST(OptimalLevels, DistanceWithinWindow) {
    NEED_OPTIMAL();
    Cases cs("opt-window");
    std::vector<int> wbs = zt::full_mode() ? std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}
                                           : std::vector<int>{8, 9, 10, 12, 15};
    long i = 0;
    for (int wb : wbs)
        for (int v = 0; v < by_mode(4, 8) && !cs.stop(); v++) {
            long idx = i++;
            if (!cs.want(idx)) continue;
            Case c("DistanceWithinWindow", idx, cs.seed(idx));
            zt::Rng rng(c.seed);
            Made m;
            m.p.g.level = levels()[(size_t)idx % levels().size()];
            m.p.g.wb = wb;
            m.p.g.wrap = wb == 8 ? 1 : (int)rng.below(3);
            m.p.g.ml = rng.chance(50) ? 8 : (int)rng.range(1, 9);
            m.p.g.strategy = rng.chance(80) ? Z_DEFAULT_STRATEGY : rng.chance(50) ? Z_FILTERED : Z_FIXED;
            size_t w = (size_t)1 << m.p.g.eff_wb();
            static const long offs[] = {-262, -261, -2, -1, 0, 1, 2, 3, 258, 259};
            size_t per = (size_t)((long)w + offs[rng.below(10)]);
            Bytes pat = make_data(rng, rng.chance(70) ? K_RANDOM : K_FILES, per);
            size_t reps = zt::full_mode() ? rng.range(3, 6) : 3;
            Bytes data;
            for (size_t r = 0; r < reps; r++) {
                data.insert(data.end(), pat.begin(), pat.end());
                if (rng.chance(30)) data[data.size() - 1 - rng.below((uint32_t)per)] ^= 0x40;
            }
            if (m.p.g.wrap != 2 && rng.chance(30)) {
                /* a dictionary longer than the window, its start repeated */
                m.dict = make_data(rng, K_RANDOM, w + rng.range(1, 2000));
                Bytes d2(m.dict.begin(), m.dict.begin() + (long)std::min<size_t>(m.dict.size(), 3000));
                data.insert(data.begin(), d2.begin(), d2.end());
                Bytes tail(m.dict.end() - (long)std::min<size_t>(300, m.dict.size()), m.dict.end());
                data.insert(data.end(), tail.begin(), tail.end());
                m.p.dict = &m.dict;
                m.p.prepared = TUR->deflatePrepareDictionary && rng.chance(50);
            }
            if (rng.chance(30)) {
                PlanMix mix;
                mix.gap_min = w / 2;
                mix.gap_max = 2 * w;
                mix.flush_pct = 50;
                mix.flushes = {Z_SYNC_FLUSH, Z_BLOCK, Z_PARTIAL_FLUSH};
                mix.params_pct = 20;
                m.p.ev = random_events(rng, data.size(), mix);
                settle_strategies(m.p);
            }
            m.data = data;
            c.data = "period " + std::to_string(per) + " (window " + std::to_string(w) + ") x" +
                     std::to_string(reps) + ", " + std::to_string(data.size()) + " bytes";
            c.params = m.p.str();
            Output r;
            Walk wk;
            if (run_checked(c, m.p, m.data, one_call(), r, nullptr, true, &wk) && wk.maxdist > w)
                c.fail("longest distance " + std::to_string(wk.maxdist) + " > window " + std::to_string(w));
            cs.done(c);
        }
    EXPECT_GT(cs.ran, 0);
}

/* ==== deflateBound ==================================================================== */

/* ZO_SEG_BITS in the environment: the library was built with segments of
 * 2^ZO_SEG_BITS bytes (tools/check/optimal-small-segments.sh) */
int seg_bits_env() {
    static int b = [] {
        const char *e = getenv("ZO_SEG_BITS");
        return e && *e ? atoi(e) : 0;
    }();
    return b;
}
bool small_segments() { return seg_bits_env() > 0 && seg_bits_env() < 16; }

/* n bytes compressed by one deflate(Z_FINISH) into deflateBound(n) bytes
 * always end the stream (Z_STREAM_END): random (incompressible), empty,
 * one byte, corpus, zeros and runs; every wrapper (gzip with a header, zlib
 * with a dictionary), windowBits and memLevel at their edges, every
 * strategy; deflateBound_z() the same; compress2() into compressBound(n) */
TEST(OptimalLevels, BoundHolds) {
    NEED_OPTIMAL();
    Cases cs("opt-bound");
    struct G { int wrap, wb, ml; };
    std::vector<G> geos = {{1, 15, 8}, {0, 15, 8}, {2, 15, 8}, {1, 9, 9}, {0, 9, 1}, {2, 12, 2},
                           {0, 15, 1}, {1, 15, 9}, {2, 10, 8}, {0, 14, 7}};
    std::vector<size_t> sizes = {0, 1, 2, 5, 100, 1000, 16383, 65536, 100003};
    if (zt::full_mode()) sizes.insert(sizes.end(), {262144, 1u << 20});
    std::vector<int> kinds = {K_RANDOM, K_FILES, K_ZEROS, K_RUNS, K_TEXT, K_MIXED};
    long cases = by_mode(90, 900), skipped = 0;
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("BoundHolds", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        const G &ge = geos[(size_t)i % geos.size()];
        Geo &g = m.p.g;
        g.level = levels()[(size_t)(i / (long)geos.size()) % levels().size()];
        g.wrap = ge.wrap;
        g.wb = ge.wb;
        g.ml = ge.ml;
        g.strategy = rng.chance(40) ? Z_DEFAULT_STRATEGY : (int)rng.below(5);
        /* a third of the cases: incompressible data */
        int kind = i % 3 == 0 ? K_RANDOM : kinds[rng.below((uint32_t)kinds.size())];
        size_t n = sizes[rng.below((uint32_t)sizes.size())];
        if (n > 100003 && kind != K_RANDOM) n = 100003;
        if (rng.chance(20)) n = rng.range(0, 70000);
        m.data = make_data(rng, kind, n);
        if (g.wrap == 2 && rng.chance(50)) m.set_head(rng);
        if (g.wrap != 2 && rng.chance(20)) {
            m.dict = make_data(rng, rng.chance(50) ? K_RANDOM : K_FILES, rng.range(1, 40000));
            m.p.dict = &m.dict;
        }
        c.data = std::string(kind_name(kind)) + ", " + std::to_string(n) + " bytes";
        c.params = m.p.str();
        /* zlib's tight bound (windowBits 15, memLevel 8) leaves 1.25 bytes
         * per 4 KiB: a build with 4 KiB segments (a block or more each)
         * cannot keep it on incompressible data; the library's own 256 KiB
         * segments can */
        bool tight = g.wb == 15 && g.ml == 8;
        if (tight && small_segments() && n > ((size_t)1 << seg_bits_env())) {
            skipped++;
            cs.done(c);
            continue;
        }
        AllocP al = new_alloc();
        z_stream s;
        memset(&s, 0, sizeof s);
        al->attach(s);
        if (ZAPI_DEFLATE_INIT2(TUR, &s, g.level, Z_DEFLATED, g.warg(), g.ml, g.strategy) != Z_OK) {
            c.fail("deflateInit2 failed");
            cs.done(c);
            continue;
        }
        if (m.p.head) TUR->deflateSetHeader(&s, m.p.head);
        if (m.p.dict) TUR->deflateSetDictionary(&s, m.dict.data(), (uInt)m.dict.size());
        uLong bound = TUR->deflateBound(&s, (uLong)n);
        z_size_t bound_z = TUR->deflateBound_z(&s, (z_size_t)n);
        Bytes out(bound + 16, 0xC5);
        static const uint8_t none[1] = {0};
        s.next_in = const_cast<Bytef *>(n ? m.data.data() : none);
        s.avail_in = (uInt)n;
        s.next_out = out.data();
        s.avail_out = (uInt)bound;
        int rc = TUR->deflate(&s, Z_FINISH);
        size_t used = bound - s.avail_out;
        uLong adler = s.adler;
        TUR->deflateEnd(&s);
        bool ok = true;
        if ((z_size_t)bound != bound_z)
            ok = c.fail("deflateBound " + std::to_string(bound) + " but deflateBound_z " + std::to_string(bound_z));
        if (ok && rc != Z_STREAM_END)
            ok = c.fail("deflate(Z_FINISH) into deflateBound(" + std::to_string(n) + ") = " + std::to_string(bound) +
                        " bytes returned " + std::to_string(rc) + " (it needs more room)");
        for (size_t j = 0; ok && j < 16; j++)
            if (out[bound + j] != 0xC5) ok = c.fail("deflate wrote past avail_out");
        if (ok) {
            out.resize(used);
            Check k;
            k.g = &g;
            k.dict = m.p.dict;
            k.head = m.p.head;
            k.deflate_adler = adler;
            verify(c, out, m.data, k);
        }
        if (al->live) c.fail("deflateEnd left " + al->leak_note());
        /* compress2() into compressBound() */
        if (!c.failed && i % 4 == 0 && !(small_segments() && n > ((size_t)1 << seg_bits_env()))) {
            uLongf dl = TUR->compressBound((uLong)n);
            Bytes d(dl);
            rc = TUR->compress2(d.data(), &dl, n ? m.data.data() : none, (uLong)n, g.level);
            if (rc != Z_OK) {
                c.fail("compress2(level " + std::to_string(g.level) + ") into compressBound(" + std::to_string(n) +
                       ") returned " + std::to_string(rc));
            } else {
                d.resize(dl);
                Geo g1;
                g1.level = g.level;
                Check k;
                k.g = &g1;
                k.adler_from_deflate = false;
                verify(c, d, m.data, k);
            }
        }
        cs.done(c);
    }
    if (skipped)
        fprintf(stderr, "[zt] OptimalLevels.BoundHolds: %ld cases at zlib's tight bound (windowBits 15, "
                "memLevel 8) not run: segments of 2^%d bytes\n", skipped, seg_bits_env());
    EXPECT_GT(cs.ran, 0);
}

/* ==== dictionaries ======================================================================= */

/* deflateSetDictionary() (zlib: Z_NEED_DICT then inflateSetDictionary;
 * raw: inflateSetDictionary first) of 1 byte to beyond the window, the data
 * overlapping it; the dictionary must really be used (data taken from it
 * compresses to far less than without); refused on gzip as at level 9; on
 * a raw stream also in the middle, after a flush */
TEST(OptimalLevels, DictionaryRoundTrips) {
    NEED_OPTIMAL();
    Cases cs("opt-dict");
    long cases = by_mode(24, 200);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("DictionaryRoundTrips", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        Geo &g = m.p.g;
        g = random_geo(rng);
        g.level = levels()[(size_t)i % levels().size()];
        g.set_wrap((int)(i / 3 % 2));
        if (g.strategy == Z_HUFFMAN_ONLY) g.strategy = Z_DEFAULT_STRATEGY;
        size_t w = (size_t)1 << g.eff_wb();
        static const int shapes = 6;
        int shape = (int)(i % shapes);
        size_t dl = shape == 0 ? 1 : shape == 1 ? rng.range(2, 300) : shape == 2 ? w - 262 :
                    shape == 3 ? w : shape == 4 ? w + rng.range(1, 3000) : rng.range(1, 40000);
        m.dict = make_data(rng, rng.chance(50) ? K_RANDOM : K_FILES, dl);
        m.p.dict = &m.dict;
        m.p.prepared = TUR->deflatePrepareDictionary && rng.chance(25);
        /* the data: the dictionary's last part (inside the window), then more */
        size_t take = std::min(dl, std::min<size_t>(w - 300, 4000));
        Bytes data(m.dict.end() - (long)take, m.dict.end());
        Bytes more = make_data(rng, pick_kind(rng), rng.range(0, by_mode(10000, 100000)));
        data.insert(data.end(), more.begin(), more.end());
        m.data = data;
        if (rng.chance(30)) {
            PlanMix mix = mix_flushes(data.size() / 6 + 1, data.size() / 2 + 2);
            m.p.ev = random_events(rng, data.size(), mix);
            settle_strategies(m.p);
        }
        Slicing sl;
        sl.in = (int)rng.range(S_ALL, S_MIXED);
        sl.out = (int)rng.range(S_ALL, S_MIXED);
        if (data.size() > (size_t)by_mode(8000, 100000)) {
            if (sl.in == S_ONE) sl.in = S_SMALL;
            if (sl.out == S_ONE) sl.out = S_SMALL;
        }
        sl.seed = rng.next();
        c.data = "the dictionary's last " + std::to_string(take) + " bytes, then " + std::to_string(more.size());
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        Output ref;
        if (!run_checked(c, m.p, m.data, one_call(), ref) ||
            !run_same(c, m.p, m.data, sl, ref, "sliced")) {
            cs.done(c);
            continue;
        }
        /* used: the bytes taken from the dictionary cost next to nothing */
        if (take >= 1000 && g.strategy != Z_RLE && g.strategy != Z_HUFFMAN_ONLY) {
            Plan p2 = m.p;
            p2.dict = nullptr;
            Bytes head(m.data.begin(), m.data.begin() + (long)take);
            Output with, without;
            Plan p3 = m.p;
            p3.ev.clear();
            p2.ev.clear();
            if (run_plan(p3, head, one_call(), with) && run_plan(p2, head, one_call(), without) &&
                without.out.size() >= 400 && with.out.size() * 4 > without.out.size() + 64)
                c.fail("the dictionary is not used: " + std::to_string(take) + " bytes of it compress to " +
                       std::to_string(with.out.size()) + " bytes with it, " + std::to_string(without.out.size()) +
                       " without");
        }
        cs.done(c);
    }
    /* gzip: refused as at level 9 */
    for (int L : levels()) {
        z_stream r, t;
        memset(&r, 0, sizeof r);
        memset(&t, 0, sizeof t);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(REF, &r, 9, Z_DEFLATED, 31, 8, 0), Z_OK);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &t, L, Z_DEFLATED, 31, 8, 0), Z_OK);
        EXPECT_EQ(TUR->deflateSetDictionary(&t, (const Bytef *)"abcdef", 6),
                  REF->deflateSetDictionary(&r, (const Bytef *)"abcdef", 6)) << "gzip stream, level " << L;
        REF->deflateEnd(&r);
        TUR->deflateEnd(&t);
    }
    /* raw: a dictionary after a flush, in the middle of the stream */
    for (long i = 0; i < by_mode(6, 30) && !cs.stop(); i++) {
        long idx = 1000 + i;
        if (!cs.want(idx)) continue;
        Case c("DictionaryRoundTrips", idx, cs.seed(idx));
        zt::Rng rng(c.seed);
        Made m;
        m.p.g = random_geo(rng);
        m.p.g.set_wrap(0);
        m.p.g.level = levels()[(size_t)i % levels().size()];
        if (m.p.g.strategy == Z_HUFFMAN_ONLY || m.p.g.strategy == Z_RLE) m.p.g.strategy = Z_DEFAULT_STRATEGY;
        size_t a = rng.range(0, 20000);
        m.mid_dict = make_data(rng, K_RANDOM, rng.range(1000, 40000));
        size_t w = (size_t)1 << m.p.g.eff_wb();
        Bytes first = make_data(rng, K_FILES, a);
        size_t take = std::min<size_t>(m.mid_dict.size(), w - 270);
        Bytes second(m.mid_dict.end() - (long)take, m.mid_dict.end());
        m.data = first;
        m.data.insert(m.data.end(), second.begin(), second.end());
        m.p.mid_dict = &m.mid_dict;
        int fl = rng.chance(50) ? Z_SYNC_FLUSH : Z_FULL_FLUSH;
        if (a == 0) {
            m.p.ev = {Event{0, EV_DICT}};
        } else {
            m.p.ev = {Event{a, EV_FLUSH, fl}, Event{a, EV_DICT}};
        }
        Slicing sl;
        sl.in = (int)rng.range(S_ALL, S_MIXED);
        sl.out = (int)rng.range(S_ALL, S_MIXED);
        if (sl.in == S_ONE) sl.in = S_SMALL;
        if (sl.out == S_ONE) sl.out = S_SMALL;
        sl.seed = rng.next();
        c.data = std::to_string(a) + " bytes, " + flush_name(fl) + ", then " + std::to_string(take) +
                 " bytes of the " + std::to_string(m.mid_dict.size()) + "-byte dictionary";
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        Output r;
        if (!run_plan(m.p, m.data, sl, r)) {
            c.fail(r.why);
        } else {
            size_t at = r.marks.empty() ? 0 : r.marks[0].out_len;
            z_stream s;
            memset(&s, 0, sizeof s);
            ZAPI_INFLATE_INIT2(REF, &s, -m.p.g.eff_wb());
            Bytes out(m.data.size() + 1024);
            s.next_in = r.out.data();
            s.avail_in = (uInt)at;
            s.next_out = out.data();
            s.avail_out = (uInt)out.size();
            int rc = at ? REF->inflate(&s, Z_SYNC_FLUSH) : Z_OK;
            size_t have = out.size() - s.avail_out;
            if ((rc != Z_OK && rc != Z_BUF_ERROR) || have != a)
                c.fail("the output up to the flush inflates to " + std::to_string(have) + " bytes, rc " +
                       std::to_string(rc));
            else if (REF->inflateSetDictionary(&s, m.mid_dict.data(), (uInt)m.mid_dict.size()) != Z_OK)
                c.fail("pristine inflateSetDictionary refused");
            else {
                s.next_in = r.out.data() + at;
                s.avail_in = (uInt)(r.out.size() - at);
                rc = REF->inflate(&s, Z_FINISH);
                have = out.size() - s.avail_out;
                out.resize(have);
                if (rc != Z_STREAM_END || out != m.data)
                    c.fail("with the dictionary given after the flush, pristine inflate returns " +
                           std::to_string(rc) + (s.msg ? std::string(" (") + s.msg + ")" : std::string()) +
                           " and " + std::to_string(have) + " bytes");
                else if (r.out.size() - at > take / 2 + 64)
                    c.fail("the dictionary set in the middle is not used: " + std::to_string(take) +
                           " bytes of it take " + std::to_string(r.out.size() - at) + " bytes");
            }
            REF->inflateEnd(&s);
        }
        cs.done(c);
    }
    EXPECT_GT(cs.ran, 0);
}

/* deflatePrepareDictionary() + deflateUseDictionary() at 10-12 write what
 * deflateSetDictionary() writes; an object prepared on a level 10-12 stream
 * used at level 6 gives pristine zlib's level-6 bytes */
TEST(OptimalLevels, PreparedDictionarySameBytes) {
    NEED_OPTIMAL();
    ZT_NEED("prepared", TUR->deflatePrepareDictionary != nullptr,
            "the library has no prepared dictionaries");
    Cases cs("opt-prepared");
    long cases = by_mode(12, 100);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("PreparedDictionarySameBytes", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix = mix_flushes(500, 5000);
        make_case(rng, by_mode(16000, 100000), mix, m, false);
        if (m.p.g.wrap == 2) m.p.g.set_wrap((int)rng.below(2));
        m.set_dict(rng, 40000);
        c.data = m.desc;
        Plan set = m.p, use = m.p;
        set.prepared = false;
        use.prepared = true;
        c.params = use.str();
        Output a;
        if (run_checked(c, set, m.data, one_call(), a)) run_same(c, use, m.data, one_call(), a, "prepared dictionary");
        /* prepared at 10-12, used at level 6: zlib's bytes */
        if (!c.failed && i % 3 == 0) {
            Geo g6 = m.p.g;
            g6.level = 6;
            z_stream q, t, r;
            memset(&q, 0, sizeof q);
            memset(&t, 0, sizeof t);
            memset(&r, 0, sizeof r);
            zdict *pd = nullptr;
            int warg = g6.wrap == 0 ? -g6.wb : g6.wb;
            bool ok = ZAPI_DEFLATE_INIT2(TUR, &q, m.p.g.level, Z_DEFLATED, warg, g6.ml, 0) == Z_OK &&
                      TUR->deflatePrepareDictionary(&q, m.dict.data(), (uInt)m.dict.size(), &pd) == Z_OK;
            TUR->deflateEnd(&q);
            if (!ok) {
                c.fail("deflatePrepareDictionary on a level-" + std::to_string(m.p.g.level) + " stream failed");
            } else {
                Bytes zo, zr;
                ZAPI_DEFLATE_INIT2(TUR, &t, 6, Z_DEFLATED, g6.warg(), g6.ml, g6.strategy);
                ZAPI_DEFLATE_INIT2(REF, &r, 6, Z_DEFLATED, g6.warg(), g6.ml, g6.strategy);
                int rt = TUR->deflateUseDictionary(&t, pd);
                int rr = REF->deflateSetDictionary(&r, m.dict.data(), (uInt)m.dict.size());
                if (rt != rr) c.fail("deflateUseDictionary at level 6 returned " + std::to_string(rt));
                finish_all(TUR, t, m.data, zo);
                finish_all(REF, r, m.data, zr);
                same_bytes(c, zo, zr, "level 6 with a dictionary prepared at level " + std::to_string(m.p.g.level) +
                                      ": not pristine zlib's bytes");
                TUR->deflateEnd(&t);
                REF->deflateEnd(&r);
            }
            TUR->deflateFreeDictionary(pd);
        }
        cs.done(c);
    }
}

/* ==== deflatePrime, deflateCopy, deflateReset ========================================== */

/* bits primed before the data of a raw stream come first; an empty fixed
 * block primed after a Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_PARTIAL_FLUSH or Z_BLOCK
 * in any wrapper keeps the stream valid */
TEST(OptimalLevels, PrimeBitsKept) {
    NEED_OPTIMAL();
    Cases cs("opt-prime");
    long cases = by_mode(16, 120);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("PrimeBitsKept", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix none;
        make_case(rng, by_mode(20000, 200000), none, m, false);
        if (i % 2 == 0) {
            m.p.g.set_wrap(0);
            m.p.prime_bits = (int)rng.range(1, 32);
            m.p.prime_value = (uint32_t)rng.next();
        } else {
            /* after flushes: an empty fixed block, 10 bits (0 01 0000000) */
            size_t pos = 0;
            static const int fl[] = {Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_PARTIAL_FLUSH, Z_BLOCK};
            while ((pos += rng.range(1, std::max<size_t>(2, m.data.size() / 3))) < m.data.size()) {
                m.p.ev.push_back(Event{pos, EV_FLUSH, fl[rng.below(4)]});
                m.p.ev.push_back(Event{pos, EV_PRIME, 10, 2});
            }
        }
        Slicing sl;
        sl.in = (int)rng.range(S_ALL, S_MIXED);
        sl.out = (int)rng.range(S_ALL, S_MIXED);
        if (sl.in == S_ONE) sl.in = S_SMALL;
        if (sl.out == S_ONE) sl.out = S_SMALL;
        sl.seed = rng.next();
        c.data = m.desc;
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        sliced_case(c, m.p, m.data, {sl});
        cs.done(c);
    }
}

/* a copy made at any point (deflateCopy(), up to three, also copies of
 * copies), given the rest of the plan on its own, ends with the stream's
 * bytes.  (Not call by call: a copy has one thread, and with threads the
 * stream may take more input per call than the copy, the same bytes in the
 * end -- zturbo.h.) */
TEST(OptimalLevels, CopyContinuesIdentically) {
    NEED_OPTIMAL();
    Cases cs("opt-copy");
    bool thr = probe().fn && probe().threads;
    long cases = by_mode(14, 120);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("CopyContinuesIdentically", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix = mix_flushes(1, 1);
        mix.copy_pct = 25;
        random_gaps(rng, mix, 20000);
        make_case(rng, by_mode(20000, 200000), mix, m);
        if (thr && rng.chance(30)) m.p.threads = 2 + (int)rng.below(3);
        bool has_copy = false;
        for (auto &e : m.p.ev) has_copy |= e.kind == EV_COPY;
        if (!has_copy) m.p.ev.insert(m.p.ev.begin(), Event{rng.range(0, m.data.size()), EV_COPY});
        std::sort(m.p.ev.begin(), m.p.ev.end(), [](const Event &a, const Event &b) { return a.pos < b.pos; });
        Slicing sl;
        sl.in = (int)rng.range(S_ALL, S_MIXED);
        sl.out = (int)rng.range(S_ALL, S_MIXED);
        if (sl.in == S_ONE && m.data.size() > 6000) sl.in = S_SMALL;
        if (sl.out == S_ONE && m.data.size() > 6000) sl.out = S_SMALL;
        sl.seed = rng.next();
        c.data = m.desc;
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        Plan p0 = m.p;
        p0.ev.clear();
        p0.threads = 0;
        for (auto &e : m.p.ev)
            if (e.kind != EV_COPY) p0.ev.push_back(e);
        Output ref;
        if (run_checked(c, p0, m.data, one_call(), ref)) run_same(c, m.p, m.data, sl, ref, "with copies");
        cs.done(c);
    }
}

/* after deflateReset() (at the start, in the middle, after deflateParams()
 * switches, with threads, with the dictionary set again) the same input
 * gives the bytes of a fresh stream; also after Z_STREAM_END */
TEST(OptimalLevels, ResetSameAsFresh) {
    NEED_OPTIMAL();
    Cases cs("opt-reset");
    bool thr = probe().fn && probe().threads;
    long cases = by_mode(14, 120);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("ResetSameAsFresh", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix = mix_flushes(1, 1);
        random_gaps(rng, mix, 20000);
        make_case(rng, by_mode(24000, 200000), mix, m);
        m.p.prime_bits = 0;
        if (thr && rng.chance(30)) m.p.threads = 2 + (int)rng.below(3);
        size_t at = rng.chance(20) ? 0 : rng.range(0, m.data.size());
        /* the events up to the reset, the reset, the events after it */
        Plan p = m.p;
        p.ev.clear();
        Plan fresh = m.p;
        fresh.ev.clear();
        fresh.threads = 0;
        for (auto &e : m.p.ev) {
            if (e.pos <= at) {
                if (e.kind == EV_PARAMS) {
                    fresh.g.level = e.a;
                    fresh.g.strategy = e.b;
                }
                p.ev.push_back(e);
            }
        }
        p.ev.push_back(Event{at, EV_RESET});
        for (auto &e : m.p.ev)
            if (e.pos > at) {
                p.ev.push_back(e);
                Event f = e;
                f.pos -= at;
                fresh.ev.push_back(f);
            }
        Bytes rest(m.data.begin() + (long)at, m.data.end());
        Slicing sl;
        sl.in = (int)rng.range(S_ALL, S_MIXED);
        sl.out = (int)rng.range(S_ALL, S_MIXED);
        if (sl.in == S_ONE && m.data.size() > 6000) sl.in = S_SMALL;
        if (sl.out == S_ONE && m.data.size() > 6000) sl.out = S_SMALL;
        sl.seed = rng.next();
        c.data = m.desc + ", reset at " + std::to_string(at);
        c.params = p.str() + "\n          slicing: " + sl.str();
        Output ref, r;
        if (run_checked(c, fresh, rest, one_call(), ref)) {
            if (!run_plan(p, m.data, sl, r)) c.fail(r.why);
            else same_bytes(c, r.out, ref.out, "after deflateReset: not a fresh stream's bytes");
        }
        cs.done(c);
    }
    /* after Z_STREAM_END */
    for (int L : levels()) {
        Case c("ResetSameAsFresh", 1000 + L, 0);
        zt::Rng rng(zt::case_seed("opt-reset-end", (uint64_t)L));
        Bytes a = make_data(rng, K_FILES, 20000), b = make_data(rng, K_MIXED, 15000), za, zb, zf;
        z_stream s, f;
        memset(&s, 0, sizeof s);
        memset(&f, 0, sizeof f);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, 15, 8, 0), Z_OK);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &f, L, Z_DEFLATED, 15, 8, 0), Z_OK);
        EXPECT_EQ(finish_all(TUR, s, a, za), Z_STREAM_END);
        EXPECT_EQ(TUR->deflateReset(&s), Z_OK);
        EXPECT_EQ(finish_all(TUR, s, b, zb), Z_STREAM_END);
        EXPECT_EQ(finish_all(TUR, f, b, zf), Z_STREAM_END);
        same_bytes(c, zb, zf, "level " + std::to_string(L) + ": after Z_STREAM_END and deflateReset");
        TUR->deflateEnd(&s);
        TUR->deflateEnd(&f);
    }
}

/* ==== deflateParams ====================================================================== */

/* the rest of data after deflate() calls that consumed pos bytes: one
 * deflate(Z_FINISH); returns its code */
int finish_rest(const zapi *A, z_stream &s, const Bytes &data, Bytes &out) {
    size_t have = out.size();
    size_t left = data.size() - s.total_in;
    out.resize(have + data.size() * 2 + 4096);     /* levels 10-12 hold up to a segment */
    static const uint8_t none[1] = {0};
    s.next_in = const_cast<Bytef *>(left ? data.data() + s.total_in : none);
    s.avail_in = (uInt)left;
    s.next_out = out.data() + have;
    s.avail_out = (uInt)(out.size() - have);
    int rc = A->deflate(&s, Z_FINISH);
    out.resize(out.size() - s.avail_out);
    return rc;
}

/* n more input bytes (from total_in on, or from `from`) with Z_NO_FLUSH
 * (or flush), room for all */
int more(const zapi *A, z_stream &s, const Bytes &data, size_t n, Bytes &out, int flush = Z_NO_FLUSH,
         size_t from = SIZE_MAX) {
    size_t have = out.size();
    out.resize(have + data.size() * 2 + 4096);
    static const uint8_t none[1] = {0};
    if (from == SIZE_MAX) from = s.total_in;
    s.next_in = const_cast<Bytef *>(n ? data.data() + from : none);
    s.avail_in = (uInt)n;
    s.next_out = out.data() + have;
    s.avail_out = (uInt)(out.size() - have);
    int rc = A->deflate(&s, flush);
    out.resize(out.size() - s.avail_out);
    return rc;
}

/* among 10-12 at any time: with a change of level or strategy after
 * deflate() was called, zlib's deflate(strm, Z_BLOCK) first -- the input so
 * far is in complete blocks when it returns Z_OK, and it returns Z_BUF_ERROR
 * when the room does not let that flush complete (and completes when called
 * again with room); no change: Z_OK without writing; before the first
 * deflate() no flush at all; after Z_STREAM_END what zlib returns at 9 */
TEST(OptimalLevels, ParamsAmongOptimalLevels) {
    NEED_OPTIMAL();
    Cases cs("opt-params");
    long cases = by_mode(12, 90);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("ParamsAmongOptimalLevels", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Geo g = random_geo(rng);
        g.level = levels()[(size_t)i % levels().size()];
        int L2 = pick_level(rng), st2 = rng.chance(50) ? g.strategy : (int)rng.below(5);
        if (L2 == g.level && st2 == g.strategy) st2 = (g.strategy + 1) % 5;
        size_t len = rng.range(20000, by_mode(40000, 200000));
        Bytes data = make_data(rng, rng.chance(50) ? K_FILES : K_MIXED, len);
        c.data = "files/mixed, " + std::to_string(len) + " bytes";
        c.params = g.str() + ", deflateParams(" + std::to_string(L2) + ", " + strat_name(st2) + ")";
        AllocP al = new_alloc();
        z_stream s;
        memset(&s, 0, sizeof s);
        al->attach(s);
        if (ZAPI_DEFLATE_INIT2(TUR, &s, g.level, Z_DEFLATED, g.warg(), g.ml, g.strategy) != Z_OK) {
            c.fail("deflateInit2 failed");
            cs.done(c);
            continue;
        }
        Bytes out;
        bool ok = true;
        /* before the first deflate(): no flush, even with no room */
        uint8_t one[1];
        s.next_out = one;
        s.avail_out = 0;
        int rc = TUR->deflateParams(&s, g.level, g.strategy);
        if (rc != Z_OK) ok = c.fail("deflateParams(same) before deflate() with no room returned " + std::to_string(rc));
        size_t part = rng.range(16000, len - 2000);
        if (ok && (rc = more(TUR, s, data, part, out)) != Z_OK) ok = c.fail("deflate returned " + std::to_string(rc));
        /* no change: no flush */
        if (ok) {
            size_t have = out.size();
            s.next_out = one;
            s.avail_out = 0;
            rc = TUR->deflateParams(&s, g.level, g.strategy);
            if (rc != Z_OK || out.size() != have)
                ok = c.fail("deflateParams with the same level and strategy mid-stream, no room: " + std::to_string(rc));
        }
        /* a change with one byte of room: Z_OK (the flush completed into
         * what is pending) or Z_BUF_ERROR (it could not: then the change is
         * not made, and a call with room makes it) */
        if (ok) {
            out.resize(out.size() + 1);
            s.next_out = out.data() + out.size() - 1;
            s.avail_out = 1;
            rc = TUR->deflateParams(&s, L2, st2);
            out.resize(out.size() - s.avail_out);
            if (rc != Z_BUF_ERROR && rc != Z_OK)
                ok = c.fail("deflateParams(" + std::to_string(L2) + ", " + strat_name(st2) + ") after " +
                            std::to_string(part) + " bytes with one byte of room returned " + std::to_string(rc));
        }
        for (int n = 0; ok && rc == Z_BUF_ERROR; n++) {
            size_t have = out.size();
            out.resize(have + len * 2 + 4096);
            s.next_out = out.data() + have;
            s.avail_out = (uInt)(out.size() - have);
            rc = TUR->deflateParams(&s, L2, st2);
            out.resize(out.size() - s.avail_out);
            if (rc != Z_OK && (rc != Z_BUF_ERROR || n > 3))
                ok = c.fail("deflateParams called again with room returned " + std::to_string(rc));
        }
        /* what is still pending comes out with a Z_BLOCK call that adds nothing */
        if (ok) {
            size_t have = out.size();
            out.resize(have + len * 2 + 4096);
            s.next_in = one;
            s.avail_in = 0;
            s.next_out = out.data() + have;
            s.avail_out = (uInt)(out.size() - have);
            rc = TUR->deflate(&s, Z_BLOCK);
            out.resize(out.size() - s.avail_out);
            if (rc != Z_OK && rc != Z_BUF_ERROR) ok = c.fail("deflate(Z_BLOCK) after deflateParams returned " + std::to_string(rc));
        }
        /* the input so far is in complete blocks: all of it but the last
         * few bits' worth inflates from the output so far */
        if (ok) {
            unsigned pend = 1;
            int bits = 9;
            TUR->deflatePending(&s, &pend, &bits);
            if (pend != 0 || bits > 7) ok = c.fail("after deflateParams' flush deflatePending says " +
                                                   std::to_string(pend) + " bytes, " + std::to_string(bits) + " bits");
            size_t hl = header_len(out, g.wrap);
            if (ok && hl != SIZE_MAX) {
                z_stream is;
                memset(&is, 0, sizeof is);
                ZAPI_INFLATE_INIT2(REF, &is, -g.eff_wb());
                Bytes o(part + 1024);
                is.next_in = out.data() + hl;
                is.avail_in = (uInt)(out.size() - hl);
                is.next_out = o.data();
                is.avail_out = (uInt)o.size();
                int irc = REF->inflate(&is, Z_SYNC_FLUSH);
                size_t got = o.size() - is.avail_out;
                REF->inflateEnd(&is);
                if ((irc != Z_OK && irc != Z_BUF_ERROR) || got + 258 < part || got > part ||
                    memcmp(o.data(), data.data(), got))
                    ok = c.fail("after deflateParams mid-stream the output so far inflates to " + std::to_string(got) +
                                " of the " + std::to_string(part) + " bytes given (rc " + std::to_string(irc) +
                                "): the Z_BLOCK flush did not complete the block");
            }
        }
        if (ok && (rc = finish_rest(TUR, s, data, out)) != Z_STREAM_END)
            ok = c.fail("deflate(Z_FINISH) returned " + std::to_string(rc));
        /* after Z_STREAM_END: as zlib at level 9 */
        if (ok) {
            z_stream r;
            memset(&r, 0, sizeof r);
            Bytes ro;
            ZAPI_DEFLATE_INIT2(REF, &r, 9, Z_DEFLATED, g.warg(), g.ml, g.strategy);
            finish_all(REF, r, data, ro);
            uint8_t room[64];
            r.next_out = room;
            r.avail_out = sizeof room;
            s.next_out = room;
            s.avail_out = sizeof room;
            int rr = REF->deflateParams(&r, 8, (g.strategy + 1) % 5);
            rc = TUR->deflateParams(&s, L2, (st2 + 1) % 5);
            if (rc != rr) ok = c.fail("deflateParams after Z_STREAM_END returned " + std::to_string(rc) +
                                      ", pristine zlib at level 9 " + std::to_string(rr));
            REF->deflateEnd(&r);
        }
        uLong adler = s.adler;
        TUR->deflateEnd(&s);
        if (ok) {
            Check k;
            k.g = &g;
            k.deflate_adler = adler;
            verify(c, out, data, k);
        }
        if (al->live) c.fail("deflateEnd left " + al->leak_note());
        cs.done(c);
    }
}

/* between 0-9 and 10-12 after the first deflate() since init or reset:
 * Z_STREAM_ERROR, no input taken, nothing written, and the stream goes on
 * as if the call had not been made (at 10-12: the same bytes; at 0-9:
 * pristine zlib's bytes) -- also after a flush and after Z_STREAM_END */
TEST(OptimalLevels, ParamsCrossingRefusedAfterStart) {
    NEED_OPTIMAL();
    if (dev_levels()) GTEST_SKIP() << "ZT_OPT_LEVELS given";
    Cases cs("opt-crossing-after");
    long cases = by_mode(15, 120);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("ParamsCrossingRefusedAfterStart", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Geo g = random_geo(rng);
        static const int low[] = {0, 1, 3, 4, 6, 9, Z_DEFAULT_COMPRESSION};
        int lx = low[rng.below(7)];
        bool from_high = i % 2 == 0;
        int L = levels()[(size_t)(i / 2) % levels().size()];
        g.level = from_high ? L : lx;
        int to = from_high ? lx : L;
        int st2 = rng.chance(50) ? g.strategy : (int)rng.below(5);
        int when = (int)(i / 6 % 3);      /* 0: after data, 1: after a flush, 2: after Z_STREAM_END */
        size_t len = rng.range(3000, by_mode(30000, 200000));
        Bytes data = make_data(rng, pick_kind(rng), len);
        size_t part = rng.range(1, len - 1);
        c.data = std::to_string(len) + " bytes, the call after " + std::to_string(part);
        c.params = g.str() + ", deflateParams(" + std::to_string(to) + ", " + strat_name(st2) + ") " +
                   (when == 0 ? "mid-stream" : when == 1 ? "after Z_SYNC_FLUSH" : "after Z_STREAM_END");
        /* the stream with the refused call, and the same calls without it on
         * the library that should write these bytes */
        const zapi *W = from_high ? TUR : REF;
        z_stream s, t;
        memset(&s, 0, sizeof s);
        memset(&t, 0, sizeof t);
        AllocP al = new_alloc();
        al->attach(s);
        bool ok = ZAPI_DEFLATE_INIT2(TUR, &s, g.level, Z_DEFLATED, g.warg(), g.ml, g.strategy) == Z_OK &&
                  ZAPI_DEFLATE_INIT2(W, &t, g.level, Z_DEFLATED, g.warg(), g.ml, g.strategy) == Z_OK;
        if (!ok) c.fail("deflateInit2 failed");
        Bytes o1, o2;
        if (ok && when < 2) {
            int f = when == 1 ? Z_SYNC_FLUSH : Z_NO_FLUSH;
            if (more(TUR, s, data, part, o1, f) != Z_OK || more(W, t, data, part, o2, f) != Z_OK)
                ok = c.fail("deflate failed");
        } else if (ok) {
            if (finish_all(TUR, s, data, o1) != Z_STREAM_END || finish_all(W, t, data, o2) != Z_STREAM_END)
                ok = c.fail("deflate(Z_FINISH) failed");
        }
        if (ok) {
            unsigned p0 = 0, p1 = 0;
            int b0 = 0, b1 = 0;
            TUR->deflatePending(&s, &p0, &b0);
            uint8_t room[300];
            s.next_in = const_cast<Bytef *>(data.data() + s.total_in);
            s.avail_in = (uInt)(len - s.total_in);
            s.next_out = room;
            s.avail_out = sizeof room;
            uInt ai = s.avail_in;
            uLong ti = s.total_in, to_ = s.total_out;
            int rc = TUR->deflateParams(&s, to, st2);
            TUR->deflatePending(&s, &p1, &b1);
            if (rc != Z_STREAM_ERROR)
                ok = c.fail("deflateParams(" + std::to_string(to) + ") on a level-" + std::to_string(g.level) +
                            " stream after deflate() returned " + std::to_string(rc) + ", not Z_STREAM_ERROR");
            else if (s.avail_in != ai || s.total_in != ti || s.avail_out != sizeof room || s.total_out != to_ ||
                     p0 != p1 || b0 != b1)
                ok = c.fail("the refused deflateParams took input, wrote output or changed what is pending");
        }
        if (ok && when < 2) {
            int r1 = finish_rest(TUR, s, data, o1), r2 = finish_rest(W, t, data, o2);
            if (r1 != Z_STREAM_END || r2 != Z_STREAM_END)
                ok = c.fail("deflate(Z_FINISH) after the refused deflateParams returned " + std::to_string(r1) +
                            " (" + zt::show_msg(s.msg) + "); the same stream without it " + std::to_string(r2));
            else
                ok = same_bytes(c, o1, o2, std::string("after the refused deflateParams: not the bytes ") +
                                       (from_high ? "of the same stream without it" : "of pristine zlib"));
        }
        uLong adler = s.adler;
        TUR->deflateEnd(&s);
        W->deflateEnd(&t);
        if (ok) {
            Check k;
            k.g = &g;
            k.deflate_adler = adler;
            verify(c, o1, data, k);
        }
        if (al->live) c.fail("deflateEnd left " + al->leak_note());
        cs.done(c);
    }
}

/* between 0-9 and 10-12 before the first deflate() (after init, after
 * deflateReset(), after deflateSetDictionary()): Z_OK, and the stream is the
 * one it switched to -- at 0-9 pristine zlib's bytes (as pristine zlib
 * switched from 9), at 10-12 a fresh stream's bytes */
TEST(OptimalLevels, ParamsCrossingBeforeStart) {
    NEED_OPTIMAL();
    if (dev_levels()) GTEST_SKIP() << "ZT_OPT_LEVELS given";
    Cases cs("opt-crossing-before");
    long cases = by_mode(18, 150);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("ParamsCrossingBeforeStart", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Geo g = random_geo(rng);
        int L = levels()[(size_t)i % levels().size()];
        int lx = rng.chance(15) ? Z_DEFAULT_COMPRESSION : (int)rng.range(0, 9);
        int st2 = rng.chance(50) ? g.strategy : (int)rng.below(5);
        int how = (int)(i / 3 % 3);      /* 0: after init, 1: after deflateReset, 2: after a dictionary */
        if (how == 2 && g.wrap == 2) g.set_wrap(1);
        bool down = rng.chance(50);      /* L -> lx, or lx -> L */
        int from = down ? L : lx, to = down ? lx : L;
        size_t len = rng.range(0, by_mode(20000, 200000));
        Bytes data = make_data(rng, pick_kind(rng), len), d1 = make_data(rng, K_FILES, 3000);
        Bytes dict = make_data(rng, K_FILES, rng.range(1, 5000));
        c.data = std::to_string(len) + " bytes";
        c.params = g.str() + ": level " + std::to_string(from) + " -> deflateParams(" + std::to_string(to) + ", " +
                   strat_name(st2) + ") " + (how == 0 ? "after init" : how == 1 ? "after a stream and deflateReset"
                                                                              : "after deflateSetDictionary");
        z_stream s, w;
        memset(&s, 0, sizeof s);
        memset(&w, 0, sizeof w);
        AllocP al = new_alloc();
        al->attach(s);
        /* the reference: pristine zlib from level 9 for 0-9, a fresh turbo stream for 10-12 */
        const zapi *W = down ? REF : TUR;
        int wfrom = down ? 9 : to;
        bool ok = ZAPI_DEFLATE_INIT2(TUR, &s, from, Z_DEFLATED, g.warg(), g.ml, g.strategy) == Z_OK &&
                  ZAPI_DEFLATE_INIT2(W, &w, wfrom, Z_DEFLATED, g.warg(), g.ml, down ? g.strategy : st2) == Z_OK;
        if (!ok) c.fail("deflateInit2 failed");
        /* now and then with threads (at 0-9 they keep zlib's bytes too) */
        int threads = TUR->deflateSetThreads && rng.chance(30) ? 2 + (int)rng.below(3) : 0;
        if (ok && threads && TUR->deflateSetThreads(&s, threads) != Z_OK) threads = 0;
        if (threads) c.params += ", threads=" + std::to_string(threads);
        Bytes o1, o2;
        if (ok && how == 1) {
            if (finish_all(TUR, s, d1, o1) != Z_STREAM_END || TUR->deflateReset(&s) != Z_OK)
                ok = c.fail("the first stream or deflateReset failed");
            o1.clear();
        }
        if (ok && how == 2) {
            if (TUR->deflateSetDictionary(&s, dict.data(), (uInt)dict.size()) != Z_OK ||
                W->deflateSetDictionary(&w, dict.data(), (uInt)dict.size()) != Z_OK)
                ok = c.fail("deflateSetDictionary failed");
        }
        if (ok) {
            int rc = TUR->deflateParams(&s, to, st2);
            if (rc != Z_OK)
                ok = c.fail("deflateParams(" + std::to_string(to) + ") before the first deflate() on a level-" +
                            std::to_string(from) + " stream returned " + std::to_string(rc));
            if (down && W->deflateParams(&w, to, st2) != Z_OK) ok = c.fail("pristine deflateParams failed");
        }
        if (ok) {
            int r1 = finish_all(TUR, s, data, o1), r2 = finish_all(W, w, data, o2);
            if (r1 != Z_STREAM_END || r2 != Z_STREAM_END) ok = c.fail("deflate(Z_FINISH) failed");
            else
                ok = same_bytes(c, o1, o2, down ? "switched to a zlib level before deflate(): not pristine zlib's bytes"
                                                : "switched to an optimal level before deflate(): not a fresh stream's bytes");
        }
        uLong adler = s.adler;
        TUR->deflateEnd(&s);
        W->deflateEnd(&w);
        if (ok) {
            Geo g2 = g;
            g2.level = to;
            g2.strategy = st2;
            Check k;
            k.g = &g2;
            k.deflate_adler = adler;
            k.dict = how == 2 ? &dict : nullptr;
            verify(c, o1, data, k);
        }
        if (al->live) c.fail("deflateEnd left " + al->leak_note());
        cs.done(c);
    }
}

/* ==== the strategies ======================================================================= */

/* one stream of each case at a strategy, walked */
template <class F>
void strategy_cases(const char *name, int strategy, std::vector<int> kinds, F check) {
    Cases cs(name);
    long cases = by_mode(9, 60);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c(name, i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        m.p.g = random_geo(rng);
        m.p.g.level = levels()[(size_t)i % levels().size()];
        m.p.g.strategy = strategy;
        int kind = kinds[(size_t)i / levels().size() % kinds.size()];
        size_t len = rng.range(2000, by_mode(30000, 200000));
        m.data = make_data(rng, kind, len);
        if (rng.chance(30)) {
            PlanMix mix;
            mix.gap_min = 500;
            mix.gap_max = len;
            mix.flush_pct = 50;
            mix.params_pct = 30;    /* other levels, the same strategy */
            m.p.ev = random_events(rng, len, mix);
            for (Event &e : m.p.ev) e.b = strategy;
        }
        c.data = std::string(kind_name(kind)) + ", " + std::to_string(len) + " bytes";
        c.params = m.p.str();
        Output r;
        Walk w;
        if (run_checked(c, m.p, m.data, one_call(), r, nullptr, false, &w)) check(c, w, kind);
        cs.done(c);
    }
    EXPECT_GT(cs.ran, 0);
}

/* Z_HUFFMAN_ONLY: literals only, no match at all */
TEST(OptimalLevels, HuffmanOnlyHasNoMatches) {
    NEED_OPTIMAL();
    strategy_cases("HuffmanOnlyHasNoMatches", Z_HUFFMAN_ONLY, {K_FILES, K_RUNS, K_ZEROS, K_TEXT},
                   [](Case &c, const Walk &w, int) {
                       if (w.matches) c.fail("Z_HUFFMAN_ONLY stream has " + std::to_string(w.matches) +
                                             " matches (" + w.str() + ")");
                   });
}

/* Z_RLE: matches at distance 1 only, and it finds runs */
TEST(OptimalLevels, RleOnlyDistanceOne) {
    NEED_OPTIMAL();
    strategy_cases("RleOnlyDistanceOne", Z_RLE, {K_RUNS, K_ZEROS, K_FILES, K_PERIOD},
                   [](Case &c, const Walk &w, int kind) {
                       if (w.dist_not1)
                           c.fail("Z_RLE stream has " + std::to_string(w.dist_not1) +
                                  " matches at distances other than 1 (" + w.str() + ")");
                       else if ((kind == K_RUNS || kind == K_ZEROS) && w.matches == 0)
                           c.fail("Z_RLE finds no run in data made of runs (" + w.str() + ")");
                   });
}

/* Z_FIXED: no dynamic block (stored ones allowed), and it finds matches */
TEST(OptimalLevels, FixedHasNoDynamicBlocks) {
    NEED_OPTIMAL();
    strategy_cases("FixedHasNoDynamicBlocks", Z_FIXED, {K_FILES, K_TEXT, K_RANDOM, K_RUNS},
                   [](Case &c, const Walk &w, int kind) {
                       if (w.dynamic)
                           c.fail("Z_FIXED stream has " + std::to_string(w.dynamic) + " dynamic blocks (" +
                                  w.str() + ")");
                       else if (kind != K_RANDOM && w.matches == 0 && w.fixed > 0)
                           c.fail("Z_FIXED finds no match in compressible data (" + w.str() + ")");
                   });
}

/* Z_FILTERED at 10-12 is the default strategy: the same bytes */
TEST(OptimalLevels, FilteredSameAsDefault) {
    NEED_OPTIMAL();
    if (dev_levels()) GTEST_SKIP() << "ZT_OPT_LEVELS given";
    Cases cs("opt-filtered");
    long cases = by_mode(9, 60);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("FilteredSameAsDefault", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix = mix_flushes(1000, 20000);
        mix.strategies = false;
        make_case(rng, by_mode(30000, 200000), mix, m);
        m.p.g.level = levels()[(size_t)i % levels().size()];
        m.p.g.strategy = Z_DEFAULT_STRATEGY;
        for (Event &e : m.p.ev)
            if (e.kind == EV_PARAMS) e.b = Z_DEFAULT_STRATEGY;
        Plan f = m.p;
        f.g.strategy = Z_FILTERED;
        for (Event &e : f.ev)
            if (e.kind == EV_PARAMS) e.b = Z_FILTERED;
        c.data = m.desc;
        c.params = f.str();
        Output a;
        if (run_checked(c, m.p, m.data, one_call(), a)) run_same(c, f, m.data, one_call(), a, "Z_FILTERED against the default");
        cs.done(c);
    }
}

/* ==== gzip files ===================================================================== */

/* gzsetparams() to 10-12 before the first write and between writes (among
 * 10-12), gzsetparams() across 9/10 after writing (refused inside, the file
 * still valid), gzflush() in between: pristine zlib reads back the data */
TEST(OptimalLevels, GzsetparamsAccepted) {
    NEED_OPTIMAL();
    Cases cs("opt-gz");
    long cases = by_mode(9, 60);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("GzsetparamsAccepted", i, cs.seed(i));
        zt::Rng rng(c.seed);
        size_t len = rng.range(0, by_mode(40000, 300000));
        Bytes data = make_data(rng, pick_kind(rng), len);
        char path[] = "/tmp/zt-opt-gz-XXXXXX";
        int fd = mkstemp(path);
        if (fd < 0) {
            c.fail("mkstemp failed");
            break;
        }
        int how = (int)(i % 3);     /* 0: 10-12 throughout, 1: from 6 after writing, 2: 10-12 then 6 */
        int L = levels()[(size_t)(i / 3) % levels().size()], L2 = pick_level(rng);
        int st = rng.chance(60) ? 0 : (int)rng.below(5);
        c.data = std::to_string(len) + " bytes";
        c.params = how == 0 ? "gzsetparams(" + std::to_string(L) + ") before writing, " + std::to_string(L2) + " between writes"
                 : how == 1 ? "level 6 file, gzsetparams(" + std::to_string(L) + ") after writing"
                            : "gzsetparams(" + std::to_string(L) + ") before writing, gzsetparams(6) after";
        gzFile f = TUR->gzdopen(fd, "wb");
        bool ok = f != nullptr;
        if (!ok) c.fail("gzdopen failed");
        size_t half = len / 2, q = len / 4;
        int rc;
        if (ok && how != 1 && (rc = TUR->gzsetparams(f, L, st)) != Z_OK)
            ok = c.fail("gzsetparams(" + std::to_string(L) + ") before writing returned " + std::to_string(rc));
        if (ok && q && TUR->gzwrite(f, data.data(), (unsigned)q) != (int)q) ok = c.fail("gzwrite failed");
        if (ok && rng.chance(50) && TUR->gzflush(f, Z_SYNC_FLUSH) != Z_OK) ok = c.fail("gzflush failed");
        if (ok && half - q && TUR->gzwrite(f, data.data() + q, (unsigned)(half - q)) != (int)(half - q))
            ok = c.fail("gzwrite failed");
        if (ok) {
            rc = TUR->gzsetparams(f, how == 0 ? L2 : how == 1 ? L : 6, how == 0 ? (int)rng.below(5) : st);
            if (how == 0 && rc != Z_OK) ok = c.fail("gzsetparams(" + std::to_string(L2) + ") between writes returned " +
                                                   std::to_string(rc));
            if (how != 0 && rc != Z_OK && rc != Z_STREAM_ERROR)
                ok = c.fail("gzsetparams across 9/10 after writing returned " + std::to_string(rc));
        }
        if (ok && len - half && TUR->gzwrite(f, data.data() + half, (unsigned)(len - half)) != (int)(len - half))
            ok = c.fail("gzwrite after gzsetparams failed");
        if (f && (rc = TUR->gzclose(f)) != Z_OK && ok) ok = c.fail("gzclose returned " + std::to_string(rc));
        if (ok) {
            Bytes z;
            FILE *in = fopen(path, "rb");
            if (in) {
                uint8_t b[65536];
                size_t n;
                while ((n = fread(b, 1, sizeof b, in)) > 0) z.insert(z.end(), b, b + n);
                fclose(in);
            }
            Inflated r = ref_inflate(z.data(), z.size(), 31, nullptr, nullptr, len);
            if (r.rc != Z_STREAM_END || r.out != data || r.left)
                c.fail("pristine inflate of the gzip file: " + r.what() + (r.out == data ? "" : ", not the data") +
                       (r.left ? ", bytes after its end" : ""));
        }
        unlink(path);
        cs.done(c);
    }
}

/* ==== memory ========================================================================= */

/* deflateEnd() in the middle (after init, a dictionary, data, a flush, with
 * output held, with threads at work): everything freed, and the return code
 * pristine zlib gives at level 9 for the same calls */
TEST(OptimalLevels, EndMidStreamFreesAll) {
    NEED_OPTIMAL();
    Cases cs("opt-end");
    bool thr = probe().fn && probe().threads;
    long cases = by_mode(15, 100);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("EndMidStreamFreesAll", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Geo g = random_geo(rng);
        g.level = levels()[(size_t)i % levels().size()];
        int when = (int)(i / 3 % 5);  /* 0 init, 1 dictionary, 2 data, 3 flush, 4 output held */
        if (when == 1 && g.wrap == 2) g.set_wrap(1);
        int threads = thr && rng.chance(40) ? 2 + (int)rng.below(3) : 0;
        size_t len = threads ? SEG() * 3 : rng.range(1000, by_mode(30000, 200000));
        Bytes data = make_data(rng, K_FILES, len);
        c.data = std::to_string(len) + " bytes";
        c.params = g.str() + (threads ? " threads=" + std::to_string(threads) : "") + ", deflateEnd " +
                   (when == 0 ? "after init" : when == 1 ? "after deflateSetDictionary" :
                    when == 2 ? "after data" : when == 3 ? "after Z_SYNC_FLUSH" : "with output held");
        AllocP al = new_alloc(), ar = new_alloc();
        int t0 = task_count();
        z_stream s, r;
        memset(&s, 0, sizeof s);
        memset(&r, 0, sizeof r);
        al->attach(s);
        ar->attach(r);
        const zapi *side[2] = {REF, TUR};
        z_stream *ss[2] = {&r, &s};
        int rcs[2];
        bool ok = true;
        for (int k = 0; k < 2 && ok; k++) {
            const zapi *A = side[k];
            z_stream &x = *ss[k];
            if (ZAPI_DEFLATE_INIT2(A, &x, k ? g.level : 9, Z_DEFLATED, g.warg(), g.ml, g.strategy) != Z_OK) {
                ok = c.fail("deflateInit2 failed");
                break;
            }
            if (k && threads) A->deflateSetThreads(&x, threads);
            Bytes out;
            if (when == 1) A->deflateSetDictionary(&x, data.data(), 1000);
            if (when == 2) more(A, x, data, len, out);
            if (when == 3) more(A, x, data, len, out, Z_SYNC_FLUSH);
            if (when == 4) {
                out.resize(16);
                x.next_in = data.data();
                x.avail_in = (uInt)len;
                x.next_out = out.data();
                x.avail_out = 16;
                A->deflate(&x, Z_FINISH);
            }
            rcs[k] = A->deflateEnd(&x);
        }
        /* with output held, zlib itself answers Z_OK or Z_DATA_ERROR
         * depending on how far its parse went: either is right */
        if (ok && when == 4 && rcs[1] != Z_OK && rcs[1] != Z_DATA_ERROR)
            c.fail("deflateEnd with output held returned " + std::to_string(rcs[1]));
        else if (ok && when != 4 && rcs[0] != rcs[1])
            c.fail("deflateEnd returned " + std::to_string(rcs[1]) + ", pristine zlib at level 9 " + std::to_string(rcs[0]));
        if (al->live) c.fail("deflateEnd left " + al->leak_note());
        if (t0 >= 0 && tasks_settle(t0) > t0) c.fail("threads left running after deflateEnd");
        /* a second deflateEnd: refused, as zlib */
        if (TUR->deflateEnd(&s) != Z_STREAM_ERROR) c.fail("a second deflateEnd was not refused");
        cs.done(c);
    }
}

/* deflateGetDictionary(): at most 2^windowBits (and 32768) bytes, exactly
 * the last ones of the dictionary and the input given so far */
TEST(OptimalLevels, GetDictionaryIsRecentInput) {
    NEED_OPTIMAL();
    Cases cs("opt-getdict");
    long cases = by_mode(12, 80);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("GetDictionaryIsRecentInput", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Geo g = random_geo(rng);
        g.level = levels()[(size_t)i % levels().size()];
        size_t len = rng.range(0, by_mode(60000, 300000));
        Bytes data = make_data(rng, pick_kind(rng), len);
        Bytes dict = g.wrap != 2 && rng.chance(40) ? make_data(rng, K_FILES, rng.range(1, 40000)) : Bytes();
        size_t part = rng.range(0, len);
        int flush = rng.chance(50) ? Z_SYNC_FLUSH : Z_FINISH;
        c.data = std::to_string(len) + " bytes, " + flush_name(flush) + " after " + std::to_string(part);
        c.params = g.str() + (dict.empty() ? "" : " dict=" + std::to_string(dict.size()));
        z_stream s;
        memset(&s, 0, sizeof s);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, g.level, Z_DEFLATED, g.warg(), g.ml, g.strategy), Z_OK);
        if (!dict.empty()) TUR->deflateSetDictionary(&s, dict.data(), (uInt)dict.size());
        Bytes out;
        int rc = more(TUR, s, data, part, out, flush, 0);
        if (rc != Z_OK && rc != Z_STREAM_END) c.fail("deflate returned " + std::to_string(rc));
        Bytes w(32768 + 16, 0xEE);
        uInt wl = 0;
        rc = TUR->deflateGetDictionary(&s, w.data(), &wl);
        Bytes hist = dict;
        hist.insert(hist.end(), data.begin(), data.begin() + (long)part);
        size_t cap = std::min<size_t>((size_t)1 << g.eff_wb(), 32768);
        if (rc != Z_OK) c.fail("deflateGetDictionary returned " + std::to_string(rc));
        else if (wl > cap || wl > hist.size())
            c.fail("deflateGetDictionary gives " + std::to_string(wl) + " bytes (window " + std::to_string(cap) +
                   ", history " + std::to_string(hist.size()) + ")");
        else if (memcmp(w.data(), hist.data() + hist.size() - wl, wl) != 0)
            c.fail("deflateGetDictionary's " + std::to_string(wl) + " bytes are not the last ones given");
        else if (wl == 0 && !hist.empty())
            c.fail("deflateGetDictionary gives nothing after " + std::to_string(hist.size()) + " bytes");
        for (size_t j = wl; j < w.size() && !c.failed; j++)
            if (w[j] != 0xEE) c.fail("deflateGetDictionary wrote past the length it returned");
        TUR->deflateEnd(&s);
        cs.done(c);
    }
}

/* blocks handed out full of zeros, of ones, of noise: the same bytes (the
 * output never depends on memory the library did not write) */
TEST(OptimalLevels, UninitialisedMemoryIgnored) {
    NEED_OPTIMAL();
    Cases cs("opt-uninit");
    bool thr = probe().fn && probe().threads;
    long cases = by_mode(9, 60);
    for (long i = 0; i < cases && !cs.stop(); i++) {
        if (!cs.want(i)) continue;
        Case c("UninitialisedMemoryIgnored", i, cs.seed(i));
        zt::Rng rng(c.seed);
        Made m;
        PlanMix mix = mix_flushes(1, 1);
        mix.copy_pct = 10;
        random_gaps(rng, mix, 30000);
        make_case(rng, by_mode(30000, 200000), mix, m);
        m.p.g.level = levels()[(size_t)i % levels().size()];
        if (thr && rng.chance(30)) m.p.threads = 2 + (int)rng.below(3);
        Slicing sl;
        sl.in = sl.out = rng.chance(50) ? S_ALL : S_MIXED;
        sl.seed = rng.next();
        c.data = m.desc;
        c.params = m.p.str() + "\n          slicing: " + sl.str();
        Output runs[3];
        const int fills[3] = {0x00, 0xFF, -2};
        bool ok = true;
        for (int k = 0; k < 3 && ok; k++) {
            AllocP al = new_alloc();
            al->fill = fills[k];
            if (!run_plan(m.p, m.data, sl, runs[k], al)) ok = c.fail(runs[k].why);
        }
        if (ok) {
            Check k = check_for(m.p, runs[0]);
            ok = verify(c, runs[0].out, m.data, k);
        }
        if (ok) ok = same_bytes(c, runs[1].out, runs[0].out, "memory from zalloc filled with 0xff instead of zeros");
        if (ok) same_bytes(c, runs[2].out, runs[0].out, "memory from zalloc filled with noise instead of zeros");
        cs.done(c);
    }
}

/* the optimal levels compress better than level 9 (pristine zlib), all
 * files taken together */
TEST(OptimalLevels, SmallerThanLevel9) {
    NEED_OPTIMAL();
    if (dev_levels()) GTEST_SKIP() << "ZT_OPT_LEVELS given";
    const auto &files = zt::file_samples();
    size_t nf = std::min<size_t>(files.size(), zt::full_mode() ? files.size() : 8);
    size_t total9 = 0, in = 0;
    std::map<int, size_t> total;
    for (size_t i = 0; i < nf; i++) {
        const zt::Sample &f = files[i * files.size() / nf];
        size_t len = std::min<size_t>(f.bytes.size(), by_mode(48000, 1 << 20));
        in += len;
        uLongf dl = REF->compressBound((uLong)len);
        Bytes d(dl);
        ASSERT_EQ(REF->compress2(d.data(), &dl, f.bytes.data(), (uLong)len, 9), Z_OK);
        total9 += dl;
        for (int L : levels()) {
            uLongf tl = REF->compressBound((uLong)len);
            Bytes t(tl);
            ASSERT_EQ(TUR->compress2(t.data(), &tl, f.bytes.data(), (uLong)len, L), Z_OK) << f.name;
            total[L] += tl;
        }
    }
    fprintf(stderr, "[zt] OptimalLevels.SmallerThanLevel9: %zu files, %zu bytes: level 9 %zu", nf, in, total9);
    for (int L : levels()) fprintf(stderr, ", level %d %zu", L, total[L]);
    fprintf(stderr, "\n");
    for (int L : levels())
        EXPECT_LE(total[L], total9) << "level " << L << " compresses " << nf << " files (" << in
                                    << " bytes) to more than pristine zlib's level 9";
}

/* ==== the bytes themselves ============================================== */

/* about 600 KB made here, the same on every machine: runs of words from a
 * small vocabulary (short matches), copies of 300-3,000 earlier bytes with
 * a changed byte in 500 (long matches: the parse's code-at-a-time path and
 * the sweep's), runs of zeros between a few bytes (a bitmap: long walks in
 * the match finder), and random bytes, in pieces of 4-20 KB */
Bytes known_bytes_input() {
    zt::Rng rng(0x5EEDB17E5ULL);
    std::vector<std::string> words;
    for (int i = 0; i < 300; i++) {
        std::string w;
        size_t n = rng.range(2, 9);
        for (size_t j = 0; j < n; j++) w += (char)('a' + rng.below(26));
        words.push_back(w);
    }
    Bytes d;
    while (d.size() < 600000) {
        size_t end = d.size() + rng.range(4096, 20480);
        switch (d.size() < 4096 ? 0 : rng.below(4)) {
        case 0:
            while (d.size() < end) {
                const std::string &w = rng.pick(words);
                d.insert(d.end(), w.begin(), w.end());
                d.push_back(rng.chance(10) ? '\n' : ' ');
            }
            break;
        case 1:
            while (d.size() < end) {
                size_t len = rng.range(300, 3000), from = rng.range(0, d.size() - 1);
                for (size_t j = 0; j < len; j++) {
                    uint8_t b = d[from + j % (d.size() - from)];
                    d.push_back(rng.below(500) == 0 ? (uint8_t)rng.below(256) : b);
                }
            }
            break;
        case 2:
            while (d.size() < end) {
                d.insert(d.end(), rng.range(50, 400), 0);
                for (size_t j = rng.range(1, 5); j > 0; j--) d.push_back((uint8_t)rng.below(256));
            }
            break;
        default:
            while (d.size() < end) d.push_back((uint8_t)rng.below(256));
        }
    }
    return d;
}

/* the bytes of levels 10-12 (raw deflate, one deflate(Z_FINISH), windowBits
 * 15, memLevel 8, the default strategy) of known_bytes_input(): size and
 * CRC-32 as recorded.  The parse's shortcuts (long matches a length code at
 * a time, the sweep's keys, the match finder's comparisons) are meant to
 * give the very choices of the plain loops; a slip there makes valid
 * deflate that round trips, only a little larger, which no other test
 * sees.  A change meant to change these bytes updates the table (the
 * failure prints the new values) and says so.  Recorded for 256 KiB
 * segments and for the 4 KiB of tools/check/optimal-small-segments.sh. */
TEST(OptimalLevels, KnownBytes) {
    NEED_OPTIMAL();
    if (dev_levels()) GTEST_SKIP() << "ZT_OPT_LEVELS given";
    struct Pin { int seg_bits, level; size_t size; uint32_t crc; };
    static const Pin pins[] = {
        {18, 10, 276320, 0x778851c3}, {18, 11, 275786, 0x6997c78a}, {18, 12, 275473, 0xa56fa79f},
        {12, 10, 277737, 0xa81f5bf6}, {12, 11, 276531, 0x8a0a81f9}, {12, 12, 275505, 0x7ee1051a},
    };
    int seg_bits = seg_bits_env() ? seg_bits_env() : 18;
    if (seg_bits != 18 && seg_bits != 12)
        GTEST_SKIP() << "no bytes recorded for ZO_SEG_BITS=" << seg_bits;
    Bytes in = known_bytes_input();
    for (int L : levels()) {
        z_stream s;
        memset(&s, 0, sizeof s);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
        Bytes out(in.size() + in.size() / 8 + 1024);
        s.next_in = in.data();
        s.avail_in = (uInt)in.size();
        s.next_out = out.data();
        s.avail_out = (uInt)out.size();
        int rc = TUR->deflate(&s, Z_FINISH);
        size_t n = s.total_out;
        TUR->deflateEnd(&s);
        ASSERT_EQ(rc, Z_STREAM_END) << "level " << L;
        uint32_t crc = (uint32_t)REF->crc32_z(0, out.data(), n);
        Bytes back(in.size());
        uLongf bl = (uLongf)back.size();
        z_stream t;
        memset(&t, 0, sizeof t);
        ASSERT_EQ(ZAPI_INFLATE_INIT2(REF, &t, -15), Z_OK);
        t.next_in = out.data();
        t.avail_in = (uInt)n;
        t.next_out = back.data();
        t.avail_out = (uInt)bl;
        EXPECT_EQ(REF->inflate(&t, Z_FINISH), Z_STREAM_END) << "level " << L;
        EXPECT_EQ(t.total_out, in.size()) << "level " << L;
        REF->inflateEnd(&t);
        EXPECT_TRUE(back == in) << "level " << L << ": pristine inflate does not give the input back";
        fprintf(stderr, "[zt] OptimalLevels.KnownBytes: ZO_SEG_BITS=%d level %d: %zu -> %zu bytes, "
                "CRC-32 %08x\n", seg_bits, L, in.size(), n, crc);
        const Pin *pin = nullptr;
        for (const Pin &q : pins)
            if (q.seg_bits == seg_bits && q.level == L) pin = &q;
        ASSERT_NE(pin, nullptr);
        EXPECT_TRUE(n == pin->size && crc == pin->crc)
            << "level " << L << " (ZO_SEG_BITS=" << seg_bits << "): " << n << " bytes, CRC-32 0x"
            << std::hex << crc << "; recorded " << std::dec << pin->size << " bytes, CRC-32 0x"
            << std::hex << pin->crc << std::dec << " (a change to the parse or the match finder "
            "that was meant to keep the bytes did not; if it was meant to change them, record "
            "the new values here)";
    }
}

/* an allocator over one mapping: no malloc() of its own */
struct Arena {
    uint8_t *base = nullptr;
    size_t size = 0, used = 0;
    long allocs = 0, frees = 0;
    static voidpf za(voidpf op, uInt n, uInt sz) {
        Arena *a = (Arena *)op;
        size_t len = ((size_t)n * sz + 63) & ~(size_t)63;
        if (a->used + len > a->size) return Z_NULL;
        void *p = a->base + a->used;
        a->used += len;
        a->allocs++;
        return p;
    }
    static void zf(voidpf op, voidpf p) {
        Arena *a = (Arena *)op;
        if (p) a->frees++;
    }
};

/* every block comes from zalloc: while a stream lives (init, data, flushes,
 * deflateParams(), deflateCopy(), threads) the heap seen by mallinfo2()
 * does not grow, and deflateEnd() returns every block */
TEST(OptimalLevels, MemoryOnlyFromZalloc) {
    NEED_OPTIMAL();
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "built with a sanitizer: malloc() cannot be watched";
#endif
#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    GTEST_SKIP() << "built with a sanitizer: malloc() cannot be watched";
#  endif
#endif
#if !defined(__GLIBC__) || __GLIBC__ < 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 33)
    GTEST_SKIP() << "no mallinfo2() here";
#else
    auto heap = [] {
        struct mallinfo2 mi = mallinfo2();
        return (size_t)mi.uordblks + (size_t)mi.hblkhd;
    };
    {
        static void *volatile keep;     /* not optimised away */
        size_t h0 = heap();
        keep = malloc(1 << 20);
        memset(keep, 1, 1 << 20);
        size_t h1 = heap();
        free(keep);
        keep = nullptr;
        if (h1 < h0 + (1 << 20)) GTEST_SKIP() << "mallinfo2() does not see malloc() here";
    }
    Arena ar;
    ar.size = (size_t)1 << 31;
    void *m = mmap(nullptr, ar.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) GTEST_SKIP() << "cannot map 2 GiB for the arena";
    ar.base = (uint8_t *)m;
    bool thr = probe().fn && probe().threads;
    struct G { int wrap, wb, ml, threads; };
    std::vector<G> geos = {{1, 15, 8, 0}, {0, 9, 1, 0}, {2, 15, 9, 0}};
    if (thr) geos.push_back({1, 15, 8, 3});
    zt::Rng rng(zt::case_seed("opt-memory", 0));
    for (int L : levels())
        for (const G &ge : geos) {
            Case c("MemoryOnlyFromZalloc", L, 0);
            size_t len = ge.threads ? 3 * SEG() : 40000;
            Bytes data = make_data(rng, K_FILES, len);
            Bytes out(len * 2 + 65536), out2(len * 2 + 65536);
            Geo g;
            g.level = L;
            g.wrap = ge.wrap;
            g.wb = ge.wb;
            g.ml = ge.ml;
            c.params = g.str() + (ge.threads ? " threads=3" : "");
            c.data = "files, " + std::to_string(len) + " bytes";
            ar.used = 0;
            ar.allocs = ar.frees = 0;
            z_stream s, cp;
            memset(&s, 0, sizeof s);
            memset(&cp, 0, sizeof cp);
            s.zalloc = Arena::za;
            s.zfree = Arena::zf;
            s.opaque = &ar;
            size_t h0 = heap();
            int rc = ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, g.warg(), g.ml, 0);
            if (rc == Z_OK && ge.threads) rc = TUR->deflateSetThreads(&s, ge.threads);
            s.next_in = data.data();
            s.next_out = out.data();
            s.avail_out = (uInt)out.size();
            s.avail_in = (uInt)(len / 2);
            if (rc == Z_OK) rc = TUR->deflate(&s, Z_SYNC_FLUSH);
            if (rc == Z_OK) rc = TUR->deflateParams(&s, L == 10 ? 12 : 10, Z_DEFAULT_STRATEGY);
            if (rc == Z_OK) rc = TUR->deflateCopy(&cp, &s);
            s.avail_in = (uInt)(len - len / 2);
            if (rc == Z_OK) rc = TUR->deflate(&s, Z_FINISH);
            cp.next_in = data.data() + len / 2;
            cp.avail_in = (uInt)(len - len / 2);
            cp.next_out = out2.data();
            cp.avail_out = (uInt)out2.size();
            int rc2 = rc == Z_STREAM_END ? TUR->deflate(&cp, Z_FINISH) : Z_OK;
            size_t h1 = heap();
            TUR->deflateEnd(&cp);
            TUR->deflateEnd(&s);
            size_t h2 = heap();
            size_t slack = ge.threads ? 65536 * 4 : 4096;
            if (rc != Z_STREAM_END || rc2 != Z_STREAM_END)
                c.fail("the calls failed: " + std::to_string(rc) + " " + std::to_string(rc2));
            else if (h1 > h0 + slack)
                c.fail("the heap grew by " + std::to_string(h1 - h0) + " bytes while the stream lived, with every "
                       "zalloc served from elsewhere (" + std::to_string(ar.allocs) + " blocks, " +
                       std::to_string(ar.used) + " bytes): memory not taken through zalloc");
            else if (ar.frees != ar.allocs)
                c.fail("deflateEnd returned " + std::to_string(ar.frees) + " of " + std::to_string(ar.allocs) +
                       " blocks");
            (void)h2;
            madvise(ar.base, ar.used, MADV_DONTNEED);
            if (stop_all()) break;
        }
    munmap(ar.base, ar.size);
#endif
}

/* Last in the file: a library that crashes on a failed allocation stops
 * the program here, after every other test.  Every allocation of a stream
 * (deflateInit2(), dictionaries, deflate(), deflateParams(), threads)
 * failed in turn: a call returns Z_MEM_ERROR and deflateEnd() frees all,
 * or (threads, which fall back to one) nothing is reported and the bytes
 * are those of the stream that had its memory; deflateCopy() failed in
 * turn: Z_MEM_ERROR, nothing of the copy left, the stream unharmed;
 * deflateParams() from 0-9 to 10-12 before the first deflate();
 * deflatePrepareDictionary() on a level 10-12 stream */
TEST(OptimalLevels, FailingAllocatorLeaksOrBreaks) {
    NEED_OPTIMAL();
    Cases cs("opt-failalloc");
    bool thr = probe().fn && probe().threads;
    struct Shape { int wrap, wb, ml, threads; bool dict; };
    std::vector<Shape> shapes = {{1, 15, 8, 0, false}, {0, 9, 1, 0, true}, {2, 12, 9, 0, false}};
    if (thr) shapes.push_back({1, 15, 8, 3, false});
    if (thr && !big_segments()) shapes.push_back({0, 15, 8, 2, true});
    long idx = 0;
    for (size_t si = 0; si < shapes.size(); si++)
        for (int L : levels()) {
            const Shape &sh = shapes[si];
            long ci = idx++;
            /* quick: one level per shape, in turn */
            if (!zt::full_mode() && L != levels()[si % levels().size()]) continue;
            if (!cs.want(ci) || cs.stop()) continue;
            Case c("FailingAllocatorLeaksOrBreaks", ci, cs.seed(ci));
            zt::Rng rng(c.seed);
            Made m;
            m.p.g.level = L;
            m.p.g.wrap = sh.wrap;
            m.p.g.wb = sh.wb;
            m.p.g.ml = sh.ml;
            m.p.threads = sh.threads;
            size_t len = sh.threads ? 2 * SEG() + 1000 : 20000;
            m.data = make_data(rng, K_FILES, len);
            if (sh.dict) m.set_dict(rng, 5000);
            m.p.ev = {Event{len / 3, EV_FLUSH, Z_SYNC_FLUSH},
                      Event{len / 2, EV_PARAMS, L == levels().back() ? levels()[0] : levels().back(), Z_DEFAULT_STRATEGY}};
            m.p.mem_ok = true;
            c.data = "files, " + std::to_string(len) + " bytes";
            c.params = m.p.str();
            /* count the allocations */
            AllocP al = new_alloc();
            Output ref;
            if (!run_plan(m.p, m.data, one_call(), ref, al)) {
                c.fail("without failures: " + ref.why);
                cs.done(c);
                continue;
            }
            long n = al->calls;
            fprintf(stderr, "[zt] OptimalLevels.FailingAllocatorLeaksOrBreaks: %s: %ld allocations\n",
                    c.params.c_str(), n);
            long reported = 0, silent = 0;
            /* quick, threads: the allocations after deflateInit2's (those
             * are the other shapes'), every other one */
            long k0 = 0, kstep = 1;
            if (sh.threads && !zt::full_mode()) {
                AllocP ai = new_alloc();
                z_stream si_;
                memset(&si_, 0, sizeof si_);
                ai->attach(si_);
                if (ZAPI_DEFLATE_INIT2(TUR, &si_, L, Z_DEFLATED, m.p.g.warg(), m.p.g.ml, 0) == Z_OK)
                    TUR->deflateEnd(&si_);
                k0 = ai->calls;
                kstep = 2;
            }
            for (long k = k0; k < n && !c.failed; k += kstep) {
                AllocP af = new_alloc();
                af->fail_at = k;
                Output r;
                bool ok = run_plan(m.p, m.data, one_call(), r, af);
                if (af->live)
                    c.fail("allocation " + std::to_string(k) + " of " + std::to_string(n) + " failed: " +
                           af->leak_note() + " left after deflateEnd" + (r.mem_error ? " (Z_MEM_ERROR was returned)" : ""));
                else if (!ok && !r.mem_error)
                    c.fail("allocation " + std::to_string(k) + " of " + std::to_string(n) + " failed: " + r.why);
                else if (ok)
                    same_bytes(c, r.out, ref.out, "allocation " + std::to_string(k) + " failed, nothing reported");
                if (r.mem_error) reported++;
                else silent++;
            }
            fprintf(stderr, "[zt]   failed in turn: %ld reported Z_MEM_ERROR, %ld went on\n", reported, silent);
            /* deflateCopy() */
            if (!c.failed) {
                AllocP a2 = new_alloc();
                z_stream s, cp;
                memset(&s, 0, sizeof s);
                a2->attach(s);
                Bytes o1, o2;
                ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, m.p.g.warg(), m.p.g.ml, 0), Z_OK);
                more(TUR, s, m.data, len / 2, o1);
                long before = a2->calls, live = a2->live;
                memset(&cp, 0, sizeof cp);
                int rc = TUR->deflateCopy(&cp, &s);
                long nc = a2->calls - before;
                if (rc == Z_OK) TUR->deflateEnd(&cp);
                for (long k = 0; k < nc && !c.failed; k++) {
                    memset(&cp, 0, sizeof cp);
                    a2->arm(k);
                    rc = TUR->deflateCopy(&cp, &s);
                    a2->disarm();
                    if (rc != Z_MEM_ERROR) {
                        c.fail("deflateCopy with its allocation " + std::to_string(k) + " of " + std::to_string(nc) +
                               " failing returned " + std::to_string(rc));
                        if (rc == Z_OK) TUR->deflateEnd(&cp);
                    } else if (a2->live != live) {
                        c.fail("the failed deflateCopy left " + std::to_string(a2->live - live) + " blocks");
                    }
                }
                if (finish_rest(TUR, s, m.data, o1) != Z_STREAM_END) c.fail("the stream after failed copies ends badly");
                TUR->deflateEnd(&s);
                z_stream f;
                memset(&f, 0, sizeof f);
                ZAPI_DEFLATE_INIT2(TUR, &f, L, Z_DEFLATED, m.p.g.warg(), m.p.g.ml, 0);
                more(TUR, f, m.data, len / 2, o2);
                finish_rest(TUR, f, m.data, o2);
                TUR->deflateEnd(&f);
                same_bytes(c, o1, o2, "the stream after failed deflateCopy calls");
                if (a2->live) c.fail("deflateEnd left " + a2->leak_note());
            }
            /* deflateParams() from 6 to L before the first deflate(), and
             * that deflate(): every allocation after deflateInit2 failed */
            if (!c.failed && !dev_levels()) {
                long np = -1;
                for (long k = -1; k < np || np < 0; k++) {
                    AllocP a3 = new_alloc();
                    z_stream s;
                    memset(&s, 0, sizeof s);
                    a3->attach(s);
                    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, 6, Z_DEFLATED, m.p.g.warg(), m.p.g.ml, 0), Z_OK);
                    long before = a3->calls;
                    if (k >= 0) a3->arm(k);
                    int rc = TUR->deflateParams(&s, L, 0);
                    Bytes o;
                    int rc2 = rc == Z_OK ? finish_all(TUR, s, m.data, o) : Z_OK;
                    bool failed = a3->failed;
                    a3->disarm();
                    if (k < 0) np = a3->calls - before;     /* the first round counts */
                    std::string what = "deflateParams(6 -> " + std::to_string(L) + ") before deflate()" +
                                       (k >= 0 ? ", allocation " + std::to_string(k) + " of " + std::to_string(np) +
                                                 " after deflateInit2 failing" : std::string());
                    if (!failed && (rc != Z_OK || rc2 != Z_STREAM_END))
                        c.fail(what + ": " + std::to_string(rc) + ", then deflate " + std::to_string(rc2));
                    else if (failed && rc != Z_OK && rc != Z_MEM_ERROR)
                        c.fail(what + ": returned " + std::to_string(rc));
                    else if (failed && rc == Z_OK && rc2 != Z_STREAM_END && rc2 != Z_MEM_ERROR)
                        c.fail(what + ": then deflate returned " + std::to_string(rc2));
                    TUR->deflateEnd(&s);
                    if (a3->live) c.fail(what + ": deflateEnd left " + a3->leak_note());
                    if (c.failed) break;
                }
            }
            /* deflatePrepareDictionary() on a level-L stream */
            if (!c.failed && TUR->deflatePrepareDictionary && sh.wrap != 2) {
                Bytes dict = make_data(rng, K_FILES, 20000);
                for (long k = 0; k < 64 && !c.failed; k++) {
                    AllocP a5 = new_alloc();
                    z_stream s;
                    memset(&s, 0, sizeof s);
                    a5->attach(s);
                    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, L, Z_DEFLATED, m.p.g.warg(), m.p.g.ml, 0), Z_OK);
                    long live = a5->live;
                    a5->arm(k);
                    zdict *pd = (zdict *)&s;
                    int rc = TUR->deflatePrepareDictionary(&s, dict.data(), (uInt)dict.size(), &pd);
                    bool failed = a5->failed;
                    a5->disarm();
                    if (rc == Z_OK) {
                        TUR->deflateFreeDictionary(pd);
                        TUR->deflateEnd(&s);
                        if (a5->live) c.fail("deflateFreeDictionary + deflateEnd left " + a5->leak_note());
                        if (!failed) break;         /* every allocation was tried */
                        continue;
                    }
                    if (rc != Z_MEM_ERROR || pd != nullptr || a5->live != live)
                        c.fail("deflatePrepareDictionary on a level-" + std::to_string(L) + " stream with allocation " +
                               std::to_string(k) + " failing returned " + std::to_string(rc) +
                               (pd ? ", *dict not NULL" : "") + ", " + std::to_string(a5->live - live) + " blocks left");
                    TUR->deflateEnd(&s);
                }
            }
            cs.done(c);
        }
    EXPECT_GT(cs.ran, 0);
}

}  /* namespace */
