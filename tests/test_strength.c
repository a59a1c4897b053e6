// SPDX-License-Identifier: MIT
// The UCI_Elo levels: plans that grow with the level, and the weakened choice.
#include "test_util.h"

#include "strength.h"

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

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strength),
    };
    return cmocka_run_group_tests_name("strength", tests, NULL, NULL);
}
