/* compare old and new rle_plan on random code-length sequences */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef unsigned char uch; typedef unsigned short ush; typedef unsigned int zo_u32;
#define local static
#define ZO_NLL 288
#define ZO_NDIST 32
#define ZO_NCL 19
#define rle_plan rle_plan_old
#include "rle_plan_old.inc"
#undef rle_plan
#define rle_plan rle_plan_new
#include "rle_plan_new.inc"
#undef rle_plan
int main(void) {
    long t; srand(12345);
    for (t = 0; t < 3000000; t++) {
        uch lens[ZO_NLL + ZO_NDIST], cl[ZO_NCL]; ush r1[400], r2[400]; int n1, n2, n, i, mode = rand() % 4;
        zo_u32 a, b;
        n = 1 + rand() % (ZO_NLL + ZO_NDIST);
        for (i = 0; i < n; i++) {
            if (mode == 0) lens[i] = rand() % 16;
            else if (mode == 1) lens[i] = (rand() % 5 == 0) ? rand() % 16 : 0;
            else if (mode == 2) lens[i] = (rand() % 40 == 0) ? rand() % 16 : (i && rand() % 8 ? lens[i-1] : 0);
            else lens[i] = (rand() % 200 == 0) ? 1 + rand() % 15 : 0;
        }
        for (i = 0; i < ZO_NCL; i++) cl[i] = rand() % 3 ? rand() % 8 : 0;
        a = rle_plan_old(lens, n, cl, r1, &n1);
        b = rle_plan_new(lens, n, cl, r2, &n2);
        if (a != b || n1 != n2 || memcmp(r1, r2, n1 * sizeof(ush))) { printf("DIFF at %ld n=%d mode=%d\n", t, n, mode); return 1; }
    }
    printf("same on 3000000 sequences\n");
    return 0;
}
