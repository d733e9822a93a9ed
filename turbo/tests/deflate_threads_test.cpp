/* deflate_threads_test.cpp -- deflateSetThreads() (zturbo.h): deflate() with
 * worker threads must be, call by call, pristine zlib 1.3.2 on one thread.
 *
 * Every case runs pristine zlib ("ref", one thread) and the library under
 * test ("tur", with deflateSetThreads(n)) in lockstep, with the same calls
 * and the same input bytes, and after every call compares the return code,
 * the input consumed (next_in), avail_in, avail_out, the output written
 * (next_out and every byte), total_in, total_out, adler, data_type, msg,
 * deflatePending() (bytes and bits), deflateUsed() and now and then
 * deflateGetDictionary().  What the cases do between and around the calls
 * is what the tests are named after: levels 4-9 and deflateParams() to 0-9
 * and back, every strategy, 2-16 and 64 threads, windowBits 9-15 with raw,
 * zlib and gzip wrappers, memLevel 1-9, input and output sliced down to one
 * byte, every flush, deflateTune(), dictionaries (deflateSetDictionary() and
 * prepared ones), deflatePrime(), deflateCopy() (both streams continued),
 * deflateReset(), deflateEnd() in the middle, deflateSetThreads() between
 * calls, input moved to another buffer (the old one freed) or overwritten
 * where it was not consumed yet, data on which the jobs' parses do not fall
 * into step (runs, zeros, short periods: exact reruns), a failing allocator
 * and an allocator that must only ever be called from the caller's thread.
 *
 * Threads are used only by a deflate() call given enough input: two of the
 * shortest segments, 64 KiB in the default build.  That threshold is
 * measured at run time (probe(): the least input of one call that starts
 * worker threads, seen in /proc/self/task), and case sizes are counted in
 * units of four times it (SEG(), the library's longest segment), so the
 * default build runs a few cases of 128-600 KiB per test and a build with
 * small segments (tools/check/threads-small-segments.sh:
 * TUR_CFLAGS=-DZT_SEG_BITS=10, threads from 512 bytes at level 6, jobs
 * shorter than MIN_LOOKAHEAD at levels 6-9) runs hundreds of small ones.  ZT_SEG_BITS in the environment states the segments the build is
 * expected to have (DeflateThreads.ThreadsNeverStart fails if it has
 * others; without it, it checks zturbo.h's 128 KiB at level 6).  Each test also counts
 * the cases in which worker threads really started, and fails if none did:
 * a threaded test that never runs threads cannot fail.
 *
 * A library without deflateSetThreads() (pristine zlib in the harness
 * self-test) skips every test; one built without threads (--no-threads)
 * runs only DeflateThreads.RejectsBadArguments, which checks that it refuses
 * more than one thread.  ZT_MODE=full runs ten times the cases;
 * ZT_CASE_SCALE=P runs P percent of them (small-segment builds only: the
 * ThreadSanitizer step runs a quarter). */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zt_harness.h"

namespace {

using zt::REF;
using zt::TUR;
using Bytes = std::vector<uint8_t>;
typedef struct z_dict_s zdict;

/* ---- worker threads, seen from outside (zt_harness.h) ---------------------- */
using zt::task_count;
using zt::tasks_settle;
using zt::tasks_now;

/* ---- what the library under test can do ---------------------------------- */
struct Probe {
    bool fn = false;            /* TUR has deflateSetThreads() */
    bool threads = false;       /* and it accepts 2 threads */
    bool visible = false;       /* /proc/self/task can be read */
    size_t from = 65536;        /* the least input of a call that starts threads */
    bool found = false;         /* threads were seen to start (from is measured) */
    std::string note;
};

/* one stream, level 6, n threads, one deflate(Z_NO_FLUSH) of len bytes of
 * text: did worker threads start? */
bool starts_threads(size_t len, int n = 2) {
    zt::Rng rng(len);
    Bytes in = zt::generate(rng, zt::GEN_TEXT, len);
    Bytes out(len + len / 8 + 1024);
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(TUR, &s, 6, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return false;
    int before = task_count();
    bool started = false;
    if (TUR->deflateSetThreads(&s, n) == Z_OK) {
        s.next_in = in.data();
        s.avail_in = (uInt)in.size();
        s.next_out = out.data();
        s.avail_out = (uInt)out.size();
        TUR->deflate(&s, Z_NO_FLUSH);
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
    p.fn = TUR->deflateSetThreads != nullptr;
    if (!p.fn) {
        p.note = "the library under test has no deflateSetThreads()";
        return p;
    }
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(TUR, &s, 6, Z_DEFLATED, 15, 8, 0) == Z_OK) {
        p.threads = TUR->deflateSetThreads(&s, 2) == Z_OK;
        TUR->deflateEnd(&s);
    }
    if (!p.threads) {
        p.note = "the library under test was built without threads "
                 "(deflateSetThreads(strm, 2) is refused)";
        return p;
    }
    p.visible = task_count() > 0;
    const char *e = getenv("ZT_SEG_BITS");
    if (!p.visible) {
        if (e && *e) p.from = (size_t)1 << (atoi(e) - 2);
        p.note = "/proc/self/task cannot be read: whether threads start is "
                 "not checked; assumed from " + std::to_string(p.from) + " bytes";
        return p;
    }
    /* the first power of two that starts threads, then the least length */
    size_t hi = 0;
    for (int b = 6; b <= 22 && !hi; b++)
        if (starts_threads((size_t)1 << b)) hi = (size_t)1 << b;
    if (hi) {
        size_t lo = hi / 2;         /* does not start them (or is 32) */
        while (lo + 1 < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (starts_threads(mid)) hi = mid; else lo = mid;
        }
        p.from = hi;
        p.found = true;
    }
    p.note = p.found ? "worker threads start from " + std::to_string(p.from) +
                           " bytes of input per call"
                     : "worker threads never started, even with 4 MiB of input";
    fprintf(stderr, "[zt] DeflateThreads: %s\n", p.note.c_str());
    return p;
}

/* The unit of case sizes: twice the least input that starts threads at
 * level 6.  The library starts threads there at two of its shortest
 * level-6 segments, a quarter of its longest (ZT_SEG), so this is ZT_SEG as
 * the library is written now; nothing but the sizes of the cases depends
 * on that. */
size_t SEG() {
    /* the power of two at or below `from` (threads start a few bytes
     * later than two segments where those are short: the second job needs
     * MIN_LOOKAHEAD bytes after the first) */
    size_t p = 1;
    while (2 * p <= probe().from) p *= 2;
    return 2 * p;
}
/* a build where every threaded case is big (the default: threads from
 * 64 KiB): the tests then run a few cases each */
bool big_segments() { return probe().from > 8192; }

/* skips a test that cannot run here: no threads in the library, or so
 * many differences already (zt::too_many_failures()) that the suite stops
 * running cases -- a test that ran none is reported as skipped, not passed */
#define NEED_THREADS()                                                   \
    do {                                                                 \
        const Probe &p_ = probe();                                       \
        ZT_NEED("threads", p_.fn && p_.threads, p_.note);                \
        if (zt::too_many_failures())                                     \
            GTEST_SKIP() << "not run: too many differences reported already"; \
    } while (0)

/* ---- an allocator that counts, fails on demand and notes its callers ----- */
using Alloc = zt::CountingAlloc;

/* ---- test data ------------------------------------------------------------ */
/* zt::make_data() with this file's settings: K_PERIOD without noise or with
 * sparse noise (a changed byte every 500 to 100000 bytes on average), so that
 * the lazy parse of a job never converges with the parse of one stream; the
 * parts of K_MIXED up to 2 segments, so that a job's input changes kind */
using namespace zt::data_kinds;
using zt::kind_name;

Bytes make_data(zt::Rng &rng, int kind, size_t len) {
    zt::DataSettings ds;
    ds.zeros_pct = 50;
    ds.noise_min = 500;
    ds.noise_max = 100000;
    ds.mixed_part = 2 * SEG();
    ds.pool_size = 2u << 20;
    return zt::make_data(rng, kind, len, ds);
}

/* ---- the lockstep pair ---------------------------------------------------- */

struct Stats {
    long cases = 0, engaged = 0, calls = 0, failed = 0;
    /* a test stops after 3 failing cases (the suite after 25 differences) */
    bool stop() const { return failed >= 3 || zt::too_many_failures(); }
    std::string summary(const char *test) const {
        std::ostringstream o;
        o << "[zt] DeflateThreads." << test << ": " << cases << " cases, "
          << engaged << " with worker threads started, " << calls << " calls";
        return o.str();
    }
};

struct Side {
    const zapi *A;
    z_stream s;
    std::shared_ptr<Alloc> al;
    Bytes out;
    size_t have = 0;            /* output bytes written so far */
    bool open = false;
    const uint8_t *given = nullptr;     /* next_in as given to the last call */
};

/* Everything the random driver may do; percentages are per deflate() call. */
struct Plan {
    /* input of a call: the rest of it, two segments or more, up to one
     * segment, or 1-4 bytes (in this proportion) */
    int in_rest = 50, in_big = 30, in_medium = 15, in_tiny = 5;
    /* output room of a call: all that can come, up to 2 segments (at most
     * 64 KiB), up to 64 bytes, one byte, none */
    int out_big = 30, out_medium = 45, out_small = 15, out_one = 5, out_zero = 5;
    int flush_pct = 0;          /* a flush other than Z_NO_FLUSH */
    int params_pct = 0;         /* deflateParams() before the call */
    int params_slow_only = 0;   /* 1: deflateParams() only among levels 4-9 */
    int tune_pct = 0;           /* deflateTune() */
    int threads_pct = 0;        /* deflateSetThreads() with another count */
    int copy_pct = 0;           /* deflateCopy(), the copy run to its end */
    int dict_pct = 0;           /* deflateSetDictionary() (raw: allowed after
                                   a flush that took all input) */
    int prime_pct = 0;          /* deflatePrime() (only with nothing pending) */
    int modify_pct = 0;         /* after a call that filled the output and left
                                   input: change bytes not consumed yet */
    int scribble_pct = 0;       /* overwrite input already consumed */
    int move_pct = 0;           /* tur reads from a fresh copy, freed after */
    int end_pct = 0;            /* deflateEnd() in the middle, case over */
    int reset_pct = 0;          /* deflateReset() and the data again */
    int resetkeep_pct = 0;      /* deflateResetKeep() and the data again */
    int getdict_pct = 3;        /* compare deflateGetDictionary() */
    bool prepared = false;      /* dictionaries: deflateUseDictionary() on tur */
    std::vector<int> thread_counts = {2, 3, 4};
};

int wbits_arg(int wb, int wrap) { return wrap == 0 ? -wb : wrap == 2 ? wb + 16 : wb; }

struct Cfg {
    int level = 6, wb = 15, wrap = 1, memLevel = 8, strategy = Z_DEFAULT_STRATEGY;
    int threads = 2;
    int kind = K_TEXT;
    size_t len = 0;
    size_t dict = 0;            /* dictionary at the start (not gzip) */
    bool gzhead = false;        /* deflateSetHeader() (gzip only) */
    int prime_bits = 0;         /* deflatePrime() at the start */
    std::string str() const {
        static const char *st[] = {"default", "filtered", "huffman", "rle", "fixed"};
        std::ostringstream o;
        o << "level=" << level << " windowBits=" << wbits_arg(wb, wrap) << "("
          << (wrap == 0 ? "raw" : wrap == 1 ? "zlib" : "gzip") << ") memLevel="
          << memLevel << " strategy=" << st[strategy] << " threads=" << threads;
        if (dict) o << " dict=" << dict;
        if (gzhead) o << " gzheader";
        if (prime_bits) o << " prime=" << prime_bits;
        return o.str();
    }
};

class Pair {
public:
    zt::Ctx &ctx;
    Side d[2];
    Bytes data;                 /* the input, as both are given it */
    size_t pos = 0;             /* bytes of data consumed */
    size_t checked = 0;         /* output compared so far */
    int rc = Z_OK;              /* last return code (ref's) */
    int threads = 0;            /* set on tur */
    int tasks0 = -1;            /* threads of the process before this case */
    bool engaged = false;       /* worker threads were seen */
    zdict *pd = nullptr;        /* tur's prepared dictionary */
    long *calls_stat = nullptr;

    Pair(zt::Ctx &c, std::shared_ptr<Alloc> ar, std::shared_ptr<Alloc> at) : ctx(c) {
        d[0].A = REF;
        d[1].A = TUR;
        d[0].al = ar;
        d[1].al = at;
        for (auto &x : d) memset(&x.s, 0, sizeof x.s);
        tasks0 = tasks_now();
    }
    Pair(const Pair &) = delete;
    Pair &operator=(const Pair &) = delete;
    ~Pair() {
        end_quiet();
        if (pd) TUR->deflateFreeDictionary(pd);
    }

    std::vector<std::string> trail;     /* the last calls, for the report */
    void log(const std::string &fn, size_t nin = 0, size_t nout = 0, bool io = false) {
        std::string e = fn;
        if (io) e += " in=" + std::to_string(nin) + "@" + std::to_string(pos) + " out=" + std::to_string(nout);
        if (trail.size() >= 12) trail.erase(trail.begin());
        trail.push_back(e);
    }
    bool bad(const std::string &what) {
        std::string t;
        for (auto &e : trail) t += "\n            " + e;
        return ctx.mismatch(what + "\n  last calls (call #" + std::to_string(ctx.call) +
                            " last):" + t);
    }

    template <class T> bool eq(const char *what, T a, T b) {
        if (a == b) return true;
        std::ostringstream o;
        o << what << ": ref=" << a << " tur=" << b;
        return bad(o.str());
    }

    /* what a caller sees after a call */
    bool compare() {
        if (!d[0].open || !d[1].open) return true;
        const z_stream &a = d[0].s, &b = d[1].s;
        long ia = d[0].given ? (long)(a.next_in - d[0].given) : 0;
        long ib = d[1].given ? (long)(b.next_in - d[1].given) : 0;
        if (!(eq("input consumed (next_in)", ia, ib) &&
              eq("avail_in", a.avail_in, b.avail_in) &&
              eq("avail_out", a.avail_out, b.avail_out) &&
              eq("next_out", (long)(a.next_out - d[0].out.data()),
                 (long)(b.next_out - d[1].out.data())) &&
              eq("total_in", a.total_in, b.total_in) &&
              eq("total_out", a.total_out, b.total_out) &&
              eq("adler", a.adler, b.adler) &&
              eq("data_type", a.data_type, b.data_type)))
            return false;
        if (!zt::same_msg(a.msg, b.msg))
            return bad("msg: ref=" + zt::show_msg(a.msg) + " tur=" + zt::show_msg(b.msg));
        for (auto &x : d) x.have = (size_t)(x.s.next_out - x.out.data());
        if (d[0].have > checked &&
            memcmp(d[0].out.data() + checked, d[1].out.data() + checked,
                   d[0].have - checked) != 0) {
            size_t i = checked;
            while (d[0].out[i] == d[1].out[i]) i++;
            size_t k = std::min<size_t>(16, d[0].have - i);
            return bad("output bytes differ at offset " + std::to_string(i) + ": ref " +
                       zt::hex(&d[0].out[i], k) + " tur " + zt::hex(&d[1].out[i], k));
        }
        checked = d[0].have;
        unsigned p[2];
        int bits[2], r[2], u[2], ru[2];
        for (int i = 0; i < 2; i++) {
            r[i] = d[i].A->deflatePending(&d[i].s, &p[i], &bits[i]);
            ru[i] = d[i].A->deflateUsed(&d[i].s, &u[i]);
        }
        return eq("deflatePending rc", r[0], r[1]) &&
               eq("deflatePending pending", p[0], p[1]) &&
               eq("deflatePending bits", bits[0], bits[1]) &&
               eq("deflateUsed rc", ru[0], ru[1]) && eq("deflateUsed bits", u[0], u[1]);
    }

    bool compare_dictionary() {
        Bytes w[2];
        uInt len[2];
        int r[2];
        for (int i = 0; i < 2; i++) {
            w[i].assign(32768, 0);
            len[i] = 0;
            r[i] = d[i].A->deflateGetDictionary(&d[i].s, w[i].data(), &len[i]);
        }
        ctx.fn = "deflateGetDictionary";
        return eq("deflateGetDictionary rc", r[0], r[1]) &&
               eq("deflateGetDictionary length", len[0], len[1]) &&
               (w[0] == w[1] || bad("deflateGetDictionary bytes"));
    }

    /* worker threads started (seen once, kept) */
    void note_tasks() {
        if (engaged || tasks0 < 0) return;
        if (task_count() > tasks0) engaged = true;
    }

    /* runs f on ref, then on tur; compares */
    template <class F> bool both(const std::string &fn, F f, bool may_alloc = false,
                                 bool logged = false) {
        ctx.call++;
        ctx.fn = fn;
        if (!logged) log(fn);
        if (calls_stat) (*calls_stat)++;
        long c1 = d[1].al->calls;
        int r0 = f(d[0]);
        int r1 = f(d[1]);
        rc = r0;
        if (!may_alloc && d[1].al->calls != c1)
            return bad(std::string("tur called zalloc ") + std::to_string(d[1].al->calls - c1) +
                       " times in " + fn + " (threads allocate only in deflateSetThreads() "
                       "and deflate())");
        if (d[1].al->foreign)
            return bad("tur called zalloc/zfree from another thread than the caller's");
        if (r0 != r1) {
            std::ostringstream o;
            o << "return code: ref=" << r0 << " tur=" << r1 << " (ref msg "
              << zt::show_msg(d[0].s.msg) << ", tur msg " << zt::show_msg(d[1].s.msg) << ")";
            return bad(o.str());
        }
        return compare();
    }

    bool init(const Cfg &c) {
        for (auto &x : d) x.al->attach(x.s);
        bool ok = both("deflateInit2_", [&](Side &x) {
            int r = ZAPI_DEFLATE_INIT2(x.A, &x.s, c.level, Z_DEFLATED, wbits_arg(c.wb, c.wrap),
                                       c.memLevel, c.strategy);
            x.open = r == Z_OK;
            return r;
        }, true);
        return ok && rc == Z_OK;
    }

    /* tur only: expects `want` */
    bool set_threads(int n, int want = Z_OK) {
        note_tasks();
        ctx.call++;
        ctx.fn = "deflateSetThreads(" + std::to_string(n) + ")";
        log(ctx.fn);
        int r = TUR->deflateSetThreads(&d[1].s, n);
        if (d[1].al->foreign) return bad("deflateSetThreads: zalloc/zfree on another thread");
        if (r != want)
            return bad("deflateSetThreads returned " + std::to_string(r) + ", not " +
                       std::to_string(want));
        if (r == Z_OK) threads = n;
        return compare();
    }

    /* room for nout more output bytes on both sides */
    void room(size_t nout) {
        for (auto &x : d) {
            if (x.out.size() < x.have + nout + 1) x.out.resize(x.have + nout + 1);
            x.s.next_out = x.out.data() + x.have;
            x.s.avail_out = (uInt)nout;
        }
    }

    /* one call with nin input bytes from pos, nout of output room; tur's
     * input from a fresh heap copy when moved (freed right after) */
    template <class F> bool call(const std::string &fn, size_t nin, size_t nout, bool moved,
                                 F f) {
        nin = std::min(nin, data.size() - pos);
        log(fn + (moved ? " (input moved)" : ""), nin, nout, true);
        room(nout);
        static const uint8_t none[1] = {0};
        uint8_t *copy = nullptr;
        d[0].given = data.empty() ? none : data.data() + pos;
        if (moved) {
            copy = (uint8_t *)malloc(nin + 1);
            if (nin) memcpy(copy, data.data() + pos, nin);
            d[1].given = copy;
        } else {
            d[1].given = d[0].given;
        }
        for (auto &x : d) {
            x.s.next_in = const_cast<Bytef *>(x.given);
            x.s.avail_in = (uInt)nin;
        }
        /* deflate() (also inside deflateParams()) allocates the job
         * buffers at its first session */
        bool ok = both(fn, f, true, true);
        pos += (size_t)(d[0].s.next_in - d[0].given);
        /* zlib keeps no pointer to the input between calls, tur copies */
        for (auto &x : d) {
            x.s.next_in = nullptr;
            x.s.avail_in = 0;
            x.given = nullptr;
        }
        free(copy);
        return ok;
    }

    bool deflate(size_t nin, size_t nout, int flush, bool moved = false) {
        static const char *names[] = {"deflate(Z_NO_FLUSH)", "deflate(Z_PARTIAL_FLUSH)",
                                      "deflate(Z_SYNC_FLUSH)", "deflate(Z_FULL_FLUSH)",
                                      "deflate(Z_FINISH)", "deflate(Z_BLOCK)"};
        return call(names[flush], nin, nout, moved,
                    [&](Side &x) { return x.A->deflate(&x.s, flush); });
    }

    bool params(int level, int strategy, size_t nin, size_t nout, bool moved) {
        std::string fn = "deflateParams(" + std::to_string(level) + ", " +
                         std::to_string(strategy) + ")";
        return call(fn, nin, nout, moved,
                    [&](Side &x) { return x.A->deflateParams(&x.s, level, strategy); });
    }

    bool tune(int g, int l, int n, int c) {
        return both("deflateTune(" + std::to_string(g) + ", " + std::to_string(l) + ", " +
                        std::to_string(n) + ", " + std::to_string(c) + ")", [&](Side &x) { return x.A->deflateTune(&x.s, g, l, n, c); });
    }

    bool prime(int bits, int value) {
        return both("deflatePrime(" + std::to_string(bits) + ", " + std::to_string(value) + ")",
                    [&](Side &x) { return x.A->deflatePrime(&x.s, bits, value); });
    }

    /* ref: deflateSetDictionary(); tur: the same, or deflateUseDictionary()
     * with an object prepared from these bytes */
    bool dictionary(const Bytes &dict, bool prepared) {
        if (prepared) {
            if (pd) TUR->deflateFreeDictionary(pd);
            pd = nullptr;
            z_stream p;
            memset(&p, 0, sizeof p);
            /* an object for this stream's geometry (other levels, same
             * windowBits and memLevel): the fast path where it applies */
            deflate_state_geometry(&p);
            int r = TUR->deflatePrepareDictionary(&p, dict.data(), (uInt)dict.size(), &pd);
            TUR->deflateEnd(&p);
            if (r != Z_OK) return bad("deflatePrepareDictionary failed: " + std::to_string(r));
        }
        return both(std::string(prepared ? "deflateSetDictionary/deflateUseDictionary"
                                         : "deflateSetDictionary") +
                        " (" + std::to_string(dict.size()) + " bytes)",
                    [&](Side &x) {
                        if (prepared && x.A == TUR) return TUR->deflateUseDictionary(&x.s, pd);
                        return x.A->deflateSetDictionary(&x.s, dict.data(), (uInt)dict.size());
                    }) && compare_dictionary();
    }
    /* set by the case: the raw windowBits argument and memLevel of the
     * stream, for the prepared dictionary's stream */
    int geo_wbits = 15, geo_memlevel = 8;
    void deflate_state_geometry(z_stream *p) {
        int wb = geo_wbits > 15 ? geo_wbits - 16 : geo_wbits;  /* gzip: as zlib */
        ZAPI_DEFLATE_INIT2(TUR, p, 1, Z_DEFLATED, wb, geo_memlevel, Z_DEFAULT_STRATEGY);
    }

    bool header(gz_header *h) {
        return both("deflateSetHeader", [&](Side &x) { return x.A->deflateSetHeader(&x.s, h); });
    }

    bool reset(bool keep) {
        note_tasks();
        for (auto &x : d) x.have = 0;
        checked = 0;
        room(0);
        pos = 0;
        return both(keep ? "deflateResetKeep" : "deflateReset", [&](Side &x) {
            return keep ? x.A->deflateResetKeep(&x.s) : x.A->deflateReset(&x.s);
        });
    }

    /* deflateEnd on both, compared; afterwards no block may be left and no
     * worker thread may be running (the threads of this stream's copies
     * are ended by their own Pairs first) */
    bool end() {
        note_tasks();
        ctx.call++;
        ctx.fn = "deflateEnd";
        int r[2] = {Z_OK, Z_OK};
        for (int i = 0; i < 2; i++)
            if (d[i].open) {
                r[i] = d[i].A->deflateEnd(&d[i].s);
                d[i].open = false;
            }
        if (d[1].al->foreign) return bad("deflateEnd: zalloc/zfree on another thread");
        return eq("deflateEnd rc", r[0], r[1]);
    }
    void end_quiet() {
        for (auto &x : d)
            if (x.open) {
                x.A->deflateEnd(&x.s);
                x.open = false;
            }
    }
};

/* ---- the random driver ---------------------------------------------------- */

size_t pick_in(zt::Rng &rng, const Plan &p, size_t left) {
    uint32_t r = rng.below((uint32_t)(p.in_rest + p.in_big + p.in_medium + p.in_tiny));
    size_t seg = SEG();
    if (r < (uint32_t)p.in_rest) return left;
    r -= p.in_rest;
    if (r < (uint32_t)p.in_big) return rng.range(2 * seg, 2 * seg + rng.range(0, 6 * seg));
    r -= p.in_big;
    if (r < (uint32_t)p.in_medium) return rng.range(1, seg);
    return rng.range(1, 4);
}

size_t pick_out(zt::Rng &rng, const Plan &p, size_t left) {
    uint32_t r = rng.below((uint32_t)(p.out_big + p.out_medium + p.out_small + p.out_one +
                                      p.out_zero));
    if (r < (uint32_t)p.out_big) return left + left / 8 + 4096;
    r -= p.out_big;
    if (r < (uint32_t)p.out_medium) return rng.range(1, std::min<size_t>(2 * SEG(), 65536));
    r -= p.out_medium;
    if (r < (uint32_t)p.out_small) return rng.range(1, 64);
    r -= p.out_small;
    if (r < (uint32_t)p.out_one) return 1;
    return 0;
}

int pick_threads(zt::Rng &rng, const Plan &p) {
    return p.thread_counts[rng.below((uint32_t)p.thread_counts.size())];
}

/* changes bytes of the input that were given but not consumed (or not
 * given yet), the same for both libraries */
void overwrite_ahead(zt::Rng &rng, Pair &P, size_t given_left) {
    size_t from = P.pos, n = P.data.size() - from;
    if (n == 0) return;
    size_t span = given_left && rng.chance(80) ? given_left : n;
    size_t near = std::min(span, 4 * SEG() + 600);
    size_t off = from + (rng.chance(60) ? rng.range(0, near - 1) : rng.range(0, span - 1));
    size_t len = std::min(P.data.size() - off, rng.chance(50) ? rng.range(1, 8) : rng.range(1, 2000));
    switch (rng.below(4)) {
    case 0:                     /* a byte changed */
        P.data[off] ^= (uint8_t)(1 + rng.below(255));
        break;
    case 1:                     /* random bytes */
        for (size_t i = 0; i < len; i++) P.data[off + i] = (uint8_t)rng.next();
        break;
    case 2: {                   /* bytes from elsewhere in the data */
        size_t src = rng.range(0, P.data.size() - len);
        memmove(&P.data[off], &P.data[src], len);
        break;
    }
    default:                    /* zeros */
        memset(&P.data[off], 0, len);
        break;
    }
}

/* deflateSetDictionary() calls between deflate() calls that were accepted */
long g_mid_dict_ok = 0;

/* ends the case's stream through deflate() calls as the plan says, with the
 * plan's calls in between.  Returns false on a difference. */
bool drive(Pair &P, const Cfg &c, const Plan &p, zt::Rng &rng, int depth = 0);

/* deflateCopy() of both, the copies run to their end, compared */
bool copy_and_run(Pair &P, const Cfg &c, const Plan &p, zt::Rng &rng) {
    Pair C(P.ctx, P.d[0].al, P.d[1].al);
    C.data = P.data;
    C.pos = P.pos;
    C.geo_wbits = P.geo_wbits;
    C.geo_memlevel = P.geo_memlevel;
    C.calls_stat = P.calls_stat;
    C.tasks0 = -1;              /* P's threads are running */
    int before = task_count();
    if (!C.both("deflateCopy", [&](Side &x) {
            int i = x.A == REF ? 0 : 1;
            int r = x.A->deflateCopy(&x.s, &P.d[i].s);
            x.open = r == Z_OK;
            /* next_out points into P's buffer: the copy writes to its own */
            x.out.resize(1);
            x.s.next_out = x.out.data();
            x.s.avail_out = 0;
            return r;
        }, true))
        return false;
    if (C.rc != Z_OK) return true;
    /* the copy has one thread: a big call on it starts none */
    if (!C.deflate(4 * SEG(), 4 * SEG() + 4096, Z_NO_FLUSH)) return false;
    if (before >= 0 && task_count() > before)
        return C.bad("deflateCopy: the copy started worker threads without deflateSetThreads()");
    if (rng.chance(60) && !C.set_threads(pick_threads(rng, p))) return false;
    Plan q = p;
    q.copy_pct = 0;
    q.end_pct = 0;
    if (!drive(C, c, q, rng, 1)) return false;
    return C.end();
}

bool drive(Pair &P, const Cfg &c, const Plan &p, zt::Rng &rng, int depth) {
    const long max_calls = 8 * (long)P.data.size() + 20000;
    bool finishing = false;
    int resets = 0;
    for (long n = 0; n < max_calls; n++) {
        if (zt::too_many_failures()) return false;
        size_t left = P.data.size() - P.pos;
        size_t nin = pick_in(rng, p, left);
        size_t nout = pick_out(rng, p, left);
        if (n == 0 && depth == 0 && big_segments()) {
            /* few cases: make sure the first call can start threads */
            nin = std::max(nin, std::min(left, 2 * SEG() + rng.range(0, SEG())));
            nout = std::max<size_t>(nout, rng.range(1, 2 * SEG()));
        }
        bool moved = rng.chance((unsigned)p.move_pct);
        int flush = Z_NO_FLUSH;
        /* all the input given: Z_FINISH, or not yet */
        if (finishing || left == 0 || (nin >= left && rng.chance(40))) flush = Z_FINISH;
        /* after Z_FINISH zlib wants the rest of the input at every call */
        if (flush == Z_FINISH) nin = left;
        else if (rng.chance((unsigned)p.flush_pct)) {
            static const int f[] = {Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_BLOCK};
            flush = f[rng.below(4)];
        }
        if (!finishing) {
            /* calls between deflate() calls */
            if (rng.chance((unsigned)p.end_pct) && depth == 0 && n > 0) {
                P.note_tasks();
                return P.end();
            }
            if (rng.chance((unsigned)p.threads_pct) &&
                !P.set_threads(rng.chance(25) ? (int)rng.below(2) : pick_threads(rng, p)))
                return false;
            if (rng.chance((unsigned)p.params_pct)) {
                int lv = p.params_slow_only ? 4 + (int)rng.below(6) : (int)rng.below(10);
                int st = rng.chance(50) ? c.strategy : (int)rng.below(5);
                if (!P.params(lv, st, nin, pick_out(rng, p, left), moved)) return false;
                left = P.data.size() - P.pos;
                nin = std::min(nin, left);
                if (flush == Z_FINISH && nin < left) flush = Z_NO_FLUSH;
            }
            if (rng.chance((unsigned)p.tune_pct)) {
                int g = (int)rng.range(0, 258), l = (int)rng.range(0, 258),
                    nm = (int)rng.range(0, 258), ch = (int)rng.range(0, 4096);
                if (rng.chance(30)) ch = (int)rng.range(1, 8);
                if (!P.tune(g, l, nm, ch)) return false;
            }
            if (rng.chance((unsigned)p.dict_pct)) {
                Bytes dict = make_data(rng, rng.chance(50) ? K_FILES : (int)rng.below(K_KINDS),
                                       rng.chance(30) ? rng.range(1, 300) : rng.range(1, 40000));
                if (!P.dictionary(dict, p.prepared && rng.chance(70))) return false;
                if (P.rc == Z_OK) g_mid_dict_ok++;
            }
            if (rng.chance((unsigned)p.prime_pct)) {
                unsigned pend = 1;
                int bits = 0;
                REF->deflatePending(&P.d[0].s, &pend, &bits);
                if (pend == 0 && !P.prime((int)rng.range(1, 16), (int)rng.below(65536)))
                    return false;
            }
            if (depth == 0 && rng.chance((unsigned)p.copy_pct) && !copy_and_run(P, c, p, rng))
                return false;
            if (rng.chance((unsigned)p.scribble_pct) && P.pos) {
                size_t a = rng.range(0, P.pos - 1);
                memset(P.data.data() + a, 0xEE,
                       1 + rng.below((uint32_t)std::min<size_t>(P.pos - a, 4096)));
            }
        }
        finishing = flush == Z_FINISH;
        size_t before = P.pos;
        if (!P.deflate(nin, nout, flush, moved)) return false;
        size_t left_in = std::min(nin, P.data.size() - before) - (P.pos - before);
        if (P.rc == Z_STREAM_END) {
            if (rng.chance((unsigned)(p.reset_pct + p.resetkeep_pct)) && resets < 3) {
                resets++;
                bool keep = rng.below((unsigned)(p.reset_pct + p.resetkeep_pct)) <
                            (unsigned)p.resetkeep_pct;
                if (!P.reset(keep)) return false;
                finishing = false;
                continue;
            }
            return true;
        }
        if (P.rc != Z_OK && P.rc != Z_BUF_ERROR) return true;     /* both the same */
        if (rng.chance((unsigned)p.getdict_pct) && !P.compare_dictionary()) return false;
        /* output full, input left: the threads may be working ahead on it */
        if (P.d[0].s.avail_out == 0 && rng.chance((unsigned)p.modify_pct))
            overwrite_ahead(rng, P, left_in);
        /* a reset in the middle (a quarter as often as after the end) */
        if (!finishing && rng.chance((unsigned)(p.reset_pct + p.resetkeep_pct) / 4) &&
            resets < 3) {
            resets++;
            bool keep = rng.below((unsigned)(p.reset_pct + p.resetkeep_pct)) <
                        (unsigned)p.resetkeep_pct;
            if (!P.reset(keep)) return false;
        }
    }
    return P.bad("the stream did not end after " + std::to_string(max_calls) + " calls");
}

/* One whole case: init, threads, what comes first (header, dictionary,
 * prime), the driver, deflateEnd, then the checks that nothing is left. */
bool run_case(const char *test, uint64_t seed, const Cfg &c, const Plan &p, Stats &st,
              zt::Rng &rng) {
    zt::Ctx ctx;
    ctx.test = std::string("DeflateThreads.") + test;
    ctx.seed = seed;
    ctx.params = c.str();
    auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
    bool ok;
    {
        Pair P(ctx, ar, at);
        P.calls_stat = &st.calls;
        P.geo_wbits = wbits_arg(c.wb, c.wrap);
        P.geo_memlevel = c.memLevel;
        P.data = make_data(rng, c.kind, c.len);
        ctx.data = std::string(kind_name(c.kind)) + "+" + std::to_string(c.len);
        ok = P.init(c);
        if (ok && c.threads != 1) ok = P.set_threads(c.threads);
        gz_header h;
        memset(&h, 0, sizeof h);
        std::string hname = "threads.txt";
        if (ok && c.gzhead && c.wrap == 2) {
            h.name = (Bytef *)hname.c_str();
            h.time = 12345;
            h.hcrc = 1;
            ok = P.header(&h);
        }
        if (ok && c.dict && c.wrap != 2) {
            Bytes dict = make_data(rng, rng.chance(70) ? K_FILES : c.kind, c.dict);
            ok = P.dictionary(dict, p.prepared);
        }
        if (ok && c.prime_bits) ok = P.prime(c.prime_bits, (int)rng.below(65536));
        if (ok) ok = drive(P, c, p, rng);
        P.note_tasks();
        if (ok && P.d[0].open) ok = P.end();
        P.end_quiet();
        st.cases++;
        if (P.engaged) st.engaged++;
        if (ok && at->live != 0)
            ok = P.bad("tur left " + std::to_string(at->live) + " blocks allocated after deflateEnd()");
        if (ok && at->foreign)
            ok = P.bad("tur's zalloc/zfree were called from a thread other than the caller's");
        if (ok && P.tasks0 >= 0 && tasks_settle(P.tasks0) > P.tasks0)
            ok = P.bad("worker threads still running after deflateEnd()");
    }
    if (!ok) st.failed++;
    return ok;
}

/* case length in segments, within a test's budget; at least 2 segments and
 * a little more, so that a call can start threads */
size_t case_len(zt::Rng &rng, size_t min_segs, size_t max_segs) {
    size_t seg = SEG();
    if (big_segments())         /* 2 to 9 times what starts threads */
        return rng.range(seg / 2, 2 * seg) + rng.range(0, seg / 4);
    return rng.range(min_segs * seg, max_segs * seg) + rng.range(0, seg);
}

/* how many cases a test runs: by_mode(quick, full) in a small-segment
 * build, scaled by ZT_CASE_SCALE percent (the ThreadSanitizer step runs a
 * fraction), a few in the default build (each case is then 128 KiB or more) */
long cases_for(long quick, long full, long big_quick = 1, long big_full = 4) {
    if (big_segments()) return 2 * zt::by_mode(big_quick, big_full);
    static long scale = [] {
        const char *e = getenv("ZT_CASE_SCALE");
        long v = e && *e ? atol(e) : 100;
        return v > 0 ? v : 100;
    }();
    return std::max(1L, zt::by_mode(quick, full) * scale / 100);
}

Cfg random_cfg(zt::Rng &rng, const Plan &p) {
    Cfg c;
    c.level = 4 + (int)rng.below(6);
    /* half the time the small windows and memLevels, where a window is a
     * few segments of the small-segment builds and blocks end often */
    /* windowBits 10 and up: with 9 (a 512-byte window) threads are not used */
    c.wb = rng.chance(50) ? 10 + (int)rng.below(2) : 10 + (int)rng.below(6);
    c.wrap = (int)rng.below(3);
    c.memLevel = rng.chance(50) ? 1 + (int)rng.below(3) : 1 + (int)rng.below(9);
    static const int st[] = {Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY, Z_FILTERED, Z_FIXED,
                             Z_HUFFMAN_ONLY, Z_RLE};
    c.strategy = st[rng.below(big_segments() ? 4 : 6)];   /* few cases: threaded ones */
    c.threads = pick_threads(rng, p);
    c.kind = (int)rng.below(K_KINDS);
    return c;
}

/* checks that a test's threads really ran */
void expect_engaged(const Stats &st, const char *test, long at_least = 1) {
    fprintf(stderr, "%s\n", st.summary(test).c_str());
    if (!probe().visible || zt::too_many_failures()) return;
    /* the default build's few big cases: at levels 4-5 threads need twice
     * the input of level 6, so one of two may stay on one thread */
    if (big_segments())
        at_least = 1;
    EXPECT_GE(st.engaged, std::min(at_least, st.cases))
        << "DeflateThreads." << test << ": worker threads started in only " << st.engaged
        << " of " << st.cases << " cases: the test does not test threads";
}

/* ---- the tests ------------------------------------------------------------ */

/* Arguments deflateSetThreads() must refuse, and the ones it must take. */
TEST(DeflateThreads, RejectsBadArguments) {
    const Probe &pr = probe();
    ZT_NEED("threads", pr.fn, pr.note);
    EXPECT_EQ(TUR->deflateSetThreads(nullptr, 2), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflateSetThreads(nullptr, 0), Z_STREAM_ERROR);
    z_stream zero;
    memset(&zero, 0, sizeof zero);
    EXPECT_EQ(TUR->deflateSetThreads(&zero, 2), Z_STREAM_ERROR) << "never initialised";
    z_stream s;
    memset(&s, 0, sizeof s);
    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, 6, Z_DEFLATED, 15, 8, 0), Z_OK);
    EXPECT_EQ(TUR->deflateSetThreads(&s, -1), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflateSetThreads(&s, -1000), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflateSetThreads(&s, 257), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflateSetThreads(&s, 1 << 30), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflateSetThreads(&s, 0), Z_OK);
    EXPECT_EQ(TUR->deflateSetThreads(&s, 1), Z_OK);
    int want = pr.threads ? Z_OK : Z_STREAM_ERROR;
    EXPECT_EQ(TUR->deflateSetThreads(&s, 2), want);
    EXPECT_EQ(TUR->deflateSetThreads(&s, 2), want) << "the same count again";
    EXPECT_EQ(TUR->deflateSetThreads(&s, 256), want) << "ZLIB_TURBO_MAX_THREADS";
    EXPECT_EQ(TUR->deflateSetThreads(&s, 1), Z_OK);
    /* a z_stream whose state belongs to another (copied struct) */
    z_stream moved = s;
    EXPECT_EQ(TUR->deflateSetThreads(&moved, 2), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflateEnd(&s), Z_OK);
    EXPECT_EQ(TUR->deflateSetThreads(&s, 2), Z_STREAM_ERROR) << "after deflateEnd";
    /* an inflate stream */
    z_stream inf;
    memset(&inf, 0, sizeof inf);
    ASSERT_EQ(ZAPI_INFLATE_INIT2(TUR, &inf, 15), Z_OK);
    EXPECT_EQ(TUR->deflateSetThreads(&inf, 2), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->deflateSetThreads(&inf, 0), Z_STREAM_ERROR);
    TUR->inflateEnd(&inf);
    ZT_NEED("threads", pr.threads, pr.note + " (it refuses 2 threads, as it must)");
}

/* The threaded path must be taken at all: worker threads start at a call
 * with enough input, and not below.  zturbo.h says 64 KiB; a build with
 * another ZT_SEG_BITS (given in the environment too) starts them from
 * 2^(ZT_SEG_BITS-2) as the library is written now: anything from
 * 2^(ZT_SEG_BITS-5) to 2^(ZT_SEG_BITS+1) passes, so that the check only
 * catches a build that did not get the segments it was asked for. */
TEST(DeflateThreads, ThreadsNeverStart) {
    NEED_THREADS();
    const Probe &pr = probe();
    if (!pr.visible) GTEST_SKIP() << pr.note;
    ASSERT_TRUE(pr.found) << pr.note;
    const char *e = getenv("ZT_SEG_BITS");
    if (e && *e) {
        int b = atoi(e);
        EXPECT_GE(pr.from, (size_t)1 << (b - 5)) << "not the segments of ZT_SEG_BITS=" << b;
        EXPECT_LE(pr.from, (size_t)1 << (b + 1)) << "not the segments of ZT_SEG_BITS=" << b;
    } else {
        EXPECT_EQ(pr.from, (size_t)131072) << "zturbo.h: threads from 128 KiB of input at level 6";
    }
    EXPECT_FALSE(starts_threads(pr.from - 1)) << "threads below " << pr.from << " bytes";
    EXPECT_TRUE(starts_threads(pr.from)) << "no threads at " << pr.from << " bytes";
    EXPECT_TRUE(starts_threads(5 * SEG() + 77, 16)) << "16 threads";
}

/* Every level 4-9, every strategy, the kinds of data, thread counts. */
TEST(DeflateThreads, OutputDiffersByLevelStrategyData) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.thread_counts = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    long n = cases_for(6 * 5 * K_KINDS * 2, 6 * 5 * K_KINDS * 10, 3, 12);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-level-strategy", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c;
        c.level = 4 + (int)(i % 6);
        static const int sts[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_FIXED, Z_HUFFMAN_ONLY, Z_RLE};
        c.strategy = sts[(i / 6) % 5];
        if (big_segments()) c.strategy = sts[i % 3];    /* the threaded ones */
        c.kind = (int)((i / 30 + i) % K_KINDS);
        c.threads = pick_threads(rng, p);
        c.wrap = (int)rng.below(3);
        c.len = case_len(rng, 2, 12);
        run_case("OutputDiffersByLevelStrategyData", seed, c, p, st, rng);
    }
    expect_engaged(st, "OutputDiffersByLevelStrategyData", 3);
}

/* windowBits 9-15 with each wrapper (zlib also 8), memLevel 1-9. */
TEST(DeflateThreads, OutputDiffersByWindowAndMemLevel) {
    NEED_THREADS();
    Stats st;
    Plan p;
    long k = 0;
    long reps = big_segments() ? 1 : cases_for(4, 10);
    for (long r = 0; r < reps; r++)
    for (int wb = 8; wb <= 15; wb++)
        for (int wrap = 0; wrap < 3; wrap++)
            for (int ml = 1; ml <= 9; ml++, k++) {
                if (st.stop()) return;
                if (wb == 8 && wrap != 1) continue;
                /* quick: each (windowBits, wrapper) once and each memLevel
                 * at least once; the product in full mode */
                if (!zt::full_mode() && ml != 1 + (int)((k / 9 * 4) % 9) &&
                    !(wb == 15 && wrap == 1))
                    continue;
                /* big segments: a few (windowBits, wrapper) pairs */
                if (big_segments() && (ml != 1 + (int)((k / 9 * 4) % 9) ||
                                       !((wb == 9 && wrap == 0) || (wb == 15 && wrap == 2) ||
                                         (zt::full_mode() && wb == 12))))
                    continue;
                uint64_t seed = zt::case_seed("threads-window-memlevel", (uint64_t)k);
                zt::Rng rng(seed);
                Cfg c = random_cfg(rng, p);
                c.wb = wb;
                c.wrap = wrap;
                c.memLevel = ml;
                if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_DEFAULT_STRATEGY;
                c.kind = (int)rng.below(2) ? K_FILES : (int)rng.below(K_KINDS);
                c.len = case_len(rng, 2, 10);
                run_case("OutputDiffersByWindowAndMemLevel", seed, c, p, st, rng);
            }
    expect_engaged(st, "OutputDiffersByWindowAndMemLevel", 2);
}

/* Input and output in slices down to one byte, and big ones: returns with
 * avail_out == 0 in the middle of a session, calls with less input than
 * the jobs were planned with. */
TEST(DeflateThreads, SlicedCallsDiffer) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(400, 4000, 2, 6);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-sliced", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        switch (i % 4) {
        case 0:                 /* one-byte output, all input at once */
            p.in_rest = 100; p.in_big = p.in_medium = p.in_tiny = 0;
            p.out_big = p.out_medium = p.out_small = p.out_zero = 0; p.out_one = 100;
            break;
        case 1:                 /* tiny input now and then between big calls */
            p.in_rest = 20; p.in_big = 40; p.in_medium = 20; p.in_tiny = 20;
            p.out_big = 20; p.out_medium = 20; p.out_small = 30; p.out_one = 20; p.out_zero = 10;
            break;
        case 2:                 /* small output slices */
            p.out_big = 5; p.out_medium = 10; p.out_small = 70; p.out_one = 10; p.out_zero = 5;
            break;
        default:                /* big buffers */
            p.in_rest = 70; p.in_big = 30; p.in_medium = p.in_tiny = 0;
            p.out_big = 90; p.out_medium = 10; p.out_small = p.out_one = p.out_zero = 0;
            break;
        }
        Cfg c = random_cfg(rng, p);
        if (big_segments()) {
            c.strategy = Z_DEFAULT_STRATEGY;
            if (i % 4 == 0) c.kind = K_TEXT;    /* 1-byte output of 1 MiB random: too slow */
        }
        c.len = case_len(rng, 2, i % 4 == 0 ? 6 : 16);
        run_case("SlicedCallsDiffer", seed, c, p, st, rng);
    }
    expect_engaged(st, "SlicedCallsDiffer", 2);
}

/* Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_BLOCK, Z_FINISH at random
 * points: a session ends MIN_LOOKAHEAD bytes before each. */
TEST(DeflateThreads, FlushesMidSessionDiffer) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.flush_pct = 25;
    p.in_rest = 20; p.in_big = 50; p.in_medium = 25; p.in_tiny = 5;
    long n = cases_for(400, 4000, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-flushes", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.len = case_len(rng, 3, 20);
        run_case("FlushesMidSessionDiffer", seed, c, p, st, rng);
    }
    expect_engaged(st, "FlushesMidSessionDiffer", 2);
}

/* deflateParams() to levels 0-3 and back, among 4-9, strategies changed:
 * the chains the jobs did not keep must be zlib's when zlib's own code
 * searches again. */
TEST(DeflateThreads, ParamsSwitchMidStreamDiffers) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(400, 4000, 2, 6);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-params", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        p.params_pct = 20;
        p.params_slow_only = (i % 3) == 0;
        p.flush_pct = 5;
        p.in_rest = 20; p.in_big = 50; p.in_medium = 25; p.in_tiny = 5;
        Cfg c = random_cfg(rng, p);
        c.len = case_len(rng, 3, 20);
        run_case("ParamsSwitchMidStreamDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "ParamsSwitchMidStreamDiffers", 2);
}

/* deflateTune() between calls (also in a session). */
TEST(DeflateThreads, TuneMidStreamDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.tune_pct = 20;
    p.in_rest = 30; p.in_big = 50; p.in_medium = 15; p.in_tiny = 5;
    long n = cases_for(250, 2500, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-tune", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.len = case_len(rng, 3, 16);
        run_case("TuneMidStreamDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "TuneMidStreamDiffers", 2);
}

/* deflateSetDictionary(): before the first deflate() (raw and zlib), and
 * between calls (raw: allowed after a flush that took all the input; the
 * others refuse it, the same way). */
TEST(DeflateThreads, DictionaryDiffers) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(300, 3000, 2, 6);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-dictionary", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        p.dict_pct = 15;
        p.flush_pct = 30;
        p.in_rest = 10; p.in_big = 60; p.in_medium = 25; p.in_tiny = 5;
        p.out_big = 80; p.out_medium = 20; p.out_small = p.out_one = p.out_zero = 0;
        Cfg c = random_cfg(rng, p);
        c.wrap = (int)(i % 3 == 2 ? rng.below(3) : i % 2);     /* mostly raw and zlib */
        static const size_t dl[] = {1, 3, 262, 4096, 32767, 32768, 40000};
        c.dict = dl[rng.below(7)];
        c.kind = rng.chance(60) ? K_FILES : c.kind;
        c.len = case_len(rng, 2, 12);
        run_case("DictionaryDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "DictionaryDiffers", 2);
    fprintf(stderr, "[zt] DeflateThreads.DictionaryDiffers: %ld dictionaries accepted between calls\n",
            g_mid_dict_ok);
    if (!big_segments() && !zt::too_many_failures())
        EXPECT_GT(g_mid_dict_ok, 0) << "no deflateSetDictionary() between calls was accepted";
}

/* Prepared dictionaries: tur gets deflateUseDictionary() where ref gets
 * deflateSetDictionary(), at the start (the fast path: the window and
 * chains copied in), after deflateReset(), and between calls (raw). */
TEST(DeflateThreads, PreparedDictionaryDiffers) {
    NEED_THREADS();
    ZT_NEED("prepared", TUR->deflatePrepareDictionary && TUR->deflateUseDictionary,
            "the library under test has no prepared dictionaries");
    Stats st;
    long n = cases_for(250, 2500, 2, 6);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-prepared", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        p.prepared = true;
        p.dict_pct = 5;
        p.flush_pct = 10;
        p.reset_pct = 40;
        Cfg c = random_cfg(rng, p);
        c.wrap = (int)(i % 2);
        if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_DEFAULT_STRATEGY;
        static const size_t dl[] = {3, 300, 4096, 32768, 40000};
        c.dict = dl[rng.below(5)];
        c.kind = rng.chance(70) ? K_FILES : K_TEXT;
        c.len = case_len(rng, 2, 12);
        run_case("PreparedDictionaryDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "PreparedDictionaryDiffers", 2);
}

/* deflatePrime() at the start and between calls (with nothing pending). */
TEST(DeflateThreads, PrimeDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.prime_pct = 20;
    p.flush_pct = 20;
    long n = cases_for(200, 2000, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-prime", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.prime_bits = (int)rng.range(1, 16);
        c.len = case_len(rng, 2, 12);
        run_case("PrimeDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "PrimeDiffers", 2);
}

/* deflateCopy() in the middle (also in a session): the copy starts with one
 * thread, both the original and the copy go on (the copy sometimes with
 * threads of its own) and each equals ref's original and ref's copy. */
TEST(DeflateThreads, CopyMidStreamDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.copy_pct = 15;
    p.in_rest = 20; p.in_big = 50; p.in_medium = 20; p.in_tiny = 10;
    p.out_big = 20; p.out_medium = 40; p.out_small = 30; p.out_one = 5; p.out_zero = 5;
    long n = cases_for(250, 2500, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-copy", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.len = case_len(rng, 4, 16);
        run_case("CopyMidStreamDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "CopyMidStreamDiffers", 2);
}

/* deflateReset() after the end and in the middle of a stream (threads
 * kept), then the data again. */
TEST(DeflateThreads, ResetDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.reset_pct = 30;
    p.in_rest = 30; p.in_big = 50; p.in_medium = 15; p.in_tiny = 5;
    long n = cases_for(200, 2000, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-reset", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.len = case_len(rng, 2, 10);
        run_case("ResetDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "ResetDiffers", 2);
}

/* deflateResetKeep() (zlib.h exports it) in the middle of a stream: zlib
 * keeps its window and its parse state, and goes on from them. */
TEST(DeflateThreads, ResetKeepMidSessionDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.resetkeep_pct = 40;
    p.in_rest = 30; p.in_big = 50; p.in_medium = 15; p.in_tiny = 5;
    p.out_big = 10; p.out_medium = 60; p.out_small = 20; p.out_one = 5; p.out_zero = 5;
    long n = cases_for(150, 1500, 1, 3);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-resetkeep", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_DEFAULT_STRATEGY;
        c.len = case_len(rng, 3, 10);
        run_case("ResetKeepMidSessionDiffers", seed, c, p, st, rng);
    }
    /* the plain sequence, many times: one call with all the input and
     * little output room (it returns in a session), deflateResetKeep(),
     * Z_FINISH.  Where the call returned after a literal with a longer
     * match found at the next position, zlib's match_length, prev_length
     * and match_start there decide the parse that follows. */
    long m = cases_for(400, 4000, 3, 12);
    for (long i = 0; i < m && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-resetkeep-plain", (uint64_t)i);
        zt::Rng rng(seed);
        zt::Ctx ctx;
        ctx.test = "DeflateThreads.ResetKeepMidSessionDiffers";
        ctx.seed = seed;
        Cfg c;
        c.level = 4 + (int)rng.below(6);
        c.memLevel = 1 + (int)rng.below(9);
        c.wrap = (int)rng.below(3);
        c.strategy = rng.chance(70) ? Z_DEFAULT_STRATEGY : Z_FILTERED;
        c.threads = 2 + (int)rng.below(3);
        ctx.params = c.str() + " (deflate, deflateResetKeep, deflate(Z_FINISH))";
        auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
        bool ok;
        {
            Pair P(ctx, ar, at);
            static const int kinds[] = {K_TEXT, K_FILES, K_LOWENT, K_FARREP, K_MIXED};
            P.data = make_data(rng, kinds[i % 5], case_len(rng, 2, 5));
            ctx.data = std::string(kind_name(kinds[i % 5])) + "+" + std::to_string(P.data.size());
            ok = P.init(c) && P.set_threads(c.threads) &&
                 P.deflate(P.data.size(), rng.range(1, 200), Z_NO_FLUSH);
            P.note_tasks();
            size_t at_pos = P.pos;
            if (ok) ok = P.reset(true);
            P.pos = at_pos;             /* reset() rewound it: go on instead */
            while (ok && P.rc != Z_STREAM_END && P.rc != Z_BUF_ERROR)
                ok = P.deflate(P.data.size(), 4 * SEG(), Z_FINISH);
            if (ok) ok = P.end();
            st.cases++;
            if (P.engaged) st.engaged++;
        }
        if (!ok) st.failed++;
    }
    expect_engaged(st, "ResetKeepMidSessionDiffers", 2);
}

/* One case of a test that makes its own calls: calls(P) gives P its data
 * and makes the calls the test is about (false at a difference); then the
 * stream is finished in lockstep, ended and counted in st. */
template <class F>
void own_calls_case(const char *test, uint64_t seed, const Cfg &c, const std::string &what,
                    Stats &st, F calls) {
    zt::Ctx ctx;
    ctx.test = std::string("DeflateThreads.") + test;
    ctx.seed = seed;
    ctx.params = c.str() + " (" + what + ")";
    auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
    bool ok;
    {
        Pair P(ctx, ar, at);
        P.calls_stat = &st.calls;
        ok = calls(P);
        while (ok && P.rc != Z_STREAM_END && P.rc != Z_BUF_ERROR)
            ok = P.deflate(P.data.size() - P.pos, 8 * SEG(), Z_FINISH);
        P.note_tasks();
        if (ok) ok = P.end();
        st.cases++;
        if (P.engaged) st.engaged++;
    }
    if (!ok) st.failed++;
}

/* A flush that does not end because the output is full, then new input
 * without the flush.  The flush's loop runs on while the output is full
 * until it meets a literal, and the last bytes before the end of the input
 * are literals: zlib steps over the last two strings without inserting
 * them and returns there, and the flush never ending, never inserts them.
 * Its chains then have two holes that a job must not fill.  For the loop to
 * get there, a block must end (and fill the one byte of output) before the
 * last bytes and no literal come between: memLevel 1 (blocks of 127
 * symbols), zeros (a literal, then matches of 258), all of the flush's
 * input in the window, and its length one or two more than the end of the
 * last whole match, so that the last bytes are literals (found with zeros,
 * level 8, Z_FULL_FLUSH). */
TEST(DeflateThreads, UnfinishedFlushHolesDiffer) {
    NEED_THREADS();
    Stats st;
    static const int flushes[] = {Z_FULL_FLUSH, Z_SYNC_FLUSH, Z_PARTIAL_FLUSH, Z_BLOCK};
    long m = cases_for(48, 480, 16, 48);
    for (long i = 0; i < m && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-unfinished-flush", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c;
        c.level = 4 + (int)(i % 6);
        c.memLevel = 1;
        c.wrap = (int)rng.below(3);
        c.threads = 2 + (int)rng.below(3);
        int flush = i < 6 ? Z_FULL_FLUSH : flushes[(i / 6) % 4];
        int kind = K_ZEROS;
        own_calls_case("UnfinishedFlushHolesDiffer", seed, c,
                       "deflate, flush with 1 byte of output, new input", st, [&](Pair &P) {
            /* 16,035 bytes, then 16,035 with the flush: the case that was
             * found (at every level); then nearby lengths */
            size_t first = 16035, flushed = 16035 + (i < 12 ? 0 : rng.below(600));
            P.data = make_data(rng, kind, first + flushed + 8 * SEG());
            P.ctx.data = std::string(kind_name(kind)) + "+" + std::to_string(P.data.size());
            return P.init(c) && P.set_threads(c.threads) &&
                   P.deflate(first, 1 << 20, Z_NO_FLUSH) &&
                   P.deflate(first + flushed - P.pos, 1, flush) &&
                   P.deflate(P.data.size() - P.pos, 8 * SEG(), Z_NO_FLUSH);
        });
    }
    expect_engaged(st, "UnfinishedFlushHolesDiffer", 2);
}

/* A session that starts soon after the window slid, with a first job
 * shorter than MIN_LOOKAHEAD: the job after it needs history from w_size
 * bytes before its start, which is before zlib's window[0] and before
 * anything the first job copied.  It must start its window where the bytes
 * are (zlib's window[0] then), not parse a copy it never got.  Reached only
 * where segments can be that short (a build with ZT_SEG_BITS of 11 or
 * less: jobs of 128 bytes at levels 8-9 with 1 KiB segments) and windows
 * small (windowBits 9-11); calls of a few hundred bytes each start a
 * session at a new place in the window. */
TEST(DeflateThreads, JobHistoryBeforeWindowDiffers) {
    NEED_THREADS();
    Stats st;
    long m = cases_for(60, 600, 2, 6);
    for (long i = 0; i < m && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-history-before-window", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c;
        c.wb = 9 + (int)(i % 3);
        c.level = 9 - (int)(i / 3 % 4);
        c.memLevel = 1 + (int)rng.below(3);
        c.wrap = (int)rng.below(3);
        c.strategy = rng.chance(30) ? Z_FILTERED : Z_DEFAULT_STRATEGY;
        c.threads = 2 + (int)rng.below(3);
        c.kind = rng.chance(50) ? K_TEXT : K_FILES;
        own_calls_case("JobHistoryBeforeWindowDiffers", seed, c, "calls of SEG/4 to SEG bytes",
                       st, [&](Pair &P) {
            P.data = make_data(rng, c.kind, 12 * SEG());
            P.ctx.data = std::string(kind_name(c.kind)) + "+" + std::to_string(P.data.size());
            bool ok = P.init(c) && P.set_threads(c.threads);
            while (ok && P.pos < P.data.size())
                ok = P.deflate(rng.range(SEG() / 4, SEG()), 4 * SEG(), Z_NO_FLUSH);
            return ok;
        });
    }
    expect_engaged(st, "JobHistoryBeforeWindowDiffers", 2);
}

/* n bytes in which no string of three bytes occurs twice: a de Bruijn
 * sequence of order 2 over bytes (every pair once, 65,536 long), begun at
 * `from`; deflate then writes only literals over it. */
Bytes no_repeats(size_t n, size_t from) {
    static const Bytes db = [] {
        Bytes seq;
        int a[4] = {0, 0, 0, 0};
        /* Fredricksen-Kessler-Maiorana, k = 256, n = 2, unrolled */
        std::function<void(int, int)> gen = [&](int t, int p) {
            if (t > 2) {
                if (2 % p == 0)
                    for (int j = 1; j <= p; j++) seq.push_back((uint8_t)a[j]);
                return;
            }
            a[t] = a[t - p];
            gen(t + 1, p);
            for (int j = a[t - p] + 1; j < 256; j++) {
                a[t] = j;
                gen(t + 1, t);
            }
        };
        gen(1, 1);
        return seq;
    }();
    Bytes v(n);
    for (size_t i = 0; i < n; i++) v[i] = db[(from + i) % db.size()];
    return v;
}

/* A session that begins at a loop top where zlib's next fill_window()
 * slides the window with strstart == w_size + MAX_DIST: the new window[0]
 * is then exactly MAX_DIST back, within reach of the search there, and
 * zlib never matches it (NIL).  The first job must be planned on the
 * window as it is after that slide, else it matches what zlib cannot.  The
 * case: a dictionary of MAX_DIST bytes and literals only (memLevel
 * windowBits - 6: blocks of w_size - 1 symbols), so that the first block
 * ends at loop top w_size + MAX_DIST; the input given ends 261 bytes after
 * it (the window is not full there); one byte of output, so deflate()
 * returns at that loop top before filling the window; then enough input
 * for threads, whose first string repeats the one at the new window[0].
 * In the default build the session starts at that call; with small
 * segments it is on from the first call, and the job made at that loop top
 * must be planned on the slid window too. */
TEST(DeflateThreads, SlideToReachAtSessionStartDiffers) {
    NEED_THREADS();
    Stats st;
    long m = cases_for(21, 63, 7, 21);
    for (long i = 0; i < m && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-slide-to-reach", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c;
        c.wb = 9 + (int)(i % 7);
        c.memLevel = c.wb - 6;
        c.level = 9 - (int)(i / 7 % 3);     /* 9, 8, 7 (then again) */
        c.wrap = (int)rng.below(2);         /* raw or zlib: a dictionary */
        c.threads = 2 + (int)rng.below(3);
        size_t w = (size_t)1 << c.wb, maxdist = w - 262, top = 2 * w - 262;
        own_calls_case("SlideToReachAtSessionStartDiffers", seed, c,
                       "dictionary of MAX_DIST bytes, literals, a return at loop top "
                       "w_size + MAX_DIST with 261 bytes of lookahead", st, [&](Pair &P) {
            /* stream position D + k is data byte k */
            size_t first = top + 261 - maxdist;
            P.data = no_repeats(first, (size_t)rng.below(65536));
            Bytes tail = make_data(rng, K_TEXT, 8 * SEG());
            P.data.insert(P.data.end(), tail.begin(), tail.end());
            /* the string at loop top `top` repeats the one at the new
             * window[0], stream position w: data byte w - maxdist */
            for (size_t k = 0; k < 40; k++) P.data[top - maxdist + k] = P.data[w - maxdist + k];
            P.ctx.data = "no-repeats+text+" + std::to_string(P.data.size());
            Bytes dict(maxdist, 0);
            return P.init(c) && P.set_threads(c.threads) && P.dictionary(dict, false) &&
                   P.deflate(first, 1, Z_NO_FLUSH) &&
                   P.deflate(P.data.size() - P.pos, 8 * SEG(), Z_NO_FLUSH);
        });
    }
    expect_engaged(st, "SlideToReachAtSessionStartDiffers", 2);
}

/* The same slide to within reach while a session is on, with jobs
 * planned before it that cover that loop top: they were planned when the
 * window was full and the input went on, so they may match the string
 * that zlib cannot (its new window[0]); the session must end there.  The
 * case: a dictionary of MAX_DIST + 1 bytes and literals only (blocks of
 * w_size - 1 symbols, one byte of output: deflate() returns at each block's
 * end), all of the data in the first call (jobs planned far ahead; it
 * returns at loop top w_size + MAX_DIST + 1 with a full window); the next
 * call gives only w_size - 1 bytes (after the window slid there, the window
 * then ends 261 bytes after the next block's end, at w_size + MAX_DIST of
 * the slid window); the one after it gives the rest: its first loop top
 * slides the window with strstart == w_size + MAX_DIST, and the string
 * there repeats the one at the new window[0]. */
TEST(DeflateThreads, SlideToReachMidSessionDiffers) {
    NEED_THREADS();
    Stats st;
    long m = cases_for(21, 63, 7, 21);
    for (long i = 0; i < m && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-slide-mid-session", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c;
        c.wb = 9 + (int)(i % 7);
        c.memLevel = c.wb - 6;
        c.level = 9 - (int)(i / 7 % 3);
        c.wrap = (int)rng.below(2);
        c.threads = 2 + (int)rng.below(3);
        size_t w = (size_t)1 << c.wb, dl = w - 261;
        own_calls_case("SlideToReachMidSessionDiffers", seed, c,
                       "dictionary of MAX_DIST + 1 bytes, literals, input of w_size - 1 bytes "
                       "at the second block, then the rest", st, [&](Pair &P) {
            /* stream position dl + k is data byte k; literals up to 4 w_size */
            P.data = no_repeats(4 * w, (size_t)rng.below(65536));
            Bytes tail = make_data(rng, K_TEXT, 8 * SEG());
            P.data.insert(P.data.end(), tail.begin(), tail.end());
            /* stream 3 w_size - 262 (the slid window's w_size + MAX_DIST)
             * repeats stream 2 w_size (its window[0] after the slide there) */
            for (size_t k = 0; k < 40; k++)
                P.data[3 * w - 262 - dl + k] = P.data[2 * w - dl + k];
            P.ctx.data = "no-repeats+text+" + std::to_string(P.data.size());
            Bytes dict(dl, 0);
            auto drain = [&]() {
                bool good = true;
                unsigned pend = 1;
                int bits;
                while (good && pend) {
                    REF->deflatePending(&P.d[0].s, &pend, &bits);
                    if (pend) good = P.deflate(0, 1, Z_NO_FLUSH);
                }
                return good;
            };
            return P.init(c) && P.set_threads(c.threads) && P.dictionary(dict, false) &&
                   P.deflate(P.data.size(), 1, Z_NO_FLUSH) && drain() &&
                   P.deflate(w - 1, 1, Z_NO_FLUSH) && drain() &&
                   P.deflate(P.data.size() - P.pos, 8 * SEG(), Z_NO_FLUSH);
        });
    }
    expect_engaged(st, "SlideToReachMidSessionDiffers", 2);
}

/* deflateEnd() in the middle of a stream, also while jobs run: nothing
 * left allocated, no thread left (and no leak under LeakSanitizer). */
TEST(DeflateThreads, EndMidStreamLeaks) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.end_pct = 10;
    p.in_rest = 20; p.in_big = 60; p.in_medium = 15; p.in_tiny = 5;
    p.out_big = 10; p.out_medium = 50; p.out_small = 30; p.out_one = 5; p.out_zero = 5;
    p.thread_counts = {2, 3, 4, 8, 16};
    long n = cases_for(300, 3000, 2, 6);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-end", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.len = case_len(rng, 3, 20);
        run_case("EndMidStreamLeaks", seed, c, p, st, rng);
    }
    expect_engaged(st, "EndMidStreamLeaks", 2);
}

/* deflateSetThreads() between calls: another count, 1 (and 0) and back,
 * the same count again, also in the middle of a session. */
TEST(DeflateThreads, SetThreadsBetweenCallsDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.threads_pct = 25;
    p.thread_counts = {1, 2, 3, 4, 6, 8, 16};
    p.in_rest = 20; p.in_big = 50; p.in_medium = 20; p.in_tiny = 10;
    p.out_big = 20; p.out_medium = 40; p.out_small = 30; p.out_one = 5; p.out_zero = 5;
    long n = cases_for(300, 3000, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-set-between", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        if (c.threads == 1) c.threads = 2;
        c.len = case_len(rng, 3, 20);
        run_case("SetThreadsBetweenCallsDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "SetThreadsBetweenCallsDiffers", 2);
}

/* The not-yet-consumed input handed over again from another buffer at each
 * call, the old buffer freed at once (AddressSanitizer sees any read of
 * it after the call). */
TEST(DeflateThreads, MovedInputDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.move_pct = 80;
    p.scribble_pct = 20;
    p.in_rest = 40; p.in_big = 40; p.in_medium = 15; p.in_tiny = 5;
    p.out_big = 10; p.out_medium = 50; p.out_small = 30; p.out_one = 5; p.out_zero = 5;
    long n = cases_for(250, 2500, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-moved", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.len = case_len(rng, 3, 16);
        run_case("MovedInputDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "MovedInputDiffers", 2);
}

/* After a call that filled the output with input left over, the caller
 * gives other bytes where the input was not consumed yet (near the
 * current position or anywhere after): the jobs worked ahead on the old
 * bytes; the output must be zlib's for the new ones. */
TEST(DeflateThreads, OverwrittenInputDiffers) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(500, 5000, 2, 6);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-overwritten", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        p.modify_pct = i % 2 ? 60 : 20;
        p.move_pct = i % 3 == 0 ? 50 : 0;
        p.in_rest = 60; p.in_big = 30; p.in_medium = 10; p.in_tiny = 0;
        p.out_big = 5; p.out_medium = 45; p.out_small = 35; p.out_one = 10; p.out_zero = 5;
        p.flush_pct = i % 4 == 3 ? 10 : 0;
        Cfg c = random_cfg(rng, p);
        if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_FILTERED;
        c.len = case_len(rng, 3, 16);
        run_case("OverwrittenInputDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "OverwrittenInputDiffers", 2);
}

/* Data on which a speculative job's parse does not fall into zlib's (long
 * runs, zeros, one short pattern repeated): jobs are run again exactly,
 * one after the other. */
TEST(DeflateThreads, NonConvergingDataDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.flush_pct = 3;
    p.params_pct = 3;
    p.params_slow_only = 1;
    long n = cases_for(300, 3000, 2, 6);
    static const int kinds[] = {K_RUNS, K_ZEROS, K_PERIOD, K_PERIOD, K_MIXED};
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-nonconverging", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.strategy = rng.chance(70) ? Z_DEFAULT_STRATEGY : rng.chance(50) ? Z_FILTERED : Z_FIXED;
        c.kind = kinds[i % 5];
        c.len = case_len(rng, 3, 24);
        run_case("NonConvergingDataDiffers", seed, c, p, st, rng);
    }
    expect_engaged(st, "NonConvergingDataDiffers", 2);
}

/* 64 threads (more than segments, more than cores); 256 in full mode. */
TEST(DeflateThreads, ManyThreadsDiffer) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.thread_counts = {64};
    if (zt::full_mode()) p.thread_counts.push_back(256);
    p.threads_pct = 5;
    long n = cases_for(24, 200, 1, 2);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-many", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.threads = p.thread_counts[(size_t)i % p.thread_counts.size()];
        if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_DEFAULT_STRATEGY;
        c.len = case_len(rng, 8, 80);
        run_case("ManyThreadsDiffer", seed, c, p, st, rng);
    }
    expect_engaged(st, "ManyThreadsDiffer", 1);
}

/* Everything at once, at random. */
TEST(DeflateThreads, RandomScenariosDiffer) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(500, 5000, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-random", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        p.thread_counts = {1, 2, 3, 4, 5, 8, 12, 16};
        p.flush_pct = (int)rng.below(15);
        p.params_pct = (int)rng.below(8);
        p.params_slow_only = rng.chance(50);
        p.tune_pct = (int)rng.below(5);
        p.threads_pct = (int)rng.below(8);
        p.copy_pct = (int)rng.below(5);
        p.dict_pct = (int)rng.below(5);
        p.prime_pct = (int)rng.below(5);
        p.modify_pct = (int)rng.below(30);
        p.scribble_pct = (int)rng.below(10);
        p.move_pct = (int)rng.below(50);
        p.end_pct = rng.chance(20) ? 2 : 0;
        p.reset_pct = (int)rng.below(20);
        p.prepared = rng.chance(30);
        Cfg c = random_cfg(rng, p);
        if (c.threads == 1) c.threads = 2;
        if (rng.chance(20) && c.wrap != 2) c.dict = rng.range(1, 40000);
        if (rng.chance(20)) c.prime_bits = (int)rng.range(1, 16);
        c.gzhead = rng.chance(50);
        c.len = case_len(rng, 2, 24);
        run_case("RandomScenariosDiffer", seed, c, p, st, rng);
    }
    expect_engaged(st, "RandomScenariosDiffer", 2);
}

/* Random plans at the edges where sessions end and start again: windows of
 * 512 bytes to 2 KiB, memLevel 1-3, deflateTune(), copies, flushes,
 * input moved and overwritten, and mostly tiny output slices, so that
 * sessions end (a tune, a copy, changed input) at every kind of loop top
 * and start again at once, just after slides, in the middle of jobs. */
TEST(DeflateThreads, SessionRestartsAtEdgesDiffer) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(300, 3000, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-restarts-at-edges", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        p.flush_pct = (int)rng.below(12);
        p.tune_pct = 2 + (int)rng.below(10);
        p.copy_pct = (int)rng.below(8);
        p.threads_pct = (int)rng.below(4);
        p.modify_pct = (int)rng.below(40);
        p.move_pct = (int)rng.below(60);
        p.in_rest = 20; p.in_big = 30; p.in_medium = 40; p.in_tiny = 10;
        p.out_big = 10; p.out_medium = 30; p.out_small = 40; p.out_one = 15; p.out_zero = 5;
        Cfg c = random_cfg(rng, p);
        c.wb = 9 + (int)rng.below(3);
        c.memLevel = 1 + (int)rng.below(3);
        if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_DEFAULT_STRATEGY;
        if (rng.chance(20) && c.wrap != 2) c.dict = rng.range(1, 4000);
        c.len = case_len(rng, 3, 16);
        run_case("SessionRestartsAtEdgesDiffer", seed, c, p, st, rng);
    }
    expect_engaged(st, "SessionRestartsAtEdgesDiffer", 2);
}

/* ---- allocation ----------------------------------------------------------- */

/* An allocator that is not thread-safe (it writes a plain vector): every
 * call must come from the thread that calls zlib. */
struct Recorder {
    std::vector<std::thread::id> who;   /* one entry per zalloc/zfree */
    static voidpf za(voidpf op, uInt n, uInt size) {
        ((Recorder *)op)->who.push_back(std::this_thread::get_id());
        return malloc((size_t)n * size);
    }
    static void zf(voidpf op, voidpf p) {
        ((Recorder *)op)->who.push_back(std::this_thread::get_id());
        free(p);
    }
};

TEST(DeflateThreads, AllocatorCalledFromWorker) {
    NEED_THREADS();
    zt::Rng rng(zt::case_seed("threads-recorder", 0));
    Bytes in = make_data(rng, K_FILES, 12 * SEG());
    Bytes out(in.size() + 4096);
    Recorder rec;
    z_stream s, c;
    memset(&s, 0, sizeof s);
    s.zalloc = Recorder::za;
    s.zfree = Recorder::zf;
    s.opaque = &rec;
    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &s, 9, Z_DEFLATED, 15, 8, 0), Z_OK);
    ASSERT_EQ(TUR->deflateSetThreads(&s, 8), Z_OK);
    int t0 = task_count();
    s.next_in = in.data();
    s.avail_in = (uInt)in.size();
    s.next_out = out.data();
    s.avail_out = (uInt)(SEG() / 4);
    ASSERT_EQ(TUR->deflate(&s, Z_NO_FLUSH), Z_OK);
    if (t0 >= 0) EXPECT_GT(task_count(), t0) << "no worker thread started";
    ASSERT_EQ(TUR->deflateCopy(&c, &s), Z_OK);
    ASSERT_EQ(TUR->deflateSetThreads(&c, 3), Z_OK);
    s.next_out = out.data();
    s.avail_out = (uInt)out.size();
    int pr = TUR->deflateParams(&s, 5, Z_FILTERED);
    EXPECT_TRUE(pr == Z_OK || pr == Z_BUF_ERROR) << pr;
    ASSERT_EQ(TUR->deflateSetThreads(&s, 4), Z_OK);
    for (z_stream *x : {&s, &c}) {
        int r;
        do {
            x->next_out = out.data();
            x->avail_out = (uInt)std::min<size_t>(out.size(), 3000);
            r = TUR->deflate(x, Z_FINISH);
        } while (r == Z_OK);
        EXPECT_EQ(r, Z_STREAM_END);
    }
    TUR->deflateReset(&s);
    TUR->deflateEnd(&c);
    TUR->deflateEnd(&s);
    size_t foreign = 0;
    for (auto &id : rec.who) foreign += id != std::this_thread::get_id();
    EXPECT_EQ(foreign, 0u) << "of " << rec.who.size() << " zalloc/zfree calls";
    EXPECT_GT(rec.who.size(), 20u);
}

/* No thread outlives what ends it: deflateEnd(), deflateSetThreads(strm, 1)
 * (and 0) and deflateSetThreads() with another count join them;
 * deflateReset() keeps them; a copy has none until it is given some. */
TEST(DeflateThreads, ThreadOutlivesStream) {
    NEED_THREADS();
    if (!probe().visible) GTEST_SKIP() << probe().note;
    zt::Ctx ctx;
    ctx.test = "DeflateThreads.ThreadOutlivesStream";
    zt::Rng rng(zt::case_seed("threads-outlive", 0));
    auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
    int t0 = task_count();
    {
        Pair P(ctx, ar, at);
        P.data = make_data(rng, K_FILES, 12 * SEG());
        ctx.data = "files+" + std::to_string(P.data.size());
        Cfg c;
        ASSERT_TRUE(P.init(c));
        ASSERT_TRUE(P.set_threads(4));
        EXPECT_EQ(task_count(), t0) << "threads started before deflate()";
        ASSERT_TRUE(P.deflate(4 * SEG(), SEG() / 4, Z_NO_FLUSH));
        int t1 = task_count();
        EXPECT_GT(t1, t0) << "no threads started";
        EXPECT_LE(t1, t0 + 4) << "more than 4 threads for deflateSetThreads(4)";
        ASSERT_TRUE(P.set_threads(4));                  /* the same: kept */
        EXPECT_EQ(task_count(), t1);
        ASSERT_TRUE(P.set_threads(1));
        EXPECT_EQ(tasks_settle(t0), t0) << "deflateSetThreads(strm, 1) left threads running";
        ASSERT_TRUE(P.set_threads(3));
        ASSERT_TRUE(P.deflate(4 * SEG(), SEG() / 4, Z_NO_FLUSH));
        int t2 = task_count();
        EXPECT_GT(t2, t0);
        ASSERT_TRUE(P.set_threads(2));
        EXPECT_EQ(tasks_settle(t0), t0) << "deflateSetThreads(strm, 2) after 3 left threads running";
        ASSERT_TRUE(P.deflate(P.data.size(), P.data.size() * 2, Z_FINISH));
        int t3 = task_count();
        EXPECT_GT(t3, t0);
        ASSERT_TRUE(P.reset(false));
        EXPECT_EQ(task_count(), t3) << "deflateReset() changed the threads";
        ASSERT_TRUE(P.deflate(4 * SEG(), SEG() / 4, Z_NO_FLUSH));
        EXPECT_EQ(task_count(), t3) << "threads started again after deflateReset()";
        /* a copy: no threads until it is given some */
        z_stream cp;
        memset(&cp, 0, sizeof cp);
        ASSERT_EQ(TUR->deflateCopy(&cp, &P.d[1].s), Z_OK);
        Bytes out(P.data.size() * 2);
        cp.next_in = P.data.data() + P.pos;
        cp.avail_in = (uInt)(P.data.size() - P.pos);
        cp.next_out = out.data();
        cp.avail_out = (uInt)out.size();
        EXPECT_EQ(TUR->deflate(&cp, Z_NO_FLUSH), Z_OK);
        EXPECT_EQ(task_count(), t3) << "the copy started threads";
        ASSERT_EQ(TUR->deflateSetThreads(&cp, 2), Z_OK);
        ASSERT_EQ(TUR->deflateReset(&cp), Z_OK);
        cp.next_in = P.data.data();
        cp.avail_in = (uInt)P.data.size();
        cp.next_out = out.data();
        cp.avail_out = (uInt)out.size();
        EXPECT_EQ(TUR->deflate(&cp, Z_NO_FLUSH), Z_OK);
        EXPECT_GT(task_count(), t3) << "the copy given 2 threads started none";
        TUR->deflateEnd(&cp);           /* Z_DATA_ERROR: ended mid-stream */
        EXPECT_EQ(tasks_settle(t3), t3) << "deflateEnd() of the copy left threads running";
        ASSERT_TRUE(P.set_threads(0));
        EXPECT_EQ(tasks_settle(t0), t0) << "deflateSetThreads(strm, 0) left threads running";
        ASSERT_TRUE(P.set_threads(5));
        ASSERT_TRUE(P.deflate(P.data.size(), SEG() / 4, Z_NO_FLUSH));   /* in a session */
        EXPECT_GT(task_count(), t0);
        ASSERT_TRUE(P.end());
        EXPECT_EQ(tasks_settle(t0), t0) << "deflateEnd() left threads running";
    }
    EXPECT_EQ(at->live, 0);
}

/* Last in the file: a library that crashes on a failed allocation stops
 * the program here, after every other test has run. */
/* Every allocation of deflateInit2(), deflateSetThreads(), the first
 * threaded deflate() call (the job buffers) and deflateCopy() failed in
 * turn.  deflateInit2() and deflateCopy(): zlib's errors.
 * deflateSetThreads(): Z_MEM_ERROR, nothing of the new set nor of an old
 * one left, no thread, the stream goes on with one thread and ref's bytes.
 * deflate(): ref's bytes and return codes all the same (it never fails
 * because of threads), nothing of the failed attempt left, no thread
 * started by that call, and the next session tries again. */
struct FailCase {
    zt::Ctx ctx;
    std::shared_ptr<Alloc> ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
    FailCase(uint64_t seed, const std::string &params) {
        ctx.test = "DeflateThreads.FailingAllocatorLeaksOrBreaks";
        ctx.seed = seed;
        ctx.params = params;
    }
};

/* the rest of P's input to its end, in calls of random sizes */
bool finish_stream(Pair &P, zt::Rng &rng) {
    bool ok = true;
    for (int n = 0; ok && P.rc != Z_STREAM_END; n++) {
        bool fin = P.pos + 4 * SEG() >= P.data.size();
        ok = n < 100000 &&
             P.deflate(fin ? P.data.size() : rng.range(1, 4 * SEG()), rng.range(1, 3 * SEG()),
                       fin ? Z_FINISH : Z_NO_FLUSH);
    }
    return ok;
}

TEST(DeflateThreads, FailingAllocatorLeaksOrBreaks) {
    NEED_THREADS();
    Stats st;
    struct Geo { int wb, wrap, ml, threads; };
    std::vector<Geo> geos = {{15, 1, 8, 2}, {10, 0, 1, 3}, {12, 2, 9, 4}};
    if (zt::full_mode()) geos.push_back({15, 0, 8, 16});
    if (big_segments() && !zt::full_mode()) geos.resize(1);
    const size_t segs = big_segments() ? 1 : 6;     /* input per case */
    const int idle = tasks_now();   /* no stream of this test yet */
    /* which of n allocations to fail: every one (they are few) */
    auto which = [](long n) {
        std::vector<long> v;
        for (long k = 0; k < n; k++) v.push_back(k);
        return v;
    };
    for (const Geo &g : geos) {
        Cfg c;
        c.wb = g.wb; c.wrap = g.wrap; c.memLevel = g.ml;
        std::string geo = "windowBits " + std::to_string(wbits_arg(g.wb, g.wrap)) + " memLevel " +
                          std::to_string(g.ml) + " threads " + std::to_string(g.threads);
        /* count each call's allocations once */
        long init_allocs, set_allocs, job_allocs;
        {
            FailCase f(0, geo + ": counting allocations");
            Pair P(f.ctx, f.ar, f.at);
            zt::Rng r1(1);
            P.data = make_data(r1, K_FILES, segs * SEG());
            ASSERT_TRUE(P.init(c));
            init_allocs = f.at->calls;
            ASSERT_TRUE(P.set_threads(g.threads));
            set_allocs = f.at->calls - init_allocs;
            ASSERT_TRUE(P.deflate(P.data.size(), SEG() / 2, Z_NO_FLUSH));
            job_allocs = f.at->calls - init_allocs - set_allocs;
            P.note_tasks();
            EXPECT_TRUE(P.engaged || !probe().visible) << geo << ": no threads started";
            ASSERT_TRUE(P.end());
            EXPECT_EQ(f.at->live, 0) << geo;
        }
        fprintf(stderr, "[zt] %s: allocations: deflateInit2 %ld, deflateSetThreads %ld, "
                "first threaded deflate() %ld\n", geo.c_str(), init_allocs, set_allocs, job_allocs);
        EXPECT_GT(set_allocs, 0) << geo;

        /* deflateInit2: as zlib */
        for (long k = 0; k <= init_allocs; k++) {
            FailCase f(0, geo + ", deflateInit2 allocation " + std::to_string(k) + " fails");
            f.ar->fail_at = f.at->fail_at = k;
            {
                Pair P(f.ctx, f.ar, f.at);
                bool ok = P.init(c);
                EXPECT_EQ(ok, k == init_allocs) << f.ctx.params;
            }
            EXPECT_EQ(f.at->live, 0) << f.ctx.params;
        }

        /* deflateSetThreads: at the start, in the middle on one thread, in
         * the middle of a session on other threads */
        for (int when = 0; when < 3; when++)
            for (long k : which(set_allocs)) {
                if (st.stop()) return;
                uint64_t seed = zt::case_seed("threads-failalloc", (uint64_t)(k * 3 + when));
                zt::Rng rng(seed);
                FailCase f(seed, geo + ", deflateSetThreads allocation " + std::to_string(k) +
                                     " fails " + (when == 0 ? "at the start" : when == 1 ?
                                     "mid-stream" : "mid-session, other threads running"));
                int t0 = task_count();
                bool ok;
                {
                    Pair P(f.ctx, f.ar, f.at);
                    P.calls_stat = &st.calls;
                    P.data = make_data(rng, K_FILES, segs * SEG() + 1000);
                    f.ctx.data = "files+" + std::to_string(P.data.size());
                    c.level = 4 + (int)rng.below(6);
                    ok = P.init(c);
                    long live = f.at->live;     /* the stream's own blocks */
                    if (ok && when == 2) ok = P.set_threads(g.threads + 1);
                    if (ok && when) ok = P.deflate(3 * SEG(), SEG() / 2, Z_NO_FLUSH);
                    f.at->fail_at = f.at->calls + k;
                    if (ok) ok = P.set_threads(g.threads, Z_MEM_ERROR);
                    if (ok && f.at->live != live)
                        ok = P.bad("deflateSetThreads failed with " + std::to_string(f.at->live - live) +
                                   " blocks allocated besides the stream's own");
                    if (ok && t0 >= 0 && tasks_settle(t0) > t0)
                        ok = P.bad("threads left running after deflateSetThreads failed");
                    int t1 = task_count();
                    if (ok) ok = finish_stream(P, rng);
                    if (ok && t1 >= 0 && task_count() > t1)
                        ok = P.bad("threads started after deflateSetThreads failed");
                    /* and threads can still be given to it */
                    if (ok) ok = P.reset(false) && P.set_threads(g.threads);
                    if (ok) ok = finish_stream(P, rng);
                    P.note_tasks();
                    if (ok) ok = P.end();
                    st.cases++;
                    if (P.engaged) st.engaged++;
                }
                EXPECT_EQ(f.at->live, 0) << f.ctx.params;
                if (!ok) st.failed++;
            }

        /* the first threaded deflate(): its job buffers, each failed in turn;
         * then every allocation in every deflate() call failing */
        for (long k : which(job_allocs + 1)) {
            if (st.stop()) return;
            bool all = k == job_allocs;
            uint64_t seed = zt::case_seed("threads-failjobs", (uint64_t)k);
            zt::Rng rng(seed);
            FailCase f(seed, geo + (all ? ", every allocation in deflate() fails" :
                                    ", allocation " + std::to_string(k) +
                                    " of the first threaded deflate() fails"));
            /* the last case's threads gone: else they could hide this
               one's (the check of the next session below) */
            int t0 = idle >= 0 ? tasks_settle(idle) : -1;
            bool ok;
            {
                Pair P(f.ctx, f.ar, f.at);
                P.tasks0 = t0;
                P.calls_stat = &st.calls;
                P.data = make_data(rng, K_FILES, segs * SEG() + 1000);
                f.ctx.data = "files+" + std::to_string(P.data.size());
                ok = P.init(c) && P.set_threads(g.threads);
                long live = f.at->live;
                if (all) f.at->fail_all = true;
                else f.at->fail_at = f.at->calls + k;
                /* ends in a session where the buffers can be had */
                if (ok) ok = P.deflate(3 * SEG(), SEG() / 8, Z_NO_FLUSH);
                if (ok && !all && f.at->live != live)
                    ok = P.bad("the failed job buffers left " + std::to_string(f.at->live - live) +
                               " blocks allocated");
                if (ok && t0 >= 0 && task_count() > t0)
                    ok = P.bad("threads started without their job buffers");
                if (ok && all) ok = finish_stream(P, rng);
                if (ok && all && t0 >= 0 && task_count() > t0)
                    ok = P.bad("threads started though every allocation failed");
                f.at->fail_all = false;
                f.at->fail_at = -1;
                if (ok && !all) ok = finish_stream(P, rng);
                /* the next session tries again, and gets them */
                if (ok) ok = P.reset(false);
                if (ok) ok = P.deflate(P.data.size(), SEG() / 8, Z_NO_FLUSH);
                P.note_tasks();
                if (ok && t0 >= 0 && !P.engaged)
                    ok = P.bad("no threads at the next session, with memory to be had");
                if (ok) ok = finish_stream(P, rng);
                if (ok) ok = P.end();
                st.cases++;
                if (P.engaged) st.engaged++;
            }
            EXPECT_EQ(f.at->live, 0) << f.ctx.params;
            if (!ok) st.failed++;
        }

        /* deflateCopy() of a stream in a session */
        for (long k = 0; k <= init_allocs; k++) {
            if (big_segments() && k != 0 && k != init_allocs - 1) continue;
            uint64_t seed = zt::case_seed("threads-failcopy", (uint64_t)k);
            zt::Rng rng(seed);
            FailCase f(seed, geo + ", deflateCopy allocation " + std::to_string(k) + " fails");
            {
                Pair P(f.ctx, f.ar, f.at);
                P.data = make_data(rng, K_FILES, segs * SEG() + 1000);
                bool ok = P.init(c) && P.set_threads(g.threads) &&
                          P.deflate(P.data.size(), SEG() / 4, Z_NO_FLUSH);
                z_stream cp[2];
                int r[2];
                if (ok) {
                    f.ar->fail_at = f.ar->calls + k;
                    f.at->fail_at = f.at->calls + k;
                    long live = f.at->live;
                    for (int i = 0; i < 2; i++) {
                        memset(&cp[i], 0, sizeof cp[i]);
                        r[i] = P.d[i].A->deflateCopy(&cp[i], &P.d[i].s);
                    }
                    EXPECT_EQ(r[0], r[1]) << f.ctx.params;
                    EXPECT_EQ(r[1], k < init_allocs ? Z_MEM_ERROR : Z_OK) << f.ctx.params;
                    if (r[1] != Z_OK) EXPECT_EQ(f.at->live, live) << f.ctx.params;
                    for (int i = 0; i < 2; i++)
                        if (r[i] == Z_OK) P.d[i].A->deflateEnd(&cp[i]);
                    f.ar->fail_at = f.at->fail_at = -1;
                    ok = P.compare();
                }
                if (ok) ok = finish_stream(P, rng);
                if (ok) P.end();
            }
            EXPECT_EQ(f.at->live, 0) << f.ctx.params;
        }
    }
    expect_engaged(st, "FailingAllocatorLeaksOrBreaks", 1);
}

/* ---- ZLIB_TURBO_THREADS ---------------------------------------------------- */

/* ZLIB_TURBO_THREADS set (or unset, for nullptr) while it lives */
struct EnvThreads : zt::ScopedEnv {
    explicit EnvThreads(const char *v) : zt::ScopedEnv("ZLIB_TURBO_THREADS", v) {}
};

/* the input a stream must have taken before the environment gives it
 * threads (ZT_AUTO_MIN: four of the library's longest segments) */
size_t AUTO() { return 4 * SEG(); }

/* One tur stream: len bytes of text in calls of `chunk` bytes, the last
 * with Z_FINISH; deflateSetThreads(set) first unless set is -1.  What it
 * allocated, whether worker threads were seen, and its bytes, checked
 * against ref's. */
struct EnvRun {
    long allocs = 0;
    bool threads = false;
    int max_tasks = 0;          /* worker threads seen at once, at most */
    bool same = false;          /* ref's bytes */
};
EnvRun env_run(int level, size_t len, size_t chunk, int set = -1) {
    EnvRun r;
    zt::Rng rng(len * 31 + (size_t)level);
    Bytes in = zt::generate(rng, zt::GEN_TEXT, len), out[2];
    int t0 = task_count();
    for (int i = 0; i < 2; i++) {
        const zapi *A = i ? TUR : REF;
        Alloc al;
        z_stream s;
        memset(&s, 0, sizeof s);
        al.attach(s);
        if (ZAPI_DEFLATE_INIT2(A, &s, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            return r;
        if (i && set >= 0) TUR->deflateSetThreads(&s, set);
        out[i].resize(len + len / 8 + 1024);
        s.next_out = out[i].data();
        s.avail_out = (uInt)out[i].size();
        size_t at = 0;
        int rc;
        do {
            size_t n = std::min(chunk, len - at);
            s.next_in = in.data() + at;
            s.avail_in = (uInt)n;
            rc = A->deflate(&s, at + n == len ? Z_FINISH : Z_NO_FLUSH);
            at += n - s.avail_in;
            if (i && t0 > 0) {
                int k = task_count() - t0;
                r.max_tasks = std::max(r.max_tasks, k);
                if (k > 0) r.threads = true;
            }
        } while (rc == Z_OK);
        out[i].resize(s.total_out);
        A->deflateEnd(&s);
        if (i) r.allocs = al.calls;
    }
    tasks_settle(t0);
    r.same = out[0] == out[1];
    return r;
}

/* The environment's threads: every case of the random driver on a stream
 * that the program gives no count, with ZLIB_TURBO_THREADS set, long
 * enough for it to apply: the bytes must be zlib's, call by call. */
TEST(DeflateThreads, EnvThreadsDiffer) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.flush_pct = 2;
    p.params_pct = 2;
    p.params_slow_only = 1;
    p.reset_pct = 5;
    p.move_pct = 10;
    static const char *vals[] = {"2", "3", "4", "8", "16"};
    long n = cases_for(30, 150, 2, 5);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("threads-env", (uint64_t)i);
        zt::Rng rng(seed);
        Cfg c = random_cfg(rng, p);
        c.threads = 1;          /* no deflateSetThreads() */
        if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_DEFAULT_STRATEGY;
        c.len = AUTO() + case_len(rng, 2, 8);
        EnvThreads e(vals[i % 5]);
        run_case("EnvThreadsDiffer", seed, c, p, st, rng);
    }
    expect_engaged(st, "EnvThreadsDiffer", 1);
}

/* Streams shorter than ZT_AUTO_MIN must run as without the environment:
 * the same allocations, no thread; longer ones do start threads (else
 * the test could not fail). */
TEST(DeflateThreads, EnvStartsThreadsForSmallStreams) {
    NEED_THREADS();
    const Probe &pr = probe();
    if (!pr.visible) GTEST_SKIP() << pr.note;
    for (int level : {4, 6, 9}) {
        for (size_t len : {AUTO() / 2, AUTO() - 1}) {
            EnvRun base, r;
            {
                EnvThreads e(nullptr);
                base = env_run(level, len, len);
            }
            {
                EnvThreads e("8");
                r = env_run(level, len, len);
            }
            EXPECT_TRUE(r.same) << "level " << level << ", " << len << " bytes";
            EXPECT_FALSE(r.threads) << "ZLIB_TURBO_THREADS=8 started threads for a stream of "
                                    << len << " bytes at level " << level;
            EXPECT_EQ(r.allocs, base.allocs)
                << "ZLIB_TURBO_THREADS=8 changed the allocations of a stream of " << len
                << " bytes at level " << level;
        }
        /* calls too small for threads, however long the stream: none */
        {
            EnvThreads e("8");
            EnvRun r = env_run(level, 2 * AUTO(), SEG() / 16);
            EXPECT_TRUE(r.same);
            EXPECT_FALSE(r.threads) << "threads for calls of " << SEG() / 16 << " bytes";
        }
        /* the control: enough input in one call */
        EnvRun r;
        {
            EnvThreads e("8");
            r = env_run(level, AUTO() + 2 * SEG(), AUTO() + 2 * SEG());
        }
        EXPECT_TRUE(r.same) << "level " << level;
        EXPECT_TRUE(r.threads) << "ZLIB_TURBO_THREADS=8 started no thread for "
                               << AUTO() + 2 * SEG() << " bytes in one call at level " << level;
    }
}

/* A count the program set, 0 and 1 included, wins over the environment. */
TEST(DeflateThreads, EnvOverridesProgramCount) {
    NEED_THREADS();
    const Probe &pr = probe();
    if (!pr.visible) GTEST_SKIP() << pr.note;
    size_t len = AUTO() + 3 * SEG();
    for (int set : {0, 1}) {
        EnvRun base, r;
        {
            EnvThreads e(nullptr);
            base = env_run(6, len, len, set);
        }
        {
            EnvThreads e("8");
            r = env_run(6, len, len, set);
        }
        EXPECT_TRUE(r.same);
        EXPECT_FALSE(r.threads) << "deflateSetThreads(strm, " << set
                                << ") and ZLIB_TURBO_THREADS=8: threads started";
        EXPECT_EQ(r.allocs, base.allocs) << "deflateSetThreads(strm, " << set << ")";
    }
    EnvThreads e("8");
    EnvRun r = env_run(6, len, SEG(), 2);
    EXPECT_TRUE(r.same);
    EXPECT_TRUE(r.threads) << "deflateSetThreads(strm, 2): no thread";
    EXPECT_LE(r.max_tasks, 1) << "deflateSetThreads(strm, 2) and ZLIB_TURBO_THREADS=8: "
                              << r.max_tasks << " worker threads";
}

/* What is not a count starts nothing; what is, does. */
TEST(DeflateThreads, EnvBadValuesStartThreads) {
    NEED_THREADS();
    const Probe &pr = probe();
    if (!pr.visible) GTEST_SKIP() << pr.note;
    size_t len = AUTO() + 2 * SEG();
    for (const char *v : {"", "0", "1", "x", "4x", "-4", " 4", "+4", "4 ", "0x4", "2.5"}) {
        EnvThreads e(v);
        EnvRun r = env_run(4, len, len);
        EXPECT_TRUE(r.same) << "ZLIB_TURBO_THREADS='" << v << "'";
        EXPECT_FALSE(r.threads) << "ZLIB_TURBO_THREADS='" << v << "' started threads";
    }
    for (const char *v : {"2", "04", "3"}) {
        EnvThreads e(v);
        EnvRun r = env_run(4, len, SEG());
        EXPECT_TRUE(r.same) << "ZLIB_TURBO_THREADS='" << v << "'";
        EXPECT_TRUE(r.threads) << "ZLIB_TURBO_THREADS='" << v << "' started no thread";
        EXPECT_LE(r.max_tasks, atoi(v) - 1) << "ZLIB_TURBO_THREADS='" << v << "'";
    }
}

/* ---- fork() ------------------------------------------------------------------ */

/* Drives streams a and b (one of each library, or tur with and without
 * threads) with the same calls until both end: the output room of each
 * call is `room`; returns 0 if the bytes and return codes agree, else a
 * code for the report; in the child also whether a thread appeared. */
int fork_finish(const zapi *A, z_stream *a, Bytes &oa, const zapi *B, z_stream *b, Bytes &ob,
                size_t room, bool single, bool same_calls) {
    int ended[2] = {0, 0};
    for (int n = 0; n < 1000000; n++) {
        z_stream *s[2] = {a, b};
        Bytes *o[2] = {&oa, &ob};
        const zapi *L[2] = {A, B};
        int rc[2];
        for (int i = 0; i < 2; i++) {
            rc[i] = Z_STREAM_END;
            if (ended[i]) continue;
            size_t have = s[i]->total_out;
            o[i]->resize(have + room);
            s[i]->next_out = o[i]->data() + have;
            s[i]->avail_out = (uInt)room;
            rc[i] = L[i]->deflate(s[i], Z_FINISH);
            o[i]->resize(s[i]->total_out);
            ended[i] = rc[i] == Z_STREAM_END;
        }
        if (single && task_count() > 1) return 3;
        /* levels 10-12 read ahead more with threads: only the bytes count */
        if (same_calls && (rc[0] != rc[1] || a->avail_in != b->avail_in)) return 4;
        if (ended[0] && ended[1]) return oa == ob ? 0 : 5;
        if ((rc[0] != Z_OK && rc[0] != Z_STREAM_END) ||
            (rc[1] != Z_OK && rc[1] != Z_STREAM_END)) return 6;
    }
    return 7;
}

const char *fork_why(int code) {
    switch (code) {
    case 3: return "a thread was started in the child";
    case 4: return "return codes or input consumed differ";
    case 5: return "the bytes differ";
    case 6: return "an error";
    case 7: return "the stream did not end";
    case 8: return "a new stream in the child started threads";
    case 9: return "a new stream in the child wrote other bytes";
    default: return "?";
    }
}

/* A process forks while its streams have worker threads, some of them
 * working ahead of the caller.  The child has only the forking thread: it
 * must finish the inherited streams there with zlib's bytes, without a
 * hang (the workers and their locks are gone) and without starting
 * threads, and a new stream in the child does not start threads from the
 * environment either (only the forking thread should run there until
 * exec()).  The parent goes on as before.  Levels 4-9 against zlib; 10-12
 * with threads against tur on one thread. */
TEST(DeflateThreads, ForkChildHangsOrDiffers) {
    NEED_THREADS();
#if defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "ThreadSanitizer does not follow a multi-threaded fork()";
#endif
    const Probe &pr = probe();
    Stats st;
    long rounds = zt::by_mode(8, 40);
    for (long round = 0; round < rounds && !st.stop(); round++) {
        uint64_t seed = zt::case_seed("threads-fork", (uint64_t)round);
        zt::Rng rng(seed);
        bool opt = round % 4 == 3;
        bool env = round % 2 == 1;
        int level = opt ? 10 + (int)(round / 4 % 3) : 4 + (int)(round % 6);
        /* levels 10-12 start threads from two of their segments */
        const char *zb = getenv("ZO_SEG_BITS");
        size_t zo_seg = (size_t)1 << (zb && *zb ? atoi(zb) : 18);
        size_t len = opt ? std::max(3 * zo_seg, AUTO() + 2 * SEG()) + 1000
                         : std::max(AUTO() + 12 * SEG(), (size_t)1 << 18);
        Bytes data = make_data(rng, round % 3 ? K_FILES : K_TEXT, len);
        const zapi *A = opt ? TUR : REF;
        z_stream s[2];
        Bytes o[2];
        int t0 = task_count();
        int ok = 1;
        std::unique_ptr<EnvThreads> e;
        e.reset(new EnvThreads(env ? "4" : nullptr));
        for (int i = 0; i < 2; i++) {
            memset(&s[i], 0, sizeof s[i]);
            const zapi *L = i ? TUR : A;
            ok &= ZAPI_DEFLATE_INIT2(L, &s[i], level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
            if (i && !env) ok &= TUR->deflateSetThreads(&s[i], 4) == Z_OK;
            s[i].next_in = data.data();
            s[i].avail_in = (uInt)len;
        }
        if (opt) {      /* the one-thread stream: the environment must not reach it */
            TUR->deflateSetThreads(&s[0], 1);
        }
        ASSERT_TRUE(ok);
        /* a few calls with little output room: jobs run ahead */
        int calls = 1 + (int)rng.below(4);
        for (int c = 0; c < calls && ok; c++)
            for (int i = 0; i < 2; i++) {
                size_t have = s[i].total_out;
                o[i].resize(have + SEG() / 8);
                s[i].next_out = o[i].data() + have;
                s[i].avail_out = (uInt)(SEG() / 8);
                int rc = (i ? TUR : A)->deflate(&s[i], Z_NO_FLUSH);
                EXPECT_TRUE(rc == Z_OK || rc == Z_BUF_ERROR) << "round " << round << ": " << rc;
                ok &= rc == Z_OK || rc == Z_BUF_ERROR;
                o[i].resize(s[i].total_out);
            }
        ASSERT_TRUE(ok);
        st.cases++;
        if (t0 > 0 && task_count() > t0) st.engaged++;
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        ASSERT_GE(pid, 0) << "fork() failed";
        if (pid == 0) {
            alarm(120);
            bool single = task_count() == 1;
            int code = fork_finish(A, &s[0], o[0], TUR, &s[1], o[1], SEG() / 4, single, !opt);
            A->deflateEnd(&s[0]);
            TUR->deflateEnd(&s[1]);
            if (code == 0) {
                /* a new stream with the environment's threads */
                EnvThreads e2("4");
                EnvRun r = env_run(6, AUTO() + 2 * SEG(), AUTO() + 2 * SEG());
                if (single && r.threads) code = 8;
                else if (!r.same) code = 9;
            }
            _exit(code);
        }
        int code = fork_finish(A, &s[0], o[0], TUR, &s[1], o[1], SEG() / 4, false, !opt);
        EXPECT_EQ(code, 0) << "parent, round " << round << " (level " << level
                           << (env ? ", ZLIB_TURBO_THREADS=4" : ", 4 threads") << "): "
                           << fork_why(code);
        A->deflateEnd(&s[0]);
        TUR->deflateEnd(&s[1]);
        int status = 0;
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        if (WIFSIGNALED(status)) {
            st.failed++;
            ADD_FAILURE() << "child, round " << round << " (level " << level << "): killed by signal "
                          << WTERMSIG(status)
                          << (WTERMSIG(status) == SIGALRM ? " (a hang: 120 s)" : "");
        } else if (WEXITSTATUS(status) != 0) {
            st.failed++;
            ADD_FAILURE() << "child, round " << round << " (level " << level
                          << (env ? ", ZLIB_TURBO_THREADS=4" : ", 4 threads") << "): "
                          << fork_why(WEXITSTATUS(status));
        }
        tasks_settle(t0);
    }
    expect_engaged(st, "ForkChildHangsOrDiffers", 2);
}

}  /* namespace */
