/* inftrees_same.c -- inflate_table() of two zlibs gives the same tables.
 *
 * Linked (turbo/harness/pair.sh) with pristine zlib 1.3.2 as ref_* and
 * zlib-turbo as tur_*, both renamed whole, internals included.  For many
 * sets of code lengths, each given to both libraries' inflate_table() with
 * the same type and root bits, checks that the return value, the root bits
 * returned, the number of entries used and every entry of the tables are
 * the same (a set whose tables fit in one library's ENOUGH bound only --
 * pristine's are for roots 9 and 6, zlib-turbo's for 10 and 8 -- is
 * counted, not compared).  The sets: every kind of type (CODES 19 symbols, root 7; LENS
 * 257..288 symbols, root 9 and 10; DISTS 1..32 symbols, root 5, 6 and 8),
 * complete codes of random shapes (leaves split at random, or the deepest
 * leaf split to make codes of 15 bits and sub-tables), on random symbols or
 * packed at the start or end, with runs of unused symbols; one code of one
 * bit (incomplete, allowed), no code, and damaged sets (a length changed by
 * one, a code added or removed: over-subscribed and incomplete).  The
 * libraries' roots for inflate() differ (9/6 against 10/8), so both are
 * given the same root here: the tables must then be entry for entry equal.
 * Fails too when fewer than half of the sets are valid codes.
 *
 * Usage: inftrees_same [ITERATIONS [SEED]]   (default 200000, 1)
 * Prints the number of sets of each outcome; exits 0 when all are the same,
 * 1 at the first difference (which it prints).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zlib.h"

/* inftrees.h's types, repeated (the header is internal to each tree):
   zlib 1.3.2's entry, and zlib-turbo's, the same fields with bits first
   (inflate-entry-word), so entries are compared field by field */
typedef struct {
    unsigned char op;
    unsigned char bits;
    unsigned short val;
} code;
typedef struct {
    unsigned char bits;
    unsigned char op;
    unsigned short val;
} tcode;
typedef enum { CODES, LENS, DISTS } codetype;

int ref_inflate_table(codetype type, unsigned short *lens, unsigned codes,
                      code **table, unsigned *bits, unsigned short *work);
int tur_inflate_table(codetype type, unsigned short *lens, unsigned codes,
                      tcode **table, unsigned *bits, unsigned short *work);

#define SPACE 4096              /* more entries than any table needs */

static unsigned long rnd_state;

/* rnd(): a pseudo-random number 0..n-1 (n > 0) */
static unsigned rnd(unsigned n)
{
    rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
    return (unsigned)((rnd_state >> 33) % n);
}

/* complete(): writes into len[0..n-1] the lengths of a complete prefix code
   of n leaves (n >= 2), none longer than maxlen (n <= 2^maxlen): a leaf is
   split in two until there are n; deep makes it split its deepest leaf
   (long codes) when it can, else a random one */
static void complete(unsigned *len, unsigned n, unsigned maxlen, int deep)
{
    unsigned k = 1, i, pick;

    len[0] = 0;
    while (k < n) {
        pick = rnd(k);
        if (deep && rnd(4) != 0)
            for (i = 0; i < k; i++)
                if (len[i] < maxlen && (len[pick] >= maxlen ||
                                        len[i] > len[pick]))
                    pick = i;
        if (len[pick] >= maxlen) {
            for (i = 0; i < k && len[i] >= maxlen; i++)
                ;
            pick = i;           /* n <= 2^maxlen: one is left */
        }
        len[pick]++;
        len[k++] = len[pick];
    }
}

/* differ(): the first of the SPACE entries of r and t whose fields differ,
   or SPACE when none does */
static unsigned differ(const code *r, const tcode *t)
{
    unsigned i;

    for (i = 0; i < SPACE; i++)
        if (r[i].op != t[i].op || r[i].bits != t[i].bits ||
            r[i].val != t[i].val)
            break;
    return i;
}

/* one(): gives lens to both libraries; returns the outcome (0 success, -1
   invalid, 1 not enough), or exits on a difference */
static int one(codetype type, unsigned short *lens, unsigned codes,
               unsigned root)
{
    static code rt[SPACE];
    static tcode tt[SPACE];
    static unsigned short rw[320], tw[320];
    unsigned short rl[320], tl[320];
    code *rn = rt;
    tcode *tn = tt;
    unsigned rb = root, tb = root, i;
    int rr, tr;

    memset(rt, 0xa5, sizeof(rt));
    memset(tt, 0xa5, sizeof(tt));
    memcpy(rl, lens, codes * sizeof(short));
    memcpy(tl, lens, codes * sizeof(short));
    rr = ref_inflate_table(type, rl, codes, &rn, &rb, rw);
    tr = tur_inflate_table(type, tl, codes, &tn, &tb, tw);
    if (rr != tr && (rr == 1 || tr == 1))
        return 2;               /* one library's ENOUGH is smaller */
    if (rr != tr || rb != tb || rn - rt != tn - tt ||
        differ(rt, tt) != SPACE ||
        memcmp(rl, tl, codes * sizeof(short)) != 0) {
        printf("DIFFERENT: type %d codes %u root %u: ref ret %d bits %u "
               "used %ld, tur ret %d bits %u used %ld\nlens:", (int)type,
               codes, root, rr, rb, (long)(rn - rt), tr, tb,
               (long)(tn - tt));
        for (i = 0; i < codes; i++)
            printf(" %u", lens[i]);
        printf("\n");
        i = differ(rt, tt);
        if (i < SPACE)
            printf("first entry differing: %u: ref {%u,%u,%u} "
                   "tur {%u,%u,%u}\n", i, rt[i].op, rt[i].bits,
                   rt[i].val, tt[i].op, tt[i].bits, tt[i].val);
        exit(1);
    }
    return rr;
}

int main(int argc, char **argv)
{
    long iters = argc > 1 ? atol(argv[1]) : 200000L, it;
    long outcome[4] = {0, 0, 0, 0};
    static const unsigned roots[3][3] = {{7, 7, 7}, {9, 10, 10}, {5, 6, 8}};

    rnd_state = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
    for (it = 0; it < iters; it++) {
        codetype type = (codetype)rnd(3);
        unsigned codes, maxlen, used, i, sym, root, n;
        unsigned short lens[320];
        unsigned len[320], perm[320];

        if (type == CODES) {
            codes = 19;
            maxlen = 7;
        }
        else if (type == LENS) {
            codes = 257 + rnd(32);
            maxlen = 15;
        }
        else {
            codes = 1 + rnd(32);
            maxlen = 15;
        }
        root = roots[type][rnd(3)];
        memset(lens, 0, sizeof(lens));
        switch (rnd(16)) {
        case 0:                 /* no code at all */
            break;
        case 1:                 /* one code of one bit */
            lens[rnd(codes)] = 1;
            break;
        default:                /* a complete code on some symbols */
            used = codes < 2 ? 2 : 2 + rnd(codes - 1);
            if (used > codes)
                used = codes;
            if (used < 2) {
                lens[0] = 1;
                break;
            }
            complete(len, used, maxlen, rnd(3) == 0);
            for (i = 0; i < codes; i++)
                perm[i] = i;
            n = rnd(3);
            for (i = 0; i < used; i++) {
                if (n == 0) {   /* random symbols */
                    sym = i + rnd(codes - i);
                    n = perm[i];
                    perm[i] = perm[sym];
                    perm[sym] = n;
                    n = 0;
                    sym = perm[i];
                }
                else if (n == 1)
                    sym = i;    /* packed at the start */
                else
                    sym = codes - used + i;     /* at the end */
                lens[sym] = (unsigned short)len[i];
            }
            if (rnd(5) == 0) {  /* damage it */
                sym = rnd(codes);
                switch (rnd(3)) {
                case 0:
                    if (lens[sym] < maxlen) lens[sym]++;
                    break;
                case 1:
                    if (lens[sym] > 0) lens[sym]--;
                    break;
                default:
                    lens[sym] = lens[sym] ? 0 : (unsigned short)(1 +
                                                           rnd(maxlen));
                }
            }
        }
        outcome[one(type, lens, codes, root) + 1]++;
    }
    /* the fixed codes, as BUILDFIXED builds them */
    {
        unsigned short lens[320];
        unsigned sym = 0;

        while (sym < 144) lens[sym++] = 8;
        while (sym < 256) lens[sym++] = 9;
        while (sym < 280) lens[sym++] = 7;
        while (sym < 288) lens[sym++] = 8;
        outcome[one(LENS, lens, 288, 9) + 1]++;
        outcome[one(LENS, lens, 288, 10) + 1]++;
        for (sym = 0; sym < 32; sym++) lens[sym] = 5;
        outcome[one(DISTS, lens, 32, 5) + 1]++;
    }
    printf("inftrees_same: %ld sets the same: %ld valid, %ld invalid, "
           "%ld not enough; %ld too big for one library's ENOUGH only "
           "(not compared)\n", outcome[0] + outcome[1] + outcome[2],
           outcome[1], outcome[0], outcome[2], outcome[3]);
    if (outcome[1] < iters / 2)
        return 1;               /* the generator went wrong */
    return 0;
}
