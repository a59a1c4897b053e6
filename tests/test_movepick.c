// SPDX-License-Identifier: MIT
// The staged move picker against the generator: every legal move exactly once, in the
// order of the stages, whatever TT, killer and counter moves it is handed.
#include "test_util.h"

#include "move.h"
#include "movepick.h"
#include "rng.h"
#include "see.h"

static Position pos;
static Histories hist;

static uint64_t rng_state = 1;
static uint64_t rng(void) { return rng_next(&rng_state); }

// A move to hand the picker: legal, or from the list of a sibling position, or noise.
static Move candidate(const MoveList *legal, const MoveList *other)
{
    switch (rng() % 4) {
    case 0:
        return legal->count ? legal->moves[rng() % (unsigned)legal->count] : MOVE_NONE;
    case 1:
        return other->count ? other->moves[rng() % (unsigned)other->count] : MOVE_NONE;
    case 2:
        return (Move)rng();
    default:
        return MOVE_NONE;
    }
}

static bool good_noisy(Move m)
{
    return move_is_noisy(m) && !(move_is_promo(m) && move_promo_type(m) != QUEEN) && see_ge(&pos, m, 0);
}

// One position: a full picker returns each legal move once, the TT move first, winning
// captures before refutations, refutations before other quiets, losing captures last;
// a noisy-only picker returns exactly the (noisy) TT move and the winning captures.
static void check_position(const MoveList *other)
{
    MoveList legal;
    gen_moves(&pos, &legal, GEN_ALL);
    for (int trial = 0; trial < 4; trial++) {
        Move tt = candidate(&legal, other), killers[2] = {candidate(&legal, other), candidate(&legal, other)};
        if (killers[1] == killers[0])
            killers[1] = MOVE_NONE; // the search never holds two equal killers
        Move counter = candidate(&legal, other);
        for (int noisy_only = 0; noisy_only <= 1; noisy_only++) {
            MovePicker mp;
            ContRows rows = {{NULL, NULL}, 0};
            mp_init(&mp, &pos, &hist, &rows, tt, killers, counter, noisy_only);
            uint32_t seen[65536 / 32] = {0};
            int n = 0, last_stage = MP_TT;
            Move m;
            while ((m = mp_next(&mp)) != MOVE_NONE) {
                assert_true(gen_is_pseudo_legal(&pos, m) && gen_is_legal(&pos, m));
                assert_false(seen[m / 32] & (1u << (m % 32)));
                seen[m / 32] |= 1u << (m % 32);
                assert_true((int)mp.last_stage >= last_stage);
                last_stage = mp.last_stage;
                if (mp.last_stage == MP_TT)
                    assert_int_equal(m, tt);
                else if (mp.last_stage == MP_GOOD_NOISY)
                    assert_true(good_noisy(m));
                else if (mp_last_is_refutation(&mp))
                    assert_true(!move_is_noisy(m) && (m == killers[0] || m == killers[1] || m == counter));
                else if (mp.last_stage == MP_QUIET)
                    assert_false(move_is_noisy(m));
                else if (mp.last_stage == MP_BAD_NOISY)
                    assert_true(move_is_noisy(m) && !good_noisy(m));
                n++;
            }
            int expected = 0;
            for (int i = 0; i < legal.count; i++) {
                Move l = legal.moves[i];
                bool wanted = !noisy_only || l == tt ? true : good_noisy(l);
                if (noisy_only && l == tt && !move_is_noisy(l))
                    wanted = false;
                expected += wanted;
                if (wanted && !(seen[l / 32] & (1u << (l % 32)))) {
                    char mv[MOVE_STR_MAX];
                    move_to_uci(l, pos.chess960, mv);
                    fail_msg("legal move %s never returned (noisy_only %d)", mv, noisy_only);
                }
            }
            assert_int_equal(n, expected);
        }
    }
}

static void test_picker_against_generator(void **state)
{
    (void)state;
    hist_clear(&hist);
    for (size_t i = 0; i < sizeof hist.capture / sizeof(int16_t); i++) // orders among captures vary
        (&hist.capture[0][0][0])[i] = (int16_t)(rng() % 4000) - 2000;
    static const char *const FILES[] = {"perft.epd", "perft_tricky.epd"};
    int positions = 0;
    MoveList other = {.count = 0};
    for (int f = 0; f < 2; f++) {
        FILE *in = open_data(FILES[f]);
        char line[512], err[128];
        while (fgets(line, sizeof line, in)) {
            char *semi = strchr(line, ';');
            if (!semi)
                continue;
            *semi = '\0';
            assert_true(pos_set_fen(&pos, line, false, err, sizeof err));
            MoveList root;
            gen_moves(&pos, &root, GEN_ALL);
            check_position(&other);
            positions++;
            for (int k = 0; k < root.count; k++) {
                pos_make_move(&pos, root.moves[k]);
                check_position(&root);
                positions++;
                pos_unmake_move(&pos, root.moves[k]);
            }
            other = root;
        }
        fclose(in);
    }
    print_message("picker checked in %d positions\n", positions);
}

// skip_quiets: after it, no killer, counter or quiet move comes, losing captures still do.
static void test_skip_quiets(void **state)
{
    (void)state;
    hist_clear(&hist);
    char err[128];
    assert_true(pos_set_fen(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, err,
                            sizeof err));
    Move killers[2] = {move_from_uci(&pos, "a2a3"), move_from_uci(&pos, "g2g3")};
    MovePicker mp;
    mp_init(&mp, &pos, &hist, NULL, MOVE_NONE, killers, MOVE_NONE, false);
    Move m;
    int noisy = 0;
    while ((m = mp_next(&mp)) != MOVE_NONE && mp.last_stage == MP_GOOD_NOISY)
        noisy++;
    assert_int_equal(m, killers[0]);
    mp.skip_quiets = true;
    while ((m = mp_next(&mp)) != MOVE_NONE) {
        assert_int_equal(mp.last_stage, MP_BAD_NOISY);
        noisy++;
    }
    MoveList list;
    gen_moves(&pos, &list, GEN_NOISY);
    assert_int_equal(noisy, list.count);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_picker_against_generator),
        cmocka_unit_test(test_skip_quiets),
    };
    return cmocka_run_group_tests_name("movepick", tests, NULL, NULL);
}
