// SPDX-License-Identifier: MIT
// The job thread's life cycle and the option changes deferred until it has ended.
#define _POSIX_C_SOURCE 200809L
#include "job.h"

#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "perft.h"
#include "root.h"

static size_t bench_hash_mb(const Engine *e) { return e->caps.max_hash_mb ? e->caps.max_hash_mb : 16; }

static void run_job(Engine *e)
{
    switch (e->job) {
    case JOB_SEARCH:
        root_search(engine_main_thread(e));
        break;
    case JOB_PERFT:
        perft_divide(&engine_main_thread(e)->pos, e->job_depth, engine_write_line, e, &e->ctl.stop);
        break;
    case JOB_BENCH:
        bench_run(e->job_depth, bench_hash_mb(e), e->use_nnue && e->net.memory ? &e->net : NULL, engine_write_line, e,
                  &e->ctl);
        break;
    }
}

static void *job_thread_main(void *arg)
{
    Engine *e = arg;
    run_job(e);
    atomic_store(&e->finished, true);
    return NULL;
}

void job_wait(Engine *e, bool stop_it)
{
    if (!e->searching)
        return;
    if (stop_it)
        atomic_store(&e->ctl.stop, true);
    pthread_join(e->handle, NULL);
    e->searching = false;
}

bool job_running(Engine *e) { return e->searching && !atomic_load(&e->finished); }

static void apply_pending(Engine *e)
{
    if (e->searching)
        return;
    if (e->pending_hash_mb) {
        if (tt_resize(&e->tt, e->pending_hash_mb))
            e->hash_mb = e->pending_hash_mb;
        else
            engine_say(e, "info string cannot allocate %zu MB for Hash, keeping %zu MB", e->pending_hash_mb,
                       e->hash_mb);
        e->pending_hash_mb = 0;
    }
    if (e->pending_net.memory) {
        nnue_free(&e->net);
        e->net = e->pending_net;
        memset(&e->pending_net, 0, sizeof e->pending_net);
    }
    if (e->pending_threads) {
        if (!pool_resize(e->pool, e->pending_threads))
            engine_say(e, "info string cannot start %d threads, searching with %d", e->pending_threads,
                       pool_size(e->pool));
        e->threads = pool_size(e->pool);
        e->pending_threads = 0;
    }
    if (e->pending_tb_path) {
        engine_set_tb_path(e, e->pending_tb_path);
        free(e->pending_tb_path);
        e->pending_tb_path = NULL;
    }
    if (e->pending_clear) {
        tt_clear(&e->tt);
        for (int i = 0; i < pool_size(e->pool); i++)
            search_clear(pool_thread(e->pool, i));
        e->pending_clear = false;
    }
}

void job_stop_running(Engine *e, const char *why)
{
    if (job_running(e))
        engine_debug(e, "%s during a running job: stopping it first", why);
    job_wait(e, true);
    apply_pending(e);
}

void job_start(Engine *e, JobKind job, bool pondering)
{
    e->job = job;
    atomic_store(&e->ctl.stop, false);
    atomic_store(&e->ctl.pondering, pondering);
    atomic_store(&e->ctl.start_ms, tm_now());
    atomic_store(&e->finished, false);
    if (pthread_create(&e->handle, NULL, job_thread_main, e) == 0) {
        e->searching = true;
        return;
    }
    if (job == JOB_SEARCH) {
        engine_say(e, "info string cannot start a search thread; searching to depth 1");
        engine_main_thread(e)->limits.infinite = false;
        engine_main_thread(e)->limits.depth = 1;
        atomic_store(&e->ctl.pondering, false);
    } else {
        engine_say(e, "info string cannot start a thread; running here");
    }
    run_job(e);
}

void job_reap_finished(Engine *e)
{
    if (e->searching && atomic_load(&e->finished))
        job_wait(e, false);
    apply_pending(e);
}
