/* zbench.c -- side-by-side speed of two zlibs linked into one program.
 *
 * The reference (zapi_ref) and the library under test (zapi_tur) are both
 * linked in, renamed (see turbo/harness/mkzobj.sh and zapi.h).  Every
 * measurement is taken for both libraries alternately inside one process:
 * for each (file, op, level) and each repetition, one library then the
 * other, the order flipping every repetition (ref,tur, tur,ref, ref,tur ...)
 * so that slow drift, frequency changes and a noisy neighbour hit both sides
 * alike.  A repetition repeats the operation until --min-time has elapsed
 * (so a 4 KB file is timed over many calls) and records the mean time per
 * call; the reported speed is the median over the repetitions.
 *
 * Ops (all on whole files held in memory):
 *   deflate            one deflate(Z_FINISH) call, zlib wrapper, deflateInit2
 *                      defaults (method 8, windowBits 15, memLevel 8, default
 *                      strategy) at each --levels level.  Speed = input bytes
 *                      per second.  identical = both libraries produced the
 *                      same compressed bytes (and the test library's stream
 *                      inflates, with the reference, back to the input).
 *   inflate-zlib       one inflate(Z_FINISH) call, whole input, whole output
 *                      buffer, of a zlib stream made by the reference at each
 *                      --ilevels level.  Speed = output bytes per second.
 *   inflate-zlib-16k   the same stream fed 16 KiB of input at a time into a
 *                      64 KiB output buffer, inflate(Z_NO_FLUSH) per call.
 *   inflate-gzip       as inflate-zlib, gzip wrapper (windowBits 31).
 *   inflate-gzip-16k   as inflate-zlib-16k, gzip wrapper.
 *   For inflate ops, identical = both libraries reproduced the input exactly.
 *
 * Output: '#' header lines (machine, compiler, libraries, parameters), then
 * one tab-separated line per (set, file, op, level, lib); see "# columns:".
 * MB = 10^6 bytes.  Exit status 2 if any output differed or was wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "zapi.h"
#include "bench_time.h"

#define IN_CHUNK  (16u * 1024u)
#define OUT_CHUNK (64u * 1024u)
#define MAX_LEVELS 10
#define MAX_REPS 1000

enum { OP_DEFLATE, OP_INF_ZLIB, OP_INF_ZLIB_16K, OP_INF_GZIP, OP_INF_GZIP_16K,
       NOPS };
static const char *const op_name[NOPS] = {
    "deflate", "inflate-zlib", "inflate-zlib-16k", "inflate-gzip",
    "inflate-gzip-16k"
};

/* ------------------------------------------------------------------ */
/* options                                                             */

static int levels[MAX_LEVELS], nlevels;
static int ilevels[MAX_LEVELS], nilevels;
static int reps = 5;
static double min_time = 0.1;
static int op_on[NOPS];
static int cpu_pin = -1;
static const char *opt_cc = NULL, *opt_cflags = NULL, *opt_uname = NULL;
static const char *opt_ref = NULL, *opt_tur = NULL;
static const char *notes[64];
static int nnotes;
static int mismatches;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "zbench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(1);
}

static void usage(void)
{
    fputs(
"usage: zbench [options] [--set=NAME] FILE... [--set=NAME FILE...]...\n"
"  --levels=1,3,6,9   deflate levels (default 1,3,6,9)\n"
"  --ilevels=6        levels of the reference-made streams for inflate ops\n"
"  --reps=5           repetitions per library (median is reported)\n"
"  --min-time=0.1     seconds: repeat the op within a repetition this long\n"
"  --ops=LIST         comma list of: deflate inflate-zlib inflate-zlib-16k\n"
"                     inflate-gzip inflate-gzip-16k, or groups: all, inflate\n"
"                     (all four inflate ops), inflate-whole, inflate-16k\n"
"  --set=NAME         set name for the files that follow (default: the\n"
"                     name of each file's directory)\n"
"  --cpu=N            pin to CPU N (default: not pinned)\n"
"  --cc=TEXT --cflags=TEXT --uname=TEXT --ref=PATH --tur=PATH --note=TEXT\n"
"                     recorded in the header only\n", stderr);
    exit(1);
}

static int parse_levels(const char *s, int *out)
{
    int n = 0;
    char *end;
    while (*s) {
        long v = strtol(s, &end, 10);
        if (end == s || v < 0 || v > 9 || n == MAX_LEVELS)
            die("bad level list near '%s'", s);
        out[n++] = (int)v;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            die("bad level list near '%s'", s);
    }
    if (n == 0)
        die("empty level list%s", "");
    return n;
}

static void parse_ops(const char *s)
{
    char buf[512], *tok, *save = NULL;
    int i;
    if (strlen(s) >= sizeof buf)
        die("--ops too long%s", "");
    strcpy(buf, s);
    memset(op_on, 0, sizeof op_on);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int hit = 0;
        for (i = 0; i < NOPS; i++)
            if (strcmp(tok, op_name[i]) == 0)
                op_on[i] = hit = 1;
        if (strcmp(tok, "all") == 0) {
            for (i = 0; i < NOPS; i++) op_on[i] = 1;
            hit = 1;
        } else if (strcmp(tok, "inflate") == 0) {
            for (i = OP_INF_ZLIB; i < NOPS; i++) op_on[i] = 1;
            hit = 1;
        } else if (strcmp(tok, "inflate-whole") == 0) {
            op_on[OP_INF_ZLIB] = op_on[OP_INF_GZIP] = hit = 1;
        } else if (strcmp(tok, "inflate-16k") == 0) {
            op_on[OP_INF_ZLIB_16K] = op_on[OP_INF_GZIP_16K] = hit = 1;
        }
        if (!hit)
            die("unknown op '%s'", tok);
    }
}

/* ------------------------------------------------------------------ */
/* timing and the operations                                           */

typedef struct {
    int op, level;
    const unsigned char *in;    /* deflate: the file; inflate: the stream */
    size_t inlen;
    unsigned char *out;         /* whole-buffer output */
    size_t outcap;
    unsigned char *win;         /* 64 KiB output window for -16k ops */
    unsigned char *sink;        /* if set, -16k ops copy their output here */
    size_t sinkcap;
} job;

/* One operation; returns 0 and the output length, or -1 on any error. */
static int run_once(const zapi *A, const job *j, size_t *outlen)
{
    z_stream s;
    int r, wbits;

    memset(&s, 0, sizeof s);
    if (j->op == OP_DEFLATE) {
        if (ZAPI_DEFLATE_INIT2(A, &s, j->level, Z_DEFLATED, 15, 8,
                               Z_DEFAULT_STRATEGY) != Z_OK)
            return -1;
        s.next_in = (Bytef *)j->in;
        s.avail_in = (uInt)j->inlen;
        s.next_out = j->out;
        s.avail_out = (uInt)j->outcap;
        r = A->deflate(&s, Z_FINISH);
        *outlen = j->outcap - s.avail_out;
        A->deflateEnd(&s);
        return r == Z_STREAM_END ? 0 : -1;
    }
    wbits = (j->op == OP_INF_GZIP || j->op == OP_INF_GZIP_16K) ? 31 : 15;
    if (ZAPI_INFLATE_INIT2(A, &s, wbits) != Z_OK)
        return -1;
    if (j->op == OP_INF_ZLIB || j->op == OP_INF_GZIP) {
        s.next_in = (Bytef *)j->in;
        s.avail_in = (uInt)j->inlen;
        s.next_out = j->out;
        s.avail_out = (uInt)j->outcap;
        r = A->inflate(&s, Z_FINISH);
        *outlen = j->outcap - s.avail_out;
        A->inflateEnd(&s);
        return r == Z_STREAM_END ? 0 : -1;
    } else {
        size_t pos = 0, total = 0, got;
        do {
            if (s.avail_in == 0 && pos < j->inlen) {
                size_t k = j->inlen - pos < IN_CHUNK ? j->inlen - pos : IN_CHUNK;
                s.next_in = (Bytef *)j->in + pos;
                s.avail_in = (uInt)k;
                pos += k;
            }
            s.next_out = j->win;
            s.avail_out = OUT_CHUNK;
            r = A->inflate(&s, Z_NO_FLUSH);
            if (r != Z_OK && r != Z_STREAM_END)
                break;
            got = OUT_CHUNK - s.avail_out;
            if (j->sink) {
                if (total + got > j->sinkcap) {
                    r = Z_BUF_ERROR;
                    break;
                }
                memcpy(j->sink + total, j->win, got);
            }
            total += got;
        } while (r != Z_STREAM_END);
        *outlen = total;
        A->inflateEnd(&s);
        return r == Z_STREAM_END ? 0 : -1;
    }
}

/* One repetition: repeat until min_time; returns seconds per call. */
static double measure(const zapi *A, const job *j, long *iters)
{
    long n = 0;
    double t0 = bench_now(), t;
    size_t ol;
    do {
        if (run_once(A, j, &ol) != 0) {
            fprintf(stderr, "zbench: %s failed during timing (%s level %d)\n",
                    A->name, op_name[j->op], j->level);
            exit(1);
        }
        n++;
        t = bench_now() - t0;
    } while (t < min_time);
    *iters = n;
    return t / (double)n;
}

/* Time job j on both libraries, alternating, and print two result lines.
 * bytes = the uncompressed size (the speed's numerator). */
static void bench_pair(const char *set, const char *file, const job *j,
                       size_t bytes, const size_t zsize[2], int identical)
{
    const zapi *lib[2] = { &zapi_ref, &zapi_tur };
    double t[2][MAX_REPS];
    long it[2][MAX_REPS], itmin;
    int r, k, i;

    for (r = 0; r < reps; r++)
        for (k = 0; k < 2; k++) {
            i = (r & 1) ? 1 - k : k;    /* ref,tur then tur,ref ... */
            t[i][r] = measure(lib[i], j, &it[i][r]);
        }
    for (i = 0; i < 2; i++) {
        double med = bench_median(t[i], reps);
        itmin = it[i][0];
        for (r = 1; r < reps; r++)
            if (it[i][r] < itmin)
                itmin = it[i][r];
        printf("%s\t%s\t%s\t%d\t%s\t%zu\t%zu\t%ld\t%.3f\t%s\t", set, file,
               op_name[j->op], j->level, i ? "tur" : "ref", bytes, zsize[i],
               itmin, (double)bytes / med / 1e6, identical ? "yes" : "no");
        for (r = 0; r < reps; r++)
            printf("%s%.3f", r ? "," : "", (double)bytes / t[i][r] / 1e6);
        putchar('\n');
    }
    fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* per file                                                            */

static unsigned char *load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        die("cannot open %s", path);
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 20;
            buf = realloc(buf, cap);
            if (!buf)
                die("out of memory reading %s", path);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f))
        die("read error on %s", path);
    fclose(f);
    *len = n;
    return buf;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory%s", "");
    return p;
}

/* Reference-made stream of data at level, zlib (wbits 15) or gzip (31). */
static unsigned char *make_stream(const unsigned char *data, size_t len,
                                  int level, int wbits, size_t *zlen)
{
    size_t cap = len + len / 8 + 1024;
    unsigned char *z = xmalloc(cap);
    z_stream s;
    memset(&s, 0, sizeof s);
    if (ZAPI_DEFLATE_INIT2(&zapi_ref, &s, level, Z_DEFLATED, wbits, 8,
                           Z_DEFAULT_STRATEGY) != Z_OK)
        die("deflateInit2 failed%s", "");
    s.next_in = (Bytef *)data;
    s.avail_in = (uInt)len;
    s.next_out = z;
    s.avail_out = (uInt)cap;
    if (zapi_ref.deflate(&s, Z_FINISH) != Z_STREAM_END)
        die("reference deflate failed%s", "");
    *zlen = cap - s.avail_out;
    zapi_ref.deflateEnd(&s);
    return z;
}

static void bench_file(const char *set, const char *path)
{
    const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len, cap, zl[2], olen[2];
    unsigned char *data = load(path, &len);
    unsigned char *out[2], *win = xmalloc(OUT_CHUNK);
    job j;
    int li, op, i, ok;

    if (len > UINT_MAX / 2)
        die("%s: too large for single-call ops", path);
    fprintf(stderr, "zbench: %s/%s (%zu bytes)\n", set, file, len);
    cap = len + len / 8 + 1024;
    out[0] = xmalloc(cap);
    out[1] = xmalloc(cap);

    if (op_on[OP_DEFLATE])
        for (li = 0; li < nlevels; li++) {
            memset(&j, 0, sizeof j);
            j.op = OP_DEFLATE;
            j.level = levels[li];
            j.in = data;
            j.inlen = len;
            j.outcap = cap;
            for (i = 0; i < 2; i++) {           /* warm-up and check */
                j.out = out[i];
                if (run_once(i ? &zapi_tur : &zapi_ref, &j, &zl[i]) != 0)
                    die("deflate failed on %s", path);
            }
            ok = zl[0] == zl[1] && memcmp(out[0], out[1], zl[0]) == 0;
            {   /* the test library's stream must decode to the input */
                job v;
                unsigned char *back = xmalloc(len + 1);
                size_t bl;
                memset(&v, 0, sizeof v);
                v.op = OP_INF_ZLIB;
                v.in = out[1];
                v.inlen = zl[1];
                v.out = back;
                v.outcap = len + 1;
                if (run_once(&zapi_ref, &v, &bl) != 0 || bl != len ||
                    memcmp(back, data, len) != 0)
                    ok = 0;
                free(back);
            }
            if (!ok) {
                mismatches++;
                fprintf(stderr, "zbench: MISMATCH deflate level %d on %s\n",
                        j.level, path);
            }
            j.out = out[0];
            bench_pair(set, file, &j, len, zl, ok);
        }

    for (li = 0; li < nilevels; li++) {
        unsigned char *zs[2] = { NULL, NULL };
        size_t zsl[2] = { 0, 0 };
        for (op = OP_INF_ZLIB; op < NOPS; op++) {
            int g = (op == OP_INF_GZIP || op == OP_INF_GZIP_16K);
            size_t zsz[2];
            if (!op_on[op])
                continue;
            if (!zs[g])
                zs[g] = make_stream(data, len, ilevels[li], g ? 31 : 15,
                                    &zsl[g]);
            memset(&j, 0, sizeof j);
            j.op = op;
            j.level = ilevels[li];
            j.in = zs[g];
            j.inlen = zsl[g];
            j.outcap = len;
            j.win = win;
            ok = 1;
            for (i = 0; i < 2; i++) {           /* warm-up and check */
                j.out = out[i];
                j.outcap = cap;
                if (op == OP_INF_ZLIB_16K || op == OP_INF_GZIP_16K) {
                    j.sink = out[i];
                    j.sinkcap = cap;
                }
                if (run_once(i ? &zapi_tur : &zapi_ref, &j, &olen[i]) != 0 ||
                    olen[i] != len || memcmp(out[i], data, len) != 0)
                    ok = 0;
            }
            if (!ok) {
                mismatches++;
                fprintf(stderr, "zbench: MISMATCH %s level %d on %s\n",
                        op_name[op], j.level, path);
            }
            j.sink = NULL;
            j.out = out[0];
            j.outcap = len;         /* exactly the size: one call must end */
            zsz[0] = zsz[1] = zsl[g];
            bench_pair(set, file, &j, len, zsz, ok);
        }
        free(zs[0]);
        free(zs[1]);
    }
    free(win);
    free(out[0]);
    free(out[1]);
    free(data);
}

/* ------------------------------------------------------------------ */
/* header                                                              */

static void print_loadavg(const char *when)
{
    char buf[256];
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = 0;
        printf("# loadavg %s: %s\n", when, buf);
    }
    if (f)
        fclose(f);
}

static void print_header(int argc, char **argv)
{
    char buf[512], tbuf[64];
    struct utsname u;
    time_t t = time(NULL);
    FILE *f;
    int i;
    const char *tv;

    printf("# zbench: zlib-turbo speed, reference vs test library\n");
    strftime(tbuf, sizeof tbuf, "%Y-%m-%d %H:%M:%S UTC", gmtime(&t));
    printf("# date: %s\n", tbuf);
    printf("# command:");
    for (i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");
    if (opt_uname)
        printf("# uname -a: %s\n", opt_uname);
    else if (uname(&u) == 0)
        printf("# uname: %s %s %s %s %s\n", u.sysname, u.nodename, u.release,
               u.version, u.machine);
    f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(buf, sizeof buf, f))
            if (strncmp(buf, "model name", 10) == 0) {
                char *p = strchr(buf, ':');
                buf[strcspn(buf, "\n")] = 0;
                printf("# cpu: %s\n", p ? p + 2 : buf);
                break;
            }
        fclose(f);
    }
    printf("# cpus online: %ld%s\n", sysconf(_SC_NPROCESSORS_ONLN),
           cpu_pin >= 0 ? " (pinned, see --cpu)" : " (not pinned)");
    print_loadavg("start");
    if (opt_cc)
        printf("# compiler: %s\n", opt_cc);
#ifdef __VERSION__
    printf("# zbench built by: %s\n", __VERSION__);
#endif
    if (opt_cflags)
        printf("# CFLAGS: %s\n", opt_cflags);
    printf("# REF: %s\n", opt_ref ? opt_ref : "(not given)");
    printf("# TURBO: %s\n", opt_tur ? opt_tur : "(not given)");
    printf("# ref zlibVersion: %s  zlibCompileFlags: 0x%lx\n",
           zapi_ref.zlibVersion(), (unsigned long)zapi_ref.zlibCompileFlags());
    tv = zapi_tur.zlibTurboVersion ? zapi_tur.zlibTurboVersion() : NULL;
    printf("# tur zlibVersion: %s  zlibCompileFlags: 0x%lx  "
           "zlibTurboVersion: %s\n", zapi_tur.zlibVersion(),
           (unsigned long)zapi_tur.zlibCompileFlags(), tv ? tv : "(none)");
    for (i = 0; i < nnotes; i++)
        printf("# %s\n", notes[i]);
    printf("# reps: %d  min-time: %g s  order: ref,tur then tur,ref "
           "alternating per rep\n", reps, min_time);
    printf("# deflate levels:");
    for (i = 0; i < nlevels; i++)
        printf("%s%d", i ? "," : " ", levels[i]);
    printf("  inflate stream levels (made by ref):");
    for (i = 0; i < nilevels; i++)
        printf("%s%d", i ? "," : " ", ilevels[i]);
    printf("\n# ops:");
    for (i = 0; i < NOPS; i++)
        if (op_on[i])
            printf(" %s", op_name[i]);
    printf("\n# speed: MB/s = 1e6 uncompressed bytes per second "
           "(deflate: input; inflate: output)\n");
    printf("# columns: set\tfile\top\tlevel\tlib\tbytes\tzbytes\t"
           "min_iters\tmedian_MBps\tidentical\trep_MBps\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *set = NULL;
    const char *v;
    double t0;
    int i, nfiles = 0;

    nlevels = parse_levels("1,3,6,9", levels);
    nilevels = parse_levels("6", ilevels);
    parse_ops("all");

    /* first pass: options (they apply wherever they appear) */
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
#define OPT(name) (strncmp(a, name "=", sizeof(name)) == 0 && \
                   (v = a + sizeof(name), 1))
        if (OPT("--levels")) nlevels = parse_levels(v, levels);
        else if (OPT("--ilevels")) nilevels = parse_levels(v, ilevels);
        else if (OPT("--reps")) {
            reps = atoi(v);
            if (reps < 1 || reps > MAX_REPS) die("bad --reps %s", v);
        } else if (OPT("--min-time")) min_time = atof(v);
        else if (OPT("--ops")) parse_ops(v);
        else if (OPT("--cpu")) cpu_pin = atoi(v);
        else if (OPT("--cc")) opt_cc = v;
        else if (OPT("--cflags")) opt_cflags = v;
        else if (OPT("--uname")) opt_uname = v;
        else if (OPT("--ref")) opt_ref = v;
        else if (OPT("--tur")) opt_tur = v;
        else if (OPT("--note")) {
            if (nnotes < 64) notes[nnotes++] = v;
        } else if (OPT("--set")) ;
        else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) usage();
        else if (a[0] == '-' && a[1] == '-') die("unknown option %s", a);
        else nfiles++;
#undef OPT
    }
    if (nfiles == 0)
        usage();
    if (cpu_pin >= 0) {
        cpu_set_t cs;
        CPU_ZERO(&cs);
        CPU_SET(cpu_pin, &cs);
        if (sched_setaffinity(0, sizeof cs, &cs) != 0)
            fprintf(stderr, "zbench: cannot pin to cpu %d: %s\n", cpu_pin,
                    strerror(errno));
    }

    print_header(argc, argv);
    t0 = bench_now();
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--set=", 6) == 0) {
            set = a + 6;
            continue;
        }
        if (a[0] == '-' && a[1] == '-')
            continue;
        if (set)
            bench_file(set, a);
        else {      /* default set: the name of the file's directory */
            char dir[4096];
            const char *slash = strrchr(a, '/'), *d;
            if (!slash)
                bench_file(".", a);
            else {
                size_t n = (size_t)(slash - a);
                if (n >= sizeof dir) n = sizeof dir - 1;
                memcpy(dir, a, n);
                dir[n] = 0;
                d = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
                bench_file(*d ? d : "/", a);
            }
        }
    }
    print_loadavg("end");
    printf("# elapsed: %.1f s\n# mismatches: %d\n", bench_now() - t0, mismatches);
    return mismatches ? 2 : 0;
}
