// SPDX-License-Identifier: MIT
// The pool of search threads behind the Threads option (Lazy SMP): thread 0 is the main
// thread, run by whoever owns the pool (the UCI job thread); the helpers are threads of
// their own, parked on a condition variable between searches. The pool holds the
// SearchThreads but never calls the search: it is given the function that prepares a new
// thread and, per search, the function the helpers run (root.c's).
#ifndef OUTPOST_THREADS_H
#define OUTPOST_THREADS_H

#include <stdatomic.h>

#include "search.h"

enum { POOL_MAX_THREADS = 256 };

typedef struct ThreadPool ThreadPool;

// A pool of one thread (the main thread's SearchThread, zeroed, then given to init, as
// every later thread is, with its `pool` field set); NULL without memory.
ThreadPool *pool_create(void (*init)(SearchThread *));
// Joins every helper and frees everything.
void pool_destroy(ThreadPool *pool);

// Sets the number of threads, main included (1..POOL_MAX_THREADS). Only while no search
// runs. False (and the pool unchanged) when the memory or a thread cannot be had.
bool pool_resize(ThreadPool *pool, int n);
int pool_size(const ThreadPool *pool);
SearchThread *pool_thread(ThreadPool *pool, int i);
// Every thread, main first (pool_size of them; valid until the next pool_resize).
SearchThread *const *pool_threads(const ThreadPool *pool);

// For the search driver: wakes every helper to run fn(helper) and returns at once; then
// pool_stop_helpers asks them to end (the flag their searches poll, pool_stop_flag) and
// pool_wait_helpers returns once all are parked again.
void pool_start_helpers(ThreadPool *pool, void (*fn)(SearchThread *));
const atomic_bool *pool_stop_flag(const ThreadPool *pool);
void pool_stop_helpers(ThreadPool *pool);
void pool_wait_helpers(ThreadPool *pool);

#endif
