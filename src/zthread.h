/* zthread.h -- the thread primitives of zlib-turbo's threaded deflate
 * Copyright (C) 2026 The zlib-turbo authors
 * For conditions of distribution and use, see the copyright notice in zlib.h
 *
 * One mutex, two condition variables and a way to start and join a thread:
 * all that deflate_mt.c needs; with a counter for waits that spin
 * (ZT_TICKETS), what deflate_opt.c needs; only they include this.  POSIX
 * threads, or Windows threads (Vista and later: SRWLOCK and
 * CONDITION_VARIABLE) under _WIN32.  Whether threads are built at all
 * (ZT_THREADS) is decided in deflate_mt.h.
 *
 * Every function returns 0 on success.  Nothing here allocates memory.
 */
#ifndef ZTHREAD_H
#define ZTHREAD_H

#ifdef ZT_THREADS
#ifdef _WIN32
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>

typedef SRWLOCK zt_mutex;
typedef CONDITION_VARIABLE zt_cond;
typedef HANDLE zt_thread;
typedef struct { void (*fn)(void *); void *arg; } zt_thread_start;

local int zt_mutex_init(zt_mutex *m) { InitializeSRWLock(m); return 0; }
local void zt_mutex_destroy(zt_mutex *m) { (void)m; }
local void zt_lock(zt_mutex *m) { AcquireSRWLockExclusive(m); }
local void zt_unlock(zt_mutex *m) { ReleaseSRWLockExclusive(m); }
local int zt_cond_init(zt_cond *c) { InitializeConditionVariable(c); return 0; }
local void zt_cond_destroy(zt_cond *c) { (void)c; }
local void zt_wait(zt_cond *c, zt_mutex *m) {
    SleepConditionVariableSRW(c, m, INFINITE, 0);
}
local void zt_signal(zt_cond *c) { WakeConditionVariable(c); }
local void zt_broadcast(zt_cond *c) { WakeAllConditionVariable(c); }

local DWORD WINAPI zt_thread_main(LPVOID p) {
    zt_thread_start *st = (zt_thread_start *)p;
    st->fn(st->arg);
    return 0;
}
/* st must stay valid until the thread is joined */
local int zt_thread_create(zt_thread *t, zt_thread_start *st) {
    *t = CreateThread(NULL, 0, zt_thread_main, st, 0, NULL);
    return *t == NULL;
}
local void zt_thread_join(zt_thread t) {
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
}

#else /* POSIX */
#  include <pthread.h>

typedef pthread_mutex_t zt_mutex;
typedef pthread_cond_t zt_cond;
typedef pthread_t zt_thread;
typedef struct { void (*fn)(void *); void *arg; } zt_thread_start;

local int zt_mutex_init(zt_mutex *m) { return pthread_mutex_init(m, NULL); }
local void zt_mutex_destroy(zt_mutex *m) { pthread_mutex_destroy(m); }
local void zt_lock(zt_mutex *m) { pthread_mutex_lock(m); }
local void zt_unlock(zt_mutex *m) { pthread_mutex_unlock(m); }
local int zt_cond_init(zt_cond *c) { return pthread_cond_init(c, NULL); }
local void zt_cond_destroy(zt_cond *c) { pthread_cond_destroy(c); }
local void zt_wait(zt_cond *c, zt_mutex *m) { pthread_cond_wait(c, m); }
local void zt_signal(zt_cond *c) { pthread_cond_signal(c); }
local void zt_broadcast(zt_cond *c) { pthread_cond_broadcast(c); }

local void *zt_thread_main(void *p) {
    zt_thread_start *st = (zt_thread_start *)p;
    st->fn(st->arg);
    return NULL;
}
/* st must stay valid until the thread is joined */
local int zt_thread_create(zt_thread *t, zt_thread_start *st) {
    return pthread_create(t, NULL, zt_thread_main, st);
}
local void zt_thread_join(zt_thread t) { pthread_join(t, NULL); }
#endif

/* For a file that defines ZT_TICKETS before including this: a counter read
   by a thread that spins (zt_peek(), without the lock) and changed only
   with the lock held (zt_bump()); ZT_SPIN where the compiler has atomic
   loads and stores, with zt_yield() to let another thread of this CPU run
   between the reads.  Without ZT_SPIN, waits only sleep. */
#ifndef ZT_TICKETS
#elif defined(_WIN32)
#  define ZT_SPIN
typedef LONG zt_ticket;
local unsigned long zt_peek(zt_ticket volatile *t) {
    return (unsigned long)(ULONG)InterlockedCompareExchange(t, 0, 0);
}
local void zt_bump(zt_ticket volatile *t) { InterlockedIncrement(t); }
local void zt_yield(void) { SwitchToThread(); }
#elif defined(__ATOMIC_ACQUIRE) && (defined(__GNUC__) || defined(__clang__))
#  include <sched.h>
#  define ZT_SPIN
typedef unsigned zt_ticket;     /* wraps: compared for equality only */
local unsigned long zt_peek(zt_ticket *t) {
    return __atomic_load_n(t, __ATOMIC_ACQUIRE);
}
local void zt_bump(zt_ticket *t) {
    __atomic_store_n(t, __atomic_load_n(t, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELEASE);
}
local void zt_yield(void) { (void)sched_yield(); }
#else
typedef unsigned zt_ticket;
local void zt_bump(zt_ticket *t) { ++*t; }
#endif
#endif /* ZT_THREADS */

#endif /* ZTHREAD_H */
