// SPDX-License-Identifier: MIT
// Correction history: an entry follows the search's verdicts on the static eval of its
// pawn structure and side to move, faster for deeper searches, within its bound, and the
// corrected eval stays off the tablebase and mate ranges.
#include "test_util.h"

#include "history.h"

static Position pos;
static Histories hist;

static void set_fen(Position *p, const char *fen)
{
    char err[128];
    if (!pos_set_fen(p, fen, false, err, sizeof err))
        fail_msg("rejected %s: %s", fen, err);
}

static int correction(const Position *p) { return hist_corrected_eval(&hist, p, 0); }

static void test_correction_follows_searches(void **state)
{
    (void)state;
    hist_clear(&hist);
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_int_equal(correction(&pos), 0);
    hist_update_corr(&hist, &pos, 40, 10);
    int once = correction(&pos);
    assert_true(once > 0 && once < 40); // a running mean: one verdict moves it part way
    for (int i = 0; i < 200; i++)
        hist_update_corr(&hist, &pos, 40, 10);
    assert_in_range(correction(&pos), 39, 40); // within the last centipawn (integer steps)
    for (int i = 0; i < 400; i++) // verdicts beyond the bound: held at +-64 cp
        hist_update_corr(&hist, &pos, -500, 20);
    assert_int_equal(correction(&pos), -CORR_MAX / CORR_GRAIN);
    assert_int_equal(hist_corrected_eval(&hist, &pos, 100), 100 - CORR_MAX / CORR_GRAIN);
}

static void test_correction_weight_grows_with_depth(void **state)
{
    (void)state;
    hist_clear(&hist);
    set_fen(&pos, "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
    hist_update_corr(&hist, &pos, 60, 1);
    int shallow = correction(&pos);
    hist_clear(&hist);
    hist_update_corr(&hist, &pos, 60, 12);
    assert_true(correction(&pos) > shallow);
}

// Entries belong to a pawn structure and a side to move: other pawns, or the other side
// to move, read their own entries; moving a piece other than a pawn keeps the entry.
static void test_correction_index(void **state)
{
    (void)state;
    hist_clear(&hist);
    set_fen(&pos, "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
    for (int i = 0; i < 100; i++)
        hist_update_corr(&hist, &pos, 30, 10);
    int own = correction(&pos);
    assert_in_range(own, 29, 30);
    Position other;
    set_fen(&other, "4k3/pp6/8/8/8/8/PP6/3K4 w - - 0 1");
    assert_true(pos_pawn_key(&other) == pos_pawn_key(&pos));
    assert_int_equal(correction(&other), own);
    set_fen(&other, "4k3/pp6/8/8/8/P7/1P6/4K3 w - - 0 1");
    assert_int_equal(correction(&other), 0);
    set_fen(&other, "4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1");
    assert_int_equal(correction(&other), 0);
}

// Near the tablebase range the corrected eval is clamped inside it.
static void test_correction_clamped(void **state)
{
    (void)state;
    hist_clear(&hist);
    set_fen(&pos, "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
    for (int i = 0; i < 400; i++)
        hist_update_corr(&hist, &pos, 500, 20);
    assert_int_equal(hist_corrected_eval(&hist, &pos, SCORE_TB_WIN_IN_MAX - 10), SCORE_TB_WIN_IN_MAX - 1);
    for (int i = 0; i < 400; i++)
        hist_update_corr(&hist, &pos, -500, 20);
    assert_int_equal(hist_corrected_eval(&hist, &pos, -SCORE_TB_WIN_IN_MAX + 10), -SCORE_TB_WIN_IN_MAX + 1);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_correction_follows_searches),
        cmocka_unit_test(test_correction_weight_grows_with_depth),
        cmocka_unit_test(test_correction_index),
        cmocka_unit_test(test_correction_clamped),
    };
    return cmocka_run_group_tests_name("history", tests, NULL, NULL);
}
