/* optimal_perfile.c -- levels 10-12 file by file: zrun-NAME LEVEL FILE... compresses each FILE
   as one raw deflate stream at zlib-turbo LEVEL (0: libdeflate 12), prints its size, output
   CRC-32 and least CPU seconds of REPS runs (env; MAXB=N: first N bytes only). Built as zrun-NAME
   by optimal_perfile_build.sh; the driver behind turbo/results/2026-12-02-{l10speed,l10b,l10c,
   sweep,minima}/ and turbo/results/optimal-l10-2026-12-02{,-final}.txt. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "zlib.h"
#ifdef HAVE_LD
#include "libdeflate.h"
#endif
static double now(void){struct timespec t;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  int level=atoi(argv[1]); int i; long maxb=getenv("MAXB")?atol(getenv("MAXB")):0;
  int reps=getenv("REPS")?atoi(getenv("REPS")):1; double tot=0; unsigned long tsz=0;
  for(i=2;i<argc;i++){
    FILE*f=fopen(argv[i],"rb"); unsigned char*d; long n; unsigned char*o; unsigned long on=0; int r; double best=1e9;
    fseek(f,0,SEEK_END); n=ftell(f); fseek(f,0,SEEK_SET);
    if(maxb&&n>maxb)n=maxb;
    d=malloc(n+1); fread(d,1,n,f); fclose(f);
    o=malloc(n+n/8+65536);
    for(r=0;r<reps;r++){ double t0=now();
    if(level==0){
#ifdef HAVE_LD
      struct libdeflate_compressor*c=libdeflate_alloc_compressor(12);
      on=libdeflate_deflate_compress(c,d,n,o,n+n/8+65536); libdeflate_free_compressor(c);
#endif
    } else {
      z_stream s; memset(&s,0,sizeof s);
      deflateInit2(&s,level,Z_DEFLATED,-15,8,Z_DEFAULT_STRATEGY);
      s.next_in=d;s.avail_in=n;s.next_out=o;s.avail_out=n+n/8+65536;
      if(deflate(&s,Z_FINISH)!=Z_STREAM_END){fprintf(stderr,"fail\n");return 1;}
      on=s.total_out; deflateEnd(&s);
    }
    t0=now()-t0; if(t0<best)best=t0;}
    tot+=best; tsz+=on;
    printf("%s %lu %08lx %.4f\n",argv[i],on,crc32(0,o,on),best);
    free(d);free(o);
  }
  printf("TOTAL %lu %.4f\n",tsz,tot);
  return 0;
}
