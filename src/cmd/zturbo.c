/* zturbo.c -- a gzip-compatible command built on zlib-turbo
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 *     zturbo [-cdfhkNnqrtVv] [-1..-9 | -10..-12] [-S SUF] [-T N] [FILE...]
 *
 * Compresses and decompresses files and pipes like GNU gzip 1.12, with
 * zlib-turbo's deflate: any number of threads (-T), and still exactly the
 * bytes that zlib 1.3.2 writes on one thread at levels 1-9.  One C89 file
 * (plus POSIX; a few #ifdefs for Windows).  Build:
 *
 *     cc -O2 -I<zlib-turbo tree> zturbo.c <zlib-turbo tree>/libz.a -pthread
 *     cc -O2 -DZTURBO_PRISTINE -I<zlib tree> zturbo.c <zlib tree>/libz.a
 *
 * The second builds the same program on any zlib (no zturbo.h): no threads,
 * levels 0-9 only, and the same bytes.
 *
 * Decisions (what the documentation should say):
 * - Output.  One gzip member per input, written by deflateInit2(level,
 *   Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) and deflateSetHeader(); the input
 *   is given to deflate() in calls of exactly ZT_ICHUNK bytes (the last one
 *   shorter, with Z_FINISH; an input of a whole number of chunks ends with an
 *   empty Z_FINISH call) and the output taken ZT_OCHUNK bytes at a time, for
 *   every thread count and in both builds, so the deflate data is zlib
 *   1.3.2's for the input and level, whatever -T says.  (zlib's bytes at
 *   levels 1-9 do not depend on that slicing anyway: 1 MiB and 16 MiB calls,
 *   and Python's zlib 1.2.13 fed 1000 bytes at a time, give the same file.)
 * - Header.  FLG: FNAME when a name is stored, else 0 (never FTEXT, FHCRC,
 *   FEXTRA, FCOMMENT).  MTIME:
 *   -n: 0; -N: the input's mtime (0 for a FIFO or a device, or if the time
 *   is outside 1..2^32-1).  FNAME: -N and a named input: the name without its
 *   directory; never for standard input.  XFL: as zlib writes it (2 at -9
 *   and -10..-12, 4 at -0 and -1, else 0).  OS: always 3 (Unix), on every platform:
 *   what GNU gzip and zlib write on Unix-like systems, so `zturbo -n` output
 *   from Windows is the same file (zlib itself would write 10 there).
 * - Defaults.  Level 6.  Compression stores name and mtime (-N), as gzip
 *   does; -n for the reproducible form (the same file on every machine and
 *   thread count).  Decompression does not restore them (-n), as gzip: the
 *   output is named after the input and gets its mtime; -N restores both
 *   (the stored name without any directory, in the input's directory, never
 *   over the input itself; a stored mtime of 0 is not used).  -T 1 (one thread, as gzip; safe under make -j and xargs
 *   -P); -T 0 = one thread per online CPU.  Threads help at levels 4-12
 *   only; where they cannot be had (a library without threads, memory, the
 *   pristine build) zturbo compresses on one, silently (-v says so).
 * - Trailing data after a member (as gzip 1.12): zero bytes are ignored
 *   (exit 0); one lone byte is "unexpected end of file" (exit 1); anything
 *   else is "decompression OK, trailing garbage ignored" with exit 2 (with -c
 *   the data has been written, -q hides the message, as in gzip), but
 *   unlike gzip, when decompressing to a file zturbo does not keep the
 *   output (nor delete the input): the message is always printed, the exit
 *   status is 2.  -dcf copies data that is not gzip through unchanged.
 * - Errors: 1; warnings (file skipped, output exists, trailing garbage): 2,
 *   as gzip ("already has .gz suffix -- unchanged" leaves the status 0, as
 *   gzip 1.12).  An output file is written under a temporary name in the
 *   output's directory and renamed when complete (without -f, with link()
 *   so that an existing file is never replaced); on any error or on SIGINT,
 *   SIGTERM, SIGHUP, SIGPIPE the temporary file is removed.  The input is
 *   removed only after success, unless -k, -c or -t.  The output gets the
 *   input's permission bits (0777 part), owner and group where allowed, and
 *   access and modification times.
 * - Differences from gzip: levels 0 and 10-12, -T, --level; no -l, -L, -a,
 *   --rsyncable, GZIP environment variable; an existing output is never
 *   overwritten after a question (no prompt: use -f); digits given together
 *   are one level (-12 is level 12, not -1 -2); an output name too long for
 *   the file system is an error before compressing (gzip shortens the
 *   name); compressed data is not written to a terminal, also with -c FILE
 *   (gzip 1.12 refuses only stdin to a terminal; -f writes it).
 */

#ifndef _WIN32
#  ifndef _XOPEN_SOURCE
#    define _XOPEN_SOURCE 700
#  endif
#  ifndef _FILE_OFFSET_BITS
#    define _FILE_OFFSET_BITS 64
#  endif
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <ctype.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <fcntl.h>

#ifdef _WIN32
#  include <io.h>
#  include <process.h>
#  include <sys/utime.h>
#  define getpid _getpid
#  define fsync _commit
#  define O_NOCTTY 0
#  define O_NOFOLLOW 0
#  ifndef O_NONBLOCK
#    define O_NONBLOCK 0
#  endif
#  define lstat stat
#  define S_ISLNK(m) 0
#  ifndef S_ISREG
#    define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#  endif
#  ifndef S_ISDIR
#    define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#  endif
typedef int zt_ssize;
#else
#  include <unistd.h>
#  include <dirent.h>
#  include <sys/time.h>
#  ifndef O_BINARY
#    define O_BINARY 0
#  endif
typedef ssize_t zt_ssize;
#endif

#include "zlib.h"
#ifndef ZTURBO_PRISTINE
#  include "zturbo.h"
#endif

#ifdef ZLIB_TURBO_VERSION
#  define ZT_TURBO 1
#  define ZT_MAXLEVEL 12
#  define ZT_MAXLEVEL_S "12"
#  define ZT_VERSION ZLIB_TURBO_VERSION
#  define ZT_MAXTHREADS ZLIB_TURBO_MAX_THREADS
#  define ZT_LEVEL(n) Z_TURBO_LEVEL(n)  /* 10-12 even where zlib's most is 9 */
#else
#  define ZT_TURBO 0
#  define ZT_MAXLEVEL 9
#  define ZT_MAXLEVEL_S "9"
#  define ZT_VERSION "1.1.0"
#  define ZT_MAXTHREADS 256
#  define ZT_LEVEL(n) (n)
#endif

#define ZT_ICHUNK (4UL << 20)   /* input per deflate() call: part of the format */
#define ZT_OCHUNK (256UL << 10) /* output per deflate() call: likewise */
#define ZT_DCHUNK (256UL << 10) /* decompression buffers */
#define ZT_MT_MIN (8UL << 20)   /* compressed bytes for -d -T to use them */
#define ZT_DCHUNK_MT (16UL << 20)   /* input and output per call with -T 2
                                   or more: the threads decode ahead in
                                   what one call holds, and hand over
                                   whole blocks that fit its output */
#define ZT_OS 3                 /* the header's OS byte: Unix */

static const char *prog = "zturbo";

/* options */
static int level = 6;
static int decompress = 0, test = 0, tostdout = 0, keep = 0, force = 0;
static int savename = -1;       /* -N 1, -n 0, -1: compress 1, decompress 0 */
static int recursive = 0, verbose = 0, quiet = 0, synchronous = 0;
static int threads = 1;
static const char *suffix = ".gz";

static int status = 0;          /* 0, 1 (error) or 2 (warning) */
static unsigned char *ibuf, *obuf, *mtbuf, *mtobuf;

/* ------------------------------------------------------------------ */
/* progress: on a terminal only, after a second of work, <= 10 a second */

static struct {
    int on, shown;
    double start, last, total;
    char name[32];
} pg;

static double now_s(void)
{
#ifdef _WIN32
    return (double)time(NULL);
#else
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
#endif
}

static void progress_start(const char *name, double total)
{
    size_t n = strlen(name);
    pg.on = !quiet && isatty(2);
    pg.shown = 0;
    pg.start = pg.last = pg.on ? now_s() : 0;
    pg.total = total;
    if (n >= sizeof(pg.name))
        name += n - (sizeof(pg.name) - 1);
    strcpy(pg.name, name);
}

static void progress(double done)
{
    double t, rate;
    if (!pg.on)
        return;
    t = now_s();
    if (t - pg.start < 1.0 || (pg.shown && t - pg.last < 0.1))
        return;
    pg.last = t;
    pg.shown = 1;
    rate = done / (t - pg.start);
    if (pg.total > 0 && done <= pg.total)
        fprintf(stderr, "\r%s: %3d%%  %.1f MiB  %.1f MiB/s  %.0f s left   ",
                pg.name, (int)(100 * done / pg.total), done / 1048576,
                rate / 1048576, rate > 0 ? (pg.total - done) / rate : 0.0);
    else
        fprintf(stderr, "\r%s: %.1f MiB  %.1f MiB/s   ", pg.name,
                done / 1048576, rate / 1048576);
    fflush(stderr);
}

static void progress_clear(void)
{
    if (pg.shown) {
        fprintf(stderr, "\r%79s\r", "");
        fflush(stderr);
        pg.shown = 0;
    }
}

/* ------------------------------------------------------------------ */
/* messages */

#define M_ERROR 1       /* always shown, exit status 1 */
#define M_WARN 2        /* hidden by -q, exit status 2 */
#define M_WARN_ALWAYS 3 /* shown even with -q, exit status 2 */
#define M_NOTE 4        /* hidden by -q, status unchanged */

static void msg(int kind, const char *name, const char *fmt, ...)
{
    va_list ap;
    if (kind == M_ERROR)
        status = 1;
    else if (kind != M_NOTE && status == 0)
        status = 2;
    if (quiet && (kind == M_WARN || kind == M_NOTE))
        return;
    progress_clear();
    fprintf(stderr, "%s: ", prog);
    if (name != NULL)
        fprintf(stderr, "%s: ", name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        exit(1);
    }
    return p;
}

static char *concat(const char *a, const char *b, const char *c)
{
    char *s = (char *)xmalloc(strlen(a) + strlen(b) + strlen(c) + 1);
    strcpy(s, a);
    strcat(s, b);
    strcat(s, c);
    return s;
}

/* ------------------------------------------------------------------ */
/* the temporary output file, removed on error and on signals */

static char *volatile tmpname = NULL;
static unsigned tmpcount = 0;
#ifndef _WIN32
static sigset_t sigs_saved;
#endif

static const int catch_sigs[] = {
    SIGINT, SIGTERM,
#ifdef SIGHUP
    SIGHUP,
#endif
#ifdef SIGPIPE
    SIGPIPE,
#endif
#ifdef SIGXCPU
    SIGXCPU,
#endif
#ifdef SIGXFSZ
    SIGXFSZ,
#endif
    0
};

/* unlink(), also of a read-only file on Windows */
static int remove_file(const char *path)
{
#ifdef _WIN32
    _chmod(path, _S_IREAD | _S_IWRITE);
#endif
    return unlink(path);
}

static void on_signal(int sig)
{
    char *t = tmpname;
    if (t != NULL)
        remove_file(t);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_signals(void)
{
    int i;
    for (i = 0; catch_sigs[i]; i++)
        if (signal(catch_sigs[i], on_signal) == SIG_IGN)
            signal(catch_sigs[i], SIG_IGN);     /* stay ignored (nohup) */
}

/* no signal between creating (removing) a temporary file and noting it */
static void hold_signals(int hold)
{
#ifndef _WIN32
    if (hold) {
        sigset_t s;
        int i;
        sigemptyset(&s);
        for (i = 0; catch_sigs[i]; i++)
            sigaddset(&s, catch_sigs[i]);
        sigprocmask(SIG_BLOCK, &s, &sigs_saved);
    }
    else
        sigprocmask(SIG_SETMASK, &sigs_saved, NULL);
#else
    (void)hold;
#endif
}

static size_t dir_len(const char *path)
{
    size_t i, n = 0;
    for (i = 0; path[i]; i++)
        if (path[i] == '/'
#ifdef _WIN32
            || path[i] == '\\' || path[i] == ':'
#endif
            )
            n = i + 1;
    return n;
}

/* a new file in final's directory, open for writing; -1 after a message */
static int temp_open(const char *final)
{
    size_t d = dir_len(final);
    char *t = (char *)xmalloc(d + 64);
    int fd = -1, tries;
    memcpy(t, final, d);
    for (tries = 0; tries < 100; tries++) {
        sprintf(t + d, ".zturbo-%lu-%u-%lu.tmp", (unsigned long)getpid(),
                tmpcount++, (unsigned long)time(NULL) & 0xffffUL);
        hold_signals(1);
        fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_BINARY, 0600);
        if (fd >= 0)
            tmpname = t;
        hold_signals(0);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0) {
        msg(M_ERROR, final, "cannot create a temporary file next to it: %s",
            strerror(errno));
        free(t);
    }
    return fd;
}

static void temp_discard(int fd)
{
    char *t = tmpname;
    if (fd >= 0)
        close(fd);
    hold_signals(1);
    if (t != NULL)
        remove_file(t);
    tmpname = NULL;
    hold_signals(0);
    free(t);
}

/* gives the (closed) temporary file the name final: 0 done, else after a
   message and with the temporary file removed */
static int temp_commit(const char *final)
{
    char *t = tmpname;
    struct stat st;
    int ret = 0, err = 0, exists = 0;
    hold_signals(1);
#ifndef _WIN32
    if (!force) {
        if (link(t, final) == 0)
            unlink(t);
        else if (errno == EEXIST)
            exists = 1;
        else if (lstat(final, &st) == 0)        /* no hard links here */
            exists = 1;
        else if (rename(t, final) != 0)
            err = errno;
    }
    else if (rename(t, final) != 0)
        err = errno;
#else
    if (force && stat(final, &st) == 0 && !S_ISDIR(st.st_mode))
        remove_file(final);
    if (rename(t, final) != 0) {
        err = errno;
        if (!force && stat(final, &st) == 0)
            exists = 1;
    }
#endif
    if (exists || err)
        remove_file(t);
    tmpname = NULL;
    hold_signals(0);
    free(t);
    if (exists) {
        msg(M_WARN, final, "already exists; not overwritten (-f overwrites)");
        ret = 2;
    }
    else if (err) {
        msg(M_ERROR, final, "%s", strerror(err));
        ret = 1;
    }
    return ret;
}

/* ------------------------------------------------------------------ */
/* reading and writing */

static zt_ssize read_full(int fd, unsigned char *buf, size_t want)
{
    size_t got = 0;
    while (got < want) {
        zt_ssize n = read(fd, buf + got, (unsigned)(want - got > 1UL << 30 ?
                                                   1UL << 30 : want - got));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (zt_ssize)got;
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
    if (fd < 0)
        return 0;
    while (len > 0) {
        zt_ssize n = write(fd, buf, (unsigned)(len > 1UL << 30 ? 1UL << 30 :
                                               len));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* compression */

/* in to out as one gzip member with header hd: 0, or 1 after a message */
static int gz_compress(int in, int out, const char *iname, const char *oname,
                       gz_header *hd, double isize, double *len)
{
    z_stream s;
    int ret, flush;
    zt_ssize n;
    double done = 0, olen = 0;

    memset(&s, 0, sizeof(s));
    ret = deflateInit2(&s, ZT_LEVEL(level), Z_DEFLATED, 31, 8,
                       Z_DEFAULT_STRATEGY);
    if (ret != Z_OK) {
        msg(M_ERROR, iname, "cannot start compression: %s", ret ==
            Z_MEM_ERROR ? "out of memory" : "zlib refused the level");
        return 1;
    }
#if ZT_TURBO
    if (threads > 1 && deflateSetThreads(&s, threads) != Z_OK) {
        static int said = 0;
        if (!said && verbose)
            msg(M_NOTE, NULL, "threads not available in this zlib-turbo, "
                "compressing on one (the same bytes)");
        said = 1;
    }
#endif
    deflateSetHeader(&s, hd);
    progress_start(iname, isize);
    do {
        n = read_full(in, ibuf, ZT_ICHUNK);
        if (n < 0) {
            msg(M_ERROR, iname, "%s", strerror(errno));
            deflateEnd(&s);
            return 1;
        }
        flush = (size_t)n < ZT_ICHUNK ? Z_FINISH : Z_NO_FLUSH;
        s.next_in = ibuf;
        s.avail_in = (uInt)n;
        do {
            s.next_out = obuf;
            s.avail_out = (uInt)ZT_OCHUNK;
            ret = deflate(&s, flush);
            if (ret == Z_STREAM_ERROR) {
                msg(M_ERROR, iname, "internal error: deflate() refused");
                deflateEnd(&s);
                return 1;
            }
            if (write_all(out, obuf, ZT_OCHUNK - s.avail_out) != 0) {
                msg(M_ERROR, oname, "%s", strerror(errno));
                deflateEnd(&s);
                return 1;
            }
            olen += ZT_OCHUNK - s.avail_out;
            progress(done + (double)(n - (zt_ssize)s.avail_in));
        } while (s.avail_out == 0);
        done += (double)n;
    } while (flush != Z_FINISH);
    deflateEnd(&s);
    progress_clear();
    len[0] = done;
    len[1] = olen;
    return 0;
}

/* ------------------------------------------------------------------ */
/* decompression */

struct inbuf {
    int fd;
    unsigned char *buf;
    size_t pos, len, cap;
    double total;       /* bytes read */
    int eof;
};

/* at least want bytes buffered unless the input ends; how many are there,
   or -1 on a read error (errno set) */
static zt_ssize in_fill(struct inbuf *b, size_t want)
{
    if (b->len - b->pos >= want || b->eof)
        return (zt_ssize)(b->len - b->pos);
    if (b->pos > 0) {
        memmove(b->buf, b->buf + b->pos, b->len - b->pos);
        b->len -= b->pos;
        b->pos = 0;
    }
    while (b->len < want && !b->eof) {
        zt_ssize n = read(b->fd, b->buf + b->len, (unsigned)(b->cap - b->len));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            b->eof = 1;
        b->len += (size_t)n;
        b->total += (double)n;
    }
    return (zt_ssize)(b->len - b->pos);
}

/* copies what is left of the input to out (-dcf on data that is not gzip) */
static int copy_rest(struct inbuf *b, int out, const char *iname)
{
    zt_ssize n;
    for (;;) {
        if (write_all(out, b->buf + b->pos, b->len - b->pos) != 0) {
            msg(M_ERROR, "stdout", "%s", strerror(errno));
            return 1;
        }
        b->pos = b->len;
        n = in_fill(b, 1);
        if (n < 0) {
            msg(M_ERROR, iname, "%s", strerror(errno));
            return 1;
        }
        if (n == 0)
            return 0;
    }
}

#define D_OK 0
#define D_ERROR 1
#define D_GARBAGE 2

struct gzinfo {
    char *name;         /* the first member's file name, or NULL */
    unsigned long mtime;
};

/* in to out (-1: nowhere) for every member; D_OK, D_ERROR after a message,
   or D_GARBAGE (trailing garbage, no message yet) */
static int gz_decompress(int in, int out, const char *iname, const char *oname,
                         double isize, struct gzinfo *info, double *len)
{
    struct inbuf b;
    z_stream s;
    gz_header hd;
    char name[1024];
    int ret = D_OK, members = 0, zret, full;
    zt_ssize n;
    unsigned char *p, *ob = obuf;
    size_t osize = ZT_DCHUNK;

    memset(&s, 0, sizeof(s));
    if (inflateInit2(&s, 31) != Z_OK) {
        msg(M_ERROR, iname, "out of memory");
        return D_ERROR;
    }
    memset(&hd, 0, sizeof(hd));
    hd.name = (Bytef *)name;
    hd.name_max = sizeof(name);
    inflateGetHeader(&s, &hd);
    b.fd = in;
    b.buf = ibuf;
    b.cap = ZT_DCHUNK;
#if ZT_TURBO
    /* -T N: inflate() on N threads, given up to 16 MiB of input and of
       room per call; the same output, errors and files (see the writes
       below: what is written does not depend on the slicing).  Not for a
       file under ZT_MT_MIN: its few chunks pay less than the buffers */
    if (threads > 1 && !(isize > 0 && isize < ZT_MT_MIN)) {
        if (mtbuf == NULL)
            mtbuf = (unsigned char *)malloc(ZT_DCHUNK_MT);
        if (mtobuf == NULL)
            mtobuf = (unsigned char *)malloc(ZT_DCHUNK_MT);
        if (mtbuf != NULL && mtobuf != NULL &&
            inflateSetThreads(&s, threads) == Z_OK) {
            b.buf = mtbuf;
            b.cap = ZT_DCHUNK_MT;
            ob = mtobuf;
            osize = ZT_DCHUNK_MT;
        }
        else if (verbose)
            msg(M_NOTE, NULL, "threads not available for decompression, "
                "one thread");
    }
#endif
    b.pos = b.len = 0;
    b.total = 0;
    b.eof = 0;
    len[0] = 0;
    progress_start(iname, isize);
    for (;;) {
        /* the start of a member, or what follows the last one */
        n = in_fill(&b, 10);
        if (n < 0)
            goto read_error;
        p = b.buf + b.pos;
        if (members > 0 && n == 0)
            break;
        if (n == 1 && !(force && tostdout && out >= 0))
            goto eof;                   /* as gzip: a magic number cut */
        if (n < 2 || p[0] != 0x1f || p[1] != 0x8b) {
            if (force && tostdout && out >= 0) {
                if (copy_rest(&b, out, iname))
                    ret = D_ERROR;
                break;
            }
            if (members == 0) {
                if (n == 0)
                    goto eof;
                msg(M_ERROR, iname, "not in gzip format");
                ret = D_ERROR;
                break;
            }
            /* zero bytes to the end are padding (tar does that) */
            while (n > 0) {
                while (b.pos < b.len && b.buf[b.pos] == 0)
                    b.pos++;
                if (b.pos < b.len)
                    break;
                n = in_fill(&b, 1);
                if (n < 0)
                    goto read_error;
            }
            if (n == 0) {
                if (verbose)
                    msg(M_NOTE, iname, "decompression OK, trailing zero "
                        "bytes ignored");
                break;
            }
            ret = D_GARBAGE;
            break;
        }
        if (n >= 3 && p[2] != 8) {
            msg(M_ERROR, iname, "unknown method %d -- not supported", p[2]);
            ret = D_ERROR;
            break;
        }
        if (n >= 4 && (p[3] & 0xe0) != 0) {
            msg(M_ERROR, iname, "has flags 0x%02x -- not supported", p[3]);
            ret = D_ERROR;
            break;
        }
        if (members > 0)
            inflateReset(&s);   /* and the next header is not kept */
        full = 0;
        for (;;) {
            if (b.pos == b.len && !full) {
                n = in_fill(&b, 1);
                if (n < 0)
                    goto read_error;
                if (n == 0)
                    goto eof;
            }
            else if (!full && b.cap > ZT_DCHUNK && !b.eof &&
                     b.len - b.pos < b.cap / 2) {
                if (in_fill(&b, b.cap / 2) < 0)     /* keep the threads fed */
                    goto read_error;
            }
            s.next_in = b.buf + b.pos;
            s.avail_in = (uInt)(b.len - b.pos);
            s.next_out = ob;
            s.avail_out = (uInt)osize;
            zret = inflate(&s, Z_NO_FLUSH);
            b.pos = b.len - s.avail_in;
            full = s.avail_out == 0;    /* more may come without input */
            if (zret == Z_NEED_DICT || zret == Z_DATA_ERROR ||
                zret == Z_MEM_ERROR || zret == Z_STREAM_ERROR ||
                (zret == Z_BUF_ERROR && s.avail_in != 0)) {
                /* what the call decoded before the error is written too
                   (with -c it is seen): all zlib decoded before the error,
                   the same bytes whatever the input buffer's size */
                if (zret == Z_DATA_ERROR &&
                    write_all(out, ob, osize - s.avail_out) != 0) {
                    msg(M_ERROR, oname, "%s", strerror(errno));
                    ret = D_ERROR;
                    goto done;
                }
                break;
            }
            if (write_all(out, ob, osize - s.avail_out) != 0) {
                msg(M_ERROR, oname, "%s", strerror(errno));
                ret = D_ERROR;
                goto done;
            }
            len[0] += osize - s.avail_out;
            progress(b.total - (double)(b.len - b.pos));
            if (zret == Z_STREAM_END)
                break;
        }
        if (zret != Z_STREAM_END) {
            const char *m = s.msg != NULL ? s.msg : "?";
            if (zret == Z_MEM_ERROR)
                msg(M_ERROR, iname, "out of memory");
            else if (strcmp(m, "incorrect data check") == 0)
                msg(M_ERROR, iname, "invalid compressed data--crc error");
            else if (strcmp(m, "incorrect length check") == 0)
                msg(M_ERROR, iname, "invalid compressed data--length error");
            else
                msg(M_ERROR, iname, "invalid compressed data--format "
                    "violated (%s)", m);
            ret = D_ERROR;
            break;
        }
        if (members == 0 && hd.done == 1) {
            if (hd.name != Z_NULL && memchr(name, 0, sizeof(name)) != NULL) {
                info->name = (char *)xmalloc(strlen(name) + 1);
                strcpy(info->name, name);
            }
            info->mtime = hd.time;
        }
        members++;
    }
    goto done;
eof:
    msg(M_ERROR, iname, "unexpected end of file");
    ret = D_ERROR;
    goto done;
read_error:
    msg(M_ERROR, iname, "%s", strerror(errno));
    ret = D_ERROR;
done:
    len[1] = b.total;
    inflateEnd(&s);
    progress_clear();
    return ret;
}

/* ------------------------------------------------------------------ */
/* names */

static const char *const known_suffixes[] = {
    ".gz", ".z", "-gz", "-z", "_z", ".tgz", ".taz", NULL
};

/* the length of name's compressed-file suffix (case ignored), or 0 */
static size_t suffix_len(const char *name, const char *suf)
{
    size_t n = strlen(name), k = strlen(suf), i;
    if (k == 0 || n <= k || name[n - k - 1] == '/')
        return 0;
    for (i = 0; i < k; i++)
        if (tolower((unsigned char)name[n - k + i]) !=
            tolower((unsigned char)suf[i]))
            return 0;
    return k;
}

static size_t known_suffix(const char *name, const char **which)
{
    size_t k;
    int i;
    if ((k = suffix_len(name, suffix)) != 0) {
        *which = suffix;
        return k;
    }
    for (i = 0; known_suffixes[i] != NULL; i++)
        if ((k = suffix_len(name, known_suffixes[i])) != 0) {
            *which = known_suffixes[i];
            return k;
        }
    return 0;
}

/* the decompressed name of name, or NULL */
static char *strip_suffix(const char *name)
{
    const char *which;
    size_t k = known_suffix(name, &which), n = strlen(name);
    char *o;
    if (k == 0)
        return NULL;
    o = (char *)xmalloc(n + 5);
    memcpy(o, name, n - k);
    o[n - k] = 0;
    if (strcmp(which, ".tgz") == 0 || strcmp(which, ".taz") == 0)
        strcat(o, ".tar");
    return o;
}

static const char *base_name(const char *path)
{
    return path + dir_len(path);
}

/* ------------------------------------------------------------------ */
/* metadata */

static void copy_meta(int fd, const struct stat *st, int set_mtime,
                      unsigned long mtime)
{
#ifndef _WIN32
    struct timespec ts[2];
    if (fchown(fd, (uid_t)-1, st->st_gid) != 0) {
        /* not in that group: keep ours */
    }
    if (fchmod(fd, st->st_mode & 0777) != 0) {
        /* a file system without modes */
    }
    if (fchown(fd, st->st_uid, (gid_t)-1) != 0) {
        /* only root may */
    }
#  if defined(__APPLE__)
    ts[0] = st->st_atimespec;
    ts[1] = st->st_mtimespec;
#  else
    ts[0] = st->st_atim;
    ts[1] = st->st_mtim;
#  endif
    if (set_mtime) {
        ts[1].tv_sec = (time_t)mtime;
        ts[1].tv_nsec = 0;
    }
    futimens(fd, ts);
#else
    (void)fd;
    (void)st;
    (void)set_mtime;
    (void)mtime;
#endif
}

static void copy_meta_closed(const char *path, const struct stat *st,
                             int set_mtime, unsigned long mtime)
{
#ifdef _WIN32
    struct _utimbuf ut;
    ut.actime = st->st_atime;
    ut.modtime = set_mtime ? (time_t)mtime : st->st_mtime;
    _utime(path, &ut);
    _chmod(path, st->st_mode & (_S_IREAD | _S_IWRITE));
#else
    (void)path;
    (void)st;
    (void)set_mtime;
    (void)mtime;
#endif
}

/* -v: len[0] bytes uncompressed, len[1] compressed */
static void show_ratio(const char *name, const double *len,
                       const char *what, const char *oname)
{
    double r = len[0] > 0 ? 100 * (len[0] - len[1]) / len[0] : 0;
    if (!verbose || quiet)
        return;
    progress_clear();
    if (what != NULL)
        fprintf(stderr, "%s:\t%5.1f%% -- %s %s\n", name, r, what, oname);
    else
        fprintf(stderr, "%s:\t%5.1f%%\n", name, r);
}

/* ------------------------------------------------------------------ */
/* one input */

static void set_binary(int fd)
{
#ifdef _WIN32
    _setmode(fd, O_BINARY);
#else
    (void)fd;
#endif
}

static void treat_stdin(void)
{
    struct stat st;
    struct gzinfo info;
    double len[2];
    int ret;

    set_binary(0);
    set_binary(1);
    if (decompress || test) {
        if (!force && isatty(0)) {
            msg(M_ERROR, NULL, "compressed data not read from a terminal. "
                "Use -f to force decompression.");
            return;
        }
        info.name = NULL;
        ret = gz_decompress(0, test ? -1 : 1, "stdin", "stdout",
                            fstat(0, &st) == 0 && S_ISREG(st.st_mode) ?
                            (double)st.st_size : -1, &info, len);
        free(info.name);
        if (ret == D_GARBAGE)
            msg(M_WARN, "stdin", "decompression OK, trailing garbage "
                "ignored");
        else if (ret == D_OK && test && verbose && !quiet)
            fprintf(stderr, "stdin:\t OK\n");
        else if (ret == D_OK && !test)
            show_ratio("stdin", len, NULL, NULL);
    }
    else {
        gz_header hd;
        memset(&hd, 0, sizeof(hd));
        hd.os = ZT_OS;
        if (fstat(0, &st) != 0)
            st.st_mode = 0;
        if (savename != 0 && S_ISREG(st.st_mode) && st.st_mtime > 0 &&
            (double)st.st_mtime <= 4294967295.0)
            hd.time = (uLong)st.st_mtime;
        if (gz_compress(0, 1, "stdin", "stdout", &hd, S_ISREG(st.st_mode) ?
                        (double)st.st_size : -1, len) == 0)
            show_ratio("stdin", len, NULL, NULL);
    }
}

static void treat_dir(const char *dir);

static void treat_file(const char *name, int in_dir)
{
    struct stat st, fst;
    struct gzinfo info;
    gz_header hd;
    char *found = NULL, *oname = NULL, *final = NULL;
    const char *which;
    int in = -1, out = -1, ret;
    double len[2];

    info.name = NULL;
    info.mtime = 0;
    if (strcmp(name, "-") == 0 && !in_dir) {
        treat_stdin();
        return;
    }
    if (lstat(name, &st) != 0) {
        int e = errno, i;
        if (e == ENOENT && (decompress || test) && !in_dir)
            for (i = -1; known_suffixes[i < 0 ? 0 : i] != NULL; i++) {
                found = concat(name, i < 0 ? suffix : known_suffixes[i], "");
                if (lstat(found, &st) == 0)
                    break;
                free(found);
                found = NULL;
            }
        if (found == NULL) {
            msg(M_ERROR, name, "%s", strerror(e));
            return;
        }
        name = found;
    }
    /* as gzip: -f, -c and -t (which reads like -c) follow a symbolic link */
    if (S_ISLNK(st.st_mode)) {
        if (!force && !tostdout && !test) {
            /* an error (exit status 1), as gzip 1.12's open() of it with
               O_NOFOLLOW fails; the link is left alone */
            msg(M_ERROR, name, "is a symbolic link, not read (-f or -c "
                "follows it)");
            goto end;
        }
        if (stat(name, &st) != 0) {
            msg(M_ERROR, name, "%s", strerror(errno));
            goto end;
        }
    }
    if (S_ISDIR(st.st_mode)) {
        if (recursive)
            treat_dir(name);
        else
            msg(M_WARN, name, "is a directory -- ignored");
        goto end;
    }
    /* as gzip: -c and -t read any other file (a FIFO, a device); without
       them only a regular file is replaced */
    if (!S_ISREG(st.st_mode) && !tostdout && !test) {
        msg(M_WARN, name, "is not a directory or a regular file -- ignored");
        goto end;
    }
#ifndef _WIN32
    /* as gzip, when the output is a file: a set-user-ID or set-group-ID
       file is refused even with -f (its output would not keep the bit), a
       file with the sticky bit unless -f */
    if (!tostdout && !test) {
        if (st.st_mode & S_ISUID) {
            msg(M_WARN, name, "is set-user-ID on execution -- ignored");
            goto end;
        }
        if (st.st_mode & S_ISGID) {
            msg(M_WARN, name, "is set-group-ID on execution -- ignored");
            goto end;
        }
        if (!force && (st.st_mode & S_ISVTX)) {
            msg(M_WARN, name, "has the sticky bit set -- ignored (-f "
                "overrides)");
            goto end;
        }
    }
#endif
    if (!tostdout && !test && !force && st.st_nlink > 1) {
        msg(M_WARN, name, "has %lu other link%s -- unchanged",
            (unsigned long)st.st_nlink - 1, st.st_nlink > 2 ? "s" : "");
        goto end;
    }

    /* the output's name */
    if (!tostdout && !test) {
        if (!decompress) {
            if (!force && known_suffix(name, &which)) {
                if (verbose || !in_dir)
                    msg(M_NOTE, name, "already has %s suffix -- unchanged",
                        which);
                goto end;
            }
            oname = concat(name, suffix, "");
        }
        else {
            oname = strip_suffix(name);
            if (oname == NULL) {
                if (!in_dir)
                    msg(M_WARN, name, "unknown suffix -- ignored");
                else if (verbose)
                    msg(M_NOTE, name, "unknown suffix -- ignored");
                goto end;
            }
        }
        if (lstat(oname, &fst) != 0) {
            /* gzip shortens a name too long for the file system; zturbo
               stops here, before compressing, and keeps the input */
            if (errno == ENAMETOOLONG) {
                msg(M_ERROR, oname, "%s (zturbo does not shorten names)",
                    strerror(errno));
                goto end;
            }
        }
        else if (!force && !(decompress && savename == 1)) {
            msg(M_WARN, oname, "already exists; not overwritten (-f "
                "overwrites)");
            goto end;
        }
    }

    /* O_NONBLOCK, as gzip: a FIFO without a writer gives an end of file
       instead of a hang in open(); cleared below for the reads */
    in = open(name, O_RDONLY | O_BINARY | O_NOCTTY | O_NONBLOCK |
              (force || tostdout || test ? 0 : O_NOFOLLOW));
    if (in < 0) {
        msg(M_ERROR, name, "%s", strerror(errno));
        goto end;
    }
#ifndef _WIN32
    {
        int fl = fcntl(in, F_GETFL);
        if (fl != -1)
            fcntl(in, F_SETFL, fl & ~O_NONBLOCK);
    }
#endif
    if (fstat(in, &fst) != 0 || S_ISDIR(fst.st_mode) ||
        (!S_ISREG(fst.st_mode) && !tostdout && !test)) {
        msg(M_WARN, name, "is not a regular file (it changed) -- ignored");
        goto end;
    }
    st = fst;
    if (tostdout)
        set_binary(out = 1);
    else if (!test && (out = temp_open(oname)) < 0)
        goto end;

    if (decompress || test) {
        ret = gz_decompress(in, out, name, tostdout ? "stdout" : oname,
                            S_ISREG(st.st_mode) ? (double)st.st_size : -1,
                            &info, len);
        if (ret == D_GARBAGE) {
            if (tostdout || test)
                msg(M_WARN, name, "decompression OK, trailing garbage "
                    "ignored");
            else
                msg(M_WARN_ALWAYS, name, "trailing garbage after the gzip "
                    "data -- %s not written, input kept (-c writes the "
                    "data, as gzip does)", oname);
        }
    }
    else {
        memset(&hd, 0, sizeof(hd));
        hd.os = ZT_OS;
        if (savename != 0) {
            hd.name = (Bytef *)base_name(name);
            /* as gzip: the mtime of a regular file only (0 for a FIFO) */
            if (S_ISREG(st.st_mode) && st.st_mtime > 0 &&
                (double)st.st_mtime <= 4294967295.0)
                hd.time = (uLong)st.st_mtime;
        }
        ret = gz_compress(in, out, name, tostdout ? "stdout" : oname, &hd,
                          S_ISREG(st.st_mode) ? (double)st.st_size : -1,
                          len);
    }
    if (test) {
        if (ret == D_OK && verbose && !quiet)
            fprintf(stderr, "%s:\t OK\n", name);
        goto end;
    }
    if (tostdout) {
        if (ret == D_OK)
            show_ratio(name, len, NULL, NULL);
        out = -1;
        goto end;
    }
    if (ret != D_OK) {
        temp_discard(out);
        out = -1;
        goto end;
    }

    /* the output is complete: its metadata, then its name */
    final = oname;
    if (decompress && savename == 1 && info.name != NULL) {
        const char *b = base_name(info.name);
        if (*b && strcmp(b, ".") != 0 && strcmp(b, "..") != 0) {
            char *dir = concat(name, "", "");
            dir[dir_len(name)] = 0;
            final = concat(dir, b, "");
            free(dir);
            if (strcmp(final, name) == 0) {     /* never over the input */
                free(final);
                final = oname;
            }
        }
    }
    copy_meta(out, &st, decompress && savename == 1 && info.mtime != 0,
              info.mtime);
    if (synchronous && fsync(out) != 0) {
        msg(M_ERROR, final, "%s", strerror(errno));
        temp_discard(out);
        out = -1;
        goto end;
    }
    ret = close(out);
    out = -1;
    if (ret != 0) {
        msg(M_ERROR, final, "%s", strerror(errno));
        temp_discard(-1);
        goto end;
    }
    copy_meta_closed(tmpname, &st, decompress && savename == 1 &&
                     info.mtime != 0, info.mtime);
    if (temp_commit(final) != 0)
        goto end;
    show_ratio(name, len, keep ? "created" : "replaced with", final);
    if (!keep) {
        close(in);
        in = -1;
        if (remove_file(name) != 0)
            msg(M_WARN, name, "cannot remove it: %s", strerror(errno));
    }
end:
    if (in >= 0)
        close(in);
    if (final != oname)
        free(final);
    free(oname);
    free(found);
    free(info.name);
}

#ifndef _WIN32
static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}
#endif

static void treat_dir(const char *dir)
{
#ifdef _WIN32
    msg(M_WARN, dir, "is a directory -- ignored (no -r on Windows)");
#else
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, max = 0, i;
    const char *sep = dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/";

    if (d == NULL) {
        msg(M_ERROR, dir, "%s", strerror(errno));
        return;
    }
    /* all names first: the files made meanwhile are not visited */
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == max) {
            char **more;
            max = max ? 2 * max : 64;
            more = (char **)xmalloc(max * sizeof(char *));
            if (n)
                memcpy(more, names, n * sizeof(char *));
            free(names);
            names = more;
        }
        names[n++] = concat(dir, sep, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof(char *), name_cmp);
    for (i = 0; i < n; i++) {
        treat_file(names[i], 1);
        free(names[i]);
    }
    free(names);
#endif
}

/* ------------------------------------------------------------------ */
/* options */

static const char *const help[] = {
"  -c, --stdout       write on standard output, keep original files unchanged\n",
"  -d, --decompress   decompress\n",
"  -f, --force        overwrite output files, follow links, copy non-gzip data\n"
"                     through with -dc\n",
"  -h, --help         give this help\n",
"  -k, --keep         keep (don't delete) input files\n",
"  -n, --no-name      do not save or restore the original name and timestamp\n"
"                     (compressing: the same output on every machine)\n",
"  -N, --name         save or restore the original name and timestamp\n"
"                     (the default when compressing)\n",
"  -q, --quiet        suppress all warnings\n",
"  -r, --recursive    operate recursively on directories\n",
"  -S, --suffix=SUF   use suffix SUF on compressed files (default .gz)\n",
"      --synchronous  fsync each output file before giving it its name\n",
"  -t, --test         test compressed file integrity\n",
"  -T, --threads=N    compress and decompress with N threads (default 1;\n"
"                     0: one per CPU);\n"
"                     the output is the same for every N\n",
"  -v, --verbose      verbose mode\n",
"  -V, --version      display version number\n",
"  -1, --fast         compress faster\n",
"  -9, --best         compress better\n",
"      --level=N      compression level N, 0-" ZT_MAXLEVEL_S " (default 6)\n",
#if ZT_TURBO
"  -10, -11, -12      zlib-turbo's optimal levels: smaller than -9, slower;\n"
"                     valid gzip, but not zlib's bytes (zlib has no such\n"
"                     levels)\n",
#endif
"\nWith no FILE, or when FILE is -, read standard input.\n",
"Exit status: 0 success, 1 error, 2 warning.\n",
NULL
};

static void usage(void)
{
    int i;
    printf("Usage: %s [OPTION]... [FILE]...\n"
           "Compress or decompress FILEs like gzip (by default, compress "
           "FILEs in place),\nwith zlib%s.\n\n", prog,
           ZT_TURBO ? "-turbo " ZT_VERSION : " (without zlib-turbo)");
    for (i = 0; help[i] != NULL; i++)
        fputs(help[i], stdout);
}

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
    exit(1);
}

static void set_level(const char *s)
{
    const char *p = s;
    long v = 0;
    if (!*p)
        usage_error("invalid level '%s'", s);
    for (; *p; p++) {
        if (!isdigit((unsigned char)*p) || v > 1000)
            usage_error("invalid level '%s'", s);
        v = 10 * v + (*p - '0');
    }
    if (v > ZT_MAXLEVEL) {
        if (!ZT_TURBO && v <= 12)
            usage_error("level %s needs zlib-turbo (this zturbo is built "
                        "on zlib without it)", s);
        usage_error("invalid level '%s' (0-" ZT_MAXLEVEL_S ")", s);
    }
    level = (int)v;
}

static void set_threads(const char *s)
{
    const char *p = s;
    long v = 0;
    if (!*p)
        usage_error("invalid thread count '%s'", s);
    for (; *p; p++) {
        if (!isdigit((unsigned char)*p) || v > 100000)
            usage_error("invalid thread count '%s'", s);
        v = 10 * v + (*p - '0');
    }
    if (v > ZT_MAXTHREADS)
        usage_error("too many threads: '%s'", s);
    if (v == 0) {
#if defined(_WIN32)
        const char *e = getenv("NUMBER_OF_PROCESSORS");
        v = e != NULL ? atol(e) : 1;
#elif defined(_SC_NPROCESSORS_ONLN)
        v = sysconf(_SC_NPROCESSORS_ONLN);
#else
        v = 1;
#endif
        if (v < 1)
            v = 1;
        if (v > ZT_MAXTHREADS)
            v = ZT_MAXTHREADS;
    }
    threads = (int)v;
}

static const struct {
    const char *name;
    int arg;
    int key;
} longopts[] = {
    {"best", 0, '9'}, {"decompress", 0, 'd'}, {"fast", 0, '1'},
    {"force", 0, 'f'}, {"help", 0, 'h'}, {"keep", 0, 'k'},
    {"level", 1, 'L'}, {"name", 0, 'N'}, {"no-name", 0, 'n'},
    {"quiet", 0, 'q'}, {"recursive", 0, 'r'}, {"silent", 0, 'q'},
    {"stdout", 0, 'c'}, {"suffix", 1, 'S'}, {"synchronous", 0, 'Y'},
    {"test", 0, 't'}, {"threads", 1, 'T'}, {"to-stdout", 0, 'c'},
    {"uncompress", 0, 'd'}, {"verbose", 0, 'v'}, {"version", 0, 'V'},
    {NULL, 0, 0}
};

static void version(void)
{
#if ZT_TURBO
    printf("zturbo %s (zlib-turbo %s, zlib %s interface)\n", ZT_VERSION,
           zlibTurboVersion(), zlibVersion());
    printf("Output: zlib 1.3.2's deflate bytes at levels 0-9, the same for "
           "every thread count.\n");
#else
    printf("zturbo %s (built on zlib %s without zlib-turbo: no -T, no "
           "levels 10-12)\n", ZT_VERSION, zlibVersion());
#endif
}

static void option(int key, const char *arg)
{
    switch (key) {
    case 'c': tostdout = 1; break;
    case 'd': decompress = 1; break;
    case 'f': force = 1; break;
    case 'h': usage(); exit(0);
    case 'k': keep = 1; break;
    case 'L': set_level(arg); break;
    case 'N': savename = 1; break;
    case 'n': savename = 0; break;
    case 'q': quiet = 1; verbose = 0; break;
    case 'r': recursive = 1; break;
    case 'S':
        if (arg == NULL || *arg == 0 || strchr(arg, '/') != NULL)
            usage_error("invalid suffix '%s'", arg);
        suffix = arg;
        break;
    case 't': test = 1; break;
    case 'T': set_threads(arg); break;
    case 'v': verbose++; quiet = 0; break;
    case 'V': version(); exit(0);
    case 'Y': synchronous = 1; break;
    case '1': level = 1; break;
    case '9': level = 9; break;
    }
}

/* parses argv; the file names are left in argv[1..], their count returned */
static int parse(int argc, char **argv)
{
    int i, nfiles = 0, done = 0;
    for (i = 1; i < argc; i++) {
        char *a = argv[i];
        if (done || a[0] != '-' || a[1] == 0) {
            argv[++nfiles] = a;
            continue;
        }
        if (a[1] == '-') {
            size_t len;
            int j, hit = -1;
            char *eq;
            if (a[2] == 0) {
                done = 1;
                continue;
            }
            eq = strchr(a + 2, '=');
            len = eq != NULL ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            for (j = 0; longopts[j].name != NULL; j++)
                if (strncmp(longopts[j].name, a + 2, len) == 0) {
                    if (strlen(longopts[j].name) == len) {
                        hit = j;
                        break;
                    }
                    if (hit >= 0 && longopts[hit].key != longopts[j].key)
                        usage_error("option '%s' is ambiguous", a);
                    hit = j;
                }
            if (hit < 0)
                usage_error("unrecognized option '%s'", a);
            if (longopts[hit].arg) {
                const char *v = eq != NULL ? eq + 1 : NULL;
                if (v == NULL) {
                    if (i + 1 >= argc)
                        usage_error("option '%s' requires an argument", a);
                    v = argv[++i];
                }
                option(longopts[hit].key, v);
            }
            else {
                if (eq != NULL)
                    usage_error("option '%s' doesn't allow an argument", a);
                option(longopts[hit].key, NULL);
            }
            continue;
        }
        /* a cluster of short options: -9kT4, -dc, -12 */
        for (a++; *a; a++) {
            char opt[2];
            if (isdigit((unsigned char)*a)) {
                char num[8];
                size_t k = 0;
                while (isdigit((unsigned char)a[k]) && k < sizeof(num) - 1) {
                    num[k] = a[k];
                    k++;
                }
                num[k] = 0;
                if (isdigit((unsigned char)a[k]))
                    usage_error("invalid level '%s'", a);
                set_level(num);
                a += k - 1;
                continue;
            }
            opt[0] = *a;
            opt[1] = 0;
            if (*a == 'S' || *a == 'T') {
                const char *v = a + 1;
                if (*v == 0) {
                    if (i + 1 >= argc)
                        usage_error("option requires an argument -- '%s'",
                                    opt);
                    v = argv[++i];
                }
                option(*a == 'S' ? 'S' : 'T', v);
                break;
            }
            if (strchr("cdfhkNnqrtvV", *a) == NULL)
                usage_error("invalid option -- '%s'", opt);
            option(*a, NULL);
        }
    }
    return nfiles;
}

int main(int argc, char **argv)
{
    int nfiles, i;

    nfiles = parse(argc, argv);
    if (!ZT_TURBO && threads > 1 && verbose)
        msg(M_NOTE, NULL, "built without zlib-turbo: -T ignored, one thread");
    if (savename < 0)
        savename = decompress || test ? 0 : 1;
    if (test)
        decompress = 1;
    ibuf = (unsigned char *)xmalloc(ZT_ICHUNK > ZT_DCHUNK ? ZT_ICHUNK :
                                    ZT_DCHUNK);
    obuf = (unsigned char *)xmalloc(ZT_OCHUNK > ZT_DCHUNK ? ZT_OCHUNK :
                                    ZT_DCHUNK);
    if (!decompress && !force && (tostdout || nfiles == 0) && isatty(1)) {
        msg(M_ERROR, NULL, "compressed data not written to a terminal. "
            "Use -f to force compression.");
        fprintf(stderr, "For help, type: %s -h\n", prog);
        return 1;
    }
    catch_signals();
    if (nfiles == 0)
        treat_stdin();
    for (i = 1; i <= nfiles; i++)
        treat_file(argv[i], 0);
    free(ibuf);
    free(mtbuf);
    free(obuf);
    free(mtobuf);
    return status;
}
