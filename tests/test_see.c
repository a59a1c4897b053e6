// SPDX-License-Identifier: MIT
// Static exchange evaluation on hand-checked exchanges.
#include "test_util.h"

#include "move.h"
#include "position.h"
#include "see.h"

static Position pos;

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

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_see),
    };
    return cmocka_run_group_tests_name("see", tests, NULL, NULL);
}
