/* optimal_bench.c -- compressed size and speed of zlib-turbo's levels 10-12
 * (optimal parsing) against pristine zlib 1.3.2 level 9, libdeflate level 12
 * and zopfli, set by set, in one process.
 *
 * Pristine zlib and zlib-turbo are linked side by side, renamed by
 * turbo/harness/mkzobj.sh (ref_*, tur_*) and reached through the zapi tables
 * (turbo/harness/zapi.h).  libdeflate is linked in when this file is compiled
 * with -DHAVE_LIBDEFLATE (and its libdeflate.h and libdeflate.a); zopfli is
 * run as a command.  Build and run: turbo/bench/optimal_bench.sh.
 *
 * Compressors, in this order (names as printed; --compressors selects):
 *   zlib-9          pristine zlib 1.3.2, level 9
 *   turbo-L         zlib-turbo at each level L of --turbo-levels (10,11,12)
 *   turbo-L-tN      zlib-turbo at level L = --threads-level (12) with
 *                   deflateSetThreads(strm, N) for each N of --threads (2)
 *   libdeflate-12   libdeflate_alloc_compressor(12)
 *   zopfli-iK       the command ZOPFLI --iK --deflate -c FILE (K =
 *                   --zopfli-iterations, 15)
 * zlib and zlib-turbo: deflateInit2(level, Z_DEFLATED, -15 (raw deflate), 8,
 * Z_DEFAULT_STRATEGY), deflateSetThreads() for -tN, an output buffer of
 * deflateBound() bytes, one deflate(Z_FINISH) with the whole file, which must
 * return Z_STREAM_END, then deflateEnd().  libdeflate: an output buffer of
 * libdeflate_deflate_compress_bound() bytes.  A run's time is all of that
 * (init, compression, end; libdeflate's alloc/compress/free), wall clock; for
 * zopfli the wall time of the command (fork to exit, its output read from a
 * pipe).  A compressor that cannot run is skipped, and the output says why
 * ("SKIP turbo-10: level not supported by this build"): a level that
 * deflateInit2() refuses, no deflateSetThreads() or one that refuses,
 * libdeflate not compiled in (--libdeflate-skip=REASON gives the reason),
 * no --zopfli=PATH or a path that is not executable.
 *
 * Runs.  The files of a set are taken one at a time; each selected
 * compressor compresses the file --reps times in a row (default 5), but
 * stops early once its runs of that file have taken --max-file-time seconds
 * (default 2; always at least one run), so fast compressors are repeated and
 * slow ones run once per file; zopfli runs --zopfli-reps times (default 1).
 * A file's time is the median of its runs; a set's time the sum of its
 * files' times; MB/s = the set's input bytes / 10^6 / that time.  cpu_s is
 * the CPU time of the process (all threads; for zopfli, of the child) per
 * run, summed over the files: cpu_s / seconds above 1 shows threads at work.
 *
 * Checks.  Every run's output (every repetition) is decompressed with
 * pristine zlib's inflate (raw, windowBits -15) in one call and must give
 * back exactly the file, end the stream and use all of the output; any
 * failure, and any error of a compressor, is printed at once ("VERIFY
 * FAILURE" / "RUN FAILURE") to stderr and stdout, the compressor's row says
 * FAILED, and the exit status is 2.  Repetitions must give the same bytes as
 * the first run (else a loud WARNING and "bytes vary" in the row).  For
 * turbo-L-tN the row says whether its bytes equal turbo-L's, file by file
 * (by CRC-32 and length).
 *
 * Output: '#' header lines (--note=TEXT, one each), then per set a table:
 * bytes (raw deflate, summed over the files), the ratio of those bytes to
 * libdeflate-12's and to zlib-9's (below 1: smaller), seconds, MB/s, cpu_s,
 * runs per file, status.  --tsv=FILE writes the same header and one line per
 * (set, compressor), appended set by set.  Progress on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "zapi.h"
#ifdef HAVE_LIBDEFLATE
#include "libdeflate.h"
#endif
#include "bench_time.h"

#define MAX_SETS 32
#define MAX_COMPS 32
#define MAX_LIST 16
#define MAX_REPS 100
#define MAX_NOTES 64

enum { K_ZLIB, K_TURBO, K_LIBDEFLATE, K_ZOPFLI };

typedef struct {
    char name[32];
    int kind;
    int level;
    int threads;                /* turbo: 0 = deflateSetThreads() not called */
    int base;                   /* turbo-L-tN: index of turbo-L, or -1 */
    int selected;
    char skip[200];             /* non-empty: skipped, and why */
} comp_t;

typedef struct {
    unsigned long long bytes;   /* summed over the files */
    double secs, cpu;
    int minruns, maxruns;
    int failed, varied;         /* files with a failure / differing runs */
    int same, compared;         /* turbo-L-tN: files equal to turbo-L's */
    char firsterr[300];
} result_t;

typedef struct {
    const char *name;
    const char **paths;
    int nfiles;
} set_t;

static set_t sets[MAX_SETS];
static int nsets;
static comp_t comps[MAX_COMPS];
static int ncomps;
static const char *notes[MAX_NOTES];
static int nnotes;

static int reps = 5, zopfli_reps = 1, zopfli_iters = 15;
static double max_file_time = 2.0;
static const char *zopfli_path, *libdeflate_skip, *opt_tsv;
static double t_start;

/* output, a copy of a file's first output, the inflate check's buffer */
static unsigned char *obuf, *first, *vbuf;
static size_t ocap, firstcap, vcap;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "optimal_bench: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

static void usage(void)
{
    fputs(
"usage: optimal_bench [options] --set=NAME FILE... [--set=NAME FILE...]...\n"
"  --compressors=LIST     names (zlib-9, turbo-12, turbo-12-t2, libdeflate-12,\n"
"                         zopfli-i15, ...) or groups: zlib, turbo (one thread),\n"
"                         threads (turbo-L-tN), libdeflate, zopfli, all [all]\n"
"  --turbo-levels=LIST    zlib-turbo levels [10,11,12]\n"
"  --threads=LIST         deflateSetThreads() counts, 1-256 [2]\n"
"  --threads-level=L      the level of the threaded runs [12]\n"
"  --reps=N               runs per file, zlib/zlib-turbo/libdeflate [5]\n"
"  --max-file-time=S      no more runs of a file after S seconds of them [2]\n"
"  --zopfli=PATH          the zopfli command (skipped without it)\n"
"  --zopfli-iterations=K  [15]\n"
"  --zopfli-reps=N        [1]\n"
"  --libdeflate-skip=WHY  why libdeflate is not compiled in\n"
"  --tsv=FILE             also write the results as TSV to FILE\n"
"  --note=TEXT            a '#' header line (repeatable)\n", stderr);
    exit(1);
}

static int parse_list(const char *s, int *out, int max, int lo, int hi)
{
    int n = 0;
    char *end;
    while (*s) {
        long v = strtol(s, &end, 10);
        if (end == s || v < lo || v > hi || n == max)
            die("bad list near '%s'", s);
        out[n++] = (int)v;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            die("bad list near '%s'", s);
    }
    if (n == 0)
        die("empty list%s", "");
    return n;
}

static int parse_int(const char *s, int lo, int hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        die("bad number '%s'", s);
    return (int)v;
}

static double cpu_now(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* makes *buf hold at least need bytes */
static void grow(unsigned char **buf, size_t *cap, size_t need)
{
    unsigned char *b;
    if (need <= *cap)
        return;
    b = realloc(*buf, need);
    if (b == NULL)
        die("out of memory%s", "");
    *buf = b;
    *cap = need;
}

static unsigned char *load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b;
    long n;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    b = malloc((size_t)n + 1);
    if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(b);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* ------------------------------------------------------------------ */
/* the compressors                                                     */

static void add_comp(const char *name, int kind, int level, int threads,
                     int base)
{
    comp_t *c;
    if (ncomps == MAX_COMPS)
        die("too many compressors%s", "");
    c = &comps[ncomps++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = kind;
    c->level = level;
    c->threads = threads;
    c->base = base;
}

static int find_comp(const char *name)
{
    int i;
    for (i = 0; i < ncomps; i++)
        if (strcmp(comps[i].name, name) == 0)
            return i;
    return -1;
}

/* --compressors: marks the selected ones */
static void select_comps(const char *list)
{
    char buf[512], *tok, *save = NULL;
    int i, hit;
    if (strlen(list) >= sizeof buf)
        die("--compressors too long%s", "");
    strcpy(buf, list);
    for (tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        for (hit = 0, i = 0; i < ncomps; i++) {
            comp_t *c = &comps[i];
            if (strcmp(tok, "all") == 0 || strcmp(tok, c->name) == 0 ||
                (strcmp(tok, "zlib") == 0 && c->kind == K_ZLIB) ||
                (strcmp(tok, "turbo") == 0 && c->kind == K_TURBO &&
                 c->threads == 0) ||
                (strcmp(tok, "threads") == 0 && c->kind == K_TURBO &&
                 c->threads > 0) ||
                (strcmp(tok, "libdeflate") == 0 && c->kind == K_LIBDEFLATE) ||
                (strcmp(tok, "zopfli") == 0 && c->kind == K_ZOPFLI)) {
                c->selected = 1;
                hit = 1;
            }
        }
        if (!hit)
            die("no such compressor or group: '%s' (see --help)", tok);
    }
}

/* sets c->skip when c cannot run here */
static void probe(comp_t *c)
{
    z_stream s;
    int r;
    switch (c->kind) {
    case K_ZLIB:
    case K_TURBO: {
        const zapi *A = c->kind == K_ZLIB ? &zapi_ref : &zapi_tur;
        memset(&s, 0, sizeof s);
        r = ZAPI_DEFLATE_INIT2(A, &s, c->level, Z_DEFLATED, -15, 8,
                               Z_DEFAULT_STRATEGY);
        if (r == Z_STREAM_ERROR) {
            snprintf(c->skip, sizeof c->skip, "level not supported by this build "
                     "(deflateInit2(level %d) returned Z_STREAM_ERROR)",
                     c->level);
            return;
        }
        if (r != Z_OK) {
            snprintf(c->skip, sizeof c->skip,
                     "deflateInit2(level %d) returned %d", c->level, r);
            return;
        }
        if (c->threads) {
            if (A->deflateSetThreads == NULL)
                snprintf(c->skip, sizeof c->skip,
                         "no deflateSetThreads() in this build");
            else if ((r = A->deflateSetThreads(&s, c->threads)) != Z_OK)
                snprintf(c->skip, sizeof c->skip, "deflateSetThreads(strm, "
                         "%d) returned %d at level %d", c->threads, r,
                         c->level);
        }
        A->deflateEnd(&s);
        return;
    }
    case K_LIBDEFLATE:
#ifdef HAVE_LIBDEFLATE
        {
            struct libdeflate_compressor *d =
                libdeflate_alloc_compressor(c->level);
            if (d == NULL)
                snprintf(c->skip, sizeof c->skip,
                         "libdeflate_alloc_compressor(%d) failed", c->level);
            else
                libdeflate_free_compressor(d);
        }
#else
        snprintf(c->skip, sizeof c->skip, "%s", libdeflate_skip ?
                 libdeflate_skip : "not compiled in (no --libdeflate=DIR)");
#endif
        return;
    case K_ZOPFLI:
        if (zopfli_path == NULL || *zopfli_path == 0)
            snprintf(c->skip, sizeof c->skip, "no zopfli command given "
                     "(--zopfli=PATH)");
        else if (access(zopfli_path, X_OK) != 0)
            snprintf(c->skip, sizeof c->skip, "%s: %s", zopfli_path,
                     strerror(errno));
        return;
    }
}

/* One run of c on data[0..len-1]: the output in obuf[0..*outlen-1], the wall
 * and CPU seconds in *secs and *cpu; 0, or -1 with err filled. */
static int run_zlib(const comp_t *c, const unsigned char *data, size_t len,
                    size_t *outlen, double *secs, double *cpu, char *err,
                    size_t errsz)
{
    const zapi *A = c->kind == K_ZLIB ? &zapi_ref : &zapi_tur;
    z_stream s;
    double t0, c0, p;
    uLong bound;
    int r, e;

    memset(&s, 0, sizeof s);
    c0 = cpu_now(RUSAGE_SELF);
    t0 = bench_now();
    r = ZAPI_DEFLATE_INIT2(A, &s, c->level, Z_DEFLATED, -15, 8,
                           Z_DEFAULT_STRATEGY);
    if (r != Z_OK) {
        snprintf(err, errsz, "deflateInit2(level %d) returned %d", c->level,
                 r);
        return -1;
    }
    if (c->threads && (r = A->deflateSetThreads(&s, c->threads)) != Z_OK) {
        snprintf(err, errsz, "deflateSetThreads(strm, %d) returned %d",
                 c->threads, r);
        A->deflateEnd(&s);
        return -1;
    }
    bound = A->deflateBound(&s, (uLong)len);
    if (bound > ocap) {         /* not timed */
        p = bench_now();
        grow(&obuf, &ocap, bound);
        t0 += bench_now() - p;
    }
    s.next_in = (Bytef *)data;
    s.avail_in = (uInt)len;
    s.next_out = obuf;
    s.avail_out = (uInt)bound;
    r = A->deflate(&s, Z_FINISH);
    *outlen = (size_t)(bound - s.avail_out);
    e = A->deflateEnd(&s);
    *secs = bench_now() - t0;
    *cpu = cpu_now(RUSAGE_SELF) - c0;
    if (r != Z_STREAM_END) {
        snprintf(err, errsz, "deflate(Z_FINISH) returned %d, not "
                 "Z_STREAM_END, with deflateBound()'s %lu bytes of output "
                 "space (%zu bytes in, %lu consumed, %zu out)", r, bound,
                 len, s.total_in, *outlen);
        return -1;
    }
    if (s.total_in != (uLong)len || s.total_out != (uLong)*outlen) {
        snprintf(err, errsz, "counters: total_in %lu of %zu, total_out %lu "
                 "(wrote %zu)", s.total_in, len, s.total_out, *outlen);
        return -1;
    }
    if (e != Z_OK) {
        snprintf(err, errsz, "deflateEnd returned %d", e);
        return -1;
    }
    return 0;
}

static int run_libdeflate(const comp_t *c, const unsigned char *data,
                          size_t len, size_t *outlen, double *secs,
                          double *cpu, char *err, size_t errsz)
{
#ifdef HAVE_LIBDEFLATE
    struct libdeflate_compressor *d;
    double t0, c0, p;
    size_t bound, n;

    c0 = cpu_now(RUSAGE_SELF);
    t0 = bench_now();
    d = libdeflate_alloc_compressor(c->level);
    if (d == NULL) {
        snprintf(err, errsz, "libdeflate_alloc_compressor(%d) failed",
                 c->level);
        return -1;
    }
    bound = libdeflate_deflate_compress_bound(d, len);
    if (bound > ocap) {         /* not timed */
        p = bench_now();
        grow(&obuf, &ocap, bound);
        t0 += bench_now() - p;
    }
    n = libdeflate_deflate_compress(d, data, len, obuf, bound);
    libdeflate_free_compressor(d);
    *secs = bench_now() - t0;
    *cpu = cpu_now(RUSAGE_SELF) - c0;
    *outlen = n;
    if (n == 0) {
        snprintf(err, errsz, "libdeflate_deflate_compress() returned 0 "
                 "with its bound's %zu bytes of output space", bound);
        return -1;
    }
    return 0;
#else
    (void)c; (void)data; (void)len; (void)outlen; (void)secs; (void)cpu;
    snprintf(err, errsz, "libdeflate not compiled in");
    return -1;
#endif
}

static int run_zopfli(const comp_t *c, const char *path, size_t len,
                      size_t *outlen, double *secs, double *cpu, char *err,
                      size_t errsz)
{
    char iters[32];
    char *argv[6];
    int fd[2], status;
    pid_t pid;
    double t0, c0;
    size_t got = 0;
    ssize_t n;

    (void)c;
    snprintf(iters, sizeof iters, "--i%d", zopfli_iters);
    argv[0] = (char *)zopfli_path;
    argv[1] = iters;
    argv[2] = (char *)"--deflate";
    argv[3] = (char *)"-c";
    argv[4] = (char *)path;
    argv[5] = NULL;
    grow(&obuf, &ocap, len + len / 4 + 65536);  /* it grows if need be */
    if (pipe(fd) != 0) {
        snprintf(err, errsz, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    c0 = cpu_now(RUSAGE_CHILDREN);
    t0 = bench_now();
    pid = fork();
    if (pid < 0) {
        snprintf(err, errsz, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execv(zopfli_path, argv);
        _exit(127);
    }
    close(fd[1]);
    for (;;) {
        if (got == ocap)
            grow(&obuf, &ocap, ocap * 2);
        n = read(fd[0], obuf + got, ocap - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *secs = bench_now() - t0;
    *cpu = cpu_now(RUSAGE_CHILDREN) - c0;
    *outlen = got;
    if (n < 0) {
        snprintf(err, errsz, "reading zopfli's output: %s", strerror(errno));
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFEXITED(status))
            snprintf(err, errsz, "%s exited with status %d", zopfli_path,
                     WEXITSTATUS(status));
        else
            snprintf(err, errsz, "%s killed by signal %d", zopfli_path,
                     WIFSIGNALED(status) ? WTERMSIG(status) : -1);
        return -1;
    }
    return 0;
}

/* pristine zlib's raw inflate of obuf[0..outlen-1] must give data back */
static int verify(const unsigned char *data, size_t len, size_t outlen,
                  char *err, size_t errsz)
{
    z_stream s;
    int r;
    grow(&vbuf, &vcap, len + 1);
    memset(&s, 0, sizeof s);
    r = ZAPI_INFLATE_INIT2(&zapi_ref, &s, -15);
    if (r != Z_OK) {
        snprintf(err, errsz, "inflateInit2 returned %d", r);
        return -1;
    }
    s.next_in = obuf;
    s.avail_in = (uInt)outlen;
    s.next_out = vbuf;
    s.avail_out = (uInt)(len + 1);
    r = zapi_ref.inflate(&s, Z_FINISH);
    if (r != Z_STREAM_END)
        snprintf(err, errsz, "inflate returned %d (%s), not Z_STREAM_END, "
                 "after %lu of %zu bytes in and %lu bytes out", r,
                 s.msg ? s.msg : "no message", s.total_in, outlen,
                 s.total_out);
    else if (s.total_out != (uLong)len)
        snprintf(err, errsz, "inflate gave %lu bytes, not %zu", s.total_out,
                 len);
    else if (s.avail_in != 0)
        snprintf(err, errsz, "%u bytes left after the end of the stream",
                 s.avail_in);
    else if (memcmp(vbuf, data, len) != 0)
        snprintf(err, errsz, "inflate gave different bytes");
    else
        r = Z_OK;
    zapi_ref.inflateEnd(&s);
    return r == Z_OK ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* output                                                              */

static void header(FILE *o, int argc, char **argv)
{
    int i;
    for (i = 0; i < nnotes; i++)
        fprintf(o, "# %s\n", notes[i]);
#ifdef HAVE_LIBDEFLATE
    fprintf(o, "# libdeflate: compiled in, libdeflate.h version %s\n",
            LIBDEFLATE_VERSION_STRING);
#endif
    fprintf(o, "# zlib-turbo: %s; pristine zlib: %s\n",
            zapi_tur.zlibTurboVersion ? zapi_tur.zlibTurboVersion()
                                      : "no zlibTurboVersion()",
            zapi_ref.zlibVersion());
    fprintf(o, "# driver:");
    for (i = 0; i < argc; i++)
        if (argv[i][0] == '-' && strncmp(argv[i], "--note=", 7) != 0)
            fprintf(o, " %s", argv[i]);
    fprintf(o, "\n# runs: up to %d per file (zlib, zlib-turbo, libdeflate), "
            "none after %.3g s of a file's runs; zopfli %d; a file's time is "
            "its median run, a set's the sum over its files; MB = 10^6 bytes "
            "of input\n", reps, max_file_time, zopfli_reps);
    fprintf(o, "# ratios: the compressor's bytes / libdeflate-12's and / "
            "zlib-9's (below 1: smaller)\n");
}

static void ratio(char *buf, size_t n, const result_t *r, int ref,
                  const result_t *res)
{
    if (ref < 0 || comps[ref].skip[0] || res[ref].failed || r->failed ||
        res[ref].bytes == 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.4f", (double)r->bytes / (double)res[ref].bytes);
}

static void status_text(char *buf, size_t n, const comp_t *c,
                        const result_t *r)
{
    size_t k;
    if (c->skip[0]) {
        snprintf(buf, n, "SKIP: %s", c->skip);
        return;
    }
    if (r->failed) {
        snprintf(buf, n, "FAILED on %d file%s: %s", r->failed,
                 r->failed == 1 ? "" : "s", r->firsterr);
        return;
    }
    snprintf(buf, n, "ok");
    k = strlen(buf);
    if (r->varied)
        k += (size_t)snprintf(buf + k, n - k, "; bytes vary between runs "
                              "on %d files", r->varied);
    if (k < n && c->base >= 0 && r->compared) {
        if (r->same == r->compared)
            snprintf(buf + k, n - k, "; bytes = %s's", comps[c->base].name);
        else
            snprintf(buf + k, n - k, "; bytes differ from %s's on %d of "
                     "%d files", comps[c->base].name,
                     r->compared - r->same, r->compared);
    }
}

static void print_set(FILE *tsv, const set_t *S, size_t input,
                      const result_t *res)
{
    int zi = find_comp("zlib-9"), li = find_comp("libdeflate-12"), i;
    char rl[32], rz[32], st[512], runs[32], mbs[32];

    printf("\n%s: %d file%s, %zu bytes\n", S->name, S->nfiles,
           S->nfiles == 1 ? "" : "s", input);
    printf("  %-15s %12s %8s %8s %10s %9s %10s %5s  %s\n", "compressor",
           "bytes", "/ld-12", "/zlib-9", "seconds", "MB/s", "cpu_s",
           "runs", "status");
    for (i = 0; i < ncomps; i++) {
        const comp_t *c = &comps[i];
        const result_t *r = &res[i];
        if (!c->selected)
            continue;
        status_text(st, sizeof st, c, r);
        if (c->skip[0] || r->failed) {
            printf("  %-15s %12s %8s %8s %10s %9s %10s %5s  %s\n", c->name,
                   "-", "-", "-", "-", "-", "-", "-", st);
            if (tsv)
                fprintf(tsv, "%s\t%s\t-\t-\t-\t-\t-\t%zu\t%d\t-\t-\t%s\n",
                        S->name, c->name, input, S->nfiles, st);
            continue;
        }
        ratio(rl, sizeof rl, r, li, res);
        ratio(rz, sizeof rz, r, zi, res);
        if (r->minruns == r->maxruns)
            snprintf(runs, sizeof runs, "%d", r->minruns);
        else
            snprintf(runs, sizeof runs, "%d-%d", r->minruns, r->maxruns);
        if (r->secs > 0)
            snprintf(mbs, sizeof mbs, "%.3f", (double)input / 1e6 / r->secs);
        else
            snprintf(mbs, sizeof mbs, "-");
        printf("  %-15s %12llu %8s %8s %10.3f %9s %10.3f %5s  %s\n", c->name,
               r->bytes, rl, rz, r->secs, mbs, r->cpu, runs, st);
        if (tsv)
            fprintf(tsv, "%s\t%s\t%llu\t%.6f\t%s\t%s\t%s\t%zu\t%d\t%s\t"
                    "%.6f\t%s\n", S->name, c->name, r->bytes, r->secs, mbs,
                    rl, rz, input, S->nfiles, runs, r->cpu, st);
    }
    fflush(stdout);
    if (tsv)
        fflush(tsv);
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    int turbo_levels[MAX_LIST] = { 10, 11, 12 }, nturbo = 3;
    int threads[MAX_LIST] = { 2 }, nthreads = 1, threads_level = 12;
    const char *select = "all";
    FILE *tsv = NULL;
    int i, j, si, fi, failures = 0;
    char name[64];

    t_start = bench_now();
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=');
        v = v ? v + 1 : "";
#define OPT(o) (strncmp(a, o "=", sizeof o) == 0)
        if (OPT("--set")) {
            if (nsets == MAX_SETS)
                die("too many sets%s", "");
            sets[nsets].name = v;
            sets[nsets].paths = calloc((size_t)argc, sizeof(char *));
            sets[nsets].nfiles = 0;
            nsets++;
        } else if (a[0] != '-') {
            if (nsets == 0)
                die("file before any --set=NAME: %s", a);
            sets[nsets - 1].paths[sets[nsets - 1].nfiles++] = a;
        } else if (OPT("--compressors"))
            select = v;
        else if (OPT("--turbo-levels"))
            nturbo = parse_list(v, turbo_levels, MAX_LIST, -1, 99);
        else if (OPT("--threads"))
            nthreads = parse_list(v, threads, MAX_LIST, 1, 256);
        else if (OPT("--threads-level"))
            threads_level = parse_int(v, -1, 99);
        else if (OPT("--reps"))
            reps = parse_int(v, 1, MAX_REPS);
        else if (OPT("--max-file-time"))
            max_file_time = atof(v);
        else if (OPT("--zopfli"))
            zopfli_path = v;
        else if (OPT("--zopfli-iterations"))
            zopfli_iters = parse_int(v, 1, 1000000);
        else if (OPT("--zopfli-reps"))
            zopfli_reps = parse_int(v, 1, MAX_REPS);
        else if (OPT("--libdeflate-skip"))
            libdeflate_skip = v;
        else if (OPT("--tsv"))
            opt_tsv = v;
        else if (OPT("--note")) {
            if (nnotes == MAX_NOTES)
                die("too many --note%s", "");
            notes[nnotes++] = v;
        } else
            usage();
#undef OPT
    }
    if (nsets == 0)
        usage();
    for (i = 0; i < nsets; i++)
        if (sets[i].nfiles == 0)
            die("set %s has no files", sets[i].name);

    /* the compressors, in the table's order */
    add_comp("zlib-9", K_ZLIB, 9, 0, -1);
    for (i = 0; i < nturbo; i++) {
        snprintf(name, sizeof name, "turbo-%d", turbo_levels[i]);
        add_comp(name, K_TURBO, turbo_levels[i], 0, -1);
    }
    for (i = 0; i < nthreads; i++) {
        char base[32];
        snprintf(base, sizeof base, "turbo-%d", threads_level);
        snprintf(name, sizeof name, "turbo-%d-t%d", threads_level,
                 threads[i]);
        add_comp(name, K_TURBO, threads_level, threads[i], find_comp(base));
    }
    add_comp("libdeflate-12", K_LIBDEFLATE, 12, 0, -1);
    snprintf(name, sizeof name, "zopfli-i%d", zopfli_iters);
    add_comp(name, K_ZOPFLI, 0, 0, -1);
    select_comps(select);
    for (i = 0; i < ncomps; i++)
        if (comps[i].selected)
            probe(&comps[i]);

    header(stdout, argc, argv);
    for (i = 0; i < ncomps; i++)
        if (comps[i].selected && comps[i].skip[0]) {
            printf("SKIP %s: %s\n", comps[i].name, comps[i].skip);
            fprintf(stderr, "optimal_bench: SKIP %s: %s\n", comps[i].name,
                    comps[i].skip);
        }
    fflush(stdout);
    if (opt_tsv) {
        tsv = fopen(opt_tsv, "w");
        if (tsv == NULL)
            die("cannot write %s", opt_tsv);
        header(tsv, argc, argv);
        fprintf(tsv, "set\tcompressor\tbytes\tseconds\tMB_s\t"
                "ratio_vs_libdeflate12\tratio_vs_zlib9\tinput_bytes\tfiles\t"
                "runs_per_file\tcpu_s\tstatus\n");
        fflush(tsv);
    }

    for (si = 0; si < nsets; si++) {
        set_t *S = &sets[si];
        result_t res[MAX_COMPS];
        size_t input = 0;
        memset(res, 0, sizeof res);
        for (fi = 0; fi < S->nfiles; fi++) {
            const char *path = S->paths[fi];
            const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1
                                                  : path;
            size_t len;
            unsigned char *data = load(path, &len);
            /* each compressor's CRC-32 and length of this file's output */
            unsigned long crc[MAX_COMPS];
            size_t olen[MAX_COMPS];
            int ok[MAX_COMPS];
            if (data == NULL)
                die("cannot read %s", path);
            if (len > UINT_MAX / 2)
                die("file too big for one deflate() call: %s", path);
            input += len;
            for (i = 0; i < ncomps; i++) {
                comp_t *c = &comps[i];
                result_t *r = &res[i];
                double t[MAX_REPS], cpu = 0, spent = 0;
                int n = 0, nrep = c->kind == K_ZOPFLI ? zopfli_reps : reps;
                int failed = 0, varied = 0;
                char err[300];
                ok[i] = 0;
                if (!c->selected || c->skip[0])
                    continue;
                for (j = 0; j < nrep && !failed; j++) {
                    size_t outlen = 0;
                    double secs = 0, cs = 0;
                    int rc;
                    err[0] = 0;
                    switch (c->kind) {
                    case K_ZLIB:
                    case K_TURBO:
                        rc = run_zlib(c, data, len, &outlen, &secs, &cs, err,
                                      sizeof err);
                        break;
                    case K_LIBDEFLATE:
                        rc = run_libdeflate(c, data, len, &outlen, &secs,
                                            &cs, err, sizeof err);
                        break;
                    default:
                        rc = run_zopfli(c, path, len, &outlen, &secs, &cs,
                                        err, sizeof err);
                        break;
                    }
                    if (rc != 0) {
                        failed = 1;
                        printf("RUN FAILURE: %s on %s (%s): %s\n", c->name,
                               base, S->name, err);
                        fprintf(stderr, "optimal_bench: RUN FAILURE: %s on "
                                "%s (%s): %s\n", c->name, path, S->name, err);
                        break;
                    }
                    if (verify(data, len, outlen, err, sizeof err) != 0) {
                        failed = 1;
                        printf("VERIFY FAILURE: %s on %s (%s): %s\n",
                               c->name, base, S->name, err);
                        fprintf(stderr, "optimal_bench: VERIFY FAILURE: %s "
                                "on %s (%s): %s\n", c->name, path, S->name,
                                err);
                        break;
                    }
                    if (j == 0) {
                        olen[i] = outlen;
                        crc[i] = zapi_ref.crc32(zapi_ref.crc32(0, NULL, 0),
                                                obuf, (uInt)outlen);
                        if (nrep > 1) {
                            grow(&first, &firstcap, outlen + 1);
                            memcpy(first, obuf, outlen);
                        }
                    } else if (!varied && (outlen != olen[i] ||
                               memcmp(first, obuf, outlen) != 0)) {
                        varied = 1;
                        fprintf(stderr, "optimal_bench: WARNING: %s on %s: "
                                "run %d gave other bytes than the first "
                                "(%zu bytes, the first %zu)\n", c->name,
                                path, j + 1, outlen, olen[i]);
                    }
                    t[n++] = secs;
                    cpu += cs;
                    spent += secs;
                    if (spent >= max_file_time)
                        break;
                }
                if (failed) {
                    r->failed++;
                    if (!r->firsterr[0])
                        snprintf(r->firsterr, sizeof r->firsterr, "%s: %s",
                                 base, err);
                    failures++;
                    continue;
                }
                r->varied += varied;
                ok[i] = 1;
                r->bytes += olen[i];
                r->secs += bench_median(t, n);
                r->cpu += cpu / n;
                if (r->minruns == 0 || n < r->minruns)
                    r->minruns = n;
                if (n > r->maxruns)
                    r->maxruns = n;
                fprintf(stderr, "optimal_bench: [%s %d/%d, %.0f s] %-14s "
                        "%-14s %10zu -> %10zu  %2d run%s  %8.3f s\n",
                        S->name, fi + 1, S->nfiles, bench_now() - t_start, base,
                        c->name, len, olen[i], n, n == 1 ? " " : "s",
                        bench_median(t, n));
            }
            /* threaded runs against their one-thread level */
            for (i = 0; i < ncomps; i++) {
                int b = comps[i].base;
                if (b >= 0 && ok[i] && ok[b]) {
                    res[i].compared++;
                    res[i].same += olen[i] == olen[b] && crc[i] == crc[b];
                }
            }
            free(data);
        }
        print_set(tsv, S, input, res);
    }
    if (tsv) {
        fprintf(tsv, "# elapsed: %.1f s\n", bench_now() - t_start);
        fclose(tsv);
    }
    printf("\n# elapsed: %.1f s; %d failure%s\n", bench_now() - t_start, failures,
           failures == 1 ? "" : "s");
    if (failures)
        printf("FAILED: %d compressor run%s failed or did not decompress to "
               "the input (see above)\n", failures, failures == 1 ? "" : "s");
    return failures ? 2 : 0;
}
