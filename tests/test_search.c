// SPDX-License-Identifier: MIT
// The search with helper threads: a search starts from fresh counters; the reductions
// table follows the parameters.
#include "test_util.h"

#include <math.h>

#include "platform.h"
#include "root.h"
#include "threads.h"
#include "timeman.h"
#include "tt.h"

// The lines a search prints, kept for the test to read.
typedef struct {
    int n;
    char lines[256][1024];
} Captured;

static void capture(void *ctx, const char *line)
{
    Captured *c = ctx;
    if (c->n < 256)
        snprintf(c->lines[c->n++], sizeof c->lines[0], "%s", line);
}

// A helper still holds the counts of the previous search when the main thread starts the
// next one. They must not show: no info line counts them, and a depth-limited search is
// not ended by the old depth (it ends at the depth asked, its last line of that depth).
// The helper wakes a little after the main thread starts, so without the reset the first
// line showed the old nodes in most rounds.
static void test_helpers_start_fresh(void **state)
{
    (void)state;
    static Captured cap;
    static const char *fens[] = {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"};
    const uint64_t stale_nodes = 1000000000000ULL;
    ThreadPool *pool = pool_create(search_init);
    assert_non_null(pool);
    assert_true(pool_resize(pool, 2));
    TT tt = {0};
    assert_true(tt_resize(&tt, 4));
    SearchControl ctl;
    atomic_init(&ctl.stop, false);
    atomic_init(&ctl.pondering, false);
    SearchThread *t = pool_thread(pool, 0), *h = pool_thread(pool, 1);
    for (int round = 0; round < 20; round++) {
        atomic_store(&h->nodes, stale_nodes);
        atomic_store(&h->depth_done, 60);
        h->completed_depth = 60;
        char err[128];
        assert_true(pos_set_fen(&t->pos, fens[round % 2], false, err, sizeof err));
        t->tt = &tt;
        t->ctl = &ctl;
        atomic_store(&ctl.start_ms, tm_now());
        limits_init(&t->limits);
        t->limits.depth = 5;
        memset(&t->opts, 0, sizeof t->opts);
        t->opts.multipv = 1;
        t->opts.print_bestmove = true;
        t->nnue = NULL;
        t->out = capture;
        t->out_ctx = &cap;
        cap.n = 0;
        root_search(t);
        int last_depth = 0;
        for (int i = 0; i < cap.n; i++) {
            int depth;
            const char *nodes = strstr(cap.lines[i], " nodes ");
            if (sscanf(cap.lines[i], "info depth %d", &depth) != 1)
                continue;
            assert_non_null(nodes);
            if (strtoull(nodes + 7, NULL, 10) >= stale_nodes)
                fail_msg("round %d: the previous search's nodes counted: %s", round, cap.lines[i]);
            last_depth = depth;
        }
        if (last_depth != 5)
            fail_msg("round %d: 'depth 5' ended on an info line of depth %d", round, last_depth);
        assert_true(cap.n > 0 && strncmp(cap.lines[cap.n - 1], "bestmove ", 9) == 0);
    }
    tt_free(&tt);
    pool_destroy(pool);
}

// The reductions table follows lmr_base and lmr_div as they stand at each search, though
// it is rebuilt only when they change: a tuning run sets them between searches.
static void expect_reductions(const SearchThread *t)
{
    for (int d = 0; d < 64; d++)
        for (int m = 0; m < 64; m++) {
            int want = d && m ? (int)(t->params.lmr_base / 100.0 + log(d) * log(m) / (t->params.lmr_div / 100.0)) : 0;
            if (t->reductions[d][m] != want)
                fail_msg("lmr_base %d lmr_div %d: reductions[%d][%d] is %d, not %d", t->params.lmr_base,
                         t->params.lmr_div, d, m, t->reductions[d][m], want);
        }
}

static void test_reductions_follow_params(void **state)
{
    (void)state;
    SearchThread *t = platform_calloc_aligned(sizeof *t, _Alignof(SearchThread));
    assert_non_null(t);
    search_init(t);
    char err[128];
    assert_true(pos_set_fen(&t->pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, err, sizeof err));
    limits_init(&t->limits);
    t->nnue = NULL;
    const int sets[][2] = {{75, 225}, {75, 225}, {175, 225}, {175, 300}, {75, 225}};
    for (int i = 0; i < 5; i++) {
        t->params.lmr_base = sets[i][0];
        t->params.lmr_div = sets[i][1];
        search_prepare(t);
        expect_reductions(t);
    }
    assert_int_equal(t->reductions[10][10], 3); // 0.75 + ln(10)^2 / 2.25 = 3.11
    platform_free_aligned(t);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helpers_start_fresh),
        cmocka_unit_test(test_reductions_follow_params),
    };
    return cmocka_run_group_tests_name("search", tests, NULL, NULL);
}
