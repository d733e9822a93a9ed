/* zpool.h -- zlib-turbo's threads: a pool of workers for one stream
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * Every thread zlib-turbo starts is started by zpool.c, for a pool that
 * belongs to one stream and ends with it: threaded deflate at levels 4-9
 * (deflate_mt.c) and levels 10-12 (deflate_opt.c) each keep their own
 * jobs and say, through a task function, how a worker takes one.  The pool
 * holds the workers, one lock, a condition variable for the workers and
 * one for the stream's own thread (the owner), a ticket that waits may
 * spin on, the fork() watch, and the ZLIB_TURBO_THREADS parser; POSIX or
 * Windows threads are chosen in zpool.c alone.
 *
 * Memory comes from the stream's zalloc, on the calling thread, in
 * zt_pool_new(); workers allocate nothing.
 */
#ifndef ZPOOL_H
#define ZPOOL_H

#include "zutil.h"

/* Threads are built unless Z_TURBO_NO_THREADS is defined (./configure
 * --no-threads, cmake -DZLIB_TURBO_THREADS=OFF), or the target has no
 * 64-bit integer type (stream positions are counted in 64 bits), or
 * FASTEST (no deflate_slow(), no levels 10-12: nothing to run on them).
 * Without them deflateSetThreads() accepts only 0 and 1.
 */
#if !defined(Z_TURBO_NO_THREADS) && defined(Z_U8) && !defined(FASTEST)
#  define ZT_THREADS
#endif

/* ZLIB_TURBO_THREADS: a decimal number, at most ZLIB_TURBO_MAX_THREADS
   (larger ones are taken as that); 0 when it is not set, not a number, or
   the program runs with other rights than its user's (set-user-ID or
   set-group-ID), and in builds without threads. */
int ZLIB_INTERNAL zt_env_threads(void);

#ifdef ZT_THREADS

typedef struct zt_pool_s zt_pool;

/* What a worker does: called by worker t (1, 2, ...) with the pool's lock
   held, it takes one piece of its owner's work, runs it (with the lock
   released around the running: zt_pool_unlock(), zt_pool_lock()) and
   returns 1; or returns 0 when there is none, and the worker waits for a
   zt_pool_post() or zt_pool_post_work(). */
typedef int (*zt_pool_task)(void *owner, int t);

/* A pool for up to most workers, none started; waits spin on the ticket
   for about a millisecond before they sleep when spin is 1.  Z_NULL if
   memory, the lock or a condition variable could not be had. */
ZLIB_INTERNAL zt_pool *zt_pool_new(z_streamp strm, int most,
                                   zt_pool_task task, void *owner,
                                   int spin);

/* Start workers until n run (at most most); one that cannot be started,
   or the fork() watch that cannot be set up, ends the starting for good
   (the owner's thread does the work nobody takes).  Returns the number
   running.  Called without the lock, by the owner. */
int ZLIB_INTERNAL zt_pool_start(zt_pool *p, int n);

/* The workers running. */
int ZLIB_INTERNAL zt_pool_workers(const zt_pool *p);

/* Tell the workers to quit, join them, free the pool (Z_NULL: nothing). */
void ZLIB_INTERNAL zt_pool_free(z_streamp strm, zt_pool *p);

/* In a child of fork() (the workers are not there): fresh lock and
   condition variables, no workers and none started again; returns 1 then,
   so that the owner puts back what a worker was running.  Else 0. */
int ZLIB_INTERNAL zt_pool_lost(zt_pool *p);

void ZLIB_INTERNAL zt_pool_lock(zt_pool *p);
void ZLIB_INTERNAL zt_pool_unlock(zt_pool *p);

/* With the lock held: wake one waiting worker (work for one); wake
   whoever waits in zt_pool_wait() (a piece of work done); or wake everyone,
   workers and zt_pool_wait()ers (any change).  Each bumps the ticket. */
void ZLIB_INTERNAL zt_pool_post_work(zt_pool *p);
void ZLIB_INTERNAL zt_pool_post_done(zt_pool *p);
void ZLIB_INTERNAL zt_pool_post(zt_pool *p);

/* With the lock held: the owner (or a worker out of its task loop) waits
   for zt_pool_post_done() or zt_pool_post(), or returns earlier; the lock
   is held again. */
void ZLIB_INTERNAL zt_pool_wait(zt_pool *p);

/* How many fork()s this process descends through since a pool first
   started a worker (0 in that process, and before). */
unsigned long ZLIB_INTERNAL zt_forks(void);

#endif /* ZT_THREADS */

#endif /* ZPOOL_H */
