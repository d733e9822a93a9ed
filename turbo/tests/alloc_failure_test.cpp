/* alloc_failure_test.cpp -- every allocation of every entry point fails in
 * turn, and the library under test behaves as pristine zlib 1.3.2 does.
 *
 * A scenario is a fixed sequence of calls on one library (deflateInit2,
 * deflateSetDictionary, deflatePrime, deflateParams, deflate with flushes,
 * deflateCopy and the copy finished, deflateReset and a second message,
 * deflateEnd; inflateInit2, inflateGetHeader, inflate, inflateSetDictionary,
 * inflateSync, inflateCopy, inflateReset, inflateEnd; inflateBackInit,
 * inflateBack, inflateBackEnd; gzopen/gzdopen, gzbuffer, gzsetparams,
 * gzwrite, gzputc, gzputs, gzprintf, gzflush, gzread, gzclose; compress2,
 * uncompress2), with zlib's documented reaction to each error: a failed
 * deflateInit2/inflateInit2/inflateBackInit is followed by its End call (it
 * must answer Z_STREAM_ERROR: nothing to free), a failed deflateCopy or
 * inflateCopy leaves the source stream going on to its end, Z_MEM_ERROR
 * from inflate or inflateSetDictionary is followed by one more inflate
 * (which must say Z_MEM_ERROR again, as zlib's does) and inflateEnd, a
 * failed gz* call by the rest of the calls and gzclose.  Each scenario runs
 * first without failures, then with allocation k failing, for k = 0, 1, ...
 * until a run in which no allocation failed (the whole operation
 * succeeded).  Every run must end with every block freed (the counting
 * allocator sees each zalloc matched by one zfree of that block; the
 * sanitizer build of the suite, turbo/tests/run_stress.sh, adds
 * LeakSanitizer), and no zfree of a block it did not give.
 *
 * Against pristine zlib: each allocation is tagged with the call that made
 * it.  When, in that call, tur allocates as often as ref, ref runs with its
 * matching allocation failing and both runs must show the same return
 * codes, total_in/total_out/adler/msg after each call, and output bytes.
 * When ref makes no allocation in that call (tur's own: job buffers of
 * threads, prepared dictionaries), ref runs without failures and tur must
 * still do exactly what it does (deflate() never fails because of threads:
 * fewer threads and the same bytes; a failed deflatePrepareDictionary()
 * leaves *dict NULL and the caller falls back to deflateSetDictionary()).
 * Levels 10-12 have no pristine counterpart: there Z_MEM_ERROR may come
 * from deflateInit2, deflateParams (only when moving to 10-12, and the
 * stream then goes on at its old level: pristine's bytes of that level),
 * deflateCopy (the source goes on, its bytes unchanged), and a run whose
 * calls all answered as without failures must have the same bytes (fewer
 * threads).  The bytes of the run where nothing failed equal pristine's at
 * 0-9 and inflate back (pristine inflate) at 10-12.
 *
 * zalloc covers everything but the gz* functions, compress2() and
 * uncompress2(), which call malloc() directly (through zlib's zcalloc).
 * For them the suite is linked with -Wl,--wrap=malloc,--wrap=free
 * (turbo/tests/Makefile, WRAP_MALLOC): this file's __wrap_malloc counts and
 * fails the calls made on the test's thread while a scenario runs, and
 * tracks the blocks until they are freed.  Without the wrap (__real_malloc
 * is a weak reference, NULL then) those tests are skipped, saying why.  The
 * same wrap checks that, with zalloc set, neither library calls malloc()
 * directly during any zalloc scenario.
 *
 * Quick mode: every level 0-9 once with its own wrapper and options, each
 * inflate shape once, threads at 4-9, levels 10-12 (threads at 10 only,
 * the allocations after deflateInit2's); ZT_MODE=full: more shapes and
 * levels.  A failure names the scenario and k; the scenarios have no
 * random choices besides their seed (printed), so each is repeatable.
 */
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zt_harness.h"

/* ---- malloc() as the gz* functions see it --------------------------------- */
/* With -Wl,--wrap=malloc the references to malloc in every object of the
 * program (both libraries, the drivers) reach __wrap_malloc, and
 * __real_malloc is the C library's.  Without it __real_malloc stays NULL. */
extern "C" {
void *__real_malloc(size_t n) __attribute__((weak));
void __real_free(void *p) __attribute__((weak));
void *__wrap_malloc(size_t n);
void __wrap_free(void *p);
}

namespace {

using Bytes = std::vector<uint8_t>;
using zt::REF;
using zt::TUR;
typedef struct z_dict_s zdict;

bool have_wrap() { return __real_malloc != nullptr && __real_free != nullptr; }
void *sys_malloc(size_t n) { return __real_malloc ? __real_malloc(n) : malloc(n); }
void sys_free(void *p) {
    if (__real_free) __real_free(p);
    else free(p);
}

/* ---- the counting, failing allocator --------------------------------------- */
/* One of them serves one run of a scenario: as zalloc/zfree, or as malloc
 * and free through the wrap (Watch).  Not thread-safe: zlib-turbo allocates
 * only on the caller's thread (zturbo.h; DeflateThreads checks it). */
struct Alloc {
    long calls = 0;             /* allocations asked for */
    long fail_at = -1;          /* the one to fail (index from 0) */
    bool failed = false;        /* it was asked for and failed */
    bool strict = true;         /* a free of a block not ours is an error */
    std::string phase = "-";    /* the call under way (Side) */
    std::vector<std::string> keys;      /* the phase of each allocation */
    std::map<void *, size_t> live;      /* blocks not freed yet */
    long bad_frees = 0;
    void *get(size_t n) {
        long k = calls++;
        keys.push_back(phase);
        if (k == fail_at) {
            failed = true;
            return nullptr;
        }
        void *p = sys_malloc(n ? n : 1);
        if (p) live[p] = n;
        return p;
    }
    /* false: not one of ours */
    bool put(void *p) {
        if (p == nullptr) return true;
        auto it = live.find(p);
        if (it == live.end()) {
            if (strict) bad_frees++;
            return false;
        }
        live.erase(it);
        sys_free(p);
        return true;
    }
    size_t live_bytes() const {
        size_t b = 0;
        for (auto &e : live) b += e.second;
        return b;
    }
    static voidpf za(voidpf op, uInt n, uInt size) {
        return ((Alloc *)op)->get((size_t)n * size);
    }
    static void zf(voidpf op, voidpf p) { ((Alloc *)op)->put(p); }
    void attach(z_stream &s) {
        s.zalloc = za;
        s.zfree = zf;
        s.opaque = this;
    }
};

/* The wrap's state: malloc() and free() of g_owner's thread go to g_watch
 * while it is set; g_stray counts malloc() calls while g_stray_on. */
std::atomic<Alloc *> g_watch{nullptr};
std::atomic<bool> g_stray_on{false};
long g_stray = 0;
pthread_t g_owner;
thread_local bool t_inside = false;

bool owner_thread() { return pthread_equal(pthread_self(), g_owner) != 0; }

/* counts (and fails) this thread's malloc() calls into al while it lives */
struct Watch {
    explicit Watch(Alloc &al) {
        al.strict = false;      /* other frees pass through */
        g_owner = pthread_self();
        g_watch.store(&al);
    }
    ~Watch() { g_watch.store(nullptr); }
};
/* counts this thread's malloc() calls while it lives */
struct StrayWatch {
    StrayWatch() {
        g_owner = pthread_self();
        g_stray = 0;
        g_stray_on.store(true);
    }
    ~StrayWatch() { g_stray_on.store(false); }
    long count() const { return g_stray; }
};

}  /* namespace */

extern "C" void *__wrap_malloc(size_t n) {
    Alloc *a = g_watch.load(std::memory_order_acquire);
    if (a != nullptr && !t_inside && owner_thread()) {
        t_inside = true;
        void *p = a->get(n);
        t_inside = false;
        return p;
    }
    if (g_stray_on.load(std::memory_order_relaxed) && !t_inside && owner_thread()) g_stray++;
    return __real_malloc(n);
}

extern "C" void __wrap_free(void *p) {
    Alloc *a = g_watch.load(std::memory_order_acquire);
    if (a != nullptr && p != nullptr && !t_inside && owner_thread()) {
        t_inside = true;
        bool ours = a->put(p);
        t_inside = false;
        if (ours) return;
    }
    __real_free(p);
}

namespace {

/* ---- one run of a scenario ------------------------------------------------ */
struct Trace {
    std::vector<std::string> ev;    /* each zlib call both libraries make */
    Bytes out, out2;                /* the stream's output, the copy's */
    bool done = false;              /* the scenario reached its end */
    std::string bad;                /* the first documented promise broken */
    int ncommon = 0, nextra = 0;
    void broke(const std::string &w) {
        if (bad.empty()) bad = w;
    }
    bool has_mem_error() const {
        for (auto &e : ev)
            if (e.find("=-4") != std::string::npos) return true;
        return false;
    }
};

std::string stream_note(const z_stream &s) {
    return " in=" + std::to_string(s.total_in) + " out=" + std::to_string(s.total_out) +
           " adler=" + std::to_string(s.adler) + " msg=" + zt::show_msg(s.msg);
}

/* one library running one scenario: call() for the calls both libraries
 * make (compared with pristine's), extra() for zlib-turbo's own */
struct Side {
    const zapi *A;
    Alloc &al;
    Trace &t;
    bool tur() const { return A == TUR; }
    template <class F> int call(const char *fn, F f, const z_stream *s = nullptr) {
        al.phase = "c" + std::to_string(t.ncommon++) + ":" + fn;
        int rc = f();
        al.phase = "-";
        t.ev.push_back(std::string(fn) + "=" + std::to_string(rc) + (s ? stream_note(*s) : ""));
        return rc;
    }
    template <class F> int extra(const char *fn, F f) {
        al.phase = "x" + std::to_string(t.nextra++) + ":" + fn;
        int rc = f();
        al.phase = "-";
        return rc;
    }
    void note(const std::string &e) { t.ev.push_back(e); }
};

using Scenario = std::function<void(Side &)>;

/* ---- the driver: every allocation failed in turn ------------------------ */
struct Tally {
    long scenarios = 0, runs = 0, compared = 0, absorbed_vs_ref = 0, differently = 0,
         mem_errors = 0, failures = 0;
    bool stop() const { return failures >= 5 || zt::too_many_failures(); }
};

struct Opts {
    bool with_ref = true;       /* pristine zlib runs the same scenario */
    bool watch_malloc = false;  /* count malloc() (gz*), not zalloc */
    long first_k = 0;           /* fail from this allocation on */
    /* a check of the run without failures (its Trace), "" when fine */
    std::function<std::string(const Trace &)> check_base;
    /* a check of each run (its Trace), "" when fine */
    std::function<std::string(const Trace &)> check_run;
};

void run_once(const Scenario &sc, const zapi *A, long fail_at, bool watch, Alloc &al, Trace &t) {
    al.fail_at = fail_at;
    Side sd{A, al, t};
    if (watch) {
        Watch w(al);
        sc(sd);
    } else {
        long stray;
        {
            StrayWatch sw;
            sc(sd);
            stray = sw.count();
        }
        if (stray && have_wrap())
            t.broke(std::to_string(stray) + " malloc() call(s) of " + A->name +
                    " with zalloc set (memory not taken through zalloc)");
    }
}

std::string leak_note(const Alloc &a) {
    return std::to_string(a.live.size()) + " block(s), " + std::to_string(a.live_bytes()) +
           " bytes, left allocated";
}

std::string first_diff(const Trace &r, const Trace &t) {
    size_t n = std::min(r.ev.size(), t.ev.size());
    for (size_t i = 0; i < n; i++)
        if (r.ev[i] != t.ev[i])
            return "call " + std::to_string(i) + ": ref " + r.ev[i] + " / tur " + t.ev[i];
    if (r.ev.size() != t.ev.size())
        return "ref made " + std::to_string(r.ev.size()) + " calls, tur " + std::to_string(t.ev.size()) +
               (n < r.ev.size() ? ", ref's next: " + r.ev[n] : ", tur's next: " + t.ev[n]);
    if (r.out != t.out)
        return "output differs (ref " + std::to_string(r.out.size()) + " bytes crc " +
               std::to_string(zt::crc_of(r.out)) + ", tur " + std::to_string(t.out.size()) + " bytes crc " +
               std::to_string(zt::crc_of(t.out)) + ")";
    if (r.out2 != t.out2) return "the copy's output differs";
    return "";
}

std::map<std::string, long> count_keys(const Alloc &a) {
    std::map<std::string, long> m;
    for (auto &k : a.keys) m[k]++;
    return m;
}

void every_failure(Tally &tl, const std::string &what, const Scenario &sc, const Opts &o) {
    if (tl.stop()) return;
    tl.scenarios++;
    auto fail = [&](const std::string &m) {
        tl.failures++;
        ADD_FAILURE() << what << ": " << m;
    };
    Alloc ar0, at0;
    Trace tr0, tt0;
    if (o.with_ref) run_once(sc, REF, -1, o.watch_malloc, ar0, tr0);
    run_once(sc, TUR, -1, o.watch_malloc, at0, tt0);
    if (o.with_ref) {
        if (!tr0.done || !tr0.bad.empty())
            return fail("pristine zlib, without failures: " + (tr0.bad.empty() ? "did not end" : tr0.bad));
        if (!ar0.live.empty()) return fail("pristine zlib, without failures: " + leak_note(ar0));
    }
    if (!tt0.done || !tt0.bad.empty())
        return fail("without failures: " + (tt0.bad.empty() ? std::string("did not end") : tt0.bad));
    if (!at0.live.empty()) return fail("without failures: " + leak_note(at0));
    if (at0.bad_frees) return fail("without failures: freed blocks it was not given");
    if (o.with_ref) {
        std::string d = first_diff(tr0, tt0);
        if (!d.empty()) return fail("ref and tur differ without failing allocations: " + d);
    }
    if (o.check_base) {
        std::string e = o.check_base(tt0);
        if (!e.empty()) return fail("without failures: " + e);
    }
    auto rkeys = count_keys(ar0), tkeys = count_keys(at0);
    const long n = at0.calls;
    auto t0 = std::chrono::steady_clock::now();
    struct Done {
        std::function<void()> f;
        ~Done() { f(); }
    } done{[&] {
        if (zt::opt().verbose)
            fprintf(stderr, "[zt]   %s: tur %ld allocations, ref %ld (%.2f s)\n", what.c_str(), n, ar0.calls,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }};
    for (long k = o.first_k;; k++) {
        if (tl.stop()) return;
        if (k > n + 1000) return fail("allocations never end (k " + std::to_string(k) + ")");
        Alloc at;
        Trace tt;
        run_once(sc, TUR, k, o.watch_malloc, at, tt);
        tl.runs++;
        std::string where = "allocation " + std::to_string(k) + " of " + std::to_string(n) + " failing" +
                            (k < (long)at.keys.size() ? " (in " + at.keys[k] + ")" : "");
        if (!at.live.empty()) return fail(where + ": " + leak_note(at) + " after the end");
        if (at.bad_frees) return fail(where + ": freed " + std::to_string(at.bad_frees) + " block(s) it was not given");
        if (!tt.bad.empty()) return fail(where + ": " + tt.bad);
        if (!tt.done) return fail(where + ": the scenario did not end");
        if (tt.has_mem_error()) tl.mem_errors++;
        if (!at.failed) {
            /* the whole operation succeeded: the bytes of the run without
             * failures (pristine's at 0-9, checked above) */
            if (tt.ev != tt0.ev || tt.out != tt0.out || tt.out2 != tt0.out2)
                return fail(where + ": nothing failed, yet not the run without failures: " + first_diff(tt0, tt));
            break;
        }
        if (o.check_run) {
            std::string e = o.check_run(tt);
            if (!e.empty()) return fail(where + ": " + e);
        }
        if (o.with_ref) {
            /* ref's matching allocation, if it makes one */
            const std::string &key = at.keys[k];
            long j = 0;
            for (long i = 0; i < k; i++) j += at.keys[i] == key;
            long rn = rkeys.count(key) ? rkeys[key] : 0;
            long kr = -2;
            if (key[0] == 'x' || rn == 0) kr = -1;       /* ref does not allocate here */
            else if (rn == tkeys[key]) {
                long seen = 0;
                for (long i = 0; i < (long)ar0.keys.size(); i++)
                    if (ar0.keys[i] == key && seen++ == j) { kr = i; break; }
            }
            if (kr == -2) {
                tl.differently++;       /* documented checks only */
            } else {
                Alloc ar;
                Trace tr;
                if (kr >= 0) run_once(sc, REF, kr, o.watch_malloc, ar, tr);
                const Trace &R = kr >= 0 ? tr : tr0;
                if (kr >= 0 && !ar.live.empty())
                    fail(where + " (pristine zlib, allocation " + std::to_string(kr) + "): " + leak_note(ar) +
                         " (pristine leaks too)");
                std::string d = first_diff(R, tt);
                if (!d.empty())
                    return fail(where + (kr >= 0 ? ", ref's allocation " + std::to_string(kr) + " failing: "
                                                 : ", where ref allocates nothing (ref without failures): ") + d);
                tl.compared++;
                if (kr < 0) tl.absorbed_vs_ref++;
            }
        } else if (tt.ev == tt0.ev && (tt.out != tt0.out || tt.out2 != tt0.out2)) {
            return fail(where + ": every call answered as without failures, but the output differs");
        }
    }
}

void report(const char *test, const Tally &tl) {
    fprintf(stderr, "[zt] AllocFailure.%s: %ld scenarios, %ld runs with one allocation failing: %ld compared "
            "call by call with pristine (%ld where pristine allocates nothing), %ld where tur allocates "
            "differently, %ld ending in Z_MEM_ERROR\n", test, tl.scenarios, tl.runs, tl.compared,
            tl.absorbed_vs_ref, tl.differently, tl.mem_errors);
}

/* ---- data ------------------------------------------------------------------ */
Bytes piece(zt::Rng &rng, size_t len) {
    const auto &files = zt::file_samples();
    Bytes v;
    while (v.size() < len) {
        if (!files.empty() && rng.chance(70)) {
            const auto &f = files[rng.below((uint32_t)files.size())].bytes;
            if (f.empty()) continue;
            size_t n = std::min(len - v.size(), f.size());
            size_t off = rng.range(0, f.size() - n);
            v.insert(v.end(), f.begin() + (long)off, f.begin() + (long)(off + n));
        } else {
            Bytes g = zt::generate(rng, zt::GEN_MIX, std::min<size_t>(len - v.size(), 20000));
            v.insert(v.end(), g.begin(), g.end());
        }
    }
    return v;
}

int wbits_arg(int wb, int wrap) { return wrap == 0 ? -wb : wrap == 2 ? wb + 16 : wb; }
const char *wrap_name(int wrap) { return wrap == 0 ? "raw" : wrap == 2 ? "gzip" : "zlib"; }

/* pristine inflate of a whole stream ("" when it gives back want) */
std::string inflates_to(const Bytes &stream, int wbits, const Bytes &want, const Bytes *dict) {
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_INFLATE_INIT2(REF, &s, wbits) != Z_OK) return "inflateInit2 failed";
    Bytes out(want.size() + 1024);
    s.next_in = (Bytef *)stream.data();
    s.avail_in = (uInt)stream.size();
    s.next_out = out.data();
    s.avail_out = (uInt)out.size();
    if (dict && wbits < 0) REF->inflateSetDictionary(&s, dict->data(), (uInt)dict->size());
    int rc = REF->inflate(&s, Z_FINISH);
    if (rc == Z_NEED_DICT && dict) {
        REF->inflateSetDictionary(&s, dict->data(), (uInt)dict->size());
        rc = REF->inflate(&s, Z_FINISH);
    }
    std::string e;
    if (rc != Z_STREAM_END) e = "pristine inflate returned " + std::to_string(rc) + " " + zt::show_msg(s.msg);
    else if (s.total_out != want.size() || memcmp(out.data(), want.data(), want.size()) != 0)
        e = "pristine inflate gives other bytes";
    REF->inflateEnd(&s);
    return e;
}

/* ---- deflate scenarios ------------------------------------------------------ */
struct DefCase {
    int level = 6, wb = 15, wrap = 1, memLevel = 8, strategy = Z_DEFAULT_STRATEGY;
    size_t len = 24000;
    size_t dict = 0;            /* dictionary bytes (zlib and raw) */
    bool prepared = false;      /* tur: deflatePrepareDictionary + Use */
    bool prime = false;         /* deflatePrime() first (raw) */
    int params_first = -1;      /* deflateParams() before any deflate() */
    int params_mid = -1;        /* deflateParams() after the first third */
    int strategy_mid = -1;      /* its strategy (-1: the same) */
    bool copy = true;           /* deflateCopy() at two thirds, both finished */
    bool reset = true;          /* deflateReset() and the message again */
    int threads = 0;            /* tur: deflateSetThreads() */
    size_t first = 0;           /* input before the first flush (0: a third) */
    size_t in_chunk = 5000;     /* input per deflate() call at most (0: all) */
    size_t out_chunk = 9000;    /* output room per call at most */
    uint64_t seed = 1;
    std::string str() const {
        std::string s = "level " + std::to_string(level) + " " + wrap_name(wrap) + " windowBits " +
                        std::to_string(wbits_arg(wb, wrap)) + " memLevel " + std::to_string(memLevel) +
                        " strategy " + std::to_string(strategy) + ", " + std::to_string(len) + " bytes";
        if (dict) s += std::string(", ") + (prepared ? "prepared " : "") + "dictionary " + std::to_string(dict);
        if (prime) s += ", deflatePrime";
        if (params_first >= 0) s += ", deflateParams(" + std::to_string(params_first) + ") first";
        if (params_mid >= 0) s += ", deflateParams(" + std::to_string(params_mid) + ") mid-stream";
        if (copy) s += ", deflateCopy";
        if (reset) s += ", deflateReset";
        if (threads) s += ", " + std::to_string(threads) + " threads";
        char b[40];
        snprintf(b, sizeof b, ", seed 0x%llx", (unsigned long long)seed);
        return s + b;
    }
};

/* feeds data[*p, upto) to st in calls of at most in_chunk bytes, the last
 * with flush, each with at most out_chunk bytes of room, until the flush is
 * complete (avail_out left) or the stream ended */
int pump(Side &sd, z_stream &st, const DefCase &c, const Bytes &data, size_t *p, size_t upto,
         int flush, Bytes &out, zt::Rng &rng) {
    int rc = Z_OK;
    for (int guard = 0; guard < 1000000; guard++) {
        size_t n = upto - *p;
        if (c.in_chunk && n > c.in_chunk) n = rng.range(1, c.in_chunk);
        int f = *p + n == upto ? flush : Z_NO_FLUSH;
        st.next_in = (Bytef *)data.data() + *p;
        st.avail_in = (uInt)n;
        do {
            size_t oc = rng.range(1, c.out_chunk), o = out.size();
            out.resize(o + oc);
            st.next_out = out.data() + o;
            st.avail_out = (uInt)oc;
            rc = sd.call("deflate", [&] { return sd.A->deflate(&st, f); }, &st);
            out.resize(o + oc - st.avail_out);
            st.next_out = nullptr;
            if (rc == Z_MEM_ERROR) sd.t.broke("deflate() returned Z_MEM_ERROR");
            if (rc != Z_OK && rc != Z_BUF_ERROR) break;
        } while (st.avail_in || st.avail_out == 0 || (f == Z_FINISH && rc == Z_OK));
        *p += n - st.avail_in;
        if (rc != Z_OK && rc != Z_BUF_ERROR) return rc;
        if (*p >= upto && f == flush) return rc;
    }
    sd.t.broke("deflate() never finished");
    return rc;
}

/* deflateParams() with room for what it flushes */
int params(Side &sd, z_stream &s, int level, int strategy, Bytes &out) {
    Bytes buf(1 << 17);
    s.next_in = nullptr;
    s.avail_in = 0;
    s.next_out = buf.data();
    s.avail_out = (uInt)buf.size();
    int rc = sd.call("deflateParams", [&] { return sd.A->deflateParams(&s, level, strategy); }, &s);
    out.insert(out.end(), buf.data(), buf.data() + (buf.size() - s.avail_out));
    s.next_out = nullptr;
    s.avail_out = 0;
    return rc;
}

void deflate_scenario(Side &sd, const DefCase &c, const Bytes &data, const Bytes &dict) {
    const zapi *A = sd.A;
    Trace &t = sd.t;
    z_stream s;
    memset(&s, 0, sizeof s);
    sd.al.attach(s);
    int rc = sd.call("deflateInit2", [&] {
        return ZAPI_DEFLATE_INIT2(A, &s, c.level, Z_DEFLATED, wbits_arg(c.wb, c.wrap), c.memLevel, c.strategy);
    }, &s);
    if (rc != Z_OK) {
        if (rc != Z_MEM_ERROR) t.broke("deflateInit2 returned " + std::to_string(rc));
        rc = sd.call("deflateEnd", [&] { return A->deflateEnd(&s); });
        if (rc != Z_STREAM_ERROR) t.broke("deflateEnd after a failed deflateInit2 returned " + std::to_string(rc));
        t.done = true;
        return;
    }
    if (c.threads && sd.tur()) {
        rc = sd.extra("deflateSetThreads", [&] { return TUR->deflateSetThreads(&s, c.threads); });
        if (rc != Z_OK && rc != Z_MEM_ERROR) t.broke("deflateSetThreads returned " + std::to_string(rc));
    }
    zdict *pd = nullptr;
    bool prep_tried = false;
    auto set_dict = [&] {
        if (!c.dict) return;
        if (c.prepared && sd.tur() && !prep_tried) {
            prep_tried = true;
            pd = (zdict *)&s;       /* must become NULL on failure */
            rc = sd.extra("deflatePrepareDictionary", [&] {
                return TUR->deflatePrepareDictionary(&s, dict.data(), (uInt)dict.size(), &pd);
            });
            if (rc != Z_OK && (rc != Z_MEM_ERROR || pd != nullptr)) {
                t.broke("deflatePrepareDictionary returned " + std::to_string(rc) +
                        (pd ? " and left *dict set" : ""));
                pd = nullptr;
            }
        }
        if (pd)
            sd.call("dictionary", [&] { return TUR->deflateUseDictionary(&s, pd); }, &s);
        else
            sd.call("dictionary", [&] { return A->deflateSetDictionary(&s, dict.data(), (uInt)dict.size()); }, &s);
    };
    set_dict();
    if (c.prime) sd.call("deflatePrime", [&] { return A->deflatePrime(&s, 7, 0x55); }, &s);
    if (c.params_first >= 0) params(sd, s, c.params_first, c.strategy, t.out);
    zt::Rng rng(c.seed), crng(c.seed ^ 0xC0B1);
    size_t p = 0, a = c.first ? c.first : c.len / 3, b = a + (c.len - a) / 2;
    pump(sd, s, c, data, &p, a, Z_SYNC_FLUSH, t.out, rng);
    if (c.params_mid >= 0)
        params(sd, s, c.params_mid, c.strategy_mid >= 0 ? c.strategy_mid : c.strategy, t.out);
    pump(sd, s, c, data, &p, b, Z_NO_FLUSH, t.out, rng);
    if (c.copy) {
        z_stream cp;
        memset(&cp, 0, sizeof cp);
        rc = sd.call("deflateCopy", [&] { return A->deflateCopy(&cp, &s); });
        if (rc == Z_OK) {
            size_t q = p;
            rc = pump(sd, cp, c, data, &q, c.len, Z_FINISH, t.out2, crng);
            if (rc != Z_STREAM_END) t.broke("the copy ended with " + std::to_string(rc));
            sd.call("deflateEnd(copy)", [&] { return A->deflateEnd(&cp); });
        } else if (rc != Z_MEM_ERROR) {
            t.broke("deflateCopy returned " + std::to_string(rc));
        }
        /* after Z_MEM_ERROR cp is not a stream (zlib may leave it pointing
         * at the source's state): it is not ended */
    }
    rc = pump(sd, s, c, data, &p, c.len, Z_FINISH, t.out, rng);
    if (rc != Z_STREAM_END) t.broke("the stream ended with " + std::to_string(rc));
    if (c.reset) {
        sd.call("deflateReset", [&] { return A->deflateReset(&s); }, &s);
        set_dict();
        if (pd) {           /* the streams keep their own copy */
            TUR->deflateFreeDictionary(pd);
            pd = nullptr;
        }
        p = 0;
        rc = pump(sd, s, c, data, &p, c.len, Z_FINISH, t.out, rng);
        if (rc != Z_STREAM_END) t.broke("the second message ended with " + std::to_string(rc));
    }
    if (pd) TUR->deflateFreeDictionary(pd);
    rc = sd.call("deflateEnd", [&] { return A->deflateEnd(&s); });
    if (rc != Z_OK) t.broke("deflateEnd returned " + std::to_string(rc));
    t.done = true;
}

/* the stream's output decodes (pristine inflate) to its messages (not for
 * deflatePrime(), whose bits a decoder cannot skip) */
std::string deflate_decodes(const DefCase &c, const Bytes &data, const Bytes &dict, const Trace &t) {
    const Bytes *dp = c.dict ? &dict : nullptr;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_INFLATE_INIT2(REF, &s, wbits_arg(c.wb, c.wrap)) != Z_OK) return "inflateInit2";
    Bytes out(c.len + 1024);
    size_t pos = 0;
    std::string e;
    for (int m = 0; m < (c.reset ? 2 : 1) && e.empty(); m++) {
        if (m) REF->inflateReset(&s);
        if (dp && c.wrap == 0) REF->inflateSetDictionary(&s, dp->data(), (uInt)dp->size());
        s.next_in = (Bytef *)t.out.data() + pos;
        s.avail_in = (uInt)(t.out.size() - pos);
        s.next_out = out.data();
        s.avail_out = (uInt)out.size();
        int rc = REF->inflate(&s, Z_FINISH);
        if (rc == Z_NEED_DICT && dp) {
            REF->inflateSetDictionary(&s, dp->data(), (uInt)dp->size());
            rc = REF->inflate(&s, Z_FINISH);
        }
        if (rc != Z_STREAM_END)
            e = "message " + std::to_string(m) + ": pristine inflate returned " + std::to_string(rc) + " " +
                zt::show_msg(s.msg);
        else if (s.next_out - out.data() != (long)c.len || memcmp(out.data(), data.data(), c.len) != 0)
            e = "message " + std::to_string(m) + ": pristine inflate gives other bytes";
        pos = (size_t)(s.next_in - t.out.data());
    }
    if (e.empty() && pos != t.out.size()) e = "bytes after the last message";
    REF->inflateEnd(&s);
    return e;
}

Bytes dict_for(const DefCase &c) {
    if (!c.dict) return Bytes();
    zt::Rng r(c.seed ^ 0xD1C7);
    return piece(r, c.dict);
}

void run_deflate(Tally &tl, const DefCase &c, bool with_ref, long first_k = 0,
                 std::function<std::string(const Trace &)> check_run = nullptr) {
    zt::Rng rng(c.seed);
    Bytes data = piece(rng, c.len);
    Bytes dict = dict_for(c);
    Opts o;
    o.with_ref = with_ref;
    o.first_k = first_k;
    o.check_run = check_run;
    if (!with_ref && !c.prime)
        o.check_base = [&](const Trace &t) { return deflate_decodes(c, data, dict, t); };
    every_failure(tl, c.str(), [&](Side &sd) { deflate_scenario(sd, c, data, dict); }, o);
}

bool is_turbo() { return TUR->zlibTurboVersion != nullptr; }
using zt::have_prepared;
using zt::have_threads;
using zt::have_optimal;

/* threads must start in c's run without failures: deflate() then allocates
 * (their buffers), else the failures of those allocations go untested */
void expect_threads_allocate(const DefCase &c) {
    zt::Rng rng(c.seed);
    Bytes data = piece(rng, c.len), dict;
    Alloc al;
    Trace t;
    run_once([&](Side &sd) { deflate_scenario(sd, c, data, dict); }, TUR, -1, false, al, t);
    long in_deflate = 0;
    for (auto &k : al.keys) in_deflate += k.size() > 8 && k.compare(k.size() - 8, 8, ":deflate") == 0;
    EXPECT_GT(in_deflate, 0) << c.str() << ": no allocation in deflate(): threads never started, "
                             << "the failures of their buffers are not tested";
}

/* levels 0-9: deflateInit2, deflateSetDictionary, deflatePrime,
 * deflateParams, deflate with flushes, deflateCopy, deflateReset */
TEST(AllocFailure, Deflate) {
    Tally tl;
    int reps = zt::full_mode() ? 3 : 1;
    for (int rep = 0; rep < reps; rep++)
        for (int L = 0; L <= 9; L++) {
            DefCase c;
            c.seed = zt::case_seed("AllocFailure.Deflate", (uint64_t)(rep * 10 + L));
            zt::Rng r(c.seed);
            c.level = L;
            c.wrap = (L + rep) % 3;
            c.wb = c.wrap == 0 && rep == 0 ? 15 : 9 + (int)r.below(7);
            c.memLevel = 1 + (int)r.below(9);
            c.strategy = L % 4 == 3 ? (int)r.below(5) : Z_DEFAULT_STRATEGY;
            c.dict = c.wrap != 2 && L % 2 ? r.range(1, 40000) : 0;
            c.prime = c.wrap == 0 && L % 3 == 0;
            c.params_mid = (L * 7 + 3 + rep) % 10;
            c.strategy_mid = (int)r.below(5);
            c.len = r.range(8000, 40000);
            c.in_chunk = r.chance(50) ? 0 : r.range(100, 9000);
            c.out_chunk = r.range(200, 20000);
            run_deflate(tl, c, true);
        }
    /* deflateParams() before any data, and Z_FINISH in one call */
    for (int L = 0; L <= 9; L += zt::full_mode() ? 1 : 3) {
        DefCase c;
        c.seed = zt::case_seed("AllocFailure.Deflate.first", (uint64_t)L);
        c.level = L;
        c.params_first = 9 - L;
        c.in_chunk = 0;
        c.out_chunk = 200000;
        c.copy = L % 2 == 0;
        run_deflate(tl, c, true);
    }
    report("Deflate", tl);
}

/* prepared dictionaries: deflatePrepareDictionary() allocates through the
 * stream's zalloc; when it fails the caller uses deflateSetDictionary() and
 * the bytes are pristine's */
TEST(AllocFailure, PreparedDictionary) {
    ZT_NEED("prepared", have_prepared(), "the library under test has no prepared dictionaries");
    Tally tl;
    for (int L = 0; L <= 9; L += zt::full_mode() ? 1 : 2) {
        DefCase c;
        c.seed = zt::case_seed("AllocFailure.PreparedDictionary", (uint64_t)L);
        zt::Rng r(c.seed);
        c.level = L;
        c.wrap = L % 4 == 2 ? 0 : 1;
        c.wb = L % 3 ? 15 : 9 + (int)r.below(7);
        c.memLevel = L % 5 ? 8 : 1 + (int)r.below(9);
        c.dict = r.chance(30) ? r.range(1, 300) : r.range(300, 40000);
        c.prepared = true;
        c.params_mid = (L + 4) % 10;
        c.len = r.range(8000, 30000);
        run_deflate(tl, c, true);
    }
    if (is_turbo() && have_optimal())
        for (int L = 10; L <= 12; L += zt::full_mode() ? 1 : 2) {
            DefCase c;
            c.seed = zt::case_seed("AllocFailure.PreparedDictionary", (uint64_t)L);
            c.level = L;
            c.wrap = L % 2;
            c.dict = 9000;
            c.prepared = true;
            c.len = 5000;
            c.reset = false;
            run_deflate(tl, c, false);
        }
    report("PreparedDictionary", tl);
}

/* deflateSetThreads() at levels 4-9: its allocations and the job buffers of
 * the first threaded deflate() fail in turn: Z_MEM_ERROR from
 * deflateSetThreads() only, deflate() never fails, pristine's bytes */
TEST(AllocFailure, Threads) {
    ZT_NEED("threads", have_threads(), "the library under test has no threads (deflateSetThreads)");
    Tally tl;
    for (int L = 4; L <= 9; L++) {
        DefCase c;
        c.seed = zt::case_seed("AllocFailure.Threads", (uint64_t)L);
        c.level = L;
        c.wrap = L % 3;
        c.threads = L % 2 || !zt::full_mode() ? 2 : 3;
        /* the first part in one call, with more input than threads start
         * from (zturbo.h); the rest small but for full mode */
        size_t from = L >= 8 ? 65536 : L >= 6 ? 131072 : 262144;
        c.first = from + from / 4;
        c.len = c.first + (zt::full_mode() ? 2 * from : 20000);
        c.in_chunk = 0;
        c.out_chunk = 1 << 20;
        c.params_mid = L == 9 ? 8 : L + 1;
        c.copy = L % 2 == 0;
        c.reset = zt::full_mode();
        expect_threads_allocate(c);
        run_deflate(tl, c, true);
    }
    report("Threads", tl);
}

/* levels 10-12: Z_MEM_ERROR from deflateInit2, deflateParams (moving to
 * 10-12 before the first deflate; the stream goes on at its old level),
 * deflateCopy (the source goes on); threads: fewer, the same bytes */
TEST(AllocFailure, OptimalLevels) {
    ZT_NEED("optimal", is_turbo(), "the library under test is not zlib-turbo (no levels 10-12)");
    ASSERT_TRUE(have_optimal()) << "zlib-turbo refuses level 10";
    Tally tl;
    for (int L = 10; L <= 12; L++) {
        DefCase c;
        c.seed = zt::case_seed("AllocFailure.OptimalLevels", (uint64_t)L);
        zt::Rng r(c.seed);
        c.level = L;
        c.wrap = L % 3;
        c.wb = L == 11 ? 12 : 15;
        c.memLevel = 1 + (int)r.below(9);
        c.dict = L == 12 ? 6000 : 0;
        c.params_mid = L == 12 ? 10 : L + 1;
        c.len = zt::full_mode() ? 30000 : 9000;
        c.in_chunk = 3000;
        c.reset = L != 12 || zt::full_mode();
        run_deflate(tl, c, false);
    }
    /* deflateParams() from 0-9 to 10-12 before the first deflate(): on
     * Z_MEM_ERROR the stream keeps its level, so its bytes are pristine's
     * at that level */
    for (int L = 10; L <= 12; L += zt::full_mode() ? 1 : 2) {
        DefCase c;
        c.seed = zt::case_seed("AllocFailure.OptimalLevels.params", (uint64_t)L);
        c.level = 6;
        c.wrap = L % 3;
        c.params_first = L;
        c.len = 9000;
        c.copy = false;
        c.reset = false;
        zt::Rng rng(c.seed);
        Bytes data = piece(rng, c.len), dict;
        Trace at6;
        {
            DefCase c6 = c;
            c6.params_first = -1;
            Alloc al;
            run_once([&](Side &sd) { deflate_scenario(sd, c6, data, dict); }, REF, -1, false, al, at6);
        }
        run_deflate(tl, c, false, 0, [&](const Trace &t) -> std::string {
            bool refused = false;
            for (auto &e : t.ev)
                if (e.rfind("deflateParams=-4", 0) == 0) refused = true;
            if (refused && t.out != at6.out)
                return "deflateParams(6 -> " + std::to_string(L) +
                       ") failed with Z_MEM_ERROR, but the stream is not pristine's at level 6";
            return "";
        });
    }
    /* threads at 10: the allocations after deflateInit2's (those are above)
     * in quick mode */
    if (have_threads()) {
        DefCase c;
        c.seed = zt::case_seed("AllocFailure.OptimalLevels.threads", 0);
        c.level = 10;
        c.threads = 2;
        c.first = (256 << 10) + 10000;      /* more than one segment (zturbo.h) */
        c.len = c.first + 4000;
        c.in_chunk = 0;
        c.out_chunk = 1 << 20;
        c.copy = false;
        c.reset = false;
        long first_k = 0;
        if (!zt::full_mode()) {
            Alloc al;
            z_stream s;
            memset(&s, 0, sizeof s);
            al.attach(s);
            if (ZAPI_DEFLATE_INIT2(TUR, &s, 10, Z_DEFLATED, 15, 8, 0) == Z_OK) TUR->deflateEnd(&s);
            first_k = al.calls;
        }
        expect_threads_allocate(c);
        run_deflate(tl, c, false, first_k);
    }
    report("OptimalLevels", tl);
}

/* ---- inflate scenarios ------------------------------------------------------ */
struct InfCase {
    int wrap = 1, wb = 15;
    size_t len = 30000;
    size_t dict = 0;
    bool header = false;        /* gzip: inflateGetHeader() */
    bool copy = true;           /* inflateCopy() half-way, both finished */
    bool reset = true;          /* inflateReset() and the stream again */
    bool sync = false;          /* raw: 7 bytes lost, inflateSync() */
    bool finish = false;        /* one inflate(Z_FINISH) with room for all */
    size_t in_chunk = 3000, out_chunk = 5000;
    uint64_t seed = 1;
    std::string str() const {
        std::string s = std::string("inflate ") + wrap_name(wrap) + " windowBits " +
                        std::to_string(wbits_arg(wb, wrap)) + ", " + std::to_string(len) + " bytes";
        if (dict) s += ", dictionary " + std::to_string(dict);
        if (header) s += ", inflateGetHeader";
        if (copy) s += ", inflateCopy";
        if (reset) s += ", inflateReset";
        if (sync) s += ", inflateSync";
        if (finish) s += ", Z_FINISH at once";
        char b[40];
        snprintf(b, sizeof b, ", seed 0x%llx", (unsigned long long)seed);
        return s + b;
    }
};

/* inflates stream[*ip..) into out until the end or an error; Z_NEED_DICT
 * answered; returns the last code */
int inflate_on(Side &sd, z_stream &s, const InfCase &c, const Bytes &stream, size_t *ip, Bytes &out,
               const Bytes &dict, zt::Rng &rng, std::function<bool()> between = nullptr) {
    int rc = Z_OK;
    for (int guard = 0; guard < 1000000; guard++) {
        size_t n = stream.size() - *ip;
        if (!c.finish && n > c.in_chunk) n = rng.range(1, c.in_chunk);
        size_t oc = c.finish ? c.len * 2 + 1024 : rng.range(1, c.out_chunk), o = out.size();
        out.resize(o + oc);
        s.next_in = (Bytef *)stream.data() + *ip;
        s.avail_in = (uInt)n;
        s.next_out = out.data() + o;
        s.avail_out = (uInt)oc;
        rc = sd.call("inflate", [&] { return sd.A->inflate(&s, c.finish ? Z_FINISH : Z_NO_FLUSH); }, &s);
        out.resize(o + oc - s.avail_out);
        *ip += n - s.avail_in;
        if (rc == Z_NEED_DICT) {
            rc = sd.call("inflateSetDictionary", [&] {
                return sd.A->inflateSetDictionary(&s, dict.data(), (uInt)dict.size());
            }, &s);
            if (rc == Z_OK) continue;
        }
        if (rc == Z_STREAM_END) return rc;
        if (rc == Z_BUF_ERROR && c.finish && *ip < stream.size()) continue;
        if (rc != Z_OK && rc != Z_BUF_ERROR) return rc;
        if (rc == Z_BUF_ERROR && *ip == stream.size()) return rc;
        if (between && !between()) return rc;
    }
    sd.t.broke("inflate() never finished");
    return rc;
}

/* zlib's reaction to Z_MEM_ERROR: the stream stays in its error state */
void after_mem_error(Side &sd, z_stream &s) {
    Bytes buf(64);
    s.next_in = (Bytef *)buf.data();
    s.avail_in = 0;
    s.next_out = buf.data();
    s.avail_out = (uInt)buf.size();
    int rc = sd.call("inflate(after Z_MEM_ERROR)", [&] { return sd.A->inflate(&s, Z_NO_FLUSH); }, &s);
    if (rc != Z_MEM_ERROR) sd.t.broke("inflate after Z_MEM_ERROR returned " + std::to_string(rc));
}

void inflate_scenario(Side &sd, const InfCase &c, const Bytes &stream, const Bytes &dict) {
    const zapi *A = sd.A;
    Trace &t = sd.t;
    z_stream s;
    memset(&s, 0, sizeof s);
    sd.al.attach(s);
    int wb = wbits_arg(c.wb, c.wrap);
    int rc = sd.call("inflateInit2", [&] { return ZAPI_INFLATE_INIT2(A, &s, wb); }, &s);
    if (rc != Z_OK) {
        if (rc != Z_MEM_ERROR) t.broke("inflateInit2 returned " + std::to_string(rc));
        rc = sd.call("inflateEnd", [&] { return A->inflateEnd(&s); });
        if (rc != Z_STREAM_ERROR) t.broke("inflateEnd after a failed inflateInit2 returned " + std::to_string(rc));
        t.done = true;
        return;
    }
    gz_header head;
    Bytef extra[24], name[12], comment[40];
    memset(&head, 0, sizeof head);
    if (c.header) {
        head.extra = extra;
        head.extra_max = sizeof extra;
        head.name = name;
        head.name_max = sizeof name;
        head.comment = comment;
        head.comm_max = sizeof comment;
        sd.call("inflateGetHeader", [&] { return A->inflateGetHeader(&s, &head); });
    }
    auto end = [&] {
        rc = sd.call("inflateEnd", [&] { return A->inflateEnd(&s); });
        if (rc != Z_OK) t.broke("inflateEnd returned " + std::to_string(rc));
        t.done = true;
    };
    if (c.wrap == 0 && c.dict) {
        rc = sd.call("inflateSetDictionary", [&] {
            return A->inflateSetDictionary(&s, dict.data(), (uInt)dict.size());
        }, &s);
        if (rc == Z_MEM_ERROR) {
            after_mem_error(sd, s);
            return end();
        }
    }
    zt::Rng rng(c.seed), crng(c.seed ^ 0xC0B1);
    size_t ip = 0;
    if (c.sync) {
        /* the first 40% of the stream, then 7 bytes lost and a search for
         * the next full flush point */
        size_t upto = stream.size() * 2 / 5;
        Bytes part(stream.begin(), stream.begin() + (long)upto);
        size_t p0 = 0;
        rc = inflate_on(sd, s, c, part, &p0, t.out, dict, rng);
        if (rc == Z_MEM_ERROR) {
            after_mem_error(sd, s);
            return end();
        }
        ip = upto + 7;
        s.next_in = (Bytef *)stream.data() + ip;
        s.avail_in = (uInt)(stream.size() - ip);
        rc = sd.call("inflateSync", [&] { return A->inflateSync(&s); }, &s);
        ip = (size_t)(s.next_in - stream.data());
    }
    bool copied = !c.copy;
    rc = inflate_on(sd, s, c, stream, &ip, t.out, dict, rng, [&] {
        if (copied || t.out.size() < c.len / 2) return true;
        copied = true;
        z_stream cp;
        memset(&cp, 0, sizeof cp);
        int r = sd.call("inflateCopy", [&] { return A->inflateCopy(&cp, &s); });
        if (r == Z_OK) {
            size_t q = ip;
            Bytes rest;
            r = inflate_on(sd, cp, c, stream, &q, rest, dict, crng);
            if (r == Z_MEM_ERROR) after_mem_error(sd, cp);
            t.out2 = rest;
            sd.note("copy ended " + std::to_string(r));
            sd.call("inflateEnd(copy)", [&] { return A->inflateEnd(&cp); });
        } else if (r != Z_MEM_ERROR) {
            t.broke("inflateCopy returned " + std::to_string(r));
        }
        return true;
    });
    if (rc == Z_MEM_ERROR) {
        after_mem_error(sd, s);
        return end();
    }
    if (c.header)
        sd.note("header done=" + std::to_string(head.done) + " text=" + std::to_string(head.text) +
                " time=" + std::to_string(head.time) + " os=" + std::to_string(head.os) +
                " extra_len=" + std::to_string(head.extra_len) + " name=" +
                std::string((char *)name, strnlen((char *)name, sizeof name)) + " comment=" +
                std::string((char *)comment, strnlen((char *)comment, sizeof comment)));
    if (c.reset && rc == Z_STREAM_END) {
        sd.call("inflateReset", [&] { return A->inflateReset(&s); }, &s);
        if (c.wrap == 0 && c.dict)
            sd.call("inflateSetDictionary", [&] {
                return A->inflateSetDictionary(&s, dict.data(), (uInt)dict.size());
            }, &s);
        ip = 0;
        rc = inflate_on(sd, s, c, stream, &ip, t.out, dict, rng);
        if (rc == Z_MEM_ERROR) {
            after_mem_error(sd, s);
            return end();
        }
    }
    end();
}

void run_inflate(Tally &tl, const InfCase &c) {
    zt::Rng rng(c.seed);
    Bytes data = piece(rng, c.len);
    Bytes dict = c.dict ? piece(rng, c.dict) : Bytes();
    zt::DefParams p;
    p.level = (int)rng.range(1, 9);
    p.windowBits = wbits_arg(c.wb, c.wrap);
    gz_header gh;
    memset(&gh, 0, sizeof gh);
    static Bytef ex[30] = "extra field, longer than 24";
    static Bytef nm[] = "a-name-longer-than-12.txt";
    static Bytef cm[] = "a comment";
    gh.text = 1;
    gh.time = 123456789;
    gh.extra = ex;
    gh.extra_len = 28;
    gh.name = nm;
    gh.comment = cm;
    gh.hcrc = 1;
    Bytes stream = zt::ref_deflate(p, data.data(), data.size(), c.sync ? (int)(c.len / 6) : 0, Z_FULL_FLUSH,
                                   c.dict ? &dict : nullptr, c.wrap == 2 ? &gh : nullptr);
    Opts o;
    o.check_base = [&](const Trace &t) -> std::string {
        if (c.sync) {
            size_t tail = c.len / 3;
            return t.out.size() < tail || !std::equal(data.end() - (long)tail, data.end(), t.out.end() - (long)tail)
                       ? "after inflateSync, not the end of the data" : "";
        }
        Bytes want = data;
        if (c.reset) want.insert(want.end(), data.begin(), data.end());
        if (t.out != want) return "the output is not the data";
        bool copied = std::find(t.ev.begin(), t.ev.end(), "inflateCopy=0") != t.ev.end();
        if (c.copy && !copied) return "inflateCopy was not called";
        if (c.copy && (t.out2.empty() || !std::equal(t.out2.begin(), t.out2.end(), data.end() - (long)t.out2.size())))
            return "the copy's output is not the end of the data (" + std::to_string(t.out2.size()) + " bytes, data " +
                   std::to_string(data.size()) + ")";
        return "";
    };
    every_failure(tl, c.str(), [&](Side &sd) { inflate_scenario(sd, c, stream, dict); }, o);
}

/* inflateInit2 + inflate (zlib, gzip, raw; dictionary; inflateGetHeader;
 * inflateSync; inflateCopy; inflateReset) */
TEST(AllocFailure, Inflate) {
    Tally tl;
    int n = zt::full_mode() ? 40 : 12;
    for (int i = 0; i < n; i++) {
        InfCase c;
        c.seed = zt::case_seed("AllocFailure.Inflate", (uint64_t)i);
        zt::Rng r(c.seed);
        c.wrap = i % 3;
        c.wb = i % 4 == 3 ? 9 + (int)r.below(7) : 15;
        c.len = r.range(2000, 60000);
        c.dict = c.wrap != 2 && i % 5 < 2 ? r.range(10, 40000) : 0;
        c.header = c.wrap == 2 && i % 2 == 0;
        c.sync = c.wrap == 0 && i % 4 == 0;
        c.copy = i % 7 != 6;
        c.finish = i % 6 == 5;
        c.in_chunk = r.range(1, 20000);
        c.out_chunk = r.range(1, 30000);
        if (c.finish) c.copy = false;
        if (c.copy) c.out_chunk = std::min(c.out_chunk, c.len / 3);    /* a copy half-way */
        if (c.sync) c.reset = false;
        run_inflate(tl, c);
    }
    report("Inflate", tl);
}

/* inflateBackInit + inflateBack + inflateBackEnd */
struct BackIo {
    const Bytes *in;
    size_t pos = 0, chunk = 1;
    Bytes out;
    zt::Rng rng{1};
};
unsigned back_in(void *d, z_const unsigned char **buf) {
    BackIo *io = (BackIo *)d;
    size_t n = std::min(io->in->size() - io->pos, (size_t)io->rng.range(1, io->chunk));
    *buf = (unsigned char *)io->in->data() + io->pos;
    io->pos += n;
    return (unsigned)n;
}
int back_out(void *d, unsigned char *buf, unsigned len) {
    BackIo *io = (BackIo *)d;
    io->out.insert(io->out.end(), buf, buf + len);
    return 0;
}

TEST(AllocFailure, InflateBack) {
    Tally tl;
    for (int wb = 9; wb <= 15; wb += zt::full_mode() ? 1 : 3) {
        uint64_t seed = zt::case_seed("AllocFailure.InflateBack", (uint64_t)wb);
        zt::Rng rng(seed);
        Bytes data = piece(rng, rng.range(1000, 50000));
        zt::DefParams p;
        p.windowBits = -wb;
        Bytes stream = zt::ref_deflate(p, data.data(), data.size());
        std::string what = "inflateBack windowBits " + std::to_string(wb) + ", " + std::to_string(data.size()) +
                           " bytes";
        Opts o;
        o.check_base = [&](const Trace &t) { return t.out == data ? "" : "the output is not the data"; };
        every_failure(tl, what, [&](Side &sd) {
            z_stream s;
            memset(&s, 0, sizeof s);
            sd.al.attach(s);
            Bytes window((size_t)1 << wb);
            int rc = sd.call("inflateBackInit", [&] {
                return ZAPI_INFLATE_BACK_INIT(sd.A, &s, wb, window.data());
            }, &s);
            if (rc != Z_OK) {
                if (rc != Z_MEM_ERROR) sd.t.broke("inflateBackInit returned " + std::to_string(rc));
                rc = sd.call("inflateBackEnd", [&] { return sd.A->inflateBackEnd(&s); });
                if (rc != Z_STREAM_ERROR)
                    sd.t.broke("inflateBackEnd after a failed inflateBackInit returned " + std::to_string(rc));
                sd.t.done = true;
                return;
            }
            BackIo io;
            io.in = &stream;
            io.chunk = 1 + (size_t)wb * 300;
            io.rng = zt::Rng(seed);
            sd.call("inflateBack", [&] { return sd.A->inflateBack(&s, back_in, &io, back_out, &io); }, &s);
            sd.t.out = io.out;
            rc = sd.call("inflateBackEnd", [&] { return sd.A->inflateBackEnd(&s); });
            if (rc != Z_OK) sd.t.broke("inflateBackEnd returned " + std::to_string(rc));
            sd.t.done = true;
        }, o);
    }
    report("InflateBack", tl);
}

/* ---- malloc(): gz*, compress2, uncompress2 ------------------------------- */
#define NEED_WRAP()                                                               \
    do {                                                                          \
        if (!have_wrap())                                                         \
            GTEST_SKIP() << "malloc() is not wrapped (link without "              \
                            "-Wl,--wrap=malloc,--wrap=free: WRAP_MALLOC in "      \
                            "turbo/tests/Makefile): the gz* functions and "       \
                            "compress2/uncompress2 allocate with malloc(), not "  \
                            "zalloc, and cannot be failed here";                  \
    } while (0)

const std::string &tmp_dir() {
    static std::string d = [] {
        const char *t = getenv("TMPDIR");
        std::string tmpl = std::string(t && *t ? t : "/tmp") + "/zt_allocfail.XXXXXX";
        std::vector<char> b(tmpl.begin(), tmpl.end());
        b.push_back(0);
        const char *r = mkdtemp(b.data());
        return std::string(r ? r : "/tmp");
    }();
    mkdir(d.c_str(), 0700);     /* again after a TmpCleanup */
    return d;
}
struct TmpCleanup {
    ~TmpCleanup() {
        for (const char *n : {"ref.gz", "tur.gz", "in.gz"}) unlink((tmp_dir() + "/" + n).c_str());
        rmdir(tmp_dir().c_str());
    }
};

Bytes slurp(const std::string &path) {
    Bytes v;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) return v;
    uint8_t b[65536];
    size_t n;
    while ((n = fread(b, 1, sizeof b, f)) > 0) v.insert(v.end(), b, b + n);
    fclose(f);
    return v;
}

std::string gz_err(const zapi *A, gzFile f) {
    int e = 0;
    const char *m = A->gzerror(f, &e);
    return " err=" + std::to_string(e) + " " + zt::show_msg(m);
}

struct GzWriteCase {
    std::string mode = "wb";
    bool fd = false;            /* gzdopen() */
    unsigned buffer = 0;        /* gzbuffer() first (0: not called) */
    int level_first = -1;       /* gzsetparams() before writing */
    int level_mid = -1;         /* gzsetparams() half-way */
    size_t len = 30000;
    uint64_t seed = 1;
    std::string str() const {
        return std::string(fd ? "gzdopen" : "gzopen") + " \"" + mode + "\"" +
               (buffer ? ", gzbuffer " + std::to_string(buffer) : "") +
               (level_first >= 0 ? ", gzsetparams(" + std::to_string(level_first) + ") first" : "") +
               (level_mid >= 0 ? ", gzsetparams(" + std::to_string(level_mid) + ") mid-way" : "") + ", " +
               std::to_string(len) + " bytes";
    }
};

void gzwrite_scenario(Side &sd, const GzWriteCase &c, const Bytes &data) {
    const zapi *A = sd.A;
    std::string path = tmp_dir() + "/" + A->name + ".gz";
    unlink(path.c_str());
    gzFile f;
    int fd = -1;
    if (c.fd) {
        fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            sd.t.broke("cannot create " + path);
            return;
        }
        sd.al.phase = "c0:gzdopen";
        f = A->gzdopen(fd, c.mode.c_str());
    } else {
        sd.al.phase = "c0:gzopen";
        f = A->gzopen(path.c_str(), c.mode.c_str());
    }
    sd.al.phase = "-";
    sd.t.ncommon = 1;
    sd.note(std::string(c.fd ? "gzdopen" : "gzopen") + (f ? " ok" : " NULL"));
    if (f == nullptr) {
        if (fd >= 0) {
            /* zlib.h: gzdopen does not close fd if it fails */
            if (fcntl(fd, F_GETFD) == -1) sd.t.broke("gzdopen failed and closed its descriptor");
            else close(fd);
        }
        sd.t.out = slurp(path);
        sd.t.done = true;
        return;
    }
    auto gz = [&](const char *fn, std::function<int()> op) {
        int r = sd.call(fn, op);
        sd.t.ev.back() += gz_err(A, f);
        return r;
    };
    if (c.buffer) gz("gzbuffer", [&] { return A->gzbuffer(f, c.buffer); });
    if (c.level_first >= 0) gz("gzsetparams", [&] { return A->gzsetparams(f, c.level_first, Z_DEFAULT_STRATEGY); });
    zt::Rng rng(c.seed);
    size_t p = 0;
    int step = 0;
    bool mid = false;
    while (p < data.size()) {
        size_t n = std::min(data.size() - p, (size_t)rng.range(1, 9000));
        if (!mid && p >= data.size() / 2 && c.level_mid >= 0) {
            mid = true;
            gz("gzsetparams", [&] { return A->gzsetparams(f, c.level_mid, Z_FILTERED); });
        }
        switch (step++ % 6) {
        case 0: case 1:
            gz("gzwrite", [&] { return A->gzwrite(f, data.data() + p, (unsigned)n); });
            break;
        case 2:
            gz("gzfwrite", [&] { return (int)A->gzfwrite(data.data() + p, 1, n, f); });
            break;
        case 3:
            n = 1;
            gz("gzputc", [&] { return A->gzputc(f, data[p]); });
            break;
        case 4: {
            std::string str(data.begin() + (long)p, data.begin() + (long)(p + std::min<size_t>(n, 200)));
            std::replace(str.begin(), str.end(), '\0', ' ');
            n = 0;
            gz("gzputs", [&] { return A->gzputs(f, str.c_str()); });
            gz("gzprintf", [&] { return A->gzprintf(f, "%d:%s;", (int)p, str.c_str()); });
            break;
        }
        default:
            gz("gzflush", [&] { return A->gzflush(f, step % 4 ? Z_SYNC_FLUSH : Z_FULL_FLUSH); });
            n = 0;
            break;
        }
        p += n;
    }
    sd.call("gzclose", [&] { return A->gzclose(f); });
    sd.t.out = slurp(path);
    sd.t.done = true;
}

/* gzopen/gzdopen write paths, gzbuffer, gzsetparams, the writes, gzflush,
 * gzclose: malloc() failed in turn */
TEST(AllocFailure, GzWrite) {
    NEED_WRAP();
    TmpCleanup cleanup;
    Tally tl;
    std::vector<GzWriteCase> cases;
    GzWriteCase c;
    cases.push_back(c);
    c.mode = "wb9";
    c.fd = true;
    c.buffer = 1000;
    c.level_mid = 1;
    cases.push_back(c);
    c = GzWriteCase();
    c.mode = "ab1h";
    c.level_first = 0;
    c.level_mid = 6;
    cases.push_back(c);
    c = GzWriteCase();
    c.mode = "wT";
    c.buffer = 70000;
    cases.push_back(c);
    if (zt::full_mode()) {
        c = GzWriteCase();
        c.mode = "wb4R";
        c.fd = true;
        c.level_first = 8;
        c.level_mid = 2;
        c.len = 200000;
        cases.push_back(c);
    }
    for (size_t i = 0; i < cases.size(); i++) {
        cases[i].seed = zt::case_seed("AllocFailure.GzWrite", i);
        zt::Rng rng(cases[i].seed);
        Bytes data = piece(rng, cases[i].len);
        Opts o;
        o.watch_malloc = true;
        const GzWriteCase &cc = cases[i];
        every_failure(tl, cc.str(), [&](Side &sd) { gzwrite_scenario(sd, cc, data); }, o);
    }
    report("GzWrite", tl);
}

/* gzopen/gzdopen read paths (gzip members, a plain file), gzbuffer, gzread,
 * gzclose */
TEST(AllocFailure, GzRead) {
    NEED_WRAP();
    TmpCleanup cleanup;
    Tally tl;
    for (int i = 0; i < (zt::full_mode() ? 6 : 3); i++) {
        uint64_t seed = zt::case_seed("AllocFailure.GzRead", (uint64_t)i);
        zt::Rng rng(seed);
        Bytes data = piece(rng, rng.range(5000, 60000)), file;
        bool plain = i % 3 == 2, fd = i % 2 == 1;
        unsigned buffer = i == 1 ? 2000 : 0;
        if (plain) {
            file = data;
        } else {
            zt::DefParams p;
            p.windowBits = 31;
            size_t h = data.size() / 2;
            file = zt::ref_deflate(p, data.data(), h);
            Bytes m2 = zt::ref_deflate(p, data.data() + h, data.size() - h);
            file.insert(file.end(), m2.begin(), m2.end());
        }
        std::string path = tmp_dir() + "/in.gz";
        FILE *fp = fopen(path.c_str(), "wb");
        ASSERT_NE(fp, nullptr);
        fwrite(file.data(), 1, file.size(), fp);
        fclose(fp);
        std::string what = std::string(fd ? "gzdopen" : "gzopen") + " \"rb\" " + (plain ? "plain file" : "2 members") +
                           (buffer ? ", gzbuffer " + std::to_string(buffer) : "") + ", " +
                           std::to_string(data.size()) + " bytes";
        Opts o;
        o.watch_malloc = true;
        o.check_base = [&](const Trace &t) { return t.out == data ? "" : "read other bytes"; };
        every_failure(tl, what, [&](Side &sd) {
            const zapi *A = sd.A;
            gzFile f;
            int dfd = -1;
            sd.al.phase = "c0:open";
            if (fd) {
                dfd = open(path.c_str(), O_RDONLY);
                f = A->gzdopen(dfd, "rb");
            } else {
                f = A->gzopen(path.c_str(), "rb");
            }
            sd.al.phase = "-";
            sd.t.ncommon = 1;
            sd.note(f ? "open ok" : "open NULL");
            if (!f) {
                if (dfd >= 0) {
                    if (fcntl(dfd, F_GETFD) == -1) sd.t.broke("gzdopen failed and closed its descriptor");
                    else close(dfd);
                }
                sd.t.done = true;
                return;
            }
            if (buffer) sd.call("gzbuffer", [&] { return A->gzbuffer(f, buffer); });
            zt::Rng r(seed);
            for (int guard = 0; guard < 100000; guard++) {
                uint8_t buf[20000];
                unsigned n = (unsigned)r.range(1, sizeof buf);
                int got = sd.call("gzread", [&] { return A->gzread(f, buf, n); });
                sd.t.ev.back() += gz_err(A, f);
                if (got <= 0) break;
                sd.t.out.insert(sd.t.out.end(), buf, buf + got);
            }
            sd.call("gzclose", [&] { return A->gzclose(f); });
            sd.t.done = true;
        }, o);
    }
    report("GzRead", tl);
}

/* compress2() and uncompress2() (zlib's default allocator: malloc) */
TEST(AllocFailure, CompressUncompress) {
    NEED_WRAP();
    Tally tl;
    for (int L = -1; L <= 9; L += zt::full_mode() ? 1 : 4) {
        uint64_t seed = zt::case_seed("AllocFailure.CompressUncompress", (uint64_t)(L + 1));
        zt::Rng rng(seed);
        Bytes data = piece(rng, rng.range(100, 40000));
        Opts o;
        o.watch_malloc = true;
        every_failure(tl, "compress2 level " + std::to_string(L) + ", uncompress2, " + std::to_string(data.size()) +
                              " bytes", [&](Side &sd) {
            uLongf dl = sd.A->compressBound(data.size());
            Bytes c(dl);
            int rc = sd.call("compress2", [&] { return sd.A->compress2(c.data(), &dl, data.data(), data.size(), L); });
            c.resize(rc == Z_OK ? dl : 0);
            sd.t.out = c;
            if (rc == Z_OK) {
                Bytes u(data.size() + 1);
                uLongf ul = u.size();
                uLong sl = c.size();
                rc = sd.call("uncompress2", [&] { return sd.A->uncompress2(u.data(), &ul, c.data(), &sl); });
                u.resize(rc == Z_OK ? ul : 0);
                sd.t.out2 = u;
                if (rc == Z_OK && u != data) sd.t.broke("uncompress2 gave other bytes");
            }
            sd.t.done = true;
        }, o);
    }
    report("CompressUncompress", tl);
}

/* levels 10-12 through gz* and compress2 (zlib-turbo only; malloc()) */
TEST(AllocFailure, GzOptimalLevels) {
    NEED_WRAP();
    ZT_NEED("optimal", is_turbo(), "the library under test is not zlib-turbo (no levels 10-12)");
    TmpCleanup cleanup;
    Tally tl;
    for (int L = 10; L <= 12; L += zt::full_mode() ? 1 : 2) {
        uint64_t seed = zt::case_seed("AllocFailure.GzOptimalLevels", (uint64_t)L);
        zt::Rng rng(seed);
        Bytes data = piece(rng, 8000);
        GzWriteCase c;
        c.mode = L == 10 ? "wb" : "wb1";
        c.level_first = L;             /* gzopen's mode takes one digit */
        c.len = data.size();
        c.seed = seed;
        Opts o;
        o.with_ref = false;
        o.watch_malloc = true;
        o.check_base = [&](const Trace &t) {
            Bytes want;
            /* the writes put data, gzputs/gzprintf text: inflate must work */
            z_stream s;
            memset(&s, 0, sizeof s);
            ZAPI_INFLATE_INIT2(REF, &s, 31);
            Bytes out(data.size() * 3 + 100000);
            s.next_in = (Bytef *)t.out.data();
            s.avail_in = (uInt)t.out.size();
            s.next_out = out.data();
            s.avail_out = (uInt)out.size();
            int rc = REF->inflate(&s, Z_FINISH);
            REF->inflateEnd(&s);
            return rc == Z_STREAM_END && s.avail_in == 0 ? std::string() : "the file does not inflate: " + std::to_string(rc);
        };
        every_failure(tl, c.str() + " (level " + std::to_string(L) + ")",
                      [&](Side &sd) { gzwrite_scenario(sd, c, data); }, o);
        every_failure(tl, "compress2 level " + std::to_string(L), [&](Side &sd) {
            uLongf dl = TUR->compressBound(data.size());
            Bytes cbuf(dl);
            int rc = sd.call("compress2", [&] { return TUR->compress2(cbuf.data(), &dl, data.data(), data.size(), L); });
            if (rc != Z_OK && rc != Z_MEM_ERROR) sd.t.broke("compress2 returned " + std::to_string(rc));
            cbuf.resize(rc == Z_OK ? dl : 0);
            sd.t.out = cbuf;
            sd.t.done = true;
        }, [&] {
            Opts x;
            x.with_ref = false;
            x.watch_malloc = true;
            /* (pristine inflate allocates with malloc too: after the run) */
            x.check_base = x.check_run = [&](const Trace &t) {
                return t.out.empty() ? std::string() : inflates_to(t.out, 15, data, nullptr);
            };
            return x;
        }());
    }
    report("GzOptimalLevels", tl);
}

}  /* namespace */
