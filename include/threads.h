// SPDX-License-Identifier: MIT
// The pool of search threads behind the Threads option (Lazy SMP): thread 0 is the main
// thread, run by whoever calls search_run (the UCI job thread); the helpers are threads
// of their own, parked on a condition variable between searches, which search_run wakes
// to search the same position on the shared TT and stops when the main thread is done.
#ifndef OUTPOST_THREADS_H
#define OUTPOST_THREADS_H

#include <stdatomic.h>

#include "search.h"

enum { POOL_MAX_THREADS = 256 };

typedef struct ThreadPool ThreadPool;

// A pool of one thread (the main thread's SearchThread, initialised); NULL without memory.
ThreadPool *pool_create(void);
// Joins every helper and frees everything.
void pool_destroy(ThreadPool *pool);

// Sets the number of threads, main included (1..POOL_MAX_THREADS). Only while no search
// runs. False (and the pool unchanged) when the memory or a thread cannot be had.
bool pool_resize(ThreadPool *pool, int n);
int pool_size(const ThreadPool *pool);
SearchThread *pool_thread(ThreadPool *pool, int i);

// For search_run: wakes every helper to run fn(helper) and returns at once; then
// pool_stop_helpers asks them to end (the flag their searches poll, pool_stop_flag) and
// pool_wait_helpers returns once all are parked again.
void pool_start_helpers(ThreadPool *pool, void (*fn)(SearchThread *));
const atomic_bool *pool_stop_flag(const ThreadPool *pool);
void pool_stop_helpers(ThreadPool *pool);
void pool_wait_helpers(ThreadPool *pool);

#endif
