// SPDX-License-Identifier: MIT
// Unit tests for the parts under the search: evaluation symmetry, SEE, the
// transposition table, the time budget, and a search's start with helper threads.
#include "test_util.h"

#include <ctype.h>
#include <math.h>

#include "eval.h"
#include "move.h"
#include "params.h"
#include "position.h"
#include "see.h"
#include "root.h"
#include "strength.h"
#include "threads.h"
#include "timeman.h"
#include "tt.h"

static Position pos;

// The same position with colours swapped and the board flipped top to bottom.
static void mirror_fen(const char *fen, char *out)
{
    char board[128], side[4], castling[16], ep[4];
    int rule50 = 0, move = 1;
    assert_true(sscanf(fen, "%127s %3s %15s %3s %d %d", board, side, castling, ep, &rule50, &move) >= 4);
    char *ranks[8];
    int n = 0;
    for (char *r = strtok(board, "/"); r && n < 8; r = strtok(NULL, "/"))
        ranks[n++] = r;
    out[0] = '\0';
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = (char)(isupper((unsigned char)*c) ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
        strcat(out, ranks[i]);
        strcat(out, i ? "/" : " ");
    }
    strcat(out, side[0] == 'w' ? "b " : "w ");
    char c2[16] = "";
    for (char *c = castling; *c; c++) // keep KQkq order: white's rights first
        if (islower((unsigned char)*c))
            c2[strlen(c2)] = (char)toupper((unsigned char)*c);
    for (char *c = castling; *c; c++)
        if (isupper((unsigned char)*c))
            c2[strlen(c2)] = (char)tolower((unsigned char)*c);
    strcat(out, castling[0] == '-' ? "-" : c2);
    if (ep[0] == '-')
        strcat(out, " -");
    else
        sprintf(out + strlen(out), " %c%c", ep[0], ep[1] == '3' ? '6' : '3');
    sprintf(out + strlen(out), " %d %d", rule50, move);
}

// Calls check(fen) for the first four FEN fields of every line of the suites.
static int for_each_suite_fen(void (*check)(const char *fen))
{
    static const char *files[] = {"perft.epd", "bk.epd", "ecmgcp.epd"};
    int checked = 0;
    for (size_t f = 0; f < 3; f++) {
        FILE *in = open_data(files[f]);
        char line[512];
        while (fgets(line, sizeof line, in)) {
            char fen[256] = "", *p = line;
            for (int field = 0; field < 4; field++) {
                size_t len = strcspn(p, " ;");
                strncat(fen, p, len);
                strcat(fen, field < 3 ? " " : "");
                p += len + 1;
            }
            char err[128];
            if (!pos_set_fen(&pos, fen, false, err, sizeof err))
                continue;
            check(fen);
            checked++;
        }
        fclose(in);
    }
    return checked;
}

static void check_mirror(const char *fen)
{
    char err[128], mirrored[256];
    Score a = eval_evaluate(&pos);
    mirror_fen(fen, mirrored);
    if (!pos_set_fen(&pos, mirrored, false, err, sizeof err))
        fail_msg("mirror of %s rejected: %s (%s)", fen, mirrored, err);
    Score b = eval_evaluate(&pos);
    if (a != b)
        fail_msg("eval %d of %s but %d of its mirror %s", a, fen, b, mirrored);
    assert_true(a > -SCORE_MATE_IN_MAX && a < SCORE_MATE_IN_MAX);
}

static void test_eval_symmetry(void **state)
{
    (void)state;
    assert_true(for_each_suite_fen(check_mirror) > 300);
}

static double trace_weights[WT_NB][2];
static int traced_nonzero;

// The tuner's linear model must reproduce the evaluation up to its integer rounding
// (two truncating divisions, each losing less than 1 cp), or the tuner would fit
// something the engine does not compute.
static void check_trace(const char *fen)
{
    EvalTrace trace;
    Score traced = eval_trace(&pos, &trace);
    Score plain = eval_evaluate(&pos);
    if (traced != plain)
        fail_msg("eval_trace %d but eval_evaluate %d for %s", traced, plain, fen);
    double linear = eval_from_trace(&trace, (const double(*)[2])trace_weights, pos.side);
    double white_view = pos.side == WHITE ? plain : -plain;
    if (fabs(linear - white_view) >= 2.0)
        fail_msg("linear model %.2f but eval %.0f (white's view) for %s", linear, white_view, fen);
    for (int i = 0; i < WT_NB; i++)
        traced_nonzero += trace.coef[i] != 0;
}

static void test_eval_trace(void **state)
{
    (void)state;
    for (int i = 0; i < WT_NB; i++) {
        trace_weights[i][0] = eval_weights[i].mg;
        trace_weights[i][1] = eval_weights[i].eg;
    }
    traced_nonzero = 0;
    assert_true(for_each_suite_fen(check_trace) > 300);
    assert_true(traced_nonzero > 300 * 20); // dozens of weights per position
}

static void test_eval_sense(void **state)
{
    (void)state;
    char err[128];
    // A queen up is winning; the start position is about level.
    assert_true(pos_set_fen(&pos, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, err, sizeof err));
    assert_true(eval_evaluate(&pos) > 700);
    assert_true(pos_set_fen(&pos, START_FEN, false, err, sizeof err));
    assert_true(abs(eval_evaluate(&pos)) < 50);
    // A knight in the centre beats one in the corner.
    assert_true(pos_set_fen(&pos, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", false, err, sizeof err));
    Score centre = eval_evaluate(&pos);
    assert_true(pos_set_fen(&pos, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", false, err, sizeof err));
    assert_true(centre > eval_evaluate(&pos));
}

static void test_see(void **state)
{
    (void)state;
    static const struct { const char *fen, *move; int threshold; bool expected; } cases[] = {
        {"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100, true},       // free pawn
        {"4k3/8/4p3/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 1, false},      // pawn for pawn: 0
        {"4k3/8/4p3/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0, true},
        {"4k3/8/4p3/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 0, false},      // queen for pawn
        {"4k3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 500, true},      // rook wins a rook, x-ray defends
        {"4k3/8/2b5/3r4/8/8/3R4/4K3 w - - 0 1", "d2d5", 1, false},     // rook takes rook, bishop retakes
    };
    char err[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_true(pos_set_fen(&pos, cases[i].fen, false, err, sizeof err));
        Move m = move_from_uci(&pos, cases[i].move);
        assert_int_not_equal(m, MOVE_NONE);
        if (see_ge(&pos, m, cases[i].threshold) != cases[i].expected)
            fail_msg("case %d: see_ge(%s, %d) should be %d", (int)i, cases[i].move, cases[i].threshold,
                     cases[i].expected);
    }
}

static void test_tt(void **state)
{
    (void)state;
    TT tt = {0};
    assert_true(tt_resize(&tt, 1));
    assert_int_equal(tt.count * sizeof(TTBucket), 1024 * 1024);
    tt_new_search(&tt);
    TTEntry e;
    TTSlot slot;
    Key key = 0x123456789ABCDEF0ULL;
    assert_false(tt_probe(&tt, key, &e, &slot));
    Score mate = mate_in(7); // mate found 7 plies from the root, stored at ply 3
    tt_store(&tt, slot, key, tt_score_to(mate, 3), 42, BOUND_EXACT, 9, make_move(12, 28, FLAG_DOUBLE_PUSH));
    assert_true(tt_probe(&tt, key, &e, &slot));
    assert_int_equal(tt_depth(&e), 9);
    assert_int_equal(tt_bound(&e), BOUND_EXACT);
    assert_int_equal(e.eval, 42);
    assert_int_equal(e.move, make_move(12, 28, FLAG_DOUBLE_PUSH));
    // Seen from ply 5 the same mate is two plies further away.
    assert_int_equal(tt_score_from(e.score, 5), mate_in(9));
    // A half-written entry (data of one write, check of another) does not match.
    assert_true(tt_probe(&tt, key, &e, &slot));
    atomic_store(&slot.bucket->data[slot.index], atomic_load(&slot.bucket->data[slot.index]) ^ 0x10000);
    assert_false(tt_probe(&tt, key, &e, &slot));
    tt_clear(&tt);
    assert_false(tt_probe(&tt, key, &e, &slot));
    assert_true(tt_resize(&tt, 2));
    assert_int_equal(tt.count * sizeof(TTBucket), 2 * 1024 * 1024);
    tt_free(&tt);
}

// The key of entry j of bucket i: the bucket comes from the high 32 bits.
static Key key_in_bucket(const TT *tt, uint64_t i, int j)
{
    uint64_t hi = ((i << 32) + tt->count - 1) / tt->count; // the smallest hi in bucket i
    return hi << 32 | (uint64_t)(0x1000 + j);
}

// hashfull: the permille of the first 1,000 buckets' entries written by this search, of
// every bound; after a new search they no longer count.
static void test_tt_hashfull(void **state)
{
    (void)state;
    TT tt = {0};
    assert_true(tt_resize(&tt, 1));
    tt_new_search(&tt);
    assert_int_equal(tt_hashfull(&tt), 0);
    TTEntry e;
    TTSlot slot;
    for (uint64_t i = 0; i < 600; i++) {
        Key key = key_in_bucket(&tt, i, 0);
        assert_false(tt_probe(&tt, key, &e, &slot));
        assert_ptr_equal(slot.bucket, &tt.buckets[i]);
        tt_store(&tt, slot, key, 0, 0, 1 + (int)(i % 3), 4, MOVE_NONE); // upper, lower, exact
    }
    assert_int_equal(tt_hashfull(&tt), 200); // 600 of the first 3,000 entries
    tt_new_search(&tt);
    assert_int_equal(tt_hashfull(&tt), 0);
    tt_free(&tt);
}

static void test_time_budget(void **state)
{
    (void)state;
    SearchLimits l;
    TimeBudget b;
    limits_init(&l);
    b = tm_budget(&l, WHITE, 10);
    assert_true(b.hard_ms == INT64_MAX); // no limit given: infinite
    l.time[WHITE] = 10000;
    l.inc[WHITE] = 100;
    b = tm_budget(&l, WHITE, 10);
    assert_true(b.soft_ms > 100 && b.soft_ms <= b.hard_ms && b.hard_ms < 10000 / 2);
    l.time[WHITE] = 0; // flag about to fall
    b = tm_budget(&l, WHITE, 10);
    assert_true(b.hard_ms == 0);
    l.time[WHITE] = -50;
    b = tm_budget(&l, WHITE, 10);
    assert_true(b.hard_ms == 0);
    l.time[WHITE] = 100; // increment far larger than the clock: never spend it in advance
    l.inc[WHITE] = 5000;
    b = tm_budget(&l, WHITE, 10);
    assert_true(b.hard_ms < 90);
    l.time[WHITE] = 1000;
    l.inc[WHITE] = 0;
    l.movestogo = 1;
    b = tm_budget(&l, WHITE, 10);
    assert_true(b.hard_ms < 1000 - 10 && b.hard_ms > 300);
    limits_init(&l); // only black's clock while white moves: assume the same clock
    l.time[BLACK] = 2000;
    b = tm_budget(&l, WHITE, 10);
    assert_true(b.hard_ms < 2000);
    limits_init(&l);
    l.movetime = 500;
    b = tm_budget(&l, WHITE, 10);
    assert_int_equal(b.hard_ms, 490);
    // An infinite search has no limit, whatever clocks come with it.
    limits_init(&l);
    l.infinite = true;
    l.time[WHITE] = l.time[BLACK] = 1000;
    b = tm_budget(&l, WHITE, 10);
    assert_true(b.hard_ms == INT64_MAX && b.soft_ms == INT64_MAX);
}

// Every clock field at extreme values: no overflow (the sanitizer build aborts on one),
// and the budget stays within what the clock holds; a huge clock gives a long search.
static void test_time_budget_extremes(void **state)
{
    (void)state;
    static const int64_t V[] = {INT64_MIN + 1, -4000000000000000000LL, -CLOCK_MAX_MS - 1, -1, 0, 1, 1000,
                                CLOCK_MAX_MS + 1, 4000000000000000000LL, INT64_MAX};
    enum { NV = sizeof V / sizeof *V };
    static const int64_t OVERHEAD[] = {0, 10, 5000, INT64_MAX};
    for (int ti = 0; ti < NV; ti++)
        for (int ii = 0; ii < NV; ii++)
            for (int mi = 0; mi < NV; mi++)
                for (int oi = 0; oi < 4; oi++)
                    for (int mtg = 0; mtg <= 1; mtg++) {
                        SearchLimits l;
                        limits_init(&l);
                        l.time[WHITE] = l.time[BLACK] = V[ti];
                        l.inc[WHITE] = l.inc[BLACK] = V[ii];
                        l.movetime = V[mi];
                        l.movestogo = mtg;
                        TimeBudget b = tm_budget(&l, WHITE, OVERHEAD[oi]);
                        assert_true(b.soft_ms >= 0 && b.soft_ms <= b.hard_ms);
                        int64_t clock = tm_clamp(V[ti]);
                        if (clock <= 0)
                            assert_true(b.hard_ms <= 1);
                        else
                            assert_true(b.hard_ms <= clock);
                    }
    SearchLimits l;
    limits_init(&l);
    l.time[WHITE] = l.time[BLACK] = 4000000000000000000LL;
    TimeBudget b = tm_budget(&l, WHITE, 10);
    assert_true(b.soft_ms > 1000000000 && b.hard_ms > b.soft_ms);
    assert_int_equal(tm_clamp(INT64_MIN + 1), -CLOCK_MAX_MS);
    assert_int_equal(tm_clamp(TIME_NONE), TIME_NONE);
}

// The parameter table names every field of SearchParams once, with the default inside
// its range, and param_set refuses values outside it.
static void test_params(void **state)
{
    (void)state;
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    assert_int_equal(PARAM_COUNT * sizeof(int), sizeof(SearchParams));
    for (int i = 0; i < PARAM_COUNT; i++) {
        const ParamInfo *info = &PARAM_TABLE[i];
        assert_ptr_equal(param_find(info->name), info);
        for (int j = 0; j < i; j++)
            assert_true(PARAM_TABLE[j].offset != info->offset);
        int v = param_get(&p, info);
        if (v < info->min || v > info->max)
            fail_msg("%s = %d outside [%d, %d]", info->name, v, info->min, info->max);
        assert_false(param_set(&p, info, info->max + 1));
        assert_int_equal(param_get(&p, info), v);
        assert_true(param_set(&p, info, info->min));
        assert_int_equal(param_get(&p, info), info->min);
    }
    assert_null(param_find("no_such_parameter"));
}

// Lower levels search less and may stray further; the choice weighs each line by how
// close it is to the best, and never picks one beyond the spread.
static void test_strength(void **state)
{
    (void)state;
    StrengthPlan lo = strength_plan(STRENGTH_MIN_ELO), hi = strength_plan(STRENGTH_MAX_ELO);
    assert_true(lo.nodes >= 100 && lo.nodes < hi.nodes && lo.spread > hi.spread && hi.spread == 0);
    assert_true(lo.lines == STRENGTH_LINES && hi.lines == 1);
    for (int elo = STRENGTH_MIN_ELO; elo < STRENGTH_MAX_ELO; elo += 10) {
        StrengthPlan a = strength_plan(elo), b = strength_plan(elo + 10);
        assert_true(a.nodes <= b.nodes && a.spread >= b.spread && a.lines >= b.lines);
        assert_true(a.lines >= 1 && a.lines <= STRENGTH_LINES && (a.lines > 1) == (a.spread > 0));
    }
    // The levels calibrated before the lines narrowed keep their plans (docs/STRENGTH.md).
    assert_true(strength_plan(1500).nodes == 10809 && strength_plan(1500).spread == 84);
    assert_true(strength_plan(1800).nodes == 51063 && strength_plan(1800).spread == 50);
    assert_true(strength_plan(1800).lines == STRENGTH_LINES);
    assert_int_equal(strength_plan(100).nodes, lo.nodes); // clamped
    Score scores[3] = {30, 20, -170};
    int seen[3] = {0, 0, 0};
    for (uint64_t r = 0; r < 92; r++) // weights 51, 41 and 0 for a spread of 50
        seen[strength_choose(scores, 3, 50, r)]++;
    assert_int_equal(seen[0], 51);
    assert_int_equal(seen[1], 41);
    assert_int_equal(seen[2], 0);
    assert_int_equal(strength_choose(scores, 3, 0, 7), 0);
    assert_int_equal(strength_choose(scores, 1, 50, 7), 0);
}

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

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_symmetry),
        cmocka_unit_test(test_eval_trace),
        cmocka_unit_test(test_eval_sense),
        cmocka_unit_test(test_see),
        cmocka_unit_test(test_tt),
        cmocka_unit_test(test_tt_hashfull),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_time_budget_extremes),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_strength),
        cmocka_unit_test(test_helpers_start_fresh),
    };
    return cmocka_run_group_tests_name("search", tests, NULL, NULL);
}
