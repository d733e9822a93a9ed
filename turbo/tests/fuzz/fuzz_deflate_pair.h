/* fuzz_deflate_pair.h -- what the two deflate fuzzers share
 *
 * A pair of streams, one on pristine zlib 1.3.2 and one on zlib-turbo, fed
 * the same calls; the generator that plans the calls from the fuzzer's
 * bytes; zeroed memory for both; and the comparison of everything a program
 * can see after a call.  Included by fuzz_deflate.c and
 * fuzz_deflate_threads.c, after each defines FUZZ_NAME (its name, for the
 * messages) and FUZZ_STEP (an int expression: the step in progress, or 0).
 */
#ifndef FUZZ_DEFLATE_PAIR_H
#define FUZZ_DEFLATE_PAIR_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zapi.h"

/* a difference: say which, and abort() (libFuzzer keeps the input) */
#define CHECK(c, what) do { if (!(c)) { \
    fprintf(stderr, FUZZ_NAME ": difference: %s (line %d, step %d)\n", \
            what, __LINE__, (int)(FUZZ_STEP)); abort(); } } while (0)

/* a small deterministic generator, seeded from the fuzzer's bytes; at most
 * one call of it in an expression whose order C leaves open (arguments,
 * both sides of =), so that an input makes the same plan on every target */
static uint64_t rng;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return n ? (unsigned)((rng >> 11) % n) : 0;
}

typedef struct { z_stream r, t; int live; } pair;

/* Both libraries get zeroed memory.  zlib 1.3.2 itself can make output
 * depend on memory it never wrote: after deflateCopy() (which copies the
 * window up to high_water and pending_buf from pending_out on) some streams
 * send bytes of the copy's fresh allocations (found by the deflate fuzzer
 * with pristine zlib on both sides, valgrind: "uninitialised value ...
 * created by deflateCopy").  With malloc() the two sides would differ there
 * for no fault of either; with calloc() both read zeros.  zlib-turbo's
 * deflateCopy() copies all of pending_buf (fix-deflatecopy-pending), but
 * pristine's copy still reads its own fresh memory: so both sides keep
 * zeroed memory. */
static voidpf zero_alloc(voidpf opaque, uInt items, uInt size) {
    (void)opaque;
    return calloc(items, size);
}
static void zero_free(voidpf opaque, voidpf address) {
    (void)opaque;
    free(address);
}

static void same_msg(const char *a, const char *b) {
    CHECK((a == NULL) == (b == NULL), "msg set");
    if (a) CHECK(strcmp(a, b) == 0, "msg text");
}

/* the two streams' visible state after a call that returned rr and rt:
 * return codes, the in and out counters and pointers, adler, data_type,
 * msg, deflatePending() and deflateUsed() */
static void compare(pair *p, int rr, int rt) {
    unsigned pr, pt;
    int br, bt, ur, ut;
    CHECK(rr == rt, "return code");
    CHECK(p->r.avail_in == p->t.avail_in, "avail_in");
    CHECK(p->r.next_in == p->t.next_in, "next_in");
    CHECK(p->r.total_in == p->t.total_in, "total_in");
    CHECK(p->r.avail_out == p->t.avail_out, "avail_out");
    CHECK(p->r.total_out == p->t.total_out, "total_out");
    CHECK(p->r.adler == p->t.adler, "adler");
    CHECK(p->r.data_type == p->t.data_type, "data_type");
    same_msg(p->r.msg, p->t.msg);
    rr = zapi_ref.deflatePending(&p->r, &pr, &br);
    rt = zapi_tur.deflatePending(&p->t, &pt, &bt);
    CHECK(rr == rt, "deflatePending rc");
    if (rr == Z_OK) {
        CHECK(pr == pt, "deflatePending pending");
        CHECK(br == bt, "deflatePending bits");
    }
    rr = zapi_ref.deflateUsed(&p->r, &ur);
    rt = zapi_tur.deflateUsed(&p->t, &ut);
    CHECK(rr == rt, "deflateUsed rc");
    if (rr == Z_OK) CHECK(ur == ut, "deflateUsed bits");
}

#endif /* FUZZ_DEFLATE_PAIR_H */
