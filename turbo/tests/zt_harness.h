/* zt_harness.h -- shared pieces of the differential test suite.
 *
 * Every test runs pristine zlib 1.3.2 ("ref", zapi_ref) and the library under
 * test ("tur", zapi_tur) side by side in one process and compares everything
 * either of them lets a caller observe.  This header holds what the tests
 * share: options (mode, seed, data sources), a seeded RNG, the test data
 * (corpus files, pristine-tree files, generated data), the slicing policy, the
 * failure printer, and the lockstep drivers for deflate, inflate and
 * inflateBack.  The test files only choose parameters and call the drivers.
 *
 * README.md (this folder) says how a test is written, run and named: a new
 * test is named after the failure it catches, Suite.SituationFailure
 * (DeflateThreads.SlideToReachMidSessionDiffers).
 */
#ifndef ZT_HARNESS_H
#define ZT_HARNESS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "zapi.h"

namespace zt {

extern const zapi *const REF;   /* pristine zlib 1.3.2 */
extern const zapi *const TUR;   /* library under test */

/* ---- options (env ZT_MODE, ZT_SEED, ZT_CORPUS, ZT_FILES) ---------------- */
struct Options {
    bool full = false;          /* ZT_MODE=full */
    uint64_t seed = 0x5EED2026; /* ZT_SEED */
    std::string corpus;         /* ZT_CORPUS folder */
    std::vector<std::string> files; /* ZT_FILES (':'-separated) */
    bool verbose = false;       /* ZT_VERBOSE=1 */
};
Options &opt();
void init_options(int argc, char **argv);   /* called by main() */
inline bool full_mode() { return opt().full; }

/* ZT_EXPECT (environment): the extras the library under test must have,
 * any of "prepared" (prepared dictionaries), "threads" (deflateSetThreads()
 * that takes 2 threads), "optimal" (levels 10-12), or "all"; make check's
 * steps set "all" for build/zlib-turbo.  ZT_NEED(FEATURE, HAVE, NOTE) ends a
 * test that cannot run without FEATURE when HAVE is false: as a failure when
 * FEATURE is expected (a missing extra must not pass as a skip), else as a
 * skip with NOTE (pristine zlib in the harness self-test has no extras). */
bool expects(const char *feature);
/* the extras the library under test has: prepared dictionaries; a
 * deflateSetThreads() that takes 2 threads; level 10 */
bool have_prepared();
bool have_threads();
bool have_optimal();
#define ZT_NEED(feature, have, note)                                          \
    do {                                                                      \
        if (!(have)) {                                                        \
            if (zt::expects(feature))                                         \
                FAIL() << (note) << " -- but ZT_EXPECT says the library "     \
                          "under test has " << (feature);                     \
            else                                                              \
                GTEST_SKIP() << (note);                                       \
        }                                                                     \
    } while (0)
inline long by_mode(long quick, long full) { return opt().full ? full : quick; }

/* ---- seeded RNG (splitmix64) -------------------------------------------- */
class Rng {
public:
    explicit Rng(uint64_t seed) : s_(seed) {}
    uint64_t next() {
        uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /* uniform in [0, n) (n > 0) */
    uint32_t below(uint32_t n) { return (uint32_t)(next() % n); }
    /* uniform in [lo, hi] */
    size_t range(size_t lo, size_t hi) {
        return lo + (size_t)(next() % (uint64_t)(hi - lo + 1));
    }
    bool chance(unsigned percent) { return below(100) < percent; }
    template <class T> const T &pick(const std::vector<T> &v) {
        return v[below((uint32_t)v.size())];
    }
private:
    uint64_t s_;
};
/* A reproducible seed for case number idx of test `name`. */
uint64_t case_seed(const char *name, uint64_t idx);

/* ---- test data ------------------------------------------------------------ */
struct Sample {
    std::string name;
    std::vector<uint8_t> bytes;
};
/* Files: ZT_FILES if given, else the corpus folder, else files of the
 * pristine zlib tree.  Each capped (256 KiB quick, 1 MiB full). */
const std::vector<Sample> &file_samples();
/* Text-like files only (for the tests that need text longer than 4 KiB). */
std::vector<const Sample *> text_samples();

enum GenKind {
    GEN_RANDOM, GEN_RUNS, GEN_TEXT, GEN_LOWENT, GEN_FARREP, GEN_ZEROS,
    GEN_MIX, GEN_KINDS
};
const char *gen_name(int kind);
std::vector<uint8_t> generate(Rng &rng, int kind, size_t len);
/* Either a piece of a file sample or generated data, up to maxlen bytes. */
Sample any_sample(Rng &rng, size_t maxlen);

/* Data by kind, for the tests of zlib-turbo's extras (threaded deflate,
 * levels 10-12): make_data() gives len bytes of one kind.  A test file says
 * `using namespace zt::data_kinds;` to name the kinds as K_TEXT... */
namespace data_kinds {
enum DataKind {
    K_TEXT,     /* generate(GEN_TEXT) */
    K_FILES,    /* a piece of file_pool(), from a random offset (wrapping) */
    K_RANDOM, K_RUNS,   /* generate(GEN_RANDOM), generate(GEN_RUNS) */
    K_ZEROS,    /* all zeros (DataSettings::zeros_pct), else generate(GEN_ZEROS) */
    K_PERIOD,   /* one pattern of 1-300 bytes (1-4 in 30% of cases) repeated,
                   in half the cases with single bytes changed now and then */
    K_LOWENT, K_FARREP, /* generate(GEN_LOWENT), generate(GEN_FARREP) */
    K_MIXED,    /* parts of the kinds above (not K_MIXED) one after another */
    K_KINDS
};
}  /* namespace data_kinds */
using namespace data_kinds;
/* "text", "files", "random", "runs", "zeros", "short-period", "lowentropy",
 * "farrepeat", "mixed" */
const char *kind_name(int kind);
/* What differs between the test files that use make_data(). */
struct DataSettings {
    unsigned zeros_pct = 50;    /* K_ZEROS: % of buffers that are all zeros */
    /* K_PERIOD with noise (half the cases): the mean spacing of the changed
     * bytes, drawn from [noise_min, noise_max]; each gap is 1 to twice it */
    size_t noise_min = 1500, noise_max = 1500;
    size_t mixed_part = 0;      /* K_MIXED: the largest part (0: a third of
                                   the length, at least 64 bytes) */
    size_t pool_size = 4u << 20;    /* file_pool(pool_size) for K_FILES */
};
/* Every file sample joined, repeated up to at least `size` bytes (generated
 * text when the files hold nothing); one pool per size, made once. */
const std::vector<uint8_t> &file_pool(size_t size);
std::vector<uint8_t> make_data(Rng &rng, int kind, size_t len,
                               const DataSettings &ds);

/* An environment variable set to value (unset, for nullptr) while the
 * object lives, and given back its old state after. */
class ScopedEnv {
public:
    ScopedEnv(const char *name, const char *value);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;
private:
    std::string name_, old_;
    bool had_;
};

/* ---- threads of this process, seen from outside (the threaded tests) ----- */
/* threads of this process, -1 where /proc/self/task cannot be read */
int task_count();
/* waits (up to 2 s) until at most `want` threads are left: a joined thread
 * may stay listed for a moment after pthread_join() returned */
int tasks_settle(int want);
/* the threads of this process, once the count stops falling (a thread joined
 * just before may stay listed for a moment, up to 50 ms here): a baseline
 * that counted a stream's joined threads would hide the next stream's */
int tasks_now();

/* An allocator (zalloc/zfree with opaque = this) that counts, fails on
 * demand and notes calls from other threads than the one that made it.  Not
 * thread-safe on purpose (plain counters): zlib-turbo promises that all of
 * a stream's memory is allocated and freed on the thread calling it. */
struct CountingAlloc {
    std::thread::id owner = std::this_thread::get_id();
    long calls = 0, frees = 0, live = 0, foreign = 0;
    long fail_at = -1;          /* fail the allocation with this index */
    bool fail_all = false;      /* fail every allocation */
    static voidpf za(voidpf op, uInt n, uInt size);
    static void zf(voidpf op, voidpf p);
    void attach(z_stream &s) { s.zalloc = za; s.zfree = zf; s.opaque = this; }
};

/* ---- slicing of input/output buffers -------------------------------------- */
enum SliceMode { SLICE_TINY, SLICE_SMALL, SLICE_MEDIUM, SLICE_LARGE,
                 SLICE_MIXED, SLICE_MODES };
const char *slice_name(int mode);
size_t slice(Rng &rng, int mode);   /* >= 1 */

/* ---- failure reporting ---------------------------------------------------- */
/* Ctx names one case so a failure can be reproduced: test, data, params, the
 * case seed, and the call being made when ref and tur parted ways. */
struct Ctx {
    std::string test, data, params;
    uint64_t seed = 0;
    long call = 0;              /* number of the current library call */
    std::string fn;             /* name of that call */
    bool failed = false;
    std::string describe() const;
    /* records a mismatch (ADD_FAILURE) and returns false */
    bool mismatch(const std::string &what);
};
/* Stops long loops after many failures (keeps broken builds fast). */
bool too_many_failures();

std::string hex(const uint8_t *p, size_t n);
inline bool same_msg(const char *a, const char *b) {
    return (a == nullptr && b == nullptr) ||
           (a != nullptr && b != nullptr && std::string(a) == b);
}
inline std::string show_msg(const char *m) {
    return m ? "\"" + std::string(m) + "\"" : "NULL";
}

/* ---- deflate -------------------------------------------------------------- */
struct DefParams {
    int level = Z_DEFAULT_COMPRESSION, windowBits = 15, memLevel = 8,
        strategy = Z_DEFAULT_STRATEGY;
    std::string str() const;
};
DefParams random_params(Rng &rng);   /* any valid combination */

/* What the lockstep deflate driver does besides deflate(); all random
 * decisions come from the rng passed to it. */
struct DeflateScenario {
    DefParams p;
    int in_slice = SLICE_LARGE, out_slice = SLICE_LARGE;
    int flush_pct = 0;          /* % of calls with a flush other than NO_FLUSH */
    int params_pct = 0;         /* % of calls preceded by deflateParams() */
    int copy_pct = 0;           /* % of calls preceded by deflateCopy() */
    int tune = 0;               /* 1: deflateTune() with random values */
    int prime = 0;              /* 1: deflatePrime() before data */
    int dict = 0;               /* bytes of dictionary (0: none) */
    int gzheader = 0;           /* 1: deflateSetHeader() (gzip only) */
    int zero_out_pct = 0;       /* % of calls with avail_out == 0 */
    int resets = 0;             /* deflateReset() + whole stream again */
};
/* Runs both deflates in lockstep over data, comparing after every call.
 * Returns false at the first difference (already reported).  Stores the
 * ref output (of the last stream when resets > 0) in *out if given. */
bool deflate_lockstep(Ctx &ctx, const DeflateScenario &sc,
                      const std::vector<uint8_t> &data, Rng &rng,
                      std::vector<uint8_t> *out = nullptr);

/* Compresses with ref only (to make streams for the inflate tests).
 * flush_every > 0: a `flush` every flush_every input bytes.  dict as given. */
std::vector<uint8_t> ref_deflate(const DefParams &p, const uint8_t *data,
                                 size_t len, int flush_every = 0,
                                 int flush = Z_FULL_FLUSH,
                                 const std::vector<uint8_t> *dict = nullptr,
                                 gz_header *head = nullptr);
/* Bit positions of every block header in a valid stream (ref inflate with
 * Z_BLOCK); windowBits as for inflateInit2. */
std::vector<size_t> block_starts(const std::vector<uint8_t> &stream,
                                 int windowBits);

/* ---- inflate -------------------------------------------------------------- */
enum FlushMix { FLUSH_NONE, FLUSH_RANDOM, FLUSH_FINISH, FLUSH_MIXES };
struct InflateScenario {
    int windowBits = 15;
    int in_slice = SLICE_LARGE, out_slice = SLICE_LARGE;
    int flush_mix = FLUSH_NONE;
    int copy_pct = 0;           /* % of calls preceded by inflateCopy() */
    int get_header = 0;         /* 1: inflateGetHeader() with small buffers */
    int validate_off = 0;       /* 1: inflateValidate(strm, 0) */
    int multi_member = 0;       /* 1: inflateReset() after Z_STREAM_END and go on */
    int reset2_wbits = 0;       /* != 0: inflateReset2(this) instead */
    int prime_bytes = 0;        /* first bytes fed via inflatePrime() */
    int sync_first = 0;         /* 1: inflateSync() until Z_OK before inflating */
    int zero_in_pct = 0;        /* % of calls with avail_in == 0 */
    const std::vector<uint8_t> *dict = nullptr; /* for Z_NEED_DICT / raw */
    size_t out_cap = (size_t)1 << 26;  /* stop after this much output */
};
struct InflateResult {
    bool same = true;           /* false: a difference was reported */
    int rc = Z_OK;              /* last return code */
    long calls = 0;
    std::vector<uint8_t> out;   /* ref output */
    size_t members = 0;         /* streams ended (Z_STREAM_END) */
};
InflateResult inflate_lockstep(Ctx &ctx, const InflateScenario &sc,
                               const std::vector<uint8_t> &stream,
                               uint64_t slice_seed);

/* One inflateBack() run of one library.  in() hands out slices drawn from
 * slice_seed/in_slice; the window (1 << windowBits bytes) is filled with
 * `fill` first.  out() stops after out_cap bytes (returns 1). */
struct InfBackRun {
    int init_rc = Z_OK, rc = Z_OK;
    std::string msg;            /* "NULL" or the message */
    std::vector<uint8_t> out;
    long next_in_off = -1;      /* offset of next_in in the stream, -1: NULL */
    unsigned avail_in = 0;
    long in_calls = 0;
    bool operator==(const InfBackRun &o) const {
        return init_rc == o.init_rc && rc == o.rc && msg == o.msg &&
               out == o.out && next_in_off == o.next_in_off &&
               avail_in == o.avail_in;
    }
    std::string str() const;
};
InfBackRun infback_run(const zapi *A, const std::vector<uint8_t> &stream,
                       int windowBits, uint64_t slice_seed, int in_slice,
                       int fill, size_t first_avail, size_t out_cap);

/* CRC-32 of a buffer (via ref) for short reports. */
uint32_t crc_of(const std::vector<uint8_t> &v);

}  /* namespace zt */

#endif /* ZT_HARNESS_H */
