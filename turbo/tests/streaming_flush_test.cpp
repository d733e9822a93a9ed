/* streaming_flush_test.cpp -- a stream of messages, each ended by
 * Z_SYNC_FLUSH or Z_FULL_FLUSH, as a network protocol sends them: after
 * every flush, all the input given so far must be decompressible from the
 * output written so far.
 *
 * Each stream sends messages of 1 byte to 64 KiB (most small; pieces of
 * the corpus files and of generated text and binary data joined into one
 * pool, often continuing the previous message so that matches reach back
 * across flushes), each in one to three deflate() calls (Z_NO_FLUSH, then
 * the flush), with output room from a few bytes to plenty (the flush is
 * repeated while avail_out comes back 0, as zlib.h asks).  After each
 * message, pristine zlib 1.3.2's inflate, fed only the new output, must
 * return exactly that message and consume all of it (its output room is a
 * little larger than the message, so a byte too many would show), and
 * after a Z_FULL_FLUSH a second pristine inflate, raw and without history,
 * started at that point must decode what follows alone (up to the next
 * full flush).  Once per stream a fresh pristine inflate of everything
 * written so far must give every message so far; at the end Z_FINISH, and
 * the stream must end there with nothing left over.
 *
 * Levels 0-9: pristine zlib compresses the same messages in lockstep, and
 * each call's return code and output bytes must be the same (and total_in,
 * total_out, adler at each flush).  Threads (deflateSetThreads(), levels
 * 4-9): the same, against pristine on one thread.  Levels 10-12 (with and
 * without threads) have no pristine counterpart: the decoding checks only.
 * The threaded streams also send some larger messages (up to 700 KiB) so
 * that worker threads really start; each threaded test counts the streams
 * in which they did (/proc/self/task) and fails if none.
 *
 * Quick mode (the default) checks a little over 40,000 messages at 0-9 and
 * a few thousand more at 10-12 and with threads; ZT_MODE=full four times
 * as many.  Each test prints the number of messages it checked.  Every
 * choice comes from the case seed, printed with a failure.
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <dirent.h>

#include "zt_harness.h"

namespace {

using Bytes = std::vector<uint8_t>;
using zt::REF;
using zt::TUR;

/* ---- the messages' source --------------------------------------------------- */
/* corpus files (or the pristine tree's) and generated data, 4 MiB in all */
const Bytes &pool() {
    static Bytes p = [] {
        Bytes v;
        zt::Rng rng(zt::case_seed("StreamingFlush.pool", 0));
        for (auto &s : zt::file_samples()) {
            v.insert(v.end(), s.bytes.begin(), s.bytes.end());
            if (v.size() >= (3u << 20)) break;
        }
        while (v.size() < (4u << 20)) {
            int k = (int)rng.below(zt::GEN_KINDS);
            Bytes g = zt::generate(rng, k, rng.range(1000, 200000));
            v.insert(v.end(), g.begin(), g.end());
        }
        return v;
    }();
    return p;
}

/* half of them up to 200 bytes, big_pct % from 12 KiB to 64 KiB */
size_t msg_size(zt::Rng &r, int big_pct) {
    uint32_t c = r.below(100);
    if (c < 50) return r.range(1, 200);
    if (c < 80) return r.range(201, 2000);
    if (c < 100 - (unsigned)big_pct) return r.range(2001, 12000);
    return r.range(12001, 65536);
}

int task_count() {
    DIR *d = opendir("/proc/self/task");
    if (d == nullptr) return -1;
    int n = 0;
    while (struct dirent *e = readdir(d))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

int wbits_arg(int wb, int wrap) { return wrap == 0 ? -wb : wrap == 2 ? wb + 16 : wb; }

using zt::have_threads;
using zt::have_optimal;

/* ---- one stream --------------------------------------------------------------- */
struct Case {
    int level = 6, wrap = 1, wb = 15, memLevel = 8, strategy = Z_DEFAULT_STRATEGY;
    int threads = 0;            /* tur: deflateSetThreads() */
    bool with_ref = true;       /* pristine deflates in lockstep (0-9) */
    int full_pct = 20;          /* % of flushes that are Z_FULL_FLUSH */
    bool small_out = false;     /* output room of 1 to 3000 bytes per call */
    int big_pct = 5;            /* % of messages of 12-64 KiB */
    int bulk_pct = 0;           /* % of messages of 64-700 KiB (threads) */
    long nmsg = 100;
    uint64_t seed = 1;
    std::string str() const {
        char b[64];
        snprintf(b, sizeof b, ", seed 0x%llx", (unsigned long long)seed);
        return "level " + std::to_string(level) + " windowBits " + std::to_string(wbits_arg(wb, wrap)) +
               " memLevel " + std::to_string(memLevel) + " strategy " + std::to_string(strategy) +
               (threads ? " threads " + std::to_string(threads) : "") + ", " + std::to_string(nmsg) +
               " messages, " + std::to_string(full_pct) + "% full flushes" + (small_out ? ", small output room" : "") +
               b;
    }
};

struct Count {
    long messages = 0, streams = 0, full_checks = 0, fresh_checks = 0, engaged = 0, failures = 0;
    uint64_t bytes = 0;
    bool stop() const { return failures >= 5 || zt::too_many_failures(); }
};

/* one deflate stream (one library), written to by put() */
struct Def {
    const zapi *A;
    z_stream s;
    Bytes out;
    std::vector<int> rcs;       /* return codes of this message's calls */
};

/* a pristine inflate fed pieces of a stream */
struct Inf {
    z_stream s;
    bool on = false;
    bool init(int wbits) {
        memset(&s, 0, sizeof s);
        on = ZAPI_INFLATE_INIT2(REF, &s, wbits) == Z_OK;
        return on;
    }
    ~Inf() {
        if (on) REF->inflateEnd(&s);
    }
    /* inflates in[0..n) with Z_SYNC_FLUSH; "" when it gives back exactly
     * want[0..wn) and consumes all of in; *rc the last code */
    std::string feed(const uint8_t *in, size_t n, const uint8_t *want, size_t wn, int *rc) {
        Bytes out(wn + 64);
        s.next_in = (Bytef *)in;
        s.avail_in = (uInt)n;
        s.next_out = out.data();
        s.avail_out = (uInt)out.size();
        *rc = Z_OK;
        for (int i = 0; i < 4 && s.avail_in && s.avail_out && *rc == Z_OK; i++)
            *rc = REF->inflate(&s, Z_SYNC_FLUSH);
        size_t got = out.size() - s.avail_out;
        if (*rc != Z_OK && *rc != Z_STREAM_END && !(*rc == Z_BUF_ERROR && n == 0))
            return "inflate returned " + std::to_string(*rc) + " " + zt::show_msg(s.msg);
        if (s.avail_in) return std::to_string(s.avail_in) + " bytes of the output not consumed";
        if (got != wn)
            return "inflate gave " + std::to_string(got) + " bytes, the message has " + std::to_string(wn);
        if (wn && memcmp(out.data(), want, wn) != 0) {
            size_t i = 0;
            while (out[i] == want[i]) i++;
            return "inflate gave other bytes (first at " + std::to_string(i) + ")";
        }
        return "";
    }
};

/* runs one stream; false after a reported failure */
bool run_stream(const char *test, const Case &c, Count &n) {
    const Bytes &P = pool();
    zt::Rng rng(c.seed);
    std::string why;
    long msg_no = -1;
    auto fail = [&](const std::string &w) {
        n.failures++;
        ADD_FAILURE() << (c.with_ref ? "ref and tur differ" : "check failed") << "\n  test:   " << test
                      << "\n  case:   " << c.str() << " (ZT_SEED=0x" << std::hex << zt::opt().seed << std::dec
                      << ")\n  message " << msg_no << ": " << w;
        return false;
    };
    Def d[2];
    d[0].A = REF;
    d[1].A = TUR;
    int first = c.with_ref ? 0 : 1;
    for (int i = first; i < 2; i++) {
        memset(&d[i].s, 0, sizeof d[i].s);
        int rc = ZAPI_DEFLATE_INIT2(d[i].A, &d[i].s, c.level, Z_DEFLATED, wbits_arg(c.wb, c.wrap), c.memLevel,
                                    c.strategy);
        if (rc != Z_OK) return fail(std::string(d[i].A->name) + " deflateInit2 returned " + std::to_string(rc));
    }
    auto end_all = [&] {
        for (int i = first; i < 2; i++) d[i].A->deflateEnd(&d[i].s);
    };
    if (c.threads) {
        int rc = TUR->deflateSetThreads(&d[1].s, c.threads);
        if (rc != Z_OK) {
            end_all();
            return fail("deflateSetThreads returned " + std::to_string(rc));
        }
    }
    Inf inf, alone;
    if (!inf.init(wbits_arg(c.wb, c.wrap)) || !alone.init(-15)) {
        end_all();
        return fail("pristine inflateInit2 failed");
    }
    bool alone_on = false;
    Bytes sent;                 /* every message so far */
    size_t fed = 0;             /* tur output given to inf */
    long fresh_at = (long)rng.below((uint32_t)c.nmsg);
    bool engaged = false;
    int tasks0 = c.threads ? task_count() : -1;
    size_t prev_end = rng.range(0, P.size() - 1);

    /* one deflate() call on every side with the same room; compares */
    auto call = [&](const uint8_t *in, size_t len, int flush, size_t room) -> bool {
        size_t o[2];
        for (int i = first; i < 2; i++) {
            z_stream &s = d[i].s;
            s.next_in = (Bytef *)in;
            s.avail_in = (uInt)len;
            o[i] = d[i].out.size();
            d[i].out.resize(o[i] + room);
            s.next_out = d[i].out.data() + o[i];
            s.avail_out = (uInt)room;
            d[i].rcs.push_back(d[i].A->deflate(&s, flush));
            d[i].out.resize(o[i] + room - s.avail_out);
        }
        if (c.threads && !engaged && tasks0 > 0 && task_count() > tasks0) engaged = true;
        if (!c.with_ref) return true;
        const z_stream &a = d[0].s, &b = d[1].s;
        if (d[0].rcs.back() != d[1].rcs.back())
            return fail("deflate(" + std::to_string(flush) + ") returned " + std::to_string(d[1].rcs.back()) +
                        ", pristine " + std::to_string(d[0].rcs.back()));
        if (a.avail_in != b.avail_in || a.avail_out != b.avail_out)
            return fail("deflate(" + std::to_string(flush) + "): avail_in " + std::to_string(b.avail_in) + " / " +
                        std::to_string(a.avail_in) + ", avail_out " + std::to_string(b.avail_out) + " / " +
                        std::to_string(a.avail_out) + " (tur / pristine)");
        if (d[0].out.size() != d[1].out.size() ||
            memcmp(d[0].out.data() + o[0], d[1].out.data() + o[1], d[0].out.size() - o[0]) != 0)
            return fail("deflate(" + std::to_string(flush) + ") wrote other bytes than pristine (output offset " +
                        std::to_string(o[1]) + ")");
        return true;
    };
    /* in[0..len) in up to three calls, the last with flush, repeated while
     * the output room is all used */
    auto put = [&](const uint8_t *in, size_t len, int flush) -> bool {
        int pieces = len < 3 ? 1 : (int)rng.range(1, 3);
        size_t done = 0;
        for (int k = 0; k < pieces; k++) {
            size_t m = k == pieces - 1 ? len - done : rng.range(0, len - done);
            int f = k == pieces - 1 ? flush : Z_NO_FLUSH;
            const uint8_t *p = in + done;
            for (int guard = 0;; guard++) {
                if (guard > 10000000) return fail("deflate() does not finish the flush");
                size_t room = c.small_out ? rng.range(1, 3000) : m + m / 8 + rng.range(64, 2000);
                if (!call(p, m, f, room)) return false;
                z_stream &s = d[1].s;
                p += m - s.avail_in;
                m = s.avail_in;
                int rc = d[1].rcs.back();
                if (rc != Z_OK && rc != Z_BUF_ERROR && rc != Z_STREAM_END)
                    return fail("deflate returned " + std::to_string(rc));
                if (f == Z_FINISH ? rc == Z_STREAM_END : (m == 0 && s.avail_out != 0)) break;
            }
            done = (size_t)(p - in);
        }
        return true;
    };

    for (long i = 0; i < c.nmsg; i++) {
        msg_no = i;
        size_t len = c.bulk_pct && rng.chance((unsigned)c.bulk_pct) ? rng.range(65536, 700000) : msg_size(rng, c.big_pct);
        size_t off = rng.chance(60) ? prev_end : rng.range(0, P.size() - 1);
        if (off + len > P.size()) off = P.size() - len;
        prev_end = off + len;
        const uint8_t *msg = P.data() + off;
        int flush = rng.chance((unsigned)c.full_pct) ? Z_FULL_FLUSH : Z_SYNC_FLUSH;
        for (int k = first; k < 2; k++) d[k].rcs.clear();
        if (!put(msg, len, flush)) {
            end_all();
            return false;
        }
        if (c.with_ref) {
            const z_stream &a = d[0].s, &b = d[1].s;
            if (a.total_in != b.total_in || a.total_out != b.total_out || a.adler != b.adler) {
                end_all();
                return fail("after the flush: total_in " + std::to_string(b.total_in) + "/" +
                            std::to_string(a.total_in) + ", total_out " + std::to_string(b.total_out) + "/" +
                            std::to_string(a.total_out) + ", adler " + std::to_string(b.adler) + "/" +
                            std::to_string(a.adler) + " (tur / pristine)");
            }
        }
        const Bytes &out = d[1].out;
        int rc;
        std::string e = inf.feed(out.data() + fed, out.size() - fed, msg, len, &rc);
        if (!e.empty()) {
            end_all();
            return fail("the output so far does not decode to the message (pristine inflate, fed " +
                        std::to_string(out.size() - fed) + " new bytes): " + e);
        }
        if (alone_on) {
            e = alone.feed(out.data() + fed, out.size() - fed, msg, len, &rc);
            if (!e.empty()) {
                end_all();
                return fail("after a Z_FULL_FLUSH, a raw inflate without history started there: " + e);
            }
            n.full_checks++;
        }
        if (flush == Z_FULL_FLUSH) {
            REF->inflateReset2(&alone.s, -15);
            alone_on = true;
        }
        fed = out.size();
        sent.insert(sent.end(), msg, msg + len);
        if (i == fresh_at) {
            Inf fresh;
            fresh.init(wbits_arg(c.wb, c.wrap));
            e = fresh.feed(out.data(), out.size(), sent.data(), sent.size(), &rc);
            if (!e.empty()) {
                end_all();
                return fail("a fresh pristine inflate of the whole output so far: " + e);
            }
            n.fresh_checks++;
        }
        n.messages++;
        n.bytes += len;
    }
    msg_no = c.nmsg;
    bool ok = put(nullptr, 0, Z_FINISH);
    if (ok) {
        const Bytes &out = d[1].out;
        int rc;
        std::string e = inf.feed(out.data() + fed, out.size() - fed, nullptr, 0, &rc);
        if (!e.empty() || rc != Z_STREAM_END)
            ok = fail("Z_FINISH: " + (e.empty() ? "inflate returned " + std::to_string(rc) + ", not Z_STREAM_END" : e));
    }
    if (ok && c.with_ref && d[0].out != d[1].out) ok = fail("the whole stream differs from pristine's");
    end_all();
    n.streams++;
    if (engaged) n.engaged++;
    return ok;
}

Case random_case(zt::Rng &r, int level, long nmsg) {
    Case c;
    c.level = level;
    c.wrap = (int)r.below(3);
    c.wb = r.chance(60) ? 15 : 9 + (int)r.below(7);
    c.memLevel = r.chance(60) ? 8 : 1 + (int)r.below(9);
    c.strategy = r.chance(85) ? Z_DEFAULT_STRATEGY : (int)r.below(5);
    c.full_pct = (int)r.pick(std::vector<int>{0, 5, 20, 50, 100});
    c.small_out = r.chance(15);
    c.nmsg = nmsg;
    return c;
}

void summary(const char *test, const Count &n, double secs) {
    fprintf(stderr, "[zt] StreamingFlush.%s: %ld messages checked (%.1f MB) in %ld streams, %ld checked by a "
            "raw inflate started at a full flush, %ld fresh inflates of a whole stream so far%s (%.1f s)\n",
            test, n.messages, (double)n.bytes / 1e6, n.streams, n.full_checks, n.fresh_checks,
            n.engaged ? (", threads started in " + std::to_string(n.engaged) + " streams").c_str() : "", secs);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/* levels 0-9: pristine's bytes, call by call, and decodable at each flush */
TEST(StreamingFlush, Levels0to9) {
    auto t0 = std::chrono::steady_clock::now();
    Count n;
    const long want = zt::by_mode(40000, 160000);
    for (long i = 0; n.messages < want && !n.stop(); i++) {
        zt::Rng r(zt::case_seed("StreamingFlush.Levels0to9", (uint64_t)i));
        Case c = random_case(r, (int)(i % 10), (long)r.range(1, 400));
        c.nmsg = std::min(c.nmsg, want - n.messages);
        c.seed = r.next();
        run_stream("StreamingFlush.Levels0to9", c, n);
    }
    summary("Levels0to9", n, seconds_since(t0));
    EXPECT_GE(n.messages, want);
}

/* levels 10-12: decodable at each flush (no pristine counterpart) */
TEST(StreamingFlush, Levels10to12) {
    ZT_NEED("optimal", have_optimal(), "the library under test has no levels 10-12");
    auto t0 = std::chrono::steady_clock::now();
    Count n;
    const long want = zt::by_mode(2500, 10000);
    for (long i = 0; n.messages < want && !n.stop(); i++) {
        zt::Rng r(zt::case_seed("StreamingFlush.Levels10to12", (uint64_t)i));
        Case c = random_case(r, 10 + (int)(i % 3), (long)r.range(1, 300));
        c.with_ref = false;
        c.big_pct = 1;          /* 2-5 MB/s: fewer large messages */
        c.nmsg = std::min(c.nmsg, want - n.messages);
        c.seed = r.next();
        run_stream("StreamingFlush.Levels10to12", c, n);
    }
    summary("Levels10to12", n, seconds_since(t0));
    EXPECT_GE(n.messages, want);
}

/* deflateSetThreads() at levels 4-9: pristine's bytes on one thread */
TEST(StreamingFlush, Threads) {
    ZT_NEED("threads", have_threads(), "the library under test has no threads (deflateSetThreads)");
    auto t0 = std::chrono::steady_clock::now();
    Count n;
    const long want = zt::by_mode(1500, 6000);
    for (long i = 0; n.messages < want && !n.stop(); i++) {
        zt::Rng r(zt::case_seed("StreamingFlush.Threads", (uint64_t)i));
        Case c = random_case(r, 4 + (int)(i % 6), (long)r.range(20, 300));
        if (c.strategy == Z_HUFFMAN_ONLY || c.strategy == Z_RLE) c.strategy = Z_DEFAULT_STRATEGY;
        c.threads = 2 + (int)r.below(3);
        c.bulk_pct = c.level >= 8 ? 3 : 1;
        c.small_out = false;
        c.nmsg = std::min(c.nmsg, want - n.messages);
        c.seed = r.next();
        run_stream("StreamingFlush.Threads", c, n);
    }
    summary("Threads", n, seconds_since(t0));
    EXPECT_GE(n.messages, want);
    if (task_count() > 0) {
        EXPECT_GT(n.engaged, 0) << "worker threads never started: the test cannot fail";
    }
}

/* levels 10-12 with threads: decodable at each flush */
TEST(StreamingFlush, OptimalThreads) {
    ZT_NEED("threads", have_threads(), "the library under test has no threads (deflateSetThreads)");
    ZT_NEED("optimal", have_optimal(), "the library under test has no levels 10-12");
    auto t0 = std::chrono::steady_clock::now();
    Count n;
    const long want = zt::by_mode(150, 600);
    for (long i = 0; n.messages < want && !n.stop(); i++) {
        zt::Rng r(zt::case_seed("StreamingFlush.OptimalThreads", (uint64_t)i));
        Case c = random_case(r, 10 + (int)(i % 3), (long)r.range(10, 60));
        c.with_ref = false;
        c.threads = 2 + (int)r.below(2);
        c.bulk_pct = 6;
        c.small_out = false;
        c.nmsg = std::min(c.nmsg, want - n.messages);
        c.seed = r.next();
        run_stream("StreamingFlush.OptimalThreads", c, n);
    }
    summary("OptimalThreads", n, seconds_since(t0));
    EXPECT_GE(n.messages, want);
    if (task_count() > 0) {
        EXPECT_GT(n.engaged, 0) << "worker threads never started: the test cannot fail";
    }
}

}  /* namespace */
