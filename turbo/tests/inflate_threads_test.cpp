/* inflate_threads_test.cpp -- inflateSetThreads() (zturbo.h): inflate() with
 * worker threads must be, call by call, pristine zlib 1.3.2 on one thread.
 *
 * Every case runs pristine zlib ("ref", one thread) and the library under
 * test ("tur", with inflateSetThreads(n), n = 2..16) in lockstep over the
 * same compressed stream, with the same calls and the same input bytes, and
 * after every call compares the return code, msg, the input consumed
 * (next_in), avail_in, total_in, the output (next_out, every byte written,
 * and the bytes just after it, which no call may touch), avail_out,
 * total_out, adler, data_type and inflateMark(); inflateGetDictionary() after
 * every call that was given or made 1 KiB or more, and after every 8th other
 * one.  The streams are zlib's (pristine deflate) with memLevel 1-3, so that
 * their blocks are 100 bytes to a few KiB: raw, zlib and gzip, windowBits
 * 9-15, multi-member gzip, preset and raw dictionaries, bits given by
 * inflatePrime(), flush points; damaged ones too (bits flipped, cut short,
 * garbage after, a window smaller than the stream's).  What the cases do
 * between and around the calls is what the tests are named after: every
 * flush value (Z_BLOCK and Z_TREES never use the threads, but must still
 * match), every slicing of input and output down to one byte, inflateReset(),
 * inflateReset2(), inflateResetKeep(), inflateCopy() (both streams go on),
 * inflateSetThreads() between calls, inflateEnd() in the middle, input moved
 * to another buffer (the old one freed) or overwritten where it was not
 * consumed yet, ZLIB_TURBO_THREADS, a failing allocator and an allocator
 * that must only be called from the caller's thread.
 *
 * Threads take over only where a call holds two chunks of compressed input
 * beyond the chunk it is in; the chunk is measured at run time (probe(): the
 * least input of one call that makes inflate() allocate the workers' memory)
 * and case sizes are counted in chunks (CHUNK()), so the default build (1 MiB
 * chunks) runs one or two cases of 4-6 MiB per test, on a few streams made
 * once, and a build with small chunks (tools/check/inflate-threads-small-
 * chunks.sh: TUR_CFLAGS=-DZI_CHUNK_BITS=12, 4 KiB) runs hundreds of small
 * ones.  ZT_CHUNK_BITS in the environment states the chunks the build is
 * expected to have (InflateThreads.HandOffNeverHappens fails if it has
 * others; without it, the library's default of 1 MiB).
 *
 * A test that never sees a hand-off cannot fail.  A third stream gets every
 * call too, tur on one thread ("solo"): the two are in the same state after
 * every call except where the caller took blocks that a worker decoded --
 * then its inflateCodesUsed() still counts the tables of the last block it
 * decoded itself, and solo's those of the last block.  Calls whose input
 * ends at a block boundary show that, unless both tables have the same
 * size; the driver makes such calls on purpose: the rest of the input with
 * little room (the workers get chunks ahead), a wait until the workers are
 * idle, then input up to a boundary a few chunks on (or up to just before
 * the first block a worker decoded, then a call that starts there) with
 * room for all.  About a fifth of the small-chunk cases show a hand-off;
 * each test counts the cases in which worker threads started
 * (/proc/self/task) and those with a hand-off, and fails where none started
 * or (a test about hand-offs, small chunks, ZT_CASE_SCALE not below 100)
 * fewer than a tenth of its cases, up to 3, had one.  Solo also tells a difference of the threads from one of tur
 * itself: a report says when tur on one thread parts from ref too.
 *
 * A library without inflateSetThreads() (pristine zlib in the harness
 * self-test) skips every test; one built without threads (--no-threads)
 * runs only InflateThreads.BadArgumentsAccepted, which checks that it
 * refuses more than one thread.  ZT_MODE=full runs ten times the cases;
 * ZT_CASE_SCALE=P runs P percent of them (small-chunk builds only: the
 * ThreadSanitizer step runs a part). */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <dirent.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "zt_harness.h"

namespace {

using zt::REF;
using zt::TUR;
using zt::task_count;
using zt::tasks_settle;
using zt::tasks_now;
using Bytes = std::vector<uint8_t>;
using Alloc = zt::CountingAlloc;
using namespace zt::data_kinds;

/* ---- the workers, seen from outside --------------------------------------- */

/* Waits (up to ms milliseconds) until no thread of this process but the
 * calling one is running: the workers have finished what they were given
 * (they sleep when there is nothing to do), so that the next call finds
 * their work done.  A pause between calls, as a program that does
 * something else between them has. */
void workers_idle(int ms) {
    long self = (long)syscall(SYS_gettid);
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until) {
        DIR *d = opendir("/proc/self/task");
        if (d == nullptr) return;
        bool busy = false;
        while (struct dirent *e = readdir(d)) {
            if (e->d_name[0] == '.' || atol(e->d_name) == self) continue;
            char path[64], buf[512];
            snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
            FILE *f = fopen(path, "r");
            if (f == nullptr) continue;
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[n] = 0;
            const char *p = strrchr(buf, ')');
            if (p && p[1] == ' ' && p[2] == 'R') busy = true;
        }
        closedir(d);
        if (!busy) return;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

/* ---- test data ------------------------------------------------------------ */

/* this file's own kind besides zt's: bytes of skewed frequencies and few
 * repeats, which deflate makes into dynamic blocks that compress little
 * (the default build's cases need megabytes of compressed input) */
const int K_SKEWED = K_KINDS;

const char *kind_str(int kind) { return kind == K_SKEWED ? "skewed" : zt::kind_name(kind); }

Bytes skewed(zt::Rng &rng, size_t len) {
    Bytes v(len);
    for (size_t i = 0; i < len; i++) {
        uint64_t x = rng.next();
        int k = __builtin_ctzll(x | (1ULL << 40));
        v[i] = (uint8_t)(k * 16 + ((x >> 48) & 15));
    }
    return v;
}

Bytes case_data(zt::Rng &rng, int kind, size_t len) {
    if (kind == K_SKEWED) return skewed(rng, len);
    zt::DataSettings ds;
    ds.mixed_part = 64 << 10;
    return zt::make_data(rng, kind, len, ds);
}

/* input bytes per compressed byte, roughly, at memLevel 1-3 */
double ratio(int kind) {
    switch (kind) {
    case K_SKEWED: return 1.15;
    case K_RANDOM: return 1.0;
    case K_ZEROS: return 40;
    case K_RUNS: return 8;
    case K_PERIOD: return 60;
    case K_FARREP: return 4;
    default: return 3;
    }
}

/* ---- what the library under test can do ---------------------------------- */

/* the chunks the build is expected to have: ZT_CHUNK_BITS, else 1 MiB */
int expected_chunk_bits() {
    const char *e = getenv("ZT_CHUNK_BITS");
    return e && *e ? atoi(e) : 20;
}

struct Probe {
    bool fn = false;            /* TUR has inflateSetThreads() */
    bool threads = false;       /* and it accepts 2 threads */
    bool visible = false;       /* /proc/self/task can be read */
    size_t from = 0;            /* the least input of a call at the first block
                                   of a zlib stream that gives work to the
                                   workers (0: none seen) */
    size_t chunk = (size_t)1 << 20;  /* from / 3, as a power of two */
    std::string note;
};

/* a zlib stream long enough for probe(): 5 chunks of the expected size,
 * of pieces of skewed bytes and of text (blocks whose tables differ, so
 * that hand-offs show); its length inflated in *raw_len */
const Bytes &probe_stream(size_t *raw_len = nullptr) {
    static Bytes z;
    static size_t n;
    if (z.empty()) {
        zt::Rng rng(zt::case_seed("inflate-threads-probe", 0));
        size_t want = (size_t)5 << expected_chunk_bits();
        Bytes raw;
        for (int k = 0; raw.size() < want * 7 / 4; k++) {
            size_t piece = rng.range(4096, std::max<size_t>(8192, want / 64));
            Bytes b = k % 2 ? case_data(rng, K_TEXT, piece) : skewed(rng, piece);
            raw.insert(raw.end(), b.begin(), b.end());
        }
        n = raw.size();
        zt::DefParams p;
        p.level = 1;
        p.memLevel = 3;
        z = zt::ref_deflate(p, raw.data(), raw.size());
    }
    if (raw_len) *raw_len = n;
    return z;
}

/* allocations of one inflate() call given the first len bytes of the probe
 * stream (one byte of output), on tur with `threads` threads */
long call_allocs(size_t len, int threads) {
    const Bytes &z = probe_stream();
    Alloc al;
    z_stream s;
    memset(&s, 0, sizeof s);
    al.attach(s);
    if (ZAPI_INFLATE_INIT2(TUR, &s, 15) != Z_OK) return -1;
    TUR->inflateSetThreads(&s, threads);
    uint8_t out[1];
    s.next_in = const_cast<Bytef *>(z.data());
    s.avail_in = (uInt)std::min(len, z.size());
    s.next_out = out;
    s.avail_out = 1;
    long before = al.calls;
    TUR->inflate(&s, Z_NO_FLUSH);
    long n = al.calls - before;
    TUR->inflateEnd(&s);
    return n;
}

bool gives_work(size_t len) { return call_allocs(len, 2) > call_allocs(len, 1); }

const Probe &probe() {
    static Probe p;
    static bool done = false;
    if (done) return p;
    done = true;
    p.fn = TUR->inflateSetThreads != nullptr;
    if (!p.fn) {
        p.note = "the library under test has no inflateSetThreads()";
        return p;
    }
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_INFLATE_INIT2(TUR, &s, 15) == Z_OK) {
        p.threads = TUR->inflateSetThreads(&s, 2) == Z_OK;
        TUR->inflateEnd(&s);
    }
    if (!p.threads) {
        p.note = "the library under test was built without threads "
                 "(inflateSetThreads(strm, 2) is refused)";
        return p;
    }
    p.visible = task_count() > 0;
    p.chunk = (size_t)1 << expected_chunk_bits();
    /* the first power of two that gives work, then the least length */
    size_t hi = 0, top = probe_stream().size();
    for (size_t len = 256; len <= top && !hi; len *= 2)
        if (gives_work(len)) hi = len;
    if (!hi && gives_work(top)) hi = top;
    if (hi) {
        size_t lo = hi / 2;
        while (lo + 1 < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (gives_work(mid)) hi = mid; else lo = mid;
        }
        p.from = hi;
        /* the call holds its own chunk and two more: the chunk is a third */
        size_t c = 1;
        while (2 * c <= p.from / 3) c *= 2;
        p.chunk = c;
    }
    p.note = p.from ? "work goes to the workers from " + std::to_string(p.from) +
                          " bytes of input per call (chunks of " + std::to_string(p.chunk) +
                          " bytes)"
                    : "no work went to the workers, even with " + std::to_string(top) +
                          " bytes of input in one call";
    fprintf(stderr, "[zt] InflateThreads: %s\n", p.note.c_str());
    return p;
}

size_t CHUNK() { return probe().chunk; }
/* a build whose chunks are big (the default, 1 MiB): few cases per test */
bool big_chunks() { return CHUNK() > 65536; }

#define NEED_THREADS()                                                   \
    do {                                                                 \
        const Probe &p_ = probe();                                       \
        ZT_NEED("threads", p_.fn && p_.threads, p_.note);                \
        if (zt::too_many_failures())                                     \
            GTEST_SKIP() << "not run: too many differences reported already"; \
    } while (0)

/* ---- the streams ------------------------------------------------------------ */

struct Cfg {
    int wrap = 1;               /* 0 raw, 1 zlib, 2 gzip */
    int wb = 15;                /* the compressor's windowBits, 9-15 */
    int inf_wb = 0;             /* inflateInit2()'s windowBits; 0: wbits_arg() */
    int level = 6, memLevel = 2, strategy = Z_DEFAULT_STRATEGY;
    int kind = K_TEXT;
    size_t len = 0;             /* bytes the stream inflates to */
    int members = 1;            /* gzip: members, one deflate each */
    size_t dict = 0;            /* zlib: a preset dictionary; raw: set first */
    int flush_every = 0;        /* deflate: a flush every that many bytes */
    int flush = Z_SYNC_FLUSH;
    int prime_bits = 0;         /* the stream's first bits by inflatePrime() */
    int threads = 2;
    int wbits_arg() const { return wrap == 0 ? -wb : wrap == 2 ? wb + 16 : wb; }
    int inflate_wbits() const { return inf_wb ? inf_wb : wbits_arg(); }
    /* what makes the stream (not how it is inflated) */
    std::string stream_key() const {
        std::ostringstream o;
        o << wrap << " " << wb << " " << level << " " << memLevel << " " << strategy << " "
          << kind << " " << len << " " << members << " " << dict << " " << flush_every << " "
          << flush << " " << prime_bits;
        return o.str();
    }
    std::string str() const {
        static const char *st[] = {"default", "filtered", "huffman", "rle", "fixed"};
        std::ostringstream o;
        o << (wrap == 0 ? "raw" : wrap == 1 ? "zlib" : "gzip") << " windowBits=" << wbits_arg()
          << " inflateInit2(" << inflate_wbits() << ") level=" << level << " memLevel="
          << memLevel << " strategy=" << st[strategy] << " threads=" << threads;
        if (members > 1) o << " members=" << members;
        if (dict) o << " dict=" << dict;
        if (flush_every) o << " flush=" << flush << " every " << flush_every;
        if (prime_bits) o << " prime=" << prime_bits;
        return o.str();
    }
};

struct Stream {
    Bytes z;                    /* the input, as inflate() is given it */
    std::vector<size_t> blocks; /* bit positions in z of the block headers */
    Bytes dict;
    int prime_bits = 0, prime_value = 0;
    size_t raw = 0;
    std::string name;
};

/* bits from `from` on of z, as bytes */
Bytes shifted(const Bytes &z, int from) {
    Bytes v;
    size_t bits = z.size() * 8 - (size_t)from;
    v.resize((bits + 7) / 8);
    for (size_t i = 0; i < v.size(); i++) {
        size_t b = (size_t)from + 8 * i;
        unsigned x = z[b / 8] >> (b % 8);
        if (b % 8 && b / 8 + 1 < z.size()) x |= (unsigned)z[b / 8 + 1] << (8 - b % 8);
        v[i] = (uint8_t)x;
    }
    return v;
}

/* where pristine inflate stops with Z_BLOCK: the block headers of st.z */
std::vector<size_t> find_blocks(const Stream &st, int wbits) {
    std::vector<size_t> v;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_INFLATE_INIT2(REF, &s, wbits) != Z_OK) return v;
    if (st.prime_bits) REF->inflatePrime(&s, st.prime_bits, st.prime_value);
    if (wbits < 0 && !st.dict.empty())
        REF->inflateSetDictionary(&s, st.dict.data(), (uInt)st.dict.size());
    Bytes buf(1 << 16);
    const uint8_t *base = st.z.data();
    s.next_in = const_cast<Bytef *>(base);
    s.avail_in = (uInt)st.z.size();
    for (long i = 0; i < 10000000; i++) {
        s.next_out = buf.data();
        s.avail_out = (uInt)buf.size();
        int rc = REF->inflate(&s, Z_BLOCK);
        if (rc == Z_NEED_DICT) {
            if (REF->inflateSetDictionary(&s, st.dict.data(), (uInt)st.dict.size()) != Z_OK) break;
            continue;
        }
        if (rc == Z_STREAM_END && s.avail_in > 0) {
            REF->inflateReset(&s);
            continue;
        }
        if (rc != Z_OK) break;
        if (s.data_type & 128)
            v.push_back((size_t)(s.next_in - base) * 8 - (size_t)(s.data_type & 63));
    }
    REF->inflateEnd(&s);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

/* the first block header at or after bit `from` of st.z that the workers
 * look for (a dynamic block, not the last): where a worker given the chunk
 * from there begins, as long as the stream's offsets are the library's
 * (threads set before the first call, no reset since); ~0 if none */
size_t first_dynamic(const Stream &st, size_t from) {
    auto it = std::lower_bound(st.blocks.begin(), st.blocks.end(), from);
    for (; it != st.blocks.end(); ++it) {
        size_t b = *it;
        if (b / 8 + 1 >= st.z.size()) break;
        unsigned v = (st.z[b / 8] | (unsigned)st.z[b / 8 + 1] << 8) >> (b % 8);
        if ((v & 7) == 4) return b;
    }
    return ~(size_t)0;
}

Stream make_stream(zt::Rng &rng, const Cfg &c) {
    Stream st;
    Bytes data = case_data(rng, c.kind, c.len);
    st.raw = data.size();
    if (c.dict && c.wrap != 2)
        st.dict = case_data(rng, rng.chance(70) ? K_FILES : c.kind, c.dict);
    zt::DefParams p;
    p.level = c.level;
    p.windowBits = c.wbits_arg();
    p.memLevel = c.memLevel;
    p.strategy = c.strategy;
    int members = c.wrap == 2 ? std::max(1, c.members) : 1;
    size_t off = 0;
    for (int m = 0; m < members; m++) {
        size_t n = m + 1 == members ? data.size() - off
                                    : rng.range(0, (data.size() - off) / (size_t)(members - m));
        Bytes z = zt::ref_deflate(p, data.data() + off, n, c.flush_every, c.flush,
                                  st.dict.empty() ? nullptr : &st.dict);
        st.z.insert(st.z.end(), z.begin(), z.end());
        off += n;
    }
    if (c.prime_bits) {
        int k = std::min(c.prime_bits, 16);
        st.prime_bits = k;
        st.prime_value = (int)((st.z[0] | (unsigned)st.z[1] << 8) & ((1u << k) - 1));
        st.z = shifted(st.z, k);
    }
    st.blocks = find_blocks(st, c.wbits_arg());
    st.name = std::string(kind_str(c.kind)) + "+" + std::to_string(c.len) + " -> " +
              std::to_string(st.z.size());
    return st;
}

/* raw bytes for about `chunks` chunks of compressed input, within a cap */
size_t len_for(int kind, double chunks) {
    double n = chunks * (double)CHUNK() * ratio(kind);
    double cap = big_chunks() ? 16.0 * (1 << 20) : 2.0 * (1 << 20);
    return (size_t)std::max(64.0, std::min(n, cap));
}

/* The default build's few streams, made once and shared by the tests: a
 * case there needs megabytes, and pristine deflate takes a while. */
const Stream &big_stream(const Cfg &c, uint64_t seed) {
    static std::map<std::string, Stream> cache;
    std::string key = c.stream_key() + " seed=" + std::to_string(seed);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    zt::Rng rng(seed);
    return cache.emplace(key, make_stream(rng, c)).first->second;
}

/* ---- the lockstep run --------------------------------------------------------- */

struct Stats {
    long cases = 0, engaged = 0, taken = 0, calls = 0, failed = 0;
    bool stop() const { return failed >= 3 || zt::too_many_failures(); }
};

enum { R = 0, T = 1, S = 2 };   /* the sides: ref, tur, solo (tur on one thread) */

struct Side {
    const zapi *A = nullptr;
    z_stream s;
    std::shared_ptr<Alloc> al;
    Bytes out;
    size_t have = 0;            /* output bytes written so far */
    size_t filled = 0;          /* bytes after have set to the pattern */
    bool open = false;
    const uint8_t *given = nullptr;     /* next_in as given to the last call */
};

const uint8_t PATTERN = 0xA5;

class Pair {
public:
    zt::Ctx &ctx;
    Side d[3];
    Bytes data;                 /* the input, as all sides are given it */
    size_t pos = 0;             /* bytes of data consumed */
    size_t checked = 0;         /* output compared so far */
    int rc = Z_OK;              /* the last return code (ref's) */
    int tasks0 = -1;            /* threads of the process before this case */
    bool engaged = false;       /* worker threads were seen */
    bool taken = false;         /* a hand-off was seen */
    bool track_taken = true;    /* tur and solo in the same state but hand-offs */
    bool check_dict = true;     /* inflateGetDictionary() compared */
    long *calls_stat = nullptr;
    long ncalls = 0;
    std::vector<std::string> trail;     /* the last calls, for the report */

    Pair(zt::Ctx &c, std::shared_ptr<Alloc> ar, std::shared_ptr<Alloc> at,
         std::shared_ptr<Alloc> as = nullptr)
        : ctx(c) {
        d[R].A = REF;
        d[T].A = TUR;
        d[S].A = TUR;
        d[R].al = ar;
        d[T].al = at;
        d[S].al = as ? as : std::make_shared<Alloc>();
        for (auto &x : d) memset(&x.s, 0, sizeof x.s);
        tasks0 = tasks_now();
    }
    Pair(const Pair &) = delete;
    Pair &operator=(const Pair &) = delete;
    ~Pair() { end_quiet(); }

    void log(const std::string &e) {
        if (trail.size() >= 12) trail.erase(trail.begin());
        trail.push_back(e);
    }
    bool bad(const std::string &what) {
        std::string t;
        for (auto &e : trail) t += "\n            " + e;
        return ctx.mismatch(what + solo_note() + "\n  last calls (call #" +
                            std::to_string(ctx.call) + " last):" + t);
    }
    /* whether tur on one thread parted from ref too: then the difference
     * is not the threads' */
    std::string solo_note() const {
        if (!d[S].open || !d[R].open) return "";
        const z_stream &a = d[R].s, &b = d[S].s;
        long ia = d[R].given ? (long)(a.next_in - d[R].given) : 0;
        long ib = d[S].given ? (long)(b.next_in - d[S].given) : 0;
        size_t ha = (size_t)(a.next_out - d[R].out.data());
        bool same = ia == ib && a.avail_out == b.avail_out && a.total_out == b.total_out &&
                    a.total_in == b.total_in && a.adler == b.adler &&
                    a.data_type == b.data_type && zt::same_msg(a.msg, b.msg) &&
                    (size_t)(b.next_out - d[S].out.data()) == ha &&
                    memcmp(d[R].out.data(), d[S].out.data(), ha) == 0;
        return same ? "" : "\n  (tur on one thread, given the same calls, parts from ref too: "
                           "not a difference of the threads)";
    }
    template <class V> bool eq(const char *what, V a, V b) {
        if (a == b) return true;
        std::ostringstream o;
        o << what << ": ref=" << a << " tur=" << b;
        return bad(o.str());
    }

    bool compare_dictionary() {
        Bytes w[2];
        uInt len[2];
        int r[2];
        for (int i = 0; i < 2; i++) {
            w[i].assign(32768, 0);
            len[i] = 0;
            r[i] = d[i].A->inflateGetDictionary(&d[i].s, w[i].data(), &len[i]);
        }
        return eq("inflateGetDictionary rc", r[0], r[1]) &&
               eq("inflateGetDictionary length", len[0], len[1]) &&
               (w[0] == w[1] || bad("inflateGetDictionary bytes"));
    }

    /* worker threads started (seen once, kept) */
    void note_tasks() {
        if (engaged || tasks0 < 0) return;
        if (task_count() > tasks0) engaged = true;
    }

    /* what a caller sees after a call */
    bool compare(bool dict_now) {
        if (!d[R].open || !d[T].open) return true;
        const z_stream &a = d[R].s, &b = d[T].s;
        long ia = d[R].given ? (long)(a.next_in - d[R].given) : 0;
        long ib = d[T].given ? (long)(b.next_in - d[T].given) : 0;
        if (!(eq("input consumed (next_in)", ia, ib) &&
              eq("avail_in", a.avail_in, b.avail_in) &&
              eq("avail_out", a.avail_out, b.avail_out) &&
              eq("next_out", (long)(a.next_out - d[R].out.data()),
                 (long)(b.next_out - d[T].out.data())) &&
              eq("total_in", a.total_in, b.total_in) &&
              eq("total_out", a.total_out, b.total_out) &&
              eq("adler", a.adler, b.adler) &&
              eq("data_type", a.data_type, b.data_type)))
            return false;
        if (!zt::same_msg(a.msg, b.msg))
            return bad("msg: ref=" + zt::show_msg(a.msg) + " tur=" + zt::show_msg(b.msg));
        for (int i = 0; i < 3; i++)
            if (d[i].open) d[i].have = (size_t)(d[i].s.next_out - d[i].out.data());
        if (d[R].have > checked &&
            memcmp(d[R].out.data() + checked, d[T].out.data() + checked, d[R].have - checked)) {
            size_t i = checked;
            while (d[R].out[i] == d[T].out[i]) i++;
            size_t k = std::min<size_t>(16, d[R].have - i);
            return bad("output bytes differ at offset " + std::to_string(i) + ": ref " +
                       zt::hex(&d[R].out[i], k) + " tur " + zt::hex(&d[T].out[i], k));
        }
        checked = d[R].have;
        /* the room after the output: as it was given */
        size_t end = std::min(d[T].filled, d[T].have + 64);
        for (size_t i = d[T].have; i < end; i++)
            if (d[T].out[i] != PATTERN)
                return bad("tur wrote past next_out: byte " + std::to_string(i - d[T].have) +
                           " after it changed");
        d[R].filled = d[T].filled = d[S].filled = 0;
        if (!eq("inflateMark", REF->inflateMark(&d[R].s), TUR->inflateMark(&d[T].s)))
            return false;
        if (dict_now && check_dict && !compare_dictionary()) return false;
        if (d[S].open && track_taken &&
            TUR->inflateCodesUsed(&d[T].s) != TUR->inflateCodesUsed(&d[S].s))
            taken = true;
        return true;
    }

    /* runs f on ref, tur and solo; compares */
    template <class F> bool all(const std::string &fn, F f, bool dict_now = false,
                                bool opening = false) {
        ctx.call++;
        ctx.fn = fn;
        ncalls++;
        if (calls_stat) (*calls_stat)++;
        int r[3] = {Z_OK, Z_OK, Z_OK};
        for (int i = 0; i < 3; i++)
            if (opening || d[i].open) r[i] = f(d[i]);
        rc = r[R];
        for (int i = 1; i < 3; i++)
            if (d[i].al->foreign)
                return bad(std::string(i == T ? "tur" : "solo") +
                           " called zalloc/zfree from another thread than the caller's (" +
                           fn + ")");
        if (r[R] != r[T]) {
            std::ostringstream o;
            o << "return code: ref=" << r[R] << " tur=" << r[T] << " (ref msg "
              << zt::show_msg(d[R].s.msg) << ", tur msg " << zt::show_msg(d[T].s.msg) << ")";
            return bad(o.str());
        }
        if (d[S].open && r[S] != r[R]) {
            std::ostringstream o;
            o << "return code: ref=" << r[R] << " tur on one thread=" << r[S];
            return bad(o.str());
        }
        return compare(dict_now);
    }

    bool init(int wbits) {
        for (auto &x : d) x.al->attach(x.s);
        log("inflateInit2(" + std::to_string(wbits) + ")");
        bool ok = all("inflateInit2_", [&](Side &x) {
            int r = ZAPI_INFLATE_INIT2(x.A, &x.s, wbits);
            x.open = r == Z_OK;
            return r;
        }, false, true);
        if (!ok || rc != Z_OK) return false;
        /* solo: one thread, ZLIB_TURBO_THREADS or not */
        return !TUR->inflateSetThreads || TUR->inflateSetThreads(&d[S].s, 1) == Z_OK ||
               bad("inflateSetThreads(solo, 1) refused");
    }

    /* tur only: expects `want` */
    bool set_threads(int n, int want = Z_OK) {
        note_tasks();
        ctx.call++;
        ctx.fn = "inflateSetThreads(" + std::to_string(n) + ")";
        log(ctx.fn);
        int r = TUR->inflateSetThreads(&d[T].s, n);
        if (d[T].al->foreign) return bad("inflateSetThreads: zalloc/zfree on another thread");
        if (r != want)
            return bad("inflateSetThreads returned " + std::to_string(r) + ", not " +
                       std::to_string(want));
        return compare(false);
    }

    /* room for nout more output bytes on every side; the first of them set
     * to PATTERN */
    void room(size_t nout) {
        for (auto &x : d) {
            if (x.out.size() < x.have + nout + 1) x.out.resize(x.have + nout + 1);
            x.s.next_out = x.out.data() + x.have;
            x.s.avail_out = (uInt)nout;
            x.filled = x.have + std::min<size_t>(nout, 4096);
            memset(x.out.data() + x.have, PATTERN, x.filled - x.have);
        }
    }

    /* one inflate() with nin input bytes from pos and nout of output room;
     * tur's and solo's input from a fresh heap copy when moved (freed right
     * after the call) */
    bool inflate(size_t nin, size_t nout, int flush, bool moved = false) {
        static const char *names[] = {"inflate(Z_NO_FLUSH)", "inflate(Z_PARTIAL_FLUSH)",
                                      "inflate(Z_SYNC_FLUSH)", "inflate(Z_FULL_FLUSH)",
                                      "inflate(Z_FINISH)", "inflate(Z_BLOCK)",
                                      "inflate(Z_TREES)"};
        nin = std::min(nin, data.size() - pos);
        std::string fn = names[flush];
        log(fn + " in=" + std::to_string(nin) + "@" + std::to_string(pos) + " out=" +
            std::to_string(nout) + (moved ? " (input moved)" : ""));
        room(nout);
        static const uint8_t none[1] = {0};
        uint8_t *copy = nullptr;
        d[R].given = data.empty() ? none : data.data() + pos;
        if (moved) {
            copy = (uint8_t *)malloc(nin + 1);
            if (nin) memcpy(copy, data.data() + pos, nin);
            d[T].given = d[S].given = copy;
        } else {
            d[T].given = d[S].given = d[R].given;
        }
        for (auto &x : d) {
            x.s.next_in = const_cast<Bytef *>(x.given);
            x.s.avail_in = (uInt)nin;
        }
        bool dict_now = nin >= 1024 || nout >= 1024 || ncalls % 8 == 0;
        bool ok = all(fn, [&](Side &x) { return x.A->inflate(&x.s, flush); }, dict_now);
        pos += (size_t)(d[R].s.next_in - d[R].given);
        note_tasks();
        for (auto &x : d) {
            x.s.next_in = nullptr;
            x.s.avail_in = 0;
            x.given = nullptr;
        }
        free(copy);
        return ok;
    }

    bool set_dictionary(const Bytes &dict) {
        std::string fn = "inflateSetDictionary(" + std::to_string(dict.size()) + " bytes)";
        log(fn);
        return all(fn, [&](Side &x) {
            return x.A->inflateSetDictionary(&x.s, dict.data(), (uInt)dict.size());
        }, true);
    }

    bool prime(int bits, int value) {
        std::string fn = "inflatePrime(" + std::to_string(bits) + ", " + std::to_string(value) + ")";
        log(fn);
        return all(fn, [&](Side &x) { return x.A->inflatePrime(&x.s, bits, value); });
    }

    /* 0: inflateReset, 1: inflateResetKeep, else inflateReset2(wbits) */
    bool reset(int how, int wbits = 15) {
        note_tasks();
        std::string fn = how == 0 ? "inflateReset" : how == 1 ? "inflateResetKeep"
                                  : "inflateReset2(" + std::to_string(wbits) + ")";
        log(fn);
        return all(fn, [&](Side &x) {
            return how == 0 ? x.A->inflateReset(&x.s) : how == 1 ? x.A->inflateResetKeep(&x.s)
                                                                 : x.A->inflateReset2(&x.s, wbits);
        }, true);
    }

    /* the output starts again (after a reset that starts the data again) */
    void restart() {
        for (auto &x : d) x.have = 0;
        checked = 0;
        pos = 0;
    }

    /* inflateEnd on every side, compared; afterwards no block may be left
     * and no worker thread running (checked by the case) */
    bool end() {
        note_tasks();
        ctx.call++;
        ctx.fn = "inflateEnd";
        log("inflateEnd");
        int r[3] = {Z_OK, Z_OK, Z_OK};
        for (int i = 0; i < 3; i++)
            if (d[i].open) {
                r[i] = d[i].A->inflateEnd(&d[i].s);
                d[i].open = false;
            }
        if (d[T].al->foreign) return bad("inflateEnd: zalloc/zfree on another thread");
        return eq("inflateEnd rc", r[R], r[T]);
    }
    void end_quiet() {
        for (auto &x : d)
            if (x.open) {
                x.A->inflateEnd(&x.s);
                x.open = false;
            }
    }
};

/* ---- the random driver ------------------------------------------------------ */

/* Everything the random driver may do; percentages are per inflate() call. */
struct Plan {
    /* input of a call: the rest, 3 chunks or more, up to one chunk, 1-4
     * bytes (in this proportion); then, in snap_pct of the calls, cut to end
     * just after a block header's first bit */
    int in_rest = 40, in_big = 35, in_medium = 20, in_tiny = 5;
    int snap_pct = 40;
    /* output room: all that can come, up to 4 chunks' worth (at most 1 MiB),
     * up to 64 bytes, one byte, none */
    int out_big = 15, out_medium = 65, out_small = 10, out_one = 5, out_zero = 5;
    int flush_pct = 0;          /* Z_SYNC_FLUSH, Z_FINISH, Z_BLOCK, Z_TREES */
    int pause_pct = 50;         /* wait for the workers before the call */
    int threads_pct = 0;        /* inflateSetThreads() with another count */
    int copy_pct = 0;           /* inflateCopy(), the copy run to its end */
    int dict_pct = 0;           /* inflateSetDictionary() between calls */
    int prime_pct = 0;          /* inflatePrime() between calls */
    int modify_pct = 0;         /* after a call that left input: change bytes
                                   not consumed yet */
    int scribble_pct = 0;       /* overwrite input already consumed */
    int move_pct = 0;           /* tur's input from a fresh copy, freed after */
    int end_pct = 0;            /* inflateEnd() in the middle, case over */
    int reset_pct = 0;          /* an inflateReset*() and the data again */
    /* two calls instead of one: the rest of the input with little room (the
     * workers get chunks ahead), a pause, then input up to a block boundary
     * a few chunks on with room for all (the caller takes their blocks and
     * stops right after them, where the hand-off shows) */
    int handoff_pct = 25;
    std::vector<int> thread_counts = {2, 3, 4};
};

int pick_threads(zt::Rng &rng, const Plan &p) {
    return p.thread_counts[rng.below((uint32_t)p.thread_counts.size())];
}

size_t pick_in(zt::Rng &rng, const Plan &p, const Pair &P, const Stream &st, bool *snapped) {
    *snapped = false;
    size_t left = P.data.size() - P.pos;
    uint32_t r = rng.below((uint32_t)(p.in_rest + p.in_big + p.in_medium + p.in_tiny));
    size_t n;
    if (r < (uint32_t)p.in_rest) n = left;
    else if ((r -= p.in_rest) < (uint32_t)p.in_big) n = rng.range(3 * CHUNK(), 12 * CHUNK());
    else if ((r -= p.in_big) < (uint32_t)p.in_medium) n = rng.range(1, CHUNK());
    else n = rng.range(1, 4);
    n = std::min(n, left);
    if (n > 64 && rng.chance((unsigned)p.snap_pct) && !st.blocks.empty()) {
        /* end the input just after the first bit of a block header at or
         * before pos + n (the call then ends at a block boundary) */
        size_t limit = (P.pos + n) * 8;
        auto it = std::upper_bound(st.blocks.begin(), st.blocks.end(), limit);
        if (it != st.blocks.begin()) {
            size_t b = *--it;
            if (b / 8 + 1 > P.pos) {
                n = b / 8 + 1 - P.pos + (rng.chance(20) ? 1 : 0);
                *snapped = true;
            }
        }
    }
    return std::min(n, left);
}

size_t pick_out(zt::Rng &rng, const Plan &p, const Stream &st, size_t made) {
    uint32_t r = rng.below((uint32_t)(p.out_big + p.out_medium + p.out_small + p.out_one +
                                      p.out_zero));
    if (r < (uint32_t)p.out_big) return st.raw > made ? st.raw - made + 4096 : 65536;
    r -= p.out_big;
    if (r < (uint32_t)p.out_medium) return rng.range(1, std::min<size_t>(16 * CHUNK(), 1 << 20));
    r -= p.out_medium;
    if (r < (uint32_t)p.out_small) return rng.range(1, 64);
    r -= p.out_small;
    return r < (uint32_t)p.out_one ? 1 : 0;
}

int pick_flush(zt::Rng &rng, const Plan &p) {
    if (!rng.chance((unsigned)p.flush_pct)) return Z_NO_FLUSH;
    static const int f[] = {Z_SYNC_FLUSH, Z_FINISH, Z_BLOCK, Z_TREES};
    return f[rng.below(4)];
}

/* changes bytes of the input not consumed yet, the same for every side:
 * one bit of the block the caller is in (often a distance's extra bit or a
 * literal: the block still ends where it did, with other bytes), bytes near
 * ahead, or anywhere after */
void overwrite_ahead(zt::Rng &rng, Pair &P, const Stream &st) {
    size_t from = P.pos, n = P.data.size() - from;
    if (n == 0) return;
    Bytes old = P.data;
    switch (rng.below(4)) {
    case 0:
    case 1: {                   /* a bit of this block or the next */
        auto it = std::upper_bound(st.blocks.begin(), st.blocks.end(), from * 8);
        size_t endb = it == st.blocks.end() ? P.data.size() * 8 : *it;
        if (rng.chance(30) && it != st.blocks.end() && it + 1 != st.blocks.end()) endb = it[1];
        size_t bit = rng.range(from * 8, std::max(from * 8, endb - 1));
        if (bit / 8 < P.data.size()) P.data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        break;
    }
    case 2: {                   /* bytes near ahead */
        size_t off = from + rng.range(0, std::min(n, 6 * CHUNK()) - 1);
        size_t len = std::min(P.data.size() - off, rng.range(1, 16));
        for (size_t i = 0; i < len; i++) P.data[off + i] = (uint8_t)rng.next();
        break;
    }
    default: {                  /* a byte anywhere after */
        size_t off = from + rng.range(0, n - 1);
        P.data[off] ^= (uint8_t)(1 + rng.below(255));
        break;
    }
    }
    std::string e = "input not consumed changed (byte^mask):";
    int k = 0;
    for (size_t i = from; i < P.data.size() && k < 20; i++)
        if (P.data[i] != old[i]) {
            uint8_t x = (uint8_t)(P.data[i] ^ old[i]);
            e += " " + std::to_string(i) + "^" + zt::hex(&x, 1);
            k++;
        }
    P.log(e);
}

bool drive(Pair &P, const Stream &st, const Cfg &c, const Plan &p, zt::Rng &rng,
           int depth = 0);

/* inflateCopy() of every side, the copies run to their end, compared */
bool copy_and_run(Pair &P, const Stream &st, const Cfg &c, const Plan &p, zt::Rng &rng) {
    Pair C(P.ctx, P.d[R].al, P.d[T].al, P.d[S].al);
    C.data = P.data;
    C.pos = P.pos;
    C.calls_stat = P.calls_stat;
    C.tasks0 = -1;              /* P's threads are running */
    C.track_taken = false;      /* tur's copy may begin with other tables */
    C.log("inflateCopy");
    if (!C.all("inflateCopy", [&](Side &x) {
            int i = &x - C.d;
            if (!P.d[i].open) return Z_STREAM_ERROR;
            int r = x.A->inflateCopy(&x.s, &P.d[i].s);
            x.open = r == Z_OK;
            /* next_out points into P's buffer: the copy writes to its own */
            x.out.resize(1);
            x.s.next_out = x.out.data();
            x.s.avail_out = 0;
            return r;
        }, true, true))
        return false;
    if (C.rc != Z_OK) return true;
    /* the copy has one thread: a big call on it starts none */
    int before = task_count();
    if (!C.inflate(8 * CHUNK(), 32 * CHUNK(), Z_NO_FLUSH)) return false;
    if (before >= 0 && task_count() > before && !getenv("ZLIB_TURBO_THREADS"))
        return C.bad("inflateCopy: the copy started worker threads without inflateSetThreads()");
    if (rng.chance(50) && !C.set_threads(pick_threads(rng, p))) return false;
    Plan q = p;
    q.copy_pct = 0;
    q.end_pct = 0;
    if (!drive(C, st, c, q, rng, 1)) return false;
    return C.end();
}

/* Goes through the case's stream with inflate() calls as the plan says,
 * with the plan's calls between them, to its end (or the error both
 * report).  Returns false on a difference. */
bool drive(Pair &P, const Stream &st, const Cfg &c, const Plan &p, zt::Rng &rng, int depth) {
    const long max_calls = 4 * (long)P.data.size() + 20000;
    int resets = 0, errors = 0, needs = 0;
    long stuck = 0;
    for (long n = 0; n < max_calls; n++) {
        if (zt::too_many_failures()) return false;
        size_t left = P.data.size() - P.pos;
        bool snapped;
        size_t nin = pick_in(rng, p, P, st, &snapped);
        size_t nout = pick_out(rng, p, st, P.d[R].s.total_out);
        /* room for all of a call that ends at a block boundary, mostly: it
         * ends there, right after the blocks it took (if it took any) */
        if (snapped && rng.chance(70)) nout = std::max<size_t>(nout, 4 * nin + 1024);
        if (n == 0 && depth == 0 && big_chunks()) {
            /* few cases: the first call can give the workers work */
            nin = left;
            nout = std::max<size_t>(nout, 3 * CHUNK());
        }
        int flush = pick_flush(rng, p);
        bool moved = rng.chance((unsigned)p.move_pct);
        if (rng.chance((unsigned)p.end_pct) && depth == 0 && n > 0) return P.end();
        if (rng.chance((unsigned)p.threads_pct) &&
            !P.set_threads(rng.chance(25) ? (int)rng.below(2) : pick_threads(rng, p)))
            return false;
        if (depth == 0 && rng.chance((unsigned)p.copy_pct) && !copy_and_run(P, st, c, p, rng))
            return false;
        if (rng.chance((unsigned)p.dict_pct)) {
            /* raw: accepted anywhere; zlib and gzip refuse it here */
            Bytes dict = case_data(rng, rng.chance(50) ? K_FILES : K_TEXT,
                                   rng.chance(30) ? rng.range(1, 300) : rng.range(1, 40000));
            if (!P.set_dictionary(dict)) return false;
        }
        if (rng.chance((unsigned)p.prime_pct)) {
            int bits = rng.chance(10) ? -1 : (int)rng.range(1, 16);
            if (!P.prime(bits, (int)rng.below(65536))) return false;
        }
        if (rng.chance((unsigned)p.scribble_pct) && P.pos) {
            size_t a = rng.range(0, P.pos - 1);
            size_t k = 1 + rng.below((uint32_t)std::min<size_t>(P.pos - a, 4096));
            memset(P.data.data() + a, 0xEE, k);
            P.log("input consumed overwritten: " + std::to_string(k) + " bytes at " +
                  std::to_string(a));
        }
        if (rng.chance((unsigned)p.handoff_pct) && flush == Z_NO_FLUSH && !st.blocks.empty() &&
            left > 4 * CHUNK()) {
            if (!P.inflate(left, rng.range(1, CHUNK()), Z_NO_FLUSH, moved)) return false;
            if (P.rc != Z_OK) continue;
            workers_idle(big_chunks() ? 500 : 50);
            size_t k = P.pos / CHUNK() + 2 + rng.below(6);
            size_t x = first_dynamic(st, k * CHUNK() * 8);
            if (rng.chance(50) && x != ~(size_t)0 && x / 8 > P.pos + 1) {
                /* to the first block a worker decoded (a call that ends
                 * just before it, one with Z_BLOCK to it), then a call that
                 * starts there: it takes their blocks at once */
                if (!P.inflate(x / 8 - 1 - P.pos, 8 * (x / 8 - P.pos) + 1024, Z_NO_FLUSH, moved))
                    return false;
                if (P.rc != Z_OK) continue;
                if (!P.inflate(3, 65536, Z_BLOCK, moved)) return false;
                if (P.rc != Z_OK) continue;
                auto e = std::upper_bound(st.blocks.begin(), st.blocks.end(),
                                          (P.pos + rng.range(CHUNK() / 2, 6 * CHUNK())) * 8);
                if (e != st.blocks.begin() && *--e / 8 + 1 > P.pos) {
                    nin = *e / 8 + 1 - P.pos;
                    nout = std::max<size_t>(nout, 4 * nin + 1024);
                }
            } else {
                /* input up to a block boundary a few chunks on, room for all */
                auto b = std::lower_bound(st.blocks.begin(), st.blocks.end(),
                                          (P.pos + 3 * CHUNK()) * 8);
                auto e = std::upper_bound(st.blocks.begin(), st.blocks.end(),
                                          (P.pos + 10 * CHUNK()) * 8);
                if (b < e) {
                    size_t to = b[(size_t)rng.below((uint32_t)(e - b))] / 8 + 1;
                    if (to > P.pos) {
                        nin = to - P.pos;
                        nout = std::max<size_t>(nout, 4 * nin + 1024);
                    }
                }
            }
        }
        if (rng.chance((unsigned)p.pause_pct)) workers_idle(big_chunks() ? 200 : 20);
        size_t pos0 = P.pos, out0 = P.d[R].s.total_out;
        if (!P.inflate(nin, nout, flush, moved)) return false;
        bool progress = P.pos != pos0 || P.d[R].s.total_out != out0;
        stuck = progress ? 0 : stuck + 1;
        if (P.rc == Z_NEED_DICT) {
            if (++needs > 3) return true;
            if (!P.set_dictionary(st.dict.empty() || rng.chance(5) ? Bytes(7, 'x') : st.dict))
                return false;
            continue;
        }
        if (P.rc == Z_STREAM_END) {
            bool more = P.pos < P.data.size();
            if (more && c.wrap == 2 && rng.chance(90)) {
                /* the next gzip member */
                int how = (int)rng.below(3);
                if (!P.reset(how, c.inflate_wbits())) return false;
                continue;
            }
            if (rng.chance((unsigned)p.reset_pct) && resets < 3) {
                resets++;
                int how = (int)rng.below(3);
                if (!P.reset(how, c.inflate_wbits())) return false;
                P.restart();
                if (st.prime_bits && !P.prime(st.prime_bits, st.prime_value)) return false;
                if (c.wrap == 0 && !st.dict.empty() && !P.set_dictionary(st.dict)) return false;
                continue;
            }
            return true;
        }
        if (P.rc != Z_OK && P.rc != Z_BUF_ERROR) {
            /* an error: once more, the same */
            if (++errors > 1) return true;
            continue;
        }
        if (P.pos == P.data.size() && stuck > 8) return true;     /* cut short */
        if (P.pos < P.data.size() && rng.chance((unsigned)p.modify_pct))
            overwrite_ahead(rng, P, st);
        /* a reset in the middle, and the data again */
        if (rng.chance((unsigned)p.reset_pct / 4) && resets < 3) {
            resets++;
            int how = (int)rng.below(3);
            if (!P.reset(how, c.inflate_wbits())) return false;
            P.restart();
            if (st.prime_bits && !P.prime(st.prime_bits, st.prime_value)) return false;
            if (c.wrap == 0 && !st.dict.empty() && !P.set_dictionary(st.dict)) return false;
        }
    }
    return P.bad("the stream did not end after " + std::to_string(max_calls) + " calls");
}

/* how the case begins: init, threads, the bits given by inflatePrime() and
 * a raw dictionary */
bool start_case(Pair &P, const Stream &st, const Cfg &c, bool set = true) {
    return P.init(c.inflate_wbits()) && (!set || c.threads == 1 || P.set_threads(c.threads)) &&
           (!st.prime_bits || P.prime(st.prime_bits, st.prime_value)) &&
           (c.wrap != 0 || st.dict.empty() || P.set_dictionary(st.dict));
}

/* the checks after a case: nothing left allocated, no thread running, the
 * allocator called on the caller's thread only */
bool end_case(Pair &P, const std::shared_ptr<Alloc> &at, bool ok) {
    P.note_tasks();
    if (ok && P.d[R].open) ok = P.end();
    P.end_quiet();
    if (ok && at->live != 0)
        ok = P.bad("tur left " + std::to_string(at->live) + " blocks allocated after inflateEnd()");
    if (ok && at->foreign)
        ok = P.bad("tur's zalloc/zfree were called from a thread other than the caller's");
    if (ok && P.tasks0 >= 0 && tasks_settle(P.tasks0) > P.tasks0)
        ok = P.bad("worker threads still running after inflateEnd()");
    return ok;
}

/* One whole case of the random driver on stream st. */
bool run_case(const char *test, uint64_t seed, const Stream &st, const Cfg &c, const Plan &p,
              Stats &st_, zt::Rng &rng, bool set = true) {
    zt::Ctx ctx;
    ctx.test = std::string("InflateThreads.") + test;
    ctx.seed = seed;
    ctx.params = c.str();
    ctx.data = st.name;
    auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
    bool ok;
    {
        Pair P(ctx, ar, at);
        P.calls_stat = &st_.calls;
        P.data = st.z;
        ok = start_case(P, st, c, set) && drive(P, st, c, p, rng);
        ok = end_case(P, at, ok);
        st_.cases++;
        if (P.engaged) st_.engaged++;
        if (P.taken) st_.taken++;
    }
    if (!ok) st_.failed++;
    return ok;
}

/* how many cases a test runs: by_mode(quick, full) in a small-chunk build,
 * scaled by ZT_CASE_SCALE percent, big_quick/big_full in the default build
 * (each case there inflates megabytes) */
long case_scale() {
    static long scale = [] {
        const char *e = getenv("ZT_CASE_SCALE");
        long v = e && *e ? atol(e) : 100;
        return v > 0 ? v : 100;
    }();
    return scale;
}
long cases_for(long quick, long full, long big_quick = 1, long big_full = 3) {
    if (big_chunks()) return zt::by_mode(big_quick, big_full);
    return std::max(1L, zt::by_mode(quick, full) * case_scale() / 100);
}

/* a random stream configuration: memLevel 1-3 (blocks of a few hundred
 * bytes), 3 to max_chunks chunks of compressed input */
Cfg random_cfg(zt::Rng &rng, const Plan &p, double max_chunks = 24) {
    Cfg c;
    c.wrap = (int)rng.below(3);
    c.wb = rng.chance(60) ? 15 : 9 + (int)rng.below(7);
    c.level = 1 + (int)rng.below(9);
    c.memLevel = 1 + (int)rng.below(3);
    static const int sts[] = {Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY, Z_DEFAULT_STRATEGY,
                              Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED};
    c.strategy = sts[rng.below(7)];
    static const int kinds[] = {K_TEXT, K_FILES, K_LOWENT, K_FARREP, K_MIXED, K_SKEWED,
                                K_TEXT, K_FILES, K_RUNS, K_ZEROS, K_PERIOD, K_RANDOM};
    c.kind = kinds[rng.chance(85) ? rng.below(6) : 6 + rng.below(6)];
    c.len = len_for(c.kind, (double)rng.range(3, (size_t)max_chunks) + 0.5);
    c.threads = pick_threads(rng, p);
    if (c.wrap == 1 && rng.chance(20)) c.inf_wb = rng.chance(50) ? 0 : 15 + 32;
    if (c.wrap == 2 && rng.chance(20)) c.inf_wb = 15 + 32;
    if (c.wrap != 0 && c.inf_wb == 0 && c.wb < 15 && rng.chance(30))
        c.inf_wb = c.wrap == 2 ? 31 : 15;   /* a bigger window than needed */
    return c;
}

/* The default build's configurations (few, so that their streams are made
 * once): i picks one; 4-7 chunks of compressed input each. */
Cfg big_cfg(long i, const Plan &p) {
    Cfg c;
    static const int wraps[] = {1, 2, 0};
    c.wrap = wraps[i % 3];
    c.level = i % 3 == 1 ? 3 : 1;
    c.memLevel = i % 3 == 2 ? 2 : 3;
    c.kind = K_SKEWED;
    c.len = len_for(K_SKEWED, 4.3 + 0.5 * (double)(i % 3));
    c.members = c.wrap == 2 ? 2 : 1;
    c.threads = p.thread_counts[(size_t)i % p.thread_counts.size()];
    return c;
}

/* checks that a test's threads really ran, and that the callers took their
 * work: a test whose cases never hand off cannot fail */
void expect_engaged(const Stats &st, const char *test, long min_taken = 1) {
    fprintf(stderr, "[zt] InflateThreads.%s: %ld cases, %ld with worker threads started, "
            "%ld with hand-offs seen, %ld calls\n", test, st.cases, st.engaged, st.taken,
            st.calls);
    if (!probe().visible || zt::too_many_failures() || st.failed) return;
    EXPECT_GE(st.engaged, std::min(1L, st.cases))
        << "InflateThreads." << test << ": worker threads never started: the test does not "
        "test threads";
    /* about a fifth of the small-chunk cases show one: a tenth of them (up
     * to min_taken) must; the default build's few big cases, and a run
     * scaled down by ZT_CASE_SCALE (the ThreadSanitizer step: too few cases
     * to count on), need not */
    if (big_chunks() || case_scale() < 100) min_taken = 0;
    min_taken = std::min(min_taken, std::max(1L, st.cases / 10));
    EXPECT_GE(st.taken, std::min(min_taken, st.cases))
        << "InflateThreads." << test << ": a hand-off was seen in only " << st.taken << " of "
        << st.cases << " cases: the test does not test hand-offs";
}

/* runs n cases of a plan: random configurations with `adjust` applied
 * (small chunks), or the default build's shared streams */
template <class Adjust>
void run_cases(const char *test, const char *seedname, long n, const Plan &p, Stats &st,
               Adjust adjust, double max_chunks = 24) {
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed(seedname, (uint64_t)i);
        zt::Rng rng(seed);
        if (big_chunks()) {
            Cfg c = big_cfg(i, p);
            Plan q = p;
            adjust(c, q, rng, i);
            const Stream &s = big_stream(c, zt::case_seed("inflate-threads-big", 0));
            run_case(test, seed, s, c, q, st, rng);
        } else {
            Cfg c = random_cfg(rng, p, max_chunks);
            Plan q = p;
            adjust(c, q, rng, i);
            Stream s = make_stream(rng, c);
            run_case(test, seed, s, c, q, st, rng);
        }
    }
}

auto no_adjust = [](Cfg &, Plan &, zt::Rng &, long) {};

/* ---- the tests ------------------------------------------------------------ */

/* Arguments inflateSetThreads() must refuse, and the ones it must take. */
TEST(InflateThreads, BadArgumentsAccepted) {
    const Probe &pr = probe();
    ZT_NEED("threads", pr.fn, pr.note);
    EXPECT_EQ(TUR->inflateSetThreads(nullptr, 2), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->inflateSetThreads(nullptr, 0), Z_STREAM_ERROR);
    z_stream zero;
    memset(&zero, 0, sizeof zero);
    EXPECT_EQ(TUR->inflateSetThreads(&zero, 2), Z_STREAM_ERROR) << "never initialised";
    z_stream s;
    memset(&s, 0, sizeof s);
    ASSERT_EQ(ZAPI_INFLATE_INIT2(TUR, &s, 15), Z_OK);
    EXPECT_EQ(TUR->inflateSetThreads(&s, -1), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->inflateSetThreads(&s, -1000), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->inflateSetThreads(&s, 257), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->inflateSetThreads(&s, 1 << 30), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->inflateSetThreads(&s, 0), Z_OK);
    EXPECT_EQ(TUR->inflateSetThreads(&s, 1), Z_OK);
    int want = pr.threads ? Z_OK : Z_STREAM_ERROR;
    EXPECT_EQ(TUR->inflateSetThreads(&s, 2), want);
    EXPECT_EQ(TUR->inflateSetThreads(&s, 2), want) << "the same count again";
    EXPECT_EQ(TUR->inflateSetThreads(&s, 16), want);
    EXPECT_EQ(TUR->inflateSetThreads(&s, 256), want) << "ZLIB_TURBO_MAX_THREADS";
    EXPECT_EQ(TUR->inflateSetThreads(&s, 1), Z_OK);
    /* a z_stream whose state belongs to another (copied struct) */
    z_stream moved = s;
    EXPECT_EQ(TUR->inflateSetThreads(&moved, 2), Z_STREAM_ERROR);
    EXPECT_EQ(TUR->inflateEnd(&s), Z_OK);
    EXPECT_EQ(TUR->inflateSetThreads(&s, 2), Z_STREAM_ERROR) << "after inflateEnd";
    /* an inflateBack() stream, and a deflate stream */
    std::vector<unsigned char> window(32768);
    z_stream back;
    memset(&back, 0, sizeof back);
    ASSERT_EQ(ZAPI_INFLATE_BACK_INIT(TUR, &back, 15, window.data()), Z_OK);
    EXPECT_EQ(TUR->inflateSetThreads(&back, 2), Z_STREAM_ERROR) << "an inflateBack() stream";
    EXPECT_EQ(TUR->inflateSetThreads(&back, 0), Z_STREAM_ERROR) << "an inflateBack() stream";
    TUR->inflateBackEnd(&back);
    z_stream def;
    memset(&def, 0, sizeof def);
    ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &def, 6, Z_DEFLATED, 15, 8, 0), Z_OK);
    EXPECT_EQ(TUR->inflateSetThreads(&def, 2), Z_STREAM_ERROR) << "a deflate stream";
    TUR->deflateEnd(&def);
    /* threads in both directions or in neither (--no-threads) */
    if (TUR->deflateSetThreads) {
        memset(&def, 0, sizeof def);
        ASSERT_EQ(ZAPI_DEFLATE_INIT2(TUR, &def, 6, Z_DEFLATED, 15, 8, 0), Z_OK);
        EXPECT_EQ(TUR->deflateSetThreads(&def, 2) == Z_OK, pr.threads)
            << "deflateSetThreads(2) and inflateSetThreads(2) disagree about threads";
        TUR->deflateEnd(&def);
    }
    ZT_NEED("threads", pr.threads, pr.note + " (it refuses 2 threads, as it must)");
}

/* The threads must take work at all: a call holding two chunks beyond its
 * own gives the workers work (allocates their memory), one with less does
 * not; the chunks are the build's (ZT_CHUNK_BITS, or 1 MiB); and a caller
 * that comes to blocks the workers decoded takes them (a hand-off, seen by
 * inflateCodesUsed()), with 2 and with 16 threads. */
TEST(InflateThreads, HandOffNeverHappens) {
    NEED_THREADS();
    const Probe &pr = probe();
    ASSERT_NE(pr.from, 0u) << pr.note;
    size_t want = (size_t)1 << expected_chunk_bits();
    EXPECT_EQ(pr.chunk, want) << "not the chunks of ZT_CHUNK_BITS=" << expected_chunk_bits()
                              << " (" << pr.note << ")";
    EXPECT_EQ(pr.from, 3 * pr.chunk) << "a call from byte 2 of a stream gives work from "
                                        "three chunks of input: its own and two more";
    EXPECT_FALSE(gives_work(pr.from - 1));
    EXPECT_TRUE(gives_work(pr.from));
    if (!pr.visible) GTEST_SKIP() << "/proc/self/task cannot be read";
    /* the hand-off: the first call holds the whole stream and little room;
     * when the workers are done, the second gets input up to a block
     * boundary and room for all: the caller takes their blocks, and its
     * tables are then older than solo's */
    size_t rawn;
    const Bytes &z = probe_stream(&rawn);
    Stream st;
    st.z = z;
    st.blocks = find_blocks(st, 15);
    zt::Rng rng(zt::case_seed("inflate-threads-handoff", 0));
    for (int threads : {2, 16}) {
        int seen = 0, tries = 0;
        for (; tries < 16 && !seen; tries++) {
            zt::Ctx ctx;
            ctx.test = "InflateThreads.HandOffNeverHappens";
            ctx.params = "zlib, threads=" + std::to_string(threads);
            ctx.data = "skewed and text -> " + std::to_string(z.size());
            auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
            Pair P(ctx, ar, at);
            P.data = z;
            ASSERT_TRUE(P.init(15) && P.set_threads(threads));
            ASSERT_TRUE(P.inflate(z.size(), 1000, Z_NO_FLUSH));
            workers_idle(2000);
            /* a block boundary in the chunks the workers were given */
            size_t lo = 2 * pr.chunk * 8, hi = std::min(z.size(), (size_t)(2 + 2 * threads) *
                                                        pr.chunk) * 8;
            auto a = std::lower_bound(st.blocks.begin(), st.blocks.end(), lo);
            auto b = std::lower_bound(st.blocks.begin(), st.blocks.end(), hi);
            ASSERT_TRUE(a < b) << "no block boundary in the chunks given to the workers";
            size_t e = a[(size_t)rng.below((uint32_t)(b - a))] / 8 + 1;
            ASSERT_TRUE(P.inflate(e - P.pos, rawn + 1024, Z_NO_FLUSH));
            if (P.taken) seen++;
            ASSERT_TRUE(end_case(P, at, true));
        }
        fprintf(stderr, "[zt] InflateThreads.HandOffNeverHappens: %d threads: %s after %d "
                "tries\n", threads, seen ? "a hand-off seen" : "no hand-off seen", tries);
        EXPECT_GT(seen, 0) << "no hand-off seen in " << tries << " tries with " << threads
                           << " threads";
    }
}

/* raw, zlib and gzip, windowBits 9-15 (inflateInit2() with the stream's, a
 * bigger one, 0 and automatic detection), levels 1-9, every strategy, the
 * kinds of data, thread counts 2-16. */
TEST(InflateThreads, OutputDiffersByWrapperAndWindow) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.thread_counts = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    long n = cases_for(80, 800, 3, 9);
    run_cases("OutputDiffersByWrapperAndWindow", "ithreads-wrapper-window", n, p, st,
              [](Cfg &c, Plan &, zt::Rng &rng, long i) {
                  if (big_chunks()) return;
                  c.wrap = (int)(i % 3);
                  c.wb = 9 + (int)(i / 3 % 7);
                  c.inf_wb = 0;
                  if (c.wrap == 1 && rng.chance(30)) c.inf_wb = rng.chance(50) ? 0 : 47;
                  if (c.wrap == 2 && rng.chance(30)) c.inf_wb = 47;
                  if (rng.chance(30)) c.inf_wb = c.wrap == 0 ? -15 : c.wrap == 1 ? 15 : 31;
              });
    expect_engaged(st, "OutputDiffersByWrapperAndWindow", 3);
}

/* Input and output in slices down to one byte and up to the whole stream;
 * calls that end just after a block header's first bit, or in it. */
TEST(InflateThreads, SlicedCallsDiffer) {
    NEED_THREADS();
    Stats st;
    Plan p;
    long n = cases_for(100, 1000, 2, 6);
    run_cases("SlicedCallsDiffer", "ithreads-sliced", n, p, st,
              [](Cfg &c, Plan &q, zt::Rng &, long i) {
                  switch (i % 4) {
                  case 0:       /* one byte of output at a time now and then */
                      q.in_rest = 80; q.in_big = 20; q.in_medium = q.in_tiny = 0;
                      q.out_big = 40; q.out_medium = 30; q.out_small = 10; q.out_one = 15;
                      q.out_zero = 5;
                      break;
                  case 1:       /* tiny input between big calls */
                      q.in_rest = 20; q.in_big = 40; q.in_medium = 20; q.in_tiny = 20;
                      break;
                  case 2:       /* small output slices */
                      q.out_big = 10; q.out_medium = 30; q.out_small = 50; q.out_one = 5;
                      q.out_zero = 5;
                      break;
                  default:      /* big buffers, every call at a boundary */
                      q.in_rest = 50; q.in_big = 50; q.in_medium = q.in_tiny = 0;
                      q.snap_pct = 90;
                      q.out_big = 80; q.out_medium = 20; q.out_small = q.out_one = 0;
                      q.out_zero = 0;
                      break;
                  }
                  if (big_chunks() && i % 4 == 2) { q.out_small = 5; q.out_medium = 85; }
                  (void)c;
              });
    expect_engaged(st, "SlicedCallsDiffer", 3);
}

/* Z_SYNC_FLUSH, Z_FINISH, Z_BLOCK and Z_TREES among Z_NO_FLUSH calls: the
 * last two stop at block boundaries and never use the workers, whose work
 * the next Z_NO_FLUSH call may still take. */
TEST(InflateThreads, FlushValuesDiffer) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.flush_pct = 35;
    long n = cases_for(100, 1000, 2, 6);
    run_cases("FlushValuesDiffer", "ithreads-flush", n, p, st, no_adjust);
    expect_engaged(st, "FlushValuesDiffer", 3);
}

/* Calls with flush Z_BLOCK or Z_TREES only: the same results, and no
 * worker thread ever started (they never use the threads). */
TEST(InflateThreads, BlockFlushStartsThreads) {
    NEED_THREADS();
    if (!probe().visible) GTEST_SKIP() << "/proc/self/task cannot be read";
    long n = cases_for(12, 60, 1, 2);
    Stats st;
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("ithreads-block-only", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        Cfg c = big_chunks() ? big_cfg(i, p) : random_cfg(rng, p, 12);
        c.threads = 4;
        Stream local;
        const Stream &s = big_chunks() ? big_stream(c, zt::case_seed("inflate-threads-big", 0))
                                       : (local = make_stream(rng, c));
        zt::Ctx ctx;
        ctx.test = "InflateThreads.BlockFlushStartsThreads";
        ctx.seed = seed;
        ctx.params = c.str();
        ctx.data = s.name;
        auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
        bool ok;
        {
            Pair P(ctx, ar, at);
            P.data = s.z;
            ok = start_case(P, s, c);
            for (int k = 0; ok && k < 100000 && P.rc == Z_OK; k++) {
                ok = P.inflate(P.data.size() - P.pos, s.raw + 4096, rng.chance(50) ? Z_BLOCK
                                                                                    : Z_TREES);
                if (ok && P.rc == Z_NEED_DICT) ok = P.set_dictionary(s.dict);
                if (ok && P.rc == Z_STREAM_END && P.pos < P.data.size()) ok = P.reset(0);
                if (ok && P.engaged)
                    ok = P.bad("worker threads started by inflate() with Z_BLOCK or Z_TREES");
            }
            ok = end_case(P, at, ok);
            st.cases++;
        }
        if (!ok) st.failed++;
    }
}

/* Multi-member gzip: inflateReset(), inflateResetKeep() or inflateReset2()
 * between members, with the threads kept; the whole file in one buffer,
 * so that the workers are given chunks of the next members. */
TEST(InflateThreads, MultiMemberGzipDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.in_rest = 60; p.in_big = 30; p.in_medium = 10; p.in_tiny = 0;
    long n = cases_for(60, 600, 2, 4);
    run_cases("MultiMemberGzipDiffers", "ithreads-members", n, p, st,
              [](Cfg &c, Plan &, zt::Rng &rng, long) {
                  if (big_chunks()) return;
                  c.wrap = 2;
                  c.members = 2 + (int)rng.below(7);
                  c.inf_wb = rng.chance(30) ? 47 : 0;
              });
    expect_engaged(st, "MultiMemberGzipDiffers", 3);
}

/* inflateReset(), inflateResetKeep() and inflateReset2() after the end and
 * in the middle of a stream, then the data again from its start, with the
 * threads kept (and their work on the first pass of the same bytes). */
TEST(InflateThreads, ResetDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.reset_pct = 40;
    long n = cases_for(60, 600, 1, 3);
    run_cases("ResetDiffers", "ithreads-reset", n, p, st, no_adjust);
    expect_engaged(st, "ResetDiffers", 3);
}

/* Dictionaries: zlib streams with a preset one (Z_NEED_DICT, then
 * inflateSetDictionary(); now and then a wrong one), raw streams given theirs
 * first; inflateSetDictionary() between calls (raw: accepted anywhere, so
 * that the history changes under the workers' feet; zlib and gzip refuse
 * it). */
TEST(InflateThreads, DictionaryDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    long n = cases_for(100, 1000, 1, 3);
    run_cases("DictionaryDiffers", "ithreads-dictionary", n, p, st,
              [](Cfg &c, Plan &q, zt::Rng &rng, long i) {
                  q.dict_pct = i % 3 == 2 ? 8 : 0;
                  if (big_chunks()) { c.wrap = (int)(1 - i % 2); c.dict = 32768; return; }
                  c.wrap = i % 3 == 2 ? (int)rng.below(3) : (int)(i % 2);
                  static const size_t dl[] = {1, 3, 262, 4096, 32767, 32768, 40000};
                  c.dict = dl[rng.below(7)];
                  if (c.wrap == 0 && rng.chance(50)) c.kind = K_FILES;
              });
    expect_engaged(st, "DictionaryDiffers", 3);
}

/* Bits given by inflatePrime(): the stream's first 1-16 bits (the input
 * then starts in the middle of a byte, and every block boundary is at
 * another bit), and bits between calls (a damaged stream, the same
 * damage for both), inflatePrime(-1) too. */
TEST(InflateThreads, PrimeDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    long n = cases_for(80, 800, 2, 4);
    run_cases("PrimeDiffers", "ithreads-prime", n, p, st,
              [](Cfg &c, Plan &q, zt::Rng &rng, long i) {
                  q.prime_pct = i % 4 == 3 ? 3 : 0;
                  if (big_chunks()) return;
                  c.prime_bits = (int)rng.range(1, 16);
                  if (rng.chance(60)) c.wrap = 0;
              });
    expect_engaged(st, "PrimeDiffers", 3);
}

/* inflateCopy() in the middle: the copy has one thread (a big call on it
 * starts none), both go on (the copy sometimes given threads of its own)
 * and each equals ref's original and ref's copy. */
TEST(InflateThreads, CopyMidStreamDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.copy_pct = 10;
    long n = cases_for(60, 600, 1, 3);
    run_cases("CopyMidStreamDiffers", "ithreads-copy", n, p, st, no_adjust);
    expect_engaged(st, "CopyMidStreamDiffers", 3);
}

/* inflateSetThreads() between calls: another count, 1 (and 0) and back,
 * the same count again, while the workers hold work. */
TEST(InflateThreads, SetThreadsBetweenCallsDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.threads_pct = 20;
    p.thread_counts = {1, 2, 3, 4, 8, 16};
    long n = cases_for(80, 800, 1, 3);
    run_cases("SetThreadsBetweenCallsDiffers", "ithreads-set-between", n, p, st,
              [](Cfg &c, Plan &, zt::Rng &, long) { if (c.threads == 1) c.threads = 2; });
    expect_engaged(st, "SetThreadsBetweenCallsDiffers", 3);
}

/* The 2, 3, 4, 8 and 16 threads of the promise, and more threads than
 * chunks (64). */
TEST(InflateThreads, ManyThreadsDiffer) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.thread_counts = {2, 3, 4, 8, 16, 64};
    long n = cases_for(40, 400, 2, 5);
    run_cases("ManyThreadsDiffer", "ithreads-many", n, p, st,
              [&](Cfg &c, Plan &, zt::Rng &, long i) {
                  c.threads = p.thread_counts[(size_t)i % p.thread_counts.size()];
                  if (big_chunks() && c.threads > 16) c.threads = 16;
              }, 48);
    expect_engaged(st, "ManyThreadsDiffer", 3);
}

/* Damaged streams: bits flipped (in the chunks the workers are given, and
 * at block headers), streams cut short, garbage after the end, a check
 * value changed, random bytes: zlib's error, at zlib's place, with zlib's
 * msg and output before it. */
TEST(InflateThreads, DamagedStreamDiffers) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(150, 1500, 2, 6);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("ithreads-damaged", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        Cfg c = big_chunks() ? big_cfg(i, p) : random_cfg(rng, p);
        Stream s = big_chunks() ? big_stream(c, zt::case_seed("inflate-threads-big", 0))
                                : make_stream(rng, c);
        size_t nb = s.z.size();
        std::string what;
        switch (i % 6) {
        case 0:
        case 1: {               /* bits flipped after two chunks */
            int k = 1 + (int)rng.below(4);
            for (int j = 0; j < k && nb > 2 * CHUNK(); j++) {
                size_t at = rng.range(std::min(nb - 1, 2 * CHUNK()), nb - 1);
                s.z[at] ^= (uint8_t)(1u << rng.below(8));
            }
            what = "bits flipped";
            break;
        }
        case 2: {               /* a block header's bits */
            if (s.blocks.size() > 2) {
                size_t b = s.blocks[rng.range(s.blocks.size() / 3, s.blocks.size() - 1)];
                b += rng.below(17);
                if (b / 8 < nb) s.z[b / 8] ^= (uint8_t)(1u << (b % 8));
            }
            what = "a block header damaged";
            break;
        }
        case 3:                 /* cut short */
            s.z.resize(rng.range(nb / 2, nb - 1));
            what = "cut short";
            break;
        case 4: {               /* garbage after, or a check value changed */
            if (rng.chance(50)) {
                Bytes g = zt::generate(rng, zt::GEN_RANDOM, rng.range(1, 3 * CHUNK()));
                s.z.insert(s.z.end(), g.begin(), g.end());
                what = "garbage after";
            } else {
                s.z[nb - 1 - rng.below(4)] ^= 0x10;
                what = "check value changed";
            }
            break;
        }
        default: {              /* a run of random bytes */
            size_t at = rng.range(nb / 3, nb - 1), len = std::min(nb - at, rng.range(1, 64));
            for (size_t j = 0; j < len; j++) s.z[at + j] = (uint8_t)rng.next();
            what = "random bytes";
            break;
        }
        }
        s.name += " (" + what + ")";
        Plan q;
        q.in_rest = 60; q.in_big = 30; q.in_medium = 10; q.in_tiny = 0;
        run_case("DamagedStreamDiffers", seed, s, c, q, st, rng);
    }
    expect_engaged(st, "DamagedStreamDiffers", 3);
}

/* A raw stream inflated with a smaller window than it was made with
 * (inflateInit2(-9..-14) for windowBits 15), and zlib streams given a
 * window at the header's size: distances the window does not hold are
 * "invalid distance too far back" where zlib finds them, which depends on
 * how the output was sliced -- the workers' blocks are taken only where
 * zlib would not have said so. */
TEST(InflateThreads, TooFarBackDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.out_big = 20; p.out_medium = 50; p.out_small = 20; p.out_one = 5; p.out_zero = 5;
    long n = cases_for(100, 1000, 2, 4);
    run_cases("TooFarBackDiffers", "ithreads-too-far", n, p, st,
              [](Cfg &c, Plan &, zt::Rng &rng, long i) {
                  if (big_chunks()) {      /* the shared raw and gzip streams */
                      Plan q;
                      c = big_cfg(i % 2 ? 1 : 2, q);
                  } else {
                      c.wrap = i % 4 == 3 ? 2 : 0;
                      c.wb = 15;
                      c.kind = rng.chance(50) ? K_FARREP : K_FILES;
                  }
                  c.inf_wb = c.wrap == 0 ? -(9 + (int)rng.below(6)) : 16 + 9 + (int)rng.below(6);
              });
    expect_engaged(st, "TooFarBackDiffers", 2);
}

/* One case of a test that makes its own calls: calls(P, st) makes them
 * (false at a difference) on the stream st made from c; then the checks of
 * run_case(). */
template <class Calls>
void own_calls_case(const char *test, uint64_t seed, const Cfg &c, const Stream &st,
                    const std::string &what, Stats &stats, Calls calls) {
    zt::Ctx ctx;
    ctx.test = std::string("InflateThreads.") + test;
    ctx.seed = seed;
    ctx.params = c.str() + " (" + what + ")";
    ctx.data = st.name;
    auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
    bool ok;
    {
        Pair P(ctx, ar, at);
        P.calls_stat = &stats.calls;
        P.data = st.z;
        ok = start_case(P, st, c) && calls(P);
        ok = end_case(P, at, ok);
        stats.cases++;
        if (P.engaged) stats.engaged++;
        if (P.taken) stats.taken++;
    }
    if (!ok) stats.failed++;
}

/* the chunks a first call from the start of the stream gives the workers,
 * with t threads: 2 .. 2 + slots - 1 (as the library is written now) */
size_t last_posted(int t) { return 2 + 2 * (size_t)t + (big_chunks() ? 0 : 16) - 1; }

/* A call that starts just before the first block a worker decoded (the
 * block before it ends there) with a raw stream inflated with a smaller
 * window than it was made with: the caller comes to that block with almost
 * nothing written in the call and the window's bytes behind it, so that a
 * distance of the block reaches further back than zlib can see ("invalid
 * distance too far back" where zlib decodes it) -- the worker's block must
 * not be taken.  The calls before it have all the output behind them, and
 * make no such error. */
TEST(InflateThreads, TooFarBackAtCallStartDiffers) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(40, 400, 1, 2);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("ithreads-too-far-at-start", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        Cfg c;
        c.wrap = 0;
        c.wb = 15;
        c.level = 6;
        c.memLevel = 1 + (int)rng.below(3);
        c.kind = i % 2 ? K_FILES : K_TEXT;
        size_t top = last_posted(4);
        c.len = len_for(c.kind, (double)top + 2);
        if (big_chunks()) c = big_cfg(2, p);     /* the shared raw stream */
        c.inf_wb = -(10 + (int)(i % 5));
        c.threads = 4;
        Stream s = big_chunks() ? big_stream(c, zt::case_seed("inflate-threads-big", 0))
                                : make_stream(rng, c);
        size_t k = 2 + rng.below((uint32_t)(std::min(top, s.z.size() / CHUNK() - 1) - 1));
        size_t x = first_dynamic(s, k * CHUNK() * 8);
        if (x == ~(size_t)0 || x / 8 < 4) continue;
        own_calls_case("TooFarBackAtCallStartDiffers", seed, c, s,
                       "all input and 1000 bytes of room, input to just before the first "
                       "dynamic block of chunk " + std::to_string(k) + " (bit " +
                       std::to_string(x) + "), then all", st, [&](Pair &P) {
            bool ok = P.inflate(P.data.size(), 1000, Z_NO_FLUSH);
            workers_idle(big_chunks() ? 1000 : 100);
            if (ok && P.rc == Z_OK && x / 8 > P.pos)
                ok = P.inflate(x / 8 - P.pos, 2 * s.raw, Z_NO_FLUSH);
            if (ok && P.rc == Z_OK)
                ok = P.inflate(P.data.size() - P.pos, 2 * s.raw, Z_NO_FLUSH);
            return ok;
        });
    }
    expect_engaged(st, "TooFarBackAtCallStartDiffers", 0);
}

/* The byte that holds a block boundary changed between calls, in its bits
 * after the boundary (the next block's first header bit: "last block")
 * and after the workers copied their chunks: the caller comes to the
 * boundary with those bits held (not in the input it compares with the
 * worker's copy) -- the worker's block, decoded from the old bits, must not
 * be taken. */
TEST(InflateThreads, BoundaryBitsChangedDiffers) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(40, 400, 1, 2);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("ithreads-boundary-bits", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        Cfg c;
        c.wrap = (int)(i % 3);
        c.level = 1 + (int)rng.below(9);
        c.memLevel = 1 + (int)rng.below(3);
        c.kind = i % 2 ? K_SKEWED : K_FILES;
        c.threads = 2 + (int)rng.below(3);
        size_t top = last_posted(c.threads);
        c.len = len_for(c.kind, (double)top + 2);
        if (big_chunks()) c = big_cfg(i, p);     /* the shared streams */
        Stream s = big_chunks() ? big_stream(c, zt::case_seed("inflate-threads-big", 0))
                                : make_stream(rng, c);
        if (s.z.size() / CHUNK() < 4) continue;
        size_t k = 2 + rng.below((uint32_t)(std::min(top, s.z.size() / CHUNK() - 1) - 1));
        /* a boundary inside a byte, so that the caller holds its bits */
        size_t x = first_dynamic(s, k * CHUNK() * 8);
        while (x != ~(size_t)0 && x % 8 == 0 && x < (k + 1) * CHUNK() * 8)
            x = first_dynamic(s, x + 1);
        if (x == ~(size_t)0 || x % 8 == 0) continue;
        own_calls_case("BoundaryBitsChangedDiffers", seed, c, s,
                       "all input and 1000 bytes of room, then bit " + std::to_string(x) +
                       " (a block's \"last\" bit, in chunk " + std::to_string(k) +
                       ") set, then all", st, [&](Pair &P) {
            bool ok = P.inflate(P.data.size(), 1000, Z_NO_FLUSH);
            if (ok && P.rc == Z_OK && x / 8 >= P.pos + 1) {
                P.data[x / 8] ^= (uint8_t)(1u << (x % 8));
                P.log("input not consumed changed: bit " + std::to_string(x) + " flipped");
                workers_idle(big_chunks() ? 1000 : 100);
                ok = P.inflate(P.data.size() - P.pos, 2 * s.raw, Z_NO_FLUSH);
            }
            return ok;
        });
    }
    expect_engaged(st, "BoundaryBitsChangedDiffers", 0);
}

/* The input not consumed yet handed over again from another buffer at each
 * call, the old one freed at once (AddressSanitizer sees a worker that
 * reads it); consumed input overwritten. */
TEST(InflateThreads, MovedInputDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.move_pct = 80;
    p.scribble_pct = 20;
    long n = cases_for(80, 800, 1, 3);
    run_cases("MovedInputDiffers", "ithreads-moved", n, p, st, no_adjust);
    expect_engaged(st, "MovedInputDiffers", 3);
}

/* After a call that left input, the caller changes bytes it has not
 * consumed yet: a bit in the block it is in, or in the next one (where
 * the block still ends at the same bit, its output differs), bytes near
 * ahead or anywhere.  The workers decoded the old bytes; the output must
 * be zlib's for the new ones. */
TEST(InflateThreads, OverwrittenInputDiffers) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.modify_pct = 40;
    p.in_rest = 70; p.in_big = 30; p.in_medium = p.in_tiny = 0;
    p.out_big = 5; p.out_medium = 75; p.out_small = 15; p.out_one = 5; p.out_zero = 0;
    long n = cases_for(150, 1500, 2, 6);
    run_cases("OverwrittenInputDiffers", "ithreads-overwritten", n, p, st,
              [](Cfg &c, Plan &q, zt::Rng &, long i) {
                  if (i % 3 == 2) q.move_pct = 50;
                  (void)c;
              });
    expect_engaged(st, "OverwrittenInputDiffers", 3);
}

/* A valid other stream after the first call: two streams that share their
 * first bytes (the same data up to a flush point), the first given whole
 * to a call with little room, then its bytes after the common part
 * replaced by the second's.  The workers decoded the first's. */
TEST(InflateThreads, ReplacedInputDiffers) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(60, 600, 1, 2);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("ithreads-replaced", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        Cfg c = big_chunks() ? big_cfg(i, p) : random_cfg(rng, p);
        if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_DEFAULT_STRATEGY;
        c.members = 1;
        Bytes common = case_data(rng, c.kind, c.len / 4 + 1);
        Bytes tail[2] = {case_data(rng, c.kind, c.len), case_data(rng, c.kind, c.len)};
        Stream s[2];
        zt::DefParams dp;
        dp.level = c.level;
        dp.windowBits = c.wbits_arg();
        dp.memLevel = c.memLevel;
        dp.strategy = c.strategy;
        for (int k = 0; k < 2; k++) {
            Bytes all = common;
            all.insert(all.end(), tail[k].begin(), tail[k].end());
            /* a flush after the common part: the bytes up to it agree */
            s[k].z = zt::ref_deflate(dp, all.data(), all.size(), (int)common.size(),
                                     rng.chance(50) ? Z_SYNC_FLUSH : Z_FULL_FLUSH);
            s[k].raw = all.size();
            s[k].blocks = find_blocks(s[k], c.inflate_wbits());
        }
        size_t same = 0;
        while (same < s[0].z.size() && same < s[1].z.size() && s[0].z[same] == s[1].z[same])
            same++;
        zt::Ctx ctx;
        ctx.test = "InflateThreads.ReplacedInputDiffers";
        ctx.seed = seed;
        ctx.params = c.str();
        ctx.data = std::string(kind_str(c.kind)) + ": " + std::to_string(s[0].z.size()) +
                   " then " + std::to_string(s[1].z.size()) + " bytes, " + std::to_string(same) +
                   " the same";
        auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
        bool ok;
        {
            Pair P(ctx, ar, at);
            P.calls_stat = &st.calls;
            P.data = s[0].z;
            ok = start_case(P, s[0], c);
            /* the first stream whole, little room, until the caller nears the
             * end of the common part */
            while (ok && P.rc == Z_OK && P.pos + 64 < same)
                ok = P.inflate(P.data.size() - P.pos, rng.range(1, (size_t)(c.len / 4 / 3 + 1)),
                               Z_NO_FLUSH);
            if (ok && P.rc == Z_OK && P.pos <= same) {
                workers_idle(big_chunks() ? 500 : 50);
                P.data.resize(same);
                P.data.insert(P.data.end(), s[1].z.begin() + (long)same, s[1].z.end());
                P.log("input after byte " + std::to_string(same) + " replaced");
                Plan q;
                q.in_rest = 70; q.in_big = 30; q.in_medium = q.in_tiny = 0;
                ok = drive(P, s[1], c, q, rng);
            }
            ok = end_case(P, at, ok);
            st.cases++;
            if (P.engaged) st.engaged++;
            if (P.taken) st.taken++;
        }
        if (!ok) st.failed++;
    }
    expect_engaged(st, "ReplacedInputDiffers", 0);
}

/* inflateEnd() in the middle of a stream, also while the workers decode:
 * nothing left allocated, no thread left. */
TEST(InflateThreads, EndMidStreamLeaks) {
    NEED_THREADS();
    Stats st;
    Plan p;
    p.end_pct = 15;
    p.pause_pct = 20;
    p.thread_counts = {2, 3, 4, 8, 16};
    long n = cases_for(60, 600, 1, 3);
    run_cases("EndMidStreamLeaks", "ithreads-end", n, p, st, no_adjust);
    expect_engaged(st, "EndMidStreamLeaks", 2);
}

/* Everything at once, at random. */
TEST(InflateThreads, RandomScenariosDiffer) {
    NEED_THREADS();
    Stats st;
    long n = cases_for(150, 1500, 1, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("ithreads-random", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        p.thread_counts = {1, 2, 3, 4, 5, 8, 12, 16};
        p.flush_pct = (int)rng.below(20);
        p.pause_pct = (int)rng.below(80);
        p.threads_pct = (int)rng.below(8);
        p.copy_pct = (int)rng.below(5);
        p.dict_pct = (int)rng.below(4);
        p.prime_pct = (int)rng.below(3);
        p.modify_pct = (int)rng.below(30);
        p.scribble_pct = (int)rng.below(10);
        p.move_pct = (int)rng.below(50);
        p.end_pct = rng.chance(20) ? 2 : 0;
        p.reset_pct = (int)rng.below(20);
        p.snap_pct = (int)rng.below(80);
        Cfg c = big_chunks() ? big_cfg(i, p) : random_cfg(rng, p);
        if (c.threads == 1) c.threads = 2;
        if (!big_chunks()) {
            if (rng.chance(20) && c.wrap != 2) c.dict = rng.range(1, 40000);
            if (rng.chance(15)) c.prime_bits = (int)rng.range(1, 16);
            if (c.wrap == 2 && rng.chance(40)) c.members = 2 + (int)rng.below(4);
        }
        Stream s = big_chunks() ? big_stream(c, zt::case_seed("inflate-threads-big", 0))
                                : make_stream(rng, c);
        run_case("RandomScenariosDiffer", seed, s, c, p, st, rng);
    }
    expect_engaged(st, "RandomScenariosDiffer", 3);
}

/* ---- ZLIB_TURBO_THREADS ------------------------------------------------------ */

/* ZLIB_TURBO_THREADS set (or unset, for nullptr) while it lives */
struct EnvThreads : zt::ScopedEnv {
    explicit EnvThreads(const char *v) : zt::ScopedEnv("ZLIB_TURBO_THREADS", v) {}
};

/* what the environment needs: a call holding this much at a block boundary */
const size_t AUTO_MIN = (size_t)1 << 20;

/* a zlib stream of more than AUTO_MIN + 3 chunks of compressed input, made
 * once (the default build's is probe()'s) */
const Stream &env_stream() {
    static Stream s;
    if (!s.z.empty()) return s;
    if (big_chunks()) {
        s.z = probe_stream(&s.raw);
        s.blocks = find_blocks(s, 15);
        s.name = "skewed and text -> " + std::to_string(s.z.size());
        EXPECT_GT(s.z.size(), AUTO_MIN + 3 * CHUNK()) << "the stream for ZLIB_TURBO_THREADS is short";
        return s;
    }
    zt::Rng rng(zt::case_seed("ithreads-env-stream", 0));
    Cfg c;
    c.wrap = 1;
    c.level = 1;
    c.memLevel = 3;
    c.kind = K_SKEWED;
    c.len = (size_t)((double)(AUTO_MIN + 8 * CHUNK()) * 1.4);
    s = make_stream(rng, c);
    EXPECT_GT(s.z.size(), AUTO_MIN + 6 * CHUNK()) << "the stream for ZLIB_TURBO_THREADS is short";
    return s;
}

/* The environment's threads: the random driver on a stream that the
 * program gives no count, with ZLIB_TURBO_THREADS set: calls of 1 MiB and
 * more take them; the results must be zlib's, call by call. */
TEST(InflateThreads, EnvThreadsDiffer) {
    NEED_THREADS();
    Stats st;
    static const char *vals[] = {"2", "3", "4", "8", "16"};
    long n = cases_for(10, 50, 2, 4);
    for (long i = 0; i < n && !st.stop(); i++) {
        uint64_t seed = zt::case_seed("ithreads-env", (uint64_t)i);
        zt::Rng rng(seed);
        Plan p;
        p.in_rest = 70; p.in_big = 20; p.in_medium = 10; p.in_tiny = 0;
        p.move_pct = 10;
        p.reset_pct = 10;
        p.copy_pct = i % 3 == 2 ? 5 : 0;
        Cfg c;
        c.wrap = 1;
        c.level = 1;
        c.memLevel = 3;
        c.kind = K_SKEWED;
        c.threads = 1;              /* no inflateSetThreads() */
        EnvThreads e(vals[i % 5]);
        const Stream &s = env_stream();
        run_case("EnvThreadsDiffer", seed, s, c, p, st, rng, false);
    }
    expect_engaged(st, "EnvThreadsDiffer", 1);
}

/* One tur stream over the env stream, in calls of `chunk` bytes (ample
 * room), inflateSetThreads(set) first unless set is -1: its allocations,
 * whether worker threads were seen, how many at most, and whether its
 * output is zlib's. */
struct EnvRun {
    long allocs = 0;
    bool threads = false;
    int max_tasks = 0;
    bool same = false;
};
EnvRun env_run(size_t chunk, int set = -1) {
    EnvRun r;
    const Stream &st = env_stream();
    static Bytes ref_out;       /* ref's output, the same every time */
    Bytes out[2];
    int t0 = task_count();
    for (int i = ref_out.empty() ? 0 : 1; i < 2; i++) {
        const zapi *A = i ? TUR : REF;
        Alloc al;
        z_stream s;
        memset(&s, 0, sizeof s);
        al.attach(s);
        if (ZAPI_INFLATE_INIT2(A, &s, 15) != Z_OK) return r;
        if (i && set >= 0) TUR->inflateSetThreads(&s, set);
        out[i].resize(st.raw + 1024);
        s.next_out = out[i].data();
        s.avail_out = (uInt)out[i].size();
        size_t at = 0;
        int rc;
        do {
            size_t n = std::min(chunk, st.z.size() - at);
            s.next_in = const_cast<Bytef *>(st.z.data() + at);
            s.avail_in = (uInt)n;
            rc = A->inflate(&s, Z_NO_FLUSH);
            at += n - s.avail_in;
            if (i && t0 > 0) {
                int k = task_count() - t0;
                r.max_tasks = std::max(r.max_tasks, k);
                if (k > 0) r.threads = true;
            }
        } while (rc == Z_OK && at < st.z.size());
        out[i].resize(s.total_out);
        A->inflateEnd(&s);
        if (i) r.allocs = al.calls;
    }
    tasks_settle(t0);
    if (ref_out.empty()) ref_out = out[0];
    r.same = ref_out == out[1];
    return r;
}

/* Calls holding less than 1 MiB never read the environment: the same
 * allocations as without it, no thread; one holding more does start
 * threads (else the test could not fail), at most n - 1 of them. */
TEST(InflateThreads, EnvStartsThreadsForSmallCalls) {
    NEED_THREADS();
    if (!probe().visible) GTEST_SKIP() << probe().note;
    for (size_t chunk : {AUTO_MIN / 2, AUTO_MIN - 1}) {
        EnvRun base, r;
        {
            EnvThreads e(nullptr);
            base = env_run(chunk);
        }
        {
            EnvThreads e("8");
            r = env_run(chunk);
        }
        EXPECT_TRUE(r.same) << "calls of " << chunk << " bytes";
        EXPECT_FALSE(r.threads) << "ZLIB_TURBO_THREADS=8 started threads for calls of "
                                << chunk << " bytes";
        EXPECT_EQ(r.allocs, base.allocs)
            << "ZLIB_TURBO_THREADS=8 changed the allocations for calls of " << chunk << " bytes";
    }
    EnvThreads e("3");
    EnvRun r = env_run(AUTO_MIN + 4 * CHUNK());
    EXPECT_TRUE(r.same);
    EXPECT_TRUE(r.threads) << "ZLIB_TURBO_THREADS=3 started no thread for calls of "
                           << AUTO_MIN + 4 * CHUNK() << " bytes";
    EXPECT_LE(r.max_tasks, 2) << "ZLIB_TURBO_THREADS=3";
}

/* A count the program set, 0 and 1 included, wins over the environment;
 * values that are not a count start nothing. */
TEST(InflateThreads, EnvOverridesProgramCount) {
    NEED_THREADS();
    if (!probe().visible) GTEST_SKIP() << probe().note;
    size_t big = AUTO_MIN + 4 * CHUNK();
    for (int set : {0, 1}) {
        EnvRun base, r;
        {
            EnvThreads e(nullptr);
            base = env_run(big, set);
        }
        {
            EnvThreads e("8");
            r = env_run(big, set);
        }
        EXPECT_TRUE(r.same);
        EXPECT_FALSE(r.threads) << "inflateSetThreads(strm, " << set
                                << ") and ZLIB_TURBO_THREADS=8: threads started";
        EXPECT_EQ(r.allocs, base.allocs) << "inflateSetThreads(strm, " << set << ")";
    }
    {
        EnvThreads e("8");
        EnvRun r = env_run(big, 2);
        EXPECT_TRUE(r.same);
        EXPECT_TRUE(r.threads) << "inflateSetThreads(strm, 2): no thread";
        EXPECT_LE(r.max_tasks, 1) << "inflateSetThreads(strm, 2) and ZLIB_TURBO_THREADS=8: "
                                  << r.max_tasks << " worker threads";
    }
    std::vector<const char *> vals = {"", "0", "1", "x", "4x", "-4", " 4", "+4", "4 ", "0x4", "2.5"};
    if (big_chunks() && !zt::full_mode()) vals = {"", "1", "4x", "-4", "0x4"};
    for (const char *v : vals) {
        EnvThreads e(v);
        EnvRun r = env_run(big);
        EXPECT_TRUE(r.same) << "ZLIB_TURBO_THREADS='" << v << "'";
        EXPECT_FALSE(r.threads) << "ZLIB_TURBO_THREADS='" << v << "' started threads";
    }
}

/* ---- threads' lives and the allocator ------------------------------------- */

/* No thread outlives what ends it: inflateEnd(), inflateSetThreads(strm, 1)
 * (and 0) and another count join them; inflateReset() keeps them; a copy
 * has none until it is given some. */
TEST(InflateThreads, ThreadOutlivesStream) {
    NEED_THREADS();
    if (!probe().visible) GTEST_SKIP() << probe().note;
    zt::Ctx ctx;
    ctx.test = "InflateThreads.ThreadOutlivesStream";
    size_t rawn;
    Stream st;
    st.z = probe_stream(&rawn);
    ctx.data = "skewed and text -> " + std::to_string(st.z.size());
    auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
    int t0 = task_count();
    size_t part = std::min(st.z.size(), 4 * CHUNK());
    {
        Pair P(ctx, ar, at);
        P.data = st.z;
        ASSERT_TRUE(P.init(15));
        ASSERT_TRUE(P.set_threads(4));
        EXPECT_EQ(task_count(), t0) << "threads started before inflate()";
        ASSERT_TRUE(P.inflate(part, CHUNK(), Z_NO_FLUSH));
        int t1 = task_count();
        EXPECT_GT(t1, t0) << "no threads started";
        EXPECT_LE(t1, t0 + 3) << "more than 3 workers for inflateSetThreads(4)";
        ASSERT_TRUE(P.set_threads(4));                  /* the same: kept */
        EXPECT_EQ(task_count(), t1);
        ASSERT_TRUE(P.set_threads(1));
        EXPECT_EQ(tasks_settle(t0), t0) << "inflateSetThreads(strm, 1) left threads running";
        ASSERT_TRUE(P.set_threads(3));
        ASSERT_TRUE(P.inflate(part, CHUNK(), Z_NO_FLUSH));
        EXPECT_GT(task_count(), t0);
        ASSERT_TRUE(P.set_threads(2));
        EXPECT_EQ(tasks_settle(t0), t0) << "inflateSetThreads(strm, 2) after 3 left threads running";
        ASSERT_TRUE(P.inflate(P.data.size(), rawn + 1024, Z_FINISH));
        int t3 = task_count();
        EXPECT_GT(t3, t0);
        ASSERT_TRUE(P.reset(0));
        P.restart();
        EXPECT_EQ(task_count(), t3) << "inflateReset() changed the threads";
        ASSERT_TRUE(P.inflate(part, CHUNK(), Z_NO_FLUSH));
        EXPECT_EQ(task_count(), t3) << "threads started again after inflateReset()";
        /* a copy: no threads until it is given some */
        z_stream cp;
        memset(&cp, 0, sizeof cp);
        ASSERT_EQ(TUR->inflateCopy(&cp, &P.d[T].s), Z_OK);
        Bytes out(8u << 20);
        cp.next_in = P.data.data() + P.pos;
        cp.avail_in = (uInt)(P.data.size() - P.pos);
        cp.next_out = out.data();
        cp.avail_out = (uInt)std::min<size_t>(out.size(), 4 * CHUNK());
        int r = TUR->inflate(&cp, Z_NO_FLUSH);
        EXPECT_TRUE(r == Z_OK || r == Z_STREAM_END) << r;
        EXPECT_EQ(task_count(), t3) << "the copy started threads";
        ASSERT_EQ(TUR->inflateSetThreads(&cp, 2), Z_OK);
        ASSERT_EQ(TUR->inflateReset(&cp), Z_OK);
        cp.next_in = P.data.data();
        cp.avail_in = (uInt)P.data.size();
        cp.next_out = out.data();
        cp.avail_out = (uInt)std::min<size_t>(out.size(), 4 * CHUNK());
        EXPECT_EQ(TUR->inflate(&cp, Z_NO_FLUSH), Z_OK);
        EXPECT_GT(task_count(), t3) << "the copy given 2 threads started none";
        TUR->inflateEnd(&cp);
        EXPECT_EQ(tasks_settle(t3), t3) << "inflateEnd() of the copy left threads running";
        ASSERT_TRUE(P.set_threads(0));
        EXPECT_EQ(tasks_settle(t0), t0) << "inflateSetThreads(strm, 0) left threads running";
        ASSERT_TRUE(P.set_threads(5));
        ASSERT_TRUE(P.inflate(P.data.size(), CHUNK(), Z_NO_FLUSH));   /* workers busy */
        EXPECT_GT(task_count(), t0);
        ASSERT_TRUE(P.end());
        EXPECT_EQ(tasks_settle(t0), t0) << "inflateEnd() left threads running";
    }
    EXPECT_EQ(at->live, 0);
}

/* An allocator that counts the calls from other threads than the one that
 * calls zlib (CountingAlloc's foreign): none, over the calls that allocate
 * and free with threads -- inflateSetThreads() (also while workers run),
 * threaded inflate() (the workers' memory), inflateCopy(),
 * inflateReset2() with another window, inflateEnd(). */
TEST(InflateThreads, AllocatorCalledFromWorker) {
    NEED_THREADS();
    const Bytes &z = probe_stream();
    Alloc al;
    z_stream s, c;
    memset(&s, 0, sizeof s);
    al.attach(s);
    ASSERT_EQ(ZAPI_INFLATE_INIT2(TUR, &s, 15), Z_OK);
    ASSERT_EQ(TUR->inflateSetThreads(&s, 8), Z_OK);
    int t0 = task_count();
    Bytes out(8u << 20);
    s.next_in = const_cast<Bytef *>(z.data());
    s.avail_in = (uInt)z.size();
    s.next_out = out.data();
    s.avail_out = (uInt)CHUNK();
    ASSERT_EQ(TUR->inflate(&s, Z_NO_FLUSH), Z_OK);
    if (t0 >= 0) {
        EXPECT_GT(task_count(), t0) << "no worker thread started";
    }
    ASSERT_EQ(TUR->inflateCopy(&c, &s), Z_OK);
    ASSERT_EQ(TUR->inflateSetThreads(&c, 3), Z_OK);
    ASSERT_EQ(TUR->inflateSetThreads(&s, 4), Z_OK);
    for (z_stream *x : {&s, &c}) {
        int r;
        do {
            x->next_out = out.data();
            x->avail_out = (uInt)std::min<size_t>(out.size(), 3 * CHUNK());
            r = TUR->inflate(x, Z_NO_FLUSH);
        } while (r == Z_OK);
        EXPECT_EQ(r, Z_STREAM_END);
    }
    EXPECT_EQ(TUR->inflateReset2(&s, -9), Z_OK);
    TUR->inflateEnd(&c);
    TUR->inflateEnd(&s);
    EXPECT_EQ(al.foreign, 0) << "of " << al.calls << " zalloc and " << al.frees << " zfree calls";
    EXPECT_EQ(al.live, 0);
    EXPECT_GT(al.calls, 10);
}

/* the rest of P's stream to its end, in calls of random sizes */
bool finish_stream(Pair &P, zt::Rng &rng, const Stream &st) {
    bool ok = true;
    for (int n = 0; ok && n < 100000; n++) {
        if (P.rc == Z_STREAM_END || (P.rc != Z_OK && P.rc != Z_BUF_ERROR)) break;
        if (P.rc == Z_BUF_ERROR && P.pos == P.data.size()) break;
        ok = P.inflate(rng.chance(50) ? P.data.size() : rng.range(1, 8 * CHUNK()),
                       rng.range(1, 8 * CHUNK()), Z_NO_FLUSH);
        if (ok && P.rc == Z_NEED_DICT) ok = P.set_dictionary(st.dict);
    }
    return ok;
}

/* Last in the file: a library that crashes on a failed allocation stops
 * the program here, after every other test has run.  Every allocation of
 * inflateSetThreads() (at the start, and between calls with other threads
 * running) and of the first inflate() call that gives the workers work
 * (the stream's window allocated before), failed in turn, and every
 * allocation of the calls failing: inflateSetThreads() returns Z_MEM_ERROR
 * and leaves a usable stream on one thread with nothing of the new set or
 * an old one left; inflate() never fails because of threads: ref's results
 * all the same, nothing left after inflateEnd(), and memory to be had later
 * is used. */
TEST(InflateThreads, FailingAllocatorLeaksOrBreaks) {
    NEED_THREADS();
    Stats st;
    const Bytes &z = probe_stream();
    Stream s;
    s.z = z;
    s.blocks = find_blocks(s, 15);
    auto ctx_for = [&](zt::Ctx &ctx, uint64_t seed, const std::string &params) {
        ctx.test = "InflateThreads.FailingAllocatorLeaksOrBreaks";
        ctx.seed = seed;
        ctx.params = params;
        ctx.data = "skewed and text -> " + std::to_string(z.size());
    };
    std::vector<int> counts = {2, 5};
    if (big_chunks() && !zt::full_mode()) counts = {2};
    /* which of n allocations to fail: every one (small chunks), or the first
     * and the last (the default build's cases are big) */
    auto which = [](long n) {
        std::vector<long> v;
        for (long k = 0; k < n; k++)
            if (!big_chunks() || zt::full_mode() || k == 0 || k + 1 == n) v.push_back(k);
        return v;
    };
    for (int threads : counts) {
        std::string geo = "zlib, threads " + std::to_string(threads);
        /* count: inflateSetThreads()'s allocations, and those of the first
         * call with work for the workers (after one that made the window) */
        long set_allocs, call_allocs;
        {
            zt::Ctx ctx;
            ctx_for(ctx, 0, geo + ": counting allocations");
            auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
            Pair P(ctx, ar, at);
            P.data = z;
            ASSERT_TRUE(P.init(15));
            long a0 = at->calls;
            ASSERT_TRUE(P.set_threads(threads));
            set_allocs = at->calls - a0;
            ASSERT_TRUE(P.inflate(64, 1024, Z_NO_FLUSH));
            a0 = at->calls;
            ASSERT_TRUE(P.inflate(P.data.size(), CHUNK(), Z_NO_FLUSH));
            call_allocs = at->calls - a0;
            ASSERT_TRUE(end_case(P, at, true));
        }
        fprintf(stderr, "[zt] %s: allocations: inflateSetThreads %ld, first inflate() with work "
                "for the workers %ld\n", geo.c_str(), set_allocs, call_allocs);
        EXPECT_GT(set_allocs, 0) << geo;
        EXPECT_GT(call_allocs, 0) << geo << ": the call gave the workers no work";
        /* inflateSetThreads() */
        for (int when = 0; when < 2; when++)
            for (long k : which(set_allocs)) {
                if (st.stop()) break;
                uint64_t seed = zt::case_seed("ithreads-failset", (uint64_t)(k * 2 + when));
                zt::Rng rng(seed);
                zt::Ctx ctx;
                ctx_for(ctx, seed, geo + ", inflateSetThreads allocation " + std::to_string(k) +
                                   " fails " + (when ? "between calls, 3 threads running"
                                                     : "at the start"));
                auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
                int t0 = tasks_now();
                bool ok;
                {
                    Pair P(ctx, ar, at);
                    P.calls_stat = &st.calls;
                    P.data = z;
                    ok = P.init(15);
                    /* the stream's own blocks, and its window once it has one */
                    long own = at->live + (when ? 1 : 0);
                    if (ok && when)
                        ok = P.set_threads(3) && P.inflate(4 * CHUNK(), CHUNK() / 2, Z_NO_FLUSH);
                    at->fail_at = at->calls + k;
                    if (ok) ok = P.set_threads(threads, Z_MEM_ERROR);
                    at->fail_at = -1;
                    if (ok && at->live != own)
                        ok = P.bad("inflateSetThreads failed with " +
                                   std::to_string(at->live - own) +
                                   " blocks allocated besides the stream's own");
                    if (ok && t0 >= 0 && tasks_settle(t0) > t0)
                        ok = P.bad("threads left running after inflateSetThreads failed");
                    if (ok) ok = finish_stream(P, rng, s);
                    if (ok && t0 >= 0 && task_count() > t0)
                        ok = P.bad("threads started after inflateSetThreads failed");
                    /* and threads can still be given to it */
                    if (ok) {
                        ok = P.reset(0) && P.set_threads(threads);
                        P.restart();
                    }
                    if (ok) ok = finish_stream(P, rng, s);
                    ok = end_case(P, at, ok);
                    st.cases++;
                    if (P.engaged) st.engaged++;
                }
                if (!ok) st.failed++;
            }
        /* the call that gives the workers work: each allocation failed in
         * turn, then every one of the calls that follow too */
        for (long k : which(call_allocs + 1)) {
            if (st.stop()) break;
            bool every = k == call_allocs;
            uint64_t seed = zt::case_seed("ithreads-failcall", (uint64_t)k);
            zt::Rng rng(seed);
            zt::Ctx ctx;
            ctx_for(ctx, seed, geo + (every ? ", every allocation of inflate() fails"
                                            : ", allocation " + std::to_string(k) +
                                                  " of the first inflate() with work fails"));
            auto ar = std::make_shared<Alloc>(), at = std::make_shared<Alloc>();
            bool ok;
            {
                Pair P(ctx, ar, at);
                P.calls_stat = &st.calls;
                P.data = z;
                ok = P.init(15) && P.set_threads(threads) && P.inflate(64, 1024, Z_NO_FLUSH);
                long own = at->live;
                if (every) at->fail_all = true;
                else at->fail_at = at->calls + k;
                if (ok) ok = P.inflate(P.data.size(), CHUNK(), Z_NO_FLUSH);
                if (ok && every) {
                    ok = finish_stream(P, rng, s);
                    if (ok && at->live != own)
                        ok = P.bad("every allocation failed, yet " +
                                   std::to_string(at->live - own) + " more blocks are held");
                }
                at->fail_all = false;
                at->fail_at = -1;
                /* the rest with memory, after a pause: the workers done */
                workers_idle(big_chunks() ? 500 : 50);
                if (ok) ok = finish_stream(P, rng, s);
                if (ok) {
                    ok = P.reset(0);
                    P.restart();
                }
                if (ok) ok = finish_stream(P, rng, s);
                ok = end_case(P, at, ok);
                st.cases++;
                if (P.engaged) st.engaged++;
                if (P.taken) st.taken++;
            }
            if (!ok) st.failed++;
        }
    }
    expect_engaged(st, "FailingAllocatorLeaksOrBreaks", 0);
}

}  /* namespace */
