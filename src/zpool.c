/* zpool.c -- zlib-turbo's threads: a pool of workers for one stream
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * The only file that starts, joins or waits for threads.  A pool's workers
 * run one loop: with the lock held, ask the owner's task function for a
 * piece of work, and wait on the workers' condition variable when there is
 * none, until told to quit.  What the work is, and how the owner waits for
 * it, is the owner's (deflate_mt.c, deflate_opt.c): the pool only holds
 * the synchronisation they share.
 *
 * Waits.  A wait that is most often ended within a millisecond (the serial
 * work between two parallel steps of levels 10-12) is cheaper spun than
 * slept: waking a sleeping thread takes tens to hundreds of microseconds
 * on an idle CPU, a virtual one most of all.  A pool made with spin = 1
 * first reads its ticket (bumped by every post, read without the lock)
 * for about that long, yielding its CPU between reads, then sleeps.  Where
 * the compiler has no atomic loads, waits only sleep.
 *
 * fork().  The child process has only the thread that called fork(): the
 * workers of the pools it inherits are not there, and a lock or condition
 * variable may have been held by one of them.  A pthread_atfork() handler,
 * set up when a pool first starts a worker, counts the fork()s in the child
 * (zt_forks()); a pool remembers the count under which it started its
 * workers, and when it differs zt_pool_lost() gives it fresh objects and
 * no workers.  Windows has no fork().
 */

#ifdef _WIN32
   /* first: zutil.h and what the owners include define macros that break
      declarations in <windows.h> */
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#endif
#include "zpool.h"
#include "zturbo.h"
#if !defined(_WIN32) && !defined(Z_SOLO)
#  include <unistd.h>            /* getuid() */
#endif

/* ========================================================================= */
int ZLIB_INTERNAL zt_env_threads(void) {
#if defined(Z_SOLO) || !defined(ZT_THREADS)
    return 0;
#else
    const char *e;
    long n = 0;

#  ifndef _WIN32
    if (getuid() != geteuid() || getgid() != getegid())
        return 0;
#  endif
    e = getenv("ZLIB_TURBO_THREADS");
    if (e == NULL || *e == 0)
        return 0;
    for (; *e >= '0' && *e <= '9'; e++)
        if (n <= ZLIB_TURBO_MAX_THREADS)
            n = n * 10 + (*e - '0');
    if (*e != 0)
        return 0;
    return n > ZLIB_TURBO_MAX_THREADS ? ZLIB_TURBO_MAX_THREADS : (int)n;
#endif
}

#ifdef ZT_THREADS

/* ===========================================================================
 * The system's threads: one mutex, condition variables, start and join;
 * POSIX threads, or Windows threads (Vista and later: SRWLOCK and
 * CONDITION_VARIABLE).  The ticket: a counter changed only with the lock
 * held (bump()) and read without it (peek()), with yield() between reads.
 */
#ifdef _WIN32
typedef SRWLOCK zt_mutex;
typedef CONDITION_VARIABLE zt_cond;
typedef HANDLE zt_thread;

local int mutex_init(zt_mutex *m) { InitializeSRWLock(m); return 0; }
local void mutex_destroy(zt_mutex *m) { (void)m; }
local void mutex_lock(zt_mutex *m) { AcquireSRWLockExclusive(m); }
local void mutex_unlock(zt_mutex *m) { ReleaseSRWLockExclusive(m); }
local int cond_init(zt_cond *c) { InitializeConditionVariable(c); return 0; }
local void cond_destroy(zt_cond *c) { (void)c; }
local void cond_wait(zt_cond *c, zt_mutex *m) {
    SleepConditionVariableSRW(c, m, INFINITE, 0);
}
local void cond_signal(zt_cond *c) { WakeConditionVariable(c); }
local void cond_broadcast(zt_cond *c) { WakeAllConditionVariable(c); }

#  define SPIN
typedef LONG zt_ticket;
local unsigned long peek(zt_ticket volatile *t) {
    return (unsigned long)(ULONG)InterlockedCompareExchange(t, 0, 0);
}
local void bump(zt_ticket volatile *t) { InterlockedIncrement(t); }
local void yield(void) { SwitchToThread(); }

#else /* POSIX */
#  include <pthread.h>
typedef pthread_mutex_t zt_mutex;
typedef pthread_cond_t zt_cond;
typedef pthread_t zt_thread;

local int mutex_init(zt_mutex *m) { return pthread_mutex_init(m, NULL); }
local void mutex_destroy(zt_mutex *m) { pthread_mutex_destroy(m); }
local void mutex_lock(zt_mutex *m) { pthread_mutex_lock(m); }
local void mutex_unlock(zt_mutex *m) { pthread_mutex_unlock(m); }
local int cond_init(zt_cond *c) { return pthread_cond_init(c, NULL); }
local void cond_destroy(zt_cond *c) { pthread_cond_destroy(c); }
local void cond_wait(zt_cond *c, zt_mutex *m) { pthread_cond_wait(c, m); }
local void cond_signal(zt_cond *c) { pthread_cond_signal(c); }
local void cond_broadcast(zt_cond *c) { pthread_cond_broadcast(c); }

#  if defined(__ATOMIC_ACQUIRE) && (defined(__GNUC__) || defined(__clang__))
#    include <sched.h>
#    define SPIN
typedef unsigned zt_ticket;     /* wraps: compared for equality only */
local unsigned long peek(zt_ticket *t) {
    return __atomic_load_n(t, __ATOMIC_ACQUIRE);
}
local void bump(zt_ticket *t) {
    __atomic_store_n(t, __atomic_load_n(t, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELEASE);
}
local void yield(void) { (void)sched_yield(); }
#  else
typedef unsigned zt_ticket;
local void bump(zt_ticket *t) { ++*t; }
#  endif
#endif

#ifndef ZT_SPIN_READS
#  define ZT_SPIN_READS 3000    /* about 1 ms (sched_yield(): 0.3 us) */
#endif

/* a worker's start: its pool and number */
typedef struct {
    zt_pool *p;
    int t;
} zt_start;

struct zt_pool_s {
    zt_mutex lock;
    zt_cond work;               /* workers wait here */
    zt_cond done;               /* zt_pool_wait() waits here */
    zt_ticket ticket;           /* bumped by every post */
    int spin;
    zt_pool_task task;
    void *owner;
    int most;                   /* workers, at most */
    int nworkers;               /* running */
    int nomore;                 /* start no more */
    int quit;
    unsigned long forks;        /* zt_forks() when they were started */
    zt_thread *tids;            /* most of each */
    zt_start *starts;
};

/* ===========================================================================
 * fork(): the count, and the watch that keeps it.
 */
#ifdef _WIN32
unsigned long ZLIB_INTERNAL zt_forks(void) {
    return 0;
}

local int fork_watch(void) {
    return 0;
}
#else
local unsigned long fork_count;
local pthread_once_t fork_once = PTHREAD_ONCE_INIT;
local int fork_watched;

/* in the child, which has one thread */
local void fork_child(void) {
    fork_count++;
}

local void fork_setup(void) {
    fork_watched = pthread_atfork(NULL, NULL, fork_child) == 0;
}

unsigned long ZLIB_INTERNAL zt_forks(void) {
    return fork_count;
}

/* Set up the count, once; 0 on success.  Without it no worker is started. */
local int fork_watch(void) {
    pthread_once(&fork_once, fork_setup);
    return !fork_watched;
}
#endif

/* ===========================================================================
 * A worker: take the owner's work until told to quit.
 */
local void worker(zt_start *st) {
    zt_pool *p = st->p;

    mutex_lock(&p->lock);
    while (!p->quit)
        if (!p->task(p->owner, st->t)) {
#ifdef SPIN
            if (p->spin) {
                unsigned long t0 = peek(&p->ticket);
                int i;

                mutex_unlock(&p->lock);
                for (i = 0; i < ZT_SPIN_READS && peek(&p->ticket) == t0; i++)
                    yield();
                mutex_lock(&p->lock);
                if (peek(&p->ticket) != t0)
                    continue;
            }
#endif
            cond_wait(&p->work, &p->lock);
        }
    mutex_unlock(&p->lock);
}

#ifdef _WIN32
local DWORD WINAPI thread_main(LPVOID arg) {
    worker((zt_start *)arg);
    return 0;
}
local int thread_create(zt_thread *t, zt_start *st) {
    *t = CreateThread(NULL, 0, thread_main, st, 0, NULL);
    return *t == NULL;
}
local void thread_join(zt_thread t) {
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
}
#else
local void *thread_main(void *arg) {
    worker((zt_start *)arg);
    return NULL;
}
local int thread_create(zt_thread *t, zt_start *st) {
    return pthread_create(t, NULL, thread_main, st);
}
local void thread_join(zt_thread t) {
    pthread_join(t, NULL);
}
#endif

/* ========================================================================= */
ZLIB_INTERNAL zt_pool *zt_pool_new(z_streamp strm, int most,
                                   zt_pool_task task, void *owner,
                                   int spin) {
    zt_pool *p;

    p = (zt_pool *)ZALLOC(strm, 1, sizeof(zt_pool));
    if (p == Z_NULL)
        return Z_NULL;
    zmemzero(p, sizeof(zt_pool));
    p->most = most;
    p->task = task;
    p->owner = owner;
    p->spin = spin;
    p->tids = (zt_thread *)ZALLOC(strm, most > 0 ? most : 1,
                                  sizeof(zt_thread));
    p->starts = (zt_start *)ZALLOC(strm, most > 0 ? most : 1,
                                   sizeof(zt_start));
    if (p->tids != Z_NULL && p->starts != Z_NULL && !mutex_init(&p->lock)) {
        if (!cond_init(&p->work)) {
            if (!cond_init(&p->done))
                return p;
            cond_destroy(&p->work);
        }
        mutex_destroy(&p->lock);
    }
    TRY_FREE(strm, p->starts);
    TRY_FREE(strm, p->tids);
    ZFREE(strm, p);
    return Z_NULL;
}

/* ========================================================================= */
int ZLIB_INTERNAL zt_pool_start(zt_pool *p, int n) {
    if (n > p->most)
        n = p->most;
    while (!p->nomore && p->nworkers < n) {
        int i = p->nworkers;

        if (i == 0) {
            if (fork_watch()) {
                p->nomore = 1;
                break;
            }
            p->forks = zt_forks();
        }
        p->starts[i].p = p;
        p->starts[i].t = i + 1;
        if (thread_create(&p->tids[i], &p->starts[i]))
            p->nomore = 1;
        else
            p->nworkers++;
    }
    return p->nworkers;
}

/* ========================================================================= */
int ZLIB_INTERNAL zt_pool_workers(const zt_pool *p) {
    return p->nworkers;
}

/* ========================================================================= */
void ZLIB_INTERNAL zt_pool_free(z_streamp strm, zt_pool *p) {
    int i;

    if (p == Z_NULL)
        return;
    (void)zt_pool_lost(p);
    mutex_lock(&p->lock);
    p->quit = 1;
    zt_pool_post(p);
    mutex_unlock(&p->lock);
    for (i = 0; i < p->nworkers; i++)
        thread_join(p->tids[i]);
    cond_destroy(&p->done);
    cond_destroy(&p->work);
    mutex_destroy(&p->lock);
    ZFREE(strm, p->starts);
    ZFREE(strm, p->tids);
    ZFREE(strm, p);
}

/* ========================================================================= */
int ZLIB_INTERNAL zt_pool_lost(zt_pool *p) {
    if (p->nworkers == 0 || p->forks == zt_forks())
        return 0;
    (void)mutex_init(&p->lock);
    (void)cond_init(&p->work);
    (void)cond_init(&p->done);
    p->nworkers = 0;
    p->nomore = 1;
    p->quit = 0;
    return 1;
}

/* ========================================================================= */
void ZLIB_INTERNAL zt_pool_lock(zt_pool *p) {
    mutex_lock(&p->lock);
}

void ZLIB_INTERNAL zt_pool_unlock(zt_pool *p) {
    mutex_unlock(&p->lock);
}

void ZLIB_INTERNAL zt_pool_post_work(zt_pool *p) {
    bump(&p->ticket);
    cond_signal(&p->work);
}

void ZLIB_INTERNAL zt_pool_post_done(zt_pool *p) {
    bump(&p->ticket);
    cond_broadcast(&p->done);
}

void ZLIB_INTERNAL zt_pool_post(zt_pool *p) {
    bump(&p->ticket);
    cond_broadcast(&p->work);
    cond_broadcast(&p->done);
}

/* ========================================================================= */
void ZLIB_INTERNAL zt_pool_wait(zt_pool *p) {
#ifdef SPIN
    if (p->spin) {
        unsigned long t0 = peek(&p->ticket);
        int i;

        mutex_unlock(&p->lock);
        for (i = 0; i < ZT_SPIN_READS && peek(&p->ticket) == t0; i++)
            yield();
        mutex_lock(&p->lock);
        if (peek(&p->ticket) != t0)
            return;
    }
#endif
    cond_wait(&p->done, &p->lock);
}

#endif /* ZT_THREADS */
