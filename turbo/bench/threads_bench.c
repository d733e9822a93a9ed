/* threads_bench.c -- whole-file deflate() speed of pristine zlib 1.3.2 and of
 * zlib-turbo with deflateSetThreads() at several thread counts, in one
 * process, with every output checked against pristine zlib's.
 *
 * Both libraries are linked side by side, renamed by turbo/harness/mkzobj.sh
 * (ref_*, tur_*), reached through the zapi tables (turbo/harness/zapi.h);
 * deflateSetThreads() is not in the tables, so it is taken here as the weak
 * symbol tur_deflateSetThreads.
 *
 * Implementations ("configs"): ref (pristine zlib, one thread), then tur
 * with each --threads count T (T = 1: deflateSetThreads() is not called, the
 * default; T >= 2: deflateSetThreads(strm, T) right after deflateInit2()).
 *
 * One run = one file compressed by one config: deflateInit2() (zlib
 * wrapper, windowBits 15, memLevel 8, default strategy), deflateSetThreads()
 * for T >= 2, the deflate() calls, deflateEnd(), all timed (threads start at
 * the first deflate() that uses them and are joined by deflateEnd(): both
 * are part of the cost of a threaded file).  Output modes:
 *   whole  one deflate(Z_FINISH) call, the whole file in, an output buffer of
 *          compressBound() bytes.
 *   16k    the whole file in, avail_out = 16384 per call, deflate(Z_NO_FLUSH)
 *          while input is left, then deflate(Z_FINISH) until Z_STREAM_END
 *          (as gzwrite() of the whole file then gzclose() call it); each
 *          16 KiB chunk is copied to a sink (as a write() would), which is
 *          what is checked.
 *
 * Rounds.  A block is one (set, level, mode); a round runs every block once,
 * in the order of the table, so that a whole round (and the time it takes)
 * is known after the first one.  In a block's round, for each file of the
 * set in turn, every config compresses that file once, in an order that
 * changes every round (round r starts at config r mod n and goes forward on
 * even rounds, backward on odd ones), so drift and neighbours hit all
 * configs alike; the file is read once before its runs, so the first of
 * them does not pay alone for bringing it into the caches.  A config's time for a round is the sum over the set's
 * files; its speed is the set's bytes / the median of its round times
 * (MB = 10^6 bytes of input).  With --budget=SECONDS no round is begun that
 * would end past that many seconds (by the mean round so far; at least one
 * round is run), and the output says how many rounds were done.  The CPU
 * time of each run is also summed, of all threads (getrusage(RUSAGE_SELF):
 * the TSV's cpu_median_s) and of the calling thread alone (RUSAGE_THREAD:
 * cpu_caller_median_s); their ratio bounds what more cores could give.
 *
 * Identity.  In round 0 ref runs first on every file, and its output is kept
 * as the reference; every later run (ref's included) is compared with it
 * byte for byte, outside the timed part, and its return codes and counters
 * checked.  Any difference is printed at once ("IDENTITY FAILURE") to
 * stderr and stdout, the benchmark goes on, and the exit status is 2.
 *
 * Output: '#' header lines, then at the end the table (one row per set,
 * level, mode), and with --tsv=FILE the same header and one tab-separated
 * line per (set, level, mode, config) with every round's time (see
 * "# columns:").  Progress, with the time to go, on stderr.
 *
 * Build and run: turbo/bench/threads_bench.sh (it builds this with
 * turbo/harness/pair.sh and finds the corpus).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "zapi.h"
#include "bench_time.h"

/* zlib-turbo's deflateSetThreads(), renamed tur_ by mkzobj.sh; weak, so a
 * library without it links and is refused at run time */
extern int tur_deflateSetThreads(z_streamp strm, int threads)
    __attribute__((weak));

#define CHUNK 16384u
#define MAX_LEVELS 10
#define MAX_THREADS 16          /* thread counts given */
#define MAX_CONFIGS (MAX_THREADS + 1)
#define MAX_ROUNDS 1000        /* bench_median()'s scratch */
#define MAX_SETS 32
#define MAX_NOTES 64

enum { MODE_WHOLE, MODE_16K, NMODES };
static const char *const mode_name[NMODES] = { "whole", "16k" };

typedef struct {
    const char *path, *name;    /* name: the file's basename */
    unsigned char *data;
    size_t len;
    unsigned char *ref;         /* the reference output (this block) */
    size_t reflen;
} file_t;

typedef struct {
    const char *name;
    file_t *files;
    int nfiles;
    size_t bytes;
} set_t;

static set_t sets[MAX_SETS];
static int nsets;
static int levels[MAX_LEVELS], nlevels;
static int threads[MAX_THREADS], nthreads;
static int modes[NMODES], nmodes;
static int rounds = 5;
static double budget;           /* seconds; 0: none */
static const char *opt_tsv;
static const char *notes[MAX_NOTES];
static int nnotes;
static long failures;
static volatile unsigned warm;  /* the sum of the bytes warmed up */

/* the output space shared by all runs: outbuf for whole mode, win + sink
 * for 16k mode */
static unsigned char *outbuf, *sink, *win;
static size_t outcap;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "threads_bench: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

static void usage(void)
{
    fputs(
"usage: threads_bench [options] --set=NAME FILE... [--set=NAME FILE...]...\n"
"  --levels=4,6,9        deflate levels (0-9)\n"
"  --threads=1,2,4,8,16  zlib-turbo thread counts (1-256; at most 16 counts)\n"
"  --modes=whole,16k     output modes: whole (one big output buffer), 16k\n"
"                        (avail_out = 16384 per call)\n"
"  --rounds=5            rounds (medians are reported)\n"
"  --budget=SECONDS      begin no round that would end past SECONDS\n"
"  --tsv=FILE            also write the results as TSV to FILE\n"
"  --note=TEXT           a '#' header line (repeatable)\n", stderr);
    exit(1);
}

static int parse_list(const char *s, int *out, int max, int lo, int hi,
                      const char *what)
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
        die("empty %s list", what);
    return n;
}

static void parse_modes(const char *s)
{
    char buf[64], *tok, *save = NULL;
    int i, hit;
    if (strlen(s) >= sizeof buf)
        die("--modes too long%s", "");
    strcpy(buf, s);
    nmodes = 0;
    for (tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        for (hit = 0, i = 0; i < NMODES; i++)
            if (strcmp(tok, mode_name[i]) == 0 && nmodes < NMODES) {
                modes[nmodes++] = i;
                hit = 1;
            }
        if (!hit)
            die("unknown mode '%s' (whole, 16k)", tok);
    }
    if (nmodes == 0)
        die("empty mode list%s", "");
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

/* CPU seconds of the whole process (all threads, joined ones included), or
 * of the calling thread alone */
static double cpu_now(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* ------------------------------------------------------------------ */
/* one run                                                             */

/* config c: 0 = ref, else tur with threads[c - 1] */
static const zapi *config_lib(int c) { return c ? &zapi_tur : &zapi_ref; }
static int config_threads(int c) { return c ? threads[c - 1] : 1; }

/* Compresses f with config c at level in mode; returns the time in seconds
 * (the output is left in outbuf or sink, its length in *outlen), or a
 * negative value on an error (described in err). */
static double run_once(int c, const file_t *f, int level, int mode,
                       size_t *outlen, char *err, size_t errsz)
{
    const zapi *A = config_lib(c);
    int T = config_threads(c), r;
    z_stream s;
    double t0, t1;
    size_t total = 0;

    *outlen = 0;
    memset(&s, 0, sizeof s);
    t0 = bench_now();
    r = ZAPI_DEFLATE_INIT2(A, &s, level, Z_DEFLATED, 15, 8,
                           Z_DEFAULT_STRATEGY);
    if (r != Z_OK) {
        snprintf(err, errsz, "deflateInit2 returned %d", r);
        return -1;
    }
    if (c && T >= 2) {
        r = tur_deflateSetThreads(&s, T);
        if (r != Z_OK) {
            snprintf(err, errsz, "deflateSetThreads(%d) returned %d", T, r);
            A->deflateEnd(&s);
            return -1;
        }
    }
    s.next_in = (Bytef *)f->data;
    s.avail_in = (uInt)f->len;
    if (mode == MODE_WHOLE) {
        s.next_out = outbuf;
        s.avail_out = (uInt)outcap;
        r = A->deflate(&s, Z_FINISH);
        total = outcap - s.avail_out;
        if (r != Z_STREAM_END) {
            snprintf(err, errsz, "deflate(Z_FINISH) returned %d", r);
            A->deflateEnd(&s);
            return -1;
        }
    } else {
        do {
            int flush = s.avail_in ? Z_NO_FLUSH : Z_FINISH;
            size_t got;
            s.next_out = win;
            s.avail_out = CHUNK;
            r = A->deflate(&s, flush);
            if (r != Z_OK && r != Z_STREAM_END) {
                snprintf(err, errsz, "deflate(%s) returned %d after %zu "
                         "bytes out", flush ? "Z_FINISH" : "Z_NO_FLUSH", r,
                         total);
                A->deflateEnd(&s);
                return -1;
            }
            got = CHUNK - s.avail_out;
            if (total + got > outcap) {
                snprintf(err, errsz, "more than %zu bytes out", outcap);
                A->deflateEnd(&s);
                return -1;
            }
            memcpy(sink + total, win, got);
            total += got;
        } while (r != Z_STREAM_END);
    }
    if (s.total_in != f->len || s.total_out != total || s.avail_in != 0) {
        snprintf(err, errsz, "counters: total_in %lu (of %zu), total_out %lu "
                 "(wrote %zu), avail_in %u", s.total_in, f->len, s.total_out,
                 total, s.avail_in);
        A->deflateEnd(&s);
        return -1;
    }
    r = A->deflateEnd(&s);
    t1 = bench_now();
    if (r != Z_OK) {
        snprintf(err, errsz, "deflateEnd returned %d", r);
        return -1;
    }
    *outlen = total;
    return t1 - t0;
}

static void config_label(int c, char *buf, size_t n)
{
    if (c == 0)
        snprintf(buf, n, "pristine zlib");
    else
        snprintf(buf, n, "zlib-turbo threads=%d", config_threads(c));
}

static const char *prog;       /* argv[0], for the reproducer line */

static void fail(const set_t *S, const file_t *f, int level, int mode, int c,
                 int round, const char *what)
{
    char lab[64];
    config_label(c, lab, sizeof lab);
    failures++;
    if (failures > 50) {
        if (failures == 51) {
            fputs("threads_bench: more identity failures: counted, not "
                  "printed\n", stderr);
            printf("# more identity failures: counted, not printed\n");
        }
        return;
    }
    fprintf(stderr, "threads_bench: IDENTITY FAILURE: set %s file %s "
            "level %d mode %s %s round %d: %s\n", S->name, f->path, level,
            mode_name[mode], lab, round + 1, what);
    printf("# IDENTITY FAILURE: set %s file %s level %d mode %s %s round %d: "
           "%s\n", S->name, f->path, level, mode_name[mode], lab, round + 1,
           what);
    if (failures == 1) {
        /* how to run that case alone (round 2: past the reference) */
        fprintf(stderr, "threads_bench: reproduce: %s --set=one %s "
                "--levels=%d --modes=%s --threads=%d --rounds=2\n", prog,
                f->path, level, mode_name[mode], config_threads(c));
        printf("# reproduce: %s --set=one %s --levels=%d --modes=%s "
               "--threads=%d --rounds=2\n", prog, f->path, level,
               mode_name[mode], config_threads(c));
    }
    fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* blocks: a set at one level in one mode                              */

typedef struct {
    set_t *S;
    int level, mode;
    double *t[MAX_CONFIGS];     /* per round: the set's total, seconds */
    double *cpu[MAX_CONFIGS];   /* the same in CPU seconds (all threads) */
    double *cpu1[MAX_CONFIGS];  /* ... of the calling thread alone */
    double med[MAX_CONFIGS], cpumed[MAX_CONFIGS], cpu1med[MAX_CONFIGS];
    unsigned char **ref;        /* per file: pristine zlib's output */
    size_t *reflen;
} block_t;

/* Round r of block B: every file of the set, every config on each file. */
static void run_round(block_t *B, int r)
{
    set_t *S = B->S;
    int nconf = 1 + nthreads, i, k, c, fi;
    char err[256];

    for (fi = 0; fi < S->nfiles; fi++) {
        const file_t *f = &S->files[fi];
        size_t p;
        /* read the file once first, so that the first config on it does
         * not pay alone for bringing it into the caches */
        for (p = 0; p < f->len; p += 64)
            warm += f->data[p];
        for (k = 0; k < nconf; k++) {
            size_t ol;
            const unsigned char *out;
            double t, u0, v0;
            /* round r: start at config r mod n, forward on even rounds,
             * backward on odd ones (round 0: ref first) */
            i = (r & 1) ? r - k : r + k;
            c = ((i % nconf) + nconf) % nconf;
            u0 = cpu_now(RUSAGE_SELF);
            v0 = cpu_now(RUSAGE_THREAD);
            t = run_once(c, f, B->level, B->mode, &ol, err, sizeof err);
            B->cpu1[c][r] += cpu_now(RUSAGE_THREAD) - v0;
            B->cpu[c][r] += cpu_now(RUSAGE_SELF) - u0;
            if (t < 0) {
                fail(S, f, B->level, B->mode, c, r, err);
                continue;
            }
            B->t[c][r] += t;
            out = B->mode == MODE_WHOLE ? outbuf : sink;
            if (r == 0 && c == 0) {
                /* the reference: pristine zlib's output */
                B->ref[fi] = malloc(ol ? ol : 1);
                if (B->ref[fi] == NULL)
                    die("out of memory%s", "");
                memcpy(B->ref[fi], out, ol);
                B->reflen[fi] = ol;
                continue;
            }
            if (ol != B->reflen[fi] || B->ref[fi] == NULL ||
                memcmp(out, B->ref[fi], ol) != 0) {
                size_t d = 0, m = ol < B->reflen[fi] ? ol : B->reflen[fi];
                while (B->ref[fi] && d < m && out[d] == B->ref[fi][d])
                    d++;
                snprintf(err, sizeof err, "output differs from pristine "
                         "zlib's: %zu bytes against %zu, first difference "
                         "at byte %zu", ol, B->reflen[fi], d);
                fail(S, f, B->level, B->mode, c, r, err);
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* output                                                              */

static void header(FILE *o, int argc, char **argv)
{
    struct utsname u;
    FILE *f;
    char buf[512];
    cpu_set_t cs;
    int i, s;

    fprintf(o, "# threads_bench: whole-file deflate(), pristine zlib 1.3.2 "
            "against zlib-turbo with deflateSetThreads()\n");
    if (uname(&u) == 0)
        fprintf(o, "# machine: %s %s %s %s %s\n", u.sysname, u.nodename,
                u.release, u.version, u.machine);
    f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(buf, sizeof buf, f))
            if (strncmp(buf, "model name", 10) == 0) {
                char *p = strchr(buf, ':');
                fprintf(o, "# cpu: %s", p ? p + 2 : buf);
                break;
            }
        fclose(f);
    }
    CPU_ZERO(&cs);
    fprintf(o, "# nproc: %d (cpus online %ld); thread counts above it are "
            "run all the same\n",
            sched_getaffinity(0, sizeof cs, &cs) == 0 ? CPU_COUNT(&cs) : -1,
            sysconf(_SC_NPROCESSORS_ONLN));
    f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fgets(buf, sizeof buf, f))
            fprintf(o, "# load at start: %s", buf);
        fclose(f);
    }
    fprintf(o, "# ref: zlib %s; tur: zlib %s, zlib-turbo %s\n",
            zapi_ref.zlibVersion(), zapi_tur.zlibVersion(),
            zapi_tur.zlibTurboVersion ? zapi_tur.zlibTurboVersion() : "?");
    for (i = 0; i < nnotes; i++)
        fprintf(o, "# %s\n", notes[i]);
    fprintf(o, "# driver:");
    for (i = 0; i < argc; i++)
        if (strncmp(argv[i], "--note=", 7) != 0 && argv[i][0] == '-')
            fprintf(o, " %s", argv[i]);
    fprintf(o, "\n# rounds: %d, medians; MB = 10^6 bytes of input; a "
            "round's time is the sum over the set's files of deflateInit2 + "
            "[deflateSetThreads] + deflate() + deflateEnd\n", rounds);
    for (s = 0; s < nsets; s++) {
        fprintf(o, "# set %s: %d files, %zu bytes:", sets[s].name,
                sets[s].nfiles, sets[s].bytes);
        for (i = 0; i < sets[s].nfiles; i++)
            fprintf(o, " %s", sets[s].files[i].name);
        fputc('\n', o);
    }
}

int main(int argc, char **argv)
{
    set_t *cur = NULL;
    FILE *tsv = NULL;
    block_t *blocks;
    size_t maxlen = 0;
    double start, elapsed;
    char stopped[128] = "";
    int a, s, l, m, c, i, b, r, nconf, nblocks, done = 0;

    prog = argv[0];
    levels[0] = 4, levels[1] = 6, levels[2] = 9, nlevels = 3;
    threads[0] = 1, threads[1] = 2, threads[2] = 4, threads[3] = 8,
        threads[4] = 16, nthreads = 5;
    modes[0] = MODE_WHOLE, modes[1] = MODE_16K, nmodes = 2;
    for (a = 1; a < argc; a++) {
        const char *v = strchr(argv[a], '=');
        v = v ? v + 1 : "";
#define OPT(name) (strncmp(argv[a], name "=", sizeof name) == 0)
        if (OPT("--levels"))
            nlevels = parse_list(v, levels, MAX_LEVELS, 0, 9, "level");
        else if (OPT("--threads"))
            nthreads = parse_list(v, threads, MAX_THREADS, 1, 256, "thread");
        else if (OPT("--modes"))
            parse_modes(v);
        else if (OPT("--rounds")) {
            rounds = atoi(v);
            if (rounds < 1 || rounds > MAX_ROUNDS)
                die("bad --rounds: %s", v);
        } else if (OPT("--budget")) {
            budget = atof(v);
            if (budget < 0)
                die("bad --budget: %s", v);
        } else if (OPT("--tsv"))
            opt_tsv = v;
        else if (OPT("--note")) {
            if (nnotes == MAX_NOTES)
                die("too many --note%s", "");
            notes[nnotes++] = v;
        } else if (OPT("--set")) {
            if (nsets == MAX_SETS)
                die("too many sets%s", "");
            cur = &sets[nsets++];
            cur->name = v;
            cur->files = NULL;
        } else if (argv[a][0] == '-')
            usage();
        else {
            file_t *f;
            const char *base = strrchr(argv[a], '/');
            if (cur == NULL)
                die("%s: a file before any --set=NAME", argv[a]);
            cur->files = realloc(cur->files,
                                 (size_t)(cur->nfiles + 1) * sizeof *f);
            if (cur->files == NULL)
                die("out of memory%s", "");
            f = &cur->files[cur->nfiles++];
            memset(f, 0, sizeof *f);
            f->path = argv[a];
            f->name = base ? base + 1 : argv[a];
            f->data = load(argv[a], &f->len);
            if (f->data == NULL)
                die("cannot read %s", argv[a]);
            if (f->len > 0xffffffffu)
                die("%s: over 4 GiB", argv[a]);
            cur->bytes += f->len;
            if (f->len > maxlen)
                maxlen = f->len;
        }
#undef OPT
    }
    if (nsets == 0)
        usage();
    for (s = 0; s < nsets; s++)
        if (sets[s].nfiles == 0)
            die("set %s has no files", sets[s].name);
    for (i = 0; i < nthreads; i++)
        if (threads[i] >= 2 && tur_deflateSetThreads == NULL)
            die("the library under test has no deflateSetThreads() "
                "(thread count %s)", "2 or more");
    nconf = 1 + nthreads;

    /* the output space, touched once before any timing */
    outcap = zapi_ref.compressBound((uLong)maxlen) + 64;
    outbuf = malloc(outcap);
    sink = malloc(outcap);
    win = malloc(CHUNK);
    if (outbuf == NULL || sink == NULL || win == NULL)
        die("out of memory%s", "");
    memset(outbuf, 0, outcap);
    memset(sink, 0, outcap);
    memset(win, 0, CHUNK);

    /* the blocks, in the order they run inside a round */
    nblocks = nsets * nlevels * nmodes;
    blocks = calloc((size_t)nblocks, sizeof *blocks);
    if (blocks == NULL)
        die("out of memory%s", "");
    for (b = 0, s = 0; s < nsets; s++)
        for (l = 0; l < nlevels; l++)
            for (m = 0; m < nmodes; m++, b++) {
                block_t *B = &blocks[b];
                B->S = &sets[s];
                B->level = levels[l];
                B->mode = modes[m];
                for (c = 0; c < nconf; c++) {
                    B->t[c] = calloc((size_t)rounds, sizeof(double));
                    B->cpu[c] = calloc((size_t)rounds, sizeof(double));
                    B->cpu1[c] = calloc((size_t)rounds, sizeof(double));
                    if (B->t[c] == NULL || B->cpu[c] == NULL ||
                        B->cpu1[c] == NULL)
                        die("out of memory%s", "");
                }
                B->ref = calloc((size_t)sets[s].nfiles, sizeof *B->ref);
                B->reflen = calloc((size_t)sets[s].nfiles,
                                   sizeof *B->reflen);
                if (B->ref == NULL || B->reflen == NULL)
                    die("out of memory%s", "");
            }

    header(stdout, argc, argv);
    fflush(stdout);

    /* the rounds: each round runs every block once */
    start = bench_now();
    for (r = 0; r < rounds; r++) {
        double t0 = bench_now(), per;
        for (b = 0; b < nblocks; b++) {
            fprintf(stderr, "threads_bench: [%5.0f s] round %d of %d: %s "
                    "level %d %s\n", bench_now() - start, r + 1, rounds,
                    blocks[b].S->name, blocks[b].level,
                    mode_name[blocks[b].mode]);
            run_round(&blocks[b], r);
        }
        done = r + 1;
        per = (bench_now() - start) / done;
        fprintf(stderr, "threads_bench: [%5.0f s] round %d took %.1f s",
                bench_now() - start, r + 1, bench_now() - t0);
        if (done < rounds) {
            if (budget > 0 && bench_now() - start + per > budget) {
                fprintf(stderr, "; stopping: one more round (about %.1f s) "
                        "would pass --budget=%.0f\n", per, budget);
                break;
            }
            fprintf(stderr, "; about %.0f s to go\n", per * (rounds - done));
        } else
            fputc('\n', stderr);
    }
    elapsed = bench_now() - start;
    if (done < rounds)
        snprintf(stopped, sizeof stopped, " (stopped by --budget=%.0f after "
                 "%d of %d rounds)", budget, done, rounds);

    /* the table */
    printf("\n%-20s %3s %-5s %9s |", "set", "lvl", "out", "pristine");
    for (i = 0; i < nthreads; i++)
        printf(" %6s=%-3d %6s %6s |", "T", threads[i], "/prist", "/T1");
    printf("\n%-20s %3s %-5s %9s |", "", "", "", "MB/s");
    for (i = 0; i < nthreads; i++)
        printf(" %10s %6s %6s |", "MB/s", "", "");
    putchar('\n');
    if (opt_tsv) {
        tsv = fopen(opt_tsv, "w");
        if (tsv == NULL)
            die("cannot write %s", opt_tsv);
        header(tsv, argc, argv);
        fprintf(tsv, "# columns: set level mode impl threads files bytes "
                "rounds median_s mb_per_s ratio_to_pristine ratio_to_t1 "
                "min_s max_s cpu_median_s cpu_caller_median_s round_times_s\n");
    }
    for (b = 0; b < nblocks; b++) {
        block_t *B = &blocks[b];
        set_t *S = B->S;
        double mbs[MAX_CONFIGS], t1 = 0;
        int ti1 = -1;
        for (c = 0; c < nconf; c++) {
            B->med[c] = bench_median(B->t[c], done);
            B->cpumed[c] = bench_median(B->cpu[c], done);
            B->cpu1med[c] = bench_median(B->cpu1[c], done);
            mbs[c] = (double)S->bytes / B->med[c] / 1e6;
        }
        for (i = 0; i < nthreads; i++)
            if (threads[i] == 1) {
                ti1 = i;
                t1 = mbs[i + 1];
                break;
            }
        printf("%-20s %3d %-5s %9.2f |", S->name, B->level,
               mode_name[B->mode], mbs[0]);
        for (i = 0; i < nthreads; i++) {
            printf(" %10.2f %6.3f", mbs[i + 1], mbs[i + 1] / mbs[0]);
            if (ti1 >= 0)
                printf(" %6.3f |", mbs[i + 1] / t1);
            else
                printf(" %6s |", "-");
        }
        putchar('\n');
        if (tsv)
            for (c = 0; c < nconf; c++) {
                double lo = B->t[c][0], hi = B->t[c][0];
                for (i = 1; i < done; i++) {
                    if (B->t[c][i] < lo) lo = B->t[c][i];
                    if (B->t[c][i] > hi) hi = B->t[c][i];
                }
                fprintf(tsv, "%s\t%d\t%s\t%s\t%d\t%d\t%zu\t%d\t%.6f\t"
                        "%.3f\t%.4f\t", S->name, B->level, mode_name[B->mode],
                        c ? "turbo" : "pristine", config_threads(c),
                        S->nfiles, S->bytes, done, B->med[c], mbs[c],
                        mbs[c] / mbs[0]);
                if (c && ti1 >= 0)
                    fprintf(tsv, "%.4f", mbs[c] / t1);
                else
                    fprintf(tsv, "-");
                fprintf(tsv, "\t%.6f\t%.6f\t%.3f\t%.3f\t", lo, hi,
                        B->cpumed[c], B->cpu1med[c]);
                for (i = 0; i < done; i++)
                    fprintf(tsv, "%s%.6f", i ? "," : "", B->t[c][i]);
                fputc('\n', tsv);
            }
    }
    printf("\n# elapsed: %.1f s of measurement, %d round%s%s\n", elapsed,
           done, done == 1 ? "" : "s", stopped);
    if (failures)
        printf("# IDENTITY FAILURES: %ld (see above); exit status 2\n",
               failures);
    else
        printf("# identity: every run's output equal to pristine zlib's\n");
    if (tsv) {
        fprintf(tsv, "# elapsed: %.1f s of measurement, %d rounds%s; "
                "identity failures: %ld\n", elapsed, done, stopped, failures);
        fclose(tsv);
    }
    return failures ? 2 : 0;
}
