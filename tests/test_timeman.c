// SPDX-License-Identifier: MIT
// The time manager: budgets for every kind of clock, and extreme values.
#include "test_util.h"

#include "timeman.h"

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

// Moves played before the flag falls in a simulated game at `base_ms` + `inc_ms` (and
// `per_moves` moves per control when not 0: the clock gets base_ms again after each
// control), each move using its budget's soft limit (scaled by `scale`, within the hard
// limit) plus a latency of `latency_ms` that the engine does not see; at most max_moves.
static int moves_before_flag(int64_t base_ms, int64_t inc_ms, int per_moves, double scale, int64_t latency_ms,
                             int max_moves)
{
    int64_t clock = base_ms;
    for (int move = 0; move < max_moves; move++) {
        SearchLimits l;
        limits_init(&l);
        l.time[WHITE] = clock;
        l.inc[WHITE] = inc_ms;
        l.movestogo = per_moves ? per_moves - move % per_moves : 0;
        TimeBudget b = tm_budget(&l, WHITE, 10);
        int64_t used = (int64_t)((double)b.soft_ms * scale);
        clock -= (used < b.hard_ms ? used : b.hard_ms) + latency_ms;
        if (clock < 0)
            return move;
        clock += inc_ms + (per_moves && l.movestogo == 1 ? base_ms : 0);
    }
    return max_moves;
}

// The Move Overhead (10 ms) is kept for every move to come: in sudden death the last
// reserve lets a long game go on at the latency the overhead allows (the soak at 4+0
// lost one game on time at move 114 when it was kept once), a repeating control and an
// increment never flag, and a search that always runs to its hard limit lasts too.
static void test_time_budget_game(void **state)
{
    (void)state;
    assert_true(moves_before_flag(4000, 0, 0, 1.0, 10, 400) >= 130);
    assert_true(moves_before_flag(4000, 0, 0, 1.0, 5, 400) >= 200);
    assert_true(moves_before_flag(4000, 0, 0, 2.0, 10, 400) >= 100);
    assert_true(moves_before_flag(1000, 0, 0, 1.0, 10, 400) >= 80);
    assert_int_equal(moves_before_flag(2000, 0, 40, 3.0, 10, 400), 400);
    assert_int_equal(moves_before_flag(1000, 10, 0, 3.0, 10, 400), 400);
    assert_int_equal(moves_before_flag(8000, 80, 0, 5.0, 10, 400), 400);
}

// The soft limit follows the search only with a clock, never passes the hard limit, and
// grows with instability, a falling score and a small node share of the best move.
static void test_scaled_soft(void **state)
{
    (void)state;
    SearchLimits l;
    limits_init(&l);
    l.time[WHITE] = 60000;
    l.inc[WHITE] = 600;
    TimeBudget b = tm_budget(&l, WHITE, 10);
    assert_true(b.clock);
    int64_t easy = tm_scaled_soft(&b, 8, -30, 0.95), hard = tm_scaled_soft(&b, 0, 200, 0.05);
    assert_true(easy < b.soft_ms && b.soft_ms < hard && hard <= b.hard_ms);
    assert_true(tm_scaled_soft(&b, 0, 0, 0.5) > tm_scaled_soft(&b, 3, 0, 0.5));
    assert_true(tm_scaled_soft(&b, 3, 40, 0.5) > tm_scaled_soft(&b, 3, 0, 0.5));
    assert_true(tm_scaled_soft(&b, 3, 0, 0.2) > tm_scaled_soft(&b, 3, 0, 0.8));
    l.time[WHITE] = 500; // a short clock: the hard limit caps every scale
    b = tm_budget(&l, WHITE, 10);
    assert_true(tm_scaled_soft(&b, 0, 1000, 0.0) <= b.hard_ms);
    limits_init(&l);
    l.movetime = 1000; // movetime: the soft limit stays
    b = tm_budget(&l, WHITE, 10);
    assert_false(b.clock);
    assert_int_equal(tm_scaled_soft(&b, 0, 500, 0.0), b.soft_ms);
    assert_int_equal(tm_scaled_soft(&b, 9, 0, 1.0), b.soft_ms);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_time_budget_extremes),
        cmocka_unit_test(test_time_budget_game),
        cmocka_unit_test(test_scaled_soft),
    };
    return cmocka_run_group_tests_name("timeman", tests, NULL, NULL);
}
