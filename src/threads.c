// SPDX-License-Identifier: MIT
// The search thread pool: helpers parked on a condition variable, woken per search.
#include "threads.h"

#include <pthread.h>
#include <stdlib.h>

#include "platform.h"

struct ThreadPool {
    int n; // threads, main included
    SearchThread *threads[POOL_MAX_THREADS];
    pthread_t handles[POOL_MAX_THREADS];
    pthread_mutex_t lock;
    pthread_cond_t wake; // a new search (generation) or quit
    pthread_cond_t idle; // the last running helper parked
    unsigned generation;
    int running;
    bool quit;
    void (*fn)(SearchThread *);
    void (*init)(SearchThread *); // prepares every new thread
    atomic_bool stop;
};

typedef struct {
    ThreadPool *pool;
    int index;
    unsigned seen; // the generation when it was made: a search started later wakes it
} HelperArg;

static void *helper_main(void *arg)
{
    HelperArg a = *(HelperArg *)arg;
    free(arg);
    ThreadPool *pool = a.pool;
    pthread_mutex_lock(&pool->lock);
    unsigned seen = a.seen; // not pool->generation: a search may have started already
    for (;;) {
        while (!pool->quit && pool->generation == seen)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->quit)
            break;
        seen = pool->generation;
        void (*fn)(SearchThread *) = pool->fn;
        SearchThread *t = pool->threads[a.index];
        pthread_mutex_unlock(&pool->lock);
        fn(t);
        pthread_mutex_lock(&pool->lock);
        if (--pool->running == 0)
            pthread_cond_broadcast(&pool->idle);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static SearchThread *new_thread(ThreadPool *pool)
{
    SearchThread *t = platform_calloc_aligned(sizeof *t, _Alignof(SearchThread));
    if (t) {
        pool->init(t);
        t->pool = pool;
    }
    return t;
}

ThreadPool *pool_create(void (*init)(SearchThread *))
{
    ThreadPool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->init = init;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->idle, NULL);
    atomic_init(&pool->stop, false);
    pool->threads[0] = new_thread(pool);
    if (!pool->threads[0]) {
        free(pool);
        return NULL;
    }
    pool->n = 1;
    return pool;
}

// Ends and joins every helper (they are parked: no search runs).
static void join_helpers(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 1; i < pool->n; i++)
        pthread_join(pool->handles[i], NULL);
    pool->quit = false;
}

bool pool_resize(ThreadPool *pool, int n)
{
    if (n < 1 || n > POOL_MAX_THREADS)
        return false;
    if (n == pool->n)
        return true;
    join_helpers(pool);
    int old = pool->n;
    for (int i = n; i < old; i++) {
        platform_free_aligned(pool->threads[i]);
        pool->threads[i] = NULL;
    }
    int made = old < n ? old : n;
    for (; made < n; made++)
        if (!(pool->threads[made] = new_thread(pool)))
            break;
    // Start a helper for every thread there is memory for; on a failure keep those.
    pool->n = 1;
    for (int i = 1; i < made; i++) {
        HelperArg *arg = malloc(sizeof *arg);
        if (!arg || (*arg = (HelperArg){pool, i, pool->generation}, pthread_create(&pool->handles[i], NULL, helper_main, arg) != 0)) {
            free(arg);
            for (int j = i; j < made; j++) {
                platform_free_aligned(pool->threads[j]);
                pool->threads[j] = NULL;
            }
            return false;
        }
        pool->n = i + 1;
    }
    return made == n;
}

void pool_destroy(ThreadPool *pool)
{
    if (!pool)
        return;
    join_helpers(pool);
    for (int i = 0; i < pool->n; i++)
        platform_free_aligned(pool->threads[i]);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->idle);
    free(pool);
}

int pool_size(const ThreadPool *pool) { return pool->n; }

SearchThread *pool_thread(ThreadPool *pool, int i) { return pool->threads[i]; }

SearchThread *const *pool_threads(const ThreadPool *pool) { return pool->threads; }

void pool_start_helpers(ThreadPool *pool, void (*fn)(SearchThread *))
{
    pthread_mutex_lock(&pool->lock);
    atomic_store(&pool->stop, false);
    pool->fn = fn;
    pool->running = pool->n - 1;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
}

const atomic_bool *pool_stop_flag(const ThreadPool *pool) { return &pool->stop; }

void pool_stop_helpers(ThreadPool *pool) { atomic_store(&pool->stop, true); }

void pool_wait_helpers(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->lock);
    while (pool->running > 0)
        pthread_cond_wait(&pool->idle, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}
