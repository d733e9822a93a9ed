/* zt_harness.cpp -- shared pieces of the differential test suite: options,
 * data, slicing, failure printer and the lockstep drivers.  See zt_harness.h.
 */
#include "zt_harness.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <dirent.h>

#ifndef ZT_DEFAULT_CORPUS
#  define ZT_DEFAULT_CORPUS ""
#endif
#ifndef ZT_FALLBACK_DIR
#  define ZT_FALLBACK_DIR ""
#endif

namespace fs = std::filesystem;

namespace zt {

const zapi *const REF = &zapi_ref;
const zapi *const TUR = &zapi_tur;

/* ---- environment ------------------------------------------------------- */
ScopedEnv::ScopedEnv(const char *name, const char *value) : name_(name) {
    const char *o = getenv(name);
    had_ = o != nullptr;
    if (had_) old_ = o;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
}

ScopedEnv::~ScopedEnv() {
    if (had_) setenv(name_.c_str(), old_.c_str(), 1);
    else unsetenv(name_.c_str());
}

/* ---- threads of this process ---------------------------------------------- */
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

int tasks_now() {
    int n = task_count();
    for (int i = 0; n > 0 && i < 50; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        int m = task_count();
        if (m >= n) break;
        n = m;
    }
    return n;
}

voidpf CountingAlloc::za(voidpf op, uInt n, uInt size) {
    CountingAlloc *a = (CountingAlloc *)op;
    if (std::this_thread::get_id() != a->owner) a->foreign++;
    long k = a->calls++;
    if (a->fail_all || k == a->fail_at) return Z_NULL;
    void *p = malloc((size_t)n * size);
    if (p) a->live++;
    return p;
}

void CountingAlloc::zf(voidpf op, voidpf p) {
    CountingAlloc *a = (CountingAlloc *)op;
    if (std::this_thread::get_id() != a->owner) a->foreign++;
    a->frees++;
    if (p) a->live--;
    free(p);
}

/* ---- options -------------------------------------------------------------- */
Options &opt() {
    static Options o;
    return o;
}

static std::vector<std::string> split_list(const std::string &s) {
    std::vector<std::string> v;
    std::string cur;
    for (char c : s) {
        if (c == ':' || c == '\n') {
            if (!cur.empty()) v.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) v.push_back(cur);
    return v;
}

void init_options(int argc, char **argv) {
    Options &o = opt();
    const char *e;
    if ((e = getenv("ZT_MODE")) != nullptr) o.full = std::string(e) == "full";
    if ((e = getenv("ZT_SEED")) != nullptr && *e) o.seed = strtoull(e, nullptr, 0);
    o.corpus = ZT_DEFAULT_CORPUS;
    if ((e = getenv("ZT_CORPUS")) != nullptr) o.corpus = e;
    if ((e = getenv("ZT_FILES")) != nullptr) o.files = split_list(e);
    if ((e = getenv("ZT_VERBOSE")) != nullptr) o.verbose = atoi(e) != 0;
    for (int i = 1; i < argc; i++) {       /* after gtest took its own */
        std::string a = argv[i];
        if (a == "--full") o.full = true;
        else if (a == "--quick") o.full = false;
        else if (a.rfind("--seed=", 0) == 0) o.seed = strtoull(a.c_str() + 7, nullptr, 0);
        else if (a.rfind("--corpus=", 0) == 0) o.corpus = a.substr(9);
        else if (a.rfind("--files=", 0) == 0) o.files = split_list(a.substr(8));
        else if (a == "-v" || a == "--verbose") o.verbose = true;
        else {
            fprintf(stderr, "zt_tests: unknown option %s\n"
                    "options: --full --quick --seed=N --corpus=DIR "
                    "--files=A:B -v (or env ZT_MODE, ZT_SEED, ZT_CORPUS, "
                    "ZT_FILES, ZT_VERBOSE)\n", a.c_str());
            exit(2);
        }
    }
}

uint64_t case_seed(const char *name, uint64_t idx) {
    uint64_t h = 1469598103934665603ULL;            /* FNV-1a of the name */
    for (const char *p = name; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ULL;
    Rng r(opt().seed ^ h ^ (idx * 0xD1B54A32D192ED03ULL));
    return r.next();
}

/* ---- data ----------------------------------------------------------------- */
static bool read_file(const std::string &path, size_t cap,
                      std::vector<uint8_t> &out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    out.resize(cap);
    f.read(reinterpret_cast<char *>(out.data()), (std::streamsize)cap);
    out.resize((size_t)f.gcount());
    return true;
}

const std::vector<Sample> &file_samples() {
    static std::vector<Sample> v;
    static bool loaded = false;
    if (loaded) return v;
    loaded = true;
    const size_t cap = full_mode() ? (1u << 20) : (256u << 10);
    std::vector<std::string> paths;
    std::string origin;
    if (!opt().files.empty()) {
        paths = opt().files;
        origin = "ZT_FILES";
    } else if (!opt().corpus.empty() && fs::is_directory(opt().corpus)) {
        origin = "corpus " + opt().corpus;
        for (const char *sub : {"canterbury", "calgary", "large", "mixed"}) {
            fs::path d = fs::path(opt().corpus) / sub;
            if (!fs::is_directory(d)) continue;
            std::vector<std::string> names;
            for (auto &ent : fs::directory_iterator(d))
                if (ent.is_regular_file()) names.push_back(ent.path().string());
            std::sort(names.begin(), names.end());
            paths.insert(paths.end(), names.begin(), names.end());
        }
    }
    if (paths.empty()) {
        origin = std::string("pristine tree ") + ZT_FALLBACK_DIR +
                 " (corpus absent)";
        for (const char *f : {"zlib.h", "deflate.c", "inflate.c", "trees.c",
                              "ChangeLog", "FAQ", "doc/algorithm.txt",
                              "doc/crc-doc.1.0.pdf", "crc32.h"})
            paths.push_back(std::string(ZT_FALLBACK_DIR) + "/" + f);
    }
    /* a listed file that cannot be read, or no file at all, stops the
     * suite: the tests that run over the files would pass on nothing */
    for (auto &p : paths) {
        Sample s;
        if (!read_file(p, cap, s.bytes)) {
            fprintf(stderr, "[zt] data: cannot read %s (from %s): stopping\n", p.c_str(),
                    origin.c_str());
            exit(2);
        }
        s.name = fs::path(p).filename().string();
        v.push_back(std::move(s));
    }
    if (v.empty()) {
        fprintf(stderr, "[zt] data: no file from %s: stopping\n", origin.c_str());
        exit(2);
    }
    fprintf(stderr, "[zt] data: %zu files from %s (cap %zu KiB each)\n",
            v.size(), origin.c_str(), cap >> 10);
    return v;
}

std::vector<const Sample *> text_samples() {
    std::vector<const Sample *> t;
    for (auto &s : file_samples()) {
        if (s.bytes.size() <= 4096) continue;
        size_t n = std::min<size_t>(s.bytes.size(), 8192), ok = 0;
        for (size_t i = 0; i < n; i++) {
            uint8_t c = s.bytes[i];
            ok += (c >= 32 && c < 127) || c == '\n' || c == '\r' || c == '\t';
        }
        if (ok * 100 >= n * 95) t.push_back(&s);
    }
    return t;
}

const char *gen_name(int kind) {
    static const char *n[] = {"random", "runs", "text", "lowentropy",
                              "farrepeat", "zeros", "mix"};
    return kind >= 0 && kind < GEN_KINDS ? n[kind] : "?";
}

static void gen_text(Rng &rng, size_t len, std::vector<uint8_t> &v) {
    std::vector<std::string> words;
    size_t nw = rng.range(20, 400);
    for (size_t i = 0; i < nw; i++) {
        std::string w;
        size_t l = rng.range(1, 10);
        for (size_t j = 0; j < l; j++) w += (char)('a' + rng.below(26));
        words.push_back(w);
    }
    while (v.size() < len) {
        /* skewed choice: small indices are much more frequent */
        const std::string &w = words[rng.below(rng.below((uint32_t)nw) + 1)];
        v.insert(v.end(), w.begin(), w.end());
        uint32_t r = rng.below(100);
        v.push_back(r < 80 ? ' ' : r < 88 ? '\n' : r < 94 ? ',' : '.');
    }
    v.resize(len);
}

std::vector<uint8_t> generate(Rng &rng, int kind, size_t len) {
    std::vector<uint8_t> v;
    v.reserve(len);
    switch (kind) {
    case GEN_RANDOM:
        while (v.size() < len) v.push_back((uint8_t)rng.next());
        break;
    case GEN_RUNS:
        while (v.size() < len) {
            uint8_t b = (uint8_t)rng.next();
            size_t n = rng.chance(20) ? rng.range(100, 1000) : rng.range(1, 20);
            v.insert(v.end(), n, b);
        }
        break;
    case GEN_TEXT:
        gen_text(rng, len, v);
        break;
    case GEN_LOWENT:
        while (v.size() < len) v.push_back((uint8_t)("abcd"[rng.below(4)]));
        break;
    case GEN_FARREP:
        /* fresh bytes and copies from up to ~40 KiB back: long distances,
         * short (3-byte) matches far away, window-edge cases */
        while (v.size() < len) {
            if (v.size() > 64 && rng.chance(60)) {
                size_t dist = rng.range(1, std::min<size_t>(v.size(), 40000));
                size_t n = rng.chance(50) ? rng.range(3, 5) : rng.range(3, 300);
                size_t from = v.size() - dist;
                for (size_t i = 0; i < n; i++) v.push_back(v[from + i]);
            } else {
                size_t n = rng.range(1, 40);
                for (size_t i = 0; i < n; i++) v.push_back((uint8_t)('A' + rng.below(40)));
            }
        }
        break;
    case GEN_ZEROS:
        v.assign(len, 0);
        for (size_t i = 0; i < len / 500; i++) v[rng.below((uint32_t)len)] = (uint8_t)rng.next();
        break;
    default:            /* GEN_MIX */
        while (v.size() < len) {
            int k = (int)rng.below(GEN_MIX);
            std::vector<uint8_t> part = generate(rng, k, rng.range(1, 8192));
            v.insert(v.end(), part.begin(), part.end());
        }
        break;
    }
    v.resize(len);
    return v;
}

Sample any_sample(Rng &rng, size_t maxlen) {
    Sample s;
    size_t len = rng.chance(10) ? rng.range(0, std::min<size_t>(maxlen, 64))
                                : rng.range(0, maxlen);
    const auto &files = file_samples();
    if (!files.empty() && rng.chance(50)) {
        const Sample &f = files[rng.below((uint32_t)files.size())];
        len = std::min(len, f.bytes.size());
        size_t off = rng.range(0, f.bytes.size() - len);
        if (rng.chance(30)) off = 0;
        s.bytes.assign(f.bytes.begin() + (long)off, f.bytes.begin() + (long)(off + len));
        s.name = f.name + "@" + std::to_string(off) + "+" + std::to_string(len);
    } else {
        int k = (int)rng.below(GEN_KINDS);
        s.bytes = generate(rng, k, len);
        s.name = std::string("gen:") + gen_name(k) + "+" + std::to_string(len);
    }
    return s;
}

const char *kind_name(int kind) {
    static const char *n[] = {"text", "files", "random", "runs", "zeros",
                              "short-period", "lowentropy", "farrepeat", "mixed"};
    return kind >= 0 && kind < K_KINDS ? n[kind] : "?";
}

const std::vector<uint8_t> &file_pool(size_t size) {
    static std::mutex mu;
    static std::map<size_t, std::vector<uint8_t>> pools;  /* by size */
    std::lock_guard<std::mutex> lock(mu);
    auto it = pools.find(size);
    if (it != pools.end()) return it->second;
    std::vector<uint8_t> b;
    for (auto &s : file_samples()) b.insert(b.end(), s.bytes.begin(), s.bytes.end());
    if (b.empty()) {
        Rng r(7);
        b = generate(r, GEN_TEXT, 65536);
    }
    while (b.size() < size) {
        std::vector<uint8_t> more(b);
        b.insert(b.end(), more.begin(), more.end());
    }
    return pools.emplace(size, std::move(b)).first->second;
}

std::vector<uint8_t> make_data(Rng &rng, int kind, size_t len,
                               const DataSettings &ds) {
    std::vector<uint8_t> v;
    switch (kind) {
    case K_TEXT: return generate(rng, GEN_TEXT, len);
    case K_FILES: {
        const std::vector<uint8_t> &p = file_pool(ds.pool_size);
        size_t off = rng.range(0, p.size() - 1);
        v.resize(len);
        for (size_t i = 0; i < len; i++) v[i] = p[(off + i) % p.size()];
        return v;
    }
    case K_RANDOM: return generate(rng, GEN_RANDOM, len);
    case K_RUNS: return generate(rng, GEN_RUNS, len);
    case K_ZEROS:
        if (rng.chance(ds.zeros_pct)) return std::vector<uint8_t>(len, 0);
        return generate(rng, GEN_ZEROS, len);
    case K_PERIOD: {
        /* one short pattern repeated: every match has the longest length,
         * the lazy parse never falls into step with a fresh start (the
         * threaded deflate's worst case); no noise or sparse noise keeps it */
        size_t per = rng.chance(30) ? rng.range(1, 4) : rng.range(1, 300);
        std::vector<uint8_t> pat =
            generate(rng, rng.chance(50) ? GEN_RANDOM : GEN_TEXT, per);
        size_t every = rng.chance(50) ? 0 : rng.range(ds.noise_min, ds.noise_max);
        v.resize(len);
        for (size_t i = 0; i < len; i++) v[i] = pat[i % per];
        if (every)
            for (size_t i = rng.range(0, every - 1); i < len; i += rng.range(1, 2 * every))
                v[i] ^= (uint8_t)(1 + rng.below(255));
        return v;
    }
    case K_LOWENT: return generate(rng, GEN_LOWENT, len);
    case K_FARREP: return generate(rng, GEN_FARREP, len);
    default: {          /* K_MIXED */
        size_t most = ds.mixed_part ? ds.mixed_part : std::max<size_t>(len / 3, 64);
        while (v.size() < len) {
            int k = (int)rng.below(K_MIXED);
            size_t n = std::min(len - v.size(), rng.range(1, most));
            std::vector<uint8_t> part = make_data(rng, k, n, ds);
            v.insert(v.end(), part.begin(), part.end());
        }
        return v;
    }
    }
}

/* ---- slicing -------------------------------------------------------------- */
const char *slice_name(int mode) {
    static const char *n[] = {"tiny", "small", "medium", "large", "mixed"};
    return mode >= 0 && mode < SLICE_MODES ? n[mode] : "?";
}

size_t slice(Rng &rng, int mode) {
    if (mode == SLICE_MIXED) mode = (int)rng.below(SLICE_MIXED);
    switch (mode) {
    case SLICE_TINY: return rng.range(1, 4);
    case SLICE_SMALL: return rng.range(1, 64);
    case SLICE_MEDIUM: return rng.range(1, 4096);
    default: return rng.chance(50) ? ((size_t)1 << 20) : rng.range(1, 1 << 18);
    }
}

/* ---- reporting ------------------------------------------------------------ */
static long g_failures = 0;

bool too_many_failures() { return g_failures >= 25; }

bool have_prepared() {
    return TUR->deflatePrepareDictionary && TUR->deflateUseDictionary &&
           TUR->deflateFreeDictionary;
}

bool have_threads() {
    if (!TUR->deflateSetThreads) return false;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(TUR, &s, 6, Z_DEFLATED, 15, 8, 0) != Z_OK) return false;
    bool ok = TUR->deflateSetThreads(&s, 2) == Z_OK;
    TUR->deflateEnd(&s);
    return ok;
}

bool have_optimal() {
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(TUR, &s, 10, Z_DEFLATED, 15, 8, 0) != Z_OK) return false;
    TUR->deflateEnd(&s);
    return true;
}

bool expects(const char *feature) {
    const char *e = getenv("ZT_EXPECT");
    if (!e) return false;
    for (const std::string &w : split_list(std::string(e) + ":")) {
        std::istringstream ws(w);
        std::string f;
        while (ws >> f)
            if (f == "all" || f == feature) return true;
    }
    return false;
}

std::string Ctx::describe() const {
    char seedbuf[64];
    snprintf(seedbuf, sizeof seedbuf, "0x%llx", (unsigned long long)seed);
    std::ostringstream o;
    o << "[zt] case\n  test:   " << test
      << "\n  data:   " << data << "\n  params: " << params
      << "\n  seed:   case " << seedbuf << " (ZT_SEED=0x" << std::hex
      << opt().seed << std::dec << (opt().full ? " ZT_MODE=full" : "")
      << ")\n  call:   #" << call << " " << fn;
    return o.str();
}

bool Ctx::mismatch(const std::string &what) {
    failed = true;
    g_failures++;
    ADD_FAILURE() << "ref and tur differ\n" << describe() << "\n  diff:   " << what;
    return false;
}

std::string hex(const uint8_t *p, size_t n) {
    std::string s;
    char b[4];
    for (size_t i = 0; i < n && i < 32; i++) {
        snprintf(b, sizeof b, "%02x", p[i]);
        s += b;
    }
    if (n > 32) s += "...";
    return s;
}

uint32_t crc_of(const std::vector<uint8_t> &v) {
    return (uint32_t)REF->crc32_z(0, v.data(), v.size());
}

/* ---- common comparisons --------------------------------------------------- */
namespace {

template <class T>
bool eq(Ctx &ctx, const char *what, T a, T b) {
    if (a == b) return true;
    std::ostringstream o;
    o << what << ": ref=" << a << " tur=" << b;
    return ctx.mismatch(o.str());
}

long off_of(const Bytef *p, const uint8_t *base) {
    return p ? (long)(p - base) : -1;
}

/* Fields of z_stream a caller can see; in/out offsets relative to the
 * buffers each side was given. */
bool cmp_stream(Ctx &ctx, const z_stream &a, const z_stream &b,
                const uint8_t *in_base, const uint8_t *out_a,
                const uint8_t *out_b) {
    return eq(ctx, "next_in offset", off_of(a.next_in, in_base),
              off_of(b.next_in, in_base)) &&
           eq(ctx, "avail_in", a.avail_in, b.avail_in) &&
           eq(ctx, "next_out offset", off_of(a.next_out, out_a),
              off_of(b.next_out, out_b)) &&
           eq(ctx, "avail_out", a.avail_out, b.avail_out) &&
           eq(ctx, "total_in", a.total_in, b.total_in) &&
           eq(ctx, "total_out", a.total_out, b.total_out) &&
           eq(ctx, "adler", a.adler, b.adler) &&
           eq(ctx, "data_type", a.data_type, b.data_type) &&
           (same_msg(a.msg, b.msg) ||
            ctx.mismatch("msg: ref=" + show_msg(a.msg) + " tur=" + show_msg(b.msg)));
}

/* One side of a lockstep pair: a library, its stream and its output. */
struct Side {
    const zapi *A;
    z_stream s;
    std::vector<uint8_t> out;
    size_t have = 0;            /* output bytes produced so far */
    /* gzip header buffers (inflateGetHeader) */
    gz_header head;
    std::vector<uint8_t> extra, name, comment;
    explicit Side(const zapi *a) : A(a) {
        memset(&s, 0, sizeof s);
        memset(&head, 0, sizeof head);
    }
    /* point the stream at input [pos, pos+nin) and nout bytes of output */
    void arm(const uint8_t *in_base, size_t pos, size_t nin, size_t nout) {
        s.next_in = const_cast<Bytef *>(in_base + pos);
        s.avail_in = (uInt)nin;
        if (out.size() < have + nout + 1) out.resize(have + nout + 1);
        s.next_out = out.data() + have;
        s.avail_out = (uInt)nout;
    }
};

/* Calls f on both sides (ref first), compares the return codes. */
template <class F>
bool both(Ctx &ctx, Side *d, const char *fn, F f, int *rc) {
    ctx.call++;
    ctx.fn = fn;
    int r0 = f(d[0]);
    int r1 = f(d[1]);
    *rc = r0;
    if (r0 != r1) {
        std::ostringstream o;
        o << "return code: ref=" << r0 << " tur=" << r1
          << "  (ref msg " << show_msg(d[0].s.msg) << ", tur msg "
          << show_msg(d[1].s.msg) << ")";
        return ctx.mismatch(o.str());
    }
    return true;
}

/* Output produced since the last check: same amount, same bytes. */
bool cmp_output(Ctx &ctx, Side *d, size_t *checked) {
    for (Side *x = d; x < d + 2; x++) x->have = (size_t)(x->s.next_out - x->out.data());
    if (d[0].have != d[1].have)
        return eq(ctx, "output length", d[0].have, d[1].have);
    size_t from = *checked, n = d[0].have - from;
    if (n && memcmp(d[0].out.data() + from, d[1].out.data() + from, n) != 0) {
        size_t i = from;
        while (d[0].out[i] == d[1].out[i]) i++;
        size_t k = std::min<size_t>(16, d[0].have - i);
        std::ostringstream o;
        o << "output bytes differ at offset " << i << ": ref "
          << hex(&d[0].out[i], k) << " tur " << hex(&d[1].out[i], k);
        return ctx.mismatch(o.str());
    }
    *checked = d[0].have;
    return true;
}

bool cmp_deflate_state(Ctx &ctx, Side *d, const uint8_t *in_base,
                       size_t *checked) {
    if (!cmp_stream(ctx, d[0].s, d[1].s, in_base, d[0].out.data(),
                    d[1].out.data()) ||
        !cmp_output(ctx, d, checked))
        return false;
    unsigned p[2] = {0, 0};
    int b[2] = {0, 0}, r[2], u[2] = {0, 0}, ru[2];
    for (int i = 0; i < 2; i++) {
        r[i] = d[i].A->deflatePending(&d[i].s, &p[i], &b[i]);
        ru[i] = d[i].A->deflateUsed(&d[i].s, &u[i]);
    }
    return eq(ctx, "deflatePending rc", r[0], r[1]) &&
           eq(ctx, "deflatePending pending", p[0], p[1]) &&
           eq(ctx, "deflatePending bits", b[0], b[1]) &&
           eq(ctx, "deflateUsed rc", ru[0], ru[1]) &&
           eq(ctx, "deflateUsed bits", u[0], u[1]);
}

bool cmp_header(Ctx &ctx, Side *d) {
    const gz_header &a = d[0].head, &b = d[1].head;
    if (!(eq(ctx, "head.done", a.done, b.done) &&
          eq(ctx, "head.text", a.text, b.text) &&
          eq(ctx, "head.time", a.time, b.time) &&
          eq(ctx, "head.xflags", a.xflags, b.xflags) &&
          eq(ctx, "head.os", a.os, b.os) &&
          eq(ctx, "head.extra_len", a.extra_len, b.extra_len) &&
          eq(ctx, "head.hcrc", a.hcrc, b.hcrc)))
        return false;
    if (d[0].extra != d[1].extra) return ctx.mismatch("head.extra bytes");
    if (d[0].name != d[1].name) return ctx.mismatch("head.name bytes");
    if (d[0].comment != d[1].comment) return ctx.mismatch("head.comment bytes");
    return true;
}

bool cmp_inflate_state(Ctx &ctx, Side *d, const uint8_t *in_base,
                       size_t *checked, bool header) {
    if (!cmp_stream(ctx, d[0].s, d[1].s, in_base, d[0].out.data(),
                    d[1].out.data()) ||
        !cmp_output(ctx, d, checked))
        return false;
    long m0 = d[0].A->inflateMark(&d[0].s), m1 = d[1].A->inflateMark(&d[1].s);
    if (!eq(ctx, "inflateMark", m0, m1)) return false;
    /* called, never compared: a faster inflate may size its tables
     * differently */
    (void)d[0].A->inflateCodesUsed(&d[0].s);
    (void)d[1].A->inflateCodesUsed(&d[1].s);
    return !header || cmp_header(ctx, d);
}

}  /* namespace */

/* ---- deflate -------------------------------------------------------------- */
std::string DefParams::str() const {
    static const char *st[] = {"default", "filtered", "huffman", "rle", "fixed"};
    const char *wrap = windowBits < 0 ? "raw" : windowBits > 15 ? "gzip" : "zlib";
    std::ostringstream o;
    o << "level=" << level << " windowBits=" << windowBits << "(" << wrap
      << ") memLevel=" << memLevel << " strategy="
      << (strategy >= 0 && strategy <= 4 ? st[strategy] : "?");
    return o.str();
}

DefParams random_params(Rng &rng) {
    DefParams p;
    p.level = rng.chance(5) ? Z_DEFAULT_COMPRESSION : (int)rng.below(10);
    int w = (int)rng.range(8, 15);
    int wrap = (int)rng.below(3);
    if (w == 8 && wrap != 1) w = 9;
    p.windowBits = wrap == 0 ? -w : wrap == 1 ? w : w + 16;
    p.memLevel = (int)rng.range(1, 9);
    p.strategy = rng.chance(40) ? Z_DEFAULT_STRATEGY : (int)rng.below(5);
    return p;
}

bool deflate_lockstep(Ctx &ctx, const DeflateScenario &sc,
                      const std::vector<uint8_t> &data, Rng &rng,
                      std::vector<uint8_t> *out) {
    static const uint8_t dummy[1] = {0};
    const uint8_t *base = data.empty() ? dummy : data.data();
    const size_t len = data.size();
    Side d[2] = {Side(REF), Side(TUR)};
    size_t checked = 0;
    int rc;
    const DefParams &p = sc.p;
    ctx.call = 0;
    auto step = [&](const char *fn, auto f) {
        return both(ctx, d, fn, f, &rc) &&
               cmp_deflate_state(ctx, d, base, &checked);
    };

    if (!both(ctx, d, "deflateInit2_", [&](Side &x) {
            return ZAPI_DEFLATE_INIT2(x.A, &x.s, p.level, Z_DEFLATED,
                                      p.windowBits, p.memLevel, p.strategy);
        }, &rc))
        return false;
    if (rc != Z_OK) return true;            /* both refused the same way */
    bool ok = true;

    /* bounds: compare for a few lengths */
    for (uLong n : {0UL, 1UL, 100UL, (uLong)len, 1000000UL}) {
        ctx.fn = "deflateBound";
        ok = ok && eq(ctx, "deflateBound", d[0].A->deflateBound(&d[0].s, n),
                      d[1].A->deflateBound(&d[1].s, n));
        ctx.fn = "deflateBound_z";
        ok = ok && eq(ctx, "deflateBound_z",
                      (unsigned long)d[0].A->deflateBound_z(&d[0].s, n),
                      (unsigned long)d[1].A->deflateBound_z(&d[1].s, n));
    }
    if (ok && sc.tune) {
        int g = (int)rng.range(0, 300), l = (int)rng.range(0, 300),
            n = (int)rng.range(0, 300), c = (int)rng.range(0, 5000);
        ok = step("deflateTune", [&](Side &x) {
            return x.A->deflateTune(&x.s, g, l, n, c); });
    }
    /* header strings live until deflateEnd */
    std::vector<uint8_t> hextra;
    std::string hname, hcomment;
    gz_header h;
    memset(&h, 0, sizeof h);
    if (ok && sc.gzheader) {
        h.text = (int)rng.below(2);
        h.time = (uLong)rng.below(0x7fffffff);
        h.os = (int)rng.below(256);
        hextra = generate(rng, GEN_RANDOM, rng.range(0, 40));
        if (rng.chance(70)) { h.extra = hextra.data(); h.extra_len = (uInt)hextra.size(); }
        for (size_t i = rng.range(0, 30); i; i--) hname += (char)('a' + rng.below(26));
        for (size_t i = rng.range(0, 60); i; i--) hcomment += (char)('A' + rng.below(26));
        if (rng.chance(70)) h.name = (Bytef *)hname.c_str();
        if (rng.chance(50)) h.comment = (Bytef *)hcomment.c_str();
        h.hcrc = (int)rng.below(2);
        ok = step("deflateSetHeader", [&](Side &x) {
            return x.A->deflateSetHeader(&x.s, &h); });
    }
    std::vector<uint8_t> dict;
    auto set_dict = [&]() {
        if (!sc.dict) return true;
        dict = rng.chance(50) && len ? std::vector<uint8_t>(
                   data.begin(), data.begin() + (long)std::min<size_t>(len, (size_t)sc.dict))
                                      : generate(rng, (int)rng.below(GEN_KINDS), (size_t)sc.dict);
        if (!step("deflateSetDictionary", [&](Side &x) {
                return x.A->deflateSetDictionary(&x.s, dict.data(), (uInt)dict.size()); }))
            return false;
        std::vector<uint8_t> g[2];
        uInt gl[2];
        int gr[2];
        ctx.fn = "deflateGetDictionary";
        for (int i = 0; i < 2; i++) {
            g[i].assign(32768, 0);
            gl[i] = 0;
            gr[i] = d[i].A->deflateGetDictionary(&d[i].s, g[i].data(), &gl[i]);
        }
        return eq(ctx, "deflateGetDictionary rc", gr[0], gr[1]) &&
               eq(ctx, "deflateGetDictionary length", gl[0], gl[1]) &&
               (g[0] == g[1] || ctx.mismatch("deflateGetDictionary bytes"));
    };
    ok = ok && set_dict();
    if (ok && sc.prime) {
        int bits = (int)rng.range(1, 16), value = (int)rng.below(65536);
        ok = step("deflatePrime", [&](Side &x) {
            return x.A->deflatePrime(&x.s, bits, value); });
    }

    const long max_calls = 40 * (long)len + 100000;
    for (int stream = 0; ok && stream <= sc.resets; stream++) {
        if (stream > 0) {
            for (Side *x = d; x < d + 2; x++) x->have = 0;
            checked = 0;
            d[0].arm(base, 0, 0, 0);
            d[1].arm(base, 0, 0, 0);
            ok = step("deflateReset", [&](Side &x) { return x.A->deflateReset(&x.s); });
            if (ok && rng.chance(50)) ok = set_dict();
        }
        size_t pos = 0;
        bool finishing = false;
        for (long calls = 0; ok && calls < max_calls; calls++) {
            size_t nin = std::min(slice(rng, sc.in_slice), len - pos);
            size_t nout = rng.chance((unsigned)sc.zero_out_pct) ? 0 : slice(rng, sc.out_slice);
            int flush = Z_NO_FLUSH;
            if (finishing || pos + nin == len) {
                flush = Z_FINISH;
            } else if (rng.chance((unsigned)sc.flush_pct)) {
                static const int f[] = {Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_BLOCK};
                flush = f[rng.below(4)];
            }
            if (!finishing && rng.chance((unsigned)sc.params_pct)) {
                int lv = (int)rng.below(10), st = (int)rng.below(5);
                if (rng.chance(30)) st = p.strategy;
                d[0].arm(base, pos, nin, nout);
                d[1].arm(base, pos, nin, nout);
                ok = step("deflateParams", [&](Side &x) {
                    return x.A->deflateParams(&x.s, lv, st); });
                if (!ok) break;
                pos = (size_t)(d[0].s.next_in - base);
                nin = std::min(nin, len - pos);
            }
            if (rng.chance((unsigned)sc.copy_pct)) {
                ok = both(ctx, d, "deflateCopy", [&](Side &x) {
                    /* the state points back at its z_stream, so copy
                     * out, end the original, and copy back into place */
                    z_stream c;
                    memset(&c, 0xA5, sizeof c);
                    int r = x.A->deflateCopy(&c, &x.s);
                    if (r == Z_OK) {
                        x.A->deflateEnd(&x.s);
                        r = x.A->deflateCopy(&x.s, &c);
                        x.A->deflateEnd(&c);
                    }
                    return r; }, &rc);
                if (!ok) break;
            }
            finishing = flush == Z_FINISH;
            d[0].arm(base, pos, nin, nout);
            d[1].arm(base, pos, nin, nout);
            ok = step("deflate", [&](Side &x) { return x.A->deflate(&x.s, flush); });
            if (!ok) break;
            pos = (size_t)(d[0].s.next_in - base);
            if (rc == Z_STREAM_END || (rc < 0 && rc != Z_BUF_ERROR)) break;
        }
    }
    if (ok && out) out->assign(d[0].out.begin(), d[0].out.begin() + (long)d[0].have);
    int e0 = d[0].A->deflateEnd(&d[0].s), e1 = d[1].A->deflateEnd(&d[1].s);
    ctx.fn = "deflateEnd";
    return ok && eq(ctx, "deflateEnd rc", e0, e1);
}

std::vector<uint8_t> ref_deflate(const DefParams &p, const uint8_t *data,
                                 size_t len, int flush_every, int flush,
                                 const std::vector<uint8_t> *dict,
                                 gz_header *head) {
    static const uint8_t dummy[1] = {0};
    if (!data) data = dummy;
    z_stream s;
    memset(&s, 0, sizeof s);
    std::vector<uint8_t> out;
    if (ZAPI_DEFLATE_INIT2(REF, &s, p.level, Z_DEFLATED, p.windowBits,
                           p.memLevel, p.strategy) != Z_OK)
        return out;
    if (head) REF->deflateSetHeader(&s, head);
    if (dict) REF->deflateSetDictionary(&s, dict->data(), (uInt)dict->size());
    size_t pos = 0;
    out.resize(REF->deflateBound(&s, len) + 64);
    int rc;
    do {
        size_t n = flush_every > 0 ? std::min(len - pos, (size_t)flush_every) : len - pos;
        int f = pos + n == len ? Z_FINISH : flush;
        s.next_in = const_cast<Bytef *>(data + pos);
        s.avail_in = (uInt)n;
        do {
            if (out.size() - s.total_out < 64) out.resize(out.size() * 2);
            s.next_out = out.data() + s.total_out;
            s.avail_out = (uInt)(out.size() - s.total_out);
            rc = REF->deflate(&s, f);
        } while (s.avail_out == 0 || (f == Z_FINISH && rc == Z_OK));
        pos += n;
    } while (pos < len || rc == Z_OK);
    out.resize(s.total_out);
    REF->deflateEnd(&s);
    return out;
}

std::vector<size_t> block_starts(const std::vector<uint8_t> &stream,
                                 int windowBits) {
    std::set<size_t> st;
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_INFLATE_INIT2(REF, &s, windowBits) != Z_OK) return {};
    std::vector<uint8_t> buf(1 << 16);
    s.next_in = const_cast<Bytef *>(stream.data());
    s.avail_in = (uInt)stream.size();
    for (int i = 0; i < 1000000; i++) {
        s.next_out = buf.data();
        s.avail_out = (uInt)buf.size();
        int rc = REF->inflate(&s, Z_BLOCK);
        if (rc != Z_OK) break;
        if (s.data_type & 128)
            st.insert((size_t)s.total_in * 8 - (size_t)(s.data_type & 63));
    }
    REF->inflateEnd(&s);
    return std::vector<size_t>(st.begin(), st.end());
}

/* ---- inflate -------------------------------------------------------------- */
InflateResult inflate_lockstep(Ctx &ctx, const InflateScenario &sc,
                               const std::vector<uint8_t> &stream,
                               uint64_t slice_seed) {
    static const uint8_t dummy[1] = {0};
    const uint8_t *base = stream.empty() ? dummy : stream.data();
    const size_t len = stream.size();
    InflateResult res;
    Rng rng(slice_seed);
    Side d[2] = {Side(REF), Side(TUR)};
    size_t checked = 0, pos = 0;
    int rc;
    ctx.call = 0;
    bool header = sc.get_header != 0;
    auto step = [&](const char *fn, auto f) {
        return both(ctx, d, fn, f, &rc) &&
               cmp_inflate_state(ctx, d, base, &checked, header);
    };
    auto fail = [&]() { res.same = false; res.rc = rc; return res; };

    d[0].arm(base, 0, 0, 0);
    d[1].arm(base, 0, 0, 0);
    if (!both(ctx, d, "inflateInit2_", [&](Side &x) {
            return ZAPI_INFLATE_INIT2(x.A, &x.s, sc.windowBits); }, &rc))
        return fail();
    if (rc != Z_OK) { res.rc = rc; return res; }
    bool ok = true;
    if (header) {
        size_t xm = rng.range(0, 48), nm = rng.range(1, 40), cm = rng.range(1, 70);
        bool noname = rng.chance(15);
        for (Side *x = d; x < d + 2; x++) {
            x->extra.assign(xm, 0);
            x->name.assign(nm, 0);
            x->comment.assign(cm, 0);
            x->head.extra = xm ? x->extra.data() : nullptr;
            x->head.extra_max = (uInt)xm;
            x->head.name = noname ? nullptr : x->name.data();
            x->head.name_max = (uInt)nm;
            x->head.comment = x->comment.data();
            x->head.comm_max = (uInt)cm;
        }
        ok = step("inflateGetHeader", [&](Side &x) {
            return x.A->inflateGetHeader(&x.s, &x.head); });
    }
    if (ok && sc.validate_off)
        ok = step("inflateValidate", [&](Side &x) { return x.A->inflateValidate(&x.s, 0); });
    if (ok && sc.dict && sc.windowBits < 0)
        ok = step("inflateSetDictionary", [&](Side &x) {
            return x.A->inflateSetDictionary(&x.s, sc.dict->data(), (uInt)sc.dict->size()); });
    if (ok && sc.prime_bytes) {
        ok = step("inflatePrime", [&](Side &x) { return x.A->inflatePrime(&x.s, -1, 0); });
        for (int i = 0; ok && i < sc.prime_bytes && pos < len; i++, pos++) {
            int v = base[pos], a = (int)rng.range(1, 7);
            ok = step("inflatePrime", [&](Side &x) {
                     return x.A->inflatePrime(&x.s, a, v & ((1 << a) - 1)); }) &&
                 step("inflatePrime", [&](Side &x) {
                     return x.A->inflatePrime(&x.s, 8 - a, v >> a); });
        }
    }
    if (ok && sc.sync_first) {
        for (int i = 0; ok && i < 100000; i++) {
            size_t nin = std::min(slice(rng, sc.in_slice), len - pos);
            d[0].arm(base, pos, nin, 0);
            d[1].arm(base, pos, nin, 0);
            ok = step("inflateSync", [&](Side &x) { return x.A->inflateSync(&x.s); });
            pos = (size_t)(d[0].s.next_in - base);
            if (rc == Z_OK || pos == len || (rc != Z_DATA_ERROR && rc != Z_BUF_ERROR)) break;
        }
    }

    const long max_calls = 20 * (long)len + 100000;
    int stalls = 0;
    while (ok && res.calls < max_calls && d[0].have < sc.out_cap) {
        res.calls++;
        size_t nin = rng.chance((unsigned)sc.zero_in_pct) ? 0
                     : std::min(slice(rng, sc.in_slice), len - pos);
        size_t nout = slice(rng, sc.out_slice);
        nout = std::min(nout, sc.out_cap + 1 - d[0].have);
        int flush = Z_NO_FLUSH;
        if (sc.flush_mix == FLUSH_FINISH) flush = Z_FINISH;
        else if (sc.flush_mix == FLUSH_RANDOM) {
            static const int f[] = {Z_NO_FLUSH, Z_NO_FLUSH, Z_SYNC_FLUSH,
                                    Z_BLOCK, Z_TREES, Z_FINISH};
            flush = f[rng.below(6)];
        }
        if (rng.chance((unsigned)sc.copy_pct)) {
            ok = both(ctx, d, "inflateCopy", [&](Side &x) {
                z_stream c;             /* as for deflateCopy */
                memset(&c, 0xA5, sizeof c);
                int r = x.A->inflateCopy(&c, &x.s);
                if (r == Z_OK) {
                    x.A->inflateEnd(&x.s);
                    r = x.A->inflateCopy(&x.s, &c);
                    x.A->inflateEnd(&c);
                }
                return r; }, &rc);
            if (!ok) break;
        }
        size_t have_before = d[0].have, pos_before = pos;
        d[0].arm(base, pos, nin, nout);
        d[1].arm(base, pos, nin, nout);
        ok = step("inflate", [&](Side &x) { return x.A->inflate(&x.s, flush); });
        if (!ok) break;
        pos = (size_t)(d[0].s.next_in - base);
        if (rc == Z_STREAM_END) {
            res.members++;
            if (sc.multi_member && pos < len) {
                if (sc.reset2_wbits)
                    ok = step("inflateReset2", [&](Side &x) {
                        return x.A->inflateReset2(&x.s, sc.reset2_wbits); });
                else
                    ok = step("inflateReset", [&](Side &x) { return x.A->inflateReset(&x.s); });
                continue;
            }
            break;
        }
        if (rc == Z_NEED_DICT) {
            if (!sc.dict) break;
            ok = step("inflateSetDictionary", [&](Side &x) {
                return x.A->inflateSetDictionary(&x.s, sc.dict->data(), (uInt)sc.dict->size()); });
            continue;
        }
        if (rc == Z_BUF_ERROR) {
            /* no progress possible: all input given and nothing came out */
            bool progress = d[0].have != have_before || pos != pos_before;
            if (pos == len && !progress && ++stalls >= 3) break;
            continue;
        }
        if (rc < 0) break;
    }
    res.rc = rc;
    if (ok) {
        std::vector<uint8_t> g[2];
        uInt gl[2];
        int gr[2];
        ctx.fn = "inflateGetDictionary";
        for (int i = 0; i < 2; i++) {
            g[i].assign(32768, 0);
            gl[i] = 0;
            gr[i] = d[i].A->inflateGetDictionary(&d[i].s, g[i].data(), &gl[i]);
        }
        ok = eq(ctx, "inflateGetDictionary rc", gr[0], gr[1]) &&
             eq(ctx, "inflateGetDictionary length", gl[0], gl[1]) &&
             (g[0] == g[1] || ctx.mismatch("inflateGetDictionary bytes"));
    }
    int e0 = d[0].A->inflateEnd(&d[0].s), e1 = d[1].A->inflateEnd(&d[1].s);
    ctx.fn = "inflateEnd";
    ok = ok && eq(ctx, "inflateEnd rc", e0, e1);
    res.same = ok;
    res.out.assign(d[0].out.begin(), d[0].out.begin() + (long)d[0].have);
    return res;
}

/* ---- inflateBack ---------------------------------------------------------- */
namespace {
struct IbIn {
    const uint8_t *base;
    size_t len, pos;
    Rng rng;
    int mode;
    long calls;
};
unsigned ib_in(void *desc, z_const unsigned char **buf) {
    IbIn *D = static_cast<IbIn *>(desc);
    D->calls++;
    size_t n = std::min(slice(D->rng, D->mode), D->len - D->pos);
    *buf = const_cast<unsigned char *>(D->base + D->pos);
    D->pos += n;
    return (unsigned)n;
}
struct IbOut {
    std::vector<uint8_t> *v;
    size_t cap;
};
int ib_out(void *desc, unsigned char *buf, unsigned len) {
    IbOut *D = static_cast<IbOut *>(desc);
    D->v->insert(D->v->end(), buf, buf + len);
    return D->v->size() > D->cap ? 1 : 0;
}
}  /* namespace */

std::string InfBackRun::str() const {
    std::ostringstream o;
    o << "init=" << init_rc << " rc=" << rc << " msg=" << msg
      << " out=" << out.size() << " bytes crc=" << std::hex
      << crc_of(out) << std::dec << " next_in@" << next_in_off
      << " avail_in=" << avail_in << " in() calls=" << in_calls;
    return o.str();
}

InfBackRun infback_run(const zapi *A, const std::vector<uint8_t> &stream,
                       int windowBits, uint64_t slice_seed, int in_slice,
                       int fill, size_t first_avail, size_t out_cap) {
    static const uint8_t dummy[1] = {0};
    InfBackRun r;
    std::vector<uint8_t> window((size_t)1 << windowBits, (uint8_t)fill);
    z_stream s;
    memset(&s, 0, sizeof s);
    r.init_rc = ZAPI_INFLATE_BACK_INIT(A, &s, windowBits, window.data());
    if (r.init_rc != Z_OK) return r;
    const uint8_t *base = stream.empty() ? dummy : stream.data();
    size_t first = std::min(first_avail, stream.size());
    IbIn in = {base, stream.size(), first, Rng(slice_seed), in_slice, 0};
    IbOut out = {&r.out, out_cap};
    s.next_in = first ? const_cast<Bytef *>(base) : Z_NULL;
    s.avail_in = (uInt)first;
    r.rc = A->inflateBack(&s, ib_in, &in, ib_out, &out);
    r.msg = show_msg(s.msg);
    r.next_in_off = s.next_in ? (long)(s.next_in - base) : -1;
    r.avail_in = s.avail_in;
    r.in_calls = in.calls;
    A->inflateBackEnd(&s);
    return r;
}

}  /* namespace zt */
