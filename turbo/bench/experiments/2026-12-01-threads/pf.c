#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(void){ struct timespec a,b; size_t n=64<<20; clock_gettime(CLOCK_MONOTONIC,&a); char*p=malloc(n); for(size_t i=0;i<n;i+=4096)p[i]=1; clock_gettime(CLOCK_MONOTONIC,&b); double t=(b.tv_sec-a.tv_sec)*1e6+(b.tv_nsec-a.tv_nsec)/1e3; printf("%.2f us per page\n", t/(n/4096)); return p[100]; }
